/*  =========================================================================
    agent_worker - a thread that runs the agent's slow jobs off its loop

    Making and removing a kernel's container takes umoci, ip and runc, from
    tens of milliseconds to seconds (an image's first unpack, a destroy's
    grace period); on the agent's one loop that time would hold up every
    heartbeat, execute and other create. The worker is one thread (a zactor)
    that runs jobs one at a time in the order they were submitted: a job's
    run function on the worker's thread, then its done function back on the
    loop, which the actor's pipe wakes (watched as a libevent event).

    The queue is the loop's: a job is sent to the thread only when the
    thread is idle, so the jobs that have not begun can still be cancelled
    when the worker stops (their done runs with ran false) and nothing waits
    in a socket.

    One thread, not a pool: the jobs work on what all kernels share (the
    cgroup parents, which removing a kernel may rmdir while a create needs
    them, the bridge and its address files, the unpack cache), and one queue
    keeps them apart without locks. The loop stays free either way.

    Ownership: a job, and whatever it carries, belongs to the worker's
    thread from agent_worker_submit until its done function is called, and
    to the loop again from then. The context given to agent_worker_new
    belongs to the thread from then until agent_worker_destroy returns; the
    loop must not touch it meanwhile.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_WORKER_H_INCLUDED
#define AGENT_WORKER_H_INCLUDED

#include "bus.h"

typedef struct _agent_worker_t agent_worker_t;

//  Runs on the worker's thread: job is the one submitted, context the
//  worker's (agent_worker_new). Its results go into job.
typedef void(agent_worker_run_fn)(void *job, void *context);

//  Runs on the loop once the job ran (ran true), or instead of running it
//  when the worker stops first (ran false). It owns job again and may
//  submit more.
typedef void(agent_worker_done_fn)(void *job, bool ran);

//  ---------------------------------------------------------------------------
//  Starts the thread; done functions run on base's loop. context (may be
//  NULL) is passed to every run function and belongs to the thread until
//  agent_worker_destroy returns. NULL when the thread cannot start.
agent_worker_t *agent_worker_new(struct event_base *base, void *context);

//  Stops the worker: waits for the job running to end and calls its done
//  function (ran true), then calls the done function of every job still
//  queued, and of every job those submit meanwhile, with ran false, then
//  ends the thread. On the loop's thread.
void agent_worker_destroy(agent_worker_t **self_p);

//  ---------------------------------------------------------------------------
//  Queues job: run(job, context) on the thread once the jobs before it
//  ran, then done(job, true) on the loop. Takes job (see the ownership
//  rule). 0, or -1 when out of memory (done is not called; the caller
//  keeps job).
int agent_worker_submit(agent_worker_t *self,
                        agent_worker_run_fn *run,
                        agent_worker_done_fn *done,
                        void *job);

//  True when no job is queued or running: no thread but the loop's runs a
//  child process or holds a kernel then (agent_runc_reap_all may run).
bool agent_worker_idle(agent_worker_t *self);

//  How many jobs are queued or running.
size_t agent_worker_pending(agent_worker_t *self);

#endif
