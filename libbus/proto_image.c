//  GENERATED FROM proto/image.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_image - codecs of the image domain

    For each struct: file-static check, write, read and print helpers that
    nested values reuse, then the public functions of proto_image.h built on
    them. Reading and printing go through the shared runtime in proto.c.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

//  ---------------------------------------------------------------------------
//  image.info

static bool
s_info_check(const proto_image_info_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "reference", self->reference, PROTO_REQUIRED, 512))
        return false;
    if (!proto_check_str(ck, "architecture", self->architecture, PROTO_REQUIRED, 32))
        return false;
    if (!proto_check_str(ck, "digest", self->digest, 0, 256))
        return false;
    if (!proto_check_map(ck, "labels", self->labels, self->labels_count, 1024))
        return false;
    if (!proto_check_strs(ck, "command", self->command, self->command_count, 256))
        return false;
    return true;
}

static void
s_info_write(const proto_image_info_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 4;
    pairs += self->digest != NULL;
    pairs += self->labels_count > 0;
    pairs += self->command_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "reference", self->reference);
    proto_write_str(writer, "architecture", self->architecture);
    if (self->digest != NULL)
        proto_write_str(writer, "digest", self->digest);
    proto_write_uint(writer, "size_bytes", self->size_bytes);
    if (self->labels_count > 0)
        proto_write_map(writer, "labels", self->labels, self->labels_count);
    proto_write_bool(writer, "installed", self->installed);
    if (self->command_count > 0)
        proto_write_strs(writer, "command", self->command, self->command_count);
}

static void
s_info_read(proto_image_info_t *self, proto_in_t *in)
{
    proto_read_str(in, "reference", PROTO_REQUIRED, 512, &self->reference);
    proto_read_str(in, "architecture", PROTO_REQUIRED, 32, &self->architecture);
    proto_read_str(in, "digest", 0, 256, &self->digest);
    proto_read_uint(in, "size_bytes", 0, UINT64_MAX, &self->size_bytes);
    self->labels = proto_read_map(in, "labels", 0, 1024, &self->labels_count);
    proto_read_bool(in, "installed", 0, &self->installed);
    self->command = proto_read_strs(in, "command", 0, 256, &self->command_count);
}

static void
s_info_print(const proto_image_info_t *self, proto_text_t *text)
{
    proto_print_str(text, "reference", self->reference);
    proto_print_str(text, "architecture", self->architecture);
    proto_print_str(text, "digest", self->digest);
    proto_print_uint(text, "size_bytes", self->size_bytes);
    proto_print_count(text, "labels", self->labels_count);
    proto_print_bool(text, "installed", self->installed);
    proto_print_count(text, "command", self->command_count);
}

//  A list item: calloc'd memory, initialised before it is read.
static void
s_info_item(void *item, proto_in_t *in)
{
    proto_image_info_init(item);
    s_info_read(item, in);
}

void
proto_image_info_init(proto_image_info_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->installed = true;
}

void
proto_image_info_clear(proto_image_info_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_image_info_check(const proto_image_info_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "image.info", err);
    return s_info_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_image_info_write(const proto_image_info_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_image_info_check(self, NULL) != BUS_OK)
        return -1;
    s_info_write(self, writer);
    return 0;
}

zframe_t *
proto_image_info_encode(const proto_image_info_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_image_info_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_image_info_read(proto_image_info_t *self, const bus_value_t *map, bus_error_t *err)
{
    proto_in_t in;
    proto_image_info_init(self);
    proto_in_init(&in, "image.info", map, &self->owned_, err);
    s_info_read(self, &in);
    if (in.status != BUS_OK)
        proto_image_info_clear(self);
    return in.status;
}

int
proto_image_info_decode(proto_image_info_t *self,
                        const void *data,
                        size_t size,
                        bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_image_info_read(self, map, err);
}

char *
proto_image_info_print(const proto_image_info_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_info_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  image.catalog

static bool
s_catalog_check(const proto_image_catalog_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "agent_id", self->agent_id, PROTO_REQUIRED, 128))
        return false;
    if (!proto_check_count(ck, "images", self->images, self->images_count, 10000))
        return false;
    for (size_t i = 0; i < self->images_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "images", i);
        if (!s_info_check(&self->images[i], &item))
            return false;
    }
    return true;
}

static void
s_catalog_write(const proto_image_catalog_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->images_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "agent_id", self->agent_id);
    if (self->images_count > 0) {
        proto_write_array(writer, "images", self->images_count);
        for (size_t i = 0; i < self->images_count; i++)
            s_info_write(&self->images[i], writer);
    }
}

static void
s_catalog_read(proto_image_catalog_t *self, proto_in_t *in)
{
    proto_read_str(in, "agent_id", PROTO_REQUIRED, 128, &self->agent_id);
    self->images = proto_read_list(in, "images", 0, 10000, sizeof *self->images,
                                   s_info_item, &self->images_count);
}

static void
s_catalog_print(const proto_image_catalog_t *self, proto_text_t *text)
{
    proto_print_str(text, "agent_id", self->agent_id);
    proto_print_count(text, "images", self->images_count);
}

