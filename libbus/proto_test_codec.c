//  GENERATED FROM proto/test.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_test_codec - codecs of the test domain

    For each struct: file-static check, write, read and print helpers that
    nested values reuse, then the public functions of proto_test_codec.h built
    on them. Reading and printing go through the shared runtime in proto.c.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

//  ---------------------------------------------------------------------------
//  test.tick

static bool
s_tick_check(const proto_test_tick_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "text", self->text, 0, 4096))
        return false;
    if (!proto_check_map(ck, "labels", self->labels, self->labels_count, 64))
        return false;
    if (!proto_check_strs(ck, "tags", self->tags, self->tags_count, 64))
        return false;
    if (!proto_check_int(ck, "delta", self->delta, -1000000, 1000000))
        return false;
    return true;
}

static void
s_tick_write(const proto_test_tick_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 5;
    pairs += self->text != NULL;
    pairs += self->labels_count > 0;
    pairs += self->tags_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_uint(writer, "n", self->n);
    if (self->text != NULL)
        proto_write_str(writer, "text", self->text);
    if (self->labels_count > 0)
        proto_write_map(writer, "labels", self->labels, self->labels_count);
    if (self->tags_count > 0)
        proto_write_strs(writer, "tags", self->tags, self->tags_count);
    proto_write_uuid(writer, "id", self->id);
    proto_write_double(writer, "ratio", self->ratio);
    proto_write_bool(writer, "flag", self->flag);
    proto_write_int(writer, "delta", self->delta);
}

static void
s_tick_read(proto_test_tick_t *self, proto_in_t *in)
{
    proto_read_uint(in, "n", PROTO_REQUIRED, UINT64_MAX, &self->n);
    proto_read_str(in, "text", 0, 4096, &self->text);
    self->labels = proto_read_map(in, "labels", 0, 64, &self->labels_count);
    self->tags = proto_read_strs(in, "tags", 0, 64, &self->tags_count);
    proto_read_uuid(in, "id", 0, self->id);
    proto_read_double(in, "ratio", 0, &self->ratio);
    proto_read_bool(in, "flag", 0, &self->flag);
    proto_read_int(in, "delta", 0, -1000000, 1000000, &self->delta);
}

static void
s_tick_print(const proto_test_tick_t *self, proto_text_t *text)
{
    proto_print_uint(text, "n", self->n);
    proto_print_str(text, "text", self->text);
    proto_print_count(text, "labels", self->labels_count);
    proto_print_count(text, "tags", self->tags_count);
    proto_print_uuid(text, "id", self->id);
    proto_print_double(text, "ratio", self->ratio);
    proto_print_bool(text, "flag", self->flag);
    proto_print_int(text, "delta", self->delta);
}

