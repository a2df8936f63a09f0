/*  =========================================================================
    wsp_api - the wsproxy's API: what the web UI and the gateway ask it

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "wsp_classes.h"
#include <event2/bufferevent_ssl.h> //  HTTPS through libevent_openssl
#include <netinet/in.h>             //  sockaddr_in(6): the bound port
#include <sys/queue.h>              //  TAILQ_INIT: the parsed query
#include <sys/socket.h>

#define PROBLEM_BASE "https://api.backend.ai/probs/"
#define PROXY_PREFIX "/v2/proxy/"

struct _wsp_api_t {
    bus_node_t *node;
    wsp_routes_t *routes;
    const wsp_config_t *config;
    struct evhttp *http;
    char url[320];
};

static void
s_reply(struct evhttp_request *req, int code, const char *type, json_t *doc)
{
    char *text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    json_decref(doc);
    struct evkeyvalq *headers = evhttp_request_get_output_headers(req);
    evhttp_add_header(headers, "Content-Type", type);
    evhttp_add_header(headers, "Access-Control-Allow-Origin", "*");
    evhttp_add_header(headers, "Cache-Control", "no-store");
    struct evbuffer *out = evbuffer_new();
    if (out && text)
        evbuffer_add(out, text, strlen(text));
    evhttp_send_reply(req, code, NULL, out);
    if (out)
        evbuffer_free(out);
    free(text);
}

static void
s_problem(struct evhttp_request *req,
          int code,
          const char *slug,
          const char *title,
          const char *detail)
{
    const char *path = evhttp_uri_get_path(evhttp_request_get_evhttp_uri(req));
    //  the instance is the path up to the token, which is not logged or echoed
    bool proxy = path && strncmp(path, PROXY_PREFIX, strlen(PROXY_PREFIX)) == 0;
    s_reply(req, code, "application/problem+json",
            json_pack("{s:s+, s:s, s:i, s:i, s:s, s:s}", "type", PROBLEM_BASE, slug,
                      "title", title, "status", code, "code", code, "detail",
                      detail ? detail : "", "instance",
                      proxy ? PROXY_PREFIX : (path ? path : "/")));
}

//  GET /, /status, /v2/status
static void
s_status(wsp_api_t *self, struct evhttp_request *req)
{
    s_reply(req, 200, "application/json",
            json_pack("{s:s, s:s, s:s, s:I, s:I}", "api_version", "v2", "wsproxy",
                      BACKPLANE_VERSION, "advertise_address", self->url, "routes",
                      (json_int_t) wsp_routes_count(self->routes), "connections",
                      (json_int_t) wsp_routes_connections(self->routes)));
}

//  GET /v2/conf
static void
s_conf(wsp_api_t *self, struct evhttp_request *req)
{
    s_reply(req, 200, "application/json",
            json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:b}", "api_version", "v2",
                      "advertise_address", self->url, "app_host",
                      wsp_routes_host(self->routes), "app_ports", self->config->app_ports,
                      "permit_cookie", WSP_HTTP_COOKIE_PREFIX "<port>", "permit_path",
                      WSP_CONN_PERMIT_PATH, "token", "bus_apptoken", "ready",
                      wsp_routes_ready(self->routes)));
}

//  GET /v2/proxy/{token}/{session}/add?app=...
static void
s_add(wsp_api_t *self, struct evhttp_request *req, const char *rest)
{
    //  rest: "{token}/{session}/add"
    const char *slash1 = strchr(rest, '/');
    const char *slash2 = slash1 ? strchr(slash1 + 1, '/') : NULL;
    if (!slash1 || !slash2 || strcmp(slash2, "/add") != 0 || slash1 == rest ||
        slash2 == slash1 + 1) {
        s_problem(req, 404, "url-not-found", "Unknown URL path.", NULL);
        return;
    }
    if (!wsp_routes_ready(self->routes)) {
        s_problem(req, 503, "service-unavailable", "Service unavailable.",
                  "no token secret is configured (wsproxy.token_secret_file)");
        return;
    }
    char session[BUS_APPTOKEN_ID_MAX + 1];
    size_t session_len = (size_t) (slash2 - slash1 - 1);
    if (session_len >= sizeof session) {
        s_problem(req, 403, "generic-forbidden", "Forbidden operation.",
                  "the token is not for this session");
        return;
    }
    memcpy(session, slash1 + 1, session_len);
    session[session_len] = '\0';
    struct evkeyvalq query;
    TAILQ_INIT(&query);
    const char *query_text = evhttp_uri_get_query(evhttp_request_get_evhttp_uri(req));
    if (query_text && evhttp_parse_query_str(query_text, &query) != 0) {
        evhttp_clear_headers(&query);
        s_problem(req, 400, "invalid-api-params", "Missing or invalid API parameters.",
                  "malformed query string");
        return;
    }
    const char *app = evhttp_find_header(&query, "app");
    if (!app || !*app) {
        evhttp_clear_headers(&query);
        s_problem(req, 400, "invalid-api-params", "Missing or invalid API parameters.",
                  "app is required");
        return;
    }
    size_t secret_len = 0;
    const uint8_t *secret = wsp_routes_secret(self->routes, &secret_len);
    bus_apptoken_claims_t claims;
    bus_error_t err = {0};
    int rc = bus_apptoken_verify(secret, secret_len, rest, (size_t) (slash1 - rest),
                                 (int64_t) time(NULL), &claims, &err);
    const char *refusal = NULL;
    if (rc != BUS_OK)
        refusal = err.detail;
    else if (strcmp(claims.session_id, session) != 0)
        refusal = "the token is not for this session";
    else if (strcmp(claims.app, app) != 0)
        refusal = "the token is not for this app";
    if (refusal) {
        bus_log_info("app token refused session=%s app=%s reason=\"%s\"", session, app,
                     refusal);
        evhttp_clear_headers(&query);
        s_problem(req, 403, "invalid-credentials", "Forbidden operation.", refusal);
        return;
    }
    evhttp_clear_headers(&query);
    wsp_route_t *route = NULL;
    bool reused = false;
    if (wsp_routes_open(self->routes, &claims, &route, &reused, &err) != BUS_OK) {
        int code = err.status == BUS_STATUS_UNAVAILABLE ? 503 : 500;
        s_problem(req, code,
                  code == 503 ? "service-unavailable" : "internal-server-error",
                  "Cannot open the app.", err.detail);
        return;
    }
    char url[512];
    if (route->row.protocol == BUS_APPTOKEN_TCP)
        snprintf(url, sizeof url, "tcp://%s:%d", wsp_routes_host(self->routes),
                 route->row.port);
    else {
        char *permit = wsp_routes_permit(self->routes, route);
        if (!permit) {
            s_problem(req, 500, "internal-server-error", "Cannot open the app.",
                      "cannot store a permit");
            return;
        }
        snprintf(url, sizeof url, "%s://%s:%d%s?p=%s", wsp_routes_scheme(self->routes),
                 wsp_routes_host(self->routes), route->row.port, WSP_CONN_PERMIT_PATH,
                 permit);
        free(permit);
    }
    s_reply(req, 200, "application/json",
            json_pack("{s:i, s:s, s:i, s:b, s:s, s:s}", "code", 200, "url", url, "port",
                      route->row.port, "reuse", reused, "protocol",
                      bus_apptoken_protocol_str(route->row.protocol), "route",
                      route->row.id));
}

//  Each accepted connection gets its own TLS session on the routes' context
//  (as the gateway's gw_http does).
static struct bufferevent *
s_tls_connection(struct event_base *base, void *arg)
{
    SSL *ssl = SSL_new(arg);
    return ssl ? bufferevent_openssl_socket_new(base, -1, ssl, BUFFEREVENT_SSL_ACCEPTING,
                                                BEV_OPT_CLOSE_ON_FREE)
               : NULL;
}

static void
s_dispatch(struct evhttp_request *req, void *arg)
{
    wsp_api_t *self = arg;
    const char *path = evhttp_uri_get_path(evhttp_request_get_evhttp_uri(req));
    enum evhttp_cmd_type method = evhttp_request_get_command(req);
    if (!path)
        path = "/";
    if (method == EVHTTP_REQ_OPTIONS) {
        struct evkeyvalq *headers = evhttp_request_get_output_headers(req);
        evhttp_add_header(headers, "Access-Control-Allow-Origin", "*");
        evhttp_add_header(headers, "Access-Control-Allow-Methods", "GET, OPTIONS");
        evhttp_add_header(headers, "Access-Control-Allow-Headers", "*");
        evhttp_send_reply(req, 204, NULL, NULL);
        return;
    }
    if (method != EVHTTP_REQ_GET && method != EVHTTP_REQ_HEAD) {
        s_problem(req, 405, "method-not-allowed", "Method not allowed.",
                  strcmp(path, "/v2/conf") == 0
                      ? "app tokens are signed by the gateway (start-service), not here"
                      : NULL);
        return;
    }
    if (strcmp(path, "/") == 0 || strcmp(path, "/status") == 0 ||
        strcmp(path, "/v2/status") == 0)
        s_status(self, req);
    else if (strcmp(path, "/v2/conf") == 0)
        s_conf(self, req);
    else if (strncmp(path, PROXY_PREFIX, strlen(PROXY_PREFIX)) == 0)
        s_add(self, req, path + strlen(PROXY_PREFIX));
    else
        s_problem(req, 404, "url-not-found", "Unknown URL path.", NULL);
}

//  ---------------------------------------------------------------------------

wsp_api_t *
wsp_api_new(bus_node_t *node,
            wsp_routes_t *routes,
            const wsp_config_t *config,
            bus_error_t *err)
{
    assert(node && routes && config);
    wsp_api_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    self->routes = routes;
    self->config = config;
    const char *colon = strrchr(config->listen, ':');
    char host[256];
    size_t host_len = colon ? (size_t) (colon - config->listen) : 0;
    const char *start = config->listen;
    if (host_len >= 2 && start[0] == '[' && start[host_len - 1] == ']') {
        start++;
        host_len -= 2;
    }
    char *end = NULL;
    long port = colon ? strtol(colon + 1, &end, 10) : -1;
    if (!colon || host_len == 0 || host_len >= sizeof host || end == colon + 1 || *end ||
        port < 0 || port > 65535) {
        bus_error_set(err, BUS_STATUS_INVALID, "wsproxy.listen '%s' is not host:port",
                      config->listen);
        goto fail;
    }
    memcpy(host, start, host_len);
    host[host_len] = '\0';
    self->http = evhttp_new(bus_node_base(node));
    if (!self->http) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        goto fail;
    }
    evhttp_set_gencb(self->http, s_dispatch, self);
    evhttp_set_allowed_methods(self->http, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD |
                                               EVHTTP_REQ_OPTIONS | EVHTTP_REQ_POST |
                                               EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE);
    evhttp_set_max_body_size(self->http, 65536);
    if (wsp_routes_tls(routes))
        evhttp_set_bevcb(self->http, s_tls_connection, wsp_routes_tls(routes));
    struct evhttp_bound_socket *bound =
        evhttp_bind_socket_with_handle(self->http, host, (ev_uint16_t) port);
    if (!bound) {
        bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot listen on %s", config->listen);
        goto fail;
    }
    struct sockaddr_storage addr;
    socklen_t addr_len = sizeof addr;
    if (getsockname(evhttp_bound_socket_get_fd(bound), (struct sockaddr *) &addr,
                    &addr_len) == 0)
        port = addr.ss_family == AF_INET6
                   ? ntohs(((struct sockaddr_in6 *) &addr)->sin6_port)
                   : ntohs(((struct sockaddr_in *) &addr)->sin_port);
    snprintf(self->url, sizeof self->url, "%s://%s:%ld", wsp_routes_scheme(routes),
             wsp_routes_host(routes), port);
    return self;
fail:
    wsp_api_destroy(&self);
    return NULL;
}

void
wsp_api_destroy(wsp_api_t **self_p)
{
    assert(self_p);
    wsp_api_t *self = *self_p;
    if (self) {
        if (self->http)
            evhttp_free(self->http);
        free(self);
        *self_p = NULL;
    }
}

const char *
wsp_api_url(wsp_api_t *self)
{
    assert(self);
    return self->url;
}
