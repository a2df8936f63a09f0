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
#include "testbed_client.h"

static const char *const k_agents[] = {"agent1/agent", "agent2/agent", "agent3/agent",
                                       "agent4/agent", NULL};
static testbed_t s_tb = {.name = "testbed-ops",
                         .letters = "bpo",
                         .env = "TESTBED_AGENT_CPU=2 TESTBED_AGENT_MEM=1g",
                         .agents = k_agents};

static bool
s_mutate(const char *query, const char *field)
{
    json_t *r = client_gql(&s_tb.p, &s_tb.p.super, query, NULL);
    bool ok = client_mutation_ok(r, field);
    if (!ok) {
        char *text = json_dumps(r, JSON_COMPACT);
        fprintf(stderr, "# %s: %s\n", field, text ? text : "(no answer)");
        free(text);
    }
    json_decref(r);
    return ok;
}

//  Creates a session of 1 CPU (in group sgroup, NULL: the default one),
//  waits for it to run; the agent it runs on into agent ("" if it did not).
static void
s_session(const char *name, const char *sgroup, char *agent)
{
    char id[TESTBED_ID_SIZE], kernel[TESTBED_ID_SIZE];
    testbed_session(&s_tb, name, sgroup, id, kernel, agent);
}

static void
s_destroy(const char *name)
{
    T_EQ_INT(testbed_destroy_session(&s_tb, name), 200);
}

static bool
s_health_becomes(const char *service, const char *node, int number, bool named)
{
    for (int tries = 0; tries < 150; tries++) {
        if (testbed_health_names(&s_tb, service, node, number) == named)
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
    T_EQ_INT(testbed_up(&s_tb), 0);
    T_ASSERT(testbed_agent_becomes(&s_tb, "agent1", "ALIVE", 30000));
    T_ASSERT(testbed_agent_becomes(&s_tb, "agent2", "ALIVE", 30000));
}

//  agent1 drained: its session runs on, new ones go to agent2.
static void
test_drain(void)
{
    //  op-1 on agent1 (agent2 excluded while it is placed).
    T_ASSERT(testbed_operation(&s_tb, "exclude-agents", "\"agent2\""));
    char agent[64];
    s_session("op-1", NULL, agent);
    T_EQ_STR(agent, "agent1");
    T_ASSERT(testbed_operation(&s_tb, "include-agents", "\"agent2\""));
    //  Drained: agent1 has a CPU free, and gets nothing new. Backend.AI's
    //  word for it: schedulable false.
    T_ASSERT(testbed_operation(&s_tb, "exclude-agents", "\"agent1\""));
    json_t *a =
        client_gql(&s_tb.p, &s_tb.p.super,
                   "{ agent(agent_id: \"agent1\") { id status schedulable } }", NULL);
    json_t *row = json_object_get(json_object_get(a, "data"), "agent");
    T_ASSERT(json_is_false(json_object_get(row, "schedulable")));
    T_EQ_STR(json_string_value(json_object_get(row, "status")), "ALIVE");
    json_decref(a);
    s_session("op-2", NULL, agent);
    T_EQ_STR(agent, "agent2");
    s_session("op-3", NULL, agent);
    T_EQ_STR(agent, "agent2");
    //  The running one goes on, answering.
    T_ASSERT(testbed_answers(&s_tb, "op-1", "still"));
    s_destroy("op-1");
    s_destroy("op-3");
}

//  remove-agent agent1: gone from the hosts, /healthz and the ALIVE agents.
static void
test_remove_agent(void)
{
    T_EQ_INT(testbed_run(&s_tb, NULL, "remove-agent agent1"), 0);
    char path[128];
    snprintf(path, sizeof path, "/run/netns/%s-agent1", s_tb.prefix);
    T_ASSERT(access(path, F_OK) != 0);
    T_ASSERT(s_health_becomes("agent", "agent1", 0, false));
    char status[32];
    testbed_agent(&s_tb, "agent1", status, sizeof status, NULL, 0);
    T_ASSERT(strcmp(status, "ALIVE") != 0);
    //  A new session: on agent2 (its second CPU), not on the removed one.
    char agent[64];
    s_session("op-4", NULL, agent);
    T_EQ_STR(agent, "agent2");
}

//  add-agent agent3 while everything runs: agent2 is full (op-2, op-4),
//  so the next session can only land on the new one.
static void
test_add_agent(void)
{
    T_EQ_INT(testbed_run(&s_tb, NULL, "add-agent agent3"), 0);
    T_ASSERT(testbed_agent_becomes(&s_tb, "agent3", "ALIVE", 30000));
    T_ASSERT(s_health_becomes("agent", "agent3", 23, true));
    char agent[64];
    s_session("op-5", NULL, agent);
    T_EQ_STR(agent, "agent3");
    T_ASSERT(testbed_answers(&s_tb, "op-5", "added"));
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
    T_EQ_INT(testbed_run(&s_tb, "TESTBED_AGENT_GROUP=sg2", "add-agent agent4"), 0);
    T_ASSERT(testbed_agent_becomes(&s_tb, "agent4", "ALIVE", 30000));
    json_t *r = client_gql(&s_tb.p, &s_tb.p.super,
                           "{ agent(agent_id: \"agent4\") { id scaling_group } }", NULL);
    T_EQ_STR(json_string_value(json_object_get(
                 json_object_get(json_object_get(r, "data"), "agent"), "scaling_group")),
             "sg2");
    json_decref(r);
    char agent[64];
    s_session("op-6", "sg2", agent);
    T_EQ_STR(agent, "agent4");
    //  The default group's: on agent3, never agent4 (which has a CPU free).
    s_session("op-7", NULL, agent);
    T_EQ_STR(agent, "agent3");
}

//  /healthz: every service on every host, each at its host's address.
static void
test_healthz_names_every_host(void)
{
    T_ASSERT(testbed_health_names(&s_tb, "scheduler", "control", 11));
    T_ASSERT(testbed_health_names(&s_tb, "accounting", "control", 11));
    T_ASSERT(testbed_health_names(&s_tb, "gateway", "front", 12));
    T_ASSERT(testbed_health_names(&s_tb, "wsproxy", "front", 12));
    T_ASSERT(testbed_health_names(&s_tb, "storage-proxy", "storage", 13));
    T_ASSERT(testbed_health_names(&s_tb, "agent", "agent2", 22));
    T_ASSERT(testbed_health_names(&s_tb, "agent", "agent3", 23));
    T_ASSERT(testbed_health_names(&s_tb, "agent", "agent4", 24));
    T_ASSERT(!testbed_health_names(&s_tb, "agent", "agent1", 0));
}

static void
test_destroy_sessions(void)
{
    static const char *const k_names[] = {"op-2", "op-4", "op-5", "op-6", "op-7"};
    for (size_t i = 0; i < sizeof k_names / sizeof k_names[0]; i++)
        s_destroy(k_names[i]);
}

//  down leaves nothing: every service stopped cleanly, the agents removed
//  and added too.
static void
test_down_leaves_nothing(void)
{
    T_EQ_INT(testbed_down_check(&s_tb), 0);
}

TESTBED_MAIN(s_tb, {
    T_RUN(test_drain);
    T_RUN(test_remove_agent);
    T_RUN(test_add_agent);
    T_RUN(test_second_resource_group);
    T_RUN(test_healthz_names_every_host);
    T_RUN(test_destroy_sessions);
})
