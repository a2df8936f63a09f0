/*  =========================================================================
    sched_reconcile - what a lost message left behind, repaired from what
    each agent says it runs

    Events and RPC answers drive the transitions, but a message can be lost
    (a scheduler killed between writing SCHEDULED and sending
    kernel.create, an answer that timed out). Each run, every kernel that
    has spent a whole period in a transitional status (SCHEDULED,
    PREPARING, PULLING, BUILDING, RESTARTING, TERMINATING) with no call
    about it in flight to the agent process that runs now (sched_calls) is
    settled from its agent's kernel.list: running there -> RUNNING; being
    created but unknown there -> kernel.create again (the agent answers
    what it has for an id it runs, and refuses an id that already ended);
    restarting -> RUNNING, or TERMINATED when the agent does not have it;
    being destroyed -> kernel.destroy again, or TERMINATED when the agent
    no longer has it. A LOST agent's transitional kernels end with a
    reason, and every kernel of an agent LOST past the grace period ends
    with agent-termination; containers an agent still runs for sessions
    that are over are destroyed. Kernels this scheduler never heard of are
    left alone. The first run after a start picks up what the previous
    process left (its calls died with it); waiting a period first lets the
    bus sync bring the durable events that settle most of it the ordinary
    way.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_RECONCILE_H_INCLUDED
#define SCHED_RECONCILE_H_INCLUDED

#include "bus.h"
#include "sched_calls.h"
#include "sched_kernels.h"
#include "sched_lifecycle.h"

#define SCHED_RECONCILE_AGENTS_MAX    1024 //  agents looked at per run
#define SCHED_RECONCILE_UNSETTLED_MAX 256  //  kernels repaired per agent and run
#define SCHED_RECONCILE_LIST_MS       5000 //  how long a run waits for kernel.list

typedef struct _sched_reconcile_t sched_reconcile_t;

//  Repairs kernels that waited period_us in a transitional status; a LOST
//  agent's kernels end grace_us after it was lost. The others are
//  borrowed. NULL when out of memory.
sched_reconcile_t *sched_reconcile_new(bus_node_t *node,
                                       sched_lifecycle_t *lifecycle,
                                       sched_calls_t *calls,
                                       sched_kernels_t *kernels,
                                       int64_t period_us,
                                       int64_t grace_us);
void sched_reconcile_destroy(sched_reconcile_t **self_p);

//  One run: asks every ALIVE agent what it runs (one kernel.list in flight
//  per agent at most) and settles what the unreachable ones hold.
void sched_reconcile_run(sched_reconcile_t *self);

#endif
