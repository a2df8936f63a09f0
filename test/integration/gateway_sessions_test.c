/*  =========================================================================
    gateway_sessions_test - the /session routes against the whole platform
    with a real agent and real runc containers: POST /session waits until
    the session runs, execute in query mode returns Backend.AI's result,
    GET shows it, DELETE ends it; bad names, images and resources get
    Backend.AI's problem+json. Needs root, runc, umoci and tini.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gateway_client.h"
#include "t.h"

#define IMAGE "local.backplane/library/busybox:latest"

static client_platform_t s_p;
static harness_proc_t s_agent;
static char s_bridge[16];

//  A signed request as the superadmin; the parsed body (NULL if none).
static json_t *
s_request(const char *method, const char *path, const char *body, int *status)
{
    char *text = NULL;
    *status = client_signed(&s_p, &s_p.super, method, path, body, NULL, &text, NULL);
    json_t *parsed = text ? json_loads(text, 0, NULL) : NULL;
    if (!parsed && text && *text)
        fprintf(stderr, "# %s %s: %d %s\n", method, path, *status, text);
    free(text);
    return parsed;
}

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "gw-sessions", false) == 0);
    snprintf(s_bridge, sizeof s_bridge, "bpg%d", (int) (getpid() % 100000));
    T_ASSERT(client_agent_start(&s_p, &s_agent, "agent-g", s_bridge, "10.217.0.0/24"));
}

static void
test_create_waits_until_running(void)
{
    int status;
    json_t *r =
        s_request("POST", "/session",
                  "{\"name\": \"gw-first\", \"image\": \"" IMAGE "\","
                  " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"256m\"},"
                  " \"environ\": {\"GREETING\": \"hello\"}}, \"type\": \"interactive\","
                  " \"group\": \"default\", \"domain\": \"default\"}",
                  &status);
    T_EQ_INT(status, 201);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "RUNNING");
    T_EQ_STR(json_string_value(json_object_get(r, "sessionName")), "gw-first");
    T_ASSERT(json_is_true(json_object_get(r, "created")));
    T_EQ_INT(strlen(json_string_value(json_object_get(r, "sessionId"))), 36);
    json_decref(r);
    r = s_request("GET", "/session/gw-first", NULL, &status);
    T_EQ_INT(status, 200);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "RUNNING");
    T_CONTAINS(json_string_value(json_object_get(r, "occupiedSlots")), "\"cpu\":\"1\"");
    json_decref(r);
}

static void
test_execute_query(void)
{
    int status;
    json_t *r = s_request("POST", "/session/gw-first",
                          "{\"mode\": \"query\", \"runId\": \"run-1\","
                          " \"code\": \"echo $GREETING from $(whoami)\"}",
                          &status);
    T_EQ_INT(status, 200);
    json_t *result = json_object_get(r, "result");
    T_EQ_STR(json_string_value(json_object_get(result, "status")), "finished");
    T_EQ_INT(json_integer_value(json_object_get(result, "exitCode")), 0);
    char *console = json_dumps(json_object_get(result, "console"), JSON_COMPACT);
    T_CONTAINS(console, "hello from");
    free(console);
    json_decref(r);
}

static void
test_logs_and_interrupt(void)
{
    int status;
    json_t *r = s_request("GET", "/session/gw-first/logs", NULL, &status);
    T_EQ_INT(status, 200);
    //  The runner logs where it listens when the container starts.
    T_CONTAINS(json_string_value(json_object_get(json_object_get(r, "result"), "logs")),
               "backplane-runner");
    json_decref(r);
    r = s_request("POST", "/session/gw-first/interrupt", NULL, &status);
    T_EQ_INT(status, 204);
    json_decref(r);
}

static void
test_graphql_sees_it(void)
{
    //  As `backend.ai ps` and `session info` ask.
    json_t *r = client_gql(
        &s_p, &s_p.super,
        "query($limit: Int!, $offset: Int!, $status: String) {"
        " compute_session_list(limit: $limit, offset: $offset, status: $status) {"
        " items { id name image type status status_info group_name user_email"
        " occupied_slots containers { agent status } } total_count } }",
        json_pack("{s:i, s:i, s:s}", "limit", 20, "offset", 0, "status",
                  "PENDING,SCHEDULED,PREPARING,RUNNING,TERMINATING"));
    json_t *list = json_object_get(json_object_get(r, "data"), "compute_session_list");
    T_EQ_INT(json_integer_value(json_object_get(list, "total_count")), 1);
    json_t *item = json_array_get(json_object_get(list, "items"), 0);
    T_EQ_STR(json_string_value(json_object_get(item, "name")), "gw-first");
    T_EQ_STR(json_string_value(json_object_get(item, "status")), "RUNNING");
    T_EQ_STR(json_string_value(json_object_get(item, "group_name")), "default");
    T_EQ_STR(json_string_value(json_object_get(item, "image")), IMAGE);
    T_CONTAINS(json_string_value(json_object_get(item, "user_email")), "@");
    T_EQ_STR(json_string_value(json_object_get(
                 json_array_get(json_object_get(item, "containers"), 0), "agent")),
             "agent-g");
    char id[64];
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(item, "id")));
    json_decref(r);
    r = client_gql(&s_p, &s_p.super,
                   "query($id: UUID!) { compute_session(id: $id) { name status_data } }",
                   json_pack("{s:s}", "id", id));
    T_EQ_STR(json_string_value(json_object_get(
                 json_object_get(json_object_get(r, "data"), "compute_session"), "name")),
             "gw-first");
    json_decref(r);
}

static void
test_bad_requests(void)
{
    int status;
    json_t *r = s_request("POST", "/session",
                          "{\"name\": \"x\", \"image\": \"" IMAGE "\"}", &status);
    T_EQ_INT(status, 400);
    T_CONTAINS(json_string_value(json_object_get(r, "type")), "invalid-api-params");
    json_decref(r);
    r = s_request(
        "POST", "/session",
        "{\"name\": \"gw-nothing\", \"image\": \"local.backplane/library/nope\"}",
        &status);
    T_EQ_INT(status, 404);
    T_CONTAINS(json_string_value(json_object_get(r, "type")), "object-not-found");
    json_decref(r);
    r = s_request("POST", "/session",
                  "{\"name\": \"gw-tiny\", \"image\": \"" IMAGE "\","
                  " \"config\": {\"resources\": {\"mem\": \"1m\"}}}",
                  &status);
    T_EQ_INT(status, 400);
    T_CONTAINS(json_string_value(json_object_get(r, "msg")), "minimum");
    json_decref(r);
    r = s_request("POST", "/session",
                  "{\"name\": \"gw-first\", \"image\": \"" IMAGE "\","
                  " \"reuseIfExists\": true}",
                  &status);
    T_EQ_INT(status, 201);
    T_ASSERT(json_is_false(json_object_get(r, "created")));
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "RUNNING");
    json_decref(r);
    r = s_request("POST", "/session",
                  "{\"name\": \"gw-first\", \"image\": \"" IMAGE "\","
                  " \"reuseIfExists\": false}",
                  &status);
    T_EQ_INT(status, 400);
    T_CONTAINS(json_string_value(json_object_get(r, "type")), "session-already-exists");
    json_decref(r);
    r = s_request("GET", "/session/no-such-session", NULL, &status);
    T_EQ_INT(status, 404);
    json_decref(r);
}

static void
test_destroy(void)
{
    int status;
    json_t *r = s_request("DELETE", "/session/gw-first", NULL, &status);
    T_EQ_INT(status, 200);
    T_ASSERT(json_is_object(json_object_get(r, "stats")));
    json_decref(r);
    const char *last = "";
    for (int tries = 0; tries < 100; tries++) {
        r = s_request("GET", "/session/gw-first", NULL, &status);
        static char seen[32];
        snprintf(seen, sizeof seen, "%s",
                 json_string_value(json_object_get(r, "status")));
        last = seen;
        json_decref(r);
        if (strcmp(last, "TERMINATED") == 0)
            break;
        struct timespec pause = {0, 100 * 1000000L};
        nanosleep(&pause, NULL);
    }
    T_EQ_STR(last, "TERMINATED");
}

int
main(void)
{
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    T_RUN(test_start);
    if (t_failures)
        return T_DONE();
    T_RUN(test_create_waits_until_running);
    T_RUN(test_execute_query);
    T_RUN(test_graphql_sees_it);
    T_RUN(test_logs_and_interrupt);
    T_RUN(test_bad_requests);
    T_RUN(test_destroy);
    int agent = harness_stop(&s_agent, CLIENT_STOP_MS);
    bool clean =
        client_platform_stop(&s_p) && agent == 0 && !harness_log_has_report(&s_agent);
    if (!clean)
        fprintf(stderr, "# a service did not stop cleanly (agent %d)\n", agent);
    char command[64];
    snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridge);
    if (system(command) != 0)
        fprintf(stderr, "# bridge %s was not there\n", s_bridge);
    client_platform_end(&s_p, t_failures > 0 || !clean);
    return clean ? T_DONE() : 1;
}
