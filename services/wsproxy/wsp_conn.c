/*  =========================================================================
    wsp_conn - one client connection on a route's port, relayed to its app

    Every event (a read, a write, the app's connect finishing) ends in
    s_run, which moves what can move: the client's input by the request
    state (a head, a body, or nothing while the answer is awaited), the
    app's input by the response state, then writes both outputs and sets
    which ends are read. It returns false once the connection is gone
    (nothing may touch it then).

      request   RQ_HEAD -> RQ_BODY -> RQ_DONE
      response  RS_IDLE -> RS_HEAD (1xx stay) -> RS_BODY -> RS_IDLE
      both done and both sides keep the connection: RQ_HEAD again

    A client that vanishes ends the connection at once; an app that closes
    between answers is reconnected at the next request; one that closes
    inside an answer cuts the client's connection too (it cannot tell
    otherwise). An app that cannot be reached is a 502 with the reason.

    On a model service's endpoint each request is admitted by its token and
    goes to a replica picked for it (over an idle app connection of the
    route's pool when one is kept for that replica, s_park); a request without a body and
   safe to repeat goes once more, to another replica, when the first cannot be reached or
   closes without answering. Endpoints are called from browser apps of other origins (the
   web UI's Chat): a CORS preflight is answered here, without a token, and every answer to
   a request with an Origin names that origin (the token, never a cookie, is what admits,
   so any origin may call).

    With wsproxy.tls_cert the client's end is TLS (bus_tls; the app's end
    stays plain TCP): its reads and writes go through its SSL object, which
    may need the other readiness (a read waiting for writability and a
    write for readability: read_wait and write_wait say which, and
    s_end_watch watches that), and bytes it decrypted but not handed out
    (bus_tls_pending) are read at once (event_active) since no readiness
    will announce them. splice cannot carry TLS records, so such a
    connection always moves its bytes through the evbuffers.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "wsp_classes.h"
#include <netinet/in.h>  //  IPPROTO_TCP
#include <netinet/tcp.h> //  TCP_NODELAY: WebSocket round trips
#include <sys/queue.h>   //  TAILQ_INIT: the parsed query
#include <sys/socket.h>
#include <fcntl.h>       //  splice, F_SETPIPE_SZ
#include <openssl/err.h> //  ERR_clear_error: a half-close over TLS
#include <sys/uio.h>     //  readv

#define PROBLEM_BASE        "https://api.backend.ai/probs/"
#define IOV_MAX_READ        2
#define PEEK_VECS           16
#define SPLICE_FLAGS        (SPLICE_F_MOVE | SPLICE_F_NONBLOCK)
#define WSP_CONN_ORIGIN_MAX 255
#define CORS_METHODS        "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS"
#define CORS_MAX_AGE        600
#define TLS_RECORD          16384 //  a full TLS record: what a write sends in one piece

typedef enum { RQ_HEAD, RQ_BODY, RQ_DONE } rq_state_t;
typedef enum { RS_IDLE, RS_HEAD, RS_BODY } rs_state_t;

typedef struct {
    int fd;   //  -1: closed
    SSL *ssl; //  the client's end over TLS; NULL: plain
    struct event *rev;
    struct event *wev;
    struct evbuffer *in;
    struct evbuffer *out;
    bool want_read;   //  its input is wanted (back-pressure allows it)
    bool want_write;  //  its output holds bytes
    short read_wait;  //  what a read waits for: EV_READ, or EV_WRITE over TLS
    short write_wait; //  what a write waits for: EV_WRITE, or EV_READ over TLS
    int held_end;     //  TLS: 1 the end, 2 an error, found behind bytes read
    bool reading;     //  rev is added
    bool writing;     //  wev is added
    bool eof;         //  read end reached (or failed)
    bool shut;        //  write side shut (pipe half-close)
    bool connecting;  //  the app's connect is under way
    int pipe[2];      //  bytes spliced for this end, not yet written; -1: none
    size_t piped;     //  how many
    size_t pipe_size; //  the pipe's capacity
} end_t;

struct _wsp_conn_t {
    wsp_route_t *route;
    void *handle;
    char client_addr[64];
    end_t c; //  the client
    end_t b; //  the app (backend)
    bool pipe;
    bool closing;  //  answer written: close once the client's output drains
    uint64_t high; //  wsproxy.buffer_bytes
    int64_t active_ms;
    //  the request in flight
    rq_state_t rq;
    wsp_http_body_t rq_body;
    uint64_t rq_left;
    wsp_http_chunked_t rq_chunk;
    char method[WSP_HTTP_METHOD_MAX + 1];
    bool rq_upgrade;
    bool client_keep;
    //  its answer
    rs_state_t rs;
    wsp_http_body_t rs_body;
    uint64_t rs_left;
    wsp_http_chunked_t rs_chunk;
    bool backend_keep;
    bool rs_started; //  bytes of the answer went to the client
    //  an endpoint's request: its replica, and the client's head kept for
    //  one more try on another replica
    wsp_target_t replica;
    bool has_replica;
    char *retry_head; //  NULL: not to be repeated
    size_t retry_len;
    bool retried;
    bool reused;    //  the request went on an app connection kept from before
    bool in_flight; //  counted in its replica's in_flight (wsp_route_release)
    char origin[WSP_CONN_ORIGIN_MAX + 1]; //  the request's Origin; "": none
    //  the Authorization an endpoint admitted on this connection, and until
    //  when (its token's expiry): the next requests carrying the same one
    //  are not verified again
    char *admitted;
    int64_t admitted_until;
};

static bool s_run(wsp_conn_t *self);
static void s_on_read(evutil_socket_t fd, short what, void *arg);
static void s_on_write(evutil_socket_t fd, short what, void *arg);

//  ---------------------------------------------------------------------------
//  Ends

//  Reads e when read, writes it when write: watches the readiness each
//  waits for (over TLS a read may wait for writability and a write for
//  readability).
static void
s_end_watch(end_t *e, bool read, bool write, const struct timeval *write_timeout)
{
    if (e->fd < 0)
        return;
    e->want_read = read;
    e->want_write = write;
    bool rev = (read && e->read_wait == EV_READ) || (write && e->write_wait == EV_READ);
    bool wev = (write && e->write_wait == EV_WRITE) || (read && e->read_wait == EV_WRITE);
    if (rev != e->reading) {
        if (rev)
            event_add(e->rev, NULL);
        else
            event_del(e->rev);
        e->reading = rev;
    }
    if (wev != e->writing || write_timeout) {
        if (wev)
            event_add(e->wev, write_timeout);
        else
            event_del(e->wev);
        e->writing = wev;
    }
}

//  Bytes waiting to be written to e: its output and its pipe.
static size_t
s_pending(const end_t *e)
{
    return (e->out ? evbuffer_get_length(e->out) : 0) + e->piped;
}

static void
s_pipe_close(end_t *e)
{
    if (e->pipe[0] >= 0)
        close(e->pipe[0]);
    if (e->pipe[1] >= 0)
        close(e->pipe[1]);
    e->pipe[0] = e->pipe[1] = -1;
    e->piped = e->pipe_size = 0;
}

static int
s_end_open(wsp_conn_t *self, end_t *e, int fd)
{
    struct event_base *base = wsp_routes_base(self->route->routes);
    e->fd = fd;
    e->rev = event_new(base, fd, EV_READ | EV_PERSIST, s_on_read, self);
    e->wev = event_new(base, fd, EV_WRITE | EV_PERSIST, s_on_write, self);
    if (!e->in)
        e->in = evbuffer_new();
    if (!e->out)
        e->out = evbuffer_new();
    e->reading = e->writing = e->eof = e->shut = e->connecting = false;
    e->want_read = e->want_write = false;
    e->read_wait = EV_READ;
    e->write_wait = EV_WRITE;
    e->held_end = 0;
    if (!e->rev || !e->wev || !e->in || !e->out)
        return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return 0;
}

//  Sets the capacity of e's pipe to want bytes. Growing, the largest that
//  is granted between want and the capacity now (the user's pipe
//  allowance, fs.pipe-user-pages-soft, may refuse large pipes); shrinking,
//  only an empty pipe.
static void
s_pipe_resize(end_t *e, size_t want)
{
    int size = -1;
    if (want < e->pipe_size) {
        if (e->piped == 0)
            size = fcntl(e->pipe[1], F_SETPIPE_SZ, (int) want);
    } else
        for (; size <= 0 && want > e->pipe_size; want /= 2)
            size = fcntl(e->pipe[1], F_SETPIPE_SZ, (int) want);
    if (size > 0)
        e->pipe_size = (size_t) size;
}

//  Closes the socket; the buffers stay (emptied) for a reconnect.
static void
s_end_close(end_t *e)
{
    if (e->rev)
        event_free(e->rev);
    if (e->wev)
        event_free(e->wev);
    e->rev = e->wev = NULL;
    bus_tls_close(&e->ssl);
    if (e->fd >= 0)
        close(e->fd);
    e->fd = -1;
    s_pipe_close(e);
    if (e->in)
        evbuffer_drain(e->in, evbuffer_get_length(e->in));
    if (e->out)
        evbuffer_drain(e->out, evbuffer_get_length(e->out));
    e->reading = e->writing = e->connecting = false;
    e->eof = e->shut = false;
    e->want_read = e->want_write = false;
    e->read_wait = EV_READ;
    e->write_wait = EV_WRITE;
    e->held_end = 0;
}

//  ---------------------------------------------------------------------------
//  An endpoint's idle app connections
//
//  Each request on an endpoint goes to a replica picked for it, mostly the
//  one the client's connection used last (wsp_route_pick's affinity), but
//  not always: a connection kept per client connection was closed at each
//  change, and a new one cost a TCP connection and a model server a new
//  thread. The app connection a client leaves, or leaves behind for
//  another replica, goes to the route's pool instead, for the next request
//  any client sends to that replica.

//  Gives the idle app connection to the route's pool (s_end_close when it
//  cannot be kept: mid-answer, bytes held, TLS).
static void
s_park(wsp_conn_t *self)
{
    end_t *b = &self->b;
    wsp_route_t *route = self->route;
    bool idle = self->has_replica && self->rs == RS_IDLE && self->backend_keep &&
                !b->connecting && !b->eof && !b->ssl && s_pending(b) == 0 &&
                evbuffer_get_length(b->in) == 0;
    if (!idle) {
        s_end_close(b);
        return;
    }
    if (route->idle_count == WSP_ROUTES_IDLE_MAX) {
        //  full: the oldest goes
        close(route->idle[0].fd);
        memmove(&route->idle[0], &route->idle[1],
                (WSP_ROUTES_IDLE_MAX - 1) * sizeof route->idle[0]);
        route->idle_count--;
    }
    wsp_idle_t *slot = &route->idle[route->idle_count++];
    snprintf(slot->route_id, sizeof slot->route_id, "%s", self->replica.route_id);
    slot->fd = b->fd;
    b->fd = -1; //  s_end_close frees the events, keeps the descriptor
    s_end_close(b);
}

//  An idle connection to replica route_id from the pool (the newest),
//  opened as the app end; false when none is kept or the app closed it.
static bool
s_unpark(wsp_conn_t *self, const char *route_id)
{
    wsp_route_t *route = self->route;
    for (size_t i = route->idle_count; i-- > 0;) {
        if (strcmp(route->idle[i].route_id, route_id) != 0)
            continue;
        int fd = route->idle[i].fd;
        memmove(&route->idle[i], &route->idle[i + 1],
                (route->idle_count - i - 1) * sizeof route->idle[0]);
        route->idle_count--;
        char byte;
        ssize_t n = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
        bool alive = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
        if (!alive) {
            close(fd); //  closed by the app meanwhile: an older one may do
            continue;
        }
        if (s_end_open(self, &self->b, fd) != 0) {
            s_end_close(&self->b);
            return false;
        }
        return true;
    }
    return false;
}

//  Half-closes e's sending side: over TLS a close_notify first (not
//  waiting for the peer's; reading goes on).
static void
s_end_shut(end_t *e)
{
    if (e->ssl) {
        SSL_shutdown(e->ssl);
        ERR_clear_error();
    }
    shutdown(e->fd, SHUT_WR);
    e->shut = true;
}

//  s_end_read over TLS: reads until max bytes, or the SSL object would
//  block (read_wait says for what). An end or error found after bytes
//  were read is held for the next call (s_run wakes it).
static ssize_t
s_end_read_tls(end_t *e, size_t max)
{
    if (e->held_end) {
        ssize_t end = e->held_end == 1 ? 0 : -2;
        e->held_end = 0;
        errno = EPIPE; //  the error's own errno went with its call
        return end;
    }
    e->read_wait = EV_READ;
    size_t total = 0;
    while (total < max) {
        struct evbuffer_iovec vec;
        if (evbuffer_reserve_space(e->in, (ev_ssize_t) (max - total), &vec, 1) < 1)
            return total ? (ssize_t) total : -2;
        short wait = EV_READ;
        size_t want = vec.iov_len < max - total ? vec.iov_len : max - total;
        ssize_t got = bus_tls_recv(e->ssl, e->fd, vec.iov_base, want, &wait);
        if (got <= 0) {
            int saved = errno;
            evbuffer_commit_space(e->in, &vec, 0);
            bool again = got < 0 && (saved == EAGAIN || saved == EINTR);
            if (got < 0 && saved == EAGAIN)
                e->read_wait = wait;
            errno = saved;
            if (total == 0)
                return got == 0 ? 0 : again ? -1 : -2;
            if (!again)
                e->held_end = got == 0 ? 1 : 2;
            return (ssize_t) total;
        }
        vec.iov_len = (size_t) got;
        evbuffer_commit_space(e->in, &vec, 1);
        total += (size_t) got;
    }
    return (ssize_t) total;
}

//  Reads once, at most max bytes, into e->in. >0 bytes, 0 at the end, -1
//  would block, -2 an error.
static ssize_t
s_end_read(end_t *e, size_t max)
{
    if (e->ssl)
        return s_end_read_tls(e, max);
    struct evbuffer_iovec vec[IOV_MAX_READ];
    int n = evbuffer_reserve_space(e->in, (ev_ssize_t) max, vec, IOV_MAX_READ);
    if (n <= 0)
        return -2;
    struct iovec iov[IOV_MAX_READ];
    for (int i = 0; i < n; i++) {
        iov[i].iov_base = vec[i].iov_base;
        iov[i].iov_len = vec[i].iov_len;
    }
    ssize_t got = readv(e->fd, iov, n);
    if (got <= 0) {
        evbuffer_commit_space(e->in, vec, 0);
        if (got == 0)
            return 0;
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? -1 : -2;
    }
    size_t left = (size_t) got;
    int used = 0;
    for (; used < n && left > 0; used++) {
        if (vec[used].iov_len > left)
            vec[used].iov_len = left;
        left -= vec[used].iov_len;
    }
    evbuffer_commit_space(e->in, vec, used);
    return got;
}

//  Writes what e->out holds. 0, or -1 on an error (the peer is gone).
static int
s_end_flush(end_t *e)
{
    while (e->fd >= 0 && !e->connecting && e->piped > 0) {
        ssize_t n = splice(e->pipe[0], NULL, e->fd, NULL, e->piped, SPLICE_FLAGS);
        if (n < 0)
            return errno == EAGAIN || errno == EINTR ? 0 : -1;
        if (n == 0)
            return 0;
        e->piped -= (size_t) n;
    }
    if (e->piped > 0)
        return 0; //  the pipe's bytes go first
    while (e->fd >= 0 && e->ssl && evbuffer_get_length(e->out) > 0) {
        //  a record's worth at least in one piece, where the buffer is cut
        //  smaller (a retry may send more than the write that would block:
        //  the front bytes stay, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER)
        size_t len = evbuffer_get_length(e->out);
        if (!evbuffer_pullup(e->out, (ev_ssize_t) (len < TLS_RECORD ? len : TLS_RECORD)))
            return -1;
        struct evbuffer_iovec vec;
        if (evbuffer_peek(e->out, -1, NULL, &vec, 1) < 1)
            return 0;
        short wait = EV_WRITE;
        ssize_t n = bus_tls_send(e->ssl, e->fd, vec.iov_base, vec.iov_len, &wait);
        if (n < 0) {
            if (errno == EAGAIN)
                e->write_wait = wait;
            return errno == EAGAIN || errno == EINTR ? 0 : -1;
        }
        e->write_wait = EV_WRITE;
        evbuffer_drain(e->out, (size_t) n);
    }
    while (e->fd >= 0 && !e->connecting && evbuffer_get_length(e->out) > 0) {
        int n = evbuffer_write(e->out, e->fd);
        if (n < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
        if (n == 0)
            return 0;
    }
    return 0;
}

//  ---------------------------------------------------------------------------
//  Local answers

//  The request's replica no longer counts it in flight: answered, failed,
//  refused here, or a byte pipe now.
static void
s_release(wsp_conn_t *self)
{
    if (self->in_flight) {
        wsp_route_release(self->route, self->replica.route_id);
        self->in_flight = false;
    }
}

//  The connection leaves its replica (wsp_route_bind): it is gone.
static void
s_unbind(wsp_conn_t *self)
{
    if (self->has_replica) {
        wsp_route_bind(self->route, self->replica.route_id, NULL);
        self->has_replica = false;
    }
}

//  Queues an answer of the proxy's own and closes once it is written.
static void
s_answer(wsp_conn_t *self,
         int status,
         const char *reason,
         const char *extra,
         const char *type,
         const char *body)
{
    s_release(self);
    evbuffer_drain(self->c.in, evbuffer_get_length(self->c.in));
    evbuffer_add_printf(self->c.out,
                        "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                        "Cache-Control: no-store\r\nConnection: close\r\n%s",
                        status, reason, type, strlen(body), extra ? extra : "");
    //  An endpoint's refusal (401, 503) must be readable by the calling page.
    if (*self->origin)
        evbuffer_add_printf(self->c.out,
                            "Access-Control-Allow-Origin: %s\r\nVary: Origin\r\n",
                            self->origin);
    evbuffer_add_printf(self->c.out, "\r\n%s", body);
    self->closing = true;
    self->rs_started = true;
}

//  A problem+json answer: slug, title, and detail (JSON-escaped here).
static void
s_problem(wsp_conn_t *self,
          int status,
          const char *reason,
          const char *slug,
          const char *title,
          const char *detail)
{
    json_t *doc = json_pack("{s:s+, s:s, s:i, s:s}", "type", PROBLEM_BASE, slug, "title",
                            title, "status", status, "detail", detail ? detail : "");
    char *text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    json_decref(doc);
    s_answer(self, status, reason, NULL, "application/problem+json", text ? text : "{}");
    free(text);
    bus_log_info("app request refused route=%s app=%s status=%d detail=\"%s\"",
                 self->route->row.id, self->route->row.app, status, detail ? detail : "");
}

//  A redirect target from the permit URL: a path on this port, never
//  another host ("//host", "/\host"), no control characters; else "/".
static const char *
s_local_path(const char *path)
{
    if (!path || path[0] != '/' || path[1] == '/' || path[1] == '\\')
        return "/";
    for (const char *p = path; *p; p++)
        if ((unsigned char) *p < 0x21 || *p == 0x7f)
            return "/";
    return strlen(path) > 2048 ? "/" : path;
}

//  GET WSP_CONN_PERMIT_PATH?p=PERMIT[&redirect=/path]: the permit becomes the
//  cookie, then the browser goes to the app's root (or redirect). With a
//  valid cookie already, the permit is not needed (a second visit of the
//  same URL). The web UI first asks with Accept: application/json and
//  expects {"redirect_url", "reuse"} (reference A.6).
static void
s_permit(wsp_conn_t *self, const wsp_http_head_t *req, const char *query_text)
{
    wsp_route_t *route = self->route;
    struct evkeyvalq query;
    TAILQ_INIT(&query);
    if (query_text && evhttp_parse_query_str(query_text, &query) != 0) {
        evhttp_clear_headers(&query);
        s_problem(self, 400, "Bad Request", "invalid-api-params",
                  "Missing or invalid API parameters.", "malformed query string");
        return;
    }
    const char *permit = evhttp_find_header(&query, "p");
    const char *location = s_local_path(evhttp_find_header(&query, "redirect"));
    char cookie[WSP_ROUTES_COOKIE_MAX + 1];
    bool has_cookie = wsp_http_cookie(req, route->cookie_name, cookie, sizeof cookie) &&
                      wsp_route_cookie_ok(route, cookie);
    const char *accept = wsp_http_header(req, "Accept");
    char extra[2600];
    if (!has_cookie && permit && accept && strcmp(accept, "application/json") == 0) {
        char *url = NULL;
        const char *host = wsp_http_header(req, "Host");
        if (asprintf(&url, "%s://%s%s", self->c.ssl ? "https" : "http",
                     host && *host ? host : "localhost", req->target) < 0)
            url = NULL;
        json_t *doc = json_pack("{s:s, s:b}", "redirect_url", url ? url : "", "reuse", 0);
        char *text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
        json_decref(doc);
        free(url);
        s_answer(self, 200, "OK", "Access-Control-Allow-Origin: *\r\n",
                 "application/json", text ? text : "{}");
        free(text);
    } else if (has_cookie || (permit && wsp_route_permit_take(route, permit))) {
        snprintf(
            extra, sizeof extra,
            "Location: %s\r\nSet-Cookie: %s=%s; Path=/; HttpOnly; SameSite=Lax%s\r\n",
            location, route->cookie_name, route->cookie, self->c.ssl ? "; Secure" : "");
        s_answer(self, 302, "Found", extra, "text/plain", "");
        bus_log_info("app permit route=%s app=%s session=%s user=%s reused_cookie=%s",
                     route->row.id, route->row.app, route->row.session_id,
                     route->row.user_uuid, has_cookie ? "yes" : "no");
    } else
        s_problem(self, 403, "Forbidden", "generic-forbidden", "Forbidden operation.",
                  permit ? "the permit is unknown, used or expired: open the app again"
                         : "no permit");
    evhttp_clear_headers(&query);
}

//  ---------------------------------------------------------------------------
//  The app's end

//  Connects the app's end. 0 (maybe still connecting), or -1 with errno.
static int
s_backend_connect(wsp_conn_t *self)
{
    wsp_route_t *route = self->route;
    const struct sockaddr_storage *addr =
        self->has_replica ? &self->replica.addr : &route->addr;
    socklen_t addr_len = self->has_replica ? self->replica.addr_len : route->addr_len;
    if (addr_len == 0) {
        errno = EHOSTUNREACH;
        return -1;
    }
    int fd = socket(addr->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (s_end_open(self, &self->b, fd) != 0) {
        s_end_close(&self->b);
        errno = ENOMEM;
        return -1;
    }
    if (connect(fd, (const struct sockaddr *) addr, addr_len) != 0) {
        if (errno != EINPROGRESS) {
            int saved = errno;
            s_end_close(&self->b);
            errno = saved;
            return -1;
        }
        self->b.connecting = true;
        const wsp_config_t *config = wsp_routes_config(route->routes);
        struct timeval timeout = {config->connect_timeout_ms / 1000,
                                  (config->connect_timeout_ms % 1000) * 1000};
        s_end_watch(&self->b, false, true, &timeout);
    }
    return 0;
}

static bool s_retry(wsp_conn_t *self);

//  The app cannot be reached: 502 with why (or, for a pipe, the end), or
//  an endpoint's request tried again on another replica.
static void
s_backend_failed(wsp_conn_t *self, const char *why)
{
    wsp_route_t *route = self->route;
    const char *target = self->has_replica ? self->replica.target : route->target;
    bus_log_warning("app unreachable route=%s app=%s target=%s reason=\"%s\"",
                    route->row.id, route->row.app, target, why);
    s_end_close(&self->b);
    s_release(self);
    if (!self->pipe && !self->rs_started && s_retry(self))
        return;
    if (self->pipe || self->rs_started) {
        self->closing = true;
        evbuffer_drain(self->c.out, evbuffer_get_length(self->c.out));
        return;
    }
    char detail[512];
    snprintf(detail, sizeof detail, "the app '%s' at %s cannot be reached: %s",
             route->row.app, target, why);
    s_problem(self, 502, "Bad Gateway", "bad-gateway", "Bad gateway.", detail);
}

//  ---------------------------------------------------------------------------
//  Requests

//  ---------------------------------------------------------------------------
//  Endpoints of model services

static void s_forward(wsp_conn_t *self, const wsp_http_head_t *req, const char *target);

//  Safe to send again: no body, and a method that changes nothing or the
//  same thing twice (RFC 9110 9.2.2).
static bool
s_repeatable(const wsp_http_head_t *req)
{
    static const char *const methods[] = {"GET", "HEAD", "OPTIONS", "PUT", "DELETE"};
    if (req->body != WSP_HTTP_BODY_NONE || req->upgrade)
        return false;
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
        if (strcmp(req->method, methods[i]) == 0)
            return true;
    return false;
}

//  Keeps the request's Origin for the answer's CORS headers; one longer than
//  any real origin, or with bytes a header may not repeat, counts as none.
static void
s_keep_origin(wsp_conn_t *self, const wsp_http_head_t *req)
{
    const char *origin = wsp_http_header(req, "Origin");
    self->origin[0] = '\0';
    if (!origin || strlen(origin) > WSP_CONN_ORIGIN_MAX)
        return;
    for (const char *p = origin; *p; p++)
        if ((unsigned char) *p < 0x21 || *p == 0x7f || *p == ',')
            return;
    strcpy(self->origin, origin);
}

//  A CORS preflight (OPTIONS with an Origin and Access-Control-Request-Method)
//  answered here: it carries no token, and the replicas need not know CORS.
static void
s_preflight(wsp_conn_t *self)
{
    evbuffer_drain(self->c.in, evbuffer_get_length(self->c.in));
    evbuffer_add_printf(self->c.out,
                        "HTTP/1.1 204 No Content\r\nAccess-Control-Allow-Origin: %s\r\n"
                        "Access-Control-Allow-Methods: " CORS_METHODS "\r\n"
                        "Access-Control-Allow-Headers: Authorization, Content-Type\r\n"
                        "Access-Control-Max-Age: %d\r\nVary: Origin\r\n"
                        "Cache-Control: no-store\r\nConnection: close\r\n\r\n",
                        self->origin, CORS_MAX_AGE);
    self->closing = true;
    self->rs_started = true;
}

//  Sends req to a replica of the endpoint: admitted by its token, to the
//  replica picked for it. raw (len bytes and a NUL, unparsed; taken) is the
//  client's head, kept for one more try when the request can be repeated.
static void
s_endpoint_request(wsp_conn_t *self, const wsp_http_head_t *req, char *raw, size_t len)
{
    wsp_route_t *route = self->route;
    bus_error_t err = {0};
    s_keep_origin(self, req);
    if (*self->origin && strcmp(req->method, "OPTIONS") == 0 &&
        wsp_http_header(req, "Access-Control-Request-Method")) {
        s_preflight(self);
        free(raw);
        return;
    }
    const char *authorization = wsp_http_header(req, "Authorization");
    bool admitted = self->admitted && authorization &&
                    strcmp(self->admitted, authorization) == 0 &&
                    (int64_t) time(NULL) < self->admitted_until;
    int64_t until = 0;
    if (!route->row.open_to_public && !admitted &&
        wsp_route_endpoint_admit(route, authorization, &until, &err) == BUS_OK) {
        free(self->admitted);
        self->admitted = strdup(authorization);
        self->admitted_until = until;
        admitted = true;
    }
    if (!route->row.open_to_public && !admitted) {
        bool none = err.status == BUS_STATUS_INVALID;
        s_problem(self, none ? 401 : 403, none ? "Unauthorized" : "Forbidden",
                  none ? "auth-failed" : "generic-forbidden",
                  none ? "Authentication failed." : "Forbidden operation.", err.detail);
        free(raw);
        return;
    }
    //  Demand, whether a replica can take it or not: what autoscaling
    //  rules on requests per second look at.
    route->requests++;
    const wsp_target_t *pick =
        wsp_route_pick(route, self->has_replica ? self->replica.route_id : NULL, NULL);
    if (!pick) {
        s_problem(self, 503, "Service Unavailable", "service-unavailable",
                  "Service unavailable.", "the model service has no healthy replica now");
        free(raw);
        return;
    }
    //  An app connection still open (a request before an answer ended it):
    //  to the pool when idle; the picked replica's from there, if kept.
    if (self->b.fd >= 0 &&
        (!self->has_replica || strcmp(self->replica.route_id, pick->route_id) != 0))
        s_park(self);
    if (self->b.fd < 0)
        s_unpark(self, pick->route_id);
    if (!self->has_replica || strcmp(self->replica.route_id, pick->route_id) != 0)
        wsp_route_bind(route, self->has_replica ? self->replica.route_id : NULL,
                       pick->route_id);
    self->replica = *pick;
    self->has_replica = true;
    self->in_flight = true;
    free(self->retry_head);
    self->retry_head = NULL;
    if (raw && s_repeatable(req)) {
        self->retry_head = raw;
        self->retry_len = len;
    } else
        free(raw);
    self->retried = false;
    s_forward(self, req, self->replica.target);
}

//  Sends the kept request again, to another replica: true when it went.
static bool
s_retry(wsp_conn_t *self)
{
    if (!self->has_replica || !self->retry_head || self->retried)
        return false;
    //  Another replica; or, when there is none, the same one again on a new
    //  connection, as a kept one may have been closed by the app meanwhile.
    const wsp_target_t *other = wsp_route_pick(self->route, NULL, self->replica.route_id);
    if (!other || strcmp(other->route_id, self->replica.route_id) == 0) {
        if (!self->reused) {
            if (other)
                wsp_route_release(self->route, other->route_id); //  not sent
            return false;
        }
        other = &self->replica;
    }
    wsp_http_head_t req;
    if (!wsp_http_parse_request(self->retry_head, self->retry_len, &req))
        return false; //  parsed once already: cannot happen
    bus_log_info("endpoint request tried again endpoint=%s from=%s to=%s",
                 self->route->row.session_id, self->replica.route_id, other->route_id);
    self->retried = true;
    if (other != &self->replica) {
        wsp_route_bind(self->route, self->replica.route_id, other->route_id);
        self->replica = *other;
    }
    self->in_flight = true;
    s_forward(self, &req, self->replica.target);
    return true;
}

//  Handles the request head of len bytes at the front of the client's input.
static void
s_request(wsp_conn_t *self, size_t len)
{
    char *head = malloc(len + 1);
    if (!head) {
        self->closing = true;
        return;
    }
    evbuffer_remove(self->c.in, head, len);
    head[len] = '\0';
    //  An endpoint's request may go twice: the head as it came, unparsed.
    char *raw = self->route->row.endpoint ? malloc(len + 1) : NULL;
    if (raw)
        memcpy(raw, head, len + 1);
    wsp_http_head_t req;
    if (!wsp_http_parse_request(head, len, &req)) {
        s_problem(self, 400, "Bad Request", "invalid-api-params", "Bad request.",
                  "malformed request head");
        free(raw);
        free(head);
        return;
    }
    wsp_route_t *route = self->route;
    if (route->row.endpoint) {
        s_endpoint_request(self, &req, raw, len);
        free(head);
        return;
    }
    const char *query = strchr(req.target, '?');
    size_t path_len = query ? (size_t) (query - req.target) : strlen(req.target);
    if (path_len == strlen(WSP_CONN_PERMIT_PATH) &&
        strncmp(req.target, WSP_CONN_PERMIT_PATH, path_len) == 0) {
        s_permit(self, &req, query ? query + 1 : NULL);
        free(head);
        return;
    }
    char cookie[WSP_ROUTES_COOKIE_MAX + 1];
    if (!wsp_http_cookie(&req, route->cookie_name, cookie, sizeof cookie) ||
        !wsp_route_cookie_ok(route, cookie)) {
        s_problem(self, 403, "Forbidden", "generic-forbidden", "Forbidden operation.",
                  "no valid permit cookie for this app: open it from the app launcher");
        free(head);
        return;
    }
    s_forward(self, &req, route->target);
    free(head);
}

//  Sends the request head req (parsed) to the app at target ("host:port"),
//  connecting first when no connection is open, and sets the request's
//  state.
static void
s_forward(wsp_conn_t *self, const wsp_http_head_t *req, const char *target)
{
    char out[WSP_HTTP_HEAD_MAX + 1024];
    //  An endpoint that checked a token keeps it: the model never sees it.
    bool drop_authorization =
        self->route->row.endpoint && !self->route->row.open_to_public;
    ssize_t n =
        wsp_http_request_write(req, target, self->client_addr, self->c.ssl != NULL,
                               drop_authorization, out, sizeof out);
    if (n < 0) {
        s_problem(self, 431, "Request Header Fields Too Large", "invalid-api-params",
                  "Request head too large.", "the request head is too large");
        return;
    }
    snprintf(self->method, sizeof self->method, "%s", req->method);
    self->rq_upgrade = req->upgrade;
    self->client_keep = req->keep_alive;
    self->rq_body = req->body;
    self->rq_left = req->length;
    memset(&self->rq_chunk, 0, sizeof self->rq_chunk);
    self->rq = req->body == WSP_HTTP_BODY_NONE ? RQ_DONE : RQ_BODY;
    self->rs = RS_HEAD;
    self->rs_started = false;
    self->reused = self->b.fd >= 0;
    if (self->b.fd < 0 && s_backend_connect(self) != 0) {
        s_backend_failed(self, strerror(errno));
        return;
    }
    evbuffer_add(self->b.out, out, (size_t) n);
}

//  Moves body bytes of the framing (kind, *left, chunk) from in to out.
//  Returns 1 when the body ended, 0 when more is to come, -1 when the
//  chunked framing is broken.
static int
s_move_body(struct evbuffer *in,
            struct evbuffer *out,
            wsp_http_body_t kind,
            uint64_t *left,
            wsp_http_chunked_t *chunk)
{
    size_t have = evbuffer_get_length(in);
    if (kind == WSP_HTTP_BODY_NONE)
        return 1;
    if (kind == WSP_HTTP_BODY_CLOSE) {
        evbuffer_add_buffer(out, in);
        return 0;
    }
    if (kind == WSP_HTTP_BODY_LENGTH) {
        size_t take = have < *left ? have : (size_t) *left;
        if (take)
            evbuffer_remove_buffer(in, out, take);
        *left -= take;
        return *left == 0;
    }
    //  chunked: scan what is held up to the body's end
    size_t take = 0;
    bool done = false;
    while (!done && take < have) {
        struct evbuffer_ptr at;
        evbuffer_ptr_set(in, &at, take, EVBUFFER_PTR_SET);
        struct evbuffer_iovec vec[PEEK_VECS];
        int n = evbuffer_peek(in, -1, &at, vec, PEEK_VECS);
        if (n <= 0)
            break;
        for (int i = 0; i < n && i < PEEK_VECS && !done; i++) {
            ssize_t used =
                wsp_http_chunked_scan(chunk, vec[i].iov_base, vec[i].iov_len, &done);
            if (used < 0)
                return -1;
            take += (size_t) used;
        }
    }
    if (take)
        evbuffer_remove_buffer(in, out, take);
    return done;
}

//  Becomes a byte pipe (a 101, or a tcp route).
static void
s_become_pipe(wsp_conn_t *self)
{
    self->pipe = true;
    s_release(self); //  a WebSocket's life is no request in flight
    evbuffer_add_buffer(self->b.out, self->c.in);
    evbuffer_add_buffer(self->c.out, self->b.in);
}

//  The answer ended: the next request, or the end.
static void
s_response_done(wsp_conn_t *self)
{
    self->rs = RS_IDLE;
    s_release(self);
    if (!self->backend_keep)
        s_end_close(&self->b);
    //  An endpoint's app connection stays for this client's next request,
    //  which mostly goes to the same replica (wsp_route_pick's affinity):
    //  the same connection, so the same thread of a model server that
    //  keeps one a connection. It goes to the pool when the client's next
    //  request goes elsewhere, or when the client leaves (s_gone).
    if (!self->client_keep || self->rq != RQ_DONE)
        self->closing = true;
    else
        self->rq = RQ_HEAD;
}

//  Serves the client's input: request heads and bodies. false: gone.
static void
s_client_input(wsp_conn_t *self)
{
    while (!self->closing && !self->pipe) {
        if (self->rq == RQ_HEAD) {
            if (self->rs != RS_IDLE)
                return;
            size_t have = evbuffer_get_length(self->c.in);
            struct evbuffer_ptr end = evbuffer_search(self->c.in, "\r\n\r\n", 4, NULL);
            if (end.pos < 0) {
                if (have > WSP_HTTP_HEAD_MAX)
                    s_problem(self, 431, "Request Header Fields Too Large",
                              "invalid-api-params", "Request head too large.",
                              "the request head is too large");
                return;
            }
            if ((size_t) end.pos + 4 > WSP_HTTP_HEAD_MAX) {
                s_problem(self, 431, "Request Header Fields Too Large",
                          "invalid-api-params", "Request head too large.",
                          "the request head is too large");
                return;
            }
            s_request(self, (size_t) end.pos + 4);
            continue;
        }
        if (self->rq == RQ_BODY) {
            int rc = s_move_body(self->c.in, self->b.out, self->rq_body, &self->rq_left,
                                 &self->rq_chunk);
            if (rc < 0) {
                self->closing = true; //  broken framing: nothing sane to answer
                return;
            }
            if (rc == 0)
                return;
            self->rq = RQ_DONE;
            continue;
        }
        return; //  RQ_DONE: the next request waits for this answer
    }
}

//  The answer's head (len bytes at the front of the app's input) to the
//  client without its Connection and Keep-Alive headers and its blank line
//  (the app's input keeps that): 0, or -1 with nothing moved.
static int
s_head_kept(wsp_conn_t *self, size_t len)
{
    const char *raw = (const char *) evbuffer_pullup(self->b.in, (ssize_t) len);
    char *out = raw ? malloc(len + 1) : NULL;
    ssize_t n = out ? wsp_http_response_kept(raw, len, out, len + 1) : -1;
    int rc = n >= 2 && evbuffer_add(self->c.out, out, (size_t) n - 2) == 0 ? 0 : -1;
    if (rc == 0)
        evbuffer_drain(self->b.in, len - 2);
    free(out);
    return rc;
}

//  Serves the app's input: answer heads and bodies.
static void
s_backend_input(wsp_conn_t *self)
{
    while (!self->closing && !self->pipe && self->b.fd >= 0) {
        size_t have = evbuffer_get_length(self->b.in);
        if (self->rs == RS_IDLE) {
            if (have)
                s_end_close(&self->b); //  bytes nobody asked for
            return;
        }
        if (self->rs == RS_HEAD) {
            struct evbuffer_ptr end = evbuffer_search(self->b.in, "\r\n\r\n", 4, NULL);
            if (end.pos < 0 || (size_t) end.pos + 4 > WSP_HTTP_HEAD_MAX) {
                if (have > WSP_HTTP_HEAD_MAX || end.pos >= 0)
                    s_backend_failed(self, "the app's answer head is too large");
                return;
            }
            size_t len = (size_t) end.pos + 4;
            char *head = malloc(len + 1);
            if (!head) {
                self->closing = true;
                return;
            }
            evbuffer_copyout(self->b.in, head, len);
            head[len] = '\0';
            wsp_http_head_t res;
            bool ok = wsp_http_parse_response(head, len, self->method, &res);
            bool cors = ok && *self->origin &&
                        !wsp_http_header(&res, "Access-Control-Allow-Origin");
            free(head);
            if (!ok || (res.status == 101 && !self->rq_upgrade)) {
                s_backend_failed(self, "the app answered with a malformed head");
                return;
            }
            //  The head but its blank line, then the origin, then the blank
            //  line; an app that closes after this answer while the
            //  client's connection stays: without its Connection headers.
            size_t rest = len;
            if (!res.keep_alive && self->client_keep && res.status >= 200 &&
                res.body != WSP_HTTP_BODY_CLOSE && s_head_kept(self, len) == 0)
                rest = 2;
            else if (cors) {
                evbuffer_remove_buffer(self->b.in, self->c.out, len - 2);
                rest = 2;
            }
            if (cors)
                evbuffer_add_printf(self->c.out,
                                    "Access-Control-Allow-Origin: %s\r\nVary: Origin\r\n",
                                    self->origin);
            evbuffer_remove_buffer(self->b.in, self->c.out, rest);
            self->rs_started = true;
            if (res.status == 101) {
                s_become_pipe(self);
                return;
            }
            if (res.status < 200)
                continue; //  100 Continue and friends: the answer follows
            self->rs = RS_BODY;
            self->rs_body = res.body;
            self->rs_left = res.length;
            memset(&self->rs_chunk, 0, sizeof self->rs_chunk);
            self->backend_keep = res.keep_alive;
            if (res.body == WSP_HTTP_BODY_CLOSE)
                self->client_keep = false;
            continue;
        }
        int rc = s_move_body(self->b.in, self->c.out, self->rs_body, &self->rs_left,
                             &self->rs_chunk);
        if (rc < 0) {
            self->closing = true;
            s_end_close(&self->b);
            return;
        }
        if (rc == 0)
            return;
        s_response_done(self);
    }
}

//  ---------------------------------------------------------------------------
//  The engine

static void
s_gone(wsp_conn_t *self)
{
    s_release(self);
    if (self->route->row.endpoint && !self->pipe && self->b.fd >= 0)
        s_park(self); //  for whoever asks that replica next
    s_unbind(self);
    wsp_route_drop(self->route, self->handle);
}

//  Ends of input: what a closed side means in the state it is in.
static void
s_eofs(wsp_conn_t *self)
{
    if (self->pipe) {
        //  half-close each way once the bytes before it are written
        if (self->c.eof && !self->b.shut && self->b.fd >= 0 && s_pending(&self->b) == 0 &&
            !self->b.connecting)
            s_end_shut(&self->b);
        if (self->b.eof && !self->c.shut && s_pending(&self->c) == 0)
            s_end_shut(&self->c);
        if (self->b.fd < 0 && !self->b.connecting)
            self->closing = true;
        return;
    }
    if (self->b.fd >= 0 && self->b.eof) {
        if (self->rs == RS_BODY && self->rs_body == WSP_HTTP_BODY_CLOSE &&
            evbuffer_get_length(self->b.in) == 0) {
            s_end_close(&self->b);
            self->backend_keep = true; //  closed already
            s_response_done(self);
        } else if (self->rs == RS_HEAD && !self->rs_started)
            s_backend_failed(self, "the app closed the connection without answering");
        else if (self->rs == RS_BODY) {
            self->closing = true; //  cut short: the client must see it
            s_end_close(&self->b);
        } else if (self->rs == RS_IDLE)
            s_end_close(&self->b);
    }
    if (self->c.eof) {
        if (self->rq == RQ_HEAD && self->rs == RS_IDLE)
            self->closing = true; //  a client that left between requests
        else if (self->rq == RQ_BODY)
            self->closing = true; //  a request cut short
        else
            self->client_keep = false; //  answer the request, then close
    }
}

//  Moves everything that can move, writes, and chooses what to read.
//  false once the connection is gone.
static bool
s_run(wsp_conn_t *self)
{
    if (!self->closing) {
        if (self->pipe) {
            if (evbuffer_get_length(self->c.in))
                evbuffer_add_buffer(self->b.out, self->c.in);
            if (evbuffer_get_length(self->b.in))
                evbuffer_add_buffer(self->c.out, self->b.in);
        } else {
            s_backend_input(self);
            s_client_input(self);
            s_backend_input(self);
        }
        s_eofs(self);
    }
    if (s_end_flush(&self->c) != 0) {
        s_gone(self);
        return false;
    }
    if (self->b.fd >= 0 && s_end_flush(&self->b) != 0) {
        if (self->pipe) {
            s_gone(self);
            return false;
        }
        s_backend_failed(self, strerror(errno));
        if (s_end_flush(&self->c) != 0) {
            s_gone(self);
            return false;
        }
    }
    if (self->pipe)
        s_eofs(self);
    size_t c_out = s_pending(&self->c);
    size_t b_out = self->b.fd >= 0 ? s_pending(&self->b) : 0;
    if (self->closing) {
        if (c_out == 0) {
            s_gone(self);
            return false;
        }
        s_end_watch(&self->c, false, true, NULL);
        if (self->b.fd >= 0)
            s_end_watch(&self->b, false, false, NULL);
        return true;
    }
    if (self->pipe && self->c.eof && self->b.eof && c_out == 0 && b_out == 0) {
        s_gone(self);
        return false;
    }
    //  The client's end stays watched while a request awaits its answer:
    //  what it sends meanwhile (a pipelined request, or its end) waits in
    //  its input, within the bound; unwatching and watching it again around
    //  each answer cost two epoll_ctl calls a request.
    bool read_c = !self->c.eof && b_out < self->high &&
                  evbuffer_get_length(self->c.in) < self->high;
    s_end_watch(&self->c, read_c, c_out > 0, NULL);
    //  bytes TLS decrypted already (or an end held behind bytes read): no
    //  readiness will announce them
    if (read_c && self->c.ssl && (bus_tls_pending(self->c.ssl) > 0 || self->c.held_end))
        event_active(self->c.rev, EV_READ, 1);
    if (self->b.fd >= 0 && !self->b.connecting) {
        bool read_b = !self->b.eof && c_out < self->high &&
                      evbuffer_get_length(self->b.in) < self->high;
        s_end_watch(&self->b, read_b, b_out > 0, NULL);
    }
    return true;
}

//  How many bytes of the end may go to its peer with splice, without the
//  proxy looking at them: none held on either side, and the bytes are a
//  byte pipe's, a body of known length or one read until close, or the
//  data of a chunk whose head was seen. 0: no.
static size_t
s_splice_max(wsp_conn_t *self, bool client)
{
    end_t *e = client ? &self->c : &self->b;
    end_t *peer = client ? &self->b : &self->c;
    if (self->c.ssl)
        return 0; //  TLS records: only SSL_read and SSL_write may move them
    if (self->closing || evbuffer_get_length(e->in) || peer->fd < 0 || peer->connecting ||
        peer->shut || evbuffer_get_length(peer->out))
        return 0;
    //  the pipe counts toward the bound: never more than high held
    size_t pending = s_pending(peer);
    uint64_t max = pending < self->high ? self->high - pending : 0;
    if (max > WSP_CONN_PIPE_MAX)
        max = WSP_CONN_PIPE_MAX;
    if (max == 0)
        return 0;
    if (self->pipe)
        return (size_t) max;
    if (client && self->rq == RQ_BODY && self->rq_body == WSP_HTTP_BODY_LENGTH)
        return (size_t) (self->rq_left < max ? self->rq_left : max);
    if (!client && self->rs == RS_BODY && self->rs_body == WSP_HTTP_BODY_LENGTH)
        return (size_t) (self->rs_left < max ? self->rs_left : max);
    if (!client && self->rs == RS_BODY && self->rs_body == WSP_HTTP_BODY_CLOSE)
        return (size_t) max;
    //  chunked: the data of the chunk under way (its head was read and seen)
    uint64_t data = 0;
    if (client && self->rq == RQ_BODY && self->rq_body == WSP_HTTP_BODY_CHUNKED)
        data = wsp_http_chunked_data_left(&self->rq_chunk);
    if (!client && self->rs == RS_BODY && self->rs_body == WSP_HTTP_BODY_CHUNKED)
        data = wsp_http_chunked_data_left(&self->rs_chunk);
    return (size_t) (data < max ? data : max);
}

//  Moves up to max bytes from e's socket to peer's with splice (through
//  peer's pipe, made on first use). >0 bytes, 0 at the end, -1 would
//  block, -2 an error, -3 splice cannot be used (read instead).
static ssize_t
s_splice(end_t *e, end_t *peer, size_t max)
{
    if (peer->pipe[0] < 0) {
        if (pipe2(peer->pipe, O_NONBLOCK | O_CLOEXEC) != 0) {
            peer->pipe[0] = peer->pipe[1] = -1;
            return -3;
        }
        //  the kernel's default size (64 KiB) to begin with: an idle or
        //  chatty connection holds no more pipe than that
        int size = fcntl(peer->pipe[1], F_GETPIPE_SZ);
        peer->pipe_size = size > 0 ? (size_t) size : 0;
    }
    //  a full pipe (a slow peer) would answer EAGAIN for ever: read instead,
    //  into the buffer back-pressure bounds
    if (peer->piped >= peer->pipe_size)
        return -3;
    if (max > peer->pipe_size - peer->piped)
        max = peer->pipe_size - peer->piped;
    ssize_t n = splice(e->fd, NULL, peer->pipe[1], NULL, max, SPLICE_FLAGS);
    if (n < 0)
        return errno == EAGAIN || errno == EINTR ? -1 : errno == EINVAL ? -3 : -2;
    peer->piped += (size_t) n;
    //  a stream that fills the pipe gets a MiB a splice: a sixteenth of the
    //  wake-ups and syscalls per byte of the default
    if (peer->piped == peer->pipe_size && peer->pipe_size < WSP_CONN_PIPE_MAX)
        s_pipe_resize(peer, WSP_CONN_PIPE_MAX);
    return n;
}

//  Reads the client's end (client) or the app's, then runs.
static void
s_input(wsp_conn_t *self, bool client)
{
    end_t *e = client ? &self->c : &self->b;
    end_t *peer = client ? &self->b : &self->c;
    size_t held = peer->fd >= 0 ? evbuffer_get_length(peer->out) : 0;
    size_t max = held < self->high ? self->high - held : 0;
    if (max > WSP_CONN_READ_CHUNK)
        max = WSP_CONN_READ_CHUNK;
    if (max < 4096)
        max = 4096;
    size_t direct = s_splice_max(self, client);
    ssize_t got = direct ? s_splice(e, peer, direct) : -3;
    if (got > 0) {
        //  the framing moves on as s_move_body would have moved it
        wsp_http_body_t body = client ? self->rq_body : self->rs_body;
        if (self->pipe || body == WSP_HTTP_BODY_CLOSE)
            ;
        else if (body == WSP_HTTP_BODY_CHUNKED)
            wsp_http_chunked_skip(client ? &self->rq_chunk : &self->rs_chunk,
                                  (uint64_t) got);
        else if (client && (self->rq_left -= (uint64_t) got) == 0)
            self->rq = RQ_DONE;
        else if (!client && (self->rs_left -= (uint64_t) got) == 0)
            s_response_done(self);
    }
    if (got == -3)
        got = s_end_read(e, max);
    if (got > 0) {
        self->active_ms = bus_clock_mono_ms();
        if (client)
            wsp_route_count(self->route, (uint64_t) got, 0);
        else
            wsp_route_count(self->route, 0, (uint64_t) got);
    } else if (got == 0 || got == -2) {
        if (got == -2 && client && e->ssl)
            bus_log_info("app connection dropped route=%s client=%s reason=\"TLS: %s\"",
                         self->route->row.id, self->client_addr,
                         errno == EPROTO ? "not TLS, or a failed handshake"
                                         : strerror(errno));
        e->eof = true;
        s_end_watch(e, false, e->want_write, NULL);
        if (got == -2 && client) {
            s_gone(self); //  reset: nobody is left to answer
            return;
        }
    }
    s_run(self);
}

static void
s_on_read(evutil_socket_t fd, short what, void *arg)
{
    (void) what;
    wsp_conn_t *self = arg;
    bool client = fd == self->c.fd;
    //  Over TLS readability may be what a write waits for: read only when
    //  the input is wanted (an SSL_read that finds nothing is cheap).
    if (client && self->c.ssl && !self->c.want_read)
        s_run(self);
    else
        s_input(self, client);
}

static void
s_on_write(evutil_socket_t fd, short what, void *arg)
{
    wsp_conn_t *self = arg;
    if (fd == self->b.fd && self->b.connecting) {
        self->b.connecting = false;
        self->b.writing = false;
        event_del(self->b.wev);
        if (what & EV_TIMEOUT) {
            s_backend_failed(self, "connect timed out");
            s_run(self);
            return;
        }
        int error = 0;
        socklen_t len = sizeof error;
        if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0)
            error = errno;
        if (error) {
            s_backend_failed(self, strerror(error));
            s_run(self);
            return;
        }
    }
    self->active_ms = bus_clock_mono_ms();
    //  Over TLS writability may be what a read waits for.
    if (fd == self->c.fd && self->c.ssl && self->c.want_read &&
        self->c.read_wait == EV_WRITE)
        s_input(self, true);
    else
        s_run(self);
}

//  ---------------------------------------------------------------------------

wsp_conn_t *
wsp_conn_new(wsp_route_t *route, int fd, const char *client)
{
    assert(route && fd >= 0 && client);
    wsp_conn_t *self = calloc(1, sizeof *self);
    if (!self) {
        close(fd);
        return NULL;
    }
    self->route = route;
    self->b.fd = -1;
    self->c.pipe[0] = self->c.pipe[1] = self->b.pipe[0] = self->b.pipe[1] = -1;
    self->high = (uint64_t) wsp_routes_config(route->routes)->buffer_bytes;
    self->active_ms = bus_clock_mono_ms();
    snprintf(self->client_addr, sizeof self->client_addr, "%s", client);
    SSL_CTX *tls = wsp_routes_tls(route->routes);
    if (s_end_open(self, &self->c, fd) != 0 ||
        (tls && !(self->c.ssl = bus_tls_accept(tls, fd)))) {
        wsp_conn_destroy(&self);
        return NULL;
    }
    self->b.in = evbuffer_new();
    self->b.out = evbuffer_new();
    if (!self->b.in || !self->b.out) {
        wsp_conn_destroy(&self);
        return NULL;
    }
    return self;
}

void
wsp_conn_destroy(wsp_conn_t **self_p)
{
    assert(self_p);
    wsp_conn_t *self = *self_p;
    if (self) {
        s_release(self); //  the route's replicas outlive its connections
        s_unbind(self);
        s_end_close(&self->c);
        s_end_close(&self->b);
        free(self->admitted);
        if (self->c.in)
            evbuffer_free(self->c.in);
        if (self->c.out)
            evbuffer_free(self->c.out);
        if (self->b.in)
            evbuffer_free(self->b.in);
        if (self->b.out)
            evbuffer_free(self->b.out);
        free(self->retry_head);
        free(self);
        *self_p = NULL;
    }
}

void
wsp_conn_start(wsp_conn_t *self, void *handle)
{
    assert(self);
    self->handle = handle;
    if (self->route->row.protocol == BUS_APPTOKEN_TCP) {
        self->pipe = true;
        if (s_backend_connect(self) != 0) {
            bus_log_warning("app unreachable route=%s app=%s target=%s reason=\"%s\"",
                            self->route->row.id, self->route->row.app,
                            self->route->target, strerror(errno));
            s_gone(self);
            return;
        }
    }
    s_run(self);
}

int64_t
wsp_conn_idle_ms(wsp_conn_t *self, int64_t now_ms)
{
    assert(self);
    return now_ms - self->active_ms;
}

void
wsp_conn_trim(wsp_conn_t *self)
{
    assert(self);
    if (self->c.pipe[1] >= 0 && self->c.pipe_size > WSP_CONN_PIPE_MIN)
        s_pipe_resize(&self->c, WSP_CONN_PIPE_MIN);
    if (self->b.pipe[1] >= 0 && self->b.pipe_size > WSP_CONN_PIPE_MIN)
        s_pipe_resize(&self->b, WSP_CONN_PIPE_MIN);
}
