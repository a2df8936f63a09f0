/*  =========================================================================
    gw_gql_admin - the GraphQL root fields of the gateway's own records

    Queries and mutations on domains, projects (groups), users, keypairs,
    resource policies, images, resource groups, presets and the caller's
    virtual folders: each resolver reads its arguments, calls the operation
    of gw_admin.h (or gw_vfolder.h) on the request's context
    (gw_request_ctx) and shapes the answer (a page, a single object or JSON
    null, a mutation's {ok, msg, item}). One table per record kind;
    gw_agent and gw_compute_session, whose data lives in the scheduler,
    keep theirs. gw_gql executes them all.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  A list operation's result, or NULL with err.
static json_t *
s_list(gw_admin_list_fn *fn, gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    return fn(gw_request_ctx(r), args, &out, err) == BUS_OK ? out : NULL;
}

//  The {items, total_count} page of a *_list field.
static json_t *
s_page(gw_admin_list_fn *fn, gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *all = s_list(fn, r, args, err);
    return all ? gw_gql_page(all, args, err) : NULL;
}

//  ---------------------------------------------------------------------------
//  Queries

static json_t *
q_domains(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return gw_gql_hosts_listed(s_list(gw_domain_list, r, args, err));
}

static json_t *
q_domain(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_domain_get(gw_request_ctx(r), gw_gql_arg(args, "name"), &out, err);
    return gw_gql_single(rc, gw_gql_hosts_listed(out));
}

static json_t *
q_groups(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return gw_gql_hosts_listed(s_list(gw_group_list, r, args, err));
}

static json_t *
q_group(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_group_get(gw_request_ctx(r), gw_gql_arg(args, "id"), &out, err);
    return gw_gql_single(rc, gw_gql_hosts_listed(out));
}

static json_t *
q_groups_by_name(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *all = gw_gql_hosts_listed(s_list(gw_group_list, r, args, err));
    const char *name = gw_gql_arg(args, "name");
    if (!all || !name)
        return all;
    json_t *matches = json_array();
    size_t index;
    json_t *group;
    json_array_foreach(all, index, group)
    {
        if (strcmp(json_string_value(json_object_get(group, "name")), name) == 0)
            json_array_append(matches, group);
    }
    json_decref(all);
    return matches;
}

static json_t *
q_users(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return s_list(gw_user_list, r, args, err);
}

//  A *_list page in SQL when it can be, else the whole list paged here.
static json_t *
s_page_table(const gw_gql_table_t *table,
             gw_admin_list_fn *fn,
             gw_request_t *r,
             json_t *args,
             bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_gql_page_table(r, args, table, &out, err);
    return rc == 0 ? out : rc < 0 ? NULL : s_page(fn, r, args, err);
}

static json_t *
q_user_list(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return s_page_table(&gw_user_table, gw_user_list, r, args, err);
}

static json_t *
q_user(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_user_get(gw_request_ctx(r), gw_gql_arg(args, "email"), &out, err);
    return gw_gql_single(rc, out);
}

static json_t *
q_user_from_uuid(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc =
        gw_user_get_by_uuid(gw_request_ctx(r), gw_gql_arg(args, "user_id"), &out, err);
    return gw_gql_single(rc, out);
}

static json_t *
q_keypairs(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return s_list(gw_keypair_list, r, args, err);
}

static json_t *
q_keypair_list(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return s_page_table(&gw_keypair_table, gw_keypair_list, r, args, err);
}

static json_t *
q_keypair(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_keypair_get(gw_request_ctx(r), gw_gql_arg(args, "access_key"), &out, err);
    return gw_gql_single(rc, out);
}

#define POLICY_RESOLVERS(kind)                                                           \
    static json_t *q_##kind##_policies(gw_request_t *r, json_t *args, bus_error_t *err)  \
    {                                                                                    \
        (void) args;                                                                     \
        json_t *out = NULL;                                                              \
        return gw_policy_list(gw_request_ctx(r), #kind, &out, err) == BUS_OK             \
                   ? gw_gql_hosts_listed(out)                                            \
                   : NULL;                                                               \
    }                                                                                    \
    static json_t *q_##kind##_policy(gw_request_t *r, json_t *args, bus_error_t *err)    \
    {                                                                                    \
        json_t *out = NULL;                                                              \
        int rc = gw_policy_get(gw_request_ctx(r), #kind, gw_gql_arg(args, "name"), &out, \
                               err);                                                     \
        return gw_gql_single(rc, gw_gql_hosts_listed(out));                              \
    }                                                                                    \
    static json_t *m_create_##kind##_policy(gw_request_t *r, json_t *args,               \
                                            bus_error_t *err)                            \
    {                                                                                    \
        json_t *out = NULL;                                                              \
        int rc = gw_policy_create(gw_request_ctx(r), #kind, gw_gql_arg(args, "name"),    \
                                  json_object_get(args, "props"), &out, err);            \
        return gw_gql_mutation(rc, "resource_policy", out, err);                         \
    }                                                                                    \
    static json_t *m_modify_##kind##_policy(gw_request_t *r, json_t *args,               \
                                            bus_error_t *err)                            \
    {                                                                                    \
        json_t *out = NULL;                                                              \
        int rc = gw_policy_modify(gw_request_ctx(r), #kind, gw_gql_arg(args, "name"),    \
                                  json_object_get(args, "props"), &out, err);            \
        return gw_gql_mutation(rc, NULL, out, err);                                      \
    }                                                                                    \
    static json_t *m_delete_##kind##_policy(gw_request_t *r, json_t *args,               \
                                            bus_error_t *err)                            \
    {                                                                                    \
        return gw_gql_mutation(                                                          \
            gw_policy_delete(gw_request_ctx(r), #kind, gw_gql_arg(args, "name"), err),   \
            NULL, NULL, err);                                                            \
    }

POLICY_RESOLVERS(keypair)
POLICY_RESOLVERS(user)
POLICY_RESOLVERS(project)

//  ---------------------------------------------------------------------------
//  Mutations

static json_t *
m_create_domain(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_domain_create(gw_request_ctx(r), gw_gql_arg(args, "name"),
                              json_object_get(args, "props"), &out, err);
    return gw_gql_mutation(rc, "domain", out, err);
}

static json_t *
m_modify_domain(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_domain_modify(gw_request_ctx(r), gw_gql_arg(args, "name"),
                              json_object_get(args, "props"), &out, err);
    return gw_gql_mutation(rc, "domain", out, err);
}

static json_t *
m_delete_domain(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return gw_gql_mutation(
        gw_domain_delete(gw_request_ctx(r), gw_gql_arg(args, "name"), false, err), NULL,
        NULL, err);
}

static json_t *
m_purge_domain(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return gw_gql_mutation(
        gw_domain_delete(gw_request_ctx(r), gw_gql_arg(args, "name"), true, err), NULL,
        NULL, err);
}

static json_t *
m_create_group(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_group_create(gw_request_ctx(r), gw_gql_arg(args, "name"),
                             json_object_get(args, "props"), &out, err);
    return gw_gql_mutation(rc, "group", out, err);
}

static json_t *
m_modify_group(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_group_modify(gw_request_ctx(r), gw_gql_arg(args, "gid"),
                             json_object_get(args, "props"), &out, err);
    return gw_gql_mutation(rc, "group", out, err);
}

static json_t *
m_delete_group(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return gw_gql_mutation(
        gw_group_delete(gw_request_ctx(r), gw_gql_arg(args, "gid"), false, err), NULL,
        NULL, err);
}

static json_t *
m_purge_group(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return gw_gql_mutation(
        gw_group_delete(gw_request_ctx(r), gw_gql_arg(args, "gid"), true, err), NULL,
        NULL, err);
}

static json_t *
m_create_user(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_user_create(gw_request_ctx(r), gw_gql_arg(args, "email"),
                            json_object_get(args, "props"), &out, err);
    return gw_gql_mutation(rc, "user", out, err);
}

static json_t *
m_modify_user(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_user_modify(gw_request_ctx(r), gw_gql_arg(args, "email"),
                            json_object_get(args, "props"), &out, err);
    return gw_gql_mutation(rc, "user", out, err);
}

static json_t *
m_delete_user(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return gw_gql_mutation(
        gw_user_delete(gw_request_ctx(r), gw_gql_arg(args, "email"), false, err), NULL,
        NULL, err);
}

static json_t *
m_purge_user(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return gw_gql_mutation(
        gw_user_delete(gw_request_ctx(r), gw_gql_arg(args, "email"), true, err), NULL,
        NULL, err);
}

static json_t *
m_create_keypair(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_keypair_create(gw_request_ctx(r), gw_gql_arg(args, "user_id"),
                               json_object_get(args, "props"), &out, err);
    return gw_gql_mutation(rc, "keypair", out, err);
}

static json_t *
m_modify_keypair(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_keypair_modify(gw_request_ctx(r), gw_gql_arg(args, "access_key"),
                               json_object_get(args, "props"), &out, err);
    return gw_gql_mutation(rc, "keypair", out, err);
}

static json_t *
m_delete_keypair(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return gw_gql_mutation(
        gw_keypair_delete(gw_request_ctx(r), gw_gql_arg(args, "access_key"), err), NULL,
        NULL, err);
}

const gw_gql_root_t gw_gql_admin_roots[] = {
    {"query", "domains", q_domains},
    {"query", "domain", q_domain},
    {"query", "groups", q_groups},
    {"query", "group", q_group},
    {"query", "groups_by_name", q_groups_by_name},
    {"query", "users", q_users},
    {"query", "user_list", q_user_list},
    {"query", "user", q_user},
    {"query", "user_from_uuid", q_user_from_uuid},
    {"query", "keypairs", q_keypairs},
    {"query", "keypair_list", q_keypair_list},
    {"query", "keypair", q_keypair},
    {"query", "keypair_resource_policies", q_keypair_policies},
    {"query", "keypair_resource_policy", q_keypair_policy},
    {"query", "user_resource_policies", q_user_policies},
    {"query", "user_resource_policy", q_user_policy},
    {"query", "project_resource_policies", q_project_policies},
    {"query", "project_resource_policy", q_project_policy},
    {"mutation", "create_domain", m_create_domain},
    {"mutation", "modify_domain", m_modify_domain},
    {"mutation", "delete_domain", m_delete_domain},
    {"mutation", "purge_domain", m_purge_domain},
    {"mutation", "create_group", m_create_group},
    {"mutation", "modify_group", m_modify_group},
    {"mutation", "delete_group", m_delete_group},
    {"mutation", "purge_group", m_purge_group},
    {"mutation", "create_user", m_create_user},
    {"mutation", "modify_user", m_modify_user},
    {"mutation", "delete_user", m_delete_user},
    {"mutation", "purge_user", m_purge_user},
    {"mutation", "create_keypair", m_create_keypair},
    {"mutation", "modify_keypair", m_modify_keypair},
    {"mutation", "delete_keypair", m_delete_keypair},
    {"mutation", "create_keypair_resource_policy", m_create_keypair_policy},
    {"mutation", "modify_keypair_resource_policy", m_modify_keypair_policy},
    {"mutation", "delete_keypair_resource_policy", m_delete_keypair_policy},
    {"mutation", "create_user_resource_policy", m_create_user_policy},
    {"mutation", "modify_user_resource_policy", m_modify_user_policy},
    {"mutation", "delete_user_resource_policy", m_delete_user_policy},
    {"mutation", "create_project_resource_policy", m_create_project_policy},
    {"mutation", "modify_project_resource_policy", m_modify_project_policy},
    {"mutation", "delete_project_resource_policy", m_delete_project_policy},
    {NULL, NULL, NULL},
};

//  ---------------------------------------------------------------------------
//  Images (gw_image)

static json_t *
q_images(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    return gw_image_list(gw_request_ctx(r), args, &out, err) == BUS_OK ? out : NULL;
}

static json_t *
q_image(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_image_get(gw_request_ctx(r), gw_gql_arg(args, "reference"),
                          gw_gql_arg(args, "architecture"), &out, err);
    if (rc == BUS_STATUS_INVALID)
        return NULL;
    return gw_gql_single(rc, out);
}

static json_t *
m_alias_image(gw_request_t *r, json_t *args, bus_error_t *err)
{
    int rc =
        gw_image_alias(gw_request_ctx(r), gw_gql_arg(args, "alias"),
                       gw_gql_arg(args, "target"), gw_gql_arg(args, "architecture"), err);
    return gw_gql_mutation(rc, NULL, NULL, err);
}

static json_t *
m_dealias_image(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return gw_gql_mutation(
        gw_image_dealias(gw_request_ctx(r), gw_gql_arg(args, "alias"), err), NULL, NULL,
        err);
}

static json_t *
m_forget_image(gw_request_t *r, json_t *args, bus_error_t *err)
{
    int rc = gw_image_forget(gw_request_ctx(r), gw_gql_arg(args, "reference"),
                             gw_gql_arg(args, "architecture"), err);
    return gw_gql_mutation(rc, NULL, NULL, err);
}

//  Backend.AI's rescan_images: {ok, msg, task_id}, the task's progress on
//  /events/background-task (gw_image_rescan).
static json_t *
m_rescan_images(gw_request_t *r, json_t *args, bus_error_t *err)
{
    char id[GW_BGTASK_ID_SIZE];
    int rc = gw_image_rescan_start(r, gw_gql_arg(args, "registry"), id, err);
    return gw_gql_mutation(rc, "task_id", rc == BUS_OK ? json_string(id) : NULL, err);
}

const gw_gql_root_t gw_image_gql[] = {
    {"query", "images", q_images},
    {"query", "image", q_image},
    {"mutation", "alias_image", m_alias_image},
    {"mutation", "dealias_image", m_dealias_image},
    {"mutation", "forget_image", m_forget_image},
    {"mutation", "rescan_images", m_rescan_images},
    {NULL, NULL, NULL},
};

//  ---------------------------------------------------------------------------
//  Resource groups (gw_sgroup)

static json_t *
q_scaling_groups(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    return gw_sgroup_list(gw_request_ctx(r), args, &out, err) == BUS_OK ? out : NULL;
}

static json_t *
q_scaling_group(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_sgroup_get(gw_request_ctx(r), gw_gql_arg(args, "name"), &out, err);
    return rc == BUS_OK || rc == BUS_STATUS_NOT_FOUND ? gw_gql_single(rc, out) : NULL;
}

#define SGROUP_FOR(kind, arg)                                                            \
    static json_t *q_scaling_groups_for_##kind(gw_request_t *r, json_t *args,            \
                                               bus_error_t *err)                         \
    {                                                                                    \
        json_t *out = NULL;                                                              \
        int rc = gw_sgroup_list_for(gw_request_ctx(r), #kind, gw_gql_arg(args, arg),     \
                                    args, &out, err);                                    \
        return rc == BUS_OK ? out : NULL;                                                \
    }

SGROUP_FOR(domain, "domain")
SGROUP_FOR(user_group, "user_group")
SGROUP_FOR(keypair, "access_key")

static json_t *
m_create_scaling_group(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_sgroup_create(gw_request_ctx(r), gw_gql_arg(args, "name"),
                              json_object_get(args, "props"), &out, err);
    return gw_gql_mutation(rc, "scaling_group", out, err);
}

static json_t *
m_modify_scaling_group(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_sgroup_modify(gw_request_ctx(r), gw_gql_arg(args, "name"),
                              json_object_get(args, "props"), &out, err);
    return gw_gql_mutation(rc, "scaling_group", out, err);
}

static json_t *
m_delete_scaling_group(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return gw_gql_mutation(
        gw_sgroup_delete(gw_request_ctx(r), gw_gql_arg(args, "name"), err), NULL, NULL,
        err);
}

#define SGROUP_LINK(kind, arg)                                                           \
    static json_t *m_associate_with_##kind(gw_request_t *r, json_t *args,                \
                                           bus_error_t *err)                             \
    {                                                                                    \
        int rc = gw_sgroup_associate(gw_request_ctx(r), #kind,                           \
                                     gw_gql_arg(args, "scaling_group"),                  \
                                     gw_gql_arg(args, arg), true, err);                  \
        return gw_gql_mutation(rc, NULL, NULL, err);                                     \
    }                                                                                    \
    static json_t *m_disassociate_with_##kind(gw_request_t *r, json_t *args,             \
                                              bus_error_t *err)                          \
    {                                                                                    \
        const char *sgroup = gw_gql_arg(args, "scaling_group");                          \
        int rc = sgroup ? gw_sgroup_associate(gw_request_ctx(r), #kind, sgroup,          \
                                              gw_gql_arg(args, arg), false, err)         \
                        : bus_error_set(err, BUS_STATUS_INVALID,                         \
                                        "scaling_group is required");                    \
        return gw_gql_mutation(rc, NULL, NULL, err);                                     \
    }

SGROUP_LINK(domain, "domain")
SGROUP_LINK(user_group, "user_group")
SGROUP_LINK(keypair, "access_key")

static json_t *
m_disassociate_all_with_domain(gw_request_t *r, json_t *args, bus_error_t *err)
{
    int rc = gw_sgroup_associate(gw_request_ctx(r), "domain", NULL,
                                 gw_gql_arg(args, "domain"), false, err);
    return gw_gql_mutation(rc, NULL, NULL, err);
}

static json_t *
m_disassociate_all_with_user_group(gw_request_t *r, json_t *args, bus_error_t *err)
{
    int rc = gw_sgroup_associate(gw_request_ctx(r), "user_group", NULL,
                                 gw_gql_arg(args, "user_group"), false, err);
    return gw_gql_mutation(rc, NULL, NULL, err);
}

const gw_gql_root_t gw_sgroup_gql_roots[] = {
    {"query", "scaling_groups", q_scaling_groups},
    {"query", "scaling_group", q_scaling_group},
    {"query", "scaling_groups_for_domain", q_scaling_groups_for_domain},
    {"query", "scaling_groups_for_user_group", q_scaling_groups_for_user_group},
    {"query", "scaling_groups_for_keypair", q_scaling_groups_for_keypair},
    {"mutation", "create_scaling_group", m_create_scaling_group},
    {"mutation", "modify_scaling_group", m_modify_scaling_group},
    {"mutation", "delete_scaling_group", m_delete_scaling_group},
    {"mutation", "associate_scaling_group_with_domain", m_associate_with_domain},
    {"mutation", "disassociate_scaling_group_with_domain", m_disassociate_with_domain},
    {"mutation", "disassociate_all_scaling_groups_with_domain",
     m_disassociate_all_with_domain},
    {"mutation", "associate_scaling_group_with_user_group", m_associate_with_user_group},
    {"mutation", "disassociate_scaling_group_with_user_group",
     m_disassociate_with_user_group},
    {"mutation", "disassociate_all_scaling_groups_with_group",
     m_disassociate_all_with_user_group},
    {"mutation", "associate_scaling_group_with_keypair", m_associate_with_keypair},
    {"mutation", "disassociate_scaling_group_with_keypair", m_disassociate_with_keypair},
    {NULL, NULL, NULL},
};

//  ---------------------------------------------------------------------------
//  Resource presets (gw_preset)

static json_t *
q_resource_presets(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_preset_list(gw_request_ctx(r), gw_gql_arg(args, "scaling_group_name"),
                            &out, err);
    return rc == BUS_OK ? out : NULL;
}

static json_t *
q_resource_preset(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_preset_get(gw_request_ctx(r), gw_gql_arg(args, "name"), &out, err);
    return rc == BUS_OK || rc == BUS_STATUS_NOT_FOUND ? gw_gql_single(rc, out) : NULL;
}

static json_t *
m_create_resource_preset(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_preset_create(gw_request_ctx(r), gw_gql_arg(args, "name"),
                              json_object_get(args, "props"), &out, err);
    return gw_gql_mutation(rc, "resource_preset", out, err);
}

static json_t *
m_modify_resource_preset(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *out = NULL;
    int rc = gw_preset_modify(gw_request_ctx(r), gw_gql_arg(args, "name"),
                              json_object_get(args, "props"), &out, err);
    return gw_gql_mutation(rc, "resource_preset", out, err);
}

static json_t *
m_delete_resource_preset(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return gw_gql_mutation(
        gw_preset_delete(gw_request_ctx(r), gw_gql_arg(args, "name"), err), NULL, NULL,
        err);
}

const gw_gql_root_t gw_preset_gql_roots[] = {
    {"query", "resource_presets", q_resource_presets},
    {"query", "resource_preset", q_resource_preset},
    {"mutation", "create_resource_preset", m_create_resource_preset},
    {"mutation", "modify_resource_preset", m_modify_resource_preset},
    {"mutation", "delete_resource_preset", m_delete_resource_preset},
    {NULL, NULL, NULL},
};

//  ---------------------------------------------------------------------------
//  Virtual folders (gw_vfolder)

static json_t *
q_vfolders(gw_request_t *r, json_t *args, bus_error_t *err)
{
    gw_ctx_t *ctx = gw_request_ctx(r);
    const char *group = gw_gql_arg(args, "group_id");
    json_t *all = gw_vfolder_list(ctx, group && *group ? group : NULL, "ready");
    if (!all) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the folders");
        return NULL;
    }
    size_t index;
    json_t *item;
    json_array_foreach(all, index, item)
    {
        //  Counted by the storage-proxy, not here: GET /folders/{name} has them.
        json_object_set_new(item, "num_files", json_integer(0));
        json_object_set_new(item, "cur_size", json_integer(0));
        json_object_set_new(item, "unmanaged_path", json_null());
    }
    return all;
}

static json_t *
q_vfolder_list(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *all = q_vfolders(r, args, err);
    return all ? gw_gql_page(all, args, err) : NULL;
}

const gw_gql_root_t gw_vfolder_gql[] = {
    {"query", "vfolder_list", q_vfolder_list},
    {"query", "vfolders", q_vfolders},
    {NULL, NULL, NULL},
};
