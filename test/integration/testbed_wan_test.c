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
#include "testbed_client.h"

#define IMAGE   "local.backplane/library/busybox:latest"
#define LOST_MS "20000"

static const char *const k_agents[] = {"agent1/agent", "agent2/agent", "cloud1/agent",
                                       NULL};
//  kernels[0]: wan-1's kernel.
static testbed_t s_tb = {.name = "testbed-wan",
                         .letters = "bpw",
                         .env = "TESTBED_WAN=1 TESTBED_AGENT_CPU=3 TESTBED_AGENT_MEM=1g"
                                " TESTBED_AGENT_LOST_MS=" LOST_MS,
                         .agents = k_agents};

//  A session's status and its containers' agents, joined by commas.
static void
s_session(const char *name, char *status, size_t status_size, char *agents, size_t size)
{
    char query[256];
    snprintf(query, sizeof query,
             "{ compute_session_list(limit: 10, offset: 0, status: \"PENDING,SCHEDULED,"
             "PREPARING,PULLING,RUNNING,TERMINATING,TERMINATED,CANCELLED,ERROR\")"
             " { items { name status containers { id agent } } } }");
    json_t *r = client_gql(&s_tb.p, &s_tb.p.super, query, NULL);
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
    int fd = client_ws_open(&s_tb.p, &s_tb.p.super, path, &status);
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

static void
test_up(void)
{
    T_EQ_INT(testbed_up(&s_tb), 0);
}

//  cloud1 registers over the WAN, at its own address.
static void
test_wan_agent_registers(void)
{
    T_ASSERT(testbed_agent_becomes(&s_tb, "cloud1", "ALIVE", 20000));
    json_t *r = client_gql(&s_tb.p, &s_tb.p.super,
                           "{ agent(agent_id: \"cloud1\") { id addr status } }", NULL);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "tcp://%s.31:", s_tb.net);
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
    T_ASSERT(testbed_operation(&s_tb, "exclude-agents", "\"agent1\", \"agent2\""));
    char id[64] = "";
    T_ASSERT(client_session_running(
        &s_tb.p, &s_tb.p.super,
        "{\"name\": \"wan-1\", \"image\": \"" IMAGE "\", \"enqueueOnly\": true,"
        " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"256m\"}},"
        " \"type\": \"interactive\", \"group\": \"default\", \"domain\": \"default\"}",
        "wan-1", id));
    T_ASSERT(testbed_operation(&s_tb, "include-agents", "\"agent1\", \"agent2\""));
    char status[32], agents[256];
    s_session("wan-1", status, sizeof status, agents, sizeof agents);
    T_EQ_STR(status, "RUNNING");
    T_EQ_STR(agents, "cloud1");
    json_t *r = client_gql(&s_tb.p, &s_tb.p.super,
                           "{ compute_session_list(limit: 10, offset: 0) { items { name"
                           " containers { id } } } }",
                           NULL);
    json_t *items = json_object_get(
        json_object_get(json_object_get(r, "data"), "compute_session_list"), "items");
    const char *kernel = json_string_value(json_object_get(
        json_array_get(json_object_get(json_array_get(items, 0), "containers"), 0),
        "id"));
    snprintf(s_tb.kernels[0], sizeof s_tb.kernels[0], "%s", kernel ? kernel : "");
    json_decref(r);
    T_ASSERT(*s_tb.kernels[0]);
    T_EQ_INT(testbed_containers(&s_tb, s_tb.kernels[0]), 1);
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
    T_EQ_INT(testbed_run(&s_tb, NULL, "partition"), 0);
    for (int i = 0; i < seconds; i++) {
        harness_pause_ms(1000);
        char agent[32], status[32], agents[256];
        testbed_agent(&s_tb, "cloud1", agent, sizeof agent, NULL, 0);
        s_session("wan-1", status, sizeof status, agents, sizeof agents);
        if (strcmp(agent, "LOST") == 0)
            (*lost)++;
        if (strcmp(status, "RUNNING") != 0 || strcmp(agents, "cloud1") != 0) {
            fprintf(stderr, "# %d s into the partition: cloud1 %s, wan-1 %s on %s\n",
                    i + 1, agent, status, agents);
            (*moved)++;
        }
    }
    T_EQ_INT(testbed_run(&s_tb, NULL, "heal"), 0);
}

