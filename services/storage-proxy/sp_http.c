/*  =========================================================================
    sp_http - the storage-proxy's client-facing HTTP endpoint

    A small HTTP/1.1 server on the node's loop, written for bulk data
    rather than on evhttp: libevent 2.1 reads a request body 4 KiB per
    system call and event (EVBUFFER_MAX_READ) and holds all of it before
    the handler runs, which caps an upload far below what the socket and
    the disk can do. Here each connection is a non-blocking socket with a
    read and a write event:

      head   bytes are read into a fixed buffer until the blank line; the
             request line and headers are parsed in place (at most
             SP_HTTP_HEAD_MAX bytes and SP_HTTP_HEADERS_MAX headers);
      body   a PATCH that passed every check (token, folder, offsets,
             quota for its whole Content-Length) streams its body into the
             staging file: large reads into a buffer of SP_HTTP_BODY_BUFFER
             bytes, each written out with sp_upload_append, so memory stays
             bounded whatever the chunk size. A body that breaks off keeps
             what arrived (tus: HEAD tells the client where to resume) and
             gives back the quota charged for the rest;
      drain  the body of a request that is refused is read and dropped
             before the answer, so the client, still sending, reads it
             (up to http.max_chunk_bytes; a larger one is answered 413 and
             the connection closed);
      write  the answer's head and small body from memory, then a file's
             bytes with sendfile straight from the page cache.

    Connections are kept alive (HTTP/1.1, no "Connection: close"), and
    requests pipelined behind a head are served in turn. A connection with
    no progress for SP_HTTP_STALL_S is dropped.

    Every request ends in exactly one answer. A token is checked before
    anything else about the request, and the folder it names is looked up
    in the table each time (a purged folder's tokens stop working at once).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <fcntl.h>          //  open, fcntl: files to send, non-blocking sockets
#include <netdb.h>          //  getaddrinfo: the listen address
#include <netinet/in.h>     //  sockaddr_in(6): the bound port
#include <openssl/crypto.h> //  OPENSSL_cleanse: the secret on the way out
#include <sys/queue.h>      //  TAILQ_INIT: the parsed query
#include <sys/sendfile.h>   //  sendfile: downloads
#include <sys/socket.h>     //  the listener and connections
#include <sys/stat.h>       //  fstat: a download's mtime, the secret's mode

#define PROBLEM_BASE "https://api.backend.ai/probs/"
#define OFFSET_OCTET "application/offset+octet-stream"
//  How sp_folders_charge and sp_upload begin a quota refusal.
#define QUOTA_DETAIL   "folder quota exceeded"
#define EXTRA_MAX      12288 //  bytes of an answer's extra headers (Location holds a token)
#define LISTEN_BACKLOG 128

typedef enum { CONN_HEAD, CONN_BODY, CONN_DRAIN, CONN_WRITE } conn_state_t;

typedef struct _conn_t conn_t;
struct _conn_t {
    sp_http_t *http;
    int fd;
    struct event *read_event;
    struct event *write_event;
    conn_state_t state;
    char head[SP_HTTP_HEAD_MAX + 1];
    size_t head_len;  //  bytes held: a head, then maybe body or the next request
    size_t head_size; //  the parsed head's bytes (0 while reading one)
    sp_http_request_t req;
    uint64_t body_left; //  body bytes still to read (CONN_BODY, CONN_DRAIN)
    //  An upload streaming in (CONN_BODY).
    sp_fs_t *fs;
    sp_upload_t *upload;
    sp_folder_t folder;
    bus_token_claims_t claims;
    uint64_t uncharged; //  bytes charged to the folder and not yet written
    uint8_t *buffer;
    //  The answer (CONN_WRITE, prepared during CONN_DRAIN).
    char *out;
    size_t out_len;
    size_t out_sent;
    int file; //  then bytes of this file with sendfile; -1: none
    uint64_t file_offset;
    uint64_t file_left;
    bool close_after;
    char extra[EXTRA_MAX]; //  the answer's extra header lines
    size_t extra_len;
    conn_t *next;
    conn_t *prev;
};

struct _sp_http_t {
    bus_node_t *node;
    sp_folders_t *folders;
    int listener;
    struct event *accept_event;
    conn_t *conns;
    size_t conn_count;
    uint64_t max_body;
    char endpoint[300];
    char url[512];
    uint8_t *secret; //  NULL: tokens refused
    size_t secret_len;
};

static void s_on_read(evutil_socket_t fd, short what, void *arg);
static void s_on_write(evutil_socket_t fd, short what, void *arg);
static void s_serve(conn_t *c);

//  ---------------------------------------------------------------------------
//  Connections

static const struct timeval s_stall = {SP_HTTP_STALL_S, 0};

static void
s_conn_close(conn_t *c)
{
    sp_http_t *self = c->http;
    if (c->upload && c->uncharged)
        sp_folders_refund(self->folders, c->folder.id, c->uncharged);
    sp_upload_destroy(&c->upload);
    sp_fs_destroy(&c->fs);
    if (c->read_event)
        event_free(c->read_event);
    if (c->write_event)
        event_free(c->write_event);
    if (c->file >= 0)
        close(c->file);
    close(c->fd);
    free(c->buffer);
    free(c->out);
    if (c->prev)
        c->prev->next = c->next;
    else
        self->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    self->conn_count--;
    free(c);
}

//  Waits for the socket to read (true) or to write (false).
static void
s_wait(conn_t *c, bool readable)
{
    event_del(readable ? c->write_event : c->read_event);
    event_add(readable ? c->read_event : c->write_event, &s_stall);
}

//  The value of request header name, or NULL.
static const char *
s_header(conn_t *c, const char *name)
{
    return sp_http_head_header(&c->req, name);
}

//  Parses a decimal header value. False when absent or bad.
static bool
s_header_u64(conn_t *c, const char *name, uint64_t *value)
{
    const char *text = s_header(c, name);
    if (!text || !isdigit((unsigned char) *text))
        return false;
    errno = 0;
    char *end = NULL;
    unsigned long long parsed = strtoull(text, &end, 10);
    if (errno || *end)
        return false;
    *value = parsed;
    return true;
}

//  ---------------------------------------------------------------------------
//  Answers

static const char *
s_reason(int status)
{
    switch (status) {
        case 100:
            return "Continue";
        case 200:
            return "OK";
        case 201:
            return "Created";
        case 204:
            return "No Content";
        case 206:
            return "Partial Content";
        case 400:
            return "Bad Request";
        case 403:
            return "Forbidden";
        case 404:
            return "Not Found";
        case 405:
            return "Method Not Allowed";
        case 409:
            return "Conflict";
        case 411:
            return "Length Required";
        case 412:
            return "Precondition Failed";
        case 413:
            return "Payload Too Large";
        case 415:
            return "Unsupported Media Type";
        case 416:
            return "Range Not Satisfiable";
        case 431:
            return "Request Header Fields Too Large";
        case 501:
            return "Not Implemented";
        case 503:
            return "Service Unavailable";
        default:
            return status >= 500 ? "Internal Server Error" : "Error";
    }
}

//  Adds a header line to the answer being prepared.
static void __attribute__((format(printf, 2, 3))) s_add(conn_t *c, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(c->extra + c->extra_len, EXTRA_MAX - c->extra_len, fmt, args);
    va_end(args);
    if (n > 0 && (size_t) n < EXTRA_MAX - c->extra_len - 2) {
        c->extra_len += (size_t) n;
        memcpy(c->extra + c->extra_len, "\r\n", 3);
        c->extra_len += 2;
    }
}

//  Prepares the answer: status, content type (NULL: none), the extra
//  headers added so far, and body (len bytes; a HEAD gets the length
//  only). A file part may follow (c->file). Sends it once the request's
//  body is read.
static void
s_answer(conn_t *c, int status, const char *type, const char *body, uint64_t len)
{
    bool head_only = strcmp(c->req.method, "HEAD") == 0;
    bool no_length = status == 204 || status < 200;
    if (c->req.close || c->req.http10)
        c->close_after = true;
    char top[256];
    int n = snprintf(top, sizeof top, "HTTP/1.1 %d %s\r\nServer: Backplane\r\n", status,
                     s_reason(status));
    size_t body_len = head_only || no_length || !body ? 0 : (size_t) len;
    size_t size = (size_t) n + c->extra_len + 160 + body_len;
    free(c->out);
    c->out = malloc(size);
    if (!c->out) {
        c->close_after = true;
        c->out_len = 0;
    } else {
        int m =
            snprintf(c->out, size, "%s%s%s%s%.*s", top, type ? "Content-Type: " : "",
                     type ? type : "", type ? "\r\n" : "", (int) c->extra_len, c->extra);
        if (!no_length)
            m += snprintf(c->out + m, size - (size_t) m,
                          "Content-Length: %" PRIu64 "\r\n", len);
        m += snprintf(c->out + m, size - (size_t) m, "%s\r\n",
                      c->close_after ? "Connection: close\r\n" : "");
        if (body_len)
            memcpy(c->out + m, body, body_len);
        c->out_len = (size_t) m + body_len;
    }
    c->out_sent = 0;
    c->extra_len = 0;
    if (head_only && c->file >= 0) {
        close(c->file);
        c->file = -1;
    }
    //  A request body still coming is read first.
    c->state = c->body_left ? CONN_DRAIN : CONN_WRITE;
    if (c->state == CONN_DRAIN && c->body_left > c->http->max_body) {
        c->close_after = true; //  too much to read for nothing: answer and go
        c->state = CONN_WRITE;
    }
}

//  Answers problem+json: status, Backend.AI's slug and title, and detail.
static void
s_problem(conn_t *c, int status, const char *slug, const char *title, const char *detail)
{
    char type[128];
    snprintf(type, sizeof type, PROBLEM_BASE "%s", slug);
    json_t *body =
        json_pack("{s:s, s:s, s:i}", "type", type, "title", title, "status", status);
    if (body && detail && *detail) {
        json_object_set_new(body, "msg", json_string(detail));
        json_object_set_new(body, "detail", json_string(detail));
    }
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    s_answer(c, status, "application/problem+json", text ? text : "{}",
             text ? strlen(text) : 2);
    free(text);
    json_decref(body);
    //  The query holds the token: the path alone is logged.
    bus_log_info("request failed method=%s path=%s status=%d type=%s detail=\"%s\"",
                 c->req.method, c->req.path, status, slug, detail ? detail : "");
}

//  The problem for an error from sp_fs, sp_upload or sp_folders.
static void
s_problem_for(conn_t *c, const bus_error_t *err)
{
    switch (err->status) {
        case BUS_STATUS_INVALID:
        case BUS_STATUS_PROTOCOL:
            s_problem(c, 400, "invalid-api-params", "Missing or invalid API parameters.",
                      err->detail);
            break;
        case BUS_STATUS_NOT_FOUND:
            s_problem(c, 404, "object-not-found", "No such object.", err->detail);
            break;
        case BUS_STATUS_CONFLICT:
            s_problem(c, 409, "vfolder-operation-failed", "Conflict.", err->detail);
            break;
        case BUS_STATUS_FORBIDDEN:
            if (strncmp(err->detail, QUOTA_DETAIL, strlen(QUOTA_DETAIL)) == 0)
                s_problem(c, 412, "quota-exceeded",
                          "You have reached your resource limit.", err->detail);
            else
                s_problem(c, 403, "generic-forbidden", "Forbidden operation.",
                          err->detail);
            break;
        case BUS_STATUS_UNAVAILABLE:
            s_problem(c, 503, "service-unavailable", "Service unavailable.", err->detail);
            break;
        default:
            s_problem(c, 500, "internal-server-error", "Internal server error.",
                      err->detail);
            break;
    }
}

//  ---------------------------------------------------------------------------
//  Tokens and folders

//  Checks the token in the query for op and finds its folder. True with
//  claims and folder filled; false once the problem is answered.
static bool
s_authorize(conn_t *c,
            struct evkeyvalq *query,
            bus_token_op_t op,
            bus_token_claims_t *claims,
            sp_folder_t *folder)
{
    sp_http_t *self = c->http;
    const char *token = evhttp_find_header(query, "token");
    if (!self->secret) {
        s_problem(c, 503, "service-unavailable", "Service unavailable.",
                  "no token secret is configured (http.token_secret_file)");
        return false;
    }
    if (!token || !*token) {
        s_problem(c, 400, "invalid-auth-params",
                  "Missing or invalid authorization parameters.", "no token");
        return false;
    }
    bus_error_t err = {0};
    if (bus_token_verify(self->secret, self->secret_len, token, strlen(token),
                         (int64_t) time(NULL), op, claims, &err) != BUS_OK) {
        if (err.status == BUS_STATUS_INVALID)
            s_problem(c, 400, "invalid-auth-params",
                      "Missing or invalid authorization parameters.", err.detail);
        else if (err.status == BUS_STATUS_FORBIDDEN)
            s_problem(c, 403, "generic-forbidden", "Forbidden operation.", err.detail);
        else
            s_problem_for(c, &err);
        return false;
    }
    if (sp_folders_get(self->folders, claims->folder, claims->volume, folder, &err) !=
        BUS_OK) {
        s_problem(c, 404, "object-not-found", "No such virtual folder.", err.detail);
        return false;
    }
    return true;
}

//  ---------------------------------------------------------------------------
//  Uploads

//  Answers a request for an upload whose bytes are all there.
static void
s_upload_complete(conn_t *c, uint64_t size)
{
    s_add(c, "Upload-Offset: %" PRIu64, size);
    s_add(c, "Upload-Length: %" PRIu64, size);
    if (strcmp(c->req.method, "HEAD") == 0) {
        s_add(c, "Cache-Control: no-store");
        s_answer(c, 200, NULL, NULL, 0);
    } else if (strcmp(c->req.method, "POST") == 0)
        s_answer(c, 201, NULL, NULL, 0);
    else {
        uint64_t offset = UINT64_MAX;
        s_header_u64(c, "Upload-Offset", &offset);
        if (offset == size && c->body_left == 0)
            s_answer(c, 204, NULL, NULL, 0);
        else
            s_problem(c, 409, "upload-offset-mismatch", "Upload offset mismatch.",
                      "the upload is complete");
    }
}

//  The end of an upload's body, or of what arrived of it.
static void
s_upload_done(conn_t *c, const bus_error_t *err)
{
    sp_http_t *self = c->http;
    if (c->uncharged) {
        sp_folders_refund(self->folders, c->folder.id, c->uncharged);
        c->uncharged = 0;
    }
    free(c->buffer);
    c->buffer = NULL;
    if (err->status == BUS_OK) {
        if (sp_upload_done(c->upload)) {
            sp_folders_upload_finished(self->folders, c->claims.nonce, c->folder.id,
                                       c->claims.size, c->claims.expires);
            bus_log_info("upload complete folder=%s size=%" PRIu64, c->folder.id,
                         c->claims.size);
        }
        s_add(c, "Upload-Offset: %" PRIu64, sp_upload_offset(c->upload));
        s_answer(c, 204, NULL, NULL, 0);
    } else {
        s_add(c, "Upload-Offset: %" PRIu64, sp_upload_offset(c->upload));
        s_problem_for(c, err);
    }
    sp_upload_destroy(&c->upload);
    sp_fs_destroy(&c->fs);
}

//  Writes n buffered body bytes to the staging file. 0 or -1 with err.
static int
s_upload_write(conn_t *c, const void *data, size_t n, bus_error_t *err)
{
    if (sp_upload_append(c->upload, sp_upload_offset(c->upload), data, n, err) != 0)
        return -1;
    c->uncharged -= n;
    return 0;
}

//  Checks a PATCH and starts streaming its body (or answers why not).
static void
s_patch(conn_t *c)
{
    sp_http_t *self = c->http;
    const char *type = s_header(c, "Content-Type");
    uint64_t offset;
    bus_error_t err = {0};
    if (!type || strncasecmp(type, OFFSET_OCTET, strlen(OFFSET_OCTET)) != 0) {
        s_problem(c, 415, "invalid-api-params", "Missing or invalid API parameters.",
                  "Content-Type must be " OFFSET_OCTET);
        return;
    }
    if (!s_header_u64(c, "Upload-Offset", &offset)) {
        s_problem(c, 400, "invalid-api-params", "Missing or invalid API parameters.",
                  "missing or bad Upload-Offset");
        return;
    }
    uint64_t len = c->body_left;
    uint64_t at = sp_upload_offset(c->upload);
    if (offset != at) {
        char detail[128];
        snprintf(detail, sizeof detail,
                 "Upload-Offset %" PRIu64 " does not match the upload's offset %" PRIu64,
                 offset, at);
        s_add(c, "Upload-Offset: %" PRIu64, at);
        s_problem(c, 409, "upload-offset-mismatch", "Upload offset mismatch.", detail);
        return;
    }
    if (len > sp_upload_size(c->upload) - at) {
        char detail[160];
        snprintf(detail, sizeof detail,
                 "chunk of %" PRIu64 " bytes at %" PRIu64
                 " goes past the announced size of %" PRIu64,
                 len, at, sp_upload_size(c->upload));
        s_problem(c, 400, "invalid-api-params", "Missing or invalid API parameters.",
                  detail);
        return;
    }
    //  The whole chunk is charged first: one that would cross the quota is
    //  refused before a byte of it is read. What does not arrive is given
    //  back at the end.
    if (len && sp_folders_charge(self->folders, c->folder.id, len, &err) != 0) {
        s_add(c, "Upload-Offset: %" PRIu64, at);
        s_problem_for(c, &err);
        return;
    }
    c->uncharged = len;
    if (len == 0) {
        s_upload_done(c, &err);
        return;
    }
    c->buffer = malloc(SP_HTTP_BODY_BUFFER);
    if (!c->buffer) {
        bus_error_set(&err, BUS_STATUS_INTERNAL, "out of memory");
        s_upload_done(c, &err);
        return;
    }
    const char *expect = s_header(c, "Expect");
    if (expect && strcasecmp(expect, "100-continue") == 0) {
        static const char go[] = "HTTP/1.1 100 Continue\r\n\r\n";
        if (send(c->fd, go, sizeof go - 1, MSG_NOSIGNAL) != (ssize_t) sizeof go - 1)
            c->close_after = true;
    }
    c->state = CONN_BODY;
}

static void
s_upload(conn_t *c, struct evkeyvalq *query)
{
    sp_http_t *self = c->http;
    const char *method = c->req.method;
    s_add(c, "Tus-Resumable: " SP_HTTP_TUS_VERSION);
    if (strcmp(method, "OPTIONS") == 0) {
        s_add(c, "Tus-Version: " SP_HTTP_TUS_VERSION);
        s_add(c, "Tus-Extension: creation");
        s_add(c, "Tus-Max-Size: %" PRIu64, (uint64_t) INT64_MAX);
        s_answer(c, 204, NULL, NULL, 0);
        return;
    }
    bool patch = strcmp(method, "PATCH") == 0;
    if (!patch && strcmp(method, "HEAD") != 0 && strcmp(method, "POST") != 0) {
        s_add(c, "Allow: OPTIONS, HEAD, POST, PATCH");
        s_problem(c, 405, "method-not-allowed", "HTTP Method Not Allowed.", NULL);
        return;
    }
    const char *version = s_header(c, "Tus-Resumable");
    if (version && strcmp(version, SP_HTTP_TUS_VERSION) != 0) {
        s_add(c, "Tus-Version: " SP_HTTP_TUS_VERSION);
        s_problem(c, 412, "invalid-api-params", "Missing or invalid API parameters.",
                  "unsupported Tus-Resumable version");
        return;
    }
    if (!s_authorize(c, query, BUS_TOKEN_UPLOAD, &c->claims, &c->folder))
        return;
    uint64_t length;
    if (strcmp(method, "POST") == 0 && s_header_u64(c, "Upload-Length", &length) &&
        length != c->claims.size) {
        s_problem(c, 400, "invalid-api-params", "Missing or invalid API parameters.",
                  "Upload-Length differs from the size the upload was requested with");
        return;
    }
    if (sp_folders_upload_was_finished(self->folders, c->claims.nonce, c->folder.id,
                                       c->claims.size)) {
        s_upload_complete(c, c->claims.size);
        return;
    }
    bus_error_t err = {0};
    c->fs = sp_folders_open(self->folders, &c->folder, &err);
    c->upload = c->fs ? sp_upload_open(c->fs, c->claims.nonce, c->claims.path,
                                       strlen(c->claims.path), c->claims.size, &err)
                      : NULL;
    if (!c->upload)
        s_problem_for(c, &err);
    else if (sp_upload_done(c->upload)) {
        //  Nothing to send (an empty file), or a crash came before the rename.
        sp_folders_upload_finished(self->folders, c->claims.nonce, c->folder.id,
                                   c->claims.size, c->claims.expires);
        s_upload_complete(c, c->claims.size);
    } else if (strcmp(method, "HEAD") == 0) {
        s_add(c, "Upload-Offset: %" PRIu64, sp_upload_offset(c->upload));
        s_add(c, "Upload-Length: %" PRIu64, sp_upload_size(c->upload));
        s_add(c, "Cache-Control: no-store");
        s_answer(c, 200, NULL, NULL, 0);
    } else if (!patch) {
        s_add(c, "Upload-Offset: %" PRIu64, sp_upload_offset(c->upload));
        s_add(c, "Location: %s", c->req.target);
        s_answer(c, 201, NULL, NULL, 0);
    } else {
        s_patch(c);
        if (c->state == CONN_BODY)
            return; //  keeps the upload open while its body streams in
    }
    sp_upload_destroy(&c->upload);
    sp_fs_destroy(&c->fs);
}

//  ---------------------------------------------------------------------------
//  Downloads

//  Content-Disposition for the file's name, as aiohttp's FileResponse
//  writes it: an ASCII fallback and the UTF-8 name percent-encoded.
static void
s_disposition(conn_t *c, const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    size_t len = strlen(name);
    char *ascii = malloc(len + 1);
    char *encoded = malloc(len * 3 + 1);
    if (ascii && encoded) {
        size_t e = 0;
        for (size_t i = 0; i < len; i++) {
            unsigned char ch = (unsigned char) name[i];
            ascii[i] =
                ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '\\' ? '_' : (char) ch;
            if (isalnum(ch) || strchr("!#$&+-.^_`|~", ch))
                encoded[e++] = (char) ch;
            else
                e += (size_t) snprintf(encoded + e, 4, "%%%02X", ch);
        }
        ascii[len] = '\0';
        encoded[e] = '\0';
        //  A name too long for the header block gets the fallback alone.
        if (len * 4 + 64 < EXTRA_MAX / 2)
            s_add(c,
                  "Content-Disposition: attachment; filename=\"%s\"; filename*=UTF-8''%s",
                  ascii, encoded);
        else
            s_add(c, "Content-Disposition: attachment");
    }
    free(ascii);
    free(encoded);
}

static void
s_download(conn_t *c, struct evkeyvalq *query)
{
    sp_http_t *self = c->http;
    const char *method = c->req.method;
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        s_add(c, "Allow: GET, HEAD");
        s_problem(c, 405, "method-not-allowed", "HTTP Method Not Allowed.", NULL);
        return;
    }
    bus_token_claims_t claims;
    sp_folder_t folder;
    if (!s_authorize(c, query, BUS_TOKEN_DOWNLOAD, &claims, &folder))
        return;
    bus_error_t err = {0};
    sp_fs_info_t info;
    uint64_t size = 0;
    int fd = -1;
    sp_fs_t *fs = sp_folders_open(self->folders, &folder, &err);
    if (fs && sp_fs_stat(fs, claims.path, strlen(claims.path), &info, &err) == 0) {
        if (info.type == SP_FS_DIR)
            bus_error_set(&err, BUS_STATUS_INVALID,
                          "%s is a directory: only files can be downloaded (archives "
                          "of directories are not supported)",
                          *claims.path ? claims.path : ".");
        else
            fd = sp_fs_open_read(fs, claims.path, strlen(claims.path), &size, &err);
    }
    sp_fs_destroy(&fs);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) != 0) {
        bus_error_set(&err, BUS_STATUS_INTERNAL, "stat: %s", strerror(errno));
        close(fd);
        fd = -1;
    }
    if (fd < 0) {
        if (err.status == BUS_STATUS_NOT_FOUND)
            s_problem(c, 404, "object-not-found", "No such file.", err.detail);
        else
            s_problem_for(c, &err);
        return;
    }
    size = (uint64_t) st.st_size; //  what is there now
    char modified[64], etag[64];
    struct tm tm;
    gmtime_r(&st.st_mtime, &tm);
    strftime(modified, sizeof modified, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    snprintf(etag, sizeof etag, "\"%" PRIx64 "-%" PRIx64 "\"", size,
             (uint64_t) st.st_mtim.tv_sec * 1000000000u + (uint64_t) st.st_mtim.tv_nsec);
    uint64_t start = 0, len = size;
    const char *if_range = s_header(c, "If-Range");
    sp_http_range_t range = SP_HTTP_RANGE_NONE;
    if (!if_range || strcmp(if_range, modified) == 0 || strcmp(if_range, etag) == 0)
        range = sp_http_range(s_header(c, "Range"), size, &start, &len);
    if (range == SP_HTTP_RANGE_UNSATISFIABLE) {
        close(fd);
        s_add(c, "Content-Range: bytes */%" PRIu64, size);
        s_problem(c, 416, "range-not-satisfiable", "Range Not Satisfiable.",
                  "the range starts past the end of the file");
        return;
    }
    s_add(c, "Accept-Ranges: bytes");
    s_add(c, "Last-Modified: %s", modified);
    s_add(c, "ETag: %s", etag);
    s_disposition(c, claims.path);
    if (range == SP_HTTP_RANGE_ONE)
        s_add(c, "Content-Range: bytes %" PRIu64 "-%" PRIu64 "/%" PRIu64, start,
              start + len - 1, size);
    c->file = fd;
    c->file_offset = start;
    c->file_left = len;
    int status = range == SP_HTTP_RANGE_ONE ? 206 : 200;
    s_answer(c, status, "application/octet-stream", NULL, len);
    bus_log_info("download folder=%s bytes=%" PRIu64 " status=%d", folder.id, len,
                 status);
}

