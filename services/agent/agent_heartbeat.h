/*  =========================================================================
    agent_heartbeat - telling the scheduler this agent is alive, and what
    it has

    Every bus.heartbeat_ms the agent publishes agent.heartbeat with its
    resource group, region, architecture, RPC endpoint and the slots it
    offers (agent.slots.*: a fixed amount, or "auto" for what the machine
    has). The scheduler's registry is built from these; an agent that stops
    sending them is marked LOST.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_HEARTBEAT_H_INCLUDED
#define AGENT_HEARTBEAT_H_INCLUDED

#include "bus.h"
#include "agent_config.h"

typedef struct _agent_heartbeat_t agent_heartbeat_t;

//  Resolves the slots (auto → this machine) and starts the heartbeat. NULL
//  with err when a slot amount is invalid.
agent_heartbeat_t *
agent_heartbeat_new(bus_node_t *node, const agent_config_t *config, bus_error_t *err);

void agent_heartbeat_destroy(agent_heartbeat_t **self_p);

//  Publishes one heartbeat now.
void agent_heartbeat_send(agent_heartbeat_t *self);

#endif
