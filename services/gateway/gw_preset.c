/*  =========================================================================
    gw_preset - resource presets: named slot maps users pick sessions from

    A preset holds a resource slot map, normalized by bus_slots when written
    (so "mem": "1g" is stored and shown as "1073741824"), an optional shared
    memory size in bytes, and optionally the resource group it belongs to
    (none: every group). Superadmins write; everyone reads. The operations
    take a context (gw_ctx_t): GraphQL (gw_gql_admin) shows resource_slots
    as a JSONString and shared_memory as a decimal string; GET
    /resource/presets (gw_rest) shows the slots as an object. POST
    /resource/check-presets is gw_check_presets.c.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define PRESET_COLUMNS                                                                   \
    "SELECT name, resource_slots, CAST(shared_memory AS TEXT) AS shared_memory,"         \
    " scaling_group_name FROM resource_presets"

static bool
s_valid_name(const char *name)
{
    if (!name || !*name || strlen(name) > GW_NAME_MAX - 1)
        return false;
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char) *p) && *p != '-' && *p != '_' && *p != '.')
            return false;
    return true;
}

int
gw_preset_list(gw_ctx_t *ctx, const char *scaling_group, json_t **out, bus_error_t *err)
{
    //  Every caller reads every preset.
    const char *params[] = {scaling_group, NULL};
    *out = gw_store_rows(ctx->db,
                         scaling_group ? PRESET_COLUMNS
                             " WHERE scaling_group_name IS NULL"
                             " OR scaling_group_name = ?1 ORDER BY name"
                                       : PRESET_COLUMNS " ORDER BY name",
                         scaling_group ? params : NULL, NULL);
    return *out ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
}

int
gw_preset_get(gw_ctx_t *ctx, const char *name, json_t **out, bus_error_t *err)
{
    if (!name)
        return bus_error_set(err, BUS_STATUS_INVALID, "name is required");
    const char *params[] = {name, NULL};
    bool failed;
    *out =
        gw_store_one(ctx->db, PRESET_COLUMNS " WHERE name = ?1", params, NULL, &failed);
    if (failed)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    return *out ? BUS_OK
                : bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such resource preset.");
}

//  Validates props and writes the preset: an INSERT (create) or an UPDATE
//  of the fields sent. Unknown fields are refused.
static int
s_write(gw_ctx_t *ctx, const char *name, json_t *props, bool create, bus_error_t *err)
{
    if (props && !json_is_object(props) && !json_is_null(props))
        return bus_error_set(err, BUS_STATUS_INVALID, "props: expected an object");
    bus_db_t *db = ctx->db;
    const char *key;
    json_t *value;
    json_object_foreach(props, key, value)
    {
        if (strcmp(key, "resource_slots") != 0 && strcmp(key, "shared_memory") != 0 &&
            strcmp(key, "scaling_group_name") != 0)
            return bus_error_set(err, BUS_STATUS_INVALID, "unknown field '%.64s'", key);
    }
    json_t *slots_in = json_object_get(props, "resource_slots");
    json_t *shmem_in = json_object_get(props, "shared_memory");
    json_t *sgroup_in = json_object_get(props, "scaling_group_name");
    bool has_slots = slots_in && !json_is_null(slots_in);
    bool has_shmem = shmem_in && !json_is_null(shmem_in);
    bool has_sgroup = sgroup_in && !json_is_null(sgroup_in);
    if (create && !has_slots)
        return bus_error_set(err, BUS_STATUS_INVALID, "resource_slots is required");
    if (has_sgroup && !json_is_string(sgroup_in))
        return bus_error_set(err, BUS_STATUS_INVALID, "scaling_group_name: wrong type");
    char *slots_text = NULL;
    if (has_slots) {
        json_t *slots = NULL;
        int rc = bus_slots_parse(slots_in, &slots, err);
        if (rc != BUS_OK)
            return rc;
        slots_text = json_dumps(slots, JSON_COMPACT);
        json_decref(slots);
        if (!slots_text)
            return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    int64_t shmem = 0;
    int rc = has_shmem ? bus_slots_parse_bytes("shared_memory", shmem_in, &shmem, err)
                       : BUS_OK;
    if (rc == BUS_OK && has_sgroup) {
        const char *params[] = {json_string_value(sgroup_in), NULL};
        bool failed;
        json_t *row = gw_store_one(db, "SELECT 1 FROM scaling_groups WHERE name = ?1",
                                   params, NULL, &failed);
        if (!row)
            rc = failed
                     ? bus_error_set(err, BUS_STATUS_INTERNAL, "database error")
                     : bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such scaling group.");
        json_decref(row);
    }
    sqlite3_stmt *stmt = NULL;
    if (rc == BUS_OK) {
        //  Unsent fields keep their value (?n IS NULL), or start NULL.
        stmt = bus_db_stmt(
            db, create
                    ? "INSERT INTO resource_presets (name, resource_slots, shared_memory,"
                      " scaling_group_name) VALUES (?1, ?2, ?3, ?4)"
                    : "UPDATE resource_presets SET"
                      " resource_slots = coalesce(?2, resource_slots),"
                      " shared_memory = coalesce(?3, shared_memory),"
                      " scaling_group_name = coalesce(?4, scaling_group_name)"
                      " WHERE name = ?1");
        if (!stmt)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    }
    if (rc == BUS_OK) {
        sqlite3_bind_text(stmt, 1, name, -1, SQLITE_TRANSIENT);
        if (slots_text)
            sqlite3_bind_text(stmt, 2, slots_text, -1, SQLITE_TRANSIENT);
        else
            sqlite3_bind_null(stmt, 2);
        if (has_shmem)
            sqlite3_bind_int64(stmt, 3, shmem);
        else
            sqlite3_bind_null(stmt, 3);
        if (has_sgroup)
            sqlite3_bind_text(stmt, 4, json_string_value(sgroup_in), -1,
                              SQLITE_TRANSIENT);
        else
            sqlite3_bind_null(stmt, 4);
        rc = gw_store_step(db, stmt, err);
        if (rc == BUS_STATUS_CONFLICT && create)
            rc = bus_error_set(err, rc, "resource preset %s already exists", name);
        else if (rc == BUS_OK && !create && sqlite3_changes(bus_db_handle(db)) == 0)
            rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such resource preset.");
    }
    free(slots_text);
    return rc;
}

int
gw_preset_create(
    gw_ctx_t *ctx, const char *name, json_t *props, json_t **out, bus_error_t *err)
{
    if (!gw_identity_is_superadmin(ctx->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only a superadmin creates resource presets");
    if (!s_valid_name(name))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "a preset name is 1-63 letters, digits, '-', '_' or '.'");
    int rc = s_write(ctx, name, props, true, err);
    if (rc != BUS_OK)
        return rc;
    bus_log_notice("resource preset created name=%s by=%s", name, ctx->who->email);
    return gw_preset_get(ctx, name, out, err);
}

int
gw_preset_modify(
    gw_ctx_t *ctx, const char *name, json_t *props, json_t **out, bus_error_t *err)
{
    if (!gw_identity_is_superadmin(ctx->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only a superadmin modifies resource presets");
    if (!name)
        return bus_error_set(err, BUS_STATUS_INVALID, "name is required");
    int rc = s_write(ctx, name, props, false, err);
    if (rc != BUS_OK)
        return rc;
    bus_log_notice("resource preset modified name=%s by=%s", name, ctx->who->email);
    return gw_preset_get(ctx, name, out, err);
}

int
gw_preset_delete(gw_ctx_t *ctx, const char *name, bus_error_t *err)
{
    if (!gw_identity_is_superadmin(ctx->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only a superadmin deletes resource presets");
    int rc = gw_store_delete(ctx->db, "resource_presets", "name", name,
                             "No such resource preset.", err);
    if (rc == BUS_OK)
        bus_log_notice("resource preset deleted name=%s by=%s", name, ctx->who->email);
    return rc;
}
