/*  =========================================================================
    bus_pub - publishing events to the hub

    Ephemeral events (heartbeats, stats) go straight out and may be lost, as
    ZeroMQ PUB/SUB may drop by design. Events that carry a state change go
    through the publisher's outbox instead (bus_outbox), which sends them
    through this same socket once their transaction commits.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_PUB_H_INCLUDED
#define BUS_PUB_H_INCLUDED

#include "bus_envelope.h"
#include "bus_socket.h"

typedef struct _bus_pub_t bus_pub_t;

//  Connects a PUB socket to the hub's publish endpoint. src ("service/node")
//  goes into every header. Caller owns return value.
bus_pub_t *
bus_pub_new(const char *hub_endpoint, const char *src, const bus_curve_t *curve);

void bus_pub_destroy(bus_pub_t **self_p);

const char *bus_pub_src(bus_pub_t *self);

//  Publishes an ephemeral event; body is the msgpack of the topic's schema.
//  The current log correlation id goes into the header. 0, or -1 when the
//  queue to the hub is full (the event is dropped and counted).
int bus_pub_send(bus_pub_t *self, const char *topic, const void *body, size_t body_size);

//  Publishes an event whose header is already encoded (the outbox).
int bus_pub_send_raw(bus_pub_t *self,
                     const char *topic,
                     const void *header,
                     size_t header_size,
                     const void *body,
                     size_t body_size);

//  The socket (to set linger before closing). Borrowed.
zsock_t *bus_pub_sock(bus_pub_t *self);

//  Events dropped because the queue was full.
uint64_t bus_pub_dropped(bus_pub_t *self);

#endif
