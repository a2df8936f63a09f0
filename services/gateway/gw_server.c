/*  =========================================================================
    gw_server - the gateway as bus_main runs it

    The gateway's HTTP server runs on the node's event loop, so a request
    handler can call other services over the bus and answer when the reply
    comes, without threads or locks. s_init builds the state below, object
    by object; s_fini takes it down in the reverse order (the listener and
    the long-lived connections first).

    Timers. The gateway has no cron timer of its own: its periodic duties
    are the node's (bus_node.h: heartbeat, peer list, catch-up of the
    session and image domains, outbox) and these, each armed on the loop
    by the module that owns it, only while there is something to do:
      - access log flush (gw_accesslog): GW_ACCESSLOG_FLUSH_MS (5 ms) after
        the first queued record, or at GW_ACCESSLOG_BATCH (512) records,
        writes the queued gateway.access events, and each keypair's
        num_queries and last_used, in one transaction;
      - POST /session wait (gw_session_create): every S_POLL_MS (1 s) per
        waiting create, and at once on each of its lifecycle events, asks
        session.get; the wait ends at maxWaitSeconds (the request's);
      - event-stream ping (gw_sse): every GW_SSE_PING_MS (15 s) per
        /events/session stream, a comment line that keeps proxies open;
      - WebSocket ping and idle close (gw_wsconn): every GW_WSCONN_PING_MS
        (20 s) per connection a ping, and the connection is closed when the
        client was silent for GW_WSCONN_IDLE_MS (75 s); a close waits
        GW_WSCONN_CLOSE_MS (2 s) for the client's answer;
      - orphan run kill (gw_stream): GW_STREAM_KILL_MS (2 s) after a client
        left mid-run and the run was interrupted, kernel.execute kills it;
      - stalled connections (evhttp, gw_http, on both listeners): GW_HTTP_STALL_S (60 s)
        without a byte read or written drops the connection;
      - model services (gw_endpoint_reconcile): a pass every 2 s, and at
        once after a change, makes each endpoint's routes match the
        replicas wanted and asks for each route's session every 5 s;
      - error log expiry (gw_errorlog): every logs.error_expire_interval_s
        (1 h) and at start, deletes error logs older than
        logs.error_retention_days (90).
    The rest is lazy, checked when used rather than swept by a timer: the
    identity cache (GW_IDENTITY_TTL_MS, 1 s), the rate limits' rolling
    windows (auth.rate_window_s), the storage directory (GW_STORAGE_TTL_MS,
    5 s), session.activity (at most every GW_ACTIVITY_MIN_MS per session).
    RPC timeouts are the node's (bus_node_call's timeout_ms).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

struct _gw_server_t {
    bus_node_t *node;          //  NULL for the offline admin command
    bus_db_t *db;              //  the gateway's database (the node's, when there is one)
    const gw_config_t *config; //  borrowed from bus_main
    gw_http_t *http;
    gw_web_t *web;                      //  the web listener; NULL when web.listen is ""
    gw_ratelimit_t *rate;               //  requests per keypair
    gw_ratelimit_t *login_failures;     //  failed logins per user name
    gw_identity_cache_t *identities;    //  callers, with their signing keys
    gw_fleet_t *fleet;                  //  resource groups' live agents, kept briefly
    gw_accesslog_t *accesslog;          //  queued access records
    gw_metrics_t *metrics;              //  requests by route, for /metrics
    gw_events_t *events;                //  listeners to session events
    gw_stats_t *stats;                  //  the last kernel.stats of each kernel
    gw_activity_t *activity;            //  sessions in use, told the scheduler
    gw_storage_t *storage;              //  the storage-proxies and their volumes
    gw_errorlog_t *errorlog;            //  the error logs' expiry
    gw_bgtasks_t *bgtasks;              //  background tasks (image rescans)
    gw_endpoint_reconcile_t *endpoints; //  model services' replicas
    uint8_t *token_secret; //  signs upload/download tokens; NULL: none configured
    size_t token_secret_len;
    uint8_t *apps_secret; //  signs app tokens; NULL: none configured
    size_t apps_secret_len;
    //  Open long-lived connections (lists), closed before evhttp is freed.
    struct _gw_wsconn_t *websockets;
    struct _gw_sse_t *event_streams;
    struct _gw_orphan_run_t *orphan_runs; //  runs to kill whose clients left
    struct _gw_create_t *creates;         //  POST /session waiting for its session
};

static void
s_fini(void **state_p)
{
    gw_server_t *gw = *state_p;
    if (gw) {
        gw_web_destroy(&gw->web);
        gw_http_destroy(&gw->http);
        gw_bgtasks_destroy(&gw->bgtasks);
        gw_errorlog_destroy(&gw->errorlog);
        gw_endpoint_reconcile_destroy(&gw->endpoints);
        gw_stats_destroy(&gw->stats);
        gw_events_destroy(&gw->events);
        gw_accesslog_destroy(&gw->accesslog);
        gw_metrics_destroy(&gw->metrics);
        gw_activity_destroy(&gw->activity);
        gw_storage_destroy(&gw->storage);
        if (gw->token_secret)
            OPENSSL_cleanse(gw->token_secret, gw->token_secret_len);
        free(gw->token_secret);
        if (gw->apps_secret)
            OPENSSL_cleanse(gw->apps_secret, gw->apps_secret_len);
        free(gw->apps_secret);
        gw_identity_cache_destroy(&gw->identities);
        gw_fleet_destroy(&gw->fleet);
        gw_ratelimit_destroy(&gw->rate);
        gw_ratelimit_destroy(&gw->login_failures);
        free(gw);
        *state_p = NULL;
    }
}

static void *
s_init(bus_node_t *node, const void *config_, bus_error_t *err)
{
    const gw_config_t *config = config_;
    gw_server_t *gw = calloc(1, sizeof *gw);
    if (!gw)
        return NULL;
    gw->node = node;
    gw->db = bus_node_db(node);
    gw->config = config;
    gw->rate = gw_ratelimit_new(config->rate_window_s);
    gw->login_failures = gw_ratelimit_new(config->rate_window_s);
    gw->identities = gw_identity_cache_new(GW_IDENTITY_TTL_MS);
    gw->fleet = gw_fleet_new(GW_FLEET_TTL_MS);
    gw->accesslog = gw_accesslog_new(node);
    gw->activity = gw_activity_new(node);
    gw->storage = gw_storage_new(node);
    gw->metrics = gw_metrics_new(node);
    gw->bgtasks = gw_bgtasks_new();
    gw->errorlog =
        gw_errorlog_new(gw->db, bus_node_base(node), config->error_log_retention_days,
                        config->error_log_expire_s);
    if (!gw->rate || !gw->login_failures || !gw->identities || !gw->fleet ||
        !gw->accesslog || !gw->activity || !gw->storage || !gw->metrics ||
        !gw->errorlog || !gw->bgtasks) {
        s_fini((void **) &gw);
        return NULL;
    }
    //  Without the secret the folders work, but files go in and out only
    //  through the storage-proxy's own RPC: request-upload/download refuse.
    if (*config->vfolder_token_secret_file &&
        bus_token_read_secret(config->vfolder_token_secret_file,
                              "vfolders.token_secret_file", &gw->token_secret,
                              &gw->token_secret_len, err) != 0) {
        s_fini((void **) &gw);
        return NULL;
    }
    //  Without it, apps open through the stream tunnels only.
    if (*config->apps_token_secret_file &&
        bus_token_read_secret(config->apps_token_secret_file, "apps.token_secret_file",
                              &gw->apps_secret, &gw->apps_secret_len, err) != 0) {
        s_fini((void **) &gw);
        return NULL;
    }
    if (gw_image_init(node) != 0 || !(gw->events = gw_events_new(node)) ||
        !(gw->stats = gw_stats_new(node, gw->events)) ||
        !(gw->endpoints = gw_endpoint_reconcile_new(gw, gw->events))) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot follow image or session events");
        s_fini((void **) &gw);
        return NULL;
    }
    gw_http_opts_t api = {"api",           config->listen,         config->tls_cert,
                          config->tls_key, config->max_body_bytes, gw_http_dispatch_api};
    gw->http = gw_http_new(gw, &api, err);
    if (!gw->http) {
        s_fini((void **) &gw);
        return NULL;
    }
    char url[320];
    snprintf(url, sizeof url, "%s://%s", gw_http_tls(gw->http) ? "https" : "http",
             gw_http_endpoint(gw->http));
    if (gw_bootstrap(bus_node_db(node), config, url, err) != 0) {
        s_fini((void **) &gw);
        return NULL;
    }
    bus_log_notice("api listening url=%s/", url);
    //  on the ready line, which scripts and people look for
    char slash[sizeof url + 1];
    snprintf(slash, sizeof slash, "%s/", url);
    bus_node_set_url(node, slash);
    if (*config->web_listen) {
        gw->web = gw_web_new(gw, err);
        if (!gw->web) {
            s_fini((void **) &gw);
            return NULL;
        }
        snprintf(url, sizeof url, "%s://%s/", gw_web_tls(gw->web) ? "https" : "http",
                 gw_web_endpoint(gw->web));
        bus_log_notice("web listening url=%s root=%s", url, gw_web_root(gw->web));
        bus_node_set_web_url(node, url);
    }
    return gw;
}

const bus_service_t gw_service = {
    .name = "gateway",
    .summary = "The Backend.AI-compatible HTTP API: authentication, tenancy, sessions",
    .options = gw_config_options,
    .config_size = sizeof(gw_config_t),
    .node_config_offset = offsetof(gw_config_t, node),
    .migrations = gw_db_migrations,
    .migration_count = GW_DB_MIGRATION_COUNT,
    .init = s_init,
    .fini = s_fini,
    .command = gw_admin_cli,
};

//  ---------------------------------------------------------------------------
//  Accessors

bus_node_t *
gw_server_node(gw_server_t *self)
{
    assert(self);
    return self->node;
}

bus_db_t *
gw_server_db(gw_server_t *self)
{
    assert(self);
    return self->db;
}

const gw_config_t *
gw_server_config(gw_server_t *self)
{
    assert(self);
    return self->config;
}

gw_http_t *
gw_server_http(gw_server_t *self)
{
    assert(self);
    return self->http;
}

gw_web_t *
gw_server_web(gw_server_t *self)
{
    assert(self);
    return self->web;
}

gw_identity_cache_t *
gw_server_identities(gw_server_t *self)
{
    assert(self);
    return self->identities;
}

gw_fleet_t *
gw_server_fleet(gw_server_t *self)
{
    assert(self);
    return self->fleet;
}

gw_ratelimit_t *
gw_server_rate(gw_server_t *self)
{
    assert(self);
    return self->rate;
}

gw_ratelimit_t *
gw_server_login_failures(gw_server_t *self)
{
    assert(self);
    return self->login_failures;
}

gw_metrics_t *
gw_server_metrics(gw_server_t *self)
{
    assert(self);
    return self->metrics;
}

gw_accesslog_t *
gw_server_accesslog(gw_server_t *self)
{
    assert(self);
    return self->accesslog;
}

gw_events_t *
gw_server_events(gw_server_t *self)
{
    assert(self);
    return self->events;
}

gw_stats_t *
gw_server_stats(gw_server_t *self)
{
    assert(self);
    return self->stats;
}

gw_bgtasks_t *
gw_server_bgtasks(gw_server_t *self)
{
    assert(self);
    return self->bgtasks;
}

gw_activity_t *
gw_server_activity(gw_server_t *self)
{
    assert(self);
    return self->activity;
}

gw_storage_t *
gw_server_storage(gw_server_t *self)
{
    assert(self);
    return self->storage;
}

const uint8_t *
gw_server_token_secret(gw_server_t *self, size_t *len)
{
    assert(self && len);
    *len = self->token_secret_len;
    return self->token_secret;
}

const uint8_t *
gw_server_apps_secret(gw_server_t *self, size_t *len)
{
    assert(self && len);
    *len = self->apps_secret_len;
    return self->apps_secret;
}

struct _gw_wsconn_t **
gw_server_websockets(gw_server_t *self)
{
    assert(self);
    return &self->websockets;
}

struct _gw_sse_t **
gw_server_event_streams(gw_server_t *self)
{
    assert(self);
    return &self->event_streams;
}

struct _gw_create_t **
gw_server_creates(gw_server_t *self)
{
    assert(self);
    return &self->creates;
}

struct _gw_orphan_run_t **
gw_server_orphan_runs(gw_server_t *self)
{
    assert(self);
    return &self->orphan_runs;
}

gw_endpoint_reconcile_t *
gw_server_endpoints(gw_server_t *self)
{
    assert(self);
    return self->endpoints;
}
