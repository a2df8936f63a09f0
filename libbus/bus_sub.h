/*  =========================================================================
    bus_sub - subscribing to events through the hub

    One SUB socket per process, connected to the hub's subscribe side, and a
    table of (topic prefix, handler). Each received event goes to every
    handler whose prefix it starts with. Durable delivery (ordering, gaps,
    replay) is layered on top by bus_node with bus_inbox; this module only
    receives and routes.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_SUB_H_INCLUDED
#define BUS_SUB_H_INCLUDED

#include "bus_envelope.h"
#include "bus_socket.h"

typedef struct _bus_sub_t bus_sub_t;

//  Called with each event that matches; event is borrowed.
typedef void(bus_sub_fn)(void *arg, const bus_event_t *event);

bus_sub_t *bus_sub_new(const char *hub_endpoint, const bus_curve_t *curve);

void bus_sub_destroy(bus_sub_t **self_p);

zsock_t *bus_sub_sock(bus_sub_t *self);

//  Subscribes to prefix ("" = everything) and routes matches to fn. 0 or -1.
int bus_sub_subscribe(bus_sub_t *self, const char *prefix, bus_sub_fn *fn, void *arg);

//  Receives and routes every event waiting, up to max (0 = no limit).
//  Malformed events are counted and dropped. Returns the number received.
int bus_sub_dispatch(bus_sub_t *self, int max);

//  Receives one event without routing it (tests and tools). BUS_OK,
//  BUS_STATUS_UNAVAILABLE when none is waiting, or BUS_STATUS_PROTOCOL.
int bus_sub_recv(bus_sub_t *self, bus_event_t *event, bus_error_t *err);

uint64_t bus_sub_malformed(bus_sub_t *self);

#endif
