/*  =========================================================================
    agent_kernel_watch - the timers that watch running kernels

    The reap timer (every AGENT_KERNELS_REAP_MS) collects the exits of the
    kernels' PID 1s, which are the agent's children (it is their
    subreaper), and ends those kernels (self-terminated, or oom-killed);
    adopted kernels, not its children, are looked for in /proc. It waits on
    the pids of the running kernels only, so that a runc or umoci the
    worker runs keeps its exit status; orphans re-parented to the agent are
    reaped too (waitpid(-1)) while the worker is idle. The stats timer
    (agent.stats_ms) publishes kernel.stats of every running kernel, with
    the GPU figures of those holding GPUs (one NVML reading per tick, a few
    driver calls per GPU: agent_stats_gpus_new).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

//  An exit agent_runc_reap reported, handled after it returns.
typedef struct {
    char *id;
    int exit_code;
    bool oom_killed;
} s_exit_t;

static void
s_exit_destructor(void **item_p)
{
    s_exit_t *exit = *item_p;
    if (exit) {
        free(exit->id);
        free(exit);
        *item_p = NULL;
    }
}

static void
s_on_exit(const char *kernel_id, int pid, int exit_code, bool oom_killed, void *arg)
{
    (void) pid;
    agent_kernels_t *self = arg;
    if (!kernel_id)
        return; //  an orphan re-parented to us
    s_exit_t *exit = calloc(1, sizeof *exit);
    if (exit && (exit->id = strdup(kernel_id))) {
        exit->exit_code = exit_code;
        exit->oom_killed = oom_killed;
        zlistx_add_end(self->exits, exit);
    } else
        free(exit);
}

static void
s_reap(agent_kernels_t *self)
{
    //  Every child only when no other thread has one (see agent_runc_reap_all).
    if (agent_worker_idle(self->worker))
        agent_runc_reap_all(self->runc, s_on_exit, self);
    else
        agent_runc_reap(self->runc, s_on_exit, self);
    //  Adopted kernels are not our children: their end is only seen in /proc.
    for (agent_kernel_t *kernel = zhashx_first(self->kernels); kernel;
         kernel = zhashx_next(self->kernels))
        if (kernel->adopted && kernel->state == AGENT_KERNEL_RUNNING &&
            !agent_runc_pid_alive(kernel->pid))
            s_on_exit(kernel->id, kernel->pid, AGENT_RUNC_EXIT_UNKNOWN, false, self);
    s_exit_t *exit;
    while ((exit = zlistx_detach(self->exits, NULL))) {
        agent_kernel_t *kernel = zhashx_lookup(self->kernels, exit->id);
        if (kernel && kernel->state == AGENT_KERNEL_RUNNING)
            agent_kernels_end(self, kernel, 0,
                              exit->oom_killed ? "oom-killed" : "self-terminated", NULL,
                              exit->exit_code, exit->oom_killed);
        s_exit_destructor((void **) &exit);
    }
    agent_kernel_gpu_supervise(self);
}

static void
s_on_reap_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    s_reap(arg);
}

static void
s_on_stats_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    agent_kernels_t *self = arg;
    bus_writer_t *writer = bus_writer_new();
    agent_stats_gpus_t *gpus = agent_stats_gpus_new(self->accel);
    for (agent_kernel_t *kernel = zhashx_first(self->kernels); kernel && writer;
         kernel = zhashx_next(self->kernels)) {
        agent_stats_t stats;
        if (kernel->state != AGENT_KERNEL_RUNNING ||
            agent_stats_read(kernel->id, &stats) != BUS_OK)
            continue;
        proto_kernel_stats_t event;
        proto_kernel_stats_init(&event);
        event.kernel_id = kernel->id;
        event.agent_id = bus_node_name(self->node);
        event.cpu_used_ns = stats.cpu_used_ns;
        event.mem_bytes = stats.memory_bytes;
        event.mem_peak_bytes = stats.memory_max_bytes;
        event.mem_limit_bytes = stats.memory_limit_bytes;
        event.pids = stats.pids;
        event.io_read_bytes = stats.io_read_bytes;
        event.io_write_bytes = stats.io_write_bytes;
        event.net_rx_bytes = stats.net_rx_bytes;
        event.net_tx_bytes = stats.net_tx_bytes;
        if (gpus) {
            char path[AGENT_BUNDLE_KERNEL_ID_MAX + sizeof AGENT_BUNDLE_CGROUP_PARENT + 2];
            agent_stats_gpu_t gpu;
            agent_stats_cgroup_path(kernel->id, path, sizeof path);
            agent_stats_gpus_kernel(gpus, agent_accel_lookup(self->accel, kernel->id),
                                    path, &gpu);
            event.cuda_devices = gpu.devices;
            event.cuda_mem_bytes = gpu.mem_bytes;
            event.cuda_mem_total_bytes = gpu.mem_total_bytes;
            event.cuda_util_pct = gpu.util_pct;
        }
        bus_writer_reset(writer);
        if (proto_kernel_stats_write(&event, writer) == 0)
            bus_node_publish(self->node, PROTO_KERNEL_STATS, bus_writer_data(writer),
                             bus_writer_size(writer));
    }
    agent_stats_gpus_destroy(&gpus);
    bus_writer_destroy(&writer);
}

//  ---------------------------------------------------------------------------
//  Start the timers.

int
agent_kernel_watch_start(agent_kernels_t *self, bus_error_t *err)
{
    assert(self);
    zlistx_set_destructor(self->exits, s_exit_destructor);
    struct event_base *base = bus_node_base(self->node);
    struct timeval reap = {0, AGENT_KERNELS_REAP_MS * 1000};
    self->reap_timer = event_new(base, -1, EV_PERSIST, s_on_reap_timer, self);
    if (!self->reap_timer || event_add(self->reap_timer, &reap) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot start the reap timer");
    int stats_ms = self->config->stats_ms;
    if (stats_ms > 0) {
        struct timeval tv = {stats_ms / 1000, (stats_ms % 1000) * 1000};
        self->stats_timer = event_new(base, -1, EV_PERSIST, s_on_stats_timer, self);
        if (!self->stats_timer || event_add(self->stats_timer, &tv) != 0)
            return bus_error_set(err, BUS_STATUS_INTERNAL,
                                 "cannot start the stats timer");
    }
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Stop them.

void
agent_kernel_watch_stop(agent_kernels_t *self)
{
    assert(self);
    if (self->reap_timer)
        event_free(self->reap_timer);
    if (self->stats_timer)
        event_free(self->stats_timer);
    self->reap_timer = self->stats_timer = NULL;
}