void
proto_test_tick_init(proto_test_tick_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_test_tick_clear(proto_test_tick_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_test_tick_check(const proto_test_tick_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "test.tick", err);
    return s_tick_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_test_tick_write(const proto_test_tick_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_test_tick_check(self, NULL) != BUS_OK)
        return -1;
    s_tick_write(self, writer);
    return 0;
}

zframe_t *
proto_test_tick_encode(const proto_test_tick_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_test_tick_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_test_tick_read(proto_test_tick_t *self, const bus_value_t *map, bus_error_t *err)
{
    proto_in_t in;
    proto_test_tick_init(self);
    proto_in_init(&in, "test.tick", map, &self->owned_, err);
    s_tick_read(self, &in);
    if (in.status != BUS_OK)
        proto_test_tick_clear(self);
    return in.status;
}

int
proto_test_tick_decode(proto_test_tick_t *self,
                       const void *data,
                       size_t size,
                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_test_tick_read(self, map, err);
}

char *
proto_test_tick_print(const proto_test_tick_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_tick_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  test.note

static bool
s_note_check(const proto_test_note_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "text", self->text, PROTO_REQUIRED, PROTO_UNLIMITED))
        return false;
    return true;
}

static void
s_note_write(const proto_test_note_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    proto_write_str(writer, "text", self->text);
}

static void
s_note_read(proto_test_note_t *self, proto_in_t *in)
{
    proto_read_str(in, "text", PROTO_REQUIRED, PROTO_UNLIMITED, &self->text);
}

static void
s_note_print(const proto_test_note_t *self, proto_text_t *text)
{
    proto_print_str(text, "text", self->text);
}

void
proto_test_note_init(proto_test_note_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_test_note_clear(proto_test_note_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_test_note_check(const proto_test_note_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "test.note", err);
    return s_note_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_test_note_write(const proto_test_note_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_test_note_check(self, NULL) != BUS_OK)
        return -1;
    s_note_write(self, writer);
    return 0;
}

zframe_t *
proto_test_note_encode(const proto_test_note_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_test_note_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_test_note_read(proto_test_note_t *self, const bus_value_t *map, bus_error_t *err)
{
    proto_in_t in;
    proto_test_note_init(self);
    proto_in_init(&in, "test.note", map, &self->owned_, err);
    s_note_read(self, &in);
    if (in.status != BUS_OK)
        proto_test_note_clear(self);
    return in.status;
}

int
proto_test_note_decode(proto_test_note_t *self,
                       const void *data,
                       size_t size,
                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_test_note_read(self, map, err);
}

char *
proto_test_note_print(const proto_test_note_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_note_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  test.echo request

static bool
s_echo_req_check(const proto_test_echo_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "text", self->text, 0, PROTO_UNLIMITED))
        return false;
    return true;
}

static void
s_echo_req_write(const proto_test_echo_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->text != NULL;
    bus_writer_map(writer, pairs);
    proto_write_uint(writer, "n", self->n);
    if (self->text != NULL)
        proto_write_str(writer, "text", self->text);
}

static void
s_echo_req_read(proto_test_echo_req_t *self, proto_in_t *in)
{
    proto_read_uint(in, "n", PROTO_REQUIRED, UINT64_MAX, &self->n);
    proto_read_str(in, "text", 0, PROTO_UNLIMITED, &self->text);
}

static void
s_echo_req_print(const proto_test_echo_req_t *self, proto_text_t *text)
{
    proto_print_uint(text, "n", self->n);
    proto_print_str(text, "text", self->text);
}

void
proto_test_echo_req_init(proto_test_echo_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_test_echo_req_clear(proto_test_echo_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_test_echo_req_check(const proto_test_echo_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "test.echo request", err);
    return s_echo_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_test_echo_req_write(const proto_test_echo_req_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_test_echo_req_check(self, NULL) != BUS_OK)
        return -1;
    s_echo_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_test_echo_req_writer(const proto_test_echo_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_test_echo_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "test.echo request: out of memory");
        return NULL;
    }
    s_echo_req_write(self, writer);
    return writer;
}

zframe_t *
proto_test_echo_req_encode(const proto_test_echo_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_test_echo_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_test_echo_req_read(proto_test_echo_req_t *self,
                         const bus_value_t *map,
                         bus_error_t *err)
{
    proto_in_t in;
    proto_test_echo_req_init(self);
    proto_in_init(&in, "test.echo request", map, &self->owned_, err);
    s_echo_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_test_echo_req_clear(self);
    return in.status;
}

int
proto_test_echo_req_decode(proto_test_echo_req_t *self,
                           const void *data,
                           size_t size,
                           bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_test_echo_req_read(self, map, err);
}

char *
proto_test_echo_req_print(const proto_test_echo_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_echo_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  test.echo reply

static bool
s_echo_rep_check(const proto_test_echo_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "text", self->text, 0, 65536))
        return false;
    return true;
}

static void
s_echo_rep_write(const proto_test_echo_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->text != NULL;
    bus_writer_map(writer, pairs);
    proto_write_uint(writer, "n", self->n);
    if (self->text != NULL)
        proto_write_str(writer, "text", self->text);
}

static void
s_echo_rep_read(proto_test_echo_rep_t *self, proto_in_t *in)
{
    proto_read_uint(in, "n", PROTO_REQUIRED, UINT64_MAX, &self->n);
    proto_read_str(in, "text", 0, 65536, &self->text);
}

static void
s_echo_rep_print(const proto_test_echo_rep_t *self, proto_text_t *text)
{
    proto_print_uint(text, "n", self->n);
    proto_print_str(text, "text", self->text);
}

void
proto_test_echo_rep_init(proto_test_echo_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_test_echo_rep_clear(proto_test_echo_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_test_echo_rep_check(const proto_test_echo_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "test.echo reply", err);
    return s_echo_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_test_echo_rep_write(const proto_test_echo_rep_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_test_echo_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_echo_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_test_echo_rep_encode(const proto_test_echo_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_test_echo_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_test_echo_rep_read(proto_test_echo_rep_t *self,
                         const bus_value_t *map,
                         bus_error_t *err)
{
    proto_in_t in;
    proto_test_echo_rep_init(self);
    proto_in_init(&in, "test.echo reply", map, &self->owned_, err);
    s_echo_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_test_echo_rep_clear(self);
    return in.status;
}

int
proto_test_echo_rep_decode(proto_test_echo_rep_t *self,
                           const void *data,
                           size_t size,
                           bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_test_echo_rep_read(self, map, err);
}

char *
proto_test_echo_rep_print(const proto_test_echo_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_echo_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  test.slow request

static bool
s_slow_req_check(const proto_test_slow_req_t *self, proto_check_t *ck)
{
    if (!proto_check_uint(ck, "delay_ms", self->delay_ms, 60000))
        return false;
    return true;
}

static void
s_slow_req_write(const proto_test_slow_req_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    proto_write_uint(writer, "delay_ms", self->delay_ms);
}

static void
s_slow_req_read(proto_test_slow_req_t *self, proto_in_t *in)
{
    proto_read_uint(in, "delay_ms", 0, 60000, &self->delay_ms);
}

static void
s_slow_req_print(const proto_test_slow_req_t *self, proto_text_t *text)
{
    proto_print_uint(text, "delay_ms", self->delay_ms);
}

void
proto_test_slow_req_init(proto_test_slow_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_test_slow_req_clear(proto_test_slow_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_test_slow_req_check(const proto_test_slow_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "test.slow request", err);
    return s_slow_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_test_slow_req_write(const proto_test_slow_req_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_test_slow_req_check(self, NULL) != BUS_OK)
        return -1;
    s_slow_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_test_slow_req_writer(const proto_test_slow_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_test_slow_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "test.slow request: out of memory");
        return NULL;
    }
    s_slow_req_write(self, writer);
    return writer;
}

zframe_t *
proto_test_slow_req_encode(const proto_test_slow_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_test_slow_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_test_slow_req_read(proto_test_slow_req_t *self,
                         const bus_value_t *map,
                         bus_error_t *err)
{
    proto_in_t in;
    proto_test_slow_req_init(self);
    proto_in_init(&in, "test.slow request", map, &self->owned_, err);
    s_slow_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_test_slow_req_clear(self);
    return in.status;
}

int
proto_test_slow_req_decode(proto_test_slow_req_t *self,
                           const void *data,
                           size_t size,
                           bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_test_slow_req_read(self, map, err);
}

char *
proto_test_slow_req_print(const proto_test_slow_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_slow_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  test.slow reply

static bool
s_slow_rep_check(const proto_test_slow_rep_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_slow_rep_write(const proto_test_slow_rep_t *self, bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_slow_rep_read(proto_test_slow_rep_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_slow_rep_print(const proto_test_slow_rep_t *self, proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_test_slow_rep_init(proto_test_slow_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_test_slow_rep_clear(proto_test_slow_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_test_slow_rep_check(const proto_test_slow_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "test.slow reply", err);
    return s_slow_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_test_slow_rep_write(const proto_test_slow_rep_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_test_slow_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_slow_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_test_slow_rep_encode(const proto_test_slow_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_test_slow_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_test_slow_rep_read(proto_test_slow_rep_t *self,
                         const bus_value_t *map,
                         bus_error_t *err)
{
    proto_in_t in;
    proto_test_slow_rep_init(self);
    proto_in_init(&in, "test.slow reply", map, &self->owned_, err);
    s_slow_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_test_slow_rep_clear(self);
    return in.status;
}

int
proto_test_slow_rep_decode(proto_test_slow_rep_t *self,
                           const void *data,
                           size_t size,
                           bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_test_slow_rep_read(self, map, err);
}

char *
proto_test_slow_rep_print(const proto_test_slow_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_slow_rep_print(self, &text);
    return proto_text_finish(&text);
}
