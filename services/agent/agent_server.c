/*  =========================================================================
    agent_server - the agent as bus_main runs it

    Runs the containers of one node through an OCI runtime. So far it joins
    the bus, answers service.health, publishes agent.heartbeat with the
    slots it offers, from which the scheduler keeps its agent registry, and
    announces the images it holds (image.catalog) for the gateway's
    catalogue, and runs kernels for the scheduler (agent_kernels: kernel.*),
    with the files of their home directories (agent_kernel_files) and their
    terminals (agent_kernel_pty). Its accelerators are plugins of one
    allocator (agent_accel): the mock plugin when accelerators.mock is set,
    else the CUDA plugin (NVML) when accelerators.cuda is; the heartbeat
    offers their slots and the kernels take their devices from it.
    With fake.agents > 0 it runs none of that: a fleet of fake agents
    (agent_fake) that need no runc, images or root.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

typedef struct {
    agent_fake_t *fake; //  a fleet of fake agents instead of all below
    agent_accel_t *accel;
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
        agent_accel_destroy(&state->accel); //  after the kernels and heartbeat using it
        agent_fake_destroy(&state->fake);
        free(state);
        *state_p = NULL;
    }
}

//  The allocator with the configured plugins, logged. NULL with err when
//  accelerators.mock is invalid or out of memory.
static agent_accel_t *
s_accel_new(const agent_config_t *config, bus_error_t *err)
{
    agent_accel_t *accel = agent_accel_new();
    agent_accel_plugin_t *plugin = NULL;
    int rc = accel ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    if (rc == BUS_OK && *config->accel_mock) {
        agent_accel_mock_config_t mock;
        bus_error_t step = {0};
        rc = agent_accel_mock_config_parse(config->accel_mock, &mock, &step);
        if (rc == BUS_OK && !(plugin = agent_accel_mock_new(&mock, &step)))
            rc = step.status;
        if (rc != BUS_OK)
            bus_error_set(err, rc, "accelerators.mock: %s", step.detail);
        if (config->accel_cuda)
            bus_log_notice("accelerators.mock is set: the cuda plugin is not loaded");
    } else if (rc == BUS_OK && config->accel_cuda) {
        agent_accel_cuda_config_t cuda;
        agent_accel_cuda_config_init(&cuda);
        cuda.mode =
            strcmp(config->accel_cuda_mode, "shares") == 0 ? AGENT_ACCEL_MODE_SHARES
            : strcmp(config->accel_cuda_mode, "both") == 0 ? AGENT_ACCEL_MODE_BOTH
                                                           : AGENT_ACCEL_MODE_DEVICE;
        if (!(plugin = agent_accel_cuda_new(&cuda)))
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot make the cuda plugin");
        else if (agent_accel_plugin_device_count(plugin) == 0)
            agent_accel_plugin_destroy(&plugin); //  no GPU: nothing to offer
    }
    if (rc == BUS_OK && plugin)
        rc = agent_accel_add(accel, &plugin, err);
    agent_accel_plugin_destroy(&plugin);
    if (rc != BUS_OK) {
        agent_accel_destroy(&accel);
        return NULL;
    }
    agent_accel_log(accel);
    return accel;
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
    if (config->fake_agents > 0) {
        state->fake = agent_fake_new(node, config, err);
        if (!state->fake) {
            free(state);
            return NULL;
        }
        return state;
    }
    state->accel = s_accel_new(config, err);
    if (state->accel)
        state->images =
            agent_images_new(node, config->images_dir, config->images_rescan_ms, err);
    if (state->images)
        state->kernels =
            agent_kernels_new(node, config, state->images, state->accel, err);
    if (state->kernels)
        state->kernel_files = agent_kernel_files_new(node, state->kernels, err);
    if (state->kernel_files)
        state->kernel_pty = agent_kernel_pty_new(node, state->kernels, err);
    if (state->kernel_pty)
        state->heartbeat = agent_heartbeat_new(node, config, state->accel, err);
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
    .migrations = agent_db_migrations,
    .migration_count = AGENT_DB_MIGRATION_COUNT,
    .init = s_init,
    .fini = s_fini,
};
