//  GENERATED FROM proto/*.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto - the message schemas of Backplane: one C struct per event, RPC
    request, RPC reply and nested type, with its codec, generated from
    proto/<domain>.yaml by proto/gen.py (see proto/README.md)

    Every struct type T has:
      void proto_T_init (T *self)      zero, then the schema defaults
      void proto_T_clear (T *self)     free what self owns and zero it; it
                                       owns nothing after (init again to
                                       reuse it with the schema defaults)
      int proto_T_check (self, err)    BUS_OK when self keeps its schema:
                                       required strings and bytes set, lengths,
                                       counts and numbers within their limits,
                                       nested values and list items too; else
                                       BUS_STATUS_INVALID, and err->detail names
                                       the field ("kernel.execute request:
                                       field 'run_id': 65 bytes, at most 64")
      int proto_T_write (self, writer) check, then append one msgpack map; 0,
                                       or -1 when check refuses (the writer is
                                       then unchanged: nothing appended)
      bus_writer_t *proto_T_writer (self, err)   requests only: check, then a
                                       new writer holding the map, or NULL
                                       with err set (BUS_STATUS_INVALID from
                                       check, BUS_STATUS_INTERNAL when memory
                                       ran out). Caller owns return value.
      zframe_t *proto_T_encode (self)  the same as a new frame, or NULL.
                                       Caller owns return value.
          check, write, writer and encode are PROTO_MUST_USE: the compiler
          refuses a caller that drops their result. A value that comes from
          outside (an HTTP request) is checked before it is sent, and a
          refusal answered as the caller's mistake (400, BUS_STATUS_INVALID).
      int proto_T_read (self, map, err)         from a parsed map
      int proto_T_decode (self, data, size, err) from bytes
          Both initialise self first, so self must not own anything yet.
          BUS_OK; BUS_STATUS_PROTOCOL when the bytes are not one msgpack map
          or a known key has the wrong wire type; BUS_STATUS_INVALID when a
          required field is missing or a value breaks its limits. On failure
          self is cleared and err->detail names the field ("service.started:
          field 'pid': expected uint"). Unknown keys are ignored; a nil value
          counts as absent.
      char *proto_T_print (self)       logfmt for logs. Caller owns return
                                       value.

    A proto_<domain>.h per schema declares them, with a PROTO_<DOMAIN>_<NAME>
    macro per topic and method. Encoders write every field that is set and
    leave out NULL strings and bytes and empty arrays; secret fields print as
    [redacted].

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef PROTO_H_INCLUDED
#define PROTO_H_INCLUDED

#include "bus_codec.h"
#include "bus_status.h"

#define PROTO_UUID_SIZE 16         //  bytes in a uuid field
#define PROTO_UNLIMITED UINT32_MAX //  no schema max: msgpack's own limit
#define PROTO_REQUIRED  1          //  read and check flag: the key must be there
#define PROTO_PATH_MAX  96         //  "peers[12].node" in error details

#define PROTO_ARENA_BLOCK  1024 //  bytes of a decoder's arena block
#define PROTO_ARENA_ALIGN  16   //  every arena allocation starts on this boundary

//  On check, write, writer and encode: a result the caller must look at, so
//  that a refused message can never travel as an empty or partial body.
#define PROTO_MUST_USE __attribute__((warn_unused_result))

//  A map field: pairs in wire order. Borrowed, like every pointer in a struct:
//  the decoder points them into its arena, a producer anywhere it likes.
typedef struct {
    const char *key;
    const char *value;
} proto_kv_t;

#include "proto_accounting.h"
#include "proto_agent.h"
#include "proto_bus.h"
#include "proto_gateway.h"
#include "proto_image.h"
#include "proto_kernel.h"
#include "proto_policy.h"
#include "proto_registry.h"
#include "proto_scheduler.h"
#include "proto_service.h"
#include "proto_session.h"
#include "proto_storage.h"
#include "proto_test_codec.h"
#include "proto_wsproxy.h"

//  ---------------------------------------------------------------------------
//  The registry: every event, request and reply by name, for code that handles
//  messages whose type it does not know (logging, validation, the fuzzer).

typedef enum { PROTO_EVENT, PROTO_REQUEST, PROTO_REPLY } proto_kind_t;

typedef struct {
    const char *name; //  topic or method name
    proto_kind_t kind;
    bool broadcast;  //  events: true broadcast, false anycast
    bool durable;    //  events: written to the publisher's outbox, replayable
    bool idempotent; //  requests and replies: the method may be retried
    //  Decode and throw away: BUS_OK, or the decoder's status and detail.
    int (*validate)(const void *data, size_t size, bus_error_t *err);
    //  Decode and print; NULL on bad input. Caller owns return value.
    char *(*print)(const void *data, size_t size);
    //  The fuzzer's oracle: decode, encode, decode again, and compare the
    //  prints and the bytes. 0 when they match or the input does not decode.
    int (*roundtrip)(const void *data, size_t size);
} proto_entry_t;

extern const proto_entry_t proto_entries[];
extern const size_t proto_entry_count;

//  The entry for a name and kind, or NULL if unknown.
const proto_entry_t *proto_lookup(const char *name, proto_kind_t kind);

//  True when the schema marks the method idempotent (safe to retry); false
//  when it does not or the method is unknown.
bool proto_method_idempotent(const char *method);

//  "event", "request" or "reply".
const char *proto_kind_str(proto_kind_t kind);

//  ---------------------------------------------------------------------------
//  The runtime the generated codecs share. Services use the typed functions.

//  Reading state for one map. The first failure sticks in status (and in every
//  parent's), later reads do nothing, so a generated reader is a flat list of
//  calls and checks the status once at the end.
typedef struct _proto_in_t proto_in_t;
struct _proto_in_t {
    const bus_value_t *map;
    const char *message;       //  "service.started", first word of every detail
    char path[PROTO_PATH_MAX]; //  "" at the top, "peers[2]." inside nested values
    int status;                //  BUS_OK until the first failure
    bus_error_t *err;          //  may be NULL
    proto_in_t *parent;        //  the map this one is nested in, or NULL
    void **owned;              //  the top struct's arena: every copy goes there
};

//  Reads one item of a list into calloc'd memory (it must initialise it).
typedef void(proto_read_fn)(void *item, proto_in_t *in);

//  Starts reading map into a struct whose arena is *owned (NULL until the
//  first copy); fails with BUS_STATUS_PROTOCOL when it is not a map (NULL
//  included). Resets err to BUS_OK first.
void proto_in_init(proto_in_t *self,
                   const char *message,
                   const bus_value_t *map,
                   void **owned,
                   bus_error_t *err);

//  The arena behind a decoded struct: a chain of blocks, usually one, that
//  holds every string, byte string, array and list item the decoder copied.
//  alloc returns size bytes (uninitialised, aligned) or NULL when memory ran
//  out; free releases the whole chain and sets *owned to NULL.
void *proto_arena_alloc(void **owned, size_t size);
void proto_arena_free(void **owned);
//  Copies into a struct's arena, for a producer that wants the struct to own
//  what it points to (proto_arena_strdup (&x.owned_, text)): clear frees it.
//  NULL in gives NULL out, as does a failed allocation.
char *proto_arena_strdup(void **owned, const char *text);
void *proto_arena_memdup(void **owned, const void *data, size_t size);
//  Hands heap memory (malloc'd) to a struct's arena, so that clear frees it:
//  for a large buffer a producer already holds. 0; -1 when memory ran out,
//  and then the caller still owns memory.
int proto_arena_adopt(void **owned, void *memory);
//  Moves every block of the arena *other into *owned and sets *other to
//  NULL: for items a producer filled each with an arena of its own (a list
//  read row by row), handed whole to the struct that sends them.
void proto_arena_join(void **owned, void **other);

//  Each reader looks up key and, when present (and not nil), checks and stores
//  its value; a missing key with PROTO_REQUIRED fails with BUS_STATUS_INVALID.
//  Strings and bytes are copied into the arena; *out is replaced, not freed.
void
proto_read_str(proto_in_t *in, const char *key, int flags, size_t max, const char **out);
void proto_read_bytes(proto_in_t *in,
                      const char *key,
                      int flags,
                      size_t max,
                      const uint8_t **out,
                      size_t *size);
void proto_read_uuid(proto_in_t *in, const char *key, int flags, uint8_t *out);
void proto_read_int(
    proto_in_t *in, const char *key, int flags, int64_t min, int64_t max, int64_t *out);
void
proto_read_uint(proto_in_t *in, const char *key, int flags, uint64_t max, uint64_t *out);
void proto_read_bool(proto_in_t *in, const char *key, int flags, bool *out);
void proto_read_double(proto_in_t *in, const char *key, int flags, double *out);

//  Arrays, in the arena: NULL when absent, empty or failed, and the count.
const char *const *
proto_read_strs(proto_in_t *in, const char *key, int flags, size_t max, size_t *count);
const proto_kv_t *
proto_read_map(proto_in_t *in, const char *key, int flags, size_t max, size_t *count);
//  Items are zeroed, then read by read; on failure the caller's clear frees
//  the arena, and with it the items.
void *proto_read_list(proto_in_t *in,
                      const char *key,
                      int flags,
                      size_t max,
                      size_t item_size,
                      proto_read_fn *read,
                      size_t *count);

//  A nested map: true, with sub ready to read it, when present and a map.
bool proto_read_nested(proto_in_t *in, const char *key, int flags, proto_in_t *sub);

//  Checking state for one struct, the writer's side of proto_in_t: the message
//  label and the path of nested values, so that a failure names its field.
typedef struct _proto_check_t proto_check_t;
struct _proto_check_t {
    const char *message;       //  "kernel.execute request", first word of the detail
    char path[PROTO_PATH_MAX]; //  "" at the top, "events[2]." inside nested values
    bus_error_t *err;          //  may be NULL
};

#define PROTO_NO_INDEX SIZE_MAX //  proto_check_enter: a nested value, not a list item

//  Starts checking a struct; resets err to BUS_OK first.
void proto_check_init(proto_check_t *self, const char *message, bus_error_t *err);
//  Prepares sub to check the nested value at key, or the list item key[index].
void proto_check_enter(proto_check_t *self,
                       proto_check_t *sub,
                       const char *key,
                       size_t index);

//  The encoder's checks, one per field: true when the value keeps the schema;
//  false after setting err to BUS_STATUS_INVALID with a detail that names the
//  field ("kernel.execute request: field 'run_id': 65 bytes, at most 64"). max
//  is bytes for strings and bytes, items for arrays, pairs for maps.
bool proto_check_str(
    proto_check_t *self, const char *key, const char *value, int flags, size_t max);
bool proto_check_bytes(proto_check_t *self,
                       const char *key,
                       const uint8_t *data,
                       size_t size,
                       int flags,
                       size_t max);
bool proto_check_strs(proto_check_t *self,
                      const char *key,
                      const char *const *items,
                      size_t count,
                      size_t max);
bool proto_check_map(proto_check_t *self,
                     const char *key,
                     const proto_kv_t *pairs,
                     size_t count,
                     size_t max);
bool proto_check_count(
    proto_check_t *self, const char *key, const void *items, size_t count, size_t max);
bool proto_check_int(
    proto_check_t *self, const char *key, int64_t value, int64_t min, int64_t max);
bool proto_check_uint(proto_check_t *self, const char *key, uint64_t value, uint64_t max);

//  Writers: the key, then the value.
void proto_write_str(bus_writer_t *writer, const char *key, const char *value);
void proto_write_bytes(bus_writer_t *writer,
                       const char *key,
                       const uint8_t *data,
                       size_t size);
void proto_write_uuid(bus_writer_t *writer, const char *key, const uint8_t *uuid);
void proto_write_int(bus_writer_t *writer, const char *key, int64_t value);
void proto_write_uint(bus_writer_t *writer, const char *key, uint64_t value);
void proto_write_bool(bus_writer_t *writer, const char *key, bool value);
void proto_write_double(bus_writer_t *writer, const char *key, double value);
void proto_write_strs(bus_writer_t *writer,
                      const char *key,
                      const char *const *items,
                      size_t count);
void proto_write_map(bus_writer_t *writer,
                     const char *key,
                     const proto_kv_t *pairs,
                     size_t count);
//  The key and an array header; the caller writes the items.
void proto_write_array(bus_writer_t *writer, const char *key, size_t count);

//  A logfmt line being built: key=value pairs separated by spaces, values
//  quoted when they need it.
typedef struct {
    char *data;
    size_t size;
    size_t allocated;
    bool failed;                 //  out of memory: finish returns NULL
    char prefix[PROTO_PATH_MAX]; //  "x." while printing nested value x
} proto_text_t;

void proto_text_init(proto_text_t *self);
//  The line, or NULL when memory ran out. Caller owns return value.
char *proto_text_finish(proto_text_t *self);
//  Prefix the keys of a nested value with "key."; leave restores the mark.
size_t proto_text_enter(proto_text_t *self, const char *key);
void proto_text_leave(proto_text_t *self, size_t mark);

//  Printers: NULL strings and bytes and empty arrays print nothing; bytes
//  print as <N bytes>, arrays as key=[N], uuids as 8-4-4-4-12 hex.
void proto_print_str(proto_text_t *text, const char *key, const char *value);
void
proto_print_bytes(proto_text_t *text, const char *key, const uint8_t *data, size_t size);
void proto_print_uuid(proto_text_t *text, const char *key, const uint8_t *uuid);
void proto_print_int(proto_text_t *text, const char *key, int64_t value);
void proto_print_uint(proto_text_t *text, const char *key, uint64_t value);
void proto_print_bool(proto_text_t *text, const char *key, bool value);
void proto_print_double(proto_text_t *text, const char *key, double value);
void proto_print_count(proto_text_t *text, const char *key, size_t count);
void proto_print_redacted(proto_text_t *text, const char *key);

#endif