//  ---------------------------------------------------------------------------
//  Requests

//  Parses the head held in c->head[0, c->head_size). False when malformed.
static bool
s_parse(conn_t *c)
{
    return sp_http_head_parse(c->head, c->head_size, &c->req);
}

//  Serves the request whose head was just parsed: answers it, or starts
//  reading its upload body.
static void
s_dispatch(conn_t *c)
{
    sp_http_request_t *req = &c->req;
    c->body_left = req->content_length > 0 ? (uint64_t) req->content_length : 0;
    c->close_after = false;
    c->extra_len = 0;
    if (req->chunked) {
        c->close_after = true; //  a chunked body cannot be skipped
        c->body_left = 0;
        s_problem(c, 411, "invalid-api-params", "Missing or invalid API parameters.",
                  "a body needs Content-Length (chunked is not taken)");
        return;
    }
    if (c->body_left > c->http->max_body) {
        c->close_after = true;
        c->body_left = 0;
        char detail[96];
        snprintf(detail, sizeof detail, "request body over %" PRIu64 " bytes",
                 c->http->max_body);
        s_problem(c, 413, "invalid-api-params", "Missing or invalid API parameters.",
                  detail);
        return;
    }
    char *query_text = strchr(req->target, '?');
    size_t path_len =
        query_text ? (size_t) (query_text - req->target) : strlen(req->target);
    struct evkeyvalq query;
    TAILQ_INIT(&query);
    if (query_text && evhttp_parse_query_str(query_text + 1, &query) != 0) {
        evhttp_clear_headers(&query);
        s_problem(c, 400, "invalid-api-params", "Missing or invalid API parameters.",
                  "malformed query string");
        return;
    }
    bool get = strcmp(req->method, "GET") == 0 || strcmp(req->method, "HEAD") == 0;
    if (path_len == 7 && strncmp(req->target, "/upload", 7) == 0)
        s_upload(c, &query);
    else if (path_len == 9 && strncmp(req->target, "/download", 9) == 0)
        s_download(c, &query);
    else if (path_len == 1 && req->target[0] == '/' && get) {
        static const char status[] = "{\"status\":\"ok\",\"type\":\"client-facing\","
                                     "\"storage-proxy\":\"" BACKPLANE_VERSION "\"}";
        s_answer(c, 200, "application/json", status, sizeof status - 1);
    } else
        s_problem(c, 404, "url-not-found", "Unknown URL path.", NULL);
    evhttp_clear_headers(&query);
}