void
proto_image_catalog_init(proto_image_catalog_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_image_catalog_clear(proto_image_catalog_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_image_catalog_check(const proto_image_catalog_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "image.catalog", err);
    return s_catalog_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_image_catalog_write(const proto_image_catalog_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_image_catalog_check(self, NULL) != BUS_OK)
        return -1;
    s_catalog_write(self, writer);
    return 0;
}

zframe_t *
proto_image_catalog_encode(const proto_image_catalog_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_image_catalog_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_image_catalog_read(proto_image_catalog_t *self,
                         const bus_value_t *map,
                         bus_error_t *err)
{
    proto_in_t in;
    proto_image_catalog_init(self);
    proto_in_init(&in, "image.catalog", map, &self->owned_, err);
    s_catalog_read(self, &in);
    if (in.status != BUS_OK)
        proto_image_catalog_clear(self);
    return in.status;
}

int
proto_image_catalog_decode(proto_image_catalog_t *self,
                           const void *data,
                           size_t size,
                           bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_image_catalog_read(self, map, err);
}

char *
proto_image_catalog_print(const proto_image_catalog_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_catalog_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  image.rescan request

static bool
s_rescan_req_check(const proto_image_rescan_req_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "agent_id", self->agent_id, 0, 128))
        return false;
    return true;
}

static void
s_rescan_req_write(const proto_image_rescan_req_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 0;
    pairs += self->agent_id != NULL;
    bus_writer_map(writer, pairs);
    if (self->agent_id != NULL)
        proto_write_str(writer, "agent_id", self->agent_id);
}

static void
s_rescan_req_read(proto_image_rescan_req_t *self, proto_in_t *in)
{
    proto_read_str(in, "agent_id", 0, 128, &self->agent_id);
}

static void
s_rescan_req_print(const proto_image_rescan_req_t *self, proto_text_t *text)
{
    proto_print_str(text, "agent_id", self->agent_id);
}

void
proto_image_rescan_req_init(proto_image_rescan_req_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_image_rescan_req_clear(proto_image_rescan_req_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_image_rescan_req_check(const proto_image_rescan_req_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "image.rescan request", err);
    return s_rescan_req_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_image_rescan_req_write(const proto_image_rescan_req_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_image_rescan_req_check(self, NULL) != BUS_OK)
        return -1;
    s_rescan_req_write(self, writer);
    return 0;
}

bus_writer_t *
proto_image_rescan_req_writer(const proto_image_rescan_req_t *self, bus_error_t *err)
{
    assert(self);
    if (proto_image_rescan_req_check(self, err) != BUS_OK)
        return NULL;
    bus_writer_t *writer = bus_writer_new();
    if (!writer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "image.rescan request: out of memory");
        return NULL;
    }
    s_rescan_req_write(self, writer);
    return writer;
}

zframe_t *
proto_image_rescan_req_encode(const proto_image_rescan_req_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_image_rescan_req_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_image_rescan_req_read(proto_image_rescan_req_t *self,
                            const bus_value_t *map,
                            bus_error_t *err)
{
    proto_in_t in;
    proto_image_rescan_req_init(self);
    proto_in_init(&in, "image.rescan request", map, &self->owned_, err);
    s_rescan_req_read(self, &in);
    if (in.status != BUS_OK)
        proto_image_rescan_req_clear(self);
    return in.status;
}

int
proto_image_rescan_req_decode(proto_image_rescan_req_t *self,
                              const void *data,
                              size_t size,
                              bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_image_rescan_req_read(self, map, err);
}

char *
proto_image_rescan_req_print(const proto_image_rescan_req_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_rescan_req_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  image.rescan reply

static bool
s_rescan_rep_check(const proto_image_rescan_rep_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "agent_id", self->agent_id, PROTO_REQUIRED, 128))
        return false;
    if (!proto_check_count(ck, "images", self->images, self->images_count, 10000))
        return false;
    for (size_t i = 0; i < self->images_count; i++) {
        proto_check_t item;
        proto_check_enter(ck, &item, "images", i);
        if (!s_info_check(&self->images[i], &item))
            return false;
    }
    return true;
}

static void
s_rescan_rep_write(const proto_image_rescan_rep_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 1;
    pairs += self->images_count > 0;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "agent_id", self->agent_id);
    if (self->images_count > 0) {
        proto_write_array(writer, "images", self->images_count);
        for (size_t i = 0; i < self->images_count; i++)
            s_info_write(&self->images[i], writer);
    }
}

static void
s_rescan_rep_read(proto_image_rescan_rep_t *self, proto_in_t *in)
{
    proto_read_str(in, "agent_id", PROTO_REQUIRED, 128, &self->agent_id);
    self->images = proto_read_list(in, "images", 0, 10000, sizeof *self->images,
                                   s_info_item, &self->images_count);
}

static void
s_rescan_rep_print(const proto_image_rescan_rep_t *self, proto_text_t *text)
{
    proto_print_str(text, "agent_id", self->agent_id);
    proto_print_count(text, "images", self->images_count);
}

void
proto_image_rescan_rep_init(proto_image_rescan_rep_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_image_rescan_rep_clear(proto_image_rescan_rep_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_image_rescan_rep_check(const proto_image_rescan_rep_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "image.rescan reply", err);
    return s_rescan_rep_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_image_rescan_rep_write(const proto_image_rescan_rep_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_image_rescan_rep_check(self, NULL) != BUS_OK)
        return -1;
    s_rescan_rep_write(self, writer);
    return 0;
}

zframe_t *
proto_image_rescan_rep_encode(const proto_image_rescan_rep_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_image_rescan_rep_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_image_rescan_rep_read(proto_image_rescan_rep_t *self,
                            const bus_value_t *map,
                            bus_error_t *err)
{
    proto_in_t in;
    proto_image_rescan_rep_init(self);
    proto_in_init(&in, "image.rescan reply", map, &self->owned_, err);
    s_rescan_rep_read(self, &in);
    if (in.status != BUS_OK)
        proto_image_rescan_rep_clear(self);
    return in.status;
}

int
proto_image_rescan_rep_decode(proto_image_rescan_rep_t *self,
                              const void *data,
                              size_t size,
                              bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_image_rescan_rep_read(self, map, err);
}

char *
proto_image_rescan_rep_print(const proto_image_rescan_rep_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_rescan_rep_print(self, &text);
    return proto_text_finish(&text);
}
