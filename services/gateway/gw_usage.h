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

#endif
