/*  =========================================================================
    gw_usage_admin - GET /admin/v1/usage, Backplane's usage summaries

    What the kernels held (slots x seconds) and used, summed per domain,
    project, user, resource group or image over a period of whole UTC days,
    as JSON or as CSV with a header row (docs/openapi.yaml). Superadmins
    read every domain; a domain admin reads their own only. The sums are
    accounting.usage's without the kernels (acct_query: the grouping the
    offline `backplane-accounting report` shares), so a period may span up
    to 366 days and 200,000 kernels; more is 400, never a long scan.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_USAGE_ADMIN_H_INCLUDED
#define GW_USAGE_ADMIN_H_INCLUDED

#define GW_USAGE_ADMIN_DAYS_MAX 366 //  the longest period, in days

//  GET /admin/v1/usage?group_by=&start=&end=[&domain=][&format=json|csv]:
//  start and end are days (YYYY-MM-DD or YYYYMMDD, UTC), both included.
void gw_usage_admin_handle(gw_request_t *r);

#endif
