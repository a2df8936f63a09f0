/*  =========================================================================
    agent_accel_private - the allocator's and the plugins' own state

    Shared by the allocator (agent_accel.c) and what it gives a container
    (agent_accel_container.c), and by nothing else: plugins are built and
    read through agent_accel.h.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_ACCEL_PRIVATE_H_INCLUDED
#define AGENT_ACCEL_PRIVATE_H_INCLUDED

#include "agent_accel.h"

struct _agent_accel_plugin_t {
    char name[AGENT_ACCEL_NAME_MAX];
    char env_prefix[AGENT_ACCEL_PREFIX_MAX];
    bool plain_visible;
    bool visible_by_id;
    char node_prefix[AGENT_ACCEL_NODE_MAX]; //  "" when none
    char shared_nodes[AGENT_ACCEL_SHARED_NODES][AGENT_ACCEL_NODE_MAX];
    size_t shared_count;
    int64_t shares_per_device;
    int64_t quantum;
    size_t slot_count;
    agent_accel_slot_t slots[AGENT_ACCEL_PLUGIN_SLOTS];
    size_t device_count;
    agent_accel_device_t devices[AGENT_ACCEL_DEVICES_MAX];
    int64_t used[AGENT_ACCEL_DEVICES_MAX]; //  SHARES thousandths in use
    bool whole[AGENT_ACCEL_DEVICES_MAX];   //  held by a WHOLE slot
    void *state;                           //  the plugin's own (the CUDA plugin's NVML)
    agent_accel_state_destroy_fn *state_destroy;
};

struct _agent_accel_t {
    agent_accel_plugin_t *plugins[AGENT_ACCEL_PLUGINS_MAX];
    size_t plugin_count;
    zhashx_t *kernels; //  kernel id -> agent_accel_alloc_t (owned)
};

#endif
