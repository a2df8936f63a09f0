/*  =========================================================================
    acct_query - windows over the usage records: usage, bins, last figures

    The answers of accounting.usage, accounting.stats_user,
    accounting.stats_all and accounting.live, shared by acct_rpc and the
    offline report. Every read goes through one of the window indexes
    (acct_db), is bounded (projects, days, kernels: 100 days and 20,000
    kernels with the kernels listed, 366 days and 200,000 without) and
    refuses rather than scans: bad input is BUS_STATUS_INVALID with a
    detail that says what to change.
    Amounts used within a window: a kernel whose whole life lies inside it
    answers its totals; one that crosses an edge answers the hourly buckets
    starting inside the window plus its samples not yet rolled up (windows
    of whole hours, as months and days are, are exact).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef ACCT_QUERY_H_INCLUDED
#define ACCT_QUERY_H_INCLUDED

#include "bus.h"

#define ACCT_QUERY_GROUPS_MAX  100   //  projects in one usage request
#define ACCT_QUERY_KERNELS_MAX 20000 //  kernels in one usage answer
#define ACCT_QUERY_PERIOD_MAX_US                                                         \
    (101LL * 86400 * 1000000) //  usage/period: 100 days, inclusive
//  An answer without its kernels (with_kernels false: summaries, the
//  report): a year, inclusive, and this many kernels counted.
#define ACCT_QUERY_SUMMARY_PERIOD_MAX_US (367LL * 86400 * 1000000)
#define ACCT_QUERY_SUMMARY_KERNELS_MAX   200000
#define ACCT_QUERY_BIN_US                (900LL * 1000000) //  15 minutes
#define ACCT_QUERY_BINS                  2880              //  30 days of them
//  Kernels a user's 30 days may hold, and everyone's.
#define ACCT_QUERY_USER_KERNELS_MAX 20000
#define ACCT_QUERY_ALL_KERNELS_MAX  200000

//  What accounting.usage groups by (its group_by, by name).
typedef enum {
    ACCT_BY_PROJECT,
    ACCT_BY_USER,
    ACCT_BY_SESSION,
    ACCT_BY_DOMAIN,
    ACCT_BY_RESOURCE_GROUP,
    ACCT_BY_IMAGE
} acct_query_by_t;
#define ACCT_QUERY_GROUP_BY_NAMES                                                        \
    "project, user, session, domain, resource_group or image"

//  ---------------------------------------------------------------------------
//  Answers an accounting.usage request at now into out (initialized here;
//  the caller clears it). BUS_OK, BUS_STATUS_INVALID, BUS_STATUS_INTERNAL.
int acct_query_usage(bus_db_t *db,
                     const proto_accounting_usage_req_t *req,
                     int64_t now,
                     proto_accounting_usage_rep_t *out,
                     bus_error_t *err);

//  The grouping called name (ACCT_QUERY_GROUP_BY_NAMES), or -1. The one
//  table of groupings: the RPC, the gateway's summaries and the report.
int acct_query_group_by(const char *name);

//  The key of a group of an answer grouped by by ("" when none): borrowed.
const char *acct_query_group_key(const proto_accounting_group_t *group,
                                 acct_query_by_t by);

//  Answers accounting.stats_user: 2880 bins ending with the one holding
//  req->to (0: now). The caller clears out.
int acct_query_stats_user(bus_db_t *db,
                          const proto_accounting_stats_user_req_t *req,
                          int64_t now,
                          proto_accounting_stats_user_rep_t *out,
                          bus_error_t *err);

//  Answers accounting.stats_all: the same bins over every kernel (at most
//  ACCT_QUERY_ALL_KERNELS_MAX), the amounts used read per hour of all
//  kernels at once. The caller clears out.
int acct_query_stats_all(bus_db_t *db,
                         const proto_accounting_stats_all_req_t *req,
                         int64_t now,
                         proto_accounting_stats_all_rep_t *out,
                         bus_error_t *err);

//  Answers accounting.live. The caller clears out.
int acct_query_live(bus_db_t *db,
                    const proto_accounting_live_req_t *req,
                    proto_accounting_live_rep_t *out,
                    bus_error_t *err);

//  The UTC window of a month "YYYY-MM" or "YYYYMM": BUS_OK or
//  BUS_STATUS_INVALID.
int acct_query_month(const char *month, int64_t *from, int64_t *to, bus_error_t *err);

//  The UTC start of the day "YYYYMMDD" (or "YYYY-MM-DD"). BUS_OK or
//  BUS_STATUS_INVALID.
int acct_query_day(const char *day, int64_t *at, bus_error_t *err);

#endif
