//  GENERATED FROM proto/bus.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_bus - bus plumbing - replay of durable events from a publisher's
    outbox

    Structs and codecs of the bus domain. Included by proto.h: include bus.h,
    not this file. proto.h documents the functions every struct type T has
    (init, clear, check, write, writer for requests, encode, read, decode,
    print).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef PROTO_BUS_H_INCLUDED
#define PROTO_BUS_H_INCLUDED

//  Topics (events) and method names (RPC).
#define PROTO_BUS_REPLAY "bus.replay"

//  ---------------------------------------------------------------------------
//  bus.frame, a nested value: one published event as it went on the wire

typedef struct {
    //  Event topic (required, at most 256 bytes)
    const char *topic;
    //  Msgpack envelope header (required, at most 4096 bytes)
    const uint8_t *header;
    size_t header_size;
    //  Msgpack body (at most 16777216 bytes)
    const uint8_t *body;
    size_t body_size;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_bus_frame_t;

#define PROTO_BUS_FRAME_TOPIC_MAX  256
#define PROTO_BUS_FRAME_HEADER_MAX 4096
#define PROTO_BUS_FRAME_BODY_MAX   16777216

void proto_bus_frame_init(proto_bus_frame_t *self);
void proto_bus_frame_clear(proto_bus_frame_t *self);
PROTO_MUST_USE int proto_bus_frame_check(const proto_bus_frame_t *self, bus_error_t *err);
PROTO_MUST_USE int proto_bus_frame_write(const proto_bus_frame_t *self,
                                         bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_bus_frame_encode(const proto_bus_frame_t *self);
int
proto_bus_frame_read(proto_bus_frame_t *self, const bus_value_t *map, bus_error_t *err);
int proto_bus_frame_decode(proto_bus_frame_t *self,
                           const void *data,
                           size_t size,
                           bus_error_t *err);
char *proto_bus_frame_print(const proto_bus_frame_t *self);

//  ---------------------------------------------------------------------------
//  bus.replay request (idempotent): durable events of one domain from a sequence number
//  on, for a subscriber that saw a gap or is catching up

typedef struct {
    //  The stream: a topic domain such as kernel (required, at most 64 bytes)
    const char *domain;
    //  Outbox epoch the subscriber knows; 0 for any
    uint64_t epoch;
    //  First sequence number wanted (required)
    uint64_t from_seq;
    //  At most this many events; 0 for the server's limit
    uint64_t max;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_bus_replay_req_t;

#define PROTO_BUS_REPLAY_REQ_DOMAIN_MAX 64

void proto_bus_replay_req_init(proto_bus_replay_req_t *self);
void proto_bus_replay_req_clear(proto_bus_replay_req_t *self);
PROTO_MUST_USE int proto_bus_replay_req_check(const proto_bus_replay_req_t *self,
                                              bus_error_t *err);
PROTO_MUST_USE int proto_bus_replay_req_write(const proto_bus_replay_req_t *self,
                                              bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_bus_replay_req_writer(const proto_bus_replay_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *proto_bus_replay_req_encode(const proto_bus_replay_req_t *self);
int proto_bus_replay_req_read(proto_bus_replay_req_t *self,
                              const bus_value_t *map,
                              bus_error_t *err);
int proto_bus_replay_req_decode(proto_bus_replay_req_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err);
char *proto_bus_replay_req_print(const proto_bus_replay_req_t *self);

//  ---------------------------------------------------------------------------
//  bus.replay reply (idempotent): durable events of one domain from a sequence number on,
//  for a subscriber that saw a gap or is catching up

typedef struct {
    //  The stream answered (required, at most 64 bytes)
    const char *domain;
    //  The outbox's epoch; a change means start over
    uint64_t epoch;
    //  Last sequence number written
    uint64_t head;
    //  Oldest sequence number still kept
    uint64_t first_retained;
    //  Events in order, from from_seq (at most 10000 items)
    const proto_bus_frame_t *events;
    size_t events_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_bus_replay_rep_t;

#define PROTO_BUS_REPLAY_REP_DOMAIN_MAX 64
#define PROTO_BUS_REPLAY_REP_EVENTS_MAX 10000

void proto_bus_replay_rep_init(proto_bus_replay_rep_t *self);
void proto_bus_replay_rep_clear(proto_bus_replay_rep_t *self);
PROTO_MUST_USE int proto_bus_replay_rep_check(const proto_bus_replay_rep_t *self,
                                              bus_error_t *err);
PROTO_MUST_USE int proto_bus_replay_rep_write(const proto_bus_replay_rep_t *self,
                                              bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_bus_replay_rep_encode(const proto_bus_replay_rep_t *self);
int proto_bus_replay_rep_read(proto_bus_replay_rep_t *self,
                              const bus_value_t *map,
                              bus_error_t *err);
int proto_bus_replay_rep_decode(proto_bus_replay_rep_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err);
char *proto_bus_replay_rep_print(const proto_bus_replay_rep_t *self);

#endif
