/*  =========================================================================
    bus_registry - the peer table behind registry.register, .heartbeat,
    .unregister and .peers

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

typedef struct {
    proto_registry_peer_t peer;
    int64_t last_seen_ms; //  monotonic
    int64_t last_seen_us; //  wall clock, for the expiry event
} registry_entry_t;

struct _bus_registry_t {
    zhashx_t *peers; //  "service/node" -> registry_entry_t
    int heartbeat_ms;
    int expiry_ms;
    bus_registry_expired_fn *expired_fn;
    void *expired_arg;
};

static void
s_entry_destroy(void **item_p)
{
    registry_entry_t *entry = *item_p;
    if (entry) {
        proto_registry_peer_clear(&entry->peer);
        free(entry);
        *item_p = NULL;
    }
}

static void
s_peer_key(char *out, size_t size, const char *service, const char *node)
{
    snprintf(out, size, "%s/%s", service, node);
}

static registry_entry_t *
s_touch(bus_registry_t *self, const char *service, const char *node)
{
    char key[BUS_SRC_MAX];
    s_peer_key(key, sizeof key, service, node);
    registry_entry_t *entry = zhashx_lookup(self->peers, key);
    if (entry) {
        entry->last_seen_ms = bus_clock_mono_ms();
        entry->last_seen_us = bus_clock_wall_us();
    }
    return entry;
}

static int
s_register(void *arg,
           const proto_registry_register_req_t *in,
           proto_registry_register_rep_t *out,
           bus_rpc_request_t *req,
           bus_error_t *err)
{
    (void) req;
    bus_registry_t *self = arg;
    char key[BUS_SRC_MAX];
    s_peer_key(key, sizeof key, in->service, in->node);
    registry_entry_t *entry = zhashx_lookup(self->peers, key);
    bool known = entry != NULL;
    if (!entry) {
        entry = calloc(1, sizeof *entry);
        if (!entry)
            return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        zhashx_insert(self->peers, key, entry);
    }
    proto_registry_peer_clear(&entry->peer);
    proto_registry_peer_t *peer = &entry->peer;
    //  The request's strings go with it when the call returns: the table
    //  keeps copies in the peer's own arena.
    const char *from[] = {in->service, in->node, in->rpc_endpoint, in->http_endpoint,
                          in->version};
    const char **to[] = {&peer->service, &peer->node, &peer->rpc_endpoint,
                         &peer->http_endpoint, &peer->version};
    for (size_t i = 0; i < sizeof from / sizeof from[0]; i++) {
        *to[i] = proto_arena_strdup(&peer->owned_, from[i]);
        if (from[i] && !*to[i]) {
            zhashx_delete(self->peers, key);
            return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        }
    }
    peer->pid = in->pid;
    peer->started_at = in->started_at;
    peer->durable_epoch = in->durable_epoch;
    peer->durable_head = in->durable_head;
    s_touch(self, peer->service, peer->node);
    bus_log_notice("peer %s peer=%s rpc=%s", known ? "re-registered" : "registered", key,
                   peer->rpc_endpoint ? peer->rpc_endpoint : "");
    out->heartbeat_ms = (uint64_t) self->heartbeat_ms;
    out->expiry_ms = (uint64_t) self->expiry_ms;
    return BUS_OK;
}

static int
s_heartbeat(void *arg,
            const proto_registry_heartbeat_req_t *in,
            proto_registry_heartbeat_rep_t *out,
            bus_rpc_request_t *req,
            bus_error_t *err)
{
    (void) out;
    (void) req;
    bus_registry_t *self = arg;
    registry_entry_t *entry = s_touch(self, in->service, in->node);
    if (!entry)
        return bus_error_set(err, BUS_STATUS_REREGISTER,
                             "unknown peer %s/%s: register again", in->service, in->node);
    entry->peer.durable_epoch = in->durable_epoch;
    entry->peer.durable_head = in->durable_head;
    return BUS_OK;
}

static int
s_unregister(void *arg,
             const proto_registry_unregister_req_t *in,
             proto_registry_unregister_rep_t *out,
             bus_rpc_request_t *req,
             bus_error_t *err)
{
    (void) out;
    (void) req;
    (void) err;
    bus_registry_t *self = arg;
    char key[BUS_SRC_MAX];
    s_peer_key(key, sizeof key, in->service, in->node);
    if (zhashx_lookup(self->peers, key))
        bus_log_notice("peer unregistered peer=%s", key);
    zhashx_delete(self->peers, key);
    return BUS_OK;
}

static int
s_peers(void *arg,
        const proto_registry_peers_req_t *in,
        proto_registry_peers_rep_t *out,
        bus_rpc_request_t *req,
        bus_error_t *err)
{
    (void) req;
    bus_registry_t *self = arg;
    size_t count = zhashx_size(self->peers);
    proto_registry_peer_t *peers =
        count ? proto_arena_alloc(&out->owned_, count * sizeof *peers) : NULL;
    if (count && !peers)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    out->peers = peers;
    int64_t now = bus_clock_mono_ms();
    for (registry_entry_t *entry = zhashx_first(self->peers); entry;
         entry = zhashx_next(self->peers)) {
        if (in->service && *in->service && strcmp(in->service, entry->peer.service) != 0)
            continue;
        //  Borrow the strings for the encoder (the table outlives the
        //  call); only the list is out's.
        peers[out->peers_count] = entry->peer;
        peers[out->peers_count].owned_ = NULL;
        peers[out->peers_count].age_ms = (uint64_t) (now - entry->last_seen_ms);
        out->peers_count++;
    }
    return BUS_OK;
}

bus_registry_t *
bus_registry_new(bus_rpc_server_t *server,
                 int heartbeat_ms,
                 int expiry_ms,
                 bus_registry_expired_fn *fn,
                 void *arg)
{
    bus_registry_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->peers = zhashx_new();
    if (!self->peers) {
        free(self);
        return NULL;
    }
    zhashx_set_destructor(self->peers, s_entry_destroy);
    self->heartbeat_ms = heartbeat_ms;
    self->expiry_ms = expiry_ms;
    self->expired_fn = fn;
    self->expired_arg = arg;
    //  On the registry's own server, not a node's: typed rows as a
    //  service's table holds them (proto_serve.h).
    bus_node_method_t methods[] = {
        proto_registry_register_method(s_register),
        proto_registry_heartbeat_method(s_heartbeat),
        proto_registry_unregister_method(s_unregister),
        proto_registry_peers_method(s_peers),
    };
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
        if (bus_rpc_server_handle_typed(server, methods[i].method, methods[i].typed,
                                        methods[i].adapter, self) != 0) {
            bus_registry_destroy(&self);
            return NULL;
        }
    return self;
}

void
bus_registry_destroy(bus_registry_t **self_p)
{
    assert(self_p);
    if (*self_p) {
        zhashx_destroy(&(*self_p)->peers);
        free(*self_p);
        *self_p = NULL;
    }
}

int
bus_registry_expire(bus_registry_t *self)
{
    int64_t now = bus_clock_mono_ms();
    zlistx_t *gone = zlistx_new();
    if (!gone)
        return 0;
    for (registry_entry_t *entry = zhashx_first(self->peers); entry;
         entry = zhashx_next(self->peers))
        if (now - entry->last_seen_ms > self->expiry_ms)
            zlistx_add_end(gone, strdup(zhashx_cursor(self->peers)));
    int expired = 0;
    for (char *key = zlistx_first(gone); key; key = zlistx_next(gone)) {
        registry_entry_t *entry = zhashx_lookup(self->peers, key);
        if (!entry) {
            free(key);
            continue;
        }
        bus_log_warning("peer expired peer=%s silent_ms=%" PRId64, key,
                        now - entry->last_seen_ms);
        if (self->expired_fn)
            self->expired_fn(self->expired_arg, entry->peer.service, entry->peer.node,
                             entry->last_seen_us);
        zhashx_delete(self->peers, key);
        free(key);
        expired++;
    }
    zlistx_destroy(&gone);
    return expired;
}

size_t
bus_registry_size(bus_registry_t *self)
{
    return zhashx_size(self->peers);
}
