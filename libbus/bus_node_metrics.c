/*  =========================================================================
    bus_node_metrics - the node's own lines of GET /metrics

    What every service shares, written once here: that it is up and for how
    long, what its bus dropped, applied, replayed and served, and per durable
    stream how deep its outbox is (the publisher's side) and how far behind
    each stream it follows it is (the subscriber's side). The service's own
    lines (bus_node_set_metrics) follow these.

    A stream's lag is what this node knows of its publisher's head: the
    last live event heard and the head every replay answer carries (the
    sync asks every peer each bus.sync_ms), so a lag hidden by lost events
    shows within one sync.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_node_private.h"

//  A counter or gauge of one sample labelled with the service only.
static void
s_node_sample(bus_node_t *self,
              struct evbuffer *out,
              const char *name,
              const char *type,
              const char *help,
              double value)
{
    char labels[BUS_METRICS_LABELS_MAX] = "";
    bus_metrics_label(labels, sizeof labels, "service", self->service);
    bus_metrics_family(out, name, type, help);
    bus_metrics_sample(out, name, labels, value);
}

//  The publisher's side: one sample per domain of each family.
static void
s_write_outbox(bus_node_t *self, struct evbuffer *out)
{
    bus_outbox_stream_t streams[NODE_METRICS_STREAMS_MAX];
    size_t count =
        self->outbox ? bus_outbox_streams(self->outbox, streams, NODE_METRICS_STREAMS_MAX)
                     : 0;
    static const struct {
        const char *name;
        const char *help;
    } families[] = {
        {"backplane_outbox_head_sequence",
         "last sequence number written to this service's outbox, per domain"},
        {"backplane_outbox_retained_events",
         "durable events kept in the outbox for replay, per domain"},
        {"backplane_outbox_unpublished_events",
         "durable events committed but not yet sent live, per domain"},
    };
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
        bus_metrics_family(out, families[f].name, "gauge", families[f].help);
        for (size_t i = 0; i < count; i++) {
            const bus_outbox_stream_t *stream = &streams[i];
            char labels[BUS_METRICS_LABELS_MAX] = "";
            bus_metrics_label(labels, sizeof labels, "service", self->service);
            bus_metrics_label(labels, sizeof labels, "domain", stream->domain);
            uint64_t value = stream->head;
            if (f == 1)
                value = stream->first ? stream->head - stream->first + 1 : 0;
            else if (f == 2)
                value = stream->head > stream->published
                            ? stream->head - stream->published
                            : 0;
            bus_metrics_sample(out, families[f].name, labels, (double) value);
        }
    }
}

//  The subscriber's side: per (publisher, domain) followed, how many
//  events behind, and for how long.
static void
s_write_lag(bus_node_t *self, struct evbuffer *out)
{
    if (!self->inbox)
        return;
    int64_t now_ms = bus_clock_mono_ms();
    static const struct {
        const char *name;
        const char *help;
    } families[] = {
        {"backplane_event_lag_events",
         "durable events a followed stream's publisher has written and this service "
         "has not applied"},
        {"backplane_event_lag_seconds",
         "how long this service has been behind a followed stream (0 when caught up)"},
    };
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
        bus_metrics_family(out, families[f].name, "gauge", families[f].help);
        for (const bus_inbox_cursor_t *cursor = bus_inbox_first(self->inbox); cursor;
             cursor = bus_inbox_next(self->inbox)) {
            char labels[BUS_METRICS_LABELS_MAX] = "";
            bus_metrics_label(labels, sizeof labels, "service", self->service);
            bus_metrics_label(labels, sizeof labels, "publisher", cursor->src);
            bus_metrics_label(labels, sizeof labels, "domain", cursor->domain);
            uint64_t behind = cursor->head > cursor->seq ? cursor->head - cursor->seq : 0;
            double value = (double) behind;
            if (f == 1)
                value = behind && cursor->behind_since_ms
                            ? (double) (now_ms - cursor->behind_since_ms) / 1000.0
                            : 0;
            bus_metrics_sample(out, families[f].name, labels, value);
        }
    }
}

void
node_metrics_write(bus_node_t *self, struct evbuffer *out)
{
    s_node_sample(self, out, "backplane_up", "gauge", "1 while the service answers", 1);
    s_node_sample(self, out, "backplane_uptime_seconds", "gauge",
                  "seconds since the service started",
                  (double) (bus_clock_mono_ms() - self->started_ms) / 1000.0);
    s_node_sample(self, out, "backplane_events_dropped_total", "counter",
                  "events not sent because the publish queue was full",
                  (double) bus_pub_dropped(self->pub));
    s_node_sample(self, out, "backplane_durable_applied_total", "counter",
                  "durable events applied as they arrived live",
                  (double) self->durable_applied);
    s_node_sample(self, out, "backplane_durable_replayed_total", "counter",
                  "durable events applied from a replay",
                  (double) self->durable_replayed);
    s_node_sample(self, out, "backplane_rpc_served_total", "counter",
                  "RPC requests this service answered", (double) self->rpc_served);
    s_write_outbox(self, out);
    s_write_lag(self, out);
    if (self->metrics_fn)
        self->metrics_fn(self->metrics_arg, out);
}
