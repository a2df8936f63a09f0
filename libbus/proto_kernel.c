//  GENERATED FROM proto/kernel.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_kernel - codecs of the kernel domain

    For each struct: file-static check, write, read and print helpers that
    nested values reuse, then the public functions of proto_kernel.h built on
    them. Reading and printing go through the shared runtime in proto.c.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

//  ---------------------------------------------------------------------------
//  kernel.port

static bool
s_port_check(const proto_kernel_port_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "name", self->name, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "protocol", self->protocol, 0, 16))
        return false;
    if (!proto_check_uint(ck, "container_port", self->container_port, 65535))
        return false;
    return true;
}

static void
s_port_write(const proto_kernel_port_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->protocol != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "name", self->name);
    if (self->protocol != NULL)
        proto_write_str(writer, "protocol", self->protocol);
    proto_write_uint(writer, "container_port", self->container_port);
}

static void
s_port_read(proto_kernel_port_t *self, proto_in_t *in)
{
    proto_read_str(in, "name", PROTO_REQUIRED, 64, &self->name);
    proto_read_str(in, "protocol", 0, 16, &self->protocol);
    proto_read_uint(in, "container_port", 0, 65535, &self->container_port);
}

static void
s_port_print(const proto_kernel_port_t *self, proto_text_t *text)
{
    proto_print_str(text, "name", self->name);
    proto_print_str(text, "protocol", self->protocol);
    proto_print_uint(text, "container_port", self->container_port);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_port_item(void *item, proto_in_t *in)
{
    proto_kernel_port_init(item);
    s_port_read(item, in);
}

void
proto_kernel_port_init(proto_kernel_port_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_port_clear(proto_kernel_port_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_port_check(const proto_kernel_port_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.port", err);
    return s_port_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_port_write(const proto_kernel_port_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_port_check(self, NULL) != BUS_OK)
        return -1;
    s_port_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_port_encode(const proto_kernel_port_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_port_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_port_read(proto_kernel_port_t *self,
                       const bus_value_t *map,
                       bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_port_init(self);
    proto_in_init(&in, "kernel.port", map, &self->owned_, err);
    s_port_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_port_clear(self);
    return in.status;
}

int
proto_kernel_port_decode(proto_kernel_port_t *self,
                         const void *data,
                         size_t size,
                         bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_port_read(self, map, err);
}

char *
proto_kernel_port_print(const proto_kernel_port_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_port_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.state

static bool
s_state_check(const proto_kernel_state_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "session_id", self->session_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "status", self->status, PROTO_REQUIRED, 16))
        return false;
    return true;
}

static void
s_state_write(const proto_kernel_state_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 3;
    pairs += self->session_id != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    if (self->session_id != NULL)
        proto_write_str(writer, "session_id", self->session_id);
    proto_write_str(writer, "status", self->status);
    proto_write_int(writer, "exit_code", self->exit_code);
}

static void
s_state_read(proto_kernel_state_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "session_id", 0, 64, &self->session_id);
    proto_read_str(in, "status", PROTO_REQUIRED, 16, &self->status);
    proto_read_int(in, "exit_code", 0, INT64_MIN, INT64_MAX, &self->exit_code);
}

static void
s_state_print(const proto_kernel_state_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "session_id", self->session_id);
    proto_print_str(text, "status", self->status);
    proto_print_int(text, "exit_code", self->exit_code);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_state_item(void *item, proto_in_t *in)
{
    proto_kernel_state_init(item);
    s_state_read(item, in);
}

void
proto_kernel_state_init(proto_kernel_state_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_state_clear(proto_kernel_state_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_state_check(const proto_kernel_state_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.state", err);
    return s_state_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_state_write(const proto_kernel_state_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_state_check(self, NULL) != BUS_OK)
        return -1;
    s_state_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_state_encode(const proto_kernel_state_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_state_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_state_read(proto_kernel_state_t *self,
                        const bus_value_t *map,
                        bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_state_init(self);
    proto_in_init(&in, "kernel.state", map, &self->owned_, err);
    s_state_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_state_clear(self);
    return in.status;
}

int
proto_kernel_state_decode(proto_kernel_state_t *self,
                          const void *data,
                          size_t size,
                          bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_state_read(self, map, err);
}

char *
proto_kernel_state_print(const proto_kernel_state_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_state_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.mount

static bool
s_mount_check(const proto_kernel_mount_t *self, proto_check_t *ck)
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
s_mount_write(const proto_kernel_mount_t *self, bus_writer_t *writer)
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
s_mount_read(proto_kernel_mount_t *self, proto_in_t *in)
{
    proto_read_str(in, "name", PROTO_REQUIRED, 64, &self->name);
    proto_read_str(in, "id", 0, 64, &self->id);
    proto_read_str(in, "host", 0, 256, &self->host);
    proto_read_str(in, "host_path", PROTO_REQUIRED, 4096, &self->host_path);
    proto_read_str(in, "kernel_path", PROTO_REQUIRED, 4096, &self->kernel_path);
    proto_read_str(in, "permission", PROTO_REQUIRED, 8, &self->permission);
}

static void
s_mount_print(const proto_kernel_mount_t *self, proto_text_t *text)
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
    proto_kernel_mount_init(item);
    s_mount_read(item, in);
}

void
proto_kernel_mount_init(proto_kernel_mount_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_mount_clear(proto_kernel_mount_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_mount_check(const proto_kernel_mount_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.mount", err);
    return s_mount_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_mount_write(const proto_kernel_mount_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_mount_check(self, NULL) != BUS_OK)
        return -1;
    s_mount_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_mount_encode(const proto_kernel_mount_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_mount_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_mount_read(proto_kernel_mount_t *self,
                        const bus_value_t *map,
                        bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_mount_init(self);
    proto_in_init(&in, "kernel.mount", map, &self->owned_, err);
    s_mount_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_mount_clear(self);
    return in.status;
}

int
proto_kernel_mount_decode(proto_kernel_mount_t *self,
                          const void *data,
                          size_t size,
                          bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_mount_read(self, map, err);
}

char *
proto_kernel_mount_print(const proto_kernel_mount_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_mount_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.dotfile

static bool
s_dotfile_check(const proto_kernel_dotfile_t *self, proto_check_t *ck)
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
s_dotfile_write(const proto_kernel_dotfile_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 3);
    proto_write_str(writer, "path", self->path);
    proto_write_str(writer, "permission", self->permission);
    proto_write_str(writer, "data", self->data);
}

static void
s_dotfile_read(proto_kernel_dotfile_t *self, proto_in_t *in)
{
    proto_read_str(in, "path", PROTO_REQUIRED, 1024, &self->path);
    proto_read_str(in, "permission", PROTO_REQUIRED, 3, &self->permission);
    proto_read_str(in, "data", PROTO_REQUIRED, 65536, &self->data);
}

static void
s_dotfile_print(const proto_kernel_dotfile_t *self, proto_text_t *text)
{
    proto_print_str(text, "path", self->path);
    proto_print_str(text, "permission", self->permission);
    proto_print_str(text, "data", self->data);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_dotfile_item(void *item, proto_in_t *in)
{
    proto_kernel_dotfile_init(item);
    s_dotfile_read(item, in);
}

void
proto_kernel_dotfile_init(proto_kernel_dotfile_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_dotfile_clear(proto_kernel_dotfile_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_dotfile_check(const proto_kernel_dotfile_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.dotfile", err);
    return s_dotfile_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_dotfile_write(const proto_kernel_dotfile_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_dotfile_check(self, NULL) != BUS_OK)
        return -1;
    s_dotfile_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_dotfile_encode(const proto_kernel_dotfile_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_dotfile_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_dotfile_read(proto_kernel_dotfile_t *self,
                          const bus_value_t *map,
                          bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_dotfile_init(self);
    proto_in_init(&in, "kernel.dotfile", map, &self->owned_, err);
    s_dotfile_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_dotfile_clear(self);
    return in.status;
}

int
proto_kernel_dotfile_decode(proto_kernel_dotfile_t *self,
                            const void *data,
                            size_t size,
                            bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_dotfile_read(self, map, err);
}

char *
proto_kernel_dotfile_print(const proto_kernel_dotfile_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_dotfile_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.file

static bool
s_file_check(const proto_kernel_file_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "path", self->path, PROTO_REQUIRED, 4096))
        return false;
    if (!proto_check_bytes(ck, "data", self->data, self->data_size, 0, 16777216))
        return false;
    return true;
}

static void
s_file_write(const proto_kernel_file_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->data != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "path", self->path);
    if (self->data != NULL)
        proto_write_bytes(writer, "data", self->data, self->data_size);
}

static void
s_file_read(proto_kernel_file_t *self, proto_in_t *in)
{
    proto_read_str(in, "path", PROTO_REQUIRED, 4096, &self->path);
    proto_read_bytes(in, "data", 0, 16777216, &self->data, &self->data_size);
}

static void
s_file_print(const proto_kernel_file_t *self, proto_text_t *text)
{
    proto_print_str(text, "path", self->path);
    proto_print_bytes(text, "data", self->data, self->data_size);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_file_item(void *item, proto_in_t *in)
{
    proto_kernel_file_init(item);
    s_file_read(item, in);
}

void
proto_kernel_file_init(proto_kernel_file_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_file_clear(proto_kernel_file_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_file_check(const proto_kernel_file_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.file", err);
    return s_file_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_file_write(const proto_kernel_file_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_file_check(self, NULL) != BUS_OK)
        return -1;
    s_file_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_file_encode(const proto_kernel_file_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_file_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_file_read(proto_kernel_file_t *self,
                       const bus_value_t *map,
                       bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_file_init(self);
    proto_in_init(&in, "kernel.file", map, &self->owned_, err);
    s_file_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_file_clear(self);
    return in.status;
}

int
proto_kernel_file_decode(proto_kernel_file_t *self,
                         const void *data,
                         size_t size,
                         bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_file_read(self, map, err);
}

char *
proto_kernel_file_print(const proto_kernel_file_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_file_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.started

static bool
s_started_check(const proto_kernel_started_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "session_id", self->session_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "agent_id", self->agent_id, PROTO_REQUIRED, 128))
        return false;
    if (!proto_check_str(ck, "container_id", self->container_id, 0, 128))
        return false;
    if (!proto_check_str(ck, "kernel_host", self->kernel_host, 0, 64))
        return false;
    return true;
}

static void
s_started_write(const proto_kernel_started_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 4;
    pairs += self->container_id != NULL;
    pairs += self->kernel_host != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    proto_write_str(writer, "session_id", self->session_id);
    proto_write_str(writer, "agent_id", self->agent_id);
    if (self->container_id != NULL)
        proto_write_str(writer, "container_id", self->container_id);
    if (self->kernel_host != NULL)
        proto_write_str(writer, "kernel_host", self->kernel_host);
    proto_write_int(writer, "at", self->at);
}

static void
s_started_read(proto_kernel_started_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "session_id", PROTO_REQUIRED, 64, &self->session_id);
    proto_read_str(in, "agent_id", PROTO_REQUIRED, 128, &self->agent_id);
    proto_read_str(in, "container_id", 0, 128, &self->container_id);
    proto_read_str(in, "kernel_host", 0, 64, &self->kernel_host);
    proto_read_int(in, "at", 0, INT64_MIN, INT64_MAX, &self->at);
}

static void
s_started_print(const proto_kernel_started_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "session_id", self->session_id);
    proto_print_str(text, "agent_id", self->agent_id);
    proto_print_str(text, "container_id", self->container_id);
    proto_print_str(text, "kernel_host", self->kernel_host);
    proto_print_int(text, "at", self->at);
}

void
proto_kernel_started_init(proto_kernel_started_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_started_clear(proto_kernel_started_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_started_check(const proto_kernel_started_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.started", err);
    return s_started_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_started_write(const proto_kernel_started_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_started_check(self, NULL) != BUS_OK)
        return -1;
    s_started_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_started_encode(const proto_kernel_started_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_started_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_started_read(proto_kernel_started_t *self,
                          const bus_value_t *map,
                          bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_started_init(self);
    proto_in_init(&in, "kernel.started", map, &self->owned_, err);
    s_started_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_started_clear(self);
    return in.status;
}

int
proto_kernel_started_decode(proto_kernel_started_t *self,
                            const void *data,
                            size_t size,
                            bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_started_read(self, map, err);
}

char *
proto_kernel_started_print(const proto_kernel_started_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_started_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.terminated

static bool
s_terminated_check(const proto_kernel_terminated_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "session_id", self->session_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "agent_id", self->agent_id, PROTO_REQUIRED, 128))
        return false;
    if (!proto_check_str(ck, "reason", self->reason, 0, 64))
        return false;
    if (!proto_check_str(ck, "detail", self->detail, 0, 4096))
        return false;
    return true;
}

static void
s_terminated_write(const proto_kernel_terminated_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 13;
    pairs += self->reason != NULL;
    pairs += self->detail != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    proto_write_str(writer, "session_id", self->session_id);
    proto_write_str(writer, "agent_id", self->agent_id);
    proto_write_int(writer, "exit_code", self->exit_code);
    if (self->reason != NULL)
        proto_write_str(writer, "reason", self->reason);
    if (self->detail != NULL)
        proto_write_str(writer, "detail", self->detail);
    proto_write_bool(writer, "oom_killed", self->oom_killed);
    proto_write_int(writer, "at", self->at);
    proto_write_bool(writer, "has_stats", self->has_stats);
    proto_write_uint(writer, "cpu_used_ns", self->cpu_used_ns);
    proto_write_uint(writer, "mem_peak_bytes", self->mem_peak_bytes);
    proto_write_uint(writer, "io_read_bytes", self->io_read_bytes);
    proto_write_uint(writer, "io_write_bytes", self->io_write_bytes);
    proto_write_uint(writer, "net_rx_bytes", self->net_rx_bytes);
    proto_write_uint(writer, "net_tx_bytes", self->net_tx_bytes);
}

static void
s_terminated_read(proto_kernel_terminated_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "session_id", PROTO_REQUIRED, 64, &self->session_id);
    proto_read_str(in, "agent_id", PROTO_REQUIRED, 128, &self->agent_id);
    proto_read_int(in, "exit_code", 0, INT64_MIN, INT64_MAX, &self->exit_code);
    proto_read_str(in, "reason", 0, 64, &self->reason);
    proto_read_str(in, "detail", 0, 4096, &self->detail);
    proto_read_bool(in, "oom_killed", 0, &self->oom_killed);
    proto_read_int(in, "at", 0, INT64_MIN, INT64_MAX, &self->at);
    proto_read_bool(in, "has_stats", 0, &self->has_stats);
    proto_read_uint(in, "cpu_used_ns", 0, UINT64_MAX, &self->cpu_used_ns);
    proto_read_uint(in, "mem_peak_bytes", 0, UINT64_MAX, &self->mem_peak_bytes);
    proto_read_uint(in, "io_read_bytes", 0, UINT64_MAX, &self->io_read_bytes);
    proto_read_uint(in, "io_write_bytes", 0, UINT64_MAX, &self->io_write_bytes);
    proto_read_uint(in, "net_rx_bytes", 0, UINT64_MAX, &self->net_rx_bytes);
    proto_read_uint(in, "net_tx_bytes", 0, UINT64_MAX, &self->net_tx_bytes);
}

static void
s_terminated_print(const proto_kernel_terminated_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "session_id", self->session_id);
    proto_print_str(text, "agent_id", self->agent_id);
    proto_print_int(text, "exit_code", self->exit_code);
    proto_print_str(text, "reason", self->reason);
    proto_print_str(text, "detail", self->detail);
    proto_print_bool(text, "oom_killed", self->oom_killed);
    proto_print_int(text, "at", self->at);
    proto_print_bool(text, "has_stats", self->has_stats);
    proto_print_uint(text, "cpu_used_ns", self->cpu_used_ns);
    proto_print_uint(text, "mem_peak_bytes", self->mem_peak_bytes);
    proto_print_uint(text, "io_read_bytes", self->io_read_bytes);
    proto_print_uint(text, "io_write_bytes", self->io_write_bytes);
    proto_print_uint(text, "net_rx_bytes", self->net_rx_bytes);
    proto_print_uint(text, "net_tx_bytes", self->net_tx_bytes);
}

void
proto_kernel_terminated_init(proto_kernel_terminated_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_terminated_clear(proto_kernel_terminated_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_terminated_check(const proto_kernel_terminated_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.terminated", err);
    return s_terminated_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_terminated_write(const proto_kernel_terminated_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_terminated_check(self, NULL) != BUS_OK)
        return -1;
    s_terminated_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_terminated_encode(const proto_kernel_terminated_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_terminated_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_terminated_read(proto_kernel_terminated_t *self,
                             const bus_value_t *map,
                             bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_terminated_init(self);
    proto_in_init(&in, "kernel.terminated", map, &self->owned_, err);
    s_terminated_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_terminated_clear(self);
    return in.status;
}

int
proto_kernel_terminated_decode(proto_kernel_terminated_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_terminated_read(self, map, err);
}

char *
proto_kernel_terminated_print(const proto_kernel_terminated_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_terminated_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.app_started

static bool
s_app_started_check(const proto_kernel_app_started_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "session_id", self->session_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "app", self->app, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "status", self->status, PROTO_REQUIRED, 16))
        return false;
    if (!proto_check_str(ck, "host", self->host, 0, 64))
        return false;
    if (!proto_check_uint(ck, "port", self->port, 65535))
        return false;
    return true;
}

static void
s_app_started_write(const proto_kernel_app_started_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 4;
    pairs += self->session_id != NULL;
    pairs += self->host != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    if (self->session_id != NULL)
        proto_write_str(writer, "session_id", self->session_id);
    proto_write_str(writer, "app", self->app);
    proto_write_str(writer, "status", self->status);
    if (self->host != NULL)
        proto_write_str(writer, "host", self->host);
    proto_write_uint(writer, "port", self->port);
}

static void
s_app_started_read(proto_kernel_app_started_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "session_id", 0, 64, &self->session_id);
    proto_read_str(in, "app", PROTO_REQUIRED, 64, &self->app);
    proto_read_str(in, "status", PROTO_REQUIRED, 16, &self->status);
    proto_read_str(in, "host", 0, 64, &self->host);
    proto_read_uint(in, "port", 0, 65535, &self->port);
}

static void
s_app_started_print(const proto_kernel_app_started_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "session_id", self->session_id);
    proto_print_str(text, "app", self->app);
    proto_print_str(text, "status", self->status);
    proto_print_str(text, "host", self->host);
    proto_print_uint(text, "port", self->port);
}

void
proto_kernel_app_started_init(proto_kernel_app_started_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_app_started_clear(proto_kernel_app_started_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_app_started_check(const proto_kernel_app_started_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.app_started", err);
    return s_app_started_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_app_started_write(const proto_kernel_app_started_t *self,
                               bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_app_started_check(self, NULL) != BUS_OK)
        return -1;
    s_app_started_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_app_started_encode(const proto_kernel_app_started_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_app_started_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_app_started_read(proto_kernel_app_started_t *self,
                              const bus_value_t *map,
                              bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_app_started_init(self);
    proto_in_init(&in, "kernel.app_started", map, &self->owned_, err);
    s_app_started_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_app_started_clear(self);
    return in.status;
}

int
proto_kernel_app_started_decode(proto_kernel_app_started_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_app_started_read(self, map, err);
}

char *
proto_kernel_app_started_print(const proto_kernel_app_started_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_app_started_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.app_failed

static bool
s_app_failed_check(const proto_kernel_app_failed_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "session_id", self->session_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "app", self->app, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "detail", self->detail, 0, 4096))
        return false;
    return true;
}

static void
s_app_failed_write(const proto_kernel_app_failed_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->session_id != NULL;
    pairs += self->detail != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    if (self->session_id != NULL)
        proto_write_str(writer, "session_id", self->session_id);
    proto_write_str(writer, "app", self->app);
    if (self->detail != NULL)
        proto_write_str(writer, "detail", self->detail);
}

static void
s_app_failed_read(proto_kernel_app_failed_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "session_id", 0, 64, &self->session_id);
    proto_read_str(in, "app", PROTO_REQUIRED, 64, &self->app);
    proto_read_str(in, "detail", 0, 4096, &self->detail);
}

static void
s_app_failed_print(const proto_kernel_app_failed_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "session_id", self->session_id);
    proto_print_str(text, "app", self->app);
    proto_print_str(text, "detail", self->detail);
}

void
proto_kernel_app_failed_init(proto_kernel_app_failed_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_app_failed_clear(proto_kernel_app_failed_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_app_failed_check(const proto_kernel_app_failed_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.app_failed", err);
    return s_app_failed_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_app_failed_write(const proto_kernel_app_failed_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_app_failed_check(self, NULL) != BUS_OK)
        return -1;
    s_app_failed_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_app_failed_encode(const proto_kernel_app_failed_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_app_failed_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_app_failed_read(proto_kernel_app_failed_t *self,
                             const bus_value_t *map,
                             bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_app_failed_init(self);
    proto_in_init(&in, "kernel.app_failed", map, &self->owned_, err);
    s_app_failed_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_app_failed_clear(self);
    return in.status;
}

int
proto_kernel_app_failed_decode(proto_kernel_app_failed_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_app_failed_read(self, map, err);
}

char *
proto_kernel_app_failed_print(const proto_kernel_app_failed_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_app_failed_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.model_status

static bool
s_model_status_check(const proto_kernel_model_status_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "session_id", self->session_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "model", self->model, 0, 256))
        return false;
    if (!proto_check_str(ck, "detail", self->detail, 0, 1024))
        return false;
    return true;
}

static void
s_model_status_write(const proto_kernel_model_status_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->session_id != NULL;
    pairs += self->model != NULL;
    pairs += self->detail != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    if (self->session_id != NULL)
        proto_write_str(writer, "session_id", self->session_id);
    if (self->model != NULL)
        proto_write_str(writer, "model", self->model);
    proto_write_bool(writer, "healthy", self->healthy);
    if (self->detail != NULL)
        proto_write_str(writer, "detail", self->detail);
}

static void
s_model_status_read(proto_kernel_model_status_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "session_id", 0, 64, &self->session_id);
    proto_read_str(in, "model", 0, 256, &self->model);
    proto_read_bool(in, "healthy", 0, &self->healthy);
    proto_read_str(in, "detail", 0, 1024, &self->detail);
}

static void
s_model_status_print(const proto_kernel_model_status_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "session_id", self->session_id);
    proto_print_str(text, "model", self->model);
    proto_print_bool(text, "healthy", self->healthy);
    proto_print_str(text, "detail", self->detail);
}

void
proto_kernel_model_status_init(proto_kernel_model_status_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_model_status_clear(proto_kernel_model_status_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_model_status_check(const proto_kernel_model_status_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.model_status", err);
    return s_model_status_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_model_status_write(const proto_kernel_model_status_t *self,
                                bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_model_status_check(self, NULL) != BUS_OK)
        return -1;
    s_model_status_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_model_status_encode(const proto_kernel_model_status_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_model_status_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_model_status_read(proto_kernel_model_status_t *self,
                               const bus_value_t *map,
                               bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_model_status_init(self);
    proto_in_init(&in, "kernel.model_status", map, &self->owned_, err);
    s_model_status_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_model_status_clear(self);
    return in.status;
}

int
proto_kernel_model_status_decode(proto_kernel_model_status_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_model_status_read(self, map, err);
}

char *
proto_kernel_model_status_print(const proto_kernel_model_status_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_model_status_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.stats

static bool
s_stats_check(const proto_kernel_stats_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "agent_id", self->agent_id, 0, 128))
        return false;
    return true;
}

static void
s_stats_write(const proto_kernel_stats_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 14;
    pairs += self->agent_id != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    if (self->agent_id != NULL)
        proto_write_str(writer, "agent_id", self->agent_id);
    proto_write_uint(writer, "cpu_used_ns", self->cpu_used_ns);
    proto_write_uint(writer, "mem_bytes", self->mem_bytes);
    proto_write_uint(writer, "mem_peak_bytes", self->mem_peak_bytes);
    proto_write_uint(writer, "mem_limit_bytes", self->mem_limit_bytes);
    proto_write_uint(writer, "pids", self->pids);
    proto_write_uint(writer, "io_read_bytes", self->io_read_bytes);
    proto_write_uint(writer, "io_write_bytes", self->io_write_bytes);
    proto_write_uint(writer, "net_rx_bytes", self->net_rx_bytes);
    proto_write_uint(writer, "net_tx_bytes", self->net_tx_bytes);
    proto_write_uint(writer, "cuda_devices", self->cuda_devices);
    proto_write_uint(writer, "cuda_mem_bytes", self->cuda_mem_bytes);
    proto_write_uint(writer, "cuda_mem_total_bytes", self->cuda_mem_total_bytes);
    proto_write_uint(writer, "cuda_util_pct", self->cuda_util_pct);
}

static void
s_stats_read(proto_kernel_stats_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "agent_id", 0, 128, &self->agent_id);
    proto_read_uint(in, "cpu_used_ns", 0, UINT64_MAX, &self->cpu_used_ns);
    proto_read_uint(in, "mem_bytes", 0, UINT64_MAX, &self->mem_bytes);
    proto_read_uint(in, "mem_peak_bytes", 0, UINT64_MAX, &self->mem_peak_bytes);
    proto_read_uint(in, "mem_limit_bytes", 0, UINT64_MAX, &self->mem_limit_bytes);
    proto_read_uint(in, "pids", 0, UINT64_MAX, &self->pids);
    proto_read_uint(in, "io_read_bytes", 0, UINT64_MAX, &self->io_read_bytes);
    proto_read_uint(in, "io_write_bytes", 0, UINT64_MAX, &self->io_write_bytes);
    proto_read_uint(in, "net_rx_bytes", 0, UINT64_MAX, &self->net_rx_bytes);
    proto_read_uint(in, "net_tx_bytes", 0, UINT64_MAX, &self->net_tx_bytes);
    proto_read_uint(in, "cuda_devices", 0, UINT64_MAX, &self->cuda_devices);
    proto_read_uint(in, "cuda_mem_bytes", 0, UINT64_MAX, &self->cuda_mem_bytes);
    proto_read_uint(in, "cuda_mem_total_bytes", 0, UINT64_MAX,
                    &self->cuda_mem_total_bytes);
    proto_read_uint(in, "cuda_util_pct", 0, UINT64_MAX, &self->cuda_util_pct);
}

static void
s_stats_print(const proto_kernel_stats_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "agent_id", self->agent_id);
    proto_print_uint(text, "cpu_used_ns", self->cpu_used_ns);
    proto_print_uint(text, "mem_bytes", self->mem_bytes);
    proto_print_uint(text, "mem_peak_bytes", self->mem_peak_bytes);
    proto_print_uint(text, "mem_limit_bytes", self->mem_limit_bytes);
    proto_print_uint(text, "pids", self->pids);
    proto_print_uint(text, "io_read_bytes", self->io_read_bytes);
    proto_print_uint(text, "io_write_bytes", self->io_write_bytes);
    proto_print_uint(text, "net_rx_bytes", self->net_rx_bytes);
    proto_print_uint(text, "net_tx_bytes", self->net_tx_bytes);
    proto_print_uint(text, "cuda_devices", self->cuda_devices);
    proto_print_uint(text, "cuda_mem_bytes", self->cuda_mem_bytes);
    proto_print_uint(text, "cuda_mem_total_bytes", self->cuda_mem_total_bytes);
    proto_print_uint(text, "cuda_util_pct", self->cuda_util_pct);
}

void
proto_kernel_stats_init(proto_kernel_stats_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_stats_clear(proto_kernel_stats_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_stats_check(const proto_kernel_stats_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.stats", err);
    return s_stats_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_stats_write(const proto_kernel_stats_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_stats_check(self, NULL) != BUS_OK)
        return -1;
    s_stats_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_stats_encode(const proto_kernel_stats_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_stats_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_stats_read(proto_kernel_stats_t *self,
                        const bus_value_t *map,
                        bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_stats_init(self);
    proto_in_init(&in, "kernel.stats", map, &self->owned_, err);
    s_stats_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_stats_clear(self);
    return in.status;
}

int
proto_kernel_stats_decode(proto_kernel_stats_t *self,
                          const void *data,
                          size_t size,
                          bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_stats_read(self, map, err);
}

char *
proto_kernel_stats_print(const proto_kernel_stats_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_stats_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.create request

static bool
s_create_req_check(const proto_kernel_create_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "session_id", self->session_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "session_name", self->session_name, 0, 64))
        return false;
    if (!proto_check_str(ck, "agent_id", self->agent_id, 0, 128))
        return false;
    if (!proto_check_str(ck, "session_type", self->session_type, 0, 16))
        return false;
    if (!proto_check_str(ck, "cluster_role", self->cluster_role, 0, 16))
        return false;
    if (!proto_check_uint(ck, "cluster_size", self->cluster_size, 64))
        return false;
    if (!proto_check_str(ck, "cluster_mode", self->cluster_mode, 0, 16))
        return false;
    if (!proto_check_str(ck, "cluster_hosts", self->cluster_hosts, 0, 4096))
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
    if (!proto_check_str(ck, "access_key", self->access_key, 0, 64))
        return false;
    if (!proto_check_str(ck, "user_uuid", self->user_uuid, 0, 64))
        return false;
    if (!proto_check_str(ck, "domain_name", self->domain_name, 0, 64))
        return false;
    if (!proto_check_str(ck, "group_id", self->group_id, 0, 64))
        return false;
    if (!proto_check_str(ck, "bootstrap_script", self->bootstrap_script, 0, 65536))
        return false;
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
    return true;
}

static void
s_create_req_write(const proto_kernel_create_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 6;
    pairs += self->session_name != NULL;
    pairs += self->agent_id != NULL;
    pairs += self->session_type != NULL;
    pairs += self->cluster_role != NULL;
    pairs += self->cluster_mode != NULL;
    pairs += self->cluster_hosts != NULL;
    pairs += self->architecture != NULL;
    pairs += self->slots_count > 0;
    pairs += self->environ_count > 0;
    pairs += self->startup_command != NULL;
    pairs += self->access_key != NULL;
    pairs += self->user_uuid != NULL;
    pairs += self->domain_name != NULL;
    pairs += self->group_id != NULL;
    pairs += self->bootstrap_script != NULL;
    pairs += self->mounts_count > 0;
    pairs += self->dotfiles_count > 0;
    pairs += self->model_service != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    proto_write_str(writer, "session_id", self->session_id);
    if (self->session_name != NULL)
        proto_write_str(writer, "session_name", self->session_name);
    if (self->agent_id != NULL)
        proto_write_str(writer, "agent_id", self->agent_id);
    if (self->session_type != NULL)
        proto_write_str(writer, "session_type", self->session_type);
    if (self->cluster_role != NULL)
        proto_write_str(writer, "cluster_role", self->cluster_role);
    proto_write_uint(writer, "cluster_idx", self->cluster_idx);
    proto_write_uint(writer, "cluster_size", self->cluster_size);
    if (self->cluster_mode != NULL)
        proto_write_str(writer, "cluster_mode", self->cluster_mode);
    if (self->cluster_hosts != NULL)
        proto_write_str(writer, "cluster_hosts", self->cluster_hosts);
    proto_write_str(writer, "image", self->image);
    if (self->architecture != NULL)
        proto_write_str(writer, "architecture", self->architecture);
    if (self->slots_count > 0)
        proto_write_map(writer, "slots", self->slots, self->slots_count);
    proto_write_uint(writer, "shmem_bytes", self->shmem_bytes);
    if (self->environ_count > 0)
        proto_write_map(writer, "environ", self->environ, self->environ_count);
    if (self->startup_command != NULL)
        proto_write_str(writer, "startup_command", self->startup_command);
    if (self->access_key != NULL)
        proto_write_str(writer, "access_key", self->access_key);
    if (self->user_uuid != NULL)
        proto_write_str(writer, "user_uuid", self->user_uuid);
    if (self->domain_name != NULL)
        proto_write_str(writer, "domain_name", self->domain_name);
    if (self->group_id != NULL)
        proto_write_str(writer, "group_id", self->group_id);
    if (self->bootstrap_script != NULL)
        proto_write_str(writer, "bootstrap_script", self->bootstrap_script);
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
}

static void
s_create_req_read(proto_kernel_create_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "session_id", PROTO_REQUIRED, 64, &self->session_id);
    proto_read_str(in, "session_name", 0, 64, &self->session_name);
    proto_read_str(in, "agent_id", 0, 128, &self->agent_id);
    proto_read_str(in, "session_type", 0, 16, &self->session_type);
    proto_read_str(in, "cluster_role", 0, 16, &self->cluster_role);
    proto_read_uint(in, "cluster_idx", 0, UINT64_MAX, &self->cluster_idx);
    proto_read_uint(in, "cluster_size", 0, 64, &self->cluster_size);
    proto_read_str(in, "cluster_mode", 0, 16, &self->cluster_mode);
    proto_read_str(in, "cluster_hosts", 0, 4096, &self->cluster_hosts);
    proto_read_str(in, "image", PROTO_REQUIRED, 512, &self->image);
    proto_read_str(in, "architecture", 0, 32, &self->architecture);
    self->slots = proto_read_map(in, "slots", 0, 64, &self->slots_count);
    proto_read_uint(in, "shmem_bytes", 0, UINT64_MAX, &self->shmem_bytes);
    self->environ = proto_read_map(in, "environ", 0, 1024, &self->environ_count);
    proto_read_str(in, "startup_command", 0, 65536, &self->startup_command);
    proto_read_str(in, "access_key", 0, 64, &self->access_key);
    proto_read_str(in, "user_uuid", 0, 64, &self->user_uuid);
    proto_read_str(in, "domain_name", 0, 64, &self->domain_name);
    proto_read_str(in, "group_id", 0, 64, &self->group_id);
    proto_read_str(in, "bootstrap_script", 0, 65536, &self->bootstrap_script);
    self->mounts = proto_read_list(in, "mounts", 0, 64, sizeof *self->mounts,
                                   s_mount_item, &self->mounts_count);
    self->dotfiles = proto_read_list(in, "dotfiles", 0, 300, sizeof *self->dotfiles,
                                     s_dotfile_item, &self->dotfiles_count);
    proto_read_str(in, "model_service", 0, 65536, &self->model_service);
}

static void
s_create_req_print(const proto_kernel_create_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "session_id", self->session_id);
    proto_print_str(text, "session_name", self->session_name);
    proto_print_str(text, "agent_id", self->agent_id);
    proto_print_str(text, "session_type", self->session_type);
    proto_print_str(text, "cluster_role", self->cluster_role);
    proto_print_uint(text, "cluster_idx", self->cluster_idx);
    proto_print_uint(text, "cluster_size", self->cluster_size);
    proto_print_str(text, "cluster_mode", self->cluster_mode);
    proto_print_str(text, "cluster_hosts", self->cluster_hosts);
    proto_print_str(text, "image", self->image);
    proto_print_str(text, "architecture", self->architecture);
    proto_print_count(text, "slots", self->slots_count);
    proto_print_uint(text, "shmem_bytes", self->shmem_bytes);
    proto_print_count(text, "environ", self->environ_count);
    proto_print_str(text, "startup_command", self->startup_command);
    proto_print_str(text, "access_key", self->access_key);
    proto_print_str(text, "user_uuid", self->user_uuid);
    proto_print_str(text, "domain_name", self->domain_name);
    proto_print_str(text, "group_id", self->group_id);
    proto_print_str(text, "bootstrap_script", self->bootstrap_script);
    proto_print_count(text, "mounts", self->mounts_count);
    proto_print_count(text, "dotfiles", self->dotfiles_count);
    proto_print_str(text, "model_service", self->model_service);
}

void
proto_kernel_create_req_init(proto_kernel_create_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->session_type = "interactive";
    self->cluster_role = "main";
    self->cluster_idx = 1;
    self->cluster_size = 1;
    self->architecture = "x86_64";
}

void
proto_kernel_create_req_clear(proto_kernel_create_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_create_req_check(const proto_kernel_create_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.create request", err);
    return s_create_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_create_req_write(const proto_kernel_create_req_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_create_req_check(self, NULL) != BUS_OK)
        return -1;
    s_create_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_kernel_create_req_writer(const proto_kernel_create_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_kernel_create_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "kernel.create request: out of memory");
        return NULL;
    }
    s_create_req_write(self, writer);
    return writer;
}

zframe_t *
proto_kernel_create_req_encode(const proto_kernel_create_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_create_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_create_req_read(proto_kernel_create_req_t *self,
                             const bus_value_t *map,
                             bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_create_req_init(self);
    proto_in_init(&in, "kernel.create request", map, &self->owned_, err);
    s_create_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_create_req_clear(self);
    return in.status;
}

int
proto_kernel_create_req_decode(proto_kernel_create_req_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_create_req_read(self, map, err);
}

char *
proto_kernel_create_req_print(const proto_kernel_create_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_create_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.create reply

static bool
s_create_rep_check(const proto_kernel_create_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "container_id", self->container_id, 0, 128))
        return false;
    if (!proto_check_str(ck, "kernel_host", self->kernel_host, 0, 64))
        return false;
    if (!proto_check_count(ck, "service_ports", self->service_ports,
                           self->service_ports_count, 64))
        return false;
    for (size_t i = 0; i < self->service_ports_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "service_ports", i);
        if (!s_port_check(&self->service_ports[i], &item))
            return false;
    }
    return true;
}

static void
s_create_rep_write(const proto_kernel_create_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->container_id != NULL;
    pairs += self->kernel_host != NULL;
    pairs += self->service_ports_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    if (self->container_id != NULL)
        proto_write_str(writer, "container_id", self->container_id);
    if (self->kernel_host != NULL)
        proto_write_str(writer, "kernel_host", self->kernel_host);
    if (self->service_ports_count > 0) {
        proto_write_array(writer, "service_ports", self->service_ports_count);
        for (size_t i = 0; i < self->service_ports_count; i++)
            s_port_write(&self->service_ports[i], writer);
    }
}

static void
s_create_rep_read(proto_kernel_create_rep_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "container_id", 0, 128, &self->container_id);
    proto_read_str(in, "kernel_host", 0, 64, &self->kernel_host);
    self->service_ports = proto_read_list(in, "service_ports", 0, 64,
                                          sizeof *self->service_ports, s_port_item,
                                          &self->service_ports_count);
}

static void
s_create_rep_print(const proto_kernel_create_rep_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "container_id", self->container_id);
    proto_print_str(text, "kernel_host", self->kernel_host);
    proto_print_count(text, "service_ports", self->service_ports_count);
}

void
proto_kernel_create_rep_init(proto_kernel_create_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_create_rep_clear(proto_kernel_create_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_create_rep_check(const proto_kernel_create_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.create reply", err);
    return s_create_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_create_rep_write(const proto_kernel_create_rep_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_create_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_create_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_create_rep_encode(const proto_kernel_create_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_create_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_create_rep_read(proto_kernel_create_rep_t *self,
                             const bus_value_t *map,
                             bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_create_rep_init(self);
    proto_in_init(&in, "kernel.create reply", map, &self->owned_, err);
    s_create_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_create_rep_clear(self);
    return in.status;
}

int
proto_kernel_create_rep_decode(proto_kernel_create_rep_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_create_rep_read(self, map, err);
}

char *
proto_kernel_create_rep_print(const proto_kernel_create_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_create_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.hosts request

static bool
s_hosts_req_check(const proto_kernel_hosts_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "hosts", self->hosts, PROTO_REQUIRED, 65536))
        return false;
    return true;
}

static void
s_hosts_req_write(const proto_kernel_hosts_req_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 2);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    proto_write_str(writer, "hosts", self->hosts);
}

static void
s_hosts_req_read(proto_kernel_hosts_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "hosts", PROTO_REQUIRED, 65536, &self->hosts);
}

static void
s_hosts_req_print(const proto_kernel_hosts_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "hosts", self->hosts);
}

void
proto_kernel_hosts_req_init(proto_kernel_hosts_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_hosts_req_clear(proto_kernel_hosts_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_hosts_req_check(const proto_kernel_hosts_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.hosts request", err);
    return s_hosts_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_hosts_req_write(const proto_kernel_hosts_req_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_hosts_req_check(self, NULL) != BUS_OK)
        return -1;
    s_hosts_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_kernel_hosts_req_writer(const proto_kernel_hosts_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_kernel_hosts_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "kernel.hosts request: out of memory");
        return NULL;
    }
    s_hosts_req_write(self, writer);
    return writer;
}

zframe_t *
proto_kernel_hosts_req_encode(const proto_kernel_hosts_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_hosts_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_hosts_req_read(proto_kernel_hosts_req_t *self,
                            const bus_value_t *map,
                            bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_hosts_req_init(self);
    proto_in_init(&in, "kernel.hosts request", map, &self->owned_, err);
    s_hosts_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_hosts_req_clear(self);
    return in.status;
}

int
proto_kernel_hosts_req_decode(proto_kernel_hosts_req_t *self,
                              const void *data,
                              size_t size,
                              bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_hosts_req_read(self, map, err);
}

char *
proto_kernel_hosts_req_print(const proto_kernel_hosts_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_hosts_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.hosts reply

static bool
s_hosts_rep_check(const proto_kernel_hosts_rep_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_hosts_rep_write(const proto_kernel_hosts_rep_t *self, bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_hosts_rep_read(proto_kernel_hosts_rep_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_hosts_rep_print(const proto_kernel_hosts_rep_t *self, proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_kernel_hosts_rep_init(proto_kernel_hosts_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_hosts_rep_clear(proto_kernel_hosts_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_hosts_rep_check(const proto_kernel_hosts_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.hosts reply", err);
    return s_hosts_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_hosts_rep_write(const proto_kernel_hosts_rep_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_hosts_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_hosts_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_hosts_rep_encode(const proto_kernel_hosts_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_hosts_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_hosts_rep_read(proto_kernel_hosts_rep_t *self,
                            const bus_value_t *map,
                            bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_hosts_rep_init(self);
    proto_in_init(&in, "kernel.hosts reply", map, &self->owned_, err);
    s_hosts_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_hosts_rep_clear(self);
    return in.status;
}

int
proto_kernel_hosts_rep_decode(proto_kernel_hosts_rep_t *self,
                              const void *data,
                              size_t size,
                              bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_hosts_rep_read(self, map, err);
}

char *
proto_kernel_hosts_rep_print(const proto_kernel_hosts_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_hosts_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.destroy request

static bool
s_destroy_req_check(const proto_kernel_destroy_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "reason", self->reason, 0, 64))
        return false;
    return true;
}

static void
s_destroy_req_write(const proto_kernel_destroy_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->reason != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    if (self->reason != NULL)
        proto_write_str(writer, "reason", self->reason);
    proto_write_uint(writer, "grace_ms", self->grace_ms);
}

static void
s_destroy_req_read(proto_kernel_destroy_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "reason", 0, 64, &self->reason);
    proto_read_uint(in, "grace_ms", 0, UINT64_MAX, &self->grace_ms);
}

static void
s_destroy_req_print(const proto_kernel_destroy_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "reason", self->reason);
    proto_print_uint(text, "grace_ms", self->grace_ms);
}

void
proto_kernel_destroy_req_init(proto_kernel_destroy_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->reason = "user-requested";
    self->grace_ms = 5000;
}

void
proto_kernel_destroy_req_clear(proto_kernel_destroy_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_destroy_req_check(const proto_kernel_destroy_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.destroy request", err);
    return s_destroy_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_destroy_req_write(const proto_kernel_destroy_req_t *self,
                               bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_destroy_req_check(self, NULL) != BUS_OK)
        return -1;
    s_destroy_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_kernel_destroy_req_writer(const proto_kernel_destroy_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_kernel_destroy_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "kernel.destroy request: out of memory");
        return NULL;
    }
    s_destroy_req_write(self, writer);
    return writer;
}

zframe_t *
proto_kernel_destroy_req_encode(const proto_kernel_destroy_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_destroy_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_destroy_req_read(proto_kernel_destroy_req_t *self,
                              const bus_value_t *map,
                              bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_destroy_req_init(self);
    proto_in_init(&in, "kernel.destroy request", map, &self->owned_, err);
    s_destroy_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_destroy_req_clear(self);
    return in.status;
}

int
proto_kernel_destroy_req_decode(proto_kernel_destroy_req_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_destroy_req_read(self, map, err);
}

char *
proto_kernel_destroy_req_print(const proto_kernel_destroy_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_destroy_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.destroy reply

static bool
s_destroy_rep_check(const proto_kernel_destroy_rep_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_destroy_rep_write(const proto_kernel_destroy_rep_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    proto_write_int(writer, "exit_code", self->exit_code);
}

static void
s_destroy_rep_read(proto_kernel_destroy_rep_t *self, proto_in_t *in)
{
    proto_read_int(in, "exit_code", 0, INT64_MIN, INT64_MAX, &self->exit_code);
}

static void
s_destroy_rep_print(const proto_kernel_destroy_rep_t *self, proto_text_t *text)
{
    proto_print_int(text, "exit_code", self->exit_code);
}

void
proto_kernel_destroy_rep_init(proto_kernel_destroy_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_destroy_rep_clear(proto_kernel_destroy_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_destroy_rep_check(const proto_kernel_destroy_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.destroy reply", err);
    return s_destroy_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_destroy_rep_write(const proto_kernel_destroy_rep_t *self,
                               bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_destroy_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_destroy_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_destroy_rep_encode(const proto_kernel_destroy_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_destroy_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_destroy_rep_read(proto_kernel_destroy_rep_t *self,
                              const bus_value_t *map,
                              bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_destroy_rep_init(self);
    proto_in_init(&in, "kernel.destroy reply", map, &self->owned_, err);
    s_destroy_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_destroy_rep_clear(self);
    return in.status;
}

int
proto_kernel_destroy_rep_decode(proto_kernel_destroy_rep_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_destroy_rep_read(self, map, err);
}

char *
proto_kernel_destroy_rep_print(const proto_kernel_destroy_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_destroy_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.restart request

static bool
s_restart_req_check(const proto_kernel_restart_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "startup_command", self->startup_command, 0, 65536))
        return false;
    return true;
}

static void
s_restart_req_write(const proto_kernel_restart_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->startup_command != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    proto_write_uint(writer, "grace_ms", self->grace_ms);
    if (self->startup_command != NULL)
        proto_write_str(writer, "startup_command", self->startup_command);
}

static void
s_restart_req_read(proto_kernel_restart_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_uint(in, "grace_ms", 0, UINT64_MAX, &self->grace_ms);
    proto_read_str(in, "startup_command", 0, 65536, &self->startup_command);
}

static void
s_restart_req_print(const proto_kernel_restart_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_uint(text, "grace_ms", self->grace_ms);
    proto_print_str(text, "startup_command", self->startup_command);
}

void
proto_kernel_restart_req_init(proto_kernel_restart_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->grace_ms = 5000;
}

void
proto_kernel_restart_req_clear(proto_kernel_restart_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_restart_req_check(const proto_kernel_restart_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.restart request", err);
    return s_restart_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_restart_req_write(const proto_kernel_restart_req_t *self,
                               bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_restart_req_check(self, NULL) != BUS_OK)
        return -1;
    s_restart_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_kernel_restart_req_writer(const proto_kernel_restart_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_kernel_restart_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "kernel.restart request: out of memory");
        return NULL;
    }
    s_restart_req_write(self, writer);
    return writer;
}

zframe_t *
proto_kernel_restart_req_encode(const proto_kernel_restart_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_restart_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_restart_req_read(proto_kernel_restart_req_t *self,
                              const bus_value_t *map,
                              bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_restart_req_init(self);
    proto_in_init(&in, "kernel.restart request", map, &self->owned_, err);
    s_restart_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_restart_req_clear(self);
    return in.status;
}

int
proto_kernel_restart_req_decode(proto_kernel_restart_req_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_restart_req_read(self, map, err);
}

char *
proto_kernel_restart_req_print(const proto_kernel_restart_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_restart_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.restart reply

static bool
s_restart_rep_check(const proto_kernel_restart_rep_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_restart_rep_write(const proto_kernel_restart_rep_t *self, bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_restart_rep_read(proto_kernel_restart_rep_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_restart_rep_print(const proto_kernel_restart_rep_t *self, proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_kernel_restart_rep_init(proto_kernel_restart_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_restart_rep_clear(proto_kernel_restart_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_restart_rep_check(const proto_kernel_restart_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.restart reply", err);
    return s_restart_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_restart_rep_write(const proto_kernel_restart_rep_t *self,
                               bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_restart_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_restart_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_restart_rep_encode(const proto_kernel_restart_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_restart_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_restart_rep_read(proto_kernel_restart_rep_t *self,
                              const bus_value_t *map,
                              bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_restart_rep_init(self);
    proto_in_init(&in, "kernel.restart reply", map, &self->owned_, err);
    s_restart_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_restart_rep_clear(self);
    return in.status;
}

int
proto_kernel_restart_rep_decode(proto_kernel_restart_rep_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_restart_rep_read(self, map, err);
}

char *
proto_kernel_restart_rep_print(const proto_kernel_restart_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_restart_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.execute request

static bool
s_execute_req_check(const proto_kernel_execute_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "run_id", self->run_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "mode", self->mode, PROTO_REQUIRED, 16))
        return false;
    if (!proto_check_str(ck, "code", self->code, 0, 16777216))
        return false;
    if (!proto_check_str(ck, "options", self->options, 0, 65536))
        return false;
    return true;
}

static void
s_execute_req_write(const proto_kernel_execute_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 4;
    pairs += self->code != NULL;
    pairs += self->options != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    proto_write_str(writer, "run_id", self->run_id);
    proto_write_str(writer, "mode", self->mode);
    if (self->code != NULL)
        proto_write_str(writer, "code", self->code);
    if (self->options != NULL)
        proto_write_str(writer, "options", self->options);
    proto_write_uint(writer, "wait_ms", self->wait_ms);
}

static void
s_execute_req_read(proto_kernel_execute_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "run_id", PROTO_REQUIRED, 64, &self->run_id);
    proto_read_str(in, "mode", PROTO_REQUIRED, 16, &self->mode);
    proto_read_str(in, "code", 0, 16777216, &self->code);
    proto_read_str(in, "options", 0, 65536, &self->options);
    proto_read_uint(in, "wait_ms", 0, UINT64_MAX, &self->wait_ms);
}

static void
s_execute_req_print(const proto_kernel_execute_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "run_id", self->run_id);
    proto_print_str(text, "mode", self->mode);
    proto_print_str(text, "code", self->code);
    proto_print_str(text, "options", self->options);
    proto_print_uint(text, "wait_ms", self->wait_ms);
}

void
proto_kernel_execute_req_init(proto_kernel_execute_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->wait_ms = 10000;
}

void
proto_kernel_execute_req_clear(proto_kernel_execute_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_execute_req_check(const proto_kernel_execute_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.execute request", err);
    return s_execute_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_execute_req_write(const proto_kernel_execute_req_t *self,
                               bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_execute_req_check(self, NULL) != BUS_OK)
        return -1;
    s_execute_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_kernel_execute_req_writer(const proto_kernel_execute_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_kernel_execute_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "kernel.execute request: out of memory");
        return NULL;
    }
    s_execute_req_write(self, writer);
    return writer;
}

zframe_t *
proto_kernel_execute_req_encode(const proto_kernel_execute_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_execute_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_execute_req_read(proto_kernel_execute_req_t *self,
                              const bus_value_t *map,
                              bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_execute_req_init(self);
    proto_in_init(&in, "kernel.execute request", map, &self->owned_, err);
    s_execute_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_execute_req_clear(self);
    return in.status;
}

int
proto_kernel_execute_req_decode(proto_kernel_execute_req_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_execute_req_read(self, map, err);
}

char *
proto_kernel_execute_req_print(const proto_kernel_execute_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_execute_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.execute reply

static bool
s_execute_rep_check(const proto_kernel_execute_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "result", self->result, PROTO_REQUIRED, 33554432))
        return false;
    return true;
}

static void
s_execute_rep_write(const proto_kernel_execute_rep_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    proto_write_str(writer, "result", self->result);
}

static void
s_execute_rep_read(proto_kernel_execute_rep_t *self, proto_in_t *in)
{
    proto_read_str(in, "result", PROTO_REQUIRED, 33554432, &self->result);
}

static void
s_execute_rep_print(const proto_kernel_execute_rep_t *self, proto_text_t *text)
{
    proto_print_str(text, "result", self->result);
}

void
proto_kernel_execute_rep_init(proto_kernel_execute_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_execute_rep_clear(proto_kernel_execute_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_execute_rep_check(const proto_kernel_execute_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.execute reply", err);
    return s_execute_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_execute_rep_write(const proto_kernel_execute_rep_t *self,
                               bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_execute_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_execute_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_execute_rep_encode(const proto_kernel_execute_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_execute_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_execute_rep_read(proto_kernel_execute_rep_t *self,
                              const bus_value_t *map,
                              bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_execute_rep_init(self);
    proto_in_init(&in, "kernel.execute reply", map, &self->owned_, err);
    s_execute_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_execute_rep_clear(self);
    return in.status;
}

int
proto_kernel_execute_rep_decode(proto_kernel_execute_rep_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_execute_rep_read(self, map, err);
}

char *
proto_kernel_execute_rep_print(const proto_kernel_execute_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_execute_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.interrupt request

static bool
s_interrupt_req_check(const proto_kernel_interrupt_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "run_id", self->run_id, 0, 64))
        return false;
    return true;
}

static void
s_interrupt_req_write(const proto_kernel_interrupt_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->run_id != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    proto_write_bool(writer, "force", self->force);
    if (self->run_id != NULL)
        proto_write_str(writer, "run_id", self->run_id);
}

static void
s_interrupt_req_read(proto_kernel_interrupt_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_bool(in, "force", 0, &self->force);
    proto_read_str(in, "run_id", 0, 64, &self->run_id);
}

static void
s_interrupt_req_print(const proto_kernel_interrupt_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_bool(text, "force", self->force);
    proto_print_str(text, "run_id", self->run_id);
}

void
proto_kernel_interrupt_req_init(proto_kernel_interrupt_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_interrupt_req_clear(proto_kernel_interrupt_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_interrupt_req_check(const proto_kernel_interrupt_req_t *self,
                                 bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.interrupt request", err);
    return s_interrupt_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_interrupt_req_write(const proto_kernel_interrupt_req_t *self,
                                 bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_interrupt_req_check(self, NULL) != BUS_OK)
        return -1;
    s_interrupt_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_kernel_interrupt_req_writer(const proto_kernel_interrupt_req_t *self,
                                  bus_error_t *err)
{
    assert(self);
    if (proto_kernel_interrupt_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "kernel.interrupt request: out of memory");
        return NULL;
    }
    s_interrupt_req_write(self, writer);
    return writer;
}

zframe_t *
proto_kernel_interrupt_req_encode(const proto_kernel_interrupt_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_interrupt_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_interrupt_req_read(proto_kernel_interrupt_req_t *self,
                                const bus_value_t *map,
                                bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_interrupt_req_init(self);
    proto_in_init(&in, "kernel.interrupt request", map, &self->owned_, err);
    s_interrupt_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_interrupt_req_clear(self);
    return in.status;
}

int
proto_kernel_interrupt_req_decode(proto_kernel_interrupt_req_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_interrupt_req_read(self, map, err);
}

char *
proto_kernel_interrupt_req_print(const proto_kernel_interrupt_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_interrupt_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.interrupt reply

static bool
s_interrupt_rep_check(const proto_kernel_interrupt_rep_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_interrupt_rep_write(const proto_kernel_interrupt_rep_t *self, bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_interrupt_rep_read(proto_kernel_interrupt_rep_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_interrupt_rep_print(const proto_kernel_interrupt_rep_t *self, proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_kernel_interrupt_rep_init(proto_kernel_interrupt_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_interrupt_rep_clear(proto_kernel_interrupt_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_interrupt_rep_check(const proto_kernel_interrupt_rep_t *self,
                                 bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.interrupt reply", err);
    return s_interrupt_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_interrupt_rep_write(const proto_kernel_interrupt_rep_t *self,
                                 bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_interrupt_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_interrupt_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_interrupt_rep_encode(const proto_kernel_interrupt_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_interrupt_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_interrupt_rep_read(proto_kernel_interrupt_rep_t *self,
                                const bus_value_t *map,
                                bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_interrupt_rep_init(self);
    proto_in_init(&in, "kernel.interrupt reply", map, &self->owned_, err);
    s_interrupt_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_interrupt_rep_clear(self);
    return in.status;
}

int
proto_kernel_interrupt_rep_decode(proto_kernel_interrupt_rep_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_interrupt_rep_read(self, map, err);
}

char *
proto_kernel_interrupt_rep_print(const proto_kernel_interrupt_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_interrupt_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.logs request

static bool
s_logs_req_check(const proto_kernel_logs_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    return true;
}

static void
s_logs_req_write(const proto_kernel_logs_req_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 2);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    proto_write_uint(writer, "max_bytes", self->max_bytes);
}

static void
s_logs_req_read(proto_kernel_logs_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_uint(in, "max_bytes", 0, UINT64_MAX, &self->max_bytes);
}

static void
s_logs_req_print(const proto_kernel_logs_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_uint(text, "max_bytes", self->max_bytes);
}

void
proto_kernel_logs_req_init(proto_kernel_logs_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->max_bytes = 1048576;
}

void
proto_kernel_logs_req_clear(proto_kernel_logs_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_logs_req_check(const proto_kernel_logs_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.logs request", err);
    return s_logs_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_logs_req_write(const proto_kernel_logs_req_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_logs_req_check(self, NULL) != BUS_OK)
        return -1;
    s_logs_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_kernel_logs_req_writer(const proto_kernel_logs_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_kernel_logs_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "kernel.logs request: out of memory");
        return NULL;
    }
    s_logs_req_write(self, writer);
    return writer;
}

zframe_t *
proto_kernel_logs_req_encode(const proto_kernel_logs_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_logs_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_logs_req_read(proto_kernel_logs_req_t *self,
                           const bus_value_t *map,
                           bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_logs_req_init(self);
    proto_in_init(&in, "kernel.logs request", map, &self->owned_, err);
    s_logs_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_logs_req_clear(self);
    return in.status;
}

int
proto_kernel_logs_req_decode(proto_kernel_logs_req_t *self,
                             const void *data,
                             size_t size,
                             bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_logs_req_read(self, map, err);
}

char *
proto_kernel_logs_req_print(const proto_kernel_logs_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_logs_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.logs reply

static bool
s_logs_rep_check(const proto_kernel_logs_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_bytes(ck, "logs", self->logs, self->logs_size, 0, 16777216))
        return false;
    return true;
}

static void
s_logs_rep_write(const proto_kernel_logs_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->logs != NULL;
    bus_writer_map(writer, pairs);
    if (self->logs != NULL)
        proto_write_bytes(writer, "logs", self->logs, self->logs_size);
}

static void
s_logs_rep_read(proto_kernel_logs_rep_t *self, proto_in_t *in)
{
    proto_read_bytes(in, "logs", 0, 16777216, &self->logs, &self->logs_size);
}

static void
s_logs_rep_print(const proto_kernel_logs_rep_t *self, proto_text_t *text)
{
    proto_print_bytes(text, "logs", self->logs, self->logs_size);
}

void
proto_kernel_logs_rep_init(proto_kernel_logs_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_logs_rep_clear(proto_kernel_logs_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_logs_rep_check(const proto_kernel_logs_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.logs reply", err);
    return s_logs_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_logs_rep_write(const proto_kernel_logs_rep_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_logs_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_logs_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_logs_rep_encode(const proto_kernel_logs_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_logs_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_logs_rep_read(proto_kernel_logs_rep_t *self,
                           const bus_value_t *map,
                           bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_logs_rep_init(self);
    proto_in_init(&in, "kernel.logs reply", map, &self->owned_, err);
    s_logs_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_logs_rep_clear(self);
    return in.status;
}

int
proto_kernel_logs_rep_decode(proto_kernel_logs_rep_t *self,
                             const void *data,
                             size_t size,
                             bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_logs_rep_read(self, map, err);
}

char *
proto_kernel_logs_rep_print(const proto_kernel_logs_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_logs_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.list request

static bool
s_list_req_check(const proto_kernel_list_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "agent_id", self->agent_id, 0, 128))
        return false;
    return true;
}

static void
s_list_req_write(const proto_kernel_list_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->agent_id != NULL;
    bus_writer_map(writer, pairs);
    if (self->agent_id != NULL)
        proto_write_str(writer, "agent_id", self->agent_id);
}

static void
s_list_req_read(proto_kernel_list_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "agent_id", 0, 128, &self->agent_id);
}

static void
s_list_req_print(const proto_kernel_list_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "agent_id", self->agent_id);
}

void
proto_kernel_list_req_init(proto_kernel_list_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_list_req_clear(proto_kernel_list_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_list_req_check(const proto_kernel_list_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.list request", err);
    return s_list_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_list_req_write(const proto_kernel_list_req_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_list_req_check(self, NULL) != BUS_OK)
        return -1;
    s_list_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_kernel_list_req_writer(const proto_kernel_list_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_kernel_list_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "kernel.list request: out of memory");
        return NULL;
    }
    s_list_req_write(self, writer);
    return writer;
}

zframe_t *
proto_kernel_list_req_encode(const proto_kernel_list_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_list_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_list_req_read(proto_kernel_list_req_t *self,
                           const bus_value_t *map,
                           bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_list_req_init(self);
    proto_in_init(&in, "kernel.list request", map, &self->owned_, err);
    s_list_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_list_req_clear(self);
    return in.status;
}

int
proto_kernel_list_req_decode(proto_kernel_list_req_t *self,
                             const void *data,
                             size_t size,
                             bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_list_req_read(self, map, err);
}

char *
proto_kernel_list_req_print(const proto_kernel_list_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_list_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.list reply

static bool
s_list_rep_check(const proto_kernel_list_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_count(ck, "kernels", self->kernels, self->kernels_count, 100000))
        return false;
    for (size_t i = 0; i < self->kernels_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "kernels", i);
        if (!s_state_check(&self->kernels[i], &item))
            return false;
    }
    return true;
}

static void
s_list_rep_write(const proto_kernel_list_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->kernels_count > 0;
    bus_writer_map(writer, pairs);
    if (self->kernels_count > 0) {
        proto_write_array(writer, "kernels", self->kernels_count);
        for (size_t i = 0; i < self->kernels_count; i++)
            s_state_write(&self->kernels[i], writer);
    }
}

static void
s_list_rep_read(proto_kernel_list_rep_t *self, proto_in_t *in)
{
    self->kernels = proto_read_list(in, "kernels", 0, 100000, sizeof *self->kernels,
                                    s_state_item, &self->kernels_count);
}

static void
s_list_rep_print(const proto_kernel_list_rep_t *self, proto_text_t *text)
{
    proto_print_count(text, "kernels", self->kernels_count);
}

void
proto_kernel_list_rep_init(proto_kernel_list_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_list_rep_clear(proto_kernel_list_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_list_rep_check(const proto_kernel_list_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.list reply", err);
    return s_list_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_list_rep_write(const proto_kernel_list_rep_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_list_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_list_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_list_rep_encode(const proto_kernel_list_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_list_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_list_rep_read(proto_kernel_list_rep_t *self,
                           const bus_value_t *map,
                           bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_list_rep_init(self);
    proto_in_init(&in, "kernel.list reply", map, &self->owned_, err);
    s_list_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_list_rep_clear(self);
    return in.status;
}

int
proto_kernel_list_rep_decode(proto_kernel_list_rep_t *self,
                             const void *data,
                             size_t size,
                             bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_list_rep_read(self, map, err);
}

char *
proto_kernel_list_rep_print(const proto_kernel_list_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_list_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.upload request

static bool
s_upload_req_check(const proto_kernel_upload_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_count(ck, "files", self->files, self->files_count, 20))
        return false;
    for (size_t i = 0; i < self->files_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "files", i);
        if (!s_file_check(&self->files[i], &item))
            return false;
    }
    return true;
}

static void
s_upload_req_write(const proto_kernel_upload_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->files_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    if (self->files_count > 0) {
        proto_write_array(writer, "files", self->files_count);
        for (size_t i = 0; i < self->files_count; i++)
            s_file_write(&self->files[i], writer);
    }
}

static void
s_upload_req_read(proto_kernel_upload_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    self->files = proto_read_list(in, "files", 0, 20, sizeof *self->files, s_file_item,
                                  &self->files_count);
}

static void
s_upload_req_print(const proto_kernel_upload_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_count(text, "files", self->files_count);
}

void
proto_kernel_upload_req_init(proto_kernel_upload_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_upload_req_clear(proto_kernel_upload_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_upload_req_check(const proto_kernel_upload_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.upload request", err);
    return s_upload_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_upload_req_write(const proto_kernel_upload_req_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_upload_req_check(self, NULL) != BUS_OK)
        return -1;
    s_upload_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_kernel_upload_req_writer(const proto_kernel_upload_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_kernel_upload_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "kernel.upload request: out of memory");
        return NULL;
    }
    s_upload_req_write(self, writer);
    return writer;
}

zframe_t *
proto_kernel_upload_req_encode(const proto_kernel_upload_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_upload_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_upload_req_read(proto_kernel_upload_req_t *self,
                             const bus_value_t *map,
                             bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_upload_req_init(self);
    proto_in_init(&in, "kernel.upload request", map, &self->owned_, err);
    s_upload_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_upload_req_clear(self);
    return in.status;
}

int
proto_kernel_upload_req_decode(proto_kernel_upload_req_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_upload_req_read(self, map, err);
}

char *
proto_kernel_upload_req_print(const proto_kernel_upload_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_upload_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.upload reply

static bool
s_upload_rep_check(const proto_kernel_upload_rep_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_upload_rep_write(const proto_kernel_upload_rep_t *self, bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_upload_rep_read(proto_kernel_upload_rep_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_upload_rep_print(const proto_kernel_upload_rep_t *self, proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_kernel_upload_rep_init(proto_kernel_upload_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_upload_rep_clear(proto_kernel_upload_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_upload_rep_check(const proto_kernel_upload_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.upload reply", err);
    return s_upload_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_upload_rep_write(const proto_kernel_upload_rep_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_upload_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_upload_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_upload_rep_encode(const proto_kernel_upload_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_upload_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_upload_rep_read(proto_kernel_upload_rep_t *self,
                             const bus_value_t *map,
                             bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_upload_rep_init(self);
    proto_in_init(&in, "kernel.upload reply", map, &self->owned_, err);
    s_upload_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_upload_rep_clear(self);
    return in.status;
}

int
proto_kernel_upload_rep_decode(proto_kernel_upload_rep_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_upload_rep_read(self, map, err);
}

char *
proto_kernel_upload_rep_print(const proto_kernel_upload_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_upload_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.download request

static bool
s_download_req_check(const proto_kernel_download_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_strs(ck, "paths", self->paths, self->paths_count, 5))
        return false;
    return true;
}

static void
s_download_req_write(const proto_kernel_download_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->paths_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    if (self->paths_count > 0)
        proto_write_strs(writer, "paths", self->paths, self->paths_count);
    proto_write_uint(writer, "max_bytes", self->max_bytes);
}

static void
s_download_req_read(proto_kernel_download_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    self->paths = proto_read_strs(in, "paths", 0, 5, &self->paths_count);
    proto_read_uint(in, "max_bytes", 0, UINT64_MAX, &self->max_bytes);
}

static void
s_download_req_print(const proto_kernel_download_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_count(text, "paths", self->paths_count);
    proto_print_uint(text, "max_bytes", self->max_bytes);
}

void
proto_kernel_download_req_init(proto_kernel_download_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->max_bytes = 16777216;
}

void
proto_kernel_download_req_clear(proto_kernel_download_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_download_req_check(const proto_kernel_download_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.download request", err);
    return s_download_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_download_req_write(const proto_kernel_download_req_t *self,
                                bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_download_req_check(self, NULL) != BUS_OK)
        return -1;
    s_download_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_kernel_download_req_writer(const proto_kernel_download_req_t *self,
                                 bus_error_t *err)
{
    assert(self);
    if (proto_kernel_download_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "kernel.download request: out of memory");
        return NULL;
    }
    s_download_req_write(self, writer);
    return writer;
}

zframe_t *
proto_kernel_download_req_encode(const proto_kernel_download_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_download_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_download_req_read(proto_kernel_download_req_t *self,
                               const bus_value_t *map,
                               bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_download_req_init(self);
    proto_in_init(&in, "kernel.download request", map, &self->owned_, err);
    s_download_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_download_req_clear(self);
    return in.status;
}

int
proto_kernel_download_req_decode(proto_kernel_download_req_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_download_req_read(self, map, err);
}

char *
proto_kernel_download_req_print(const proto_kernel_download_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_download_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.download reply

static bool
s_download_rep_check(const proto_kernel_download_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_count(ck, "files", self->files, self->files_count, 5))
        return false;
    for (size_t i = 0; i < self->files_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "files", i);
        if (!s_file_check(&self->files[i], &item))
            return false;
    }
    return true;
}

static void
s_download_rep_write(const proto_kernel_download_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->files_count > 0;
    bus_writer_map(writer, pairs);
    if (self->files_count > 0) {
        proto_write_array(writer, "files", self->files_count);
        for (size_t i = 0; i < self->files_count; i++)
            s_file_write(&self->files[i], writer);
    }
}

static void
s_download_rep_read(proto_kernel_download_rep_t *self, proto_in_t *in)
{
    self->files = proto_read_list(in, "files", 0, 5, sizeof *self->files, s_file_item,
                                  &self->files_count);
}

static void
s_download_rep_print(const proto_kernel_download_rep_t *self, proto_text_t *text)
{
    proto_print_count(text, "files", self->files_count);
}

void
proto_kernel_download_rep_init(proto_kernel_download_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_download_rep_clear(proto_kernel_download_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_download_rep_check(const proto_kernel_download_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.download reply", err);
    return s_download_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_download_rep_write(const proto_kernel_download_rep_t *self,
                                bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_download_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_download_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_download_rep_encode(const proto_kernel_download_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_download_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_download_rep_read(proto_kernel_download_rep_t *self,
                               const bus_value_t *map,
                               bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_download_rep_init(self);
    proto_in_init(&in, "kernel.download reply", map, &self->owned_, err);
    s_download_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_download_rep_clear(self);
    return in.status;
}

int
proto_kernel_download_rep_decode(proto_kernel_download_rep_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_download_rep_read(self, map, err);
}

char *
proto_kernel_download_rep_print(const proto_kernel_download_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_download_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.download_single request

static bool
s_download_single_req_check(const proto_kernel_download_single_req_t *self,
                            proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "path", self->path, PROTO_REQUIRED, 4096))
        return false;
    return true;
}

static void
s_download_single_req_write(const proto_kernel_download_single_req_t *self,
                            bus_writer_t *writer)
{
    bus_writer_map(writer, 3);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    proto_write_str(writer, "path", self->path);
    proto_write_uint(writer, "max_bytes", self->max_bytes);
}

static void
s_download_single_req_read(proto_kernel_download_single_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "path", PROTO_REQUIRED, 4096, &self->path);
    proto_read_uint(in, "max_bytes", 0, UINT64_MAX, &self->max_bytes);
}

static void
s_download_single_req_print(const proto_kernel_download_single_req_t *self,
                            proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "path", self->path);
    proto_print_uint(text, "max_bytes", self->max_bytes);
}

void
proto_kernel_download_single_req_init(proto_kernel_download_single_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->max_bytes = 16777216;
}

void
proto_kernel_download_single_req_clear(proto_kernel_download_single_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_download_single_req_check(const proto_kernel_download_single_req_t *self,
                                       bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.download_single request", err);
    return s_download_single_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_download_single_req_write(const proto_kernel_download_single_req_t *self,
                                       bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_download_single_req_check(self, NULL) != BUS_OK)
        return -1;
    s_download_single_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_kernel_download_single_req_writer(const proto_kernel_download_single_req_t *self,
                                        bus_error_t *err)
{
    assert(self);
    if (proto_kernel_download_single_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "kernel.download_single request: out of memory");
        return NULL;
    }
    s_download_single_req_write(self, writer);
    return writer;
}

zframe_t *
proto_kernel_download_single_req_encode(const proto_kernel_download_single_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_download_single_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_download_single_req_read(proto_kernel_download_single_req_t *self,
                                      const bus_value_t *map,
                                      bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_download_single_req_init(self);
    proto_in_init(&in, "kernel.download_single request", map, &self->owned_, err);
    s_download_single_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_download_single_req_clear(self);
    return in.status;
}

int
proto_kernel_download_single_req_decode(proto_kernel_download_single_req_t *self,
                                        const void *data,
                                        size_t size,
                                        bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_download_single_req_read(self, map, err);
}

char *
proto_kernel_download_single_req_print(const proto_kernel_download_single_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_download_single_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.download_single reply

static bool
s_download_single_rep_check(const proto_kernel_download_single_rep_t *self,
                            proto_check_t *ck)
{
    if (!proto_check_bytes(ck, "data", self->data, self->data_size, 0, 16777216))
        return false;
    return true;
}

static void
s_download_single_rep_write(const proto_kernel_download_single_rep_t *self,
                            bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->data != NULL;
    bus_writer_map(writer, pairs);
    if (self->data != NULL)
        proto_write_bytes(writer, "data", self->data, self->data_size);
}

static void
s_download_single_rep_read(proto_kernel_download_single_rep_t *self, proto_in_t *in)
{
    proto_read_bytes(in, "data", 0, 16777216, &self->data, &self->data_size);
}

static void
s_download_single_rep_print(const proto_kernel_download_single_rep_t *self,
                            proto_text_t *text)
{
    proto_print_bytes(text, "data", self->data, self->data_size);
}

void
proto_kernel_download_single_rep_init(proto_kernel_download_single_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_download_single_rep_clear(proto_kernel_download_single_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_download_single_rep_check(const proto_kernel_download_single_rep_t *self,
                                       bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.download_single reply", err);
    return s_download_single_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_download_single_rep_write(const proto_kernel_download_single_rep_t *self,
                                       bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_download_single_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_download_single_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_download_single_rep_encode(const proto_kernel_download_single_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_download_single_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_download_single_rep_read(proto_kernel_download_single_rep_t *self,
                                      const bus_value_t *map,
                                      bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_download_single_rep_init(self);
    proto_in_init(&in, "kernel.download_single reply", map, &self->owned_, err);
    s_download_single_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_download_single_rep_clear(self);
    return in.status;
}

int
proto_kernel_download_single_rep_decode(proto_kernel_download_single_rep_t *self,
                                        const void *data,
                                        size_t size,
                                        bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_download_single_rep_read(self, map, err);
}

char *
proto_kernel_download_single_rep_print(const proto_kernel_download_single_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_download_single_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.list_files request

static bool
s_list_files_req_check(const proto_kernel_list_files_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "path", self->path, 0, 4096))
        return false;
    return true;
}

static void
s_list_files_req_write(const proto_kernel_list_files_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->path != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    if (self->path != NULL)
        proto_write_str(writer, "path", self->path);
}

static void
s_list_files_req_read(proto_kernel_list_files_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "path", 0, 4096, &self->path);
}

static void
s_list_files_req_print(const proto_kernel_list_files_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "path", self->path);
}

void
proto_kernel_list_files_req_init(proto_kernel_list_files_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->path = ".";
}

void
proto_kernel_list_files_req_clear(proto_kernel_list_files_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_list_files_req_check(const proto_kernel_list_files_req_t *self,
                                  bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.list_files request", err);
    return s_list_files_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_list_files_req_write(const proto_kernel_list_files_req_t *self,
                                  bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_list_files_req_check(self, NULL) != BUS_OK)
        return -1;
    s_list_files_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_kernel_list_files_req_writer(const proto_kernel_list_files_req_t *self,
                                   bus_error_t *err)
{
    assert(self);
    if (proto_kernel_list_files_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "kernel.list_files request: out of memory");
        return NULL;
    }
    s_list_files_req_write(self, writer);
    return writer;
}

zframe_t *
proto_kernel_list_files_req_encode(const proto_kernel_list_files_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_list_files_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_list_files_req_read(proto_kernel_list_files_req_t *self,
                                 const bus_value_t *map,
                                 bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_list_files_req_init(self);
    proto_in_init(&in, "kernel.list_files request", map, &self->owned_, err);
    s_list_files_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_list_files_req_clear(self);
    return in.status;
}

int
proto_kernel_list_files_req_decode(proto_kernel_list_files_req_t *self,
                                   const void *data,
                                   size_t size,
                                   bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_list_files_req_read(self, map, err);
}

char *
proto_kernel_list_files_req_print(const proto_kernel_list_files_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_list_files_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.list_files reply

static bool
s_list_files_rep_check(const proto_kernel_list_files_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "files", self->files, PROTO_REQUIRED, 16777216))
        return false;
    if (!proto_check_str(ck, "abspath", self->abspath, 0, 4096))
        return false;
    return true;
}

static void
s_list_files_rep_write(const proto_kernel_list_files_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->abspath != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "files", self->files);
    if (self->abspath != NULL)
        proto_write_str(writer, "abspath", self->abspath);
}

static void
s_list_files_rep_read(proto_kernel_list_files_rep_t *self, proto_in_t *in)
{
    proto_read_str(in, "files", PROTO_REQUIRED, 16777216, &self->files);
    proto_read_str(in, "abspath", 0, 4096, &self->abspath);
}

static void
s_list_files_rep_print(const proto_kernel_list_files_rep_t *self, proto_text_t *text)
{
    proto_print_str(text, "files", self->files);
    proto_print_str(text, "abspath", self->abspath);
}

void
proto_kernel_list_files_rep_init(proto_kernel_list_files_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_list_files_rep_clear(proto_kernel_list_files_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_list_files_rep_check(const proto_kernel_list_files_rep_t *self,
                                  bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.list_files reply", err);
    return s_list_files_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_list_files_rep_write(const proto_kernel_list_files_rep_t *self,
                                  bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_list_files_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_list_files_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_list_files_rep_encode(const proto_kernel_list_files_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_list_files_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_list_files_rep_read(proto_kernel_list_files_rep_t *self,
                                 const bus_value_t *map,
                                 bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_list_files_rep_init(self);
    proto_in_init(&in, "kernel.list_files reply", map, &self->owned_, err);
    s_list_files_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_list_files_rep_clear(self);
    return in.status;
}

int
proto_kernel_list_files_rep_decode(proto_kernel_list_files_rep_t *self,
                                   const void *data,
                                   size_t size,
                                   bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_list_files_rep_read(self, map, err);
}

char *
proto_kernel_list_files_rep_print(const proto_kernel_list_files_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_list_files_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.pty_write request

static bool
s_pty_write_req_check(const proto_kernel_pty_write_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_bytes(ck, "data", self->data, self->data_size, 0, 65536))
        return false;
    if (!proto_check_uint(ck, "rows", self->rows, 1000))
        return false;
    if (!proto_check_uint(ck, "cols", self->cols, 1000))
        return false;
    return true;
}

static void
s_pty_write_req_write(const proto_kernel_pty_write_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 3;
    pairs += self->data != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    if (self->data != NULL)
        proto_write_bytes(writer, "data", self->data, self->data_size);
    proto_write_uint(writer, "rows", self->rows);
    proto_write_uint(writer, "cols", self->cols);
}

static void
s_pty_write_req_read(proto_kernel_pty_write_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_bytes(in, "data", 0, 65536, &self->data, &self->data_size);
    proto_read_uint(in, "rows", 0, 1000, &self->rows);
    proto_read_uint(in, "cols", 0, 1000, &self->cols);
}

static void
s_pty_write_req_print(const proto_kernel_pty_write_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_bytes(text, "data", self->data, self->data_size);
    proto_print_uint(text, "rows", self->rows);
    proto_print_uint(text, "cols", self->cols);
}

void
proto_kernel_pty_write_req_init(proto_kernel_pty_write_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_pty_write_req_clear(proto_kernel_pty_write_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_pty_write_req_check(const proto_kernel_pty_write_req_t *self,
                                 bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.pty_write request", err);
    return s_pty_write_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_pty_write_req_write(const proto_kernel_pty_write_req_t *self,
                                 bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_pty_write_req_check(self, NULL) != BUS_OK)
        return -1;
    s_pty_write_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_kernel_pty_write_req_writer(const proto_kernel_pty_write_req_t *self,
                                  bus_error_t *err)
{
    assert(self);
    if (proto_kernel_pty_write_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "kernel.pty_write request: out of memory");
        return NULL;
    }
    s_pty_write_req_write(self, writer);
    return writer;
}

zframe_t *
proto_kernel_pty_write_req_encode(const proto_kernel_pty_write_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_pty_write_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_pty_write_req_read(proto_kernel_pty_write_req_t *self,
                                const bus_value_t *map,
                                bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_pty_write_req_init(self);
    proto_in_init(&in, "kernel.pty_write request", map, &self->owned_, err);
    s_pty_write_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_pty_write_req_clear(self);
    return in.status;
}

int
proto_kernel_pty_write_req_decode(proto_kernel_pty_write_req_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_pty_write_req_read(self, map, err);
}

char *
proto_kernel_pty_write_req_print(const proto_kernel_pty_write_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_pty_write_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.pty_write reply

static bool
s_pty_write_rep_check(const proto_kernel_pty_write_rep_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_pty_write_rep_write(const proto_kernel_pty_write_rep_t *self, bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_pty_write_rep_read(proto_kernel_pty_write_rep_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_pty_write_rep_print(const proto_kernel_pty_write_rep_t *self, proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_kernel_pty_write_rep_init(proto_kernel_pty_write_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_pty_write_rep_clear(proto_kernel_pty_write_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_pty_write_rep_check(const proto_kernel_pty_write_rep_t *self,
                                 bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.pty_write reply", err);
    return s_pty_write_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_pty_write_rep_write(const proto_kernel_pty_write_rep_t *self,
                                 bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_pty_write_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_pty_write_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_pty_write_rep_encode(const proto_kernel_pty_write_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_pty_write_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_pty_write_rep_read(proto_kernel_pty_write_rep_t *self,
                                const bus_value_t *map,
                                bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_pty_write_rep_init(self);
    proto_in_init(&in, "kernel.pty_write reply", map, &self->owned_, err);
    s_pty_write_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_pty_write_rep_clear(self);
    return in.status;
}

int
proto_kernel_pty_write_rep_decode(proto_kernel_pty_write_rep_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_pty_write_rep_read(self, map, err);
}

char *
proto_kernel_pty_write_rep_print(const proto_kernel_pty_write_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_pty_write_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.pty_read request

static bool
s_pty_read_req_check(const proto_kernel_pty_read_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_uint(ck, "wait_ms", self->wait_ms, 60000))
        return false;
    return true;
}

static void
s_pty_read_req_write(const proto_kernel_pty_read_req_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 3);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    proto_write_uint(writer, "offset", self->offset);
    proto_write_uint(writer, "wait_ms", self->wait_ms);
}

static void
s_pty_read_req_read(proto_kernel_pty_read_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_uint(in, "offset", 0, UINT64_MAX, &self->offset);
    proto_read_uint(in, "wait_ms", 0, 60000, &self->wait_ms);
}

static void
s_pty_read_req_print(const proto_kernel_pty_read_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_uint(text, "offset", self->offset);
    proto_print_uint(text, "wait_ms", self->wait_ms);
}

void
proto_kernel_pty_read_req_init(proto_kernel_pty_read_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->wait_ms = 20000;
}

void
proto_kernel_pty_read_req_clear(proto_kernel_pty_read_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_pty_read_req_check(const proto_kernel_pty_read_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.pty_read request", err);
    return s_pty_read_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_pty_read_req_write(const proto_kernel_pty_read_req_t *self,
                                bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_pty_read_req_check(self, NULL) != BUS_OK)
        return -1;
    s_pty_read_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_kernel_pty_read_req_writer(const proto_kernel_pty_read_req_t *self,
                                 bus_error_t *err)
{
    assert(self);
    if (proto_kernel_pty_read_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "kernel.pty_read request: out of memory");
        return NULL;
    }
    s_pty_read_req_write(self, writer);
    return writer;
}

zframe_t *
proto_kernel_pty_read_req_encode(const proto_kernel_pty_read_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_pty_read_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_pty_read_req_read(proto_kernel_pty_read_req_t *self,
                               const bus_value_t *map,
                               bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_pty_read_req_init(self);
    proto_in_init(&in, "kernel.pty_read request", map, &self->owned_, err);
    s_pty_read_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_pty_read_req_clear(self);
    return in.status;
}

int
proto_kernel_pty_read_req_decode(proto_kernel_pty_read_req_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_pty_read_req_read(self, map, err);
}

char *
proto_kernel_pty_read_req_print(const proto_kernel_pty_read_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_pty_read_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.pty_read reply

static bool
s_pty_read_rep_check(const proto_kernel_pty_read_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_bytes(ck, "data", self->data, self->data_size, 0, 1048576))
        return false;
    return true;
}

static void
s_pty_read_rep_write(const proto_kernel_pty_read_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->data != NULL;
    bus_writer_map(writer, pairs);
    if (self->data != NULL)
        proto_write_bytes(writer, "data", self->data, self->data_size);
    proto_write_uint(writer, "offset", self->offset);
    proto_write_bool(writer, "closed", self->closed);
}

static void
s_pty_read_rep_read(proto_kernel_pty_read_rep_t *self, proto_in_t *in)
{
    proto_read_bytes(in, "data", 0, 1048576, &self->data, &self->data_size);
    proto_read_uint(in, "offset", 0, UINT64_MAX, &self->offset);
    proto_read_bool(in, "closed", 0, &self->closed);
}

static void
s_pty_read_rep_print(const proto_kernel_pty_read_rep_t *self, proto_text_t *text)
{
    proto_print_bytes(text, "data", self->data, self->data_size);
    proto_print_uint(text, "offset", self->offset);
    proto_print_bool(text, "closed", self->closed);
}

void
proto_kernel_pty_read_rep_init(proto_kernel_pty_read_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_pty_read_rep_clear(proto_kernel_pty_read_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_pty_read_rep_check(const proto_kernel_pty_read_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.pty_read reply", err);
    return s_pty_read_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_pty_read_rep_write(const proto_kernel_pty_read_rep_t *self,
                                bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_pty_read_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_pty_read_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_pty_read_rep_encode(const proto_kernel_pty_read_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_pty_read_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_pty_read_rep_read(proto_kernel_pty_read_rep_t *self,
                               const bus_value_t *map,
                               bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_pty_read_rep_init(self);
    proto_in_init(&in, "kernel.pty_read reply", map, &self->owned_, err);
    s_pty_read_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_pty_read_rep_clear(self);
    return in.status;
}

int
proto_kernel_pty_read_rep_decode(proto_kernel_pty_read_rep_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_pty_read_rep_read(self, map, err);
}

char *
proto_kernel_pty_read_rep_print(const proto_kernel_pty_read_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_pty_read_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.start_service request

static bool
s_start_service_req_check(const proto_kernel_start_service_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kernel_id", self->kernel_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "name", self->name, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "protocol", self->protocol, 0, 16))
        return false;
    if (!proto_check_str(ck, "ports", self->ports, PROTO_REQUIRED, 512))
        return false;
    if (!proto_check_str(ck, "runtime_path", self->runtime_path, 0, 1024))
        return false;
    if (!proto_check_str(ck, "arguments", self->arguments, 0, 65536))
        return false;
    if (!proto_check_str(ck, "envs", self->envs, 0, 65536))
        return false;
    return true;
}

static void
s_start_service_req_write(const proto_kernel_start_service_req_t *self,
                          bus_writer_t *writer)
{
    uint32_t pairs = 3;
    pairs += self->protocol != NULL;
    pairs += self->runtime_path != NULL;
    pairs += self->arguments != NULL;
    pairs += self->envs != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kernel_id", self->kernel_id);
    proto_write_str(writer, "name", self->name);
    if (self->protocol != NULL)
        proto_write_str(writer, "protocol", self->protocol);
    proto_write_str(writer, "ports", self->ports);
    if (self->runtime_path != NULL)
        proto_write_str(writer, "runtime_path", self->runtime_path);
    if (self->arguments != NULL)
        proto_write_str(writer, "arguments", self->arguments);
    if (self->envs != NULL)
        proto_write_str(writer, "envs", self->envs);
}

static void
s_start_service_req_read(proto_kernel_start_service_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "kernel_id", PROTO_REQUIRED, 64, &self->kernel_id);
    proto_read_str(in, "name", PROTO_REQUIRED, 64, &self->name);
    proto_read_str(in, "protocol", 0, 16, &self->protocol);
    proto_read_str(in, "ports", PROTO_REQUIRED, 512, &self->ports);
    proto_read_str(in, "runtime_path", 0, 1024, &self->runtime_path);
    proto_read_str(in, "arguments", 0, 65536, &self->arguments);
    proto_read_str(in, "envs", 0, 65536, &self->envs);
}

static void
s_start_service_req_print(const proto_kernel_start_service_req_t *self,
                          proto_text_t *text)
{
    proto_print_str(text, "kernel_id", self->kernel_id);
    proto_print_str(text, "name", self->name);
    proto_print_str(text, "protocol", self->protocol);
    proto_print_str(text, "ports", self->ports);
    proto_print_str(text, "runtime_path", self->runtime_path);
    proto_print_str(text, "arguments", self->arguments);
    proto_print_str(text, "envs", self->envs);
}

void
proto_kernel_start_service_req_init(proto_kernel_start_service_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->protocol = "http";
}

void
proto_kernel_start_service_req_clear(proto_kernel_start_service_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_start_service_req_check(const proto_kernel_start_service_req_t *self,
                                     bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.start_service request", err);
    return s_start_service_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_start_service_req_write(const proto_kernel_start_service_req_t *self,
                                     bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_start_service_req_check(self, NULL) != BUS_OK)
        return -1;
    s_start_service_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_kernel_start_service_req_writer(const proto_kernel_start_service_req_t *self,
                                      bus_error_t *err)
{
    assert(self);
    if (proto_kernel_start_service_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "kernel.start_service request: out of memory");
        return NULL;
    }
    s_start_service_req_write(self, writer);
    return writer;
}

zframe_t *
proto_kernel_start_service_req_encode(const proto_kernel_start_service_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_start_service_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_start_service_req_read(proto_kernel_start_service_req_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_start_service_req_init(self);
    proto_in_init(&in, "kernel.start_service request", map, &self->owned_, err);
    s_start_service_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_start_service_req_clear(self);
    return in.status;
}

int
proto_kernel_start_service_req_decode(proto_kernel_start_service_req_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_start_service_req_read(self, map, err);
}

char *
proto_kernel_start_service_req_print(const proto_kernel_start_service_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_start_service_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  kernel.start_service reply

static bool
s_start_service_rep_check(const proto_kernel_start_service_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "status", self->status, PROTO_REQUIRED, 16))
        return false;
    if (!proto_check_str(ck, "host", self->host, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_uint(ck, "port", self->port, 65535))
        return false;
    return true;
}

static void
s_start_service_rep_write(const proto_kernel_start_service_rep_t *self,
                          bus_writer_t *writer)
{
    bus_writer_map(writer, 3);
    proto_write_str(writer, "status", self->status);
    proto_write_str(writer, "host", self->host);
    proto_write_uint(writer, "port", self->port);
}

static void
s_start_service_rep_read(proto_kernel_start_service_rep_t *self, proto_in_t *in)
{
    proto_read_str(in, "status", PROTO_REQUIRED, 16, &self->status);
    proto_read_str(in, "host", PROTO_REQUIRED, 64, &self->host);
    proto_read_uint(in, "port", PROTO_REQUIRED, 65535, &self->port);
}

static void
s_start_service_rep_print(const proto_kernel_start_service_rep_t *self,
                          proto_text_t *text)
{
    proto_print_str(text, "status", self->status);
    proto_print_str(text, "host", self->host);
    proto_print_uint(text, "port", self->port);
}

void
proto_kernel_start_service_rep_init(proto_kernel_start_service_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_kernel_start_service_rep_clear(proto_kernel_start_service_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_kernel_start_service_rep_check(const proto_kernel_start_service_rep_t *self,
                                     bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "kernel.start_service reply", err);
    return s_start_service_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_kernel_start_service_rep_write(const proto_kernel_start_service_rep_t *self,
                                     bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_kernel_start_service_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_start_service_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_kernel_start_service_rep_encode(const proto_kernel_start_service_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_kernel_start_service_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_kernel_start_service_rep_read(proto_kernel_start_service_rep_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err)
{
    proto_in_t in;
    proto_kernel_start_service_rep_init(self);
    proto_in_init(&in, "kernel.start_service reply", map, &self->owned_, err);
    s_start_service_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_kernel_start_service_rep_clear(self);
    return in.status;
}

int
proto_kernel_start_service_rep_decode(proto_kernel_start_service_rep_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_kernel_start_service_rep_read(self, map, err);
}

char *
proto_kernel_start_service_rep_print(const proto_kernel_start_service_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_start_service_rep_print(self, &text);
    return proto_text_finish(&text);
}
