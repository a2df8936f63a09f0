/*  =========================================================================
    gw_session_files - a session's files: upload, download, download_single,
    files (reference §3)

    Each handler checks what it can before anyone is asked (the multipart
    body, the counts and sizes, the paths' presence), then finds the
    session, then sends one kernel.* call to the agent of its main kernel
    and turns the answer into Backend.AI's reply. An upload's files are
    copied out of the request first: the request may be gone when the
    session is found.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include <strings.h>   //  strncasecmp
#include <sys/queue.h> //  TAILQ_INIT for evhttp_parse_query_str

#define FILES_CALL_TIMEOUT_MS 30000

typedef enum { FILES_UPLOAD, FILES_DOWNLOAD, FILES_SINGLE, FILES_LIST } files_op_t;

typedef struct {
    gw_request_t *r;
    files_op_t op;
    proto_kernel_upload_req_t upload; //  FILES_UPLOAD: the files, owned
    json_t *paths;                    //  FILES_DOWNLOAD: the paths; else the one path
} files_call_t;

static void
s_call_free(files_call_t *call)
{
    proto_kernel_upload_req_clear(&call->upload);
    json_decref(call->paths);
    free(call);
}

//  The first value of the first key present, as a string.
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

//  ---------------------------------------------------------------------------
//  The agent's answers

static void
s_on_uploaded(void *arg, const bus_reply_t *reply)
{
    files_call_t *call = arg;
    if (reply->status != BUS_OK)
        gw_reply_status(call->r, reply->status, reply->detail);
    else
        gw_reply_json(call->r, 204, NULL);
    s_call_free(call);
}

static void
s_on_downloaded(void *arg, const bus_reply_t *reply)
{
    files_call_t *call = arg;
    proto_kernel_download_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK)
        gw_reply_status(call->r, reply->status, reply->detail);
    else if (proto_kernel_download_rep_decode(&rep, reply->body, reply->body_size,
                                              &err) != BUS_OK)
        gw_reply_status(call->r, BUS_STATUS_PROTOCOL, err.detail);
    else {
        //  As Backend.AI answers: one part per archive, identity-encoded.
        gw_multipart_writer_t *writer = gw_multipart_writer_new("mixed");
        uint8_t *body = NULL;
        size_t size = 0;
        bool ok = writer != NULL;
        for (size_t i = 0; ok && i < rep.files_count; i++)
            ok = gw_multipart_writer_add(writer, NULL, NULL, "application/octet-stream",
                                         rep.files[i].data, rep.files[i].data_size) == 0;
        if (ok && gw_multipart_writer_finish(writer, &body, &size) == 0)
            gw_reply_bytes(call->r, 200, gw_multipart_writer_content_type(writer), body,
                           size);
        else
            gw_reply_status(call->r, BUS_STATUS_INTERNAL, "cannot build the reply");
        free(body);
        gw_multipart_writer_destroy(&writer);
        proto_kernel_download_rep_clear(&rep);
    }
    s_call_free(call);
}

static void
s_on_single(void *arg, const bus_reply_t *reply)
{
    files_call_t *call = arg;
    proto_kernel_download_single_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK)
        gw_reply_status(call->r, reply->status, reply->detail);
    else if (proto_kernel_download_single_rep_decode(&rep, reply->body, reply->body_size,
                                                     &err) != BUS_OK)
        gw_reply_status(call->r, BUS_STATUS_PROTOCOL, err.detail);
    else {
        gw_reply_bytes(call->r, 200, "application/octet-stream", rep.data, rep.data_size);
        proto_kernel_download_single_rep_clear(&rep);
    }
    s_call_free(call);
}

static void
s_on_listed(void *arg, const bus_reply_t *reply)
{
    files_call_t *call = arg;
    proto_kernel_list_files_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK)
        gw_reply_status(call->r, reply->status, reply->detail);
    else if (proto_kernel_list_files_rep_decode(&rep, reply->body, reply->body_size,
                                                &err) != BUS_OK)
        gw_reply_status(call->r, BUS_STATUS_PROTOCOL, err.detail);
    else {
        //  "files" is itself a JSON text, as Backend.AI's agent answers it.
        gw_reply_json(call->r, 200,
                      json_pack("{s:s, s:s, s:s}", "files", rep.files, "errors", "",
                                "abspath", rep.abspath ? rep.abspath : ""));
        proto_kernel_list_files_rep_clear(&rep);
    }
    s_call_free(call);
}

//  ---------------------------------------------------------------------------
//  The session is found: ask its agent

static void
s_on_session(gw_request_t *r, proto_session_info_t *info, void *arg)
{
    files_call_t *call = arg;
    call->r = r;
    gw_session_kernel_t at;
    if (!gw_session_kernel(r, info, &at)) {
        s_call_free(call);
        return;
    }
    bus_writer_t *writer = NULL;
    bus_error_t err;
    const char *method = NULL;
    bus_reply_fn *done = NULL;
    if (call->op == FILES_UPLOAD) {
        call->upload.kernel_id =
            proto_arena_strdup(&call->upload.owned_, info->kernel_id);
        writer = proto_kernel_upload_req_writer(&call->upload, &err);
        method = PROTO_KERNEL_UPLOAD, done = s_on_uploaded;
    } else if (call->op == FILES_DOWNLOAD) {
        proto_kernel_download_req_t in;
        proto_kernel_download_req_init(&in);
        in.kernel_id = info->kernel_id;
        const char *paths[GW_FILES_DOWNLOAD_MAX];
        size_t index;
        json_t *path;
        json_array_foreach(call->paths, index, path) paths[index] =
            json_string_value(path);
        in.paths = paths;
        in.paths_count = json_array_size(call->paths);
        in.max_bytes = GW_FILES_ARCHIVE_MAX;
        writer = proto_kernel_download_req_writer(&in, &err);
        method = PROTO_KERNEL_DOWNLOAD, done = s_on_downloaded;
    } else if (call->op == FILES_SINGLE) {
        proto_kernel_download_single_req_t in;
        proto_kernel_download_single_req_init(&in);
        in.kernel_id = info->kernel_id;
        in.path = json_string_value(call->paths);
        in.max_bytes = GW_FILES_ARCHIVE_MAX;
        writer = proto_kernel_download_single_req_writer(&in, &err);
        method = PROTO_KERNEL_DOWNLOAD_SINGLE, done = s_on_single;
    } else {
        proto_kernel_list_files_req_t in;
        proto_kernel_list_files_req_init(&in);
        in.kernel_id = info->kernel_id;
        in.path = json_string_value(call->paths);
        writer = proto_kernel_list_files_req_writer(&in, &err);
        method = PROTO_KERNEL_LIST_FILES, done = s_on_listed;
    }
    if (!writer) {
        gw_reply_status(r, err.status, err.detail);
        s_call_free(call);
        return;
    }
    bool sent = bus_node_call(gw_server_node(r->gw), info->agent_addr, method,
                              bus_writer_data(writer), bus_writer_size(writer),
                              FILES_CALL_TIMEOUT_MS, done, call) != 0;
    bus_writer_destroy(&writer);
    if (!sent) {
        gw_reply_status(r, BUS_STATUS_UNAVAILABLE,
                        "the session's agent is not reachable");
        s_call_free(call);
    }
}

static files_call_t *
s_call_new(gw_request_t *r, files_op_t op)
{
    files_call_t *call = calloc(1, sizeof *call);
    if (!call) {
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    call->r = r;
    call->op = op;
    proto_kernel_upload_req_init(&call->upload);
    return call;
}

//  ---------------------------------------------------------------------------
//  Handlers

//  Copies the multipart body's files into the upload request; false after
//  answering the problem.
static bool
s_take_files(gw_request_t *r, proto_kernel_upload_req_t *upload)
{
    const char *type = gw_request_header(r, "Content-Type");
    struct evbuffer *input = evhttp_request_get_input_buffer(r->req);
    size_t size = evbuffer_get_length(input);
    const uint8_t *body = evbuffer_pullup(input, (ev_ssize_t) size);
    gw_multipart_part_t *parts = NULL;
    size_t count = 0;
    bus_error_t err = {0};
    if (!type || strncasecmp(type, "multipart/form-data", 19) != 0) {
        gw_reply_problem(r, "invalid-api-params",
                         "the files come as multipart/form-data");
        return false;
    }
    if (gw_multipart_parse(type, body, size, &parts, &count, &err) != 0) {
        gw_reply_problem(r, "invalid-api-params", err.detail);
        return false;
    }
    const char *refusal = count == 0                    ? "no file was sent"
                          : count > GW_FILES_UPLOAD_MAX ? "Too many files"
                                                        : NULL;
    for (size_t i = 0; !refusal && i < count; i++) {
        if (!parts[i].filename || !*parts[i].filename)
            refusal = "every part needs a filename: the file's path";
        else if (parts[i].size >= GW_FILES_UPLOAD_FILE_MAX)
            refusal = "Too large file";
    }
    if (refusal) {
        gw_multipart_parts_destroy(&parts, count);
        gw_reply_problem(r, "invalid-api-params", refusal);
        return false;
    }
    //  Everything goes into upload's arena: its clear frees it.
    void **owned = &upload->owned_;
    proto_kernel_file_t *files = proto_arena_alloc(owned, count * sizeof *files);
    upload->files = files;
    for (size_t i = 0; files && i < count; i++) {
        proto_kernel_file_t *file = &files[upload->files_count++];
        proto_kernel_file_init(file);
        //  aiohttp sends a plain filename percent-encoded ("a%2Fb.txt").
        char *decoded =
            parts[i].filename_ext ? NULL : gw_multipart_percent_decode(parts[i].filename);
        if (decoded && proto_arena_adopt(owned, decoded) != 0) {
            free(decoded);
            decoded = NULL;
        }
        file->path = parts[i].filename_ext ? proto_arena_strdup(owned, parts[i].filename)
                                           : decoded;
        uint8_t *data = proto_arena_alloc(owned, parts[i].size);
        if (!file->path || !data) {
            gw_multipart_parts_destroy(&parts, count);
            gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
            return false;
        }
        memcpy(data, parts[i].data, parts[i].size);
        file->data = data;
        file->data_size = parts[i].size;
    }
    gw_multipart_parts_destroy(&parts, count);
    if (!upload->files) {
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return false;
    }
    return true;
}

void
gw_session_files_handle_upload(gw_request_t *r)
{
    files_call_t *call = s_call_new(r, FILES_UPLOAD);
    if (!call)
        return;
    if (!s_take_files(r, &call->upload)) {
        s_call_free(call);
        return;
    }
    gw_session_find(r, s_on_session, call);
}

//  The paths of a download: "files" from the JSON body, or every "files"
//  of the query string (POST /download?files=a&files=b).
static json_t *
s_download_paths(gw_request_t *r)
{
    json_t *files = json_object_get(r->params, "files");
    if (json_is_array(files))
        return json_incref(files);
    //  The params keep one value per key; the query may repeat it.
    json_t *paths = json_array();
    const char *query = evhttp_uri_get_query(evhttp_request_get_evhttp_uri(r->req));
    struct evkeyvalq pairs;
    TAILQ_INIT(&pairs);
    if (query && evhttp_parse_query_str(query, &pairs) == 0)
        for (struct evkeyval *kv = pairs.tqh_first; kv; kv = kv->next.tqe_next)
            if (strcmp(kv->key, "files") == 0)
                json_array_append_new(paths, json_string(kv->value));
    evhttp_clear_headers(&pairs);
    return paths;
}

void
gw_session_files_handle_download(gw_request_t *r)
{
    json_t *paths = s_download_paths(r);
    size_t index;
    json_t *path;
    bool valid =
        json_array_size(paths) > 0 && json_array_size(paths) <= GW_FILES_DOWNLOAD_MAX;
    json_array_foreach(paths, index, path) valid = valid && json_is_string(path);
    if (!valid) {
        json_decref(paths);
        gw_reply_problem(r, "invalid-api-params",
                         "files: one to five paths (strings) to download");
        return;
    }
    files_call_t *call = s_call_new(r, FILES_DOWNLOAD);
    if (!call) {
        json_decref(paths);
        return;
    }
    call->paths = paths;
    gw_session_find(r, s_on_session, call);
}

void
gw_session_files_handle_download_single(gw_request_t *r)
{
    static const char *const k_file[] = {"file", NULL};
    const char *file = s_param(r, k_file);
    if (!file || !*file) {
        gw_reply_problem(r, "invalid-api-params", "file: the path to download");
        return;
    }
    files_call_t *call = s_call_new(r, FILES_SINGLE);
    if (!call)
        return;
    call->paths = json_string(file);
    gw_session_find(r, s_on_session, call);
}

void
gw_session_files_handle_list(gw_request_t *r)
{
    static const char *const k_path[] = {"path", NULL};
    const char *path = s_param(r, k_path);
    files_call_t *call = s_call_new(r, FILES_LIST);
    if (!call)
        return;
    call->paths = json_string(path && *path ? path : ".");
    gw_session_find(r, s_on_session, call);
}
