/*  =========================================================================
    gw_keypair - API keypairs: list, read, issue, modify, revoke

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  Backend.AI's keypair.user_id is the owner's email; "user" is its UUID.
#define KEYPAIR_COLUMNS                                                                  \
    "SELECT u.email AS user_id, k.user_id AS user, k.access_key, k.secret_key,"          \
    " k.is_active, k.is_admin, k.created_at, k.modified_at, k.last_used, k.rate_limit,"  \
    " k.num_queries, k.resource_policy, k.ssh_public_key, 0 AS concurrency_used,"        \
    " u.domain_name, u.full_name, u.role AS owner_role"                                  \
    " FROM keypairs k JOIN users u ON u.uuid = k.user_id"

static const char *const s_booleans[] = {"is_active", "is_admin", NULL};

static const gw_field_t s_fields[] = {
    {"is_active", GW_FIELD_BOOL},
    {"is_admin", GW_FIELD_BOOL},
    {"resource_policy", GW_FIELD_TEXT},
    {"rate_limit", GW_FIELD_INT},
    {NULL, 0},
};

//  Whether the caller administers a keypair of an owner in domain with
//  role: a superadmin any, an admin its domain's, but never a superadmin's
//  (whose key would make a domain admin a superadmin).
static bool
s_administers(const gw_identity_t *who, const char *domain, const char *role)
{
    if (gw_identity_is_superadmin(who))
        return true;
    return gw_identity_admins_domain(who, domain) && role &&
           strcmp(role, "superadmin") != 0;
}

//  The secret goes only to the owner and to who administers the owner: a
//  monitor reads keypairs but never secrets, and a domain admin never a
//  superadmin's.
static void
s_hide_secret(gw_ctx_t *ctx, json_t *keypair)
{
    const char *owner = json_string_value(json_object_get(keypair, "user"));
    if (owner && strcmp(owner, ctx->who->user_uuid) == 0)
        return;
    if (ctx->who->role == GW_ROLE_MONITOR ||
        !s_administers(ctx->who,
                       json_string_value(json_object_get(keypair, "domain_name")),
                       json_string_value(json_object_get(keypair, "owner_role"))))
        json_object_set_new(keypair, "secret_key", json_null());
}

//  Folds full_name into user_info, as the client's "user_info { full_name }" asks.
static void
s_shape(json_t *keypair)
{
    json_object_del(keypair, "owner_role");
    json_object_set_new(keypair, "user_info",
                        json_pack("{s:O, s:O}", "full_name",
                                  json_object_get(keypair, "full_name"), "email",
                                  json_object_get(keypair, "user_id")));
}

int
gw_keypair_get(gw_ctx_t *ctx, const char *access_key, json_t **out, bus_error_t *err)
{
    bool failed;
    const char *params[] = {access_key ? access_key : ctx->who->access_key, NULL};
    json_t *keypair = gw_store_one(ctx->db, KEYPAIR_COLUMNS " WHERE k.access_key = ?1",
                                   params, s_booleans, &failed);
    if (failed)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    if (!keypair)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such keypair.");
    const char *owner = json_string_value(json_object_get(keypair, "user"));
    const char *domain = json_string_value(json_object_get(keypair, "domain_name"));
    if (strcmp(owner, ctx->who->user_uuid) != 0 &&
        !gw_identity_reads_domain(ctx->who, domain)) {
        json_decref(keypair);
        return bus_error_set(err, BUS_STATUS_FORBIDDEN, "not your keypair");
    }
    s_hide_secret(ctx, keypair);
    s_shape(keypair);
    *out = keypair;
    return BUS_OK;
}

//  The keypairs the caller may see and the arguments narrow to, ANDed to
//  where: a superadmin's all (or one domain's), an admin's or monitor's
//  domain's, a user's own. The scope and the arguments compare with LIKE,
//  as they always have. BUS_OK or FORBIDDEN.
static int
s_scope(gw_ctx_t *ctx, json_t *args, bus_where_t *where, bus_error_t *err)
{
    const char *domain = json_string_value(json_object_get(args, "domain_name"));
    const char *email = json_string_value(json_object_get(args, "email"));
    if (!email)
        email = json_string_value(json_object_get(args, "user_id"));
    json_t *active = json_object_get(args, "is_active");
    const char *scope_domain = "%", *scope_user = "%";
    if (!gw_identity_is_superadmin(ctx->who)) {
        if (domain && strcmp(domain, ctx->who->domain) != 0)
            return bus_error_set(err, BUS_STATUS_FORBIDDEN, "not your domain");
        scope_domain = ctx->who->domain;
        if (!gw_identity_reads_domain(ctx->who, ctx->who->domain))
            scope_user = ctx->who->user_uuid;
    } else if (domain)
        scope_domain = domain;
    const char *flag = json_is_boolean(active) ? (json_is_true(active) ? "1" : "0") : "%";
    const char *pieces[][2] = {{" AND u.domain_name LIKE ", scope_domain},
                               {" AND k.user_id LIKE ", scope_user},
                               {" AND u.email LIKE ", email ? email : "%"},
                               {" AND k.is_active LIKE ", flag}};
    int rc = 0;
    for (size_t i = 0; i < sizeof pieces / sizeof pieces[0] && rc == 0; i++)
        rc = bus_where_append(where, pieces[i][0]) ||
             bus_where_param_text(where, pieces[i][1], strlen(pieces[i][1]));
    return rc == 0 ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
}

//  A monitor reads others' keypairs, but never their secrets.
static void
s_shape_listed(gw_ctx_t *ctx, json_t *keypair)
{
    s_hide_secret(ctx, keypair);
    s_shape(keypair);
}

//  The keypairs' text fields, for filters and orders in SQL (not the
//  secret, which a monitor's items hide).
static const bus_where_column_t s_columns[] = {
    {"user_id", "u.email", true, false},
    {"user", "k.user_id", true, false},
    {"access_key", "k.access_key", true, false},
    {"created_at", "k.created_at", true, false},
    {"modified_at", "k.modified_at", true, false},
    {"last_used", "k.last_used", true, true},
    {"resource_policy", "k.resource_policy", true, false},
    {"ssh_public_key", "k.ssh_public_key", true, true},
    {"domain_name", "u.domain_name", true, false},
    {"full_name", "u.full_name", true, false},
    {NULL, NULL, false, false},
};

static const char *const s_extra[] = {"user_info", NULL};

const gw_gql_table_t gw_keypair_table = {
    s_columns,
    KEYPAIR_COLUMNS,
    "SELECT count(*) FROM keypairs k JOIN users u ON u.uuid = k.user_id",
    "k.created_at, k.rowid",
    s_booleans,
    s_extra,
    s_scope,
    s_shape_listed,
};

int
gw_keypair_list(gw_ctx_t *ctx, json_t *args, json_t **out, bus_error_t *err)
{
    bus_where_t *where = bus_where_new(s_columns, gw_keypair_table.order);
    if (!where)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    int rc = s_scope(ctx, args, where, err);
    sqlite3_stmt *stmt =
        rc == BUS_OK ? bus_where_prepare(where, bus_db_handle(ctx->db), KEYPAIR_COLUMNS,
                                         bus_where_order_sql(where))
                     : NULL;
    bus_where_destroy(&where);
    if (rc != BUS_OK)
        return rc;
    json_t *keypairs = stmt ? gw_store_rows_of(stmt, s_booleans) : NULL;
    if (!keypairs)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    size_t index;
    json_t *keypair;
    json_array_foreach(keypairs, index, keypair) s_shape_listed(ctx, keypair);
    *out = keypairs;
    return BUS_OK;
}

int
gw_keypair_create(
    gw_ctx_t *ctx, const char *email, json_t *props, json_t **out, bus_error_t *err)
{
    json_t *user = NULL;
    int rc = gw_user_get(ctx, email, &user, err);
    if (rc != BUS_OK)
        return rc;
    char uuid[GW_UUID_SIZE];
    snprintf(uuid, sizeof uuid, "%s", json_string_value(json_object_get(user, "uuid")));
    bool allowed =
        s_administers(ctx->who, json_string_value(json_object_get(user, "domain_name")),
                      json_string_value(json_object_get(user, "role")));
    json_decref(user);
    if (!allowed)
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only admins issue keypairs, and only a superadmin a "
                             "superadmin's");
    char access_key[GW_ACCESS_KEY_SIZE], secret_key[GW_SECRET_KEY_SIZE], now[40];
    if (gw_access_key_new(access_key) != 0 || gw_secret_key_new(secret_key) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot make credentials");
    gw_now_iso(now);
    json_t *fixed = json_pack("{s:s, s:s, s:s, s:s}", "secret_key", secret_key, "user_id",
                              uuid, "created_at", now, "modified_at", now);
    OPENSSL_cleanse(secret_key, sizeof secret_key);
    rc = gw_store_write(ctx->db, "keypairs", "access_key", access_key, s_fields,
                        json_is_object(props) ? props : NULL, fixed, true, err);
    json_decref(fixed);
    if (rc != BUS_OK)
        return rc;
    gw_identity_cache_clear(ctx->identities);
    bus_log_notice("keypair issued access_key=%s email=%s by=%s", access_key, email,
                   ctx->who->email);
    return gw_keypair_get(ctx, access_key, out, err);
}

//  Checks that the caller administers the keypair's owner.
static int
s_check_admin(gw_ctx_t *ctx, const char *access_key, bus_error_t *err)
{
    bool failed;
    const char *params[] = {access_key, NULL};
    json_t *keypair = gw_store_one(ctx->db, KEYPAIR_COLUMNS " WHERE k.access_key = ?1",
                                   params, s_booleans, &failed);
    if (failed)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    if (!keypair)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such keypair.");
    const char *domain = json_string_value(json_object_get(keypair, "domain_name"));
    bool allowed = s_administers(
        ctx->who, domain, json_string_value(json_object_get(keypair, "owner_role")));
    bool readable = gw_identity_reads_domain(ctx->who, domain);
    json_decref(keypair);
    if (allowed)
        return BUS_OK;
    return readable
               ? bus_error_set(err, BUS_STATUS_FORBIDDEN,
                               "only admins change keypairs, and only a superadmin a "
                               "superadmin's")
               : bus_error_set(err, BUS_STATUS_FORBIDDEN, "not your keypair");
}

int
gw_keypair_modify(
    gw_ctx_t *ctx, const char *access_key, json_t *props, json_t **out, bus_error_t *err)
{
    int rc = s_check_admin(ctx, access_key, err);
    if (rc != BUS_OK)
        return rc;
    char now[40];
    gw_now_iso(now);
    json_t *fixed = json_pack("{s:s}", "modified_at", now);
    rc = gw_store_write(ctx->db, "keypairs", "access_key", access_key, s_fields,
                        json_is_object(props) ? props : NULL, fixed, false, err);
    json_decref(fixed);
    if (rc != BUS_OK)
        return rc;
    gw_identity_cache_clear(ctx->identities);
    bus_log_notice("keypair modified access_key=%s by=%s", access_key, ctx->who->email);
    return gw_keypair_get(ctx, access_key, out, err);
}

int
gw_keypair_delete(gw_ctx_t *ctx, const char *access_key, bus_error_t *err)
{
    int rc = s_check_admin(ctx, access_key, err);
    if (rc != BUS_OK)
        return rc;
    if (strcmp(access_key, ctx->who->access_key) == 0)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "you cannot revoke the keypair in use");
    rc = gw_store_delete(ctx->db, "keypairs", "access_key", access_key,
                         "No such keypair.", err);
    if (rc == BUS_OK) {
        gw_identity_cache_clear(ctx->identities);
        bus_log_notice("keypair revoked access_key=%s by=%s", access_key,
                       ctx->who->email);
    }
    return rc;
}

int
gw_keypair_count_use(bus_db_t *db,
                     const char *access_key,
                     uint64_t requests,
                     const char *last_used)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "UPDATE keypairs SET num_queries = num_queries + ?2, last_used = ?3"
            " WHERE access_key = ?1");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, access_key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(stmt, 2, (int64_t) requests);
    sqlite3_bind_text(stmt, 3, last_used, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(stmt) == SQLITE_DONE ? 0 : -1;
    sqlite3_reset(stmt);
    return rc;
}
