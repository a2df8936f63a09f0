/*  =========================================================================
    sched_usage - scheduler.usage: what a keypair, its project and its
    domain hold now

    Usage is read from the allocation ledger, never kept as a counter: the
    SUM of the allocation rows of the kernels of the sessions concerned.
    Allocation rows exist only while a kernel holds its slots, so no status
    filter is needed. The gateway asks before it answers
    /resource/check-presets, and will before it admits a session.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_USAGE_H_INCLUDED
#define SCHED_USAGE_H_INCLUDED

#include "bus.h"

//  Serves scheduler.usage on node's database. 0 or -1.
int sched_usage_serve(bus_node_t *node);

#endif
