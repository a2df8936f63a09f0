/*  =========================================================================
    wsp_routes - the wsproxy's routes: one app of one session for one user,
    served on a port of its own

    A route leads from one port of wsproxy.app_ports to the target an app
    token named (host:port, where the agent published the app). It is
    opened by /v2/proxy/{token}/{session}/add (wsp_api) and kept in the
    database (wsp_db), so a restart binds the same ports again and the same
    cookies still pass. Opening it again (the same session, app and user)
    reuses it, retargeted if the token names another target, and extends
    its expiry.

    Access: an http route admits a request only with the route's permit
    cookie (WSP_HTTP_COOKIE_PREFIX<port>), whose value is an HMAC of the
    route id and the user under the token secret: derived, so nothing
    secret is stored and it survives restarts. Every add answers a URL
    with a one-time permit (random, WSP_ROUTES_PERMIT_BYTES; only its
    SHA-256 is stored, for wsproxy.permit_ttl_s), which the route's port
    exchanges for the cookie (wsp_conn). A tcp route is a plain forwarder
    with no check (Backend.AI's "non-auth TCP").

    A model service's endpoint is a route too (wsproxy.endpoint.set): its
    own port for as long as it exists, no expiry, no cookie; each request
    carries an endpoint token (bus_apptoken_endpoint_*) unless the endpoint
    is open to the public, and goes to one of its replicas (targets),
    picked at random in proportion to their traffic ratios.

    This object owns the routes, their listeners and their connections
    (wsp_conn), the per-app counters for /metrics, and the token secret.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef WSP_ROUTES_H_INCLUDED
#define WSP_ROUTES_H_INCLUDED

#include <sys/socket.h>
#include "bus.h"
#include "bus_tls.h"
#include "bus_apptoken.h"
#include "wsp_config.h"
#include "wsp_db.h"

#define WSP_ROUTES_PERMIT_BYTES 24  //  random bytes of a one-time permit
#define WSP_ROUTES_COOKIE_MAX   64  //  the cookie's value (base64url of a MAC)
#define WSP_ROUTES_ACCEPT_TURN  64  //  connections accepted per turn and port
#define WSP_ROUTES_HOST_MAX     255 //  the advertised host

typedef struct _wsp_routes_t wsp_routes_t;
typedef struct _wsp_conn_t wsp_conn_t;

//  One replica of an endpoint.
typedef struct {
    char route_id[BUS_APPTOKEN_ID_MAX + 1];
    char session_id[BUS_APPTOKEN_ID_MAX + 1];
    char host[BUS_APPTOKEN_HOST_MAX + 1];
    int port;
    double ratio;       //  traffic ratio, >= 0
    uint64_t served;    //  requests picked for it since set
    unsigned in_flight; //  picked, not yet answered
    unsigned bound;     //  client connections whose requests go there
    char target[BUS_APPTOKEN_HOST_MAX + 16]; //  "host:port" for the Host header
    struct sockaddr_storage addr;
    socklen_t addr_len; //  0: does not resolve
} wsp_target_t;

//  An idle connection to one replica of an endpoint, kept for the next
//  request any client sends there (wsp_conn's s_park and s_unpark).
typedef struct {
    char route_id[BUS_APPTOKEN_ID_MAX + 1];
    int fd;
} wsp_idle_t;

#define WSP_ROUTES_IDLE_MAX 64 //  an endpoint's idle app connections kept

//  One route. Read by wsp_conn; changed only here (but its idle pool).
typedef struct {
    wsp_db_route_t row;
    wsp_routes_t *routes;
    int listener; //  -1: its port could not be bound (retried by the cron)
    struct event *accept_event;
    zlistx_t *conns; //  of wsp_conn_t, destroyed with the list
    char cookie_name[32];
    char cookie[WSP_ROUTES_COOKIE_MAX + 1];
    char target[BUS_APPTOKEN_HOST_MAX + 16]; //  "host:port" for the Host header
    struct sockaddr_storage addr;            //  the target, resolved
    socklen_t addr_len;                      //  0: not resolved yet
    uint64_t flushed_in, flushed_out;        //  counters as last written
    bool used;                               //  traffic since the last cron
    void *app_stats;                         //  its app's counters (for /metrics)
    wsp_target_t *targets;                   //  an endpoint's replicas
    size_t target_count;
    wsp_idle_t idle[WSP_ROUTES_IDLE_MAX]; //  an endpoint's idle app connections
    size_t idle_count;
    uint64_t requests; //  an endpoint's requests admitted since it was served here
} wsp_route_t;

//  ---------------------------------------------------------------------------
//  Reads the token secret, loads the TLS certificate and key, loads the routes of node's
//  database and binds their ports on node's loop. config is borrowed and outlives it.
//  Caller owns return value. NULL with err (a bad port range or listen host, an
//  unreadable or short secret, a certificate or key that does not load).
wsp_routes_t *
wsp_routes_new(bus_node_t *node, const wsp_config_t *config, bus_error_t *err);

//  Closes every connection and listener (routes stay in the database).
//  Idempotent, NULLs the pointer.
void wsp_routes_destroy(wsp_routes_t **self_p);

//  Closes every idle app connection of route (its replicas changed, or it
//  goes).
void wsp_route_idle_close(wsp_route_t *route);

//  ---------------------------------------------------------------------------
//  False when no token secret is configured: nothing can be opened.
bool wsp_routes_ready(wsp_routes_t *self);

//  The secret app tokens are checked with. Borrowed; NULL when none.
const uint8_t *wsp_routes_secret(wsp_routes_t *self, size_t *len);

//  The host URLs name (wsproxy.advertise_host, or the listen host).
const char *wsp_routes_host(wsp_routes_t *self);

//  The TLS context the API and the app ports serve with (wsproxy.tls_cert);
//  borrowed, NULL when they serve plain HTTP.
SSL_CTX *wsp_routes_tls(wsp_routes_t *self);

//  The scheme of the URLs answered: "https" with TLS, else "http".
const char *wsp_routes_scheme(wsp_routes_t *self);

//  Opens the route claims grant, or reuses the one the same session, app
//  and user have (retargeted, its expiry extended). *route_p is borrowed;
//  *reused says which. BUS_OK, or with err: BUS_STATUS_UNAVAILABLE (no free
//  port, no secret), BUS_STATUS_INVALID (a target that does not resolve),
//  BUS_STATUS_INTERNAL (database).
int wsp_routes_open(wsp_routes_t *self,
                    const bus_apptoken_claims_t *claims,
                    wsp_route_t **route_p,
                    bool *reused,
                    bus_error_t *err);

//  A new one-time permit for route, valid for wsproxy.permit_ttl_s. Caller
//  owns return value; NULL when it could not be stored.
char *wsp_routes_permit(wsp_routes_t *self, wsp_route_t *route);

//  Serves the endpoint in describes on its port (a new one the first time)
//  with in's replicas, which replace the ones before. *route_p is
//  borrowed. BUS_OK, or with err: UNAVAILABLE (no free port, no secret),
//  INVALID (a replica's port 0), INTERNAL (database).
int wsp_routes_endpoint_set(wsp_routes_t *self,
                            const proto_wsproxy_endpoint_set_req_t *in,
                            wsp_route_t **route_p,
                            bus_error_t *err);

//  Stops serving endpoint_id: closes its port and connections and forgets
//  it. True when it was served; *conns_p (may be NULL) how many
//  connections were closed.
bool
wsp_routes_endpoint_remove(wsp_routes_t *self, const char *endpoint_id, size_t *conns_p);

//  How many requests endpoint_id was asked since this process served it
//  (wsproxy.endpoint.requests, for the gateway's autoscaling). False when
//  it is not served here.
bool wsp_routes_endpoint_requests(wsp_routes_t *self,
                                  const char *endpoint_id,
                                  uint64_t *requests);

//  Closes the routes of session_id (all apps, all users) and their
//  connections at once, frees their ports and deletes them. Returns how
//  many routes; *conns_p (may be NULL) how many connections.
size_t
wsp_routes_close_session(wsp_routes_t *self, const char *session_id, size_t *conns_p);

//  The route cron: expires routes and permits, writes byte counters and
//  expiry of routes used since the last run, closes connections idle for
//  wsproxy.idle_timeout_s (and shrinks the pipes of those quiet for a
//  period), binds ports that could not be bound.
void wsp_routes_cron(wsp_routes_t *self);

//  Appends the wsproxy's Prometheus lines (routes, connections and bytes
//  by app, bytes by route) to out.
void wsp_routes_metrics(wsp_routes_t *self, struct evbuffer *out);

size_t wsp_routes_count(wsp_routes_t *self);
size_t wsp_routes_connections(wsp_routes_t *self);

//  ---------------------------------------------------------------------------
//  For the connections (wsp_conn).

const wsp_config_t *wsp_routes_config(wsp_routes_t *self);

//  The node's loop.
struct event_base *wsp_routes_base(wsp_routes_t *self);

//  True when value is route's permit cookie (constant time).
bool wsp_route_cookie_ok(wsp_route_t *route, const char *value);

//  On a quiet endpoint, a request stays on the replica its connection used
//  last while that one is at most this many requests over its share of the
//  traffic ratios.
#define WSP_ENDPOINT_AFFINITY 8

//  A replica of endpoint route for the next request, counted as picked and
//  in flight (until wsp_route_release), of those that resolve and have a
//  traffic ratio, other than the one whose route id is avoid (may be NULL)
//  when another can take requests: the one whose route id is stay (may be
//  NULL: a new connection) while no other would have fewer client
//  connections with this one (wsp_route_bind) than it has and, when no
//  other request is in flight, it is within WSP_ENDPOINT_AFFINITY of its
//  share of the requests; else the one with the fewest client connections,
//  then the fewest requests in flight, then the one owed most of its share,
//  all for their ratios. NULL when none can take requests.
const wsp_target_t *
wsp_route_pick(wsp_route_t *route, const char *stay, const char *avoid);

//  A client connection's requests go to replica route_id to (NULL: it
//  leaves) instead of route_id from (NULL: none before).
void wsp_route_bind(wsp_route_t *route, const char *from, const char *to);

//  The request wsp_route_pick gave replica route_id ended (answered,
//  failed, or became a byte pipe): no longer in flight there. Nothing when
//  the replica is gone meanwhile.
void wsp_route_release(wsp_route_t *route, const char *route_id);

int wsp_route_endpoint_admit(wsp_route_t *route,
                             const char *authorization,
                             int64_t *expires,
                             bus_error_t *err);

//  Uses the one-time permit for route: true once, when valid.
bool wsp_route_permit_take(wsp_route_t *route, const char *permit);

//  Counts bytes relayed on route: in from the client, out from the app.
void wsp_route_count(wsp_route_t *route, uint64_t in, uint64_t out);

//  The connection that handle names ended: closes and frees it.
void wsp_route_drop(wsp_route_t *route, void *handle);

#endif
