/*  =========================================================================
    wsp_routes - the wsproxy's routes: one app of one session for one user,
    served on a port of its own

    The routes are a list (a wsproxy serves at most the ports of its
    range, a hundred by default, so lookups walk it). Each holds its
    listener, its connections and a pointer to its app's counters. The
    database is written through: a route is inserted before its port is
    announced, deleted before it is forgotten, and its counters and expiry
    are written by the cron for routes that moved bytes since the last
    run.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "wsp_classes.h"
#include "wsp_routes_private.h"
#include <netdb.h>          //  getaddrinfo: listen host and targets
#include <netinet/in.h>     //  sockaddr_in(6)
#include <openssl/crypto.h> //  CRYPTO_memcmp, OPENSSL_cleanse
#include <openssl/evp.h>    //  EVP_sha256
#include <openssl/hmac.h>   //  HMAC: cookies
#include <openssl/rand.h>   //  RAND_bytes: ids and permits
#include <openssl/sha.h>    //  SHA256: permits as stored

#define LISTEN_BACKLOG 128
#define COOKIE_CONTEXT "backplane-wsproxy-permit\n"

void
routes_hex(const uint8_t *bytes, size_t len, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    out[2 * len] = '\0';
}

static void
s_stats_free(void **item_p)
{
    free(*item_p);
    *item_p = NULL;
}

static size_t
s_total_conns(wsp_routes_t *self)
{
    size_t total = 0;
    for (wsp_route_t *r = zlistx_first(self->routes); r; r = zlistx_next(self->routes))
        total += zlistx_size(r->conns);
    return total;
}

//  ---------------------------------------------------------------------------
//  Routes

void
wsp_route_idle_close(wsp_route_t *route)
{
    assert(route);
    for (size_t i = 0; i < route->idle_count; i++)
        close(route->idle[i].fd);
    route->idle_count = 0;
}

static void
s_route_destroy(wsp_route_t **route_p)
{
    wsp_route_t *route = *route_p;
    if (route) {
        zlistx_destroy(&route->conns);
        wsp_route_idle_close(route);
        if (route->accept_event)
            event_free(route->accept_event);
        if (route->listener >= 0)
            close(route->listener);
        free(route->targets);
        free(route);
        *route_p = NULL;
    }
}

static void
s_on_accept(evutil_socket_t fd, short what, void *arg)
{
    (void) what;
    wsp_route_t *route = arg;
    wsp_routes_t *self = route->routes;
    for (int i = 0; i < WSP_ROUTES_ACCEPT_TURN; i++) {
        struct sockaddr_storage peer;
        socklen_t peer_len = sizeof peer;
        int client = accept4(fd, (struct sockaddr *) &peer, &peer_len,
                             SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (client < 0)
            return;
        if (s_total_conns(self) >= (size_t) self->config->max_connections) {
            close(client);
            bus_log_warning("app connection refused: %d open",
                            self->config->max_connections);
            continue;
        }
        char host[NI_MAXHOST] = "unknown";
        getnameinfo((struct sockaddr *) &peer, peer_len, host, sizeof host, NULL, 0,
                    NI_NUMERICHOST);
        wsp_conn_t *conn = wsp_conn_new(route, client, host);
        if (!conn)
            continue;
        void *handle = zlistx_add_end(route->conns, conn);
        if (!handle) {
            wsp_conn_destroy(&conn);
            continue;
        }
        wsp_conn_start(conn, handle); //  may drop it at once
    }
}

//  Binds route's port on the listen host and watches it. 0 or -1 (errno).
int
routes_listen(wsp_routes_t *self, wsp_route_t *route)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
    struct addrinfo *found = NULL;
    char service[16];
    snprintf(service, sizeof service, "%d", route->row.port);
    if (getaddrinfo(self->listen_host, service, &hints, &found) != 0 || !found) {
        errno = EADDRNOTAVAIL;
        return -1;
    }
    int fd = socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, found->ai_addr, found->ai_addrlen) != 0 ||
        listen(fd, LISTEN_BACKLOG) != 0) {
        int saved = errno;
        if (fd >= 0)
            close(fd);
        freeaddrinfo(found);
        errno = saved;
        return -1;
    }
    freeaddrinfo(found);
    route->accept_event = event_new(bus_node_base(self->node), fd, EV_READ | EV_PERSIST,
                                    s_on_accept, route);
    if (!route->accept_event || event_add(route->accept_event, NULL) != 0) {
        if (route->accept_event)
            event_free(route->accept_event);
        route->accept_event = NULL;
        close(fd);
        errno = ENOMEM;
        return -1;
    }
    route->listener = fd;
    return 0;
}

//  Resolves host:port into *addr (*addr_len 0 when it does not resolve)
//  and writes "host:port" (brackets for IPv6) into target. 0 or -1.
int
routes_resolve(const char *host_in,
               int port,
               struct sockaddr_storage *addr,
               socklen_t *addr_len,
               char *target,
               size_t target_size)
{
    struct addrinfo hints = {
        .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
    struct addrinfo *found = NULL;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    const char *host = host_in;
    char bare[BUS_APPTOKEN_HOST_MAX + 1];
    size_t len = strlen(host);
    if (len > 2 && host[0] == '[' && host[len - 1] == ']') {
        snprintf(bare, sizeof bare, "%.*s", (int) (len - 2), host + 1);
        host = bare;
    }
    bool v6 = strchr(host_in, ':') && host_in[0] != '[';
    snprintf(target, target_size, "%s%s%s:%d", v6 ? "[" : "", host_in, v6 ? "]" : "",
             port);
    *addr_len = 0;
    if (getaddrinfo(host, service, &hints, &found) != 0 || !found)
        return -1;
    memcpy(addr, found->ai_addr, found->ai_addrlen);
    *addr_len = found->ai_addrlen;
    freeaddrinfo(found);
    return 0;
}

//  Resolves the route's target into route->addr. 0 or -1.
static int
s_route_resolve(wsp_route_t *route)
{
    return routes_resolve(route->row.host, route->row.target_port, &route->addr,
                          &route->addr_len, route->target, sizeof route->target);
}

//  Makes the in-memory route of row (its cookie, its app's counters).
static wsp_route_t *
s_route_new(wsp_routes_t *self, const wsp_db_route_t *row)
{
    wsp_route_t *route = calloc(1, sizeof *route);
    if (!route)
        return NULL;
    route->row = *row;
    route->routes = self;
    route->listener = -1;
    route->flushed_in = row->bytes_in;
    route->flushed_out = row->bytes_out;
    route->conns = zlistx_new();
    if (!route->conns) {
        free(route);
        return NULL;
    }
    zlistx_set_destructor(route->conns, (zlistx_destructor_fn *) wsp_conn_destroy);
    snprintf(route->cookie_name, sizeof route->cookie_name, "%s%d",
             WSP_HTTP_COOKIE_PREFIX, row->port);
    //  the cookie: HMAC(secret, context | id | user), derived again after a restart
    char text[256];
    int text_len =
        snprintf(text, sizeof text, COOKIE_CONTEXT "%s\n%s", row->id, row->user_uuid);
    uint8_t mac[EVP_MAX_MD_SIZE];
    unsigned mac_len = 0;
    if (!self->secret ||
        !HMAC(EVP_sha256(), self->secret, (int) self->secret_len, (const uint8_t *) text,
              (size_t) text_len, mac, &mac_len) ||
        mac_len != 32) {
        s_route_destroy(&route);
        return NULL;
    }
    routes_hex(mac, 32, route->cookie);
    app_stats_t *stats = zhashx_lookup(self->apps, row->app);
    if (!stats) {
        stats = calloc(1, sizeof *stats);
        if (!stats || zhashx_insert(self->apps, row->app, stats) != 0) {
            free(stats);
            s_route_destroy(&route);
            return NULL;
        }
        snprintf(stats->app, sizeof stats->app, "%s", row->app);
    }
    route->app_stats = stats;
    if (row->endpoint)
        snprintf(route->target, sizeof route->target, "endpoint %s", row->session_id);
    else if (s_route_resolve(route) != 0) {
        bus_log_warning("app target does not resolve route=%s target=%s:%d", row->id,
                        row->host, row->target_port);
        snprintf(route->target, sizeof route->target, "%s:%d", row->host,
                 row->target_port);
    }
    return route;
}

static bool
s_port_taken(wsp_routes_t *self, int port)
{
    for (wsp_route_t *r = zlistx_first(self->routes); r; r = zlistx_next(self->routes))
        if (r->row.port == port)
            return true;
    return false;
}

static void
s_on_loaded(void *arg, const wsp_db_route_t *row, const char *targets)
{
    wsp_routes_t *self = arg;
    wsp_route_t *route = s_route_new(self, row);
    if (route && row->endpoint && routes_targets_load(route, targets) != 0)
        bus_log_warning("endpoint replicas not restored endpoint=%s", row->session_id);
    if (!route || !zlistx_add_end(self->routes, route)) {
        bus_log_error("route not restored route=%s", row->id);
        s_route_destroy(&route);
        return;
    }
    if (routes_listen(self, route) != 0)
        bus_log_warning("route port not bound yet route=%s port=%d reason=\"%s\"",
                        row->id, row->port, strerror(errno));
    else
        bus_log_notice("route restored route=%s session=%s app=%s port=%d target=%s",
                       row->id, row->session_id, row->app, row->port, route->target);
}

//  ---------------------------------------------------------------------------

static int
s_parse_range(wsp_routes_t *self, const char *text, bus_error_t *err)
{
    int low = 0, high = 0, used = 0;
    if (sscanf(text, "%d-%d%n", &low, &high, &used) != 2 || text[used] != '\0' ||
        low < 1 || high > 65535 || low > high)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "wsproxy.app_ports '%s' is not LOW-HIGH", text),
               -1;
    self->port_low = low;
    self->port_high = high;
    return 0;
}

wsp_routes_t *
wsp_routes_new(bus_node_t *node, const wsp_config_t *config, bus_error_t *err)
{
    assert(node && config);
    wsp_routes_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    self->config = config;
    self->routes = zlistx_new();
    self->apps = zhashx_new();
    if (!self->routes || !self->apps) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        goto fail;
    }
    zlistx_set_destructor(self->routes, (zlistx_destructor_fn *) s_route_destroy);
    zhashx_set_destructor(self->apps, s_stats_free);
    if (s_parse_range(self, config->app_ports, err) != 0)
        goto fail;
    const char *colon = strrchr(config->listen, ':');
    size_t host_len = colon ? (size_t) (colon - config->listen) : 0;
    const char *host = config->listen;
    if (host_len >= 2 && host[0] == '[' && host[host_len - 1] == ']') {
        host++;
        host_len -= 2;
    }
    if (!colon || host_len == 0 || host_len > WSP_ROUTES_HOST_MAX) {
        bus_error_set(err, BUS_STATUS_INVALID, "wsproxy.listen '%s' is not host:port",
                      config->listen);
        goto fail;
    }
    snprintf(self->listen_host, sizeof self->listen_host, "%.*s", (int) host_len, host);
    if (config->advertise_host && *config->advertise_host)
        snprintf(self->host, sizeof self->host, "%s", config->advertise_host);
    else if (strchr(self->listen_host, ':'))
        snprintf(self->host, sizeof self->host, "[%s]", self->listen_host);
    else
        snprintf(self->host, sizeof self->host, "%s", self->listen_host);
    //  The URLs answered are opened by browsers on other machines, where
    //  0.0.0.0 is no address of this host.
    if (!(config->advertise_host && *config->advertise_host) &&
        bus_addr_host_wildcard(self->listen_host))
        bus_log_warning("wsproxy.listen binds every address and wsproxy.advertise_host is"
                        " empty: the URLs answered name %s, which no other host reaches"
                        " (set wsproxy.advertise_host)",
                        self->host);
    if (config->tls_cert && *config->tls_cert) {
        self->tls = bus_tls_server_new(config->tls_cert, config->tls_key,
                                       "wsproxy.tls_cert", err);
        if (!self->tls)
            goto fail;
    } else if (config->tls_key && *config->tls_key) {
        bus_error_set(err, BUS_STATUS_INVALID,
                      "wsproxy.tls_key %s is set without wsproxy.tls_cert",
                      config->tls_key);
        goto fail;
    }
    if (config->token_secret_file && *config->token_secret_file) {
        if (bus_token_read_secret(config->token_secret_file, "wsproxy.token_secret_file",
                                  &self->secret, &self->secret_len, err) != 0)
            goto fail;
    } else
        bus_log_warning("no wsproxy.token_secret_file: app tokens are refused");
    if (self->secret && wsp_db_routes_each(bus_node_db(node), s_on_loaded, self) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the routes");
        goto fail;
    }
    return self;
fail:
    wsp_routes_destroy(&self);
    return NULL;
}

void
wsp_routes_destroy(wsp_routes_t **self_p)
{
    assert(self_p);
    wsp_routes_t *self = *self_p;
    if (self) {
        if (self->routes) {
            wsp_routes_cron(self); //  the last counters
            zlistx_destroy(&self->routes);
        }
        zhashx_destroy(&self->apps);
        if (self->secret) {
            OPENSSL_cleanse(self->secret, self->secret_len);
            free(self->secret);
        }
        SSL_CTX_free(self->tls);
        free(self);
        *self_p = NULL;
    }
}

//  ---------------------------------------------------------------------------

bool
wsp_routes_ready(wsp_routes_t *self)
{
    assert(self);
    return self->secret != NULL;
}

const uint8_t *
wsp_routes_secret(wsp_routes_t *self, size_t *len)
{
    assert(self && len);
    *len = self->secret_len;
    return self->secret;
}

const char *
wsp_routes_host(wsp_routes_t *self)
{
    assert(self);
    return self->host;
}

SSL_CTX *
wsp_routes_tls(wsp_routes_t *self)
{
    assert(self);
    return self->tls;
}

const char *
wsp_routes_scheme(wsp_routes_t *self)
{
    assert(self);
    return self->tls ? "https" : "http";
}

//  Makes the route of row on the first free port of the range, stores it
//  (with targets, an endpoint's replicas as JSON, or NULL) and serves it.
//  BUS_OK with *route_p, UNAVAILABLE (no free port) or INTERNAL.
int
routes_add(wsp_routes_t *self,
           wsp_db_route_t *row,
           const char *targets,
           wsp_route_t **route_p,
           bus_error_t *err)
{
    wsp_route_t *route = NULL;
    for (int port = self->port_low; port <= self->port_high; port++) {
        if (s_port_taken(self, port))
            continue;
        row->port = port;
        route = s_route_new(self, row);
        if (!route)
            return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        if (routes_listen(self, route) == 0)
            break;
        s_route_destroy(&route); //  in use by someone else: the next one
    }
    if (!route)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                             "no free port in wsproxy.app_ports %d-%d", self->port_low,
                             self->port_high);
    bus_db_t *db = bus_node_db(self->node);
    if (wsp_db_route_insert(db, &route->row, targets) != 0 ||
        !zlistx_add_end(self->routes, route)) {
        wsp_db_route_delete(db, route->row.id);
        s_route_destroy(&route);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot store the route");
    }
    *route_p = route;
    return BUS_OK;
}

int
wsp_routes_open(wsp_routes_t *self,
                const bus_apptoken_claims_t *claims,
                wsp_route_t **route_p,
                bool *reused,
                bus_error_t *err)
{
    assert(self && claims && route_p && reused);
    *route_p = NULL;
    *reused = false;
    if (!self->secret)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "no token secret");
    int64_t now = (int64_t) time(NULL);
    bus_db_t *db = bus_node_db(self->node);
    for (wsp_route_t *r = zlistx_first(self->routes); r; r = zlistx_next(self->routes)) {
        if (r->row.endpoint || strcmp(r->row.session_id, claims->session_id) != 0 ||
            strcmp(r->row.app, claims->app) != 0 ||
            strcmp(r->row.user_uuid, claims->user_uuid) != 0)
            continue;
        bool moved =
            strcmp(r->row.host, claims->host) != 0 || r->row.target_port != claims->port;
        snprintf(r->row.host, sizeof r->row.host, "%s", claims->host);
        r->row.target_port = claims->port;
        snprintf(r->row.kernel_id, sizeof r->row.kernel_id, "%s", claims->kernel_id);
        r->row.expires_at = now + self->config->route_idle_s;
        if (wsp_db_route_retarget(db, &r->row) != 0)
            return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot write the route");
        if (moved || r->addr_len == 0)
            s_route_resolve(r);
        if (r->listener < 0)
            routes_listen(self, r);
        *route_p = r;
        *reused = true;
        return BUS_OK;
    }
    wsp_db_route_t row;
    memset(&row, 0, sizeof row);
    uint8_t id[WSP_ROUTE_ID_LEN / 2];
    if (RAND_bytes(id, sizeof id) != 1)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "no random bytes");
    routes_hex(id, sizeof id, row.id);
    snprintf(row.session_id, sizeof row.session_id, "%s", claims->session_id);
    snprintf(row.kernel_id, sizeof row.kernel_id, "%s", claims->kernel_id);
    snprintf(row.app, sizeof row.app, "%s", claims->app);
    row.protocol = claims->protocol;
    snprintf(row.host, sizeof row.host, "%s", claims->host);
    row.target_port = claims->port;
    snprintf(row.access_key, sizeof row.access_key, "%s", claims->access_key);
    snprintf(row.user_uuid, sizeof row.user_uuid, "%s", claims->user_uuid);
    row.created_at = now;
    row.expires_at = now + self->config->route_idle_s;
    wsp_route_t *route = NULL;
    int rc = routes_add(self, &row, NULL, &route, err);
    if (rc != BUS_OK)
        return rc;
    bus_log_notice("route opened route=%s session=%s app=%s protocol=%s user=%s port=%d "
                   "target=%s",
                   route->row.id, route->row.session_id, route->row.app,
                   bus_apptoken_protocol_str(route->row.protocol), route->row.user_uuid,
                   route->row.port, route->target);
    *route_p = route;
    return BUS_OK;
}

//  The SHA-256 of permit in hex (65 bytes).
static void
s_permit_hash(const char *permit, char *out)
{
    uint8_t digest[SHA256_DIGEST_LENGTH];
    SHA256((const uint8_t *) permit, strlen(permit), digest);
    routes_hex(digest, sizeof digest, out);
}

char *
wsp_routes_permit(wsp_routes_t *self, wsp_route_t *route)
{
    assert(self && route);
    uint8_t random[WSP_ROUTES_PERMIT_BYTES];
    if (RAND_bytes(random, sizeof random) != 1)
        return NULL;
    char *permit = malloc(2 * sizeof random + 1);
    if (!permit)
        return NULL;
    routes_hex(random, sizeof random, permit);
    char hash[2 * SHA256_DIGEST_LENGTH + 1];
    s_permit_hash(permit, hash);
    if (wsp_db_permit_insert(bus_node_db(self->node), hash, route->row.id,
                             (int64_t) time(NULL) + self->config->permit_ttl_s) != 0) {
        free(permit);
        return NULL;
    }
    return permit;
}

size_t
wsp_routes_close_session(wsp_routes_t *self, const char *session_id, size_t *conns_p)
{
    assert(self && session_id);
    size_t routes = 0, conns = 0;
    bus_db_t *db = bus_node_db(self->node);
    bool began = bus_db_begin(db) == 0;
    void *handle = zlistx_first(self->routes) ? zlistx_cursor(self->routes) : NULL;
    while (handle) {
        wsp_route_t *route = zlistx_handle_item(handle);
        void *next = zlistx_next(self->routes) ? zlistx_cursor(self->routes) : NULL;
        if (!route->row.endpoint && strcmp(route->row.session_id, session_id) == 0) {
            conns += zlistx_size(route->conns);
            routes++;
            wsp_db_route_delete(db, route->row.id);
            bus_log_notice("route closed route=%s session=%s app=%s port=%d conns=%zu",
                           route->row.id, session_id, route->row.app, route->row.port,
                           zlistx_size(route->conns));
            zlistx_delete(self->routes, handle);
        }
        handle = next;
    }
    if (began)
        bus_db_commit(db);
    if (conns_p)
        *conns_p = conns;
    return routes;
}

void
wsp_routes_cron(wsp_routes_t *self)
{
    assert(self);
    int64_t now = (int64_t) time(NULL);
    int64_t now_ms = bus_clock_mono_ms();
    bus_db_t *db = bus_node_db(self->node);
    int64_t idle_ms = (int64_t) self->config->idle_timeout_s * 1000;
    bool began = bus_db_begin(db) == 0;
    wsp_db_permits_expire(db, now);
    zlistx_t *expired = zlistx_new();
    for (wsp_route_t *r = zlistx_first(self->routes); r; r = zlistx_next(self->routes)) {
        if (r->used) {
            r->used = false;
            r->row.expires_at = now + self->config->route_idle_s;
        }
        if (r->row.bytes_in != r->flushed_in || r->row.bytes_out != r->flushed_out) {
            if (wsp_db_route_touch(db, r->row.id, r->row.bytes_in, r->row.bytes_out,
                                   r->row.expires_at) == 0) {
                r->flushed_in = r->row.bytes_in;
                r->flushed_out = r->row.bytes_out;
            }
        }
        if (!r->row.endpoint && now >= r->row.expires_at && expired)
            zlistx_add_end(expired, r);
        //  connections silent both ways for too long
        wsp_conn_t *conn = zlistx_first(r->conns);
        while (conn) {
            void *handle = zlistx_cursor(r->conns);
            wsp_conn_t *next = zlistx_next(r->conns);
            int64_t idle = wsp_conn_idle_ms(conn, now_ms);
            if (idle >= idle_ms) {
                bus_log_info("idle app connection closed route=%s", r->row.id);
                zlistx_delete(r->conns, handle);
            } else if (idle >= (int64_t) self->config->cron_ms)
                wsp_conn_trim(conn); //  quiet for a period: default pipes
            conn = next;
        }
        if (r->listener < 0 && routes_listen(self, r) == 0)
            bus_log_notice("route port bound route=%s port=%d", r->row.id, r->row.port);
    }
    for (wsp_route_t *r = expired ? zlistx_first(expired) : NULL; r;
         r = zlistx_next(expired)) {
        bus_log_notice("route expired route=%s session=%s app=%s port=%d", r->row.id,
                       r->row.session_id, r->row.app, r->row.port);
        wsp_db_route_delete(db, r->row.id);
        void *handle = zlistx_find(self->routes, r);
        if (handle)
            zlistx_delete(self->routes, handle);
    }
    zlistx_destroy(&expired);
    if (began)
        bus_db_commit(db);
}

void
wsp_routes_metrics(wsp_routes_t *self, struct evbuffer *out)
{
    assert(self && out);
    const char *service = bus_node_service(self->node);
    evbuffer_add_printf(out,
                        "# TYPE backplane_wsproxy_routes gauge\n"
                        "backplane_wsproxy_routes{service=\"%s\"} %zu\n"
                        "# TYPE backplane_wsproxy_connections gauge\n"
                        "backplane_wsproxy_connections{service=\"%s\"} %zu\n",
                        service, zlistx_size(self->routes), service, s_total_conns(self));
    evbuffer_add_printf(out, "# TYPE backplane_wsproxy_app_connections gauge\n");
    for (app_stats_t *stats = zhashx_first(self->apps); stats;
         stats = zhashx_next(self->apps)) {
        size_t conns = 0;
        for (wsp_route_t *r = zlistx_first(self->routes); r;
             r = zlistx_next(self->routes))
            if (r->app_stats == stats)
                conns += zlistx_size(r->conns);
        evbuffer_add_printf(out, "backplane_wsproxy_app_connections{app=\"%s\"} %zu\n",
                            stats->app, conns);
    }
    evbuffer_add_printf(out, "# TYPE backplane_wsproxy_app_bytes_total counter\n");
    for (app_stats_t *stats = zhashx_first(self->apps); stats;
         stats = zhashx_next(self->apps))
        evbuffer_add_printf(out,
                            "backplane_wsproxy_app_bytes_total{app=\"%s\",direction="
                            "\"in\"} %" PRIu64 "\n"
                            "backplane_wsproxy_app_bytes_total{app=\"%s\",direction="
                            "\"out\"} %" PRIu64 "\n",
                            stats->app, stats->bytes_in, stats->app, stats->bytes_out);
    evbuffer_add_printf(out, "# TYPE backplane_wsproxy_route_bytes_total counter\n");
    for (wsp_route_t *r = zlistx_first(self->routes); r; r = zlistx_next(self->routes))
        evbuffer_add_printf(out,
                            "backplane_wsproxy_route_bytes_total{route=\"%s\",app=\"%s\","
                            "port=\"%d\",direction=\"in\"} %" PRIu64 "\n"
                            "backplane_wsproxy_route_bytes_total{route=\"%s\",app=\"%s\","
                            "port=\"%d\",direction=\"out\"} %" PRIu64 "\n",
                            r->row.id, r->row.app, r->row.port, r->row.bytes_in,
                            r->row.id, r->row.app, r->row.port, r->row.bytes_out);
}

size_t
wsp_routes_count(wsp_routes_t *self)
{
    assert(self);
    return zlistx_size(self->routes);
}

size_t
wsp_routes_connections(wsp_routes_t *self)
{
    assert(self);
    return s_total_conns(self);
}

//  ---------------------------------------------------------------------------

const wsp_config_t *
wsp_routes_config(wsp_routes_t *self)
{
    assert(self);
    return self->config;
}

struct event_base *
wsp_routes_base(wsp_routes_t *self)
{
    assert(self);
    return bus_node_base(self->node);
}

bool
wsp_route_cookie_ok(wsp_route_t *route, const char *value)
{
    assert(route && value);
    size_t len = strlen(route->cookie);
    return strlen(value) == len && CRYPTO_memcmp(value, route->cookie, len) == 0;
}

bool
wsp_route_permit_take(wsp_route_t *route, const char *permit)
{
    assert(route && permit);
    if (strlen(permit) != 2 * WSP_ROUTES_PERMIT_BYTES)
        return false;
    char hash[2 * SHA256_DIGEST_LENGTH + 1];
    s_permit_hash(permit, hash);
    return wsp_db_permit_take(bus_node_db(route->routes->node), hash, route->row.id,
                              (int64_t) time(NULL));
}

void
wsp_route_count(wsp_route_t *route, uint64_t in, uint64_t out)
{
    app_stats_t *stats = route->app_stats;
    route->row.bytes_in += in;
    route->row.bytes_out += out;
    stats->bytes_in += in;
    stats->bytes_out += out;
    route->used = true;
}

void
wsp_route_drop(wsp_route_t *route, void *handle)
{
    assert(route && handle);
    zlistx_delete(route->conns, handle);
}
