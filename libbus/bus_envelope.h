/*  =========================================================================
    bus_envelope - the event frame: [topic][msgpack header][msgpack body]

    The topic is plain text so SUB sockets filter on its prefix ("kernel."
    selects a whole domain). The header is a small msgpack map that routing,
    replay and logging read without touching the body:
        v     envelope version (BUS_ENVELOPE_VERSION)
        id    16-byte event id, unique per event
        ts    wall-clock microseconds at publication
        src   "service/node" of the publisher
        seq   durable events: the publisher's outbox sequence (1, 2, ...);
              absent or 0 for ephemeral events
        ep    durable events: the outbox epoch, a random number chosen when
              the publisher's database was created, so a rebuilt publisher is
              never mistaken for an old one
        corr  optional correlation id (the request that caused the event)
    A decoder ignores unknown keys; a breaking change bumps v.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_ENVELOPE_H_INCLUDED
#define BUS_ENVELOPE_H_INCLUDED

#include "bus_codec.h"
#include "bus_status.h"

#define BUS_ENVELOPE_VERSION 1
#define BUS_TOPIC_MAX        256 //  bytes, with the NUL
#define BUS_SRC_MAX          192
#define BUS_CORR_MAX         64
#define BUS_EVENT_ID_SIZE    16
#define BUS_HEADER_MAX       1024 //  an encoded header never exceeds this

typedef struct {
    uint64_t version;
    uint8_t id[BUS_EVENT_ID_SIZE];
    int64_t ts;
    char src[BUS_SRC_MAX];
    uint64_t seq;
    uint64_t epoch;
    char corr[BUS_CORR_MAX];
} bus_header_t;

//  An event as received: the topic and header parsed, the body borrowed
//  from the frame it arrived in (valid during the callback only).
typedef struct {
    char topic[BUS_TOPIC_MAX];
    bus_header_t header;
    const uint8_t *body;
    size_t body_size;
} bus_event_t;

//  Fills a header for a new event from src: a fresh id, the current time,
//  version set; seq, epoch and corr cleared.
void bus_header_init(bus_header_t *self, const char *src);

//  Appends the header map to writer.
void bus_header_write(const bus_header_t *self, bus_writer_t *writer);

//  Parses a header from bytes using reader (scratch, reused). BUS_OK, or
//  BUS_STATUS_PROTOCOL with err filled (not a map, wrong types, a missing
//  id/src, an oversized string, a newer envelope version).
int bus_header_decode(bus_header_t *self,
                      bus_reader_t *reader,
                      const void *data,
                      size_t size,
                      bus_error_t *err);

//  A fresh event id: a random per-process prefix and a counter, so ids are
//  unique without a system call per event.
void bus_event_id_new(uint8_t id[BUS_EVENT_ID_SIZE]);

//  Writes "0f1e...-..." (36 chars + NUL) into out.
void bus_event_id_str(const uint8_t id[BUS_EVENT_ID_SIZE], char out[37]);

//  Sends one event as three frames on a zmq socket (raw handle, from
//  zsock_resolve). scratch is a reusable writer. 0, or -1 when the socket
//  would block (high-water mark) or failed; errno is zmq's.
int bus_event_send(void *socket,
                   const char *topic,
                   const bus_header_t *header,
                   const void *body,
                   size_t body_size,
                   bus_writer_t *scratch);

//  Sends an event whose header is already encoded (replay, outbox flush).
int bus_event_send_raw(void *socket,
                       const char *topic,
                       const void *header,
                       size_t header_size,
                       const void *body,
                       size_t body_size);

//  Receive-side scratch: zmq messages and a reader kept between calls so
//  the hot path does not allocate.
typedef struct _bus_event_buf_t bus_event_buf_t;

bus_event_buf_t *bus_event_buf_new(void);
void bus_event_buf_destroy(bus_event_buf_t **self_p);

//  Receives one event without blocking. Returns BUS_OK with event filled
//  (body borrowed from buf until the next call), BUS_STATUS_UNAVAILABLE
//  when nothing is waiting, or BUS_STATUS_PROTOCOL for a malformed event,
//  which is consumed whole and described in err.
int
bus_event_recv(void *socket, bus_event_buf_t *buf, bus_event_t *event, bus_error_t *err);

//  Decodes an event from its three frames held in memory (replay replies).
int bus_event_parse(bus_event_t *event,
                    bus_reader_t *reader,
                    const char *topic,
                    size_t topic_size,
                    const void *header,
                    size_t header_size,
                    const void *body,
                    size_t body_size,
                    bus_error_t *err);

#endif
