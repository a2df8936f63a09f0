/*  =========================================================================
    gateway_python_test - the Python runtime end to end: a real agent runs
    the Debian python image (deploy/images/build) in runc, and the gateway's
    execute routes drive its one long-lived interpreter. input() and
    getpass() make a run wait for input, which the execute WebSocket (or a
    POST in mode "input") answers; variables live on from run to run; an
    interrupt ends a busy loop with KeyboardInterrupt and the interpreter
    goes on; sys.exit ends it and the next run gets a fresh one; a batch run
    executes an uploaded main.py with its exit code. Needs root, runc, umoci
    and tini, and the python image (built when absent: skips when it cannot
    be, e.g. without Debian's archive).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gateway_client.h"
#include "t.h"

#define IMAGE   "local.backplane/library/python:latest"
#define AGENT   "agent-py"
#define SESSION "py-first"

static client_platform_t s_p;
static harness_proc_t s_agent;
static char s_bridge[16];
static char *s_images; //  the temp dir main put the image in, under images/

//  A signed request as the superadmin; the parsed body (NULL if none).
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

//  What the console records of one kind ("stdout", "stderr") say, appended
//  to out.
static void
s_console_append(json_t *result, const char *kind, char *out, size_t size)
{
    size_t i;
    json_t *record;
    json_array_foreach(json_object_get(result, "console"), i, record)
    {
        const char *text = json_string_value(json_array_get(record, 1));
        if (text && strcmp(json_string_value(json_array_get(record, 0)), kind) == 0)
            strncat(out, text, size - strlen(out) - 1);
    }
}

//  The output a stream's results carried, across results.
typedef struct {
    char out[8192];
    char err[8192];
    int results;
} s_seen_t;

//  Reads execute-stream results until one that is not "continued",
//  "clean-finished" or "build-finished" (waiting-input, finished, error);
//  returns it (NULL when the stream ended first). stdout and stderr add up
//  in seen.
static json_t *
s_stream_until_stop(int fd, s_seen_t *seen)
{
    for (;;) {
        char *data = NULL;
        int opcode = client_ws_recv(fd, &data, NULL, 20000);
        if (opcode != 1) {
            fprintf(stderr, "# the stream ended: opcode %d\n", opcode);
            free(data);
            return NULL;
        }
        json_t *result = json_loads(data, 0, NULL);
        free(data);
        seen->results++;
        s_console_append(result, "stdout", seen->out, sizeof seen->out);
        s_console_append(result, "stderr", seen->err, sizeof seen->err);
        const char *status = json_string_value(json_object_get(result, "status"));
        if (!status ||
            (strcmp(status, "continued") != 0 && strcmp(status, "build-finished") != 0 &&
             strcmp(status, "clean-finished") != 0))
            return result;
        json_decref(result);
    }
}

//  The close frame that ends a stream: its code.
static int
s_close_code(int fd)
{
    char *data = NULL;
    size_t size = 0;
    int opcode = client_ws_recv(fd, &data, &size, 5000);
    int code = opcode == 8 && size >= 2
                   ? ((unsigned char) data[0] << 8 | (unsigned char) data[1])
                   : -opcode;
    free(data);
    return code;
}

//  Opens the session's execute WebSocket and sends request. The socket, or -1.
static int
s_stream_start(const char *request)
{
    int status;
    int fd =
        client_ws_open(&s_p, &s_p.super, "/stream/session/" SESSION "/execute", &status);
    if (fd < 0) {
        fprintf(stderr, "# execute WebSocket: %d\n", status);
        return -1;
    }
    if (client_ws_send(fd, 1, request, strlen(request)) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

//  One query-mode POST execute of code; its result's stdout into out and its
//  stderr into err (each may be NULL). The result's status, or "" (static).
static const char *
s_query(const char *code, char *out, size_t out_size, char *err, size_t err_size)
{
    static char seen[32];
    json_t *request = json_pack("{s:s, s:s}", "mode", "query", "code", code);
    char *body = json_dumps(request, JSON_COMPACT);
    json_decref(request);
    int status;
    json_t *r = s_request("POST", "/session/" SESSION, body, &status);
    free(body);
    json_t *result = json_object_get(r, "result");
    snprintf(seen, sizeof seen, "%s",
             status == 200 ? json_string_value(json_object_get(result, "status")) : "");
    if (out) {
        out[0] = 0;
        s_console_append(result, "stdout", out, out_size);
    }
    if (err) {
        err[0] = 0;
        s_console_append(result, "stderr", err, err_size);
    }
    json_decref(r);
    return seen;
}

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "gw-python", false) == 0);
    //  The image main fetched moves into the platform's dir, where the
    //  agent looks.
    char from[512], to[512];
    snprintf(from, sizeof from, "%s/images", s_images);
    snprintf(to, sizeof to, "%s/images", s_p.dir);
    T_ASSERT(rename(from, to) == 0 || harness_python_images(s_p.dir) == 0);
    snprintf(s_bridge, sizeof s_bridge, "bpy%d", (int) (getpid() % 100000));
    char net[64], subnet[80];
    snprintf(net, sizeof net, "agent.network.bridge=%s", s_bridge);
    snprintf(subnet, sizeof subnet, "agent.network.cidr=%s", harness_subnet());
    const char *extra[] = {"agent.slots.cpu=2", "agent.slots.mem=2g", net, subnet, NULL};
    harness_bus_t bus = {s_p.hub_publish, s_p.hub_subscribe, s_p.registry};
    T_ASSERT(harness_agent_start(&s_agent, s_p.dir, AGENT, &bus, extra, NULL, 0) == 0);
    //  The gateway resolves images from its catalogue, fed by the agent.
    bool listed = false;
    for (int tries = 0; tries < CLIENT_READY_MS / 100 && !listed; tries++) {
        json_t *r = client_gql(&s_p, &s_p.super, "{ images { name } }", NULL);
        char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
        listed = text && strstr(text, "library/python");
        free(text);
        json_decref(r);
        if (!listed)
            harness_pause_ms(100);
    }
    T_ASSERT(listed);
}

static void
test_create(void)
{
    //  The image's first kernel on this agent unpacks it first: on a busy
    //  machine that takes longer than a request usually may.
    char *text = NULL;
    client_sign_opts_t opts = {.timeout_ms = 180000};
    int status = client_signed(&s_p, &s_p.super, "POST", "/session",
                               "{\"name\": \"" SESSION "\", \"image\": \"" IMAGE "\","
                               " \"config\": {\"resources\": {\"cpu\": 1, \"mem\":"
                               " \"512m\"}}, \"type\": \"interactive\","
                               " \"group\": \"default\", \"domain\": \"default\"}",
                               &opts, &text, NULL);
    json_t *r = text ? json_loads(text, 0, NULL) : NULL;
    if (status != 201)
        fprintf(stderr, "# POST /session: %d %s\n", status, text ? text : "");
    free(text);
    T_EQ_INT(status, 201);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "RUNNING");
    json_decref(r);
}

static void
test_input_over_websocket(void)
{
    //  As `backend.ai run` does: a waiting-input result shows the prompt,
    //  the answer goes back as a text frame, the same stream goes on.
    int fd = s_stream_start("{\"code\": \"x = input('name? ')\\nprint('hello', x)\","
                            " \"mode\": \"query\", \"options\": {}}");
    T_ASSERT(fd >= 0);
    s_seen_t seen = {0};
    json_t *last = s_stream_until_stop(fd, &seen);
    T_EQ_STR(json_string_value(json_object_get(last, "status")), "waiting-input");
    T_ASSERT(
        json_is_false(json_object_get(json_object_get(last, "options"), "is_password")));
    T_EQ_STR(seen.out, "name? ");
    json_decref(last);
    T_EQ_INT(client_ws_send(fd, 1, "world", 5), 0);
    seen.out[0] = 0;
    last = s_stream_until_stop(fd, &seen);
    T_EQ_STR(json_string_value(json_object_get(last, "status")), "finished");
    T_EQ_INT(json_integer_value(json_object_get(last, "exitCode")), 0);
    T_EQ_STR(seen.out, "hello world\n");
    T_EQ_STR(seen.err, "");
    json_decref(last);
    T_EQ_INT(s_close_code(fd), 1000);
    close(fd);
}

static void
test_input_over_post(void)
{
    //  The non-streaming API: the query answers waiting-input, a POST in
    //  mode "input" with the same runId answers it.
    int status;
    json_t *r = s_request("POST", "/session/" SESSION,
                          "{\"mode\": \"query\", \"runId\": \"py-in\","
                          " \"code\": \"print(input('again? ').upper())\"}",
                          &status);
    T_EQ_INT(status, 200);
    json_t *result = json_object_get(r, "result");
    T_EQ_STR(json_string_value(json_object_get(result, "status")), "waiting-input");
    char out[256] = "";
    s_console_append(result, "stdout", out, sizeof out);
    T_EQ_STR(out, "again? ");
    json_decref(r);
    r = s_request("POST", "/session/" SESSION,
                  "{\"mode\": \"input\", \"runId\": \"py-in\", \"code\": \"posted\"}",
                  &status);
    T_EQ_INT(status, 200);
    result = json_object_get(r, "result");
    T_EQ_STR(json_string_value(json_object_get(result, "status")), "finished");
    out[0] = 0;
    s_console_append(result, "stdout", out, sizeof out);
    T_EQ_STR(out, "POSTED\n");
    json_decref(r);
}

static void
test_state_kept(void)
{
    char out[1024];
    T_EQ_STR(s_query("y = 41", out, sizeof out, NULL, 0), "finished");
    T_EQ_STR(out, "");
    T_EQ_STR(s_query("print(y + 1)", out, sizeof out, NULL, 0), "finished");
    T_EQ_STR(out, "42\n");
    //  What the WebSocket run read lives on too; the code runs as the
    //  image's user, in its home.
    T_EQ_STR(s_query("import os\nprint(x, os.getuid(), os.getcwd())", out, sizeof out,
                     NULL, 0),
             "finished");
    T_EQ_STR(out, "world 1000 /home/work\n");
}

static void
test_getpass(void)
{
    int fd = s_stream_start("{\"code\": \"import getpass\\n"
                            "secret = getpass.getpass()\\nprint(len(secret))\","
                            " \"mode\": \"query\"}");
    T_ASSERT(fd >= 0);
    s_seen_t seen = {0};
    json_t *last = s_stream_until_stop(fd, &seen);
    T_EQ_STR(json_string_value(json_object_get(last, "status")), "waiting-input");
    T_ASSERT(
        json_is_true(json_object_get(json_object_get(last, "options"), "is_password")));
    T_EQ_STR(seen.out, "Password: ");
    json_decref(last);
    T_EQ_INT(client_ws_send(fd, 1, "hunter2", 7), 0);
    seen.out[0] = 0;
    last = s_stream_until_stop(fd, &seen);
    T_EQ_STR(json_string_value(json_object_get(last, "status")), "finished");
    T_EQ_STR(seen.out, "7\n");
    json_decref(last);
    close(fd);
}

static void
test_interrupt(void)
{
    int fd = s_stream_start("{\"code\": \"print('spinning', flush=True)\\n"
                            "while True: pass\", \"mode\": \"query\"}");
    T_ASSERT(fd >= 0);
    //  The run is under way once its first output came back ("continued").
    s_seen_t seen = {0};
    for (int i = 0; i < 30 && !strstr(seen.out, "spinning"); i++) {
        char *data = NULL;
        int opcode = client_ws_recv(fd, &data, NULL, 10000);
        json_t *result = opcode == 1 ? json_loads(data, 0, NULL) : NULL;
        free(data);
        T_ASSERT(result);
        T_EQ_STR(json_string_value(json_object_get(result, "status")), "continued");
        s_console_append(result, "stdout", seen.out, sizeof seen.out);
        json_decref(result);
    }
    T_EQ_STR(seen.out, "spinning\n");
    int status;
    json_t *r = s_request("POST", "/session/" SESSION "/interrupt", NULL, &status);
    T_EQ_INT(status, 204);
    json_decref(r);
    json_t *last = s_stream_until_stop(fd, &seen);
    T_EQ_STR(json_string_value(json_object_get(last, "status")), "finished");
    //  The driver caught it: the run failed, the interpreter lives.
    T_EQ_INT(json_integer_value(json_object_get(last, "exitCode")), 1);
    T_CONTAINS(seen.err, "Traceback (most recent call last)");
    T_CONTAINS(seen.err, "KeyboardInterrupt");
    json_decref(last);
    T_EQ_INT(s_close_code(fd), 1000);
    close(fd);
    char out[1024];
    T_EQ_STR(s_query("print('after', y)", out, sizeof out, NULL, 0), "finished");
    T_EQ_STR(out, "after 41\n");
}

static void
test_errors_and_exit(void)
{
    //  An exception: its traceback (without the driver's frame), exit 1.
    char out[1024], err[4096];
    T_EQ_STR(s_query("1 / 0", out, sizeof out, err, sizeof err), "finished");
    T_CONTAINS(err, "ZeroDivisionError");
    T_ASSERT(!strstr(err, "exec(compile"));
    //  sys.exit ends the interpreter with its code; the next run gets a
    //  fresh one, without the old variables.
    int status;
    json_t *r = s_request("POST", "/session/" SESSION,
                          "{\"mode\": \"query\", \"code\": \"import sys\\nsys.exit(3)\"}",
                          &status);
    json_t *result = json_object_get(r, "result");
    T_EQ_STR(json_string_value(json_object_get(result, "status")), "finished");
    T_EQ_INT(json_integer_value(json_object_get(result, "exitCode")), 3);
    json_decref(r);
    T_EQ_STR(s_query("print('y' in globals())", out, sizeof out, NULL, 0), "finished");
    T_EQ_STR(out, "False\n");
}

static void
test_batch(void)
{
    //  As `backend.ai run main.py` does: upload, then batch with "*" steps.
    const char *multipart = "--XyZ\r\n"
                            "Content-Type: application/octet-stream\r\n"
                            "Content-Disposition: form-data; name=\"src\"; "
                            "filename=\"main.py\"\r\n"
                            "\r\n"
                            "import sys\n"
                            "print('batch says', 6 * 7)\n"
                            "print('to stderr', file=sys.stderr)\n"
                            "raise SystemExit(4)\n"
                            "\r\n"
                            "--XyZ--\r\n";
    client_sign_opts_t form = {.content_type = "multipart/form-data; boundary=XyZ"};
    char *text = NULL;
    int status = client_signed(&s_p, &s_p.super, "POST", "/session/" SESSION "/upload",
                               multipart, &form, &text, NULL);
    T_EQ_INT(status, 204);
    free(text);
    int fd = s_stream_start("{\"code\": \"\", \"mode\": \"batch\", \"options\":"
                            " {\"clean\": \"*\", \"build\": \"*\", \"exec\": \"*\"}}");
    T_ASSERT(fd >= 0);
    s_seen_t seen = {0};
    json_t *last = s_stream_until_stop(fd, &seen);
    T_EQ_STR(json_string_value(json_object_get(last, "status")), "finished");
    T_EQ_INT(json_integer_value(json_object_get(last, "exitCode")), 4);
    T_EQ_STR(seen.out, "batch says 42\n");
    T_EQ_STR(seen.err, "to stderr\n");
    json_decref(last);
    T_EQ_INT(s_close_code(fd), 1000);
    close(fd);
}

//  The ids runc lists under the agent's root, space-separated.
static void
s_runc_list(char *out, size_t size)
{
    char command[600];
    snprintf(command, sizeof command,
             "runc --root %s/" AGENT "/runc list -q 2>/dev/null | tr '\\n' ' '", s_p.dir);
    out[0] = 0;
    FILE *pipe = popen(command, "r");
    if (pipe) {
        if (!fgets(out, (int) size, pipe))
            out[0] = 0;
        pclose(pipe);
    }
}

static void
test_destroy(void)
{
    char ids[512];
    s_runc_list(ids, sizeof ids);
    T_ASSERT(ids[0] != 0); //  the session's container, while it runs
    int status;
    json_t *r = s_request("DELETE", "/session/" SESSION, NULL, &status);
    T_EQ_INT(status, 200);
    json_decref(r);
    const char *last = "";
    static char seen[32];
    for (int tries = 0; tries < 100; tries++) {
        r = s_request("GET", "/session/" SESSION, NULL, &status);
        snprintf(seen, sizeof seen, "%s",
                 json_string_value(json_object_get(r, "status")));
        last = seen;
        json_decref(r);
        if (strcmp(last, "TERMINATED") == 0)
            break;
        harness_pause_ms(100);
    }
    T_EQ_STR(last, "TERMINATED");
    for (int tries = 0; tries < 50; tries++) {
        s_runc_list(ids, sizeof ids);
        if (!ids[0])
            break;
        harness_pause_ms(100);
    }
    T_EQ_STR(ids, "");
}

int
main(void)
{
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    //  Before anything starts: without the image there is nothing to test.
    s_images = harness_tmpdir("gw-python-image");
    if (!s_images || harness_python_images(s_images) != 0) {
        harness_rmdir(s_images);
        free(s_images);
        printf("1..0 # SKIP the python image could not be built (deploy/images/build "
               "python needs mmdebstrap and Debian's archive)\n");
        return 0;
    }
    T_RUN(test_start);
    harness_rmdir(s_images);
    free(s_images);
    if (t_failures)
        return T_DONE();
    T_RUN(test_create);
    T_RUN(test_input_over_websocket);
    T_RUN(test_input_over_post);
    T_RUN(test_state_kept);
    T_RUN(test_getpass);
    T_RUN(test_interrupt);
    T_RUN(test_errors_and_exit);
    T_RUN(test_batch);
    T_RUN(test_destroy);
    int agent = harness_stop(&s_agent, CLIENT_STOP_MS);
    bool clean =
        client_platform_stop(&s_p) && agent == 0 && !harness_log_has_report(&s_agent);
    if (!clean)
        fprintf(stderr, "# a service did not stop cleanly (agent %d)\n", agent);
    char command[64];
    snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridge);
    //  An agent that stops with no kernel removes its bridge itself.
    if (system(command) == 0)
        fprintf(stderr, "# the agent left its bridge %s\n", s_bridge);
    client_platform_end(&s_p, t_failures > 0 || !clean);
    return clean ? T_DONE() : 1;
}
