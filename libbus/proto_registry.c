//  GENERATED FROM proto/registry.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_registry - codecs of the registry domain

    For each struct: file-static check, write, read and print helpers that
    nested values reuse, then the public functions of proto_registry.h built
    on them. Reading and printing go through the shared runtime in proto.c.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

//  ---------------------------------------------------------------------------
//  registry.peer

static bool
s_peer_check(const proto_registry_peer_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "service", self->service, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "node", self->node, PROTO_REQUIRED, 128))
        return false;
    if (!proto_check_str(ck, "rpc_endpoint", self->rpc_endpoint, 0, 256))
        return false;
    if (!proto_check_str(ck, "http_endpoint", self->http_endpoint, 0, 256))
        return false;
    if (!proto_check_str(ck, "version", self->version, 0, 64))
        return false;
    return true;
}

static void
s_peer_write(const proto_registry_peer_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 7;
    pairs += self->rpc_endpoint != NULL;
    pairs += self->http_endpoint != NULL;
    pairs += self->version != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "service", self->service);
    proto_write_str(writer, "node", self->node);
    if (self->rpc_endpoint != NULL)
        proto_write_str(writer, "rpc_endpoint", self->rpc_endpoint);
    if (self->http_endpoint != NULL)
        proto_write_str(writer, "http_endpoint", self->http_endpoint);
    if (self->version != NULL)
        proto_write_str(writer, "version", self->version);
    proto_write_uint(writer, "pid", self->pid);
    proto_write_int(writer, "started_at", self->started_at);
    proto_write_uint(writer, "durable_epoch", self->durable_epoch);
    proto_write_uint(writer, "durable_head", self->durable_head);
    proto_write_uint(writer, "age_ms", self->age_ms);
}

static void
s_peer_read(proto_registry_peer_t *self, proto_in_t *in)
{
    proto_read_str(in, "service", PROTO_REQUIRED, 64, &self->service);
    proto_read_str(in, "node", PROTO_REQUIRED, 128, &self->node);
    proto_read_str(in, "rpc_endpoint", 0, 256, &self->rpc_endpoint);
    proto_read_str(in, "http_endpoint", 0, 256, &self->http_endpoint);
    proto_read_str(in, "version", 0, 64, &self->version);
    proto_read_uint(in, "pid", 0, UINT64_MAX, &self->pid);
    proto_read_int(in, "started_at", 0, INT64_MIN, INT64_MAX, &self->started_at);
    proto_read_uint(in, "durable_epoch", 0, UINT64_MAX, &self->durable_epoch);
    proto_read_uint(in, "durable_head", 0, UINT64_MAX, &self->durable_head);
    proto_read_uint(in, "age_ms", 0, UINT64_MAX, &self->age_ms);
}

