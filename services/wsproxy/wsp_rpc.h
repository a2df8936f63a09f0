/*  =========================================================================
    wsp_rpc - the wsproxy.* methods on the wsproxy's node

      wsproxy.close {session_id} -> {routes, connections}
            closes the session's routes and their connections at once
            (the gateway or the scheduler calls it when a session ends)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef WSP_RPC_H_INCLUDED
#define WSP_RPC_H_INCLUDED

#include "bus.h"
#include "wsp_routes.h"

typedef struct _wsp_rpc_t wsp_rpc_t;

//  Serves the methods on node over routes (borrowed; both outlive it).
//  Caller owns return value. NULL with err.
wsp_rpc_t *wsp_rpc_new(bus_node_t *node, wsp_routes_t *routes, bus_error_t *err);

//  Idempotent, NULLs the pointer.
void wsp_rpc_destroy(wsp_rpc_t **self_p);

#endif
