/*  =========================================================================
    gw_usage - usage and statistics, answered from the accounting service

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_USAGE_H_INCLUDED
#define GW_USAGE_H_INCLUDED

//  GET /resource/usage/month: month (YYYYMM), group_ids. Superadmins.
void gw_usage_handle_month(gw_request_t *r);

//  GET /resource/usage/period: start_date, end_date (YYYYMMDD, the end
//  included, at most 100 days), project_id (or group_id). Superadmins.
void gw_usage_handle_period(gw_request_t *r);

//  GET /resource/stats/user/month: the caller's last 30 days in 2880 bins.
void gw_usage_handle_user_stats(gw_request_t *r);

//  GET /resource/stats/admin/month: every kernel's last 30 days in 2880
//  bins, Backend.AI's shape. Superadmins; anyone else 403.
void gw_usage_handle_admin_stats(gw_request_t *r);

//  POST /resource/recalculate-usage: the scheduler recounts its ledger's
//  aggregates, then accounting rebuilds its roll-ups; {}. Superadmins.
void gw_usage_handle_recalculate(gw_request_t *r);

//  accounting.usage's reply into rep (the caller clears it), or false when
//  the call failed or the reply is malformed, r answered then.
bool gw_usage_decode(gw_request_t *r,
                     const bus_reply_t *reply,
                     proto_accounting_usage_rep_t *rep);

//  Sends method (what writer holds; rc: how its encoding went) to the
//  accounting service, fn answering r; answers r itself (503) when it is
//  not reachable. Destroys writer. For the other usage routes
//  (gw_usage_admin).
void gw_usage_ask(
    gw_request_t *r, const char *method, bus_writer_t *writer, int rc, bus_reply_fn *fn);

#endif
