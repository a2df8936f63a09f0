/*  =========================================================================
    agent_server - the agent as bus_main runs it

    Runs the containers of one node through an OCI runtime. So far it joins
    the bus, answers service.health, publishes agent.heartbeat with the
    slots it offers, from which the scheduler keeps its agent registry, and
    announces the images it holds (image.catalog) for the gateway's
    catalogue, and runs kernels for the scheduler (agent_kernels: kernel.*),
    with the files of their home directories (agent_kernel_files) and their
    terminals (agent_kernel_pty).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

typedef struct {
    agent_heartbeat_t *heartbeat;
    agent_images_t *images;
    agent_kernels_t *kernels;
    agent_kernel_files_t *kernel_files;
    agent_kernel_pty_t *kernel_pty;
} agent_state_t;

static void
s_fini(void **state_p)
{
    agent_state_t *state = *state_p;
    if (state) {
        agent_heartbeat_destroy(&state->heartbeat);
        agent_kernel_files_destroy(&state->kernel_files);
        agent_kernel_pty_destroy(&state->kernel_pty); //  before the kernels it hooks
        agent_kernels_destroy(&state->kernels);
        agent_images_destroy(&state->images);
        free(state);
        *state_p = NULL;
    }
}

static void *
s_init(bus_node_t *node, const void *config_p, bus_error_t *err)
{
    const agent_config_t *config = config_p;
    agent_state_t *state = calloc(1, sizeof *state);
    if (!state) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    state->images =
        agent_images_new(node, config->images_dir, config->images_rescan_ms, err);
    if (state->images)
        state->kernels = agent_kernels_new(node, config, state->images, err);
    if (state->kernels)
        state->kernel_files = agent_kernel_files_new(node, state->kernels, err);
    if (state->kernel_files)
        state->kernel_pty = agent_kernel_pty_new(node, state->kernels, err);
    if (state->kernel_pty)
        state->heartbeat = agent_heartbeat_new(node, config, err);
    if (!state->heartbeat) {
        void *dead = state;
        s_fini(&dead);
        return NULL;
    }
    return state;
}

const bus_service_t agent_service = {
    .name = "agent",
    .summary = "Runs the containers of one node through an OCI runtime",
    .options = agent_config_options,
    .config_size = sizeof(agent_config_t),
    .node_config_offset = offsetof(agent_config_t, node),
    .migrations = agent_kernels_migrations,
    .migration_count = AGENT_KERNELS_MIGRATION_COUNT,
    .init = s_init,
    .fini = s_fini,
};
