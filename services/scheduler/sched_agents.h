/*  =========================================================================
    sched_agents - the agent registry, from the agents' heartbeats

    An agent.heartbeat that says something new upserts the agent (ALIVE)
    and its capacity, one row per slot in integer units, and what its
    kernels hold (agent_reported); one that says the same as the last is
    only noted, and the time each agent was last heard is written for all
    of them at once every second, with the check that marks an agent
    silent for agents.lost_ms LOST (a heartbeat brings it back).
    scheduler.agents (sched_rpc) answers from the rows this writes;
    scheduler.schedulable writes an operator's exclusion, which outlasts
    the heartbeats, and forgets the agent's last one (sched_agents_forget)
    so that its next is written in full.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_AGENTS_H_INCLUDED
#define SCHED_AGENTS_H_INCLUDED

#include "bus.h"

#define SCHED_AGENTS_CHECK_MS 1000 //  how often silent agents are looked for

typedef struct _sched_agents_t sched_agents_t;

//  Follows the agents' heartbeats on node; an agent silent for lost_ms is
//  LOST at the next sched_agents_expire. NULL on failure.
sched_agents_t *sched_agents_new(bus_node_t *node, int lost_ms);

void sched_agents_destroy(sched_agents_t **self_p);

//  Writes when each agent was last heard, then marks the agents silent for
//  longer than lost_ms LOST. Returns how many. Every SCHED_AGENTS_CHECK_MS
//  (sched_server).
int sched_agents_expire(sched_agents_t *self);

//  Forgets what agent_id's last heartbeat said, so that its next one is
//  written in full (after an operator changed what the row says).
void sched_agents_forget(sched_agents_t *self, const char *agent_id);

//  Whether an event whose header says src ("agent/<node>") may speak for
//  agent_id: the agent whose node it is, or one of the fleet a fake agent
//  of that node runs ("<node>-<n>"). A heartbeat or a kernel event with
//  another agent's id (a host's message replayed by another, or a
//  misconfigured node) is refused with a warning: a heartbeat would move
//  that agent's RPC endpoint to the sender, a kernel event settle a kernel
//  that runs elsewhere. Pure.
bool sched_agents_speaks_for(const char *src, const char *agent_id);

#endif
