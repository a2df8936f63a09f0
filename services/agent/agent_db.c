/*  =========================================================================
    agent_db - the agent's own database: the kernels it runs

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

const bus_db_migration_t agent_db_migrations[] = {
    {"the kernels this agent runs", "CREATE TABLE kernels ("
                                    "  id TEXT PRIMARY KEY,"
                                    "  session_id TEXT NOT NULL,"
                                    "  image TEXT NOT NULL,"
                                    "  digest TEXT NOT NULL,"
                                    "  ip TEXT NOT NULL DEFAULT '',"
                                    "  session_type TEXT NOT NULL DEFAULT 'interactive',"
                                    "  created_at INTEGER NOT NULL);"},
    {"the slots and accelerators each kernel was given",
     "ALTER TABLE kernels ADD COLUMN slots TEXT NOT NULL DEFAULT '{}';"
     "ALTER TABLE kernels ADD COLUMN accel TEXT NOT NULL DEFAULT '';"},
    {"the end of the container log of each kernel that ended",
     "CREATE TABLE ended_logs ("
     "  kernel_id TEXT PRIMARY KEY,"
     "  session_id TEXT NOT NULL,"
     "  ended_at INTEGER NOT NULL,"
     "  log BLOB NOT NULL);"
     "CREATE INDEX ended_logs_by_time ON ended_logs (ended_at);"},
    //  An inference kernel's model service (kernel.create's), so that its
    //  health checks start again when the kernel is adopted after a restart.
    {"the model service of inference kernels",
     "ALTER TABLE kernels ADD COLUMN model_service TEXT;"},
};

_Static_assert(sizeof agent_db_migrations / sizeof agent_db_migrations[0] ==
                   AGENT_DB_MIGRATION_COUNT,
               "AGENT_DB_MIGRATION_COUNT must match the migration list");

//  Logs a statement that failed, by name, with SQLite's message.
static void
s_failed(bus_db_t *db, const char *name)
{
    bus_log_error("agent db %s failed detail=\"%s\"", name,
                  sqlite3_errmsg(bus_db_handle(db)));
}

//  ---------------------------------------------------------------------------
//  Write a kernel's row.

int
agent_db_kernel_insert(bus_db_t *db, const agent_db_kernel_t *kernel)
{
    assert(db);
    assert(kernel && kernel->id);
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "INSERT OR REPLACE INTO kernels (id, session_id, image, digest, ip,"
            " session_type, created_at, slots, accel, model_service)"
            " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, kernel->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, kernel->session_id ? kernel->session_id : "", -1,
                      SQLITE_STATIC);
    sqlite3_bind_text(stmt, 3, kernel->image ? kernel->image : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 4, kernel->digest ? kernel->digest : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 5, kernel->ip ? kernel->ip : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 6,
                      kernel->session_type ? kernel->session_type : "interactive", -1,
                      SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 7, kernel->created_at);
    sqlite3_bind_text(stmt, 8, kernel->slots ? kernel->slots : "{}", -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 9, kernel->accel ? kernel->accel : "", -1, SQLITE_STATIC);
    if (kernel->model_service)
        sqlite3_bind_text(stmt, 10, kernel->model_service, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(stmt, 10);
    int rc = sqlite3_step(stmt) == SQLITE_DONE ? 0 : -1;
    if (rc != 0)
        s_failed(db, "kernel insert");
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Delete a kernel's row.

int
agent_db_kernel_delete(bus_db_t *db, const char *kernel_id)
{
    assert(db);
    assert(kernel_id);
    sqlite3_stmt *stmt = bus_db_stmt(db, "DELETE FROM kernels WHERE id = ?1");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, kernel_id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(stmt) == SQLITE_DONE ? 0 : -1;
    if (rc != 0)
        s_failed(db, "kernel delete");
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Keep an ended kernel's log.

int
agent_db_ended_log_insert(bus_db_t *db,
                          const char *kernel_id,
                          const char *session_id,
                          int64_t ended_at,
                          const uint8_t *log,
                          size_t size)
{
    assert(db);
    assert(kernel_id);
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "INSERT OR REPLACE INTO ended_logs (kernel_id, session_id, ended_at, log)"
            " VALUES (?1, ?2, ?3, ?4)");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, kernel_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, session_id ? session_id : "", -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, ended_at);
    sqlite3_bind_blob64(stmt, 4, log ? (const void *) log : "", log ? size : 0,
                        SQLITE_STATIC);
    int rc = sqlite3_step(stmt) == SQLITE_DONE ? 0 : -1;
    if (rc != 0)
        s_failed(db, "ended log insert");
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    return rc;
}

//  ---------------------------------------------------------------------------
//  An ended kernel's log.

int
agent_db_ended_log_get(
    bus_db_t *db, const char *kernel_id, size_t max, uint8_t **log_p, size_t *size_p)
{
    assert(db);
    assert(kernel_id && log_p && size_p);
    *log_p = NULL;
    *size_p = 0;
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT log FROM ended_logs WHERE kernel_id = ?1");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, kernel_id, -1, SQLITE_STATIC);
    int rc = 1;
    if (sqlite3_step(stmt) == SQLITE_ROW) {
        const uint8_t *data = sqlite3_column_blob(stmt, 0);
        size_t size = (size_t) sqlite3_column_bytes(stmt, 0);
        size_t from = size > max ? size - max : 0;
        *log_p = malloc(size - from + 1);
        if (*log_p) {
            if (size > from)
                memcpy(*log_p, data + from, size - from);
            *size_p = size - from;
            rc = 0;
        } else
            rc = -1;
    }
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Forget the logs of kernels that ended long ago.

int64_t
agent_db_ended_logs_expire(bus_db_t *db, int64_t before)
{
    assert(db);
    return bus_db_run_before(db, "DELETE FROM ended_logs WHERE ended_at < ?1", before,
                             "ended logs expire");
}

//  ---------------------------------------------------------------------------
//  Whether the table has a row.

bool
agent_db_kernels_any(bus_db_t *db)
{
    assert(db);
    sqlite3_stmt *stmt = bus_db_stmt(db, "SELECT 1 FROM kernels");
    bool any = stmt && sqlite3_step(stmt) == SQLITE_ROW;
    if (stmt)
        sqlite3_reset(stmt);
    return any;
}

//  ---------------------------------------------------------------------------
//  How many rows.

uint64_t
agent_db_kernels_count(bus_db_t *db)
{
    assert(db);
    sqlite3_stmt *stmt = bus_db_stmt(db, "SELECT count(*) FROM kernels");
    uint64_t count = 0;
    if (stmt && sqlite3_step(stmt) == SQLITE_ROW)
        count = (uint64_t) sqlite3_column_int64(stmt, 0);
    if (stmt)
        sqlite3_reset(stmt);
    return count;
}

//  ---------------------------------------------------------------------------
//  Every row.

int
agent_db_kernels_each(bus_db_t *db, agent_db_kernel_fn *fn, void *arg)
{
    assert(db);
    assert(fn);
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT id, session_id, digest, ip, accel, model_service"
                        " FROM kernels");
    if (!stmt)
        return -1;
    int step;
    while ((step = sqlite3_step(stmt)) == SQLITE_ROW) {
        agent_db_kernel_t row = {
            .id = (const char *) sqlite3_column_text(stmt, 0),
            .session_id = (const char *) sqlite3_column_text(stmt, 1),
            .digest = (const char *) sqlite3_column_text(stmt, 2),
            .ip = (const char *) sqlite3_column_text(stmt, 3),
            .accel = (const char *) sqlite3_column_text(stmt, 4),
            .model_service = (const char *) sqlite3_column_text(stmt, 5),
        };
        if (row.id)
            fn(&row, arg);
    }
    if (step != SQLITE_DONE)
        s_failed(db, "kernels read");
    sqlite3_reset(stmt);
    return step == SQLITE_DONE ? 0 : -1;
}

//  ---------------------------------------------------------------------------
//  Every slot of every row.

void
agent_db_slots_each(bus_db_t *db, agent_db_slot_fn *fn, void *arg)
{
    assert(db);
    assert(fn);
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT j.key, j.value FROM kernels, json_each(kernels.slots)"
                        " AS j WHERE j.type = 'text'");
    while (stmt && sqlite3_step(stmt) == SQLITE_ROW) {
        const char *name = (const char *) sqlite3_column_text(stmt, 0);
        const char *amount = (const char *) sqlite3_column_text(stmt, 1);
        if (name)
            fn(name, amount, arg);
    }
    if (stmt)
        sqlite3_reset(stmt);
}
