/*  =========================================================================
    gw_admin - the administrative operations behind GraphQL and REST

    One function per operation on domains, projects (groups), users,
    keypairs, resource policies, resource groups, images and presets. Each
    checks the caller's rights (gw_identity) and returns a bus status with
    a detail (see gw_store.h); on success *out is the JSON result (caller
    owns it): an object, an array of objects, or NULL for deletions. The
    GraphQL layer (gw_gql) and the REST layer (gw_rest) only translate.

    Rights, as the seeds say: a user acts on their own things, a domain
    admin within their domain, a superadmin everywhere; a monitor reads its
    domain. Anything else is BUS_STATUS_FORBIDDEN.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_ADMIN_H_INCLUDED
#define GW_ADMIN_H_INCLUDED

#include "gw_request.h"

typedef int(gw_admin_list_fn)(gw_request_t *r,
                              json_t *args,
                              json_t **out,
                              bus_error_t *err);

//  Domains (superadmin writes; admins and monitors read their own).
int gw_domain_list(gw_request_t *r, json_t *args, json_t **out, bus_error_t *err);
int gw_domain_get(gw_request_t *r, const char *name, json_t **out, bus_error_t *err);
int gw_domain_create(
    gw_request_t *r, const char *name, json_t *props, json_t **out, bus_error_t *err);
int gw_domain_modify(
    gw_request_t *r, const char *name, json_t *props, json_t **out, bus_error_t *err);
int gw_domain_delete(gw_request_t *r, const char *name, bool purge, bus_error_t *err);

//  Projects, Backend.AI's "groups" (domain admins write in their domain;
//  users read the projects they belong to).
int gw_group_list(gw_request_t *r, json_t *args, json_t **out, bus_error_t *err);
int gw_group_get(gw_request_t *r, const char *id, json_t **out, bus_error_t *err);
int gw_group_create(
    gw_request_t *r, const char *name, json_t *props, json_t **out, bus_error_t *err);
int gw_group_modify(
    gw_request_t *r, const char *id, json_t *props, json_t **out, bus_error_t *err);
int gw_group_delete(gw_request_t *r, const char *id, bool purge, bus_error_t *err);

//  Users (domain admins in their domain; a user reads and updates itself).
int gw_user_list(gw_request_t *r, json_t *args, json_t **out, bus_error_t *err);
int gw_user_get(gw_request_t *r, const char *email, json_t **out, bus_error_t *err);
int
gw_user_get_by_uuid(gw_request_t *r, const char *uuid, json_t **out, bus_error_t *err);
int gw_user_create(
    gw_request_t *r, const char *email, json_t *props, json_t **out, bus_error_t *err);
int gw_user_modify(
    gw_request_t *r, const char *email, json_t *props, json_t **out, bus_error_t *err);
int gw_user_delete(gw_request_t *r, const char *email, bool purge, bus_error_t *err);

//  Keypairs (domain admins for users of their domain; a user its own).
int gw_keypair_list(gw_request_t *r, json_t *args, json_t **out, bus_error_t *err);
int
gw_keypair_get(gw_request_t *r, const char *access_key, json_t **out, bus_error_t *err);
int gw_keypair_create(
    gw_request_t *r, const char *email, json_t *props, json_t **out, bus_error_t *err);
int gw_keypair_modify(gw_request_t *r,
                      const char *access_key,
                      json_t *props,
                      json_t **out,
                      bus_error_t *err);
int gw_keypair_delete(gw_request_t *r, const char *access_key, bus_error_t *err);

//  Resource policies: kind is "keypair", "user" or "project" (superadmin
//  writes; everyone reads).
int gw_policy_list(gw_request_t *r, const char *kind, json_t **out, bus_error_t *err);
int gw_policy_get(
    gw_request_t *r, const char *kind, const char *name, json_t **out, bus_error_t *err);
int gw_policy_create(gw_request_t *r,
                     const char *kind,
                     const char *name,
                     json_t *props,
                     json_t **out,
                     bus_error_t *err);
int gw_policy_modify(gw_request_t *r,
                     const char *kind,
                     const char *name,
                     json_t *props,
                     json_t **out,
                     bus_error_t *err);
int
gw_policy_delete(gw_request_t *r, const char *kind, const char *name, bus_error_t *err);

//  Maps a status to the GraphQL/REST error message prefix.
const char *gw_admin_status_message(int status);

#endif
