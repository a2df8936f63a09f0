/*  =========================================================================
    wsp_routes_private - the routes' state, shared by wsp_routes.c and
    wsp_endpoints.c only

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef WSP_ROUTES_PRIVATE_H_INCLUDED
#define WSP_ROUTES_PRIVATE_H_INCLUDED

#include "wsp_classes.h"

//  One app's counters since start, for /metrics.
typedef struct {
    char app[BUS_APPTOKEN_APP_MAX + 1];
    uint64_t bytes_in;
    uint64_t bytes_out;
} app_stats_t;

struct _wsp_routes_t {
    bus_node_t *node;
    const wsp_config_t *config;
    zlistx_t *routes; //  of wsp_route_t
    zhashx_t *apps;   //  app name -> app_stats_t
    int port_low, port_high;
    char listen_host[WSP_ROUTES_HOST_MAX + 1];
    char host[WSP_ROUTES_HOST_MAX + 3]; //  advertised (brackets for IPv6)
    uint8_t *secret;
    size_t secret_len;
    SSL_CTX *tls; //  wsproxy.tls_cert's context; NULL: plain HTTP
};

//  Writes len bytes as hex into out (2 * len + 1 bytes).
void routes_hex(const uint8_t *bytes, size_t len, char *out);

//  Resolves host:port into *addr (*addr_len 0 when it does not resolve)
//  and writes "host:port" (brackets for IPv6) into target. 0 or -1.
int routes_resolve(const char *host,
                   int port,
                   struct sockaddr_storage *addr,
                   socklen_t *addr_len,
                   char *target,
                   size_t target_size);

//  Binds route's port on the listen host and watches it. 0 or -1 (errno).
int routes_listen(wsp_routes_t *self, wsp_route_t *route);

//  Makes the route of row on the first free port of the range, stores it
//  (with targets, an endpoint's replicas as JSON, or NULL) and serves it.
//  BUS_OK with *route_p, UNAVAILABLE (no free port) or INTERNAL.
int routes_add(wsp_routes_t *self,
               wsp_db_route_t *row,
               const char *targets,
               wsp_route_t **route_p,
               bus_error_t *err);

//  An endpoint's replicas as stored (a JSON array) into route. 0, or -1
//  when some did not parse (those that did stay). wsp_endpoints.c.
int routes_targets_load(wsp_route_t *route, const char *text);

#endif
