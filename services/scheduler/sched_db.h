/*  =========================================================================
    sched_db - the scheduler's own database: agents, sessions, kernels and
    the allocation ledger

    The scheduler is the source of truth of every session's and kernel's
    lifecycle. What an agent has given out is never a counter: it is the
    SUM of the allocation rows of the kernels placed on it (one row per
    kernel and slot), written in the same transaction as the kernel's
    SCHEDULED transition and deleted in the one that ends it, so occupancy
    cannot drift however many messages are lost.

    Amounts are integers: bytes for "bytes" slots, thousandths for "count"
    slots (cpu 0.5 is 500), so that SUM is exact.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_DB_H_INCLUDED
#define SCHED_DB_H_INCLUDED

#include "bus.h"

//  Bump with every migration appended to sched_db.c (a static assertion checks).
#define SCHED_DB_MIGRATION_COUNT 4

extern const bus_db_migration_t sched_db_migrations[];

//  Steps stmt, whose rows are (slot, amount in integer units), into a slot
//  map of decimal strings as the bus carries them (caller owns *map_p; free
//  with proto_free_map). Resets stmt.
void sched_db_slot_map(sqlite3_stmt *stmt, proto_kv_t **map_p, size_t *count_p);

#endif
