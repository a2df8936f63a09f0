/*  =========================================================================
    session_list_test - GraphQL compute_session_list and compute_session
    answered by the scheduler's SQL are the answers of the in-memory path

    The scheduler, gateway and no agent: sessions go in over the scheduler's
    own session.create (they stay PENDING; some are then cancelled), owned
    by a superadmin, a domain admin, a user of the default domain and a
    user of a second domain, in two projects. Each case asks the gateway,
    as one of them, for a page, and compares its items (in order) and
    total_count with what the gateway answered before the pushdown: every
    session the caller may see, narrowed by status, access_key and group_id,
    then gw_gql_page (the minilang filter, the stable sort, the page) over
    them; and domain_name, which the gateway used to ignore, narrows a
    superadmin's list (anyone else's is one domain's already). The cases cover status
   lists, access_key, group_id, domain_name, filters SQL answers and filters it cannot
   (read in memory), orders both ways on pushed and gateway-only fields, pages past the
   end and the errors; and the scoping of superadmin, domain admin and user. No root or
   containers needed.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../services/gateway/gw_classes.h"
#include "gateway_client.h"
#include "t.h"

#define CALL_MS  15000
#define SESSIONS 48
#define IMAGE    "local.backplane/library/busybox:latest"

static client_platform_t s_p;
static bus_rpc_client_t *s_client;
static client_keypair_t s_dadmin, s_user1, s_user2;

typedef struct {
    const client_keypair_t *kp;
    const char *email;
    const char *domain;
    char uuid[64];
} owner_t;

static owner_t s_owners[4];
static char s_group_default[64], s_group_p2[64];
static char s_ids[SESSIONS][48];

//  ---------------------------------------------------------------------------
//  Set-up

static json_t *
s_data(json_t *response, const char *field)
{
    return json_object_get(json_object_get(response, "data"), field);
}

static bool
s_create_user(const char *email, const char *domain, const char *role)
{
    json_t *r =
        client_gql(&s_p, &s_p.super,
                   "mutation($email: String!, $input: UserInput!) {"
                   " create_user(email: $email, props: $input) { ok msg } }",
                   json_pack("{s:s, s:{s:s, s:s, s:s, s:s, s:b}}", "email", email,
                             "input", "password", "pw-123456", "domain_name", domain,
                             "role", role, "username", email, "need_password_change", 0));
    bool ok = client_mutation_ok(r, "create_user");
    json_decref(r);
    return ok;
}

//  One session.create (or session.destroy when destroy) over the bus. BUS_OK...
static int
s_call(const char *method, bus_writer_t *writer)
{
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    int rc =
        writer ? bus_rpc_client_call_sync(s_client, method, bus_writer_data(writer),
                                          bus_writer_size(writer), CALL_MS, &reply, &err)
               : BUS_STATUS_INTERNAL;
    if (rc != BUS_OK)
        fprintf(stderr, "# %s: %s\n", method, err.detail);
    bus_writer_destroy(&writer);
    zchunk_destroy(&reply);
    return rc;
}

//  Names that tell apart the like, ilike, contains and order cases: case,
//  _ and % in them, a multibyte letter, shared prefixes.
static const char *s_names[] = {"Alpha", "alpha_1", "beta", "Beta%2", "gamma",
                                "δelta", "a_b",     "ab",   "zeta-9", "ETA"};

static bool
s_create_session(int i)
{
    const owner_t *owner = &s_owners[i % 4];
    char kernel[48], name[32];
    snprintf(s_ids[i], sizeof s_ids[i], "5e55%04d-0000-4000-8000-%012d", i % 7, i);
    snprintf(kernel, sizeof kernel, "cafe%04d-0000-4000-8000-%012d", i, i);
    snprintf(name, sizeof name, "%s-%d", s_names[i % 10], i);
    proto_kv_t slots[] = {{"cpu", "1"}, {"mem", "268435456"}};
    proto_session_create_req_t in;
    proto_session_create_req_init(&in);
    in.session_id = s_ids[i];
    in.kernel_id = kernel;
    in.name = name;
    in.access_key = owner->kp->access_key;
    in.user_uuid = owner->uuid;
    in.domain_name = owner->domain;
    //  The d2 user's sessions in a project of their own (not in the
    //  gateway), the others' spread over two.
    in.group_id = i % 4 == 3   ? "0000d2d2-0000-4000-8000-000000000002"
                  : i % 3 == 0 ? s_group_p2
                               : s_group_default;
    in.scaling_group = "default";
    in.image = IMAGE;
    in.slots = slots;
    in.slots_count = 2;
    if (i % 5 == 0)
        in.tag = "tagged";
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_session_create_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    return s_call(PROTO_SESSION_CREATE, writer) == BUS_OK;
}

static bool
s_cancel_session(int i)
{
    proto_session_destroy_req_t in;
    proto_session_destroy_req_init(&in);
    in.session_id = s_ids[i];
    in.reason = i % 2 ? "user-requested" : "oom-killed";
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_session_destroy_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    return s_call(PROTO_SESSION_DESTROY, writer) == BUS_OK;
}

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "session-list", false) == 0);
    s_client = bus_rpc_client_new(s_p.scheduler_rpc, "test/session-list", NULL);
    T_ASSERT(s_client);
    json_t *r = client_gql(&s_p, &s_p.super,
                           "mutation { create_domain(name: \"d2\", props: {description:"
                           " \"second\", total_resource_slots: \"{}\"}) { ok msg } }",
                           NULL);
    T_ASSERT(client_mutation_ok(r, "create_domain"));
    json_decref(r);
    r = client_gql(&s_p, &s_p.super,
                   "mutation { create_group(name: \"p2\", props: {domain_name:"
                   " \"default\"}) { ok msg group { id } } }",
                   NULL);
    T_ASSERT(client_mutation_ok(r, "create_group"));
    snprintf(s_group_p2, sizeof s_group_p2, "%s",
             json_string_value(json_object_get(
                 json_object_get(s_data(r, "create_group"), "group"), "id")));
    json_decref(r);
    T_ASSERT(s_create_user("dadmin@example.com", "default", "admin"));
    T_ASSERT(s_create_user("user1@example.com", "default", "user"));
    T_ASSERT(s_create_user("user2@example.com", "d2", "user"));
    T_ASSERT(client_keypair_of(&s_p, "dadmin@example.com", &s_dadmin));
    T_ASSERT(client_keypair_of(&s_p, "user1@example.com", &s_user1));
    T_ASSERT(client_keypair_of(&s_p, "user2@example.com", &s_user2));
    s_owners[0] = (owner_t){&s_p.super, "admin", "default", ""};
    s_owners[1] = (owner_t){&s_dadmin, "dadmin@example.com", "default", ""};
    s_owners[2] = (owner_t){&s_user1, "user1@example.com", "default", ""};
    s_owners[3] = (owner_t){&s_user2, "user2@example.com", "d2", ""};
    r = client_gql(&s_p, &s_p.super,
                   "{ users { uuid email role } groups { id name domain_name } }", NULL);
    size_t index;
    json_t *item;
    json_array_foreach(s_data(r, "users"), index, item)
    {
        const char *email = json_string_value(json_object_get(item, "email"));
        const char *role = json_string_value(json_object_get(item, "role"));
        for (int o = 0; o < 4; o++)
            if (o == 0 ? strcmp(role, "superadmin") == 0
                       : strcmp(email, s_owners[o].email) == 0)
                snprintf(s_owners[o].uuid, sizeof s_owners[o].uuid, "%s",
                         json_string_value(json_object_get(item, "uuid")));
    }
    json_array_foreach(s_data(r, "groups"), index, item)
    {
        if (strcmp(json_string_value(json_object_get(item, "name")), "default") == 0 &&
            strcmp(json_string_value(json_object_get(item, "domain_name")), "default") ==
                0)
            snprintf(s_group_default, sizeof s_group_default, "%s",
                     json_string_value(json_object_get(item, "id")));
    }
    json_decref(r);
    for (int o = 0; o < 4; o++)
        T_ASSERT(*s_owners[o].uuid);
    T_ASSERT(*s_group_default && *s_group_p2);
    for (int i = 0; i < SESSIONS; i++)
        T_ASSERT(s_create_session(i));
    //  A third of them cancelled, for two reasons; the rest stay PENDING.
    for (int i = 0; i < SESSIONS; i += 3)
        T_ASSERT(s_cancel_session(i));
}

//  ---------------------------------------------------------------------------
//  The reference: the gateway's answer before the pushdown

#define ALL_FIELDS                                                                       \
    "id session_id name type image registry tag domain_name group_id user_id"            \
    " access_key status status_info status_data status_changed created_at"               \
    " terminated_at occupied_slots group_name user_email result cluster_mode"            \
    " service_ports cluster_size resource_opts mounts dependencies scaling_group agent"  \
    " requested_slots"

static json_t *s_all; //  every session, newest first, as the superadmin sees them

static void
test_read_all(void)
{
    json_t *r =
        client_gql(&s_p, &s_p.super,
                   "{ compute_session_list(limit: 100, offset: 0) { items { " ALL_FIELDS
                   " } total_count } }",
                   NULL);
    json_t *list = s_data(r, "compute_session_list");
    T_EQ_INT(json_integer_value(json_object_get(list, "total_count")), SESSIONS);
    s_all = json_incref(json_object_get(list, "items"));
    T_EQ_INT(json_array_size(s_all), SESSIONS);
    //  Newest first, ties by id.
    for (size_t i = 1; i < json_array_size(s_all); i++) {
        const char *a = json_string_value(
            json_object_get(json_array_get(s_all, i - 1), "created_at"));
        const char *b =
            json_string_value(json_object_get(json_array_get(s_all, i), "created_at"));
        T_ASSERT(strcmp(a, b) >= 0);
    }
    //  What each asked for, PENDING or cancelled, none of it occupied.
    size_t index;
    json_t *session;
    json_array_foreach(s_all, index, session)
    {
        T_EQ_STR(json_string_value(json_object_get(session, "requested_slots")),
                 "{\"cpu\":\"1\",\"mem\":\"268435456\"}");
        T_EQ_STR(json_string_value(json_object_get(session, "occupied_slots")), "{}");
    }
    json_decref(r);
}

//  What the old resolver answered for kp: {items: [ids], total_count}, or
//  {error: message}.
static json_t *
s_expected(const client_keypair_t *kp, json_t *args)
{
    const char *scope_key = NULL, *scope_domain = NULL;
    if (kp == &s_dadmin)
        scope_domain = "default";
    else if (kp == &s_user1 || kp == &s_user2)
        scope_key = kp->access_key;
    const char *status = json_string_value(json_object_get(args, "status"));
    const char *access_key = json_string_value(json_object_get(args, "access_key"));
    const char *group_id = json_string_value(json_object_get(args, "group_id"));
    const char *domain = json_string_value(json_object_get(args, "domain_name"));
    json_t *kept = json_array();
    size_t index;
    json_t *session;
    json_array_foreach(s_all, index, session)
    {
#define S_FIELD(name) json_string_value(json_object_get(session, name))
        if ((scope_key && strcmp(scope_key, S_FIELD("access_key"))) ||
            (scope_domain && strcmp(scope_domain, S_FIELD("domain_name"))) ||
            (status && *status && !gw_gql_in_list(status, S_FIELD("status"))) ||
            (access_key && strcmp(access_key, S_FIELD("access_key"))) ||
            (group_id && strcmp(group_id, S_FIELD("group_id"))) ||
            (domain && kp == &s_p.super && strcmp(domain, S_FIELD("domain_name"))))
            continue;
#undef S_FIELD
        json_array_append(kept, session);
    }
    bus_error_t err = {0};
    json_t *page = gw_gql_page(kept, args, &err);
    if (!page)
        return json_pack("{s:s}", "error", err.detail);
    json_t *ids = json_array();
    json_array_foreach(json_object_get(page, "items"), index, session)
        json_array_append(ids, json_object_get(session, "id"));
    json_t *out = json_pack("{s:o, s:O}", "items", ids, "total_count",
                            json_object_get(page, "total_count"));
    json_decref(page);
    return out;
}

//  What the gateway answers now, in the same shape.
static json_t *
s_actual(const client_keypair_t *kp, json_t *args)
{
    json_t *r = client_gql(
        &s_p, kp,
        "query($limit: Int!, $offset: Int!, $status: String, $access_key: String,"
        " $group_id: UUID, $domain_name: String, $filter: String, $order: String) {"
        " compute_session_list(limit: $limit, offset: $offset, status: $status,"
        " access_key: $access_key, group_id: $group_id, domain_name: $domain_name,"
        " filter: $filter, order: $order) { items { id } total_count } }",
        json_deep_copy(args));
    json_t *list = s_data(r, "compute_session_list");
    json_t *out = NULL;
    if (json_is_object(list)) {
        json_t *ids = json_array();
        size_t index;
        json_t *item;
        json_array_foreach(json_object_get(list, "items"), index, item)
            json_array_append(ids, json_object_get(item, "id"));
        out = json_pack("{s:o, s:O}", "items", ids, "total_count",
                        json_object_get(list, "total_count"));
    } else {
        const char *message = json_string_value(
            json_object_get(json_array_get(json_object_get(r, "errors"), 0), "message"));
        //  "invalid: <detail>": the detail is the old message.
        const char *colon = message ? strstr(message, ": ") : NULL;
        out = json_pack("{s:s}", "error", colon ? colon + 2 : message ? message : "none");
    }
    json_decref(r);
    return out;
}

//  The cases: arguments beyond limit and offset (JSON), each run as every
//  caller and for several pages. Those marked "read in memory" make the
//  gateway read and filter or sort itself; the others are one page from
//  the scheduler.
static const char *s_cases[] = {
    "{}",
    "{\"status\": \"PENDING\"}",
    "{\"status\": \"CANCELLED,PENDING\"}",
    "{\"status\": \"RUNNING\"}",
    "{\"status\": \"PENDING,\"}",
    "{\"status\": \"\"}",
    "{\"status\": null}",
    "{\"access_key\": \"@user1\"}",
    "{\"access_key\": \"AKNOBODY\"}",
    "{\"group_id\": \"@p2\"}",
    "{\"domain_name\": \"d2\"}",
    "{\"status\": \"PENDING\", \"group_id\": \"@default\", \"access_key\": \"@dadmin\"}",
    //  Filters SQL answers.
    "{\"filter\": \"name ilike \\\"%A%\\\"\"}",
    "{\"filter\": \"name like \\\"%a%\\\"\"}",
    "{\"filter\": \"name like \\\"a\\\\_%\\\"\"}",
    "{\"filter\": \"name like \\\"_lpha%\\\"\"}",
    "{\"filter\": \"name ilike \\\"δ%\\\"\"}",
    "{\"filter\": \"name contains \\\"_\\\"\"}",
    "{\"filter\": \"name contains \\\"a%2\\\"\"}",
    "{\"filter\": \"status_info == null\"}",
    "{\"filter\": \"status_info != null\"}",
    "{\"filter\": \"status_info is null\"}",
    "{\"filter\": \"status_info isnot null\"}",
    "{\"filter\": \"status is true\"}",
    "{\"filter\": \"status isnot false\"}",
    "{\"filter\": \"status_info == \\\"oom-killed\\\"\"}",
    "{\"filter\": \"!(status_info == \\\"oom-killed\\\")\"}",
    "{\"filter\": \"status_info > null\"}",
    "{\"filter\": \"name > \\\"beta\\\" & name <= \\\"zeta\\\"\"}",
    "{\"filter\": \"name >= \\\"a\\\" | name < \\\"B\\\"\"}",
    "{\"filter\": \"status in [\\\"CANCELLED\\\", 3, null]\"}",
    "{\"filter\": \"status_info in [null]\"}",
    "{\"filter\": \"status_info in [4]\"}",
    "{\"filter\": \"!(status_info in [])\"}",
    "{\"filter\": \"status == \\\"PENDING\\\" & name ilike \\\"a%\\\" | name like "
    "\\\"%3\\\"\"}",
    "{\"filter\": \"(access_key == \\\"@user1\\\" | domain_name == \\\"d2\\\") & "
    "!(image != \\\"" IMAGE "\\\") & scaling_group == \\\"default\\\" & type == "
    "\\\"INTERACTIVE\\\" & result == \\\"UNDEFINED\\\" & cluster_mode != \\\"x\\\" & "
    "user_id != \\\"\\\" & session_id != \\\"\\\" & group_id != \\\"\\\"\"}",
    //  Filters read in memory (fields only the gateway has, type mismatches).
    "{\"filter\": \"user_email ilike \\\"%user1%\\\"\"}",
    "{\"filter\": \"group_name == \\\"p2\\\"\"}",
    "{\"filter\": \"cluster_size == 1 & name ilike \\\"b%\\\"\"}",
    "{\"filter\": \"created_at > \\\"2000\\\"\"}",
    "{\"filter\": \"name == 5\"}",
    "{\"filter\": \"name != 5\"}",
    "{\"filter\": \"tag == \\\"tagged\\\"\"}",
    "{\"filter\": \"status == \\\"PENDING\\\" & (group_name == \\\"default\\\" | "
    "user_email == \\\"admin\\\")\"}",
    "{\"status\": \"PENDING,CANCELLED\", \"filter\": \"name ilike \\\"a%\\\" & "
    "group_name != \\\"p2\\\"\"}",
    //  Orders.
    "{\"order\": \"name\"}",
    "{\"order\": \"-name\"}",
    "{\"order\": \"status_info,-created_at\"}",
    "{\"order\": \"-status_info\"}",
    "{\"order\": \"-terminated_at,access_key\"}",
    "{\"order\": \"+status_changed\"}",
    "{\"order\": \"group_name,name\"}",
    "{\"order\": \"-user_email\"}",
    "{\"status\": \"PENDING\", \"filter\": \"name ilike \\\"%a%\\\"\", \"order\": "
    "\"-name\"}",
    "{\"filter\": \"group_name == \\\"default\\\"\", \"order\": \"-name\"}",
    //  Errors, as before.
    "{\"filter\": \"nope == 1\"}",
    "{\"filter\": \"name ==\"}",
    "{\"order\": \"nope\"}",
    "{\"order\": \"name,\"}",
};

//  "@user1" and the like stand for ids known only at run time.
static void
s_substitute(json_t *args)
{
    const char *key;
    json_t *value;
    json_object_foreach(args, key, value)
    {
        const char *text = json_string_value(value);
        if (!text || !strchr(text, '@'))
            continue;
        const char *tokens[][2] = {{"@user1", s_user1.access_key},
                                   {"@dadmin", s_dadmin.access_key},
                                   {"@p2", s_group_p2},
                                   {"@default", s_group_default}};
        char out[1024];
        snprintf(out, sizeof out, "%s", text);
        for (size_t t = 0; t < 4; t++) {
            char *at = strstr(out, tokens[t][0]);
            if (at) {
                char rest[1024];
                snprintf(rest, sizeof rest, "%s", at + strlen(tokens[t][0]));
                snprintf(at, sizeof out - (size_t) (at - out), "%s%s", tokens[t][1],
                         rest);
            }
        }
        json_object_set_new(args, key, json_string(out));
    }
}

//  Compares the answer with the reference for every caller and page.
static void
s_check(json_t *base)
{
    static const client_keypair_t *callers[] = {&s_p.super, &s_dadmin, &s_user1,
                                                &s_user2};
    static const int pages[][2] = {{100, 0}, {5, 0}, {5, 5}, {7, 13}, {20, 1000}};
    for (size_t c = 0; c < sizeof callers / sizeof callers[0]; c++)
        for (size_t p = 0; p < sizeof pages / sizeof pages[0]; p++) {
            json_t *args = json_deep_copy(base);
            json_object_set_new(args, "limit", json_integer(pages[p][0]));
            json_object_set_new(args, "offset", json_integer(pages[p][1]));
            json_t *expected = s_expected(callers[c], args);
            json_t *actual = s_actual(callers[c], args);
            if (!json_equal(expected, actual)) {
                char *a = json_dumps(args, JSON_COMPACT);
                char *e = json_dumps(expected, JSON_COMPACT);
                char *g = json_dumps(actual, JSON_COMPACT);
                fprintf(stderr,
                        "# caller %zu args %s\n#   expected %s\n#   got      %s\n", c, a,
                        e, g);
                free(a);
                free(e);
                free(g);
            }
            T_ASSERT(json_equal(expected, actual));
            json_decref(expected);
            json_decref(actual);
            json_decref(args);
        }
}

static void
test_cases_match_the_reference(void)
{
    for (size_t i = 0; i < sizeof s_cases / sizeof s_cases[0]; i++) {
        json_error_t jerr;
        json_t *args = json_loads(s_cases[i], 0, &jerr);
        if (!args)
            fprintf(stderr, "# case %zu: %s\n", i, jerr.text);
        T_ASSERT(args);
        s_substitute(args);
        s_check(args);
        json_decref(args);
    }
}

static void
test_limits_refused(void)
{
    static const char *pages[] = {"{\"limit\": 0, \"offset\": 0}",
                                  "{\"limit\": 1001, \"offset\": 0}",
                                  "{\"limit\": 10, \"offset\": -1}"};
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        json_t *args = json_loads(pages[i], 0, NULL);
        json_t *expected = s_expected(&s_p.super, args);
        json_t *actual = s_actual(&s_p.super, args);
        T_ASSERT(json_object_get(expected, "error"));
        T_ASSERT(json_equal(expected, actual));
        json_decref(expected);
        json_decref(actual);
        json_decref(args);
    }
}

//  Backend.AI's web UI 22.03 (its resource broker, on every page) asks for
//  limit 1000: Backend.AI has no cap, so a page that large is answered.
static void
test_web_ui_page_of_1000(void)
{
    json_t *r = client_gql(
        &s_p, &s_p.super,
        "query($limit:Int!, $offset:Int!, $status:String) {"
        " compute_session_list(limit:$limit, offset:$offset,"
        " status:$status) { items { name } total_count } }",
        json_pack("{s:i, s:i, s:s}", "limit", 1000, "offset", 0, "status", "PENDING"));
    json_t *list = s_data(r, "compute_session_list");
    T_ASSERT(json_is_object(list));
    T_EQ_INT(json_integer_value(json_object_get(list, "total_count")),
             SESSIONS - SESSIONS / 3);
    T_EQ_INT(json_array_size(json_object_get(list, "items")), SESSIONS - SESSIONS / 3);
    json_decref(r);
}

//  compute_session by id: each caller sees what it may, others' are null.
static void
test_single_scoped(void)
{
    static const client_keypair_t *callers[] = {&s_p.super, &s_dadmin, &s_user1,
                                                &s_user2};
    for (int i = 0; i < 8; i++)
        for (size_t c = 0; c < 4; c++) {
            json_t *r = client_gql(
                &s_p, callers[c], "query($id: UUID!) { compute_session(id: $id) { id } }",
                json_pack("{s:s}", "id", s_ids[i]));
            json_t *session = s_data(r, "compute_session");
            int owner = i % 4;
            bool visible = c == 0 || (c == 1 && owner != 3) || (int) c == owner;
            T_EQ_INT(json_is_object(session), visible);
            if (visible)
                T_EQ_STR(json_string_value(json_object_get(session, "id")), s_ids[i]);
            json_decref(r);
        }
    //  Two aliases with different arguments in one document.
    json_t *r =
        client_gql(&s_p, &s_p.super,
                   "{ a: compute_session_list(limit: 1, offset: 0, status:"
                   " \"CANCELLED\") { total_count } b: compute_session_list(limit:"
                   " 1, offset: 0, status: \"PENDING\") { total_count } }",
                   NULL);
    T_EQ_INT(json_integer_value(json_object_get(s_data(r, "a"), "total_count")),
             SESSIONS / 3);
    T_EQ_INT(json_integer_value(json_object_get(s_data(r, "b"), "total_count")),
             SESSIONS - SESSIONS / 3);
    json_decref(r);
}

//  ---------------------------------------------------------------------------
//  user_list and keypair_list: pages of the gateway's own tables in SQL
//  against gw_gql_page over the whole list (users and keypairs, the same
//  operation unpaged), with the same arguments, for each caller.

#define USER_FIELDS                                                                      \
    "uuid username email need_password_change full_name description status"              \
    " status_info is_active created_at modified_at domain_name role resource_policy"     \
    " allowed_client_ip sudo_session_enabled groups { id name }"
#define KEYPAIR_FIELDS                                                                   \
    "user_id user access_key secret_key is_active is_admin created_at modified_at"       \
    " last_used rate_limit num_queries resource_policy ssh_public_key concurrency_used"  \
    " domain_name full_name user_info { full_name email }"

//  The page from the whole list, in the shape of s_table_actual.
static json_t *
s_table_expected(const client_keypair_t *kp,
                 const char *root,
                 const char *fields,
                 const char *key,
                 json_t *args)
{
    json_t *narrow = json_deep_copy(args);
    const char *paging[] = {"limit", "offset", "filter", "order"};
    for (size_t i = 0; i < 4; i++)
        json_object_del(narrow, paging[i]);
    char query[1024];
    snprintf(query, sizeof query,
             "query($status: String, $group_id: UUID, $domain_name: String,"
             " $is_active: Boolean, $email: String) { %s(%s) { %s } }",
             root,
             strcmp(root, "users") == 0
                 ? "status: $status, group_id: $group_id, domain_name: $domain_name,"
                   " is_active: $is_active"
                 : "domain_name: $domain_name, is_active: $is_active, email: $email",
             fields);
    json_t *r = client_gql(&s_p, kp, query, narrow);
    json_t *all = json_incref(s_data(r, root));
    json_t *errors = json_object_get(r, "errors");
    json_t *out = NULL;
    if (!json_is_array(all)) {
        const char *message =
            json_string_value(json_object_get(json_array_get(errors, 0), "message"));
        const char *colon = message ? strstr(message, ": ") : NULL;
        out = json_pack("{s:s}", "error", colon ? colon + 2 : message ? message : "none");
        json_decref(all);
    } else {
        bus_error_t err = {0};
        json_t *page = gw_gql_page(all, args, &err);
        if (!page)
            out = json_pack("{s:s}", "error", err.detail);
        else {
            json_t *keys = json_array();
            size_t index;
            json_t *item;
            json_array_foreach(json_object_get(page, "items"), index, item)
                json_array_append(keys, json_object_get(item, key));
            out = json_pack("{s:o, s:O}", "items", keys, "total_count",
                            json_object_get(page, "total_count"));
            json_decref(page);
        }
    }
    json_decref(r);
    return out;
}

static json_t *
s_table_actual(const client_keypair_t *kp,
               const char *root,
               const char *key,
               json_t *args)
{
    char query[1024];
    snprintf(query, sizeof query,
             "query($limit: Int!, $offset: Int!, $status: String, $group_id: UUID,"
             " $domain_name: String, $is_active: Boolean, $email: String,"
             " $filter: String, $order: String) { %s(limit: $limit, offset: $offset, %s"
             " filter: $filter, order: $order) { items { %s } total_count } }",
             root,
             strcmp(root, "user_list") == 0
                 ? "status: $status, group_id: $group_id, domain_name: $domain_name,"
                   " is_active: $is_active,"
                 : "domain_name: $domain_name, is_active: $is_active, email: $email,",
             key);
    json_t *r = client_gql(&s_p, kp, query, json_deep_copy(args));
    json_t *list = s_data(r, root);
    json_t *out = NULL;
    if (json_is_object(list)) {
        json_t *keys = json_array();
        size_t index;
        json_t *item;
        json_array_foreach(json_object_get(list, "items"), index, item)
            json_array_append(keys, json_object_get(item, key));
        out = json_pack("{s:o, s:O}", "items", keys, "total_count",
                        json_object_get(list, "total_count"));
    } else {
        const char *message = json_string_value(
            json_object_get(json_array_get(json_object_get(r, "errors"), 0), "message"));
        const char *colon = message ? strstr(message, ": ") : NULL;
        out = json_pack("{s:s}", "error", colon ? colon + 2 : message ? message : "none");
    }
    json_decref(r);
    return out;
}

static const char *s_user_cases[] = {
    "{}",
    "{\"status\": \"active\"}",
    "{\"is_active\": false}",
    "{\"domain_name\": \"d2\"}",
    "{\"group_id\": \"@p2\"}",
    "{\"filter\": \"email ilike \\\"%EXAMPLE%\\\"\"}",
    "{\"filter\": \"username like \\\"user_%\\\" | role in [\\\"admin\\\", 1]\"}",
    "{\"filter\": \"full_name == \\\"\\\" & status_info == null\"}",
    "{\"filter\": \"description contains \\\"%\\\" | allowed_client_ip != null\"}",
    "{\"filter\": \"created_at > \\\"2000\\\" & !(role == \\\"superadmin\\\")\"}",
    "{\"filter\": \"domain_name == \\\"d2\\\"\", \"order\": \"-email\"}",
    "{\"order\": \"role,-username\"}",
    "{\"order\": \"-created_at\"}",
    //  read in memory
    "{\"filter\": \"is_active == true\"}",
    "{\"filter\": \"need_password_change == false & email ilike \\\"%1%\\\"\"}",
    "{\"order\": \"is_active,email\"}",
    "{\"order\": \"-sudo_session_enabled\"}",
    //  errors
    "{\"domain_name\": \"nope\"}",
    "{\"filter\": \"nope == 1\"}",
    "{\"order\": \"email,\"}",
};

static const char *s_keypair_cases[] = {
    "{}",
    "{\"is_active\": true}",
    "{\"email\": \"%example.com\"}",
    "{\"filter\": \"access_key like \\\"AK%\\\"\"}",
    "{\"filter\": \"user_id ilike \\\"%USER%\\\" & last_used == null\"}",
    "{\"filter\": \"resource_policy == \\\"default\\\" & ssh_public_key == null\"}",
    "{\"order\": \"-access_key\"}",
    "{\"order\": \"user_id,-created_at\"}",
    //  read in memory
    "{\"filter\": \"is_admin == false\"}",
    "{\"filter\": \"secret_key != null\"}",
    "{\"order\": \"rate_limit,-access_key\"}",
    //  errors
    "{\"filter\": \"nope == 1\"}",
    "{\"order\": \"nope\"}",
};

static void
s_check_table(const char *const *cases,
              size_t count,
              const char *root_all,
              const char *root_page,
              const char *fields,
              const char *key)
{
    static const client_keypair_t *callers[] = {&s_p.super, &s_dadmin, &s_user1,
                                                &s_user2};
    static const int pages[][2] = {{100, 0}, {3, 0}, {3, 2}, {10, 50}};
    for (size_t i = 0; i < count; i++) {
        json_t *base = json_loads(cases[i], 0, NULL);
        T_ASSERT(base);
        s_substitute(base);
        for (size_t c = 0; c < 4; c++)
            for (size_t p = 0; p < sizeof pages / sizeof pages[0]; p++) {
                json_t *args = json_deep_copy(base);
                json_object_set_new(args, "limit", json_integer(pages[p][0]));
                json_object_set_new(args, "offset", json_integer(pages[p][1]));
                json_t *expected =
                    s_table_expected(callers[c], root_all, fields, key, args);
                json_t *actual = s_table_actual(callers[c], root_page, key, args);
                if (!json_equal(expected, actual)) {
                    char *a = json_dumps(args, JSON_COMPACT);
                    char *e = json_dumps(expected, JSON_COMPACT);
                    char *g = json_dumps(actual, JSON_COMPACT);
                    fprintf(stderr,
                            "# %s caller %zu args %s\n#   expected %s\n#   got %s\n",
                            root_page, c, a, e, g);
                    free(a);
                    free(e);
                    free(g);
                }
                T_ASSERT(json_equal(expected, actual));
                json_decref(expected);
                json_decref(actual);
                json_decref(args);
            }
        json_decref(base);
    }
}

static void
test_user_and_keypair_lists(void)
{
    //  More people, with names, full names and descriptions to tell apart.
    static const char *people[][5] = {
        {"user_a@example.com", "default", "user", "Ann A", "has 100% x"},
        {"userb@EXAMPLE.org", "default", "user", "", ""},
        {"zed@example.com", "d2", "admin", "Zed", "d2 admin"},
        {"user_c@example.net", "d2", "user", "c", "x"},
        {"mon@example.com", "default", "monitor", "Mon", ""},
    };
    for (size_t i = 0; i < sizeof people / sizeof people[0]; i++) {
        json_t *r = client_gql(&s_p, &s_p.super,
                               "mutation($email: String!, $input: UserInput!) {"
                               " create_user(email: $email, props: $input) { ok msg } }",
                               json_pack("{s:s, s:{s:s, s:s, s:s, s:s, s:s, s:s, s:b}}",
                                         "email", people[i][0], "input", "password",
                                         "pw-123456", "domain_name", people[i][1], "role",
                                         people[i][2], "username", people[i][0],
                                         "full_name", people[i][3], "description",
                                         people[i][4], "need_password_change", i % 2));
        T_ASSERT(client_mutation_ok(r, "create_user"));
        json_decref(r);
    }
    //  One of them inactive.
    json_t *r = client_gql(&s_p, &s_p.super,
                           "mutation { modify_user(email: \"userb@EXAMPLE.org\", props:"
                           " {status: \"inactive\"}) { ok msg } }",
                           NULL);
    T_ASSERT(client_mutation_ok(r, "modify_user"));
    json_decref(r);
    s_check_table(s_user_cases, sizeof s_user_cases / sizeof s_user_cases[0], "users",
                  "user_list", USER_FIELDS, "email");
    s_check_table(s_keypair_cases, sizeof s_keypair_cases / sizeof s_keypair_cases[0],
                  "keypairs", "keypair_list", KEYPAIR_FIELDS, "access_key");
}

int
main(void)
{
    T_RUN(test_start);
    if (t_failures == 0) {
        T_RUN(test_read_all);
        T_RUN(test_cases_match_the_reference);
        T_RUN(test_limits_refused);
        T_RUN(test_web_ui_page_of_1000);
        T_RUN(test_single_scoped);
        T_RUN(test_user_and_keypair_lists);
    }
    json_decref(s_all);
    bus_rpc_client_destroy(&s_client);
    bool clean = client_platform_stop(&s_p);
    if (!clean)
        fprintf(stderr, "# a service did not stop cleanly\n");
    client_platform_end(&s_p, t_failures > 0 || !clean || getenv("BACKPLANE_KEEP"));
    return clean ? T_DONE() : 1;
}
