/*  =========================================================================
    gw_policy - keypair, user and project resource policies

    The gateway owns the policies; every change is also a durable
    policy.changed event, written in the same transaction, so the
    scheduler and the storage-proxy keep exact copies of what they enforce.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

typedef struct {
    const char *kind;
    const char *table;
    const char *select;
    const gw_field_t *fields;
} policy_kind_t;

static const gw_field_t s_keypair_fields[] = {
    {"default_for_unspecified", GW_FIELD_TEXT},
    {"total_resource_slots", GW_FIELD_SLOTS},
    {"max_session_lifetime", GW_FIELD_INT},
    {"max_concurrent_sessions", GW_FIELD_INT},
    {"max_pending_session_count", GW_FIELD_INT},
    {"max_pending_session_resource_slots", GW_FIELD_SLOTS},
    {"max_containers_per_session", GW_FIELD_INT},
    {"idle_timeout", GW_FIELD_INT},
    {"max_vfolder_count", GW_FIELD_INT},
    {"max_vfolder_size", GW_FIELD_INT},
    {"allowed_vfolder_hosts", GW_FIELD_HOSTS},
    {NULL, 0},
};

static const gw_field_t s_user_fields[] = {
    {"max_vfolder_count", GW_FIELD_INT},
    {"max_quota_scope_size", GW_FIELD_INT},
    {"max_session_count_per_model_session", GW_FIELD_INT},
    {"max_customized_image_count", GW_FIELD_INT},
    {NULL, 0},
};

static const gw_field_t s_project_fields[] = {
    {"max_vfolder_count", GW_FIELD_INT},
    {"max_quota_scope_size", GW_FIELD_INT},
    {"max_network_count", GW_FIELD_INT},
    {NULL, 0},
};

static const policy_kind_t s_kinds[] = {
    {"keypair", "keypair_resource_policies",
     "SELECT name, created_at, default_for_unspecified, total_resource_slots,"
     " max_session_lifetime, max_concurrent_sessions, max_pending_session_count,"
     " max_pending_session_resource_slots,"
     " max_containers_per_session, idle_timeout, max_vfolder_count, max_vfolder_size,"
     " allowed_vfolder_hosts FROM keypair_resource_policies",
     s_keypair_fields},
    {"user", "user_resource_policies",
     "SELECT name, created_at, max_vfolder_count, max_quota_scope_size,"
     " max_session_count_per_model_session, max_customized_image_count"
     " FROM user_resource_policies",
     s_user_fields},
    {"project", "project_resource_policies",
     "SELECT name, created_at, max_vfolder_count, max_quota_scope_size, max_network_count"
     " FROM project_resource_policies",
     s_project_fields},
};

static const policy_kind_t *
s_kind(const char *kind, bus_error_t *err)
{
    for (size_t i = 0; i < sizeof s_kinds / sizeof s_kinds[0]; i++)
        if (strcmp(s_kinds[i].kind, kind) == 0)
            return &s_kinds[i];
    bus_error_set(err, BUS_STATUS_INVALID, "no policy kind %s", kind);
    return NULL;
}

int
gw_policy_list(gw_ctx_t *ctx, const char *kind, json_t **out, bus_error_t *err)
{
    const policy_kind_t *k = s_kind(kind, err);
    if (!k)
        return BUS_STATUS_INVALID;
    char sql[1024];
    //  Administrators see every keypair policy; anyone else those of its
    //  own keypairs, as Backend.AI answers them.
    bool own = strcmp(kind, "keypair") == 0 && ctx->who->role != GW_ROLE_SUPERADMIN &&
               ctx->who->role != GW_ROLE_ADMIN;
    snprintf(
        sql, sizeof sql, "%s%s ORDER BY name", k->select,
        own ? " WHERE name IN (SELECT resource_policy FROM keypairs WHERE user_id = ?1)"
            : "");
    const char *params[] = {ctx->who->user_uuid, NULL};
    *out = gw_store_rows(ctx->db, sql, own ? params : NULL, NULL);
    return *out ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
}

int
gw_policy_get(
    gw_ctx_t *ctx, const char *kind, const char *name, json_t **out, bus_error_t *err)
{
    const policy_kind_t *k = s_kind(kind, err);
    if (!k)
        return BUS_STATUS_INVALID;
    if (!name && strcmp(kind, "keypair") == 0)
        name = ctx->who->keypair_policy; //  "my policy"
    char sql[1024];
    snprintf(sql, sizeof sql, "%s WHERE name = ?1", k->select);
    bool failed;
    const char *params[] = {name ? name : "", NULL};
    *out = gw_store_one(ctx->db, sql, params, NULL, &failed);
    if (failed)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    return *out ? BUS_OK
                : bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such resource policy.");
}

//  Publishes the policy's new state (or its deletion) inside the open transaction.
static int
s_announce(gw_ctx_t *ctx,
           const policy_kind_t *k,
           const char *name,
           bool deleted,
           bus_error_t *err)
{
    proto_policy_changed_t event;
    proto_policy_changed_init(&event);
    event.kind = k->kind;
    event.name = name;
    event.deleted = deleted;
    char *text = NULL;
    if (!deleted) {
        json_t *policy = NULL;
        if (gw_policy_get(ctx, k->kind, name, &policy, err) != BUS_OK)
            return err->status;
        text = json_dumps(policy, JSON_COMPACT);
        json_decref(policy);
        event.policy = text;
    }
    bus_writer_t *writer = bus_writer_new();
    bool ok = writer && proto_policy_changed_write(&event, writer) == 0 &&
              bus_node_emit(ctx->node, PROTO_POLICY_CHANGED, bus_writer_data(writer),
                            bus_writer_size(writer)) != 0;
    bus_writer_destroy(&writer);
    free(text);
    return ok ? BUS_OK
              : bus_error_set(err, BUS_STATUS_INTERNAL, "cannot record the event");
}

static int
s_write(gw_ctx_t *ctx,
        const char *kind,
        const char *name,
        json_t *props,
        bool insert,
        json_t **out,
        bus_error_t *err)
{
    if (!gw_identity_is_superadmin(ctx->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only a superadmin changes policies");
    if (gw_ctx_require_node(ctx, err) != BUS_OK)
        return err->status;
    const policy_kind_t *k = s_kind(kind, err);
    if (!k)
        return BUS_STATUS_INVALID;
    if (!name || !*name || strlen(name) > 63)
        return bus_error_set(err, BUS_STATUS_INVALID, "a policy name is 1-63 characters");
    char now[40];
    gw_now_iso(now);
    json_t *fixed = insert ? json_pack("{s:s}", "created_at", now) : NULL;
    bus_node_begin(ctx->node);
    int rc = gw_store_write(ctx->db, k->table, "name", name, k->fields,
                            json_is_object(props) ? props : NULL, fixed, insert, err);
    if (rc == BUS_OK)
        rc = s_announce(ctx, k, name, false, err);
    if (rc == BUS_OK)
        bus_node_commit(ctx->node);
    else {
        bus_node_rollback(ctx->node);
    }
    json_decref(fixed);
    if (rc != BUS_OK)
        return rc;
    bus_log_notice("resource policy %s kind=%s name=%s by=%s",
                   insert ? "created" : "modified", kind, name, ctx->who->email);
    return gw_policy_get(ctx, kind, name, out, err);
}

int
gw_policy_create(gw_ctx_t *ctx,
                 const char *kind,
                 const char *name,
                 json_t *props,
                 json_t **out,
                 bus_error_t *err)
{
    return s_write(ctx, kind, name, props, true, out, err);
}

int
gw_policy_modify(gw_ctx_t *ctx,
                 const char *kind,
                 const char *name,
                 json_t *props,
                 json_t **out,
                 bus_error_t *err)
{
    return s_write(ctx, kind, name, props, false, out, err);
}

int
gw_policy_delete(gw_ctx_t *ctx, const char *kind, const char *name, bus_error_t *err)
{
    if (!gw_identity_is_superadmin(ctx->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only a superadmin changes policies");
    if (gw_ctx_require_node(ctx, err) != BUS_OK)
        return err->status;
    const policy_kind_t *k = s_kind(kind, err);
    if (!k)
        return BUS_STATUS_INVALID;
    char sql[128];
    snprintf(sql, sizeof sql, "DELETE FROM %s WHERE name = ?1", k->table);
    bus_db_t *db = ctx->db;
    sqlite3_stmt *stmt = bus_db_stmt(db, sql);
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    bus_node_begin(ctx->node);
    sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
    int rc = gw_store_step(db, stmt, err);
    if (rc == BUS_OK && sqlite3_changes(bus_db_handle(db)) == 0)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such resource policy.");
    if (rc == BUS_OK)
        rc = s_announce(ctx, k, name, true, err);
    if (rc == BUS_OK)
        bus_node_commit(ctx->node);
    else {
        bus_node_rollback(ctx->node);
    }
    if (rc == BUS_OK)
        bus_log_notice("resource policy deleted kind=%s name=%s by=%s", kind, name,
                       ctx->who->email);
    return rc;
}
