/*  =========================================================================
    sp_config - the storage-proxy's options: config/storage-proxy.yaml

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_CONFIG_H_INCLUDED
#define SP_CONFIG_H_INCLUDED

#include "bus.h"

typedef struct {
    bus_node_config_t node;
} sp_config_t;

extern const bus_config_option_t sp_config_options[];

#endif
