/*  =========================================================================
    sp_http - the storage-proxy's client-facing HTTP endpoint: the server

    A small HTTP/1.1 server on the node's loop, written for bulk data
    rather than on evhttp: libevent 2.1 reads a request body 4 KiB per
    system call and event (EVBUFFER_MAX_READ) and holds all of it before
    the handler runs, which caps an upload far below what the socket and
    the disk can do.

    This object owns the listener, the open connections (sp_http_conn, at
    most SP_HTTP_CONN_MAX) and the token secret. A connection that has
    parsed a request head hands it to sp_http_dispatch, which finds its
    route in one table by path:

      /           the client-facing status document (GET, HEAD)
      /upload     tus uploads (sp_http_upload)
      /download   downloads with ranges (sp_http_download)

    Every request ends in exactly one answer. A token is checked before
    anything else about the request (sp_http_authorize), and the folder it
    names is looked up in the table each time (a purged folder's tokens
    stop working at once).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <netdb.h>          //  getaddrinfo: the listen address
#include <netinet/in.h>     //  sockaddr_in(6): the bound port
#include <openssl/crypto.h> //  OPENSSL_cleanse: the secret on the way out
#include <sys/queue.h>      //  TAILQ_INIT: the parsed query
#include <sys/socket.h>     //  the listener

#define LISTEN_BACKLOG 128

struct _sp_http_t {
    bus_node_t *node;
    sp_folders_t *folders;
    int listener;
    struct event *accept_event;
    zlistx_t *conns; //  of sp_http_conn_t, destroyed with the list
    uint64_t max_body;
    char endpoint[300];
    char url[512];
    SSL_CTX *tls;    //  when /upload and /download are HTTPS, else NULL
    uint8_t *secret; //  NULL: tokens refused
    size_t secret_len;
};

//  ---------------------------------------------------------------------------
//  Routes

//  GET / : what Backend.AI's storage-proxy answers on its client API.
static void
s_route_status(sp_http_t *self, sp_http_conn_t *conn, struct evkeyvalq *query)
{
    (void) self;
    (void) query;
    const char *method = sp_http_conn_request(conn)->method;
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        sp_http_conn_problem(conn, 404, "url-not-found", "Unknown URL path.", NULL);
        return;
    }
    static const char status[] = "{\"status\":\"ok\",\"type\":\"client-facing\","
                                 "\"storage-proxy\":\"" BACKPLANE_VERSION "\"}";
    sp_http_conn_answer(conn, 200, "application/json", status, sizeof status - 1);
}

//  The route table: a request's path (its target up to "?") names one.
static const struct {
    const char *path;
    sp_http_route_fn *fn;
} s_routes[] = {
    {"/", s_route_status},
    {"/upload", sp_http_upload_route},
    {"/download", sp_http_download_route},
};

//  A browser's CORS preflight (an OPTIONS with Access-Control-Request-
//  Method), asked before an upload's PATCH or HEAD from a page of another
//  origin: answered for every route, with what the routes take. The answer
//  itself carries Access-Control-Allow-Origin (sp_http_conn_answer). A
//  page on a public address asking for a private one (Chromium's Private
//  Network Access) is allowed too: the token is the authority. True when
//  answered.
static bool
s_preflight(sp_http_conn_t *conn)
{
    if (strcmp(sp_http_conn_request(conn)->method, "OPTIONS") != 0 ||
        !sp_http_conn_header(conn, "Access-Control-Request-Method"))
        return false;
    sp_http_conn_add(conn,
                     "Access-Control-Allow-Methods: GET, HEAD, POST, PATCH, OPTIONS");
    sp_http_conn_add(conn,
                     "Access-Control-Allow-Headers: Tus-Resumable, Upload-Offset, "
                     "Upload-Length, Upload-Metadata, Content-Type, Range, If-Range, "
                     "X-Requested-With");
    sp_http_conn_add(conn, "Access-Control-Max-Age: 3600");
    const char *pna = sp_http_conn_header(conn, "Access-Control-Request-Private-Network");
    if (pna && strcasecmp(pna, "true") == 0)
        sp_http_conn_add(conn, "Access-Control-Allow-Private-Network: true");
    sp_http_conn_add(conn, "Vary: Origin, Access-Control-Request-Method, "
                           "Access-Control-Request-Headers");
    sp_http_conn_answer(conn, 204, NULL, NULL, 0);
    return true;
}

void
sp_http_dispatch(sp_http_t *self, sp_http_conn_t *conn)
{
    assert(self && conn);
    const char *target = sp_http_conn_request(conn)->target;
    const char *query_text = strchr(target, '?');
    size_t path_len = query_text ? (size_t) (query_text - target) : strlen(target);
    struct evkeyvalq query;
    TAILQ_INIT(&query);
    if (query_text && evhttp_parse_query_str(query_text + 1, &query) != 0) {
        evhttp_clear_headers(&query);
        sp_http_conn_problem(conn, 400, "invalid-api-params",
                             "Missing or invalid API parameters.",
                             "malformed query string");
        return;
    }
    size_t i = 0;
    size_t count = sizeof s_routes / sizeof s_routes[0];
    while (i < count && !(strlen(s_routes[i].path) == path_len &&
                          strncmp(target, s_routes[i].path, path_len) == 0))
        i++;
    if (i == count)
        sp_http_conn_problem(conn, 404, "url-not-found", "Unknown URL path.", NULL);
    else if (!s_preflight(conn))
        s_routes[i].fn(self, conn, &query);
    evhttp_clear_headers(&query);
}

//  ---------------------------------------------------------------------------
//  Tokens and folders

bool
sp_http_authorize(sp_http_t *self,
                  sp_http_conn_t *conn,
                  struct evkeyvalq *query,
                  bus_token_op_t op,
                  bus_token_claims_t *claims,
                  sp_folder_t *folder)
{
    assert(self && conn && query && claims && folder);
    const char *token = evhttp_find_header(query, "token");
    if (!self->secret) {
        sp_http_conn_problem(conn, 503, "service-unavailable", "Service unavailable.",
                             "no token secret is configured (http.token_secret_file)");
        return false;
    }
    if (!token || !*token) {
        sp_http_conn_problem(conn, 400, "invalid-auth-params",
                             "Missing or invalid authorization parameters.", "no token");
        return false;
    }
    bus_error_t err = {0};
    if (bus_token_verify(self->secret, self->secret_len, token, strlen(token),
                         (int64_t) time(NULL), op, claims, &err) != BUS_OK) {
        if (err.status == BUS_STATUS_INVALID)
            sp_http_conn_problem(conn, 400, "invalid-auth-params",
                                 "Missing or invalid authorization parameters.",
                                 err.detail);
        else if (err.status == BUS_STATUS_FORBIDDEN)
            sp_http_conn_problem(conn, 403, "generic-forbidden", "Forbidden operation.",
                                 err.detail);
        else
            sp_http_conn_problem_for(conn, &err);
        return false;
    }
    if (sp_folders_get(self->folders, claims->folder, claims->volume, folder, &err) !=
        BUS_OK) {
        sp_http_conn_problem(conn, 404, "object-not-found", "No such virtual folder.",
                             err.detail);
        return false;
    }
    return true;
}

//  ---------------------------------------------------------------------------
//  Connections

static void
s_on_accept(evutil_socket_t fd, short what, void *arg)
{
    (void) what;
    sp_http_t *self = arg;
    for (int i = 0; i < SP_HTTP_ACCEPT_TURN; i++) {
        int client = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (client < 0)
            return;
        if (zlistx_size(self->conns) >= SP_HTTP_CONN_MAX) {
            close(client);
            bus_log_warning("http connection refused: %d open", SP_HTTP_CONN_MAX);
            continue;
        }
        sp_http_conn_t *conn =
            sp_http_conn_new(self, bus_node_base(self->node), client, self->tls);
        if (!conn) {
            close(client);
            continue;
        }
        void *handle = zlistx_add_end(self->conns, conn);
        if (!handle) {
            sp_http_conn_destroy(&conn); //  closes client
            continue;
        }
        sp_http_conn_start(conn, handle);
    }
}

void
sp_http_drop(sp_http_t *self, void *handle)
{
    assert(self && handle);
    zlistx_delete(self->conns, handle);
}

//  ---------------------------------------------------------------------------
//  Set-up

//  Binds listen ("host:port", "[v6]:port"); fills self->endpoint. 0 or -1.
static int
s_bind(sp_http_t *self, const char *listen_at, bus_error_t *err)
{
    const char *colon = strrchr(listen_at, ':');
    char host[256];
    size_t host_len = colon ? (size_t) (colon - listen_at) : 0;
    if (host_len >= 2 && listen_at[0] == '[' && listen_at[host_len - 1] == ']') {
        listen_at++;
        host_len -= 2;
    }
    char *end = NULL;
    long port = colon ? strtol(colon + 1, &end, 10) : -1;
    if (!colon || host_len == 0 || host_len >= sizeof host || end == colon + 1 || *end ||
        port < 0 || port > 65535)
        return bus_error_set(err, BUS_STATUS_INVALID, "http.listen '%s' is not host:port",
                             listen_at),
               -1;
    memcpy(host, listen_at, host_len);
    host[host_len] = '\0';
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
    struct addrinfo *found = NULL;
    char service[16];
    snprintf(service, sizeof service, "%ld", port);
    if (getaddrinfo(host, service, &hints, &found) != 0 || !found)
        return bus_error_set(err, BUS_STATUS_INVALID, "http.listen: cannot resolve %s",
                             host),
               -1;
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
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot listen on %s:%ld: %s",
                             host, port, strerror(saved)),
               -1;
    }
    freeaddrinfo(found);
    struct sockaddr_storage addr;
    socklen_t addr_len = sizeof addr;
    if (getsockname(fd, (struct sockaddr *) &addr, &addr_len) == 0)
        port = addr.ss_family == AF_INET6
                   ? ntohs(((struct sockaddr_in6 *) &addr)->sin6_port)
                   : ntohs(((struct sockaddr_in *) &addr)->sin_port);
    bool v6 = strchr(host, ':') != NULL;
    snprintf(self->endpoint, sizeof self->endpoint, "%s%s%s:%ld", v6 ? "[" : "", host,
             v6 ? "]" : "", port);
    self->listener = fd;
    return 0;
}

//  ---------------------------------------------------------------------------

sp_http_t *
sp_http_new(bus_node_t *node,
            sp_folders_t *folders,
            const sp_config_t *config,
            bus_error_t *err)
{
    assert(node && folders && config);
    sp_http_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    self->folders = folders;
    self->listener = -1;
    self->conns = zlistx_new();
    if (!self->conns) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        goto fail;
    }
    zlistx_set_destructor(self->conns, (zlistx_destructor_fn *) sp_http_conn_destroy);
    self->max_body = (uint64_t) config->max_chunk_bytes;
    if (config->token_secret_file && *config->token_secret_file) {
        if (bus_token_read_secret(config->token_secret_file, "http.token_secret_file",
                                  &self->secret, &self->secret_len, err) != 0)
            goto fail;
    } else
        bus_log_warning("no http.token_secret_file: uploads and downloads are refused");
    if (config->http_tls_cert && *config->http_tls_cert &&
        !(self->tls = bus_tls_server_new(config->http_tls_cert, config->http_tls_key,
                                         "http.tls_cert", err)))
        goto fail;
    if (s_bind(self, config->http_listen, err) != 0)
        goto fail;
    self->accept_event = event_new(bus_node_base(node), self->listener,
                                   EV_READ | EV_PERSIST, s_on_accept, self);
    if (!self->accept_event || event_add(self->accept_event, NULL) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot watch the HTTP listener");
        goto fail;
    }
    if (config->http_advertise && *config->http_advertise)
        snprintf(self->url, sizeof self->url, "%s", config->http_advertise);
    else {
        snprintf(self->url, sizeof self->url, "%s://%s", self->tls ? "https" : "http",
                 self->endpoint);
        //  Clients are sent to this URL from their own machines, where
        //  0.0.0.0 is no address of this host.
        char host[256], port[32];
        if (bus_addr_endpoint_split(self->endpoint, host, sizeof host, port,
                                    sizeof port) == 0 &&
            bus_addr_host_wildcard(host))
            bus_log_warning("http.listen binds every address and http.advertise is empty:"
                            " clients are sent to %s, which no other host reaches (set"
                            " http.advertise to %s://<this host's address>:%s)",
                            self->url, self->tls ? "https" : "http", port);
    }
    return self;
fail:
    sp_http_destroy(&self);
    return NULL;
}

void
sp_http_destroy(sp_http_t **self_p)
{
    assert(self_p);
    sp_http_t *self = *self_p;
    if (self) {
        zlistx_destroy(&self->conns);
        if (self->accept_event)
            event_free(self->accept_event);
        if (self->listener >= 0)
            close(self->listener);
        SSL_CTX_free(self->tls);
        if (self->secret) {
            OPENSSL_cleanse(self->secret, self->secret_len);
            free(self->secret);
        }
        free(self);
        *self_p = NULL;
    }
}

//  ---------------------------------------------------------------------------

const char *
sp_http_url(sp_http_t *self)
{
    assert(self);
    return self->url;
}

const char *
sp_http_endpoint(sp_http_t *self)
{
    assert(self);
    return self->endpoint;
}

uint64_t
sp_http_max_body(sp_http_t *self)
{
    assert(self);
    return self->max_body;
}

sp_folders_t *
sp_http_folders(sp_http_t *self)
{
    assert(self);
    return self->folders;
}
