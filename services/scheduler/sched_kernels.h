/*  =========================================================================
    sched_kernels - kernel.create and kernel.destroy to the agents, and
    what their answers record

    Each placement is followed by kernel.create on the chosen agent (the
    kernel is PREPARING meanwhile, agents.create_timeout_ms at most). The
    request is read from the session with one statement (and the cluster's
    hostnames with one more for a cluster). The answer is recorded with the
    others of its loop turn (sched_commit): success moves the kernel to
    RUNNING with where it runs (its durable kernel.started may come first,
    sched_kernel_events: whichever does moves it); a failure cancels the
    session with the agent's reason (failed-to-start, status_data.error)
    and gives the slots back, unless the kernel moved on meanwhile, the
    call went to an agent process that is gone, or another agent answered
    on the address (the reconciliation then sends the create again), or
    the kernel already ended there (its kernel.terminated tells how).

    Ending a session: a PENDING one is cancelled; a kernel whose agent is
    not reachable (LOST), or every kernel when forced, ends now; the others
    become TERMINATING and their agents are asked to destroy them, and the
    agent's kernel.terminated ends them (an agent that no longer knows the
    kernel ends it here, already-terminated).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_KERNELS_H_INCLUDED
#define SCHED_KERNELS_H_INCLUDED

#include "bus.h"
#include "sched_calls.h"
#include "sched_commit.h"
#include "sched_dispatch.h"
#include "sched_lifecycle.h"

typedef struct _sched_kernels_t sched_kernels_t;

//  Calls agents through calls, records through lifecycle and commit (all
//  borrowed). NULL when out of memory.
sched_kernels_t *sched_kernels_new(bus_node_t *node,
                                   sched_lifecycle_t *lifecycle,
                                   sched_calls_t *calls,
                                   sched_commit_t *commit);
void sched_kernels_destroy(sched_kernels_t **self_p);

//  Asks the agent of a placement to create its kernel. A call that cannot
//  leave is answered as the agent's failure would be.
void sched_kernels_create(sched_kernels_t *self, const sched_assignment_t *placed);

//  Asks the agent at addr to destroy kernel_id of session_id for reason;
//  grace_ms < 0 takes the request's default.
void sched_kernels_terminate(sched_kernels_t *self,
                             const char *session_id,
                             const char *kernel_id,
                             const char *addr,
                             const char *reason,
                             int grace_ms);

//  Trusts an agent's "no such kernel" to kernel.destroy only from an agent
//  heard from at since_us (wall clock) or later at the address the call
//  went to (sched_dispatch_set_heard_since says why). 0, the default,
//  trusts any.
void sched_kernels_set_heard_since(sched_kernels_t *self, int64_t since_us);

//  Ends every kernel of session_id for reason (see above; forced: without
//  a grace period). NOT_FOUND for an unknown session; an ended one is left
//  as it is (BUS_OK). UNAVAILABLE or INTERNAL on a database error.
int sched_kernels_end_session(sched_kernels_t *self,
                              const char *session_id,
                              const char *reason,
                              bool forced);

#endif
