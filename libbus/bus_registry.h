/*  =========================================================================
    bus_registry - who is on the bus: registration, heartbeats, expiry

    The registry lives beside the hub (the node that hosts the hub hosts it
    too), on its own ROUTER at a well-known endpoint, so a service needs to
    be told only where the hub and the registry are; it finds every other
    service's RPC endpoint here. Clients ping (registry.heartbeat), the
    registry expires a peer that stays silent past the expiry, and a
    heartbeat from a peer it does not know (it expired, or the registry
    restarted) is answered BUS_STATUS_REREGISTER, upon which the peer
    registers again.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_REGISTRY_H_INCLUDED
#define BUS_REGISTRY_H_INCLUDED

#include "bus_rpc.h"

typedef struct _bus_registry_t bus_registry_t;

//  Called when a peer expires, to announce it (service.expired).
typedef void(bus_registry_expired_fn)(void *arg,
                                      const char *service,
                                      const char *node,
                                      int64_t last_seen_us);

//  Registers the registry.* methods on server. The registry tells peers to
//  heartbeat every heartbeat_ms and forgets them after expiry_ms of silence.
bus_registry_t *bus_registry_new(bus_rpc_server_t *server,
                                 int heartbeat_ms,
                                 int expiry_ms,
                                 bus_registry_expired_fn *fn,
                                 void *arg);

void bus_registry_destroy(bus_registry_t **self_p);

//  Forgets peers silent for longer than the expiry. Returns how many.
int bus_registry_expire(bus_registry_t *self);

size_t bus_registry_size(bus_registry_t *self);

#endif
