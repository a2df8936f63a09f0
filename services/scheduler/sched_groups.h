/*  =========================================================================
    sched_groups - the resource groups' scheduling rules, from the gateway

    The gateway owns resource groups; each change of one is a durable
    policy.scaling_group event (in the transaction that changes it), which
    this module follows exactly once into the sgroups table: the policy
    (fifo, lifo, drf, priority) and scheduler_opts (agent_selector,
    num_retries_to_skip, aging_sec, pending_timeout, ...). The snapshot of
    each pass reads them from there (sched_db_snapshot_rules), so a change
    applies from the next pass on, to sessions already pending too.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_GROUPS_H_INCLUDED
#define SCHED_GROUPS_H_INCLUDED

#include "bus.h"

//  Follows the policy domain on node. 0 or -1.
int sched_groups_follow(bus_node_t *node);

#endif
