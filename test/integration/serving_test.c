/*  =========================================================================
    serving_test - model services (/services) with real containers

    A model folder (usage_mode model) holds a model-definition.yaml whose
    service is busybox's httpd serving the folder itself on port 8000, with
    a health check on /health (a file of the folder). An endpoint of two
    replicas gets two routes, each an INFERENCE session whose kernel the
    agent starts the command in and health-checks from the host: both
    become HEALTHY (REST's active_routes, GraphQL's routings). Scaled to
    one, a route goes and its session ends; deleted, every session ends
    and the endpoint is gone. A health check that never passes leaves its
    route UNHEALTHY and out of active_routes; that route is ended by hand.
    An agent killed and started again checks the replica it adopts; a
    gateway restarted keeps the endpoint's route and makes no other. A
    model folder gone: replicas fail to start, counted, until the endpoint
    stops trying.

    Another model's replicas each serve a copy of its folder with their
    own kernel's id in /who (and a CGI that streams server-sent events).
    Its endpoint of three: 1,000 requests through the URL, over keep-alive
    connections (never reopened, although httpd closes its own after each
    answer) and fresh ones, are spread over all three. One replica's
    container killed (kill -9 of its init, the pid runc knows) while
    requests flow: none fails, since the wsproxy sends a GET that met the
    dead replica once more to another (an answer under way at the kill
    could be cut short: counted, at most one a connection), and a
    replacement becomes healthy and answers. A streamed completion arrives
    event by event; a token of two seconds is refused as expired, on a new
    connection and on the one it was admitted on; open to the public, the
    endpoint answers without a token. Scaled to one (the others' sessions
    end) and to five (five connections reach all five). Another user
    neither sees nor changes it. Refused with a 400: a folder that is not a
    model folder, a definition that is not YAML (the answer names the file
    and the line), a bad name, more replicas than the policy allows. Needs
    root, runc, umoci and tini.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bus.h"
#include "gateway_client.h"
#include "t.h"
#include "wsp_echo.h"

#define IMAGE        "local.backplane/library/busybox:latest"
#define SERVING_MS   120000 //  replicas start in seconds, slower under load
#define IMAGE_SERVED "local.backplane/library/served:latest" //  s_variant_images
#define IMAGE_BARE   "local.backplane/library/bare:latest"
//  The agent's slots: 5 replicas of 1 cpu and 128m (test_scale_one_and_five)
//  and one more, for a replica still ending while another starts.
#define AGENT_CPUS "agent.slots.cpu=6"
//  test_three_replicas_under_load: 1,000 requests, SPREAD_KEPT over each of
//  SPREAD_CLIENTS keep-alive connections at once and SPREAD_FRESH on
//  connections of their own beside them; each replica answers at least
//  SPREAD_SHARE_MIN percent of them.
#define SPREAD_CLIENTS   6
#define SPREAD_KEPT      150
#define SPREAD_FRESH     100
#define SPREAD_SHARE_MIN 15
//  While a replica is killed: KILL_CLIENTS keep-alive connections and one
//  of fresh connections, each pausing KILL_PAUSE_MS between requests, for
//  KILL_BEFORE answers before the kill and KILL_AFTER once the
//  replacement is healthy.
#define KILL_CLIENTS     4
#define KILL_PAUSE_MS    5
#define KILL_BEFORE      100
#define KILL_AFTER       200
#define LOAD_MS          30000 //  for so many answers
#define LOAD_THREADS_MAX 8     //  threads of requests at once
#define TALLY_MAX        8     //  replicas one load tells apart
#define SCALED_REQUESTS  20    //  on each of 5 connections to 5 replicas
#define STREAM_PIECES    4     //  the stream's events, [DONE] the last
#define STREAM_GAP_MS    500   //  between two of them (stream.sh)
#define TOKEN_WAIT_MS    10000 //  for a token of 2 s to be refused

static client_platform_t s_p;
static harness_proc_t s_agent, s_sp, s_wsp;
static char s_wsp_api[128];
static char s_url[128];   //  the endpoint's URL on the wsproxy, host:port
static char s_auth[2048]; //  "BackendAI <token>" for it
static char s_bridge[16];
static char s_storage[128];
static client_keypair_t s_alice, s_bob;
static char s_endpoint[64];
static const char *s_cidr; //  the agent's subnet, the same after its restart

//  The same model whose health check asks for a file the folder lacks.
static const char s_sick[] = "models:\n"
                             "  - name: sick-model\n"
                             "    model_path: /models\n"
                             "    service:\n"
                             "      start_command: [\"httpd\", \"-f\", \"-p\", \"8000\","
                             " \"-h\", \"/models\"]\n"
                             "      port: 8000\n"
                             "      health_check: {path: /missing, max_retries: 1,"
                             " max_wait_time: 1}\n";

static const char s_definition[] =
    "models:\n"
    "  - name: echo-model\n"
    "    model_path: /models\n"
    "    service:\n"
    "      start_command: [\"httpd\", \"-f\", \"-p\", \"8000\","
    " \"-h\", \"/models\"]\n"
    "      port: 8000\n"
    "      health_check:\n"
    "        path: /health\n"
    "        max_retries: 2\n"
    "        max_wait_time: 1\n";

//  A model whose every replica serves a copy of the folder with its own
//  kernel's id in /who, and stream.sh as a CGI (/cgi-bin/stream): the
//  replicas can be told apart by their answers.
static const char s_spread[] =
    "models:\n"
    "  - name: spread-model\n"
    "    model_path: /models\n"
    "    service:\n"
    "      start_command: [\"sh\", \"-c\", \"w=$HOME/www; mkdir -p $w/cgi-bin &&"
    " cp -r /models/. $w/ && cp /models/stream.sh $w/cgi-bin/stream &&"
    " chmod 755 $w/cgi-bin/stream && echo $BACKENDAI_KERNEL_ID > $w/who &&"
    " exec httpd -f -p 8000 -h $w\"]\n"
    "      port: 8000\n"
    "      health_check:\n"
    "        path: /health\n"
    "        max_retries: 2\n"
    "        max_wait_time: 1\n";

//  A streamed completion, as server-sent events: STREAM_PIECES events
//  STREAM_GAP_MS apart, the last one [DONE].
static const char s_stream[] = "#!/bin/sh\n"
                               "printf 'Content-Type: text/event-stream\\r\\n\\r\\n'\n"
                               "for i in 1 2 3; do\n"
                               "    printf 'data: {\"piece\": %s}\\n\\n' $i\n"
                               "    sleep 0.5\n"
                               "done\n"
                               "printf 'data: [DONE]\\n\\n'\n";

//  A signed request as kp; the status, and the parsed JSON when asked.
static int
s_as(const client_keypair_t *kp,
     const char *method,
     const char *path,
     const char *body,
     json_t **json_p)
{
    char *text = NULL;
    int status = client_signed(&s_p, kp, method, path, body, NULL, &text, NULL);
    if (json_p)
        *json_p = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
    if (status >= 400)
        fprintf(stderr, "# %s %s: %d %s\n", method, path, status, text ? text : "");
    free(text);
    return status;
}

//  Writes data to path of folder as kp (request-upload, one tus PATCH).
static bool
s_upload(const client_keypair_t *kp,
         const char *folder,
         const char *path,
         const char *data)
{
    char route[256], request[512], target[4096];
    snprintf(route, sizeof route, "/folders/%s/request-upload", folder);
    snprintf(request, sizeof request, "{\"path\": \"%s\", \"size\": %zu}", path,
             strlen(data));
    json_t *answer = NULL;
    int status = s_as(kp, "POST", route, request, &answer);
    const char *token = json_string_value(json_object_get(answer, "token"));
    if (status == 200 && token)
        snprintf(target, sizeof target, "/upload?token=%s", token);
    json_decref(answer);
    if (status != 200 || !token)
        return false;
    const char *headers[] = {"Tus-Resumable: 1.0.0", "Upload-Offset: 0", NULL};
    status = harness_http_ex(s_storage, "PATCH", target, headers,
                             "application/offset+octet-stream", data, NULL, NULL,
                             CLIENT_HTTP_MS);
    return status == 204;
}

//  A folder of alice's (mode: general or model) holding definition.
static bool
s_folder(const char *name, const char *mode, const char *definition)
{
    char body[256];
    snprintf(body, sizeof body, "{\"name\": \"%s\", \"usage_mode\": \"%s\"}", name, mode);
    return s_as(&s_alice, "POST", "/folders", body, NULL) == 201 &&
           s_upload(&s_alice, name, "model-definition.yaml", definition) &&
           s_upload(&s_alice, name, "health", "ok\n");
}

//  POST path (/services, or /services/_/try) for folder with replicas and
//  config.extra_mounts (JSON text, NULL for none); the status, the answer
//  in *json_p when given.
static int
s_post_with(const char *path,
            const char *name,
            const char *folder,
            int replicas,
            const char *extra,
            json_t **json_p)
{
    char body[2048];
    snprintf(body, sizeof body,
             "{\"name\": \"%s\", \"desired_session_count\": %d, \"image\": \"" IMAGE "\","
             " \"runtime_variant\": \"custom\", \"group\": \"default\","
             " \"domain\": \"default\", \"open_to_public\": false,"
             " \"config\": {\"model\": \"%s\", \"model_version\": 1,"
             " \"model_mount_destination\": \"/models\", \"scaling_group\": \"default\","
             " \"resources\": {\"cpu\": 1, \"mem\": \"128m\"}%s%s}}",
             name, replicas, folder, extra ? ", \"extra_mounts\": " : "",
             extra ? extra : "");
    return s_as(&s_alice, "POST", path, body, json_p);
}

static int
s_post_service(
    const char *path, const char *name, const char *folder, int replicas, json_t **json_p)
{
    return s_post_with(path, name, folder, replicas, NULL, json_p);
}

static int
s_create(const char *name, const char *folder, int replicas, json_t **json_p)
{
    return s_post_service("/services", name, folder, replicas, json_p);
}

//  The session ids of the endpoint's healthy routes (active_routes), as a
//  JSON array, once there are exactly count of them and no other route is
//  left (errors aside); NULL after SERVING_MS.
static json_t *
s_wait_healthy(size_t count)
{
    char path[128];
    if (!*s_endpoint)
        return NULL; //  never created: said where it failed
    snprintf(path, sizeof path, "/services/%s", s_endpoint);
    for (int waited = 0; waited < SERVING_MS; waited += 500) {
        json_t *info = NULL;
        int status = s_as(&s_alice, "GET", path, NULL, &info);
        json_t *routes = json_object_get(info, "active_routes");
        if (status == 200 && json_array_size(routes) == count) {
            json_t *sessions = json_array();
            size_t index;
            json_t *route;
            json_array_foreach(routes, index, route)
                json_array_append(sessions, json_object_get(route, "session_id"));
            json_decref(info);
            return sessions;
        }
        json_decref(info);
        harness_pause_ms(500);
    }
    return NULL;
}

//  GraphQL endpoint(endpoint_id: id) { status lifecycle_stage routings {...} }
//  as alice; the endpoint object, or NULL. Caller decrefs.
static json_t *
s_gql_endpoint(const char *id)
{
    json_t *r = client_gql(&s_p, &s_alice,
                           "query($id: UUID!) { endpoint(endpoint_id: $id) { name status"
                           " lifecycle_stage desired_session_count"
                           " routings { routing_id session status } } }",
                           json_pack("{s:s}", "id", id));
    json_t *endpoint =
        json_incref(json_object_get(json_object_get(r, "data"), "endpoint"));
    json_decref(r);
    return endpoint;
}

//  Whether session_id ended (TERMINATED, or gone), waiting at most SERVING_MS.
static bool
s_session_ended(const char *session_id)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s", session_id);
    for (int waited = 0; waited < SERVING_MS; waited += 200) {
        char *text = NULL;
        int status = client_signed(&s_p, &s_alice, "GET", path, NULL, NULL, &text, NULL);
        bool ended = status == 404 || (text && strstr(text, "TERMINATED"));
        free(text);
        if (ended)
            return true;
        harness_pause_ms(200);
    }
    return false;
}

//  The images of the runtime variants, beside busybox before the agent
//  starts: "served" has busybox's httpd over /models on port 8000 as its
//  own command (ENTRYPOINT and CMD), "bare" has no command at all.
static bool
s_variant_images(void)
{
    char command[1024];
    if (harness_busybox_images(s_p.dir) != 0)
        return false;
    snprintf(command, sizeof command,
             "cd %s/images && cp -a busybox served && cp -a busybox bare &&"
             " umoci config --image served:latest --clear=config.cmd"
             " --config.entrypoint=httpd --config.cmd=-f --config.cmd=-p"
             " --config.cmd=8000 --config.cmd=-h --config.cmd=/models >/dev/null &&"
             " umoci config --image bare:latest --clear=config.cmd >/dev/null",
             s_p.dir);
    return system(command) == 0;
}

//  POST /services of the folder variant-model in runtime variant with
//  image, the model mounted at dest; the status, the answer in *json_p.
static int
s_post_variant(const char *name,
               const char *variant,
               const char *image,
               const char *dest,
               json_t **json_p)
{
    json_t *body = json_pack(
        "{s:s, s:i, s:s, s:s, s:s, s:{s:s, s:s, s:s, s:{s:i, s:s}}}", "name", name,
        "desired_session_count", 1, "image", image, "group", "default", "runtime_variant",
        variant, "config", "model", "variant-model", "model_mount_destination", dest,
        "scaling_group", "default", "resources", "cpu", 1, "mem", "128m");
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    int status = s_as(&s_alice, "POST", "/services", text, json_p);
    free(text);
    return status;
}

//  The service's URL once it has one, as host:port in url; false after
//  SERVING_MS.
static bool
s_service_url(const char *id, char *url, size_t size)
{
    char path[128];
    snprintf(path, sizeof path, "/services/%s", id);
    for (int waited = 0; waited < SERVING_MS; waited += 250) {
        json_t *info = NULL;
        s_as(&s_alice, "GET", path, NULL, &info);
        const char *found = json_string_value(json_object_get(info, "service_endpoint"));
        bool done = found && strncmp(found, "http://", 7) == 0;
        if (done)
            snprintf(url, size, "%s", found + 7);
        json_decref(info);
        if (done)
            return true;
        harness_pause_ms(250);
    }
    return false;
}

//  The agent, on the same bridge and subnet each time, with AGENT_CPUS.
static bool
s_agent_start(void)
{
    const char *sets[] = {AGENT_CPUS, NULL};
    return client_agent_start_with(&s_p, &s_agent, "agent-s", s_bridge, s_cidr, sets);
}

//  ---------------------------------------------------------------------------
//  Tests

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "serving", false) == 0);
    T_ASSERT(client_storage_start(&s_p, &s_sp, s_storage, sizeof s_storage));
    T_ASSERT(client_wsproxy_start(&s_p, &s_wsp, s_wsp_api, sizeof s_wsp_api));
    T_ASSERT(s_variant_images());
    snprintf(s_bridge, sizeof s_bridge, "bps%d", (int) (getpid() % 100000));
    s_cidr = harness_subnet();
    T_ASSERT(s_agent_start());
    T_ASSERT(client_person(&s_p, "alice@example.com", "default", "user", &s_alice));
    T_ASSERT(client_person(&s_p, "bob@example.com", "default", "user", &s_bob));
    T_ASSERT(s_folder("echo-model", "model", s_definition));
    T_ASSERT(s_folder("plain", "general", s_definition));
    T_ASSERT(s_folder("sick-model", "model", s_sick));
    T_ASSERT(s_folder("spread-model", "model", s_spread));
    T_ASSERT(s_upload(&s_alice, "spread-model", "stream.sh", s_stream));
    T_ASSERT(s_folder("broken", "model",
                      "models:\n"
                      "  - name: m\n"
                      "    model_path: /models\n"
                      "    service: {start_command: [a], port: 80\n"
                      "  - name: n\n"));
}

static void
test_runtimes(void)
{
    json_t *r = NULL;
    T_EQ_INT(s_as(&s_alice, "GET", "/services/_/runtimes", NULL, &r), 200);
    json_t *runtimes = json_object_get(r, "runtimes");
    const char *names[] = {"vllm", "nim", "cmd", "custom"};
    T_EQ_INT(json_array_size(runtimes), 4);
    for (size_t i = 0; i < 4; i++)
        T_EQ_STR(json_string_value(json_object_get(json_array_get(runtimes, i), "name")),
                 names[i]);
    T_EQ_STR(json_string_value(
                 json_object_get(json_array_get(runtimes, 3), "human_readable_name")),
             "Custom (Default)");
    json_decref(r);
}

static void
test_bad_input(void)
{
    json_t *r = NULL;
    T_EQ_INT(s_create("echo-plain", "plain", 1, &r), 400);
    T_CONTAINS(json_string_value(json_object_get(r, "msg")), "not a model folder");
    json_decref(r);
    T_EQ_INT(s_create("echo-broken", "broken", 1, &r), 400);
    const char *title = json_string_value(json_object_get(r, "msg"));
    T_CONTAINS(title, "model-definition.yaml");
    T_CONTAINS(title, "line ");
    json_decref(r);
    T_EQ_INT(s_create("no", "echo-model", 1, NULL), 400);
    T_EQ_INT(s_create("bad name!", "echo-model", 1, NULL), 400);
    T_EQ_INT(s_create("echo-many", "echo-model", 11, NULL), 400);
    T_EQ_INT(s_create("echo-none", "no-such-folder", 1, NULL), 404);
    //  Where the agent mounts its own things, or above them.
    char body[512];
    snprintf(body, sizeof body,
             "{\"name\": \"echo-proc\", \"image\": \"" IMAGE "\", \"config\": {\"model\":"
             " \"echo-model\", \"model_mount_destination\": \"/opt\","
             " \"scaling_group\": \"default\"}}");
    T_EQ_INT(s_as(&s_alice, "POST", "/services", body, NULL), 400);
    T_EQ_INT(s_as(&s_alice, "GET", "/services/00000000-0000-0000-0000-000000000000", NULL,
                  NULL),
             404);
    //  Nothing was kept of them.
    r = NULL;
    T_EQ_INT(s_as(&s_alice, "GET", "/services", NULL, &r), 200);
    T_EQ_INT(json_array_size(r), 0);
    json_decref(r);
}

static void
test_two_replicas_healthy(void)
{
    json_t *r = NULL;
    T_EQ_INT(s_create("echo-svc", "echo-model", 2, &r), 200);
    const char *id = json_string_value(json_object_get(r, "endpoint_id"));
    T_ASSERT(id != NULL);
    snprintf(s_endpoint, sizeof s_endpoint, "%s", id ? id : "");
    T_EQ_INT(json_integer_value(json_object_get(r, "desired_session_count")), 2);
    T_ASSERT(json_is_null(json_object_get(r, "service_endpoint")));
    json_decref(r);
    //  A second endpoint of the same name is refused while this one lives.
    T_EQ_INT(s_create("echo-svc", "echo-model", 1, NULL), 400);
    json_t *sessions = s_wait_healthy(2);
    T_ASSERT(sessions != NULL);
    r = NULL;
    T_EQ_INT(s_as(&s_alice, "GET", "/services", NULL, &r), 200);
    T_EQ_INT(json_array_size(r), 1);
    json_t *item = json_array_get(r, 0);
    T_EQ_STR(json_string_value(json_object_get(item, "name")), "echo-svc");
    T_EQ_INT(json_integer_value(json_object_get(item, "active_route_count")), 2);
    json_decref(r);
    //  The replicas are INFERENCE sessions of alice's, named after the endpoint.
    for (size_t i = 0; i < json_array_size(sessions); i++) {
        r = client_gql(&s_p, &s_alice,
                       "query($id: UUID!) { compute_session(id: $id) { name type } }",
                       json_pack("{s:O}", "id", json_array_get(sessions, i)));
        json_t *session = json_object_get(json_object_get(r, "data"), "compute_session");
        T_EQ_STR(json_string_value(json_object_get(session, "type")), "INFERENCE");
        T_ASSERT(strncmp(json_string_value(json_object_get(session, "name"))
                             ? json_string_value(json_object_get(session, "name"))
                             : "",
                         "echo-svc-", 9) == 0);
        json_decref(r);
        //  Its model's port is a service port marked is_inference.
        char path[160];
        snprintf(path, sizeof path, "/stream/session/%s/apps",
                 json_string_value(json_array_get(sessions, i)));
        r = NULL;
        T_EQ_INT(s_as(&s_alice, "GET", path, NULL, &r), 200);
        bool inference = false;
        size_t index;
        json_t *app;
        json_array_foreach(r, index, app) inference =
            inference || (json_is_true(json_object_get(app, "is_inference")) &&
                          strcmp(json_string_value(json_object_get(app, "name")),
                                 "echo-model-8000") == 0);
        T_ASSERT(inference);
        json_decref(r);
    }
    json_decref(sessions);
    //  GraphQL says the same, in Backend.AI's upper-case names.
    json_t *endpoint = s_gql_endpoint(s_endpoint);
    T_EQ_STR(json_string_value(json_object_get(endpoint, "status")), "HEALTHY");
    T_EQ_STR(json_string_value(json_object_get(endpoint, "lifecycle_stage")), "CREATED");
    json_t *routings = json_object_get(endpoint, "routings");
    T_EQ_INT(json_array_size(routings), 2);
    for (size_t i = 0; i < json_array_size(routings); i++)
        T_EQ_STR(
            json_string_value(json_object_get(json_array_get(routings, i), "status")),
            "HEALTHY");
    json_decref(endpoint);
    r = client_gql(
        &s_p, &s_alice,
        "{ endpoint_list(limit: 10, offset: 0) { total_count items { name } } }", NULL);
    T_EQ_INT(
        json_integer_value(json_object_get(
            json_object_get(json_object_get(r, "data"), "endpoint_list"), "total_count")),
        1);
    json_decref(r);
}

//  GET path on the endpoint's URL (host:port) with auth as its
//  Authorization (NULL: none); the status, the body in *body_p when given.
static int
s_call_url(const char *hostport, const char *path, const char *auth, char **body_p)
{
    char header[2048];
    snprintf(header, sizeof header, "Authorization: %s", auth ? auth : "");
    const char *headers[] = {header, NULL};
    return harness_http_ex(hostport, "GET", path, auth ? headers : NULL, NULL, NULL,
                           body_p, NULL, CLIENT_HTTP_MS);
}

//  The healthy replicas get a URL on the wsproxy (service_endpoint), which
//  admits requests with a token from POST /services/{id}/token.
static void
test_endpoint_url(void)
{
    char path[160], *hostport = s_url;
    snprintf(path, sizeof path, "/services/%s", s_endpoint);
    for (int waited = 0; waited < SERVING_MS && !*hostport; waited += 250) {
        json_t *info = NULL;
        s_as(&s_alice, "GET", path, NULL, &info);
        const char *url = json_string_value(json_object_get(info, "service_endpoint"));
        if (url && strncmp(url, "http://", 7) == 0)
            snprintf(s_url, sizeof s_url, "%s", url + 7);
        json_decref(info);
        if (!*hostport)
            harness_pause_ms(250);
    }
    T_ASSERT(*hostport);
    fprintf(stderr, "# service_endpoint http://%s\n", hostport);
    char *body = NULL;
    T_EQ_INT(s_call_url(hostport, "/health", NULL, NULL), 401);
    snprintf(path, sizeof path, "/services/%s/token", s_endpoint);
    json_t *r = NULL;
    T_EQ_INT(s_as(&s_alice, "POST", path, "{\"duration\": \"1h\"}", &r), 200);
    const char *token = json_string_value(json_object_get(r, "token"));
    T_ASSERT(token);
    char *auth = s_auth;
    snprintf(s_auth, sizeof s_auth, "BackendAI %s", token ? token : "");
    json_decref(r);
    //  Both replicas serve the folder's files; the URL picks one per request.
    for (int i = 0; i < 6; i++) {
        T_EQ_INT(s_call_url(hostport, "/health", auth, &body), 200);
        T_EQ_STR(body, "ok\n");
        free(body);
        body = NULL;
    }
    T_EQ_INT(s_call_url(hostport, "/health", "BackendAI forged.token", NULL), 403);
    //  The token is kept: GraphQL lists it for the endpoint's owner.
    r = client_gql(&s_p, &s_alice,
                   "query($id: UUID) { endpoint_token_list(limit: 10, offset: 0,"
                   " endpoint_id: $id) { total_count items { token endpoint_id } } }",
                   json_pack("{s:s}", "id", s_endpoint));
    json_t *list = json_object_get(json_object_get(r, "data"), "endpoint_token_list");
    T_EQ_INT(json_integer_value(json_object_get(list, "total_count")), 1);
    T_EQ_STR(json_string_value(json_object_get(
                 json_array_get(json_object_get(list, "items"), 0), "endpoint_id")),
             s_endpoint);
    json_decref(r);
    //  sync pushes the routes again; the URL stays.
    snprintf(path, sizeof path, "/services/%s/sync", s_endpoint);
    T_EQ_INT(s_as(&s_alice, "POST", path, NULL, NULL), 200);
    T_EQ_INT(s_call_url(hostport, "/health", auth, NULL), 200);
    snprintf(path, sizeof path, "/services/%s/token", s_endpoint);
    T_EQ_INT(s_as(&s_alice, "POST", path, "{\"valid_until\": 1}", NULL), 400);
    T_EQ_INT(s_as(&s_alice, "POST", path, "{}", NULL), 400);
    T_EQ_INT(s_as(&s_alice, "POST", path, "{\"duration\": \"soon\"}", NULL), 400);
    T_EQ_INT(s_as(&s_bob, "POST", path, "{\"duration\": \"1h\"}", NULL), 403);
}

//  A trial of folder's definition: its task's whole stream (the caller
//  frees), NULL when it could not be started.
static char *
s_try(const char *folder)
{
    json_t *r = NULL;
    if (s_post_service("/services/_/try", "trial-run", folder, 1, &r) != 200) {
        json_decref(r);
        return NULL;
    }
    char path[128];
    snprintf(path, sizeof path, "/events/background-task?task_id=%s",
             json_string_value(json_object_get(r, "task_id")));
    json_decref(r);
    char *text = NULL;
    client_sign_opts_t opts = {.timeout_ms = SERVING_MS};
    int status = client_signed(&s_p, &s_alice, "GET", path, NULL, &opts, &text, NULL);
    if (status != 200)
        fprintf(stderr, "# GET %s: %d\n", path, status);
    return text;
}

//  POST /services/_/try: one throw-away session, reported on as Backend.AI
//  does, ended at the first health report; no service is kept.
static void
test_try(void)
{
    char *text = s_try("echo-model");
    T_ASSERT(text);
    T_CONTAINS(text, "session_enqueued");
    T_CONTAINS(text, "session_started");
    T_CONTAINS(text, "\\\"is_healthy\\\":true");
    T_CONTAINS(text, "session_terminated");
    T_CONTAINS(text, "event: bgtask_done");
    free(text);
    //  A model whose health check fails: the task fails.
    text = s_try("sick-model");
    T_ASSERT(text);
    T_CONTAINS(text, "\\\"is_healthy\\\":false");
    T_CONTAINS(text, "event: bgtask_failed");
    free(text);
    //  A folder that is not a model folder: refused at once, as create is.
    T_EQ_INT(s_post_service("/services/_/try", "trial-run", "plain", 1, NULL), 400);
    json_t *r = NULL;
    T_EQ_INT(s_as(&s_alice, "GET", "/services", NULL, &r), 200);
    T_EQ_INT(json_array_size(r), 0);
    json_decref(r);
}

static void
test_someone_else(void)
{
    char path[128];
    snprintf(path, sizeof path, "/services/%s", s_endpoint);
    T_EQ_INT(s_as(&s_bob, "GET", path, NULL, NULL), 403);
    T_EQ_INT(s_as(&s_bob, "DELETE", path, NULL, NULL), 403);
    snprintf(path, sizeof path, "/services/%s/scale", s_endpoint);
    T_EQ_INT(s_as(&s_bob, "POST", path, "{\"to\": 5}", NULL), 403);
    json_t *r = NULL;
    T_EQ_INT(s_as(&s_bob, "GET", "/services", NULL, &r), 200);
    T_EQ_INT(json_array_size(r), 0);
    json_decref(r);
    //  The superadmin may.
    snprintf(path, sizeof path, "/services/%s", s_endpoint);
    T_EQ_INT(s_as(&s_p.super, "GET", path, NULL, NULL), 200);
}

static void
test_scale_down(void)
{
    json_t *before = s_wait_healthy(2);
    T_ASSERT(before != NULL);
    char path[128];
    snprintf(path, sizeof path, "/services/%s/scale", s_endpoint);
    T_EQ_INT(s_as(&s_alice, "POST", path, "{\"to\": -1}", NULL), 400);
    json_t *r = NULL;
    T_EQ_INT(s_as(&s_alice, "POST", path, "{\"to\": 1}", &r), 200);
    T_EQ_INT(json_integer_value(json_object_get(r, "current_route_count")), 2);
    T_EQ_INT(json_integer_value(json_object_get(r, "target_count")), 1);
    json_decref(r);
    json_t *after = s_wait_healthy(1);
    T_ASSERT(after != NULL);
    //  The one that went is one of the two, and its session ended.
    const char *kept = json_string_value(json_array_get(after, 0));
    const char *gone = NULL;
    for (size_t i = 0; kept && i < json_array_size(before); i++)
        if (strcmp(json_string_value(json_array_get(before, i)), kept) != 0)
            gone = json_string_value(json_array_get(before, i));
    T_ASSERT(gone != NULL);
    if (gone)
        T_ASSERT(s_session_ended(gone));
    json_decref(before);
    json_decref(after);
}

//  modify_endpoint changing what the replica runs (its environment): a new
//  replica is made and healthy before the old one goes, and the URL
//  answers all along.
static void
test_rolling_update(void)
{
    json_t *before = s_wait_healthy(1);
    T_ASSERT(before != NULL);
    const char *old_session = json_string_value(json_array_get(before, 0));
    json_t *r =
        client_gql(&s_p, &s_alice,
                   "mutation($id: UUID!, $props: ModifyEndpointInput!) {"
                   " modify_endpoint(endpoint_id: $id, props: $props) { ok msg } }",
                   json_pack("{s:s, s:{s:s}}", "id", s_endpoint, "props", "environ",
                             "{\"MODEL_REVISION\": \"2\"}"));
    json_t *result = json_object_get(json_object_get(r, "data"), "modify_endpoint");
    T_ASSERT(json_is_true(json_object_get(result, "ok")));
    json_decref(r);
    //  Until the old replica's session is gone, the URL keeps answering.
    int asked = 0, refused = 0;
    bool replaced = false;
    for (int waited = 0; waited < SERVING_MS && !replaced; waited += 300) {
        int status = s_call_url(s_url, "/health", s_auth, NULL);
        asked++;
        if (status != 200) {
            refused++;
            fprintf(stderr, "# during the update: %d\n", status);
        }
        json_t *now = s_wait_healthy(1);
        replaced =
            now && strcmp(json_string_value(json_array_get(now, 0)), old_session) != 0;
        json_decref(now);
        if (!replaced)
            harness_pause_ms(300);
    }
    fprintf(stderr, "# %d requests during the update, %d refused\n", asked, refused);
    T_ASSERT(replaced);
    T_EQ_INT(refused, 0);
    T_ASSERT(s_session_ended(old_session));
    json_decref(before);
    //  A bad value is refused, naming the field.
    r = client_gql(&s_p, &s_alice,
                   "mutation($id: UUID!, $props: ModifyEndpointInput!) {"
                   " modify_endpoint(endpoint_id: $id, props: $props) { ok msg } }",
                   json_pack("{s:s, s:{s:i}}", "id", s_endpoint, "props",
                             "desired_session_count", -1));
    result = json_object_get(json_object_get(r, "data"), "modify_endpoint");
    T_ASSERT(!json_is_true(json_object_get(result, "ok")));
    T_CONTAINS(json_string_value(json_object_get(result, "msg")),
               "desired_session_count");
    json_decref(r);
}

static void
test_delete(void)
{
    json_t *sessions = s_wait_healthy(1);
    T_ASSERT(sessions != NULL);
    char path[128];
    snprintf(path, sizeof path, "/services/%s", s_endpoint);
    json_t *r = NULL;
    T_EQ_INT(s_as(&s_alice, "DELETE", path, NULL, &r), 200);
    T_ASSERT(json_is_true(json_object_get(r, "success")));
    json_decref(r);
    for (size_t i = 0; i < json_array_size(sessions); i++)
        T_ASSERT(s_session_ended(json_string_value(json_array_get(sessions, i))));
    //  Destroyed once its last route went: gone from every answer.
    bool gone = false;
    for (int waited = 0; waited < SERVING_MS && !gone; waited += 200) {
        char *text = NULL;
        gone = client_signed(&s_p, &s_alice, "GET", path, NULL, NULL, &text, NULL) == 404;
        free(text);
        if (!gone)
            harness_pause_ms(200);
    }
    T_ASSERT(gone);
    //  Its URL went with it: the wsproxy's port is closed.
    int status = 0;
    for (int waited = 0; waited < SERVING_MS && *s_url; waited += 200) {
        status = s_call_url(s_url, "/health", NULL, NULL);
        if (status < 0)
            break;
        harness_pause_ms(200);
    }
    T_ASSERT(status < 0);
    r = NULL;
    T_EQ_INT(s_as(&s_alice, "GET", "/services", NULL, &r), 200);
    T_EQ_INT(json_array_size(r), 0);
    json_decref(r);
    json_decref(sessions);
    //  The name is free again.
    T_EQ_INT(s_create("echo-svc", "echo-model", 0, &r), 200);
    const char *id = json_string_value(json_object_get(r, "endpoint_id"));
    snprintf(path, sizeof path, "/services/%s", id ? id : "none");
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "DELETE", path, NULL, NULL), 200);
}

//  ---------------------------------------------------------------------------
//  Requests in numbers, on the endpoint's port, from threads of their own

//  How many answers each replica (its kernel's id, from /who) gave.
typedef struct {
    char id[64];
    int answers;
} s_tally_t;

//  One client connection to the endpoint's port, kept open between
//  requests while both sides say so.
typedef struct {
    int port;
    int fd; //  -1: none open
    int opened;
    wsp_echo_reader_t *reader;
} s_conn_t;

//  One thread's requests: GET /who, requests of them (0: until the load
//  stops), on one keep-alive connection or (fresh) each on a connection of
//  its own, pause_ms apart.
typedef struct {
    int port;
    const char *auth;
    int requests;
    bool fresh;
    int pause_ms;
    const int *stop;
    int *answered; //  200s of the whole load, for the main thread to watch
    pthread_t thread;
    bool started;
    //  what came back: a 200, no answer or another status (failed), or an
    //  answer whose head came and whose body was cut short (cut)
    int ok, failed, cut, opened;
    s_tally_t tally[TALLY_MAX];
    char why[160]; //  the first failure
} s_thread_t;

//  Threads of requests at once, and their sums once they ended.
typedef struct {
    s_thread_t threads[LOAD_THREADS_MAX];
    size_t count;
    int stop, answered;
    int ok, failed, cut;
    int kept_opened; //  connections the keep-alive threads opened
    s_tally_t tally[TALLY_MAX];
    char why[160];
} s_load_t;

//  The port of host:port.
static int
s_port_of(const char *hostport)
{
    const char *colon = strrchr(hostport, ':');
    return colon ? atoi(colon + 1) : 0;
}

//  One GET of path on c (connected first when none is open), with auth as
//  its Authorization (NULL: none), and Connection: close when fresh. Its
//  status; -1 when no answer came, -2 when the answer's head came and its
//  body was cut short. The body (a Content-Length's worth) in out,
//  NUL-terminated. The connection is closed when either side says so, or
//  broke it.
static int
s_get_on(
    s_conn_t *c, const char *path, const char *auth, bool fresh, char *out, size_t size)
{
    *out = '\0';
    if (c->fd < 0) {
        c->fd = wsp_echo_connect(c->port);
        if (c->fd < 0)
            return -1;
        c->opened++;
        c->reader->fd = c->fd;
        c->reader->pos = c->reader->len = 0;
    }
    char request[4096], head[WSP_ECHO_HEAD_MAX], value[64];
    int n = snprintf(request, sizeof request,
                     "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%s%s%s%s\r\n", path,
                     c->port, auth ? "Authorization: " : "", auth ? auth : "",
                     auth ? "\r\n" : "", fresh ? "Connection: close\r\n" : "");
    int status = -1;
    bool keep = false;
    if (n > 0 && (size_t) n < sizeof request &&
        wsp_echo_write(c->fd, request, (size_t) n) == 0 &&
        wsp_echo_read_head(c->reader, head, sizeof head) == 0 &&
        sscanf(head, "HTTP/1.%*d %d", &status) == 1) {
        size_t length = wsp_echo_header(head, "Content-Length", value, sizeof value)
                            ? (size_t) strtoull(value, NULL, 10)
                            : 0;
        if (length >= size || wsp_echo_read_exact(c->reader, out, length) != 0)
            status = -2;
        else
            out[length] = '\0';
        keep = status > 0 && !fresh &&
               !(wsp_echo_header(head, "Connection", value, sizeof value) &&
                 strcasecmp(value, "close") == 0);
    }
    if (!keep) {
        close(c->fd);
        c->fd = -1;
    }
    return status;
}

//  GET /who on a connection of its own with auth (NULL: none): the status,
//  the body in out.
static int
s_who(const char *auth, char *out, size_t size)
{
    wsp_echo_reader_t *reader = calloc(1, sizeof *reader);
    s_conn_t c = {s_port_of(s_url), -1, 0, reader};
    int status = reader ? s_get_on(&c, "/who", auth, true, out, size) : -1;
    free(reader);
    return status;
}

//  answers more of replica id in tally.
static void
s_tally_add(s_tally_t *tally, const char *id, int answers)
{
    for (size_t i = 0; i < TALLY_MAX; i++)
        if (!tally[i].id[0] || strcmp(tally[i].id, id) == 0) {
            snprintf(tally[i].id, sizeof tally[i].id, "%s", id);
            tally[i].answers += answers;
            return;
        }
}

//  How many replicas tally names.
static size_t
s_tally_kinds(const s_tally_t *tally)
{
    size_t kinds = 0;
    while (kinds < TALLY_MAX && tally[kinds].id[0])
        kinds++;
    return kinds;
}

//  The answers of replica id in tally.
static int
s_tally_of(const s_tally_t *tally, const char *id)
{
    for (size_t i = 0; i < TALLY_MAX && tally[i].id[0]; i++)
        if (strcmp(tally[i].id, id) == 0)
            return tally[i].answers;
    return 0;
}

static void *
s_thread_run(void *arg)
{
    s_thread_t *self = arg;
    s_conn_t c = {self->port, -1, 0, calloc(1, sizeof(wsp_echo_reader_t))};
    char body[1024];
    for (int i = 0;
         c.reader && (self->requests ? i < self->requests
                                     : !__atomic_load_n(self->stop, __ATOMIC_RELAXED));
         i++) {
        int status = s_get_on(&c, "/who", self->auth, self->fresh, body, sizeof body);
        if (status == 200) {
            self->ok++;
            body[strcspn(body, "\n")] = '\0';
            s_tally_add(self->tally, body, 1);
            __atomic_add_fetch(self->answered, 1, __ATOMIC_RELAXED);
        } else if (status == -2)
            self->cut++;
        else if (self->failed++ == 0)
            snprintf(self->why, sizeof self->why, "request %d: %d %.100s", i, status,
                     body);
        if (self->pause_ms)
            harness_pause_ms(self->pause_ms);
    }
    if (c.fd >= 0)
        close(c.fd);
    free(c.reader);
    self->opened = c.opened;
    return NULL;
}

//  Starts kept threads of requests on keep-alive connections and fresh
//  threads on connections of their own, with requests and fresh_requests
//  each (0: until s_load_end), pause_ms apart, through the endpoint's URL
//  with its token.
static void
s_load_start(s_load_t *self,
             size_t kept,
             int requests,
             size_t fresh,
             int fresh_requests,
             int pause_ms)
{
    memset(self, 0, sizeof *self);
    T_ASSERT(kept + fresh <= LOAD_THREADS_MAX);
    self->count = kept + fresh <= LOAD_THREADS_MAX ? kept + fresh : 0;
    for (size_t i = 0; i < self->count; i++) {
        s_thread_t *t = &self->threads[i];
        t->port = s_port_of(s_url);
        t->auth = s_auth;
        t->fresh = i >= kept;
        t->requests = t->fresh ? fresh_requests : requests;
        t->pause_ms = pause_ms;
        t->stop = &self->stop;
        t->answered = &self->answered;
        t->started = pthread_create(&t->thread, NULL, s_thread_run, t) == 0;
        T_ASSERT(t->started);
    }
}

//  Ends the threads (those with a count of requests once they made them)
//  and sums what they found.
static void
s_load_end(s_load_t *self)
{
    __atomic_store_n(&self->stop, 1, __ATOMIC_RELAXED);
    for (size_t i = 0; i < self->count; i++) {
        s_thread_t *t = &self->threads[i];
        if (t->started)
            pthread_join(t->thread, NULL);
        self->ok += t->ok;
        self->failed += t->failed;
        self->cut += t->cut;
        self->kept_opened += t->fresh ? 0 : t->opened;
        for (size_t j = 0; j < TALLY_MAX && t->tally[j].id[0]; j++)
            s_tally_add(self->tally, t->tally[j].id, t->tally[j].answers);
        if (!self->why[0] && t->why[0])
            snprintf(self->why, sizeof self->why, "%s", t->why);
    }
}

//  Whether the load got n more answers from now, waiting at most LOAD_MS.
static bool
s_load_answered(s_load_t *self, int n)
{
    int from = __atomic_load_n(&self->answered, __ATOMIC_RELAXED);
    for (int waited = 0; waited < LOAD_MS; waited += 20) {
        if (__atomic_load_n(&self->answered, __ATOMIC_RELAXED) - from >= n)
            return true;
        harness_pause_ms(20);
    }
    return false;
}

//  Deletes service id as alice: 200, then gone (404) within SERVING_MS.
static void
s_delete_service(const char *id)
{
    char path[128];
    snprintf(path, sizeof path, "/services/%s", id);
    T_EQ_INT(s_as(&s_alice, "DELETE", path, NULL, NULL), 200);
    bool gone = false;
    for (int waited = 0; waited < SERVING_MS && !gone; waited += 200) {
        gone = s_as(&s_alice, "GET", path, NULL, NULL) == 404;
        if (!gone)
            harness_pause_ms(200);
    }
    T_ASSERT(gone);
}

//  The pid runc knows for container id (a kernel's id) under the agent's
//  root, or -1.
static int
s_container_pid(const char *id)
{
    char root[512];
    snprintf(root, sizeof root, "%s/agent-s/runc", s_p.dir);
    return harness_runc_pid(root, id);
}

//  The endpoint's healthy routes' sessions once there are count of them
//  and exactly one is not in before; NULL after SERVING_MS.
static json_t *
s_wait_replaced(json_t *before, size_t count)
{
    char path[128];
    snprintf(path, sizeof path, "/services/%s", s_endpoint);
    for (int waited = 0; waited < SERVING_MS; waited += 100) {
        json_t *info = NULL;
        s_as(&s_alice, "GET", path, NULL, &info);
        json_t *routes = json_object_get(info, "active_routes");
        json_t *sessions = json_array();
        size_t fresh = 0, index;
        json_t *route;
        json_array_foreach(routes, index, route)
        {
            json_t *session = json_object_get(route, "session_id");
            bool known = false;
            for (size_t i = 0; i < json_array_size(before); i++)
                known = known || json_equal(json_array_get(before, i), session);
            fresh += !known;
            json_array_append(sessions, session);
        }
        json_decref(info);
        if (json_array_size(sessions) == count && fresh == 1)
            return sessions;
        json_decref(sessions);
        harness_pause_ms(100);
    }
    return NULL;
}

//  An endpoint of three replicas (each answering /who with its own
//  kernel's id): 1,000 requests over keep-alive connections and fresh ones
//  are spread over all three. Then, while requests flow, one replica's
//  container is killed (kill -9 of its init): no request fails (the
//  wsproxy sends a GET that found no replica to answer it once more, to
//  another; only an answer under way at the kill could be cut short, at
//  most one a connection), and a replacement becomes healthy and takes
//  requests.
static void
test_three_replicas_under_load(void)
{
    json_t *r = NULL;
    T_EQ_INT(s_create("spread-svc", "spread-model", 3, &r), 200);
    const char *id = json_string_value(json_object_get(r, "endpoint_id"));
    snprintf(s_endpoint, sizeof s_endpoint, "%s", id ? id : "");
    json_decref(r);
    json_t *before = s_wait_healthy(3);
    T_ASSERT(before);
    T_ASSERT(s_service_url(s_endpoint, s_url, sizeof s_url));
    char path[160];
    snprintf(path, sizeof path, "/services/%s/token", s_endpoint);
    r = NULL;
    T_EQ_INT(s_as(&s_alice, "POST", path, "{\"duration\": \"1h\"}", &r), 200);
    snprintf(s_auth, sizeof s_auth, "BackendAI %s",
             json_string_value(json_object_get(r, "token")) ?: "");
    json_decref(r);
    if (!before || !*s_url)
        return;

    static s_load_t load;
    int64_t start = bus_clock_mono_ms();
    s_load_start(&load, SPREAD_CLIENTS, SPREAD_KEPT, 1, SPREAD_FRESH, 0);
    s_load_end(&load);
    fprintf(stderr,
            "# %d requests in %d ms: %d/%d/%d over %zu replicas; %d failed (%s), %d cut;"
            " %d keep-alive connections\n",
            load.ok + load.failed + load.cut, (int) (bus_clock_mono_ms() - start),
            load.tally[0].answers, load.tally[1].answers, load.tally[2].answers,
            s_tally_kinds(load.tally), load.failed, load.why, load.cut, load.kept_opened);
    T_EQ_INT(load.ok, SPREAD_CLIENTS * SPREAD_KEPT + SPREAD_FRESH);
    T_EQ_INT(s_tally_kinds(load.tally), 3);
    for (size_t i = 0; i < 3; i++)
        T_ASSERT(load.tally[i].answers * 100 >= load.ok * SPREAD_SHARE_MIN);
    //  Each keep-alive connection stayed open throughout, although the
    //  replicas' httpd closes its own after each answer.
    T_EQ_INT(load.kept_opened, SPREAD_CLIENTS);
    s_tally_t spread[TALLY_MAX];
    memcpy(spread, load.tally, sizeof spread);
    const char *victim = spread[0].id;

    s_load_start(&load, KILL_CLIENTS, 0, 1, 0, KILL_PAUSE_MS);
    T_ASSERT(s_load_answered(&load, KILL_BEFORE));
    int pid = s_container_pid(victim);
    T_ASSERT(pid > 0);
    start = bus_clock_mono_ms();
    int killed = pid > 0 ? kill(pid, SIGKILL) : -1;
    T_EQ_INT(killed, 0);
    json_t *after = killed == 0 ? s_wait_replaced(before, 3) : NULL;
    int64_t replaced_ms = bus_clock_mono_ms() - start;
    T_ASSERT(after);
    //  The replacement takes its share.
    T_ASSERT(!after || s_load_answered(&load, KILL_AFTER));
    s_load_end(&load);
    const char *replacement = NULL;
    for (size_t i = 0; i < TALLY_MAX && load.tally[i].id[0]; i++)
        if (!s_tally_of(spread, load.tally[i].id))
            replacement = load.tally[i].id;
    fprintf(stderr,
            "# kill -9 %d, the container of kernel %s; while it was replaced:"
            " %d requests, %d failed (%s), %d cut mid-answer; the replacement healthy"
            " after %.1f s, answered %d\n",
            pid, victim, load.ok + load.failed + load.cut, load.failed, load.why,
            load.cut, (double) replaced_ms / 1000,
            replacement ? s_tally_of(load.tally, replacement) : 0);
    T_EQ_INT(load.failed, 0);
    T_ASSERT(load.cut <= KILL_CLIENTS + 1);
    T_ASSERT(replacement && s_tally_of(load.tally, replacement) > 0);
    //  The killed replica's session ended; its container is no more.
    for (size_t i = 0; after && i < json_array_size(before); i++) {
        bool kept = false;
        for (size_t j = 0; j < json_array_size(after); j++)
            kept =
                kept || json_equal(json_array_get(before, i), json_array_get(after, j));
        if (!kept)
            T_ASSERT(s_session_ended(json_string_value(json_array_get(before, i))));
    }
    T_EQ_INT(s_container_pid(victim), -1);
    json_decref(after);
    json_decref(before);
}

//  POST /cgi-bin/stream, a completion streamed as server-sent events: the
//  events arrive one by one as the replica writes them, not all at the end.
static void
test_streamed_answer(void)
{
    int fd = wsp_echo_connect(s_port_of(s_url));
    T_ASSERT(fd >= 0);
    if (fd < 0)
        return;
    char request[4096];
    const char *body = "{\"prompt\": \"count\", \"stream\": true}";
    int n = snprintf(request, sizeof request,
                     "POST /cgi-bin/stream HTTP/1.1\r\nHost: %s\r\nAuthorization: %s\r\n"
                     "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                     s_url, s_auth, strlen(body), body);
    T_EQ_INT(wsp_echo_write(fd, request, (size_t) n), 0);
    //  Every read until the end (the answer has no length), and when the
    //  first event and the last came.
    char text[8192];
    size_t used = 0;
    int reads = 0, events = 0;
    int64_t start = bus_clock_mono_ms(), first_ms = -1, done_ms = -1;
    bool done_with_first = false;
    for (;;) {
        ssize_t got = read(fd, text + used, sizeof text - 1 - used);
        if (got <= 0)
            break;
        used += (size_t) got;
        text[used] = '\0';
        reads++;
        int64_t now = bus_clock_mono_ms() - start;
        if (first_ms < 0 && strstr(text, "{\"piece\": 1}")) {
            first_ms = now;
            done_with_first = strstr(text, "[DONE]") != NULL;
        }
        if (done_ms < 0 && strstr(text, "[DONE]"))
            done_ms = now;
    }
    close(fd);
    text[used] = '\0';
    for (const char *p = strstr(text, "\r\n\r\n"); p && (p = strstr(p, "data: ")); p++)
        events++;
    fprintf(
        stderr,
        "# streamed: %d events in %d reads, the first after %d ms, [DONE] after %d ms\n",
        events, reads, (int) first_ms, (int) done_ms);
    T_ASSERT(strncmp(text, "HTTP/1.1 200", 12) == 0);
    T_CONTAINS(text, "Content-Type: text/event-stream");
    T_EQ_INT(events, STREAM_PIECES);
    T_ASSERT(first_ms >= 0 && done_ms >= 0 && !done_with_first);
    T_ASSERT(done_ms - first_ms >= (STREAM_PIECES - 1) * STREAM_GAP_MS / 2);
    T_ASSERT(reads >= STREAM_PIECES);
}

//  A token of two seconds admits requests, then is refused as expired: on
//  a new connection and on the one it was admitted on (which the wsproxy
//  keeps, with the token's expiry); the token of an hour still admits.
static void
test_token_expires(void)
{
    char path[160], auth[2048], body[1024];
    snprintf(path, sizeof path, "/services/%s/token", s_endpoint);
    json_t *r = NULL;
    T_EQ_INT(s_as(&s_alice, "POST", path, "{\"duration\": \"2s\"}", &r), 200);
    snprintf(auth, sizeof auth, "BackendAI %s",
             json_string_value(json_object_get(r, "token")) ?: "");
    json_decref(r);
    wsp_echo_reader_t *reader = calloc(1, sizeof *reader);
    T_ASSERT(reader);
    if (!reader)
        return;
    s_conn_t kept = {s_port_of(s_url), -1, 0, reader};
    T_EQ_INT(s_get_on(&kept, "/who", auth, false, body, sizeof body), 200);
    T_ASSERT(kept.fd >= 0);
    int64_t start = bus_clock_mono_ms();
    int status = 200;
    while (status == 200 && bus_clock_mono_ms() - start < TOKEN_WAIT_MS) {
        status = s_who(auth, body, sizeof body);
        if (status == 200)
            harness_pause_ms(100);
    }
    fprintf(stderr, "# the token of 2 s refused after %d ms: %d\n",
            (int) (bus_clock_mono_ms() - start), status);
    T_EQ_INT(status, 403);
    T_CONTAINS(body, "expired");
    T_EQ_INT(s_get_on(&kept, "/who", auth, false, body, sizeof body), 403);
    T_CONTAINS(body, "expired");
    T_EQ_INT(kept.opened, 1);
    if (kept.fd >= 0)
        close(kept.fd);
    free(reader);
    T_EQ_INT(s_who(s_auth, body, sizeof body), 200);
}

//  modify_endpoint(open_to_public) as alice; whether it was taken.
static bool
s_set_public(bool open)
{
    json_t *r = client_gql(
        &s_p, &s_alice,
        "mutation($id: UUID!, $props: ModifyEndpointInput!) {"
        " modify_endpoint(endpoint_id: $id, props: $props) { ok msg } }",
        json_pack("{s:s, s:{s:b}}", "id", s_endpoint, "props", "open_to_public", open));
    bool ok = json_is_true(json_object_get(
        json_object_get(json_object_get(r, "data"), "modify_endpoint"), "ok"));
    json_decref(r);
    return ok;
}

//  GET /who without a token until it answers other than status (at most
//  SERVING_MS): the last status, the body in out.
static int
s_who_until_not(int status, char *out, size_t size)
{
    int now = status;
    for (int waited = 0; waited < SERVING_MS && now == status; waited += 100) {
        now = s_who(NULL, out, size);
        if (now == status)
            harness_pause_ms(100);
    }
    return now;
}

//  Open to the public, the endpoint answers without a token (and with
//  one); closed again, it asks for one.
static void
test_public_endpoint(void)
{
    char body[1024];
    T_EQ_INT(s_who(NULL, body, sizeof body), 401);
    T_ASSERT(s_set_public(true));
    T_EQ_INT(s_who_until_not(401, body, sizeof body), 200);
    T_EQ_INT(strlen(body), 37); //  a kernel's id and its newline
    T_EQ_INT(s_who(s_auth, body, sizeof body), 200);
    json_t *r = client_gql(&s_p, &s_alice,
                           "query($id: UUID!) { endpoint(endpoint_id: $id) {"
                           " open_to_public } }",
                           json_pack("{s:s}", "id", s_endpoint));
    T_ASSERT(json_is_true(json_object_get(
        json_object_get(json_object_get(r, "data"), "endpoint"), "open_to_public")));
    json_decref(r);
    T_ASSERT(s_set_public(false));
    T_EQ_INT(s_who_until_not(200, body, sizeof body), 401);
}

//  Scaled to one replica (the two others' sessions end) and then to five:
//  each count healthy in turn, and five connections at once reach all
//  five; the service deleted.
static void
test_scale_one_and_five(void)
{
    char path[160];
    snprintf(path, sizeof path, "/services/%s/scale", s_endpoint);
    json_t *before = s_wait_healthy(3);
    T_ASSERT(before);
    int64_t start = bus_clock_mono_ms();
    T_EQ_INT(s_as(&s_alice, "POST", path, "{\"to\": 1}", NULL), 200);
    json_t *sessions = s_wait_healthy(1);
    T_ASSERT(sessions);
    size_t ended = 0;
    for (size_t i = 0; sessions && i < json_array_size(before); i++)
        if (!json_equal(json_array_get(before, i), json_array_get(sessions, 0)))
            ended += s_session_ended(json_string_value(json_array_get(before, i)));
    T_EQ_INT(ended, 2);
    json_decref(before);
    json_decref(sessions);
    int64_t one_ms = bus_clock_mono_ms() - start;
    T_EQ_INT(s_as(&s_alice, "POST", path, "{\"to\": 5}", NULL), 200);
    sessions = s_wait_healthy(5);
    T_ASSERT(sessions);
    json_decref(sessions);
    fprintf(stderr, "# scaled to 1 in %.1f s (its sessions ended), then to 5 in %.1f s\n",
            (double) one_ms / 1000,
            (double) (bus_clock_mono_ms() - start - one_ms) / 1000);
    static s_load_t load;
    s_load_start(&load, 5, SCALED_REQUESTS, 0, 0, 0);
    s_load_end(&load);
    fprintf(stderr, "# 5 connections: %d requests over %zu replicas, %d failed (%s)\n",
            load.ok + load.failed + load.cut, s_tally_kinds(load.tally), load.failed,
            load.why);
    T_EQ_INT(load.ok, 5 * SCALED_REQUESTS);
    T_EQ_INT(s_tally_kinds(load.tally), 5);
    s_delete_service(s_endpoint);
}

//  A replica whose health check never passes is UNHEALTHY, never routed to.
static void
test_unhealthy(void)
{
    json_t *r = NULL;
    T_EQ_INT(s_create("echo-sick", "sick-model", 1, &r), 200);
    char id[64];
    snprintf(id, sizeof id, "%s",
             json_string_value(json_object_get(r, "endpoint_id"))
                 ? json_string_value(json_object_get(r, "endpoint_id"))
                 : "none");
    json_decref(r);
    char session[64] = "", route_id[64] = "";
    bool unhealthy = false;
    for (int waited = 0; waited < SERVING_MS && !unhealthy; waited += 500) {
        json_t *endpoint = s_gql_endpoint(id);
        json_t *route = json_array_get(json_object_get(endpoint, "routings"), 0);
        const char *status = json_string_value(json_object_get(route, "status"));
        T_ASSERT(!status || strcmp(status, "HEALTHY") != 0);
        unhealthy = status && strcmp(status, "UNHEALTHY") == 0;
        if (unhealthy) {
            snprintf(session, sizeof session, "%s",
                     json_string_value(json_object_get(route, "session")));
            snprintf(route_id, sizeof route_id, "%s",
                     json_string_value(json_object_get(route, "routing_id")));
            T_EQ_STR(json_string_value(json_object_get(endpoint, "status")), "DEGRADED");
        }
        json_decref(endpoint);
        if (!unhealthy)
            harness_pause_ms(500);
    }
    T_ASSERT(unhealthy);
    char path[128];
    snprintf(path, sizeof path, "/services/%s", id);
    r = NULL;
    T_EQ_INT(s_as(&s_alice, "GET", path, NULL, &r), 200);
    T_EQ_INT(json_array_size(json_object_get(r, "active_routes")), 0);
    json_decref(r);
    //  Nothing failed to start: the replica runs, it is only not healthy.
    char route[256];
    snprintf(route, sizeof route, "/services/%s/errors", id);
    r = NULL;
    T_EQ_INT(s_as(&s_alice, "GET", route, NULL, &r), 200);
    T_EQ_INT(json_array_size(json_object_get(r, "errors")), 0);
    T_EQ_INT(json_integer_value(json_object_get(r, "retries")), 0);
    json_decref(r);
    //  Its route: a traffic ratio kept, then the route ended by hand, which
    //  leaves one replica fewer wanted.
    snprintf(route, sizeof route, "/services/%s/routings/%s", id, route_id);
    T_EQ_INT(s_as(&s_alice, "PUT", route, "{\"traffic_ratio\": 0.5}", NULL), 200);
    T_EQ_INT(s_as(&s_alice, "PUT", route, "{\"traffic_ratio\": -1}", NULL), 400);
    T_EQ_INT(s_as(&s_bob, "PUT", route, "{\"traffic_ratio\": 2}", NULL), 403);
    T_EQ_INT(s_as(&s_alice, "DELETE", route, NULL, NULL), 200);
    if (*session)
        T_ASSERT(s_session_ended(session));
    r = NULL;
    T_EQ_INT(s_as(&s_alice, "GET", path, NULL, &r), 200);
    T_EQ_INT(json_integer_value(json_object_get(r, "desired_session_count")), 0);
    json_decref(r);
    //  Without routes, destroyed at once.
    T_EQ_INT(s_as(&s_alice, "DELETE", path, NULL, NULL), 200);
    T_EQ_INT(s_as(&s_alice, "GET", path, NULL, NULL), 404);
}

//  The agent killed and started again adopts the replica's kernel and
//  checks its model again: the health file removed, the route turns
//  UNHEALTHY.
static void
test_agent_restart(void)
{
    json_t *r = NULL;
    T_EQ_INT(s_create("echo-again", "echo-model", 1, &r), 200);
    snprintf(s_endpoint, sizeof s_endpoint, "%s",
             json_string_value(json_object_get(r, "endpoint_id"))
                 ? json_string_value(json_object_get(r, "endpoint_id"))
                 : "");
    json_decref(r);
    json_t *sessions = s_wait_healthy(1);
    T_ASSERT(sessions != NULL);
    harness_kill(&s_agent);
    T_ASSERT(s_agent_start());
    T_EQ_INT(s_as(&s_alice, "POST", "/folders/echo-model/delete-files",
                  "{\"files\": [\"health\"]}", NULL),
             200);
    bool unhealthy = false;
    for (int waited = 0; waited < SERVING_MS && !unhealthy; waited += 500) {
        json_t *endpoint = s_gql_endpoint(s_endpoint);
        json_t *route = json_array_get(json_object_get(endpoint, "routings"), 0);
        const char *status = json_string_value(json_object_get(route, "status"));
        unhealthy = status && strcmp(status, "UNHEALTHY") == 0;
        json_decref(endpoint);
        if (!unhealthy)
            harness_pause_ms(500);
    }
    T_ASSERT(unhealthy);
    //  The gateway restarted finds its endpoint and route as they were, and
    //  makes no other replica.
    T_ASSERT(client_gateway_restart(&s_p, "gateway-again"));
    json_t *endpoint = s_gql_endpoint(s_endpoint);
    json_t *routings = json_object_get(endpoint, "routings");
    T_EQ_INT(json_array_size(routings), 1);
    T_EQ_STR(json_string_value(json_object_get(json_array_get(routings, 0), "session")),
             json_string_value(json_array_get(sessions, 0)));
    json_decref(endpoint);
    char path[128];
    snprintf(path, sizeof path, "/services/%s", s_endpoint);
    T_EQ_INT(s_as(&s_alice, "DELETE", path, NULL, NULL), 200);
    for (size_t i = 0; i < json_array_size(sessions); i++)
        T_ASSERT(s_session_ended(json_string_value(json_array_get(sessions, i))));
    json_decref(sessions);
}

//  A model folder gone after its endpoint was made: each replica fails to
//  start (FAILED_TO_START, counted in retries), and after more than five in
//  a row the endpoint stops trying (GraphQL status UNHEALTHY) until its
//  errors are cleared.
static void
test_failed_starts(void)
{
    T_ASSERT(s_folder("doomed", "model", s_definition));
    json_t *r = NULL;
    T_EQ_INT(s_create("echo-doomed", "doomed", 0, &r), 200);
    char id[64], path[160];
    snprintf(id, sizeof id, "%s",
             json_string_value(json_object_get(r, "endpoint_id"))
                 ? json_string_value(json_object_get(r, "endpoint_id"))
                 : "none");
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "DELETE", "/folders/doomed", NULL, NULL), 204);
    snprintf(path, sizeof path, "/services/%s/scale", id);
    T_EQ_INT(s_as(&s_alice, "POST", path, "{\"to\": 1}", NULL), 200);
    snprintf(path, sizeof path, "/services/%s/errors", id);
    json_int_t retries = 0;
    for (int waited = 0; waited < SERVING_MS && retries <= 5; waited += 200) {
        r = NULL;
        s_as(&s_alice, "GET", path, NULL, &r);
        retries = json_integer_value(json_object_get(r, "retries"));
        json_decref(r);
        if (retries <= 5)
            harness_pause_ms(200);
    }
    T_EQ_INT(retries, 6);
    r = NULL;
    T_EQ_INT(s_as(&s_alice, "GET", path, NULL, &r), 200);
    json_t *errors = json_object_get(r, "errors");
    T_EQ_INT(json_array_size(errors), 6);
    json_t *first = json_object_get(json_array_get(errors, 0), "error");
    T_EQ_STR(json_string_value(json_object_get(first, "type")), "creation_failed");
    T_CONTAINS(json_string_value(json_object_get(
                   json_array_get(json_object_get(first, "errors"), 0), "repr")),
               "Cannot find model folder");
    json_decref(r);
    json_t *endpoint = s_gql_endpoint(id);
    T_EQ_STR(json_string_value(json_object_get(endpoint, "status")), "UNHEALTHY");
    json_decref(endpoint);
    //  Cleared: no error left, and the count starts again.
    snprintf(path, sizeof path, "/services/%s/errors/clear", id);
    T_EQ_INT(s_as(&s_alice, "POST", path, NULL, NULL), 204);
    snprintf(path, sizeof path, "/services/%s", id);
    T_EQ_INT(s_as(&s_alice, "DELETE", path, NULL, NULL), 200);
    T_EQ_INT(s_as(&s_alice, "GET", path, NULL, NULL), 404);
}

//  Whatever a failed test left: alice's endpoints deleted, and waited for
//  until destroyed (their sessions ended), so that no container outlives
//  the platform.
static void
s_cleanup(void)
{
    json_t *list = NULL;
    s_as(&s_alice, "GET", "/services", NULL, &list);
    size_t index;
    json_t *item;
    json_array_foreach(list, index, item)
    {
        char path[128];
        snprintf(path, sizeof path, "/services/%s",
                 json_string_value(json_object_get(item, "id")));
        s_as(&s_alice, "DELETE", path, NULL, NULL);
        int status = 200;
        for (int waited = 0; waited < SERVING_MS && status != 404; waited += 200) {
            char *text = NULL;
            status = client_signed(&s_p, &s_alice, "GET", path, NULL, NULL, &text, NULL);
            free(text);
            if (status != 404)
                harness_pause_ms(200);
        }
    }
    json_decref(list);
}

//  A service with an extra folder (config.extra_mounts): what cannot be one
//  refused (a model folder, none of that name, a place meeting the
//  model's, a permission no one has, another type, one folder twice), then every replica
//  mounts it where it was asked, read-only as asked, and says so (ServeInfo's
//  extra_mounts, GraphQL's); the service deleted.
static void
test_extra_mounts(void)
{
    char body[256];
    snprintf(body, sizeof body,
             "{\"name\": \"extra-data\", \"usage_mode\": \"general\"}");
    json_t *made = NULL;
    T_EQ_INT(s_as(&s_alice, "POST", "/folders", body, &made), 201);
    char twice[256];
    snprintf(twice, sizeof twice, "{\"extra-data\": {}, \"%s\": {}}",
             json_string_value(json_object_get(made, "id"))
                 ? json_string_value(json_object_get(made, "id"))
                 : "?");
    json_decref(made);
    T_ASSERT(s_upload(&s_alice, "extra-data", "hello.txt", "hello-extra\n"));
    //  A model of its own: echo-model's health file is gone by now
    //  (test_unhealthy).
    T_ASSERT(s_folder("extra-model", "model", s_definition));
    json_t *r = NULL;
    T_EQ_INT(s_post_with("/services", "extra-svc", "extra-model", 1,
                         "{\"echo-model\": {}}", &r),
             400);
    T_CONTAINS(json_string_value(json_object_get(r, "msg")), "model folder");
    json_decref(r);
    T_EQ_INT(s_post_with("/services", "extra-svc", "extra-model", 1,
                         "{\"no-such-folder\": {}}", NULL),
             404);
    T_EQ_INT(s_post_with("/services", "extra-svc", "extra-model", 1,
                         "{\"extra-data\": {\"mount_destination\": \"/models/x\"}}",
                         NULL),
             400);
    T_EQ_INT(s_post_with("/services", "extra-svc", "extra-model", 1,
                         "{\"extra-data\": {\"permission\": \"rx\"}}", NULL),
             400);
    T_EQ_INT(s_post_with("/services", "extra-svc", "extra-model", 1,
                         "{\"extra-data\": {\"type\": \"volume\"}}", NULL),
             400);
    //  One folder by its name and by its id: named twice.
    r = NULL;
    T_EQ_INT(s_post_with("/services", "extra-svc", "extra-model", 1, twice, &r), 400);
    T_CONTAINS(json_string_value(json_object_get(r, "msg")), "named twice");
    json_decref(r);
    r = NULL;
    T_EQ_INT(s_post_with("/services", "extra-svc", "extra-model", 1,
                         "{\"extra-data\": {\"mount_destination\": \"data\","
                         " \"permission\": \"ro\"}}",
                         &r),
             200);
    const char *id = json_string_value(json_object_get(r, "endpoint_id"));
    T_ASSERT(id);
    snprintf(s_endpoint, sizeof s_endpoint, "%s", id ? id : "");
    T_EQ_INT(json_array_size(json_object_get(r, "extra_mounts")), 1);
    json_decref(r);
    json_t *sessions = s_wait_healthy(1);
    if (!sessions) {
        //  Why not: the route and its session as GraphQL tells them.
        json_t *why = client_gql(&s_p, &s_alice,
                                 "query { compute_session_list(limit: 20, offset: 0) {"
                                 " items { name status status_info } } }",
                                 NULL);
        char *text = json_dumps(why, JSON_COMPACT);
        fprintf(stderr, "# sessions: %s\n", text ? text : "?");
        free(text);
        json_decref(why);
    }
    T_ASSERT(sessions);
    //  In the replica, at /home/work/data, read-only.
    char path[160];
    snprintf(path, sizeof path, "/session/%s",
             json_string_value(json_array_get(sessions, 0)));
    json_t *out = NULL;
    T_EQ_INT(s_as(&s_alice, "POST", path,
                  "{\"mode\": \"query\", \"runId\": \"x1\", \"code\": \"cat"
                  " /home/work/data/hello.txt; touch /home/work/data/w 2>/dev/null ||"
                  " echo read-only\"}",
                  &out),
             200);
    char *console =
        out ? json_dumps(json_object_get(json_object_get(out, "result"), "console"),
                         JSON_COMPACT)
            : NULL;
    T_ASSERT(console && strstr(console, "hello-extra") && strstr(console, "read-only"));
    free(console);
    json_decref(out);
    json_decref(sessions);
    r = client_gql(&s_p, &s_alice,
                   "query($id: UUID!) { endpoint(endpoint_id: $id) {"
                   " extra_mounts { row_id name } } }",
                   json_pack("{s:s}", "id", s_endpoint));
    json_t *extra = json_object_get(
        json_object_get(json_object_get(r, "data"), "endpoint"), "extra_mounts");
    T_EQ_INT(json_array_size(extra), 1);
    T_EQ_STR(json_string_value(json_object_get(json_array_get(extra, 0), "name")),
             "extra-data");
    json_decref(r);
    s_delete_service(s_endpoint);
}

//  The vllm, nim and cmd runtime variants run the image's own command with
//  the definition each implies (vllm: vllm-model on port 8000, healthy once
//  GET /health answers), not the folder's model-definition.yaml (here one
//  whose service never passes its check); an image without a command, a
//  mount elsewhere than /models (but for cmd) and an unknown variant are
//  refused, and nothing is kept of them.
static void
test_runtime_variants(void)
{
    T_ASSERT(s_folder("variant-model", "model", s_sick));
    T_ASSERT(s_upload(&s_alice, "variant-model", "hello", "from the image's command\n"));
    json_t *r = NULL;
    T_EQ_INT(s_post_variant("vllm-svc", "tgi", IMAGE_SERVED, "/models", &r), 400);
    T_CONTAINS(json_string_value(json_object_get(r, "msg")), "runtime_variant");
    json_decref(r);
    T_EQ_INT(s_post_variant("vllm-svc", "vllm", IMAGE_SERVED, "/srv/model", &r), 400);
    T_CONTAINS(json_string_value(json_object_get(r, "msg")), "must be /models");
    json_decref(r);
    T_EQ_INT(s_post_variant("vllm-svc", "vllm", IMAGE_BARE, "/models", &r), 400);
    T_CONTAINS(json_string_value(json_object_get(r, "msg")), "no command of its own");
    json_decref(r);
    r = NULL;
    T_EQ_INT(s_as(&s_alice, "GET", "/services", NULL, &r), 200);
    T_EQ_INT(json_array_size(r), 0);
    json_decref(r);
    //  cmd may mount the model elsewhere.
    T_EQ_INT(s_post_variant("cmd-svc", "cmd", IMAGE_SERVED, "/srv/model", &r), 200);
    char path[128];
    snprintf(path, sizeof path, "/services/%s",
             json_string_value(json_object_get(r, "endpoint_id")) ?: "none");
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "DELETE", path, NULL, NULL), 200);
    //  vllm: healthy, and its URL reaches the image's httpd over the folder.
    T_EQ_INT(s_post_variant("vllm-svc", "vllm", IMAGE_SERVED, "/models", &r), 200);
    char id[64];
    snprintf(id, sizeof id, "%s",
             json_string_value(json_object_get(r, "endpoint_id")) ?: "none");
    json_decref(r);
    char url[128] = "";
    T_ASSERT(s_service_url(id, url, sizeof url));
    snprintf(path, sizeof path, "/services/%s/token", id);
    r = NULL;
    T_EQ_INT(s_as(&s_alice, "POST", path, "{\"duration\": \"1h\"}", &r), 200);
    char auth[2048];
    snprintf(auth, sizeof auth, "BackendAI %s",
             json_string_value(json_object_get(r, "token")) ?: "");
    json_decref(r);
    char *body = NULL;
    T_EQ_INT(s_call_url(url, "/hello", auth, &body), 200);
    T_EQ_STR(body, "from the image's command\n");
    free(body);
    json_t *endpoint = client_gql(&s_p, &s_alice,
                                  "query($id: UUID!) { endpoint(endpoint_id: $id) {"
                                  " runtime_variant { name human_readable_name } } }",
                                  json_pack("{s:s}", "id", id));
    json_t *variant = json_object_get(
        json_object_get(json_object_get(json_object_get(endpoint, "data"), "endpoint"),
                        "runtime_variant"),
        "name");
    T_EQ_STR(json_string_value(variant), "vllm");
    json_decref(endpoint);
    s_delete_service(id);
}

int
main(void)
{
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    signal(SIGPIPE, SIG_IGN); //  a connection the wsproxy closed: write fails
    T_RUN(test_start);
    if (t_failures)
        return T_DONE();
    T_RUN(test_runtimes);
    T_RUN(test_bad_input);
    T_RUN(test_try);
    T_RUN(test_two_replicas_healthy);
    T_RUN(test_endpoint_url);
    T_RUN(test_someone_else);
    T_RUN(test_scale_down);
    T_RUN(test_rolling_update);
    T_RUN(test_delete);
    T_RUN(test_three_replicas_under_load);
    T_RUN(test_streamed_answer);
    T_RUN(test_token_expires);
    T_RUN(test_public_endpoint);
    T_RUN(test_scale_one_and_five);
    T_RUN(test_unhealthy);
    T_RUN(test_agent_restart);
    T_RUN(test_failed_starts);
    T_RUN(test_extra_mounts);
    T_RUN(test_runtime_variants);
    s_cleanup();
    int agent = harness_stop(&s_agent, CLIENT_STOP_MS);
    int sp = harness_stop(&s_sp, CLIENT_STOP_MS);
    harness_stop(&s_wsp, CLIENT_STOP_MS);
    bool clean = client_platform_stop(&s_p) && agent == 0 && sp == 0 &&
                 !harness_log_has_report(&s_agent) && !harness_log_has_report(&s_sp);
    if (!clean)
        fprintf(stderr, "# a service did not stop cleanly (agent %d, storage %d)\n",
                agent, sp);
    char command[64];
    snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridge);
    if (system(command) == 0)
        fprintf(stderr, "# the agent left its bridge %s\n", s_bridge);
    client_platform_end(&s_p, t_failures > 0 || !clean);
    return clean ? T_DONE() : 1;
}
