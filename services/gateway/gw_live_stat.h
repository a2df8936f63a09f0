/*  =========================================================================
    gw_live_stat - live_stat and last_stat of the sessions' containers in
    GraphQL, from the accounting service

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_LIVE_STAT_H_INCLUDED
#define GW_LIVE_STAT_H_INCLUDED

//  Called once the figures are in (or could not be had).
typedef void(gw_live_stat_done_fn)(void *arg);

//  Fills live_stat and last_stat of every container of the sessions that
//  prefetch (r->prefetch_sessions: field key -> {value}) holds, with one
//  accounting.live call, then runs done(arg). A container whose kernel has
//  no sample yet, or any container when accounting does not answer, gets
//  null: the figures are an addition, never a reason to fail a list.
void gw_live_stat_fill(gw_request_t *r,
                       json_t *prefetch,
                       gw_live_stat_done_fn *done,
                       void *arg);

#endif
