/*  =========================================================================
    gw_events - session lifecycle events, as the gateway hears them

    The gateway follows the scheduler's durable session.lifecycle events
    (every one, in order, across restarts of either side) and hands each
    to whoever listens at that moment: the /events/session streams, and
    anything else that waits for a session to change.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_EVENTS_H_INCLUDED
#define GW_EVENTS_H_INCLUDED

#include "bus.h"

typedef struct _gw_events_t gw_events_t;
typedef struct _gw_events_listener_t gw_events_listener_t;

//  One event; valid during the call. A listener may stop listening (itself
//  or another) from inside the call.
typedef void(gw_events_fn)(const proto_session_lifecycle_t *event, void *arg);

//  Follows the node's session events (durable, domain "session"). NULL
//  when that fails.
gw_events_t *gw_events_new(bus_node_t *node);

//  Frees the listeners that are left (their owners are told nothing).
void gw_events_destroy(gw_events_t **self_p);

//  Calls fn with every event from now on until gw_events_unlisten. NULL
//  when out of memory.
gw_events_listener_t *gw_events_listen(gw_events_t *self, gw_events_fn *fn, void *arg);

//  Stops a listener; idempotent, NULLs the pointer.
void gw_events_unlisten(gw_events_t *self, gw_events_listener_t **listener_p);

#endif
