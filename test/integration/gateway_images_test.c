/*  =========================================================================
    gateway_images_test - the image catalogue from an agent's report to the CLI

    Starts the scheduler (hub and registry) and the gateway as real
    processes, then joins the bus itself as a fake agent: a bus_node in this
    process publishes a durable image.catalog event with two images. The
    test polls the gateway's GraphQL `images` until they appear, then
    covers aliases (alias_image, resolution through image(reference:
    <alias>), dealias_image), a registry the user's domain does not allow
    (hidden from lists and from resolution), forget_image, the superadmin-
    only writes, and a second report that replaces the agent's first.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <event2/event.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>

#include "bus.h"
#include "gateway_client.h"
#include "t.h"

#define APPLY_MS 20000 //  how long a report may take to reach the catalogue
#define PUMP_MS  100   //  the fake agent's loop runs this long between polls

#define PYTHON   "cr.backend.ai/stable/python:3.9-ubuntu20.04"
#define MINER    "registry.example.com/tools/miner:1.0"
#define AGENT_ID "i-fake-agent"

typedef struct {
    bus_node_config_t node;
} agent_config_t;

static const bus_config_option_t s_agent_options[] = {
    BUS_NODE_CONFIG_ROWS(agent_config_t, node, "false", BUS_NODE_HTTP_ANY),
    BUS_CONFIG_END,
};

static client_platform_t s_p;
static client_keypair_t s_user;
static struct event_base *s_base;
static agent_config_t s_agent_config;
static bus_node_t *s_agent;

static json_t *
s_data(json_t *response, const char *field)
{
    return json_object_get(json_object_get(response, "data"), field);
}

//  ok of a mutation as kp.
static bool
s_mutate(const client_keypair_t *kp,
         const char *query,
         json_t *variables,
         const char *field)
{
    json_t *r = client_gql(&s_p, kp, query, variables);
    bool ok = json_is_true(json_object_get(s_data(r, field), "ok"));
    json_decref(r);
    return ok;
}

//  ---------------------------------------------------------------------------
//  The fake agent

static void
s_on_tick(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    (void) arg;
}

//  Runs the agent's loop for about ms (it answers the gateway's catch-up).
static void
s_pump(int ms)
{
    struct event *tick = event_new(s_base, -1, EV_PERSIST, s_on_tick, NULL);
    struct timeval tv = {0, 10000};
    event_add(tick, &tv);
    int64_t deadline = bus_clock_mono_ms() + ms;
    while (bus_clock_mono_ms() < deadline)
        event_base_loop(s_base, EVLOOP_ONCE);
    event_free(tick);
}

static void
s_info(proto_image_info_t *info, const char *reference, const char *arch)
{
    proto_image_info_init(info);
    info->reference = reference;
    info->architecture = arch;
    info->digest = "sha256:5f1e0bd3a1c7";
    info->size_bytes = 1234567890;
}

//  Adds a label to info, whose labels are room (big enough).
static void
s_label(proto_image_info_t *info, proto_kv_t *room, const char *key, const char *value)
{
    room[info->labels_count++] = (proto_kv_t){key, value};
    info->labels = room;
}

//  Publishes a durable image.catalog: python (installed or not) and,
//  when with_miner, the miner.
static bool
s_report(bool python_installed, bool with_miner)
{
    proto_image_catalog_t catalog;
    proto_image_catalog_init(&catalog);
    catalog.agent_id = AGENT_ID;
    proto_image_info_t images[2];
    proto_kv_t labels[2][4];
    catalog.images = images;
    s_info(&images[0], PYTHON, "amd64");
    images[0].installed = python_installed;
    s_label(&images[0], labels[0], "ai.backend.kernelspec", "1");
    s_label(&images[0], labels[0], "ai.backend.features", "batch query uid-match");
    s_label(&images[0], labels[0], "ai.backend.resource.min.mem", "256m");
    s_label(&images[0], labels[0], "ai.backend.runtime-type", "python");
    catalog.images_count = 1;
    if (with_miner) {
        s_info(&images[1], MINER, "x86_64");
        s_label(&images[1], labels[1], "ai.backend.role", "SYSTEM");
        catalog.images_count = 2;
    }
    bus_writer_t *writer = bus_writer_new();
    bool ok = writer && proto_image_catalog_write(&catalog, writer) == 0;
    ok = ok && bus_node_begin(s_agent) == 0 &&
         bus_node_emit(s_agent, PROTO_IMAGE_CATALOG, bus_writer_data(writer),
                       bus_writer_size(writer)) != 0 &&
         bus_node_commit(s_agent) == 0;
    bus_writer_destroy(&writer);
    proto_image_catalog_clear(&catalog);
    return ok;
}

//  The images as kp sees them (caller decrefs), polled until want of them
//  are there with python's installed flag as given, or time is up.
static json_t *
s_wait_images(const client_keypair_t *kp, size_t want, bool python_installed)
{
    int64_t deadline = bus_clock_mono_ms() + APPLY_MS;
    for (;;) {
        s_pump(PUMP_MS);
        json_t *r =
            client_gql(&s_p, kp,
                       "{ images(is_operation: false) { name registry architecture tag"
                       " digest size_bytes aliases installed installed_agents type"
                       " labels { key value } resource_limits { key min max } } }",
                       NULL);
        json_t *images = json_incref(s_data(r, "images"));
        json_decref(r);
        bool done = json_array_size(images) == want;
        size_t index;
        json_t *image;
        json_array_foreach(images, index, image)
        {
            if (strcmp(json_string_value(json_object_get(image, "name")),
                       "stable/python") == 0 &&
                json_is_true(json_object_get(image, "installed")) != python_installed)
                done = false;
        }
        if (done || bus_clock_mono_ms() > deadline)
            return images;
        json_decref(images);
    }
}

static json_t *
s_find(json_t *images, const char *name)
{
    size_t index;
    json_t *image;
    json_array_foreach(images, index, image)
    {
        if (strcmp(json_string_value(json_object_get(image, "name")), name) == 0)
            return image;
    }
    return NULL;
}

//  The name of the image reference resolves to for kp, "" when none.
static const char *
s_resolve(const client_keypair_t *kp, const char *reference)
{
    static char name[256];
    json_t *r =
        client_gql(&s_p, kp,
                   "query($r: String!) { image(reference: $r, architecture: \"x86_64\")"
                   " { name registry tag } }",
                   json_pack("{s:s}", "r", reference));
    json_t *image = s_data(r, "image");
    snprintf(name, sizeof name, "%s%s%s",
             json_string_value(json_object_get(image, "registry")) ?: "",
             json_is_object(image) ? "/" : "",
             json_string_value(json_object_get(image, "name")) ?: "");
    json_decref(r);
    return name;
}

//  ---------------------------------------------------------------------------

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "gateway-images", false) == 0);
}

static void
test_agent_report_reaches_catalogue(void)
{
    //  The fake agent: a node of our own on the scheduler's hub.
    char agent_dir[600];
    snprintf(agent_dir, sizeof agent_dir, "%s/agent", s_p.dir);
    T_ASSERT(mkdir(agent_dir, 0700) == 0);
    agent_config_t *c = &s_agent_config;
    T_EQ_INT(bus_config_defaults(s_agent_options, c, NULL), 0);
    bus_config_set(s_agent_options, c, "node.state_dir", agent_dir, NULL);
    bus_config_set(s_agent_options, c, "node.name", AGENT_ID, NULL);
    bus_config_set(s_agent_options, c, "bus.heartbeat_ms", "100", NULL);
    bus_config_set(s_agent_options, c, "bus.sync_ms", "200", NULL);
    bus_config_set(s_agent_options, c, "bus.http_listen", "", NULL);
    bus_config_set(s_agent_options, c, "bus.hub.publish", s_p.hub_publish, NULL);
    bus_config_set(s_agent_options, c, "bus.hub.subscribe", s_p.hub_subscribe, NULL);
    bus_config_set(s_agent_options, c, "bus.hub.registry", s_p.registry, NULL);
    bus_log_set_level(bus_log_level_from_str("warning")); //  quiet in the TAP stream
    s_base = event_base_new();
    bus_error_t err = {0};
    s_agent = bus_node_new("agent", &c->node, s_base, NULL, 0, &err);
    T_ASSERT(s_agent);
    //  Its readiness line goes to stdout; keep it out of the TAP stream.
    FILE *saved = stdout, *capture = tmpfile();
    stdout = capture;
    bus_node_start(s_agent);
    stdout = saved;
    fclose(capture);
    T_ASSERT(s_report(true, true));

    json_t *images = s_wait_images(&s_p.super, 2, true);
    T_EQ_INT(json_array_size(images), 2);
    json_t *python = s_find(images, "stable/python");
    T_ASSERT(python);
    T_EQ_STR(json_string_value(json_object_get(python, "registry")), "cr.backend.ai");
    T_EQ_STR(json_string_value(json_object_get(python, "architecture")), "x86_64");
    T_EQ_STR(json_string_value(json_object_get(python, "tag")), "3.9-ubuntu20.04");
    T_EQ_STR(json_string_value(json_object_get(python, "digest")), "sha256:5f1e0bd3a1c7");
    T_EQ_INT((int) json_integer_value(json_object_get(python, "size_bytes")), 1234567890);
    T_EQ_STR(json_string_value(json_object_get(python, "type")), "COMPUTE");
    T_EQ_STR(
        json_string_value(json_array_get(json_object_get(python, "installed_agents"), 0)),
        AGENT_ID);
    T_EQ_INT(json_array_size(json_object_get(python, "labels")), 4);
    char *limits = json_dumps(json_object_get(python, "resource_limits"),
                              JSON_COMPACT | JSON_SORT_KEYS);
    T_CONTAINS(limits, "{\"key\":\"mem\",\"max\":\"Infinity\",\"min\":\"268435456\"}");
    T_CONTAINS(limits, "{\"key\":\"cpu\",\"max\":\"Infinity\",\"min\":\"1\"}");
    free(limits);
    json_t *miner = s_find(images, "tools/miner");
    T_ASSERT(miner);
    T_EQ_STR(json_string_value(json_object_get(miner, "type")), "SYSTEM");
    json_decref(images);
}

static void
test_domain_registries(void)
{
    //  The default domain allows cr.backend.ai only; a user there.
    T_ASSERT(s_mutate(&s_p.super,
                      "mutation { modify_domain(name: \"default\", props:"
                      " {allowed_docker_registries: [\"cr.backend.ai\"]}) { ok msg } }",
                      NULL, "modify_domain"));
    T_ASSERT(s_mutate(&s_p.super,
                      "mutation($e: String!, $p: UserInput!) { create_user(email: $e,"
                      " props: $p) { ok msg } }",
                      json_pack("{s:s, s:{s:s, s:s, s:s, s:s, s:b}}", "e",
                                "imguser@example.com", "p", "password", "pw-123456",
                                "domain_name", "default", "role", "user", "username",
                                "imguser", "need_password_change", 0),
                      "create_user"));
    json_t *r = client_gql(
        &s_p, &s_p.super,
        "{ keypairs(email: \"imguser@example.com\") { access_key secret_key } }", NULL);
    json_t *kp = json_array_get(s_data(r, "keypairs"), 0);
    T_ASSERT(kp);
    snprintf(s_user.access_key, sizeof s_user.access_key, "%s",
             json_string_value(json_object_get(kp, "access_key")));
    snprintf(s_user.secret_key, sizeof s_user.secret_key, "%s",
             json_string_value(json_object_get(kp, "secret_key")));
    json_decref(r);

    //  The user sees python but not the miner, and no agent names.
    json_t *images = s_wait_images(&s_user, 1, true);
    T_EQ_INT(json_array_size(images), 1);
    json_t *python = s_find(images, "stable/python");
    T_ASSERT(python);
    T_ASSERT(json_is_true(json_object_get(python, "installed")));
    T_EQ_INT(json_array_size(json_object_get(python, "installed_agents")), 0);
    json_decref(images);
    //  Nor can it resolve the miner; the superadmin can.
    T_EQ_STR(s_resolve(&s_user, MINER), "");
    T_EQ_STR(s_resolve(&s_p.super, MINER), "registry.example.com/tools/miner");
    T_EQ_STR(s_resolve(&s_user, PYTHON), "cr.backend.ai/stable/python");
    T_EQ_STR(s_resolve(&s_user, "cr.backend.ai/stable/python"), ""); //  tag latest
    T_EQ_STR(s_resolve(&s_user, "no-such-image"), "");
}

static void
test_aliases(void)
{
    const char *alias = "mutation($a: String!, $t: String!) { alias_image(alias: $a,"
                        " target: $t) { ok msg } }";
    const char *dealias = "mutation($a: String!) { dealias_image(alias: $a) { ok msg } }";
    //  Only a superadmin aliases.
    T_ASSERT(!s_mutate(&s_user, alias, json_pack("{s:s, s:s}", "a", "py", "t", PYTHON),
                       "alias_image"));
    T_ASSERT(s_mutate(&s_p.super, alias, json_pack("{s:s, s:s}", "a", "py", "t", PYTHON),
                      "alias_image"));
    T_ASSERT(s_mutate(&s_p.super, alias, json_pack("{s:s, s:s}", "a", "mine", "t", MINER),
                      "alias_image"));
    //  Twice, or to an unknown image, or with a bad reference: refused.
    T_ASSERT(!s_mutate(&s_p.super, alias, json_pack("{s:s, s:s}", "a", "py", "t", PYTHON),
                       "alias_image"));
    T_ASSERT(!s_mutate(&s_p.super, alias,
                       json_pack("{s:s, s:s}", "a", "ghost", "t", "cr.backend.ai/x/y:1"),
                       "alias_image"));
    T_ASSERT(!s_mutate(&s_p.super, alias,
                       json_pack("{s:s, s:s}", "a", "bad", "t", "A//B"), "alias_image"));
    //  Resolution through the alias, and the alias in the image's list.
    T_EQ_STR(s_resolve(&s_user, "py"), "cr.backend.ai/stable/python");
    T_EQ_STR(s_resolve(&s_p.super, "mine"), "registry.example.com/tools/miner");
    T_EQ_STR(s_resolve(&s_user, "mine"), ""); //  the registry is not allowed
    json_t *r =
        client_gql(&s_p, &s_user, "{ image(reference: \"py\") { aliases } }", NULL);
    T_EQ_STR(json_string_value(
                 json_array_get(json_object_get(s_data(r, "image"), "aliases"), 0)),
             "py");
    json_decref(r);
    //  Only a superadmin dealiases; then the alias resolves no more.
    T_ASSERT(!s_mutate(&s_user, dealias, json_pack("{s:s}", "a", "py"), "dealias_image"));
    T_ASSERT(
        s_mutate(&s_p.super, dealias, json_pack("{s:s}", "a", "py"), "dealias_image"));
    T_ASSERT(
        !s_mutate(&s_p.super, dealias, json_pack("{s:s}", "a", "py"), "dealias_image"));
    T_EQ_STR(s_resolve(&s_user, "py"), "");
}

static void
test_forget_and_new_report(void)
{
    const char *forget = "mutation($r: String!) { forget_image(reference: $r,"
                         " architecture: \"x86_64\") { ok msg } }";
    T_ASSERT(!s_mutate(&s_user, forget, json_pack("{s:s}", "r", MINER), "forget_image"));
    T_ASSERT(
        s_mutate(&s_p.super, forget, json_pack("{s:s}", "r", MINER), "forget_image"));
    T_ASSERT(
        !s_mutate(&s_p.super, forget, json_pack("{s:s}", "r", MINER), "forget_image"));
    T_EQ_STR(s_resolve(&s_p.super, "mine"), ""); //  its alias went with it
    //  The agent's next report lists python as not installed: it leaves the list.
    T_ASSERT(s_report(false, false));
    json_t *images = s_wait_images(&s_p.super, 1, false);
    T_EQ_INT(json_array_size(images), 1);
    json_t *python = s_find(images, "stable/python");
    T_ASSERT(python && json_is_false(json_object_get(python, "installed")));
    T_EQ_INT(json_array_size(json_object_get(python, "installed_agents")), 0);
    json_decref(images);
    //  is_installed filters.
    json_t *r =
        client_gql(&s_p, &s_p.super, "{ images(is_installed: true) { name } }", NULL);
    T_EQ_INT(json_array_size(s_data(r, "images")), 0);
    json_decref(r);
}

static void
test_stop(void)
{
    bus_node_destroy(&s_agent);
    event_base_free(s_base);
    bus_config_clear(s_agent_options, &s_agent_config);
    T_ASSERT(client_platform_stop(&s_p));
}

int
main(void)
{
    T_RUN(test_start);
    T_RUN(test_agent_report_reaches_catalogue);
    T_RUN(test_domain_registries);
    T_RUN(test_aliases);
    T_RUN(test_forget_and_new_report);
    T_RUN(test_stop);
    client_platform_end(&s_p, t_failures > 0);
    return T_DONE();
}
