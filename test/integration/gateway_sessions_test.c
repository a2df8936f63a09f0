/*  =========================================================================
    gateway_sessions_test - the /session routes against the whole platform
    with a real agent and real runc containers: POST /session waits until
    the session runs, execute in query mode returns Backend.AI's result,
    the execute WebSocket streams results as `backend.ai run` reads them,
    /events/session relays the lifecycle, GET shows it, DELETE ends it; an
    administrator acts for another keypair with owner_access_key; bad names,
    images and resources get Backend.AI's problem+json. Needs root, runc,
    umoci and tini.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include <openssl/evp.h>

#include "gateway_client.h"
#include "t.h"

#define IMAGE "local.backplane/library/busybox:latest"

static client_platform_t s_p;
static harness_proc_t s_agent;
static char s_bridge[16];

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

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "gw-sessions", true) == 0);
    snprintf(s_bridge, sizeof s_bridge, "bpg%d", (int) (getpid() % 100000));
    T_ASSERT(client_agent_start(&s_p, &s_agent, "agent-g", s_bridge, harness_subnet()));
}

static void
test_create_waits_until_running(void)
{
    int status;
    json_t *r =
        s_request("POST", "/session",
                  "{\"name\": \"gw-first\", \"image\": \"" IMAGE "\","
                  " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"256m\"},"
                  " \"environ\": {\"GREETING\": \"hello\"}}, \"type\": \"interactive\","
                  " \"group\": \"default\", \"domain\": \"default\"}",
                  &status);
    T_EQ_INT(status, 201);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "RUNNING");
    T_EQ_STR(json_string_value(json_object_get(r, "sessionName")), "gw-first");
    T_ASSERT(json_is_true(json_object_get(r, "created")));
    T_EQ_INT(strlen(json_string_value(json_object_get(r, "sessionId"))), 36);
    json_decref(r);
    r = s_request("GET", "/session/gw-first", NULL, &status);
    T_EQ_INT(status, 200);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "RUNNING");
    T_CONTAINS(json_string_value(json_object_get(r, "occupiedSlots")), "\"cpu\":\"1\"");
    json_decref(r);
}

static void
test_execute_query(void)
{
    int status;
    json_t *r = s_request("POST", "/session/gw-first",
                          "{\"mode\": \"query\", \"runId\": \"run-1\","
                          " \"code\": \"echo $GREETING from $(whoami)\"}",
                          &status);
    T_EQ_INT(status, 200);
    json_t *result = json_object_get(r, "result");
    T_EQ_STR(json_string_value(json_object_get(result, "status")), "finished");
    T_EQ_INT(json_integer_value(json_object_get(result, "exitCode")), 0);
    char *console = json_dumps(json_object_get(result, "console"), JSON_COMPACT);
    T_CONTAINS(console, "hello from");
    free(console);
    json_decref(r);

    //  Over the schema's limits: 400 naming the field, before any call to
    //  the agent (not an empty request body and an empty result).
    char body[256];
    snprintf(body, sizeof body,
             "{\"mode\": \"query\", \"runId\": \"%065d\", \"code\": \"true\"}", 1);
    r = s_request("POST", "/session/gw-first", body, &status);
    T_EQ_INT(status, 400);
    T_CONTAINS(json_string_value(json_object_get(r, "type")), "invalid-api-params");
    T_EQ_STR(json_string_value(json_object_get(r, "msg")), "runId: 65 bytes, at most 64");
    json_decref(r);
    r = s_request("POST", "/session/gw-first",
                  "{\"mode\": \"query-query-query\", \"code\": \"true\"}", &status);
    T_EQ_INT(status, 400);
    T_CONTAINS(json_string_value(json_object_get(r, "type")), "invalid-api-params");
    T_CONTAINS(json_string_value(json_object_get(r, "msg")),
               "field 'mode': 17 bytes, at most 16");
    json_decref(r);
    //  At the limit it runs.
    snprintf(body, sizeof body,
             "{\"mode\": \"query\", \"runId\": \"%064d\", \"code\": \"true\"}", 1);
    r = s_request("POST", "/session/gw-first", body, &status);
    T_EQ_INT(status, 200);
    T_EQ_STR(json_string_value(json_object_get(json_object_get(r, "result"), "status")),
             "finished");
    json_decref(r);
}

static void
test_logs_and_interrupt(void)
{
    int status;
    json_t *r = s_request("GET", "/session/gw-first/logs", NULL, &status);
    T_EQ_INT(status, 200);
    //  The runner logs where it listens when the container starts.
    T_CONTAINS(json_string_value(json_object_get(json_object_get(r, "result"), "logs")),
               "backplane-runner");
    json_decref(r);
    r = s_request("POST", "/session/gw-first/interrupt", NULL, &status);
    T_EQ_INT(status, 204);
    json_decref(r);
    //  Every session has the web terminal; busybox declares one app
    //  (app_tunnel_test opens both).
    r = s_request("GET", "/stream/session/gw-first/apps", NULL, &status);
    T_EQ_INT(status, 200);
    T_ASSERT(json_is_array(r) && json_array_size(r) == 2);
    char *listed = json_dumps(r, JSON_COMPACT);
    T_EQ_STR(listed, "[{\"name\":\"ttyd\",\"protocol\":\"http\",\"ports\":[7681]},"
                     "{\"name\":\"httpd\",\"protocol\":\"http\",\"ports\":[8000]}]");
    free(listed);
    json_decref(r);
}

static void
test_graphql_sees_it(void)
{
    //  As `backend.ai ps` and `session info` ask.
    json_t *r = client_gql(
        &s_p, &s_p.super,
        "query($limit: Int!, $offset: Int!, $status: String) {"
        " compute_session_list(limit: $limit, offset: $offset, status: $status) {"
        " items { id name image type status status_info group_name user_email"
        " occupied_slots containers { agent status } } total_count } }",
        json_pack("{s:i, s:i, s:s}", "limit", 20, "offset", 0, "status",
                  "PENDING,SCHEDULED,PREPARING,RUNNING,TERMINATING"));
    json_t *list = json_object_get(json_object_get(r, "data"), "compute_session_list");
    T_EQ_INT(json_integer_value(json_object_get(list, "total_count")), 1);
    json_t *item = json_array_get(json_object_get(list, "items"), 0);
    T_EQ_STR(json_string_value(json_object_get(item, "name")), "gw-first");
    T_EQ_STR(json_string_value(json_object_get(item, "status")), "RUNNING");
    T_EQ_STR(json_string_value(json_object_get(item, "group_name")), "default");
    T_EQ_STR(json_string_value(json_object_get(item, "image")), IMAGE);
    T_CONTAINS(json_string_value(json_object_get(item, "user_email")), "@");
    T_EQ_STR(json_string_value(json_object_get(
                 json_array_get(json_object_get(item, "containers"), 0), "agent")),
             "agent-g");
    char id[64];
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(item, "id")));
    json_decref(r);
    r = client_gql(&s_p, &s_p.super,
                   "query($id: UUID!) { compute_session(id: $id) { name status_data"
                   " status_history status_transitions requested_slots } }",
                   json_pack("{s:s}", "id", id));
    json_t *session = json_object_get(json_object_get(r, "data"), "compute_session");
    T_EQ_STR(json_string_value(json_object_get(session, "name")), "gw-first");
    T_CONTAINS(json_string_value(json_object_get(session, "requested_slots")),
               "\"cpu\":");
    //  Backend.AI's status_history: each status's time; and every move in
    //  order with its reason.
    json_t *history = json_loads(
        json_string_value(json_object_get(session, "status_history")), 0, NULL);
    T_ASSERT(json_is_string(json_object_get(history, "PENDING")));
    T_ASSERT(json_is_string(json_object_get(history, "RUNNING")));
    T_CONTAINS(json_string_value(json_object_get(history, "RUNNING")), "T");
    json_decref(history);
    json_t *moves = json_loads(
        json_string_value(json_object_get(session, "status_transitions")), 0, NULL);
    T_ASSERT(json_array_size(moves) >= 3);
    T_EQ_STR(json_string_value(json_object_get(json_array_get(moves, 0), "status")),
             "PENDING");
    T_EQ_STR(json_string_value(json_object_get(
                 json_array_get(moves, json_array_size(moves) - 1), "status")),
             "RUNNING");
    json_decref(moves);
    json_decref(r);
}

static void
test_bad_requests(void)
{
    int status;
    json_t *r = s_request("POST", "/session",
                          "{\"name\": \"x\", \"image\": \"" IMAGE "\"}", &status);
    T_EQ_INT(status, 400);
    T_CONTAINS(json_string_value(json_object_get(r, "type")), "invalid-api-params");
    json_decref(r);
    r = s_request(
        "POST", "/session",
        "{\"name\": \"gw-nothing\", \"image\": \"local.backplane/library/nope\"}",
        &status);
    T_EQ_INT(status, 404);
    T_CONTAINS(json_string_value(json_object_get(r, "type")), "object-not-found");
    json_decref(r);
    r = s_request("POST", "/session",
                  "{\"name\": \"gw-tiny\", \"image\": \"" IMAGE "\","
                  " \"config\": {\"resources\": {\"mem\": \"1m\"}}}",
                  &status);
    T_EQ_INT(status, 400);
    T_CONTAINS(json_string_value(json_object_get(r, "msg")), "minimum");
    json_decref(r);
    r = s_request("POST", "/session",
                  "{\"name\": \"gw-first\", \"image\": \"" IMAGE "\","
                  " \"reuseIfExists\": true}",
                  &status);
    T_EQ_INT(status, 201);
    T_ASSERT(json_is_false(json_object_get(r, "created")));
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "RUNNING");
    json_decref(r);
    r = s_request("POST", "/session",
                  "{\"name\": \"gw-first\", \"image\": \"" IMAGE "\","
                  " \"reuseIfExists\": false}",
                  &status);
    T_EQ_INT(status, 400);
    T_CONTAINS(json_string_value(json_object_get(r, "type")), "session-already-exists");
    json_decref(r);
    r = s_request("GET", "/session/no-such-session", NULL, &status);
    T_EQ_INT(status, 404);
    json_decref(r);
    //  More than any agent of the group has (the agent offers 2 cpus, 2g):
    //  refused at once, not PENDING for ever.
    r = s_request("POST", "/session",
                  "{\"name\": \"gw-huge\", \"image\": \"" IMAGE "\","
                  " \"config\": {\"resources\": {\"cpu\": 64, \"mem\": \"256m\"}}}",
                  &status);
    T_EQ_INT(status, 400);
    T_CONTAINS(json_string_value(json_object_get(r, "msg")), "no agent");
    json_decref(r);
}

//  Reads execute-stream results until "finished" (or anything that ends
//  the stream); returns the last result, the stdout seen and how many
//  results came.
static json_t *
s_stream_results(int fd, char *out, size_t out_size, int *results, bool *continued)
{
    *results = 0;
    *continued = false;
    out[0] = 0;
    for (;;) {
        char *data = NULL;
        int opcode = client_ws_recv(fd, &data, NULL, 20000);
        if (opcode != 1) {
            free(data);
            return NULL;
        }
        json_t *result = json_loads(data, 0, NULL);
        free(data);
        (*results)++;
        size_t i;
        json_t *record;
        json_array_foreach(json_object_get(result, "console"), i, record)
        {
            if (strcmp(json_string_value(json_array_get(record, 0)), "stdout") == 0)
                strncat(out, json_string_value(json_array_get(record, 1)),
                        out_size - strlen(out) - 1);
        }
        const char *status = json_string_value(json_object_get(result, "status"));
        if (status && strcmp(status, "continued") == 0)
            *continued = true;
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

static void
test_stream_execute(void)
{
    //  As `backend.ai run -c CODE` does: one query, results streamed while
    //  the code runs, then finished with the exit code, then a normal close.
    int status;
    int fd =
        client_ws_open(&s_p, &s_p.super, "/stream/session/gw-first/execute", &status);
    T_EQ_INT(status, 101);
    T_ASSERT(fd >= 0);
    const char *request = "{\"code\": \"echo one; sleep 1.5; echo two; exit 3\","
                          " \"mode\": \"query\", \"options\": {}}";
    T_EQ_INT(client_ws_send(fd, 1, request, strlen(request)), 0);
    char out[4096];
    int results;
    bool continued;
    json_t *last = s_stream_results(fd, out, sizeof out, &results, &continued);
    T_EQ_STR(json_string_value(json_object_get(last, "status")), "finished");
    T_EQ_INT(json_integer_value(json_object_get(last, "exitCode")), 3);
    T_EQ_STR(out, "one\ntwo\n");
    T_ASSERT(continued); //  "one" came before the run ended
    T_ASSERT(results >= 2);
    json_decref(last);
    T_EQ_INT(s_close_code(fd), 1000);
    close(fd);

    //  Batch mode: build, then exec, with the exec's exit code.
    fd = client_ws_open(&s_p, &s_p.super, "/stream/session/gw-first/execute", &status);
    T_ASSERT(fd >= 0);
    request = "{\"code\": \"\", \"mode\": \"batch\", \"options\": {\"clean\": null,"
              " \"build\": \"echo building\", \"buildLog\": false,"
              " \"exec\": \"echo running; exit 5\"}}";
    T_EQ_INT(client_ws_send(fd, 1, request, strlen(request)), 0);
    last = s_stream_results(fd, out, sizeof out, &results, &continued);
    T_EQ_STR(json_string_value(json_object_get(last, "status")), "finished");
    T_EQ_INT(json_integer_value(json_object_get(last, "exitCode")), 5);
    T_CONTAINS(out, "building");
    T_CONTAINS(out, "running");
    json_decref(last);
    close(fd);
}

static void
test_stream_refusals(void)
{
    int status;
    //  A plain GET is not a WebSocket.
    json_t *r = s_request("GET", "/stream/session/gw-first/execute", NULL, &status);
    T_EQ_INT(status, 400);
    json_decref(r);
    //  No such session.
    int fd =
        client_ws_open(&s_p, &s_p.super, "/stream/session/gw-nobody/execute", &status);
    T_EQ_INT(fd, -1);
    T_EQ_INT(status, 404);
    //  A first message that is not a request: an error result, then close.
    fd = client_ws_open(&s_p, &s_p.super, "/stream/session/gw-first/execute", &status);
    T_ASSERT(fd >= 0);
    T_EQ_INT(client_ws_send(fd, 1, "not json", 8), 0);
    char *data = NULL;
    T_EQ_INT(client_ws_recv(fd, &data, NULL, 5000), 1);
    T_CONTAINS(data, "\"status\":\"error\"");
    free(data);
    T_EQ_INT(s_close_code(fd), 1000);
    close(fd);
    //  An unmasked frame breaks RFC 6455: close 1002.
    fd = client_ws_open(&s_p, &s_p.super, "/stream/session/gw-first/execute", &status);
    T_ASSERT(fd >= 0);
    T_EQ_INT(client_ws_send_raw(fd, "\x81\x02{}", 4), 0);
    T_EQ_INT(s_close_code(fd), 1002);
    close(fd);
    //  A ping is answered with a pong carrying the same bytes.
    fd = client_ws_open(&s_p, &s_p.super, "/stream/session/gw-first/execute", &status);
    T_ASSERT(fd >= 0);
    T_EQ_INT(client_ws_send(fd, 9, "hi", 2), 0);
    size_t size = 0;
    T_EQ_INT(client_ws_recv(fd, &data, &size, 5000), 10);
    T_EQ_STR(data, "hi");
    free(data);
    close(fd);
}

static void
test_stream_client_gone(void)
{
    //  A client that leaves mid-run leaves nothing running: the next
    //  execute finds the kernel free at once.
    int status;
    int fd =
        client_ws_open(&s_p, &s_p.super, "/stream/session/gw-first/execute", &status);
    T_ASSERT(fd >= 0);
    const char *request = "{\"code\": \"echo started; sleep 60\", \"mode\": \"query\"}";
    T_EQ_INT(client_ws_send(fd, 1, request, strlen(request)), 0);
    char *data = NULL;
    T_EQ_INT(client_ws_recv(fd, &data, NULL, 10000), 1);
    T_CONTAINS(data, "started");
    free(data);
    close(fd);
    json_t *r = NULL;
    const char *result_status = "";
    for (int tries = 0; tries < 50; tries++) {
        json_decref(r);
        r = s_request("POST", "/session/gw-first",
                      "{\"mode\": \"query\", \"code\": \"echo after\"}", &status);
        json_t *result = json_object_get(r, "result");
        result_status = json_string_value(json_object_get(result, "status"));
        char *console = json_dumps(json_object_get(result, "console"), JSON_COMPACT);
        bool done = result_status && strcmp(result_status, "finished") == 0 && console &&
                    strstr(console, "after");
        free(console);
        if (done)
            break;
        struct timespec pause = {0, 100 * 1000000L};
        nanosleep(&pause, NULL);
    }
    T_EQ_STR(result_status, "finished");
    json_decref(r);
}

static void
test_events(void)
{
    int status;
    char head[4096];
    //  One stream that leaves at once, one that stays and watches gw-ev.
    int gone = client_stream_open(&s_p, &s_p.super, "/events/session", NULL, &status,
                                  head, sizeof head);
    T_EQ_INT(status, 200);
    close(gone);
    int fd = client_stream_open(&s_p, &s_p.super,
                                "/events/session?sessionName=gw-ev&scope=%2A", NULL,
                                &status, head, sizeof head);
    T_EQ_INT(status, 200);
    T_CONTAINS(head, "text/event-stream");
    json_t *r =
        s_request("POST", "/session",
                  "{\"name\": \"gw-ev\", \"image\": \"" IMAGE "\","
                  " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"}}}",
                  &status);
    T_EQ_INT(status, 201);
    json_decref(r);
    char *text = client_read_until(fd, "event: session_started", 10000);
    T_ASSERT(text != NULL);
    T_CONTAINS(text, "event: session_enqueued");
    T_CONTAINS(text, "event: kernel_started");
    T_CONTAINS(text, "\"sessionName\":\"gw-ev\"");
    T_CONTAINS(text, "\"ownerAccessKey\":\"");
    T_ASSERT(!strstr(text, "gw-first")); //  only the session asked for
    free(text);
    r = s_request("DELETE", "/session/gw-ev", NULL, &status);
    T_EQ_INT(status, 200);
    json_decref(r);
    text = client_read_until(fd, "event: session_terminated", 10000);
    T_ASSERT(text != NULL);
    T_CONTAINS(text, "\"reason\":\"user-requested\"");
    free(text);
    close(fd);
    //  Bad parameters; background tasks that do not exist.
    r = s_request("GET", "/events/session?scope=everything", NULL, &status);
    T_EQ_INT(status, 400);
    json_decref(r);
    r = s_request("GET",
                  "/events/background-task?task_id=0b5a3c4e-0000-4000-8000-000000000000",
                  NULL, &status);
    T_EQ_INT(status, 404);
    json_decref(r);
}

static void
test_files(void)
{
    //  As the client's upload sends them: aiohttp percent-encodes the name.
    const char *multipart =
        "--XyZ\r\n"
        "Content-Type: application/octet-stream\r\n"
        "Content-Disposition: form-data; name=\"src\"; filename=\"hello.txt\"\r\n"
        "\r\n"
        "hello file\r\n"
        "--XyZ\r\n"
        "Content-Type: application/octet-stream\r\n"
        "Content-Disposition: form-data; name=\"src\"; "
        "filename=\"dir%2Fnested.txt\"\r\n"
        "\r\n"
        "nested content\r\n"
        "--XyZ--\r\n";
    client_sign_opts_t form = {.content_type = "multipart/form-data; boundary=XyZ"};
    char *text = NULL;
    int status = client_signed(&s_p, &s_p.super, "POST", "/session/gw-first/upload",
                               multipart, &form, &text, NULL);
    T_EQ_INT(status, 204);
    free(text);
    //  The container sees them, as its user.
    json_t *r =
        s_request("POST", "/session/gw-first",
                  "{\"mode\": \"query\", \"code\": \"cat dir/nested.txt; stat -c %u "
                  "hello.txt\"}",
                  &status);
    char *console = json_dumps(json_object_get(json_object_get(r, "result"), "console"),
                               JSON_COMPACT);
    T_CONTAINS(console, "nested content");
    T_CONTAINS(console, "1000");
    free(console);
    json_decref(r);
    //  Listing (the 22.03 client: GET with a JSON body).
    r = s_request("GET", "/session/gw-first/files", "{\"path\": \"dir\"}", &status);
    T_EQ_INT(status, 200);
    T_CONTAINS(json_string_value(json_object_get(r, "files")),
               "\"filename\": \"nested.txt\"");
    T_EQ_STR(json_string_value(json_object_get(r, "abspath")), "/home/work/dir");
    json_decref(r);
    //  One file as it is.
    status = client_signed(&s_p, &s_p.super, "POST",
                           "/session/gw-first/download_single?file=dir/nested.txt", NULL,
                           NULL, &text, NULL);
    T_EQ_INT(status, 200);
    T_EQ_STR(text, "nested content");
    free(text);
    //  Downloads: multipart/mixed, a tar archive per path.
    char *headers = NULL;
    status =
        client_signed(&s_p, &s_p.super, "GET", "/session/gw-first/download",
                      "{\"files\": [\"dir\", \"hello.txt\"]}", NULL, &text, &headers);
    T_EQ_INT(status, 200);
    T_CONTAINS(headers, "multipart/mixed; boundary=");
    //  (The text stops at the archive's first NUL: the tar's own content
    //  is checked in kernels_test; the official client reads it whole.)
    T_CONTAINS(text, "Content-Encoding: identity");
    T_CONTAINS(text, "\r\n\r\ndir/");
    free(text);
    free(headers);
    //  Refusals: an escape, too many paths, a missing file.
    const char *escape = "--XyZ\r\n"
                         "Content-Disposition: form-data; name=\"src\"; "
                         "filename=\"..%2F..%2Fetc%2Fx\"\r\n"
                         "\r\n"
                         "x\r\n"
                         "--XyZ--\r\n";
    status = client_signed(&s_p, &s_p.super, "POST", "/session/gw-first/upload", escape,
                           &form, &text, NULL);
    T_EQ_INT(status, 400);
    free(text);
    r = s_request("GET", "/session/gw-first/download",
                  "{\"files\": [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\"]}", &status);
    T_EQ_INT(status, 400);
    json_decref(r);
    r = s_request("POST", "/session/gw-first/download_single?file=no-such-file", NULL,
                  &status);
    T_EQ_INT(status, 404);
    json_decref(r);
}

static void
test_rename(void)
{
    int status;
    json_t *r =
        s_request("POST", "/session/gw-first/rename?name=gw-renamed", NULL, &status);
    T_EQ_INT(status, 204);
    json_decref(r);
    r = s_request("GET", "/session/gw-renamed", NULL, &status);
    T_EQ_INT(status, 200);
    json_decref(r);
    r = s_request("POST", "/session/gw-renamed/rename?name=x", NULL, &status);
    T_EQ_INT(status, 400); //  too short a name
    json_decref(r);
    r = s_request("POST", "/session/gw-renamed/rename?name=gw-first", NULL, &status);
    T_EQ_INT(status, 204);
    json_decref(r);
}

static void
test_restart(void)
{
    //  As `backend.ai session restart` asks: files stay, processes do not.
    int status;
    json_t *r = s_request("POST", "/session/gw-first",
                          "{\"mode\": \"query\", \"code\": \"echo kept > kept.txt; "
                          "sleep 4321 & echo $! > sleep.pid\"}",
                          &status);
    T_EQ_INT(status, 200);
    json_decref(r);
    r = s_request("POST", "/session/gw-first",
                  "{\"mode\": \"query\", \"code\": \"grep -qs 4321 "
                  "/proc/$(cat sleep.pid)/cmdline && echo alive || echo gone\"}",
                  &status);
    char *before = json_dumps(json_object_get(json_object_get(r, "result"), "console"),
                              JSON_COMPACT);
    T_CONTAINS(before, "alive");
    free(before);
    json_decref(r);
    r = s_request("PATCH", "/session/gw-first", NULL, &status);
    T_EQ_INT(status, 204);
    json_decref(r);
    r = s_request("GET", "/session/gw-first", NULL, &status);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "RUNNING");
    T_EQ_STR(json_string_value(json_object_get(r, "statusInfo")), "restarted");
    json_decref(r);
    r = s_request("POST", "/session/gw-first",
                  "{\"mode\": \"query\", \"code\": \"cat kept.txt; grep -qs 4321 "
                  "/proc/$(cat sleep.pid)/cmdline && echo alive || echo gone\"}",
                  &status);
    char *console = json_dumps(json_object_get(json_object_get(r, "result"), "console"),
                               JSON_COMPACT);
    T_CONTAINS(console, "kept\\ngone\\n");
    free(console);
    json_decref(r);
}

//  Reads terminal messages until their decoded output contains needle.
static bool
s_pty_until(int fd, const char *needle)
{
    char screen[16384];
    size_t used = 0;
    screen[0] = 0;
    for (int i = 0; i < 200; i++) {
        char *data = NULL;
        if (client_ws_recv(fd, &data, NULL, 10000) != 1) {
            free(data);
            break;
        }
        json_t *message = json_loads(data, 0, NULL);
        free(data);
        const char *out = json_string_value(json_object_get(message, "data"));
        if (out &&
            strcmp(json_string_value(json_object_get(message, "type")), "out") == 0) {
            unsigned char bytes[12288];
            size_t length = strlen(out);
            int n = length <= 16384 ? EVP_DecodeBlock(bytes, (const unsigned char *) out,
                                                      (int) length)
                                    : -1;
            for (int k = 0; k < n && used + 1 < sizeof screen; k++)
                if (bytes[k])
                    screen[used++] = (char) bytes[k];
            screen[used] = 0;
        }
        json_decref(message);
        if (strstr(screen, needle))
            return true;
    }
    fprintf(stderr, "# terminal never showed '%s'; it showed:\n%s\n", needle, screen);
    return false;
}

static void
test_pty(void)
{
    //  The terminal of reference §4: base64 keystrokes in, base64 screen out.
    int status;
    int fd = client_ws_open(&s_p, &s_p.super, "/stream/session/gw-first/pty", &status);
    T_EQ_INT(status, 101);
    T_ASSERT(fd >= 0);
    char message[256], encoded[128];
    const char *typed = "echo pty-$((6*7))\n";
    EVP_EncodeBlock((unsigned char *) encoded, (const unsigned char *) typed,
                    (int) strlen(typed));
    snprintf(message, sizeof message, "{\"type\":\"stdin\",\"chars\":\"%s\"}", encoded);
    T_EQ_INT(client_ws_send(fd, 1, message, strlen(message)), 0);
    T_ASSERT(s_pty_until(fd, "pty-42"));
    const char *resize = "{\"type\":\"resize\",\"rows\":30,\"cols\":100}";
    T_EQ_INT(client_ws_send(fd, 1, resize, strlen(resize)), 0);
    typed = "stty size\n";
    EVP_EncodeBlock((unsigned char *) encoded, (const unsigned char *) typed,
                    (int) strlen(typed));
    snprintf(message, sizeof message, "{\"type\":\"stdin\",\"chars\":\"%s\"}", encoded);
    T_EQ_INT(client_ws_send(fd, 1, message, strlen(message)), 0);
    T_ASSERT(s_pty_until(fd, "30 100"));
    //  Not base64: an error message, and the terminal goes on.
    const char *bad = "{\"type\":\"stdin\",\"chars\":\"%%%\"}";
    T_EQ_INT(client_ws_send(fd, 1, bad, strlen(bad)), 0);
    bool refused = false;
    for (int i = 0; i < 50 && !refused; i++) {
        char *data = NULL;
        if (client_ws_recv(fd, &data, NULL, 5000) != 1) {
            free(data);
            break;
        }
        refused = strstr(data, "\"type\":\"error\"") && strstr(data, "base64");
        free(data);
    }
    T_ASSERT(refused);
    //  The shell exits: the terminal says so and the stream closes.
    typed = "exit\n";
    EVP_EncodeBlock((unsigned char *) encoded, (const unsigned char *) typed,
                    (int) strlen(typed));
    snprintf(message, sizeof message, "{\"type\":\"stdin\",\"chars\":\"%s\"}", encoded);
    T_EQ_INT(client_ws_send(fd, 1, message, strlen(message)), 0);
    bool ended = false;
    int opcode = 1;
    for (int i = 0; i < 50 && opcode == 1; i++) {
        char *data = NULL;
        opcode = client_ws_recv(fd, &data, NULL, 10000);
        ended = ended || (opcode == 1 && strstr(data, "the terminal has ended"));
        free(data);
    }
    T_ASSERT(ended);
    T_EQ_INT(opcode, 8); //  then the close frame
    close(fd);
}

//  Backend.AI's config.preopen_ports (numbers, or the strings the 22.03
//  client's --preopen sends) become preopen apps, and the bootstrap
//  script runs once, as the user in /home/work, before the session runs.
static void
test_preopen_and_bootstrap(void)
{
    int status;
    json_t *r = s_request(
        "POST", "/session",
        "{\"name\": \"gw-boot\", \"image\": \"" IMAGE "\","
        " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"},"
        " \"preopen_ports\": [\"8080\", 8081]},"
        " \"bootstrap_script\": \"echo booted as $(whoami) > /home/work/boot.txt\"}",
        &status);
    T_EQ_INT(status, 201);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "RUNNING");
    char *ports = json_dumps(json_object_get(r, "servicePorts"), JSON_COMPACT);
    T_CONTAINS(ports, "\"name\":\"8080\",\"protocol\":\"preopen\",\"ports\":[8080]");
    free(ports);
    json_decref(r);
    r = s_request("GET", "/stream/session/gw-boot/apps", NULL, &status);
    T_EQ_INT(status, 200);
    T_EQ_INT(json_array_size(r), 4); //  ttyd, the image's httpd, then the two
    T_EQ_STR(json_string_value(json_object_get(json_array_get(r, 3), "name")), "8081");
    T_EQ_STR(json_string_value(json_object_get(json_array_get(r, 3), "protocol")),
             "preopen");
    T_EQ_INT(json_integer_value(
                 json_array_get(json_object_get(json_array_get(r, 3), "ports"), 0)),
             8081);
    json_decref(r);
    r = s_request(
        "POST", "/session/gw-boot",
        "{\"mode\": \"query\", \"runId\": \"boot-1\", \"code\": \"cat boot.txt\"}",
        &status);
    T_EQ_INT(status, 200);
    char *console = json_dumps(json_object_get(json_object_get(r, "result"), "console"),
                               JSON_COMPACT);
    T_CONTAINS(console, "booted as work");
    free(console);
    json_decref(r);
    //  Ports the user may not take, or not a list of them.
    static const char *const bad[] = {"[80]",
                                      "[8080, 8080]",
                                      "[2001]",
                                      "[7681]",
                                      "[65535]",
                                      "[\"8080x\"]",
                                      "[\"8080\", 8080]",
                                      "[\"\"]",
                                      "[8080.5]",
                                      "8080",
                                      "[1100,1101,1102,1103,1104,1105,1106,1107,1108,"
                                      "1109,1110,1111,1112,1113,1114,1115,1116]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char body[512];
        snprintf(body, sizeof body,
                 "{\"name\": \"gw-badports\", \"image\": \"" IMAGE "\","
                 " \"config\": {\"preopen_ports\": %s}}",
                 bad[i]);
        r = s_request("POST", "/session", body, &status);
        T_EQ_INT(status, 400);
        T_CONTAINS(json_string_value(json_object_get(r, "type")), "invalid-api-params");
        json_decref(r);
    }
    r = s_request("DELETE", "/session/gw-boot", NULL, &status);
    T_EQ_INT(status, 200);
    json_decref(r);
}

static void
test_destroy(void)
{
    int status;
    json_t *r = s_request("DELETE", "/session/gw-first", NULL, &status);
    T_EQ_INT(status, 200);
    //  Its last statistics, in the form `backend.ai run --rm -s` prints.
    json_t *stats = json_object_get(r, "stats");
    T_EQ_INT(json_integer_value(json_object_get(stats, "version")), 2);
    T_ASSERT(json_is_string(json_object_get(stats, "status")));
    T_EQ_STR(
        json_string_value(json_object_get(json_object_get(stats, "mem"), "unit_hint")),
        "bytes");
    T_ASSERT(
        json_is_string(json_object_get(json_object_get(stats, "cpu_used"), "current")));
    json_decref(r);
    const char *last = "";
    for (int tries = 0; tries < 100; tries++) {
        r = s_request("GET", "/session/gw-first", NULL, &status);
        static char seen[32];
        snprintf(seen, sizeof seen, "%s",
                 json_string_value(json_object_get(r, "status")));
        last = seen;
        json_decref(r);
        if (strcmp(last, "TERMINATED") == 0)
            break;
        struct timespec pause = {0, 100 * 1000000L};
        nanosleep(&pause, NULL);
    }
    T_EQ_STR(last, "TERMINATED");
}

//  A signed request as kp; the status, and the parsed body (when body_p).
static int
s_as(const client_keypair_t *kp,
     const char *method,
     const char *path,
     const char *body,
     json_t **body_p)
{
    char *text = NULL;
    int status = client_signed(&s_p, kp, method, path, body, NULL, &text, NULL);
    if (body_p)
        *body_p = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    return status;
}

static const char *
s_status_of(json_t *session)
{
    return json_string_value(json_object_get(session, "status"));
}

//  An administrator acts for a user's keypair with owner_access_key, as
//  `backend.ai session create -o AK` and `session destroy -o AK` send it:
//  the session is the user's, made and ended as the user's, never the
//  admin's own of the same name; a user, an unknown key, and a domain admin
//  for another domain's key are refused.
static void
test_owner_access_key(void)
{
    client_keypair_t alice, bob, other_admin;
    T_ASSERT(client_person(&s_p, "alice@example.com", "default", "user", &alice));
    T_ASSERT(client_person(&s_p, "bob@example.com", "default", "user", &bob));
    json_t *r = client_gql(&s_p, &s_p.super,
                           "mutation { create_domain(name: \"elsewhere\", props: {})"
                           " { ok msg } }",
                           NULL);
    json_decref(r);
    T_ASSERT(client_person(&s_p, "admin@elsewhere.example", "elsewhere", "admin",
                           &other_admin));
    char body[512], path[256];
    //  The superadmin makes "twin" for itself and one for alice.
    const char *create =
        "{\"name\": \"twin\", \"image\": \"" IMAGE "\","
        " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"}}%s%s%s}";
    snprintf(body, sizeof body, create, "", "", "");
    T_EQ_INT(s_as(&s_p.super, "POST", "/session", body, NULL), 201);
    snprintf(body, sizeof body, create,
             ", \"tag\": \"nightly\", \"owner_access_key\": \"", alice.access_key, "\"");
    T_EQ_INT(s_as(&s_p.super, "POST", "/session", body, NULL), 201);
    //  alice sees hers as her own; its owner is her keypair
    T_EQ_INT(s_as(&alice, "GET", "/session/twin", NULL, &r), 200);
    T_EQ_STR(s_status_of(r), "RUNNING");
    json_decref(r);
    json_t *list =
        client_gql(&s_p, &alice,
                   "{ compute_session_list(limit: 10, status: \"RUNNING\") { items {"
                   " name access_key tag } total_count } }",
                   NULL);
    json_t *items = json_object_get(
        json_object_get(json_object_get(list, "data"), "compute_session_list"), "items");
    if (json_array_size(items) != 1) {
        char *text = json_dumps(list, JSON_COMPACT);
        printf("# alice's list: %s\n", text);
        free(text);
    }
    T_EQ_INT(json_array_size(items), 1);
    T_EQ_STR(json_string_value(json_object_get(json_array_get(items, 0), "access_key")),
             alice.access_key);
    T_EQ_STR(json_string_value(json_object_get(json_array_get(items, 0), "tag")),
             "nightly");
    json_decref(list);

    //  Refused: a user for another user, a domain admin for another domain's
    //  user, an unknown key; nothing is done to either session.
    snprintf(path, sizeof path, "/session/twin?owner_access_key=%s", bob.access_key);
    T_EQ_INT(s_as(&alice, "DELETE", path, NULL, NULL), 403);
    snprintf(path, sizeof path, "/session/twin?owner_access_key=%s", alice.access_key);
    T_EQ_INT(s_as(&bob, "DELETE", path, NULL, NULL), 403);
    T_EQ_INT(s_as(&other_admin, "DELETE", path, NULL, NULL), 403);
    T_EQ_INT(s_as(&other_admin, "GET", path, NULL, NULL), 403);
    T_EQ_INT(
        s_as(&s_p.super, "DELETE", "/session/twin?owner_access_key=AKNOBODY", NULL, NULL),
        400);
    snprintf(body, sizeof body, create, ", \"owner_access_key\": \"", alice.access_key,
             "\"");
    T_EQ_INT(s_as(&bob, "POST", "/session", body, NULL), 403);

    //  The superadmin ends alice's: hers ends, its own "twin" runs on.
    T_EQ_INT(s_as(&s_p.super, "DELETE", path, NULL, NULL), 200);
    const char *seen = "";
    for (int tries = 0; tries < 100 && strcmp(seen, "TERMINATED") != 0; tries++) {
        T_EQ_INT(s_as(&alice, "GET", "/session/twin", NULL, &r), 200);
        static char last[32];
        snprintf(last, sizeof last, "%s", s_status_of(r) ? s_status_of(r) : "");
        seen = last;
        json_decref(r);
        if (strcmp(seen, "TERMINATED") != 0) {
            struct timespec pause = {0, 100 * 1000000L};
            nanosleep(&pause, NULL);
        }
    }
    T_EQ_STR(seen, "TERMINATED");
    T_EQ_INT(s_as(&s_p.super, "GET", "/session/twin", NULL, &r), 200);
    T_EQ_STR(s_status_of(r), "RUNNING");
    json_decref(r);
    T_EQ_INT(s_as(&s_p.super, "DELETE", "/session/twin", NULL, NULL), 200);
}

//  The c_info of the ended session name in a usage/month answer, and its
//  project's object in group_p; NULL when accounting has none yet.
static json_t *
s_ended_kernel(json_t *usage, const char *name, json_t **group_p)
{
    size_t g, k;
    json_t *group, *kernel;
    json_array_foreach(usage, g, group)
    {
        json_array_foreach(json_object_get(group, "c_infos"), k, kernel)
        {
            const char *its = json_string_value(json_object_get(kernel, "name"));
            const char *end = json_string_value(json_object_get(kernel, "terminated_at"));
            if (its && strcmp(its, name) == 0 && end && strcmp(end, "None") != 0) {
                *group_p = group;
                return kernel;
            }
        }
    }
    return NULL;
}

//  The month's usage (what `backend.ai admin resource usage-per-month`
//  reads, every key it prints), the period's, a user's 30 days of bins, and
//  their refusals: gw-first ran here, so the accounting service has its
//  record once the events reached it.
static void
test_usage(void)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    char path[160];
    snprintf(path, sizeof path, "/resource/usage/month?month=%04d%02d", tm.tm_year + 1900,
             tm.tm_mon + 1);
    json_t *info = NULL, *usage = NULL, *group = NULL;
    int status = 0;
    for (int tries = 0; tries < 50 && !info; tries++) {
        json_decref(usage);
        usage = s_request("GET", path, NULL, &status);
        info = s_ended_kernel(usage, "gw-first", &group);
        if (!info) {
            struct timespec pause = {0, 100 * 1000000L};
            nanosleep(&pause, NULL);
        }
    }
    T_EQ_INT(status, 200);
    T_ASSERT(info);
    static const char *const group_keys[] = {
        "g_name",          "g_id",          "domain_name", "g_smp",
        "g_mem_allocated", "g_cpu_used",    "g_mem_used",  "g_io_read",
        "g_io_write",      "g_device_type", "c_infos"};
    static const char *const info_keys[] = {
        "name", "access_key",    "image_name", "used_days", "created_at", "terminated_at",
        "smp",  "mem_allocated", "io_read",    "io_write",  "nfs",        "device_type"};
    for (size_t i = 0; i < sizeof group_keys / sizeof group_keys[0]; i++)
        T_ASSERT(json_object_get(group, group_keys[i]));
    for (size_t i = 0; info && i < sizeof info_keys / sizeof info_keys[0]; i++)
        T_ASSERT(json_object_get(info, info_keys[i]));
    T_EQ_STR(json_string_value(json_object_get(group, "g_name")), "default");
    T_EQ_INT(json_integer_value(json_object_get(info, "mem_allocated")), 256 << 20);
    T_EQ_INT(json_integer_value(json_object_get(info, "smp")), 1);
    //  Strings, as the client concatenates them: Python's str() of the time.
    T_CONTAINS(json_string_value(json_object_get(info, "created_at")), "+00:00");
    T_CONTAINS(json_string_value(json_object_get(info, "terminated_at")), "+00:00");
    json_decref(usage);

    //  The period around today, its end day included.
    char from[16], to[16];
    time_t yesterday = now - 86400, tomorrow = now + 86400;
    strftime(from, sizeof from, "%Y%m%d", gmtime_r(&yesterday, &tm));
    strftime(to, sizeof to, "%Y%m%d", gmtime_r(&tomorrow, &tm));
    snprintf(path, sizeof path, "/resource/usage/period?start_date=%s&end_date=%s", from,
             to);
    usage = s_request("GET", path, NULL, &status);
    T_EQ_INT(status, 200);
    T_ASSERT(json_array_size(usage) >= 1);
    json_decref(usage);
    snprintf(path, sizeof path, "/resource/usage/period?start_date=%s&end_date=%s", to,
             from);
    json_decref(s_request("GET", path, NULL, &status));
    T_EQ_INT(status, 400); //  an end before the start
    json_decref(s_request("GET",
                          "/resource/usage/period?start_date=20260101&end_date=20260501",
                          NULL, &status));
    T_EQ_INT(status, 400); //  over 100 days
    json_decref(s_request("GET", "/resource/usage/month?month=202613", NULL, &status));
    T_EQ_INT(status, 400);
    json_decref(s_request("GET", "/resource/usage/month?month=2026", NULL, &status));
    T_EQ_INT(status, 400);

    //  The superadmin's own 30 days: all 2,880 bins, gw-first in some.
    json_t *bins = s_request("GET", "/resource/stats/user/month", NULL, &status);
    T_EQ_INT(status, 200);
    T_EQ_INT(json_array_size(bins), 2880);
    json_int_t sessions = 0;
    size_t index;
    json_t *bin;
    json_array_foreach(bins, index, bin) sessions += json_integer_value(
        json_object_get(json_object_get(bin, "num_sessions"), "value"));
    T_ASSERT(sessions > 0);
    T_EQ_STR(json_string_value(json_object_get(
                 json_object_get(json_array_get(bins, 0), "mem_allocated"), "unit_hint")),
             "bytes");
    json_decref(bins);

    //  Its container's figures in GraphQL, as the web UI's session list
    //  reads them: over, so a last_stat (a JSON string) and no live_stat.
    json_t *gql =
        client_gql(&s_p, &s_p.super,
                   "{ compute_session_list(limit: 20, offset: 0, status: \"TERMINATED\")"
                   " { items { name containers { live_stat last_stat } } } }",
                   NULL);
    json_t *items = json_object_get(
        json_object_get(json_object_get(gql, "data"), "compute_session_list"), "items");
    json_t *container = NULL;
    json_t *item;
    json_array_foreach(items, index,
                       item) if (strcmp(json_string_value(json_object_get(item, "name")),
                                        "gw-first") == 0) container =
        json_array_get(json_object_get(item, "containers"), 0);
    T_ASSERT(container);
    T_ASSERT(json_is_null(json_object_get(container, "live_stat")));
    json_t *stat =
        json_loads(json_string_value(json_object_get(container, "last_stat")), 0, NULL);
    T_ASSERT(
        json_is_string(json_object_get(json_object_get(stat, "cpu_used"), "current")));
    T_ASSERT(json_is_string(json_object_get(json_object_get(stat, "mem"), "capacity")));
    json_decref(stat);
    json_decref(gql);

    //  A user reads their own bins (none), but no one's usage.
    client_keypair_t carol;
    T_ASSERT(client_person(&s_p, "carol@example.com", "default", "user", &carol));
    json_t *own = NULL;
    T_EQ_INT(s_as(&carol, "GET", "/resource/stats/user/month", NULL, &own), 200);
    T_EQ_INT(json_array_size(own), 2880);
    json_decref(own);
    snprintf(path, sizeof path, "/resource/usage/period?start_date=%s&end_date=%s", from,
             to);
    T_EQ_INT(s_as(&carol, "GET", path, NULL, NULL), 403);
}

//  A gateway that stops while a POST /session waits for its session
//  answers it (503) and frees it: the stop is clean, no leak in its log.
//  The session waits for its start time, an hour away: PENDING.
static pid_t s_waiter = -1;
static int s_waiter_pipe[2] = {-1, -1};

static void
test_stop_answers_a_waiting_create(void)
{
    int status;
    json_t *r;
    T_EQ_INT(pipe(s_waiter_pipe), 0);
    s_waiter = fork();
    if (s_waiter == 0) {
        char *text = NULL;
        int code = client_signed(
            &s_p, &s_p.super, "POST", "/session",
            "{\"name\": \"gw-later\", \"image\": \"" IMAGE "\", \"type\": \"batch\","
            " \"startup_command\": \"true\", \"starts_at\": \"1h\","
            " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"}}}",
            NULL, &text, NULL);
        free(text);
        _exit(write(s_waiter_pipe[1], &code, sizeof code) == sizeof code ? 0 : 1);
    }
    T_ASSERT(s_waiter > 0);
    //  Until gw-later is PENDING: its create waits.
    bool pending = false;
    for (int tries = 0; tries < 100 && !pending; tries++) {
        harness_pause_ms(100);
        r = s_request("GET", "/session/gw-later", NULL, &status);
        char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
        pending = text && strstr(text, "PENDING");
        free(text);
        json_decref(r);
    }
    T_ASSERT(pending);
    //  The stop (and a start, for what follows) must be clean: no leak.
    T_ASSERT(client_gateway_restart(&s_p, "gateway-2"));
    int code = -1, wstatus = 0;
    if (s_waiter > 0) {
        T_EQ_INT(read(s_waiter_pipe[0], &code, sizeof code), (int) sizeof code);
        T_EQ_INT(waitpid(s_waiter, &wstatus, 0), s_waiter);
    }
    T_EQ_INT(code, 503);
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
    T_RUN(test_create_waits_until_running);
    T_RUN(test_execute_query);
    T_RUN(test_graphql_sees_it);
    T_RUN(test_logs_and_interrupt);
    T_RUN(test_stream_execute);
    T_RUN(test_stream_refusals);
    T_RUN(test_stream_client_gone);
    T_RUN(test_events);
    T_RUN(test_files);
    T_RUN(test_rename);
    T_RUN(test_restart);
    T_RUN(test_pty);
    T_RUN(test_bad_requests);
    T_RUN(test_preopen_and_bootstrap);
    T_RUN(test_destroy);
    T_RUN(test_owner_access_key); //  after gw-first: two sessions fill the agent
    T_RUN(test_usage);
    T_RUN(test_stop_answers_a_waiting_create);
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
