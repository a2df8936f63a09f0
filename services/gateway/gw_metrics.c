/*  =========================================================================
    gw_metrics - the gateway's lines of GET /metrics: requests by route

    One entry per (method, route) seen, in a hash keyed "METHOD route":
    its latency histogram and a short list of (status, count). Methods are
    the seven the gateway knows and routes come from the static table, so
    the entries are bounded by the table's size.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

typedef struct {
    int status; //  0: "other", the statuses past GW_METRICS_STATUSES_MAX
    uint64_t count;
} status_count_t;

typedef struct {
    char method[16];
    const char *route; //  static: the route table's pattern, or GW_METRICS_UNMATCHED
    bus_metrics_hist_t seconds;
    status_count_t statuses[GW_METRICS_STATUSES_MAX];
    size_t status_count;
} entry_t;

struct _gw_metrics_t {
    bus_node_t *node;
    zhashx_t *entries; //  "METHOD route" -> entry_t
};

static void
s_free_entry(void **item_p)
{
    free(*item_p);
    *item_p = NULL;
}

static void
s_write(void *arg, struct evbuffer *out)
{
    gw_metrics_t *self = arg;
    char labels[BUS_METRICS_LABELS_MAX];
    bus_metrics_family(out, "backplane_gateway_requests_total", "counter",
                       "HTTP requests answered, by method, route pattern and status");
    for (entry_t *entry = zhashx_first(self->entries); entry;
         entry = zhashx_next(self->entries))
        for (size_t i = 0; i < entry->status_count; i++) {
            char status[16];
            if (entry->statuses[i].status)
                snprintf(status, sizeof status, "%d", entry->statuses[i].status);
            else
                snprintf(status, sizeof status, "other");
            labels[0] = 0;
            bus_metrics_label(labels, sizeof labels, "method", entry->method);
            bus_metrics_label(labels, sizeof labels, "route", entry->route);
            bus_metrics_label(labels, sizeof labels, "status", status);
            bus_metrics_sample(out, "backplane_gateway_requests_total", labels,
                               (double) entry->statuses[i].count);
        }
    bus_metrics_family(out, "backplane_gateway_request_duration_seconds", "histogram",
                       "time from a request's arrival to its reply, by method and route");
    for (entry_t *entry = zhashx_first(self->entries); entry;
         entry = zhashx_next(self->entries)) {
        labels[0] = 0;
        bus_metrics_label(labels, sizeof labels, "method", entry->method);
        bus_metrics_label(labels, sizeof labels, "route", entry->route);
        bus_metrics_hist_write(&entry->seconds, out,
                               "backplane_gateway_request_duration_seconds", labels);
    }
}

gw_metrics_t *
gw_metrics_new(bus_node_t *node)
{
    assert(node);
    gw_metrics_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->node = node;
    self->entries = zhashx_new();
    if (!self->entries) {
        free(self);
        return NULL;
    }
    zhashx_set_destructor(self->entries, s_free_entry);
    bus_node_set_metrics(node, s_write, self);
    return self;
}

void
gw_metrics_destroy(gw_metrics_t **self_p)
{
    assert(self_p);
    gw_metrics_t *self = *self_p;
    if (self) {
        bus_node_set_metrics(self->node, NULL, NULL);
        zhashx_destroy(&self->entries);
        free(self);
        *self_p = NULL;
    }
}

void
gw_metrics_request(
    gw_metrics_t *self, const char *method, const char *route, int status, double seconds)
{
    if (!self)
        return;
    if (!route)
        route = GW_METRICS_UNMATCHED;
    char key[GW_PATH_MAX + 32];
    snprintf(key, sizeof key, "%s %s", method ? method : "", route);
    entry_t *entry = zhashx_lookup(self->entries, key);
    if (!entry) {
        entry = calloc(1, sizeof *entry);
        if (!entry)
            return;
        snprintf(entry->method, sizeof entry->method, "%s", method ? method : "");
        entry->route = route;
        bus_metrics_hist_init(&entry->seconds, bus_metrics_seconds_buckets,
                              BUS_METRICS_SECONDS_BUCKETS);
        zhashx_insert(self->entries, key, entry);
    }
    bus_metrics_hist_observe(&entry->seconds, seconds);
    size_t i = 0;
    while (i < entry->status_count && entry->statuses[i].status != status)
        i++;
    if (i == entry->status_count) {
        if (entry->status_count < GW_METRICS_STATUSES_MAX - 1)
            entry->statuses[entry->status_count++].status = status;
        else {
            //  The last slot is "other": every status past the list.
            i = GW_METRICS_STATUSES_MAX - 1;
            entry->statuses[i].status = 0;
            entry->status_count = GW_METRICS_STATUSES_MAX;
        }
    }
    entry->statuses[i].count++;
}
