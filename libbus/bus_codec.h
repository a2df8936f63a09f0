/*  =========================================================================
    bus_codec - msgpack writing and reading for the envelope and the
    generated codecs.

    Writing goes through msgpack-c's packer. Reading is our own small
    decoder: it parses a whole buffer into a tree of bus_value_t nodes that
    point into the buffer (no string copies), bounds every declared length
    by the bytes that remain, limits nesting depth, and rejects trailing
    bytes. msgpack-c's own unpacker trusts a container's declared size when
    it allocates, so five hostile bytes could ask it for gigabytes; input
    from the network never reaches it.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_CODEC_H_INCLUDED
#define BUS_CODEC_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <czmq.h>

#define BUS_CODEC_MAX_DEPTH 32

//  ---------------------------------------------------------------------------
//  Writer: appends msgpack items to a growing buffer. Reuse one writer with
//  bus_writer_reset on hot paths; it keeps its memory.

typedef struct _bus_writer_t bus_writer_t;

bus_writer_t *bus_writer_new(void);
void bus_writer_destroy(bus_writer_t **self_p);
void bus_writer_reset(bus_writer_t *self);

//  Borrowed view of the bytes written so far.
const uint8_t *bus_writer_data(bus_writer_t *self);
size_t bus_writer_size(bus_writer_t *self);

//  A new frame holding a copy of the bytes. Caller owns return value.
zframe_t *bus_writer_frame(bus_writer_t *self);

void bus_writer_map(bus_writer_t *self, uint32_t pairs);
void bus_writer_array(bus_writer_t *self, uint32_t items);
void bus_writer_nil(bus_writer_t *self);
void bus_writer_bool(bus_writer_t *self, bool value);
void bus_writer_int(bus_writer_t *self, int64_t value);
void bus_writer_uint(bus_writer_t *self, uint64_t value);
void bus_writer_double(bus_writer_t *self, double value);
//  A NULL string is written as an empty string.
void bus_writer_str(bus_writer_t *self, const char *value);
void bus_writer_strn(bus_writer_t *self, const char *value, size_t len);
void bus_writer_bin(bus_writer_t *self, const void *data, size_t len);

//  ---------------------------------------------------------------------------
//  Reader: parses one msgpack item that spans the whole buffer. The values
//  it returns are borrowed: valid until the next parse or the destroy, and
//  only while the parsed buffer lives.

typedef struct _bus_reader_t bus_reader_t;
typedef struct _bus_value_t bus_value_t;

typedef enum {
    BUS_VALUE_NIL,
    BUS_VALUE_BOOL,
    BUS_VALUE_UINT, //  non-negative integer
    BUS_VALUE_INT,  //  negative integer
    BUS_VALUE_DOUBLE,
    BUS_VALUE_STR,
    BUS_VALUE_BIN,
    BUS_VALUE_ARRAY,
    BUS_VALUE_MAP,
    BUS_VALUE_EXT
} bus_value_type_t;

bus_reader_t *bus_reader_new(void);
void bus_reader_destroy(bus_reader_t **self_p);

//  A reader owned by the calling thread, for a parse whose values are used
//  and dropped before the caller returns (the generated decoders): decoding
//  then allocates nothing once the thread has decoded a message of that
//  size. Freed when the thread exits. Borrowed; NULL when out of memory.
bus_reader_t *bus_reader_local(void);

//  Returns the root value, or NULL when the bytes are not exactly one
//  well-formed msgpack item (truncated, trailing bytes, too deep).
const bus_value_t *bus_reader_parse(bus_reader_t *self, const void *data, size_t size);

bus_value_type_t bus_value_type(const bus_value_t *value);

//  Typed getters: true and *out set when the value has that type (ints are
//  range-checked; a double getter also takes integers), false otherwise.
bool bus_value_get_bool(const bus_value_t *value, bool *out);
bool bus_value_get_int(const bus_value_t *value, int64_t *out);
bool bus_value_get_uint(const bus_value_t *value, uint64_t *out);
bool bus_value_get_double(const bus_value_t *value, double *out);
//  Strings and binaries are not NUL-terminated; ptr points into the buffer.
bool bus_value_get_str(const bus_value_t *value, const char **ptr, size_t *len);
bool bus_value_get_bin(const bus_value_t *value, const void **ptr, size_t *len);

//  A NUL-terminated copy of a string value; NULL when the value is not a
//  string or holds a NUL byte. Caller owns return value.
char *bus_value_dup_str(const bus_value_t *value);

//  Items of an array, pairs of a map; 0 for anything else.
uint32_t bus_value_count(const bus_value_t *value);
const bus_value_t *bus_value_array_at(const bus_value_t *value, uint32_t index);
const bus_value_t *bus_value_map_key(const bus_value_t *value, uint32_t index);
const bus_value_t *bus_value_map_value(const bus_value_t *value, uint32_t index);

//  The value stored under a string key in a map, or NULL. Linear scan: maps
//  on the wire are small.
const bus_value_t *bus_value_map_find(const bus_value_t *map, const char *key);

//  True when value is a string equal to key.
bool bus_value_str_is(const bus_value_t *value, const char *key);

#endif
