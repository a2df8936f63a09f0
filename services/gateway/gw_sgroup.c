/*  =========================================================================
    gw_sgroup - resource groups (Backend.AI "scaling groups") and who may use them

    A resource group is a partition of the agents with its own scheduler
    and agent selector. It is usable by a caller when it is active and
    associated with the caller's domain, with a project the session runs
    in, or with the caller's keypair (Backend.AI's query_allowed_sgroups).
    Only a superadmin creates, changes, deletes or associates groups.
    Reads: a superadmin sees all; a domain admin or monitor the groups
    associated with its domain, its projects or its users' keypairs; a user
    the groups it may use. The operations take a context (gw_ctx_t) and
    know nothing of HTTP: the GraphQL root fields are gw_gql_admin's, GET
    /scaling-groups and its wsproxy-version gw_rest's.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define SGROUP_COLUMNS                                                                   \
    "SELECT name, description, is_active, is_public, created_at, wsproxy_addr,"          \
    " driver, driver_opts, scheduler, scheduler_opts, use_host_network"                  \
    " FROM scaling_groups"

//  The groups a user may use: ?1 domain, ?2 user uuid, ?3 access key.
#define SGROUP_USABLE                                                                    \
    "name IN (SELECT scaling_group FROM sgroups_for_domains WHERE domain = ?1"           \
    " UNION SELECT scaling_group FROM sgroups_for_groups WHERE group_id IN"              \
    " (SELECT group_id FROM association_groups_users WHERE user_id = ?2)"                \
    " UNION SELECT scaling_group FROM sgroups_for_keypairs WHERE access_key = ?3)"

//  The groups a domain admin or monitor sees: ?1 domain.
#define SGROUP_OF_DOMAIN                                                                 \
    "name IN (SELECT scaling_group FROM sgroups_for_domains WHERE domain = ?1"           \
    " UNION SELECT s.scaling_group FROM sgroups_for_groups s"                            \
    " JOIN groups g ON g.id = s.group_id WHERE g.domain_name = ?1"                       \
    " UNION SELECT s.scaling_group FROM sgroups_for_keypairs s"                          \
    " JOIN keypairs k ON k.access_key = s.access_key"                                    \
    " JOIN users u ON u.uuid = k.user_id WHERE u.domain_name = ?1)"

static const char *const s_booleans[] = {"is_active", "is_public", "use_host_network",
                                         NULL};

static const gw_field_t s_fields[] = {
    {"description", GW_FIELD_TEXT},
    {"is_active", GW_FIELD_BOOL},
    {"is_public", GW_FIELD_BOOL},
    {"wsproxy_addr", GW_FIELD_TEXT},
    {"wsproxy_api_token", GW_FIELD_TEXT},
    {"driver", GW_FIELD_TEXT},
    {"driver_opts", GW_FIELD_JSON},
    {"scheduler", GW_FIELD_TEXT},
    {"scheduler_opts", GW_FIELD_JSON},
    {"use_host_network", GW_FIELD_BOOL},
    {NULL, 0},
};

static const char *const s_schedulers[] = {"fifo", "lifo", "drf", "priority", NULL};
static const char *const s_selectors[] = {"concentrated", "dispersed", "roundrobin",
                                          NULL};

//  One kind of association: its table, column, and what the target is.
typedef struct {
    const char *kind; //  as in the GraphQL field names
    const char *table;
    const char *column;
    const char *exists; //  SELECT 1 ... WHERE key = ?1
    const char *noun;
} sgroup_link_t;

static const sgroup_link_t s_links[] = {
    {"domain", "sgroups_for_domains", "domain", "SELECT 1 FROM domains WHERE name = ?1",
     "domain"},
    {"user_group", "sgroups_for_groups", "group_id", "SELECT 1 FROM groups WHERE id = ?1",
     "user group"},
    {"keypair", "sgroups_for_keypairs", "access_key",
     "SELECT 1 FROM keypairs WHERE access_key = ?1", "keypair"},
};

static const sgroup_link_t *
s_link(const char *kind)
{
    for (size_t i = 0; i < sizeof s_links / sizeof s_links[0]; i++)
        if (strcmp(s_links[i].kind, kind) == 0)
            return &s_links[i];
    return NULL;
}

static bool
s_in(const char *value, const char *const *set)
{
    for (int i = 0; value && set[i]; i++)
        if (strcmp(set[i], value) == 0)
            return true;
    return false;
}

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

//  True when a row answers sql with the text parameters (NULL-terminated).
static bool
s_exists(bus_db_t *db, const char *sql, const char *const *params)
{
    bool failed;
    json_t *row = gw_store_one(db, sql, params, NULL, &failed);
    bool found = row != NULL;
    json_decref(row);
    return found;
}

//  The "is_active" argument as a LIKE pattern: "1", "0", or any.
static const char *
s_active_flag(json_t *args)
{
    json_t *active = json_object_get(args, "is_active");
    return json_is_boolean(active) ? (json_is_true(active) ? "1" : "0") : "%";
}

//  Rows of SGROUP_COLUMNS WHERE where AND is_active LIKE flag, in name
//  order; where's parameters are ?1..?3, the flag is ?4.
static int
s_query(bus_db_t *db,
        const char *where,
        const char *p1,
        const char *p2,
        const char *p3,
        const char *flag,
        json_t **out,
        bus_error_t *err)
{
    char sql[2048];
    snprintf(sql, sizeof sql,
             SGROUP_COLUMNS " WHERE (%s) AND is_active LIKE ?4"
                            " ORDER BY name",
             where);
    const char *params[] = {p1 ? p1 : "", p2 ? p2 : "", p3 ? p3 : "", flag, NULL};
    *out = gw_store_rows(db, sql, params, s_booleans);
    return *out ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
}

//  The groups r's caller may see, filtered by flag.
static int
s_visible(gw_ctx_t *ctx, const char *flag, json_t **out, bus_error_t *err)
{
    if (gw_identity_is_superadmin(ctx->who))
        return s_query(ctx->db, "1", NULL, NULL, NULL, flag, out, err);
    if (gw_identity_reads_domain(ctx->who, ctx->who->domain))
        return s_query(ctx->db, SGROUP_OF_DOMAIN, ctx->who->domain, NULL, NULL, flag, out,
                       err);
    return s_query(ctx->db, SGROUP_USABLE, ctx->who->domain, ctx->who->user_uuid,
                   ctx->who->access_key, flag, out, err);
}

int
gw_sgroup_list(gw_ctx_t *ctx, json_t *args, json_t **out, bus_error_t *err)
{
    return s_visible(ctx, s_active_flag(args), out, err);
}

int
gw_sgroup_get(gw_ctx_t *ctx, const char *name, json_t **out, bus_error_t *err)
{
    if (!name)
        return bus_error_set(err, BUS_STATUS_INVALID, "name is required");
    json_t *all = NULL;
    int rc = s_visible(ctx, "%", &all, err);
    if (rc != BUS_OK)
        return rc;
    *out = NULL;
    size_t index;
    json_t *group;
    json_array_foreach(all, index, group)
    {
        if (strcmp(json_string_value(json_object_get(group, "name")), name) == 0)
            *out = json_incref(group);
    }
    json_decref(all);
    return *out ? BUS_OK
                : bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such scaling group.");
}

//  The domain of a project or keypair, for the read rights of the *_for_*
//  fields; member is set when the caller belongs to it (project) or owns it
//  (keypair). NOT_FOUND when there is no such target.
static int
s_target_domain(gw_ctx_t *ctx,
                const sgroup_link_t *link,
                const char *target,
                char domain[GW_NAME_MAX],
                bool *member,
                bus_error_t *err)
{
    *member = false;
    if (strcmp(link->kind, "domain") == 0) {
        snprintf(domain, GW_NAME_MAX, "%s", target);
        *member = strcmp(target, ctx->who->domain) == 0;
        return BUS_OK;
    }
    const char *sql = strcmp(link->kind, "user_group") == 0
                          ? "SELECT domain_name, EXISTS (SELECT 1 FROM "
                            "association_groups_users WHERE group_id = ?1 AND user_id = "
                            "?2) AS member FROM groups WHERE id = ?1"
                          : "SELECT u.domain_name, u.uuid = ?2 AS member FROM keypairs k"
                            " JOIN users u ON u.uuid = k.user_id WHERE k.access_key = ?1";
    const char *params[] = {target, ctx->who->user_uuid, NULL};
    bool failed;
    json_t *row = gw_store_one(ctx->db, sql, params, NULL, &failed);
    if (failed)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    if (!row)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such %s.", link->noun);
    snprintf(domain, GW_NAME_MAX, "%s",
             json_string_value(json_object_get(row, "domain_name")));
    *member = json_integer_value(json_object_get(row, "member")) != 0;
    json_decref(row);
    return BUS_OK;
}

int
gw_sgroup_list_for(gw_ctx_t *ctx,
                   const char *kind,
                   const char *target,
                   json_t *args,
                   json_t **out,
                   bus_error_t *err)
{
    const sgroup_link_t *link = s_link(kind);
    if (!link)
        return bus_error_set(err, BUS_STATUS_INVALID, "no association kind %s", kind);
    if (!target)
        return bus_error_set(err, BUS_STATUS_INVALID, "%s is required", kind);
    char domain[GW_NAME_MAX];
    bool member;
    int rc = s_target_domain(ctx, link, target, domain, &member, err);
    if (rc != BUS_OK)
        return rc;
    if (!member && !gw_identity_reads_domain(ctx->who, domain))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN, "not your %s", link->noun);
    char where[256];
    snprintf(where, sizeof where, "name IN (SELECT scaling_group FROM %s WHERE %s = ?1)",
             link->table, link->column);
    return s_query(ctx->db, where, target, NULL, NULL, s_active_flag(args), out, err);
}

//  Checks and rewrites the props a client may send: the options as JSON
//  text (a JSONString, an object, or the text "null" for none), the
//  scheduler and the agent selector among the known ones. Returns a new
//  object (caller owns it) or NULL with err.
static json_t *
s_clean_props(json_t *props, bus_error_t *err)
{
    if (props && !json_is_object(props) && !json_is_null(props)) {
        bus_error_set(err, BUS_STATUS_INVALID, "props: expected an object");
        return NULL;
    }
    json_t *fields = json_is_object(props) ? json_deep_copy(props) : json_object();
    const char *scheduler = json_string_value(json_object_get(fields, "scheduler"));
    if (scheduler && !s_in(scheduler, s_schedulers)) {
        bus_error_set(err, BUS_STATUS_INVALID,
                      "scheduler must be one of fifo, lifo, drf, priority");
        json_decref(fields);
        return NULL;
    }
    const char *opts_names[] = {"driver_opts", "scheduler_opts"};
    for (int i = 0; i < 2; i++) {
        json_t *value = json_object_get(fields, opts_names[i]);
        if (!value || json_is_null(value))
            continue;
        json_t *parsed = json_is_string(value)
                             ? json_loads(json_string_value(value), JSON_DECODE_ANY, NULL)
                             : json_incref(value);
        if (json_is_null(parsed)) {
            json_decref(parsed);
            parsed = json_object();
        }
        const char *selector =
            json_string_value(json_object_get(parsed, "agent_selector"));
        bool bad_selector = i == 1 && json_object_get(parsed, "agent_selector") &&
                            !s_in(selector, s_selectors);
        if (!json_is_object(parsed) || bad_selector) {
            bus_error_set(err, BUS_STATUS_INVALID,
                          bad_selector ? "%s: agent_selector must be one of concentrated,"
                                         " dispersed, roundrobin"
                                       : "%s: expected a JSON object",
                          opts_names[i]);
            json_decref(parsed);
            json_decref(fields);
            return NULL;
        }
        json_object_set_new(fields, opts_names[i], parsed);
    }
    return fields;
}

//  Publishes the group's scheduling rules (or its deletion) as the durable
//  policy.scaling_group, inside the open transaction, for the scheduler.
static int
s_announce(gw_ctx_t *ctx, const char *name, bool deleted, bus_error_t *err)
{
    proto_policy_scaling_group_t event;
    proto_policy_scaling_group_init(&event);
    event.name = name;
    event.deleted = deleted;
    const char *params[] = {name, NULL};
    bool failed = false;
    json_t *row = deleted ? NULL
                          : gw_store_one(ctx->db,
                                         "SELECT scheduler, scheduler_opts"
                                         " FROM scaling_groups WHERE name = ?1",
                                         params, NULL, &failed);
    if (failed || (!deleted && !row))
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read scaling group %s",
                             name);
    event.scheduler = json_string_value(json_object_get(row, "scheduler"));
    event.scheduler_opts = json_string_value(json_object_get(row, "scheduler_opts"));
    bus_writer_t *writer = bus_writer_new();
    bool ok = writer && proto_policy_scaling_group_write(&event, writer) == 0 &&
              bus_node_emit(ctx->node, PROTO_POLICY_SCALING_GROUP,
                            bus_writer_data(writer), bus_writer_size(writer)) != 0;
    bus_writer_destroy(&writer);
    json_decref(row);
    return ok ? BUS_OK
              : bus_error_set(err, BUS_STATUS_INTERNAL, "cannot record the event");
}

//  Runs a write of scaling group name and its announcement in one
//  transaction.
static int
s_commit_announced(
    gw_ctx_t *ctx, const char *name, bool deleted, int rc, bus_error_t *err)
{
    if (rc == BUS_OK)
        rc = s_announce(ctx, name, deleted, err);
    if (rc == BUS_OK && bus_node_commit(ctx->node) != 0)
        rc = bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot commit");
    else if (rc != BUS_OK)
        bus_node_rollback(ctx->node);
    return rc;
}

int
gw_sgroup_create(
    gw_ctx_t *ctx, const char *name, json_t *props, json_t **out, bus_error_t *err)
{
    if (!gw_identity_is_superadmin(ctx->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only a superadmin creates scaling groups");
    if (gw_ctx_require_node(ctx, err) != BUS_OK)
        return err->status;
    if (!s_valid_name(name))
        return bus_error_set(
            err, BUS_STATUS_INVALID,
            "a scaling group name is 1-63 letters, digits, '-', '_' or '.'");
    json_t *fields = s_clean_props(props, err);
    if (!fields)
        return err->status;
    char now[40];
    gw_now_iso(now);
    json_t *fixed = json_pack("{s:s}", "created_at", now);
    bus_node_begin(ctx->node);
    int rc = gw_store_write(ctx->db, "scaling_groups", "name", name, s_fields, fields,
                            fixed, true, err);
    rc = s_commit_announced(ctx, name, false, rc, err);
    json_decref(fixed);
    json_decref(fields);
    if (rc == BUS_STATUS_CONFLICT)
        return bus_error_set(err, rc, "scaling group %s already exists", name);
    if (rc != BUS_OK)
        return rc;
    bus_log_notice("scaling group created name=%s by=%s", name, ctx->who->email);
    return gw_sgroup_get(ctx, name, out, err);
}

int
gw_sgroup_modify(
    gw_ctx_t *ctx, const char *name, json_t *props, json_t **out, bus_error_t *err)
{
    if (!gw_identity_is_superadmin(ctx->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only a superadmin modifies scaling groups");
    if (gw_ctx_require_node(ctx, err) != BUS_OK)
        return err->status;
    if (!name)
        return bus_error_set(err, BUS_STATUS_INVALID, "name is required");
    json_t *fields = s_clean_props(props, err);
    if (!fields)
        return err->status;
    const char *params[] = {name, NULL};
    int rc = BUS_OK;
    bus_node_begin(ctx->node);
    if (!s_exists(ctx->db, "SELECT 1 FROM scaling_groups WHERE name = ?1", params))
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such scaling group.");
    else
        rc = gw_store_write(ctx->db, "scaling_groups", "name", name, s_fields, fields,
                            NULL, false, err);
    rc = s_commit_announced(ctx, name, false, rc, err);
    json_decref(fields);
    if (rc != BUS_OK)
        return rc;
    bus_log_notice("scaling group modified name=%s by=%s", name, ctx->who->email);
    return gw_sgroup_get(ctx, name, out, err);
}

int
gw_sgroup_delete(gw_ctx_t *ctx, const char *name, bus_error_t *err)
{
    if (!gw_identity_is_superadmin(ctx->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only a superadmin deletes scaling groups");
    if (gw_ctx_require_node(ctx, err) != BUS_OK)
        return err->status;
    bus_node_begin(ctx->node);
    int rc = gw_store_delete(ctx->db, "scaling_groups", "name", name,
                             "No such scaling group.", err);
    rc = s_commit_announced(ctx, name, true, rc, err);
    if (rc == BUS_OK)
        bus_log_notice("scaling group deleted name=%s by=%s", name, ctx->who->email);
    return rc;
}

int
gw_sgroup_associate(gw_ctx_t *ctx,
                    const char *kind,
                    const char *sgroup,
                    const char *target,
                    bool associate,
                    bus_error_t *err)
{
    const sgroup_link_t *link = s_link(kind);
    if (!link)
        return bus_error_set(err, BUS_STATUS_INVALID, "no association kind %s", kind);
    if (!gw_identity_is_superadmin(ctx->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only a superadmin associates scaling groups");
    if (!target || (!sgroup && associate))
        return bus_error_set(err, BUS_STATUS_INVALID, "scaling_group and %s are required",
                             kind);
    bus_db_t *db = ctx->db;
    const char *sgroup_params[] = {sgroup, NULL}, *target_params[] = {target, NULL};
    if (associate) {
        if (!s_exists(db, "SELECT 1 FROM scaling_groups WHERE name = ?1", sgroup_params))
            return bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such scaling group.");
        if (!s_exists(db, link->exists, target_params))
            return bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such %s.", link->noun);
    }
    //  sgroup NULL: every group of target (disassociate_all_*).
    char sql[256];
    if (associate)
        snprintf(sql, sizeof sql, "INSERT INTO %s (scaling_group, %s) VALUES (?1, ?2)",
                 link->table, link->column);
    else
        snprintf(sql, sizeof sql,
                 "DELETE FROM %s WHERE (?1 IS NULL OR scaling_group = ?1) AND %s = ?2",
                 link->table, link->column);
    sqlite3_stmt *stmt = bus_db_stmt(db, sql);
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    if (sgroup)
        sqlite3_bind_text(stmt, 1, sgroup, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(stmt, 1);
    sqlite3_bind_text(stmt, 2, target, -1, SQLITE_TRANSIENT);
    int rc = gw_store_step(db, stmt, err);
    if (rc == BUS_STATUS_CONFLICT)
        return bus_error_set(err, rc, "scaling group %s is already associated with %s %s",
                             sgroup, link->noun, target);
    if (rc == BUS_OK)
        bus_log_notice("scaling group %s name=%s %s=%s by=%s",
                       associate ? "associated" : "disassociated", sgroup ? sgroup : "*",
                       kind, target, ctx->who->email);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Who may use which

//  The project named by id or (in the caller's domain) by name, if the
//  caller may use it: a member, an admin of its domain, or a superadmin.
static int
s_usable_project(gw_ctx_t *ctx,
                 const char *group,
                 char id[GW_UUID_SIZE],
                 bus_error_t *err)
{
    const char *params[] = {group, ctx->who->domain, ctx->who->user_uuid, NULL};
    bool failed;
    json_t *row = gw_store_one(
        ctx->db,
        "SELECT id, domain_name, EXISTS (SELECT 1 FROM association_groups_users a"
        " WHERE a.group_id = groups.id AND a.user_id = ?3) AS member FROM groups"
        " WHERE id = ?1 OR (name = ?1 AND domain_name = ?2) ORDER BY id = ?1 DESC LIMIT "
        "1",
        params, NULL, &failed);
    if (failed)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    bool allowed =
        row && (json_integer_value(json_object_get(row, "member")) != 0 ||
                gw_identity_admins_domain(
                    ctx->who, json_string_value(json_object_get(row, "domain_name"))));
    if (allowed)
        snprintf(id, GW_UUID_SIZE, "%s", json_string_value(json_object_get(row, "id")));
    json_decref(row);
    return allowed ? BUS_OK
                   : bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such project.");
}

int
gw_sgroup_usable(gw_ctx_t *ctx,
                 const char *group,
                 char project_id[GW_UUID_SIZE],
                 json_t **names,
                 bus_error_t *err)
{
    *names = NULL;
    int rc = s_usable_project(ctx, group, project_id, err);
    json_t *rows = NULL;
    if (rc == BUS_OK) {
        const char *where =
            "name IN (SELECT scaling_group FROM sgroups_for_domains WHERE domain = ?1"
            " UNION SELECT scaling_group FROM sgroups_for_groups WHERE group_id = ?2"
            " UNION SELECT scaling_group FROM sgroups_for_keypairs WHERE access_key = "
            "?3)";
        rc = s_query(ctx->db, where, ctx->who->domain, project_id, ctx->who->access_key,
                     "1", &rows, err);
    }
    if (rc != BUS_OK)
        return rc;
    *names = json_array();
    size_t index;
    json_t *row;
    json_array_foreach(rows, index, row)
        json_array_append(*names, json_object_get(row, "name"));
    json_decref(rows);
    return BUS_OK;
}
