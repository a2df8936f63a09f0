//  GENERATED FROM proto/service.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_service - codecs of the service domain

    For each struct: file-static check, write, read and print helpers that
    nested values reuse, then the public functions of proto_service.h built on
    them. Reading and printing go through the shared runtime in proto.c.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

//  ---------------------------------------------------------------------------
//  service.started

static bool
s_started_check(const proto_service_started_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "service", self->service, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "node", self->node, PROTO_REQUIRED, 128))
        return false;
    if (!proto_check_str(ck, "version", self->version, 0, 64))
        return false;
    if (!proto_check_str(ck, "rpc_endpoint", self->rpc_endpoint, 0, 256))
        return false;
    if (!proto_check_str(ck, "http_endpoint", self->http_endpoint, 0, 256))
        return false;
    return true;
}

static void
s_started_write(const proto_service_started_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 4;
    pairs += self->version != NULL;
    pairs += self->rpc_endpoint != NULL;
    pairs += self->http_endpoint != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "service", self->service);
    proto_write_str(writer, "node", self->node);
    if (self->version != NULL)
        proto_write_str(writer, "version", self->version);
    proto_write_uint(writer, "pid", self->pid);
    if (self->rpc_endpoint != NULL)
        proto_write_str(writer, "rpc_endpoint", self->rpc_endpoint);
    if (self->http_endpoint != NULL)
        proto_write_str(writer, "http_endpoint", self->http_endpoint);
    proto_write_int(writer, "started_at", self->started_at);
}

static void
s_started_read(proto_service_started_t *self, proto_in_t *in)
{
    proto_read_str(in, "service", PROTO_REQUIRED, 64, &self->service);
    proto_read_str(in, "node", PROTO_REQUIRED, 128, &self->node);
    proto_read_str(in, "version", 0, 64, &self->version);
    proto_read_uint(in, "pid", 0, UINT64_MAX, &self->pid);
    proto_read_str(in, "rpc_endpoint", 0, 256, &self->rpc_endpoint);
    proto_read_str(in, "http_endpoint", 0, 256, &self->http_endpoint);
    proto_read_int(in, "started_at", 0, INT64_MIN, INT64_MAX, &self->started_at);
}

static void
s_started_print(const proto_service_started_t *self, proto_text_t *text)
{
    proto_print_str(text, "service", self->service);
    proto_print_str(text, "node", self->node);
    proto_print_str(text, "version", self->version);
    proto_print_uint(text, "pid", self->pid);
    proto_print_str(text, "rpc_endpoint", self->rpc_endpoint);
    proto_print_str(text, "http_endpoint", self->http_endpoint);
    proto_print_int(text, "started_at", self->started_at);
}

void
proto_service_started_init(proto_service_started_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_service_started_clear(proto_service_started_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_service_started_check(const proto_service_started_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "service.started", err);
    return s_started_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_service_started_write(const proto_service_started_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_service_started_check(self, NULL) != BUS_OK)
        return -1;
    s_started_write(self, writer);
    return 0;
}

zframe_t *
proto_service_started_encode(const proto_service_started_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_service_started_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_service_started_read(proto_service_started_t *self,
                           const bus_value_t *map,
                           bus_error_t *err)
{
    proto_in_t in;
    proto_service_started_init(self);
    proto_in_init(&in, "service.started", map, &self->owned_, err);
    s_started_read(self, &in);
    if (in.status != BUS_OK)
        proto_service_started_clear(self);
    return in.status;
}

int
proto_service_started_decode(proto_service_started_t *self,
                             const void *data,
                             size_t size,
                             bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_service_started_read(self, map, err);
}

char *
proto_service_started_print(const proto_service_started_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_started_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  service.stopping

static bool
s_stopping_check(const proto_service_stopping_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "service", self->service, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "node", self->node, PROTO_REQUIRED, 128))
        return false;
    if (!proto_check_str(ck, "reason", self->reason, 0, 256))
        return false;
    return true;
}

static void
s_stopping_write(const proto_service_stopping_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->reason != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "service", self->service);
    proto_write_str(writer, "node", self->node);
    if (self->reason != NULL)
        proto_write_str(writer, "reason", self->reason);
}

