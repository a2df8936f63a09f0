/*  =========================================================================
    sp_http_conn - one connection of the storage-proxy's HTTP endpoint

    Each connection is a non-blocking socket with a read and a write
    event, in one of four states:

      head   bytes are read into a fixed buffer until the blank line; the
             request line and headers are parsed in place (at most
             SP_HTTP_HEAD_MAX bytes and SP_HTTP_HEADERS_MAX headers), and
             the request goes to the server's route table (sp_http_dispatch);
      body   a route took the body (an upload's PATCH that passed every
             check): large reads into a buffer of SP_HTTP_BODY_BUFFER bytes,
             each handed to the route's sink, so memory stays bounded
             whatever the chunk size. A body that breaks off keeps what
             arrived (tus: HEAD tells the client where to resume), and the
             sink gives back what it had reserved for the rest;
      drain  the body of a request that is refused is read and dropped
             before the answer, so the client, still sending, reads it
             (up to http.max_chunk_bytes; a larger one is answered 413 and
             the connection closed);
      write  the answer's head and small body from memory, then a file's
             bytes with sendfile straight from the page cache.

    Over TLS (http.tls_cert) the same states read and write through the
    connection's SSL session (bus_tls): a file's bytes are read into a
    record-sized buffer and encrypted, since sendfile cannot carry them;
    a read may wait for the socket to be writable and a write for it to
    be readable, so both events lead to the state's work, and bytes TLS
    has decrypted ahead are served before any wait.

    Connections are kept alive (HTTP/1.1, no "Connection: close"), and
    requests pipelined behind a head are served in turn. A connection with
    no progress for SP_HTTP_STALL_S is dropped. Every request ends in
    exactly one answer.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <sys/sendfile.h> //  sendfile: downloads
#include <sys/socket.h>   //  recv, send

#define PROBLEM_BASE "https://api.backend.ai/probs/"
//  Every answer may be read by a page of any origin (CORS): a browser's UI
//  is served by the gateway's web listener, another origin, and uploads
//  and downloads straight here. Nothing here reads a cookie or any other
//  ambient credential (the token in the URL is the whole authority), so
//  another site gains nothing a token does not already give, as with
//  Backend.AI's storage-proxy, which allows every origin too. The tus and
//  download headers a client reads are exposed.
#define CORS_HEADERS                                                                     \
    "Access-Control-Allow-Origin: *\r\n"                                                 \
    "Access-Control-Expose-Headers: Upload-Offset, Upload-Length, Tus-Resumable, "       \
    "Tus-Version, Tus-Extension, Tus-Max-Size, Location, Content-Disposition, "          \
    "Content-Range, Accept-Ranges, ETag, Last-Modified\r\n"
//  How sp_folders_charge and sp_upload begin a quota refusal.
#define QUOTA_DETAIL "folder quota exceeded"

typedef enum { CONN_HEAD, CONN_BODY, CONN_DRAIN, CONN_WRITE } conn_state_t;

struct _sp_http_conn_t {
    sp_http_t *http;
    void *handle; //  the server's name for this connection
    int fd;
    SSL *ssl;   //  the client's TLS session; NULL: plain HTTP
    short need; //  what the last call that would block waits for (0: none)
    //  Bytes of "100 Continue" a full socket (or TLS) did not take: sent
    //  before the answer, the same bytes, as a write asked again must be.
    size_t continue_left;
    struct event *read_event;
    struct event *write_event;
    conn_state_t state;
    char head[SP_HTTP_HEAD_MAX + 1];
    size_t head_len;  //  bytes held: a head, then maybe body or the next request
    size_t head_size; //  the parsed head's bytes (0 while reading one)
    sp_http_request_t req;
    uint64_t body_left; //  body bytes still to read (CONN_BODY, CONN_DRAIN)
    //  Where the body goes (CONN_BODY).
    const sp_http_body_t *sink;
    void *sink_arg;
    uint8_t *buffer;
    //  The answer (CONN_WRITE, prepared during CONN_DRAIN).
    char *out;
    size_t out_len;
    size_t out_sent;
    int file; //  then bytes of this file with sendfile; -1: none
    uint64_t file_offset;
    uint64_t file_left;
    bool close_after;
    char extra[SP_HTTP_EXTRA_MAX]; //  the answer's extra header lines
    size_t extra_len;
};

static void s_on_read(evutil_socket_t fd, short what, void *arg);
static void s_on_write(evutil_socket_t fd, short what, void *arg);
static void s_on_ready(evutil_socket_t fd, short what, void *arg);
static void s_serve(sp_http_conn_t *c);

static const struct timeval s_stall = {SP_HTTP_STALL_S, 0};
static const char s_continue[] = "HTTP/1.1 100 Continue\r\n\r\n";
#define S_CONTINUE_LEN (sizeof s_continue - 1)

//  Ends the connection: the server forgets and destroys it.
static void
s_close(sp_http_conn_t *c)
{
    sp_http_drop(c->http, c->handle);
}

//  Waits until the connection can go on reading (true) or writing
//  (false): on the socket's readiness that the last call that would block
//  asked for (over TLS a read may need it writable), or at once for bytes
//  TLS holds decrypted already.
static void
s_wait(sp_http_conn_t *c, bool readable)
{
    bool on_read = c->need ? c->need == EV_READ : readable;
    c->need = 0;
    event_del(on_read ? c->write_event : c->read_event);
    event_add(on_read ? c->read_event : c->write_event, &s_stall);
    if (readable && bus_tls_pending(c->ssl) > 0)
        event_active(c->read_event, EV_READ, 0);
}

//  recv and send of the connection, over TLS when it has a session; what
//  a call that would block waits for is kept for s_wait.
static ssize_t
s_recv(sp_http_conn_t *c, void *into, size_t size)
{
    short need;
    ssize_t n = bus_tls_recv(c->ssl, c->fd, into, size, &need);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        c->need = need;
    return n;
}

static ssize_t
s_send(sp_http_conn_t *c, const void *data, size_t size)
{
    short need;
    ssize_t n = bus_tls_send(c->ssl, c->fd, data, size, &need);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        c->need = need;
    return n;
}

//  The body ended or broke off: the sink prepares the answer and is let go.
static void
s_body_done(sp_http_conn_t *c, const bus_error_t *err)
{
    const sp_http_body_t *sink = c->sink;
    void *arg = c->sink_arg;
    c->sink = NULL;
    c->sink_arg = NULL;
    free(c->buffer);
    c->buffer = NULL;
    sink->done(arg, c, err);
}

//  Hands n body bytes to the sink. 0 or -1 with err.
static int
s_body_write(sp_http_conn_t *c, const void *data, size_t n, bus_error_t *err)
{
    return c->sink->write(c->sink_arg, data, n, err);
}

//  ---------------------------------------------------------------------------

sp_http_conn_t *
sp_http_conn_new(sp_http_t *http, struct event_base *base, int fd, SSL_CTX *tls)
{
    assert(http && base && fd >= 0);
    //  No TCP_NODELAY: every answer is one write, which Nagle sends at
    //  once, and it would cut sendfile's stream into smaller segments.
    sp_http_conn_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->http = http;
    self->fd = fd;
    self->file = -1;
    self->read_event = event_new(base, fd, EV_READ | EV_PERSIST, s_on_ready, self);
    self->write_event = event_new(base, fd, EV_WRITE | EV_PERSIST, s_on_ready, self);
    self->ssl = tls ? bus_tls_accept(tls, fd) : NULL;
    if (!self->read_event || !self->write_event || (tls && !self->ssl)) {
        if (self->read_event)
            event_free(self->read_event);
        if (self->write_event)
            event_free(self->write_event);
        bus_tls_close(&self->ssl);
        free(self);
        return NULL;
    }
    return self;
}

void
sp_http_conn_destroy(sp_http_conn_t **self_p)
{
    assert(self_p);
    sp_http_conn_t *self = *self_p;
    if (self) {
        if (self->sink)
            self->sink->abort(self->sink_arg);
        event_free(self->read_event);
        event_free(self->write_event);
        if (self->file >= 0)
            close(self->file);
        bus_tls_close(&self->ssl);
        close(self->fd);
        free(self->buffer);
        free(self->out);
        free(self);
        *self_p = NULL;
    }
}

void
sp_http_conn_start(sp_http_conn_t *self, void *handle)
{
    assert(self);
    self->handle = handle;
    s_wait(self, true);
}

//  ---------------------------------------------------------------------------

const sp_http_request_t *
sp_http_conn_request(sp_http_conn_t *self)
{
    assert(self);
    return &self->req;
}

const char *
sp_http_conn_header(sp_http_conn_t *self, const char *name)
{
    assert(self);
    return sp_http_head_header(&self->req, name);
}

bool
sp_http_conn_header_u64(sp_http_conn_t *self, const char *name, uint64_t *value)
{
    const char *text = sp_http_conn_header(self, name);
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

uint64_t
sp_http_conn_body_left(sp_http_conn_t *self)
{
    assert(self);
    return self->body_left;
}

//  ---------------------------------------------------------------------------

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

void
sp_http_conn_add(sp_http_conn_t *self, const char *fmt, ...)
{
    assert(self);
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(self->extra + self->extra_len, SP_HTTP_EXTRA_MAX - self->extra_len,
                      fmt, args);
    va_end(args);
    if (n > 0 && (size_t) n < SP_HTTP_EXTRA_MAX - self->extra_len - 2) {
        self->extra_len += (size_t) n;
        memcpy(self->extra + self->extra_len, "\r\n", 3);
        self->extra_len += 2;
    }
}

void
sp_http_conn_answer(
    sp_http_conn_t *self, int status, const char *type, const char *body, uint64_t len)
{
    assert(self);
    sp_http_conn_t *c = self;
    bool head_only = strcmp(c->req.method, "HEAD") == 0;
    bool no_length = status == 204 || status < 200;
    if (c->req.close || c->req.http10)
        c->close_after = true;
    char top[256];
    int n = snprintf(top, sizeof top, "HTTP/1.1 %d %s\r\nServer: Backplane\r\n", status,
                     s_reason(status));
    size_t body_len = head_only || no_length || !body ? 0 : (size_t) len;
    size_t size = (size_t) n + sizeof CORS_HEADERS + c->extra_len + 160 + body_len;
    free(c->out);
    c->out = malloc(size);
    if (!c->out) {
        c->close_after = true;
        c->out_len = 0;
    } else {
        int m = snprintf(c->out, size, "%s%s%s%s%s%.*s", top, CORS_HEADERS,
                         type ? "Content-Type: " : "", type ? type : "",
                         type ? "\r\n" : "", (int) c->extra_len, c->extra);
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
    if (c->state == CONN_DRAIN && c->body_left > sp_http_max_body(c->http)) {
        c->close_after = true; //  too much to read for nothing: answer and go
        c->state = CONN_WRITE;
    }
}

void
sp_http_conn_problem(sp_http_conn_t *self,
                     int status,
                     const char *slug,
                     const char *title,
                     const char *detail)
{
    assert(self);
    char type[128];
    snprintf(type, sizeof type, PROBLEM_BASE "%s", slug);
    json_t *body =
        json_pack("{s:s, s:s, s:i}", "type", type, "title", title, "status", status);
    if (body && detail && *detail) {
        json_object_set_new(body, "msg", json_string(detail));
        json_object_set_new(body, "detail", json_string(detail));
    }
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    sp_http_conn_answer(self, status, "application/problem+json", text ? text : "{}",
                        text ? strlen(text) : 2);
    free(text);
    json_decref(body);
    //  The query holds the token: the path alone is logged.
    bus_log_info("request failed method=%s path=%s status=%d type=%s detail=\"%s\"",
                 self->req.method, self->req.path, status, slug, detail ? detail : "");
}

void
sp_http_conn_problem_for(sp_http_conn_t *self, const bus_error_t *err)
{
    switch (err->status) {
        case BUS_STATUS_INVALID:
        case BUS_STATUS_PROTOCOL:
            sp_http_conn_problem(self, 400, "invalid-api-params",
                                 "Missing or invalid API parameters.", err->detail);
            break;
        case BUS_STATUS_NOT_FOUND:
            sp_http_conn_problem(self, 404, "object-not-found", "No such object.",
                                 err->detail);
            break;
        case BUS_STATUS_CONFLICT:
            sp_http_conn_problem(self, 409, "vfolder-operation-failed", "Conflict.",
                                 err->detail);
            break;
        case BUS_STATUS_FORBIDDEN:
            if (strncmp(err->detail, QUOTA_DETAIL, strlen(QUOTA_DETAIL)) == 0)
                sp_http_conn_problem(self, 412, "quota-exceeded",
                                     "You have reached your resource limit.",
                                     err->detail);
            else
                sp_http_conn_problem(self, 403, "generic-forbidden",
                                     "Forbidden operation.", err->detail);
            break;
        case BUS_STATUS_UNAVAILABLE:
            sp_http_conn_problem(self, 503, "service-unavailable", "Service unavailable.",
                                 err->detail);
            break;
        default:
            sp_http_conn_problem(self, 500, "internal-server-error",
                                 "Internal server error.", err->detail);
            break;
    }
}

void
sp_http_conn_send_file(sp_http_conn_t *self, int fd, uint64_t offset, uint64_t len)
{
    assert(self && fd >= 0 && self->file < 0);
    self->file = fd;
    self->file_offset = offset;
    self->file_left = len;
}

int
sp_http_conn_read_body(sp_http_conn_t *self,
                       const sp_http_body_t *body,
                       void *arg,
                       bus_error_t *err)
{
    assert(self && body && self->body_left && !self->sink);
    self->buffer = malloc(SP_HTTP_BODY_BUFFER);
    if (!self->buffer)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory"), -1;
    const char *expect = sp_http_conn_header(self, "Expect");
    if (expect && strcasecmp(expect, "100-continue") == 0) {
        ssize_t n = s_send(self, s_continue, S_CONTINUE_LEN);
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
            self->close_after = true;
        else
            self->continue_left = S_CONTINUE_LEN - (n > 0 ? (size_t) n : 0);
        //  The body is read next; what the socket did not take goes out
        //  before the answer (the client sends the body after a pause).
        self->need = 0;
    }
    self->sink = body;
    self->sink_arg = arg;
    self->state = CONN_BODY;
    return 0;
}

//  ---------------------------------------------------------------------------
//  Requests

//  Serves the request whose head was just parsed: refuses a body it cannot
//  take, else hands it to the route table, which answers it or starts
//  reading its body.
static void
s_dispatch(sp_http_conn_t *c)
{
    sp_http_request_t *req = &c->req;
    uint64_t max_body = sp_http_max_body(c->http);
    c->body_left = req->content_length > 0 ? (uint64_t) req->content_length : 0;
    c->close_after = false;
    c->extra_len = 0;
    if (req->chunked) {
        c->close_after = true; //  a chunked body cannot be skipped
        c->body_left = 0;
        sp_http_conn_problem(c, 411, "invalid-api-params",
                             "Missing or invalid API parameters.",
                             "a body needs Content-Length (chunked is not taken)");
        return;
    }
    if (c->body_left > max_body) {
        c->close_after = true;
        c->body_left = 0;
        char detail[96];
        snprintf(detail, sizeof detail, "request body over %" PRIu64 " bytes", max_body);
        sp_http_conn_problem(c, 413, "invalid-api-params",
                             "Missing or invalid API parameters.", detail);
        return;
    }
    sp_http_dispatch(c->http, c);
}

//  Takes len body bytes held after the head (a sink's, or ones to drop).
static void
s_take_held(sp_http_conn_t *c, size_t len, bus_error_t *err)
{
    if (c->state == CONN_BODY && len &&
        s_body_write(c, c->head + c->head_size, len, err) != 0)
        c->state = CONN_DRAIN; //  the rest is dropped; the answer says why
    c->body_left -= len;
    c->head_size += len;
}

//  Moves on from a parsed request to whatever its state needs: body bytes
//  already held are taken, then the socket is read or written.
static void
s_advance(sp_http_conn_t *c)
{
    bus_error_t err = {0};
    if (c->state == CONN_BODY || c->state == CONN_DRAIN) {
        size_t held = c->head_len - c->head_size;
        size_t take = held < c->body_left ? held : (size_t) c->body_left;
        bool was_body = c->state == CONN_BODY;
        s_take_held(c, take, &err);
        if (was_body && c->state == CONN_DRAIN)
            s_body_done(c, &err); //  prepares the error; the rest is dropped
        else if (c->state == CONN_BODY && c->body_left == 0)
            s_body_done(c, &err);
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

//  Answers a head that cannot be served (too large, malformed) and closes.
static void
s_refuse_head(sp_http_conn_t *c, int status, const char *detail)
{
    memset(&c->req, 0, sizeof c->req);
    snprintf(c->req.method, sizeof c->req.method, "GET");
    c->close_after = true;
    c->body_left = 0;
    sp_http_conn_problem(c, status, "invalid-api-params",
                         "Missing or invalid API parameters.", detail);
    c->head_len = c->head_size = 0;
    s_on_write(c->fd, EV_WRITE, c);
}

//  Serves the head held once it is complete (then the connection may be
//  gone), or waits for more of it.
static void
s_serve(sp_http_conn_t *c)
{
    char *end = c->head_len >= 4 ? memmem(c->head, c->head_len, "\r\n\r\n", 4) : NULL;
    if (!end) {
        if (c->head_len == SP_HTTP_HEAD_MAX)
            s_refuse_head(c, 431, "request head too large");
        else
            s_wait(c, true);
        return;
    }
    c->head_size = (size_t) (end - c->head) + 4;
    char saved = c->head[c->head_size];
    c->head[c->head_size] = '\0';
    bool ok = sp_http_head_parse(c->head, c->head_size, &c->req);
    c->head[c->head_size] = saved;
    if (!ok) {
        s_refuse_head(c, 400, "malformed request");
        return;
    }
    s_dispatch(c);
    s_advance(c);
}

//  ---------------------------------------------------------------------------
//  Socket events

//  Reads a body into the buffer and hands it to the sink; reads and drops
//  a refused request's body. At most SP_HTTP_READ_TURN bytes a turn, so
//  one upload does not hold the loop.
static void
s_read_body(sp_http_conn_t *c)
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
            ssize_t n = s_recv(c, into + got, room - got);
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
        if (body && got && s_body_write(c, into, got, &err) != 0) {
            s_body_done(c, &err); //  prepares the error; the rest is dropped
            c->state = c->body_left ? CONN_DRAIN : CONN_WRITE;
            if (c->state == CONN_DRAIN && c->body_left > sp_http_max_body(c->http)) {
                c->close_after = true;
                c->state = CONN_WRITE;
            }
        }
        if (closed) {
            //  The client went away mid-body: what arrived stays (tus).
            s_close(c);
            return;
        }
        if (dry)
            break;
    }
    if (c->body_left == 0 && c->state == CONN_BODY)
        s_body_done(c, &err);
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
    sp_http_conn_t *c = arg;
    if (what & EV_TIMEOUT) {
        s_close(c);
        return;
    }
    if (c->state == CONN_BODY || c->state == CONN_DRAIN) {
        s_read_body(c);
        return;
    }
    (void) fd;
    ssize_t n = s_recv(c, c->head + c->head_len, SP_HTTP_HEAD_MAX - c->head_len);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
        s_wait(c, true); //  TLS may want the socket writable first
        return;
    }
    if (n <= 0) {
        s_close(c);
        return;
    }
    c->head_len += (size_t) n;
    s_serve(c);
}

//  Ends an answer: the next request, or the end of the connection.
static void
s_answered(sp_http_conn_t *c)
{
    free(c->out);
    c->out = NULL;
    c->out_len = c->out_sent = 0;
    if (c->file >= 0) {
        close(c->file);
        c->file = -1;
    }
    if (c->close_after) {
        s_close(c);
        return;
    }
    c->state = CONN_HEAD;
    memset(&c->req, 0, sizeof c->req);
    if (c->head_len)
        s_serve(c); //  a pipelined request
    else
        s_wait(c, true);
}

//  A file's next step bytes at offset over TLS: read, then encrypted. A
//  write that would block is asked again with the same bytes (the same
//  offset and step: TLS wants them again), as sendfile would be.
static ssize_t
s_send_file_tls(sp_http_conn_t *c, off_t offset, size_t step)
{
    uint8_t record[SP_HTTP_TLS_RECORD];
    ssize_t got = pread(c->file, record, step, offset);
    if (got <= 0) {
        errno = got == 0 ? EIO : errno; //  the file shrank under us
        return -1;
    }
    return s_send(c, record, (size_t) got);
}

//  Either readiness leads to the work of the connection's state: over TLS
//  a read may have waited for the socket to be writable, a write for it
//  to be readable.
static void
s_on_ready(evutil_socket_t fd, short what, void *arg)
{
    sp_http_conn_t *c = arg;
    if (c->state == CONN_WRITE)
        s_on_write(fd, what, c);
    else
        s_on_read(fd, what, c);
}

static void
s_on_write(evutil_socket_t fd, short what, void *arg)
{
    sp_http_conn_t *c = arg;
    if (what & EV_TIMEOUT) {
        s_close(c);
        return;
    }
    while (c->continue_left) {
        ssize_t n =
            s_send(c, s_continue + S_CONTINUE_LEN - c->continue_left, c->continue_left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            s_wait(c, false);
            return;
        }
        if (n <= 0) {
            s_close(c);
            return;
        }
        c->continue_left -= (size_t) n;
    }
    while (c->out_sent < c->out_len) {
        ssize_t n = s_send(c, c->out + c->out_sent, c->out_len - c->out_sent);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            s_wait(c, false);
            return;
        }
        if (n <= 0) {
            s_close(c);
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
        size_t most = c->ssl ? SP_HTTP_TLS_RECORD : SP_HTTP_SENDFILE_MAX;
        size_t step = c->file_left < most ? (size_t) c->file_left : most;
        ssize_t n = c->ssl ? s_send_file_tls(c, offset, step)
                           : sendfile(fd, c->file, &offset, step);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            s_wait(c, false);
            return;
        }
        if (n <= 0) { //  the client left, or the file shrank under us
            s_close(c);
            return;
        }
        c->file_offset += (uint64_t) n;
        c->file_left -= (uint64_t) n;
        turn += (uint64_t) n;
    }
    s_answered(c);
}
