/*  =========================================================================
    sp_fetch - downloads into folders (storage.files.fetch), off the loop

    A job's thread: connect (s_connect), ask (s_request), read the head
    and follow redirects (s_exchange), stream the body into the staging
    file (s_body), then rename it into place or unpack it (s_unpack). A
    git clone (s_clone) makes two exchanges, the refs into memory and the
    pack demultiplexed into the staging file, then checks it out. The
    socket is blocking with SP_FETCH_POLL_MS send and receive timeouts, so
    a silent server wakes the thread that often to look at the deadline
    and at sp_jobs_stopping.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <arpa/inet.h>  //  inet_pton: a host that is an address
#include <fcntl.h>      //  a non-blocking connect
#include <stdatomic.h>  //  a job's progress, read by the loop
#include <sys/file.h>   //  flock: the staging file is in use
#include <sys/random.h> //  job ids
#include <sys/stat.h>

enum { S_CONNECTING, S_DOWNLOADING, S_UNPACKING, S_DONE, S_FAILED };
static const char *const k_states[] = {"connecting", "downloading", "unpacking", "done",
                                       "failed"};

typedef struct _job_t job_t;
struct _job_t {
    sp_fetch_t *owner;
    char id[SP_FETCH_JOB_LEN + 1];
    char folder[SP_FOLDER_ID_LEN + 1];
    //  Set on the loop before the thread starts; read-only there.
    char url[SP_FETCH_URL_MAX + 1];
    char path[SP_FS_PATH_MAX + 1];
    bool unzip, strip_top;
    bool git;                     //  clone with git's smart HTTP
    char ref[SP_GIT_REF_MAX + 1]; //  the branch or tag ("": the remote HEAD)
    uint64_t cap;                 //  bytes of the download
    uint64_t zip_cap;             //  bytes unpacked
    int64_t deadline;             //  monotonic ms
    sp_fs_t *fs;
    //  Progress, written by the thread.
    atomic_int phase;
    atomic_uint_fast64_t bytes, total, entries, entries_total, skipped;
    //  The outcome, the thread's until done runs.
    int status;
    char detail[BUS_ERROR_DETAIL_MAX];
    char final_url[SP_FETCH_URL_MAX + 1];
    //  The loop's.
    bool finished;
    int64_t ended_ms;
    job_t *next;
};

struct _sp_fetch_t {
    bus_node_t *node;
    sp_folders_t *folders;
    sp_jobs_t *jobs;
    SSL_CTX *tls;
    uint64_t max_bytes, zip_max_bytes, zip_max_entries;
    int timeout_s, max_redirects, keep_s;
    bool allow_private;
    job_t *list; //  newest first
    size_t count, running;
};

//  One connection: a socket, and TLS over it for https.
typedef struct {
    int fd;
    SSL *ssl;
} conn_t;

//  Where an answer's body goes: a file (within the job's cap) or a sink.
typedef int(sink_fn)(void *arg, const uint8_t *data, size_t len, bus_error_t *err);

//  One HTTP exchange (s_exchange): GET, or POST with a body.
typedef struct {
    const char *method;
    const char *accept;       //  the Accept header
    const char *content_type; //  of the body (POST)
    const char *body;
    size_t body_len;
    bool follow;            //  follow redirects
    const char *media_type; //  the answer must be of this type, or ...
    const char *wrong_type; //  ... it is refused with this detail
    int fd;                 //  the body goes into fd, or ...
    sink_fn *sink;          //  ... to sink, when not NULL
    void *sink_arg;
    char url[SP_FETCH_URL_MAX + 1]; //  the URL answered (after redirects)
} request_t;

//  ---------------------------------------------------------------------------
//  Addresses

bool
sp_fetch_addr_private(const void *sockaddr)
{
    const struct sockaddr *sa = sockaddr;
    if (sa->sa_family == AF_INET) {
        uint32_t a = ntohl(((const struct sockaddr_in *) sockaddr)->sin_addr.s_addr);
        return (a >> 24) == 0 || (a >> 24) == 10 || (a >> 24) == 127 ||
               (a >> 16) == 0xa9fe ||          //  169.254/16 link-local
               (a >> 20) == 0xac1 ||           //  172.16/12
               (a >> 16) == 0xc0a8 ||          //  192.168/16
               (a >> 22) == (100u << 2 | 1) || //  100.64/10 shared
               (a >> 8) == 0xc00000 ||         //  192.0.0/24 protocol
               (a >> 17) == (198u << 7 | 9) || //  198.18/15 benchmarking
               (a >> 28) >= 0xe;               //  multicast, reserved
    }
    if (sa->sa_family == AF_INET6) {
        const uint8_t *b = ((const struct sockaddr_in6 *) sockaddr)->sin6_addr.s6_addr;
        static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        if (memcmp(b, mapped, 12) == 0 ||
            (b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b)) {
            struct sockaddr_in v4 = {.sin_family = AF_INET};
            memcpy(&v4.sin_addr, b + 12, 4);
            return sp_fetch_addr_private(&v4);
        }
        bool zero = true;
        for (int i = 0; i < 15; i++)
            zero = zero && b[i] == 0;
        return zero ||                                    //  :: and ::1
               (b[0] & 0xfe) == 0xfc ||                   //  fc00::/7 unique local
               (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) || //  fe80::/10
               (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0) || //  fec0::/10 site-local
               b[0] == 0xff;                              //  multicast
    }
    return true;
}

//  ---------------------------------------------------------------------------
//  The connection (on the job's thread)

static bool
s_late(job_t *job, sp_jobs_t *jobs, bus_error_t *err)
{
    if (sp_jobs_stopping(jobs))
        return bus_error_fail(err, BUS_STATUS_UNAVAILABLE,
                              "the storage-proxy is stopping"),
               true;
    if (bus_clock_mono_ms() >= job->deadline)
        return bus_error_fail(err, BUS_STATUS_TIMEOUT, "the fetch took longer than %d s",
                              job->owner->timeout_s),
               true;
    return false;
}

static void
s_close(conn_t *conn)
{
    if (conn->ssl) {
        SSL_free(conn->ssl);
        conn->ssl = NULL;
    }
    if (conn->fd >= 0) {
        close(conn->fd);
        conn->fd = -1;
    }
}

//  Connects fd to addr by the deadline (non-blocking connect, then poll).
static int
s_connect_one(
    job_t *job, sp_jobs_t *jobs, int fd, const struct addrinfo *ai, bus_error_t *err)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "fcntl: %s", strerror(errno));
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0 && errno != EINPROGRESS)
        return bus_error_fail(err, BUS_STATUS_UNAVAILABLE, "cannot connect: %s",
                              strerror(errno));
    for (;;) {
        if (s_late(job, jobs, err))
            return -1;
        struct pollfd p = {.fd = fd, .events = POLLOUT};
        int n = poll(&p, 1, SP_FETCH_POLL_MS);
        if (n < 0 && errno != EINTR)
            return bus_error_fail(err, BUS_STATUS_INTERNAL, "poll: %s", strerror(errno));
        if (n > 0)
            break;
    }
    int so_error = 0;
    socklen_t len = sizeof so_error;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len) != 0 || so_error)
        return bus_error_fail(err, BUS_STATUS_UNAVAILABLE, "cannot connect: %s",
                              strerror(so_error ? so_error : errno));
    struct timeval tv = {0, SP_FETCH_POLL_MS * 1000};
    if (fcntl(fd, F_SETFL, flags) != 0 ||
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0 ||
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) != 0)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "socket options: %s",
                              strerror(errno));
    return 0;
}

//  Whether an SSL call's failure is only a timeout to wait through.
static bool
s_tls_again(SSL *ssl, int rc)
{
    int e = SSL_get_error(ssl, rc);
    return e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE ||
           (e == SSL_ERROR_SYSCALL &&
            (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR));
}

static int
s_tls_start(job_t *job,
            sp_jobs_t *jobs,
            conn_t *conn,
            const sp_fetch_url_t *url,
            bus_error_t *err)
{
    conn->ssl = SSL_new(job->owner->tls);
    if (!conn->ssl || SSL_set_fd(conn->ssl, conn->fd) != 1)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "cannot start TLS");
    unsigned char ip[16];
    bool literal =
        inet_pton(AF_INET, url->host, ip) == 1 || inet_pton(AF_INET6, url->host, ip) == 1;
    if (literal) {
        if (X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(conn->ssl), url->host) != 1)
            return bus_error_fail(err, BUS_STATUS_INTERNAL, "cannot start TLS");
    } else if (SSL_set_tlsext_host_name(conn->ssl, url->host) != 1 ||
               SSL_set1_host(conn->ssl, url->host) != 1)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "cannot start TLS");
    for (;;) {
        ERR_clear_error();
        int rc = SSL_connect(conn->ssl);
        if (rc == 1)
            return 0;
        if (!s_tls_again(conn->ssl, rc)) {
            long verify = SSL_get_verify_result(conn->ssl);
            if (verify != X509_V_OK)
                return bus_error_fail(err, BUS_STATUS_UNAVAILABLE,
                                      "%s's certificate is not trusted: %s", url->host,
                                      X509_verify_cert_error_string(verify));
            char text[160];
            ERR_error_string_n(ERR_get_error(), text, sizeof text);
            return bus_error_fail(err, BUS_STATUS_UNAVAILABLE, "TLS with %s failed: %s",
                                  url->host, text);
        }
        if (s_late(job, jobs, err))
            return -1;
    }
}

//  Resolves url's host and connects to the first of its addresses the
//  policy allows that answers; https then starts TLS.
static int
s_connect(job_t *job,
          sp_jobs_t *jobs,
          const sp_fetch_url_t *url,
          conn_t *conn,
          bus_error_t *err)
{
    char port[8];
    snprintf(port, sizeof port, "%u", url->port);
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV},
                    *list = NULL;
    int rc = getaddrinfo(url->host, port, &hints, &list);
    if (rc != 0)
        return bus_error_fail(err, BUS_STATUS_UNAVAILABLE, "cannot resolve %s: %s",
                              url->host, gai_strerror(rc));
    bool refused = false;
    bus_error_t last = {0};
    bus_error_fail(&last, BUS_STATUS_UNAVAILABLE, "cannot connect to %s", url->host);
    conn->fd = -1;
    for (struct addrinfo *ai = list; ai; ai = ai->ai_next) {
        if (!job->owner->allow_private && sp_fetch_addr_private(ai->ai_addr)) {
            refused = true;
            continue;
        }
        conn->fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (conn->fd >= 0 && s_connect_one(job, jobs, conn->fd, ai, &last) == 0)
            break;
        s_close(conn);
        if (last.status == BUS_STATUS_TIMEOUT || sp_jobs_stopping(jobs))
            break;
    }
    freeaddrinfo(list);
    if (conn->fd < 0) {
        if (refused && last.status == BUS_STATUS_UNAVAILABLE &&
            strncmp(last.detail, "cannot connect to", 17) == 0)
            return bus_error_fail(
                err, BUS_STATUS_FORBIDDEN,
                "%s is on a loopback, private or link-local address, which "
                "this storage-proxy does not fetch from (fetch.allow_private)",
                url->host);
        *err = last;
        return -1;
    }
    return url->tls ? s_tls_start(job, jobs, conn, url, err) : 0;
}

//  Reads up to len bytes: n > 0, 0 at the end, -1 with err.
static ssize_t
s_read(job_t *job, sp_jobs_t *jobs, conn_t *conn, void *buf, size_t len, bus_error_t *err)
{
    for (;;) {
        if (s_late(job, jobs, err))
            return -1;
        if (conn->ssl) {
            ERR_clear_error();
            int n = SSL_read(conn->ssl, buf, len > INT_MAX ? INT_MAX : (int) len);
            if (n > 0)
                return n;
            int e = SSL_get_error(conn->ssl, n);
            if (e == SSL_ERROR_ZERO_RETURN)
                return 0;
            if (!s_tls_again(conn->ssl, n))
                return bus_error_fail(err, BUS_STATUS_UNAVAILABLE,
                                      "the connection failed (TLS)");
            continue;
        }
        ssize_t n = recv(conn->fd, buf, len, 0);
        if (n >= 0)
            return n;
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            return bus_error_fail(err, BUS_STATUS_UNAVAILABLE,
                                  "the connection failed: %s", strerror(errno));
    }
}

static int
s_write(job_t *job,
        sp_jobs_t *jobs,
        conn_t *conn,
        const char *buf,
        size_t len,
        bus_error_t *err)
{
    while (len) {
        if (s_late(job, jobs, err))
            return -1;
        ssize_t n;
        if (conn->ssl) {
            ERR_clear_error();
            int rc = SSL_write(conn->ssl, buf, (int) len);
            if (rc <= 0 && !s_tls_again(conn->ssl, rc))
                return bus_error_fail(err, BUS_STATUS_UNAVAILABLE,
                                      "the connection failed (TLS)");
            n = rc > 0 ? rc : 0;
        } else {
            n = send(conn->fd, buf, len, MSG_NOSIGNAL);
            if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                return bus_error_fail(err, BUS_STATUS_UNAVAILABLE,
                                      "the connection failed: %s", strerror(errno));
            if (n < 0)
                n = 0;
        }
        buf += n;
        len -= (size_t) n;
    }
    return 0;
}

//  ---------------------------------------------------------------------------
//  The download

//  Appends len bytes of the body to fd, within the cap.
static int
s_take(job_t *job, int fd, const uint8_t *data, size_t len, bus_error_t *err)
{
    uint64_t bytes = atomic_load(&job->bytes) + len;
    if (bytes > job->cap)
        return bus_error_fail(
            err, BUS_STATUS_INVALID,
            "the download is larger than %llu bytes (fetch.max_bytes, or what "
            "the folder's quota leaves)",
            (unsigned long long) job->cap);
    if (sp_fs_write_all(fd, data, len, err) != 0)
        return -1;
    atomic_store(&job->bytes, bytes);
    return 0;
}

//  Hands len bytes of the body to the request's sink or file.
static int
s_deliver(job_t *job, request_t *req, const uint8_t *data, size_t len, bus_error_t *err)
{
    return req->sink ? req->sink(req->sink_arg, data, len, err)
                     : s_take(job, req->fd, data, len, err);
}

//  The body after the head: buf (SP_FETCH_BUFFER bytes) starts with have
//  bytes of it already.
static int
s_body(job_t *job,
       sp_jobs_t *jobs,
       conn_t *conn,
       const sp_fetch_head_t *head,
       uint8_t *buf,
       size_t have,
       request_t *req,
       bus_error_t *err)
{
    sp_fetch_chunked_t chunked = {0};
    int64_t left = head->content_length;
    for (;;) {
        if (head->chunked) {
            size_t at = 0;
            while (at < have) {
                size_t used = 0, dlen = 0;
                const uint8_t *data = NULL;
                int rc = sp_fetch_chunked_step(&chunked, buf + at, have - at, &used,
                                               &data, &dlen);
                if (rc < 0)
                    return bus_error_fail(err, BUS_STATUS_INVALID,
                                          "the server's chunked body is malformed");
                if (dlen && s_deliver(job, req, data, dlen, err) != 0)
                    return -1;
                at += used;
                if (rc == 1)
                    return req->sink ? req->sink(req->sink_arg, NULL, 0, err) : 0;
            }
        } else {
            size_t take = left >= 0 && (int64_t) have > left ? (size_t) left : have;
            if (take && s_deliver(job, req, buf, take, err) != 0)
                return -1;
            if (left >= 0 && (left -= (int64_t) take) == 0)
                return req->sink ? req->sink(req->sink_arg, NULL, 0, err) : 0;
        }
        ssize_t n = s_read(job, jobs, conn, buf, SP_FETCH_BUFFER, err);
        if (n < 0)
            return -1;
        if (n == 0) {
            if (head->chunked || left > 0)
                return bus_error_fail(err, BUS_STATUS_UNAVAILABLE,
                                      "the server closed the connection after %llu bytes",
                                      (unsigned long long) atomic_load(&job->bytes));
            if (req->sink && req->sink(req->sink_arg, NULL, 0, err) != 0)
                return -1;
            return 0; //  no length: the body ends with the connection
        }
        have = (size_t) n;
    }
}

//  The status of an answer other than 200 and the redirects.
static int
s_refused(int status, bus_error_t *err)
{
    int bus = status == 404 || status == 410   ? BUS_STATUS_NOT_FOUND
              : status == 401 || status == 403 ? BUS_STATUS_FORBIDDEN
              : status >= 500                  ? BUS_STATUS_UNAVAILABLE
                                               : BUS_STATUS_INVALID;
    return bus_error_fail(err, bus, "the server answered %d", status);
}

//  Asks url as req says, following redirects when it says so, and hands
//  the body to its file or sink (told the end with NULL, 0).
static int
s_exchange(
    job_t *job, sp_jobs_t *jobs, const char *start, request_t *req, bus_error_t *err)
{
    char url[SP_FETCH_URL_MAX + 1];
    snprintf(url, sizeof url, "%s", start);
    uint8_t *buf = malloc(SP_FETCH_BUFFER + 1);
    if (!buf)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "out of memory");
    int rc = -1;
    for (int hop = 0;; hop++) {
        sp_fetch_url_t u;
        conn_t conn = {-1, NULL};
        if (sp_fetch_url_parse(url, strlen(url), &u, err) != 0) {
            if (hop)
                bus_error_fail(err, BUS_STATUS_INVALID, "a redirect to a refused URL: %s",
                               err->detail);
            break;
        }
        snprintf(req->url, sizeof req->url, "%s", url);
        atomic_store(&job->phase, S_CONNECTING);
        if (s_connect(job, jobs, &u, &conn, err) != 0) {
            s_close(&conn);
            break;
        }
        char port[8] = "";
        if (u.port != (u.tls ? 443 : 80))
            snprintf(port, sizeof port, ":%u", u.port);
        char request[SP_FETCH_URL_MAX + SP_FETCH_HOST_MAX + 512];
        char body_head[160] = "";
        if (req->body)
            snprintf(body_head, sizeof body_head,
                     "Content-Type: %s\r\nContent-Length: %zu\r\n", req->content_type,
                     req->body_len);
        int len =
            snprintf(request, sizeof request,
                     "%s %s HTTP/1.1\r\nHost: %s%s%s%s\r\nUser-Agent: %s\r\n"
                     "Accept: %s\r\nAccept-Encoding: identity\r\n%s"
                     "Connection: close\r\n\r\n",
                     req->method, u.target, u.ipv6 ? "[" : "", u.host, u.ipv6 ? "]" : "",
                     port, SP_FETCH_AGENT, req->accept, body_head);
        if (s_write(job, jobs, &conn, request, (size_t) len, err) != 0 ||
            (req->body &&
             s_write(job, jobs, &conn, req->body, req->body_len, err) != 0)) {
            s_close(&conn);
            break;
        }
        //  The head, then what followed it in the same reads.
        sp_fetch_head_t head;
        size_t have = 0;
        long head_len = 0;
        while (head_len == 0) {
            ssize_t n = s_read(job, jobs, &conn, buf + have, SP_FETCH_BUFFER - have, err);
            if (n < 0)
                break;
            if (n == 0) {
                bus_error_fail(err, BUS_STATUS_UNAVAILABLE,
                               "%s closed the connection unanswered", u.host);
                break;
            }
            have += (size_t) n;
            head_len = sp_fetch_head_parse((const char *) buf, have, &head, err);
            if (head_len < 0)
                break;
        }
        if (head_len <= 0) {
            s_close(&conn);
            break;
        }
        bool redirect = head.status == 301 || head.status == 302 || head.status == 303 ||
                        head.status == 307 || head.status == 308;
        if (redirect && !req->follow) {
            s_close(&conn);
            bus_error_fail(err, BUS_STATUS_INVALID, "the server answered %d to a %s",
                           head.status, req->method);
            break;
        }
        if (redirect) {
            s_close(&conn);
            if (hop >= job->owner->max_redirects) {
                bus_error_fail(err, BUS_STATUS_INVALID, "more than %d redirects",
                               job->owner->max_redirects);
                break;
            }
            if (head.location_too_long ||
                sp_fetch_url_resolve(&u, head.location, strlen(head.location), url,
                                     err) != 0) {
                bus_error_fail(err, BUS_STATUS_INVALID,
                               "a redirect without a usable Location");
                break;
            }
            continue;
        }
        if (head.status != 200) {
            s_close(&conn);
            s_refused(head.status, err);
            break;
        }
        if (req->media_type && strcmp(head.content_type, req->media_type) != 0) {
            s_close(&conn);
            bus_error_fail(err, BUS_STATUS_INVALID, "%s (the answer is %s)",
                           req->wrong_type,
                           *head.content_type ? head.content_type : "of no type");
            break;
        }
        if (!req->sink && head.content_length >= 0 &&
            (uint64_t) head.content_length > job->cap) {
            s_close(&conn);
            bus_error_fail(
                err, BUS_STATUS_INVALID,
                "the download is %lld bytes, more than %llu (fetch.max_bytes, or what "
                "the folder's quota leaves)",
                (long long) head.content_length, (unsigned long long) job->cap);
            break;
        }
        atomic_store(&job->total,
                     head.content_length > 0 ? (uint64_t) head.content_length : 0);
        atomic_store(&job->phase, S_DOWNLOADING);
        //  What came after the head goes first, at the buffer's start (the
        //  body's reads fill the whole buffer).
        memmove(buf, buf + head_len, have - (size_t) head_len);
        rc = s_body(job, jobs, &conn, &head, buf, have - (size_t) head_len, req, err);
        s_close(&conn);
        break;
    }
    free(buf);
    return rc;
}

//  Fetches job->url, following redirects, into fd.
static int
s_download(job_t *job, sp_jobs_t *jobs, int fd, bus_error_t *err)
{
    request_t req = {.method = "GET", .accept = "*/*", .follow = true, .fd = fd};
    int rc = s_exchange(job, jobs, job->url, &req, err);
    snprintf(job->final_url, sizeof job->final_url, "%s", req.url);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Cloning (git's smart HTTP, sp_git_pkt; the pack read by sp_git_pack)

//  The advertisement of refs, gathered in memory up to SP_GIT_REFS_MAX.
typedef struct {
    uint8_t *data;
    size_t len;
} refs_buf_t;

static int
s_sink_refs(void *arg, const uint8_t *data, size_t len, bus_error_t *err)
{
    refs_buf_t *refs = arg;
    if (!data)
        return 0;
    if (len > SP_GIT_REFS_MAX - refs->len)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "the repository advertises more than %u bytes of refs",
                              SP_GIT_REFS_MAX);
    uint8_t *grown = realloc(refs->data, refs->len + len);
    if (!grown)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "out of memory");
    memcpy(grown + refs->len, data, len);
    refs->data = grown;
    refs->len += len;
    return 0;
}

