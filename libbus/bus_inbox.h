/*  =========================================================================
    bus_inbox - the subscriber side of durable events: one cursor per
    (publisher, domain), persisted with the changes it applied

    A cursor holds the publisher's epoch and the last sequence number
    applied. An event is applied, and its cursor advanced, in one
    transaction of the subscriber's database, so after a crash the cursor
    says exactly what was applied. Each event id maps to one (publisher,
    epoch, sequence), so comparing sequences is the idempotence check: an
    event already applied is recognised and skipped, never applied twice.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_INBOX_H_INCLUDED
#define BUS_INBOX_H_INCLUDED

#include "bus_db.h"
#include "bus_envelope.h"

#define BUS_INBOX_DOMAIN_MAX 64 //  as BUS_OUTBOX_DOMAIN_MAX
//  At most one log line per stream in this long about the duplicates
//  ignored (a catch-up meets some as a matter of course; a message
//  replayed from another host is one too).
#define BUS_INBOX_DUPLICATE_LOG_MS 10000

typedef struct _bus_inbox_t bus_inbox_t;

typedef enum {
    BUS_INBOX_APPLY,     //  the next event of its stream: apply it
    BUS_INBOX_DUPLICATE, //  already applied: skip it
    BUS_INBOX_GAP        //  events are missing before it: replay first
} bus_inbox_verdict_t;

typedef struct {
    char src[BUS_SRC_MAX];             //  the publisher, "service/node"
    char domain[BUS_INBOX_DOMAIN_MAX]; //  "session", "kernel", ...
    uint64_t epoch;
    uint64_t seq;
    uint64_t head; //  the publisher's last sequence number heard of (this epoch)
    int64_t behind_since_ms; //  monotonic: since when head > seq; 0 while caught up
    bool replaying;          //  a replay request is in flight (not persisted)
    int64_t replay_started_ms;
    uint64_t replay_round;       //  counts replay requests; the latest one's number
    char replay_endpoint[256];   //  where it went
    int64_t duplicate_logged_ms; //  monotonic: when a duplicate was last logged
    uint64_t duplicates;         //  duplicates ignored since then
} bus_inbox_cursor_t;

//  Creates the cursor table in db if needed and loads it. db stays owned
//  by the caller.
bus_inbox_t *bus_inbox_new(bus_db_t *db, bus_error_t *err);

void bus_inbox_destroy(bus_inbox_t **self_p);

//  The cursor of a stream, created at (0, 0) if new. Borrowed; valid until destroy.
bus_inbox_cursor_t *
bus_inbox_cursor(bus_inbox_t *self, const char *src, const char *domain);

//  The last sequence number of the stream applied and committed, 0 when
//  none ever was. Creates nothing.
uint64_t bus_inbox_applied(bus_inbox_t *self, const char *src, const char *domain);

//  Notes that the publisher src has written domain's stream up to head
//  under epoch (a live event's seq, a replay's head), for the lag /metrics
//  shows. Ignored for an epoch the cursor does not follow (yet).
void bus_inbox_seen(bus_inbox_t *self,
                    const char *src,
                    const char *domain,
                    uint64_t epoch,
                    uint64_t head);

//  Iterates the cursors, in no particular order: the first, then the next
//  (NULL at the end). Borrowed; no cursor may be added meanwhile.
const bus_inbox_cursor_t *bus_inbox_first(bus_inbox_t *self);
const bus_inbox_cursor_t *bus_inbox_next(bus_inbox_t *self);

//  Classifies a durable event against its cursor. A new epoch resets the
//  cursor (the publisher's database was rebuilt), logged as a warning.
bus_inbox_verdict_t bus_inbox_check(
    bus_inbox_t *self, const char *src, const char *domain, uint64_t epoch, uint64_t seq);

//  Records that (epoch, seq) was applied. Call inside the transaction that
//  applied the event; the in-memory cursor moves only once it commits,
//  through bus_inbox_committed. 0 or -1.
int bus_inbox_advance(
    bus_inbox_t *self, const char *src, const char *domain, uint64_t epoch, uint64_t seq);

//  After the transaction commits: makes the advanced positions current.
//  After a rollback: bus_inbox_discard forgets them.
void bus_inbox_committed(bus_inbox_t *self);
void bus_inbox_discard(bus_inbox_t *self);

#endif
