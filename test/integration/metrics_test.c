/*  =========================================================================
    metrics_test - every service's /metrics, scraped from the real binaries

    Starts the scheduler, accounting, the gateway, a storage-proxy and a
    fleet of two fake agents (no containers needed), each with /metrics on
    an ephemeral port (the harness's bus.http_listen), and checks what an
    operator pages on: one session RUNNING and one PENDING show as such,
    with the queue's wait, the agents' capacity and occupancy per slot and
    the passes' histogram; a gateway request moves its route's counter by
    exactly one, under the route's pattern, not its path; the volume's
    bytes and folders; accounting's records catching up with the gateway's
    requests and its lag behind the gateway's stream back to 0; and the
    outbox of the scheduler's session stream. It also checks each service's
    fixed default port (bus.http_listen, --print-config).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bus.h"
#include "gateway_client.h"
#include "harness.h"
#include "t.h"

#define WAIT_MS   30000
#define CALL_MS   15000
#define FLEET     "fleet"
#define AGENT_CPU 4
#define AGENT_MEM 8589934592.0 //  8g
#define IMAGE     "local.backplane/library/busybox:latest"

static client_platform_t s_p;
static harness_proc_t s_fleet, s_proxy;
static bool s_started;
static char s_http_scheduler[64], s_http_gateway[64], s_http_accounting[64],
    s_http_agent[64], s_http_storage[64];
static char s_gateway_node[128];

//  ---------------------------------------------------------------------------
//  Reading Prometheus text

//  GET /metrics at hostport: the body when the status is 200, else NULL.
//  Caller frees.
static char *
s_scrape(const char *hostport)
{
    char *body = NULL;
    int status = harness_http(hostport, "GET", "/metrics", NULL, &body, CALL_MS);
    if (status != 200) {
        fprintf(stderr, "# GET %s/metrics: %d\n", hostport, status);
        free(body);
        return NULL;
    }
    return body;
}

//  The value of the sample whose name and labels are exactly series
//  ("name{a=\"b\"}"), into *value. False when text has no such line.
static bool
s_value(const char *text, const char *series, double *value)
{
    size_t len = strlen(series);
    for (const char *line = text; line && *line;) {
        if (strncmp(line, series, len) == 0 && line[len] == ' ') {
            *value = strtod(line + len + 1, NULL);
            return true;
        }
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return false;
}

//  The value of series, or NAN when absent.
static double
s_get(const char *text, const char *series)
{
    double value;
    return s_value(text, series, &value) ? value : NAN;
}

//  The sum of the samples whose line starts with prefix and whose labels
//  end with suffix (the text right before the value's space).
static double
s_sum(const char *text, const char *prefix, const char *suffix)
{
    double sum = 0;
    size_t plen = strlen(prefix), slen = strlen(suffix);
    for (const char *line = text; line && *line;) {
        const char *space = strchr(line, ' ');
        const char *end = strchr(line, '\n');
        if (*line != '#' && space && (!end || space < end) &&
            strncmp(line, prefix, plen) == 0 && (size_t) (space - line) >= slen &&
            strncmp(space - slen, suffix, slen) == 0)
            sum += strtod(space + 1, NULL);
        line = end ? end + 1 : NULL;
    }
    return sum;
}

//  Scrapes hostport until series reads want (or timeout): its last value.
static double
s_wait_value(const char *hostport, const char *series, double want, int timeout_ms)
{
    int64_t started = bus_clock_mono_ms();
    double value = NAN;
    while (true) {
        char *text = s_scrape(hostport);
        value = text ? s_get(text, series) : NAN;
        free(text);
        if (value == want || bus_clock_mono_ms() - started > timeout_ms)
            return value;
        harness_pause_ms(100);
    }
}

//  Checks the histogram name{labels} (labels "" for none): its buckets in
//  order, cumulative (never decreasing), the last le="+Inf" and equal to
//  name_count. Returns the count, or -1 (with a line saying why).
static double
s_histogram(const char *text, const char *name, const char *labels)
{
    char prefix[512], series[512];
    snprintf(prefix, sizeof prefix, "%s_bucket{%s%sle=\"", name, labels,
             *labels ? "," : "");
    double last = -1;
    int buckets = 0;
    bool inf = false;
    for (const char *line = text; line && *line;) {
        if (strncmp(line, prefix, strlen(prefix)) == 0) {
            if (inf) {
                fprintf(stderr, "# %s: a bucket after +Inf\n", name);
                return -1;
            }
            const char *le = line + strlen(prefix);
            inf = strncmp(le, "+Inf\"}", 6) == 0;
            double value = strtod(strchr(le, ' ') + 1, NULL);
            if (value < last) {
                fprintf(stderr, "# %s: bucket %d decreases (%g < %g)\n", name, buckets,
                        value, last);
                return -1;
            }
            last = value;
            buckets++;
        }
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    snprintf(series, sizeof series, *labels ? "%s_count{%s}" : "%s_count%s", name,
             labels);
    double count = s_get(text, series);
    if (!inf || buckets != BUS_METRICS_SECONDS_BUCKETS + 1 || last != count) {
        fprintf(stderr, "# %s{%s}: %d buckets, +Inf %s, last %g, count %g\n", name,
                labels, buckets, inf ? "last" : "missing", last, count);
        return -1;
    }
    return count;
}

//  The http= field of proc's ready line into out.
static bool
s_http_of(harness_proc_t *proc, char *out, size_t size)
{
    char line[HARNESS_LINE_MAX];
    return harness_wait_line(proc, "ready ", 1000, line, sizeof line) &&
           harness_field(line, "http", out, size) && *out;
}

//  ---------------------------------------------------------------------------
//  Driving the platform

//  session.create of id (its kernel kid) asking cpu (a count) and 1g.
static int
s_create_session(const char *id, const char *kid, const char *cpu)
{
    proto_kv_t slots[] = {{"cpu", cpu}, {"mem", "1073741824"}};
    proto_session_create_req_t in;
    proto_session_create_req_init(&in);
    in.session_id = id;
    in.kernel_id = kid;
    in.name = id;
    in.access_key = "AKMETRICS";
    in.user_uuid = "user-metrics";
    in.domain_name = "default";
    in.group_id = "group-metrics";
    in.scaling_group = "default";
    in.image = IMAGE;
    in.slots = slots;
    in.slots_count = 2;
    bus_writer_t *writer = bus_writer_new();
    bus_rpc_client_t *client =
        bus_rpc_client_new(s_p.scheduler_rpc, "test/metrics", NULL);
    int rc = BUS_STATUS_INTERNAL;
    if (writer && client && proto_session_create_req_write(&in, writer) == 0) {
        zchunk_t *reply = NULL;
        bus_error_t err = {0};
        rc = bus_rpc_client_call_sync(client, PROTO_SESSION_CREATE,
                                      bus_writer_data(writer), bus_writer_size(writer),
                                      CALL_MS, &reply, &err);
        if (rc != BUS_OK)
            fprintf(stderr, "# session.create %s: %s\n", id, err.detail);
        zchunk_destroy(&reply);
    }
    bus_rpc_client_destroy(&client);
    bus_writer_destroy(&writer);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Tests

static void
test_start(void)
{
    T_EQ_INT(client_platform_start(&s_p, "metrics", true), 0);
    s_started = true;
    char state[512], pub[200], sub[200], reg[200], line[HARNESS_LINE_MAX];
    snprintf(state, sizeof state, "node.state_dir=%s/" FLEET, s_p.dir);
    snprintf(pub, sizeof pub, "bus.hub.publish=%s", s_p.hub_publish);
    snprintf(sub, sizeof sub, "bus.hub.subscribe=%s", s_p.hub_subscribe);
    snprintf(reg, sizeof reg, "bus.hub.registry=%s", s_p.registry);
    const char *fleet_args[] = {"--set", state,
                                "--set", pub,
                                "--set", sub,
                                "--set", reg,
                                "--set", "node.name=" FLEET,
                                "--set", "bus.heartbeat_ms=100",
                                "--set", "fake.agents=2",
                                "--set", "fake.slots=cpu=4,mem=8g",
                                NULL};
    T_ASSERT(harness_start(&s_fleet, s_p.dir, FLEET, "agent", fleet_args) == 0);
    T_ASSERT(harness_wait_line(&s_fleet, "ready ", CLIENT_READY_MS, line, sizeof line));
    char storage[64];
    T_ASSERT(client_storage_start(&s_p, &s_proxy, storage, sizeof storage));
    T_ASSERT(s_http_of(&s_p.scheduler, s_http_scheduler, sizeof s_http_scheduler));
    T_ASSERT(s_http_of(&s_p.gateway, s_http_gateway, sizeof s_http_gateway));
    T_ASSERT(s_http_of(&s_p.accounting, s_http_accounting, sizeof s_http_accounting));
    T_ASSERT(s_http_of(&s_fleet, s_http_agent, sizeof s_http_agent));
    T_ASSERT(s_http_of(&s_proxy, s_http_storage, sizeof s_http_storage));
    T_ASSERT(harness_wait_line(&s_p.gateway, "ready ", 1000, line, sizeof line));
    T_ASSERT(harness_field(line, "node", s_gateway_node, sizeof s_gateway_node));
}

//  Each service's default is its own fixed port; here each runs on another
//  (any free one), and answers there as itself.
static void
test_fixed_defaults_and_ephemeral_ports(void)
{
    static const struct {
        const char *service;
        const char *listen;
        const char *http;
    } services[] = {
        {"gateway", BUS_NODE_HTTP_GATEWAY, s_http_gateway},
        {"scheduler", BUS_NODE_HTTP_SCHEDULER, s_http_scheduler},
        {"agent", BUS_NODE_HTTP_AGENT, s_http_agent},
        {"storage-proxy", BUS_NODE_HTTP_STORAGE_PROXY, s_http_storage},
        {"wsproxy", BUS_NODE_HTTP_WSPROXY, NULL},
        {"accounting", BUS_NODE_HTTP_ACCOUNTING, s_http_accounting},
    };
    T_EQ_STR(BUS_NODE_HTTP_GATEWAY, "127.0.0.1:9101");
    T_EQ_STR(BUS_NODE_HTTP_ACCOUNTING, "127.0.0.1:9106");
    for (size_t i = 0; i < sizeof services / sizeof services[0]; i++) {
        char command[600], want[128], got[256] = "";
        snprintf(command, sizeof command,
                 "%s/backplane-%s --print-config | grep '^  http_listen:'",
                 harness_bindir(), services[i].service);
        FILE *pipe = popen(command, "r");
        T_ASSERT(pipe);
        if (!fgets(got, sizeof got, pipe))
            got[0] = 0;
        pclose(pipe);
        snprintf(want, sizeof want, "  http_listen: \"%s\"\n", services[i].listen);
        T_EQ_STR(got, want);
        if (!services[i].http)
            continue;
        T_ASSERT(strcmp(services[i].http, services[i].listen) != 0);
        char *text = s_scrape(services[i].http);
        T_ASSERT(text);
        char series[128];
        snprintf(series, sizeof series, "backplane_up{service=\"%s\"}",
                 services[i].service);
        double up = s_get(text, series);
        snprintf(series, sizeof series, "backplane_uptime_seconds{service=\"%s\"}",
                 services[i].service);
        double uptime = s_get(text, series);
        free(text);
        T_ASSERT(up == 1);
        T_ASSERT(uptime > 0 && uptime < 600);
    }
}

static void
test_scheduler_sessions_queue_agents(void)
{
    const char *running =
        "backplane_sessions{status=\"RUNNING\",resource_group=\"default\"}";
    //  Two ALIVE agents before anything runs.
    T_ASSERT(s_wait_value(s_http_scheduler,
                          "backplane_agents{status=\"ALIVE\",resource_group=\"default\"}",
                          2, WAIT_MS) == 2);
    int pid = (int) getpid();
    char id[64], kid[64];
    snprintf(id, sizeof id, "ms-fits-%d", pid);
    snprintf(kid, sizeof kid, "mk-fits-%d", pid);
    T_EQ_INT(s_create_session(id, kid, "1"), BUS_OK);
    //  One that no agent can hold: it waits in the queue.
    snprintf(id, sizeof id, "ms-waits-%d", pid);
    snprintf(kid, sizeof kid, "mk-waits-%d", pid);
    T_EQ_INT(s_create_session(id, kid, "100"), BUS_OK);
    T_ASSERT(s_wait_value(s_http_scheduler, running, 1, WAIT_MS) == 1);
    harness_pause_ms(300); //  so the queue's wait reads more than nothing
    char *text = s_scrape(s_http_scheduler);
    T_ASSERT(text);
    double pending =
        s_get(text, "backplane_sessions{status=\"PENDING\",resource_group=\"default\"}");
    double queue = s_get(text, "backplane_sessions_pending{resource_group=\"default\"}");
    double oldest = s_get(
        text, "backplane_sessions_pending_oldest_seconds{resource_group=\"default\"}");
    double terminating = s_get(
        text, "backplane_sessions{status=\"TERMINATING\",resource_group=\"default\"}");
    double lost =
        s_get(text, "backplane_agents{status=\"LOST\",resource_group=\"default\"}");
    double cpu_capacity =
        s_sum(text, "backplane_agent_slots{agent=\"", ",slot=\"cpu\",kind=\"capacity\"}");
    double cpu_occupied =
        s_sum(text, "backplane_agent_slots{agent=\"", ",slot=\"cpu\",kind=\"occupied\"}");
    double mem_capacity =
        s_sum(text, "backplane_agent_slots{agent=\"", ",slot=\"mem\",kind=\"capacity\"}");
    double mem_occupied =
        s_sum(text, "backplane_agent_slots{agent=\"", ",slot=\"mem\",kind=\"occupied\"}");
    double placements = s_get(text, "backplane_scheduler_placements_total");
    double passes = s_histogram(text, "backplane_scheduler_pass_duration_seconds", "");
    double head = s_get(
        text, "backplane_outbox_head_sequence{service=\"scheduler\",domain=\"session\"}");
    double retained = s_get(
        text,
        "backplane_outbox_retained_events{service=\"scheduler\",domain=\"session\"}");
    free(text);
    T_ASSERT(pending == 1);
    T_ASSERT(queue == 1);
    T_ASSERT(oldest > 0.2 && oldest < 60);
    T_ASSERT(terminating == 0); //  every live status has its sample, 0 when none
    T_ASSERT(lost == 0);
    T_ASSERT(cpu_capacity == 2 * AGENT_CPU);
    T_ASSERT(cpu_occupied == 1);
    T_ASSERT(mem_capacity == 2 * AGENT_MEM);
    T_ASSERT(mem_occupied == 1073741824.0);
    T_ASSERT(placements == 1);
    T_ASSERT(passes >= 1);
    //  Created, scheduled, running, ...: every event kept, nothing trimmed.
    T_ASSERT(head >= 2);
    T_ASSERT(retained == head);
    T_ASSERT(s_wait_value(s_http_scheduler,
                          "backplane_outbox_unpublished_events{service=\"scheduler\","
                          "domain=\"session\"}",
                          0, WAIT_MS) == 0);
}

static void
test_gateway_requests_by_route(void)
{
    const char *groups_ok =
        "backplane_gateway_requests_total{method=\"GET\",route=\"/folders\","
        "status=\"200\"}";
    const char *session_missing =
        "backplane_gateway_requests_total{method=\"GET\",route=\"/session/{session}\","
        "status=\"404\"}";
    const char *unmatched = "backplane_gateway_requests_total{method=\"GET\","
                            "route=\"unmatched\",status=\"404\"}";
    //  Once, so that every series exists before the counts are compared.
    T_EQ_INT(client_signed(&s_p, &s_p.super, "GET", "/folders", NULL, NULL, NULL, NULL),
             200);
    T_EQ_INT(client_signed(&s_p, &s_p.super, "GET", "/session/no-such-session", NULL,
                           NULL, NULL, NULL),
             404);
    T_EQ_INT(harness_http(s_p.api, "GET", "/no/such/path", NULL, NULL, CALL_MS), 404);
    char *before = s_scrape(s_http_gateway);
    T_ASSERT(before);
    double groups_before = s_get(before, groups_ok);
    double missing_before = s_get(before, session_missing);
    double unmatched_before = s_get(before, unmatched);
    free(before);
    T_ASSERT(groups_before >= 1 && missing_before >= 1 && unmatched_before >= 1);

    T_EQ_INT(client_signed(&s_p, &s_p.super, "GET", "/folders", NULL, NULL, NULL, NULL),
             200);
    T_EQ_INT(client_signed(&s_p, &s_p.super, "GET", "/session/another-missing-one", NULL,
                           NULL, NULL, NULL),
             404);
    T_EQ_INT(harness_http(s_p.api, "GET", "/no/such/path/either", NULL, NULL, CALL_MS),
             404);
    char *after = s_scrape(s_http_gateway);
    T_ASSERT(after);
    double groups_after = s_get(after, groups_ok);
    double missing_after = s_get(after, session_missing);
    double unmatched_after = s_get(after, unmatched);
    //  The raw paths never become labels: the route's pattern does.
    bool raw_path = strstr(after, "another-missing-one") || strstr(after, "/no/such");
    double count = s_histogram(after, "backplane_gateway_request_duration_seconds",
                               "method=\"GET\",route=\"/folders\"");
    double all_groups = s_sum(after,
                              "backplane_gateway_requests_total{method=\"GET\","
                              "route=\"/folders\",",
                              "\"}");
    free(after);
    T_ASSERT(groups_after == groups_before + 1);
    T_ASSERT(missing_after == missing_before + 1);
    T_ASSERT(unmatched_after == unmatched_before + 1);
    T_ASSERT(!raw_path);
    T_ASSERT(count >= 2);
    T_ASSERT(count == all_groups); //  one observation per request of the route
}

static void
test_storage_volume_usage(void)
{
    char *text = s_scrape(s_http_storage);
    T_ASSERT(text);
    double capacity =
        s_get(text, "backplane_storage_volume_capacity_bytes{volume=\"volume1\"}");
    double used = s_get(text, "backplane_storage_volume_used_bytes{volume=\"volume1\"}");
    double available =
        s_get(text, "backplane_storage_volume_available_bytes{volume=\"volume1\"}");
    double folders = s_get(text, "backplane_storage_folders{volume=\"volume1\"}");
    free(text);
    T_ASSERT(capacity > 0);
    T_ASSERT(used > 0 && used <= capacity);
    T_ASSERT(available <= capacity);
    T_ASSERT(folders == 0);
    //  A folder made through the gateway (once it knows the volume).
    int status = 0;
    for (int tries = 0; tries < 100 && status != 201; tries++) {
        status = client_signed(&s_p, &s_p.super, "POST", "/folders",
                               "{\"name\": \"metrics\", \"host\": \"local:volume1\"}",
                               NULL, NULL, NULL);
        if (status != 201)
            harness_pause_ms(100);
    }
    T_EQ_INT(status, 201);
    T_ASSERT(s_wait_value(s_http_storage, "backplane_storage_folders{volume=\"volume1\"}",
                          1, WAIT_MS) == 1);
    T_ASSERT(s_wait_value(s_http_storage,
                          "backplane_storage_folders_usage_bytes{volume=\"volume1\"}", 0,
                          WAIT_MS) == 0);
}

static void
test_accounting_catches_up(void)
{
    //  Every request the gateway counted reaches the access log, and then
    //  accounting is behind the gateway's stream by nothing.
    char *text = s_scrape(s_http_gateway);
    T_ASSERT(text);
    double requests = s_sum(text, "backplane_gateway_requests_total{", "\"}");
    free(text);
    T_ASSERT(requests >= 7);
    T_ASSERT(s_wait_value(s_http_accounting,
                          "backplane_accounting_records{kind=\"access_log\"}", requests,
                          WAIT_MS) == requests);
    char lag[512], lag_s[512];
    snprintf(lag, sizeof lag,
             "backplane_event_lag_events{service=\"accounting\",publisher=\"gateway/%s\","
             "domain=\"gateway\"}",
             s_gateway_node);
    snprintf(
        lag_s, sizeof lag_s,
        "backplane_event_lag_seconds{service=\"accounting\",publisher=\"gateway/%s\","
        "domain=\"gateway\"}",
        s_gateway_node);
    T_ASSERT(s_wait_value(s_http_accounting, lag, 0, WAIT_MS) == 0);
    text = s_scrape(s_http_accounting);
    T_ASSERT(text);
    double seconds = s_get(text, lag_s);
    double usage = s_get(text, "backplane_accounting_records{kind=\"usage\"}");
    free(text);
    T_ASSERT(seconds == 0);
    T_ASSERT(usage >= 1); //  the running session's kernel, at least
    //  The gateway's side of the same stream: all of it sent.
    T_ASSERT(
        s_wait_value(
            s_http_gateway,
            "backplane_outbox_unpublished_events{service=\"gateway\",domain=\"gateway\"}",
            0, WAIT_MS) == 0);
}

static void
test_stop(void)
{
    if (!s_started)
        T_SKIP("the platform did not start");
    int fleet_rc = harness_stop(&s_fleet, CLIENT_STOP_MS);
    int proxy_rc = harness_stop(&s_proxy, CLIENT_STOP_MS);
    bool clean = fleet_rc == 0 && proxy_rc == 0 && !harness_log_has_report(&s_fleet) &&
                 !harness_log_has_report(&s_proxy);
    clean = client_platform_stop(&s_p) && clean;
    client_platform_end(&s_p, !clean || t_failures > 0);
    T_ASSERT(clean);
}

int
main(void)
{
    T_RUN(test_start);
    T_RUN(test_fixed_defaults_and_ephemeral_ports);
    T_RUN(test_scheduler_sessions_queue_agents);
    T_RUN(test_gateway_requests_by_route);
    T_RUN(test_storage_volume_usage);
    T_RUN(test_accounting_catches_up);
    T_RUN(test_stop);
    return T_DONE();
}
