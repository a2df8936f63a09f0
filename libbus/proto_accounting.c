//  GENERATED FROM proto/accounting.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_accounting - codecs of the accounting domain

    For each struct: file-static check, write, read and print helpers that
    nested values reuse, then the public functions of proto_accounting.h built
    on them. Reading and printing go through the shared runtime in proto.c.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

//  ---------------------------------------------------------------------------
//  accounting.figures

static bool
s_figures_check(const proto_accounting_figures_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_figures_write(const proto_accounting_figures_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 12);
    proto_write_double(writer, "held_s", self->held_s);
    proto_write_double(writer, "cpu_held_s", self->cpu_held_s);
    proto_write_double(writer, "mem_held_byte_s", self->mem_held_byte_s);
    proto_write_double(writer, "accel_device_s", self->accel_device_s);
    proto_write_double(writer, "accel_share_s", self->accel_share_s);
    proto_write_double(writer, "cpu_used_s", self->cpu_used_s);
    proto_write_double(writer, "mem_used_byte_s", self->mem_used_byte_s);
    proto_write_uint(writer, "mem_peak_bytes", self->mem_peak_bytes);
    proto_write_uint(writer, "io_read_bytes", self->io_read_bytes);
    proto_write_uint(writer, "io_write_bytes", self->io_write_bytes);
    proto_write_uint(writer, "net_rx_bytes", self->net_rx_bytes);
    proto_write_uint(writer, "net_tx_bytes", self->net_tx_bytes);
}

static void
s_figures_read(proto_accounting_figures_t *self, proto_in_t *in)
{
    proto_read_double(in, "held_s", 0, &self->held_s);
    proto_read_double(in, "cpu_held_s", 0, &self->cpu_held_s);
    proto_read_double(in, "mem_held_byte_s", 0, &self->mem_held_byte_s);
    proto_read_double(in, "accel_device_s", 0, &self->accel_device_s);
    proto_read_double(in, "accel_share_s", 0, &self->accel_share_s);
    proto_read_double(in, "cpu_used_s", 0, &self->cpu_used_s);
    proto_read_double(in, "mem_used_byte_s", 0, &self->mem_used_byte_s);
    proto_read_uint(in, "mem_peak_bytes", 0, UINT64_MAX, &self->mem_peak_bytes);
    proto_read_uint(in, "io_read_bytes", 0, UINT64_MAX, &self->io_read_bytes);
    proto_read_uint(in, "io_write_bytes", 0, UINT64_MAX, &self->io_write_bytes);
    proto_read_uint(in, "net_rx_bytes", 0, UINT64_MAX, &self->net_rx_bytes);
    proto_read_uint(in, "net_tx_bytes", 0, UINT64_MAX, &self->net_tx_bytes);
}

static void
s_figures_print(const proto_accounting_figures_t *self, proto_text_t *text)
{
    proto_print_double(text, "held_s", self->held_s);
    proto_print_double(text, "cpu_held_s", self->cpu_held_s);
    proto_print_double(text, "mem_held_byte_s", self->mem_held_byte_s);
    proto_print_double(text, "accel_device_s", self->accel_device_s);
    proto_print_double(text, "accel_share_s", self->accel_share_s);
    proto_print_double(text, "cpu_used_s", self->cpu_used_s);
    proto_print_double(text, "mem_used_byte_s", self->mem_used_byte_s);
    proto_print_uint(text, "mem_peak_bytes", self->mem_peak_bytes);
    proto_print_uint(text, "io_read_bytes", self->io_read_bytes);
    proto_print_uint(text, "io_write_bytes", self->io_write_bytes);
    proto_print_uint(text, "net_rx_bytes", self->net_rx_bytes);
    proto_print_uint(text, "net_tx_bytes", self->net_tx_bytes);
}

