/*  =========================================================================
    logs_test - logs that outlive their session, error logs, and the host
    figures of the admin agent list, against the whole platform with a real
    agent and real runc containers.

    A batch session prints a line to stdout and one to stderr, then ends:
    GET /session/{name}/logs still answers both once it is TERMINATED and
    its container is gone, and again after its agent stopped and started
    anew (the agent kept them in its database). Error logs: a user posts
    one; its owner lists it, another user does not see it and cannot clear
    it (404), the owner clears it and no longer sees it, the superadmin
    still does (is_cleared); mark_read marks the page; bad parameters are
    refused; a log made 100 days old is deleted by the retention job (at
    the gateway's restart). The agent figures: GraphQL agents answers a CPU
    use between 0 and 100 per core (not 0 while this test burns a CPU), the
    memory in use above 0 and below the host's, and live_stat in Backend.AI's
    node form. Needs root, runc, umoci and tini; skips otherwise.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "gateway_client.h"
#include "t.h"

#define IMAGE    "local.backplane/library/busybox:latest"
#define AGENT    "agent-logs"
#define WAIT_MS  30000
#define OLD_DAYS 100

static client_platform_t s_p;
static harness_proc_t s_agent;
static char s_bridge[16];
static const char *s_cidr; //  the agent's kernels' subnet, the same after a restart
static client_keypair_t s_alice, s_bob;

static long long
s_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

//  A signed request as kp; the parsed body (NULL if none).
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
    if (!parsed && text && *text)
        fprintf(stderr, "# %s %s: %d %s\n", method, path, *status, text);
    free(text);
    return parsed;
}

//  The session's logs as its owner (the superadmin); status 200 expected.
static char *
s_logs(const char *session)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s/logs", session);
    int status;
    json_t *r = s_as(&s_p.super, "GET", path, NULL, &status);
    const char *logs =
        json_string_value(json_object_get(json_object_get(r, "result"), "logs"));
    char *copy = status == 200 && logs ? strdup(logs) : NULL;
    if (!copy)
        fprintf(stderr, "# GET %s: %d\n", path, status);
    json_decref(r);
    return copy;
}

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "logs", false) == 0);
    snprintf(s_bridge, sizeof s_bridge, "bpl%d", (int) (getpid() % 100000));
    if (!s_cidr)
        s_cidr = harness_subnet();
    T_ASSERT(client_agent_start(&s_p, &s_agent, AGENT, s_bridge, s_cidr));
    T_ASSERT(client_person(&s_p, "alice@logs.example", "default", "user", &s_alice));
    T_ASSERT(client_person(&s_p, "bob@logs.example", "default", "user", &s_bob));
}

static void
test_logs_after_the_end(void)
{
    int status;
    json_t *r = s_as(&s_p.super, "POST", "/session",
                     "{\"name\": \"logs-batch\", \"image\": \"" IMAGE "\","
                     " \"type\": \"batch\", \"startupCommand\":"
                     " \"echo line-from-the-task; echo err-from-the-task >&2\","
                     " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"}}}",
                     &status);
    T_EQ_INT(status, 201);
    char id[64];
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(r, "sessionId")));
    json_decref(r);
    T_EQ_INT(strlen(id), 36);
    //  Its end: TERMINATED, the container gone.
    char state[32] = "";
    long long deadline = s_now_ms() + WAIT_MS;
    while (strcmp(state, "TERMINATED") != 0 && s_now_ms() < deadline) {
        harness_pause_ms(100);
        r = s_as(&s_p.super, "GET", "/session/logs-batch", NULL, &status);
        snprintf(state, sizeof state, "%s",
                 json_string_value(json_object_get(r, "status"))
                     ? json_string_value(json_object_get(r, "status"))
                     : "");
        json_decref(r);
    }
    T_EQ_STR(state, "TERMINATED");
    char *logs = s_logs("logs-batch");
    T_ASSERT(logs);
    T_CONTAINS(logs, "line-from-the-task");
    T_CONTAINS(logs, "err-from-the-task");
    T_CONTAINS(logs, "backplane-runner"); //  the container's own output too
    free(logs);
    logs = s_logs(id); //  by id as well
    T_ASSERT(logs);
    T_CONTAINS(logs, "line-from-the-task");
    free(logs);
}

static void
test_logs_after_an_agent_restart(void)
{
    T_EQ_INT(harness_stop(&s_agent, CLIENT_STOP_MS), 0);
    T_ASSERT(!harness_log_has_report(&s_agent));
    if (!s_cidr)
        s_cidr = harness_subnet();
    T_ASSERT(client_agent_start(&s_p, &s_agent, AGENT, s_bridge, s_cidr));
    //  The scheduler learns the new agent's address from its heartbeat.
    char *logs = NULL;
    long long deadline = s_now_ms() + WAIT_MS;
    while (!(logs && strstr(logs, "line-from-the-task")) && s_now_ms() < deadline) {
        free(logs);
        harness_pause_ms(200);
        logs = s_logs("logs-batch");
    }
    T_ASSERT(logs);
    T_CONTAINS(logs, "line-from-the-task");
    T_CONTAINS(logs, "err-from-the-task");
    free(logs);
}

//  GET /logs/error as kp: the count, the parsed body in *r_p.
static long long
s_list(const client_keypair_t *kp, const char *query, json_t **r_p)
{
    char path[160];
    snprintf(path, sizeof path, "/logs/error%s", query ? query : "");
    int status;
    json_t *r = s_as(kp, "GET", path, NULL, &status);
    long long count = status == 200 && json_is_integer(json_object_get(r, "count"))
                          ? json_integer_value(json_object_get(r, "count"))
                          : -1;
    if (r_p)
        *r_p = r;
    else
        json_decref(r);
    return count;
}

static void
test_error_logs(void)
{
    int status;
    json_t *r = s_as(&s_alice, "POST", "/logs/error",
                     "{\"severity\": \"error\", \"source\": \"webui\","
                     " \"message\": \"alice met a bug\", \"context_lang\": \"js\","
                     " \"context_env\": \"{\\\"page\\\": \\\"summary\\\"}\","
                     " \"request_url\": \"/session\", \"request_status\": 500,"
                     " \"traceback\": \"at line 1\"}",
                     &status);
    T_EQ_INT(status, 200);
    T_ASSERT(json_is_true(json_object_get(r, "success")));
    json_decref(r);
    //  The owner sees it, in Backend.AI's shape.
    T_EQ_INT(s_list(&s_alice, NULL, &r), 1);
    json_t *log = json_array_get(json_object_get(r, "logs"), 0);
    T_EQ_STR(json_string_value(json_object_get(log, "message")), "alice met a bug");
    T_EQ_STR(json_string_value(json_object_get(log, "severity")), "error");
    T_EQ_STR(json_string_value(json_object_get(log, "source")), "webui");
    T_EQ_STR(json_string_value(json_object_get(log, "request_url")), "/session");
    T_EQ_INT(json_integer_value(json_object_get(log, "request_status")), 500);
    T_EQ_STR(json_string_value(json_object_get(log, "traceback")), "at line 1");
    T_EQ_STR(
        json_string_value(json_object_get(json_object_get(log, "context_env"), "page")),
        "summary");
    T_ASSERT(json_is_real(json_object_get(log, "created_at")));
    double age =
        (double) time(NULL) - json_real_value(json_object_get(log, "created_at"));
    T_ASSERT(age > -5 && age < 60);
    T_ASSERT(json_is_false(json_object_get(log, "is_read")));
    T_ASSERT(!json_object_get(log, "is_cleared")); //  users are not told
    char log_id[64];
    snprintf(log_id, sizeof log_id, "%s",
             json_string_value(json_object_get(log, "log_id")));
    json_decref(r);
    //  Another user neither sees nor clears it.
    T_EQ_INT(s_list(&s_bob, NULL, &r), 0);
    T_EQ_INT(json_array_size(json_object_get(r, "logs")), 0);
    json_decref(r);
    char path[160];
    snprintf(path, sizeof path, "/logs/error/%s/clear", log_id);
    json_decref(s_as(&s_bob, "POST", path, NULL, &status));
    T_EQ_INT(status, 404);
    //  mark_read marks what the page answered.
    T_EQ_INT(s_list(&s_alice, "?mark_read=True", NULL), 1);
    T_EQ_INT(s_list(&s_alice, NULL, &r), 1);
    T_ASSERT(json_is_true(
        json_object_get(json_array_get(json_object_get(r, "logs"), 0), "is_read")));
    json_decref(r);
    //  The owner clears it: gone from their list, not from the superadmin's.
    r = s_as(&s_alice, "POST", path, NULL, &status);
    T_EQ_INT(status, 200);
    T_ASSERT(json_is_true(json_object_get(r, "success")));
    json_decref(r);
    T_EQ_INT(s_list(&s_alice, NULL, NULL), 0);
    T_ASSERT(s_list(&s_p.super, NULL, &r) >= 1);
    bool found = false;
    size_t i;
    json_array_foreach(json_object_get(r, "logs"), i, log)
    {
        if (strcmp(json_string_value(json_object_get(log, "log_id")), log_id) == 0)
            found = json_is_true(json_object_get(log, "is_cleared"));
    }
    T_ASSERT(found);
    json_decref(r);
    //  Paging: one per page.
    json_decref(
        s_as(&s_bob, "POST", "/logs/error",
             "{\"severity\": \"warning\", \"source\": \"cli\", \"message\": \"b1\","
             " \"context_lang\": \"python\", \"context_env\": \"{}\"}",
             &status));
    T_EQ_INT(status, 200);
    json_decref(s_as(&s_bob, "POST", "/logs/error",
                     "{\"severity\": \"info\", \"source\": \"cli\", \"message\": \"b2\","
                     " \"context_lang\": \"python\", \"context_env\": \"{}\"}",
                     &status));
    T_EQ_INT(status, 200);
    T_EQ_INT(s_list(&s_bob, "?page_size=1&page_no=2", &r), 2);
    T_EQ_INT(json_array_size(json_object_get(r, "logs")), 1);
    T_EQ_STR(json_string_value(json_object_get(
                 json_array_get(json_object_get(r, "logs"), 0), "message")),
             "b1"); //  newest first
    json_decref(r);
    //  Refusals.
    T_EQ_INT(s_list(&s_bob, "?page_size=101", NULL), -1);
    json_decref(s_as(&s_bob, "POST", "/logs/error",
                     "{\"severity\": \"fatal\", \"source\": \"cli\", \"message\": \"x\","
                     " \"context_lang\": \"python\", \"context_env\": \"{}\"}",
                     &status));
    T_EQ_INT(status, 400);
    json_decref(s_as(&s_bob, "POST", "/logs/error",
                     "{\"severity\": \"error\", \"source\": \"cli\", \"message\": \"x\","
                     " \"context_lang\": \"python\", \"context_env\": \"{not json\"}",
                     &status));
    T_EQ_INT(status, 400);
}

static void
test_error_log_retention(void)
{
    //  b1 becomes 100 days old; the gateway's retention job (90 days) deletes
    //  it when it starts, b2 stays.
    char path[512];
    snprintf(path, sizeof path, "%s/gateway/gateway.db", s_p.dir);
    sqlite3 *db = NULL;
    T_EQ_INT(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    char sql[256];
    snprintf(sql, sizeof sql,
             "UPDATE error_logs SET created_at = created_at - %d * 86400000000"
             " WHERE message = 'b1'",
             OLD_DAYS);
    T_EQ_INT(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    T_EQ_INT(sqlite3_changes(db), 1);
    sqlite3_close(db);
    T_EQ_INT(s_list(&s_bob, NULL, NULL), 2);
    T_ASSERT(client_gateway_restart(&s_p, "gateway-2"));
    json_t *r = NULL;
    T_EQ_INT(s_list(&s_bob, NULL, &r), 1);
    T_EQ_STR(json_string_value(json_object_get(
                 json_array_get(json_object_get(r, "logs"), 0), "message")),
             "b2");
    json_decref(r);
}

//  The agent's figures as GraphQL agents answers them.
static json_t *
s_agent_row(void)
{
    json_t *r = client_gql(&s_p, &s_p.super,
                           "{ agents { id cpu_cur_pct mem_cur_bytes live_stat } }", NULL);
    json_t *agents = json_object_get(json_object_get(r, "data"), "agents");
    json_t *found = NULL;
    size_t i;
    json_t *agent;
    json_array_foreach(agents, i, agent)
    {
        if (strcmp(json_string_value(json_object_get(agent, "id")), AGENT) == 0)
            found = json_incref(agent);
    }
    json_decref(r);
    return found;
}

static void
test_agent_figures(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    long long total = (long long) sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE);
    //  Burn a CPU while asking, so the use cannot be 0.
    json_t *agent = NULL;
    double cpu = 0;
    long long deadline = s_now_ms() + WAIT_MS;
    while (s_now_ms() < deadline) {
        volatile unsigned long spin = 0;
        long long until = s_now_ms() + 300;
        while (s_now_ms() < until)
            spin++;
        json_decref(agent);
        agent = s_agent_row();
        cpu = json_number_value(json_object_get(agent, "cpu_cur_pct"));
        if (agent && cpu > 0)
            break;
    }
    T_ASSERT(agent);
    fprintf(stderr, "# agent figures: cpu %.2f %% of %ld cores, mem %lld of %lld\n", cpu,
            cores,
            (long long) json_integer_value(json_object_get(agent, "mem_cur_bytes")),
            total);
    T_ASSERT(cpu > 0 && cpu <= 100.0 * (double) cores);
    long long mem = json_integer_value(json_object_get(agent, "mem_cur_bytes"));
    T_ASSERT(mem > 0 && mem < total);
    json_t *live =
        json_loads(json_string_value(json_object_get(agent, "live_stat")), 0, NULL);
    json_decref(agent);
    T_ASSERT(live);
    json_t *node = json_object_get(live, "node");
    T_EQ_STR(json_string_value(
                 json_object_get(json_object_get(node, "cpu_util"), "unit_hint")),
             "msec");
    T_EQ_STR(
        json_string_value(json_object_get(json_object_get(node, "mem"), "unit_hint")),
        "bytes");
    long long capacity = atoll(
        json_string_value(json_object_get(json_object_get(node, "mem"), "capacity")));
    T_ASSERT(capacity > 0 && capacity <= total + 4096LL * 1024);
    T_EQ_INT(
        json_object_size(json_object_get(json_object_get(live, "devices"), "cpu_util")),
        cores);
    T_ASSERT(json_object_get(json_object_get(json_object_get(live, "devices"), "mem"),
                             "root"));
    json_decref(live);
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
    T_RUN(test_logs_after_the_end);
    T_RUN(test_logs_after_an_agent_restart);
    T_RUN(test_error_logs);
    T_RUN(test_error_log_retention);
    T_RUN(test_agent_figures);
    int agent = harness_stop(&s_agent, CLIENT_STOP_MS);
    bool clean =
        client_platform_stop(&s_p) && agent == 0 && !harness_log_has_report(&s_agent);
    if (!clean)
        fprintf(stderr, "# a service did not stop cleanly (agent %d)\n", agent);
    char command[64];
    snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridge);
    if (system(command) == 0)
        fprintf(stderr, "# the agent left its bridge %s\n", s_bridge);
    client_platform_end(&s_p, t_failures > 0 || !clean);
    return clean ? T_DONE() : 1;
}
