//  GENERATED FROM proto/*.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto - the registry of every event, request and reply, and the runtime
    the generated codecs share

    The runtime reads with a sticky status: the first failure stays in the
    proto_in_t and later reads do nothing, so a generated reader is a flat
    list of calls. Printing builds one logfmt line. The registry adapters at
    the end decode into a struct on the stack, so that logging, validation and
    the fuzzer can handle any message by name.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

static void s_fail(proto_in_t *in, const char *key, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

//  ---------------------------------------------------------------------------
//  Registry lookups: a linear scan, the table is small.

const proto_entry_t *
proto_lookup(const char *name, proto_kind_t kind)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < proto_entry_count; i++)
        if (proto_entries[i].kind == kind && strcmp(proto_entries[i].name, name) == 0)
            return &proto_entries[i];
    return NULL;
}

bool
proto_method_idempotent(const char *method)
{
    const proto_entry_t *entry = proto_lookup(method, PROTO_REQUEST);
    return entry && entry->idempotent;
}

const char *
proto_kind_str(proto_kind_t kind)
{
    switch (kind) {
        case PROTO_EVENT:
            return "event";
        case PROTO_REQUEST:
            return "request";
        case PROTO_REPLY:
            return "reply";
    }
    return "unknown";
}

//  ---------------------------------------------------------------------------
//  Reading

void
proto_in_init(proto_in_t *self,
              const char *message,
              const bus_value_t *map,
              void **owned,
              bus_error_t *err)
{
    assert(self);
    assert(message);
    assert(owned);
    memset(self, 0, sizeof *self);
    self->map = map;
    self->message = message;
    self->err = err;
    self->owned = owned;
    if (err) {
        err->status = BUS_OK;
        err->detail[0] = 0;
    }
    if (bus_value_type(map) != BUS_VALUE_MAP) {
        self->status = BUS_STATUS_PROTOCOL;
        bus_error_set(err, BUS_STATUS_PROTOCOL, "%s: not a msgpack map", message);
    }
}

//  An arena block: this header, then its bytes. The head of the chain is the
//  block being filled; a large allocation gets a block of its own, linked in
//  behind the head so that the head's free bytes stay in use.
typedef struct _proto_block_t proto_block_t;
struct _proto_block_t {
    proto_block_t *next;
    size_t size;   //  bytes after the header
    size_t used;
    void *adopted; //  heap memory freed with the block (proto_arena_adopt)
};

#define PROTO_BLOCK_HEADER                                                              \
    ((sizeof(proto_block_t) + PROTO_ARENA_ALIGN - 1) & ~(size_t) (PROTO_ARENA_ALIGN - 1))

void *
proto_arena_alloc(void **owned, size_t size)
{
    assert(owned);
    if (size > SIZE_MAX - PROTO_BLOCK_HEADER - PROTO_ARENA_ALIGN)
        return NULL;
    size = (size + PROTO_ARENA_ALIGN - 1) & ~(size_t) (PROTO_ARENA_ALIGN - 1);
    if (size == 0)
        size = PROTO_ARENA_ALIGN; //  present-but-empty is not NULL
    proto_block_t *head = *owned;
    if (head && head->size - head->used >= size) {
        void *memory = (uint8_t *) head + PROTO_BLOCK_HEADER + head->used;
        head->used += size;
        return memory;
    }
    bool own = size > PROTO_ARENA_BLOCK / 4;
    size_t capacity = own ? size : PROTO_ARENA_BLOCK;
    proto_block_t *block = malloc(PROTO_BLOCK_HEADER + capacity);
    if (!block)
        return NULL;
    block->size = capacity;
    block->used = size;
    block->adopted = NULL;
    if (own && head) {
        block->next = head->next;
        head->next = block;
    } else {
        block->next = head;
        *owned = block;
    }
    return (uint8_t *) block + PROTO_BLOCK_HEADER;
}

void
proto_arena_free(void **owned)
{
    assert(owned);
    proto_block_t *block = *owned;
    while (block) {
        proto_block_t *next = block->next;
        free(block->adopted);
        free(block);
        block = next;
    }
    *owned = NULL;
}

int
proto_arena_adopt(void **owned, void *memory)
{
    assert(owned);
    if (!memory)
        return 0;
    proto_block_t *block = malloc(PROTO_BLOCK_HEADER);
    if (!block)
        return -1;
    block->size = block->used = 0;
    block->adopted = memory;
    proto_block_t *head = *owned;
    if (head) { //  behind the head, which stays the block being filled
        block->next = head->next;
        head->next = block;
    } else {
        block->next = NULL;
        *owned = block;
    }
    return 0;
}

void
proto_arena_join(void **owned, void **other)
{
    assert(owned && other);
    proto_block_t *first = *other;
    if (!first)
        return;
    proto_block_t *last = first;
    while (last->next)
        last = last->next;
    proto_block_t *head = *owned;
    if (head) { //  behind the head, which stays the block being filled
        last->next = head->next;
        head->next = first;
    } else
        *owned = first;
    *other = NULL;
}

char *
proto_arena_strdup(void **owned, const char *text)
{
    return text ? proto_arena_memdup(owned, text, strlen(text) + 1) : NULL;
}

void *
proto_arena_memdup(void **owned, const void *data, size_t size)
{
    void *copy = data ? proto_arena_alloc(owned, size) : NULL;
    if (copy)
        memcpy(copy, data, size);
    return copy;
}

//  size bytes of the arena, or NULL after recording the failure.
static void *
s_alloc(proto_in_t *in, const char *key, size_t size)
{
    void *memory = proto_arena_alloc(in->owned, size);
    if (!memory)
        s_fail(in, key, BUS_STATUS_INTERNAL, "out of memory");
    return memory;
}

//  Records the first failure, in this map and every map around it.
static void
s_fail(proto_in_t *in, const char *key, int status, const char *fmt, ...)
{
    if (in->status != BUS_OK)
        return;
    char reason[BUS_ERROR_DETAIL_MAX];
    va_list args;
    va_start(args, fmt);
    vsnprintf(reason, sizeof reason, fmt, args);
    va_end(args);
    for (proto_in_t *map = in; map; map = map->parent)
        map->status = status;
    bus_error_set(in->err, status, "%s: field '%s%s': %s", in->message, in->path, key,
                  reason);
}

//  The value under key, or NULL when absent, nil, or reading already failed.
static const bus_value_t *
s_find(proto_in_t *in, const char *key, int flags)
{
    if (in->status != BUS_OK)
        return NULL;
    const bus_value_t *value = bus_value_map_find(in->map, key);
    if (bus_value_type(value) == BUS_VALUE_NIL)
        value = NULL;
    if (!value && (flags & PROTO_REQUIRED))
        s_fail(in, key, BUS_STATUS_INVALID, "missing");
    return value;
}

//  A NUL-terminated copy of a string value no longer than max, or NULL after
//  a failure. what names the value in the detail ("", "item 3: ").
static char *
s_copy_str(proto_in_t *in,
           const char *key,
           const char *what,
           const bus_value_t *value,
           size_t max)
{
    const char *ptr;
    size_t len;
    if (!bus_value_get_str(value, &ptr, &len)) {
        s_fail(in, key, BUS_STATUS_PROTOCOL, "%sexpected string", what);
        return NULL;
    }
    if (len > max) {
        s_fail(in, key, BUS_STATUS_INVALID, "%slonger than %zu bytes", what, max);
        return NULL;
    }
    if (memchr(ptr, 0, len)) {
        s_fail(in, key, BUS_STATUS_INVALID, "%scontains a NUL byte", what);
        return NULL;
    }
    char *copy = s_alloc(in, key, len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, ptr, len);
    copy[len] = 0;
    return copy;
}

//  The array under key with at most max items, or NULL (absent or failed).
static const bus_value_t *
s_find_array(proto_in_t *in, const char *key, int flags, size_t max, const char *of)
{
    const bus_value_t *value = s_find(in, key, flags);
    if (!value)
        return NULL;
    if (bus_value_type(value) != BUS_VALUE_ARRAY) {
        s_fail(in, key, BUS_STATUS_PROTOCOL, "expected array of %s", of);
        return NULL;
    }
    if (bus_value_count(value) > max) {
        s_fail(in, key, BUS_STATUS_INVALID, "more than %zu items", max);
        return NULL;
    }
    return value;
}

void
proto_read_str(proto_in_t *in, const char *key, int flags, size_t max, const char **out)
{
    const bus_value_t *value = s_find(in, key, flags);
    char *copy = value ? s_copy_str(in, key, "", value, max) : NULL;
    if (copy)
        *out = copy;
}

void
proto_read_bytes(proto_in_t *in,
                 const char *key,
                 int flags,
                 size_t max,
                 const uint8_t **out,
                 size_t *size)
{
    const bus_value_t *value = s_find(in, key, flags);
    const void *ptr;
    size_t len;
    if (!value)
        return;
    if (!bus_value_get_bin(value, &ptr, &len)) {
        s_fail(in, key, BUS_STATUS_PROTOCOL, "expected bin");
        return;
    }
    if (len > max) {
        s_fail(in, key, BUS_STATUS_INVALID, "longer than %zu bytes", max);
        return;
    }
    //  The arena never returns NULL for 0 bytes: present-but-empty is not NULL.
    uint8_t *copy = s_alloc(in, key, len);
    if (!copy)
        return;
    memcpy(copy, ptr, len);
    *out = copy;
    *size = len;
}

void
proto_read_uuid(proto_in_t *in, const char *key, int flags, uint8_t *out)
{
    const bus_value_t *value = s_find(in, key, flags);
    const void *ptr;
    size_t len;
    if (!value)
        return;
    if (!bus_value_get_bin(value, &ptr, &len) || len != PROTO_UUID_SIZE)
        s_fail(in, key, BUS_STATUS_PROTOCOL, "expected uuid (bin of 16 bytes)");
    else
        memcpy(out, ptr, PROTO_UUID_SIZE);
}

void
proto_read_int(
    proto_in_t *in, const char *key, int flags, int64_t min, int64_t max, int64_t *out)
{
    const bus_value_t *value = s_find(in, key, flags);
    int64_t number;
    if (!value)
        return;
    if (!bus_value_get_int(value, &number)) {
        if (bus_value_type(value) == BUS_VALUE_UINT)
            s_fail(in, key, BUS_STATUS_INVALID, "above the maximum %" PRId64, max);
        else
            s_fail(in, key, BUS_STATUS_PROTOCOL, "expected int");
    } else if (number < min)
        s_fail(in, key, BUS_STATUS_INVALID, "below the minimum %" PRId64, min);
    else if (number > max)
        s_fail(in, key, BUS_STATUS_INVALID, "above the maximum %" PRId64, max);
    else
        *out = number;
}

void
proto_read_uint(proto_in_t *in, const char *key, int flags, uint64_t max, uint64_t *out)
{
    const bus_value_t *value = s_find(in, key, flags);
    uint64_t number;
    if (!value)
        return;
    if (!bus_value_get_uint(value, &number))
        s_fail(in, key, BUS_STATUS_PROTOCOL, "expected uint");
    else if (number > max)
        s_fail(in, key, BUS_STATUS_INVALID, "above the maximum %" PRIu64, max);
    else
        *out = number;
}

void
proto_read_bool(proto_in_t *in, const char *key, int flags, bool *out)
{
    const bus_value_t *value = s_find(in, key, flags);
    if (value && !bus_value_get_bool(value, out))
        s_fail(in, key, BUS_STATUS_PROTOCOL, "expected bool");
}

void
proto_read_double(proto_in_t *in, const char *key, int flags, double *out)
{
    const bus_value_t *value = s_find(in, key, flags);
    if (value && !bus_value_get_double(value, out))
        s_fail(in, key, BUS_STATUS_PROTOCOL, "expected double");
}

const char *const *
proto_read_strs(proto_in_t *in, const char *key, int flags, size_t max, size_t *count)
{
    const bus_value_t *array = s_find_array(in, key, flags, max, "strings");
    uint32_t items = bus_value_count(array);
    *count = 0;
    if (items == 0)
        return NULL;
    const char **copy = s_alloc(in, key, items * sizeof *copy);
    if (!copy)
        return NULL;
    for (uint32_t i = 0; i < items; i++) {
        char what[PROTO_PATH_MAX];
        snprintf(what, sizeof what, "item %" PRIu32 ": ", i);
        copy[i] =
            s_copy_str(in, key, what, bus_value_array_at(array, i), PROTO_UNLIMITED);
        if (!copy[i])
            return NULL; //  the arena keeps what was copied until the clear
    }
    *count = items;
    return copy;
}

const proto_kv_t *
proto_read_map(proto_in_t *in, const char *key, int flags, size_t max, size_t *count)
{
    const bus_value_t *map = s_find(in, key, flags);
    *count = 0;
    if (!map)
        return NULL;
    if (bus_value_type(map) != BUS_VALUE_MAP) {
        s_fail(in, key, BUS_STATUS_PROTOCOL, "expected map of strings");
        return NULL;
    }
    uint32_t pairs = bus_value_count(map);
    if (pairs > max) {
        s_fail(in, key, BUS_STATUS_INVALID, "more than %zu pairs", max);
        return NULL;
    }
    if (pairs == 0)
        return NULL;
    proto_kv_t *copy = s_alloc(in, key, pairs * sizeof *copy);
    if (!copy)
        return NULL;
    for (uint32_t i = 0; i < pairs; i++) {
        char what[PROTO_PATH_MAX];
        snprintf(what, sizeof what, "pair %" PRIu32 ": ", i);
        copy[i].key =
            s_copy_str(in, key, what, bus_value_map_key(map, i), PROTO_UNLIMITED);
        copy[i].value =
            s_copy_str(in, key, what, bus_value_map_value(map, i), PROTO_UNLIMITED);
        if (!copy[i].key || !copy[i].value)
            return NULL; //  the arena keeps what was copied until the clear
    }
    *count = pairs;
    return copy;
}

//  Prepares sub to read value, the map at key (or key[index]) inside in.
static bool
s_enter(proto_in_t *in,
        proto_in_t *sub,
        const bus_value_t *value,
        const char *key,
        const char *index)
{
    char name[PROTO_PATH_MAX];
    snprintf(name, sizeof name, "%s%s", key, index);
    if (bus_value_type(value) != BUS_VALUE_MAP) {
        s_fail(in, name, BUS_STATUS_PROTOCOL, "expected map");
        return false;
    }
    memset(sub, 0, sizeof *sub);
    sub->map = value;
    sub->message = in->message;
    sub->err = in->err;
    sub->parent = in;
    sub->owned = in->owned;
    int length = snprintf(sub->path, sizeof sub->path, "%s%s.", in->path, name);
    if (length < 0 || (size_t) length >= sizeof sub->path)
        sub->path[sizeof sub->path - 1] = 0; //  a truncated path still helps
    return true;
}

