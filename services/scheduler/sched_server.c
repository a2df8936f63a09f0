/*  =========================================================================
    sched_server - the scheduler as bus_main runs it

    Owns sessions and kernels, the pending queue, the agent registry and the slot
   allocation ledger. So far the scheduler is its node: it joins the bus, registers,
    heartbeats and answers service.health, bus.replay and /healthz.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

const bus_service_t sched_service = {
    .name = "scheduler",
    .summary = "Owns sessions and kernels, the pending queue, the agent registry and the "
               "slot allocation ledger",
    .options = sched_config_options,
    .config_size = sizeof(sched_config_t),
    .node_config_offset = offsetof(sched_config_t, node),
    .migrations = sched_db_migrations,
    .migration_count = SCHED_DB_MIGRATION_COUNT,
};
