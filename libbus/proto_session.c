//  GENERATED FROM proto/session.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_session - codecs of the session domain

    For each struct: file-static check, write, read and print helpers that
    nested values reuse, then the public functions of proto_session.h built on
    them. Reading and printing go through the shared runtime in proto.c.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

//  ---------------------------------------------------------------------------
//  session.info

static bool
s_info_check(const proto_session_info_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "session_id", self->session_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "name", self->name, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "access_key", self->access_key, 0, 64))
        return false;
    if (!proto_check_str(ck, "user_uuid", self->user_uuid, 0, 64))
        return false;
    if (!proto_check_str(ck, "domain_name", self->domain_name, 0, 64))
        return false;
    if (!proto_check_str(ck, "group_id", self->group_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "scaling_group", self->scaling_group, 0, 64))
        return false;
    if (!proto_check_str(ck, "type", self->type, 0, 16))
        return false;
    if (!proto_check_str(ck, "status", self->status, PROTO_REQUIRED, 24))
        return false;
    if (!proto_check_str(ck, "status_info", self->status_info, 0, 256))
        return false;
    if (!proto_check_str(ck, "status_data", self->status_data, 0, 65536))
        return false;
    if (!proto_check_str(ck, "image", self->image, 0, 512))
        return false;
    if (!proto_check_str(ck, "architecture", self->architecture, 0, 32))
        return false;
    if (!proto_check_str(ck, "tag", self->tag, 0, 256))
        return false;
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "agent_id", self->agent_id, 0, 128))
        return false;
    if (!proto_check_str(ck, "agent_addr", self->agent_addr, 0, 256))
        return false;
    if (!proto_check_str(ck, "container_id", self->container_id, 0, 128))
        return false;
    if (!proto_check_str(ck, "kernel_host", self->kernel_host, 0, 64))
        return false;
    if (!proto_check_map(ck, "requested_slots", self->requested_slots,
                         self->requested_slots_count, 64))
        return false;
    if (!proto_check_map(ck, "occupied_slots", self->occupied_slots,
                         self->occupied_slots_count, 64))
        return false;
    if (!proto_check_str(ck, "preopen_ports", self->preopen_ports, 0, 256))
        return false;
    if (!proto_check_str(ck, "result", self->result, 0, 16))
        return false;
    if (!proto_check_str(ck, "cluster_mode", self->cluster_mode, 0, 16))
        return false;
    if (!proto_check_str(ck, "status_history", self->status_history, 0, 32768))
        return false;
    return true;
}

static void
s_info_write(const proto_session_info_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 8;
    pairs += self->access_key != NULL;
    pairs += self->user_uuid != NULL;
    pairs += self->domain_name != NULL;
    pairs += self->group_id != NULL;
    pairs += self->scaling_group != NULL;
    pairs += self->type != NULL;
    pairs += self->status_info != NULL;
    pairs += self->status_data != NULL;
    pairs += self->image != NULL;
    pairs += self->architecture != NULL;
    pairs += self->tag != NULL;
    pairs += self->kernel_id != NULL;
    pairs += self->agent_id != NULL;
    pairs += self->agent_addr != NULL;
    pairs += self->container_id != NULL;
    pairs += self->kernel_host != NULL;
    pairs += self->requested_slots_count > 0;
    pairs += self->occupied_slots_count > 0;
    pairs += self->preopen_ports != NULL;
    pairs += self->result != NULL;
    pairs += self->cluster_mode != NULL;
    pairs += self->status_history != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "session_id", self->session_id);
    proto_write_str(writer, "name", self->name);
    if (self->access_key != NULL)
        proto_write_str(writer, "access_key", self->access_key);
    if (self->user_uuid != NULL)
        proto_write_str(writer, "user_uuid", self->user_uuid);
    if (self->domain_name != NULL)
        proto_write_str(writer, "domain_name", self->domain_name);
    if (self->group_id != NULL)
        proto_write_str(writer, "group_id", self->group_id);
    if (self->scaling_group != NULL)
        proto_write_str(writer, "scaling_group", self->scaling_group);
    if (self->type != NULL)
        proto_write_str(writer, "type", self->type);
    proto_write_str(writer, "status", self->status);
    if (self->status_info != NULL)
        proto_write_str(writer, "status_info", self->status_info);
    if (self->status_data != NULL)
        proto_write_str(writer, "status_data", self->status_data);
    if (self->image != NULL)
        proto_write_str(writer, "image", self->image);
    if (self->architecture != NULL)
        proto_write_str(writer, "architecture", self->architecture);
    if (self->tag != NULL)
        proto_write_str(writer, "tag", self->tag);
    if (self->kernel_id != NULL)
        proto_write_str(writer, "kernel_id", self->kernel_id);
    if (self->agent_id != NULL)
        proto_write_str(writer, "agent_id", self->agent_id);
    if (self->agent_addr != NULL)
        proto_write_str(writer, "agent_addr", self->agent_addr);
    if (self->container_id != NULL)
        proto_write_str(writer, "container_id", self->container_id);
    if (self->kernel_host != NULL)
        proto_write_str(writer, "kernel_host", self->kernel_host);
    if (self->requested_slots_count > 0) {
        proto_write_map(writer, "requested_slots", self->requested_slots,
                        self->requested_slots_count);
    }
    if (self->occupied_slots_count > 0) {
        proto_write_map(writer, "occupied_slots", self->occupied_slots,
                        self->occupied_slots_count);
    }
    proto_write_int(writer, "exit_code", self->exit_code);
    proto_write_int(writer, "created_at", self->created_at);
    proto_write_int(writer, "status_changed", self->status_changed);
    proto_write_int(writer, "terminated_at", self->terminated_at);
    if (self->preopen_ports != NULL)
        proto_write_str(writer, "preopen_ports", self->preopen_ports);
    if (self->result != NULL)
        proto_write_str(writer, "result", self->result);
    if (self->cluster_mode != NULL)
        proto_write_str(writer, "cluster_mode", self->cluster_mode);
    proto_write_uint(writer, "cluster_size", self->cluster_size);
    if (self->status_history != NULL)
        proto_write_str(writer, "status_history", self->status_history);
}

static void
s_info_read(proto_session_info_t *self, proto_in_t *in)
{
    proto_read_str(in, "session_id", PROTO_REQUIRED, 64, &self->session_id);
    proto_read_str(in, "name", PROTO_REQUIRED, 64, &self->name);
    proto_read_str(in, "access_key", 0, 64, &self->access_key);
    proto_read_str(in, "user_uuid", 0, 64, &self->user_uuid);
    proto_read_str(in, "domain_name", 0, 64, &self->domain_name);
    proto_read_str(in, "group_id", 0, 64, &self->group_id);
    proto_read_str(in, "scaling_group", 0, 64, &self->scaling_group);
    proto_read_str(in, "type", 0, 16, &self->type);
    proto_read_str(in, "status", PROTO_REQUIRED, 24, &self->status);
    proto_read_str(in, "status_info", 0, 256, &self->status_info);
    proto_read_str(in, "status_data", 0, 65536, &self->status_data);
    proto_read_str(in, "image", 0, 512, &self->image);
    proto_read_str(in, "architecture", 0, 32, &self->architecture);
    proto_read_str(in, "tag", 0, 256, &self->tag);
    proto_read_str(in, "kernel_id", 0, 64, &self->kernel_id);
    proto_read_str(in, "agent_id", 0, 128, &self->agent_id);
    proto_read_str(in, "agent_addr", 0, 256, &self->agent_addr);
    proto_read_str(in, "container_id", 0, 128, &self->container_id);
    proto_read_str(in, "kernel_host", 0, 64, &self->kernel_host);
    self->requested_slots =
        proto_read_map(in, "requested_slots", 0, 64, &self->requested_slots_count);
    self->occupied_slots =
        proto_read_map(in, "occupied_slots", 0, 64, &self->occupied_slots_count);
    proto_read_int(in, "exit_code", 0, INT64_MIN, INT64_MAX, &self->exit_code);
    proto_read_int(in, "created_at", 0, INT64_MIN, INT64_MAX, &self->created_at);
    proto_read_int(in, "status_changed", 0, INT64_MIN, INT64_MAX, &self->status_changed);
    proto_read_int(in, "terminated_at", 0, INT64_MIN, INT64_MAX, &self->terminated_at);
    proto_read_str(in, "preopen_ports", 0, 256, &self->preopen_ports);
    proto_read_str(in, "result", 0, 16, &self->result);
    proto_read_str(in, "cluster_mode", 0, 16, &self->cluster_mode);
    proto_read_uint(in, "cluster_size", 0, UINT64_MAX, &self->cluster_size);
    proto_read_str(in, "status_history", 0, 32768, &self->status_history);
}

