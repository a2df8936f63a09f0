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

    Its methods are served from one table (s_methods below): each kernel.*
    method with the object whose handler answers it.

    Threads: the loop (bus_node's libevent base) runs everything but the
    kernels' containers, which the kernel manager's worker makes, restarts
    and removes (agent_worker, agent_container): runc, umoci and ip never
    run on the loop, which keeps answering heartbeats, executes and lists
    while kernels start. The worker's jobs are handed over and back through
    a zactor pipe; nothing else is shared (agent_kernel.h says who owns
    what). A bootstrap script runs on the worker with a private event base.

    Timers, all on the loop (Redis serverCron's habit: each one, its
    period, what it does):
      - bus_node's cron, every bus.heartbeat_ms: registry heartbeat,
        peers (bus.sync_ms), durable-event catch-up, outbox flush and trim
        (listed in bus_node.h);
      - agent_heartbeat, every bus.heartbeat_ms: agent.heartbeat with the
        slots offered and those the kernels' rows hold (agent_db);
      - agent_images, every agent.images_rescan_ms (0: at start only):
        rescan agent.images_dir, re-announce a changed image.catalog;
      - agent_kernel_watch reap, every AGENT_KERNELS_REAP_MS (200 ms, not
        configurable): collect the kernels' exits (their pids only; every
        child while the worker is idle) and end those kernels
        (self-terminated, oom-killed); adopted kernels through /proc;
      - agent_kernel_watch stats, every agent.stats_ms (0: off):
        kernel.stats of every running kernel from its cgroup;
      - one-shot timers per request, not periodic: a runner client's
        collect deadline (agent_runner_client), a terminal read's wait
        (agent_kernel_pty);
      - with fake.agents, agent_fake's heartbeat slices instead (every
        bus.heartbeat_ms spread over the fleet) and its flush event.

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

//  Serves the agent's methods: each with its typed handler and the object
//  (a member of agent_state_t) passed to it. BUS_OK or err. The fake fleet
//  has a table of its own.
static int
s_serve(bus_node_t *node, agent_state_t *state, bus_error_t *err)
{
    const struct {
        bus_node_method_t served;
        size_t object; //  offsetof(agent_state_t, ...)
    } methods[] = {
        {proto_kernel_create_method(agent_kernel_create_on_create),
         offsetof(agent_state_t, kernels)},
        {proto_kernel_destroy_method(agent_kernel_rpc_on_destroy),
         offsetof(agent_state_t, kernels)},
        {proto_kernel_restart_method(agent_kernel_rpc_on_restart),
         offsetof(agent_state_t, kernels)},
        {proto_kernel_hosts_method(agent_kernel_rpc_on_hosts),
         offsetof(agent_state_t, kernels)},
        {proto_kernel_execute_method(agent_kernel_rpc_on_execute),
         offsetof(agent_state_t, kernels)},
        {proto_kernel_interrupt_method(agent_kernel_rpc_on_interrupt),
         offsetof(agent_state_t, kernels)},
        {proto_kernel_logs_method(agent_kernel_rpc_on_logs),
         offsetof(agent_state_t, kernels)},
        {proto_kernel_list_method(agent_kernel_rpc_on_list),
         offsetof(agent_state_t, kernels)},
        {proto_kernel_start_service_method(agent_kernel_service_on_start),
         offsetof(agent_state_t, kernels)},
        {proto_kernel_upload_method(agent_kernel_files_on_upload),
         offsetof(agent_state_t, kernel_files)},
        {proto_kernel_download_method(agent_kernel_files_on_download),
         offsetof(agent_state_t, kernel_files)},
        {proto_kernel_download_single_method(agent_kernel_files_on_download_single),
         offsetof(agent_state_t, kernel_files)},
        {proto_kernel_list_files_method(agent_kernel_files_on_list_files),
         offsetof(agent_state_t, kernel_files)},
        {proto_kernel_pty_write_method(agent_kernel_pty_on_write),
         offsetof(agent_state_t, kernel_pty)},
        {proto_kernel_pty_read_method(agent_kernel_pty_on_read),
         offsetof(agent_state_t, kernel_pty)},
        {proto_image_rescan_method(agent_images_on_rescan),
         offsetof(agent_state_t, images)},
    };
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        void *object = *(void **) ((char *) state + methods[i].object);
        int rc = bus_node_serve(node, &methods[i].served, 1, object, err);
        if (rc != BUS_OK)
            return rc;
    }
    return BUS_OK;
}

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
        cuda.library = config->accel_cuda_nvml_library;
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
    if (!state->heartbeat || s_serve(node, state, err) != BUS_OK) {
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
