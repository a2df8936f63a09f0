/*  =========================================================================
    bus_node_presence - the node in the registry: register, heartbeat, peers

    Only the hub and registry endpoints are configured; every peer's RPC
    endpoint comes from registry.peers. A heartbeat the registry answers
    with REREGISTER (it expired us, or it restarted) registers again.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_node_private.h"

//  ---------------------------------------------------------------------------
//  Registry: register, heartbeat, peers

static void
s_on_peers(void *arg, const bus_reply_t *reply)
{
    bus_node_t *self = arg;
    if (reply->status != BUS_OK)
        return;
    proto_registry_peers_rep_t peers;
    bus_error_t err = {0};
    if (proto_registry_peers_rep_decode(&peers, reply->body, reply->body_size, &err) !=
        BUS_OK) {
        bus_log_warning("peer list malformed reason=\"%s\"", err.detail);
        return;
    }
    proto_registry_peers_rep_clear(&self->peers);
    self->peers = peers;
    node_sync(self);
}

uint64_t
bus_node_refresh_peers(bus_node_t *self, bus_reply_fn *fn, void *arg)
{
    proto_registry_peers_req_t req;
    proto_registry_peers_req_init(&req);
    bus_writer_reset(self->scratch);
    if (proto_registry_peers_req_write(&req, self->scratch) != 0)
        return 0;
    return bus_node_call(self, self->registry_endpoint, PROTO_REGISTRY_PEERS,
                         bus_writer_data(self->scratch), bus_writer_size(self->scratch),
                         self->config->sync_ms, fn ? fn : s_on_peers, fn ? arg : self);
}

//  The registry's clock is the bus's: every answer of the registry says
//  its time (ts), and the difference to ours becomes the offset bus time
//  adds (bus_clock_bus_us), within about half a round trip. A host whose
//  clock is off by more than BUS_NODE_CLOCK_WARN_MS is told once per
//  change of that size: its RPC deadlines and events' timestamps are
//  corrected, its own logs' and files' times are not.
static void
s_follow_registry_clock(bus_node_t *self, const bus_reply_t *reply)
{
    if (!reply->server_ts || self->registry)
        return; //  the registry's own process is the reference
    int64_t offset = reply->server_ts - bus_clock_wall_us();
    bus_clock_set_bus_offset_us(offset);
    int64_t change = offset - self->clock_logged_us;
    if (change < 0)
        change = -change;
    if (change < (int64_t) BUS_NODE_CLOCK_WARN_MS * 1000)
        return;
    int64_t off = offset < 0 ? -offset : offset;
    if (off >= (int64_t) BUS_NODE_CLOCK_WARN_MS * 1000)
        bus_log_warning("clock differs from the registry's host; bus time corrected"
                        " offset_ms=%" PRId64 " registry=%s",
                        offset / 1000, self->registry_endpoint);
    else
        bus_log_notice("clock agrees with the registry's host again offset_ms=%" PRId64,
                       offset / 1000);
    self->clock_logged_us = offset;
}

static void
s_on_registered(void *arg, const bus_reply_t *reply)
{
    bus_node_t *self = arg;
    self->registering = false;
    s_follow_registry_clock(self, reply);
    if (reply->status == BUS_OK) {
        bus_log_info("registered with the registry endpoint=%s", self->registry_endpoint);
        bus_node_refresh_peers(self, NULL, NULL);
    } else
        bus_log_warning("registration failed status=%s detail=\"%s\"",
                        bus_status_str(reply->status), reply->detail);
}

void
node_register(bus_node_t *self)
{
    if (self->registering)
        return;
    proto_registry_register_req_t req;
    proto_registry_register_req_init(&req);
    req.service = self->service;
    req.node = self->name;
    req.rpc_endpoint = self->rpc_endpoint;
    req.http_endpoint = self->http_endpoint;
    req.version = BACKPLANE_VERSION;
    req.pid = (uint64_t) getpid();
    req.started_at = self->started_us;
    req.durable_epoch = bus_outbox_epoch(self->outbox);
    bus_writer_reset(self->scratch);
    int rc = proto_registry_register_req_write(&req, self->scratch);
    if (rc == 0 &&
        bus_node_call(self, self->registry_endpoint, PROTO_REGISTRY_REGISTER,
                      bus_writer_data(self->scratch), bus_writer_size(self->scratch),
                      self->config->heartbeat_ms, s_on_registered, self))
        self->registering = true;
}

static void
s_on_heartbeat(void *arg, const bus_reply_t *reply)
{
    bus_node_t *self = arg;
    s_follow_registry_clock(self, reply);
    if (reply->status == BUS_STATUS_REREGISTER) {
        bus_log_notice("registry does not know us; registering again");
        node_register(self);
    } else if (reply->status != BUS_OK)
        bus_log_debug("heartbeat unanswered status=%s", bus_status_str(reply->status));
}

void
node_heartbeat(bus_node_t *self)
{
    proto_registry_heartbeat_req_t req;
    proto_registry_heartbeat_req_init(&req);
    req.service = self->service;
    req.node = self->name;
    req.durable_epoch = bus_outbox_epoch(self->outbox);
    bus_writer_reset(self->scratch);
    if (proto_registry_heartbeat_req_write(&req, self->scratch) == 0)
        bus_node_call(self, self->registry_endpoint, PROTO_REGISTRY_HEARTBEAT,
                      bus_writer_data(self->scratch), bus_writer_size(self->scratch),
                      self->config->heartbeat_ms, s_on_heartbeat, self);
}

void
node_on_expired(void *arg, const char *service, const char *node, int64_t last_seen_us)
{
    bus_node_t *self = arg;
    proto_service_expired_t event;
    proto_service_expired_init(&event);
    event.service = service;
    event.node = node;
    event.last_seen = last_seen_us;
    bus_writer_reset(self->scratch);
    if (proto_service_expired_write(&event, self->scratch) == 0)
        bus_node_publish(self, PROTO_SERVICE_EXPIRED, bus_writer_data(self->scratch),
                         bus_writer_size(self->scratch));
}

const proto_registry_peers_rep_t *
bus_node_peers(bus_node_t *self)
{
    return &self->peers;
}

const char *
bus_node_find(bus_node_t *self, const char *service)
{
    for (size_t i = 0; i < self->peers.peers_count; i++) {
        const proto_registry_peer_t *peer = &self->peers.peers[i];
        if (strcmp(peer->service, service) == 0 && peer->rpc_endpoint &&
            *peer->rpc_endpoint)
            return peer->rpc_endpoint;
    }
    return NULL;
}
