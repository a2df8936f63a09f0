/*  =========================================================================
    gw_user - users: list, read, create (with a first keypair), modify,
    delete (deactivate), purge

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  The password hash is never selected.
#define USER_COLUMNS                                                                     \
    "SELECT uuid, username, email, need_password_change, full_name, description,"        \
    " status, status_info, status = 'active' AS is_active, created_at, modified_at,"     \
    " domain_name, role, resource_policy, allowed_client_ip, sudo_session_enabled"       \
    " FROM users"

static const char *const s_booleans[] = {"need_password_change", "is_active",
                                         "sudo_session_enabled", NULL};

static const gw_field_t s_fields[] = {
    {"username", GW_FIELD_TEXT},
    {"need_password_change", GW_FIELD_BOOL},
    {"full_name", GW_FIELD_TEXT},
    {"description", GW_FIELD_TEXT},
    {"status", GW_FIELD_TEXT},
    {"status_info", GW_FIELD_TEXT},
    {"role", GW_FIELD_TEXT},
    {"resource_policy", GW_FIELD_TEXT},
    {"allowed_client_ip", GW_FIELD_JSON},
    {"sudo_session_enabled", GW_FIELD_BOOL},
    {NULL, 0},
};

//  Adds "groups": [{id, name}] to a user object.
static void
s_add_groups(bus_db_t *db, json_t *user)
{
    const char *params[] = {json_string_value(json_object_get(user, "uuid")), NULL};
    json_t *groups = gw_store_rows(db,
                                   "SELECT g.id, g.name FROM groups g JOIN"
                                   " association_groups_users a ON a.group_id = g.id"
                                   " WHERE a.user_id = ?1 ORDER BY g.name",
                                   params, NULL);
    json_object_set_new(user, "groups", groups ? groups : json_array());
}

static int
s_fetch(gw_ctx_t *ctx, const char *where, const char *key, json_t **out, bus_error_t *err)
{
    char sql[512];
    snprintf(sql, sizeof sql, USER_COLUMNS " WHERE %s = ?1", where);
    bool failed;
    const char *params[] = {key, NULL};
    bus_db_t *db = ctx->db;
    json_t *user = gw_store_one(db, sql, params, s_booleans, &failed);
    if (failed)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    if (!user)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such user.");
    const char *domain = json_string_value(json_object_get(user, "domain_name"));
    const char *uuid = json_string_value(json_object_get(user, "uuid"));
    if (!gw_identity_reads_domain(ctx->who, domain) &&
        strcmp(uuid, ctx->who->user_uuid) != 0) {
        json_decref(user);
        return bus_error_set(err, BUS_STATUS_FORBIDDEN, "not your user");
    }
    s_add_groups(db, user);
    *out = user;
    return BUS_OK;
}

int
gw_user_get(gw_ctx_t *ctx, const char *email, json_t **out, bus_error_t *err)
{
    return s_fetch(ctx, "email", email ? email : ctx->who->email, out, err);
}

int
gw_user_get_by_uuid(gw_ctx_t *ctx, const char *uuid, json_t **out, bus_error_t *err)
{
    return s_fetch(ctx, "uuid", uuid ? uuid : ctx->who->user_uuid, out, err);
}

//  The users the caller may see and the arguments narrow to, ANDed to
//  where: a superadmin everyone (or one domain), an admin or monitor its
//  domain, a user itself. The scope and the arguments compare with LIKE,
//  as they always have. BUS_OK or FORBIDDEN.
static int
s_scope(gw_ctx_t *ctx, json_t *args, bus_where_t *where, bus_error_t *err)
{
    const char *domain = json_string_value(json_object_get(args, "domain_name"));
    const char *group = json_string_value(json_object_get(args, "group_id"));
    const char *status = json_string_value(json_object_get(args, "status"));
    json_t *active = json_object_get(args, "is_active");
    const char *scope_domain = "%";
    if (!gw_identity_is_superadmin(ctx->who)) {
        //  Listing users is for those who read their domain (Backend.AI's
        //  users and user_list are admin queries): a user asks for itself
        //  with the user query, not with a list of one.
        if (!gw_identity_reads_domain(ctx->who, ctx->who->domain))
            return bus_error_set(err, BUS_STATUS_FORBIDDEN, "Insufficient privilege");
        if (domain && strcmp(domain, ctx->who->domain) != 0)
            return bus_error_set(err, BUS_STATUS_FORBIDDEN, "not your domain");
        scope_domain = ctx->who->domain;
    } else if (domain)
        scope_domain = domain;
    const char *pieces[][2] = {{" AND domain_name LIKE ", scope_domain},
                               {" AND status LIKE ", status ? status : "%"}};
    int rc = 0;
    for (size_t i = 0; i < sizeof pieces / sizeof pieces[0] && rc == 0; i++)
        rc = bus_where_append(where, pieces[i][0]) ||
             bus_where_param_text(where, pieces[i][1], strlen(pieces[i][1]));
    //  A project of "%" stood for no project.
    if (rc == 0 && group && strcmp(group, "%") != 0)
        rc = bus_where_append(where, " AND uuid IN (SELECT user_id FROM"
                                     " association_groups_users WHERE group_id = ") ||
             bus_where_param_text(where, group, strlen(group)) ||
             bus_where_append(where, ")");
    if (rc == 0 && json_is_boolean(active))
        rc = bus_where_append(where, json_is_true(active) ? " AND status = 'active'"
                                                          : " AND status != 'active'");
    return rc == 0 ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
}

static void
s_shape(gw_ctx_t *ctx, json_t *user)
{
    s_add_groups(ctx->db, user);
}

//  The users' text fields, for filters and orders in SQL.
static const bus_where_column_t s_columns[] = {
    {"uuid", "uuid", true, false},
    {"username", "username", true, false},
    {"email", "email", true, false},
    {"full_name", "full_name", true, false},
    {"description", "description", true, false},
    {"status", "status", true, false},
    {"status_info", "status_info", true, true},
    {"created_at", "created_at", true, false},
    {"modified_at", "modified_at", true, false},
    {"domain_name", "domain_name", true, false},
    {"role", "role", true, false},
    {"resource_policy", "resource_policy", true, false},
    {"allowed_client_ip", "allowed_client_ip", true, true},
    {NULL, NULL, false, false},
};

static const char *const s_extra[] = {"groups", NULL};

const gw_gql_table_t gw_user_table = {
    s_columns,
    USER_COLUMNS,
    "SELECT count(*) FROM users",
    "created_at, rowid",
    s_booleans,
    s_extra,
    s_scope,
    s_shape,
};

int
gw_user_list(gw_ctx_t *ctx, json_t *args, json_t **out, bus_error_t *err)
{
    bus_where_t *where = bus_where_new(s_columns, gw_user_table.order);
    if (!where)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    int rc = s_scope(ctx, args, where, err);
    sqlite3_stmt *stmt = rc == BUS_OK
                             ? bus_where_prepare(where, bus_db_handle(ctx->db),
                                                 USER_COLUMNS, bus_where_order_sql(where))
                             : NULL;
    bus_where_destroy(&where);
    if (rc != BUS_OK)
        return rc;
    json_t *users = stmt ? gw_store_rows_of(stmt, s_booleans) : NULL;
    if (!users)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    size_t index;
    json_t *user;
    json_array_foreach(users, index, user) s_shape(ctx, user);
    *out = users;
    return BUS_OK;
}

//  Replaces the user's project memberships with group_ids (projects of its domain).
static int
s_set_groups(bus_db_t *db,
             const char *uuid,
             const char *domain,
             json_t *group_ids,
             bus_error_t *err)
{
    if (!json_is_array(group_ids))
        return bus_error_set(err, BUS_STATUS_INVALID, "group_ids: expected a list");
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "DELETE FROM association_groups_users WHERE user_id = ?1");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    sqlite3_bind_text(stmt, 1, uuid, -1, SQLITE_STATIC);
    int rc = gw_store_step(db, stmt, err);
    stmt =
        bus_db_stmt(db, "INSERT INTO association_groups_users (group_id, user_id)"
                        " SELECT id, ?2 FROM groups WHERE id = ?1 AND domain_name = ?3");
    size_t index;
    json_t *id;
    json_array_foreach(group_ids, index, id)
    {
        if (rc != BUS_OK || !stmt)
            break;
        if (!json_is_string(id))
            return bus_error_set(err, BUS_STATUS_INVALID, "group_ids: expected strings");
        sqlite3_bind_text(stmt, 1, json_string_value(id), -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 2, uuid, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 3, domain, -1, SQLITE_STATIC);
        rc = gw_store_step(db, stmt, err);
        if (rc == BUS_OK && sqlite3_changes(bus_db_handle(db)) == 0)
            rc = bus_error_set(err, BUS_STATUS_INVALID, "no project %s in domain %s",
                               json_string_value(id), domain);
    }
    return rc;
}

//  Whether the caller may give or change role on a user of domain.
static int
s_check_role_change(gw_ctx_t *ctx, const char *domain, const char *role, bus_error_t *err)
{
    if (!gw_identity_admins_domain(ctx->who, domain))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN, "not an admin of domain %s",
                             domain);
    if (role && gw_role_from_str(role) < 0)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "role is superadmin, admin, user or monitor");
    if (role && strcmp(role, "superadmin") == 0 && !gw_identity_is_superadmin(ctx->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only a superadmin makes superadmins");
    return BUS_OK;
}

//  Maps Backend.AI's is_active input onto our status column.
static void
s_fold_is_active(json_t *fields)
{
    json_t *active = json_object_get(fields, "is_active");
    if (json_is_boolean(active) && !json_object_get(fields, "status"))
        json_object_set_new(fields, "status",
                            json_string(json_is_true(active) ? "active" : "inactive"));
    json_object_del(fields, "is_active");
}

int
gw_user_create(
    gw_ctx_t *ctx, const char *email, json_t *props, json_t **out, bus_error_t *err)
{
    json_t *fields = json_deep_copy(json_is_object(props) ? props : json_object());
    //  Copies: the members they come from are removed from fields below.
    char domain_buf[GW_NAME_MAX] = "", role_buf[16] = "";
    const char *domain = json_string_value(json_object_get(fields, "domain_name"));
    const char *password = json_string_value(json_object_get(fields, "password"));
    const char *role = json_string_value(json_object_get(fields, "role"));
    if (domain)
        domain = strncpy(domain_buf, domain, sizeof domain_buf - 1);
    if (role)
        role = strncpy(role_buf, role, sizeof role_buf - 1);
    int rc = BUS_OK;
    if (!email || !strchr(email, '@') || strlen(email) >= GW_EMAIL_MAX)
        rc = bus_error_set(err, BUS_STATUS_INVALID, "a valid email is required");
    else if (!domain)
        rc = bus_error_set(err, BUS_STATUS_INVALID, "domain_name is required");
    else if (!password || !*password)
        rc = bus_error_set(err, BUS_STATUS_INVALID, "password is required");
    else
        rc = s_check_role_change(ctx, domain, role, err);
    if (rc != BUS_OK) {
        json_decref(fields);
        return rc;
    }
    char uuid[GW_UUID_SIZE], now[40], hash[GW_PASSWORD_HASH_MAX];
    char access_key[GW_ACCESS_KEY_SIZE], secret_key[GW_SECRET_KEY_SIZE];
    gw_uuid_new(uuid);
    gw_now_iso(now);
    if (gw_password_hash(password, ctx->config->password_iterations, hash, sizeof hash) !=
            0 ||
        gw_access_key_new(access_key) != 0 || gw_secret_key_new(secret_key) != 0) {
        json_decref(fields);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot make credentials");
    }
    json_t *group_ids = json_object_get(fields, "group_ids");
    group_ids = json_is_array(group_ids) ? json_incref(group_ids) : NULL;
    json_object_del(fields, "group_ids");
    json_object_del(fields, "password");
    json_object_del(fields, "domain_name");
    s_fold_is_active(fields);
    //  Backend.AI names a user after its email when no user name is given.
    const char *username = json_string_value(json_object_get(fields, "username"));
    if (!username || !*username)
        json_object_set_new(fields, "username", json_string(email));
    json_t *fixed =
        json_pack("{s:s, s:s, s:s, s:s, s:s}", "email", email, "password", hash,
                  "domain_name", domain, "created_at", now, "modified_at", now);
    bus_db_t *db = ctx->db;
    bus_db_begin(db);
    rc = gw_store_write(db, "users", "uuid", uuid, s_fields, fields, fixed, true, err);
    if (rc == BUS_OK && group_ids)
        rc = s_set_groups(db, uuid, domain, group_ids, err);
    if (rc == BUS_OK) {
        //  Every user starts with one keypair, as in Backend.AI.
        sqlite3_stmt *stmt =
            bus_db_stmt(db, "INSERT INTO keypairs (access_key, secret_key,"
                            " user_id, is_admin, created_at, modified_at)"
                            " VALUES (?1, ?2, ?3, ?4, ?5, ?5)");
        if (stmt) {
            const char *new_role = role ? role : "user";
            sqlite3_bind_text(stmt, 1, access_key, -1, SQLITE_STATIC);
            sqlite3_bind_text(stmt, 2, secret_key, -1, SQLITE_STATIC);
            sqlite3_bind_text(stmt, 3, uuid, -1, SQLITE_STATIC);
            sqlite3_bind_int(stmt, 4,
                             strcmp(new_role, "admin") == 0 ||
                                 strcmp(new_role, "superadmin") == 0);
            sqlite3_bind_text(stmt, 5, now, -1, SQLITE_STATIC);
            rc = gw_store_step(db, stmt, err);
        } else
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    }
    if (rc == BUS_OK)
        bus_db_commit(db);
    else {
        bus_db_rollback(db);
    }
    OPENSSL_cleanse(secret_key, sizeof secret_key);
    json_decref(group_ids);
    json_decref(fixed);
    json_decref(fields);
    if (rc != BUS_OK)
        return rc;
    gw_identity_cache_clear(ctx->identities);
    bus_log_notice("user created email=%s domain=%s role=%s access_key=%s by=%s", email,
                   domain, role ? role : "user", access_key, ctx->who->email);
    return gw_user_get(ctx, email, out, err);
}

int
gw_user_modify(
    gw_ctx_t *ctx, const char *email, json_t *props, json_t **out, bus_error_t *err)
{
    json_t *user = NULL;
    int rc = gw_user_get(ctx, email, &user, err);
    if (rc != BUS_OK)
        return rc;
    char uuid[GW_UUID_SIZE], domain[GW_NAME_MAX], old_role[16];
    snprintf(uuid, sizeof uuid, "%s", json_string_value(json_object_get(user, "uuid")));
    snprintf(domain, sizeof domain, "%s",
             json_string_value(json_object_get(user, "domain_name")));
    snprintf(old_role, sizeof old_role, "%s",
             json_string_value(json_object_get(user, "role")));
    json_decref(user);
    json_t *fields = json_deep_copy(json_is_object(props) ? props : json_object());
    const char *role = json_string_value(json_object_get(fields, "role"));
    rc = s_check_role_change(ctx, domain, role, err);
    if (rc == BUS_OK && strcmp(old_role, "superadmin") == 0 &&
        !gw_identity_is_superadmin(ctx->who))
        rc = bus_error_set(err, BUS_STATUS_FORBIDDEN,
                           "only a superadmin modifies a superadmin");
    if (rc != BUS_OK) {
        json_decref(fields);
        return rc;
    }
    char now[40], hash[GW_PASSWORD_HASH_MAX];
    gw_now_iso(now);
    json_t *fixed = json_pack("{s:s}", "modified_at", now);
    const char *password = json_string_value(json_object_get(fields, "password"));
    if (password && *password) {
        if (gw_password_hash(password, ctx->config->password_iterations, hash,
                             sizeof hash) != 0) {
            json_decref(fixed);
            json_decref(fields);
            return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot hash the password");
        }
        json_object_set_new(fixed, "password", json_string(hash));
    }
    json_object_del(fields, "password");
    json_object_del(fields, "domain_name"); //  users do not move between domains
    json_t *group_ids = json_object_get(fields, "group_ids");
    group_ids = json_is_array(group_ids) ? json_incref(group_ids) : NULL;
    json_object_del(fields, "group_ids");
    s_fold_is_active(fields);
    bus_db_t *db = ctx->db;
    bus_db_begin(db);
    rc = gw_store_write(db, "users", "uuid", uuid, s_fields, fields, fixed, false, err);
    if (rc == BUS_OK && group_ids)
        rc = s_set_groups(db, uuid, domain, group_ids, err);
    if (rc == BUS_OK)
        bus_db_commit(db);
    else {
        bus_db_rollback(db);
    }
    json_decref(group_ids);
    json_decref(fixed);
    json_decref(fields);
    if (rc != BUS_OK)
        return rc;
    gw_identity_cache_clear(ctx->identities);
    bus_log_notice("user modified email=%s by=%s", email, ctx->who->email);
    return gw_user_get(ctx, email, out, err);
}

int
gw_user_delete(gw_ctx_t *ctx, const char *email, bool purge, bus_error_t *err)
{
    json_t *user = NULL;
    int rc = gw_user_get(ctx, email, &user, err);
    if (rc != BUS_OK)
        return rc;
    char uuid[GW_UUID_SIZE];
    snprintf(uuid, sizeof uuid, "%s", json_string_value(json_object_get(user, "uuid")));
    bool allowed = gw_identity_admins_domain(
        ctx->who, json_string_value(json_object_get(user, "domain_name")));
    bool target_super =
        strcmp(json_string_value(json_object_get(user, "role")), "superadmin") == 0;
    json_decref(user);
    if (!allowed || (target_super && !gw_identity_is_superadmin(ctx->who)))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "not allowed to delete this user");
    if (strcmp(uuid, ctx->who->user_uuid) == 0)
        return bus_error_set(err, BUS_STATUS_INVALID, "you cannot delete yourself");
    bus_db_t *db = ctx->db;
    bus_db_begin(db);
    const char *sql[] = {
        purge ? "DELETE FROM users WHERE uuid = ?1"
              : "UPDATE users SET status = 'deleted' WHERE uuid = ?1",
        purge ? NULL : "UPDATE keypairs SET is_active = 0 WHERE user_id = ?1",
    };
    for (size_t i = 0; i < 2 && rc == BUS_OK; i++) {
        if (!sql[i])
            continue;
        sqlite3_stmt *stmt = bus_db_stmt(db, sql[i]);
        if (!stmt) {
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
            break;
        }
        sqlite3_bind_text(stmt, 1, uuid, -1, SQLITE_STATIC);
        rc = gw_store_step(db, stmt, err);
    }
    if (rc == BUS_OK)
        bus_db_commit(db);
    else {
        bus_db_rollback(db);
    }
    if (rc == BUS_OK) {
        gw_identity_cache_clear(ctx->identities);
        bus_log_notice("user %s email=%s by=%s", purge ? "purged" : "deleted", email,
                       ctx->who->email);
    }
    return rc;
}

json_t *
gw_user_contact(bus_db_t *db, const char *uuid)
{
    if (!uuid || !*uuid)
        return NULL;
    const char *params[] = {uuid, NULL};
    bool failed = false;
    return gw_store_one(db, "SELECT email, full_name FROM users WHERE uuid = ?1", params,
                        NULL, &failed);
}

char *
gw_user_email(bus_db_t *db, const char *uuid)
{
    return gw_store_text(db, "SELECT email FROM users WHERE uuid = ?1", uuid);
}
