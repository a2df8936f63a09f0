/*  =========================================================================
    wsp_rpc - the wsproxy.* methods on the wsproxy's node (close, and the
    endpoints' set, remove and requests)

    One table of typed handlers (proto_serve.h), registered at once; each
    answers at once.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "wsp_classes.h"

struct _wsp_rpc_t {
    bus_node_t *node;
    wsp_routes_t *routes;
};

//  wsproxy.close
static int
s_on_close(void *arg,
           const proto_wsproxy_close_req_t *in,
           proto_wsproxy_close_rep_t *out,
           bus_rpc_request_t *req,
           bus_error_t *err)
{
    (void) req, (void) err;
    wsp_rpc_t *self = arg;
    size_t conns = 0;
    size_t routes = wsp_routes_close_session(self->routes, in->session_id, &conns);
    bus_log_info("session routes closed session=%s routes=%zu connections=%zu",
                 in->session_id, routes, conns);
    out->routes = routes;
    out->connections = conns;
    return BUS_OK;
}

//  wsproxy.endpoint.set
static int
s_on_endpoint_set(void *arg,
                  const proto_wsproxy_endpoint_set_req_t *in,
                  proto_wsproxy_endpoint_set_rep_t *out,
                  bus_rpc_request_t *req,
                  bus_error_t *err)
{
    (void) req;
    wsp_rpc_t *self = arg;
    wsp_route_t *route = NULL;
    int rc = wsp_routes_endpoint_set(self->routes, in, &route, err);
    if (rc != BUS_OK)
        return rc;
    char url[WSP_ROUTES_HOST_MAX + 32];
    snprintf(url, sizeof url, "%s://%s:%d", wsp_routes_scheme(self->routes),
             wsp_routes_host(self->routes), route->row.port);
    out->url = proto_arena_strdup(&out->owned_, url);
    out->port = (uint64_t) route->row.port;
    return out->url ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
}

//  wsproxy.endpoint.remove
static int
s_on_endpoint_remove(void *arg,
                     const proto_wsproxy_endpoint_remove_req_t *in,
                     proto_wsproxy_endpoint_remove_rep_t *out,
                     bus_rpc_request_t *req,
                     bus_error_t *err)
{
    (void) req, (void) err;
    wsp_rpc_t *self = arg;
    size_t conns = 0;
    out->removed = wsp_routes_endpoint_remove(self->routes, in->endpoint_id, &conns);
    out->connections = conns;
    return BUS_OK;
}

//  wsproxy.endpoint.requests
static int
s_on_endpoint_requests(void *arg,
                       const proto_wsproxy_endpoint_requests_req_t *in,
                       proto_wsproxy_endpoint_requests_rep_t *out,
                       bus_rpc_request_t *req,
                       bus_error_t *err)
{
    (void) req;
    wsp_rpc_t *self = arg;
    size_t count = in->endpoint_ids_count;
    proto_wsproxy_endpoint_requests_t *endpoints =
        proto_arena_alloc(&out->owned_, (count ? count : 1) * sizeof *endpoints);
    if (!endpoints)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    for (size_t i = 0; i < count; i++) {
        proto_wsproxy_endpoint_requests_init(&endpoints[i]);
        endpoints[i].endpoint_id = in->endpoint_ids[i];
        endpoints[i].found = wsp_routes_endpoint_requests(
            self->routes, in->endpoint_ids[i], &endpoints[i].requests);
    }
    out->endpoints = endpoints;
    out->endpoints_count = count;
    return BUS_OK;
}

wsp_rpc_t *
wsp_rpc_new(bus_node_t *node, wsp_routes_t *routes, bus_error_t *err)
{
    assert(node && routes);
    wsp_rpc_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    self->routes = routes;
    const bus_node_method_t methods[] = {
        proto_wsproxy_close_method(s_on_close),
        proto_wsproxy_endpoint_set_method(s_on_endpoint_set),
        proto_wsproxy_endpoint_remove_method(s_on_endpoint_remove),
        proto_wsproxy_endpoint_requests_method(s_on_endpoint_requests),
    };
    if (bus_node_serve(node, methods, sizeof methods / sizeof methods[0], self, err) !=
        BUS_OK) {
        wsp_rpc_destroy(&self);
        return NULL;
    }
    return self;
}

void
wsp_rpc_destroy(wsp_rpc_t **self_p)
{
    assert(self_p);
    wsp_rpc_t *self = *self_p;
    if (self) {
        free(self);
        *self_p = NULL;
    }
}
