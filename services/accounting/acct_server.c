/*  =========================================================================
    acct_server - the accounting as bus_main runs it

    Keeps usage records, statistics and the access and audit log. So far the accounting is
   its node: it joins the bus, registers, heartbeats and answers service.health,
   bus.replay and /healthz.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "acct_classes.h"

const bus_service_t acct_service = {
    .name = "accounting",
    .summary = "Keeps usage records, statistics and the access and audit log",
    .options = acct_config_options,
    .config_size = sizeof(acct_config_t),
    .node_config_offset = offsetof(acct_config_t, node),
};
