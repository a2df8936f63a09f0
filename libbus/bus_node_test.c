/*  =========================================================================
    bus_node_test - durable events end to end between two real nodes

    Two nodes share one event loop in this process, as two services would
    share a machine: "pub" hosts the hub and the registry and publishes
    durable test.tick events; "sub" follows the "test" domain and records
    each tick in its own SQLite file. Real sockets, real databases. The
    acceptance case: the subscriber is shut down, 10,000 events are
    published while it is away, and after its restart it applies all of
    them exactly once, in order.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "t.h"

#define WAIT_MS       60000
#define OFFLINE_TICKS 10000

typedef struct {
    bus_node_config_t node;
} test_config_t;

static const bus_config_option_t s_options[] = {
    BUS_NODE_CONFIG_ROWS(test_config_t, node, "false", BUS_NODE_HTTP_ANY),
    BUS_CONFIG_END,
};

static const bus_db_migration_t s_sub_migrations[] = {
    {"ticks applied by the subscriber",
     "CREATE TABLE applied (n INTEGER PRIMARY KEY, src TEXT NOT NULL)"},
};

typedef struct {
    uint64_t out_of_order;
    uint64_t duplicates;
    uint64_t calls;
} sub_state_t;

static char s_dir[64];
static struct event_base *s_base;
static test_config_t s_pub_config, s_sub_config;
static sub_state_t s_state;

//  The subscriber's apply function: it runs inside the transaction that
//  advances the cursor. It checks the order against its own table.
static int
s_apply(void *arg, bus_node_t *node, const bus_event_t *event)
{
    sub_state_t *state = arg;
    state->calls++;
    proto_test_tick_t tick;
    if (proto_test_tick_decode(&tick, event->body, event->body_size, NULL) != BUS_OK)
        return -1;
    bus_db_t *db = bus_node_db(node);
    sqlite3_stmt *max = bus_db_stmt(db, "SELECT coalesce(max(n), 0) FROM applied");
    sqlite3_step(max);
    uint64_t last = (uint64_t) sqlite3_column_int64(max, 0);
    sqlite3_reset(max);
    if (tick.n != last + 1)
        state->out_of_order++;
    sqlite3_stmt *insert =
        bus_db_stmt(db, "INSERT INTO applied (n, src) VALUES (?1, ?2)");
    sqlite3_bind_int64(insert, 1, (int64_t) tick.n);
    sqlite3_bind_text(insert, 2, event->header.src, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(insert);
    sqlite3_reset(insert);
    proto_test_tick_clear(&tick);
    if (rc != SQLITE_DONE) {
        state->duplicates++;
        return -1;
    }
    return 0;
}

static int64_t
s_count(bus_node_t *node)
{
    sqlite3_stmt *stmt = bus_db_stmt(bus_node_db(node), "SELECT count(*) FROM applied");
    sqlite3_step(stmt);
    int64_t count = sqlite3_column_int64(stmt, 0);
    sqlite3_reset(stmt);
    return count;
}

static void
s_on_wake(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    (void) arg;
}

//  Runs the loop until the subscriber has applied want ticks or time is up.
static bool
s_run_until_applied(bus_node_t *sub, int64_t want, int timeout_ms)
{
    struct event *wake = event_new(s_base, -1, EV_PERSIST, s_on_wake, NULL);
    struct timeval tv = {0, 20000};
    event_add(wake, &tv);
    int64_t deadline = bus_clock_mono_ms() + timeout_ms;
    bool done = false;
    while (!(done = s_count(sub) >= want) && bus_clock_mono_ms() < deadline)
        event_base_loop(s_base, EVLOOP_ONCE);
    event_free(wake);
    return done;
}

static bus_node_t *
s_start_sub(void)
{
    bus_error_t err = {0};
    bus_node_t *sub =
        bus_node_new("sub", &s_sub_config.node, s_base, s_sub_migrations, 1, &err);
    if (!sub) {
        fprintf(stderr, "# sub: %s\n", err.detail);
        return NULL;
    }
    bus_node_follow(sub, "test", s_apply, &s_state);
    bus_node_start(sub);
    return sub;
}

static void
s_publish(bus_node_t *pub, uint64_t from, uint64_t count)
{
    proto_test_tick_t tick;
    proto_test_tick_init(&tick);
    bus_writer_t *writer = bus_writer_new();
    for (uint64_t n = from; n < from + count; n++) {
        tick.n = n;
        bus_writer_reset(writer);
        T_EQ_INT(proto_test_tick_write(&tick, writer), 0);
        //  Each event in its own transaction, as a state change would be.
        bus_node_begin(pub);
        bus_node_emit(pub, PROTO_TEST_TICK, bus_writer_data(writer),
                      bus_writer_size(writer));
        bus_node_commit(pub);
    }
    bus_writer_destroy(&writer);
    proto_test_tick_clear(&tick);
}

static void
s_configure(test_config_t *config, const char *state_dir, bool host)
{
    bus_config_defaults(s_options, config, NULL);
    bus_config_set(s_options, config, "node.state_dir", state_dir, NULL);
    bus_config_set(s_options, config, "node.name", "t", NULL);
    bus_config_set(s_options, config, "bus.heartbeat_ms", "100", NULL);
    bus_config_set(s_options, config, "bus.sync_ms", "200", NULL);
    bus_config_set(s_options, config, "bus.http_listen", "", NULL);
    if (host) {
        bus_config_set(s_options, config, "bus.hub.host", "true", NULL);
        bus_config_set(s_options, config, "bus.hub.publish", "tcp://127.0.0.1:*", NULL);
        bus_config_set(s_options, config, "bus.hub.subscribe", "tcp://127.0.0.1:*", NULL);
        bus_config_set(s_options, config, "bus.hub.registry", "tcp://127.0.0.1:*", NULL);
    }
}

//  The pub node resolved its "*" ports; the sub connects to those.
static void
s_point_at(test_config_t *config, const char *line)
{
    char value[256];
    const char *keys[][2] = {{"hub_publish=", "bus.hub.publish"},
                             {"hub_subscribe=", "bus.hub.subscribe"},
                             {"registry=", "bus.hub.registry"}};
    for (int i = 0; i < 3; i++) {
        const char *p = strstr(line, keys[i][0]);
        assert(p);
        p += strlen(keys[i][0]);
        snprintf(value, sizeof value, "%.*s", (int) strcspn(p, " \n"), p);
        bus_config_set(s_options, config, keys[i][1], value, NULL);
    }
}

static void
test_durable_delivery_survives_subscriber_restart(void)
{
    snprintf(s_dir, sizeof s_dir, "/tmp/backplane-node-XXXXXX");
    T_ASSERT(mkdtemp(s_dir));
    char pub_dir[128], sub_dir[128];
    snprintf(pub_dir, sizeof pub_dir, "%s/pub", s_dir);
    snprintf(sub_dir, sizeof sub_dir, "%s/sub", s_dir);
    s_base = event_base_new();
    s_configure(&s_pub_config, pub_dir, true);
    s_configure(&s_sub_config, sub_dir, false);

    bus_error_t err = {0};
    bus_node_t *pub = bus_node_new("pub", &s_pub_config.node, s_base, NULL, 0, &err);
    T_ASSERT(pub);
    //  Capture the ready line (stdout) to learn the resolved endpoints.
    char line[1024];
    FILE *saved = stdout, *capture = tmpfile();
    stdout = capture;
    bus_node_start(pub);
    stdout = saved;
    rewind(capture);
    T_ASSERT(fgets(line, sizeof line, capture));
    fclose(capture);
    s_point_at(&s_sub_config, line);

    //  Online: the subscriber follows live (and catches up at join).
    bus_node_t *sub = s_start_sub();
    T_ASSERT(sub);
    s_publish(pub, 1, 100);
    T_ASSERT(s_run_until_applied(sub, 100, WAIT_MS));

    //  Offline: kill the subscriber, publish 10,000 while it is down.
    bus_node_destroy(&sub);
    s_publish(pub, 101, OFFLINE_TICKS);

    //  Restart: it must catch up on its own, exactly once, in order.
    sub = s_start_sub();
    T_ASSERT(sub);
    int64_t want = 100 + OFFLINE_TICKS;
    T_ASSERT(s_run_until_applied(sub, want, WAIT_MS));
    T_EQ_INT(s_count(sub), want);
    T_EQ_INT(s_state.out_of_order, 0);
    T_EQ_INT(s_state.duplicates, 0);
    sqlite3_stmt *stmt =
        bus_db_stmt(bus_node_db(sub), "SELECT min(n), max(n) FROM applied");
    T_ASSERT(sqlite3_step(stmt) == SQLITE_ROW);
    T_EQ_INT(sqlite3_column_int64(stmt, 0), 1);
    T_EQ_INT(sqlite3_column_int64(stmt, 1), want);
    sqlite3_reset(stmt);

    //  Live again after the catch-up.
    s_publish(pub, (uint64_t) want + 1, 10);
    T_ASSERT(s_run_until_applied(sub, want + 10, WAIT_MS));
    T_EQ_INT(s_state.out_of_order, 0);
    T_EQ_INT(s_state.duplicates, 0);

    bus_node_destroy(&sub);
    bus_node_destroy(&pub);
    event_base_free(s_base);
    bus_config_clear(s_options, &s_pub_config);
    bus_config_clear(s_options, &s_sub_config);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", s_dir);
    T_EQ_INT(system(cmd), 0);
}

//  A handler that blocks (an agent starting a container) and a backlog of
//  requests for it: the loop's timers must still run while the backlog
//  drains, or a busy agent's heartbeats stop and it is taken for dead.
#define SLOW_CALLS      100
#define SLOW_HANDLER_US 5000

static int s_slow_served, s_served_at_timer = -1;

static int
s_slow(void *arg,
       bus_rpc_request_t *req,
       const void *body,
       size_t size,
       bus_writer_t *reply,
       bus_error_t *err)
{
    (void) arg;
    (void) req;
    (void) body;
    (void) size;
    (void) reply;
    (void) err;
    usleep(SLOW_HANDLER_US);
    s_slow_served++;
    return BUS_OK;
}

static void
s_on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    (void) arg;
    if (s_served_at_timer < 0)
        s_served_at_timer = s_slow_served;
}

static void
s_on_slow_reply(void *arg, const bus_reply_t *reply)
{
    (void) arg;
    (void) reply;
}

//  One node alone in a fresh directory, hosting the hub, for the tests of
//  its RPC server; NULL when it could not start.
static bus_node_t *
s_lone_node(void)
{
    snprintf(s_dir, sizeof s_dir, "/tmp/backplane-node-XXXXXX");
    if (!mkdtemp(s_dir))
        return NULL;
    char pub_dir[128];
    snprintf(pub_dir, sizeof pub_dir, "%s/pub", s_dir);
    s_base = event_base_new();
    s_configure(&s_pub_config, pub_dir, true);
    bus_error_t err = {0};
    return bus_node_new("pub", &s_pub_config.node, s_base, NULL, 0, &err);
}

static void
s_start_quietly(bus_node_t *node)
{
    FILE *saved = stdout, *capture = tmpfile();
    stdout = capture; //  the ready line is not TAP
    bus_node_start(node);
    stdout = saved;
    fclose(capture);
}

static void
s_lone_node_destroy(bus_node_t **node_p)
{
    bus_node_destroy(node_p);
    event_base_free(s_base);
    bus_config_clear(s_options, &s_pub_config);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", s_dir);
    T_EQ_INT(system(cmd), 0);
}

static void
test_blocking_handlers_do_not_starve_timers(void)
{
    bus_node_t *node = s_lone_node();
    T_ASSERT(node);
    T_EQ_INT(bus_node_handle(node, "test.slow", s_slow, NULL), 0);
    s_start_quietly(node);
    bus_rpc_client_t *client =
        bus_rpc_client_new(bus_node_rpc_endpoint(node), "test/slow", NULL);
    T_ASSERT(client);
    for (int i = 0; i < SLOW_CALLS; i++)
        bus_rpc_client_call(client, "test.slow", "", 0, WAIT_MS, s_on_slow_reply, NULL);
    usleep(200000); //  the requests wait on the node's socket, all of them
    struct event *timer = evtimer_new(s_base, s_on_timer, NULL);
    struct timeval soon = {0, 1000};
    evtimer_add(timer, &soon);
    int64_t deadline = bus_clock_mono_ms() + WAIT_MS;
    while (s_slow_served < SLOW_CALLS && bus_clock_mono_ms() < deadline)
        event_base_loop(s_base, EVLOOP_ONCE);
    T_EQ_INT(s_slow_served, SLOW_CALLS);
    fprintf(stderr, "# served before the timer ran: %d of %d\n", s_served_at_timer,
            SLOW_CALLS);
    //  The timer ran long before the backlog (half a second of handlers)
    //  was through.
    T_ASSERT(s_served_at_timer >= 0 && s_served_at_timer < SLOW_CALLS / 2);
    event_free(timer);
    bus_rpc_client_destroy(&client);
    s_lone_node_destroy(&node);
}

//  ---------------------------------------------------------------------------
//  Typed handlers (proto_serve.h): the adapter decodes, the handler holds
//  only its logic, the reply is checked against the schema and encoded.

typedef struct {
    int status;
    char detail[BUS_ERROR_DETAIL_MAX];
    proto_test_echo_rep_t rep;
    bool done;
} echo_answer_t;

//  n 1: answers with text copied into the reply's arena from a buffer that
//  is gone once the handler returns; n 2: an error; n 3: a reply the schema
//  refuses (a text over its 64 KiB).
static int
s_typed_echo(void *arg,
             const proto_test_echo_req_t *in,
             proto_test_echo_rep_t *out,
             bus_rpc_request_t *req,
             bus_error_t *err)
{
    (void) req;
    int *calls = arg;
    (*calls)++;
    if (in->n == 2)
        return bus_error_set(err, BUS_STATUS_CONFLICT, "echo %" PRIu64 " refused", in->n);
    char scratch[64];
    snprintf(scratch, sizeof scratch, "echo:%s", in->text ? in->text : "");
    out->n = in->n;
    out->text = proto_arena_strdup(&out->owned_, scratch);
    if (in->n == 3) {
        char *big = proto_arena_alloc(&out->owned_, 70000);
        if (!big)
            return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        memset(big, 'x', 69999);
        big[69999] = 0;
        out->text = big;
    }
    return BUS_OK;
}

static void
s_on_echo_reply(void *arg, const bus_reply_t *reply)
{
    echo_answer_t *answer = arg;
    answer->status = reply->status;
    snprintf(answer->detail, sizeof answer->detail, "%s", reply->detail);
    if (reply->status == BUS_OK)
        T_EQ_INT(
            proto_test_echo_rep_decode(&answer->rep, reply->body, reply->body_size, NULL),
            BUS_OK);
    answer->done = true;
}

static void
s_echo(bus_node_t *node, uint64_t n, const char *text, echo_answer_t *answer)
{
    proto_test_echo_req_t req;
    proto_test_echo_req_init(&req);
    req.n = n;
    req.text = text;
    bus_writer_t *writer = proto_test_echo_req_writer(&req, NULL);
    T_ASSERT(writer);
    *answer = (echo_answer_t){0};
    T_ASSERT(bus_node_call(node, bus_node_rpc_endpoint(node), PROTO_TEST_ECHO,
                           bus_writer_data(writer), bus_writer_size(writer), WAIT_MS,
                           s_on_echo_reply, answer));
    bus_writer_destroy(&writer);
    int64_t deadline = bus_clock_mono_ms() + WAIT_MS;
    while (!answer->done && bus_clock_mono_ms() < deadline)
        event_base_loop(s_base, EVLOOP_ONCE);
    T_ASSERT(answer->done);
}

static void
test_typed_handlers(void)
{
    bus_node_t *node = s_lone_node();
    T_ASSERT(node);
    bus_error_t err = {0};
    int calls = 0;
    const bus_node_method_t methods[] = {proto_test_echo_method(s_typed_echo)};
    T_EQ_INT(bus_node_serve(node, methods, 1, &calls, &err), BUS_OK);
    s_start_quietly(node);
    echo_answer_t answer;
    s_echo(node, 1, "hello", &answer);
    T_EQ_INT(answer.status, BUS_OK);
    T_EQ_INT((int) answer.rep.n, 1);
    T_EQ_STR(answer.rep.text, "echo:hello");
    proto_test_echo_rep_clear(&answer.rep);

    s_echo(node, 2, NULL, &answer);
    T_EQ_INT(answer.status, BUS_STATUS_CONFLICT);
    T_EQ_STR(answer.detail, "echo 2 refused");

    s_echo(node, 3, "x", &answer);
    T_EQ_INT(answer.status, BUS_STATUS_INTERNAL);
    T_ASSERT(strstr(answer.detail, "text"));

    //  A request that does not decode never reaches the handler.
    answer = (echo_answer_t){0};
    T_ASSERT(bus_node_call(node, bus_node_rpc_endpoint(node), PROTO_TEST_ECHO,
                           "\x81\xa1n\xa1x", 5, WAIT_MS, s_on_echo_reply, &answer));
    int64_t deadline = bus_clock_mono_ms() + WAIT_MS;
    while (!answer.done && bus_clock_mono_ms() < deadline)
        event_base_loop(s_base, EVLOOP_ONCE);
    T_ASSERT(answer.done && answer.status != BUS_OK);
    T_EQ_INT(calls, 3);

    s_lone_node_destroy(&node);
}

//  Bound on every address with no bus.rpc_advertise, a node advertises the
//  address its packets to the registry leave from (here loopback), on the
//  port it bound: never tcp://0.0.0.0, which a peer on another host would
//  take for itself.
static void
test_wildcard_bind_advertises_a_reachable_address(void)
{
    snprintf(s_dir, sizeof s_dir, "/tmp/backplane-node-XXXXXX");
    T_ASSERT(mkdtemp(s_dir));
    char pub_dir[128];
    snprintf(pub_dir, sizeof pub_dir, "%s/pub", s_dir);
    s_base = event_base_new();
    const char *binds[] = {"tcp://0.0.0.0:*", "tcp://*:*"};
    for (size_t i = 0; i < 2; i++) {
        s_configure(&s_pub_config, pub_dir, true);
        bus_config_set(s_options, &s_pub_config, "bus.rpc_bind", binds[i], NULL);
        bus_error_t err = {0};
        bus_node_t *node = bus_node_new("pub", &s_pub_config.node, s_base, NULL, 0, &err);
        T_ASSERT(node);
        const char *endpoint = bus_node_rpc_endpoint(node);
        T_CONTAINS(endpoint, "tcp://127.0.0.1:");
        //  The port bound, a number.
        T_ASSERT(atoi(strrchr(endpoint, ':') + 1) > 0);
        //  Served there.
        bus_rpc_client_t *client = bus_rpc_client_new(endpoint, "test/wildcard", NULL);
        T_ASSERT(client);
        bus_rpc_client_destroy(&client);
        bus_node_destroy(&node);
        bus_config_clear(s_options, &s_pub_config);
    }
    //  An address given is kept as it is.
    s_configure(&s_pub_config, pub_dir, true);
    bus_config_set(s_options, &s_pub_config, "bus.rpc_bind", "tcp://0.0.0.0:*", NULL);
    bus_config_set(s_options, &s_pub_config, "bus.rpc_advertise", "tcp://10.9.8.7:4242",
                   NULL);
    bus_error_t err = {0};
    bus_node_t *node = bus_node_new("pub", &s_pub_config.node, s_base, NULL, 0, &err);
    T_ASSERT(node);
    T_EQ_STR(bus_node_rpc_endpoint(node), "tcp://10.9.8.7:4242");
    bus_node_destroy(&node);
    bus_config_clear(s_options, &s_pub_config);
    event_base_free(s_base);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", s_dir);
    T_EQ_INT(system(cmd), 0);
}

int
main(void)
{
    bus_log_init("bus_node_test", NULL, BUS_LOG_WARNING);
    T_RUN(test_durable_delivery_survives_subscriber_restart);
    T_RUN(test_blocking_handlers_do_not_starve_timers);
    T_RUN(test_typed_handlers);
    T_RUN(test_wildcard_bind_advertises_a_reachable_address);
    return T_DONE();
}
