/*  =========================================================================
    gw_endpoint_proxy - a model service's URL on the wsproxy, kept in step
    with its healthy routes (how, in the header)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  What a call in flight holds: its reply may come after self is gone.
typedef struct {
    gw_endpoint_proxy_t *self;
    int refs;
} s_link_t;

//  Where a route's model is reached.
typedef struct {
    char endpoint_id[GW_UUID_SIZE];
    char host[256];
    int port;
} s_addr_t;

//  An endpoint as last pushed.
typedef struct {
    uint8_t *fingerprint; //  the request last pushed (msgpack; NULL: never)
    size_t fingerprint_size;
    int64_t pushed_ms; //  when (monotonic)
    bool in_flight;
} s_push_t;

struct _gw_endpoint_proxy_t {
    s_link_t *link;
    gw_server_t *gw;
    gw_endpoint_proxy_kick_fn *kick;
    void *kick_arg;
    zhashx_t *addrs;    //  route id -> s_addr_t
    zhashx_t *asking;   //  route id -> "" while its address is asked for
    zhashx_t *pushes;   //  endpoint id -> s_push_t
    zhashx_t *removing; //  endpoint id -> S_REMOVING or S_REMOVED
};

typedef struct {
    s_link_t *link;
    char route_id[GW_UUID_SIZE];
    char endpoint_id[GW_UUID_SIZE];
    int port;             //  the model's port in the container
    char name[80];        //  its app: "{model}-{port}", as the session's apps list it
    uint8_t *fingerprint; //  a push's request
    size_t fingerprint_size;
    char *url; //  the endpoint's url before the push
} s_call_t;

static s_call_t *
s_call_new(gw_endpoint_proxy_t *self, const char *route_id, const char *endpoint_id)
{
    s_call_t *call = calloc(1, sizeof *call);
    if (!call)
        return NULL;
    call->link = self->link;
    call->link->refs++;
    snprintf(call->route_id, sizeof call->route_id, "%s", route_id ? route_id : "");
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
    free(call->fingerprint);
    free(call->url);
    free(call);
    *call_p = NULL;
}

static void
s_free(void **item)
{
    free(*item);
    *item = NULL;
}

static void
s_push_free(void **item)
{
    s_push_t *push = *item;
    if (push) {
        free(push->fingerprint);
        free(push);
        *item = NULL;
    }
}

static bus_node_t *
s_node(gw_endpoint_proxy_t *self)
{
    return gw_server_node(self->gw);
}

//  ---------------------------------------------------------------------------
//  A route's address: its session's kernel, then the agent publishes

//  The call is over: the route may be asked for again.
static void
s_asked(s_call_t *call)
{
    gw_endpoint_proxy_t *self = call->link->self;
    if (self)
        zhashx_delete(self->asking, call->route_id);
}

static void
s_on_started(void *arg, const bus_reply_t *reply)
{
    s_call_t *call = arg;
    gw_endpoint_proxy_t *self = call->link->self;
    proto_kernel_start_service_rep_t rep;
    bus_error_t err = {0};
    if (self && reply->status == BUS_OK &&
        proto_kernel_start_service_rep_decode(&rep, reply->body, reply->body_size,
                                              &err) == BUS_OK) {
        s_addr_t *addr = calloc(1, sizeof *addr);
        if (addr && rep.host && strlen(rep.host) < sizeof addr->host && rep.port > 0 &&
            rep.port <= 65535) {
            snprintf(addr->endpoint_id, sizeof addr->endpoint_id, "%s",
                     call->endpoint_id);
            snprintf(addr->host, sizeof addr->host, "%s", rep.host);
            addr->port = (int) rep.port;
            bus_log_info("endpoint route reached route=%s at=%s:%d", call->route_id,
                         addr->host, addr->port);
            zhashx_update(self->addrs, call->route_id, addr);
            self->kick(self->kick_arg);
        } else
            free(addr);
        proto_kernel_start_service_rep_clear(&rep);
    } else if (self)
        bus_log_warning("endpoint route not reached route=%s detail=\"%s\"",
                        call->route_id,
                        reply->status == BUS_OK ? err.detail : reply->detail);
    s_asked(call);
    s_call_destroy(&call);
}

static void
s_on_session(void *arg, const bus_reply_t *reply)
{
    s_call_t *call = arg;
    gw_endpoint_proxy_t *self = call->link->self;
    proto_session_info_t info;
    proto_session_info_init(&info);
    bus_error_t err = {0};
    bool sent = false;
    if (self && gw_session_info_decode(reply, &info, &err) == BUS_OK && info.status &&
        strcmp(info.status, "RUNNING") == 0 && info.kernel_id && info.agent_addr &&
        *info.agent_addr) {
        char ports[16];
        snprintf(ports, sizeof ports, "%d", call->port);
        proto_kernel_start_service_req_t in;
        proto_kernel_start_service_req_init(&in);
        in.kernel_id = info.kernel_id;
        in.name = call->name;
        in.protocol = "preopen"; //  the agent started it: only published
        in.ports = ports;
        bus_writer_t *writer = proto_kernel_start_service_req_writer(&in, &err);
        sent =
            writer && bus_node_call(s_node(self), info.agent_addr,
                                    PROTO_KERNEL_START_SERVICE, bus_writer_data(writer),
                                    bus_writer_size(writer), 0, s_on_started, call) != 0;
        bus_writer_destroy(&writer);
    }
    proto_session_info_clear(&info);
    if (!sent) {
        s_asked(call);
        s_call_destroy(&call);
    }
}

//  Asks where route's model (its app name, its port) is reached, once at
//  a time.
static void
s_ask(gw_endpoint_proxy_t *self,
      const char *endpoint_id,
      json_t *route,
      const char *name,
      int port)
{
    const char *id = json_string_value(json_object_get(route, "id"));
    const char *session = json_string_value(json_object_get(route, "session"));
    const char *scheduler = bus_node_find(s_node(self), "scheduler");
    if (!id || !session || !scheduler || zhashx_lookup(self->asking, id))
        return;
    s_call_t *call = s_call_new(self, id, endpoint_id);
    if (!call)
        return;
    call->port = port;
    snprintf(call->name, sizeof call->name, "%s", name);
    proto_session_get_req_t in;
    proto_session_get_req_init(&in);
    in.session_id = session;
    bus_error_t err;
    bus_writer_t *writer = proto_session_get_req_writer(&in, &err);
    if (writer && zhashx_insert(self->asking, id, "") == 0 &&
        bus_node_call(s_node(self), scheduler, PROTO_SESSION_GET, bus_writer_data(writer),
                      bus_writer_size(writer), 0, s_on_session, call) != 0)
        call = NULL; //  the reply's now
    else
        zhashx_delete(self->asking, id);
    bus_writer_destroy(&writer);
    s_call_destroy(&call);
}

//  Forgets the addresses of endpoint_id's routes that are not in routes
//  (NULL: all of them).
static void
s_forget(gw_endpoint_proxy_t *self, const char *endpoint_id, json_t *routes)
{
    zlistx_t *gone = zlistx_new();
    if (!gone)
        return;
    for (s_addr_t *addr = zhashx_first(self->addrs); addr;
         addr = zhashx_next(self->addrs)) {
        if (strcmp(addr->endpoint_id, endpoint_id) != 0)
            continue;
        const char *route_id = zhashx_cursor(self->addrs);
        bool present = false;
        size_t index;
        json_t *route;
        json_array_foreach(routes, index, route) present |=
            strcmp(json_string_value(json_object_get(route, "id")), route_id) == 0;
        if (!present)
            zlistx_add_end(gone, (void *) route_id);
    }
    //  The keys are the hash's own: deleted once the walk is over.
    char *copy = NULL;
    for (const char *key = zlistx_first(gone); key; key = zlistx_next(gone)) {
        copy = strdup(key);
        if (copy)
            zhashx_delete(self->addrs, copy);
        free(copy);
    }
    zlistx_destroy(&gone);
}

//  ---------------------------------------------------------------------------
//  Pushes

static void
s_on_pushed(void *arg, const bus_reply_t *reply)
{
    s_call_t *call = arg;
    gw_endpoint_proxy_t *self = call->link->self;
    s_push_t *push = self ? zhashx_lookup(self->pushes, call->endpoint_id) : NULL;
    if (push)
        push->in_flight = false;
    proto_wsproxy_endpoint_set_rep_t rep;
    bus_error_t err = {0};
    if (push && reply->status == BUS_OK &&
        proto_wsproxy_endpoint_set_rep_decode(&rep, reply->body, reply->body_size,
                                              &err) == BUS_OK) {
        free(push->fingerprint);
        push->fingerprint = call->fingerprint;
        push->fingerprint_size = call->fingerprint_size;
        call->fingerprint = NULL;
        push->pushed_ms = bus_clock_mono_ms();
        if (!call->url || strcmp(call->url, rep.url) != 0) {
            gw_endpoint_set_url(gw_server_db(self->gw), call->endpoint_id, rep.url);
            bus_log_notice("endpoint url endpoint=%s url=%s", call->endpoint_id, rep.url);
        }
        proto_wsproxy_endpoint_set_rep_clear(&rep);
    } else if (self)
        bus_log_warning("endpoint not pushed to the wsproxy endpoint=%s detail=\"%s\"",
                        call->endpoint_id,
                        reply->status == BUS_OK ? err.detail : reply->detail);
    s_call_destroy(&call);
}

//  endpoint's healthy routes whose addresses are known, as targets in
//  targets (room for count): how many.
static size_t
s_targets(gw_endpoint_proxy_t *self,
          json_t *routes,
          proto_wsproxy_target_t *targets,
          size_t count)
{
    size_t n = 0;
    size_t index;
    json_t *route;
    json_array_foreach(routes, index, route)
    {
        const char *id = json_string_value(json_object_get(route, "id"));
        const char *status = json_string_value(json_object_get(route, "status"));
        s_addr_t *addr = id ? zhashx_lookup(self->addrs, id) : NULL;
        if (n == count || !addr || !status || strcmp(status, "healthy") != 0)
            continue;
        proto_wsproxy_target_init(&targets[n]);
        targets[n].route_id = id;
        targets[n].session_id = json_string_value(json_object_get(route, "session"));
        targets[n].host = addr->host;
        targets[n].port = (uint64_t) addr->port;
        targets[n].traffic_ratio =
            json_number_value(json_object_get(route, "traffic_ratio"));
        n++;
    }
    return n;
}

void
gw_endpoint_proxy_sync(gw_endpoint_proxy_t *self, json_t *endpoint, json_t *routes)
{
    assert(self && endpoint);
    const char *id = json_string_value(json_object_get(endpoint, "id"));
    const char *wsproxy = bus_node_find(s_node(self), "wsproxy");
    if (!id || !wsproxy)
        return;
    s_forget(self, id, routes);
    //  The model's port, from the definition the replicas were made with.
    json_t *service = json_loads(
        json_string_value(json_object_get(endpoint, "model_service")), 0, NULL);
    int port = (int) json_integer_value(json_object_get(service, "port"));
    char name[80] = "";
    const char *model = json_string_value(json_object_get(service, "name"));
    if (model && strlen(model) < 64)
        snprintf(name, sizeof name, "%s-%d", model, port);
    json_decref(service);
    size_t index;
    json_t *route;
    json_array_foreach(routes, index, route)
    {
        const char *status = json_string_value(json_object_get(route, "status"));
        const char *route_id = json_string_value(json_object_get(route, "id"));
        if (!status || strcmp(status, "healthy") != 0 || !route_id)
            continue;
        if (!zhashx_lookup(self->addrs, route_id) && port > 0 && *name)
            s_ask(self, id, route, name, port);
    }
    size_t count = json_array_size(routes);
    proto_wsproxy_target_t *targets = calloc(count ? count : 1, sizeof *targets);
    if (!targets)
        return;
    size_t n = s_targets(self, routes, targets, count);
    s_push_t *push = zhashx_lookup(self->pushes, id);
    //  Not before the first healthy route is reachable (url stays null); a
    //  route whose address is still being asked for joins in a later pass,
    //  so that one agent out of reach holds no change back.
    if (!push && n == 0) {
        free(targets);
        return;
    }
    if (!push) {
        push = calloc(1, sizeof *push);
        if (!push || zhashx_insert(self->pushes, id, push) != 0) {
            free(push);
            free(targets);
            return;
        }
    }
    proto_wsproxy_endpoint_set_req_t in;
    proto_wsproxy_endpoint_set_req_init(&in);
    in.endpoint_id = id;
    in.name = json_string_value(json_object_get(endpoint, "name"));
    in.open_to_public =
        json_is_true(json_object_get(endpoint, "open_to_public")) ||
        json_integer_value(json_object_get(endpoint, "open_to_public")) != 0;
    in.targets = targets;
    in.targets_count = n;
    bus_error_t err;
    bus_writer_t *writer = proto_wsproxy_endpoint_set_req_writer(&in, &err);
    //  The same set pushed not long ago: nothing to do.
    //  (msgpack holds zero bytes: compared as bytes)
    size_t size = writer ? bus_writer_size(writer) : 0;
    uint8_t *fingerprint = writer ? malloc(size ? size : 1) : NULL;
    if (fingerprint)
        memcpy(fingerprint, bus_writer_data(writer), size);
    bool same = push->fingerprint && fingerprint && push->fingerprint_size == size &&
                memcmp(push->fingerprint, fingerprint, size) == 0;
    bool due =
        fingerprint && !push->in_flight &&
        (!same || bus_clock_mono_ms() - push->pushed_ms >= GW_ENDPOINT_PROXY_REFRESH_MS);
    s_call_t *call = due ? s_call_new(self, NULL, id) : NULL;
    if (call) {
        call->fingerprint = fingerprint;
        call->fingerprint_size = size;
        fingerprint = NULL;
        const char *url = json_string_value(json_object_get(endpoint, "url"));
        call->url = url ? strdup(url) : NULL;
        if (bus_node_call(s_node(self), wsproxy, PROTO_WSPROXY_ENDPOINT_SET,
                          bus_writer_data(writer), bus_writer_size(writer), 0,
                          s_on_pushed, call) != 0)
            push->in_flight = true;
        else
            s_call_destroy(&call);
    }
    free(fingerprint);
    bus_writer_destroy(&writer);
    free(targets);
}

void
gw_endpoint_proxy_forget(gw_endpoint_proxy_t *self, const char *endpoint_id)
{
    assert(self && endpoint_id);
    s_push_t *push = zhashx_lookup(self->pushes, endpoint_id);
    if (push) {
        free(push->fingerprint);
        push->fingerprint = NULL;
    }
}

//  ---------------------------------------------------------------------------

#define S_REMOVING ((void *) 1) //  a remove on its way
#define S_REMOVED  ((void *) 2) //  the wsproxy has it no more

static void
s_on_removed(void *arg, const bus_reply_t *reply)
{
    s_call_t *call = arg;
    gw_endpoint_proxy_t *self = call->link->self;
    bool gone = reply->status == BUS_OK || reply->status == BUS_STATUS_NOT_FOUND;
    if (!gone)
        bus_log_warning("endpoint not removed from the wsproxy endpoint=%s detail=\"%s\"",
                        call->endpoint_id, reply->detail);
    if (self) {
        //  not gone: asked again at the next pass
        if (gone)
            zhashx_update(self->removing, call->endpoint_id, S_REMOVED);
        else
            zhashx_delete(self->removing, call->endpoint_id);
        self->kick(self->kick_arg);
    }
    s_call_destroy(&call);
}

bool
gw_endpoint_proxy_removed(gw_endpoint_proxy_t *self, json_t *endpoint)
{
    assert(self && endpoint);
    const char *id = json_string_value(json_object_get(endpoint, "id"));
    if (!id)
        return true;
    s_forget(self, id, NULL);
    zhashx_delete(self->pushes, id);
    void *state = zhashx_lookup(self->removing, id);
    const char *wsproxy = bus_node_find(s_node(self), "wsproxy");
    //  Never given a URL, or the wsproxy confirmed it has it no more.
    if (state == S_REMOVED || !json_string_value(json_object_get(endpoint, "url"))) {
        zhashx_delete(self->removing, id);
        return true;
    }
    if (!wsproxy) {
        bus_log_warning("endpoint destroyed with no wsproxy to take its url away"
                        " endpoint=%s",
                        id);
        zhashx_delete(self->removing, id);
        return true;
    }
    if (state == S_REMOVING)
        return false;
    proto_wsproxy_endpoint_remove_req_t in;
    proto_wsproxy_endpoint_remove_req_init(&in);
    in.endpoint_id = id;
    bus_error_t err;
    bus_writer_t *writer = proto_wsproxy_endpoint_remove_req_writer(&in, &err);
    s_call_t *call = writer ? s_call_new(self, NULL, id) : NULL;
    if (call && zhashx_insert(self->removing, id, S_REMOVING) == 0 &&
        bus_node_call(s_node(self), wsproxy, PROTO_WSPROXY_ENDPOINT_REMOVE,
                      bus_writer_data(writer), bus_writer_size(writer), 0, s_on_removed,
                      call) != 0)
        call = NULL; //  the answer's now
    else
        zhashx_delete(self->removing, id);
    s_call_destroy(&call);
    bus_writer_destroy(&writer);
    return false;
}

gw_endpoint_proxy_t *
gw_endpoint_proxy_new(gw_server_t *gw, gw_endpoint_proxy_kick_fn *kick, void *arg)
{
    assert(gw && kick);
    gw_endpoint_proxy_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->gw = gw;
    self->kick = kick;
    self->kick_arg = arg;
    self->link = calloc(1, sizeof *self->link);
    self->addrs = zhashx_new();
    self->asking = zhashx_new();
    self->pushes = zhashx_new();
    self->removing = zhashx_new();
    if (!self->link || !self->addrs || !self->asking || !self->pushes ||
        !self->removing) {
        free(self->link);
        self->link = NULL;
        gw_endpoint_proxy_destroy(&self);
        return NULL;
    }
    self->link->self = self;
    self->link->refs = 1;
    zhashx_set_destructor(self->addrs, s_free);
    zhashx_set_destructor(self->pushes, s_push_free);
    return self;
}

void
gw_endpoint_proxy_destroy(gw_endpoint_proxy_t **self_p)
{
    gw_endpoint_proxy_t *self = *self_p;
    if (!self)
        return;
    zhashx_destroy(&self->addrs);
    zhashx_destroy(&self->asking);
    zhashx_destroy(&self->pushes);
    zhashx_destroy(&self->removing);
    if (self->link) {
        self->link->self = NULL;
        if (--self->link->refs == 0)
            free(self->link);
    }
    free(self);
    *self_p = NULL;
}
