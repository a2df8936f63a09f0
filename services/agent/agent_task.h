/*  =========================================================================
    agent_task - the scripts a kernel runs at its start

    A batch session's startup command runs as a batch run (AGENT_TASK_RUN_ID)
    once the kernel runs, on the loop; its end ends the kernel
    (task-finished, or task-failed with a non-zero exit, or oom-killed when
    the OOM killer took it: the runner client's run-finished callback asks
    the cgroup and sets kernel->task_oom).

    kernel.create's bootstrap_script is written to the kernel's home as
    .bootstrap.sh and run once as a batch run (as the user, in /home/work)
    after the runner answers and before the kernel counts as started. It
    runs on the worker's thread, as part of the create job, with a private
    event base and runner connection, at most AGENT_TASK_BOOTSTRAP_WAIT_MS.
    A script that fails or runs too long does not stop the kernel: the
    agent's log has its exit code, as Backend.AI's entrypoint logs it.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_TASK_H_INCLUDED
#define AGENT_TASK_H_INCLUDED

#include "bus.h"
#include "agent_runc.h"
#include "agent_kernel.h"

//  The batch task's run id.
#define AGENT_TASK_RUN_ID "batch-task"
//  How long one collect of the task's result waits (then again).
#define AGENT_TASK_WAIT_MS 60000
//  The bootstrap script: its run id, file, how long it may run, and how long
//  its kill may take.
#define AGENT_TASK_BOOTSTRAP_RUN_ID  "bootstrap"
#define AGENT_TASK_BOOTSTRAP_FILE    ".bootstrap.sh"
#define AGENT_TASK_BOOTSTRAP_WAIT_MS 60000
#define AGENT_TASK_BOOTSTRAP_KILL_MS 2000

//  Starts a RUNNING kernel's startup command as its task (on the loop).
//  BUS_OK, or an error with err (the task did not start).
int agent_task_start(agent_kernels_t *self,
                     agent_kernel_t *kernel,
                     const char *command,
                     bus_error_t *err);

//  Runs script in kernel_id's container through the runner on socket and
//  waits for it (on the worker's thread; runc gives the kernel's paths).
//  The outcome is logged.
void agent_task_bootstrap(agent_runc_t *runc,
                          const char *kernel_id,
                          const char *socket,
                          const char *script);

#endif