void *
proto_read_list(proto_in_t *in,
                const char *key,
                int flags,
                size_t max,
                size_t item_size,
                proto_read_fn *read,
                size_t *count)
{
    const bus_value_t *array = s_find_array(in, key, flags, max, "maps");
    uint32_t items = bus_value_count(array);
    *count = 0;
    if (items == 0)
        return NULL;
    if (item_size > SIZE_MAX / items) {
        s_fail(in, key, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    uint8_t *list = s_alloc(in, key, items * item_size);
    if (!list)
        return NULL;
    memset(list, 0, items * item_size);
    for (uint32_t i = 0; i < items && in->status == BUS_OK; i++) {
        char index[PROTO_PATH_MAX];
        proto_in_t sub;
        snprintf(index, sizeof index, "[%" PRIu32 "]", i);
        if (!s_enter(in, &sub, bus_value_array_at(array, i), key, index))
            break;
        *count = i + 1;
        read(list + i * item_size, &sub);
    }
    return list;
}

bool
proto_read_nested(proto_in_t *in, const char *key, int flags, proto_in_t *sub)
{
    const bus_value_t *value = s_find(in, key, flags);
    return value && s_enter(in, sub, value, key, "");
}

//  ---------------------------------------------------------------------------
//  Checks before writing

void
proto_check_init(proto_check_t *self, const char *message, bus_error_t *err)
{
    assert(self);
    assert(message);
    self->message = message;
    self->path[0] = 0;
    self->err = err;
    if (err) {
        err->status = BUS_OK;
        err->detail[0] = 0;
    }
}

void
proto_check_enter(proto_check_t *self, proto_check_t *sub, const char *key, size_t index)
{
    sub->message = self->message;
    sub->err = self->err;
    int length = index == PROTO_NO_INDEX
                     ? snprintf(sub->path, sizeof sub->path, "%s%s.", self->path, key)
                     : snprintf(sub->path, sizeof sub->path, "%s%s[%zu].", self->path,
                                key, index);
    if (length < 0 || (size_t) length >= sizeof sub->path)
        sub->path[sizeof sub->path - 1] = 0; //  a truncated path still helps
}

static bool s_refuse(proto_check_t *self, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

//  Sets err (when there is one) and answers false.
static bool
s_refuse(proto_check_t *self, const char *key, const char *fmt, ...)
{
    if (!self->err)
        return false;
    char reason[BUS_ERROR_DETAIL_MAX];
    va_list args;
    va_start(args, fmt);
    vsnprintf(reason, sizeof reason, fmt, args);
    va_end(args);
    bus_error_set(self->err, BUS_STATUS_INVALID, "%s: field '%s%s': %s", self->message,
                  self->path, key, reason);
    return false;
}

bool
proto_check_str(
    proto_check_t *self, const char *key, const char *value, int flags, size_t max)
{
    if (!value)
        return !(flags & PROTO_REQUIRED) || s_refuse(self, key, "missing");
    size_t len = strlen(value);
    if (len > max || len > UINT32_MAX)
        return s_refuse(self, key, "%zu bytes, at most %zu", len,
                        max < UINT32_MAX ? max : (size_t) UINT32_MAX);
    return true;
}

bool
proto_check_bytes(proto_check_t *self,
                  const char *key,
                  const uint8_t *data,
                  size_t size,
                  int flags,
                  size_t max)
{
    if (!data)
        return !(flags & PROTO_REQUIRED) || s_refuse(self, key, "missing");
    if (size > max || size > UINT32_MAX)
        return s_refuse(self, key, "%zu bytes, at most %zu", size,
                        max < UINT32_MAX ? max : (size_t) UINT32_MAX);
    return true;
}

bool
proto_check_count(
    proto_check_t *self, const char *key, const void *items, size_t count, size_t max)
{
    if (count > max || count > UINT32_MAX)
        return s_refuse(self, key, "%zu items, at most %zu", count,
                        max < UINT32_MAX ? max : (size_t) UINT32_MAX);
    if (!items && count > 0)
        return s_refuse(self, key, "%zu items but no array", count);
    return true;
}

bool
proto_check_strs(proto_check_t *self,
                 const char *key,
                 const char *const *items,
                 size_t count,
                 size_t max)
{
    if (!proto_check_count(self, key, items, count, max))
        return false;
    for (size_t i = 0; i < count; i++) {
        if (!items[i])
            return s_refuse(self, key, "item %zu: missing", i);
        if (strlen(items[i]) > UINT32_MAX)
            return s_refuse(self, key, "item %zu: longer than %" PRIu32 " bytes", i,
                            UINT32_MAX);
    }
    return true;
}

bool
proto_check_map(proto_check_t *self,
                const char *key,
                const proto_kv_t *pairs,
                size_t count,
                size_t max)
{
    if (count > max || count > UINT32_MAX)
        return s_refuse(self, key, "%zu pairs, at most %zu", count,
                        max < UINT32_MAX ? max : (size_t) UINT32_MAX);
    if (!pairs && count > 0)
        return s_refuse(self, key, "%zu pairs but no array", count);
    for (size_t i = 0; i < count; i++) {
        if (!pairs[i].key || !pairs[i].value)
            return s_refuse(self, key, "pair %zu: missing %s", i,
                            pairs[i].key ? "value" : "key");
        if (strlen(pairs[i].key) > UINT32_MAX || strlen(pairs[i].value) > UINT32_MAX)
            return s_refuse(self, key, "pair %zu: longer than %" PRIu32 " bytes", i,
                            UINT32_MAX);
    }
    return true;
}

bool
proto_check_int(
    proto_check_t *self, const char *key, int64_t value, int64_t min, int64_t max)
{
    if (value < min)
        return s_refuse(self, key, "%" PRId64 ", at least %" PRId64, value, min);
    if (value > max)
        return s_refuse(self, key, "%" PRId64 ", at most %" PRId64, value, max);
    return true;
}

bool
proto_check_uint(proto_check_t *self, const char *key, uint64_t value, uint64_t max)
{
    if (value > max)
        return s_refuse(self, key, "%" PRIu64 ", at most %" PRIu64, value, max);
    return true;
}

//  ---------------------------------------------------------------------------
//  Writing

void
proto_write_str(bus_writer_t *writer, const char *key, const char *value)
{
    bus_writer_str(writer, key);
    bus_writer_str(writer, value);
}

void
proto_write_bytes(bus_writer_t *writer, const char *key, const uint8_t *data, size_t size)
{
    bus_writer_str(writer, key);
    bus_writer_bin(writer, data, size);
}

void
proto_write_uuid(bus_writer_t *writer, const char *key, const uint8_t *uuid)
{
    bus_writer_str(writer, key);
    bus_writer_bin(writer, uuid, PROTO_UUID_SIZE);
}

void
proto_write_int(bus_writer_t *writer, const char *key, int64_t value)
{
    bus_writer_str(writer, key);
    bus_writer_int(writer, value);
}

void
proto_write_uint(bus_writer_t *writer, const char *key, uint64_t value)
{
    bus_writer_str(writer, key);
    bus_writer_uint(writer, value);
}

void
proto_write_bool(bus_writer_t *writer, const char *key, bool value)
{
    bus_writer_str(writer, key);
    bus_writer_bool(writer, value);
}

void
proto_write_double(bus_writer_t *writer, const char *key, double value)
{
    bus_writer_str(writer, key);
    bus_writer_double(writer, value);
}

void
proto_write_strs(bus_writer_t *writer,
                 const char *key,
                 const char *const *items,
                 size_t count)
{
    bus_writer_str(writer, key);
    bus_writer_array(writer, (uint32_t) count);
    for (size_t i = 0; i < count; i++)
        bus_writer_str(writer, items[i]);
}

void
proto_write_map(bus_writer_t *writer,
                const char *key,
                const proto_kv_t *pairs,
                size_t count)
{
    bus_writer_str(writer, key);
    bus_writer_map(writer, (uint32_t) count);
    for (size_t i = 0; i < count; i++) {
        bus_writer_str(writer, pairs[i].key);
        bus_writer_str(writer, pairs[i].value);
    }
}

void
proto_write_array(bus_writer_t *writer, const char *key, size_t count)
{
    bus_writer_str(writer, key);
    bus_writer_array(writer, (uint32_t) count);
}

//  ---------------------------------------------------------------------------
//  Printing

void
proto_text_init(proto_text_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

char *
proto_text_finish(proto_text_t *self)
{
    assert(self);
    char *line = self->data;
    if (!self->failed && !line)
        line = strdup("");
    if (self->failed) {
        free(line);
        line = NULL;
    }
    self->data = NULL;
    return line;
}

size_t
proto_text_enter(proto_text_t *self, const char *key)
{
    size_t mark = strlen(self->prefix);
    snprintf(self->prefix + mark, sizeof self->prefix - mark, "%s.", key);
    return mark;
}

void
proto_text_leave(proto_text_t *self, size_t mark)
{
    if (mark < sizeof self->prefix)
        self->prefix[mark] = 0;
}

static void
s_append(proto_text_t *self, const char *data, size_t len)
{
    if (self->failed)
        return;
    if (self->size + len + 1 > self->allocated) {
        size_t want = self->allocated ? self->allocated * 2 : 128;
        while (want < self->size + len + 1)
            want *= 2;
        char *grown = realloc(self->data, want);
        if (!grown) {
            self->failed = true;
            return;
        }
        self->data = grown;
        self->allocated = want;
    }
    memcpy(self->data + self->size, data, len);
    self->size += len;
    self->data[self->size] = 0;
}

static void s_appendf(proto_text_t *self, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
s_appendf(proto_text_t *self, const char *fmt, ...)
{
    char buffer[64];
    va_list args;
    va_start(args, fmt);
    int len = vsnprintf(buffer, sizeof buffer, fmt, args);
    va_end(args);
    if (len >= 0)
        s_append(self, buffer,
                 (size_t) len < sizeof buffer ? (size_t) len : sizeof buffer - 1);
}

//  " key=" (no space before the first pair), with the nested-value prefix.
static void
s_key(proto_text_t *self, const char *key)
{
    if (self->size > 0)
        s_append(self, " ", 1);
    s_append(self, self->prefix, strlen(self->prefix));
    s_append(self, key, strlen(key));
    s_append(self, "=", 1);
}

//  A logfmt value: bare when it can be, else quoted with \" \\ \n \r \t \xNN.
static void
s_value(proto_text_t *self, const char *value)
{
    bool bare = *value != 0;
    for (const char *p = value; *p && bare; p++)
        if ((unsigned char) *p <= ' ' || *p == '"' || *p == '=' || *p == '\\' ||
            *p == 0x7f)
            bare = false;
    if (bare) {
        s_append(self, value, strlen(value));
        return;
    }
    s_append(self, "\"", 1);
    for (const char *p = value; *p; p++) {
        unsigned char c = (unsigned char) *p;
        if (c == '"' || c == '\\')
            s_appendf(self, "\\%c", c);
        else if (c == '\n')
            s_append(self, "\\n", 2);
        else if (c == '\r')
            s_append(self, "\\r", 2);
        else if (c == '\t')
            s_append(self, "\\t", 2);
        else if (c < ' ' || c == 0x7f)
            s_appendf(self, "\\x%02x", c);
        else
            s_append(self, p, 1);
    }
    s_append(self, "\"", 1);
}

void
proto_print_str(proto_text_t *text, const char *key, const char *value)
{
    if (!value)
        return;
    s_key(text, key);
    s_value(text, value);
}

void
proto_print_bytes(proto_text_t *text, const char *key, const uint8_t *data, size_t size)
{
    if (!data)
        return;
    s_key(text, key);
    s_appendf(text, "<%zu bytes>", size);
}

void
proto_print_uuid(proto_text_t *text, const char *key, const uint8_t *uuid)
{
    s_key(text, key);
    for (int i = 0; i < PROTO_UUID_SIZE; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            s_append(text, "-", 1);
        s_appendf(text, "%02x", uuid[i]);
    }
}

void
proto_print_int(proto_text_t *text, const char *key, int64_t value)
{
    s_key(text, key);
    s_appendf(text, "%" PRId64, value);
}

void
proto_print_uint(proto_text_t *text, const char *key, uint64_t value)
{
    s_key(text, key);
    s_appendf(text, "%" PRIu64, value);
}

void
proto_print_bool(proto_text_t *text, const char *key, bool value)
{
    s_key(text, key);
    s_append(text, value ? "true" : "false", value ? 4 : 5);
}

void
proto_print_double(proto_text_t *text, const char *key, double value)
{
    //  The shortest form that reads back as the same double.
    char buffer[64];
    for (int precision = 15; precision <= 17; precision++) {
        snprintf(buffer, sizeof buffer, "%.*g", precision, value);
        if (strtod(buffer, NULL) == value)
            break;
    }
    s_key(text, key);
    s_append(text, buffer, strlen(buffer));
}

void
proto_print_count(proto_text_t *text, const char *key, size_t count)
{
    if (count == 0)
        return;
    s_key(text, key);
    s_appendf(text, "[%zu]", count);
}

void
proto_print_redacted(proto_text_t *text, const char *key)
{
    s_key(text, key);
    s_append(text, "[redacted]", 10);
}

//  ---------------------------------------------------------------------------
//  Registry adapters, one set per entry: decode into a stack struct, use it,
//  clear it.

static const void *
s_frame_data(zframe_t *frame)
{
    return frame ? zframe_data(frame) : NULL;
}

static size_t
s_frame_size(zframe_t *frame)
{
    return frame ? zframe_size(frame) : 0;
}

//  0 when both prints and both encodings exist and are equal. Frees them all.
static int
s_same(char *text_one, char *text_two, zframe_t **one_p, zframe_t **two_p)
{
    int rc = text_one && text_two && *one_p && *two_p &&
                     strcmp(text_one, text_two) == 0 && zframe_eq(*one_p, *two_p)
                 ? 0
                 : -1;
    free(text_one);
    free(text_two);
    zframe_destroy(one_p);
    zframe_destroy(two_p);
    return rc;
}

static int
s_accounting_usage_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_accounting_usage_req_t msg;
    int rc = proto_accounting_usage_req_decode(&msg, data, size, err);
    proto_accounting_usage_req_clear(&msg);
    return rc;
}

static char *
s_accounting_usage_req_print(const void *data, size_t size)
{
    proto_accounting_usage_req_t msg;
    char *text = NULL;
    if (proto_accounting_usage_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_accounting_usage_req_print(&msg);
    proto_accounting_usage_req_clear(&msg);
    return text;
}

static int
s_accounting_usage_req_roundtrip(const void *data, size_t size)
{
    proto_accounting_usage_req_t one, two;
    if (proto_accounting_usage_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_accounting_usage_req_encode(&one);
    proto_accounting_usage_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                      NULL);
    zframe_t *second = proto_accounting_usage_req_encode(&two);
    char *text_one = proto_accounting_usage_req_print(&one);
    char *text_two = proto_accounting_usage_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_accounting_usage_req_clear(&one);
    proto_accounting_usage_req_clear(&two);
    return rc;
}

static int
s_accounting_usage_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_accounting_usage_rep_t msg;
    int rc = proto_accounting_usage_rep_decode(&msg, data, size, err);
    proto_accounting_usage_rep_clear(&msg);
    return rc;
}

static char *
s_accounting_usage_rep_print(const void *data, size_t size)
{
    proto_accounting_usage_rep_t msg;
    char *text = NULL;
    if (proto_accounting_usage_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_accounting_usage_rep_print(&msg);
    proto_accounting_usage_rep_clear(&msg);
    return text;
}

static int
s_accounting_usage_rep_roundtrip(const void *data, size_t size)
{
    proto_accounting_usage_rep_t one, two;
    if (proto_accounting_usage_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_accounting_usage_rep_encode(&one);
    proto_accounting_usage_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                      NULL);
    zframe_t *second = proto_accounting_usage_rep_encode(&two);
    char *text_one = proto_accounting_usage_rep_print(&one);
    char *text_two = proto_accounting_usage_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_accounting_usage_rep_clear(&one);
    proto_accounting_usage_rep_clear(&two);
    return rc;
}

static int
s_accounting_stats_user_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_accounting_stats_user_req_t msg;
    int rc = proto_accounting_stats_user_req_decode(&msg, data, size, err);
    proto_accounting_stats_user_req_clear(&msg);
    return rc;
}

static char *
s_accounting_stats_user_req_print(const void *data, size_t size)
{
    proto_accounting_stats_user_req_t msg;
    char *text = NULL;
    if (proto_accounting_stats_user_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_accounting_stats_user_req_print(&msg);
    proto_accounting_stats_user_req_clear(&msg);
    return text;
}

static int
s_accounting_stats_user_req_roundtrip(const void *data, size_t size)
{
    proto_accounting_stats_user_req_t one, two;
    if (proto_accounting_stats_user_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_accounting_stats_user_req_encode(&one);
    proto_accounting_stats_user_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                           NULL);
    zframe_t *second = proto_accounting_stats_user_req_encode(&two);
    char *text_one = proto_accounting_stats_user_req_print(&one);
    char *text_two = proto_accounting_stats_user_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_accounting_stats_user_req_clear(&one);
    proto_accounting_stats_user_req_clear(&two);
    return rc;
}

static int
s_accounting_stats_user_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_accounting_stats_user_rep_t msg;
    int rc = proto_accounting_stats_user_rep_decode(&msg, data, size, err);
    proto_accounting_stats_user_rep_clear(&msg);
    return rc;
}

static char *
s_accounting_stats_user_rep_print(const void *data, size_t size)
{
    proto_accounting_stats_user_rep_t msg;
    char *text = NULL;
    if (proto_accounting_stats_user_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_accounting_stats_user_rep_print(&msg);
    proto_accounting_stats_user_rep_clear(&msg);
    return text;
}

static int
s_accounting_stats_user_rep_roundtrip(const void *data, size_t size)
{
    proto_accounting_stats_user_rep_t one, two;
    if (proto_accounting_stats_user_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_accounting_stats_user_rep_encode(&one);
    proto_accounting_stats_user_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                           NULL);
    zframe_t *second = proto_accounting_stats_user_rep_encode(&two);
    char *text_one = proto_accounting_stats_user_rep_print(&one);
    char *text_two = proto_accounting_stats_user_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_accounting_stats_user_rep_clear(&one);
    proto_accounting_stats_user_rep_clear(&two);
    return rc;
}

static int
s_accounting_stats_all_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_accounting_stats_all_req_t msg;
    int rc = proto_accounting_stats_all_req_decode(&msg, data, size, err);
    proto_accounting_stats_all_req_clear(&msg);
    return rc;
}

static char *
s_accounting_stats_all_req_print(const void *data, size_t size)
{
    proto_accounting_stats_all_req_t msg;
    char *text = NULL;
    if (proto_accounting_stats_all_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_accounting_stats_all_req_print(&msg);
    proto_accounting_stats_all_req_clear(&msg);
    return text;
}

static int
s_accounting_stats_all_req_roundtrip(const void *data, size_t size)
{
    proto_accounting_stats_all_req_t one, two;
    if (proto_accounting_stats_all_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_accounting_stats_all_req_encode(&one);
    proto_accounting_stats_all_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                          NULL);
    zframe_t *second = proto_accounting_stats_all_req_encode(&two);
    char *text_one = proto_accounting_stats_all_req_print(&one);
    char *text_two = proto_accounting_stats_all_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_accounting_stats_all_req_clear(&one);
    proto_accounting_stats_all_req_clear(&two);
    return rc;
}

static int
s_accounting_stats_all_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_accounting_stats_all_rep_t msg;
    int rc = proto_accounting_stats_all_rep_decode(&msg, data, size, err);
    proto_accounting_stats_all_rep_clear(&msg);
    return rc;
}

static char *
s_accounting_stats_all_rep_print(const void *data, size_t size)
{
    proto_accounting_stats_all_rep_t msg;
    char *text = NULL;
    if (proto_accounting_stats_all_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_accounting_stats_all_rep_print(&msg);
    proto_accounting_stats_all_rep_clear(&msg);
    return text;
}

static int
s_accounting_stats_all_rep_roundtrip(const void *data, size_t size)
{
    proto_accounting_stats_all_rep_t one, two;
    if (proto_accounting_stats_all_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_accounting_stats_all_rep_encode(&one);
    proto_accounting_stats_all_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                          NULL);
    zframe_t *second = proto_accounting_stats_all_rep_encode(&two);
    char *text_one = proto_accounting_stats_all_rep_print(&one);
    char *text_two = proto_accounting_stats_all_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_accounting_stats_all_rep_clear(&one);
    proto_accounting_stats_all_rep_clear(&two);
    return rc;
}

static int
s_accounting_recalculate_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_accounting_recalculate_req_t msg;
    int rc = proto_accounting_recalculate_req_decode(&msg, data, size, err);
    proto_accounting_recalculate_req_clear(&msg);
    return rc;
}

static char *
s_accounting_recalculate_req_print(const void *data, size_t size)
{
    proto_accounting_recalculate_req_t msg;
    char *text = NULL;
    if (proto_accounting_recalculate_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_accounting_recalculate_req_print(&msg);
    proto_accounting_recalculate_req_clear(&msg);
    return text;
}

static int
s_accounting_recalculate_req_roundtrip(const void *data, size_t size)
{
    proto_accounting_recalculate_req_t one, two;
    if (proto_accounting_recalculate_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_accounting_recalculate_req_encode(&one);
    proto_accounting_recalculate_req_decode(&two, s_frame_data(first),
                                            s_frame_size(first), NULL);
    zframe_t *second = proto_accounting_recalculate_req_encode(&two);
    char *text_one = proto_accounting_recalculate_req_print(&one);
    char *text_two = proto_accounting_recalculate_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_accounting_recalculate_req_clear(&one);
    proto_accounting_recalculate_req_clear(&two);
    return rc;
}

static int
s_accounting_recalculate_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_accounting_recalculate_rep_t msg;
    int rc = proto_accounting_recalculate_rep_decode(&msg, data, size, err);
    proto_accounting_recalculate_rep_clear(&msg);
    return rc;
}

static char *
s_accounting_recalculate_rep_print(const void *data, size_t size)
{
    proto_accounting_recalculate_rep_t msg;
    char *text = NULL;
    if (proto_accounting_recalculate_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_accounting_recalculate_rep_print(&msg);
    proto_accounting_recalculate_rep_clear(&msg);
    return text;
}

static int
s_accounting_recalculate_rep_roundtrip(const void *data, size_t size)
{
    proto_accounting_recalculate_rep_t one, two;
    if (proto_accounting_recalculate_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_accounting_recalculate_rep_encode(&one);
    proto_accounting_recalculate_rep_decode(&two, s_frame_data(first),
                                            s_frame_size(first), NULL);
    zframe_t *second = proto_accounting_recalculate_rep_encode(&two);
    char *text_one = proto_accounting_recalculate_rep_print(&one);
    char *text_two = proto_accounting_recalculate_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_accounting_recalculate_rep_clear(&one);
    proto_accounting_recalculate_rep_clear(&two);
    return rc;
}

static int
s_accounting_live_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_accounting_live_req_t msg;
    int rc = proto_accounting_live_req_decode(&msg, data, size, err);
    proto_accounting_live_req_clear(&msg);
    return rc;
}

static char *
s_accounting_live_req_print(const void *data, size_t size)
{
    proto_accounting_live_req_t msg;
    char *text = NULL;
    if (proto_accounting_live_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_accounting_live_req_print(&msg);
    proto_accounting_live_req_clear(&msg);
    return text;
}

static int
s_accounting_live_req_roundtrip(const void *data, size_t size)
{
    proto_accounting_live_req_t one, two;
    if (proto_accounting_live_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_accounting_live_req_encode(&one);
    proto_accounting_live_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                     NULL);
    zframe_t *second = proto_accounting_live_req_encode(&two);
    char *text_one = proto_accounting_live_req_print(&one);
    char *text_two = proto_accounting_live_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_accounting_live_req_clear(&one);
    proto_accounting_live_req_clear(&two);
    return rc;
}

static int
s_accounting_live_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_accounting_live_rep_t msg;
    int rc = proto_accounting_live_rep_decode(&msg, data, size, err);
    proto_accounting_live_rep_clear(&msg);
    return rc;
}

static char *
s_accounting_live_rep_print(const void *data, size_t size)
{
    proto_accounting_live_rep_t msg;
    char *text = NULL;
    if (proto_accounting_live_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_accounting_live_rep_print(&msg);
    proto_accounting_live_rep_clear(&msg);
    return text;
}

static int
s_accounting_live_rep_roundtrip(const void *data, size_t size)
{
    proto_accounting_live_rep_t one, two;
    if (proto_accounting_live_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_accounting_live_rep_encode(&one);
    proto_accounting_live_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                     NULL);
    zframe_t *second = proto_accounting_live_rep_encode(&two);
    char *text_one = proto_accounting_live_rep_print(&one);
    char *text_two = proto_accounting_live_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_accounting_live_rep_clear(&one);
    proto_accounting_live_rep_clear(&two);
    return rc;
}

static int
s_agent_heartbeat_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_agent_heartbeat_t msg;
    int rc = proto_agent_heartbeat_decode(&msg, data, size, err);
    proto_agent_heartbeat_clear(&msg);
    return rc;
}

static char *
s_agent_heartbeat_print(const void *data, size_t size)
{
    proto_agent_heartbeat_t msg;
    char *text = NULL;
    if (proto_agent_heartbeat_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_agent_heartbeat_print(&msg);
    proto_agent_heartbeat_clear(&msg);
    return text;
}

static int
s_agent_heartbeat_roundtrip(const void *data, size_t size)
{
    proto_agent_heartbeat_t one, two;
    if (proto_agent_heartbeat_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_agent_heartbeat_encode(&one);
    proto_agent_heartbeat_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_agent_heartbeat_encode(&two);
    char *text_one = proto_agent_heartbeat_print(&one);
    char *text_two = proto_agent_heartbeat_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_agent_heartbeat_clear(&one);
    proto_agent_heartbeat_clear(&two);
    return rc;
}

static int
s_agent_stats_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_agent_stats_t msg;
    int rc = proto_agent_stats_decode(&msg, data, size, err);
    proto_agent_stats_clear(&msg);
    return rc;
}

static char *
s_agent_stats_print(const void *data, size_t size)
{
    proto_agent_stats_t msg;
    char *text = NULL;
    if (proto_agent_stats_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_agent_stats_print(&msg);
    proto_agent_stats_clear(&msg);
    return text;
}

static int
s_agent_stats_roundtrip(const void *data, size_t size)
{
    proto_agent_stats_t one, two;
    if (proto_agent_stats_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_agent_stats_encode(&one);
    proto_agent_stats_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_agent_stats_encode(&two);
    char *text_one = proto_agent_stats_print(&one);
    char *text_two = proto_agent_stats_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_agent_stats_clear(&one);
    proto_agent_stats_clear(&two);
    return rc;
}

static int
s_bus_replay_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_bus_replay_req_t msg;
    int rc = proto_bus_replay_req_decode(&msg, data, size, err);
    proto_bus_replay_req_clear(&msg);
    return rc;
}

static char *
s_bus_replay_req_print(const void *data, size_t size)
{
    proto_bus_replay_req_t msg;
    char *text = NULL;
    if (proto_bus_replay_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_bus_replay_req_print(&msg);
    proto_bus_replay_req_clear(&msg);
    return text;
}

static int
s_bus_replay_req_roundtrip(const void *data, size_t size)
{
    proto_bus_replay_req_t one, two;
    if (proto_bus_replay_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_bus_replay_req_encode(&one);
    proto_bus_replay_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_bus_replay_req_encode(&two);
    char *text_one = proto_bus_replay_req_print(&one);
    char *text_two = proto_bus_replay_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_bus_replay_req_clear(&one);
    proto_bus_replay_req_clear(&two);
    return rc;
}

static int
s_bus_replay_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_bus_replay_rep_t msg;
    int rc = proto_bus_replay_rep_decode(&msg, data, size, err);
    proto_bus_replay_rep_clear(&msg);
    return rc;
}

static char *
s_bus_replay_rep_print(const void *data, size_t size)
{
    proto_bus_replay_rep_t msg;
    char *text = NULL;
    if (proto_bus_replay_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_bus_replay_rep_print(&msg);
    proto_bus_replay_rep_clear(&msg);
    return text;
}

static int
s_bus_replay_rep_roundtrip(const void *data, size_t size)
{
    proto_bus_replay_rep_t one, two;
    if (proto_bus_replay_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_bus_replay_rep_encode(&one);
    proto_bus_replay_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_bus_replay_rep_encode(&two);
    char *text_one = proto_bus_replay_rep_print(&one);
    char *text_two = proto_bus_replay_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_bus_replay_rep_clear(&one);
    proto_bus_replay_rep_clear(&two);
    return rc;
}

static int
s_gateway_access_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_gateway_access_t msg;
    int rc = proto_gateway_access_decode(&msg, data, size, err);
    proto_gateway_access_clear(&msg);
    return rc;
}

static char *
s_gateway_access_print(const void *data, size_t size)
{
    proto_gateway_access_t msg;
    char *text = NULL;
    if (proto_gateway_access_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_gateway_access_print(&msg);
    proto_gateway_access_clear(&msg);
    return text;
}

static int
s_gateway_access_roundtrip(const void *data, size_t size)
{
    proto_gateway_access_t one, two;
    if (proto_gateway_access_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_gateway_access_encode(&one);
    proto_gateway_access_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_gateway_access_encode(&two);
    char *text_one = proto_gateway_access_print(&one);
    char *text_two = proto_gateway_access_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_gateway_access_clear(&one);
    proto_gateway_access_clear(&two);
    return rc;
}

static int
s_image_catalog_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_image_catalog_t msg;
    int rc = proto_image_catalog_decode(&msg, data, size, err);
    proto_image_catalog_clear(&msg);
    return rc;
}

static char *
s_image_catalog_print(const void *data, size_t size)
{
    proto_image_catalog_t msg;
    char *text = NULL;
    if (proto_image_catalog_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_image_catalog_print(&msg);
    proto_image_catalog_clear(&msg);
    return text;
}

static int
s_image_catalog_roundtrip(const void *data, size_t size)
{
    proto_image_catalog_t one, two;
    if (proto_image_catalog_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_image_catalog_encode(&one);
    proto_image_catalog_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_image_catalog_encode(&two);
    char *text_one = proto_image_catalog_print(&one);
    char *text_two = proto_image_catalog_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_image_catalog_clear(&one);
    proto_image_catalog_clear(&two);
    return rc;
}

static int
s_image_rescan_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_image_rescan_req_t msg;
    int rc = proto_image_rescan_req_decode(&msg, data, size, err);
    proto_image_rescan_req_clear(&msg);
    return rc;
}

static char *
s_image_rescan_req_print(const void *data, size_t size)
{
    proto_image_rescan_req_t msg;
    char *text = NULL;
    if (proto_image_rescan_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_image_rescan_req_print(&msg);
    proto_image_rescan_req_clear(&msg);
    return text;
}

static int
s_image_rescan_req_roundtrip(const void *data, size_t size)
{
    proto_image_rescan_req_t one, two;
    if (proto_image_rescan_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_image_rescan_req_encode(&one);
    proto_image_rescan_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_image_rescan_req_encode(&two);
    char *text_one = proto_image_rescan_req_print(&one);
    char *text_two = proto_image_rescan_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_image_rescan_req_clear(&one);
    proto_image_rescan_req_clear(&two);
    return rc;
}

static int
s_image_rescan_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_image_rescan_rep_t msg;
    int rc = proto_image_rescan_rep_decode(&msg, data, size, err);
    proto_image_rescan_rep_clear(&msg);
    return rc;
}

static char *
s_image_rescan_rep_print(const void *data, size_t size)
{
    proto_image_rescan_rep_t msg;
    char *text = NULL;
    if (proto_image_rescan_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_image_rescan_rep_print(&msg);
    proto_image_rescan_rep_clear(&msg);
    return text;
}

static int
s_image_rescan_rep_roundtrip(const void *data, size_t size)
{
    proto_image_rescan_rep_t one, two;
    if (proto_image_rescan_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_image_rescan_rep_encode(&one);
    proto_image_rescan_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_image_rescan_rep_encode(&two);
    char *text_one = proto_image_rescan_rep_print(&one);
    char *text_two = proto_image_rescan_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_image_rescan_rep_clear(&one);
    proto_image_rescan_rep_clear(&two);
    return rc;
}

static int
s_kernel_started_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_started_t msg;
    int rc = proto_kernel_started_decode(&msg, data, size, err);
    proto_kernel_started_clear(&msg);
    return rc;
}

static char *
s_kernel_started_print(const void *data, size_t size)
{
    proto_kernel_started_t msg;
    char *text = NULL;
    if (proto_kernel_started_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_started_print(&msg);
    proto_kernel_started_clear(&msg);
    return text;
}

static int
s_kernel_started_roundtrip(const void *data, size_t size)
{
    proto_kernel_started_t one, two;
    if (proto_kernel_started_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_started_encode(&one);
    proto_kernel_started_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_started_encode(&two);
    char *text_one = proto_kernel_started_print(&one);
    char *text_two = proto_kernel_started_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_started_clear(&one);
    proto_kernel_started_clear(&two);
    return rc;
}

static int
s_kernel_terminated_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_terminated_t msg;
    int rc = proto_kernel_terminated_decode(&msg, data, size, err);
    proto_kernel_terminated_clear(&msg);
    return rc;
}

static char *
s_kernel_terminated_print(const void *data, size_t size)
{
    proto_kernel_terminated_t msg;
    char *text = NULL;
    if (proto_kernel_terminated_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_terminated_print(&msg);
    proto_kernel_terminated_clear(&msg);
    return text;
}

static int
s_kernel_terminated_roundtrip(const void *data, size_t size)
{
    proto_kernel_terminated_t one, two;
    if (proto_kernel_terminated_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_terminated_encode(&one);
    proto_kernel_terminated_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_terminated_encode(&two);
    char *text_one = proto_kernel_terminated_print(&one);
    char *text_two = proto_kernel_terminated_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_terminated_clear(&one);
    proto_kernel_terminated_clear(&two);
    return rc;
}

static int
s_kernel_app_started_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_app_started_t msg;
    int rc = proto_kernel_app_started_decode(&msg, data, size, err);
    proto_kernel_app_started_clear(&msg);
    return rc;
}

static char *
s_kernel_app_started_print(const void *data, size_t size)
{
    proto_kernel_app_started_t msg;
    char *text = NULL;
    if (proto_kernel_app_started_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_app_started_print(&msg);
    proto_kernel_app_started_clear(&msg);
    return text;
}

static int
s_kernel_app_started_roundtrip(const void *data, size_t size)
{
    proto_kernel_app_started_t one, two;
    if (proto_kernel_app_started_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_app_started_encode(&one);
    proto_kernel_app_started_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_app_started_encode(&two);
    char *text_one = proto_kernel_app_started_print(&one);
    char *text_two = proto_kernel_app_started_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_app_started_clear(&one);
    proto_kernel_app_started_clear(&two);
    return rc;
}

static int
s_kernel_app_failed_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_app_failed_t msg;
    int rc = proto_kernel_app_failed_decode(&msg, data, size, err);
    proto_kernel_app_failed_clear(&msg);
    return rc;
}

static char *
s_kernel_app_failed_print(const void *data, size_t size)
{
    proto_kernel_app_failed_t msg;
    char *text = NULL;
    if (proto_kernel_app_failed_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_app_failed_print(&msg);
    proto_kernel_app_failed_clear(&msg);
    return text;
}

static int
s_kernel_app_failed_roundtrip(const void *data, size_t size)
{
    proto_kernel_app_failed_t one, two;
    if (proto_kernel_app_failed_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_app_failed_encode(&one);
    proto_kernel_app_failed_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_app_failed_encode(&two);
    char *text_one = proto_kernel_app_failed_print(&one);
    char *text_two = proto_kernel_app_failed_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_app_failed_clear(&one);
    proto_kernel_app_failed_clear(&two);
    return rc;
}

static int
s_kernel_model_status_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_model_status_t msg;
    int rc = proto_kernel_model_status_decode(&msg, data, size, err);
    proto_kernel_model_status_clear(&msg);
    return rc;
}

static char *
s_kernel_model_status_print(const void *data, size_t size)
{
    proto_kernel_model_status_t msg;
    char *text = NULL;
    if (proto_kernel_model_status_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_model_status_print(&msg);
    proto_kernel_model_status_clear(&msg);
    return text;
}

static int
s_kernel_model_status_roundtrip(const void *data, size_t size)
{
    proto_kernel_model_status_t one, two;
    if (proto_kernel_model_status_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_model_status_encode(&one);
    proto_kernel_model_status_decode(&two, s_frame_data(first), s_frame_size(first),
                                     NULL);
    zframe_t *second = proto_kernel_model_status_encode(&two);
    char *text_one = proto_kernel_model_status_print(&one);
    char *text_two = proto_kernel_model_status_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_model_status_clear(&one);
    proto_kernel_model_status_clear(&two);
    return rc;
}

static int
s_kernel_stats_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_stats_t msg;
    int rc = proto_kernel_stats_decode(&msg, data, size, err);
    proto_kernel_stats_clear(&msg);
    return rc;
}

static char *
s_kernel_stats_print(const void *data, size_t size)
{
    proto_kernel_stats_t msg;
    char *text = NULL;
    if (proto_kernel_stats_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_stats_print(&msg);
    proto_kernel_stats_clear(&msg);
    return text;
}

static int
s_kernel_stats_roundtrip(const void *data, size_t size)
{
    proto_kernel_stats_t one, two;
    if (proto_kernel_stats_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_stats_encode(&one);
    proto_kernel_stats_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_stats_encode(&two);
    char *text_one = proto_kernel_stats_print(&one);
    char *text_two = proto_kernel_stats_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_stats_clear(&one);
    proto_kernel_stats_clear(&two);
    return rc;
}

static int
s_kernel_create_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_create_req_t msg;
    int rc = proto_kernel_create_req_decode(&msg, data, size, err);
    proto_kernel_create_req_clear(&msg);
    return rc;
}

static char *
s_kernel_create_req_print(const void *data, size_t size)
{
    proto_kernel_create_req_t msg;
    char *text = NULL;
    if (proto_kernel_create_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_create_req_print(&msg);
    proto_kernel_create_req_clear(&msg);
    return text;
}

static int
s_kernel_create_req_roundtrip(const void *data, size_t size)
{
    proto_kernel_create_req_t one, two;
    if (proto_kernel_create_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_create_req_encode(&one);
    proto_kernel_create_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_create_req_encode(&two);
    char *text_one = proto_kernel_create_req_print(&one);
    char *text_two = proto_kernel_create_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_create_req_clear(&one);
    proto_kernel_create_req_clear(&two);
    return rc;
}

static int
s_kernel_create_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_create_rep_t msg;
    int rc = proto_kernel_create_rep_decode(&msg, data, size, err);
    proto_kernel_create_rep_clear(&msg);
    return rc;
}

static char *
s_kernel_create_rep_print(const void *data, size_t size)
{
    proto_kernel_create_rep_t msg;
    char *text = NULL;
    if (proto_kernel_create_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_create_rep_print(&msg);
    proto_kernel_create_rep_clear(&msg);
    return text;
}

static int
s_kernel_create_rep_roundtrip(const void *data, size_t size)
{
    proto_kernel_create_rep_t one, two;
    if (proto_kernel_create_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_create_rep_encode(&one);
    proto_kernel_create_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_create_rep_encode(&two);
    char *text_one = proto_kernel_create_rep_print(&one);
    char *text_two = proto_kernel_create_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_create_rep_clear(&one);
    proto_kernel_create_rep_clear(&two);
    return rc;
}

static int
s_kernel_hosts_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_hosts_req_t msg;
    int rc = proto_kernel_hosts_req_decode(&msg, data, size, err);
    proto_kernel_hosts_req_clear(&msg);
    return rc;
}

static char *
s_kernel_hosts_req_print(const void *data, size_t size)
{
    proto_kernel_hosts_req_t msg;
    char *text = NULL;
    if (proto_kernel_hosts_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_hosts_req_print(&msg);
    proto_kernel_hosts_req_clear(&msg);
    return text;
}

static int
s_kernel_hosts_req_roundtrip(const void *data, size_t size)
{
    proto_kernel_hosts_req_t one, two;
    if (proto_kernel_hosts_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_hosts_req_encode(&one);
    proto_kernel_hosts_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_hosts_req_encode(&two);
    char *text_one = proto_kernel_hosts_req_print(&one);
    char *text_two = proto_kernel_hosts_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_hosts_req_clear(&one);
    proto_kernel_hosts_req_clear(&two);
    return rc;
}

static int
s_kernel_hosts_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_hosts_rep_t msg;
    int rc = proto_kernel_hosts_rep_decode(&msg, data, size, err);
    proto_kernel_hosts_rep_clear(&msg);
    return rc;
}

static char *
s_kernel_hosts_rep_print(const void *data, size_t size)
{
    proto_kernel_hosts_rep_t msg;
    char *text = NULL;
    if (proto_kernel_hosts_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_hosts_rep_print(&msg);
    proto_kernel_hosts_rep_clear(&msg);
    return text;
}

static int
s_kernel_hosts_rep_roundtrip(const void *data, size_t size)
{
    proto_kernel_hosts_rep_t one, two;
    if (proto_kernel_hosts_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_hosts_rep_encode(&one);
    proto_kernel_hosts_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_hosts_rep_encode(&two);
    char *text_one = proto_kernel_hosts_rep_print(&one);
    char *text_two = proto_kernel_hosts_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_hosts_rep_clear(&one);
    proto_kernel_hosts_rep_clear(&two);
    return rc;
}

static int
s_kernel_destroy_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_destroy_req_t msg;
    int rc = proto_kernel_destroy_req_decode(&msg, data, size, err);
    proto_kernel_destroy_req_clear(&msg);
    return rc;
}

static char *
s_kernel_destroy_req_print(const void *data, size_t size)
{
    proto_kernel_destroy_req_t msg;
    char *text = NULL;
    if (proto_kernel_destroy_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_destroy_req_print(&msg);
    proto_kernel_destroy_req_clear(&msg);
    return text;
}

static int
s_kernel_destroy_req_roundtrip(const void *data, size_t size)
{
    proto_kernel_destroy_req_t one, two;
    if (proto_kernel_destroy_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_destroy_req_encode(&one);
    proto_kernel_destroy_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_destroy_req_encode(&two);
    char *text_one = proto_kernel_destroy_req_print(&one);
    char *text_two = proto_kernel_destroy_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_destroy_req_clear(&one);
    proto_kernel_destroy_req_clear(&two);
    return rc;
}

static int
s_kernel_destroy_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_destroy_rep_t msg;
    int rc = proto_kernel_destroy_rep_decode(&msg, data, size, err);
    proto_kernel_destroy_rep_clear(&msg);
    return rc;
}

static char *
s_kernel_destroy_rep_print(const void *data, size_t size)
{
    proto_kernel_destroy_rep_t msg;
    char *text = NULL;
    if (proto_kernel_destroy_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_destroy_rep_print(&msg);
    proto_kernel_destroy_rep_clear(&msg);
    return text;
}

static int
s_kernel_destroy_rep_roundtrip(const void *data, size_t size)
{
    proto_kernel_destroy_rep_t one, two;
    if (proto_kernel_destroy_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_destroy_rep_encode(&one);
    proto_kernel_destroy_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_destroy_rep_encode(&two);
    char *text_one = proto_kernel_destroy_rep_print(&one);
    char *text_two = proto_kernel_destroy_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_destroy_rep_clear(&one);
    proto_kernel_destroy_rep_clear(&two);
    return rc;
}

static int
s_kernel_restart_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_restart_req_t msg;
    int rc = proto_kernel_restart_req_decode(&msg, data, size, err);
    proto_kernel_restart_req_clear(&msg);
    return rc;
}

static char *
s_kernel_restart_req_print(const void *data, size_t size)
{
    proto_kernel_restart_req_t msg;
    char *text = NULL;
    if (proto_kernel_restart_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_restart_req_print(&msg);
    proto_kernel_restart_req_clear(&msg);
    return text;
}

static int
s_kernel_restart_req_roundtrip(const void *data, size_t size)
{
    proto_kernel_restart_req_t one, two;
    if (proto_kernel_restart_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_restart_req_encode(&one);
    proto_kernel_restart_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_restart_req_encode(&two);
    char *text_one = proto_kernel_restart_req_print(&one);
    char *text_two = proto_kernel_restart_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_restart_req_clear(&one);
    proto_kernel_restart_req_clear(&two);
    return rc;
}

static int
s_kernel_restart_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_restart_rep_t msg;
    int rc = proto_kernel_restart_rep_decode(&msg, data, size, err);
    proto_kernel_restart_rep_clear(&msg);
    return rc;
}

static char *
s_kernel_restart_rep_print(const void *data, size_t size)
{
    proto_kernel_restart_rep_t msg;
    char *text = NULL;
    if (proto_kernel_restart_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_restart_rep_print(&msg);
    proto_kernel_restart_rep_clear(&msg);
    return text;
}

static int
s_kernel_restart_rep_roundtrip(const void *data, size_t size)
{
    proto_kernel_restart_rep_t one, two;
    if (proto_kernel_restart_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_restart_rep_encode(&one);
    proto_kernel_restart_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_restart_rep_encode(&two);
    char *text_one = proto_kernel_restart_rep_print(&one);
    char *text_two = proto_kernel_restart_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_restart_rep_clear(&one);
    proto_kernel_restart_rep_clear(&two);
    return rc;
}

static int
s_kernel_execute_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_execute_req_t msg;
    int rc = proto_kernel_execute_req_decode(&msg, data, size, err);
    proto_kernel_execute_req_clear(&msg);
    return rc;
}

static char *
s_kernel_execute_req_print(const void *data, size_t size)
{
    proto_kernel_execute_req_t msg;
    char *text = NULL;
    if (proto_kernel_execute_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_execute_req_print(&msg);
    proto_kernel_execute_req_clear(&msg);
    return text;
}

static int
s_kernel_execute_req_roundtrip(const void *data, size_t size)
{
    proto_kernel_execute_req_t one, two;
    if (proto_kernel_execute_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_execute_req_encode(&one);
    proto_kernel_execute_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_execute_req_encode(&two);
    char *text_one = proto_kernel_execute_req_print(&one);
    char *text_two = proto_kernel_execute_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_execute_req_clear(&one);
    proto_kernel_execute_req_clear(&two);
    return rc;
}

static int
s_kernel_execute_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_execute_rep_t msg;
    int rc = proto_kernel_execute_rep_decode(&msg, data, size, err);
    proto_kernel_execute_rep_clear(&msg);
    return rc;
}

static char *
s_kernel_execute_rep_print(const void *data, size_t size)
{
    proto_kernel_execute_rep_t msg;
    char *text = NULL;
    if (proto_kernel_execute_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_execute_rep_print(&msg);
    proto_kernel_execute_rep_clear(&msg);
    return text;
}

static int
s_kernel_execute_rep_roundtrip(const void *data, size_t size)
{
    proto_kernel_execute_rep_t one, two;
    if (proto_kernel_execute_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_execute_rep_encode(&one);
    proto_kernel_execute_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_execute_rep_encode(&two);
    char *text_one = proto_kernel_execute_rep_print(&one);
    char *text_two = proto_kernel_execute_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_execute_rep_clear(&one);
    proto_kernel_execute_rep_clear(&two);
    return rc;
}

static int
s_kernel_interrupt_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_interrupt_req_t msg;
    int rc = proto_kernel_interrupt_req_decode(&msg, data, size, err);
    proto_kernel_interrupt_req_clear(&msg);
    return rc;
}

static char *
s_kernel_interrupt_req_print(const void *data, size_t size)
{
    proto_kernel_interrupt_req_t msg;
    char *text = NULL;
    if (proto_kernel_interrupt_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_interrupt_req_print(&msg);
    proto_kernel_interrupt_req_clear(&msg);
    return text;
}

static int
s_kernel_interrupt_req_roundtrip(const void *data, size_t size)
{
    proto_kernel_interrupt_req_t one, two;
    if (proto_kernel_interrupt_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_interrupt_req_encode(&one);
    proto_kernel_interrupt_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                      NULL);
    zframe_t *second = proto_kernel_interrupt_req_encode(&two);
    char *text_one = proto_kernel_interrupt_req_print(&one);
    char *text_two = proto_kernel_interrupt_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_interrupt_req_clear(&one);
    proto_kernel_interrupt_req_clear(&two);
    return rc;
}

static int
s_kernel_interrupt_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_interrupt_rep_t msg;
    int rc = proto_kernel_interrupt_rep_decode(&msg, data, size, err);
    proto_kernel_interrupt_rep_clear(&msg);
    return rc;
}

static char *
s_kernel_interrupt_rep_print(const void *data, size_t size)
{
    proto_kernel_interrupt_rep_t msg;
    char *text = NULL;
    if (proto_kernel_interrupt_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_interrupt_rep_print(&msg);
    proto_kernel_interrupt_rep_clear(&msg);
    return text;
}

static int
s_kernel_interrupt_rep_roundtrip(const void *data, size_t size)
{
    proto_kernel_interrupt_rep_t one, two;
    if (proto_kernel_interrupt_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_interrupt_rep_encode(&one);
    proto_kernel_interrupt_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                      NULL);
    zframe_t *second = proto_kernel_interrupt_rep_encode(&two);
    char *text_one = proto_kernel_interrupt_rep_print(&one);
    char *text_two = proto_kernel_interrupt_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_interrupt_rep_clear(&one);
    proto_kernel_interrupt_rep_clear(&two);
    return rc;
}

static int
s_kernel_logs_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_logs_req_t msg;
    int rc = proto_kernel_logs_req_decode(&msg, data, size, err);
    proto_kernel_logs_req_clear(&msg);
    return rc;
}

static char *
s_kernel_logs_req_print(const void *data, size_t size)
{
    proto_kernel_logs_req_t msg;
    char *text = NULL;
    if (proto_kernel_logs_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_logs_req_print(&msg);
    proto_kernel_logs_req_clear(&msg);
    return text;
}

static int
s_kernel_logs_req_roundtrip(const void *data, size_t size)
{
    proto_kernel_logs_req_t one, two;
    if (proto_kernel_logs_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_logs_req_encode(&one);
    proto_kernel_logs_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_logs_req_encode(&two);
    char *text_one = proto_kernel_logs_req_print(&one);
    char *text_two = proto_kernel_logs_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_logs_req_clear(&one);
    proto_kernel_logs_req_clear(&two);
    return rc;
}

static int
s_kernel_logs_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_logs_rep_t msg;
    int rc = proto_kernel_logs_rep_decode(&msg, data, size, err);
    proto_kernel_logs_rep_clear(&msg);
    return rc;
}

static char *
s_kernel_logs_rep_print(const void *data, size_t size)
{
    proto_kernel_logs_rep_t msg;
    char *text = NULL;
    if (proto_kernel_logs_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_logs_rep_print(&msg);
    proto_kernel_logs_rep_clear(&msg);
    return text;
}

static int
s_kernel_logs_rep_roundtrip(const void *data, size_t size)
{
    proto_kernel_logs_rep_t one, two;
    if (proto_kernel_logs_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_logs_rep_encode(&one);
    proto_kernel_logs_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_logs_rep_encode(&two);
    char *text_one = proto_kernel_logs_rep_print(&one);
    char *text_two = proto_kernel_logs_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_logs_rep_clear(&one);
    proto_kernel_logs_rep_clear(&two);
    return rc;
}

static int
s_kernel_list_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_list_req_t msg;
    int rc = proto_kernel_list_req_decode(&msg, data, size, err);
    proto_kernel_list_req_clear(&msg);
    return rc;
}

static char *
s_kernel_list_req_print(const void *data, size_t size)
{
    proto_kernel_list_req_t msg;
    char *text = NULL;
    if (proto_kernel_list_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_list_req_print(&msg);
    proto_kernel_list_req_clear(&msg);
    return text;
}

static int
s_kernel_list_req_roundtrip(const void *data, size_t size)
{
    proto_kernel_list_req_t one, two;
    if (proto_kernel_list_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_list_req_encode(&one);
    proto_kernel_list_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_list_req_encode(&two);
    char *text_one = proto_kernel_list_req_print(&one);
    char *text_two = proto_kernel_list_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_list_req_clear(&one);
    proto_kernel_list_req_clear(&two);
    return rc;
}

static int
s_kernel_list_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_list_rep_t msg;
    int rc = proto_kernel_list_rep_decode(&msg, data, size, err);
    proto_kernel_list_rep_clear(&msg);
    return rc;
}

static char *
s_kernel_list_rep_print(const void *data, size_t size)
{
    proto_kernel_list_rep_t msg;
    char *text = NULL;
    if (proto_kernel_list_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_list_rep_print(&msg);
    proto_kernel_list_rep_clear(&msg);
    return text;
}

static int
s_kernel_list_rep_roundtrip(const void *data, size_t size)
{
    proto_kernel_list_rep_t one, two;
    if (proto_kernel_list_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_list_rep_encode(&one);
    proto_kernel_list_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_list_rep_encode(&two);
    char *text_one = proto_kernel_list_rep_print(&one);
    char *text_two = proto_kernel_list_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_list_rep_clear(&one);
    proto_kernel_list_rep_clear(&two);
    return rc;
}

static int
s_kernel_upload_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_upload_req_t msg;
    int rc = proto_kernel_upload_req_decode(&msg, data, size, err);
    proto_kernel_upload_req_clear(&msg);
    return rc;
}

static char *
s_kernel_upload_req_print(const void *data, size_t size)
{
    proto_kernel_upload_req_t msg;
    char *text = NULL;
    if (proto_kernel_upload_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_upload_req_print(&msg);
    proto_kernel_upload_req_clear(&msg);
    return text;
}

static int
s_kernel_upload_req_roundtrip(const void *data, size_t size)
{
    proto_kernel_upload_req_t one, two;
    if (proto_kernel_upload_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_upload_req_encode(&one);
    proto_kernel_upload_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_upload_req_encode(&two);
    char *text_one = proto_kernel_upload_req_print(&one);
    char *text_two = proto_kernel_upload_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_upload_req_clear(&one);
    proto_kernel_upload_req_clear(&two);
    return rc;
}

static int
s_kernel_upload_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_upload_rep_t msg;
    int rc = proto_kernel_upload_rep_decode(&msg, data, size, err);
    proto_kernel_upload_rep_clear(&msg);
    return rc;
}

static char *
s_kernel_upload_rep_print(const void *data, size_t size)
{
    proto_kernel_upload_rep_t msg;
    char *text = NULL;
    if (proto_kernel_upload_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_upload_rep_print(&msg);
    proto_kernel_upload_rep_clear(&msg);
    return text;
}

static int
s_kernel_upload_rep_roundtrip(const void *data, size_t size)
{
    proto_kernel_upload_rep_t one, two;
    if (proto_kernel_upload_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_upload_rep_encode(&one);
    proto_kernel_upload_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_upload_rep_encode(&two);
    char *text_one = proto_kernel_upload_rep_print(&one);
    char *text_two = proto_kernel_upload_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_upload_rep_clear(&one);
    proto_kernel_upload_rep_clear(&two);
    return rc;
}

static int
s_kernel_download_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_download_req_t msg;
    int rc = proto_kernel_download_req_decode(&msg, data, size, err);
    proto_kernel_download_req_clear(&msg);
    return rc;
}

static char *
s_kernel_download_req_print(const void *data, size_t size)
{
    proto_kernel_download_req_t msg;
    char *text = NULL;
    if (proto_kernel_download_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_download_req_print(&msg);
    proto_kernel_download_req_clear(&msg);
    return text;
}

static int
s_kernel_download_req_roundtrip(const void *data, size_t size)
{
    proto_kernel_download_req_t one, two;
    if (proto_kernel_download_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_download_req_encode(&one);
    proto_kernel_download_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                     NULL);
    zframe_t *second = proto_kernel_download_req_encode(&two);
    char *text_one = proto_kernel_download_req_print(&one);
    char *text_two = proto_kernel_download_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_download_req_clear(&one);
    proto_kernel_download_req_clear(&two);
    return rc;
}

static int
s_kernel_download_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_download_rep_t msg;
    int rc = proto_kernel_download_rep_decode(&msg, data, size, err);
    proto_kernel_download_rep_clear(&msg);
    return rc;
}

static char *
s_kernel_download_rep_print(const void *data, size_t size)
{
    proto_kernel_download_rep_t msg;
    char *text = NULL;
    if (proto_kernel_download_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_download_rep_print(&msg);
    proto_kernel_download_rep_clear(&msg);
    return text;
}

static int
s_kernel_download_rep_roundtrip(const void *data, size_t size)
{
    proto_kernel_download_rep_t one, two;
    if (proto_kernel_download_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_download_rep_encode(&one);
    proto_kernel_download_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                     NULL);
    zframe_t *second = proto_kernel_download_rep_encode(&two);
    char *text_one = proto_kernel_download_rep_print(&one);
    char *text_two = proto_kernel_download_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_download_rep_clear(&one);
    proto_kernel_download_rep_clear(&two);
    return rc;
}

static int
s_kernel_download_single_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_download_single_req_t msg;
    int rc = proto_kernel_download_single_req_decode(&msg, data, size, err);
    proto_kernel_download_single_req_clear(&msg);
    return rc;
}

static char *
s_kernel_download_single_req_print(const void *data, size_t size)
{
    proto_kernel_download_single_req_t msg;
    char *text = NULL;
    if (proto_kernel_download_single_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_download_single_req_print(&msg);
    proto_kernel_download_single_req_clear(&msg);
    return text;
}

static int
s_kernel_download_single_req_roundtrip(const void *data, size_t size)
{
    proto_kernel_download_single_req_t one, two;
    if (proto_kernel_download_single_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_download_single_req_encode(&one);
    proto_kernel_download_single_req_decode(&two, s_frame_data(first),
                                            s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_download_single_req_encode(&two);
    char *text_one = proto_kernel_download_single_req_print(&one);
    char *text_two = proto_kernel_download_single_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_download_single_req_clear(&one);
    proto_kernel_download_single_req_clear(&two);
    return rc;
}

static int
s_kernel_download_single_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_download_single_rep_t msg;
    int rc = proto_kernel_download_single_rep_decode(&msg, data, size, err);
    proto_kernel_download_single_rep_clear(&msg);
    return rc;
}

static char *
s_kernel_download_single_rep_print(const void *data, size_t size)
{
    proto_kernel_download_single_rep_t msg;
    char *text = NULL;
    if (proto_kernel_download_single_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_download_single_rep_print(&msg);
    proto_kernel_download_single_rep_clear(&msg);
    return text;
}

static int
s_kernel_download_single_rep_roundtrip(const void *data, size_t size)
{
    proto_kernel_download_single_rep_t one, two;
    if (proto_kernel_download_single_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_download_single_rep_encode(&one);
    proto_kernel_download_single_rep_decode(&two, s_frame_data(first),
                                            s_frame_size(first), NULL);
    zframe_t *second = proto_kernel_download_single_rep_encode(&two);
    char *text_one = proto_kernel_download_single_rep_print(&one);
    char *text_two = proto_kernel_download_single_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_download_single_rep_clear(&one);
    proto_kernel_download_single_rep_clear(&two);
    return rc;
}

static int
s_kernel_list_files_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_list_files_req_t msg;
    int rc = proto_kernel_list_files_req_decode(&msg, data, size, err);
    proto_kernel_list_files_req_clear(&msg);
    return rc;
}

static char *
s_kernel_list_files_req_print(const void *data, size_t size)
{
    proto_kernel_list_files_req_t msg;
    char *text = NULL;
    if (proto_kernel_list_files_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_list_files_req_print(&msg);
    proto_kernel_list_files_req_clear(&msg);
    return text;
}

static int
s_kernel_list_files_req_roundtrip(const void *data, size_t size)
{
    proto_kernel_list_files_req_t one, two;
    if (proto_kernel_list_files_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_list_files_req_encode(&one);
    proto_kernel_list_files_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                       NULL);
    zframe_t *second = proto_kernel_list_files_req_encode(&two);
    char *text_one = proto_kernel_list_files_req_print(&one);
    char *text_two = proto_kernel_list_files_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_list_files_req_clear(&one);
    proto_kernel_list_files_req_clear(&two);
    return rc;
}

static int
s_kernel_list_files_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_list_files_rep_t msg;
    int rc = proto_kernel_list_files_rep_decode(&msg, data, size, err);
    proto_kernel_list_files_rep_clear(&msg);
    return rc;
}

static char *
s_kernel_list_files_rep_print(const void *data, size_t size)
{
    proto_kernel_list_files_rep_t msg;
    char *text = NULL;
    if (proto_kernel_list_files_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_list_files_rep_print(&msg);
    proto_kernel_list_files_rep_clear(&msg);
    return text;
}

static int
s_kernel_list_files_rep_roundtrip(const void *data, size_t size)
{
    proto_kernel_list_files_rep_t one, two;
    if (proto_kernel_list_files_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_list_files_rep_encode(&one);
    proto_kernel_list_files_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                       NULL);
    zframe_t *second = proto_kernel_list_files_rep_encode(&two);
    char *text_one = proto_kernel_list_files_rep_print(&one);
    char *text_two = proto_kernel_list_files_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_list_files_rep_clear(&one);
    proto_kernel_list_files_rep_clear(&two);
    return rc;
}

static int
s_kernel_pty_write_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_pty_write_req_t msg;
    int rc = proto_kernel_pty_write_req_decode(&msg, data, size, err);
    proto_kernel_pty_write_req_clear(&msg);
    return rc;
}

static char *
s_kernel_pty_write_req_print(const void *data, size_t size)
{
    proto_kernel_pty_write_req_t msg;
    char *text = NULL;
    if (proto_kernel_pty_write_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_pty_write_req_print(&msg);
    proto_kernel_pty_write_req_clear(&msg);
    return text;
}

static int
s_kernel_pty_write_req_roundtrip(const void *data, size_t size)
{
    proto_kernel_pty_write_req_t one, two;
    if (proto_kernel_pty_write_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_pty_write_req_encode(&one);
    proto_kernel_pty_write_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                      NULL);
    zframe_t *second = proto_kernel_pty_write_req_encode(&two);
    char *text_one = proto_kernel_pty_write_req_print(&one);
    char *text_two = proto_kernel_pty_write_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_pty_write_req_clear(&one);
    proto_kernel_pty_write_req_clear(&two);
    return rc;
}

static int
s_kernel_pty_write_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_pty_write_rep_t msg;
    int rc = proto_kernel_pty_write_rep_decode(&msg, data, size, err);
    proto_kernel_pty_write_rep_clear(&msg);
    return rc;
}

static char *
s_kernel_pty_write_rep_print(const void *data, size_t size)
{
    proto_kernel_pty_write_rep_t msg;
    char *text = NULL;
    if (proto_kernel_pty_write_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_pty_write_rep_print(&msg);
    proto_kernel_pty_write_rep_clear(&msg);
    return text;
}

static int
s_kernel_pty_write_rep_roundtrip(const void *data, size_t size)
{
    proto_kernel_pty_write_rep_t one, two;
    if (proto_kernel_pty_write_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_pty_write_rep_encode(&one);
    proto_kernel_pty_write_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                      NULL);
    zframe_t *second = proto_kernel_pty_write_rep_encode(&two);
    char *text_one = proto_kernel_pty_write_rep_print(&one);
    char *text_two = proto_kernel_pty_write_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_pty_write_rep_clear(&one);
    proto_kernel_pty_write_rep_clear(&two);
    return rc;
}

static int
s_kernel_pty_read_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_pty_read_req_t msg;
    int rc = proto_kernel_pty_read_req_decode(&msg, data, size, err);
    proto_kernel_pty_read_req_clear(&msg);
    return rc;
}

static char *
s_kernel_pty_read_req_print(const void *data, size_t size)
{
    proto_kernel_pty_read_req_t msg;
    char *text = NULL;
    if (proto_kernel_pty_read_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_pty_read_req_print(&msg);
    proto_kernel_pty_read_req_clear(&msg);
    return text;
}

static int
s_kernel_pty_read_req_roundtrip(const void *data, size_t size)
{
    proto_kernel_pty_read_req_t one, two;
    if (proto_kernel_pty_read_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_pty_read_req_encode(&one);
    proto_kernel_pty_read_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                     NULL);
    zframe_t *second = proto_kernel_pty_read_req_encode(&two);
    char *text_one = proto_kernel_pty_read_req_print(&one);
    char *text_two = proto_kernel_pty_read_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_pty_read_req_clear(&one);
    proto_kernel_pty_read_req_clear(&two);
    return rc;
}

static int
s_kernel_pty_read_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_pty_read_rep_t msg;
    int rc = proto_kernel_pty_read_rep_decode(&msg, data, size, err);
    proto_kernel_pty_read_rep_clear(&msg);
    return rc;
}

static char *
s_kernel_pty_read_rep_print(const void *data, size_t size)
{
    proto_kernel_pty_read_rep_t msg;
    char *text = NULL;
    if (proto_kernel_pty_read_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_pty_read_rep_print(&msg);
    proto_kernel_pty_read_rep_clear(&msg);
    return text;
}

static int
s_kernel_pty_read_rep_roundtrip(const void *data, size_t size)
{
    proto_kernel_pty_read_rep_t one, two;
    if (proto_kernel_pty_read_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_pty_read_rep_encode(&one);
    proto_kernel_pty_read_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                     NULL);
    zframe_t *second = proto_kernel_pty_read_rep_encode(&two);
    char *text_one = proto_kernel_pty_read_rep_print(&one);
    char *text_two = proto_kernel_pty_read_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_pty_read_rep_clear(&one);
    proto_kernel_pty_read_rep_clear(&two);
    return rc;
}

static int
s_kernel_start_service_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_start_service_req_t msg;
    int rc = proto_kernel_start_service_req_decode(&msg, data, size, err);
    proto_kernel_start_service_req_clear(&msg);
    return rc;
}

static char *
s_kernel_start_service_req_print(const void *data, size_t size)
{
    proto_kernel_start_service_req_t msg;
    char *text = NULL;
    if (proto_kernel_start_service_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_start_service_req_print(&msg);
    proto_kernel_start_service_req_clear(&msg);
    return text;
}

static int
s_kernel_start_service_req_roundtrip(const void *data, size_t size)
{
    proto_kernel_start_service_req_t one, two;
    if (proto_kernel_start_service_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_start_service_req_encode(&one);
    proto_kernel_start_service_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                          NULL);
    zframe_t *second = proto_kernel_start_service_req_encode(&two);
    char *text_one = proto_kernel_start_service_req_print(&one);
    char *text_two = proto_kernel_start_service_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_start_service_req_clear(&one);
    proto_kernel_start_service_req_clear(&two);
    return rc;
}

static int
s_kernel_start_service_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_kernel_start_service_rep_t msg;
    int rc = proto_kernel_start_service_rep_decode(&msg, data, size, err);
    proto_kernel_start_service_rep_clear(&msg);
    return rc;
}

static char *
s_kernel_start_service_rep_print(const void *data, size_t size)
{
    proto_kernel_start_service_rep_t msg;
    char *text = NULL;
    if (proto_kernel_start_service_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_kernel_start_service_rep_print(&msg);
    proto_kernel_start_service_rep_clear(&msg);
    return text;
}

static int
s_kernel_start_service_rep_roundtrip(const void *data, size_t size)
{
    proto_kernel_start_service_rep_t one, two;
    if (proto_kernel_start_service_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_kernel_start_service_rep_encode(&one);
    proto_kernel_start_service_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                          NULL);
    zframe_t *second = proto_kernel_start_service_rep_encode(&two);
    char *text_one = proto_kernel_start_service_rep_print(&one);
    char *text_two = proto_kernel_start_service_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_kernel_start_service_rep_clear(&one);
    proto_kernel_start_service_rep_clear(&two);
    return rc;
}

static int
s_policy_changed_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_policy_changed_t msg;
    int rc = proto_policy_changed_decode(&msg, data, size, err);
    proto_policy_changed_clear(&msg);
    return rc;
}

static char *
s_policy_changed_print(const void *data, size_t size)
{
    proto_policy_changed_t msg;
    char *text = NULL;
    if (proto_policy_changed_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_policy_changed_print(&msg);
    proto_policy_changed_clear(&msg);
    return text;
}

static int
s_policy_changed_roundtrip(const void *data, size_t size)
{
    proto_policy_changed_t one, two;
    if (proto_policy_changed_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_policy_changed_encode(&one);
    proto_policy_changed_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_policy_changed_encode(&two);
    char *text_one = proto_policy_changed_print(&one);
    char *text_two = proto_policy_changed_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_policy_changed_clear(&one);
    proto_policy_changed_clear(&two);
    return rc;
}

static int
s_policy_scaling_group_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_policy_scaling_group_t msg;
    int rc = proto_policy_scaling_group_decode(&msg, data, size, err);
    proto_policy_scaling_group_clear(&msg);
    return rc;
}

static char *
s_policy_scaling_group_print(const void *data, size_t size)
{
    proto_policy_scaling_group_t msg;
    char *text = NULL;
    if (proto_policy_scaling_group_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_policy_scaling_group_print(&msg);
    proto_policy_scaling_group_clear(&msg);
    return text;
}

static int
s_policy_scaling_group_roundtrip(const void *data, size_t size)
{
    proto_policy_scaling_group_t one, two;
    if (proto_policy_scaling_group_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_policy_scaling_group_encode(&one);
    proto_policy_scaling_group_decode(&two, s_frame_data(first), s_frame_size(first),
                                      NULL);
    zframe_t *second = proto_policy_scaling_group_encode(&two);
    char *text_one = proto_policy_scaling_group_print(&one);
    char *text_two = proto_policy_scaling_group_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_policy_scaling_group_clear(&one);
    proto_policy_scaling_group_clear(&two);
    return rc;
}

static int
s_registry_register_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_registry_register_req_t msg;
    int rc = proto_registry_register_req_decode(&msg, data, size, err);
    proto_registry_register_req_clear(&msg);
    return rc;
}

static char *
s_registry_register_req_print(const void *data, size_t size)
{
    proto_registry_register_req_t msg;
    char *text = NULL;
    if (proto_registry_register_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_registry_register_req_print(&msg);
    proto_registry_register_req_clear(&msg);
    return text;
}

static int
s_registry_register_req_roundtrip(const void *data, size_t size)
{
    proto_registry_register_req_t one, two;
    if (proto_registry_register_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_registry_register_req_encode(&one);
    proto_registry_register_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                       NULL);
    zframe_t *second = proto_registry_register_req_encode(&two);
    char *text_one = proto_registry_register_req_print(&one);
    char *text_two = proto_registry_register_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_registry_register_req_clear(&one);
    proto_registry_register_req_clear(&two);
    return rc;
}

static int
s_registry_register_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_registry_register_rep_t msg;
    int rc = proto_registry_register_rep_decode(&msg, data, size, err);
    proto_registry_register_rep_clear(&msg);
    return rc;
}

static char *
s_registry_register_rep_print(const void *data, size_t size)
{
    proto_registry_register_rep_t msg;
    char *text = NULL;
    if (proto_registry_register_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_registry_register_rep_print(&msg);
    proto_registry_register_rep_clear(&msg);
    return text;
}

static int
s_registry_register_rep_roundtrip(const void *data, size_t size)
{
    proto_registry_register_rep_t one, two;
    if (proto_registry_register_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_registry_register_rep_encode(&one);
    proto_registry_register_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                       NULL);
    zframe_t *second = proto_registry_register_rep_encode(&two);
    char *text_one = proto_registry_register_rep_print(&one);
    char *text_two = proto_registry_register_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_registry_register_rep_clear(&one);
    proto_registry_register_rep_clear(&two);
    return rc;
}

static int
s_registry_heartbeat_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_registry_heartbeat_req_t msg;
    int rc = proto_registry_heartbeat_req_decode(&msg, data, size, err);
    proto_registry_heartbeat_req_clear(&msg);
    return rc;
}

static char *
s_registry_heartbeat_req_print(const void *data, size_t size)
{
    proto_registry_heartbeat_req_t msg;
    char *text = NULL;
    if (proto_registry_heartbeat_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_registry_heartbeat_req_print(&msg);
    proto_registry_heartbeat_req_clear(&msg);
    return text;
}

static int
s_registry_heartbeat_req_roundtrip(const void *data, size_t size)
{
    proto_registry_heartbeat_req_t one, two;
    if (proto_registry_heartbeat_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_registry_heartbeat_req_encode(&one);
    proto_registry_heartbeat_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                        NULL);
    zframe_t *second = proto_registry_heartbeat_req_encode(&two);
    char *text_one = proto_registry_heartbeat_req_print(&one);
    char *text_two = proto_registry_heartbeat_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_registry_heartbeat_req_clear(&one);
    proto_registry_heartbeat_req_clear(&two);
    return rc;
}

static int
s_registry_heartbeat_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_registry_heartbeat_rep_t msg;
    int rc = proto_registry_heartbeat_rep_decode(&msg, data, size, err);
    proto_registry_heartbeat_rep_clear(&msg);
    return rc;
}

static char *
s_registry_heartbeat_rep_print(const void *data, size_t size)
{
    proto_registry_heartbeat_rep_t msg;
    char *text = NULL;
    if (proto_registry_heartbeat_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_registry_heartbeat_rep_print(&msg);
    proto_registry_heartbeat_rep_clear(&msg);
    return text;
}

static int
s_registry_heartbeat_rep_roundtrip(const void *data, size_t size)
{
    proto_registry_heartbeat_rep_t one, two;
    if (proto_registry_heartbeat_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_registry_heartbeat_rep_encode(&one);
    proto_registry_heartbeat_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                        NULL);
    zframe_t *second = proto_registry_heartbeat_rep_encode(&two);
    char *text_one = proto_registry_heartbeat_rep_print(&one);
    char *text_two = proto_registry_heartbeat_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_registry_heartbeat_rep_clear(&one);
    proto_registry_heartbeat_rep_clear(&two);
    return rc;
}

static int
s_registry_unregister_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_registry_unregister_req_t msg;
    int rc = proto_registry_unregister_req_decode(&msg, data, size, err);
    proto_registry_unregister_req_clear(&msg);
    return rc;
}

static char *
s_registry_unregister_req_print(const void *data, size_t size)
{
    proto_registry_unregister_req_t msg;
    char *text = NULL;
    if (proto_registry_unregister_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_registry_unregister_req_print(&msg);
    proto_registry_unregister_req_clear(&msg);
    return text;
}

static int
s_registry_unregister_req_roundtrip(const void *data, size_t size)
{
    proto_registry_unregister_req_t one, two;
    if (proto_registry_unregister_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_registry_unregister_req_encode(&one);
    proto_registry_unregister_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                         NULL);
    zframe_t *second = proto_registry_unregister_req_encode(&two);
    char *text_one = proto_registry_unregister_req_print(&one);
    char *text_two = proto_registry_unregister_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_registry_unregister_req_clear(&one);
    proto_registry_unregister_req_clear(&two);
    return rc;
}

static int
s_registry_unregister_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_registry_unregister_rep_t msg;
    int rc = proto_registry_unregister_rep_decode(&msg, data, size, err);
    proto_registry_unregister_rep_clear(&msg);
    return rc;
}

static char *
s_registry_unregister_rep_print(const void *data, size_t size)
{
    proto_registry_unregister_rep_t msg;
    char *text = NULL;
    if (proto_registry_unregister_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_registry_unregister_rep_print(&msg);
    proto_registry_unregister_rep_clear(&msg);
    return text;
}

static int
s_registry_unregister_rep_roundtrip(const void *data, size_t size)
{
    proto_registry_unregister_rep_t one, two;
    if (proto_registry_unregister_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_registry_unregister_rep_encode(&one);
    proto_registry_unregister_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                         NULL);
    zframe_t *second = proto_registry_unregister_rep_encode(&two);
    char *text_one = proto_registry_unregister_rep_print(&one);
    char *text_two = proto_registry_unregister_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_registry_unregister_rep_clear(&one);
    proto_registry_unregister_rep_clear(&two);
    return rc;
}

static int
s_registry_peers_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_registry_peers_req_t msg;
    int rc = proto_registry_peers_req_decode(&msg, data, size, err);
    proto_registry_peers_req_clear(&msg);
    return rc;
}

static char *
s_registry_peers_req_print(const void *data, size_t size)
{
    proto_registry_peers_req_t msg;
    char *text = NULL;
    if (proto_registry_peers_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_registry_peers_req_print(&msg);
    proto_registry_peers_req_clear(&msg);
    return text;
}

static int
s_registry_peers_req_roundtrip(const void *data, size_t size)
{
    proto_registry_peers_req_t one, two;
    if (proto_registry_peers_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_registry_peers_req_encode(&one);
    proto_registry_peers_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_registry_peers_req_encode(&two);
    char *text_one = proto_registry_peers_req_print(&one);
    char *text_two = proto_registry_peers_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_registry_peers_req_clear(&one);
    proto_registry_peers_req_clear(&two);
    return rc;
}

static int
s_registry_peers_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_registry_peers_rep_t msg;
    int rc = proto_registry_peers_rep_decode(&msg, data, size, err);
    proto_registry_peers_rep_clear(&msg);
    return rc;
}

static char *
s_registry_peers_rep_print(const void *data, size_t size)
{
    proto_registry_peers_rep_t msg;
    char *text = NULL;
    if (proto_registry_peers_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_registry_peers_rep_print(&msg);
    proto_registry_peers_rep_clear(&msg);
    return text;
}

static int
s_registry_peers_rep_roundtrip(const void *data, size_t size)
{
    proto_registry_peers_rep_t one, two;
    if (proto_registry_peers_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_registry_peers_rep_encode(&one);
    proto_registry_peers_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_registry_peers_rep_encode(&two);
    char *text_one = proto_registry_peers_rep_print(&one);
    char *text_two = proto_registry_peers_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_registry_peers_rep_clear(&one);
    proto_registry_peers_rep_clear(&two);
    return rc;
}

static int
s_scheduler_agents_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_scheduler_agents_req_t msg;
    int rc = proto_scheduler_agents_req_decode(&msg, data, size, err);
    proto_scheduler_agents_req_clear(&msg);
    return rc;
}

static char *
s_scheduler_agents_req_print(const void *data, size_t size)
{
    proto_scheduler_agents_req_t msg;
    char *text = NULL;
    if (proto_scheduler_agents_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_scheduler_agents_req_print(&msg);
    proto_scheduler_agents_req_clear(&msg);
    return text;
}

static int
s_scheduler_agents_req_roundtrip(const void *data, size_t size)
{
    proto_scheduler_agents_req_t one, two;
    if (proto_scheduler_agents_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_scheduler_agents_req_encode(&one);
    proto_scheduler_agents_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                      NULL);
    zframe_t *second = proto_scheduler_agents_req_encode(&two);
    char *text_one = proto_scheduler_agents_req_print(&one);
    char *text_two = proto_scheduler_agents_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_scheduler_agents_req_clear(&one);
    proto_scheduler_agents_req_clear(&two);
    return rc;
}

static int
s_scheduler_agents_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_scheduler_agents_rep_t msg;
    int rc = proto_scheduler_agents_rep_decode(&msg, data, size, err);
    proto_scheduler_agents_rep_clear(&msg);
    return rc;
}

static char *
s_scheduler_agents_rep_print(const void *data, size_t size)
{
    proto_scheduler_agents_rep_t msg;
    char *text = NULL;
    if (proto_scheduler_agents_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_scheduler_agents_rep_print(&msg);
    proto_scheduler_agents_rep_clear(&msg);
    return text;
}

static int
s_scheduler_agents_rep_roundtrip(const void *data, size_t size)
{
    proto_scheduler_agents_rep_t one, two;
    if (proto_scheduler_agents_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_scheduler_agents_rep_encode(&one);
    proto_scheduler_agents_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                      NULL);
    zframe_t *second = proto_scheduler_agents_rep_encode(&two);
    char *text_one = proto_scheduler_agents_rep_print(&one);
    char *text_two = proto_scheduler_agents_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_scheduler_agents_rep_clear(&one);
    proto_scheduler_agents_rep_clear(&two);
    return rc;
}

static int
s_scheduler_usage_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_scheduler_usage_req_t msg;
    int rc = proto_scheduler_usage_req_decode(&msg, data, size, err);
    proto_scheduler_usage_req_clear(&msg);
    return rc;
}

static char *
s_scheduler_usage_req_print(const void *data, size_t size)
{
    proto_scheduler_usage_req_t msg;
    char *text = NULL;
    if (proto_scheduler_usage_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_scheduler_usage_req_print(&msg);
    proto_scheduler_usage_req_clear(&msg);
    return text;
}

static int
s_scheduler_usage_req_roundtrip(const void *data, size_t size)
{
    proto_scheduler_usage_req_t one, two;
    if (proto_scheduler_usage_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_scheduler_usage_req_encode(&one);
    proto_scheduler_usage_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                     NULL);
    zframe_t *second = proto_scheduler_usage_req_encode(&two);
    char *text_one = proto_scheduler_usage_req_print(&one);
    char *text_two = proto_scheduler_usage_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_scheduler_usage_req_clear(&one);
    proto_scheduler_usage_req_clear(&two);
    return rc;
}

static int
s_scheduler_usage_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_scheduler_usage_rep_t msg;
    int rc = proto_scheduler_usage_rep_decode(&msg, data, size, err);
    proto_scheduler_usage_rep_clear(&msg);
    return rc;
}

static char *
s_scheduler_usage_rep_print(const void *data, size_t size)
{
    proto_scheduler_usage_rep_t msg;
    char *text = NULL;
    if (proto_scheduler_usage_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_scheduler_usage_rep_print(&msg);
    proto_scheduler_usage_rep_clear(&msg);
    return text;
}

static int
s_scheduler_usage_rep_roundtrip(const void *data, size_t size)
{
    proto_scheduler_usage_rep_t one, two;
    if (proto_scheduler_usage_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_scheduler_usage_rep_encode(&one);
    proto_scheduler_usage_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                     NULL);
    zframe_t *second = proto_scheduler_usage_rep_encode(&two);
    char *text_one = proto_scheduler_usage_rep_print(&one);
    char *text_two = proto_scheduler_usage_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_scheduler_usage_rep_clear(&one);
    proto_scheduler_usage_rep_clear(&two);
    return rc;
}

static int
s_scheduler_invariant_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_scheduler_invariant_req_t msg;
    int rc = proto_scheduler_invariant_req_decode(&msg, data, size, err);
    proto_scheduler_invariant_req_clear(&msg);
    return rc;
}

static char *
s_scheduler_invariant_req_print(const void *data, size_t size)
{
    proto_scheduler_invariant_req_t msg;
    char *text = NULL;
    if (proto_scheduler_invariant_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_scheduler_invariant_req_print(&msg);
    proto_scheduler_invariant_req_clear(&msg);
    return text;
}

static int
s_scheduler_invariant_req_roundtrip(const void *data, size_t size)
{
    proto_scheduler_invariant_req_t one, two;
    if (proto_scheduler_invariant_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_scheduler_invariant_req_encode(&one);
    proto_scheduler_invariant_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                         NULL);
    zframe_t *second = proto_scheduler_invariant_req_encode(&two);
    char *text_one = proto_scheduler_invariant_req_print(&one);
    char *text_two = proto_scheduler_invariant_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_scheduler_invariant_req_clear(&one);
    proto_scheduler_invariant_req_clear(&two);
    return rc;
}

static int
s_scheduler_invariant_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_scheduler_invariant_rep_t msg;
    int rc = proto_scheduler_invariant_rep_decode(&msg, data, size, err);
    proto_scheduler_invariant_rep_clear(&msg);
    return rc;
}

static char *
s_scheduler_invariant_rep_print(const void *data, size_t size)
{
    proto_scheduler_invariant_rep_t msg;
    char *text = NULL;
    if (proto_scheduler_invariant_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_scheduler_invariant_rep_print(&msg);
    proto_scheduler_invariant_rep_clear(&msg);
    return text;
}

static int
s_scheduler_invariant_rep_roundtrip(const void *data, size_t size)
{
    proto_scheduler_invariant_rep_t one, two;
    if (proto_scheduler_invariant_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_scheduler_invariant_rep_encode(&one);
    proto_scheduler_invariant_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                         NULL);
    zframe_t *second = proto_scheduler_invariant_rep_encode(&two);
    char *text_one = proto_scheduler_invariant_rep_print(&one);
    char *text_two = proto_scheduler_invariant_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_scheduler_invariant_rep_clear(&one);
    proto_scheduler_invariant_rep_clear(&two);
    return rc;
}

static int
s_scheduler_recalculate_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_scheduler_recalculate_req_t msg;
    int rc = proto_scheduler_recalculate_req_decode(&msg, data, size, err);
    proto_scheduler_recalculate_req_clear(&msg);
    return rc;
}

static char *
s_scheduler_recalculate_req_print(const void *data, size_t size)
{
    proto_scheduler_recalculate_req_t msg;
    char *text = NULL;
    if (proto_scheduler_recalculate_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_scheduler_recalculate_req_print(&msg);
    proto_scheduler_recalculate_req_clear(&msg);
    return text;
}

static int
s_scheduler_recalculate_req_roundtrip(const void *data, size_t size)
{
    proto_scheduler_recalculate_req_t one, two;
    if (proto_scheduler_recalculate_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_scheduler_recalculate_req_encode(&one);
    proto_scheduler_recalculate_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                           NULL);
    zframe_t *second = proto_scheduler_recalculate_req_encode(&two);
    char *text_one = proto_scheduler_recalculate_req_print(&one);
    char *text_two = proto_scheduler_recalculate_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_scheduler_recalculate_req_clear(&one);
    proto_scheduler_recalculate_req_clear(&two);
    return rc;
}

static int
s_scheduler_recalculate_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_scheduler_recalculate_rep_t msg;
    int rc = proto_scheduler_recalculate_rep_decode(&msg, data, size, err);
    proto_scheduler_recalculate_rep_clear(&msg);
    return rc;
}

static char *
s_scheduler_recalculate_rep_print(const void *data, size_t size)
{
    proto_scheduler_recalculate_rep_t msg;
    char *text = NULL;
    if (proto_scheduler_recalculate_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_scheduler_recalculate_rep_print(&msg);
    proto_scheduler_recalculate_rep_clear(&msg);
    return text;
}

static int
s_scheduler_recalculate_rep_roundtrip(const void *data, size_t size)
{
    proto_scheduler_recalculate_rep_t one, two;
    if (proto_scheduler_recalculate_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_scheduler_recalculate_rep_encode(&one);
    proto_scheduler_recalculate_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                           NULL);
    zframe_t *second = proto_scheduler_recalculate_rep_encode(&two);
    char *text_one = proto_scheduler_recalculate_rep_print(&one);
    char *text_two = proto_scheduler_recalculate_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_scheduler_recalculate_rep_clear(&one);
    proto_scheduler_recalculate_rep_clear(&two);
    return rc;
}

static int
s_scheduler_schedulable_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_scheduler_schedulable_req_t msg;
    int rc = proto_scheduler_schedulable_req_decode(&msg, data, size, err);
    proto_scheduler_schedulable_req_clear(&msg);
    return rc;
}

static char *
s_scheduler_schedulable_req_print(const void *data, size_t size)
{
    proto_scheduler_schedulable_req_t msg;
    char *text = NULL;
    if (proto_scheduler_schedulable_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_scheduler_schedulable_req_print(&msg);
    proto_scheduler_schedulable_req_clear(&msg);
    return text;
}

static int
s_scheduler_schedulable_req_roundtrip(const void *data, size_t size)
{
    proto_scheduler_schedulable_req_t one, two;
    if (proto_scheduler_schedulable_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_scheduler_schedulable_req_encode(&one);
    proto_scheduler_schedulable_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                           NULL);
    zframe_t *second = proto_scheduler_schedulable_req_encode(&two);
    char *text_one = proto_scheduler_schedulable_req_print(&one);
    char *text_two = proto_scheduler_schedulable_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_scheduler_schedulable_req_clear(&one);
    proto_scheduler_schedulable_req_clear(&two);
    return rc;
}

static int
s_scheduler_schedulable_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_scheduler_schedulable_rep_t msg;
    int rc = proto_scheduler_schedulable_rep_decode(&msg, data, size, err);
    proto_scheduler_schedulable_rep_clear(&msg);
    return rc;
}

static char *
s_scheduler_schedulable_rep_print(const void *data, size_t size)
{
    proto_scheduler_schedulable_rep_t msg;
    char *text = NULL;
    if (proto_scheduler_schedulable_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_scheduler_schedulable_rep_print(&msg);
    proto_scheduler_schedulable_rep_clear(&msg);
    return text;
}

static int
s_scheduler_schedulable_rep_roundtrip(const void *data, size_t size)
{
    proto_scheduler_schedulable_rep_t one, two;
    if (proto_scheduler_schedulable_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_scheduler_schedulable_rep_encode(&one);
    proto_scheduler_schedulable_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                           NULL);
    zframe_t *second = proto_scheduler_schedulable_rep_encode(&two);
    char *text_one = proto_scheduler_schedulable_rep_print(&one);
    char *text_two = proto_scheduler_schedulable_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_scheduler_schedulable_rep_clear(&one);
    proto_scheduler_schedulable_rep_clear(&two);
    return rc;
}

static int
s_scheduler_concurrency_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_scheduler_concurrency_req_t msg;
    int rc = proto_scheduler_concurrency_req_decode(&msg, data, size, err);
    proto_scheduler_concurrency_req_clear(&msg);
    return rc;
}

static char *
s_scheduler_concurrency_req_print(const void *data, size_t size)
{
    proto_scheduler_concurrency_req_t msg;
    char *text = NULL;
    if (proto_scheduler_concurrency_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_scheduler_concurrency_req_print(&msg);
    proto_scheduler_concurrency_req_clear(&msg);
    return text;
}

static int
s_scheduler_concurrency_req_roundtrip(const void *data, size_t size)
{
    proto_scheduler_concurrency_req_t one, two;
    if (proto_scheduler_concurrency_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_scheduler_concurrency_req_encode(&one);
    proto_scheduler_concurrency_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                           NULL);
    zframe_t *second = proto_scheduler_concurrency_req_encode(&two);
    char *text_one = proto_scheduler_concurrency_req_print(&one);
    char *text_two = proto_scheduler_concurrency_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_scheduler_concurrency_req_clear(&one);
    proto_scheduler_concurrency_req_clear(&two);
    return rc;
}

static int
s_scheduler_concurrency_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_scheduler_concurrency_rep_t msg;
    int rc = proto_scheduler_concurrency_rep_decode(&msg, data, size, err);
    proto_scheduler_concurrency_rep_clear(&msg);
    return rc;
}

static char *
s_scheduler_concurrency_rep_print(const void *data, size_t size)
{
    proto_scheduler_concurrency_rep_t msg;
    char *text = NULL;
    if (proto_scheduler_concurrency_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_scheduler_concurrency_rep_print(&msg);
    proto_scheduler_concurrency_rep_clear(&msg);
    return text;
}

static int
s_scheduler_concurrency_rep_roundtrip(const void *data, size_t size)
{
    proto_scheduler_concurrency_rep_t one, two;
    if (proto_scheduler_concurrency_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_scheduler_concurrency_rep_encode(&one);
    proto_scheduler_concurrency_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                           NULL);
    zframe_t *second = proto_scheduler_concurrency_rep_encode(&two);
    char *text_one = proto_scheduler_concurrency_rep_print(&one);
    char *text_two = proto_scheduler_concurrency_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_scheduler_concurrency_rep_clear(&one);
    proto_scheduler_concurrency_rep_clear(&two);
    return rc;
}

static int
s_service_started_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_service_started_t msg;
    int rc = proto_service_started_decode(&msg, data, size, err);
    proto_service_started_clear(&msg);
    return rc;
}

static char *
s_service_started_print(const void *data, size_t size)
{
    proto_service_started_t msg;
    char *text = NULL;
    if (proto_service_started_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_service_started_print(&msg);
    proto_service_started_clear(&msg);
    return text;
}

static int
s_service_started_roundtrip(const void *data, size_t size)
{
    proto_service_started_t one, two;
    if (proto_service_started_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_service_started_encode(&one);
    proto_service_started_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_service_started_encode(&two);
    char *text_one = proto_service_started_print(&one);
    char *text_two = proto_service_started_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_service_started_clear(&one);
    proto_service_started_clear(&two);
    return rc;
}

static int
s_service_stopping_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_service_stopping_t msg;
    int rc = proto_service_stopping_decode(&msg, data, size, err);
    proto_service_stopping_clear(&msg);
    return rc;
}

static char *
s_service_stopping_print(const void *data, size_t size)
{
    proto_service_stopping_t msg;
    char *text = NULL;
    if (proto_service_stopping_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_service_stopping_print(&msg);
    proto_service_stopping_clear(&msg);
    return text;
}

static int
s_service_stopping_roundtrip(const void *data, size_t size)
{
    proto_service_stopping_t one, two;
    if (proto_service_stopping_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_service_stopping_encode(&one);
    proto_service_stopping_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_service_stopping_encode(&two);
    char *text_one = proto_service_stopping_print(&one);
    char *text_two = proto_service_stopping_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_service_stopping_clear(&one);
    proto_service_stopping_clear(&two);
    return rc;
}

static int
s_service_expired_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_service_expired_t msg;
    int rc = proto_service_expired_decode(&msg, data, size, err);
    proto_service_expired_clear(&msg);
    return rc;
}

static char *
s_service_expired_print(const void *data, size_t size)
{
    proto_service_expired_t msg;
    char *text = NULL;
    if (proto_service_expired_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_service_expired_print(&msg);
    proto_service_expired_clear(&msg);
    return text;
}

static int
s_service_expired_roundtrip(const void *data, size_t size)
{
    proto_service_expired_t one, two;
    if (proto_service_expired_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_service_expired_encode(&one);
    proto_service_expired_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_service_expired_encode(&two);
    char *text_one = proto_service_expired_print(&one);
    char *text_two = proto_service_expired_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_service_expired_clear(&one);
    proto_service_expired_clear(&two);
    return rc;
}

static int
s_service_health_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_service_health_req_t msg;
    int rc = proto_service_health_req_decode(&msg, data, size, err);
    proto_service_health_req_clear(&msg);
    return rc;
}

static char *
s_service_health_req_print(const void *data, size_t size)
{
    proto_service_health_req_t msg;
    char *text = NULL;
    if (proto_service_health_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_service_health_req_print(&msg);
    proto_service_health_req_clear(&msg);
    return text;
}

static int
s_service_health_req_roundtrip(const void *data, size_t size)
{
    proto_service_health_req_t one, two;
    if (proto_service_health_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_service_health_req_encode(&one);
    proto_service_health_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_service_health_req_encode(&two);
    char *text_one = proto_service_health_req_print(&one);
    char *text_two = proto_service_health_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_service_health_req_clear(&one);
    proto_service_health_req_clear(&two);
    return rc;
}

static int
s_service_health_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_service_health_rep_t msg;
    int rc = proto_service_health_rep_decode(&msg, data, size, err);
    proto_service_health_rep_clear(&msg);
    return rc;
}

static char *
s_service_health_rep_print(const void *data, size_t size)
{
    proto_service_health_rep_t msg;
    char *text = NULL;
    if (proto_service_health_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_service_health_rep_print(&msg);
    proto_service_health_rep_clear(&msg);
    return text;
}

static int
s_service_health_rep_roundtrip(const void *data, size_t size)
{
    proto_service_health_rep_t one, two;
    if (proto_service_health_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_service_health_rep_encode(&one);
    proto_service_health_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_service_health_rep_encode(&two);
    char *text_one = proto_service_health_rep_print(&one);
    char *text_two = proto_service_health_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_service_health_rep_clear(&one);
    proto_service_health_rep_clear(&two);
    return rc;
}

static int
s_session_activity_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_session_activity_t msg;
    int rc = proto_session_activity_decode(&msg, data, size, err);
    proto_session_activity_clear(&msg);
    return rc;
}

static char *
s_session_activity_print(const void *data, size_t size)
{
    proto_session_activity_t msg;
    char *text = NULL;
    if (proto_session_activity_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_session_activity_print(&msg);
    proto_session_activity_clear(&msg);
    return text;
}

static int
s_session_activity_roundtrip(const void *data, size_t size)
{
    proto_session_activity_t one, two;
    if (proto_session_activity_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_session_activity_encode(&one);
    proto_session_activity_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_session_activity_encode(&two);
    char *text_one = proto_session_activity_print(&one);
    char *text_two = proto_session_activity_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_session_activity_clear(&one);
    proto_session_activity_clear(&two);
    return rc;
}

static int
s_session_lifecycle_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_session_lifecycle_t msg;
    int rc = proto_session_lifecycle_decode(&msg, data, size, err);
    proto_session_lifecycle_clear(&msg);
    return rc;
}

static char *
s_session_lifecycle_print(const void *data, size_t size)
{
    proto_session_lifecycle_t msg;
    char *text = NULL;
    if (proto_session_lifecycle_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_session_lifecycle_print(&msg);
    proto_session_lifecycle_clear(&msg);
    return text;
}

static int
s_session_lifecycle_roundtrip(const void *data, size_t size)
{
    proto_session_lifecycle_t one, two;
    if (proto_session_lifecycle_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_session_lifecycle_encode(&one);
    proto_session_lifecycle_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_session_lifecycle_encode(&two);
    char *text_one = proto_session_lifecycle_print(&one);
    char *text_two = proto_session_lifecycle_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_session_lifecycle_clear(&one);
    proto_session_lifecycle_clear(&two);
    return rc;
}

static int
s_session_create_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_session_create_req_t msg;
    int rc = proto_session_create_req_decode(&msg, data, size, err);
    proto_session_create_req_clear(&msg);
    return rc;
}

static char *
s_session_create_req_print(const void *data, size_t size)
{
    proto_session_create_req_t msg;
    char *text = NULL;
    if (proto_session_create_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_session_create_req_print(&msg);
    proto_session_create_req_clear(&msg);
    return text;
}

static int
s_session_create_req_roundtrip(const void *data, size_t size)
{
    proto_session_create_req_t one, two;
    if (proto_session_create_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_session_create_req_encode(&one);
    proto_session_create_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_session_create_req_encode(&two);
    char *text_one = proto_session_create_req_print(&one);
    char *text_two = proto_session_create_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_session_create_req_clear(&one);
    proto_session_create_req_clear(&two);
    return rc;
}

static int
s_session_create_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_session_create_rep_t msg;
    int rc = proto_session_create_rep_decode(&msg, data, size, err);
    proto_session_create_rep_clear(&msg);
    return rc;
}

static char *
s_session_create_rep_print(const void *data, size_t size)
{
    proto_session_create_rep_t msg;
    char *text = NULL;
    if (proto_session_create_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_session_create_rep_print(&msg);
    proto_session_create_rep_clear(&msg);
    return text;
}

static int
s_session_create_rep_roundtrip(const void *data, size_t size)
{
    proto_session_create_rep_t one, two;
    if (proto_session_create_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_session_create_rep_encode(&one);
    proto_session_create_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_session_create_rep_encode(&two);
    char *text_one = proto_session_create_rep_print(&one);
    char *text_two = proto_session_create_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_session_create_rep_clear(&one);
    proto_session_create_rep_clear(&two);
    return rc;
}

static int
s_session_destroy_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_session_destroy_req_t msg;
    int rc = proto_session_destroy_req_decode(&msg, data, size, err);
    proto_session_destroy_req_clear(&msg);
    return rc;
}

static char *
s_session_destroy_req_print(const void *data, size_t size)
{
    proto_session_destroy_req_t msg;
    char *text = NULL;
    if (proto_session_destroy_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_session_destroy_req_print(&msg);
    proto_session_destroy_req_clear(&msg);
    return text;
}

static int
s_session_destroy_req_roundtrip(const void *data, size_t size)
{
    proto_session_destroy_req_t one, two;
    if (proto_session_destroy_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_session_destroy_req_encode(&one);
    proto_session_destroy_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                     NULL);
    zframe_t *second = proto_session_destroy_req_encode(&two);
    char *text_one = proto_session_destroy_req_print(&one);
    char *text_two = proto_session_destroy_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_session_destroy_req_clear(&one);
    proto_session_destroy_req_clear(&two);
    return rc;
}

static int
s_session_destroy_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_session_destroy_rep_t msg;
    int rc = proto_session_destroy_rep_decode(&msg, data, size, err);
    proto_session_destroy_rep_clear(&msg);
    return rc;
}

static char *
s_session_destroy_rep_print(const void *data, size_t size)
{
    proto_session_destroy_rep_t msg;
    char *text = NULL;
    if (proto_session_destroy_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_session_destroy_rep_print(&msg);
    proto_session_destroy_rep_clear(&msg);
    return text;
}

static int
s_session_destroy_rep_roundtrip(const void *data, size_t size)
{
    proto_session_destroy_rep_t one, two;
    if (proto_session_destroy_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_session_destroy_rep_encode(&one);
    proto_session_destroy_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                     NULL);
    zframe_t *second = proto_session_destroy_rep_encode(&two);
    char *text_one = proto_session_destroy_rep_print(&one);
    char *text_two = proto_session_destroy_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_session_destroy_rep_clear(&one);
    proto_session_destroy_rep_clear(&two);
    return rc;
}

static int
s_session_get_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_session_get_req_t msg;
    int rc = proto_session_get_req_decode(&msg, data, size, err);
    proto_session_get_req_clear(&msg);
    return rc;
}

static char *
s_session_get_req_print(const void *data, size_t size)
{
    proto_session_get_req_t msg;
    char *text = NULL;
    if (proto_session_get_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_session_get_req_print(&msg);
    proto_session_get_req_clear(&msg);
    return text;
}

static int
s_session_get_req_roundtrip(const void *data, size_t size)
{
    proto_session_get_req_t one, two;
    if (proto_session_get_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_session_get_req_encode(&one);
    proto_session_get_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_session_get_req_encode(&two);
    char *text_one = proto_session_get_req_print(&one);
    char *text_two = proto_session_get_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_session_get_req_clear(&one);
    proto_session_get_req_clear(&two);
    return rc;
}

static int
s_session_get_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_session_get_rep_t msg;
    int rc = proto_session_get_rep_decode(&msg, data, size, err);
    proto_session_get_rep_clear(&msg);
    return rc;
}

static char *
s_session_get_rep_print(const void *data, size_t size)
{
    proto_session_get_rep_t msg;
    char *text = NULL;
    if (proto_session_get_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_session_get_rep_print(&msg);
    proto_session_get_rep_clear(&msg);
    return text;
}

static int
s_session_get_rep_roundtrip(const void *data, size_t size)
{
    proto_session_get_rep_t one, two;
    if (proto_session_get_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_session_get_rep_encode(&one);
    proto_session_get_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_session_get_rep_encode(&two);
    char *text_one = proto_session_get_rep_print(&one);
    char *text_two = proto_session_get_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_session_get_rep_clear(&one);
    proto_session_get_rep_clear(&two);
    return rc;
}

static int
s_session_rename_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_session_rename_req_t msg;
    int rc = proto_session_rename_req_decode(&msg, data, size, err);
    proto_session_rename_req_clear(&msg);
    return rc;
}

static char *
s_session_rename_req_print(const void *data, size_t size)
{
    proto_session_rename_req_t msg;
    char *text = NULL;
    if (proto_session_rename_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_session_rename_req_print(&msg);
    proto_session_rename_req_clear(&msg);
    return text;
}

static int
s_session_rename_req_roundtrip(const void *data, size_t size)
{
    proto_session_rename_req_t one, two;
    if (proto_session_rename_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_session_rename_req_encode(&one);
    proto_session_rename_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_session_rename_req_encode(&two);
    char *text_one = proto_session_rename_req_print(&one);
    char *text_two = proto_session_rename_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_session_rename_req_clear(&one);
    proto_session_rename_req_clear(&two);
    return rc;
}

static int
s_session_rename_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_session_rename_rep_t msg;
    int rc = proto_session_rename_rep_decode(&msg, data, size, err);
    proto_session_rename_rep_clear(&msg);
    return rc;
}

static char *
s_session_rename_rep_print(const void *data, size_t size)
{
    proto_session_rename_rep_t msg;
    char *text = NULL;
    if (proto_session_rename_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_session_rename_rep_print(&msg);
    proto_session_rename_rep_clear(&msg);
    return text;
}

static int
s_session_rename_rep_roundtrip(const void *data, size_t size)
{
    proto_session_rename_rep_t one, two;
    if (proto_session_rename_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_session_rename_rep_encode(&one);
    proto_session_rename_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_session_rename_rep_encode(&two);
    char *text_one = proto_session_rename_rep_print(&one);
    char *text_two = proto_session_rename_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_session_rename_rep_clear(&one);
    proto_session_rename_rep_clear(&two);
    return rc;
}

static int
s_session_restart_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_session_restart_req_t msg;
    int rc = proto_session_restart_req_decode(&msg, data, size, err);
    proto_session_restart_req_clear(&msg);
    return rc;
}

static char *
s_session_restart_req_print(const void *data, size_t size)
{
    proto_session_restart_req_t msg;
    char *text = NULL;
    if (proto_session_restart_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_session_restart_req_print(&msg);
    proto_session_restart_req_clear(&msg);
    return text;
}

static int
s_session_restart_req_roundtrip(const void *data, size_t size)
{
    proto_session_restart_req_t one, two;
    if (proto_session_restart_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_session_restart_req_encode(&one);
    proto_session_restart_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                     NULL);
    zframe_t *second = proto_session_restart_req_encode(&two);
    char *text_one = proto_session_restart_req_print(&one);
    char *text_two = proto_session_restart_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_session_restart_req_clear(&one);
    proto_session_restart_req_clear(&two);
    return rc;
}

static int
s_session_restart_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_session_restart_rep_t msg;
    int rc = proto_session_restart_rep_decode(&msg, data, size, err);
    proto_session_restart_rep_clear(&msg);
    return rc;
}

static char *
s_session_restart_rep_print(const void *data, size_t size)
{
    proto_session_restart_rep_t msg;
    char *text = NULL;
    if (proto_session_restart_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_session_restart_rep_print(&msg);
    proto_session_restart_rep_clear(&msg);
    return text;
}

static int
s_session_restart_rep_roundtrip(const void *data, size_t size)
{
    proto_session_restart_rep_t one, two;
    if (proto_session_restart_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_session_restart_rep_encode(&one);
    proto_session_restart_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                     NULL);
    zframe_t *second = proto_session_restart_rep_encode(&two);
    char *text_one = proto_session_restart_rep_print(&one);
    char *text_two = proto_session_restart_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_session_restart_rep_clear(&one);
    proto_session_restart_rep_clear(&two);
    return rc;
}

static int
s_session_list_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_session_list_req_t msg;
    int rc = proto_session_list_req_decode(&msg, data, size, err);
    proto_session_list_req_clear(&msg);
    return rc;
}

static char *
s_session_list_req_print(const void *data, size_t size)
{
    proto_session_list_req_t msg;
    char *text = NULL;
    if (proto_session_list_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_session_list_req_print(&msg);
    proto_session_list_req_clear(&msg);
    return text;
}

static int
s_session_list_req_roundtrip(const void *data, size_t size)
{
    proto_session_list_req_t one, two;
    if (proto_session_list_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_session_list_req_encode(&one);
    proto_session_list_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_session_list_req_encode(&two);
    char *text_one = proto_session_list_req_print(&one);
    char *text_two = proto_session_list_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_session_list_req_clear(&one);
    proto_session_list_req_clear(&two);
    return rc;
}

static int
s_session_list_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_session_list_rep_t msg;
    int rc = proto_session_list_rep_decode(&msg, data, size, err);
    proto_session_list_rep_clear(&msg);
    return rc;
}

static char *
s_session_list_rep_print(const void *data, size_t size)
{
    proto_session_list_rep_t msg;
    char *text = NULL;
    if (proto_session_list_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_session_list_rep_print(&msg);
    proto_session_list_rep_clear(&msg);
    return text;
}

static int
s_session_list_rep_roundtrip(const void *data, size_t size)
{
    proto_session_list_rep_t one, two;
    if (proto_session_list_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_session_list_rep_encode(&one);
    proto_session_list_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_session_list_rep_encode(&two);
    char *text_one = proto_session_list_rep_print(&one);
    char *text_two = proto_session_list_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_session_list_rep_clear(&one);
    proto_session_list_rep_clear(&two);
    return rc;
}

static int
s_storage_volumes_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_volumes_req_t msg;
    int rc = proto_storage_volumes_req_decode(&msg, data, size, err);
    proto_storage_volumes_req_clear(&msg);
    return rc;
}

static char *
s_storage_volumes_req_print(const void *data, size_t size)
{
    proto_storage_volumes_req_t msg;
    char *text = NULL;
    if (proto_storage_volumes_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_volumes_req_print(&msg);
    proto_storage_volumes_req_clear(&msg);
    return text;
}

static int
s_storage_volumes_req_roundtrip(const void *data, size_t size)
{
    proto_storage_volumes_req_t one, two;
    if (proto_storage_volumes_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_volumes_req_encode(&one);
    proto_storage_volumes_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                     NULL);
    zframe_t *second = proto_storage_volumes_req_encode(&two);
    char *text_one = proto_storage_volumes_req_print(&one);
    char *text_two = proto_storage_volumes_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_volumes_req_clear(&one);
    proto_storage_volumes_req_clear(&two);
    return rc;
}

static int
s_storage_volumes_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_volumes_rep_t msg;
    int rc = proto_storage_volumes_rep_decode(&msg, data, size, err);
    proto_storage_volumes_rep_clear(&msg);
    return rc;
}

static char *
s_storage_volumes_rep_print(const void *data, size_t size)
{
    proto_storage_volumes_rep_t msg;
    char *text = NULL;
    if (proto_storage_volumes_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_volumes_rep_print(&msg);
    proto_storage_volumes_rep_clear(&msg);
    return text;
}

static int
s_storage_volumes_rep_roundtrip(const void *data, size_t size)
{
    proto_storage_volumes_rep_t one, two;
    if (proto_storage_volumes_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_volumes_rep_encode(&one);
    proto_storage_volumes_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                     NULL);
    zframe_t *second = proto_storage_volumes_rep_encode(&two);
    char *text_one = proto_storage_volumes_rep_print(&one);
    char *text_two = proto_storage_volumes_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_volumes_rep_clear(&one);
    proto_storage_volumes_rep_clear(&two);
    return rc;
}

static int
s_storage_folder_create_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_folder_create_req_t msg;
    int rc = proto_storage_folder_create_req_decode(&msg, data, size, err);
    proto_storage_folder_create_req_clear(&msg);
    return rc;
}

static char *
s_storage_folder_create_req_print(const void *data, size_t size)
{
    proto_storage_folder_create_req_t msg;
    char *text = NULL;
    if (proto_storage_folder_create_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_folder_create_req_print(&msg);
    proto_storage_folder_create_req_clear(&msg);
    return text;
}

static int
s_storage_folder_create_req_roundtrip(const void *data, size_t size)
{
    proto_storage_folder_create_req_t one, two;
    if (proto_storage_folder_create_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_folder_create_req_encode(&one);
    proto_storage_folder_create_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                           NULL);
    zframe_t *second = proto_storage_folder_create_req_encode(&two);
    char *text_one = proto_storage_folder_create_req_print(&one);
    char *text_two = proto_storage_folder_create_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_folder_create_req_clear(&one);
    proto_storage_folder_create_req_clear(&two);
    return rc;
}

static int
s_storage_folder_create_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_folder_create_rep_t msg;
    int rc = proto_storage_folder_create_rep_decode(&msg, data, size, err);
    proto_storage_folder_create_rep_clear(&msg);
    return rc;
}

static char *
s_storage_folder_create_rep_print(const void *data, size_t size)
{
    proto_storage_folder_create_rep_t msg;
    char *text = NULL;
    if (proto_storage_folder_create_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_folder_create_rep_print(&msg);
    proto_storage_folder_create_rep_clear(&msg);
    return text;
}

static int
s_storage_folder_create_rep_roundtrip(const void *data, size_t size)
{
    proto_storage_folder_create_rep_t one, two;
    if (proto_storage_folder_create_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_folder_create_rep_encode(&one);
    proto_storage_folder_create_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                           NULL);
    zframe_t *second = proto_storage_folder_create_rep_encode(&two);
    char *text_one = proto_storage_folder_create_rep_print(&one);
    char *text_two = proto_storage_folder_create_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_folder_create_rep_clear(&one);
    proto_storage_folder_create_rep_clear(&two);
    return rc;
}

static int
s_storage_folder_delete_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_folder_delete_req_t msg;
    int rc = proto_storage_folder_delete_req_decode(&msg, data, size, err);
    proto_storage_folder_delete_req_clear(&msg);
    return rc;
}

static char *
s_storage_folder_delete_req_print(const void *data, size_t size)
{
    proto_storage_folder_delete_req_t msg;
    char *text = NULL;
    if (proto_storage_folder_delete_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_folder_delete_req_print(&msg);
    proto_storage_folder_delete_req_clear(&msg);
    return text;
}

static int
s_storage_folder_delete_req_roundtrip(const void *data, size_t size)
{
    proto_storage_folder_delete_req_t one, two;
    if (proto_storage_folder_delete_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_folder_delete_req_encode(&one);
    proto_storage_folder_delete_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                           NULL);
    zframe_t *second = proto_storage_folder_delete_req_encode(&two);
    char *text_one = proto_storage_folder_delete_req_print(&one);
    char *text_two = proto_storage_folder_delete_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_folder_delete_req_clear(&one);
    proto_storage_folder_delete_req_clear(&two);
    return rc;
}

static int
s_storage_folder_delete_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_folder_delete_rep_t msg;
    int rc = proto_storage_folder_delete_rep_decode(&msg, data, size, err);
    proto_storage_folder_delete_rep_clear(&msg);
    return rc;
}

static char *
s_storage_folder_delete_rep_print(const void *data, size_t size)
{
    proto_storage_folder_delete_rep_t msg;
    char *text = NULL;
    if (proto_storage_folder_delete_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_folder_delete_rep_print(&msg);
    proto_storage_folder_delete_rep_clear(&msg);
    return text;
}

static int
s_storage_folder_delete_rep_roundtrip(const void *data, size_t size)
{
    proto_storage_folder_delete_rep_t one, two;
    if (proto_storage_folder_delete_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_folder_delete_rep_encode(&one);
    proto_storage_folder_delete_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                           NULL);
    zframe_t *second = proto_storage_folder_delete_rep_encode(&two);
    char *text_one = proto_storage_folder_delete_rep_print(&one);
    char *text_two = proto_storage_folder_delete_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_folder_delete_rep_clear(&one);
    proto_storage_folder_delete_rep_clear(&two);
    return rc;
}

static int
s_storage_folder_clone_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_folder_clone_req_t msg;
    int rc = proto_storage_folder_clone_req_decode(&msg, data, size, err);
    proto_storage_folder_clone_req_clear(&msg);
    return rc;
}

static char *
s_storage_folder_clone_req_print(const void *data, size_t size)
{
    proto_storage_folder_clone_req_t msg;
    char *text = NULL;
    if (proto_storage_folder_clone_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_folder_clone_req_print(&msg);
    proto_storage_folder_clone_req_clear(&msg);
    return text;
}

static int
s_storage_folder_clone_req_roundtrip(const void *data, size_t size)
{
    proto_storage_folder_clone_req_t one, two;
    if (proto_storage_folder_clone_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_folder_clone_req_encode(&one);
    proto_storage_folder_clone_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                          NULL);
    zframe_t *second = proto_storage_folder_clone_req_encode(&two);
    char *text_one = proto_storage_folder_clone_req_print(&one);
    char *text_two = proto_storage_folder_clone_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_folder_clone_req_clear(&one);
    proto_storage_folder_clone_req_clear(&two);
    return rc;
}

static int
s_storage_folder_clone_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_folder_clone_rep_t msg;
    int rc = proto_storage_folder_clone_rep_decode(&msg, data, size, err);
    proto_storage_folder_clone_rep_clear(&msg);
    return rc;
}

static char *
s_storage_folder_clone_rep_print(const void *data, size_t size)
{
    proto_storage_folder_clone_rep_t msg;
    char *text = NULL;
    if (proto_storage_folder_clone_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_folder_clone_rep_print(&msg);
    proto_storage_folder_clone_rep_clear(&msg);
    return text;
}

static int
s_storage_folder_clone_rep_roundtrip(const void *data, size_t size)
{
    proto_storage_folder_clone_rep_t one, two;
    if (proto_storage_folder_clone_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_folder_clone_rep_encode(&one);
    proto_storage_folder_clone_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                          NULL);
    zframe_t *second = proto_storage_folder_clone_rep_encode(&two);
    char *text_one = proto_storage_folder_clone_rep_print(&one);
    char *text_two = proto_storage_folder_clone_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_folder_clone_rep_clear(&one);
    proto_storage_folder_clone_rep_clear(&two);
    return rc;
}

static int
s_storage_folder_usage_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_folder_usage_req_t msg;
    int rc = proto_storage_folder_usage_req_decode(&msg, data, size, err);
    proto_storage_folder_usage_req_clear(&msg);
    return rc;
}

static char *
s_storage_folder_usage_req_print(const void *data, size_t size)
{
    proto_storage_folder_usage_req_t msg;
    char *text = NULL;
    if (proto_storage_folder_usage_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_folder_usage_req_print(&msg);
    proto_storage_folder_usage_req_clear(&msg);
    return text;
}

static int
s_storage_folder_usage_req_roundtrip(const void *data, size_t size)
{
    proto_storage_folder_usage_req_t one, two;
    if (proto_storage_folder_usage_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_folder_usage_req_encode(&one);
    proto_storage_folder_usage_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                          NULL);
    zframe_t *second = proto_storage_folder_usage_req_encode(&two);
    char *text_one = proto_storage_folder_usage_req_print(&one);
    char *text_two = proto_storage_folder_usage_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_folder_usage_req_clear(&one);
    proto_storage_folder_usage_req_clear(&two);
    return rc;
}

static int
s_storage_folder_usage_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_folder_usage_rep_t msg;
    int rc = proto_storage_folder_usage_rep_decode(&msg, data, size, err);
    proto_storage_folder_usage_rep_clear(&msg);
    return rc;
}

static char *
s_storage_folder_usage_rep_print(const void *data, size_t size)
{
    proto_storage_folder_usage_rep_t msg;
    char *text = NULL;
    if (proto_storage_folder_usage_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_folder_usage_rep_print(&msg);
    proto_storage_folder_usage_rep_clear(&msg);
    return text;
}

static int
s_storage_folder_usage_rep_roundtrip(const void *data, size_t size)
{
    proto_storage_folder_usage_rep_t one, two;
    if (proto_storage_folder_usage_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_folder_usage_rep_encode(&one);
    proto_storage_folder_usage_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                          NULL);
    zframe_t *second = proto_storage_folder_usage_rep_encode(&two);
    char *text_one = proto_storage_folder_usage_rep_print(&one);
    char *text_two = proto_storage_folder_usage_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_folder_usage_rep_clear(&one);
    proto_storage_folder_usage_rep_clear(&two);
    return rc;
}

static int
s_storage_folder_quota_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_folder_quota_req_t msg;
    int rc = proto_storage_folder_quota_req_decode(&msg, data, size, err);
    proto_storage_folder_quota_req_clear(&msg);
    return rc;
}

static char *
s_storage_folder_quota_req_print(const void *data, size_t size)
{
    proto_storage_folder_quota_req_t msg;
    char *text = NULL;
    if (proto_storage_folder_quota_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_folder_quota_req_print(&msg);
    proto_storage_folder_quota_req_clear(&msg);
    return text;
}

static int
s_storage_folder_quota_req_roundtrip(const void *data, size_t size)
{
    proto_storage_folder_quota_req_t one, two;
    if (proto_storage_folder_quota_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_folder_quota_req_encode(&one);
    proto_storage_folder_quota_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                          NULL);
    zframe_t *second = proto_storage_folder_quota_req_encode(&two);
    char *text_one = proto_storage_folder_quota_req_print(&one);
    char *text_two = proto_storage_folder_quota_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_folder_quota_req_clear(&one);
    proto_storage_folder_quota_req_clear(&two);
    return rc;
}

static int
s_storage_folder_quota_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_folder_quota_rep_t msg;
    int rc = proto_storage_folder_quota_rep_decode(&msg, data, size, err);
    proto_storage_folder_quota_rep_clear(&msg);
    return rc;
}

static char *
s_storage_folder_quota_rep_print(const void *data, size_t size)
{
    proto_storage_folder_quota_rep_t msg;
    char *text = NULL;
    if (proto_storage_folder_quota_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_folder_quota_rep_print(&msg);
    proto_storage_folder_quota_rep_clear(&msg);
    return text;
}

static int
s_storage_folder_quota_rep_roundtrip(const void *data, size_t size)
{
    proto_storage_folder_quota_rep_t one, two;
    if (proto_storage_folder_quota_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_folder_quota_rep_encode(&one);
    proto_storage_folder_quota_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                          NULL);
    zframe_t *second = proto_storage_folder_quota_rep_encode(&two);
    char *text_one = proto_storage_folder_quota_rep_print(&one);
    char *text_two = proto_storage_folder_quota_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_folder_quota_rep_clear(&one);
    proto_storage_folder_quota_rep_clear(&two);
    return rc;
}

static int
s_storage_folder_mount_path_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_folder_mount_path_req_t msg;
    int rc = proto_storage_folder_mount_path_req_decode(&msg, data, size, err);
    proto_storage_folder_mount_path_req_clear(&msg);
    return rc;
}

static char *
s_storage_folder_mount_path_req_print(const void *data, size_t size)
{
    proto_storage_folder_mount_path_req_t msg;
    char *text = NULL;
    if (proto_storage_folder_mount_path_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_folder_mount_path_req_print(&msg);
    proto_storage_folder_mount_path_req_clear(&msg);
    return text;
}

static int
s_storage_folder_mount_path_req_roundtrip(const void *data, size_t size)
{
    proto_storage_folder_mount_path_req_t one, two;
    if (proto_storage_folder_mount_path_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_folder_mount_path_req_encode(&one);
    proto_storage_folder_mount_path_req_decode(&two, s_frame_data(first),
                                               s_frame_size(first), NULL);
    zframe_t *second = proto_storage_folder_mount_path_req_encode(&two);
    char *text_one = proto_storage_folder_mount_path_req_print(&one);
    char *text_two = proto_storage_folder_mount_path_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_folder_mount_path_req_clear(&one);
    proto_storage_folder_mount_path_req_clear(&two);
    return rc;
}

static int
s_storage_folder_mount_path_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_folder_mount_path_rep_t msg;
    int rc = proto_storage_folder_mount_path_rep_decode(&msg, data, size, err);
    proto_storage_folder_mount_path_rep_clear(&msg);
    return rc;
}

static char *
s_storage_folder_mount_path_rep_print(const void *data, size_t size)
{
    proto_storage_folder_mount_path_rep_t msg;
    char *text = NULL;
    if (proto_storage_folder_mount_path_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_folder_mount_path_rep_print(&msg);
    proto_storage_folder_mount_path_rep_clear(&msg);
    return text;
}

static int
s_storage_folder_mount_path_rep_roundtrip(const void *data, size_t size)
{
    proto_storage_folder_mount_path_rep_t one, two;
    if (proto_storage_folder_mount_path_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_folder_mount_path_rep_encode(&one);
    proto_storage_folder_mount_path_rep_decode(&two, s_frame_data(first),
                                               s_frame_size(first), NULL);
    zframe_t *second = proto_storage_folder_mount_path_rep_encode(&two);
    char *text_one = proto_storage_folder_mount_path_rep_print(&one);
    char *text_two = proto_storage_folder_mount_path_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_folder_mount_path_rep_clear(&one);
    proto_storage_folder_mount_path_rep_clear(&two);
    return rc;
}

static int
s_storage_files_list_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_files_list_req_t msg;
    int rc = proto_storage_files_list_req_decode(&msg, data, size, err);
    proto_storage_files_list_req_clear(&msg);
    return rc;
}

static char *
s_storage_files_list_req_print(const void *data, size_t size)
{
    proto_storage_files_list_req_t msg;
    char *text = NULL;
    if (proto_storage_files_list_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_files_list_req_print(&msg);
    proto_storage_files_list_req_clear(&msg);
    return text;
}

static int
s_storage_files_list_req_roundtrip(const void *data, size_t size)
{
    proto_storage_files_list_req_t one, two;
    if (proto_storage_files_list_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_files_list_req_encode(&one);
    proto_storage_files_list_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                        NULL);
    zframe_t *second = proto_storage_files_list_req_encode(&two);
    char *text_one = proto_storage_files_list_req_print(&one);
    char *text_two = proto_storage_files_list_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_files_list_req_clear(&one);
    proto_storage_files_list_req_clear(&two);
    return rc;
}

static int
s_storage_files_list_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_files_list_rep_t msg;
    int rc = proto_storage_files_list_rep_decode(&msg, data, size, err);
    proto_storage_files_list_rep_clear(&msg);
    return rc;
}

static char *
s_storage_files_list_rep_print(const void *data, size_t size)
{
    proto_storage_files_list_rep_t msg;
    char *text = NULL;
    if (proto_storage_files_list_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_files_list_rep_print(&msg);
    proto_storage_files_list_rep_clear(&msg);
    return text;
}

static int
s_storage_files_list_rep_roundtrip(const void *data, size_t size)
{
    proto_storage_files_list_rep_t one, two;
    if (proto_storage_files_list_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_files_list_rep_encode(&one);
    proto_storage_files_list_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                        NULL);
    zframe_t *second = proto_storage_files_list_rep_encode(&two);
    char *text_one = proto_storage_files_list_rep_print(&one);
    char *text_two = proto_storage_files_list_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_files_list_rep_clear(&one);
    proto_storage_files_list_rep_clear(&two);
    return rc;
}

static int
s_storage_files_read_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_files_read_req_t msg;
    int rc = proto_storage_files_read_req_decode(&msg, data, size, err);
    proto_storage_files_read_req_clear(&msg);
    return rc;
}

static char *
s_storage_files_read_req_print(const void *data, size_t size)
{
    proto_storage_files_read_req_t msg;
    char *text = NULL;
    if (proto_storage_files_read_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_files_read_req_print(&msg);
    proto_storage_files_read_req_clear(&msg);
    return text;
}

static int
s_storage_files_read_req_roundtrip(const void *data, size_t size)
{
    proto_storage_files_read_req_t one, two;
    if (proto_storage_files_read_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_files_read_req_encode(&one);
    proto_storage_files_read_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                        NULL);
    zframe_t *second = proto_storage_files_read_req_encode(&two);
    char *text_one = proto_storage_files_read_req_print(&one);
    char *text_two = proto_storage_files_read_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_files_read_req_clear(&one);
    proto_storage_files_read_req_clear(&two);
    return rc;
}

static int
s_storage_files_read_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_files_read_rep_t msg;
    int rc = proto_storage_files_read_rep_decode(&msg, data, size, err);
    proto_storage_files_read_rep_clear(&msg);
    return rc;
}

static char *
s_storage_files_read_rep_print(const void *data, size_t size)
{
    proto_storage_files_read_rep_t msg;
    char *text = NULL;
    if (proto_storage_files_read_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_files_read_rep_print(&msg);
    proto_storage_files_read_rep_clear(&msg);
    return text;
}

static int
s_storage_files_read_rep_roundtrip(const void *data, size_t size)
{
    proto_storage_files_read_rep_t one, two;
    if (proto_storage_files_read_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_files_read_rep_encode(&one);
    proto_storage_files_read_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                        NULL);
    zframe_t *second = proto_storage_files_read_rep_encode(&two);
    char *text_one = proto_storage_files_read_rep_print(&one);
    char *text_two = proto_storage_files_read_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_files_read_rep_clear(&one);
    proto_storage_files_read_rep_clear(&two);
    return rc;
}

static int
s_storage_files_mkdir_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_files_mkdir_req_t msg;
    int rc = proto_storage_files_mkdir_req_decode(&msg, data, size, err);
    proto_storage_files_mkdir_req_clear(&msg);
    return rc;
}

static char *
s_storage_files_mkdir_req_print(const void *data, size_t size)
{
    proto_storage_files_mkdir_req_t msg;
    char *text = NULL;
    if (proto_storage_files_mkdir_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_files_mkdir_req_print(&msg);
    proto_storage_files_mkdir_req_clear(&msg);
    return text;
}

static int
s_storage_files_mkdir_req_roundtrip(const void *data, size_t size)
{
    proto_storage_files_mkdir_req_t one, two;
    if (proto_storage_files_mkdir_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_files_mkdir_req_encode(&one);
    proto_storage_files_mkdir_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                         NULL);
    zframe_t *second = proto_storage_files_mkdir_req_encode(&two);
    char *text_one = proto_storage_files_mkdir_req_print(&one);
    char *text_two = proto_storage_files_mkdir_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_files_mkdir_req_clear(&one);
    proto_storage_files_mkdir_req_clear(&two);
    return rc;
}

static int
s_storage_files_mkdir_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_files_mkdir_rep_t msg;
    int rc = proto_storage_files_mkdir_rep_decode(&msg, data, size, err);
    proto_storage_files_mkdir_rep_clear(&msg);
    return rc;
}

static char *
s_storage_files_mkdir_rep_print(const void *data, size_t size)
{
    proto_storage_files_mkdir_rep_t msg;
    char *text = NULL;
    if (proto_storage_files_mkdir_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_files_mkdir_rep_print(&msg);
    proto_storage_files_mkdir_rep_clear(&msg);
    return text;
}

static int
s_storage_files_mkdir_rep_roundtrip(const void *data, size_t size)
{
    proto_storage_files_mkdir_rep_t one, two;
    if (proto_storage_files_mkdir_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_files_mkdir_rep_encode(&one);
    proto_storage_files_mkdir_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                         NULL);
    zframe_t *second = proto_storage_files_mkdir_rep_encode(&two);
    char *text_one = proto_storage_files_mkdir_rep_print(&one);
    char *text_two = proto_storage_files_mkdir_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_files_mkdir_rep_clear(&one);
    proto_storage_files_mkdir_rep_clear(&two);
    return rc;
}

static int
s_storage_files_rename_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_files_rename_req_t msg;
    int rc = proto_storage_files_rename_req_decode(&msg, data, size, err);
    proto_storage_files_rename_req_clear(&msg);
    return rc;
}

static char *
s_storage_files_rename_req_print(const void *data, size_t size)
{
    proto_storage_files_rename_req_t msg;
    char *text = NULL;
    if (proto_storage_files_rename_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_files_rename_req_print(&msg);
    proto_storage_files_rename_req_clear(&msg);
    return text;
}

static int
s_storage_files_rename_req_roundtrip(const void *data, size_t size)
{
    proto_storage_files_rename_req_t one, two;
    if (proto_storage_files_rename_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_files_rename_req_encode(&one);
    proto_storage_files_rename_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                          NULL);
    zframe_t *second = proto_storage_files_rename_req_encode(&two);
    char *text_one = proto_storage_files_rename_req_print(&one);
    char *text_two = proto_storage_files_rename_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_files_rename_req_clear(&one);
    proto_storage_files_rename_req_clear(&two);
    return rc;
}

static int
s_storage_files_rename_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_files_rename_rep_t msg;
    int rc = proto_storage_files_rename_rep_decode(&msg, data, size, err);
    proto_storage_files_rename_rep_clear(&msg);
    return rc;
}

static char *
s_storage_files_rename_rep_print(const void *data, size_t size)
{
    proto_storage_files_rename_rep_t msg;
    char *text = NULL;
    if (proto_storage_files_rename_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_files_rename_rep_print(&msg);
    proto_storage_files_rename_rep_clear(&msg);
    return text;
}

static int
s_storage_files_rename_rep_roundtrip(const void *data, size_t size)
{
    proto_storage_files_rename_rep_t one, two;
    if (proto_storage_files_rename_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_files_rename_rep_encode(&one);
    proto_storage_files_rename_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                          NULL);
    zframe_t *second = proto_storage_files_rename_rep_encode(&two);
    char *text_one = proto_storage_files_rename_rep_print(&one);
    char *text_two = proto_storage_files_rename_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_files_rename_rep_clear(&one);
    proto_storage_files_rename_rep_clear(&two);
    return rc;
}

static int
s_storage_files_move_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_files_move_req_t msg;
    int rc = proto_storage_files_move_req_decode(&msg, data, size, err);
    proto_storage_files_move_req_clear(&msg);
    return rc;
}

static char *
s_storage_files_move_req_print(const void *data, size_t size)
{
    proto_storage_files_move_req_t msg;
    char *text = NULL;
    if (proto_storage_files_move_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_files_move_req_print(&msg);
    proto_storage_files_move_req_clear(&msg);
    return text;
}

static int
s_storage_files_move_req_roundtrip(const void *data, size_t size)
{
    proto_storage_files_move_req_t one, two;
    if (proto_storage_files_move_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_files_move_req_encode(&one);
    proto_storage_files_move_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                        NULL);
    zframe_t *second = proto_storage_files_move_req_encode(&two);
    char *text_one = proto_storage_files_move_req_print(&one);
    char *text_two = proto_storage_files_move_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_files_move_req_clear(&one);
    proto_storage_files_move_req_clear(&two);
    return rc;
}

static int
s_storage_files_move_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_files_move_rep_t msg;
    int rc = proto_storage_files_move_rep_decode(&msg, data, size, err);
    proto_storage_files_move_rep_clear(&msg);
    return rc;
}

static char *
s_storage_files_move_rep_print(const void *data, size_t size)
{
    proto_storage_files_move_rep_t msg;
    char *text = NULL;
    if (proto_storage_files_move_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_files_move_rep_print(&msg);
    proto_storage_files_move_rep_clear(&msg);
    return text;
}

static int
s_storage_files_move_rep_roundtrip(const void *data, size_t size)
{
    proto_storage_files_move_rep_t one, two;
    if (proto_storage_files_move_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_files_move_rep_encode(&one);
    proto_storage_files_move_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                        NULL);
    zframe_t *second = proto_storage_files_move_rep_encode(&two);
    char *text_one = proto_storage_files_move_rep_print(&one);
    char *text_two = proto_storage_files_move_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_files_move_rep_clear(&one);
    proto_storage_files_move_rep_clear(&two);
    return rc;
}

static int
s_storage_files_delete_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_files_delete_req_t msg;
    int rc = proto_storage_files_delete_req_decode(&msg, data, size, err);
    proto_storage_files_delete_req_clear(&msg);
    return rc;
}

static char *
s_storage_files_delete_req_print(const void *data, size_t size)
{
    proto_storage_files_delete_req_t msg;
    char *text = NULL;
    if (proto_storage_files_delete_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_files_delete_req_print(&msg);
    proto_storage_files_delete_req_clear(&msg);
    return text;
}

static int
s_storage_files_delete_req_roundtrip(const void *data, size_t size)
{
    proto_storage_files_delete_req_t one, two;
    if (proto_storage_files_delete_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_files_delete_req_encode(&one);
    proto_storage_files_delete_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                          NULL);
    zframe_t *second = proto_storage_files_delete_req_encode(&two);
    char *text_one = proto_storage_files_delete_req_print(&one);
    char *text_two = proto_storage_files_delete_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_files_delete_req_clear(&one);
    proto_storage_files_delete_req_clear(&two);
    return rc;
}

static int
s_storage_files_delete_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_files_delete_rep_t msg;
    int rc = proto_storage_files_delete_rep_decode(&msg, data, size, err);
    proto_storage_files_delete_rep_clear(&msg);
    return rc;
}

static char *
s_storage_files_delete_rep_print(const void *data, size_t size)
{
    proto_storage_files_delete_rep_t msg;
    char *text = NULL;
    if (proto_storage_files_delete_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_files_delete_rep_print(&msg);
    proto_storage_files_delete_rep_clear(&msg);
    return text;
}

static int
s_storage_files_delete_rep_roundtrip(const void *data, size_t size)
{
    proto_storage_files_delete_rep_t one, two;
    if (proto_storage_files_delete_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_files_delete_rep_encode(&one);
    proto_storage_files_delete_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                          NULL);
    zframe_t *second = proto_storage_files_delete_rep_encode(&two);
    char *text_one = proto_storage_files_delete_rep_print(&one);
    char *text_two = proto_storage_files_delete_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_files_delete_rep_clear(&one);
    proto_storage_files_delete_rep_clear(&two);
    return rc;
}

static int
s_storage_files_fetch_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_files_fetch_req_t msg;
    int rc = proto_storage_files_fetch_req_decode(&msg, data, size, err);
    proto_storage_files_fetch_req_clear(&msg);
    return rc;
}

static char *
s_storage_files_fetch_req_print(const void *data, size_t size)
{
    proto_storage_files_fetch_req_t msg;
    char *text = NULL;
    if (proto_storage_files_fetch_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_files_fetch_req_print(&msg);
    proto_storage_files_fetch_req_clear(&msg);
    return text;
}

static int
s_storage_files_fetch_req_roundtrip(const void *data, size_t size)
{
    proto_storage_files_fetch_req_t one, two;
    if (proto_storage_files_fetch_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_files_fetch_req_encode(&one);
    proto_storage_files_fetch_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                         NULL);
    zframe_t *second = proto_storage_files_fetch_req_encode(&two);
    char *text_one = proto_storage_files_fetch_req_print(&one);
    char *text_two = proto_storage_files_fetch_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_files_fetch_req_clear(&one);
    proto_storage_files_fetch_req_clear(&two);
    return rc;
}

static int
s_storage_files_fetch_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_files_fetch_rep_t msg;
    int rc = proto_storage_files_fetch_rep_decode(&msg, data, size, err);
    proto_storage_files_fetch_rep_clear(&msg);
    return rc;
}

static char *
s_storage_files_fetch_rep_print(const void *data, size_t size)
{
    proto_storage_files_fetch_rep_t msg;
    char *text = NULL;
    if (proto_storage_files_fetch_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_files_fetch_rep_print(&msg);
    proto_storage_files_fetch_rep_clear(&msg);
    return text;
}

static int
s_storage_files_fetch_rep_roundtrip(const void *data, size_t size)
{
    proto_storage_files_fetch_rep_t one, two;
    if (proto_storage_files_fetch_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_files_fetch_rep_encode(&one);
    proto_storage_files_fetch_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                         NULL);
    zframe_t *second = proto_storage_files_fetch_rep_encode(&two);
    char *text_one = proto_storage_files_fetch_rep_print(&one);
    char *text_two = proto_storage_files_fetch_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_files_fetch_rep_clear(&one);
    proto_storage_files_fetch_rep_clear(&two);
    return rc;
}

static int
s_storage_files_fetch_status_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_files_fetch_status_req_t msg;
    int rc = proto_storage_files_fetch_status_req_decode(&msg, data, size, err);
    proto_storage_files_fetch_status_req_clear(&msg);
    return rc;
}

static char *
s_storage_files_fetch_status_req_print(const void *data, size_t size)
{
    proto_storage_files_fetch_status_req_t msg;
    char *text = NULL;
    if (proto_storage_files_fetch_status_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_files_fetch_status_req_print(&msg);
    proto_storage_files_fetch_status_req_clear(&msg);
    return text;
}

static int
s_storage_files_fetch_status_req_roundtrip(const void *data, size_t size)
{
    proto_storage_files_fetch_status_req_t one, two;
    if (proto_storage_files_fetch_status_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_files_fetch_status_req_encode(&one);
    proto_storage_files_fetch_status_req_decode(&two, s_frame_data(first),
                                                s_frame_size(first), NULL);
    zframe_t *second = proto_storage_files_fetch_status_req_encode(&two);
    char *text_one = proto_storage_files_fetch_status_req_print(&one);
    char *text_two = proto_storage_files_fetch_status_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_files_fetch_status_req_clear(&one);
    proto_storage_files_fetch_status_req_clear(&two);
    return rc;
}

static int
s_storage_files_fetch_status_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_storage_files_fetch_status_rep_t msg;
    int rc = proto_storage_files_fetch_status_rep_decode(&msg, data, size, err);
    proto_storage_files_fetch_status_rep_clear(&msg);
    return rc;
}

static char *
s_storage_files_fetch_status_rep_print(const void *data, size_t size)
{
    proto_storage_files_fetch_status_rep_t msg;
    char *text = NULL;
    if (proto_storage_files_fetch_status_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_storage_files_fetch_status_rep_print(&msg);
    proto_storage_files_fetch_status_rep_clear(&msg);
    return text;
}

static int
s_storage_files_fetch_status_rep_roundtrip(const void *data, size_t size)
{
    proto_storage_files_fetch_status_rep_t one, two;
    if (proto_storage_files_fetch_status_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_storage_files_fetch_status_rep_encode(&one);
    proto_storage_files_fetch_status_rep_decode(&two, s_frame_data(first),
                                                s_frame_size(first), NULL);
    zframe_t *second = proto_storage_files_fetch_status_rep_encode(&two);
    char *text_one = proto_storage_files_fetch_status_rep_print(&one);
    char *text_two = proto_storage_files_fetch_status_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_storage_files_fetch_status_rep_clear(&one);
    proto_storage_files_fetch_status_rep_clear(&two);
    return rc;
}

static int
s_test_tick_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_test_tick_t msg;
    int rc = proto_test_tick_decode(&msg, data, size, err);
    proto_test_tick_clear(&msg);
    return rc;
}

static char *
s_test_tick_print(const void *data, size_t size)
{
    proto_test_tick_t msg;
    char *text = NULL;
    if (proto_test_tick_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_test_tick_print(&msg);
    proto_test_tick_clear(&msg);
    return text;
}

static int
s_test_tick_roundtrip(const void *data, size_t size)
{
    proto_test_tick_t one, two;
    if (proto_test_tick_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_test_tick_encode(&one);
    proto_test_tick_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_test_tick_encode(&two);
    char *text_one = proto_test_tick_print(&one);
    char *text_two = proto_test_tick_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_test_tick_clear(&one);
    proto_test_tick_clear(&two);
    return rc;
}

static int
s_test_note_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_test_note_t msg;
    int rc = proto_test_note_decode(&msg, data, size, err);
    proto_test_note_clear(&msg);
    return rc;
}

static char *
s_test_note_print(const void *data, size_t size)
{
    proto_test_note_t msg;
    char *text = NULL;
    if (proto_test_note_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_test_note_print(&msg);
    proto_test_note_clear(&msg);
    return text;
}

static int
s_test_note_roundtrip(const void *data, size_t size)
{
    proto_test_note_t one, two;
    if (proto_test_note_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_test_note_encode(&one);
    proto_test_note_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_test_note_encode(&two);
    char *text_one = proto_test_note_print(&one);
    char *text_two = proto_test_note_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_test_note_clear(&one);
    proto_test_note_clear(&two);
    return rc;
}

static int
s_test_echo_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_test_echo_req_t msg;
    int rc = proto_test_echo_req_decode(&msg, data, size, err);
    proto_test_echo_req_clear(&msg);
    return rc;
}

static char *
s_test_echo_req_print(const void *data, size_t size)
{
    proto_test_echo_req_t msg;
    char *text = NULL;
    if (proto_test_echo_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_test_echo_req_print(&msg);
    proto_test_echo_req_clear(&msg);
    return text;
}

static int
s_test_echo_req_roundtrip(const void *data, size_t size)
{
    proto_test_echo_req_t one, two;
    if (proto_test_echo_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_test_echo_req_encode(&one);
    proto_test_echo_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_test_echo_req_encode(&two);
    char *text_one = proto_test_echo_req_print(&one);
    char *text_two = proto_test_echo_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_test_echo_req_clear(&one);
    proto_test_echo_req_clear(&two);
    return rc;
}

static int
s_test_echo_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_test_echo_rep_t msg;
    int rc = proto_test_echo_rep_decode(&msg, data, size, err);
    proto_test_echo_rep_clear(&msg);
    return rc;
}

static char *
s_test_echo_rep_print(const void *data, size_t size)
{
    proto_test_echo_rep_t msg;
    char *text = NULL;
    if (proto_test_echo_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_test_echo_rep_print(&msg);
    proto_test_echo_rep_clear(&msg);
    return text;
}

static int
s_test_echo_rep_roundtrip(const void *data, size_t size)
{
    proto_test_echo_rep_t one, two;
    if (proto_test_echo_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_test_echo_rep_encode(&one);
    proto_test_echo_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_test_echo_rep_encode(&two);
    char *text_one = proto_test_echo_rep_print(&one);
    char *text_two = proto_test_echo_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_test_echo_rep_clear(&one);
    proto_test_echo_rep_clear(&two);
    return rc;
}

static int
s_test_slow_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_test_slow_req_t msg;
    int rc = proto_test_slow_req_decode(&msg, data, size, err);
    proto_test_slow_req_clear(&msg);
    return rc;
}

static char *
s_test_slow_req_print(const void *data, size_t size)
{
    proto_test_slow_req_t msg;
    char *text = NULL;
    if (proto_test_slow_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_test_slow_req_print(&msg);
    proto_test_slow_req_clear(&msg);
    return text;
}

static int
s_test_slow_req_roundtrip(const void *data, size_t size)
{
    proto_test_slow_req_t one, two;
    if (proto_test_slow_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_test_slow_req_encode(&one);
    proto_test_slow_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_test_slow_req_encode(&two);
    char *text_one = proto_test_slow_req_print(&one);
    char *text_two = proto_test_slow_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_test_slow_req_clear(&one);
    proto_test_slow_req_clear(&two);
    return rc;
}

static int
s_test_slow_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_test_slow_rep_t msg;
    int rc = proto_test_slow_rep_decode(&msg, data, size, err);
    proto_test_slow_rep_clear(&msg);
    return rc;
}

static char *
s_test_slow_rep_print(const void *data, size_t size)
{
    proto_test_slow_rep_t msg;
    char *text = NULL;
    if (proto_test_slow_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_test_slow_rep_print(&msg);
    proto_test_slow_rep_clear(&msg);
    return text;
}

static int
s_test_slow_rep_roundtrip(const void *data, size_t size)
{
    proto_test_slow_rep_t one, two;
    if (proto_test_slow_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_test_slow_rep_encode(&one);
    proto_test_slow_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_test_slow_rep_encode(&two);
    char *text_one = proto_test_slow_rep_print(&one);
    char *text_two = proto_test_slow_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_test_slow_rep_clear(&one);
    proto_test_slow_rep_clear(&two);
    return rc;
}

static int
s_wsproxy_close_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_wsproxy_close_req_t msg;
    int rc = proto_wsproxy_close_req_decode(&msg, data, size, err);
    proto_wsproxy_close_req_clear(&msg);
    return rc;
}

static char *
s_wsproxy_close_req_print(const void *data, size_t size)
{
    proto_wsproxy_close_req_t msg;
    char *text = NULL;
    if (proto_wsproxy_close_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_wsproxy_close_req_print(&msg);
    proto_wsproxy_close_req_clear(&msg);
    return text;
}

static int
s_wsproxy_close_req_roundtrip(const void *data, size_t size)
{
    proto_wsproxy_close_req_t one, two;
    if (proto_wsproxy_close_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_wsproxy_close_req_encode(&one);
    proto_wsproxy_close_req_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_wsproxy_close_req_encode(&two);
    char *text_one = proto_wsproxy_close_req_print(&one);
    char *text_two = proto_wsproxy_close_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_wsproxy_close_req_clear(&one);
    proto_wsproxy_close_req_clear(&two);
    return rc;
}

static int
s_wsproxy_close_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_wsproxy_close_rep_t msg;
    int rc = proto_wsproxy_close_rep_decode(&msg, data, size, err);
    proto_wsproxy_close_rep_clear(&msg);
    return rc;
}

static char *
s_wsproxy_close_rep_print(const void *data, size_t size)
{
    proto_wsproxy_close_rep_t msg;
    char *text = NULL;
    if (proto_wsproxy_close_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_wsproxy_close_rep_print(&msg);
    proto_wsproxy_close_rep_clear(&msg);
    return text;
}

static int
s_wsproxy_close_rep_roundtrip(const void *data, size_t size)
{
    proto_wsproxy_close_rep_t one, two;
    if (proto_wsproxy_close_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_wsproxy_close_rep_encode(&one);
    proto_wsproxy_close_rep_decode(&two, s_frame_data(first), s_frame_size(first), NULL);
    zframe_t *second = proto_wsproxy_close_rep_encode(&two);
    char *text_one = proto_wsproxy_close_rep_print(&one);
    char *text_two = proto_wsproxy_close_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_wsproxy_close_rep_clear(&one);
    proto_wsproxy_close_rep_clear(&two);
    return rc;
}

static int
s_wsproxy_endpoint_set_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_wsproxy_endpoint_set_req_t msg;
    int rc = proto_wsproxy_endpoint_set_req_decode(&msg, data, size, err);
    proto_wsproxy_endpoint_set_req_clear(&msg);
    return rc;
}

static char *
s_wsproxy_endpoint_set_req_print(const void *data, size_t size)
{
    proto_wsproxy_endpoint_set_req_t msg;
    char *text = NULL;
    if (proto_wsproxy_endpoint_set_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_wsproxy_endpoint_set_req_print(&msg);
    proto_wsproxy_endpoint_set_req_clear(&msg);
    return text;
}

static int
s_wsproxy_endpoint_set_req_roundtrip(const void *data, size_t size)
{
    proto_wsproxy_endpoint_set_req_t one, two;
    if (proto_wsproxy_endpoint_set_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_wsproxy_endpoint_set_req_encode(&one);
    proto_wsproxy_endpoint_set_req_decode(&two, s_frame_data(first), s_frame_size(first),
                                          NULL);
    zframe_t *second = proto_wsproxy_endpoint_set_req_encode(&two);
    char *text_one = proto_wsproxy_endpoint_set_req_print(&one);
    char *text_two = proto_wsproxy_endpoint_set_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_wsproxy_endpoint_set_req_clear(&one);
    proto_wsproxy_endpoint_set_req_clear(&two);
    return rc;
}

static int
s_wsproxy_endpoint_set_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_wsproxy_endpoint_set_rep_t msg;
    int rc = proto_wsproxy_endpoint_set_rep_decode(&msg, data, size, err);
    proto_wsproxy_endpoint_set_rep_clear(&msg);
    return rc;
}

static char *
s_wsproxy_endpoint_set_rep_print(const void *data, size_t size)
{
    proto_wsproxy_endpoint_set_rep_t msg;
    char *text = NULL;
    if (proto_wsproxy_endpoint_set_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_wsproxy_endpoint_set_rep_print(&msg);
    proto_wsproxy_endpoint_set_rep_clear(&msg);
    return text;
}

static int
s_wsproxy_endpoint_set_rep_roundtrip(const void *data, size_t size)
{
    proto_wsproxy_endpoint_set_rep_t one, two;
    if (proto_wsproxy_endpoint_set_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_wsproxy_endpoint_set_rep_encode(&one);
    proto_wsproxy_endpoint_set_rep_decode(&two, s_frame_data(first), s_frame_size(first),
                                          NULL);
    zframe_t *second = proto_wsproxy_endpoint_set_rep_encode(&two);
    char *text_one = proto_wsproxy_endpoint_set_rep_print(&one);
    char *text_two = proto_wsproxy_endpoint_set_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_wsproxy_endpoint_set_rep_clear(&one);
    proto_wsproxy_endpoint_set_rep_clear(&two);
    return rc;
}

static int
s_wsproxy_endpoint_remove_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_wsproxy_endpoint_remove_req_t msg;
    int rc = proto_wsproxy_endpoint_remove_req_decode(&msg, data, size, err);
    proto_wsproxy_endpoint_remove_req_clear(&msg);
    return rc;
}

static char *
s_wsproxy_endpoint_remove_req_print(const void *data, size_t size)
{
    proto_wsproxy_endpoint_remove_req_t msg;
    char *text = NULL;
    if (proto_wsproxy_endpoint_remove_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_wsproxy_endpoint_remove_req_print(&msg);
    proto_wsproxy_endpoint_remove_req_clear(&msg);
    return text;
}

static int
s_wsproxy_endpoint_remove_req_roundtrip(const void *data, size_t size)
{
    proto_wsproxy_endpoint_remove_req_t one, two;
    if (proto_wsproxy_endpoint_remove_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_wsproxy_endpoint_remove_req_encode(&one);
    proto_wsproxy_endpoint_remove_req_decode(&two, s_frame_data(first),
                                             s_frame_size(first), NULL);
    zframe_t *second = proto_wsproxy_endpoint_remove_req_encode(&two);
    char *text_one = proto_wsproxy_endpoint_remove_req_print(&one);
    char *text_two = proto_wsproxy_endpoint_remove_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_wsproxy_endpoint_remove_req_clear(&one);
    proto_wsproxy_endpoint_remove_req_clear(&two);
    return rc;
}

static int
s_wsproxy_endpoint_remove_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_wsproxy_endpoint_remove_rep_t msg;
    int rc = proto_wsproxy_endpoint_remove_rep_decode(&msg, data, size, err);
    proto_wsproxy_endpoint_remove_rep_clear(&msg);
    return rc;
}

static char *
s_wsproxy_endpoint_remove_rep_print(const void *data, size_t size)
{
    proto_wsproxy_endpoint_remove_rep_t msg;
    char *text = NULL;
    if (proto_wsproxy_endpoint_remove_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_wsproxy_endpoint_remove_rep_print(&msg);
    proto_wsproxy_endpoint_remove_rep_clear(&msg);
    return text;
}

static int
s_wsproxy_endpoint_remove_rep_roundtrip(const void *data, size_t size)
{
    proto_wsproxy_endpoint_remove_rep_t one, two;
    if (proto_wsproxy_endpoint_remove_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_wsproxy_endpoint_remove_rep_encode(&one);
    proto_wsproxy_endpoint_remove_rep_decode(&two, s_frame_data(first),
                                             s_frame_size(first), NULL);
    zframe_t *second = proto_wsproxy_endpoint_remove_rep_encode(&two);
    char *text_one = proto_wsproxy_endpoint_remove_rep_print(&one);
    char *text_two = proto_wsproxy_endpoint_remove_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_wsproxy_endpoint_remove_rep_clear(&one);
    proto_wsproxy_endpoint_remove_rep_clear(&two);
    return rc;
}

static int
s_wsproxy_endpoint_requests_req_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_wsproxy_endpoint_requests_req_t msg;
    int rc = proto_wsproxy_endpoint_requests_req_decode(&msg, data, size, err);
    proto_wsproxy_endpoint_requests_req_clear(&msg);
    return rc;
}

static char *
s_wsproxy_endpoint_requests_req_print(const void *data, size_t size)
{
    proto_wsproxy_endpoint_requests_req_t msg;
    char *text = NULL;
    if (proto_wsproxy_endpoint_requests_req_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_wsproxy_endpoint_requests_req_print(&msg);
    proto_wsproxy_endpoint_requests_req_clear(&msg);
    return text;
}

static int
s_wsproxy_endpoint_requests_req_roundtrip(const void *data, size_t size)
{
    proto_wsproxy_endpoint_requests_req_t one, two;
    if (proto_wsproxy_endpoint_requests_req_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_wsproxy_endpoint_requests_req_encode(&one);
    proto_wsproxy_endpoint_requests_req_decode(&two, s_frame_data(first),
                                               s_frame_size(first), NULL);
    zframe_t *second = proto_wsproxy_endpoint_requests_req_encode(&two);
    char *text_one = proto_wsproxy_endpoint_requests_req_print(&one);
    char *text_two = proto_wsproxy_endpoint_requests_req_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_wsproxy_endpoint_requests_req_clear(&one);
    proto_wsproxy_endpoint_requests_req_clear(&two);
    return rc;
}

static int
s_wsproxy_endpoint_requests_rep_validate(const void *data, size_t size, bus_error_t *err)
{
    proto_wsproxy_endpoint_requests_rep_t msg;
    int rc = proto_wsproxy_endpoint_requests_rep_decode(&msg, data, size, err);
    proto_wsproxy_endpoint_requests_rep_clear(&msg);
    return rc;
}

static char *
s_wsproxy_endpoint_requests_rep_print(const void *data, size_t size)
{
    proto_wsproxy_endpoint_requests_rep_t msg;
    char *text = NULL;
    if (proto_wsproxy_endpoint_requests_rep_decode(&msg, data, size, NULL) == BUS_OK)
        text = proto_wsproxy_endpoint_requests_rep_print(&msg);
    proto_wsproxy_endpoint_requests_rep_clear(&msg);
    return text;
}

static int
s_wsproxy_endpoint_requests_rep_roundtrip(const void *data, size_t size)
{
    proto_wsproxy_endpoint_requests_rep_t one, two;
    if (proto_wsproxy_endpoint_requests_rep_decode(&one, data, size, NULL) != BUS_OK)
        return 0;
    zframe_t *first = proto_wsproxy_endpoint_requests_rep_encode(&one);
    proto_wsproxy_endpoint_requests_rep_decode(&two, s_frame_data(first),
                                               s_frame_size(first), NULL);
    zframe_t *second = proto_wsproxy_endpoint_requests_rep_encode(&two);
    char *text_one = proto_wsproxy_endpoint_requests_rep_print(&one);
    char *text_two = proto_wsproxy_endpoint_requests_rep_print(&two);
    int rc = s_same(text_one, text_two, &first, &second);
    proto_wsproxy_endpoint_requests_rep_clear(&one);
    proto_wsproxy_endpoint_requests_rep_clear(&two);
    return rc;
}

//  ---------------------------------------------------------------------------
//  The table, in schema order: proto/*.yaml sorted, events then methods.

const proto_entry_t proto_entries[] = {
    {
        .name = "accounting.usage",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_accounting_usage_req_validate,
        .print = s_accounting_usage_req_print,
        .roundtrip = s_accounting_usage_req_roundtrip,
    },
    {
        .name = "accounting.usage",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_accounting_usage_rep_validate,
        .print = s_accounting_usage_rep_print,
        .roundtrip = s_accounting_usage_rep_roundtrip,
    },
    {
        .name = "accounting.stats_user",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_accounting_stats_user_req_validate,
        .print = s_accounting_stats_user_req_print,
        .roundtrip = s_accounting_stats_user_req_roundtrip,
    },
    {
        .name = "accounting.stats_user",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_accounting_stats_user_rep_validate,
        .print = s_accounting_stats_user_rep_print,
        .roundtrip = s_accounting_stats_user_rep_roundtrip,
    },
    {
        .name = "accounting.stats_all",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_accounting_stats_all_req_validate,
        .print = s_accounting_stats_all_req_print,
        .roundtrip = s_accounting_stats_all_req_roundtrip,
    },
    {
        .name = "accounting.stats_all",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_accounting_stats_all_rep_validate,
        .print = s_accounting_stats_all_rep_print,
        .roundtrip = s_accounting_stats_all_rep_roundtrip,
    },
    {
        .name = "accounting.recalculate",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_accounting_recalculate_req_validate,
        .print = s_accounting_recalculate_req_print,
        .roundtrip = s_accounting_recalculate_req_roundtrip,
    },
    {
        .name = "accounting.recalculate",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_accounting_recalculate_rep_validate,
        .print = s_accounting_recalculate_rep_print,
        .roundtrip = s_accounting_recalculate_rep_roundtrip,
    },
    {
        .name = "accounting.live",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_accounting_live_req_validate,
        .print = s_accounting_live_req_print,
        .roundtrip = s_accounting_live_req_roundtrip,
    },
    {
        .name = "accounting.live",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_accounting_live_rep_validate,
        .print = s_accounting_live_rep_print,
        .roundtrip = s_accounting_live_rep_roundtrip,
    },
    {
        .name = "agent.heartbeat",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .validate = s_agent_heartbeat_validate,
        .print = s_agent_heartbeat_print,
        .roundtrip = s_agent_heartbeat_roundtrip,
    },
    {
        .name = "agent.stats",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .validate = s_agent_stats_validate,
        .print = s_agent_stats_print,
        .roundtrip = s_agent_stats_roundtrip,
    },
    {
        .name = "bus.replay",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_bus_replay_req_validate,
        .print = s_bus_replay_req_print,
        .roundtrip = s_bus_replay_req_roundtrip,
    },
    {
        .name = "bus.replay",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_bus_replay_rep_validate,
        .print = s_bus_replay_rep_print,
        .roundtrip = s_bus_replay_rep_roundtrip,
    },
    {
        .name = "gateway.access",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .durable = true,
        .validate = s_gateway_access_validate,
        .print = s_gateway_access_print,
        .roundtrip = s_gateway_access_roundtrip,
    },
    {
        .name = "image.catalog",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .durable = true,
        .validate = s_image_catalog_validate,
        .print = s_image_catalog_print,
        .roundtrip = s_image_catalog_roundtrip,
    },
    {
        .name = "image.rescan",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_image_rescan_req_validate,
        .print = s_image_rescan_req_print,
        .roundtrip = s_image_rescan_req_roundtrip,
    },
    {
        .name = "image.rescan",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_image_rescan_rep_validate,
        .print = s_image_rescan_rep_print,
        .roundtrip = s_image_rescan_rep_roundtrip,
    },
    {
        .name = "kernel.started",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .durable = true,
        .validate = s_kernel_started_validate,
        .print = s_kernel_started_print,
        .roundtrip = s_kernel_started_roundtrip,
    },
    {
        .name = "kernel.terminated",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .durable = true,
        .validate = s_kernel_terminated_validate,
        .print = s_kernel_terminated_print,
        .roundtrip = s_kernel_terminated_roundtrip,
    },
    {
        .name = "kernel.app_started",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .validate = s_kernel_app_started_validate,
        .print = s_kernel_app_started_print,
        .roundtrip = s_kernel_app_started_roundtrip,
    },
    {
        .name = "kernel.app_failed",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .validate = s_kernel_app_failed_validate,
        .print = s_kernel_app_failed_print,
        .roundtrip = s_kernel_app_failed_roundtrip,
    },
    {
        .name = "kernel.model_status",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .validate = s_kernel_model_status_validate,
        .print = s_kernel_model_status_print,
        .roundtrip = s_kernel_model_status_roundtrip,
    },
    {
        .name = "kernel.stats",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .validate = s_kernel_stats_validate,
        .print = s_kernel_stats_print,
        .roundtrip = s_kernel_stats_roundtrip,
    },
    {
        .name = "kernel.create",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_kernel_create_req_validate,
        .print = s_kernel_create_req_print,
        .roundtrip = s_kernel_create_req_roundtrip,
    },
    {
        .name = "kernel.create",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_kernel_create_rep_validate,
        .print = s_kernel_create_rep_print,
        .roundtrip = s_kernel_create_rep_roundtrip,
    },
    {
        .name = "kernel.hosts",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_kernel_hosts_req_validate,
        .print = s_kernel_hosts_req_print,
        .roundtrip = s_kernel_hosts_req_roundtrip,
    },
    {
        .name = "kernel.hosts",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_kernel_hosts_rep_validate,
        .print = s_kernel_hosts_rep_print,
        .roundtrip = s_kernel_hosts_rep_roundtrip,
    },
    {
        .name = "kernel.destroy",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_kernel_destroy_req_validate,
        .print = s_kernel_destroy_req_print,
        .roundtrip = s_kernel_destroy_req_roundtrip,
    },
    {
        .name = "kernel.destroy",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_kernel_destroy_rep_validate,
        .print = s_kernel_destroy_rep_print,
        .roundtrip = s_kernel_destroy_rep_roundtrip,
    },
    {
        .name = "kernel.restart",
        .kind = PROTO_REQUEST,
        .validate = s_kernel_restart_req_validate,
        .print = s_kernel_restart_req_print,
        .roundtrip = s_kernel_restart_req_roundtrip,
    },
    {
        .name = "kernel.restart",
        .kind = PROTO_REPLY,
        .validate = s_kernel_restart_rep_validate,
        .print = s_kernel_restart_rep_print,
        .roundtrip = s_kernel_restart_rep_roundtrip,
    },
    {
        .name = "kernel.execute",
        .kind = PROTO_REQUEST,
        .validate = s_kernel_execute_req_validate,
        .print = s_kernel_execute_req_print,
        .roundtrip = s_kernel_execute_req_roundtrip,
    },
    {
        .name = "kernel.execute",
        .kind = PROTO_REPLY,
        .validate = s_kernel_execute_rep_validate,
        .print = s_kernel_execute_rep_print,
        .roundtrip = s_kernel_execute_rep_roundtrip,
    },
    {
        .name = "kernel.interrupt",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_kernel_interrupt_req_validate,
        .print = s_kernel_interrupt_req_print,
        .roundtrip = s_kernel_interrupt_req_roundtrip,
    },
    {
        .name = "kernel.interrupt",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_kernel_interrupt_rep_validate,
        .print = s_kernel_interrupt_rep_print,
        .roundtrip = s_kernel_interrupt_rep_roundtrip,
    },
    {
        .name = "kernel.logs",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_kernel_logs_req_validate,
        .print = s_kernel_logs_req_print,
        .roundtrip = s_kernel_logs_req_roundtrip,
    },
    {
        .name = "kernel.logs",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_kernel_logs_rep_validate,
        .print = s_kernel_logs_rep_print,
        .roundtrip = s_kernel_logs_rep_roundtrip,
    },
    {
        .name = "kernel.list",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_kernel_list_req_validate,
        .print = s_kernel_list_req_print,
        .roundtrip = s_kernel_list_req_roundtrip,
    },
    {
        .name = "kernel.list",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_kernel_list_rep_validate,
        .print = s_kernel_list_rep_print,
        .roundtrip = s_kernel_list_rep_roundtrip,
    },
    {
        .name = "kernel.upload",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_kernel_upload_req_validate,
        .print = s_kernel_upload_req_print,
        .roundtrip = s_kernel_upload_req_roundtrip,
    },
    {
        .name = "kernel.upload",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_kernel_upload_rep_validate,
        .print = s_kernel_upload_rep_print,
        .roundtrip = s_kernel_upload_rep_roundtrip,
    },
    {
        .name = "kernel.download",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_kernel_download_req_validate,
        .print = s_kernel_download_req_print,
        .roundtrip = s_kernel_download_req_roundtrip,
    },
    {
        .name = "kernel.download",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_kernel_download_rep_validate,
        .print = s_kernel_download_rep_print,
        .roundtrip = s_kernel_download_rep_roundtrip,
    },
    {
        .name = "kernel.download_single",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_kernel_download_single_req_validate,
        .print = s_kernel_download_single_req_print,
        .roundtrip = s_kernel_download_single_req_roundtrip,
    },
    {
        .name = "kernel.download_single",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_kernel_download_single_rep_validate,
        .print = s_kernel_download_single_rep_print,
        .roundtrip = s_kernel_download_single_rep_roundtrip,
    },
    {
        .name = "kernel.list_files",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_kernel_list_files_req_validate,
        .print = s_kernel_list_files_req_print,
        .roundtrip = s_kernel_list_files_req_roundtrip,
    },
    {
        .name = "kernel.list_files",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_kernel_list_files_rep_validate,
        .print = s_kernel_list_files_rep_print,
        .roundtrip = s_kernel_list_files_rep_roundtrip,
    },
    {
        .name = "kernel.pty_write",
        .kind = PROTO_REQUEST,
        .validate = s_kernel_pty_write_req_validate,
        .print = s_kernel_pty_write_req_print,
        .roundtrip = s_kernel_pty_write_req_roundtrip,
    },
    {
        .name = "kernel.pty_write",
        .kind = PROTO_REPLY,
        .validate = s_kernel_pty_write_rep_validate,
        .print = s_kernel_pty_write_rep_print,
        .roundtrip = s_kernel_pty_write_rep_roundtrip,
    },
    {
        .name = "kernel.pty_read",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_kernel_pty_read_req_validate,
        .print = s_kernel_pty_read_req_print,
        .roundtrip = s_kernel_pty_read_req_roundtrip,
    },
    {
        .name = "kernel.pty_read",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_kernel_pty_read_rep_validate,
        .print = s_kernel_pty_read_rep_print,
        .roundtrip = s_kernel_pty_read_rep_roundtrip,
    },
    {
        .name = "kernel.start_service",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_kernel_start_service_req_validate,
        .print = s_kernel_start_service_req_print,
        .roundtrip = s_kernel_start_service_req_roundtrip,
    },
    {
        .name = "kernel.start_service",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_kernel_start_service_rep_validate,
        .print = s_kernel_start_service_rep_print,
        .roundtrip = s_kernel_start_service_rep_roundtrip,
    },
    {
        .name = "policy.changed",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .durable = true,
        .validate = s_policy_changed_validate,
        .print = s_policy_changed_print,
        .roundtrip = s_policy_changed_roundtrip,
    },
    {
        .name = "policy.scaling_group",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .durable = true,
        .validate = s_policy_scaling_group_validate,
        .print = s_policy_scaling_group_print,
        .roundtrip = s_policy_scaling_group_roundtrip,
    },
    {
        .name = "registry.register",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_registry_register_req_validate,
        .print = s_registry_register_req_print,
        .roundtrip = s_registry_register_req_roundtrip,
    },
    {
        .name = "registry.register",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_registry_register_rep_validate,
        .print = s_registry_register_rep_print,
        .roundtrip = s_registry_register_rep_roundtrip,
    },
    {
        .name = "registry.heartbeat",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_registry_heartbeat_req_validate,
        .print = s_registry_heartbeat_req_print,
        .roundtrip = s_registry_heartbeat_req_roundtrip,
    },
    {
        .name = "registry.heartbeat",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_registry_heartbeat_rep_validate,
        .print = s_registry_heartbeat_rep_print,
        .roundtrip = s_registry_heartbeat_rep_roundtrip,
    },
    {
        .name = "registry.unregister",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_registry_unregister_req_validate,
        .print = s_registry_unregister_req_print,
        .roundtrip = s_registry_unregister_req_roundtrip,
    },
    {
        .name = "registry.unregister",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_registry_unregister_rep_validate,
        .print = s_registry_unregister_rep_print,
        .roundtrip = s_registry_unregister_rep_roundtrip,
    },
    {
        .name = "registry.peers",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_registry_peers_req_validate,
        .print = s_registry_peers_req_print,
        .roundtrip = s_registry_peers_req_roundtrip,
    },
    {
        .name = "registry.peers",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_registry_peers_rep_validate,
        .print = s_registry_peers_rep_print,
        .roundtrip = s_registry_peers_rep_roundtrip,
    },
    {
        .name = "scheduler.agents",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_scheduler_agents_req_validate,
        .print = s_scheduler_agents_req_print,
        .roundtrip = s_scheduler_agents_req_roundtrip,
    },
    {
        .name = "scheduler.agents",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_scheduler_agents_rep_validate,
        .print = s_scheduler_agents_rep_print,
        .roundtrip = s_scheduler_agents_rep_roundtrip,
    },
    {
        .name = "scheduler.usage",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_scheduler_usage_req_validate,
        .print = s_scheduler_usage_req_print,
        .roundtrip = s_scheduler_usage_req_roundtrip,
    },
    {
        .name = "scheduler.usage",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_scheduler_usage_rep_validate,
        .print = s_scheduler_usage_rep_print,
        .roundtrip = s_scheduler_usage_rep_roundtrip,
    },
    {
        .name = "scheduler.invariant",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_scheduler_invariant_req_validate,
        .print = s_scheduler_invariant_req_print,
        .roundtrip = s_scheduler_invariant_req_roundtrip,
    },
    {
        .name = "scheduler.invariant",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_scheduler_invariant_rep_validate,
        .print = s_scheduler_invariant_rep_print,
        .roundtrip = s_scheduler_invariant_rep_roundtrip,
    },
    {
        .name = "scheduler.recalculate",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_scheduler_recalculate_req_validate,
        .print = s_scheduler_recalculate_req_print,
        .roundtrip = s_scheduler_recalculate_req_roundtrip,
    },
    {
        .name = "scheduler.recalculate",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_scheduler_recalculate_rep_validate,
        .print = s_scheduler_recalculate_rep_print,
        .roundtrip = s_scheduler_recalculate_rep_roundtrip,
    },
    {
        .name = "scheduler.schedulable",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_scheduler_schedulable_req_validate,
        .print = s_scheduler_schedulable_req_print,
        .roundtrip = s_scheduler_schedulable_req_roundtrip,
    },
    {
        .name = "scheduler.schedulable",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_scheduler_schedulable_rep_validate,
        .print = s_scheduler_schedulable_rep_print,
        .roundtrip = s_scheduler_schedulable_rep_roundtrip,
    },
    {
        .name = "scheduler.concurrency",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_scheduler_concurrency_req_validate,
        .print = s_scheduler_concurrency_req_print,
        .roundtrip = s_scheduler_concurrency_req_roundtrip,
    },
    {
        .name = "scheduler.concurrency",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_scheduler_concurrency_rep_validate,
        .print = s_scheduler_concurrency_rep_print,
        .roundtrip = s_scheduler_concurrency_rep_roundtrip,
    },
    {
        .name = "service.started",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .validate = s_service_started_validate,
        .print = s_service_started_print,
        .roundtrip = s_service_started_roundtrip,
    },
    {
        .name = "service.stopping",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .validate = s_service_stopping_validate,
        .print = s_service_stopping_print,
        .roundtrip = s_service_stopping_roundtrip,
    },
    {
        .name = "service.expired",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .validate = s_service_expired_validate,
        .print = s_service_expired_print,
        .roundtrip = s_service_expired_roundtrip,
    },
    {
        .name = "service.health",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_service_health_req_validate,
        .print = s_service_health_req_print,
        .roundtrip = s_service_health_req_roundtrip,
    },
    {
        .name = "service.health",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_service_health_rep_validate,
        .print = s_service_health_rep_print,
        .roundtrip = s_service_health_rep_roundtrip,
    },
    {
        .name = "session.activity",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .validate = s_session_activity_validate,
        .print = s_session_activity_print,
        .roundtrip = s_session_activity_roundtrip,
    },
    {
        .name = "session.lifecycle",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .durable = true,
        .validate = s_session_lifecycle_validate,
        .print = s_session_lifecycle_print,
        .roundtrip = s_session_lifecycle_roundtrip,
    },
    {
        .name = "session.create",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_session_create_req_validate,
        .print = s_session_create_req_print,
        .roundtrip = s_session_create_req_roundtrip,
    },
    {
        .name = "session.create",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_session_create_rep_validate,
        .print = s_session_create_rep_print,
        .roundtrip = s_session_create_rep_roundtrip,
    },
    {
        .name = "session.destroy",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_session_destroy_req_validate,
        .print = s_session_destroy_req_print,
        .roundtrip = s_session_destroy_req_roundtrip,
    },
    {
        .name = "session.destroy",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_session_destroy_rep_validate,
        .print = s_session_destroy_rep_print,
        .roundtrip = s_session_destroy_rep_roundtrip,
    },
    {
        .name = "session.get",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_session_get_req_validate,
        .print = s_session_get_req_print,
        .roundtrip = s_session_get_req_roundtrip,
    },
    {
        .name = "session.get",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_session_get_rep_validate,
        .print = s_session_get_rep_print,
        .roundtrip = s_session_get_rep_roundtrip,
    },
    {
        .name = "session.rename",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_session_rename_req_validate,
        .print = s_session_rename_req_print,
        .roundtrip = s_session_rename_req_roundtrip,
    },
    {
        .name = "session.rename",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_session_rename_rep_validate,
        .print = s_session_rename_rep_print,
        .roundtrip = s_session_rename_rep_roundtrip,
    },
    {
        .name = "session.restart",
        .kind = PROTO_REQUEST,
        .validate = s_session_restart_req_validate,
        .print = s_session_restart_req_print,
        .roundtrip = s_session_restart_req_roundtrip,
    },
    {
        .name = "session.restart",
        .kind = PROTO_REPLY,
        .validate = s_session_restart_rep_validate,
        .print = s_session_restart_rep_print,
        .roundtrip = s_session_restart_rep_roundtrip,
    },
    {
        .name = "session.list",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_session_list_req_validate,
        .print = s_session_list_req_print,
        .roundtrip = s_session_list_req_roundtrip,
    },
    {
        .name = "session.list",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_session_list_rep_validate,
        .print = s_session_list_rep_print,
        .roundtrip = s_session_list_rep_roundtrip,
    },
    {
        .name = "storage.volumes",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_storage_volumes_req_validate,
        .print = s_storage_volumes_req_print,
        .roundtrip = s_storage_volumes_req_roundtrip,
    },
    {
        .name = "storage.volumes",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_storage_volumes_rep_validate,
        .print = s_storage_volumes_rep_print,
        .roundtrip = s_storage_volumes_rep_roundtrip,
    },
    {
        .name = "storage.folder.create",
        .kind = PROTO_REQUEST,
        .validate = s_storage_folder_create_req_validate,
        .print = s_storage_folder_create_req_print,
        .roundtrip = s_storage_folder_create_req_roundtrip,
    },
    {
        .name = "storage.folder.create",
        .kind = PROTO_REPLY,
        .validate = s_storage_folder_create_rep_validate,
        .print = s_storage_folder_create_rep_print,
        .roundtrip = s_storage_folder_create_rep_roundtrip,
    },
    {
        .name = "storage.folder.delete",
        .kind = PROTO_REQUEST,
        .validate = s_storage_folder_delete_req_validate,
        .print = s_storage_folder_delete_req_print,
        .roundtrip = s_storage_folder_delete_req_roundtrip,
    },
    {
        .name = "storage.folder.delete",
        .kind = PROTO_REPLY,
        .validate = s_storage_folder_delete_rep_validate,
        .print = s_storage_folder_delete_rep_print,
        .roundtrip = s_storage_folder_delete_rep_roundtrip,
    },
    {
        .name = "storage.folder.clone",
        .kind = PROTO_REQUEST,
        .validate = s_storage_folder_clone_req_validate,
        .print = s_storage_folder_clone_req_print,
        .roundtrip = s_storage_folder_clone_req_roundtrip,
    },
    {
        .name = "storage.folder.clone",
        .kind = PROTO_REPLY,
        .validate = s_storage_folder_clone_rep_validate,
        .print = s_storage_folder_clone_rep_print,
        .roundtrip = s_storage_folder_clone_rep_roundtrip,
    },
    {
        .name = "storage.folder.usage",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_storage_folder_usage_req_validate,
        .print = s_storage_folder_usage_req_print,
        .roundtrip = s_storage_folder_usage_req_roundtrip,
    },
    {
        .name = "storage.folder.usage",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_storage_folder_usage_rep_validate,
        .print = s_storage_folder_usage_rep_print,
        .roundtrip = s_storage_folder_usage_rep_roundtrip,
    },
    {
        .name = "storage.folder.quota",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_storage_folder_quota_req_validate,
        .print = s_storage_folder_quota_req_print,
        .roundtrip = s_storage_folder_quota_req_roundtrip,
    },
    {
        .name = "storage.folder.quota",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_storage_folder_quota_rep_validate,
        .print = s_storage_folder_quota_rep_print,
        .roundtrip = s_storage_folder_quota_rep_roundtrip,
    },
    {
        .name = "storage.folder.mount_path",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_storage_folder_mount_path_req_validate,
        .print = s_storage_folder_mount_path_req_print,
        .roundtrip = s_storage_folder_mount_path_req_roundtrip,
    },
    {
        .name = "storage.folder.mount_path",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_storage_folder_mount_path_rep_validate,
        .print = s_storage_folder_mount_path_rep_print,
        .roundtrip = s_storage_folder_mount_path_rep_roundtrip,
    },
    {
        .name = "storage.files.list",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_storage_files_list_req_validate,
        .print = s_storage_files_list_req_print,
        .roundtrip = s_storage_files_list_req_roundtrip,
    },
    {
        .name = "storage.files.list",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_storage_files_list_rep_validate,
        .print = s_storage_files_list_rep_print,
        .roundtrip = s_storage_files_list_rep_roundtrip,
    },
    {
        .name = "storage.files.read",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_storage_files_read_req_validate,
        .print = s_storage_files_read_req_print,
        .roundtrip = s_storage_files_read_req_roundtrip,
    },
    {
        .name = "storage.files.read",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_storage_files_read_rep_validate,
        .print = s_storage_files_read_rep_print,
        .roundtrip = s_storage_files_read_rep_roundtrip,
    },
    {
        .name = "storage.files.mkdir",
        .kind = PROTO_REQUEST,
        .validate = s_storage_files_mkdir_req_validate,
        .print = s_storage_files_mkdir_req_print,
        .roundtrip = s_storage_files_mkdir_req_roundtrip,
    },
    {
        .name = "storage.files.mkdir",
        .kind = PROTO_REPLY,
        .validate = s_storage_files_mkdir_rep_validate,
        .print = s_storage_files_mkdir_rep_print,
        .roundtrip = s_storage_files_mkdir_rep_roundtrip,
    },
    {
        .name = "storage.files.rename",
        .kind = PROTO_REQUEST,
        .validate = s_storage_files_rename_req_validate,
        .print = s_storage_files_rename_req_print,
        .roundtrip = s_storage_files_rename_req_roundtrip,
    },
    {
        .name = "storage.files.rename",
        .kind = PROTO_REPLY,
        .validate = s_storage_files_rename_rep_validate,
        .print = s_storage_files_rename_rep_print,
        .roundtrip = s_storage_files_rename_rep_roundtrip,
    },
    {
        .name = "storage.files.move",
        .kind = PROTO_REQUEST,
        .validate = s_storage_files_move_req_validate,
        .print = s_storage_files_move_req_print,
        .roundtrip = s_storage_files_move_req_roundtrip,
    },
    {
        .name = "storage.files.move",
        .kind = PROTO_REPLY,
        .validate = s_storage_files_move_rep_validate,
        .print = s_storage_files_move_rep_print,
        .roundtrip = s_storage_files_move_rep_roundtrip,
    },
    {
        .name = "storage.files.delete",
        .kind = PROTO_REQUEST,
        .validate = s_storage_files_delete_req_validate,
        .print = s_storage_files_delete_req_print,
        .roundtrip = s_storage_files_delete_req_roundtrip,
    },
    {
        .name = "storage.files.delete",
        .kind = PROTO_REPLY,
        .validate = s_storage_files_delete_rep_validate,
        .print = s_storage_files_delete_rep_print,
        .roundtrip = s_storage_files_delete_rep_roundtrip,
    },
    {
        .name = "storage.files.fetch",
        .kind = PROTO_REQUEST,
        .validate = s_storage_files_fetch_req_validate,
        .print = s_storage_files_fetch_req_print,
        .roundtrip = s_storage_files_fetch_req_roundtrip,
    },
    {
        .name = "storage.files.fetch",
        .kind = PROTO_REPLY,
        .validate = s_storage_files_fetch_rep_validate,
        .print = s_storage_files_fetch_rep_print,
        .roundtrip = s_storage_files_fetch_rep_roundtrip,
    },
    {
        .name = "storage.files.fetch_status",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_storage_files_fetch_status_req_validate,
        .print = s_storage_files_fetch_status_req_print,
        .roundtrip = s_storage_files_fetch_status_req_roundtrip,
    },
    {
        .name = "storage.files.fetch_status",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_storage_files_fetch_status_rep_validate,
        .print = s_storage_files_fetch_status_rep_print,
        .roundtrip = s_storage_files_fetch_status_rep_roundtrip,
    },
    {
        .name = "test.tick",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .durable = true,
        .validate = s_test_tick_validate,
        .print = s_test_tick_print,
        .roundtrip = s_test_tick_roundtrip,
    },
    {
        .name = "test.note",
        .kind = PROTO_EVENT,
        .broadcast = true,
        .validate = s_test_note_validate,
        .print = s_test_note_print,
        .roundtrip = s_test_note_roundtrip,
    },
    {
        .name = "test.echo",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_test_echo_req_validate,
        .print = s_test_echo_req_print,
        .roundtrip = s_test_echo_req_roundtrip,
    },
    {
        .name = "test.echo",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_test_echo_rep_validate,
        .print = s_test_echo_rep_print,
        .roundtrip = s_test_echo_rep_roundtrip,
    },
    {
        .name = "test.slow",
        .kind = PROTO_REQUEST,
        .validate = s_test_slow_req_validate,
        .print = s_test_slow_req_print,
        .roundtrip = s_test_slow_req_roundtrip,
    },
    {
        .name = "test.slow",
        .kind = PROTO_REPLY,
        .validate = s_test_slow_rep_validate,
        .print = s_test_slow_rep_print,
        .roundtrip = s_test_slow_rep_roundtrip,
    },
    {
        .name = "wsproxy.close",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_wsproxy_close_req_validate,
        .print = s_wsproxy_close_req_print,
        .roundtrip = s_wsproxy_close_req_roundtrip,
    },
    {
        .name = "wsproxy.close",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_wsproxy_close_rep_validate,
        .print = s_wsproxy_close_rep_print,
        .roundtrip = s_wsproxy_close_rep_roundtrip,
    },
    {
        .name = "wsproxy.endpoint.set",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_wsproxy_endpoint_set_req_validate,
        .print = s_wsproxy_endpoint_set_req_print,
        .roundtrip = s_wsproxy_endpoint_set_req_roundtrip,
    },
    {
        .name = "wsproxy.endpoint.set",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_wsproxy_endpoint_set_rep_validate,
        .print = s_wsproxy_endpoint_set_rep_print,
        .roundtrip = s_wsproxy_endpoint_set_rep_roundtrip,
    },
    {
        .name = "wsproxy.endpoint.remove",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_wsproxy_endpoint_remove_req_validate,
        .print = s_wsproxy_endpoint_remove_req_print,
        .roundtrip = s_wsproxy_endpoint_remove_req_roundtrip,
    },
    {
        .name = "wsproxy.endpoint.remove",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_wsproxy_endpoint_remove_rep_validate,
        .print = s_wsproxy_endpoint_remove_rep_print,
        .roundtrip = s_wsproxy_endpoint_remove_rep_roundtrip,
    },
    {
        .name = "wsproxy.endpoint.requests",
        .kind = PROTO_REQUEST,
        .idempotent = true,
        .validate = s_wsproxy_endpoint_requests_req_validate,
        .print = s_wsproxy_endpoint_requests_req_print,
        .roundtrip = s_wsproxy_endpoint_requests_req_roundtrip,
    },
    {
        .name = "wsproxy.endpoint.requests",
        .kind = PROTO_REPLY,
        .idempotent = true,
        .validate = s_wsproxy_endpoint_requests_rep_validate,
        .print = s_wsproxy_endpoint_requests_rep_print,
        .roundtrip = s_wsproxy_endpoint_requests_rep_roundtrip,
    },
};

const size_t proto_entry_count = sizeof proto_entries / sizeof proto_entries[0];
