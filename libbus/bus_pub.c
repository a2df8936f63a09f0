/*  =========================================================================
    bus_pub - PUB socket to the hub, with header stamping

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

struct _bus_pub_t {
    zsock_t *socket;
    void *handle;
    char src[BUS_SRC_MAX];
    bus_writer_t *scratch;
    uint64_t dropped;
};

bus_pub_t *
bus_pub_new(const char *hub_endpoint, const char *src, const bus_curve_t *curve)
{
    bus_pub_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->socket = bus_socket_connect(ZMQ_PUB, hub_endpoint, curve);
    self->scratch = bus_writer_new();
    if (!self->socket || !self->scratch) {
        bus_pub_destroy(&self);
        return NULL;
    }
    self->handle = zsock_resolve(self->socket);
    snprintf(self->src, sizeof self->src, "%s", src);
    return self;
}

void
bus_pub_destroy(bus_pub_t **self_p)
{
    assert(self_p);
    if (*self_p) {
        zsock_destroy(&(*self_p)->socket);
        bus_writer_destroy(&(*self_p)->scratch);
        free(*self_p);
        *self_p = NULL;
    }
}

const char *
bus_pub_src(bus_pub_t *self)
{
    return self->src;
}

int
bus_pub_send(bus_pub_t *self, const char *topic, const void *body, size_t body_size)
{
    bus_header_t header;
    bus_header_init(&header, self->src);
    snprintf(header.corr, sizeof header.corr, "%s", bus_log_corr());
    if (bus_event_send(self->handle, topic, &header, body, body_size, self->scratch) !=
        0) {
        self->dropped++;
        return -1;
    }
    return 0;
}

int
bus_pub_send_raw(bus_pub_t *self,
                 const char *topic,
                 const void *header,
                 size_t header_size,
                 const void *body,
                 size_t body_size)
{
    if (bus_event_send_raw(self->handle, topic, header, header_size, body, body_size) !=
        0) {
        self->dropped++;
        return -1;
    }
    return 0;
}

uint64_t
bus_pub_dropped(bus_pub_t *self)
{
    return self->dropped;
}

zsock_t *
bus_pub_sock(bus_pub_t *self)
{
    return self->socket;
}