static void
s_info_print(const proto_session_info_t *self, proto_text_t *text)
{
    proto_print_str(text, "session_id", self->session_id);
    proto_print_str(text, "name", self->name);
    proto_print_str(text, "access_key", self->access_key);
    proto_print_str(text, "user_uuid", self->user_uuid);
    proto_print_str(text, "domain_name", self->domain_name);
    proto_print_str(text, "group_id", self->group_id);
    proto_print_str(text, "scaling_group", self->scaling_group);
    proto_print_str(text, "type", self->type);
    proto_print_str(text, "status", self->status);
    proto_print_str(text, "status_info", self->status_info);
    proto_print_str(text, "status_data", self->status_data);
    proto_print_str(text, "image", self->image);
    proto_print_str(text, "architecture", self->architecture);
    proto_print_str(text, "tag", self->tag);
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "agent_id", self->agent_id);
    proto_print_str(text, "agent_addr", self->agent_addr);
    proto_print_str(text, "container_id", self->container_id);
    proto_print_str(text, "kernel_host", self->kernel_host);
    proto_print_count(text, "requested_slots", self->requested_slots_count);
    proto_print_count(text, "occupied_slots", self->occupied_slots_count);
    proto_print_int(text, "exit_code", self->exit_code);
    proto_print_int(text, "created_at", self->created_at);
    proto_print_int(text, "status_changed", self->status_changed);
    proto_print_int(text, "terminated_at", self->terminated_at);
    proto_print_str(text, "preopen_ports", self->preopen_ports);
    proto_print_str(text, "result", self->result);
    proto_print_str(text, "cluster_mode", self->cluster_mode);
    proto_print_uint(text, "cluster_size", self->cluster_size);
    proto_print_str(text, "status_history", self->status_history);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_info_item(void *item, proto_in_t *in)
{
    proto_session_info_init(item);
    s_info_read(item, in);
}

