/*  =========================================================================
    sched_lifecycle - sessions on the bus: the session.* methods, the
    scheduling passes, the calls to agents and the kernel events back

    session.create stores a PENDING session (sched_db_sessions) and wakes a
    scheduling pass; each placement is followed by kernel.create on the
    chosen agent (the kernel is PREPARING meanwhile). The agent's durable
    kernel.started and kernel.terminated events, followed exactly once,
    move the kernel to RUNNING and TERMINATED. session.destroy cancels a
    PENDING session, or marks it TERMINATING and asks the agent to destroy
    the kernel. session.restart marks a RUNNING session and its kernel
    RESTARTING, asks the agent to restart the kernel in place and answers
    once it runs again (RUNNING, session_started); a kernel that cannot run
    again ends with the agent's kernel.terminated. Every step emits a
    durable session.lifecycle event named as Backend.AI names it (a restart
    has none until session_started), in the transaction that makes the
    step. A periodic
    reconciliation settles what a lost message (or a restart of this
    process) left in a transitional status, from what each agent says it
    runs (kernel.list), and destroys kernels of sessions that are over.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_LIFECYCLE_H_INCLUDED
#define SCHED_LIFECYCLE_H_INCLUDED

#include "bus.h"

typedef struct _sched_lifecycle_t sched_lifecycle_t;

//  Serves session.*, follows the kernel domain and runs a scheduling pass
//  every pass_ms (and after each create), and a reconciliation every ten
//  passes, which repairs kernels that waited that long in a transitional
//  status. create_timeout_ms bounds kernel.create, which starts a
//  container, and the other calls to agents. NULL on failure.
//  The kernels of an agent LOST for longer than grace_ms end with
//  agent-termination (their slots given back); if the agent comes back,
//  the reconciliation destroys what it still runs of them.
//  Idle, overdue and long-pending sessions are looked for every reclaim_ms
//  (sched_reclaim).
sched_lifecycle_t *sched_lifecycle_new(
    bus_node_t *node, int pass_ms, int create_timeout_ms, int grace_ms, int reclaim_ms);
void sched_lifecycle_destroy(sched_lifecycle_t **self_p);

#endif
