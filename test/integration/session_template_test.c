/*  =========================================================================
    session_template_test - /template/session and create-from-template
    against the whole platform with a real agent: templates made from YAML
    and JSON, listed, read back as YAML and JSON, updated and deleted; who
    may read and change them (the owner, its project's members read only,
    domain admins and superadmins; another domain's users see nothing);
    Backend.AI's problem+json for malformed, oversized, alias-bomb and
    escaping templates; and a session created from a template, RUNNING with
    the template's image and resources and a request's override applied.
    Needs root, runc, umoci and tini.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gateway_client.h"
#include "t.h"

#define IMAGE "local.backplane/library/busybox:latest"

static client_platform_t s_p;
static harness_proc_t s_agent;
static char s_bridge[16];
static client_keypair_t s_alice, s_bob, s_admin, s_stranger;
static char s_yaml_id[64], s_json_id[64];

static const char *const s_yaml_template = "api_version: v1\n"
                                           "kind: taskTemplate\n"
                                           "metadata:\n"
                                           "  name: busybox-small\n"
                                           "  tag: from-yaml\n"
                                           "spec:\n"
                                           "  session_type: interactive\n"
                                           "  kernel:\n"
                                           "    image: " IMAGE "\n"
                                           "    environ:\n"
                                           "      GREETING: \"hello template\"\n"
                                           "      ANSWER: '42'\n"
                                           "    run:\n"
                                           "      startup: null\n"
                                           "  resources:\n"
                                           "    cpu: 1\n"
                                           "    mem: 192m\n";

//  A signed request as kp with body; the status and parsed JSON (NULL if
//  none), and the raw text in text_p when asked.
static int
s_as(const client_keypair_t *kp,
     const char *method,
     const char *path,
     const char *body,
     json_t **json_p,
     char **text_p)
{
    char *text = NULL;
    int status = client_signed(&s_p, kp, method, path, body, NULL, &text, NULL);
    if (json_p)
        *json_p = text ? json_loads(text, 0, NULL) : NULL;
    if (text_p)
        *text_p = text;
    else
        free(text);
    return status;
}

//  {"payload": text, ...extra} as the client sends it.
static char *
s_payload_body(const char *text, const char *extra_key, const char *extra)
{
    json_t *body = json_pack("{s:s, s:s, s:s}", "payload", text, "group_name", "default",
                             "domain_name", "default");
    if (extra_key)
        json_object_set_new(body, extra_key, json_string(extra));
    char *out = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    return out;
}

static int
s_create(const client_keypair_t *kp, const char *text, char *id, size_t size, char **type)
{
    char *body = s_payload_body(text, NULL, NULL);
    json_t *r = NULL;
    int status = s_as(kp, "POST", "/template/session", body, &r, NULL);
    free(body);
    if (id && json_is_string(json_object_get(r, "id")))
        snprintf(id, size, "%s", json_string_value(json_object_get(r, "id")));
    if (type)
        *type = json_is_string(json_object_get(r, "type"))
                    ? strdup(json_string_value(json_object_get(r, "type")))
                    : NULL;
    json_decref(r);
    return status;
}

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "templates", false) == 0);
    snprintf(s_bridge, sizeof s_bridge, "bpt%d", (int) (getpid() % 100000));
    T_ASSERT(client_agent_start(&s_p, &s_agent, "agent-t", s_bridge, harness_subnet()));
    T_ASSERT(client_person(&s_p, "alice@example.com", "default", "user", &s_alice));
    T_ASSERT(client_person(&s_p, "bob@example.com", "default", "user", &s_bob));
    T_ASSERT(client_person(&s_p, "admin@example.com", "default", "admin", &s_admin));
    json_t *r = client_gql(&s_p, &s_p.super,
                           "mutation { create_domain(name: \"elsewhere\", props: {})"
                           " { ok msg } }",
                           NULL);
    json_decref(r);
    T_ASSERT(
        client_person(&s_p, "carol@elsewhere.example", "elsewhere", "user", &s_stranger));
}

//  Alice makes one template from YAML and one from JSON; both come back as
//  she wrote them, normalized, in either format.
static void
test_create_and_get(void)
{
    T_EQ_INT(s_create(&s_alice, s_yaml_template, s_yaml_id, sizeof s_yaml_id, NULL), 200);
    T_EQ_INT(strlen(s_yaml_id), 32);
    const char *json_template =
        "{\"apiVersion\": \"v1\", \"kind\": \"taskTemplate\","
        " \"metadata\": {\"name\": \"busybox-batch\"},"
        " \"spec\": {\"type\": \"batch\", \"kernel\": {\"image\": \"" IMAGE "\","
        " \"run\": {\"startupCommand\": \"echo done\"}},"
        " \"mounts\": {\"data\": \"/home/work/data\", \"models\": \"shared/models\"}}}";
    T_EQ_INT(s_create(&s_alice, json_template, s_json_id, sizeof s_json_id, NULL), 200);
    char path[256];
    json_t *r = NULL;
    snprintf(path, sizeof path, "/template/session/%s?format=json", s_yaml_id);
    T_EQ_INT(s_as(&s_alice, "GET", path, NULL, &r, NULL), 200);
    json_t *spec = json_object_get(r, "spec");
    T_EQ_STR(json_string_value(json_object_get(json_object_get(r, "metadata"), "name")),
             "busybox-small");
    T_EQ_STR(json_string_value(json_object_get(spec, "session_type")), "interactive");
    json_t *kernel = json_object_get(spec, "kernel");
    T_EQ_STR(json_string_value(json_object_get(kernel, "image")), IMAGE);
    T_EQ_STR(
        json_string_value(json_object_get(json_object_get(kernel, "environ"), "ANSWER")),
        "42");
    T_EQ_STR(
        json_string_value(json_object_get(json_object_get(spec, "resources"), "mem")),
        "192m");
    T_EQ_INT(
        json_integer_value(json_object_get(json_object_get(spec, "resources"), "cpu")),
        1);
    json_decref(r);
    //  YAML: parsed back (as JSON payload of a new template) gives the same.
    char *text = NULL;
    snprintf(path, sizeof path, "/template/session/%s?format=yaml", s_yaml_id);
    T_EQ_INT(s_as(&s_alice, "GET", path, NULL, NULL, &text), 200);
    T_CONTAINS(text, "name: busybox-small");
    T_CONTAINS(text, "ANSWER: '42'");
    T_CONTAINS(text, "session_type: interactive");
    char copy_id[64] = "";
    T_EQ_INT(s_create(&s_alice, text, copy_id, sizeof copy_id, NULL), 200);
    free(text);
    //  The JSON one: aliases normalized as Backend.AI stores them.
    snprintf(path, sizeof path, "/template/session/%s?format=json", s_json_id);
    T_EQ_INT(s_as(&s_alice, "GET", path, NULL, &r, NULL), 200);
    spec = json_object_get(r, "spec");
    T_EQ_STR(json_string_value(json_object_get(spec, "session_type")), "batch");
    T_EQ_STR(
        json_string_value(json_object_get(
            json_object_get(json_object_get(spec, "kernel"), "run"), "startup_command")),
        "echo done");
    T_EQ_STR(
        json_string_value(json_object_get(json_object_get(spec, "mounts"), "models")),
        "shared/models");
    T_EQ_STR(json_string_value(json_object_get(r, "api_version")), "v1");
    json_decref(r);
    //  The copy goes again.
    snprintf(path, sizeof path, "/template/session/%s", copy_id);
    T_EQ_INT(s_as(&s_alice, "DELETE", path, NULL, NULL, NULL), 200);
}

static json_t *
s_find(json_t *list, const char *id)
{
    size_t index;
    json_t *item;
    json_array_foreach(list, index, item)
    {
        if (strcmp(json_string_value(json_object_get(item, "id")), id) == 0)
            return item;
    }
    return NULL;
}

//  The list as `backend.ai session-template list` reads it (GET with a
//  JSON body): the owner's with is_owner, the project's members see them
//  too, another domain's user does not; a superadmin's all=true sees all.
static void
test_list(void)
{
    json_t *r = NULL;
    T_EQ_INT(s_as(&s_alice, "GET", "/template/session", "{\"all\": false}", &r, NULL),
             200);
    T_EQ_INT(json_array_size(r), 2);
    json_t *item = s_find(r, s_yaml_id);
    T_ASSERT(item != NULL);
    T_EQ_STR(json_string_value(json_object_get(item, "name")), "busybox-small");
    T_ASSERT(json_is_true(json_object_get(item, "is_owner")));
    T_EQ_STR(json_string_value(json_object_get(item, "type")), "task");
    T_EQ_STR(json_string_value(json_object_get(item, "user_email")), "alice@example.com");
    T_EQ_STR(json_string_value(json_object_get(item, "group_name")), "default");
    T_ASSERT(json_is_string(json_object_get(item, "created_at")));
    T_ASSERT(json_is_object(json_object_get(item, "template")));
    json_decref(r);
    T_EQ_INT(s_as(&s_bob, "GET", "/template/session", NULL, &r, NULL), 200);
    T_EQ_INT(json_array_size(r), 2);
    T_ASSERT(json_is_false(json_object_get(s_find(r, s_yaml_id), "is_owner")));
    json_decref(r);
    T_EQ_INT(s_as(&s_stranger, "GET", "/template/session", NULL, &r, NULL), 200);
    T_EQ_INT(json_array_size(r), 0);
    json_decref(r);
    T_EQ_INT(s_as(&s_p.super, "GET", "/template/session?all=true", NULL, &r, NULL), 200);
    T_EQ_INT(json_array_size(r), 2);
    json_decref(r);
}

//  Who may read and change a template.
static void
test_permissions(void)
{
    char path[256], *body = s_payload_body(s_yaml_template, NULL, NULL);
    snprintf(path, sizeof path, "/template/session/%s", s_yaml_id);
    json_t *r = NULL;
    //  A member of its project reads it, but may not change or delete it.
    T_EQ_INT(s_as(&s_bob, "GET", path, NULL, NULL, NULL), 200);
    T_EQ_INT(s_as(&s_bob, "PUT", path, body, &r, NULL), 403);
    T_EQ_STR(json_string_value(json_object_get(r, "type")),
             "https://api.backend.ai/probs/generic-forbidden");
    json_decref(r);
    T_EQ_INT(s_as(&s_bob, "DELETE", path, NULL, NULL, NULL), 403);
    //  Another domain's user does not see it at all.
    T_EQ_INT(s_as(&s_stranger, "GET", path, NULL, &r, NULL), 404);
    T_EQ_STR(json_string_value(json_object_get(r, "type")),
             "https://api.backend.ai/probs/task-template-not-found");
    json_decref(r);
    T_EQ_INT(s_as(&s_stranger, "DELETE", path, NULL, NULL, NULL), 404);
    //  The domain admin and the superadmin may change it.
    T_EQ_INT(s_as(&s_admin, "PUT", path, body, &r, NULL), 200);
    T_ASSERT(json_is_true(json_object_get(r, "success")));
    json_decref(r);
    T_EQ_INT(s_as(&s_p.super, "GET", path, NULL, NULL, NULL), 200);
    //  A user may not act for another's keypair.
    char as_owner[320];
    snprintf(as_owner, sizeof as_owner, "%s?owner_access_key=%s", path,
             s_alice.access_key);
    T_EQ_INT(s_as(&s_bob, "DELETE", as_owner, NULL, NULL, NULL), 403);
    //  A template made by the superadmin for alice is alice's.
    char *for_alice =
        s_payload_body(s_yaml_template, "owner_access_key", s_alice.access_key);
    T_EQ_INT(s_as(&s_p.super, "POST", "/template/session", for_alice, &r, NULL), 200);
    free(for_alice);
    char id[64];
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(r, "id")));
    json_decref(r);
    snprintf(path, sizeof path, "/template/session/%s", id);
    T_EQ_INT(s_as(&s_alice, "DELETE", path, NULL, NULL, NULL), 200);
    //  Deleted: gone for everyone.
    T_EQ_INT(s_as(&s_alice, "GET", path, NULL, NULL, NULL), 404);
    T_EQ_INT(s_as(&s_p.super, "DELETE", path, NULL, NULL, NULL), 404);
    free(body);
}

static void
s_refused(const char *what, const char *text, const char *detail_part)
{
    char *body = s_payload_body(text, NULL, NULL);
    json_t *r = NULL;
    int status = s_as(&s_alice, "POST", "/template/session", body, &r, NULL);
    if (status != 400)
        printf("# %s: %d\n", what, status);
    T_EQ_INT(status, 400);
    T_EQ_STR(json_string_value(json_object_get(r, "type")),
             "https://api.backend.ai/probs/invalid-api-params");
    const char *detail = json_string_value(json_object_get(r, "msg"));
    if (!detail || !strstr(detail, detail_part))
        printf("# %s: %s\n", what, detail ? detail : "(no msg)");
    T_CONTAINS(detail, detail_part);
    json_decref(r);
    free(body);
}

static void
test_bad_input(void)
{
    s_refused("not yaml", "a: [b\n  c: {", "Malformed payload");
    s_refused("a scalar", "just words", "must be a mapping");
    s_refused("wrong kind", "{\"api_version\": \"v1\", \"kind\": \"nope\"}", "kind");
    s_refused("no image",
              "api_version: v1\nkind: taskTemplate\nmetadata: {name: x}\n"
              "spec: {kernel: {}}\n",
              "spec.kernel.image");
    s_refused(
        "escaping path",
        "api_version: v1\nkind: taskTemplate\nmetadata: {name: x}\n"
        "spec:\n  kernel: {image: busybox}\n  mounts: {data: /home/work/../../etc}\n",
        "/home/work");
    s_refused("absolute path",
              "api_version: v1\nkind: taskTemplate\nmetadata: {name: x}\n"
              "spec:\n  kernel: {image: busybox}\n  mounts: {data: /etc}\n",
              "/home/work");
    s_refused("dot-dot path",
              "api_version: v1\nkind: taskTemplate\nmetadata: {name: x}\n"
              "spec:\n  kernel: {image: busybox}\n  mounts: {data: ../x}\n",
              "/home/work");
    //  The billion laughs: refused at its first alias.
    char bomb[2048] = "api_version: v1\nkind: taskTemplate\nmetadata: {name: x}\n"
                      "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
    for (char c = 'b'; c <= 'j'; c++) {
        char line[128];
        snprintf(line, sizeof line, "%c: &%c [*%c,*%c,*%c,*%c,*%c,*%c,*%c]\n", c, c,
                 c - 1, c - 1, c - 1, c - 1, c - 1, c - 1, c - 1);
        strcat(bomb, line);
    }
    s_refused("yaml bomb", bomb, "aliases");
    //  Too deep, too large.
    char deep[512] = "";
    for (int i = 0; i < 40; i++)
        strcat(deep, "[");
    s_refused("too deep", deep, "deeply");
    size_t big = 70000;
    char *large = malloc(big + 1);
    memset(large, '#', big);
    large[big] = 0;
    s_refused("too large", large, "too large");
    free(large);
    //  The body itself.
    json_t *r = NULL;
    T_EQ_INT(s_as(&s_alice, "POST", "/template/session", "{\"payload\": 5}", &r, NULL),
             400);
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "POST", "/template/session", "{not json", &r, NULL), 400);
    T_EQ_STR(json_string_value(json_object_get(r, "type")),
             "https://api.backend.ai/probs/invalid-api-params");
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "GET", "/template/session/not-an-id", NULL, &r, NULL), 404);
    T_EQ_STR(json_string_value(json_object_get(r, "type")),
             "https://api.backend.ai/probs/task-template-not-found");
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "GET", "/template/session/0123456789abcdef0123456789abcdef",
                  NULL, NULL, NULL),
             404);
    char path[256];
    snprintf(path, sizeof path, "/template/session/%s?format=xml", s_yaml_id);
    T_EQ_INT(s_as(&s_alice, "GET", path, NULL, NULL, NULL), 400);
    snprintf(path, sizeof path, "/template/session/%s", s_yaml_id);
    T_EQ_INT(s_as(&s_alice, "PUT", path, "{\"payload\": \"kind: [\"}", NULL, NULL), 400);
    T_EQ_INT(s_as(&s_alice, "POST", "/session/_/create-from-template",
                  "{\"name\": \"tpl-none\"}", NULL, NULL),
             400);
    T_EQ_INT(s_as(&s_alice, "POST", "/session/_/create-from-template",
                  "{\"name\": \"tpl-none\", \"template_id\": "
                  "\"0123456789abcdef0123456789abcdef\"}",
                  NULL, NULL),
             404);
}

//  A session from the template, as `backend.ai session create-from-template`
//  sends it: the template's image and resources, the request's environ in
//  place of the template's.
static void
test_create_from_template(void)
{
    char body[1024];
    snprintf(body, sizeof body,
             "{\"template_id\": \"%s\", \"name\": \"tpl-first\", \"group\": \"default\","
             " \"domain\": \"default\", \"reuseIfExists\": true, \"config\":"
             " {\"mounts\": [], \"environ\": {\"GREETING\": \"overridden\"}}}",
             s_yaml_id);
    json_t *r = NULL;
    T_EQ_INT(s_as(&s_alice, "POST", "/session/_/create-from-template", body, &r, NULL),
             201);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "RUNNING");
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "GET", "/session/tpl-first", NULL, &r, NULL), 200);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "RUNNING");
    T_CONTAINS(json_string_value(json_object_get(r, "image")), "busybox");
    T_CONTAINS(json_string_value(json_object_get(r, "occupiedSlots")), "\"cpu\":\"1\"");
    //  192 MiB
    T_CONTAINS(json_string_value(json_object_get(r, "occupiedSlots")), "201326592");
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "POST", "/session/tpl-first",
                  "{\"mode\": \"query\", \"runId\": \"r1\","
                  " \"code\": \"echo $GREETING $ANSWER\"}",
                  &r, NULL),
             200);
    char *console = json_dumps(json_object_get(json_object_get(r, "result"), "console"),
                               JSON_COMPACT);
    //  An override replaces the template's value whole, as in Backend.AI.
    T_CONTAINS(console, "\"overridden\\n\"");
    free(console);
    json_decref(r);
    //  Bob, a member of the project, may use it too; the stranger may not.
    snprintf(body, sizeof body, "{\"template_id\": \"%s\", \"name\": \"tpl-stranger\"}",
             s_yaml_id);
    T_EQ_INT(
        s_as(&s_stranger, "POST", "/session/_/create-from-template", body, NULL, NULL),
        404);
    T_EQ_INT(s_as(&s_alice, "DELETE", "/session/tpl-first", NULL, NULL, NULL), 200);
}

int
main(void)
{
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    T_RUN(test_start);
    if (t_failures)
        return T_DONE();
    T_RUN(test_create_and_get);
    T_RUN(test_list);
    T_RUN(test_permissions);
    T_RUN(test_bad_input);
    T_RUN(test_create_from_template);
    int agent = harness_stop(&s_agent, CLIENT_STOP_MS);
    bool clean =
        client_platform_stop(&s_p) && agent == 0 && !harness_log_has_report(&s_agent);
    if (!clean)
        fprintf(stderr, "# a service did not stop cleanly (agent %d)\n", agent);
    char command[64];
    snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridge);
    if (system(command) == 0)
        fprintf(stderr, "# the agent left its bridge %s\n", s_bridge);
    client_platform_end(&s_p, t_failures > 0 || !clean);
    return clean ? T_DONE() : 1;
}