void
proto_accounting_figures_init(proto_accounting_figures_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_accounting_figures_clear(proto_accounting_figures_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_accounting_figures_check(const proto_accounting_figures_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "accounting.figures", err);
    return s_figures_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_accounting_figures_write(const proto_accounting_figures_t *self,
                               bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_accounting_figures_check(self, NULL) != BUS_OK)
        return -1;
    s_figures_write(self, writer);
    return 0;
}

zframe_t *
proto_accounting_figures_encode(const proto_accounting_figures_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_accounting_figures_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_accounting_figures_read(proto_accounting_figures_t *self,
                              const bus_value_t *map,
                              bus_error_t *err)
{
    proto_in_t in;
    proto_accounting_figures_init(self);
    proto_in_init(&in, "accounting.figures", map, &self->owned_, err);
    s_figures_read(self, &in);
    if (in.status != BUS_OK)
        proto_accounting_figures_clear(self);
    return in.status;
}

int
proto_accounting_figures_decode(proto_accounting_figures_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_accounting_figures_read(self, map, err);
}

char *
proto_accounting_figures_print(const proto_accounting_figures_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_figures_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  accounting.kernel

static bool
s_kernel_check(const proto_accounting_kernel_t *self, proto_check_t *ck)
{
    proto_check_t sub;
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "session_id", self->session_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "session_name", self->session_name, 0, 64))
        return false;
    if (!proto_check_str(ck, "access_key", self->access_key, 0, 64))
        return false;
    if (!proto_check_str(ck, "user_uuid", self->user_uuid, 0, 64))
        return false;
    if (!proto_check_str(ck, "group_id", self->group_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "domain_name", self->domain_name, 0, 64))
        return false;
    if (!proto_check_str(ck, "scaling_group", self->scaling_group, 0, 64))
        return false;
    if (!proto_check_str(ck, "agent_id", self->agent_id, 0, 128))
        return false;
    if (!proto_check_str(ck, "container_id", self->container_id, 0, 128))
        return false;
    if (!proto_check_str(ck, "image", self->image, 0, 512))
        return false;
    if (!proto_check_str(ck, "status", self->status, 0, 24))
        return false;
    if (!proto_check_str(ck, "status_info", self->status_info, 0, 64))
        return false;
    if (!proto_check_map(ck, "slots", self->slots, self->slots_count, 64))
        return false;
    proto_check_enter(ck, &sub, "usage", PROTO_NO_INDEX);
    if (!s_figures_check(&self->usage, &sub))
        return false;
    return true;
}

static void
s_kernel_write(const proto_accounting_kernel_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 5;
    pairs += self->session_id != NULL;
    pairs += self->session_name != NULL;
    pairs += self->access_key != NULL;
    pairs += self->user_uuid != NULL;
    pairs += self->group_id != NULL;
    pairs += self->domain_name != NULL;
    pairs += self->scaling_group != NULL;
    pairs += self->agent_id != NULL;
    pairs += self->container_id != NULL;
    pairs += self->image != NULL;
    pairs += self->status != NULL;
    pairs += self->status_info != NULL;
    pairs += self->slots_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    if (self->session_id != NULL)
        proto_write_str(writer, "session_id", self->session_id);
    if (self->session_name != NULL)
        proto_write_str(writer, "session_name", self->session_name);
    if (self->access_key != NULL)
        proto_write_str(writer, "access_key", self->access_key);
    if (self->user_uuid != NULL)
        proto_write_str(writer, "user_uuid", self->user_uuid);
    if (self->group_id != NULL)
        proto_write_str(writer, "group_id", self->group_id);
    if (self->domain_name != NULL)
        proto_write_str(writer, "domain_name", self->domain_name);
    if (self->scaling_group != NULL)
        proto_write_str(writer, "scaling_group", self->scaling_group);
    if (self->agent_id != NULL)
        proto_write_str(writer, "agent_id", self->agent_id);
    if (self->container_id != NULL)
        proto_write_str(writer, "container_id", self->container_id);
    if (self->image != NULL)
        proto_write_str(writer, "image", self->image);
    if (self->status != NULL)
        proto_write_str(writer, "status", self->status);
    if (self->status_info != NULL)
        proto_write_str(writer, "status_info", self->status_info);
    if (self->slots_count > 0)
        proto_write_map(writer, "slots", self->slots, self->slots_count);
    proto_write_int(writer, "created_at", self->created_at);
    proto_write_int(writer, "started_at", self->started_at);
    proto_write_int(writer, "ended_at", self->ended_at);
    bus_writer_str(writer, "usage");
    s_figures_write(&self->usage, writer);
}

static void
s_kernel_read(proto_accounting_kernel_t *self, proto_in_t *in)
{
    proto_in_t sub;
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "session_id", 0, 64, &self->session_id);
    proto_read_str(in, "session_name", 0, 64, &self->session_name);
    proto_read_str(in, "access_key", 0, 64, &self->access_key);
    proto_read_str(in, "user_uuid", 0, 64, &self->user_uuid);
    proto_read_str(in, "group_id", 0, 64, &self->group_id);
    proto_read_str(in, "domain_name", 0, 64, &self->domain_name);
    proto_read_str(in, "scaling_group", 0, 64, &self->scaling_group);
    proto_read_str(in, "agent_id", 0, 128, &self->agent_id);
    proto_read_str(in, "container_id", 0, 128, &self->container_id);
    proto_read_str(in, "image", 0, 512, &self->image);
    proto_read_str(in, "status", 0, 24, &self->status);
    proto_read_str(in, "status_info", 0, 64, &self->status_info);
    self->slots = proto_read_map(in, "slots", 0, 64, &self->slots_count);
    proto_read_int(in, "created_at", 0, INT64_MIN, INT64_MAX, &self->created_at);
    proto_read_int(in, "started_at", 0, INT64_MIN, INT64_MAX, &self->started_at);
    proto_read_int(in, "ended_at", 0, INT64_MIN, INT64_MAX, &self->ended_at);
    if (proto_read_nested(in, "usage", 0, &sub))
        s_figures_read(&self->usage, &sub);
}

static void
s_kernel_print(const proto_accounting_kernel_t *self, proto_text_t *text)
{
    size_t mark;
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "session_id", self->session_id);
    proto_print_str(text, "session_name", self->session_name);
    proto_print_str(text, "access_key", self->access_key);
    proto_print_str(text, "user_uuid", self->user_uuid);
    proto_print_str(text, "group_id", self->group_id);
    proto_print_str(text, "domain_name", self->domain_name);
    proto_print_str(text, "scaling_group", self->scaling_group);
    proto_print_str(text, "agent_id", self->agent_id);
    proto_print_str(text, "container_id", self->container_id);
    proto_print_str(text, "image", self->image);
    proto_print_str(text, "status", self->status);
    proto_print_str(text, "status_info", self->status_info);
    proto_print_count(text, "slots", self->slots_count);
    proto_print_int(text, "created_at", self->created_at);
    proto_print_int(text, "started_at", self->started_at);
    proto_print_int(text, "ended_at", self->ended_at);
    mark = proto_text_enter(text, "usage");
    s_figures_print(&self->usage, text);
    proto_text_leave(text, mark);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_kernel_item(void *item, proto_in_t *in)
{
    proto_accounting_kernel_init(item);
    s_kernel_read(item, in);
}

void
proto_accounting_kernel_init(proto_accounting_kernel_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_accounting_kernel_clear(proto_accounting_kernel_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    proto_accounting_figures_clear(&self->usage);
    memset(self, 0, sizeof *self);
}

int
proto_accounting_kernel_check(const proto_accounting_kernel_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "accounting.kernel", err);
    return s_kernel_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_accounting_kernel_write(const proto_accounting_kernel_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_accounting_kernel_check(self, NULL) != BUS_OK)
        return -1;
    s_kernel_write(self, writer);
    return 0;
}