//  The upload-pack answer, demultiplexed: the pack into the staging file.
typedef struct {
    job_t *job;
    int fd;
    sp_git_demux_t demux;
} pack_sink_t;

static int
s_sink_pack(void *arg, const uint8_t *data, size_t len, bus_error_t *err)
{
    pack_sink_t *sink = arg;
    if (!data)
        return sp_git_demux_complete(&sink->demux)
                   ? 0
                   : bus_error_fail(err, BUS_STATUS_UNAVAILABLE,
                                    "the git server's answer ended before its pack did");
    while (len) {
        size_t used = 0, out_len = 0;
        const uint8_t *out = NULL;
        if (sp_git_demux_step(&sink->demux, data, len, &used, &out, &out_len, err) < 0)
            return -1;
        if (out_len && s_take(sink->job, sink->fd, out, out_len, err) != 0)
            return -1;
        data += used;
        len -= used;
    }
    return 0;
}

typedef struct {
    job_t *job;
    sp_jobs_t *jobs;
} clone_t;

static bool
s_clone_stop(void *arg, bus_error_t *err)
{
    clone_t *clone = arg;
    return s_late(clone->job, clone->jobs, err);
}

static void
s_clone_progress(void *arg, uint64_t entries)
{
    clone_t *clone = arg;
    atomic_store(&clone->job->entries, entries);
}

