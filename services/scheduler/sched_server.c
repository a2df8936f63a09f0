/*  =========================================================================
    sched_server - the scheduler as bus_main runs it

    Owns sessions and kernels, the pending queue, the agent registry and the slot
   allocation ledger: the agent registry (sched_agents), usage from the ledger
    (sched_usage) and the session lifecycle (sched_lifecycle over
    sched_sessions), besides what every node does.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

typedef struct {
    sched_agents_t *agents;
    sched_lifecycle_t *lifecycle;
    sched_db_checkpoint_t *checkpoint; //  NULL: the loop's connection checkpoints alone
} sched_state_t;

static void
s_fini(void **state_p)
{
    sched_state_t *state = *state_p;
    if (state) {
        sched_lifecycle_destroy(&state->lifecycle);
        sched_agents_destroy(&state->agents);
        sched_db_checkpoint_destroy(&state->checkpoint);
        free(state);
        *state_p = NULL;
    }
}

static void *
s_init(bus_node_t *node, const void *config_, bus_error_t *err)
{
    const sched_config_t *config = config_;
    sched_state_t *state = calloc(1, sizeof *state);
    if (!state) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    //  Tuning, not schema (see sched_db.h).
    if (bus_db_exec(bus_node_db(node), SCHED_DB_PRAGMAS) != 0)
        bus_log_warning("cannot tune the database; going on with the defaults");
    state->checkpoint = sched_db_checkpoint_new(bus_node_db(node));
    state->agents = sched_agents_new(node, config->agent_lost_ms);
    if (state->agents && sched_usage_serve(node) == 0 && sched_groups_follow(node) == 0 &&
        sched_invariant_serve(node) == 0)
        state->lifecycle =
            sched_lifecycle_new(node, config->pass_ms, config->create_timeout_ms,
                                config->agent_grace_ms, config->reclaim_ms);
    if (!state->lifecycle) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot start the session service");
        void *dead = state;
        s_fini(&dead);
        return NULL;
    }
    return state;
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
    .command = sched_invariant_command,
};