static void
s_peer_print(const proto_registry_peer_t *self, proto_text_t *text)
{
    proto_print_str(text, "service", self->service);
    proto_print_str(text, "node", self->node);
    proto_print_str(text, "rpc_endpoint", self->rpc_endpoint);
    proto_print_str(text, "http_endpoint", self->http_endpoint);
    proto_print_str(text, "version", self->version);
    proto_print_uint(text, "pid", self->pid);
    proto_print_int(text, "started_at", self->started_at);
    proto_print_uint(text, "durable_epoch", self->durable_epoch);
    proto_print_uint(text, "durable_head", self->durable_head);
    proto_print_uint(text, "age_ms", self->age_ms);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_peer_item(void *item, proto_in_t *in)
{
    proto_registry_peer_init(item);
    s_peer_read(item, in);
}

void
proto_registry_peer_init(proto_registry_peer_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_registry_peer_clear(proto_registry_peer_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_registry_peer_check(const proto_registry_peer_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "registry.peer", err);
    return s_peer_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_registry_peer_write(const proto_registry_peer_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_registry_peer_check(self, NULL) != BUS_OK)
        return -1;
    s_peer_write(self, writer);
    return 0;
}

zframe_t *
proto_registry_peer_encode(const proto_registry_peer_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_registry_peer_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_registry_peer_read(proto_registry_peer_t *self,
                         const bus_value_t *map,
                         bus_error_t *err)
{
    proto_in_t in;
    proto_registry_peer_init(self);
    proto_in_init(&in, "registry.peer", map, &self->owned_, err);
    s_peer_read(self, &in);
    if (in.status != BUS_OK)
        proto_registry_peer_clear(self);
    return in.status;
}

int
proto_registry_peer_decode(proto_registry_peer_t *self,
                           const void *data,
                           size_t size,
                           bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_registry_peer_read(self, map, err);
}

char *
proto_registry_peer_print(const proto_registry_peer_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_peer_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  registry.register request

static bool
s_register_req_check(const proto_registry_register_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "service", self->service, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "node", self->node, PROTO_REQUIRED, 128))
        return false;
    if (!proto_check_str(ck, "rpc_endpoint", self->rpc_endpoint, 0, 256))
        return false;
    if (!proto_check_str(ck, "http_endpoint", self->http_endpoint, 0, 256))
        return false;
    if (!proto_check_str(ck, "version", self->version, 0, 64))
        return false;
    return true;
}

static void
s_register_req_write(const proto_registry_register_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 6;
    pairs += self->rpc_endpoint != NULL;
    pairs += self->http_endpoint != NULL;
    pairs += self->version != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "service", self->service);
    proto_write_str(writer, "node", self->node);
    if (self->rpc_endpoint != NULL)
        proto_write_str(writer, "rpc_endpoint", self->rpc_endpoint);
    if (self->http_endpoint != NULL)
        proto_write_str(writer, "http_endpoint", self->http_endpoint);
    if (self->version != NULL)
        proto_write_str(writer, "version", self->version);
    proto_write_uint(writer, "pid", self->pid);
    proto_write_int(writer, "started_at", self->started_at);
    proto_write_uint(writer, "durable_epoch", self->durable_epoch);
    proto_write_uint(writer, "durable_head", self->durable_head);
}

static void
s_register_req_read(proto_registry_register_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "service", PROTO_REQUIRED, 64, &self->service);
    proto_read_str(in, "node", PROTO_REQUIRED, 128, &self->node);
    proto_read_str(in, "rpc_endpoint", 0, 256, &self->rpc_endpoint);
    proto_read_str(in, "http_endpoint", 0, 256, &self->http_endpoint);
    proto_read_str(in, "version", 0, 64, &self->version);
    proto_read_uint(in, "pid", 0, UINT64_MAX, &self->pid);
    proto_read_int(in, "started_at", 0, INT64_MIN, INT64_MAX, &self->started_at);
    proto_read_uint(in, "durable_epoch", 0, UINT64_MAX, &self->durable_epoch);
    proto_read_uint(in, "durable_head", 0, UINT64_MAX, &self->durable_head);
}

static void
s_register_req_print(const proto_registry_register_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "service", self->service);
    proto_print_str(text, "node", self->node);
    proto_print_str(text, "rpc_endpoint", self->rpc_endpoint);
    proto_print_str(text, "http_endpoint", self->http_endpoint);
    proto_print_str(text, "version", self->version);
    proto_print_uint(text, "pid", self->pid);
    proto_print_int(text, "started_at", self->started_at);
    proto_print_uint(text, "durable_epoch", self->durable_epoch);
    proto_print_uint(text, "durable_head", self->durable_head);
}

