/*  =========================================================================
    bus_hub - the XSUB/XPUB forwarder every event passes through

    Publishers connect PUB sockets to the hub's XSUB side, subscribers
    connect SUB sockets to its XPUB side, so N services and M agents make
    N + M connections instead of N x M. Subscriptions travel the other way,
    so the hub only forwards topics somebody wants. The hub runs in its own
    thread (a zactor); which service hosts it is a matter of configuration
    (bus.hub.enabled; the scheduler by default).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_HUB_H_INCLUDED
#define BUS_HUB_H_INCLUDED

#include "bus_socket.h"

typedef struct _bus_hub_t bus_hub_t;

//  Binds both sides (ports may be "*") and starts forwarding. Returns NULL
//  when a bind fails. Caller owns return value.
bus_hub_t *bus_hub_new(const char *publish_endpoint,
                       const char *subscribe_endpoint,
                       const bus_curve_t *curve);

void bus_hub_destroy(bus_hub_t **self_p);

//  Where publishers connect (the XSUB side), ports resolved. Borrowed.
const char *bus_hub_publish_endpoint(bus_hub_t *self);

//  Where subscribers connect (the XPUB side), ports resolved. Borrowed.
const char *bus_hub_subscribe_endpoint(bus_hub_t *self);

//  The same two sides for a socket of the hub's own process (inproc, no
//  CURVE: nothing leaves the process). Borrowed.
const char *bus_hub_local_publish_endpoint(bus_hub_t *self);
const char *bus_hub_local_subscribe_endpoint(bus_hub_t *self);

//  Events forwarded so far (approximate while running).
uint64_t bus_hub_forwarded(bus_hub_t *self);

#endif
