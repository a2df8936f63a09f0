/*  =========================================================================
    testbed_ops_test - operating agents across hosts on the testbed:
    draining, removing, adding one at run time, a second resource group

    On deploy/testbed's five hosts (each agent offering 2 CPUs, sessions
    taking 1):
    - draining agent1 (exclude-agents, Backend.AI's schedulable false): its
      session runs on and answers, new sessions go to agent2 only, and the
      session ends when asked;
    - `testbed remove-agent agent1`: the agent stops, its host goes, /healthz
      no longer names it, the scheduler no longer counts it ALIVE and places
      nothing on it;
    - `testbed add-agent agent3` while the platform runs: it registers from
      its own host's address (its key authorized on every host meanwhile, no
      service restarted), /healthz names it, and a session lands on it;
    - `TESTBED_AGENT_GROUP=sg2 testbed add-agent agent4`: an agent of a
      second resource group on its own host; a session asking for sg2 runs
      there, sessions of the default group never do;
    - the gateway's /healthz names every host's services at their hosts'
      addresses throughout.

    The testbed's /24 is a harness_subnet; its prefix is "bpo<N>". Needs
    root, runc, umoci, tini, ip, nsenter, python3 and curl.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gateway_client.h"
#include "harness.h"
#include "t.h"

#define IMAGE "local.backplane/library/busybox:latest"

static char *s_dir;
static char s_net[32];
static char s_prefix[16];
static client_platform_t s_p;
static bool s_up;

static int
s_testbed(const char *command, const char *env)
{
    char line[PATH_MAX * 3];
    snprintf(
        line, sizeof line,
        "%s TESTBED_PREFIX=%s TESTBED_NET=%s TESTBED_AGENT_CPU=2 TESTBED_AGENT_MEM=1g"
        " BACKPLANE_IMAGES=%s/images BACKPLANE_BINDIR=%s deploy/testbed %s"
        " >>%s/testbed.log 2>&1",
        env ? env : "", s_prefix, s_net, s_dir, harness_bindir(), command, s_dir);
    return harness_shell(line);
}

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

static bool
s_mutate(const char *query, const char *field)
{
    json_t *r = client_gql(&s_p, &s_p.super, query, NULL);
    bool ok = client_mutation_ok(r, field);
    if (!ok) {
        char *text = json_dumps(r, JSON_COMPACT);
        fprintf(stderr, "# %s: %s\n", field, text ? text : "(no answer)");
        free(text);
    }
    json_decref(r);
    return ok;
}

//  An agent's status ("" when not listed).
static void
s_agent_status(const char *id, char *out, size_t size)
{
    json_t *r = client_gql(&s_p, &s_p.super,
                           "{ agent_list(limit: 20, offset: 0, status:"
                           " \"ALIVE,LOST,TERMINATED\") { items { id status } } }",
                           NULL);
    json_t *items = json_object_get(
        json_object_get(json_object_get(r, "data"), "agent_list"), "items");
    snprintf(out, size, "%s", "");
    size_t index;
    json_t *agent;
    json_array_foreach(items, index, agent)
    {
        const char *agent_id = json_string_value(json_object_get(agent, "id"));
        const char *status = json_string_value(json_object_get(agent, "status"));
        if (agent_id && status && strcmp(agent_id, id) == 0)
            snprintf(out, size, "%s", status);
    }
    json_decref(r);
}

static bool
s_agent_becomes(const char *id, const char *status)
{
    char now[32] = "";
    for (int tries = 0; tries < 300; tries++) {
        s_agent_status(id, now, sizeof now);
        if (strcmp(now, status) == 0)
            return true;
        harness_pause_ms(100);
    }
    fprintf(stderr, "# agent %s: %s, not %s\n", id, now, status);
    return false;
}

//  Creates a session of 1 CPU (in group sgroup, NULL: the default one),
//  waits for it to run; the agent it runs on into agent ("" if it did not).
static void
s_session(const char *name, const char *sgroup, char *agent, size_t size)
{
    char body[512];
    snprintf(
        body, sizeof body,
        "{\"name\": \"%s\", \"image\": \"" IMAGE "\", \"enqueueOnly\": true,"
        " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"}%s%s%s},"
        " \"type\": \"interactive\", \"group\": \"default\", \"domain\": \"default\"}",
        name, sgroup ? ", \"scaling_group\": \"" : "", sgroup ? sgroup : "",
        sgroup ? "\"" : "");
    snprintf(agent, size, "%s", "");
    if (!client_session_running(&s_p, &s_p.super, body, name, NULL))
        return;
    char query[256];
    snprintf(query, sizeof query,
             "{ compute_session_list(limit: 50, offset: 0) { items { name containers"
             " { agent } } } }");
    json_t *r = client_gql(&s_p, &s_p.super, query, NULL);
    json_t *items = json_object_get(
        json_object_get(json_object_get(r, "data"), "compute_session_list"), "items");
    size_t index;
    json_t *item;
    json_array_foreach(items, index, item)
    {
        const char *n = json_string_value(json_object_get(item, "name"));
        const char *a = json_string_value(json_object_get(
            json_array_get(json_object_get(item, "containers"), 0), "agent"));
        if (n && a && strcmp(n, name) == 0)
            snprintf(agent, size, "%s", a);
    }
    json_decref(r);
}

static void
s_destroy(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s", name);
    int status;
    json_t *r = s_request("DELETE", path, NULL, &status);
    T_EQ_INT(status, 200);
    json_decref(r);
}

static bool
s_operation(const char *op, const char *agents)
{
    char body[256];
    snprintf(body, sizeof body, "{\"op\": \"%s\", \"args\": [%s]}", op, agents);
    int status;
    json_t *r = s_request("POST", "/manager/scheduler/operation", body, &status);
    json_decref(r);
    return status == 200 || status == 204;
}

//  Whether /healthz names node's service, up, at host .number's address
//  (number 0: whether it names it at all).
static bool
s_health_names(const char *service, const char *node, int number)
{
    char *text = NULL;
    harness_http(s_p.api, "GET", "/healthz", NULL, &text, CLIENT_HTTP_MS);
    json_t *health = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "tcp://%s.%d:", s_net, number);
    bool found = false;
    size_t index;
    json_t *s;
    json_array_foreach(json_object_get(health, "services"), index, s)
    {
        const char *sv = json_string_value(json_object_get(s, "service"));
        const char *nd = json_string_value(json_object_get(s, "node"));
        const char *st = json_string_value(json_object_get(s, "status"));
        const char *rpc = json_string_value(json_object_get(s, "rpc"));
        if (sv && nd && strcmp(sv, service) == 0 && strcmp(nd, node) == 0)
            found = number == 0 ||
                    (st && strcmp(st, "up") == 0 && rpc && strstr(rpc, prefix) == rpc);
    }
    json_decref(health);
    return found;
}

static bool
s_health_becomes(const char *service, const char *node, int number, bool named)
{
    for (int tries = 0; tries < 150; tries++) {
        if (s_health_names(service, node, number) == named)
            return true;
        harness_pause_ms(100);
    }
    fprintf(stderr, "# /healthz %s %s on %s\n", named ? "does not name" : "still names",
            service, node);
    return false;
}

static void
test_up(void)
{
    const char *subnet = harness_subnet();
    T_ASSERT(subnet);
    if (!subnet)
        return;
    harness_subnet_host(subnet, 0, s_net, sizeof s_net);
    s_net[strlen(s_net) - 1] = '\0';
    snprintf(s_prefix, sizeof s_prefix, "bpo%s", strrchr(s_net, '.') + 1);
    char command[512];
    snprintf(
        command, sizeof command,
        "for h in control front storage agent1 agent2 agent3 agent4 lan; do"
        " ip netns del %s-$h 2>/dev/null; done; ip link del %s-lan 2>/dev/null; true",
        s_prefix, s_prefix);
    harness_shell(command);
    s_dir = harness_tmpdir("testbed-ops");
    T_ASSERT(s_dir);
    T_EQ_INT(harness_busybox_images(s_dir), 0);
    char up[PATH_MAX + 8];
    snprintf(up, sizeof up, "up %s", s_dir);
    int rc = s_testbed(up, NULL);
    T_EQ_INT(rc, 0);
    if (rc != 0)
        return;
    s_up = true;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/front/gateway/admin.env", s_dir);
    T_ASSERT(client_read_admin_env(path, &s_p.super));
    snprintf(s_p.api, sizeof s_p.api, "%s.12:8081", s_net);
    T_ASSERT(s_agent_becomes("agent1", "ALIVE"));
    T_ASSERT(s_agent_becomes("agent2", "ALIVE"));
}

//  agent1 drained: its session runs on, new ones go to agent2.
static void
test_drain(void)
{
    //  op-1 on agent1 (agent2 excluded while it is placed).
    T_ASSERT(s_operation("exclude-agents", "\"agent2\""));
    char agent[64];
    s_session("op-1", NULL, agent, sizeof agent);
    T_EQ_STR(agent, "agent1");
    T_ASSERT(s_operation("include-agents", "\"agent2\""));
    //  Drained: agent1 has a CPU free, and gets nothing new. Backend.AI's
    //  word for it: schedulable false.
    T_ASSERT(s_operation("exclude-agents", "\"agent1\""));
    json_t *a =
        client_gql(&s_p, &s_p.super,
                   "{ agent(agent_id: \"agent1\") { id status schedulable } }", NULL);
    json_t *row = json_object_get(json_object_get(a, "data"), "agent");
    T_ASSERT(json_is_false(json_object_get(row, "schedulable")));
    T_EQ_STR(json_string_value(json_object_get(row, "status")), "ALIVE");
    json_decref(a);
    s_session("op-2", NULL, agent, sizeof agent);
    T_EQ_STR(agent, "agent2");
    s_session("op-3", NULL, agent, sizeof agent);
    T_EQ_STR(agent, "agent2");
    //  The running one goes on, answering.
    int status;
    json_t *r = s_request(
        "POST", "/session/op-1",
        "{\"mode\": \"query\", \"runId\": \"d\", \"code\": \"echo still\"}", &status);
    T_EQ_INT(status, 200);
    char *console = json_dumps(json_object_get(json_object_get(r, "result"), "console"),
                               JSON_COMPACT);
    T_CONTAINS(console, "still");
    free(console);
    json_decref(r);
    s_destroy("op-1");
    s_destroy("op-3");
}

//  remove-agent agent1: gone from the hosts, /healthz and the ALIVE agents.
static void
test_remove_agent(void)
{
    char command[PATH_MAX + 32];
    snprintf(command, sizeof command, "remove-agent agent1 %s", s_dir);
    T_EQ_INT(s_testbed(command, NULL), 0);
    char path[128];
    snprintf(path, sizeof path, "/run/netns/%s-agent1", s_prefix);
    T_ASSERT(access(path, F_OK) != 0);
    T_ASSERT(s_health_becomes("agent", "agent1", 0, false));
    char status[32];
    s_agent_status("agent1", status, sizeof status);
    T_ASSERT(strcmp(status, "ALIVE") != 0);
    //  A new session: on agent2 (its second CPU), not on the removed one.
    char agent[64];
    s_session("op-4", NULL, agent, sizeof agent);
    T_EQ_STR(agent, "agent2");
}

//  add-agent agent3 while everything runs: agent2 is full (op-2, op-4),
//  so the next session can only land on the new one.
static void
test_add_agent(void)
{
    char command[PATH_MAX + 32];
    snprintf(command, sizeof command, "add-agent agent3 %s", s_dir);
    T_EQ_INT(s_testbed(command, NULL), 0);
    T_ASSERT(s_agent_becomes("agent3", "ALIVE"));
    T_ASSERT(s_health_becomes("agent", "agent3", 23, true));
    char agent[64];
    s_session("op-5", NULL, agent, sizeof agent);
    T_EQ_STR(agent, "agent3");
    int status;
    json_t *r = s_request(
        "POST", "/session/op-5",
        "{\"mode\": \"query\", \"runId\": \"a\", \"code\": \"echo added\"}", &status);
    T_EQ_INT(status, 200);
    char *console = json_dumps(json_object_get(json_object_get(r, "result"), "console"),
                               JSON_COMPACT);
    T_CONTAINS(console, "added");
    free(console);
    json_decref(r);
}

//  An agent of a second resource group on its own host.
static void
test_second_resource_group(void)
{
    T_ASSERT(s_mutate("mutation { create_scaling_group(name: \"sg2\", props:"
                      " {description: \"the second host group\"}) { ok msg } }",
                      "create_scaling_group"));
    T_ASSERT(s_mutate("mutation { associate_scaling_group_with_domain(scaling_group:"
                      " \"sg2\", domain: \"default\") { ok msg } }",
                      "associate_scaling_group_with_domain"));
    char command[PATH_MAX + 32];
    snprintf(command, sizeof command, "add-agent agent4 %s", s_dir);
    T_EQ_INT(s_testbed(command, "TESTBED_AGENT_GROUP=sg2"), 0);
    T_ASSERT(s_agent_becomes("agent4", "ALIVE"));
    json_t *r = client_gql(&s_p, &s_p.super,
                           "{ agent(agent_id: \"agent4\") { id scaling_group } }", NULL);
    T_EQ_STR(json_string_value(json_object_get(
                 json_object_get(json_object_get(r, "data"), "agent"), "scaling_group")),
             "sg2");
    json_decref(r);
    char agent[64];
    s_session("op-6", "sg2", agent, sizeof agent);
    T_EQ_STR(agent, "agent4");
    //  The default group's: on agent3, never agent4 (which has a CPU free).
    s_session("op-7", NULL, agent, sizeof agent);
    T_EQ_STR(agent, "agent3");
}

//  /healthz: every service on every host, each at its host's address.
static void
test_healthz_names_every_host(void)
{
    T_ASSERT(s_health_names("scheduler", "control", 11));
    T_ASSERT(s_health_names("accounting", "control", 11));
    T_ASSERT(s_health_names("gateway", "front", 12));
    T_ASSERT(s_health_names("wsproxy", "front", 12));
    T_ASSERT(s_health_names("storage-proxy", "storage", 13));
    T_ASSERT(s_health_names("agent", "agent2", 22));
    T_ASSERT(s_health_names("agent", "agent3", 23));
    T_ASSERT(s_health_names("agent", "agent4", 24));
    T_ASSERT(!s_health_names("agent", "agent1", 0));
}

static void
test_destroy_sessions(void)
{
    static const char *const k_names[] = {"op-2", "op-4", "op-5", "op-6", "op-7"};
    for (size_t i = 0; i < sizeof k_names / sizeof k_names[0]; i++)
        s_destroy(k_names[i]);
}

static void
test_down_leaves_nothing(void)
{
    T_ASSERT(s_dir);
    char command[PATH_MAX * 2];
    snprintf(command, sizeof command, "down %s", s_dir);
    T_EQ_INT(s_testbed(command, NULL), 0);
    s_up = false;
    static const char *const k_hosts[] = {"control", "front",  "storage", "agent1",
                                          "agent2",  "agent3", "agent4",  "lan"};
    for (size_t i = 0; i < sizeof k_hosts / sizeof k_hosts[0]; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "/run/netns/%s-%s", s_prefix, k_hosts[i]);
        bool left = access(path, F_OK) == 0;
        if (left)
            fprintf(stderr, "# %s left\n", path);
        T_ASSERT(!left);
    }
    for (int i = 1; i <= 4; i++) {
        snprintf(command, sizeof command,
                 "test -z \"$(runc --root %s/agent%d/agent/runc list -q 2>/dev/null)\"",
                 s_dir, i);
        T_EQ_INT(harness_shell(command), 0);
    }
    //  Every service stopped cleanly, the agents removed and added too.
    static const char *const k_logs[] = {
        "control/scheduler", "control/accounting",    "front/gateway",
        "front/wsproxy",     "storage/storage-proxy", "agent1/agent",
        "agent2/agent",      "agent3/agent",          "agent4/agent"};
    for (size_t i = 0; i < sizeof k_logs / sizeof k_logs[0]; i++) {
        snprintf(command, sizeof command,
                 "tail -n 1 %s/%s.log | grep -q 'msg=\"stopped\"' &&"
                 " ! grep -q -E 'Sanitizer|runtime error' %s/%s.log",
                 s_dir, k_logs[i], s_dir, k_logs[i]);
        int rc = harness_shell(command);
        if (rc != 0)
            fprintf(stderr, "# %s.log: not stopped cleanly\n", k_logs[i]);
        T_EQ_INT(rc, 0);
    }
}

static bool
s_have(const char *tool)
{
    char command[128];
    snprintf(command, sizeof command, "command -v %s >/dev/null 2>&1", tool);
    return harness_shell(command) == 0;
}

int
main(void)
{
    if (!harness_can_run_containers() || !s_have("ip") || !s_have("nsenter") ||
        !s_have("python3") || !s_have("curl")) {
        printf("1..0 # SKIP needs root, runc, umoci, tini, ip, nsenter, python3, curl\n");
        return 0;
    }
    T_RUN(test_up);
    if (s_up) {
        T_RUN(test_drain);
        T_RUN(test_remove_agent);
        T_RUN(test_add_agent);
        T_RUN(test_second_resource_group);
        T_RUN(test_healthz_names_every_host);
        T_RUN(test_destroy_sessions);
    }
    T_RUN(test_down_leaves_nothing);
    if (s_up) {
        char command[PATH_MAX + 8];
        snprintf(command, sizeof command, "down %s", s_dir);
        s_testbed(command, NULL);
    }
    if (s_dir) {
        if (!t_failures && !getenv("BACKPLANE_KEEP"))
            harness_rmdir(s_dir);
        else
            fprintf(stderr, "# testbed kept in %s\n", s_dir);
        free(s_dir);
    }
    return T_DONE();
}
