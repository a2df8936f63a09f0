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
#include "gw_server.h"

typedef struct _gw_events_listener_t gw_events_listener_t;

//  One event; valid during the call. A listener may stop listening (itself
//  or another) from inside the call.
typedef void(gw_events_fn)(const proto_session_lifecycle_t *event, void *arg);

//  Starts following session events. 0 or -1.
int gw_events_init(gw_server_t *gw);

//  Frees the listeners that are left (their owners are told nothing).
void gw_events_fini(gw_server_t *gw);

//  Calls fn with every event from now on until gw_events_unlisten. NULL
//  when out of memory.
gw_events_listener_t *gw_events_listen(gw_server_t *gw, gw_events_fn *fn, void *arg);

//  Stops a listener; idempotent, NULLs the pointer.
void gw_events_unlisten(gw_server_t *gw, gw_events_listener_t **listener_p);

#endif
