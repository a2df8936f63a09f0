/*  =========================================================================
    gw_group - projects (Backend.AI "groups") and their members

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define GROUP_COLUMNS                                                                    \
    "SELECT id, name, description, is_active, created_at, modified_at, domain_name,"     \
    " total_resource_slots, allowed_vfolder_hosts, integration_id, resource_policy, "    \
    "type"                                                                               \
    " FROM groups"

static const char *const s_booleans[] = {"is_active", NULL};

static const gw_field_t s_fields[] = {
    {"name", GW_FIELD_TEXT},
    {"description", GW_FIELD_TEXT},
    {"is_active", GW_FIELD_BOOL},
    {"total_resource_slots", GW_FIELD_SLOTS},
    {"allowed_vfolder_hosts", GW_FIELD_HOSTS},
    {"integration_id", GW_FIELD_TEXT},
    {"resource_policy", GW_FIELD_TEXT},
    {NULL, 0},
};

int
gw_group_list(gw_ctx_t *ctx, json_t *args, json_t **out, bus_error_t *err)
{
    bus_db_t *db = ctx->db;
    const char *domain = json_string_value(json_object_get(args, "domain_name"));
    json_t *active = json_object_get(args, "is_active");
    const char *flag = json_is_boolean(active) ? (json_is_true(active) ? "1" : "0") : "%";
    if (domain && !gw_identity_reads_domain(ctx->who, domain) &&
        strcmp(domain, ctx->who->domain) != 0)
        return bus_error_set(err, BUS_STATUS_FORBIDDEN, "not your domain");
    if (gw_identity_is_superadmin(ctx->who) ||
        gw_identity_reads_domain(ctx->who, domain ? domain : ctx->who->domain)) {
        const char *params[] = {flag, domain ? domain : "%", NULL};
        if (!gw_identity_is_superadmin(ctx->who))
            params[1] = ctx->who->domain;
        *out =
            gw_store_rows(db,
                          GROUP_COLUMNS " WHERE is_active LIKE ?1 AND domain_name LIKE ?2"
                                        " ORDER BY domain_name, name",
                          params, s_booleans);
    } else {
        //  A user sees the projects it belongs to.
        const char *params[] = {flag, ctx->who->user_uuid, NULL};
        *out = gw_store_rows(db,
                             GROUP_COLUMNS
                             " WHERE is_active LIKE ?1 AND id IN (SELECT group_id"
                             " FROM association_groups_users WHERE user_id = ?2)"
                             " ORDER BY name",
                             params, s_booleans);
    }
    return *out ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
}

//  The group row, if the caller may read it.
int
gw_group_get(gw_ctx_t *ctx, const char *id, json_t **out, bus_error_t *err)
{
    bool failed;
    const char *params[] = {id, NULL};
    json_t *group = gw_store_one(ctx->db, GROUP_COLUMNS " WHERE id = ?1", params,
                                 s_booleans, &failed);
    if (failed)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    if (!group)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such user group.");
    const char *domain = json_string_value(json_object_get(group, "domain_name"));
    bool allowed = gw_identity_reads_domain(ctx->who, domain);
    if (!allowed && strcmp(domain, ctx->who->domain) == 0) {
        sqlite3_stmt *stmt =
            bus_db_stmt(ctx->db, "SELECT 1 FROM association_groups_users WHERE "
                                 "group_id = ?1 AND user_id = ?2");
        if (stmt) {
            sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
            sqlite3_bind_text(stmt, 2, ctx->who->user_uuid, -1, SQLITE_STATIC);
            allowed = sqlite3_step(stmt) == SQLITE_ROW;
            sqlite3_reset(stmt);
        }
    }
    if (!allowed) {
        json_decref(group);
        return bus_error_set(err, BUS_STATUS_FORBIDDEN, "not your project");
    }
    *out = group;
    return BUS_OK;
}

//  Adds or removes the users in uuids (a JSON array) to or from group id.
static int
s_update_members(bus_db_t *db,
                 const char *id,
                 const char *mode,
                 json_t *uuids,
                 const char *domain,
                 bus_error_t *err)
{
    bool add = strcmp(mode, "add") == 0;
    if (!add && strcmp(mode, "remove") != 0)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "user_update_mode is add or remove");
    sqlite3_stmt *stmt = bus_db_stmt(
        db,
        add ? "INSERT OR IGNORE INTO association_groups_users (group_id, user_id)"
              " SELECT ?1, uuid FROM users WHERE uuid = ?2 AND domain_name = ?3"
            : "DELETE FROM association_groups_users WHERE group_id = ?1 AND user_id = ?2"
              " AND ?3 IS NOT NULL");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    size_t index;
    json_t *uuid;
    json_array_foreach(uuids, index, uuid)
    {
        if (!json_is_string(uuid))
            return bus_error_set(err, BUS_STATUS_INVALID, "user_uuids: expected strings");
        sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 2, json_string_value(uuid), -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 3, domain, -1, SQLITE_STATIC);
        int rc = gw_store_step(db, stmt, err);
        if (rc != BUS_OK)
            return rc;
    }
    return BUS_OK;
}

int
gw_group_create(
    gw_ctx_t *ctx, const char *name, json_t *props, json_t **out, bus_error_t *err)
{
    json_t *fields = json_deep_copy(json_is_object(props) ? props : json_object());
    //  A copy: the member it comes from leaves fields below.
    char domain_buf[GW_NAME_MAX] = "";
    const char *domain = json_string_value(json_object_get(fields, "domain_name"));
    if (domain)
        domain = strncpy(domain_buf, domain, sizeof domain_buf - 1);
    if (!domain) {
        json_decref(fields);
        return bus_error_set(err, BUS_STATUS_INVALID, "domain_name is required");
    }
    if (!gw_identity_admins_domain(ctx->who, domain)) {
        json_decref(fields);
        return bus_error_set(err, BUS_STATUS_FORBIDDEN, "not an admin of domain %s",
                             domain);
    }
    if (!name || !*name || strlen(name) > 64) {
        json_decref(fields);
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "a project name is 1-64 characters");
    }
    char id[GW_UUID_SIZE], now[40];
    gw_uuid_new(id);
    gw_now_iso(now);
    json_t *fixed = json_pack("{s:s, s:s, s:s, s:s}", "name", name, "domain_name", domain,
                              "created_at", now, "modified_at", now);
    json_object_del(fields, "domain_name");
    json_object_del(fields, "name");
    int rc =
        gw_store_write(ctx->db, "groups", "id", id, s_fields, fields, fixed, true, err);
    json_decref(fixed);
    json_decref(fields);
    if (rc != BUS_OK)
        return rc;
    bus_log_notice("project created id=%s name=%s domain=%s by=%s", id, name, domain,
                   ctx->who->email);
    return gw_group_get(ctx, id, out, err);
}

int
gw_group_modify(
    gw_ctx_t *ctx, const char *id, json_t *props, json_t **out, bus_error_t *err)
{
    json_t *group = NULL;
    int rc = gw_group_get(ctx, id, &group, err);
    if (rc != BUS_OK)
        return rc;
    char domain[GW_NAME_MAX];
    snprintf(domain, sizeof domain, "%s",
             json_string_value(json_object_get(group, "domain_name")));
    json_decref(group);
    if (!gw_identity_admins_domain(ctx->who, domain))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN, "not an admin of domain %s",
                             domain);
    json_t *fields = json_deep_copy(json_is_object(props) ? props : json_object());
    //  A copy: the member it comes from leaves fields just below.
    char mode_buf[16] = "";
    const char *mode = json_string_value(json_object_get(fields, "user_update_mode"));
    if (mode)
        mode = strncpy(mode_buf, mode, sizeof mode_buf - 1);
    json_t *uuids = json_incref(json_object_get(fields, "user_uuids"));
    json_object_del(fields, "user_update_mode");
    json_object_del(fields, "user_uuids");
    json_object_del(fields, "domain_name"); //  projects do not move between domains
    char now[40];
    gw_now_iso(now);
    json_t *fixed = json_pack("{s:s}", "modified_at", now);
    bus_db_t *db = ctx->db;
    bus_db_begin(db);
    rc = gw_store_write(db, "groups", "id", id, s_fields, fields, fixed, false, err);
    if (rc == BUS_OK && mode && json_is_array(uuids))
        rc = s_update_members(db, id, mode, uuids, domain, err);
    if (rc == BUS_OK)
        bus_db_commit(db);
    else {
        bus_db_rollback(db);
    }
    json_decref(uuids);
    json_decref(fixed);
    json_decref(fields);
    if (rc != BUS_OK)
        return rc;
    bus_log_notice("project modified id=%s by=%s", id, ctx->who->email);
    return gw_group_get(ctx, id, out, err);
}

int
gw_group_delete(gw_ctx_t *ctx, const char *id, bool purge, bus_error_t *err)
{
    json_t *group = NULL;
    int rc = gw_group_get(ctx, id, &group, err);
    if (rc != BUS_OK)
        return rc;
    bool allowed = gw_identity_admins_domain(
        ctx->who, json_string_value(json_object_get(group, "domain_name")));
    json_decref(group);
    if (!allowed)
        return bus_error_set(err, BUS_STATUS_FORBIDDEN, "not an admin of that domain");
    bus_db_t *db = ctx->db;
    sqlite3_stmt *stmt =
        bus_db_stmt(db, purge ? "DELETE FROM groups WHERE id = ?1"
                              : "UPDATE groups SET is_active = 0 WHERE id = ?1");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
    rc = gw_store_step(db, stmt, err);
    if (rc == BUS_OK)
        bus_log_notice("project %s id=%s by=%s", purge ? "purged" : "deactivated", id,
                       ctx->who->email);
    return rc;
}

int
gw_group_resolve(bus_db_t *db,
                 const char *group,
                 const char *domain,
                 char id[GW_UUID_SIZE],
                 bus_error_t *err)
{
    const char *params[] = {group, domain, NULL};
    bool failed = false;
    json_t *row = gw_store_one(db,
                               "SELECT id FROM groups WHERE id = ?1 OR (name = ?1 AND"
                               " domain_name = ?2) ORDER BY id = ?1 DESC LIMIT 1",
                               params, NULL, &failed);
    const char *found = json_string_value(json_object_get(row, "id"));
    int rc = found    ? BUS_OK
             : failed ? bus_error_set(err, BUS_STATUS_INTERNAL, "database error")
                      : bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such project.");
    if (found)
        snprintf(id, GW_UUID_SIZE, "%s", found);
    json_decref(row);
    return rc;
}

char *
gw_group_name(bus_db_t *db, const char *id)
{
    return gw_store_text(db, "SELECT name FROM groups WHERE id = ?1", id);
}
