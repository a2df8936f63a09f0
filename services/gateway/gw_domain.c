/*  =========================================================================
    gw_domain - domains: list, read, create, modify, deactivate, purge

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define DOMAIN_COLUMNS                                                                   \
    "SELECT name, description, is_active, created_at, modified_at,"                      \
    " total_resource_slots, allowed_vfolder_hosts, allowed_docker_registries,"           \
    " integration_id FROM domains"

static const char *const s_booleans[] = {"is_active", NULL};

static const gw_field_t s_fields[] = {
    {"description", GW_FIELD_TEXT},
    {"is_active", GW_FIELD_BOOL},
    {"total_resource_slots", GW_FIELD_SLOTS},
    {"allowed_vfolder_hosts", GW_FIELD_HOSTS},
    {"allowed_docker_registries", GW_FIELD_JSON},
    {"integration_id", GW_FIELD_TEXT},
    {NULL, 0},
};

int
gw_domain_list(gw_ctx_t *ctx, json_t *args, json_t **out, bus_error_t *err)
{
    bus_db_t *db = ctx->db;
    json_t *active = json_object_get(args, "is_active");
    const char *flag = json_is_boolean(active) ? (json_is_true(active) ? "1" : "0") : "%";
    if (gw_identity_is_superadmin(ctx->who)) {
        const char *params[] = {flag, NULL};
        *out = gw_store_rows(db, DOMAIN_COLUMNS " WHERE is_active LIKE ?1 ORDER BY name",
                             params, s_booleans);
    } else {
        //  Everyone else sees their own domain only.
        const char *params[] = {flag, ctx->who->domain, NULL};
        *out = gw_store_rows(db, DOMAIN_COLUMNS " WHERE is_active LIKE ?1 AND name = ?2",
                             params, s_booleans);
    }
    return *out ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
}

int
gw_domain_get(gw_ctx_t *ctx, const char *name, json_t **out, bus_error_t *err)
{
    if (!name)
        name = ctx->who->domain;
    if (!gw_identity_is_superadmin(ctx->who) && strcmp(name, ctx->who->domain) != 0)
        return bus_error_set(err, BUS_STATUS_FORBIDDEN, "not your domain");
    bool failed;
    const char *params[] = {name, NULL};
    *out = gw_store_one(ctx->db, DOMAIN_COLUMNS " WHERE name = ?1", params, s_booleans,
                        &failed);
    if (failed)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    return *out ? BUS_OK : bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such domain.");
}

static bool
s_valid_name(const char *name)
{
    if (!name || !*name || strlen(name) > 63)
        return false;
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char) *p) && *p != '-' && *p != '_' && *p != '.')
            return false;
    return true;
}

int
gw_domain_create(
    gw_ctx_t *ctx, const char *name, json_t *props, json_t **out, bus_error_t *err)
{
    if (!gw_identity_is_superadmin(ctx->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only a superadmin creates domains");
    if (!s_valid_name(name))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "a domain name is 1-63 letters, digits, '-', '_' or '.'");
    char now[40];
    gw_now_iso(now);
    json_t *fixed = json_pack("{s:s, s:s}", "created_at", now, "modified_at", now);
    bus_db_t *db = ctx->db;
    int rc =
        gw_store_write(db, "domains", "name", name, s_fields, props, fixed, true, err);
    json_decref(fixed);
    if (rc != BUS_OK)
        return rc;
    bus_log_notice("domain created name=%s by=%s", name, ctx->who->email);
    return gw_domain_get(ctx, name, out, err);
}

int
gw_domain_modify(
    gw_ctx_t *ctx, const char *name, json_t *props, json_t **out, bus_error_t *err)
{
    if (!gw_identity_is_superadmin(ctx->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only a superadmin modifies domains");
    //  A rename travels as props.name; the rest are plain fields.
    json_t *fields = json_deep_copy(props ? props : json_null());
    const char *rename = json_string_value(json_object_get(fields, "name"));
    char new_name[64] = "";
    if (rename) {
        if (!s_valid_name(rename)) {
            json_decref(fields);
            return bus_error_set(err, BUS_STATUS_INVALID, "invalid new domain name");
        }
        snprintf(new_name, sizeof new_name, "%s", rename);
        json_object_del(fields, "name");
    }
    char now[40];
    gw_now_iso(now);
    json_t *fixed = json_pack("{s:s}", "modified_at", now);
    if (*new_name)
        json_object_set_new(fixed, "name", json_string(new_name));
    int rc = gw_store_write(ctx->db, "domains", "name", name, s_fields,
                            json_is_object(fields) ? fields : NULL, fixed, false, err);
    json_decref(fixed);
    json_decref(fields);
    if (rc != BUS_OK)
        return rc;
    bus_log_notice("domain modified name=%s by=%s", name, ctx->who->email);
    return gw_domain_get(ctx, *new_name ? new_name : name, out, err);
}

int
gw_domain_delete(gw_ctx_t *ctx, const char *name, bool purge, bus_error_t *err)
{
    if (!gw_identity_is_superadmin(ctx->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only a superadmin deletes domains");
    bus_db_t *db = ctx->db;
    sqlite3_stmt *stmt;
    if (purge) {
        //  Purging is only for an empty domain: users and projects go first.
        stmt =
            bus_db_stmt(db, "SELECT (SELECT count(*) FROM users WHERE domain_name = ?1) +"
                            " (SELECT count(*) FROM groups WHERE domain_name = ?1)");
        if (!stmt)
            return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
        sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
        int64_t members =
            sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : 0;
        sqlite3_reset(stmt);
        if (members > 0)
            return bus_error_set(
                err, BUS_STATUS_CONFLICT,
                "the domain still has users or projects; purge them first");
        stmt = bus_db_stmt(db, "DELETE FROM domains WHERE name = ?1");
    } else
        stmt = bus_db_stmt(db, "UPDATE domains SET is_active = 0 WHERE name = ?1");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
    int rc = gw_store_step(db, stmt, err);
    if (rc == BUS_OK && sqlite3_changes(bus_db_handle(db)) == 0)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such domain.");
    if (rc == BUS_OK)
        bus_log_notice("domain %s name=%s by=%s", purge ? "purged" : "deactivated", name,
                       ctx->who->email);
    return rc;
}
