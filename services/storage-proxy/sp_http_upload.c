/*  =========================================================================
    sp_http_upload - the tus upload route of the storage-proxy's HTTP
    endpoint

    An upload is named by its token (the folder, the path, the size and a
    nonce) and staged by sp_upload in a file beside the folder, renamed into
    place once complete. A PATCH that passes every check (token, folder,
    offsets, quota for its whole Content-Length) becomes the connection's
    body sink: each buffer the connection reads is appended to the staging
    file. The whole chunk is charged to the folder's quota before a byte of
    it is read; what never arrives is given back when the body ends or the
    connection goes. A finished upload is remembered (sp_folders) so that a
    client that lost the last answer learns from HEAD that it is complete.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"

#define OFFSET_OCTET "application/offset+octet-stream"

//  An upload being served: what the request opened, and while its body
//  streams in (the connection's sink), the bytes charged and not written.
typedef struct {
    sp_folders_t *folders;
    sp_fs_t *fs;
    sp_upload_t *upload;
    sp_folder_t folder;
    bus_token_claims_t claims;
    uint64_t uncharged; //  bytes charged to the folder and not yet written
} upload_t;

//  Gives back what was charged and not written, and closes the upload.
static void
s_release(upload_t *u)
{
    if (u->upload && u->uncharged)
        sp_folders_refund(u->folders, u->folder.id, u->uncharged);
    u->uncharged = 0;
    sp_upload_destroy(&u->upload);
    sp_fs_destroy(&u->fs);
}

//  Answers a request for an upload whose bytes are all there.
static void
s_complete(sp_http_conn_t *conn, uint64_t size)
{
    const char *method = sp_http_conn_request(conn)->method;
    sp_http_conn_add(conn, "Upload-Offset: %" PRIu64, size);
    sp_http_conn_add(conn, "Upload-Length: %" PRIu64, size);
    if (strcmp(method, "HEAD") == 0) {
        sp_http_conn_add(conn, "Cache-Control: no-store");
        sp_http_conn_answer(conn, 200, NULL, NULL, 0);
    } else if (strcmp(method, "POST") == 0)
        sp_http_conn_answer(conn, 201, NULL, NULL, 0);
    else {
        uint64_t offset = UINT64_MAX;
        sp_http_conn_header_u64(conn, "Upload-Offset", &offset);
        if (offset == size && sp_http_conn_body_left(conn) == 0)
            sp_http_conn_answer(conn, 204, NULL, NULL, 0);
        else
            sp_http_conn_problem(conn, 409, "upload-offset-mismatch",
                                 "Upload offset mismatch.", "the upload is complete");
    }
}

//  The end of an upload's body, or of what arrived of it: answers and
//  closes the upload.
static void
s_done(upload_t *u, sp_http_conn_t *conn, const bus_error_t *err)
{
    if (u->uncharged) {
        sp_folders_refund(u->folders, u->folder.id, u->uncharged);
        u->uncharged = 0;
    }
    if (err->status == BUS_OK) {
        if (sp_upload_done(u->upload)) {
            sp_folders_upload_finished(u->folders, u->claims.nonce, u->folder.id,
                                       u->claims.size, u->claims.expires);
            bus_log_info("upload complete folder=%s size=%" PRIu64, u->folder.id,
                         u->claims.size);
        }
        sp_http_conn_add(conn, "Upload-Offset: %" PRIu64, sp_upload_offset(u->upload));
        sp_http_conn_answer(conn, 204, NULL, NULL, 0);
    } else {
        sp_http_conn_add(conn, "Upload-Offset: %" PRIu64, sp_upload_offset(u->upload));
        sp_http_conn_problem_for(conn, err);
    }
    s_release(u);
}

//  ---------------------------------------------------------------------------
//  The body sink (sp_http_body_t) of a PATCH: arg is an upload_t of its own.

//  Writes n body bytes to the staging file. 0 or -1 with err.
static int
s_body_write(void *arg, const void *data, size_t n, bus_error_t *err)
{
    upload_t *u = arg;
    if (sp_upload_append(u->upload, sp_upload_offset(u->upload), data, n, err) != 0)
        return -1;
    u->uncharged -= n;
    return 0;
}

static void
s_body_done(void *arg, sp_http_conn_t *conn, const bus_error_t *err)
{
    s_done(arg, conn, err);
    free(arg);
}

//  The client left mid-body: what arrived stays (tus), the rest is refunded.
static void
s_body_abort(void *arg)
{
    s_release(arg);
    free(arg);
}

static const sp_http_body_t s_body = {s_body_write, s_body_done, s_body_abort};

//  ---------------------------------------------------------------------------

//  Checks a PATCH and starts streaming its body into u's upload (then the
//  connection holds a copy of u and u is emptied), or answers why not.
static void
s_patch(upload_t *u, sp_http_conn_t *conn)
{
    const char *type = sp_http_conn_header(conn, "Content-Type");
    uint64_t offset;
    bus_error_t err = {0};
    if (!type || strncasecmp(type, OFFSET_OCTET, strlen(OFFSET_OCTET)) != 0) {
        sp_http_conn_problem(conn, 415, "invalid-api-params",
                             "Missing or invalid API parameters.",
                             "Content-Type must be " OFFSET_OCTET);
        return;
    }
    if (!sp_http_conn_header_u64(conn, "Upload-Offset", &offset)) {
        sp_http_conn_problem(conn, 400, "invalid-api-params",
                             "Missing or invalid API parameters.",
                             "missing or bad Upload-Offset");
        return;
    }
    uint64_t len = sp_http_conn_body_left(conn);
    uint64_t at = sp_upload_offset(u->upload);
    if (offset != at) {
        char detail[128];
        snprintf(detail, sizeof detail,
                 "Upload-Offset %" PRIu64 " does not match the upload's offset %" PRIu64,
                 offset, at);
        sp_http_conn_add(conn, "Upload-Offset: %" PRIu64, at);
        sp_http_conn_problem(conn, 409, "upload-offset-mismatch",
                             "Upload offset mismatch.", detail);
        return;
    }
    if (len > sp_upload_size(u->upload) - at) {
        char detail[160];
        snprintf(detail, sizeof detail,
                 "chunk of %" PRIu64 " bytes at %" PRIu64
                 " goes past the announced size of %" PRIu64,
                 len, at, sp_upload_size(u->upload));
        sp_http_conn_problem(conn, 400, "invalid-api-params",
                             "Missing or invalid API parameters.", detail);
        return;
    }
    //  The whole chunk is charged first: one that would cross the quota is
    //  refused before a byte of it is read. What does not arrive is given
    //  back at the end.
    if (len && sp_folders_charge(u->folders, u->folder.id, len, &err) != 0) {
        sp_http_conn_add(conn, "Upload-Offset: %" PRIu64, at);
        sp_http_conn_problem_for(conn, &err);
        return;
    }
    u->uncharged = len;
    if (len == 0) {
        s_done(u, conn, &err);
        return;
    }
    upload_t *kept = malloc(sizeof *kept);
    if (kept)
        *kept = *u;
    if (!kept || sp_http_conn_read_body(conn, &s_body, kept, &err) != 0) {
        free(kept);
        if (!kept)
            bus_error_set(&err, BUS_STATUS_INTERNAL, "out of memory");
        s_done(u, conn, &err);
        return;
    }
    memset(u, 0, sizeof *u); //  the connection's now, in kept
}

void
sp_http_upload_route(sp_http_t *http, sp_http_conn_t *conn, struct evkeyvalq *query)
{
    assert(http && conn && query);
    const sp_http_request_t *req = sp_http_conn_request(conn);
    const char *method = req->method;
    sp_http_conn_add(conn, "Tus-Resumable: " SP_HTTP_TUS_VERSION);
    if (strcmp(method, "OPTIONS") == 0) {
        sp_http_conn_add(conn, "Tus-Version: " SP_HTTP_TUS_VERSION);
        sp_http_conn_add(conn, "Tus-Extension: creation");
        sp_http_conn_add(conn, "Tus-Max-Size: %" PRIu64, (uint64_t) INT64_MAX);
        sp_http_conn_answer(conn, 204, NULL, NULL, 0);
        return;
    }
    bool patch = strcmp(method, "PATCH") == 0;
    if (!patch && strcmp(method, "HEAD") != 0 && strcmp(method, "POST") != 0) {
        sp_http_conn_add(conn, "Allow: OPTIONS, HEAD, POST, PATCH");
        sp_http_conn_problem(conn, 405, "method-not-allowed", "HTTP Method Not Allowed.",
                             NULL);
        return;
    }
    const char *version = sp_http_conn_header(conn, "Tus-Resumable");
    if (version && strcmp(version, SP_HTTP_TUS_VERSION) != 0) {
        sp_http_conn_add(conn, "Tus-Version: " SP_HTTP_TUS_VERSION);
        sp_http_conn_problem(conn, 412, "invalid-api-params",
                             "Missing or invalid API parameters.",
                             "unsupported Tus-Resumable version");
        return;
    }
    upload_t u = {.folders = sp_http_folders(http)};
    if (!sp_http_authorize(http, conn, query, BUS_TOKEN_UPLOAD, &u.claims, &u.folder))
        return;
    uint64_t length;
    if (strcmp(method, "POST") == 0 &&
        sp_http_conn_header_u64(conn, "Upload-Length", &length) &&
        length != u.claims.size) {
        sp_http_conn_problem(
            conn, 400, "invalid-api-params", "Missing or invalid API parameters.",
            "Upload-Length differs from the size the upload was requested with");
        return;
    }
    if (sp_folders_upload_was_finished(u.folders, u.claims.nonce, u.folder.id,
                                       u.claims.size)) {
        s_complete(conn, u.claims.size);
        return;
    }
    bus_error_t err = {0};
    u.fs = sp_folders_open(u.folders, &u.folder, &err);
    u.upload = u.fs ? sp_upload_open(u.fs, u.claims.nonce, u.claims.path,
                                     strlen(u.claims.path), u.claims.size, &err)
                    : NULL;
    if (!u.upload)
        sp_http_conn_problem_for(conn, &err);
    else if (sp_upload_done(u.upload)) {
        //  Nothing to send (an empty file), or a crash came before the rename.
        sp_folders_upload_finished(u.folders, u.claims.nonce, u.folder.id, u.claims.size,
                                   u.claims.expires);
        s_complete(conn, u.claims.size);
    } else if (strcmp(method, "HEAD") == 0) {
        sp_http_conn_add(conn, "Upload-Offset: %" PRIu64, sp_upload_offset(u.upload));
        sp_http_conn_add(conn, "Upload-Length: %" PRIu64, sp_upload_size(u.upload));
        sp_http_conn_add(conn, "Cache-Control: no-store");
        sp_http_conn_answer(conn, 200, NULL, NULL, 0);
    } else if (!patch) {
        sp_http_conn_add(conn, "Upload-Offset: %" PRIu64, sp_upload_offset(u.upload));
        sp_http_conn_add(conn, "Location: %s", req->target);
        sp_http_conn_answer(conn, 201, NULL, NULL, 0);
    } else
        s_patch(&u, conn); //  may hand the upload to the connection
    s_release(&u);
}
