/*  =========================================================================
    wsp_db - the wsproxy's database: its schema and every statement

    Every statement binds its values (no SQL is built from input) and is
    prepared once per connection by bus_db_stmt, which caches it by text.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "wsp_classes.h"

const bus_db_migration_t wsp_db_migrations[] = {
    {"routes and permits", "CREATE TABLE routes ("
                           "  id TEXT PRIMARY KEY,"
                           "  session_id TEXT NOT NULL,"
                           "  kernel_id TEXT NOT NULL DEFAULT '',"
                           "  app TEXT NOT NULL,"
                           "  protocol TEXT NOT NULL,"
                           "  host TEXT NOT NULL,"
                           "  target_port INTEGER NOT NULL,"
                           "  access_key TEXT NOT NULL DEFAULT '',"
                           "  user_uuid TEXT NOT NULL,"
                           "  port INTEGER NOT NULL UNIQUE,"
                           "  created_at INTEGER NOT NULL,"
                           "  expires_at INTEGER NOT NULL,"
                           "  bytes_in INTEGER NOT NULL DEFAULT 0,"
                           "  bytes_out INTEGER NOT NULL DEFAULT 0,"
                           "  UNIQUE (session_id, app, user_uuid));"
                           "CREATE TABLE permits ("
                           "  hash TEXT PRIMARY KEY,"
                           "  route_id TEXT NOT NULL REFERENCES routes (id)"
                           "    ON DELETE CASCADE,"
                           "  expires_at INTEGER NOT NULL);"
                           "CREATE INDEX permits_route ON permits (route_id);"},
    //  A model service's endpoint is a route too (its port, its counters),
    //  with the endpoint's id as session_id, no target of its own and its
    //  replicas as a JSON array.
    {"model service endpoints", "ALTER TABLE routes ADD COLUMN endpoint INTEGER NOT NULL"
                                "  DEFAULT 0;"
                                "ALTER TABLE routes ADD COLUMN open_to_public INTEGER"
                                "  NOT NULL DEFAULT 0;"
                                "ALTER TABLE routes ADD COLUMN targets TEXT NOT NULL"
                                "  DEFAULT '[]';"},
};
_Static_assert(sizeof wsp_db_migrations / sizeof wsp_db_migrations[0] ==
                   WSP_DB_MIGRATION_COUNT,
               "WSP_DB_MIGRATION_COUNT counts wsp_db_migrations");

#define ROUTE_COLUMNS                                                                    \
    "id, session_id, kernel_id, app, protocol, host, target_port, access_key, "          \
    "user_uuid, port, created_at, expires_at, bytes_in, bytes_out, endpoint, "           \
    "open_to_public, targets"

static int64_t
s_i64(uint64_t value)
{
    return value > INT64_MAX ? INT64_MAX : (int64_t) value;
}

static void
s_text(sqlite3_stmt *stmt, int column, char *out, size_t size)
{
    const unsigned char *text = sqlite3_column_text(stmt, column);
    snprintf(out, size, "%s", text ? (const char *) text : "");
}

//  Runs stmt to completion (bus_db_step_done). 0 or -1, logged with what.
static int
s_step_done(bus_db_t *db, sqlite3_stmt *stmt, const char *what)
{
    return bus_db_step_done(db, stmt, what) == BUS_OK ? 0 : -1;
}

//  ---------------------------------------------------------------------------

int
wsp_db_route_insert(bus_db_t *db, const wsp_db_route_t *route, const char *targets)
{
    assert(db && route);
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "INSERT INTO routes (" ROUTE_COLUMNS
                        ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, route->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, route->session_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 3, route->kernel_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 4, route->app, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 5, bus_apptoken_protocol_str(route->protocol), -1,
                      SQLITE_STATIC);
    sqlite3_bind_text(stmt, 6, route->host, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 7, route->target_port);
    sqlite3_bind_text(stmt, 8, route->access_key, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 9, route->user_uuid, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 10, route->port);
    sqlite3_bind_int64(stmt, 11, route->created_at);
    sqlite3_bind_int64(stmt, 12, route->expires_at);
    sqlite3_bind_int64(stmt, 13, s_i64(route->bytes_in));
    sqlite3_bind_int64(stmt, 14, s_i64(route->bytes_out));
    sqlite3_bind_int(stmt, 15, route->endpoint);
    sqlite3_bind_int(stmt, 16, route->open_to_public);
    sqlite3_bind_text(stmt, 17, targets ? targets : "[]", -1, SQLITE_STATIC);
    return s_step_done(db, stmt, "insert");
}

int
wsp_db_endpoint_update(bus_db_t *db, const wsp_db_route_t *route, const char *targets)
{
    assert(db && route && targets);
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "UPDATE routes SET app = ?, open_to_public = ?, targets = ? WHERE id = ?");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, route->app, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 2, route->open_to_public);
    sqlite3_bind_text(stmt, 3, targets, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 4, route->id, -1, SQLITE_STATIC);
    return s_step_done(db, stmt, "update endpoint");
}

int
wsp_db_route_retarget(bus_db_t *db, const wsp_db_route_t *route)
{
    assert(db && route);
    sqlite3_stmt *stmt = bus_db_stmt(db, "UPDATE routes SET host = ?, target_port = ?, "
                                         "kernel_id = ?, expires_at = ? WHERE id = ?");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, route->host, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 2, route->target_port);
    sqlite3_bind_text(stmt, 3, route->kernel_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 4, route->expires_at);
    sqlite3_bind_text(stmt, 5, route->id, -1, SQLITE_STATIC);
    return s_step_done(db, stmt, "retarget");
}

int
wsp_db_route_touch(bus_db_t *db,
                   const char *id,
                   uint64_t bytes_in,
                   uint64_t bytes_out,
                   int64_t expires_at)
{
    assert(db && id);
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "UPDATE routes SET bytes_in = ?, bytes_out = ?, expires_at = ? WHERE id = ?");
    if (!stmt)
        return -1;
    sqlite3_bind_int64(stmt, 1, s_i64(bytes_in));
    sqlite3_bind_int64(stmt, 2, s_i64(bytes_out));
    sqlite3_bind_int64(stmt, 3, expires_at);
    sqlite3_bind_text(stmt, 4, id, -1, SQLITE_STATIC);
    return s_step_done(db, stmt, "touch");
}

int
wsp_db_route_delete(bus_db_t *db, const char *id)
{
    assert(db && id);
    sqlite3_stmt *stmt = bus_db_stmt(db, "DELETE FROM permits WHERE route_id = ?");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
    if (s_step_done(db, stmt, "delete permits") != 0)
        return -1;
    stmt = bus_db_stmt(db, "DELETE FROM routes WHERE id = ?");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
    return s_step_done(db, stmt, "delete");
}

int
wsp_db_routes_each(bus_db_t *db, wsp_db_route_fn *fn, void *arg)
{
    assert(db && fn);
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT " ROUTE_COLUMNS " FROM routes ORDER BY port");
    if (!stmt)
        return -1;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        wsp_db_route_t route;
        memset(&route, 0, sizeof route);
        s_text(stmt, 0, route.id, sizeof route.id);
        s_text(stmt, 1, route.session_id, sizeof route.session_id);
        s_text(stmt, 2, route.kernel_id, sizeof route.kernel_id);
        s_text(stmt, 3, route.app, sizeof route.app);
        if (bus_apptoken_protocol_parse((const char *) sqlite3_column_text(stmt, 4),
                                        &route.protocol) != 0)
            route.protocol = BUS_APPTOKEN_HTTP;
        s_text(stmt, 5, route.host, sizeof route.host);
        route.target_port = sqlite3_column_int(stmt, 6);
        s_text(stmt, 7, route.access_key, sizeof route.access_key);
        s_text(stmt, 8, route.user_uuid, sizeof route.user_uuid);
        route.port = sqlite3_column_int(stmt, 9);
        route.created_at = sqlite3_column_int64(stmt, 10);
        route.expires_at = sqlite3_column_int64(stmt, 11);
        int64_t in = sqlite3_column_int64(stmt, 12), out = sqlite3_column_int64(stmt, 13);
        route.bytes_in = in < 0 ? 0 : (uint64_t) in;
        route.bytes_out = out < 0 ? 0 : (uint64_t) out;
        route.endpoint = sqlite3_column_int(stmt, 14) != 0;
        route.open_to_public = sqlite3_column_int(stmt, 15) != 0;
        const unsigned char *targets = sqlite3_column_text(stmt, 16);
        fn(arg, &route, targets ? (const char *) targets : "[]");
    }
    sqlite3_reset(stmt);
    if (rc != SQLITE_DONE) {
        bus_log_error("route table read failed error=\"%s\"",
                      sqlite3_errmsg(bus_db_handle(db)));
        return -1;
    }
    return 0;
}

//  ---------------------------------------------------------------------------

int
wsp_db_permit_insert(bus_db_t *db,
                     const char *hash,
                     const char *route_id,
                     int64_t expires_at)
{
    assert(db && hash && route_id);
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "INSERT INTO permits (hash, route_id, expires_at) VALUES (?, ?, ?)");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, route_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, expires_at);
    return s_step_done(db, stmt, "permit");
}

bool
wsp_db_permit_take(bus_db_t *db, const char *hash, const char *route_id, int64_t now)
{
    assert(db && hash && route_id);
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "DELETE FROM permits WHERE hash = ? AND route_id = ? AND expires_at > ?");
    if (!stmt)
        return false;
    sqlite3_bind_text(stmt, 1, hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, route_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, now);
    if (s_step_done(db, stmt, "take permit") != 0)
        return false;
    return sqlite3_changes(bus_db_handle(db)) == 1;
}

int
wsp_db_permits_expire(bus_db_t *db, int64_t now)
{
    assert(db);
    sqlite3_stmt *stmt = bus_db_stmt(db, "DELETE FROM permits WHERE expires_at <= ?");
    if (!stmt)
        return -1;
    sqlite3_bind_int64(stmt, 1, now);
    return s_step_done(db, stmt, "expire permits");
}