//  The advertisement of job->url's repository, parsed for job->ref; *base
//  the repository's URL the advertisement came from (after redirects).
static int
s_clone_refs(job_t *job,
             sp_jobs_t *jobs,
             char base[SP_FETCH_URL_MAX + 1],
             sp_git_refs_t *adv,
             bus_error_t *err)
{
    static const char tail[] = "/info/refs?service=" SP_GIT_SERVICE;
    snprintf(base, SP_FETCH_URL_MAX + 1, "%s", job->url);
    size_t n = strlen(base);
    while (n && base[n - 1] == '/')
        base[--n] = 0;
    if (strchr(base, '?'))
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "a git repository's URL has no query");
    char url[SP_FETCH_URL_MAX + 1];
    int len = snprintf(url, sizeof url, "%s%s", base, tail);
    if (len < 0 || (size_t) len >= sizeof url)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "the repository's URL is too long");
    snprintf(job->final_url, sizeof job->final_url, "%s", base);
    refs_buf_t refs = {NULL, 0};
    request_t req = {.method = "GET",
                     .accept = "*/*",
                     .follow = true,
                     .media_type = SP_GIT_ADVERTISEMENT_TYPE,
                     .wrong_type = "not a git smart-HTTP server",
                     .sink = s_sink_refs,
                     .sink_arg = &refs};
    int rc = s_exchange(job, jobs, url, &req, err);
    if (rc != 0 && err->status == BUS_STATUS_NOT_FOUND) {
        char why[BUS_ERROR_DETAIL_MAX];
        snprintf(why, sizeof why, "%s", err->detail);
        bus_error_fail(err, BUS_STATUS_NOT_FOUND, "no git repository at %.300s (%s)",
                       base, why);
    }
    if (rc == 0)
        rc = sp_git_refs_parse(refs.data, refs.len, job->ref, adv, err);
    free(refs.data);
    if (rc != 0)
        return -1;
    if (!adv->found && job->ref[0])
        return bus_error_fail(err, BUS_STATUS_NOT_FOUND, "no branch or tag %s in %.300s",
                              job->ref, base);
    if (!adv->found)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "the repository at %.300s is empty", base);
    //  Redirected, the repository is where the advertisement came from: a
    //  URL that does not end as asked names no repository to post to (git
    //  refuses it too: "unable to update url base from redirection").
    n = strlen(req.url);
    if (n <= sizeof tail - 1 || strcmp(req.url + n - (sizeof tail - 1), tail) != 0)
        return bus_error_fail(
            err, BUS_STATUS_INVALID,
            "redirected to %.300s, which is not a repository's advertisement", req.url);
    memcpy(base, req.url, n - (sizeof tail - 1));
    base[n - (sizeof tail - 1)] = 0;
    snprintf(job->final_url, sizeof job->final_url, "%s", base);
    return 0;
}

