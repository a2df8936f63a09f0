/*  =========================================================================
    gw_vfolder - virtual folders as the gateway keeps them: who owns each,
    who else may reach it and how, and how the API shows them

    Every way of reaching folders is one SQL view of the caller (S_REACH):
    one row per (folder, way), ranked as the header orders them; a lookup
    takes the best rank. The API's views are built from the row and the
    way it was reached, never from a second query.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  Statuses in which a folder counts against its owner's limit.
#define S_LIVE "('ready', 'cloning', 'delete-pending')"

//  ?1 the caller's user, ?2 its role, ?3 its domain. rank: 0 owner,
//  1 invited, 2 project member (or any user of the domain, read-only, for
//  a model folder of its model store, as Backend.AI makes every user a
//  member of that project: store 1 marks that way), 3 admin. A superadmin
//  reaches everything, a domain admin everything of its domain. Of several
//  ways to reach a folder the closest counts (owner, invited, member, the
//  store, admin), except that an admin acts as the owner of its domain's
//  project folders even when it is a member of the project too (otherwise
//  it could never share or remove a project folder it made). The store's
//  reach sorts after real membership, so a member of the store's project
//  gets its real permission, and a lookup by name (ORDER BY b.rank,
//  b.store) takes the caller's own project folder before a store folder of
//  the same name. best's key is unique per way, then the widest
//  permission, so the bare columns next to min() come from one known row.
#define S_REACH                                                                          \
    "WITH reach(id, perm, owner, rank, store) AS ("                                      \
    "  SELECT id, 'wd', 1, 0, 0 FROM vfolders WHERE user_uuid = ?1"                      \
    "  UNION ALL SELECT vfolder_id, permission, 0, 1, 0 FROM vfolder_permissions"        \
    "    WHERE user_uuid = ?1"                                                           \
    "  UNION ALL SELECT v.id, v.permission, 0, 2, 0 FROM vfolders v"                     \
    "    JOIN association_groups_users a ON a.group_id = v.group_id AND a.user_id = ?1"  \
    "  UNION ALL SELECT v.id, 'ro', 0, 2, 1 FROM vfolders v JOIN groups g"               \
    "    ON g.id = v.group_id AND g.type = '" GW_MODEL_STORE_PROJECT "'"                 \
    "    AND g.domain_name = ?3 WHERE v.usage_mode = 'model'"                            \
    "  UNION ALL SELECT id, 'wd', ownership_type = 'group', 3, 0 FROM vfolders"          \
    "    WHERE ?2 = 'superadmin' OR (?2 = 'admin' AND domain_name = ?3)),"               \
    " best AS (SELECT id, perm, owner, rank, store,"                                     \
    "   min((CASE WHEN rank = 0 THEN 0 WHEN rank = 3 AND owner THEN 1 ELSE rank + 1 "    \
    "END)"                                                                               \
    "       * 8 + store * 4 + CASE perm WHEN 'wd' THEN 0 WHEN 'rw' THEN 1 ELSE 2 END)"   \
    "   FROM reach GROUP BY id)"                                                         \
    " SELECT v.id, v.name, v.host, v.domain_name, v.usage_mode, v.permission,"           \
    " v.ownership_type, v.user_uuid, v.group_id, v.creator, v.cloneable, v.status,"      \
    " v.max_size, v.created_at, v.last_used, g.name AS group_name,"                      \
    " u.email AS user_email, b.perm AS reached_perm, b.owner AS reached_owner,"          \
    " b.rank AS reached_rank"                                                            \
    " FROM best b JOIN vfolders v ON v.id = b.id"                                        \
    " LEFT JOIN groups g ON g.id = v.group_id LEFT JOIN users u ON u.uuid = v.user_uuid"

static const char *const s_booleans[] = {"cloneable", "reached_owner", NULL};

gw_vfolder_perm_t
gw_vfolder_shown_perm(const gw_vfolder_t *folder)
{
    return folder->is_owner && folder->innate ? folder->innate : folder->perm;
}

const char *
gw_vfolder_perm_str(gw_vfolder_perm_t perm)
{
    return perm == GW_VFOLDER_RO   ? "ro"
           : perm == GW_VFOLDER_RW ? "rw"
           : perm == GW_VFOLDER_WD ? "wd"
                                   : NULL;
}

gw_vfolder_perm_t
gw_vfolder_perm_parse(const char *text)
{
    if (!text)
        return 0;
    return strcmp(text, "ro") == 0   ? GW_VFOLDER_RO
           : strcmp(text, "rw") == 0 ? GW_VFOLDER_RW
           : strcmp(text, "wd") == 0 ? GW_VFOLDER_WD
                                     : 0;
}

bool
gw_vfolder_name_valid(const char *name)
{
    //  Names a kernel's home already uses for itself (Backend.AI's reserved
    //  folders); shell start-up files are refused by the pattern below.
    static const char *const reserved[] = {".terminfo",  ".jupyter", ".ssh",
                                           ".local",     ".config",  ".cache",
                                           ".tmux.conf", NULL};
    size_t len = name ? strlen(name) : 0;
    if (len == 0 || len > GW_VFOLDER_NAME_MAX || strcmp(name, ".") == 0 ||
        strcmp(name, "..") == 0)
        return false;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char) *c) && *c != '.' && *c != '_' && *c != '-')
            return false;
    for (const char *const *r = reserved; *r; r++)
        if (strcmp(name, *r) == 0)
            return false;
    //  .bashrc, .profile-like .xxx_profile
    if (name[0] == '.' && ((len > 3 && strcmp(name + len - 2, "rc") == 0) ||
                           (len > 9 && strcmp(name + len - 8, "_profile") == 0)))
        return false;
    return true;
}

bool
gw_vfolder_id_normal(const char *text, char out[GW_VFOLDER_ID_SIZE])
{
    size_t n = 0, len = text ? strlen(text) : 0;
    if (len != 32 && len != 36)
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (len == 36 && (i == 8 || i == 13 || i == 18 || i == 23)) {
            if (c != '-')
                return false;
            continue;
        }
        if (!isxdigit((unsigned char) c))
            return false;
        out[n++] = (char) tolower((unsigned char) c);
    }
    out[n] = '\0';
    return n == 32;
}

//  Fills folder from a row of S_REACH (stolen).
static void
s_from_row(gw_vfolder_t *folder, json_t *row)
{
    memset(folder, 0, sizeof *folder);
    folder->row = row;
    snprintf(folder->id, sizeof folder->id, "%s",
             json_string_value(json_object_get(row, "id")));
    folder->name = json_string_value(json_object_get(row, "name"));
    folder->host = json_string_value(json_object_get(row, "host"));
    folder->perm =
        gw_vfolder_perm_parse(json_string_value(json_object_get(row, "reached_perm")));
    folder->innate =
        gw_vfolder_perm_parse(json_string_value(json_object_get(row, "permission")));
    folder->is_owner = json_is_true(json_object_get(row, "reached_owner"));
    folder->admin = json_integer_value(json_object_get(row, "reached_rank")) == 3;
}

static void
s_caller(gw_ctx_t *ctx, const char **params)
{
    params[0] = ctx->who->user_uuid;
    params[1] = gw_role_str(ctx->who->role);
    params[2] = ctx->who->domain;
}

int
gw_vfolder_find(gw_ctx_t *ctx,
                const char *name_or_id,
                const char *status,
                gw_vfolder_t *out,
                bus_error_t *err)
{
    memset(out, 0, sizeof *out);
    char id[GW_VFOLDER_ID_SIZE] = "";
    if (!gw_vfolder_id_normal(name_or_id, id))
        *id = '\0';
    const char *params[7];
    s_caller(ctx, params);
    params[3] = name_or_id ? name_or_id : "";
    params[4] = id;
    params[5] = status;
    params[6] = NULL;
    //  A name an owner uses once; reached through two projects it is the
    //  oldest folder that answers.
    json_t *rows =
        gw_store_rows(ctx->db,
                      S_REACH " WHERE (v.name = ?4 OR v.id = ?5) AND v.status = ?6"
                              " ORDER BY v.id = ?5 DESC, b.rank, b.store, v.created_at,"
                              " v.id"
                              " LIMIT 1",
                      params, s_booleans);
    if (!rows)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the folders");
    if (json_array_size(rows) == 0) {
        json_decref(rows);
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such virtual folder: %s",
                             name_or_id ? name_or_id : "");
    }
    s_from_row(out, json_incref(json_array_get(rows, 0)));
    json_decref(rows);
    return BUS_OK;
}

void
gw_vfolder_clear(gw_vfolder_t *folder)
{
    json_decref(folder->row);
    memset(folder, 0, sizeof *folder);
}

bool
gw_vfolder_reach(gw_request_t *r,
                 const char *name_or_id,
                 const char *status,
                 gw_vfolder_perm_t perm,
                 bool owner,
                 gw_vfolder_t *out)
{
    bus_error_t err = {0};
    if (gw_vfolder_find(gw_request_ctx(r), name_or_id, status, out, &err) != BUS_OK) {
        gw_reply_problem(r,
                         err.status == BUS_STATUS_NOT_FOUND ? "object-not-found"
                                                            : "internal-server-error",
                         err.detail);
        return false;
    }
    bool allowed = out->perm >= perm && (!owner || out->is_owner || out->admin);
    if (!allowed) {
        char detail[256];
        snprintf(detail, sizeof detail,
                 owner ? "only the owner of the virtual folder %s may do this"
                       : "the virtual folder %s is shared with you read-only",
                 out->name);
        if (!owner && perm == GW_VFOLDER_WD)
            snprintf(detail, sizeof detail,
                     "deleting the virtual folder %s needs the wd permission", out->name);
        gw_vfolder_clear(out);
        gw_reply_problem(r, "insufficient-privilege", detail);
    }
    return allowed;
}

json_t *
gw_vfolder_list(gw_ctx_t *ctx, const char *group_id, const char *status)
{
    const char *params[6];
    s_caller(ctx, params);
    params[3] = status ? status : "";
    params[4] = group_id ? group_id : "";
    params[5] = NULL;
    //  Admins reach other users' own folders by name or id, but a listing
    //  shows them only what they own, were invited to, and projects'. A
    //  project (group_id) narrows the project folders only: user folders are
    //  listed whatever the project, as Backend.AI 22.03 does (its web UI
    //  always asks with the project it shows).
    json_t *rows = gw_store_rows(ctx->db,
                                 S_REACH " WHERE (?4 = '' OR v.status = ?4)"
                                         " AND (b.rank < 3 OR v.ownership_type = 'group')"
                                         " AND (?5 = '' OR v.group_id = ?5"
                                         "  OR v.ownership_type = 'user')"
                                         " ORDER BY v.created_at, v.id",
                                 params, s_booleans);
    if (!rows)
        return NULL;
    json_t *out = json_array();
    size_t index;
    json_t *row;
    json_array_foreach(rows, index, row)
    {
        gw_vfolder_t folder;
        s_from_row(&folder, json_incref(row));
        json_array_append_new(out, gw_vfolder_view(&folder));
        gw_vfolder_clear(&folder);
    }
    json_decref(rows);
    return out;
}

int
gw_vfolder_automounts(gw_ctx_t *ctx, gw_vfolder_t **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    const char *params[4];
    s_caller(ctx, params);
    params[3] = NULL;
    json_t *rows =
        gw_store_rows(ctx->db,
                      S_REACH " WHERE b.rank = 0 AND v.ownership_type = 'user'"
                              " AND v.status = 'ready'"
                              " AND substr(v.name, 1, 1) = '.' ORDER BY v.name",
                      params, s_booleans);
    if (!rows)
        return BUS_STATUS_INTERNAL;
    size_t n = json_array_size(rows);
    *out = n ? calloc(n, sizeof **out) : NULL;
    if (n && !*out) {
        json_decref(rows);
        return BUS_STATUS_INTERNAL;
    }
    for (size_t i = 0; i < n; i++)
        s_from_row(&(*out)[i], json_incref(json_array_get(rows, i)));
    *count = n;
    json_decref(rows);
    return BUS_OK;
}

json_t *
gw_vfolder_view(const gw_vfolder_t *folder)
{
    json_t *row = folder->row;
    const char *type = json_string_value(json_object_get(row, "ownership_type"));
    bool user = type && strcmp(type, "user") == 0;
    const char *owner =
        json_string_value(json_object_get(row, user ? "user_uuid" : "group_id"));
    char scope[128];
    snprintf(scope, sizeof scope, "%s:%s", user ? "user" : "project", owner ? owner : "");
    json_t *view = json_pack(
        "{s:s, s:s, s:s, s:s, s:O, s:O, s:O, s:b, s:s, s:O, s:O, s:O, s:O, s:O, s:O, s:O,"
        " s:O, s:i, s:O, s:O}",
        "name", folder->name, "id", folder->id, "quota_scope_id", scope, "host",
        folder->host, "status", json_object_get(row, "status"), "usage_mode",
        json_object_get(row, "usage_mode"), "created_at",
        json_object_get(row, "created_at"), "is_owner", folder->is_owner, "permission",
        gw_vfolder_perm_str(gw_vfolder_shown_perm(folder)), "user",
        json_object_get(row, "user_uuid"), "group", json_object_get(row, "group_id"),
        "creator", json_object_get(row, "creator"), "user_email",
        json_object_get(row, "user_email"), "group_name",
        json_object_get(row, "group_name"), "ownership_type",
        json_object_get(row, "ownership_type"), "type",
        json_object_get(row, "ownership_type"), "cloneable",
        json_object_get(row, "cloneable"), "max_files", 0, "max_size",
        json_object_get(row, "max_size"), "last_used", json_object_get(row, "last_used"));
    return view;
}

//  The allowed_vfolder_hosts documents that apply to the caller.
static json_t *
s_host_grants(gw_ctx_t *ctx, const char *group_id)
{
    const char *params[] = {ctx->who->domain, ctx->who->access_key, ctx->who->user_uuid,
                            group_id ? group_id : "", NULL};
    return gw_store_rows(
        ctx->db,
        "SELECT allowed_vfolder_hosts AS hosts FROM domains WHERE name = ?1"
        " UNION ALL SELECT p.allowed_vfolder_hosts FROM keypair_resource_policies p"
        " JOIN keypairs k ON k.resource_policy = p.name WHERE k.access_key = ?2"
        " UNION ALL SELECT g.allowed_vfolder_hosts FROM groups g"
        " JOIN association_groups_users a ON a.group_id = g.id"
        " WHERE a.user_id = ?3 AND (?4 = '' OR g.id = ?4)",
        params, NULL);
}

//  One grant document: {"host": ["perm", ...]} (or, as older Backend.AI
//  stored it, ["host", ...] granting everything). Calls back per host.
static void
s_each_grant(json_t *text,
             void (*fn)(const char *host, json_t *perms, void *arg),
             void *arg)
{
    const char *doc = json_string_value(text);
    json_t *grants = doc ? json_loads(doc, 0, NULL) : NULL;
    const char *host;
    json_t *perms;
    if (json_is_object(grants))
        json_object_foreach(grants, host, perms) fn(host, perms, arg);
    else if (json_is_array(grants)) {
        size_t index;
        json_t *item;
        json_array_foreach(grants, index, item) if (json_is_string(item))
            fn(json_string_value(item), NULL, arg);
    }
    json_decref(grants);
}

typedef struct {
    const char *host, *what;
    bool allowed;
    json_t *hosts;
} grant_query_t;

static void
s_check_grant(const char *host, json_t *perms, void *arg)
{
    grant_query_t *q = arg;
    if (strcmp(host, q->host) != 0)
        return;
    if (!perms)
        q->allowed = true;
    size_t index;
    json_t *perm;
    json_array_foreach(perms, index, perm) if (json_is_string(perm) &&
                                               strcmp(json_string_value(perm), q->what) ==
                                                   0) q->allowed = true;
}

static void
s_collect_host(const char *host, json_t *perms, void *arg)
{
    (void) perms;
    grant_query_t *q = arg;
    json_object_set_new(q->hosts, host, json_true());
}

bool
gw_vfolder_host_allows(gw_ctx_t *ctx,
                       const char *host,
                       const char *group_id,
                       const char *what)
{
    if (gw_identity_is_superadmin(ctx->who))
        return true;
    grant_query_t q = {host, what, false, NULL};
    json_t *rows = s_host_grants(ctx, group_id);
    size_t index;
    json_t *row;
    json_array_foreach(rows, index, row)
        s_each_grant(json_object_get(row, "hosts"), s_check_grant, &q);
    json_decref(rows);
    return q.allowed;
}

static int
s_compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *) a, *(const char *const *) b);
}

json_t *
gw_vfolder_allowed_hosts(gw_ctx_t *ctx, const char *group_id)
{
    grant_query_t q = {NULL, NULL, false, json_object()};
    json_t *rows = s_host_grants(ctx, group_id);
    size_t index;
    json_t *row;
    json_array_foreach(rows, index, row)
        s_each_grant(json_object_get(row, "hosts"), s_collect_host, &q);
    json_decref(rows);
    //  Object keys come out in insertion order; sort for a stable answer.
    size_t n = json_object_size(q.hosts), used = 0;
    const char **names = calloc(n ? n : 1, sizeof *names);
    const char *host;
    json_t *unused;
    if (names) {
        json_object_foreach(q.hosts, host, unused) names[used++] = host;
        qsort(names, used, sizeof *names, s_compare_names);
    }
    json_t *out = json_array();
    for (size_t i = 0; i < used; i++)
        json_array_append_new(out, json_string(names[i]));
    free(names);
    json_decref(q.hosts);
    return out;
}

//  ---------------------------------------------------------------------------
//  Limits and changes

//  Checks the owner's folder count and the quota asked for (bytes; 0: none
//  asked) against the resource policies, and sets *quota to what the new
//  folder gets. BUS_OK, INVALID with err.
int
gw_vfolder_check_limits(gw_ctx_t *ctx,
                        const char *user_uuid,
                        const char *group_id,
                        int64_t asked,
                        int64_t *quota,
                        bus_error_t *err)
{
    bool failed = false;
    json_t *row;
    if (group_id) {
        const char *params[] = {group_id, NULL};
        row = gw_store_one(ctx->db,
                           "SELECT p.max_vfolder_count AS max_count,"
                           " p.max_quota_scope_size AS max_size, 0 AS kp_count,"
                           " 0 AS kp_size, (SELECT count(*) FROM vfolders"
                           "  WHERE group_id = ?1 AND status IN " S_LIVE ") AS have"
                           " FROM groups g JOIN project_resource_policies p"
                           " ON p.name = g.resource_policy WHERE g.id = ?1",
                           params, NULL, &failed);
    } else {
        const char *params[] = {user_uuid, ctx->who->access_key, NULL};
        row =
            gw_store_one(ctx->db,
                         "SELECT up.max_vfolder_count AS max_count,"
                         " up.max_quota_scope_size AS max_size,"
                         " kp.max_vfolder_count AS kp_count,"
                         " kp.max_vfolder_size AS kp_size, (SELECT count(*) FROM vfolders"
                         "  WHERE user_uuid = ?1 AND status IN " S_LIVE ") AS have"
                         " FROM users u JOIN user_resource_policies up"
                         " ON up.name = u.resource_policy,"
                         " keypairs k JOIN keypair_resource_policies kp"
                         " ON kp.name = k.resource_policy"
                         " WHERE u.uuid = ?1 AND k.access_key = ?2",
                         params, NULL, &failed);
    }
    if (!row)
        return bus_error_set(err, failed ? BUS_STATUS_INTERNAL : BUS_STATUS_NOT_FOUND,
                             "the owner's resource policy is not found");
    int64_t have = json_integer_value(json_object_get(row, "have"));
    int64_t counts[] = {json_integer_value(json_object_get(row, "max_count")),
                        json_integer_value(json_object_get(row, "kp_count"))};
    int64_t sizes[] = {json_integer_value(json_object_get(row, "max_size")),
                       json_integer_value(json_object_get(row, "kp_size"))};
    json_decref(row);
    for (int i = 0; i < 2; i++)
        if (counts[i] > 0 && have >= counts[i])
            return bus_error_set(
                err, BUS_STATUS_INVALID,
                "You cannot create more vfolders (the limit is %" PRId64 ").", counts[i]);
    int64_t limit = 0;
    for (int i = 0; i < 2; i++)
        if (sizes[i] > 0 && (limit == 0 || sizes[i] < limit))
            limit = sizes[i];
    if (limit > 0 && asked > limit)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "the quota asked for (%" PRId64
                             " bytes) exceeds the limit of %" PRId64 " bytes",
                             asked, limit);
    *quota = asked > 0 ? asked : limit;
    return BUS_OK;
}

//  The project named or numbered text in the caller's domain (any domain
//  for a superadmin): its id in id, and whether the caller administers it
//  in *admin. BUS_OK, NOT_FOUND.
int
gw_vfolder_project(
    gw_ctx_t *ctx, const char *text, char id[GW_UUID_SIZE], bool *admin, bus_error_t *err)
{
    const char *params[] = {text, ctx->who->domain, NULL};
    bool failed = false;
    json_t *row = gw_store_one(ctx->db,
                               "SELECT id, domain_name FROM groups"
                               " WHERE id = ?1 OR (name = ?1 AND domain_name = ?2)"
                               " ORDER BY id = ?1 DESC LIMIT 1",
                               params, NULL, &failed);
    const char *domain = json_string_value(json_object_get(row, "domain_name"));
    int rc = BUS_OK;
    if (!row ||
        (!gw_identity_is_superadmin(ctx->who) && strcmp(domain, ctx->who->domain) != 0))
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such project: %s", text);
    else {
        snprintf(id, GW_UUID_SIZE, "%s", json_string_value(json_object_get(row, "id")));
        *admin = gw_identity_admins_domain(ctx->who, domain);
    }
    json_decref(row);
    return rc;
}

//  Whether a folder called name is already reachable by the caller.
bool
gw_vfolder_name_taken(gw_ctx_t *ctx, const char *name)
{
    gw_vfolder_t other;
    bus_error_t err = {0};
    bool taken = gw_vfolder_find(ctx, name, "ready", &other, &err) == BUS_OK &&
                 strcmp(other.name, name) == 0;
    gw_vfolder_clear(&other);
    if (!taken) {
        //  Clones under way hold their names too.
        taken = gw_vfolder_find(ctx, name, "cloning", &other, &err) == BUS_OK &&
                strcmp(other.name, name) == 0;
        gw_vfolder_clear(&other);
    }
    return taken;
}

//  Sets the folder's status; BUS_OK or CONFLICT (its name is taken again).
int
gw_vfolder_set_status(gw_ctx_t *ctx, const char *id, const char *status, bus_error_t *err)
{
    char now[40];
    gw_now_iso(now);
    sqlite3_stmt *stmt = bus_db_stmt(
        ctx->db, "UPDATE vfolders SET status = ?2, status_changed = ?3 WHERE id = ?1");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot update the folder");
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 2, status, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 3, now, -1, SQLITE_TRANSIENT);
    return gw_store_step(ctx->db, stmt, err);
}

//  Runs sql on folder id (?1) and value (?2, may be NULL), logging a
//  failure: for the writes whose callers answer the same either way.
static void
s_write_logged(bus_db_t *db, const char *sql, const char *id, const char *value)
{
    const char *params[] = {id, value, NULL};
    json_t *done = gw_store_rows(db, sql, params, NULL);
    if (!done)
        bus_log_error("folder row not written id=%s", id);
    json_decref(done);
}

void
gw_vfolder_forget(bus_db_t *db, const char *id)
{
    s_write_logged(db, "DELETE FROM vfolders WHERE id = ?1", id, NULL);
}

void
gw_vfolder_clone_ready(bus_db_t *db, const char *id)
{
    s_write_logged(db, "UPDATE vfolders SET status = 'ready' WHERE id = ?1", id, NULL);
}

void
gw_vfolder_set_max_size(bus_db_t *db, const char *id, uint64_t bytes)
{
    char quota[32];
    snprintf(quota, sizeof quota, "%" PRIu64, bytes);
    s_write_logged(db, "UPDATE vfolders SET max_size = CAST(?2 AS INTEGER) WHERE id = ?1",
                   id, quota);
}

char *
gw_vfolder_name(bus_db_t *db, const char *id)
{
    return gw_store_text(db, "SELECT name FROM vfolders WHERE id = ?1", id);
}

json_t *
gw_vfolder_model_store(bus_db_t *db, const char *domain, int max)
{
    static const char *const booleans[] = {"cloneable", NULL};
    const char *params[] = {domain, NULL};
    char sql[1024];
    snprintf(sql, sizeof sql,
             "SELECT v.id, v.name, v.host, v.creator, v.created_at, v.cloneable,"
             " v.usage_mode, v.permission, v.status, v.ownership_type, v.group_id,"
             " g.name AS group_name"
             " FROM vfolders v JOIN groups g ON g.id = v.group_id"
             " WHERE g.type = '" GW_MODEL_STORE_PROJECT "' AND g.domain_name = ?1"
             " AND v.usage_mode = 'model' AND v.status = 'ready'"
             " ORDER BY v.created_at, v.id LIMIT %d",
             max);
    return gw_store_rows(db, sql, params, booleans);
}
