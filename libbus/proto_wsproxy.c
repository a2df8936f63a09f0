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
//  wsproxy.target

static bool
s_target_check(const proto_wsproxy_target_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "route_id", self->route_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "session_id", self->session_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "host", self->host, PROTO_REQUIRED, 255))
        return false;
    if (!proto_check_uint(ck, "port", self->port, 65535))
        return false;
    return true;
}

static void
s_target_write(const proto_wsproxy_target_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 4;
    pairs += self->session_id != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "route_id", self->route_id);
    if (self->session_id != NULL)
        proto_write_str(writer, "session_id", self->session_id);
    proto_write_str(writer, "host", self->host);
    proto_write_uint(writer, "port", self->port);
    proto_write_double(writer, "traffic_ratio", self->traffic_ratio);
}

static void
s_target_read(proto_wsproxy_target_t *self, proto_in_t *in)
{
    proto_read_str(in, "route_id", PROTO_REQUIRED, 64, &self->route_id);
    proto_read_str(in, "session_id", 0, 64, &self->session_id);
    proto_read_str(in, "host", PROTO_REQUIRED, 255, &self->host);
    proto_read_uint(in, "port", PROTO_REQUIRED, 65535, &self->port);
    proto_read_double(in, "traffic_ratio", 0, &self->traffic_ratio);
}

