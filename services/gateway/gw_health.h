/*  =========================================================================
    gw_health - GET /healthz: every service the gateway can reach

    The gateway asks the registry for the peers on the bus, calls
    service.health on each of them at once, and when all have answered or
    timed out, says:
      "status": "ok" when every kind of service has at least one peer up
        ("degraded" and the kinds in "missing" otherwise);
      "ready": true when, besides, the gateway's own views are filled, so
        that any request works now: every service is in the peer list it
        calls with, it knows the volumes of every storage-proxy, the
        scheduler has an alive agent with capacity, and the image catalogue
        of every agent on the bus has reached it; "waiting" lists what is
        not there yet.
    The HTTP status is 200 only when ready, else 503: what a supervisor, a
    load balancer or `make run` waits for.

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
