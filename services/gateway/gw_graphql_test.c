/*  =========================================================================
    gw_graphql_test - unit tests for gw_graphql

    The first table holds the GraphQL texts the official Backend.AI client
    sends to POST /admin/gql, rebuilt with the client's own string code
    (ai/backend/client/func/<resource>.py, cli/admin/session.py; field lists as the
    client uses them), with variables as it sends them: each must parse and
    give the root field, its arguments as JSON and the selected sub-fields.
    The other tests cover each syntax error with its line and column, the
    limits, fragments, directives, strings, values and variable coercion.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

typedef struct {
    const char *name;      //  client function
    const char *query;     //  text as sent
    const char *variables; //  JSON as sent, or NULL
    const char *root;      //  the one root field
    const char *arguments; //  its arguments as JSON, variables resolved
    const char *selection; //  sub-fields: "a b{c d}"
} s_client_case_t;

static const s_client_case_t s_client_cases[] = {
    {"User.list",
     "query($status: String, $group: UUID) {\n"
     "    users(status: $status, group_id: $group) {uuid role username email is_active "
     "created_at domain_name groups { id name }}\n"
     "}\n",
     "{\"status\":\"active\",\"group\":null}", "users",
     "{\"status\":\"active\",\"group_id\":null}",
     "uuid role username email is_active created_at domain_name groups{id name}"},
    {"User.paginated_list",
     "query($limit:Int!, $offset:Int!, $status: String, $group_id: UUID, $filter: "
     "String, $order: String) {\n"
     "  user_list(\n"
     "      limit:$limit, offset:$offset, status:$status, group_id:$group_id, "
     "filter:$filter, order:$order) {\n"
     "    items { uuid role username email is_active created_at domain_name groups { id "
     "name } }\n"
     "    total_count\n"
     "  }\n"
     "}",
     "{\"status\":null,\"group_id\":\"0b4e2a57-3f9f-4a4e-9d1c-6f8a43b1b0aa\",\"filter\":"
     "\"email ilike \\\"%@lablup.com\\\"\",\"order\":null,\"limit\":20,\"offset\":40}",
     "user_list",
     "{\"limit\":20,\"offset\":40,\"status\":null,\"group_id\":\"0b4e2a57-3f9f-4a4e-9d1c-"
     "6f8a43b1b0aa\",\"filter\":\"email ilike \\\"%@lablup.com\\\"\",\"order\":null}",
     "items{uuid role username email is_active created_at domain_name groups{id name}} "
     "total_count"},
    {"User.detail",
     "query($email: String) {\n"
     "    user(email: $email) {uuid username email need_password_change status "
     "status_info created_at domain_name role groups { id name }}\n"
     "}\n",
     "{\"email\":\"admin@lablup.com\"}", "user", "{\"email\":\"admin@lablup.com\"}",
     "uuid username email need_password_change status status_info created_at domain_name "
     "role groups{id name}"},
    {"User.detail_by_uuid",
     "query($user_id: ID) {\n"
     "    user_from_uuid(user_id: $user_id) {uuid username email need_password_change "
     "status status_info created_at domain_name role groups { id name }}\n"
     "}\n",
     "{\"user_id\":\"f38dea23-50fa-42a0-b5ae-338f5f4693f4\"}", "user_from_uuid",
     "{\"user_id\":\"f38dea23-50fa-42a0-b5ae-338f5f4693f4\"}",
     "uuid username email need_password_change status status_info created_at domain_name "
     "role groups{id name}"},
    {"User.create",
     "mutation($email: String!, $input: UserInput!) {\n"
     "    create_user(email: $email, props: $input) {\n"
     "        ok msg user {domain_name email username uuid}\n"
     "    }\n"
     "}\n",
     "{\"email\":\"jdoe@example.com\",\"input\":{\"password\":\"x-pass\",\"username\":"
     "\"jdoe\",\"full_name\":\"John "
     "Doe\",\"role\":\"user\",\"status\":\"active\",\"need_password_change\":false,"
     "\"description\":\"\",\"domain_name\":\"default\",\"group_ids\":[\"2de2b969-1d04-"
     "48a6-af16-0bc8adb3c831\"]}}",
     "create_user",
     "{\"email\":\"jdoe@example.com\",\"props\":{\"password\":\"x-pass\",\"username\":"
     "\"jdoe\",\"full_name\":\"John "
     "Doe\",\"role\":\"user\",\"status\":\"active\",\"need_password_change\":false,"
     "\"description\":\"\",\"domain_name\":\"default\",\"group_ids\":[\"2de2b969-1d04-"
     "48a6-af16-0bc8adb3c831\"]}}",
     "ok msg user{domain_name email username uuid}"},
    {"User.purge",
     "mutation($email: String!, $input: PurgeUserInput!) {\n"
     "    purge_user(email: $email, props: $input) {\n"
     "        ok msg\n"
     "    }\n"
     "}\n",
     "{\"email\":\"jdoe@example.com\",\"input\":{\"purge_shared_vfolders\":true}}",
     "purge_user",
     "{\"email\":\"jdoe@example.com\",\"props\":{\"purge_shared_vfolders\":true}}",
     "ok msg"},
    {"KeyPair.create",
     "mutation($user_id: String!, $input: KeyPairInput!) {  create_keypair(user_id: "
     "$user_id, props: $input) {    ok msg keypair { user_id access_key secret_key "
     "is_active is_admin created_at }  }}",
     "{\"user_id\":\"jdoe@example.com\",\"input\":{\"is_active\":true,\"is_admin\":false,"
     "\"resource_policy\":\"default\",\"rate_limit\":5000}}",
     "create_keypair",
     "{\"user_id\":\"jdoe@example.com\",\"props\":{\"is_active\":true,\"is_admin\":false,"
     "\"resource_policy\":\"default\",\"rate_limit\":5000}}",
     "ok msg keypair{user_id access_key secret_key is_active is_admin created_at}"},
    {"KeyPair.list",
     "query($email: String!, $is_active: Boolean) {  keypairs(email: $email, is_active: "
     "$is_active) {    user_id access_key secret_key is_active is_admin created_at  }}",
     "{\"is_active\":true,\"email\":\"jdoe@example.com\"}", "keypairs",
     "{\"email\":\"jdoe@example.com\",\"is_active\":true}",
     "user_id access_key secret_key is_active is_admin created_at"},
    {"KeyPair.info",
     "query {  keypair {    access_key user_info { full_name } resource_policy "
     "concurrency_used  }}",
     NULL, "keypair", "{}",
     "access_key user_info{full_name} resource_policy concurrency_used"},
    {"Domain.detail",
     "query($name: String) {\n"
     "    domain(name: $name) {name description is_active created_at "
     "total_resource_slots allowed_vfolder_hosts allowed_docker_registries "
     "integration_id}\n"
     "}\n",
     "{\"name\":\"default\"}", "domain", "{\"name\":\"default\"}",
     "name description is_active created_at total_resource_slots allowed_vfolder_hosts "
     "allowed_docker_registries integration_id"},
    {"Domain.create",
     "mutation($name: String!, $input: DomainInput!) {\n"
     "    create_domain(name: $name, props: $input) {\n"
     "        ok msg domain {name total_resource_slots}\n"
     "    }\n"
     "}\n",
     "{\"name\":\"lab\",\"input\":{\"description\":\"lab\",\"is_active\":true,\"total_"
     "resource_slots\":\"{\\\"cpu\\\": "
     "\\\"8\\\"}\",\"allowed_vfolder_hosts\":[\"local:volume1\"],\"allowed_docker_"
     "registries\":[\"cr.backend.ai\"],\"integration_id\":null}}",
     "create_domain",
     "{\"name\":\"lab\",\"props\":{\"description\":\"lab\",\"is_active\":true,\"total_"
     "resource_slots\":\"{\\\"cpu\\\": "
     "\\\"8\\\"}\",\"allowed_vfolder_hosts\":[\"local:volume1\"],\"allowed_docker_"
     "registries\":[\"cr.backend.ai\"],\"integration_id\":null}}",
     "ok msg domain{name total_resource_slots}"},
    {"Group.list",
     "query($domain_name: String) {\n"
     "    groups(domain_name: $domain_name) {id name is_active created_at "
     "integration_id}\n"
     "}\n",
     "{\"domain_name\":\"default\"}", "groups", "{\"domain_name\":\"default\"}",
     "id name is_active created_at integration_id"},
    {"Group.add_users",
     "mutation($gid: UUID!, $input: ModifyGroupInput!) {\n"
     "    modify_group(gid: $gid, props: $input) {\n"
     "        ok msg\n"
     "    }\n"
     "}\n",
     "{\"gid\":\"2de2b969-1d04-48a6-af16-0bc8adb3c831\",\"input\":{\"user_update_mode\":"
     "\"add\",\"user_uuids\":[\"f38dea23-50fa-42a0-b5ae-338f5f4693f4\"]}}",
     "modify_group",
     "{\"gid\":\"2de2b969-1d04-48a6-af16-0bc8adb3c831\",\"props\":{\"user_update_mode\":"
     "\"add\",\"user_uuids\":[\"f38dea23-50fa-42a0-b5ae-338f5f4693f4\"]}}",
     "ok msg"},
    {"ScalingGroup.list",
     "query($is_active: Boolean) {\n"
     "    scaling_groups(is_active: $is_active) {\n"
     "        name description is_active created_at driver scheduler\n"
     "    }\n"
     "}\n",
     "{\"is_active\":null}", "scaling_groups", "{\"is_active\":null}",
     "name description is_active created_at driver scheduler"},
    {"ScalingGroup.associate_domain",
     "mutation($scaling_group: String!, $domain: String!) {\n"
     "    associate_scaling_group_with_domain(\n"
     "            scaling_group: $scaling_group, domain: $domain) {\n"
     "        ok msg\n"
     "    }\n"
     "}\n",
     "{\"scaling_group\":\"default\",\"domain\":\"lab\"}",
     "associate_scaling_group_with_domain",
     "{\"scaling_group\":\"default\",\"domain\":\"lab\"}", "ok msg"},
    {"Image.list",
     "query($is_operation: Boolean) {  images(is_operation: $is_operation) {    name "
     "registry architecture tag digest size_bytes aliases  }}",
     "{\"is_operation\":false}", "images", "{\"is_operation\":false}",
     "name registry architecture tag digest size_bytes aliases"},
    {"Image.rescan_images",
     "mutation($registry: String) {  rescan_images(registry:$registry) {   ok msg "
     "task_id  }}",
     "{\"registry\":\"cr.backend.ai\"}", "rescan_images",
     "{\"registry\":\"cr.backend.ai\"}", "ok msg task_id"},
    {"Image.alias_image",
     "mutation($alias: String!, $target: String!) {  alias_image(alias: $alias, target: "
     "$target) {   ok msg  }}",
     "{\"architecture\":\"aarch64\",\"alias\":\"py3\",\"target\":\"cr.backend.ai/stable/"
     "python:3.9-ubuntu20.04\"}",
     "alias_image",
     "{\"alias\":\"py3\",\"target\":\"cr.backend.ai/stable/python:3.9-ubuntu20.04\"}",
     "ok msg"},
    {"Agent.paginated_list",
     "query($limit:Int!, $offset:Int!, $status: String, $scaling_group: String, $filter: "
     "String, $order: String) {\n"
     "  agent_list(\n"
     "      limit:$limit, offset:$offset, status:$status, scaling_group:$scaling_group, "
     "filter:$filter, order:$order) {\n"
     "    items { id status scaling_group available_slots occupied_slots }\n"
     "    total_count\n"
     "  }\n"
     "}",
     "{\"status\":\"ALIVE\",\"scaling_group\":null,\"filter\":null,\"order\":null,"
     "\"limit\":20,\"offset\":0}",
     "agent_list",
     "{\"limit\":20,\"offset\":0,\"status\":\"ALIVE\",\"scaling_group\":null,\"filter\":"
     "null,\"order\":null}",
     "items{id status scaling_group available_slots occupied_slots} total_count"},
    {"Agent.detail",
     "query($agent_id: String!) {\n"
     "    agent(agent_id: $agent_id) {id status scaling_group addr region first_contact "
     "cpu_cur_pct mem_cur_bytes available_slots occupied_slots}\n"
     "}\n",
     "{\"agent_id\":\"i-node01\"}", "agent", "{\"agent_id\":\"i-node01\"}",
     "id status scaling_group addr region first_contact cpu_cur_pct mem_cur_bytes "
     "available_slots occupied_slots"},
    {"KeypairResourcePolicy.create",
     "mutation($name: String!, $input: CreateKeyPairResourcePolicyInput!) {  "
     "create_keypair_resource_policy(name: $name, props: $input) {    ok msg "
     "resource_policy { name }  }}",
     "{\"name\":\"gold\",\"input\":{\"default_for_unspecified\":\"UNLIMITED\",\"total_"
     "resource_slots\":\"{}\",\"max_concurrent_sessions\":30,\"max_containers_per_"
     "session\":1,\"max_vfolder_count\":10,\"max_vfolder_size\":1099511627776,\"idle_"
     "timeout\":1800,\"allowed_vfolder_hosts\":[\"local:volume1\"]}}",
     "create_keypair_resource_policy",
     "{\"name\":\"gold\",\"props\":{\"default_for_unspecified\":\"UNLIMITED\",\"total_"
     "resource_slots\":\"{}\",\"max_concurrent_sessions\":30,\"max_containers_per_"
     "session\":1,\"max_vfolder_count\":10,\"max_vfolder_size\":1099511627776,\"idle_"
     "timeout\":1800,\"allowed_vfolder_hosts\":[\"local:volume1\"]}}",
     "ok msg resource_policy{name}"},
    {"ComputeSession.paginated_list",
     "query($limit:Int!, $offset:Int!, $status: String, $access_key: String, $filter: "
     "String, $order: String) {\n"
     "  compute_session_list(\n"
     "      limit:$limit, offset:$offset, status:$status, access_key:$access_key, "
     "filter:$filter, order:$order) {\n"
     "    items { session_id image type status status_info status_changed result }\n"
     "    total_count\n"
     "  }\n"
     "}",
     "{\"status\":\"RUNNING\",\"access_key\":null,\"filter\":null,\"order\":\"-created_"
     "at\",\"limit\":20,\"offset\":0}",
     "compute_session_list",
     "{\"limit\":20,\"offset\":0,\"status\":\"RUNNING\",\"access_key\":null,\"filter\":"
     "null,\"order\":\"-created_at\"}",
     "items{session_id image type status status_info status_changed result} total_count"},
    {"VFolder.paginated_list",
     "query($limit:Int!, $offset:Int!, $group_id: UUID, $filter: String, $order: String) "
     "{\n"
     "  vfolder_list(\n"
     "      limit:$limit, offset:$offset, group_id:$group_id, filter:$filter, "
     "order:$order) {\n"
     "    items { host name created_at creator group permission ownership_type }\n"
     "    total_count\n"
     "  }\n"
     "}",
     "{\"group_id\":null,\"filter\":null,\"order\":null,\"limit\":10,\"offset\":0}",
     "vfolder_list",
     "{\"limit\":10,\"offset\":0,\"group_id\":null,\"filter\":null,\"order\":null}",
     "items{host name created_at creator group permission ownership_type} total_count"},
    {"Storage.detail",
     "query($vfolder_host: String!) {\n"
     "    storage_volume(id: $vfolder_host) {id backend capabilities}\n"
     "}\n",
     "{\"vfolder_host\":\"local:volume1\"}", "storage_volume",
     "{\"id\":\"local:volume1\"}", "id backend capabilities"},
    {"cli admin session info",
     "query($id: UUID!) {  compute_session(id: $id) {    name session_id id image tag "
     "created_at terminated_at status status_info status_data occupied_slots containers "
     "{ id cluster_role cluster_idx cluster_hostname session_id image registry status "
     "status_info status_data status_changed agent container_id resource_opts "
     "occupied_slots live_stat last_stat } dependencies { name id }  }}",
     "{\"id\":\"7f1d2e3c-0a9b-4c8d-8e7f-6a5b4c3d2e1f\"}", "compute_session",
     "{\"id\":\"7f1d2e3c-0a9b-4c8d-8e7f-6a5b4c3d2e1f\"}",
     "name session_id id image tag created_at terminated_at status status_info "
     "status_data occupied_slots containers{id cluster_role cluster_idx cluster_hostname "
     "session_id image registry status status_info status_data status_changed agent "
     "container_id resource_opts occupied_slots live_stat last_stat} dependencies{name "
     "id}"},
};

//  Writes the keys of selection as "a b{c d}".
static void
s_selection_text(const gw_gql_selection_t *selection, char *out, size_t size)
{
    size_t len = strlen(out);
    for (size_t i = 0; i < selection->count && len + 1 < size; i++) {
        const gw_gql_field_t *field = &selection->fields[i];
        snprintf(out + len, size - len, "%s%s", i ? " " : "", field->key);
        len = strlen(out);
        if (field->selection) {
            snprintf(out + len, size - len, "{");
            s_selection_text(field->selection, out, size);
            len = strlen(out);
            snprintf(out + len, size - len, "}");
            len = strlen(out);
        }
    }
}

//  The arguments of field as one JSON object (absent ones left out).
static json_t *
s_arguments_json(const gw_gql_field_t *field,
                 const gw_gql_operation_t *op,
                 json_t *variables,
                 gw_gql_error_t *err)
{
    json_t *object = json_object();
    for (size_t i = 0; i < field->argument_count; i++) {
        const char *name = field->arguments[i].name;
        json_t *value = gw_gql_field_argument(field, name, op, variables, err);
        if (!value && err->message[0]) {
            json_decref(object);
            return NULL;
        }
        if (value)
            json_object_set_new(object, name, value);
    }
    return object;
}

//  One client case: parses, picks the operation, coerces the variables and
//  compares root field, arguments and selection. Says what differs.
static bool
s_client_case_ok(const s_client_case_t *c)
{
    gw_gql_error_t err;
    char text[2048] = "", *got = NULL;
    const char *why = NULL;
    json_t *raw = c->variables ? json_loads(c->variables, 0, NULL) : NULL;
    json_t *variables = NULL, *arguments = NULL, *expected = NULL;
    const gw_gql_operation_t *op = NULL;
    const gw_gql_field_t *root = NULL;
    gw_gql_doc_t *doc = gw_gql_parse(c->query, strlen(c->query), &err);
    if (!doc || !(op = gw_gql_doc_operation(doc, NULL, &err)))
        why = err.message;
    else if (strcmp(op->kind,
                    strncmp(c->query, "mutation", 8) == 0 ? "mutation" : "query"))
        why = "kind";
    else if (!(variables = gw_gql_operation_coerce_variables(op, raw, &err)))
        why = err.message;
    else if (op->selection.count != 1)
        why = "root field count";
    else if (root = &op->selection.fields[0], strcmp(root->name, c->root) != 0 ||
                                                  strcmp(root->key, c->root) != 0 ||
                                                  root->alias || !root->selection)
        why = "root field";
    else if (!(arguments = s_arguments_json(root, op, variables, &err)))
        why = err.message;
    else if (expected = json_loads(c->arguments, 0, NULL),
             !json_equal(arguments, expected))
        why = got = json_dumps(arguments, JSON_SORT_KEYS | JSON_COMPACT);
    else if (s_selection_text(root->selection, text, sizeof text),
             strcmp(text, c->selection) != 0)
        why = text;
    if (why)
        fprintf(stderr, "# client case %s: %s\n", c->name, why);
    free(got);
    json_decref(raw);
    json_decref(variables);
    json_decref(arguments);
    json_decref(expected);
    gw_gql_doc_destroy(&doc);
    return why == NULL && doc == NULL;
}

static void
test_client_queries(void)
{
    size_t count = sizeof s_client_cases / sizeof s_client_cases[0];
    T_EQ_INT(count, 25);
    for (size_t i = 0; i < count; i++)
        T_ASSERT(s_client_case_ok(&s_client_cases[i]));
}

//  Parses text (NUL-terminated) expecting an error; checks message and place.
static bool
s_fails(const char *text, const char *message, int line, int column)
{
    gw_gql_error_t err;
    gw_gql_doc_t *doc = gw_gql_parse(text, strlen(text), &err);
    bool ok = !doc && strcmp(err.message, message) == 0 && err.line == line &&
              err.column == column;
    if (!ok)
        fprintf(stderr,
                "# input %s\n#   got %s \"%s\" at %d:%d\n#  want \"%s\" at %d:%d\n", text,
                doc ? "a document" : "error", err.message, err.line, err.column, message,
                line, column);
    gw_gql_doc_destroy(&doc);
    return ok;
}

typedef struct {
    const char *text;
    const char *message;
    int line;
    int column;
} s_error_case_t;

static const s_error_case_t s_syntax_errors[] = {
    {"", "Syntax Error: Unexpected <EOF>.", 1, 1},
    {"  # only a comment\n", "Syntax Error: Unexpected <EOF>.", 2, 1},
    {"{", "Syntax Error: Expected Name, found <EOF>.", 1, 2},
    {"query {\n  users {\n    }\n}", "Syntax Error: Expected Name, found \"}\".", 3, 5},
    {"{ a } }", "Syntax Error: Unexpected \"}\".", 1, 7},
    {"{ a: }", "Syntax Error: Expected Name, found \"}\".", 1, 6},
    {"{ a(x: ) }", "Syntax Error: Unexpected \")\".", 1, 8},
    {"{ a(x 1) }", "Syntax Error: Expected \":\", found Int \"1\".", 1, 7},
    {"{ a(x: 1 }", "Syntax Error: Expected Name, found \"}\".", 1, 10},
    {"{ a() }", "Syntax Error: Expected Name, found \")\".", 1, 5},
    {"{ a(x: [1, 2) }", "Syntax Error: Unexpected \")\".", 1, 13},
    {"{ a(x: {k 1}) }", "Syntax Error: Expected \":\", found Int \"1\".", 1, 11},
    {"{ a(x: \"s\" \"t\") }", "Syntax Error: Expected Name, found String \"t\".", 1, 12},
    {"query ($x Int) { a }", "Syntax Error: Expected \":\", found Name \"Int\".", 1, 11},
    {"query () { a }", "Syntax Error: Expected \"$\", found \")\".", 1, 8},
    {"query ($x: ) { a }", "Syntax Error: Expected Name, found \")\".", 1, 12},
    {"query ($x: [Int) { a }", "Syntax Error: Expected \"]\", found \")\".", 1, 16},
    {"query Q", "Syntax Error: Expected \"{\", found <EOF>.", 1, 8},
    {"query Q($x: Int = $y) { a(x: $x) }",
     "Syntax Error: Unexpected variable \"$y\" in constant value.", 1, 19},
    {"fragment on on T { a }", "Syntax Error: Unexpected Name \"on\".", 1, 10},
    {"fragment F T { a }", "Syntax Error: Expected \"on\", found Name \"T\".", 1, 12},
    {"{ ... on { a } }", "Syntax Error: Expected Name, found \"{\".", 1, 10},
    {"{ ... }", "Syntax Error: Expected \"{\", found \"}\".", 1, 7},
    {"type Query { a: Int }", "Syntax Error: Unexpected Name \"type\".", 1, 1},
    {"\"description\" { a }", "Syntax Error: Unexpected String \"description\".", 1, 1},
    {"{ a } 1", "Syntax Error: Unexpected Int \"1\".", 1, 7},
    {"{ a & b }", "Syntax Error: Expected Name, found \"&\".", 1, 5},
    {"{ a ? }", "Syntax Error: Unexpected character: \"?\".", 1, 5},
    {"{ a .. }", "Syntax Error: Unexpected character: \".\".", 1, 5},
    {"{ a 'x' }",
     "Syntax Error: Unexpected single quote character ('), did you mean to use a double "
     "quote (\")?",
     1, 5},
    {"{ a \x01 }", "Syntax Error: Unexpected character: U+0001.", 1, 5},
    {"{ \xc3\xa9t\xc3\xa9 }", "Syntax Error: Unexpected character: U+00E9.", 1, 3},
    {"{ a }\xff", "Syntax Error: Invalid UTF-8 sequence.", 1, 6},
    {"{ a } # \xc0\xaf", "Syntax Error: Invalid UTF-8 sequence.", 1, 9},
    {"{ a(x: \"\xed\xa0\x80\") }", "Syntax Error: Invalid UTF-8 sequence.", 1, 9},
    {"{ a(x: 01) }", "Syntax Error: Invalid number, unexpected digit after 0: \"1\".", 1,
     9},
    {"{ a(x: 1.) }", "Syntax Error: Invalid number, expected digit but got: \")\".", 1,
     10},
    {"{ a(x: 1e) }", "Syntax Error: Invalid number, expected digit but got: \")\".", 1,
     10},
    {"{ a(x: 1e+) }", "Syntax Error: Invalid number, expected digit but got: \")\".", 1,
     11},
    {"{ a(x: 12ab) }", "Syntax Error: Invalid number, expected digit but got: \"a\".", 1,
     10},
    {"{ a(x: 1.5.) }", "Syntax Error: Invalid number, expected digit but got: \".\".", 1,
     11},
    {"{ a(x: -) }", "Syntax Error: Invalid number, expected digit but got: \")\".", 1, 9},
    {"{ a(x: -", "Syntax Error: Invalid number, expected digit but got: <EOF>.", 1, 9},
    {"{ a(x: \"abc) }", "Syntax Error: Unterminated string.", 1, 15},
    {"{ a(x: \"abc\n\") }", "Syntax Error: Unterminated string.", 1, 12},
    {"{ a(x: \"\"\"abc) }", "Syntax Error: Unterminated string.", 1, 17},
    {"{ a(x: \"a\x07\") }", "Syntax Error: Invalid character within String: U+0007.", 1,
     10},
    {"{ a(x: \"\"\"a\x07\"\"\") }",
     "Syntax Error: Invalid character within String: U+0007.", 1, 12},
    {"{ a(x: \"\\x\") }", "Syntax Error: Invalid character escape sequence: \"\\x\".", 1,
     9},
    {"{ a(x: \"\\u12G4\") }",
     "Syntax Error: Invalid Unicode escape sequence: \"\\u12G4\".", 1, 9},
    {"{ a(x: \"\\uD83D\") }",
     "Syntax Error: Invalid Unicode escape sequence: \"\\uD83D\".", 1, 9},
    {"{ a(x: \"\\uDE00\\uD83D\") }",
     "Syntax Error: Invalid Unicode escape sequence: \"\\uDE00\".", 1, 9},
    {"{ a(x: \"\\u{110000}\") }",
     "Syntax Error: Invalid Unicode escape sequence: \"\\u{110000}\".", 1, 9},
    {"{ a(x: \"\\u{}\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\u{}\".",
     1, 9},
    {"{ a(x: \"\\u{D800}\") }",
     "Syntax Error: Invalid Unicode escape sequence: \"\\u{D800}\".", 1, 9},
    {"{ a(x: 9223372036854775808) }",
     "Int cannot represent non 64-bit signed integer value: 9223372036854775808", 1, 8},
    {"{ a(x: -9223372036854775809) }",
     "Int cannot represent non 64-bit signed integer value: -9223372036854775809", 1, 8},
    {"{ a(x: 1e999) }", "Float cannot represent non numeric value: 1e999", 1, 8},
};

static void
test_syntax_errors(void)
{
    size_t count = sizeof s_syntax_errors / sizeof s_syntax_errors[0];
    for (size_t i = 0; i < count; i++) {
        const s_error_case_t *c = &s_syntax_errors[i];
        T_ASSERT(s_fails(c->text, c->message, c->line, c->column));
    }
}

static const s_error_case_t s_validation_errors[] = {
    {"{ a @foo }", "Unknown directive \"@foo\".", 1, 5},
    {"query @skip(if: true) { a }", "Directive \"@skip\" may not be used on QUERY.", 1,
     7},
    {"mutation M @include(if: true) { a }",
     "Directive \"@include\" may not be used on MUTATION.", 1, 12},
    {"query ($x: Int @skip(if: true)) { a(x: $x) }",
     "Directive \"@skip\" may not be used on VARIABLE_DEFINITION.", 1, 16},
    {"{ ...F } fragment F on T @skip(if: true) { a }",
     "Directive \"@skip\" may not be used on FRAGMENT_DEFINITION.", 1, 26},
    {"{ a @skip }",
     "Directive \"@skip\" argument \"if\" of type \"Boolean!\" is required, but it was "
     "not "
     "provided.",
     1, 5},
    {"{ a @skip(if: 1) }", "Argument \"if\" of directive \"@skip\" must be a Boolean.", 1,
     15},
    {"{ a @skip(unless: true) }", "Unknown argument \"unless\" on directive \"@skip\".",
     1, 11},
    {"{ a @skip(if: true) @skip(if: false) }",
     "The directive \"@skip\" can only be used once at this location.", 1, 21},
    {"{ a(x: 1, x: 2) }", "There can be only one argument named \"x\".", 1, 11},
    {"{ a(x: {k: 1, k: 2}) }", "There can be only one input field named \"k\".", 1, 15},
    {"query ($a: Int, $a: Int) { f(a: $a) }",
     "There can be only one variable named \"$a\".", 1, 17},
    {"{ a(x: $y) }", "Variable \"$y\" is not defined.", 1, 8},
    {"query Q($x: Int) {\n  a(x: [$x, {k: $y}])\n}",
     "Variable \"$y\" is not defined by operation \"Q\".", 2, 17},
    {"query Q { ...F }\nfragment F on T { a(x: $z) }",
     "Variable \"$z\" is not defined by operation \"Q\".", 2, 24},
    {"{ a } { b }", "This anonymous operation must be the only defined operation.", 1, 1},
    {"query Q { a } query Q { b }", "There can be only one operation named \"Q\".", 1,
     15},
    {"{ a } fragment F on T { a }", "Fragment \"F\" is never used.", 1, 7},
    {"{ ...F }", "Unknown fragment \"F\".", 1, 3},
    {"{ ...F }\nfragment F on T { b { ...G } }", "Unknown fragment \"G\".", 2, 23},
    {"{ ...F } fragment F on T { a } fragment F on T { b }",
     "There can be only one fragment named \"F\".", 1, 32},
    {"{ ...F } fragment F on T { a ...F }", "Cannot spread fragment \"F\" within itself.",
     1, 30},
    {"{ ...A }\nfragment A on T { ...B }\nfragment B on T { x { ...C } }\n"
     "fragment C on T { ...A }",
     "Cannot spread fragment \"A\" within itself via \"B\", \"C\".", 4, 19},
    {"{ a: b a: c }",
     "Fields \"a\" conflict because \"b\" and \"c\" are different fields. Use different "
     "aliases on the fields to fetch both if this was intentional.",
     1, 8},
    {"{ a(x: 1) a(x: 2) }",
     "Fields \"a\" conflict because they have differing arguments. Use different aliases "
     "on "
     "the fields to fetch both if this was intentional.",
     1, 11},
    {"{ a a { b } }",
     "Fields \"a\" conflict because subfields are selected on only one of them. Use "
     "different aliases on the fields to fetch both if this was intentional.",
     1, 5},
    {"{ id ...F } fragment F on T { id: name } ",
     "Fields \"id\" conflict because \"id\" and \"name\" are different fields. Use "
     "different "
     "aliases on the fields to fetch both if this was intentional.",
     1, 31},
};

static void
test_validation_errors(void)
{
    size_t count = sizeof s_validation_errors / sizeof s_validation_errors[0];
    for (size_t i = 0; i < count; i++) {
        const s_error_case_t *c = &s_validation_errors[i];
        T_ASSERT(s_fails(c->text, c->message, c->line, c->column));
    }
}

//  Parses text that must be good and returns its only operation.
static gw_gql_doc_t *
s_parse_ok(const char *text, const gw_gql_operation_t **op)
{
    gw_gql_error_t err;
    gw_gql_doc_t *doc = gw_gql_parse(text, strlen(text), &err);
    if (!doc)
        fprintf(stderr, "# %s: %d:%d %s\n", text, err.line, err.column, err.message);
    *op = doc ? gw_gql_doc_operation(doc, NULL, &err) : NULL;
    return doc;
}

static void
test_positions(void)
{
    //  Lines end in \n, \r\n or \r; columns count code points, tabs as one.
    T_ASSERT(s_fails("{\r\n  a\r\n  b(\r\n}", "Syntax Error: Expected Name, found \"}\".",
                     4, 1));
    T_ASSERT(s_fails("{\r  a\r\t\t}}", "Syntax Error: Unexpected \"}\".", 3, 4));
    T_ASSERT(s_fails("{ a(x: \"\xc3\xa9\xc3\xa9\") b(",
                     "Syntax Error: Expected Name, found <EOF>.", 1, 16));
    T_ASSERT(s_fails("\xef\xbb\xbf{ a }}", "Syntax Error: Unexpected \"}\".", 1, 7));
    T_ASSERT(s_fails("{ a(x: \"\"\"\n  \xe2\x82\xac\n\"\"\") } x",
                     "Syntax Error: Unexpected Name \"x\".", 3, 8));
    //  Positions of nodes.
    const gw_gql_operation_t *op;
    gw_gql_doc_t *doc =
        s_parse_ok("query Q($v: Int) {\n  users(limit: $v) {\n    id\n  }\n}", &op);
    T_ASSERT(op);
    T_EQ_INT(op->line, 1);
    T_EQ_INT(op->column, 1);
    T_EQ_INT(op->variables[0].line, 1);
    T_EQ_INT(op->variables[0].column, 9);
    const gw_gql_field_t *users = &op->selection.fields[0];
    T_EQ_INT(users->line, 2);
    T_EQ_INT(users->column, 3);
    T_EQ_INT(users->arguments[0].line, 2);
    T_EQ_INT(users->arguments[0].column, 9);
    T_EQ_INT(users->arguments[0].value.column, 16);
    T_EQ_INT(users->selection->fields[0].line, 3);
    T_EQ_INT(users->selection->fields[0].column, 5);
    gw_gql_doc_destroy(&doc);
}

static void
test_ignored_tokens(void)
{
    const char *text = "\xef\xbb\xbf# leading comment\n"
                       "query Q ,($a:Int,,$b:[String]) { # comment { not a brace\n"
                       "  x: f(a: $a, b: $b,),,, g\r\n"
                       "  h # trailing\n"
                       "}\n";
    const gw_gql_operation_t *op;
    gw_gql_doc_t *doc = s_parse_ok(text, &op);
    T_ASSERT(op);
    T_EQ_STR(op->name, "Q");
    T_EQ_INT(op->variable_count, 2);
    T_EQ_INT(op->selection.count, 3);
    T_EQ_STR(op->selection.fields[0].alias, "x");
    T_EQ_STR(op->selection.fields[0].name, "f");
    T_EQ_STR(op->selection.fields[0].key, "x");
    T_EQ_INT(op->selection.fields[0].argument_count, 2);
    T_EQ_STR(op->selection.fields[2].key, "h");
    T_ASSERT(op->selection.fields[2].selection == NULL);
    gw_gql_doc_destroy(&doc);
}

static void
test_operations(void)
{
    gw_gql_error_t err;
    const char *text =
        "query A { a } mutation B($x: Int) { b(x: $x) } subscription C { c }";
    gw_gql_doc_t *doc = gw_gql_parse(text, strlen(text), &err);
    T_ASSERT(doc);
    const gw_gql_operation_t *op = gw_gql_doc_operation(doc, "B", &err);
    T_ASSERT(op);
    T_EQ_STR(op->kind, "mutation");
    T_EQ_STR(op->name, "B");
    T_EQ_STR(op->selection.fields[0].name, "b");
    op = gw_gql_doc_operation(doc, "C", &err);
    T_ASSERT(op);
    T_EQ_STR(op->kind, "subscription");
    T_EQ_STR(gw_gql_doc_operation(doc, "A", &err)->kind, "query");
    T_ASSERT(gw_gql_doc_operation(doc, NULL, &err) == NULL);
    T_EQ_STR(err.message,
             "Must provide operation name if query contains multiple operations.");
    T_ASSERT(gw_gql_doc_operation(doc, "", &err) == NULL);
    T_ASSERT(gw_gql_doc_operation(doc, "D", &err) == NULL);
    T_EQ_STR(err.message, "Unknown operation named \"D\".");
    gw_gql_doc_destroy(&doc);
    gw_gql_doc_destroy(&doc);
    T_ASSERT(doc == NULL);

    //  The shorthand, and a name given for a document of one operation.
    doc = gw_gql_parse("{ a }", 5, &err);
    T_ASSERT(doc);
    op = gw_gql_doc_operation(doc, NULL, &err);
    T_ASSERT(op);
    T_EQ_STR(op->kind, "query");
    T_ASSERT(op->name == NULL);
    T_EQ_INT(op->variable_count, 0);
    T_ASSERT(gw_gql_doc_operation(doc, "Q", &err) == NULL);
    T_EQ_STR(err.message, "Unknown operation named \"Q\".");
    gw_gql_doc_destroy(&doc);

    //  Input need not end in NUL: only size bytes are read.
    doc = gw_gql_parse("{ a }}}}", 5, &err);
    T_ASSERT(doc);
    gw_gql_doc_destroy(&doc);
    //  Unused variables are accepted.
    doc = gw_gql_parse("query ($unused: Int) { a }", 26, &err);
    T_ASSERT(doc);
    gw_gql_doc_destroy(&doc);
}

static void
test_variable_definitions(void)
{
    const char *text =
        "query Q($limit: Int!, $ids: [String!] = [\"a\"], $f: String, $m: [[ID]!]!,"
        " $o: In = {k: [1, 2.5, ENUM, null, true]}) { q(limit: $limit, ids: $ids, f: $f, "
        "m: "
        "$m, o: $o) }";
    const gw_gql_operation_t *op;
    gw_gql_doc_t *doc = s_parse_ok(text, &op);
    T_ASSERT(op);
    T_EQ_INT(op->variable_count, 5);
    const gw_gql_variable_t *v = op->variables;
    T_EQ_STR(v[0].name, "limit");
    T_EQ_STR(v[0].type->name, "Int");
    T_ASSERT(v[0].type->non_null);
    T_ASSERT(v[0].default_value == NULL);
    T_EQ_STR(v[0].type->text, "Int!");
    T_ASSERT(v[1].type->name == NULL);
    T_ASSERT(!v[1].type->non_null);
    T_EQ_STR(v[1].type->item->name, "String");
    T_ASSERT(v[1].type->item->non_null);
    T_EQ_STR(v[1].type->text, "[String!]");
    T_ASSERT(v[1].default_value);
    T_EQ_INT(v[1].default_value->kind, GW_GQL_LIST);
    T_EQ_STR(v[2].type->text, "String");
    T_EQ_STR(v[3].type->text, "[[ID]!]!");
    T_EQ_STR(v[3].type->item->item->name, "ID");
    T_EQ_STR(v[4].type->text, "In");

    //  Coercion wants $m; the raw values still resolve, with defaults.
    gw_gql_error_t err;
    json_t *vars = json_pack("{s:i}", "limit", 5);
    T_ASSERT(gw_gql_operation_coerce_variables(op, vars, &err) == NULL);
    T_EQ_STR(err.message,
             "Variable \"$m\" of required type \"[[ID]!]!\" was not provided.");
    T_EQ_INT(err.line, 1);
    T_EQ_INT(err.column, 60);
    const gw_gql_field_t *q = &op->selection.fields[0];
    json_t *ids = gw_gql_field_argument(q, "ids", op, vars, &err);
    json_t *o = gw_gql_field_argument(q, "o", op, vars, &err);
    char *ids_text = json_dumps(ids, JSON_COMPACT);
    char *o_text = json_dumps(o, JSON_COMPACT);
    T_EQ_STR(ids_text, "[\"a\"]");
    T_EQ_STR(o_text, "{\"k\":[1,2.5,\"ENUM\",null,true]}");
    free(ids_text);
    free(o_text);
    json_decref(ids);
    json_decref(o);
    //  $f and $m were not provided: $f has no default, $m is required.
    T_ASSERT(gw_gql_field_argument(q, "f", op, vars, &err) == NULL);
    T_EQ_STR(err.message, "");
    T_ASSERT(gw_gql_field_argument(q, "nope", op, vars, &err) == NULL);
    T_EQ_STR(err.message, "");
    T_ASSERT(gw_gql_field_argument(q, "m", op, vars, &err) == NULL);
    T_EQ_STR(err.message,
             "Variable \"$m\" of required type \"[[ID]!]!\" was not provided.");
    json_decref(vars);
    gw_gql_doc_destroy(&doc);
}

//  Coerces the JSON variables against the definitions in `definitions` and
//  compares the result (or the error message) with want.
static bool
s_coerces(const char *definitions, const char *variables, const char *want)
{
    char text[512];
    snprintf(text, sizeof text, "query %s { a }", definitions);
    gw_gql_error_t err;
    gw_gql_doc_t *doc = gw_gql_parse(text, strlen(text), &err);
    if (!doc) {
        fprintf(stderr, "# %s: %s\n", text, err.message);
        return false;
    }
    const gw_gql_operation_t *op = gw_gql_doc_operation(doc, NULL, &err);
    json_t *given = variables ? json_loads(variables, JSON_DECODE_ANY, NULL) : NULL;
    json_t *coerced = gw_gql_operation_coerce_variables(op, given, &err);
    char *got = coerced ? json_dumps(coerced, JSON_COMPACT | JSON_SORT_KEYS)
                        : strdup(err.message);
    bool ok = strcmp(got, want) == 0;
    if (!ok)
        fprintf(stderr, "# %s with %s\n#   got %s\n#  want %s\n", definitions, variables,
                got, want);
    free(got);
    json_decref(coerced);
    json_decref(given);
    gw_gql_doc_destroy(&doc);
    return ok;
}

static void
test_coerce_variables(void)
{
    T_ASSERT(
        s_coerces("($limit: Int!)", "{}",
                  "Variable \"$limit\" of required type \"Int!\" was not provided."));
    T_ASSERT(
        s_coerces("($limit: Int!)", NULL,
                  "Variable \"$limit\" of required type \"Int!\" was not provided."));
    T_ASSERT(
        s_coerces("($limit: Int!)", "{\"limit\": null}",
                  "Variable \"$limit\" of non-null type \"Int!\" must not be null."));
    T_ASSERT(
        s_coerces("($limit: Int!)", "{\"limit\": \"5\"}",
                  "Variable \"$limit\" got invalid value \"5\"; Int cannot represent "
                  "non-integer value: \"5\""));
    T_ASSERT(s_coerces("($limit: Int!)", "{\"limit\": 1.5}",
                       "Variable \"$limit\" got invalid value 1.5; Int cannot represent "
                       "non-integer value: 1.5"));
    T_ASSERT(s_coerces(
        "($limit: Int)", "{\"limit\": 3000000000}",
        "Variable \"$limit\" got invalid value 3000000000; Int cannot represent "
        "non 32-bit signed integer value: 3000000000"));
    T_ASSERT(s_coerces("($limit: Int)", "{\"limit\": 3e9}",
                       "Variable \"$limit\" got invalid value 3000000000.0; Int cannot "
                       "represent non 32-bit signed integer value: 3000000000.0"));
    T_ASSERT(s_coerces("($limit: Int!, $x: Int)", "{\"limit\": 2.0, \"x\": -2147483648}",
                       "{\"limit\":2,\"x\":-2147483648}"));
    T_ASSERT(s_coerces("($f: Float)", "{\"f\": 2}", "{\"f\":2.0}"));
    T_ASSERT(
        s_coerces("($f: Float)", "{\"f\": true}",
                  "Variable \"$f\" got invalid value true; Float cannot represent non "
                  "numeric value: true"));
    T_ASSERT(
        s_coerces("($s: String)", "{\"s\": 1}",
                  "Variable \"$s\" got invalid value 1; String cannot represent a non "
                  "string value: 1"));
    T_ASSERT(
        s_coerces("($b: Boolean)", "{\"b\": \"yes\"}",
                  "Variable \"$b\" got invalid value \"yes\"; Boolean cannot represent a "
                  "non boolean value: \"yes\""));
    T_ASSERT(s_coerces("($i: ID, $j: ID)", "{\"i\": 42, \"j\": \"x\"}",
                       "{\"i\":\"42\",\"j\":\"x\"}"));
    T_ASSERT(s_coerces(
        "($i: ID)", "{\"i\": [1]}",
        "Variable \"$i\" got invalid value [1]; ID cannot represent value: [1]"));
    T_ASSERT(s_coerces("($j: JSONString)", "{\"j\": \"{\\\"cpu\\\": 2}\"}",
                       "{\"j\":\"{\\\"cpu\\\": 2}\"}"));
    T_ASSERT(s_coerces(
        "($j: JSONString)", "{\"j\": \"{cpu\"}",
        "Variable \"$j\" got invalid value \"{cpu\"; JSONString cannot represent "
        "value: \"{cpu\""));
    //  Lists: items coerced, one value becomes a list, paths in messages.
    T_ASSERT(s_coerces("($ids: [String!]!)", "{\"ids\": \"a\"}", "{\"ids\":[\"a\"]}"));
    T_ASSERT(s_coerces("($ids: [String!]!)", "{\"ids\": [\"a\", null]}",
                       "Variable \"$ids\" got invalid value null at \"ids[1]\"; Expected "
                       "non-nullable type \"String!\" not to be null."));
    T_ASSERT(s_coerces("($m: [[Int]])", "{\"m\": [[1, null], [2]]}",
                       "{\"m\":[[1,null],[2]]}"));
    T_ASSERT(
        s_coerces("($m: [[Int]])", "{\"m\": [[1], [2, \"x\"]]}",
                  "Variable \"$m\" got invalid value \"x\" at \"m[1][1]\"; Int cannot "
                  "represent non-integer value: \"x\""));
    //  Unknown input types pass, undeclared values are dropped, defaults fill in.
    T_ASSERT(s_coerces("($input: UserInput!)", "{\"input\": {\"a\": [1]}, \"other\": 1}",
                       "{\"input\":{\"a\":[1]}}"));
    T_ASSERT(s_coerces("($n: Int = 10, $s: [String] = \"x\", $z: Int = null)", "{}",
                       "{\"n\":10,\"s\":[\"x\"],\"z\":null}"));
    T_ASSERT(s_coerces("($n: Int = 10)", "{\"n\": null}", "{\"n\":null}"));
    T_ASSERT(s_coerces("($n: Int = \"ten\")", "{}",
                       "Variable \"$n\" has invalid default value \"ten\"; Int cannot "
                       "represent non-integer value: \"ten\""));
    T_ASSERT(s_coerces("($n: Int)", "[1]",
                       "Variables must be provided as an Object where each property is a "
                       "variable value."));
    T_ASSERT(s_coerces("($n: Int)", "{}", "{}"));
}

static void
test_values(void)
{
    const char *text =
        "query ($v: String, $w: Int, $absent: Int) {\n"
        "  f(i: -42, big: 9223372036854775807, small: -9223372036854775808, fl: -1.5e3,\n"
        "    s: \"x\", t: true, u: false, n: null, e: ACTIVE, l: [1, [2, []]],\n"
        "    o: {a: {b: [$v, $absent]}, c: $absent, d: $w}, v: $v)\n"
        "}";
    const gw_gql_operation_t *op;
    gw_gql_doc_t *doc = s_parse_ok(text, &op);
    T_ASSERT(op);
    const gw_gql_field_t *f = &op->selection.fields[0];
    T_EQ_INT(f->argument_count, 12);
    T_EQ_INT(f->arguments[0].value.kind, GW_GQL_INT);
    T_EQ_INT(f->arguments[0].value.integer, -42);
    T_EQ_STR(f->arguments[0].value.text, "-42");
    T_ASSERT(f->arguments[1].value.integer == INT64_MAX);
    T_ASSERT(f->arguments[2].value.integer == INT64_MIN);
    T_EQ_INT(f->arguments[3].value.kind, GW_GQL_FLOAT);
    T_ASSERT(f->arguments[3].value.number == -1500.0);
    T_EQ_INT(f->arguments[8].value.kind, GW_GQL_ENUM);
    T_EQ_STR(f->arguments[8].value.text, "ACTIVE");
    T_EQ_INT(f->arguments[11].value.kind, GW_GQL_VARIABLE);
    T_EQ_STR(f->arguments[11].value.text, "v");

    gw_gql_error_t err;
    json_t *vars = json_pack("{s:s,s:i}", "v", "vee", "w", 7);
    json_t *all = s_arguments_json(f, op, vars, &err);
    T_ASSERT(all);
    char *got = json_dumps(all, JSON_COMPACT);
    T_EQ_STR(got,
             "{\"i\":-42,\"big\":9223372036854775807,\"small\":-9223372036854775808,"
             "\"fl\":-1500.0,\"s\":\"x\",\"t\":true,\"u\":false,\"n\":null,\"e\":"
             "\"ACTIVE\",\"l\":[1,[2,[]]],\"o\":{\"a\":{\"b\":[\"vee\",null]},\"d\":7},"
             "\"v\":\"vee\"}");
    free(got);
    json_decref(all);
    //  A value on its own; with no variables at all.
    json_t *v = gw_gql_value_json(&f->arguments[10].value, op, NULL, &err);
    T_ASSERT(v);
    got = json_dumps(v, JSON_COMPACT);
    T_EQ_STR(got, "{\"a\":{\"b\":[null,null]}}");
    free(got);
    json_decref(v);
    v = gw_gql_value_json(&f->arguments[11].value, op, NULL, &err);
    T_ASSERT(json_is_null(v));
    json_decref(v);
    //  Without its operation a variable cannot be read.
    T_ASSERT(gw_gql_value_json(&f->arguments[11].value, NULL, vars, &err) == NULL);
    T_EQ_STR(err.message, "Variable \"$v\" is not defined.");
    T_EQ_INT(err.line, 4);
    json_decref(vars);
    gw_gql_doc_destroy(&doc);
}

//  The string value of argument x of the only root field of text.
static bool
s_string_is(const char *text, const char *want, size_t want_len)
{
    const gw_gql_operation_t *op;
    gw_gql_doc_t *doc = s_parse_ok(text, &op);
    bool ok = false;
    if (op) {
        const gw_gql_value_t *v = &op->selection.fields[0].arguments[0].value;
        ok = v->kind == GW_GQL_STRING && v->length == want_len &&
             memcmp(v->text, want, want_len) == 0 && v->text[want_len] == '\0';
        if (!ok)
            fprintf(stderr, "# %s\n#   got [%s] (%zu bytes)\n#  want [%s]\n", text,
                    v->text, v->length, want);
        json_t *json = gw_gql_value_json(v, op, NULL, NULL);
        ok = ok && json && json_string_length(json) == want_len;
        json_decref(json);
    }
    gw_gql_doc_destroy(&doc);
    return ok;
}

#define S_STRING_IS(text, want) s_string_is(text, want, sizeof(want) - 1)

static void
test_strings(void)
{
    T_ASSERT(S_STRING_IS("{ a(x: \"\") }", ""));
    T_ASSERT(S_STRING_IS("{ a(x: \"plain text\") }", "plain text"));
    T_ASSERT(S_STRING_IS("{ a(x: \"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\") }",
                         "\" \\ / \b \f \n \r \t"));
    T_ASSERT(S_STRING_IS("{ a(x: \"caf\\u00e9 \\u20AC\") }", "caf\xc3\xa9 \xe2\x82\xac"));
    T_ASSERT(S_STRING_IS("{ a(x: \"\\uD83D\\uDE00\") }", "\xf0\x9f\x98\x80"));
    T_ASSERT(S_STRING_IS("{ a(x: \"\\u{1F600}\\u{41}\") }", "\xf0\x9f\x98\x80"
                                                            "A"));
    T_ASSERT(S_STRING_IS("{ a(x: \"nul\\u0000byte\") }", "nul\0byte"));
    T_ASSERT(S_STRING_IS("{ a(x: \"raw \xc3\xa9\xf0\x9f\x98\x80\ttab\") }",
                         "raw \xc3\xa9\xf0\x9f\x98\x80\ttab"));
    T_ASSERT(S_STRING_IS("{ a(x: \"#not a comment, {}\") }", "#not a comment, {}"));
}

static void
test_block_strings(void)
{
    //  The spec's example: common indentation and blank edge lines go.
    T_ASSERT(S_STRING_IS("{ a(x: \"\"\"\n"
                         "    Hello,\n"
                         "      World!\n"
                         "\n"
                         "    Yours,\n"
                         "      GraphQL.\n"
                         "  \"\"\") }",
                         "Hello,\n  World!\n\nYours,\n  GraphQL."));
    T_ASSERT(S_STRING_IS("{ a(x: \"\"\"\"\"\") }", ""));
    T_ASSERT(S_STRING_IS("{ a(x: \"\"\"  first line kept  \n   second\"\"\") }",
                         "  first line kept  \nsecond"));
    T_ASSERT(S_STRING_IS("{ a(x: \"\"\"say \\\"\"\"hi\\\"\"\" \\n \"quoted\" \"\"\") }",
                         "say \"\"\"hi\"\"\" \\n \"quoted\" "));
    T_ASSERT(
        S_STRING_IS("{ a(x: \"\"\"\r\n  a\r\n    b\r  c\r\n\r\n\"\"\") }", "a\n  b\nc"));
    T_ASSERT(S_STRING_IS("{ a(x: \"\"\"\n\t\ttab\n\t\t\tmore\n\"\"\") }", "tab\n\tmore"));
    T_ASSERT(S_STRING_IS("{ a(x: \"\"\"   \n  \n\"\"\") }", ""));
}

static void
test_fragments(void)
{
    const char *text = "query Q($id: ID) {\n"
                       "  users { id ...Names }\n"
                       "  ... on Query { users { email groups { id } } }\n"
                       "  ...Root\n"
                       "  ... { count: user_count }\n"
                       "}\n"
                       "fragment Names on User { username full_name groups { name } }\n"
                       "fragment Root on Query { user(id: $id) { ...Names } }\n";
    const gw_gql_operation_t *op;
    gw_gql_doc_t *doc = s_parse_ok(text, &op);
    T_ASSERT(op);
    char got[512] = "";
    s_selection_text(&op->selection, got, sizeof got);
    T_EQ_STR(got,
             "users{id username full_name groups{name id} email} user{username full_name "
             "groups{name}} count");
    const gw_gql_field_t *count = &op->selection.fields[2];
    T_EQ_STR(count->alias, "count");
    T_EQ_STR(count->name, "user_count");
    gw_gql_error_t err;
    json_t *vars = json_pack("{s:s}", "id", "u1");
    json_t *id = gw_gql_field_argument(&op->selection.fields[1], "id", op, vars, &err);
    T_ASSERT(json_is_string(id));
    json_decref(id);
    json_decref(vars);
    gw_gql_doc_destroy(&doc);

    //  The same fragment in several places, through several operations.
    text = "query A { ...F a: x } query B { b { ...F } }\n"
           "fragment F on T { x ...G } fragment G on T { y x }";
    doc = gw_gql_parse(text, strlen(text), &err);
    T_ASSERT(doc);
    op = gw_gql_doc_operation(doc, "A", &err);
    got[0] = 0;
    s_selection_text(&op->selection, got, sizeof got);
    T_EQ_STR(got, "x y a");
    op = gw_gql_doc_operation(doc, "B", &err);
    got[0] = 0;
    s_selection_text(&op->selection, got, sizeof got);
    T_EQ_STR(got, "b{x y}");
    gw_gql_doc_destroy(&doc);
}

//  Fields of one response key merge when their arguments are equal as
//  values (object fields in any order); otherwise they conflict.
static void
test_merging(void)
{
    const char *text =
        "query ($x: Boolean, $v: Int) {\n"
        "  a(x: [1, {k: \"s\", b: true, n: null, f: 1.5, e: E, v: $v}]) { b }\n"
        "  a(x: [1, {v: $v, e: E, f: 1.50, n: null, b: true, k: \"s\"}]) { c }\n"
        "  d @include(if: $x) { e }\n"
        "  d @include(if: $x) { f }\n"
        "}";
    const gw_gql_operation_t *op;
    gw_gql_doc_t *doc = s_parse_ok(text, &op);
    T_ASSERT(op);
    char got[256] = "";
    s_selection_text(&op->selection, got, sizeof got);
    T_EQ_STR(got, "a{b c} d{e f}");
    T_EQ_INT(op->selection.fields[1].directive_count, 1);
    gw_gql_doc_destroy(&doc);
    const char *differing[] = {
        "{ a(x: [1, 2]) a(x: [1]) }",
        "{ a(x: [1, 2]) a(x: [1, 3]) }",
        "{ a(x: {k: 1}) a(x: {j: 1}) }",
        "{ a(x: {k: 1}) a(x: {k: 1, j: 2}) }",
        "{ a(x: 1.5) a(x: 2.5) }",
        "{ a(x: true) a(x: false) }",
        "{ a(x: null) a(x: 0) }",
        "{ a(x: \"s\") a(x: \"t\") }",
        "{ a(x: E) a(x: \"E\") }",
        "{ a(x: 1) a(y: 1) }",
        "{ a(x: 1) a }",
    };
    for (size_t i = 0; i < sizeof differing / sizeof differing[0]; i++)
        T_ASSERT(
            s_fails(differing[i],
                    "Fields \"a\" conflict because they have differing arguments. Use "
                    "different aliases on the fields to fetch both if this was "
                    "intentional.",
                    1, (int) (strchr(differing[i], ')') - differing[i]) + 3));
}

static void
test_directives(void)
{
    const char *text = "query ($on: Boolean!, $off: Boolean = false, $maybe: Boolean) {\n"
                       "  a @skip(if: true)\n"
                       "  b @include(if: true)\n"
                       "  c @include(if: false)\n"
                       "  d @include(if: $on)\n"
                       "  e @skip(if: $on)\n"
                       "  ... @include(if: $off) { f g @skip(if: $on) }\n"
                       "  ...F @skip(if: false)\n"
                       "  h @include(if: $maybe)\n"
                       "  d\n"
                       "}\n"
                       "fragment F on Query { i }";
    const gw_gql_operation_t *op;
    gw_gql_doc_t *doc = s_parse_ok(text, &op);
    T_ASSERT(op);
    char got[256] = "";
    s_selection_text(&op->selection, got, sizeof got);
    //  a and c go now; d, e, f, g, h wait for variables; the second d has no
    //  condition, so it stays a separate entry.
    T_EQ_STR(got, "b d e f g i h d");
    const gw_gql_selection_t *s = &op->selection;
    T_EQ_INT(s->fields[0].directive_count, 0);
    T_EQ_INT(s->fields[1].directive_count, 1);
    T_EQ_STR(s->fields[1].directives[0].name, "include");
    T_EQ_INT(s->fields[4].directive_count, 2);

    gw_gql_error_t err;
    json_t *vars = json_pack("{s:b}", "on", 1);
    int want[] = {1, 1, 0, 0, 0, 1, -1, 1};
    for (size_t i = 0; i < s->count; i++)
        T_EQ_INT(gw_gql_field_included(&s->fields[i], op, vars, &err), want[i]);
    T_EQ_STR(err.message, "");
    T_EQ_INT(gw_gql_field_included(&s->fields[6], op, vars, &err), -1);
    T_EQ_STR(err.message,
             "Argument \"if\" of directive \"@include\" must be a Boolean, found "
             "null.");
    json_decref(vars);
    vars = json_pack("{s:b,s:b,s:b}", "on", 0, "off", 1, "maybe", 1);
    int want2[] = {1, 0, 1, 1, 1, 1, 1, 1};
    for (size_t i = 0; i < s->count; i++)
        T_EQ_INT(gw_gql_field_included(&s->fields[i], op, vars, &err), want2[i]);
    json_decref(vars);
    T_EQ_INT(gw_gql_field_included(&s->fields[1], op, NULL, &err), -1);
    T_EQ_STR(err.message,
             "Variable \"$on\" of required type \"Boolean!\" was not provided.");
    gw_gql_doc_destroy(&doc);
}

//  text repeated n times, between prefix and suffix; caller frees.
static char *
s_repeat(const char *prefix, const char *text, size_t n, const char *suffix)
{
    size_t len = strlen(text), size = strlen(prefix) + len * n + strlen(suffix) + 1;
    char *out = malloc(size), *end = out;
    end += sprintf(end, "%s", prefix);
    for (size_t i = 0; i < n; i++, end += len)
        memcpy(end, text, len);
    sprintf(end, "%s", suffix);
    return out;
}

//  Parses text, freeing it; returns whether it parsed and the error.
static bool
s_parses(char *text, gw_gql_error_t *err)
{
    gw_gql_doc_t *doc = gw_gql_parse(text, strlen(text), err);
    free(text);
    bool ok = doc != NULL;
    gw_gql_doc_destroy(&doc);
    return ok;
}

static void
test_limits(void)
{
    gw_gql_error_t err;
    //  Size.
    char *big = s_repeat("{ a(x: \"", "x", GW_GQL_MAX_INPUT, "\") }");
    T_ASSERT(!s_parses(big, &err));
    T_EQ_STR(err.message, "Document is larger than 262144 bytes.");
    T_EQ_INT(err.line, 0);
    T_ASSERT(s_parses(s_repeat("{ a(x: \"", "x", GW_GQL_MAX_INPUT - 16, "\") }"), &err));
    //  Selection depth: 32 levels parse, 33 do not.
    char *deep = s_repeat("", "{a", 32, "");
    char *text = s_repeat(deep, "}", 32, "");
    free(deep);
    T_ASSERT(s_parses(text, &err));
    deep = s_repeat("", "{a", 33, "");
    text = s_repeat(deep, "}", 33, "");
    free(deep);
    T_ASSERT(!s_parses(text, &err));
    T_EQ_STR(err.message, "Syntax Error: Document is nested more than 32 levels deep.");
    T_EQ_INT(err.column, 65);
    //  Value and type depth.
    T_ASSERT(!s_parses(s_repeat("{ a(x: ", "[", 40, ""), &err));
    T_EQ_STR(err.message, "Syntax Error: Document is nested more than 32 levels deep.");
    T_ASSERT(!s_parses(s_repeat("{ a(x: ", "{k: ", 33, ""), &err));
    T_EQ_STR(err.message, "Syntax Error: Document is nested more than 32 levels deep.");
    T_ASSERT(!s_parses(s_repeat("query ($x: ", "[", 100000, ""), &err));
    T_EQ_STR(err.message, "Syntax Error: Document is nested more than 32 levels deep.");
    deep = s_repeat("{ a(x: ", "[", 31, "1");
    T_ASSERT(s_parses(s_repeat(deep, "]", 31, ") }"), &err));
    free(deep);
    //  Tokens: "{" + 99998 fields + "}" is the most; one more fails.
    T_ASSERT(s_parses(s_repeat("{", " a", GW_GQL_MAX_TOKENS - 2, "}"), &err));
    T_ASSERT(!s_parses(s_repeat("{", " a", GW_GQL_MAX_TOKENS - 1, "}"), &err));
    T_EQ_STR(err.message,
             "Syntax Error: Document contains more than 100000 tokens. Parsing aborted.");
    T_EQ_INT(err.column, 200000);
    //  Deep recursion through fragments: nesting after inlining.
    text = s_repeat("{ ...F0 }", "", 0, "");
    {
        char *doc = malloc(64 * 1024), *end = doc;
        end += sprintf(end, "{ ...F0 }");
        for (int i = 0; i < 40; i++)
            end += sprintf(end, " fragment F%d on T { a%d { ...F%d } }", i, i, i + 1);
        sprintf(end, " fragment F40 on T { z }");
        T_ASSERT(!s_parses(doc, &err));
        T_EQ_STR(
            err.message,
            "Fields are nested more than 32 levels deep once fragments are inlined.");
    }
    free(text);
    {
        char *doc = malloc(64 * 1024), *end = doc;
        end += sprintf(end, "{ ...F0 }");
        for (int i = 0; i < 40; i++)
            end += sprintf(end, " fragment F%d on T { ...F%d }", i, i + 1);
        sprintf(end, " fragment F40 on T { z }");
        T_ASSERT(!s_parses(doc, &err));
        T_EQ_STR(err.message, "Fragments are nested more than 32 levels deep.");
    }
    //  Fragment bombs: each level spreads the next twice, under two keys
    //  (2^30 fields) or under none (the fields merge, the work does not).
    {
        char *doc = malloc(64 * 1024), *end = doc;
        end += sprintf(end, "{ ...F0 }");
        for (int i = 0; i < 30; i++)
            end += sprintf(end, " fragment F%d on T { x: f { ...F%d } y: f { ...F%d } }",
                           i, i + 1, i + 1);
        sprintf(end, " fragment F30 on T { z }");
        T_ASSERT(!s_parses(doc, &err));
        T_EQ_STR(err.message,
                 "Document selects more than 100000 fields once fragments are inlined.");
    }
    {
        char *doc = malloc(64 * 1024), *end = doc;
        end += sprintf(end, "{ ...F0 }");
        for (int i = 0; i < 30; i++)
            end += sprintf(end, " fragment F%d on T { ...F%d ...F%d }", i, i + 1, i + 1);
        sprintf(end, " fragment F30 on T { z }");
        T_ASSERT(!s_parses(doc, &err));
        T_EQ_STR(err.message,
                 "Document is too complex: validating it takes more than 4000000 steps.");
    }
    //  Many fields of one key merge cheaply; many distinct keys too.
    T_ASSERT(s_parses(s_repeat("{", " a", GW_GQL_MAX_TOKENS - 2, "}"), &err));
    {
        char *doc = malloc(1024 * 1024), *end = doc;
        end += sprintf(end, "{");
        for (int i = 0; i < 30000; i++)
            end += sprintf(end, " f%d(x: $v)", i);
        sprintf(end, " }");
        T_ASSERT(!s_parses(doc, &err));
        T_EQ_STR(err.message, "Document is larger than 262144 bytes.");
        doc = malloc(1024 * 1024), end = doc;
        end += sprintf(end, "query ($v: Int) {");
        for (int i = 0; i < 14000; i++)
            end += sprintf(end, " f%d(x:$v)", i);
        sprintf(end, " }");
        bool parsed = s_parses(doc, &err);
        T_EQ_STR(err.message, "");
        T_ASSERT(parsed);
    }
    //  A chain of 1000 fragments is not recursion: the cycle search has its
    //  own stack, and the depth limit stops the inlining.
    {
        char *doc = malloc(128 * 1024), *end = doc;
        end += sprintf(end, "{ ...F0 }");
        for (int i = 0; i < 1000; i++)
            end += sprintf(end, " fragment F%d on T { ...F%d }", i, i + 1);
        sprintf(end, " fragment F1000 on T { ...F0 }");
        T_ASSERT(!s_parses(doc, &err));
        T_CONTAINS(err.message, "Cannot spread fragment \"F0\" within itself via \"F1\", "
                                "\"F2\", \"F3\"");
        size_t len = strlen(err.message);
        T_ASSERT(len > 6 && len < GW_GQL_ERROR_MAX);
        T_EQ_STR(err.message + len - 6, ", ....");
        T_EQ_INT(err.line, 1);
    }
}

//  Random bytes and mutations of the client queries never crash.
static void
test_garbage(void)
{
    uint32_t seed = 12345;
    char buffer[512];
    const char *alphabet = "{}()[]:$@!=.\"\\ \n#,abcon01-eE\x80\xc3\xa9\"\"\"";
    size_t alphabet_len = strlen(alphabet);
    for (int round = 0; round < 20000; round++) {
        size_t len = (seed >> 3) % sizeof buffer;
        for (size_t i = 0; i < len; i++) {
            seed = seed * 1103515245 + 12345;
            buffer[i] = alphabet[(seed >> 16) % alphabet_len];
        }
        gw_gql_error_t err;
        gw_gql_doc_t *doc = gw_gql_parse(buffer, len, &err);
        if (!doc) {
            T_ASSERT(err.message[0]);
            json_t *message = json_string(err.message);
            T_ASSERT(message);
            json_decref(message);
        }
        gw_gql_doc_destroy(&doc);
    }
    size_t count = sizeof s_client_cases / sizeof s_client_cases[0];
    for (size_t c = 0; c < count; c++) {
        const char *query = s_client_cases[c].query;
        size_t len = strlen(query);
        for (size_t cut = 0; cut < len; cut++) {
            gw_gql_error_t err;
            gw_gql_doc_t *doc = gw_gql_parse(query, cut, &err);
            T_ASSERT(doc == NULL || cut > 0);
            gw_gql_doc_destroy(&doc);
        }
    }
}

int
main(void)
{
    T_RUN(test_client_queries);
    T_RUN(test_syntax_errors);
    T_RUN(test_validation_errors);
    T_RUN(test_positions);
    T_RUN(test_ignored_tokens);
    T_RUN(test_operations);
    T_RUN(test_variable_definitions);
    T_RUN(test_coerce_variables);
    T_RUN(test_values);
    T_RUN(test_strings);
    T_RUN(test_block_strings);
    T_RUN(test_fragments);
    T_RUN(test_merging);
    T_RUN(test_directives);
    T_RUN(test_limits);
    T_RUN(test_garbage);
    return T_DONE();
}
