/*  =========================================================================
    sp_db - the storage-proxy's database: its schema and every statement

    Every statement binds its values (no SQL is built from input) and is
    prepared once per connection by bus_db_stmt, which caches it by text.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"

const bus_db_migration_t sp_db_migrations[] = {
    {"folders and finished uploads", "CREATE TABLE folders ("
                                     "  id TEXT PRIMARY KEY,"
                                     "  volume TEXT NOT NULL,"
                                     "  state TEXT NOT NULL DEFAULT 'ready',"
                                     "  quota_bytes INTEGER NOT NULL DEFAULT 0,"
                                     "  usage_bytes INTEGER NOT NULL DEFAULT 0,"
                                     "  file_count INTEGER NOT NULL DEFAULT 0,"
                                     "  over_quota INTEGER NOT NULL DEFAULT 0,"
                                     "  scanned_at INTEGER NOT NULL DEFAULT 0,"
                                     "  created_at INTEGER NOT NULL);"
                                     "CREATE INDEX folders_volume ON folders (volume);"
                                     "CREATE TABLE uploads_finished ("
                                     "  nonce TEXT PRIMARY KEY,"
                                     "  folder TEXT NOT NULL,"
                                     "  size INTEGER NOT NULL,"
                                     "  forget_at INTEGER NOT NULL);"},
};
_Static_assert(sizeof sp_db_migrations / sizeof sp_db_migrations[0] ==
                   SP_DB_MIGRATION_COUNT,
               "SP_DB_MIGRATION_COUNT counts sp_db_migrations");

#define FOLDER_COLUMNS                                                                   \
    "id, volume, state, quota_bytes, usage_bytes, file_count, over_quota, scanned_at, "  \
    "created_at"

//  SQLite integers are signed: bytes are kept below 2^63.
static int64_t
s_i64(uint64_t value)
{
    return value > INT64_MAX ? INT64_MAX : (int64_t) value;
}

static uint64_t
s_u64(sqlite3_stmt *stmt, int column)
{
    int64_t value = sqlite3_column_int64(stmt, column);
    return value < 0 ? 0 : (uint64_t) value;
}

static void
s_text(sqlite3_stmt *stmt, int column, char *out, size_t size)
{
    const unsigned char *text = sqlite3_column_text(stmt, column);
    snprintf(out, size, "%s", text ? (const char *) text : "");
}

//  Reads the row stmt stands on (FOLDER_COLUMNS).
static void
s_row(sqlite3_stmt *stmt, sp_folder_t *folder)
{
    memset(folder, 0, sizeof *folder);
    s_text(stmt, 0, folder->id, sizeof folder->id);
    s_text(stmt, 1, folder->volume, sizeof folder->volume);
    s_text(stmt, 2, folder->state, sizeof folder->state);
    folder->quota_bytes = s_u64(stmt, 3);
    folder->usage_bytes = s_u64(stmt, 4);
    folder->file_count = s_u64(stmt, 5);
    folder->over_quota = sqlite3_column_int(stmt, 6) != 0;
    folder->scanned_at = sqlite3_column_int64(stmt, 7);
    folder->created_at = sqlite3_column_int64(stmt, 8);
}

//  Runs stmt to completion (bus_db_step_done). 0 or -1, logged with what.
static int
s_step_done(bus_db_t *db, sqlite3_stmt *stmt, const char *what)
{
    return bus_db_step_done(db, stmt, what) == BUS_OK ? 0 : -1;
}

//  ---------------------------------------------------------------------------

int
sp_db_folder_load(bus_db_t *db, const char *id, sp_folder_t *folder, bus_error_t *err)
{
    assert(db && id && folder);
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT " FOLDER_COLUMNS " FROM folders WHERE id = ?");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database unavailable");
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW)
        s_row(stmt, folder);
    sqlite3_reset(stmt);
    if (rc == SQLITE_ROW)
        return BUS_OK;
    if (rc == SQLITE_DONE)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such folder: %s", id);
    return bus_error_set(err, BUS_STATUS_INTERNAL, "folder lookup failed: %s",
                         sqlite3_errmsg(bus_db_handle(db)));
}

int
sp_db_folder_insert(bus_db_t *db,
                    const char *id,
                    const char *volume,
                    const char *state,
                    uint64_t quota_bytes,
                    int64_t now)
{
    assert(db && id && volume && state);
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "INSERT INTO folders (id, volume, state, quota_bytes, "
                        "scanned_at, created_at) VALUES (?, ?, ?, ?, ?, ?)");
    if (stmt) {
        sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 2, volume, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 3, state, -1, SQLITE_STATIC);
        sqlite3_bind_int64(stmt, 4, s_i64(quota_bytes));
        sqlite3_bind_int64(stmt, 5, now);
        sqlite3_bind_int64(stmt, 6, now);
    }
    return s_step_done(db, stmt, "insert");
}

int
sp_db_folder_delete(bus_db_t *db, const char *id)
{
    assert(db && id);
    sqlite3_stmt *stmt = bus_db_stmt(db, "DELETE FROM folders WHERE id = ?");
    if (stmt)
        sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
    return s_step_done(db, stmt, "delete");
}

int
sp_db_folder_set_state(bus_db_t *db, const char *id, const char *state)
{
    assert(db && id && state);
    sqlite3_stmt *stmt = bus_db_stmt(db, "UPDATE folders SET state = ? WHERE id = ?");
    if (stmt) {
        sqlite3_bind_text(stmt, 1, state, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 2, id, -1, SQLITE_STATIC);
    }
    return s_step_done(db, stmt, "state");
}

int
sp_db_folder_set_usage(bus_db_t *db,
                       const char *id,
                       uint64_t bytes,
                       uint64_t entries,
                       bool over_quota,
                       int64_t now)
{
    assert(db && id);
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "UPDATE folders SET usage_bytes = ?, file_count = ?, "
                        "over_quota = ?, scanned_at = ? WHERE id = ?");
    if (stmt) {
        sqlite3_bind_int64(stmt, 1, s_i64(bytes));
        sqlite3_bind_int64(stmt, 2, s_i64(entries));
        sqlite3_bind_int(stmt, 3, over_quota);
        sqlite3_bind_int64(stmt, 4, now);
        sqlite3_bind_text(stmt, 5, id, -1, SQLITE_STATIC);
    }
    return s_step_done(db, stmt, "usage");
}

int
sp_db_folder_set_quota(bus_db_t *db,
                       const char *id,
                       uint64_t quota_bytes,
                       bool over_quota)
{
    assert(db && id);
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "UPDATE folders SET quota_bytes = ?, over_quota = ? WHERE id = ?");
    if (stmt) {
        sqlite3_bind_int64(stmt, 1, s_i64(quota_bytes));
        sqlite3_bind_int(stmt, 2, over_quota);
        sqlite3_bind_text(stmt, 3, id, -1, SQLITE_STATIC);
    }
    return s_step_done(db, stmt, "quota");
}

int
sp_db_folder_charge(bus_db_t *db, const char *id, uint64_t bytes)
{
    assert(db && id);
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "UPDATE folders SET usage_bytes = usage_bytes + ? WHERE id = ?");
    if (stmt) {
        sqlite3_bind_int64(stmt, 1, s_i64(bytes));
        sqlite3_bind_text(stmt, 2, id, -1, SQLITE_STATIC);
    }
    return s_step_done(db, stmt, "charge");
}

int
sp_db_folder_refund(bus_db_t *db, const char *id, uint64_t bytes)
{
    assert(db && id);
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "UPDATE folders SET usage_bytes = max(usage_bytes "
                        "- ?, 0) WHERE id = ?");
    if (stmt) {
        sqlite3_bind_int64(stmt, 1, s_i64(bytes));
        sqlite3_bind_text(stmt, 2, id, -1, SQLITE_STATIC);
    }
    return s_step_done(db, stmt, "refund");
}

uint64_t
sp_db_folder_count(bus_db_t *db, const char *volume)
{
    assert(db && volume);
    sqlite3_stmt *stmt = bus_db_stmt(db, "SELECT count(*) FROM folders WHERE volume = ?");
    if (!stmt)
        return 0;
    sqlite3_bind_text(stmt, 1, volume, -1, SQLITE_STATIC);
    uint64_t count = sqlite3_step(stmt) == SQLITE_ROW ? s_u64(stmt, 0) : 0;
    sqlite3_reset(stmt);
    return count;
}

uint64_t
sp_db_folder_usage(bus_db_t *db, const char *volume)
{
    assert(db && volume);
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT coalesce(sum(usage_bytes), 0) FROM folders WHERE volume = ?");
    if (!stmt)
        return 0;
    sqlite3_bind_text(stmt, 1, volume, -1, SQLITE_STATIC);
    uint64_t bytes = sqlite3_step(stmt) == SQLITE_ROW ? s_u64(stmt, 0) : 0;
    sqlite3_reset(stmt);
    return bytes;
}

int
sp_db_folders_ready(bus_db_t *db, const char *id, sp_db_folder_fn *fn, void *arg)
{
    assert(db && fn);
    sqlite3_stmt *stmt =
        id ? bus_db_stmt(db, "SELECT id, volume FROM folders WHERE id = ? AND "
                             "state = 'ready'")
           : bus_db_stmt(db, "SELECT id, volume FROM folders WHERE state = 'ready'");
    if (!stmt)
        return -1;
    if (id)
        sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        char row_id[SP_FOLDER_ID_LEN + 1];
        char volume[SP_VOLUME_NAME_MAX + 1];
        s_text(stmt, 0, row_id, sizeof row_id);
        s_text(stmt, 1, volume, sizeof volume);
        if (fn(arg, row_id, volume) != 0)
            break;
    }
    sqlite3_reset(stmt);
    return 0;
}

int
sp_db_folders_fail_clones(bus_db_t *db)
{
    assert(db);
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "UPDATE folders SET state = 'failed' WHERE state = 'cloning'");
    return s_step_done(db, stmt, "interrupted clones");
}

//  ---------------------------------------------------------------------------

void
sp_db_upload_finished(
    bus_db_t *db, const char *nonce, const char *id, uint64_t size, int64_t forget_at)
{
    assert(db && nonce && id);
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "INSERT OR REPLACE INTO uploads_finished (nonce, "
                        "folder, size, forget_at) VALUES (?, ?, ?, ?)");
    if (!stmt)
        return;
    sqlite3_bind_text(stmt, 1, nonce, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, s_i64(size));
    sqlite3_bind_int64(stmt, 4, forget_at);
    s_step_done(db, stmt, "upload finished");
}

bool
sp_db_upload_was_finished(bus_db_t *db, const char *nonce, const char *id, uint64_t size)
{
    assert(db && nonce && id);
    sqlite3_stmt *stmt = bus_db_stmt(db, "SELECT 1 FROM uploads_finished WHERE nonce = ? "
                                         "AND folder = ? AND size = ?");
    if (!stmt)
        return false;
    sqlite3_bind_text(stmt, 1, nonce, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, s_i64(size));
    bool found = sqlite3_step(stmt) == SQLITE_ROW;
    sqlite3_reset(stmt);
    return found;
}

void
sp_db_uploads_forget(bus_db_t *db, int64_t now_s)
{
    assert(db);
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "DELETE FROM uploads_finished WHERE forget_at < ?");
    if (!stmt)
        return;
    sqlite3_bind_int64(stmt, 1, now_s);
    s_step_done(db, stmt, "uploads_finished");
}
