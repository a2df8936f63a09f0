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
//  The body limit of routes that take files (a session upload: 20 files of
//  up to 1 MiB, as Backend.AI allows, and their multipart framing), which
//  is larger than api.max_body_bytes.
#define GW_HTTP_UPLOAD_MAX (21 * 1024 * 1024)
//  Seconds a connection may stall (no byte read while a request comes in, or
//  written while a reply waits to go out) before it is dropped.
#define GW_HTTP_STALL_S 60

#define GW_HTTP_ENDPOINT_SIZE 300 //  "host:port"

typedef struct _gw_http_t gw_http_t;

//  What a listener hands each request to.
typedef void(gw_http_dispatch_fn)(gw_server_t *gw, struct evhttp_request *req);

//  A listener: the API's (api.*) or the web listener's (web.*).
typedef struct {
    const char *name;     //  "api" or "web": the options' prefix, for errors
    const char *listen;   //  "host:port", port 0: any
    const char *tls_cert; //  PEM chain; NULL or "": plain HTTP
    const char *tls_key;
    int64_t max_body;
    gw_http_dispatch_fn *dispatch;
} gw_http_opts_t;

//  Binds a listener of gw as opts say (copied). NULL with err.
gw_http_t *gw_http_new(gw_server_t *gw, const gw_http_opts_t *opts, bus_error_t *err);

//  The API listener's dispatch: every request through gw_routes.
void gw_http_dispatch_api(gw_server_t *gw, struct evhttp_request *req);

//  Closes the long-lived connections (WebSockets, event streams, runs
//  whose clients left), then the listener.
void gw_http_destroy(gw_http_t **self_p);

//  "host:port" the API listens on, the port resolved.
const char *gw_http_endpoint(const gw_http_t *self);

//  Whether the API speaks HTTPS.
bool gw_http_tls(const gw_http_t *self);

//  Sends body (reference stolen; NULL sends {}) with status and content
//  type (NULL = application/json). Ends the request.
void gw_http_reply_json(struct evhttp_request *req,
                        int status,
                        json_t *body,
                        const char *content_type);

//  "GET", "POST", ... of req.
//  The same with bytes of content_type (copied).
void gw_http_reply_bytes(struct evhttp_request *req,
                         int status,
                         const char *content_type,
                         const void *data,
                         size_t size);

const char *gw_http_method_name(struct evhttp_request *req);

#endif
