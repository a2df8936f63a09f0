/*  =========================================================================
    gw_ctx - what an administrative operation runs with

    The operations on the gateway's own records (domains, projects, users,
    keypairs, policies, resource groups, presets, images: gw_admin.h) take
    a context, not an HTTP request, so that the HTTP and GraphQL handlers
    and the offline admin command (gw_admin_cli) call the same functions.
    A context is a plain struct of borrowed pointers, filled by whoever
    calls: the request pipeline (gw_request_ctx) or the command.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_CTX_H_INCLUDED
#define GW_CTX_H_INCLUDED

#include "bus.h"
#include "gw_config.h"
#include "gw_identity.h"

typedef struct {
    bus_db_t *db; //  the gateway's database
    //  The node, for the changes that are also durable events in the same
    //  transaction (policies, resource groups); NULL offline, where those
    //  operations answer UNAVAILABLE.
    bus_node_t *node;
    const gw_config_t *config;
    //  Cleared when a change may alter who a caller is; NULL: no cache.
    gw_identity_cache_t *identities;
    const gw_identity_t *who; //  the caller, whose rights every operation checks
} gw_ctx_t;

//  For the operations whose change is also a durable event: BUS_OK with a
//  node, else UNAVAILABLE with err saying the running gateway must do it.
int gw_ctx_require_node(const gw_ctx_t *ctx, bus_error_t *err);

#endif
