//  GENERATED FROM proto/gateway.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_gateway - codecs of the gateway domain

    For each struct: file-static check, write, read and print helpers that
    nested values reuse, then the public functions of proto_gateway.h built on
    them. Reading and printing go through the shared runtime in proto.c.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

//  ---------------------------------------------------------------------------
//  gateway.access

static bool
s_access_check(const proto_gateway_access_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "request_id", self->request_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "access_key", self->access_key, 0, 64))
        return false;
    if (!proto_check_str(ck, "user_id", self->user_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "domain_name", self->domain_name, 0, 64))
        return false;
    if (!proto_check_str(ck, "method", self->method, PROTO_REQUIRED, 16))
        return false;
    if (!proto_check_str(ck, "path", self->path, PROTO_REQUIRED, 2048))
        return false;
    if (!proto_check_uint(ck, "status", self->status, 999))
        return false;
    if (!proto_check_str(ck, "client_addr", self->client_addr, 0, 64))
        return false;
    if (!proto_check_str(ck, "error_type", self->error_type, 0, 64))
        return false;
    return true;
}

static void
s_access_write(const proto_gateway_access_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 6;
    pairs += self->access_key != NULL;
    pairs += self->user_id != NULL;
    pairs += self->domain_name != NULL;
    pairs += self->client_addr != NULL;
    pairs += self->error_type != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "request_id", self->request_id);
    proto_write_int(writer, "ts", self->ts);
    if (self->access_key != NULL)
        proto_write_str(writer, "access_key", self->access_key);
    if (self->user_id != NULL)
        proto_write_str(writer, "user_id", self->user_id);
    if (self->domain_name != NULL)
        proto_write_str(writer, "domain_name", self->domain_name);
    proto_write_str(writer, "method", self->method);
    proto_write_str(writer, "path", self->path);
    proto_write_uint(writer, "status", self->status);
    proto_write_uint(writer, "latency_us", self->latency_us);
    if (self->client_addr != NULL)
        proto_write_str(writer, "client_addr", self->client_addr);
    if (self->error_type != NULL)
        proto_write_str(writer, "error_type", self->error_type);
}

static void
s_access_read(proto_gateway_access_t *self, proto_in_t *in)
{
    proto_read_str(in, "request_id", PROTO_REQUIRED, 64, &self->request_id);
    proto_read_int(in, "ts", PROTO_REQUIRED, INT64_MIN, INT64_MAX, &self->ts);
    proto_read_str(in, "access_key", 0, 64, &self->access_key);
    proto_read_str(in, "user_id", 0, 64, &self->user_id);
    proto_read_str(in, "domain_name", 0, 64, &self->domain_name);
    proto_read_str(in, "method", PROTO_REQUIRED, 16, &self->method);
    proto_read_str(in, "path", PROTO_REQUIRED, 2048, &self->path);
    proto_read_uint(in, "status", PROTO_REQUIRED, 999, &self->status);
    proto_read_uint(in, "latency_us", 0, UINT64_MAX, &self->latency_us);
    proto_read_str(in, "client_addr", 0, 64, &self->client_addr);
    proto_read_str(in, "error_type", 0, 64, &self->error_type);
}

static void
s_access_print(const proto_gateway_access_t *self, proto_text_t *text)
{
    proto_print_str(text, "request_id", self->request_id);
    proto_print_int(text, "ts", self->ts);
    proto_print_str(text, "access_key", self->access_key);
    proto_print_str(text, "user_id", self->user_id);
    proto_print_str(text, "domain_name", self->domain_name);
    proto_print_str(text, "method", self->method);
    proto_print_str(text, "path", self->path);
    proto_print_uint(text, "status", self->status);
    proto_print_uint(text, "latency_us", self->latency_us);
    proto_print_str(text, "client_addr", self->client_addr);
    proto_print_str(text, "error_type", self->error_type);
}

void
proto_gateway_access_init(proto_gateway_access_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_gateway_access_clear(proto_gateway_access_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_gateway_access_check(const proto_gateway_access_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "gateway.access", err);
    return s_access_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_gateway_access_write(const proto_gateway_access_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_gateway_access_check(self, NULL) != BUS_OK)
        return -1;
    s_access_write(self, writer);
    return 0;
}

zframe_t *
proto_gateway_access_encode(const proto_gateway_access_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_gateway_access_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_gateway_access_read(proto_gateway_access_t *self,
                          const bus_value_t *map,
                          bus_error_t *err)
{
    proto_in_t in;
    proto_gateway_access_init(self);
    proto_in_init(&in, "gateway.access", map, &self->owned_, err);
    s_access_read(self, &in);
    if (in.status != BUS_OK)
        proto_gateway_access_clear(self);
    return in.status;
}

int
proto_gateway_access_decode(proto_gateway_access_t *self,
                            const void *data,
                            size_t size,
                            bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_gateway_access_read(self, map, err);
}

char *
proto_gateway_access_print(const proto_gateway_access_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_access_print(self, &text);
    return proto_text_finish(&text);
}