static void
s_target_print(const proto_wsproxy_target_t *self, proto_text_t *text)
{
    proto_print_str(text, "route_id", self->route_id);
    proto_print_str(text, "session_id", self->session_id);
    proto_print_str(text, "host", self->host);
    proto_print_uint(text, "port", self->port);
    proto_print_double(text, "traffic_ratio", self->traffic_ratio);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_target_item(void *item, proto_in_t *in)
{
    proto_wsproxy_target_init(item);
    s_target_read(item, in);
}

void
proto_wsproxy_target_init(proto_wsproxy_target_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->traffic_ratio = 1.0;
}

void
proto_wsproxy_target_clear(proto_wsproxy_target_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_wsproxy_target_check(const proto_wsproxy_target_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "wsproxy.target", err);
    return s_target_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_wsproxy_target_write(const proto_wsproxy_target_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_wsproxy_target_check(self, NULL) != BUS_OK)
        return -1;
    s_target_write(self, writer);
    return 0;
}

zframe_t *
proto_wsproxy_target_encode(const proto_wsproxy_target_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_wsproxy_target_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_wsproxy_target_read(proto_wsproxy_target_t *self,
                          const bus_value_t *map,
                          bus_error_t *err)
{
    proto_in_t in;
    proto_wsproxy_target_init(self);
    proto_in_init(&in, "wsproxy.target", map, &self->owned_, err);
    s_target_read(self, &in);
    if (in.status != BUS_OK)
        proto_wsproxy_target_clear(self);
    return in.status;
}

int
proto_wsproxy_target_decode(proto_wsproxy_target_t *self,
                            const void *data,
                            size_t size,
                            bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_wsproxy_target_read(self, map, err);
}

char *
proto_wsproxy_target_print(const proto_wsproxy_target_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_target_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint_requests

static bool
s_endpoint_requests_check(const proto_wsproxy_endpoint_requests_t *self,
                          proto_check_t *ck)
{
    if (!proto_check_str(ck, "endpoint_id", self->endpoint_id, PROTO_REQUIRED, 64))
        return false;
    return true;
}

static void
s_endpoint_requests_write(const proto_wsproxy_endpoint_requests_t *self,
                          bus_writer_t *writer)
{
    bus_writer_map(writer, 3);
    proto_write_str(writer, "endpoint_id", self->endpoint_id);
    proto_write_bool(writer, "found", self->found);
    proto_write_uint(writer, "requests", self->requests);
}

static void
s_endpoint_requests_read(proto_wsproxy_endpoint_requests_t *self, proto_in_t *in)
{
    proto_read_str(in, "endpoint_id", PROTO_REQUIRED, 64, &self->endpoint_id);
    proto_read_bool(in, "found", 0, &self->found);
    proto_read_uint(in, "requests", 0, UINT64_MAX, &self->requests);
}

static void
s_endpoint_requests_print(const proto_wsproxy_endpoint_requests_t *self,
                          proto_text_t *text)
{
    proto_print_str(text, "endpoint_id", self->endpoint_id);
    proto_print_bool(text, "found", self->found);
    proto_print_uint(text, "requests", self->requests);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_endpoint_requests_item(void *item, proto_in_t *in)
{
    proto_wsproxy_endpoint_requests_init(item);
    s_endpoint_requests_read(item, in);
}

void
proto_wsproxy_endpoint_requests_init(proto_wsproxy_endpoint_requests_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_wsproxy_endpoint_requests_clear(proto_wsproxy_endpoint_requests_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_wsproxy_endpoint_requests_check(const proto_wsproxy_endpoint_requests_t *self,
                                      bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "wsproxy.endpoint_requests", err);
    return s_endpoint_requests_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_wsproxy_endpoint_requests_write(const proto_wsproxy_endpoint_requests_t *self,
                                      bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_wsproxy_endpoint_requests_check(self, NULL) != BUS_OK)
        return -1;
    s_endpoint_requests_write(self, writer);
    return 0;
}

zframe_t *
proto_wsproxy_endpoint_requests_encode(const proto_wsproxy_endpoint_requests_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_wsproxy_endpoint_requests_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_wsproxy_endpoint_requests_read(proto_wsproxy_endpoint_requests_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err)
{
    proto_in_t in;
    proto_wsproxy_endpoint_requests_init(self);
    proto_in_init(&in, "wsproxy.endpoint_requests", map, &self->owned_, err);
    s_endpoint_requests_read(self, &in);
    if (in.status != BUS_OK)
        proto_wsproxy_endpoint_requests_clear(self);
    return in.status;
}

int
proto_wsproxy_endpoint_requests_decode(proto_wsproxy_endpoint_requests_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_wsproxy_endpoint_requests_read(self, map, err);
}

char *
proto_wsproxy_endpoint_requests_print(const proto_wsproxy_endpoint_requests_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_endpoint_requests_print(self, &text);
    return proto_text_finish(&text);
}

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

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint.set request

static bool
s_endpoint_set_req_check(const proto_wsproxy_endpoint_set_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "endpoint_id", self->endpoint_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "name", self->name, 0, 64))
        return false;
    if (!proto_check_count(ck, "targets", self->targets, self->targets_count, 256))
        return false;
    for (size_t i = 0; i < self->targets_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "targets", i);
        if (!s_target_check(&self->targets[i], &item))
            return false;
    }
    return true;
}

static void
s_endpoint_set_req_write(const proto_wsproxy_endpoint_set_req_t *self,
                         bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->name != NULL;
    pairs += self->targets_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "endpoint_id", self->endpoint_id);
    if (self->name != NULL)
        proto_write_str(writer, "name", self->name);
    proto_write_bool(writer, "open_to_public", self->open_to_public);
    if (self->targets_count > 0) {
        proto_write_array(writer, "targets", self->targets_count);
        for (size_t i = 0; i < self->targets_count; i++)
            s_target_write(&self->targets[i], writer);
    }
}

static void
s_endpoint_set_req_read(proto_wsproxy_endpoint_set_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "endpoint_id", PROTO_REQUIRED, 64, &self->endpoint_id);
    proto_read_str(in, "name", 0, 64, &self->name);
    proto_read_bool(in, "open_to_public", 0, &self->open_to_public);
    self->targets = proto_read_list(in, "targets", 0, 256, sizeof *self->targets,
                                    s_target_item, &self->targets_count);
}

static void
s_endpoint_set_req_print(const proto_wsproxy_endpoint_set_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "endpoint_id", self->endpoint_id);
    proto_print_str(text, "name", self->name);
    proto_print_bool(text, "open_to_public", self->open_to_public);
    proto_print_count(text, "targets", self->targets_count);
}

