/*  =========================================================================
    sched_config - the option table of the scheduler

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

const bus_config_option_t sched_config_options[] = {
    BUS_NODE_CONFIG_ROWS(sched_config_t, node, "true"),
    BUS_CONFIG_END,
};
