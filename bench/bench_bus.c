/*  =========================================================================
    bench_bus - bus throughput against raw libzmq, measured in the same run

    The machines that run this are shared, so absolute numbers drift from
    one run to the next; only ratios taken within one run mean anything.
    Each measurement therefore runs a raw libzmq baseline and the bus side
    by side, on the same kind of sockets and the same message sizes, and
    the two are repeated BENCH_REPEATS times in alternation, so a burst of
    load from elsewhere hits both. Reported ratios are the medians of the
    per-repeat ratios.

      pubsub   raw PUB -> zmq_proxy (XSUB/XPUB) -> SUB, against bus_pub_send
               -> bus_hub -> bus_sub_dispatch (envelope encoded and decoded)
      rpc      pipelined round trips: raw DEALER/ROUTER echo, against
               bus_rpc_client_call to a bus_rpc_server answering test.echo
      durable  test.tick events through bus_outbox, one transaction each
               (begin, append, commit, flush), through the hub to a
               subscriber: events per second end to end

    Publishers and servers run in their own threads (zactors), subscribers
    and clients in the main thread. The last line is machine-readable:
        bus: pubsub_ratio=X rpc_ratio=Y durable_eps=Z

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

#define BENCH_REPEATS          5     //  each measurement; the median is reported
#define BENCH_PHASE_MS         1000  //  timed part of one measurement
#define BENCH_WINDOW           10000 //  pub/sub: events in flight at most (credits)
#define BENCH_CREDIT_EVERY     1000  //  pub/sub: the subscriber grants credit this often
#define BENCH_RPC_WINDOW       1000  //  rpc: calls in flight
#define BENCH_RPC_TIMEOUT_MS   10000 //  rpc: deadline of one call
#define BENCH_RPC_TICK_MS      10    //  rpc: client tick period, as bus_node's
#define BENCH_PROBE_TIMEOUT_MS 5000  //  waiting for the first probe to arrive
#define BENCH_DRAIN_TIMEOUT_MS 3000  //  waiting for what is still in flight at the end
#define BENCH_BATCH            1000  //  messages read per pass before checking the clock
#define BENCH_POLL_MS          10    //  waits while probing and draining
#define BENCH_ENDPOINT_MAX     256
#define BENCH_BODY_MAX         64  //  room for the small bodies (event, echo request)
#define BENCH_TICK_MAX         256 //  room for the test.tick body
#define BENCH_TARGET_PUBSUB    0.5
#define BENCH_TARGET_RPC       0.5
#define BENCH_TARGET_DURABLE   20000

#define BENCH_TOPIC    PROTO_TEST_TICK //  the measured events
#define BENCH_PROBE    PROTO_TEST_NOTE //  slow-joiner probes, not counted
#define BENCH_PREFIX   "test."
#define BENCH_SRC      "bench/bench"
#define BENCH_CMD_GO   "GO"
#define BENCH_CMD_STOP "STOP"

typedef enum { FLOW_RAW, FLOW_BUS, FLOW_DURABLE } flow_t;

static const char *s_flow_names[] = {"raw", "ours", "durable"};

//  Fixed payloads, built once in main before any thread starts and only
//  read afterwards.
typedef struct {
    uint8_t header[BUS_HEADER_MAX]; //  an event header as bus_pub_send makes it
    size_t header_size;
    uint8_t body[BENCH_BODY_MAX]; //  a small msgpack map, the ephemeral event body
    size_t body_size;
    uint8_t tick[BENCH_TICK_MAX]; //  a test.tick body, for the durable events
    size_t tick_size;
    uint8_t request[BUS_HEADER_MAX]; //  an RPC request header as the client makes it
    size_t request_size;
    uint8_t echo[BENCH_BODY_MAX]; //  a test.echo request body
    size_t echo_size;
} payload_t;

static payload_t s_payload;

static int64_t
s_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int
s_compare_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double
s_median(double *values, int count)
{
    double sorted[BENCH_REPEATS];
    assert(count > 0 && count <= BENCH_REPEATS);
    memcpy(sorted, values, sizeof *values * (size_t) count);
    qsort(sorted, (size_t) count, sizeof *sorted, s_compare_double);
    return count % 2 ? sorted[count / 2]
                     : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
}

//  A raw socket with the options bus_socket gives ours, so neither side
//  gets a larger queue or a different linger.
static void *
s_raw_socket(int type)
{
    void *socket = zmq_socket(zsys_init(), type);
    if (socket) {
        int linger = BUS_SOCKET_LINGER_MS, hwm = BUS_SOCKET_HWM;
        zmq_setsockopt(socket, ZMQ_LINGER, &linger, sizeof linger);
        zmq_setsockopt(socket, ZMQ_SNDHWM, &hwm, sizeof hwm);
        zmq_setsockopt(socket, ZMQ_RCVHWM, &hwm, sizeof hwm);
    }
    return socket;
}

static void *
s_raw_bind(int type, char *endpoint, size_t endpoint_size)
{
    void *socket = s_raw_socket(type);
    if (!socket)
        return NULL;
    if (zmq_bind(socket, "tcp://127.0.0.1:*") != 0 ||
        zmq_getsockopt(socket, ZMQ_LAST_ENDPOINT, endpoint, &endpoint_size) != 0) {
        zmq_close(socket);
        return NULL;
    }
    return socket;
}

static void *
s_raw_connect(int type, const char *endpoint)
{
    void *socket = s_raw_socket(type);
    if (socket && zmq_connect(socket, endpoint) != 0) {
        zmq_close(socket);
        return NULL;
    }
    return socket;
}

//  Sends size bytes to an actor's pipe (credits, commands, counts).
static void
s_pipe_send(void *pipe, const void *data, size_t size)
{
    zmq_send(zsock_resolve(pipe), data, size, 0);
}

//  ---------------------------------------------------------------------------
//  The raw broker: zmq_proxy between an XSUB and an XPUB, in its own thread,
//  stopped by TERMINATE on its pipe (zmq_proxy_steerable's control socket).

typedef struct {
    char publish[BENCH_ENDPOINT_MAX];
    char subscribe[BENCH_ENDPOINT_MAX];
    bool ok;
} proxy_args_t;

static void
s_proxy_actor(zsock_t *pipe, void *arg)
{
    proxy_args_t *args = arg;
    void *xsub = s_raw_bind(ZMQ_XSUB, args->publish, sizeof args->publish);
    void *xpub = s_raw_bind(ZMQ_XPUB, args->subscribe, sizeof args->subscribe);
    args->ok = xsub && xpub;
    zsock_signal(pipe, 0);
    if (args->ok)
        zmq_proxy_steerable(xsub, xpub, NULL, zsock_resolve(pipe));
    if (xsub)
        zmq_close(xsub);
    if (xpub)
        zmq_close(xpub);
}

static void
s_proxy_destroy(zactor_t **proxy_p)
{
    if (*proxy_p) {
        zstr_send(*proxy_p, "TERMINATE");
        zactor_destroy(proxy_p);
    }
}

//  ---------------------------------------------------------------------------
//  The publisher thread, for all three flows.
//
//  Flow control, so that no high-water mark drops skew the count: the
//  publisher may run at most BENCH_WINDOW events ahead of what the
//  subscriber has acknowledged, and the subscriber acknowledges (sends its
//  received count on the publisher's pipe) every BENCH_CREDIT_EVERY events.
//  The window is far below every queue's HWM (BUS_SOCKET_HWM), so a send
//  never meets a full queue, and the rate measured is what the slowest
//  stage sustains. Every event sent is accounted for at the end: the
//  subscriber drains until it has seen as many as the publisher sent.
//
//  Slow joiner: before timing, the publisher sends a probe event every
//  millisecond until the subscriber, having received one, answers GO.

typedef struct {
    flow_t flow;
    char endpoint[BENCH_ENDPOINT_MAX]; //  the broker's publish side
    const char *db_path;               //  durable only
    bool ok;                           //  set up, before the first signal
} pub_args_t;

typedef struct {
    flow_t flow;
    void *raw;
    bus_pub_t *pub;
    bus_db_t *db;
    bus_outbox_t *outbox;
    uint64_t failed;
} pub_state_t;

static int
s_pub_setup(pub_state_t *self, pub_args_t *args)
{
    self->flow = args->flow;
    if (args->flow == FLOW_RAW)
        return (self->raw = s_raw_connect(ZMQ_PUB, args->endpoint)) ? 0 : -1;
    self->pub = bus_pub_new(args->endpoint, BENCH_SRC, NULL);
    if (!self->pub)
        return -1;
    if (args->flow == FLOW_DURABLE) {
        bus_error_t err = {0};
        self->db = bus_db_open(args->db_path, NULL, 0, &err);
        self->outbox = self->db ? bus_outbox_new(self->db, BENCH_SRC, &err) : NULL;
        if (!self->outbox) {
            fprintf(stderr, "bench-bus: cannot open the outbox: %s\n", err.detail);
            return -1;
        }
    }
    return 0;
}

static void
s_pub_teardown(pub_state_t *self)
{
    if (self->raw)
        zmq_close(self->raw);
    bus_outbox_destroy(&self->outbox);
    bus_db_destroy(&self->db);
    bus_pub_destroy(&self->pub);
}

static void
s_pub_probe(pub_state_t *self)
{
    if (self->raw)
        bus_event_send_raw(self->raw, BENCH_PROBE, s_payload.header,
                           s_payload.header_size, s_payload.body, s_payload.body_size);
    else
        bus_pub_send(self->pub, BENCH_PROBE, s_payload.body, s_payload.body_size);
}

//  One measured event. Raw: three frames, sent with plain zmq_send.
static void
s_pub_event(pub_state_t *self)
{
    int rc = 0;
    switch (self->flow) {
        case FLOW_RAW:
            if (zmq_send(self->raw, BENCH_TOPIC, strlen(BENCH_TOPIC), ZMQ_SNDMORE) < 0 ||
                zmq_send(self->raw, s_payload.header, s_payload.header_size,
                         ZMQ_SNDMORE) < 0 ||
                zmq_send(self->raw, s_payload.body, s_payload.body_size, 0) < 0)
                rc = -1;
            break;
        case FLOW_BUS:
            rc =
                bus_pub_send(self->pub, BENCH_TOPIC, s_payload.body, s_payload.body_size);
            break;
        case FLOW_DURABLE:
            //  The point of the outbox: the event commits with a state change
            //  (here, nothing else), then goes out.
            if (bus_db_begin(self->db) != 0)
                rc = -1;
            else {
                uint64_t seq = bus_outbox_append(self->outbox, BENCH_TOPIC,
                                                 s_payload.tick, s_payload.tick_size);
                if (seq == 0) {
                    bus_db_rollback(self->db);
                    rc = -1;
                } else if (bus_db_commit(self->db) != 0 ||
                           bus_outbox_flush(self->outbox, self->pub) != 1)
                    rc = -1;
            }
            break;
    }
    if (rc != 0)
        self->failed++;
}

//  Reads one command from the pipe. Returns 'C' for a credit (the
//  subscriber's received count, 8 bytes, stored in *acked), 'G' for GO, 'S'
//  for STOP, $TERM or a failed read, and 0 when nothing was waiting (with
//  ZMQ_DONTWAIT).
static int
s_pub_command(void *pipe, int flags, uint64_t *acked)
{
    char buf[16];
    int size = zmq_recv(pipe, buf, sizeof buf, flags);
    if (size < 0)
        return zmq_errno() == EAGAIN ? 0 : 'S';
    if (size == (int) sizeof *acked) {
        memcpy(acked, buf, sizeof *acked);
        return 'C';
    }
    if (size == (int) strlen(BENCH_CMD_GO) &&
        memcmp(buf, BENCH_CMD_GO, (size_t) size) == 0)
        return 'G';
    return 'S';
}

static void
s_pub_actor(zsock_t *pipe_sock, void *arg)
{
    pub_args_t *args = arg;
    pub_state_t state = {0};
    args->ok = s_pub_setup(&state, args) == 0;
    zsock_signal(pipe_sock, 0);
    void *pipe = zsock_resolve(pipe_sock);
    uint64_t sent = 0, acked = 0;
    int command = args->ok ? 0 : 'S';

    //  Probe until the subscriber says GO (or gives up with STOP).
    zmq_pollitem_t item = {pipe, 0, ZMQ_POLLIN, 0};
    while (command != 'G' && command != 'S') {
        s_pub_probe(&state);
        if (zmq_poll(&item, 1, 1) > 0)
            command = s_pub_command(pipe, 0, &acked);
    }
    //  Send within the credit window; wait for credit when it is used up.
    while (command != 'S') {
        while (sent < acked + BENCH_WINDOW) {
            s_pub_event(&state);
            sent++;
        }
        command = s_pub_command(pipe, 0, &acked);
        while (command == 'C')
            command = s_pub_command(pipe, ZMQ_DONTWAIT, &acked);
    }
    uint64_t report[2] = {sent, state.failed};
    zmq_send(pipe, report, sizeof report, 0);
    //  Closing drops what is still queued (linger 0): wait until the
    //  subscriber has drained and the owner destroys the actor.
    if (args->ok)
        zmq_recv(pipe, NULL, 0, 0);
    s_pub_teardown(&state);
}

//  ---------------------------------------------------------------------------
//  The subscriber side of a pub/sub or durable measurement (main thread).

typedef struct {
    flow_t flow;
    void *raw;
    bus_sub_t *sub;
    zmq_msg_t frames[3];
    uint64_t received; //  measured events
    uint64_t probes;
    uint64_t last_seq; //  durable: the last sequence number seen
    uint64_t gaps;     //  durable: events that did not follow the previous one
} sub_state_t;

static void
s_on_event(void *arg, const bus_event_t *event)
{
    sub_state_t *self = arg;
    if (strcmp(event->topic, BENCH_TOPIC) != 0) {
        self->probes++;
        return;
    }
    if (self->flow == FLOW_DURABLE) {
        if (event->header.seq != self->last_seq + 1)
            self->gaps++;
        self->last_seq = event->header.seq;
    }
    self->received++;
}

//  Reads up to BENCH_BATCH raw events waiting; counts the measured ones.
static void
s_raw_receive(sub_state_t *self)
{
    for (int n = 0; n < BENCH_BATCH; n++) {
        if (zmq_msg_recv(&self->frames[0], self->raw, ZMQ_DONTWAIT) < 0)
            return;
        int parts = 1;
        while (zmq_msg_more(&self->frames[parts - 1]) && parts < 3)
            if (zmq_msg_recv(&self->frames[parts++], self->raw, 0) < 0)
                return;
        size_t topic_size = zmq_msg_size(&self->frames[0]);
        if (parts == 3 && topic_size == strlen(BENCH_TOPIC) &&
            memcmp(zmq_msg_data(&self->frames[0]), BENCH_TOPIC, topic_size) == 0)
            self->received++;
        else
            self->probes++;
    }
}

static void
s_sub_receive(sub_state_t *self)
{
    if (self->raw)
        s_raw_receive(self);
    else
        bus_sub_dispatch(self->sub, BENCH_BATCH);
}

static void *
s_sub_handle(sub_state_t *self)
{
    return self->raw ? self->raw : zsock_resolve(bus_sub_sock(self->sub));
}

typedef struct {
    double rate; //  measured events per second
    uint64_t sent;
    uint64_t received;
    uint64_t failed;
    uint64_t gaps;
} flow_result_t;

//  Runs one pub/sub or durable measurement. 0, or -1 when it could not be
//  set up.
static int
s_flow_run(flow_t flow, const char *db_path, flow_result_t *result)
{
    memset(result, 0, sizeof *result);
    int rc = -1;
    proxy_args_t proxy_args;
    memset(&proxy_args, 0, sizeof proxy_args);
    zactor_t *proxy = NULL, *publisher = NULL;
    bus_hub_t *hub = NULL;
    sub_state_t sub = {.flow = flow};
    for (int i = 0; i < 3; i++)
        zmq_msg_init(&sub.frames[i]);
    pub_args_t pub_args = {.flow = flow, .db_path = db_path};

    if (flow == FLOW_RAW) {
        proxy = zactor_new(s_proxy_actor, &proxy_args);
        if (!proxy || !proxy_args.ok)
            goto done;
        snprintf(pub_args.endpoint, sizeof pub_args.endpoint, "%s", proxy_args.publish);
        sub.raw = s_raw_connect(ZMQ_SUB, proxy_args.subscribe);
        if (!sub.raw || zmq_setsockopt(sub.raw, ZMQ_SUBSCRIBE, BENCH_PREFIX,
                                       strlen(BENCH_PREFIX)) != 0)
            goto done;
    } else {
        hub = bus_hub_new("tcp://127.0.0.1:*", "tcp://127.0.0.1:*", NULL);
        if (!hub)
            goto done;
        snprintf(pub_args.endpoint, sizeof pub_args.endpoint, "%s",
                 bus_hub_publish_endpoint(hub));
        sub.sub = bus_sub_new(bus_hub_subscribe_endpoint(hub), NULL);
        if (!sub.sub || bus_sub_subscribe(sub.sub, BENCH_PREFIX, s_on_event, &sub) != 0)
            goto done;
    }
    publisher = zactor_new(s_pub_actor, &pub_args);
    if (!publisher || !pub_args.ok)
        goto done;

    //  Slow joiner: wait for a probe to come through before timing.
    zmq_pollitem_t item = {s_sub_handle(&sub), 0, ZMQ_POLLIN, 0};
    int64_t give_up = s_now_us() + BENCH_PROBE_TIMEOUT_MS * 1000;
    while (sub.probes == 0 && s_now_us() < give_up) {
        if (zmq_poll(&item, 1, BENCH_POLL_MS) > 0)
            s_sub_receive(&sub);
    }
    if (sub.probes == 0 || sub.received != 0) {
        fprintf(stderr, "bench-bus: %s: no probe came through\n", s_flow_names[flow]);
        s_pipe_send(publisher, BENCH_CMD_STOP, strlen(BENCH_CMD_STOP));
        goto done;
    }
    s_pipe_send(publisher, BENCH_CMD_GO, strlen(BENCH_CMD_GO));

    //  The timed part: count events, grant credit.
    int64_t start = s_now_us(), now = start, end = start + BENCH_PHASE_MS * 1000;
    uint64_t credited = 0;
    while (now < end) {
        int wait_ms = (int) ((end - now + 999) / 1000);
        if (zmq_poll(&item, 1, wait_ms) > 0)
            s_sub_receive(&sub);
        if (sub.received - credited >= BENCH_CREDIT_EVERY) {
            credited = sub.received;
            s_pipe_send(publisher, &credited, sizeof credited);
        }
        now = s_now_us();
    }
    uint64_t counted = sub.received;
    result->rate = (double) counted * 1e6 / (double) (now - start);

    //  Stop the publisher and account for every event it sent.
    s_pipe_send(publisher, BENCH_CMD_STOP, strlen(BENCH_CMD_STOP));
    uint64_t report[2] = {0, 0};
    if (zmq_recv(zsock_resolve(publisher), report, sizeof report, 0) !=
        (int) sizeof report)
        goto done;
    result->sent = report[0];
    result->failed = report[1];
    give_up = s_now_us() + BENCH_DRAIN_TIMEOUT_MS * 1000;
    while (sub.received < result->sent && s_now_us() < give_up) {
        if (zmq_poll(&item, 1, BENCH_POLL_MS) > 0)
            s_sub_receive(&sub);
    }
    result->received = sub.received;
    result->gaps = sub.gaps;
    rc = 0;
done:
    zactor_destroy(&publisher);
    if (sub.raw)
        zmq_close(sub.raw);
    for (int i = 0; i < 3; i++)
        zmq_msg_close(&sub.frames[i]);
    bus_sub_destroy(&sub.sub);
    bus_hub_destroy(&hub);
    s_proxy_destroy(&proxy);
    return rc;
}

//  ---------------------------------------------------------------------------
//  RPC servers, each in its own thread with its own poll loop, stopped by
//  any message on the pipe.

typedef struct {
    flow_t flow;
    char endpoint[BENCH_ENDPOINT_MAX];
    bool ok;
} server_args_t;

//  test.echo: decodes the request and answers with its n and text.
static int
s_echo(void *arg,
       bus_rpc_request_t *req,
       const void *body,
       size_t body_size,
       bus_writer_t *reply,
       bus_error_t *err)
{
    (void) arg;
    (void) req;
    proto_test_echo_req_t in;
    int rc = proto_test_echo_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_test_echo_rep_t out;
    proto_test_echo_rep_init(&out);
    out.n = in.n;
    out.text = in.text; //  borrowed from in, which frees it
    if (proto_test_echo_rep_write(&out, reply) != 0)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot encode the echo");
    proto_test_echo_req_clear(&in);
    return rc;
}

//  Echoes every raw request waiting: [identity][header][body] back as is.
static void
s_raw_echo(void *router, zmq_msg_t *frames)
{
    while (zmq_msg_recv(&frames[0], router, ZMQ_DONTWAIT) >= 0) {
        int parts = 1;
        while (parts < 3 && zmq_msg_more(&frames[parts - 1]) &&
               zmq_msg_recv(&frames[parts], router, 0) >= 0)
            parts++;
        for (int i = 0; i < parts; i++)
            zmq_msg_send(&frames[i], router, i + 1 < parts ? ZMQ_SNDMORE : 0);
    }
}

static void
s_server_actor(zsock_t *pipe, void *arg)
{
    server_args_t *args = arg;
    void *router = NULL;
    bus_rpc_server_t *server = NULL;
    if (args->flow == FLOW_RAW)
        router = s_raw_bind(ZMQ_ROUTER, args->endpoint, sizeof args->endpoint);
    else {
        server = bus_rpc_server_new("tcp://127.0.0.1:*", NULL);
        if (server && bus_rpc_server_handle(server, PROTO_TEST_ECHO, s_echo, NULL) == 0)
            snprintf(args->endpoint, sizeof args->endpoint, "%s",
                     bus_rpc_server_endpoint(server));
        else
            bus_rpc_server_destroy(&server);
    }
    args->ok = router || server;
    zsock_signal(pipe, 0);

    zmq_msg_t frames[3];
    for (int i = 0; i < 3; i++)
        zmq_msg_init(&frames[i]);
    zmq_pollitem_t items[] = {
        {zsock_resolve(pipe), 0, ZMQ_POLLIN, 0},
        {router   ? router
         : server ? zsock_resolve(bus_rpc_server_sock(server))
                  : NULL,
         0, ZMQ_POLLIN, 0},
    };
    while (args->ok && zmq_poll(items, 2, -1) >= 0 && !(items[0].revents & ZMQ_POLLIN)) {
        if (!(items[1].revents & ZMQ_POLLIN))
            continue;
        if (router)
            s_raw_echo(router, frames);
        else
            bus_rpc_server_dispatch(server);
    }
    for (int i = 0; i < 3; i++)
        zmq_msg_close(&frames[i]);
    if (router)
        zmq_close(router);
    bus_rpc_server_destroy(&server);
}

//  ---------------------------------------------------------------------------
//  RPC clients (main thread): keep BENCH_RPC_WINDOW calls in flight, each
//  reply starting the next call, and count replies.

typedef struct {
    bus_rpc_client_t *client;
    bool running;
    uint64_t completed;
    uint64_t errors;
} rpc_state_t;

static void s_on_reply(void *arg, const bus_reply_t *reply);

static void
s_rpc_issue(rpc_state_t *self)
{
    if (!bus_rpc_client_call(self->client, PROTO_TEST_ECHO, s_payload.echo,
                             s_payload.echo_size, BENCH_RPC_TIMEOUT_MS, s_on_reply, self))
        self->errors++;
}

static void
s_on_reply(void *arg, const bus_reply_t *reply)
{
    rpc_state_t *self = arg;
    if (reply->status == BUS_OK)
        self->completed++;
    else
        self->errors++;
    if (self->running)
        s_rpc_issue(self);
}

typedef struct {
    double rate; //  round trips per second
    uint64_t errors;
} rpc_result_t;

static int
s_rpc_send_raw(void *dealer)
{
    if (zmq_send(dealer, s_payload.request, s_payload.request_size, ZMQ_SNDMORE) < 0 ||
        zmq_send(dealer, s_payload.echo, s_payload.echo_size, 0) < 0)
        return -1;
    return 0;
}

//  Reads every raw reply waiting and, when resend is given, sends the next
//  request right after each one, as the bus client's callback does (failed
//  sends are counted there). Returns the number of replies.
static uint64_t
s_rpc_recv_raw(void *dealer, zmq_msg_t *frame, uint64_t *resend)
{
    uint64_t replies = 0;
    while (zmq_msg_recv(frame, dealer, ZMQ_DONTWAIT) >= 0) {
        while (zmq_msg_more(frame) && zmq_msg_recv(frame, dealer, 0) >= 0)
            ;
        replies++;
        if (resend && s_rpc_send_raw(dealer) != 0)
            (*resend)++;
    }
    return replies;
}

static int
s_rpc_run_raw(const char *endpoint, rpc_result_t *result)
{
    void *dealer = s_raw_connect(ZMQ_DEALER, endpoint);
    if (!dealer)
        return -1;
    zmq_msg_t frame;
    zmq_msg_init(&frame);
    zmq_pollitem_t item = {dealer, 0, ZMQ_POLLIN, 0};
    uint64_t completed = 0, in_flight = 0;
    int rc = -1;
    //  One round trip first, so connecting is not timed.
    if (s_rpc_send_raw(dealer) != 0 || zmq_poll(&item, 1, BENCH_PROBE_TIMEOUT_MS) <= 0)
        goto done;
    s_rpc_recv_raw(dealer, &frame, NULL);
    for (; in_flight < BENCH_RPC_WINDOW; in_flight++)
        if (s_rpc_send_raw(dealer) != 0)
            goto done;
    int64_t start = s_now_us(), now = start, end = start + BENCH_PHASE_MS * 1000;
    while (now < end) {
        int wait_ms = (int) ((end - now + 999) / 1000);
        if (zmq_poll(&item, 1, wait_ms) > 0)
            completed += s_rpc_recv_raw(dealer, &frame, &result->errors);
        now = s_now_us();
    }
    result->rate = (double) completed * 1e6 / (double) (now - start);
    //  Collect what is still in flight, so the server is idle when it stops.
    in_flight = BENCH_RPC_WINDOW - result->errors;
    int64_t give_up = s_now_us() + BENCH_DRAIN_TIMEOUT_MS * 1000;
    while (in_flight > 0 && s_now_us() < give_up)
        if (zmq_poll(&item, 1, BENCH_POLL_MS) > 0)
            in_flight -= s_rpc_recv_raw(dealer, &frame, NULL);
    rc = 0;
done:
    zmq_msg_close(&frame);
    zmq_close(dealer);
    return rc;
}

static int
s_rpc_run_bus(const char *endpoint, rpc_result_t *result)
{
    rpc_state_t state = {0};
    state.client = bus_rpc_client_new(endpoint, BENCH_SRC, NULL);
    if (!state.client)
        return -1;
    int rc = -1;
    bus_error_t err = {0};
    //  One round trip first, so connecting is not timed.
    if (bus_rpc_client_call_sync(state.client, PROTO_TEST_ECHO, s_payload.echo,
                                 s_payload.echo_size, BENCH_PROBE_TIMEOUT_MS, NULL,
                                 &err) != BUS_OK) {
        fprintf(stderr, "bench-bus: rpc: first call failed: %s\n", err.detail);
        goto done;
    }
    state.running = true;
    for (int i = 0; i < BENCH_RPC_WINDOW; i++)
        s_rpc_issue(&state);
    zmq_pollitem_t item = {zsock_resolve(bus_rpc_client_sock(state.client)), 0,
                           ZMQ_POLLIN, 0};
    //  The loop a service runs (bus_node): wait for replies at most a tick
    //  period, dispatch them, tick; the period is far below every deadline
    //  and retry time.
    int64_t start = s_now_us(), now = start, end = start + BENCH_PHASE_MS * 1000;
    while (now < end) {
        int wait_ms = (int) ((end - now + 999) / 1000);
        if (wait_ms > BENCH_RPC_TICK_MS)
            wait_ms = BENCH_RPC_TICK_MS;
        zmq_poll(&item, 1, wait_ms);
        bus_rpc_client_dispatch(state.client);
        bus_rpc_client_tick(state.client);
        now = s_now_us();
    }
    result->rate = (double) state.completed * 1e6 / (double) (now - start);
    state.running = false;
    int64_t give_up = s_now_us() + BENCH_DRAIN_TIMEOUT_MS * 1000;
    while (bus_rpc_client_pending(state.client) > 0 && s_now_us() < give_up) {
        zmq_poll(&item, 1, BENCH_RPC_TICK_MS);
        bus_rpc_client_dispatch(state.client);
        bus_rpc_client_tick(state.client);
    }
    result->errors = state.errors;
    rc = 0;
done:
    bus_rpc_client_destroy(&state.client);
    return rc;
}

static int
s_rpc_run(flow_t flow, rpc_result_t *result)
{
    memset(result, 0, sizeof *result);
    server_args_t args = {.flow = flow};
    zactor_t *server = zactor_new(s_server_actor, &args);
    if (!server || !args.ok) {
        zactor_destroy(&server);
        return -1;
    }
    int rc = flow == FLOW_RAW ? s_rpc_run_raw(args.endpoint, result)
                              : s_rpc_run_bus(args.endpoint, result);
    zactor_destroy(&server);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Payloads, the same bytes on both sides of each comparison.

static void
s_copy_writer(bus_writer_t *writer, uint8_t *out, size_t out_size, size_t *size)
{
    assert(bus_writer_size(writer) <= out_size);
    memcpy(out, bus_writer_data(writer), bus_writer_size(writer));
    *size = bus_writer_size(writer);
}

static int
s_payload_init(void)
{
    bus_writer_t *w = bus_writer_new();
    if (!w)
        return -1;
    //  An event header as bus_pub_send writes it (the raw side sends it as
    //  opaque bytes).
    bus_header_t header;
    bus_header_init(&header, BENCH_SRC);
    bus_header_write(&header, w);
    s_copy_writer(w, s_payload.header, sizeof s_payload.header, &s_payload.header_size);

    //  The ephemeral event body: a small map, about 20 bytes.
    bus_writer_reset(w);
    bus_writer_map(w, 2);
    bus_writer_str(w, "n");
    bus_writer_uint(w, 1234567890);
    bus_writer_str(w, "text");
    bus_writer_str(w, "bench");
    s_copy_writer(w, s_payload.body, sizeof s_payload.body, &s_payload.body_size);

    //  A test.tick for the durable events.
    proto_test_tick_t tick;
    proto_test_tick_init(&tick);
    tick.n = 42;
    tick.ratio = 0.5;
    bus_writer_reset(w);
    int rc = proto_test_tick_write(&tick, w);
    s_copy_writer(w, s_payload.tick, sizeof s_payload.tick, &s_payload.tick_size);

    //  A test.echo request body, and a request header as bus_rpc writes it.
    proto_test_echo_req_t echo;
    proto_test_echo_req_init(&echo);
    echo.n = 7;
    echo.text = "bench";
    bus_writer_reset(w);
    if (proto_test_echo_req_write(&echo, w) != 0)
        rc = -1;
    s_copy_writer(w, s_payload.echo, sizeof s_payload.echo, &s_payload.echo_size);
    bus_writer_reset(w);
    bus_writer_map(w, 5);
    bus_writer_str(w, "v");
    bus_writer_uint(w, BUS_RPC_VERSION);
    bus_writer_str(w, "m");
    bus_writer_str(w, PROTO_TEST_ECHO);
    bus_writer_str(w, "c");
    bus_writer_uint(w, (uint64_t) 1 << 40);
    bus_writer_str(w, "dl");
    bus_writer_int(w, bus_clock_wall_us());
    bus_writer_str(w, "src");
    bus_writer_str(w, BENCH_SRC);
    s_copy_writer(w, s_payload.request, sizeof s_payload.request,
                  &s_payload.request_size);
    bus_writer_destroy(&w);
    return rc;
}

//  ---------------------------------------------------------------------------

static void
s_remove_db(const char *path)
{
    static const char *suffixes[] = {"", "-wal", "-shm", "-journal"};
    char name[PATH_MAX];
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        snprintf(name, sizeof name, "%s%s", path, suffixes[i]);
        unlink(name);
    }
}

int
main(void)
{
    zsys_init();
    zsys_handler_set(NULL);
    bus_log_init("bench", NULL, BUS_LOG_WARNING);
    if (s_payload_init() != 0) {
        fprintf(stderr, "bench-bus: cannot encode the payloads\n");
        return 1;
    }
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX / 2], db_path[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/bench_bus.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "bench-bus: cannot create a temporary directory\n");
        return 1;
    }
    snprintf(db_path, sizeof db_path, "%s/bench.db", dir);
    printf(
        "bench-bus: %d repeats of %.1f s each; event [topic %zu][header %zu][body %zu] "
        "bytes, rpc window %d\n",
        BENCH_REPEATS, BENCH_PHASE_MS / 1e3, strlen(BENCH_TOPIC), s_payload.header_size,
        s_payload.body_size, BENCH_RPC_WINDOW);

    //  BENCH_ONLY=pubsub|rpc|durable runs one section (for profiling).
    const char *only = getenv("BENCH_ONLY");
    bool run_pubsub = !only || strcmp(only, "pubsub") == 0;
    bool run_rpc = !only || strcmp(only, "rpc") == 0;
    bool run_durable = !only || strcmp(only, "durable") == 0;
    double pubsub_raw[BENCH_REPEATS], pubsub_bus[BENCH_REPEATS],
        pubsub_ratio[BENCH_REPEATS];
    double rpc_raw[BENCH_REPEATS], rpc_bus[BENCH_REPEATS], rpc_ratio[BENCH_REPEATS];
    double durable[BENCH_REPEATS];
    int failures = 0;
    for (int r = 0; r < BENCH_REPEATS && run_pubsub; r++) {
        flow_result_t raw, ours;
        if (s_flow_run(FLOW_RAW, NULL, &raw) != 0 ||
            s_flow_run(FLOW_BUS, NULL, &ours) != 0) {
            failures++;
            break;
        }
        pubsub_raw[r] = raw.rate;
        pubsub_bus[r] = ours.rate;
        pubsub_ratio[r] = raw.rate > 0 ? ours.rate / raw.rate : 0;
        printf("  pubsub  #%d  raw %10.0f msg/s  ours %10.0f msg/s  ratio %.2f"
               "  (lost raw %" PRIu64 " ours %" PRIu64 ")\n",
               r + 1, raw.rate, ours.rate, pubsub_ratio[r], raw.sent - raw.received,
               ours.sent - ours.received + ours.failed);
    }
    for (int r = 0; r < BENCH_REPEATS && !failures && run_rpc; r++) {
        rpc_result_t raw, ours;
        if (s_rpc_run(FLOW_RAW, &raw) != 0 || s_rpc_run(FLOW_BUS, &ours) != 0) {
            failures++;
            break;
        }
        rpc_raw[r] = raw.rate;
        rpc_bus[r] = ours.rate;
        rpc_ratio[r] = raw.rate > 0 ? ours.rate / raw.rate : 0;
        printf("  rpc     #%d  raw %10.0f calls/s  ours %10.0f calls/s  ratio %.2f"
               "  (errors raw %" PRIu64 " ours %" PRIu64 ")\n",
               r + 1, raw.rate, ours.rate, rpc_ratio[r], raw.errors, ours.errors);
    }
    for (int r = 0; r < BENCH_REPEATS && !failures && run_durable; r++) {
        flow_result_t result;
        int rc = s_flow_run(FLOW_DURABLE, db_path, &result);
        s_remove_db(db_path);
        if (rc != 0) {
            failures++;
            break;
        }
        durable[r] = result.rate;
        printf("  durable #%d  ours %10.0f events/s  (sent %" PRIu64 " received %" PRIu64
               " failed %" PRIu64 " out of order %" PRIu64 ")\n",
               r + 1, result.rate, result.sent, result.received, result.failed,
               result.gaps);
    }
    rmdir(dir);
    if (failures) {
        fprintf(stderr, "bench-bus: a measurement could not be set up\n");
        return 1;
    }

    double ps = s_median(pubsub_ratio, BENCH_REPEATS);
    double rpc = s_median(rpc_ratio, BENCH_REPEATS);
    double eps = s_median(durable, BENCH_REPEATS);
    printf("pubsub:  raw %.0f msg/s, ours %.0f msg/s (medians), ratio %.2f\n",
           s_median(pubsub_raw, BENCH_REPEATS), s_median(pubsub_bus, BENCH_REPEATS), ps);
    printf("rpc:     raw %.0f calls/s, ours %.0f calls/s (medians), ratio %.2f\n",
           s_median(rpc_raw, BENCH_REPEATS), s_median(rpc_bus, BENCH_REPEATS), rpc);
    printf(
        "durable: ours %.0f events/s (median; one transaction per event, end to end)\n",
        eps);
    if (ps < BENCH_TARGET_PUBSUB || rpc < BENCH_TARGET_RPC || eps < BENCH_TARGET_DURABLE)
        printf("bench-bus: target missed:%s%s%s\n",
               ps < BENCH_TARGET_PUBSUB ? " pubsub_ratio < 0.5" : "",
               rpc < BENCH_TARGET_RPC ? " rpc_ratio < 0.5" : "",
               eps < BENCH_TARGET_DURABLE ? " durable_eps < 20000" : "");
    printf("bus: pubsub_ratio=%.2f rpc_ratio=%.2f durable_eps=%.0f\n", ps, rpc, eps);
    return 0;
}
