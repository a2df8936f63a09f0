/*  =========================================================================
    wsproxy_tls_test - the wsproxy with wsproxy.tls_cert: its API and every
    app port serve TLS, the app's side stays plain TCP

    The scheduler (hub and registry) and the wsproxy binaries, a self-signed
    certificate made with the openssl command, the HTTP and WebSocket app of
    wsp_echo.h in this process and app tokens signed here (as
    wsproxy_test). The client's TLS runs in a thread per connection that
    bridges a socketpair to the TLS socket, so wsp_echo's blocking client
    helpers speak through it unchanged.

    A certificate or key that does not load stops the start with both file
    names. /v2/status and /v2/conf over HTTPS (curl --cacert) say https://;
    the add answers an https:// URL; curl follows it (permit, Secure cookie,
    redirect) to the app; then, over TLS: keep-alive requests, a large
    download with Content-Length and a chunked one, an upload, a WebSocket
    echo up to 3 MiB, a tcp route relaying raw bytes and passing the app's
    close on; an endpoint's URL (wsproxy.endpoint.set) says https://.
    Plaintext on the API and on an app port gets no answer and the wsproxy
    serves on.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <time.h>

#include "bus.h"
#include "bus_apptoken.h"
#include "harness.h"
#include "t.h"
#include "wsp_echo.h"

#define READY_MS   20000
#define EXIT_MS    10000
#define CALL_MS    10000
#define SECRET     "0123456789abcdef0123456789abcdef"
#define SESSION    "6a3f1c2e-0b9d-4e8f-a1b2-c3d4e5f60718"
#define USER       "f38dea23-50fa-42a0-b5ae-338f5f4693f4"
#define ENDPOINT   "0b1c2d3e-4f50-4617-8899-aabbccddeeff"
#define PORT_COUNT 10
#define HEAD_SIZE  16384
#define BIG_BYTES  (8u << 20)
#define UPLOAD     (3u << 20)
#define PAIR_BUF   (4 << 20)

static char *s_dir;
static harness_proc_t s_sched;
static harness_proc_t s_wsp;
static char s_pub[128], s_sub[128], s_registry[128];
static char s_api[160]; //  host:port of the /v2 API
static char s_rpc[160];
static char s_secret_file[600];
static char s_cert[600], s_key[600];
static char s_ports[32];
static wsp_echo_t s_app;
static SSL_CTX *s_client_ctx;
static int s_port;         //  the http route's port
static char s_cookie[400]; //  "wsp_permit_<port>=<value>"

//  ---------------------------------------------------------------------------
//  The client's TLS: a thread bridging a socketpair to a TLS connection

typedef struct {
    int inner; //  the thread's end of the socketpair
    int fd;    //  the TLS socket
    SSL *ssl;
    pthread_t thread;
} tunnel_t;

static int
s_write_all(int fd, const char *data, size_t n)
{
    while (n > 0) {
        ssize_t done = write(fd, data, n);
        if (done <= 0)
            return -1;
        data += done;
        n -= (size_t) done;
    }
    return 0;
}

static void *
s_tunnel_run(void *arg)
{
    tunnel_t *t = arg;
    char *buf = malloc(65536);
    while (buf) {
        if (SSL_pending(t->ssl) == 0) {
            struct pollfd p[2] = {{t->inner, POLLIN, 0}, {t->fd, POLLIN, 0}};
            if (poll(p, 2, -1) < 0)
                break;
            if (p[0].revents) {
                ssize_t n = read(t->inner, buf, 65536);
                if (n <= 0)
                    break; //  the test closed its end
                size_t at = 0;
                while (at < (size_t) n) {
                    int done = SSL_write(t->ssl, buf + at, (int) ((size_t) n - at));
                    if (done <= 0)
                        goto end;
                    at += (size_t) done;
                }
                continue;
            }
            if (!p[1].revents)
                continue;
        }
        //  AUTO_RETRY is off: a record that carries no data (a session
        //  ticket) returns here instead of blocking for the next one
        int n = SSL_read(t->ssl, buf, 65536);
        if (n <= 0) {
            if (SSL_get_error(t->ssl, n) == SSL_ERROR_WANT_READ)
                continue;
            break; //  the end (close_notify or the socket's)
        }
        if (s_write_all(t->inner, buf, (size_t) n) != 0)
            break;
    }
end:
    free(buf);
    shutdown(t->inner, SHUT_RDWR);
    return NULL;
}

//  A TLS connection to 127.0.0.1:port, the certificate checked against the
//  test's CA (the certificate itself) and the address; returns the test's
//  plain end (a blocking socket), or -1.
static int
s_tls_connect(int port, tunnel_t *t)
{
    memset(t, 0, sizeof *t);
    t->fd = wsp_echo_connect(port);
    if (t->fd < 0)
        return -1;
    t->ssl = SSL_new(s_client_ctx);
    int pair[2];
    if (!t->ssl ||
        X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(t->ssl), "127.0.0.1") != 1 ||
        SSL_set_fd(t->ssl, t->fd) != 1 || SSL_connect(t->ssl) != 1 ||
        socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) {
        SSL_free(t->ssl);
        close(t->fd);
        return -1;
    }
    int size = PAIR_BUF;
    for (int i = 0; i < 2; i++) {
        setsockopt(pair[i], SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
        setsockopt(pair[i], SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    }
    struct timeval timeout = {30, 0};
    setsockopt(pair[0], SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    t->inner = pair[1];
    if (pthread_create(&t->thread, NULL, s_tunnel_run, t) != 0) {
        close(pair[0]);
        close(pair[1]);
        SSL_free(t->ssl);
        close(t->fd);
        return -1;
    }
    return pair[0];
}

//  Closes the test's end fd and the tunnel.
static void
s_tls_close(int fd, tunnel_t *t)
{
    shutdown(fd, SHUT_RDWR);
    pthread_join(t->thread, NULL);
    close(fd);
    close(t->inner);
    SSL_shutdown(t->ssl);
    SSL_free(t->ssl);
    close(t->fd);
}

//  One request over a new TLS connection: as wsp_echo_request.
static int
s_tls_request(int port, const char *text, char *head, char **body_p, size_t *len)
{
    tunnel_t t;
    int fd = s_tls_connect(port, &t);
    if (fd < 0)
        return -1;
    wsp_echo_reader_t *r = calloc(1, sizeof *r);
    int status = -1;
    if (r && wsp_echo_write(fd, text, strlen(text)) == 0) {
        r->fd = fd;
        status = wsp_echo_answer(r, head, HEAD_SIZE, body_p, len);
    }
    free(r);
    s_tls_close(fd, &t);
    return status;
}

//  ---------------------------------------------------------------------------

static char *
s_token(const char *app, bus_apptoken_protocol_t protocol)
{
    bus_apptoken_claims_t claims;
    memset(&claims, 0, sizeof claims);
    snprintf(claims.session_id, sizeof claims.session_id, SESSION);
    snprintf(claims.app, sizeof claims.app, "%s", app);
    claims.protocol = protocol;
    snprintf(claims.host, sizeof claims.host, "127.0.0.1");
    claims.port = (uint16_t) s_app.port;
    snprintf(claims.access_key, sizeof claims.access_key, "AKIAIOSFODNN7EXAMPLE");
    snprintf(claims.user_uuid, sizeof claims.user_uuid, USER);
    claims.expires = (int64_t) time(NULL) + 60;
    bus_error_t err = {0};
    return bus_apptoken_sign(SECRET, strlen(SECRET), &claims, &err);
}

//  Runs command; its first line of output into out (size bytes) and its
//  exit status.
static int
s_shell(const char *command, char *out, size_t size)
{
    FILE *pipe = popen(command, "r");
    if (!pipe)
        return -1;
    size_t used = fread(out, 1, size - 1, pipe);
    out[used] = '\0';
    return pclose(pipe);
}

//  curl over HTTPS with the test's CA: the body into out.
static int
s_curl(const char *url, const char *extra, char *out, size_t size)
{
    char command[2048];
    snprintf(command, sizeof command, "curl -sS -m 10 --cacert %s %s '%s' 2>&1", s_cert,
             extra ? extra : "", url);
    return s_shell(command, out, size);
}

//  /v2/proxy/{token}/{session}/add for app over HTTPS: the answer's url and
//  port. 0 or -1.
static int
s_add(
    const char *app, bus_apptoken_protocol_t protocol, char *url, size_t size, int *port)
{
    char *token = s_token(app, protocol);
    char request[4096], body[4096];
    snprintf(request, sizeof request, "https://%s/v2/proxy/%s/%s/add?app=%s", s_api,
             token, SESSION, app);
    free(token);
    if (s_curl(request, NULL, body, sizeof body) != 0)
        return -1;
    json_error_t jerr;
    json_t *doc = json_loads(body, 0, &jerr);
    const char *value = json_string_value(json_object_get(doc, "url"));
    int rc = value ? 0 : -1;
    if (value)
        snprintf(url, size, "%s", value);
    *port = (int) json_integer_value(json_object_get(doc, "port"));
    json_decref(doc);
    return rc;
}

static bool
s_log_contains(const harness_proc_t *proc, const char *needle)
{
    FILE *log = fopen(proc->log_path, "r");
    char line[HARNESS_LINE_MAX];
    bool found = false;
    while (log && !found && fgets(line, sizeof line, log))
        found = strstr(line, needle) != NULL;
    if (log)
        fclose(log);
    return found;
}

//  Starts the wsproxy (name for its log) with cert and key; waits for its
//  ready line (ready) or its exit. 0, or the exit status.
static int
s_start_wsproxy(const char *name, const char *cert, const char *key, bool ready)
{
    char state[600], secret[700], ports[64], tls_cert[700], tls_key[700];
    snprintf(state, sizeof state, "node.state_dir=%s/%s", s_dir, name);
    snprintf(secret, sizeof secret, "wsproxy.token_secret_file=%s", s_secret_file);
    snprintf(ports, sizeof ports, "wsproxy.app_ports=%s", s_ports);
    snprintf(tls_cert, sizeof tls_cert, "wsproxy.tls_cert=%s", cert);
    snprintf(tls_key, sizeof tls_key, "wsproxy.tls_key=%s", key);
    char pub[160], sub[160], registry[160];
    snprintf(pub, sizeof pub, "bus.hub.publish=%s", s_pub);
    snprintf(sub, sizeof sub, "bus.hub.subscribe=%s", s_sub);
    snprintf(registry, sizeof registry, "bus.hub.registry=%s", s_registry);
    const char *args[] = {"--set", state,
                          "--set", secret,
                          "--set", ports,
                          "--set", tls_cert,
                          "--set", tls_key,
                          "--set", "wsproxy.listen=127.0.0.1:0",
                          "--set", pub,
                          "--set", sub,
                          "--set", registry,
                          "--set", "bus.heartbeat_ms=100",
                          "--set", "log.level=info",
                          NULL};
    harness_proc_t proc;
    if (harness_start(ready ? &s_wsp : &proc, s_dir, name, "wsproxy", args) != 0)
        return -1;
    if (!ready) {
        //  A line that never comes: this waits for the process to exit.
        harness_wait_line(&proc, "\x01never", EXIT_MS, NULL, 0);
        int status = harness_stop(&proc, EXIT_MS);
        if (!s_log_contains(&proc, cert) || !s_log_contains(&proc, "wsproxy.tls_cert"))
            return -1;
        return status;
    }
    char line[HARNESS_LINE_MAX], url[160];
    if (!harness_wait_line(&s_wsp, "ready ", READY_MS, line, sizeof line) ||
        !harness_field(line, "url", url, sizeof url) ||
        !harness_field(line, "rpc", s_rpc, sizeof s_rpc) ||
        strncmp(url, "https://", 8) != 0)
        return -1;
    snprintf(s_api, sizeof s_api, "%s", url + 8);
    return 0;
}

//  ---------------------------------------------------------------------------
//  Tests

static void
test_start(void)
{
    s_dir = harness_tmpdir("wsproxy-tls");
    T_ASSERT(s_dir);
    snprintf(s_secret_file, sizeof s_secret_file, "%s/apps.secret", s_dir);
    FILE *file = fopen(s_secret_file, "w");
    T_ASSERT(file);
    fputs(SECRET "\n", file);
    fclose(file);
    chmod(s_secret_file, 0600);
    snprintf(s_cert, sizeof s_cert, "%s/tls.crt", s_dir);
    snprintf(s_key, sizeof s_key, "%s/tls.key", s_dir);
    char command[2048], out[4096];
    snprintf(command, sizeof command,
             "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1"
             " -addext subjectAltName=IP:127.0.0.1 -keyout %s -out %s 2>&1",
             s_key, s_cert);
    T_EQ_INT(s_shell(command, out, sizeof out), 0);
    s_client_ctx = SSL_CTX_new(TLS_client_method());
    T_ASSERT(s_client_ctx);
    T_EQ_INT(SSL_CTX_load_verify_locations(s_client_ctx, s_cert, NULL), 1);
    SSL_CTX_set_verify(s_client_ctx, SSL_VERIFY_PEER, NULL);
    SSL_CTX_clear_mode(s_client_ctx, SSL_MODE_AUTO_RETRY);

    int low = harness_free_port();
    T_ASSERT(low > 0 && low < 65535 - PORT_COUNT);
    snprintf(s_ports, sizeof s_ports, "%d-%d", low, low + PORT_COUNT - 1);
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
}

static void
test_bad_certificate(void)
{
    //  a key that is not there, then a key that is not the certificate's
    T_EQ_INT(s_start_wsproxy("bad-key", s_cert, "/nonexistent.key", false), 1);
    T_EQ_INT(s_start_wsproxy("wrong-key", s_cert, s_secret_file, false), 1);
    //  a certificate that is not there
    T_EQ_INT(s_start_wsproxy("bad-cert", "/nonexistent.crt", s_key, false), 1);
}

static void
test_api_over_tls(void)
{
    T_EQ_INT(s_start_wsproxy("wsproxy", s_cert, s_key, true), 0);
    char url[256], body[4096], expected[256];
    snprintf(url, sizeof url, "https://%s/v2/status", s_api);
    T_EQ_INT(s_curl(url, NULL, body, sizeof body), 0);
    T_CONTAINS(body, "\"api_version\":\"v2\"");
    snprintf(expected, sizeof expected, "\"advertise_address\":\"https://%s\"", s_api);
    T_CONTAINS(body, expected);
    snprintf(url, sizeof url, "https://%s/v2/conf", s_api);
    T_EQ_INT(s_curl(url, NULL, body, sizeof body), 0);
    T_CONTAINS(body, expected);
    //  plaintext on the API's port gets no answer; HTTPS is served on
    char command[512];
    snprintf(command, sizeof command, "curl -s -m 3 http://%s/v2/status 2>&1", s_api);
    s_shell(command, body, sizeof body);
    T_ASSERT(strstr(body, "api_version") == NULL);
    snprintf(url, sizeof url, "https://%s/v2/status", s_api);
    T_EQ_INT(s_curl(url, NULL, body, sizeof body), 0);
    T_CONTAINS(body, "\"api_version\":\"v2\"");
}

static void
test_http_app_over_tls(void)
{
    char url[600], body[8192];
    T_EQ_INT(s_add("web", BUS_APPTOKEN_HTTP, url, sizeof url, &s_port), 0);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "https://127.0.0.1:%d/__wsproxy/permit?p=", s_port);
    T_ASSERT(strncmp(url, prefix, strlen(prefix)) == 0);
    //  as a browser: the permit, its Secure cookie, the redirect, the app
    char jar[700], extra[1600], target[800];
    snprintf(jar, sizeof jar, "%s/cookies", s_dir);
    snprintf(extra, sizeof extra, "-L -c %s -b %s", jar, jar);
    snprintf(target, sizeof target, "%s&redirect=/headers", url);
    T_EQ_INT(s_curl(target, extra, body, sizeof body), 0);
    char host[64];
    snprintf(host, sizeof host, "host=127.0.0.1:%d", s_app.port);
    T_CONTAINS(body, host);
    //  the web UI's JSON question names the URL over https
    T_EQ_INT(s_add("web", BUS_APPTOKEN_HTTP, url, sizeof url, &s_port), 0);
    const char *path = strstr(url + strlen("https://"), "/");
    T_ASSERT(path);
    char request[2048], head[HEAD_SIZE];
    char *answer = NULL;
    snprintf(request, sizeof request,
             "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAccept: application/json\r\n"
             "Connection: close\r\n\r\n",
             path, s_port);
    T_EQ_INT(s_tls_request(s_port, request, head, &answer, NULL), 200);
    snprintf(prefix, sizeof prefix, "\"redirect_url\":\"https://127.0.0.1:%d/", s_port);
    T_CONTAINS(answer, prefix);
    free(answer);
    answer = NULL;
    //  the permit itself: 302 and a Secure cookie
    snprintf(request, sizeof request,
             "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n", path,
             s_port);
    T_EQ_INT(s_tls_request(s_port, request, head, &answer, NULL), 302);
    free(answer);
    answer = NULL;
    T_CONTAINS(head, "; Secure\r\n");
    const char *set = strstr(head, "Set-Cookie: ");
    T_ASSERT(set);
    set += strlen("Set-Cookie: ");
    size_t len = strcspn(set, ";");
    snprintf(s_cookie, sizeof s_cookie, "%.*s", (int) len, set);

    //  keep-alive over one TLS connection: the app's view, a large download
    //  with Content-Length, a chunked one, an upload
    tunnel_t t;
    int fd = s_tls_connect(s_port, &t);
    T_ASSERT(fd >= 0);
    wsp_echo_reader_t *r = calloc(1, sizeof *r);
    T_ASSERT(r);
    r->fd = fd;
    int n = snprintf(request, sizeof request,
                     "GET /headers HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nCookie: %s\r\n\r\n",
                     s_port, s_cookie);
    T_EQ_INT(wsp_echo_write(fd, request, (size_t) n), 0);
    T_EQ_INT(wsp_echo_answer(r, head, sizeof head, &answer, NULL), 200);
    T_CONTAINS(answer, host);
    free(answer);
    answer = NULL;
    n = snprintf(request, sizeof request,
                 "GET /big?n=%u HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nCookie: %s\r\n\r\n",
                 BIG_BYTES, s_port, s_cookie);
    T_EQ_INT(wsp_echo_write(fd, request, (size_t) n), 0);
    size_t got = 0;
    T_EQ_INT(wsp_echo_answer(r, head, sizeof head, &answer, &got), 200);
    T_EQ_INT(got, BIG_BYTES);
    bool same = true;
    for (size_t i = 0; same && i < got; i++)
        same = (uint8_t) answer[i] == wsp_echo_byte(i);
    T_ASSERT(same);
    free(answer);
    answer = NULL;
    n = snprintf(request, sizeof request,
                 "GET /chunked?n=%u&size=70001 HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                 "Cookie: %s\r\n\r\n",
                 BIG_BYTES / 4, s_port, s_cookie);
    T_EQ_INT(wsp_echo_write(fd, request, (size_t) n), 0);
    T_EQ_INT(wsp_echo_answer(r, head, sizeof head, &answer, &got), 200);
    T_EQ_INT(got, BIG_BYTES / 4);
    same = true;
    for (size_t i = 0; same && i < got; i++)
        same = (uint8_t) answer[i] == wsp_echo_byte(i);
    T_ASSERT(same);
    free(answer);
    answer = NULL;
    n = snprintf(request, sizeof request,
                 "POST /upload HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nCookie: %s\r\n"
                 "Content-Length: %u\r\n\r\n",
                 s_port, s_cookie, UPLOAD);
    char *upload = malloc(UPLOAD);
    T_ASSERT(upload);
    for (size_t i = 0; i < UPLOAD; i++)
        upload[i] = (char) wsp_echo_byte(i);
    T_EQ_INT(wsp_echo_write(fd, request, (size_t) n), 0);
    T_EQ_INT(wsp_echo_write(fd, upload, UPLOAD), 0);
    free(upload);
    T_EQ_INT(wsp_echo_answer(r, head, sizeof head, &answer, NULL), 200);
    char count[32];
    snprintf(count, sizeof count, "%u", UPLOAD);
    T_EQ_STR(answer, count);
    free(answer);
    free(r);
    s_tls_close(fd, &t);
}

static void
test_websocket_over_tls(void)
{
    tunnel_t t;
    int fd = s_tls_connect(s_port, &t);
    T_ASSERT(fd >= 0);
    wsp_echo_reader_t *r = calloc(1, sizeof *r);
    T_ASSERT(r);
    r->fd = fd;
    char request[1024], head[HEAD_SIZE];
    int n = snprintf(request, sizeof request,
                     "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nCookie: %s\r\n"
                     "Connection: Upgrade\r\nUpgrade: websocket\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n",
                     s_port, s_cookie);
    T_EQ_INT(wsp_echo_write(fd, request, (size_t) n), 0);
    T_EQ_INT(wsp_echo_read_head(r, head, sizeof head), 0);
    T_ASSERT(strncmp(head, "HTTP/1.1 101", 12) == 0);
    T_CONTAINS(head, "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n");
    size_t sizes[] = {5, 126, 70000, 1 << 20, (3 << 20) + 1};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
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
        T_ASSERT(echo && memcmp(echo, message, len) == 0);
        free(echo);
        free(message);
    }
    int opcode = 0;
    unsigned char *echo = NULL;
    size_t len = 0;
    T_EQ_INT(wsp_echo_ws_send(fd, 8, "", 0, true), 0);
    T_EQ_INT(wsp_echo_ws_recv(r, &opcode, &echo, &len), 0);
    T_EQ_INT(opcode, 8);
    free(echo);
    free(r);
    s_tls_close(fd, &t);
}

static void
test_tcp_route_over_tls(void)
{
    //  a tcp route is a byte pipe: HTTP spoken through it, unparsed, and the
    //  app's close after "Connection: close" ends the client's connection
    char url[600];
    int port = 0;
    T_EQ_INT(s_add("raw", BUS_APPTOKEN_TCP, url, sizeof url, &port), 0);
    T_ASSERT(port > 0 && port != s_port);
    tunnel_t t;
    int fd = s_tls_connect(port, &t);
    T_ASSERT(fd >= 0);
    char request[512], head[HEAD_SIZE];
    int n = snprintf(request, sizeof request,
                     "GET /big?n=%u HTTP/1.1\r\nHost: raw\r\nConnection: close\r\n\r\n",
                     BIG_BYTES / 2);
    T_EQ_INT(wsp_echo_write(fd, request, (size_t) n), 0);
    wsp_echo_reader_t *r = calloc(1, sizeof *r);
    T_ASSERT(r);
    r->fd = fd;
    char *answer = NULL;
    size_t got = 0;
    T_EQ_INT(wsp_echo_answer(r, head, sizeof head, &answer, &got), 200);
    T_EQ_INT(got, BIG_BYTES / 2);
    bool same = true;
    for (size_t i = 0; same && i < got; i++)
        same = (uint8_t) answer[i] == wsp_echo_byte(i);
    T_ASSERT(same);
    free(answer);
    //  then the end: the app closed, the client sees it
    T_EQ_INT(wsp_echo_fill(r), -1);
    free(r);
    s_tls_close(fd, &t);
}

static void
test_plaintext_refused(void)
{
    //  plain HTTP to the TLS app port: no answer, the connection closed
    char request[512], head[HEAD_SIZE];
    snprintf(request, sizeof request,
             "GET /headers HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nCookie: %s\r\n\r\n", s_port,
             s_cookie);
    T_EQ_INT(wsp_echo_request(s_port, request, head, sizeof head, NULL, NULL), -1);
    //  a client that connects and goes before its handshake ends
    int fd = wsp_echo_connect(s_port);
    T_ASSERT(fd >= 0);
    T_EQ_INT(wsp_echo_write(fd, "\x16\x03\x01\x02\x00\x01", 6), 0);
    close(fd);
    //  TLS is served on
    char *answer = NULL;
    snprintf(request, sizeof request,
             "GET /headers HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nCookie: %s\r\n"
             "Connection: close\r\n\r\n",
             s_port, s_cookie);
    T_EQ_INT(s_tls_request(s_port, request, head, &answer, NULL), 200);
    T_CONTAINS(answer, "host=127.0.0.1:");
    free(answer);
    T_ASSERT(s_wsp.pid > 0 && kill(s_wsp.pid, 0) == 0);
}

static void
test_endpoint_url(void)
{
    proto_wsproxy_target_t target;
    proto_wsproxy_target_init(&target);
    target.route_id = "route-one";
    target.host = "127.0.0.1";
    target.port = (uint64_t) s_app.port;
    target.traffic_ratio = 1;
    proto_wsproxy_endpoint_set_req_t in;
    proto_wsproxy_endpoint_set_req_init(&in);
    in.endpoint_id = ENDPOINT;
    in.name = "llm-svc";
    in.open_to_public = true;
    in.targets = &target;
    in.targets_count = 1;
    bus_error_t err = {0};
    bus_writer_t *w = proto_wsproxy_endpoint_set_req_writer(&in, &err);
    T_ASSERT(w);
    bus_rpc_client_t *client = bus_rpc_client_new(s_rpc, "test/wsproxy", NULL);
    zchunk_t *reply = NULL;
    T_EQ_INT(bus_rpc_client_call_sync(client, PROTO_WSPROXY_ENDPOINT_SET,
                                      bus_writer_data(w), bus_writer_size(w), CALL_MS,
                                      &reply, &err),
             BUS_OK);
    bus_writer_destroy(&w);
    bus_rpc_client_destroy(&client);
    proto_wsproxy_endpoint_set_rep_t out;
    T_EQ_INT(proto_wsproxy_endpoint_set_rep_decode(&out, zchunk_data(reply),
                                                   zchunk_size(reply), &err),
             BUS_OK);
    char expected[64];
    snprintf(expected, sizeof expected, "https://127.0.0.1:%d", (int) out.port);
    T_EQ_STR(out.url, expected);
    //  the endpoint answers over TLS (open to the public: no token)
    char request[512], head[HEAD_SIZE];
    char *answer = NULL;
    snprintf(request, sizeof request,
             "GET /headers HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n",
             (int) out.port);
    T_EQ_INT(s_tls_request((int) out.port, request, head, &answer, NULL), 200);
    free(answer);
    proto_wsproxy_endpoint_set_rep_clear(&out);
    zchunk_destroy(&reply);
}

int
main(void)
{
    T_RUN(test_start);
    T_RUN(test_bad_certificate);
    T_RUN(test_api_over_tls);
    T_RUN(test_http_app_over_tls);
    T_RUN(test_websocket_over_tls);
    T_RUN(test_tcp_route_over_tls);
    T_RUN(test_plaintext_refused);
    T_RUN(test_endpoint_url);
    bool clean = true;
    if (s_wsp.pid > 0 &&
        (harness_stop(&s_wsp, EXIT_MS) != 0 || harness_log_has_report(&s_wsp))) {
        fprintf(stderr, "# the wsproxy did not stop cleanly (log: %s)\n", s_wsp.log_path);
        clean = false;
    }
    if (s_sched.pid > 0 &&
        (harness_stop(&s_sched, EXIT_MS) != 0 || harness_log_has_report(&s_sched))) {
        fprintf(stderr, "# the scheduler did not stop cleanly (log: %s)\n",
                s_sched.log_path);
        clean = false;
    }
    if (s_app.listener > 0)
        wsp_echo_stop(&s_app);
    SSL_CTX_free(s_client_ctx);
    if (s_dir) {
        if (t_failures == 0 && clean && !getenv("BACKPLANE_KEEP"))
            harness_rmdir(s_dir);
        else
            fprintf(stderr, "# state kept in %s\n", s_dir);
        free(s_dir);
    }
    return clean ? T_DONE() : 1;
}