void
proto_session_info_init(proto_session_info_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_session_info_clear(proto_session_info_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_session_info_check(const proto_session_info_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.info", err);
    return s_info_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_info_write(const proto_session_info_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_info_check(self, NULL) != BUS_OK)
        return -1;
    s_info_write(self, writer);
    return 0;
}

zframe_t *
proto_session_info_encode(const proto_session_info_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_info_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_info_read(proto_session_info_t *self,
                        const bus_value_t *map,
                        bus_error_t *err)
{
    proto_in_t in;
    proto_session_info_init(self);
    proto_in_init(&in, "session.info", map, &self->owned_, err);
    s_info_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_info_clear(self);
    return in.status;
}

int
proto_session_info_decode(proto_session_info_t *self,
                          const void *data,
                          size_t size,
                          bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_info_read(self, map, err);
}

char *
proto_session_info_print(const proto_session_info_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_info_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.mount

static bool
s_mount_check(const proto_session_mount_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "name", self->name, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "id", self->id, 0, 64))
        return false;
    if (!proto_check_str(ck, "host", self->host, 0, 256))
        return false;
    if (!proto_check_str(ck, "host_path", self->host_path, PROTO_REQUIRED, 4096))
        return false;
    if (!proto_check_str(ck, "kernel_path", self->kernel_path, PROTO_REQUIRED, 4096))
        return false;
    if (!proto_check_str(ck, "permission", self->permission, PROTO_REQUIRED, 8))
        return false;
    return true;
}

static void
s_mount_write(const proto_session_mount_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 4;
    pairs += self->id != NULL;
    pairs += self->host != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "name", self->name);
    if (self->id != NULL)
        proto_write_str(writer, "id", self->id);
    if (self->host != NULL)
        proto_write_str(writer, "host", self->host);
    proto_write_str(writer, "host_path", self->host_path);
    proto_write_str(writer, "kernel_path", self->kernel_path);
    proto_write_str(writer, "permission", self->permission);
}

static void
s_mount_read(proto_session_mount_t *self, proto_in_t *in)
{
    proto_read_str(in, "name", PROTO_REQUIRED, 64, &self->name);
    proto_read_str(in, "id", 0, 64, &self->id);
    proto_read_str(in, "host", 0, 256, &self->host);
    proto_read_str(in, "host_path", PROTO_REQUIRED, 4096, &self->host_path);
    proto_read_str(in, "kernel_path", PROTO_REQUIRED, 4096, &self->kernel_path);
    proto_read_str(in, "permission", PROTO_REQUIRED, 8, &self->permission);
}

static void
s_mount_print(const proto_session_mount_t *self, proto_text_t *text)
{
    proto_print_str(text, "name", self->name);
    proto_print_str(text, "id", self->id);
    proto_print_str(text, "host", self->host);
    proto_print_str(text, "host_path", self->host_path);
    proto_print_str(text, "kernel_path", self->kernel_path);
    proto_print_str(text, "permission", self->permission);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_mount_item(void *item, proto_in_t *in)
{
    proto_session_mount_init(item);
    s_mount_read(item, in);
}

void
proto_session_mount_init(proto_session_mount_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_session_mount_clear(proto_session_mount_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_session_mount_check(const proto_session_mount_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.mount", err);
    return s_mount_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_mount_write(const proto_session_mount_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_mount_check(self, NULL) != BUS_OK)
        return -1;
    s_mount_write(self, writer);
    return 0;
}

zframe_t *
proto_session_mount_encode(const proto_session_mount_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_mount_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_mount_read(proto_session_mount_t *self,
                         const bus_value_t *map,
                         bus_error_t *err)
{
    proto_in_t in;
    proto_session_mount_init(self);
    proto_in_init(&in, "session.mount", map, &self->owned_, err);
    s_mount_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_mount_clear(self);
    return in.status;
}

int
proto_session_mount_decode(proto_session_mount_t *self,
                           const void *data,
                           size_t size,
                           bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_mount_read(self, map, err);
}

char *
proto_session_mount_print(const proto_session_mount_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_mount_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.dotfile

static bool
s_dotfile_check(const proto_session_dotfile_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "path", self->path, PROTO_REQUIRED, 1024))
        return false;
    if (!proto_check_str(ck, "permission", self->permission, PROTO_REQUIRED, 3))
        return false;
    if (!proto_check_str(ck, "data", self->data, PROTO_REQUIRED, 65536))
        return false;
    return true;
}

static void
s_dotfile_write(const proto_session_dotfile_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 3);
    proto_write_str(writer, "path", self->path);
    proto_write_str(writer, "permission", self->permission);
    proto_write_str(writer, "data", self->data);
}

static void
s_dotfile_read(proto_session_dotfile_t *self, proto_in_t *in)
{
    proto_read_str(in, "path", PROTO_REQUIRED, 1024, &self->path);
    proto_read_str(in, "permission", PROTO_REQUIRED, 3, &self->permission);
    proto_read_str(in, "data", PROTO_REQUIRED, 65536, &self->data);
}

static void
s_dotfile_print(const proto_session_dotfile_t *self, proto_text_t *text)
{
    proto_print_str(text, "path", self->path);
    proto_print_str(text, "permission", self->permission);
    proto_print_str(text, "data", self->data);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_dotfile_item(void *item, proto_in_t *in)
{
    proto_session_dotfile_init(item);
    s_dotfile_read(item, in);
}

void
proto_session_dotfile_init(proto_session_dotfile_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_session_dotfile_clear(proto_session_dotfile_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_session_dotfile_check(const proto_session_dotfile_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.dotfile", err);
    return s_dotfile_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_dotfile_write(const proto_session_dotfile_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_dotfile_check(self, NULL) != BUS_OK)
        return -1;
    s_dotfile_write(self, writer);
    return 0;
}

zframe_t *
proto_session_dotfile_encode(const proto_session_dotfile_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_dotfile_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_dotfile_read(proto_session_dotfile_t *self,
                           const bus_value_t *map,
                           bus_error_t *err)
{
    proto_in_t in;
    proto_session_dotfile_init(self);
    proto_in_init(&in, "session.dotfile", map, &self->owned_, err);
    s_dotfile_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_dotfile_clear(self);
    return in.status;
}

int
proto_session_dotfile_decode(proto_session_dotfile_t *self,
                             const void *data,
                             size_t size,
                             bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_dotfile_read(self, map, err);
}

char *
proto_session_dotfile_print(const proto_session_dotfile_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_dotfile_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.scope_limits

static bool
s_scope_limits_check(const proto_session_scope_limits_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "scope", self->scope, PROTO_REQUIRED, 16))
        return false;
    if (!proto_check_map(ck, "total_resource_slots", self->total_resource_slots,
                         self->total_resource_slots_count, 64))
        return false;
    if (!proto_check_int(ck, "max_concurrent_sessions", self->max_concurrent_sessions, -1,
                         INT64_MAX))
        return false;
    if (!proto_check_int(ck, "max_containers_per_session",
                         self->max_containers_per_session, -1, INT64_MAX))
        return false;
    if (!proto_check_int(ck, "max_pending_session_count", self->max_pending_session_count,
                         -1, INT64_MAX))
        return false;
    if (!proto_check_map(ck, "max_pending_session_resource_slots",
                         self->max_pending_session_resource_slots,
                         self->max_pending_session_resource_slots_count, 64))
        return false;
    return true;
}

static void
s_scope_limits_write(const proto_session_scope_limits_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 7;
    pairs += self->total_resource_slots_count > 0;
    pairs += self->max_pending_session_resource_slots_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "scope", self->scope);
    if (self->total_resource_slots_count > 0) {
        proto_write_map(writer, "total_resource_slots", self->total_resource_slots,
                        self->total_resource_slots_count);
    }
    proto_write_bool(writer, "limited", self->limited);
    proto_write_int(writer, "max_concurrent_sessions", self->max_concurrent_sessions);
    proto_write_int(writer, "max_containers_per_session",
                    self->max_containers_per_session);
    proto_write_int(writer, "max_pending_session_count", self->max_pending_session_count);
    if (self->max_pending_session_resource_slots_count > 0) {
        proto_write_map(writer, "max_pending_session_resource_slots",
                        self->max_pending_session_resource_slots,
                        self->max_pending_session_resource_slots_count);
    }
    proto_write_uint(writer, "idle_timeout", self->idle_timeout);
    proto_write_uint(writer, "max_session_lifetime", self->max_session_lifetime);
}

static void
s_scope_limits_read(proto_session_scope_limits_t *self, proto_in_t *in)
{
    proto_read_str(in, "scope", PROTO_REQUIRED, 16, &self->scope);
    self->total_resource_slots = proto_read_map(in, "total_resource_slots", 0, 64,
                                                &self->total_resource_slots_count);
    proto_read_bool(in, "limited", 0, &self->limited);
    proto_read_int(in, "max_concurrent_sessions", 0, -1, INT64_MAX,
                   &self->max_concurrent_sessions);
    proto_read_int(in, "max_containers_per_session", 0, -1, INT64_MAX,
                   &self->max_containers_per_session);
    proto_read_int(in, "max_pending_session_count", 0, -1, INT64_MAX,
                   &self->max_pending_session_count);
    self->max_pending_session_resource_slots = proto_read_map(in,
                                                              "max_pending_session_resource_slots",
                                                              0, 64,
                                                              &self->max_pending_session_resource_slots_count);
    proto_read_uint(in, "idle_timeout", 0, UINT64_MAX, &self->idle_timeout);
    proto_read_uint(in, "max_session_lifetime", 0, UINT64_MAX,
                    &self->max_session_lifetime);
}

static void
s_scope_limits_print(const proto_session_scope_limits_t *self, proto_text_t *text)
{
    proto_print_str(text, "scope", self->scope);
    proto_print_count(text, "total_resource_slots", self->total_resource_slots_count);
    proto_print_bool(text, "limited", self->limited);
    proto_print_int(text, "max_concurrent_sessions", self->max_concurrent_sessions);
    proto_print_int(text, "max_containers_per_session", self->max_containers_per_session);
    proto_print_int(text, "max_pending_session_count", self->max_pending_session_count);
    proto_print_count(text, "max_pending_session_resource_slots",
                      self->max_pending_session_resource_slots_count);
    proto_print_uint(text, "idle_timeout", self->idle_timeout);
    proto_print_uint(text, "max_session_lifetime", self->max_session_lifetime);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_scope_limits_item(void *item, proto_in_t *in)
{
    proto_session_scope_limits_init(item);
    s_scope_limits_read(item, in);
}

void
proto_session_scope_limits_init(proto_session_scope_limits_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->max_concurrent_sessions = -1;
    self->max_containers_per_session = -1;
    self->max_pending_session_count = -1;
}

void
proto_session_scope_limits_clear(proto_session_scope_limits_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_session_scope_limits_check(const proto_session_scope_limits_t *self,
                                 bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.scope_limits", err);
    return s_scope_limits_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_scope_limits_write(const proto_session_scope_limits_t *self,
                                 bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_scope_limits_check(self, NULL) != BUS_OK)
        return -1;
    s_scope_limits_write(self, writer);
    return 0;
}

zframe_t *
proto_session_scope_limits_encode(const proto_session_scope_limits_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_scope_limits_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_scope_limits_read(proto_session_scope_limits_t *self,
                                const bus_value_t *map,
                                bus_error_t *err)
{
    proto_in_t in;
    proto_session_scope_limits_init(self);
    proto_in_init(&in, "session.scope_limits", map, &self->owned_, err);
    s_scope_limits_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_scope_limits_clear(self);
    return in.status;
}

int
proto_session_scope_limits_decode(proto_session_scope_limits_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_scope_limits_read(self, map, err);
}

char *
proto_session_scope_limits_print(const proto_session_scope_limits_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_scope_limits_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.activity

static bool
s_activity_check(const proto_session_activity_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "session_id", self->session_id, PROTO_REQUIRED, 64))
        return false;
    return true;
}

static void
s_activity_write(const proto_session_activity_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    proto_write_str(writer, "session_id", self->session_id);
}

static void
s_activity_read(proto_session_activity_t *self, proto_in_t *in)
{
    proto_read_str(in, "session_id", PROTO_REQUIRED, 64, &self->session_id);
}

static void
s_activity_print(const proto_session_activity_t *self, proto_text_t *text)
{
    proto_print_str(text, "session_id", self->session_id);
}

void
proto_session_activity_init(proto_session_activity_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_session_activity_clear(proto_session_activity_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_session_activity_check(const proto_session_activity_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.activity", err);
    return s_activity_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_activity_write(const proto_session_activity_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_activity_check(self, NULL) != BUS_OK)
        return -1;
    s_activity_write(self, writer);
    return 0;
}

zframe_t *
proto_session_activity_encode(const proto_session_activity_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_activity_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_activity_read(proto_session_activity_t *self,
                            const bus_value_t *map,
                            bus_error_t *err)
{
    proto_in_t in;
    proto_session_activity_init(self);
    proto_in_init(&in, "session.activity", map, &self->owned_, err);
    s_activity_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_activity_clear(self);
    return in.status;
}

int
proto_session_activity_decode(proto_session_activity_t *self,
                              const void *data,
                              size_t size,
                              bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_activity_read(self, map, err);
}

char *
proto_session_activity_print(const proto_session_activity_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_activity_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.lifecycle

static bool
s_lifecycle_check(const proto_session_lifecycle_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "event", self->event, PROTO_REQUIRED, 32))
        return false;
    if (!proto_check_str(ck, "session_id", self->session_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "session_name", self->session_name, 0, 64))
        return false;
    if (!proto_check_str(ck, "access_key", self->access_key, 0, 64))
        return false;
    if (!proto_check_str(ck, "domain_name", self->domain_name, 0, 64))
        return false;
    if (!proto_check_str(ck, "group_id", self->group_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "status", self->status, 0, 24))
        return false;
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "cluster_role", self->cluster_role, 0, 16))
        return false;
    if (!proto_check_str(ck, "reason", self->reason, 0, 64))
        return false;
    if (!proto_check_str(ck, "user_uuid", self->user_uuid, 0, 64))
        return false;
    if (!proto_check_str(ck, "scaling_group", self->scaling_group, 0, 64))
        return false;
    if (!proto_check_str(ck, "image", self->image, 0, 512))
        return false;
    if (!proto_check_str(ck, "agent_id", self->agent_id, 0, 128))
        return false;
    if (!proto_check_map(ck, "slots", self->slots, self->slots_count, 64))
        return false;
    return true;
}

static void
s_lifecycle_write(const proto_session_lifecycle_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 6;
    pairs += self->session_name != NULL;
    pairs += self->access_key != NULL;
    pairs += self->domain_name != NULL;
    pairs += self->group_id != NULL;
    pairs += self->status != NULL;
    pairs += self->kernel_id != NULL;
    pairs += self->cluster_role != NULL;
    pairs += self->reason != NULL;
    pairs += self->user_uuid != NULL;
    pairs += self->scaling_group != NULL;
    pairs += self->image != NULL;
    pairs += self->agent_id != NULL;
    pairs += self->slots_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "event", self->event);
    proto_write_str(writer, "session_id", self->session_id);
    if (self->session_name != NULL)
        proto_write_str(writer, "session_name", self->session_name);
    if (self->access_key != NULL)
        proto_write_str(writer, "access_key", self->access_key);
    if (self->domain_name != NULL)
        proto_write_str(writer, "domain_name", self->domain_name);
    if (self->group_id != NULL)
        proto_write_str(writer, "group_id", self->group_id);
    if (self->status != NULL)
        proto_write_str(writer, "status", self->status);
    if (self->kernel_id != NULL)
        proto_write_str(writer, "kernel_id", self->kernel_id);
    if (self->cluster_role != NULL)
        proto_write_str(writer, "cluster_role", self->cluster_role);
    proto_write_uint(writer, "cluster_idx", self->cluster_idx);
    if (self->reason != NULL)
        proto_write_str(writer, "reason", self->reason);
    proto_write_int(writer, "exit_code", self->exit_code);
    proto_write_bool(writer, "has_exit_code", self->has_exit_code);
    proto_write_int(writer, "at", self->at);
    if (self->user_uuid != NULL)
        proto_write_str(writer, "user_uuid", self->user_uuid);
    if (self->scaling_group != NULL)
        proto_write_str(writer, "scaling_group", self->scaling_group);
    if (self->image != NULL)
        proto_write_str(writer, "image", self->image);
    if (self->agent_id != NULL)
        proto_write_str(writer, "agent_id", self->agent_id);
    if (self->slots_count > 0)
        proto_write_map(writer, "slots", self->slots, self->slots_count);
}

static void
s_lifecycle_read(proto_session_lifecycle_t *self, proto_in_t *in)
{
    proto_read_str(in, "event", PROTO_REQUIRED, 32, &self->event);
    proto_read_str(in, "session_id", PROTO_REQUIRED, 64, &self->session_id);
    proto_read_str(in, "session_name", 0, 64, &self->session_name);
    proto_read_str(in, "access_key", 0, 64, &self->access_key);
    proto_read_str(in, "domain_name", 0, 64, &self->domain_name);
    proto_read_str(in, "group_id", 0, 64, &self->group_id);
    proto_read_str(in, "status", 0, 24, &self->status);
    proto_read_str(in, "kernel_id", 0, 64, &self->kernel_id);
    proto_read_str(in, "cluster_role", 0, 16, &self->cluster_role);
    proto_read_uint(in, "cluster_idx", 0, UINT64_MAX, &self->cluster_idx);
    proto_read_str(in, "reason", 0, 64, &self->reason);
    proto_read_int(in, "exit_code", 0, INT64_MIN, INT64_MAX, &self->exit_code);
    proto_read_bool(in, "has_exit_code", 0, &self->has_exit_code);
    proto_read_int(in, "at", 0, INT64_MIN, INT64_MAX, &self->at);
    proto_read_str(in, "user_uuid", 0, 64, &self->user_uuid);
    proto_read_str(in, "scaling_group", 0, 64, &self->scaling_group);
    proto_read_str(in, "image", 0, 512, &self->image);
    proto_read_str(in, "agent_id", 0, 128, &self->agent_id);
    self->slots = proto_read_map(in, "slots", 0, 64, &self->slots_count);
}

static void
s_lifecycle_print(const proto_session_lifecycle_t *self, proto_text_t *text)
{
    proto_print_str(text, "event", self->event);
    proto_print_str(text, "session_id", self->session_id);
    proto_print_str(text, "session_name", self->session_name);
    proto_print_str(text, "access_key", self->access_key);
    proto_print_str(text, "domain_name", self->domain_name);
    proto_print_str(text, "group_id", self->group_id);
    proto_print_str(text, "status", self->status);
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "cluster_role", self->cluster_role);
    proto_print_uint(text, "cluster_idx", self->cluster_idx);
    proto_print_str(text, "reason", self->reason);
    proto_print_int(text, "exit_code", self->exit_code);
    proto_print_bool(text, "has_exit_code", self->has_exit_code);
    proto_print_int(text, "at", self->at);
    proto_print_str(text, "user_uuid", self->user_uuid);
    proto_print_str(text, "scaling_group", self->scaling_group);
    proto_print_str(text, "image", self->image);
    proto_print_str(text, "agent_id", self->agent_id);
    proto_print_count(text, "slots", self->slots_count);
}

void
proto_session_lifecycle_init(proto_session_lifecycle_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_session_lifecycle_clear(proto_session_lifecycle_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_session_lifecycle_check(const proto_session_lifecycle_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.lifecycle", err);
    return s_lifecycle_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_lifecycle_write(const proto_session_lifecycle_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_lifecycle_check(self, NULL) != BUS_OK)
        return -1;
    s_lifecycle_write(self, writer);
    return 0;
}

zframe_t *
proto_session_lifecycle_encode(const proto_session_lifecycle_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_lifecycle_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_lifecycle_read(proto_session_lifecycle_t *self,
                             const bus_value_t *map,
                             bus_error_t *err)
{
    proto_in_t in;
    proto_session_lifecycle_init(self);
    proto_in_init(&in, "session.lifecycle", map, &self->owned_, err);
    s_lifecycle_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_lifecycle_clear(self);
    return in.status;
}

int
proto_session_lifecycle_decode(proto_session_lifecycle_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_lifecycle_read(self, map, err);
}

char *
proto_session_lifecycle_print(const proto_session_lifecycle_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_lifecycle_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.create request

static bool
s_create_req_check(const proto_session_create_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "session_id", self->session_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "name", self->name, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "access_key", self->access_key, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "user_uuid", self->user_uuid, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "domain_name", self->domain_name, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "group_id", self->group_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "scaling_group", self->scaling_group, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "type", self->type, 0, 16))
        return false;
    if (!proto_check_str(ck, "image", self->image, PROTO_REQUIRED, 512))
        return false;
    if (!proto_check_str(ck, "architecture", self->architecture, 0, 32))
        return false;
    if (!proto_check_map(ck, "slots", self->slots, self->slots_count, 64))
        return false;
    if (!proto_check_map(ck, "environ", self->environ, self->environ_count, 1024))
        return false;
    if (!proto_check_str(ck, "startup_command", self->startup_command, 0, 65536))
        return false;
    if (!proto_check_str(ck, "tag", self->tag, 0, 256))
        return false;
    if (!proto_check_str(ck, "preopen_ports", self->preopen_ports, 0, 256))
        return false;
    if (!proto_check_str(ck, "bootstrap_script", self->bootstrap_script, 0, 65536))
        return false;
    if (!proto_check_uint(ck, "priority", self->priority, 100))
        return false;
    if (!proto_check_str(ck, "cluster_mode", self->cluster_mode, 0, 16))
        return false;
    if (!proto_check_uint(ck, "cluster_size", self->cluster_size, 64))
        return false;
    if (!proto_check_strs(ck, "dependencies", self->dependencies,
                          self->dependencies_count, 64))
        return false;
    if (!proto_check_count(ck, "limits", self->limits, self->limits_count, 4))
        return false;
    for (size_t i = 0; i < self->limits_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "limits", i);
        if (!s_scope_limits_check(&self->limits[i], &item))
            return false;
    }
    if (!proto_check_count(ck, "mounts", self->mounts, self->mounts_count, 64))
        return false;
    for (size_t i = 0; i < self->mounts_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "mounts", i);
        if (!s_mount_check(&self->mounts[i], &item))
            return false;
    }
    if (!proto_check_count(ck, "dotfiles", self->dotfiles, self->dotfiles_count, 300))
        return false;
    for (size_t i = 0; i < self->dotfiles_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "dotfiles", i);
        if (!s_dotfile_check(&self->dotfiles[i], &item))
            return false;
    }
    if (!proto_check_str(ck, "model_service", self->model_service, 0, 65536))
        return false;
    if (!proto_check_str(ck, "spread", self->spread, 0, 64))
        return false;
    return true;
}

static void
s_create_req_write(const proto_session_create_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 14;
    pairs += self->type != NULL;
    pairs += self->architecture != NULL;
    pairs += self->slots_count > 0;
    pairs += self->environ_count > 0;
    pairs += self->startup_command != NULL;
    pairs += self->tag != NULL;
    pairs += self->preopen_ports != NULL;
    pairs += self->bootstrap_script != NULL;
    pairs += self->cluster_mode != NULL;
    pairs += self->dependencies_count > 0;
    pairs += self->limits_count > 0;
    pairs += self->mounts_count > 0;
    pairs += self->dotfiles_count > 0;
    pairs += self->model_service != NULL;
    pairs += self->spread != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "session_id", self->session_id);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    proto_write_str(writer, "name", self->name);
    proto_write_str(writer, "access_key", self->access_key);
    proto_write_str(writer, "user_uuid", self->user_uuid);
    proto_write_str(writer, "domain_name", self->domain_name);
    proto_write_str(writer, "group_id", self->group_id);
    proto_write_str(writer, "scaling_group", self->scaling_group);
    if (self->type != NULL)
        proto_write_str(writer, "type", self->type);
    proto_write_str(writer, "image", self->image);
    if (self->architecture != NULL)
        proto_write_str(writer, "architecture", self->architecture);
    if (self->slots_count > 0)
        proto_write_map(writer, "slots", self->slots, self->slots_count);
    if (self->environ_count > 0)
        proto_write_map(writer, "environ", self->environ, self->environ_count);
    proto_write_uint(writer, "shmem_bytes", self->shmem_bytes);
    if (self->startup_command != NULL)
        proto_write_str(writer, "startup_command", self->startup_command);
    if (self->tag != NULL)
        proto_write_str(writer, "tag", self->tag);
    if (self->preopen_ports != NULL)
        proto_write_str(writer, "preopen_ports", self->preopen_ports);
    if (self->bootstrap_script != NULL)
        proto_write_str(writer, "bootstrap_script", self->bootstrap_script);
    proto_write_uint(writer, "priority", self->priority);
    if (self->cluster_mode != NULL)
        proto_write_str(writer, "cluster_mode", self->cluster_mode);
    proto_write_uint(writer, "cluster_size", self->cluster_size);
    proto_write_int(writer, "starts_at", self->starts_at);
    if (self->dependencies_count > 0) {
        proto_write_strs(writer, "dependencies", self->dependencies,
                         self->dependencies_count);
    }
    proto_write_uint(writer, "batch_timeout", self->batch_timeout);
    if (self->limits_count > 0) {
        proto_write_array(writer, "limits", self->limits_count);
        for (size_t i = 0; i < self->limits_count; i++)
            s_scope_limits_write(&self->limits[i], writer);
    }
    if (self->mounts_count > 0) {
        proto_write_array(writer, "mounts", self->mounts_count);
        for (size_t i = 0; i < self->mounts_count; i++)
            s_mount_write(&self->mounts[i], writer);
    }
    if (self->dotfiles_count > 0) {
        proto_write_array(writer, "dotfiles", self->dotfiles_count);
        for (size_t i = 0; i < self->dotfiles_count; i++)
            s_dotfile_write(&self->dotfiles[i], writer);
    }
    if (self->model_service != NULL)
        proto_write_str(writer, "model_service", self->model_service);
    if (self->spread != NULL)
        proto_write_str(writer, "spread", self->spread);
}

static void
s_create_req_read(proto_session_create_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "session_id", PROTO_REQUIRED, 64, &self->session_id);
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "name", PROTO_REQUIRED, 64, &self->name);
    proto_read_str(in, "access_key", PROTO_REQUIRED, 64, &self->access_key);
    proto_read_str(in, "user_uuid", PROTO_REQUIRED, 64, &self->user_uuid);
    proto_read_str(in, "domain_name", PROTO_REQUIRED, 64, &self->domain_name);
    proto_read_str(in, "group_id", PROTO_REQUIRED, 64, &self->group_id);
    proto_read_str(in, "scaling_group", PROTO_REQUIRED, 64, &self->scaling_group);
    proto_read_str(in, "type", 0, 16, &self->type);
    proto_read_str(in, "image", PROTO_REQUIRED, 512, &self->image);
    proto_read_str(in, "architecture", 0, 32, &self->architecture);
    self->slots = proto_read_map(in, "slots", 0, 64, &self->slots_count);
    self->environ = proto_read_map(in, "environ", 0, 1024, &self->environ_count);
    proto_read_uint(in, "shmem_bytes", 0, UINT64_MAX, &self->shmem_bytes);
    proto_read_str(in, "startup_command", 0, 65536, &self->startup_command);
    proto_read_str(in, "tag", 0, 256, &self->tag);
    proto_read_str(in, "preopen_ports", 0, 256, &self->preopen_ports);
    proto_read_str(in, "bootstrap_script", 0, 65536, &self->bootstrap_script);
    proto_read_uint(in, "priority", 0, 100, &self->priority);
    proto_read_str(in, "cluster_mode", 0, 16, &self->cluster_mode);
    proto_read_uint(in, "cluster_size", 0, 64, &self->cluster_size);
    proto_read_int(in, "starts_at", 0, INT64_MIN, INT64_MAX, &self->starts_at);
    self->dependencies =
        proto_read_strs(in, "dependencies", 0, 64, &self->dependencies_count);
    proto_read_uint(in, "batch_timeout", 0, UINT64_MAX, &self->batch_timeout);
    self->limits = proto_read_list(in, "limits", 0, 4, sizeof *self->limits,
                                   s_scope_limits_item, &self->limits_count);
    self->mounts = proto_read_list(in, "mounts", 0, 64, sizeof *self->mounts,
                                   s_mount_item, &self->mounts_count);
    self->dotfiles = proto_read_list(in, "dotfiles", 0, 300, sizeof *self->dotfiles,
                                     s_dotfile_item, &self->dotfiles_count);
    proto_read_str(in, "model_service", 0, 65536, &self->model_service);
    proto_read_str(in, "spread", 0, 64, &self->spread);
}

static void
s_create_req_print(const proto_session_create_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "session_id", self->session_id);
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "name", self->name);
    proto_print_str(text, "access_key", self->access_key);
    proto_print_str(text, "user_uuid", self->user_uuid);
    proto_print_str(text, "domain_name", self->domain_name);
    proto_print_str(text, "group_id", self->group_id);
    proto_print_str(text, "scaling_group", self->scaling_group);
    proto_print_str(text, "type", self->type);
    proto_print_str(text, "image", self->image);
    proto_print_str(text, "architecture", self->architecture);
    proto_print_count(text, "slots", self->slots_count);
    proto_print_count(text, "environ", self->environ_count);
    proto_print_uint(text, "shmem_bytes", self->shmem_bytes);
    proto_print_str(text, "startup_command", self->startup_command);
    proto_print_str(text, "tag", self->tag);
    proto_print_str(text, "preopen_ports", self->preopen_ports);
    proto_print_str(text, "bootstrap_script", self->bootstrap_script);
    proto_print_uint(text, "priority", self->priority);
    proto_print_str(text, "cluster_mode", self->cluster_mode);
    proto_print_uint(text, "cluster_size", self->cluster_size);
    proto_print_int(text, "starts_at", self->starts_at);
    proto_print_count(text, "dependencies", self->dependencies_count);
    proto_print_uint(text, "batch_timeout", self->batch_timeout);
    proto_print_count(text, "limits", self->limits_count);
    proto_print_count(text, "mounts", self->mounts_count);
    proto_print_count(text, "dotfiles", self->dotfiles_count);
    proto_print_str(text, "model_service", self->model_service);
    proto_print_str(text, "spread", self->spread);
}

