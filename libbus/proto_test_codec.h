//  GENERATED FROM proto/test.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_test_codec - messages for tests and benchmarks that cover every
    field type

    Structs and codecs of the test domain. Included by proto.h: include bus.h,
    not this file. proto.h documents the functions every struct type T has
    (init, clear, check, write, writer for requests, encode, read, decode,
    print).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef PROTO_TEST_CODEC_H_INCLUDED
#define PROTO_TEST_CODEC_H_INCLUDED

//  Topics (events) and method names (RPC).
#define PROTO_TEST_TICK "test.tick"
#define PROTO_TEST_NOTE "test.note"
#define PROTO_TEST_ECHO "test.echo"
#define PROTO_TEST_SLOW "test.slow"

//  ---------------------------------------------------------------------------
//  test.tick, event (broadcast, durable): a numbered tick with a field of every kind

typedef struct {
    //  Sequence number (required)
    uint64_t n;
    //  Free text (at most 4096 bytes)
    const char *text;
    //  String labels (at most 64 pairs, string to string, in wire order)
    const proto_kv_t *labels;
    size_t labels_count;
    //  String tags (at most 64 items)
    const char *const *tags;
    size_t tags_count;
    //  An id (16 bytes)
    uint8_t id[PROTO_UUID_SIZE];
    //  A ratio
    double ratio;
    //  A flag
    bool flag;
    //  A signed change (-1000000..1000000)
    int64_t delta;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_test_tick_t;

#define PROTO_TEST_TICK_TEXT_MAX   4096
#define PROTO_TEST_TICK_LABELS_MAX 64
#define PROTO_TEST_TICK_TAGS_MAX   64

void proto_test_tick_init(proto_test_tick_t *self);
void proto_test_tick_clear(proto_test_tick_t *self);
PROTO_MUST_USE int proto_test_tick_check(const proto_test_tick_t *self, bus_error_t *err);
PROTO_MUST_USE int proto_test_tick_write(const proto_test_tick_t *self,
                                         bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_test_tick_encode(const proto_test_tick_t *self);
int
proto_test_tick_read(proto_test_tick_t *self, const bus_value_t *map, bus_error_t *err);
int proto_test_tick_decode(proto_test_tick_t *self,
                           const void *data,
                           size_t size,
                           bus_error_t *err);
char *proto_test_tick_print(const proto_test_tick_t *self);

//  ---------------------------------------------------------------------------
//  test.note, event (broadcast): a short note

typedef struct {
    //  The note (required)
    const char *text;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_test_note_t;

void proto_test_note_init(proto_test_note_t *self);
void proto_test_note_clear(proto_test_note_t *self);
PROTO_MUST_USE int proto_test_note_check(const proto_test_note_t *self, bus_error_t *err);
PROTO_MUST_USE int proto_test_note_write(const proto_test_note_t *self,
                                         bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_test_note_encode(const proto_test_note_t *self);
int
proto_test_note_read(proto_test_note_t *self, const bus_value_t *map, bus_error_t *err);
int proto_test_note_decode(proto_test_note_t *self,
                           const void *data,
                           size_t size,
                           bus_error_t *err);
char *proto_test_note_print(const proto_test_note_t *self);

//  ---------------------------------------------------------------------------
//  test.echo request (idempotent): replies with what it was sent

typedef struct {
    //  Sequence number (required)
    uint64_t n;
    //  Free text
    const char *text;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_test_echo_req_t;

void proto_test_echo_req_init(proto_test_echo_req_t *self);
void proto_test_echo_req_clear(proto_test_echo_req_t *self);
PROTO_MUST_USE int proto_test_echo_req_check(const proto_test_echo_req_t *self,
                                             bus_error_t *err);
PROTO_MUST_USE int proto_test_echo_req_write(const proto_test_echo_req_t *self,
                                             bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_test_echo_req_writer(const proto_test_echo_req_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE zframe_t *proto_test_echo_req_encode(const proto_test_echo_req_t *self);
int proto_test_echo_req_read(proto_test_echo_req_t *self,
                             const bus_value_t *map,
                             bus_error_t *err);
int proto_test_echo_req_decode(proto_test_echo_req_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err);
char *proto_test_echo_req_print(const proto_test_echo_req_t *self);

//  ---------------------------------------------------------------------------
//  test.echo reply (idempotent): replies with what it was sent

typedef struct {
    //  The request's n (required)
    uint64_t n;
    //  The request's text (at most 64 KiB) (at most 65536 bytes)
    const char *text;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_test_echo_rep_t;

#define PROTO_TEST_ECHO_REP_TEXT_MAX 65536

void proto_test_echo_rep_init(proto_test_echo_rep_t *self);
void proto_test_echo_rep_clear(proto_test_echo_rep_t *self);
PROTO_MUST_USE int proto_test_echo_rep_check(const proto_test_echo_rep_t *self,
                                             bus_error_t *err);
PROTO_MUST_USE int proto_test_echo_rep_write(const proto_test_echo_rep_t *self,
                                             bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_test_echo_rep_encode(const proto_test_echo_rep_t *self);
int proto_test_echo_rep_read(proto_test_echo_rep_t *self,
                             const bus_value_t *map,
                             bus_error_t *err);
int proto_test_echo_rep_decode(proto_test_echo_rep_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err);
char *proto_test_echo_rep_print(const proto_test_echo_rep_t *self);

//  ---------------------------------------------------------------------------
//  test.slow request (not idempotent): replies after a delay, to test timeouts

typedef struct {
    //  How long to wait (at most 60000)
    uint64_t delay_ms;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_test_slow_req_t;

void proto_test_slow_req_init(proto_test_slow_req_t *self);
void proto_test_slow_req_clear(proto_test_slow_req_t *self);
PROTO_MUST_USE int proto_test_slow_req_check(const proto_test_slow_req_t *self,
                                             bus_error_t *err);
PROTO_MUST_USE int proto_test_slow_req_write(const proto_test_slow_req_t *self,
                                             bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_test_slow_req_writer(const proto_test_slow_req_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE zframe_t *proto_test_slow_req_encode(const proto_test_slow_req_t *self);
int proto_test_slow_req_read(proto_test_slow_req_t *self,
                             const bus_value_t *map,
                             bus_error_t *err);
int proto_test_slow_req_decode(proto_test_slow_req_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err);
char *proto_test_slow_req_print(const proto_test_slow_req_t *self);

//  ---------------------------------------------------------------------------
//  test.slow reply (not idempotent): replies after a delay, to test timeouts

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_test_slow_rep_t;

void proto_test_slow_rep_init(proto_test_slow_rep_t *self);
void proto_test_slow_rep_clear(proto_test_slow_rep_t *self);
PROTO_MUST_USE int proto_test_slow_rep_check(const proto_test_slow_rep_t *self,
                                             bus_error_t *err);
PROTO_MUST_USE int proto_test_slow_rep_write(const proto_test_slow_rep_t *self,
                                             bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_test_slow_rep_encode(const proto_test_slow_rep_t *self);
int proto_test_slow_rep_read(proto_test_slow_rep_t *self,
                             const bus_value_t *map,
                             bus_error_t *err);
int proto_test_slow_rep_decode(proto_test_slow_rep_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err);
char *proto_test_slow_rep_print(const proto_test_slow_rep_t *self);

#endif
