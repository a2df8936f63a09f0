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
           bus_rpc_request_t *req,
           const void *body,
           size_t size,
           bus_writer_t *reply,
           bus_error_t *err)
{
    (void) req;
    bus_registry_t *self = arg;
    proto_registry_register_req_t in;
    int rc = proto_registry_register_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    char key[BUS_SRC_MAX];
    s_peer_key(key, sizeof key, in.service, in.node);
    registry_entry_t *entry = zhashx_lookup(self->peers, key);
    bool known = entry != NULL;
    if (!entry) {
        entry = calloc(1, sizeof *entry);
        if (!entry) {
            proto_registry_register_req_clear(&in);
            return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        }
        zhashx_insert(self->peers, key, entry);
    }
    proto_registry_peer_clear(&entry->peer);
    proto_registry_peer_t *peer = &entry->peer;
    //  The strings point into the request's arena: move it to the table.
    peer->owned_ = in.owned_, in.owned_ = NULL;
    peer->service = in.service;
    peer->node = in.node;
    peer->rpc_endpoint = in.rpc_endpoint;
    peer->http_endpoint = in.http_endpoint;
    peer->version = in.version;
    peer->pid = in.pid;
    peer->started_at = in.started_at;
    peer->durable_epoch = in.durable_epoch;
    peer->durable_head = in.durable_head;
    proto_registry_register_req_clear(&in);
    s_touch(self, peer->service, peer->node);
    bus_log_notice("peer %s peer=%s rpc=%s", known ? "re-registered" : "registered", key,
                   peer->rpc_endpoint ? peer->rpc_endpoint : "");

    proto_registry_register_rep_t out;
    proto_registry_register_rep_init(&out);
    out.heartbeat_ms = (uint64_t) self->heartbeat_ms;
    out.expiry_ms = (uint64_t) self->expiry_ms;
    rc = proto_registry_register_rep_write(&out, reply);
    proto_registry_register_rep_clear(&out);
    return rc == 0 ? BUS_OK : BUS_STATUS_INTERNAL;
}

static int
s_heartbeat(void *arg,
            bus_rpc_request_t *req,
            const void *body,
            size_t size,
            bus_writer_t *reply,
            bus_error_t *err)
{
    (void) req;
    bus_registry_t *self = arg;
    proto_registry_heartbeat_req_t in;
    int rc = proto_registry_heartbeat_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    registry_entry_t *entry = s_touch(self, in.service, in.node);
    if (entry) {
        entry->peer.durable_epoch = in.durable_epoch;
        entry->peer.durable_head = in.durable_head;
    } else
        bus_error_set(err, BUS_STATUS_REREGISTER, "unknown peer %s/%s: register again",
                      in.service, in.node);
    proto_registry_heartbeat_req_clear(&in);
    if (!entry)
        return BUS_STATUS_REREGISTER;
    bus_writer_map(reply, 0);
    return BUS_OK;
}

static int
s_unregister(void *arg,
             bus_rpc_request_t *req,
             const void *body,
             size_t size,
             bus_writer_t *reply,
             bus_error_t *err)
{
    (void) req;
    bus_registry_t *self = arg;
    proto_registry_unregister_req_t in;
    int rc = proto_registry_unregister_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    char key[BUS_SRC_MAX];
    s_peer_key(key, sizeof key, in.service, in.node);
    if (zhashx_lookup(self->peers, key))
        bus_log_notice("peer unregistered peer=%s", key);
    zhashx_delete(self->peers, key);
    proto_registry_unregister_req_clear(&in);
    bus_writer_map(reply, 0);
    return BUS_OK;
}

static int
s_peers(void *arg,
        bus_rpc_request_t *req,
        const void *body,
        size_t size,
        bus_writer_t *reply,
        bus_error_t *err)
{
    (void) req;
    bus_registry_t *self = arg;
    proto_registry_peers_req_t in;
    int rc = proto_registry_peers_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    proto_registry_peers_rep_t out;
    proto_registry_peers_rep_init(&out);
    size_t count = zhashx_size(self->peers);
    proto_registry_peer_t *peers =
        count ? proto_arena_alloc(&out.owned_, count * sizeof *peers) : NULL;
    out.peers = peers;
    int64_t now = bus_clock_mono_ms();
    for (registry_entry_t *entry = zhashx_first(self->peers); entry && peers;
         entry = zhashx_next(self->peers)) {
        if (in.service && *in.service && strcmp(in.service, entry->peer.service) != 0)
            continue;
        //  Borrow the strings for the encoder; only the list is out's.
        peers[out.peers_count] = entry->peer;
        peers[out.peers_count].owned_ = NULL;
        peers[out.peers_count].age_ms = (uint64_t) (now - entry->last_seen_ms);
        out.peers_count++;
    }
    rc = proto_registry_peers_rep_write(&out, reply);
    proto_registry_peers_rep_clear(&out);
    proto_registry_peers_req_clear(&in);
    return rc == 0 ? BUS_OK : BUS_STATUS_INTERNAL;
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
    bus_rpc_server_handle(server, PROTO_REGISTRY_REGISTER, s_register, self);
    bus_rpc_server_handle(server, PROTO_REGISTRY_HEARTBEAT, s_heartbeat, self);
    bus_rpc_server_handle(server, PROTO_REGISTRY_UNREGISTER, s_unregister, self);
    bus_rpc_server_handle(server, PROTO_REGISTRY_PEERS, s_peers, self);
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