static void
s_stopping_read(proto_service_stopping_t *self, proto_in_t *in)
{
    proto_read_str(in, "service", PROTO_REQUIRED, 64, &self->service);
    proto_read_str(in, "node", PROTO_REQUIRED, 128, &self->node);
    proto_read_str(in, "reason", 0, 256, &self->reason);
}

static void
s_stopping_print(const proto_service_stopping_t *self, proto_text_t *text)
{
    proto_print_str(text, "service", self->service);
    proto_print_str(text, "node", self->node);
    proto_print_str(text, "reason", self->reason);
}

void
proto_service_stopping_init(proto_service_stopping_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_service_stopping_clear(proto_service_stopping_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_service_stopping_check(const proto_service_stopping_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "service.stopping", err);
    return s_stopping_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_service_stopping_write(const proto_service_stopping_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_service_stopping_check(self, NULL) != BUS_OK)
        return -1;
    s_stopping_write(self, writer);
    return 0;
}

zframe_t *
proto_service_stopping_encode(const proto_service_stopping_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_service_stopping_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_service_stopping_read(proto_service_stopping_t *self,
                            const bus_value_t *map,
                            bus_error_t *err)
{
    proto_in_t in;
    proto_service_stopping_init(self);
    proto_in_init(&in, "service.stopping", map, &self->owned_, err);
    s_stopping_read(self, &in);
    if (in.status != BUS_OK)
        proto_service_stopping_clear(self);
    return in.status;
}

int
proto_service_stopping_decode(proto_service_stopping_t *self,
                              const void *data,
                              size_t size,
                              bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_service_stopping_read(self, map, err);
}

char *
proto_service_stopping_print(const proto_service_stopping_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_stopping_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  service.expired

static bool
s_expired_check(const proto_service_expired_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "service", self->service, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "node", self->node, PROTO_REQUIRED, 128))
        return false;
    return true;
}

static void
s_expired_write(const proto_service_expired_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 3);
    proto_write_str(writer, "service", self->service);
    proto_write_str(writer, "node", self->node);
    proto_write_int(writer, "last_seen", self->last_seen);
}

static void
s_expired_read(proto_service_expired_t *self, proto_in_t *in)
{
    proto_read_str(in, "service", PROTO_REQUIRED, 64, &self->service);
    proto_read_str(in, "node", PROTO_REQUIRED, 128, &self->node);
    proto_read_int(in, "last_seen", 0, INT64_MIN, INT64_MAX, &self->last_seen);
}

static void
s_expired_print(const proto_service_expired_t *self, proto_text_t *text)
{
    proto_print_str(text, "service", self->service);
    proto_print_str(text, "node", self->node);
    proto_print_int(text, "last_seen", self->last_seen);
}

