/*  =========================================================================
    wsp_config - the option table of the wsproxy

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "wsp_classes.h"

const bus_config_option_t wsp_config_options[] = {
    BUS_NODE_CONFIG_ROWS(wsp_config_t, node, "false"),
    BUS_CONFIG_END,
};
