/*  =========================================================================
    agent_runner_client - the agent's side of the kernel runner's socket

    One client per kernel. It lives in the agent's libevent loop and talks the
    frame protocol of agent_runner_proto.h over the runner's Unix socket,
    connecting lazily and reconnecting when the connection drops (the runner
    keeps a run's output for the next connection). Runs are named by the
    caller's Backend.AI runId. Their output is kept per run as console items
    until agent_runner_client_collect hands it out in the execution result
    shape of the Backend.AI API (§3.4: runId, status, exitCode, options,
    files, console). Every callback fires exactly once, from the loop, never
    from inside the call that registered it; destroy fires the pending ones.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_RUNNER_CLIENT_H_INCLUDED
#define AGENT_RUNNER_CLIENT_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include "bus.h"

struct event_base;

//  Output kept per run and not yet collected; beyond it output is dropped and
//  the next result says so.
#define AGENT_RUNNER_CLIENT_OUTPUT_MAX (8u * 1024 * 1024)
//  Run records kept at most (finished runs nobody collected are evicted first).
#define AGENT_RUNNER_CLIENT_RUNS_MAX 64
//  Reconnects in a row, without a frame in between, before the runner counts as
//  gone.
#define AGENT_RUNNER_CLIENT_RECONNECTS 3
//  Longest runId accepted.
#define AGENT_RUNNER_CLIENT_RUN_ID_MAX 128

typedef struct _agent_runner_client_t agent_runner_client_t;

//  Answer to a collect. On success err is NULL and result is the §3.4 object
//  (borrowed: json_incref to keep it). On failure result is NULL and err says
//  why: BUS_STATUS_UNAVAILABLE (runner gone, client destroyed),
//  BUS_STATUS_CONFLICT (the runner was busy with another run, or another collect
//  of the run is pending), BUS_STATUS_NOT_FOUND (unknown runId).
typedef void(agent_runner_collect_fn)(json_t *result, const bus_error_t *err, void *arg);

//  Answer to a status request: reply is "idle" or "busy <wire run id>" (borrowed),
//  or NULL with err set (UNAVAILABLE, TIMEOUT).
typedef void(agent_runner_status_fn)(const char *reply,
                                     const bus_error_t *err,
                                     void *arg);

//  A run finished (its FINISHED frame came): run_id is the caller's name of
//  it (borrowed), exit_code its code (128 + n for signal n). Fires once per
//  run, from the client's read callback, before any collect of the run is
//  answered; it must not destroy the client.
typedef void(agent_runner_finished_fn)(const char *run_id, int exit_code, void *arg);

//  Terminal bytes from the runner's pseudo-terminal (borrowed); data NULL when
//  the terminal's shell ended.
typedef void(agent_runner_pty_fn)(const uint8_t *data, size_t size, void *arg);

//  ---------------------------------------------------------------------------
//  Create a client for the runner listening on socket_path. Nothing connects
//  yet. Returns NULL (err set) when the path is too long for a Unix socket.
agent_runner_client_t *agent_runner_client_new(struct event_base *base,
                                               const char *socket_path,
                                               bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Destroy the client: every pending callback fires with BUS_STATUS_UNAVAILABLE
//  (callbacks must not call the client then). Idempotent; NULLs the pointer.
void agent_runner_client_destroy(agent_runner_client_t **self_p);

//  ---------------------------------------------------------------------------
//  Start a query-mode run of code (size bytes) named run_id in the persistent
//  interpreter. Returns 0, or -1 with err: CONFLICT when a run of this client is
//  still going or run_id is taken by one, UNAVAILABLE when the runner cannot be
//  reached, INVALID for a bad run_id or oversized code.
int agent_runner_client_exec(agent_runner_client_t *self,
                             const char *run_id,
                             const char *code,
                             size_t size,
                             bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Start a batch run: clean, build and exec commands (NULL or "" skips one),
//  each /bin/sh -c in the workdir, stopping at the first failing one. Returns
//  as agent_runner_client_exec.
int agent_runner_client_batch(agent_runner_client_t *self,
                              const char *run_id,
                              const char *clean,
                              const char *build,
                              const char *exec,
                              bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Send a line of user input to run_id, which waits for it. Returns 0, or -1
//  with err (NOT_FOUND, UNAVAILABLE, INVALID).
int agent_runner_client_input(agent_runner_client_t *self,
                              const char *run_id,
                              const char *text,
                              bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Interrupt run_id (SIGINT to its code). Returns 0, or -1 with err.
int agent_runner_client_interrupt(agent_runner_client_t *self,
                                  const char *run_id,
                                  bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Kill run_id: SIGKILL to its whole process group, for code that ignores
//  SIGINT. A run in the persistent interpreter ends the interpreter with it
//  (the next run starts a fresh one). The run finishes with 137. Returns 0,
//  or -1 with err (NOT_FOUND when it is not going, UNAVAILABLE).
int agent_runner_client_kill(agent_runner_client_t *self,
                             const char *run_id,
                             bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Ask for run_id's result: fn fires once, as soon as the run finished
//  ("finished", exitCode), waits for input ("waiting-input",
//  options.is_password) or wait_ms passed ("continued"). The console holds the
//  output not handed out by an earlier collect. A finished result forgets the
//  run. Errors come through fn too (see agent_runner_collect_fn).
void agent_runner_client_collect(agent_runner_client_t *self,
                                 const char *run_id,
                                 int wait_ms,
                                 agent_runner_collect_fn *fn,
                                 void *arg);

//  ---------------------------------------------------------------------------
//  Ask the runner whether it is busy: fn fires once with its reply, or with
//  TIMEOUT after timeout_ms, or UNAVAILABLE.
void agent_runner_client_status(agent_runner_client_t *self,
                                int timeout_ms,
                                agent_runner_status_fn *fn,
                                void *arg);

//  ---------------------------------------------------------------------------
//  Start the service-port app name with command (a /bin/sh -c line, run as
//  the kernel's user in its workdir) unless one of that name runs: fn fires
//  once with "started", "running" or the runner's error text as reply, or
//  with err (TIMEOUT after timeout_ms, UNAVAILABLE). The runner does not
//  wait for the app's port.
void agent_runner_client_service(agent_runner_client_t *self,
                                 const char *name,
                                 const char *command,
                                 int timeout_ms,
                                 agent_runner_status_fn *fn,
                                 void *arg);

//  ---------------------------------------------------------------------------
//  Tell the runner to exit (it kills what it started). Returns 0 when the frame
//  is queued, or -1 with err. Pending runs then fail as the connection drops.
int agent_runner_client_shutdown(agent_runner_client_t *self, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Run ends: fn (NULL: none) hears of every run that finishes.
void agent_runner_client_set_finished_handler(agent_runner_client_t *self,
                                              agent_runner_finished_fn *fn,
                                              void *arg);

//  ---------------------------------------------------------------------------
//  Terminal passthrough: fn (NULL: none) gets the PTY_OUT bytes.
void agent_runner_client_set_pty_handler(agent_runner_client_t *self,
                                         agent_runner_pty_fn *fn,
                                         void *arg);

//  ---------------------------------------------------------------------------
//  Send a PTY frame: kind is AGENT_RUNNER_PTY_OPEN, _PTY_DATA or _PTY_RESIZE
//  (open and resize carry "<rows> <cols>"). Returns 0, or -1 with err.
int agent_runner_client_pty_send(agent_runner_client_t *self,
                                 uint8_t kind,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err);

//  True while a connection to the runner is open.
bool agent_runner_client_connected(agent_runner_client_t *self);

#endif
