/*  =========================================================================
    gw_vfolder_files - the files in a folder: list, mkdir, rename, move,
    delete, and the tokens for uploads and downloads

    Reading (list, request-download) needs ro; changing anything needs rw.
    Paths go to the storage-proxy as the client wrote them: it is the one
    that resolves them beneath the folder root and refuses what escapes.
    The paths of transfer tokens are checked here too, lexically, so that
    no token is signed for a path that leaves the folder.
    An upload or download never passes through the gateway: it signs a
    short-lived token (bus_token, with the secret it shares with the
    storage-proxies) scoped to one folder, one path and one operation, and
    the client takes it to the storage-proxy's own URL.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define S_LIST_LIMIT     1000   //  entries per page when the client names none
#define S_LIST_LIMIT_MAX 100000 //  most entries per page
#define S_DELETE_MAX     10000  //  paths in one delete-files

typedef struct {
    gw_request_t *r;
    gw_vfolder_t folder;
    json_t *paths; //  mkdir: what was asked, for the answer
} files_call_t;

static files_call_t *
s_call_new(gw_request_t *r, gw_vfolder_t *folder)
{
    files_call_t *call = calloc(1, sizeof *call);
    if (!call) {
        gw_vfolder_clear(folder);
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    call->r = r;
    call->folder = *folder;
    return call;
}

static void
s_call_free(files_call_t *call)
{
    gw_vfolder_clear(&call->folder);
    json_decref(call->paths);
    free(call);
}

//  The folder of the route's {name} with at least perm; NULL after replying.
static files_call_t *
s_reach(gw_request_t *r, gw_vfolder_perm_t perm)
{
    gw_vfolder_t folder;
    if (!gw_vfolder_reach(r, gw_request_path_param(r, "name"), "ready", perm, false,
                          &folder))
        return NULL;
    return s_call_new(r, &folder);
}

static void
s_reply_failed(gw_request_t *r, const bus_reply_t *reply)
{
    if (reply->status == BUS_STATUS_CONFLICT || reply->status == BUS_STATUS_NOT_FOUND)
        gw_reply_problem(r, "vfolder-operation-failed", reply->detail);
    else if (reply->status == BUS_STATUS_FORBIDDEN)
        gw_reply_problem(r, "quota-exceeded", reply->detail);
    else
        gw_reply_status(r, reply->status, reply->detail);
}

//  Sends the request in writer to the folder's storage-proxy.
static void
s_send(files_call_t *call,
       const char *method,
       bus_writer_t *writer,
       const bus_error_t *err,
       bus_reply_fn *done)
{
    gw_storage_call(gw_server_storage(call->r->gw), call->folder.host, method, writer,
                    err, done, call);
}

//  ---------------------------------------------------------------------------
//  GET /folders/{name}/files

//  "drwxr-xr-x" for type and mode, as ls and Backend.AI's "files" show it.
static void
s_mode_string(const char *type, uint64_t mode, char out[11])
{
    out[0] = strcmp(type, "DIRECTORY") == 0 ? 'd'
             : strcmp(type, "SYMLINK") == 0 ? 'l'
                                            : '-';
    const char *letters = "rwxrwxrwx";
    for (int i = 0; i < 9; i++)
        out[1 + i] = (mode & (0400u >> i)) ? letters[i] : '-';
    out[10] = '\0';
}

static void
s_iso(int64_t us, char out[40])
{
    time_t seconds = (time_t) (us / 1000000);
    struct tm tm;
    gmtime_r(&seconds, &tm);
    strftime(out, 40, "%Y-%m-%dT%H:%M:%S+00:00", &tm);
}

static void
s_on_listed(void *arg, const bus_reply_t *reply)
{
    files_call_t *call = arg;
    proto_storage_files_list_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK) {
        s_reply_failed(call->r, reply);
        s_call_free(call);
        return;
    }
    if (proto_storage_files_list_rep_decode(&rep, reply->body, reply->body_size, &err) !=
        BUS_OK) {
        gw_reply_status(call->r, BUS_STATUS_PROTOCOL, err.detail);
        s_call_free(call);
        return;
    }
    json_t *items = json_array(), *files = json_array();
    for (size_t i = 0; i < rep.entries_count; i++) {
        const proto_storage_entry_t *e = &rep.entries[i];
        char octal[8], mode[11], created[40], modified[40];
        snprintf(octal, sizeof octal, "%o", (unsigned) (e->mode & 07777));
        s_mode_string(e->type, e->mode, mode);
        s_iso(e->ctime, created);
        s_iso(e->mtime, modified);
        json_array_append_new(items, json_pack("{s:s, s:s, s:I, s:s, s:s, s:s}", "name",
                                               e->name, "type", e->type, "size",
                                               (json_int_t) e->size, "mode", octal,
                                               "created", created, "modified", modified));
        json_array_append_new(files,
                              json_pack("{s:s, s:I, s:s, s:f, s:i, s:f}", "filename",
                                        e->name, "size", (json_int_t) e->size, "mode",
                                        mode, "ctime", (double) e->ctime / 1e6, "atime",
                                        0, "mtime", (double) e->mtime / 1e6));
    }
    char *files_text = json_dumps(files, JSON_COMPACT);
    json_decref(files);
    json_t *out = json_pack("{s:o, s:s, s:I, s:b}", "items", items, "files",
                            files_text ? files_text : "[]", "total",
                            (json_int_t) rep.total, "more", rep.more);
    if (rep.more && rep.cursor)
        json_object_set_new(out, "cursor", json_string(rep.cursor));
    free(files_text);
    gw_reply_json(call->r, 200, out);
    proto_storage_files_list_rep_clear(&rep);
    s_call_free(call);
}

void
gw_vfolder_handle_files(gw_request_t *r)
{
    json_t *params = r->params;
    const char *path = json_string_value(json_object_get(params, "path"));
    const char *cursor = json_string_value(json_object_get(params, "cursor"));
    json_t *limit_in = json_object_get(params, "limit");
    int64_t limit = S_LIST_LIMIT;
    if (json_is_integer(limit_in))
        limit = json_integer_value(limit_in);
    else if (json_is_string(limit_in))
        limit = strtoll(json_string_value(limit_in), NULL, 10);
    if (limit < 1 || limit > S_LIST_LIMIT_MAX) {
        gw_reply_problem(r, "invalid-api-params", "limit: 1 to 100000 entries");
        return;
    }
    files_call_t *call = s_reach(r, GW_VFOLDER_RO);
    if (!call)
        return;
    //  The official client lists "." for the root.
    if (!path || strcmp(path, ".") == 0 || strcmp(path, "./") == 0)
        path = "";
    proto_storage_files_list_req_t in;
    proto_storage_files_list_req_init(&in);
    in.id = call->folder.id;
    in.volume = gw_storage_volume_of(call->folder.host);
    in.path = path;
    in.cursor = cursor;
    in.limit = (uint64_t) limit;
    bus_error_t err;
    bus_writer_t *writer = proto_storage_files_list_req_writer(&in, &err);
    s_send(call, PROTO_STORAGE_FILES_LIST, writer, &err, s_on_listed);
}

//  ---------------------------------------------------------------------------
//  POST /folders/{name}/mkdir

static void
s_on_made(void *arg, const bus_reply_t *reply)
{
    files_call_t *call = arg;
    proto_storage_files_mkdir_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK)
        s_reply_failed(call->r, reply);
    else if (proto_storage_files_mkdir_rep_decode(&rep, reply->body, reply->body_size,
                                                  &err) != BUS_OK)
        gw_reply_status(call->r, BUS_STATUS_PROTOCOL, err.detail);
    else {
        json_t *success = json_array(), *failed = json_array();
        const char *first_failure = NULL;
        for (size_t i = 0; i < rep.results_count; i++) {
            const proto_storage_result_t *res = &rep.results[i];
            if (res->status == BUS_OK)
                json_array_append_new(success, json_pack("{s:s}", "item", res->path));
            else {
                json_array_append_new(failed,
                                      json_pack("{s:s, s:s}", "item", res->path, "msg",
                                                res->detail ? res->detail : ""));
                if (!first_failure)
                    first_failure = res->detail ? res->detail : "cannot make it";
            }
        }
        if (json_array_size(success) == 0 && first_failure) {
            gw_reply_problem(call->r, "vfolder-operation-failed", first_failure);
            json_decref(success);
            json_decref(failed);
        } else
            gw_reply_json(call->r, json_array_size(failed) ? 207 : 201,
                          json_pack("{s:{s:o, s:o}}", "results", "success", success,
                                    "failed", failed));
        proto_storage_files_mkdir_rep_clear(&rep);
    }
    s_call_free(call);
}

void
gw_vfolder_handle_mkdir(gw_request_t *r)
{
    json_t *path = json_object_get(r->params, "path");
    json_t *paths = json_is_string(path) ? json_pack("[O]", path) : json_incref(path);
    json_t *parents = json_object_get(r->params, "parents");
    json_t *exist_ok = json_object_get(r->params, "exist_ok");
    size_t count = json_array_size(paths);
    bool valid = json_is_array(paths) && count >= 1 && count <= 50;
    for (size_t i = 0; valid && i < count; i++)
        valid = json_is_string(json_array_get(paths, i));
    if (!valid) {
        json_decref(paths);
        gw_reply_problem(r, "invalid-api-params",
                         "path: a path or a list of at most 50 paths");
        return;
    }
    files_call_t *call = s_reach(r, GW_VFOLDER_RW);
    if (!call) {
        json_decref(paths);
        return;
    }
    call->paths = paths;
    const char *list[50];
    for (size_t i = 0; i < count; i++)
        list[i] = json_string_value(json_array_get(paths, i));
    proto_storage_files_mkdir_req_t in;
    proto_storage_files_mkdir_req_init(&in);
    in.id = call->folder.id;
    in.volume = gw_storage_volume_of(call->folder.host);
    in.paths = list;
    in.paths_count = count;
    in.parents = !json_is_false(parents);
    in.exist_ok = json_is_true(exist_ok);
    bus_error_t err;
    bus_writer_t *writer = proto_storage_files_mkdir_req_writer(&in, &err);
    s_send(call, PROTO_STORAGE_FILES_MKDIR, writer, &err, s_on_made);
}

//  ---------------------------------------------------------------------------
//  rename-file, move-file, delete-files: {} when done

static void
s_on_done(void *arg, const bus_reply_t *reply)
{
    files_call_t *call = arg;
    if (reply->status != BUS_OK)
        s_reply_failed(call->r, reply);
    else
        gw_reply_json(call->r, 200, NULL);
    s_call_free(call);
}

void
gw_vfolder_handle_rename_file(gw_request_t *r)
{
    const char *target = json_string_value(json_object_get(r->params, "target_path"));
    const char *new_name = json_string_value(json_object_get(r->params, "new_name"));
    if (!target || !new_name) {
        gw_reply_problem(r, "invalid-api-params",
                         "target_path and new_name are required");
        return;
    }
    files_call_t *call = s_reach(r, GW_VFOLDER_RW);
    if (!call)
        return;
    proto_storage_files_rename_req_t in;
    proto_storage_files_rename_req_init(&in);
    in.id = call->folder.id;
    in.volume = gw_storage_volume_of(call->folder.host);
    in.path = target;
    in.new_name = new_name;
    bus_error_t err;
    bus_writer_t *writer = proto_storage_files_rename_req_writer(&in, &err);
    s_send(call, PROTO_STORAGE_FILES_RENAME, writer, &err, s_on_done);
}

void
gw_vfolder_handle_move_file(gw_request_t *r)
{
    const char *src = json_string_value(json_object_get(r->params, "src"));
    const char *dst = json_string_value(json_object_get(r->params, "dst"));
    if (!src || !dst) {
        gw_reply_problem(r, "invalid-api-params", "src and dst are required");
        return;
    }
    files_call_t *call = s_reach(r, GW_VFOLDER_RW);
    if (!call)
        return;
    proto_storage_files_move_req_t in;
    proto_storage_files_move_req_init(&in);
    in.id = call->folder.id;
    in.volume = gw_storage_volume_of(call->folder.host);
    in.src = src;
    in.dst = dst;
    bus_error_t err;
    bus_writer_t *writer = proto_storage_files_move_req_writer(&in, &err);
    s_send(call, PROTO_STORAGE_FILES_MOVE, writer, &err, s_on_done);
}

void
gw_vfolder_handle_delete_files(gw_request_t *r)
{
    json_t *files = json_object_get(r->params, "files");
    size_t count = json_array_size(files);
    bool valid = json_is_array(files) && count >= 1 && count <= S_DELETE_MAX;
    for (size_t i = 0; valid && i < count; i++)
        valid = json_is_string(json_array_get(files, i));
    if (!valid) {
        gw_reply_problem(r, "invalid-api-params",
                         "files: a list of 1 to 10000 paths to delete");
        return;
    }
    files_call_t *call = s_reach(r, GW_VFOLDER_RW);
    if (!call)
        return;
    const char **list = calloc(count, sizeof *list);
    if (!list) {
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        s_call_free(call);
        return;
    }
    for (size_t i = 0; i < count; i++)
        list[i] = json_string_value(json_array_get(files, i));
    proto_storage_files_delete_req_t in;
    proto_storage_files_delete_req_init(&in);
    in.id = call->folder.id;
    in.volume = gw_storage_volume_of(call->folder.host);
    in.paths = list;
    in.paths_count = count;
    in.recursive = json_is_true(json_object_get(r->params, "recursive"));
    bus_error_t err;
    bus_writer_t *writer = proto_storage_files_delete_req_writer(&in, &err);
    free(list);
    s_send(call, PROTO_STORAGE_FILES_DELETE, writer, &err, s_on_done);
}

//  ---------------------------------------------------------------------------
//  request-upload, request-download

typedef struct {
    gw_request_t *r;
    gw_vfolder_t folder;
    bus_token_claims_t claims;
} token_call_t;

//  The directory knows the proxy's URL now: sign and answer.
static void
s_sign(void *arg)
{
    token_call_t *call = arg;
    gw_request_t *r = call->r;
    const char *url = NULL;
    bus_error_t err = {0};
    char *token = NULL;
    size_t secret_len;
    const uint8_t *secret = gw_server_token_secret(r->gw, &secret_len);
    if (!gw_storage_find(gw_server_storage(r->gw), call->folder.host, NULL, &url) ||
        !url || !*url)
        gw_reply_problem(r, "service-unavailable",
                         "the storage-proxy of this folder serves no client URL now");
    else if (!(token = bus_token_sign(secret, secret_len, &call->claims, &err)))
        gw_reply_problem(r, "invalid-api-params", err.detail);
    else {
        char target[600];
        snprintf(target, sizeof target, "%s/%s", url,
                 call->claims.op == BUS_TOKEN_UPLOAD ? "upload" : "download");
        gw_reply_json(r, 200, json_pack("{s:s, s:s}", "token", token, "url", target));
    }
    free(token);
    gw_vfolder_clear(&call->folder);
    free(call);
}

//  Whether path names a file beneath a folder's root, read as Backend.AI
//  reads it (joined to the root, then normalised): relative, no NUL, and
//  no ".." that climbs above the root ("a/../b" stays inside, "a/../../b"
//  does not). The root itself ("", ".", "a/..") is no file. The storage-
//  proxy resolves the path again when the token is used and refuses what
//  escapes (symbolic links included); this check is there so that a client
//  learns at once, as Backend.AI's answers it, instead of holding a token
//  that can never work.
static bool
s_file_path_inside(const char *path)
{
    if (!path || *path == '/' || strlen(path) > BUS_TOKEN_PATH_MAX)
        return false;
    int depth = 0;
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "/");
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            if (--depth < 0)
                return false;
        } else if (n > 0 && !(n == 1 && p[0] == '.'))
            depth++;
        p += n + (p[n] == '/');
    }
    return depth > 0;
}

//  Starts a token for op on path of the route's folder.
static void
s_token(gw_request_t *r, bus_token_op_t op, const char *path, uint64_t size)
{
    size_t secret_len;
    if (!gw_server_token_secret(r->gw, &secret_len)) {
        gw_reply_problem(
            r, "server-misconfigured",
            "the gateway has no vfolders.token_secret_file to sign transfers "
            "with");
        return;
    }
    bool upload = op == BUS_TOKEN_UPLOAD;
    if (!s_file_path_inside(path)) {
        gw_reply_problem(r, "invalid-api-params",
                         "path: the file's path in the folder, relative to its root and "
                         "inside it");
        return;
    }
    gw_vfolder_t folder;
    if (!gw_vfolder_reach(r, gw_request_path_param(r, "name"), "ready",
                          upload ? GW_VFOLDER_RW : GW_VFOLDER_RO, false, &folder))
        return;
    if (!folder.admin &&
        !gw_vfolder_host_allows(gw_request_ctx(r), folder.host, NULL,
                                upload ? "upload-file" : "download-file")) {
        gw_vfolder_clear(&folder);
        gw_reply_problem(r, "insufficient-privilege",
                         upload ? "you may not upload files to this host"
                                : "you may not download files from this host");
        return;
    }
    token_call_t *call = calloc(1, sizeof *call);
    if (!call) {
        gw_vfolder_clear(&folder);
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    call->r = r;
    call->folder = folder;
    call->claims.op = op;
    snprintf(call->claims.volume, sizeof call->claims.volume, "%s",
             gw_storage_volume_of(folder.host));
    snprintf(call->claims.folder, sizeof call->claims.folder, "%s", folder.id);
    snprintf(call->claims.path, sizeof call->claims.path, "%s", path);
    call->claims.size = size;
    call->claims.expires =
        bus_clock_wall_us() / 1000000 + gw_server_config(r->gw)->vfolder_token_ttl_s;
    gw_storage_ready(gw_server_storage(r->gw), s_sign, call);
}

void
gw_vfolder_handle_request_upload(gw_request_t *r)
{
    json_t *size = json_object_get(r->params, "size");
    int64_t bytes = json_integer_value(size);
    if (json_is_string(size))
        bytes = strtoll(json_string_value(size), NULL, 10);
    if ((!json_is_integer(size) && !json_is_string(size)) || bytes < 0) {
        gw_reply_problem(r, "invalid-api-params", "size: the file's size in bytes");
        return;
    }
    s_token(r, BUS_TOKEN_UPLOAD, json_string_value(json_object_get(r->params, "path")),
            (uint64_t) bytes);
}

void
gw_vfolder_handle_request_download(gw_request_t *r)
{
    const char *path = json_string_value(json_object_get(r->params, "path"));
    if (!path)
        path = json_string_value(json_object_get(r->params, "file"));
    if (json_is_true(json_object_get(r->params, "archive"))) {
        gw_reply_problem(r, "not-implemented",
                         "archive: download a directory's files one by one");
        return;
    }
    s_token(r, BUS_TOKEN_DOWNLOAD, path, 0);
}
