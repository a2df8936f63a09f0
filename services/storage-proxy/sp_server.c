/*  =========================================================================
    sp_server - the storage-proxy as bus_main runs it

    Owns volumes, virtual folders and their data. So far the storage-proxy is its node: it
   joins the bus, registers, heartbeats and answers service.health, bus.replay and
   /healthz.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"

const bus_service_t sp_service = {
    .name = "storage-proxy",
    .summary = "Owns volumes, virtual folders and their data",
    .options = sp_config_options,
    .config_size = sizeof(sp_config_t),
    .node_config_offset = offsetof(sp_config_t, node),
};
