/*  =========================================================================
    agent_kernel - one kernel of the agent, and the kernel manager's state

    Private to the kernel manager's files: agent_kernels.c (the registry,
    the end of a kernel), agent_kernel_create.c (kernel.create),
    agent_kernel_rpc.c (the other kernel.* methods; the agent's table of
    methods is in agent_server.c), agent_kernel_watch.c
    (the reap and stats timers), agent_kernel_recover.c (adoption after a
    restart) and agent_task.c (batch and bootstrap scripts).

    A kernel is a record in the manager's hash (id -> agent_kernel_t) from
    the moment its create is accepted until its end is recorded. Its state
    says which job of the worker (agent_worker) has it, if any: CREATING
    (the create job makes its container), RUNNING (none: its container and
    runc entry are on the loop), RESTARTING (the restart job runs it again)
    or ENDING (the release job gives it back). While a job has it,
    kernel->container is NULL (the job carries it) and requests about the
    kernel that must wait for the job are parked as waiters: a repeated
    create waits for the create, a destroy for whatever runs and then for
    the end, and each is answered once, when what it waits for is done.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_KERNEL_H_INCLUDED
#define AGENT_KERNEL_H_INCLUDED

#include "bus.h"
#include "agent_config.h"
#include "agent_images.h"
#include "agent_accel_driver.h"
#include "agent_accel_mps.h"
#include "agent_accel.h"
#include "agent_runc.h"
#include "agent_stats.h"
#include "agent_container.h"
#include "agent_worker.h"
#include "agent_runner_client.h"
#include "agent_kernels.h"

typedef enum {
    AGENT_KERNEL_CREATING,   //  the create job runs: no row, no runner yet
    AGENT_KERNEL_RUNNING,    //  recorded; no job has it
    AGENT_KERNEL_RESTARTING, //  the restart job runs; no runner
    AGENT_KERNEL_ENDING      //  the release job runs; no runner
} agent_kernel_state_t;

//  What a parked request asked for, which says how it is answered.
typedef enum {
    AGENT_KERNEL_WAIT_CREATE,
    AGENT_KERNEL_WAIT_DESTROY,
    AGENT_KERNEL_WAIT_RESTART
} agent_kernel_wait_t;

typedef struct _agent_kernel_t agent_kernel_t;

struct _agent_kernel_t {
    agent_kernels_t *owner;
    char *id;
    char *session_id;
    char *digest;
    char ip[AGENT_NET_IP_MAX];
    char hostname[AGENT_BUNDLE_HOSTNAME_MAX + 1]; //  empty when adopted
    agent_kernel_state_t state;
    bool recorded;                 //  its row and kernel.started are written
    agent_container_t *container;  //  what it holds on the host; NULL while a job has it
    int pid;                       //  PID 1 on the host
    bool adopted;                  //  taken back after a restart: not our child, polled
    char *run_id;                  //  the last run started, for interrupt
    bool task_oom;                 //  its batch task ended by an OOM kill
    agent_runner_client_t *runner; //  RUNNING only
    agent_model_t *model;          //  an inference kernel's model service, once started
    zlistx_t *waiters;             //  parked requests (see above)
    //  How it ends: set by agent_kernels_end, or by a destroy that came while
    //  a create or restart ran (requested: it ends once that is done).
    struct {
        bool requested;
        int grace_ms;
        char *reason;
        char *detail;  //  NULL: the release's first error, or ""
        int exit_code; //  AGENT_RUNC_EXIT_UNKNOWN: what runc saw
        bool oom_killed;
        //  The final counters, read before the release removes the cgroup:
        //  kernel.terminated carries them (accounting's totals).
        bool has_stats;
        agent_stats_t stats;
        //  The end of its container.log, read by the release once its
        //  processes were gone: kept in ended_logs by agent_kernels_finish.
        uint8_t *log;
        size_t log_size;
    } end;
};

//  The manager (agent_kernels_t of agent_kernels.h).
struct _agent_kernels_t {
    bus_node_t *node;
    const agent_config_t *config;
    agent_images_t *images;
    agent_accel_t *accel;           //  the agent's accelerators (borrowed)
    agent_runc_t *runc;             //  the loop's driver: reaping, OOM counts, paths
    agent_containers_t *containers; //  the host side: the worker's while it runs
    agent_worker_t *worker;         //  NULL until the recovery at start is done
    zhashx_t *kernels;              //  id -> agent_kernel_t, in every state
    zhashx_t *ended;                //  id -> exit code as text, of kernels ended lately
    zlistx_t *exits;                //  agent_runc_reap's findings, handled after it
    struct event *reap_timer;
    struct event *stats_timer;
    agent_kernels_runner_fn *runner_hook; //  told when runner clients come and go
    void *runner_hook_arg;
    agent_accel_driver_t *driver; //  the GPU driver's files; NULL without GPUs
    agent_accel_mps_t *mps;       //  MPS daemons; NULL without GPUs or MPS
    bool spare_queued;            //  a job preparing a kernel ahead is queued
};

//  ---------------------------------------------------------------------------
//  agent_kernel.c: the record

//  A record in state CREATING holding nothing. NULL when out of memory.
agent_kernel_t *agent_kernel_new(agent_kernels_t *owner,
                                 const char *id,
                                 const char *session_id,
                                 const char *digest);

//  Frees the record: its runner client and container record (giving
//  nothing back on the host), and the requests still parked, unanswered
//  (agent_kernel_drop). Safe on NULL.
void agent_kernel_destroy(agent_kernel_t **self_p);

//  Parks req (detached from the handler) until the kernel's job is done.
//  Returns BUS_STATUS_PENDING_ for the handler to return, or INTERNAL with
//  err (then nothing is parked).
int agent_kernel_wait(agent_kernel_t *self,
                      bus_rpc_request_t *req,
                      agent_kernel_wait_t kind,
                      bus_error_t *err);

//  Drops every parked request unanswered, for an agent that stops before
//  what they wait for is done: as requests still queued in its socket,
//  their callers' deadlines and the scheduler's reconciliation take over
//  (an UNAVAILABLE answer would cancel their sessions).
void agent_kernel_drop(agent_kernel_t *self);

//  Marks the parked requests of kind to be answered status and detail
//  whatever agent_kernel_answer says later (a create whose batch task could
//  not start: answered once the kernel it started has ended).
void agent_kernel_mark(agent_kernel_t *self,
                       agent_kernel_wait_t kind,
                       int status,
                       const char *detail);

//  Answers the parked requests of kind and forgets them: a marked one with
//  its mark, the others with status and detail; BUS_OK is the method's
//  reply from the record (create: its address; destroy: end.exit_code).
void agent_kernel_answer(agent_kernel_t *self,
                         agent_kernel_wait_t kind,
                         int status,
                         const char *detail);

//  Sets how the kernel is to end (strings copied; NULL detail: none).
void agent_kernel_set_end(agent_kernel_t *self,
                          int grace_ms,
                          const char *reason,
                          const char *detail,
                          int exit_code,
                          bool oom_killed);

//  ---------------------------------------------------------------------------
//  agent_kernels.c: the registry and the end of a kernel

//  Ends a RUNNING kernel: drops its runner client, then the worker gives
//  back what it holds on the host (agent_containers_release) and the loop
//  the rest (agent_kernels_finish). kernel.terminated says reason, detail
//  (NULL: the release's error, if any) and exit_code (AGENT_RUNC_EXIT_UNKNOWN:
//  what runc saw). kernel stays in the hash, ENDING, until then.
void agent_kernels_end(agent_kernels_t *self,
                       agent_kernel_t *kernel,
                       int grace_ms,
                       const char *reason,
                       const char *detail,
                       int exit_code,
                       bool oom_killed);

//  The loop's half of giving a kernel back, after the worker's: its
//  accelerators; its row deleted and kernel.terminated emitted in one
//  transaction (a recorded kernel), its id remembered as ended; its parked
//  requests answered (why: the failure that ended a create or restart, or
//  NULL); then the record is freed. seen is the exit runc saw.
void agent_kernels_finish(agent_kernels_t *self,
                          agent_kernel_t *kernel,
                          int seen,
                          const bus_error_t *why);

//  A created or restarted kernel runs (RUNNING, its runner client made):
//  its batch task starts (startup_command, NULL: none; when it cannot, the
//  kernel ends failed-to-start and the requests of kind are answered the
//  error once it has), else they are answered; then a destroy that came
//  meanwhile ends it.
void agent_kernels_started(agent_kernels_t *self,
                           agent_kernel_t *kernel,
                           const char *startup_command,
                           agent_kernel_wait_t kind);

//  Takes the kernel's container record, with its runc entry out of the
//  loop's driver, for a job (kernel->container is NULL until given back).
agent_container_t *agent_kernels_lend(agent_kernels_t *self, agent_kernel_t *kernel);

//  Gives a container record back to its kernel, its runc entry to the
//  loop's driver.
void agent_kernels_give_back(agent_kernels_t *self,
                             agent_kernel_t *kernel,
                             agent_container_t **container_p);

//  Makes the kernel's runner client on socket and tells the runner hook.
//  BUS_OK, or an error with err.
int agent_kernels_runner_start(agent_kernels_t *self,
                               agent_kernel_t *kernel,
                               const char *socket,
                               bus_error_t *err);

//  Destroys the kernel's runner client, telling the runner hook first.
void agent_kernels_runner_drop(agent_kernels_t *self, agent_kernel_t *kernel);

//  Refuses a request meant for another agent (agent_id not ours):
//  UNAVAILABLE, "its address changed hands". BUS_OK otherwise.
int agent_kernels_check_addressee(agent_kernels_t *self,
                                  const char *agent_id,
                                  bus_error_t *err);

//  Submits job to the worker, or, when that fails, calls done(job, false)
//  at once, so that the caller's clean-up runs either way.
void agent_kernels_submit(agent_kernels_t *self,
                          agent_worker_run_fn *run,
                          agent_worker_done_fn *done,
                          void *job);

//  Queues a job that prepares kernels ahead (agent.spares: a kernel dir and,
//  in bridge mode, a network),
//  one per job and the next once it made one, unless one is queued: after a
//  create, so that it never stands before a job that came first.
void agent_kernels_make_spares(agent_kernels_t *self);

//  ---------------------------------------------------------------------------
//  The other files

//  The kernel.* handlers (typed, proto_serve.h), for the agent's table of
//  methods (agent_server.c); arg is the manager. kernel.create's
//  (agent_kernel_create.c), kernel.start_service's (agent_kernel_service.c),
//  then the others (agent_kernel_rpc.c).
proto_kernel_create_fn agent_kernel_create_on_create;
proto_kernel_start_service_fn agent_kernel_service_on_start;
proto_kernel_destroy_fn agent_kernel_rpc_on_destroy;
proto_kernel_restart_fn agent_kernel_rpc_on_restart;
proto_kernel_hosts_fn agent_kernel_rpc_on_hosts;
proto_kernel_execute_fn agent_kernel_rpc_on_execute;
proto_kernel_interrupt_fn agent_kernel_rpc_on_interrupt;
proto_kernel_logs_fn agent_kernel_rpc_on_logs;
proto_kernel_list_fn agent_kernel_rpc_on_list;

//  Starts the reap and stats timers (agent_kernel_watch.c). BUS_OK or err.
int agent_kernel_watch_start(agent_kernels_t *self, bus_error_t *err);

//  Stops them.
void agent_kernel_watch_stop(agent_kernels_t *self);

//  ---------------------------------------------------------------------------
//  agent_kernel_gpu.c: the driver's files and MPS for kernels holding GPUs

#define AGENT_KERNEL_GPU_SHM_ROOT "/dev/shm" //  where MPS daemons' /dev/shm dirs go
#define AGENT_KERNEL_GPU_MPS_ROOT "/run/backplane/mps" //  their pipe, log and pid dirs

//  Finds the driver and makes the MPS supervisor when the cuda plugin
//  offers GPUs (before the recovery, which adopts daemons).
void agent_kernel_gpu_start(agent_kernels_t *self);

//  Frees both; MPS daemons keep running for the kernels that outlive us.
void agent_kernel_gpu_stop(agent_kernels_t *self);

//  For a kernel holding alloc: binds into spec and variables appended to
//  *env_p (NULL-terminated, reallocated) when it holds cuda slots, and its
//  GPU's MPS daemon held. *mps_start: the daemon's start when it is not
//  running yet (agent_accel_mps_acquire), for the create job to run before
//  the container and give back; NULL when none. BUS_OK or err (nothing
//  held then).
int agent_kernel_gpu_setup(agent_kernels_t *self,
                           const char *kernel_id,
                           const agent_accel_alloc_t *alloc,
                           const proto_kernel_create_req_t *in,
                           agent_spec_t *spec,
                           char ***env_p,
                           agent_accel_mps_start_t **mps_start,
                           bus_error_t *err);

//  The kernel ended: its MPS daemon stops after its last holder.
void agent_kernel_gpu_release(agent_kernels_t *self, const char *kernel_id);

//  An adopted kernel's daemon again (its allocation restored already).
void agent_kernel_gpu_adopt(agent_kernels_t *self, const char *kernel_id);

//  After every kernel was adopted: daemons nobody holds stop.
void agent_kernel_gpu_adopted_all(agent_kernels_t *self);

//  The reap timer's step: daemons restarted or killed (agent_accel_mps).
void agent_kernel_gpu_supervise(agent_kernels_t *self);

//  Adopts the kernels of the agent's table that runc still runs, ends the
//  others (lost-on-restart) and removes what a crash left
//  (agent_kernel_recover.c). Runs at start, before the worker: it uses the
//  containers context itself.
void agent_kernel_recover(agent_kernels_t *self);

#endif
