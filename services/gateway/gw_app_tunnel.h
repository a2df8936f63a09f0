/*  =========================================================================
    gw_app_tunnel - GET /stream/session/{s}/tcpproxy and /httpproxy: one
    TCP connection to an app of the session over one WebSocket

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_APP_TUNNEL_H_INCLUDED
#define GW_APP_TUNNEL_H_INCLUDED

#include "gw_request.h"

void gw_app_tunnel_handle(gw_request_t *r);

#endif
