/*  =========================================================================
    gw_rest - REST handlers over the admin operations: the /admin/v1
    collection/item pair driven by a table, and Backend.AI's
    /scaling-groups and /resource/presets

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

//  The table's operations take the request, because a resource policy's
//  kind is in the path; the others are the admin operations on the
//  request's context (gw_request_ctx).
#define REST_ADAPT(prefix)                                                               \
    static int s_##prefix##_list(gw_request_t *r, json_t *args, json_t **out,            \
                                 bus_error_t *err)                                       \
    {                                                                                    \
        return gw_##prefix##_list(gw_request_ctx(r), args, out, err);                    \
    }                                                                                    \
    static int s_##prefix##_get(gw_request_t *r, const char *key, json_t **out,          \
                                bus_error_t *err)                                        \
    {                                                                                    \
        return gw_##prefix##_get(gw_request_ctx(r), key, out, err);                      \
    }                                                                                    \
    static int s_##prefix##_create(gw_request_t *r, const char *key, json_t *props,      \
                                   json_t **out, bus_error_t *err)                       \
    {                                                                                    \
        return gw_##prefix##_create(gw_request_ctx(r), key, props, out, err);            \
    }                                                                                    \
    static int s_##prefix##_modify(gw_request_t *r, const char *key, json_t *props,      \
                                   json_t **out, bus_error_t *err)                       \
    {                                                                                    \
        return gw_##prefix##_modify(gw_request_ctx(r), key, props, out, err);            \
    }

REST_ADAPT(domain)
REST_ADAPT(group)
REST_ADAPT(user)
REST_ADAPT(keypair)

static int
s_domain_remove(gw_request_t *r, const char *key, bool purge, bus_error_t *err)
{
    return gw_domain_delete(gw_request_ctx(r), key, purge, err);
}

static int
s_group_remove(gw_request_t *r, const char *key, bool purge, bus_error_t *err)
{
    return gw_group_delete(gw_request_ctx(r), key, purge, err);
}

static int
s_user_remove(gw_request_t *r, const char *key, bool purge, bus_error_t *err)
{
    return gw_user_delete(gw_request_ctx(r), key, purge, err);
}

//  Keypairs are created for a user (by email) and have no deactivate/purge split.
static int
s_keypair_remove(gw_request_t *r, const char *key, bool purge, bus_error_t *err)
{
    (void) purge;
    return gw_keypair_delete(gw_request_ctx(r), key, err);
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
    return gw_policy_list(gw_request_ctx(r), s_kind(r), out, err);
}

static int
s_policy_get(gw_request_t *r, const char *key, json_t **out, bus_error_t *err)
{
    return gw_policy_get(gw_request_ctx(r), s_kind(r), key, out, err);
}

static int
s_policy_create(
    gw_request_t *r, const char *key, json_t *props, json_t **out, bus_error_t *err)
{
    return gw_policy_create(gw_request_ctx(r), s_kind(r), key, props, out, err);
}

static int
s_policy_modify(
    gw_request_t *r, const char *key, json_t *props, json_t **out, bus_error_t *err)
{
    return gw_policy_modify(gw_request_ctx(r), s_kind(r), key, props, out, err);
}

static int
s_policy_remove(gw_request_t *r, const char *key, bool purge, bus_error_t *err)
{
    (void) purge;
    return gw_policy_delete(gw_request_ctx(r), s_kind(r), key, err);
}

static const rest_resource_t s_domains = {
    "domain",        "name",          s_domain_list,  s_domain_get,
    s_domain_create, s_domain_modify, s_domain_remove};
static const rest_resource_t s_projects = {"project",     "name",         s_group_list,
                                           s_group_get,   s_group_create, s_group_modify,
                                           s_group_remove};
static const rest_resource_t s_users = {"user",       "email",       s_user_list,
                                        s_user_get,   s_user_create, s_user_modify,
                                        s_user_remove};
static const rest_resource_t s_keypairs = {
    "keypair",        "email",          s_keypair_list,  s_keypair_get,
    s_keypair_create, s_keypair_modify, s_keypair_remove};
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

//  ---------------------------------------------------------------------------
//  Backend.AI's REST routes over the same operations

//  GET /scaling-groups?group=<project id or name>
void
gw_sgroup_handle_list(gw_request_t *r)
{
    const char *group = NULL;
    const char *keys[] = {"group", "group_id", "group_name"};
    for (int i = 0; i < 3 && !group; i++)
        group = json_string_value(json_object_get(r->params, keys[i]));
    if (!group) {
        gw_reply_problem(r, "invalid-api-params", "group is required");
        return;
    }
    bus_error_t err = {0};
    char id[GW_UUID_SIZE];
    json_t *names = NULL;
    int rc = gw_sgroup_usable(gw_request_ctx(r), group, id, &names, &err);
    if (rc != BUS_OK) {
        gw_reply_status(r, rc, err.detail);
        return;
    }
    json_t *groups = json_array();
    size_t index;
    json_t *name;
    json_array_foreach(names, index, name)
        json_array_append_new(groups, json_pack("{s:O}", "name", name));
    json_decref(names);
    gw_reply_json(r, 200, json_pack("{s:o}", "scaling_groups", groups));
}

//  GET /scaling-groups/{scaling_group}/wsproxy-version: Backend.AI asks the
//  group's wsproxy for its API version. Ours speaks v2, so a group with a
//  wsproxy (its wsproxy_addr, or the gateway's apps.wsproxy_addr) answers
//  "v2"; one without answers "v1", the legacy proxy inside the manager.
void
gw_sgroup_handle_wsproxy_version(gw_request_t *r)
{
    const char *name = gw_request_path_param(r, "scaling_group");
    bus_error_t err = {0};
    json_t *group = NULL;
    int rc = gw_sgroup_get(gw_request_ctx(r), name, &group, &err);
    if (rc == BUS_OK && !json_is_true(json_object_get(group, "is_active")))
        rc = bus_error_set(&err, BUS_STATUS_NOT_FOUND, "No such scaling group.");
    if (rc != BUS_OK) {
        json_decref(group);
        gw_reply_status(r, rc, err.detail);
        return;
    }
    const char *version = gw_app_token_wsproxy(r, group) ? "v2" : "v1";
    json_decref(group);
    gw_reply_json(r, 200, json_pack("{s:s}", "wsproxy_version", version));
}

//  GET /resource/presets[?scaling_group=X]
void
gw_preset_handle_list(gw_request_t *r)
{
    const char *sgroup = json_string_value(json_object_get(r->params, "scaling_group"));
    json_t *rows = NULL;
    bus_error_t err = {0};
    int rc = gw_preset_list(gw_request_ctx(r), sgroup, &rows, &err);
    if (rc != BUS_OK) {
        gw_reply_status(r, rc, err.detail);
        return;
    }
    json_t *presets = json_array();
    size_t index;
    json_t *row;
    json_array_foreach(rows, index, row)
    {
        json_t *slots = json_loads(
            json_string_value(json_object_get(row, "resource_slots")), 0, NULL);
        json_array_append_new(
            presets, json_pack("{s:O, s:O, s:o}", "name", json_object_get(row, "name"),
                               "shared_memory", json_object_get(row, "shared_memory"),
                               "resource_slots", slots ? slots : json_object()));
    }
    json_decref(rows);
    gw_reply_json(r, 200, json_pack("{s:o}", "presets", presets));
}
