//  GENERATED FROM proto/wsproxy.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_wsproxy - codecs of the wsproxy domain

    For each struct: file-static check, write, read and print helpers that
    nested values reuse, then the public functions of proto_wsproxy.h built on
    them. Reading and printing go through the shared runtime in proto.c.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

//  ---------------------------------------------------------------------------
//  wsproxy.close request

static bool
s_close_req_check(const proto_wsproxy_close_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "session_id", self->session_id, PROTO_REQUIRED, 64))
        return false;
    return true;
}

static void
s_close_req_write(const proto_wsproxy_close_req_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    proto_write_str(writer, "session_id", self->session_id);
}

static void
s_close_req_read(proto_wsproxy_close_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "session_id", PROTO_REQUIRED, 64, &self->session_id);
}

static void
s_close_req_print(const proto_wsproxy_close_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "session_id", self->session_id);
}

void
proto_wsproxy_close_req_init(proto_wsproxy_close_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_wsproxy_close_req_clear(proto_wsproxy_close_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_wsproxy_close_req_check(const proto_wsproxy_close_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "wsproxy.close request", err);
    return s_close_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_wsproxy_close_req_write(const proto_wsproxy_close_req_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_wsproxy_close_req_check(self, NULL) != BUS_OK)
        return -1;
    s_close_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_wsproxy_close_req_writer(const proto_wsproxy_close_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_wsproxy_close_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "wsproxy.close request: out of memory");
        return NULL;
    }
    s_close_req_write(self, writer);
    return writer;
}

zframe_t *
proto_wsproxy_close_req_encode(const proto_wsproxy_close_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_wsproxy_close_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_wsproxy_close_req_read(proto_wsproxy_close_req_t *self,
                             const bus_value_t *map,
                             bus_error_t *err)
{
    proto_in_t in;
    proto_wsproxy_close_req_init(self);
    proto_in_init(&in, "wsproxy.close request", map, &self->owned_, err);
    s_close_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_wsproxy_close_req_clear(self);
    return in.status;
}

int
proto_wsproxy_close_req_decode(proto_wsproxy_close_req_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_wsproxy_close_req_read(self, map, err);
}

char *
proto_wsproxy_close_req_print(const proto_wsproxy_close_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_close_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  wsproxy.close reply

static bool
s_close_rep_check(const proto_wsproxy_close_rep_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_close_rep_write(const proto_wsproxy_close_rep_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 2);
    proto_write_uint(writer, "routes", self->routes);
    proto_write_uint(writer, "connections", self->connections);
}

static void
s_close_rep_read(proto_wsproxy_close_rep_t *self, proto_in_t *in)
{
    proto_read_uint(in, "routes", 0, UINT64_MAX, &self->routes);
    proto_read_uint(in, "connections", 0, UINT64_MAX, &self->connections);
}

static void
s_close_rep_print(const proto_wsproxy_close_rep_t *self, proto_text_t *text)
{
    proto_print_uint(text, "routes", self->routes);
    proto_print_uint(text, "connections", self->connections);
}

void
proto_wsproxy_close_rep_init(proto_wsproxy_close_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_wsproxy_close_rep_clear(proto_wsproxy_close_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_wsproxy_close_rep_check(const proto_wsproxy_close_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "wsproxy.close reply", err);
    return s_close_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_wsproxy_close_rep_write(const proto_wsproxy_close_rep_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_wsproxy_close_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_close_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_wsproxy_close_rep_encode(const proto_wsproxy_close_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_wsproxy_close_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_wsproxy_close_rep_read(proto_wsproxy_close_rep_t *self,
                             const bus_value_t *map,
                             bus_error_t *err)
{
    proto_in_t in;
    proto_wsproxy_close_rep_init(self);
    proto_in_init(&in, "wsproxy.close reply", map, &self->owned_, err);
    s_close_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_wsproxy_close_rep_clear(self);
    return in.status;
}

int
proto_wsproxy_close_rep_decode(proto_wsproxy_close_rep_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_wsproxy_close_rep_read(self, map, err);
}

char *
proto_wsproxy_close_rep_print(const proto_wsproxy_close_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_close_rep_print(self, &text);
    return proto_text_finish(&text);
}
