/*  =========================================================================
    bus_db - the SQLite helper every service uses for its own state

    One database file per service, opened once: WAL journal, foreign keys on,
    a busy timeout, and numbered migrations tracked in PRAGMA user_version.
    Prepared statements are cached by their SQL text and finalized on destroy,
    so handlers write the SQL inline and pay for preparing it once.

    Tables that libbus itself owns (the outbox, subscriber cursors) are created
    with CREATE TABLE IF NOT EXISTS by their modules, so they never take a
    number from the service's migration list.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_DB_H_INCLUDED
#define BUS_DB_H_INCLUDED

#include <sqlite3.h>
#include "bus_status.h"

#define BUS_DB_BUSY_TIMEOUT_MS 5000
#define BUS_DB_SAVEPOINT_MAX   16 //  savepoints open at once

typedef struct _bus_db_t bus_db_t;

//  migrations[i] moves the schema from version i to i + 1. Each runs in its
//  own transaction together with the user_version bump, so a failed step
//  leaves the file at the previous version. The SQL must not contain
//  BEGIN/COMMIT, nor PRAGMA foreign_keys (a no-op inside a transaction).
typedef struct {
    const char *name; //  one line, logged when applied
    const char *sql;  //  one or more statements
} bus_db_migration_t;

//  Opens (creating if needed) the file at path, ":memory:" for tests, and
//  applies the migrations not yet applied. The caller creates the directory.
//  Returns NULL with err filled on failure: BUS_STATUS_UNAVAILABLE when the
//  file cannot be opened or used, BUS_STATUS_CONFLICT when its user_version
//  is newer than count (a downgrade), BUS_STATUS_INTERNAL when a migration
//  fails (the detail names the step, numbered from 1 like the version it
//  brings the file to, its name and SQLite's message).
//  The connection has one owning thread (opened without SQLite's mutexes).
bus_db_t *bus_db_open(const char *path,
                      const bus_db_migration_t *migrations,
                      size_t count,
                      bus_error_t *err);

void bus_db_destroy(bus_db_t **self_p);

//  The raw handle, for sqlite3_* calls. Borrowed.
sqlite3 *bus_db_handle(bus_db_t *self);

//  A cached prepared statement for sql, reset and with bindings cleared.
//  Borrowed: valid until destroy; never finalize it. NULL (logged with the
//  SQL) if it does not prepare or holds more than one statement. The cache
//  key is the SQL text. Reset it (or step to SQLITE_DONE) when done: a
//  statement left on a row keeps its read snapshot, which stops WAL
//  checkpoints from completing.
sqlite3_stmt *bus_db_stmt(bus_db_t *self, const char *sql);

//  Steps stmt (bound; NULL when it could not be prepared) to completion and
//  resets it. BUS_OK, BUS_STATUS_CONFLICT (a constraint), or
//  BUS_STATUS_INTERNAL; a failure other than a constraint is logged with
//  what (the write it was) and SQLite's message.
int bus_db_step_done(bus_db_t *self, sqlite3_stmt *stmt, const char *what);

//  Runs sql, a statement with one integer parameter (?1, given before),
//  typically "DELETE FROM t WHERE at < ?1" for retention, to completion.
//  The rows it changed, or -1 (logged with what).
int64_t
bus_db_run_before(bus_db_t *self, const char *sql, int64_t before, const char *what);

//  Runs one or more statements without results or parameters: DDL, fixed
//  maintenance. 0 on success, -1 logged.
int bus_db_exec(bus_db_t *self, const char *sql);

//  Transactions. begin is BEGIN IMMEDIATE; calls nest, and only the
//  outermost commit commits. A rollback at any depth rolls the whole
//  transaction back and makes the enclosing commits fail (-1) until the
//  outermost level has ended; an inner begin fails meanwhile. begin fails
//  when the write lock stays busy past BUS_DB_BUSY_TIMEOUT_MS; a failing
//  COMMIT is rolled back and commit returns -1. commit or rollback without
//  a begin returns -1 (logged). Every call returns 0 or -1.
int bus_db_begin(bus_db_t *self);
int bus_db_commit(bus_db_t *self);
int bus_db_rollback(bus_db_t *self);
bool bus_db_in_transaction(bus_db_t *self);

//  Savepoints: one unit of work inside an open transaction that can fail
//  alone, so that many units share one commit (group commit). savepoint
//  opens a unit (SAVEPOINT); inside it begin/commit/rollback nest as above,
//  except that a rollback undoes the unit only (ROLLBACK TO) and poisons
//  the levels inside it, not the enclosing transaction. release ends the
//  unit: 0 keeps its work in the enclosing transaction (durable when that
//  commits), -1 when it was rolled back (its work is gone; the enclosing
//  transaction goes on). Units nest, at most BUS_DB_SAVEPOINT_MAX deep.
//  savepoint fails (-1) outside a transaction, inside a poisoned one, or
//  when SAVEPOINT fails; release must close the innermost unit at the depth
//  it opened it (asserted). A transaction SQLite ended on its own (I/O
//  error, full disk) fails every unit and the outermost commit.
int bus_db_savepoint(bus_db_t *self);
int bus_db_release(bus_db_t *self);

//  The schema version (PRAGMA user_version); -1 if it cannot be read.
int bus_db_version(bus_db_t *self);

//  Quick health probe: "SELECT 1" succeeds. For health RPCs.
bool bus_db_ok(bus_db_t *self);

#endif
