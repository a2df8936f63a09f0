/*  =========================================================================
    acct_db - the accounting's database: its schema and every statement

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "acct_classes.h"

const bus_db_migration_t acct_db_migrations[] = {
    {"the access log",
     "CREATE TABLE access_log ("
     "  request_id TEXT PRIMARY KEY,"
     "  ts INTEGER NOT NULL,"
     "  access_key TEXT NOT NULL DEFAULT '',"
     "  user_id TEXT NOT NULL DEFAULT '',"
     "  domain_name TEXT NOT NULL DEFAULT '',"
     "  method TEXT NOT NULL,"
     "  path TEXT NOT NULL,"
     "  status INTEGER NOT NULL,"
     "  latency_us INTEGER NOT NULL DEFAULT 0,"
     "  client_addr TEXT NOT NULL DEFAULT '',"
     "  error_type TEXT NOT NULL DEFAULT '',"
     "  src TEXT NOT NULL);"
     "CREATE INDEX access_log_ts ON access_log (ts);"
     "CREATE INDEX access_log_access_key ON access_log (access_key, ts);"},
};
_Static_assert(sizeof acct_db_migrations / sizeof acct_db_migrations[0] ==
                   ACCT_DB_MIGRATION_COUNT,
               "ACCT_DB_MIGRATION_COUNT counts acct_db_migrations");

//  An optional string of an event: "" when absent.
static const char *
s_or_empty(const char *text)
{
    return text ? text : "";
}

//  ---------------------------------------------------------------------------

int
acct_db_access_insert(bus_db_t *db, const proto_gateway_access_t *access, const char *src)
{
    assert(db && access && src);
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "INSERT OR IGNORE INTO access_log (request_id, ts, access_key, "
                        "user_id, domain_name,"
                        " method, path, status, latency_us, client_addr, error_type, src)"
                        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, access->request_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, access->ts);
    sqlite3_bind_text(stmt, 3, s_or_empty(access->access_key), -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 4, s_or_empty(access->user_id), -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 5, s_or_empty(access->domain_name), -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 6, access->method, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 7, access->path, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 8, (int64_t) access->status);
    sqlite3_bind_int64(stmt, 9, (int64_t) access->latency_us);
    sqlite3_bind_text(stmt, 10, s_or_empty(access->client_addr), -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 11, s_or_empty(access->error_type), -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 12, src, -1, SQLITE_STATIC);
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    //  Not logged here: the event is retried from the inbox (bus_node).
    return rc == SQLITE_DONE ? 0 : -1;
}
