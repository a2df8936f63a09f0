/*  =========================================================================
    agent_runc - the agent's container driver: kernels as runc containers

    One driver object owns a state dir. Each kernel lives in
    <state_dir>/kernels/<kernel_id>/ (bundle/ with config.json and the overlay
    rootfs mount point, upper/, work/, run/ and log/ on small tmpfs mounts of
    their own, container.log, pid; see agent_overlay), and runc keeps its own
    state under <state_dir>/runc (runc --root), so our containers never mix
    with anyone else's.

    A kernel starts with `runc run -d`: runc returns once the kernel's process
    runs, and that process (the container's PID 1) is re-parented to the agent,
    which makes itself a child subreaper when the driver is created. The agent
    then learns each exit with waitpid, through agent_runc_reap, called from
    its SIGCHLD handling or periodic tick: on the pids of its kernels only,
    never waitpid(-1), so that the runc, umoci or ip another thread runs
    keeps its exit status for that thread (agent_runc_reap_all takes every
    exited child, orphans too, when no other thread runs any). agent_runc_stop and
    agent_runc_start restart a kernel in place (its files stay). Containers
    outlive the driver object and the agent: after an agent restart,
    agent_runc_list tells which still exist and agent_runc_adopt takes them
    back (their exit codes are then unknown).

    A driver is not thread-safe; one thread owns it. A process may hold
    several over one state dir, one per thread (the agent: its loop's, which
    reaps, and its worker's, which starts and removes containers): a
    kernel's entry (its pid, exit and OOM baseline) is in one of them at a
    time and moves to the thread that works on the kernel with
    agent_runc_detach and agent_runc_attach.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_RUNC_H_INCLUDED
#define AGENT_RUNC_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include "bus.h"
#include "agent_bundle.h"

#define AGENT_RUNC_DEFAULT_PATH "runc"
//  After SIGKILL, how long agent_runc_remove waits for the process to go.
#define AGENT_RUNC_KILL_WAIT_MS 5000
//  Poll interval while waiting for a kernel to exit.
#define AGENT_RUNC_POLL_MS 10
//  The most of a failing runc's output kept in an error detail.
#define AGENT_RUNC_ERROR_TAIL 200
//  An exit code that is not known (an adopted kernel's, for one).
#define AGENT_RUNC_EXIT_UNKNOWN -1

typedef struct _agent_runc_t agent_runc_t;

//  The most kernel dirs made ahead (agent_runc_spares_set).
#define AGENT_RUNC_SPARES_MAX 16
//  What a driver knows of one kernel's container (see agent_runc_detach).
typedef struct _agent_runc_entry_t agent_runc_entry_t;

//  One container of ours as runc lists it.
typedef struct {
    char id[AGENT_BUNDLE_KERNEL_ID_MAX + 1];
    int pid;         //  its PID 1 on the host; 0 when stopped
    char status[16]; //  "created", "running", "paused" or "stopped"
} agent_runc_state_t;

//  Called by agent_runc_reap for each child that exited. kernel_id is NULL for a
//  child that was no kernel's (an orphan re-parented to the subreaper).
//  exit_code is the exit status, or 128 + the signal that killed it.
//  oom_killed is true when the exit was by SIGKILL (137) and the kernel's
//  memory cgroup counted an OOM kill that no run's end explained (see
//  agent_runc_oom_take).
typedef void(agent_runc_exit_fn)(
    const char *kernel_id, int pid, int exit_code, bool oom_killed, void *arg);

//  ---------------------------------------------------------------------------
//  Create a driver for runc_path (NULL: AGENT_RUNC_DEFAULT_PATH, looked up in
//  PATH) over state_dir, which is created when missing. Makes the process a
//  child subreaper. Returns NULL when the dirs cannot be made.
agent_runc_t *agent_runc_new(const char *runc_path, const char *state_dir);

//  Free the driver. Its containers keep running; a new driver may adopt them.
void agent_runc_destroy(agent_runc_t **self_p);

//  ---------------------------------------------------------------------------
//  Keep up to count (at most AGENT_RUNC_SPARES_MAX) kernel dirs made ahead,
//  with everything mounted that does not depend on the image, for creates
//  to take (0, the default: none; fewer drops the extra ones). The first call
//  also removes the spare dirs an agent that crashed left. They are made by
//  agent_runc_spare_make, one per call, and removed by agent_runc_destroy.
void agent_runc_spares_set(agent_runc_t *self, size_t count);

//  Make one spare dir when fewer than wanted are ready: 1 when it made one,
//  0 when none was wanted, -1 with err filled (nothing is left).
int agent_runc_spare_make(agent_runc_t *self, bus_error_t *err);

//  How many spare dirs are ready.
size_t agent_runc_spare_count(agent_runc_t *self);

//  ---------------------------------------------------------------------------
//  Start the kernel spec describes: make its dirs, mount its run/ and log/
//  tmpfs and its overlay, write the bundle and `runc run -d` it, its stdout
//  and stderr going to container.log.
//  Returns 0 once the kernel's process runs (it may already have exited; see
//  agent_runc_reap), or a bus_status_t with err filled: INVALID for a bad
//  spec, CONFLICT when the kernel id is taken, INTERNAL when something failed
//  (the detail then holds the end of runc's output); nothing is left behind.
int
agent_runc_create(agent_runc_t *self, const agent_kernel_spec_t *spec, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  The host pid of a kernel's PID 1, or -1 when the kernel is unknown or has
//  exited.
int agent_runc_pid(agent_runc_t *self, const char *kernel_id);

//  ---------------------------------------------------------------------------
//  Reap this driver's kernels that exited, without blocking (waitpid on
//  each one's pid, WNOHANG), and call fn for each (fn may be NULL). A reaped
//  kernel stays known, as exited, until agent_runc_remove (fn must not
//  change the driver: its kernel_id is borrowed). Children that other
//  threads wait for are left alone. Returns the number of kernels that
//  exited.
int agent_runc_reap(agent_runc_t *self, agent_runc_exit_fn *fn, void *arg);

//  agent_runc_reap, then every other exited child of the process
//  (waitpid(-1, WNOHANG)): orphans re-parented to the subreaper, passed to
//  fn with kernel_id NULL. Call it only while no other thread runs a child
//  or holds an entry of a kernel (the agent: while its worker is idle), or
//  their exits are taken from them. Returns the number of kernels that
//  exited.
int agent_runc_reap_all(agent_runc_t *self, agent_runc_exit_fn *fn, void *arg);

//  ---------------------------------------------------------------------------
//  Send signal to a kernel's PID 1 (runc kill). Returns 0, or NOT_FOUND,
//  CONFLICT (not running) or INTERNAL with err filled.
int
agent_runc_kill(agent_runc_t *self, const char *kernel_id, int signal, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Stop and remove a kernel: SIGTERM, up to grace_ms for it to exit, SIGKILL to
//  all its processes, `runc delete --force`, unmount its overlay, remove its
//  dir and any cgroup dirs runc left. Works for a kernel this driver does not
//  know as long as its dir or runc state exists. The exit, when this call
//  sees it, is not passed to agent_runc_reap's callback but stored in
//  *exit_code_p (may be NULL; AGENT_RUNC_EXIT_UNKNOWN when unseen).
//  Returns 0, NOT_FOUND when there was nothing to remove, or INTERNAL.
int agent_runc_remove(agent_runc_t *self,
                      const char *kernel_id,
                      int grace_ms,
                      int *exit_code_p,
                      bus_error_t *err);

//  ---------------------------------------------------------------------------
//  agent_runc_remove that first keeps the end of the kernel's container.log
//  (at most log_max bytes), read once its processes are gone (so the last
//  words of a TERM handler are in it) and before its dir goes: *log_p a
//  fresh allocation the caller frees (NULL, size 0, when there was none).
int agent_runc_remove_keeping_log(agent_runc_t *self,
                                  const char *kernel_id,
                                  int grace_ms,
                                  int *exit_code_p,
                                  size_t log_max,
                                  uint8_t **log_p,
                                  size_t *log_size_p,
                                  bus_error_t *err);

//  ---------------------------------------------------------------------------
//  The end of a kernel's container.log (at most max bytes) in a fresh
//  allocation of *size_p + 1 bytes the caller frees; NULL when it has none.
uint8_t *agent_runc_log_tail(agent_runc_t *self,
                             const char *kernel_id,
                             size_t max,
                             size_t *size_p);

//  ---------------------------------------------------------------------------
//  Stop a kernel but keep what it has, for agent_runc_start: SIGTERM, up to
//  grace_ms for it to exit, SIGKILL to all its processes, `runc delete
//  --force`. Its dir, overlay (the user's files) and network namespace
//  stay, and the driver keeps it as exited: this exit, an intended one, is
//  never passed to agent_runc_reap's callback but stored in *exit_code_p
//  (may be NULL; AGENT_RUNC_EXIT_UNKNOWN when unseen). Returns 0, INVALID,
//  NOT_FOUND when the driver does not know the kernel, or INTERNAL.
int agent_runc_stop(agent_runc_t *self,
                    const char *kernel_id,
                    int grace_ms,
                    int *exit_code_p,
                    bus_error_t *err);

//  Run a kernel agent_runc_stop stopped (or one that exited) again with
//  `runc run -d` from its bundle as it is: the same config.json over the same
//  overlay. Returns 0 once its new process runs (agent_runc_pid has it), or
//  INVALID, NOT_FOUND, CONFLICT while it still runs, INTERNAL with err
//  filled (the kernel stays exited; agent_runc_remove cleans it).
int agent_runc_start(agent_runc_t *self, const char *kernel_id, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  The containers runc knows under our root, for re-adoption after a restart.
//  On success *states_p is a fresh array of *count_p items (NULL when none);
//  caller frees it with free(). Returns 0 or INTERNAL with err filled.
int agent_runc_list(agent_runc_t *self,
                    agent_runc_state_t **states_p,
                    size_t *count_p,
                    bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Take back a kernel that a previous driver (or agent) started, with the pid
//  agent_runc_list gave. Its exit code will be unknown unless the process is
//  still this process's child. Returns 0, NOT_FOUND when its dir is missing,
//  CONFLICT when the driver already knows it.
int
agent_runc_adopt(agent_runc_t *self, const char *kernel_id, int pid, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Whether the kernel's memory cgroup counted OOM kills not accounted for yet
//  (since its start, its adoption or the last call that returned true). Ask
//  when one of its runs ended by SIGKILL: true means the OOM killer took it.
//  Those kills are then accounted for, so the kernel's own exit later is not
//  blamed on them. False for a kernel the driver does not know or that has
//  exited.
bool agent_runc_oom_take(agent_runc_t *self, const char *kernel_id);

//  ---------------------------------------------------------------------------
//  True when pid runs and is not a zombie (read from /proc: for any pid,
//  our child or not). False for pid <= 0.
bool agent_runc_pid_alive(int pid);

//  ---------------------------------------------------------------------------
//  Takes kernel_id's entry out of the driver, which forgets the kernel, so
//  that its state can go with the kernel to another driver (on another
//  thread: agent_runc_attach). Returns NULL when the driver does not know
//  it. Caller owns return value.
agent_runc_entry_t *agent_runc_detach(agent_runc_t *self, const char *kernel_id);

//  Puts an entry another driver gave up into this one: takes *entry_p and
//  sets it to NULL. Returns 0, or CONFLICT when the driver knows the kernel
//  already (the caller keeps the entry).
int agent_runc_attach(agent_runc_t *self, agent_runc_entry_t **entry_p, bus_error_t *err);

//  Frees an entry no driver holds (safe on NULL).
void agent_runc_entry_destroy(agent_runc_entry_t **entry_p);

//  ---------------------------------------------------------------------------
//  The host path of leaf inside a kernel's dir (leaf NULL: the dir itself),
//  e.g. "container.log" or "upper". Caller owns return value.
char *agent_runc_kernel_path(agent_runc_t *self, const char *kernel_id, const char *leaf);

#endif
