/*  =========================================================================
    gw_dotfile - dotfiles of a keypair, a project and a domain

    The three routes share one path: each resolves its owner (the keypair
    after the owner stage, a project by id or by name in a domain, a
    domain) and who may read or change it, then the method does the same
    thing on the dotfiles table for (scope, owner). Answers follow
    Backend.AI 22.03's userconfig.py, groupconfig.py and domainconfig.py:
    {} for a create or an update, {"success": true} for a delete, the list
    as [{path, permission, data}], one dotfile as {path, permission, perm,
    data} (Backend.AI answers its stored {path, perm, data}).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  Backend.AI's RESERVED_DOTFILES (ai.backend.common.defs).
static const char *const s_reserved[] = {
    ".terminfo", ".jupyter", ".ssh", ".ssh/authorized_keys", ".local", ".config", NULL,
};

#define S_HOME "/home/work/"

//  ---------------------------------------------------------------------------
//  Paths and permissions (pure)

int
gw_dotfile_path(const char *path, char out[GW_DOTFILE_PATH_MAX + 1], bus_error_t *err)
{
    if (!path || !*path)
        return bus_error_set(err, BUS_STATUS_INVALID, "path: a file name is required");
    if (strlen(path) > GW_DOTFILE_PATH_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID, "path: longer than %d bytes",
                             GW_DOTFILE_PATH_MAX);
    for (const unsigned char *p = (const unsigned char *) path; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "path: control characters are not allowed");
    const char *rel = path;
    if (*rel == '/') {
        if (strncmp(rel, S_HOME, strlen(S_HOME)) != 0)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "path: must stay within /home/work");
        rel += strlen(S_HOME);
    }
    if (!*rel)
        return bus_error_set(err, BUS_STATUS_INVALID, "path: a file name is required");
    for (const char *p = rel; *p;) {
        const char *end = strchrnul(p, '/');
        size_t len = (size_t) (end - p);
        if (len == 0)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "path: empty component (a '//' or a trailing '/')");
        if ((len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "path: '.' and '..' are not allowed; it must stay "
                                 "within /home/work");
        if (len > GW_DOTFILE_NAME_MAX)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "path: a component is longer than %d bytes",
                                 GW_DOTFILE_NAME_MAX);
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "path: empty component (a '//' or a trailing '/')");
    }
    for (size_t i = 0; s_reserved[i]; i++)
        if (strcmp(rel, s_reserved[i]) == 0)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "dotfile path is reserved for internal operations.");
    snprintf(out, GW_DOTFILE_PATH_MAX + 1, "%s", rel);
    return BUS_OK;
}

bool
gw_dotfile_permission_ok(const char *permission)
{
    if (!permission || strlen(permission) != 3)
        return false;
    for (int i = 0; i < 3; i++)
        if (permission[i] < '0' || permission[i] > '7')
            return false;
    return true;
}

//  ---------------------------------------------------------------------------
//  The table

//  Whose dotfiles a request is about.
typedef struct {
    const char *scope; //  "keypair", "group" or "domain"
    char owner[GW_NAME_MAX > GW_UUID_SIZE ? GW_NAME_MAX : GW_UUID_SIZE];
} s_owner_t;

//  An owner's dotfiles in creation order, [{path, permission, data}]; NULL
//  on a database error. Caller owns return value.
static json_t *
s_list(bus_db_t *db, const char *scope, const char *owner)
{
    const char *params[] = {scope, owner, NULL};
    return gw_store_rows(db,
                         "SELECT path, permission, data FROM dotfiles"
                         " WHERE scope = ?1 AND owner = ?2 ORDER BY rowid",
                         params, NULL);
}

//  The index of path in list, or -1.
static int
s_find(json_t *list, const char *path)
{
    size_t index;
    json_t *entry;
    json_array_foreach(list, index, entry)
    {
        if (strcmp(json_string_value(json_object_get(entry, "path")), path) == 0)
            return (int) index;
    }
    return -1;
}

//  The size the limit counts: the list's compact JSON.
static size_t
s_size(json_t *list)
{
    return json_dumpb(list, NULL, 0, JSON_COMPACT);
}

//  ---------------------------------------------------------------------------
//  Owners and rights (each replies and returns false on refusal)

static bool
s_is_admin(const gw_request_t *r)
{
    return r->who.role == GW_ROLE_ADMIN || r->who.role == GW_ROLE_SUPERADMIN;
}

static const char *
s_param(gw_request_t *r, const char *const *keys)
{
    for (; *keys; keys++) {
        const char *value = json_string_value(json_object_get(r->params, *keys));
        if (value)
            return value;
    }
    return NULL;
}

static bool
s_owner_domain(gw_request_t *r, bool write, s_owner_t *owner)
{
    static const char *const k_domain[] = {"domain", NULL};
    const char *domain = s_param(r, k_domain);
    if (!domain) {
        gw_reply_problem(r, "invalid-api-params", "domain: a string is required");
        return false;
    }
    if (write && !s_is_admin(r)) {
        gw_reply_problem(r, "generic-forbidden", "Only administrators may do this.");
        return false;
    }
    if (!gw_identity_is_superadmin(&r->who) && strcmp(r->who.domain, domain) != 0) {
        gw_reply_problem(r, "generic-forbidden",
                         write ? "Domain admins cannot change dotfiles of other domains"
                               : "Users cannot access dotfiles of other domains");
        return false;
    }
    bool failed = false;
    const char *params[] = {domain, NULL};
    json_t *row =
        gw_store_one(gw_server_db(r->gw), "SELECT name FROM domains WHERE name = ?1",
                     params, NULL, &failed);
    if (!row) {
        if (failed)
            gw_reply_problem(r, "internal-server-error", "database error");
        else
            gw_reply_problem(r, "object-not-found", "No such domain.");
        return false;
    }
    json_decref(row);
    owner->scope = "domain";
    snprintf(owner->owner, sizeof owner->owner, "%s", domain);
    return true;
}

//  True when text is a UUID, with or without its dashes (Backend.AI's
//  tx.UUID), as a project may be named by one.
static bool
s_is_uuid(const char *text)
{
    size_t digits = 0;
    for (; *text; text++) {
        if (isxdigit((unsigned char) *text))
            digits++;
        else if (*text != '-')
            return false;
    }
    return digits == 32;
}

static bool
s_owner_group(gw_request_t *r, bool write, s_owner_t *owner)
{
    static const char *const k_group[] = {"group", "groupId", "group_id", NULL};
    static const char *const k_domain[] = {"domain", NULL};
    const char *group = s_param(r, k_group);
    const char *domain = s_param(r, k_domain);
    if (!group) {
        gw_reply_problem(r, "invalid-api-params", "group: a string is required");
        return false;
    }
    if (write && !s_is_admin(r)) {
        gw_reply_problem(r, "generic-forbidden", "Only administrators may do this.");
        return false;
    }
    bool uuid = s_is_uuid(group);
    if (!uuid && !domain) {
        gw_reply_problem(r, "invalid-api-params", "Missing parameter 'domain'");
        return false;
    }
    //  By id (the domain given is ignored, as in Backend.AI), else by name.
    bool failed = false;
    const char *params[] = {group, uuid ? "" : domain, NULL};
    json_t *row = gw_store_one(
        gw_server_db(r->gw),
        uuid ? "SELECT id, domain_name FROM groups"
               " WHERE replace(id, '-', '') = lower(replace(?1, '-', '')) AND ?2 = ''"
             : "SELECT id, domain_name FROM groups WHERE name = ?1 AND domain_name = ?2",
        params, NULL, &failed);
    if (!row) {
        if (failed)
            gw_reply_problem(r, "internal-server-error", "database error");
        else
            gw_reply_problem(r, "object-not-found", "No such project.");
        return false;
    }
    const char *id = json_string_value(json_object_get(row, "id"));
    const char *in_domain = json_string_value(json_object_get(row, "domain_name"));
    bool allowed = gw_identity_is_superadmin(&r->who);
    if (!allowed && s_is_admin(r))
        allowed = strcmp(r->who.domain, in_domain) == 0;
    else if (!allowed && !write) {
        const char *member_params[] = {id, r->who.user_uuid, NULL};
        json_t *member = gw_store_one(gw_server_db(r->gw),
                                      "SELECT 1 AS member FROM association_groups_users"
                                      " WHERE group_id = ?1 AND user_id = ?2",
                                      member_params, NULL, &failed);
        allowed = member != NULL;
        json_decref(member);
    }
    if (!allowed || failed) {
        json_decref(row);
        if (failed)
            gw_reply_problem(r, "internal-server-error", "database error");
        else
            gw_reply_problem(r, "generic-forbidden",
                             s_is_admin(r)
                                 ? "Domain admins cannot access project dotfiles of "
                                   "other domains"
                                 : "Users cannot access dotfiles of other projects");
        return false;
    }
    owner->scope = "group";
    snprintf(owner->owner, sizeof owner->owner, "%s", id);
    json_decref(row);
    return true;
}

//  ---------------------------------------------------------------------------
//  The methods

//  The path parameter, checked; replies and returns false when bad.
static bool
s_path(gw_request_t *r, char out[GW_DOTFILE_PATH_MAX + 1])
{
    json_t *path = json_object_get(r->params, "path");
    bus_error_t err = {0};
    if (!json_is_string(path)) {
        gw_reply_problem(r, "invalid-api-params", "path: a string is required");
        return false;
    }
    if (gw_dotfile_path(json_string_value(path), out, &err) != BUS_OK) {
        gw_reply_problem(r, "invalid-api-params", err.detail);
        return false;
    }
    return true;
}

//  data and permission of a create or an update; replies when bad.
static bool
s_body(gw_request_t *r, const char **data, const char **permission)
{
    json_t *data_value = json_object_get(r->params, "data");
    *permission = json_string_value(json_object_get(r->params, "permission"));
    if (!json_is_string(data_value)) {
        gw_reply_problem(r, "invalid-api-params", "data: a string is required");
        return false;
    }
    if (json_string_length(data_value) > GW_DOTFILE_OWNER_MAX) {
        gw_reply_problem(r, "invalid-api-params", "data: longer than 65536 bytes");
        return false;
    }
    if (strlen(json_string_value(data_value)) != json_string_length(data_value)) {
        gw_reply_problem(r, "invalid-api-params", "data: NUL bytes are not allowed");
        return false;
    }
    if (!gw_dotfile_permission_ok(*permission)) {
        gw_reply_problem(r, "invalid-api-params",
                         "permission: three octal digits are required (e.g. \"755\")");
        return false;
    }
    *data = json_string_value(data_value);
    return true;
}

//  Runs one write on (scope, owner, path, ...); replies with body on success.
static void
s_write(gw_request_t *r,
        const s_owner_t *owner,
        const char *sql,
        const char *const *texts,
        json_t *body)
{
    bus_error_t err = {0};
    sqlite3_stmt *stmt = bus_db_stmt(gw_server_db(r->gw), sql);
    int rc = BUS_STATUS_INTERNAL;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, owner->scope, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 2, owner->owner, -1, SQLITE_STATIC);
        for (int i = 0; texts[i]; i++)
            sqlite3_bind_text(stmt, 3 + i, texts[i], -1, SQLITE_STATIC);
        rc = gw_store_step(gw_server_db(r->gw), stmt, &err);
        sqlite3_clear_bindings(stmt);
    }
    if (rc != BUS_OK) {
        json_decref(body);
        gw_reply_problem(r, "internal-server-error", "database error");
        return;
    }
    bus_log_info("dotfile %s scope=%s owner=%s path=%s by=%s", r->method, owner->scope,
                 owner->owner, texts[0],
                 r->caller.access_key[0] ? r->caller.access_key : r->who.access_key);
    gw_reply_json(r, 200, body);
}

//  A user's dotfile may not be named like a folder of theirs (Backend.AI:
//  "dotfile path conflicts with your dot-prefixed vFolder"), which would
//  be mounted at the same place.
static bool
s_folder_conflict(gw_request_t *r, const char *path, bool *failed)
{
    const char *params[] = {path, r->who.user_uuid, NULL};
    json_t *row = gw_store_one(
        gw_server_db(r->gw),
        "SELECT 1 AS taken FROM vfolders WHERE name = ?1 AND status IN ('ready', "
        "'cloning')"
        " AND (user_uuid = ?2 OR group_id IN"
        " (SELECT group_id FROM association_groups_users WHERE user_id = ?2))",
        params, NULL, failed);
    bool taken = row != NULL;
    json_decref(row);
    return taken;
}

static void
s_create(gw_request_t *r, const s_owner_t *owner, json_t *list)
{
    char path[GW_DOTFILE_PATH_MAX + 1];
    const char *data, *permission;
    bool failed = false;
    if (!s_path(r, path) || !s_body(r, &data, &permission))
        return;
    if (json_array_size(list) >= GW_DOTFILE_COUNT_MAX) {
        gw_reply_problem(r, "generic-bad-request", "Dotfile creation limit reached");
        return;
    }
    if (strcmp(owner->scope, "keypair") == 0 && s_folder_conflict(r, path, &failed)) {
        gw_reply_problem(r, "invalid-api-params",
                         "dotfile path conflicts with your dot-prefixed vFolder");
        return;
    }
    if (failed) {
        gw_reply_problem(r, "internal-server-error", "database error");
        return;
    }
    if (s_find(list, path) >= 0) {
        gw_reply_problem(r, "generic-bad-request", "Dotfile already exists.");
        return;
    }
    json_array_append_new(list, json_pack("{s:s, s:s, s:s}", "path", path, "permission",
                                          permission, "data", data));
    if (s_size(list) > GW_DOTFILE_OWNER_MAX) {
        gw_reply_problem(r, "generic-bad-request",
                         "No leftover space for dotfile storage");
        return;
    }
    const char *texts[] = {path, permission, data, NULL};
    s_write(r, owner,
            "INSERT INTO dotfiles (scope, owner, path, permission, data)"
            " VALUES (?1, ?2, ?3, ?4, ?5)",
            texts, json_object());
}

static void
s_update(gw_request_t *r, const s_owner_t *owner, json_t *list)
{
    char path[GW_DOTFILE_PATH_MAX + 1];
    const char *data, *permission;
    if (!s_path(r, path) || !s_body(r, &data, &permission))
        return;
    int index = s_find(list, path);
    if (index < 0) {
        gw_reply_problem(r, "object-not-found", "No such dotfile.");
        return;
    }
    json_array_set_new(list, (size_t) index,
                       json_pack("{s:s, s:s, s:s}", "path", path, "permission",
                                 permission, "data", data));
    if (s_size(list) > GW_DOTFILE_OWNER_MAX) {
        gw_reply_problem(r, "generic-bad-request",
                         "No leftover space for dotfile storage");
        return;
    }
    const char *texts[] = {path, permission, data, NULL};
    s_write(r, owner,
            "UPDATE dotfiles SET permission = ?4, data = ?5"
            " WHERE scope = ?1 AND owner = ?2 AND path = ?3",
            texts, json_object());
}

static void
s_delete(gw_request_t *r, const s_owner_t *owner, json_t *list)
{
    char path[GW_DOTFILE_PATH_MAX + 1];
    if (!s_path(r, path))
        return;
    if (s_find(list, path) < 0) {
        gw_reply_problem(r, "object-not-found", "No such dotfile.");
        return;
    }
    const char *texts[] = {path, NULL};
    s_write(r, owner,
            "DELETE FROM dotfiles WHERE scope = ?1 AND owner = ?2 AND path = ?3", texts,
            json_pack("{s:b}", "success", 1));
}

static void
s_get(gw_request_t *r, json_t *list)
{
    json_t *path_value = json_object_get(r->params, "path");
    if (!path_value || (json_is_string(path_value) && !*json_string_value(path_value))) {
        gw_reply_json(r, 200, json_incref(list));
        return;
    }
    char path[GW_DOTFILE_PATH_MAX + 1];
    if (!s_path(r, path))
        return;
    int index = s_find(list, path);
    if (index < 0) {
        gw_reply_problem(r, "object-not-found", "No such dotfile.");
        return;
    }
    json_t *entry = json_array_get(list, (size_t) index);
    gw_reply_json(r, 200,
                  json_pack("{s:O, s:O, s:O, s:O}", "path",
                            json_object_get(entry, "path"), "permission",
                            json_object_get(entry, "permission"), "perm",
                            json_object_get(entry, "permission"), "data",
                            json_object_get(entry, "data")));
}

//  The method on owner's dotfiles.
static void
s_run(gw_request_t *r, const s_owner_t *owner)
{
    json_t *list = s_list(gw_server_db(r->gw), owner->scope, owner->owner);
    if (!list) {
        gw_reply_problem(r, "internal-server-error", "database error");
        return;
    }
    if (strcmp(r->method, "POST") == 0)
        s_create(r, owner, list);
    else if (strcmp(r->method, "PATCH") == 0)
        s_update(r, owner, list);
    else if (strcmp(r->method, "DELETE") == 0)
        s_delete(r, owner, list);
    else
        s_get(r, list);
    json_decref(list);
}

static bool
s_writes(const gw_request_t *r)
{
    return strcmp(r->method, "GET") != 0 && strcmp(r->method, "HEAD") != 0;
}

//  ---------------------------------------------------------------------------
//  The routes

void
gw_dotfile_handle_user(gw_request_t *r)
{
    //  The owner stage made r->who the keypair owner_access_key names.
    s_owner_t owner = {.scope = "keypair"};
    snprintf(owner.owner, sizeof owner.owner, "%s", r->who.access_key);
    s_run(r, &owner);
}

void
gw_dotfile_handle_group(gw_request_t *r)
{
    s_owner_t owner;
    if (s_owner_group(r, s_writes(r), &owner))
        s_run(r, &owner);
}

void
gw_dotfile_handle_domain(gw_request_t *r)
{
    s_owner_t owner;
    if (s_owner_domain(r, s_writes(r), &owner))
        s_run(r, &owner);
}

//  ---------------------------------------------------------------------------
//  A session's dotfiles

int
gw_dotfile_resolve(bus_db_t *db,
                   const char *access_key,
                   const char *group_id,
                   const char *domain,
                   const char *mounts,
                   json_t **out,
                   bus_error_t *err)
{
    assert(db && access_key && group_id && domain && out);
    *out = NULL;
    const char *params[] = {access_key, group_id, domain, NULL};
    //  Each path once: the keypair's, else the project's, else the domain's.
    json_t *rows = gw_store_rows(
        db,
        "SELECT path, permission, data FROM ("
        " SELECT path, permission, data, rowid AS seq, CASE scope WHEN 'keypair' THEN 0"
        "  WHEN 'group' THEN 1 ELSE 2 END AS rank,"
        "  row_number() OVER (PARTITION BY path ORDER BY CASE scope WHEN 'keypair'"
        "  THEN 0 WHEN 'group' THEN 1 ELSE 2 END) AS nth"
        " FROM dotfiles WHERE (scope = 'keypair' AND owner = ?1)"
        "  OR (scope = 'group' AND owner = ?2) OR (scope = 'domain' AND owner = ?3))"
        " WHERE nth = 1 ORDER BY rank, seq",
        params, NULL);
    if (!rows)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    int rc = BUS_OK;
    json_t *folders = mounts ? json_loads(mounts, 0, NULL) : NULL;
    size_t index, m;
    json_t *entry, *folder;
    json_array_foreach(rows, index, entry)
    {
        const char *path = json_string_value(json_object_get(entry, "path"));
        json_array_foreach(folders, m, folder)
        {
            const char *kernel_path =
                json_string_value(json_object_get(folder, "kernel_path"));
            if (rc == BUS_OK && kernel_path &&
                strncmp(kernel_path, S_HOME, strlen(S_HOME)) == 0 &&
                strcmp(kernel_path + strlen(S_HOME), path) == 0)
                rc = bus_error_set(err, BUS_STATUS_INVALID,
                                   "There is a kernel-side path from vfolders that "
                                   "conflicts with a dotfile '%.256s'.",
                                   path);
        }
    }
    json_decref(folders);
    if (rc == BUS_OK && json_array_size(rows) > 0)
        *out = json_incref(rows);
    json_decref(rows);
    return rc;
}
