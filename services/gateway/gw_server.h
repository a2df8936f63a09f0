/*  =========================================================================
    gw_server - the gateway: its bus node, its HTTP server, its state

    The server's state is private (gw_server.c): a handful of objects, each
    with its _new/_destroy, which the modules reach through the accessors
    below. The administrative operations do not see the server at all:
    they take a gw_ctx_t (gw_request_ctx, or the offline command's own).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_SERVER_H_INCLUDED
#define GW_SERVER_H_INCLUDED

#include "bus.h"
#include "gw_config.h"

typedef struct _gw_server_t gw_server_t;

//  The Backend.AI API version this gateway speaks (reference §0, §2).
#define GW_API_VERSION "v6.20220315"

//  The Backend.AI release GET / names as "manager": the one that speaks
//  GW_API_VERSION. Backend.AI's web UI turns features on by comparing this
//  with Backend.AI releases (isManagerVersionCompatibleWith), so Backplane's
//  own version (0.x) there left the 22.03 UI on its pre-21.09 paths (the v1
//  app proxy, for one); Backplane's own version is "backplane".
#define GW_MANAGER_VERSION "22.03.0"

//  How long an identity (and its signing key) stays cached; changes made
//  through the gateway clear it at once.
#define GW_IDENTITY_TTL_MS 1000

extern const bus_service_t gw_service;

//  The parts of the server, borrowed: each lives as long as the server.
bus_node_t *gw_server_node(gw_server_t *self);
bus_db_t *gw_server_db(gw_server_t *self);
const gw_config_t *gw_server_config(gw_server_t *self);
//  The HTTP listener (its endpoint, whether it speaks TLS).
struct _gw_http_t *gw_server_http(gw_server_t *self);
//  The web listener (Backend.AI's webserver role), or NULL when off.
struct _gw_web_t *gw_server_web(gw_server_t *self);
//  Callers, with their signing keys.
struct _gw_identity_cache_t *gw_server_identities(gw_server_t *self);
//  Requests per keypair, and failed logins per user name.
struct _gw_ratelimit_t *gw_server_rate(gw_server_t *self);
//  Resource groups' live agents, kept briefly for creates' checks.
struct _gw_fleet_t *gw_server_fleet(gw_server_t *self);
struct _gw_ratelimit_t *gw_server_login_failures(gw_server_t *self);
//  Queued access records.
struct _gw_accesslog_t *gw_server_accesslog(gw_server_t *self);
//  Requests counted for /metrics; NULL for the offline admin command.
struct _gw_metrics_t *gw_server_metrics(gw_server_t *self);
//  Listeners to session events, and the last kernel.stats of each kernel.
struct _gw_events_t *gw_server_events(gw_server_t *self);
struct _gw_stats_t *gw_server_stats(gw_server_t *self);
struct _gw_bgtasks_t *gw_server_bgtasks(gw_server_t *self);
//  Sessions in use, told the scheduler.
struct _gw_activity_t *gw_server_activity(gw_server_t *self);
//  The storage-proxies and their volumes.
struct _gw_storage_t *gw_server_storage(gw_server_t *self);
//  The secret that signs upload/download tokens, and its length; NULL when
//  none is configured.
const uint8_t *gw_server_token_secret(gw_server_t *self, size_t *len);
//  The secret that signs app tokens (the wsproxies check them), and its
//  length; NULL when none is configured.
const uint8_t *gw_server_apps_secret(gw_server_t *self, size_t *len);

//  The heads of the lists of long-lived connections, which their modules
//  link and unlink (gw_wsconn, gw_sse, gw_stream, gw_session_create) and
//  close all of before the HTTP server is freed.
struct _gw_wsconn_t **gw_server_websockets(gw_server_t *self);
struct _gw_sse_t **gw_server_event_streams(gw_server_t *self);
struct _gw_orphan_run_t **gw_server_orphan_runs(gw_server_t *self);
//  The model services' reconciliation (gw_endpoint_reconcile).
struct _gw_endpoint_reconcile_t *gw_server_endpoints(gw_server_t *self);

//  The creates waiting for their sessions to run (gw_session_create).
struct _gw_create_t **gw_server_creates(gw_server_t *self);

#endif
