/*  =========================================================================
    gateway_maintenance_test - the /manager and /config routes

    Starts the scheduler and the gateway as real processes and drives them
    as the official client does. Without containers: GET and PUT
    /manager/status (freeze refuses session and folder creation with 503
    server-frozen and GraphQL mutations, reads still work, unfreeze lifts
    it), the frozen state kept across a gateway restart, the announcement
    (set, read by a user, cleared; a user refused), scheduler operations'
    refusals, the /config routes' shapes. With a real agent (root, runc):
    an excluded agent gets no new session (it stays PENDING, however many
    heartbeats the agent sends), included again it runs; a frozen platform
    refuses a create the running one then accepts, and a freeze with
    force_kill destroys the running session.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bus.h"
#include "gateway_client.h"
#include "t.h"

#define IMAGE      "local.backplane/library/busybox:latest"
#define AGENT      "agent-m"
#define WAIT_MS    30000
#define WAIT_TRIES 100 //  polls at least, however the clock jumps

static client_platform_t s_p;
static client_keypair_t s_user;
static harness_proc_t s_agent;
static char s_bridge[16];
static bool s_containers;

//  A signed request as kp; the parsed body (NULL if none) and the status.
static json_t *
s_as(const client_keypair_t *kp,
     const char *method,
     const char *path,
     const char *body,
     int *status)
{
    char *text = NULL;
    *status = client_signed(&s_p, kp, method, path, body, NULL, &text, NULL);
    json_t *parsed = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    return parsed;
}

//  The problem slug of a problem+json body ("" when none).
static const char *
s_slug(json_t *problem)
{
    const char *type = json_string_value(json_object_get(problem, "type"));
    const char *slash = type ? strrchr(type, '/') : NULL;
    return slash ? slash + 1 : "";
}

//  Sends a request as kp and checks its status and, for a problem, its slug.
static void
s_expect(const client_keypair_t *kp,
         const char *method,
         const char *path,
         const char *body,
         int want,
         const char *want_slug)
{
    int status;
    json_t *r = s_as(kp, method, path, body, &status);
    if (status != want)
        printf("# %s %s: %d\n", method, path, status);
    T_EQ_INT(status, want);
    if (want_slug)
        T_EQ_STR(s_slug(r), want_slug);
    json_decref(r);
}

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "gw-maint", false) == 0);
    json_t *r = client_gql(
        &s_p, &s_p.super,
        "mutation($email: String!, $input: UserInput!) {"
        " create_user(email: $email, props: $input) { ok msg } }",
        json_pack("{s:s, s:{s:s, s:s, s:s, s:s, s:b}}", "email", "maint-user@example.com",
                  "input", "password", "pw-123456", "domain_name", "default", "role",
                  "user", "username", "maint-user", "need_password_change", 0));
    T_ASSERT(client_mutation_ok(r, "create_user"));
    json_decref(r);
    T_ASSERT(client_keypair_of(&s_p, "maint-user@example.com", &s_user));
}

static void
test_agent_start(void)
{
    snprintf(s_bridge, sizeof s_bridge, "bpm%d", (int) (getpid() % 100000));
    T_ASSERT(client_agent_start(&s_p, &s_agent, AGENT, s_bridge, harness_subnet()));
}

static void
test_status(void)
{
    int status;
    //  The client's `admin manager status` sends a body with its GET.
    json_t *r =
        s_as(&s_p.super, "GET", "/manager/status", "{\"status\": \"running\"}", &status);
    T_EQ_INT(status, 200);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "running");
    T_EQ_INT(json_integer_value(json_object_get(r, "active_sessions")), 0);
    json_t *node = json_array_get(json_object_get(r, "nodes"), 0);
    T_EQ_STR(json_string_value(json_object_get(node, "status")), "running");
    T_EQ_STR(json_string_value(json_object_get(node, "api_version")), "v6.20220315");
    T_ASSERT(json_is_string(json_object_get(node, "id")));
    json_decref(r);
    //  Anyone signed may read it; only a superadmin may change it.
    s_expect(&s_user, "GET", "/manager/status", NULL, 200, NULL);
    s_expect(&s_user, "PUT", "/manager/status", "{\"status\": \"frozen\"}", 403,
             "generic-forbidden");
    //  Malformed bodies.
    s_expect(&s_p.super, "PUT", "/manager/status", "{}", 400, "invalid-api-params");
    s_expect(&s_p.super, "PUT", "/manager/status", "{\"status\": \"melted\"}", 400,
             "invalid-api-params");
    s_expect(&s_p.super, "PUT", "/manager/status", "{\"status\": 1}", 400,
             "invalid-api-params");
    s_expect(&s_p.super, "PUT", "/manager/status",
             "{\"status\": \"frozen\", \"force_kill\": \"maybe\"}", 400,
             "invalid-api-params");
    s_expect(&s_p.super, "PUT", "/manager/status", "[1, 2", 400, NULL);
    s_expect(&s_p.super, "DELETE", "/manager/status", NULL, 405, "method-not-allowed");
}

static void
test_freeze(void)
{
    s_expect(&s_p.super, "PUT", "/manager/status",
             "{\"status\": \"frozen\", \"force_kill\": false}", 204, NULL);
    int status;
    json_t *r = s_as(&s_user, "GET", "/manager/status", NULL, &status);
    T_EQ_INT(status, 200);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "frozen");
    json_decref(r);
    //  Creation is refused, for a user and for a superadmin.
    const char *create = "{\"name\": \"frozen-one\", \"image\": \"" IMAGE "\","
                         " \"enqueueOnly\": true}";
    s_expect(&s_user, "POST", "/session", create, 503, "server-frozen");
    s_expect(&s_p.super, "POST", "/session", create, 503, "server-frozen");
    s_expect(&s_p.super, "POST", "/session/_/create", create, 503, "server-frozen");
    s_expect(&s_user, "POST", "/folders", "{\"name\": \"frozen-folder\"}", 503,
             "server-frozen");
    //  GraphQL: queries answer, mutations fail.
    r = client_gql(&s_p, &s_p.super, "{ domains { name } }", NULL);
    T_ASSERT(r && !json_object_get(r, "errors"));
    json_decref(r);
    r = client_gql(
        &s_p, &s_p.super,
        "mutation { create_domain(name: \"frozen-domain\", props: {}) { ok } }", NULL);
    char *errors = json_dumps(json_object_get(r, "errors"), 0);
    T_CONTAINS(errors, "server-frozen");
    free(errors);
    json_decref(r);
    //  Reads still work.
    s_expect(&s_user, "GET", "/folders", NULL, 200, NULL);
    s_expect(&s_user, "GET", "/manager/announcement", NULL, 200, NULL);
    //  force_kill with no session running: frozen, nothing to kill.
    s_expect(&s_p.super, "PUT", "/manager/status",
             "{\"status\": \"frozen\", \"force_kill\": \"true\"}", 204, NULL);
}

static void
test_frozen_across_restart(void)
{
    T_ASSERT(client_gateway_restart(&s_p, "gateway-2"));
    //  The status counts sessions at the scheduler, which the new gateway
    //  finds at its first registry sync: 503 until then.
    int status = 0;
    json_t *r = NULL;
    int64_t started = bus_clock_mono_ms();
    while (bus_clock_mono_ms() - started < WAIT_MS) {
        json_decref(r);
        r = s_as(&s_p.super, "GET", "/manager/status", NULL, &status);
        if (status != 503)
            break;
        harness_pause_ms(100);
    }
    T_EQ_INT(status, 200);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "frozen");
    json_decref(r);
    s_expect(&s_user, "POST", "/session",
             "{\"name\": \"frozen-two\", \"image\": \"" IMAGE "\"}", 503,
             "server-frozen");
    s_expect(&s_p.super, "PUT", "/manager/status", "{\"status\": \"running\"}", 204,
             NULL);
    r = s_as(&s_p.super, "GET", "/manager/status", NULL, &status);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "running");
    json_decref(r);
    //  Running again: a create gets past the frozen check (no agent has
    //  the image here, so it fails on that, not as frozen).
    r = s_as(
        &s_user, "POST", "/session",
        "{\"name\": \"thawed\", \"image\": \"no-such/image:1\", \"enqueueOnly\": true}",
        &status);
    T_ASSERT(status != 503);
    T_ASSERT(strcmp(s_slug(r), "server-frozen") != 0);
    json_decref(r);
}

static void
test_announcement(void)
{
    int status;
    json_t *r = s_as(&s_user, "GET", "/manager/announcement", NULL, &status);
    T_EQ_INT(status, 200);
    T_ASSERT(json_is_false(json_object_get(r, "enabled")));
    T_EQ_STR(json_string_value(json_object_get(r, "message")), "");
    json_decref(r);
    s_expect(&s_p.super, "POST", "/manager/announcement",
             "{\"enabled\": true, \"message\": \"Maintenance at 18:00 UTC\"}", 204, NULL);
    r = s_as(&s_user, "GET", "/manager/announcement", NULL, &status);
    T_EQ_INT(status, 200);
    T_ASSERT(json_is_true(json_object_get(r, "enabled")));
    T_EQ_STR(json_string_value(json_object_get(r, "message")),
             "Maintenance at 18:00 UTC");
    json_decref(r);
    //  A user may not set it; an empty message cannot enable it.
    s_expect(&s_user, "POST", "/manager/announcement",
             "{\"enabled\": true, \"message\": \"mine\"}", 403, "generic-forbidden");
    s_expect(&s_p.super, "POST", "/manager/announcement",
             "{\"enabled\": true, \"message\": \"\"}", 400, "invalid-api-params");
    s_expect(&s_p.super, "POST", "/manager/announcement", "{\"enabled\": true}", 400,
             "invalid-api-params");
    s_expect(&s_p.super, "POST", "/manager/announcement",
             "{\"enabled\": true, \"message\": 7}", 400, "invalid-api-params");
    s_expect(&s_p.super, "POST", "/manager/announcement", "{\"enabled\": [true]}", 400,
             "invalid-api-params");
    //  Kept across a restart, then cleared (enabled false, as
    //  `update-announcement` with nothing and `delete-announcement` send).
    T_ASSERT(client_gateway_restart(&s_p, "gateway-3"));
    r = s_as(&s_user, "GET", "/manager/announcement", NULL, &status);
    T_EQ_STR(json_string_value(json_object_get(r, "message")),
             "Maintenance at 18:00 UTC");
    json_decref(r);
    s_expect(&s_p.super, "POST", "/manager/announcement",
             "{\"enabled\": false, \"message\": null}", 204, NULL);
    r = s_as(&s_user, "GET", "/manager/announcement", NULL, &status);
    T_ASSERT(json_is_false(json_object_get(r, "enabled")));
    T_EQ_STR(json_string_value(json_object_get(r, "message")), "");
    json_decref(r);
}

static void
test_scheduler_operation_refusals(void)
{
    const char *path = "/manager/scheduler/operation";
    s_expect(&s_user, "POST", path, "{\"op\": \"exclude-agents\", \"args\": [\"x\"]}",
             403, "generic-forbidden");
    s_expect(&s_p.super, "POST", path, "{\"args\": []}", 400, "invalid-api-params");
    s_expect(&s_p.super, "POST", path, "{\"op\": \"exclude-agents\"}", 400,
             "invalid-api-params");
    s_expect(&s_p.super, "POST", path, "{\"op\": \"reboot\", \"args\": []}", 400,
             "invalid-api-params");
    s_expect(&s_p.super, "POST", path, "{\"op\": \"exclude-agents\", \"args\": \"a\"}",
             400, "invalid-api-params");
    s_expect(&s_p.super, "POST", path, "{\"op\": \"exclude-agents\", \"args\": [1]}", 400,
             "invalid-api-params");
    s_expect(&s_p.super, "POST", path,
             "{\"op\": \"include-agents\", \"args\": [\"no-such-agent\"]}", 404,
             "instance-not-found");
    s_expect(&s_p.super, "POST", path, "{\"op\": \"include-agents\", \"args\": []}", 204,
             NULL);
    s_expect(&s_p.super, "GET", path, NULL, 405, "method-not-allowed");
}

static void
test_config_routes(void)
{
    int status;
    json_t *r = s_as(&s_user, "GET", "/config/resource-slots", NULL, &status);
    T_EQ_INT(status, 200);
    T_EQ_STR(json_string_value(json_object_get(r, "cpu")), "count");
    T_EQ_STR(json_string_value(json_object_get(r, "mem")), "bytes");
    json_decref(r);
    r = s_as(&s_user, "GET", "/config/resource-slots/details", NULL, &status);
    T_EQ_INT(status, 200);
    json_t *mem = json_object_get(r, "mem");
    T_EQ_STR(json_string_value(json_object_get(mem, "slot_name")), "ram");
    T_EQ_STR(json_string_value(json_object_get(mem, "display_unit")), "GiB");
    T_ASSERT(
        json_is_true(json_object_get(json_object_get(mem, "number_format"), "binary")));
    T_EQ_STR(json_string_value(
                 json_object_get(json_object_get(r, "cpu"), "human_readable_name")),
             "CPU");
    json_decref(r);
    r = s_as(&s_user, "GET", "/config/resource-slots/details?sgroup=nowhere", NULL,
             &status);
    T_EQ_INT(status, 200);
    T_ASSERT(json_object_get(r, "cpu") && json_object_get(r, "mem"));
    json_decref(r);
    r = s_as(&s_user, "GET", "/config/vfolder-types", NULL, &status);
    T_EQ_INT(status, 200);
    T_EQ_STR(json_string_value(json_array_get(r, 0)), "user");
    T_EQ_STR(json_string_value(json_array_get(r, 1)), "group");
    json_decref(r);
    s_expect(&s_user, "GET", "/config/docker-registries", NULL, 403, "generic-forbidden");
    r = s_as(&s_p.super, "GET", "/config/docker-registries", NULL, &status);
    T_EQ_INT(status, 200);
    T_EQ_STR(json_string_value(json_object_get(r, "index.docker.io")),
             "https://registry-1.docker.io");
    if (s_containers)
        T_EQ_STR(json_string_value(json_object_get(r, "local.backplane")),
                 "https://local.backplane");
    json_decref(r);
}

//  The status of session name as the superadmin sees it ("" when unknown).
static char *
s_session_status(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s", name);
    int status;
    json_t *r = s_as(&s_p.super, "GET", path, NULL, &status);
    const char *value = json_string_value(json_object_get(r, "status"));
    char *out = strdup(value ? value : "");
    json_decref(r);
    return out;
}

//  Waits until session name reads want; false on timeout.
static bool
s_wait_session(const char *name, const char *want)
{
    int64_t started = bus_clock_mono_ms();
    while (bus_clock_mono_ms() - started < WAIT_MS) {
        char *now = s_session_status(name);
        bool done = strcmp(now, want) == 0;
        free(now);
        if (done)
            return true;
        harness_pause_ms(100);
    }
    return false;
}

//  Whether the registry says the agent is schedulable (-1: not found, after
//  trying for a while: a restarted gateway finds the scheduler at its first
//  registry sync).
static int
s_schedulable(void)
{
    int out = -1;
    int64_t started = bus_clock_mono_ms();
    for (int i = 0;
         out == -1 && (i < WAIT_TRIES || bus_clock_mono_ms() - started < WAIT_MS); i++) {
        json_t *r = client_gql(&s_p, &s_p.super, "{ agents { id schedulable } }", NULL);
        size_t index;
        json_t *agent;
        json_array_foreach(json_object_get(json_object_get(r, "data"), "agents"), index,
                           agent)
        {
            const char *id = json_string_value(json_object_get(agent, "id"));
            if (id && strcmp(id, AGENT) == 0)
                out = json_is_true(json_object_get(agent, "schedulable"));
        }
        if (out == -1) {
            char *text = r ? json_dumps(r, 0) : NULL;
            printf("# agents: %s\n", text ? text : "(no answer)");
            free(text);
            harness_pause_ms(200);
        }
        json_decref(r);
    }
    return out;
}

static void
test_exclude_and_include(void)
{
    T_EQ_INT(s_schedulable(), 1);
    const char *path = "/manager/scheduler/operation";
    s_expect(&s_p.super, "POST", path,
             "{\"op\": \"exclude-agents\", \"args\": [\"" AGENT "\"]}", 204, NULL);
    T_EQ_INT(s_schedulable(), 0);
    //  One unknown among known ones: nothing changes.
    s_expect(&s_p.super, "POST", path,
             "{\"op\": \"include-agents\", \"args\": [\"" AGENT "\", \"ghost\"]}", 404,
             "instance-not-found");
    T_EQ_INT(s_schedulable(), 0);
    s_expect(&s_p.super, "POST", "/session",
             "{\"name\": \"waits\", \"image\": \"" IMAGE "\", \"enqueueOnly\": true,"
             " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"}}}",
             201, NULL);
    //  Many heartbeats and scheduling passes later it is still PENDING and
    //  the agent still excluded.
    harness_pause_ms(2000);
    char *now = s_session_status("waits");
    T_EQ_STR(now, "PENDING");
    free(now);
    T_EQ_INT(s_schedulable(), 0);
    s_expect(&s_p.super, "POST", path,
             "{\"op\": \"include-agents\", \"args\": [\"" AGENT "\"]}", 204, NULL);
    T_ASSERT(s_wait_session("waits", "RUNNING"));
    T_EQ_INT(s_schedulable(), 1);
    int status;
    json_t *r = s_as(&s_p.super, "GET", "/manager/status", NULL, &status);
    T_EQ_INT(json_integer_value(json_object_get(r, "active_sessions")), 1);
    json_decref(r);
    s_expect(&s_p.super, "DELETE", "/session/waits", NULL, 200, NULL);
}

static void
test_freeze_then_create(void)
{
    const char *create = "{\"name\": \"after-thaw\", \"image\": \"" IMAGE "\","
                         " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"}}}";
    s_expect(&s_p.super, "PUT", "/manager/status", "{\"status\": \"frozen\"}", 204, NULL);
    s_expect(&s_p.super, "POST", "/session", create, 503, "server-frozen");
    s_expect(&s_p.super, "PUT", "/manager/status", "{\"status\": \"running\"}", 204,
             NULL);
    int status;
    json_t *r = s_as(&s_p.super, "POST", "/session", create, &status);
    T_EQ_INT(status, 201);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "RUNNING");
    json_decref(r);
    //  A freeze with force_kill destroys it; a plain unfreeze lifts the freeze.
    s_expect(&s_p.super, "PUT", "/manager/status",
             "{\"status\": \"frozen\", \"force_kill\": true}", 204, NULL);
    int64_t started = bus_clock_mono_ms();
    bool ended = false;
    while (!ended && bus_clock_mono_ms() - started < WAIT_MS) {
        char *now = s_session_status("after-thaw");
        ended = strcmp(now, "TERMINATED") == 0 || strcmp(now, "") == 0;
        free(now);
        if (!ended)
            harness_pause_ms(100);
    }
    T_ASSERT(ended);
    r = s_as(&s_p.super, "GET", "/manager/status", NULL, &status);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "frozen");
    T_EQ_INT(json_integer_value(json_object_get(r, "active_sessions")), 0);
    json_decref(r);
    s_expect(&s_p.super, "PUT", "/manager/status", "{\"status\": \"running\"}", 204,
             NULL);
}

int
main(void)
{
    s_containers = harness_can_run_containers();
    T_RUN(test_start);
    if (t_failures)
        return T_DONE();
    if (s_containers)
        T_RUN(test_agent_start);
    T_RUN(test_status);
    T_RUN(test_freeze);
    T_RUN(test_frozen_across_restart);
    T_RUN(test_announcement);
    T_RUN(test_scheduler_operation_refusals);
    T_RUN(test_config_routes);
    bool clean = true;
    if (!s_containers) {
        T_RUN_SKIP(test_exclude_and_include, "needs root, runc, umoci and tini-static");
        T_RUN_SKIP(test_freeze_then_create, "needs root, runc, umoci and tini-static");
    } else {
        T_RUN(test_exclude_and_include);
        T_RUN(test_freeze_then_create);
        int agent = harness_stop(&s_agent, CLIENT_STOP_MS);
        clean = agent == 0 && !harness_log_has_report(&s_agent);
        char command[64];
        snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridge);
        if (system(command) == 0)
            fprintf(stderr, "# the agent left its bridge %s\n", s_bridge);
    }
    clean = client_platform_stop(&s_p) && clean;
    client_platform_end(&s_p, t_failures > 0 || !clean);
    return clean ? T_DONE() : 1;
}
