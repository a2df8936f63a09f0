/*  =========================================================================
    acct_db - the accounting's database: its schema and every statement

    access_log: one row per request a gateway answered, keyed by the
    gateway's request id, so an event delivered twice (a replay after a
    restart of either side) is kept once.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef ACCT_DB_H_INCLUDED
#define ACCT_DB_H_INCLUDED

#include "bus.h"

//  The schema, for the service's bus_service_t.
extern const bus_db_migration_t acct_db_migrations[];
#define ACCT_DB_MIGRATION_COUNT 1

//  ---------------------------------------------------------------------------
//  Records one gateway.access event published by src (its header's src);
//  one already recorded is left as it is. Runs inside the caller's
//  transaction. 0 or -1.
int acct_db_access_insert(bus_db_t *db,
                          const proto_gateway_access_t *access,
                          const char *src);

#endif
