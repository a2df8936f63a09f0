/*  =========================================================================
    sched_db_sgroups - the resource groups' rules in the scheduler's
    database

    sgroups holds what the gateway's policy.scaling_group events say of
    each resource group: its scheduler (fifo, lifo, drf, priority) and its
    scheduler_opts as JSON text. The snapshot of a pass reads them
    (sched_db_snapshot_rules); the reclamation reads the options it acts
    on (pending_timeout, idle_checkers.utilization) here.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_DB_SGROUPS_H_INCLUDED
#define SCHED_DB_SGROUPS_H_INCLUDED

#include "bus.h"

//  Stores the rules of group name (scheduler and opts NULL: the defaults,
//  fifo and {}), or forgets the group when deleted. 0 or -1.
int sched_db_sgroups_apply(bus_db_t *db,
                           const char *name,
                           bool deleted,
                           const char *scheduler,
                           const char *opts);

//  One group's idle_checkers.utilization object (JSON text). Return false
//  to stop.
typedef bool(sched_db_sgroups_rule_fn)(void *arg, const char *group, const char *rule);

//  Calls fn for each group whose opts have an idle_checkers.utilization.
void sched_db_sgroups_utilization(bus_db_t *db, sched_db_sgroups_rule_fn *fn, void *arg);

//  Calls fn with each PENDING session that has waited longer than its
//  group's pending_timeout (seconds) at now_us, until fn returns false.
void sched_db_sgroups_pending_timeouts(bus_db_t *db,
                                       int64_t now_us,
                                       sched_db_id_fn *fn,
                                       void *arg);

#endif
