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

    The db layer is the only code that writes SQL: this file (the schema as
    numbered migrations, the connection's tuning, the offline open, the
    helpers below) and one file per part of the schema:
      sched_db_agents     agents, their capacity and what they report
      sched_db_sessions   sessions: the store, and what others read of them
      sched_db_kernels    kernels: transitions, and what calls read of them
      sched_db_ledger     allocation rows, the usage summed from them, and
                          the checks that the aggregates agree with them
      sched_db_sgroups    resource groups' rules (from the gateway)
      sched_db_snapshot   what one scheduling pass reads, in one go
      sched_db_list       session.list: a page and the count of all
      sched_where         session.list's filter language built into SQL
                          from fixed pieces, every value bound
      sched_db_checkpoint WAL checkpoints on a connection of their own
    Statements are prepared once and cached by their text (bus_db_stmt),
    except session.list's, whose text depends on the filter.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_DB_H_INCLUDED
#define SCHED_DB_H_INCLUDED

#include "bus.h"

//  Bump with every migration appended to sched_db.c (a static assertion checks).
#define SCHED_DB_MIGRATION_COUNT 15

extern const bus_db_migration_t sched_db_migrations[];

//  Connection settings the scheduler adds to bus_db's (WAL, synchronous =
//  NORMAL): savepoints' and statements' journals in memory, not in temp
//  files (the group commit puts every unit of work under a savepoint, and
//  each page a unit changes first is journaled there); a page cache that
//  holds the working set of a busy pass (64 MiB at most); and a checkpoint
//  every 10,000 pages of WAL rather than 1,000, so that pages written by
//  many transactions in a row (the aggregates, the ends of the indexes)
//  reach the database file once per checkpoint. That one is the bound on
//  the WAL: sched_db_checkpoint copies most pages before, on its own thread.
#define SCHED_DB_PRAGMAS                                                                 \
    "PRAGMA temp_store = MEMORY; PRAGMA cache_size = -65536;"                            \
    " PRAGMA wal_autocheckpoint = 10000"

//  Applies SCHED_DB_PRAGMAS to the service's connection (tuning, not
//  schema). 0, or -1 (logged): the defaults then stay.
int sched_db_tune(bus_db_t *db);

//  Steps stmt, whose rows are (slot, amount in integer units), into a slot
//  map of decimal strings as the bus carries them, in the arena *owned of the
//  message it goes into (its clear frees it). Resets stmt.
void sched_db_slot_map(sqlite3_stmt *stmt,
                       void **owned,
                       const proto_kv_t **map_p,
                       size_t *count_p);

//  ---------------------------------------------------------------------------
//  Helpers of the sched_db_* files, the only ones that prepare statements.

//  A row that is one id (a session's, a kernel's, an agent's), for the
//  queries that call a function per row. Return false to stop.
typedef bool(sched_db_id_fn)(void *arg, const char *id);

//  Opens the scheduler's database file at path outside the service (the
//  offline check-ledger command), migrating it as the service would.
//  NULL with err.
bus_db_t *sched_db_open(const char *path, bus_error_t *err);

//  Binds text at index, or NULL when text is NULL (copied: SQLITE_TRANSIENT).
void sched_db_bind_text(sqlite3_stmt *stmt, int index, const char *text);

//  Steps a statement that returns no row, then resets it: BUS_OK,
//  BUS_STATUS_CONFLICT for a constraint, BUS_STATUS_INTERNAL otherwise.
int sched_db_step(sqlite3_stmt *stmt);

//  A text column as a fresh string (caller owns it); NULL for NULL.
char *sched_db_column_dup(sqlite3_stmt *stmt, int column);

//  A text column copied into the arena *owned of a message (its clear frees
//  it); NULL for NULL.
const char *sched_db_column_text(sqlite3_stmt *stmt, int column, void **owned);

//  A text column into out (size bytes, truncated); "" for NULL.
void sched_db_column_copy(sqlite3_stmt *stmt, int column, char *out, size_t size);

#endif
