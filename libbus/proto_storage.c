//  GENERATED FROM proto/storage.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_storage - codecs of the storage domain

    For each struct: file-static check, write, read and print helpers that
    nested values reuse, then the public functions of proto_storage.h built on
    them. Reading and printing go through the shared runtime in proto.c.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

//  ---------------------------------------------------------------------------
//  storage.volume

static bool
s_volume_check(const proto_storage_volume_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "name", self->name, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "host", self->host, PROTO_REQUIRED, 192))
        return false;
    if (!proto_check_str(ck, "backend", self->backend, PROTO_REQUIRED, 32))
        return false;
    if (!proto_check_str(ck, "path", self->path, 0, 4096))
        return false;
    if (!proto_check_str(ck, "fs_type", self->fs_type, 0, 32))
        return false;
    if (!proto_check_strs(ck, "capabilities", self->capabilities,
                          self->capabilities_count, 16))
        return false;
    return true;
}

static void
s_volume_write(const proto_storage_volume_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 8;
    pairs += self->path != NULL;
    pairs += self->fs_type != NULL;
    pairs += self->capabilities_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "name", self->name);
    proto_write_str(writer, "host", self->host);
    proto_write_str(writer, "backend", self->backend);
    if (self->path != NULL)
        proto_write_str(writer, "path", self->path);
    if (self->fs_type != NULL)
        proto_write_str(writer, "fs_type", self->fs_type);
    if (self->capabilities_count > 0) {
        proto_write_strs(writer, "capabilities", self->capabilities,
                         self->capabilities_count);
    }
    proto_write_uint(writer, "capacity_bytes", self->capacity_bytes);
    proto_write_uint(writer, "used_bytes", self->used_bytes);
    proto_write_uint(writer, "available_bytes", self->available_bytes);
    proto_write_uint(writer, "folders", self->folders);
    proto_write_bool(writer, "project_quota", self->project_quota);
}

static void
s_volume_read(proto_storage_volume_t *self, proto_in_t *in)
{
    proto_read_str(in, "name", PROTO_REQUIRED, 64, &self->name);
    proto_read_str(in, "host", PROTO_REQUIRED, 192, &self->host);
    proto_read_str(in, "backend", PROTO_REQUIRED, 32, &self->backend);
    proto_read_str(in, "path", 0, 4096, &self->path);
    proto_read_str(in, "fs_type", 0, 32, &self->fs_type);
    self->capabilities =
        proto_read_strs(in, "capabilities", 0, 16, &self->capabilities_count);
    proto_read_uint(in, "capacity_bytes", 0, UINT64_MAX, &self->capacity_bytes);
    proto_read_uint(in, "used_bytes", 0, UINT64_MAX, &self->used_bytes);
    proto_read_uint(in, "available_bytes", 0, UINT64_MAX, &self->available_bytes);
    proto_read_uint(in, "folders", 0, UINT64_MAX, &self->folders);
    proto_read_bool(in, "project_quota", 0, &self->project_quota);
}

