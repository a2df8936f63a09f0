/*  =========================================================================
    testbed_wan_test - an agent behind a slow, lossy WAN link, and a
    partition of that link (deploy/testbed with TESTBED_WAN=1)

    The testbed's sixth host, cloud1, reaches the others through
    deploy/wan-link: 100 ms each way, 1% of the frames lost. Its agent
    registers at its own address and runs a session whose output streams
    back through the gateway (execute over a WebSocket). Then its link is
    cut twice while the session runs, the scheduler's agents.lost_ms set to
    20 s for this test:

    - 12 s, shorter than lost_ms: the agent stays ALIVE and the session
      RUNNING throughout, and once the link is back the session answers
      again. (TCP alone resends what the partition held back only after
      its exponential backoff, up to as long again as the partition: the
      bus's connections must notice a dead link and connect afresh.)
    - 30 s, longer than lost_ms and shorter than the termination grace
      (60 s): the agent is LOST, its session stays RUNNING with its
      container running on cloud1; a session placed on cloud1 as the link
      is cut (a partition in the middle of a create) and one created once
      cloud1 is LOST, which waits though cloud1 has room, and runs on
      another agent once there is one; once the link is back the agent is
      ALIVE again, the first session still RUNNING, with exactly one
      container, and answers, and the one caught in its create RUNNING on
      cloud1 in exactly one container.

    The testbed's /24 is a harness_subnet; its prefix is "bpw<N>". Needs
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

#define IMAGE   "local.backplane/library/busybox:latest"
#define LOST_MS 20000

static char *s_dir;
static char s_net[32];    //  "10.240.N": the hosts' /24
static char s_prefix[16]; //  "bpwN"
static client_platform_t s_p;
static bool s_up;
static char s_kernel[64]; //  wan-1's kernel

static int
s_testbed(const char *command)
{
    char line[PATH_MAX * 3];
    snprintf(line, sizeof line,
             "TESTBED_PREFIX=%s TESTBED_NET=%s TESTBED_WAN=1 TESTBED_AGENT_CPU=3"
             " TESTBED_AGENT_MEM=1g TESTBED_AGENT_LOST_MS=%d BACKPLANE_IMAGES=%s/images"
             " BACKPLANE_BINDIR=%s deploy/testbed %s %s >>%s/testbed.log 2>&1",
             s_prefix, s_net, LOST_MS, s_dir, harness_bindir(), command, s_dir, s_dir);
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

//  An agent's status as the admin API says it ("" when not listed).
static void
s_agent_status(const char *id, char *out, size_t size)
{
    json_t *r = client_gql(&s_p, &s_p.super,
                           "{ agent_list(limit: 20, offset: 0, status: \"ALIVE,LOST\")"
                           " { items { id status } } }",
                           NULL);
    json_t *items = json_object_get(
        json_object_get(json_object_get(r, "data"), "agent_list"), "items");
    snprintf(out, size, "%s", "");
    size_t index;
    json_t *agent;
    json_array_foreach(items, index, agent)
    {
        const char *agent_id = json_string_value(json_object_get(agent, "id"));
        if (agent_id && strcmp(agent_id, id) == 0)
            snprintf(out, size, "%s",
                     json_string_value(json_object_get(agent, "status"))
                         ? json_string_value(json_object_get(agent, "status"))
                         : "");
    }
    json_decref(r);
}

//  A session's status and its containers' agents, joined by commas.
static void
s_session(const char *name, char *status, size_t status_size, char *agents, size_t size)
{
    char query[256];
    snprintf(query, sizeof query,
             "{ compute_session_list(limit: 10, offset: 0, status: \"PENDING,SCHEDULED,"
             "PREPARING,PULLING,RUNNING,TERMINATING,TERMINATED,CANCELLED,ERROR\")"
             " { items { name status containers { id agent } } } }");
    json_t *r = client_gql(&s_p, &s_p.super, query, NULL);
    json_t *items = json_object_get(
        json_object_get(json_object_get(r, "data"), "compute_session_list"), "items");
    snprintf(status, status_size, "%s", "");
    snprintf(agents, size, "%s", "");
    size_t index;
    json_t *item;
    json_array_foreach(items, index, item)
    {
        const char *n = json_string_value(json_object_get(item, "name"));
        if (!n || strcmp(n, name) != 0)
            continue;
        const char *st = json_string_value(json_object_get(item, "status"));
        snprintf(status, status_size, "%s", st ? st : "");
        size_t i;
        json_t *container;
        json_array_foreach(json_object_get(item, "containers"), i, container)
        {
            const char *agent = json_string_value(json_object_get(container, "agent"));
            size_t used = strlen(agents);
            snprintf(agents + used, size - used, "%s%s", used ? "," : "",
                     agent ? agent : "?");
        }
    }
    json_decref(r);
}

//  Runs code in a session over the execute WebSocket, as `backend.ai run
//  -c` does; the stdout streamed back, "" when the run did not finish.
static void
s_execute(const char *name, const char *code, char *out, size_t size)
{
    snprintf(out, size, "%s", "");
    char path[128];
    snprintf(path, sizeof path, "/stream/session/%s/execute", name);
    int status;
    int fd = client_ws_open(&s_p, &s_p.super, path, &status);
    if (fd < 0) {
        fprintf(stderr, "# execute in %s: HTTP %d\n", name, status);
        return;
    }
    json_t *request =
        json_pack("{s:s, s:s, s:{}}", "code", code, "mode", "query", "options");
    char *text = json_dumps(request, JSON_COMPACT);
    json_decref(request);
    bool sent = text && client_ws_send(fd, 1, text, strlen(text)) == 0;
    free(text);
    int results = 0;
    bool finished = false;
    while (sent && !finished) {
        char *data = NULL;
        if (client_ws_recv(fd, &data, NULL, 30000) != 1) {
            free(data);
            break;
        }
        json_t *result = json_loads(data, 0, NULL);
        free(data);
        results++;
        size_t i;
        json_t *record;
        json_array_foreach(json_object_get(result, "console"), i, record)
        {
            const char *kind = json_string_value(json_array_get(record, 0));
            const char *chunk = json_string_value(json_array_get(record, 1));
            if (kind && chunk && strcmp(kind, "stdout") == 0)
                strncat(out, chunk, size - strlen(out) - 1);
        }
        const char *st = json_string_value(json_object_get(result, "status"));
        finished = !st || strcmp(st, "continued") != 0;
        if (st && strcmp(st, "finished") != 0 && strcmp(st, "continued") != 0)
            fprintf(stderr, "# execute in %s: %s\n", name, st);
        json_decref(result);
    }
    close(fd);
    if (!finished)
        snprintf(out, size, "%s", "");
}

//  How many of the agents' runc states list a container named kernel
//  (a kernel's container is its id): every agent host's, cloud1's too.
static int
s_containers(const char *kernel)
{
    char command[PATH_MAX * 2];
    snprintf(
        command, sizeof command,
        "exit $(for h in agent1 agent2 cloud1; do runc --root %s/$h/agent/runc list -q"
        " 2>/dev/null; done | grep -c -x '%s')",
        s_dir, kernel);
    return harness_shell(command);
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

static void
test_up(void)
{
    const char *subnet = harness_subnet();
    T_ASSERT(subnet);
    if (!subnet)
        return;
    harness_subnet_host(subnet, 0, s_net, sizeof s_net);
    s_net[strlen(s_net) - 1] = '\0';
    snprintf(s_prefix, sizeof s_prefix, "bpw%s", strrchr(s_net, '.') + 1);
    char command[512];
    snprintf(
        command, sizeof command,
        "for h in control front storage agent1 agent2 cloud1 wan lan; do"
        " ip netns del %s-$h 2>/dev/null; done; ip link del %s-lan 2>/dev/null; true",
        s_prefix, s_prefix);
    harness_shell(command);
    s_dir = harness_tmpdir("testbed-wan");
    T_ASSERT(s_dir);
    T_EQ_INT(harness_busybox_images(s_dir), 0);
    int rc = s_testbed("up");
    T_EQ_INT(rc, 0);
    if (rc != 0)
        return;
    s_up = true;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/front/gateway/admin.env", s_dir);
    T_ASSERT(client_read_admin_env(path, &s_p.super));
    snprintf(s_p.api, sizeof s_p.api, "%s.12:8081", s_net);
}

//  cloud1 registers over the WAN, at its own address.
static void
test_wan_agent_registers(void)
{
    char status[32] = "";
    for (int tries = 0; tries < 100 && strcmp(status, "ALIVE") != 0; tries++) {
        s_agent_status("cloud1", status, sizeof status);
        if (strcmp(status, "ALIVE") != 0)
            harness_pause_ms(200);
    }
    T_EQ_STR(status, "ALIVE");
    json_t *r = client_gql(&s_p, &s_p.super,
                           "{ agent(agent_id: \"cloud1\") { id addr status } }", NULL);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "tcp://%s.31:", s_net);
    T_CONTAINS(json_string_value(json_object_get(
                   json_object_get(json_object_get(r, "data"), "agent"), "addr")),
               prefix);
    json_decref(r);
}

//  A session placed on cloud1 (the other agents excluded meanwhile, then
//  included again, so that a second placement would have somewhere to go),
//  its output streamed back across the WAN.
static void
test_session_over_the_wan(void)
{
    T_ASSERT(s_operation("exclude-agents", "\"agent1\", \"agent2\""));
    char id[64] = "";
    T_ASSERT(client_session_running(
        &s_p, &s_p.super,
        "{\"name\": \"wan-1\", \"image\": \"" IMAGE "\", \"enqueueOnly\": true,"
        " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"256m\"}},"
        " \"type\": \"interactive\", \"group\": \"default\", \"domain\": \"default\"}",
        "wan-1", id));
    T_ASSERT(s_operation("include-agents", "\"agent1\", \"agent2\""));
    char status[32], agents[256];
    s_session("wan-1", status, sizeof status, agents, sizeof agents);
    T_EQ_STR(status, "RUNNING");
    T_EQ_STR(agents, "cloud1");
    json_t *r = client_gql(&s_p, &s_p.super,
                           "{ compute_session_list(limit: 10, offset: 0) { items { name"
                           " containers { id } } } }",
                           NULL);
    json_t *items = json_object_get(
        json_object_get(json_object_get(r, "data"), "compute_session_list"), "items");
    const char *kernel = json_string_value(json_object_get(
        json_array_get(json_object_get(json_array_get(items, 0), "containers"), 0),
        "id"));
    snprintf(s_kernel, sizeof s_kernel, "%s", kernel ? kernel : "");
    json_decref(r);
    T_ASSERT(*s_kernel);
    T_EQ_INT(s_containers(s_kernel), 1);
    char out[4096];
    s_execute("wan-1", "echo one; sleep 1; echo two", out, sizeof out);
    T_EQ_STR(out, "one\ntwo\n");
}

//  Cuts cloud1's link for seconds, sampling cloud1's and wan-1's status
//  every second meanwhile; counts the samples that saw cloud1 LOST and
//  those that saw wan-1 anything but RUNNING on cloud1 alone.
static void
s_partition(int seconds, int *lost, int *moved)
{
    *lost = *moved = 0;
    T_EQ_INT(s_testbed("partition"), 0);
    for (int i = 0; i < seconds; i++) {
        harness_pause_ms(1000);
        char agent[32], status[32], agents[256];
        s_agent_status("cloud1", agent, sizeof agent);
        s_session("wan-1", status, sizeof status, agents, sizeof agents);
        if (strcmp(agent, "LOST") == 0)
            (*lost)++;
        if (strcmp(status, "RUNNING") != 0 || strcmp(agents, "cloud1") != 0) {
            fprintf(stderr, "# %d s into the partition: cloud1 %s, wan-1 %s on %s\n",
                    i + 1, agent, status, agents);
            (*moved)++;
        }
    }
    T_EQ_INT(s_testbed("heal"), 0);
}

//  After a partition: cloud1 ALIVE (waited for, up to a minute), wan-1
//  RUNNING on it alone, one container, and it answers.
static void
s_rejoined(void)
{
    char agent[32] = "";
    for (int tries = 0; tries < 300 && strcmp(agent, "ALIVE") != 0; tries++) {
        s_agent_status("cloud1", agent, sizeof agent);
        if (strcmp(agent, "ALIVE") != 0)
            harness_pause_ms(200);
    }
    T_EQ_STR(agent, "ALIVE");
    char status[32], agents[256];
    s_session("wan-1", status, sizeof status, agents, sizeof agents);
    T_EQ_STR(status, "RUNNING");
    T_EQ_STR(agents, "cloud1");
    T_EQ_INT(s_containers(s_kernel), 1);
    char out[4096] = "";
    for (int tries = 0; tries < 10 && strcmp(out, "after\n") != 0; tries++) {
        s_execute("wan-1", "echo after", out, sizeof out);
        if (strcmp(out, "after\n") != 0)
            harness_pause_ms(1000);
    }
    T_EQ_STR(out, "after\n");
}

static void
test_partition_shorter_than_lost(void)
{
    int lost, moved;
    s_partition(12, &lost, &moved);
    T_EQ_INT(lost, 0);
    T_EQ_INT(moved, 0);
    //  Still ALIVE once the link is back: it was never silent for lost_ms,
    //  and its heartbeats came back as the link did.
    for (int i = 0; i < 10; i++) {
        char agent[32];
        s_agent_status("cloud1", agent, sizeof agent);
        T_EQ_STR(agent, "ALIVE");
        harness_pause_ms(1000);
    }
    s_rejoined();
}

//  A session's first kernel id ("" when it has none).
static void
s_kernel_of(const char *name, char *out, size_t size)
{
    snprintf(out, size, "%s", "");
    json_t *r = client_gql(&s_p, &s_p.super,
                           "{ compute_session_list(limit: 20, offset: 0) { items { name"
                           " containers { id } } } }",
                           NULL);
    json_t *items = json_object_get(
        json_object_get(json_object_get(r, "data"), "compute_session_list"), "items");
    size_t index;
    json_t *item;
    json_array_foreach(items, index, item)
    {
        const char *n = json_string_value(json_object_get(item, "name"));
        const char *id = json_string_value(json_object_get(
            json_array_get(json_object_get(item, "containers"), 0), "id"));
        if (n && id && strcmp(n, name) == 0)
            snprintf(out, size, "%s", id);
    }
    json_decref(r);
}

static bool
s_enqueue(const char *name)
{
    char body[512];
    snprintf(body, sizeof body,
             "{\"name\": \"%s\", \"image\": \"" IMAGE "\", \"enqueueOnly\": true,"
             " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"256m\"}},"
             " \"type\": \"interactive\", \"group\": \"default\","
             " \"domain\": \"default\"}",
             name);
    int status;
    json_t *r = s_request("POST", "/session", body, &status);
    json_decref(r);
    return status == 201 || status == 200;
}

//  The 30 s partition, longer than lost_ms, with two creates in it: wan-3
//  placed on cloud1 (the only agent not excluded) as the link is cut, its
//  kernel.create held up by the partition; wan-2 created once cloud1 is
//  LOST, with the other agents excluded: it waits, PENDING, though cloud1
//  has a CPU free. After: wan-2 runs on another agent once they are
//  included, wan-3 on cloud1 in exactly one container, wan-1 as before.
static void
test_partition_longer_than_lost(void)
{
    T_ASSERT(s_operation("exclude-agents", "\"agent1\", \"agent2\""));
    T_EQ_INT(s_testbed("partition"), 0);
    T_ASSERT(s_enqueue("wan-3"));
    int lost = 0, moved = 0, wan2_on_cloud1 = 0, wan2_pending = 0;
    bool wan2 = false;
    char status[32], agents[256], agent[32];
    for (int i = 0; i < 30; i++) {
        harness_pause_ms(1000);
        s_agent_status("cloud1", agent, sizeof agent);
        s_session("wan-1", status, sizeof status, agents, sizeof agents);
        if (strcmp(status, "RUNNING") != 0 || strcmp(agents, "cloud1") != 0) {
            fprintf(stderr, "# %d s into the partition: cloud1 %s, wan-1 %s on %s\n",
                    i + 1, agent, status, agents);
            moved++;
        }
        if (strcmp(agent, "LOST") == 0) {
            lost++;
            if (!wan2)
                wan2 = s_enqueue("wan-2");
        }
        if (wan2) {
            s_session("wan-2", status, sizeof status, agents, sizeof agents);
            if (strstr(agents, "cloud1"))
                wan2_on_cloud1++;
            if (strcmp(status, "PENDING") == 0)
                wan2_pending++;
        }
    }
    T_ASSERT(lost > 0);
    T_EQ_INT(moved, 0);
    T_ASSERT(wan2);
    T_EQ_INT(wan2_on_cloud1, 0);
    T_ASSERT(wan2_pending > 0);
    //  wan-1's container ran on throughout.
    T_EQ_INT(s_containers(s_kernel), 1);
    //  wan-2 goes to an agent that is there.
    T_ASSERT(s_operation("include-agents", "\"agent1\", \"agent2\""));
    for (int tries = 0; tries < 150 && strcmp(status, "RUNNING") != 0; tries++) {
        harness_pause_ms(200);
        s_session("wan-2", status, sizeof status, agents, sizeof agents);
    }
    T_EQ_STR(status, "RUNNING");
    T_ASSERT(*agents && !strstr(agents, "cloud1"));
    T_EQ_INT(s_testbed("heal"), 0);
    s_rejoined();
    //  wan-3's create reaches cloud1 once the link is back: RUNNING there,
    //  one container in all the agents' states.
    status[0] = '\0';
    for (int tries = 0; tries < 300 && strcmp(status, "RUNNING") != 0; tries++) {
        harness_pause_ms(200);
        s_session("wan-3", status, sizeof status, agents, sizeof agents);
    }
    s_session("wan-3", status, sizeof status, agents, sizeof agents);
    T_EQ_STR(status, "RUNNING");
    T_EQ_STR(agents, "cloud1");
    char kernel[64];
    s_kernel_of("wan-3", kernel, sizeof kernel);
    T_ASSERT(*kernel);
    T_EQ_INT(s_containers(kernel), 1);
}

static void
test_destroy_sessions(void)
{
    for (int i = 1; i <= 3; i++) {
        char path[64];
        snprintf(path, sizeof path, "/session/wan-%d", i);
        int status;
        json_t *r = s_request("DELETE", path, NULL, &status);
        T_EQ_INT(status, 200);
        json_decref(r);
    }
    for (int tries = 0; tries < 100 && *s_kernel && s_containers(s_kernel) != 0; tries++)
        harness_pause_ms(100);
    T_EQ_INT(s_containers(s_kernel), 0);
}

static void
test_down_leaves_nothing(void)
{
    T_ASSERT(s_dir);
    T_EQ_INT(s_testbed("down"), 0);
    s_up = false;
    static const char *const k_hosts[] = {"control", "front",  "storage", "agent1",
                                          "agent2",  "cloud1", "wan",     "lan"};
    for (size_t i = 0; i < sizeof k_hosts / sizeof k_hosts[0]; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "/run/netns/%s-%s", s_prefix, k_hosts[i]);
        bool left = access(path, F_OK) == 0;
        if (left)
            fprintf(stderr, "# %s left\n", path);
        T_ASSERT(!left);
    }
    //  The relay stopped; every service stopped cleanly.
    char command[PATH_MAX * 2];
    snprintf(command, sizeof command,
             "tail -n 1 %s/cloud1/wan-link.log | grep -q stopping", s_dir);
    T_EQ_INT(harness_shell(command), 0);
    static const char *const k_logs[] = {"control/scheduler", "front/gateway",
                                         "cloud1/agent", "agent1/agent", "agent2/agent"};
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
        T_RUN(test_wan_agent_registers);
        T_RUN(test_session_over_the_wan);
        if (*s_kernel) {
            T_RUN(test_partition_shorter_than_lost);
            T_RUN(test_partition_longer_than_lost);
        }
        T_RUN(test_destroy_sessions);
    }
    T_RUN(test_down_leaves_nothing);
    if (s_up)
        s_testbed("down");
    if (s_dir) {
        if (!t_failures && !getenv("BACKPLANE_KEEP"))
            harness_rmdir(s_dir);
        else
            fprintf(stderr, "# testbed kept in %s\n", s_dir);
        free(s_dir);
    }
    return T_DONE();
}
