/*  =========================================================================
    agent_task - the scripts a kernel runs at its start

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

//  ---------------------------------------------------------------------------
//  A batch session's task

typedef struct {
    agent_kernels_t *self;
    char *kernel_id;
} s_task_t;

static void s_on_task(json_t *result, const bus_error_t *err, void *arg);

static void
s_task_collect(s_task_t *task, agent_kernel_t *kernel)
{
    agent_runner_client_collect(kernel->runner, AGENT_TASK_RUN_ID, AGENT_TASK_WAIT_MS,
                                s_on_task, task);
}

static void
s_on_task(json_t *result, const bus_error_t *err, void *arg)
{
    s_task_t *task = arg;
    agent_kernels_t *self = task->self;
    agent_kernel_t *kernel = zhashx_lookup(self->kernels, task->kernel_id);
    bool running = kernel && kernel->state == AGENT_KERNEL_RUNNING;
    const char *status = json_string_value(json_object_get(result, "status"));
    if (running && result && status && strcmp(status, "finished") != 0) {
        s_task_collect(task, kernel); //  continued or waiting: keep waiting
        return;
    }
    if (running && result) {
        int code = (int) json_integer_value(json_object_get(result, "exitCode"));
        //  Killed by the OOM killer (the run-finished callback asked the cgroup).
        bool oom = code == 128 + SIGKILL && kernel->task_oom;
        agent_kernels_end(self, kernel, 0,
                          oom         ? "oom-killed"
                          : code == 0 ? "task-finished"
                                      : "task-failed",
                          NULL, code, oom);
    } else if (!result && running)
        //  The runner went away: the reap timer sees the container's end.
        bus_log_warning("batch task lost kernel=%s detail=\"%s\"", task->kernel_id,
                        err->detail);
    free(task->kernel_id);
    free(task);
}

int
agent_task_start(agent_kernels_t *self,
                 agent_kernel_t *kernel,
                 const char *command,
                 bus_error_t *err)
{
    assert(self && kernel && command);
    if (!kernel->runner)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "kernel %s has no runner",
                             kernel->id);
    s_task_t *task = calloc(1, sizeof *task);
    if (!task || !(task->kernel_id = strdup(kernel->id))) {
        free(task);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    task->self = self;
    if (agent_runner_client_batch(kernel->runner, AGENT_TASK_RUN_ID, NULL, NULL, command,
                                  err) != 0) {
        free(task->kernel_id);
        free(task);
        return err->status;
    }
    free(kernel->run_id);
    kernel->run_id = strdup(AGENT_TASK_RUN_ID);
    kernel->task_oom = false;
    s_task_collect(task, kernel);
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  The bootstrap script

typedef struct {
    bool done;    //  finished, or the runner went away
    bool pending; //  a collect is waiting for its answer
    int exit_code;
    char detail[256];
} s_bootstrap_t;

static void
s_on_bootstrap(json_t *result, const bus_error_t *err, void *arg)
{
    s_bootstrap_t *boot = arg;
    boot->pending = false;
    const char *status = json_string_value(json_object_get(result, "status"));
    if (!result) {
        snprintf(boot->detail, sizeof boot->detail, "%s", err ? err->detail : "");
        boot->done = true;
    } else if (status && strcmp(status, "finished") == 0) {
        boot->exit_code = (int) json_integer_value(json_object_get(result, "exitCode"));
        boot->done = true;
    }
}

//  Runs the private base until boot is done or deadline_ms (monotonic).
static void
s_bootstrap_wait(struct event_base *base,
                 agent_runner_client_t *runner,
                 s_bootstrap_t *boot,
                 int64_t deadline_ms)
{
    while (!boot->done) {
        int64_t left = deadline_ms - bus_clock_mono_ms();
        if (left <= 0 && !boot->pending)
            return;
        if (!boot->pending) {
            boot->pending = true;
            agent_runner_client_collect(runner, AGENT_TASK_BOOTSTRAP_RUN_ID, (int) left,
                                        s_on_bootstrap, boot);
        }
        if (boot->pending && !boot->done)
            event_base_loop(base, EVLOOP_ONCE);
    }
}

void
agent_task_bootstrap(agent_runc_t *runc,
                     const char *kernel_id,
                     const char *socket,
                     const char *script)
{
    assert(runc && kernel_id && socket && script);
    bus_error_t err = {0};
    s_bootstrap_t boot = {.exit_code = -1};
    char home[PATH_MAX];
    char *rootfs = agent_runc_kernel_path(runc, kernel_id, "bundle/rootfs");
    int n = rootfs ? snprintf(home, sizeof home, "%s%s", rootfs, AGENT_KERNEL_HOME) : -1;
    zstr_free(&rootfs);
    struct event_base *base = NULL;
    agent_runner_client_t *runner = NULL;
    bool written =
        n >= 0 && (size_t) n < sizeof home &&
        agent_files_write(home, AGENT_TASK_BOOTSTRAP_FILE, script, strlen(script),
                          AGENT_KERNEL_UID, AGENT_KERNEL_GID, &err) == 0;
    if (written && !(base = event_base_new()))
        bus_error_set(&err, BUS_STATUS_INTERNAL, "cannot make an event base");
    if (base && (runner = agent_runner_client_new(base, socket, &err)) != NULL &&
        agent_runner_client_batch(
            runner, AGENT_TASK_BOOTSTRAP_RUN_ID, NULL, NULL,
            "/bin/sh " AGENT_KERNEL_HOME "/" AGENT_TASK_BOOTSTRAP_FILE, &err) == 0) {
        s_bootstrap_wait(base, runner, &boot,
                         bus_clock_mono_ms() + AGENT_TASK_BOOTSTRAP_WAIT_MS);
        if (!boot.done) {
            //  Too long: kill it, so that the runner is free for the kernel.
            snprintf(boot.detail, sizeof boot.detail, "ran over %d s, killed",
                     AGENT_TASK_BOOTSTRAP_WAIT_MS / 1000);
            if (agent_runner_client_kill(runner, AGENT_TASK_BOOTSTRAP_RUN_ID, &err) == 0)
                s_bootstrap_wait(base, runner, &boot,
                                 bus_clock_mono_ms() + AGENT_TASK_BOOTSTRAP_KILL_MS);
        }
    }
    if (!written && err.status == BUS_OK)
        bus_error_set(&err, BUS_STATUS_INTERNAL, "kernel home path too long");
    if (!*boot.detail && err.status != BUS_OK)
        snprintf(boot.detail, sizeof boot.detail, "%s", err.detail);
    if (boot.exit_code == 0 && !*boot.detail)
        bus_log_info("bootstrap script done kernel=%s exit_code=0", kernel_id);
    else
        bus_log_warning("bootstrap script failed kernel=%s exit_code=%d detail=\"%s\"",
                        kernel_id, boot.exit_code, boot.detail);
    agent_runner_client_destroy(&runner); //  a pending collect answers now
    if (base)
        event_base_free(base);
}
