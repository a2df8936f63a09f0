//  GENERATED FROM proto/agent.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_agent - codecs of the agent domain

    For each struct: file-static check, write, read and print helpers that
    nested values reuse, then the public functions of proto_agent.h built on
    them. Reading and printing go through the shared runtime in proto.c.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

//  ---------------------------------------------------------------------------
//  agent.core

static bool
s_core_check(const proto_agent_core_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_core_write(const proto_agent_core_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    proto_write_uint(writer, "busy_ms", self->busy_ms);
}

static void
s_core_read(proto_agent_core_t *self, proto_in_t *in)
{
    proto_read_uint(in, "busy_ms", 0, UINT64_MAX, &self->busy_ms);
}

static void
s_core_print(const proto_agent_core_t *self, proto_text_t *text)
{
    proto_print_uint(text, "busy_ms", self->busy_ms);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_core_item(void *item, proto_in_t *in)
{
    proto_agent_core_init(item);
    s_core_read(item, in);
}

void
proto_agent_core_init(proto_agent_core_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_agent_core_clear(proto_agent_core_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_agent_core_check(const proto_agent_core_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "agent.core", err);
    return s_core_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_agent_core_write(const proto_agent_core_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_agent_core_check(self, NULL) != BUS_OK)
        return -1;
    s_core_write(self, writer);
    return 0;
}

zframe_t *
proto_agent_core_encode(const proto_agent_core_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_agent_core_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_agent_core_read(proto_agent_core_t *self, const bus_value_t *map, bus_error_t *err)
{
    proto_in_t in;
    proto_agent_core_init(self);
    proto_in_init(&in, "agent.core", map, &self->owned_, err);
    s_core_read(self, &in);
    if (in.status != BUS_OK)
        proto_agent_core_clear(self);
    return in.status;
}

int
proto_agent_core_decode(proto_agent_core_t *self,
                        const void *data,
                        size_t size,
                        bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_agent_core_read(self, map, err);
}

char *
proto_agent_core_print(const proto_agent_core_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_core_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  agent.gpu

static bool
s_gpu_check(const proto_agent_gpu_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "id", self->id, 0, 96))
        return false;
    return true;
}

static void
s_gpu_write(const proto_agent_gpu_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 4;
    pairs += self->id != NULL;
    bus_writer_map(writer, pairs);
    if (self->id != NULL)
        proto_write_str(writer, "id", self->id);
    proto_write_uint(writer, "index", self->index);
    proto_write_uint(writer, "util_pct", self->util_pct);
    proto_write_uint(writer, "mem_used_bytes", self->mem_used_bytes);
    proto_write_uint(writer, "mem_total_bytes", self->mem_total_bytes);
}

static void
s_gpu_read(proto_agent_gpu_t *self, proto_in_t *in)
{
    proto_read_str(in, "id", 0, 96, &self->id);
    proto_read_uint(in, "index", 0, UINT64_MAX, &self->index);
    proto_read_uint(in, "util_pct", 0, UINT64_MAX, &self->util_pct);
    proto_read_uint(in, "mem_used_bytes", 0, UINT64_MAX, &self->mem_used_bytes);
    proto_read_uint(in, "mem_total_bytes", 0, UINT64_MAX, &self->mem_total_bytes);
}

static void
s_gpu_print(const proto_agent_gpu_t *self, proto_text_t *text)
{
    proto_print_str(text, "id", self->id);
    proto_print_uint(text, "index", self->index);
    proto_print_uint(text, "util_pct", self->util_pct);
    proto_print_uint(text, "mem_used_bytes", self->mem_used_bytes);
    proto_print_uint(text, "mem_total_bytes", self->mem_total_bytes);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_gpu_item(void *item, proto_in_t *in)
{
    proto_agent_gpu_init(item);
    s_gpu_read(item, in);
}

void
proto_agent_gpu_init(proto_agent_gpu_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_agent_gpu_clear(proto_agent_gpu_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_agent_gpu_check(const proto_agent_gpu_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "agent.gpu", err);
    return s_gpu_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_agent_gpu_write(const proto_agent_gpu_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_agent_gpu_check(self, NULL) != BUS_OK)
        return -1;
    s_gpu_write(self, writer);
    return 0;
}

zframe_t *
proto_agent_gpu_encode(const proto_agent_gpu_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_agent_gpu_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_agent_gpu_read(proto_agent_gpu_t *self, const bus_value_t *map, bus_error_t *err)
{
    proto_in_t in;
    proto_agent_gpu_init(self);
    proto_in_init(&in, "agent.gpu", map, &self->owned_, err);
    s_gpu_read(self, &in);
    if (in.status != BUS_OK)
        proto_agent_gpu_clear(self);
    return in.status;
}

int
proto_agent_gpu_decode(proto_agent_gpu_t *self,
                       const void *data,
                       size_t size,
                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_agent_gpu_read(self, map, err);
}

char *
proto_agent_gpu_print(const proto_agent_gpu_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_gpu_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  agent.heartbeat

static bool
s_heartbeat_check(const proto_agent_heartbeat_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "agent_id", self->agent_id, PROTO_REQUIRED, 128))
        return false;
    if (!proto_check_str(ck, "region", self->region, 0, 64))
        return false;
    if (!proto_check_str(ck, "scaling_group", self->scaling_group, 0, 64))
        return false;
    if (!proto_check_str(ck, "architecture", self->architecture, 0, 32))
        return false;
    if (!proto_check_str(ck, "version", self->version, 0, 64))
        return false;
    if (!proto_check_str(ck, "rpc_endpoint", self->rpc_endpoint, 0, 256))
        return false;
    if (!proto_check_map(ck, "available_slots", self->available_slots,
                         self->available_slots_count, 64))
        return false;
    if (!proto_check_map(ck, "occupied_slots", self->occupied_slots,
                         self->occupied_slots_count, 64))
        return false;
    if (!proto_check_map(ck, "placeable_slots", self->placeable_slots,
                         self->placeable_slots_count, 64))
        return false;
    return true;
}

static void
s_heartbeat_write(const proto_agent_heartbeat_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 4;
    pairs += self->region != NULL;
    pairs += self->scaling_group != NULL;
    pairs += self->architecture != NULL;
    pairs += self->version != NULL;
    pairs += self->rpc_endpoint != NULL;
    pairs += self->available_slots_count > 0;
    pairs += self->occupied_slots_count > 0;
    pairs += self->placeable_slots_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "agent_id", self->agent_id);
    if (self->region != NULL)
        proto_write_str(writer, "region", self->region);
    if (self->scaling_group != NULL)
        proto_write_str(writer, "scaling_group", self->scaling_group);
    if (self->architecture != NULL)
        proto_write_str(writer, "architecture", self->architecture);
    if (self->version != NULL)
        proto_write_str(writer, "version", self->version);
    if (self->rpc_endpoint != NULL)
        proto_write_str(writer, "rpc_endpoint", self->rpc_endpoint);
    proto_write_bool(writer, "schedulable", self->schedulable);
    if (self->available_slots_count > 0) {
        proto_write_map(writer, "available_slots", self->available_slots,
                        self->available_slots_count);
    }
    if (self->occupied_slots_count > 0) {
        proto_write_map(writer, "occupied_slots", self->occupied_slots,
                        self->occupied_slots_count);
    }
    proto_write_uint(writer, "kernel_count", self->kernel_count);
    proto_write_int(writer, "started_at", self->started_at);
    if (self->placeable_slots_count > 0) {
        proto_write_map(writer, "placeable_slots", self->placeable_slots,
                        self->placeable_slots_count);
    }
}

static void
s_heartbeat_read(proto_agent_heartbeat_t *self, proto_in_t *in)
{
    proto_read_str(in, "agent_id", PROTO_REQUIRED, 128, &self->agent_id);
    proto_read_str(in, "region", 0, 64, &self->region);
    proto_read_str(in, "scaling_group", 0, 64, &self->scaling_group);
    proto_read_str(in, "architecture", 0, 32, &self->architecture);
    proto_read_str(in, "version", 0, 64, &self->version);
    proto_read_str(in, "rpc_endpoint", 0, 256, &self->rpc_endpoint);
    proto_read_bool(in, "schedulable", 0, &self->schedulable);
    self->available_slots =
        proto_read_map(in, "available_slots", 0, 64, &self->available_slots_count);
    self->occupied_slots =
        proto_read_map(in, "occupied_slots", 0, 64, &self->occupied_slots_count);
    proto_read_uint(in, "kernel_count", 0, UINT64_MAX, &self->kernel_count);
    proto_read_int(in, "started_at", 0, INT64_MIN, INT64_MAX, &self->started_at);
    self->placeable_slots =
        proto_read_map(in, "placeable_slots", 0, 64, &self->placeable_slots_count);
}

static void
s_heartbeat_print(const proto_agent_heartbeat_t *self, proto_text_t *text)
{
    proto_print_str(text, "agent_id", self->agent_id);
    proto_print_str(text, "region", self->region);
    proto_print_str(text, "scaling_group", self->scaling_group);
    proto_print_str(text, "architecture", self->architecture);
    proto_print_str(text, "version", self->version);
    proto_print_str(text, "rpc_endpoint", self->rpc_endpoint);
    proto_print_bool(text, "schedulable", self->schedulable);
    proto_print_count(text, "available_slots", self->available_slots_count);
    proto_print_count(text, "occupied_slots", self->occupied_slots_count);
    proto_print_uint(text, "kernel_count", self->kernel_count);
    proto_print_int(text, "started_at", self->started_at);
    proto_print_count(text, "placeable_slots", self->placeable_slots_count);
}

void
proto_agent_heartbeat_init(proto_agent_heartbeat_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_agent_heartbeat_clear(proto_agent_heartbeat_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_agent_heartbeat_check(const proto_agent_heartbeat_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "agent.heartbeat", err);
    return s_heartbeat_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_agent_heartbeat_write(const proto_agent_heartbeat_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_agent_heartbeat_check(self, NULL) != BUS_OK)
        return -1;
    s_heartbeat_write(self, writer);
    return 0;
}

zframe_t *
proto_agent_heartbeat_encode(const proto_agent_heartbeat_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_agent_heartbeat_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_agent_heartbeat_read(proto_agent_heartbeat_t *self,
                           const bus_value_t *map,
                           bus_error_t *err)
{
    proto_in_t in;
    proto_agent_heartbeat_init(self);
    proto_in_init(&in, "agent.heartbeat", map, &self->owned_, err);
    s_heartbeat_read(self, &in);
    if (in.status != BUS_OK)
        proto_agent_heartbeat_clear(self);
    return in.status;
}

int
proto_agent_heartbeat_decode(proto_agent_heartbeat_t *self,
                             const void *data,
                             size_t size,
                             bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_agent_heartbeat_read(self, map, err);
}

char *
proto_agent_heartbeat_print(const proto_agent_heartbeat_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_heartbeat_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  agent.stats

static bool
s_stats_check(const proto_agent_stats_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "agent_id", self->agent_id, PROTO_REQUIRED, 128))
        return false;
    if (!proto_check_count(ck, "cores", self->cores, self->cores_count, 4096))
        return false;
    for (size_t i = 0; i < self->cores_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "cores", i);
        if (!s_core_check(&self->cores[i], &item))
            return false;
    }
    if (!proto_check_count(ck, "gpus", self->gpus, self->gpus_count, 64))
        return false;
    for (size_t i = 0; i < self->gpus_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "gpus", i);
        if (!s_gpu_check(&self->gpus[i], &item))
            return false;
    }
    return true;
}

static void
s_stats_write(const proto_agent_stats_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 4;
    pairs += self->cores_count > 0;
    pairs += self->gpus_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "agent_id", self->agent_id);
    proto_write_uint(writer, "interval_ms", self->interval_ms);
    if (self->cores_count > 0) {
        proto_write_array(writer, "cores", self->cores_count);
        for (size_t i = 0; i < self->cores_count; i++)
            s_core_write(&self->cores[i], writer);
    }
    proto_write_uint(writer, "mem_used_bytes", self->mem_used_bytes);
    proto_write_uint(writer, "mem_total_bytes", self->mem_total_bytes);
    if (self->gpus_count > 0) {
        proto_write_array(writer, "gpus", self->gpus_count);
        for (size_t i = 0; i < self->gpus_count; i++)
            s_gpu_write(&self->gpus[i], writer);
    }
}

static void
s_stats_read(proto_agent_stats_t *self, proto_in_t *in)
{
    proto_read_str(in, "agent_id", PROTO_REQUIRED, 128, &self->agent_id);
    proto_read_uint(in, "interval_ms", 0, UINT64_MAX, &self->interval_ms);
    self->cores = proto_read_list(in, "cores", 0, 4096, sizeof *self->cores, s_core_item,
                                  &self->cores_count);
    proto_read_uint(in, "mem_used_bytes", 0, UINT64_MAX, &self->mem_used_bytes);
    proto_read_uint(in, "mem_total_bytes", 0, UINT64_MAX, &self->mem_total_bytes);
    self->gpus = proto_read_list(in, "gpus", 0, 64, sizeof *self->gpus, s_gpu_item,
                                 &self->gpus_count);
}

static void
s_stats_print(const proto_agent_stats_t *self, proto_text_t *text)
{
    proto_print_str(text, "agent_id", self->agent_id);
    proto_print_uint(text, "interval_ms", self->interval_ms);
    proto_print_count(text, "cores", self->cores_count);
    proto_print_uint(text, "mem_used_bytes", self->mem_used_bytes);
    proto_print_uint(text, "mem_total_bytes", self->mem_total_bytes);
    proto_print_count(text, "gpus", self->gpus_count);
}

void
proto_agent_stats_init(proto_agent_stats_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_agent_stats_clear(proto_agent_stats_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_agent_stats_check(const proto_agent_stats_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "agent.stats", err);
    return s_stats_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_agent_stats_write(const proto_agent_stats_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_agent_stats_check(self, NULL) != BUS_OK)
        return -1;
    s_stats_write(self, writer);
    return 0;
}

zframe_t *
proto_agent_stats_encode(const proto_agent_stats_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_agent_stats_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_agent_stats_read(proto_agent_stats_t *self,
                       const bus_value_t *map,
                       bus_error_t *err)
{
    proto_in_t in;
    proto_agent_stats_init(self);
    proto_in_init(&in, "agent.stats", map, &self->owned_, err);
    s_stats_read(self, &in);
    if (in.status != BUS_OK)
        proto_agent_stats_clear(self);
    return in.status;
}

int
proto_agent_stats_decode(proto_agent_stats_t *self,
                         const void *data,
                         size_t size,
                         bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_agent_stats_read(self, map, err);
}

char *
proto_agent_stats_print(const proto_agent_stats_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_stats_print(self, &text);
    return proto_text_finish(&text);
}
