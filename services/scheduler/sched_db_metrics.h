/*  =========================================================================
    sched_db_metrics - the counts /metrics shows, read from the scheduler's
    database at each scrape

    Each query reads an index or a small table: sessions not yet ended by
    status and resource group (the sessions_status index, terminal statuses
    left out so that the cost does not grow with history), the PENDING
    queue per group (the sessions_pending partial index), agents by status,
    and each agent's capacity and occupancy per slot (agent_capacity and
    the agent_occupancy aggregate the triggers keep).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_DB_METRICS_H_INCLUDED
#define SCHED_DB_METRICS_H_INCLUDED

#include "bus.h"

//  One row: two names and two numbers, as each query below says.
typedef void(sched_db_metrics_fn)(
    void *arg, const char *a, const char *b, int64_t x, int64_t y);

//  Sessions neither TERMINATED nor CANCELLED: fn(status, resource group,
//  count, 0). 0 or -1.
int sched_db_metrics_sessions(bus_db_t *db, sched_db_metrics_fn *fn, void *arg);

//  The PENDING queue: fn(resource group, NULL, count, created_at of the
//  oldest, wall µs). 0 or -1.
int sched_db_metrics_pending(bus_db_t *db, sched_db_metrics_fn *fn, void *arg);

//  Agents: fn(status, resource group, count, 0). 0 or -1.
int sched_db_metrics_agents(bus_db_t *db, sched_db_metrics_fn *fn, void *arg);

//  Slots of every agent not TERMINATED, by agent and slot: fn(agent id,
//  slot, capacity, occupied), amounts as stored (bytes, or thousandths of
//  a count: bus_slots). 0 or -1.
int sched_db_metrics_slots(bus_db_t *db, sched_db_metrics_fn *fn, void *arg);

#endif
