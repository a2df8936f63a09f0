/*  =========================================================================
    agent_kernels - the kernel manager: its registry, and how kernels end

    A kernel is a record in a hash (agent_kernel.h) holding what must be
    given back when it ends: its accelerators, its runner client and its
    container record (agent_container: the image hold, the network, the
    hosts file, the runc container). One path gives all of it back: the
    worker's half, agent_containers_release, and the loop's,
    agent_kernels_finish (accelerators, the row deleted and
    kernel.terminated emitted in one transaction with the end of its log
    kept in ended_logs, the parked requests
    answered, the record freed). A kernel that ends (destroy, the reap
    timer, its batch task, a restart that fails) goes through both; a
    create that fails half-way releases what it took with the same
    function in its job and finishes with the same function on the loop,
    with no row to delete and nothing to announce. A kernel id that ended
    is remembered (ended) and never created again.

    The manager's own start: the loop's runc driver (which reaps) and the
    containers context (the worker's, with a driver of its own and the
    network), the recovery of what a previous agent left (before the worker
    starts, so its jobs run inline), then the worker and the timers. Its
    handlers are in the agent's table of methods (agent_server.c).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <sys/un.h> //  sockaddr_un: the runner sockets' longest path

//  A kernel's release on the worker: what it held and what runc saw.
typedef struct {
    agent_kernels_t *self;
    agent_kernel_t *kernel; //  ENDING: stays in the hash until finished
    agent_container_t *container;
    int grace_ms;
    int seen;
    bus_error_t err;
} s_release_t;

static void
s_kernel_destructor(void **item_p)
{
    agent_kernel_destroy((agent_kernel_t **) item_p);
}

//  A run of the kernel ended. A SIGKILL may be the OOM killer's: the
//  cgroup's count tells, and the kill is then this run's (not the kernel's,
//  should it exit later).
static void
s_on_run_finished(const char *run_id, int exit_code, void *arg)
{
    agent_kernel_t *kernel = arg;
    if (exit_code != 128 + SIGKILL)
        return;
    bool oom = agent_runc_oom_take(kernel->owner->runc, kernel->id);
    if (strcmp(run_id, AGENT_TASK_RUN_ID) == 0)
        kernel->task_oom = oom;
    if (oom)
        bus_log_notice("run oom-killed kernel=%s run=%s", kernel->id, run_id);
}

//  On the worker: gives back what the kernel holds on the host.
static void
s_release_run(void *job, void *context)
{
    s_release_t *release = job;
    agent_containers_release(context, release->container, release->grace_ms,
                             &release->seen, &release->err);
}

//  On the loop: the rest of the end. Cancelled (the agent stops first), the
//  kernel stays as it is: recorded and running, for the next agent to adopt.
static void
s_release_done(void *job, bool ran)
{
    s_release_t *release = job;
    agent_kernels_t *self = release->self;
    agent_kernel_t *kernel = release->kernel;
    if (!ran) {
        agent_kernels_give_back(self, kernel, &release->container);
        kernel->state = AGENT_KERNEL_RUNNING;
    } else {
        free(kernel->end.log);
        kernel->end.log = release->container->log;
        kernel->end.log_size = release->container->log_size;
        release->container->log = NULL;
        agent_container_destroy(&release->container);
        if (!kernel->end.detail && release->err.status != BUS_OK)
            kernel->end.detail = strdup(release->err.detail);
        agent_kernels_finish(self, kernel, release->seen, NULL);
    }
    free(release);
}

//  ---------------------------------------------------------------------------
//  End a kernel.

void
agent_kernels_end(agent_kernels_t *self,
                  agent_kernel_t *kernel,
                  int grace_ms,
                  const char *reason,
                  const char *detail,
                  int exit_code,
                  bool oom_killed)
{
    assert(self && kernel && reason);
    assert(kernel->state == AGENT_KERNEL_RUNNING);
    agent_kernel_set_end(kernel, grace_ms, reason, detail, exit_code, oom_killed);
    //  Before the release takes its cgroup and its veth away.
    kernel->end.has_stats = agent_stats_read(kernel->id, &kernel->end.stats) == BUS_OK;
    kernel->state = AGENT_KERNEL_ENDING;
    agent_kernels_runner_drop(self, kernel); //  its waiters: UNAVAILABLE
    s_release_t *release = calloc(1, sizeof *release);
    if (!release) {
        bus_log_error("kernel end without release kernel=%s: out of memory", kernel->id);
        agent_kernels_finish(self, kernel, AGENT_RUNC_EXIT_UNKNOWN, NULL);
        return;
    }
    release->self = self;
    release->kernel = kernel;
    release->container = agent_kernels_lend(self, kernel);
    release->grace_ms = grace_ms;
    release->seen = AGENT_RUNC_EXIT_UNKNOWN;
    agent_kernels_submit(self, s_release_run, s_release_done, release);
}

//  ---------------------------------------------------------------------------
//  The loop's half of giving a kernel back.

void
agent_kernels_finish(agent_kernels_t *self,
                     agent_kernel_t *kernel,
                     int seen,
                     const bus_error_t *why)
{
    assert(self && kernel);
    agent_accel_release(self->accel, kernel->id);
    agent_kernel_gpu_release(self, kernel->id);
    if (kernel->end.exit_code == AGENT_RUNC_EXIT_UNKNOWN)
        kernel->end.exit_code = seen;
    if (kernel->recorded) {
        const char *reason = kernel->end.reason ? kernel->end.reason : "";
        proto_kernel_terminated_t event;
        proto_kernel_terminated_init(&event);
        event.kernel_id = kernel->id;
        event.session_id = kernel->session_id;
        event.agent_id = bus_node_name(self->node);
        event.exit_code = kernel->end.exit_code;
        event.reason = reason;
        event.detail = kernel->end.detail ? kernel->end.detail : "";
        event.oom_killed = kernel->end.oom_killed;
        event.at = bus_clock_wall_us();
        event.has_stats = kernel->end.has_stats;
        event.cpu_used_ns = kernel->end.stats.cpu_used_ns;
        event.mem_peak_bytes = kernel->end.stats.memory_max_bytes;
        event.io_read_bytes = kernel->end.stats.io_read_bytes;
        event.io_write_bytes = kernel->end.stats.io_write_bytes;
        event.net_rx_bytes = kernel->end.stats.net_rx_bytes;
        event.net_tx_bytes = kernel->end.stats.net_tx_bytes;
        bool done = false;
        if (bus_node_begin(self->node) == 0) {
            bus_db_t *db = bus_node_db(self->node);
            done =
                agent_db_kernel_delete(db, kernel->id) == 0 &&
                (self->config->ended_log_max == 0 ||
                 agent_db_ended_log_insert(db, kernel->id, kernel->session_id, event.at,
                                           kernel->end.log, kernel->end.log_size) == 0) &&
                agent_events_terminated(self->node, &event) == 0;
            if (done)
                done = bus_node_commit(self->node) == 0;
            else
                bus_node_rollback(self->node);
        }
        if (!done)
            bus_log_error("cannot record the end of kernel %s", kernel->id);
        bus_log_notice("kernel terminated kernel=%s reason=%s exit_code=%d oom=%s",
                       kernel->id, reason, kernel->end.exit_code,
                       kernel->end.oom_killed ? "yes" : "no");
        if (zhashx_size(self->ended) >= AGENT_KERNELS_ENDED_MAX)
            zhashx_purge(self->ended);
        char code[16];
        snprintf(code, sizeof code, "%d", kernel->end.exit_code);
        zhashx_update(self->ended, kernel->id, strdup(code));
    }
    //  A destroy waited for this end; a create or restart that failed (or
    //  whose task did not start) is answered why, now that it is over.
    agent_kernel_answer(kernel, AGENT_KERNEL_WAIT_DESTROY,
                        kernel->recorded ? BUS_OK : BUS_STATUS_NOT_FOUND,
                        "no such kernel");
    int status = why && why->status != BUS_OK ? why->status : BUS_STATUS_UNAVAILABLE;
    const char *detail = why && why->status != BUS_OK ? why->detail : "the kernel ended";
    agent_kernel_answer(kernel, AGENT_KERNEL_WAIT_CREATE, status, detail);
    agent_kernel_answer(kernel, AGENT_KERNEL_WAIT_RESTART, status, detail);
    zhashx_delete(self->kernels, kernel->id); //  frees kernel
}

//  ---------------------------------------------------------------------------
//  A kernel runs: its task, its answers, a destroy that waited.

void
agent_kernels_started(agent_kernels_t *self,
                      agent_kernel_t *kernel,
                      const char *startup_command,
                      agent_kernel_wait_t kind)
{
    assert(self && kernel);
    assert(kernel->state == AGENT_KERNEL_RUNNING);
    bus_error_t err = {0};
    if (startup_command &&
        agent_task_start(self, kernel, startup_command, &err) != BUS_OK) {
        //  It runs and was announced: its end says why, and the request
        //  after it.
        agent_kernel_mark(kernel, kind, err.status, err.detail);
        agent_kernels_end(self, kernel, 0, "failed-to-start", err.detail, 1, false);
        return;
    }
    agent_kernel_answer(kernel, kind, BUS_OK, NULL);
    if (kernel->end.requested)
        //  A destroy came while it was being made or restarted.
        agent_kernels_end(self, kernel, kernel->end.grace_ms, kernel->end.reason, NULL,
                          AGENT_RUNC_EXIT_UNKNOWN, false);
}

//  ---------------------------------------------------------------------------
//  Lend a kernel's container to a job, and take it back.

agent_container_t *
agent_kernels_lend(agent_kernels_t *self, agent_kernel_t *kernel)
{
    assert(self && kernel);
    agent_container_t *container = kernel->container;
    kernel->container = NULL;
    if (container && !container->entry)
        container->entry = agent_runc_detach(self->runc, kernel->id);
    return container;
}

void
agent_kernels_give_back(agent_kernels_t *self,
                        agent_kernel_t *kernel,
                        agent_container_t **container_p)
{
    assert(self && kernel && container_p);
    agent_container_t *container = *container_p;
    *container_p = NULL;
    if (!container)
        return;
    bus_error_t err;
    if (container->entry && agent_runc_attach(self->runc, &container->entry, &err) != 0) {
        bus_log_error("kernel runc entry lost kernel=%s detail=\"%s\"", kernel->id,
                      err.detail);
        agent_runc_entry_destroy(&container->entry);
    }
    agent_container_destroy(&kernel->container);
    kernel->container = container;
    kernel->pid = container->pid;
}

//  ---------------------------------------------------------------------------
//  A kernel's runner client.

int
agent_kernels_runner_start(agent_kernels_t *self,
                           agent_kernel_t *kernel,
                           const char *socket,
                           bus_error_t *err)
{
    assert(self && kernel && socket);
    agent_runner_client_destroy(&kernel->runner);
    kernel->runner = agent_runner_client_new(bus_node_base(self->node), socket, err);
    if (!kernel->runner)
        return err->status;
    agent_runner_client_set_finished_handler(kernel->runner, s_on_run_finished, kernel);
    if (self->runner_hook)
        self->runner_hook(kernel->id, kernel->runner, self->runner_hook_arg);
    return BUS_OK;
}

void
agent_kernels_runner_drop(agent_kernels_t *self, agent_kernel_t *kernel)
{
    assert(self && kernel);
    if (self->runner_hook && kernel->runner)
        self->runner_hook(kernel->id, NULL, self->runner_hook_arg);
    agent_runner_client_destroy(&kernel->runner);
    free(kernel->run_id);
    kernel->run_id = NULL;
}

//  ---------------------------------------------------------------------------
//  Refuse a request meant for another agent: its address (a port the
//  system gave) may have changed hands after that agent restarted, and a
//  kernel.create or kernel.list that reaches this one by mistake must not
//  start a kernel here or answer for the other's. The scheduler knows the
//  detail's "changed hands": the agent meant was not reached, which is no
//  reason to cancel the session.

int
agent_kernels_check_addressee(agent_kernels_t *self,
                              const char *agent_id,
                              bus_error_t *err)
{
    assert(self);
    const char *me = bus_node_name(self->node);
    if (agent_id && *agent_id && strcmp(agent_id, me) != 0)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                             "this is agent %s, not %s: its address changed hands", me,
                             agent_id);
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Hand a job to the worker (inline before it starts: the recovery).

void
agent_kernels_submit(agent_kernels_t *self,
                     agent_worker_run_fn *run,
                     agent_worker_done_fn *done,
                     void *job)
{
    assert(self && run && done && job);
    if (!self->worker) {
        run(job, self->containers); //  the loop owns the context until then
        done(job, true);
    } else if (agent_worker_submit(self->worker, run, done, job) != 0) {
        bus_log_error("cannot queue a kernel job: out of memory");
        done(job, false);
    }
}

//  ---------------------------------------------------------------------------
//  Kernel networks made ahead.

typedef struct {
    agent_kernels_t *self;
    int made; //  agent_containers_spare_make's answer
} s_spare_job_t;

static void
s_spare_run(void *job, void *context)
{
    s_spare_job_t *spare = job;
    spare->made = agent_containers_spare_make(context);
}

static void
s_spare_done(void *job, bool ran)
{
    s_spare_job_t *spare = job;
    agent_kernels_t *self = spare->self;
    self->spare_queued = false;
    if (ran && spare->made > 0)
        agent_kernels_make_spares(self); //  until as many as wanted are made
    free(spare);
}

void
agent_kernels_make_spares(agent_kernels_t *self)
{
    assert(self);
    if (self->spare_queued || !self->worker || self->config->spares <= 0)
        return;
    s_spare_job_t *spare = calloc(1, sizeof *spare);
    if (!spare)
        return;
    spare->self = self;
    self->spare_queued = true;
    agent_kernels_submit(self, s_spare_run, s_spare_done, spare);
}

//  ---------------------------------------------------------------------------
//  Create the manager.

agent_kernels_t *
agent_kernels_new(bus_node_t *node,
                  const agent_config_t *config,
                  agent_images_t *images,
                  agent_accel_t *accel,
                  bus_error_t *err)
{
    assert(node);
    assert(config);
    assert(images);
    assert(accel);
    agent_kernels_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    self->config = config;
    self->images = images;
    self->accel = accel;
    self->kernels = zhashx_new();
    self->ended = zhashx_new();
    self->exits = zlistx_new();
    if (!self->kernels || !self->ended || !self->exits) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        goto fail;
    }
    zhashx_set_destructor(self->kernels, s_kernel_destructor);
    zhashx_set_destructor(self->ended, (zhashx_destructor_fn *) zstr_free);
    //  Every kernel's writable layer: a tmpfs of scratch_size, or host dirs.
    if (agent_overlay_set_scratch(config->scratch_type, config->scratch_size) != 0) {
        bus_error_set(err, BUS_STATUS_INVALID,
                      "agent.scratch_type %s is not memory or hostdir",
                      config->scratch_type);
        goto fail;
    }
    self->runc = agent_runc_new(config->runc, config->node.state_dir);
    if (!self->runc) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot set up runc state in %s",
                      config->node.state_dir);
        goto fail;
    }
    //  Every kernel's runner socket lives under the state directory, and a
    //  Unix socket's path is short (sun_path): refused here, once, rather
    //  than at every create.
    char *socket = agent_runc_kernel_path(
        self->runc, "00000000-0000-0000-0000-000000000000", "run/runner.sock");
    size_t socket_max = sizeof(((struct sockaddr_un *) 0)->sun_path) - 1;
    if (!socket || strlen(socket) > socket_max) {
        bus_error_set(err, BUS_STATUS_INVALID,
                      "node.state_dir %s is too long for the kernels' runner sockets (%s:"
                      " %zu bytes, at most %zu)",
                      config->node.state_dir, socket ? socket : "?",
                      socket ? strlen(socket) : 0, socket_max);
        zstr_free(&socket);
        goto fail;
    }
    zstr_free(&socket);
    self->containers = agent_containers_new(config, err);
    if (!self->containers)
        goto fail;
    agent_kernel_gpu_start(self);
    agent_kernel_recover(self);
    agent_kernel_gpu_adopted_all(self);
    //  From here on the containers context is the worker's.
    self->worker = agent_worker_new(bus_node_base(node), self->containers);
    if (!self->worker) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot start the kernel worker");
        goto fail;
    }
    if (agent_kernel_watch_start(self, err) != BUS_OK)
        goto fail;
    bus_log_notice("kernels ready count=%zu network=%s runner=%s",
                   zhashx_size(self->kernels), config->net_mode,
                   agent_containers_runner_path(self->containers));
    return self;
fail:
    agent_kernels_destroy(&self);
    return NULL;
}

//  ---------------------------------------------------------------------------
//  Free the manager; kernels keep running.

void
agent_kernels_destroy(agent_kernels_t **self_p)
{
    assert(self_p);
    agent_kernels_t *self = *self_p;
    if (!self)
        return;
    *self_p = NULL;
    agent_kernel_watch_stop(self);
    //  The job running ends (a create finishes, recorded: the next agent
    //  adopts it); the queued ones are cancelled, their requests dropped
    //  unanswered (agent_kernel_drop).
    agent_worker_destroy(&self->worker);
    //  The hook hears of every client going, as the kernels are freed below.
    for (agent_kernel_t *kernel = self->kernels ? zhashx_first(self->kernels) : NULL;
         kernel && self->runner_hook; kernel = zhashx_next(self->kernels))
        if (kernel->runner)
            self->runner_hook(kernel->id, NULL, self->runner_hook_arg);
    //  With no kernel left, nothing needs the bridge or the NAT table: a
    //  stopped agent leaves no rule behind (the next start makes both anew).
    //  Kernels that outlive the agent keep both until it re-adopts them.
    if (self->containers && self->kernels && zhashx_size(self->kernels) == 0)
        agent_containers_net_teardown(self->containers);
    zhashx_destroy(&self->kernels); //  runner clients answer their waiters
    zhashx_destroy(&self->ended);
    zlistx_destroy(&self->exits);
    agent_containers_destroy(&self->containers);
    agent_runc_destroy(&self->runc);
    agent_kernel_gpu_stop(self);
    free(self);
}

//  ---------------------------------------------------------------------------
//  How many kernels.

size_t
agent_kernels_count(agent_kernels_t *self)
{
    assert(self);
    return zhashx_size(self->kernels);
}

//  ---------------------------------------------------------------------------
//  The host path of a running kernel's home.

int
agent_kernels_home(agent_kernels_t *self,
                   const char *kernel_id,
                   char *path,
                   size_t size,
                   bus_error_t *err)
{
    assert(self);
    assert(kernel_id);
    assert(path);
    agent_kernel_t *kernel = zhashx_lookup(self->kernels, kernel_id);
    if (!kernel || kernel->state != AGENT_KERNEL_RUNNING || !kernel->runner)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel");
    char *rootfs = agent_runc_kernel_path(self->runc, kernel->id, "bundle/rootfs");
    if (!rootfs)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    int n = snprintf(path, size, "%s%s", rootfs, AGENT_KERNEL_HOME);
    zstr_free(&rootfs);
    if (n < 0 || (size_t) n >= size)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "kernel home path too long");
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  The runner client of a running kernel.

agent_runner_client_t *
agent_kernels_runner(agent_kernels_t *self, const char *kernel_id)
{
    assert(self);
    assert(kernel_id);
    agent_kernel_t *kernel = zhashx_lookup(self->kernels, kernel_id);
    return kernel && kernel->state == AGENT_KERNEL_RUNNING ? kernel->runner : NULL;
}

//  ---------------------------------------------------------------------------
//  Set the runner hook.

void
agent_kernels_set_runner_hook(agent_kernels_t *self,
                              agent_kernels_runner_fn *fn,
                              void *arg)
{
    assert(self);
    self->runner_hook = fn;
    self->runner_hook_arg = arg;
}
