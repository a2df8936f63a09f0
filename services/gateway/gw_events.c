/*  =========================================================================
    gw_events - session lifecycle events, as the gateway hears them

    Listeners are a plain list, walked for each event. A listener that
    stops during the walk is only marked (fn = NULL) and unlinked after it,
    so a stream may end itself, or another, while an event is delivered.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

struct _gw_events_listener_t {
    gw_events_fn *fn; //  NULL once stopped
    void *arg;
    gw_events_listener_t *next;
};

struct _gw_events_t {
    gw_events_listener_t *listeners;
    int walking; //  > 0 while an event is being handed out
};

//  Unlinks and frees stopped listeners; not while walking the list.
static void
s_sweep(gw_events_t *self)
{
    gw_events_listener_t **link = &self->listeners;
    while (*link) {
        gw_events_listener_t *listener = *link;
        if (listener->fn)
            link = &listener->next;
        else {
            *link = listener->next;
            free(listener);
        }
    }
}

//  Runs inside the inbox transaction; what listeners do with the event
//  (write to sockets) cannot fail it.
static int
s_apply(void *arg, bus_node_t *node, const bus_event_t *event)
{
    (void) node;
    gw_events_t *self = arg;
    if (strcmp(event->topic, PROTO_SESSION_LIFECYCLE) != 0 || !self->listeners)
        return 0;
    proto_session_lifecycle_t lifecycle;
    bus_error_t err = {0};
    if (proto_session_lifecycle_decode(&lifecycle, event->body, event->body_size, &err) !=
        BUS_OK) {
        bus_log_error("session event malformed; skipped src=%s seq=%" PRIu64
                      " reason=\"%s\"",
                      event->header.src, event->header.seq, err.detail);
        return 0;
    }
    self->walking++;
    for (gw_events_listener_t *listener = self->listeners; listener;
         listener = listener->next)
        if (listener->fn)
            listener->fn(&lifecycle, listener->arg);
    if (--self->walking == 0)
        s_sweep(self);
    proto_session_lifecycle_clear(&lifecycle);
    return 0;
}

gw_events_t *
gw_events_new(bus_node_t *node)
{
    gw_events_t *self = calloc(1, sizeof *self);
    if (self && bus_node_follow(node, "session", s_apply, self) != 0)
        gw_events_destroy(&self);
    return self;
}

void
gw_events_destroy(gw_events_t **self_p)
{
    gw_events_t *self = *self_p;
    if (!self)
        return;
    for (gw_events_listener_t *listener = self->listeners; listener;
         listener = listener->next)
        listener->fn = NULL;
    s_sweep(self);
    free(self);
    *self_p = NULL;
}

gw_events_listener_t *
gw_events_listen(gw_events_t *self, gw_events_fn *fn, void *arg)
{
    assert(self && fn);
    gw_events_listener_t *listener = calloc(1, sizeof *listener);
    if (!listener)
        return NULL;
    listener->fn = fn;
    listener->arg = arg;
    listener->next = self->listeners;
    self->listeners = listener;
    return listener;
}

void
gw_events_unlisten(gw_events_t *self, gw_events_listener_t **listener_p)
{
    gw_events_listener_t *listener = *listener_p;
    if (!listener)
        return;
    listener->fn = NULL;
    *listener_p = NULL;
    if (self && self->walking == 0)
        s_sweep(self);
}
