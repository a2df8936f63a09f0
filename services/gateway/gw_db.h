/*  =========================================================================
    gw_db - the gateway's own database: identity and policy

    Tenancy (domains, projects, users, keypairs), resource policies,
    resource groups and who may use them, the image catalogue and aliases,
    resource presets, browser login sessions. The schema is the numbered
    migration list in gw_db.c; each resource module keeps its own SQL.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_DB_H_INCLUDED
#define GW_DB_H_INCLUDED

#include "bus.h"

//  Bump with every migration appended to gw_db.c (a static assertion checks).
#define GW_DB_MIGRATION_COUNT 17

extern const bus_db_migration_t gw_db_migrations[];

#endif