//  Takes len body bytes held after the head (an upload's, or ones to drop).
static void
s_take_held(conn_t *c, size_t len, bus_error_t *err)
{
    if (c->state == CONN_BODY && len &&
        s_upload_write(c, c->head + c->head_size, len, err) != 0)
        c->state = CONN_DRAIN; //  the rest is dropped; the answer says why
    c->body_left -= len;
    c->head_size += len;
}

//  Moves on from a parsed request to whatever its state needs: body bytes
//  already held are taken, then the socket is read or written.
static void
s_advance(conn_t *c)
{
    bus_error_t err = {0};
    if (c->state == CONN_BODY || c->state == CONN_DRAIN) {
        size_t held = c->head_len - c->head_size;
        size_t take = held < c->body_left ? held : (size_t) c->body_left;
        bool was_body = c->state == CONN_BODY;
        s_take_held(c, take, &err);
        if (was_body && c->state == CONN_DRAIN)
            s_upload_done(c, &err); //  prepares the error; the rest is dropped
        else if (c->state == CONN_BODY && c->body_left == 0)
            s_upload_done(c, &err);
        if (c->state == CONN_DRAIN && c->body_left == 0)
            c->state = CONN_WRITE;
    }
    //  Bytes after this request (a pipelined one) stay at the buffer's start.
    memmove(c->head, c->head + c->head_size, c->head_len - c->head_size);
    c->head_len -= c->head_size;
    c->head_size = 0;
    if (c->state == CONN_WRITE)
        s_on_write(c->fd, EV_WRITE, c);
    else
        s_wait(c, true);
}

