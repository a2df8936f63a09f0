/*  =========================================================================
    bus_sub - SUB socket with a prefix routing table

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

#define SUB_ROUTES_MAX 64

typedef struct {
    char prefix[BUS_TOPIC_MAX];
    size_t prefix_len;
    bus_sub_fn *fn;
    void *arg;
} sub_route_t;

struct _bus_sub_t {
    zsock_t *socket;
    void *handle;
    bus_event_buf_t *buf;
    sub_route_t routes[SUB_ROUTES_MAX];
    int route_count;
    uint64_t malformed;
};

bus_sub_t *
bus_sub_new(const char *hub_endpoint, const bus_curve_t *curve)
{
    bus_sub_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->socket = bus_socket_connect(ZMQ_SUB, hub_endpoint, curve);
    self->buf = bus_event_buf_new();
    if (!self->socket || !self->buf) {
        bus_sub_destroy(&self);
        return NULL;
    }
    self->handle = zsock_resolve(self->socket);
    return self;
}

void
bus_sub_destroy(bus_sub_t **self_p)
{
    assert(self_p);
    if (*self_p) {
        zsock_destroy(&(*self_p)->socket);
        bus_event_buf_destroy(&(*self_p)->buf);
        free(*self_p);
        *self_p = NULL;
    }
}

zsock_t *
bus_sub_sock(bus_sub_t *self)
{
    return self->socket;
}

int
bus_sub_subscribe(bus_sub_t *self, const char *prefix, bus_sub_fn *fn, void *arg)
{
    if (self->route_count == SUB_ROUTES_MAX || strlen(prefix) >= BUS_TOPIC_MAX)
        return -1;
    sub_route_t *route = &self->routes[self->route_count++];
    snprintf(route->prefix, sizeof route->prefix, "%s", prefix);
    route->prefix_len = strlen(prefix);
    route->fn = fn;
    route->arg = arg;
    zsock_set_subscribe(self->socket, prefix);
    return 0;
}

int
bus_sub_recv(bus_sub_t *self, bus_event_t *event, bus_error_t *err)
{
    int rc = bus_event_recv(self->handle, self->buf, event, err);
    if (rc == BUS_STATUS_PROTOCOL)
        self->malformed++;
    return rc;
}

int
bus_sub_dispatch(bus_sub_t *self, int max)
{
    int received = 0;
    bus_event_t event;
    bus_error_t err;
    while (max == 0 || received < max) {
        int rc = bus_sub_recv(self, &event, &err);
        if (rc == BUS_STATUS_UNAVAILABLE)
            break;
        received++;
        if (rc != BUS_OK) {
            bus_log_warning("event dropped reason=\"%s\"", err.detail);
            continue;
        }
        for (int i = 0; i < self->route_count; i++) {
            sub_route_t *route = &self->routes[i];
            if (strncmp(event.topic, route->prefix, route->prefix_len) == 0)
                route->fn(route->arg, &event);
        }
    }
    return received;
}

uint64_t
bus_sub_malformed(bus_sub_t *self)
{
    return self->malformed;
}
