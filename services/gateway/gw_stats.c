/*  =========================================================================
    gw_stats - the last resource use of every running kernel

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

struct _gw_stats_t {
    zhashx_t *last; //  kernel id → proto_kernel_stats_t, the latest
    gw_events_t *events;
    gw_events_listener_t *listener;
};

static void
s_stats_destructor(void **item_p)
{
    proto_kernel_stats_t *stats = *item_p;
    if (stats) {
        proto_kernel_stats_clear(stats);
        free(stats);
        *item_p = NULL;
    }
}

static void
s_on_stats(void *arg, const bus_event_t *event)
{
    gw_stats_t *self = arg;
    proto_kernel_stats_t *stats = calloc(1, sizeof *stats);
    bus_error_t err = {0};
    if (!stats ||
        proto_kernel_stats_decode(stats, event->body, event->body_size, &err) != BUS_OK) {
        free(stats);
        return;
    }
    bool known = zhashx_lookup(self->last, stats->kernel_id) != NULL;
    if (!known && zhashx_size(self->last) >= GW_STATS_MAX) {
        s_stats_destructor((void **) &stats);
        return; //  full: kernels whose end was missed hold the room until restart
    }
    zhashx_update(self->last, stats->kernel_id, stats);
}

//  A kernel's end: its statistics are no longer wanted.
static void
s_on_lifecycle(const proto_session_lifecycle_t *event, void *arg)
{
    gw_stats_t *self = arg;
    if (event->kernel_id && (strcmp(event->event, "kernel_terminated") == 0 ||
                             strcmp(event->event, "kernel_cancelled") == 0))
        zhashx_delete(self->last, event->kernel_id);
}

gw_stats_t *
gw_stats_new(bus_node_t *node, gw_events_t *events)
{
    gw_stats_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->events = events;
    self->last = zhashx_new();
    if (self->last)
        zhashx_set_destructor(self->last, s_stats_destructor);
    if (self->last)
        self->listener = gw_events_listen(events, s_on_lifecycle, self);
    if (!self->listener ||
        bus_node_subscribe(node, PROTO_KERNEL_STATS, s_on_stats, self) != 0)
        gw_stats_destroy(&self);
    return self;
}

void
gw_stats_destroy(gw_stats_t **self_p)
{
    gw_stats_t *self = *self_p;
    if (!self)
        return;
    gw_events_unlisten(self->events, &self->listener);
    zhashx_destroy(&self->last);
    free(self);
    *self_p = NULL;
}

//  One metric as Backend.AI's version 2 stats give it: decimal strings.
static json_t *
s_metric(uint64_t current, uint64_t capacity, const char *unit, uint64_t peak)
{
    char text[32];
    snprintf(text, sizeof text, "%" PRIu64, current);
    json_t *metric = json_pack("{s:s, s:s}", "current", text, "unit_hint", unit);
    if (!metric)
        return NULL;
    if (capacity) {
        snprintf(text, sizeof text, "%" PRIu64, capacity);
        json_object_set_new(metric, "capacity", json_string(text));
        snprintf(text, sizeof text, "%.2f", 100.0 * (double) current / (double) capacity);
        json_object_set_new(metric, "pct", json_string(text));
    } else
        json_object_set_new(metric, "capacity", json_null());
    if (peak) {
        snprintf(text, sizeof text, "%" PRIu64, peak);
        json_object_set_new(metric, "stats.max", json_string(text));
    }
    return metric;
}

json_t *
gw_stats_last(gw_stats_t *self, const char *kernel_id)
{
    const proto_kernel_stats_t *stats =
        self && kernel_id ? zhashx_lookup(self->last, kernel_id) : NULL;
    if (!stats)
        return json_object();
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:i, s:s}", "cpu_used",
                     s_metric(stats->cpu_used_ns / 1000000, 0, "msec", 0), "mem",
                     s_metric(stats->mem_bytes, stats->mem_limit_bytes, "bytes",
                              stats->mem_peak_bytes),
                     "io_read", s_metric(stats->io_read_bytes, 0, "bytes", 0), "io_write",
                     s_metric(stats->io_write_bytes, 0, "bytes", 0), "pids",
                     s_metric(stats->pids, 0, "count", 0), "version", 2, "status",
                     "terminated");
}
