/*  =========================================================================
    sched_metrics - the scheduler's lines of GET /metrics

    What an operator pages on: sessions not yet ended by status and resource
    group, the PENDING queue and how long its oldest session has waited,
    agents by status with each one's capacity and occupancy per slot (read
    from the database at each scrape: sched_db_metrics), and the scheduling
    passes: how long each took (a histogram) and how many sessions they
    placed (counted here as they run).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_METRICS_H_INCLUDED
#define SCHED_METRICS_H_INCLUDED

#include "bus.h"

#define SCHED_METRICS_GROUPS_MAX 256 //  resource groups listed at most
#define SCHED_METRICS_NAME_MAX   128 //  a resource group name kept, with its NUL

typedef struct _sched_metrics_t sched_metrics_t;

//  Adds the scheduler's lines to node's /metrics (bus_node_set_metrics).
//  node is borrowed and must outlive the object. NULL on failure.
sched_metrics_t *sched_metrics_new(bus_node_t *node);

//  Takes the lines off the node's /metrics and frees the object.
void sched_metrics_destroy(sched_metrics_t **self_p);

//  Counts one scheduling pass: it took seconds and placed sessions.
void sched_metrics_pass(sched_metrics_t *self, double seconds, size_t sessions);

#endif
