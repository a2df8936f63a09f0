/*  =========================================================================
    gw_errorlog - error logs: /logs/error, and the gateway's own failures

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define COLUMNS                                                                          \
    "id, created_at, severity, source, user_uuid, is_read, is_cleared, message,"         \
    " context_lang, context_env, request_url, request_status, traceback"
//  Who sees which rows (Backend.AI's list_logs and clear): a superadmin
//  every row; a domain admin the rows of the users of their domain; anyone
//  else their own uncleared rows. ?1 is the domain or the user.
#define SCOPE_ALL    " WHERE (?1 IS NULL OR 1)"
#define SCOPE_DOMAIN " WHERE user_uuid IN (SELECT uuid FROM users WHERE domain_name = ?1)"
#define SCOPE_OWN    " WHERE user_uuid = ?1 AND NOT is_cleared"

typedef enum { SCOPE_KIND_ALL, SCOPE_KIND_DOMAIN, SCOPE_KIND_OWN } scope_kind_t;

//  The statements of each scope: a page (?2 limit, ?3 offset), the count,
//  and the clear of one row (?2 its id).
static const struct {
    const char *page;
    const char *count;
    const char *clear;
} s_scopes[] = {
    [SCOPE_KIND_ALL] = {"SELECT " COLUMNS " FROM error_logs" SCOPE_ALL
                        " ORDER BY created_at DESC, id LIMIT ?2 OFFSET ?3",
                        "SELECT count(*) FROM error_logs" SCOPE_ALL,
                        "UPDATE error_logs SET is_cleared = 1" SCOPE_ALL " AND id = ?2"},
    [SCOPE_KIND_DOMAIN] = {"SELECT " COLUMNS " FROM error_logs" SCOPE_DOMAIN
                           " ORDER BY created_at DESC, id LIMIT ?2 OFFSET ?3",
                           "SELECT count(*) FROM error_logs" SCOPE_DOMAIN,
                           "UPDATE error_logs SET is_cleared = 1" SCOPE_DOMAIN
                           " AND id = ?2"},
    [SCOPE_KIND_OWN] = {"SELECT " COLUMNS " FROM error_logs" SCOPE_OWN
                        " ORDER BY created_at DESC, id LIMIT ?2 OFFSET ?3",
                        "SELECT count(*) FROM error_logs" SCOPE_OWN,
                        "UPDATE error_logs SET is_cleared = 1" SCOPE_OWN " AND id = ?2"},
};

static const char *const s_severities[] = {"critical", "error", "warning", "info",
                                           "debug"};

struct _gw_errorlog_t {
    bus_db_t *db;
    struct event *timer;
    int retention_days;
};

//  ---------------------------------------------------------------------------
//  The table

static void
s_failed(bus_db_t *db, const char *name)
{
    bus_log_error("gateway db %s failed detail=\"%s\"", name,
                  sqlite3_errmsg(bus_db_handle(db)));
}

static void
s_bind_text(sqlite3_stmt *stmt, int index, const char *text)
{
    if (text)
        sqlite3_bind_text(stmt, index, text, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(stmt, index);
}

int
gw_errorlog_append(bus_db_t *db, const gw_errorlog_entry_t *entry)
{
    assert(db && entry && entry->severity && entry->source && entry->message);
    char id[GW_UUID_SIZE];
    if (gw_uuid_new(id) != 0)
        return -1;
    sqlite3_stmt *stmt = bus_db_stmt(
        db,
        "INSERT INTO error_logs (id, created_at, severity, source, user_uuid, message,"
        " context_lang, context_env, request_url, request_status, traceback)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, bus_clock_wall_us());
    s_bind_text(stmt, 3, entry->severity);
    s_bind_text(stmt, 4, entry->source);
    s_bind_text(stmt, 5, entry->user_uuid && *entry->user_uuid ? entry->user_uuid : NULL);
    s_bind_text(stmt, 6, entry->message);
    s_bind_text(stmt, 7, entry->context_lang ? entry->context_lang : "");
    s_bind_text(stmt, 8, entry->context_env ? entry->context_env : "{}");
    s_bind_text(stmt, 9, entry->request_url);
    if (entry->request_status)
        sqlite3_bind_int(stmt, 10, entry->request_status);
    else
        sqlite3_bind_null(stmt, 10);
    s_bind_text(stmt, 11, entry->traceback);
    int rc = sqlite3_step(stmt) == SQLITE_DONE ? 0 : -1;
    if (rc != 0)
        s_failed(db, "error log insert");
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    return rc;
}

int64_t
gw_errorlog_expire(bus_db_t *db, int64_t before)
{
    assert(db);
    return bus_db_run_before(db, "DELETE FROM error_logs WHERE created_at < ?1", before,
                             "error logs expire");
}

//  ---------------------------------------------------------------------------
//  The expiry timer

static void
s_expire(gw_errorlog_t *self)
{
    int64_t before =
        bus_clock_wall_us() - (int64_t) self->retention_days * 86400 * 1000000;
    int64_t count = gw_errorlog_expire(self->db, before);
    if (count > 0)
        bus_log_info("error logs expired count=%" PRId64 " retention_days=%d", count,
                     self->retention_days);
}

static void
s_on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    s_expire(arg);
}

gw_errorlog_t *
gw_errorlog_new(bus_db_t *db, struct event_base *base, int retention_days, int interval_s)
{
    assert(db && base);
    gw_errorlog_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->db = db;
    self->retention_days = retention_days;
    struct timeval tv = {interval_s, 0};
    self->timer = event_new(base, -1, EV_PERSIST, s_on_timer, self);
    if (!self->timer || event_add(self->timer, &tv) != 0) {
        gw_errorlog_destroy(&self);
        return NULL;
    }
    s_expire(self);
    return self;
}

void
gw_errorlog_destroy(gw_errorlog_t **self_p)
{
    assert(self_p);
    gw_errorlog_t *self = *self_p;
    if (!self)
        return;
    if (self->timer)
        event_free(self->timer);
    free(self);
    *self_p = NULL;
}

//  ---------------------------------------------------------------------------
//  The routes

//  Which rows the caller sees, and the parameter that scopes them.
static scope_kind_t
s_scope(const gw_request_t *r, const char **arg_p)
{
    if (gw_identity_is_superadmin(&r->who)) {
        *arg_p = NULL;
        return SCOPE_KIND_ALL;
    }
    if (r->who.role == GW_ROLE_ADMIN) {
        *arg_p = r->who.domain;
        return SCOPE_KIND_DOMAIN;
    }
    *arg_p = r->who.user_uuid;
    return SCOPE_KIND_OWN;
}

//  A text field of the body: required or not, at most max bytes. NULL with
//  detail filled when wrong (absent and not required: *ok stays true).
static const char *
s_text(json_t *params, const char *key, bool required, size_t max, char *detail, bool *ok)
{
    json_t *value = json_object_get(params, key);
    if (!value || json_is_null(value)) {
        if (required) {
            snprintf(detail, GW_ERRORLOG_DETAIL_MAX, "%s is required", key);
            *ok = false;
        }
        return NULL;
    }
    if (!json_is_string(value) || json_string_length(value) > max) {
        snprintf(detail, GW_ERRORLOG_DETAIL_MAX, "%s: a string of at most %zu bytes", key,
                 max);
        *ok = false;
        return NULL;
    }
    return json_string_value(value);
}

void
gw_errorlog_handle_create(gw_request_t *r)
{
    json_t *params = r->params;
    char detail[GW_ERRORLOG_DETAIL_MAX] = "";
    bool ok = true;
    gw_errorlog_entry_t entry = {0};
    entry.severity = s_text(params, "severity", true, 16, detail, &ok);
    if (ok) {
        bool known = false;
        for (size_t i = 0; i < sizeof s_severities / sizeof s_severities[0]; i++)
            known = known || strcmp(entry.severity, s_severities[i]) == 0;
        if (!known) {
            snprintf(detail, sizeof detail,
                     "severity: critical, error, warning, info or debug");
            ok = false;
        }
    }
    if (ok)
        entry.source =
            s_text(params, "source", true, GW_ERRORLOG_SOURCE_MAX, detail, &ok);
    if (ok)
        entry.message =
            s_text(params, "message", true, GW_ERRORLOG_MESSAGE_MAX, detail, &ok);
    if (ok)
        entry.context_lang =
            s_text(params, "context_lang", true, GW_ERRORLOG_SOURCE_MAX, detail, &ok);
    if (ok)
        entry.request_url =
            s_text(params, "request_url", false, GW_ERRORLOG_URL_MAX, detail, &ok);
    if (ok)
        entry.traceback =
            s_text(params, "traceback", false, GW_ERRORLOG_TRACEBACK_MAX, detail, &ok);
    int64_t status = 0;
    if (ok && !gw_params_int(params, "request_status", &status, detail, sizeof detail))
        ok = false;
    if (ok && (status < 0 || status > 999)) {
        snprintf(detail, sizeof detail, "request_status: an HTTP status");
        ok = false;
    }
    entry.request_status = (int) status;
    //  context_env: a JSON string (Backend.AI's JSONString) or the document.
    char *context = NULL;
    json_t *env = json_object_get(params, "context_env");
    if (ok && json_is_string(env)) {
        json_t *doc = json_loads(json_string_value(env), JSON_DECODE_ANY, NULL);
        if (doc)
            context = json_dumps(doc, JSON_COMPACT | JSON_ENCODE_ANY);
        json_decref(doc);
    } else if (ok && env && !json_is_null(env))
        context = json_dumps(env, JSON_COMPACT | JSON_ENCODE_ANY);
    if (ok && (!context || strlen(context) > GW_ERRORLOG_CONTEXT_MAX)) {
        snprintf(detail, sizeof detail, "context_env: a JSON document (at most %d bytes)",
                 GW_ERRORLOG_CONTEXT_MAX);
        ok = false;
    }
    entry.context_env = context;
    entry.user_uuid = r->who.user_uuid;
    if (!ok)
        gw_reply_problem(r, "invalid-api-params", detail);
    else if (gw_errorlog_append(gw_server_db(r->gw), &entry) != 0)
        gw_reply_status(r, BUS_STATUS_INTERNAL, "cannot write the error log");
    else
        gw_reply_json(r, 200, json_pack("{s:b}", "success", 1));
    free(context);
}

//  One row as Backend.AI answers it; is_cleared for admins only.
static json_t *
s_row(sqlite3_stmt *stmt, bool admin)
{
    const char *env_text = (const char *) sqlite3_column_text(stmt, 9);
    json_t *env = env_text ? json_loads(env_text, JSON_DECODE_ANY, NULL) : NULL;
    json_t *row =
        json_pack("{s:s, s:f, s:s, s:s, s:o, s:b, s:s, s:s, s:o, s:o, s:o, s:o}",
                  "log_id", (const char *) sqlite3_column_text(stmt, 0), "created_at",
                  (double) sqlite3_column_int64(stmt, 1) / 1e6, "severity",
                  (const char *) sqlite3_column_text(stmt, 2), "source",
                  (const char *) sqlite3_column_text(stmt, 3), "user",
                  sqlite3_column_type(stmt, 4) == SQLITE_NULL
                      ? json_null()
                      : json_string((const char *) sqlite3_column_text(stmt, 4)),
                  "is_read", sqlite3_column_int(stmt, 5), "message",
                  (const char *) sqlite3_column_text(stmt, 7), "context_lang",
                  (const char *) sqlite3_column_text(stmt, 8), "context_env",
                  env ? env : json_object(), "request_url",
                  sqlite3_column_type(stmt, 10) == SQLITE_NULL
                      ? json_null()
                      : json_string((const char *) sqlite3_column_text(stmt, 10)),
                  "request_status",
                  sqlite3_column_type(stmt, 11) == SQLITE_NULL
                      ? json_null()
                      : json_integer(sqlite3_column_int(stmt, 11)),
                  "traceback",
                  sqlite3_column_type(stmt, 12) == SQLITE_NULL
                      ? json_null()
                      : json_string((const char *) sqlite3_column_text(stmt, 12)));
    if (row && admin)
        json_object_set_new(row, "is_cleared", json_boolean(sqlite3_column_int(stmt, 6)));
    return row;
}

void
gw_errorlog_handle_list(gw_request_t *r)
{
    json_t *params = r->params;
    char detail[GW_ERRORLOG_DETAIL_MAX] = "";
    int64_t page_size = GW_ERRORLOG_PAGE_SIZE_DEFAULT, page_no = 1;
    const char *mark = "false";
    if (!gw_params_int(params, "page_size", &page_size, detail, sizeof detail) ||
        !gw_params_int(params, "page_no", &page_no, detail, sizeof detail) ||
        !gw_params_str(params, "mark_read", &mark, detail, sizeof detail)) {
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    bool mark_read = strcmp(mark, "true") == 0 || strcmp(mark, "True") == 0;
    if (page_size < 1 || page_size > GW_ERRORLOG_PAGE_SIZE_MAX || page_no < 1 ||
        (!mark_read && strcmp(mark, "false") != 0 && strcmp(mark, "False") != 0)) {
        gw_reply_problem(r, "invalid-api-params",
                         "page_size: 1-100; page_no: from 1; mark_read: true or false");
        return;
    }
    bus_db_t *db = gw_server_db(r->gw);
    const char *scope_arg = NULL;
    scope_kind_t scope = s_scope(r, &scope_arg);
    bool admin = scope != SCOPE_KIND_OWN;
    json_t *logs = json_array();
    json_t *ids = json_array();
    int64_t count = -1;
    bool failed = !logs || !ids || bus_db_begin(db) != 0;
    sqlite3_stmt *stmt = failed ? NULL : bus_db_stmt(db, s_scopes[scope].page);
    if (stmt) {
        s_bind_text(stmt, 1, scope_arg);
        sqlite3_bind_int64(stmt, 2, page_size);
        sqlite3_bind_int64(stmt, 3, (page_no - 1) * page_size);
        int step;
        while ((step = sqlite3_step(stmt)) == SQLITE_ROW) {
            json_array_append_new(logs, s_row(stmt, admin));
            json_array_append_new(
                ids, json_string((const char *) sqlite3_column_text(stmt, 0)));
        }
        failed = step != SQLITE_DONE;
        sqlite3_reset(stmt);
        sqlite3_clear_bindings(stmt);
    }
    stmt = failed ? NULL : bus_db_stmt(db, s_scopes[scope].count);
    if (stmt) {
        s_bind_text(stmt, 1, scope_arg);
        if (sqlite3_step(stmt) == SQLITE_ROW)
            count = sqlite3_column_int64(stmt, 0);
        sqlite3_reset(stmt);
        sqlite3_clear_bindings(stmt);
    }
    failed = failed || count < 0;
    if (!failed && mark_read) {
        stmt = bus_db_stmt(db, "UPDATE error_logs SET is_read = 1 WHERE id = ?1");
        size_t i;
        json_t *id;
        json_array_foreach(ids, i, id)
        {
            if (!stmt)
                break;
            sqlite3_bind_text(stmt, 1, json_string_value(id), -1, SQLITE_STATIC);
            failed = failed || sqlite3_step(stmt) != SQLITE_DONE;
            sqlite3_reset(stmt);
        }
        failed = failed || !stmt;
    }
    if (failed) {
        s_failed(db, "error logs list");
        if (logs && ids)
            bus_db_rollback(db);
        json_decref(logs);
        gw_reply_status(r, BUS_STATUS_INTERNAL, "cannot read the error logs");
    } else if (bus_db_commit(db) != 0) {
        json_decref(logs);
        gw_reply_status(r, BUS_STATUS_INTERNAL, "cannot read the error logs");
    } else
        gw_reply_json(r, 200, json_pack("{s:o, s:I}", "logs", logs, "count", count));
    json_decref(ids);
}

void
gw_errorlog_handle_clear(gw_request_t *r)
{
    const char *id = gw_request_path_param(r, "log_id");
    bus_db_t *db = gw_server_db(r->gw);
    const char *scope_arg = NULL;
    scope_kind_t scope = s_scope(r, &scope_arg);
    sqlite3_stmt *stmt = bus_db_stmt(db, s_scopes[scope].clear);
    if (!stmt || !id) {
        gw_reply_status(r, BUS_STATUS_INTERNAL, "cannot clear the error log");
        return;
    }
    s_bind_text(stmt, 1, scope_arg);
    sqlite3_bind_text(stmt, 2, id, -1, SQLITE_STATIC);
    int step = sqlite3_step(stmt);
    int changed = sqlite3_changes(bus_db_handle(db));
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    if (step != SQLITE_DONE) {
        s_failed(db, "error log clear");
        gw_reply_status(r, BUS_STATUS_INTERNAL, "cannot clear the error log");
    }
    //  Not the caller's to clear, or no such row: the same answer, so that
    //  ids of others' logs cannot be probed.
    else if (changed != 1)
        gw_reply_problem(r, "object-not-found", "no such error log");
    else
        gw_reply_json(r, 200, json_pack("{s:b}", "success", 1));
}