//  Clones: the refs, the pack (into fd), then the checkout at job->path.
//  *counts what was made.
static int
s_clone(job_t *job,
        sp_jobs_t *jobs,
        int fd,
        sp_git_refs_t *adv,
        sp_git_checkout_counts_t *counts,
        bus_error_t *err)
{
    char base[SP_FETCH_URL_MAX + 1];
    if (s_clone_refs(job, jobs, base, adv, err) != 0)
        return -1;
    char url[SP_FETCH_URL_MAX + 1];
    int url_len = snprintf(url, sizeof url, "%s/%s", base, SP_GIT_SERVICE);
    if (url_len < 0 || (size_t) url_len >= sizeof url)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "the repository's URL is too long");
    char body[512];
    bool sideband = false;
    long len = sp_git_request_format(adv, body, sizeof body, &sideband);
    assert(len > 0); //  one want and a few capabilities always fit
    pack_sink_t sink = {.job = job, .fd = fd};
    sp_git_demux_init(&sink.demux, sideband);
    request_t post = {.method = "POST",
                      .accept = SP_GIT_RESULT_TYPE,
                      .content_type = SP_GIT_REQUEST_TYPE,
                      .body = body,
                      .body_len = (size_t) len,
                      .media_type = SP_GIT_RESULT_TYPE,
                      .wrong_type =
                          "the git server's answer is not an upload-pack result",
                      .sink = s_sink_pack,
                      .sink_arg = &sink};
    if (s_exchange(job, jobs, url, &post, err) != 0)
        return -1;
    atomic_store(&job->phase, S_UNPACKING);
    struct stat st;
    if (fstat(fd, &st) != 0)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "fstat: %s", strerror(errno));
    clone_t clone = {job, jobs};
    sp_git_pack_limits_t pack_limits = {
        .max_objects = SP_GIT_OBJECTS_MAX,
        .max_blob = job->zip_cap,
        .max_inflate = SP_GIT_INFLATE_BASE + SP_GIT_INFLATE_PER_BYTE * job->zip_cap};
    sp_git_pack_t *pack = sp_git_pack_open(fd, (uint64_t) st.st_size, &pack_limits,
                                           s_clone_stop, &clone, err);
    if (!pack) {
        if (err->status == BUS_STATUS_INVALID) {
            char why[BUS_ERROR_DETAIL_MAX];
            snprintf(why, sizeof why, "%s", err->detail);
            bus_error_fail(err, BUS_STATUS_INVALID, "refused pack: %s", why);
        }
        return -1;
    }
    size_t depth = 1;
    for (const char *p = job->path; *p; p++)
        depth += *p == '/';
    sp_git_checkout_limits_t limits = {job->owner->zip_max_entries, job->zip_cap, depth};
    uint8_t tree[SP_GIT_SHA_LEN];
    int rc = sp_git_pack_tree_of(pack, adv->want, tree, err);
    if (rc == 0)
        rc = sp_git_checkout_plan(pack, tree, &limits, job->path, s_clone_stop, &clone,
                                  counts, err);
    if (rc != 0 && err->status == BUS_STATUS_INVALID) {
        char why[BUS_ERROR_DETAIL_MAX];
        snprintf(why, sizeof why, "%s", err->detail);
        bus_error_fail(err, BUS_STATUS_INVALID, "refused repository: %s", why);
    }
    bool made = false;
    if (rc == 0) {
        atomic_store(&job->entries_total, counts->entries);
        rc = sp_fs_mkdir(job->fs, job->path, strlen(job->path), SP_FS_MKDIR_PARENTS, err);
        made = rc == 0;
    }
    char stage[SP_FS_NAME_MAX + 1];
    snprintf(stage, sizeof stage, "fetch-%s-entry", job->id);
    if (rc == 0)
        rc = sp_git_checkout_run(pack, tree, &limits, job->fs, job->path, stage,
                                 s_clone_stop, s_clone_progress, &clone, counts, err);
    sp_fs_stage_remove(job->fs, stage, NULL);
    if (rc != 0 && made)
        sp_fs_delete(job->fs, job->path, strlen(job->path), true, NULL);
    sp_git_pack_destroy(&pack);
    atomic_store(&job->skipped, counts->submodules);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Unpacking

