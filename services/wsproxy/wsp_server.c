/*  =========================================================================
    wsp_server - the wsproxy as bus_main runs it

    Proxies HTTP and WebSocket traffic to service ports inside sessions. So
    far the wsproxy is its node: it joins the bus, registers, heartbeats and
    answers service.health, bus.replay and /healthz. It has no state of its
    own yet (no wsp_db) and serves no RPC methods of its own (no wsp_rpc);
    when it grows them they go there, in the storage-proxy's shape (one
    static table of handlers in wsp_rpc.c, schema and SQL in wsp_db.c).

    Timers (besides the node's cron, listed in bus_node.h: heartbeat,
    peer list, catch-up of missed durable events, outbox):
      none.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "wsp_classes.h"

const bus_service_t wsp_service = {
    .name = "wsproxy",
    .summary = "Proxies HTTP and WebSocket traffic to service ports inside sessions",
    .options = wsp_config_options,
    .config_size = sizeof(wsp_config_t),
    .node_config_offset = offsetof(wsp_config_t, node),
};
