/*  =========================================================================
    sched_server - the scheduler as bus_main runs it

    Owns sessions and kernels, the pending queue, the agent registry and the slot
   allocation ledger. So far it keeps the agent registry (sched_agents) and
    answers usage from the ledger (sched_usage), besides what every node does.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

static void *
s_init(bus_node_t *node, const void *config_, bus_error_t *err)
{
    const sched_config_t *config = config_;
    sched_agents_t *agents = sched_agents_new(node, config->agent_lost_ms);
    if (!agents)
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot start the agent registry");
    else if (sched_usage_serve(node) != 0) {
        sched_agents_destroy(&agents);
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot serve scheduler.usage");
    }
    return agents;
}

static void
s_fini(void **state_p)
{
    sched_agents_destroy((sched_agents_t **) state_p);
}

const bus_service_t sched_service = {
    .name = "scheduler",
    .summary = "Owns sessions and kernels, the pending queue, the agent registry and the "
               "slot allocation ledger",
    .options = sched_config_options,
    .config_size = sizeof(sched_config_t),
    .node_config_offset = offsetof(sched_config_t, node),
    .migrations = sched_db_migrations,
    .migration_count = SCHED_DB_MIGRATION_COUNT,
    .init = s_init,
    .fini = s_fini,
};
