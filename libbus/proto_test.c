/*  =========================================================================
    proto_test - the generated codecs: round trips of every field type,
    malformed and hostile input, limits, printing and the registry

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "t.h"

static const uint8_t s_uuid[PROTO_UUID_SIZE] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05,
                                                0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
                                                0x0c, 0x0d, 0x0e, 0x0f};

//  A writer that tests fill by hand to build inputs the encoders refuse to write.
static bus_writer_t *
s_map(uint32_t pairs)
{
    bus_writer_t *writer = bus_writer_new();
    bus_writer_map(writer, pairs);
    return writer;
}

static int
s_decode_started(bus_writer_t *writer, proto_service_started_t *msg, bus_error_t *err)
{
    return proto_service_started_decode(msg, bus_writer_data(writer),
                                        bus_writer_size(writer), err);
}

static void
test_tick_round_trip(void)
{
    proto_test_tick_t tick;
    proto_test_tick_init(&tick);
    tick.n = 7;
    tick.text = "hello world";
    const proto_kv_t labels[] = {{"zone", "a"}, {"owner", "x y"}};
    tick.labels_count = 2;
    tick.labels = labels;
    const char *tags[] = {"one", "", "three"};
    tick.tags_count = 3;
    tick.tags = tags;
    memcpy(tick.id, s_uuid, sizeof s_uuid);
    tick.ratio = 0.25;
    tick.flag = true;
    tick.delta = -12345;

    zframe_t *frame = proto_test_tick_encode(&tick);
    T_ASSERT(frame);
    proto_test_tick_t copy;
    bus_error_t err;
    T_EQ_INT(proto_test_tick_decode(&copy, zframe_data(frame), zframe_size(frame), &err),
             BUS_OK);
    T_EQ_INT(err.status, BUS_OK);
    T_EQ_INT(copy.n, 7);
    T_EQ_STR(copy.text, "hello world");
    T_EQ_INT(copy.labels_count, 2);
    T_EQ_STR(copy.labels[0].key, "zone");
    T_EQ_STR(copy.labels[0].value, "a");
    T_EQ_STR(copy.labels[1].key, "owner");
    T_EQ_STR(copy.labels[1].value, "x y");
    T_EQ_INT(copy.tags_count, 3);
    T_EQ_STR(copy.tags[0], "one");
    T_EQ_STR(copy.tags[1], "");
    T_EQ_STR(copy.tags[2], "three");
    T_ASSERT(memcmp(copy.id, s_uuid, sizeof s_uuid) == 0);
    T_ASSERT(copy.ratio == 0.25);
    T_ASSERT(copy.flag);
    T_EQ_INT(copy.delta, -12345);

    char *text = proto_test_tick_print(&copy);
    T_EQ_STR(text, "n=7 text=\"hello world\" labels=[2] tags=[3] "
                   "id=00010203-0405-0607-0809-0a0b0c0d0e0f ratio=0.25 flag=true "
                   "delta=-12345");
    free(text);

    //  Encoding the copy gives the same bytes.
    zframe_t *again = proto_test_tick_encode(&copy);
    T_ASSERT(again && zframe_eq(frame, again));
    zframe_destroy(&again);
    zframe_destroy(&frame);
    proto_test_tick_clear(&copy);
    proto_test_tick_clear(&tick);
    T_ASSERT(tick.text == NULL && tick.labels == NULL && tick.tags_count == 0);
    proto_test_tick_clear(&tick); //  twice is fine
}

static void
test_optional_fields_default_to_zero(void)
{
    //  Only the required n: everything else is zero, NULL or empty, and the
    //  encoder leaves the absent strings and arrays out.
    proto_test_tick_t tick;
    proto_test_tick_init(&tick);
    tick.n = 1;
    bus_writer_t *writer = bus_writer_new();
    T_EQ_INT(proto_test_tick_write(&tick, writer), 0);
    proto_test_tick_t copy;
    T_EQ_INT(proto_test_tick_decode(&copy, bus_writer_data(writer),
                                    bus_writer_size(writer), NULL),
             BUS_OK);
    T_EQ_INT(copy.n, 1);
    T_ASSERT(copy.text == NULL && copy.labels == NULL && copy.tags == NULL);
    T_EQ_INT(copy.labels_count + copy.tags_count, 0);
    T_ASSERT(!copy.flag && copy.ratio == 0 && copy.delta == 0);

    //  n, id, ratio, flag, delta: the five fields that are always written.
    bus_reader_t *reader = bus_reader_new();
    const bus_value_t *map =
        bus_reader_parse(reader, bus_writer_data(writer), bus_writer_size(writer));
    T_EQ_INT(bus_value_count(map), 5);
    T_ASSERT(bus_value_map_find(map, "text") == NULL);
    bus_reader_destroy(&reader);
    bus_writer_destroy(&writer);
    proto_test_tick_clear(&copy);
}

static void
test_peers_round_trip(void)
{
    proto_registry_peers_rep_t rep;
    proto_registry_peers_rep_init(&rep);
    proto_registry_peer_t peers[3];
    rep.peers_count = 3;
    rep.peers = peers;
    const char *services[] = {"scheduler", "agent", "gateway"};
    for (size_t i = 0; i < 3; i++) {
        proto_registry_peer_t *peer = &peers[i];
        proto_registry_peer_init(peer);
        peer->service = services[i];
        peer->node = "n1";
        peer->pid = 100 + i;
        peer->durable_head = 1000 * i;
        peer->age_ms = 5;
        if (i != 1)
            peer->rpc_endpoint = "tcp://127.0.0.1:5000";
    }
    zframe_t *frame = proto_registry_peers_rep_encode(&rep);
    T_ASSERT(frame);
    proto_registry_peers_rep_t copy;
    T_EQ_INT(proto_registry_peers_rep_decode(&copy, zframe_data(frame),
                                             zframe_size(frame), NULL),
             BUS_OK);
    T_EQ_INT(copy.peers_count, 3);
    for (size_t i = 0; i < 3; i++) {
        T_EQ_STR(copy.peers[i].service, services[i]);
        T_EQ_STR(copy.peers[i].node, "n1");
        T_EQ_INT(copy.peers[i].pid, 100 + i);
        T_EQ_INT(copy.peers[i].durable_head, 1000 * i);
        T_EQ_INT(copy.peers[i].age_ms, 5);
    }
    T_ASSERT(copy.peers[1].rpc_endpoint == NULL);
    T_EQ_STR(copy.peers[2].rpc_endpoint, "tcp://127.0.0.1:5000");

    char *text = proto_registry_peers_rep_print(&copy);
    T_EQ_STR(text, "peers=[3]");
    free(text);
    text = proto_registry_peer_print(&copy.peers[0]);
    T_CONTAINS(text, "service=scheduler node=n1 rpc_endpoint=tcp://127.0.0.1:5000");
    free(text);

    //  An empty reply is an empty map, and reads back as no peers.
    proto_registry_peers_rep_t empty;
    proto_registry_peers_rep_init(&empty);
    zframe_t *none = proto_registry_peers_rep_encode(&empty);
    T_ASSERT(none && zframe_size(none) == 1 && zframe_data(none)[0] == 0x80);
    T_EQ_INT(proto_registry_peers_rep_decode(&empty, zframe_data(none), zframe_size(none),
                                             NULL),
             BUS_OK);
    T_EQ_INT(empty.peers_count, 0);
    zframe_destroy(&none);
    zframe_destroy(&frame);
    proto_registry_peers_rep_clear(&copy);
    proto_registry_peers_rep_clear(&rep);
}

static void
test_replay_round_trip(void)
{
    proto_bus_replay_rep_t rep;
    proto_bus_replay_rep_init(&rep);
    rep.domain = "kernel";
    rep.epoch = 3;
    rep.head = 42;
    rep.first_retained = 40;
    proto_bus_frame_t events[3];
    rep.events_count = 3;
    rep.events = events;
    for (size_t i = 0; i < 3; i++) {
        proto_bus_frame_t *event = &events[i];
        proto_bus_frame_init(event);
        event->topic = "kernel.started";
        event->header_size = 4;
        event->header = (const uint8_t *) "\x81\x00\x00\xff";
    }
    events[0].body_size = 5;
    events[0].body = (const uint8_t *) "a\0b\0c";
    events[1].body = (const uint8_t *) ""; //  present but empty
    //  events[2].body stays NULL: absent

    zframe_t *frame = proto_bus_replay_rep_encode(&rep);
    T_ASSERT(frame);
    proto_bus_replay_rep_t copy;
    T_EQ_INT(
        proto_bus_replay_rep_decode(&copy, zframe_data(frame), zframe_size(frame), NULL),
        BUS_OK);
    T_EQ_STR(copy.domain, "kernel");
    T_EQ_INT(copy.epoch, 3);
    T_EQ_INT(copy.head, 42);
    T_EQ_INT(copy.first_retained, 40);
    T_EQ_INT(copy.events_count, 3);
    for (size_t i = 0; i < 3; i++) {
        T_EQ_STR(copy.events[i].topic, "kernel.started");
        T_EQ_INT(copy.events[i].header_size, 4);
        T_ASSERT(memcmp(copy.events[i].header, "\x81\x00\x00\xff", 4) == 0);
    }
    T_EQ_INT(copy.events[0].body_size, 5);
    T_ASSERT(memcmp(copy.events[0].body, "a\0b\0c", 5) == 0);
    T_ASSERT(copy.events[1].body != NULL && copy.events[1].body_size == 0);
    T_ASSERT(copy.events[2].body == NULL);

    char *text = proto_bus_frame_print(&copy.events[0]);
    T_EQ_STR(text, "topic=kernel.started header=<4 bytes> body=<5 bytes>");
    free(text);
    text = proto_bus_replay_rep_print(&copy);
    T_EQ_STR(text, "domain=kernel epoch=3 head=42 first_retained=40 events=[3]");
    free(text);
    zframe_destroy(&frame);
    proto_bus_replay_rep_clear(&copy);
    proto_bus_replay_rep_clear(&rep);
}

static void
test_missing_required_is_invalid(void)
{
    bus_error_t err;
    proto_service_started_t started;
    bus_writer_t *writer = s_map(2);
    bus_writer_str(writer, "service");
    bus_writer_str(writer, "api");
    bus_writer_str(writer, "pid");
    bus_writer_uint(writer, 42);
    T_EQ_INT(s_decode_started(writer, &started, &err), BUS_STATUS_INVALID);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "service.started: field 'node': missing");
    //  On failure the struct is cleared: nothing half-decoded is left behind.
    T_ASSERT(started.service == NULL && started.pid == 0);
    bus_writer_destroy(&writer);

    //  A nil value counts as absent.
    writer = s_map(2);
    bus_writer_str(writer, "service");
    bus_writer_str(writer, "api");
    bus_writer_str(writer, "node");
    bus_writer_nil(writer);
    T_EQ_INT(s_decode_started(writer, &started, &err), BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "field 'node': missing");
    bus_writer_destroy(&writer);

    //  Inside a list, the detail gives the path.
    writer = s_map(1);
    bus_writer_str(writer, "peers");
    bus_writer_array(writer, 2);
    bus_writer_map(writer, 2);
    bus_writer_str(writer, "service");
    bus_writer_str(writer, "a");
    bus_writer_str(writer, "node");
    bus_writer_str(writer, "n1");
    bus_writer_map(writer, 1);
    bus_writer_str(writer, "node");
    bus_writer_str(writer, "n2");
    proto_registry_peers_rep_t rep;
    T_EQ_INT(proto_registry_peers_rep_decode(&rep, bus_writer_data(writer),
                                             bus_writer_size(writer), &err),
             BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "registry.peers reply: field 'peers[1].service': missing");
    T_ASSERT(rep.peers == NULL && rep.peers_count == 0);
    bus_writer_destroy(&writer);

    //  An empty map lacks the required n.
    proto_test_echo_req_t echo;
    T_EQ_INT(proto_test_echo_req_decode(&echo, "\x80", 1, &err), BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "test.echo request: field 'n': missing");
}

static void
test_wrong_wire_type_is_protocol(void)
{
    bus_error_t err;
    proto_service_started_t started;
    bus_writer_t *writer = s_map(3);
    bus_writer_str(writer, "service");
    bus_writer_str(writer, "api");
    bus_writer_str(writer, "node");
    bus_writer_str(writer, "n1");
    bus_writer_str(writer, "pid");
    bus_writer_str(writer, "42");
    T_EQ_INT(s_decode_started(writer, &started, &err), BUS_STATUS_PROTOCOL);
    T_EQ_STR(err.detail, "service.started: field 'pid': expected uint");
    T_ASSERT(started.service == NULL);
    bus_writer_destroy(&writer);

    //  A negative number is not a uint either.
    writer = s_map(3);
    bus_writer_str(writer, "service");
    bus_writer_str(writer, "api");
    bus_writer_str(writer, "node");
    bus_writer_str(writer, "n1");
    bus_writer_str(writer, "pid");
    bus_writer_int(writer, -1);
    T_EQ_INT(s_decode_started(writer, &started, &err), BUS_STATUS_PROTOCOL);
    bus_writer_destroy(&writer);

    //  One wrong field of each kind in test.tick (n is fine).
    struct {
        const char *key;
        int kind; //  0 str, 1 int, 2 bin of 3 bytes, 3 array of ints, 4 map to int
        const char *detail;
    } cases[] = {
        {"text", 1, "field 'text': expected string"},
        {"id", 2, "field 'id': expected uuid"},
        {"id", 0, "field 'id': expected uuid"},
        {"ratio", 0, "field 'ratio': expected double"},
        {"flag", 1, "field 'flag': expected bool"},
        {"delta", 0, "field 'delta': expected int"},
        {"tags", 0, "field 'tags': expected array of strings"},
        {"tags", 3, "field 'tags': item 0: expected string"},
        {"labels", 3, "field 'labels': expected map of strings"},
        {"labels", 4, "field 'labels': pair 0: expected string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        writer = s_map(2);
        bus_writer_str(writer, "n");
        bus_writer_uint(writer, 1);
        bus_writer_str(writer, cases[i].key);
        if (cases[i].kind == 0)
            bus_writer_str(writer, "x");
        else if (cases[i].kind == 1)
            bus_writer_int(writer, 5);
        else if (cases[i].kind == 2)
            bus_writer_bin(writer, "abc", 3);
        else if (cases[i].kind == 3) {
            bus_writer_array(writer, 1);
            bus_writer_int(writer, 5);
        } else {
            bus_writer_map(writer, 1);
            bus_writer_str(writer, "k");
            bus_writer_int(writer, 5);
        }
        proto_test_tick_t tick;
        int rc = proto_test_tick_decode(&tick, bus_writer_data(writer),
                                        bus_writer_size(writer), &err);
        bus_writer_destroy(&writer);
        T_EQ_INT(rc, BUS_STATUS_PROTOCOL);
        T_CONTAINS(err.detail, cases[i].detail);
        T_ASSERT(tick.tags == NULL && tick.labels == NULL && tick.text == NULL);
    }

    //  An int where a double is expected is fine.
    writer = s_map(2);
    bus_writer_str(writer, "n");
    bus_writer_uint(writer, 1);
    bus_writer_str(writer, "ratio");
    bus_writer_int(writer, -3);
    proto_test_tick_t tick;
    T_EQ_INT(proto_test_tick_decode(&tick, bus_writer_data(writer),
                                    bus_writer_size(writer), NULL),
             BUS_OK);
    T_ASSERT(tick.ratio == -3.0);
    bus_writer_destroy(&writer);

    //  A list item that is not a map.
    writer = s_map(1);
    bus_writer_str(writer, "peers");
    bus_writer_array(writer, 1);
    bus_writer_str(writer, "peer");
    proto_registry_peers_rep_t rep;
    T_EQ_INT(proto_registry_peers_rep_decode(&rep, bus_writer_data(writer),
                                             bus_writer_size(writer), &err),
             BUS_STATUS_PROTOCOL);
    T_EQ_STR(err.detail, "registry.peers reply: field 'peers[0]': expected map");
    bus_writer_destroy(&writer);
}

static void
test_malformed_bytes_are_protocol(void)
{
    proto_service_started_t started;
    proto_service_started_init(&started);
    started.service = "api";
    started.node = "n1";
    zframe_t *frame = proto_service_started_encode(&started);
    proto_service_started_clear(&started);
    T_ASSERT(frame);
    const uint8_t *data = zframe_data(frame);
    size_t size = zframe_size(frame);
    bus_error_t err;

    //  Truncated at every length.
    for (size_t cut = 0; cut < size; cut++) {
        T_EQ_INT(proto_service_started_decode(&started, data, cut, &err),
                 BUS_STATUS_PROTOCOL);
        T_EQ_STR(err.detail, "service.started: not a msgpack map");
    }
    //  Trailing bytes.
    uint8_t *longer = malloc(size + 1);
    memcpy(longer, data, size);
    longer[size] = 0xc0;
    T_EQ_INT(proto_service_started_decode(&started, longer, size + 1, &err),
             BUS_STATUS_PROTOCOL);
    free(longer);
    //  NULL, an array, a string, a number, an unused tag.
    T_EQ_INT(proto_service_started_decode(&started, NULL, 0, &err), BUS_STATUS_PROTOCOL);
    T_EQ_INT(proto_service_started_decode(&started, "\x91\x01", 2, &err),
             BUS_STATUS_PROTOCOL);
    T_EQ_INT(proto_service_started_decode(&started, "\xa1x", 2, &err),
             BUS_STATUS_PROTOCOL);
    T_EQ_INT(proto_service_started_decode(&started, "\x05", 1, &err),
             BUS_STATUS_PROTOCOL);
    T_EQ_INT(proto_service_started_decode(&started, "\xc1", 1, &err),
             BUS_STATUS_PROTOCOL);
    //  A map32 that claims four billion pairs.
    T_EQ_INT(proto_service_started_decode(&started, "\xdf\xff\xff\xff\xff", 5, &err),
             BUS_STATUS_PROTOCOL);
    T_ASSERT(started.service == NULL);
    //  read() refuses a value that is not a map, and NULL.
    T_EQ_INT(proto_service_started_read(&started, NULL, &err), BUS_STATUS_PROTOCOL);
    T_EQ_INT(proto_service_started_read(&started, NULL, NULL), BUS_STATUS_PROTOCOL);
    zframe_destroy(&frame);
}

static void
test_unknown_keys_are_ignored(void)
{
    bus_writer_t *writer = s_map(5);
    bus_writer_str(writer, "future");
    bus_writer_map(writer, 1);
    bus_writer_str(writer, "deep");
    bus_writer_array(writer, 0);
    bus_writer_str(writer, "service");
    bus_writer_str(writer, "api");
    bus_writer_int(writer, 7); //  a key that is not even a string
    bus_writer_bool(writer, true);
    bus_writer_str(writer, "node");
    bus_writer_str(writer, "n1");
    bus_writer_str(writer, "version");
    bus_writer_nil(writer); //  nil: absent
    proto_service_started_t started;
    bus_error_t err;
    T_EQ_INT(s_decode_started(writer, &started, &err), BUS_OK);
    T_EQ_STR(started.service, "api");
    T_EQ_STR(started.node, "n1");
    T_ASSERT(started.version == NULL);
    proto_service_started_clear(&started);
    bus_writer_destroy(&writer);
}

static void
test_limits_are_invalid(void)
{
    bus_error_t err;
    char name[66];
    memset(name, 'a', sizeof name - 1);
    name[65] = 0;

    //  service: at most 64 bytes, on both sides.
    proto_service_started_t started;
    proto_service_started_init(&started);
    started.service = name;
    started.node = "n1";
    T_ASSERT(proto_service_started_encode(&started) == NULL);
    bus_writer_t *writer = bus_writer_new();
    T_EQ_INT(proto_service_started_write(&started, writer), -1);
    T_EQ_INT(bus_writer_size(writer), 0); //  a refused write leaves nothing
    char shorter[65];
    memcpy(shorter, name, 64);
    shorter[64] = 0;
    started.service = shorter;
    T_EQ_INT(proto_service_started_write(&started, writer), 0);
    proto_service_started_clear(&started);
    bus_writer_destroy(&writer);

    writer = s_map(2);
    bus_writer_str(writer, "service");
    bus_writer_str(writer, name);
    bus_writer_str(writer, "node");
    bus_writer_str(writer, "n1");
    T_EQ_INT(s_decode_started(writer, &started, &err), BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "service.started: field 'service': longer than 64 bytes");
    bus_writer_destroy(&writer);

    //  A NUL byte inside a string.
    writer = s_map(2);
    bus_writer_str(writer, "service");
    bus_writer_strn(writer, "a\0b", 3);
    bus_writer_str(writer, "node");
    bus_writer_str(writer, "n1");
    T_EQ_INT(s_decode_started(writer, &started, &err), BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "contains a NUL byte");
    bus_writer_destroy(&writer);

    //  tags: at most 64 items; labels: at most 64 pairs.
    for (int which = 0; which < 2; which++) {
        writer = s_map(2);
        bus_writer_str(writer, "n");
        bus_writer_uint(writer, 1);
        bus_writer_str(writer, which ? "labels" : "tags");
        if (which)
            bus_writer_map(writer, 65);
        else
            bus_writer_array(writer, 65);
        for (int i = 0; i < 65 * (which + 1); i++)
            bus_writer_str(writer, "x");
        proto_test_tick_t tick;
        T_EQ_INT(proto_test_tick_decode(&tick, bus_writer_data(writer),
                                        bus_writer_size(writer), &err),
                 BUS_STATUS_INVALID);
        T_CONTAINS(err.detail, which ? "more than 64 pairs" : "more than 64 items");
        bus_writer_destroy(&writer);
    }

    //  delta: -1000000..1000000; a uint beyond int64 is out of range too.
    int64_t deltas[] = {-1000001, 1000001, INT64_MIN};
    for (size_t i = 0; i < 4; i++) {
        writer = s_map(2);
        bus_writer_str(writer, "n");
        bus_writer_uint(writer, 1);
        bus_writer_str(writer, "delta");
        if (i < 3)
            bus_writer_int(writer, deltas[i]);
        else
            bus_writer_uint(writer, UINT64_MAX);
        proto_test_tick_t tick;
        T_EQ_INT(proto_test_tick_decode(&tick, bus_writer_data(writer),
                                        bus_writer_size(writer), &err),
                 BUS_STATUS_INVALID);
        T_CONTAINS(err.detail, "field 'delta'");
        bus_writer_destroy(&writer);
    }
    proto_test_tick_t tick;
    proto_test_tick_init(&tick);
    tick.delta = 1000001;
    T_ASSERT(proto_test_tick_encode(&tick) == NULL);
    tick.delta = -1000000;
    zframe_t *frame = proto_test_tick_encode(&tick);
    T_ASSERT(frame);
    zframe_destroy(&frame);
    const char *many[65];
    for (int i = 0; i < 65; i++)
        many[i] = "t";
    tick.tags_count = 65;
    tick.tags = many;
    T_ASSERT(proto_test_tick_encode(&tick) == NULL);
    proto_test_tick_clear(&tick);

    //  delay_ms: at most 60000.
    proto_test_slow_req_t slow;
    proto_test_slow_req_init(&slow);
    slow.delay_ms = 60001;
    T_ASSERT(proto_test_slow_req_encode(&slow) == NULL);
    T_EQ_INT(proto_test_slow_req_decode(&slow,
                                        "\x81\xa8"
                                        "delay_ms\xcd\xea\x61",
                                        13, &err),
             BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "test.slow request: field 'delay_ms': above the maximum 60000");
    T_EQ_INT(proto_test_slow_req_decode(&slow,
                                        "\x81\xa8"
                                        "delay_ms\xcd\xea\x60",
                                        13, &err),
             BUS_OK);
    T_EQ_INT(slow.delay_ms, 60000);

    //  A uuid of the wrong size.
    writer = s_map(2);
    bus_writer_str(writer, "n");
    bus_writer_uint(writer, 1);
    bus_writer_str(writer, "id");
    bus_writer_bin(writer, s_uuid, 15);
    T_EQ_INT(proto_test_tick_decode(&tick, bus_writer_data(writer),
                                    bus_writer_size(writer), &err),
             BUS_STATUS_PROTOCOL);
    bus_writer_destroy(&writer);
}

static void
test_encode_refuses_null_required(void)
{
    proto_service_started_t started;
    proto_service_started_init(&started);
    started.node = "n1";
    T_ASSERT(proto_service_started_encode(&started) == NULL);
    bus_writer_t *writer = bus_writer_new();
    T_EQ_INT(proto_service_started_write(&started, writer), -1);
    T_EQ_INT(bus_writer_size(writer), 0);
    proto_service_started_clear(&started);

    //  Required bytes inside a list item.
    proto_bus_replay_rep_t rep;
    proto_bus_replay_rep_init(&rep);
    rep.domain = "kernel";
    proto_bus_frame_t event;
    proto_bus_frame_init(&event);
    rep.events_count = 1;
    rep.events = &event;
    event.topic = "kernel.started";
    T_EQ_INT(proto_bus_replay_rep_write(&rep, writer), -1);
    event.header = (const uint8_t *) "";
    T_EQ_INT(proto_bus_replay_rep_write(&rep, writer), 0);
    proto_bus_replay_rep_clear(&rep);

    //  Arrays: a count without items, a NULL item, a NULL map value.
    proto_test_tick_t tick;
    proto_test_tick_init(&tick);
    tick.tags_count = 1;
    T_EQ_INT(proto_test_tick_write(&tick, writer), -1);
    const char *one[1] = {NULL};
    tick.tags = one;
    T_EQ_INT(proto_test_tick_write(&tick, writer), -1);
    proto_kv_t label = {"k", NULL};
    tick.labels_count = 1;
    tick.labels = &label;
    one[0] = "t";
    T_EQ_INT(proto_test_tick_write(&tick, writer), -1);
    label.value = "v";
    T_EQ_INT(proto_test_tick_write(&tick, writer), 0);
    proto_test_tick_clear(&tick);
    bus_writer_destroy(&writer);
}

//  check: what the schema says, with a detail that names the field; write
//  refuses the same struct and appends nothing; writer (requests) answers err.
static void
test_check_names_the_field(void)
{
    bus_error_t err;
    char run_id[PROTO_KERNEL_EXECUTE_REQ_RUN_ID_MAX + 2];
    memset(run_id, 'r', sizeof run_id - 1);
    run_id[sizeof run_id - 1] = 0; //  65 bytes

    //  Too long, and at the limit.
    proto_kernel_execute_req_t exec;
    proto_kernel_execute_req_init(&exec);
    exec.kernel_id = "k1";
    exec.run_id = run_id;
    exec.mode = "query";
    T_EQ_INT(proto_kernel_execute_req_check(&exec, &err), BUS_STATUS_INVALID);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "kernel.execute request: field 'run_id': 65 bytes, at most 64");
    bus_writer_t *writer = bus_writer_new();
    T_EQ_INT(proto_kernel_execute_req_write(&exec, writer), -1);
    T_EQ_INT(bus_writer_size(writer), 0);
    T_ASSERT(proto_kernel_execute_req_writer(&exec, &err) == NULL);
    T_CONTAINS(err.detail, "field 'run_id'");
    T_ASSERT(proto_kernel_execute_req_encode(&exec) == NULL);
    run_id[PROTO_KERNEL_EXECUTE_REQ_RUN_ID_MAX] = 0;
    T_EQ_INT(proto_kernel_execute_req_check(&exec, &err), BUS_OK);
    T_EQ_INT(err.status, BUS_OK);
    T_EQ_STR(err.detail, "");
    bus_writer_t *one = proto_kernel_execute_req_writer(&exec, &err);
    T_ASSERT(one && bus_writer_size(one) > 0);
    bus_writer_destroy(&one);
    T_EQ_INT(proto_kernel_execute_req_check(&exec, NULL), BUS_OK);

    //  Missing required: string, and bytes inside a list item (nested path).
    exec.mode = NULL;
    T_EQ_INT(proto_kernel_execute_req_check(&exec, &err), BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "kernel.execute request: field 'mode': missing");
    proto_bus_replay_rep_t rep;
    proto_bus_replay_rep_init(&rep);
    rep.domain = "kernel";
    proto_bus_frame_t events[2];
    proto_bus_frame_init(&events[0]);
    proto_bus_frame_init(&events[1]);
    events[0].topic = events[1].topic = "kernel.started";
    events[0].header = (const uint8_t *) "";
    rep.events = events;
    rep.events_count = 2;
    T_EQ_INT(proto_bus_replay_rep_check(&rep, &err), BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "bus.replay reply: field 'events[1].header': missing");
    events[1].header = (const uint8_t *) "";
    T_EQ_INT(proto_bus_replay_rep_check(&rep, &err), BUS_OK);

    //  Too many items and pairs; a count without its array.
    proto_test_tick_t tick;
    proto_test_tick_init(&tick);
    const char *many[PROTO_TEST_TICK_TAGS_MAX + 1];
    for (size_t i = 0; i < PROTO_TEST_TICK_TAGS_MAX + 1; i++)
        many[i] = "t";
    tick.tags = many;
    tick.tags_count = PROTO_TEST_TICK_TAGS_MAX + 1;
    T_EQ_INT(proto_test_tick_check(&tick, &err), BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "test.tick: field 'tags': 65 items, at most 64");
    tick.tags_count = PROTO_TEST_TICK_TAGS_MAX;
    T_EQ_INT(proto_test_tick_check(&tick, &err), BUS_OK);
    proto_kv_t pairs[PROTO_TEST_TICK_LABELS_MAX + 1];
    for (size_t i = 0; i < PROTO_TEST_TICK_LABELS_MAX + 1; i++)
        pairs[i] = (proto_kv_t){"k", "v"};
    tick.labels = pairs;
    tick.labels_count = PROTO_TEST_TICK_LABELS_MAX + 1;
    T_EQ_INT(proto_test_tick_check(&tick, &err), BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "test.tick: field 'labels': 65 pairs, at most 64");
    tick.labels_count = 1;
    pairs[0].value = NULL;
    T_EQ_INT(proto_test_tick_check(&tick, &err), BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "test.tick: field 'labels': pair 0: missing value");
    pairs[0].value = "v";
    tick.tags = NULL;
    T_EQ_INT(proto_test_tick_check(&tick, &err), BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "test.tick: field 'tags': 64 items but no array");
    tick.tags_count = 0;

    //  Numbers: int min and max, uint max.
    tick.delta = -1000001;
    T_EQ_INT(proto_test_tick_check(&tick, &err), BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "test.tick: field 'delta': -1000001, at least -1000000");
    tick.delta = 1000001;
    T_EQ_INT(proto_test_tick_check(&tick, &err), BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "test.tick: field 'delta': 1000001, at most 1000000");
    tick.delta = 0;
    T_EQ_INT(proto_test_tick_check(&tick, &err), BUS_OK);
    proto_test_slow_req_t slow;
    proto_test_slow_req_init(&slow);
    slow.delay_ms = 60001;
    T_EQ_INT(proto_test_slow_req_check(&slow, &err), BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "test.slow request: field 'delay_ms': 60001, at most 60000");

    //  A nested value: the path names it.
    char name[PROTO_SESSION_INFO_NAME_MAX + 2];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = 0;
    proto_session_create_rep_t created;
    proto_session_create_rep_init(&created);
    created.session.name = name;
    T_EQ_INT(proto_session_create_rep_check(&created, &err), BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "field 'session.");
    T_EQ_INT(proto_session_create_rep_write(&created, writer), -1);
    T_EQ_INT(bus_writer_size(writer), 0);
    bus_writer_destroy(&writer);
}

static void
test_print_is_logfmt(void)
{
    proto_service_started_t started;
    proto_service_started_init(&started);
    started.service = "api";
    started.node = "n1";
    started.version = "1.2.3";
    started.pid = 42;
    started.started_at = 1700000000000000;
    char *text = proto_service_started_print(&started);
    T_EQ_STR(text,
             "service=api node=n1 version=1.2.3 pid=42 started_at=1700000000000000");
    free(text);
    proto_service_started_clear(&started);

    //  Quoting and escapes; an empty string is "".
    proto_test_echo_rep_t echo;
    proto_test_echo_rep_init(&echo);
    echo.n = 1;
    echo.text = "say \"hi\"\n\\ a=b\x01";
    text = proto_test_echo_rep_print(&echo);
    T_EQ_STR(text, "n=1 text=\"say \\\"hi\\\"\\n\\\\ a=b\\x01\"");
    free(text);
    echo.text = "";
    text = proto_test_echo_rep_print(&echo);
    T_EQ_STR(text, "n=1 text=\"\"");
    free(text);
    proto_test_echo_rep_clear(&echo);

    //  Doubles in their shortest exact form; a message without fields prints "".
    proto_test_tick_t tick;
    proto_test_tick_init(&tick);
    tick.ratio = 0.1;
    text = proto_test_tick_print(&tick);
    T_CONTAINS(text, " ratio=0.1 ");
    T_CONTAINS(text, "id=00000000-0000-0000-0000-000000000000");
    free(text);
    proto_registry_heartbeat_rep_t empty;
    proto_registry_heartbeat_rep_init(&empty);
    text = proto_registry_heartbeat_rep_print(&empty);
    T_EQ_STR(text, "");
    free(text);
}

static void
test_text_runtime(void)
{
    //  What generated printers call for secret and nested fields.
    proto_text_t text;
    proto_text_init(&text);
    proto_print_str(&text, "user", "ann");
    proto_print_redacted(&text, "token");
    size_t mark = proto_text_enter(&text, "peer");
    proto_print_uint(&text, "pid", 7);
    proto_print_str(&text, "absent", NULL);
    proto_print_bytes(&text, "absent", NULL, 0);
    proto_print_count(&text, "none", 0);
    proto_text_leave(&text, mark);
    proto_print_bool(&text, "ok", false);
    char *line = proto_text_finish(&text);
    T_EQ_STR(line, "user=ann token=[redacted] peer.pid=7 ok=false");
    free(line);
}

static void
test_read_from_parsed_map(void)
{
    //  A message nested in another structure: read() works on the map value.
    bus_writer_t *writer = bus_writer_new();
    bus_writer_array(writer, 2);
    bus_writer_map(writer, 1);
    bus_writer_str(writer, "text");
    bus_writer_str(writer, "first");
    bus_writer_map(writer, 0);
    bus_reader_t *reader = bus_reader_new();
    const bus_value_t *root =
        bus_reader_parse(reader, bus_writer_data(writer), bus_writer_size(writer));
    T_ASSERT(root);
    proto_test_note_t note;
    bus_error_t err;
    T_EQ_INT(proto_test_note_read(&note, bus_value_array_at(root, 0), &err), BUS_OK);
    T_EQ_STR(note.text, "first");
    proto_test_note_clear(&note);
    T_EQ_INT(proto_test_note_read(&note, bus_value_array_at(root, 1), &err),
             BUS_STATUS_INVALID);
    T_EQ_INT(proto_test_note_read(&note, root, &err), BUS_STATUS_PROTOCOL);
    bus_reader_destroy(&reader);
    bus_writer_destroy(&writer);
}

static void
test_registry_rejects_garbage(void)
{
    static const struct {
        const char *data;
        size_t size;
    } garbage[] = {
        {"", 0},
        {"\xc1", 1},
        {"\x91\x01", 2},
        {"\x81", 1},
        {"\x81\xa1", 2},
        {"\xdf\xff\xff\xff\xff", 5},
        {"\xdd\x00\x00\x00\x02\x80\x80", 7},
        {"\x82\xa1x\x01", 4},
        {"\x80\x80", 2},
        {"hello world", 11},
    };
    for (size_t i = 0; i < proto_entry_count; i++) {
        const proto_entry_t *entry = &proto_entries[i];
        T_ASSERT(entry->name && entry->validate && entry->print && entry->roundtrip);
        for (size_t g = 0; g < sizeof garbage / sizeof garbage[0]; g++) {
            bus_error_t err;
            int rc = entry->validate(garbage[g].data, garbage[g].size, &err);
            T_ASSERT(rc != BUS_OK);
            T_EQ_INT(err.status, rc);
            T_CONTAINS(err.detail, entry->name);
            T_ASSERT(entry->print(garbage[g].data, garbage[g].size) == NULL);
            T_EQ_INT(entry->roundtrip(garbage[g].data, garbage[g].size), 0);
        }
        //  An empty map is valid exactly when nothing is required; then it
        //  prints and round-trips.
        bus_error_t err;
        int rc = entry->validate("\x80", 1, &err);
        T_ASSERT(rc == BUS_OK || rc == BUS_STATUS_INVALID);
        char *text = entry->print("\x80", 1);
        T_ASSERT((rc == BUS_OK) == (text != NULL));
        free(text);
        T_EQ_INT(entry->roundtrip("\x80", 1), 0);
    }
}

static void
test_registry_round_trips(void)
{
    proto_test_tick_t tick;
    proto_test_tick_init(&tick);
    tick.n = 9;
    tick.text = "x";
    zframe_t *frame = proto_test_tick_encode(&tick);
    proto_test_tick_clear(&tick);
    const proto_entry_t *entry = proto_lookup(PROTO_TEST_TICK, PROTO_EVENT);
    T_ASSERT(entry && frame);
    bus_error_t err;
    T_EQ_INT(entry->validate(zframe_data(frame), zframe_size(frame), &err), BUS_OK);
    T_EQ_INT(entry->roundtrip(zframe_data(frame), zframe_size(frame)), 0);
    char *text = entry->print(zframe_data(frame), zframe_size(frame));
    T_CONTAINS(text, "n=9 text=x ");
    free(text);
    //  Another type ignores the keys it does not know: these bytes are also a
    //  valid test.echo reply (n and text).
    entry = proto_lookup(PROTO_TEST_ECHO, PROTO_REPLY);
    T_EQ_INT(entry->validate(zframe_data(frame), zframe_size(frame), &err), BUS_OK);
    zframe_destroy(&frame);
}

static void
test_lookup(void)
{
    const proto_entry_t *entry = proto_lookup(PROTO_SERVICE_STARTED, PROTO_EVENT);
    T_ASSERT(entry);
    T_EQ_STR(entry->name, "service.started");
    T_ASSERT(entry->broadcast && !entry->durable);
    entry = proto_lookup("test.tick", PROTO_EVENT);
    T_ASSERT(entry && entry->broadcast && entry->durable);
    T_ASSERT(proto_lookup("service.started", PROTO_REQUEST) == NULL);
    T_ASSERT(proto_lookup("service.nope", PROTO_EVENT) == NULL);
    T_ASSERT(proto_lookup(NULL, PROTO_EVENT) == NULL);
    entry = proto_lookup(PROTO_REGISTRY_PEERS, PROTO_REPLY);
    T_ASSERT(entry && entry->kind == PROTO_REPLY && entry->idempotent);
    T_ASSERT(proto_method_idempotent("registry.register"));
    T_ASSERT(proto_method_idempotent(PROTO_SERVICE_HEALTH));
    T_ASSERT(!proto_method_idempotent(PROTO_TEST_SLOW));
    T_ASSERT(!proto_method_idempotent("test.tick")); //  an event, not a method
    T_ASSERT(!proto_method_idempotent("nope"));
    T_EQ_STR(proto_kind_str(PROTO_REQUEST), "request");

    //  Every (name, kind) appears once; requests and replies come in pairs.
    size_t requests = 0, replies = 0;
    for (size_t i = 0; i < proto_entry_count; i++) {
        const proto_entry_t *e = &proto_entries[i];
        T_ASSERT(proto_lookup(e->name, e->kind) == e);
        requests += e->kind == PROTO_REQUEST;
        replies += e->kind == PROTO_REPLY;
        if (e->kind == PROTO_REQUEST)
            T_ASSERT(proto_lookup(e->name, PROTO_REPLY) != NULL);
    }
    T_EQ_INT(requests, replies);
    T_ASSERT(proto_entry_count >= 21);
}

//  Items read each with an arena of their own, handed to the struct that
//  sends them: join moves the blocks, clear frees them all (ASan checks).
static void
test_arena_join(void)
{
    void *owned = NULL, *item = NULL, *empty = NULL;
    char *a = proto_arena_strdup(&item, "first item");
    char *big = proto_arena_alloc(&item, 1 << 20); //  a block of its own
    T_ASSERT(a && big);
    big[0] = 'x';
    proto_arena_join(&owned, &item);
    T_ASSERT(owned && !item);
    T_EQ_STR(a, "first item");
    char *b = proto_arena_strdup(&item, "second item");
    proto_arena_join(&owned, &item);
    proto_arena_join(&owned, &empty); //  nothing to move
    T_ASSERT(!item && !empty);
    T_EQ_STR(b, "second item");
    T_ASSERT(proto_arena_strdup(&owned, "after"));
    proto_arena_free(&owned);
    T_ASSERT(!owned);
}

int
main(void)
{
    T_RUN(test_tick_round_trip);
    T_RUN(test_arena_join);
    T_RUN(test_optional_fields_default_to_zero);
    T_RUN(test_peers_round_trip);
    T_RUN(test_replay_round_trip);
    T_RUN(test_missing_required_is_invalid);
    T_RUN(test_wrong_wire_type_is_protocol);
    T_RUN(test_malformed_bytes_are_protocol);
    T_RUN(test_unknown_keys_are_ignored);
    T_RUN(test_limits_are_invalid);
    T_RUN(test_encode_refuses_null_required);
    T_RUN(test_check_names_the_field);
    T_RUN(test_print_is_logfmt);
    T_RUN(test_text_runtime);
    T_RUN(test_read_from_parsed_map);
    T_RUN(test_registry_rejects_garbage);
    T_RUN(test_registry_round_trips);
    T_RUN(test_lookup);
    return T_DONE();
}
