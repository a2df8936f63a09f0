/*  =========================================================================
    gw_compute_session - compute_session and compute_session_list in the
    GraphQL admin API, from the scheduler

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_COMPUTE_SESSION_H_INCLUDED
#define GW_COMPUTE_SESSION_H_INCLUDED

#include "gw_gql.h"

//  The most sessions one GraphQL operation sees (the newest); paging and
//  filters work within them.
#define GW_SESSIONS_PREFETCH_MAX 10000

//  The root fields.
extern const gw_gql_root_t gw_compute_session_gql[];

//  True for a root field these resolvers answer.
bool gw_compute_session_is_root(const char *name);

//  Writes the session.list request for the sessions the caller may see.
void gw_compute_session_request(gw_request_t *r, bus_writer_t *writer);

//  The scheduler's reply as a JSON array of ComputeSession objects, or
//  {"error": detail} when the call failed. Caller owns it.
json_t *gw_compute_session_from_reply(gw_request_t *r, const bus_reply_t *reply);

#endif
