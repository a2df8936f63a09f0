/*  =========================================================================
    sp_config - the option table of the storage-proxy

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"

const bus_config_option_t sp_config_options[] = {
    BUS_NODE_CONFIG_ROWS(sp_config_t, node, "false"),
    BUS_CONFIG_END,
};
