/*  =========================================================================
    gw_config - the gateway's options: config/gateway.yaml

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_CONFIG_H_INCLUDED
#define GW_CONFIG_H_INCLUDED

#include "bus.h"

typedef struct {
    bus_node_config_t node;
    char *listen;           //  host:port of the API
    int64_t max_body_bytes; //  larger request bodies are refused with 413
    int request_timeout_ms; //  a request waiting on the bus longer gets 503/504
    int healthz_timeout_ms; //  how long /healthz waits for each service
} gw_config_t;

extern const bus_config_option_t gw_config_options[];

#endif
