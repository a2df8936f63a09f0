/*  =========================================================================
    acct_config - the option table of the accounting

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "acct_classes.h"

const bus_config_option_t acct_config_options[] = {
    BUS_NODE_CONFIG_ROWS(acct_config_t, node, "false"),
    BUS_CONFIG_END,
};
