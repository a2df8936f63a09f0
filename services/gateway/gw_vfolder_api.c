/*  =========================================================================
    gw_vfolder_api - the /folders routes for the folders themselves

    The gateway owns names, owners, sharing and the trash; the
    storage-proxy that serves a folder's host owns its bytes. A new folder
    is recorded first, so that its name is taken at once, then made on the
    storage-proxy; if that fails the record goes again. The trash is only a
    status here: the bytes stay until a purge asks the storage-proxy to
    delete them, and the record goes once it has. A folder a session that
    has not ended mounts (the scheduler answers session.list by
    mounted_folder) does not go to the trash. Clones answer at once
    with the new folder reading "cloning", and turn "ready" when the copy
    is done (or go when it failed).

    Limits (gw_vfolder_check_limits), from the resource policies: a user's folders count
   against its user policy's max_vfolder_count (and its keypair policy's, when set), a
    project's against its project policy's; a folder's quota may not exceed
    max_quota_scope_size (nor the keypair policy's max_vfolder_size), and a
    folder created without one gets the smallest of them. 0 (or -1) means
    no limit.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  Sessions in these statuses mount, or are about to mount, their folders.
#define S_MOUNTING_STATUSES                                                              \
    "PENDING,SCHEDULED,PREPARING,BUILDING,PULLING,RUNNING,RESTARTING,RESIZING,"          \
    "SUSPENDED,RUNNING_DEGRADED,TERMINATING,ERROR"

//  The first string among keys in params.
static const char *
s_str(json_t *params, const char *const *keys)
{
    for (; *keys; keys++) {
        const char *value = json_string_value(json_object_get(params, *keys));
        if (value)
            return value;
    }
    return NULL;
}

static const char *const k_id[] = {"id", "vfolder_id", "vfolderId", NULL};

//  A storage-proxy's answer that failed, as problem+json.
static void
s_reply_storage(gw_request_t *r, const bus_reply_t *reply)
{
    if (reply->status == BUS_STATUS_FORBIDDEN)
        gw_reply_problem(r, "quota-exceeded", reply->detail);
    else if (reply->status == BUS_STATUS_CONFLICT)
        gw_reply_problem(r, "vfolder-operation-failed", reply->detail);
    else
        gw_reply_status(r, reply->status, reply->detail);
}

//  ---------------------------------------------------------------------------
//  POST /folders

typedef struct {
    gw_request_t *r;
    char id[GW_VFOLDER_ID_SIZE];
    json_t *view; //  the answer once the storage-proxy made it
} create_t;

static void
s_on_created(void *arg, const bus_reply_t *reply)
{
    create_t *call = arg;
    if (reply->status == BUS_OK)
        gw_reply_json(call->r, 201, json_incref(call->view));
    else {
        //  Give the name back: the folder was never made.
        gw_vfolder_forget(gw_server_db(call->r->gw), call->id);
        s_reply_storage(call->r, reply);
    }
    json_decref(call->view);
    free(call);
}

void
gw_vfolder_handle_create(gw_request_t *r)
{
    static const char *const k_name[] = {"name", "vfolder_name", NULL};
    static const char *const k_host[] = {"host", "folder_host", NULL};
    static const char *const k_group[] = {"group", "group_id", NULL};
    json_t *params = r->params;
    const char *name = s_str(params, k_name);
    const char *host = s_str(params, k_host);
    const char *group = s_str(params, k_group);
    const char *mode = json_string_value(json_object_get(params, "usage_mode"));
    const char *perm_text = json_string_value(json_object_get(params, "permission"));
    const char *unmanaged = json_string_value(json_object_get(params, "unmanaged_path"));
    json_t *cloneable = json_object_get(params, "cloneable");
    json_t *quota_in = json_object_get(params, "quota");
    bus_error_t err = {0};
    if (!name || !gw_vfolder_name_valid(name)) {
        gw_reply_problem(r, "invalid-api-params",
                         "name: 1-64 letters, digits, '.', '_' or '-', not a name a "
                         "kernel's home uses itself");
        return;
    }
    if (!host || !*host)
        host = gw_server_config(r->gw)->vfolder_default_host;
    if (!mode)
        mode = "general";
    if (strcmp(mode, "general") != 0 && strcmp(mode, "model") != 0 &&
        strcmp(mode, "data") != 0) {
        gw_reply_problem(r, "invalid-api-params", "usage_mode: general, model or data");
        return;
    }
    gw_vfolder_perm_t perm = perm_text ? gw_vfolder_perm_parse(perm_text) : GW_VFOLDER_RW;
    if (!perm) {
        gw_reply_problem(r, "invalid-api-params", "permission: ro, rw or wd");
        return;
    }
    if (unmanaged && *unmanaged) {
        gw_reply_problem(r, "not-implemented",
                         "unmanaged_path: folders live on the storage-proxy's volumes");
        return;
    }
    if (cloneable && !json_is_boolean(cloneable) && !json_is_null(cloneable)) {
        gw_reply_problem(r, "invalid-api-params", "cloneable: true or false");
        return;
    }
    int64_t quota = 0;
    if (quota_in && !json_is_null(quota_in) &&
        bus_slots_parse_bytes("quota", quota_in, &quota, &err) != BUS_OK) {
        gw_reply_problem(r, "invalid-api-params", err.detail);
        return;
    }
    char group_id[GW_UUID_SIZE] = "";
    if (group && *group) {
        if (name[0] == '.') {
            gw_reply_problem(
                r, "invalid-api-params",
                "a project folder cannot be a dot-prefixed automount folder");
            return;
        }
        bool admin = false;
        if (gw_vfolder_project(gw_request_ctx(r), group, group_id, &admin, &err) !=
            BUS_OK) {
            gw_reply_problem(r, "object-not-found", err.detail);
            return;
        }
        //  Project folders are the administrators' to make (Backend.AI).
        if (!admin) {
            gw_reply_problem(r, "insufficient-privilege",
                             "only administrators create project folders");
            return;
        }
    }
    if (!gw_vfolder_host_allows(gw_request_ctx(r), host, *group_id ? group_id : NULL,
                                "create-vfolder")) {
        char detail[300];
        snprintf(detail, sizeof detail, "you may not create folders on the host %s",
                 host);
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    if (gw_vfolder_name_taken(gw_request_ctx(r), name)) {
        gw_reply_problem(r, "vfolder-already-exists", NULL);
        return;
    }
    int64_t granted = 0;
    int rc = gw_vfolder_check_limits(gw_request_ctx(r), r->who.user_uuid,
                                     *group_id ? group_id : NULL, quota, &granted, &err);
    if (rc != BUS_OK) {
        gw_reply_status(r, rc, err.detail);
        return;
    }
    create_t *call = calloc(1, sizeof *call);
    char uuid[GW_UUID_SIZE], now[40];
    if (!call || gw_uuid_new(uuid) != 0) {
        free(call);
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    call->r = r;
    gw_vfolder_id_normal(uuid, call->id);
    gw_now_iso(now);
    json_t *fixed = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:I, s:s, s:s}", "name", name,
        "host", host, "domain_name", r->who.domain, "usage_mode", mode, "permission",
        gw_vfolder_perm_str(perm), "ownership_type", *group_id ? "group" : "user",
        *group_id ? "group_id" : "user_uuid", *group_id ? group_id : r->who.user_uuid,
        "creator", r->who.email, "cloneable", json_is_true(cloneable), "max_size",
        (json_int_t) granted, "created_at", now, "status_changed", now);
    static const gw_field_t none[] = {{NULL, 0}};
    json_t *empty = json_object();
    rc = gw_store_write(gw_server_db(r->gw), "vfolders", "id", call->id, none, empty,
                        fixed, true, &err);
    json_decref(empty);
    if (rc != BUS_OK) {
        json_decref(fixed);
        free(call);
        if (rc == BUS_STATUS_CONFLICT)
            gw_reply_problem(r, "vfolder-already-exists", NULL);
        else
            gw_reply_status(r, rc, err.detail);
        return;
    }
    char scope[128];
    snprintf(scope, sizeof scope, "%s:%s", *group_id ? "project" : "user",
             *group_id ? group_id : r->who.user_uuid);
    call->view = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:s, s:s, s:s?, s:s?, s:b, s:s}", "id",
        call->id, "name", name, "quota_scope_id", scope, "host", host, "usage_mode", mode,
        "permission", gw_vfolder_perm_str(perm), "max_size", (json_int_t) granted,
        "creator", r->who.email, "ownership_type", *group_id ? "group" : "user", "user",
        *group_id ? NULL : r->who.user_uuid, "group", *group_id ? group_id : NULL,
        "cloneable", json_is_true(cloneable), "status", "ready");
    json_decref(fixed);
    proto_storage_folder_create_req_t in;
    proto_storage_folder_create_req_init(&in);
    in.volume = gw_storage_volume_of(host);
    in.id = call->id;
    in.quota_bytes = (uint64_t) granted;
    bus_writer_t *writer = proto_storage_folder_create_req_writer(&in, &err);
    gw_storage_call(gw_server_storage(r->gw), host, PROTO_STORAGE_FOLDER_CREATE, writer,
                    &err, s_on_created, call);
}

//  ---------------------------------------------------------------------------
//  GET /folders, GET /folders/{name}

void
gw_vfolder_handle_list(gw_request_t *r)
{
    if (json_is_true(json_object_get(r->params, "all"))) {
        gw_reply_problem(r, "deprecated",
                         "all: use the vfolder_list GraphQL query to list every folder");
        return;
    }
    const char *group = json_string_value(json_object_get(r->params, "group_id"));
    json_t *list =
        gw_vfolder_list(gw_request_ctx(r), group && *group ? group : NULL, NULL);
    if (!list)
        gw_reply_status(r, BUS_STATUS_INTERNAL, "cannot read the folders");
    else
        gw_reply_json(r, 200, list);
}

typedef struct {
    gw_request_t *r;
    gw_vfolder_t folder;
} folder_call_t;

static folder_call_t *
s_folder_call(gw_request_t *r, gw_vfolder_t *folder)
{
    folder_call_t *call = calloc(1, sizeof *call);
    if (!call) {
        gw_vfolder_clear(folder);
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    call->r = r;
    call->folder = *folder; //  takes the row
    return call;
}

static void
s_folder_call_free(folder_call_t *call)
{
    gw_vfolder_clear(&call->folder);
    free(call);
}

//  Asks the folder's storage-proxy for its usage (scanned now when
//  rescan); done answers.
static void
s_ask_usage(folder_call_t *call, bool rescan, bus_reply_fn *done)
{
    proto_storage_folder_usage_req_t in;
    proto_storage_folder_usage_req_init(&in);
    in.id = call->folder.id;
    in.volume = gw_storage_volume_of(call->folder.host);
    in.rescan = rescan;
    bus_error_t err;
    bus_writer_t *writer = proto_storage_folder_usage_req_writer(&in, &err);
    gw_storage_call(gw_server_storage(call->r->gw), call->folder.host,
                    PROTO_STORAGE_FOLDER_USAGE, writer, &err, done, call);
}

static void
s_on_usage(void *arg, const bus_reply_t *reply)
{
    folder_call_t *call = arg;
    proto_storage_folder_usage_rep_t rep;
    bus_error_t err = {0};
    uint64_t files = 0, bytes = 0;
    //  Usage is a courtesy: a storage-proxy away still lets the info show.
    if (reply->status == BUS_OK &&
        proto_storage_folder_usage_rep_decode(&rep, reply->body, reply->body_size,
                                              &err) == BUS_OK) {
        files = rep.folder.file_count;
        bytes = rep.folder.usage_bytes;
        proto_storage_folder_usage_rep_clear(&rep);
    }
    json_t *view = gw_vfolder_view(&call->folder);
    json_object_set_new(view, "numFiles", json_integer((json_int_t) files));
    json_object_set_new(view, "num_files", json_integer((json_int_t) files));
    json_object_set_new(view, "used_bytes", json_integer((json_int_t) bytes));
    json_object_set_new(view, "cur_size", json_integer((json_int_t) bytes));
    json_object_set(view, "created", json_object_get(view, "created_at"));
    gw_reply_json(call->r, 200, view);
    s_folder_call_free(call);
}

//  Asks the folder's storage-proxy for its usage, then answers the info.
static void
s_info(gw_request_t *r, gw_vfolder_t *folder)
{
    folder_call_t *call = s_folder_call(r, folder);
    if (call)
        s_ask_usage(call, false, s_on_usage);
}

void
gw_vfolder_handle_info(gw_request_t *r)
{
    gw_vfolder_t folder;
    if (gw_vfolder_reach(r, gw_request_path_param(r, "name"), "ready", GW_VFOLDER_RO,
                         false, &folder))
        s_info(r, &folder);
}

//  ---------------------------------------------------------------------------
//  The trash: delete, restore, purge

//  The scheduler says whether a session that has not ended mounts the
//  folder: none does, into the trash; one does, refused (a purge would pull
//  the files from under it).
static void
s_on_mounting(void *arg, const bus_reply_t *reply)
{
    folder_call_t *call = arg;
    proto_session_list_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK)
        gw_reply_status(call->r, reply->status, reply->detail);
    else if (proto_session_list_rep_decode(&rep, reply->body, reply->body_size, &err) !=
             BUS_OK)
        gw_reply_status(call->r, BUS_STATUS_PROTOCOL, err.detail);
    else {
        char detail[256];
        if (rep.sessions_count > 0) {
            snprintf(detail, sizeof detail,
                     "the virtual folder %s is mounted by the session %s: end it first",
                     call->folder.name, rep.sessions[0].name);
            gw_reply_problem(call->r, "vfolder-operation-failed", detail);
        } else if (gw_vfolder_set_status(gw_request_ctx(call->r), call->folder.id,
                                         "delete-pending", &err) != BUS_OK)
            gw_reply_status(call->r, err.status, err.detail);
        else
            gw_reply_json(call->r, 204, NULL);
        proto_session_list_rep_clear(&rep);
    }
    s_folder_call_free(call);
}

static void
s_trash(gw_request_t *r, const char *name_or_id)
{
    gw_vfolder_t folder;
    if (!gw_vfolder_reach(r, name_or_id, "ready", GW_VFOLDER_WD, false, &folder))
        return;
    if (!gw_vfolder_host_allows(gw_request_ctx(r), folder.host, NULL, "delete-vfolder") &&
        !folder.admin) {
        gw_vfolder_clear(&folder);
        gw_reply_problem(r, "insufficient-privilege",
                         "you may not delete folders on this host");
        return;
    }
    folder_call_t *call = s_folder_call(r, &folder);
    if (!call)
        return;
    proto_session_list_req_t in;
    proto_session_list_req_init(&in);
    in.mounted_folder = call->folder.id;
    in.statuses = S_MOUNTING_STATUSES;
    in.limit = 1;
    bus_writer_t *writer = bus_writer_new();
    const char *scheduler = bus_node_find(gw_server_node(r->gw), "scheduler");
    bool sent = writer && scheduler && proto_session_list_req_write(&in, writer) == 0 &&
                bus_node_call(gw_server_node(r->gw), scheduler, PROTO_SESSION_LIST,
                              bus_writer_data(writer), bus_writer_size(writer), 0,
                              s_on_mounting, call) != 0;
    bus_writer_destroy(&writer);
    if (!sent) {
        gw_reply_status(r, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
        s_folder_call_free(call);
    }
}

void
gw_vfolder_handle_delete(gw_request_t *r)
{
    s_trash(r, gw_request_path_param(r, "name"));
}

void
gw_vfolder_handle_delete_id(gw_request_t *r)
{
    const char *id = s_str(r->params, k_id);
    if (!id)
        gw_reply_problem(r, "invalid-api-params", "id is required");
    else
        s_trash(r, id);
}

void
gw_vfolder_handle_restore(gw_request_t *r)
{
    gw_vfolder_t folder;
    const char *id = s_str(r->params, k_id);
    if (!id) {
        gw_reply_problem(r, "invalid-api-params", "id is required");
        return;
    }
    if (!gw_vfolder_reach(r, id, "delete-pending", GW_VFOLDER_WD, false, &folder))
        return;
    bus_error_t err = {0};
    int rc = gw_vfolder_set_status(gw_request_ctx(r), folder.id, "ready", &err);
    gw_vfolder_clear(&folder);
    if (rc == BUS_STATUS_CONFLICT)
        gw_reply_problem(r, "vfolder-already-exists",
                         "a folder of the same owner took its name meanwhile: rename "
                         "that one first");
    else if (rc != BUS_OK)
        gw_reply_status(r, rc, err.detail);
    else
        gw_reply_json(r, 204, NULL);
}

static void
s_on_purged(void *arg, const bus_reply_t *reply)
{
    folder_call_t *call = arg;
    //  Already gone on the storage side is as good as deleted now.
    if (reply->status == BUS_OK || reply->status == BUS_STATUS_NOT_FOUND) {
        gw_vfolder_forget(gw_server_db(call->r->gw), call->folder.id);
        gw_reply_json(call->r, 204, NULL);
    } else
        s_reply_storage(call->r, reply);
    s_folder_call_free(call);
}

void
gw_vfolder_handle_purge(gw_request_t *r)
{
    gw_vfolder_t folder;
    const char *id = s_str(r->params, k_id);
    if (!id) {
        gw_reply_problem(r, "invalid-api-params", "id is required");
        return;
    }
    if (!gw_vfolder_reach(r, id, "delete-pending", GW_VFOLDER_WD, false, &folder))
        return;
    folder_call_t *call = s_folder_call(r, &folder);
    if (!call)
        return;
    //  Marked first: a purge that fails half way is retried, never listed.
    bus_error_t err = {0};
    gw_vfolder_set_status(gw_request_ctx(r), call->folder.id, "delete-pending", &err);
    proto_storage_folder_delete_req_t in;
    proto_storage_folder_delete_req_init(&in);
    in.id = call->folder.id;
    in.volume = gw_storage_volume_of(call->folder.host);
    bus_writer_t *writer = proto_storage_folder_delete_req_writer(&in, &err);
    gw_storage_call(gw_server_storage(r->gw), call->folder.host,
                    PROTO_STORAGE_FOLDER_DELETE, writer, &err, s_on_purged, call);
}

//  ---------------------------------------------------------------------------
//  Rename and options

void
gw_vfolder_handle_rename(gw_request_t *r)
{
    const char *new_name = json_string_value(json_object_get(r->params, "new_name"));
    if (!new_name || !gw_vfolder_name_valid(new_name)) {
        gw_reply_problem(r, "invalid-api-params",
                         "new_name: 1-64 letters, digits, '.', '_' or '-'");
        return;
    }
    gw_vfolder_t folder;
    if (!gw_vfolder_reach(r, gw_request_path_param(r, "name"), "ready", GW_VFOLDER_RO,
                          true, &folder))
        return;
    if (strcmp(folder.name, new_name) != 0 &&
        gw_vfolder_name_taken(gw_request_ctx(r), new_name)) {
        gw_vfolder_clear(&folder);
        gw_reply_problem(r, "vfolder-already-exists", NULL);
        return;
    }
    bus_error_t err = {0};
    json_t *props = json_pack("{s:s}", "name", new_name);
    static const gw_field_t fields[] = {{"name", GW_FIELD_TEXT}, {NULL, 0}};
    int rc = gw_store_write(gw_server_db(r->gw), "vfolders", "id", folder.id, fields,
                            props, NULL, false, &err);
    json_decref(props);
    gw_vfolder_clear(&folder);
    if (rc == BUS_STATUS_CONFLICT)
        gw_reply_problem(r, "vfolder-already-exists", NULL);
    else if (rc != BUS_OK)
        gw_reply_status(r, rc, err.detail);
    else
        gw_reply_json(r, 201, NULL);
}

void
gw_vfolder_handle_update_options(gw_request_t *r)
{
    json_t *cloneable = json_object_get(r->params, "cloneable");
    const char *perm_text = json_string_value(json_object_get(r->params, "permission"));
    if (cloneable && !json_is_boolean(cloneable) && !json_is_null(cloneable)) {
        gw_reply_problem(r, "invalid-api-params", "cloneable: true or false");
        return;
    }
    if (perm_text && !gw_vfolder_perm_parse(perm_text)) {
        gw_reply_problem(r, "invalid-api-params", "permission: ro, rw or wd");
        return;
    }
    gw_vfolder_t folder;
    if (!gw_vfolder_reach(r, gw_request_path_param(r, "name"), "ready", GW_VFOLDER_RO,
                          true, &folder))
        return;
    json_t *props = json_object();
    if (json_is_boolean(cloneable))
        json_object_set(props, "cloneable", cloneable);
    if (perm_text)
        json_object_set_new(props, "permission", json_string(perm_text));
    static const gw_field_t fields[] = {
        {"cloneable", GW_FIELD_BOOL}, {"permission", GW_FIELD_TEXT}, {NULL, 0}};
    bus_error_t err = {0};
    int rc = json_object_size(props) == 0
                 ? BUS_OK
                 : gw_store_write(gw_server_db(r->gw), "vfolders", "id", folder.id,
                                  fields, props, NULL, false, &err);
    json_decref(props);
    gw_vfolder_clear(&folder);
    if (rc != BUS_OK)
        gw_reply_status(r, rc, err.detail);
    else
        gw_reply_json(r, 201, NULL);
}

//  ---------------------------------------------------------------------------
//  POST /folders/{name}/clone

typedef struct {
    bus_db_t *db; //  the request is answered before the copy ends
    char id[GW_VFOLDER_ID_SIZE];
} clone_t;

static void
s_on_cloned(void *arg, const bus_reply_t *reply)
{
    clone_t *clone = arg;
    if (reply->status == BUS_OK)
        gw_vfolder_clone_ready(clone->db, clone->id);
    else {
        bus_log_warning("clone into folder %s failed: %s", clone->id, reply->detail);
        gw_vfolder_forget(clone->db, clone->id);
    }
    free(clone);
}

void
gw_vfolder_handle_clone(gw_request_t *r)
{
    json_t *params = r->params;
    const char *target = json_string_value(json_object_get(params, "target_name"));
    const char *target_host = json_string_value(json_object_get(params, "target_host"));
    const char *mode = json_string_value(json_object_get(params, "usage_mode"));
    const char *perm_text = json_string_value(json_object_get(params, "permission"));
    json_t *cloneable = json_object_get(params, "cloneable");
    if (!target || !gw_vfolder_name_valid(target)) {
        gw_reply_problem(r, "invalid-api-params",
                         "target_name: 1-64 letters, digits, '.', '_' or '-'");
        return;
    }
    gw_vfolder_perm_t perm = perm_text ? gw_vfolder_perm_parse(perm_text) : GW_VFOLDER_RW;
    if (!perm || (mode && strcmp(mode, "general") != 0 && strcmp(mode, "model") != 0 &&
                  strcmp(mode, "data") != 0)) {
        gw_reply_problem(r, "invalid-api-params",
                         "permission: ro, rw or wd; usage_mode: general, model or data");
        return;
    }
    gw_vfolder_t source;
    if (!gw_vfolder_reach(r, gw_request_path_param(r, "name"), "ready", GW_VFOLDER_RO,
                          false, &source))
        return;
    const char *host = target_host && *target_host ? target_host : source.host;
    const char *refusal = NULL;
    bus_error_t err = {0};
    int64_t quota = json_integer_value(json_object_get(source.row, "max_size")), granted;
    if (!json_is_true(json_object_get(source.row, "cloneable")) && !source.is_owner &&
        !source.admin)
        refusal = "The source vfolder is not permitted to be cloned.";
    else if (strncmp(host, source.host, (size_t) (gw_storage_volume_of(host) - host)) !=
                 0 ||
             gw_storage_volume_of(host) - host !=
                 gw_storage_volume_of(source.host) - source.host)
        refusal = "a clone stays on the storage-proxy of its source";
    else if (!gw_vfolder_host_allows(gw_request_ctx(r), host, NULL, "create-vfolder"))
        refusal = "you may not create folders on the target host";
    else if (gw_vfolder_name_taken(gw_request_ctx(r), target))
        refusal = "vfolder-already-exists";
    else if (gw_vfolder_check_limits(gw_request_ctx(r), r->who.user_uuid, NULL, quota,
                                     &granted, &err) != BUS_OK)
        refusal = err.detail;
    if (refusal) {
        bool exists = strcmp(refusal, "vfolder-already-exists") == 0;
        gw_reply_problem(r, exists ? "vfolder-already-exists" : "invalid-api-params",
                         exists ? NULL : refusal);
        gw_vfolder_clear(&source);
        return;
    }
    clone_t *clone = calloc(1, sizeof *clone);
    char uuid[GW_UUID_SIZE], now[40];
    if (!clone || gw_uuid_new(uuid) != 0) {
        free(clone);
        gw_vfolder_clear(&source);
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    clone->db = gw_server_db(r->gw);
    gw_vfolder_id_normal(uuid, clone->id);
    gw_now_iso(now);
    json_t *fixed = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:I, s:s, s:s, s:s}", "name",
        target, "host", host, "domain_name", r->who.domain, "usage_mode",
        mode ? mode : json_string_value(json_object_get(source.row, "usage_mode")),
        "permission", gw_vfolder_perm_str(perm), "ownership_type", "user", "user_uuid",
        r->who.user_uuid, "creator", r->who.email, "cloneable", json_is_true(cloneable),
        "max_size", (json_int_t) granted, "created_at", now, "status_changed", now,
        "status", "cloning");
    static const gw_field_t none[] = {{NULL, 0}};
    json_t *empty = json_object();
    int rc = gw_store_write(gw_server_db(r->gw), "vfolders", "id", clone->id, none, empty,
                            fixed, true, &err);
    json_decref(empty);
    json_decref(fixed);
    if (rc != BUS_OK) {
        free(clone);
        gw_vfolder_clear(&source);
        if (rc == BUS_STATUS_CONFLICT)
            gw_reply_problem(r, "vfolder-already-exists", NULL);
        else
            gw_reply_status(r, rc, err.detail);
        return;
    }
    proto_storage_folder_clone_req_t in;
    proto_storage_folder_clone_req_init(&in);
    in.id = source.id;
    in.volume = gw_storage_volume_of(source.host);
    in.target_id = clone->id;
    in.target_volume = gw_storage_volume_of(host);
    in.quota_bytes = (uint64_t) granted;
    bus_writer_t *writer = proto_storage_folder_clone_req_writer(&in, &err);
    if (!writer) {
        bus_reply_t failed = {err.status, err.detail, NULL, 0, 0, 0};
        s_on_cloned(clone, &failed); //  drops the row and frees clone
        gw_vfolder_clear(&source);
        gw_reply_status(r, err.status, err.detail);
        return;
    }
    //  Packed first: done may run (and free clone) before the call returns.
    json_t *body = json_pack("{s:s, s:s, s:s, s:s, s:n}", "id", clone->id, "name", target,
                             "host", host, "status", "cloning", "bgtask_id");
    gw_storage_call(gw_server_storage(r->gw), host, PROTO_STORAGE_FOLDER_CLONE, writer,
                    NULL, s_on_cloned, clone);
    gw_reply_json(r, 201, body);
    gw_vfolder_clear(&source);
}

//  ---------------------------------------------------------------------------
//  /folders/_/...

void
gw_vfolder_handle_id(gw_request_t *r)
{
    static const char *const k_name[] = {"name", "vfolder_name", "vfolderName", NULL};
    const char *name = s_str(r->params, k_name);
    if (!name) {
        gw_reply_problem(r, "invalid-api-params", "name is required");
        return;
    }
    gw_vfolder_t folder;
    if (!gw_vfolder_reach(r, name, "ready", GW_VFOLDER_RO, false, &folder))
        return;
    const char *h = folder.id;
    char uuid[GW_UUID_SIZE];
    snprintf(uuid, sizeof uuid, "%.8s-%.4s-%.4s-%.4s-%.12s", h, h + 8, h + 12, h + 16,
             h + 20);
    gw_reply_json(r, 200, json_pack("{s:s, s:s}", "id", uuid, "name", folder.name));
    gw_vfolder_clear(&folder);
}

static void
s_hosts_ready(void *arg)
{
    gw_request_t *r = arg;
    const char *group = json_string_value(json_object_get(r->params, "group_id"));
    json_t *allowed =
        gw_vfolder_allowed_hosts(gw_request_ctx(r), group && *group ? group : NULL);
    const char *wanted = gw_server_config(r->gw)->vfolder_default_host;
    json_t *def = json_null();
    json_t *info = json_object();
    size_t index;
    json_t *host;
    json_array_foreach(allowed, index, host)
    {
        if (strcmp(json_string_value(host), wanted) == 0)
            def = json_string(wanted);
    }
    json_t *volume;
    json_array_foreach(gw_storage_volumes(gw_server_storage(r->gw)), index, volume)
    {
        const char *name = json_string_value(json_object_get(volume, "host"));
        bool listed = false;
        for (size_t i = 0; i < json_array_size(allowed); i++)
            listed |= strcmp(json_string_value(json_array_get(allowed, i)), name) == 0;
        if (!listed)
            continue;
        json_t *usage = json_object_get(volume, "usage");
        json_int_t capacity =
            json_integer_value(json_object_get(usage, "capacity_bytes"));
        json_int_t used = json_integer_value(json_object_get(usage, "used_bytes"));
        json_object_set_new(
            info, name,
            json_pack("{s:O, s:O, s:{s:I, s:I, s:f}, s:[]}", "backend",
                      json_object_get(volume, "backend"), "capabilities",
                      json_object_get(volume, "capabilities"), "usage", "capacity_bytes",
                      capacity, "used_bytes", used, "percentage",
                      capacity > 0 ? 100.0 * (double) used / (double) capacity : 0.0,
                      "sftp_scaling_groups"));
    }
    gw_reply_json(r, 200,
                  json_pack("{s:o, s:o, s:o}", "default", def, "allowed", allowed,
                            "volume_info", info));
}

void
gw_vfolder_handle_hosts(gw_request_t *r)
{
    gw_storage_ready(gw_server_storage(r->gw), s_hosts_ready, r);
}

static void
s_all_hosts_ready(void *arg)
{
    gw_request_t *r = arg;
    json_t *allowed = json_array();
    const char *wanted = gw_server_config(r->gw)->vfolder_default_host;
    json_t *def = json_null();
    size_t index;
    json_t *volume;
    json_array_foreach(gw_storage_volumes(gw_server_storage(r->gw)), index, volume)
    {
        json_t *host = json_object_get(volume, "host");
        json_array_append(allowed, host);
        if (strcmp(json_string_value(host), wanted) == 0)
            def = json_incref(host);
    }
    gw_reply_json(r, 200, json_pack("{s:o, s:o}", "default", def, "allowed", allowed));
}

void
gw_vfolder_handle_all_hosts(gw_request_t *r)
{
    if (!gw_identity_is_superadmin(&r->who)) {
        gw_reply_problem(r, "insufficient-privilege", "superadmins only");
        return;
    }
    gw_storage_ready(gw_server_storage(r->gw), s_all_hosts_ready, r);
}

void
gw_vfolder_handle_allowed_types(gw_request_t *r)
{
    gw_reply_json(r, 200, json_pack("[s, s]", "user", "group"));
}

//  ---------------------------------------------------------------------------
//  Quota and usage of one folder (owners and admins)

static void
s_on_quota(void *arg, const bus_reply_t *reply)
{
    folder_call_t *call = arg;
    proto_storage_folder_quota_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK)
        s_reply_storage(call->r, reply);
    else if (proto_storage_folder_quota_rep_decode(&rep, reply->body, reply->body_size,
                                                   &err) != BUS_OK)
        gw_reply_status(call->r, BUS_STATUS_PROTOCOL, err.detail);
    else {
        gw_vfolder_set_max_size(gw_server_db(call->r->gw), call->folder.id,
                                rep.folder.quota_bytes);
        gw_reply_json(
            call->r, 200,
            json_pack("{s:I}", "size_bytes", (json_int_t) rep.folder.quota_bytes));
        proto_storage_folder_quota_rep_clear(&rep);
    }
    s_folder_call_free(call);
}

void
gw_vfolder_handle_quota(gw_request_t *r)
{
    const char *id = s_str(r->params, k_id);
    gw_vfolder_t folder;
    if (!id) {
        gw_reply_problem(r, "invalid-api-params", "id is required");
        return;
    }
    bool set = strcmp(r->method, "POST") == 0;
    if (!gw_vfolder_reach(r, id, "ready", GW_VFOLDER_RO, set, &folder))
        return;
    if (!set) {
        gw_reply_json(
            r, 200,
            json_pack("{s:O}", "size_bytes", json_object_get(folder.row, "max_size")));
        gw_vfolder_clear(&folder);
        return;
    }
    json_t *input = json_object_get(r->params, "input");
    json_t *size = json_object_get(input ? input : r->params, "size_bytes");
    int64_t bytes = 0, granted = 0;
    bus_error_t err = {0};
    if (!size || bus_slots_parse_bytes("size_bytes", size, &bytes, &err) != BUS_OK) {
        gw_vfolder_clear(&folder);
        gw_reply_problem(r, "invalid-api-params",
                         *err.detail ? err.detail : "input.size_bytes is required");
        return;
    }
    //  The limit of the owner's policy holds for a new quota too; the count
    //  is not asked again (-1 new folders).
    const char *group = json_string_value(json_object_get(folder.row, "group_id"));
    const char *user = json_string_value(json_object_get(folder.row, "user_uuid"));
    int rc = BUS_OK;
    if (!folder.admin) {
        rc = gw_vfolder_check_limits(gw_request_ctx(r), user, group, bytes, &granted,
                                     &err);
        if (rc == BUS_STATUS_INVALID && strstr(err.detail, "more vfolders"))
            rc = BUS_OK;
    }
    if (rc != BUS_OK) {
        gw_vfolder_clear(&folder);
        gw_reply_status(r, rc, err.detail);
        return;
    }
    folder_call_t *call = s_folder_call(r, &folder);
    if (!call)
        return;
    proto_storage_folder_quota_req_t in;
    proto_storage_folder_quota_req_init(&in);
    in.id = call->folder.id;
    in.volume = gw_storage_volume_of(call->folder.host);
    in.quota_bytes = (uint64_t) bytes;
    bus_writer_t *writer = proto_storage_folder_quota_req_writer(&in, &err);
    gw_storage_call(gw_server_storage(r->gw), call->folder.host,
                    PROTO_STORAGE_FOLDER_QUOTA, writer, &err, s_on_quota, call);
}

static void
s_on_used(void *arg, const bus_reply_t *reply)
{
    folder_call_t *call = arg;
    proto_storage_folder_usage_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK)
        s_reply_storage(call->r, reply);
    else if (proto_storage_folder_usage_rep_decode(&rep, reply->body, reply->body_size,
                                                   &err) != BUS_OK)
        gw_reply_status(call->r, BUS_STATUS_PROTOCOL, err.detail);
    else {
        gw_reply_json(call->r, 200,
                      json_pack("{s:I, s:I, s:I, s:b}", "file_count",
                                (json_int_t) rep.folder.file_count, "used_bytes",
                                (json_int_t) rep.folder.usage_bytes, "quota_bytes",
                                (json_int_t) rep.folder.quota_bytes, "over_quota",
                                rep.folder.over_quota));
        proto_storage_folder_usage_rep_clear(&rep);
    }
    s_folder_call_free(call);
}

void
gw_vfolder_handle_usage(gw_request_t *r)
{
    const char *id = s_str(r->params, k_id);
    gw_vfolder_t folder;
    if (!id) {
        gw_reply_problem(r, "invalid-api-params", "id is required");
        return;
    }
    if (!gw_vfolder_reach(r, id, "ready", GW_VFOLDER_RO, false, &folder))
        return;
    folder_call_t *call = s_folder_call(r, &folder);
    if (call)
        s_ask_usage(call, true, s_on_used);
}
