/*  =========================================================================
    sched_agents_test - who may speak for an agent: the sender of a
    heartbeat or kernel event against the agent id it names

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"
#include "t.h"

static void
test_an_agent_speaks_for_itself(void)
{
    T_ASSERT(sched_agents_speaks_for("agent/agent1", "agent1"));
    T_ASSERT(sched_agents_speaks_for("agent/i-0abc.example", "i-0abc.example"));
}

//  A fake agent's fleet: <node>-<n>, from the one process.
static void
test_a_fleet_speaks_for_its_agents(void)
{
    T_ASSERT(sched_agents_speaks_for("agent/fleet", "fleet-1"));
    T_ASSERT(sched_agents_speaks_for("agent/fleet", "fleet-250"));
    T_ASSERT(!sched_agents_speaks_for("agent/fleet", "fleet-"));
    T_ASSERT(!sched_agents_speaks_for("agent/fleet", "fleet-1x"));
    T_ASSERT(!sched_agents_speaks_for("agent/fleet", "fleetx"));
}

//  Another host's agent id, another service, or nothing to go by: refused.
static void
test_nobody_speaks_for_another(void)
{
    T_ASSERT(!sched_agents_speaks_for("agent/agent2", "agent1"));
    T_ASSERT(!sched_agents_speaks_for("agent/agent1", "agent10"));
    T_ASSERT(!sched_agents_speaks_for("agent/agent1", "agent"));
    T_ASSERT(!sched_agents_speaks_for("gateway/agent1", "agent1"));
    T_ASSERT(!sched_agents_speaks_for("agent/", "agent1"));
    T_ASSERT(!sched_agents_speaks_for("agent/agent1", ""));
    T_ASSERT(!sched_agents_speaks_for("agent/agent1", NULL));
    T_ASSERT(!sched_agents_speaks_for(NULL, "agent1"));
    T_ASSERT(!sched_agents_speaks_for("", "agent1"));
}

int
main(void)
{
    T_RUN(test_an_agent_speaks_for_itself);
    T_RUN(test_a_fleet_speaks_for_its_agents);
    T_RUN(test_nobody_speaks_for_another);
    return T_DONE();
}
