/*  =========================================================================
    gw_endpoint_reconcile - model services' replicas made to match what is
    wanted, and their routes' status kept (the passes are in the header)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define S_PERIOD_MS 2000  //  between passes
#define S_SYNC_MS   5000  //  between session.get of one route's session
#define S_LOST_MS   60000 //  a provisioning route without session or launch

//  What a call in flight holds: its replies may come after the
//  reconciliation is gone (the node fails the calls left when it is
//  destroyed, after the gateway's state), and then find self NULL.
typedef struct {
    gw_endpoint_reconcile_t *self;
    int refs;
} s_link_t;

struct _gw_endpoint_reconcile_t {
    s_link_t *link;
    gw_server_t *gw;
    gw_events_t *events;
    gw_events_listener_t *listener;
    struct event *timer;
    zhashx_t *launching;        //  route id -> "" while its session is being created
    zhashx_t *synced;           //  route id -> last session.get (mono ms, boxed)
    gw_endpoint_proxy_t *proxy; //  the endpoints' URLs on the wsproxy
    gw_endpoint_tries_t *tries; //  trial runs, which follow the same events
    gw_endpoint_autoscale_t *autoscale; //  the autoscaling rules, which kick it
};

//  One replica's launch, or one session.get, on its way.
typedef struct {
    s_link_t *link;
    char route_id[GW_UUID_SIZE];
    char endpoint_id[GW_UUID_SIZE];
} s_call_t;

static s_call_t *
s_call_new(gw_endpoint_reconcile_t *self, const char *route_id, const char *endpoint_id)
{
    s_call_t *call = calloc(1, sizeof *call);
    if (!call)
        return NULL;
    call->link = self->link;
    call->link->refs++;
    snprintf(call->route_id, sizeof call->route_id, "%s", route_id);
    snprintf(call->endpoint_id, sizeof call->endpoint_id, "%s",
             endpoint_id ? endpoint_id : "");
    return call;
}

static void
s_call_destroy(s_call_t **call_p)
{
    s_call_t *call = *call_p;
    if (!call)
        return;
    if (--call->link->refs == 0)
        free(call->link);
    free(call);
    *call_p = NULL;
}

static bus_db_t *
s_db(gw_endpoint_reconcile_t *self)
{
    return gw_server_db(self->gw);
}

//  A route that could not start: FAILED_TO_START with Backend.AI's
//  error_data, and one more failed start for its endpoint.
static void
s_failed(gw_endpoint_reconcile_t *self,
         const char *route_id,
         const char *endpoint_id,
         const char *session_id,
         const char *type,
         const char *detail)
{
    json_t *data =
        json_pack("{s:s, s:[{s:s, s:s, s:s}], s:s?}", "type", type, "errors", "src", "",
                  "name", type, "repr", detail ? detail : "", "session_id", session_id);
    char *text = json_dumps(data, JSON_COMPACT);
    gw_route_set_status(s_db(self), route_id, "failed_to_start", text);
    gw_endpoint_retries(s_db(self), endpoint_id, 1);
    bus_log_warning("route failed to start route=%s endpoint=%s detail=\"%s\"", route_id,
                    endpoint_id, detail ? detail : "");
    free(text);
    json_decref(data);
}

//  ---------------------------------------------------------------------------
//  A route's session, as the scheduler or an event says it is now

//  Moves route (its row) after its session's status; true when it changed.
static bool
s_follow(gw_endpoint_reconcile_t *self,
         json_t *route,
         const char *status,
         const char *why)
{
    const char *id = json_string_value(json_object_get(route, "id"));
    const char *endpoint = json_string_value(json_object_get(route, "endpoint"));
    const char *now = json_string_value(json_object_get(route, "status"));
    const char *session = json_string_value(json_object_get(route, "session"));
    if (!status || !now)
        return false;
    bool failed = strcmp(now, "failed_to_start") == 0;
    if (strcmp(status, "TERMINATED") == 0 && !failed) {
        gw_route_delete(s_db(self), id);
        zhashx_delete(self->synced, id);
        return true;
    }
    if ((strcmp(status, "CANCELLED") == 0 || strcmp(status, "ERROR") == 0) && !failed) {
        s_failed(self, id, endpoint, session, "session_cancelled",
                 why && *why ? why : status);
        return true;
    }
    if (strcmp(status, "TERMINATING") == 0 && !failed &&
        strcmp(now, "terminating") != 0) {
        gw_route_set_status(s_db(self), id, "terminating", NULL);
        return true;
    }
    return false;
}

static void
s_on_lifecycle(const proto_session_lifecycle_t *event, void *arg)
{
    gw_endpoint_reconcile_t *self = arg;
    if (strncmp(event->event, "session_", 8) != 0)
        return;
    gw_endpoint_tries_lifecycle(self->tries, event->session_id, event->status);
    json_t *route = gw_route_of_session(s_db(self), event->session_id);
    if (route && s_follow(self, route, event->status, event->reason))
        gw_endpoint_reconcile_kick(self);
    json_decref(route);
}

//  kernel.model_status: HEALTHY or UNHEALTHY, for a route that serves.
static void
s_on_model_status(void *arg, const bus_event_t *event)
{
    gw_endpoint_reconcile_t *self = arg;
    proto_kernel_model_status_t status;
    bus_error_t err = {0};
    if (proto_kernel_model_status_decode(&status, event->body, event->body_size, &err) !=
        BUS_OK)
        return;
    gw_endpoint_tries_model_status(self->tries, status.session_id, status.healthy,
                                   status.detail);
    json_t *route =
        status.session_id ? gw_route_of_session(s_db(self), status.session_id) : NULL;
    const char *now = json_string_value(json_object_get(route, "status"));
    const char *to = status.healthy ? "healthy" : "unhealthy";
    if (now && strcmp(now, to) != 0 &&
        (strcmp(now, "provisioning") == 0 || strcmp(now, "healthy") == 0 ||
         strcmp(now, "unhealthy") == 0)) {
        const char *id = json_string_value(json_object_get(route, "id"));
        gw_route_set_status(s_db(self), id, to, NULL);
        bus_log_info("route %s route=%s session=%s detail=\"%s\"", to, id,
                     status.session_id, status.detail ? status.detail : "");
        gw_endpoint_reconcile_kick(self);
    }
    json_decref(route);
    proto_kernel_model_status_clear(&status);
}

static void
s_on_synced(void *arg, const bus_reply_t *reply)
{
    s_call_t *call = arg;
    gw_endpoint_reconcile_t *self = call->link->self;
    json_t *route = self ? gw_route_get(s_db(self), call->route_id) : NULL;
    proto_session_info_t info;
    proto_session_info_init(&info);
    bus_error_t err = {0};
    if (route && reply->status == BUS_STATUS_NOT_FOUND)
        s_follow(self, route, "TERMINATED", NULL);
    else if (route && gw_session_info_decode(reply, &info, &err) == BUS_OK) {
        //  Its main kernel's stats count toward the endpoint's cpu_util.
        gw_endpoint_autoscale_kernel(
            self->autoscale, json_string_value(json_object_get(route, "endpoint")),
            info.kernel_id);
        if (s_follow(self, route, info.status, info.status_info))
            gw_endpoint_reconcile_kick(self);
    }
    proto_session_info_clear(&info);
    json_decref(route);
    s_call_destroy(&call);
}

//  Asks for route's session now and then, in case an event was missed.
static void
s_sync(gw_endpoint_reconcile_t *self, json_t *route)
{
    const char *id = json_string_value(json_object_get(route, "id"));
    const char *session = json_string_value(json_object_get(route, "session"));
    int64_t now = bus_clock_mono_ms();
    int64_t *last = zhashx_lookup(self->synced, id);
    if (!session || (last && now - *last < S_SYNC_MS))
        return;
    int64_t *stamp = malloc(sizeof *stamp);
    if (!stamp)
        return;
    *stamp = now;
    zhashx_update(self->synced, id, stamp);
    bus_node_t *node = gw_server_node(self->gw);
    const char *scheduler = bus_node_find(node, "scheduler");
    s_call_t *call = s_call_new(self, id, NULL);
    proto_session_get_req_t in;
    proto_session_get_req_init(&in);
    in.session_id = session;
    bus_error_t err;
    bus_writer_t *writer = call ? proto_session_get_req_writer(&in, &err) : NULL;
    if (!writer || !scheduler ||
        bus_node_call(node, scheduler, PROTO_SESSION_GET, bus_writer_data(writer),
                      bus_writer_size(writer), 0, s_on_synced, call) == 0)
        s_call_destroy(&call);
    bus_writer_destroy(&writer);
}

//  ---------------------------------------------------------------------------
//  Replicas made and ended

//  The scheduler's answer to a route's session.destroy: refused, the route
//  is UNHEALTHY again, so that a later pass asks again (a TERMINATING one
//  is never asked twice).
static void
s_on_destroyed(void *arg, const bus_reply_t *reply)
{
    s_call_t *call = arg;
    gw_endpoint_reconcile_t *self = call->link->self;
    if (reply->status != BUS_OK && reply->status != BUS_STATUS_NOT_FOUND) {
        bus_log_warning("route session not destroyed route=%s detail=\"%s\"",
                        call->route_id, reply->detail);
        if (self)
            gw_route_set_status(s_db(self), call->route_id, "unhealthy", NULL);
    }
    s_call_destroy(&call);
}

void
gw_endpoint_reconcile_terminate(gw_endpoint_reconcile_t *self,
                                const char *route_id,
                                const char *session_id)
{
    gw_route_set_status(s_db(self), route_id, "terminating", NULL);
    bus_node_t *node = gw_server_node(self->gw);
    const char *scheduler = bus_node_find(node, "scheduler");
    proto_session_destroy_req_t in;
    proto_session_destroy_req_init(&in);
    in.session_id = session_id;
    //  Not forced: a forced destroy is TERMINATED at once, while the
    //  container may still run; the route is to go when its kernel did.
    in.forced = false;
    in.reason = "user-requested";
    bus_error_t err;
    bus_writer_t *writer = proto_session_destroy_req_writer(&in, &err);
    s_call_t *call = s_call_new(self, route_id, NULL);
    //  Not sent: UNHEALTHY again, for the next pass to ask again.
    if (!writer || !scheduler || !call ||
        bus_node_call(node, scheduler, PROTO_SESSION_DESTROY, bus_writer_data(writer),
                      bus_writer_size(writer), 0, s_on_destroyed, call) == 0) {
        s_call_destroy(&call);
        gw_route_set_status(s_db(self), route_id, "unhealthy", NULL);
    }
    bus_writer_destroy(&writer);
    gw_endpoint_reconcile_kick(self); //  its URL drops it at once
}

static void
s_on_launched(void *arg, const gw_session_launched_t *result)
{
    s_call_t *call = arg;
    gw_endpoint_reconcile_t *self = call->link->self;
    if (!self) {
        s_call_destroy(&call);
        return;
    }
    zhashx_delete(self->launching, call->route_id);
    bus_error_t err = {0};
    proto_session_info_t info;
    proto_session_info_init(&info);
    if (!result->slug && result->reply &&
        gw_session_info_decode(result->reply, &info, &err) == BUS_OK) {
        gw_route_set_session(s_db(self), call->route_id, info.session_id);
        bus_log_info("route session created route=%s session=%s", call->route_id,
                     info.session_id);
        //  Its first events may have come before its row named it.
        json_t *route = gw_route_get(s_db(self), call->route_id);
        if (route)
            s_follow(self, route, info.status, info.status_info);
        json_decref(route);
    } else if (!result->slug && !result->reply &&
               result->status == BUS_STATUS_UNAVAILABLE) {
        //  The scheduler (or a storage-proxy) is away for now: not a failed
        //  start of this model, tried again by a later pass.
        bus_log_warning("route not created route=%s detail=\"%s\"", call->route_id,
                        result->detail ? result->detail : "");
        gw_route_delete(s_db(self), call->route_id);
    } else
        s_failed(self, call->route_id, call->endpoint_id, NULL, "creation_failed",
                 result->slug || !result->reply ? result->detail : err.detail);
    proto_session_info_clear(&info);
    gw_endpoint_reconcile_kick(self);
    s_call_destroy(&call);
}

//  A new route of endpoint, and its session launched.
static void
s_add_route(gw_endpoint_reconcile_t *self, json_t *endpoint)
{
    const char *endpoint_id = json_string_value(json_object_get(endpoint, "id"));
    char route_id[GW_UUID_SIZE];
    bus_error_t err = {0};
    if (gw_uuid_new(route_id) != 0 ||
        gw_route_insert(s_db(self), endpoint, route_id, &err) != BUS_OK)
        return;
    s_call_t *call = s_call_new(self, route_id, endpoint_id);
    if (!call) {
        s_failed(self, route_id, endpoint_id, NULL, "creation_failed", "out of memory");
        return;
    }
    gw_identity_t who;
    const char *access_key =
        json_string_value(json_object_get(endpoint, "owner_access_key"));
    if (gw_identity_load(s_db(self), access_key, &who) != BUS_OK) {
        s_failed(self, route_id, endpoint_id, NULL, "creation_failed",
                 "the endpoint's owner has no such keypair any more");
        s_call_destroy(&call);
        return;
    }
    gw_ctx_t ctx = {.db = s_db(self),
                    .node = gw_server_node(self->gw),
                    .config = gw_server_config(self->gw),
                    .identities = gw_server_identities(self->gw),
                    .who = &who};
    char detail[512];
    json_t *mounts = gw_endpoint_mounts(&ctx, endpoint, detail, sizeof detail);
    json_t *params = json_loads(
        json_string_value(json_object_get(endpoint, "session_params")), 0, NULL);
    if (!mounts || !json_is_object(params)) {
        s_failed(self, route_id, endpoint_id, NULL, "creation_failed",
                 mounts ? "the endpoint's session parameters are unreadable" : detail);
        json_decref(mounts);
        json_decref(params);
        s_call_destroy(&call);
        return;
    }
    char name[GW_SESSION_NAME_MAX + 1];
    snprintf(name, sizeof name, "%s-%s",
             json_string_value(json_object_get(endpoint, "name")), route_id);
    json_object_set_new(params, "name", json_string(name));
    zhashx_insert(self->launching, route_id, "");
    gw_session_launch_t in = {
        .who = &who,
        .params = params,
        .extra_mounts = mounts,
        .type = "INFERENCE",
        .model_service = json_string_value(json_object_get(endpoint, "model_service")),
        .spread = endpoint_id, //  its replicas on as many agents as there are
    };
    bus_log_info("route creating route=%s endpoint=%s session_name=%s", route_id,
                 endpoint_id, name);
    gw_session_launch(self->gw, &in, s_on_launched, call);
    json_decref(mounts);
    json_decref(params);
}

//  Which routes go first when there are too many: a replica that does not
//  serve (unhealthy, then one still starting), then a healthy one; -1 for
//  one already going (or failed).
static int
s_going_rank(const char *status)
{
    if (strcmp(status, "unhealthy") == 0)
        return 0;
    if (strcmp(status, "provisioning") == 0)
        return 1;
    if (strcmp(status, "healthy") == 0)
        return 2;
    return -1;
}

//  Ends route (a row of routes) now: its session is destroyed, and the
//  pass's copy says so, so that its URL drops it in this very pass.
static void
s_end_route(gw_endpoint_reconcile_t *self, json_t *route)
{
    gw_endpoint_reconcile_terminate(self, json_string_value(json_object_get(route, "id")),
                                    json_string_value(json_object_get(route, "session")));
    json_object_set_new(route, "status", json_string("terminating"));
}

//  One endpoint's pass.
static void
s_reconcile(gw_endpoint_reconcile_t *self, json_t *endpoint)
{
    bus_db_t *db = s_db(self);
    const char *id = json_string_value(json_object_get(endpoint, "id"));
    bool destroying =
        strcmp(json_string_value(json_object_get(endpoint, "lifecycle_stage")),
               "destroying") == 0;
    int64_t desired =
        destroying
            ? 0
            : json_integer_value(json_object_get(endpoint, "desired_session_count"));
    int64_t retries = json_integer_value(json_object_get(endpoint, "retries"));
    int64_t created_at_ms = 0;
    json_t *routes = gw_route_list(db, id);
    if (!routes)
        return;
    //  Routes of an older generation (the service changed what its
    //  replicas run) are replaced: new ones are made, and each old one goes
    //  once enough new ones are healthy to stand in for it.
    int64_t generation = json_integer_value(json_object_get(endpoint, "generation"));
    int64_t live = 0, healthy = 0, failed = 0, live_old = 0, going_old = 0;
    size_t index;
    json_t *route;
    json_array_foreach(routes, index, route)
    {
        const char *route_id = json_string_value(json_object_get(route, "id"));
        const char *status = json_string_value(json_object_get(route, "status"));
        created_at_ms = json_integer_value(json_object_get(route, "created_at")) / 1000;
        //  A create this gateway does not remember: lost when it stopped.
        if (strcmp(status, "provisioning") == 0 && !json_object_get(route, "session") &&
            !zhashx_lookup(self->launching, route_id) &&
            bus_clock_wall_us() / 1000 - created_at_ms > S_LOST_MS) {
            s_failed(self, route_id, id, NULL, "creation_failed",
                     "its session was being created when the gateway stopped");
            status = "failed_to_start";
        }
        if (strcmp(status, "failed_to_start") == 0) {
            failed++;
            continue;
        }
        s_sync(self, route);
        if (json_integer_value(json_object_get(route, "generation")) < generation) {
            //  one already going does not stand in for anything, but is
            //  there until its session ended
            if (strcmp(status, "terminating") == 0)
                going_old++;
            else
                live_old++;
            continue;
        }
        live++;
        healthy += strcmp(status, "healthy") == 0;
    }
    if (desired > 0 && healthy >= desired && (retries > 0 || failed > 0))
        gw_endpoint_clear_errors(db, id);
    //  Too many: the surplus goes, the least useful first, and a healthy
    //  one only while as many healthy ones as wanted stay.
    int64_t healthy_left = healthy;
    for (int rank = 0; live > desired && rank <= 2; rank++)
        json_array_foreach(routes, index, route)
        {
            const char *status = json_string_value(json_object_get(route, "status"));
            if (live <= desired || s_going_rank(status) != rank ||
                !json_object_get(route, "session") ||
                json_integer_value(json_object_get(route, "generation")) < generation ||
                (rank == 2 && healthy_left <= desired))
                continue;
            s_end_route(self, route);
            live--;
            healthy_left -= rank == 2;
        }
    //  The old generation: as many stay as new healthy ones are missing,
    //  the least useful going first.
    int64_t keep_old = destroying || healthy >= desired ? 0 : desired - healthy;
    for (int rank = 0; live_old > keep_old && rank <= 2; rank++)
        json_array_foreach(routes, index, route)
        {
            const char *status = json_string_value(json_object_get(route, "status"));
            if (live_old <= keep_old || s_going_rank(status) != rank ||
                !json_object_get(route, "session") ||
                json_integer_value(json_object_get(route, "generation")) >= generation)
                continue;
            s_end_route(self, route);
            live_old--;
        }
    //  Too few: more, while starts do not keep failing.
    for (int64_t more = desired - live;
         more > 0 && retries <= GW_ENDPOINT_RETRIES_MAX && !destroying; more--)
        s_add_route(self, endpoint);
    if (destroying && live == 0 && live_old == 0 && going_old == 0) {
        if (gw_endpoint_proxy_removed(self->proxy, endpoint)) {
            gw_endpoint_destroyed(db, id);
            bus_log_notice("endpoint destroyed endpoint=%s", id);
        }
    } else
        gw_endpoint_proxy_sync(self->proxy, endpoint, routes);
    json_decref(routes);
}

static void
s_pass(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    gw_endpoint_reconcile_t *self = arg;
    //  Nothing to do until the scheduler is known (the gateway just
    //  started): every create would fail and count against its endpoint.
    bool ready = bus_node_find(gw_server_node(self->gw), "scheduler") != NULL;
    json_t *endpoints = ready ? gw_endpoint_live(s_db(self)) : NULL;
    size_t index;
    json_t *endpoint;
    json_array_foreach(endpoints, index, endpoint) s_reconcile(self, endpoint);
    json_decref(endpoints);
    struct timeval tv = {S_PERIOD_MS / 1000, (S_PERIOD_MS % 1000) * 1000};
    evtimer_add(self->timer, &tv);
}

void
gw_endpoint_reconcile_kick(gw_endpoint_reconcile_t *self)
{
    struct timeval now = {0, 0};
    if (self)
        evtimer_add(self->timer, &now);
}

gw_endpoint_tries_t *
gw_endpoint_reconcile_tries(gw_endpoint_reconcile_t *self)
{
    return self ? self->tries : NULL;
}

void
gw_endpoint_reconcile_sync(gw_endpoint_reconcile_t *self, const char *endpoint_id)
{
    if (!self)
        return;
    gw_endpoint_proxy_forget(self->proxy, endpoint_id);
    gw_endpoint_reconcile_kick(self);
}

static void
s_kick(void *arg)
{
    gw_endpoint_reconcile_kick(arg);
}

static void
s_free_stamp(void **item)
{
    free(*item);
    *item = NULL;
}

gw_endpoint_reconcile_t *
gw_endpoint_reconcile_new(gw_server_t *gw, gw_events_t *events)
{
    gw_endpoint_reconcile_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    bus_node_t *node = gw_server_node(gw);
    self->link = calloc(1, sizeof *self->link);
    if (!self->link) {
        free(self);
        return NULL;
    }
    self->link->self = self;
    self->link->refs = 1;
    self->gw = gw;
    self->events = events;
    self->launching = zhashx_new();
    self->synced = zhashx_new();
    if (self->synced)
        zhashx_set_destructor(self->synced, s_free_stamp);
    self->timer = evtimer_new(bus_node_base(node), s_pass, self);
    self->proxy = gw_endpoint_proxy_new(gw, s_kick, self);
    self->tries = gw_endpoint_tries_new(gw);
    self->autoscale = gw_endpoint_autoscale_new(gw, s_kick, self);
    self->listener = gw_events_listen(events, s_on_lifecycle, self);
    if (!self->launching || !self->synced || !self->timer || !self->proxy ||
        !self->tries || !self->autoscale || !self->listener ||
        bus_node_subscribe(node, PROTO_KERNEL_MODEL_STATUS, s_on_model_status, self) !=
            0) {
        gw_endpoint_reconcile_destroy(&self);
        return NULL;
    }
    gw_endpoint_reconcile_kick(self);
    return self;
}

void
gw_endpoint_reconcile_destroy(gw_endpoint_reconcile_t **self_p)
{
    gw_endpoint_reconcile_t *self = *self_p;
    if (!self)
        return;
    if (self->listener)
        gw_events_unlisten(self->events, &self->listener);
    if (self->timer)
        event_free(self->timer);
    zhashx_destroy(&self->launching);
    zhashx_destroy(&self->synced);
    gw_endpoint_proxy_destroy(&self->proxy);
    gw_endpoint_tries_destroy(&self->tries);
    gw_endpoint_autoscale_destroy(&self->autoscale);
    self->link->self = NULL;
    if (--self->link->refs == 0)
        free(self->link);
    free(self);
    *self_p = NULL;
}
