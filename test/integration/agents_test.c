/*  =========================================================================
    agents_test - the agent registry: an agent's heartbeats make it ALIVE
    with its slots in the scheduler, the GraphQL agent fields show it (to a
    superadmin only; agent_summary_list to the users of its resource group),
    a killed agent turns LOST, and a state directory too long for the
    kernels' runner sockets is refused at start

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gateway_client.h"
#include "t.h"

#define WAIT_MS 15000

static client_platform_t s_p;
static harness_proc_t s_agent;

//  The status of agent id in GraphQL `agents`, polled until it is want.
static bool
s_wait_status(const char *id, const char *want, json_t **agent_p)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        json_t *r = client_gql(&s_p, &s_p.super,
                               "{ agents { id status scaling_group region available_slots"
                               " occupied_slots addr } }",
                               NULL);
        json_t *agents = json_object_get(json_object_get(r, "data"), "agents");
        size_t index;
        json_t *agent;
        json_array_foreach(agents, index, agent)
        {
            if (strcmp(json_string_value(json_object_get(agent, "id")), id) == 0 &&
                strcmp(json_string_value(json_object_get(agent, "status")), want) == 0) {
                if (agent_p)
                    *agent_p = json_incref(agent);
                json_decref(r);
                return true;
            }
        }
        json_decref(r);
        struct timespec pause = {0, 50 * 1000000L}; //  heartbeats come every 100 ms
        nanosleep(&pause, NULL);
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000 +
                 (now.tv_nsec - start.tv_nsec) / 1000000 <
             WAIT_MS);
    return false;
}

//  A one-image OCI layout, images/tiny, tagged latest: what umoci writes,
//  with digests that are well formed (the store does not hash the blobs).
#define HEX_MANIFEST "1111111111111111111111111111111111111111111111111111111111111111"
#define HEX_CONFIG   "2222222222222222222222222222222222222222222222222222222222222222"

static bool
s_write(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    if (!file)
        return false;
    fputs(text, file);
    return fclose(file) == 0;
}

static bool
s_write_layout(const char *images)
{
    char path[600];
    snprintf(path, sizeof path, "%s/tiny/blobs/sha256", images);
    char command[700];
    snprintf(command, sizeof command, "mkdir -p %s", path);
    if (system(command) != 0)
        return false;
    snprintf(path, sizeof path, "%s/tiny/index.json", images);
    bool ok = s_write(
        path, "{\"schemaVersion\":2,\"manifests\":[{\"digest\":\"sha256:" HEX_MANIFEST
              "\",\"size\":200,\"annotations\":"
              "{\"org.opencontainers.image.ref.name\":\"latest\"}}]}");
    snprintf(path, sizeof path, "%s/tiny/blobs/sha256/" HEX_MANIFEST, images);
    ok = ok &&
         s_write(path, "{\"schemaVersion\":2,\"config\":{\"digest\":\"sha256:" HEX_CONFIG
                       "\",\"size\":300},\"layers\":[{\"digest\":\"sha256:" HEX_CONFIG
                       "\",\"size\":4000}]}");
    snprintf(path, sizeof path, "%s/tiny/blobs/sha256/" HEX_CONFIG, images);
    ok = ok && s_write(path, "{\"architecture\":\"amd64\",\"config\":{\"Labels\":"
                             "{\"ai.backend.runtime-type\":\"sh\","
                             "\"ai.backend.resource.min.mem\":\"64m\"}}}");
    return ok;
}

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "agents", false) == 0);
    char state[512], pub[160], sub[160], reg[160], images[512];
    snprintf(state, sizeof state, "node.state_dir=%s/agent", s_p.dir);
    snprintf(images, sizeof images, "%s/images", s_p.dir);
    T_ASSERT(s_write_layout(images));
    snprintf(images, sizeof images, "agent.images_dir=%s/images", s_p.dir);
    snprintf(pub, sizeof pub, "bus.hub.publish=%s", s_p.hub_publish);
    snprintf(sub, sizeof sub, "bus.hub.subscribe=%s", s_p.hub_subscribe);
    snprintf(reg, sizeof reg, "bus.hub.registry=%s", s_p.registry);
    const char *args[] = {"--set", state,
                          "--set", pub,
                          "--set", sub,
                          "--set", reg,
                          "--set", "node.name=agent-x",
                          "--set", "bus.heartbeat_ms=100",
                          "--set", "agent.slots.cpu=4",
                          "--set", "agent.slots.mem=8g",
                          "--set", "agent.region=rack-1",
                          "--set", images,
                          NULL};
    T_ASSERT(harness_start(&s_agent, s_p.dir, "agent", "agent", args) == 0);
    T_ASSERT(harness_wait_line(&s_agent, "ready ", CLIENT_READY_MS, NULL, 0));
}

//  A state directory too long for the kernels' runner sockets (a Unix
//  socket's path: 107 bytes) is refused at start, saying so, rather than
//  failing every create with "runner socket path too long".
static void
test_long_state_dir_refused(void)
{
    char state[512], pub[160], sub[160], reg[160];
    snprintf(state, sizeof state, "node.state_dir=%s/agent-%080d", s_p.dir, 0);
    snprintf(pub, sizeof pub, "bus.hub.publish=%s", s_p.hub_publish);
    snprintf(sub, sizeof sub, "bus.hub.subscribe=%s", s_p.hub_subscribe);
    snprintf(reg, sizeof reg, "bus.hub.registry=%s", s_p.registry);
    const char *args[] = {"--set", state,   "--set", pub,     "--set",
                          sub,     "--set", reg,     "--set", "node.name=agent-long",
                          NULL};
    harness_proc_t agent;
    T_ASSERT(harness_start(&agent, s_p.dir, "agent-long", "agent", args) == 0);
    T_ASSERT(!harness_wait_line(&agent, "ready ", CLIENT_READY_MS, NULL, 0));
    T_EQ_INT(harness_stop(&agent, CLIENT_STOP_MS), 1);
    T_ASSERT(harness_log_has(&agent, "is too long for the kernels' runner sockets"));
    T_ASSERT(!harness_log_has_report(&agent));
}

static void
test_alive_with_slots(void)
{
    json_t *agent = NULL;
    T_ASSERT(s_wait_status("agent-x", "ALIVE", &agent));
    T_EQ_STR(json_string_value(json_object_get(agent, "region")), "rack-1");
    T_EQ_STR(json_string_value(json_object_get(agent, "scaling_group")), "default");
    json_t *slots =
        json_loads(json_string_value(json_object_get(agent, "available_slots")), 0, NULL);
    T_EQ_STR(json_string_value(json_object_get(slots, "cpu")), "4");
    T_EQ_STR(json_string_value(json_object_get(slots, "mem")), "8589934592");
    T_EQ_STR(json_string_value(json_object_get(agent, "occupied_slots")), "{}");
    T_CONTAINS(json_string_value(json_object_get(agent, "addr")), "tcp://");
    json_decref(slots);
    json_decref(agent);
    //  agent_list pages and agent(agent_id) finds it.
    json_t *r =
        client_gql(&s_p, &s_p.super,
                   "{ agent_list(limit: 10, offset: 0, status: \"ALIVE\") {"
                   " items { id } total_count } agent(agent_id: \"agent-x\") { id } }",
                   NULL);
    json_t *data = json_object_get(r, "data");
    T_EQ_INT(json_integer_value(
                 json_object_get(json_object_get(data, "agent_list"), "total_count")),
             1);
    T_EQ_STR(json_string_value(json_object_get(json_object_get(data, "agent"), "id")),
             "agent-x");
    json_decref(r);
}

static void
test_only_superadmin_sees_agents(void)
{
    json_t *r = client_gql(&s_p, &s_p.super,
                           "mutation { create_user(email: \"u@example.com\", props:"
                           " {password: \"pw-u\", domain_name: \"default\"}) { ok } }",
                           NULL);
    T_ASSERT(client_mutation_ok(r, "create_user"));
    json_decref(r);
    client_keypair_t user;
    T_ASSERT(client_keypair_of(&s_p, "u@example.com", &user));
    r = client_gql(&s_p, &user, "{ agents { id } }", NULL);
    T_ASSERT(json_array_size(json_object_get(r, "errors")) == 1);
    T_CONTAINS(json_string_value(json_object_get(
                   json_array_get(json_object_get(r, "errors"), 0), "message")),
               "Insufficient privilege");
    json_decref(r);
}

//  agent_summary_list: a user sees the agents of the resource groups open
//  to them, without addresses; a user of a domain with no group sees none.
static void
test_agent_summary_for_users(void)
{
    client_keypair_t user;
    T_ASSERT(client_keypair_of(&s_p, "u@example.com", &user));
    const char *query = "{ agent_summary_list(limit: 10, offset: 0, status: \"ALIVE\") {"
                        " items { id status scaling_group available_slots"
                        " occupied_slots schedulable addr } total_count } }";
    json_t *r = client_gql(&s_p, &user, query, NULL);
    json_t *list = json_object_get(json_object_get(r, "data"), "agent_summary_list");
    T_EQ_INT(json_integer_value(json_object_get(list, "total_count")), 1);
    json_t *agent = json_array_get(json_object_get(list, "items"), 0);
    T_EQ_STR(json_string_value(json_object_get(agent, "id")), "agent-x");
    T_EQ_STR(json_string_value(json_object_get(agent, "scaling_group")), "default");
    T_CONTAINS(json_string_value(json_object_get(agent, "available_slots")), "\"cpu\"");
    T_ASSERT(json_is_true(json_object_get(agent, "schedulable")));
    T_ASSERT(json_is_null(json_object_get(agent, "addr")));
    json_decref(r);
    r = client_gql(&s_p, &s_p.super,
                   "mutation { create_domain(name: \"far\", props: {}) { ok } }", NULL);
    T_ASSERT(client_mutation_ok(r, "create_domain"));
    json_decref(r);
    r = client_gql(&s_p, &s_p.super,
                   "mutation { create_user(email: \"far@example.com\", props:"
                   " {password: \"pw-far\", domain_name: \"far\"}) { ok } }",
                   NULL);
    T_ASSERT(client_mutation_ok(r, "create_user"));
    json_decref(r);
    client_keypair_t far;
    T_ASSERT(client_keypair_of(&s_p, "far@example.com", &far));
    r = client_gql(&s_p, &far, query, NULL);
    list = json_object_get(json_object_get(r, "data"), "agent_summary_list");
    T_EQ_INT(json_integer_value(json_object_get(list, "total_count")), 0);
    json_decref(r);
}

static void
test_images_reach_the_catalogue(void)
{
    json_t *tiny = NULL;
    for (int tries = 0; !tiny && tries < WAIT_MS / 50; tries++) {
        json_t *r = client_gql(&s_p, &s_p.super,
                               "{ images { name registry tag architecture digest"
                               " size_bytes installed installed_agents"
                               " labels { key value } } }",
                               NULL);
        size_t index;
        json_t *image;
        json_array_foreach(json_object_get(json_object_get(r, "data"), "images"), index,
                           image)
        {
            if (strcmp(json_string_value(json_object_get(image, "name")),
                       "library/tiny") == 0)
                tiny = json_incref(image);
        }
        json_decref(r);
        struct timespec pause = {0, 50 * 1000000L};
        if (!tiny)
            nanosleep(&pause, NULL);
    }
    T_ASSERT(tiny);
    T_EQ_STR(json_string_value(json_object_get(tiny, "registry")), "local.backplane");
    T_EQ_STR(json_string_value(json_object_get(tiny, "tag")), "latest");
    T_EQ_STR(json_string_value(json_object_get(tiny, "architecture")), "x86_64");
    T_EQ_STR(json_string_value(json_object_get(tiny, "digest")), "sha256:" HEX_MANIFEST);
    T_EQ_INT(json_integer_value(json_object_get(tiny, "size_bytes")), 4300);
    T_ASSERT(json_is_true(json_object_get(tiny, "installed")));
    T_EQ_STR(
        json_string_value(json_array_get(json_object_get(tiny, "installed_agents"), 0)),
        "agent-x");
    char *labels = json_dumps(json_object_get(tiny, "labels"), JSON_COMPACT);
    T_CONTAINS(labels, "{\"key\":\"ai.backend.runtime-type\",\"value\":\"sh\"}");
    free(labels);
    json_decref(tiny);
}

//  POST /resource/check-presets as the superadmin; the parsed answer.
static json_t *
s_check_presets(const char *body, int want_status)
{
    char *text = NULL;
    int status = client_signed(&s_p, &s_p.super, "POST", "/resource/check-presets", body,
                               NULL, &text, NULL);
    json_t *answer = text ? json_loads(text, 0, NULL) : NULL;
    if (status != want_status) {
        fprintf(stderr, "# check-presets %s: status %d body %s\n", body, status,
                text ? text : "");
        json_decref(answer);
        answer = NULL;
    }
    free(text);
    return answer;
}

static const char *
s_slot(json_t *answer, const char *map, const char *slot)
{
    return json_string_value(json_object_get(json_object_get(answer, map), slot));
}

//  Whether preset name is allocatable in answer (-1: not listed).
static int
s_allocatable(json_t *answer, const char *name)
{
    size_t index;
    json_t *preset;
    json_array_foreach(json_object_get(answer, "presets"), index, preset)
    {
        if (strcmp(json_string_value(json_object_get(preset, "name")), name) == 0)
            return json_is_true(json_object_get(preset, "allocatable"));
    }
    return -1;
}

static void
test_check_presets(void)
{
    const char *presets[][2] = {{"fits", "{\"cpu\": 1, \"mem\": \"1g\"}"},
                                {"too-many-cpus", "{\"cpu\": 8, \"mem\": \"1g\"}"},
                                {"too-much-mem", "{\"cpu\": 1, \"mem\": \"9g\"}"}};
    for (size_t i = 0; i < 3; i++) {
        json_t *r = client_gql(
            &s_p, &s_p.super,
            "mutation($n: String!, $s: String!) { create_resource_preset(name: $n,"
            " props: {resource_slots: $s}) { ok msg } }",
            json_pack("{s:s, s:s}", "n", presets[i][0], "s", presets[i][1]));
        T_ASSERT(client_mutation_ok(r, "create_resource_preset"));
        json_decref(r);
    }
    //  No limits yet: the agent (cpu 4, mem 8g) is what bounds the presets.
    json_t *answer =
        s_check_presets("{\"scaling_group\": null, \"group\": \"default\"}", 200);
    T_ASSERT(answer);
    T_EQ_STR(s_slot(answer, "keypair_limits", "cpu"), "Infinity");
    T_EQ_STR(s_slot(answer, "keypair_using", "cpu"), "0");
    T_EQ_STR(s_slot(answer, "keypair_remaining", "mem"), "Infinity");
    T_EQ_STR(s_slot(answer, "group_limits", "mem"), "Infinity");
    T_EQ_STR(s_slot(answer, "scaling_group_remaining", "cpu"), "4");
    T_EQ_STR(s_slot(answer, "scaling_group_remaining", "mem"), "8589934592");
    json_t *sgroup =
        json_object_get(json_object_get(answer, "scaling_groups"), "default");
    T_EQ_STR(s_slot(sgroup, "remaining", "cpu"), "4");
    T_EQ_STR(s_slot(sgroup, "using", "mem"), "0");
    T_EQ_INT(s_allocatable(answer, "fits"), 1);
    T_EQ_INT(s_allocatable(answer, "too-many-cpus"), 0);
    T_EQ_INT(s_allocatable(answer, "too-much-mem"), 0);
    json_decref(answer);
    //  A keypair limit under the preset makes it unallocatable, and shows.
    json_t *r =
        client_gql(&s_p, &s_p.super,
                   "mutation { modify_keypair_resource_policy(name: \"default\","
                   " props: {total_resource_slots: \"{\\\"cpu\\\": \\\"0.5\\\"}\"})"
                   " { ok msg } }",
                   NULL);
    T_ASSERT(client_mutation_ok(r, "modify_keypair_resource_policy"));
    json_decref(r);
    answer =
        s_check_presets("{\"scaling_group\": \"default\", \"group\": \"default\"}", 200);
    T_ASSERT(answer);
    T_EQ_STR(s_slot(answer, "keypair_limits", "cpu"), "0.5");
    T_EQ_STR(s_slot(answer, "keypair_remaining", "cpu"), "0.5");
    T_EQ_INT(s_allocatable(answer, "fits"), 0);
    json_decref(answer);
    //  Unknown project or resource group: Backend.AI's invalid-api-params.
    answer = s_check_presets("{\"group\": \"nowhere\"}", 400);
    T_ASSERT(answer);
    T_CONTAINS(json_string_value(json_object_get(answer, "type")), "invalid-api-params");
    json_decref(answer);
    answer = s_check_presets("{\"group\": \"default\", \"scaling_group\": \"gpu\"}", 400);
    T_ASSERT(answer);
    T_CONTAINS(json_string_value(json_object_get(answer, "type")), "invalid-api-params");
    json_decref(answer);
    answer = s_check_presets("{\"group\": 7}", 400);
    T_ASSERT(answer);
    T_CONTAINS(json_string_value(json_object_get(answer, "type")), "invalid-api-params");
    json_decref(answer);
}

static void
test_killed_agent_turns_lost(void)
{
    harness_kill(&s_agent);
    T_ASSERT(s_wait_status("agent-x", "LOST", NULL));
}

int
main(void)
{
    T_RUN(test_start);
    T_RUN(test_long_state_dir_refused);
    T_RUN(test_alive_with_slots);
    T_RUN(test_only_superadmin_sees_agents);
    T_RUN(test_agent_summary_for_users);
    T_RUN(test_images_reach_the_catalogue);
    T_RUN(test_check_presets);
    T_RUN(test_killed_agent_turns_lost);
    bool clean = client_platform_stop(&s_p);
    if (!clean)
        fprintf(stderr, "# a service did not stop cleanly\n");
    client_platform_end(&s_p, t_failures > 0 || !clean);
    return clean ? T_DONE() : 1;
}
