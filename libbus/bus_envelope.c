/*  =========================================================================
    bus_envelope - encode, send, receive and parse event frames

    Sending and receiving use zmq_msg_t on the raw socket rather than
    zmsg/zframe: the event path is the hottest loop of the bus and must not
    allocate per message.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <sys/random.h> //  getrandom for the event id prefix

struct _bus_event_buf_t {
    zmq_msg_t frames[3];
    bus_reader_t *reader;
};

static uint64_t s_id_prefix;
static uint64_t s_id_counter;
static pid_t s_id_pid;

void
bus_event_id_new(uint8_t id[BUS_EVENT_ID_SIZE])
{
    //  A forked child must not repeat its parent's ids: re-seed on a new pid.
    pid_t pid = getpid();
    if (s_id_pid != pid) {
        uint64_t seed = 0;
        if (getrandom(&seed, sizeof seed, 0) != (ssize_t) sizeof seed)
            seed = (uint64_t) bus_clock_wall_us() ^ ((uint64_t) pid << 32);
        s_id_prefix = seed;
        s_id_counter = 0;
        s_id_pid = pid;
    }
    uint64_t n = __atomic_add_fetch(&s_id_counter, 1, __ATOMIC_RELAXED);
    for (int i = 0; i < 8; i++) {
        id[i] = (uint8_t) (s_id_prefix >> (56 - 8 * i));
        id[8 + i] = (uint8_t) (n >> (56 - 8 * i));
    }
}

void
bus_event_id_str(const uint8_t id[BUS_EVENT_ID_SIZE], char out[37])
{
    static const char hex[] = "0123456789abcdef";
    size_t pos = 0;
    for (int i = 0; i < BUS_EVENT_ID_SIZE; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out[pos++] = '-';
        out[pos++] = hex[id[i] >> 4];
        out[pos++] = hex[id[i] & 15];
    }
    out[pos] = 0;
}

void
bus_header_init(bus_header_t *self, const char *src)
{
    memset(self, 0, sizeof *self);
    self->version = BUS_ENVELOPE_VERSION;
    bus_event_id_new(self->id);
    self->ts = bus_clock_bus_us();
    snprintf(self->src, sizeof self->src, "%s", src ? src : "");
}

void
bus_header_write(const bus_header_t *self, bus_writer_t *writer)
{
    bool durable = self->seq != 0;
    bool has_corr = self->corr[0] != 0;
    bus_writer_map(writer, 4 + (durable ? 2 : 0) + (has_corr ? 1 : 0));
    bus_writer_str(writer, "v");
    bus_writer_uint(writer, self->version);
    bus_writer_str(writer, "id");
    bus_writer_bin(writer, self->id, BUS_EVENT_ID_SIZE);
    bus_writer_str(writer, "ts");
    bus_writer_int(writer, self->ts);
    bus_writer_str(writer, "src");
    bus_writer_str(writer, self->src);
    if (durable) {
        bus_writer_str(writer, "seq");
        bus_writer_uint(writer, self->seq);
        bus_writer_str(writer, "ep");
        bus_writer_uint(writer, self->epoch);
    }
    if (has_corr) {
        bus_writer_str(writer, "corr");
        bus_writer_str(writer, self->corr);
    }
}

//  Copies a string value into a fixed buffer; false if it does not fit.
static bool
s_copy_str(const bus_value_t *value, char *out, size_t out_size)
{
    const char *ptr;
    size_t len;
    if (!bus_value_get_str(value, &ptr, &len) || len >= out_size || memchr(ptr, 0, len))
        return false;
    memcpy(out, ptr, len);
    out[len] = 0;
    return true;
}

int
bus_header_decode(bus_header_t *self,
                  bus_reader_t *reader,
                  const void *data,
                  size_t size,
                  bus_error_t *err)
{
    memset(self, 0, sizeof *self);
    const bus_value_t *map = bus_reader_parse(reader, data, size);
    if (!map || bus_value_type(map) != BUS_VALUE_MAP)
        return bus_error_set(err, BUS_STATUS_PROTOCOL,
                             "event header is not a msgpack map");
    bool have_id = false, have_src = false;
    for (uint32_t i = 0; i < bus_value_count(map); i++) {
        const bus_value_t *key = bus_value_map_key(map, i);
        const bus_value_t *value = bus_value_map_value(map, i);
        bool ok = true;
        if (bus_value_str_is(key, "v"))
            ok = bus_value_get_uint(value, &self->version);
        else if (bus_value_str_is(key, "id")) {
            const void *bin;
            size_t len;
            ok = bus_value_get_bin(value, &bin, &len) && len == BUS_EVENT_ID_SIZE;
            if (ok)
                memcpy(self->id, bin, BUS_EVENT_ID_SIZE);
            have_id = ok;
        } else if (bus_value_str_is(key, "ts"))
            ok = bus_value_get_int(value, &self->ts);
        else if (bus_value_str_is(key, "src"))
            ok = have_src = s_copy_str(value, self->src, sizeof self->src);
        else if (bus_value_str_is(key, "seq"))
            ok = bus_value_get_uint(value, &self->seq);
        else if (bus_value_str_is(key, "ep"))
            ok = bus_value_get_uint(value, &self->epoch);
        else if (bus_value_str_is(key, "corr"))
            ok = s_copy_str(value, self->corr, sizeof self->corr);
        if (!ok) {
            const char *name = "?";
            size_t len = 1;
            bus_value_get_str(key, &name, &len);
            return bus_error_set(err, BUS_STATUS_PROTOCOL,
                                 "event header field '%.*s' is invalid",
                                 (int) (len > 32 ? 32 : len), name);
        }
    }
    if (self->version == 0 || self->version > BUS_ENVELOPE_VERSION)
        return bus_error_set(err, BUS_STATUS_PROTOCOL,
                             "event envelope version %" PRIu64 " not supported",
                             self->version);
    if (!have_id || !have_src)
        return bus_error_set(err, BUS_STATUS_PROTOCOL, "event header lacks id or src");
    return BUS_OK;
}

int
bus_event_send_raw(void *socket,
                   const char *topic,
                   const void *header,
                   size_t header_size,
                   const void *body,
                   size_t body_size)
{
    //  ZeroMQ sends multipart messages atomically: if the first frame is
    //  accepted the rest are too, so a full queue never leaves half an event.
    if (zmq_send(socket, topic, strlen(topic), ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0)
        return -1;
    if (zmq_send(socket, header, header_size, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0)
        return -1;
    if (zmq_send(socket, body_size ? body : "", body_size, ZMQ_DONTWAIT) < 0)
        return -1;
    return 0;
}

int
bus_event_send(void *socket,
               const char *topic,
               const bus_header_t *header,
               const void *body,
               size_t body_size,
               bus_writer_t *scratch)
{
    bus_writer_reset(scratch);
    bus_header_write(header, scratch);
    return bus_event_send_raw(socket, topic, bus_writer_data(scratch),
                              bus_writer_size(scratch), body, body_size);
}

bus_event_buf_t *
bus_event_buf_new(void)
{
    bus_event_buf_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    for (int i = 0; i < 3; i++)
        zmq_msg_init(&self->frames[i]);
    self->reader = bus_reader_new();
    if (!self->reader)
        bus_event_buf_destroy(&self);
    return self;
}

void
bus_event_buf_destroy(bus_event_buf_t **self_p)
{
    assert(self_p);
    bus_event_buf_t *self = *self_p;
    if (self) {
        for (int i = 0; i < 3; i++)
            zmq_msg_close(&self->frames[i]);
        bus_reader_destroy(&self->reader);
        free(self);
        *self_p = NULL;
    }
}

int
bus_event_parse(bus_event_t *event,
                bus_reader_t *reader,
                const char *topic,
                size_t topic_size,
                const void *header,
                size_t header_size,
                const void *body,
                size_t body_size,
                bus_error_t *err)
{
    if (topic_size == 0 || topic_size >= BUS_TOPIC_MAX || memchr(topic, 0, topic_size))
        return bus_error_set(err, BUS_STATUS_PROTOCOL,
                             "event topic is empty, too long or binary");
    memcpy(event->topic, topic, topic_size);
    event->topic[topic_size] = 0;
    if (header_size > BUS_HEADER_MAX)
        return bus_error_set(err, BUS_STATUS_PROTOCOL, "event header too large");
    int rc = bus_header_decode(&event->header, reader, header, header_size, err);
    if (rc != BUS_OK)
        return rc;
    event->body = body;
    event->body_size = body_size;
    return BUS_OK;
}

int
bus_event_recv(void *socket, bus_event_buf_t *buf, bus_event_t *event, bus_error_t *err)
{
    int parts = 0;
    bool more = true;
    while (more) {
        //  Frames beyond the third are read into the last slot and discarded.
        zmq_msg_t *frame = &buf->frames[parts < 3 ? parts : 2];
        if (zmq_msg_recv(frame, socket, parts == 0 ? ZMQ_DONTWAIT : 0) < 0)
            return parts == 0
                       ? BUS_STATUS_UNAVAILABLE
                       : bus_error_set(err, BUS_STATUS_PROTOCOL, "event truncated");
        more = zmq_msg_more(frame);
        parts++;
    }
    if (parts != 3)
        return bus_error_set(err, BUS_STATUS_PROTOCOL, "event has %d frames, expected 3",
                             parts);
    return bus_event_parse(event, buf->reader, zmq_msg_data(&buf->frames[0]),
                           zmq_msg_size(&buf->frames[0]), zmq_msg_data(&buf->frames[1]),
                           zmq_msg_size(&buf->frames[1]), zmq_msg_data(&buf->frames[2]),
                           zmq_msg_size(&buf->frames[2]), err);
}
