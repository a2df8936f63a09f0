/*  =========================================================================
    ttyd_app_test - the web terminal (the ttyd app, backplane-ttyd) of a real
    runc container, opened as `backend.ai app` and the web UI's Console do

    Every session lists ttyd (http, 7681) first, in /stream/session/{s}/apps
    and in GraphQL's service_ports. Through the gateway's tunnel
    (/stream/session/{s}/tcpproxy?app=ttyd, this process as the local end)
    the page comes over HTTP with its terminal script, and a WebSocket
    upgrade with the subprotocol tty inside the tunnel runs `echo $((6*7))`
    in the container's shell. Through the wsproxy (start-service, add, the
    permit cookie) the page and a WebSocket straight to the route's port do
    the same, then a resize is seen by stty in the container, a second
    client gets a shell of its own, and the first one vanishing leaves the
    second working. Needs root, runc, umoci and tini.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gateway_client.h"
#include "t.h"

#define IMAGE   "local.backplane/library/busybox:latest"
#define WAIT_MS 15000

static client_platform_t s_p;
static harness_proc_t s_agent;
static harness_proc_t s_wsp;
static char s_bridge[16];
static char s_session_id[64];
static char s_hostport[128]; //  the wsproxy's route to the terminal
static char s_cookie[512];

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

//  A masked client frame (FIN set) into out; its length.
static size_t
s_frame(uint8_t *out, int opcode, const char *payload, size_t size)
{
    static const uint8_t mask[4] = {0xA1, 0xB2, 0xC3, 0xD4};
    size_t n = 0;
    out[n++] = (uint8_t) (0x80 | opcode);
    if (size < 126)
        out[n++] = (uint8_t) (0x80 | size);
    else {
        out[n++] = 0x80 | 126;
        out[n++] = (uint8_t) (size >> 8);
        out[n++] = (uint8_t) size;
    }
    memcpy(out + n, mask, 4);
    n += 4;
    for (size_t i = 0; i < size; i++)
        out[n + i] = (uint8_t) payload[i] ^ mask[i & 3];
    return n + size;
}

//  Reads the terminal's messages from a WebSocket until the output holds
//  needle: the output (caller frees), or NULL.
static char *
s_until(int fd, const char *needle)
{
    size_t cap = 1 << 16, used = 0;
    char *text = calloc(1, cap + 1);
    while (text) {
        char *data = NULL;
        size_t size = 0;
        int opcode = client_ws_recv(fd, &data, &size, WAIT_MS);
        if (opcode == 2 && size > 0 && data[0] == '0' && used + size - 1 <= cap) {
            memcpy(text + used, data + 1, size - 1);
            used += size - 1;
        }
        free(data);
        if (strstr(text, needle))
            return text;
        if (opcode < 0 || opcode == 8) {
            fprintf(stderr, "# no \"%s\" in \"%s\" (opcode %d)\n", needle, text, opcode);
            break;
        }
    }
    free(text);
    return NULL;
}

static int
s_type(int fd, const char *line)
{
    char text[256];
    snprintf(text, sizeof text, "0%s", line);
    return client_ws_send(fd, 2, text, strlen(text));
}

//  A WebSocket with the subprotocol tty to the route (with the permit
//  cookie); the socket, or -1. The answer's head goes to head.
static int
s_ws_open(char *head, size_t head_size)
{
    char host[128];
    snprintf(host, sizeof host, "%s", s_hostport);
    char *colon = strrchr(host, ':');
    if (!colon)
        return -1;
    *colon = '\0';
    struct sockaddr_in addr = {.sin_family = AF_INET,
                               .sin_port = htons((uint16_t) atoi(colon + 1))};
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || inet_pton(AF_INET, host, &addr.sin_addr) != 1 ||
        connect(fd, (struct sockaddr *) &addr, sizeof addr) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    char request[1024];
    int n = snprintf(request, sizeof request,
                     "GET /ws HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Protocol: tty\r\nCookie: %s\r\n\r\n",
                     s_hostport, s_cookie);
    //  Nothing comes after the 101 before the hello, so the head is all.
    char *answer = client_ws_send_raw(fd, request, (size_t) n) == 0
                       ? client_read_until(fd, "\r\n\r\n", WAIT_MS)
                       : NULL;
    snprintf(head, head_size, "%s", answer ? answer : "");
    bool upgraded = answer && strncmp(answer, "HTTP/1.1 101", 12) == 0;
    free(answer);
    if (!upgraded) {
        fprintf(stderr, "# ttyd upgrade: %s\n", head);
        close(fd);
        return -1;
    }
    return fd;
}

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "ttyd-app", false) == 0);
    snprintf(s_bridge, sizeof s_bridge, "bpt%d", (int) (getpid() % 100000));
    T_ASSERT(client_agent_start(&s_p, &s_agent, "agent-t", s_bridge, harness_subnet()));
    int status;
    json_t *r =
        s_request("POST", "/session",
                  "{\"name\": \"term\", \"image\": \"" IMAGE "\","
                  " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"}}}",
                  &status);
    T_EQ_INT(status, 201);
    snprintf(s_session_id, sizeof s_session_id, "%s",
             json_string_value(json_object_get(r, "sessionId")));
    json_decref(r);
}

static void
test_listed(void)
{
    int status;
    json_t *r = s_request("GET", "/stream/session/term/apps", NULL, &status);
    T_EQ_INT(status, 200);
    char *text = json_dumps(json_array_get(r, 0), JSON_COMPACT);
    T_EQ_STR(text, "{\"name\":\"ttyd\",\"protocol\":\"http\",\"ports\":[7681]}");
    free(text);
    json_decref(r);
    //  The web UI's Console button needs it in service_ports (a JSON string).
    r = client_gql(&s_p, &s_p.super,
                   "query($id: UUID!) { compute_session(id: $id) { service_ports } }",
                   json_pack("{s:s}", "id", s_session_id));
    const char *ports = json_string_value(json_object_get(
        json_object_get(json_object_get(r, "data"), "compute_session"), "service_ports"));
    json_t *parsed = ports ? json_loads(ports, 0, NULL) : NULL;
    json_t *first = json_array_get(parsed, 0);
    T_ASSERT(json_is_array(parsed));
    T_EQ_STR(json_string_value(json_object_get(first, "name")), "ttyd");
    T_EQ_STR(json_string_value(json_object_get(first, "protocol")), "http");
    json_decref(parsed);
    json_decref(r);
}

//  Everything the app sends through a tunnel until it closes (or timeout):
//  the bytes in *out (caller frees), their count returned.
static size_t
s_tunnel_read(int fd, char **out, const char *needle)
{
    size_t cap = 1 << 20, used = 0;
    char *text = calloc(1, cap + 1);
    while (text) {
        char *data = NULL;
        size_t size = 0;
        int opcode = client_ws_recv(fd, &data, &size, WAIT_MS);
        if (opcode == 2 && used + size <= cap) {
            memcpy(text + used, data, size);
            used += size;
        } else if (opcode == 9)
            client_ws_send(fd, 10, data, size);
        free(data);
        if (opcode != 2 && opcode != 9 && opcode != 10)
            break;
        if (needle && memmem(text, used, needle, strlen(needle)))
            break;
    }
    *out = text;
    return used;
}

//  The payloads of the server frames in bytes (a ttyd WebSocket read raw
//  through the tunnel) that are output ('0' first), the '0' left out.
static char *
s_output(const char *bytes, size_t size)
{
    char *text = calloc(1, size + 1);
    size_t used = 0, at = 0;
    while (text && at + 2 <= size) {
        const uint8_t *h = (const uint8_t *) bytes + at;
        uint64_t length = h[1] & 0x7F;
        size_t head = 2;
        if (length == 126 && at + 4 <= size) {
            length = (uint64_t) h[2] << 8 | h[3];
            head = 4;
        } else if (length == 127 && at + 10 <= size) {
            length = 0;
            for (int i = 0; i < 8; i++)
                length = length << 8 | h[2 + i];
            head = 10;
        } else if (length >= 126)
            break;
        if (at + head + length > size)
            break; //  the rest comes later
        const char *payload = bytes + at + head;
        if ((h[0] & 0x0F) == 2 && length > 0 && payload[0] == '0') {
            memcpy(text + used, payload + 1, length - 1);
            used += length - 1;
        }
        at += head + length;
    }
    return text;
}

static void
test_page_through_the_tunnel(void)
{
    int status;
    int fd = client_ws_open(&s_p, &s_p.super, "/stream/session/term/tcpproxy?app=ttyd",
                            &status);
    T_EQ_INT(status, 101);
    T_ASSERT(fd >= 0);
    const char *request = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n";
    T_EQ_INT(client_ws_send(fd, 2, request, strlen(request)), 0);
    char *out = NULL;
    s_tunnel_read(fd, &out, NULL);
    close(fd);
    T_CONTAINS(out, "HTTP/1.1 200 OK");
    T_CONTAINS(out, "text/html");
    T_CONTAINS(out, "new WebSocket(url.href, ['tty'])");
    bool xterm = strstr(out, "<script src=\"xterm.js\">") != NULL;
    free(out);
    if (!xterm)
        T_SKIP("backplane-ttyd was built without xterm.js (npm was unavailable)");
    fd = client_ws_open(&s_p, &s_p.super, "/stream/session/term/tcpproxy?app=ttyd",
                        &status);
    T_ASSERT(fd >= 0);
    request = "GET /xterm.js HTTP/1.1\r\nHost: localhost\r\n\r\n";
    T_EQ_INT(client_ws_send(fd, 2, request, strlen(request)), 0);
    size_t size = s_tunnel_read(fd, &out, NULL);
    close(fd);
    T_CONTAINS(out, "HTTP/1.1 200 OK");
    T_CONTAINS(out, "application/javascript");
    T_ASSERT(size > 100000);
    free(out);
}

//  ttyd's WebSocket inside the tunnel: the upgrade, the hello, a command.
static void
test_terminal_through_the_tunnel(void)
{
    int status;
    int fd = client_ws_open(&s_p, &s_p.super, "/stream/session/term/tcpproxy?app=ttyd",
                            &status);
    T_EQ_INT(status, 101);
    T_ASSERT(fd >= 0);
    const char *upgrade = "GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
                          "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          "Sec-WebSocket-Protocol: tty\r\n\r\n";
    T_EQ_INT(client_ws_send(fd, 2, upgrade, strlen(upgrade)), 0);
    char *out = NULL;
    s_tunnel_read(fd, &out, "\r\n\r\n");
    T_CONTAINS(out, "HTTP/1.1 101 Switching Protocols");
    T_CONTAINS(out, "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    T_CONTAINS(out, "Sec-WebSocket-Protocol: tty");
    free(out);
    uint8_t frames[512];
    const char *hello = "{\"AuthToken\": \"\", \"columns\": 90, \"rows\": 25}";
    size_t n = s_frame(frames, 2, hello, strlen(hello));
    n += s_frame(frames + n, 2, "0echo $((6*7))\r", 15);
    T_EQ_INT(client_ws_send(fd, 2, frames, n), 0);
    //  The terminal's output as the client reads it: the payloads of the
    //  inner frames that carry output ('0'), however the PTY split it.
    char *screen = NULL;
    size_t size = 0;
    out = NULL;
    for (int tries = 0; tries < 20; tries++) {
        char *more = NULL;
        size_t got = s_tunnel_read(fd, &more, "42\r\n");
        char *grown = realloc(out, size + got + 1);
        if (!grown) {
            free(more);
            break;
        }
        out = grown;
        memcpy(out + size, more, got);
        size += got;
        out[size] = '\0';
        free(more);
        free(screen);
        screen = s_output(out, size);
        if (screen && strstr(screen, "\n42\r\n"))
            break;
    }
    T_CONTAINS(screen, "\n42\r\n");
    T_ASSERT(memmem(out, size, "2{}", 3) != NULL); //  the preferences came
    free(screen);
    free(out);
    //  A close inside: the terminal answers it, then ends the connection.
    n = s_frame(frames, 8, "\x03\xe8", 2);
    T_EQ_INT(client_ws_send(fd, 2, frames, n), 0);
    size = s_tunnel_read(fd, &out, "\x88\x02\x03\xe8");
    T_ASSERT(memmem(out, size, "\x88\x02\x03\xe8", 4) != NULL);
    free(out);
    close(fd);
}

static void
test_through_the_wsproxy(void)
{
    char api[128];
    T_ASSERT(client_wsproxy_start(&s_p, &s_wsp, api, sizeof api));
    char addr[200];
    snprintf(addr, sizeof addr, "http://%s", api);
    json_t *response = client_gql(
        &s_p, &s_p.super,
        "mutation($name: String!, $input: ModifyScalingGroupInput!) {"
        " modify_scaling_group(name: $name, props: $input) { ok msg } }",
        json_pack("{s:s, s:{s:s}}", "name", "default", "input", "wsproxy_addr", addr));
    T_ASSERT(client_mutation_ok(response, "modify_scaling_group"));
    json_decref(response);
    T_ASSERT(client_app_via_wsproxy(&s_p, &s_p.super, "term", s_session_id, "ttyd", addr,
                                    s_hostport, sizeof s_hostport, s_cookie,
                                    sizeof s_cookie));
    char cookie_header[600];
    snprintf(cookie_header, sizeof cookie_header, "Cookie: %s", s_cookie);
    const char *headers[] = {cookie_header, NULL};
    char *text = NULL;
    T_EQ_INT(harness_http_ex(s_hostport, "GET", "/", headers, NULL, NULL, &text, NULL,
                             WAIT_MS),
             200);
    T_CONTAINS(text, "['tty']");
    free(text);

    char head[2048];
    int a = s_ws_open(head, sizeof head);
    T_ASSERT(a >= 0);
    T_CONTAINS(head, "Sec-WebSocket-Protocol: tty");
    const char *hello = "{\"AuthToken\": \"\", \"columns\": 100, \"rows\": 30}";
    T_EQ_INT(client_ws_send(a, 2, hello, strlen(hello)), 0);
    //  The window title, then the preferences, as ttyd sends them.
    char *data = NULL;
    size_t size = 0;
    T_EQ_INT(client_ws_recv(a, &data, &size, WAIT_MS), 2);
    T_ASSERT(data[0] == '1');
    T_CONTAINS(data, "/bin/ash (");
    free(data);
    T_EQ_INT(client_ws_recv(a, &data, &size, WAIT_MS), 2);
    T_EQ_STR(data, "2{}");
    free(data);
    T_EQ_INT(s_type(a, "echo $((6*7)) $(whoami) $(pwd)\r"), 0);
    char *out = s_until(a, "42 work /home/work\r\n");
    T_ASSERT(out);
    free(out);
    T_EQ_INT(s_type(a, "stty size\r"), 0);
    out = s_until(a, "30 100\r\n");
    T_ASSERT(out);
    free(out);
    const char *resize = "1{\"columns\": 132, \"rows\": 43}";
    T_EQ_INT(client_ws_send(a, 2, resize, strlen(resize)), 0);
    T_EQ_INT(s_type(a, "stty size\r"), 0);
    out = s_until(a, "43 132\r\n");
    T_ASSERT(out);
    free(out);

    //  A second client: a shell of its own.
    T_EQ_INT(s_type(a, "MINE=first\r"), 0);
    int b = s_ws_open(head, sizeof head);
    T_ASSERT(b >= 0);
    T_EQ_INT(client_ws_send(b, 2, hello, strlen(hello)), 0);
    T_EQ_INT(s_type(b, "echo \"mine=[$MINE]\"\r"), 0);
    out = s_until(b, "mine=[]\r\n");
    T_ASSERT(out);
    free(out);
    T_EQ_INT(s_type(a, "echo \"mine=[$MINE]\"\r"), 0);
    out = s_until(a, "mine=[first]\r\n");
    T_ASSERT(out);
    free(out);
    //  The first vanishes mid-frame; the second goes on.
    T_EQ_INT(client_ws_send_raw(a, "\x82\x90", 2), 0);
    close(a);
    T_EQ_INT(s_type(b, "echo still-$((40+2))\r"), 0);
    out = s_until(b, "still-42\r\n");
    T_ASSERT(out);
    free(out);
    close(b);
}

static void
test_destroy(void)
{
    int status;
    json_t *r = s_request("DELETE", "/session/term", NULL, &status);
    json_decref(r);
    T_EQ_INT(status, 200);
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
    T_RUN(test_listed);
    T_RUN(test_page_through_the_tunnel);
    T_RUN(test_terminal_through_the_tunnel);
    T_RUN(test_through_the_wsproxy);
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
    client_platform_end(&s_p, t_failures > 0 || !clean);
    return clean ? T_DONE() : 1;
}
