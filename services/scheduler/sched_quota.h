/*  =========================================================================
    sched_quota - quota scopes and Backend.AI's scheduling predicates (pure)

    A pending session counts against four quota scopes: its keypair, its
    user, its project and its domain. Each scope has a limit per slot
    (total_resource_slots) and what its kernels hold now; the keypair scope
    also has Backend.AI's keypair resource policy counters (concurrent
    sessions, containers per session, pending sessions and their slots).
    sched_quota_check runs every predicate, never stopping at the first
    failure, so a session left PENDING can say everything that holds it
    back, under the names and with the messages Backend.AI's dispatcher
    writes into status_data.scheduler (reference §6):

      concurrency                 the keypair's sessions holding slots now
                                  must stay under max_concurrent_sessions
                                  (a limit <= 0 is unlimited, as Backend.AI)
      keypair_resource_limit      occupied + the session's total <= limit,
      user_resource_limit         for every slot of the scope (a slot that
      user_group_resource_limit   already holds more than its limit fails
      domain_resource_limit       even when the session does not ask for it)
      max_containers_per_session  kernel_count <= the keypair's limit

    A session's total is its per-kernel request times kernel_count. The
    arithmetic is exact (128-bit intermediates), so no amount can wrap. The
    pending limits (max_pending_session_count and _resource_slots) are
    checked once, at submission (sched_quota_admit_pending). No I/O: the
    caller loads the scopes from its snapshot and writes back what changed.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_QUOTA_H_INCLUDED
#define SCHED_QUOTA_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bus_status.h"
#include "sched_model.h"

#define SCHED_UNLIMITED           INT64_MAX //  a limit that is not set
#define SCHED_PREDICATE_MAX       16        //  predicates one verdict holds, each way
#define SCHED_PREDICATE_NAME_MAX  48        //  longest predicate name, with its NUL
#define SCHED_PREDICATE_MSG_MAX   256       //  longest predicate message, with its NUL
#define SCHED_QUOTA_TIMESTAMP_MAX 64        //  an ISO 8601 last_try, with its NUL

//  Backend.AI's predicate names (manager/scheduler/dispatcher.py), in the
//  order sched_quota_check runs them.
#define SCHED_PRED_CONCURRENCY    "concurrency"
#define SCHED_PRED_KEYPAIR_LIMIT  "keypair_resource_limit"
#define SCHED_PRED_USER_LIMIT     "user_resource_limit"
#define SCHED_PRED_PROJECT_LIMIT  "user_group_resource_limit"
#define SCHED_PRED_DOMAIN_LIMIT   "domain_resource_limit"
#define SCHED_PRED_MAX_CONTAINERS "max_containers_per_session"

//  Which scope; also the index into sched_pending_t.scopes.
typedef enum {
    SCHED_SCOPE_KEYPAIR,
    SCHED_SCOPE_USER,
    SCHED_SCOPE_PROJECT,
    SCHED_SCOPE_DOMAIN,
} sched_scope_kind_t;

//  One quota scope as the snapshot has it.
typedef struct {
    sched_scope_kind_t kind;
    const char *key;      //  access key, user uuid, project id, domain name (borrowed)
    sched_vec_t limit;    //  total_resource_slots; SCHED_UNLIMITED per slot if none
    sched_vec_t occupied; //  what its kernels hold now
    //  keypair scope only (others: SCHED_UNLIMITED / 0):
    int64_t max_concurrent_sessions; //  SCHED_UNLIMITED when none
    int64_t concurrent;              //  its sessions holding slots now
    int64_t max_containers_per_session;
    int64_t max_pending_count;     //  max_pending_session_count
    sched_vec_t max_pending_slots; //  max_pending_session_resource_slots
    int64_t pending_count;         //  its PENDING sessions
    sched_vec_t pending_slots;     //  what they ask for in all
} sched_scope_t;

//  One predicate's outcome: its name, and on failure why.
typedef struct {
    char name[SCHED_PREDICATE_NAME_MAX];
    char msg[SCHED_PREDICATE_MSG_MAX];
} sched_predicate_t;

//  Every predicate of one check, passed and failed, in the order run.
typedef struct {
    sched_predicate_t passed[SCHED_PREDICATE_MAX];
    size_t passed_count;
    sched_predicate_t failed[SCHED_PREDICATE_MAX];
    size_t failed_count;
} sched_verdict_t;

//  The scopes of one snapshot. The slot names (borrowed) index every
//  vector and name the slots in messages; their unit (bus_slots_unit)
//  formats the amounts, and a name bus_slots does not know is a count.
typedef struct {
    sched_scope_t *scopes;
    size_t scope_count;
    const char *const *slot_names;
    size_t slot_count;
} sched_quota_t;

//  Sets *total to what p asks for in all: its request times kernel_count,
//  per slot, saturating at SCHED_UNLIMITED. The caller uses it for
//  sched_quota_admit_pending and for its pending_slots bookkeeping.
void sched_quota_total(const sched_pending_t *p, size_t slot_count, sched_vec_t *total);

//  Runs every predicate for p against the scopes p->scopes names and fills
//  v (reset first) with those that passed and those that failed, with
//  Backend.AI's messages. v may be NULL when only the answer is wanted:
//  then nothing is formatted and the first failure ends the check. True
//  when every predicate passes. p->scopes must index q->scopes.
bool
sched_quota_check(const sched_quota_t *q, const sched_pending_t *p, sched_verdict_t *v);

//  Records that p was placed: adds its total to the occupied of its four
//  scopes (once per distinct scope), counts one more concurrent session on
//  the keypair and takes p off the keypair's pending count and slots
//  (never below zero).
void sched_quota_charge(sched_quota_t *q, const sched_pending_t *p);

//  sched_pass_t's admit and charge hooks, with arg a sched_quota_t *.
bool sched_quota_admit_hook(void *arg, const sched_pending_t *p);
void sched_quota_charge_hook(void *arg, const sched_pending_t *p);

//  At submission: whether the keypair may hold one more PENDING session
//  asking for total. BUS_OK, or BUS_STATUS_QUOTA with Backend.AI's
//  message(s) in err when pending_count + 1 would exceed max_pending_count
//  or pending_slots + total would exceed max_pending_slots in any slot
//  (both messages when both fail; the slots one lists, per slot over, what
//  the pending sessions would then hold). err may be NULL.
int sched_quota_admit_pending(const sched_scope_t *keypair,
                              const sched_vec_t *total,
                              size_t slot_count,
                              const char *const *slot_names,
                              bus_error_t *err);

//  The status_data JSON text Backend.AI writes for a session left PENDING:
//  {"scheduler": {"retries": n, "last_try": ISO 8601 UTC, "msg": msg,
//  "failed_predicates": [{"name", "msg"}...], "passed_predicates":
//  [{"name"}...]}}. msg NULL leaves "msg" out, as Backend.AI does after a
//  predicate failure. Text that is not UTF-8 gets '?' for its other bytes.
//  Caller owns return value (free it); NULL when out of memory.
char *sched_quota_status_data(const sched_verdict_t *v,
                              const char *msg,
                              uint32_t retries,
                              int64_t now_us);

#endif
