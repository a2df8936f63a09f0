/*  =========================================================================
    jupyter_app_test - Jupyter in a session, opened both ways a user opens it

    The jupyter image (Debian's jupyter-notebook and its service
    definition) runs in a real runc container. Through the gateway's
    stream tunnel, with this process acting as `backend.ai app` does (a
    local port, one WebSocket per connection), and through the wsproxy,
    as Backend.AI's web UI opens it (start-service, add, the permit
    cookie): Jupyter's API answers, a notebook kernel starts, `6*7` runs
    over the kernel's WebSocket and answers 42, the kernel is deleted.
    Then the wsproxy is killed with -9 and started again: the same URL and
    cookie reach Jupyter. Needs root, runc, umoci, tini, and the jupyter
    image (built from Debian's archive the first time: skipped without it).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gateway_client.h"
#include "t.h"

#define IMAGE      "local.backplane/library/jupyter:latest"
#define JUPYTER_MS 60000 //  a notebook kernel starts in seconds, slower under load

static client_platform_t s_p;
static harness_proc_t s_agent;
static harness_proc_t s_wsp;
static char s_bridge[16];
static char *s_images;
static char s_session_id[64];
static char s_wsp_api[128];
static client_tunnel_t *s_tunnel; //  the local end, as `backend.ai app` runs it

//  ---------------------------------------------------------------------------
//  A notebook round trip against Jupyter at hostport (cookie: NULL or
//  "name=value").

//  A WebSocket to hostport's path; the socket, or -1.
static int
s_ws_connect(const char *hostport, const char *path, const char *cookie)
{
    char host[128];
    snprintf(host, sizeof host, "%s", hostport);
    char *colon = strrchr(host, ':');
    if (!colon)
        return -1;
    *colon = '\0';
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(atoi(colon + 1))};
    if (inet_pton(AF_INET, host, &addr.sin_addr) != 1)
        return -1;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *) &addr, sizeof addr) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    char request[2048];
    int n = snprintf(request, sizeof request,
                     "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n%s%s%s\r\n",
                     path, hostport, cookie ? "Cookie: " : "", cookie ? cookie : "",
                     cookie ? "\r\n" : "");
    char *head = client_ws_send_raw(fd, request, (size_t) n) == 0
                     ? client_read_until(fd, "\r\n\r\n", JUPYTER_MS)
                     : NULL;
    bool upgraded = head && strncmp(head, "HTTP/1.1 101", 12) == 0;
    if (!upgraded)
        fprintf(stderr, "# kernel channel: %s\n", head ? head : "(nothing)");
    free(head);
    if (!upgraded) {
        close(fd);
        return -1;
    }
    return fd;
}

static const char s_execute[] =
    "{\"header\": {\"msg_id\": \"bp-6x7\", \"username\": \"test\", \"session\": \"bp\","
    " \"msg_type\": \"execute_request\", \"version\": \"5.3\"}, \"parent_header\": {},"
    " \"metadata\": {}, \"channel\": \"shell\", \"buffers\": [],"
    " \"content\": {\"code\": \"6*7\", \"silent\": false, \"store_history\": true,"
    " \"user_expressions\": {}, \"allow_stdin\": false}}";

static void
s_notebook(const char *hostport, const char *cookie)
{
    char cookie_header[600];
    snprintf(cookie_header, sizeof cookie_header, "Cookie: %s", cookie ? cookie : "");
    const char *headers[] = {cookie ? cookie_header : NULL, NULL};
    char *text = NULL;
    T_EQ_INT(harness_http_ex(hostport, "GET", "/api", headers, NULL, NULL, &text, NULL,
                             JUPYTER_MS),
             200);
    T_CONTAINS(text, "\"version\"");
    free(text);
    text = NULL;
    T_EQ_INT(harness_http_ex(hostport, "POST", "/api/kernels", headers,
                             "application/json", "{\"name\": \"python3\"}", &text, NULL,
                             JUPYTER_MS),
             201);
    json_t *kernel = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    const char *id = json_string_value(json_object_get(kernel, "id"));
    T_ASSERT(id);
    char path[256];
    snprintf(path, sizeof path, "/api/kernels/%s/channels", id ? id : "none");
    int ws = s_ws_connect(hostport, path, cookie);
    T_ASSERT(ws >= 0);
    T_EQ_INT(client_ws_send(ws, 1, s_execute, strlen(s_execute)), 0);
    bool answered = false;
    for (int frames = 0; ws >= 0 && frames < 200 && !answered; frames++) {
        char *data = NULL;
        int opcode = client_ws_recv(ws, &data, NULL, JUPYTER_MS);
        if (opcode < 0 || opcode == 8) {
            free(data);
            break;
        }
        answered = opcode == 1 && strstr(data, "\"execute_result\"") &&
                   strstr(data, "\"bp-6x7\"") && strstr(data, "\"text/plain\": \"42\"");
        free(data);
    }
    T_ASSERT(answered);
    if (ws >= 0)
        close(ws);
    snprintf(path, sizeof path, "/api/kernels/%s", id ? id : "none");
    T_EQ_INT(harness_http_ex(hostport, "DELETE", path, headers, NULL, NULL, NULL, NULL,
                             JUPYTER_MS),
             204);
    json_decref(kernel);
}

//  ---------------------------------------------------------------------------

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "jupyter-app", false) == 0);
    snprintf(s_bridge, sizeof s_bridge, "bpj%d", (int) (getpid() % 100000));
    T_ASSERT(client_image_agent_start(&s_p, &s_agent, "agent-j", s_bridge, s_images,
                                      "jupyter"));
    T_ASSERT(client_session_running(
        &s_p, &s_p.super,
        "{\"name\": \"notebook\", \"image\": \"" IMAGE "\","
        " \"enqueueOnly\": true,"
        " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"1g\"}}}",
        "notebook", s_session_id));
    s_tunnel = client_tunnel_new(&s_p, &s_p.super,
                                 "/stream/session/notebook/tcpproxy?app=jupyter");
    T_ASSERT(s_tunnel);
}

static void
test_through_the_tunnel(void)
{
    char hostport[64];
    snprintf(hostport, sizeof hostport, "127.0.0.1:%d", client_tunnel_port(s_tunnel));
    s_notebook(hostport, NULL);
}

static void
test_through_the_wsproxy(void)
{
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
    char hostport[128], cookie[512];
    T_ASSERT(client_app_via_wsproxy(&s_p, &s_p.super, "notebook", s_session_id, "jupyter",
                                    addr, hostport, sizeof hostport, cookie,
                                    sizeof cookie));
    s_notebook(hostport, cookie);
    //  The wsproxy dies with the route open, and comes back: the same port
    //  and cookie lead to Jupyter again.
    kill(s_wsp.pid, SIGKILL);
    harness_stop(&s_wsp, CLIENT_STOP_MS);
    char api[128];
    T_ASSERT(client_wsproxy_start(&s_p, &s_wsp, api, sizeof api));
    char cookie_header[600];
    snprintf(cookie_header, sizeof cookie_header, "Cookie: %s", cookie);
    const char *headers[] = {cookie_header, NULL};
    int status = 0;
    for (int tries = 0; tries < 50 && status != 200; tries++) {
        status = harness_http_ex(hostport, "GET", "/api", headers, NULL, NULL, NULL, NULL,
                                 JUPYTER_MS);
        if (status != 200)
            harness_pause_ms(100); //  until its cron has bound the port again
    }
    T_EQ_INT(status, 200);
}

static void
test_destroy(void)
{
    T_EQ_INT(client_signed(&s_p, &s_p.super, "DELETE", "/session/notebook", NULL, NULL,
                           NULL, NULL),
             200);
}

int
main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGPIPE, SIG_IGN);
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    s_images = harness_tmpdir("jupyter-image");
    if (!s_images || harness_debian_image(s_images, "jupyter") != 0) {
        harness_rmdir(s_images);
        free(s_images);
        printf("1..0 # SKIP the jupyter image could not be built (deploy/images/build "
               "jupyter needs mmdebstrap and Debian's archive)\n");
        return 0;
    }
    T_RUN(test_start);
    harness_rmdir(s_images);
    free(s_images);
    if (t_failures)
        return T_DONE();
    T_RUN(test_through_the_tunnel);
    T_RUN(test_through_the_wsproxy);
    T_RUN(test_destroy);
    client_tunnel_destroy(&s_tunnel);
    int agent = harness_stop(&s_agent, CLIENT_STOP_MS);
    int wsproxy = s_wsp.pid > 0 ? harness_stop(&s_wsp, CLIENT_STOP_MS) : 0;
    bool clean = client_platform_stop(&s_p) && agent == 0 && wsproxy == 0 &&
                 !harness_log_has_report(&s_agent) && !harness_log_has_report(&s_wsp);
    if (!clean)
        fprintf(stderr, "# a service did not stop cleanly (agent %d, wsproxy %d)\n",
                agent, wsproxy);
    char command[64];
    snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridge);
    if (system(command) == 0)
        fprintf(stderr, "# the agent left its bridge %s\n", s_bridge);
    client_platform_end(&s_p, t_failures > 0 || !clean);
    return clean ? T_DONE() : 1;
}
