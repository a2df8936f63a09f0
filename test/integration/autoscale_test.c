/*  =========================================================================
    autoscale_test - model services' autoscaling rules with real containers

    The gateway evaluates rules every 500 ms on metrics averaged over 4 s
    (serving.autoscale_*), the agent reports kernel stats every second. An
    endpoint served by busybox's httpd gets two rules on requests per
    second (INFERENCE_FRAMEWORK requests_per_second, counted by the
    wsproxy): above 5 it grows by one up to 2 replicas, below 1 it shrinks
    by one down to 1, each with a cool-down of 3 s. Requests through its
    URL take it to 2 and keep it there (the bound); once idle it comes back
    to 1 after the cool-down and stays (the other bound). A model whose
    command burns a core for a while (KERNEL cpu_util above 50) scales to
    2. Refused as GraphQL errors, as Backend.AI's: an unknown metric source
    or comparator, min_replicas above max_replicas, a step of 0, a
    threshold that is no decimal, a metric Backplane does not measure, a
    rule on another user's endpoint (and reading, changing or deleting
    one), an id that is no rule's (another type's global id, bytes after
    the UUID, 36 characters that are no UUID); a deleted endpoint's rules
    are gone. Needs root, runc, umoci and
    tini.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gateway_client.h"
#include "t.h"

#define IMAGE      "local.backplane/library/busybox:latest"
#define SERVING_MS 120000 //  replicas start in seconds, slower under load
#define SCALE_MS   60000  //  a rule acts within seconds of its metric

static client_platform_t s_p;
static harness_proc_t s_agent, s_sp, s_wsp;
static char s_wsp_api[128];
static char s_bridge[16];
static char s_storage[128];
static client_keypair_t s_alice, s_bob;
static char s_endpoint[64]; //  the endpoint under requests
static char s_rule[128];    //  one of its rules (Relay id)

static const char *const s_gateway_sets[] = {"serving.autoscale_window_s=4",
                                             "serving.autoscale_period_ms=500", NULL};

static const char s_definition[] =
    "models:\n"
    "  - name: echo-model\n"
    "    model_path: /models\n"
    "    service:\n"
    "      start_command: [\"httpd\", \"-f\", \"-p\", \"8000\", \"-h\", \"/models\"]\n"
    "      port: 8000\n"
    "      health_check: {path: /health, max_retries: 2, max_wait_time: 1}\n";

//  httpd in the background, then a core burnt for 90 s (bounded, as the
//  machine is shared), then nothing.
static const char s_burner[] =
    "models:\n"
    "  - name: burn-model\n"
    "    model_path: /models\n"
    "    service:\n"
    "      start_command: [\"sh\", \"-c\", \"httpd -p 8000 -h /models;"
    " end=$(($(date +%s) + 90)); while [ $(date +%s) -lt $end ]; do :; done;"
    " exec sleep 100000\"]\n"
    "      port: 8000\n"
    "      health_check: {path: /health, max_retries: 2, max_wait_time: 1}\n";

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

//  Writes data to path of folder as alice (request-upload, one tus PATCH).
static bool
s_upload(const char *folder, const char *path, const char *data)
{
    char route[256], request[512], target[4096];
    snprintf(route, sizeof route, "/folders/%s/request-upload", folder);
    snprintf(request, sizeof request, "{\"path\": \"%s\", \"size\": %zu}", path,
             strlen(data));
    json_t *answer = NULL;
    int status = s_as(&s_alice, "POST", route, request, &answer);
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

//  A model folder of alice's holding definition and a health file.
static bool
s_folder(const char *name, const char *definition)
{
    char body[256];
    snprintf(body, sizeof body, "{\"name\": \"%s\", \"usage_mode\": \"model\"}", name);
    return s_as(&s_alice, "POST", "/folders", body, NULL) == 201 &&
           s_upload(name, "model-definition.yaml", definition) &&
           s_upload(name, "health", "ok\n");
}

//  A service of one replica of folder named name; its id into id.
static bool
s_create(const char *name, const char *folder, char *id, size_t size)
{
    char body[1024];
    snprintf(
        body, sizeof body,
        "{\"name\": \"%s\", \"desired_session_count\": 1, \"image\": \"" IMAGE "\","
        " \"group\": \"default\", \"domain\": \"default\", \"open_to_public\": false,"
        " \"config\": {\"model\": \"%s\", \"scaling_group\": \"default\","
        " \"resources\": {\"cpu\": 1, \"mem\": \"128m\"}}}",
        name, folder);
    json_t *r = NULL;
    int status = s_as(&s_alice, "POST", "/services", body, &r);
    const char *endpoint = json_string_value(json_object_get(r, "endpoint_id"));
    snprintf(id, size, "%s", endpoint ? endpoint : "");
    json_decref(r);
    return status == 200 && *id;
}

//  GET /services/{id} as alice. Caller decrefs.
static json_t *
s_info(const char *id)
{
    char path[128];
    snprintf(path, sizeof path, "/services/%s", id);
    json_t *info = NULL;
    s_as(&s_alice, "GET", path, NULL, &info);
    return info;
}

static int64_t
s_desired(const char *id)
{
    json_t *info = s_info(id);
    int64_t desired =
        json_is_integer(json_object_get(info, "desired_session_count"))
            ? json_integer_value(json_object_get(info, "desired_session_count"))
            : -1;
    json_decref(info);
    return desired;
}

//  Waits for id's URL (host:port into url) with as many healthy routes as
//  count. False after SERVING_MS.
static bool
s_wait_serving(const char *id, size_t count, char *url, size_t size)
{
    for (int waited = 0; waited < SERVING_MS; waited += 500) {
        json_t *info = s_info(id);
        const char *endpoint =
            json_string_value(json_object_get(info, "service_endpoint"));
        bool ready = json_array_size(json_object_get(info, "active_routes")) == count &&
                     endpoint && strncmp(endpoint, "http://", 7) == 0;
        if (ready && url)
            snprintf(url, size, "%s", endpoint + 7);
        json_decref(info);
        if (ready)
            return true;
        harness_pause_ms(500);
    }
    return false;
}

//  A GraphQL document as kp; the whole response. Caller decrefs.
static json_t *
s_gql(const client_keypair_t *kp, const char *query, json_t *variables)
{
    return client_gql(&s_p, kp, query, variables);
}

//  The first error's message of a response ("" when none).
static const char *
s_error(json_t *response)
{
    const char *message = json_string_value(json_object_get(
        json_array_get(json_object_get(response, "errors"), 0), "message"));
    return message ? message : "";
}

static const char s_create_rule[] =
    "mutation($endpoint: String!, $props: EndpointAutoScalingRuleInput!) {"
    " create_endpoint_auto_scaling_rule_node(endpoint: $endpoint, props: $props) {"
    " ok msg rule { id row_id metric_source metric_name threshold comparator step_size"
    " cooldown_seconds min_replicas max_replicas created_at last_triggered_at"
    " endpoint } } }";

//  Creates a rule on endpoint as kp from props (taken); the response.
static json_t *
s_rule_create(const client_keypair_t *kp, const char *endpoint, json_t *props)
{
    return s_gql(kp, s_create_rule,
                 json_pack("{s:s, s:o}", "endpoint", endpoint, "props", props));
}

//  text in base64, as Relay's global ids, into out (at least 4/3 more).
static void
s_base64(const char *text, char *out)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t len = strlen(text), o = 0;
    for (size_t i = 0; i < len; i += 3) {
        unsigned v = (unsigned char) text[i] << 16;
        if (i + 1 < len)
            v |= (unsigned char) text[i + 1] << 8;
        if (i + 2 < len)
            v |= (unsigned char) text[i + 2];
        out[o++] = digits[v >> 18 & 63];
        out[o++] = digits[v >> 12 & 63];
        out[o++] = i + 1 < len ? digits[v >> 6 & 63] : '=';
        out[o++] = i + 2 < len ? digits[v & 63] : '=';
    }
    out[o] = '\0';
}

//  The created rule of a response, or NULL (borrowed).
static json_t *
s_created(json_t *response)
{
    return json_object_get(
               json_object_get(json_object_get(json_object_get(response, "data"),
                                               "create_endpoint_auto_scaling_rule_node"),
                               "rule"),
               "id")
               ? json_object_get(
                     json_object_get(json_object_get(response, "data"),
                                     "create_endpoint_auto_scaling_rule_node"),
                     "rule")
               : NULL;
}

//  The rules of endpoint as alice: the connection's edges. Caller decrefs.
static json_t *
s_rules(const char *endpoint)
{
    json_t *r =
        s_gql(&s_alice,
              "query($e: String!) { endpoint_auto_scaling_rule_nodes(endpoint: $e) {"
              " count edges { node { id row_id metric_name step_size"
              " last_triggered_at } } } }",
              json_pack("{s:s}", "e", endpoint));
    json_t *edges = json_incref(json_object_get(
        json_object_get(json_object_get(r, "data"), "endpoint_auto_scaling_rule_nodes"),
        "edges"));
    json_decref(r);
    return edges;
}

//  Sends count requests to url (host:port) with the endpoint token auth.
static int
s_load(const char *url, const char *auth, int count)
{
    char header[2048];
    snprintf(header, sizeof header, "Authorization: %s", auth);
    const char *headers[] = {header, NULL};
    int answered = 0;
    for (int i = 0; i < count; i++)
        answered += harness_http_ex(url, "GET", "/health", headers, NULL, NULL, NULL,
                                    NULL, CLIENT_HTTP_MS) == 200;
    return answered;
}

static int64_t
s_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

//  ---------------------------------------------------------------------------
//  Tests

static void
test_start(void)
{
    T_ASSERT(client_platform_start_ex(&s_p, "autoscale", false, NULL, s_gateway_sets) ==
             0);
    T_ASSERT(client_storage_start(&s_p, &s_sp, s_storage, sizeof s_storage));
    T_ASSERT(client_wsproxy_start(&s_p, &s_wsp, s_wsp_api, sizeof s_wsp_api));
    snprintf(s_bridge, sizeof s_bridge, "bpa%d", (int) (getpid() % 100000));
    const char *agent_sets[] = {"agent.stats_ms=1000", NULL};
    T_ASSERT(client_agent_start_with(&s_p, &s_agent, "agent-a", s_bridge,
                                     harness_subnet(), agent_sets));
    T_ASSERT(client_person(&s_p, "alice@example.com", "default", "user", &s_alice));
    T_ASSERT(client_person(&s_p, "bob@example.com", "default", "user", &s_bob));
    T_ASSERT(s_folder("echo-model", s_definition));
    T_ASSERT(s_folder("burn-model", s_burner));
    T_ASSERT(s_create("auto-svc", "echo-model", s_endpoint, sizeof s_endpoint));
}

//  A rule's input with one field changed (value taken; NULL: removed).
static json_t *
s_props(const char *field, json_t *value)
{
    json_t *props =
        json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:i}", "metric_source",
                  "INFERENCE_FRAMEWORK", "metric_name", "requests_per_second",
                  "threshold", "5", "comparator", "GREATER_THAN", "step_size", 1,
                  "cooldown_seconds", 3, "min_replicas", 1, "max_replicas", 2);
    if (field && value)
        json_object_set_new(props, field, value);
    else if (field)
        json_object_del(props, field);
    return props;
}

static void
test_bad_input(void)
{
    struct {
        const char *field;
        json_t *value;
        const char *says;
    } cases[] = {
        {"metric_source", json_string("GPU"), "AutoScalingMetricSource"},
        {"comparator", json_string("BIGGER"), "AutoScalingMetricComparator"},
        {"min_replicas", json_integer(3), "greater than max_replicas"},
        {"step_size", json_integer(0), "step_size"},
        {"threshold", json_string("lots"), "Decimal"},
        {"metric_name", json_string("gpu_util"), "metric_name"},
        {"cooldown_seconds", json_integer(-1), "cooldown_seconds"},
        {"comparator", NULL, "comparator"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *r =
            s_rule_create(&s_alice, s_endpoint, s_props(cases[i].field, cases[i].value));
        T_CONTAINS(s_error(r), cases[i].says);
        T_ASSERT(json_is_null(json_object_get(json_object_get(r, "data"),
                                              "create_endpoint_auto_scaling_rule_node")));
        json_decref(r);
    }
    //  Nothing was kept of them.
    json_t *edges = s_rules(s_endpoint);
    T_EQ_INT(json_array_size(edges), 0);
    json_decref(edges);
    //  An endpoint that does not exist; another user's.
    json_t *r = s_rule_create(&s_alice, "00000000-0000-0000-0000-000000000000",
                              s_props(NULL, NULL));
    T_CONTAINS(s_error(r), "not found");
    json_decref(r);
    r = s_rule_create(&s_bob, s_endpoint, s_props(NULL, NULL));
    T_CONTAINS(s_error(r), "Forbidden");
    json_decref(r);
    //  The gateway still answers.
    r = s_rule_create(&s_alice, s_endpoint, s_props(NULL, NULL));
    json_t *rule = s_created(r);
    T_ASSERT(rule != NULL);
    T_EQ_STR(json_string_value(json_object_get(rule, "metric_source")),
             "INFERENCE_FRAMEWORK");
    T_EQ_STR(json_string_value(json_object_get(rule, "threshold")), "5");
    T_EQ_STR(json_string_value(json_object_get(rule, "endpoint")), s_endpoint);
    T_ASSERT(json_is_null(json_object_get(rule, "last_triggered_at")));
    snprintf(s_rule, sizeof s_rule, "%s",
             rule ? json_string_value(json_object_get(rule, "id")) : "");
    char row_id[64];
    snprintf(row_id, sizeof row_id, "%s",
             rule ? json_string_value(json_object_get(rule, "row_id")) : "");
    json_decref(r);
    //  Ids that name no rule: a GraphQL error each; the row id bare (in
    //  either case) or as the rule's global id names it.
    char plain[128], ids[5][192];
    snprintf(plain, sizeof plain, "Endpoint:%s", row_id);
    s_base64(plain, ids[0]);
    snprintf(plain, sizeof plain, "EndpointAutoScalingRuleNode:%sxyz", row_id);
    s_base64(plain, ids[1]);
    snprintf(ids[2], sizeof ids[2], "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz");
    snprintf(ids[3], sizeof ids[3], "%.35s!", row_id);
    snprintf(plain, sizeof plain, "EndpointAutoScalingRuleNode:%.35s", row_id);
    s_base64(plain, ids[4]);
    for (size_t i = 0; i < 5; i++) {
        r = s_gql(
            &s_alice,
            "query($id: String!) { endpoint_auto_scaling_rule_node(id: $id) { id } }",
            json_pack("{s:s}", "id", ids[i]));
        T_CONTAINS(s_error(r), "not found");
        json_decref(r);
    }
    snprintf(ids[0], sizeof ids[0], "%s", row_id);
    for (char *c = ids[0]; *c; c++)
        *c = (char) toupper((unsigned char) *c);
    const char *good[] = {row_id, ids[0], s_rule};
    for (size_t i = 0; i < 3; i++) {
        r = s_gql(
            &s_alice,
            "query($id: String!) { endpoint_auto_scaling_rule_node(id: $id) { row_id } }",
            json_pack("{s:s}", "id", good[i]));
        T_EQ_STR(json_string_value(
                     json_object_get(json_object_get(json_object_get(r, "data"),
                                                     "endpoint_auto_scaling_rule_node"),
                                     "row_id")),
                 row_id);
        json_decref(r);
    }
    //  Bob may neither read, change nor delete it.
    r = s_gql(&s_bob,
              "query($id: String!) { endpoint_auto_scaling_rule_node(id: $id) { id } }",
              json_pack("{s:s}", "id", s_rule));
    T_CONTAINS(s_error(r), "Forbidden");
    json_decref(r);
    r = s_gql(&s_bob,
              "mutation($id: String!) { modify_endpoint_auto_scaling_rule_node(id: $id,"
              " props: {step_size: 5}) { ok } }",
              json_pack("{s:s}", "id", s_rule));
    T_CONTAINS(s_error(r), "Forbidden");
    json_decref(r);
    r = s_gql(&s_bob,
              "mutation($id: String!) { delete_endpoint_auto_scaling_rule_node(id: $id) "
              "{ ok } }",
              json_pack("{s:s}", "id", s_rule));
    T_CONTAINS(s_error(r), "Forbidden");
    json_decref(r);
    r = s_gql(
        &s_bob,
        "query($e: String!) { endpoint_auto_scaling_rule_nodes(endpoint: $e) { count } }",
        json_pack("{s:s}", "e", s_endpoint));
    T_CONTAINS(s_error(r), "Forbidden");
    json_decref(r);
    //  A change that would make min above max is refused; one that is fine
    //  is kept (and put back).
    r = s_gql(&s_alice,
              "mutation($id: String!) { modify_endpoint_auto_scaling_rule_node(id: $id,"
              " props: {min_replicas: 5}) { ok } }",
              json_pack("{s:s}", "id", s_rule));
    T_CONTAINS(s_error(r), "greater than max_replicas");
    json_decref(r);
    r = s_gql(&s_alice,
              "mutation($id: String!) { modify_endpoint_auto_scaling_rule_node(id: $id,"
              " props: {threshold: \"7.5\", comparator: GREATER_THAN_OR_EQUAL}) { ok msg"
              " rule { threshold comparator step_size } } }",
              json_pack("{s:s}", "id", s_rule));
    json_t *changed =
        json_object_get(json_object_get(json_object_get(r, "data"),
                                        "modify_endpoint_auto_scaling_rule_node"),
                        "rule");
    T_EQ_STR(json_string_value(json_object_get(changed, "threshold")), "7.5");
    T_EQ_STR(json_string_value(json_object_get(changed, "comparator")),
             "GREATER_THAN_OR_EQUAL");
    T_EQ_INT(json_integer_value(json_object_get(changed, "step_size")), 1);
    json_decref(r);
    r = s_gql(&s_alice,
              "mutation($id: String!) { modify_endpoint_auto_scaling_rule_node(id: $id,"
              " props: {threshold: \"5\", comparator: GREATER_THAN}) { ok } }",
              json_pack("{s:s}", "id", s_rule));
    T_ASSERT(client_mutation_ok(r, "modify_endpoint_auto_scaling_rule_node"));
    json_decref(r);
}

//  Requests through the URL take the endpoint to its rule's max and keep
//  it there; idle, it comes back to the other rule's min after the
//  cool-down and stays there.
static void
test_requests_per_second(void)
{
    char url[128] = "";
    T_ASSERT(s_wait_serving(s_endpoint, 1, url, sizeof url));
    char path[160];
    snprintf(path, sizeof path, "/services/%s/token", s_endpoint);
    json_t *r = NULL;
    T_EQ_INT(s_as(&s_alice, "POST", path, "{\"duration\": \"1h\"}", &r), 200);
    char auth[2048];
    snprintf(auth, sizeof auth, "BackendAI %s",
             json_string_value(json_object_get(r, "token"))
                 ? json_string_value(json_object_get(r, "token"))
                 : "");
    json_decref(r);
    //  Shrinks below 1 request per second, to no fewer than 1 replica.
    json_t *props = s_props("comparator", json_string("LESS_THAN"));
    json_object_set_new(props, "threshold", json_string("1"));
    json_object_set_new(props, "step_size", json_integer(-1));
    r = s_rule_create(&s_alice, s_endpoint, props);
    T_ASSERT(s_created(r) != NULL);
    json_decref(r);
    //  Idle at 1 replica: the shrinking rule is at its bound.
    harness_pause_ms(2000);
    T_EQ_INT(s_desired(s_endpoint), 1);
    //  Load: tens of requests a second.
    int64_t desired = 1, start = s_now_ms(), sent = 0;
    while (s_now_ms() - start < SCALE_MS && desired < 2) {
        T_ASSERT(s_load(url, auth, 20) > 0);
        sent += 20;
        desired = s_desired(s_endpoint);
    }
    T_EQ_INT(desired, 2);
    int64_t took = s_now_ms() - start;
    fprintf(stderr, "# scaled out after %lld ms of load (%lld requests, %.1f/s)\n",
            (long long) took, (long long) sent, took ? sent * 1000.0 / (double) took : 0);
    //  More load past the cool-down: no more than max_replicas.
    for (start = s_now_ms(); s_now_ms() - start < 6000;) {
        s_load(url, auth, 20);
        T_ASSERT(s_desired(s_endpoint) <= 2);
    }
    T_EQ_INT(s_desired(s_endpoint), 2);
    json_t *edges = s_rules(s_endpoint);
    T_EQ_INT(json_array_size(edges), 2);
    T_ASSERT(json_is_string(json_object_get(
        json_object_get(json_array_get(edges, 0), "node"), "last_triggered_at")));
    json_decref(edges);
    //  Idle: back to 1 once the window is quiet and the cool-down passed.
    for (start = s_now_ms(); s_now_ms() - start < SCALE_MS && desired > 1;) {
        harness_pause_ms(250);
        desired = s_desired(s_endpoint);
    }
    T_EQ_INT(desired, 1);
    fprintf(stderr, "# scaled in after %lld ms idle\n", (long long) (s_now_ms() - start));
    harness_pause_ms(5000);
    T_EQ_INT(s_desired(s_endpoint), 1);
    //  The replicas follow: one healthy route again.
    T_ASSERT(s_wait_serving(s_endpoint, 1, NULL, 0));
}

//  A model that burns a core: its cpu_util over 50 adds a replica.
static void
test_cpu(void)
{
    char id[64] = "";
    T_ASSERT(s_create("burn-svc", "burn-model", id, sizeof id));
    json_t *props = s_props("metric_source", json_string("KERNEL"));
    json_object_set_new(props, "metric_name", json_string("cpu_util"));
    json_object_set_new(props, "threshold", json_string("50"));
    json_object_set_new(props, "cooldown_seconds", json_integer(600));
    json_t *r = s_rule_create(&s_alice, id, props);
    T_ASSERT(s_created(r) != NULL);
    json_decref(r);
    T_ASSERT(s_wait_serving(id, 1, NULL, 0));
    int64_t desired = 1, start = s_now_ms();
    while (s_now_ms() - start < SCALE_MS && desired < 2) {
        harness_pause_ms(250);
        desired = s_desired(id);
    }
    T_EQ_INT(desired, 2);
    fprintf(stderr, "# scaled out on cpu_util %lld ms after its replica was healthy\n",
            (long long) (s_now_ms() - start));
    //  Ended at once: it burns the machine's CPU.
    char path[128];
    snprintf(path, sizeof path, "/services/%s", id);
    T_EQ_INT(s_as(&s_alice, "DELETE", path, NULL, NULL), 200);
}

//  A deleted endpoint's rules go with it.
static void
test_delete(void)
{
    char path[128];
    snprintf(path, sizeof path, "/services/%s", s_endpoint);
    T_EQ_INT(s_as(&s_alice, "DELETE", path, NULL, NULL), 200);
    int status = 200;
    for (int waited = 0; waited < SERVING_MS && status != 404; waited += 250) {
        char *text = NULL;
        status = client_signed(&s_p, &s_alice, "GET", path, NULL, NULL, &text, NULL);
        free(text);
        if (status != 404)
            harness_pause_ms(250);
    }
    T_EQ_INT(status, 404);
    json_t *r =
        s_gql(&s_alice,
              "query($id: String!) { endpoint_auto_scaling_rule_node(id: $id) { id } }",
              json_pack("{s:s}", "id", s_rule));
    T_CONTAINS(s_error(r), "not found");
    json_decref(r);
}

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
    }
    json_decref(list);
    //  Every replica's session ended: none of alice's is left.
    for (int waited = 0; waited < SERVING_MS; waited += 500) {
        json_t *r = s_gql(&s_alice,
                          "{ compute_session_list(limit: 10, offset: 0,"
                          " status: \"PENDING,SCHEDULED,PREPARING,PULLING,RUNNING,"
                          "RESTARTING,TERMINATING\") { total_count } }",
                          NULL);
        json_int_t left = json_integer_value(json_object_get(
            json_object_get(json_object_get(r, "data"), "compute_session_list"),
            "total_count"));
        json_decref(r);
        if (left == 0)
            break;
        harness_pause_ms(500);
    }
}

int
main(void)
{
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    T_RUN(test_start);
    if (!t_failures) {
        T_RUN(test_bad_input);
        T_RUN(test_requests_per_second);
        T_RUN(test_cpu);
        T_RUN(test_delete);
    }
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
    client_platform_end(&s_p, t_failures > 0 || !clean || getenv("BACKPLANE_KEEP"));
    return clean ? T_DONE() : 1;
}
