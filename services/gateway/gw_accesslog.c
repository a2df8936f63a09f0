/*  =========================================================================
    gw_accesslog - queued access records, written in batches

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  The requests of one keypair in a batch, for its num_queries and last_used
//  (Backend.AI counts every signed request in the keypair's row).
typedef struct {
    uint64_t requests;
    int64_t last_us;
} key_use_t;

struct _gw_accesslog_t {
    bus_node_t *node;
    bus_writer_t *queue; //  encoded records back to back
    size_t *ends;        //  where each record ends in queue
    size_t count;
    zhashx_t *uses; //  access key -> key_use_t, for this batch
    struct event *timer;
};

static void
s_free_use(void **item_p)
{
    free(*item_p);
    *item_p = NULL;
}

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
    self->uses = zhashx_new();
    if (self->uses)
        zhashx_set_destructor(self->uses, s_free_use);
    if (!self->queue || !self->ends || !self->timer || !self->uses) {
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
        zhashx_destroy(&self->uses);
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
    //  One update per keypair of the batch, in the same transaction.
    for (key_use_t *use = zhashx_first(self->uses); use; use = zhashx_next(self->uses)) {
        char when[40];
        gw_time_iso(use->last_us, when);
        if (gw_keypair_count_use(bus_node_db(self->node), zhashx_cursor(self->uses),
                                 (uint64_t) use->requests, when) != 0)
            bus_log_warning("keypair use not recorded");
    }
    zhashx_purge(self->uses);
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
    if (access->access_key && *access->access_key) {
        key_use_t *use = zhashx_lookup(self->uses, access->access_key);
        if (!use && (use = calloc(1, sizeof *use)) &&
            zhashx_insert(self->uses, access->access_key, use) != 0) {
            free(use);
            use = NULL;
        }
        if (use) {
            use->requests++;
            if (access->ts > use->last_us)
                use->last_us = access->ts;
        }
    }
    if (self->count == GW_ACCESSLOG_BATCH)
        gw_accesslog_flush(self);
    else if (self->count == 1) {
        struct timeval tv = {0, GW_ACCESSLOG_FLUSH_MS * 1000};
        evtimer_add(self->timer, &tv);
    }
}
