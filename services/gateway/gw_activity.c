/*  =========================================================================
    gw_activity - telling the scheduler a session is in use

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define FORGET_AFTER 4096 //  sessions remembered before the table is cleared

struct _gw_activity_t {
    bus_node_t *node;
    zhashx_t *sent; //  session id -> when it was last announced (monotonic ms)
};

gw_activity_t *
gw_activity_new(bus_node_t *node)
{
    gw_activity_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->node = node;
    self->sent = zhashx_new();
    if (!self->sent) {
        free(self);
        return NULL;
    }
    return self;
}

void
gw_activity_destroy(gw_activity_t **self_p)
{
    assert(self_p);
    if (*self_p) {
        zhashx_destroy(&(*self_p)->sent);
        free(*self_p);
        *self_p = NULL;
    }
}

void
gw_activity_touch(gw_activity_t *self, const char *session_id)
{
    if (!self || !session_id)
        return;
    int64_t now = bus_clock_mono_ms();
    int64_t last = (int64_t) (intptr_t) zhashx_lookup(self->sent, session_id);
    if (last && now - last < GW_ACTIVITY_MIN_MS)
        return;
    //  Ended sessions are never removed one by one: the table is cleared
    //  when it grows, which costs at most one extra event per session.
    if (zhashx_size(self->sent) >= FORGET_AFTER)
        zhashx_purge(self->sent);
    zhashx_update(self->sent, session_id, (void *) (intptr_t) (now ? now : 1));
    proto_session_activity_t event;
    proto_session_activity_init(&event);
    event.session_id = session_id;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_session_activity_write(&event, writer) == 0)
        bus_node_publish(self->node, PROTO_SESSION_ACTIVITY, bus_writer_data(writer),
                         bus_writer_size(writer));
    bus_writer_destroy(&writer);
}
