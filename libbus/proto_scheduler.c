//  GENERATED FROM proto/scheduler.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_scheduler - codecs of the scheduler domain

    For each struct: file-static check, write, read and print helpers that
    nested values reuse, then the public functions of proto_scheduler.h built
    on them. Reading and printing go through the shared runtime in proto.c.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

//  ---------------------------------------------------------------------------
//  scheduler.agent

static bool
s_agent_check(const proto_scheduler_agent_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "id", self->id, PROTO_REQUIRED, 128))
        return false;
    if (!proto_check_str(ck, "status", self->status, PROTO_REQUIRED, 16))
        return false;
    if (!proto_check_str(ck, "region", self->region, 0, 64))
        return false;
    if (!proto_check_str(ck, "scaling_group", self->scaling_group, 0, 64))
        return false;
    if (!proto_check_str(ck, "addr", self->addr, 0, 256))
        return false;
    if (!proto_check_str(ck, "architecture", self->architecture, 0, 32))
        return false;
    if (!proto_check_str(ck, "version", self->version, 0, 64))
        return false;
    if (!proto_check_map(ck, "available_slots", self->available_slots,
                         self->available_slots_count, 64))
        return false;
    if (!proto_check_map(ck, "occupied_slots", self->occupied_slots,
                         self->occupied_slots_count, 64))
        return false;
    return true;
}

static void
s_agent_write(const proto_scheduler_agent_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 6;
    pairs += self->region != NULL;
    pairs += self->scaling_group != NULL;
    pairs += self->addr != NULL;
    pairs += self->architecture != NULL;
    pairs += self->version != NULL;
    pairs += self->available_slots_count > 0;
    pairs += self->occupied_slots_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "id", self->id);
    proto_write_str(writer, "status", self->status);
    if (self->region != NULL)
        proto_write_str(writer, "region", self->region);
    if (self->scaling_group != NULL)
        proto_write_str(writer, "scaling_group", self->scaling_group);
    if (self->addr != NULL)
        proto_write_str(writer, "addr", self->addr);
    if (self->architecture != NULL)
        proto_write_str(writer, "architecture", self->architecture);
    if (self->version != NULL)
        proto_write_str(writer, "version", self->version);
    proto_write_bool(writer, "schedulable", self->schedulable);
    proto_write_int(writer, "first_contact", self->first_contact);
    proto_write_int(writer, "last_seen", self->last_seen);
    proto_write_int(writer, "lost_at", self->lost_at);
    if (self->available_slots_count > 0) {
        proto_write_map(writer, "available_slots", self->available_slots,
                        self->available_slots_count);
    }
    if (self->occupied_slots_count > 0) {
        proto_write_map(writer, "occupied_slots", self->occupied_slots,
                        self->occupied_slots_count);
    }
}

static void
s_agent_read(proto_scheduler_agent_t *self, proto_in_t *in)
{
    proto_read_str(in, "id", PROTO_REQUIRED, 128, &self->id);
    proto_read_str(in, "status", PROTO_REQUIRED, 16, &self->status);
    proto_read_str(in, "region", 0, 64, &self->region);
    proto_read_str(in, "scaling_group", 0, 64, &self->scaling_group);
    proto_read_str(in, "addr", 0, 256, &self->addr);
    proto_read_str(in, "architecture", 0, 32, &self->architecture);
    proto_read_str(in, "version", 0, 64, &self->version);
    proto_read_bool(in, "schedulable", 0, &self->schedulable);
    proto_read_int(in, "first_contact", 0, INT64_MIN, INT64_MAX, &self->first_contact);
    proto_read_int(in, "last_seen", 0, INT64_MIN, INT64_MAX, &self->last_seen);
    proto_read_int(in, "lost_at", 0, INT64_MIN, INT64_MAX, &self->lost_at);
    self->available_slots =
        proto_read_map(in, "available_slots", 0, 64, &self->available_slots_count);
    self->occupied_slots =
        proto_read_map(in, "occupied_slots", 0, 64, &self->occupied_slots_count);
}