//  Serves the head held once it is complete (then the connection may be
//  gone), or waits for more of it.
static void
s_serve(conn_t *c)
{
    char *end = c->head_len >= 4 ? memmem(c->head, c->head_len, "\r\n\r\n", 4) : NULL;
    if (!end) {
        if (c->head_len == SP_HTTP_HEAD_MAX) {
            memset(&c->req, 0, sizeof c->req);
            snprintf(c->req.method, sizeof c->req.method, "GET");
            c->close_after = true;
            s_problem(c, 431, "invalid-api-params", "Missing or invalid API parameters.",
                      "request head too large");
            c->head_len = 0;
            s_on_write(c->fd, EV_WRITE, c);
            return;
        }
        s_wait(c, true);
        return;
    }
    c->head_size = (size_t) (end - c->head) + 4;
    char saved = c->head[c->head_size];
    c->head[c->head_size] = '\0';
    bool ok = s_parse(c);
    c->head[c->head_size] = saved;
    if (!ok) {
        memset(&c->req, 0, sizeof c->req);
        snprintf(c->req.method, sizeof c->req.method, "GET");
        c->close_after = true;
        c->body_left = 0;
        s_problem(c, 400, "invalid-api-params", "Missing or invalid API parameters.",
                  "malformed request");
        c->head_len = c->head_size = 0;
        s_on_write(c->fd, EV_WRITE, c);
        return;
    }
    s_dispatch(c);
    s_advance(c);
}