void
proto_registry_register_req_init(proto_registry_register_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_registry_register_req_clear(proto_registry_register_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_registry_register_req_check(const proto_registry_register_req_t *self,
                                  bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "registry.register request", err);
    return s_register_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_registry_register_req_write(const proto_registry_register_req_t *self,
                                  bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_registry_register_req_check(self, NULL) != BUS_OK)
        return -1;
    s_register_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_registry_register_req_writer(const proto_registry_register_req_t *self,
                                   bus_error_t *err)
{
    assert(self);
    if (proto_registry_register_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "registry.register request: out of memory");
        return NULL;
    }
    s_register_req_write(self, writer);
    return writer;
}

zframe_t *
proto_registry_register_req_encode(const proto_registry_register_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_registry_register_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_registry_register_req_read(proto_registry_register_req_t *self,
                                 const bus_value_t *map,
                                 bus_error_t *err)
{
    proto_in_t in;
    proto_registry_register_req_init(self);
    proto_in_init(&in, "registry.register request", map, &self->owned_, err);
    s_register_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_registry_register_req_clear(self);
    return in.status;
}

int
proto_registry_register_req_decode(proto_registry_register_req_t *self,
                                   const void *data,
                                   size_t size,
                                   bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_registry_register_req_read(self, map, err);
}

char *
proto_registry_register_req_print(const proto_registry_register_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_register_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  registry.register reply

static bool
s_register_rep_check(const proto_registry_register_rep_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_register_rep_write(const proto_registry_register_rep_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 2);
    proto_write_uint(writer, "heartbeat_ms", self->heartbeat_ms);
    proto_write_uint(writer, "expiry_ms", self->expiry_ms);
}

static void
s_register_rep_read(proto_registry_register_rep_t *self, proto_in_t *in)
{
    proto_read_uint(in, "heartbeat_ms", 0, UINT64_MAX, &self->heartbeat_ms);
    proto_read_uint(in, "expiry_ms", 0, UINT64_MAX, &self->expiry_ms);
}

static void
s_register_rep_print(const proto_registry_register_rep_t *self, proto_text_t *text)
{
    proto_print_uint(text, "heartbeat_ms", self->heartbeat_ms);
    proto_print_uint(text, "expiry_ms", self->expiry_ms);
}

void
proto_registry_register_rep_init(proto_registry_register_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_registry_register_rep_clear(proto_registry_register_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_registry_register_rep_check(const proto_registry_register_rep_t *self,
                                  bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "registry.register reply", err);
    return s_register_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_registry_register_rep_write(const proto_registry_register_rep_t *self,
                                  bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_registry_register_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_register_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_registry_register_rep_encode(const proto_registry_register_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_registry_register_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_registry_register_rep_read(proto_registry_register_rep_t *self,
                                 const bus_value_t *map,
                                 bus_error_t *err)
{
    proto_in_t in;
    proto_registry_register_rep_init(self);
    proto_in_init(&in, "registry.register reply", map, &self->owned_, err);
    s_register_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_registry_register_rep_clear(self);
    return in.status;
}

int
proto_registry_register_rep_decode(proto_registry_register_rep_t *self,
                                   const void *data,
                                   size_t size,
                                   bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_registry_register_rep_read(self, map, err);
}

char *
proto_registry_register_rep_print(const proto_registry_register_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_register_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  registry.heartbeat request

static bool
s_heartbeat_req_check(const proto_registry_heartbeat_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "service", self->service, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "node", self->node, PROTO_REQUIRED, 128))
        return false;
    return true;
}

static void
s_heartbeat_req_write(const proto_registry_heartbeat_req_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 4);
    proto_write_str(writer, "service", self->service);
    proto_write_str(writer, "node", self->node);
    proto_write_uint(writer, "durable_epoch", self->durable_epoch);
    proto_write_uint(writer, "durable_head", self->durable_head);
}

static void
s_heartbeat_req_read(proto_registry_heartbeat_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "service", PROTO_REQUIRED, 64, &self->service);
    proto_read_str(in, "node", PROTO_REQUIRED, 128, &self->node);
    proto_read_uint(in, "durable_epoch", 0, UINT64_MAX, &self->durable_epoch);
    proto_read_uint(in, "durable_head", 0, UINT64_MAX, &self->durable_head);
}

static void
s_heartbeat_req_print(const proto_registry_heartbeat_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "service", self->service);
    proto_print_str(text, "node", self->node);
    proto_print_uint(text, "durable_epoch", self->durable_epoch);
    proto_print_uint(text, "durable_head", self->durable_head);
}

void
proto_registry_heartbeat_req_init(proto_registry_heartbeat_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_registry_heartbeat_req_clear(proto_registry_heartbeat_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_registry_heartbeat_req_check(const proto_registry_heartbeat_req_t *self,
                                   bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "registry.heartbeat request", err);
    return s_heartbeat_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_registry_heartbeat_req_write(const proto_registry_heartbeat_req_t *self,
                                   bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_registry_heartbeat_req_check(self, NULL) != BUS_OK)
        return -1;
    s_heartbeat_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_registry_heartbeat_req_writer(const proto_registry_heartbeat_req_t *self,
                                    bus_error_t *err)
{
    assert(self);
    if (proto_registry_heartbeat_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "registry.heartbeat request: out of memory");
        return NULL;
    }
    s_heartbeat_req_write(self, writer);
    return writer;
}

zframe_t *
proto_registry_heartbeat_req_encode(const proto_registry_heartbeat_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_registry_heartbeat_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_registry_heartbeat_req_read(proto_registry_heartbeat_req_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err)
{
    proto_in_t in;
    proto_registry_heartbeat_req_init(self);
    proto_in_init(&in, "registry.heartbeat request", map, &self->owned_, err);
    s_heartbeat_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_registry_heartbeat_req_clear(self);
    return in.status;
}

int
proto_registry_heartbeat_req_decode(proto_registry_heartbeat_req_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_registry_heartbeat_req_read(self, map, err);
}

char *
proto_registry_heartbeat_req_print(const proto_registry_heartbeat_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_heartbeat_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  registry.heartbeat reply

static bool
s_heartbeat_rep_check(const proto_registry_heartbeat_rep_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_heartbeat_rep_write(const proto_registry_heartbeat_rep_t *self, bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_heartbeat_rep_read(proto_registry_heartbeat_rep_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_heartbeat_rep_print(const proto_registry_heartbeat_rep_t *self, proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_registry_heartbeat_rep_init(proto_registry_heartbeat_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_registry_heartbeat_rep_clear(proto_registry_heartbeat_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_registry_heartbeat_rep_check(const proto_registry_heartbeat_rep_t *self,
                                   bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "registry.heartbeat reply", err);
    return s_heartbeat_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_registry_heartbeat_rep_write(const proto_registry_heartbeat_rep_t *self,
                                   bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_registry_heartbeat_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_heartbeat_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_registry_heartbeat_rep_encode(const proto_registry_heartbeat_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_registry_heartbeat_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_registry_heartbeat_rep_read(proto_registry_heartbeat_rep_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err)
{
    proto_in_t in;
    proto_registry_heartbeat_rep_init(self);
    proto_in_init(&in, "registry.heartbeat reply", map, &self->owned_, err);
    s_heartbeat_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_registry_heartbeat_rep_clear(self);
    return in.status;
}

int
proto_registry_heartbeat_rep_decode(proto_registry_heartbeat_rep_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_registry_heartbeat_rep_read(self, map, err);
}

char *
proto_registry_heartbeat_rep_print(const proto_registry_heartbeat_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_heartbeat_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  registry.unregister request

static bool
s_unregister_req_check(const proto_registry_unregister_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "service", self->service, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "node", self->node, PROTO_REQUIRED, 128))
        return false;
    return true;
}

static void
s_unregister_req_write(const proto_registry_unregister_req_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 2);
    proto_write_str(writer, "service", self->service);
    proto_write_str(writer, "node", self->node);
}

static void
s_unregister_req_read(proto_registry_unregister_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "service", PROTO_REQUIRED, 64, &self->service);
    proto_read_str(in, "node", PROTO_REQUIRED, 128, &self->node);
}

static void
s_unregister_req_print(const proto_registry_unregister_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "service", self->service);
    proto_print_str(text, "node", self->node);
}

void
proto_registry_unregister_req_init(proto_registry_unregister_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_registry_unregister_req_clear(proto_registry_unregister_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_registry_unregister_req_check(const proto_registry_unregister_req_t *self,
                                    bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "registry.unregister request", err);
    return s_unregister_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_registry_unregister_req_write(const proto_registry_unregister_req_t *self,
                                    bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_registry_unregister_req_check(self, NULL) != BUS_OK)
        return -1;
    s_unregister_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_registry_unregister_req_writer(const proto_registry_unregister_req_t *self,
                                     bus_error_t *err)
{
    assert(self);
    if (proto_registry_unregister_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "registry.unregister request: out of memory");
        return NULL;
    }
    s_unregister_req_write(self, writer);
    return writer;
}

zframe_t *
proto_registry_unregister_req_encode(const proto_registry_unregister_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_registry_unregister_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_registry_unregister_req_read(proto_registry_unregister_req_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err)
{
    proto_in_t in;
    proto_registry_unregister_req_init(self);
    proto_in_init(&in, "registry.unregister request", map, &self->owned_, err);
    s_unregister_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_registry_unregister_req_clear(self);
    return in.status;
}

int
proto_registry_unregister_req_decode(proto_registry_unregister_req_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_registry_unregister_req_read(self, map, err);
}

char *
proto_registry_unregister_req_print(const proto_registry_unregister_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_unregister_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  registry.unregister reply

static bool
s_unregister_rep_check(const proto_registry_unregister_rep_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_unregister_rep_write(const proto_registry_unregister_rep_t *self, bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_unregister_rep_read(proto_registry_unregister_rep_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_unregister_rep_print(const proto_registry_unregister_rep_t *self, proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_registry_unregister_rep_init(proto_registry_unregister_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_registry_unregister_rep_clear(proto_registry_unregister_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_registry_unregister_rep_check(const proto_registry_unregister_rep_t *self,
                                    bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "registry.unregister reply", err);
    return s_unregister_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_registry_unregister_rep_write(const proto_registry_unregister_rep_t *self,
                                    bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_registry_unregister_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_unregister_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_registry_unregister_rep_encode(const proto_registry_unregister_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_registry_unregister_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_registry_unregister_rep_read(proto_registry_unregister_rep_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err)
{
    proto_in_t in;
    proto_registry_unregister_rep_init(self);
    proto_in_init(&in, "registry.unregister reply", map, &self->owned_, err);
    s_unregister_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_registry_unregister_rep_clear(self);
    return in.status;
}

int
proto_registry_unregister_rep_decode(proto_registry_unregister_rep_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_registry_unregister_rep_read(self, map, err);
}

char *
proto_registry_unregister_rep_print(const proto_registry_unregister_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_unregister_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  registry.peers request

static bool
s_peers_req_check(const proto_registry_peers_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "service", self->service, 0, 64))
        return false;
    return true;
}

static void
s_peers_req_write(const proto_registry_peers_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->service != NULL;
    bus_writer_map(writer, pairs);
    if (self->service != NULL)
        proto_write_str(writer, "service", self->service);
}

static void
s_peers_req_read(proto_registry_peers_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "service", 0, 64, &self->service);
}

static void
s_peers_req_print(const proto_registry_peers_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "service", self->service);
}

void
proto_registry_peers_req_init(proto_registry_peers_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_registry_peers_req_clear(proto_registry_peers_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_registry_peers_req_check(const proto_registry_peers_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "registry.peers request", err);
    return s_peers_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_registry_peers_req_write(const proto_registry_peers_req_t *self,
                               bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_registry_peers_req_check(self, NULL) != BUS_OK)
        return -1;
    s_peers_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_registry_peers_req_writer(const proto_registry_peers_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_registry_peers_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "registry.peers request: out of memory");
        return NULL;
    }
    s_peers_req_write(self, writer);
    return writer;
}

zframe_t *
proto_registry_peers_req_encode(const proto_registry_peers_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_registry_peers_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_registry_peers_req_read(proto_registry_peers_req_t *self,
                              const bus_value_t *map,
                              bus_error_t *err)
{
    proto_in_t in;
    proto_registry_peers_req_init(self);
    proto_in_init(&in, "registry.peers request", map, &self->owned_, err);
    s_peers_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_registry_peers_req_clear(self);
    return in.status;
}

int
proto_registry_peers_req_decode(proto_registry_peers_req_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_registry_peers_req_read(self, map, err);
}

char *
proto_registry_peers_req_print(const proto_registry_peers_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_peers_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  registry.peers reply

static bool
s_peers_rep_check(const proto_registry_peers_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_count(ck, "peers", self->peers, self->peers_count, 4096))
        return false;
    for (size_t i = 0; i < self->peers_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "peers", i);
        if (!s_peer_check(&self->peers[i], &item))
            return false;
    }
    return true;
}

static void
s_peers_rep_write(const proto_registry_peers_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->peers_count > 0;
    bus_writer_map(writer, pairs);
    if (self->peers_count > 0) {
        proto_write_array(writer, "peers", self->peers_count);
        for (size_t i = 0; i < self->peers_count; i++)
            s_peer_write(&self->peers[i], writer);
    }
}

static void
s_peers_rep_read(proto_registry_peers_rep_t *self, proto_in_t *in)
{
    self->peers = proto_read_list(in, "peers", 0, 4096, sizeof *self->peers, s_peer_item,
                                  &self->peers_count);
}

static void
s_peers_rep_print(const proto_registry_peers_rep_t *self, proto_text_t *text)
{
    proto_print_count(text, "peers", self->peers_count);
}

void
proto_registry_peers_rep_init(proto_registry_peers_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_registry_peers_rep_clear(proto_registry_peers_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_registry_peers_rep_check(const proto_registry_peers_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "registry.peers reply", err);
    return s_peers_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_registry_peers_rep_write(const proto_registry_peers_rep_t *self,
                               bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_registry_peers_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_peers_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_registry_peers_rep_encode(const proto_registry_peers_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_registry_peers_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_registry_peers_rep_read(proto_registry_peers_rep_t *self,
                              const bus_value_t *map,
                              bus_error_t *err)
{
    proto_in_t in;
    proto_registry_peers_rep_init(self);
    proto_in_init(&in, "registry.peers reply", map, &self->owned_, err);
    s_peers_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_registry_peers_rep_clear(self);
    return in.status;
}

int
proto_registry_peers_rep_decode(proto_registry_peers_rep_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_registry_peers_rep_read(self, map, err);
}

char *
proto_registry_peers_rep_print(const proto_registry_peers_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_peers_rep_print(self, &text);
    return proto_text_finish(&text);
}
