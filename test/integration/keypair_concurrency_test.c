/*  =========================================================================
    keypair_concurrency_test - the keypairs' concurrency_used, num_queries
    and last_used in GraphQL, from the real binaries

    Starts the scheduler, the gateway and a fleet of fake agents (no
    containers needed). Two sessions of one keypair and one of another run:
    keypair, keypairs and keypair_list answer concurrency_used 2 and 1 (read
    from the scheduler's counts), and 1 once one of the two ends; a list
    that does not select the field costs the scheduler no call, one that
    does costs one; the official client's `admin keypair list` (where it
    is installed) shows the same counts. num_queries grows by exactly the
    requests a keypair made and last_used moves with them.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bus.h"
#include "gateway_client.h"
#include "harness.h"
#include "t.h"

#define WAIT_MS 30000
#define CALL_MS 15000
#define FLEET   "fleet"
#define IMAGE   "local.backplane/library/busybox:latest"

static client_platform_t s_p;
static harness_proc_t s_fleet;
static bool s_started;
static client_keypair_t s_one, s_two;
static char s_http_scheduler[64];
static char s_ids[3][64];

//  ---------------------------------------------------------------------------
//  Driving the platform

//  Calls method at the scheduler with the body in writer (consumed).
static int
s_call(const char *method, bus_writer_t *writer)
{
    bus_rpc_client_t *client = bus_rpc_client_new(s_p.scheduler_rpc, "test/kpconc", NULL);
    int rc = BUS_STATUS_INTERNAL;
    if (client && writer) {
        zchunk_t *reply = NULL;
        bus_error_t err = {0};
        rc = bus_rpc_client_call_sync(client, method, bus_writer_data(writer),
                                      bus_writer_size(writer), CALL_MS, &reply, &err);
        if (rc != BUS_OK)
            fprintf(stderr, "# %s: %s\n", method, err.detail);
        zchunk_destroy(&reply);
    }
    bus_rpc_client_destroy(&client);
    bus_writer_destroy(&writer);
    return rc;
}

//  session.create of id for the keypair access_key (1 cpu, 1g).
static int
s_create_session(const char *id, const char *access_key)
{
    char kernel[80];
    snprintf(kernel, sizeof kernel, "k-%s", id);
    proto_kv_t slots[] = {{"cpu", "1"}, {"mem", "1073741824"}};
    proto_session_create_req_t in;
    proto_session_create_req_init(&in);
    in.session_id = id;
    in.kernel_id = kernel;
    in.name = id;
    in.access_key = access_key;
    in.user_uuid = "user-kpconc";
    in.domain_name = "default";
    in.group_id = "group-kpconc";
    in.scaling_group = "default";
    in.image = IMAGE;
    in.slots = slots;
    in.slots_count = 2;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_session_create_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    return s_call(PROTO_SESSION_CREATE, writer);
}

static int
s_destroy_session(const char *id)
{
    proto_session_destroy_req_t in;
    proto_session_destroy_req_init(&in);
    in.session_id = id;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_session_destroy_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    return s_call(PROTO_SESSION_DESTROY, writer);
}

//  concurrency_used of kp in each of the three root fields, read by the
//  superadmin: -1 where a field does not answer it as a number (or the
//  three disagree: -2).
static json_int_t
s_concurrency(const client_keypair_t *kp)
{
    char query[512];
    snprintf(query, sizeof query,
             "{ one: keypair(access_key: \"%s\") { access_key concurrency_used }"
             "  all: keypairs { access_key concurrency_used }"
             "  page: keypair_list(limit: 100, offset: 0) {"
             "   items { access_key concurrency_used } total_count } }",
             kp->access_key);
    json_t *r = client_gql(&s_p, &s_p.super, query, NULL);
    json_t *data = json_object_get(r, "data");
    json_t *one = json_object_get(json_object_get(data, "one"), "concurrency_used");
    json_int_t value = json_is_integer(one) ? json_integer_value(one) : -1;
    json_t *lists[] = {json_object_get(data, "all"),
                       json_object_get(json_object_get(data, "page"), "items")};
    for (size_t l = 0; l < 2; l++) {
        bool found = false;
        size_t index;
        json_t *item;
        json_array_foreach(lists[l], index, item)
        {
            const char *key = json_string_value(json_object_get(item, "access_key"));
            if (!key || strcmp(key, kp->access_key) != 0)
                continue;
            found = true;
            json_t *used = json_object_get(item, "concurrency_used");
            if (!json_is_integer(used) || json_integer_value(used) != value)
                value = -2;
        }
        if (!found)
            value = -1;
    }
    json_decref(r);
    return value;
}

//  Waits until concurrency_used of kp reads want; the last value read.
static json_int_t
s_wait_concurrency(const client_keypair_t *kp, json_int_t want)
{
    int64_t started = bus_clock_mono_ms();
    json_int_t value = s_concurrency(kp);
    while (value != want && bus_clock_mono_ms() - started < WAIT_MS) {
        harness_pause_ms(100);
        value = s_concurrency(kp);
    }
    if (value != want)
        fprintf(stderr, "# %s: concurrency_used %lld, not %lld\n", kp->access_key,
                (long long) value, (long long) want);
    return value;
}

//  The scheduler's RPC requests answered so far (its /metrics), or -1.
static double
s_scheduler_rpcs(void)
{
    char *body = NULL;
    double value = -1;
    if (harness_http(s_http_scheduler, "GET", "/metrics", NULL, &body, CALL_MS) == 200) {
        const char *line = strstr(body, "\nbackplane_rpc_served_total");
        if (line)
            line = strchr(line + 1, ' ');
        if (line)
            value = atof(line + 1);
    }
    free(body);
    return value;
}

//  num_queries and last_used (copied into last, "" for null) of kp, read
//  by the superadmin (whose requests count in its own keypair): -1 when
//  not answered.
static json_int_t
s_use(const client_keypair_t *kp, char *last, size_t size)
{
    char query[256];
    snprintf(query, sizeof query,
             "{ keypair(access_key: \"%s\") { num_queries last_used } }", kp->access_key);
    json_t *r = client_gql(&s_p, &s_p.super, query, NULL);
    json_t *keypair = json_object_get(json_object_get(r, "data"), "keypair");
    json_t *count = json_object_get(keypair, "num_queries");
    json_int_t value = json_is_integer(count) ? json_integer_value(count) : -1;
    const char *when = json_string_value(json_object_get(keypair, "last_used"));
    snprintf(last, size, "%s", when ? when : "");
    json_decref(r);
    return value;
}

//  Waits until num_queries of kp reads want (the access log writes in
//  batches); the last value read, with last_used in last.
static json_int_t
s_wait_use(const client_keypair_t *kp, json_int_t want, char *last, size_t size)
{
    int64_t started = bus_clock_mono_ms();
    json_int_t value = s_use(kp, last, size);
    while (value != want && bus_clock_mono_ms() - started < WAIT_MS) {
        harness_pause_ms(20);
        value = s_use(kp, last, size);
    }
    return value;
}

//  concurrency_used of kp in the official client's `backend.ai --output
//  json admin keypair list` as the superadmin, where the client is installed
//  (BACKPLANE_BCP names it; else backend.ai on PATH): -1 when not listed,
//  -3 when the client is not installed.
static json_int_t
s_official_client(const client_keypair_t *kp)
{
    const char *bcp = getenv("BACKPLANE_BCP") ? getenv("BACKPLANE_BCP") : "backend.ai";
    char command[1024];
    snprintf(command, sizeof command, "command -v %s >/dev/null 2>&1", bcp);
    if (system(command) != 0) {
        fprintf(stderr, "# %s is not installed: the official client is not tried\n", bcp);
        return -3;
    }
    snprintf(command, sizeof command,
             "BACKEND_ENDPOINT=http://%s BACKEND_ACCESS_KEY=%s BACKEND_SECRET_KEY=%s"
             " %s --output json admin keypair list 2>&1",
             s_p.api, s_p.super.access_key, s_p.super.secret_key, bcp);
    FILE *out = popen(command, "r");
    if (!out)
        return -1;
    static char text[65536];
    size_t size = fread(text, 1, sizeof text - 1, out);
    text[size] = 0;
    int rc = pclose(out);
    json_t *list = rc == 0 ? json_loads(text, 0, NULL) : NULL;
    if (!list)
        fprintf(stderr, "# %s: %s", bcp, text);
    json_int_t value = -1;
    size_t index;
    json_t *item;
    json_array_foreach(json_object_get(list, "items"), index, item)
    {
        const char *key = json_string_value(json_object_get(item, "access_key"));
        json_t *used = json_object_get(item, "concurrency_used");
        if (key && strcmp(key, kp->access_key) == 0 && json_is_integer(used))
            value = json_integer_value(used);
    }
    json_decref(list);
    return value;
}

//  ---------------------------------------------------------------------------
//  Tests

static void
test_start(void)
{
    T_EQ_INT(client_platform_start(&s_p, "kpconc", false), 0);
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
                                "--set", "fake.agents=1",
                                "--set", "fake.slots=cpu=8,mem=16g",
                                NULL};
    T_ASSERT(harness_start(&s_fleet, s_p.dir, FLEET, "agent", fleet_args) == 0);
    T_ASSERT(harness_wait_line(&s_fleet, "ready ", CLIENT_READY_MS, line, sizeof line));
    T_ASSERT(harness_wait_line(&s_p.scheduler, "ready ", 1000, line, sizeof line));
    T_ASSERT(harness_field(line, "http", s_http_scheduler, sizeof s_http_scheduler));
    T_ASSERT(client_person(&s_p, "conc-one@example.com", "default", "user", &s_one));
    T_ASSERT(client_person(&s_p, "conc-two@example.com", "default", "user", &s_two));
    int pid = (int) getpid();
    for (int i = 0; i < 3; i++)
        snprintf(s_ids[i], sizeof s_ids[i], "kc-%d-%d", pid, i);
}

//  Two sessions of one keypair and one of the other: 2 and 1; one of the
//  two ends: 1 and 1. Before any session both read 0.
static void
test_concurrency_used(void)
{
    T_EQ_INT(s_concurrency(&s_one), 0);
    T_EQ_INT(s_concurrency(&s_two), 0);
    T_EQ_INT(s_create_session(s_ids[0], s_one.access_key), BUS_OK);
    T_EQ_INT(s_create_session(s_ids[1], s_one.access_key), BUS_OK);
    T_EQ_INT(s_create_session(s_ids[2], s_two.access_key), BUS_OK);
    T_EQ_INT(s_wait_concurrency(&s_one, 2), 2);
    T_EQ_INT(s_wait_concurrency(&s_two, 1), 1);
    //  The superadmin's own keypair runs nothing.
    T_EQ_INT(s_concurrency(&s_p.super), 0);
    //  The official client's Concur.Used column reads the same.
    json_int_t listed = s_official_client(&s_one);
    if (listed != -3) {
        T_EQ_INT(listed, 2);
        T_EQ_INT(s_official_client(&s_two), 1);
    }
    //  A user reads its own keypair's count too.
    json_t *r = client_gql(&s_p, &s_one, "{ keypair { concurrency_used } }", NULL);
    T_EQ_INT(
        json_integer_value(json_object_get(
            json_object_get(json_object_get(r, "data"), "keypair"), "concurrency_used")),
        2);
    json_decref(r);
    T_EQ_INT(s_destroy_session(s_ids[0]), BUS_OK);
    T_EQ_INT(s_wait_concurrency(&s_one, 1), 1);
    T_EQ_INT(s_concurrency(&s_two), 1);
    T_EQ_INT(s_destroy_session(s_ids[1]), BUS_OK);
    T_EQ_INT(s_destroy_session(s_ids[2]), BUS_OK);
    T_EQ_INT(s_wait_concurrency(&s_one, 0), 0);
    T_EQ_INT(s_wait_concurrency(&s_two, 0), 0);
}

//  A keypair list that does not select concurrency_used asks the
//  scheduler nothing; one that does asks once.
static void
test_only_when_selected(void)
{
    const char *without = "{ keypair_list(limit: 100, offset: 0) {"
                          " items { access_key num_queries } total_count } }";
    const char *with = "{ keypair_list(limit: 100, offset: 0) {"
                       " items { access_key concurrency_used } total_count } }";
    //  Nothing else calls the scheduler here, but a stray call (a health
    //  check) is told apart by trying a few times.
    bool quiet = false;
    for (int tries = 0; tries < 5 && !quiet; tries++) {
        double before = s_scheduler_rpcs();
        json_t *r = client_gql(&s_p, &s_p.super, without, NULL);
        T_ASSERT(json_array_size(json_object_get(
                     json_object_get(json_object_get(r, "data"), "keypair_list"),
                     "items")) >= 3);
        json_decref(r);
        double after = s_scheduler_rpcs();
        T_ASSERT(before >= 0 && after >= 0);
        quiet = after == before;
    }
    T_ASSERT(quiet);
    bool once = false;
    for (int tries = 0; tries < 5 && !once; tries++) {
        double before = s_scheduler_rpcs();
        json_t *r = client_gql(&s_p, &s_p.super, with, NULL);
        json_decref(r);
        once = s_scheduler_rpcs() == before + 1;
    }
    T_ASSERT(once);
}

//  num_queries grows by exactly the requests made with the keypair, and
//  last_used moves with them.
static void
test_num_queries_and_last_used(void)
{
    char first[64], last[64];
    json_int_t before = s_use(&s_two, first, sizeof first);
    T_ASSERT(before >= 0);
    for (int i = 0; i < 5; i++)
        T_EQ_INT(client_signed(&s_p, &s_two, "GET", "/auth/role", NULL, NULL, NULL, NULL),
                 200);
    T_EQ_INT(s_wait_use(&s_two, before + 5, last, sizeof last), before + 5);
    T_ASSERT(*last);
    T_ASSERT(strcmp(last, first) > 0); //  ISO 8601 in UTC sorts as time
    //  The superadmin's reads did not count for it; a little later it still
    //  reads the same.
    harness_pause_ms(200);
    char again[64];
    T_EQ_INT(s_use(&s_two, again, sizeof again), before + 5);
    T_EQ_STR(again, last);
    //  One more request: one more, and a later time.
    json_t *r = client_gql(&s_p, &s_two, "{ keypair { access_key } }", NULL);
    T_ASSERT(r);
    json_decref(r);
    T_EQ_INT(s_wait_use(&s_two, before + 6, again, sizeof again), before + 6);
    T_ASSERT(strcmp(again, last) > 0);
}

static void
test_stop(void)
{
    if (!s_started)
        T_SKIP("the platform did not start");
    int fleet_rc = harness_stop(&s_fleet, CLIENT_STOP_MS);
    bool clean = fleet_rc == 0 && !harness_log_has_report(&s_fleet);
    clean = client_platform_stop(&s_p) && clean;
    client_platform_end(&s_p, !clean || t_failures > 0);
    T_ASSERT(clean);
}

int
main(void)
{
    T_RUN(test_start);
    T_RUN(test_concurrency_used);
    T_RUN(test_only_when_selected);
    T_RUN(test_num_queries_and_last_used);
    T_RUN(test_stop);
    return T_DONE();
}