zframe_t *
proto_accounting_kernel_encode(const proto_accounting_kernel_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_accounting_kernel_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_accounting_kernel_read(proto_accounting_kernel_t *self,
                             const bus_value_t *map,
                             bus_error_t *err)
{
    proto_in_t in;
    proto_accounting_kernel_init(self);
    proto_in_init(&in, "accounting.kernel", map, &self->owned_, err);
    s_kernel_read(self, &in);
    if (in.status != BUS_OK)
        proto_accounting_kernel_clear(self);
    return in.status;
}

int
proto_accounting_kernel_decode(proto_accounting_kernel_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_accounting_kernel_read(self, map, err);
}

char *
proto_accounting_kernel_print(const proto_accounting_kernel_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_kernel_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  accounting.group

static bool
s_group_check(const proto_accounting_group_t *self, proto_check_t *ck)
{
    proto_check_t sub;
    if (!proto_check_str(ck, "group_id", self->group_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "domain_name", self->domain_name, 0, 64))
        return false;
    if (!proto_check_str(ck, "user_uuid", self->user_uuid, 0, 64))
        return false;
    if (!proto_check_str(ck, "access_key", self->access_key, 0, 64))
        return false;
    if (!proto_check_str(ck, "session_id", self->session_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "session_name", self->session_name, 0, 64))
        return false;
    if (!proto_check_str(ck, "scaling_group", self->scaling_group, 0, 64))
        return false;
    if (!proto_check_str(ck, "image", self->image, 0, 512))
        return false;
    proto_check_enter(ck, &sub, "usage", PROTO_NO_INDEX);
    if (!s_figures_check(&self->usage, &sub))
        return false;
    if (!proto_check_count(ck, "kernels", self->kernels, self->kernels_count, 20000))
        return false;
    for (size_t i = 0; i < self->kernels_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "kernels", i);
        if (!s_kernel_check(&self->kernels[i], &item))
            return false;
    }
    return true;
}

static void
s_group_write(const proto_accounting_group_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 6;
    pairs += self->group_id != NULL;
    pairs += self->domain_name != NULL;
    pairs += self->user_uuid != NULL;
    pairs += self->access_key != NULL;
    pairs += self->session_id != NULL;
    pairs += self->session_name != NULL;
    pairs += self->scaling_group != NULL;
    pairs += self->image != NULL;
    pairs += self->kernels_count > 0;
    bus_writer_map(writer, pairs);
    if (self->group_id != NULL)
        proto_write_str(writer, "group_id", self->group_id);
    if (self->domain_name != NULL)
        proto_write_str(writer, "domain_name", self->domain_name);
    if (self->user_uuid != NULL)
        proto_write_str(writer, "user_uuid", self->user_uuid);
    if (self->access_key != NULL)
        proto_write_str(writer, "access_key", self->access_key);
    if (self->session_id != NULL)
        proto_write_str(writer, "session_id", self->session_id);
    if (self->session_name != NULL)
        proto_write_str(writer, "session_name", self->session_name);
    if (self->scaling_group != NULL)
        proto_write_str(writer, "scaling_group", self->scaling_group);
    if (self->image != NULL)
        proto_write_str(writer, "image", self->image);
    proto_write_uint(writer, "kernel_count", self->kernel_count);
    proto_write_uint(writer, "session_count", self->session_count);
    proto_write_double(writer, "cpu_allocated", self->cpu_allocated);
    proto_write_double(writer, "mem_allocated", self->mem_allocated);
    proto_write_double(writer, "accel_allocated", self->accel_allocated);
    bus_writer_str(writer, "usage");
    s_figures_write(&self->usage, writer);
    if (self->kernels_count > 0) {
        proto_write_array(writer, "kernels", self->kernels_count);
        for (size_t i = 0; i < self->kernels_count; i++)
            s_kernel_write(&self->kernels[i], writer);
    }
}

static void
s_group_read(proto_accounting_group_t *self, proto_in_t *in)
{
    proto_in_t sub;
    proto_read_str(in, "group_id", 0, 64, &self->group_id);
    proto_read_str(in, "domain_name", 0, 64, &self->domain_name);
    proto_read_str(in, "user_uuid", 0, 64, &self->user_uuid);
    proto_read_str(in, "access_key", 0, 64, &self->access_key);
    proto_read_str(in, "session_id", 0, 64, &self->session_id);
    proto_read_str(in, "session_name", 0, 64, &self->session_name);
    proto_read_str(in, "scaling_group", 0, 64, &self->scaling_group);
    proto_read_str(in, "image", 0, 512, &self->image);
    proto_read_uint(in, "kernel_count", 0, UINT64_MAX, &self->kernel_count);
    proto_read_uint(in, "session_count", 0, UINT64_MAX, &self->session_count);
    proto_read_double(in, "cpu_allocated", 0, &self->cpu_allocated);
    proto_read_double(in, "mem_allocated", 0, &self->mem_allocated);
    proto_read_double(in, "accel_allocated", 0, &self->accel_allocated);
    if (proto_read_nested(in, "usage", 0, &sub))
        s_figures_read(&self->usage, &sub);
    self->kernels = proto_read_list(in, "kernels", 0, 20000, sizeof *self->kernels,
                                    s_kernel_item, &self->kernels_count);
}

static void
s_group_print(const proto_accounting_group_t *self, proto_text_t *text)
{
    size_t mark;
    proto_print_str(text, "group_id", self->group_id);
    proto_print_str(text, "domain_name", self->domain_name);
    proto_print_str(text, "user_uuid", self->user_uuid);
    proto_print_str(text, "access_key", self->access_key);
    proto_print_str(text, "session_id", self->session_id);
    proto_print_str(text, "session_name", self->session_name);
    proto_print_str(text, "scaling_group", self->scaling_group);
    proto_print_str(text, "image", self->image);
    proto_print_uint(text, "kernel_count", self->kernel_count);
    proto_print_uint(text, "session_count", self->session_count);
    proto_print_double(text, "cpu_allocated", self->cpu_allocated);
    proto_print_double(text, "mem_allocated", self->mem_allocated);
    proto_print_double(text, "accel_allocated", self->accel_allocated);
    mark = proto_text_enter(text, "usage");
    s_figures_print(&self->usage, text);
    proto_text_leave(text, mark);
    proto_print_count(text, "kernels", self->kernels_count);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_group_item(void *item, proto_in_t *in)
{
    proto_accounting_group_init(item);
    s_group_read(item, in);
}

void
proto_accounting_group_init(proto_accounting_group_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_accounting_group_clear(proto_accounting_group_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    proto_accounting_figures_clear(&self->usage);
    memset(self, 0, sizeof *self);
}

int
proto_accounting_group_check(const proto_accounting_group_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "accounting.group", err);
    return s_group_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_accounting_group_write(const proto_accounting_group_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_accounting_group_check(self, NULL) != BUS_OK)
        return -1;
    s_group_write(self, writer);
    return 0;
}

zframe_t *
proto_accounting_group_encode(const proto_accounting_group_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_accounting_group_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_accounting_group_read(proto_accounting_group_t *self,
                            const bus_value_t *map,
                            bus_error_t *err)
{
    proto_in_t in;
    proto_accounting_group_init(self);
    proto_in_init(&in, "accounting.group", map, &self->owned_, err);
    s_group_read(self, &in);
    if (in.status != BUS_OK)
        proto_accounting_group_clear(self);
    return in.status;
}

int
proto_accounting_group_decode(proto_accounting_group_t *self,
                              const void *data,
                              size_t size,
                              bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_accounting_group_read(self, map, err);
}

char *
proto_accounting_group_print(const proto_accounting_group_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_group_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  accounting.bin

static bool
s_bin_check(const proto_accounting_bin_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_bin_write(const proto_accounting_bin_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 11);
    proto_write_int(writer, "date", self->date);
    proto_write_uint(writer, "num_sessions", self->num_sessions);
    proto_write_double(writer, "cpu_allocated", self->cpu_allocated);
    proto_write_double(writer, "mem_allocated", self->mem_allocated);
    proto_write_double(writer, "gpu_allocated", self->gpu_allocated);
    proto_write_double(writer, "io_read_bytes", self->io_read_bytes);
    proto_write_double(writer, "io_write_bytes", self->io_write_bytes);
    proto_write_double(writer, "cpu_held_s", self->cpu_held_s);
    proto_write_double(writer, "mem_held_byte_s", self->mem_held_byte_s);
    proto_write_double(writer, "gpu_held_s", self->gpu_held_s);
    proto_write_double(writer, "cpu_used_s", self->cpu_used_s);
}

static void
s_bin_read(proto_accounting_bin_t *self, proto_in_t *in)
{
    proto_read_int(in, "date", 0, INT64_MIN, INT64_MAX, &self->date);
    proto_read_uint(in, "num_sessions", 0, UINT64_MAX, &self->num_sessions);
    proto_read_double(in, "cpu_allocated", 0, &self->cpu_allocated);
    proto_read_double(in, "mem_allocated", 0, &self->mem_allocated);
    proto_read_double(in, "gpu_allocated", 0, &self->gpu_allocated);
    proto_read_double(in, "io_read_bytes", 0, &self->io_read_bytes);
    proto_read_double(in, "io_write_bytes", 0, &self->io_write_bytes);
    proto_read_double(in, "cpu_held_s", 0, &self->cpu_held_s);
    proto_read_double(in, "mem_held_byte_s", 0, &self->mem_held_byte_s);
    proto_read_double(in, "gpu_held_s", 0, &self->gpu_held_s);
    proto_read_double(in, "cpu_used_s", 0, &self->cpu_used_s);
}

static void
s_bin_print(const proto_accounting_bin_t *self, proto_text_t *text)
{
    proto_print_int(text, "date", self->date);
    proto_print_uint(text, "num_sessions", self->num_sessions);
    proto_print_double(text, "cpu_allocated", self->cpu_allocated);
    proto_print_double(text, "mem_allocated", self->mem_allocated);
    proto_print_double(text, "gpu_allocated", self->gpu_allocated);
    proto_print_double(text, "io_read_bytes", self->io_read_bytes);
    proto_print_double(text, "io_write_bytes", self->io_write_bytes);
    proto_print_double(text, "cpu_held_s", self->cpu_held_s);
    proto_print_double(text, "mem_held_byte_s", self->mem_held_byte_s);
    proto_print_double(text, "gpu_held_s", self->gpu_held_s);
    proto_print_double(text, "cpu_used_s", self->cpu_used_s);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_bin_item(void *item, proto_in_t *in)
{
    proto_accounting_bin_init(item);
    s_bin_read(item, in);
}

void
proto_accounting_bin_init(proto_accounting_bin_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_accounting_bin_clear(proto_accounting_bin_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_accounting_bin_check(const proto_accounting_bin_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "accounting.bin", err);
    return s_bin_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_accounting_bin_write(const proto_accounting_bin_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_accounting_bin_check(self, NULL) != BUS_OK)
        return -1;
    s_bin_write(self, writer);
    return 0;
}

zframe_t *
proto_accounting_bin_encode(const proto_accounting_bin_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_accounting_bin_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_accounting_bin_read(proto_accounting_bin_t *self,
                          const bus_value_t *map,
                          bus_error_t *err)
{
    proto_in_t in;
    proto_accounting_bin_init(self);
    proto_in_init(&in, "accounting.bin", map, &self->owned_, err);
    s_bin_read(self, &in);
    if (in.status != BUS_OK)
        proto_accounting_bin_clear(self);
    return in.status;
}

int
proto_accounting_bin_decode(proto_accounting_bin_t *self,
                            const void *data,
                            size_t size,
                            bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_accounting_bin_read(self, map, err);
}

char *
proto_accounting_bin_print(const proto_accounting_bin_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_bin_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  accounting.live

static bool
s_live_check(const proto_accounting_live_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "stat", self->stat, 0, 8192))
        return false;
    return true;
}

static void
s_live_write(const proto_accounting_live_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 4;
    pairs += self->stat != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    proto_write_bool(writer, "found", self->found);
    proto_write_bool(writer, "live", self->live);
    proto_write_int(writer, "at", self->at);
    if (self->stat != NULL)
        proto_write_str(writer, "stat", self->stat);
}

static void
s_live_read(proto_accounting_live_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_bool(in, "found", 0, &self->found);
    proto_read_bool(in, "live", 0, &self->live);
    proto_read_int(in, "at", 0, INT64_MIN, INT64_MAX, &self->at);
    proto_read_str(in, "stat", 0, 8192, &self->stat);
}

static void
s_live_print(const proto_accounting_live_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_bool(text, "found", self->found);
    proto_print_bool(text, "live", self->live);
    proto_print_int(text, "at", self->at);
    proto_print_str(text, "stat", self->stat);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_live_item(void *item, proto_in_t *in)
{
    proto_accounting_live_init(item);
    s_live_read(item, in);
}

void
proto_accounting_live_init(proto_accounting_live_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_accounting_live_clear(proto_accounting_live_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_accounting_live_check(const proto_accounting_live_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "accounting.live", err);
    return s_live_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_accounting_live_write(const proto_accounting_live_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_accounting_live_check(self, NULL) != BUS_OK)
        return -1;
    s_live_write(self, writer);
    return 0;
}

zframe_t *
proto_accounting_live_encode(const proto_accounting_live_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_accounting_live_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_accounting_live_read(proto_accounting_live_t *self,
                           const bus_value_t *map,
                           bus_error_t *err)
{
    proto_in_t in;
    proto_accounting_live_init(self);
    proto_in_init(&in, "accounting.live", map, &self->owned_, err);
    s_live_read(self, &in);
    if (in.status != BUS_OK)
        proto_accounting_live_clear(self);
    return in.status;
}

int
proto_accounting_live_decode(proto_accounting_live_t *self,
                             const void *data,
                             size_t size,
                             bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_accounting_live_read(self, map, err);
}

char *
proto_accounting_live_print(const proto_accounting_live_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_live_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  accounting.usage request

static bool
s_usage_req_check(const proto_accounting_usage_req_t *self, proto_check_t *ck)
{
    if (!proto_check_strs(ck, "group_ids", self->group_ids, self->group_ids_count, 100))
        return false;
    if (!proto_check_str(ck, "domain_name", self->domain_name, 0, 64))
        return false;
    if (!proto_check_str(ck, "user_uuid", self->user_uuid, 0, 64))
        return false;
    if (!proto_check_str(ck, "access_key", self->access_key, 0, 64))
        return false;
    if (!proto_check_str(ck, "group_by", self->group_by, 0, 16))
        return false;
    return true;
}

static void
s_usage_req_write(const proto_accounting_usage_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 3;
    pairs += self->group_ids_count > 0;
    pairs += self->domain_name != NULL;
    pairs += self->user_uuid != NULL;
    pairs += self->access_key != NULL;
    pairs += self->group_by != NULL;
    bus_writer_map(writer, pairs);
    if (self->group_ids_count > 0)
        proto_write_strs(writer, "group_ids", self->group_ids, self->group_ids_count);
    if (self->domain_name != NULL)
        proto_write_str(writer, "domain_name", self->domain_name);
    if (self->user_uuid != NULL)
        proto_write_str(writer, "user_uuid", self->user_uuid);
    if (self->access_key != NULL)
        proto_write_str(writer, "access_key", self->access_key);
    proto_write_int(writer, "from", self->from);
    proto_write_int(writer, "to", self->to);
    if (self->group_by != NULL)
        proto_write_str(writer, "group_by", self->group_by);
    proto_write_bool(writer, "with_kernels", self->with_kernels);
}

static void
s_usage_req_read(proto_accounting_usage_req_t *self, proto_in_t *in)
{
    self->group_ids = proto_read_strs(in, "group_ids", 0, 100, &self->group_ids_count);
    proto_read_str(in, "domain_name", 0, 64, &self->domain_name);
    proto_read_str(in, "user_uuid", 0, 64, &self->user_uuid);
    proto_read_str(in, "access_key", 0, 64, &self->access_key);
    proto_read_int(in, "from", PROTO_REQUIRED, INT64_MIN, INT64_MAX, &self->from);
    proto_read_int(in, "to", PROTO_REQUIRED, INT64_MIN, INT64_MAX, &self->to);
    proto_read_str(in, "group_by", 0, 16, &self->group_by);
    proto_read_bool(in, "with_kernels", 0, &self->with_kernels);
}

static void
s_usage_req_print(const proto_accounting_usage_req_t *self, proto_text_t *text)
{
    proto_print_count(text, "group_ids", self->group_ids_count);
    proto_print_str(text, "domain_name", self->domain_name);
    proto_print_str(text, "user_uuid", self->user_uuid);
    proto_print_str(text, "access_key", self->access_key);
    proto_print_int(text, "from", self->from);
    proto_print_int(text, "to", self->to);
    proto_print_str(text, "group_by", self->group_by);
    proto_print_bool(text, "with_kernels", self->with_kernels);
}

void
proto_accounting_usage_req_init(proto_accounting_usage_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->group_by = "project";
    self->with_kernels = true;
}

void
proto_accounting_usage_req_clear(proto_accounting_usage_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_accounting_usage_req_check(const proto_accounting_usage_req_t *self,
                                 bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "accounting.usage request", err);
    return s_usage_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_accounting_usage_req_write(const proto_accounting_usage_req_t *self,
                                 bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_accounting_usage_req_check(self, NULL) != BUS_OK)
        return -1;
    s_usage_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_accounting_usage_req_writer(const proto_accounting_usage_req_t *self,
                                  bus_error_t *err)
{
    assert(self);
    if (proto_accounting_usage_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "accounting.usage request: out of memory");
        return NULL;
    }
    s_usage_req_write(self, writer);
    return writer;
}

zframe_t *
proto_accounting_usage_req_encode(const proto_accounting_usage_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_accounting_usage_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_accounting_usage_req_read(proto_accounting_usage_req_t *self,
                                const bus_value_t *map,
                                bus_error_t *err)
{
    proto_in_t in;
    proto_accounting_usage_req_init(self);
    proto_in_init(&in, "accounting.usage request", map, &self->owned_, err);
    s_usage_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_accounting_usage_req_clear(self);
    return in.status;
}

int
proto_accounting_usage_req_decode(proto_accounting_usage_req_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_accounting_usage_req_read(self, map, err);
}

char *
proto_accounting_usage_req_print(const proto_accounting_usage_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_usage_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  accounting.usage reply

static bool
s_usage_rep_check(const proto_accounting_usage_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_count(ck, "groups", self->groups, self->groups_count, 200000))
        return false;
    for (size_t i = 0; i < self->groups_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "groups", i);
        if (!s_group_check(&self->groups[i], &item))
            return false;
    }
    return true;
}

static void
s_usage_rep_write(const proto_accounting_usage_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->groups_count > 0;
    bus_writer_map(writer, pairs);
    if (self->groups_count > 0) {
        proto_write_array(writer, "groups", self->groups_count);
        for (size_t i = 0; i < self->groups_count; i++)
            s_group_write(&self->groups[i], writer);
    }
    proto_write_int(writer, "from", self->from);
    proto_write_int(writer, "to", self->to);
}

static void
s_usage_rep_read(proto_accounting_usage_rep_t *self, proto_in_t *in)
{
    self->groups = proto_read_list(in, "groups", 0, 200000, sizeof *self->groups,
                                   s_group_item, &self->groups_count);
    proto_read_int(in, "from", 0, INT64_MIN, INT64_MAX, &self->from);
    proto_read_int(in, "to", 0, INT64_MIN, INT64_MAX, &self->to);
}

static void
s_usage_rep_print(const proto_accounting_usage_rep_t *self, proto_text_t *text)
{
    proto_print_count(text, "groups", self->groups_count);
    proto_print_int(text, "from", self->from);
    proto_print_int(text, "to", self->to);
}

void
proto_accounting_usage_rep_init(proto_accounting_usage_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_accounting_usage_rep_clear(proto_accounting_usage_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_accounting_usage_rep_check(const proto_accounting_usage_rep_t *self,
                                 bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "accounting.usage reply", err);
    return s_usage_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_accounting_usage_rep_write(const proto_accounting_usage_rep_t *self,
                                 bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_accounting_usage_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_usage_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_accounting_usage_rep_encode(const proto_accounting_usage_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_accounting_usage_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_accounting_usage_rep_read(proto_accounting_usage_rep_t *self,
                                const bus_value_t *map,
                                bus_error_t *err)
{
    proto_in_t in;
    proto_accounting_usage_rep_init(self);
    proto_in_init(&in, "accounting.usage reply", map, &self->owned_, err);
    s_usage_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_accounting_usage_rep_clear(self);
    return in.status;
}

int
proto_accounting_usage_rep_decode(proto_accounting_usage_rep_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_accounting_usage_rep_read(self, map, err);
}

char *
proto_accounting_usage_rep_print(const proto_accounting_usage_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_usage_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  accounting.stats_user request

static bool
s_stats_user_req_check(const proto_accounting_stats_user_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "user_uuid", self->user_uuid, 0, 64))
        return false;
    if (!proto_check_str(ck, "access_key", self->access_key, 0, 64))
        return false;
    return true;
}

static void
s_stats_user_req_write(const proto_accounting_stats_user_req_t *self,
                       bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->user_uuid != NULL;
    pairs += self->access_key != NULL;
    bus_writer_map(writer, pairs);
    if (self->user_uuid != NULL)
        proto_write_str(writer, "user_uuid", self->user_uuid);
    if (self->access_key != NULL)
        proto_write_str(writer, "access_key", self->access_key);
    proto_write_int(writer, "to", self->to);
}

static void
s_stats_user_req_read(proto_accounting_stats_user_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "user_uuid", 0, 64, &self->user_uuid);
    proto_read_str(in, "access_key", 0, 64, &self->access_key);
    proto_read_int(in, "to", 0, INT64_MIN, INT64_MAX, &self->to);
}

static void
s_stats_user_req_print(const proto_accounting_stats_user_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "user_uuid", self->user_uuid);
    proto_print_str(text, "access_key", self->access_key);
    proto_print_int(text, "to", self->to);
}

void
proto_accounting_stats_user_req_init(proto_accounting_stats_user_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_accounting_stats_user_req_clear(proto_accounting_stats_user_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_accounting_stats_user_req_check(const proto_accounting_stats_user_req_t *self,
                                      bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "accounting.stats_user request", err);
    return s_stats_user_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_accounting_stats_user_req_write(const proto_accounting_stats_user_req_t *self,
                                      bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_accounting_stats_user_req_check(self, NULL) != BUS_OK)
        return -1;
    s_stats_user_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_accounting_stats_user_req_writer(const proto_accounting_stats_user_req_t *self,
                                       bus_error_t *err)
{
    assert(self);
    if (proto_accounting_stats_user_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "accounting.stats_user request: out of memory");
        return NULL;
    }
    s_stats_user_req_write(self, writer);
    return writer;
}

zframe_t *
proto_accounting_stats_user_req_encode(const proto_accounting_stats_user_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_accounting_stats_user_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_accounting_stats_user_req_read(proto_accounting_stats_user_req_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err)
{
    proto_in_t in;
    proto_accounting_stats_user_req_init(self);
    proto_in_init(&in, "accounting.stats_user request", map, &self->owned_, err);
    s_stats_user_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_accounting_stats_user_req_clear(self);
    return in.status;
}

int
proto_accounting_stats_user_req_decode(proto_accounting_stats_user_req_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_accounting_stats_user_req_read(self, map, err);
}

char *
proto_accounting_stats_user_req_print(const proto_accounting_stats_user_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_stats_user_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  accounting.stats_user reply

static bool
s_stats_user_rep_check(const proto_accounting_stats_user_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_count(ck, "bins", self->bins, self->bins_count, 2880))
        return false;
    for (size_t i = 0; i < self->bins_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "bins", i);
        if (!s_bin_check(&self->bins[i], &item))
            return false;
    }
    return true;
}

static void
s_stats_user_rep_write(const proto_accounting_stats_user_rep_t *self,
                       bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->bins_count > 0;
    bus_writer_map(writer, pairs);
    if (self->bins_count > 0) {
        proto_write_array(writer, "bins", self->bins_count);
        for (size_t i = 0; i < self->bins_count; i++)
            s_bin_write(&self->bins[i], writer);
    }
    proto_write_uint(writer, "bin_s", self->bin_s);
}

static void
s_stats_user_rep_read(proto_accounting_stats_user_rep_t *self, proto_in_t *in)
{
    self->bins = proto_read_list(in, "bins", 0, 2880, sizeof *self->bins, s_bin_item,
                                 &self->bins_count);
    proto_read_uint(in, "bin_s", 0, UINT64_MAX, &self->bin_s);
}

static void
s_stats_user_rep_print(const proto_accounting_stats_user_rep_t *self, proto_text_t *text)
{
    proto_print_count(text, "bins", self->bins_count);
    proto_print_uint(text, "bin_s", self->bin_s);
}

void
proto_accounting_stats_user_rep_init(proto_accounting_stats_user_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_accounting_stats_user_rep_clear(proto_accounting_stats_user_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_accounting_stats_user_rep_check(const proto_accounting_stats_user_rep_t *self,
                                      bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "accounting.stats_user reply", err);
    return s_stats_user_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_accounting_stats_user_rep_write(const proto_accounting_stats_user_rep_t *self,
                                      bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_accounting_stats_user_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_stats_user_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_accounting_stats_user_rep_encode(const proto_accounting_stats_user_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_accounting_stats_user_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_accounting_stats_user_rep_read(proto_accounting_stats_user_rep_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err)
{
    proto_in_t in;
    proto_accounting_stats_user_rep_init(self);
    proto_in_init(&in, "accounting.stats_user reply", map, &self->owned_, err);
    s_stats_user_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_accounting_stats_user_rep_clear(self);
    return in.status;
}

int
proto_accounting_stats_user_rep_decode(proto_accounting_stats_user_rep_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_accounting_stats_user_rep_read(self, map, err);
}

char *
proto_accounting_stats_user_rep_print(const proto_accounting_stats_user_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_stats_user_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  accounting.stats_all request

static bool
s_stats_all_req_check(const proto_accounting_stats_all_req_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_stats_all_req_write(const proto_accounting_stats_all_req_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    proto_write_int(writer, "to", self->to);
}

static void
s_stats_all_req_read(proto_accounting_stats_all_req_t *self, proto_in_t *in)
{
    proto_read_int(in, "to", 0, INT64_MIN, INT64_MAX, &self->to);
}

static void
s_stats_all_req_print(const proto_accounting_stats_all_req_t *self, proto_text_t *text)
{
    proto_print_int(text, "to", self->to);
}

void
proto_accounting_stats_all_req_init(proto_accounting_stats_all_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_accounting_stats_all_req_clear(proto_accounting_stats_all_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_accounting_stats_all_req_check(const proto_accounting_stats_all_req_t *self,
                                     bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "accounting.stats_all request", err);
    return s_stats_all_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_accounting_stats_all_req_write(const proto_accounting_stats_all_req_t *self,
                                     bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_accounting_stats_all_req_check(self, NULL) != BUS_OK)
        return -1;
    s_stats_all_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_accounting_stats_all_req_writer(const proto_accounting_stats_all_req_t *self,
                                      bus_error_t *err)
{
    assert(self);
    if (proto_accounting_stats_all_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "accounting.stats_all request: out of memory");
        return NULL;
    }
    s_stats_all_req_write(self, writer);
    return writer;
}

zframe_t *
proto_accounting_stats_all_req_encode(const proto_accounting_stats_all_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_accounting_stats_all_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_accounting_stats_all_req_read(proto_accounting_stats_all_req_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err)
{
    proto_in_t in;
    proto_accounting_stats_all_req_init(self);
    proto_in_init(&in, "accounting.stats_all request", map, &self->owned_, err);
    s_stats_all_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_accounting_stats_all_req_clear(self);
    return in.status;
}

int
proto_accounting_stats_all_req_decode(proto_accounting_stats_all_req_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_accounting_stats_all_req_read(self, map, err);
}

char *
proto_accounting_stats_all_req_print(const proto_accounting_stats_all_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_stats_all_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  accounting.stats_all reply

static bool
s_stats_all_rep_check(const proto_accounting_stats_all_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_count(ck, "bins", self->bins, self->bins_count, 2880))
        return false;
    for (size_t i = 0; i < self->bins_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "bins", i);
        if (!s_bin_check(&self->bins[i], &item))
            return false;
    }
    return true;
}

static void
s_stats_all_rep_write(const proto_accounting_stats_all_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->bins_count > 0;
    bus_writer_map(writer, pairs);
    if (self->bins_count > 0) {
        proto_write_array(writer, "bins", self->bins_count);
        for (size_t i = 0; i < self->bins_count; i++)
            s_bin_write(&self->bins[i], writer);
    }
    proto_write_uint(writer, "bin_s", self->bin_s);
}

static void
s_stats_all_rep_read(proto_accounting_stats_all_rep_t *self, proto_in_t *in)
{
    self->bins = proto_read_list(in, "bins", 0, 2880, sizeof *self->bins, s_bin_item,
                                 &self->bins_count);
    proto_read_uint(in, "bin_s", 0, UINT64_MAX, &self->bin_s);
}

static void
s_stats_all_rep_print(const proto_accounting_stats_all_rep_t *self, proto_text_t *text)
{
    proto_print_count(text, "bins", self->bins_count);
    proto_print_uint(text, "bin_s", self->bin_s);
}

void
proto_accounting_stats_all_rep_init(proto_accounting_stats_all_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_accounting_stats_all_rep_clear(proto_accounting_stats_all_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_accounting_stats_all_rep_check(const proto_accounting_stats_all_rep_t *self,
                                     bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "accounting.stats_all reply", err);
    return s_stats_all_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_accounting_stats_all_rep_write(const proto_accounting_stats_all_rep_t *self,
                                     bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_accounting_stats_all_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_stats_all_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_accounting_stats_all_rep_encode(const proto_accounting_stats_all_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_accounting_stats_all_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_accounting_stats_all_rep_read(proto_accounting_stats_all_rep_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err)
{
    proto_in_t in;
    proto_accounting_stats_all_rep_init(self);
    proto_in_init(&in, "accounting.stats_all reply", map, &self->owned_, err);
    s_stats_all_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_accounting_stats_all_rep_clear(self);
    return in.status;
}

int
proto_accounting_stats_all_rep_decode(proto_accounting_stats_all_rep_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_accounting_stats_all_rep_read(self, map, err);
}

char *
proto_accounting_stats_all_rep_print(const proto_accounting_stats_all_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_stats_all_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  accounting.recalculate request

static bool
s_recalculate_req_check(const proto_accounting_recalculate_req_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_recalculate_req_write(const proto_accounting_recalculate_req_t *self,
                        bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_recalculate_req_read(proto_accounting_recalculate_req_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_recalculate_req_print(const proto_accounting_recalculate_req_t *self,
                        proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_accounting_recalculate_req_init(proto_accounting_recalculate_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_accounting_recalculate_req_clear(proto_accounting_recalculate_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_accounting_recalculate_req_check(const proto_accounting_recalculate_req_t *self,
                                       bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "accounting.recalculate request", err);
    return s_recalculate_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_accounting_recalculate_req_write(const proto_accounting_recalculate_req_t *self,
                                       bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_accounting_recalculate_req_check(self, NULL) != BUS_OK)
        return -1;
    s_recalculate_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_accounting_recalculate_req_writer(const proto_accounting_recalculate_req_t *self,
                                        bus_error_t *err)
{
    assert(self);
    if (proto_accounting_recalculate_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "accounting.recalculate request: out of memory");
        return NULL;
    }
    s_recalculate_req_write(self, writer);
    return writer;
}

zframe_t *
proto_accounting_recalculate_req_encode(const proto_accounting_recalculate_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_accounting_recalculate_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_accounting_recalculate_req_read(proto_accounting_recalculate_req_t *self,
                                      const bus_value_t *map,
                                      bus_error_t *err)
{
    proto_in_t in;
    proto_accounting_recalculate_req_init(self);
    proto_in_init(&in, "accounting.recalculate request", map, &self->owned_, err);
    s_recalculate_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_accounting_recalculate_req_clear(self);
    return in.status;
}

int
proto_accounting_recalculate_req_decode(proto_accounting_recalculate_req_t *self,
                                        const void *data,
                                        size_t size,
                                        bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_accounting_recalculate_req_read(self, map, err);
}

char *
proto_accounting_recalculate_req_print(const proto_accounting_recalculate_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_recalculate_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  accounting.recalculate reply

static bool
s_recalculate_rep_check(const proto_accounting_recalculate_rep_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_recalculate_rep_write(const proto_accounting_recalculate_rep_t *self,
                        bus_writer_t *writer)
{
    bus_writer_map(writer, 6);
    proto_write_uint(writer, "rolled", self->rolled);
    proto_write_int(writer, "horizon", self->horizon);
    proto_write_uint(writer, "hourly", self->hourly);
    proto_write_uint(writer, "daily", self->daily);
    proto_write_uint(writer, "kernels", self->kernels);
    proto_write_uint(writer, "mismatched", self->mismatched);
}

static void
s_recalculate_rep_read(proto_accounting_recalculate_rep_t *self, proto_in_t *in)
{
    proto_read_uint(in, "rolled", 0, UINT64_MAX, &self->rolled);
    proto_read_int(in, "horizon", 0, INT64_MIN, INT64_MAX, &self->horizon);
    proto_read_uint(in, "hourly", 0, UINT64_MAX, &self->hourly);
    proto_read_uint(in, "daily", 0, UINT64_MAX, &self->daily);
    proto_read_uint(in, "kernels", 0, UINT64_MAX, &self->kernels);
    proto_read_uint(in, "mismatched", 0, UINT64_MAX, &self->mismatched);
}

static void
s_recalculate_rep_print(const proto_accounting_recalculate_rep_t *self,
                        proto_text_t *text)
{
    proto_print_uint(text, "rolled", self->rolled);
    proto_print_int(text, "horizon", self->horizon);
    proto_print_uint(text, "hourly", self->hourly);
    proto_print_uint(text, "daily", self->daily);
    proto_print_uint(text, "kernels", self->kernels);
    proto_print_uint(text, "mismatched", self->mismatched);
}

void
proto_accounting_recalculate_rep_init(proto_accounting_recalculate_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_accounting_recalculate_rep_clear(proto_accounting_recalculate_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_accounting_recalculate_rep_check(const proto_accounting_recalculate_rep_t *self,
                                       bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "accounting.recalculate reply", err);
    return s_recalculate_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_accounting_recalculate_rep_write(const proto_accounting_recalculate_rep_t *self,
                                       bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_accounting_recalculate_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_recalculate_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_accounting_recalculate_rep_encode(const proto_accounting_recalculate_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_accounting_recalculate_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_accounting_recalculate_rep_read(proto_accounting_recalculate_rep_t *self,
                                      const bus_value_t *map,
                                      bus_error_t *err)
{
    proto_in_t in;
    proto_accounting_recalculate_rep_init(self);
    proto_in_init(&in, "accounting.recalculate reply", map, &self->owned_, err);
    s_recalculate_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_accounting_recalculate_rep_clear(self);
    return in.status;
}

int
proto_accounting_recalculate_rep_decode(proto_accounting_recalculate_rep_t *self,
                                        const void *data,
                                        size_t size,
                                        bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_accounting_recalculate_rep_read(self, map, err);
}

char *
proto_accounting_recalculate_rep_print(const proto_accounting_recalculate_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_recalculate_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  accounting.live request

static bool
s_live_req_check(const proto_accounting_live_req_t *self, proto_check_t *ck)
{
    if (!proto_check_strs(ck, "kernel_ids", self->kernel_ids, self->kernel_ids_count,
                          1000))
        return false;
    return true;
}

static void
s_live_req_write(const proto_accounting_live_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->kernel_ids_count > 0;
    bus_writer_map(writer, pairs);
    if (self->kernel_ids_count > 0)
        proto_write_strs(writer, "kernel_ids", self->kernel_ids, self->kernel_ids_count);
}

static void
s_live_req_read(proto_accounting_live_req_t *self, proto_in_t *in)
{
    self->kernel_ids =
        proto_read_strs(in, "kernel_ids", 0, 1000, &self->kernel_ids_count);
}

static void
s_live_req_print(const proto_accounting_live_req_t *self, proto_text_t *text)
{
    proto_print_count(text, "kernel_ids", self->kernel_ids_count);
}

void
proto_accounting_live_req_init(proto_accounting_live_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_accounting_live_req_clear(proto_accounting_live_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_accounting_live_req_check(const proto_accounting_live_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "accounting.live request", err);
    return s_live_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_accounting_live_req_write(const proto_accounting_live_req_t *self,
                                bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_accounting_live_req_check(self, NULL) != BUS_OK)
        return -1;
    s_live_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_accounting_live_req_writer(const proto_accounting_live_req_t *self,
                                 bus_error_t *err)
{
    assert(self);
    if (proto_accounting_live_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "accounting.live request: out of memory");
        return NULL;
    }
    s_live_req_write(self, writer);
    return writer;
}

zframe_t *
proto_accounting_live_req_encode(const proto_accounting_live_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_accounting_live_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_accounting_live_req_read(proto_accounting_live_req_t *self,
                               const bus_value_t *map,
                               bus_error_t *err)
{
    proto_in_t in;
    proto_accounting_live_req_init(self);
    proto_in_init(&in, "accounting.live request", map, &self->owned_, err);
    s_live_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_accounting_live_req_clear(self);
    return in.status;
}

int
proto_accounting_live_req_decode(proto_accounting_live_req_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_accounting_live_req_read(self, map, err);
}

char *
proto_accounting_live_req_print(const proto_accounting_live_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_live_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  accounting.live reply

static bool
s_live_rep_check(const proto_accounting_live_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_count(ck, "kernels", self->kernels, self->kernels_count, 1000))
        return false;
    for (size_t i = 0; i < self->kernels_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "kernels", i);
        if (!s_live_check(&self->kernels[i], &item))
            return false;
    }
    return true;
}

static void
s_live_rep_write(const proto_accounting_live_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->kernels_count > 0;
    bus_writer_map(writer, pairs);
    if (self->kernels_count > 0) {
        proto_write_array(writer, "kernels", self->kernels_count);
        for (size_t i = 0; i < self->kernels_count; i++)
            s_live_write(&self->kernels[i], writer);
    }
}

static void
s_live_rep_read(proto_accounting_live_rep_t *self, proto_in_t *in)
{
    self->kernels = proto_read_list(in, "kernels", 0, 1000, sizeof *self->kernels,
                                    s_live_item, &self->kernels_count);
}

static void
s_live_rep_print(const proto_accounting_live_rep_t *self, proto_text_t *text)
{
    proto_print_count(text, "kernels", self->kernels_count);
}

void
proto_accounting_live_rep_init(proto_accounting_live_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_accounting_live_rep_clear(proto_accounting_live_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_accounting_live_rep_check(const proto_accounting_live_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "accounting.live reply", err);
    return s_live_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_accounting_live_rep_write(const proto_accounting_live_rep_t *self,
                                bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_accounting_live_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_live_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_accounting_live_rep_encode(const proto_accounting_live_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_accounting_live_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_accounting_live_rep_read(proto_accounting_live_rep_t *self,
                               const bus_value_t *map,
                               bus_error_t *err)
{
    proto_in_t in;
    proto_accounting_live_rep_init(self);
    proto_in_init(&in, "accounting.live reply", map, &self->owned_, err);
    s_live_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_accounting_live_rep_clear(self);
    return in.status;
}

int
proto_accounting_live_rep_decode(proto_accounting_live_rep_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_accounting_live_rep_read(self, map, err);
}

char *
proto_accounting_live_rep_print(const proto_accounting_live_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_live_rep_print(self, &text);
    return proto_text_finish(&text);
}
