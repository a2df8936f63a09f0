/*  =========================================================================
    dotfile_test - /user-config, /group-config and /domain-config dotfiles
    against the whole platform with a real agent: created, listed, read,
    updated and deleted at each level; who may (a user reads its domain's
    and project's but may not change them, a domain admin of another
    domain may do nothing there, acting for another keypair follows the
    owner rules); Backend.AI's problem+json for too large, too many,
    escaping paths, reserved names and bad permissions; and a session whose
    /home/work holds them with their contents, modes and owner, the
    keypair's over the project's over the domain's. Needs root, runc, umoci
    and tini.

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
static client_keypair_t s_alice, s_admin, s_other_admin, s_carol;

//  A signed request as kp; the status, and the parsed JSON when asked.
static int
s_as(const client_keypair_t *kp,
     const char *method,
     const char *path,
     const char *body,
     json_t **json_p)
{
    char *text = NULL;
    int status = client_signed(&s_p, kp, method, path, body, NULL, &text, NULL);
    if (json_p)
        *json_p = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    return status;
}

//  A create or an update (method) at route with the given members.
static int
s_put(const client_keypair_t *kp,
      const char *method,
      const char *route,
      const char *scope_json,
      const char *path,
      const char *permission,
      const char *data,
      json_t **json_p)
{
    json_t *body = json_pack("{s:s, s:s, s:s}", "path", path, "permission", permission,
                             "data", data);
    if (scope_json) {
        json_t *scope = json_loads(scope_json, 0, NULL);
        json_object_update(body, scope);
        json_decref(scope);
    }
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    int status = s_as(kp, method, route, text, json_p);
    free(text);
    return status;
}

//  The problem type's slug of a reply.
static const char *
s_type(json_t *r)
{
    const char *type = json_string_value(json_object_get(r, "type"));
    const char *slash = type ? strrchr(type, '/') : NULL;
    return slash ? slash + 1 : "";
}

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "dotfiles", false) == 0);
    snprintf(s_bridge, sizeof s_bridge, "bpd%d", (int) (getpid() % 100000));
    T_ASSERT(client_agent_start(&s_p, &s_agent, "agent-d", s_bridge, harness_subnet()));
    T_ASSERT(client_person(&s_p, "alice@example.com", "default", "user", &s_alice));
    T_ASSERT(client_person(&s_p, "admin@example.com", "default", "admin", &s_admin));
    json_t *r = client_gql(&s_p, &s_p.super,
                           "mutation { create_domain(name: \"elsewhere\", props: {})"
                           " { ok msg } }",
                           NULL);
    T_ASSERT(client_mutation_ok(r, "create_domain"));
    json_decref(r);
    T_ASSERT(client_person(&s_p, "boss@elsewhere.example", "elsewhere", "admin",
                           &s_other_admin));
    T_ASSERT(
        client_person(&s_p, "carol@elsewhere.example", "elsewhere", "user", &s_carol));
}

//  Alice's own: create, list in order, get one, update, delete.
static void
test_user_crud(void)
{
    json_t *r = NULL;
    T_EQ_INT(s_put(&s_alice, "POST", "/user-config/dotfiles", NULL, ".bashrc", "644",
                   "export A=1\n", &r),
             200);
    T_ASSERT(json_is_object(r) && json_object_size(r) == 0);
    json_decref(r);
    //  Absolute beneath /home/work is the same file, so a duplicate.
    T_EQ_INT(s_put(&s_alice, "POST", "/user-config/dotfiles", NULL, "/home/work/.bashrc",
                   "644", "x", &r),
             400);
    T_EQ_STR(json_string_value(json_object_get(r, "detail")), "Dotfile already exists.");
    json_decref(r);
    T_EQ_INT(s_put(&s_alice, "POST", "/user-config/dotfiles", NULL, ".vimrc", "600",
                   "set nu\n", NULL),
             200);
    T_EQ_INT(s_as(&s_alice, "GET", "/user-config/dotfiles", NULL, &r), 200);
    T_EQ_INT(json_array_size(r), 2);
    json_t *first = json_array_get(r, 0);
    T_EQ_STR(json_string_value(json_object_get(first, "path")), ".bashrc");
    T_EQ_STR(json_string_value(json_object_get(first, "permission")), "644");
    T_EQ_STR(json_string_value(json_object_get(first, "data")), "export A=1\n");
    T_EQ_STR(json_string_value(json_object_get(json_array_get(r, 1), "path")), ".vimrc");
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "GET", "/user-config/dotfiles?path=.vimrc", NULL, &r), 200);
    T_EQ_STR(json_string_value(json_object_get(r, "data")), "set nu\n");
    T_EQ_STR(json_string_value(json_object_get(r, "perm")), "600");
    T_EQ_STR(json_string_value(json_object_get(r, "permission")), "600");
    json_decref(r);
    T_EQ_INT(s_put(&s_alice, "PATCH", "/user-config/dotfiles", NULL, ".vimrc", "640",
                   "set nonu\n", NULL),
             200);
    T_EQ_INT(s_as(&s_alice, "GET", "/user-config/dotfiles?path=.vimrc", NULL, &r), 200);
    T_EQ_STR(json_string_value(json_object_get(r, "data")), "set nonu\n");
    T_EQ_STR(json_string_value(json_object_get(r, "permission")), "640");
    json_decref(r);
    T_EQ_INT(s_put(&s_alice, "PATCH", "/user-config/dotfiles", NULL, ".nothere", "640",
                   "x", &r),
             404);
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "DELETE", "/user-config/dotfiles?path=.vimrc", NULL, &r),
             200);
    T_ASSERT(json_is_true(json_object_get(r, "success")));
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "DELETE", "/user-config/dotfiles?path=.vimrc", NULL, &r),
             404);
    T_EQ_STR(s_type(r), "object-not-found");
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "GET", "/user-config/dotfiles?path=.vimrc", NULL, NULL), 404);
    T_EQ_INT(s_as(&s_alice, "GET", "/user-config/dotfiles", NULL, &r), 200);
    T_EQ_INT(json_array_size(r), 1);
    json_decref(r);
    //  The admin's list is its own, not Alice's.
    T_EQ_INT(s_as(&s_admin, "GET", "/user-config/dotfiles", NULL, &r), 200);
    T_EQ_INT(json_array_size(r), 0);
    json_decref(r);
}

//  Domain and project dotfiles: who may read and who may change them.
static void
test_permissions(void)
{
    const char *domain = "{\"domain\": \"default\"}";
    const char *group = "{\"group\": \"default\", \"domain\": \"default\"}";
    json_t *r = NULL;
    //  A user may not change its domain's or project's dotfiles...
    T_EQ_INT(
        s_put(&s_alice, "POST", "/domain-config/dotfiles", domain, ".x", "644", "x", &r),
        403);
    T_EQ_STR(s_type(r), "generic-forbidden");
    json_decref(r);
    T_EQ_INT(
        s_put(&s_alice, "POST", "/group-config/dotfiles", group, ".x", "644", "x", NULL),
        403);
    //  ... nor does another domain's admin, for either.
    T_EQ_INT(s_put(&s_other_admin, "POST", "/domain-config/dotfiles", domain, ".x", "644",
                   "x", &r),
             403);
    T_EQ_STR(s_type(r), "generic-forbidden");
    json_decref(r);
    T_EQ_INT(s_put(&s_other_admin, "POST", "/group-config/dotfiles", group, ".x", "644",
                   "x", NULL),
             403);
    T_EQ_INT(
        s_as(&s_other_admin, "GET", "/domain-config/dotfiles?domain=default", NULL, NULL),
        403);
    T_EQ_INT(s_as(&s_other_admin, "GET",
                  "/group-config/dotfiles?group=default&domain=default", NULL, NULL),
             403);
    T_EQ_INT(s_as(&s_carol, "GET", "/group-config/dotfiles?group=default&domain=default",
                  NULL, NULL),
             403);
    //  The domain's admin may; its users read.
    T_EQ_INT(s_put(&s_admin, "POST", "/domain-config/dotfiles", domain, ".profile", "755",
                   "domain-profile\n", NULL),
             200);
    T_EQ_INT(s_put(&s_admin, "POST", "/domain-config/dotfiles", domain, ".shared", "644",
                   "domain-shared\n", NULL),
             200);
    T_EQ_INT(s_put(&s_admin, "POST", "/domain-config/dotfiles", domain, ".gitconfig",
                   "644", "domain-git\n", NULL),
             200);
    T_EQ_INT(s_put(&s_admin, "POST", "/group-config/dotfiles", group, ".profile", "700",
                   "group-profile\n", NULL),
             200);
    T_EQ_INT(s_put(&s_admin, "POST", "/group-config/dotfiles", group, ".gitconfig", "600",
                   "group-git\n", NULL),
             200);
    T_EQ_INT(s_as(&s_alice, "GET", "/domain-config/dotfiles?domain=default", NULL, &r),
             200);
    T_EQ_INT(json_array_size(r), 3);
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "GET",
                  "/group-config/dotfiles?group=default&domain=default&path=.profile",
                  NULL, &r),
             200);
    T_EQ_STR(json_string_value(json_object_get(r, "data")), "group-profile\n");
    json_decref(r);
    //  A project by id needs no domain.
    json_t *groups = client_gql(&s_p, &s_p.super,
                                "{ groups(domain_name: \"default\") { id name } }", NULL);
    const char *id = json_string_value(json_object_get(
        json_array_get(json_object_get(json_object_get(groups, "data"), "groups"), 0),
        "id"));
    char path[256];
    snprintf(path, sizeof path, "/group-config/dotfiles?group=%s", id ? id : "none");
    T_EQ_INT(s_as(&s_alice, "GET", path, NULL, &r), 200);
    T_EQ_INT(json_array_size(r), 2);
    json_decref(r);
    json_decref(groups);
    //  Another domain's user does not read this domain's.
    T_EQ_INT(s_as(&s_carol, "GET", "/domain-config/dotfiles?domain=default", NULL, NULL),
             403);
    //  Acting for another keypair: the domain's admin for Alice, yes; Alice
    //  for the admin, or the other domain's admin for Alice, no.
    char route[256];
    snprintf(route, sizeof route, "/user-config/dotfiles?owner_access_key=%s",
             s_alice.access_key);
    json_t *body =
        json_pack("{s:s, s:s, s:s, s:s}", "path", ".gitconfig", "permission", "604",
                  "data", "user-git\n", "owner_access_key", s_alice.access_key);
    char *text = json_dumps(body, JSON_COMPACT);
    T_EQ_INT(s_as(&s_admin, "POST", "/user-config/dotfiles", text, NULL), 200);
    T_EQ_INT(s_as(&s_other_admin, "POST", "/user-config/dotfiles", text, &r), 403);
    json_decref(r);
    free(text);
    json_decref(body);
    T_EQ_INT(s_as(&s_alice, "GET", "/user-config/dotfiles?path=.gitconfig", NULL, &r),
             200);
    T_EQ_STR(json_string_value(json_object_get(r, "data")), "user-git\n");
    json_decref(r);
    T_EQ_INT(s_as(&s_other_admin, "GET", route, NULL, NULL), 403);
    snprintf(route, sizeof route, "/user-config/dotfiles?owner_access_key=%s",
             s_admin.access_key);
    T_EQ_INT(s_as(&s_alice, "GET", route, NULL, NULL), 403);
}

//  Bad input: Backend.AI's 400s (and 404 for an unknown domain or project).
static void
test_bad_input(void)
{
    static const char *const escaping[] = {
        "../x", "a/../../x",      "/etc/passwd", "/home/work",          "", "a//b", "./x",
        "x/",   "/home/worker/x", ".ssh",        ".ssh/authorized_keys"};
    json_t *r = NULL;
    for (size_t i = 0; i < sizeof escaping / sizeof escaping[0]; i++) {
        T_EQ_INT(s_put(&s_alice, "POST", "/user-config/dotfiles", NULL, escaping[i],
                       "644", "x", &r),
                 400);
        T_EQ_STR(s_type(r), "invalid-api-params");
        json_decref(r);
    }
    static const char *const permissions[] = {"999", "75", "0755", "rwx", ""};
    for (size_t i = 0; i < sizeof permissions / sizeof permissions[0]; i++)
        T_EQ_INT(s_put(&s_alice, "POST", "/user-config/dotfiles", NULL, ".ok",
                       permissions[i], "x", NULL),
                 400);
    T_EQ_INT(s_as(&s_alice, "POST", "/user-config/dotfiles",
                  "{\"path\": \".ok\", \"permission\": \"644\"}", NULL),
             400);
    T_EQ_INT(s_as(&s_alice, "POST", "/user-config/dotfiles",
                  "{\"path\": 5, \"permission\": \"644\", \"data\": \"x\"}", NULL),
             400);
    //  Too large: one file over 64 KiB, then the owner's total.
    size_t big = 64 * 1024 + 1;
    char *data = malloc(big + 1);
    memset(data, 'a', big);
    data[big] = 0;
    T_EQ_INT(
        s_put(&s_alice, "POST", "/user-config/dotfiles", NULL, ".big", "644", data, &r),
        400);
    json_decref(r);
    data[40 * 1024] = 0;
    T_EQ_INT(s_put(&s_alice, "POST", "/user-config/dotfiles", NULL, ".half1", "644", data,
                   NULL),
             200);
    T_EQ_INT(
        s_put(&s_alice, "POST", "/user-config/dotfiles", NULL, ".half2", "644", data, &r),
        400);
    T_EQ_STR(json_string_value(json_object_get(r, "detail")),
             "No leftover space for dotfile storage");
    json_decref(r);
    //  An update may not grow it past the limit either.
    T_EQ_INT(s_put(&s_alice, "POST", "/user-config/dotfiles", NULL, ".small", "644", "x",
                   NULL),
             200);
    T_EQ_INT(s_put(&s_alice, "PATCH", "/user-config/dotfiles", NULL, ".small", "644",
                   data, NULL),
             400);
    free(data);
    T_EQ_INT(s_as(&s_alice, "DELETE", "/user-config/dotfiles?path=.half1", NULL, NULL),
             200);
    T_EQ_INT(s_as(&s_alice, "DELETE", "/user-config/dotfiles?path=.small", NULL, NULL),
             200);
    //  Too many: the 101st of one owner (the other domain's, by its admin).
    const char *elsewhere = "{\"domain\": \"elsewhere\"}";
    char name[32];
    int created = 0;
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, ".f%d", i);
        created += s_put(&s_other_admin, "POST", "/domain-config/dotfiles", elsewhere,
                         name, "644", "x", NULL) == 200;
    }
    T_EQ_INT(created, 100);
    T_EQ_INT(s_put(&s_other_admin, "POST", "/domain-config/dotfiles", elsewhere, ".f100",
                   "644", "x", &r),
             400);
    T_EQ_STR(json_string_value(json_object_get(r, "detail")),
             "Dotfile creation limit reached");
    json_decref(r);
    //  Scopes: a missing domain, an unknown one, a project by name without
    //  its domain, an unknown project.
    T_EQ_INT(s_as(&s_p.super, "GET", "/domain-config/dotfiles", NULL, NULL), 400);
    T_EQ_INT(s_as(&s_p.super, "GET", "/domain-config/dotfiles?domain=nowhere", NULL, &r),
             404);
    T_EQ_STR(s_type(r), "object-not-found");
    json_decref(r);
    T_EQ_INT(s_as(&s_p.super, "GET", "/group-config/dotfiles?group=default", NULL, NULL),
             400);
    T_EQ_INT(s_as(&s_p.super, "GET", "/group-config/dotfiles?group=nope&domain=default",
                  NULL, NULL),
             404);
}

//  A session of Alice's: /home/work holds the keypair's, the project's and
//  the domain's dotfiles, each path once with the winner's contents and
//  mode, owned by the kernel's user; a nested path gets its directory.
static void
test_session(void)
{
    T_EQ_INT(s_put(&s_alice, "POST", "/user-config/dotfiles", NULL, "bin/hello.sh", "750",
                   "echo hello\n", NULL),
             200);
    json_t *r = NULL;
    T_EQ_INT(s_as(&s_alice, "POST", "/session",
                  "{\"name\": \"dots\", \"image\": \"" IMAGE "\","
                  " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"}}}",
                  &r),
             201);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "RUNNING");
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "POST", "/session/dots",
                  "{\"mode\": \"query\", \"runId\": \"r1\", \"code\":"
                  " \"cd /home/work && for f in .bashrc .gitconfig .profile .shared"
                  " bin/hello.sh bin; do stat -c '%n %a %u:%g' $f; done;"
                  " cat .gitconfig .profile .shared; sh bin/hello.sh\"}",
                  &r),
             200);
    json_t *console = json_object_get(json_object_get(r, "result"), "console");
    char out[4096] = "";
    size_t index;
    json_t *item;
    json_array_foreach(console, index, item)
    {
        if (strcmp(json_string_value(json_array_get(item, 0)), "stdout") == 0)
            strncat(out, json_string_value(json_array_get(item, 1)),
                    sizeof out - strlen(out) - 1);
    }
    json_decref(r);
    T_EQ_STR(out, ".bashrc 644 1000:1000\n"
                  ".gitconfig 604 1000:1000\n"
                  ".profile 700 1000:1000\n"
                  ".shared 644 1000:1000\n"
                  "bin/hello.sh 750 1000:1000\n"
                  "bin 755 1000:1000\n"
                  "user-git\n"
                  "group-profile\n"
                  "domain-shared\n"
                  "hello\n");
    T_EQ_INT(s_as(&s_alice, "DELETE", "/session/dots", NULL, NULL), 200);
    //  Until the agent has let its container go: a stop before that would
    //  leave it running on the machine (agents leave kernels to the next).
    bool ended = false;
    for (int tries = 0; tries < 200 && !ended; tries++) {
        r = NULL;
        int status = s_as(&s_alice, "GET", "/session/dots", NULL, &r);
        char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
        ended = status == 404 || (text && strstr(text, "TERMINATED"));
        free(text);
        json_decref(r);
        if (!ended)
            harness_pause_ms(100);
    }
    T_ASSERT(ended);
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
    T_RUN(test_user_crud);
    T_RUN(test_permissions);
    T_RUN(test_bad_input);
    T_RUN(test_session);
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
