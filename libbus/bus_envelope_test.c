/*  =========================================================================
    bus_envelope_test - header round trips, hostile headers, event ids, and
    events sent and received over a real inproc socket pair

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <sys/wait.h> //  waitpid for the fork test
#include "t.h"

#define ID_COUNT 100000

//  Encodes header with a fresh writer and decodes it into out.
static int
s_round_trip(const bus_header_t *header, bus_header_t *out, bus_error_t *err)
{
    bus_writer_t *w = bus_writer_new();
    bus_reader_t *r = bus_reader_new();
    assert(w && r);
    bus_header_write(header, w);
    int rc = bus_header_decode(out, r, bus_writer_data(w), bus_writer_size(w), err);
    bus_reader_destroy(&r);
    bus_writer_destroy(&w);
    return rc;
}

//  Decodes the bytes a writer holds; the writer is reset for the next case.
static int
s_decode_writer(bus_writer_t *w, bus_error_t *err)
{
    bus_reader_t *r = bus_reader_new();
    bus_header_t header;
    memset(err, 0, sizeof *err);
    int rc = bus_header_decode(&header, r, bus_writer_data(w), bus_writer_size(w), err);
    bus_reader_destroy(&r);
    bus_writer_reset(w);
    return rc;
}

static void
test_header_round_trip(void)
{
    bus_header_t header, out;
    bus_error_t err = {0};
    bus_header_init(&header, "scheduler/n1");
    T_EQ_INT(header.version, BUS_ENVELOPE_VERSION);
    T_ASSERT(header.ts > 0);
    T_EQ_INT(header.seq, 0);
    T_EQ_STR(header.corr, "");

    //  Ephemeral: no seq, epoch or corr on the wire.
    T_EQ_INT(s_round_trip(&header, &out, &err), BUS_OK);
    T_EQ_INT(out.version, BUS_ENVELOPE_VERSION);
    T_ASSERT(memcmp(out.id, header.id, BUS_EVENT_ID_SIZE) == 0);
    T_EQ_INT(out.ts, header.ts);
    T_EQ_STR(out.src, "scheduler/n1");
    T_EQ_INT(out.seq, 0);
    T_EQ_INT(out.epoch, 0);
    T_EQ_STR(out.corr, "");

    //  Durable with a correlation id.
    header.seq = 42;
    header.epoch = UINT64_MAX;
    snprintf(header.corr, sizeof header.corr, "req-7");
    header.ts = -5; //  negative timestamps still round-trip
    T_EQ_INT(s_round_trip(&header, &out, &err), BUS_OK);
    T_EQ_INT(out.seq, 42);
    T_ASSERT(out.epoch == UINT64_MAX);
    T_EQ_STR(out.corr, "req-7");
    T_EQ_INT(out.ts, -5);

    //  A corr without seq, and the longest strings that fit.
    header.seq = 0;
    memset(header.src, 's', BUS_SRC_MAX - 1);
    header.src[BUS_SRC_MAX - 1] = 0;
    memset(header.corr, 'c', BUS_CORR_MAX - 1);
    header.corr[BUS_CORR_MAX - 1] = 0;
    T_EQ_INT(s_round_trip(&header, &out, &err), BUS_OK);
    T_EQ_INT(out.seq, 0);
    T_EQ_INT(out.epoch, 0);
    T_EQ_INT(strlen(out.src), BUS_SRC_MAX - 1);
    T_EQ_INT(strlen(out.corr), BUS_CORR_MAX - 1);

    //  init: NULL src is empty, a long one is cut.
    bus_header_init(&header, NULL);
    T_EQ_STR(header.src, "");
    char long_src[BUS_SRC_MAX * 2];
    memset(long_src, 'x', sizeof long_src - 1);
    long_src[sizeof long_src - 1] = 0;
    bus_header_init(&header, long_src);
    T_EQ_INT(strlen(header.src), BUS_SRC_MAX - 1);
}

//  Writes a header map with the given fields; NULL/negative leaves one out.
typedef struct {
    int64_t version; //  < 0: left out
    int id_size;     //  < 0: left out
    const char *src; //  NULL: left out
    const char *corr;
} fields_t;

static void
s_write_fields(bus_writer_t *w, const fields_t *f)
{
    uint8_t id[32] = {1, 2, 3};
    uint32_t pairs =
        1 + (f->version >= 0) + (f->id_size >= 0) + (f->src != NULL) + (f->corr != NULL);
    bus_writer_map(w, pairs);
    bus_writer_str(w, "ts");
    bus_writer_int(w, 1);
    if (f->version >= 0) {
        bus_writer_str(w, "v");
        bus_writer_uint(w, (uint64_t) f->version);
    }
    if (f->id_size >= 0) {
        bus_writer_str(w, "id");
        bus_writer_bin(w, id, (size_t) f->id_size);
    }
    if (f->src) {
        bus_writer_str(w, "src");
        bus_writer_str(w, f->src);
    }
    if (f->corr) {
        bus_writer_str(w, "corr");
        bus_writer_str(w, f->corr);
    }
}

static void
test_decode_rejects(void)
{
    bus_writer_t *w = bus_writer_new();
    bus_reader_t *r = bus_reader_new();
    bus_error_t err;
    bus_header_t header;

    //  Not msgpack at all, empty, and not a map.
    T_EQ_INT(bus_header_decode(&header, r, "\xc1", 1, &err), BUS_STATUS_PROTOCOL);
    T_CONTAINS(err.detail, "not a msgpack map");
    T_EQ_INT(bus_header_decode(&header, r, "", 0, &err), BUS_STATUS_PROTOCOL);
    T_EQ_INT(bus_header_decode(&header, r, "\x80\x00", 2, &err), BUS_STATUS_PROTOCOL);
    bus_writer_array(w, 2);
    bus_writer_str(w, "v");
    bus_writer_uint(w, 1);
    T_EQ_INT(s_decode_writer(w, &err), BUS_STATUS_PROTOCOL);
    T_CONTAINS(err.detail, "not a msgpack map");
    bus_writer_str(w, "header");
    T_EQ_INT(s_decode_writer(w, &err), BUS_STATUS_PROTOCOL);

    //  The baseline is good, so each failure below is the one field changed.
    fields_t good = {1, BUS_EVENT_ID_SIZE, "svc/n", "c1"};
    s_write_fields(w, &good);
    T_EQ_INT(s_decode_writer(w, &err), BUS_OK);

    fields_t f = good;
    f.id_size = -1;
    s_write_fields(w, &f);
    T_EQ_INT(s_decode_writer(w, &err), BUS_STATUS_PROTOCOL);
    T_CONTAINS(err.detail, "lacks id or src");
    f = good;
    f.src = NULL;
    s_write_fields(w, &f);
    T_EQ_INT(s_decode_writer(w, &err), BUS_STATUS_PROTOCOL);
    T_CONTAINS(err.detail, "lacks id or src");
    const int bad_sizes[] = {0, 15, 17, 32};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
        f = good;
        f.id_size = bad_sizes[i];
        s_write_fields(w, &f);
        T_EQ_INT(s_decode_writer(w, &err), BUS_STATUS_PROTOCOL);
        T_CONTAINS(err.detail, "'id'");
    }

    //  Versions: missing (0), newer.
    f = good;
    f.version = -1;
    s_write_fields(w, &f);
    T_EQ_INT(s_decode_writer(w, &err), BUS_STATUS_PROTOCOL);
    T_CONTAINS(err.detail, "version");
    f.version = BUS_ENVELOPE_VERSION + 1;
    s_write_fields(w, &f);
    T_EQ_INT(s_decode_writer(w, &err), BUS_STATUS_PROTOCOL);
    T_CONTAINS(err.detail, "version 2 not supported");

    //  Oversized strings: one byte past the buffer.
    char big[BUS_SRC_MAX + 1];
    memset(big, 'a', sizeof big - 1);
    big[BUS_SRC_MAX] = 0;
    f = good;
    f.src = big;
    s_write_fields(w, &f);
    T_EQ_INT(s_decode_writer(w, &err), BUS_STATUS_PROTOCOL);
    T_CONTAINS(err.detail, "'src'");
    big[BUS_SRC_MAX - 1] = 0; //  BUS_SRC_MAX - 1 chars: fits
    s_write_fields(w, &f);
    T_EQ_INT(s_decode_writer(w, &err), BUS_OK);
    f = good;
    big[BUS_CORR_MAX] = 0;
    f.corr = big;
    s_write_fields(w, &f);
    T_EQ_INT(s_decode_writer(w, &err), BUS_STATUS_PROTOCOL);
    T_CONTAINS(err.detail, "'corr'");
    big[BUS_CORR_MAX - 1] = 0;
    s_write_fields(w, &f);
    T_EQ_INT(s_decode_writer(w, &err), BUS_OK);

    //  Wrong types, one key at a time; an unknown key is fine.
    struct {
        const char *key;
        int kind; //  0 str, 1 negative int, 2 uint, 3 nil, 4 bin
        int expect;
    } cases[] = {
        {"v", 0, BUS_STATUS_PROTOCOL},
        {"v", 1, BUS_STATUS_PROTOCOL},
        {"id", 0, BUS_STATUS_PROTOCOL},
        {"id", 3, BUS_STATUS_PROTOCOL},
        {"ts", 0, BUS_STATUS_PROTOCOL},
        {"ts", 3, BUS_STATUS_PROTOCOL},
        {"src", 2, BUS_STATUS_PROTOCOL},
        {"src", 4, BUS_STATUS_PROTOCOL},
        {"seq", 1, BUS_STATUS_PROTOCOL},
        {"seq", 0, BUS_STATUS_PROTOCOL},
        {"ep", 1, BUS_STATUS_PROTOCOL},
        {"corr", 2, BUS_STATUS_PROTOCOL},
        {"other", 0, BUS_OK},
        {"other", 3, BUS_OK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        //  A complete good header, then the key under test with a bad
        //  value; for a key already read, the later bad value must win.
        uint8_t id[BUS_EVENT_ID_SIZE] = {0};
        bus_writer_t *w2 = bus_writer_new();
        bus_writer_map(w2, 7);
        bus_writer_str(w2, "v");
        bus_writer_uint(w2, 1);
        bus_writer_str(w2, "id");
        bus_writer_bin(w2, id, BUS_EVENT_ID_SIZE);
        bus_writer_str(w2, "ts");
        bus_writer_int(w2, 1);
        bus_writer_str(w2, "src");
        bus_writer_str(w2, "svc/n");
        bus_writer_str(w2, "seq");
        bus_writer_uint(w2, 1);
        bus_writer_str(w2, "ep");
        bus_writer_uint(w2, 1);
        bus_writer_str(w2, cases[i].key);
        switch (cases[i].kind) {
            case 0:
                bus_writer_str(w2, "x");
                break;
            case 1:
                bus_writer_int(w2, -1);
                break;
            case 2:
                bus_writer_uint(w2, 7);
                break;
            case 3:
                bus_writer_nil(w2);
                break;
            default:
                bus_writer_bin(w2, "ab", 2);
                break;
        }
        int rc = s_decode_writer(w2, &err);
        bus_writer_destroy(&w2);
        if (rc != cases[i].expect)
            fprintf(stderr, "# case %zu key=%s kind=%d\n", i, cases[i].key,
                    cases[i].kind);
        T_EQ_INT(rc, cases[i].expect);
        if (rc != BUS_OK)
            T_CONTAINS(err.detail, cases[i].key);
    }

    //  A string with a NUL byte inside is not a valid src.
    bus_writer_map(w, 4);
    bus_writer_str(w, "v");
    bus_writer_uint(w, 1);
    bus_writer_str(w, "id");
    bus_writer_bin(w, big, BUS_EVENT_ID_SIZE);
    bus_writer_str(w, "ts");
    bus_writer_int(w, 1);
    bus_writer_str(w, "src");
    bus_writer_strn(w, "a\0b", 3);
    T_EQ_INT(s_decode_writer(w, &err), BUS_STATUS_PROTOCOL);

    //  Trailing bytes after the map are refused by the reader.
    bus_header_t ok;
    bus_header_init(&ok, "svc/n");
    bus_header_write(&ok, w);
    bus_writer_nil(w);
    T_EQ_INT(s_decode_writer(w, &err), BUS_STATUS_PROTOCOL);

    bus_reader_destroy(&r);
    bus_writer_destroy(&w);
}

static int
s_compare_ids(const void *a, const void *b)
{
    return memcmp(a, b, BUS_EVENT_ID_SIZE);
}

static void
test_event_ids_unique(void)
{
    uint8_t(*ids)[BUS_EVENT_ID_SIZE] = malloc((size_t) ID_COUNT * BUS_EVENT_ID_SIZE);
    T_ASSERT(ids);
    for (int i = 0; i < ID_COUNT; i++)
        bus_event_id_new(ids[i]);
    qsort(ids, ID_COUNT, BUS_EVENT_ID_SIZE, s_compare_ids);
    int duplicates = 0;
    for (int i = 1; i < ID_COUNT; i++)
        if (memcmp(ids[i - 1], ids[i], BUS_EVENT_ID_SIZE) == 0)
            duplicates++;
    free(ids);
    T_EQ_INT(duplicates, 0);
}

static void
test_event_ids_after_fork(void)
{
    uint8_t before[BUS_EVENT_ID_SIZE], child[BUS_EVENT_ID_SIZE], after[BUS_EVENT_ID_SIZE];
    bus_event_id_new(before);
    int fds[2];
    T_ASSERT(pipe(fds) == 0);
    pid_t pid = fork();
    T_ASSERT(pid >= 0);
    if (pid == 0) {
        uint8_t id[BUS_EVENT_ID_SIZE];
        bus_event_id_new(id);
        ssize_t n = write(fds[1], id, sizeof id);
        _exit(n == (ssize_t) sizeof id ? 0 : 1);
    }
    close(fds[1]);
    ssize_t got = read(fds[0], child, sizeof child);
    close(fds[0]);
    int status = 0;
    T_ASSERT(waitpid(pid, &status, 0) == pid);
    T_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    T_EQ_INT(got, BUS_EVENT_ID_SIZE);
    bus_event_id_new(after);
    T_ASSERT(memcmp(child, before, BUS_EVENT_ID_SIZE) != 0);
    T_ASSERT(memcmp(child, after, BUS_EVENT_ID_SIZE) != 0);
    //  The child re-seeded: its per-process prefix differs from ours.
    T_ASSERT(memcmp(child, after, 8) != 0);
    T_ASSERT(memcmp(before, after, 8) == 0);
}

static void
test_event_id_str(void)
{
    uint8_t id[BUS_EVENT_ID_SIZE];
    for (int i = 0; i < BUS_EVENT_ID_SIZE; i++)
        id[i] = (uint8_t) (i * 17);
    char text[37];
    memset(text, '#', sizeof text);
    bus_event_id_str(id, text);
    T_EQ_STR(text, "00112233-4455-6677-8899-aabbccddeeff");
    T_EQ_INT(strlen(text), 36);
    memset(id, 0xff, sizeof id);
    bus_event_id_str(id, text);
    T_EQ_STR(text, "ffffffff-ffff-ffff-ffff-ffffffffffff");
}

//  A bound and a connected PAIR socket on a fresh inproc endpoint.
static void
s_pair(zsock_t **server, zsock_t **client)
{
    static int counter;
    char endpoint[64];
    snprintf(endpoint, sizeof endpoint, "inproc://bus_envelope_test-%d", ++counter);
    *server = zsock_new_pair(NULL);
    *client = zsock_new_pair(NULL);
    assert(*server && *client);
    int rc = zsock_bind(*server, "%s", endpoint);
    assert(rc == 0);
    rc = zsock_connect(*client, "%s", endpoint);
    assert(rc == 0);
    (void) rc;
}

//  Blocks up to a second for input on socket.
static bool
s_wait_input(zsock_t *socket)
{
    zmq_pollitem_t item = {zsock_resolve(socket), 0, ZMQ_POLLIN, 0};
    return zmq_poll(&item, 1, 1000) == 1;
}

static void
test_send_recv(void)
{
    zsock_t *in, *out;
    s_pair(&in, &out);
    bus_writer_t *scratch = bus_writer_new();
    bus_event_buf_t *buf = bus_event_buf_new();
    bus_event_t event;
    bus_error_t err;

    T_EQ_INT(bus_event_recv(zsock_resolve(in), buf, &event, &err),
             BUS_STATUS_UNAVAILABLE);

    bus_header_t header;
    bus_header_init(&header, "agent/n2");
    header.seq = 9;
    header.epoch = 77;
    snprintf(header.corr, sizeof header.corr, "corr-1");
    T_EQ_INT(
        bus_event_send(zsock_resolve(out), "kernel.started", &header, "\x80", 1, scratch),
        0);
    //  An empty body travels as an empty frame.
    T_EQ_INT(
        bus_event_send(zsock_resolve(out), "kernel.empty", &header, NULL, 0, scratch), 0);
    //  A pre-encoded header (the outbox path).
    bus_writer_t *pre = bus_writer_new();
    bus_header_write(&header, pre);
    T_EQ_INT(bus_event_send_raw(zsock_resolve(out), "kernel.raw", bus_writer_data(pre),
                                bus_writer_size(pre), "\x81\xa1k\x01", 4),
             0);
    bus_writer_destroy(&pre);

    T_ASSERT(s_wait_input(in));
    T_EQ_INT(bus_event_recv(zsock_resolve(in), buf, &event, &err), BUS_OK);
    T_EQ_STR(event.topic, "kernel.started");
    T_EQ_STR(event.header.src, "agent/n2");
    T_EQ_INT(event.header.seq, 9);
    T_EQ_INT(event.header.epoch, 77);
    T_EQ_STR(event.header.corr, "corr-1");
    T_EQ_INT(event.header.ts, header.ts);
    T_ASSERT(memcmp(event.header.id, header.id, BUS_EVENT_ID_SIZE) == 0);
    T_EQ_INT(event.body_size, 1);
    T_ASSERT(memcmp(event.body, "\x80", 1) == 0);

    T_ASSERT(s_wait_input(in));
    T_EQ_INT(bus_event_recv(zsock_resolve(in), buf, &event, &err), BUS_OK);
    T_EQ_STR(event.topic, "kernel.empty");
    T_EQ_INT(event.body_size, 0);

    T_ASSERT(s_wait_input(in));
    T_EQ_INT(bus_event_recv(zsock_resolve(in), buf, &event, &err), BUS_OK);
    T_EQ_STR(event.topic, "kernel.raw");
    T_EQ_INT(event.body_size, 4);
    T_ASSERT(memcmp(event.body, "\x81\xa1k\x01", 4) == 0);
    T_EQ_INT(bus_event_recv(zsock_resolve(in), buf, &event, &err),
             BUS_STATUS_UNAVAILABLE);

    bus_event_buf_destroy(&buf);
    bus_event_buf_destroy(&buf);
    T_ASSERT(buf == NULL);
    bus_writer_destroy(&scratch);
    zsock_destroy(&in);
    zsock_destroy(&out);
}

//  Sends count frames: "t", then a good header, then "b" for the rest.
static void
s_send_frames(void *socket, int count, bus_writer_t *header)
{
    for (int i = 0; i < count; i++) {
        int flags = i + 1 < count ? ZMQ_SNDMORE : 0;
        if (i == 0)
            zmq_send(socket, "t.x", 3, flags);
        else if (i == 1)
            zmq_send(socket, bus_writer_data(header), bus_writer_size(header), flags);
        else
            zmq_send(socket, "b", 1, flags);
    }
}

static void
test_recv_rejects_frame_counts(void)
{
    zsock_t *in, *out;
    s_pair(&in, &out);
    void *raw = zsock_resolve(out);
    bus_writer_t *scratch = bus_writer_new();
    bus_event_buf_t *buf = bus_event_buf_new();
    bus_header_t header;
    bus_header_init(&header, "svc/n");
    bus_header_write(&header, scratch);
    bus_event_t event;
    bus_error_t err;

    s_send_frames(raw, 2, scratch);
    s_send_frames(raw, 4, scratch);
    s_send_frames(raw, 1, scratch);
    s_send_frames(raw, 7, scratch);
    s_send_frames(raw, 3, scratch);
    const int expect_frames[] = {2, 4, 1, 7};
    for (int i = 0; i < 4; i++) {
        T_ASSERT(s_wait_input(in));
        memset(&err, 0, sizeof err);
        T_EQ_INT(bus_event_recv(zsock_resolve(in), buf, &event, &err),
                 BUS_STATUS_PROTOCOL);
        char want[64];
        snprintf(want, sizeof want, "event has %d frames", expect_frames[i]);
        T_CONTAINS(err.detail, want);
    }
    //  Each bad message was consumed whole: the good one is next.
    T_ASSERT(s_wait_input(in));
    T_EQ_INT(bus_event_recv(zsock_resolve(in), buf, &event, &err), BUS_OK);
    T_EQ_STR(event.topic, "t.x");
    T_EQ_INT(event.body_size, 1);
    T_EQ_INT(bus_event_recv(zsock_resolve(in), buf, &event, &err),
             BUS_STATUS_UNAVAILABLE);

    //  Three frames with a bad header or topic are protocol errors too.
    zmq_send(raw, "t.y", 3, ZMQ_SNDMORE);
    zmq_send(raw, "\x90", 1, ZMQ_SNDMORE);
    zmq_send(raw, "", 0, 0);
    T_ASSERT(s_wait_input(in));
    T_EQ_INT(bus_event_recv(zsock_resolve(in), buf, &event, &err), BUS_STATUS_PROTOCOL);
    T_EQ_INT(bus_event_send(raw, "", &header, NULL, 0, scratch), 0);
    T_ASSERT(s_wait_input(in));
    T_EQ_INT(bus_event_recv(zsock_resolve(in), buf, &event, &err), BUS_STATUS_PROTOCOL);
    T_CONTAINS(err.detail, "topic");

    bus_event_buf_destroy(&buf);
    bus_writer_destroy(&scratch);
    zsock_destroy(&in);
    zsock_destroy(&out);
}

static void
test_parse_rejects_topics(void)
{
    bus_writer_t *w = bus_writer_new();
    bus_reader_t *r = bus_reader_new();
    bus_header_t header;
    bus_header_init(&header, "svc/n");
    bus_header_write(&header, w);
    const void *h = bus_writer_data(w);
    size_t hs = bus_writer_size(w);
    bus_event_t event;
    bus_error_t err;

    T_EQ_INT(bus_event_parse(&event, r, "a.b", 3, h, hs, "xy", 2, &err), BUS_OK);
    T_EQ_STR(event.topic, "a.b");
    T_EQ_INT(event.body_size, 2);
    T_EQ_STR(event.header.src, "svc/n");

    //  Empty, binary and over-long topics.
    T_EQ_INT(bus_event_parse(&event, r, "", 0, h, hs, NULL, 0, &err),
             BUS_STATUS_PROTOCOL);
    T_CONTAINS(err.detail, "topic is empty");
    T_EQ_INT(bus_event_parse(&event, r, "a\0b", 3, h, hs, NULL, 0, &err),
             BUS_STATUS_PROTOCOL);
    char topic[BUS_TOPIC_MAX];
    memset(topic, 't', sizeof topic);
    T_EQ_INT(bus_event_parse(&event, r, topic, BUS_TOPIC_MAX, h, hs, NULL, 0, &err),
             BUS_STATUS_PROTOCOL);
    T_EQ_INT(bus_event_parse(&event, r, topic, BUS_TOPIC_MAX - 1, h, hs, NULL, 0, &err),
             BUS_OK);
    T_EQ_INT(strlen(event.topic), BUS_TOPIC_MAX - 1);

    //  A header larger than any real one is refused before parsing.
    uint8_t *big = calloc(1, BUS_HEADER_MAX + 1);
    T_ASSERT(big);
    T_EQ_INT(bus_event_parse(&event, r, "a", 1, big, BUS_HEADER_MAX + 1, NULL, 0, &err),
             BUS_STATUS_PROTOCOL);
    T_CONTAINS(err.detail, "too large");
    free(big);

    bus_reader_destroy(&r);
    bus_writer_destroy(&w);
}

int
main(void)
{
    //  Before any zmq context exists, so the fork copies no I/O threads.
    T_RUN(test_event_ids_after_fork);
    T_RUN(test_header_round_trip);
    T_RUN(test_decode_rejects);
    T_RUN(test_event_ids_unique);
    T_RUN(test_event_id_str);
    T_RUN(test_send_recv);
    T_RUN(test_recv_rejects_frame_counts);
    T_RUN(test_parse_rejects_topics);
    zsys_shutdown();
    return T_DONE();
}
