/*  =========================================================================
    wsp_server - the wsproxy as bus_main runs it

    Serves the apps of sessions to browsers: the /v2 API (wsp_api) opens
    routes with app tokens the gateway signs (bus_apptoken), each route
    serves one app of one session to one user on a port of its own
    (wsp_routes), and every connection on it is relayed to the app
    (wsp_conn: HTTP/1.1, WebSocket, or plain TCP). Routes are kept in its
    database (wsp_db), so a restart serves them again on the same ports.
    wsproxy.close (wsp_rpc) closes a session's routes; so does the end of
    the session, followed on the durable session domain. Its own lines
    on the node's /metrics: routes, connections and bytes by app and by
    route.

    Timers (besides the node's cron, listed in bus_node.h: heartbeat,
    peer list, catch-up of missed durable events, outbox):
      - the route cron, every wsproxy.cron_ms (wsp_routes_cron): expires
        routes unused for wsproxy.route_idle_s and permits past
        wsproxy.permit_ttl_s, writes the byte counters and expiry of
        routes that moved bytes, closes connections silent both ways for
        wsproxy.idle_timeout_s and shrinks the splice pipes of those
        quiet for a period (wsp_conn_trim), binds route ports that were
        busy at start;
      - the connect timeout of each connection to an app,
        wsproxy.connect_timeout_ms (wsp_conn): the client gets 502.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "wsp_classes.h"

typedef struct {
    bus_node_t *node;
    wsp_routes_t *routes;
    wsp_api_t *api;
    wsp_rpc_t *rpc;
    struct event *cron;
} wsp_state_t;

static void
s_fini(void **state_p)
{
    wsp_state_t *state = *state_p;
    if (state) {
        if (state->node)
            bus_node_set_metrics(state->node, NULL, NULL);
        if (state->cron)
            event_free(state->cron);
        wsp_api_destroy(&state->api);
        wsp_rpc_destroy(&state->rpc);
        wsp_routes_destroy(&state->routes);
        free(state);
        *state_p = NULL;
    }
}

static void
s_on_cron(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    wsp_state_t *state = arg;
    wsp_routes_cron(state->routes);
}

static void
s_metrics(void *arg, struct evbuffer *out)
{
    wsp_state_t *state = arg;
    wsp_routes_metrics(state->routes, out);
}

//  The session domain: a session that ended takes its routes with it.
//  Runs inside the inbox transaction; closing routes cannot fail it.
static int
s_apply(void *arg, bus_node_t *node, const bus_event_t *event)
{
    (void) node;
    wsp_state_t *state = arg;
    if (strcmp(event->topic, PROTO_SESSION_LIFECYCLE) != 0)
        return 0;
    proto_session_lifecycle_t lifecycle;
    bus_error_t err = {0};
    if (proto_session_lifecycle_decode(&lifecycle, event->body, event->body_size, &err) !=
        BUS_OK) {
        bus_log_error("session event malformed; skipped src=%s seq=%" PRIu64
                      " reason=\"%s\"",
                      event->header.src, event->header.seq, err.detail);
        return 0;
    }
    if (lifecycle.status && (strcmp(lifecycle.status, "TERMINATED") == 0 ||
                             strcmp(lifecycle.status, "CANCELLED") == 0)) {
        size_t conns = 0;
        size_t routes =
            wsp_routes_close_session(state->routes, lifecycle.session_id, &conns);
        if (routes)
            bus_log_info("ended session's routes closed session=%s status=%s routes=%zu "
                         "connections=%zu",
                         lifecycle.session_id, lifecycle.status, routes, conns);
    }
    proto_session_lifecycle_clear(&lifecycle);
    return 0;
}

static void *
s_init(bus_node_t *node, const void *config_, bus_error_t *err)
{
    const wsp_config_t *config = config_;
    wsp_state_t *state = calloc(1, sizeof *state);
    if (!state) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    state->node = node;
    state->routes = wsp_routes_new(node, config, err);
    if (state->routes)
        state->api = wsp_api_new(node, state->routes, config, err);
    if (state->api)
        state->rpc = wsp_rpc_new(node, state->routes, err);
    if (state->rpc) {
        state->cron = event_new(bus_node_base(node), -1, EV_PERSIST, s_on_cron, state);
        struct timeval period = {config->cron_ms / 1000, (config->cron_ms % 1000) * 1000};
        if (!state->cron || event_add(state->cron, &period) != 0 ||
            bus_node_follow(node, "session", s_apply, state) != 0) {
            bus_error_set(err, BUS_STATUS_INTERNAL, "cannot start the route cron");
            goto fail;
        }
    }
    if (!state->rpc)
        goto fail;
    bus_node_set_metrics(node, s_metrics, state);
    bus_log_notice("app api listening url=%s app_ports=%s routes=%zu",
                   wsp_api_url(state->api), config->app_ports,
                   wsp_routes_count(state->routes));
    //  on the ready line, which scripts and tests look for
    bus_node_set_url(node, wsp_api_url(state->api));
    return state;
fail:;
    void *dead = state;
    s_fini(&dead);
    return NULL;
}

const bus_service_t wsp_service = {
    .name = "wsproxy",
    .summary = "Proxies HTTP and WebSocket traffic to service ports inside sessions",
    .options = wsp_config_options,
    .config_size = sizeof(wsp_config_t),
    .node_config_offset = offsetof(wsp_config_t, node),
    .migrations = wsp_db_migrations,
    .migration_count = WSP_DB_MIGRATION_COUNT,
    .init = s_init,
    .fini = s_fini,
};
