/*  =========================================================================
    bus_outbox - durable events: written with the state change, then sent

    A service that changes state and must tell others writes the event into
    its own database in the same transaction as the change
    (bus_outbox_append), commits, and then calls bus_outbox_flush, which
    publishes what was committed. Nothing is announced that did not happen,
    and nothing that happened is lost: a subscriber that missed an event
    asks for it again with the bus.replay RPC, answered from this table.

    Sequence numbers are per publisher and per domain (the topic up to its
    first dot: "session", "kernel"), because subscribers subscribe by domain
    and must be able to see every number of a stream they follow. The epoch
    is a random number fixed when the table is created; it tells a rebuilt
    publisher from the old one. It is also renewed, and the numbering
    restarts, when the outbox was left open (no clean destroy) and the
    machine has booted since: the last commits may not have reached the
    disk, and their numbers must not be reused under the same epoch.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_OUTBOX_H_INCLUDED
#define BUS_OUTBOX_H_INCLUDED

#include "bus_db.h"
#include "bus_pub.h"

#define BUS_OUTBOX_FLUSH_BATCH 1000 //  rows read per flush query
#define BUS_OUTBOX_DOMAIN_MAX  64
#define BUS_OUTBOX_REPLAY_MAX  1000 //  events per bus.replay reply at most

typedef struct _bus_outbox_t bus_outbox_t;

//  Creates the outbox tables in db if needed. src is the publisher's
//  "service/node". db stays owned by the caller and must outlive the outbox.
//  Outside a transaction it marks the outbox open with a commit synced to
//  disk; inside the caller's, the caller's commit must be (see s_load).
bus_outbox_t *bus_outbox_new(bus_db_t *db, const char *src, bus_error_t *err);

void bus_outbox_destroy(bus_outbox_t **self_p);

uint64_t bus_outbox_epoch(bus_outbox_t *self);

//  Records an event. Inside the caller's transaction when one is open (the
//  point of the outbox), else in a transaction of its own. Returns the
//  event's sequence number in its domain, or 0 on failure (logged).
uint64_t bus_outbox_append(bus_outbox_t *self,
                           const char *topic,
                           const void *body,
                           size_t body_size);

//  Publishes every committed event not yet sent. Does nothing inside an
//  open transaction. Returns the number sent, or -1 on a database error.
int bus_outbox_flush(bus_outbox_t *self, bus_pub_t *pub);

//  Append in a transaction of its own, then flush: for a change that is
//  nothing but the event. Returns the sequence number or 0.
uint64_t bus_outbox_publish(bus_outbox_t *self,
                            bus_pub_t *pub,
                            const char *topic,
                            const void *body,
                            size_t body_size);

//  Answers a replay request: up to max (capped by BUS_OUTBOX_REPLAY_MAX)
//  events of domain with seq >= from_seq, written as the bus.replay reply
//  map into writer. BUS_OK or BUS_STATUS_INTERNAL.
int bus_outbox_replay(bus_outbox_t *self,
                      const char *domain,
                      uint64_t from_seq,
                      uint64_t max,
                      bus_writer_t *writer);

//  The last sequence number written in domain (0 when none).
uint64_t bus_outbox_head(bus_outbox_t *self, const char *domain);

//  One domain's stream as /metrics shows it.
typedef struct {
    char domain[BUS_OUTBOX_DOMAIN_MAX];
    uint64_t head;      //  the last sequence number written (0: none)
    uint64_t first;     //  the oldest one still kept for replay (0: none)
    uint64_t published; //  the last one sent live (after a restart: the head then)
} bus_outbox_stream_t;

//  Fills out with the streams of up to max domains this outbox holds or has
//  written, in no particular order. Returns how many.
size_t bus_outbox_streams(bus_outbox_t *self, bus_outbox_stream_t *out, size_t max);

//  Deletes all but the newest retain events of every domain. Returns rows
//  deleted or -1.
int bus_outbox_trim(bus_outbox_t *self, int64_t retain);

//  The domain of a topic ("kernel" of "kernel.started") into out; false
//  when the topic has no dot or the domain is too long.
bool bus_topic_domain(const char *topic, char *out, size_t out_size);

#endif
