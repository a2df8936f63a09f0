/*  =========================================================================
    wsproxy_test - the wsproxy between a browser and an app: the scheduler
    (hub and registry) and the wsproxy binaries, an HTTP and WebSocket app
    in this process (wsp_echo.h), app tokens signed here with
    bus_apptoken as the gateway will sign them.

    /v2 add with a valid token answers a URL on a port of the range; the
    port refuses requests without the permit cookie, exchanges the
    one-time permit for it, then relays: a large streamed body, a chunked
    one, uploads with both framings, keep-alive, a WebSocket echo. Forged,
    expired and misdirected tokens are refused (403), an app that is down
    is a 502, a client that vanishes mid-download leaves nothing open.
    kill -9 and restart: the same URL with the same cookie works.
    wsproxy.close: the port is closed and free.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <sys/stat.h>
#include <time.h>

#include "bus.h"
#include "bus_apptoken.h"
#include "harness.h"
#include "t.h"
#include "wsp_echo.h"

#define READY_MS    20000
#define CALL_MS     10000
#define SECRET      "0123456789abcdef0123456789abcdef"
#define SESSION     "6a3f1c2e-0b9d-4e8f-a1b2-c3d4e5f60718"
#define OTHER       "7b4f1c2e-0b9d-4e8f-a1b2-c3d4e5f60719"
#define USER        "f38dea23-50fa-42a0-b5ae-338f5f4693f4"
#define BIG_BYTES   (48u << 20)
#define PORT_COUNT  20
#define HEAD_SIZE   16384
#define UPLOAD_SIZE (5u << 20)
#define BIG_CHUNK   ((3u << 20) + 7) //  larger than a read and a splice pipe

static char *s_dir;
static harness_proc_t s_sched;
static harness_proc_t s_wsp;
static char s_pub[128], s_sub[128], s_registry[128];
static char s_api[160];    //  host:port of the /v2 API
static char s_health[128]; //  host:port of the node's /metrics
static char s_rpc[160];
static char s_secret_file[600];
static char s_ports[32];
static int s_port_low;
static wsp_echo_t s_app;
static int s_port;         //  the route's port
static char s_cookie[400]; //  "wsp_permit_<port>=<value>"
static char s_url[512];

//  ---------------------------------------------------------------------------

static char *
s_token(const char *session, const char *app, int port, int64_t expires)
{
    bus_apptoken_claims_t claims;
    memset(&claims, 0, sizeof claims);
    snprintf(claims.session_id, sizeof claims.session_id, "%s", session);
    snprintf(claims.app, sizeof claims.app, "%s", app);
    claims.protocol = BUS_APPTOKEN_HTTP;
    snprintf(claims.host, sizeof claims.host, "127.0.0.1");
    claims.port = (uint16_t) port;
    snprintf(claims.access_key, sizeof claims.access_key, "AKIAIOSFODNN7EXAMPLE");
    snprintf(claims.user_uuid, sizeof claims.user_uuid, USER);
    claims.expires = expires;
    bus_error_t err = {0};
    return bus_apptoken_sign(SECRET, strlen(SECRET), &claims, &err);
}

//  GET /v2/proxy/{token}/{session}/add?app=APP: the status, the body.
static int
s_add(const char *token, const char *session, const char *app, char **body_p)
{
    char path[12000];
    snprintf(path, sizeof path, "/v2/proxy/%s/%s/add?app=%s", token, session, app);
    return harness_http_ex(s_api, "GET", path, NULL, NULL, NULL, body_p, NULL, CALL_MS);
}

//  GET path on the route's port with the cookie (NULL: none).
static int
s_get(int port,
      const char *path,
      const char *cookie,
      char *head,
      char **body_p,
      size_t *len)
{
    char request[2048];
    snprintf(request, sizeof request,
             "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%s%s%sConnection: close\r\n\r\n",
             path, port, cookie ? "Cookie: " : "", cookie ? cookie : "",
             cookie ? "\r\n" : "");
    return wsp_echo_request(port, request, head, HEAD_SIZE, body_p, len);
}

static bool
s_pattern_ok(const char *data, size_t n, uint64_t from)
{
    for (size_t i = 0; i < n; i++)
        if ((uint8_t) data[i] != wsp_echo_byte(from + i))
            return false;
    return true;
}

static int
s_start_wsproxy(void)
{
    char state[600], secret[700], ports[64];
    snprintf(state, sizeof state, "node.state_dir=%s/wsproxy", s_dir);
    snprintf(secret, sizeof secret, "wsproxy.token_secret_file=%s", s_secret_file);
    snprintf(ports, sizeof ports, "wsproxy.app_ports=%s", s_ports);
    char pub[160], sub[160], registry[160];
    snprintf(pub, sizeof pub, "bus.hub.publish=%s", s_pub);
    snprintf(sub, sizeof sub, "bus.hub.subscribe=%s", s_sub);
    snprintf(registry, sizeof registry, "bus.hub.registry=%s", s_registry);
    const char *args[] = {"--set", state,
                          "--set", secret,
                          "--set", ports,
                          "--set", "wsproxy.listen=127.0.0.1:0",
                          "--set", pub,
                          "--set", sub,
                          "--set", registry,
                          "--set", "bus.heartbeat_ms=100",
                          "--set", "wsproxy.cron_ms=100",
                          "--set", "log.level=info",
                          NULL};
    if (harness_start(&s_wsp, s_dir, "wsproxy", "wsproxy", args) != 0)
        return -1;
    char line[HARNESS_LINE_MAX], url[160];
    if (!harness_wait_line(&s_wsp, "ready ", READY_MS, line, sizeof line) ||
        !harness_field(line, "url", url, sizeof url) ||
        !harness_field(line, "http", s_health, sizeof s_health) ||
        !harness_field(line, "rpc", s_rpc, sizeof s_rpc) ||
        strncmp(url, "http://", 7) != 0)
        return -1;
    snprintf(s_api, sizeof s_api, "%s", url + 7);
    return 0;
}

//  The value of metric line prefix in the wsproxy's /metrics, or -1.
static long long
s_metric(const char *prefix)
{
    char *body = NULL;
    long long value = -1;
    if (harness_http(s_health, "GET", "/metrics", NULL, &body, CALL_MS) == 200 && body) {
        const char *at = strstr(body, prefix);
        if (at)
            value = strtoll(at + strlen(prefix), NULL, 10);
    }
    free(body);
    return value;
}

//  ---------------------------------------------------------------------------
//  Tests

static void
test_start(void)
{
    s_dir = harness_tmpdir("wsproxy");
    T_ASSERT(s_dir);
    snprintf(s_secret_file, sizeof s_secret_file, "%s/apps.secret", s_dir);
    FILE *file = fopen(s_secret_file, "w");
    T_ASSERT(file);
    fputs(SECRET "\n", file);
    fclose(file);
    chmod(s_secret_file, 0600);
    s_port_low = harness_free_port();
    T_ASSERT(s_port_low > 0 && s_port_low < 65535 - PORT_COUNT);
    snprintf(s_ports, sizeof s_ports, "%d-%d", s_port_low, s_port_low + PORT_COUNT - 1);
    T_EQ_INT(wsp_echo_start(&s_app), 0);

    char state[600], line[HARNESS_LINE_MAX];
    snprintf(state, sizeof state, "node.state_dir=%s/scheduler", s_dir);
    const char *sched_args[] = {"--set", state,
                                "--set", "bus.hub.publish=tcp://127.0.0.1:*",
                                "--set", "bus.hub.subscribe=tcp://127.0.0.1:*",
                                "--set", "bus.hub.registry=tcp://127.0.0.1:*",
                                "--set", "bus.heartbeat_ms=100",
                                NULL};
    T_ASSERT(harness_start(&s_sched, s_dir, "scheduler", "scheduler", sched_args) == 0);
    T_ASSERT(harness_wait_line(&s_sched, "ready ", READY_MS, line, sizeof line));
    T_ASSERT(harness_field(line, "hub_publish", s_pub, sizeof s_pub));
    T_ASSERT(harness_field(line, "hub_subscribe", s_sub, sizeof s_sub));
    T_ASSERT(harness_field(line, "registry", s_registry, sizeof s_registry));
    T_EQ_INT(s_start_wsproxy(), 0);

    char *body = NULL;
    T_EQ_INT(harness_http(s_api, "GET", "/v2/status", NULL, &body, CALL_MS), 200);
    T_CONTAINS(body, "\"api_version\":\"v2\"");
    free(body);
    body = NULL;
    T_EQ_INT(harness_http(s_api, "GET", "/v2/conf", NULL, &body, CALL_MS), 200);
    T_CONTAINS(body, s_ports);
    free(body);
}

static void
test_add_and_permit(void)
{
    char *token = s_token(SESSION, "web", s_app.port, (int64_t) time(NULL) + 60);
    T_ASSERT(token);
    char *body = NULL;
    T_EQ_INT(s_add(token, SESSION, "web", &body), 200);
    json_error_t jerr;
    json_t *doc = json_loads(body, 0, &jerr);
    free(body);
    T_ASSERT(json_is_object(doc));
    T_EQ_INT(json_integer_value(json_object_get(doc, "code")), 200);
    const char *url = json_string_value(json_object_get(doc, "url"));
    T_ASSERT(url && strchr(url, '?')); //  the web UI appends "&redirect=..."
    snprintf(s_url, sizeof s_url, "%s", url);
    s_port = (int) json_integer_value(json_object_get(doc, "port"));
    json_decref(doc);
    T_ASSERT(s_port >= s_port_low && s_port < s_port_low + PORT_COUNT);
    const char *path = strstr(s_url + strlen("http://"), "/");
    T_ASSERT(path);

    //  no cookie: refused
    char head[HEAD_SIZE];
    T_EQ_INT(s_get(s_port, "/headers", NULL, head, &body, NULL), 403);
    T_CONTAINS(body, "permit");
    free(body);
    //  a wrong cookie: refused
    char wrong[128];
    snprintf(wrong, sizeof wrong, "wsp_permit_%d=%064d", s_port, 0);
    T_EQ_INT(s_get(s_port, "/headers", wrong, head, &body, NULL), 403);
    free(body);
    //  the permit: a cookie and a redirect to the root (or redirect=)
    char with_redirect[600];
    snprintf(with_redirect, sizeof with_redirect, "%s&redirect=/tree", path);
    T_EQ_INT(s_get(s_port, with_redirect, NULL, head, &body, NULL), 302);
    free(body);
    T_CONTAINS(head, "Location: /tree\r\n");
    T_CONTAINS(head, "HttpOnly");
    char set_cookie[400];
    T_ASSERT(wsp_echo_header(head, "Set-Cookie", set_cookie, sizeof set_cookie));
    char *semi = strchr(set_cookie, ';');
    T_ASSERT(semi);
    *semi = '\0';
    snprintf(s_cookie, sizeof s_cookie, "%s", set_cookie);
    char prefix[32];
    snprintf(prefix, sizeof prefix, "wsp_permit_%d=", s_port);
    T_ASSERT(strncmp(s_cookie, prefix, strlen(prefix)) == 0);
    //  the permit is one-time: again without the cookie is refused
    T_EQ_INT(s_get(s_port, path, NULL, head, &body, NULL), 403);
    free(body);
    //  with the cookie the same URL still leads in (the web UI opens it twice)
    T_EQ_INT(s_get(s_port, path, s_cookie, head, &body, NULL), 302);
    free(body);
    T_CONTAINS(head, "Location: /\r\n");
    //  an off-site redirect is not followed
    snprintf(with_redirect, sizeof with_redirect, "%s&redirect=//evil.example/", path);
    T_EQ_INT(s_get(s_port, with_redirect, s_cookie, head, &body, NULL), 302);
    free(body);
    T_CONTAINS(head, "Location: /\r\n");

    //  through: Host is the app's, the permit cookie stays with the proxy
    char cookies[512];
    snprintf(cookies, sizeof cookies, "theme=dark; %s", s_cookie);
    T_EQ_INT(s_get(s_port, "/headers", cookies, head, &body, NULL), 200);
    char expect[64];
    snprintf(expect, sizeof expect, "host=127.0.0.1:%d\n", s_app.port);
    T_CONTAINS(body, expect);
    T_CONTAINS(body, "cookie=theme=dark\n");
    T_ASSERT(!strstr(body, "wsp_permit"));
    free(body);

    //  opening it again reuses the route: the same port
    body = NULL;
    T_EQ_INT(s_add(token, SESSION, "web", &body), 200);
    doc = json_loads(body, 0, &jerr);
    free(body);
    T_EQ_INT(json_integer_value(json_object_get(doc, "port")), s_port);
    T_ASSERT(json_is_true(json_object_get(doc, "reuse")));
    json_decref(doc);
    free(token);
}

static void
test_streaming(void)
{
    char head[HEAD_SIZE];
    char *body = NULL;
    size_t len = 0;
    char path[64];
    snprintf(path, sizeof path, "/big?n=%u", BIG_BYTES);
    T_EQ_INT(s_get(s_port, path, s_cookie, head, &body, &len), 200);
    T_EQ_INT(len, BIG_BYTES);
    T_ASSERT(s_pattern_ok(body, len, 0));
    free(body);
    body = NULL;
    T_EQ_INT(s_get(s_port, "/chunked", s_cookie, head, &body, &len), 200);
    T_CONTAINS(head, "Transfer-Encoding: chunked");
    size_t expect =
        (size_t) WSP_ECHO_CHUNK_STEP * WSP_ECHO_CHUNKS * (WSP_ECHO_CHUNKS + 1) / 2;
    T_EQ_INT(len, expect);
    T_ASSERT(s_pattern_ok(body, len, 0));
    free(body);
    //  chunks larger than a read: their data is spliced past the proxy
    body = NULL;
    snprintf(path, sizeof path, "/chunked?n=%u&size=%u", BIG_BYTES, BIG_CHUNK);
    T_EQ_INT(s_get(s_port, path, s_cookie, head, &body, &len), 200);
    T_CONTAINS(head, "Transfer-Encoding: chunked");
    T_EQ_INT(len, BIG_BYTES);
    T_ASSERT(s_pattern_ok(body, len, 0));
    free(body);

    //  keep-alive: three requests on one connection, uploads with both framings
    int fd = wsp_echo_connect(s_port);
    T_ASSERT(fd >= 0);
    wsp_echo_reader_t *r = calloc(1, sizeof *r);
    T_ASSERT(r);
    r->fd = fd;
    char *data = malloc(UPLOAD_SIZE);
    T_ASSERT(data);
    for (size_t i = 0; i < UPLOAD_SIZE; i++)
        data[i] = (char) wsp_echo_byte(i);
    char request[1024];
    int n = snprintf(request, sizeof request,
                     "POST /upload HTTP/1.1\r\nHost: x\r\nCookie: %s\r\n"
                     "Content-Length: %u\r\n\r\n",
                     s_cookie, UPLOAD_SIZE);
    T_EQ_INT(wsp_echo_write(fd, request, (size_t) n), 0);
    T_EQ_INT(wsp_echo_write(fd, data, UPLOAD_SIZE), 0);
    body = NULL;
    T_EQ_INT(wsp_echo_answer(r, head, sizeof head, &body, NULL), 200);
    char count[32];
    snprintf(count, sizeof count, "%u", UPLOAD_SIZE);
    T_EQ_STR(body, count);
    free(body);
    n = snprintf(request, sizeof request,
                 "POST /upload HTTP/1.1\r\nHost: x\r\nCookie: %s\r\n"
                 "Transfer-Encoding: chunked\r\n\r\n",
                 s_cookie);
    T_EQ_INT(wsp_echo_write(fd, request, (size_t) n), 0);
    //  small chunks and ones larger than a read (spliced) in turn
    size_t sent = 0, pieces[2] = {100000, BIG_CHUNK / 2};
    for (int i = 0; sent < UPLOAD_SIZE; i++) {
        size_t piece = pieces[i % 2];
        size_t take = UPLOAD_SIZE - sent < piece ? UPLOAD_SIZE - sent : piece;
        n = snprintf(request, sizeof request, "%zx\r\n", take);
        T_EQ_INT(wsp_echo_write(fd, request, (size_t) n), 0);
        T_EQ_INT(wsp_echo_write(fd, data + sent, take), 0);
        T_EQ_INT(wsp_echo_write(fd, "\r\n", 2), 0);
        sent += take;
    }
    T_EQ_INT(wsp_echo_write(fd, "0\r\n\r\n", 5), 0);
    body = NULL;
    T_EQ_INT(wsp_echo_answer(r, head, sizeof head, &body, NULL), 200);
    T_EQ_STR(body, count);
    free(body);
    n = snprintf(request, sizeof request,
                 "GET /headers HTTP/1.1\r\nHost: x\r\nCookie: %s\r\n\r\n", s_cookie);
    T_EQ_INT(wsp_echo_write(fd, request, (size_t) n), 0);
    body = NULL;
    T_EQ_INT(wsp_echo_answer(r, head, sizeof head, &body, NULL), 200);
    T_CONTAINS(body, "host=127.0.0.1:");
    free(body);
    free(data);
    free(r);
    close(fd);
}

static void
test_websocket(void)
{
    int fd = wsp_echo_connect(s_port);
    T_ASSERT(fd >= 0);
    wsp_echo_reader_t *r = calloc(1, sizeof *r);
    T_ASSERT(r);
    r->fd = fd;
    char request[1024];
    int n = snprintf(request, sizeof request,
                     "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nCookie: %s\r\n"
                     "Connection: Upgrade\r\nUpgrade: websocket\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Protocol: tty\r\nSec-WebSocket-Version: 13\r\n\r\n",
                     s_port, s_cookie);
    T_EQ_INT(wsp_echo_write(fd, request, (size_t) n), 0);
    char head[HEAD_SIZE];
    T_EQ_INT(wsp_echo_read_head(r, head, sizeof head), 0);
    T_ASSERT(strncmp(head, "HTTP/1.1 101", 12) == 0);
    T_CONTAINS(head, "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n");
    T_CONTAINS(head, "Sec-WebSocket-Protocol: tty\r\n");
    //  the large messages grow the proxy's pipes; quiet for a few cron
    //  periods, they shrink (wsp_conn_trim), and the last message grows them
    //  again
    size_t sizes[] = {5, 125, 126, 70000, 1 << 20, 3, (3 << 20) + 1};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (sizes[i] == 3)
            harness_pause_ms(300);
        char *message = malloc(sizes[i]);
        T_ASSERT(message);
        for (size_t j = 0; j < sizes[i]; j++)
            message[j] = (char) wsp_echo_byte(i + j);
        T_EQ_INT(wsp_echo_ws_send(fd, 2, message, sizes[i], true), 0);
        int opcode = 0;
        unsigned char *echo = NULL;
        size_t len = 0;
        T_EQ_INT(wsp_echo_ws_recv(r, &opcode, &echo, &len), 0);
        T_EQ_INT(opcode, 2);
        T_EQ_INT(len, sizes[i]);
        T_ASSERT(memcmp(echo, message, len) == 0);
        free(echo);
        free(message);
    }
    //  a ping is answered by the app through the pipe
    T_EQ_INT(wsp_echo_ws_send(fd, 9, "hi", 2, true), 0);
    int opcode = 0;
    unsigned char *echo = NULL;
    size_t len = 0;
    T_EQ_INT(wsp_echo_ws_recv(r, &opcode, &echo, &len), 0);
    T_EQ_INT(opcode, 10);
    free(echo);
    T_EQ_INT(wsp_echo_ws_send(fd, 8, "", 0, true), 0);
    T_EQ_INT(wsp_echo_ws_recv(r, &opcode, &echo, &len), 0);
    T_EQ_INT(opcode, 8);
    free(echo);
    free(r);
    close(fd);
}

static void
test_refused_tokens(void)
{
    int64_t now = (int64_t) time(NULL);
    char *body = NULL;
    //  forged: one character of the signature changed
    char *token = s_token(SESSION, "web", s_app.port, now + 60);
    T_ASSERT(token);
    size_t len = strlen(token);
    token[len - 2] = token[len - 2] == 'A' ? 'B' : 'A';
    T_EQ_INT(s_add(token, SESSION, "web", &body), 403);
    T_CONTAINS(body, "signature");
    T_CONTAINS(body, "\"status\":403");
    free(body);
    free(token);
    //  signed with another secret
    bus_apptoken_claims_t claims;
    memset(&claims, 0, sizeof claims);
    snprintf(claims.session_id, sizeof claims.session_id, SESSION);
    snprintf(claims.app, sizeof claims.app, "web");
    claims.protocol = BUS_APPTOKEN_HTTP;
    snprintf(claims.host, sizeof claims.host, "127.0.0.1");
    claims.port = (uint16_t) s_app.port;
    snprintf(claims.user_uuid, sizeof claims.user_uuid, "mallory");
    claims.expires = now + 60;
    bus_error_t err = {0};
    static const char other[] = "not-the-secret-but-long-enough!!";
    token = bus_apptoken_sign(other, strlen(other), &claims, &err);
    T_ASSERT(token);
    body = NULL;
    T_EQ_INT(s_add(token, SESSION, "web", &body), 403);
    free(body);
    free(token);
    //  expired
    token = s_token(SESSION, "web", s_app.port, now - 1);
    T_ASSERT(token);
    body = NULL;
    T_EQ_INT(s_add(token, SESSION, "web", &body), 403);
    T_CONTAINS(body, "expired");
    free(body);
    free(token);
    //  for another session, and for another app
    token = s_token(OTHER, "web", s_app.port, now + 60);
    body = NULL;
    T_EQ_INT(s_add(token, SESSION, "web", &body), 403);
    T_CONTAINS(body, "session");
    free(body);
    body = NULL;
    T_EQ_INT(s_add(token, OTHER, "jupyter", &body), 403);
    T_CONTAINS(body, "app");
    free(body);
    free(token);
    //  none of them opened a route
    body = NULL;
    T_EQ_INT(harness_http(s_api, "GET", "/v2/status", NULL, &body, CALL_MS), 200);
    T_CONTAINS(body, "\"routes\":1");
    free(body);
}

static void
test_app_down(void)
{
    int dead = harness_free_port();
    T_ASSERT(dead > 0);
    char *token = s_token(SESSION, "down", dead, (int64_t) time(NULL) + 60);
    char *body = NULL;
    T_EQ_INT(s_add(token, SESSION, "down", &body), 200);
    json_error_t jerr;
    json_t *doc = json_loads(body, 0, &jerr);
    free(body);
    free(token);
    const char *url = json_string_value(json_object_get(doc, "url"));
    T_ASSERT(url);
    int port = (int) json_integer_value(json_object_get(doc, "port"));
    T_ASSERT(port != s_port);
    char path[512];
    snprintf(path, sizeof path, "%s", strstr(url + 7, "/"));
    json_decref(doc);
    char head[HEAD_SIZE], cookie[256], set_cookie[256];
    body = NULL;
    T_EQ_INT(s_get(port, path, NULL, head, &body, NULL), 302);
    free(body);
    T_ASSERT(wsp_echo_header(head, "Set-Cookie", set_cookie, sizeof set_cookie));
    snprintf(cookie, sizeof cookie, "%.*s", (int) strcspn(set_cookie, ";"), set_cookie);
    body = NULL;
    T_EQ_INT(s_get(port, "/", cookie, head, &body, NULL), 502);
    T_CONTAINS(head, "application/problem+json");
    T_CONTAINS(body, "cannot be reached");
    T_CONTAINS(body, "Connection refused");
    free(body);
    //  the other route's cookie does not open this one
    body = NULL;
    T_EQ_INT(s_get(port, "/", s_cookie, head, &body, NULL), 403);
    free(body);
}

//  The wsproxy's resident memory in KiB, or -1.
static long
s_rss_kib(void)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int) s_wsp.pid);
    FILE *file = fopen(path, "r");
    long kib = -1;
    while (file && fgets(line, sizeof line, file))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kib = strtol(line + 6, NULL, 10);
    if (file)
        fclose(file);
    return kib;
}

static void
test_client_vanishes(void)
{
    long rss_before = s_rss_kib();
    T_ASSERT(rss_before > 0);
    //  a client that reads 1 MiB of a large download and goes
    int fd = wsp_echo_connect(s_port);
    T_ASSERT(fd >= 0);
    char request[512];
    int n = snprintf(request, sizeof request,
                     "GET /big?n=%u HTTP/1.1\r\nHost: x\r\nCookie: %s\r\n\r\n", 1u << 30,
                     s_cookie);
    T_EQ_INT(wsp_echo_write(fd, request, (size_t) n), 0);
    char *buffer = malloc(1 << 20);
    T_ASSERT(buffer);
    size_t got = 0;
    while (got < (1u << 20)) {
        ssize_t r = read(fd, buffer, 1 << 20);
        T_ASSERT(r > 0);
        got += (size_t) r;
    }
    //  a slow reader meanwhile: the proxy holds a bounded amount (the app
    //  would send the whole GiB in this time)
    harness_pause_ms(500);
    long rss_during = s_rss_kib();
    T_ASSERT(rss_during > 0);
    if (rss_during - rss_before > 32 * 1024)
        T_FAIL_("the wsproxy grew %ld KiB behind a slow reader", rss_during - rss_before);
    close(fd);
    free(buffer);
    //  the proxy goes on, and the connection is gone
    char head[HEAD_SIZE];
    char *body = NULL;
    T_EQ_INT(s_get(s_port, "/headers", s_cookie, head, &body, NULL), 200);
    free(body);
    long long conns = -1;
    for (int i = 0; i < 100; i++) {
        conns = s_metric("backplane_wsproxy_app_connections{app=\"web\"} ");
        if (conns == 0)
            break;
        harness_pause_ms(50);
    }
    T_EQ_INT(conns, 0);
    T_ASSERT(
        s_metric("backplane_wsproxy_app_bytes_total{app=\"web\",direction=\"out\"} ") >
        (long long) BIG_BYTES);
}

static void
test_restart(void)
{
    harness_kill(&s_wsp);
    T_EQ_INT(s_start_wsproxy(), 0);
    char head[HEAD_SIZE];
    char *body = NULL;
    //  the same URL (its permit used, the cookie held) and the same cookie
    const char *path = strstr(s_url + 7, "/");
    T_EQ_INT(s_get(s_port, path, s_cookie, head, &body, NULL), 302);
    free(body);
    body = NULL;
    T_EQ_INT(s_get(s_port, "/headers", s_cookie, head, &body, NULL), 200);
    T_CONTAINS(body, "host=127.0.0.1:");
    free(body);
    body = NULL;
    T_EQ_INT(s_get(s_port, "/headers", NULL, head, &body, NULL), 403);
    free(body);
}

static void
test_close(void)
{
    //  an open WebSocket on the route goes with it
    int fd = wsp_echo_connect(s_port);
    T_ASSERT(fd >= 0);
    char request[1024];
    int n =
        snprintf(request, sizeof request,
                 "GET /ws HTTP/1.1\r\nHost: x\r\nCookie: %s\r\nConnection: Upgrade\r\n"
                 "Upgrade: websocket\r\nSec-WebSocket-Key: a2V5a2V5a2V5a2V5a2V5a2V5\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n",
                 s_cookie);
    T_EQ_INT(wsp_echo_write(fd, request, (size_t) n), 0);
    wsp_echo_reader_t *r = calloc(1, sizeof *r);
    T_ASSERT(r);
    r->fd = fd;
    char head[HEAD_SIZE];
    T_EQ_INT(wsp_echo_read_head(r, head, sizeof head), 0);
    T_ASSERT(strncmp(head, "HTTP/1.1 101", 12) == 0);

    bus_rpc_client_t *client = bus_rpc_client_new(s_rpc, "test/wsproxy", NULL);
    T_ASSERT(client);
    proto_wsproxy_close_req_t in;
    proto_wsproxy_close_req_init(&in);
    in.session_id = SESSION;
    bus_writer_t *w = bus_writer_new();
    T_ASSERT(w && proto_wsproxy_close_req_write(&in, w) == 0);
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    int rc = bus_rpc_client_call_sync(client, PROTO_WSPROXY_CLOSE, bus_writer_data(w),
                                      bus_writer_size(w), CALL_MS, &reply, &err);
    bus_writer_destroy(&w);
    T_EQ_INT(rc, BUS_OK);
    proto_wsproxy_close_rep_t out;
    T_EQ_INT(proto_wsproxy_close_rep_decode(&out, zchunk_data(reply), zchunk_size(reply),
                                            &err),
             BUS_OK);
    zchunk_destroy(&reply);
    bus_rpc_client_destroy(&client);
    T_EQ_INT(out.routes, 2); //  web and down
    T_EQ_INT(out.connections, 1);
    proto_wsproxy_close_rep_clear(&out);
    //  the WebSocket is closed at once
    char byte;
    T_ASSERT(read(fd, &byte, 1) <= 0);
    free(r);
    close(fd);
    //  the port refuses connections and is free to bind
    T_EQ_INT(wsp_echo_connect(s_port), -1);
    int probe = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET,
                               .sin_port = htons((uint16_t) s_port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    T_EQ_INT(bind(probe, (struct sockaddr *) &addr, sizeof addr), 0);
    close(probe);
    char *body = NULL;
    T_EQ_INT(harness_http(s_api, "GET", "/v2/status", NULL, &body, CALL_MS), 200);
    T_CONTAINS(body, "\"routes\":0");
    free(body);
}

//  ---------------------------------------------------------------------------
//  A model service's endpoint: replicas behind one port, tokens, balance

#define ENDPOINT     "2c0a6f1e-7d3b-4b8e-9f10-3a5b7c9d1e2f"
#define ENDPOINT_BAD "3d1b7f2e-8e4c-4c9f-8a21-4b6c8dae2f30"

static wsp_echo_t s_app2;

static char *
s_endpoint_token(const char *endpoint, int64_t expires)
{
    bus_apptoken_endpoint_t claims;
    memset(&claims, 0, sizeof claims);
    snprintf(claims.endpoint_id, sizeof claims.endpoint_id, "%s", endpoint);
    snprintf(claims.user_uuid, sizeof claims.user_uuid, USER);
    claims.expires = expires;
    bus_error_t err = {0};
    return bus_apptoken_endpoint_sign(SECRET, strlen(SECRET), &claims, &err);
}

//  wsproxy.endpoint.set with up to two replicas (port 0: left out). The
//  status; *port_p the endpoint's port.
static int
s_endpoint_set(bool open, int port1, double ratio1, int port2, double ratio2, int *port_p)
{
    proto_wsproxy_target_t targets[2];
    size_t count = 0;
    int ports[2] = {port1, port2};
    double ratios[2] = {ratio1, ratio2};
    static const char *const ids[2] = {"route-one", "route-two"};
    for (int i = 0; i < 2; i++)
        if (ports[i]) {
            proto_wsproxy_target_init(&targets[count]);
            targets[count].route_id = ids[i];
            targets[count].host = "127.0.0.1";
            targets[count].port = (uint64_t) ports[i];
            targets[count].traffic_ratio = ratios[i];
            count++;
        }
    proto_wsproxy_endpoint_set_req_t in;
    proto_wsproxy_endpoint_set_req_init(&in);
    in.endpoint_id = ENDPOINT;
    in.name = "llm-svc";
    in.open_to_public = open;
    in.targets = targets;
    in.targets_count = count;
    bus_error_t err = {0};
    bus_writer_t *w = proto_wsproxy_endpoint_set_req_writer(&in, &err);
    if (!w)
        return err.status;
    bus_rpc_client_t *client = bus_rpc_client_new(s_rpc, "test/wsproxy", NULL);
    zchunk_t *reply = NULL;
    int rc =
        bus_rpc_client_call_sync(client, PROTO_WSPROXY_ENDPOINT_SET, bus_writer_data(w),
                                 bus_writer_size(w), CALL_MS, &reply, &err);
    bus_writer_destroy(&w);
    bus_rpc_client_destroy(&client);
    proto_wsproxy_endpoint_set_rep_t out;
    if (rc == BUS_OK &&
        proto_wsproxy_endpoint_set_rep_decode(&out, zchunk_data(reply),
                                              zchunk_size(reply), &err) == BUS_OK) {
        //  the URL names the port
        char expected[64];
        snprintf(expected, sizeof expected, "http://127.0.0.1:%d", (int) out.port);
        if (strcmp(out.url, expected) != 0)
            rc = BUS_STATUS_PROTOCOL;
        *port_p = (int) out.port;
        proto_wsproxy_endpoint_set_rep_clear(&out);
    } else if (rc == BUS_OK)
        rc = BUS_STATUS_PROTOCOL;
    zchunk_destroy(&reply);
    return rc;
}

//  GET /headers on the endpoint with an Authorization header (NULL: none):
//  the status; *which 1 or 2 for the replica that answered, else 0.
static int
s_endpoint_get(int port, const char *authorization, int *which)
{
    char request[4096], head[HEAD_SIZE];
    snprintf(
        request, sizeof request,
        "GET /headers HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%s%s%sConnection: close\r\n\r\n",
        port, authorization ? "Authorization: " : "", authorization ? authorization : "",
        authorization ? "\r\n" : "");
    char *body = NULL;
    int status = wsp_echo_request(port, request, head, sizeof head, &body, NULL);
    char one[64], two[64];
    snprintf(one, sizeof one, "host=127.0.0.1:%d\n", s_app.port);
    snprintf(two, sizeof two, "host=127.0.0.1:%d\n", s_app2.port);
    *which = body && strstr(body, one) ? 1 : body && strstr(body, two) ? 2 : 0;
    free(body);
    return status;
}

//  n requests with auth: how many each replica answered (all must be 200).
static void
s_endpoint_spread(int port, const char *auth, int n, int *first, int *second)
{
    *first = *second = 0;
    for (int i = 0; i < n; i++) {
        int which = 0;
        T_EQ_INT(s_endpoint_get(port, auth, &which), 200);
        *first += which == 1;
        *second += which == 2;
    }
}

//  40 requests on one keep-alive connection: both replicas answer (runs of
//  requests stay on one, WSP_ENDPOINT_AFFINITY), each over one connection
//  of the wsproxy's kept for it (parked while the other answers), not a new
//  one per change of replica; neither sees the endpoint's token.
static void
s_endpoint_keep_alive(int port, const char *auth)
{
    int before[2] = {__atomic_load_n(&s_app.accepted, __ATOMIC_RELAXED),
                     __atomic_load_n(&s_app2.accepted, __ATOMIC_RELAXED)};
    int fd = wsp_echo_connect(port);
    T_ASSERT(fd >= 0);
    wsp_echo_reader_t *r = calloc(1, sizeof *r);
    T_ASSERT(r);
    r->fd = fd;
    int answered[2] = {0, 0};
    char one[64], two[64], request[4096], head[HEAD_SIZE], length[32], body[2048];
    snprintf(one, sizeof one, "host=127.0.0.1:%d\n", s_app.port);
    snprintf(two, sizeof two, "host=127.0.0.1:%d\n", s_app2.port);
    int n = snprintf(request, sizeof request,
                     "GET /headers HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: %s"
                     "\r\n\r\n",
                     port, auth);
    for (int i = 0; i < 40; i++) {
        T_EQ_INT(wsp_echo_write(fd, request, (size_t) n), 0);
        T_EQ_INT(wsp_echo_read_head(r, head, sizeof head), 0);
        T_ASSERT(strncmp(head, "HTTP/1.1 200", 12) == 0 &&
                 wsp_echo_header(head, "Content-Length", length, sizeof length));
        size_t size = (size_t) atol(length);
        T_ASSERT(size < sizeof body);
        T_EQ_INT(wsp_echo_read_exact(r, body, size), 0);
        body[size < sizeof body ? size : 0] = '\0';
        answered[0] += strstr(body, one) != NULL;
        answered[1] += strstr(body, two) != NULL;
        //  the endpoint's token stays with the wsproxy
        T_CONTAINS(body, "\nauthorization=\n");
    }
    free(r);
    close(fd);
    fprintf(stderr, "# keep-alive 1:1 -> %d and %d of 40, over %d and %d connections\n",
            answered[0], answered[1], s_app.accepted - before[0],
            s_app2.accepted - before[1]);
    T_ASSERT(answered[0] > 0 && answered[1] > 0 && answered[0] + answered[1] == 40);
    T_EQ_INT(__atomic_load_n(&s_app.accepted, __ATOMIC_RELAXED) - before[0], 1);
    T_EQ_INT(__atomic_load_n(&s_app2.accepted, __ATOMIC_RELAXED) - before[1], 1);
}

static void
test_endpoints(void)
{
    T_EQ_INT(wsp_echo_start(&s_app2), 0);
    int port = 0, first = 0, second = 0, which = 0;
    T_EQ_INT(s_endpoint_set(false, s_app.port, 1, s_app2.port, 1, &port), BUS_OK);
    T_ASSERT(port >= s_port_low && port < s_port_low + PORT_COUNT);

    //  the token: none is 401; forged, an app's, another endpoint's, expired: 403
    char *token = s_endpoint_token(ENDPOINT, (int64_t) time(NULL) + 600);
    char *other = s_endpoint_token(ENDPOINT_BAD, (int64_t) time(NULL) + 600);
    char *expired = s_endpoint_token(ENDPOINT, (int64_t) time(NULL) - 1);
    char *app = s_token(SESSION, "web", s_app.port, (int64_t) time(NULL) + 600);
    T_ASSERT(token && other && expired && app);
    char auth[2048], bad[2048];
    snprintf(auth, sizeof auth, "BackendAI %s", token);
    T_EQ_INT(s_endpoint_get(port, NULL, &which), 401);
    T_EQ_INT(s_endpoint_get(port, "Bearer not-a-token", &which), 403);
    const char *refused[] = {other, expired, app};
    for (size_t i = 0; i < 3; i++) {
        snprintf(bad, sizeof bad, "Bearer %s", refused[i]);
        T_EQ_INT(s_endpoint_get(port, bad, &which), 403);
    }
    snprintf(bad, sizeof bad, "Bearer %s", token);
    T_EQ_INT(s_endpoint_get(port, bad, &which), 200); //  either scheme

    //  CORS: the preflight is answered without a token; answers name the origin
    char request[4096], head[HEAD_SIZE];
    const char *origin = "http://ui.example:8090";
    snprintf(request, sizeof request,
             "OPTIONS /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
             "Origin: %s\r\nAccess-Control-Request-Method: POST\r\n"
             "Access-Control-Request-Headers: authorization, content-type\r\n\r\n",
             port, origin);
    T_EQ_INT(wsp_echo_request(port, request, head, sizeof head, NULL, NULL), 204);
    T_ASSERT(strstr(head, "Access-Control-Allow-Origin: http://ui.example:8090\r\n"));
    T_ASSERT(strstr(head, "Access-Control-Allow-Methods: ") && strstr(head, "POST"));
    T_ASSERT(
        strstr(head, "Access-Control-Allow-Headers: Authorization, Content-Type\r\n"));
    T_ASSERT(strstr(head, "Access-Control-Max-Age: "));
    for (int authorized = 0; authorized < 2; authorized++) {
        snprintf(request, sizeof request,
                 "GET /headers HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nOrigin: %s\r\n%s%s%s"
                 "Connection: close\r\n\r\n",
                 port, origin, authorized ? "Authorization: " : "",
                 authorized ? auth : "", authorized ? "\r\n" : "");
        char *body = NULL;
        T_EQ_INT(wsp_echo_request(port, request, head, sizeof head, &body, NULL),
                 authorized ? 200 : 401);
        T_ASSERT(strstr(head, "Access-Control-Allow-Origin: http://ui.example:8090\r\n"));
        T_ASSERT(strstr(head, "Vary: Origin\r\n"));
        T_ASSERT(body && (!authorized || strstr(body, "host=127.0.0.1:")));
        free(body);
    }
    //  without an Origin, no CORS header reaches the client
    snprintf(request, sizeof request,
             "GET /headers HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: %s\r\n"
             "Connection: close\r\n\r\n",
             port, auth);
    T_EQ_INT(wsp_echo_request(port, request, head, sizeof head, NULL, NULL), 200);
    T_ASSERT(!strstr(head, "Access-Control-Allow-Origin"));

    //  both replicas answer; a ratio of 0 takes one out
    s_endpoint_spread(port, auth, 40, &first, &second);
    fprintf(stderr, "# 1:1 -> %d and %d of 40\n", first, second);
    T_ASSERT(first + second == 40);
    //  a connection each: every one goes to the replica owed most
    T_EQ_INT(first, 20);
    s_endpoint_keep_alive(port, auth);
    int same = 0;
    T_EQ_INT(s_endpoint_set(false, s_app.port, 1, s_app2.port, 0, &same), BUS_OK);
    T_EQ_INT(same, port); //  the URL stays
    s_endpoint_spread(port, auth, 20, &first, &second);
    T_EQ_INT(first, 20);

    //  a replica that cannot be reached: every request goes to the other
    int dead_fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t addr_len = sizeof addr;
    T_ASSERT(bind(dead_fd, (struct sockaddr *) &addr, addr_len) == 0 &&
             getsockname(dead_fd, (struct sockaddr *) &addr, &addr_len) == 0);
    int dead = ntohs(addr.sin_port);
    close(dead_fd); //  nothing listens there
    T_EQ_INT(s_endpoint_set(false, dead, 1, s_app2.port, 1, &same), BUS_OK);
    s_endpoint_spread(port, auth, 20, &first, &second);
    T_EQ_INT(second, 20);

    //  open to the public: no token needed
    T_EQ_INT(s_endpoint_set(true, s_app.port, 1, 0, 0, &same), BUS_OK);
    T_EQ_INT(s_endpoint_get(port, NULL, &which), 200);
    T_EQ_INT(which, 1);

    //  kill -9 and restart: the same port, the same replicas
    T_EQ_INT(s_endpoint_set(false, s_app.port, 1, s_app2.port, 1, &same), BUS_OK);
    harness_kill(&s_wsp);
    T_EQ_INT(s_start_wsproxy(), 0);
    s_endpoint_spread(port, auth, 20, &first, &second);
    T_ASSERT(first > 0 && second > 0);
    T_EQ_INT(s_endpoint_get(port, NULL, &which), 401);

    //  no healthy replica: 503; removed: the port is closed
    T_EQ_INT(s_endpoint_set(false, 0, 0, 0, 0, &same), BUS_OK);
    T_EQ_INT(s_endpoint_get(port, auth, &which), 503);
    proto_wsproxy_endpoint_remove_req_t in;
    proto_wsproxy_endpoint_remove_req_init(&in);
    in.endpoint_id = ENDPOINT;
    bus_error_t err = {0};
    bus_writer_t *w = proto_wsproxy_endpoint_remove_req_writer(&in, &err);
    bus_rpc_client_t *client = bus_rpc_client_new(s_rpc, "test/wsproxy", NULL);
    zchunk_t *reply = NULL;
    T_EQ_INT(bus_rpc_client_call_sync(client, PROTO_WSPROXY_ENDPOINT_REMOVE,
                                      bus_writer_data(w), bus_writer_size(w), CALL_MS,
                                      &reply, &err),
             BUS_OK);
    proto_wsproxy_endpoint_remove_rep_t out;
    T_EQ_INT(proto_wsproxy_endpoint_remove_rep_decode(&out, zchunk_data(reply),
                                                      zchunk_size(reply), &err),
             BUS_OK);
    T_ASSERT(out.removed);
    proto_wsproxy_endpoint_remove_rep_clear(&out);
    zchunk_destroy(&reply);
    bus_writer_destroy(&w);
    bus_rpc_client_destroy(&client);
    T_EQ_INT(wsp_echo_connect(port), -1);
    free(token);
    free(other);
    free(expired);
    free(app);
}

int
main(void)
{
    T_RUN(test_start);
    T_RUN(test_add_and_permit);
    T_RUN(test_streaming);
    T_RUN(test_websocket);
    T_RUN(test_refused_tokens);
    T_RUN(test_app_down);
    T_RUN(test_client_vanishes);
    T_RUN(test_restart);
    T_RUN(test_close);
    T_RUN(test_endpoints);
    bool clean = true;
    if (s_wsp.pid > 0 &&
        (harness_stop(&s_wsp, 10000) != 0 || harness_log_has_report(&s_wsp))) {
        fprintf(stderr, "# the wsproxy did not stop cleanly (log: %s)\n", s_wsp.log_path);
        clean = false;
    }
    if (s_sched.pid > 0 &&
        (harness_stop(&s_sched, 10000) != 0 || harness_log_has_report(&s_sched))) {
        fprintf(stderr, "# the scheduler did not stop cleanly (log: %s)\n",
                s_sched.log_path);
        clean = false;
    }
    if (s_app.listener > 0)
        wsp_echo_stop(&s_app);
    if (s_app2.listener > 0)
        wsp_echo_stop(&s_app2);
    if (s_dir) {
        if (t_failures == 0 && clean && !getenv("BACKPLANE_KEEP"))
            harness_rmdir(s_dir);
        else
            fprintf(stderr, "# state kept in %s\n", s_dir);
        free(s_dir);
    }
    return clean ? T_DONE() : 1;
}
