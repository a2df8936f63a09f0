/*  =========================================================================
    bench_gateway - the cost of a signed request against an unsigned one,
    on the same gateway, in the same run

    Starts the real pieces as child processes on loopback with ephemeral
    ports, state in a temporary directory removed at the end: the scheduler
    (it hosts the bus hub and the registry), accounting (it keeps the access
    log the gateway publishes for every request) and the gateway. The first
    gateway start creates the superadmin; the gateway is then stopped, the
    superadmin keypair's rate limit raised in gateway.db so that the bench
    does not run into it, and the gateway started again.

    The load generator is a single-threaded epoll client with
    BENCH_CONNECTIONS keep-alive HTTP/1.1 connections, each sending its next
    request as soon as the previous response is complete (closed loop). A
    phase warms up for BENCH_WARMUP_MS, then counts the 200 responses
    completed in BENCH_PHASE_MS; anything else is an error and is printed.
      unsigned  GET /           the version document, no Authorization
      signed    GET /auth/role  signed with Backend.AI's HMAC-SHA256 scheme
                                with the superadmin keypair
    Both carry the same Host, Date and X-BackendAI-Version headers, so the
    difference is the Authorization header and what it costs: the key
    lookup, the signature check and the rate limiter. The signed request is
    signed once per phase and replayed, as wrk does with a pre-signed
    request; its Date is taken when the phase starts, well inside the
    gateway's ±15 minute skew. The signer is written here against the
    reference (§1.2) with OpenSSL and checked against its worked example
    (§1.3), so that the bench is an independent client of the gateway's
    verifier rather than a copy of it.

    Phases alternate (unsigned, signed, unsigned, ...) BENCH_REPEATS times,
    so that load from elsewhere on a shared machine hits both; medians are
    reported. Each phase also shows the CPU time the gateway and the load
    generator used (from /proc): requests per second are bounded by the
    whole machine, the gateway's CPU per request by the gateway alone. The
    last line is machine-readable:
        gateway: signed_rps=X unsigned_rps=Y ratio=Z
    Then the session list: BENCH_LIST_SESSIONS (100,000) sessions go in
    over the scheduler's own session.create RPC (no agent, so they stay
    PENDING; BENCH_LIST_WINDOW calls in flight), and all but one in
    BENCH_LIST_LIVE_EVERY are cancelled with session.destroy, which leaves
    the history a real installation has (CANCELLED) around the few that
    wait (PENDING). One keep-alive connection then alternates a signed
    GraphQL compute_session_list(limit: 20, offset: 0, status: "PENDING"),
    the fields `backend.ai ps` shows, with the signed GET /auth/role above,
    BENCH_LIST_REQUESTS times each, and reports their p50 and p99 (one
    request at a time: latency, not throughput) and the ratio of the list's
    p99 to the baseline's; the same page by the statuses `backend.ai ps`
    lists and the page of the CANCELLED history (nearly every session
    matches) are timed the same way for information. Its line:
        session_list: p50_ms=X p99_ms=Y baseline_p99_ms=Z ratio=R sessions=N
    Usage: bench_gateway [BINDIR]   (default $BACKPLANE_BINDIR, else build/bin)
    BENCH_ONLY=signed|unsigned|list runs one kind of phase (for profiling;
    the gateway's pid is printed at start-up); the last line is then
    omitted.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
//  Processes, sockets, epoll and the signer: none of these are libbus's
//  business, so bus_classes.h does not carry them.
#include <arpa/inet.h>   //  htons, inet_pton
#include <fcntl.h>       //  open, fcntl (child logs, non-blocking sockets)
#include <ftw.h>         //  nftw, to remove the state directory
#include <netinet/in.h>  //  sockaddr_in
#include <netinet/tcp.h> //  TCP_NODELAY
#include <poll.h>        //  waiting on a child's stdout
#include <strings.h>     //  strncasecmp for response header names
#include <sys/epoll.h>   //  the load generator's loop
#include <sys/socket.h>  //  socket, connect
#include <sys/wait.h>    //  waitpid
#include <openssl/evp.h> //  EVP_sha256, EVP_Digest
#include <openssl/hmac.h>

#define BENCH_CONNECTIONS      32   //  keep-alive connections, one request in flight each
#define BENCH_WARMUP_MS        500  //  per phase, not counted
#define BENCH_PHASE_MS         3000 //  per phase, counted
#define BENCH_REPEATS          3    //  of each kind; the median is reported
#define BENCH_TARGET_RATIO     0.7  //  signed_rps / unsigned_rps
#define BENCH_READY_TIMEOUT_MS 20000 //  a child's ready line
#define BENCH_STOP_TIMEOUT_MS  5000  //  a child's exit after SIGTERM, then SIGKILL
#define BENCH_CHECK_TIMEOUT_MS 5000  //  the one-off requests that check the set-up
#define BENCH_LINE_MAX         4096  //  a line of a child's stdout
#define BENCH_INPUT_MAX        65536 //  one response, headers and body
#define BENCH_REQUEST_MAX      2048
#define BENCH_STATUS_MAX       600 //  HTTP statuses counted one by one below this
#define BENCH_EVENTS           64  //  epoll events per wait
#define BENCH_TICK_MS          10  //  longest epoll wait, so the clock is read often
#define BENCH_ENDPOINT_MAX     256
#define BENCH_KEY_MAX          128
//  The superadmin keypair's rate_limit during the bench: the gateway's
//  largest (GW_RATELIMIT_MAX_LIMIT) rather than 0 (unlimited), so that the
//  limiter still runs on every signed request, as it does in production;
//  the bench makes far fewer requests than this in the 15 minute window.
#define BENCH_RATE_LIMIT 1000000

//  The session list (BENCH_LIST_SESSIONS overrides the count).
#define BENCH_LIST_SESSIONS    100000
#define BENCH_LIST_LIVE_EVERY  20  //  one in this many stays PENDING
#define BENCH_LIST_WINDOW      256 //  session.create/destroy calls in flight
#define BENCH_LIST_KEYPAIRS    16
#define BENCH_LIST_REQUESTS    400 //  timed requests of each kind
#define BENCH_LIST_TARGET_MS   20  //  p99 of a page of 20
#define BENCH_LIST_CALL_MS     120000
#define BENCH_LIST_POLL_MS     100
#define BENCH_LIST_IMAGE       "local.backplane/library/busybox:latest"
#define BENCH_LIST_PATH        "/admin/gql"
#define BENCH_LIST_KINDS       4 //  the baseline and three pages
#define BENCH_LIST_PS_STATUSES "PENDING,SCHEDULED,PREPARING,RUNNING,TERMINATING"
#define BENCH_LIST_QUERY                                                                 \
    "query($limit: Int!, $offset: Int!, $status: String) {"                              \
    " compute_session_list(limit: $limit, offset: $offset, status: $status) {"           \
    " items { id name type image status status_info created_at terminated_at"            \
    " occupied_slots access_key group_name user_email } total_count } }"

#define BENCH_API_VERSION  "v6.20220315"
#define BENCH_SIGNED_PATH  "/auth/role"
#define BENCH_UNSIGNED_URL "/"
#define BENCH_CONTENT_TYPE "application/octet-stream" //  no Content-Type header sent
#define BENCH_SHA256_HEX   65                         //  hex digest plus NUL

typedef enum { PHASE_UNSIGNED, PHASE_SIGNED } phase_kind_t;

static const char *s_kind_names[] = {"unsigned", "signed"};

//  ---------------------------------------------------------------------------
//  Clocks and small helpers

static int64_t
s_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t
s_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int
s_compare_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double
s_median(const double *values, int count)
{
    double sorted[BENCH_REPEATS];
    assert(count > 0 && count <= BENCH_REPEATS);
    memcpy(sorted, values, sizeof *values * (size_t) count);
    qsort(sorted, (size_t) count, sizeof *sorted, s_compare_double);
    return count % 2 ? sorted[count / 2]
                     : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
}

//  Copies the value of " key=value" in a logfmt-ish line into out.
static bool
s_field(const char *line, const char *key, char *out, size_t size)
{
    size_t key_len = strlen(key);
    for (const char *p = line; (p = strstr(p, key)); p += key_len)
        if ((p == line || p[-1] == ' ') && p[key_len] == '=') {
            const char *value = p + key_len + 1;
            int len = (int) strcspn(value, " \r\n");
            return snprintf(out, size, "%.*s", len, value) < (int) size;
        }
    return false;
}

static int
s_remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void) st;
    (void) flag;
    (void) ftw;
    return remove(path);
}

//  ---------------------------------------------------------------------------
//  Child processes: stdout on a pipe we read lines from (the ready lines),
//  stderr appended to <dir>/<service>.log (shown when something fails).

typedef struct {
    const char *service;
    pid_t pid;   //  0 when not running
    int out;     //  read end of its stdout; -1 when closed
    size_t used; //  bytes in buf
    char buf[BENCH_LINE_MAX];
    char log_path[PATH_MAX];
} child_t;

static void
s_child_show_log(const child_t *child)
{
    FILE *log = fopen(child->log_path, "r");
    if (!log)
        return;
    fprintf(stderr, "bench-gateway: last lines of %s:\n", child->log_path);
    //  Keep the last few lines in a small ring.
    enum { TAIL = 15 };
    char lines[TAIL][512];
    int count = 0;
    while (fgets(lines[count % TAIL], sizeof lines[0], log))
        count++;
    fclose(log);
    for (int i = count > TAIL ? count - TAIL : 0; i < count; i++)
        fprintf(stderr, "    %s", lines[i % TAIL]);
}

//  Starts bindir/backplane-<service> with args (NULL-terminated). 0 or -1.
static int
s_child_start(child_t *child,
              const char *bindir,
              const char *service,
              const char *dir,
              const char *const *args)
{
    memset(child, 0, sizeof *child);
    child->service = service;
    child->out = -1;
    snprintf(child->log_path, sizeof child->log_path, "%s/%s.log", dir, service);
    char binary[PATH_MAX];
    snprintf(binary, sizeof binary, "%s/backplane-%s", bindir, service);
    const char *argv[36];
    int argc = 0;
    argv[argc++] = binary;
    //  /metrics on any free port, not the service's fixed default (a
    //  platform running on this machine has those).
    argv[argc++] = "--set";
    argv[argc++] = "bus.http_listen=127.0.0.1:0";
    for (int i = 0; args[i] && argc < 35; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    int log = open(child->log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        close(log);
        return -1;
    }
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        dup2(log, STDERR_FILENO);
        execv(binary, (char *const *) argv);
        fprintf(stderr, "exec %s: %s\n", binary, strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    close(log);
    child->pid = pid;
    child->out = fds[0];
    return 0;
}

//  Reaps the child after its stdout closed (it is exiting). Exit status.
static int
s_child_reap(child_t *child)
{
    int status = 0;
    if (child->pid > 0 && waitpid(child->pid, &status, 0) == child->pid)
        status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    child->pid = 0;
    if (child->out >= 0)
        close(child->out);
    child->out = -1;
    return status;
}

//  Reads the child's stdout until a line starting with prefix (copied to
//  line), skipping others. 0, or -1 when it exits or times out first.
static int
s_child_wait_line(child_t *child, const char *prefix, char *line, size_t size)
{
    int64_t deadline = s_now_ms() + BENCH_READY_TIMEOUT_MS;
    size_t prefix_len = strlen(prefix);
    while (child->out >= 0) {
        char *newline;
        while ((newline = memchr(child->buf, '\n', child->used))) {
            *newline = 0;
            bool match = strncmp(child->buf, prefix, prefix_len) == 0;
            if (match)
                snprintf(line, size, "%s", child->buf);
            size_t rest = child->used - (size_t) (newline + 1 - child->buf);
            memmove(child->buf, newline + 1, rest);
            child->used = rest;
            if (match)
                return 0;
        }
        if (child->used == sizeof child->buf)
            child->used = 0; //  a line longer than any we look for
        int left = (int) (deadline - s_now_ms());
        if (left <= 0) {
            fprintf(stderr, "bench-gateway: %s: no \"%s\" line in %d ms\n",
                    child->service, prefix, BENCH_READY_TIMEOUT_MS);
            s_child_show_log(child);
            return -1;
        }
        struct pollfd pfd = {child->out, POLLIN, 0};
        if (poll(&pfd, 1, left) < 0 && errno != EINTR)
            break;
        if (pfd.revents == 0)
            continue;
        ssize_t n =
            read(child->out, child->buf + child->used, sizeof child->buf - child->used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int status = s_child_reap(child);
            fprintf(stderr, "bench-gateway: %s exited (status %d) before \"%s\"\n",
                    child->service, status, prefix);
            s_child_show_log(child);
            return -1;
        }
        child->used += (size_t) n;
    }
    return -1;
}

//  SIGTERM, then waits for its stdout to close (it has exited) and reaps
//  it; SIGKILL after BENCH_STOP_TIMEOUT_MS. Exit status, 0 when not running.
static int
s_child_stop(child_t *child)
{
    if (child->pid <= 0)
        return 0;
    kill(child->pid, SIGTERM);
    int64_t deadline = s_now_ms() + BENCH_STOP_TIMEOUT_MS;
    char scratch[BENCH_LINE_MAX];
    while (child->out >= 0) {
        int left = (int) (deadline - s_now_ms());
        struct pollfd pfd = {child->out, POLLIN, 0};
        if (left <= 0 || (poll(&pfd, 1, left) < 0 && errno != EINTR)) {
            fprintf(stderr, "bench-gateway: %s did not stop on SIGTERM; killing it\n",
                    child->service);
            kill(child->pid, SIGKILL);
            break;
        }
        if (pfd.revents && read(child->out, scratch, sizeof scratch) == 0)
            break;
    }
    int status = s_child_reap(child);
    if (status != 0)
        fprintf(stderr, "bench-gateway: %s exited with status %d\n", child->service,
                status);
    return status;
}

//  ---------------------------------------------------------------------------
//  Backend.AI request signing (reference §1.2), independent of gw_auth

static void
s_hex(const unsigned char *data, size_t size, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < size; i++) {
        out[2 * i] = digits[data[i] >> 4];
        out[2 * i + 1] = digits[data[i] & 15];
    }
    out[2 * size] = 0;
}

//  hex(HMAC(HMAC(HMAC(secret, date_key), host), string to sign)), with the
//  request's Content-Type (BENCH_CONTENT_TYPE when none is sent) and the
//  empty body's hash, whatever the body (as the official client signs).
//  0 or -1.
static int
s_sign_typed(const char *secret,
             const char *method,
             const char *target,
             const char *date,
             const char *date_key,
             const char *host,
             const char *content_type,
             char out[BENCH_SHA256_HEX])
{
    unsigned char k1[EVP_MAX_MD_SIZE], k2[EVP_MAX_MD_SIZE], digest[EVP_MAX_MD_SIZE];
    unsigned int k1_len = 0, k2_len = 0, digest_len = 0;
    char body_hash[BENCH_SHA256_HEX], text[BENCH_REQUEST_MAX];
    if (!EVP_Digest("", 0, digest, &digest_len, EVP_sha256(), NULL))
        return -1;
    s_hex(digest, digest_len, body_hash);
    int len =
        snprintf(text, sizeof text,
                 "%s\n%s\n%s\nhost:%s\ncontent-type:%s\nx-backendai-version:%s\n%s",
                 method, target, date, host, content_type, BENCH_API_VERSION, body_hash);
    if (len < 0 || (size_t) len >= sizeof text)
        return -1;
    if (!HMAC(EVP_sha256(), secret, (int) strlen(secret),
              (const unsigned char *) date_key, strlen(date_key), k1, &k1_len) ||
        !HMAC(EVP_sha256(), k1, (int) k1_len, (const unsigned char *) host, strlen(host),
              k2, &k2_len) ||
        !HMAC(EVP_sha256(), k2, (int) k2_len, (const unsigned char *) text, (size_t) len,
              digest, &digest_len))
        return -1;
    s_hex(digest, digest_len, out);
    return 0;
}

//  The same with no body and no Content-Type header.
static int
s_sign(const char *secret,
       const char *method,
       const char *target,
       const char *date,
       const char *date_key,
       const char *host,
       char out[BENCH_SHA256_HEX])
{
    return s_sign_typed(secret, method, target, date, date_key, host, BENCH_CONTENT_TYPE,
                        out);
}

//  The reference's worked example (§1.3, the GET without Content-Type).
static int
s_sign_selftest(void)
{
    char sig[BENCH_SHA256_HEX];
    if (s_sign("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "GET",
               "/stream/session/mysess-01/pty", "2024-05-01T12:34:56.789012+00:00",
               "20240501", "127.0.0.1:8081", sig) != 0)
        return -1;
    return strcmp(sig, "aaf69940024fbcd61e1aab7655dd6ec4a77f9afbe532d6cce7ec886bdc6dc53a")
               ? -1
               : 0;
}

//  The request a phase replays. Signed ones get a Date of now (ISO 8601
//  UTC with microseconds, as the official client writes it) and a
//  signature over it. Length, or -1.
static int
s_build_request(phase_kind_t kind,
                int port,
                const char *access_key,
                const char *secret_key,
                char *out,
                size_t size)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char date[64], date_key[16], host[64];
    size_t n = strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(date + n, sizeof date - n, ".%06ld+00:00", ts.tv_nsec / 1000);
    strftime(date_key, sizeof date_key, "%Y%m%d", &tm);
    snprintf(host, sizeof host, "127.0.0.1:%d", port);
    const char *target = kind == PHASE_SIGNED ? BENCH_SIGNED_PATH : BENCH_UNSIGNED_URL;
    char authorization[BENCH_REQUEST_MAX / 2] = "";
    if (kind == PHASE_SIGNED) {
        char sig[BENCH_SHA256_HEX];
        if (s_sign(secret_key, "GET", target, date, date_key, host, sig) != 0)
            return -1;
        snprintf(authorization, sizeof authorization,
                 "Authorization: BackendAI signMethod=HMAC-SHA256, credential=%s:%s\r\n",
                 access_key, sig);
    }
    int len = snprintf(out, size,
                       "GET %s HTTP/1.1\r\nHost: %s\r\nDate: %s\r\n"
                       "X-BackendAI-Version: %s\r\n%s\r\n",
                       target, host, date, BENCH_API_VERSION, authorization);
    return len > 0 && (size_t) len < size ? len : -1;
}

//  ---------------------------------------------------------------------------
//  HTTP/1.1 responses, minimally: status line, Content-Length, body skipped

//  Looks at the size bytes received. 1 when a whole response is there
//  (*status, and *total its length in bytes), 0 when more is needed, -1
//  when it is not something we can read (chunked, no Content-Length, junk).
static int
s_parse_response(const char *data, size_t size, int *status, size_t *total)
{
    const char *end = memmem(data, size, "\r\n\r\n", 4);
    if (!end)
        return size >= BENCH_INPUT_MAX ? -1 : 0;
    size_t header_size = (size_t) (end - data) + 4;
    if (size < 12 || memcmp(data, "HTTP/1.", 7) != 0 || data[8] != ' ')
        return -1;
    int code = 0;
    for (int i = 9; i < 12; i++) {
        if (data[i] < '0' || data[i] > '9')
            return -1;
        code = code * 10 + (data[i] - '0');
    }
    long long length = -1;
    static const char name[] = "content-length:";
    const size_t name_len = sizeof name - 1;
    //  Each header line starts after a '\n' before the blank line.
    for (const char *p = data; (p = memchr(p, '\n', (size_t) (end - p)));) {
        p++;
        if ((size_t) (end - p) > name_len && strncasecmp(p, name, name_len) == 0) {
            char *after = NULL;
            length = strtoll(p + name_len, &after, 10);
            if (after == p + name_len || length < 0)
                return -1;
            break;
        }
    }
    //  A 204 or 304 has no body; everything else we get says how long it is.
    if (length < 0 && code != 204 && code != 304)
        return -1;
    size_t need = header_size + (size_t) (length < 0 ? 0 : length);
    if (need > BENCH_INPUT_MAX)
        return -1;
    if (size < need)
        return 0;
    *status = code;
    *total = need;
    return 1;
}

static int
s_connect(int port)
{
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t) port)};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *) &addr, sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

//  One request on a fresh connection, blocking, to check the set-up.
//  Returns the status (the body, NUL-terminated, in body), or -1.
static int
s_request_once(
    int port, const char *request, size_t request_size, char *body, size_t size)
{
    int fd = s_connect(port);
    if (fd < 0)
        return -1;
    struct timeval tv = {BENCH_CHECK_TIMEOUT_MS / 1000, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    int status = -1;
    char in[BENCH_INPUT_MAX];
    size_t used = 0, total = 0;
    if (write(fd, request, request_size) == (ssize_t) request_size)
        while (used < sizeof in) {
            ssize_t n = read(fd, in + used, sizeof in - used);
            if (n <= 0)
                break;
            used += (size_t) n;
            int rc = s_parse_response(in, used, &status, &total);
            if (rc < 0)
                status = -1;
            if (rc != 0)
                break;
        }
    close(fd);
    if (status >= 0) {
        const char *start = memmem(in, total, "\r\n\r\n", 4) + 4;
        snprintf(body, size, "%.*s", (int) (in + total - start), start);
    }
    return status;
}

//  ---------------------------------------------------------------------------
//  The load generator

typedef struct {
    int fd;      //  -1 when closed
    size_t sent; //  bytes of the request written
    size_t used; //  bytes in in
    bool want_out;
    char in[BENCH_INPUT_MAX];
} conn_t;

typedef struct {
    int port;
    pid_t gateway; //  whose CPU time is taken while counting
    const char *request;
    size_t request_size;
    int epoll;
    bool counting; //  past the warm-up
    uint64_t ok;   //  200 responses completed while counting
    uint64_t errors;
    uint64_t broken; //  connections lost or unreadable, all the time
    uint64_t statuses[BENCH_STATUS_MAX];
    conn_t conns[BENCH_CONNECTIONS];
} load_t;

typedef struct {
    double rps;
    uint64_t ok;
    double seconds;
    double gateway_cpu; //  CPU seconds the gateway used while counting
    double client_cpu;  //  and the load generator
} phase_result_t;

//  CPU time (user + system) of pid so far, in seconds; 0 when unknown.
static double
s_cpu_seconds(pid_t pid)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int) pid);
    FILE *file = fopen(path, "r");
    size_t n = file ? fread(text, 1, sizeof text - 1, file) : 0;
    if (file)
        fclose(file);
    text[n] = 0;
    //  Fields after the command name, which may hold spaces: state is the
    //  3rd field, utime and stime the 14th and 15th.
    const char *p = strrchr(text, ')');
    unsigned long long utime = 0, stime = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
                     &utime, &stime) != 2)
        return 0;
    return (double) (utime + stime) / (double) sysconf(_SC_CLK_TCK);
}

static void
s_conn_close(load_t *load, conn_t *conn)
{
    if (conn->fd >= 0) {
        epoll_ctl(load->epoll, EPOLL_CTL_DEL, conn->fd, NULL);
        close(conn->fd);
    }
    conn->fd = -1;
}

static int
s_conn_watch(load_t *load, conn_t *conn, bool out, int op)
{
    struct epoll_event event = {.events = EPOLLIN | (out ? EPOLLOUT : 0),
                                .data.ptr = conn};
    conn->want_out = out;
    return epoll_ctl(load->epoll, op, conn->fd, &event);
}

//  Writes what is left of the request; waits for EPOLLOUT if the socket is
//  full. 0 or -1 (connection lost).
static int
s_conn_send(load_t *load, conn_t *conn)
{
    while (conn->sent < load->request_size) {
        ssize_t n = send(conn->fd, load->request + conn->sent,
                         load->request_size - conn->sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return conn->want_out ? 0 : s_conn_watch(load, conn, true, EPOLL_CTL_MOD);
        if (n <= 0)
            return -1;
        conn->sent += (size_t) n;
    }
    return conn->want_out ? s_conn_watch(load, conn, false, EPOLL_CTL_MOD) : 0;
}

static int
s_conn_open(load_t *load, conn_t *conn)
{
    conn->fd = s_connect(load->port);
    conn->sent = conn->used = 0;
    conn->want_out = false;
    if (conn->fd < 0)
        return -1;
    fcntl(conn->fd, F_SETFL, fcntl(conn->fd, F_GETFL) | O_NONBLOCK);
    if (s_conn_watch(load, conn, false, EPOLL_CTL_ADD) != 0 || s_conn_send(load, conn)) {
        s_conn_close(load, conn);
        return -1;
    }
    return 0;
}

//  A connection the server closed or that sent what we cannot read:
//  counted, and replaced. -1 when no new connection can be made.
static int
s_conn_replace(load_t *load, conn_t *conn)
{
    load->broken++;
    s_conn_close(load, conn);
    return s_conn_open(load, conn);
}

static void
s_count(load_t *load, int status)
{
    if (!load->counting)
        return;
    if (status == 200)
        load->ok++;
    else
        load->errors++;
    load->statuses[status < BENCH_STATUS_MAX ? status : 0]++;
}

//  Reads what arrived; each complete response is counted and the next
//  request sent. 0, or -1 when the connection is lost.
static int
s_conn_read(load_t *load, conn_t *conn)
{
    while (true) {
        ssize_t n =
            recv(conn->fd, conn->in + conn->used, sizeof conn->in - conn->used, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 0;
        if (n <= 0)
            return -1;
        conn->used += (size_t) n;
        int status;
        size_t total;
        int rc;
        while ((rc = s_parse_response(conn->in, conn->used, &status, &total)) == 1) {
            s_count(load, status);
            memmove(conn->in, conn->in + total, conn->used - total);
            conn->used -= total;
            //  A response before the request was all sent is a protocol error.
            if (conn->sent < load->request_size)
                return -1;
            conn->sent = 0;
            if (s_conn_send(load, conn) != 0)
                return -1;
        }
        if (rc < 0)
            return -1;
    }
}

//  One phase: warm-up, then BENCH_PHASE_MS counted. 0 or -1 (set-up failed).
static int
s_phase_run(load_t *load, phase_result_t *result)
{
    load->epoll = epoll_create1(EPOLL_CLOEXEC);
    if (load->epoll < 0)
        return -1;
    load->counting = false;
    load->ok = load->errors = load->broken = 0;
    memset(load->statuses, 0, sizeof load->statuses);
    for (int i = 0; i < BENCH_CONNECTIONS; i++)
        load->conns[i].fd = -1;
    int rc = 0;
    for (int i = 0; i < BENCH_CONNECTIONS && rc == 0; i++)
        rc = s_conn_open(load, &load->conns[i]);
    int64_t start_us = s_now_us();
    int64_t count_from = start_us + BENCH_WARMUP_MS * 1000;
    int64_t end = count_from + BENCH_PHASE_MS * 1000;
    int64_t now = start_us;
    double gateway_cpu = 0, client_cpu = 0;
    while (rc == 0 && now < end) {
        if (!load->counting && now >= count_from) {
            load->counting = true;
            count_from = now;
            gateway_cpu = s_cpu_seconds(load->gateway);
            client_cpu = s_cpu_seconds(getpid());
        }
        struct epoll_event events[BENCH_EVENTS];
        int n = epoll_wait(load->epoll, events, BENCH_EVENTS, BENCH_TICK_MS);
        if (n < 0 && errno != EINTR)
            rc = -1;
        for (int i = 0; i < n && rc == 0; i++) {
            conn_t *conn = events[i].data.ptr;
            if (conn->fd < 0)
                continue;
            int lost = 0;
            if (events[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP))
                lost = s_conn_read(load, conn);
            if (!lost && (events[i].events & EPOLLOUT))
                lost = s_conn_send(load, conn);
            if (lost)
                rc = s_conn_replace(load, conn);
        }
        now = s_now_us();
    }
    result->gateway_cpu = s_cpu_seconds(load->gateway) - gateway_cpu;
    result->client_cpu = s_cpu_seconds(getpid()) - client_cpu;
    for (int i = 0; i < BENCH_CONNECTIONS; i++)
        s_conn_close(load, &load->conns[i]);
    close(load->epoll);
    if (rc != 0) {
        fprintf(stderr, "bench-gateway: cannot connect to the gateway\n");
        return -1;
    }
    result->ok = load->ok;
    result->seconds = (double) (now - count_from) / 1e6;
    result->rps = result->seconds > 0 ? (double) load->ok / result->seconds : 0;
    return 0;
}

//  "none", or "401x12 429x3 broken=1".
static void
s_describe_errors(const load_t *load, char *out, size_t size)
{
    size_t used = 0;
    out[0] = 0;
    for (int status = 0; status < BENCH_STATUS_MAX && used < size; status++)
        if (status != 200 && load->statuses[status])
            used += (size_t) snprintf(out + used, size - used, "%s%d x%" PRIu64,
                                      used ? ", " : "", status, load->statuses[status]);
    if (load->broken && used < size)
        used += (size_t) snprintf(out + used, size - used, "%sconnections lost %" PRIu64,
                                  used ? ", " : "", load->broken);
    if (used == 0)
        snprintf(out, size, "none");
}

//  ---------------------------------------------------------------------------
//  Set-up: the platform pieces, the superadmin keypair

typedef struct {
    char dir[PATH_MAX / 2];
    char bindir[PATH_MAX / 2];
    char publish[BENCH_ENDPOINT_MAX];
    char subscribe[BENCH_ENDPOINT_MAX];
    char registry[BENCH_ENDPOINT_MAX];
    char rpc[BENCH_ENDPOINT_MAX]; //  the scheduler's
    char access_key[BENCH_KEY_MAX];
    char secret_key[BENCH_KEY_MAX];
    int port;
    child_t scheduler;
    child_t accounting;
    child_t gateway;
} bench_t;

//  Starts a service that joins the scheduler's hub, with state in
//  <dir>/<state>, plus extra "--set" pairs (NULL-terminated), and waits for
//  its ready line. 0 or -1.
static int
s_start_node(bench_t *self,
             child_t *child,
             const char *service,
             const char *state,
             const char *const *extra)
{
    char state_dir[PATH_MAX], publish[BENCH_ENDPOINT_MAX + 32],
        subscribe[BENCH_ENDPOINT_MAX + 32], registry[BENCH_ENDPOINT_MAX + 32];
    snprintf(state_dir, sizeof state_dir, "node.state_dir=%s/%s", self->dir, state);
    snprintf(publish, sizeof publish, "bus.hub.publish=%s", self->publish);
    snprintf(subscribe, sizeof subscribe, "bus.hub.subscribe=%s", self->subscribe);
    snprintf(registry, sizeof registry, "bus.hub.registry=%s", self->registry);
    const char *args[32] = {"--set", state_dir, "--set", publish,
                            "--set", subscribe, "--set", registry};
    int argc = 8;
    for (int i = 0; extra && extra[i] && argc < 30; i++) {
        args[argc++] = "--set";
        args[argc++] = extra[i];
    }
    args[argc] = NULL;
    char line[BENCH_LINE_MAX], prefix[64];
    snprintf(prefix, sizeof prefix, "ready service=%s ", service);
    if (s_child_start(child, self->bindir, service, self->dir, args) != 0) {
        fprintf(stderr, "bench-gateway: cannot start %s\n", service);
        return -1;
    }
    if (s_child_wait_line(child, prefix, line, sizeof line) != 0)
        return -1;
    //  The gateway says where its API is on its ready line.
    if (strcmp(service, "gateway") == 0) {
        char url[BENCH_ENDPOINT_MAX];
        if (!s_field(line, "url", url, sizeof url) ||
            sscanf(url, "http://127.0.0.1:%d/", &self->port) != 1 || self->port <= 0) {
            fprintf(stderr, "bench-gateway: cannot read the API port in \"%s\"\n", line);
            return -1;
        }
    }
    return 0;
}

static int
s_start_gateway(bench_t *self)
{
    static const char *const extra[] = {
        "api.listen=127.0.0.1:0", "web.listen=", "auth.password_iterations=1000", NULL};
    return s_start_node(self, &self->gateway, "gateway", "g", extra);
}

static int
s_start_scheduler(bench_t *self)
{
    char state_dir[PATH_MAX];
    snprintf(state_dir, sizeof state_dir, "node.state_dir=%s/s", self->dir);
    const char *args[] = {"--set", state_dir,
                          "--set", "bus.hub.publish=tcp://127.0.0.1:*",
                          "--set", "bus.hub.subscribe=tcp://127.0.0.1:*",
                          "--set", "bus.hub.registry=tcp://127.0.0.1:*",
                          NULL};
    char line[BENCH_LINE_MAX];
    if (s_child_start(&self->scheduler, self->bindir, "scheduler", self->dir, args) !=
            0 ||
        s_child_wait_line(&self->scheduler, "ready service=scheduler ", line,
                          sizeof line) != 0)
        return -1;
    if (!s_field(line, "hub_publish", self->publish, sizeof self->publish) ||
        !s_field(line, "hub_subscribe", self->subscribe, sizeof self->subscribe) ||
        !s_field(line, "registry", self->registry, sizeof self->registry) ||
        !s_field(line, "rpc", self->rpc, sizeof self->rpc)) {
        fprintf(stderr, "bench-gateway: no hub endpoints in \"%s\"\n", line);
        return -1;
    }
    return 0;
}

//  The superadmin's keypair from <dir>/g/admin.env. 0 or -1.
static int
s_read_admin(bench_t *self)
{
    char path[PATH_MAX], line[BENCH_LINE_MAX];
    snprintf(path, sizeof path, "%s/g/admin.env", self->dir);
    FILE *file = fopen(path, "r");
    if (!file) {
        fprintf(stderr, "bench-gateway: cannot read %s\n", path);
        return -1;
    }
    static const char ak[] = "export BACKEND_ACCESS_KEY=";
    static const char sk[] = "export BACKEND_SECRET_KEY=";
    while (fgets(line, sizeof line, file)) {
        line[strcspn(line, "\r\n")] = 0;
        char *key = NULL;
        const char *value = NULL;
        if (strncmp(line, ak, sizeof ak - 1) == 0)
            key = self->access_key, value = line + sizeof ak - 1;
        else if (strncmp(line, sk, sizeof sk - 1) == 0)
            key = self->secret_key, value = line + sizeof sk - 1;
        //  A key too long for us is left out, and reported below.
        if (key && strlen(value) < BENCH_KEY_MAX)
            memcpy(key, value, strlen(value) + 1);
    }
    fclose(file);
    if (!*self->access_key || !*self->secret_key) {
        fprintf(stderr, "bench-gateway: no keypair in %s\n", path);
        return -1;
    }
    return 0;
}

//  Raises the superadmin keypair's rate limit, in gateway.db while the
//  gateway is stopped: there is no API for it yet (Backend.AI does it with
//  the modify_keypair GraphQL mutation). 0 or -1.
static int
s_raise_rate_limit(bench_t *self)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/g/gateway.db", self->dir);
    sqlite3 *db = NULL;
    sqlite3_stmt *stmt = NULL;
    int rc = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db,
                           "UPDATE keypairs SET rate_limit = ?1 WHERE access_key = ?2",
                           -1, &stmt, NULL) == SQLITE_OK) {
        sqlite3_bind_int(stmt, 1, BENCH_RATE_LIMIT);
        sqlite3_bind_text(stmt, 2, self->access_key, -1, SQLITE_STATIC);
        if (sqlite3_step(stmt) == SQLITE_DONE && sqlite3_changes(db) == 1)
            rc = 0;
    }
    if (rc != 0)
        fprintf(stderr, "bench-gateway: cannot set the rate limit in %s: %s\n", path,
                db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return rc;
}

//  Both requests answer as they should before anything is timed. 0 or -1.
static int
s_check_requests(bench_t *self)
{
    static const struct {
        phase_kind_t kind;
        const char *expect;
    } checks[] = {{PHASE_UNSIGNED, "\"version\""}, {PHASE_SIGNED, "\"global_role\""}};
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        char request[BENCH_REQUEST_MAX], body[BENCH_INPUT_MAX];
        int len = s_build_request(checks[i].kind, self->port, self->access_key,
                                  self->secret_key, request, sizeof request);
        int status = len < 0 ? -1
                             : s_request_once(self->port, request, (size_t) len, body,
                                              sizeof body);
        if (status != 200 || !strstr(body, checks[i].expect)) {
            fprintf(stderr, "bench-gateway: %s request: status %d, body %s\n",
                    s_kind_names[checks[i].kind], status, status < 0 ? "-" : body);
            return -1;
        }
    }
    return 0;
}

static int
s_setup(bench_t *self)
{
    if (s_start_scheduler(self) != 0 ||
        s_start_node(self, &self->accounting, "accounting", "a", NULL) != 0)
        return -1;
    //  First start: bootstrap the superadmin; then raise its limit, stopped.
    if (s_start_gateway(self) != 0)
        return -1;
    if (s_child_stop(&self->gateway) != 0 || s_read_admin(self) != 0 ||
        s_raise_rate_limit(self) != 0)
        return -1;
    if (s_start_gateway(self) != 0)
        return -1;
    return s_check_requests(self);
}

static void
s_teardown(bench_t *self)
{
    s_child_stop(&self->gateway);
    s_child_stop(&self->accounting);
    s_child_stop(&self->scheduler);
    if (*self->dir)
        nftw(self->dir, s_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

//  ---------------------------------------------------------------------------
//  The session list: sessions through the scheduler's RPC, then timed pages

typedef struct {
    bus_rpc_client_t *client;
    int count;     //  calls to make
    int sent;      //  made so far
    int in_flight; //  made, not answered
    int refused;   //  answered with an error
    char first_refusal[BUS_ERROR_DETAIL_MAX];
} pipeline_t;

static void
s_on_call(void *arg, const bus_reply_t *reply)
{
    pipeline_t *pipe = arg;
    pipe->in_flight--;
    if (reply->status != BUS_OK && !pipe->refused++)
        snprintf(pipe->first_refusal, sizeof pipe->first_refusal, "%s: %s",
                 bus_status_str(reply->status), reply->detail);
}

static void
s_id(char *out, size_t size, unsigned tag, int i)
{
    snprintf(out, size, "%08x-0000-4000-8000-%012d", tag, i);
}

//  The i-th call's body: session.create (destroy false) of session i, or
//  session.destroy of it. 0 or -1.
static int
s_list_body(int i, bool destroy, bus_writer_t *writer)
{
    char session[48], kernel[48], name[32], key[32], user[32], group[48];
    s_id(session, sizeof session, 0xb0000000u, i);
    if (destroy) {
        proto_session_destroy_req_t req;
        proto_session_destroy_req_init(&req);
        req.session_id = session;
        req.reason = "user-requested";
        int rc = proto_session_destroy_req_write(&req, writer);
        return rc;
    }
    s_id(kernel, sizeof kernel, 0xc0000000u, i);
    s_id(group, sizeof group, 0xd0000000u, i % 4);
    snprintf(name, sizeof name, "bench-%d", i);
    snprintf(key, sizeof key, "AKBENCH%02d", i % BENCH_LIST_KEYPAIRS);
    snprintf(user, sizeof user, "user-%02d", i % BENCH_LIST_KEYPAIRS);
    proto_kv_t slots[] = {{"cpu", "1"}, {"mem", "1073741824"}};
    proto_session_create_req_t req;
    proto_session_create_req_init(&req);
    req.session_id = session;
    req.kernel_id = kernel;
    req.name = name;
    req.access_key = key;
    req.user_uuid = user;
    req.domain_name = "default";
    req.group_id = group;
    req.scaling_group = "default";
    req.image = BENCH_LIST_IMAGE;
    req.slots = slots;
    req.slots_count = sizeof slots / sizeof slots[0];
    int rc = proto_session_create_req_write(&req, writer);
    return rc;
}

//  Makes count calls of method, BENCH_LIST_WINDOW in flight, the i-th for
//  session index(i). 0, or -1 when the scheduler stops answering.
static int
s_pipeline(pipeline_t *pipe, bool destroy, int count, int every)
{
    pipe->count = count;
    pipe->sent = pipe->in_flight = 0;
    zpoller_t *poller = zpoller_new(bus_rpc_client_sock(pipe->client), NULL);
    if (!poller)
        return -1;
    int64_t progress = s_now_ms();
    int answered = 0;
    while (pipe->sent < pipe->count || pipe->in_flight > 0) {
        while (pipe->sent < pipe->count && pipe->in_flight < BENCH_LIST_WINDOW) {
            //  destroy: every session but each every-th one.
            int i = destroy ? pipe->sent + pipe->sent / (every - 1) + 1 : pipe->sent;
            bus_writer_t *writer = bus_writer_new();
            uint64_t id = writer && s_list_body(i, destroy, writer) == 0
                              ? bus_rpc_client_call(pipe->client,
                                                    destroy ? PROTO_SESSION_DESTROY
                                                            : PROTO_SESSION_CREATE,
                                                    bus_writer_data(writer),
                                                    bus_writer_size(writer),
                                                    BENCH_LIST_CALL_MS, s_on_call, pipe)
                              : 0;
            bus_writer_destroy(&writer);
            if (!id)
                break; //  the queue is full: dispatch first
            pipe->sent++;
            pipe->in_flight++;
        }
        int in_flight = pipe->in_flight;
        if (zpoller_wait(poller, BENCH_LIST_POLL_MS))
            while (bus_rpc_client_dispatch(pipe->client) > 0)
                ;
        bus_rpc_client_tick(pipe->client);
        answered += in_flight - pipe->in_flight;
        if (in_flight != pipe->in_flight)
            progress = s_now_ms();
        else if (s_now_ms() - progress > BENCH_LIST_CALL_MS) {
            fprintf(stderr, "bench-gateway: the scheduler stopped answering (%d of %d)\n",
                    answered, count);
            zpoller_destroy(&poller);
            return -1;
        }
    }
    zpoller_destroy(&poller);
    return 0;
}

//  The sessions: count created, all but one in every cancelled. 0 or -1.
static int
s_fill_sessions(bench_t *self, int count, int *pending)
{
    pipeline_t pipe = {0};
    pipe.client = bus_rpc_client_new(self->rpc, "bench/gateway", NULL);
    if (!pipe.client)
        return -1;
    int64_t started = s_now_ms();
    int rc = s_pipeline(&pipe, false, count, BENCH_LIST_LIVE_EVERY);
    int64_t created = s_now_ms();
    //  Sessions 0, every, 2 * every... stay PENDING.
    int live = (count + BENCH_LIST_LIVE_EVERY - 1) / BENCH_LIST_LIVE_EVERY;
    if (rc == 0 && pipe.refused == 0)
        rc = s_pipeline(&pipe, true, count - live, BENCH_LIST_LIVE_EVERY);
    bus_rpc_client_destroy(&pipe.client);
    if (rc != 0 || pipe.refused) {
        fprintf(stderr, "bench-gateway: %d calls refused (first: %s)\n", pipe.refused,
                pipe.first_refusal);
        return -1;
    }
    printf("sessions: %d created in %.1f s, %d of them cancelled in %.1f s; %d PENDING\n",
           count, (double) (created - started) / 1e3, count - live,
           (double) (s_now_ms() - created) / 1e3, live);
    fflush(stdout);
    *pending = live;
    return 0;
}

//  A signed POST of a JSON body to path as the superadmin. Length, or -1.
static int
s_build_post(
    const bench_t *self, const char *path, const char *body, char *out, size_t size)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char date[64], date_key[16], host[64], sig[BENCH_SHA256_HEX];
    size_t n = strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(date + n, sizeof date - n, ".%06ld+00:00", ts.tv_nsec / 1000);
    strftime(date_key, sizeof date_key, "%Y%m%d", &tm);
    snprintf(host, sizeof host, "127.0.0.1:%d", self->port);
    if (s_sign_typed(self->secret_key, "POST", path, date, date_key, host,
                     "application/json", sig) != 0)
        return -1;
    int len = snprintf(out, size,
                       "POST %s HTTP/1.1\r\nHost: %s\r\nDate: %s\r\n"
                       "X-BackendAI-Version: %s\r\nContent-Type: application/json\r\n"
                       "Content-Length: %zu\r\nAuthorization: BackendAI "
                       "signMethod=HMAC-SHA256, credential=%s:%s\r\n\r\n%s",
                       path, host, date, BENCH_API_VERSION, strlen(body),
                       self->access_key, sig, body);
    return len > 0 && (size_t) len < size ? len : -1;
}

//  One request on the keep-alive connection *fd (opened when -1, closed on
//  trouble). The microseconds to the whole response, or -1; the status in
//  *status.
static int64_t
s_timed_request(int port, int *fd, const char *request, size_t size, int *status)
{
    static char in[BENCH_INPUT_MAX];
    if (*fd < 0)
        *fd = s_connect(port);
    if (*fd < 0)
        return -1;
    int64_t start = s_now_us();
    size_t used = 0, total = 0;
    int rc = 0;
    if (write(*fd, request, size) == (ssize_t) size)
        while (used < sizeof in &&
               (rc = s_parse_response(in, used, status, &total)) == 0) {
            ssize_t n = read(*fd, in + used, sizeof in - used);
            if (n <= 0) {
                rc = -1;
                break;
            }
            used += (size_t) n;
        }
    else
        rc = -1;
    int64_t took = s_now_us() - start;
    if (rc != 1 || used != total) {
        close(*fd);
        *fd = -1;
        return -1;
    }
    return took;
}

static int
s_compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return x < y ? -1 : x > y;
}

//  Nearest-rank percentile of sorted microseconds, in ms.
static double
s_percentile_ms(const int64_t *sorted, int count, double percent)
{
    int rank = (int) (percent / 100 * count + 0.999999);
    rank = rank < 1 ? 1 : rank > count ? count : rank;
    return (double) sorted[rank - 1] / 1000;
}

//  The page of status as JSON for the GraphQL request's body.
static char *
s_list_body_json(const char *status)
{
    json_t *body = json_pack("{s:s, s:{s:i, s:i, s:s}}", "query", BENCH_LIST_QUERY,
                             "variables", "limit", 20, "offset", 0, "status", status);
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    return text;
}

//  Checks the page once: 20 items and the total expected. 0 or -1.
static int
s_list_check(bench_t *self, const char *request, size_t size, int expected)
{
    char body[BENCH_INPUT_MAX];
    int status = s_request_once(self->port, request, size, body, sizeof body);
    json_t *r = status == 200 ? json_loads(body, 0, NULL) : NULL;
    json_t *list = json_object_get(json_object_get(r, "data"), "compute_session_list");
    json_int_t total = json_integer_value(json_object_get(list, "total_count"));
    size_t items = json_array_size(json_object_get(list, "items"));
    json_decref(r);
    if (total != expected || items != (size_t) (expected < 20 ? expected : 20)) {
        fprintf(stderr, "bench-gateway: the list answered %d: %.300s\n", status,
                status < 0 ? "-" : body);
        return -1;
    }
    return 0;
}

//  Times the pages of the two statuses against the baseline request.
static int
s_list_phase(bench_t *self, int sessions)
{
    int pending = 0;
    if (s_fill_sessions(self, sessions, &pending) != 0)
        return -1;
    //  The page timed, then two for information: the live statuses as
    //  `backend.ai ps` asks for them, and the history (nearly every session).
    char *bodies[BENCH_LIST_KINDS - 1] = {s_list_body_json("PENDING"),
                                          s_list_body_json(BENCH_LIST_PS_STATUSES),
                                          s_list_body_json("CANCELLED")};
    const int expected[BENCH_LIST_KINDS - 1] = {pending, pending, sessions - pending};
    static char requests[BENCH_LIST_KINDS][BENCH_REQUEST_MAX + 512];
    int sizes[BENCH_LIST_KINDS];
    sizes[0] = s_build_request(PHASE_SIGNED, self->port, self->access_key,
                               self->secret_key, requests[0], sizeof requests[0]);
    for (int k = 1; k < BENCH_LIST_KINDS; k++) {
        sizes[k] = bodies[k - 1] ? s_build_post(self, BENCH_LIST_PATH, bodies[k - 1],
                                                requests[k], sizeof requests[k])
                                 : -1;
        free(bodies[k - 1]);
    }
    for (int k = 0; k < BENCH_LIST_KINDS; k++)
        if (sizes[k] < 0 || (k > 0 && s_list_check(self, requests[k], (size_t) sizes[k],
                                                   expected[k - 1])))
            return -1;
    int64_t *took[BENCH_LIST_KINDS];
    bool allocated = true;
    for (int k = 0; k < BENCH_LIST_KINDS; k++)
        allocated &= (took[k] = calloc(BENCH_LIST_REQUESTS, sizeof *took[k])) != NULL;
    int fd = -1, failures = allocated ? 0 : 1;
    for (int i = 0; i < BENCH_LIST_REQUESTS && !failures; i++)
        for (int k = 0; k < BENCH_LIST_KINDS && !failures; k++) {
            int status = 0;
            took[k][i] =
                s_timed_request(self->port, &fd, requests[k], (size_t) sizes[k], &status);
            if (took[k][i] < 0 || status != 200) {
                fprintf(stderr, "bench-gateway: a timed request answered %d\n", status);
                failures++;
            }
        }
    if (fd >= 0)
        close(fd);
    double p50[BENCH_LIST_KINDS] = {0}, p99[BENCH_LIST_KINDS] = {0};
    for (int k = 0; k < BENCH_LIST_KINDS && !failures; k++) {
        qsort(took[k], BENCH_LIST_REQUESTS, sizeof *took[k], s_compare_int64);
        p50[k] = s_percentile_ms(took[k], BENCH_LIST_REQUESTS, 50);
        p99[k] = s_percentile_ms(took[k], BENCH_LIST_REQUESTS, 99);
    }
    for (int k = 0; k < BENCH_LIST_KINDS; k++)
        free(took[k]);
    if (failures)
        return -1;
    static const char *what[BENCH_LIST_KINDS][2] = {
        {"GET /auth/role", "(the baseline)"},
        {"status PENDING", "(page of 20; the few that wait)"},
        {"status as backend.ai ps", "(the same rows; several statuses: for information)"},
        {"status CANCELLED", "(nearly every session matches: for information)"}};
    for (int k = 0; k < BENCH_LIST_KINDS; k++)
        printf("  %-24s p50 %6.2f ms  p99 %6.2f ms  %s\n", what[k][0], p50[k], p99[k],
               what[k][1]);
    if (p99[1] > BENCH_LIST_TARGET_MS)
        printf("bench-gateway: target missed: session list p99 > %d ms\n",
               BENCH_LIST_TARGET_MS);
    printf("session_list: p50_ms=%.2f p99_ms=%.2f baseline_p99_ms=%.2f ratio=%.2f "
           "sessions=%d pending=%d\n",
           p50[1], p99[1], p99[0], p99[0] > 0 ? p99[1] / p99[0] : 0, sessions, pending);
    fflush(stdout);
    return 0;
}

//  ---------------------------------------------------------------------------

int
main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    if (s_sign_selftest() != 0) {
        fprintf(stderr, "bench-gateway: the signer disagrees with the reference "
                        "example (§1.3)\n");
        return 1;
    }
    static bench_t bench;
    const char *bindir = argc > 1 ? argv[1] : getenv("BACKPLANE_BINDIR");
    snprintf(bench.bindir, sizeof bench.bindir, "%s",
             bindir && *bindir ? bindir : "build/bin");
    const char *tmp = getenv("TMPDIR");
    snprintf(bench.dir, sizeof bench.dir, "%s/bench_gateway.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(bench.dir)) {
        fprintf(stderr, "bench-gateway: cannot create a temporary directory\n");
        return 1;
    }
    if (s_setup(&bench) != 0) {
        fprintf(stderr, "bench-gateway: the platform could not be set up\n");
        s_teardown(&bench);
        return 1;
    }
    const char *only = getenv("BENCH_ONLY");
    if (only && !*only)
        only = NULL;
    bool run[2] = {!only || strcmp(only, "unsigned") == 0,
                   !only || strcmp(only, "signed") == 0};
    bool run_list = !only || strcmp(only, "list") == 0;
    const char *count_text = getenv("BENCH_LIST_SESSIONS");
    int sessions =
        count_text && atoi(count_text) > 0 ? atoi(count_text) : BENCH_LIST_SESSIONS;
    printf("bench-gateway: gateway pid %d on 127.0.0.1:%d (with scheduler and "
           "accounting); %d connections, %d x (%.1f s warm-up + %.1f s) per kind\n",
           (int) bench.gateway.pid, bench.port, BENCH_CONNECTIONS, BENCH_REPEATS,
           BENCH_WARMUP_MS / 1e3, BENCH_PHASE_MS / 1e3);
    fflush(stdout);

    static load_t load;
    load.port = bench.port;
    load.gateway = bench.gateway.pid;
    double rps[2][BENCH_REPEATS], cpu_us[2][BENCH_REPEATS];
    int failures = 0;
    for (int r = 0; r < BENCH_REPEATS && !failures; r++)
        for (int kind = PHASE_UNSIGNED; kind <= PHASE_SIGNED && !failures; kind++) {
            if (!run[kind])
                continue;
            //  Signed once per phase, with a fresh Date, and replayed.
            char request[BENCH_REQUEST_MAX];
            int len = s_build_request((phase_kind_t) kind, bench.port, bench.access_key,
                                      bench.secret_key, request, sizeof request);
            phase_result_t result;
            load.request = request;
            load.request_size = (size_t) (len < 0 ? 0 : len);
            if (len < 0 || s_phase_run(&load, &result) != 0) {
                failures++;
                break;
            }
            rps[kind][r] = result.rps;
            cpu_us[kind][r] =
                result.ok ? result.gateway_cpu * 1e6 / (double) result.ok : 0;
            char errors[256];
            s_describe_errors(&load, errors, sizeof errors);
            printf("  %-8s #%d  GET %-10s %7.0f req/s  gateway cpu %3.0f%% %4.0f us/req"
                   "  client cpu %3.0f%%  (%" PRIu64 " in %.2f s; errors: %s)\n",
                   s_kind_names[kind], r + 1,
                   kind == PHASE_SIGNED ? BENCH_SIGNED_PATH : BENCH_UNSIGNED_URL,
                   result.rps, 100 * result.gateway_cpu / result.seconds, cpu_us[kind][r],
                   100 * result.client_cpu / result.seconds, result.ok, result.seconds,
                   errors);
            fflush(stdout);
        }
    if (run_list && !failures && s_list_phase(&bench, sessions) != 0)
        failures++;
    s_teardown(&bench);
    if (failures) {
        fprintf(stderr, "bench-gateway: a measurement could not be set up\n");
        return 1;
    }
    double unsigned_rps =
        run[PHASE_UNSIGNED] ? s_median(rps[PHASE_UNSIGNED], BENCH_REPEATS) : 0;
    double signed_rps =
        run[PHASE_SIGNED] ? s_median(rps[PHASE_SIGNED], BENCH_REPEATS) : 0;
    if (!run[PHASE_UNSIGNED] && !run[PHASE_SIGNED])
        return 0;
    //  Gateway CPU per request is what the signature costs the gateway
    //  itself; req/s is also bounded by the machine (cores, neighbours).
    printf("medians: unsigned %.0f req/s %.0f us/req, signed %.0f req/s %.0f us/req "
           "(gateway cpu per request)\n",
           unsigned_rps,
           run[PHASE_UNSIGNED] ? s_median(cpu_us[PHASE_UNSIGNED], BENCH_REPEATS) : 0,
           signed_rps,
           run[PHASE_SIGNED] ? s_median(cpu_us[PHASE_SIGNED], BENCH_REPEATS) : 0);
    if (only)
        return 0;
    double ratio = unsigned_rps > 0 ? signed_rps / unsigned_rps : 0;
    if (ratio < BENCH_TARGET_RATIO)
        printf("bench-gateway: target missed: ratio < %.1f\n", BENCH_TARGET_RATIO);
    printf("gateway: signed_rps=%.0f unsigned_rps=%.0f ratio=%.2f\n", signed_rps,
           unsigned_rps, ratio);
    return 0;
}
