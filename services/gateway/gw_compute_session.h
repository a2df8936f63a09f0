/*  =========================================================================
    gw_compute_session - compute_session and compute_session_list in the
    GraphQL admin API, from the scheduler

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_COMPUTE_SESSION_H_INCLUDED
#define GW_COMPUTE_SESSION_H_INCLUDED

#include "gw_gql.h"

//  When a list's filter or order needs what only the gateway has (a
//  project's name, a user's email, slots as JSON...), the gateway reads
//  every session the scheduler can narrow the list to, GW_SESSIONS_CHUNK
//  per call, and refuses a list that would read more than
//  GW_SESSIONS_SCAN_MAX rather than answer a wrong total_count.
#define GW_SESSIONS_CHUNK    5000
#define GW_SESSIONS_SCAN_MAX 100000

//  The root fields.
extern const gw_gql_root_t gw_compute_session_gql[];

//  True for a root field these resolvers answer.
bool gw_compute_session_is_root(const char *name);

//  Called when gw_compute_session_fetch has stored every answer.
typedef void(gw_compute_session_done_fn)(void *arg);

//  Asks the scheduler, one field after another, what the operation's
//  compute_session fields need: fields is a JSON array of {"name", "args",
//  "stats"} (stolen), one per root field these resolvers answer, with the
//  arguments as the execution will pass them and whether the field selects
//  its containers' live_stat or last_stat (then gw_live_stat_fills them). The answers go
//  to r->prefetch_sessions (an object the resolvers read, by name and arguments); then
//  done runs, also when the scheduler is not there (the resolvers report it).
void gw_compute_session_fetch(gw_request_t *r,
                              json_t *fields,
                              gw_compute_session_done_fn *done,
                              void *arg);

#endif
