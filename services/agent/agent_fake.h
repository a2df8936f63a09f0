/*  =========================================================================
    agent_fake - a fleet of fake agents on one bus node, for scheduling at
    cluster scale on one machine (fake.agents > 0)

    One process plays N agents, named <node name>-1 .. <node name>-N. Each
    heartbeats agent.heartbeat every bus.heartbeat_ms (the fleet's beats are
    spread over the period) with the slots of fake.slots, the resource group
    of agent.scaling_group, architecture x86_64 and the node's RPC endpoint,
    which all of them share: kernel.create and kernel.list name the agent
    meant in agent_id (empty: the first). No container ever runs: kernel.
    create answers at once (container "fake-<kernel id>", host 127.0.0.1, no
    service ports) and emits the durable kernel.started; kernel.destroy
    emits kernel.terminated (exit code 0, the request's reason); kernel.list
    answers an agent's kernels as running. Both are idempotent, and as with
    a real agent a create of a kernel that ended is refused (CONFLICT
    "already ended") and a repeated destroy answers again. Every other
    kernel.* method is refused with BUS_STATUS_UNAVAILABLE "fake agent: no
    containers". Kernels live in memory only (a restarted fleet has none);
    the node's database holds no more than libbus's outbox.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_FAKE_H_INCLUDED
#define AGENT_FAKE_H_INCLUDED

#include "bus.h"
#include "agent_config.h"

//  The most agents one fleet process plays (fake.agents).
#define AGENT_FAKE_AGENTS_MAX 10000
//  What each fake agent offers by default (fake.slots).
#define AGENT_FAKE_SLOTS_DEFAULT "cpu=64,mem=256g"
//  Ended kernels remembered, so a repeated destroy answers and a repeated
//  create is refused; past this the memory is cleared.
#define AGENT_FAKE_ENDED_MAX 100000
//  Heartbeats go out in slices at least this far apart over the period.
#define AGENT_FAKE_BEAT_SLICE_MS 10
//  What every fake kernel's address is.
#define AGENT_FAKE_KERNEL_HOST "127.0.0.1"
//  The detail of the methods a fake agent cannot serve.
#define AGENT_FAKE_NO_CONTAINERS "fake agent: no containers"

typedef struct _agent_fake_t agent_fake_t;

//  ---------------------------------------------------------------------------
//  Starts config->fake_agents fake agents on node: parses fake.slots, serves
//  the kernel.* methods, starts the heartbeats. config is borrowed and must
//  outlive the fleet. NULL with err (BUS_STATUS_INVALID for bad slots).
agent_fake_t *
agent_fake_new(bus_node_t *node, const agent_config_t *config, bus_error_t *err);

//  Stops the heartbeats and forgets the kernels (no event says they ended).
//  Idempotent; NULLs the pointer.
void agent_fake_destroy(agent_fake_t **self_p);

//  ---------------------------------------------------------------------------
//  Parses a slot list as fake.slots takes it, "cpu=64,mem=256g,cuda.shares=8"
//  (known slot types, amounts as bus_slots parses them, no unlimited, no
//  slot twice), into *slots_p: slot -> normalized decimal string
//  ("68719476736"), *count_p pairs, all in the arena *owned (free it with
//  proto_arena_free). BUS_OK, or BUS_STATUS_INVALID with err.
int agent_fake_parse_slots(const char *text,
                           void **owned,
                           const proto_kv_t **slots_p,
                           size_t *count_p,
                           bus_error_t *err);

#endif
