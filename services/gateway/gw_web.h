/*  =========================================================================
    gw_web - the web listener: Backend.AI's "webserver" role inside the
    gateway

    A second evhttp listener (web.listen) on the gateway's loop, with the
    gateway's state and route table. What a request reaches depends on its
    path:
        /func, /func/X     the API route /X (gw_routes), through the same
                           pipeline as on the API listener, authenticated
                           by the login cookie: no proxy hop, so
                           WebSockets and event streams work as they do
                           there
        /server/...        the login routes (gw_web_routes: gw_login)
        /config.toml       the configuration Backend.AI's web UI 22.03 reads
        anything else      a file of the UI beneath web.root (GET, HEAD),
                           or index.html for a path that names no file
                           (a single-page app's own routes)
    Every answer carries the security headers (Content-Security-Policy
    without inline script, X-Frame-Options, X-Content-Type-Options,
    Referrer-Policy). State-changing requests that are not signed are
    checked against the listener's origin (gw_request's origin stage,
    gw_web_guard).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_WEB_H_INCLUDED
#define GW_WEB_H_INCLUDED

#include "gw_request.h"

typedef struct _gw_web_t gw_web_t;

//  The prefix under which the web listener serves the API.
#define GW_WEB_API_PREFIX "/func"
//  Where the UI's files are when web.root is empty: beside the binary's
//  directory, as `make install` lays out PREFIX/bin and PREFIX/share, and
//  the build tree build/bin and build/share.
#define GW_WEB_ROOT_DEFAULT "../share/backplane/webui"
//  The largest file the listener serves (a bundle, a font).
#define GW_WEB_FILE_MAX (64 * 1024 * 1024)

//  Starts the web listener of gw as its config says (web.listen; NULL with
//  no error when it is ""). NULL with err on failure.
gw_web_t *gw_web_new(gw_server_t *gw, bus_error_t *err);

//  Closes the listener (after the long-lived connections, as gw_http).
void gw_web_destroy(gw_web_t **self_p);

//  "host:port" the web listener listens on, the port resolved.
const char *gw_web_endpoint(const gw_web_t *self);

//  Whether it speaks HTTPS.
bool gw_web_tls(const gw_web_t *self);

//  The directory the UI's files are served from (resolved at start).
const char *gw_web_root(const gw_web_t *self);

//  Pipeline stage (gw_request): a request that is not signed and changes
//  state (POST, PUT, PATCH, DELETE) or opens a WebSocket must come from
//  the listener's own origin, on either listener. True to go on; false
//  when a 403 went out.
bool gw_web_admit(gw_request_t *r);

//  GET /config.toml: what Backend.AI's web UI reads at start.
void gw_web_handle_config_toml(gw_request_t *r);

#endif
