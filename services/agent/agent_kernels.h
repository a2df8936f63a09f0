/*  =========================================================================
    agent_kernels - the agent's kernel manager: the kernel.* service

    Serves the methods of proto/kernel.yaml on the agent's bus node and
    turns them into the building blocks: the image store and unpack cache
    (rootfs, held shared while a kernel runs), the network (a namespace and
    an address per kernel in bridge mode), the runc driver (bundle, overlay,
    runc run -d, reap, remove, adopt) and one runner client per kernel
    (query, batch, input, interrupt, collect). Each kernel is a row of the
    agent's own database (agent_db), written in the same transaction as its
    durable kernel.started, and deleted with its kernel.terminated, so a
    restarted agent adopts the kernels that still run and reports the ones
    that died meanwhile (lost-on-restart).

    Creating, restarting and ending a kernel's container run off the loop,
    on the manager's worker thread (agent_worker, agent_container): the
    loop takes the request, checks it and takes the kernel's accelerators,
    the worker unpacks, attaches, writes the bundle, runs runc and waits
    for the runner (an inotify event, not a poll), and the loop records the
    kernel and answers. Meanwhile the loop answers everything else
    (heartbeats, executes, lists, other creates, which queue). Requests
    about a kernel whose job runs wait for it (agent_kernel.h): a repeated
    create for the create, a destroy for the create or restart and then for
    the end; each request is answered once.

    A timer reaps kernels that exit by themselves (self-terminated, or
    oom-killed) and ends them; another publishes kernel.stats of every
    running kernel (agent_kernel_watch). A batch session's startup command
    runs as a batch run; its end ends the kernel (agent_task). A run ended
    by SIGKILL is told apart from an OOM kill by the cgroup's count, which
    is then accounted to the run, so a kernel that exits later by itself is
    not blamed on it. kernel.interrupt sends SIGINT, or with force SIGKILL
    to the run's whole process group. kernel.restart stops a kernel's
    container and runs it again from the same bundle: its files (the
    overlay), address and record stay, its processes do not, and no durable
    event says so unless it cannot run again (then it ends,
    failed-to-start). A destroyed kernel's exit code is remembered in
    memory, so a repeated destroy answers it and a create of that id again
    is refused (CONFLICT: a batch task must not run twice); an id never
    seen is NOT_FOUND. In bridge mode the network is set up on the first
    create, so an agent that runs no kernel leaves the host's network alone.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_KERNELS_H_INCLUDED
#define AGENT_KERNELS_H_INCLUDED

#include "bus.h"
#include "agent_config.h"
#include "agent_images.h"
#include "agent_accel.h"
#include "agent_runner_client.h"

//  How often exited kernels are looked for.
#define AGENT_KERNELS_REAP_MS 200
//  Ended kernels remembered, so a repeated destroy answers their exit code and
//  a repeated create is refused.
#define AGENT_KERNELS_ENDED_MAX 1024
//  The longest grace period a destroy or restart may ask for.
#define AGENT_KERNELS_GRACE_MAX_MS 600000
//  The most of a log kernel.logs answers (the schema's max of its reply).
#define AGENT_KERNELS_LOGS_MAX 16777216

typedef struct _agent_kernels_t agent_kernels_t;

//  Told about a kernel's runner client: runner is the new client just after
//  one was made (create, restart; adopted kernels are made before any hook can
//  be set), or NULL just before the kernel's client is destroyed (end,
//  restart, the manager's destroy), while the old one still works.
typedef void(agent_kernels_runner_fn)(const char *kernel_id,
                                      agent_runner_client_t *runner,
                                      void *arg);

//  ---------------------------------------------------------------------------
//  Creates the manager on node: the runc driver and (bridge mode) the
//  network over config's state dir, the kernel.* handlers, the timers; then
//  adopts the kernels of the agent's table that runc still runs (taking
//  their accelerators again from accel) and reports the others as
//  terminated (lost-on-restart). config, images and accel are borrowed and
//  must outlive it. Returns NULL with err filled.
agent_kernels_t *agent_kernels_new(bus_node_t *node,
                                   const agent_config_t *config,
                                   agent_images_t *images,
                                   agent_accel_t *accel,
                                   bus_error_t *err);

//  Frees the manager. Kernels keep running (a new agent adopts them); a
//  create, restart or end the worker runs is waited for, those queued are
//  cancelled and their requests left unanswered (as requests still queued
//  in the socket); calls waiting for a run's output are answered
//  UNAVAILABLE.
void agent_kernels_destroy(agent_kernels_t **self_p);

//  How many kernels the manager has now.
size_t agent_kernels_count(agent_kernels_t *self);

//  The host path of a running kernel's home (/home/work in its container):
//  the home directory inside its overlay root, which the agent has mounted
//  at <state_dir>/kernels/<kernel_id>/bundle/rootfs. Written into path (size
//  bytes). Returns BUS_OK, or BUS_STATUS_NOT_FOUND with err when the kernel
//  is unknown or not running, BUS_STATUS_INTERNAL when path is too small.
int agent_kernels_home(agent_kernels_t *self,
                       const char *kernel_id,
                       char *path,
                       size_t size,
                       bus_error_t *err);

//  The runner client of a running kernel, or NULL when the kernel is unknown,
//  ending or restarting. Borrowed: valid until the runner hook reports it
//  gone (runner NULL).
agent_runner_client_t *agent_kernels_runner(agent_kernels_t *self, const char *kernel_id);

//  Sets the one runner hook (fn NULL: none), so a module that installs its
//  own handlers on runner clients (the terminal's) learns when a client comes
//  and goes. Whoever sets it must unset it before arg goes away.
void agent_kernels_set_runner_hook(agent_kernels_t *self,
                                   agent_kernels_runner_fn *fn,
                                   void *arg);

#endif
