/*  =========================================================================
    gw_concurrency - concurrency_used of the keypairs in GraphQL, from the
    scheduler

    The scheduler counts each keypair's sessions that hold slots
    (keypair_counts, kept by its triggers and rebuilt by
    scheduler.recalculate). A document that selects concurrency_used under
    keypair, keypairs or keypair_list has those root fields resolved before
    it runs (gw_gql: r->prefetch_resolved); this module then asks
    scheduler.concurrency for the keypairs they hold, at most
    PROTO_SCHEDULER_CONCURRENCY_REQ_ACCESS_KEYS_MAX keys a call, and writes
    the counts into them. A document that does not select the field pays
    nothing.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_CONCURRENCY_H_INCLUDED
#define GW_CONCURRENCY_H_INCLUDED

#define GW_CONCURRENCY_TIMEOUT_MS 2000 //  each call waits this long at most

//  Called once the counts are in (or could not be had).
typedef void(gw_concurrency_done_fn)(void *arg);

//  Whether the root field name answers keypairs whose concurrency_used
//  this module fills.
bool gw_concurrency_is_root(const char *name);

//  Sets concurrency_used of every keypair in the values of resolved
//  (response key -> {name, value}, as gw_gql keeps r->prefetch_resolved)
//  whose root field gw_concurrency_is_root names, then runs done(arg). A
//  keypair gets null when the scheduler does not answer: the count is an
//  addition, never a reason to fail a list. The values are changed in
//  place; resolved stays the caller's.
void gw_concurrency_fill(gw_request_t *r,
                         json_t *resolved,
                         gw_concurrency_done_fn *done,
                         void *arg);

#endif
