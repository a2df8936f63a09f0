/*  =========================================================================
    gateway_test - the gateway as the official client meets it

    Starts the scheduler (hub and registry), the gateway and accounting as
    real processes and drives the gateway with a client of our own that
    signs requests exactly as the official one does (gw_auth_signature).
    Covers: signature failures (tampered path and query, wrong key, stale
    date, unsupported version, malformed header, inactive keypair); the
    GraphQL admin API; the permission matrix of superadmin, domain admin and
    user over the admin operations, in their own domain and another; the
    rate limit and its headers; the browser login cookie; bad input; and
    the access log that accounting keeps.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "gateway_client.h"
#include "t.h"

static client_platform_t s_p;

//  ---------------------------------------------------------------------------

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "gateway", true) == 0);
}

static void
test_signature_checks(void)
{
    char *body = NULL;
    //  Unsigned: 401.
    T_EQ_INT(harness_http(s_p.api, "GET", "/auth/role", NULL, &body, CLIENT_HTTP_MS),
             401);
    T_CONTAINS(body, "auth-failed");
    free(body);
    //  Signed right: 200.
    body = NULL;
    T_EQ_INT(
        client_signed(&s_p, &s_p.super, "GET", "/auth/role", NULL, NULL, &body, NULL),
        200);
    T_CONTAINS(body, "\"global_role\":\"superadmin\"");
    free(body);
    //  Query strings are signed too: change either side and it fails.
    body = NULL;
    client_sign_opts_t tampered_query = {.sign_path = "/auth/role?group=a"};
    T_EQ_INT(client_signed(&s_p, &s_p.super, "GET", "/auth/role?group=b", NULL,
                           &tampered_query, &body, NULL),
             401);
    free(body);
    client_sign_opts_t tampered_path = {.sign_path = "/auth/test"};
    T_EQ_INT(client_signed(&s_p, &s_p.super, "GET", "/auth/role", NULL, &tampered_path,
                           NULL, NULL),
             401);
    client_sign_opts_t wrong_key = {.secret = "not-the-secret-key-0123456789abcdefghij"};
    T_EQ_INT(client_signed(&s_p, &s_p.super, "GET", "/auth/role", NULL, &wrong_key, NULL,
                           NULL),
             401);
    //  Twenty minutes off: a date/time sync error, 400.
    body = NULL;
    client_sign_opts_t stale = {.date_offset_s = -1200};
    T_EQ_INT(
        client_signed(&s_p, &s_p.super, "GET", "/auth/role", NULL, &stale, &body, NULL),
        400);
    T_CONTAINS(body, "invalid-auth-params");
    free(body);
    body = NULL;
    client_sign_opts_t version = {.version = "v99.20990101"};
    T_EQ_INT(
        client_signed(&s_p, &s_p.super, "GET", "/auth/role", NULL, &version, &body, NULL),
        400);
    T_CONTAINS(body, "generic-bad-request");
    free(body);
    body = NULL;
    client_sign_opts_t garbage = {
        .authorization = "BackendAI signMethod=HMAC-SHA256, credential=nocolon"};
    T_EQ_INT(
        client_signed(&s_p, &s_p.super, "GET", "/auth/role", NULL, &garbage, &body, NULL),
        400);
    T_CONTAINS(body, "invalid-auth-params");
    free(body);
    client_keypair_t unknown = {"AKIAUNKNOWNUNKNOWN00", "x"};
    T_EQ_INT(client_signed(&s_p, &unknown, "GET", "/auth/role", NULL, NULL, NULL, NULL),
             401);
    //  A body over api.max_body_bytes (1 MiB by default): 413 as problem+json.
    size_t big = 1100 * 1024;
    char *huge = malloc(big + 1);
    memset(huge, ' ', big);
    huge[big] = 0;
    huge[0] = '{', huge[big - 1] = '}';
    body = NULL;
    T_EQ_INT(
        client_signed(&s_p, &s_p.super, "POST", "/auth/test", huge, NULL, &body, NULL),
        413);
    T_CONTAINS(body, "request-entity-too-large");
    free(body);
    free(huge);
    //  Malformed JSON body on a signed request: invalid-api-params.
    body = NULL;
    T_EQ_INT(client_signed(&s_p, &s_p.super, "POST", "/auth/test", "{\"echo\": ", NULL,
                           &body, NULL),
             400);
    T_CONTAINS(body, "invalid-api-params");
    free(body);
}

//  The people of the permission matrix.
static client_keypair_t s_dadmin, s_user1, s_d2admin, s_user2;

static bool
s_create_user(const client_keypair_t *as,
              const char *email,
              const char *domain,
              const char *role)
{
    json_t *r = client_gql(
        &s_p, as,
        "mutation($email: String!, $input: UserInput!) {"
        " create_user(email: $email, props: $input) { ok msg user { uuid email role"
        " domain_name groups { id name } } } }",
        json_pack("{s:s, s:{s:s, s:s, s:s, s:s, s:b}}", "email", email, "input",
                  "password", "pw-123456", "domain_name", domain, "role", role,
                  "username", email, "need_password_change", 0));
    bool ok = client_mutation_ok(r, "create_user");
    json_decref(r);
    return ok;
}

static void
test_graphql_tenancy(void)
{
    //  A second domain, and people in both.
    json_t *r = client_gql(
        &s_p, &s_p.super,
        "mutation { create_domain(name: \"d2\", props: {description: \"second\","
        " total_resource_slots: \"{}\"}) { ok msg domain { name is_active } } }",
        NULL);
    T_ASSERT(client_mutation_ok(r, "create_domain"));
    T_ASSERT(json_is_true(json_object_get(
        json_object_get(json_object_get(json_object_get(r, "data"), "create_domain"),
                        "domain"),
        "is_active")));
    json_decref(r);
    T_ASSERT(s_create_user(&s_p.super, "dadmin@example.com", "default", "admin"));
    T_ASSERT(s_create_user(&s_p.super, "user1@example.com", "default", "user"));
    T_ASSERT(s_create_user(&s_p.super, "d2admin@example.com", "d2", "admin"));
    T_ASSERT(s_create_user(&s_p.super, "user2@example.com", "d2", "user"));
    T_ASSERT(s_create_user(&s_p.super, "promote@example.com", "default", "user"));
    T_ASSERT(client_keypair_of(&s_p, "dadmin@example.com", &s_dadmin));
    T_ASSERT(client_keypair_of(&s_p, "user1@example.com", &s_user1));
    T_ASSERT(client_keypair_of(&s_p, "d2admin@example.com", &s_d2admin));
    T_ASSERT(client_keypair_of(&s_p, "user2@example.com", &s_user2));

    //  Only the fields asked for come back, with variables substituted.
    r = client_gql(&s_p, &s_p.super,
                   "query($s: String) { users(status: $s) { email role } }",
                   json_pack("{s:s}", "s", "active"));
    json_t *users = json_object_get(json_object_get(r, "data"), "users");
    T_EQ_INT(json_array_size(users), 6);
    T_EQ_INT(json_object_size(json_array_get(users, 0)), 2);
    json_decref(r);

    //  Project membership through modify_group (add, then remove).
    r = client_gql(&s_p, &s_p.super, "{ groups(domain_name: \"default\") { id name } }",
                   NULL);
    const char *gid = json_string_value(json_object_get(
        json_array_get(json_object_get(json_object_get(r, "data"), "groups"), 0), "id"));
    char group_id[64];
    snprintf(group_id, sizeof group_id, "%s", gid ? gid : "");
    json_decref(r);
    r = client_gql(&s_p, &s_p.super, "{ user(email: \"user1@example.com\") { uuid } }",
                   NULL);
    char uuid[64];
    snprintf(uuid, sizeof uuid, "%s",
             json_string_value(json_object_get(
                 json_object_get(json_object_get(r, "data"), "user"), "uuid")));
    json_decref(r);
    const char *modes[] = {"add", "remove"};
    for (int m = 0; m < 2; m++) {
        r = client_gql(
            &s_p, &s_p.super,
            "mutation($g: String!, $u: String!, $m: String!) { modify_group(gid: $g,"
            " props: {user_update_mode: $m, user_uuids: [$u]}) { ok msg } }",
            json_pack("{s:s, s:s, s:s}", "g", group_id, "u", uuid, "m", modes[m]));
        T_ASSERT(client_mutation_ok(r, "modify_group"));
        json_decref(r);
    }

    //  Paginated lists as the CLI asks for them.
    r = client_gql(
        &s_p, &s_p.super,
        "query($limit:Int!, $offset:Int!) { user_list(limit:$limit, offset:$offset) {"
        " items { email } total_count } }",
        json_pack("{s:i, s:i}", "limit", 2, "offset", 1));
    json_t *page = json_object_get(json_object_get(r, "data"), "user_list");
    T_EQ_INT(json_integer_value(json_object_get(page, "total_count")), 6);
    T_EQ_INT(json_array_size(json_object_get(page, "items")), 2);
    json_decref(r);

    //  A syntax error is a GraphQL error with a location, in a 200.
    r = client_gql(&s_p, &s_p.super, "query { users( }", NULL);
    json_t *errors = json_object_get(r, "errors");
    T_ASSERT(json_array_size(errors) == 1);
    T_ASSERT(
        json_integer_value(json_object_get(
            json_array_get(json_object_get(json_array_get(errors, 0), "locations"), 0),
            "line")) == 1);
    json_decref(r);
    //  An unknown root field too.
    r = client_gql(&s_p, &s_p.super, "{ no_such_field { x } }", NULL);
    T_CONTAINS(json_string_value(json_object_get(
                   json_array_get(json_object_get(r, "errors"), 0), "message")),
               "Cannot query field");
    json_decref(r);
}

//  Whether a mutation or query is allowed for kp: true when it succeeds.
static bool
s_can(const client_keypair_t *kp, const char *query, json_t *variables, const char *field)
{
    json_t *r = client_gql(&s_p, kp, query, variables);
    json_t *data = json_object_get(json_object_get(r, "data"), field);
    bool allowed;
    if (json_is_object(data) && json_object_get(data, "ok"))
        allowed = json_is_true(json_object_get(data, "ok"));
    else
        allowed = json_array_size(json_object_get(r, "errors")) == 0 && data &&
                  !json_is_null(data);
    json_decref(r);
    return allowed;
}

static void
test_permission_matrix(void)
{
    const client_keypair_t *people[] = {&s_p.super, &s_dadmin, &s_user1, &s_d2admin};
    const char *names[] = {"superadmin", "default admin", "default user", "d2 admin"};
    //  Expected: superadmin, admin of default, user of default, admin of d2.
    struct {
        const char *what;
        const char *query;
        const char *field;
        bool expect[4];
    } cases[] = {
        {"read a user of default",
         "{ user(email: \"user1@example.com\") { email } }",
         "user",
         {1, 1, 1, 0}},
        {"read a user of d2",
         "{ user(email: \"user2@example.com\") { email } }",
         "user",
         {1, 0, 0, 1}},
        {"modify a user of default",
         "mutation { modify_user(email: \"user1@example.com\", props: {full_name: \"U "
         "One\"})"
         " { ok msg } }",
         "modify_user",
         {1, 1, 0, 0}},
        {"create a project in default",
         "mutation { create_group(name: \"p-%s\", props: {domain_name: \"default\"})"
         " { ok msg } }",
         "create_group",
         {1, 1, 0, 0}},
        {"create a project in d2",
         "mutation { create_group(name: \"q-%s\", props: {domain_name: \"d2\"}) { ok msg "
         "} }",
         "create_group",
         {1, 0, 0, 1}},
        {"create a domain",
         "mutation { create_domain(name: \"x-%s\", props: {}) { ok msg } }",
         "create_domain",
         {1, 0, 0, 0}},
        {"issue a keypair to a user of d2",
         "mutation { create_keypair(user_id: \"user2@example.com\", props: {is_active: "
         "true,"
         " resource_policy: \"default\", rate_limit: 100}) { ok msg keypair { access_key "
         "} } }",
         "create_keypair",
         {1, 0, 0, 1}},
        {"create a keypair resource policy",
         "mutation { create_keypair_resource_policy(name: \"rp-%s\", props:"
         " {max_concurrent_sessions: 3}) { ok msg } }",
         "create_keypair_resource_policy",
         {1, 0, 0, 0}},
        {"read the d2 domain",
         "{ domain(name: \"d2\") { name } }",
         "domain",
         {1, 0, 0, 1}},
        {"make a superadmin",
         "mutation { modify_user(email: \"promote@example.com\", props: {role: "
         "\"superadmin\"})"
         " { ok msg } }",
         "modify_user",
         {1, 0, 0, 0}},
        //  A superadmin's key would make a domain admin of its domain one.
        {"issue a keypair to the superadmin",
         "%1$.0smutation { create_keypair(user_id: \"%2$s\", props: {is_active: false,"
         " resource_policy: \"default\", rate_limit: 100}) { ok msg keypair { access_key "
         "} } }",
         "create_keypair",
         {1, 0, 0, 0}},
        {"change the superadmin's keypair",
         "%1$.0s%2$.0smutation { modify_keypair(access_key: \"%3$s\", props: "
         "{resource_policy:"
         " \"default\"}) { ok msg } }",
         "modify_keypair",
         {1, 0, 0, 0}},
    };
    json_t *me = client_gql(&s_p, &s_p.super, "{ user { email } }", NULL);
    char super_email[128];
    snprintf(super_email, sizeof super_email, "%s",
             json_string_value(json_object_get(
                 json_object_get(json_object_get(me, "data"), "user"), "email")));
    json_decref(me);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int p = 3; p >= 0; p--) { //  superadmin last: its changes stick
            char query[1024], tag[24];
            snprintf(tag, sizeof tag, "%zu%d", c, p);
            //  Each query uses what it needs of: a unique tag, the
            //  superadmin's email and access key.
            snprintf(query, sizeof query, cases[c].query, tag, super_email,
                     s_p.super.access_key);
            bool allowed = s_can(people[p], query, NULL, cases[c].field);
            if (allowed != cases[c].expect[p])
                fprintf(stderr, "# %s by %s: %s, expected %s\n", cases[c].what, names[p],
                        allowed ? "allowed" : "refused",
                        cases[c].expect[p] ? "allowed" : "refused");
            T_ASSERT(allowed == cases[c].expect[p]);
        }
    //  The default domain's admin reads the superadmin's keypair but not its
    //  secret; the superadmin reads it.
    char query[256];
    snprintf(query, sizeof query,
             "{ keypair(access_key: \"%s\") { access_key secret_key } }",
             s_p.super.access_key);
    json_t *kp = client_gql(&s_p, &s_dadmin, query, NULL);
    json_t *read = json_object_get(json_object_get(kp, "data"), "keypair");
    T_EQ_STR(json_string_value(json_object_get(read, "access_key")),
             s_p.super.access_key);
    T_ASSERT(json_is_null(json_object_get(read, "secret_key")));
    json_decref(kp);
    kp = client_gql(&s_p, &s_p.super, query, NULL);
    T_EQ_STR(json_string_value(json_object_get(
                 json_object_get(json_object_get(kp, "data"), "keypair"), "secret_key")),
             s_p.super.secret_key);
    json_decref(kp);
    //  A user may not list users (Backend.AI's users and user_list are admin
    //  queries) but reads itself; a domain admin lists only its domain.
    json_t *r = client_gql(&s_p, &s_user1, "{ users { email } }", NULL);
    T_ASSERT(json_is_null(json_object_get(json_object_get(r, "data"), "users")));
    T_CONTAINS(json_string_value(json_object_get(
                   json_array_get(json_object_get(r, "errors"), 0), "message")),
               "Insufficient privilege");
    json_decref(r);
    r = client_gql(&s_p, &s_user1, "{ user { email } }", NULL);
    T_ASSERT(json_is_string(
        json_object_get(json_object_get(json_object_get(r, "data"), "user"), "email")));
    json_decref(r);
    r = client_gql(&s_p, &s_d2admin, "{ users { email domain_name } }", NULL);
    json_t *users = json_object_get(json_object_get(r, "data"), "users");
    T_EQ_INT(json_array_size(users), 2);
    size_t index;
    json_t *user;
    json_array_foreach(users, index, user)
        T_EQ_STR(json_string_value(json_object_get(user, "domain_name")), "d2");
    json_decref(r);
}

static void
test_rest_admin_api(void)
{
    char *body = NULL;
    T_EQ_INT(client_signed(&s_p, &s_p.super, "POST", "/admin/v1/domains",
                           "{\"name\": \"d3\", \"description\": \"third\"}", NULL, &body,
                           NULL),
             201);
    T_CONTAINS(body, "\"description\":\"third\"");
    free(body);
    body = NULL;
    T_EQ_INT(client_signed(&s_p, &s_p.super, "PATCH", "/admin/v1/domains/d3",
                           "{\"description\": \"3rd\"}", NULL, &body, NULL),
             200);
    T_CONTAINS(body, "\"description\":\"3rd\"");
    free(body);
    body = NULL;
    T_EQ_INT(client_signed(&s_p, &s_p.super, "GET", "/admin/v1/domains", NULL, NULL,
                           &body, NULL),
             200);
    T_CONTAINS(body, "\"name\":\"d3\"");
    free(body);
    //  A domain admin may not create domains: 403 with Backend.AI's slug.
    body = NULL;
    T_EQ_INT(client_signed(&s_p, &s_dadmin, "POST", "/admin/v1/domains",
                           "{\"name\": \"d4\"}", NULL, &body, NULL),
             403);
    T_CONTAINS(body, "generic-forbidden");
    free(body);
    body = NULL;
    T_EQ_INT(client_signed(&s_p, &s_p.super, "GET", "/admin/v1/users/nobody@example.com",
                           NULL, NULL, &body, NULL),
             404);
    T_CONTAINS(body, "object-not-found");
    free(body);
    body = NULL;
    T_EQ_INT(client_signed(&s_p, &s_p.super, "POST", "/admin/v1/users",
                           "{\"password\": \"x\"}", NULL, &body, NULL),
             400);
    T_CONTAINS(body, "invalid-api-params");
    free(body);
    //  A user in the new domain, then both gone again.
    T_EQ_INT(client_signed(&s_p, &s_p.super, "POST", "/admin/v1/users",
                           "{\"email\": \"carol@example.com\", \"password\": \"pw-c\","
                           " \"domain_name\": \"d3\"}",
                           NULL, NULL, NULL),
             201);
    T_EQ_INT(client_signed(&s_p, &s_p.super, "DELETE", "/admin/v1/domains/d3?purge=true",
                           NULL, NULL, NULL, NULL),
             400); //  not empty yet
    T_EQ_INT(client_signed(&s_p, &s_p.super, "DELETE",
                           "/admin/v1/users/carol@example.com?purge=true", NULL, NULL,
                           NULL, NULL),
             200);
    T_EQ_INT(client_signed(&s_p, &s_p.super, "DELETE", "/admin/v1/domains/d3?purge=true",
                           NULL, NULL, NULL, NULL),
             200);
    T_EQ_INT(client_signed(&s_p, &s_p.super, "GET", "/admin/v1/domains/d3", NULL, NULL,
                           NULL, NULL),
             404);
    //  Resource policies by kind.
    T_EQ_INT(client_signed(&s_p, &s_p.super, "POST",
                           "/admin/v1/resource-policies/keypair",
                           "{\"name\": \"tiny\", \"max_concurrent_sessions\": 1}", NULL,
                           NULL, NULL),
             201);
    body = NULL;
    T_EQ_INT(client_signed(&s_p, &s_user2, "GET",
                           "/admin/v1/resource-policies/keypair/tiny", NULL, NULL, &body,
                           NULL),
             200);
    T_CONTAINS(body, "\"max_concurrent_sessions\":1");
    free(body);
}

static void
test_inactive_keypair_is_refused(void)
{
    char query[512];
    snprintf(query, sizeof query,
             "mutation { modify_keypair(access_key: \"%s\", props: {is_active: false})"
             " { ok msg } }",
             s_user2.access_key);
    T_EQ_INT(client_signed(&s_p, &s_user2, "GET", "/auth/role", NULL, NULL, NULL, NULL),
             200);
    T_ASSERT(s_can(&s_p.super, query, NULL, "modify_keypair"));
    char *body = NULL;
    T_EQ_INT(client_signed(&s_p, &s_user2, "GET", "/auth/role", NULL, NULL, &body, NULL),
             401);
    T_CONTAINS(body, "auth-failed");
    free(body);
}

//  Each signed request counts in its keypair's num_queries and last_used,
//  which the keypair query answers (written with the access log's batch).
static void
test_keypair_use_is_counted(void)
{
    const char *query = "{ keypair { num_queries last_used } }";
    json_t *r = client_gql(&s_p, &s_dadmin, query, NULL);
    json_t *kp = json_object_get(json_object_get(r, "data"), "keypair");
    json_int_t before = json_integer_value(json_object_get(kp, "num_queries"));
    json_decref(r);
    for (int i = 0; i < 5; i++)
        T_EQ_INT(
            client_signed(&s_p, &s_dadmin, "GET", "/auth/role", NULL, NULL, NULL, NULL),
            200);
    json_int_t after = before;
    for (int tries = 0; tries < 50 && after < before + 6; tries++) {
        harness_pause_ms(20);
        r = client_gql(&s_p, &s_dadmin, query, NULL);
        kp = json_object_get(json_object_get(r, "data"), "keypair");
        after = json_integer_value(json_object_get(kp, "num_queries"));
        if (after >= before + 6)
            T_ASSERT(json_is_string(json_object_get(kp, "last_used")));
        json_decref(r);
    }
    //  the five, and the first query itself
    T_ASSERT(after >= before + 6);
}

static void
test_rate_limit(void)
{
    char query[512];
    snprintf(query, sizeof query,
             "mutation { modify_keypair(access_key: \"%s\", props: {rate_limit: 3}) { ok "
             "msg } }",
             s_user1.access_key);
    T_ASSERT(s_can(&s_p.super, query, NULL, "modify_keypair"));
    char *headers = NULL;
    for (int i = 0; i < 3; i++) {
        free(headers);
        headers = NULL;
        T_EQ_INT(client_signed(&s_p, &s_user1, "GET", "/auth/role", NULL, NULL, NULL,
                               &headers),
                 200);
    }
    T_CONTAINS(headers, "X-RateLimit-Limit: 3");
    T_CONTAINS(headers, "X-RateLimit-Remaining: 0");
    T_CONTAINS(headers, "X-RateLimit-Window: 900");
    free(headers);
    char *body = NULL;
    T_EQ_INT(client_signed(&s_p, &s_user1, "GET", "/auth/role", NULL, NULL, &body, NULL),
             429);
    T_CONTAINS(body, "rate-limit-exceeded");
    free(body);
}

static void
test_login_cookie(void)
{
    char *body = NULL, *headers = NULL;
    int status =
        harness_http_ex(s_p.api, "POST", "/server/login", NULL, "application/json",
                        "{\"username\": \"dadmin@example.com\", \"password\": \"nope\"}",
                        &body, NULL, CLIENT_HTTP_MS);
    //  200, as Backend.AI's webserver answers a wrong password.
    T_EQ_INT(status, 200);
    T_CONTAINS(body, "\"authenticated\":false");
    free(body);
    body = NULL;
    status = harness_http_ex(
        s_p.api, "POST", "/server/login", NULL, "application/json",
        "{\"username\": \"dadmin@example.com\", \"password\": \"pw-123456\"}", &body,
        &headers, CLIENT_HTTP_MS);
    T_EQ_INT(status, 200);
    T_CONTAINS(body, "\"authenticated\":true");
    T_CONTAINS(headers, "HttpOnly");
    T_CONTAINS(headers, "SameSite=Strict");
    char cookie[128] = "";
    const char *set = headers ? strstr(headers, "backplane_session=") : NULL;
    if (set)
        snprintf(cookie, sizeof cookie, "%.*s", (int) strcspn(set, ";\r\n"), set);
    free(body);
    free(headers);
    T_ASSERT(*cookie);
    //  The cookie alone authenticates, as the user's keypair.
    client_sign_opts_t with_cookie = {.cookie = cookie};
    body = NULL;
    T_EQ_INT(
        client_signed(&s_p, NULL, "GET", "/auth/role", NULL, &with_cookie, &body, NULL),
        200);
    T_CONTAINS(body, "\"domain_role\":\"admin\"");
    free(body);
    //  After logout it does not.
    char cookie_h[160];
    snprintf(cookie_h, sizeof cookie_h, "Cookie: %s", cookie);
    const char *logout_headers[] = {cookie_h, NULL};
    T_EQ_INT(harness_http_ex(s_p.api, "POST", "/server/logout", logout_headers, NULL,
                             NULL, NULL, NULL, CLIENT_HTTP_MS),
             200);
    T_EQ_INT(
        client_signed(&s_p, NULL, "GET", "/auth/role", NULL, &with_cookie, NULL, NULL),
        401);
}

static void
test_stop_and_access_log(void)
{
    //  Accounting follows the gateway's durable access events.
    T_ASSERT(client_platform_stop(&s_p));
    //  Every request is in accounting's access log, refusals with their slug.
    char path[512];
    snprintf(path, sizeof path, "%s/accounting/accounting.db", s_p.dir);
    sqlite3 *db = NULL;
    T_EQ_INT(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *stmt = NULL;
    T_EQ_INT(
        sqlite3_prepare_v2(db,
                           "SELECT count(*), sum(error_type = 'auth-failed'),"
                           " sum(error_type = 'rate-limit-exceeded'),"
                           " sum(path = '/admin/gql' AND status = 200) FROM access_log",
                           -1, &stmt, NULL),
        SQLITE_OK);
    T_EQ_INT(sqlite3_step(stmt), SQLITE_ROW);
    int64_t total = sqlite3_column_int64(stmt, 0),
            refused = sqlite3_column_int64(stmt, 1);
    int64_t limited = sqlite3_column_int64(stmt, 2), gql = sqlite3_column_int64(stmt, 3);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    T_ASSERT(total > 60);
    T_ASSERT(refused >= 5);
    T_EQ_INT(limited, 1);
    T_ASSERT(gql > 40);
    //  No secret ever reached a log.
    FILE *log = fopen(s_p.gateway.log_path, "r");
    char line[HARNESS_LINE_MAX];
    bool leaked = false;
    while (log && fgets(line, sizeof line, log))
        if (strstr(line, s_p.super.secret_key) || strstr(line, "pw-123456"))
            leaked = true;
    if (log)
        fclose(log);
    T_ASSERT(!leaked);
}

int
main(void)
{
    T_RUN(test_start);
    T_RUN(test_signature_checks);
    T_RUN(test_graphql_tenancy);
    T_RUN(test_permission_matrix);
    T_RUN(test_rest_admin_api);
    T_RUN(test_inactive_keypair_is_refused);
    T_RUN(test_keypair_use_is_counted);
    T_RUN(test_rate_limit);
    T_RUN(test_login_cookie);
    T_RUN(test_stop_and_access_log);
    client_platform_end(&s_p, t_failures > 0);
    return T_DONE();
}
