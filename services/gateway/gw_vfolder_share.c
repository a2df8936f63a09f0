/*  =========================================================================
    gw_vfolder_share - who else may reach a folder: invitations to a user's
    folder, permissions for members of a project's folder, leaving

    A user's folder is shared by invitation: the owner invites users of its
    domain by email with ro, rw or wd; an invitee that accepts reaches the
    folder with that permission (a vfolder_permissions row) until it leaves
    or the owner's folder goes. A project's folder is reached by every
    member with the folder's own permission; its administrators may give a
    member another one (share) or take that back (unshare). The owner sees
    who a folder is shared with, changes their permission or ends it
    (/folders/_/shared). Dot-prefixed folders are their owner's automount
    folders and are never shared.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  The permission the body names (perm or permission; default rw), or 0
//  after replying the problem.
static gw_vfolder_perm_t
s_perm(gw_request_t *r)
{
    const char *text = json_string_value(json_object_get(r->params, "perm"));
    if (!text)
        text = json_string_value(json_object_get(r->params, "permission"));
    gw_vfolder_perm_t perm = text ? gw_vfolder_perm_parse(text) : GW_VFOLDER_RW;
    if (!perm)
        gw_reply_problem(r, "invalid-api-params", "permission: ro, rw or wd");
    return perm;
}

//  The body's list of emails (emails, user_ids or userIDs), or NULL after
//  replying the problem. Borrowed.
static json_t *
s_emails(gw_request_t *r)
{
    static const char *const keys[] = {"emails", "user_ids", "userIDs", NULL};
    json_t *emails = NULL;
    for (const char *const *k = keys; !emails && *k; k++)
        emails = json_object_get(r->params, *k);
    size_t count = json_array_size(emails);
    bool valid = json_is_array(emails) && count >= 1 && count <= 1000;
    for (size_t i = 0; valid && i < count; i++)
        valid = json_is_string(json_array_get(emails, i));
    if (!valid) {
        gw_reply_problem(r, "invalid-api-params", "emails: a list of 1 to 1000 emails");
        return NULL;
    }
    return emails;
}

//  The active user with email in the caller's domain (any domain for a
//  superadmin): its uuid in out. false when there is none.
static bool
s_user(gw_request_t *r, const char *email, char out[GW_UUID_SIZE])
{
    const char *params[] = {email, r->who.domain,
                            gw_identity_is_superadmin(&r->who) ? "1" : "0", NULL};
    bool failed = false;
    json_t *row =
        gw_store_one(gw_server_db(r->gw),
                     "SELECT uuid FROM users WHERE email = ?1 AND status = 'active'"
                     " AND (?3 = '1' OR domain_name = ?2)",
                     params, NULL, &failed);
    const char *uuid = json_string_value(json_object_get(row, "uuid"));
    if (uuid)
        snprintf(out, GW_UUID_SIZE, "%s", uuid);
    json_decref(row);
    return uuid != NULL;
}

//  Runs a write with text parameters; BUS_OK, CONFLICT or INTERNAL.
static int
s_exec(gw_request_t *r, const char *sql, const char *const *params, bus_error_t *err)
{
    sqlite3_stmt *stmt = bus_db_stmt(gw_server_db(r->gw), sql);
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot prepare a statement");
    for (int i = 0; params[i]; i++)
        sqlite3_bind_text(stmt, i + 1, params[i], -1, SQLITE_TRANSIENT);
    return gw_store_step(gw_server_db(r->gw), stmt, err);
}

static bool
s_exists(gw_request_t *r, const char *sql, const char *const *params)
{
    bool failed = false;
    json_t *row = gw_store_one(gw_server_db(r->gw), sql, params, NULL, &failed);
    json_decref(row);
    return row != NULL;
}

//  Ends a transaction that wrote one row per email: commits and answers 201
//  {key: done} (stolen), or rolls back and answers rc.
static void
s_end_batch(gw_request_t *r,
            gw_vfolder_t *folder,
            int rc,
            const bus_error_t *err,
            const char *key,
            json_t *done)
{
    if (rc == BUS_OK)
        bus_db_commit(gw_server_db(r->gw));
    else
        bus_db_rollback(gw_server_db(r->gw));
    gw_vfolder_clear(folder);
    if (rc != BUS_OK) {
        json_decref(done);
        gw_reply_status(r, rc, err->detail);
    } else
        gw_reply_json(r, 201, json_pack("{s:o}", key, done));
}

//  ---------------------------------------------------------------------------
//  Invitations

void
gw_vfolder_handle_invite(gw_request_t *r)
{
    gw_vfolder_perm_t perm = s_perm(r);
    json_t *emails = perm ? s_emails(r) : NULL;
    if (!emails)
        return;
    gw_vfolder_t folder;
    if (!gw_vfolder_reach(r, gw_request_path_param(r, "name"), "ready", GW_VFOLDER_RO,
                          true, &folder))
        return;
    const char *type = json_string_value(json_object_get(folder.row, "ownership_type"));
    const char *refusal = NULL;
    if (folder.name[0] == '.')
        refusal = "Cannot share private dot-prefixed vfolders.";
    else if (strcmp(type, "user") != 0)
        refusal = "a project's folder is shared with its members: use share";
    else if (!folder.admin && !gw_vfolder_host_allows(gw_request_ctx(r), folder.host,
                                                      NULL, "invite-others"))
        refusal = "you may not invite others to folders on this host";
    if (refusal) {
        gw_vfolder_clear(&folder);
        gw_reply_problem(r, "generic-forbidden", refusal);
        return;
    }
    const char *owner = json_string_value(json_object_get(folder.row, "user_uuid"));
    json_t *invited = json_array();
    char now[40];
    gw_now_iso(now);
    bus_error_t err = {0};
    int rc = BUS_OK;
    bus_db_begin(gw_server_db(r->gw));
    for (size_t i = 0; rc == BUS_OK && i < json_array_size(emails); i++) {
        const char *email = json_string_value(json_array_get(emails, i));
        char uuid[GW_UUID_SIZE], id[GW_UUID_SIZE];
        //  Nobody is invited twice, nor to what they already reach.
        const char *shared_p[] = {folder.id, uuid, email, NULL};
        if (!s_user(r, email, uuid) || strcmp(uuid, owner) == 0 ||
            s_exists(r,
                     "SELECT 1 FROM vfolder_permissions WHERE vfolder_id = ?1"
                     " AND user_uuid = ?2 UNION ALL SELECT 1 FROM vfolder_invitations"
                     " WHERE vfolder_id = ?1 AND invitee = ?3 AND state = 'pending'",
                     shared_p))
            continue;
        gw_uuid_new(id);
        const char *params[] = {
            id, folder.id, r->who.email, email, gw_vfolder_perm_str(perm), now, NULL};
        rc = s_exec(
            r,
            "INSERT INTO vfolder_invitations (id, vfolder_id, inviter, invitee,"
            " permission, created_at, modified_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
            params, &err);
        if (rc == BUS_OK)
            json_array_append_new(invited, json_string(email));
    }
    s_end_batch(r, &folder, rc, &err, "invited_ids", invited);
}

//  Invitations where column (inviter or invitee) is the caller, pending.
static void
s_list_invitations(gw_request_t *r, bool sent)
{
    const char *params[] = {r->who.email, NULL};
    json_t *rows = gw_store_rows(
        gw_server_db(r->gw),
        sent ? "SELECT i.id, i.inviter, i.invitee, i.permission AS perm, i.state,"
               " i.created_at, i.modified_at, i.vfolder_id, v.name AS vfolder_name"
               " FROM vfolder_invitations i JOIN vfolders v ON v.id = i.vfolder_id"
               " WHERE i.inviter = ?1 AND i.state = 'pending' ORDER BY i.created_at"
             : "SELECT i.id, i.inviter, i.invitee, i.permission AS perm, i.state,"
               " i.created_at, i.modified_at, i.vfolder_id, v.name AS vfolder_name"
               " FROM vfolder_invitations i JOIN vfolders v ON v.id = i.vfolder_id"
               " WHERE i.invitee = ?1 AND i.state = 'pending' AND v.status = 'ready'"
               " ORDER BY i.created_at",
        params, NULL);
    if (!rows)
        gw_reply_status(r, BUS_STATUS_INTERNAL, "cannot read the invitations");
    else
        gw_reply_json(r, 200, json_pack("{s:o}", "invitations", rows));
}

void
gw_vfolder_handle_invitations(gw_request_t *r)
{
    s_list_invitations(r, false);
}

void
gw_vfolder_handle_invitations_sent(gw_request_t *r)
{
    s_list_invitations(r, true);
}

//  The pending invitation the body's inv_id names, or NULL after replying.
static json_t *
s_invitation(gw_request_t *r, const char *id)
{
    if (!id)
        id = json_string_value(json_object_get(r->params, "inv_id"));
    if (!id) {
        gw_reply_problem(r, "invalid-api-params", "inv_id is required");
        return NULL;
    }
    const char *params[] = {id, NULL};
    bool failed = false;
    json_t *row =
        gw_store_one(gw_server_db(r->gw),
                     "SELECT i.id, i.vfolder_id, i.inviter, i.invitee,"
                     " i.permission, v.name, v.status FROM vfolder_invitations i"
                     " JOIN vfolders v ON v.id = i.vfolder_id"
                     " WHERE i.id = ?1 AND i.state = 'pending'",
                     params, NULL, &failed);
    const char *inviter = json_string_value(json_object_get(row, "inviter"));
    const char *invitee = json_string_value(json_object_get(row, "invitee"));
    //  Someone else's invitation does not exist, as far as the caller knows.
    if (!row ||
        (strcmp(inviter, r->who.email) != 0 && strcmp(invitee, r->who.email) != 0)) {
        json_decref(row);
        gw_reply_problem(r, "object-not-found", "No such vfolder invitation");
        return NULL;
    }
    return row;
}

static int
s_set_state(gw_request_t *r, const char *id, const char *state, bus_error_t *err)
{
    char now[40];
    gw_now_iso(now);
    const char *params[] = {id, state, now, NULL};
    return s_exec(r,
                  "UPDATE vfolder_invitations SET state = ?2, modified_at = ?3"
                  " WHERE id = ?1",
                  params, err);
}

void
gw_vfolder_handle_accept(gw_request_t *r)
{
    json_t *inv = s_invitation(r, NULL);
    if (!inv)
        return;
    const char *id = json_string_value(json_object_get(inv, "id"));
    const char *folder = json_string_value(json_object_get(inv, "vfolder_id"));
    const char *name = json_string_value(json_object_get(inv, "name"));
    const char *status = json_string_value(json_object_get(inv, "status"));
    gw_vfolder_t same;
    bus_error_t err = {0};
    int rc = BUS_OK;
    if (strcmp(json_string_value(json_object_get(inv, "invitee")), r->who.email) != 0)
        gw_reply_problem(r, "object-not-found", "No such vfolder invitation");
    else if (strcmp(status, "ready") != 0)
        gw_reply_problem(r, "object-not-found", "the folder is no longer there");
    else if (gw_vfolder_find(gw_request_ctx(r), name, "ready", &same, &err) == BUS_OK &&
             strcmp(same.name, name) == 0) {
        gw_vfolder_clear(&same);
        gw_reply_problem(r, "vfolder-already-exists",
                         "you already reach a folder of this name: rename it first");
    } else {
        gw_vfolder_clear(&same);
        const char *params[] = {folder, r->who.user_uuid,
                                json_string_value(json_object_get(inv, "permission")),
                                NULL};
        bus_db_begin(gw_server_db(r->gw));
        rc = s_exec(r,
                    "INSERT OR REPLACE INTO vfolder_permissions (vfolder_id, user_uuid,"
                    " permission) VALUES (?1, ?2, ?3)",
                    params, &err);
        if (rc == BUS_OK)
            rc = s_set_state(r, id, "accepted", &err);
        if (rc == BUS_OK)
            bus_db_commit(gw_server_db(r->gw));
        else
            bus_db_rollback(gw_server_db(r->gw));
        if (rc != BUS_OK)
            gw_reply_status(r, rc, err.detail);
        else
            gw_reply_json(r, 200, NULL);
    }
    json_decref(inv);
}

void
gw_vfolder_handle_reject(gw_request_t *r)
{
    json_t *inv = s_invitation(r, NULL);
    if (!inv)
        return;
    //  The inviter cancels, the invitee rejects.
    bool inviter =
        strcmp(json_string_value(json_object_get(inv, "inviter")), r->who.email) == 0;
    bus_error_t err = {0};
    int rc = s_set_state(r, json_string_value(json_object_get(inv, "id")),
                         inviter ? "canceled" : "rejected", &err);
    json_decref(inv);
    if (rc != BUS_OK)
        gw_reply_status(r, rc, err.detail);
    else
        gw_reply_json(r, 200, NULL);
}

void
gw_vfolder_handle_update_invitation(gw_request_t *r)
{
    gw_vfolder_perm_t perm = s_perm(r);
    if (!perm)
        return;
    json_t *inv = s_invitation(r, gw_request_path_param(r, "inv_id"));
    if (!inv)
        return;
    bus_error_t err = {0};
    int rc = BUS_OK;
    if (strcmp(json_string_value(json_object_get(inv, "inviter")), r->who.email) != 0)
        rc = bus_error_set(&err, BUS_STATUS_FORBIDDEN,
                           "only the inviter changes an invitation");
    else {
        const char *params[] = {json_string_value(json_object_get(inv, "id")),
                                gw_vfolder_perm_str(perm), NULL};
        rc = s_exec(r, "UPDATE vfolder_invitations SET permission = ?2 WHERE id = ?1",
                    params, &err);
    }
    json_decref(inv);
    if (rc != BUS_OK)
        gw_reply_status(r, rc, err.detail);
    else
        gw_reply_json(r, 200, json_pack("{s:s}", "msg", "vfolder invitation updated"));
}

//  ---------------------------------------------------------------------------
//  Project folders: share, unshare

//  The route's folder when it is a project's and the caller administers it;
//  false after replying.
static bool
s_project_folder(gw_request_t *r, gw_vfolder_t *folder)
{
    if (!gw_vfolder_reach(r, gw_request_path_param(r, "name"), "ready", GW_VFOLDER_RO,
                          true, folder))
        return false;
    const char *type = json_string_value(json_object_get(folder->row, "ownership_type"));
    if (strcmp(type, "group") != 0) {
        gw_vfolder_clear(folder);
        gw_reply_problem(r, "vfolder-permission-error",
                         "only a project's folder is shared with members: invite users "
                         "to a user's folder");
        return false;
    }
    return true;
}

void
gw_vfolder_handle_share(gw_request_t *r)
{
    gw_vfolder_perm_t perm = s_perm(r);
    json_t *emails = perm ? s_emails(r) : NULL;
    gw_vfolder_t folder;
    if (!emails || !s_project_folder(r, &folder))
        return;
    const char *group = json_string_value(json_object_get(folder.row, "group_id"));
    json_t *shared = json_array();
    bus_error_t err = {0};
    int rc = BUS_OK;
    bus_db_begin(gw_server_db(r->gw));
    for (size_t i = 0; rc == BUS_OK && i < json_array_size(emails); i++) {
        const char *email = json_string_value(json_array_get(emails, i));
        char uuid[GW_UUID_SIZE];
        const char *member_p[] = {group, uuid, NULL};
        if (!s_user(r, email, uuid) ||
            !s_exists(r,
                      "SELECT 1 FROM association_groups_users WHERE group_id = ?1"
                      " AND user_id = ?2",
                      member_p)) {
            rc = bus_error_set(&err, BUS_STATUS_NOT_FOUND,
                               "%s is not a member of the folder's project", email);
            break;
        }
        const char *params[] = {folder.id, uuid, gw_vfolder_perm_str(perm), NULL};
        rc = s_exec(r,
                    "INSERT OR REPLACE INTO vfolder_permissions (vfolder_id, user_uuid,"
                    " permission) VALUES (?1, ?2, ?3)",
                    params, &err);
        if (rc == BUS_OK)
            json_array_append_new(shared, json_string(email));
    }
    s_end_batch(r, &folder, rc, &err, "shared_emails", shared);
}

void
gw_vfolder_handle_unshare(gw_request_t *r)
{
    json_t *emails = s_emails(r);
    gw_vfolder_t folder;
    if (!emails || !s_project_folder(r, &folder))
        return;
    json_t *unshared = json_array();
    bus_error_t err = {0};
    for (size_t i = 0; i < json_array_size(emails); i++) {
        const char *email = json_string_value(json_array_get(emails, i));
        char uuid[GW_UUID_SIZE];
        if (!s_user(r, email, uuid))
            continue;
        const char *params[] = {folder.id, uuid, NULL};
        if (s_exec(r,
                   "DELETE FROM vfolder_permissions WHERE vfolder_id = ?1 AND user_uuid "
                   "= ?2",
                   params, &err) == BUS_OK &&
            sqlite3_changes(bus_db_handle(gw_server_db(r->gw))) > 0)
            json_array_append_new(unshared, json_string(email));
    }
    gw_vfolder_clear(&folder);
    gw_reply_json(r, 200, json_pack("{s:o}", "unshared_emails", unshared));
}

//  ---------------------------------------------------------------------------
//  /folders/_/shared: who a folder is shared with, and changing that

//  The users a folder reaches through sharing (accepted invitations to a
//  user's folder, members given another permission on a project's), as
//  Backend.AI's list_shared_vfolders answers them: of the folder vfolder_id
//  names, which the caller owns or administers, or else of every folder
//  the caller owns.
static void
s_list_shared(gw_request_t *r)
{
    const char *id = json_string_value(json_object_get(r->params, "vfolder_id"));
    gw_vfolder_t folder = {0};
    if (id && *id && !gw_vfolder_reach(r, id, "ready", GW_VFOLDER_RO, true, &folder))
        return;
    const char *params[] = {folder.id, r->who.user_uuid, NULL}; //  "": none named
    json_t *rows = gw_store_rows(
        gw_server_db(r->gw),
        "SELECT v.id AS vfolder_id, v.name AS vfolder_name, v.status,"
        " coalesce(v.group_id, v.user_uuid) AS owner,"
        " CASE WHEN v.ownership_type = 'group' THEN 'project' ELSE 'user' END AS type,"
        " u.uuid, u.email, p.permission AS perm FROM vfolder_permissions p"
        " JOIN vfolders v ON v.id = p.vfolder_id JOIN users u ON u.uuid = p.user_uuid"
        " WHERE (?1 = '' AND v.user_uuid = ?2) OR v.id = ?1"
        " ORDER BY v.name, u.email",
        params, NULL);
    gw_vfolder_clear(&folder);
    if (!rows) {
        gw_reply_status(r, BUS_STATUS_INTERNAL, "cannot read the shared folders");
        return;
    }
    size_t index;
    json_t *row;
    json_array_foreach(rows, index, row)
    {
        json_object_set_new(row, "shared_to",
                            json_pack("{s:O, s:O}", "uuid", json_object_get(row, "uuid"),
                                      "email", json_object_get(row, "email")));
        json_object_del(row, "uuid");
        json_object_del(row, "email");
    }
    gw_reply_json(r, 200, json_pack("{s:o}", "shared", rows));
}

//  Backend.AI's update_shared_vfolder: {vfolder, user, perm}: the user's
//  permission on a folder shared with it becomes perm, or (perm null) the
//  sharing ends. The owner or an administrator of the folder only.
static void
s_update_shared(gw_request_t *r)
{
    const char *id = json_string_value(json_object_get(r->params, "vfolder"));
    const char *user = json_string_value(json_object_get(r->params, "user"));
    json_t *perm_in = json_object_get(r->params, "perm");
    gw_vfolder_perm_t perm = gw_vfolder_perm_parse(json_string_value(perm_in));
    if (!id || !user || (perm_in && !json_is_null(perm_in) && !perm)) {
        gw_reply_problem(r, "invalid-api-params",
                         "vfolder and user are required; perm: ro, rw, wd or null");
        return;
    }
    gw_vfolder_t folder;
    if (!gw_vfolder_reach(r, id, "ready", GW_VFOLDER_RO, true, &folder))
        return;
    const char *params[] = {folder.id, user, perm ? gw_vfolder_perm_str(perm) : NULL,
                            NULL};
    bus_error_t err = {0};
    int rc = s_exec(r,
                    perm ? "UPDATE vfolder_permissions SET permission = ?3"
                           " WHERE vfolder_id = ?1 AND user_uuid = ?2"
                         : "DELETE FROM vfolder_permissions"
                           " WHERE vfolder_id = ?1 AND user_uuid = ?2",
                    params, &err);
    bool changed =
        rc == BUS_OK && sqlite3_changes(bus_db_handle(gw_server_db(r->gw))) > 0;
    gw_vfolder_clear(&folder);
    if (rc != BUS_OK)
        gw_reply_status(r, rc, err.detail);
    else if (!changed)
        gw_reply_problem(r, "object-not-found",
                         "the folder is not shared with that user");
    else
        gw_reply_json(r, 200, json_pack("{s:s}", "msg", "success"));
}

void
gw_vfolder_handle_shared(gw_request_t *r)
{
    if (strcmp(r->method, "POST") == 0)
        s_update_shared(r);
    else
        s_list_shared(r);
}

//  ---------------------------------------------------------------------------
//  POST /folders/{name}/leave

void
gw_vfolder_handle_leave(gw_request_t *r)
{
    const char *other = json_string_value(json_object_get(r->params, "shared_user_uuid"));
    gw_vfolder_t folder;
    if (!gw_vfolder_reach(r, gw_request_path_param(r, "name"), "ready", GW_VFOLDER_RO,
                          false, &folder))
        return;
    const char *leaver = r->who.user_uuid;
    const char *refusal = NULL;
    if (other && *other) {
        //  An owner or administrator may remove someone else.
        if (!folder.is_owner && !folder.admin)
            refusal = "only the owner removes others from a folder";
        leaver = other;
    } else if (folder.is_owner && !folder.admin)
        refusal = "Cannot leave a vfolder owned by the requester.";
    bus_error_t err = {0};
    const char *params[] = {folder.id, leaver, NULL};
    int rc = refusal ? BUS_OK
                     : s_exec(r,
                              "DELETE FROM vfolder_permissions WHERE vfolder_id = ?1"
                              " AND user_uuid = ?2",
                              params, &err);
    bool left = !refusal && rc == BUS_OK &&
                sqlite3_changes(bus_db_handle(gw_server_db(r->gw))) > 0;
    gw_vfolder_clear(&folder);
    if (refusal)
        gw_reply_problem(r, "vfolder-permission-error", refusal);
    else if (rc != BUS_OK)
        gw_reply_status(r, rc, err.detail);
    else if (!left)
        gw_reply_problem(r, "vfolder-permission-error",
                         "the folder reaches you through its project, not by sharing: "
                         "there is nothing to leave");
    else
        gw_reply_json(r, 200, json_pack("{s:s}", "msg", "left the shared vfolder"));
}
