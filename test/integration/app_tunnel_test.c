/*  =========================================================================
    app_tunnel_test - apps of a session through the gateway's stream tunnel,
    as `backend.ai app` opens them, against the whole platform with a real
    agent and runc containers

    The busybox image declares one app, httpd (busybox's web server on
    /home/work, from its service definition). Opening it starts it in the
    container, then each WebSocket on /stream/session/{s}/httpproxy or
    /tcpproxy carries one TCP connection to it as BINARY frames: an HTTP
    request written through the tunnel gets the file back, the app's end of
    the connection closes the WebSocket with 1001, two tunnels at once work,
    pings are answered. A preopen port starts nothing: with nothing
    listening the tunnel opens and closes with 1013, with a server the user
    started it passes. Unknown apps (404, listing the apps), undeclared
    ports (400), an app that cannot start (500 with its reason, no
    upgrade), another user's session (404) and sessions that do not run
    are refused before any upgrade. Needs root, runc, umoci and tini.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bus.h"
#include "gateway_client.h"
#include "t.h"

#define IMAGE "local.backplane/library/busybox:latest"

static client_platform_t s_p;
static harness_proc_t s_agent;
static harness_proc_t s_wsp;
static char s_bridge[16];
static char s_session_id[64]; //  the session "apps"
static bus_sub_t *s_events;   //  kernel.app_* from the hub
static char s_dummy[12];      //  an interface holding the address ports are published on
static char s_publish[32];    //  that address
static char s_wsp_api[128];   //  the wsproxy's API, host:port
static char s_route[128];     //  the wsproxy's route to httpd, host:port
static char s_route_cookie[600];

static json_t *
s_request(const char *method, const char *path, const char *body, int *status)
{
    char *text = NULL;
    *status = client_signed(&s_p, &s_p.super, method, path, body, NULL, &text, NULL);
    json_t *parsed = text ? json_loads(text, 0, NULL) : NULL;
    if (!parsed && text && *text)
        fprintf(stderr, "# %s %s: %d %s\n", method, path, *status, text);
    free(text);
    return parsed;
}

//  Runs a shell line in the session; its exit code.
static int
s_run(const char *session, const char *code)
{
    char path[128], body[1024];
    snprintf(path, sizeof path, "/session/%s", session);
    json_t *request =
        json_pack("{s:s, s:s, s:s}", "mode", "query", "runId", "app-run", "code", code);
    char *text = json_dumps(request, JSON_COMPACT);
    snprintf(body, sizeof body, "%s", text);
    free(text);
    json_decref(request);
    int status;
    json_t *r = s_request("POST", path, body, &status);
    json_t *result = json_object_get(r, "result");
    int code_out = status == 200 && json_is_integer(json_object_get(result, "exitCode"))
                       ? (int) json_integer_value(json_object_get(result, "exitCode"))
                       : -1;
    json_decref(r);
    return code_out;
}

//  Everything the app sends until the tunnel closes: the BINARY payloads
//  in *out (caller frees), the close code returned (-1: no close came).
static int
s_read_all(int fd, char **out, int timeout_ms)
{
    size_t cap = 1 << 20, used = 0;
    char *text = calloc(1, cap + 1);
    int code = -1;
    while (text) {
        char *data = NULL;
        size_t size = 0;
        int opcode = client_ws_recv(fd, &data, &size, timeout_ms);
        if (opcode == 2 && used + size <= cap) {
            memcpy(text + used, data, size);
            used += size;
        } else if (opcode == 8) {
            code =
                size >= 2 ? ((unsigned char) data[0] << 8 | (unsigned char) data[1]) : 0;
            free(data);
            break;
        } else if (opcode != 9 && opcode != 10) {
            free(data);
            break;
        }
        free(data);
    }
    *out = text;
    return code;
}

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "app-tunnel", false) == 0);
    s_events = bus_sub_new(s_p.hub_subscribe, NULL);
    T_ASSERT(s_events && bus_sub_subscribe(s_events, "kernel.app_", NULL, NULL) == 0);
    snprintf(s_bridge, sizeof s_bridge, "bpa%d", (int) (getpid() % 100000));
    //  The agent publishes apps' ports on an address of this host that is
    //  not loopback, as on a LAN: the proxies reach every app through it.
    snprintf(s_dummy, sizeof s_dummy, "bpd%d", (int) (getpid() % 100000));
    snprintf(s_publish, sizeof s_publish, "10.252.%d.1", (int) (getpid() % 250));
    char command[256];
    snprintf(command, sizeof command,
             "ip link add %s type veth peer name %sp && ip addr add %s/32 dev %s && "
             "ip link set %s up",
             s_dummy, s_dummy, s_publish, s_dummy, s_dummy);
    T_EQ_INT(system(command), 0);
    char host[64], ports[64];
    snprintf(host, sizeof host, "agent.publish.host=%s", s_publish);
    int low = harness_free_port();
    snprintf(ports, sizeof ports, "agent.publish.ports=%d-%d", low, low + 9);
    const char *sets[] = {host, ports, NULL};
    T_ASSERT(client_agent_start_with(&s_p, &s_agent, "agent-a", s_bridge,
                                     harness_subnet(), sets));
    int status;
    json_t *r = s_request("POST", "/session",
                          "{\"name\": \"apps\", \"image\": \"" IMAGE "\","
                          " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"},"
                          " \"preopen_ports\": [9000, 9001]}}",
                          &status);
    T_EQ_INT(status, 201);
    snprintf(s_session_id, sizeof s_session_id, "%s",
             json_string_value(json_object_get(r, "sessionId")));
    json_decref(r);
    T_EQ_INT(s_run("apps", "echo hello-from-the-app > /home/work/index.html"), 0);
}

//  Waits for a kernel.app_started (failed false) or kernel.app_failed event
//  about app holding needle (in its status and address, or its detail).
static bool
s_app_event(bool failed, const char *app, const char *needle)
{
    int64_t deadline = bus_clock_mono_ms() + 10000;
    while (bus_clock_mono_ms() < deadline) {
        bus_event_t event;
        bus_error_t err;
        if (bus_sub_recv(s_events, &event, &err) != BUS_OK) {
            harness_pause_ms(20);
            continue;
        }
        char text[4200] = "";
        bool match = false;
        if (!failed && strcmp(event.topic, PROTO_KERNEL_APP_STARTED) == 0) {
            proto_kernel_app_started_t e;
            if (proto_kernel_app_started_decode(&e, event.body, event.body_size, &err) ==
                BUS_OK) {
                snprintf(text, sizeof text, "%s %s:%d", e.status, e.host, (int) e.port);
                match = strcmp(e.app, app) == 0;
                proto_kernel_app_started_clear(&e);
            }
        } else if (failed && strcmp(event.topic, PROTO_KERNEL_APP_FAILED) == 0) {
            proto_kernel_app_failed_t e;
            if (proto_kernel_app_failed_decode(&e, event.body, event.body_size, &err) ==
                BUS_OK) {
                snprintf(text, sizeof text, "%s", e.detail ? e.detail : "");
                match = strcmp(e.app, app) == 0;
                proto_kernel_app_failed_clear(&e);
            }
        }
        if (match && strstr(text, needle))
            return true;
    }
    return false;
}

static void
test_apps_listed(void)
{
    int status;
    json_t *r = s_request("GET", "/stream/session/apps/apps", NULL, &status);
    T_EQ_INT(status, 200);
    char *text = json_dumps(r, JSON_COMPACT);
    T_CONTAINS(text, "{\"name\":\"httpd\",\"protocol\":\"http\",\"ports\":[8000]}");
    T_CONTAINS(text, "{\"name\":\"9000\",\"protocol\":\"preopen\",\"ports\":[9000]}");
    free(text);
    json_decref(r);
}

//  An HTTP request through the tunnel, as a browser behind `backend.ai app`
//  sends it: the app is started on first use and answers.
static void
test_http_through_the_tunnel(void)
{
    int status;
    int fd = client_ws_open(&s_p, &s_p.super, "/stream/session/apps/httpproxy?app=httpd",
                            &status);
    T_EQ_INT(status, 101);
    T_ASSERT(fd >= 0);
    const char *request = "GET /index.html HTTP/1.0\r\nHost: localhost\r\n\r\n";
    T_EQ_INT(client_ws_send(fd, 2, request, strlen(request)), 0);
    char *out = NULL;
    int code = s_read_all(fd, &out, 10000);
    T_CONTAINS(out, "HTTP/1.1 200 OK"); //  busybox httpd answers 1.1
    T_CONTAINS(out, "hello-from-the-app");
    T_EQ_INT(code, 1001); //  the server's end of the connection
    free(out);
    close(fd);
    //  Who watches the bus saw it open, at the published address.
    char expect[64];
    snprintf(expect, sizeof expect, "started %s:", s_publish);
    T_ASSERT(s_app_event(false, "httpd", expect));
}

//  Two at once, on tcpproxy (what the official client always uses), with a
//  ping answered and a TEXT frame dropped on the way.
static void
test_two_tunnels_and_a_ping(void)
{
    int status;
    int a = client_ws_open(&s_p, &s_p.super, "/stream/session/apps/tcpproxy?app=httpd",
                           &status);
    T_EQ_INT(status, 101);
    int b = client_ws_open(&s_p, &s_p.super, "/stream/session/apps/tcpproxy?app=httpd",
                           &status);
    T_EQ_INT(status, 101);
    T_ASSERT(a >= 0 && b >= 0);
    T_EQ_INT(client_ws_send(a, 9, "beat", 4), 0);
    char *data = NULL;
    size_t size = 0;
    T_EQ_INT(client_ws_recv(a, &data, &size, 5000), 10);
    T_EQ_INT((int) size, 4);
    free(data);
    T_EQ_INT(client_ws_send(b, 1, "not for the app", 15), 0);
    const char *first = "GET /index.html HTTP/1.0\r\n";
    T_EQ_INT(client_ws_send(b, 2, first, strlen(first)), 0);
    T_EQ_INT(client_ws_send(a, 2, first, strlen(first)), 0);
    T_EQ_INT(client_ws_send(a, 2, "\r\n", 2), 0);
    T_EQ_INT(client_ws_send(b, 2, "\r\n", 2), 0);
    char *out_a = NULL, *out_b = NULL;
    T_EQ_INT(s_read_all(a, &out_a, 10000), 1001);
    T_EQ_INT(s_read_all(b, &out_b, 10000), 1001);
    T_CONTAINS(out_a, "hello-from-the-app");
    T_CONTAINS(out_b, "hello-from-the-app");
    free(out_a);
    free(out_b);
    close(a);
    close(b);
}

//  A preopen port starts nothing: the user's own server is what answers.
static void
test_preopen(void)
{
    int status;
    //  Nothing listens on 9001: opened, then closed with try-again.
    int fd = client_ws_open(&s_p, &s_p.super, "/stream/session/apps/tcpproxy?app=9001",
                            &status);
    T_EQ_INT(status, 101);
    char *out = NULL;
    T_EQ_INT(s_read_all(fd, &out, 10000), 1013);
    free(out);
    close(fd);
    //  The user starts a server of their own on 9000 (busybox httpd forks
    //  into the background without -f).
    T_EQ_INT(s_run("apps", "busybox httpd -p 9000 -h /home/work"), 0);
    fd = client_ws_open(&s_p, &s_p.super, "/stream/session/apps/tcpproxy?app=9000",
                        &status);
    T_EQ_INT(status, 101);
    const char *request = "GET /index.html HTTP/1.0\r\n\r\n";
    T_EQ_INT(client_ws_send(fd, 2, request, strlen(request)), 0);
    T_EQ_INT(s_read_all(fd, &out, 10000), 1001);
    T_CONTAINS(out, "hello-from-the-app");
    free(out);
    close(fd);
}

//  Resident memory of a process, in KiB (VmRSS), or -1.
static long
s_rss_kib(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int) pid);
    FILE *file = fopen(path, "r");
    long kib = -1;
    while (file && fgets(line, sizeof line, file))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kib = strtol(line + 6, NULL, 10);
    if (file)
        fclose(file);
    return kib;
}

//  An app that never stops sending and a client that does not read: the
//  gateway stops reading the app instead of holding what it sends, and
//  the bytes are all there when the client reads.
static void
test_slow_reader(void)
{
    T_EQ_INT(s_run("apps",
                   "setsid busybox nc -ll -p 9001 -e yes </dev/null >/dev/null 2>&1 &"),
             0);
    int status;
    int fd = -1;
    for (int tries = 0; tries < 20 && fd < 0; tries++) {
        fd = client_ws_open(&s_p, &s_p.super, "/stream/session/apps/tcpproxy?app=9001",
                            &status);
        //  Until nc listens: the tunnel opens and closes with 1013.
        char *data = NULL;
        if (fd >= 0 && client_ws_recv(fd, &data, NULL, 2000) != 2) {
            close(fd);
            fd = -1;
            harness_pause_ms(100);
        }
        free(data);
    }
    T_ASSERT(fd >= 0);
    long before = s_rss_kib(s_p.gateway.pid);
    harness_pause_ms(3000); //  yes writes as fast as it can meanwhile
    long after = s_rss_kib(s_p.gateway.pid);
    printf("# gateway rss %ld KiB, then %ld KiB with an unread stream\n", before, after);
    T_ASSERT(before > 0 && after - before < 32 * 1024);
    //  What was held back still flows, intact.
    size_t total = 0;
    bool intact = true;
    while (total < 8 * 1024 * 1024) {
        char *data = NULL;
        size_t size = 0;
        int opcode = client_ws_recv(fd, &data, &size, 10000);
        if (opcode == 2)
            for (size_t i = 0; i < size && intact; i++)
                intact = data[i] == ((total + i) % 2 ? '\n' : 'y');
        free(data);
        if (opcode != 2 && opcode != 9)
            break;
        if (opcode == 2)
            total += size;
    }
    T_ASSERT(total >= 8 * 1024 * 1024);
    T_ASSERT(intact);
    close(fd);
}

static void
test_refusals(void)
{
    int status;
    char *text = NULL;
    //  No app, an unknown one (the answer lists the real ones), a port the
    //  app does not open: refused before any upgrade.
    int fd = client_ws_open(&s_p, &s_p.super, "/stream/session/apps/tcpproxy", &status);
    T_ASSERT(fd < 0);
    T_EQ_INT(status, 400);
    //  A plain GET of a real app is not a tunnel either.
    status =
        client_signed(&s_p, &s_p.super, "GET", "/stream/session/apps/tcpproxy?app=httpd",
                      NULL, NULL, NULL, NULL);
    T_EQ_INT(status, 400);
    status = client_signed(&s_p, &s_p.super, "GET",
                           "/stream/session/apps/tcpproxy?app=jupyter", NULL, NULL, &text,
                           NULL);
    T_EQ_INT(status, 404);
    T_CONTAINS(text, "object-not-found");
    T_CONTAINS(text, "httpd");
    free(text);
    fd = client_ws_open(&s_p, &s_p.super, "/stream/session/apps/tcpproxy?app=jupyter",
                        &status);
    T_ASSERT(fd < 0);
    T_EQ_INT(status, 404);
    fd = client_ws_open(&s_p, &s_p.super,
                        "/stream/session/apps/tcpproxy?app=httpd&port=8001", &status);
    T_ASSERT(fd < 0);
    T_EQ_INT(status, 400);
    //  An argument the service definition does not allow: the start fails,
    //  an HTTP 500 with the reason, and no upgrade.
    static const char *const handshake[] = {
        "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", NULL};
    char head[4096];
    fd = client_stream_open(
        &s_p, &s_p.super,
        "/stream/session/apps/tcpproxy?app=httpd&arguments=%7B%22-x%22%3Anull%7D",
        handshake, &status, head, sizeof head);
    T_EQ_INT(status, 500);
    text = fd >= 0 ? client_read_until(fd, "}", 5000) : NULL;
    T_CONTAINS(text, "Failed to launch the app service");
    T_CONTAINS(text, "does not allow the argument -x");
    T_ASSERT(s_app_event(true, "httpd", "does not allow the argument -x"));
    free(text);
    if (fd >= 0)
        close(fd);
    //  A session that does not exist, and one of another user: not found.
    fd = client_ws_open(&s_p, &s_p.super, "/stream/session/nobody/tcpproxy?app=httpd",
                        &status);
    T_ASSERT(fd < 0);
    T_EQ_INT(status, 404);
    client_keypair_t dave;
    T_ASSERT(client_person(&s_p, "dave@example.com", "default", "user", &dave));
    fd = client_ws_open(&s_p, &dave, "/stream/session/apps/tcpproxy?app=httpd", &status);
    T_ASSERT(fd < 0);
    T_EQ_INT(status, 404);
}

//  The app dies: the next tunnel starts it again.
static void
test_restarted_when_dead(void)
{
    T_EQ_INT(s_run("apps", "pkill -f 'httpd -f -p 8000' || killall httpd; sleep 0.3"), 0);
    int status;
    int fd = client_ws_open(&s_p, &s_p.super, "/stream/session/apps/tcpproxy?app=httpd",
                            &status);
    T_EQ_INT(status, 101);
    const char *request = "GET /index.html HTTP/1.0\r\n\r\n";
    T_EQ_INT(client_ws_send(fd, 2, request, strlen(request)), 0);
    char *out = NULL;
    T_EQ_INT(s_read_all(fd, &out, 10000), 1001);
    T_CONTAINS(out, "hello-from-the-app");
    free(out);
    close(fd);
}

//  What Backend.AI's web UI does to open an app (v2): wsproxy-version,
//  start-service for a token, the wsproxy's /add for a URL, the URL once
//  for the permit cookie, then the app at the root of its own port.
static void
test_web_app_proxy(void)
{
    int status;
    const char *body = "{\"app\": \"httpd\", \"login_session_token\": null,"
                       " \"arguments\": \"null\"}";
    //  No wsproxy for the group yet: v1, and no token.
    json_t *r =
        s_request("GET", "/scaling-groups/default/wsproxy-version", NULL, &status);
    T_EQ_INT(status, 200);
    T_EQ_STR(json_string_value(json_object_get(r, "wsproxy_version")), "v1");
    json_decref(r);
    r = s_request("POST", "/session/apps/start-service", body, &status);
    T_EQ_INT(status, 503);
    json_decref(r);

    T_ASSERT(client_wsproxy_start(&s_p, &s_wsp, s_wsp_api, sizeof s_wsp_api));
    char addr[200];
    snprintf(addr, sizeof addr, "http://%s", s_wsp_api);
    json_t *response = client_gql(
        &s_p, &s_p.super,
        "mutation($name: String!, $input: ModifyScalingGroupInput!) {"
        " modify_scaling_group(name: $name, props: $input) { ok msg } }",
        json_pack("{s:s, s:{s:s}}", "name", "default", "input", "wsproxy_addr", addr));
    T_ASSERT(client_mutation_ok(response, "modify_scaling_group"));
    json_decref(response);
    r = s_request("GET", "/scaling-groups/default/wsproxy-version", NULL, &status);
    T_EQ_STR(json_string_value(json_object_get(r, "wsproxy_version")), "v2");
    json_decref(r);

    //  Unknown apps and other users are refused before any token.
    r = s_request("POST", "/session/apps/start-service", "{\"app\": \"jupyter\"}",
                  &status);
    T_EQ_INT(status, 404);
    json_decref(r);
    client_keypair_t erin;
    T_ASSERT(client_person(&s_p, "erin@example.com", "default", "user", &erin));
    T_EQ_INT(client_signed(&s_p, &erin, "POST", "/session/apps/start-service", body, NULL,
                           NULL, NULL),
             404);

    //  Arguments over the schema's limit: 400 naming them, nothing started.
    size_t big = 70000;
    char *huge = malloc(big + 64);
    T_ASSERT(huge);
    if (huge) {
        int n = snprintf(huge, 64, "{\"app\": \"httpd\", \"arguments\": \"");
        memset(huge + n, 'x', big);
        strcpy(huge + n + big, "\"}");
        char *text = NULL;
        T_EQ_INT(client_signed(&s_p, &s_p.super, "POST", "/session/apps/start-service",
                               huge, NULL, &text, NULL),
                 400);
        T_CONTAINS(text, "invalid-api-params");
        T_CONTAINS(text, "arguments");
        free(text);
        free(huge);
    }
    char hostport[128], cookie[512];
    T_ASSERT(client_app_via_wsproxy(&s_p, &s_p.super, "apps", s_session_id, "httpd", addr,
                                    hostport, sizeof hostport, cookie, sizeof cookie));
    char *text = NULL;
    //  Without the cookie the app is out of reach; with it, it answers at
    //  the root of its port.
    T_EQ_INT(harness_http_ex(hostport, "GET", "/index.html", NULL, NULL, NULL, &text,
                             NULL, 10000),
             403);
    free(text);
    char cookie_header[600];
    snprintf(cookie_header, sizeof cookie_header, "Cookie: %s", cookie);
    const char *headers[] = {cookie_header, NULL};
    text = NULL;
    T_EQ_INT(harness_http_ex(hostport, "GET", "/index.html", headers, NULL, NULL, &text,
                             NULL, 10000),
             200);
    T_CONTAINS(text, "hello-from-the-app");
    free(text);
    snprintf(s_route, sizeof s_route, "%s", hostport);
    snprintf(s_route_cookie, sizeof s_route_cookie, "Cookie: %s", cookie);
}

//  The host ports the agent published, as it keeps them: "port:host_port"
//  for each, space-separated.
static void
s_published(char *out, size_t size)
{
    char path[600];
    snprintf(path, sizeof path, "%s/agent-a/ports.json", s_p.dir);
    json_t *list = json_load_file(path, 0, NULL);
    out[0] = '\0';
    size_t i, used = 0;
    json_t *item;
    json_array_foreach(list, i, item)
    {
        int n = snprintf(out + used, size - used, "%s%d:%d", used ? " " : "",
                         (int) json_integer_value(json_object_get(item, "port")),
                         (int) json_integer_value(json_object_get(item, "host_port")));
        if (n > 0 && (size_t) n < size - used)
            used += (size_t) n;
    }
    json_decref(list);
}

//  Whether something accepts a connection at s_publish:port.
static bool
s_accepts(int port)
{
    char command[200];
    snprintf(command, sizeof command,
             "timeout 3 bash -c 'exec 3<>/dev/tcp/%s/%d' 2>/dev/null", s_publish, port);
    return system(command) == 0;
}

//  The apps opened went through ports published on the host; destroying
//  the session takes them away.
static void
test_destroy(void)
{
    char published[256];
    s_published(published, sizeof published);
    T_CONTAINS(published, "8000:");
    T_CONTAINS(published, "9000:");
    int httpd = atoi(strstr(published, "8000:") + 5);
    T_ASSERT(httpd > 0 && s_accepts(httpd));
    int status;
    json_t *r = s_request("DELETE", "/session/apps", NULL, &status);
    json_decref(r);
    T_EQ_INT(status, 200);
    bool gone = false;
    for (int tries = 0; tries < 100 && !gone; tries++) {
        s_published(published, sizeof published);
        gone = published[0] == '\0';
        if (!gone)
            harness_pause_ms(100);
    }
    T_ASSERT(gone);
    T_ASSERT(!s_accepts(httpd));
    //  The wsproxy closed its route when the session ended: the cookie that
    //  opened it gets nothing more.
    const char *headers[] = {s_route_cookie, NULL};
    int route = 200;
    for (int tries = 0; tries < 100 && route == 200; tries++) {
        route = harness_http_ex(s_route, "GET", "/index.html", headers, NULL, NULL, NULL,
                                NULL, 3000);
        if (route == 200)
            harness_pause_ms(100);
    }
    T_ASSERT(route != 200);
    char command[200];
    snprintf(command, sizeof command,
             "nft list table ip backplane_ports_%s >/dev/null 2>&1", s_bridge);
    T_ASSERT(system(command) != 0); //  no rule left: no table
}

int
main(void)
{
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    T_RUN(test_start);
    if (t_failures)
        return T_DONE();
    T_RUN(test_apps_listed);
    T_RUN(test_http_through_the_tunnel);
    T_RUN(test_two_tunnels_and_a_ping);
    T_RUN(test_preopen);
    T_RUN(test_slow_reader);
    T_RUN(test_refusals);
    T_RUN(test_restarted_when_dead);
    T_RUN(test_web_app_proxy);
    T_RUN(test_destroy);
    int agent = harness_stop(&s_agent, CLIENT_STOP_MS);
    if (s_wsp.pid > 0 && harness_stop(&s_wsp, CLIENT_STOP_MS) != 0)
        agent = -1;
    bool clean =
        client_platform_stop(&s_p) && agent == 0 && !harness_log_has_report(&s_agent);
    if (!clean)
        fprintf(stderr, "# a service did not stop cleanly (agent %d)\n", agent);
    char command[64];
    snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridge);
    if (system(command) == 0)
        fprintf(stderr, "# the agent left its bridge %s\n", s_bridge);
    snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_dummy);
    (void) !system(command);
    bus_sub_destroy(&s_events);
    client_platform_end(&s_p, t_failures > 0 || !clean);
    return clean ? T_DONE() : 1;
}
