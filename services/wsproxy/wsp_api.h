/*  =========================================================================
    wsp_api - the wsproxy's API: what the web UI and the gateway ask it

      GET /, /status, /v2/status
            {"api_version": "v2", "wsproxy": VERSION, "advertise_address":
             "http://host:port", "routes": N, "connections": N}
      GET /v2/conf
            what the web UI and operators read of its configuration:
            {"api_version", "advertise_address", "app_host", "app_ports",
             "permit_cookie", "permit_path", "token": "bus_apptoken"}
      GET /v2/proxy/{token}/{session}/add?app=APP[&protocol=..][&redirect=..]
            checks the app token (bus_apptoken: signature, expiry, this
            session, this app), opens the route or reuses it, and answers
            {"code": 200, "url": "http://host:PORT/__wsproxy/permit?p=..",
             "port": PORT, "reuse": bool, "protocol": "http"|"tcp"}
            The URL serves the app at the root of its port once its one-
            time permit has become the route's cookie; it already holds a
            "?", so the web UI can append "&redirect=/tree". A tcp route's
            url is tcp://host:PORT.

    Every answer carries Access-Control-Allow-Origin: * (the web UI calls
    from its own origin). Refusals are problem+json with "code" too: 403
    for a forged, expired or misdirected token (another session, another
    app), 400 for a missing app, 503 without a token secret or a free
    port. Served by evhttp: small JSON documents, nothing to stream.
    With wsproxy.tls_cert the listener serves HTTPS (a bufferevent_openssl
    per connection on the routes' context) and every URL says https://.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef WSP_API_H_INCLUDED
#define WSP_API_H_INCLUDED

#include "bus.h"
#include "wsp_config.h"
#include "wsp_routes.h"

typedef struct _wsp_api_t wsp_api_t;

//  Binds wsproxy.listen on node's loop; routes are borrowed and outlive it.
//  Caller owns return value. NULL with err (a bad address, a port in use).
wsp_api_t *wsp_api_new(bus_node_t *node,
                       wsp_routes_t *routes,
                       const wsp_config_t *config,
                       bus_error_t *err);

//  Closes the listener. Idempotent, NULLs the pointer.
void wsp_api_destroy(wsp_api_t **self_p);

//  The API's URL: http(s)://<advertised host>:<bound port>.
const char *wsp_api_url(wsp_api_t *self);

#endif
