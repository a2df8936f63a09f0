/*  =========================================================================
    sched_db_ledger - the allocation ledger: placements' rows, the sums
    read from them, and the checks that they agree

    What an agent has given out is never a counter: it is the SUM of the
    allocation rows of the kernels placed on it (one row per kernel and
    slot), written in the transaction that places the kernel and deleted in
    the one that ends it (sched_db_kernels), so occupancy cannot drift
    however many messages are lost. Triggers (sched_db) keep the aggregates
    a pass reads (agent_occupancy, scope_usage, keypair_counts) equal to
    the rows in the same transaction; sched_db_ledger_check says whether
    they still are.

    Usage (scheduler.usage) is read from the rows, never kept as a
    counter: the SUM of the allocation rows of the kernels of the sessions
    concerned. Allocation rows exist only while a kernel holds its slots,
    so no status filter is needed.

    The promises sched_db_ledger_check holds the database to:
      - for every agent and slot, the SUM of its allocation rows equals the
        occupancy the triggers keep (agent_occupancy), and never exceeds
        the agent's capacity;
      - for every quota scope and slot, the SUM of the allocation rows of
        its sessions' kernels equals scope_usage, and the pending amounts
        equal what the PENDING sessions ask for;
      - each keypair's counts of slot-holding and PENDING sessions equal
        the sessions' statuses;
      - only kernels that hold slots (placed, not ended) have allocation
        rows;
      - where an agent reported what its kernels hold (agent.heartbeat
        occupied_slots, at rest: no kernel of it in a transitional status),
        the ledger says the same.
    Run by the tests after every scenario, by scheduler.invariant over RPC,
    and offline by `backplane-scheduler check-ledger`. The aggregates are
    recounted from the rows by scheduler.recalculate (the gateway's POST
    /resource/recalculate-usage).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_DB_LEDGER_H_INCLUDED
#define SCHED_DB_LEDGER_H_INCLUDED

#include "bus.h"
#include "sched_db_snapshot.h"

//  Records one kernel's placement on agent_id at now_us: its allocation
//  rows (what it asks for), the kernel and (while PENDING) its session
//  SCHEDULED, or PREPARING with preparing (sched_dispatch_set_preparing).
//  0 or -1.
int sched_db_ledger_assign(bus_db_t *db,
                           const char *session_id,
                           const char *kernel_id,
                           const char *agent_id,
                           int64_t now_us,
                           bool preparing);

//  What the keypair access_key holds, with its project group_id and its
//  domain domain_name, in out (initialized by the caller): each sum a slot
//  map, the keypair's also per resource group; an empty or NULL owner is
//  not summed. BUS_OK or INTERNAL.
int sched_db_ledger_usage(bus_db_t *db,
                          const char *access_key,
                          const char *group_id,
                          const char *domain_name,
                          proto_scheduler_usage_rep_t *out);

//  Each keypair's count of sessions that hold slots (Backend.AI's
//  concurrency_used) into used[i] for access_keys[i], 0 for a keypair
//  without any: one query that looks each key up in keypair_counts by its
//  primary key, however many keypairs there are. BUS_OK or INTERNAL.
int sched_db_ledger_concurrency(bus_db_t *db,
                                const char *const *access_keys,
                                size_t count,
                                uint64_t *used);

//  What the keypair access_key has pending, for the admission of a new
//  session: its count of PENDING sessions into scope->pending_count and
//  what they ask for into scope->pending_slots, for the slots of slots.
void sched_db_ledger_pending(bus_db_t *db,
                             const char *access_key,
                             const sched_db_snapshot_t *slots,
                             sched_scope_t *scope);

//  Checks db; returns how many violations were found (0: all hold), -1
//  when the database cannot be read. When report is given, *report is a
//  JSON array (caller owns it) with one line of text per violation.
int sched_db_ledger_check(bus_db_t *db, json_t **report);

//  Recounts the aggregates (agent_occupancy, scope_usage, keypair_counts)
//  from the allocation rows, the requests and the sessions' statuses in
//  one transaction, whatever they held (Backend.AI's recalculate-usage):
//  the triggers keep them equal, so this only matters after a bug or a
//  hand edit. *fixed: the violations it removed. Returns the violations
//  left (sched_db_ledger_check, with its report when asked), -1 on error.
int sched_db_ledger_recount(bus_db_t *db, int *fixed, json_t **report);

#endif
