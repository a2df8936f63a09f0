/*  =========================================================================
    bus_node_health - the service.health method and the node's HTTP health endpoint

    Every node answers service.health over RPC and, when bus.http_listen
    is set, GET /healthz and GET /metrics (Prometheus text) over HTTP, for
    supervisors that do not speak the bus.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_node_private.h"
#include <netinet/in.h> //  sockaddr_in for the health endpoint's bound port
#include <sys/socket.h>

//  ---------------------------------------------------------------------------
//  Built-in RPC methods

int
node_serve_health(void *arg,
                  const proto_service_health_req_t *in,
                  proto_service_health_rep_t *out,
                  bus_rpc_request_t *req,
                  bus_error_t *err)
{
    (void) in;
    (void) req;
    (void) err;
    bus_node_t *self = arg;
    bool db_ok = bus_db_ok(self->db);
    out->service = self->service;
    out->node = self->name;
    out->version = BACKPLANE_VERSION;
    out->pid = (uint64_t) getpid();
    out->uptime_ms = (uint64_t) (bus_clock_mono_ms() - self->started_ms);
    out->db_ok = db_ok;
    out->state = db_ok ? "ok" : "degraded";
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Health endpoint

static void
s_http_reply_json(struct evhttp_request *req, int code, json_t *body)
{
    char *text = json_dumps(body, JSON_COMPACT);
    struct evbuffer *out = evbuffer_new();
    evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type",
                      "application/json");
    if (text && out)
        evbuffer_add(out, text, strlen(text));
    evhttp_send_reply(req, code, code == 200 ? "OK" : "Not Found", out);
    if (out)
        evbuffer_free(out);
    free(text);
    json_decref(body);
}

static void
s_on_http(struct evhttp_request *req, void *arg)
{
    bus_node_t *self = arg;
    const char *path = evhttp_uri_get_path(evhttp_request_get_evhttp_uri(req));
    if (path && strcmp(path, "/healthz") == 0) {
        bool db_ok = bus_db_ok(self->db);
        s_http_reply_json(req, 200,
                          json_pack("{s:s, s:s, s:s, s:s, s:I, s:b}", "service",
                                    self->service, "node", self->name, "status",
                                    db_ok ? "ok" : "degraded", "version",
                                    BACKPLANE_VERSION, "uptime_ms",
                                    (json_int_t) (bus_clock_mono_ms() - self->started_ms),
                                    "db_ok", db_ok));
        return;
    }
    if (path && strcmp(path, "/metrics") == 0) {
        struct evbuffer *out = evbuffer_new();
        if (!out) {
            evhttp_send_error(req, HTTP_INTERNAL, NULL);
            return;
        }
        node_metrics_write(self, out);
        evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type",
                          "text/plain; version=0.0.4");
        evhttp_send_reply(req, 200, "OK", out);
        evbuffer_free(out);
        return;
    }
    s_http_reply_json(req, 404, json_pack("{s:s}", "error", "not found"));
}

void
bus_node_set_metrics(bus_node_t *self, bus_node_metrics_fn *fn, void *arg)
{
    assert(self);
    self->metrics_fn = fn;
    self->metrics_arg = arg;
}

int
node_http_start(bus_node_t *self)
{
    const char *listen = self->config->http_listen;
    if (!listen || !*listen)
        return 0;
    char host[256];
    const char *colon = strrchr(listen, ':');
    if (!colon || (size_t) (colon - listen) >= sizeof host)
        return -1;
    memcpy(host, listen, (size_t) (colon - listen));
    host[colon - listen] = 0;
    int port = atoi(colon + 1);
    self->http = evhttp_new(self->base);
    if (!self->http)
        return -1;
    evhttp_set_gencb(self->http, s_on_http, self);
    struct evhttp_bound_socket *bound =
        evhttp_bind_socket_with_handle(self->http, host, (ev_uint16_t) port);
    if (!bound) {
        bus_log_error("cannot listen for health checks address=%s", listen);
        return -1;
    }
    struct sockaddr_in addr;
    socklen_t len = sizeof addr;
    if (getsockname(evhttp_bound_socket_get_fd(bound), (struct sockaddr *) &addr, &len) ==
        0)
        port = ntohs(addr.sin_port);
    snprintf(self->http_endpoint, sizeof self->http_endpoint, "%s:%d", host, port);
    return 0;
}