void
proto_session_create_req_init(proto_session_create_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->type = "INTERACTIVE";
    self->architecture = "x86_64";
    self->priority = 10;
    self->cluster_mode = "single-node";
    self->cluster_size = 1;
}

void
proto_session_create_req_clear(proto_session_create_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_session_create_req_check(const proto_session_create_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.create request", err);
    return s_create_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_create_req_write(const proto_session_create_req_t *self,
                               bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_create_req_check(self, NULL) != BUS_OK)
        return -1;
    s_create_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_session_create_req_writer(const proto_session_create_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_session_create_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "session.create request: out of memory");
        return NULL;
    }
    s_create_req_write(self, writer);
    return writer;
}

zframe_t *
proto_session_create_req_encode(const proto_session_create_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_create_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_create_req_read(proto_session_create_req_t *self,
                              const bus_value_t *map,
                              bus_error_t *err)
{
    proto_in_t in;
    proto_session_create_req_init(self);
    proto_in_init(&in, "session.create request", map, &self->owned_, err);
    s_create_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_create_req_clear(self);
    return in.status;
}

int
proto_session_create_req_decode(proto_session_create_req_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_create_req_read(self, map, err);
}

char *
proto_session_create_req_print(const proto_session_create_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_create_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.create reply

static bool
s_create_rep_check(const proto_session_create_rep_t *self, proto_check_t *ck)
{
    proto_check_t sub;
    proto_check_enter(ck, &sub, "session", PROTO_NO_INDEX);
    if (!s_info_check(&self->session, &sub))
        return false;
    return true;
}

static void
s_create_rep_write(const proto_session_create_rep_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    bus_writer_str(writer, "session");
    s_info_write(&self->session, writer);
}

static void
s_create_rep_read(proto_session_create_rep_t *self, proto_in_t *in)
{
    proto_in_t sub;
    if (proto_read_nested(in, "session", PROTO_REQUIRED, &sub))
        s_info_read(&self->session, &sub);
}

static void
s_create_rep_print(const proto_session_create_rep_t *self, proto_text_t *text)
{
    size_t mark;
    mark = proto_text_enter(text, "session");
    s_info_print(&self->session, text);
    proto_text_leave(text, mark);
}

void
proto_session_create_rep_init(proto_session_create_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_session_create_rep_clear(proto_session_create_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    proto_session_info_clear(&self->session);
    memset(self, 0, sizeof *self);
}

int
proto_session_create_rep_check(const proto_session_create_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.create reply", err);
    return s_create_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_create_rep_write(const proto_session_create_rep_t *self,
                               bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_create_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_create_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_session_create_rep_encode(const proto_session_create_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_create_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_create_rep_read(proto_session_create_rep_t *self,
                              const bus_value_t *map,
                              bus_error_t *err)
{
    proto_in_t in;
    proto_session_create_rep_init(self);
    proto_in_init(&in, "session.create reply", map, &self->owned_, err);
    s_create_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_create_rep_clear(self);
    return in.status;
}

int
proto_session_create_rep_decode(proto_session_create_rep_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_create_rep_read(self, map, err);
}

char *
proto_session_create_rep_print(const proto_session_create_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_create_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.destroy request

static bool
s_destroy_req_check(const proto_session_destroy_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "session_id", self->session_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "reason", self->reason, 0, 64))
        return false;
    return true;
}

static void
s_destroy_req_write(const proto_session_destroy_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->reason != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "session_id", self->session_id);
    proto_write_bool(writer, "forced", self->forced);
    if (self->reason != NULL)
        proto_write_str(writer, "reason", self->reason);
}

static void
s_destroy_req_read(proto_session_destroy_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "session_id", PROTO_REQUIRED, 64, &self->session_id);
    proto_read_bool(in, "forced", 0, &self->forced);
    proto_read_str(in, "reason", 0, 64, &self->reason);
}

static void
s_destroy_req_print(const proto_session_destroy_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "session_id", self->session_id);
    proto_print_bool(text, "forced", self->forced);
    proto_print_str(text, "reason", self->reason);
}

void
proto_session_destroy_req_init(proto_session_destroy_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->reason = "user-requested";
}

void
proto_session_destroy_req_clear(proto_session_destroy_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_session_destroy_req_check(const proto_session_destroy_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.destroy request", err);
    return s_destroy_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_destroy_req_write(const proto_session_destroy_req_t *self,
                                bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_destroy_req_check(self, NULL) != BUS_OK)
        return -1;
    s_destroy_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_session_destroy_req_writer(const proto_session_destroy_req_t *self,
                                 bus_error_t *err)
{
    assert(self);
    if (proto_session_destroy_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "session.destroy request: out of memory");
        return NULL;
    }
    s_destroy_req_write(self, writer);
    return writer;
}

zframe_t *
proto_session_destroy_req_encode(const proto_session_destroy_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_destroy_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_destroy_req_read(proto_session_destroy_req_t *self,
                               const bus_value_t *map,
                               bus_error_t *err)
{
    proto_in_t in;
    proto_session_destroy_req_init(self);
    proto_in_init(&in, "session.destroy request", map, &self->owned_, err);
    s_destroy_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_destroy_req_clear(self);
    return in.status;
}

int
proto_session_destroy_req_decode(proto_session_destroy_req_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_destroy_req_read(self, map, err);
}

char *
proto_session_destroy_req_print(const proto_session_destroy_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_destroy_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.destroy reply

static bool
s_destroy_rep_check(const proto_session_destroy_rep_t *self, proto_check_t *ck)
{
    proto_check_t sub;
    proto_check_enter(ck, &sub, "session", PROTO_NO_INDEX);
    if (!s_info_check(&self->session, &sub))
        return false;
    return true;
}

static void
s_destroy_rep_write(const proto_session_destroy_rep_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    bus_writer_str(writer, "session");
    s_info_write(&self->session, writer);
}

static void
s_destroy_rep_read(proto_session_destroy_rep_t *self, proto_in_t *in)
{
    proto_in_t sub;
    if (proto_read_nested(in, "session", PROTO_REQUIRED, &sub))
        s_info_read(&self->session, &sub);
}

static void
s_destroy_rep_print(const proto_session_destroy_rep_t *self, proto_text_t *text)
{
    size_t mark;
    mark = proto_text_enter(text, "session");
    s_info_print(&self->session, text);
    proto_text_leave(text, mark);
}

void
proto_session_destroy_rep_init(proto_session_destroy_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_session_destroy_rep_clear(proto_session_destroy_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    proto_session_info_clear(&self->session);
    memset(self, 0, sizeof *self);
}

int
proto_session_destroy_rep_check(const proto_session_destroy_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.destroy reply", err);
    return s_destroy_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_destroy_rep_write(const proto_session_destroy_rep_t *self,
                                bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_destroy_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_destroy_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_session_destroy_rep_encode(const proto_session_destroy_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_destroy_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_destroy_rep_read(proto_session_destroy_rep_t *self,
                               const bus_value_t *map,
                               bus_error_t *err)
{
    proto_in_t in;
    proto_session_destroy_rep_init(self);
    proto_in_init(&in, "session.destroy reply", map, &self->owned_, err);
    s_destroy_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_destroy_rep_clear(self);
    return in.status;
}

int
proto_session_destroy_rep_decode(proto_session_destroy_rep_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_destroy_rep_read(self, map, err);
}

char *
proto_session_destroy_rep_print(const proto_session_destroy_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_destroy_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.get request

static bool
s_get_req_check(const proto_session_get_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "session_id", self->session_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "access_key", self->access_key, 0, 64))
        return false;
    if (!proto_check_str(ck, "name", self->name, 0, 64))
        return false;
    return true;
}

static void
s_get_req_write(const proto_session_get_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->session_id != NULL;
    pairs += self->access_key != NULL;
    pairs += self->name != NULL;
    bus_writer_map(writer, pairs);
    if (self->session_id != NULL)
        proto_write_str(writer, "session_id", self->session_id);
    if (self->access_key != NULL)
        proto_write_str(writer, "access_key", self->access_key);
    if (self->name != NULL)
        proto_write_str(writer, "name", self->name);
}

static void
s_get_req_read(proto_session_get_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "session_id", 0, 64, &self->session_id);
    proto_read_str(in, "access_key", 0, 64, &self->access_key);
    proto_read_str(in, "name", 0, 64, &self->name);
}

static void
s_get_req_print(const proto_session_get_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "session_id", self->session_id);
    proto_print_str(text, "access_key", self->access_key);
    proto_print_str(text, "name", self->name);
}

void
proto_session_get_req_init(proto_session_get_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_session_get_req_clear(proto_session_get_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_session_get_req_check(const proto_session_get_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.get request", err);
    return s_get_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_get_req_write(const proto_session_get_req_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_get_req_check(self, NULL) != BUS_OK)
        return -1;
    s_get_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_session_get_req_writer(const proto_session_get_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_session_get_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "session.get request: out of memory");
        return NULL;
    }
    s_get_req_write(self, writer);
    return writer;
}

zframe_t *
proto_session_get_req_encode(const proto_session_get_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_get_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_get_req_read(proto_session_get_req_t *self,
                           const bus_value_t *map,
                           bus_error_t *err)
{
    proto_in_t in;
    proto_session_get_req_init(self);
    proto_in_init(&in, "session.get request", map, &self->owned_, err);
    s_get_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_get_req_clear(self);
    return in.status;
}

int
proto_session_get_req_decode(proto_session_get_req_t *self,
                             const void *data,
                             size_t size,
                             bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_get_req_read(self, map, err);
}

char *
proto_session_get_req_print(const proto_session_get_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_get_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.get reply

static bool
s_get_rep_check(const proto_session_get_rep_t *self, proto_check_t *ck)
{
    proto_check_t sub;
    proto_check_enter(ck, &sub, "session", PROTO_NO_INDEX);
    if (!s_info_check(&self->session, &sub))
        return false;
    return true;
}

static void
s_get_rep_write(const proto_session_get_rep_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    bus_writer_str(writer, "session");
    s_info_write(&self->session, writer);
}

static void
s_get_rep_read(proto_session_get_rep_t *self, proto_in_t *in)
{
    proto_in_t sub;
    if (proto_read_nested(in, "session", PROTO_REQUIRED, &sub))
        s_info_read(&self->session, &sub);
}

static void
s_get_rep_print(const proto_session_get_rep_t *self, proto_text_t *text)
{
    size_t mark;
    mark = proto_text_enter(text, "session");
    s_info_print(&self->session, text);
    proto_text_leave(text, mark);
}

void
proto_session_get_rep_init(proto_session_get_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_session_get_rep_clear(proto_session_get_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    proto_session_info_clear(&self->session);
    memset(self, 0, sizeof *self);
}

int
proto_session_get_rep_check(const proto_session_get_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.get reply", err);
    return s_get_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_get_rep_write(const proto_session_get_rep_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_get_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_get_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_session_get_rep_encode(const proto_session_get_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_get_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_get_rep_read(proto_session_get_rep_t *self,
                           const bus_value_t *map,
                           bus_error_t *err)
{
    proto_in_t in;
    proto_session_get_rep_init(self);
    proto_in_init(&in, "session.get reply", map, &self->owned_, err);
    s_get_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_get_rep_clear(self);
    return in.status;
}

int
proto_session_get_rep_decode(proto_session_get_rep_t *self,
                             const void *data,
                             size_t size,
                             bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_get_rep_read(self, map, err);
}

char *
proto_session_get_rep_print(const proto_session_get_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_get_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.rename request

static bool
s_rename_req_check(const proto_session_rename_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "session_id", self->session_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "name", self->name, PROTO_REQUIRED, 64))
        return false;
    return true;
}

static void
s_rename_req_write(const proto_session_rename_req_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 2);
    proto_write_str(writer, "session_id", self->session_id);
    proto_write_str(writer, "name", self->name);
}

static void
s_rename_req_read(proto_session_rename_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "session_id", PROTO_REQUIRED, 64, &self->session_id);
    proto_read_str(in, "name", PROTO_REQUIRED, 64, &self->name);
}

static void
s_rename_req_print(const proto_session_rename_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "session_id", self->session_id);
    proto_print_str(text, "name", self->name);
}

void
proto_session_rename_req_init(proto_session_rename_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_session_rename_req_clear(proto_session_rename_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_session_rename_req_check(const proto_session_rename_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.rename request", err);
    return s_rename_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_rename_req_write(const proto_session_rename_req_t *self,
                               bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_rename_req_check(self, NULL) != BUS_OK)
        return -1;
    s_rename_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_session_rename_req_writer(const proto_session_rename_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_session_rename_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "session.rename request: out of memory");
        return NULL;
    }
    s_rename_req_write(self, writer);
    return writer;
}

zframe_t *
proto_session_rename_req_encode(const proto_session_rename_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_rename_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_rename_req_read(proto_session_rename_req_t *self,
                              const bus_value_t *map,
                              bus_error_t *err)
{
    proto_in_t in;
    proto_session_rename_req_init(self);
    proto_in_init(&in, "session.rename request", map, &self->owned_, err);
    s_rename_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_rename_req_clear(self);
    return in.status;
}

int
proto_session_rename_req_decode(proto_session_rename_req_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_rename_req_read(self, map, err);
}

char *
proto_session_rename_req_print(const proto_session_rename_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_rename_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.rename reply

static bool
s_rename_rep_check(const proto_session_rename_rep_t *self, proto_check_t *ck)
{
    proto_check_t sub;
    proto_check_enter(ck, &sub, "session", PROTO_NO_INDEX);
    if (!s_info_check(&self->session, &sub))
        return false;
    return true;
}

static void
s_rename_rep_write(const proto_session_rename_rep_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    bus_writer_str(writer, "session");
    s_info_write(&self->session, writer);
}

static void
s_rename_rep_read(proto_session_rename_rep_t *self, proto_in_t *in)
{
    proto_in_t sub;
    if (proto_read_nested(in, "session", PROTO_REQUIRED, &sub))
        s_info_read(&self->session, &sub);
}

static void
s_rename_rep_print(const proto_session_rename_rep_t *self, proto_text_t *text)
{
    size_t mark;
    mark = proto_text_enter(text, "session");
    s_info_print(&self->session, text);
    proto_text_leave(text, mark);
}

void
proto_session_rename_rep_init(proto_session_rename_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_session_rename_rep_clear(proto_session_rename_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    proto_session_info_clear(&self->session);
    memset(self, 0, sizeof *self);
}

int
proto_session_rename_rep_check(const proto_session_rename_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.rename reply", err);
    return s_rename_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_rename_rep_write(const proto_session_rename_rep_t *self,
                               bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_rename_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_rename_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_session_rename_rep_encode(const proto_session_rename_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_rename_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_rename_rep_read(proto_session_rename_rep_t *self,
                              const bus_value_t *map,
                              bus_error_t *err)
{
    proto_in_t in;
    proto_session_rename_rep_init(self);
    proto_in_init(&in, "session.rename reply", map, &self->owned_, err);
    s_rename_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_rename_rep_clear(self);
    return in.status;
}

int
proto_session_rename_rep_decode(proto_session_rename_rep_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_rename_rep_read(self, map, err);
}

char *
proto_session_rename_rep_print(const proto_session_rename_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_rename_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.restart request

static bool
s_restart_req_check(const proto_session_restart_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "session_id", self->session_id, PROTO_REQUIRED, 64))
        return false;
    return true;
}

static void
s_restart_req_write(const proto_session_restart_req_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    proto_write_str(writer, "session_id", self->session_id);
}

static void
s_restart_req_read(proto_session_restart_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "session_id", PROTO_REQUIRED, 64, &self->session_id);
}

static void
s_restart_req_print(const proto_session_restart_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "session_id", self->session_id);
}

void
proto_session_restart_req_init(proto_session_restart_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_session_restart_req_clear(proto_session_restart_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_session_restart_req_check(const proto_session_restart_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.restart request", err);
    return s_restart_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_restart_req_write(const proto_session_restart_req_t *self,
                                bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_restart_req_check(self, NULL) != BUS_OK)
        return -1;
    s_restart_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_session_restart_req_writer(const proto_session_restart_req_t *self,
                                 bus_error_t *err)
{
    assert(self);
    if (proto_session_restart_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "session.restart request: out of memory");
        return NULL;
    }
    s_restart_req_write(self, writer);
    return writer;
}

zframe_t *
proto_session_restart_req_encode(const proto_session_restart_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_restart_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_restart_req_read(proto_session_restart_req_t *self,
                               const bus_value_t *map,
                               bus_error_t *err)
{
    proto_in_t in;
    proto_session_restart_req_init(self);
    proto_in_init(&in, "session.restart request", map, &self->owned_, err);
    s_restart_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_restart_req_clear(self);
    return in.status;
}

int
proto_session_restart_req_decode(proto_session_restart_req_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_restart_req_read(self, map, err);
}

char *
proto_session_restart_req_print(const proto_session_restart_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_restart_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.restart reply

static bool
s_restart_rep_check(const proto_session_restart_rep_t *self, proto_check_t *ck)
{
    proto_check_t sub;
    proto_check_enter(ck, &sub, "session", PROTO_NO_INDEX);
    if (!s_info_check(&self->session, &sub))
        return false;
    return true;
}

static void
s_restart_rep_write(const proto_session_restart_rep_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    bus_writer_str(writer, "session");
    s_info_write(&self->session, writer);
}

static void
s_restart_rep_read(proto_session_restart_rep_t *self, proto_in_t *in)
{
    proto_in_t sub;
    if (proto_read_nested(in, "session", PROTO_REQUIRED, &sub))
        s_info_read(&self->session, &sub);
}

static void
s_restart_rep_print(const proto_session_restart_rep_t *self, proto_text_t *text)
{
    size_t mark;
    mark = proto_text_enter(text, "session");
    s_info_print(&self->session, text);
    proto_text_leave(text, mark);
}

void
proto_session_restart_rep_init(proto_session_restart_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_session_restart_rep_clear(proto_session_restart_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    proto_session_info_clear(&self->session);
    memset(self, 0, sizeof *self);
}

int
proto_session_restart_rep_check(const proto_session_restart_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.restart reply", err);
    return s_restart_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_restart_rep_write(const proto_session_restart_rep_t *self,
                                bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_restart_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_restart_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_session_restart_rep_encode(const proto_session_restart_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_restart_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_restart_rep_read(proto_session_restart_rep_t *self,
                               const bus_value_t *map,
                               bus_error_t *err)
{
    proto_in_t in;
    proto_session_restart_rep_init(self);
    proto_in_init(&in, "session.restart reply", map, &self->owned_, err);
    s_restart_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_restart_rep_clear(self);
    return in.status;
}

int
proto_session_restart_rep_decode(proto_session_restart_rep_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_restart_rep_read(self, map, err);
}

char *
proto_session_restart_rep_print(const proto_session_restart_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_restart_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.list request

static bool
s_list_req_check(const proto_session_list_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "access_key", self->access_key, 0, 64))
        return false;
    if (!proto_check_str(ck, "domain_name", self->domain_name, 0, 64))
        return false;
    if (!proto_check_str(ck, "group_id", self->group_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "statuses", self->statuses, 0, 512))
        return false;
    if (!proto_check_uint(ck, "limit", self->limit, 10000))
        return false;
    if (!proto_check_str(ck, "mounted_folder", self->mounted_folder, 0, 64))
        return false;
    if (!proto_check_str(ck, "where", self->where, 0, 65536))
        return false;
    if (!proto_check_str(ck, "order", self->order, 0, 1024))
        return false;
    if (!proto_check_str(ck, "after_id", self->after_id, 0, 64))
        return false;
    return true;
}

static void
s_list_req_write(const proto_session_list_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 3;
    pairs += self->access_key != NULL;
    pairs += self->domain_name != NULL;
    pairs += self->group_id != NULL;
    pairs += self->statuses != NULL;
    pairs += self->mounted_folder != NULL;
    pairs += self->where != NULL;
    pairs += self->order != NULL;
    pairs += self->after_id != NULL;
    bus_writer_map(writer, pairs);
    if (self->access_key != NULL)
        proto_write_str(writer, "access_key", self->access_key);
    if (self->domain_name != NULL)
        proto_write_str(writer, "domain_name", self->domain_name);
    if (self->group_id != NULL)
        proto_write_str(writer, "group_id", self->group_id);
    if (self->statuses != NULL)
        proto_write_str(writer, "statuses", self->statuses);
    proto_write_uint(writer, "limit", self->limit);
    proto_write_uint(writer, "offset", self->offset);
    if (self->mounted_folder != NULL)
        proto_write_str(writer, "mounted_folder", self->mounted_folder);
    if (self->where != NULL)
        proto_write_str(writer, "where", self->where);
    if (self->order != NULL)
        proto_write_str(writer, "order", self->order);
    proto_write_int(writer, "after_created_at", self->after_created_at);
    if (self->after_id != NULL)
        proto_write_str(writer, "after_id", self->after_id);
}

static void
s_list_req_read(proto_session_list_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "access_key", 0, 64, &self->access_key);
    proto_read_str(in, "domain_name", 0, 64, &self->domain_name);
    proto_read_str(in, "group_id", 0, 64, &self->group_id);
    proto_read_str(in, "statuses", 0, 512, &self->statuses);
    proto_read_uint(in, "limit", 0, 10000, &self->limit);
    proto_read_uint(in, "offset", 0, UINT64_MAX, &self->offset);
    proto_read_str(in, "mounted_folder", 0, 64, &self->mounted_folder);
    proto_read_str(in, "where", 0, 65536, &self->where);
    proto_read_str(in, "order", 0, 1024, &self->order);
    proto_read_int(in, "after_created_at", 0, INT64_MIN, INT64_MAX,
                   &self->after_created_at);
    proto_read_str(in, "after_id", 0, 64, &self->after_id);
}

static void
s_list_req_print(const proto_session_list_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "access_key", self->access_key);
    proto_print_str(text, "domain_name", self->domain_name);
    proto_print_str(text, "group_id", self->group_id);
    proto_print_str(text, "statuses", self->statuses);
    proto_print_uint(text, "limit", self->limit);
    proto_print_uint(text, "offset", self->offset);
    proto_print_str(text, "mounted_folder", self->mounted_folder);
    proto_print_str(text, "where", self->where);
    proto_print_str(text, "order", self->order);
    proto_print_int(text, "after_created_at", self->after_created_at);
    proto_print_str(text, "after_id", self->after_id);
}

void
proto_session_list_req_init(proto_session_list_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->limit = 100;
}

void
proto_session_list_req_clear(proto_session_list_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_session_list_req_check(const proto_session_list_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.list request", err);
    return s_list_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_list_req_write(const proto_session_list_req_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_list_req_check(self, NULL) != BUS_OK)
        return -1;
    s_list_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_session_list_req_writer(const proto_session_list_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_session_list_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "session.list request: out of memory");
        return NULL;
    }
    s_list_req_write(self, writer);
    return writer;
}

zframe_t *
proto_session_list_req_encode(const proto_session_list_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_list_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_list_req_read(proto_session_list_req_t *self,
                            const bus_value_t *map,
                            bus_error_t *err)
{
    proto_in_t in;
    proto_session_list_req_init(self);
    proto_in_init(&in, "session.list request", map, &self->owned_, err);
    s_list_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_list_req_clear(self);
    return in.status;
}

int
proto_session_list_req_decode(proto_session_list_req_t *self,
                              const void *data,
                              size_t size,
                              bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_list_req_read(self, map, err);
}

char *
proto_session_list_req_print(const proto_session_list_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_list_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  session.list reply

static bool
s_list_rep_check(const proto_session_list_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_count(ck, "sessions", self->sessions, self->sessions_count, 10000))
        return false;
    for (size_t i = 0; i < self->sessions_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "sessions", i);
        if (!s_info_check(&self->sessions[i], &item))
            return false;
    }
    return true;
}

static void
s_list_rep_write(const proto_session_list_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->sessions_count > 0;
    bus_writer_map(writer, pairs);
    if (self->sessions_count > 0) {
        proto_write_array(writer, "sessions", self->sessions_count);
        for (size_t i = 0; i < self->sessions_count; i++)
            s_info_write(&self->sessions[i], writer);
    }
    proto_write_uint(writer, "total_count", self->total_count);
}

static void
s_list_rep_read(proto_session_list_rep_t *self, proto_in_t *in)
{
    self->sessions = proto_read_list(in, "sessions", 0, 10000, sizeof *self->sessions,
                                     s_info_item, &self->sessions_count);
    proto_read_uint(in, "total_count", 0, UINT64_MAX, &self->total_count);
}

static void
s_list_rep_print(const proto_session_list_rep_t *self, proto_text_t *text)
{
    proto_print_count(text, "sessions", self->sessions_count);
    proto_print_uint(text, "total_count", self->total_count);
}

void
proto_session_list_rep_init(proto_session_list_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_session_list_rep_clear(proto_session_list_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_session_list_rep_check(const proto_session_list_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "session.list reply", err);
    return s_list_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_session_list_rep_write(const proto_session_list_rep_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_session_list_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_list_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_session_list_rep_encode(const proto_session_list_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_session_list_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_session_list_rep_read(proto_session_list_rep_t *self,
                            const bus_value_t *map,
                            bus_error_t *err)
{
    proto_in_t in;
    proto_session_list_rep_init(self);
    proto_in_init(&in, "session.list reply", map, &self->owned_, err);
    s_list_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_session_list_rep_clear(self);
    return in.status;
}

int
proto_session_list_rep_decode(proto_session_list_rep_t *self,
                              const void *data,
                              size_t size,
                              bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_session_list_rep_read(self, map, err);
}

char *
proto_session_list_rep_print(const proto_session_list_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_list_rep_print(self, &text);
    return proto_text_finish(&text);
}