void
proto_wsproxy_endpoint_set_req_init(proto_wsproxy_endpoint_set_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_wsproxy_endpoint_set_req_clear(proto_wsproxy_endpoint_set_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_wsproxy_endpoint_set_req_check(const proto_wsproxy_endpoint_set_req_t *self,
                                     bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "wsproxy.endpoint.set request", err);
    return s_endpoint_set_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_wsproxy_endpoint_set_req_write(const proto_wsproxy_endpoint_set_req_t *self,
                                     bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_wsproxy_endpoint_set_req_check(self, NULL) != BUS_OK)
        return -1;
    s_endpoint_set_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_wsproxy_endpoint_set_req_writer(const proto_wsproxy_endpoint_set_req_t *self,
                                      bus_error_t *err)
{
    assert(self);
    if (proto_wsproxy_endpoint_set_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "wsproxy.endpoint.set request: out of memory");
        return NULL;
    }
    s_endpoint_set_req_write(self, writer);
    return writer;
}

zframe_t *
proto_wsproxy_endpoint_set_req_encode(const proto_wsproxy_endpoint_set_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_wsproxy_endpoint_set_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_wsproxy_endpoint_set_req_read(proto_wsproxy_endpoint_set_req_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err)
{
    proto_in_t in;
    proto_wsproxy_endpoint_set_req_init(self);
    proto_in_init(&in, "wsproxy.endpoint.set request", map, &self->owned_, err);
    s_endpoint_set_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_wsproxy_endpoint_set_req_clear(self);
    return in.status;
}

int
proto_wsproxy_endpoint_set_req_decode(proto_wsproxy_endpoint_set_req_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_wsproxy_endpoint_set_req_read(self, map, err);
}

char *
proto_wsproxy_endpoint_set_req_print(const proto_wsproxy_endpoint_set_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_endpoint_set_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint.set reply

static bool
s_endpoint_set_rep_check(const proto_wsproxy_endpoint_set_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "url", self->url, PROTO_REQUIRED, 512))
        return false;
    return true;
}

static void
s_endpoint_set_rep_write(const proto_wsproxy_endpoint_set_rep_t *self,
                         bus_writer_t *writer)
{
    bus_writer_map(writer, 2);
    proto_write_str(writer, "url", self->url);
    proto_write_uint(writer, "port", self->port);
}

static void
s_endpoint_set_rep_read(proto_wsproxy_endpoint_set_rep_t *self, proto_in_t *in)
{
    proto_read_str(in, "url", PROTO_REQUIRED, 512, &self->url);
    proto_read_uint(in, "port", 0, UINT64_MAX, &self->port);
}

static void
s_endpoint_set_rep_print(const proto_wsproxy_endpoint_set_rep_t *self, proto_text_t *text)
{
    proto_print_str(text, "url", self->url);
    proto_print_uint(text, "port", self->port);
}

void
proto_wsproxy_endpoint_set_rep_init(proto_wsproxy_endpoint_set_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_wsproxy_endpoint_set_rep_clear(proto_wsproxy_endpoint_set_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_wsproxy_endpoint_set_rep_check(const proto_wsproxy_endpoint_set_rep_t *self,
                                     bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "wsproxy.endpoint.set reply", err);
    return s_endpoint_set_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_wsproxy_endpoint_set_rep_write(const proto_wsproxy_endpoint_set_rep_t *self,
                                     bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_wsproxy_endpoint_set_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_endpoint_set_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_wsproxy_endpoint_set_rep_encode(const proto_wsproxy_endpoint_set_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_wsproxy_endpoint_set_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_wsproxy_endpoint_set_rep_read(proto_wsproxy_endpoint_set_rep_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err)
{
    proto_in_t in;
    proto_wsproxy_endpoint_set_rep_init(self);
    proto_in_init(&in, "wsproxy.endpoint.set reply", map, &self->owned_, err);
    s_endpoint_set_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_wsproxy_endpoint_set_rep_clear(self);
    return in.status;
}

int
proto_wsproxy_endpoint_set_rep_decode(proto_wsproxy_endpoint_set_rep_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_wsproxy_endpoint_set_rep_read(self, map, err);
}

char *
proto_wsproxy_endpoint_set_rep_print(const proto_wsproxy_endpoint_set_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_endpoint_set_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint.remove request

static bool
s_endpoint_remove_req_check(const proto_wsproxy_endpoint_remove_req_t *self,
                            proto_check_t *ck)
{
    if (!proto_check_str(ck, "endpoint_id", self->endpoint_id, PROTO_REQUIRED, 64))
        return false;
    return true;
}

static void
s_endpoint_remove_req_write(const proto_wsproxy_endpoint_remove_req_t *self,
                            bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    proto_write_str(writer, "endpoint_id", self->endpoint_id);
}

static void
s_endpoint_remove_req_read(proto_wsproxy_endpoint_remove_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "endpoint_id", PROTO_REQUIRED, 64, &self->endpoint_id);
}

static void
s_endpoint_remove_req_print(const proto_wsproxy_endpoint_remove_req_t *self,
                            proto_text_t *text)
{
    proto_print_str(text, "endpoint_id", self->endpoint_id);
}

void
proto_wsproxy_endpoint_remove_req_init(proto_wsproxy_endpoint_remove_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_wsproxy_endpoint_remove_req_clear(proto_wsproxy_endpoint_remove_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_wsproxy_endpoint_remove_req_check(const proto_wsproxy_endpoint_remove_req_t *self,
                                        bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "wsproxy.endpoint.remove request", err);
    return s_endpoint_remove_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_wsproxy_endpoint_remove_req_write(const proto_wsproxy_endpoint_remove_req_t *self,
                                        bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_wsproxy_endpoint_remove_req_check(self, NULL) != BUS_OK)
        return -1;
    s_endpoint_remove_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_wsproxy_endpoint_remove_req_writer(const proto_wsproxy_endpoint_remove_req_t *self,
                                         bus_error_t *err)
{
    assert(self);
    if (proto_wsproxy_endpoint_remove_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "wsproxy.endpoint.remove request: out of memory");
        return NULL;
    }
    s_endpoint_remove_req_write(self, writer);
    return writer;
}

zframe_t *
proto_wsproxy_endpoint_remove_req_encode(const proto_wsproxy_endpoint_remove_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_wsproxy_endpoint_remove_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_wsproxy_endpoint_remove_req_read(proto_wsproxy_endpoint_remove_req_t *self,
                                       const bus_value_t *map,
                                       bus_error_t *err)
{
    proto_in_t in;
    proto_wsproxy_endpoint_remove_req_init(self);
    proto_in_init(&in, "wsproxy.endpoint.remove request", map, &self->owned_, err);
    s_endpoint_remove_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_wsproxy_endpoint_remove_req_clear(self);
    return in.status;
}

int
proto_wsproxy_endpoint_remove_req_decode(proto_wsproxy_endpoint_remove_req_t *self,
                                         const void *data,
                                         size_t size,
                                         bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_wsproxy_endpoint_remove_req_read(self, map, err);
}

char *
proto_wsproxy_endpoint_remove_req_print(const proto_wsproxy_endpoint_remove_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_endpoint_remove_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint.remove reply

static bool
s_endpoint_remove_rep_check(const proto_wsproxy_endpoint_remove_rep_t *self,
                            proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_endpoint_remove_rep_write(const proto_wsproxy_endpoint_remove_rep_t *self,
                            bus_writer_t *writer)
{
    bus_writer_map(writer, 2);
    proto_write_bool(writer, "removed", self->removed);
    proto_write_uint(writer, "connections", self->connections);
}

static void
s_endpoint_remove_rep_read(proto_wsproxy_endpoint_remove_rep_t *self, proto_in_t *in)
{
    proto_read_bool(in, "removed", 0, &self->removed);
    proto_read_uint(in, "connections", 0, UINT64_MAX, &self->connections);
}

static void
s_endpoint_remove_rep_print(const proto_wsproxy_endpoint_remove_rep_t *self,
                            proto_text_t *text)
{
    proto_print_bool(text, "removed", self->removed);
    proto_print_uint(text, "connections", self->connections);
}

void
proto_wsproxy_endpoint_remove_rep_init(proto_wsproxy_endpoint_remove_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_wsproxy_endpoint_remove_rep_clear(proto_wsproxy_endpoint_remove_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_wsproxy_endpoint_remove_rep_check(const proto_wsproxy_endpoint_remove_rep_t *self,
                                        bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "wsproxy.endpoint.remove reply", err);
    return s_endpoint_remove_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_wsproxy_endpoint_remove_rep_write(const proto_wsproxy_endpoint_remove_rep_t *self,
                                        bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_wsproxy_endpoint_remove_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_endpoint_remove_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_wsproxy_endpoint_remove_rep_encode(const proto_wsproxy_endpoint_remove_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_wsproxy_endpoint_remove_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_wsproxy_endpoint_remove_rep_read(proto_wsproxy_endpoint_remove_rep_t *self,
                                       const bus_value_t *map,
                                       bus_error_t *err)
{
    proto_in_t in;
    proto_wsproxy_endpoint_remove_rep_init(self);
    proto_in_init(&in, "wsproxy.endpoint.remove reply", map, &self->owned_, err);
    s_endpoint_remove_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_wsproxy_endpoint_remove_rep_clear(self);
    return in.status;
}

int
proto_wsproxy_endpoint_remove_rep_decode(proto_wsproxy_endpoint_remove_rep_t *self,
                                         const void *data,
                                         size_t size,
                                         bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_wsproxy_endpoint_remove_rep_read(self, map, err);
}

char *
proto_wsproxy_endpoint_remove_rep_print(const proto_wsproxy_endpoint_remove_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_endpoint_remove_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint.requests request

static bool
s_endpoint_requests_req_check(const proto_wsproxy_endpoint_requests_req_t *self,
                              proto_check_t *ck)
{
    if (!proto_check_strs(ck, "endpoint_ids", self->endpoint_ids,
                          self->endpoint_ids_count, 1000))
        return false;
    return true;
}

static void
s_endpoint_requests_req_write(const proto_wsproxy_endpoint_requests_req_t *self,
                              bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->endpoint_ids_count > 0;
    bus_writer_map(writer, pairs);
    if (self->endpoint_ids_count > 0) {
        proto_write_strs(writer, "endpoint_ids", self->endpoint_ids,
                         self->endpoint_ids_count);
    }
}

static void
s_endpoint_requests_req_read(proto_wsproxy_endpoint_requests_req_t *self, proto_in_t *in)
{
    self->endpoint_ids =
        proto_read_strs(in, "endpoint_ids", 0, 1000, &self->endpoint_ids_count);
}

static void
s_endpoint_requests_req_print(const proto_wsproxy_endpoint_requests_req_t *self,
                              proto_text_t *text)
{
    proto_print_count(text, "endpoint_ids", self->endpoint_ids_count);
}

void
proto_wsproxy_endpoint_requests_req_init(proto_wsproxy_endpoint_requests_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_wsproxy_endpoint_requests_req_clear(proto_wsproxy_endpoint_requests_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_wsproxy_endpoint_requests_req_check(const proto_wsproxy_endpoint_requests_req_t *self,
                                          bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "wsproxy.endpoint.requests request", err);
    return s_endpoint_requests_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_wsproxy_endpoint_requests_req_write(const proto_wsproxy_endpoint_requests_req_t *self,
                                          bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_wsproxy_endpoint_requests_req_check(self, NULL) != BUS_OK)
        return -1;
    s_endpoint_requests_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_wsproxy_endpoint_requests_req_writer(const proto_wsproxy_endpoint_requests_req_t *self,
                                           bus_error_t *err)
{
    assert(self);
    if (proto_wsproxy_endpoint_requests_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "wsproxy.endpoint.requests request: out of memory");
        return NULL;
    }
    s_endpoint_requests_req_write(self, writer);
    return writer;
}

zframe_t *
proto_wsproxy_endpoint_requests_req_encode(const proto_wsproxy_endpoint_requests_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_wsproxy_endpoint_requests_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_wsproxy_endpoint_requests_req_read(proto_wsproxy_endpoint_requests_req_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err)
{
    proto_in_t in;
    proto_wsproxy_endpoint_requests_req_init(self);
    proto_in_init(&in, "wsproxy.endpoint.requests request", map, &self->owned_, err);
    s_endpoint_requests_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_wsproxy_endpoint_requests_req_clear(self);
    return in.status;
}

int
proto_wsproxy_endpoint_requests_req_decode(proto_wsproxy_endpoint_requests_req_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_wsproxy_endpoint_requests_req_read(self, map, err);
}

char *
proto_wsproxy_endpoint_requests_req_print(const proto_wsproxy_endpoint_requests_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_endpoint_requests_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint.requests reply

static bool
s_endpoint_requests_rep_check(const proto_wsproxy_endpoint_requests_rep_t *self,
                              proto_check_t *ck)
{
    if (!proto_check_count(ck, "endpoints", self->endpoints, self->endpoints_count, 1000))
        return false;
    for (size_t i = 0; i < self->endpoints_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "endpoints", i);
        if (!s_endpoint_requests_check(&self->endpoints[i], &item))
            return false;
    }
    return true;
}

static void
s_endpoint_requests_rep_write(const proto_wsproxy_endpoint_requests_rep_t *self,
                              bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->endpoints_count > 0;
    bus_writer_map(writer, pairs);
    if (self->endpoints_count > 0) {
        proto_write_array(writer, "endpoints", self->endpoints_count);
        for (size_t i = 0; i < self->endpoints_count; i++)
            s_endpoint_requests_write(&self->endpoints[i], writer);
    }
}

static void
s_endpoint_requests_rep_read(proto_wsproxy_endpoint_requests_rep_t *self, proto_in_t *in)
{
    self->endpoints = proto_read_list(in, "endpoints", 0, 1000, sizeof *self->endpoints,
                                      s_endpoint_requests_item, &self->endpoints_count);
}

static void
s_endpoint_requests_rep_print(const proto_wsproxy_endpoint_requests_rep_t *self,
                              proto_text_t *text)
{
    proto_print_count(text, "endpoints", self->endpoints_count);
}

void
proto_wsproxy_endpoint_requests_rep_init(proto_wsproxy_endpoint_requests_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_wsproxy_endpoint_requests_rep_clear(proto_wsproxy_endpoint_requests_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_wsproxy_endpoint_requests_rep_check(const proto_wsproxy_endpoint_requests_rep_t *self,
                                          bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "wsproxy.endpoint.requests reply", err);
    return s_endpoint_requests_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_wsproxy_endpoint_requests_rep_write(const proto_wsproxy_endpoint_requests_rep_t *self,
                                          bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_wsproxy_endpoint_requests_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_endpoint_requests_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_wsproxy_endpoint_requests_rep_encode(const proto_wsproxy_endpoint_requests_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_wsproxy_endpoint_requests_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_wsproxy_endpoint_requests_rep_read(proto_wsproxy_endpoint_requests_rep_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err)
{
    proto_in_t in;
    proto_wsproxy_endpoint_requests_rep_init(self);
    proto_in_init(&in, "wsproxy.endpoint.requests reply", map, &self->owned_, err);
    s_endpoint_requests_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_wsproxy_endpoint_requests_rep_clear(self);
    return in.status;
}

int
proto_wsproxy_endpoint_requests_rep_decode(proto_wsproxy_endpoint_requests_rep_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_wsproxy_endpoint_requests_rep_read(self, map, err);
}

char *
proto_wsproxy_endpoint_requests_rep_print(const proto_wsproxy_endpoint_requests_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_endpoint_requests_rep_print(self, &text);
    return proto_text_finish(&text);
}