//  ---------------------------------------------------------------------------
//  Socket events

//  Reads an upload's body into the buffer and writes it out; reads and
//  drops a refused request's body. At most SP_HTTP_READ_TURN bytes a turn,
//  so one upload does not hold the loop.
static void
s_read_body(conn_t *c)
{
    bus_error_t err = {0};
    size_t turn = 0;
    uint8_t scratch[16384];
    while (c->body_left && (c->state == CONN_BODY || c->state == CONN_DRAIN) &&
           turn < SP_HTTP_READ_TURN) {
        bool body = c->state == CONN_BODY;
        uint8_t *into = body ? c->buffer : scratch;
        size_t room = body ? SP_HTTP_BODY_BUFFER : sizeof scratch;
        if (room > c->body_left)
            room = (size_t) c->body_left;
        //  Fill the buffer as far as the socket has bytes, then write once.
        size_t got = 0;
        bool closed = false, dry = false;
        while (got < room) {
            ssize_t n = recv(c->fd, into + got, room - got, 0);
            if (n > 0)
                got += (size_t) n;
            else if (n < 0 && errno == EINTR)
                continue;
            else {
                dry = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
                closed = !dry;
                break;
            }
        }
        c->body_left -= got;
        turn += got;
        if (body && got && s_upload_write(c, into, got, &err) != 0) {
            s_upload_done(c, &err); //  prepares the error; the rest is dropped
            c->state = c->body_left ? CONN_DRAIN : CONN_WRITE;
            if (c->state == CONN_DRAIN && c->body_left > c->http->max_body) {
                c->close_after = true;
                c->state = CONN_WRITE;
            }
        }
        if (closed) {
            //  The client went away mid-body: what arrived stays (tus).
            s_conn_close(c);
            return;
        }
        if (dry)
            break;
    }
    if (c->body_left == 0 && c->state == CONN_BODY)
        s_upload_done(c, &err);
    if (c->body_left == 0 || c->state == CONN_WRITE) {
        c->state = CONN_WRITE;
        s_on_write(c->fd, EV_WRITE, c);
        return;
    }
    s_wait(c, true);
}

