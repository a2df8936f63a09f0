//  GENERATED FROM proto/bus.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_bus - codecs of the bus domain

    For each struct: file-static check, write, read and print helpers that
    nested values reuse, then the public functions of proto_bus.h built on
    them. Reading and printing go through the shared runtime in proto.c.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

//  ---------------------------------------------------------------------------
//  bus.frame

static bool
s_frame_check(const proto_bus_frame_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "topic", self->topic, PROTO_REQUIRED, 256))
        return false;
    if (!proto_check_bytes(ck, "header", self->header, self->header_size, PROTO_REQUIRED,
                           4096))
        return false;
    if (!proto_check_bytes(ck, "body", self->body, self->body_size, 0, 16777216))
        return false;
    return true;
}

static void
s_frame_write(const proto_bus_frame_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->body != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "topic", self->topic);
    proto_write_bytes(writer, "header", self->header, self->header_size);
    if (self->body != NULL)
        proto_write_bytes(writer, "body", self->body, self->body_size);
}

static void
s_frame_read(proto_bus_frame_t *self, proto_in_t *in)
{
    proto_read_str(in, "topic", PROTO_REQUIRED, 256, &self->topic);
    proto_read_bytes(in, "header", PROTO_REQUIRED, 4096, &self->header,
                     &self->header_size);
    proto_read_bytes(in, "body", 0, 16777216, &self->body, &self->body_size);
}

static void
s_frame_print(const proto_bus_frame_t *self, proto_text_t *text)
{
    proto_print_str(text, "topic", self->topic);
    proto_print_bytes(text, "header", self->header, self->header_size);
    proto_print_bytes(text, "body", self->body, self->body_size);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_frame_item(void *item, proto_in_t *in)
{
    proto_bus_frame_init(item);
    s_frame_read(item, in);
}

void
proto_bus_frame_init(proto_bus_frame_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_bus_frame_clear(proto_bus_frame_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_bus_frame_check(const proto_bus_frame_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "bus.frame", err);
    return s_frame_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_bus_frame_write(const proto_bus_frame_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_bus_frame_check(self, NULL) != BUS_OK)
        return -1;
    s_frame_write(self, writer);
    return 0;
}

zframe_t *
proto_bus_frame_encode(const proto_bus_frame_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_bus_frame_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_bus_frame_read(proto_bus_frame_t *self, const bus_value_t *map, bus_error_t *err)
{
    proto_in_t in;
    proto_bus_frame_init(self);
    proto_in_init(&in, "bus.frame", map, &self->owned_, err);
    s_frame_read(self, &in);
    if (in.status != BUS_OK)
        proto_bus_frame_clear(self);
    return in.status;
}

int
proto_bus_frame_decode(proto_bus_frame_t *self,
                       const void *data,
                       size_t size,
                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_bus_frame_read(self, map, err);
}

char *
proto_bus_frame_print(const proto_bus_frame_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_frame_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  bus.replay request

static bool
s_replay_req_check(const proto_bus_replay_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "domain", self->domain, PROTO_REQUIRED, 64))
        return false;
    return true;
}

static void
s_replay_req_write(const proto_bus_replay_req_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 4);
    proto_write_str(writer, "domain", self->domain);
    proto_write_uint(writer, "epoch", self->epoch);
    proto_write_uint(writer, "from_seq", self->from_seq);
    proto_write_uint(writer, "max", self->max);
}

static void
s_replay_req_read(proto_bus_replay_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "domain", PROTO_REQUIRED, 64, &self->domain);
    proto_read_uint(in, "epoch", 0, UINT64_MAX, &self->epoch);
    proto_read_uint(in, "from_seq", PROTO_REQUIRED, UINT64_MAX, &self->from_seq);
    proto_read_uint(in, "max", 0, UINT64_MAX, &self->max);
}

static void
s_replay_req_print(const proto_bus_replay_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "domain", self->domain);
    proto_print_uint(text, "epoch", self->epoch);
    proto_print_uint(text, "from_seq", self->from_seq);
    proto_print_uint(text, "max", self->max);
}

