/*  =========================================================================
    sched_db_metrics - the counts /metrics shows, read from the scheduler's
    database at each scrape

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

//  Runs the cached statement sql and hands each row to fn: columns 0 and
//  1 as text (NULL where the query has no such column), 2 and 3 as integers.
static int
s_rows(bus_db_t *db, const char *sql, int texts, sched_db_metrics_fn *fn, void *arg)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, sql);
    if (!stmt)
        return -1;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
        fn(arg, (const char *) sqlite3_column_text(stmt, 0),
           texts > 1 ? (const char *) sqlite3_column_text(stmt, 1) : NULL,
           sqlite3_column_int64(stmt, texts), sqlite3_column_int64(stmt, texts + 1));
    sqlite3_reset(stmt);
    if (rc != SQLITE_DONE) {
        bus_log_error("metrics query failed: %s", sqlite3_errmsg(bus_db_handle(db)));
        return -1;
    }
    return 0;
}

int
sched_db_metrics_sessions(bus_db_t *db, sched_db_metrics_fn *fn, void *arg)
{
    //  The statuses a session can still leave, listed so that the index
    //  is searched, not scanned.
    return s_rows(db,
                  "SELECT status, scaling_group, count(*), 0 FROM sessions"
                  " WHERE status IN ('PENDING', 'SCHEDULED', 'PULLING', 'PREPARING',"
                  " 'RUNNING', 'RESTARTING', 'RUNNING_DEGRADED', 'TERMINATING', 'ERROR')"
                  " GROUP BY status, scaling_group",
                  2, fn, arg);
}

int
sched_db_metrics_pending(bus_db_t *db, sched_db_metrics_fn *fn, void *arg)
{
    return s_rows(db,
                  "SELECT scaling_group, count(*), min(created_at) FROM sessions"
                  " WHERE status = 'PENDING' GROUP BY scaling_group",
                  1, fn, arg);
}

int
sched_db_metrics_agents(bus_db_t *db, sched_db_metrics_fn *fn, void *arg)
{
    return s_rows(db,
                  "SELECT status, scaling_group, count(*), 0 FROM agents"
                  " GROUP BY status, scaling_group",
                  2, fn, arg);
}

int
sched_db_metrics_slots(bus_db_t *db, sched_db_metrics_fn *fn, void *arg)
{
    return s_rows(db,
                  "SELECT c.agent_id, c.slot, c.amount, coalesce(o.amount, 0)"
                  " FROM agent_capacity c JOIN agents a ON a.id = c.agent_id"
                  " LEFT JOIN agent_occupancy o ON o.agent_id = c.agent_id"
                  " AND o.slot = c.slot"
                  " WHERE a.status != 'TERMINATED' ORDER BY c.agent_id, c.slot",
                  2, fn, arg);
}