static void
s_on_read(evutil_socket_t fd, short what, void *arg)
{
    conn_t *c = arg;
    if (what & EV_TIMEOUT) {
        s_conn_close(c);
        return;
    }
    if (c->state == CONN_BODY || c->state == CONN_DRAIN) {
        s_read_body(c);
        return;
    }
    ssize_t n = recv(fd, c->head + c->head_len, SP_HTTP_HEAD_MAX - c->head_len, 0);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (n <= 0) {
        s_conn_close(c);
        return;
    }
    c->head_len += (size_t) n;
    s_serve(c);
}

//  Ends an answer: the next request, or the end of the connection.
static void
s_answered(conn_t *c)
{
    free(c->out);
    c->out = NULL;
    c->out_len = c->out_sent = 0;
    if (c->file >= 0) {
        close(c->file);
        c->file = -1;
    }
    if (c->close_after) {
        s_conn_close(c);
        return;
    }
    c->state = CONN_HEAD;
    memset(&c->req, 0, sizeof c->req);
    if (c->head_len)
        s_serve(c); //  a pipelined request
    else
        s_wait(c, true);
}

static void
s_on_write(evutil_socket_t fd, short what, void *arg)
{
    conn_t *c = arg;
    if (what & EV_TIMEOUT) {
        s_conn_close(c);
        return;
    }
    while (c->out_sent < c->out_len) {
        ssize_t n =
            send(fd, c->out + c->out_sent, c->out_len - c->out_sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            s_wait(c, false);
            return;
        }
        if (n <= 0) {
            s_conn_close(c);
            return;
        }
        c->out_sent += (size_t) n;
    }
    uint64_t turn = 0;
    while (c->file >= 0 && c->file_left) {
        if (turn >= SP_HTTP_WRITE_TURN) {
            s_wait(c, false); //  the others' turn; the socket is still writable
            return;
        }
        off_t offset = (off_t) c->file_offset;
        size_t step = c->file_left < SP_HTTP_SENDFILE_MAX ? (size_t) c->file_left
                                                          : SP_HTTP_SENDFILE_MAX;
        ssize_t n = sendfile(fd, c->file, &offset, step);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            s_wait(c, false);
            return;
        }
        if (n <= 0) { //  the client left, or the file shrank under us
            s_conn_close(c);
            return;
        }
        c->file_offset += (uint64_t) n;
        c->file_left -= (uint64_t) n;
        turn += (uint64_t) n;
    }
    s_answered(c);
}

