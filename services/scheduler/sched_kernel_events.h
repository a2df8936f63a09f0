/*  =========================================================================
    sched_kernel_events - the agents' durable kernel events, applied

    The scheduler follows the kernel domain of every agent (bus_node_follow:
    each event applied exactly once, in each agent's order, even across
    restarts). kernel.started moves a kernel being created to RUNNING with
    where it runs (what kernel.create's answer says, for when that answer
    was lost; whichever comes first moves it), and tells a cluster's
    kernels each other's addresses once all have one (sched_cluster).
    kernel.terminated records the exit code and ends the kernel TERMINATED
    with the agent's reason (oom-killed when the kernel ran out of memory);
    a batch session ends with its task's result, SUCCESS for exit code 0,
    and session_success or session_failure. A kernel the reconciliation
    cancelled as an orphan is left as it is.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_KERNEL_EVENTS_H_INCLUDED
#define SCHED_KERNEL_EVENTS_H_INCLUDED

#include "bus.h"
#include "sched_cluster.h"
#include "sched_lifecycle.h"

typedef struct _sched_kernel_events_t sched_kernel_events_t;

//  Follows the kernel domain on node, moving kernels through lifecycle and
//  telling clusters through cluster (both borrowed). NULL on failure.
sched_kernel_events_t *sched_kernel_events_new(bus_node_t *node,
                                               sched_lifecycle_t *lifecycle,
                                               sched_cluster_t *cluster);
void sched_kernel_events_destroy(sched_kernel_events_t **self_p);

#endif
