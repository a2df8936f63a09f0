/*  =========================================================================
    gw_rest - REST admin handlers: one generic collection/item pair driven
    by a table of the admin operations

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

typedef struct {
    const char *singular;  //  for messages
    const char *key_field; //  the body field that names a new item
    int (*list)(gw_request_t *r, json_t *args, json_t **out, bus_error_t *err);
    int (*get)(gw_request_t *r, const char *key, json_t **out, bus_error_t *err);
    int (*create)(
        gw_request_t *r, const char *key, json_t *props, json_t **out, bus_error_t *err);
    int (*modify)(
        gw_request_t *r, const char *key, json_t *props, json_t **out, bus_error_t *err);
    int (*remove)(gw_request_t *r, const char *key, bool purge, bus_error_t *err);
} rest_resource_t;

//  Keypairs are created for a user (by email) and have no deactivate/purge split.
static int
s_keypair_remove(gw_request_t *r, const char *key, bool purge, bus_error_t *err)
{
    (void) purge;
    return gw_keypair_delete(r, key, err);
}

//  Resource policies take their kind from the path.
static const char *
s_kind(gw_request_t *r)
{
    return gw_request_path_param(r, "kind");
}

static int
s_policy_list(gw_request_t *r, json_t *args, json_t **out, bus_error_t *err)
{
    (void) args;
    return gw_policy_list(r, s_kind(r), out, err);
}

static int
s_policy_get(gw_request_t *r, const char *key, json_t **out, bus_error_t *err)
{
    return gw_policy_get(r, s_kind(r), key, out, err);
}

static int
s_policy_create(
    gw_request_t *r, const char *key, json_t *props, json_t **out, bus_error_t *err)
{
    return gw_policy_create(r, s_kind(r), key, props, out, err);
}

static int
s_policy_modify(
    gw_request_t *r, const char *key, json_t *props, json_t **out, bus_error_t *err)
{
    return gw_policy_modify(r, s_kind(r), key, props, out, err);
}

static int
s_policy_remove(gw_request_t *r, const char *key, bool purge, bus_error_t *err)
{
    (void) purge;
    return gw_policy_delete(r, s_kind(r), key, err);
}

static const rest_resource_t s_domains = {
    "domain",         "name",           gw_domain_list,  gw_domain_get,
    gw_domain_create, gw_domain_modify, gw_domain_delete};
static const rest_resource_t s_projects = {
    "project",       "name",          gw_group_list,  gw_group_get,
    gw_group_create, gw_group_modify, gw_group_delete};
static const rest_resource_t s_users = {"user",        "email",        gw_user_list,
                                        gw_user_get,   gw_user_create, gw_user_modify,
                                        gw_user_delete};
static const rest_resource_t s_keypairs = {
    "keypair",         "email",           gw_keypair_list, gw_keypair_get,
    gw_keypair_create, gw_keypair_modify, s_keypair_remove};
static const rest_resource_t s_policies = {
    "resource policy", "name",          s_policy_list,  s_policy_get,
    s_policy_create,   s_policy_modify, s_policy_remove};

static void
s_answer(gw_request_t *r, int rc, int status, json_t *out, const bus_error_t *err)
{
    if (rc == BUS_OK)
        gw_reply_json(r, status, out ? out : json_object());
    else {
        json_decref(out);
        gw_reply_status(r, rc, err->detail);
    }
}

//  GET and POST on a collection.
static void
s_collection(gw_request_t *r, const rest_resource_t *resource)
{
    json_t *out = NULL;
    bus_error_t err = {0};
    if (strcmp(r->method, "GET") == 0 || strcmp(r->method, "HEAD") == 0) {
        int rc = resource->list(r, r->params, &out, &err);
        if (rc == BUS_OK)
            out = json_pack("{s:o}", "items", out);
        s_answer(r, rc, 200, out, &err);
        return;
    }
    const char *key = json_string_value(json_object_get(r->params, resource->key_field));
    if (!key) {
        char detail[128];
        snprintf(detail, sizeof detail, "%s: a string is required", resource->key_field);
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    //  The rest of the body are the new item's properties.
    json_t *props = json_deep_copy(r->params);
    json_object_del(props, resource->key_field);
    int rc = resource->create(r, key, props, &out, &err);
    json_decref(props);
    s_answer(r, rc, 201, out, &err);
}

//  GET, PATCH and DELETE on an item.
static void
s_item(gw_request_t *r, const rest_resource_t *resource)
{
    const char *key = gw_request_path_param(r, "key");
    json_t *out = NULL;
    bus_error_t err = {0};
    int rc;
    if (strcmp(r->method, "PATCH") == 0)
        rc = resource->modify(r, key, r->params, &out, &err);
    else if (strcmp(r->method, "DELETE") == 0) {
        bool purge = false;
        char detail[128];
        if (!gw_params_bool(r->params, "purge", &purge, detail, sizeof detail)) {
            gw_reply_problem(r, "invalid-api-params", detail);
            return;
        }
        rc = resource->remove(r, key, purge, &err);
    } else
        rc = resource->get(r, key, &out, &err);
    s_answer(r, rc, 200, out, &err);
}

void
gw_rest_domains(gw_request_t *r)
{
    s_collection(r, &s_domains);
}

void
gw_rest_domain(gw_request_t *r)
{
    s_item(r, &s_domains);
}

void
gw_rest_projects(gw_request_t *r)
{
    s_collection(r, &s_projects);
}

void
gw_rest_project(gw_request_t *r)
{
    s_item(r, &s_projects);
}

void
gw_rest_users(gw_request_t *r)
{
    s_collection(r, &s_users);
}

void
gw_rest_user(gw_request_t *r)
{
    s_item(r, &s_users);
}

void
gw_rest_keypairs(gw_request_t *r)
{
    s_collection(r, &s_keypairs);
}

void
gw_rest_keypair(gw_request_t *r)
{
    s_item(r, &s_keypairs);
}

void
gw_rest_policies(gw_request_t *r)
{
    s_collection(r, &s_policies);
}

void
gw_rest_policy(gw_request_t *r)
{
    s_item(r, &s_policies);
}
