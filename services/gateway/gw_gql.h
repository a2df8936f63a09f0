/*  =========================================================================
    gw_gql - the GraphQL admin API the official client uses

    POST /admin/gql answers {"data": ..., "errors": [...]} with status 200,
    as Backend.AI does since v6.20210815; the legacy POST /admin/graphql
    answers the bare data, or 400 graphql-error with the messages. The
    document is parsed by gw_graphql (a real parser: operations, variables,
    fragments, nested selections); this module executes it: each root field
    is looked up in a table of resolvers, which call the operations of
    gw_admin, and the result is projected onto the selection set, so only
    the fields asked for are returned. Mutations answer Backend.AI's
    {ok, msg, <item>} shape, with ok false and the reason in msg when the
    operation is refused.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_GQL_H_INCLUDED
#define GW_GQL_H_INCLUDED

#include "gw_request.h"

#define GW_GQL_PAGE_MAX 100 //  largest page of a *_list field, as Backend.AI's

void gw_gql_handle(gw_request_t *r);
void gw_gql_handle_legacy(gw_request_t *r);

#endif