void
proto_bus_replay_req_init(proto_bus_replay_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_bus_replay_req_clear(proto_bus_replay_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_bus_replay_req_check(const proto_bus_replay_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "bus.replay request", err);
    return s_replay_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_bus_replay_req_write(const proto_bus_replay_req_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_bus_replay_req_check(self, NULL) != BUS_OK)
        return -1;
    s_replay_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_bus_replay_req_writer(const proto_bus_replay_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_bus_replay_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "bus.replay request: out of memory");
        return NULL;
    }
    s_replay_req_write(self, writer);
    return writer;
}

zframe_t *
proto_bus_replay_req_encode(const proto_bus_replay_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_bus_replay_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_bus_replay_req_read(proto_bus_replay_req_t *self,
                          const bus_value_t *map,
                          bus_error_t *err)
{
    proto_in_t in;
    proto_bus_replay_req_init(self);
    proto_in_init(&in, "bus.replay request", map, &self->owned_, err);
    s_replay_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_bus_replay_req_clear(self);
    return in.status;
}

int
proto_bus_replay_req_decode(proto_bus_replay_req_t *self,
                            const void *data,
                            size_t size,
                            bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_bus_replay_req_read(self, map, err);
}

char *
proto_bus_replay_req_print(const proto_bus_replay_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_replay_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  bus.replay reply

static bool
s_replay_rep_check(const proto_bus_replay_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "domain", self->domain, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_count(ck, "events", self->events, self->events_count, 10000))
        return false;
    for (size_t i = 0; i < self->events_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "events", i);
        if (!s_frame_check(&self->events[i], &item))
            return false;
    }
    return true;
}

static void
s_replay_rep_write(const proto_bus_replay_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 4;
    pairs += self->events_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "domain", self->domain);
    proto_write_uint(writer, "epoch", self->epoch);
    proto_write_uint(writer, "head", self->head);
    proto_write_uint(writer, "first_retained", self->first_retained);
    if (self->events_count > 0) {
        proto_write_array(writer, "events", self->events_count);
        for (size_t i = 0; i < self->events_count; i++)
            s_frame_write(&self->events[i], writer);
    }
}

static void
s_replay_rep_read(proto_bus_replay_rep_t *self, proto_in_t *in)
{
    proto_read_str(in, "domain", PROTO_REQUIRED, 64, &self->domain);
    proto_read_uint(in, "epoch", 0, UINT64_MAX, &self->epoch);
    proto_read_uint(in, "head", 0, UINT64_MAX, &self->head);
    proto_read_uint(in, "first_retained", 0, UINT64_MAX, &self->first_retained);
    self->events = proto_read_list(in, "events", 0, 10000, sizeof *self->events,
                                   s_frame_item, &self->events_count);
}

static void
s_replay_rep_print(const proto_bus_replay_rep_t *self, proto_text_t *text)
{
    proto_print_str(text, "domain", self->domain);
    proto_print_uint(text, "epoch", self->epoch);
    proto_print_uint(text, "head", self->head);
    proto_print_uint(text, "first_retained", self->first_retained);
    proto_print_count(text, "events", self->events_count);
}

void
proto_bus_replay_rep_init(proto_bus_replay_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_bus_replay_rep_clear(proto_bus_replay_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_bus_replay_rep_check(const proto_bus_replay_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "bus.replay reply", err);
    return s_replay_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_bus_replay_rep_write(const proto_bus_replay_rep_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_bus_replay_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_replay_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_bus_replay_rep_encode(const proto_bus_replay_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_bus_replay_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_bus_replay_rep_read(proto_bus_replay_rep_t *self,
                          const bus_value_t *map,
                          bus_error_t *err)
{
    proto_in_t in;
    proto_bus_replay_rep_init(self);
    proto_in_init(&in, "bus.replay reply", map, &self->owned_, err);
    s_replay_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_bus_replay_rep_clear(self);
    return in.status;
}

int
proto_bus_replay_rep_decode(proto_bus_replay_rep_t *self,
                            const void *data,
                            size_t size,
                            bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_bus_replay_rep_read(self, map, err);
}

char *
proto_bus_replay_rep_print(const proto_bus_replay_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_replay_rep_print(self, &text);
    return proto_text_finish(&text);
}