static void
s_volume_print(const proto_storage_volume_t *self, proto_text_t *text)
{
    proto_print_str(text, "name", self->name);
    proto_print_str(text, "host", self->host);
    proto_print_str(text, "backend", self->backend);
    proto_print_str(text, "path", self->path);
    proto_print_str(text, "fs_type", self->fs_type);
    proto_print_count(text, "capabilities", self->capabilities_count);
    proto_print_uint(text, "capacity_bytes", self->capacity_bytes);
    proto_print_uint(text, "used_bytes", self->used_bytes);
    proto_print_uint(text, "available_bytes", self->available_bytes);
    proto_print_uint(text, "folders", self->folders);
    proto_print_bool(text, "project_quota", self->project_quota);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_volume_item(void *item, proto_in_t *in)
{
    proto_storage_volume_init(item);
    s_volume_read(item, in);
}

void
proto_storage_volume_init(proto_storage_volume_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_volume_clear(proto_storage_volume_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_volume_check(const proto_storage_volume_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.volume", err);
    return s_volume_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_volume_write(const proto_storage_volume_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_volume_check(self, NULL) != BUS_OK)
        return -1;
    s_volume_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_volume_encode(const proto_storage_volume_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_volume_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_volume_read(proto_storage_volume_t *self,
                          const bus_value_t *map,
                          bus_error_t *err)
{
    proto_in_t in;
    proto_storage_volume_init(self);
    proto_in_init(&in, "storage.volume", map, &self->owned_, err);
    s_volume_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_volume_clear(self);
    return in.status;
}

int
proto_storage_volume_decode(proto_storage_volume_t *self,
                            const void *data,
                            size_t size,
                            bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_volume_read(self, map, err);
}

char *
proto_storage_volume_print(const proto_storage_volume_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_volume_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.folder

static bool
s_folder_check(const proto_storage_folder_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "id", self->id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "volume", self->volume, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "host", self->host, 0, 192))
        return false;
    if (!proto_check_str(ck, "state", self->state, PROTO_REQUIRED, 16))
        return false;
    return true;
}

static void
s_folder_write(const proto_storage_folder_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 9;
    pairs += self->host != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "id", self->id);
    proto_write_str(writer, "volume", self->volume);
    if (self->host != NULL)
        proto_write_str(writer, "host", self->host);
    proto_write_str(writer, "state", self->state);
    proto_write_uint(writer, "quota_bytes", self->quota_bytes);
    proto_write_uint(writer, "usage_bytes", self->usage_bytes);
    proto_write_uint(writer, "file_count", self->file_count);
    proto_write_bool(writer, "over_quota", self->over_quota);
    proto_write_int(writer, "scanned_at", self->scanned_at);
    proto_write_int(writer, "created_at", self->created_at);
}

static void
s_folder_read(proto_storage_folder_t *self, proto_in_t *in)
{
    proto_read_str(in, "id", PROTO_REQUIRED, 64, &self->id);
    proto_read_str(in, "volume", PROTO_REQUIRED, 64, &self->volume);
    proto_read_str(in, "host", 0, 192, &self->host);
    proto_read_str(in, "state", PROTO_REQUIRED, 16, &self->state);
    proto_read_uint(in, "quota_bytes", 0, UINT64_MAX, &self->quota_bytes);
    proto_read_uint(in, "usage_bytes", 0, UINT64_MAX, &self->usage_bytes);
    proto_read_uint(in, "file_count", 0, UINT64_MAX, &self->file_count);
    proto_read_bool(in, "over_quota", 0, &self->over_quota);
    proto_read_int(in, "scanned_at", 0, INT64_MIN, INT64_MAX, &self->scanned_at);
    proto_read_int(in, "created_at", 0, INT64_MIN, INT64_MAX, &self->created_at);
}

static void
s_folder_print(const proto_storage_folder_t *self, proto_text_t *text)
{
    proto_print_str(text, "id", self->id);
    proto_print_str(text, "volume", self->volume);
    proto_print_str(text, "host", self->host);
    proto_print_str(text, "state", self->state);
    proto_print_uint(text, "quota_bytes", self->quota_bytes);
    proto_print_uint(text, "usage_bytes", self->usage_bytes);
    proto_print_uint(text, "file_count", self->file_count);
    proto_print_bool(text, "over_quota", self->over_quota);
    proto_print_int(text, "scanned_at", self->scanned_at);
    proto_print_int(text, "created_at", self->created_at);
}

void
proto_storage_folder_init(proto_storage_folder_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_folder_clear(proto_storage_folder_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_folder_check(const proto_storage_folder_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.folder", err);
    return s_folder_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_folder_write(const proto_storage_folder_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_folder_check(self, NULL) != BUS_OK)
        return -1;
    s_folder_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_folder_encode(const proto_storage_folder_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_folder_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_folder_read(proto_storage_folder_t *self,
                          const bus_value_t *map,
                          bus_error_t *err)
{
    proto_in_t in;
    proto_storage_folder_init(self);
    proto_in_init(&in, "storage.folder", map, &self->owned_, err);
    s_folder_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_folder_clear(self);
    return in.status;
}

int
proto_storage_folder_decode(proto_storage_folder_t *self,
                            const void *data,
                            size_t size,
                            bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_folder_read(self, map, err);
}

char *
proto_storage_folder_print(const proto_storage_folder_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_folder_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.entry

static bool
s_entry_check(const proto_storage_entry_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "name", self->name, PROTO_REQUIRED, 255))
        return false;
    if (!proto_check_str(ck, "type", self->type, PROTO_REQUIRED, 16))
        return false;
    return true;
}

static void
s_entry_write(const proto_storage_entry_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 6);
    proto_write_str(writer, "name", self->name);
    proto_write_str(writer, "type", self->type);
    proto_write_uint(writer, "size", self->size);
    proto_write_uint(writer, "mode", self->mode);
    proto_write_int(writer, "mtime", self->mtime);
    proto_write_int(writer, "ctime", self->ctime);
}

static void
s_entry_read(proto_storage_entry_t *self, proto_in_t *in)
{
    proto_read_str(in, "name", PROTO_REQUIRED, 255, &self->name);
    proto_read_str(in, "type", PROTO_REQUIRED, 16, &self->type);
    proto_read_uint(in, "size", 0, UINT64_MAX, &self->size);
    proto_read_uint(in, "mode", 0, UINT64_MAX, &self->mode);
    proto_read_int(in, "mtime", 0, INT64_MIN, INT64_MAX, &self->mtime);
    proto_read_int(in, "ctime", 0, INT64_MIN, INT64_MAX, &self->ctime);
}

static void
s_entry_print(const proto_storage_entry_t *self, proto_text_t *text)
{
    proto_print_str(text, "name", self->name);
    proto_print_str(text, "type", self->type);
    proto_print_uint(text, "size", self->size);
    proto_print_uint(text, "mode", self->mode);
    proto_print_int(text, "mtime", self->mtime);
    proto_print_int(text, "ctime", self->ctime);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_entry_item(void *item, proto_in_t *in)
{
    proto_storage_entry_init(item);
    s_entry_read(item, in);
}

void
proto_storage_entry_init(proto_storage_entry_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_entry_clear(proto_storage_entry_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_entry_check(const proto_storage_entry_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.entry", err);
    return s_entry_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_entry_write(const proto_storage_entry_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_entry_check(self, NULL) != BUS_OK)
        return -1;
    s_entry_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_entry_encode(const proto_storage_entry_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_entry_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_entry_read(proto_storage_entry_t *self,
                         const bus_value_t *map,
                         bus_error_t *err)
{
    proto_in_t in;
    proto_storage_entry_init(self);
    proto_in_init(&in, "storage.entry", map, &self->owned_, err);
    s_entry_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_entry_clear(self);
    return in.status;
}

int
proto_storage_entry_decode(proto_storage_entry_t *self,
                           const void *data,
                           size_t size,
                           bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_entry_read(self, map, err);
}

char *
proto_storage_entry_print(const proto_storage_entry_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_entry_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.result

static bool
s_result_check(const proto_storage_result_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "path", self->path, PROTO_REQUIRED, 4096))
        return false;
    if (!proto_check_str(ck, "detail", self->detail, 0, 512))
        return false;
    return true;
}

static void
s_result_write(const proto_storage_result_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->detail != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "path", self->path);
    proto_write_uint(writer, "status", self->status);
    if (self->detail != NULL)
        proto_write_str(writer, "detail", self->detail);
}

static void
s_result_read(proto_storage_result_t *self, proto_in_t *in)
{
    proto_read_str(in, "path", PROTO_REQUIRED, 4096, &self->path);
    proto_read_uint(in, "status", 0, UINT64_MAX, &self->status);
    proto_read_str(in, "detail", 0, 512, &self->detail);
}

static void
s_result_print(const proto_storage_result_t *self, proto_text_t *text)
{
    proto_print_str(text, "path", self->path);
    proto_print_uint(text, "status", self->status);
    proto_print_str(text, "detail", self->detail);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_result_item(void *item, proto_in_t *in)
{
    proto_storage_result_init(item);
    s_result_read(item, in);
}

void
proto_storage_result_init(proto_storage_result_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_result_clear(proto_storage_result_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_result_check(const proto_storage_result_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.result", err);
    return s_result_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_result_write(const proto_storage_result_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_result_check(self, NULL) != BUS_OK)
        return -1;
    s_result_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_result_encode(const proto_storage_result_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_result_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_result_read(proto_storage_result_t *self,
                          const bus_value_t *map,
                          bus_error_t *err)
{
    proto_in_t in;
    proto_storage_result_init(self);
    proto_in_init(&in, "storage.result", map, &self->owned_, err);
    s_result_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_result_clear(self);
    return in.status;
}

int
proto_storage_result_decode(proto_storage_result_t *self,
                            const void *data,
                            size_t size,
                            bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_result_read(self, map, err);
}

char *
proto_storage_result_print(const proto_storage_result_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_result_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.volumes request

static bool
s_volumes_req_check(const proto_storage_volumes_req_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_volumes_req_write(const proto_storage_volumes_req_t *self, bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_volumes_req_read(proto_storage_volumes_req_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_volumes_req_print(const proto_storage_volumes_req_t *self, proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_storage_volumes_req_init(proto_storage_volumes_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_volumes_req_clear(proto_storage_volumes_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_volumes_req_check(const proto_storage_volumes_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.volumes request", err);
    return s_volumes_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_volumes_req_write(const proto_storage_volumes_req_t *self,
                                bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_volumes_req_check(self, NULL) != BUS_OK)
        return -1;
    s_volumes_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_storage_volumes_req_writer(const proto_storage_volumes_req_t *self,
                                 bus_error_t *err)
{
    assert(self);
    if (proto_storage_volumes_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "storage.volumes request: out of memory");
        return NULL;
    }
    s_volumes_req_write(self, writer);
    return writer;
}

zframe_t *
proto_storage_volumes_req_encode(const proto_storage_volumes_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_volumes_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_volumes_req_read(proto_storage_volumes_req_t *self,
                               const bus_value_t *map,
                               bus_error_t *err)
{
    proto_in_t in;
    proto_storage_volumes_req_init(self);
    proto_in_init(&in, "storage.volumes request", map, &self->owned_, err);
    s_volumes_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_volumes_req_clear(self);
    return in.status;
}

int
proto_storage_volumes_req_decode(proto_storage_volumes_req_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_volumes_req_read(self, map, err);
}

char *
proto_storage_volumes_req_print(const proto_storage_volumes_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_volumes_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.volumes reply

static bool
s_volumes_rep_check(const proto_storage_volumes_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "proxy", self->proxy, PROTO_REQUIRED, 128))
        return false;
    if (!proto_check_str(ck, "url", self->url, 0, 512))
        return false;
    if (!proto_check_count(ck, "volumes", self->volumes, self->volumes_count, 256))
        return false;
    for (size_t i = 0; i < self->volumes_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "volumes", i);
        if (!s_volume_check(&self->volumes[i], &item))
            return false;
    }
    return true;
}

static void
s_volumes_rep_write(const proto_storage_volumes_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->url != NULL;
    pairs += self->volumes_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "proxy", self->proxy);
    if (self->url != NULL)
        proto_write_str(writer, "url", self->url);
    if (self->volumes_count > 0) {
        proto_write_array(writer, "volumes", self->volumes_count);
        for (size_t i = 0; i < self->volumes_count; i++)
            s_volume_write(&self->volumes[i], writer);
    }
}

static void
s_volumes_rep_read(proto_storage_volumes_rep_t *self, proto_in_t *in)
{
    proto_read_str(in, "proxy", PROTO_REQUIRED, 128, &self->proxy);
    proto_read_str(in, "url", 0, 512, &self->url);
    self->volumes = proto_read_list(in, "volumes", 0, 256, sizeof *self->volumes,
                                    s_volume_item, &self->volumes_count);
}

static void
s_volumes_rep_print(const proto_storage_volumes_rep_t *self, proto_text_t *text)
{
    proto_print_str(text, "proxy", self->proxy);
    proto_print_str(text, "url", self->url);
    proto_print_count(text, "volumes", self->volumes_count);
}

void
proto_storage_volumes_rep_init(proto_storage_volumes_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_volumes_rep_clear(proto_storage_volumes_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_volumes_rep_check(const proto_storage_volumes_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.volumes reply", err);
    return s_volumes_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_volumes_rep_write(const proto_storage_volumes_rep_t *self,
                                bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_volumes_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_volumes_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_volumes_rep_encode(const proto_storage_volumes_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_volumes_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_volumes_rep_read(proto_storage_volumes_rep_t *self,
                               const bus_value_t *map,
                               bus_error_t *err)
{
    proto_in_t in;
    proto_storage_volumes_rep_init(self);
    proto_in_init(&in, "storage.volumes reply", map, &self->owned_, err);
    s_volumes_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_volumes_rep_clear(self);
    return in.status;
}

int
proto_storage_volumes_rep_decode(proto_storage_volumes_rep_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_volumes_rep_read(self, map, err);
}

char *
proto_storage_volumes_rep_print(const proto_storage_volumes_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_volumes_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.folder.create request

static bool
s_folder_create_req_check(const proto_storage_folder_create_req_t *self,
                          proto_check_t *ck)
{
    if (!proto_check_str(ck, "volume", self->volume, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "id", self->id, PROTO_REQUIRED, 64))
        return false;
    return true;
}

static void
s_folder_create_req_write(const proto_storage_folder_create_req_t *self,
                          bus_writer_t *writer)
{
    bus_writer_map(writer, 3);
    proto_write_str(writer, "volume", self->volume);
    proto_write_str(writer, "id", self->id);
    proto_write_uint(writer, "quota_bytes", self->quota_bytes);
}

static void
s_folder_create_req_read(proto_storage_folder_create_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "volume", PROTO_REQUIRED, 64, &self->volume);
    proto_read_str(in, "id", PROTO_REQUIRED, 64, &self->id);
    proto_read_uint(in, "quota_bytes", 0, UINT64_MAX, &self->quota_bytes);
}

static void
s_folder_create_req_print(const proto_storage_folder_create_req_t *self,
                          proto_text_t *text)
{
    proto_print_str(text, "volume", self->volume);
    proto_print_str(text, "id", self->id);
    proto_print_uint(text, "quota_bytes", self->quota_bytes);
}

void
proto_storage_folder_create_req_init(proto_storage_folder_create_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_folder_create_req_clear(proto_storage_folder_create_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_folder_create_req_check(const proto_storage_folder_create_req_t *self,
                                      bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.folder.create request", err);
    return s_folder_create_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_folder_create_req_write(const proto_storage_folder_create_req_t *self,
                                      bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_folder_create_req_check(self, NULL) != BUS_OK)
        return -1;
    s_folder_create_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_storage_folder_create_req_writer(const proto_storage_folder_create_req_t *self,
                                       bus_error_t *err)
{
    assert(self);
    if (proto_storage_folder_create_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "storage.folder.create request: out of memory");
        return NULL;
    }
    s_folder_create_req_write(self, writer);
    return writer;
}

zframe_t *
proto_storage_folder_create_req_encode(const proto_storage_folder_create_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_folder_create_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_folder_create_req_read(proto_storage_folder_create_req_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err)
{
    proto_in_t in;
    proto_storage_folder_create_req_init(self);
    proto_in_init(&in, "storage.folder.create request", map, &self->owned_, err);
    s_folder_create_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_folder_create_req_clear(self);
    return in.status;
}

int
proto_storage_folder_create_req_decode(proto_storage_folder_create_req_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_folder_create_req_read(self, map, err);
}

char *
proto_storage_folder_create_req_print(const proto_storage_folder_create_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_folder_create_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.folder.create reply

static bool
s_folder_create_rep_check(const proto_storage_folder_create_rep_t *self,
                          proto_check_t *ck)
{
    proto_check_t sub;
    proto_check_enter(ck, &sub, "folder", PROTO_NO_INDEX);
    if (!s_folder_check(&self->folder, &sub))
        return false;
    return true;
}

static void
s_folder_create_rep_write(const proto_storage_folder_create_rep_t *self,
                          bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    bus_writer_str(writer, "folder");
    s_folder_write(&self->folder, writer);
}

static void
s_folder_create_rep_read(proto_storage_folder_create_rep_t *self, proto_in_t *in)
{
    proto_in_t sub;
    if (proto_read_nested(in, "folder", PROTO_REQUIRED, &sub))
        s_folder_read(&self->folder, &sub);
}

static void
s_folder_create_rep_print(const proto_storage_folder_create_rep_t *self,
                          proto_text_t *text)
{
    size_t mark;
    mark = proto_text_enter(text, "folder");
    s_folder_print(&self->folder, text);
    proto_text_leave(text, mark);
}

void
proto_storage_folder_create_rep_init(proto_storage_folder_create_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_folder_create_rep_clear(proto_storage_folder_create_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    proto_storage_folder_clear(&self->folder);
    memset(self, 0, sizeof *self);
}

int
proto_storage_folder_create_rep_check(const proto_storage_folder_create_rep_t *self,
                                      bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.folder.create reply", err);
    return s_folder_create_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_folder_create_rep_write(const proto_storage_folder_create_rep_t *self,
                                      bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_folder_create_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_folder_create_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_folder_create_rep_encode(const proto_storage_folder_create_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_folder_create_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_folder_create_rep_read(proto_storage_folder_create_rep_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err)
{
    proto_in_t in;
    proto_storage_folder_create_rep_init(self);
    proto_in_init(&in, "storage.folder.create reply", map, &self->owned_, err);
    s_folder_create_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_folder_create_rep_clear(self);
    return in.status;
}

int
proto_storage_folder_create_rep_decode(proto_storage_folder_create_rep_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_folder_create_rep_read(self, map, err);
}

char *
proto_storage_folder_create_rep_print(const proto_storage_folder_create_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_folder_create_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.folder.delete request

static bool
s_folder_delete_req_check(const proto_storage_folder_delete_req_t *self,
                          proto_check_t *ck)
{
    if (!proto_check_str(ck, "id", self->id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "volume", self->volume, 0, 64))
        return false;
    return true;
}

static void
s_folder_delete_req_write(const proto_storage_folder_delete_req_t *self,
                          bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->volume != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "id", self->id);
    if (self->volume != NULL)
        proto_write_str(writer, "volume", self->volume);
}

static void
s_folder_delete_req_read(proto_storage_folder_delete_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "id", PROTO_REQUIRED, 64, &self->id);
    proto_read_str(in, "volume", 0, 64, &self->volume);
}

static void
s_folder_delete_req_print(const proto_storage_folder_delete_req_t *self,
                          proto_text_t *text)
{
    proto_print_str(text, "id", self->id);
    proto_print_str(text, "volume", self->volume);
}

void
proto_storage_folder_delete_req_init(proto_storage_folder_delete_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_folder_delete_req_clear(proto_storage_folder_delete_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_folder_delete_req_check(const proto_storage_folder_delete_req_t *self,
                                      bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.folder.delete request", err);
    return s_folder_delete_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_folder_delete_req_write(const proto_storage_folder_delete_req_t *self,
                                      bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_folder_delete_req_check(self, NULL) != BUS_OK)
        return -1;
    s_folder_delete_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_storage_folder_delete_req_writer(const proto_storage_folder_delete_req_t *self,
                                       bus_error_t *err)
{
    assert(self);
    if (proto_storage_folder_delete_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "storage.folder.delete request: out of memory");
        return NULL;
    }
    s_folder_delete_req_write(self, writer);
    return writer;
}

zframe_t *
proto_storage_folder_delete_req_encode(const proto_storage_folder_delete_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_folder_delete_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_folder_delete_req_read(proto_storage_folder_delete_req_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err)
{
    proto_in_t in;
    proto_storage_folder_delete_req_init(self);
    proto_in_init(&in, "storage.folder.delete request", map, &self->owned_, err);
    s_folder_delete_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_folder_delete_req_clear(self);
    return in.status;
}

int
proto_storage_folder_delete_req_decode(proto_storage_folder_delete_req_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_folder_delete_req_read(self, map, err);
}

char *
proto_storage_folder_delete_req_print(const proto_storage_folder_delete_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_folder_delete_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.folder.delete reply

static bool
s_folder_delete_rep_check(const proto_storage_folder_delete_rep_t *self,
                          proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_folder_delete_rep_write(const proto_storage_folder_delete_rep_t *self,
                          bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_folder_delete_rep_read(proto_storage_folder_delete_rep_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_folder_delete_rep_print(const proto_storage_folder_delete_rep_t *self,
                          proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_storage_folder_delete_rep_init(proto_storage_folder_delete_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_folder_delete_rep_clear(proto_storage_folder_delete_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_folder_delete_rep_check(const proto_storage_folder_delete_rep_t *self,
                                      bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.folder.delete reply", err);
    return s_folder_delete_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_folder_delete_rep_write(const proto_storage_folder_delete_rep_t *self,
                                      bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_folder_delete_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_folder_delete_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_folder_delete_rep_encode(const proto_storage_folder_delete_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_folder_delete_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_folder_delete_rep_read(proto_storage_folder_delete_rep_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err)
{
    proto_in_t in;
    proto_storage_folder_delete_rep_init(self);
    proto_in_init(&in, "storage.folder.delete reply", map, &self->owned_, err);
    s_folder_delete_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_folder_delete_rep_clear(self);
    return in.status;
}

int
proto_storage_folder_delete_rep_decode(proto_storage_folder_delete_rep_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_folder_delete_rep_read(self, map, err);
}

char *
proto_storage_folder_delete_rep_print(const proto_storage_folder_delete_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_folder_delete_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.folder.clone request

static bool
s_folder_clone_req_check(const proto_storage_folder_clone_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "id", self->id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "volume", self->volume, 0, 64))
        return false;
    if (!proto_check_str(ck, "target_id", self->target_id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "target_volume", self->target_volume, 0, 64))
        return false;
    return true;
}

static void
s_folder_clone_req_write(const proto_storage_folder_clone_req_t *self,
                         bus_writer_t *writer)
{
    uint32_t pairs = 3;
    pairs += self->volume != NULL;
    pairs += self->target_volume != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "id", self->id);
    if (self->volume != NULL)
        proto_write_str(writer, "volume", self->volume);
    proto_write_str(writer, "target_id", self->target_id);
    if (self->target_volume != NULL)
        proto_write_str(writer, "target_volume", self->target_volume);
    proto_write_uint(writer, "quota_bytes", self->quota_bytes);
}

static void
s_folder_clone_req_read(proto_storage_folder_clone_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "id", PROTO_REQUIRED, 64, &self->id);
    proto_read_str(in, "volume", 0, 64, &self->volume);
    proto_read_str(in, "target_id", PROTO_REQUIRED, 64, &self->target_id);
    proto_read_str(in, "target_volume", 0, 64, &self->target_volume);
    proto_read_uint(in, "quota_bytes", 0, UINT64_MAX, &self->quota_bytes);
}

static void
s_folder_clone_req_print(const proto_storage_folder_clone_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "id", self->id);
    proto_print_str(text, "volume", self->volume);
    proto_print_str(text, "target_id", self->target_id);
    proto_print_str(text, "target_volume", self->target_volume);
    proto_print_uint(text, "quota_bytes", self->quota_bytes);
}

void
proto_storage_folder_clone_req_init(proto_storage_folder_clone_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_folder_clone_req_clear(proto_storage_folder_clone_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_folder_clone_req_check(const proto_storage_folder_clone_req_t *self,
                                     bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.folder.clone request", err);
    return s_folder_clone_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_folder_clone_req_write(const proto_storage_folder_clone_req_t *self,
                                     bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_folder_clone_req_check(self, NULL) != BUS_OK)
        return -1;
    s_folder_clone_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_storage_folder_clone_req_writer(const proto_storage_folder_clone_req_t *self,
                                      bus_error_t *err)
{
    assert(self);
    if (proto_storage_folder_clone_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "storage.folder.clone request: out of memory");
        return NULL;
    }
    s_folder_clone_req_write(self, writer);
    return writer;
}

zframe_t *
proto_storage_folder_clone_req_encode(const proto_storage_folder_clone_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_folder_clone_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_folder_clone_req_read(proto_storage_folder_clone_req_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err)
{
    proto_in_t in;
    proto_storage_folder_clone_req_init(self);
    proto_in_init(&in, "storage.folder.clone request", map, &self->owned_, err);
    s_folder_clone_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_folder_clone_req_clear(self);
    return in.status;
}

int
proto_storage_folder_clone_req_decode(proto_storage_folder_clone_req_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_folder_clone_req_read(self, map, err);
}

char *
proto_storage_folder_clone_req_print(const proto_storage_folder_clone_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_folder_clone_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.folder.clone reply

static bool
s_folder_clone_rep_check(const proto_storage_folder_clone_rep_t *self, proto_check_t *ck)
{
    proto_check_t sub;
    proto_check_enter(ck, &sub, "folder", PROTO_NO_INDEX);
    if (!s_folder_check(&self->folder, &sub))
        return false;
    return true;
}

static void
s_folder_clone_rep_write(const proto_storage_folder_clone_rep_t *self,
                         bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    bus_writer_str(writer, "folder");
    s_folder_write(&self->folder, writer);
}

static void
s_folder_clone_rep_read(proto_storage_folder_clone_rep_t *self, proto_in_t *in)
{
    proto_in_t sub;
    if (proto_read_nested(in, "folder", PROTO_REQUIRED, &sub))
        s_folder_read(&self->folder, &sub);
}

static void
s_folder_clone_rep_print(const proto_storage_folder_clone_rep_t *self, proto_text_t *text)
{
    size_t mark;
    mark = proto_text_enter(text, "folder");
    s_folder_print(&self->folder, text);
    proto_text_leave(text, mark);
}

void
proto_storage_folder_clone_rep_init(proto_storage_folder_clone_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_folder_clone_rep_clear(proto_storage_folder_clone_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    proto_storage_folder_clear(&self->folder);
    memset(self, 0, sizeof *self);
}

int
proto_storage_folder_clone_rep_check(const proto_storage_folder_clone_rep_t *self,
                                     bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.folder.clone reply", err);
    return s_folder_clone_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_folder_clone_rep_write(const proto_storage_folder_clone_rep_t *self,
                                     bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_folder_clone_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_folder_clone_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_folder_clone_rep_encode(const proto_storage_folder_clone_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_folder_clone_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_folder_clone_rep_read(proto_storage_folder_clone_rep_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err)
{
    proto_in_t in;
    proto_storage_folder_clone_rep_init(self);
    proto_in_init(&in, "storage.folder.clone reply", map, &self->owned_, err);
    s_folder_clone_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_folder_clone_rep_clear(self);
    return in.status;
}

int
proto_storage_folder_clone_rep_decode(proto_storage_folder_clone_rep_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_folder_clone_rep_read(self, map, err);
}

char *
proto_storage_folder_clone_rep_print(const proto_storage_folder_clone_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_folder_clone_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.folder.usage request

static bool
s_folder_usage_req_check(const proto_storage_folder_usage_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "id", self->id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "volume", self->volume, 0, 64))
        return false;
    return true;
}

static void
s_folder_usage_req_write(const proto_storage_folder_usage_req_t *self,
                         bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->volume != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "id", self->id);
    if (self->volume != NULL)
        proto_write_str(writer, "volume", self->volume);
    proto_write_bool(writer, "rescan", self->rescan);
}

static void
s_folder_usage_req_read(proto_storage_folder_usage_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "id", PROTO_REQUIRED, 64, &self->id);
    proto_read_str(in, "volume", 0, 64, &self->volume);
    proto_read_bool(in, "rescan", 0, &self->rescan);
}

static void
s_folder_usage_req_print(const proto_storage_folder_usage_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "id", self->id);
    proto_print_str(text, "volume", self->volume);
    proto_print_bool(text, "rescan", self->rescan);
}

void
proto_storage_folder_usage_req_init(proto_storage_folder_usage_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_folder_usage_req_clear(proto_storage_folder_usage_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_folder_usage_req_check(const proto_storage_folder_usage_req_t *self,
                                     bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.folder.usage request", err);
    return s_folder_usage_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_folder_usage_req_write(const proto_storage_folder_usage_req_t *self,
                                     bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_folder_usage_req_check(self, NULL) != BUS_OK)
        return -1;
    s_folder_usage_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_storage_folder_usage_req_writer(const proto_storage_folder_usage_req_t *self,
                                      bus_error_t *err)
{
    assert(self);
    if (proto_storage_folder_usage_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "storage.folder.usage request: out of memory");
        return NULL;
    }
    s_folder_usage_req_write(self, writer);
    return writer;
}

zframe_t *
proto_storage_folder_usage_req_encode(const proto_storage_folder_usage_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_folder_usage_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_folder_usage_req_read(proto_storage_folder_usage_req_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err)
{
    proto_in_t in;
    proto_storage_folder_usage_req_init(self);
    proto_in_init(&in, "storage.folder.usage request", map, &self->owned_, err);
    s_folder_usage_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_folder_usage_req_clear(self);
    return in.status;
}

int
proto_storage_folder_usage_req_decode(proto_storage_folder_usage_req_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_folder_usage_req_read(self, map, err);
}

char *
proto_storage_folder_usage_req_print(const proto_storage_folder_usage_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_folder_usage_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.folder.usage reply

static bool
s_folder_usage_rep_check(const proto_storage_folder_usage_rep_t *self, proto_check_t *ck)
{
    proto_check_t sub;
    proto_check_enter(ck, &sub, "folder", PROTO_NO_INDEX);
    if (!s_folder_check(&self->folder, &sub))
        return false;
    return true;
}

static void
s_folder_usage_rep_write(const proto_storage_folder_usage_rep_t *self,
                         bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    bus_writer_str(writer, "folder");
    s_folder_write(&self->folder, writer);
}

static void
s_folder_usage_rep_read(proto_storage_folder_usage_rep_t *self, proto_in_t *in)
{
    proto_in_t sub;
    if (proto_read_nested(in, "folder", PROTO_REQUIRED, &sub))
        s_folder_read(&self->folder, &sub);
}

static void
s_folder_usage_rep_print(const proto_storage_folder_usage_rep_t *self, proto_text_t *text)
{
    size_t mark;
    mark = proto_text_enter(text, "folder");
    s_folder_print(&self->folder, text);
    proto_text_leave(text, mark);
}

void
proto_storage_folder_usage_rep_init(proto_storage_folder_usage_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_folder_usage_rep_clear(proto_storage_folder_usage_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    proto_storage_folder_clear(&self->folder);
    memset(self, 0, sizeof *self);
}

int
proto_storage_folder_usage_rep_check(const proto_storage_folder_usage_rep_t *self,
                                     bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.folder.usage reply", err);
    return s_folder_usage_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_folder_usage_rep_write(const proto_storage_folder_usage_rep_t *self,
                                     bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_folder_usage_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_folder_usage_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_folder_usage_rep_encode(const proto_storage_folder_usage_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_folder_usage_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_folder_usage_rep_read(proto_storage_folder_usage_rep_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err)
{
    proto_in_t in;
    proto_storage_folder_usage_rep_init(self);
    proto_in_init(&in, "storage.folder.usage reply", map, &self->owned_, err);
    s_folder_usage_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_folder_usage_rep_clear(self);
    return in.status;
}

int
proto_storage_folder_usage_rep_decode(proto_storage_folder_usage_rep_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_folder_usage_rep_read(self, map, err);
}

char *
proto_storage_folder_usage_rep_print(const proto_storage_folder_usage_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_folder_usage_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.folder.quota request

static bool
s_folder_quota_req_check(const proto_storage_folder_quota_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "id", self->id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "volume", self->volume, 0, 64))
        return false;
    return true;
}

static void
s_folder_quota_req_write(const proto_storage_folder_quota_req_t *self,
                         bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->volume != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "id", self->id);
    if (self->volume != NULL)
        proto_write_str(writer, "volume", self->volume);
    proto_write_uint(writer, "quota_bytes", self->quota_bytes);
}

static void
s_folder_quota_req_read(proto_storage_folder_quota_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "id", PROTO_REQUIRED, 64, &self->id);
    proto_read_str(in, "volume", 0, 64, &self->volume);
    proto_read_uint(in, "quota_bytes", 0, UINT64_MAX, &self->quota_bytes);
}

static void
s_folder_quota_req_print(const proto_storage_folder_quota_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "id", self->id);
    proto_print_str(text, "volume", self->volume);
    proto_print_uint(text, "quota_bytes", self->quota_bytes);
}

void
proto_storage_folder_quota_req_init(proto_storage_folder_quota_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_folder_quota_req_clear(proto_storage_folder_quota_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_folder_quota_req_check(const proto_storage_folder_quota_req_t *self,
                                     bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.folder.quota request", err);
    return s_folder_quota_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_folder_quota_req_write(const proto_storage_folder_quota_req_t *self,
                                     bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_folder_quota_req_check(self, NULL) != BUS_OK)
        return -1;
    s_folder_quota_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_storage_folder_quota_req_writer(const proto_storage_folder_quota_req_t *self,
                                      bus_error_t *err)
{
    assert(self);
    if (proto_storage_folder_quota_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "storage.folder.quota request: out of memory");
        return NULL;
    }
    s_folder_quota_req_write(self, writer);
    return writer;
}

zframe_t *
proto_storage_folder_quota_req_encode(const proto_storage_folder_quota_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_folder_quota_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_folder_quota_req_read(proto_storage_folder_quota_req_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err)
{
    proto_in_t in;
    proto_storage_folder_quota_req_init(self);
    proto_in_init(&in, "storage.folder.quota request", map, &self->owned_, err);
    s_folder_quota_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_folder_quota_req_clear(self);
    return in.status;
}

int
proto_storage_folder_quota_req_decode(proto_storage_folder_quota_req_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_folder_quota_req_read(self, map, err);
}

char *
proto_storage_folder_quota_req_print(const proto_storage_folder_quota_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_folder_quota_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.folder.quota reply

static bool
s_folder_quota_rep_check(const proto_storage_folder_quota_rep_t *self, proto_check_t *ck)
{
    proto_check_t sub;
    proto_check_enter(ck, &sub, "folder", PROTO_NO_INDEX);
    if (!s_folder_check(&self->folder, &sub))
        return false;
    return true;
}

static void
s_folder_quota_rep_write(const proto_storage_folder_quota_rep_t *self,
                         bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    bus_writer_str(writer, "folder");
    s_folder_write(&self->folder, writer);
}

static void
s_folder_quota_rep_read(proto_storage_folder_quota_rep_t *self, proto_in_t *in)
{
    proto_in_t sub;
    if (proto_read_nested(in, "folder", PROTO_REQUIRED, &sub))
        s_folder_read(&self->folder, &sub);
}

static void
s_folder_quota_rep_print(const proto_storage_folder_quota_rep_t *self, proto_text_t *text)
{
    size_t mark;
    mark = proto_text_enter(text, "folder");
    s_folder_print(&self->folder, text);
    proto_text_leave(text, mark);
}

void
proto_storage_folder_quota_rep_init(proto_storage_folder_quota_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_folder_quota_rep_clear(proto_storage_folder_quota_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    proto_storage_folder_clear(&self->folder);
    memset(self, 0, sizeof *self);
}

int
proto_storage_folder_quota_rep_check(const proto_storage_folder_quota_rep_t *self,
                                     bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.folder.quota reply", err);
    return s_folder_quota_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_folder_quota_rep_write(const proto_storage_folder_quota_rep_t *self,
                                     bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_folder_quota_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_folder_quota_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_folder_quota_rep_encode(const proto_storage_folder_quota_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_folder_quota_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_folder_quota_rep_read(proto_storage_folder_quota_rep_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err)
{
    proto_in_t in;
    proto_storage_folder_quota_rep_init(self);
    proto_in_init(&in, "storage.folder.quota reply", map, &self->owned_, err);
    s_folder_quota_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_folder_quota_rep_clear(self);
    return in.status;
}

int
proto_storage_folder_quota_rep_decode(proto_storage_folder_quota_rep_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_folder_quota_rep_read(self, map, err);
}

char *
proto_storage_folder_quota_rep_print(const proto_storage_folder_quota_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_folder_quota_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.folder.mount_path request

static bool
s_folder_mount_path_req_check(const proto_storage_folder_mount_path_req_t *self,
                              proto_check_t *ck)
{
    if (!proto_check_str(ck, "id", self->id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "volume", self->volume, 0, 64))
        return false;
    return true;
}

static void
s_folder_mount_path_req_write(const proto_storage_folder_mount_path_req_t *self,
                              bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->volume != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "id", self->id);
    if (self->volume != NULL)
        proto_write_str(writer, "volume", self->volume);
}

static void
s_folder_mount_path_req_read(proto_storage_folder_mount_path_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "id", PROTO_REQUIRED, 64, &self->id);
    proto_read_str(in, "volume", 0, 64, &self->volume);
}

static void
s_folder_mount_path_req_print(const proto_storage_folder_mount_path_req_t *self,
                              proto_text_t *text)
{
    proto_print_str(text, "id", self->id);
    proto_print_str(text, "volume", self->volume);
}

void
proto_storage_folder_mount_path_req_init(proto_storage_folder_mount_path_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_folder_mount_path_req_clear(proto_storage_folder_mount_path_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_folder_mount_path_req_check(const proto_storage_folder_mount_path_req_t *self,
                                          bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.folder.mount_path request", err);
    return s_folder_mount_path_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_folder_mount_path_req_write(const proto_storage_folder_mount_path_req_t *self,
                                          bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_folder_mount_path_req_check(self, NULL) != BUS_OK)
        return -1;
    s_folder_mount_path_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_storage_folder_mount_path_req_writer(const proto_storage_folder_mount_path_req_t *self,
                                           bus_error_t *err)
{
    assert(self);
    if (proto_storage_folder_mount_path_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "storage.folder.mount_path request: out of memory");
        return NULL;
    }
    s_folder_mount_path_req_write(self, writer);
    return writer;
}

zframe_t *
proto_storage_folder_mount_path_req_encode(const proto_storage_folder_mount_path_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_folder_mount_path_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_folder_mount_path_req_read(proto_storage_folder_mount_path_req_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err)
{
    proto_in_t in;
    proto_storage_folder_mount_path_req_init(self);
    proto_in_init(&in, "storage.folder.mount_path request", map, &self->owned_, err);
    s_folder_mount_path_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_folder_mount_path_req_clear(self);
    return in.status;
}

int
proto_storage_folder_mount_path_req_decode(proto_storage_folder_mount_path_req_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_folder_mount_path_req_read(self, map, err);
}

char *
proto_storage_folder_mount_path_req_print(const proto_storage_folder_mount_path_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_folder_mount_path_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.folder.mount_path reply

static bool
s_folder_mount_path_rep_check(const proto_storage_folder_mount_path_rep_t *self,
                              proto_check_t *ck)
{
    if (!proto_check_str(ck, "path", self->path, PROTO_REQUIRED, 4096))
        return false;
    if (!proto_check_str(ck, "host", self->host, 0, 192))
        return false;
    if (!proto_check_str(ck, "backend", self->backend, 0, 32))
        return false;
    return true;
}

static void
s_folder_mount_path_rep_write(const proto_storage_folder_mount_path_rep_t *self,
                              bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->host != NULL;
    pairs += self->backend != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "path", self->path);
    if (self->host != NULL)
        proto_write_str(writer, "host", self->host);
    if (self->backend != NULL)
        proto_write_str(writer, "backend", self->backend);
}

static void
s_folder_mount_path_rep_read(proto_storage_folder_mount_path_rep_t *self, proto_in_t *in)
{
    proto_read_str(in, "path", PROTO_REQUIRED, 4096, &self->path);
    proto_read_str(in, "host", 0, 192, &self->host);
    proto_read_str(in, "backend", 0, 32, &self->backend);
}

static void
s_folder_mount_path_rep_print(const proto_storage_folder_mount_path_rep_t *self,
                              proto_text_t *text)
{
    proto_print_str(text, "path", self->path);
    proto_print_str(text, "host", self->host);
    proto_print_str(text, "backend", self->backend);
}

void
proto_storage_folder_mount_path_rep_init(proto_storage_folder_mount_path_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_folder_mount_path_rep_clear(proto_storage_folder_mount_path_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_folder_mount_path_rep_check(const proto_storage_folder_mount_path_rep_t *self,
                                          bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.folder.mount_path reply", err);
    return s_folder_mount_path_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_folder_mount_path_rep_write(const proto_storage_folder_mount_path_rep_t *self,
                                          bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_folder_mount_path_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_folder_mount_path_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_folder_mount_path_rep_encode(const proto_storage_folder_mount_path_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_folder_mount_path_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_folder_mount_path_rep_read(proto_storage_folder_mount_path_rep_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err)
{
    proto_in_t in;
    proto_storage_folder_mount_path_rep_init(self);
    proto_in_init(&in, "storage.folder.mount_path reply", map, &self->owned_, err);
    s_folder_mount_path_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_folder_mount_path_rep_clear(self);
    return in.status;
}

int
proto_storage_folder_mount_path_rep_decode(proto_storage_folder_mount_path_rep_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_folder_mount_path_rep_read(self, map, err);
}

char *
proto_storage_folder_mount_path_rep_print(const proto_storage_folder_mount_path_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_folder_mount_path_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.files.list request

static bool
s_files_list_req_check(const proto_storage_files_list_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "id", self->id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "volume", self->volume, 0, 64))
        return false;
    if (!proto_check_str(ck, "path", self->path, 0, 4096))
        return false;
    if (!proto_check_str(ck, "cursor", self->cursor, 0, 255))
        return false;
    if (!proto_check_uint(ck, "limit", self->limit, 100000))
        return false;
    return true;
}

static void
s_files_list_req_write(const proto_storage_files_list_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->volume != NULL;
    pairs += self->path != NULL;
    pairs += self->cursor != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "id", self->id);
    if (self->volume != NULL)
        proto_write_str(writer, "volume", self->volume);
    if (self->path != NULL)
        proto_write_str(writer, "path", self->path);
    if (self->cursor != NULL)
        proto_write_str(writer, "cursor", self->cursor);
    proto_write_uint(writer, "limit", self->limit);
}

static void
s_files_list_req_read(proto_storage_files_list_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "id", PROTO_REQUIRED, 64, &self->id);
    proto_read_str(in, "volume", 0, 64, &self->volume);
    proto_read_str(in, "path", 0, 4096, &self->path);
    proto_read_str(in, "cursor", 0, 255, &self->cursor);
    proto_read_uint(in, "limit", 0, 100000, &self->limit);
}

static void
s_files_list_req_print(const proto_storage_files_list_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "id", self->id);
    proto_print_str(text, "volume", self->volume);
    proto_print_str(text, "path", self->path);
    proto_print_str(text, "cursor", self->cursor);
    proto_print_uint(text, "limit", self->limit);
}

void
proto_storage_files_list_req_init(proto_storage_files_list_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_files_list_req_clear(proto_storage_files_list_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_files_list_req_check(const proto_storage_files_list_req_t *self,
                                   bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.files.list request", err);
    return s_files_list_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_files_list_req_write(const proto_storage_files_list_req_t *self,
                                   bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_files_list_req_check(self, NULL) != BUS_OK)
        return -1;
    s_files_list_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_storage_files_list_req_writer(const proto_storage_files_list_req_t *self,
                                    bus_error_t *err)
{
    assert(self);
    if (proto_storage_files_list_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "storage.files.list request: out of memory");
        return NULL;
    }
    s_files_list_req_write(self, writer);
    return writer;
}

zframe_t *
proto_storage_files_list_req_encode(const proto_storage_files_list_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_files_list_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_files_list_req_read(proto_storage_files_list_req_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err)
{
    proto_in_t in;
    proto_storage_files_list_req_init(self);
    proto_in_init(&in, "storage.files.list request", map, &self->owned_, err);
    s_files_list_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_files_list_req_clear(self);
    return in.status;
}

int
proto_storage_files_list_req_decode(proto_storage_files_list_req_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_files_list_req_read(self, map, err);
}

char *
proto_storage_files_list_req_print(const proto_storage_files_list_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_files_list_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.files.list reply

static bool
s_files_list_rep_check(const proto_storage_files_list_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_count(ck, "entries", self->entries, self->entries_count, 100000))
        return false;
    for (size_t i = 0; i < self->entries_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "entries", i);
        if (!s_entry_check(&self->entries[i], &item))
            return false;
    }
    if (!proto_check_str(ck, "cursor", self->cursor, 0, 255))
        return false;
    return true;
}

static void
s_files_list_rep_write(const proto_storage_files_list_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->entries_count > 0;
    pairs += self->cursor != NULL;
    bus_writer_map(writer, pairs);
    if (self->entries_count > 0) {
        proto_write_array(writer, "entries", self->entries_count);
        for (size_t i = 0; i < self->entries_count; i++)
            s_entry_write(&self->entries[i], writer);
    }
    proto_write_uint(writer, "total", self->total);
    proto_write_bool(writer, "more", self->more);
    if (self->cursor != NULL)
        proto_write_str(writer, "cursor", self->cursor);
}

static void
s_files_list_rep_read(proto_storage_files_list_rep_t *self, proto_in_t *in)
{
    self->entries = proto_read_list(in, "entries", 0, 100000, sizeof *self->entries,
                                    s_entry_item, &self->entries_count);
    proto_read_uint(in, "total", 0, UINT64_MAX, &self->total);
    proto_read_bool(in, "more", 0, &self->more);
    proto_read_str(in, "cursor", 0, 255, &self->cursor);
}

static void
s_files_list_rep_print(const proto_storage_files_list_rep_t *self, proto_text_t *text)
{
    proto_print_count(text, "entries", self->entries_count);
    proto_print_uint(text, "total", self->total);
    proto_print_bool(text, "more", self->more);
    proto_print_str(text, "cursor", self->cursor);
}

void
proto_storage_files_list_rep_init(proto_storage_files_list_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_files_list_rep_clear(proto_storage_files_list_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_files_list_rep_check(const proto_storage_files_list_rep_t *self,
                                   bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.files.list reply", err);
    return s_files_list_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_files_list_rep_write(const proto_storage_files_list_rep_t *self,
                                   bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_files_list_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_files_list_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_files_list_rep_encode(const proto_storage_files_list_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_files_list_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_files_list_rep_read(proto_storage_files_list_rep_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err)
{
    proto_in_t in;
    proto_storage_files_list_rep_init(self);
    proto_in_init(&in, "storage.files.list reply", map, &self->owned_, err);
    s_files_list_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_files_list_rep_clear(self);
    return in.status;
}

int
proto_storage_files_list_rep_decode(proto_storage_files_list_rep_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_files_list_rep_read(self, map, err);
}

char *
proto_storage_files_list_rep_print(const proto_storage_files_list_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_files_list_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.files.read request

static bool
s_files_read_req_check(const proto_storage_files_read_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "id", self->id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "volume", self->volume, 0, 64))
        return false;
    if (!proto_check_str(ck, "path", self->path, PROTO_REQUIRED, 4096))
        return false;
    if (!proto_check_uint(ck, "max", self->max, 1048576))
        return false;
    return true;
}

static void
s_files_read_req_write(const proto_storage_files_read_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 3;
    pairs += self->volume != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "id", self->id);
    if (self->volume != NULL)
        proto_write_str(writer, "volume", self->volume);
    proto_write_str(writer, "path", self->path);
    proto_write_uint(writer, "max", self->max);
}

static void
s_files_read_req_read(proto_storage_files_read_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "id", PROTO_REQUIRED, 64, &self->id);
    proto_read_str(in, "volume", 0, 64, &self->volume);
    proto_read_str(in, "path", PROTO_REQUIRED, 4096, &self->path);
    proto_read_uint(in, "max", 0, 1048576, &self->max);
}

static void
s_files_read_req_print(const proto_storage_files_read_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "id", self->id);
    proto_print_str(text, "volume", self->volume);
    proto_print_str(text, "path", self->path);
    proto_print_uint(text, "max", self->max);
}

void
proto_storage_files_read_req_init(proto_storage_files_read_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_files_read_req_clear(proto_storage_files_read_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_files_read_req_check(const proto_storage_files_read_req_t *self,
                                   bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.files.read request", err);
    return s_files_read_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_files_read_req_write(const proto_storage_files_read_req_t *self,
                                   bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_files_read_req_check(self, NULL) != BUS_OK)
        return -1;
    s_files_read_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_storage_files_read_req_writer(const proto_storage_files_read_req_t *self,
                                    bus_error_t *err)
{
    assert(self);
    if (proto_storage_files_read_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "storage.files.read request: out of memory");
        return NULL;
    }
    s_files_read_req_write(self, writer);
    return writer;
}

zframe_t *
proto_storage_files_read_req_encode(const proto_storage_files_read_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_files_read_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_files_read_req_read(proto_storage_files_read_req_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err)
{
    proto_in_t in;
    proto_storage_files_read_req_init(self);
    proto_in_init(&in, "storage.files.read request", map, &self->owned_, err);
    s_files_read_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_files_read_req_clear(self);
    return in.status;
}

int
proto_storage_files_read_req_decode(proto_storage_files_read_req_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_files_read_req_read(self, map, err);
}

char *
proto_storage_files_read_req_print(const proto_storage_files_read_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_files_read_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.files.read reply

static bool
s_files_read_rep_check(const proto_storage_files_read_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_bytes(ck, "data", self->data, self->data_size, 0, 1048576))
        return false;
    return true;
}

static void
s_files_read_rep_write(const proto_storage_files_read_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->data != NULL;
    bus_writer_map(writer, pairs);
    if (self->data != NULL)
        proto_write_bytes(writer, "data", self->data, self->data_size);
}

static void
s_files_read_rep_read(proto_storage_files_read_rep_t *self, proto_in_t *in)
{
    proto_read_bytes(in, "data", 0, 1048576, &self->data, &self->data_size);
}

static void
s_files_read_rep_print(const proto_storage_files_read_rep_t *self, proto_text_t *text)
{
    proto_print_bytes(text, "data", self->data, self->data_size);
}

void
proto_storage_files_read_rep_init(proto_storage_files_read_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_files_read_rep_clear(proto_storage_files_read_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_files_read_rep_check(const proto_storage_files_read_rep_t *self,
                                   bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.files.read reply", err);
    return s_files_read_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_files_read_rep_write(const proto_storage_files_read_rep_t *self,
                                   bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_files_read_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_files_read_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_files_read_rep_encode(const proto_storage_files_read_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_files_read_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_files_read_rep_read(proto_storage_files_read_rep_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err)
{
    proto_in_t in;
    proto_storage_files_read_rep_init(self);
    proto_in_init(&in, "storage.files.read reply", map, &self->owned_, err);
    s_files_read_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_files_read_rep_clear(self);
    return in.status;
}

int
proto_storage_files_read_rep_decode(proto_storage_files_read_rep_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_files_read_rep_read(self, map, err);
}

char *
proto_storage_files_read_rep_print(const proto_storage_files_read_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_files_read_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.files.mkdir request

static bool
s_files_mkdir_req_check(const proto_storage_files_mkdir_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "id", self->id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "volume", self->volume, 0, 64))
        return false;
    if (!proto_check_strs(ck, "paths", self->paths, self->paths_count, 50))
        return false;
    return true;
}

static void
s_files_mkdir_req_write(const proto_storage_files_mkdir_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 3;
    pairs += self->volume != NULL;
    pairs += self->paths_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "id", self->id);
    if (self->volume != NULL)
        proto_write_str(writer, "volume", self->volume);
    if (self->paths_count > 0)
        proto_write_strs(writer, "paths", self->paths, self->paths_count);
    proto_write_bool(writer, "parents", self->parents);
    proto_write_bool(writer, "exist_ok", self->exist_ok);
}

static void
s_files_mkdir_req_read(proto_storage_files_mkdir_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "id", PROTO_REQUIRED, 64, &self->id);
    proto_read_str(in, "volume", 0, 64, &self->volume);
    self->paths = proto_read_strs(in, "paths", 0, 50, &self->paths_count);
    proto_read_bool(in, "parents", 0, &self->parents);
    proto_read_bool(in, "exist_ok", 0, &self->exist_ok);
}

static void
s_files_mkdir_req_print(const proto_storage_files_mkdir_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "id", self->id);
    proto_print_str(text, "volume", self->volume);
    proto_print_count(text, "paths", self->paths_count);
    proto_print_bool(text, "parents", self->parents);
    proto_print_bool(text, "exist_ok", self->exist_ok);
}

void
proto_storage_files_mkdir_req_init(proto_storage_files_mkdir_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_files_mkdir_req_clear(proto_storage_files_mkdir_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_files_mkdir_req_check(const proto_storage_files_mkdir_req_t *self,
                                    bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.files.mkdir request", err);
    return s_files_mkdir_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_files_mkdir_req_write(const proto_storage_files_mkdir_req_t *self,
                                    bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_files_mkdir_req_check(self, NULL) != BUS_OK)
        return -1;
    s_files_mkdir_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_storage_files_mkdir_req_writer(const proto_storage_files_mkdir_req_t *self,
                                     bus_error_t *err)
{
    assert(self);
    if (proto_storage_files_mkdir_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "storage.files.mkdir request: out of memory");
        return NULL;
    }
    s_files_mkdir_req_write(self, writer);
    return writer;
}

zframe_t *
proto_storage_files_mkdir_req_encode(const proto_storage_files_mkdir_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_files_mkdir_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_files_mkdir_req_read(proto_storage_files_mkdir_req_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err)
{
    proto_in_t in;
    proto_storage_files_mkdir_req_init(self);
    proto_in_init(&in, "storage.files.mkdir request", map, &self->owned_, err);
    s_files_mkdir_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_files_mkdir_req_clear(self);
    return in.status;
}

int
proto_storage_files_mkdir_req_decode(proto_storage_files_mkdir_req_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_files_mkdir_req_read(self, map, err);
}

char *
proto_storage_files_mkdir_req_print(const proto_storage_files_mkdir_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_files_mkdir_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.files.mkdir reply

static bool
s_files_mkdir_rep_check(const proto_storage_files_mkdir_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_count(ck, "results", self->results, self->results_count, 50))
        return false;
    for (size_t i = 0; i < self->results_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "results", i);
        if (!s_result_check(&self->results[i], &item))
            return false;
    }
    return true;
}

static void
s_files_mkdir_rep_write(const proto_storage_files_mkdir_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->results_count > 0;
    bus_writer_map(writer, pairs);
    if (self->results_count > 0) {
        proto_write_array(writer, "results", self->results_count);
        for (size_t i = 0; i < self->results_count; i++)
            s_result_write(&self->results[i], writer);
    }
}

static void
s_files_mkdir_rep_read(proto_storage_files_mkdir_rep_t *self, proto_in_t *in)
{
    self->results = proto_read_list(in, "results", 0, 50, sizeof *self->results,
                                    s_result_item, &self->results_count);
}

static void
s_files_mkdir_rep_print(const proto_storage_files_mkdir_rep_t *self, proto_text_t *text)
{
    proto_print_count(text, "results", self->results_count);
}

void
proto_storage_files_mkdir_rep_init(proto_storage_files_mkdir_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_files_mkdir_rep_clear(proto_storage_files_mkdir_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_files_mkdir_rep_check(const proto_storage_files_mkdir_rep_t *self,
                                    bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.files.mkdir reply", err);
    return s_files_mkdir_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_files_mkdir_rep_write(const proto_storage_files_mkdir_rep_t *self,
                                    bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_files_mkdir_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_files_mkdir_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_files_mkdir_rep_encode(const proto_storage_files_mkdir_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_files_mkdir_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_files_mkdir_rep_read(proto_storage_files_mkdir_rep_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err)
{
    proto_in_t in;
    proto_storage_files_mkdir_rep_init(self);
    proto_in_init(&in, "storage.files.mkdir reply", map, &self->owned_, err);
    s_files_mkdir_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_files_mkdir_rep_clear(self);
    return in.status;
}

int
proto_storage_files_mkdir_rep_decode(proto_storage_files_mkdir_rep_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_files_mkdir_rep_read(self, map, err);
}

char *
proto_storage_files_mkdir_rep_print(const proto_storage_files_mkdir_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_files_mkdir_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.files.rename request

static bool
s_files_rename_req_check(const proto_storage_files_rename_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "id", self->id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "volume", self->volume, 0, 64))
        return false;
    if (!proto_check_str(ck, "path", self->path, PROTO_REQUIRED, 4096))
        return false;
    if (!proto_check_str(ck, "new_name", self->new_name, PROTO_REQUIRED, 255))
        return false;
    return true;
}

static void
s_files_rename_req_write(const proto_storage_files_rename_req_t *self,
                         bus_writer_t *writer)
{
    uint32_t pairs = 3;
    pairs += self->volume != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "id", self->id);
    if (self->volume != NULL)
        proto_write_str(writer, "volume", self->volume);
    proto_write_str(writer, "path", self->path);
    proto_write_str(writer, "new_name", self->new_name);
}

static void
s_files_rename_req_read(proto_storage_files_rename_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "id", PROTO_REQUIRED, 64, &self->id);
    proto_read_str(in, "volume", 0, 64, &self->volume);
    proto_read_str(in, "path", PROTO_REQUIRED, 4096, &self->path);
    proto_read_str(in, "new_name", PROTO_REQUIRED, 255, &self->new_name);
}

static void
s_files_rename_req_print(const proto_storage_files_rename_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "id", self->id);
    proto_print_str(text, "volume", self->volume);
    proto_print_str(text, "path", self->path);
    proto_print_str(text, "new_name", self->new_name);
}

void
proto_storage_files_rename_req_init(proto_storage_files_rename_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_files_rename_req_clear(proto_storage_files_rename_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_files_rename_req_check(const proto_storage_files_rename_req_t *self,
                                     bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.files.rename request", err);
    return s_files_rename_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_files_rename_req_write(const proto_storage_files_rename_req_t *self,
                                     bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_files_rename_req_check(self, NULL) != BUS_OK)
        return -1;
    s_files_rename_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_storage_files_rename_req_writer(const proto_storage_files_rename_req_t *self,
                                      bus_error_t *err)
{
    assert(self);
    if (proto_storage_files_rename_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "storage.files.rename request: out of memory");
        return NULL;
    }
    s_files_rename_req_write(self, writer);
    return writer;
}

zframe_t *
proto_storage_files_rename_req_encode(const proto_storage_files_rename_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_files_rename_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_files_rename_req_read(proto_storage_files_rename_req_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err)
{
    proto_in_t in;
    proto_storage_files_rename_req_init(self);
    proto_in_init(&in, "storage.files.rename request", map, &self->owned_, err);
    s_files_rename_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_files_rename_req_clear(self);
    return in.status;
}

int
proto_storage_files_rename_req_decode(proto_storage_files_rename_req_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_files_rename_req_read(self, map, err);
}

char *
proto_storage_files_rename_req_print(const proto_storage_files_rename_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_files_rename_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.files.rename reply

static bool
s_files_rename_rep_check(const proto_storage_files_rename_rep_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_files_rename_rep_write(const proto_storage_files_rename_rep_t *self,
                         bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_files_rename_rep_read(proto_storage_files_rename_rep_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_files_rename_rep_print(const proto_storage_files_rename_rep_t *self, proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_storage_files_rename_rep_init(proto_storage_files_rename_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_files_rename_rep_clear(proto_storage_files_rename_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_files_rename_rep_check(const proto_storage_files_rename_rep_t *self,
                                     bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.files.rename reply", err);
    return s_files_rename_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_files_rename_rep_write(const proto_storage_files_rename_rep_t *self,
                                     bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_files_rename_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_files_rename_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_files_rename_rep_encode(const proto_storage_files_rename_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_files_rename_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_files_rename_rep_read(proto_storage_files_rename_rep_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err)
{
    proto_in_t in;
    proto_storage_files_rename_rep_init(self);
    proto_in_init(&in, "storage.files.rename reply", map, &self->owned_, err);
    s_files_rename_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_files_rename_rep_clear(self);
    return in.status;
}

int
proto_storage_files_rename_rep_decode(proto_storage_files_rename_rep_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_files_rename_rep_read(self, map, err);
}

char *
proto_storage_files_rename_rep_print(const proto_storage_files_rename_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_files_rename_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.files.move request

static bool
s_files_move_req_check(const proto_storage_files_move_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "id", self->id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "volume", self->volume, 0, 64))
        return false;
    if (!proto_check_str(ck, "src", self->src, PROTO_REQUIRED, 4096))
        return false;
    if (!proto_check_str(ck, "dst", self->dst, PROTO_REQUIRED, 4096))
        return false;
    return true;
}

static void
s_files_move_req_write(const proto_storage_files_move_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 3;
    pairs += self->volume != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "id", self->id);
    if (self->volume != NULL)
        proto_write_str(writer, "volume", self->volume);
    proto_write_str(writer, "src", self->src);
    proto_write_str(writer, "dst", self->dst);
}

static void
s_files_move_req_read(proto_storage_files_move_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "id", PROTO_REQUIRED, 64, &self->id);
    proto_read_str(in, "volume", 0, 64, &self->volume);
    proto_read_str(in, "src", PROTO_REQUIRED, 4096, &self->src);
    proto_read_str(in, "dst", PROTO_REQUIRED, 4096, &self->dst);
}

static void
s_files_move_req_print(const proto_storage_files_move_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "id", self->id);
    proto_print_str(text, "volume", self->volume);
    proto_print_str(text, "src", self->src);
    proto_print_str(text, "dst", self->dst);
}

void
proto_storage_files_move_req_init(proto_storage_files_move_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_files_move_req_clear(proto_storage_files_move_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_files_move_req_check(const proto_storage_files_move_req_t *self,
                                   bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.files.move request", err);
    return s_files_move_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_files_move_req_write(const proto_storage_files_move_req_t *self,
                                   bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_files_move_req_check(self, NULL) != BUS_OK)
        return -1;
    s_files_move_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_storage_files_move_req_writer(const proto_storage_files_move_req_t *self,
                                    bus_error_t *err)
{
    assert(self);
    if (proto_storage_files_move_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "storage.files.move request: out of memory");
        return NULL;
    }
    s_files_move_req_write(self, writer);
    return writer;
}

zframe_t *
proto_storage_files_move_req_encode(const proto_storage_files_move_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_files_move_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_files_move_req_read(proto_storage_files_move_req_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err)
{
    proto_in_t in;
    proto_storage_files_move_req_init(self);
    proto_in_init(&in, "storage.files.move request", map, &self->owned_, err);
    s_files_move_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_files_move_req_clear(self);
    return in.status;
}

int
proto_storage_files_move_req_decode(proto_storage_files_move_req_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_files_move_req_read(self, map, err);
}

char *
proto_storage_files_move_req_print(const proto_storage_files_move_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_files_move_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.files.move reply

static bool
s_files_move_rep_check(const proto_storage_files_move_rep_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_files_move_rep_write(const proto_storage_files_move_rep_t *self, bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_files_move_rep_read(proto_storage_files_move_rep_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_files_move_rep_print(const proto_storage_files_move_rep_t *self, proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_storage_files_move_rep_init(proto_storage_files_move_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_files_move_rep_clear(proto_storage_files_move_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_files_move_rep_check(const proto_storage_files_move_rep_t *self,
                                   bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.files.move reply", err);
    return s_files_move_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_files_move_rep_write(const proto_storage_files_move_rep_t *self,
                                   bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_files_move_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_files_move_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_files_move_rep_encode(const proto_storage_files_move_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_files_move_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_files_move_rep_read(proto_storage_files_move_rep_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err)
{
    proto_in_t in;
    proto_storage_files_move_rep_init(self);
    proto_in_init(&in, "storage.files.move reply", map, &self->owned_, err);
    s_files_move_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_files_move_rep_clear(self);
    return in.status;
}

int
proto_storage_files_move_rep_decode(proto_storage_files_move_rep_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_files_move_rep_read(self, map, err);
}

char *
proto_storage_files_move_rep_print(const proto_storage_files_move_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_files_move_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.files.delete request

static bool
s_files_delete_req_check(const proto_storage_files_delete_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "id", self->id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "volume", self->volume, 0, 64))
        return false;
    if (!proto_check_strs(ck, "paths", self->paths, self->paths_count, 10000))
        return false;
    return true;
}

static void
s_files_delete_req_write(const proto_storage_files_delete_req_t *self,
                         bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->volume != NULL;
    pairs += self->paths_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "id", self->id);
    if (self->volume != NULL)
        proto_write_str(writer, "volume", self->volume);
    if (self->paths_count > 0)
        proto_write_strs(writer, "paths", self->paths, self->paths_count);
    proto_write_bool(writer, "recursive", self->recursive);
}

static void
s_files_delete_req_read(proto_storage_files_delete_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "id", PROTO_REQUIRED, 64, &self->id);
    proto_read_str(in, "volume", 0, 64, &self->volume);
    self->paths = proto_read_strs(in, "paths", 0, 10000, &self->paths_count);
    proto_read_bool(in, "recursive", 0, &self->recursive);
}

static void
s_files_delete_req_print(const proto_storage_files_delete_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "id", self->id);
    proto_print_str(text, "volume", self->volume);
    proto_print_count(text, "paths", self->paths_count);
    proto_print_bool(text, "recursive", self->recursive);
}

void
proto_storage_files_delete_req_init(proto_storage_files_delete_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_files_delete_req_clear(proto_storage_files_delete_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_files_delete_req_check(const proto_storage_files_delete_req_t *self,
                                     bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.files.delete request", err);
    return s_files_delete_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_files_delete_req_write(const proto_storage_files_delete_req_t *self,
                                     bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_files_delete_req_check(self, NULL) != BUS_OK)
        return -1;
    s_files_delete_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_storage_files_delete_req_writer(const proto_storage_files_delete_req_t *self,
                                      bus_error_t *err)
{
    assert(self);
    if (proto_storage_files_delete_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "storage.files.delete request: out of memory");
        return NULL;
    }
    s_files_delete_req_write(self, writer);
    return writer;
}

zframe_t *
proto_storage_files_delete_req_encode(const proto_storage_files_delete_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_files_delete_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_files_delete_req_read(proto_storage_files_delete_req_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err)
{
    proto_in_t in;
    proto_storage_files_delete_req_init(self);
    proto_in_init(&in, "storage.files.delete request", map, &self->owned_, err);
    s_files_delete_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_files_delete_req_clear(self);
    return in.status;
}

int
proto_storage_files_delete_req_decode(proto_storage_files_delete_req_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_files_delete_req_read(self, map, err);
}

char *
proto_storage_files_delete_req_print(const proto_storage_files_delete_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_files_delete_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.files.delete reply

static bool
s_files_delete_rep_check(const proto_storage_files_delete_rep_t *self, proto_check_t *ck)
{
    (void) self;
    (void) ck;
    return true;
}

static void
s_files_delete_rep_write(const proto_storage_files_delete_rep_t *self,
                         bus_writer_t *writer)
{
    (void) self;
    bus_writer_map(writer, 0);
}

static void
s_files_delete_rep_read(proto_storage_files_delete_rep_t *self, proto_in_t *in)
{
    (void) self;
    (void) in;
}

static void
s_files_delete_rep_print(const proto_storage_files_delete_rep_t *self, proto_text_t *text)
{
    (void) self;
    (void) text;
}

void
proto_storage_files_delete_rep_init(proto_storage_files_delete_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_files_delete_rep_clear(proto_storage_files_delete_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_files_delete_rep_check(const proto_storage_files_delete_rep_t *self,
                                     bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.files.delete reply", err);
    return s_files_delete_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_files_delete_rep_write(const proto_storage_files_delete_rep_t *self,
                                     bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_files_delete_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_files_delete_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_files_delete_rep_encode(const proto_storage_files_delete_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_files_delete_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_files_delete_rep_read(proto_storage_files_delete_rep_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err)
{
    proto_in_t in;
    proto_storage_files_delete_rep_init(self);
    proto_in_init(&in, "storage.files.delete reply", map, &self->owned_, err);
    s_files_delete_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_files_delete_rep_clear(self);
    return in.status;
}

int
proto_storage_files_delete_rep_decode(proto_storage_files_delete_rep_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_files_delete_rep_read(self, map, err);
}

char *
proto_storage_files_delete_rep_print(const proto_storage_files_delete_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_files_delete_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.files.fetch request

static bool
s_files_fetch_req_check(const proto_storage_files_fetch_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "id", self->id, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "volume", self->volume, 0, 64))
        return false;
    if (!proto_check_str(ck, "url", self->url, PROTO_REQUIRED, 2048))
        return false;
    if (!proto_check_str(ck, "path", self->path, PROTO_REQUIRED, 4096))
        return false;
    if (!proto_check_str(ck, "ref", self->ref, 0, 255))
        return false;
    return true;
}

static void
s_files_fetch_req_write(const proto_storage_files_fetch_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 6;
    pairs += self->volume != NULL;
    pairs += self->ref != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "id", self->id);
    if (self->volume != NULL)
        proto_write_str(writer, "volume", self->volume);
    proto_write_str(writer, "url", self->url);
    proto_write_str(writer, "path", self->path);
    proto_write_bool(writer, "unzip", self->unzip);
    proto_write_bool(writer, "strip_top", self->strip_top);
    proto_write_bool(writer, "git", self->git);
    if (self->ref != NULL)
        proto_write_str(writer, "ref", self->ref);
}

static void
s_files_fetch_req_read(proto_storage_files_fetch_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "id", PROTO_REQUIRED, 64, &self->id);
    proto_read_str(in, "volume", 0, 64, &self->volume);
    proto_read_str(in, "url", PROTO_REQUIRED, 2048, &self->url);
    proto_read_str(in, "path", PROTO_REQUIRED, 4096, &self->path);
    proto_read_bool(in, "unzip", 0, &self->unzip);
    proto_read_bool(in, "strip_top", 0, &self->strip_top);
    proto_read_bool(in, "git", 0, &self->git);
    proto_read_str(in, "ref", 0, 255, &self->ref);
}

static void
s_files_fetch_req_print(const proto_storage_files_fetch_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "id", self->id);
    proto_print_str(text, "volume", self->volume);
    proto_print_str(text, "url", self->url);
    proto_print_str(text, "path", self->path);
    proto_print_bool(text, "unzip", self->unzip);
    proto_print_bool(text, "strip_top", self->strip_top);
    proto_print_bool(text, "git", self->git);
    proto_print_str(text, "ref", self->ref);
}

void
proto_storage_files_fetch_req_init(proto_storage_files_fetch_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_files_fetch_req_clear(proto_storage_files_fetch_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_files_fetch_req_check(const proto_storage_files_fetch_req_t *self,
                                    bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.files.fetch request", err);
    return s_files_fetch_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_files_fetch_req_write(const proto_storage_files_fetch_req_t *self,
                                    bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_files_fetch_req_check(self, NULL) != BUS_OK)
        return -1;
    s_files_fetch_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_storage_files_fetch_req_writer(const proto_storage_files_fetch_req_t *self,
                                     bus_error_t *err)
{
    assert(self);
    if (proto_storage_files_fetch_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "storage.files.fetch request: out of memory");
        return NULL;
    }
    s_files_fetch_req_write(self, writer);
    return writer;
}

zframe_t *
proto_storage_files_fetch_req_encode(const proto_storage_files_fetch_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_files_fetch_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_files_fetch_req_read(proto_storage_files_fetch_req_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err)
{
    proto_in_t in;
    proto_storage_files_fetch_req_init(self);
    proto_in_init(&in, "storage.files.fetch request", map, &self->owned_, err);
    s_files_fetch_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_files_fetch_req_clear(self);
    return in.status;
}

int
proto_storage_files_fetch_req_decode(proto_storage_files_fetch_req_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_files_fetch_req_read(self, map, err);
}

char *
proto_storage_files_fetch_req_print(const proto_storage_files_fetch_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_files_fetch_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.files.fetch reply

static bool
s_files_fetch_rep_check(const proto_storage_files_fetch_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "job", self->job, PROTO_REQUIRED, 64))
        return false;
    return true;
}

static void
s_files_fetch_rep_write(const proto_storage_files_fetch_rep_t *self, bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    proto_write_str(writer, "job", self->job);
}

static void
s_files_fetch_rep_read(proto_storage_files_fetch_rep_t *self, proto_in_t *in)
{
    proto_read_str(in, "job", PROTO_REQUIRED, 64, &self->job);
}

static void
s_files_fetch_rep_print(const proto_storage_files_fetch_rep_t *self, proto_text_t *text)
{
    proto_print_str(text, "job", self->job);
}

void
proto_storage_files_fetch_rep_init(proto_storage_files_fetch_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_files_fetch_rep_clear(proto_storage_files_fetch_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_files_fetch_rep_check(const proto_storage_files_fetch_rep_t *self,
                                    bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.files.fetch reply", err);
    return s_files_fetch_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_files_fetch_rep_write(const proto_storage_files_fetch_rep_t *self,
                                    bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_files_fetch_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_files_fetch_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_files_fetch_rep_encode(const proto_storage_files_fetch_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_files_fetch_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_files_fetch_rep_read(proto_storage_files_fetch_rep_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err)
{
    proto_in_t in;
    proto_storage_files_fetch_rep_init(self);
    proto_in_init(&in, "storage.files.fetch reply", map, &self->owned_, err);
    s_files_fetch_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_files_fetch_rep_clear(self);
    return in.status;
}

int
proto_storage_files_fetch_rep_decode(proto_storage_files_fetch_rep_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_files_fetch_rep_read(self, map, err);
}

char *
proto_storage_files_fetch_rep_print(const proto_storage_files_fetch_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_files_fetch_rep_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.files.fetch_status request

static bool
s_files_fetch_status_req_check(const proto_storage_files_fetch_status_req_t *self,
                               proto_check_t *ck)
{
    if (!proto_check_str(ck, "job", self->job, PROTO_REQUIRED, 64))
        return false;
    return true;
}

static void
s_files_fetch_status_req_write(const proto_storage_files_fetch_status_req_t *self,
                               bus_writer_t *writer)
{
    bus_writer_map(writer, 1);
    proto_write_str(writer, "job", self->job);
}

static void
s_files_fetch_status_req_read(proto_storage_files_fetch_status_req_t *self,
                              proto_in_t *in)
{
    proto_read_str(in, "job", PROTO_REQUIRED, 64, &self->job);
}

static void
s_files_fetch_status_req_print(const proto_storage_files_fetch_status_req_t *self,
                               proto_text_t *text)
{
    proto_print_str(text, "job", self->job);
}

void
proto_storage_files_fetch_status_req_init(proto_storage_files_fetch_status_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_files_fetch_status_req_clear(proto_storage_files_fetch_status_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_files_fetch_status_req_check(const proto_storage_files_fetch_status_req_t *self,
                                           bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.files.fetch_status request", err);
    return s_files_fetch_status_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_files_fetch_status_req_write(const proto_storage_files_fetch_status_req_t *self,
                                           bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_files_fetch_status_req_check(self, NULL) != BUS_OK)
        return -1;
    s_files_fetch_status_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_storage_files_fetch_status_req_writer(const proto_storage_files_fetch_status_req_t *self,
                                            bus_error_t *err)
{
    assert(self);
    if (proto_storage_files_fetch_status_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "storage.files.fetch_status request: out of memory");
        return NULL;
    }
    s_files_fetch_status_req_write(self, writer);
    return writer;
}

zframe_t *
proto_storage_files_fetch_status_req_encode(const proto_storage_files_fetch_status_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_files_fetch_status_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_files_fetch_status_req_read(proto_storage_files_fetch_status_req_t *self,
                                          const bus_value_t *map,
                                          bus_error_t *err)
{
    proto_in_t in;
    proto_storage_files_fetch_status_req_init(self);
    proto_in_init(&in, "storage.files.fetch_status request", map, &self->owned_, err);
    s_files_fetch_status_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_files_fetch_status_req_clear(self);
    return in.status;
}

int
proto_storage_files_fetch_status_req_decode(proto_storage_files_fetch_status_req_t *self,
                                            const void *data,
                                            size_t size,
                                            bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_files_fetch_status_req_read(self, map, err);
}

char *
proto_storage_files_fetch_status_req_print(const proto_storage_files_fetch_status_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_files_fetch_status_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  storage.files.fetch_status reply

static bool
s_files_fetch_status_rep_check(const proto_storage_files_fetch_status_rep_t *self,
                               proto_check_t *ck)
{
    if (!proto_check_str(ck, "state", self->state, PROTO_REQUIRED, 16))
        return false;
    if (!proto_check_str(ck, "detail", self->detail, 0, 512))
        return false;
    if (!proto_check_str(ck, "url", self->url, 0, 2048))
        return false;
    return true;
}

static void
s_files_fetch_status_rep_write(const proto_storage_files_fetch_status_rep_t *self,
                               bus_writer_t *writer)
{
    uint32_t pairs = 7;
    pairs += self->detail != NULL;
    pairs += self->url != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "state", self->state);
    proto_write_uint(writer, "bytes", self->bytes);
    proto_write_uint(writer, "total", self->total);
    proto_write_uint(writer, "entries", self->entries);
    proto_write_uint(writer, "entries_total", self->entries_total);
    proto_write_uint(writer, "skipped", self->skipped);
    proto_write_uint(writer, "status", self->status);
    if (self->detail != NULL)
        proto_write_str(writer, "detail", self->detail);
    if (self->url != NULL)
        proto_write_str(writer, "url", self->url);
}

static void
s_files_fetch_status_rep_read(proto_storage_files_fetch_status_rep_t *self,
                              proto_in_t *in)
{
    proto_read_str(in, "state", PROTO_REQUIRED, 16, &self->state);
    proto_read_uint(in, "bytes", 0, UINT64_MAX, &self->bytes);
    proto_read_uint(in, "total", 0, UINT64_MAX, &self->total);
    proto_read_uint(in, "entries", 0, UINT64_MAX, &self->entries);
    proto_read_uint(in, "entries_total", 0, UINT64_MAX, &self->entries_total);
    proto_read_uint(in, "skipped", 0, UINT64_MAX, &self->skipped);
    proto_read_uint(in, "status", 0, UINT64_MAX, &self->status);
    proto_read_str(in, "detail", 0, 512, &self->detail);
    proto_read_str(in, "url", 0, 2048, &self->url);
}

static void
s_files_fetch_status_rep_print(const proto_storage_files_fetch_status_rep_t *self,
                               proto_text_t *text)
{
    proto_print_str(text, "state", self->state);
    proto_print_uint(text, "bytes", self->bytes);
    proto_print_uint(text, "total", self->total);
    proto_print_uint(text, "entries", self->entries);
    proto_print_uint(text, "entries_total", self->entries_total);
    proto_print_uint(text, "skipped", self->skipped);
    proto_print_uint(text, "status", self->status);
    proto_print_str(text, "detail", self->detail);
    proto_print_str(text, "url", self->url);
}

void
proto_storage_files_fetch_status_rep_init(proto_storage_files_fetch_status_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_storage_files_fetch_status_rep_clear(proto_storage_files_fetch_status_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_storage_files_fetch_status_rep_check(const proto_storage_files_fetch_status_rep_t *self,
                                           bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "storage.files.fetch_status reply", err);
    return s_files_fetch_status_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_storage_files_fetch_status_rep_write(const proto_storage_files_fetch_status_rep_t *self,
                                           bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_storage_files_fetch_status_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_files_fetch_status_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_storage_files_fetch_status_rep_encode(const proto_storage_files_fetch_status_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_storage_files_fetch_status_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_storage_files_fetch_status_rep_read(proto_storage_files_fetch_status_rep_t *self,
                                          const bus_value_t *map,
                                          bus_error_t *err)
{
    proto_in_t in;
    proto_storage_files_fetch_status_rep_init(self);
    proto_in_init(&in, "storage.files.fetch_status reply", map, &self->owned_, err);
    s_files_fetch_status_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_storage_files_fetch_status_rep_clear(self);
    return in.status;
}

int
proto_storage_files_fetch_status_rep_decode(proto_storage_files_fetch_status_rep_t *self,
                                            const void *data,
                                            size_t size,
                                            bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_storage_files_fetch_status_rep_read(self, map, err);
}

char *
proto_storage_files_fetch_status_rep_print(const proto_storage_files_fetch_status_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_files_fetch_status_rep_print(self, &text);
    return proto_text_finish(&text);
}
