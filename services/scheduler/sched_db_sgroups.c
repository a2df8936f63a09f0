/*  =========================================================================
    sched_db_sgroups - the resource groups' rules in the scheduler's
    database

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

int
sched_db_sgroups_apply(
    bus_db_t *db, const char *name, bool deleted, const char *scheduler, const char *opts)
{
    sqlite3_stmt *stmt =
        deleted
            ? bus_db_stmt(db, "DELETE FROM sgroups WHERE name = ?1")
            : bus_db_stmt(db, "INSERT INTO sgroups (name, scheduler, opts)"
                              " VALUES (?1, coalesce(?2, 'fifo'), coalesce(?3, '{}'))"
                              " ON CONFLICT DO UPDATE SET scheduler = excluded.scheduler,"
                              " opts = excluded.opts");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
    if (!deleted) {
        sqlite3_bind_text(stmt, 2, scheduler, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 3, opts, -1, SQLITE_STATIC);
    }
    int rc = sqlite3_step(stmt) == SQLITE_DONE ? 0 : -1;
    sqlite3_reset(stmt);
    return rc;
}

void
sched_db_sgroups_utilization(bus_db_t *db, sched_db_sgroups_rule_fn *fn, void *arg)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT name, json_extract(opts, '$.idle_checkers.utilization')"
                        " FROM sgroups WHERE json_valid(opts) AND"
                        " json_extract(opts, '$.idle_checkers.utilization') IS NOT NULL");
    bool more = true;
    while (stmt && more && sqlite3_step(stmt) == SQLITE_ROW)
        more = fn(arg, (const char *) sqlite3_column_text(stmt, 0),
                  (const char *) sqlite3_column_text(stmt, 1));
    if (stmt)
        sqlite3_reset(stmt);
}

void
sched_db_sgroups_pending_timeouts(bus_db_t *db,
                                  int64_t now_us,
                                  sched_db_id_fn *fn,
                                  void *arg)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT s.id FROM sgroups g JOIN sessions s ON s.scaling_group = g.name"
            " AND s.status = 'PENDING'"
            " WHERE json_valid(g.opts) AND json_extract(g.opts, '$.pending_timeout') > 0"
            " AND s.created_at < ?1 - CAST(json_extract(g.opts, '$.pending_timeout')"
            " * 1000000 AS INTEGER)");
    if (!stmt)
        return;
    sqlite3_bind_int64(stmt, 1, now_us);
    bool more = true;
    while (more && sqlite3_step(stmt) == SQLITE_ROW)
        more = fn(arg, (const char *) sqlite3_column_text(stmt, 0));
    sqlite3_reset(stmt);
}
