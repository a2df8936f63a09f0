/*  =========================================================================
    gw_health - GET /healthz: every service the gateway can reach

    The gateway asks the registry for the peers on the bus, calls
    service.health on each of them at once, and answers when all have
    answered or timed out: 200 {"status": "ok", ...} when every kind of
    service has at least one peer up, else 503 {"status": "degraded"}.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_HEALTH_H_INCLUDED
#define GW_HEALTH_H_INCLUDED

#include "gw_request.h"

struct evhttp_request;

//  The services a complete installation runs; /healthz reports each.
#define GW_HEALTH_SERVICES                                                               \
    {                                                                                    \
        "gateway", "scheduler", "agent", "storage-proxy", "wsproxy", "accounting"        \
    }

void gw_health_handle(gw_request_t *r);

#endif
