/*  =========================================================================
    agent_accel_mps - one NVIDIA MPS control daemon per GPU held in shares

    A kernel holding a fraction of a GPU (cuda.shares) gets MPS limits in
    its environment (agent_accel_environ), but CUDA honours them only in an
    MPS client, that is, a process that finds a running MPS control daemon
    through CUDA_MPS_PIPE_DIRECTORY. So the agent runs one daemon per GPU
    that fractions are held on, started with the first holder and stopped
    after the last, and gives each holder's container:

    - the daemon's pipe directory at AGENT_ACCEL_MPS_PIPE_KERNEL, and
      CUDA_MPS_PIPE_DIRECTORY naming it;
    - the daemon's /dev/shm: MPS clients and their server share memory
      through files in /dev/shm, so the daemon runs in a mount namespace
      of its own whose /dev/shm is a directory of the host's
      (<shm_root>/backplane-mps-<tag>-<index>), and the holders' containers
      get that directory as their /dev/shm instead of a private tmpfs (as
      NVIDIA's Kubernetes device plugin does). Holders of one GPU see each
      other's /dev/shm: the price of sharing a GPU.

    The daemon is nvidia-cuda-mps-control -f (in the foreground, so it is
    the agent's child, in a session of its own with its MPS server),
    CUDA_VISIBLE_DEVICES its GPU's UUID, its pipe and log directories
    <state_dir>/<index>/{pipe,log} owned by the kernels' user (uid 1000, as
    whom the control daemon starts the MPS server, which makes its sockets
    and log there; state_dir must be passable by that user), umask 0 so
    that user reaches the sockets the root daemon makes. Its pid is kept in
    <state_dir>/<index>/pid: daemons outlive an agent restart as kernels
    do (their clients keep running), and the restarted agent adopts the
    daemon of each GPU an adopted kernel holds (agent_accel_mps_acquire
    finds it alive) and stops those nobody holds any more
    (agent_accel_mps_sweep). agent_accel_mps_supervise, on a timer, starts
    again a daemon that died while holders remain and kills one that did not
    quit in AGENT_ACCEL_MPS_STOP_MS.

    Starting a daemon waits (up to 3 s) for its control socket, and for a
    quitting one it replaces to be gone: that waiting is not the agent's
    loop's to do. So acquire and supervise only decide, and hand back a
    start (agent_accel_mps_start_t) holding all it needs, which the caller
    runs off the loop (the agent's worker, before the holder's container
    starts: agent_accel_mps_start_run) and gives back on the loop
    (agent_accel_mps_start_done), when the daemon becomes the GPU's.
    Starts run in the order they were made (the worker runs one job at a
    time, in order): a holder that came while its GPU's daemon was starting
    gets a start that only waits for that one's socket.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_ACCEL_MPS_H_INCLUDED
#define AGENT_ACCEL_MPS_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bus.h"

#define AGENT_ACCEL_MPS_PIPE_KERNEL "/tmp/nvidia-mps" //  in the container
#define AGENT_ACCEL_MPS_STOP_MS     5000              //  a quit's grace before SIGKILL
#define AGENT_ACCEL_MPS_GPUS_MAX    64

typedef struct _agent_accel_mps_t agent_accel_mps_t;

//  What a holder's container is given: host directories to bind read-write.
typedef struct {
    char pipe_dir[512]; //  at AGENT_ACCEL_MPS_PIPE_KERNEL
    char shm_dir[512];  //  at /dev/shm
} agent_accel_mps_binds_t;

//  The daemons of one agent. control: the host path of
//  nvidia-cuda-mps-control (NULL: no MPS here; acquire then says so).
//  state_dir: where pipe, log and pid directories go (created). shm_root:
//  the host tmpfs the /dev/shm directories are made in ("/dev/shm"); tag
//  names this agent in them. Adopts nothing yet: pid files are read by
//  acquire and sweep. NULL when out of memory. Caller owns return value.
agent_accel_mps_t *agent_accel_mps_new(const char *control,
                                       const char *state_dir,
                                       const char *shm_root,
                                       const char *tag);

//  Frees the supervisor. Its daemons keep running for the kernels that
//  outlive the agent (see above); agent_accel_mps_stop_all stops them.
void agent_accel_mps_destroy(agent_accel_mps_t **self_p);

typedef struct _agent_accel_mps_start_t agent_accel_mps_start_t;

//  kernel_id holds a fraction of GPU index (uuid), and out gets the
//  directories to bind. Its daemon runs already (or was adopted from an
//  earlier agent): *start NULL. Else *start is the start the holder's
//  container must wait for: run it off the loop before the container
//  starts, then give it back (even unrun) with agent_accel_mps_start_done.
//  BUS_OK; BUS_STATUS_UNAVAILABLE when there is no MPS here, INTERNAL when
//  out of memory (err says why; nothing held then). Acquiring twice for
//  one kernel and GPU counts once.
int agent_accel_mps_acquire(agent_accel_mps_t *self,
                            const char *kernel_id,
                            uint32_t index,
                            const char *uuid,
                            agent_accel_mps_binds_t *out,
                            agent_accel_mps_start_t **start,
                            bus_error_t *err);

//  Off the loop, on any one thread: starts the daemon (a quitting one it
//  replaces seen gone first) and waits for its control socket, or, for a
//  holder that came while it was starting, waits for that socket. Touches
//  only start. BUS_OK, or BUS_STATUS_UNAVAILABLE when the daemon exited at
//  start or made no socket in 3 s (killed then), err saying why and where
//  its log is.
int agent_accel_mps_start_run(agent_accel_mps_start_t *start, bus_error_t *err);

//  On the loop: the daemon start's run started becomes its GPU's (none when
//  it failed or never ran: the supervisor's next step deals with the GPU),
//  and start is freed. Nothing for NULL.
void agent_accel_mps_start_done(agent_accel_mps_start_t **start_p);

//  kernel_id holds nothing any more: the daemons it was the last holder of
//  are told to quit. Safe for any kernel, any number of times.
void agent_accel_mps_release(agent_accel_mps_t *self, const char *kernel_id);

//  After the agent adopted its kernels: daemons left by an earlier agent
//  (pid files) on GPUs nobody holds now are told to quit.
void agent_accel_mps_sweep(agent_accel_mps_t *self);

//  The timer's step: a quitting daemon that outlived its grace is killed
//  with its session, and one that died with holders is to start again: the
//  start returned (one a step; NULL when none), for the caller to run off
//  the loop and give back as acquire's.
agent_accel_mps_start_t *agent_accel_mps_supervise(agent_accel_mps_t *self);

//  Stops every daemon now (quit, then SIGKILL after the grace), waiting.
void agent_accel_mps_stop_all(agent_accel_mps_t *self);

//  The pid of GPU index's daemon, 0 when none runs.
int agent_accel_mps_pid(const agent_accel_mps_t *self, uint32_t index);

#endif
