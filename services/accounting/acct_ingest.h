/*  =========================================================================
    acct_ingest - usage records from the events: exactly once, never backwards

    The durable domains come through bus_node_follow, so each event is
    applied in the transaction that advances its publisher's cursor: a
    restart of accounting neither counts twice nor loses what happened while
    it was down (it catches up from the publishers' outboxes).
      session.lifecycle (scheduler): owner, project, domain, resource group,
        image and slots of each kernel; its start and end when the agent's
        event has not said (the agent's times win, in whatever order).
      kernel.started / kernel.terminated (agents): where and when it ran;
        the terminated event's final counters close the record.
    kernel.stats samples are ephemeral: they are queued and written in one
    transaction per flush (acct_server's timer, or a full queue). A lost
    sample costs nothing (the counters are cumulative: the next one brings
    it), an old or repeated one is skipped (acct_record_sample).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef ACCT_INGEST_H_INCLUDED
#define ACCT_INGEST_H_INCLUDED

#include "bus.h"
#include "acct_record.h"

typedef struct _acct_ingest_t acct_ingest_t;

//  Counters for /metrics and the bench.
typedef struct {
    uint64_t samples_applied;
    uint64_t samples_skipped; //  old, repeated, after the end
    uint64_t samples_malformed;
    uint64_t flushes;
    int64_t lag_us;           //  now - the oldest sample of the last flush
    uint64_t records_changed; //  by durable events
} acct_ingest_stats_t;

//  ---------------------------------------------------------------------------
//  Follows the session and kernel domains and the kernel.stats samples on
//  node (borrowed, outlives it); at most queue_max samples wait for a flush.
//  Caller owns return value. NULL with err.
acct_ingest_t *acct_ingest_new(bus_node_t *node, size_t queue_max, bus_error_t *err);

//  The same without a node, over db (borrowed): only queue and flush
//  (benchmarks, tests). Caller owns return value. NULL when out of memory.
acct_ingest_t *acct_ingest_new_offline(bus_db_t *db, size_t queue_max);

//  Idempotent, NULLs the pointer. Queued samples are flushed first.
void acct_ingest_destroy(acct_ingest_t **self_p);

//  Queues one kernel.stats event body taken at at (its header's time). A
//  full queue is flushed first. 0, or -1 when the body is malformed.
int acct_ingest_queue(acct_ingest_t *self, const void *body, size_t size, int64_t at);

//  Writes the queued samples in one transaction. Returns how many were
//  applied, -1 on a database error (the samples are dropped: the next ones
//  carry the same cumulative counters).
int acct_ingest_flush(acct_ingest_t *self);

//  How many samples wait.
size_t acct_ingest_pending(acct_ingest_t *self);

const acct_ingest_stats_t *acct_ingest_stats(acct_ingest_t *self);

//  The appliers, each inside the caller's transaction (the node's inbox
//  transaction, a flush, a test). 0 or -1 (a database error: retried).
int acct_ingest_lifecycle(bus_db_t *db, const proto_session_lifecycle_t *step);
int acct_ingest_started(bus_db_t *db, const proto_kernel_started_t *started);
int acct_ingest_terminated(bus_db_t *db, const proto_kernel_terminated_t *ended);
//  One sample of kernel_id from agent_id (may be NULL). 1 applied, 0
//  skipped, -1 error.
int acct_ingest_sample(bus_db_t *db,
                       const char *kernel_id,
                       const char *agent_id,
                       const acct_sample_t *sample);

#endif