//  The one top directory every entry lies in (its length), or 0.
static size_t
s_top(sp_zip_t *zip)
{
    size_t count = sp_zip_count(zip);
    if (count == 0)
        return 0;
    const char *first = sp_zip_at(zip, 0)->name;
    size_t top = strcspn(first, "/");
    for (size_t i = 0; i < count; i++) {
        const sp_zip_entry_t *e = sp_zip_at(zip, i);
        bool inside = strncmp(e->name, first, top) == 0 &&
                      (e->name[top] == '/' || (e->name[top] == 0 && e->dir));
        if (!inside)
            return 0;
    }
    return top;
}

static int
s_unpack(job_t *job, sp_jobs_t *jobs, int fd, bus_error_t *err)
{
    atomic_store(&job->phase, S_UNPACKING);
    struct stat st;
    if (fstat(fd, &st) != 0)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "fstat: %s", strerror(errno));
    sp_zip_limits_t limits = {job->owner->zip_max_entries, job->zip_cap};
    sp_zip_t *zip = sp_zip_open(fd, (uint64_t) st.st_size, &limits, err);
    if (!zip) {
        if (err->status == BUS_STATUS_INVALID) {
            char why[BUS_ERROR_DETAIL_MAX];
            snprintf(why, sizeof why, "%s", err->detail);
            bus_error_fail(err, BUS_STATUS_INVALID, "refused archive: %s", why);
        }
        return -1;
    }
    size_t count = sp_zip_count(zip);
    atomic_store(&job->entries_total, count);
    size_t top = job->strip_top ? s_top(zip) : 0;
    int rc = sp_fs_mkdir(job->fs, job->path, strlen(job->path), SP_FS_MKDIR_PARENTS, err);
    bool made = rc == 0;
    char stage[SP_FS_NAME_MAX + 1];
    snprintf(stage, sizeof stage, "fetch-%s-entry", job->id);
    for (size_t i = 0; rc == 0 && i < count; i++) {
        const sp_zip_entry_t *e = sp_zip_at(zip, i);
        if (s_late(job, jobs, err)) {
            rc = -1;
            break;
        }
        const char *rel = top ? e->name + top + (e->name[top] == '/') : e->name;
        if (e->symlink) {
            atomic_fetch_add(&job->skipped, 1);
            continue;
        }
        if (!*rel)
            continue; //  the top directory itself
        char full[SP_FS_PATH_MAX + 2];
        int n = snprintf(full, sizeof full, "%s/%s", job->path, rel);
        if (n < 0 || n > SP_FS_PATH_MAX) {
            rc = bus_error_fail(err, BUS_STATUS_INVALID, "entry %.200s: path too long",
                                e->name);
            break;
        }
        if (e->dir)
            rc = sp_fs_mkdir(job->fs, full, (size_t) n,
                             SP_FS_MKDIR_PARENTS | SP_FS_MKDIR_EXIST_OK, err);
        else {
            int out = sp_fs_stage_open(job->fs, stage, err);
            rc = out < 0 ? -1 : 0;
            if (rc == 0 && ftruncate(out, 0) != 0)
                rc = bus_error_fail(err, BUS_STATUS_INTERNAL, "ftruncate: %s",
                                    strerror(errno));
            if (rc == 0)
                rc = sp_zip_extract(zip, i, out, err);
            if (rc == 0 && fchmod(out, e->mode) != 0)
                rc = bus_error_fail(err, BUS_STATUS_INTERNAL, "fchmod: %s",
                                    strerror(errno));
            if (out >= 0)
                close(out);
            if (rc == 0)
                rc = sp_fs_stage_commit(job->fs, stage, full, (size_t) n, err);
        }
        if (rc == 0)
            atomic_fetch_add(&job->entries, 1);
    }
    sp_fs_stage_remove(job->fs, stage, NULL);
    if (rc != 0 && made)
        sp_fs_delete(job->fs, job->path, strlen(job->path), true, NULL);
    sp_zip_destroy(&zip);
    return rc;
}

