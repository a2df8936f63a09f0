/*  =========================================================================
    wsp_endpoints - model services' endpoints among the wsproxy's routes

    An endpoint is a route (wsp_routes: its port, listener, connections and
    counters) with no target of its own and no expiry: its replicas
    (wsp_target_t) come whole with every wsproxy.endpoint.set, are stored
    with its row as JSON so a restart serves them again, and each request
    goes to one of them in proportion to the traffic ratios (Backend.AI's
    traffic_ratio), admitted by an endpoint token unless the endpoint is
    open to the public.

    The pick is a smooth weighted round robin (the replica owed most of its
    share goes next) with affinity: a client connection's request stays
    on the replica its last one went to while that replica is no more than
    WSP_ENDPOINT_AFFINITY requests over its share. A model server that
    keeps a thread per connection (Python's, most of them) pays for every
    switch between its connections: bench-serving measured 143 us of the
    replicas' CPU a request when each request went elsewhere, against 105
    us when a connection stayed. A chat's turns on one connection also
    find the replica that holds its prefix cache. Shares still hold over
    any window wider than the affinity, on one connection or many.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "wsp_classes.h"
#include "wsp_routes_private.h"
#include <openssl/rand.h> //  RAND_bytes: ids

//  Fills target from one replica; false when it cannot be one.
static bool
s_target_fill(wsp_target_t *target,
              const char *route_id,
              const char *session_id,
              const char *host,
              int64_t port,
              double ratio)
{
    if (!route_id || !host || !*host || port < 1 || port > 65535 || !(ratio >= 0) ||
        strlen(route_id) > BUS_APPTOKEN_ID_MAX || strlen(host) > BUS_APPTOKEN_HOST_MAX ||
        (session_id && strlen(session_id) > BUS_APPTOKEN_ID_MAX))
        return false;
    memset(target, 0, sizeof *target);
    snprintf(target->route_id, sizeof target->route_id, "%s", route_id);
    snprintf(target->session_id, sizeof target->session_id, "%s",
             session_id ? session_id : "");
    snprintf(target->host, sizeof target->host, "%s", host);
    target->port = (int) port;
    target->ratio = ratio;
    if (routes_resolve(host, (int) port, &target->addr, &target->addr_len, target->target,
                       sizeof target->target) != 0)
        bus_log_warning("endpoint replica does not resolve route=%s target=%s", route_id,
                        target->target);
    return true;
}

//  Replaces route's replicas with targets (count of them; taken).
static void
s_targets_take(wsp_route_t *route, wsp_target_t *targets, size_t count)
{
    //  A replica gone, or another on its address: no connection kept.
    wsp_route_idle_close(route);
    //  Requests in flight on a replica that stays end later, and release it;
    //  its client connections leave it later too.
    for (size_t i = 0; i < count; i++)
        for (size_t j = 0; j < route->target_count; j++)
            if (strcmp(targets[i].route_id, route->targets[j].route_id) == 0) {
                targets[i].in_flight = route->targets[j].in_flight;
                targets[i].bound = route->targets[j].bound;
            }
    free(route->targets);
    route->targets = targets;
    route->target_count = count;
}

//  The replicas as stored (a JSON array). 0 or -1 (those that parse stay).
int
routes_targets_load(wsp_route_t *route, const char *text)
{
    json_t *array = json_loads(text, 0, NULL);
    size_t count = json_array_size(array);
    wsp_target_t *targets = calloc(count ? count : 1, sizeof *targets);
    size_t filled = 0;
    for (size_t i = 0; targets && i < count; i++) {
        json_t *item = json_array_get(array, i);
        if (s_target_fill(&targets[filled],
                          json_string_value(json_object_get(item, "route_id")),
                          json_string_value(json_object_get(item, "session_id")),
                          json_string_value(json_object_get(item, "host")),
                          json_integer_value(json_object_get(item, "port")),
                          json_number_value(json_object_get(item, "traffic_ratio"))))
            filled++;
    }
    bool whole = targets && json_is_array(array) && filled == count;
    json_decref(array);
    s_targets_take(route, targets, filled);
    return whole ? 0 : -1;
}

//  route's replicas as they are stored. Caller owns return value; NULL
//  when out of memory.
static char *
s_targets_json(const wsp_target_t *targets, size_t count)
{
    json_t *array = json_array();
    for (size_t i = 0; array && i < count; i++) {
        const wsp_target_t *t = &targets[i];
        json_array_append_new(array, json_pack("{s:s, s:s, s:s, s:i, s:f}", "route_id",
                                               t->route_id, "session_id", t->session_id,
                                               "host", t->host, "port", t->port,
                                               "traffic_ratio", t->ratio));
    }
    char *text = array ? json_dumps(array, JSON_COMPACT) : NULL;
    json_decref(array);
    return text;
}

static wsp_route_t *
s_endpoint_find(wsp_routes_t *self, const char *endpoint_id)
{
    for (wsp_route_t *r = zlistx_first(self->routes); r; r = zlistx_next(self->routes))
        if (r->row.endpoint && strcmp(r->row.session_id, endpoint_id) == 0)
            return r;
    return NULL;
}

int
wsp_routes_endpoint_set(wsp_routes_t *self,
                        const proto_wsproxy_endpoint_set_req_t *in,
                        wsp_route_t **route_p,
                        bus_error_t *err)
{
    assert(self && in && route_p);
    *route_p = NULL;
    if (!self->secret)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "no token secret");
    if (strlen(in->endpoint_id) > BUS_APPTOKEN_ID_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID, "endpoint id over %d bytes",
                             BUS_APPTOKEN_ID_MAX);
    size_t count = in->targets_count;
    wsp_target_t *targets = calloc(count ? count : 1, sizeof *targets);
    if (!targets)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    for (size_t i = 0; i < count; i++) {
        const proto_wsproxy_target_t *t = &in->targets[i];
        if (!s_target_fill(&targets[i], t->route_id, t->session_id, t->host,
                           t->port > 65535 ? 0 : (int64_t) t->port, t->traffic_ratio)) {
            free(targets);
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "replica %s: bad target %s:%" PRIu64, t->route_id,
                                 t->host, t->port);
        }
    }
    char *text = s_targets_json(targets, count);
    if (!text) {
        free(targets);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    const char *name = in->name && bus_apptoken_app_ok(in->name) ? in->name : "endpoint";
    int rc = BUS_OK;
    wsp_route_t *route = s_endpoint_find(self, in->endpoint_id);
    if (route) {
        wsp_db_route_t row = route->row;
        snprintf(row.app, sizeof row.app, "%s", name);
        row.open_to_public = in->open_to_public;
        if (wsp_db_endpoint_update(bus_node_db(self->node), &row, text) != 0) {
            //  what is served stays what is stored
            free(text);
            free(targets);
            return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot store the endpoint");
        }
        route->row = row;
        if (route->listener < 0)
            routes_listen(self, route);
    } else {
        wsp_db_route_t row;
        memset(&row, 0, sizeof row);
        uint8_t id[WSP_ROUTE_ID_LEN / 2];
        if (RAND_bytes(id, sizeof id) != 1)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "no random bytes");
        routes_hex(id, sizeof id, row.id);
        snprintf(row.session_id, sizeof row.session_id, "%s", in->endpoint_id);
        snprintf(row.app, sizeof row.app, "%s", name);
        row.protocol = BUS_APPTOKEN_HTTP;
        row.endpoint = true;
        row.open_to_public = in->open_to_public;
        row.created_at = (int64_t) time(NULL);
        row.expires_at = INT64_MAX; //  until wsproxy.endpoint.remove
        if (rc == BUS_OK)
            rc = routes_add(self, &row, text, &route, err);
    }
    free(text);
    if (rc != BUS_OK && !route) {
        free(targets);
        return rc;
    }
    s_targets_take(route, targets, count);
    bus_log_notice("endpoint served endpoint=%s name=%s port=%d replicas=%zu public=%s",
                   in->endpoint_id, name, route->row.port, count,
                   route->row.open_to_public ? "yes" : "no");
    *route_p = route;
    return rc;
}

bool
wsp_routes_endpoint_remove(wsp_routes_t *self, const char *endpoint_id, size_t *conns_p)
{
    assert(self && endpoint_id);
    wsp_route_t *route = s_endpoint_find(self, endpoint_id);
    if (conns_p)
        *conns_p = route ? zlistx_size(route->conns) : 0;
    if (!route)
        return false;
    bus_log_notice("endpoint removed endpoint=%s port=%d conns=%zu", endpoint_id,
                   route->row.port, zlistx_size(route->conns));
    wsp_db_route_delete(bus_node_db(self->node), route->row.id);
    void *handle = zlistx_find(self->routes, route);
    if (handle)
        zlistx_delete(self->routes, handle);
    return true;
}

bool
wsp_routes_endpoint_requests(wsp_routes_t *self,
                             const char *endpoint_id,
                             uint64_t *requests)
{
    assert(self && endpoint_id && requests);
    wsp_route_t *route = s_endpoint_find(self, endpoint_id);
    *requests = route ? route->requests : 0;
    return route != NULL;
}

//  Whether target t can take requests: it resolves and has a ratio.
static bool
s_usable(const wsp_target_t *t)
{
    return t->addr_len && t->ratio > 0;
}

//  Whether target t is the replica route_id (may be NULL: none is).
static bool
s_named(const wsp_target_t *t, const char *route_id)
{
    return route_id && strcmp(t->route_id, route_id) == 0;
}

//  Requests in flight at replica t for its ratio.
static double
s_load(const wsp_target_t *t)
{
    return (double) t->in_flight / t->ratio;
}

//  Client connections whose requests go to replica t for its ratio, with
//  (plus) more.
static double
s_conns(const wsp_target_t *t, double plus)
{
    return ((double) t->bound + plus) / t->ratio;
}

static const wsp_target_t *
s_picked(wsp_target_t *t)
{
    t->served++;
    t->in_flight++;
    return t;
}

const wsp_target_t *
wsp_route_pick(wsp_route_t *route, const char *stay, const char *avoid)
{
    assert(route);
    wsp_target_t *avoided = NULL, *kept = NULL;
    double ratios = 0, served = 0;
    bool busy = false; //  another request is in flight
    for (size_t i = 0; i < route->target_count; i++) {
        wsp_target_t *t = &route->targets[i];
        if (!s_usable(t))
            continue;
        if (s_named(t, avoid)) {
            avoided = t;
            continue;
        }
        ratios += t->ratio;
        served += (double) t->served;
        busy = busy || t->in_flight > 0;
        if (s_named(t, stay))
            kept = t;
    }
    if (!(ratios > 0))
        return avoided ? s_picked(avoided) : NULL;
    //  What each replica is owed after this request: its share of all the
    //  requests its peers took so far, this one included, less its own.
    double after = served + 1;
    //  The connection's replica again, on the same app connection (a model
    //  server's same thread), while no other replica would have fewer
    //  client connections with this one than it has now, for their ratios
    //  (6 clients on 3 replicas stay 2, 2 and 2), and, when the endpoint is
    //  quiet (nothing else in flight: a lone client, whose requests the
    //  ratios spread), it is within WSP_ENDPOINT_AFFINITY of its share.
    //  Moving under load, to the least loaded or the one owed most, spread
    //  each replica's requests over as many app connections as there are
    //  clients, and cost its interpreter a third more CPU per request than
    //  one thread a client (make bench-serving).
    if (kept && (busy || (double) kept->served + 1 <=
                             after * kept->ratio / ratios + WSP_ENDPOINT_AFFINITY)) {
        bool evener = false;
        for (size_t i = 0; i < route->target_count && !evener; i++) {
            wsp_target_t *t = &route->targets[i];
            evener = s_usable(t) && t != avoided && t != kept &&
                     s_conns(t, 1) < s_conns(kept, 0);
        }
        if (!evener)
            return s_picked(kept);
    }
    //  Else the one with the fewest client connections (this one not
    //  counted), then the fewest requests in flight, then the one owed most
    //  of its share, all for their ratios.
    wsp_target_t *best = NULL;
    double best_conns = 0, best_load = 0, best_owed = 0;
    for (size_t i = 0; i < route->target_count; i++) {
        wsp_target_t *t = &route->targets[i];
        if (!s_usable(t) || t == avoided)
            continue;
        double conns = s_conns(t, t == kept ? -1 : 0);
        double load = s_load(t);
        double owed = after * t->ratio / ratios - (double) t->served;
        if (!best || conns < best_conns ||
            (conns == best_conns &&
             (load < best_load || (load == best_load && owed > best_owed)))) {
            best = t;
            best_conns = conns;
            best_load = load;
            best_owed = owed;
        }
    }
    return s_picked(best);
}

void
wsp_route_bind(wsp_route_t *route, const char *from, const char *to)
{
    assert(route);
    for (size_t i = 0; i < route->target_count; i++) {
        wsp_target_t *t = &route->targets[i];
        if (s_named(t, from) && t->bound > 0)
            t->bound--;
        if (s_named(t, to))
            t->bound++;
    }
}

void
wsp_route_release(wsp_route_t *route, const char *route_id)
{
    assert(route && route_id);
    for (size_t i = 0; i < route->target_count; i++) {
        wsp_target_t *t = &route->targets[i];
        if (strcmp(t->route_id, route_id) == 0 && t->in_flight > 0) {
            t->in_flight--;
            return;
        }
    }
}

int
wsp_route_endpoint_admit(wsp_route_t *route,
                         const char *authorization,
                         int64_t *expires,
                         bus_error_t *err)
{
    assert(route);
    const char *token = NULL;
    if (authorization && strncasecmp(authorization, "BackendAI ", 10) == 0)
        token = authorization + 10;
    else if (authorization && strncasecmp(authorization, "Bearer ", 7) == 0)
        token = authorization + 7;
    while (token && *token == ' ')
        token++;
    if (!token || !*token)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "this endpoint needs a token: Authorization: BackendAI"
                             " <token> (POST /services/{id}/token)");
    wsp_routes_t *self = route->routes;
    bus_apptoken_endpoint_t claims;
    int rc =
        bus_apptoken_endpoint_verify(self->secret, self->secret_len, token, strlen(token),
                                     (int64_t) time(NULL), &claims, err);
    if (rc == BUS_OK && strcmp(claims.endpoint_id, route->row.session_id) != 0)
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "the token is for another endpoint");
    if (rc != BUS_OK)
        err->status = BUS_STATUS_FORBIDDEN; //  a token was given: it does not pass
    else if (expires)
        *expires = claims.expires;
    return rc == BUS_OK ? BUS_OK : BUS_STATUS_FORBIDDEN;
}
