/*  =========================================================================
    scheduling_test - the scheduler's rules over HTTP, with a real agent and
    real runc containers: quotas at the keypair, project and domain level
    leave sessions PENDING with Backend.AI's predicates in statusData and
    let them run once room frees; a resource group the caller may not use
    is refused; what /resource/check-presets calls allocatable is what the
    scheduler then places, and what it does not stays PENDING; batch sessions end with
   their result, and dependencies wait for success or are cancelled by a failure;
   starts_at delays; the idle timeout, the session lifetime, low utilization and the
   pending timeout end sessions with their reasons; a killed agent's session ends with
    agent-termination after the grace period and its container goes when
    the agent comes back; after all of it the ledger invariant holds
    (backplane-scheduler check-ledger). Needs root, runc, umoci and tini.

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
#define SMALL "{\"cpu\": 1, \"mem\": \"64m\"}" //  the agent has 2 cpus

static const char *s_cidr; //  the agent's kernels' subnet
static client_platform_t s_p;
static harness_proc_t s_agent;

static json_t *
s_request(const char *method, const char *path, const char *body, int *status)
{
    char *text = NULL;
    *status = client_signed(&s_p, &s_p.super, method, path, body, NULL, &text, NULL);
    json_t *parsed = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
    free(text);
    return parsed;
}

//  POST /session: an interactive (command NULL) or batch session; extra is
//  more members of the body ("" for none). Returns the HTTP status.
static int
s_create(const char *name, const char *command, const char *extra, bool wait)
{
    char body[2048];
    snprintf(body, sizeof body,
             "{\"name\": \"%s\", \"image\": \"%s\", \"type\": \"%s\", %s%s%s"
             " \"enqueueOnly\": %s, \"config\": {\"resources\": " SMALL "}%s}",
             name, IMAGE, command ? "batch" : "interactive",
             command ? "\"startupCommand\": \"" : "", command ? command : "",
             command ? "\"," : "", wait ? "false" : "true", *extra ? ", " : "");
    if (*extra) {
        body[strlen(body) - 1] = 0; //  the closing brace: extra goes before it
        strncat(body, extra, sizeof body - strlen(body) - 2);
        strcat(body, "}");
    }
    int status;
    json_t *r = s_request("POST", "/session", body, &status);
    if (status >= 400) {
        char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
        fprintf(stderr, "# create %s: %d %s\n", name, status, text ? text : "");
        free(text);
    }
    json_decref(r);
    return status;
}

//  GET /session/{name}: its info (caller decrefs) or NULL.
static json_t *
s_info(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s", name);
    int status;
    json_t *r = s_request("GET", path, NULL, &status);
    if (status != 200) {
        json_decref(r);
        return NULL;
    }
    return r;
}

//  Waits up to timeout_ms for the session's status (a TERMINATED or
//  CANCELLED session is no longer found by name: NULL answers it).
static bool
s_wait(const char *name, const char *status, int timeout_ms, char *info_out, size_t size)
{
    for (int waited = 0; waited <= timeout_ms; waited += 100) {
        json_t *r = s_info(name);
        const char *now = json_string_value(json_object_get(r, "status"));
        if (now && strcmp(now, status) == 0) {
            if (info_out) {
                char *text = json_dumps(r, JSON_COMPACT);
                snprintf(info_out, size, "%s", text ? text : "");
                free(text);
            }
            json_decref(r);
            return true;
        }
        json_decref(r);
        harness_pause_ms(100);
    }
    json_t *r = s_info(name);
    char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
    fprintf(stderr, "# %s never became %s: %s\n", name, status, text ? text : "(gone)");
    free(text);
    json_decref(r);
    return false;
}

//  The session's last lifecycle step as the scheduler stored it, found
//  among the ended ones (GraphQL compute_session_list with its status).
static bool
s_ended(const char *name, const char *status_info, int timeout_ms)
{
    char query[512];
    snprintf(
        query, sizeof query,
        "{ compute_session_list(limit: 100, offset: 0,"
        " status: \"TERMINATED,CANCELLED\") { items { name status status_info } } }");
    for (int waited = 0; waited <= timeout_ms; waited += 200) {
        json_t *r = client_gql(&s_p, &s_p.super, query, NULL);
        json_t *items = json_object_get(
            json_object_get(json_object_get(r, "data"), "compute_session_list"), "items");
        size_t index;
        json_t *item;
        bool found = false;
        json_array_foreach(items, index, item)
        {
            const char *n = json_string_value(json_object_get(item, "name"));
            const char *i = json_string_value(json_object_get(item, "status_info"));
            if (n && strcmp(n, name) == 0 && i && strcmp(i, status_info) == 0)
                found = true;
        }
        json_decref(r);
        if (found)
            return true;
        harness_pause_ms(200);
    }
    fprintf(stderr, "# %s never ended with %s\n", name, status_info);
    return false;
}

static void
s_destroy(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s", name);
    int status;
    json_decref(s_request("DELETE", path, NULL, &status));
}

static bool
s_mutate(const char *document, const char *field)
{
    json_t *r = client_gql(&s_p, &s_p.super, document, NULL);
    bool ok = client_mutation_ok(r, field);
    json_decref(r);
    return ok;
}

//  The default keypair policy's props (GraphQL input object text).
static bool
s_policy(const char *props)
{
    char document[1024];
    snprintf(document, sizeof document,
             "mutation { modify_keypair_resource_policy(name: \"default\", props: %s)"
             " { ok msg } }",
             props);
    return s_mutate(document, "modify_keypair_resource_policy");
}

static void
test_start(void)
{
    const char *sets[] = {"sessions.reclaim_ms=200", "sessions.pass_ms=200",
                          "agents.termination_grace_ms=1000", NULL};
    T_ASSERT(client_platform_start_with(&s_p, "scheduling", false, sets) == 0);
    if (!s_cidr)
        s_cidr = harness_subnet(); //  the same one after a restart
    T_ASSERT(client_agent_start(&s_p, &s_agent, "agent-s", "bps0", s_cidr));
}

static void
test_keypair_concurrency(void)
{
    T_ASSERT(s_policy("{max_concurrent_sessions: 1}"));
    T_EQ_INT(s_create("q-first", NULL, "", true), 201);
    T_ASSERT(s_wait("q-first", "RUNNING", 30000, NULL, 0));
    T_EQ_INT(s_create("q-second", NULL, "", false), 201);
    char info[8192];
    T_ASSERT(s_wait("q-second", "PENDING", 5000, info, sizeof info));
    //  Give it a pass or two to be tried, then read why it waits.
    harness_pause_ms(600);
    json_t *r = s_info("q-second");
    char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
    T_ASSERT(text != NULL);
    T_CONTAINS(text, "predicate-checks-failed");
    T_CONTAINS(text, "You cannot run more than 1 concurrent sessions");
    T_CONTAINS(text, "passed_predicates");
    free(text);
    json_decref(r);
    s_destroy("q-first");
    T_ASSERT(s_wait("q-second", "RUNNING", 30000, NULL, 0));
    s_destroy("q-second");
    T_ASSERT(s_policy("{max_concurrent_sessions: 30}"));
}

static void
test_project_and_domain_slots(void)
{
    //  The project may hold two cpus: two sessions of one cpu, not three.
    json_t *r = client_gql(&s_p, &s_p.super, "{ groups { id name } }", NULL);
    json_t *groups = json_object_get(json_object_get(r, "data"), "groups");
    char gid[64] = "";
    size_t index;
    json_t *group;
    json_array_foreach(
        groups, index,
        group) if (strcmp(json_string_value(json_object_get(group, "name")), "default") ==
                   0)
        snprintf(gid, sizeof gid, "%s", json_string_value(json_object_get(group, "id")));
    json_decref(r);
    T_ASSERT(*gid);
    char document[512];
    snprintf(document, sizeof document,
             "mutation { modify_group(gid: \"%s\", props: {total_resource_slots:"
             " \"{\\\"cpu\\\": \\\"2\\\"}\"}) { ok msg } }",
             gid);
    T_ASSERT(s_mutate(document, "modify_group"));
    T_EQ_INT(s_create("p-one", NULL, "", true), 201);
    T_EQ_INT(s_create("p-two", NULL, "", true), 201);
    T_EQ_INT(s_create("p-three", NULL, "", false), 201);
    harness_pause_ms(600);
    char info[8192];
    T_ASSERT(s_wait("p-three", "PENDING", 1000, info, sizeof info));
    T_CONTAINS(info, "Your group resource quota is exceeded.");
    snprintf(document, sizeof document,
             "mutation { modify_group(gid: \"%s\", props: {total_resource_slots:"
             " \"{}\"}) { ok msg } }",
             gid);
    T_ASSERT(s_mutate(document, "modify_group"));
    //  The domain may hold 128 MiB of memory: p-one and p-two hold it all.
    T_ASSERT(
        s_mutate("mutation { modify_domain(name: \"default\", props:"
                 " {total_resource_slots: \"{\\\"mem\\\": \\\"128m\\\"}\"}) { ok msg } }",
                 "modify_domain"));
    T_EQ_INT(s_create("p-four", NULL, "", false), 201);
    harness_pause_ms(600);
    T_ASSERT(s_wait("p-four", "PENDING", 1000, info, sizeof info));
    T_CONTAINS(info, "Your domain resource quota is exceeded.");
    //  Limits are those of the latest submission (p-four's): once lifted
    //  and room frees, both run.
    T_ASSERT(s_mutate("mutation { modify_domain(name: \"default\", props:"
                      " {total_resource_slots: \"{}\"}) { ok msg } }",
                      "modify_domain"));
    T_EQ_INT(s_create("p-five", NULL, "", false), 201); //  carries the lifted limits
    s_destroy("p-one");
    s_destroy("p-two");
    T_ASSERT(s_wait("p-three", "RUNNING", 30000, NULL, 0));
    T_ASSERT(s_wait("p-four", "RUNNING", 30000, NULL, 0));
    const char *names[] = {"p-three", "p-four", "p-five"};
    for (size_t i = 0; i < 3; i++)
        s_destroy(names[i]);
}

static void
test_resource_group_access(void)
{
    T_ASSERT(s_mutate("mutation { create_scaling_group(name: \"private\", props:"
                      " {description: \"nobody's\"}) { ok msg } }",
                      "create_scaling_group"));
    int status;
    json_t *r = s_request("POST", "/session",
                          "{\"name\": \"g-private\", \"image\": \"" IMAGE "\","
                          " \"config\": {\"scaling_group\": \"private\","
                          " \"resources\": " SMALL "}}",
                          &status);
    char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
    T_EQ_INT(status, 400);
    T_CONTAINS(text ? text : "", "no resource group for this project: private");
    free(text);
    json_decref(r);
}

//  Whether /resource/check-presets calls preset allocatable (-1: not listed).
static int
s_allocatable(const char *preset)
{
    int status;
    json_t *r =
        s_request("POST", "/resource/check-presets",
                  "{\"scaling_group\": \"default\", \"group\": \"default\"}", &status);
    int found = -1;
    size_t index;
    json_t *item;
    json_array_foreach(json_object_get(r, "presets"), index, item)
    {
        if (strcmp(json_string_value(json_object_get(item, "name")), preset) == 0)
            found = json_is_true(json_object_get(item, "allocatable"));
    }
    json_decref(r);
    return status == 200 ? found : -2;
}

//  A session asking for cpus cpus (and 64m): RUNNING or left PENDING, as
//  check-presets said. True when the scheduler agreed.
static bool
s_agrees(const char *name, int cpus, int allocatable, const char *why)
{
    char body[512];
    snprintf(body, sizeof body,
             "{\"name\": \"%s\", \"image\": \"%s\", \"enqueueOnly\": true,"
             " \"config\": {\"resources\": {\"cpu\": %d, \"mem\": \"64m\"}}}",
             name, IMAGE, cpus);
    int status;
    json_decref(s_request("POST", "/session", body, &status));
    if (status != 201) {
        fprintf(stderr, "# create %s: %d\n", name, status);
        return false;
    }
    if (allocatable)
        return s_wait(name, "RUNNING", 30000, NULL, 0);
    char info[8192];
    harness_pause_ms(600); //  a few passes
    bool pending = s_wait(name, "PENDING", 1000, info, sizeof info);
    if (pending && !strstr(info, why))
        fprintf(stderr, "# %s is PENDING but not for %s: %s\n", name, why, info);
    return pending && strstr(info, why);
}

static void
test_check_presets_agrees(void)
{
    const char *presets[][2] = {{"one-cpu", "{\"cpu\": 1, \"mem\": \"64m\"}"},
                                {"two-cpu", "{\"cpu\": 2, \"mem\": \"64m\"}"}};
    for (size_t i = 0; i < 2; i++) {
        json_t *r = client_gql(
            &s_p, &s_p.super,
            "mutation($n: String!, $s: String!) { create_resource_preset(name: $n,"
            " props: {resource_slots: $s}) { ok msg } }",
            json_pack("{s:s, s:s}", "n", presets[i][0], "s", presets[i][1]));
        T_ASSERT(client_mutation_ok(r, "create_resource_preset"));
        json_decref(r);
    }
    //  The keypair may hold 1.5 cpus: one-cpu fits, two-cpu does not, and
    //  the scheduler places and holds exactly those.
    T_ASSERT(s_policy("{total_resource_slots: \"{\\\"cpu\\\": \\\"1.5\\\"}\"}"));
    //  Sessions of the tests before may still be ending: wait for their room.
    for (int waited = 0; waited < 15000 && s_allocatable("one-cpu") != 1; waited += 200)
        harness_pause_ms(200);
    T_EQ_INT(s_allocatable("one-cpu"), 1);
    T_EQ_INT(s_allocatable("two-cpu"), 0);
    T_ASSERT(s_agrees("c-two", 2, 0, "keypair resource quota is exceeded."));
    s_destroy("c-two");
    T_ASSERT(s_agrees("c-one", 1, 1, ""));
    //  With one cpu held, another one-cpu no longer fits the keypair.
    T_EQ_INT(s_allocatable("one-cpu"), 0);
    T_ASSERT(s_agrees("c-one-more", 1, 0, "keypair resource quota is exceeded."));
    s_destroy("c-one-more");
    //  Without the limit, the agent (2 cpus, one held) bounds both views.
    T_ASSERT(s_policy("{total_resource_slots: \"{}\"}"));
    T_EQ_INT(s_allocatable("one-cpu"), 1);
    T_EQ_INT(s_allocatable("two-cpu"), 0);
    T_ASSERT(s_agrees("c-two-again", 2, 0, "no-available-instances"));
    s_destroy("c-two-again");
    T_ASSERT(s_agrees("c-second", 1, 1, ""));
    T_EQ_INT(s_allocatable("one-cpu"), 0);
    s_destroy("c-one");
    s_destroy("c-second");
}

static void
test_batch_and_dependencies(void)
{
    T_EQ_INT(s_create("b-ok", "sleep 1; exit 0", "", false), 201);
    T_EQ_INT(s_create("b-after-ok", "echo after", "\"dependencies\": [\"b-ok\"]", false),
             201);
    T_EQ_INT(s_create("b-fail", "exit 3", "", false), 201);
    T_EQ_INT(
        s_create("b-after-fail", "echo never", "\"dependencies\": [\"b-fail\"]", false),
        201);
    //  The first waits for b-ok's success, then runs; the second is
    //  cancelled once b-fail fails.
    T_ASSERT(s_ended("b-ok", "task-finished", 30000));
    T_ASSERT(s_ended("b-fail", "task-failed", 30000));
    T_ASSERT(s_ended("b-after-fail", "dependency-failed", 10000));
    T_ASSERT(s_ended("b-after-ok", "task-finished", 30000));
    T_EQ_INT(
        s_create("b-unknown", "true", "\"dependencies\": [\"nosuchsession\"]", false),
        400);
    T_EQ_INT(s_create("b-later", "true", "\"starts_at\": \"2h\"", false), 201);
    harness_pause_ms(600);
    T_ASSERT(s_wait("b-later", "PENDING", 1000, NULL, 0));
    s_destroy("b-later");
    T_EQ_INT(s_create("b-bad-time", "true", "\"starts_at\": \"soon\"", false), 400);
}

static void
test_idle_timeout_and_lifetime(void)
{
    T_ASSERT(s_policy("{idle_timeout: 2}"));
    T_EQ_INT(s_create("i-idle", NULL, "", true), 201);
    T_EQ_INT(s_create("i-busy", NULL, "", true), 201);
    //  i-busy is used every half second; i-idle never.
    for (int i = 0; i < 10; i++) {
        int status;
        json_decref(s_request("GET", "/session/i-busy/logs", NULL, &status));
        harness_pause_ms(500);
    }
    T_ASSERT(s_ended("i-idle", "idle-timeout", 5000));
    T_ASSERT(s_wait("i-busy", "RUNNING", 100, NULL, 0));
    s_destroy("i-busy");
    T_ASSERT(s_policy("{idle_timeout: 0, max_session_lifetime: 2}"));
    T_EQ_INT(s_create("i-short", NULL, "", true), 201);
    T_ASSERT(s_ended("i-short", "idle-session-lifetime", 8000));
    T_ASSERT(s_policy("{max_session_lifetime: 0}"));
}

//  A group whose sessions must use more than half a cpu on average over two
//  seconds: an idle one ends with idle-utilization once the window is
//  covered by the agent's statistics (every half second).
static void
test_idle_utilization(void)
{
    T_ASSERT(s_mutate("mutation { modify_scaling_group(name: \"default\", props:"
                      " {scheduler_opts: \"{\\\"idle_checkers\\\": {\\\"utilization\\\":"
                      " {\\\"time_window\\\": 2, \\\"initial_grace_period\\\": 0,"
                      " \\\"resource_thresholds\\\": {\\\"cpu_util\\\":"
                      " {\\\"average\\\": 50}}}}}\"}) { ok msg } }",
                      "modify_scaling_group"));
    T_EQ_INT(s_create("u-idle", NULL, "", true), 201);
    T_ASSERT(s_ended("u-idle", "idle-utilization", 15000));
    T_ASSERT(s_mutate("mutation { modify_scaling_group(name: \"default\", props:"
                      " {scheduler_opts: \"{}\"}) { ok msg } }",
                      "modify_scaling_group"));
}

static void
test_pending_timeout(void)
{
    T_ASSERT(s_policy("{max_concurrent_sessions: 1}"));
    T_ASSERT(s_mutate("mutation { modify_scaling_group(name: \"default\", props:"
                      " {scheduler_opts: \"{\\\"pending_timeout\\\": 1}\"}) { ok msg } }",
                      "modify_scaling_group"));
    T_EQ_INT(s_create("t-holder", NULL, "", true), 201);
    T_EQ_INT(s_create("t-waiter", NULL, "", false), 201);
    T_ASSERT(s_ended("t-waiter", "pending-timeout", 6000));
    s_destroy("t-holder");
    T_ASSERT(s_mutate("mutation { modify_scaling_group(name: \"default\", props:"
                      " {scheduler_opts: \"{}\"}) { ok msg } }",
                      "modify_scaling_group"));
    T_ASSERT(s_policy("{max_concurrent_sessions: 30}"));
}

//  The agent is killed: once it has been LOST for the grace period its
//  session ends with agent-termination and gives its slots back; when it
//  comes back, the container it still runs for that session is destroyed.
static void
test_agent_lost(void)
{
    T_EQ_INT(s_create("l-lost", NULL, "", true), 201);
    harness_kill(&s_agent);
    T_ASSERT(s_ended("l-lost", "agent-termination", 20000));
    if (!s_cidr)
        s_cidr = harness_subnet(); //  the same one after a restart
    T_ASSERT(client_agent_start(&s_p, &s_agent, "agent-s", "bps0", s_cidr));
    char command[1024];
    snprintf(command, sizeof command,
             "for i in $(seq 100); do n=$(runc --root %s/agent-s/runc list -q | wc -l);"
             " [ \"$n\" = 0 ] && exit 0; sleep 0.2; done; exit 1",
             s_p.dir);
    T_EQ_INT(harness_shell(command), 0);
}

static void
test_ledger_holds(void)
{
    //  Everything ends; then the offline check agrees with itself.
    harness_pause_ms(1500);
    char command[1024];
    snprintf(command, sizeof command,
             "%s/backplane-scheduler --set node.state_dir=%s/scheduler check-ledger"
             " > %s/ledger.txt 2>&1",
             getenv("BACKPLANE_BINDIR") ? getenv("BACKPLANE_BINDIR") : "build/bin",
             s_p.dir, s_p.dir);
    int rc = harness_shell(command);
    char path[600], out[4096] = "";
    snprintf(path, sizeof path, "%s/ledger.txt", s_p.dir);
    FILE *file = fopen(path, "r");
    if (file) {
        size_t got = fread(out, 1, sizeof out - 1, file);
        out[got] = 0;
        fclose(file);
    }
    fprintf(stderr, "# %s", out);
    T_EQ_INT(rc, 0);
    T_CONTAINS(out, "0 violations");
}

static void
test_stop(void)
{
    harness_stop(&s_agent, 10000);
    T_ASSERT(client_platform_stop(&s_p));
}

int
main(void)
{
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    T_RUN(test_start);
    T_RUN(test_keypair_concurrency);
    T_RUN(test_project_and_domain_slots);
    T_RUN(test_resource_group_access);
    T_RUN(test_check_presets_agrees);
    T_RUN(test_batch_and_dependencies);
    T_RUN(test_idle_timeout_and_lifetime);
    T_RUN(test_idle_utilization);
    T_RUN(test_pending_timeout);
    T_RUN(test_agent_lost);
    T_RUN(test_ledger_holds);
    T_RUN(test_stop);
    client_platform_end(&s_p, t_failures > 0);
    return T_DONE();
}
