/*  =========================================================================
    gw_rest - Backplane's own REST admin API, beside GraphQL

    The same operations as the GraphQL admin API (gw_admin), as plain REST
    under /admin/v1, described in docs/openapi.yaml:
        GET    /admin/v1/<collection>          list (query parameters filter)
        POST   /admin/v1/<collection>          create (201)
        GET    /admin/v1/<collection>/{key}    read
        PATCH  /admin/v1/<collection>/{key}    modify
        DELETE /admin/v1/<collection>/{key}    deactivate, or ?purge=true to delete
    for domains, projects, users, keypairs and resource-policies/<kind>.
    Errors are problem+json with Backend.AI's slugs.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_REST_H_INCLUDED
#define GW_REST_H_INCLUDED

#include "gw_request.h"

//  The handlers the route table names, one pair per collection.
void gw_rest_domains(gw_request_t *r);
void gw_rest_domain(gw_request_t *r);
void gw_rest_projects(gw_request_t *r);
void gw_rest_project(gw_request_t *r);
void gw_rest_users(gw_request_t *r);
void gw_rest_user(gw_request_t *r);
void gw_rest_keypairs(gw_request_t *r);
void gw_rest_keypair(gw_request_t *r);
void gw_rest_policies(gw_request_t *r);
void gw_rest_policy(gw_request_t *r);

#endif
