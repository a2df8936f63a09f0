/*  =========================================================================
    gw_endpoint_proxy - a model service's URL on the wsproxy, kept in step
    with its healthy routes

    Backend.AI's manager pushes an endpoint's healthy routes to its proxy on
    every change and stores the URL the proxy answers (reference part 2
    §C.5); so does this. For each route that is HEALTHY, the address where
    the proxy reaches its model is asked for once: the session's main
    kernel (session.get), then its agent publishes the model's port as a
    preopen service (kernel.start_service, which answers the host port the
    agent published it on, or the kernel's address when it publishes
    none). The healthy routes whose addresses are known go to the wsproxy
    (wsproxy.endpoint.set: route, session, host, port, traffic ratio),
    when that set changed since the last push (compared as the request's
    bytes) and at least every GW_ENDPOINT_PROXY_REFRESH_MS; a route whose
    address is still being asked for joins in a later push; the URL it answers becomes the
   endpoint's url (Backend.AI's service_endpoint), which stays the same for as long as the
   endpoint lives. A destroyed endpoint's URL goes (wsproxy.endpoint.remove), and it is
   destroyed only once the wsproxy confirmed it. Without a wsproxy on the bus nothing is
    pushed and url stays null, as Backend.AI's does without a proxy.

    Driven by gw_endpoint_reconcile's passes, which own it.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_ENDPOINT_PROXY_H_INCLUDED
#define GW_ENDPOINT_PROXY_H_INCLUDED

#include "bus.h"

#define GW_ENDPOINT_PROXY_REFRESH_MS 30000 //  a push even when nothing changed

typedef struct _gw_endpoint_proxy_t gw_endpoint_proxy_t;
typedef struct _gw_server_t gw_server_t;

//  Called when an address was learnt, so that a pass pushes it soon.
typedef void(gw_endpoint_proxy_kick_fn)(void *arg);

//  NULL when out of memory.
gw_endpoint_proxy_t *
gw_endpoint_proxy_new(gw_server_t *gw, gw_endpoint_proxy_kick_fn *kick, void *arg);

//  Calls in flight find it gone and do nothing. Safe on NULL.
void gw_endpoint_proxy_destroy(gw_endpoint_proxy_t **self_p);

//  One pass over endpoint (its row) and its routes (their rows): addresses
//  asked for, the healthy set pushed when due.
void gw_endpoint_proxy_sync(gw_endpoint_proxy_t *self, json_t *endpoint, json_t *routes);

//  Forgets what was pushed for endpoint_id: the next sync pushes it again.
void gw_endpoint_proxy_forget(gw_endpoint_proxy_t *self, const char *endpoint_id);

//  For a destroying endpoint (its row) with no route left: true once its
//  URL is gone from the wsproxy (or it never had one, or no wsproxy is
//  there to ask); until then asks the wsproxy to remove it
//  (wsproxy.endpoint.remove, again at a later call when refused) and
//  answers false, so that the endpoint stays destroying meanwhile.
bool gw_endpoint_proxy_removed(gw_endpoint_proxy_t *self, json_t *endpoint);

#endif