static void
s_agent_print(const proto_scheduler_agent_t *self, proto_text_t *text)
{
    proto_print_str(text, "id", self->id);
    proto_print_str(text, "status", self->status);
    proto_print_str(text, "region", self->region);
    proto_print_str(text, "scaling_group", self->scaling_group);
    proto_print_str(text, "addr", self->addr);
    proto_print_str(text, "architecture", self->architecture);
    proto_print_str(text, "version", self->version);
    proto_print_bool(text, "schedulable", self->schedulable);
    proto_print_int(text, "first_contact", self->first_contact);
    proto_print_int(text, "last_seen", self->last_seen);
    proto_print_int(text, "lost_at", self->lost_at);
    proto_print_count(text, "available_slots", self->available_slots_count);
    proto_print_count(text, "occupied_slots", self->occupied_slots_count);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_agent_item(void *item, proto_in_t *in)
{
    proto_scheduler_agent_init(item);
    s_agent_read(item, in);
}

void
proto_scheduler_agent_init(proto_scheduler_agent_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_scheduler_agent_clear(proto_scheduler_agent_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_scheduler_agent_check(const proto_scheduler_agent_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "scheduler.agent", err);
    return s_agent_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_scheduler_agent_write(const proto_scheduler_agent_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_scheduler_agent_check(self, NULL) != BUS_OK)
        return -1;
    s_agent_write(self, writer);
    return 0;
}

zframe_t *
proto_scheduler_agent_encode(const proto_scheduler_agent_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_scheduler_agent_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_scheduler_agent_read(proto_scheduler_agent_t *self,
                           const bus_value_t *map,
                           bus_error_t *err)
{
    proto_in_t in;
    proto_scheduler_agent_init(self);
    proto_in_init(&in, "scheduler.agent", map, &self->owned_, err);
    s_agent_read(self, &in);
    if (in.status != BUS_OK)
        proto_scheduler_agent_clear(self);
    return in.status;
}

int
proto_scheduler_agent_decode(proto_scheduler_agent_t *self,
                             const void *data,
                             size_t size,
                             bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_scheduler_agent_read(self, map, err);
}

char *
proto_scheduler_agent_print(const proto_scheduler_agent_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_agent_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  scheduler.usage

static bool
s_usage_check(const proto_scheduler_usage_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "scaling_group", self->scaling_group, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_map(ck, "slots", self->slots, self->slots_count, 64))
        return false;
    return true;
}

static void
s_usage_write(const proto_scheduler_usage_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->slots_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "scaling_group", self->scaling_group);
    if (self->slots_count > 0)
        proto_write_map(writer, "slots", self->slots, self->slots_count);
}

static void
s_usage_read(proto_scheduler_usage_t *self, proto_in_t *in)
{
    proto_read_str(in, "scaling_group", PROTO_REQUIRED, 64, &self->scaling_group);
    self->slots = proto_read_map(in, "slots", 0, 64, &self->slots_count);
}

static void
s_usage_print(const proto_scheduler_usage_t *self, proto_text_t *text)
{
    proto_print_str(text, "scaling_group", self->scaling_group);
    proto_print_count(text, "slots", self->slots_count);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_usage_item(void *item, proto_in_t *in)
{
    proto_scheduler_usage_init(item);
    s_usage_read(item, in);
}

void
proto_scheduler_usage_init(proto_scheduler_usage_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_scheduler_usage_clear(proto_scheduler_usage_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_scheduler_usage_check(const proto_scheduler_usage_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "scheduler.usage", err);
    return s_usage_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_scheduler_usage_write(const proto_scheduler_usage_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_scheduler_usage_check(self, NULL) != BUS_OK)
        return -1;
    s_usage_write(self, writer);
    return 0;
}

zframe_t *
proto_scheduler_usage_encode(const proto_scheduler_usage_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_scheduler_usage_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_scheduler_usage_read(proto_scheduler_usage_t *self,
                           const bus_value_t *map,
                           bus_error_t *err)
{
    proto_in_t in;
    proto_scheduler_usage_init(self);
    proto_in_init(&in, "scheduler.usage", map, &self->owned_, err);
    s_usage_read(self, &in);
    if (in.status != BUS_OK)
        proto_scheduler_usage_clear(self);
    return in.status;
}

int
proto_scheduler_usage_decode(proto_scheduler_usage_t *self,
                             const void *data,
                             size_t size,
                             bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_scheduler_usage_read(self, map, err);
}

char *
proto_scheduler_usage_print(const proto_scheduler_usage_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_usage_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  scheduler.agent_ref

static bool
s_agent_ref_check(const proto_scheduler_agent_ref_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "id", self->id, PROTO_REQUIRED, 128))
        return false;
    return true;
}

static void
s_agent_ref_write(const proto_scheduler_agent_ref_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    proto_write_str(writer, "id", self->id);
}

static void
s_agent_ref_read(proto_scheduler_agent_ref_t *self, proto_in_t *in)
{
    proto_read_str(in, "id", PROTO_REQUIRED, 128, &self->id);
}

static void
s_agent_ref_print(const proto_scheduler_agent_ref_t *self, proto_text_t *text)
{
    proto_print_str(text, "id", self->id);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_agent_ref_item(void *item, proto_in_t *in)
{
    proto_scheduler_agent_ref_init(item);
    s_agent_ref_read(item, in);
}

void
proto_scheduler_agent_ref_init(proto_scheduler_agent_ref_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_scheduler_agent_ref_clear(proto_scheduler_agent_ref_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_scheduler_agent_ref_check(const proto_scheduler_agent_ref_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "scheduler.agent_ref", err);
    return s_agent_ref_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_scheduler_agent_ref_write(const proto_scheduler_agent_ref_t *self,
                                bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_scheduler_agent_ref_check(self, NULL) != BUS_OK)
        return -1;
    s_agent_ref_write(self, writer);
    return 0;
}

zframe_t *
proto_scheduler_agent_ref_encode(const proto_scheduler_agent_ref_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_scheduler_agent_ref_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_scheduler_agent_ref_read(proto_scheduler_agent_ref_t *self,
                               const bus_value_t *map,
                               bus_error_t *err)
{
    proto_in_t in;
    proto_scheduler_agent_ref_init(self);
    proto_in_init(&in, "scheduler.agent_ref", map, &self->owned_, err);
    s_agent_ref_read(self, &in);
    if (in.status != BUS_OK)
        proto_scheduler_agent_ref_clear(self);
    return in.status;
}

int
proto_scheduler_agent_ref_decode(proto_scheduler_agent_ref_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_scheduler_agent_ref_read(self, map, err);
}

char *
proto_scheduler_agent_ref_print(const proto_scheduler_agent_ref_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_agent_ref_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  scheduler.keypair_concurrency

static bool
s_keypair_concurrency_check(const proto_scheduler_keypair_concurrency_t *self,
                            proto_check_t *ck)
{
    if (!proto_check_str(ck, "access_key", self->access_key, PROTO_REQUIRED, 64))
        return false;
    return true;
}

static void
s_keypair_concurrency_write(const proto_scheduler_keypair_concurrency_t *self,
                            bus_writer_t *writer)
{
    bus_writer_map(writer, 2);
    proto_write_str(writer, "access_key", self->access_key);
    proto_write_uint(writer, "concurrency_used", self->concurrency_used);
}

static void
s_keypair_concurrency_read(proto_scheduler_keypair_concurrency_t *self, proto_in_t *in)
{
    proto_read_str(in, "access_key", PROTO_REQUIRED, 64, &self->access_key);
    proto_read_uint(in, "concurrency_used", 0, UINT64_MAX, &self->concurrency_used);
}

static void
s_keypair_concurrency_print(const proto_scheduler_keypair_concurrency_t *self,
                            proto_text_t *text)
{
    proto_print_str(text, "access_key", self->access_key);
    proto_print_uint(text, "concurrency_used", self->concurrency_used);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_keypair_concurrency_item(void *item, proto_in_t *in)
{
    proto_scheduler_keypair_concurrency_init(item);
    s_keypair_concurrency_read(item, in);
}

void
proto_scheduler_keypair_concurrency_init(proto_scheduler_keypair_concurrency_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_scheduler_keypair_concurrency_clear(proto_scheduler_keypair_concurrency_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_scheduler_keypair_concurrency_check(const proto_scheduler_keypair_concurrency_t *self,
                                          bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "scheduler.keypair_concurrency", err);
    return s_keypair_concurrency_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_scheduler_keypair_concurrency_write(const proto_scheduler_keypair_concurrency_t *self,
                                          bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_scheduler_keypair_concurrency_check(self, NULL) != BUS_OK)
        return -1;
    s_keypair_concurrency_write(self, writer);
    return 0;
}

zframe_t *
proto_scheduler_keypair_concurrency_encode(const proto_scheduler_keypair_concurrency_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_scheduler_keypair_concurrency_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_scheduler_keypair_concurrency_read(proto_scheduler_keypair_concurrency_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err)
{
    proto_in_t in;
    proto_scheduler_keypair_concurrency_init(self);
    proto_in_init(&in, "scheduler.keypair_concurrency", map, &self->owned_, err);
    s_keypair_concurrency_read(self, &in);
    if (in.status != BUS_OK)
        proto_scheduler_keypair_concurrency_clear(self);
    return in.status;
}

int
proto_scheduler_keypair_concurrency_decode(proto_scheduler_keypair_concurrency_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_scheduler_keypair_concurrency_read(self, map, err);
}

char *
proto_scheduler_keypair_concurrency_print(const proto_scheduler_keypair_concurrency_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_keypair_concurrency_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  scheduler.agents request

static bool
s_agents_req_check(const proto_scheduler_agents_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "scaling_group", self->scaling_group, 0, 64))
        return false;
    if (!proto_check_str(ck, "status", self->status, 0, 64))
        return false;
    return true;
}

static void
s_agents_req_write(const proto_scheduler_agents_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->scaling_group != NULL;
    pairs += self->status != NULL;
    bus_writer_map(writer, pairs);
    if (self->scaling_group != NULL)
        proto_write_str(writer, "scaling_group", self->scaling_group);
    if (self->status != NULL)
        proto_write_str(writer, "status", self->status);
}

static void
s_agents_req_read(proto_scheduler_agents_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "scaling_group", 0, 64, &self->scaling_group);
    proto_read_str(in, "status", 0, 64, &self->status);
}

static void
s_agents_req_print(const proto_scheduler_agents_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "scaling_group", self->scaling_group);
    proto_print_str(text, "status", self->status);
}

void
proto_scheduler_agents_req_init(proto_scheduler_agents_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_scheduler_agents_req_clear(proto_scheduler_agents_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_scheduler_agents_req_check(const proto_scheduler_agents_req_t *self,
                                 bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "scheduler.agents request", err);
    return s_agents_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_scheduler_agents_req_write(const proto_scheduler_agents_req_t *self,
                                 bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_scheduler_agents_req_check(self, NULL) != BUS_OK)
        return -1;
    s_agents_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_scheduler_agents_req_writer(const proto_scheduler_agents_req_t *self,
                                  bus_error_t *err)
{
    assert(self);
    if (proto_scheduler_agents_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "scheduler.agents request: out of memory");
        return NULL;
    }
    s_agents_req_write(self, writer);
    return writer;
}

zframe_t *
proto_scheduler_agents_req_encode(const proto_scheduler_agents_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_scheduler_agents_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_scheduler_agents_req_read(proto_scheduler_agents_req_t *self,
                                const bus_value_t *map,
                                bus_error_t *err)
{
    proto_in_t in;
    proto_scheduler_agents_req_init(self);
    proto_in_init(&in, "scheduler.agents request", map, &self->owned_, err);
    s_agents_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_scheduler_agents_req_clear(self);
    return in.status;
}

int
proto_scheduler_agents_req_decode(proto_scheduler_agents_req_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_scheduler_agents_req_read(self, map, err);
}

char *
proto_scheduler_agents_req_print(const proto_scheduler_agents_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_agents_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  scheduler.agents reply

static bool
s_agents_rep_check(const proto_scheduler_agents_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_count(ck, "agents", self->agents, self->agents_count, 10000))
        return false;
    for (size_t i = 0; i < self->agents_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "agents", i);
        if (!s_agent_check(&self->agents[i], &item))
            return false;
    }
    return true;
}

static void
s_agents_rep_write(const proto_scheduler_agents_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->agents_count > 0;
    bus_writer_map(writer, pairs);
    if (self->agents_count > 0) {
        proto_write_array(writer, "agents", self->agents_count);
        for (size_t i = 0; i < self->agents_count; i++)
            s_agent_write(&self->agents[i], writer);
    }
}

static void
s_agents_rep_read(proto_scheduler_agents_rep_t *self, proto_in_t *in)
{
    self->agents = proto_read_list(in, "agents", 0, 10000, sizeof *self->agents,
                                   s_agent_item, &self->agents_count);
}

static void
s_agents_rep_print(const proto_scheduler_agents_rep_t *self, proto_text_t *text)
{
    proto_print_count(text, "agents", self->agents_count);
}

void
proto_scheduler_agents_rep_init(proto_scheduler_agents_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_scheduler_agents_rep_clear(proto_scheduler_agents_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_scheduler_agents_rep_check(const proto_scheduler_agents_rep_t *self,
                                 bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "scheduler.agents reply", err);
    return s_agents_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_scheduler_agents_rep_write(const proto_scheduler_agents_rep_t *self,
                                 bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_scheduler_agents_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_agents_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_scheduler_agents_rep_encode(const proto_scheduler_agents_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_scheduler_agents_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_scheduler_agents_rep_read(proto_scheduler_agents_rep_t *self,
                                const bus_value_t *map,
                                bus_error_t *err)
{
    proto_in_t in;
    proto_scheduler_agents_rep_init(self);
    proto_in_init(&in, "scheduler.agents reply", map, &self->owned_, err);
    s_agents_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_scheduler_agents_rep_clear(self);
    return in.status;
}

int
proto_scheduler_agents_rep_decode(proto_scheduler_agents_rep_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_scheduler_agents_rep_read(self, map, err);
}

char *
proto_scheduler_agents_rep_print(const proto_scheduler_agents_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_agents_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  scheduler.usage request

static bool
s_usage_req_check(const proto_scheduler_usage_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "access_key", self->access_key, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "group_id", self->group_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "domain_name", self->domain_name, 0, 64))
        return false;
    return true;
}

static void
s_usage_req_write(const proto_scheduler_usage_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->group_id != NULL;
    pairs += self->domain_name != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "access_key", self->access_key);
    if (self->group_id != NULL)
        proto_write_str(writer, "group_id", self->group_id);
    if (self->domain_name != NULL)
        proto_write_str(writer, "domain_name", self->domain_name);
}

static void
s_usage_req_read(proto_scheduler_usage_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "access_key", PROTO_REQUIRED, 64, &self->access_key);
    proto_read_str(in, "group_id", 0, 64, &self->group_id);
    proto_read_str(in, "domain_name", 0, 64, &self->domain_name);
}

static void
s_usage_req_print(const proto_scheduler_usage_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "access_key", self->access_key);
    proto_print_str(text, "group_id", self->group_id);
    proto_print_str(text, "domain_name", self->domain_name);
}

void
proto_scheduler_usage_req_init(proto_scheduler_usage_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_scheduler_usage_req_clear(proto_scheduler_usage_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_scheduler_usage_req_check(const proto_scheduler_usage_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "scheduler.usage request", err);
    return s_usage_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_scheduler_usage_req_write(const proto_scheduler_usage_req_t *self,
                                bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_scheduler_usage_req_check(self, NULL) != BUS_OK)
        return -1;
    s_usage_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_scheduler_usage_req_writer(const proto_scheduler_usage_req_t *self,
                                 bus_error_t *err)
{
    assert(self);
    if (proto_scheduler_usage_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "scheduler.usage request: out of memory");
        return NULL;
    }
    s_usage_req_write(self, writer);
    return writer;
}

zframe_t *
proto_scheduler_usage_req_encode(const proto_scheduler_usage_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_scheduler_usage_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_scheduler_usage_req_read(proto_scheduler_usage_req_t *self,
                               const bus_value_t *map,
                               bus_error_t *err)
{
    proto_in_t in;
    proto_scheduler_usage_req_init(self);
    proto_in_init(&in, "scheduler.usage request", map, &self->owned_, err);
    s_usage_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_scheduler_usage_req_clear(self);
    return in.status;
}

int
proto_scheduler_usage_req_decode(proto_scheduler_usage_req_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_scheduler_usage_req_read(self, map, err);
}

char *
proto_scheduler_usage_req_print(const proto_scheduler_usage_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_usage_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  scheduler.usage reply

static bool
s_usage_rep_check(const proto_scheduler_usage_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_map(ck, "keypair", self->keypair, self->keypair_count, 64))
        return false;
    if (!proto_check_map(ck, "group", self->group, self->group_count, 64))
        return false;
    if (!proto_check_map(ck, "domain", self->domain, self->domain_count, 64))
        return false;
    if (!proto_check_count(ck, "keypair_by_scaling_group", self->keypair_by_scaling_group,
                           self->keypair_by_scaling_group_count, 1024))
        return false;
    for (size_t i = 0; i < self->keypair_by_scaling_group_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "keypair_by_scaling_group", i);
        if (!s_usage_check(&self->keypair_by_scaling_group[i], &item))
            return false;
    }
    return true;
}

static void
s_usage_rep_write(const proto_scheduler_usage_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->keypair_count > 0;
    pairs += self->group_count > 0;
    pairs += self->domain_count > 0;
    pairs += self->keypair_by_scaling_group_count > 0;
    bus_writer_map(writer, pairs);
    if (self->keypair_count > 0)
        proto_write_map(writer, "keypair", self->keypair, self->keypair_count);
    if (self->group_count > 0)
        proto_write_map(writer, "group", self->group, self->group_count);
    if (self->domain_count > 0)
        proto_write_map(writer, "domain", self->domain, self->domain_count);
    if (self->keypair_by_scaling_group_count > 0) {
        proto_write_array(writer, "keypair_by_scaling_group",
                          self->keypair_by_scaling_group_count);
        for (size_t i = 0; i < self->keypair_by_scaling_group_count; i++)
            s_usage_write(&self->keypair_by_scaling_group[i], writer);
    }
}

static void
s_usage_rep_read(proto_scheduler_usage_rep_t *self, proto_in_t *in)
{
    self->keypair = proto_read_map(in, "keypair", 0, 64, &self->keypair_count);
    self->group = proto_read_map(in, "group", 0, 64, &self->group_count);
    self->domain = proto_read_map(in, "domain", 0, 64, &self->domain_count);
    self->keypair_by_scaling_group = proto_read_list(in, "keypair_by_scaling_group", 0,
                                                     1024,
                                                     sizeof *self->keypair_by_scaling_group,
                                                     s_usage_item,
                                                     &self->keypair_by_scaling_group_count);
}

static void
s_usage_rep_print(const proto_scheduler_usage_rep_t *self, proto_text_t *text)
{
    proto_print_count(text, "keypair", self->keypair_count);
    proto_print_count(text, "group", self->group_count);
    proto_print_count(text, "domain", self->domain_count);
    proto_print_count(text, "keypair_by_scaling_group",
                      self->keypair_by_scaling_group_count);
}

void
proto_scheduler_usage_rep_init(proto_scheduler_usage_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_scheduler_usage_rep_clear(proto_scheduler_usage_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_scheduler_usage_rep_check(const proto_scheduler_usage_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "scheduler.usage reply", err);
    return s_usage_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_scheduler_usage_rep_write(const proto_scheduler_usage_rep_t *self,
                                bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_scheduler_usage_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_usage_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_scheduler_usage_rep_encode(const proto_scheduler_usage_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_scheduler_usage_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_scheduler_usage_rep_read(proto_scheduler_usage_rep_t *self,
                               const bus_value_t *map,
                               bus_error_t *err)
{
    proto_in_t in;
    proto_scheduler_usage_rep_init(self);
    proto_in_init(&in, "scheduler.usage reply", map, &self->owned_, err);
    s_usage_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_scheduler_usage_rep_clear(self);
    return in.status;
}

int
proto_scheduler_usage_rep_decode(proto_scheduler_usage_rep_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_scheduler_usage_rep_read(self, map, err);
}

char *
proto_scheduler_usage_rep_print(const proto_scheduler_usage_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_usage_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  scheduler.invariant request

static bool
s_invariant_req_check(const proto_scheduler_invariant_req_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_invariant_req_write(const proto_scheduler_invariant_req_t *self, bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_invariant_req_read(proto_scheduler_invariant_req_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_invariant_req_print(const proto_scheduler_invariant_req_t *self, proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_scheduler_invariant_req_init(proto_scheduler_invariant_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_scheduler_invariant_req_clear(proto_scheduler_invariant_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_scheduler_invariant_req_check(const proto_scheduler_invariant_req_t *self,
                                    bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "scheduler.invariant request", err);
    return s_invariant_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_scheduler_invariant_req_write(const proto_scheduler_invariant_req_t *self,
                                    bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_scheduler_invariant_req_check(self, NULL) != BUS_OK)
        return -1;
    s_invariant_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_scheduler_invariant_req_writer(const proto_scheduler_invariant_req_t *self,
                                     bus_error_t *err)
{
    assert(self);
    if (proto_scheduler_invariant_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "scheduler.invariant request: out of memory");
        return NULL;
    }
    s_invariant_req_write(self, writer);
    return writer;
}

zframe_t *
proto_scheduler_invariant_req_encode(const proto_scheduler_invariant_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_scheduler_invariant_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_scheduler_invariant_req_read(proto_scheduler_invariant_req_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err)
{
    proto_in_t in;
    proto_scheduler_invariant_req_init(self);
    proto_in_init(&in, "scheduler.invariant request", map, &self->owned_, err);
    s_invariant_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_scheduler_invariant_req_clear(self);
    return in.status;
}

int
proto_scheduler_invariant_req_decode(proto_scheduler_invariant_req_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_scheduler_invariant_req_read(self, map, err);
}

char *
proto_scheduler_invariant_req_print(const proto_scheduler_invariant_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_invariant_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  scheduler.invariant reply

static bool
s_invariant_rep_check(const proto_scheduler_invariant_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "report", self->report, 0, 1048576))
        return false;
    return true;
}

static void
s_invariant_rep_write(const proto_scheduler_invariant_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->report != NULL;
    bus_writer_map(writer, pairs);
    proto_write_uint(writer, "violations", self->violations);
    if (self->report != NULL)
        proto_write_str(writer, "report", self->report);
}

static void
s_invariant_rep_read(proto_scheduler_invariant_rep_t *self, proto_in_t *in)
{
    proto_read_uint(in, "violations", 0, UINT64_MAX, &self->violations);
    proto_read_str(in, "report", 0, 1048576, &self->report);
}

static void
s_invariant_rep_print(const proto_scheduler_invariant_rep_t *self, proto_text_t *text)
{
    proto_print_uint(text, "violations", self->violations);
    proto_print_str(text, "report", self->report);
}

void
proto_scheduler_invariant_rep_init(proto_scheduler_invariant_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_scheduler_invariant_rep_clear(proto_scheduler_invariant_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_scheduler_invariant_rep_check(const proto_scheduler_invariant_rep_t *self,
                                    bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "scheduler.invariant reply", err);
    return s_invariant_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_scheduler_invariant_rep_write(const proto_scheduler_invariant_rep_t *self,
                                    bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_scheduler_invariant_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_invariant_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_scheduler_invariant_rep_encode(const proto_scheduler_invariant_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_scheduler_invariant_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_scheduler_invariant_rep_read(proto_scheduler_invariant_rep_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err)
{
    proto_in_t in;
    proto_scheduler_invariant_rep_init(self);
    proto_in_init(&in, "scheduler.invariant reply", map, &self->owned_, err);
    s_invariant_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_scheduler_invariant_rep_clear(self);
    return in.status;
}

int
proto_scheduler_invariant_rep_decode(proto_scheduler_invariant_rep_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_scheduler_invariant_rep_read(self, map, err);
}

char *
proto_scheduler_invariant_rep_print(const proto_scheduler_invariant_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_invariant_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  scheduler.recalculate request

static bool
s_recalculate_req_check(const proto_scheduler_recalculate_req_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_recalculate_req_write(const proto_scheduler_recalculate_req_t *self,
                        bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_recalculate_req_read(proto_scheduler_recalculate_req_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_recalculate_req_print(const proto_scheduler_recalculate_req_t *self, proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_scheduler_recalculate_req_init(proto_scheduler_recalculate_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_scheduler_recalculate_req_clear(proto_scheduler_recalculate_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_scheduler_recalculate_req_check(const proto_scheduler_recalculate_req_t *self,
                                      bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "scheduler.recalculate request", err);
    return s_recalculate_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_scheduler_recalculate_req_write(const proto_scheduler_recalculate_req_t *self,
                                      bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_scheduler_recalculate_req_check(self, NULL) != BUS_OK)
        return -1;
    s_recalculate_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_scheduler_recalculate_req_writer(const proto_scheduler_recalculate_req_t *self,
                                       bus_error_t *err)
{
    assert(self);
    if (proto_scheduler_recalculate_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "scheduler.recalculate request: out of memory");
        return NULL;
    }
    s_recalculate_req_write(self, writer);
    return writer;
}

zframe_t *
proto_scheduler_recalculate_req_encode(const proto_scheduler_recalculate_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_scheduler_recalculate_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_scheduler_recalculate_req_read(proto_scheduler_recalculate_req_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err)
{
    proto_in_t in;
    proto_scheduler_recalculate_req_init(self);
    proto_in_init(&in, "scheduler.recalculate request", map, &self->owned_, err);
    s_recalculate_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_scheduler_recalculate_req_clear(self);
    return in.status;
}

int
proto_scheduler_recalculate_req_decode(proto_scheduler_recalculate_req_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_scheduler_recalculate_req_read(self, map, err);
}

char *
proto_scheduler_recalculate_req_print(const proto_scheduler_recalculate_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_recalculate_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  scheduler.recalculate reply

static bool
s_recalculate_rep_check(const proto_scheduler_recalculate_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "report", self->report, 0, 1048576))
        return false;
    return true;
}

static void
s_recalculate_rep_write(const proto_scheduler_recalculate_rep_t *self,
                        bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->report != NULL;
    bus_writer_map(writer, pairs);
    proto_write_uint(writer, "fixed", self->fixed);
    proto_write_uint(writer, "violations", self->violations);
    if (self->report != NULL)
        proto_write_str(writer, "report", self->report);
}

static void
s_recalculate_rep_read(proto_scheduler_recalculate_rep_t *self, proto_in_t *in)
{
    proto_read_uint(in, "fixed", 0, UINT64_MAX, &self->fixed);
    proto_read_uint(in, "violations", 0, UINT64_MAX, &self->violations);
    proto_read_str(in, "report", 0, 1048576, &self->report);
}

static void
s_recalculate_rep_print(const proto_scheduler_recalculate_rep_t *self, proto_text_t *text)
{
    proto_print_uint(text, "fixed", self->fixed);
    proto_print_uint(text, "violations", self->violations);
    proto_print_str(text, "report", self->report);
}

void
proto_scheduler_recalculate_rep_init(proto_scheduler_recalculate_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_scheduler_recalculate_rep_clear(proto_scheduler_recalculate_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_scheduler_recalculate_rep_check(const proto_scheduler_recalculate_rep_t *self,
                                      bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "scheduler.recalculate reply", err);
    return s_recalculate_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_scheduler_recalculate_rep_write(const proto_scheduler_recalculate_rep_t *self,
                                      bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_scheduler_recalculate_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_recalculate_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_scheduler_recalculate_rep_encode(const proto_scheduler_recalculate_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_scheduler_recalculate_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_scheduler_recalculate_rep_read(proto_scheduler_recalculate_rep_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err)
{
    proto_in_t in;
    proto_scheduler_recalculate_rep_init(self);
    proto_in_init(&in, "scheduler.recalculate reply", map, &self->owned_, err);
    s_recalculate_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_scheduler_recalculate_rep_clear(self);
    return in.status;
}

int
proto_scheduler_recalculate_rep_decode(proto_scheduler_recalculate_rep_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_scheduler_recalculate_rep_read(self, map, err);
}

char *
proto_scheduler_recalculate_rep_print(const proto_scheduler_recalculate_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_recalculate_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  scheduler.schedulable request

static bool
s_schedulable_req_check(const proto_scheduler_schedulable_req_t *self, proto_check_t *ck)
{
    if (!proto_check_count(ck, "agents", self->agents, self->agents_count, 10000))
        return false;
    for (size_t i = 0; i < self->agents_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "agents", i);
        if (!s_agent_ref_check(&self->agents[i], &item))
            return false;
    }
    return true;
}

static void
s_schedulable_req_write(const proto_scheduler_schedulable_req_t *self,
                        bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->agents_count > 0;
    bus_writer_map(writer, pairs);
    if (self->agents_count > 0) {
        proto_write_array(writer, "agents", self->agents_count);
        for (size_t i = 0; i < self->agents_count; i++)
            s_agent_ref_write(&self->agents[i], writer);
    }
    proto_write_bool(writer, "schedulable", self->schedulable);
}

static void
s_schedulable_req_read(proto_scheduler_schedulable_req_t *self, proto_in_t *in)
{
    self->agents = proto_read_list(in, "agents", 0, 10000, sizeof *self->agents,
                                   s_agent_ref_item, &self->agents_count);
    proto_read_bool(in, "schedulable", 0, &self->schedulable);
}

static void
s_schedulable_req_print(const proto_scheduler_schedulable_req_t *self, proto_text_t *text)
{
    proto_print_count(text, "agents", self->agents_count);
    proto_print_bool(text, "schedulable", self->schedulable);
}

void
proto_scheduler_schedulable_req_init(proto_scheduler_schedulable_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_scheduler_schedulable_req_clear(proto_scheduler_schedulable_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_scheduler_schedulable_req_check(const proto_scheduler_schedulable_req_t *self,
                                      bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "scheduler.schedulable request", err);
    return s_schedulable_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_scheduler_schedulable_req_write(const proto_scheduler_schedulable_req_t *self,
                                      bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_scheduler_schedulable_req_check(self, NULL) != BUS_OK)
        return -1;
    s_schedulable_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_scheduler_schedulable_req_writer(const proto_scheduler_schedulable_req_t *self,
                                       bus_error_t *err)
{
    assert(self);
    if (proto_scheduler_schedulable_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "scheduler.schedulable request: out of memory");
        return NULL;
    }
    s_schedulable_req_write(self, writer);
    return writer;
}

zframe_t *
proto_scheduler_schedulable_req_encode(const proto_scheduler_schedulable_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_scheduler_schedulable_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_scheduler_schedulable_req_read(proto_scheduler_schedulable_req_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err)
{
    proto_in_t in;
    proto_scheduler_schedulable_req_init(self);
    proto_in_init(&in, "scheduler.schedulable request", map, &self->owned_, err);
    s_schedulable_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_scheduler_schedulable_req_clear(self);
    return in.status;
}

int
proto_scheduler_schedulable_req_decode(proto_scheduler_schedulable_req_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_scheduler_schedulable_req_read(self, map, err);
}

char *
proto_scheduler_schedulable_req_print(const proto_scheduler_schedulable_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_schedulable_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  scheduler.schedulable reply

static bool
s_schedulable_rep_check(const proto_scheduler_schedulable_rep_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_schedulable_rep_write(const proto_scheduler_schedulable_rep_t *self,
                        bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    proto_write_uint(writer, "changed", self->changed);
}

static void
s_schedulable_rep_read(proto_scheduler_schedulable_rep_t *self, proto_in_t *in)
{
    proto_read_uint(in, "changed", 0, UINT64_MAX, &self->changed);
}

static void
s_schedulable_rep_print(const proto_scheduler_schedulable_rep_t *self, proto_text_t *text)
{
    proto_print_uint(text, "changed", self->changed);
}

void
proto_scheduler_schedulable_rep_init(proto_scheduler_schedulable_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_scheduler_schedulable_rep_clear(proto_scheduler_schedulable_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_scheduler_schedulable_rep_check(const proto_scheduler_schedulable_rep_t *self,
                                      bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "scheduler.schedulable reply", err);
    return s_schedulable_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_scheduler_schedulable_rep_write(const proto_scheduler_schedulable_rep_t *self,
                                      bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_scheduler_schedulable_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_schedulable_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_scheduler_schedulable_rep_encode(const proto_scheduler_schedulable_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_scheduler_schedulable_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_scheduler_schedulable_rep_read(proto_scheduler_schedulable_rep_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err)
{
    proto_in_t in;
    proto_scheduler_schedulable_rep_init(self);
    proto_in_init(&in, "scheduler.schedulable reply", map, &self->owned_, err);
    s_schedulable_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_scheduler_schedulable_rep_clear(self);
    return in.status;
}

int
proto_scheduler_schedulable_rep_decode(proto_scheduler_schedulable_rep_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_scheduler_schedulable_rep_read(self, map, err);
}

char *
proto_scheduler_schedulable_rep_print(const proto_scheduler_schedulable_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_schedulable_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  scheduler.concurrency request

static bool
s_concurrency_req_check(const proto_scheduler_concurrency_req_t *self, proto_check_t *ck)
{
    if (!proto_check_strs(ck, "access_keys", self->access_keys, self->access_keys_count,
                          1000))
        return false;
    return true;
}

static void
s_concurrency_req_write(const proto_scheduler_concurrency_req_t *self,
                        bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->access_keys_count > 0;
    bus_writer_map(writer, pairs);
    if (self->access_keys_count > 0) {
        proto_write_strs(writer, "access_keys", self->access_keys,
                         self->access_keys_count);
    }
}

static void
s_concurrency_req_read(proto_scheduler_concurrency_req_t *self, proto_in_t *in)
{
    self->access_keys =
        proto_read_strs(in, "access_keys", 0, 1000, &self->access_keys_count);
}

static void
s_concurrency_req_print(const proto_scheduler_concurrency_req_t *self, proto_text_t *text)
{
    proto_print_count(text, "access_keys", self->access_keys_count);
}

void
proto_scheduler_concurrency_req_init(proto_scheduler_concurrency_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_scheduler_concurrency_req_clear(proto_scheduler_concurrency_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_scheduler_concurrency_req_check(const proto_scheduler_concurrency_req_t *self,
                                      bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "scheduler.concurrency request", err);
    return s_concurrency_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_scheduler_concurrency_req_write(const proto_scheduler_concurrency_req_t *self,
                                      bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_scheduler_concurrency_req_check(self, NULL) != BUS_OK)
        return -1;
    s_concurrency_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_scheduler_concurrency_req_writer(const proto_scheduler_concurrency_req_t *self,
                                       bus_error_t *err)
{
    assert(self);
    if (proto_scheduler_concurrency_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "scheduler.concurrency request: out of memory");
        return NULL;
    }
    s_concurrency_req_write(self, writer);
    return writer;
}

zframe_t *
proto_scheduler_concurrency_req_encode(const proto_scheduler_concurrency_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_scheduler_concurrency_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_scheduler_concurrency_req_read(proto_scheduler_concurrency_req_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err)
{
    proto_in_t in;
    proto_scheduler_concurrency_req_init(self);
    proto_in_init(&in, "scheduler.concurrency request", map, &self->owned_, err);
    s_concurrency_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_scheduler_concurrency_req_clear(self);
    return in.status;
}

int
proto_scheduler_concurrency_req_decode(proto_scheduler_concurrency_req_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_scheduler_concurrency_req_read(self, map, err);
}

char *
proto_scheduler_concurrency_req_print(const proto_scheduler_concurrency_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_concurrency_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  scheduler.concurrency reply

static bool
s_concurrency_rep_check(const proto_scheduler_concurrency_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_count(ck, "keypairs", self->keypairs, self->keypairs_count, 1000))
        return false;
    for (size_t i = 0; i < self->keypairs_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "keypairs", i);
        if (!s_keypair_concurrency_check(&self->keypairs[i], &item))
            return false;
    }
    return true;
}

static void
s_concurrency_rep_write(const proto_scheduler_concurrency_rep_t *self,
                        bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->keypairs_count > 0;
    bus_writer_map(writer, pairs);
    if (self->keypairs_count > 0) {
        proto_write_array(writer, "keypairs", self->keypairs_count);
        for (size_t i = 0; i < self->keypairs_count; i++)
            s_keypair_concurrency_write(&self->keypairs[i], writer);
    }
}

static void
s_concurrency_rep_read(proto_scheduler_concurrency_rep_t *self, proto_in_t *in)
{
    self->keypairs = proto_read_list(in, "keypairs", 0, 1000, sizeof *self->keypairs,
                                     s_keypair_concurrency_item, &self->keypairs_count);
}

static void
s_concurrency_rep_print(const proto_scheduler_concurrency_rep_t *self, proto_text_t *text)
{
    proto_print_count(text, "keypairs", self->keypairs_count);
}

void
proto_scheduler_concurrency_rep_init(proto_scheduler_concurrency_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_scheduler_concurrency_rep_clear(proto_scheduler_concurrency_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_scheduler_concurrency_rep_check(const proto_scheduler_concurrency_rep_t *self,
                                      bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "scheduler.concurrency reply", err);
    return s_concurrency_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_scheduler_concurrency_rep_write(const proto_scheduler_concurrency_rep_t *self,
                                      bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_scheduler_concurrency_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_concurrency_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_scheduler_concurrency_rep_encode(const proto_scheduler_concurrency_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_scheduler_concurrency_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_scheduler_concurrency_rep_read(proto_scheduler_concurrency_rep_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err)
{
    proto_in_t in;
    proto_scheduler_concurrency_rep_init(self);
    proto_in_init(&in, "scheduler.concurrency reply", map, &self->owned_, err);
    s_concurrency_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_scheduler_concurrency_rep_clear(self);
    return in.status;
}

int
proto_scheduler_concurrency_rep_decode(proto_scheduler_concurrency_rep_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_scheduler_concurrency_rep_read(self, map, err);
}

char *
proto_scheduler_concurrency_rep_print(const proto_scheduler_concurrency_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_concurrency_rep_print(self, &text);
    return proto_text_finish(&text);
}
