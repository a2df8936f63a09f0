//  GENERATED FROM proto/policy.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_policy - codecs of the policy domain

    For each struct: file-static check, write, read and print helpers that
    nested values reuse, then the public functions of proto_policy.h built on
    them. Reading and printing go through the shared runtime in proto.c.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

//  ---------------------------------------------------------------------------
//  policy.changed

static bool
s_changed_check(const proto_policy_changed_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "kind", self->kind, PROTO_REQUIRED, 16))
        return false;
    if (!proto_check_str(ck, "name", self->name, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "policy", self->policy, 0, 65536))
        return false;
    return true;
}

static void
s_changed_write(const proto_policy_changed_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 3;
    pairs += self->policy != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "kind", self->kind);
    proto_write_str(writer, "name", self->name);
    proto_write_bool(writer, "deleted", self->deleted);
    if (self->policy != NULL)
        proto_write_str(writer, "policy", self->policy);
}

static void
s_changed_read(proto_policy_changed_t *self, proto_in_t *in)
{
    proto_read_str(in, "kind", PROTO_REQUIRED, 16, &self->kind);
    proto_read_str(in, "name", PROTO_REQUIRED, 64, &self->name);
    proto_read_bool(in, "deleted", 0, &self->deleted);
    proto_read_str(in, "policy", 0, 65536, &self->policy);
}

static void
s_changed_print(const proto_policy_changed_t *self, proto_text_t *text)
{
    proto_print_str(text, "kind", self->kind);
    proto_print_str(text, "name", self->name);
    proto_print_bool(text, "deleted", self->deleted);
    proto_print_str(text, "policy", self->policy);
}

void
proto_policy_changed_init(proto_policy_changed_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_policy_changed_clear(proto_policy_changed_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_policy_changed_check(const proto_policy_changed_t *self, bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "policy.changed", err);
    return s_changed_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_policy_changed_write(const proto_policy_changed_t *self, bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_policy_changed_check(self, NULL) != BUS_OK)
        return -1;
    s_changed_write(self, writer);
    return 0;
}

zframe_t *
proto_policy_changed_encode(const proto_policy_changed_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_policy_changed_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_policy_changed_read(proto_policy_changed_t *self,
                          const bus_value_t *map,
                          bus_error_t *err)
{
    proto_in_t in;
    proto_policy_changed_init(self);
    proto_in_init(&in, "policy.changed", map, &self->owned_, err);
    s_changed_read(self, &in);
    if (in.status != BUS_OK)
        proto_policy_changed_clear(self);
    return in.status;
}

int
proto_policy_changed_decode(proto_policy_changed_t *self,
                            const void *data,
                            size_t size,
                            bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_policy_changed_read(self, map, err);
}

char *
proto_policy_changed_print(const proto_policy_changed_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_changed_print(self, &text);
    return proto_text_finish(&text);
}

//  ---------------------------------------------------------------------------
//  policy.scaling_group

static bool
s_scaling_group_check(const proto_policy_scaling_group_t *self, proto_check_t *ck)
{
    if (!proto_check_str(ck, "name", self->name, PROTO_REQUIRED, 64))
        return false;
    if (!proto_check_str(ck, "scheduler", self->scheduler, 0, 16))
        return false;
    if (!proto_check_str(ck, "scheduler_opts", self->scheduler_opts, 0, 65536))
        return false;
    return true;
}

static void
s_scaling_group_write(const proto_policy_scaling_group_t *self, bus_writer_t *writer)
{
    uint32_t pairs = 2;
    pairs += self->scheduler != NULL;
    pairs += self->scheduler_opts != NULL;
    bus_writer_map(writer, pairs);
    proto_write_str(writer, "name", self->name);
    proto_write_bool(writer, "deleted", self->deleted);
    if (self->scheduler != NULL)
        proto_write_str(writer, "scheduler", self->scheduler);
    if (self->scheduler_opts != NULL)
        proto_write_str(writer, "scheduler_opts", self->scheduler_opts);
}

static void
s_scaling_group_read(proto_policy_scaling_group_t *self, proto_in_t *in)
{
    proto_read_str(in, "name", PROTO_REQUIRED, 64, &self->name);
    proto_read_bool(in, "deleted", 0, &self->deleted);
    proto_read_str(in, "scheduler", 0, 16, &self->scheduler);
    proto_read_str(in, "scheduler_opts", 0, 65536, &self->scheduler_opts);
}

static void
s_scaling_group_print(const proto_policy_scaling_group_t *self, proto_text_t *text)
{
    proto_print_str(text, "name", self->name);
    proto_print_bool(text, "deleted", self->deleted);
    proto_print_str(text, "scheduler", self->scheduler);
    proto_print_str(text, "scheduler_opts", self->scheduler_opts);
}

void
proto_policy_scaling_group_init(proto_policy_scaling_group_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

void
proto_policy_scaling_group_clear(proto_policy_scaling_group_t *self)
{
    assert(self);
    proto_arena_free(&self->owned_);
    memset(self, 0, sizeof *self);
}

int
proto_policy_scaling_group_check(const proto_policy_scaling_group_t *self,
                                 bus_error_t *err)
{
    assert(self);
    proto_check_t ck;
    proto_check_init(&ck, "policy.scaling_group", err);
    return s_scaling_group_check(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;
}

int
proto_policy_scaling_group_write(const proto_policy_scaling_group_t *self,
                                 bus_writer_t *writer)
{
    assert(self);
    assert(writer);
    if (proto_policy_scaling_group_check(self, NULL) != BUS_OK)
        return -1;
    s_scaling_group_write(self, writer);
    return 0;
}

zframe_t *
proto_policy_scaling_group_encode(const proto_policy_scaling_group_t *self)
{
    bus_writer_t *writer = bus_writer_new();
    zframe_t *frame = NULL;
    if (writer && proto_policy_scaling_group_write(self, writer) == 0)
        frame = bus_writer_frame(writer);
    bus_writer_destroy(&writer);
    return frame;
}

int
proto_policy_scaling_group_read(proto_policy_scaling_group_t *self,
                                const bus_value_t *map,
                                bus_error_t *err)
{
    proto_in_t in;
    proto_policy_scaling_group_init(self);
    proto_in_init(&in, "policy.scaling_group", map, &self->owned_, err);
    s_scaling_group_read(self, &in);
    if (in.status != BUS_OK)
        proto_policy_scaling_group_clear(self);
    return in.status;
}

int
proto_policy_scaling_group_decode(proto_policy_scaling_group_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err)
{
    bus_reader_t *reader = bus_reader_local();
    const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;
    return proto_policy_scaling_group_read(self, map, err);
}

char *
proto_policy_scaling_group_print(const proto_policy_scaling_group_t *self)
{
    assert(self);
    proto_text_t text;
    proto_text_init(&text);
    s_scaling_group_print(self, &text);
    return proto_text_finish(&text);
}
