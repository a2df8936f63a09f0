/*  =========================================================================
    gateway_resources_test - resource groups, their access lists, and presets

    Starts the scheduler, the gateway and accounting as real processes and
    drives the gateway as the official client does (signed requests,
    GraphQL at /admin/gql). Covers: a superadmin creating, modifying and
    deleting resource groups (Backend.AI "scaling groups") with scheduler
    and agent-selector validation; associating them with a domain, a
    project and a keypair; GET /scaling-groups?group= giving a user exactly
    the groups it may use (and 404 for a project it is not in); the read
    scopes of superadmin, domain admin and user; wsproxy-version; refusals
    of writes by a domain admin and a user; resource presets with slot
    normalization and errors; GET /resource/presets. The gateway's bootstrap
    makes a resource group "default" for the default domain, so it shows up.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "gateway_client.h"
#include "t.h"

static client_platform_t s_p;

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "gateway_resources", true) == 0);
}

static client_keypair_t s_dadmin, s_user1, s_user2;
static char s_project[64]; //  p1's id; user1 is a member, user2 is not
static char s_user1_uuid[64];

//  A signed GET; the parsed body (caller decrefs) and the status in *status.
static json_t *
s_get(const client_keypair_t *kp, const char *path, int *status)
{
    char *body = NULL;
    *status = client_signed(&s_p, kp, "GET", path, NULL, NULL, &body, NULL);
    json_t *parsed = body ? json_loads(body, 0, NULL) : NULL;
    if (!parsed)
        fprintf(stderr, "# GET %s status=%d body=%s\n", path, *status, body ? body : "");
    free(body);
    return parsed;
}

//  The member called field of data, the answer's "data" object.
static json_t *
s_data(json_t *response, const char *field)
{
    return json_object_get(json_object_get(response, "data"), field);
}

//  The "name" members of a list of objects, joined by ',' (caller frees).
static char *
s_names(json_t *list)
{
    char *out = calloc(1, 1024);
    size_t index;
    json_t *item;
    json_array_foreach(list, index, item)
    {
        if (index)
            strncat(out, ",", 1023 - strlen(out));
        const char *name = json_string_value(json_object_get(item, "name"));
        strncat(out, name ? name : "?", 1023 - strlen(out));
    }
    return out;
}

//  Runs a mutation and returns whether it said ok; its msg goes to msg.
static bool
s_mutate(const client_keypair_t *kp,
         const char *query,
         json_t *variables,
         const char *field,
         char *msg,
         size_t msg_size)
{
    json_t *r = client_gql(&s_p, kp, query, variables);
    json_t *result = s_data(r, field);
    bool ok = json_is_true(json_object_get(result, "ok"));
    if (msg)
        snprintf(msg, msg_size, "%s",
                 json_string_value(json_object_get(result, "msg")) ?: "(no msg)");
    json_decref(r);
    return ok;
}

#define CREATE_SGROUP                                                                    \
    "mutation($name: String!, $input: CreateScalingGroupInput!) {"                       \
    " create_scaling_group(name: $name, props: $input) { ok msg scaling_group {"         \
    " name description is_active driver driver_opts scheduler scheduler_opts } } }"

#define MODIFY_SGROUP                                                                    \
    "mutation($name: String!, $input: ModifyScalingGroupInput!) {"                       \
    " modify_scaling_group(name: $name, props: $input) { ok msg } }"

#define ASSOCIATE(kind, arg, type)                                                       \
    "mutation($scaling_group: String!, $" arg ": " type "!) {"                           \
    " associate_scaling_group_with_" kind "(scaling_group: $scaling_group, " arg         \
    ": $" arg ") { ok msg } }"

#define DISASSOCIATE(kind, arg, type)                                                    \
    "mutation($scaling_group: String!, $" arg ": " type "!) {"                           \
    " disassociate_scaling_group_with_" kind "(scaling_group: $scaling_group, " arg      \
    ": $" arg ") { ok msg } }"

//  Creates a user in default; its uuid in uuid (may be NULL).
static bool
s_create_user(const char *email, const char *role, char *uuid, size_t size)
{
    json_t *r = client_gql(
        &s_p, &s_p.super,
        "mutation($email: String!, $input: UserInput!) {"
        " create_user(email: $email, props: $input) { ok msg user { uuid } } }",
        json_pack("{s:s, s:{s:s, s:s, s:s, s:s, s:b}}", "email", email, "input",
                  "password", "pw-123456", "domain_name", "default", "role", role,
                  "username", email, "need_password_change", 0));
    json_t *result = s_data(r, "create_user");
    bool ok = json_is_true(json_object_get(result, "ok"));
    if (ok && uuid)
        snprintf(
            uuid, size, "%s",
            json_string_value(json_object_get(json_object_get(result, "user"), "uuid")));
    if (!ok)
        fprintf(stderr, "# create_user: %s\n",
                json_string_value(json_object_get(result, "msg")));
    json_decref(r);
    return ok;
}

static void
test_people(void)
{
    T_ASSERT(s_create_user("dadmin@example.com", "admin", NULL, 0));
    T_ASSERT(
        s_create_user("user1@example.com", "user", s_user1_uuid, sizeof s_user1_uuid));
    T_ASSERT(s_create_user("user2@example.com", "user", NULL, 0));
    T_ASSERT(client_keypair_of(&s_p, "dadmin@example.com", &s_dadmin));
    T_ASSERT(client_keypair_of(&s_p, "user1@example.com", &s_user1));
    T_ASSERT(client_keypair_of(&s_p, "user2@example.com", &s_user2));
    //  Project p1 with user1 in it.
    json_t *r = client_gql(&s_p, &s_p.super,
                           "mutation { create_group(name: \"p1\", props: {domain_name:"
                           " \"default\"}) { ok msg group { id } } }",
                           NULL);
    T_ASSERT(client_mutation_ok(r, "create_group"));
    snprintf(s_project, sizeof s_project, "%s",
             json_string_value(json_object_get(
                 json_object_get(s_data(r, "create_group"), "group"), "id")));
    json_decref(r);
    r = client_gql(&s_p, &s_p.super,
                   "mutation($email: String!, $input: ModifyUserInput!) {"
                   " modify_user(email: $email, props: $input) { ok msg } }",
                   json_pack("{s:s, s:{s:[s]}}", "email", "user1@example.com", "input",
                             "group_ids", s_project));
    T_ASSERT(client_mutation_ok(r, "modify_user"));
    json_decref(r);
}

//  user_list with Backend.AI's filter and order minilang, sent as the
//  client's pagination code sends them (variables), and a bad field.
static void
test_list_filter(void)
{
    const char *query =
        "query($limit:Int!, $offset:Int!, $filter:String, $order:String) {"
        " user_list(limit:$limit, offset:$offset, filter:$filter,"
        " order:$order) { items { email } total_count } }";
    json_t *r =
        client_gql(&s_p, &s_p.super, query,
                   json_pack("{s:i, s:i, s:s, s:s}", "limit", 100, "offset", 0, "filter",
                             "email ilike \"%ADMIN%\"", "order", "-email"));
    T_ASSERT(r);
    if (json_object_get(r, "errors")) {
        char *dump = json_dumps(r, 0);
        fprintf(stderr, "# %s\n", dump);
        free(dump);
    }
    T_ASSERT(!json_object_get(r, "errors"));
    json_t *page = s_data(r, "user_list");
    json_t *items = json_object_get(page, "items");
    size_t n = json_array_size(items);
    T_EQ_INT(json_integer_value(json_object_get(page, "total_count")), n);
    T_ASSERT(n >= 2);
    bool dadmin = false;
    for (size_t i = 0; i < n; i++) {
        const char *email =
            json_string_value(json_object_get(json_array_get(items, i), "email"));
        T_ASSERT(email && strcasestr(email, "admin"));
        dadmin = dadmin || strcmp(email, "dadmin@example.com") == 0;
        if (i > 0) {
            const char *before =
                json_string_value(json_object_get(json_array_get(items, i - 1), "email"));
            T_ASSERT(strcmp(before, email) >= 0);
        }
    }
    T_ASSERT(dadmin);
    json_decref(r);
    r = client_gql(&s_p, &s_p.super, query,
                   json_pack("{s:i, s:i, s:s}", "limit", 10, "offset", 0, "filter",
                             "nosuchfield == 1"));
    T_ASSERT(r);
    json_t *errors = json_object_get(r, "errors");
    T_ASSERT(json_array_size(errors) > 0);
    T_CONTAINS(json_string_value(json_object_get(json_array_get(errors, 0), "message")),
               "Unknown/unsupported field name");
    json_decref(r);
}

static void
test_sgroup_crud(void)
{
    //  Created as the official client sends it: options as JSON strings.
    const char *names[] = {"sg-dom", "sg-proj", "sg-kp", "sg-other", "sg-off"};
    for (int i = 0; i < 5; i++) {
        json_t *r = client_gql(
            &s_p, &s_p.super, CREATE_SGROUP,
            json_pack("{s:s, s:{s:s, s:b, s:s, s:s, s:s, s:s}}", "name", names[i],
                      "input", "description", "a group", "is_active", i != 4, "driver",
                      "static", "driver_opts", "{}", "scheduler", "fifo",
                      "scheduler_opts", "{\"agent_selector\": \"dispersed\"}"));
        T_ASSERT(client_mutation_ok(r, "create_scaling_group"));
        json_t *group =
            json_object_get(s_data(r, "create_scaling_group"), "scaling_group");
        T_EQ_STR(json_string_value(json_object_get(group, "name")), names[i]);
        T_EQ_STR(json_string_value(json_object_get(group, "scheduler_opts")),
                 "{\"agent_selector\":\"dispersed\"}");
        T_EQ_STR(json_string_value(json_object_get(group, "driver_opts")), "{}");
        T_ASSERT(json_is_true(json_object_get(group, "is_active")) == (i != 4));
        json_decref(r);
    }
    char msg[256];
    //  A second one of the same name, a bad scheduler, a bad selector, a bad name.
    T_ASSERT(!s_mutate(&s_p.super, CREATE_SGROUP,
                       json_pack("{s:s, s:{}}", "name", "sg-dom", "input"),
                       "create_scaling_group", msg, sizeof msg));
    T_CONTAINS(msg, "already exists");
    T_ASSERT(!s_mutate(
        &s_p.super, CREATE_SGROUP,
        json_pack("{s:s, s:{s:s}}", "name", "sg-x", "input", "scheduler", "random"),
        "create_scaling_group", msg, sizeof msg));
    T_CONTAINS(msg, "scheduler");
    T_ASSERT(!s_mutate(&s_p.super, CREATE_SGROUP,
                       json_pack("{s:s, s:{s:s}}", "name", "sg-x", "input",
                                 "scheduler_opts", "{\"agent_selector\": \"nearest\"}"),
                       "create_scaling_group", msg, sizeof msg));
    T_CONTAINS(msg, "agent_selector");
    T_ASSERT(!s_mutate(
        &s_p.super, CREATE_SGROUP,
        json_pack("{s:s, s:{s:s}}", "name", "sg-x", "input", "driver_opts", "[1, 2]"),
        "create_scaling_group", msg, sizeof msg));
    T_ASSERT(!s_mutate(&s_p.super, CREATE_SGROUP,
                       json_pack("{s:s, s:{}}", "name", "bad name!", "input"),
                       "create_scaling_group", msg, sizeof msg));
    //  Modify, as the CLI's update does (unset options come as null).
    T_ASSERT(
        s_mutate(&s_p.super, MODIFY_SGROUP,
                 json_pack("{s:s, s:{s:s, s:b, s:s, s:n, s:s, s:s}}", "name", "sg-dom",
                           "input", "description", "domain-wide", "is_active", 1,
                           "driver", "static", "driver_opts", "scheduler", "drf",
                           "scheduler_opts", "{\"agent_selector\": \"roundrobin\"}"),
                 "modify_scaling_group", msg, sizeof msg));
    json_t *r =
        client_gql(&s_p, &s_p.super,
                   "query($name: String) { scaling_group(name: $name) { name"
                   " description scheduler scheduler_opts driver_opts is_active } }",
                   json_pack("{s:s}", "name", "sg-dom"));
    json_t *group = s_data(r, "scaling_group");
    T_EQ_STR(json_string_value(json_object_get(group, "description")), "domain-wide");
    T_EQ_STR(json_string_value(json_object_get(group, "scheduler")), "drf");
    T_EQ_STR(json_string_value(json_object_get(group, "scheduler_opts")),
             "{\"agent_selector\":\"roundrobin\"}");
    T_EQ_STR(json_string_value(json_object_get(group, "driver_opts")), "{}");
    json_decref(r);
    T_ASSERT(!s_mutate(
        &s_p.super, MODIFY_SGROUP,
        json_pack("{s:s, s:{s:s}}", "name", "sg-none", "input", "description", "x"),
        "modify_scaling_group", msg, sizeof msg));
    T_ASSERT(!s_mutate(
        &s_p.super, MODIFY_SGROUP,
        json_pack("{s:s, s:{s:s}}", "name", "sg-dom", "input", "scheduler", "sjf"),
        "modify_scaling_group", msg, sizeof msg));
    //  A missing group reads as null.
    r = client_gql(&s_p, &s_p.super, "{ scaling_group(name: \"nope\") { name } }", NULL);
    T_ASSERT(json_is_null(s_data(r, "scaling_group")));
    T_ASSERT(json_object_get(r, "errors") == NULL);
    json_decref(r);
}

static void
test_associations(void)
{
    char msg[256];
    T_ASSERT(
        s_mutate(&s_p.super, ASSOCIATE("domain", "domain", "String"),
                 json_pack("{s:s, s:s}", "scaling_group", "sg-dom", "domain", "default"),
                 "associate_scaling_group_with_domain", msg, sizeof msg));
    T_ASSERT(
        s_mutate(&s_p.super, ASSOCIATE("domain", "domain", "String"),
                 json_pack("{s:s, s:s}", "scaling_group", "sg-off", "domain", "default"),
                 "associate_scaling_group_with_domain", msg, sizeof msg));
    T_ASSERT(s_mutate(
        &s_p.super, ASSOCIATE("user_group", "user_group", "UUID"),
        json_pack("{s:s, s:s}", "scaling_group", "sg-proj", "user_group", s_project),
        "associate_scaling_group_with_user_group", msg, sizeof msg));
    T_ASSERT(s_mutate(&s_p.super, ASSOCIATE("keypair", "access_key", "String"),
                      json_pack("{s:s, s:s}", "scaling_group", "sg-kp", "access_key",
                                s_user1.access_key),
                      "associate_scaling_group_with_keypair", msg, sizeof msg));
    //  Twice, or with things that do not exist: refused with a reason.
    T_ASSERT(
        !s_mutate(&s_p.super, ASSOCIATE("domain", "domain", "String"),
                  json_pack("{s:s, s:s}", "scaling_group", "sg-dom", "domain", "default"),
                  "associate_scaling_group_with_domain", msg, sizeof msg));
    T_CONTAINS(msg, "already associated");
    T_ASSERT(!s_mutate(
        &s_p.super, ASSOCIATE("domain", "domain", "String"),
        json_pack("{s:s, s:s}", "scaling_group", "sg-dom", "domain", "no-such-domain"),
        "associate_scaling_group_with_domain", msg, sizeof msg));
    T_CONTAINS(msg, "No such domain");
    T_ASSERT(!s_mutate(&s_p.super, ASSOCIATE("keypair", "access_key", "String"),
                       json_pack("{s:s, s:s}", "scaling_group", "sg-none", "access_key",
                                 s_user1.access_key),
                       "associate_scaling_group_with_keypair", msg, sizeof msg));
    T_CONTAINS(msg, "No such scaling group");
    //  The lists per target.
    json_t *r = client_gql(
        &s_p, &s_p.super,
        "query($d: String!, $g: UUID!, $k: String!) {"
        " a: scaling_groups_for_domain(domain: $d) { name }"
        " b: scaling_groups_for_user_group(user_group: $g) { name }"
        " c: scaling_groups_for_keypair(access_key: $k) { name }"
        " d: scaling_groups_for_domain(domain: $d, is_active: true) { name } }",
        json_pack("{s:s, s:s, s:s}", "d", "default", "g", s_project, "k",
                  s_user1.access_key));
    char *names = s_names(s_data(r, "a"));
    T_EQ_STR(names, "default,sg-dom,sg-off");
    free(names);
    names = s_names(s_data(r, "b"));
    T_EQ_STR(names, "sg-proj");
    free(names);
    names = s_names(s_data(r, "c"));
    T_EQ_STR(names, "sg-kp");
    free(names);
    names = s_names(s_data(r, "d"));
    T_EQ_STR(names, "default,sg-dom");
    free(names);
    json_decref(r);
    //  user2 may not look at user1's keypair; user1 may look at its own.
    r = client_gql(&s_p, &s_user2,
                   "query($k: String!) { scaling_groups_for_keypair(access_key: $k)"
                   " { name } }",
                   json_pack("{s:s}", "k", s_user1.access_key));
    T_ASSERT(json_array_size(json_object_get(r, "errors")) == 1);
    json_decref(r);
    r = client_gql(&s_p, &s_user1,
                   "query($k: String!) { scaling_groups_for_keypair(access_key: $k)"
                   " { name } }",
                   json_pack("{s:s}", "k", s_user1.access_key));
    names = s_names(s_data(r, "scaling_groups_for_keypair"));
    T_EQ_STR(names, "sg-kp");
    free(names);
    json_decref(r);
}

static void
test_read_scopes(void)
{
    struct {
        const client_keypair_t *kp;
        const char *all, *active;
    } cases[] = {
        {&s_p.super, "default,sg-dom,sg-kp,sg-off,sg-other,sg-proj",
         "default,sg-dom,sg-kp,sg-other,sg-proj"},
        {&s_dadmin, "default,sg-dom,sg-kp,sg-off,sg-proj",
         "default,sg-dom,sg-kp,sg-proj"},
        {&s_user1, "default,sg-dom,sg-kp,sg-off,sg-proj", "default,sg-dom,sg-kp,sg-proj"},
        {&s_user2, "default,sg-dom,sg-off", "default,sg-dom"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *r =
            client_gql(&s_p, cases[i].kp,
                       "query($is_active: Boolean) { all: scaling_groups { name }"
                       " active: scaling_groups(is_active: $is_active) { name } }",
                       json_pack("{s:b}", "is_active", 1));
        char *all = s_names(s_data(r, "all")), *active = s_names(s_data(r, "active"));
        T_EQ_STR(all, cases[i].all);
        T_EQ_STR(active, cases[i].active);
        free(all);
        free(active);
        json_decref(r);
    }
    //  A group the caller may not see reads as null.
    json_t *r =
        client_gql(&s_p, &s_user2, "{ scaling_group(name: \"sg-proj\") { name } }", NULL);
    T_ASSERT(json_is_null(s_data(r, "scaling_group")));
    json_decref(r);
}

static void
test_rest_list(void)
{
    char path[256];
    int status;
    //  user1 in p1: its domain's, p1's and its keypair's active groups.
    snprintf(path, sizeof path, "/scaling-groups?group=%s", s_project);
    json_t *body = s_get(&s_user1, path, &status);
    T_EQ_INT(status, 200);
    char *names = s_names(json_object_get(body, "scaling_groups"));
    T_EQ_STR(names, "default,sg-dom,sg-kp,sg-proj");
    free(names);
    T_EQ_INT(json_object_size(json_array_get(json_object_get(body, "scaling_groups"), 0)),
             1);
    json_decref(body);
    //  By name too.
    body = s_get(&s_user1, "/scaling-groups?group=p1", &status);
    T_EQ_INT(status, 200);
    names = s_names(json_object_get(body, "scaling_groups"));
    T_EQ_STR(names, "default,sg-dom,sg-kp,sg-proj");
    free(names);
    json_decref(body);
    //  user2 is not in p1: no such project.
    body = s_get(&s_user2, path, &status);
    T_EQ_INT(status, 404);
    T_CONTAINS(json_string_value(json_object_get(body, "type")), "object-not-found");
    json_decref(body);
    body = s_get(&s_user1, "/scaling-groups?group=nope", &status);
    T_EQ_INT(status, 404);
    json_decref(body);
    //  The domain admin may name any project of its domain.
    body = s_get(&s_dadmin, "/scaling-groups?group=p1", &status);
    T_EQ_INT(status, 200);
    names = s_names(json_object_get(body, "scaling_groups"));
    T_EQ_STR(names, "default,sg-dom,sg-proj");
    free(names);
    json_decref(body);
    body = s_get(&s_user1, "/scaling-groups", &status);
    T_EQ_INT(status, 400);
    T_CONTAINS(json_string_value(json_object_get(body, "type")), "invalid-api-params");
    json_decref(body);
    //  wsproxy-version: v1 without an address, v2 with one; 404 when unusable.
    body = s_get(&s_user1, "/scaling-groups/sg-dom/wsproxy-version", &status);
    T_EQ_INT(status, 200);
    T_EQ_STR(json_string_value(json_object_get(body, "wsproxy_version")), "v1");
    json_decref(body);
    T_ASSERT(s_mutate(&s_p.super, MODIFY_SGROUP,
                      json_pack("{s:s, s:{s:s}}", "name", "sg-dom", "input",
                                "wsproxy_addr", "http://127.0.0.1:5050"),
                      "modify_scaling_group", NULL, 0));
    body = s_get(&s_user1, "/scaling-groups/sg-dom/wsproxy-version", &status);
    T_EQ_INT(status, 200);
    T_EQ_STR(json_string_value(json_object_get(body, "wsproxy_version")), "v2");
    json_decref(body);
    body = s_get(&s_user1, "/scaling-groups/sg-other/wsproxy-version", &status);
    T_EQ_INT(status, 404);
    json_decref(body);
    body = s_get(&s_user1, "/scaling-groups/sg-off/wsproxy-version", &status);
    T_EQ_INT(status, 404);
    json_decref(body);
}

static void
test_write_refusals(void)
{
    const client_keypair_t *people[] = {&s_dadmin, &s_user1};
    char msg[256];
    for (int i = 0; i < 2; i++) {
        T_ASSERT(!s_mutate(people[i], CREATE_SGROUP,
                           json_pack("{s:s, s:{}}", "name", "sg-mine", "input"),
                           "create_scaling_group", msg, sizeof msg));
        T_CONTAINS(msg, "superadmin");
        T_ASSERT(!s_mutate(
            people[i], MODIFY_SGROUP,
            json_pack("{s:s, s:{s:s}}", "name", "sg-dom", "input", "description", "mine"),
            "modify_scaling_group", msg, sizeof msg));
        T_CONTAINS(msg, "superadmin");
        T_ASSERT(!s_mutate(
            people[i], "mutation { delete_scaling_group(name: \"sg-dom\") { ok msg } }",
            NULL, "delete_scaling_group", msg, sizeof msg));
        T_ASSERT(!s_mutate(
            people[i], ASSOCIATE("domain", "domain", "String"),
            json_pack("{s:s, s:s}", "scaling_group", "sg-other", "domain", "default"),
            "associate_scaling_group_with_domain", msg, sizeof msg));
        T_CONTAINS(msg, "superadmin");
        T_ASSERT(!s_mutate(people[i], DISASSOCIATE("keypair", "access_key", "String"),
                           json_pack("{s:s, s:s}", "scaling_group", "sg-kp", "access_key",
                                     s_user1.access_key),
                           "disassociate_scaling_group_with_keypair", msg, sizeof msg));
        T_ASSERT(!s_mutate(people[i],
                           "mutation { create_resource_preset(name: \"mine\", props:"
                           " {resource_slots: \"{\\\"cpu\\\": 1}\"}) { ok msg } }",
                           NULL, "create_resource_preset", msg, sizeof msg));
        T_CONTAINS(msg, "superadmin");
    }
}

//  The value of column in the first row of a GraphQL list (or object).
static char *
s_read_field(const char *query, const char *root, const char *column)
{
    json_t *r = client_gql(&s_p, &s_p.super, query, NULL);
    json_t *node = s_data(r, root);
    if (json_is_array(node))
        node = json_array_get(node, 0);
    json_t *value = json_object_get(node, column);
    char *text = json_is_string(value)
                     ? strdup(json_string_value(value))
                     : json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
    json_decref(r);
    return text;
}

//  What a person types is stored in Backend.AI's form, or refused: slot
//  maps with binary sizes (domains, projects, keypair policies) and
//  allowed_vfolder_hosts in the forms the 22.03 client sends (a list, one
//  string of names, its command line's Python-written default).
static void
test_slots_and_hosts_as_typed(void)
{
    char msg[256];
    T_ASSERT(s_mutate(&s_p.super,
                      "mutation { create_domain(name: \"typed\", props:"
                      " {total_resource_slots: \"{\\\"mem\\\": \\\"8g\\\","
                      " \\\"cpu\\\": 2}\"}) { ok msg } }",
                      NULL, "create_domain", msg, sizeof msg));
    char *slots = s_read_field("{ domain(name: \"typed\") { total_resource_slots } }",
                               "domain", "total_resource_slots");
    T_EQ_STR(slots, "{\"mem\":\"8589934592\",\"cpu\":\"2\"}");
    free(slots);
    //  the admin lists that once broke on "8g" read it back
    json_t *r =
        client_gql(&s_p, &s_p.super, "{ domains { name total_resource_slots } }", NULL);
    T_ASSERT(json_array_size(s_data(r, "domains")) >= 2);
    json_decref(r);
    //  what cannot be a slot map is refused, and nothing is stored
    T_ASSERT(
        !s_mutate(&s_p.super,
                  "mutation { create_domain(name: \"bad-slots\", props:"
                  " {total_resource_slots: \"{\\\"mem\\\": \\\"8x\\\"}\"}) { ok msg } }",
                  NULL, "create_domain", msg, sizeof msg));
    T_CONTAINS(msg, "total_resource_slots");
    T_ASSERT(!s_mutate(&s_p.super,
                       "mutation { create_domain(name: \"bad-slots\", props:"
                       " {total_resource_slots: \"{\\\"warp\\\": 1}\"}) { ok msg } }",
                       NULL, "create_domain", msg, sizeof msg));
    T_CONTAINS(msg, "Unknown slot type");
    r = client_gql(&s_p, &s_p.super, "{ domain(name: \"bad-slots\") { name } }", NULL);
    T_ASSERT(json_is_null(s_data(r, "domain")));
    json_decref(r);

    //  keypair resource policies: the forms of allowed_vfolder_hosts
    static const struct {
        const char *name, *hosts, *stored;
    } forms[] = {
        {"hosts-list", "[\"local:volume1\", \"nfs:v2\"]",
         "[\"local:volume1\",\"nfs:v2\"]"},
        {"hosts-one", "\"local:volume1\"", "[\"local:volume1\"]"},
        {"hosts-csv", "\"a:1, b:2\"", "[\"a:1\",\"b:2\"]"},
        {"hosts-python", "\"['local']\"", "[\"local\"]"},
        {"hosts-none", "\"\"", "[]"},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        json_t *variables = json_pack("{s:s, s:o}", "name", forms[i].name, "hosts",
                                      json_loads(forms[i].hosts, JSON_DECODE_ANY, NULL));
        bool created =
            s_mutate(&s_p.super,
                     "mutation($name: String!, $hosts: [String]) {"
                     " create_keypair_resource_policy(name: $name, props:"
                     " {default_for_unspecified: \"UNLIMITED\", total_resource_slots:"
                     " \"{\\\"mem\\\": \\\"1GiB\\\"}\", max_concurrent_sessions: 1,"
                     " max_containers_per_session: 1, max_vfolder_count: 1,"
                     " max_vfolder_size: 0, idle_timeout: 0,"
                     " allowed_vfolder_hosts: $hosts}) { ok msg } }",
                     variables, "create_keypair_resource_policy", msg, sizeof msg);
        if (!created)
            printf("# %s: %s\n", forms[i].name, msg);
        T_ASSERT(created);
        char query[256];
        snprintf(query, sizeof query,
                 "{ keypair_resource_policy(name: \"%s\") { allowed_vfolder_hosts"
                 " total_resource_slots } }",
                 forms[i].name);
        char *hosts =
            s_read_field(query, "keypair_resource_policy", "allowed_vfolder_hosts");
        if (!hosts || strcmp(hosts, forms[i].stored) != 0)
            printf("# %s: stored %s\n", forms[i].name, hosts ? hosts : "(null)");
        T_EQ_STR(hosts, forms[i].stored);
        free(hosts);
        slots = s_read_field(query, "keypair_resource_policy", "total_resource_slots");
        T_EQ_STR(slots, "{\"mem\":\"1073741824\"}");
        free(slots);
    }
    //  Newer clients' {host: [permissions]}: kept, answered as the 22.03
    //  list of names, the permissions readable beside it.
    T_ASSERT(s_mutate(&s_p.super,
                      "mutation { create_keypair_resource_policy(name: \"hosts-perms\","
                      " props: {allowed_vfolder_hosts: \"{\\\"local:volume1\\\":"
                      " [\\\"mount-in-session\\\"]}\"}) { ok msg } }",
                      NULL, "create_keypair_resource_policy", msg, sizeof msg));
    char *listed = s_read_field("{ keypair_resource_policy(name: \"hosts-perms\") {"
                                " allowed_vfolder_hosts } }",
                                "keypair_resource_policy", "allowed_vfolder_hosts");
    T_EQ_STR(listed, "[\"local:volume1\"]");
    free(listed);
    listed = s_read_field("{ keypair_resource_policy(name: \"hosts-perms\") {"
                          " allowed_vfolder_host_permissions } }",
                          "keypair_resource_policy", "allowed_vfolder_host_permissions");
    T_EQ_STR(listed, "{\"local:volume1\":[\"mount-in-session\"]}");
    free(listed);
    T_ASSERT(
        !s_mutate(&s_p.super,
                  "mutation { create_keypair_resource_policy(name: \"hosts-bad\", props:"
                  " {allowed_vfolder_hosts: \"{\\\"h\\\": 3}\"}) { ok msg } }",
                  NULL, "create_keypair_resource_policy", msg, sizeof msg));
    T_CONTAINS(msg, "allowed_vfolder_hosts");

    //  A user lists the policies of its own keypairs only; admins all of them.
    const char *list = "{ keypair_resource_policies { name } }";
    json_t *mine = client_gql(&s_p, &s_user1, list, NULL);
    json_t *names = s_data(mine, "keypair_resource_policies");
    T_EQ_INT(json_array_size(names), 1);
    T_EQ_STR(json_string_value(json_object_get(json_array_get(names, 0), "name")),
             "default");
    json_decref(mine);
    json_t *all = client_gql(&s_p, &s_dadmin, list, NULL);
    T_ASSERT(json_array_size(s_data(all, "keypair_resource_policies")) >= 6);
    json_decref(all);
}

static void
test_dissociate_and_delete(void)
{
    char msg[256], path[256];
    T_ASSERT(s_mutate(&s_p.super, DISASSOCIATE("keypair", "access_key", "String"),
                      json_pack("{s:s, s:s}", "scaling_group", "sg-kp", "access_key",
                                s_user1.access_key),
                      "disassociate_scaling_group_with_keypair", msg, sizeof msg));
    T_ASSERT(s_mutate(
        &s_p.super, DISASSOCIATE("user_group", "user_group", "String"),
        json_pack("{s:s, s:s}", "scaling_group", "sg-proj", "user_group", s_project),
        "disassociate_scaling_group_with_user_group", msg, sizeof msg));
    snprintf(path, sizeof path, "/scaling-groups?group=%s", s_project);
    int status;
    json_t *body = s_get(&s_user1, path, &status);
    char *names = s_names(json_object_get(body, "scaling_groups"));
    T_EQ_STR(names, "default,sg-dom");
    free(names);
    json_decref(body);
    T_ASSERT(
        s_mutate(&s_p.super,
                 "mutation($d: String!) {"
                 " disassociate_all_scaling_groups_with_domain(domain: $d) { ok msg } }",
                 json_pack("{s:s}", "d", "default"),
                 "disassociate_all_scaling_groups_with_domain", msg, sizeof msg));
    body = s_get(&s_user1, path, &status);
    T_EQ_INT(json_array_size(json_object_get(body, "scaling_groups")), 0);
    json_decref(body);
    //  Deleting: once, then no more.
    T_ASSERT(s_mutate(&s_p.super,
                      "mutation { delete_scaling_group(name: \"sg-other\") { ok msg } }",
                      NULL, "delete_scaling_group", msg, sizeof msg));
    T_ASSERT(!s_mutate(&s_p.super,
                       "mutation { delete_scaling_group(name: \"sg-other\") { ok msg } }",
                       NULL, "delete_scaling_group", msg, sizeof msg));
    T_CONTAINS(msg, "No such scaling group");
}

#define CREATE_PRESET                                                                    \
    "mutation($name: String!, $input: CreateResourcePresetInput!) {"                     \
    " create_resource_preset(name: $name, props: $input) { ok msg resource_preset {"     \
    " name resource_slots shared_memory } } }"

static void
test_presets(void)
{
    json_t *r = client_gql(&s_p, &s_p.super, CREATE_PRESET,
                           json_pack("{s:s, s:{s:s, s:s}}", "name", "small", "input",
                                     "resource_slots", "{\"cpu\": 2, \"mem\": \"1g\"}",
                                     "shared_memory", "64m"));
    T_ASSERT(client_mutation_ok(r, "create_resource_preset"));
    json_t *preset =
        json_object_get(s_data(r, "create_resource_preset"), "resource_preset");
    T_EQ_STR(json_string_value(json_object_get(preset, "resource_slots")),
             "{\"cpu\":\"2\",\"mem\":\"1073741824\"}");
    T_EQ_STR(json_string_value(json_object_get(preset, "shared_memory")), "67108864");
    json_decref(r);
    r = client_gql(&s_p, &s_p.super, CREATE_PRESET,
                   json_pack("{s:s, s:{s:s, s:s}}", "name", "big", "input",
                             "resource_slots",
                             "{\"cpu\": \"8\", \"mem\": \"64GiB\", \"cuda.shares\": 0.5}",
                             "scaling_group_name", "sg-proj"));
    T_ASSERT(client_mutation_ok(r, "create_resource_preset"));
    json_decref(r);
    //  Refused: unknown slot, bad amount, negative, duplicate, no slots,
    //  unknown group.
    char msg[256];
    const char *bad[][2] = {
        {"{\"cpu\": 1, \"gpu\": 1}", "Unknown slot type: gpu"},
        {"{\"mem\": \"lots\"}", "Cannot convert the slot mem"},
        {"{\"cpu\": -1}", "negative"},
        {"not json", "JSON object"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        T_ASSERT(!s_mutate(&s_p.super, CREATE_PRESET,
                           json_pack("{s:s, s:{s:s}}", "name", "bad", "input",
                                     "resource_slots", bad[i][0]),
                           "create_resource_preset", msg, sizeof msg));
        T_CONTAINS(msg, bad[i][1]);
    }
    T_ASSERT(!s_mutate(&s_p.super, CREATE_PRESET,
                       json_pack("{s:s, s:{s:s}}", "name", "small", "input",
                                 "resource_slots", "{\"cpu\": 1}"),
                       "create_resource_preset", msg, sizeof msg));
    T_CONTAINS(msg, "already exists");
    T_ASSERT(!s_mutate(
        &s_p.super, CREATE_PRESET,
        json_pack("{s:s, s:{s:s}}", "name", "bad", "input", "shared_memory", "1g"),
        "create_resource_preset", msg, sizeof msg));
    T_ASSERT(!s_mutate(&s_p.super, CREATE_PRESET,
                       json_pack("{s:s, s:{s:s, s:s}}", "name", "bad", "input",
                                 "resource_slots", "{}", "shared_memory", "-1"),
                       "create_resource_preset", msg, sizeof msg));
    T_ASSERT(!s_mutate(&s_p.super, CREATE_PRESET,
                       json_pack("{s:s, s:{s:s, s:s}}", "name", "bad", "input",
                                 "resource_slots", "{}", "scaling_group_name", "sg-none"),
                       "create_resource_preset", msg, sizeof msg));
    T_CONTAINS(msg, "No such scaling group");
    //  Modify: only what is sent changes.
    T_ASSERT(s_mutate(&s_p.super,
                      "mutation($name: String!, $input: ModifyResourcePresetInput!) {"
                      " modify_resource_preset(name: $name, props: $input) { ok msg } }",
                      json_pack("{s:s, s:{s:s, s:n}}", "name", "small", "input",
                                "resource_slots", "{\"cpu\": \"0.5\", \"mem\": \"512m\"}",
                                "shared_memory"),
                      "modify_resource_preset", msg, sizeof msg));
    T_ASSERT(!s_mutate(&s_p.super,
                       "mutation { modify_resource_preset(name: \"nope\", props:"
                       " {shared_memory: \"1m\"}) { ok msg } }",
                       NULL, "modify_resource_preset", msg, sizeof msg));
    //  Everyone reads, through GraphQL and REST.
    r = client_gql(&s_p, &s_user1,
                   "{ resource_presets { name resource_slots shared_memory }"
                   " resource_preset(name: \"small\") { resource_slots shared_memory } }",
                   NULL);
    char *names = s_names(s_data(r, "resource_presets"));
    T_EQ_STR(names, "big,small");
    free(names);
    preset = s_data(r, "resource_preset");
    T_EQ_STR(json_string_value(json_object_get(preset, "resource_slots")),
             "{\"cpu\":\"0.5\",\"mem\":\"536870912\"}");
    T_EQ_STR(json_string_value(json_object_get(preset, "shared_memory")), "67108864");
    json_decref(r);
    int status;
    json_t *body = s_get(&s_user1, "/resource/presets", &status);
    T_EQ_INT(status, 200);
    json_t *presets = json_object_get(body, "presets");
    names = s_names(presets);
    T_EQ_STR(names, "big,small");
    free(names);
    json_t *big = json_array_get(presets, 0);
    T_ASSERT(json_is_null(json_object_get(big, "shared_memory")));
    json_t *slots = json_object_get(big, "resource_slots");
    T_EQ_STR(json_string_value(json_object_get(slots, "mem")), "68719476736");
    T_EQ_STR(json_string_value(json_object_get(slots, "cuda.shares")), "0.5");
    T_EQ_STR(json_string_value(json_object_get(slots, "cpu")), "8");
    T_EQ_STR(
        json_string_value(json_object_get(json_array_get(presets, 1), "shared_memory")),
        "67108864");
    json_decref(body);
    //  Per group: that group's and the global ones.
    body = s_get(&s_user1, "/resource/presets?scaling_group=sg-dom", &status);
    names = s_names(json_object_get(body, "presets"));
    T_EQ_STR(names, "small");
    free(names);
    json_decref(body);
    //  Delete.
    T_ASSERT(s_mutate(&s_p.super,
                      "mutation { delete_resource_preset(name: \"small\") { ok msg } }",
                      NULL, "delete_resource_preset", msg, sizeof msg));
    T_ASSERT(!s_mutate(&s_p.super,
                       "mutation { delete_resource_preset(name: \"small\") { ok msg } }",
                       NULL, "delete_resource_preset", msg, sizeof msg));
    r = client_gql(&s_p, &s_user1, "{ resource_preset(name: \"small\") { name } }", NULL);
    T_ASSERT(json_is_null(s_data(r, "resource_preset")));
    json_decref(r);
}

static void
test_stop(void)
{
    T_ASSERT(client_platform_stop(&s_p));
}

int
main(void)
{
    T_RUN(test_start);
    T_RUN(test_people);
    T_RUN(test_list_filter);
    T_RUN(test_sgroup_crud);
    T_RUN(test_associations);
    T_RUN(test_read_scopes);
    T_RUN(test_rest_list);
    T_RUN(test_write_refusals);
    T_RUN(test_slots_and_hosts_as_typed);
    T_RUN(test_dissociate_and_delete);
    T_RUN(test_presets);
    T_RUN(test_stop);
    client_platform_end(&s_p, t_failures > 0);
    return T_DONE();
}
