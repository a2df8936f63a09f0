/*  =========================================================================
    sched_calls - the kernel.* calls in flight to the agents

    Every call the scheduler makes to an agent about a kernel
    (kernel.create, destroy, restart, list) is kept here from the moment it
    leaves until its answer has been dealt with, so that the
    reconciliation leaves a kernel alone while a call about it may still
    move it, and so that destroying this object cancels them all: no
    answer's handler ever runs after the scheduler is gone. A call counts
    as in flight only while it went to the agent process that answers for
    its kernel now (the address and the started_at its heartbeats carry):
    what an agent that restarted was asked died with it.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_CALLS_H_INCLUDED
#define SCHED_CALLS_H_INCLUDED

#include "bus.h"
#include "sched_db_sessions.h"

#define SCHED_CALLS_ENDPOINT_MAX 256
#define SCHED_CALLS_AGENT_MAX    128

typedef struct _sched_calls_t sched_calls_t;
typedef struct _sched_call_t sched_call_t;

//  Runs with a call's answer (or its timeout); call is borrowed, and the
//  handler ends it with sched_calls_done, now or later.
typedef void(sched_call_fn)(void *arg, sched_call_t *call, const bus_reply_t *reply);

//  One call. Whoever sends it fills the members it needs; its handler
//  reads them.
struct _sched_call_t {
    char session_id[SCHED_ID_MAX];
    char kernel_id[SCHED_ID_MAX];
    char agent_id[SCHED_CALLS_AGENT_MAX]; //  the agent asked (kernel.list, kernel.create)
    char endpoint[SCHED_CALLS_ENDPOINT_MAX];
    int64_t agent_started;  //  the started_at of the agent process it went to
    bool list;              //  a kernel.list of the reconciliation
    int64_t sent_us;        //  kernel.list: when it was asked
    int timeout_ms;         //  0: the default (agents.create_timeout_ms)
    bus_rpc_request_t *req; //  kernel.restart: the session.restart to answer
    //  Private
    sched_calls_t *owner;
    uint64_t call_id; //  0 until it left
    sched_call_fn *fn;
    void *arg;
    sched_call_t *next, *prev;
};

//  Calls on node; a call's deadline is timeout_ms unless it says
//  otherwise. NULL when out of memory.
sched_calls_t *sched_calls_new(bus_node_t *node, int timeout_ms);

//  Cancels every call in flight (their handlers never run) and frees them.
void sched_calls_destroy(sched_calls_t **self_p);

//  The default deadline, agents.create_timeout_ms.
int sched_calls_timeout_ms(sched_calls_t *self);

//  A new call about kernel_id of session_id (either may be ""), not sent
//  yet: send it with sched_calls_send, or free it with sched_calls_done.
//  NULL when out of memory.
sched_call_t *
sched_calls_prepare(sched_calls_t *self, const char *session_id, const char *kernel_id);

//  Sends method with writer's body to the agent at endpoint; fn runs with
//  the answer. False when the call could not leave: it is then still the
//  caller's, unsent.
bool sched_calls_send(sched_calls_t *self,
                      sched_call_t *call,
                      const char *endpoint,
                      const char *method,
                      bus_writer_t *writer,
                      sched_call_fn *fn,
                      void *arg);

//  Ends a call whose answer was dealt with (or that never left): forgets
//  and frees it, and its session.restart request unanswered (the caller
//  times out). Nulls *call_p.
void sched_calls_done(sched_call_t **call_p);

//  Whether call went to the agent process that answers for its kernel (or
//  for its agent) now; true when neither is known.
bool sched_calls_current(sched_calls_t *self, const sched_call_t *call);

//  True while a call about kernel_id (not a list) is in flight to its
//  agent's current process: its answer, not the reconciliation, moves the
//  kernel.
bool sched_calls_in_flight(sched_calls_t *self, const char *kernel_id);

//  True while a kernel.list to agent_id at addr is in flight to its
//  current process.
bool sched_calls_listing(sched_calls_t *self, const char *agent_id, const char *addr);

#endif
