/*  =========================================================================
    gw_accesslog - queued access records, written in batches

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

struct _gw_accesslog_t {
    bus_node_t *node;
    bus_writer_t *queue; //  encoded records back to back
    size_t *ends;        //  where each record ends in queue
    size_t count;
    struct event *timer;
};

static void
s_on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    gw_accesslog_flush(arg);
}

gw_accesslog_t *
gw_accesslog_new(bus_node_t *node)
{
    gw_accesslog_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->node = node;
    self->queue = bus_writer_new();
    self->ends = calloc(GW_ACCESSLOG_BATCH, sizeof *self->ends);
    self->timer = evtimer_new(bus_node_base(node), s_on_timer, self);
    if (!self->queue || !self->ends || !self->timer) {
        gw_accesslog_destroy(&self);
        return NULL;
    }
    return self;
}

void
gw_accesslog_destroy(gw_accesslog_t **self_p)
{
    assert(self_p);
    gw_accesslog_t *self = *self_p;
    if (self) {
        if (self->queue && self->ends)
            gw_accesslog_flush(self);
        if (self->timer)
            event_free(self->timer);
        bus_writer_destroy(&self->queue);
        free(self->ends);
        free(self);
        *self_p = NULL;
    }
}

void
gw_accesslog_flush(gw_accesslog_t *self)
{
    if (self->count == 0)
        return;
    evtimer_del(self->timer);
    const uint8_t *data = bus_writer_data(self->queue);
    bus_node_begin(self->node);
    size_t start = 0;
    for (size_t i = 0; i < self->count; i++) {
        if (!bus_node_emit(self->node, PROTO_GATEWAY_ACCESS, data + start,
                           self->ends[i] - start))
            bus_log_error("access record lost");
        start = self->ends[i];
    }
    if (bus_node_commit(self->node) != 0)
        bus_log_error("access records lost count=%zu", self->count);
    bus_writer_reset(self->queue);
    self->count = 0;
}

void
gw_accesslog_add(gw_accesslog_t *self, const proto_gateway_access_t *access)
{
    if (proto_gateway_access_write(access, self->queue) != 0) {
        bus_log_error("access record not encodable path=%s", access->path);
        return;
    }
    self->ends[self->count++] = bus_writer_size(self->queue);
    if (self->count == GW_ACCESSLOG_BATCH)
        gw_accesslog_flush(self);
    else if (self->count == 1) {
        struct timeval tv = {0, GW_ACCESSLOG_FLUSH_MS * 1000};
        evtimer_add(self->timer, &tv);
    }
}
