/*  =========================================================================
    gw_activity - telling the scheduler a session is in use

    The scheduler ends a session idle for its keypair policy's
    idle_timeout. Only the gateway sees a user use a session: every route
    that reaches a running session's kernel (execute, files, logs, the
    execute and terminal streams when they open) and every frame a user
    sends on a terminal or execute stream. Each use publishes an ephemeral
    session.activity, at most once a second per session, so a busy
    terminal does not flood the bus; a lost one is made up by the next.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_ACTIVITY_H_INCLUDED
#define GW_ACTIVITY_H_INCLUDED

#include "bus.h"

#define GW_ACTIVITY_MIN_MS 1000 //  one session.activity per session at most this often

typedef struct _gw_activity_t gw_activity_t;

gw_activity_t *gw_activity_new(bus_node_t *node);
void gw_activity_destroy(gw_activity_t **self_p);

//  Records that session_id was used now. self may be NULL (offline).
void gw_activity_touch(gw_activity_t *self, const char *session_id);

#endif
