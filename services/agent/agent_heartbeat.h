/*  =========================================================================
    agent_heartbeat - telling the scheduler this agent is alive, and what
    it has

    Every bus.heartbeat_ms the agent publishes agent.heartbeat with its
    resource group, region, architecture, RPC endpoint, the slots it offers
    (agent.slots.*: a fixed amount, or "auto" for what the machine has; and
    its accelerator plugins' slots), the slots its kernels were given,
    summed per slot (occupied_slots: every offered slot, 0 when unused, from
    the agent's kernels table, so kernels adopted after a restart count
    too) and how many kernels it runs. The scheduler's registry is built
    from these, and its ledger invariant compares occupied_slots with its
    allocations; an agent that stops sending them is marked LOST.

    The same timer publishes agent.stats, the host's live figures (CPU busy
    time per core since the last beat, memory in use: agent_hoststats;
    each GPU's utilization and memory from the CUDA plugin's NVML),
    which the gateway keeps for GraphQL agent live_stat, cpu_cur_pct and
    mem_cur_bytes, and deletes the kept logs of kernels that ended more than
    agent.ended_log_retention_s ago (agent_db).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_HEARTBEAT_H_INCLUDED
#define AGENT_HEARTBEAT_H_INCLUDED

#include "bus.h"
#include "agent_config.h"
#include "agent_accel.h"

//  The most slots one heartbeat reports (the proto's map limit).
#define AGENT_HEARTBEAT_SLOTS_MAX 64
//  The most GPUs agent.stats reports (the proto's list limit).
#define AGENT_HEARTBEAT_GPUS_MAX 64

typedef struct _agent_heartbeat_t agent_heartbeat_t;

//  Resolves the slots (auto → this machine) and starts the heartbeat; the
//  accelerators' slots are read from accel (borrowed, must outlive it) at
//  every beat. NULL with err when a slot amount is invalid.
agent_heartbeat_t *agent_heartbeat_new(bus_node_t *node,
                                       const agent_config_t *config,
                                       const agent_accel_t *accel,
                                       bus_error_t *err);

void agent_heartbeat_destroy(agent_heartbeat_t **self_p);

//  Publishes one heartbeat now.
void agent_heartbeat_send(agent_heartbeat_t *self);

//  ---------------------------------------------------------------------------
//  Publishes agent.stats now: the host's figures since the previous call
//  (or since the heartbeat started).
void agent_heartbeat_send_stats(agent_heartbeat_t *self);

#endif