static void
s_on_accept(evutil_socket_t fd, short what, void *arg)
{
    (void) what;
    sp_http_t *self = arg;
    for (int i = 0; i < SP_HTTP_ACCEPT_TURN; i++) {
        int client = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (client < 0)
            return;
        if (self->conn_count >= SP_HTTP_CONN_MAX) {
            close(client);
            bus_log_warning("http connection refused: %d open", SP_HTTP_CONN_MAX);
            continue;
        }
        //  No TCP_NODELAY: every answer is one write, which Nagle sends at
        //  once, and it would cut sendfile's stream into smaller segments.
        conn_t *c = calloc(1, sizeof *c);
        if (c) {
            c->http = self;
            c->fd = client;
            c->file = -1;
            c->read_event = event_new(bus_node_base(self->node), client,
                                      EV_READ | EV_PERSIST, s_on_read, c);
            c->write_event = event_new(bus_node_base(self->node), client,
                                       EV_WRITE | EV_PERSIST, s_on_write, c);
        }
        if (!c || !c->read_event || !c->write_event) {
            if (c) {
                if (c->read_event)
                    event_free(c->read_event);
                if (c->write_event)
                    event_free(c->write_event);
                free(c);
            }
            close(client);
            continue;
        }
        c->next = self->conns;
        if (self->conns)
            self->conns->prev = c;
        self->conns = c;
        self->conn_count++;
        s_wait(c, true);
    }
}

