/*  =========================================================================
    wsp_config - the wsproxy's options: config/wsproxy.yaml

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef WSP_CONFIG_H_INCLUDED
#define WSP_CONFIG_H_INCLUDED

#include "bus.h"

typedef struct {
    bus_node_config_t node;
} wsp_config_t;

extern const bus_config_option_t wsp_config_options[];

#endif
