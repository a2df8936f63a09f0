/*  =========================================================================
    gw_http - the HTTP front door: listener, route table, replies

    Requests are dispatched through one table of (method, path, handler).
    Every request goes to gw_request_dispatch with the table in gw_routes.c.
    Every reply carries "Server: BackendAI" and is JSON or problem+json.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_HTTP_H_INCLUDED
#define GW_HTTP_H_INCLUDED

#include "bus.h"
#include "gw_server.h"

struct evhttp_request;

#define GW_HTTP_BODY_BACKSTOP 4 //  libevent drops bodies over this many times the limit

//  Binds the API listener and installs the routes. 0 or -1 with err.
int
gw_http_start(gw_server_t *gw, const char *listen, int64_t max_body, bus_error_t *err);

void gw_http_stop(gw_server_t *gw);

//  Sends body (reference stolen; NULL sends {}) with status and content
//  type (NULL = application/json). Ends the request.
void gw_http_reply_json(struct evhttp_request *req,
                        int status,
                        json_t *body,
                        const char *content_type);

//  "GET", "POST", ... of req.
const char *gw_http_method_name(struct evhttp_request *req);

#endif
