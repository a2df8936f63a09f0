/*  =========================================================================
    bench_wsproxy - the wsproxy's relay against the app reached directly

    Starts the wsproxy (hosting its own hub), an HTTP and WebSocket app in
    this process (test/integration/wsp_echo.h, one thread per connection),
    opens a route with an app token and takes its permit cookie, and starts
    a bare splice relay to the app in a process of its own, as the wsproxy
    is (the reference: what a second loopback TCP hop costs on this
    machine, with no HTTP at all). Then, in the same run and alternating so
    that drift on a shared machine hits all alike:
      - an HTTP download of BENCH_MB MiB (1024) straight from the app,
        through the route and through the relay, BENCH_ROUNDS (3) each, the
        order turned every round, best of each;
      - a WebSocket echo on three connections (direct, through the route,
        through the relay) used turn about: BENCH_WS_TRIPS (2000) round
        trips of a 32-byte message each (p50 and p99), and 256 MiB echoed
        in 64 KiB messages (throughput).
    Last line: wsproxy: http_ratio=X ws_ratio=Y added_p50_us=Z (ratios are
    through / direct throughput; added is the p50 round trip through less
    the direct one). The line before it gives the same for the relay.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <inttypes.h>
#include <sys/stat.h>
#include <time.h>

#include "bus.h"
#include "bus_apptoken.h"
#include "integration/harness.h"
#include "integration/wsp_echo.h"
#include "bench_relay.h"
#include "bench_wsp.h"

#define BENCH_MB_DEFAULT  1024
#define BENCH_ROUNDS      3
#define BENCH_WS_TRIPS    2000
#define BENCH_WS_SMALL    32
#define BENCH_WS_BLOCK    (64 << 10)
#define BENCH_WS_BULK     (256u << 20)
#define BENCH_STOP_MS     10000
#define BENCH_SESSION     "00000000-0000-4000-8000-000000000001"
#define BENCH_READ_BUFFER (1 << 20)
#define BENCH_HEAD_SIZE   16384
#define BENCH_PATHS       3 //  direct, through the wsproxy, through the bare relay

static char *s_dir;
static harness_proc_t s_wsp;
static wsp_echo_t s_app;
static char s_api[160];
static char s_cookie[256];
static int s_port;

static void
s_die(const char *why)
{
    fprintf(stderr, "bench_wsproxy: %s\n", why);
    if (s_wsp.pid > 0)
        harness_stop(&s_wsp, BENCH_STOP_MS);
    exit(1);
}

static double
s_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static int
s_cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

//  Seconds to download bytes from port (with the cookie, or none).
static double
s_download(int port, const char *cookie, uint64_t bytes)
{
    int fd = wsp_echo_connect(port);
    if (fd < 0)
        s_die("cannot connect for the download");
    char request[1024];
    int n =
        snprintf(request, sizeof request,
                 "GET /fast?n=%" PRIu64 " HTTP/1.1\r\nHost: x\r\n%s%s%s\r\n", bytes,
                 cookie ? "Cookie: " : "", cookie ? cookie : "", cookie ? "\r\n" : "");
    double start = s_now();
    if (wsp_echo_write(fd, request, (size_t) n) != 0)
        s_die("cannot send the download request");
    static char buffer[BENCH_READ_BUFFER];
    wsp_echo_reader_t *r = calloc(1, sizeof *r);
    char head[BENCH_HEAD_SIZE];
    r->fd = fd;
    if (wsp_echo_read_head(r, head, sizeof head) != 0 ||
        strncmp(head, "HTTP/1.1 200", 12))
        s_die("the download was not answered 200");
    uint64_t got = r->len - r->pos;
    while (got < bytes) {
        ssize_t k = read(fd, buffer, sizeof buffer);
        if (k <= 0)
            s_die("the download broke off");
        got += (uint64_t) k;
    }
    double seconds = s_now() - start;
    free(r);
    close(fd);
    return seconds;
}

//  A WebSocket to the app's /ws on port, upgraded. Its reader in *r_p.
static int
s_ws_open(int port, const char *cookie, wsp_echo_reader_t **r_p)
{
    int fd = wsp_echo_connect(port);
    if (fd < 0)
        s_die("cannot connect for the WebSocket");
    char request[1024];
    int n =
        snprintf(request, sizeof request,
                 "GET /ws HTTP/1.1\r\nHost: x\r\n%s%s%sConnection: Upgrade\r\n"
                 "Upgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n",
                 cookie ? "Cookie: " : "", cookie ? cookie : "", cookie ? "\r\n" : "");
    wsp_echo_reader_t *r = calloc(1, sizeof *r);
    char head[BENCH_HEAD_SIZE];
    r->fd = fd;
    if (wsp_echo_write(fd, request, (size_t) n) != 0 ||
        wsp_echo_read_head(r, head, sizeof head) != 0 ||
        strncmp(head, "HTTP/1.1 101", 12))
        s_die("the WebSocket was not upgraded");
    *r_p = r;
    return fd;
}

//  One echo of size bytes. Seconds.
static double
s_ws_trip(int fd, wsp_echo_reader_t *r, const char *message, size_t size)
{
    double start = s_now();
    int opcode = 0;
    unsigned char *echo = NULL;
    size_t len = 0;
    if (wsp_echo_ws_send(fd, 2, message, size, true) != 0 ||
        wsp_echo_ws_recv(r, &opcode, &echo, &len) != 0 || len != size)
        s_die("the echo failed");
    free(echo);
    return s_now() - start;
}

//  p50 and p99 of small round trips (µs) and bulk echo MiB/s on one
//  connection per path (ports[k], cookies[k]: direct, through the route,
//  through the bare relay), used turn about (which goes first changes
//  every trip).
static void
s_ws(const int ports[BENCH_PATHS],
     const char *const cookies[BENCH_PATHS],
     double p50[BENCH_PATHS],
     double p99[BENCH_PATHS],
     double mibps[BENCH_PATHS])
{
    wsp_echo_reader_t *r[BENCH_PATHS];
    int fd[BENCH_PATHS];
    for (int k = 0; k < BENCH_PATHS; k++)
        fd[k] = s_ws_open(ports[k], cookies[k], &r[k]);
    static double trips[BENCH_PATHS][BENCH_WS_TRIPS];
    char small[BENCH_WS_SMALL];
    memset(small, 'x', sizeof small);
    for (int i = 0; i < 100; i++) //  warm up
        for (int k = 0; k < BENCH_PATHS; k++)
            s_ws_trip(fd[k], r[k], small, sizeof small);
    for (int i = 0; i < BENCH_WS_TRIPS; i++)
        for (int j = 0; j < BENCH_PATHS; j++) {
            int k = (i + j) % BENCH_PATHS;
            trips[k][i] = s_ws_trip(fd[k], r[k], small, sizeof small) * 1e6;
        }
    static char block[BENCH_WS_BLOCK];
    double seconds[BENCH_PATHS] = {0};
    for (uint64_t done = 0, i = 0; done < BENCH_WS_BULK; done += BENCH_WS_BLOCK, i++)
        for (int j = 0; j < BENCH_PATHS; j++) {
            int k = (int) ((i + (uint64_t) j) % BENCH_PATHS);
            seconds[k] += s_ws_trip(fd[k], r[k], block, sizeof block);
        }
    for (int k = 0; k < BENCH_PATHS; k++) {
        qsort(trips[k], BENCH_WS_TRIPS, sizeof trips[k][0], s_cmp_double);
        p50[k] = trips[k][BENCH_WS_TRIPS / 2];
        p99[k] = trips[k][BENCH_WS_TRIPS * 99 / 100];
        mibps[k] = (double) BENCH_WS_BULK / (1 << 20) / seconds[k];
        free(r[k]);
        close(fd[k]);
    }
}

//  Starts the wsproxy, opens the route, takes the cookie.
static void
s_setup(void)
{
    s_dir = harness_tmpdir("bench-wsproxy");
    if (!s_dir)
        s_die("no temporary directory");
    char line[HARNESS_LINE_MAX], url[160];
    if (bench_wsp_start(&s_wsp, s_dir, line, sizeof line) != 0 ||
        !harness_field(line, "url", url, sizeof url))
        s_die("the wsproxy did not start");
    snprintf(s_api, sizeof s_api, "%s", url + strlen("http://"));
    bus_apptoken_claims_t claims;
    memset(&claims, 0, sizeof claims);
    snprintf(claims.session_id, sizeof claims.session_id, BENCH_SESSION);
    snprintf(claims.app, sizeof claims.app, "bench");
    claims.protocol = BUS_APPTOKEN_HTTP;
    snprintf(claims.host, sizeof claims.host, "127.0.0.1");
    claims.port = (uint16_t) s_app.port;
    snprintf(claims.user_uuid, sizeof claims.user_uuid, "bench");
    claims.expires = (int64_t) time(NULL) + 60;
    bus_error_t err = {0};
    char *token =
        bus_apptoken_sign(BENCH_WSP_SECRET, strlen(BENCH_WSP_SECRET), &claims, &err);
    char path[2048], *body = NULL;
    snprintf(path, sizeof path, "/v2/proxy/%s/%s/add?app=bench", token ? token : "x",
             BENCH_SESSION);
    free(token);
    if (harness_http(s_api, "GET", path, NULL, &body, 10000) != 200 || !body)
        s_die("the route was not opened");
    json_error_t jerr;
    json_t *doc = json_loads(body, 0, &jerr);
    free(body);
    const char *permit_url = json_string_value(json_object_get(doc, "url"));
    s_port = (int) json_integer_value(json_object_get(doc, "port"));
    if (!permit_url || s_port <= 0)
        s_die("no URL in the answer");
    char request[1024], head[BENCH_HEAD_SIZE];
    snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n",
             strstr(permit_url + 7, "/"));
    json_decref(doc);
    char value[256];
    if (wsp_echo_request(s_port, request, head, sizeof head, NULL, NULL) != 302 ||
        !wsp_echo_header(head, "Set-Cookie", value, sizeof value))
        s_die("no permit cookie");
    snprintf(s_cookie, sizeof s_cookie, "%.*s", (int) strcspn(value, ";"), value);
}

int
main(void)
{
    const char *mb = getenv("BENCH_MB");
    uint64_t bytes = (uint64_t) (mb && *mb ? atoll(mb) : BENCH_MB_DEFAULT) << 20;
    if (bytes == 0 || wsp_echo_start(&s_app) != 0)
        s_die("bad BENCH_MB, or the app did not start");
    s_setup();
    printf("wsproxy bench: %" PRIu64 " MiB download, %d rounds; WebSocket %d round trips "
           "of %d bytes and %u MiB in %d KiB messages; machine shared, ratios from the "
           "same run\n",
           bytes >> 20, BENCH_ROUNDS, BENCH_WS_TRIPS, BENCH_WS_SMALL, BENCH_WS_BULK >> 20,
           BENCH_WS_BLOCK >> 10);
    bench_relay_t relay = {.targets = {s_app.port}, .target_count = 1};
    if (bench_relay_start(&relay) != 0)
        s_die("the bare relay did not start");
    //  [0] direct, [1] through the wsproxy, [2] through the bare relay
    int ports[BENCH_PATHS] = {s_app.port, s_port, relay.port};
    const char *const cookies[BENCH_PATHS] = {NULL, s_cookie, NULL};
    double best[BENCH_PATHS] = {1e9, 1e9, 1e9};
    for (int round = 0; round < BENCH_ROUNDS; round++) {
        double seconds[BENCH_PATHS];
        for (int j = 0; j < BENCH_PATHS; j++) {
            int k = (round + j) % BENCH_PATHS;
            seconds[k] = s_download(ports[k], cookies[k], bytes);
            if (seconds[k] < best[k])
                best[k] = seconds[k];
        }
        printf("  round %d: direct %.0f MiB/s, through the wsproxy %.0f MiB/s, through "
               "the bare relay %.0f MiB/s\n",
               round + 1, (double) (bytes >> 20) / seconds[0],
               (double) (bytes >> 20) / seconds[1], (double) (bytes >> 20) / seconds[2]);
    }
    double p50[BENCH_PATHS], p99[BENCH_PATHS], mibps[BENCH_PATHS];
    s_ws(ports, cookies, p50, p99, mibps);
    bench_relay_stop(&relay);
    printf("http download: direct %.0f MiB/s, through %.0f MiB/s (best of %d)\n",
           (double) (bytes >> 20) / best[0], (double) (bytes >> 20) / best[1],
           BENCH_ROUNDS);
    printf(
        "websocket round trip: direct p50 %.0f us p99 %.0f us, through p50 %.0f us p99 "
        "%.0f us\n",
        p50[0], p99[0], p50[1], p99[1]);
    printf("websocket echo: direct %.0f MiB/s, through %.0f MiB/s\n", mibps[0], mibps[1]);
    int status = harness_stop(&s_wsp, BENCH_STOP_MS);
    wsp_echo_stop(&s_app);
    if (getenv("BENCH_KEEP"))
        fprintf(stderr, "bench_wsproxy: directory kept: %s\n", s_dir);
    else
        harness_rmdir(s_dir);
    free(s_dir);
    printf(
        "reference: a bare splice relay: download %.0f MiB/s, websocket p50 %.0f us, "
        "echo %.0f MiB/s: relay_ratio=%.2f relay_ws_ratio=%.2f relay_added_p50_us=%.0f\n",
        (double) (bytes >> 20) / best[2], p50[2], mibps[2], best[0] / best[2],
        mibps[2] / mibps[0], p50[2] - p50[0]);
    printf("wsproxy: http_ratio=%.2f ws_ratio=%.2f added_p50_us=%.0f\n",
           best[0] / best[1], mibps[1] / mibps[0], p50[1] - p50[0]);
    return status == 0 ? 0 : 1;
}
