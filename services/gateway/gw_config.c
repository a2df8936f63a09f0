/*  =========================================================================
    gw_config - the option table of the gateway

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

const bus_config_option_t gw_config_options[] = {
    BUS_NODE_CONFIG_ROWS(gw_config_t, node, "false"),
    {"api.listen", BUS_CFG_STRING, offsetof(gw_config_t, listen), "127.0.0.1:8081", 3,
     255, NULL,
     "host:port the Backend.AI-compatible API listens on (port 0 = any free port)"},
    {"api.max_body_bytes", BUS_CFG_BYTES, offsetof(gw_config_t, max_body_bytes), "1m",
     1024, 1LL << 30, NULL, "largest request body accepted; larger ones get 413"},
    {"api.request_timeout_ms", BUS_CFG_INT, offsetof(gw_config_t, request_timeout_ms),
     "30000", 100, 3600000, NULL, "how long a request may wait on other services"},
    {"api.healthz_timeout_ms", BUS_CFG_INT, offsetof(gw_config_t, healthz_timeout_ms),
     "1000", 50, 60000, NULL, "how long /healthz waits for each service to answer"},
    BUS_CONFIG_END,
};