//  ---------------------------------------------------------------------------
//  The job

static void
s_work(void *arg, sp_jobs_t *jobs)
{
    job_t *job = arg;
    bus_error_t err = {0};
    char stage[SP_FS_NAME_MAX + 1];
    snprintf(stage, sizeof stage, "fetch-%s", job->id);
    int fd = sp_fs_stage_open(job->fs, stage, &err);
    int rc = fd < 0 ? -1 : 0;
    //  Held locked, so the usage scan's expiry of abandoned uploads leaves it.
    if (rc == 0 && flock(fd, LOCK_EX | LOCK_NB) != 0)
        rc = bus_error_fail(&err, BUS_STATUS_CONFLICT, "the staging file is in use");
    if (rc == 0 && ftruncate(fd, 0) != 0)
        rc = bus_error_fail(&err, BUS_STATUS_INTERNAL, "ftruncate: %s", strerror(errno));
    sp_git_refs_t adv;
    sp_git_checkout_counts_t counts = {0};
    if (rc == 0 && job->git)
        rc = s_clone(job, jobs, fd, &adv, &counts, &err);
    else if (rc == 0)
        rc = s_download(job, jobs, fd, &err);
    if (rc == 0 && !job->git) { //  a clone is checked out by s_clone
        if (job->unzip)
            rc = s_unpack(job, jobs, fd, &err);
        else {
            if (fsync(fd) != 0)
                rc = bus_error_fail(&err, BUS_STATUS_INTERNAL, "fsync: %s",
                                    strerror(errno));
            if (rc == 0)
                rc = sp_fs_stage_commit(job->fs, stage, job->path, strlen(job->path),
                                        &err);
        }
    }
    if (fd >= 0)
        close(fd);
    sp_fs_stage_remove(job->fs, stage, NULL);
    job->status = rc == 0 ? BUS_OK : (err.status ? err.status : BUS_STATUS_INTERNAL);
    if (rc != 0)
        snprintf(job->detail, sizeof job->detail, "%s", err.detail);
    else if (job->git) {
        const char *ref = adv.ref;
        if (strncmp(ref, "refs/heads/", 11) == 0 || strncmp(ref, "refs/tags/", 10) == 0)
            ref += ref[5] == 'h' ? 11 : 10;
        char subs[64] = "";
        if (counts.submodules)
            snprintf(subs, sizeof subs, ", %llu submodules left out",
                     (unsigned long long) counts.submodules);
        char sha[SP_GIT_HEX_LEN + 1];
        sp_git_sha_format(adv.want, sha);
        snprintf(job->detail, sizeof job->detail, "cloned %.100s at %.7s: %llu files%s",
                 ref, sha, (unsigned long long) (counts.files + counts.links), subs);
    } else if (job->unzip) {
        uint64_t skipped = atomic_load(&job->skipped);
        char links[64] = "";
        if (skipped)
            snprintf(links, sizeof links, ", %llu symbolic links left out",
                     (unsigned long long) skipped);
        snprintf(job->detail, sizeof job->detail, "%.150s: %llu entries unpacked%s",
                 job->path, (unsigned long long) atomic_load(&job->entries), links);
    } else
        snprintf(job->detail, sizeof job->detail, "%.200s: %llu bytes", job->path,
                 (unsigned long long) atomic_load(&job->bytes));
    atomic_store(&job->phase, rc == 0 ? S_DONE : S_FAILED);
}

