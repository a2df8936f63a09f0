/*  =========================================================================
    gw_routes - every route of the HTTP API, in one table

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_ROUTES_H_INCLUDED
#define GW_ROUTES_H_INCLUDED

#include "gw_request.h"

//  The table, ending with a row whose pattern is NULL.
extern const gw_route_t gw_routes[];

#endif