//  ---------------------------------------------------------------------------
//  Set-up

//  Binds listen ("host:port", "[v6]:port"); fills self->endpoint. 0 or -1.
static int
s_bind(sp_http_t *self, const char *listen_at, bus_error_t *err)
{
    const char *colon = strrchr(listen_at, ':');
    char host[256];
    size_t host_len = colon ? (size_t) (colon - listen_at) : 0;
    if (host_len >= 2 && listen_at[0] == '[' && listen_at[host_len - 1] == ']') {
        listen_at++;
        host_len -= 2;
    }
    char *end = NULL;
    long port = colon ? strtol(colon + 1, &end, 10) : -1;
    if (!colon || host_len == 0 || host_len >= sizeof host || end == colon + 1 || *end ||
        port < 0 || port > 65535)
        return bus_error_set(err, BUS_STATUS_INVALID, "http.listen '%s' is not host:port",
                             listen_at),
               -1;
    memcpy(host, listen_at, host_len);
    host[host_len] = '\0';
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
    struct addrinfo *found = NULL;
    char service[16];
    snprintf(service, sizeof service, "%ld", port);
    if (getaddrinfo(host, service, &hints, &found) != 0 || !found)
        return bus_error_set(err, BUS_STATUS_INVALID, "http.listen: cannot resolve %s",
                             host),
               -1;
    int fd = socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, found->ai_addr, found->ai_addrlen) != 0 ||
        listen(fd, LISTEN_BACKLOG) != 0) {
        int saved = errno;
        if (fd >= 0)
            close(fd);
        freeaddrinfo(found);
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot listen on %s:%ld: %s",
                             host, port, strerror(saved)),
               -1;
    }
    freeaddrinfo(found);
    struct sockaddr_storage addr;
    socklen_t addr_len = sizeof addr;
    if (getsockname(fd, (struct sockaddr *) &addr, &addr_len) == 0)
        port = addr.ss_family == AF_INET6
                   ? ntohs(((struct sockaddr_in6 *) &addr)->sin6_port)
                   : ntohs(((struct sockaddr_in *) &addr)->sin_port);
    bool v6 = strchr(host, ':') != NULL;
    snprintf(self->endpoint, sizeof self->endpoint, "%s%s%s:%ld", v6 ? "[" : "", host,
             v6 ? "]" : "", port);
    self->listener = fd;
    return 0;
}

//  ---------------------------------------------------------------------------

sp_http_t *
sp_http_new(bus_node_t *node,
            sp_folders_t *folders,
            const sp_config_t *config,
            bus_error_t *err)
{
    assert(node && folders && config);
    sp_http_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    self->folders = folders;
    self->listener = -1;
    self->max_body = (uint64_t) config->max_chunk_bytes;
    if (config->token_secret_file && *config->token_secret_file) {
        if (bus_token_read_secret(config->token_secret_file, "http.token_secret_file",
                                  &self->secret, &self->secret_len, err) != 0)
            goto fail;
    } else
        bus_log_warning("no http.token_secret_file: uploads and downloads are refused");
    if (s_bind(self, config->http_listen, err) != 0)
        goto fail;
    self->accept_event = event_new(bus_node_base(node), self->listener,
                                   EV_READ | EV_PERSIST, s_on_accept, self);
    if (!self->accept_event || event_add(self->accept_event, NULL) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot watch the HTTP listener");
        goto fail;
    }
    if (config->http_advertise && *config->http_advertise)
        snprintf(self->url, sizeof self->url, "%s", config->http_advertise);
    else
        snprintf(self->url, sizeof self->url, "http://%s", self->endpoint);
    return self;
fail:
    sp_http_destroy(&self);
    return NULL;
}

void
sp_http_destroy(sp_http_t **self_p)
{
    assert(self_p);
    sp_http_t *self = *self_p;
    if (self) {
        while (self->conns)
            s_conn_close(self->conns);
        if (self->accept_event)
            event_free(self->accept_event);
        if (self->listener >= 0)
            close(self->listener);
        if (self->secret) {
            OPENSSL_cleanse(self->secret, self->secret_len);
            free(self->secret);
        }
        free(self);
        *self_p = NULL;
    }
}

//  ---------------------------------------------------------------------------

const char *
sp_http_url(sp_http_t *self)
{
    assert(self);
    return self->url;
}

const char *
sp_http_endpoint(sp_http_t *self)
{
    assert(self);
    return self->endpoint;
}