void
proto_service_expired_init(proto_service_expired_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_service_expired_clear(proto_service_expired_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_service_expired_check(const proto_service_expired_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "service.expired", err);
    return s_expired_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_service_expired_write(const proto_service_expired_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_service_expired_check(self, NULL) != BUS_OK)
        return -1;
    s_expired_write(self, writer);
    return 0;
}

zframe_t *
proto_service_expired_encode(const proto_service_expired_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_service_expired_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_service_expired_read(proto_service_expired_t *self,
                           const bus_value_t *map,
                           bus_error_t *err)
{
    proto_in_t in;
    proto_service_expired_init(self);
    proto_in_init(&in, "service.expired", map, &self->owned_, err);
    s_expired_read(self, &in);
    if (in.status != BUS_OK)
        proto_service_expired_clear(self);
    return in.status;
}

int
proto_service_expired_decode(proto_service_expired_t *self,
                             const void *data,
                             size_t size,
                             bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_service_expired_read(self, map, err);
}

char *
proto_service_expired_print(const proto_service_expired_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_expired_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  service.health request

static bool
s_health_req_check(const proto_service_health_req_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_health_req_write(const proto_service_health_req_t *self, bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_health_req_read(proto_service_health_req_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_health_req_print(const proto_service_health_req_t *self, proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_service_health_req_init(proto_service_health_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_service_health_req_clear(proto_service_health_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_service_health_req_check(const proto_service_health_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "service.health request", err);
    return s_health_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_service_health_req_write(const proto_service_health_req_t *self,
                               bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_service_health_req_check(self, NULL) != BUS_OK)
        return -1;
    s_health_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_service_health_req_writer(const proto_service_health_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_service_health_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "service.health request: out of memory");
        return NULL;
    }
    s_health_req_write(self, writer);
    return writer;
}

zframe_t *
proto_service_health_req_encode(const proto_service_health_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_service_health_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_service_health_req_read(proto_service_health_req_t *self,
                              const bus_value_t *map,
                              bus_error_t *err)
{
    proto_in_t in;
    proto_service_health_req_init(self);
    proto_in_init(&in, "service.health request", map, &self->owned_, err);
    s_health_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_service_health_req_clear(self);
    return in.status;
}

int
proto_service_health_req_decode(proto_service_health_req_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_service_health_req_read(self, map, err);
}

char *
proto_service_health_req_print(const proto_service_health_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_health_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  service.health reply

static bool
s_health_rep_check(const proto_service_health_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "service", self->service, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "node", self->node, PROTO_REQUIRED, 128))
        return false;
    if (!proto_check_str(ck, "version", self->version, 0, 64))
        return false;
    if (!proto_check_str(ck, "state", self->state, 0, 32))
        return false;
    return true;
}

static void
s_health_rep_write(const proto_service_health_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 5;
    pairs += self->version != NULL;
    pairs += self->state != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "service", self->service);
    proto_write_str(writer, "node", self->node);
    if (self->version != NULL)
        proto_write_str(writer, "version", self->version);
    proto_write_uint(writer, "pid", self->pid);
    proto_write_uint(writer, "uptime_ms", self->uptime_ms);
    proto_write_bool(writer, "db_ok", self->db_ok);
    if (self->state != NULL)
        proto_write_str(writer, "state", self->state);
}

static void
s_health_rep_read(proto_service_health_rep_t *self, proto_in_t *in)
{
    proto_read_str(in, "service", PROTO_REQUIRED, 64, &self->service);
    proto_read_str(in, "node", PROTO_REQUIRED, 128, &self->node);
    proto_read_str(in, "version", 0, 64, &self->version);
    proto_read_uint(in, "pid", 0, UINT64_MAX, &self->pid);
    proto_read_uint(in, "uptime_ms", 0, UINT64_MAX, &self->uptime_ms);
    proto_read_bool(in, "db_ok", 0, &self->db_ok);
    proto_read_str(in, "state", 0, 32, &self->state);
}

static void
s_health_rep_print(const proto_service_health_rep_t *self, proto_text_t *text)
{
    proto_print_str(text, "service", self->service);
    proto_print_str(text, "node", self->node);
    proto_print_str(text, "version", self->version);
    proto_print_uint(text, "pid", self->pid);
    proto_print_uint(text, "uptime_ms", self->uptime_ms);
    proto_print_bool(text, "db_ok", self->db_ok);
    proto_print_str(text, "state", self->state);
}

void
proto_service_health_rep_init(proto_service_health_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_service_health_rep_clear(proto_service_health_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_service_health_rep_check(const proto_service_health_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "service.health reply", err);
    return s_health_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_service_health_rep_write(const proto_service_health_rep_t *self,
                               bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_service_health_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_health_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_service_health_rep_encode(const proto_service_health_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_service_health_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_service_health_rep_read(proto_service_health_rep_t *self,
                              const bus_value_t *map,
                              bus_error_t *err)
{
    proto_in_t in;
    proto_service_health_rep_init(self);
    proto_in_init(&in, "service.health reply", map, &self->owned_, err);
    s_health_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_service_health_rep_clear(self);
    return in.status;
}

int
proto_service_health_rep_decode(proto_service_health_rep_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_service_health_rep_read(self, map, err);
}

char *
proto_service_health_rep_print(const proto_service_health_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_health_rep_print(self, &text);
    return proto_text_finish(&text);
}
