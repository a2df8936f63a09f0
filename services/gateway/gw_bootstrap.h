/*  =========================================================================
    gw_bootstrap - a new installation's first domain, project and superadmin

    On a first start (no users at all) the gateway creates the default
    policies, the default domain and project, the default resource group,
    and a superadmin with a keypair. The credentials are written once, to
    <state_dir>/admin.env (mode 0600), in the form the official client
    reads (BACKEND_ACCESS_KEY, BACKEND_SECRET_KEY, ...); the log only says
    where, never what.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_BOOTSTRAP_H_INCLUDED
#define GW_BOOTSTRAP_H_INCLUDED

#include "bus.h"
#include "gw_config.h"

//  Creates the first objects if the database has no user. endpoint is the
//  API URL written into admin.env. 0 (created or not needed) or -1 with err.
int gw_bootstrap(bus_db_t *db,
                 const gw_config_t *config,
                 const char *endpoint,
                 bus_error_t *err);

//  The current time as ISO 8601 UTC with microseconds, the format of every
//  timestamp column ("2026-11-21T13:08:00.123456+00:00").
void gw_now_iso(char out[40]);
//  The same for a time in microseconds since the epoch.
void gw_time_iso(int64_t us, char out[40]);

#endif