static void
s_done(void *arg, bool cancelled)
{
    job_t *job = arg;
    sp_fetch_t *self = job->owner;
    job->finished = true;
    job->ended_ms = bus_clock_mono_ms();
    self->running--;
    sp_fs_destroy(&job->fs);
    if (cancelled) {
        atomic_store(&job->phase, S_FAILED);
        job->status = BUS_STATUS_UNAVAILABLE;
        snprintf(job->detail, sizeof job->detail, "the storage-proxy stopped");
        return;
    }
    if (job->status == BUS_OK)
        bus_log_info("fetch done job=%s folder=%s bytes=%llu detail=\"%s\"", job->id,
                     job->folder, (unsigned long long) atomic_load(&job->bytes),
                     job->detail);
    else
        bus_log_info("fetch failed job=%s folder=%s status=%s detail=\"%s\"", job->id,
                     job->folder, bus_status_str(job->status), job->detail);
    sp_folders_changed(self->folders, job->folder);
}

//  Forgets finished jobs older than keep_s, then the oldest finished ones
//  while more than room are kept.
static void
s_prune(sp_fetch_t *self, size_t room)
{
    int64_t now = bus_clock_mono_ms();
    for (job_t **p = &self->list; *p;) {
        job_t *job = *p;
        if (job->finished && now - job->ended_ms > (int64_t) self->keep_s * 1000) {
            *p = job->next;
            free(job);
            self->count--;
        } else
            p = &job->next;
    }
    while (self->count > room) {
        job_t **oldest = NULL;
        for (job_t **p = &self->list; *p; p = &(*p)->next)
            if ((*p)->finished)
                oldest = p; //  the list is newest first
        if (!oldest)
            break;
        job_t *job = *oldest;
        *oldest = job->next;
        free(job);
        self->count--;
    }
}

//  ---------------------------------------------------------------------------

sp_fetch_t *
sp_fetch_new(bus_node_t *node,
             sp_folders_t *folders,
             const sp_config_t *config,
             bus_error_t *err)
{
    assert(node && folders && config);
    sp_fetch_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    self->folders = folders;
    self->max_bytes = (uint64_t) config->fetch_max_bytes;
    self->zip_max_bytes = (uint64_t) config->fetch_zip_max_bytes;
    self->zip_max_entries = (uint64_t) config->fetch_zip_max_entries;
    self->timeout_s = config->fetch_timeout_s;
    self->max_redirects = config->fetch_max_redirects;
    self->keep_s = config->fetch_keep_s;
    self->allow_private = config->fetch_allow_private;
    self->jobs = sp_jobs_new(bus_node_base(node));
    self->tls = SSL_CTX_new(TLS_client_method());
    if (!self->jobs || !self->tls) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot start the fetcher");
        sp_fetch_destroy(&self);
        return NULL;
    }
    SSL_CTX_set_verify(self->tls, SSL_VERIFY_PEER, NULL);
    SSL_CTX_set_min_proto_version(self->tls, TLS1_2_VERSION);
    SSL_CTX_set_options(self->tls, SSL_OP_IGNORE_UNEXPECTED_EOF);
    const char *ca = config->fetch_ca_file;
    int ok = ca && *ca ? SSL_CTX_load_verify_locations(self->tls, ca, NULL)
                       : SSL_CTX_set_default_verify_paths(self->tls);
    if (ok != 1) {
        bus_error_set(err, BUS_STATUS_INVALID, "fetch.ca_file: cannot load %s",
                      ca && *ca ? ca : "the system's authorities");
        sp_fetch_destroy(&self);
        return NULL;
    }
    return self;
}

