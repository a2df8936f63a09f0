/*  =========================================================================
    acct_server - the accounting service as bus_main runs it

    Keeps usage records, statistics and the access and audit log. It
    follows the gateway's durable events, so every request the gateway
    served lands in access_log exactly once, even across restarts of
    either side.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "acct_classes.h"

static const bus_db_migration_t s_migrations[] = {
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

//  Records one gateway.access event; runs inside the inbox transaction.
static int
s_apply_gateway(void *arg, bus_node_t *node, const bus_event_t *event)
{
    (void) arg;
    if (strcmp(event->topic, PROTO_GATEWAY_ACCESS) != 0)
        return 0; //  other gateway events are not ours to keep
    proto_gateway_access_t access;
    bus_error_t err = {0};
    if (proto_gateway_access_decode(&access, event->body, event->body_size, &err) !=
        BUS_OK) {
        //  A malformed event can never be applied: log it and move past it,
        //  or the stream would stall on it for ever.
        bus_log_error("access event malformed; skipped src=%s seq=%" PRIu64
                      " reason=\"%s\"",
                      event->header.src, event->header.seq, err.detail);
        return 0;
    }
    sqlite3_stmt *stmt =
        bus_db_stmt(bus_node_db(node),
                    "INSERT OR IGNORE INTO access_log (request_id, ts, access_key, "
                    "user_id, domain_name,"
                    " method, path, status, latency_us, client_addr, error_type, src)"
                    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
    int rc = SQLITE_ERROR;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, access.request_id, -1, SQLITE_STATIC);
        sqlite3_bind_int64(stmt, 2, access.ts);
        sqlite3_bind_text(stmt, 3, access.access_key ? access.access_key : "", -1,
                          SQLITE_STATIC);
        sqlite3_bind_text(stmt, 4, access.user_id ? access.user_id : "", -1,
                          SQLITE_STATIC);
        sqlite3_bind_text(stmt, 5, access.domain_name ? access.domain_name : "", -1,
                          SQLITE_STATIC);
        sqlite3_bind_text(stmt, 6, access.method, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 7, access.path, -1, SQLITE_STATIC);
        sqlite3_bind_int64(stmt, 8, (int64_t) access.status);
        sqlite3_bind_int64(stmt, 9, (int64_t) access.latency_us);
        sqlite3_bind_text(stmt, 10, access.client_addr ? access.client_addr : "", -1,
                          SQLITE_STATIC);
        sqlite3_bind_text(stmt, 11, access.error_type ? access.error_type : "", -1,
                          SQLITE_STATIC);
        sqlite3_bind_text(stmt, 12, event->header.src, -1, SQLITE_STATIC);
        rc = sqlite3_step(stmt);
        sqlite3_reset(stmt);
    }
    proto_gateway_access_clear(&access);
    return rc == SQLITE_DONE ? 0 : -1;
}

static void *
s_init(bus_node_t *node, const void *config, bus_error_t *err)
{
    (void) config;
    if (bus_node_follow(node, "gateway", s_apply_gateway, NULL) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot follow the gateway's events");
        return NULL;
    }
    return node;
}

const bus_service_t acct_service = {
    .name = "accounting",
    .summary = "Keeps usage records, statistics and the access and audit log",
    .options = acct_config_options,
    .config_size = sizeof(acct_config_t),
    .node_config_offset = offsetof(acct_config_t, node),
    .migrations = s_migrations,
    .migration_count = sizeof s_migrations / sizeof s_migrations[0],
    .init = s_init,
};
