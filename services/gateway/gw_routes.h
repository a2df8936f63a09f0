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

//  The web listener's own: /server/login and the rest, /config.toml.
extern const gw_route_t gw_web_routes[];

//  The body limit of route: api.max_body_bytes (the default given), or
//  more for the routes that take files.
int64_t gw_routes_max_body(const gw_route_t *route, int64_t default_limit);

#endif
