/*  =========================================================================
    sched_config - the option table of the scheduler

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

const bus_config_option_t sched_config_options[] = {
    BUS_NODE_CONFIG_ROWS(sched_config_t, node, "true", BUS_NODE_HTTP_SCHEDULER),
    {"agents.lost_ms", BUS_CFG_INT, offsetof(sched_config_t, agent_lost_ms), "10000", 500,
     3600000, NULL,
     "an agent silent this long is marked LOST (its heartbeats come every "
     "bus.heartbeat_ms)"},
    {"agents.termination_grace_ms", BUS_CFG_INT, offsetof(sched_config_t, agent_grace_ms),
     "60000", 0, 86400000, NULL,
     "how long a LOST agent's kernels are given to come back before they end with "
     "agent-termination and give their slots back"},
    {"agents.create_timeout_ms", BUS_CFG_INT, offsetof(sched_config_t, create_timeout_ms),
     "120000", 1000, 3600000, NULL,
     "how long an agent may take to start or stop a kernel (image unpack, runc) before "
     "the "
     "call fails"},
    {"sessions.pass_ms", BUS_CFG_INT, offsetof(sched_config_t, pass_ms), "1000", 10,
     600000, NULL,
     "how often pending sessions are placed (also right after each create)"},
    {"sessions.reclaim_ms", BUS_CFG_INT, offsetof(sched_config_t, reclaim_ms), "5000",
     100, 600000, NULL,
     "how often idle, overdue and long-pending sessions are looked for (sched_reclaim)"},
    BUS_CONFIG_END,
};
