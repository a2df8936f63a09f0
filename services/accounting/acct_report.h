/*  =========================================================================
    acct_report - the operator's offline report, in the spirit of sreport

        backplane-accounting [--config FILE] report
            --by project|user|session|domain|resource_group|image
            --month YYYY-MM [--state-dir DIR]

    reads <state_dir>/accounting.db (the running service may keep writing:
    WAL readers do not block it) and prints one line per project, user or
    domain (resource group, image, ...) with its TRES-hours within the month
    (UTC), from acct_query_usage: the same grouping and bounds as the
    accounting.usage RPC and the gateway's /admin/v1/usage: CPU core-hours held
    and used, memory GiB-hours held, accelerator hours held, and a total.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef ACCT_REPORT_H_INCLUDED
#define ACCT_REPORT_H_INCLUDED

#include <stdio.h>

//  The service's offline command hook (bus_service_t.command). Returns the
//  exit status: 0, 1 on failure, 2 on bad usage.
int acct_report_command(const void *config, int argc, char **argv);

//  Prints the report of the database at path to out. 0 or 1 (the reason
//  printed on stderr). by: a grouping (ACCT_QUERY_GROUP_BY_NAMES); month
//  YYYY-MM.
int acct_report_print(const char *path, const char *by, const char *month, FILE *out);

#endif
