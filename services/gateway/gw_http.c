/*  =========================================================================
    gw_http - evhttp listener, route table and JSON replies

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include <event2/bufferevent_ssl.h> //  HTTPS through libevent_openssl
#include <netinet/in.h>             //  sockaddr_in for the bound port
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/socket.h>

const char *
gw_http_method_name(struct evhttp_request *req)
{
    switch (evhttp_request_get_command(req)) {
        case EVHTTP_REQ_GET:
            return "GET";
        case EVHTTP_REQ_POST:
            return "POST";
        case EVHTTP_REQ_HEAD:
            return "HEAD";
        case EVHTTP_REQ_PUT:
            return "PUT";
        case EVHTTP_REQ_DELETE:
            return "DELETE";
        case EVHTTP_REQ_OPTIONS:
            return "OPTIONS";
        case EVHTTP_REQ_TRACE:
            return "TRACE";
        case EVHTTP_REQ_CONNECT:
            return "CONNECT";
        case EVHTTP_REQ_PATCH:
            return "PATCH";
        default:
            return "UNKNOWN";
    }
}

static const char *
s_reason(int status)
{
    switch (status) {
        case 200:
            return "OK";
        case 201:
            return "Created";
        case 204:
            return "No Content";
        case 400:
            return "Bad Request";
        case 401:
            return "Unauthorized";
        case 403:
            return "Forbidden";
        case 404:
            return "Not Found";
        case 405:
            return "Method Not Allowed";
        case 412:
            return "Precondition Failed";
        case 413:
            return "Payload Too Large";
        case 429:
            return "Too Many Requests";
        case 503:
            return "Service Unavailable";
        default:
            return status >= 500 ? "Internal Server Error" : "Error";
    }
}

//  Whether a reply may carry a body. libevent 2.1 writes whatever the
//  buffer holds after the headers, without a Content-Length, even where
//  HTTP forbids a body: the client would read it as the start of the next
//  response on the connection.
static bool
s_has_body(struct evhttp_request *req, int status)
{
    return status != 204 && status != 304 && status >= 200 &&
           evhttp_request_get_command(req) != EVHTTP_REQ_HEAD;
}

void
gw_http_reply_json(struct evhttp_request *req,
                   int status,
                   json_t *body,
                   const char *content_type)
{
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    struct evkeyvalq *headers = evhttp_request_get_output_headers(req);
    evhttp_add_header(headers, "Content-Type",
                      content_type ? content_type : "application/json");
    evhttp_add_header(headers, "Server", "BackendAI");
    struct evbuffer *out = evbuffer_new();
    if (out && s_has_body(req, status))
        evbuffer_add(out, text ? text : "{}", text ? strlen(text) : 2);
    evhttp_send_reply(req, status, s_reason(status), out);
    if (out)
        evbuffer_free(out);
    free(text);
    json_decref(body);
}

void
gw_http_reply_bytes(struct evhttp_request *req,
                    int status,
                    const char *content_type,
                    const void *data,
                    size_t size)
{
    struct evkeyvalq *headers = evhttp_request_get_output_headers(req);
    evhttp_add_header(headers, "Content-Type", content_type);
    evhttp_add_header(headers, "Server", "BackendAI");
    struct evbuffer *out = evbuffer_new();
    if (out && size && s_has_body(req, status))
        evbuffer_add(out, data, size);
    evhttp_send_reply(req, status, s_reason(status), out);
    if (out)
        evbuffer_free(out);
}

void
gw_http_dispatch_api(gw_server_t *gw, struct evhttp_request *req)
{
    gw_request_dispatch(gw, req, gw_routes);
}

//  Splits "host:port"; false when it is not that shape.
static bool
s_split_listen(const char *listen, char *host, size_t host_size, int *port)
{
    const char *colon = strrchr(listen, ':');
    if (!colon || (size_t) (colon - listen) >= host_size)
        return false;
    char *end = NULL;
    long value = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || *end || value < 0 || value > 65535)
        return false;
    memcpy(host, listen, (size_t) (colon - listen));
    host[colon - listen] = 0;
    *port = (int) value;
    return true;
}

//  Each accepted connection gets its own TLS session on the shared context.
static struct bufferevent *
s_tls_connection(struct event_base *base, void *arg)
{
    SSL *ssl = SSL_new(arg);
    return ssl ? bufferevent_openssl_socket_new(base, -1, ssl, BUFFEREVENT_SSL_ACCEPTING,
                                                BEV_OPT_CLOSE_ON_FREE)
               : NULL;
}

#define S_DRAIN_MS 50 //  how long a stop lets the last answers go out

struct _gw_http_t {
    gw_server_t *gw; //  whose requests it dispatches
    gw_http_dispatch_fn *dispatch;
    struct evhttp *evhttp;
    SSL_CTX *tls; //  when the API serves HTTPS, else NULL
    char endpoint[GW_HTTP_ENDPOINT_SIZE];
};

static void
s_dispatch(struct evhttp_request *req, void *arg)
{
    gw_http_t *self = arg;
    self->dispatch(self->gw, req);
}

gw_http_t *
gw_http_new(gw_server_t *gw, const gw_http_opts_t *opts, bus_error_t *err)
{
    assert(gw && opts && opts->dispatch);
    const char *listen = opts->listen;
    char host[256];
    int port;
    if (!s_split_listen(listen, host, sizeof host, &port)) {
        bus_error_set(err, BUS_STATUS_INVALID, "%s.listen '%s' is not host:port",
                      opts->name, listen);
        return NULL;
    }
    int64_t max_body = opts->max_body;
    gw_http_t *self = calloc(1, sizeof *self);
    if (self) {
        self->gw = gw;
        self->dispatch = opts->dispatch;
        self->evhttp = evhttp_new(bus_node_base(gw_server_node(gw)));
    }
    if (!self || !self->evhttp) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot create the HTTP server");
        gw_http_destroy(&self);
        return NULL;
    }
    //  Bodies over max_body get our own problem+json 413 (gw_request); libevent's
    //  own limit, which answers in HTML, is only the backstop against floods.
    int64_t backstop = max_body * GW_HTTP_BODY_BACKSTOP;
    if (backstop < GW_HTTP_UPLOAD_MAX * 2)
        backstop = GW_HTTP_UPLOAD_MAX * 2;
    evhttp_set_max_body_size(self->evhttp, (ev_ssize_t) backstop);
    evhttp_set_allowed_methods(self->evhttp, EVHTTP_REQ_GET | EVHTTP_REQ_POST |
                                                 EVHTTP_REQ_HEAD | EVHTTP_REQ_PUT |
                                                 EVHTTP_REQ_DELETE | EVHTTP_REQ_PATCH |
                                                 EVHTTP_REQ_OPTIONS);
    evhttp_set_gencb(self->evhttp, s_dispatch, self);
    //  A client that stalls sending a request, or stops reading a reply
    //  (an event stream), is dropped rather than held for ever.
    evhttp_set_timeout(self->evhttp, GW_HTTP_STALL_S);
    if (opts->tls_cert && *opts->tls_cert) {
        char option[64];
        snprintf(option, sizeof option, "%s.tls_cert", opts->name);
        self->tls = bus_tls_server_new(opts->tls_cert, opts->tls_key, option, err);
        if (!self->tls) {
            gw_http_destroy(&self);
            return NULL;
        }
        evhttp_set_bevcb(self->evhttp, s_tls_connection, self->tls);
    }
    struct evhttp_bound_socket *bound =
        evhttp_bind_socket_with_handle(self->evhttp, host, (ev_uint16_t) port);
    if (!bound) {
        bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot listen on %s: %s", listen,
                      strerror(errno));
        gw_http_destroy(&self);
        return NULL;
    }
    struct sockaddr_in addr;
    socklen_t len = sizeof addr;
    if (getsockname(evhttp_bound_socket_get_fd(bound), (struct sockaddr *) &addr, &len) ==
        0)
        port = ntohs(addr.sin_port);
    snprintf(self->endpoint, sizeof self->endpoint, "%s:%d", host, port);
    return self;
}

void
gw_http_destroy(gw_http_t **self_p)
{
    gw_http_t *self = *self_p;
    if (!self)
        return;
    if (self->evhttp) {
        gw_wsconn_close_all(self->gw);
        gw_sse_close_all(self->gw);
        gw_stream_close_all(self->gw);
        if (gw_session_create_close_all(self->gw) > 0) {
            //  Their answers are queued on their connections: let the loop
            //  write them (loopback takes a turn or two) before the
            //  connections go with the server.
            struct event_base *base = bus_node_base(gw_server_node(self->gw));
            int64_t until = bus_clock_mono_ms() + S_DRAIN_MS;
            while (bus_clock_mono_ms() < until &&
                   event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK) == 0)
                ;
        }
        evhttp_free(self->evhttp);
    }
    SSL_CTX_free(self->tls);
    free(self);
    *self_p = NULL;
}

const char *
gw_http_endpoint(const gw_http_t *self)
{
    assert(self);
    return self->endpoint;
}

bool
gw_http_tls(const gw_http_t *self)
{
    assert(self);
    return self->tls != NULL;
}
