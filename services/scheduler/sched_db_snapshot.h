/*  =========================================================================
    sched_db_snapshot - what one scheduling pass reads from the database

    For one resource group and architecture: the group's rules (from the
    gateway's policy.scaling_group events), its ALIVE, schedulable agents
    with their capacity and occupancy, a window of its PENDING sessions
    whose start time has come, their owners, and the quota scopes they
    count against with limits and usage. Occupancy and usage are read from
    aggregates the database's triggers keep (sched_db), so loading costs
    O(agents + window), never a sum over the ledger.

    The window: for FIFO, DRF and PRIORITY the oldest `window` sessions;
    for LIFO the newest three quarters of it plus the oldest quarter, so
    the sessions that starve (the oldest, under LIFO) are still seen.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_DB_SNAPSHOT_H_INCLUDED
#define SCHED_DB_SNAPSHOT_H_INCLUDED

#include "bus.h"
#include "sched_model.h"
#include "sched_quota.h"

//  A pending session's own columns the pass does not need but its
//  write-back does, parallel to pending[].
typedef struct {
    uint32_t retries;   //  unsuccessful tries so far, as status_data shows
    int64_t tried_at;   //  when the last one was written
    char group_id[64];  //  for messages only
    char kernel_id[64]; //  its main kernel (cluster_idx 1), which the pass places
} sched_pending_extra_t;

typedef struct {
    char group[72];
    char architecture[40];
    int64_t heard_since_us; //  the agents read are those heard from since
    sched_rules_t rules;
    int64_t pending_timeout_us; //  0: none (scheduler_opts.pending_timeout)
    const char *slot_names[SCHED_SLOTS_MAX];
    size_t slot_count;
    sched_agent_t *agents; //  sorted by id
    size_t agent_count;
    sched_owner_t *owners;
    size_t owner_count;
    sched_scope_t *scopes;
    size_t scope_count;
    sched_pending_t *pending;
    sched_pending_extra_t *extra;
    size_t pending_count;
    //  the window's spread groups (sched_pass.h): their keys, and per group
    //  and agent the sessions of the group holding slots there
    const char **spread_keys;
    size_t spread_groups;
    uint32_t *spread_counts; //  spread_groups * agent_count
    //  private: the strings everything above borrows
    void *strings;
} sched_db_snapshot_t;

//  The resource groups' rules as stored (sgroups table); an unknown group
//  has the defaults: fifo, concentrated, 3 passes before starving, no aging.
void sched_db_snapshot_rules(bus_db_t *db,
                             const char *group,
                             sched_rules_t *rules,
                             int64_t *pending_timeout_us);

//  Reads the snapshot of group/architecture at now_us with at most window
//  pending sessions. Its agents are those heard from at heard_since_us or
//  later (0: every ALIVE one). NULL when the database fails.
sched_db_snapshot_t *sched_db_snapshot_load(bus_db_t *db,
                                            const char *group,
                                            const char *architecture,
                                            int64_t now_us,
                                            int64_t heard_since_us,
                                            size_t window);

void sched_db_snapshot_destroy(sched_db_snapshot_t **self_p);

//  The slot index of name in the snapshot, or -1.
int sched_db_snapshot_slot(const sched_db_snapshot_t *self, const char *name);

//  Parses one scope's limits as the gateway sends them (session.create's
//  limits member for that scope) into scope, for the snapshot's slots:
//    total_resource_slots  slot -> amount ("Infinity": none)
//    unspecified           "unlimited" (default) or "limited": a slot not
//                          listed is unlimited, or limited to zero
//    max_concurrent_sessions, max_containers_per_session,
//    max_pending_session_count   integers (absent or null: none)
//    max_pending_session_resource_slots   like total_resource_slots
//  Malformed members are ignored (no limit), never fatal.
void sched_db_snapshot_parse_limits(const sched_db_snapshot_t *self,
                                    const char *text,
                                    sched_scope_t *scope);

#endif