void
sp_fetch_destroy(sp_fetch_t **self_p)
{
    assert(self_p);
    sp_fetch_t *self = *self_p;
    if (!self)
        return;
    sp_jobs_destroy(&self->jobs); //  each running job's done, cancelled
    while (self->list) {
        job_t *job = self->list;
        self->list = job->next;
        sp_fs_destroy(&job->fs);
        free(job);
    }
    if (self->tls)
        SSL_CTX_free(self->tls);
    free(self);
    *self_p = NULL;
}

int
sp_fetch_start(sp_fetch_t *self,
               const char *id,
               const char *volume,
               const char *url,
               const char *path,
               bool unzip,
               bool strip_top,
               bool git,
               const char *ref,
               char job_id[SP_FETCH_JOB_LEN + 1],
               bus_error_t *err)
{
    assert(self && id && url && path);
    if (git && unzip)
        return bus_error_set(err, BUS_STATUS_INVALID, "git and unzip: one or the other");
    if (ref && *ref && !git)
        return bus_error_set(err, BUS_STATUS_INVALID, "ref: only with git");
    if (ref && *ref && !sp_git_ref_ok(ref))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "ref: a branch or tag name (printable, no space or ..)");
    sp_fetch_url_t parsed;
    char rel[SP_FS_PATH_MAX + 1];
    if (sp_fetch_url_parse(url, strlen(url), &parsed, err) != 0)
        return err->status;
    if (sp_fs_check_path(path, strlen(path), rel, err) != 0)
        return err->status;
    if (!*rel)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "path: a file or directory in the folder, not its root");
    s_prune(self, SP_FETCH_JOBS_MAX - 1);
    if (self->running >= SP_FETCH_RUNNING_MAX || self->count >= SP_FETCH_JOBS_MAX)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                             "%zu fetches are running; try again later", self->running);
    sp_folder_t folder;
    int rc = sp_folders_get(self->folders, id, volume, &folder, err);
    if (rc != BUS_OK)
        return rc;
    if (strcmp(folder.state, SP_FOLDER_READY) != 0)
        return bus_error_set(err, BUS_STATUS_CONFLICT, "folder %s is %s", folder.id,
                             folder.state);
    if (folder.over_quota ||
        (folder.quota_bytes && folder.usage_bytes >= folder.quota_bytes))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN, "folder %s is over its quota",
                             folder.id);
    sp_fs_t *fs = sp_folders_open(self->folders, &folder, err);
    if (!fs)
        return err->status;
    sp_fs_info_t info;
    if (sp_fs_stat(fs, rel, strlen(rel), &info, NULL) == 0) {
        sp_fs_destroy(&fs);
        return bus_error_set(err, BUS_STATUS_CONFLICT, "%.256s already exists", rel);
    }
    job_t *job = calloc(1, sizeof *job);
    uint8_t random[SP_FETCH_JOB_LEN / 2];
    if (!job || getrandom(random, sizeof random, 0) != (ssize_t) sizeof random) {
        free(job);
        sp_fs_destroy(&fs);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    for (size_t i = 0; i < sizeof random; i++)
        snprintf(job->id + 2 * i, 3, "%02x", random[i]);
    job->owner = self;
    snprintf(job->folder, sizeof job->folder, "%s", folder.id);
    snprintf(job->url, sizeof job->url, "%s", url);
    snprintf(job->path, sizeof job->path, "%s", rel);
    job->unzip = unzip;
    job->strip_top = strip_top;
    job->git = git;
    snprintf(job->ref, sizeof job->ref, "%s", ref ? ref : "");
    uint64_t room =
        folder.quota_bytes ? folder.quota_bytes - folder.usage_bytes : UINT64_MAX;
    job->cap = self->max_bytes < room ? self->max_bytes : room;
    job->zip_cap = self->zip_max_bytes < room ? self->zip_max_bytes : room;
    job->deadline = bus_clock_mono_ms() + (int64_t) self->timeout_s * 1000;
    job->fs = fs;
    atomic_init(&job->phase, S_CONNECTING);
    atomic_init(&job->bytes, 0);
    atomic_init(&job->total, 0);
    atomic_init(&job->entries, 0);
    atomic_init(&job->entries_total, 0);
    atomic_init(&job->skipped, 0);
    if (sp_jobs_start(self->jobs, s_work, s_done, job) != 0) {
        sp_fs_destroy(&job->fs);
        free(job);
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot start a fetch now");
    }
    self->running++;
    job->next = self->list;
    self->list = job;
    self->count++;
    bus_log_info("fetch started job=%s folder=%s host=%s unzip=%s git=%s", job->id,
                 job->folder, parsed.host, unzip ? "true" : "false",
                 git ? "true" : "false");
    memcpy(job_id, job->id, SP_FETCH_JOB_LEN + 1);
    return BUS_OK;
}

int
sp_fetch_status(sp_fetch_t *self,
                const char *job_id,
                sp_fetch_status_t *out,
                bus_error_t *err)
{
    assert(self && job_id && out);
    s_prune(self, SP_FETCH_JOBS_MAX);
    for (job_t *job = self->list; job; job = job->next) {
        if (strcmp(job->id, job_id) != 0)
            continue;
        memset(out, 0, sizeof *out);
        int phase = job->finished ? (job->status == BUS_OK ? S_DONE : S_FAILED)
                                  : atomic_load(&job->phase);
        //  The thread's done and failed show once done ran (the outcome is
        //  the loop's only then).
        if (!job->finished && phase >= S_DONE)
            phase = S_UNPACKING;
        out->state = k_states[phase];
        out->bytes = atomic_load(&job->bytes);
        out->total = atomic_load(&job->total);
        out->entries = atomic_load(&job->entries);
        out->entries_total = atomic_load(&job->entries_total);
        out->skipped = atomic_load(&job->skipped);
        if (job->finished) {
            out->status = job->status;
            out->detail = job->detail;
            out->url = job->final_url;
        }
        return BUS_OK;
    }
    return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no fetch %.64s", job_id);
}
