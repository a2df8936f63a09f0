/*  =========================================================================
    bus_rpc_test - RPC over real sockets on loopback: deadlines, a server
    that comes up late, retries of idempotent methods only, late replies,
    status details, hostile frames on both sides, pipelining and cancel

    Most tests run the client and the server in this thread and pump both
    sockets; the tests of bus_rpc_client_call_sync run the server in an actor,
    since call_sync only polls the client.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "t.h"

#define ANY_PORT      "tcp://127.0.0.1:*"
#define RANDOM_PORT   "tcp://127.0.0.1:!"
#define PORT_TRIES    5 //  a free port taken by another process: pick again
#define CLIENT_SRC    "test/client"
#define PUMP_MAX_MS   5000 //  a test fails rather than hangs past this
#define TIMEOUT_SLACK 250  //  how late a timeout may fire
#define PIPELINED     1000

//  ---------------------------------------------------------------------------
//  The server side: handlers for test.echo, test.slow and test.invalid that
//  count calls and can ignore the first ones or hold them to answer later.

typedef struct {
    int ignore_echo; //  echo calls to drop unanswered before answering
    int ignore_slow;
    bool hold; //  keep the next echo call in held (and ignore echo until replied)
    bus_rpc_request_t *held;
    int echo_calls;
    int slow_calls;
    int invalid_calls;
    uint64_t last_n;
    char last_src[BUS_SRC_MAX];
    char last_corr[BUS_CORR_MAX];
    char last_method[BUS_RPC_METHOD_MAX];
    int last_remaining_ms;
    char endpoint[256]; //  set by the server actor
} srv_t;

static void
s_note(srv_t *srv, bus_rpc_request_t *req)
{
    snprintf(srv->last_src, sizeof srv->last_src, "%s", bus_rpc_request_src(req));
    snprintf(srv->last_corr, sizeof srv->last_corr, "%s", bus_rpc_request_corr(req));
    snprintf(srv->last_method, sizeof srv->last_method, "%s",
             bus_rpc_request_method(req));
    srv->last_remaining_ms = bus_rpc_request_remaining_ms(req);
}

static int
s_echo(void *arg,
       bus_rpc_request_t *req,
       const void *body,
       size_t body_size,
       bus_writer_t *reply,
       bus_error_t *err)
{
    srv_t *srv = arg;
    srv->echo_calls++;
    s_note(srv, req);
    proto_test_echo_req_t in;
    int rc = proto_test_echo_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    srv->last_n = in.n;
    //  While a call is held, its retries (and any other echo) are ignored.
    if (srv->ignore_echo > 0 || srv->hold || srv->held) {
        bus_rpc_request_t *copy = bus_rpc_request_detach(req);
        if (srv->hold && !srv->held) {
            srv->hold = false;
            srv->held = copy;
        } else {
            if (srv->ignore_echo > 0)
                srv->ignore_echo--;
            bus_rpc_request_destroy(&copy);
        }
        proto_test_echo_req_clear(&in);
        return BUS_STATUS_PENDING_;
    }
    proto_test_echo_rep_t out;
    proto_test_echo_rep_init(&out);
    out.n = in.n;
    out.text = in.text;
    rc = proto_test_echo_rep_write(&out, reply);
    proto_test_echo_req_clear(&in);
    return rc == 0 ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "cannot encode");
}

static int
s_slow(void *arg,
       bus_rpc_request_t *req,
       const void *body,
       size_t body_size,
       bus_writer_t *reply,
       bus_error_t *err)
{
    (void) reply;
    srv_t *srv = arg;
    srv->slow_calls++;
    s_note(srv, req);
    proto_test_slow_req_t in;
    int rc = proto_test_slow_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_test_slow_req_clear(&in);
    if (srv->ignore_slow > 0) {
        srv->ignore_slow--;
        bus_rpc_request_t *copy = bus_rpc_request_detach(req);
        bus_rpc_request_destroy(&copy);
        return BUS_STATUS_PENDING_;
    }
    return BUS_OK; //  an empty body
}

static int
s_invalid(void *arg,
          bus_rpc_request_t *req,
          const void *body,
          size_t body_size,
          bus_writer_t *reply,
          bus_error_t *err)
{
    (void) req;
    (void) reply;
    srv_t *srv = arg;
    srv->invalid_calls++;
    if (body_size == 0)
        return BUS_STATUS_CONFLICT; //  no detail: the status name is sent
    return bus_error_set(err, BUS_STATUS_INVALID, "field 'n' must be odd, got %.*s",
                         (int) body_size, (const char *) body);
}

static bus_rpc_server_t *
s_server_new(const char *endpoint, srv_t *srv)
{
    bus_rpc_server_t *server = bus_rpc_server_new(endpoint, NULL);
    if (server) {
        bus_rpc_server_handle(server, PROTO_TEST_ECHO, s_echo, srv);
        bus_rpc_server_handle(server, PROTO_TEST_SLOW, s_slow, srv);
        bus_rpc_server_handle(server, "test.invalid", s_invalid, srv);
    }
    return server;
}

//  Serves until the pipe speaks ($TERM). srv belongs to this thread until
//  zactor_destroy returns; the caller reads the counts after that.
static void
s_server_actor(zsock_t *pipe, void *arg)
{
    srv_t *srv = arg;
    bus_rpc_server_t *server = s_server_new(ANY_PORT, srv);
    if (server)
        snprintf(srv->endpoint, sizeof srv->endpoint, "%s",
                 bus_rpc_server_endpoint(server));
    zsock_signal(pipe, 0);
    if (!server)
        return;
    zpoller_t *poller = zpoller_new(pipe, bus_rpc_server_sock(server), NULL);
    while (true) {
        void *which = zpoller_wait(poller, -1);
        if (which != bus_rpc_server_sock(server))
            break;
        bus_rpc_server_dispatch(server);
    }
    zpoller_destroy(&poller);
    bus_rpc_request_destroy(&srv->held);
    bus_rpc_server_destroy(&server);
}

//  ---------------------------------------------------------------------------
//  The client side: a callback that records what it got, and a pump.

typedef struct {
    int count; //  times the callback ran
    int status;
    char detail[BUS_ERROR_DETAIL_MAX];
    uint64_t n; //  the echoed n, when the body was an echo reply
    bool has_n;
    uint64_t expect_n; //  pipelining: the n this call sent
    int *done;         //  shared completion counter, may be NULL
} result_t;

static void
s_on_reply(void *arg, const bus_reply_t *reply)
{
    result_t *result = arg;
    result->count++;
    result->status = reply->status;
    snprintf(result->detail, sizeof result->detail, "%s", reply->detail);
    result->has_n = false;
    if (reply->status == BUS_OK && reply->body_size) {
        proto_test_echo_rep_t rep;
        if (proto_test_echo_rep_decode(&rep, reply->body, reply->body_size, NULL) ==
            BUS_OK) {
            result->n = rep.n;
            result->has_n = true;
            proto_test_echo_rep_clear(&rep);
        }
    }
    if (result->done)
        (*result->done)++;
}

//  Polls the client (and the server, when given), dispatching both and
//  ticking the client, until *counter reaches target. False on PUMP_MAX_MS.
static bool
s_pump(bus_rpc_client_t *client, bus_rpc_server_t *server, const int *counter, int target)
{
    int64_t end = bus_clock_mono_ms() + PUMP_MAX_MS;
    while (*counter < target) {
        int64_t now = bus_clock_mono_ms();
        if (now >= end)
            return false;
        zmq_pollitem_t items[2] = {
            {zsock_resolve(bus_rpc_client_sock(client)), 0, ZMQ_POLLIN, 0},
            {server ? zsock_resolve(bus_rpc_server_sock(server)) : NULL, 0, ZMQ_POLLIN,
             0},
        };
        int wait = bus_rpc_client_next_timeout_ms(client);
        if (wait < 0 || wait > end - now)
            wait = (int) (end - now);
        zmq_poll(items, server ? 2 : 1, wait);
        if (server)
            bus_rpc_server_dispatch(server);
        bus_rpc_client_dispatch(client);
        bus_rpc_client_tick(client);
    }
    return true;
}

//  An echo request body for n. Caller owns return value.
static zframe_t *
s_echo_body(uint64_t n, const char *text)
{
    proto_test_echo_req_t req;
    proto_test_echo_req_init(&req);
    req.n = n;
    req.text = text;
    zframe_t *frame = proto_test_echo_req_encode(&req);
    assert(frame);
    return frame;
}

static uint64_t
s_call_echo(bus_rpc_client_t *client, uint64_t n, int timeout_ms, result_t *result)
{
    zframe_t *body = s_echo_body(n, "hello");
    uint64_t id = bus_rpc_client_call(client, PROTO_TEST_ECHO, zframe_data(body),
                                      zframe_size(body), timeout_ms, s_on_reply, result);
    zframe_destroy(&body);
    return id;
}

//  A loopback endpoint where nothing listens: bound once, then released.
//  The port is random (czmq's "!"): "*" takes the lowest free port from
//  0xC000 up, which the next test running in parallel would take too.
static void
s_free_endpoint(char *out, size_t size)
{
    bus_rpc_server_t *server = bus_rpc_server_new(RANDOM_PORT, NULL);
    assert(server);
    snprintf(out, size, "%s", bus_rpc_server_endpoint(server));
    bus_rpc_server_destroy(&server);
}

//  The wall clock moved forward, so that queued requests look stale.
static int64_t s_wall_offset_us;

static int64_t
s_skewed_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000 + s_wall_offset_us;
}

//  ---------------------------------------------------------------------------
//  Tests

static void
test_timeout_then_server_comes_up(void)
{
    //  Nobody listens: the (non-idempotent) call times out on time.
    char endpoint[256];
    bus_rpc_client_t *client = NULL;
    bus_rpc_server_t *server = NULL;
    srv_t srv = {0};
    for (int tries = 0; !server && tries < PORT_TRIES; tries++) {
        bus_rpc_client_destroy(&client);
        s_free_endpoint(endpoint, sizeof endpoint);
        client = bus_rpc_client_new(endpoint, CLIENT_SRC, NULL);
        T_ASSERT(client);
        T_EQ_STR(bus_rpc_client_endpoint(client), endpoint);
        T_EQ_INT(bus_rpc_client_next_timeout_ms(client), -1);
        proto_test_slow_req_t slow;
        proto_test_slow_req_init(&slow);
        zframe_t *body = proto_test_slow_req_encode(&slow);
        const int timeout = 300;
        bus_error_t err = {0};
        int64_t start = bus_clock_mono_ms();
        int rc = bus_rpc_client_call_sync(client, PROTO_TEST_SLOW, zframe_data(body),
                                          zframe_size(body), timeout, NULL, &err);
        int64_t elapsed = bus_clock_mono_ms() - start;
        zframe_destroy(&body);
        T_EQ_INT(rc, BUS_STATUS_TIMEOUT);
        T_EQ_INT(err.status, BUS_STATUS_TIMEOUT);
        T_CONTAINS(err.detail, "within the deadline");
        T_ASSERT(elapsed >= timeout);
        T_ASSERT(elapsed < timeout + TIMEOUT_SLACK);
        T_EQ_INT(bus_rpc_client_pending(client), 0);

        //  The server comes up on that endpoint (unless another process
        //  took the port meanwhile; then start over on another).
        bus_log_set_level(-1);
        server = s_server_new(endpoint, &srv);
        bus_log_set_level(BUS_LOG_ERROR);
    }
    T_ASSERT(server);

    //  The slow request still sits in the client's queue and will arrive
    //  first; move the wall clock forward so it arrives past its deadline.
    s_wall_offset_us = 10 * 1000 * 1000;
    bus_clock_set_wall_source(s_skewed_wall);
    result_t result = {0};
    T_ASSERT(s_call_echo(client, 7, 3000, &result) > 0);
    bool done = s_pump(client, server, &result.count, 1);
    bus_clock_set_wall_source(NULL);
    T_ASSERT(done);

    //  The same socket works, and the stale request was never executed.
    T_EQ_INT(result.status, BUS_OK);
    T_ASSERT(result.has_n);
    T_EQ_INT(result.n, 7);
    T_EQ_INT(srv.echo_calls, 1);
    T_EQ_INT(srv.slow_calls, 0);
    T_EQ_STR(srv.last_src, CLIENT_SRC);
    T_EQ_INT(bus_rpc_client_pending(client), 0);
    bus_rpc_server_destroy(&server);
    bus_rpc_client_destroy(&client);
    bus_rpc_client_destroy(&client);
    T_ASSERT(client == NULL);
}

static void
test_retry_idempotent_only(void)
{
    //  test.echo is idempotent: the first attempt is ignored, the resend
    //  (same call id) is answered.
    srv_t srv = {.ignore_echo = 1, .ignore_slow = 1};
    zactor_t *actor = zactor_new(s_server_actor, &srv);
    T_ASSERT(actor && srv.endpoint[0]);
    bus_rpc_client_t *client = bus_rpc_client_new(srv.endpoint, CLIENT_SRC, NULL);
    zframe_t *body = s_echo_body(5, "again");
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    int rc = bus_rpc_client_call_sync(client, PROTO_TEST_ECHO, zframe_data(body),
                                      zframe_size(body), 900, &reply, &err);
    zframe_destroy(&body);
    T_EQ_INT(rc, BUS_OK);
    T_ASSERT(reply);
    proto_test_echo_rep_t rep;
    rc = proto_test_echo_rep_decode(&rep, zchunk_data(reply), zchunk_size(reply), NULL);
    zchunk_destroy(&reply);
    T_EQ_INT(rc, BUS_OK);
    T_EQ_INT(rep.n, 5);
    T_EQ_STR(rep.text, "again");
    proto_test_echo_rep_clear(&rep);

    //  test.slow is not: ignored once, it times out, sent only once. The
    //  echo after it proves the server has read everything sent before.
    proto_test_slow_req_t slow;
    proto_test_slow_req_init(&slow);
    body = proto_test_slow_req_encode(&slow);
    rc = bus_rpc_client_call_sync(client, PROTO_TEST_SLOW, zframe_data(body),
                                  zframe_size(body), 600, NULL, &err);
    zframe_destroy(&body);
    T_EQ_INT(rc, BUS_STATUS_TIMEOUT);
    body = s_echo_body(6, NULL);
    rc = bus_rpc_client_call_sync(client, PROTO_TEST_ECHO, zframe_data(body),
                                  zframe_size(body), 2000, NULL, &err);
    zframe_destroy(&body);
    T_EQ_INT(rc, BUS_OK);
    bus_rpc_client_destroy(&client);
    zactor_destroy(&actor);
    T_EQ_INT(srv.echo_calls, 3);
    T_EQ_INT(srv.slow_calls, 1);
}

static void
test_status_and_detail(void)
{
    srv_t srv = {0};
    zactor_t *actor = zactor_new(s_server_actor, &srv);
    T_ASSERT(actor && srv.endpoint[0]);
    bus_rpc_client_t *client = bus_rpc_client_new(srv.endpoint, CLIENT_SRC, NULL);
    bus_error_t err = {0};
    zchunk_t *reply = NULL;

    int rc = bus_rpc_client_call_sync(client, "test.nope", "\x80", 1, 2000, &reply, &err);
    T_EQ_INT(rc, BUS_STATUS_NOT_FOUND);
    T_EQ_STR(err.detail, "unknown method");
    T_ASSERT(reply == NULL);

    rc = bus_rpc_client_call_sync(client, "test.invalid", "42", 2, 2000, &reply, &err);
    T_EQ_INT(rc, BUS_STATUS_INVALID);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "field 'n' must be odd, got 42");
    T_ASSERT(reply == NULL);

    rc = bus_rpc_client_call_sync(client, "test.invalid", NULL, 0, 2000, NULL, &err);
    T_EQ_INT(rc, BUS_STATUS_CONFLICT);
    T_EQ_STR(err.detail, bus_status_str(BUS_STATUS_CONFLICT));

    //  A body the method's decoder refuses: the decoder's status and detail.
    rc = bus_rpc_client_call_sync(client, PROTO_TEST_ECHO, "\x80", 1, 2000, NULL, &err);
    T_EQ_INT(rc, BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "'n'");

    //  The request carries the caller's correlation id and deadline.
    bus_log_set_corr("corr-99");
    zframe_t *body = s_echo_body(1, NULL);
    rc = bus_rpc_client_call_sync(client, PROTO_TEST_ECHO, zframe_data(body),
                                  zframe_size(body), 2000, NULL, &err);
    zframe_destroy(&body);
    bus_log_set_corr(NULL);
    T_EQ_INT(rc, BUS_OK);

    //  Calls the client refuses up front never reach the server.
    char method[BUS_RPC_METHOD_MAX + 1];
    memset(method, 'm', sizeof method - 1);
    method[sizeof method - 1] = 0;
    result_t result = {0};
    T_EQ_INT(bus_rpc_client_call(client, method, NULL, 0, 100, s_on_reply, &result), 0);
    T_EQ_INT(
        bus_rpc_client_call(client, PROTO_TEST_ECHO, NULL, 0, 0, s_on_reply, &result), 0);
    T_EQ_INT(bus_rpc_client_call_sync(client, PROTO_TEST_ECHO, NULL, 0, -1, NULL, &err),
             BUS_STATUS_UNAVAILABLE);
    T_EQ_INT(bus_rpc_client_pending(client), 0);

    bus_rpc_client_destroy(&client);
    zactor_destroy(&actor);
    T_EQ_STR(srv.last_corr, "corr-99");
    T_EQ_STR(srv.last_method, PROTO_TEST_ECHO);
    T_ASSERT(srv.last_remaining_ms > 1000 && srv.last_remaining_ms <= 2000);
    T_EQ_INT(srv.invalid_calls, 2);
}

static void
test_late_reply_dropped(void)
{
    srv_t srv = {.hold = true};
    bus_rpc_server_t *server = s_server_new(ANY_PORT, &srv);
    T_ASSERT(server);
    bus_rpc_client_t *client =
        bus_rpc_client_new(bus_rpc_server_endpoint(server), CLIENT_SRC, NULL);
    result_t late = {0};
    T_ASSERT(s_call_echo(client, 3, 200, &late) > 0);
    T_ASSERT(s_pump(client, server, &srv.echo_calls, 1));
    T_ASSERT(srv.held);
    T_ASSERT(s_pump(client, server, &late.count, 1));
    T_EQ_INT(late.status, BUS_STATUS_TIMEOUT);

    //  The server answers after the client gave up.
    proto_test_echo_rep_t rep;
    proto_test_echo_rep_init(&rep);
    rep.n = 3;
    zframe_t *body = proto_test_echo_rep_encode(&rep);
    T_EQ_INT(bus_rpc_server_reply(server, &srv.held, BUS_OK, NULL, zframe_data(body),
                                  zframe_size(body)),
             0);
    zframe_destroy(&body);
    T_ASSERT(srv.held == NULL);

    //  A later call's reply comes after the late one on the same pipe, so
    //  once it is in, the late one has been read and dropped.
    result_t next = {0};
    T_ASSERT(s_call_echo(client, 4, 2000, &next) > 0);
    T_ASSERT(s_pump(client, server, &next.count, 1));
    T_EQ_INT(next.status, BUS_OK);
    T_EQ_INT(next.n, 4);
    T_EQ_INT(late.count, 1);
    T_EQ_INT(late.status, BUS_STATUS_TIMEOUT);
    T_EQ_INT(bus_rpc_client_pending(client), 0);
    bus_rpc_client_destroy(&client);
    bus_rpc_server_destroy(&server);
}

//  Sends count frames from a raw socket, the last without SNDMORE.
static void
s_send_raw(zsock_t *socket, int count, const void *const *data, const size_t *sizes)
{
    for (int i = 0; i < count; i++)
        zmq_send(zsock_resolve(socket), data[i], sizes[i],
                 i + 1 < count ? ZMQ_SNDMORE : 0);
}

//  Sends [header][body] from a raw DEALER, the header being what w holds.
static void
s_send_request(zsock_t *dealer, bus_writer_t *w, zframe_t *body)
{
    const void *data[] = {bus_writer_data(w), zframe_data(body)};
    size_t sizes[] = {bus_writer_size(w), zframe_size(body)};
    s_send_raw(dealer, 2, data, sizes);
}

//  A request header map; pass a negative version or call id, or a NULL
//  method, to leave it out.
static bus_writer_t *
s_request_header(bus_writer_t *w, int64_t version, int64_t call_id, const char *method)
{
    bus_writer_reset(w);
    bus_writer_map(w,
                   (uint32_t) ((version >= 0) + (call_id >= 0) + (method != NULL) + 1));
    if (version >= 0) {
        bus_writer_str(w, "v");
        bus_writer_uint(w, (uint64_t) version);
    }
    if (call_id >= 0) {
        bus_writer_str(w, "c");
        bus_writer_uint(w, (uint64_t) call_id);
    }
    if (method) {
        bus_writer_str(w, "m");
        bus_writer_str(w, method);
    }
    bus_writer_str(w, "dl");
    bus_writer_int(w, bus_clock_wall_us() + 5 * 1000 * 1000);
    return w;
}

//  Reads one reply on a raw DEALER: call id, status and detail.
static bool
s_read_reply(zsock_t *dealer,
             uint64_t *call_id,
             uint64_t *status,
             char *detail,
             size_t detail_size)
{
    zmq_pollitem_t item = {zsock_resolve(dealer), 0, ZMQ_POLLIN, 0};
    if (zmq_poll(&item, 1, PUMP_MAX_MS) != 1)
        return false;
    zmsg_t *msg = zmsg_recv(dealer);
    if (!msg || zmsg_size(msg) != 2) {
        zmsg_destroy(&msg);
        return false;
    }
    zframe_t *header = zmsg_first(msg);
    bus_reader_t *reader = bus_reader_new();
    const bus_value_t *map =
        bus_reader_parse(reader, zframe_data(header), zframe_size(header));
    bool ok = map && bus_value_get_uint(bus_value_map_find(map, "c"), call_id) &&
              bus_value_get_uint(bus_value_map_find(map, "st"), status);
    const char *text = "";
    size_t len = 0;
    bus_value_get_str(bus_value_map_find(map, "dt"), &text, &len);
    snprintf(detail, detail_size, "%.*s", (int) len, text);
    bus_reader_destroy(&reader);
    zmsg_destroy(&msg);
    return ok;
}

//  A caller whose clock is 10 minutes behind the server's: its deadline
//  is long past when the request arrives, so it is not executed, but it is
//  answered TIMEOUT with the server's time (ts), from which bus_node
//  corrects its bus time when the server is the registry; in bus time the
//  same call then carries a deadline the server accepts.
static void
test_skewed_caller_told_the_time(void)
{
    srv_t srv = {0};
    bus_rpc_server_t *server = s_server_new(ANY_PORT, &srv);
    T_ASSERT(server);
    zsock_t *dealer =
        bus_socket_connect(ZMQ_DEALER, bus_rpc_server_endpoint(server), NULL);
    bus_writer_t *w = bus_writer_new();
    zframe_t *echo = s_echo_body(21, NULL);
    const int64_t skew_us = -600 * (int64_t) 1000000;
    for (int i = 0; i < 2; i++) {
        //  The caller's bus time: its wall clock plus the offset it
        //  learnt (none the first time, the whole skew the second).
        int64_t caller_bus = bus_clock_wall_us() + skew_us - (i ? skew_us : 0);
        bus_writer_reset(w);
        bus_writer_map(w, 4);
        bus_writer_str(w, "v");
        bus_writer_uint(w, BUS_RPC_VERSION);
        bus_writer_str(w, "c");
        bus_writer_uint(w, (uint64_t) (30 + i));
        bus_writer_str(w, "m");
        bus_writer_str(w, PROTO_TEST_ECHO);
        bus_writer_str(w, "dl");
        bus_writer_int(w, caller_bus + 5 * 1000 * 1000);
        s_send_request(dealer, w, echo);
        int64_t end = bus_clock_mono_ms() + PUMP_MAX_MS;
        while (!(zsock_events(dealer) & ZMQ_POLLIN) && bus_clock_mono_ms() < end) {
            zmq_pollitem_t item = {zsock_resolve(bus_rpc_server_sock(server)), 0,
                                   ZMQ_POLLIN, 0};
            zmq_poll(&item, 1, 50);
            bus_rpc_server_dispatch(server);
        }
        zmsg_t *msg = zmsg_recv(dealer);
        T_ASSERT(msg && zmsg_size(msg) == 2);
        zframe_t *header = msg ? zmsg_first(msg) : NULL;
        bus_reader_t *reader = bus_reader_new();
        const bus_value_t *map =
            header ? bus_reader_parse(reader, zframe_data(header), zframe_size(header))
                   : NULL;
        uint64_t status = 99;
        int64_t ts = 0;
        T_ASSERT(bus_value_get_uint(bus_value_map_find(map, "st"), &status));
        T_ASSERT(bus_value_get_int(bus_value_map_find(map, "ts"), &ts));
        int64_t off = ts - bus_clock_wall_us();
        T_ASSERT(off < 5 * 1000 * 1000 && off > -5 * 1000 * 1000);
        T_EQ_INT(status, i == 0 ? BUS_STATUS_TIMEOUT : BUS_OK);
        T_EQ_INT(srv.echo_calls, i);
        bus_reader_destroy(&reader);
        zmsg_destroy(&msg);
    }
    zframe_destroy(&echo);
    bus_writer_destroy(&w);
    zsock_destroy(&dealer);
    bus_rpc_server_destroy(&server);
}

static void
test_server_survives_malformed_requests(void)
{
    srv_t srv = {0};
    bus_rpc_server_t *server = s_server_new(ANY_PORT, &srv);
    T_ASSERT(server);
    zsock_t *dealer =
        bus_socket_connect(ZMQ_DEALER, bus_rpc_server_endpoint(server), NULL);
    T_ASSERT(dealer);
    bus_writer_t *w = bus_writer_new();
    zframe_t *echo = s_echo_body(15, NULL);

    //  One frame, and three frames: dropped whole, unanswered.
    const void *one[] = {"x"};
    const size_t one_size[] = {1};
    s_send_raw(dealer, 1, one, one_size);
    s_request_header(w, 1, 10, PROTO_TEST_ECHO);
    const void *three[] = {bus_writer_data(w), zframe_data(echo), "extra"};
    const size_t three_size[] = {bus_writer_size(w), zframe_size(echo), 5};
    s_send_raw(dealer, 3, three, three_size);
    //  Not msgpack, not a map, no call id, call id 0: nobody to answer.
    const void *junk[][2] = {{"\xc1", ""}, {"\x93\x01\x02\x03", ""}};
    const size_t junk_size[][2] = {{1, 0}, {4, 0}};
    s_send_raw(dealer, 2, junk[0], junk_size[0]);
    s_send_raw(dealer, 2, junk[1], junk_size[1]);
    s_send_request(dealer, s_request_header(w, 1, -1, PROTO_TEST_ECHO), echo);
    s_send_request(dealer, s_request_header(w, 1, 0, PROTO_TEST_ECHO), echo);
    //  With a call id: PROTOCOL answers for a newer version, a missing
    //  method, and a method too long.
    s_send_request(dealer, s_request_header(w, BUS_RPC_VERSION + 1, 12, PROTO_TEST_ECHO),
                   echo);
    s_send_request(dealer, s_request_header(w, 1, 13, NULL), echo);
    char method[BUS_RPC_METHOD_MAX + 8];
    memset(method, 'm', sizeof method - 1);
    method[sizeof method - 1] = 0;
    s_send_request(dealer, s_request_header(w, 1, 14, method), echo);
    //  And a good call.
    s_send_request(dealer, s_request_header(w, 1, 15, PROTO_TEST_ECHO), echo);

    //  The server takes it all in one or more dispatches.
    int64_t end = bus_clock_mono_ms() + PUMP_MAX_MS;
    while (srv.echo_calls < 1 && bus_clock_mono_ms() < end) {
        zmq_pollitem_t item = {zsock_resolve(bus_rpc_server_sock(server)), 0, ZMQ_POLLIN,
                               0};
        zmq_poll(&item, 1, 100);
        bus_rpc_server_dispatch(server);
    }
    T_EQ_INT(srv.echo_calls, 1);
    T_EQ_INT(srv.last_n, 15);

    //  Replies arrive in order: the three PROTOCOL answers, then the good one.
    const uint64_t expect_ids[] = {12, 13, 14, 15};
    const char *expect_detail[] = {"version", "method", "method", ""};
    for (int i = 0; i < 4; i++) {
        uint64_t call_id = 0, status = 99;
        char detail[BUS_ERROR_DETAIL_MAX];
        T_ASSERT(s_read_reply(dealer, &call_id, &status, detail, sizeof detail));
        T_EQ_INT(call_id, expect_ids[i]);
        T_EQ_INT(status, i < 3 ? BUS_STATUS_PROTOCOL : BUS_OK);
        T_CONTAINS(detail, expect_detail[i]);
    }
    T_EQ_INT(zsock_events(dealer) & ZMQ_POLLIN, 0);

    //  A real client is still served.
    bus_rpc_client_t *client =
        bus_rpc_client_new(bus_rpc_server_endpoint(server), CLIENT_SRC, NULL);
    result_t result = {0};
    T_ASSERT(s_call_echo(client, 16, 2000, &result) > 0);
    T_ASSERT(s_pump(client, server, &result.count, 1));
    T_EQ_INT(result.status, BUS_OK);
    T_EQ_INT(result.n, 16);

    bus_rpc_client_destroy(&client);
    zframe_destroy(&echo);
    bus_writer_destroy(&w);
    zsock_destroy(&dealer);
    bus_rpc_server_destroy(&server);
}

//  A reply header {v, c, st} in w; with_status false leaves st out.
static bus_writer_t *
s_reply_header(bus_writer_t *w, uint64_t call_id, uint64_t status, bool with_status)
{
    bus_writer_reset(w);
    bus_writer_map(w, with_status ? 3 : 2);
    bus_writer_str(w, "v");
    bus_writer_uint(w, 1);
    bus_writer_str(w, "c");
    bus_writer_uint(w, call_id);
    if (with_status) {
        bus_writer_str(w, "st");
        bus_writer_uint(w, status);
    }
    return w;
}

//  Sends [identity] + count frames from a raw ROUTER.
static void
s_router_send(zsock_t *router,
              zframe_t *identity,
              int count,
              const void *const *data,
              const size_t *sizes)
{
    zmq_send(zsock_resolve(router), zframe_data(identity), zframe_size(identity),
             ZMQ_SNDMORE);
    s_send_raw(router, count, data, sizes);
}

//  Sends [identity][header in w][body].
static void
s_router_reply(zsock_t *router,
               zframe_t *identity,
               bus_writer_t *w,
               const void *body,
               size_t body_size)
{
    const void *data[] = {bus_writer_data(w), body};
    size_t sizes[] = {bus_writer_size(w), body_size};
    s_router_send(router, identity, 2, data, sizes);
}

static void
test_client_survives_malformed_replies(void)
{
    zsock_t *router = bus_socket_bind(ZMQ_ROUTER, ANY_PORT, NULL);
    T_ASSERT(router);
    char endpoint[256];
    bus_socket_endpoint(router, endpoint, sizeof endpoint);
    bus_rpc_client_t *client = bus_rpc_client_new(endpoint, CLIENT_SRC, NULL);
    int done = 0;
    result_t first = {.done = &done}, second = {.done = &done};
    uint64_t id1 = s_call_echo(client, 1, 3000, &first);
    uint64_t id2 = s_call_echo(client, 2, 3000, &second);
    T_ASSERT(id1 && id2 && id1 != id2);

    //  Take both requests; keep the client's identity.
    zframe_t *identity = NULL;
    for (int i = 0; i < 2; i++) {
        zmq_pollitem_t item = {zsock_resolve(router), 0, ZMQ_POLLIN, 0};
        T_ASSERT(zmq_poll(&item, 1, PUMP_MAX_MS) == 1);
        zmsg_t *msg = zmsg_recv(router);
        T_ASSERT(msg && zmsg_size(msg) == 3);
        zframe_destroy(&identity);
        identity = zmsg_pop(msg);
        zmsg_destroy(&msg);
    }

    bus_writer_t *w = bus_writer_new();
    proto_test_echo_rep_t rep;
    proto_test_echo_rep_init(&rep);
    rep.n = 1;
    zframe_t *body = proto_test_echo_rep_encode(&rep);

    //  One frame.
    const void *one[] = {"x"};
    const size_t one_size[] = {1};
    s_router_send(router, identity, 1, one, one_size);
    //  Five frames whose last two look like a reply of their own: the whole
    //  message must go, not just the third frame.
    s_reply_header(w, id1, BUS_STATUS_CONFLICT, true);
    const void *five[] = {bus_writer_data(w), "", "x", bus_writer_data(w), ""};
    const size_t five_size[] = {bus_writer_size(w), 0, 1, bus_writer_size(w), 0};
    s_router_send(router, identity, 5, five, five_size);
    //  Not msgpack; a map without a status; a status out of range for id2.
    const void *junk[] = {"\xc1", ""};
    const size_t junk_size[] = {1, 0};
    s_router_send(router, identity, 2, junk, junk_size);
    s_router_reply(router, identity, s_reply_header(w, id1, 0, false), NULL, 0);
    s_router_reply(router, identity, s_reply_header(w, id2, 1000, true), NULL, 0);
    //  An unknown call id; then the real reply to id1.
    s_router_reply(router, identity, s_reply_header(w, id1 + 1000, BUS_OK, true), NULL,
                   0);
    s_router_reply(router, identity, s_reply_header(w, id1, BUS_OK, true),
                   zframe_data(body), zframe_size(body));

    T_ASSERT(s_pump(client, NULL, &done, 2));
    T_EQ_INT(first.count, 1);
    T_EQ_INT(first.status, BUS_OK);
    T_EQ_INT(first.n, 1);
    T_EQ_INT(second.count, 1);
    T_EQ_INT(second.status, BUS_STATUS_PROTOCOL);
    T_EQ_INT(bus_rpc_client_pending(client), 0);

    zframe_destroy(&body);
    zframe_destroy(&identity);
    bus_writer_destroy(&w);
    bus_rpc_client_destroy(&client);
    zsock_destroy(&router);
}

static void
test_pipelined_calls(void)
{
    srv_t srv = {0};
    bus_rpc_server_t *server = s_server_new(ANY_PORT, &srv);
    T_ASSERT(server);
    bus_rpc_client_t *client =
        bus_rpc_client_new(bus_rpc_server_endpoint(server), CLIENT_SRC, NULL);
    result_t *results = calloc(PIPELINED, sizeof *results);
    T_ASSERT(results);
    int done = 0;
    for (int i = 0; i < PIPELINED; i++) {
        results[i].expect_n = (uint64_t) i + 1000;
        results[i].done = &done;
        if (s_call_echo(client, results[i].expect_n, 5000, &results[i]) == 0)
            break;
    }
    T_EQ_INT(bus_rpc_client_pending(client), PIPELINED);
    bool finished = s_pump(client, server, &done, PIPELINED);
    int wrong = 0;
    for (int i = 0; i < PIPELINED; i++)
        if (results[i].count != 1 || results[i].status != BUS_OK || !results[i].has_n ||
            results[i].n != results[i].expect_n)
            wrong++;
    free(results);
    T_ASSERT(finished);
    T_EQ_INT(wrong, 0);
    T_EQ_INT(done, PIPELINED);
    T_EQ_INT(srv.echo_calls, PIPELINED);
    T_EQ_INT(bus_rpc_client_pending(client), 0);
    T_EQ_INT(bus_rpc_client_next_timeout_ms(client), -1);
    bus_rpc_client_destroy(&client);
    bus_rpc_server_destroy(&server);
}

static void
test_cancel(void)
{
    srv_t srv = {0};
    bus_rpc_server_t *server = s_server_new(ANY_PORT, &srv);
    T_ASSERT(server);
    bus_rpc_client_t *client =
        bus_rpc_client_new(bus_rpc_server_endpoint(server), CLIENT_SRC, NULL);
    result_t cancelled = {0}, next = {0};
    uint64_t id = s_call_echo(client, 1, 2000, &cancelled);
    T_ASSERT(id > 0);
    T_EQ_INT(bus_rpc_client_pending(client), 1);
    bus_rpc_client_cancel(client, id);
    bus_rpc_client_cancel(client, id);      //  twice is harmless
    bus_rpc_client_cancel(client, id + 99); //  so is an unknown id
    T_EQ_INT(bus_rpc_client_pending(client), 0);
    //  The server still answers it; the reply is dropped by id. The next
    //  call's reply comes after it on the same pipe.
    T_ASSERT(s_call_echo(client, 2, 2000, &next) > 0);
    T_ASSERT(s_pump(client, server, &next.count, 1));
    T_EQ_INT(srv.echo_calls, 2);
    T_EQ_INT(next.n, 2);
    T_EQ_INT(cancelled.count, 0);
    bus_rpc_client_destroy(&client);

    //  A call still pending when its client is destroyed completes once,
    //  as unavailable, so its owner can release what it holds.
    result_t closed = {0};
    client = bus_rpc_client_new(bus_rpc_server_endpoint(server), CLIENT_SRC, NULL);
    T_ASSERT(s_call_echo(client, 3, 2000, &closed) > 0);
    bus_rpc_client_destroy(&client);
    T_EQ_INT(closed.count, 1);
    T_EQ_INT(closed.status, BUS_STATUS_UNAVAILABLE);
    T_EQ_INT(cancelled.count, 0);
    bus_rpc_server_destroy(&server);
}

//  Each of two calls that expire in the same tick cancels the other.
typedef struct {
    bus_rpc_client_t *client;
    uint64_t other;
    int *ran;
} canceller_t;

static void
s_cancel_other(void *arg, const bus_reply_t *reply)
{
    canceller_t *self = arg;
    (void) reply;
    (*self->ran)++;
    bus_rpc_client_cancel(self->client, self->other);
}

static void
test_cancel_from_timeout_callback(void)
{
    char endpoint[256];
    s_free_endpoint(endpoint, sizeof endpoint);
    bus_rpc_client_t *client = bus_rpc_client_new(endpoint, CLIENT_SRC, NULL);
    int ran = 0;
    canceller_t a = {client, 0, &ran}, b = {client, 0, &ran};
    uint64_t id_a =
        bus_rpc_client_call(client, PROTO_TEST_SLOW, NULL, 0, 50, s_cancel_other, &a);
    uint64_t id_b =
        bus_rpc_client_call(client, PROTO_TEST_SLOW, NULL, 0, 50, s_cancel_other, &b);
    T_ASSERT(id_a && id_b);
    a.other = id_b;
    b.other = id_a;
    //  Let both deadlines pass before the single tick.
    zclock_sleep(80);
    T_EQ_INT(bus_rpc_client_next_timeout_ms(client), 0);
    bus_rpc_client_tick(client);
    T_EQ_INT(ran, 1);
    T_EQ_INT(bus_rpc_client_pending(client), 0);
    bus_rpc_client_destroy(&client);
}

int
main(void)
{
    bus_log_init("bus_rpc_test", NULL, BUS_LOG_ERROR);
    T_RUN(test_timeout_then_server_comes_up);
    T_RUN(test_retry_idempotent_only);
    T_RUN(test_status_and_detail);
    T_RUN(test_late_reply_dropped);
    T_RUN(test_skewed_caller_told_the_time);
    T_RUN(test_server_survives_malformed_requests);
    T_RUN(test_client_survives_malformed_replies);
    T_RUN(test_pipelined_calls);
    T_RUN(test_cancel);
    T_RUN(test_cancel_from_timeout_callback);
    return T_DONE();
}
