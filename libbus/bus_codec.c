/*  =========================================================================
    bus_codec - msgpack writer (msgpack-c packer) and a bounded reader

    The reader lays the parsed tree out in one array of nodes. When it meets
    a container of n items it reserves n consecutive slots and fills them
    one by one, so the children of every container are contiguous. A
    declared length larger than the bytes left is rejected before anything is
    reserved, so the node count never exceeds the input size.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <msgpack.h>
#include <pthread.h> //  the thread-local reader's destructor

struct _bus_writer_t {
    msgpack_sbuffer buffer;
    msgpack_packer packer;
};

bus_writer_t *
bus_writer_new(void)
{
    bus_writer_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    msgpack_sbuffer_init(&self->buffer);
    msgpack_packer_init(&self->packer, &self->buffer, msgpack_sbuffer_write);
    return self;
}

void
bus_writer_destroy(bus_writer_t **self_p)
{
    assert(self_p);
    if (*self_p) {
        msgpack_sbuffer_destroy(&(*self_p)->buffer);
        free(*self_p);
        *self_p = NULL;
    }
}

void
bus_writer_reset(bus_writer_t *self)
{
    self->buffer.size = 0;
}

const uint8_t *
bus_writer_data(bus_writer_t *self)
{
    return (const uint8_t *) self->buffer.data;
}

size_t
bus_writer_size(bus_writer_t *self)
{
    return self->buffer.size;
}

zframe_t *
bus_writer_frame(bus_writer_t *self)
{
    return zframe_new(self->buffer.data, self->buffer.size);
}

//  Room for n more bytes at the end of the buffer, which grows as msgpack's
//  sbuffer grows it. NULL when memory runs out: the caller then takes the
//  packer's way, which drops the item as it always did.
static char *
s_room(bus_writer_t *self, size_t n)
{
    msgpack_sbuffer *buffer = &self->buffer;
    if (buffer->alloc - buffer->size < n) {
        size_t want = buffer->alloc ? buffer->alloc * 2 : MSGPACK_SBUFFER_INIT_SIZE;
        while (want < buffer->size + n)
            want *= 2;
        char *data = realloc(buffer->data, want);
        if (!data)
            return NULL;
        buffer->data = data;
        buffer->alloc = want;
    }
    return buffer->data + buffer->size;
}

//  Small maps, short strings and small integers make up every header, so
//  they are written here in one step, in the same bytes msgpack-c chooses
//  (fixmap, fixstr, positive fixint); anything larger goes to the packer.
void
bus_writer_map(bus_writer_t *self, uint32_t pairs)
{
    char *out = pairs < 16 ? s_room(self, 1) : NULL;
    if (out) {
        out[0] = (char) (0x80 | pairs);
        self->buffer.size++;
        return;
    }
    msgpack_pack_map(&self->packer, pairs);
}

void
bus_writer_array(bus_writer_t *self, uint32_t items)
{
    msgpack_pack_array(&self->packer, items);
}

void
bus_writer_nil(bus_writer_t *self)
{
    msgpack_pack_nil(&self->packer);
}

void
bus_writer_bool(bus_writer_t *self, bool value)
{
    if (value)
        msgpack_pack_true(&self->packer);
    else
        msgpack_pack_false(&self->packer);
}

void
bus_writer_int(bus_writer_t *self, int64_t value)
{
    msgpack_pack_int64(&self->packer, value);
}

void
bus_writer_uint(bus_writer_t *self, uint64_t value)
{
    char *out = value < 128 ? s_room(self, 1) : NULL;
    if (out) {
        out[0] = (char) value;
        self->buffer.size++;
        return;
    }
    msgpack_pack_uint64(&self->packer, value);
}

void
bus_writer_double(bus_writer_t *self, double value)
{
    msgpack_pack_double(&self->packer, value);
}

void
bus_writer_str(bus_writer_t *self, const char *value)
{
    bus_writer_strn(self, value ? value : "", value ? strlen(value) : 0);
}

void
bus_writer_strn(bus_writer_t *self, const char *value, size_t len)
{
    char *out = len < 32 ? s_room(self, 1 + len) : NULL;
    if (out) {
        out[0] = (char) (0xa0 | len);
        if (len)
            memcpy(out + 1, value, len);
        self->buffer.size += 1 + len;
        return;
    }
    msgpack_pack_str(&self->packer, len);
    msgpack_pack_str_body(&self->packer, value, len);
}

void
bus_writer_bin(bus_writer_t *self, const void *data, size_t len)
{
    msgpack_pack_bin(&self->packer, len);
    msgpack_pack_bin_body(&self->packer, data, len);
}

//  ---------------------------------------------------------------------------
//  Reader

struct _bus_value_t {
    uint8_t type;   //  bus_value_type_t
    uint32_t count; //  items (array), pairs (map), bytes (str, bin, ext)
    union {
        bool b;
        uint64_t u;
        int64_t i;
        double d;
        const uint8_t *raw;       //  str, bin, ext payload
        size_t first;             //  containers, while parsing: first child slot
        const bus_value_t *items; //  containers, after parsing
    } as;
};

struct _bus_reader_t {
    bus_value_t *nodes;
    size_t used;
    size_t allocated;
    const uint8_t *pos;
    const uint8_t *end;
};

bus_reader_t *
bus_reader_new(void)
{
    return calloc(1, sizeof(bus_reader_t));
}

void
bus_reader_destroy(bus_reader_t **self_p)
{
    assert(self_p);
    if (*self_p) {
        free((*self_p)->nodes);
        free(*self_p);
        *self_p = NULL;
    }
}

//  A thread's local reader keeps at most this many nodes between uses, so a
//  single huge message does not pin its memory for the thread's lifetime.
#define READER_KEEP_NODES 4096

static pthread_key_t s_local_key;
static pthread_once_t s_local_once = PTHREAD_ONCE_INIT;

static void
s_local_free(void *reader)
{
    bus_reader_destroy((bus_reader_t **) &reader);
}

static void
s_local_init(void)
{
    pthread_key_create(&s_local_key, s_local_free);
}

bus_reader_t *
bus_reader_local(void)
{
    pthread_once(&s_local_once, s_local_init);
    bus_reader_t *reader = pthread_getspecific(s_local_key);
    if (!reader) {
        reader = bus_reader_new();
        if (reader && pthread_setspecific(s_local_key, reader) != 0)
            bus_reader_destroy(&reader);
    } else if (reader->allocated > READER_KEEP_NODES) {
        free(reader->nodes);
        reader->nodes = NULL;
        reader->allocated = reader->used = 0;
    }
    return reader;
}

//  Reserves count consecutive nodes; returns the index of the first, or -1.
static ssize_t
s_reserve(bus_reader_t *self, size_t count)
{
    if (self->used + count > self->allocated) {
        size_t want = self->allocated ? self->allocated : 16;
        while (want < self->used + count)
            want *= 2;
        bus_value_t *nodes = realloc(self->nodes, want * sizeof *nodes);
        if (!nodes)
            return -1;
        self->nodes = nodes;
        self->allocated = want;
    }
    ssize_t first = (ssize_t) self->used;
    self->used += count;
    return first;
}

static bool
s_take(bus_reader_t *self, size_t n, const uint8_t **out)
{
    if ((size_t) (self->end - self->pos) < n)
        return false;
    *out = self->pos;
    self->pos += n;
    return true;
}

static uint64_t
s_be(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = (v << 8) | p[i];
    return v;
}

static bool s_parse(bus_reader_t *self, size_t slot, int depth);

static bool
s_parse_container(bus_reader_t *self, size_t slot, int type, uint64_t count, int depth)
{
    //  Every item takes at least one byte: a longer claim is a lie.
    uint64_t items = type == BUS_VALUE_MAP ? count * 2 : count;
    if (items > (uint64_t) (self->end - self->pos) || depth >= BUS_CODEC_MAX_DEPTH)
        return false;
    ssize_t first = s_reserve(self, (size_t) items);
    if (first < 0)
        return false;
    bus_value_t *node = &self->nodes[slot];
    node->type = (uint8_t) type;
    node->count = (uint32_t) count;
    node->as.first = (size_t) first;
    for (uint64_t i = 0; i < items; i++)
        if (!s_parse(self, (size_t) first + i, depth + 1))
            return false;
    return true;
}

static bool
s_parse_raw(bus_reader_t *self, size_t slot, int type, uint64_t len)
{
    const uint8_t *raw;
    if (!s_take(self, (size_t) len, &raw))
        return false;
    bus_value_t *node = &self->nodes[slot];
    node->type = (uint8_t) type;
    node->count = (uint32_t) len;
    node->as.raw = raw;
    return true;
}

static bool
s_parse(bus_reader_t *self, size_t slot, int depth)
{
    const uint8_t *p;
    if (!s_take(self, 1, &p))
        return false;
    uint8_t tag = *p;
    bus_value_t *node = &self->nodes[slot];
    memset(node, 0, sizeof *node);

    if (tag <= 0x7f) {
        node->type = BUS_VALUE_UINT;
        node->as.u = tag;
        return true;
    }
    if (tag >= 0xe0) {
        node->type = BUS_VALUE_INT;
        node->as.i = (int8_t) tag;
        return true;
    }
    if ((tag & 0xf0) == 0x80)
        return s_parse_container(self, slot, BUS_VALUE_MAP, tag & 0x0f, depth);
    if ((tag & 0xf0) == 0x90)
        return s_parse_container(self, slot, BUS_VALUE_ARRAY, tag & 0x0f, depth);
    if ((tag & 0xe0) == 0xa0)
        return s_parse_raw(self, slot, BUS_VALUE_STR, tag & 0x1f);

    //  Lengths and values that follow the tag, big-endian.
    // clang-format off
    static const int8_t widths[0x20] = {
        [0x04] = 1, [0x05] = 2, [0x06] = 4,                             //  bin 8/16/32
        [0x07] = 1, [0x08] = 2, [0x09] = 4,                             //  ext 8/16/32
        [0x0a] = 4, [0x0b] = 8,                                         //  float 32/64
        [0x0c] = 1, [0x0d] = 2, [0x0e] = 4, [0x0f] = 8,                 //  uint
        [0x10] = 1, [0x11] = 2, [0x12] = 4, [0x13] = 8,                 //  int
        [0x14] = 2, [0x15] = 3, [0x16] = 5, [0x17] = 9, [0x18] = 17,    //  fixext (type+data)
        [0x19] = 1, [0x1a] = 2, [0x1b] = 4,                             //  str 8/16/32
        [0x1c] = 2, [0x1d] = 4,                                         //  array 16/32
        [0x1e] = 2, [0x1f] = 4,                                         //  map 16/32
    };
    // clang-format on
    switch (tag) {
        case 0xc0:
            node->type = BUS_VALUE_NIL;
            return true;
        case 0xc2:
        case 0xc3:
            node->type = BUS_VALUE_BOOL;
            node->as.b = tag == 0xc3;
            return true;
        case 0xc1:
            return false; //  never used by msgpack
        default:
            break;
    }
    int width = widths[tag - 0xc0];
    const uint8_t *arg;
    if (width == 0 || !s_take(self, (size_t) width, &arg))
        return false;
    if (tag >= 0xd4 && tag <= 0xd8) { //  fixext: one type byte and 1..16 data bytes
        node->type = BUS_VALUE_EXT;
        node->count = (uint32_t) width - 1;
        node->as.raw = arg + 1;
        return true;
    }
    uint64_t v = s_be(arg, width);
    switch (tag) {
        case 0xc4:
        case 0xc5:
        case 0xc6:
            return s_parse_raw(self, slot, BUS_VALUE_BIN, v);
        case 0xc7:
        case 0xc8:
        case 0xc9: {
            const uint8_t *type_byte;
            if (!s_take(self, 1, &type_byte))
                return false;
            return s_parse_raw(self, slot, BUS_VALUE_EXT, v);
        }
        case 0xca: {
            uint32_t bits = (uint32_t) v;
            float f;
            memcpy(&f, &bits, sizeof f);
            node->type = BUS_VALUE_DOUBLE;
            node->as.d = f;
            return true;
        }
        case 0xcb:
            node->type = BUS_VALUE_DOUBLE;
            memcpy(&node->as.d, &v, sizeof v);
            return true;
        case 0xcc:
        case 0xcd:
        case 0xce:
        case 0xcf:
            node->type = BUS_VALUE_UINT;
            node->as.u = v;
            return true;
        case 0xd0:
        case 0xd1:
        case 0xd2:
        case 0xd3: {
            //  Sign-extend from the encoded width.
            int shift = 64 - 8 * width;
            int64_t i = (int64_t) (v << shift) >> shift;
            node->type = i < 0 ? BUS_VALUE_INT : BUS_VALUE_UINT;
            if (i < 0)
                node->as.i = i;
            else
                node->as.u = (uint64_t) i;
            return true;
        }
        case 0xd9:
        case 0xda:
        case 0xdb:
            return s_parse_raw(self, slot, BUS_VALUE_STR, v);
        case 0xdc:
        case 0xdd:
            return s_parse_container(self, slot, BUS_VALUE_ARRAY, v, depth);
        case 0xde:
        case 0xdf:
            return s_parse_container(self, slot, BUS_VALUE_MAP, v, depth);
        default:
            return false;
    }
}

const bus_value_t *
bus_reader_parse(bus_reader_t *self, const void *data, size_t size)
{
    assert(self);
    if (!data || size == 0 || size > UINT32_MAX)
        return NULL;
    self->used = 0;
    self->pos = data;
    self->end = self->pos + size;
    if (s_reserve(self, 1) < 0)
        return NULL;
    if (!s_parse(self, 0, 0) || self->pos != self->end)
        return NULL;
    //  The node array no longer moves: turn child indexes into pointers.
    for (size_t i = 0; i < self->used; i++) {
        bus_value_t *node = &self->nodes[i];
        if (node->type == BUS_VALUE_ARRAY || node->type == BUS_VALUE_MAP)
            node->as.items = node->count ? &self->nodes[node->as.first] : NULL;
    }
    return &self->nodes[0];
}

bus_value_type_t
bus_value_type(const bus_value_t *value)
{
    return value ? (bus_value_type_t) value->type : BUS_VALUE_NIL;
}

bool
bus_value_get_bool(const bus_value_t *value, bool *out)
{
    if (!value || value->type != BUS_VALUE_BOOL)
        return false;
    *out = value->as.b;
    return true;
}

bool
bus_value_get_int(const bus_value_t *value, int64_t *out)
{
    if (!value)
        return false;
    if (value->type == BUS_VALUE_INT) {
        *out = value->as.i;
        return true;
    }
    if (value->type == BUS_VALUE_UINT && value->as.u <= (uint64_t) INT64_MAX) {
        *out = (int64_t) value->as.u;
        return true;
    }
    return false;
}

bool
bus_value_get_uint(const bus_value_t *value, uint64_t *out)
{
    if (!value || value->type != BUS_VALUE_UINT)
        return false;
    *out = value->as.u;
    return true;
}

bool
bus_value_get_double(const bus_value_t *value, double *out)
{
    if (!value)
        return false;
    switch (value->type) {
        case BUS_VALUE_DOUBLE:
            *out = value->as.d;
            return true;
        case BUS_VALUE_UINT:
            *out = (double) value->as.u;
            return true;
        case BUS_VALUE_INT:
            *out = (double) value->as.i;
            return true;
        default:
            return false;
    }
}

bool
bus_value_get_str(const bus_value_t *value, const char **ptr, size_t *len)
{
    if (!value || value->type != BUS_VALUE_STR)
        return false;
    *ptr = (const char *) value->as.raw;
    *len = value->count;
    return true;
}

bool
bus_value_get_bin(const bus_value_t *value, const void **ptr, size_t *len)
{
    if (!value || value->type != BUS_VALUE_BIN)
        return false;
    *ptr = value->as.raw;
    *len = value->count;
    return true;
}

char *
bus_value_dup_str(const bus_value_t *value)
{
    const char *ptr;
    size_t len;
    if (!bus_value_get_str(value, &ptr, &len) || memchr(ptr, 0, len))
        return NULL;
    char *copy = malloc(len + 1);
    if (copy) {
        memcpy(copy, ptr, len);
        copy[len] = 0;
    }
    return copy;
}

uint32_t
bus_value_count(const bus_value_t *value)
{
    if (value && (value->type == BUS_VALUE_ARRAY || value->type == BUS_VALUE_MAP))
        return value->count;
    return 0;
}

const bus_value_t *
bus_value_array_at(const bus_value_t *value, uint32_t index)
{
    if (!value || value->type != BUS_VALUE_ARRAY || index >= value->count)
        return NULL;
    return &value->as.items[index];
}

const bus_value_t *
bus_value_map_key(const bus_value_t *value, uint32_t index)
{
    if (!value || value->type != BUS_VALUE_MAP || index >= value->count)
        return NULL;
    return &value->as.items[2 * (size_t) index];
}

const bus_value_t *
bus_value_map_value(const bus_value_t *value, uint32_t index)
{
    if (!value || value->type != BUS_VALUE_MAP || index >= value->count)
        return NULL;
    return &value->as.items[2 * (size_t) index + 1];
}

bool
bus_value_str_is(const bus_value_t *value, const char *key)
{
    size_t key_len = strlen(key);
    return value && value->type == BUS_VALUE_STR && value->count == key_len &&
           memcmp(value->as.raw, key, key_len) == 0;
}

const bus_value_t *
bus_value_map_find(const bus_value_t *map, const char *key)
{
    if (!map || map->type != BUS_VALUE_MAP)
        return NULL;
    //  Every header read looks up several keys: measure the key once, and
    //  compare lengths and first bytes before calling memcmp.
    size_t key_len = strlen(key);
    for (uint32_t i = 0; i < map->count; i++) {
        const bus_value_t *name = &map->as.items[2 * (size_t) i];
        if (name->type == BUS_VALUE_STR && name->count == key_len &&
            (key_len == 0 || name->as.raw[0] == (uint8_t) key[0]) &&
            memcmp(name->as.raw, key, key_len) == 0)
            return &map->as.items[2 * (size_t) i + 1];
    }
    return NULL;
}
