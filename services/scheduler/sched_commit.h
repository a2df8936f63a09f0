/*  =========================================================================
    sched_commit - the group commit: session.creates and kernel.create
    answers recorded many to a transaction

    session.create requests and the agents' answers to kernel.create are
    not written one transaction each. They are queued, and a flush that
    runs once the loop turn's messages are handled writes them all in one
    transaction, each under a savepoint of its own (bus_db_savepoint: one
    that fails is undone alone), commits, and only then answers the
    creates: an answer still means the session is stored. Whatever else
    reads or changes sessions flushes first (sched_commit_flush), so the
    order of requests is kept.

    Recording a session.create: its slots parsed, the owner's limits on
    pending sessions checked (max_pending_session_count and
    max_pending_session_resource_slots, as Backend.AI refuses at
    submission, and max_containers_per_session), the session inserted
    PENDING (sched_db_sessions) with its session_enqueued event, and its
    answer built from the request and what the insert knew, not read back.
    The same session id again (a retry) is answered with what exists.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_COMMIT_H_INCLUDED
#define SCHED_COMMIT_H_INCLUDED

#include "bus.h"
#include "sched_calls.h"
#include "sched_lifecycle.h"

#define SCHED_COMMIT_SLOTS_MAX 64 //  slots a session.create may ask for

typedef struct _sched_commit_t sched_commit_t;

//  After each flush that recorded something: created says whether a
//  session was stored (a pass should place it soon).
typedef void(sched_commit_flushed_fn)(void *arg, bool created);

//  Records an agent's answer to a call (inside the flush's transaction,
//  under a savepoint of its own).
typedef void(sched_commit_record_fn)(void *arg,
                                     sched_call_t *call,
                                     const bus_reply_t *reply);

//  Records on node's database, emitting through lifecycle (both borrowed);
//  flushed runs after every flush. NULL on failure.
sched_commit_t *sched_commit_new(bus_node_t *node,
                                 sched_lifecycle_t *lifecycle,
                                 sched_commit_flushed_fn *flushed,
                                 void *arg);

//  Unrecorded work is dropped: the creates go unanswered (their callers
//  time out or retry), the answers' calls are ended (the reconciliation
//  repairs their kernels).
void sched_commit_destroy(sched_commit_t **self_p);

//  Queues a session.create (req detached; body copied), recorded and
//  answered by the next flush: BUS_STATUS_PENDING_, or an error with err
//  (then req is answered with it by the caller).
int sched_commit_create(sched_commit_t *self,
                        bus_rpc_request_t *req,
                        const void *body,
                        size_t size,
                        bus_error_t *err);

//  Queues an agent's answer to call (copied), recorded by record at the
//  next flush, after which the call is ended (sched_calls_done). Out of
//  memory: recorded now, alone.
void sched_commit_answer(sched_commit_t *self,
                         sched_call_t *call,
                         const bus_reply_t *reply,
                         sched_commit_record_fn *record,
                         void *arg);

//  Records everything queued, in one transaction, then answers the
//  creates. Never inside a transaction (nothing is done then: the answers
//  would go out before the commit).
void sched_commit_flush(sched_commit_t *self);

#endif
