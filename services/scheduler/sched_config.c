/*  =========================================================================
    sched_config - the option table of the scheduler

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

const bus_config_option_t sched_config_options[] = {
    BUS_NODE_CONFIG_ROWS(sched_config_t, node, "true"),
    {"agents.lost_ms", BUS_CFG_INT, offsetof(sched_config_t, agent_lost_ms), "10000", 500,
     3600000, NULL,
     "an agent silent this long is marked LOST (its heartbeats come every "
     "bus.heartbeat_ms)"},
    BUS_CONFIG_END,
};
