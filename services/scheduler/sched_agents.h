/*  =========================================================================
    sched_agents - the agent registry, from the agents' heartbeats

    An agent.heartbeat that says something new upserts the agent (ALIVE)
    and its capacity, one row per slot in integer units, and what its
    kernels hold (agent_reported); one that says the same as the last is
    only noted, and the time each agent was last heard is written for all
    of them at once every second, with the check that marks an agent
    silent for agents.lost_ms LOST (a heartbeat brings it back).
    scheduler.agents answers the registry with each agent's capacity and
    what its allocation rows add up to. scheduler.schedulable includes
    agents in scheduling or excludes them (an operator's exclusion outlasts
    the agent's heartbeats, which otherwise say whether it is schedulable).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_AGENTS_H_INCLUDED
#define SCHED_AGENTS_H_INCLUDED

#include "bus.h"

#define SCHED_AGENTS_CHECK_MS 1000 //  how often silent agents are looked for

typedef struct _sched_agents_t sched_agents_t;

//  Subscribes to heartbeats, serves scheduler.agents and scheduler.schedulable,
//  starts the LOST check.
sched_agents_t *sched_agents_new(bus_node_t *node, int lost_ms);

void sched_agents_destroy(sched_agents_t **self_p);

//  Marks agents silent for longer than lost_ms LOST. Returns how many.
int sched_agents_expire(sched_agents_t *self);

#endif
