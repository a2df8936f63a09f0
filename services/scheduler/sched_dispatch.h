/*  =========================================================================
    sched_dispatch - one scheduling pass: snapshot, decide, write back

    For every resource group (and architecture) with PENDING sessions: read
    a snapshot (sched_db_snapshot), run the group's policy over it (sched_pass,
    with the quota predicates of sched_quota as its admission test), and
    write what was decided in one transaction: for each session placed,
    its allocation rows (one per kernel and slot) and the SCHEDULED
    transition of its kernels and itself; for each one left PENDING, its
    retries, the head-of-line counter and status_data.scheduler with the
    predicates that passed and failed, as Backend.AI shows them. A failed
    try is recorded at most once per retry period, so a burst of passes
    (one per submission) neither rewrites every pending row each time nor
    counts as many tries.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_DISPATCH_H_INCLUDED
#define SCHED_DISPATCH_H_INCLUDED

#include "bus.h"

#define SCHED_DISPATCH_WINDOW    2048 //  pending sessions a pass looks at per group
#define SCHED_DISPATCH_SHORT_MAX 4    //  short slots a pending reason names
#define SCHED_DISPATCH_MSG_MAX   512  //  a pending reason (status_data.scheduler.msg)

//  A kernel the pass placed: the caller asks its agent to create it.
typedef struct {
    char kernel_id[64];
    char session_id[64];
    char agent_id[128];
    char cluster_role[8]; //  main or sub
    uint32_t cluster_idx; //  1 for the main kernel
    bool first;           //  the session's first kernel in the list
} sched_assignment_t;

typedef struct _sched_dispatch_t sched_dispatch_t;

//  A dispatcher over db (borrowed): retry_us is the retry period (the
//  scheduling period), window the pending sessions per group and pass.
sched_dispatch_t *sched_dispatch_new(bus_db_t *db, int64_t retry_us, size_t window);
void sched_dispatch_destroy(sched_dispatch_t **self_p);

//  With preparing, placed kernels and their sessions are written PREPARING
//  rather than SCHEDULED: for a caller that asks the agents as soon as the
//  pass commits (sched_server), which would otherwise move every kernel
//  and session again, SCHEDULED then PREPARING, in the same transaction.
//  What commits is the same either way. Off by default.
void sched_dispatch_set_preparing(sched_dispatch_t *self, bool preparing);

//  Places only on agents heard from at since_us (wall clock) or later. The
//  scheduler gives its own start: an agents row written before it may hold
//  an address of an earlier run (the ports are the system's choice), which
//  by now can be another service's, until the agent's first heartbeat to
//  this process says where it listens now. 0, the default, places on every
//  ALIVE agent.
void sched_dispatch_set_heard_since(sched_dispatch_t *self, int64_t since_us);

//  Whether the last pass placed every session of a full window in some
//  group: more may be waiting behind it, so the next pass should not wait
//  for the period.
bool sched_dispatch_more(sched_dispatch_t *self);

//  Runs one pass at now_us. Returns an owned array of the kernels placed,
//  sessions in the order placed and each session's kernels by index, and
//  sets *count; NULL with *count 0 when nothing was placed.
sched_assignment_t *
sched_dispatch_run(sched_dispatch_t *self, int64_t now_us, size_t *count);

#endif