//  After a partition: cloud1 ALIVE (waited for, up to a minute), wan-1
//  RUNNING on it alone, one container, and it answers.
static void
s_rejoined(void)
{
    T_ASSERT(testbed_agent_becomes(&s_tb, "cloud1", "ALIVE", 60000));
    char status[32], agents[256];
    s_session("wan-1", status, sizeof status, agents, sizeof agents);
    T_EQ_STR(status, "RUNNING");
    T_EQ_STR(agents, "cloud1");
    T_EQ_INT(testbed_containers(&s_tb, s_tb.kernels[0]), 1);
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
        testbed_agent(&s_tb, "cloud1", agent, sizeof agent, NULL, 0);
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
    json_t *r = client_gql(&s_tb.p, &s_tb.p.super,
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
    json_t *r = testbed_request(&s_tb, "POST", "/session", body, &status);
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
    T_ASSERT(testbed_operation(&s_tb, "exclude-agents", "\"agent1\", \"agent2\""));
    T_EQ_INT(testbed_run(&s_tb, NULL, "partition"), 0);
    T_ASSERT(s_enqueue("wan-3"));
    int lost = 0, moved = 0, wan2_on_cloud1 = 0, wan2_pending = 0;
    bool wan2 = false;
    char status[32], agents[256], agent[32];
    for (int i = 0; i < 30; i++) {
        harness_pause_ms(1000);
        testbed_agent(&s_tb, "cloud1", agent, sizeof agent, NULL, 0);
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
    T_EQ_INT(testbed_containers(&s_tb, s_tb.kernels[0]), 1);
    //  wan-2 goes to an agent that is there.
    T_ASSERT(testbed_operation(&s_tb, "include-agents", "\"agent1\", \"agent2\""));
    for (int tries = 0; tries < 150 && strcmp(status, "RUNNING") != 0; tries++) {
        harness_pause_ms(200);
        s_session("wan-2", status, sizeof status, agents, sizeof agents);
    }
    T_EQ_STR(status, "RUNNING");
    T_ASSERT(*agents && !strstr(agents, "cloud1"));
    T_EQ_INT(testbed_run(&s_tb, NULL, "heal"), 0);
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
    T_EQ_INT(testbed_containers(&s_tb, kernel), 1);
}

static void
test_destroy_sessions(void)
{
    for (int i = 1; i <= 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "wan-%d", i);
        T_EQ_INT(testbed_destroy_session(&s_tb, name), 200);
    }
    for (int tries = 0; tries < 100 && *s_tb.kernels[0] &&
                        testbed_containers(&s_tb, s_tb.kernels[0]) != 0;
         tries++)
        harness_pause_ms(100);
    T_EQ_INT(testbed_containers(&s_tb, s_tb.kernels[0]), 0);
}

//  down leaves nothing; the relay stopped too.
static void
test_down_leaves_nothing(void)
{
    T_EQ_INT(testbed_down_check(&s_tb), 0);
    char command[PATH_MAX * 2];
    snprintf(command, sizeof command,
             "tail -n 1 %s/cloud1/wan-link.log | grep -q stopping", s_tb.dir);
    T_EQ_INT(harness_shell(command), 0);
}

TESTBED_MAIN(s_tb, {
    T_RUN(test_wan_agent_registers);
    T_RUN(test_session_over_the_wan);
    if (*s_tb.kernels[0]) {
        T_RUN(test_partition_shorter_than_lost);
        T_RUN(test_partition_longer_than_lost);
    }
    T_RUN(test_destroy_sessions);
})
