/*  =========================================================================
    gw_accesslog - every request, as a durable gateway.access event

    Each request the gateway answers is recorded in its outbox and so
    reaches accounting exactly once. Writing one SQLite transaction per
    request was almost half the cost of a small request, so records are
    queued and written together: one transaction per GW_ACCESSLOG_FLUSH_MS
    (or per GW_ACCESSLOG_BATCH records, whichever comes first), and on stop.
    A crash loses at most that window of access records; nothing else.
    The same transaction adds each keypair's requests of the batch to its
    num_queries and sets its last_used, as Backend.AI keeps them.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_ACCESSLOG_H_INCLUDED
#define GW_ACCESSLOG_H_INCLUDED

#include "bus.h"

#define GW_ACCESSLOG_FLUSH_MS 5
#define GW_ACCESSLOG_BATCH    512

typedef struct _gw_accesslog_t gw_accesslog_t;

gw_accesslog_t *gw_accesslog_new(bus_node_t *node);

//  Writes what is queued, then frees.
void gw_accesslog_destroy(gw_accesslog_t **self_p);

//  Queues one record (copied).
void gw_accesslog_add(gw_accesslog_t *self, const proto_gateway_access_t *access);

//  Writes every queued record in one transaction.
void gw_accesslog_flush(gw_accesslog_t *self);

#endif
