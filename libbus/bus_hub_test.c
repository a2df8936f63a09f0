/*  =========================================================================
    bus_hub_test - one hub, one publisher, three subscribers on loopback:
    prefix routing, order, counts, and a malformed event that is counted
    without stopping delivery

    ZeroMQ's slow joiner: a subscription takes a moment to travel from a SUB
    through the hub to each publisher, and events published before it
    arrives are dropped. The tests publish probe events until every
    subscriber has seen one, instead of sleeping.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "t.h"

#define ANY_PORT  "tcp://127.0.0.1:*"
#define EVENTS    1000 //  per topic
#define WAIT_MS   5000 //  a test fails rather than hangs past this
#define POLL_MS   20   //  probe resend interval while waiting for joiners
#define SUB_COUNT 3

//  What one subscriber saw.
typedef struct {
    const char *prefix;
    bus_reader_t *reader;
    int probes;
    int a_count; //  "a.x" events
    int b_count; //  "b.y" events
    uint64_t a_next, b_next;
    int out_of_order;
    int unexpected; //  topics that should not have come, or bad bodies
    char last_src[BUS_SRC_MAX];
} tally_t;

static void
s_on_event(void *arg, const bus_event_t *event)
{
    tally_t *tally = arg;
    if (strstr(event->topic, ".probe")) {
        tally->probes++;
        return;
    }
    snprintf(tally->last_src, sizeof tally->last_src, "%s", event->header.src);
    uint64_t n = 0;
    const bus_value_t *value =
        bus_reader_parse(tally->reader, event->body, event->body_size);
    if (!bus_value_get_uint(value, &n) ||
        strncmp(event->topic, tally->prefix, strlen(tally->prefix)) != 0) {
        tally->unexpected++;
        return;
    }
    uint64_t *next = NULL;
    if (strcmp(event->topic, "a.x") == 0) {
        tally->a_count++;
        next = &tally->a_next;
    } else if (strcmp(event->topic, "b.y") == 0) {
        tally->b_count++;
        next = &tally->b_next;
    } else {
        tally->unexpected++;
        return;
    }
    if (n != *next)
        tally->out_of_order++;
    *next = n + 1;
}

//  Polls every subscriber for up to timeout_ms and dispatches what came.
static void
s_poll_subs(bus_sub_t **subs, int timeout_ms)
{
    zmq_pollitem_t items[SUB_COUNT];
    for (int i = 0; i < SUB_COUNT; i++)
        items[i] =
            (zmq_pollitem_t){zsock_resolve(bus_sub_sock(subs[i])), 0, ZMQ_POLLIN, 0};
    if (zmq_poll(items, SUB_COUNT, timeout_ms) > 0)
        for (int i = 0; i < SUB_COUNT; i++)
            bus_sub_dispatch(subs[i], 0);
}

//  Sends probes on both topics until every subscriber in want has seen one
//  more than it had. send_probe publishes one probe with topic.
typedef int(probe_fn)(void *publisher, const char *topic);

static bool
s_wait_joined(bus_sub_t **subs,
              tally_t *tallies,
              const bool *want,
              probe_fn *send_probe,
              void *publisher)
{
    int before[SUB_COUNT];
    for (int i = 0; i < SUB_COUNT; i++)
        before[i] = tallies[i].probes;
    int64_t end = bus_clock_mono_ms() + WAIT_MS;
    while (bus_clock_mono_ms() < end) {
        send_probe(publisher, "a.probe");
        send_probe(publisher, "b.probe");
        s_poll_subs(subs, POLL_MS);
        bool all = true;
        for (int i = 0; i < SUB_COUNT; i++)
            if (want[i] && tallies[i].probes == before[i])
                all = false;
        if (all)
            return true;
    }
    return false;
}

static int
s_pub_probe(void *publisher, const char *topic)
{
    return bus_pub_send(publisher, topic, "\xc0", 1);
}

//  A raw PUB socket publishing well-formed events, for the malformed test.
typedef struct {
    zsock_t *socket;
    bus_writer_t *scratch;
} raw_pub_t;

static int
s_raw_send(raw_pub_t *raw, const char *topic, uint64_t n)
{
    bus_header_t header;
    bus_header_init(&header, "test/raw");
    bus_writer_t *body = bus_writer_new();
    bus_writer_uint(body, n);
    int rc = bus_event_send(zsock_resolve(raw->socket), topic, &header,
                            bus_writer_data(body), bus_writer_size(body), raw->scratch);
    bus_writer_destroy(&body);
    return rc;
}

static int
s_raw_probe(void *publisher, const char *topic)
{
    return s_raw_send(publisher, topic, 0);
}

static bool
s_all_received(const tally_t *tallies, int a_total, int b_total)
{
    //  subs 0 "a.", 1 "b.", 2 "" (everything)
    return tallies[0].a_count >= a_total && tallies[1].b_count >= b_total &&
           tallies[2].a_count >= a_total && tallies[2].b_count >= b_total;
}

static void
test_hub_routes_by_prefix(void)
{
    bus_hub_t *hub = bus_hub_new(ANY_PORT, ANY_PORT, NULL);
    T_ASSERT(hub);
    const char *pub_ep = bus_hub_publish_endpoint(hub);
    const char *sub_ep = bus_hub_subscribe_endpoint(hub);
    T_ASSERT(strncmp(pub_ep, "tcp://127.0.0.1:", 16) == 0 && !strchr(pub_ep, '*'));
    T_ASSERT(strncmp(sub_ep, "tcp://127.0.0.1:", 16) == 0 && !strchr(sub_ep, '*'));
    T_ASSERT(strcmp(pub_ep, sub_ep) != 0);

    bus_pub_t *pub = bus_pub_new(pub_ep, "test/pub", NULL);
    T_ASSERT(pub);
    T_EQ_STR(bus_pub_src(pub), "test/pub");
    const char *prefixes[SUB_COUNT] = {"a.", "b.", ""};
    bus_sub_t *subs[SUB_COUNT];
    tally_t tallies[SUB_COUNT];
    memset(tallies, 0, sizeof tallies);
    for (int i = 0; i < SUB_COUNT; i++) {
        subs[i] = bus_sub_new(sub_ep, NULL);
        T_ASSERT(subs[i]);
        tallies[i].prefix = prefixes[i];
        tallies[i].reader = bus_reader_new();
        T_EQ_INT(bus_sub_subscribe(subs[i], prefixes[i], s_on_event, &tallies[i]), 0);
    }
    const bool everyone[SUB_COUNT] = {true, true, true};
    T_ASSERT(s_wait_joined(subs, tallies, everyone, s_pub_probe, pub));

    uint64_t forwarded_before = bus_hub_forwarded(hub);
    bus_writer_t *body = bus_writer_new();
    for (uint64_t n = 0; n < EVENTS; n++) {
        bus_writer_reset(body);
        bus_writer_uint(body, n);
        T_EQ_INT(bus_pub_send(pub, "a.x", bus_writer_data(body), bus_writer_size(body)),
                 0);
        T_EQ_INT(bus_pub_send(pub, "b.y", bus_writer_data(body), bus_writer_size(body)),
                 0);
    }
    bus_writer_destroy(&body);
    T_EQ_INT(bus_pub_dropped(pub), 0);

    int64_t end = bus_clock_mono_ms() + WAIT_MS;
    while (!s_all_received(tallies, EVENTS, EVENTS) && bus_clock_mono_ms() < end)
        s_poll_subs(subs, 100);
    //  Each got exactly its share, in order.
    T_EQ_INT(tallies[0].a_count, EVENTS);
    T_EQ_INT(tallies[0].b_count, 0);
    T_EQ_INT(tallies[1].a_count, 0);
    T_EQ_INT(tallies[1].b_count, EVENTS);
    T_EQ_INT(tallies[2].a_count, EVENTS);
    T_EQ_INT(tallies[2].b_count, EVENTS);
    for (int i = 0; i < SUB_COUNT; i++) {
        T_EQ_INT(tallies[i].out_of_order, 0);
        T_EQ_INT(tallies[i].unexpected, 0);
        T_EQ_INT(bus_sub_malformed(subs[i]), 0);
    }
    T_EQ_STR(tallies[2].last_src, "test/pub");

    //  The hub adds to its count after each batch, so it may trail the
    //  subscribers by a moment.
    end = bus_clock_mono_ms() + WAIT_MS;
    while (bus_hub_forwarded(hub) < forwarded_before + 2 * EVENTS &&
           bus_clock_mono_ms() < end)
        zclock_sleep(1);
    T_ASSERT(bus_hub_forwarded(hub) >= forwarded_before + 2 * EVENTS);

    //  A raw publisher sends a two-frame event between good ones: it is
    //  counted by the subscribers it reaches and delivery goes on.
    raw_pub_t raw = {bus_socket_connect(ZMQ_PUB, pub_ep, NULL), bus_writer_new()};
    T_ASSERT(raw.socket && raw.scratch);
    T_ASSERT(s_wait_joined(subs, tallies, everyone, s_raw_probe, &raw));
    bus_header_t header;
    bus_header_init(&header, "test/raw");
    bus_header_write(&header, raw.scratch);
    void *handle = zsock_resolve(raw.socket);
    T_EQ_INT(zmq_send(handle, "a.bad", 5, ZMQ_SNDMORE), 5);
    T_ASSERT(zmq_send(handle, bus_writer_data(raw.scratch), bus_writer_size(raw.scratch),
                      0) > 0);
    T_EQ_INT(s_raw_send(&raw, "a.x", EVENTS), 0);
    T_EQ_INT(s_raw_send(&raw, "b.y", EVENTS), 0);
    end = bus_clock_mono_ms() + WAIT_MS;
    while (!s_all_received(tallies, EVENTS + 1, EVENTS + 1) && bus_clock_mono_ms() < end)
        s_poll_subs(subs, 100);
    T_EQ_INT(tallies[0].a_count, EVENTS + 1);
    T_EQ_INT(tallies[1].b_count, EVENTS + 1);
    T_EQ_INT(tallies[2].a_count, EVENTS + 1);
    T_EQ_INT(tallies[2].b_count, EVENTS + 1);
    T_EQ_INT(bus_sub_malformed(subs[0]), 1);
    T_EQ_INT(bus_sub_malformed(subs[1]), 0); //  "a.bad" is not for "b."
    T_EQ_INT(bus_sub_malformed(subs[2]), 1);
    T_EQ_STR(tallies[2].last_src, "test/raw");

    //  And the first publisher still gets through.
    T_EQ_INT(bus_pub_send(pub, "b.y", "\xcd\x03\xe9", 3), 0); //  uint16 1001
    end = bus_clock_mono_ms() + WAIT_MS;
    while (!s_all_received(tallies, EVENTS + 1, EVENTS + 2) && bus_clock_mono_ms() < end)
        s_poll_subs(subs, 100);
    T_EQ_INT(tallies[1].b_count, EVENTS + 2);
    T_EQ_INT(tallies[2].b_count, EVENTS + 2);
    for (int i = 0; i < SUB_COUNT; i++) {
        T_EQ_INT(tallies[i].out_of_order, 0);
        T_EQ_INT(tallies[i].unexpected, 0);
    }

    zsock_destroy(&raw.socket);
    bus_writer_destroy(&raw.scratch);
    for (int i = 0; i < SUB_COUNT; i++) {
        bus_sub_destroy(&subs[i]);
        bus_reader_destroy(&tallies[i].reader);
    }
    bus_sub_destroy(&subs[0]);
    bus_pub_destroy(&pub);
    bus_pub_destroy(&pub);
    bus_hub_destroy(&hub);
    bus_hub_destroy(&hub);
    T_ASSERT(hub == NULL && pub == NULL && subs[0] == NULL);
}

static void
test_hub_bind_failure(void)
{
    //  The error is expected: keep it off the test output.
    bus_log_set_level(-1);
    bus_hub_t *hub = bus_hub_new("bogus://nowhere", ANY_PORT, NULL);
    bus_log_set_level(BUS_LOG_ERROR);
    T_ASSERT(hub == NULL);
}

static void
test_sub_limits(void)
{
    bus_sub_t *sub = bus_sub_new("tcp://127.0.0.1:1", NULL);
    T_ASSERT(sub);
    char prefix[BUS_TOPIC_MAX + 1];
    memset(prefix, 'p', sizeof prefix - 1);
    prefix[sizeof prefix - 1] = 0;
    tally_t tally = {0};
    T_EQ_INT(bus_sub_subscribe(sub, prefix, s_on_event, &tally), -1);
    bus_event_t event;
    bus_error_t err;
    T_EQ_INT(bus_sub_recv(sub, &event, &err), BUS_STATUS_UNAVAILABLE);
    T_EQ_INT(bus_sub_dispatch(sub, 0), 0);
    bus_sub_destroy(&sub);
}

int
main(void)
{
    bus_log_init("bus_hub_test", NULL, BUS_LOG_ERROR);
    T_RUN(test_hub_routes_by_prefix);
    T_RUN(test_hub_bind_failure);
    T_RUN(test_sub_limits);
    return T_DONE();
}
