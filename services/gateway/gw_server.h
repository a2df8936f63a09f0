/*  =========================================================================
    gw_server - the gateway: its bus node, its HTTP server, its state

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_SERVER_H_INCLUDED
#define GW_SERVER_H_INCLUDED

#include "bus.h"
#include "gw_config.h"

struct evhttp;

typedef struct {
    bus_node_t *node;          //  NULL for the offline admin command
    bus_db_t *db;              //  the gateway's database (the node's, when there is one)
    const gw_config_t *config; //  borrowed from bus_main
    struct evhttp *http;
    struct ssl_ctx_st *tls;       //  SSL_CTX when the API serves HTTPS, else NULL
    struct _gw_ratelimit_t *rate; //  requests per keypair
    struct _gw_ratelimit_t *login_failures;  //  failed logins per user name
    struct _gw_identity_cache_t *identities; //  callers, with their signing keys
    struct _gw_accesslog_t *accesslog;       //  queued access records
    struct _gw_wsconn_t *websockets;         //  open WebSocket connections (a list)
    struct _gw_sse_t *event_streams;         //  open event streams (a list)
    struct _gw_events_t *events;             //  listeners to session events
    struct _gw_orphan_run_t *orphan_runs;    //  runs to kill whose clients left
    struct _gw_stats_t *stats;               //  the last kernel.stats of each kernel
    struct _gw_activity_t *activity;         //  sessions in use, told the scheduler
    struct _gw_storage_t *storage;           //  the storage-proxies and their volumes
    uint8_t *token_secret; //  signs upload/download tokens; NULL: none configured
    size_t token_secret_len;
    char endpoint[300]; //  "host:port" the API listens on, port resolved
} gw_server_t;

//  The Backend.AI API version this gateway speaks (reference §0, §2).
#define GW_API_VERSION "v6.20220315"

//  How long an identity (and its signing key) stays cached; changes made
//  through the gateway clear it at once.
#define GW_IDENTITY_TTL_MS 1000

extern const bus_service_t gw_service;

#endif
