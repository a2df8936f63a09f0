/*  =========================================================================
    wsp_server - the wsproxy as bus_main runs it

    Proxies HTTP and WebSocket traffic to service ports inside sessions. So far the
   wsproxy is its node: it joins the bus, registers, heartbeats and answers
   service.health, bus.replay and /healthz.

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
