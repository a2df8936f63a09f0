/*  =========================================================================
    vfolder_test - virtual folders through the gateway: who may do what,
    transfers with tokens, quotas, bad paths, and mounts in sessions

    The platform (scheduler, gateway), a storage-proxy on its bus and two
    agents with real runc containers. Seven users play the roles of the
    permission matrix: the owner, three users invited ro, rw and wd, a
    member of a project (for the project's folder), an outsider and a
    domain admin; every operation is tried by every role and must answer
    what the role allows (2xx), refuse it (403) or not see the folder at
    all (404). Files go in and out through the storage-proxy's own HTTP
    endpoint with the tokens request-upload and request-download sign. A
    folder is then mounted read-write in a session on one agent and
    read-only in another on the other agent.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gateway_client.h"
#include "t.h"

#define IMAGE "local.backplane/library/busybox:latest"

typedef enum {
    ALICE,
    BOB_RO,
    CAROL_RW,
    DAVE_WD,
    ERIN_MEMBER,
    FRANK_OUT,
    DADMIN,
    ROLES
} role_t;

static const char *s_emails[ROLES] = {
    "alice@example.com", "bob@example.com",   "carol@example.com", "dave@example.com",
    "erin@example.com",  "frank@example.com", "dadmin@example.com"};
static const char *s_role_names[ROLES] = {"owner",  "ro",       "rw",          "wd",
                                          "member", "outsider", "domain-admin"};

static client_platform_t s_p;
static harness_proc_t s_sp, s_agents[2];
static char s_storage[128], s_project[64], s_lab[64], s_team_id[64];
static client_keypair_t s_kp[ROLES];
static bool s_containers;

//  A signed request as kp; the parsed body (NULL when none or not JSON).
static json_t *
s_call(const client_keypair_t *kp,
       const char *method,
       const char *path,
       const char *body,
       int *status)
{
    char *text = NULL;
    *status = client_signed(&s_p, kp, method, path, body, NULL, &text, NULL);
    json_t *parsed = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    return parsed;
}

static int
s_status(const client_keypair_t *kp,
         const char *method,
         const char *path,
         const char *body)
{
    int status;
    json_decref(s_call(kp, method, path, body, &status));
    return status;
}

//  The storage-proxy URL's path and query for a token answer, into target.
static bool
s_target(json_t *answer, const char *op, char *target, size_t size)
{
    const char *url = json_string_value(json_object_get(answer, "url"));
    const char *token = json_string_value(json_object_get(answer, "token"));
    if (!url || !token || !strstr(url, op))
        return false;
    snprintf(target, size, "/%s?token=%s", op, token);
    return true;
}

//  Uploads body to path of folder as kp (one tus PATCH at offset); the
//  storage-proxy's status.
static int
s_upload(const client_keypair_t *kp,
         const char *folder,
         const char *path,
         const char *body,
         size_t size,
         size_t offset)
{
    char route[256], request[512], target[4096], offset_header[64];
    snprintf(route, sizeof route, "/folders/%s/request-upload", folder);
    snprintf(request, sizeof request, "{\"path\": \"%s\", \"size\": %zu}", path, size);
    int status;
    json_t *answer = s_call(kp, "POST", route, request, &status);
    bool ok = status == 200 && s_target(answer, "upload", target, sizeof target);
    json_decref(answer);
    if (!ok)
        return -status;
    snprintf(offset_header, sizeof offset_header, "Upload-Offset: %zu", offset);
    const char *headers[] = {"Tus-Resumable: 1.0.0", offset_header, NULL};
    return harness_http_ex(s_storage, "PATCH", target, headers,
                           "application/offset+octet-stream", body, NULL, NULL,
                           CLIENT_HTTP_MS);
}

//  Downloads path of folder as kp into *body_p; the storage-proxy's status.
static int
s_download(const client_keypair_t *kp,
           const char *folder,
           const char *path,
           char **body_p)
{
    char route[256], request[512], target[4096];
    snprintf(route, sizeof route, "/folders/%s/request-download", folder);
    snprintf(request, sizeof request, "{\"path\": \"%s\"}", path);
    int status;
    json_t *answer = s_call(kp, "POST", route, request, &status);
    bool ok = status == 200 && s_target(answer, "download", target, sizeof target);
    json_decref(answer);
    if (!ok)
        return -status;
    return harness_http(s_storage, "GET", target, NULL, body_p, CLIENT_HTTP_MS);
}

static void
s_make_user(role_t role, const char *user_role, const char *project)
{
    char query[1024];
    snprintf(
        query, sizeof query,
        "mutation { create_user(email: \"%s\", props: {password: \"pw-%d-secret\","
        " domain_name: \"default\", role: \"%s\", username: \"%s\"%s%s%s}) { ok msg } }",
        s_emails[role], (int) role, user_role, s_role_names[role],
        project ? ", group_ids: [\"" : "", project ? project : "", project ? "\"]" : "");
    json_t *r = client_gql(&s_p, &s_p.super, query, NULL);
    T_ASSERT(client_mutation_ok(r, "create_user"));
    json_decref(r);
    T_ASSERT(client_keypair_of(&s_p, s_emails[role], &s_kp[role]));
}

//  ---------------------------------------------------------------------------
//  Tests

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "vfolder", false) == 0);
    T_ASSERT(client_storage_start(&s_p, &s_sp, s_storage, sizeof s_storage));
    json_t *r = client_gql(&s_p, &s_p.super, "{ groups { id name } }", NULL);
    json_t *groups = json_object_get(json_object_get(r, "data"), "groups");
    T_EQ_STR(json_string_value(json_object_get(json_array_get(groups, 0), "name")),
             "default");
    snprintf(s_project, sizeof s_project, "%s",
             json_string_value(json_object_get(json_array_get(groups, 0), "id")));
    json_decref(r);
    r = client_gql(
        &s_p, &s_p.super,
        "mutation { create_group(name: \"lab\", props: {domain_name: \"default\"})"
        " { ok msg group { id } } }",
        NULL);
    T_ASSERT(client_mutation_ok(r, "create_group"));
    snprintf(
        s_lab, sizeof s_lab, "%s",
        json_string_value(json_object_get(
            json_object_get(json_object_get(json_object_get(r, "data"), "create_group"),
                            "group"),
            "id")));
    json_decref(r);
    T_ASSERT(*s_lab);
    s_make_user(ALICE, "user", s_project);
    s_make_user(BOB_RO, "user", s_project);
    s_make_user(CAROL_RW, "user", s_project);
    s_make_user(DAVE_WD, "user", s_project);
    s_make_user(ERIN_MEMBER, "user", s_lab);
    s_make_user(FRANK_OUT, "user", NULL);
    s_make_user(DADMIN, "admin", s_project);
}

static void
test_hosts_and_create(void)
{
    //  The gateway learns of the storage-proxy from the registry: wait.
    int status = 0;
    json_t *r = NULL;
    for (int tries = 0; tries < 100; tries++) {
        json_decref(r);
        r = s_call(&s_kp[ALICE], "GET", "/folders/_/hosts", NULL, &status);
        if (json_object_get(json_object_get(r, "volume_info"), "local:volume1"))
            break;
        harness_pause_ms(100);
    }
    T_EQ_INT(status, 200);
    T_EQ_STR(json_string_value(json_object_get(r, "default")), "local:volume1");
    T_EQ_STR(json_string_value(json_array_get(json_object_get(r, "allowed"), 0)),
             "local:volume1");
    T_ASSERT(json_object_get(json_object_get(r, "volume_info"), "local:volume1"));
    json_decref(r);
    //  Every host of every storage-proxy: the superadmin's view only.
    r = s_call(&s_p.super, "GET", "/folders/_/all-hosts", NULL, &status);
    T_EQ_INT(status, 200);
    T_EQ_STR(json_string_value(json_array_get(json_object_get(r, "allowed"), 0)),
             "local:volume1");
    json_decref(r);
    T_EQ_INT(s_status(&s_kp[ALICE], "GET", "/folders/_/all-hosts", NULL), 403);
    r = s_call(&s_kp[ALICE], "GET", "/folders/_/allowed-types", NULL, &status);
    T_EQ_INT(status, 200);
    T_EQ_INT(json_array_size(r), 2);
    json_decref(r);

    r = s_call(&s_kp[ALICE], "POST", "/folders", "{\"name\": \"team\"}", &status);
    T_EQ_INT(status, 201);
    T_EQ_STR(json_string_value(json_object_get(r, "host")), "local:volume1");
    T_EQ_STR(json_string_value(json_object_get(r, "ownership_type")), "user");
    snprintf(s_team_id, sizeof s_team_id, "%s",
             json_string_value(json_object_get(r, "id")));
    T_EQ_INT(strlen(s_team_id), 32);
    json_decref(r);
    //  Names are unique for their owner, and must be names.
    r = s_call(&s_kp[ALICE], "POST", "/folders", "{\"name\": \"team\"}", &status);
    T_EQ_INT(status, 400);
    T_CONTAINS(json_string_value(json_object_get(r, "type")), "vfolder-already-exists");
    json_decref(r);
    T_EQ_INT(s_status(&s_kp[ALICE], "POST", "/folders", "{\"name\": \"../etc\"}"), 400);
    T_EQ_INT(s_status(&s_kp[ALICE], "POST", "/folders", "{\"name\": \".bashrc\"}"), 400);
    //  A user does not make project folders; its administrator does.
    char body[256];
    snprintf(body, sizeof body,
             "{\"name\": \"labdata\", \"group\": \"%s\","
             " \"permission\": \"ro\"}",
             s_lab);
    T_EQ_INT(s_status(&s_kp[ERIN_MEMBER], "POST", "/folders", body), 403);
    T_EQ_INT(s_status(&s_kp[DADMIN], "POST", "/folders", body), 201);
    //  A project narrows the list's project folders; the caller's own are
    //  listed whatever the project (Backend.AI's web UI always names one).
    char path[160];
    snprintf(path, sizeof path, "/folders?group_id=%s", s_project);
    r = s_call(&s_kp[ALICE], "GET", path, NULL, &status);
    T_EQ_INT(status, 200);
    T_EQ_INT((int) json_array_size(r), 1);
    T_EQ_STR(json_string_value(json_object_get(json_array_get(r, 0), "name")), "team");
    json_decref(r);
    snprintf(path, sizeof path, "/folders?group_id=%s", s_lab);
    r = s_call(&s_kp[ERIN_MEMBER], "GET", path, NULL, &status);
    T_EQ_INT((int) json_array_size(r), 1);
    T_EQ_STR(json_string_value(json_object_get(json_array_get(r, 0), "name")), "labdata");
    json_decref(r);
    snprintf(path, sizeof path, "/folders?group_id=%s", s_project);
    r = s_call(&s_kp[ERIN_MEMBER], "GET", path, NULL, &status);
    T_EQ_INT((int) json_array_size(r), 0);
    json_decref(r);
    //  _/id resolves a name the caller reaches.
    r = s_call(&s_kp[ALICE], "GET", "/folders/_/id?name=team", NULL, &status);
    T_EQ_INT(status, 200);
    T_EQ_INT(strlen(json_string_value(json_object_get(r, "id"))), 36);
    json_decref(r);
    T_EQ_INT(s_status(&s_kp[FRANK_OUT], "GET", "/folders/_/id?name=team", NULL), 404);
}

static void
test_upload_download_and_invitations(void)
{
    T_EQ_INT(s_upload(&s_kp[ALICE], "team", "seed.txt", "hello", 5, 0), 204);
    char *body = NULL;
    T_EQ_INT(s_download(&s_kp[ALICE], "team", "seed.txt", &body), 200);
    T_EQ_STR(body, "hello");
    free(body);
    //  Invitations: sent, listed by each invitee, accepted.
    const struct {
        role_t role;
        const char *perm;
    } invites[] = {{BOB_RO, "ro"}, {CAROL_RW, "rw"}, {DAVE_WD, "wd"}};
    for (size_t i = 0; i < 3; i++) {
        char request[256];
        snprintf(request, sizeof request, "{\"perm\": \"%s\", \"emails\": [\"%s\"]}",
                 invites[i].perm, s_emails[invites[i].role]);
        int status;
        json_t *r =
            s_call(&s_kp[ALICE], "POST", "/folders/team/invite", request, &status);
        T_EQ_INT(status, 201);
        T_EQ_STR(json_string_value(json_array_get(json_object_get(r, "invited_ids"), 0)),
                 s_emails[invites[i].role]);
        json_decref(r);
        //  Not twice.
        r = s_call(&s_kp[ALICE], "POST", "/folders/team/invite", request, &status);
        T_EQ_INT(json_array_size(json_object_get(r, "invited_ids")), 0);
        json_decref(r);
        r = s_call(&s_kp[invites[i].role], "GET", "/folders/invitations/list", NULL,
                   &status);
        json_t *inv = json_array_get(json_object_get(r, "invitations"), 0);
        T_EQ_STR(json_string_value(json_object_get(inv, "vfolder_name")), "team");
        T_EQ_STR(json_string_value(json_object_get(inv, "perm")), invites[i].perm);
        T_EQ_STR(json_string_value(json_object_get(inv, "inviter")), s_emails[ALICE]);
        char accept[128];
        snprintf(accept, sizeof accept, "{\"inv_id\": \"%s\"}",
                 json_string_value(json_object_get(inv, "id")));
        //  Only the invitee accepts.
        T_EQ_INT(
            s_status(&s_kp[FRANK_OUT], "POST", "/folders/invitations/accept", accept),
            404);
        T_EQ_INT(s_status(&s_kp[invites[i].role], "POST", "/folders/invitations/accept",
                          accept),
                 200);
        json_decref(r);
    }
    //  An invitation to frank, rejected: he stays an outsider.
    int status;
    T_EQ_INT(s_status(&s_kp[ALICE], "POST", "/folders/team/invite",
                      "{\"perm\": \"rw\", \"emails\": [\"frank@example.com\"]}"),
             201);
    json_t *r =
        s_call(&s_kp[FRANK_OUT], "GET", "/folders/invitations/list", NULL, &status);
    char reject[128];
    snprintf(reject, sizeof reject, "{\"inv_id\": \"%s\"}",
             json_string_value(json_object_get(
                 json_array_get(json_object_get(r, "invitations"), 0), "id")));
    json_decref(r);
    T_EQ_INT(s_status(&s_kp[FRANK_OUT], "POST", "/folders/invitations/delete", reject),
             200);
    r = s_call(&s_kp[FRANK_OUT], "GET", "/folders/invitations/list", NULL, &status);
    T_EQ_INT(json_array_size(json_object_get(r, "invitations")), 0);
    json_decref(r);
    //  The owner sees whom it is shared with, and how; nobody else does.
    r = s_call(&s_kp[ALICE], "GET", "/folders/_/shared", NULL, &status);
    T_EQ_INT(status, 200);
    json_t *shared = json_object_get(r, "shared");
    T_EQ_INT(json_array_size(shared), 3);
    const char *bob_uuid = NULL;
    size_t index;
    json_t *row;
    json_array_foreach(shared, index, row)
    {
        json_t *to = json_object_get(row, "shared_to");
        T_EQ_STR(json_string_value(json_object_get(row, "vfolder_name")), "team");
        T_EQ_STR(json_string_value(json_object_get(row, "type")), "user");
        if (strcmp(json_string_value(json_object_get(to, "email")), s_emails[BOB_RO]) ==
            0) {
            T_EQ_STR(json_string_value(json_object_get(row, "perm")), "ro");
            bob_uuid = json_string_value(json_object_get(to, "uuid"));
        }
    }
    T_ASSERT(bob_uuid);
    char path[256], change[256];
    snprintf(path, sizeof path, "/folders/_/shared?vfolder_id=%s", s_team_id);
    T_EQ_INT(s_status(&s_kp[BOB_RO], "GET", path, NULL), 403);
    T_EQ_INT(s_status(&s_kp[FRANK_OUT], "GET", path, NULL), 404);
    json_t *one = s_call(&s_kp[ALICE], "GET", path, NULL, &status);
    T_EQ_INT(status, 200);
    T_EQ_INT(json_array_size(json_object_get(one, "shared")), 3);
    json_decref(one);
    //  The owner changes bob's permission, and back; bob cannot.
    snprintf(change, sizeof change,
             "{\"vfolder\": \"%s\", \"user\": \"%s\", \"perm\": \"rw\"}", s_team_id,
             bob_uuid);
    T_EQ_INT(s_status(&s_kp[BOB_RO], "POST", "/folders/_/shared", change), 403);
    T_EQ_INT(s_status(&s_kp[ALICE], "POST", "/folders/_/shared", change), 200);
    snprintf(change, sizeof change,
             "{\"vfolder\": \"%s\", \"user\": \"%s\", \"perm\": \"ro\"}", s_team_id,
             bob_uuid);
    T_EQ_INT(s_status(&s_kp[ALICE], "POST", "/folders/_/shared", change), 200);
    snprintf(change, sizeof change,
             "{\"vfolder\": \"%s\", \"user\": \"%s\", \"perm\": \"xx\"}", s_team_id,
             bob_uuid);
    T_EQ_INT(s_status(&s_kp[ALICE], "POST", "/folders/_/shared", change), 400);
    json_decref(r);
    //  The invitees list the folder with their permission.
    r = s_call(&s_kp[CAROL_RW], "GET", "/folders", NULL, &status);
    T_EQ_INT(status, 200);
    T_EQ_INT(json_array_size(r), 1);
    T_EQ_STR(json_string_value(json_object_get(json_array_get(r, 0), "permission")),
             "rw");
    T_ASSERT(json_is_false(json_object_get(json_array_get(r, 0), "is_owner")));
    json_decref(r);
}

//  One operation of the matrix: what it needs (0 read, 1 write, 2 owner).
typedef struct {
    const char *method;
    const char *path; //  %s: the folder
    const char *body; //  %s (twice at most): the role's name
    int needs;
} op_t;

static const op_t s_ops[] = {
    {"GET", "/folders/%s", NULL, 0},
    {"GET", "/folders/%s/files", NULL, 0},
    {"POST", "/folders/%s/request-download", "{\"path\": \"seed.txt\"}", 0},
    {"POST", "/folders/%s/mkdir", "{\"path\": \"d-%s\"}", 1},
    {"POST", "/folders/%s/request-upload", "{\"path\": \"u-%s.txt\", \"size\": 3}", 1},
    {"POST", "/folders/%s/rename-file",
     "{\"target_path\": \"d-%s\", \"new_name\": \"e-%s\"}", 1},
    {"POST", "/folders/%s/delete-files", "{\"files\": [\"e-%s\"], \"recursive\": true}",
     1},
    {"POST", "/folders/%s/update-options", "{\"cloneable\": true}", 2},
    {"POST", "/folders/%s/rename", "{\"new_name\": \"%s\"}", 2},
};

//  Runs every operation on folder as role and checks the answers: allowed
//  (2xx) up to level (-1: sees nothing, 404), 403 past it.
static void
s_matrix(const char *folder, const char *name, role_t role, int level)
{
    for (size_t i = 0; i < sizeof s_ops / sizeof s_ops[0]; i++) {
        const op_t *op = &s_ops[i];
        char path[256], body[512] = "";
        snprintf(path, sizeof path, op->path, folder);
        if (op->body && strstr(op->body, "new_name\": \"%s\"") && op->needs == 2)
            snprintf(body, sizeof body, op->body, name); //  renamed to itself
        else if (op->body)
            snprintf(body, sizeof body, op->body, s_role_names[role], s_role_names[role]);
        int status = s_status(&s_kp[role], op->method, path, op->body ? body : NULL);
        int expected = level < 0 ? 404 : op->needs <= level ? 200 : 403;
        bool ok = expected == 200 ? status >= 200 && status < 300 : status == expected;
        if (!ok)
            fprintf(stderr, "# %s on %s as %s: %d, expected %d\n", path, folder,
                    s_role_names[role], status, expected);
        T_ASSERT(ok);
    }
}

static void
test_permission_matrix(void)
{
    //  A user's folder: owner, invited ro/rw/wd, outsider, domain admin. A
    //  member of another project is an outsider here too.
    s_matrix("team", "team", ALICE, 2);
    s_matrix(s_team_id, "team", BOB_RO, 0);
    s_matrix(s_team_id, "team", CAROL_RW, 1);
    s_matrix(s_team_id, "team", DAVE_WD, 1);
    s_matrix(s_team_id, "team", ERIN_MEMBER, -1);
    s_matrix(s_team_id, "team", FRANK_OUT, -1);
    s_matrix(s_team_id, "team", DADMIN, 2);
    //  A project's folder (permission ro): members read, outsiders see
    //  nothing, its administrators own it; share gives a member more.
    s_matrix("labdata", "labdata", ERIN_MEMBER, 0);
    s_matrix("labdata", "labdata", ALICE, -1);
    s_matrix("labdata", "labdata", DADMIN, 2);
    T_EQ_INT(s_status(&s_kp[ERIN_MEMBER], "POST", "/folders/labdata/share",
                      "{\"permission\": \"rw\", \"emails\": [\"erin@example.com\"]}"),
             403);
    T_EQ_INT(s_status(&s_kp[DADMIN], "POST", "/folders/labdata/share",
                      "{\"permission\": \"rw\", \"emails\": [\"frank@example.com\"]}"),
             404);
    T_EQ_INT(s_status(&s_kp[DADMIN], "POST", "/folders/labdata/share",
                      "{\"permission\": \"rw\", \"emails\": [\"erin@example.com\"]}"),
             201);
    s_matrix("labdata", "labdata", ERIN_MEMBER, 1);
    T_EQ_INT(s_status(&s_kp[DADMIN], "POST", "/folders/labdata/unshare",
                      "{\"emails\": [\"erin@example.com\"]}"),
             200);
    s_matrix("labdata", "labdata", ERIN_MEMBER, 0);

    //  An administrator who is also a member of the project acts as the
    //  owner of its folder all the same: it shares, changes and removes a
    //  project folder it made (as a member alone it could not, and the
    //  folder could never be removed at all).
    char made[256];
    snprintf(made, sizeof made,
             "{\"name\": \"projdata\", \"group\": \"%s\", \"permission\": \"ro\"}",
             s_project);
    T_EQ_INT(s_status(&s_kp[DADMIN], "POST", "/folders", made), 201);
    s_matrix("projdata", "projdata", DADMIN, 2);
    s_matrix("projdata", "projdata", ALICE, 0);
    T_EQ_INT(s_status(&s_kp[DADMIN], "POST", "/folders/projdata/share",
                      "{\"permission\": \"rw\", \"emails\": [\"alice@example.com\"]}"),
             201);
    T_EQ_INT(s_status(&s_kp[DADMIN], "POST", "/folders/projdata/unshare",
                      "{\"emails\": [\"alice@example.com\"]}"),
             200);
    T_EQ_INT(s_status(&s_kp[DADMIN], "POST", "/folders/projdata/update-options",
                      "{\"cloneable\": true}"),
             201);
    T_EQ_INT(s_status(&s_kp[ALICE], "DELETE", "/folders/projdata", NULL), 403);
    T_EQ_INT(s_status(&s_kp[DADMIN], "DELETE", "/folders/projdata", NULL), 204);

    //  Into the trash and back: only wd (and the owner) may.
    char body[128];
    snprintf(body, sizeof body, "{\"id\": \"%s\"}", s_team_id);
    T_EQ_INT(s_status(&s_kp[BOB_RO], "DELETE", "/folders/team", NULL), 403);
    T_EQ_INT(s_status(&s_kp[CAROL_RW], "DELETE", "/folders/team", NULL), 403);
    T_EQ_INT(s_status(&s_kp[FRANK_OUT], "DELETE", "/folders/team", NULL), 404);
    T_EQ_INT(s_status(&s_kp[DAVE_WD], "DELETE", "/folders/team", NULL), 204);
    T_EQ_INT(s_status(&s_kp[ALICE], "GET", "/folders/team", NULL), 404);
    T_EQ_INT(s_status(&s_kp[BOB_RO], "POST", "/folders/restore-from-trash-bin", body),
             403);
    T_EQ_INT(s_status(&s_kp[ALICE], "POST", "/folders/restore-from-trash-bin", body),
             204);
    T_EQ_INT(s_status(&s_kp[ALICE], "GET", "/folders/team", NULL), 200);
    //  Leaving: bob leaves, then reaches nothing; the owner cannot leave.
    T_EQ_INT(s_status(&s_kp[ALICE], "POST", "/folders/team/leave", "{}"), 400);
    T_EQ_INT(s_status(&s_kp[BOB_RO], "POST", "/folders/team/leave", "{}"), 200);
    T_EQ_INT(s_status(&s_kp[BOB_RO], "GET", "/folders/team", NULL), 404);
}

static void
test_clone(void)
{
    //  The matrix left team cloneable: carol (rw) copies it into a folder
    //  of her own, which reads "cloning" until the copy is done.
    int status;
    json_t *r = s_call(&s_kp[CAROL_RW], "POST", "/folders/team/clone",
                       "{\"target_name\": \"team-copy\"}", &status);
    T_EQ_INT(status, 201);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "cloning");
    json_decref(r);
    for (int waited = 0; waited < 10000; waited += 100) {
        if (s_status(&s_kp[CAROL_RW], "GET", "/folders/team-copy", NULL) == 200)
            break;
        harness_pause_ms(100);
    }
    char *body = NULL;
    T_EQ_INT(s_download(&s_kp[CAROL_RW], "team-copy", "seed.txt", &body), 200);
    T_EQ_STR(body, "hello");
    free(body);
    r = s_call(&s_kp[CAROL_RW], "GET", "/folders/team-copy", NULL, &status);
    T_ASSERT(json_is_true(json_object_get(r, "is_owner")));
    json_decref(r);
    //  Not cloneable any more: only its owner may still copy it.
    T_EQ_INT(s_status(&s_kp[ALICE], "POST", "/folders/team/update-options",
                      "{\"cloneable\": false}"),
             201);
    r = s_call(&s_kp[CAROL_RW], "POST", "/folders/team/clone",
               "{\"target_name\": \"team-copy2\"}", &status);
    T_EQ_INT(status, 400);
    T_CONTAINS(json_string_value(json_object_get(r, "msg")),
               "not permitted to be cloned");
    json_decref(r);
    T_EQ_INT(s_status(&s_kp[FRANK_OUT], "POST", "/folders/team/clone",
                      "{\"target_name\": \"mine\"}"),
             404);
}

static void
test_bad_paths_and_quota(void)
{
    //  Paths that leave the folder are refused by the storage-proxy, and
    //  the gateway says so as problem+json.
    int status;
    json_t *r =
        s_call(&s_kp[ALICE], "GET", "/folders/team/files?path=../..", NULL, &status);
    T_EQ_INT(status, 400);
    T_CONTAINS(json_string_value(json_object_get(r, "type")), "invalid-api-params");
    json_decref(r);
    T_EQ_INT(
        s_status(&s_kp[ALICE], "POST", "/folders/team/mkdir", "{\"path\": \"/etc/x\"}"),
        400);
    T_EQ_INT(s_status(&s_kp[ALICE], "POST", "/folders/team/move-file",
                      "{\"src\": \"seed.txt\", \"dst\": \"../seed.txt\"}"),
             400);
    //  No token is signed for a path outside the folder: 400 at once, as
    //  Backend.AI answers (s_upload and s_download return -status then).
    char *body = NULL;
    const char *outside[] = {
        "../../../../etc/passwd", "/etc/passwd", "a/../../x", "..", "", ".", "a/.."};
    for (size_t i = 0; i < sizeof outside / sizeof outside[0]; i++) {
        if (s_download(&s_kp[ALICE], "team", outside[i], &body) != -400 ||
            s_upload(&s_kp[ALICE], "team", outside[i], "x", 1, 0) != -400)
            printf("# a token was signed for \"%s\"\n", outside[i]);
        T_EQ_INT(s_download(&s_kp[ALICE], "team", outside[i], &body), -400);
        T_EQ_INT(s_upload(&s_kp[ALICE], "team", outside[i], "x", 1, 0), -400);
    }
    //  ... while a relative path inside is the file it names
    T_EQ_INT(s_download(&s_kp[ALICE], "team", "./seed.txt", &body), 200);
    free(body);
    body = NULL;
    //  A 1 KiB quota: the byte that crosses it is refused, nothing appears.
    r = s_call(&s_kp[ALICE], "POST", "/folders",
               "{\"name\": \"small\", \"quota\": \"1k\"}", &status);
    T_EQ_INT(status, 201);
    T_EQ_INT(json_integer_value(json_object_get(r, "max_size")), 1024);
    json_decref(r);
    char kib[1025];
    memset(kib, 'x', 1024);
    kib[1024] = '\0';
    T_EQ_INT(s_upload(&s_kp[ALICE], "small", "full.bin", kib, 1024, 0), 204);
    T_EQ_INT(s_upload(&s_kp[ALICE], "small", "over.bin", "y", 1, 0), 412);
    r = s_call(&s_kp[ALICE], "GET", "/folders/small/files", NULL, &status);
    char *listing = json_dumps(r, JSON_COMPACT);
    T_CONTAINS(listing, "full.bin");
    T_ASSERT(!strstr(listing, "over.bin"));
    free(listing);
    json_decref(r);
}

static void
test_policy_limits(void)
{
    //  The user policy's count and size: frank may have one folder of at
    //  most 2 KiB; one made without a quota gets the limit.
    json_t *r = client_gql(&s_p, &s_p.super,
                           "mutation { modify_user_resource_policy(name: \"default\","
                           " props: {max_vfolder_count: 1, max_quota_scope_size: 2048})"
                           " { ok msg } }",
                           NULL);
    T_ASSERT(client_mutation_ok(r, "modify_user_resource_policy"));
    json_decref(r);
    int status;
    r = s_call(&s_kp[FRANK_OUT], "POST", "/folders",
               "{\"name\": \"big\", \"quota\": \"4k\"}", &status);
    T_EQ_INT(status, 400);
    T_CONTAINS(json_string_value(json_object_get(r, "msg")), "exceeds the limit");
    json_decref(r);
    r = s_call(&s_kp[FRANK_OUT], "POST", "/folders", "{\"name\": \"mine\"}", &status);
    T_EQ_INT(status, 201);
    T_EQ_INT(json_integer_value(json_object_get(r, "max_size")), 2048);
    json_decref(r);
    r = s_call(&s_kp[FRANK_OUT], "POST", "/folders", "{\"name\": \"second\"}", &status);
    T_EQ_INT(status, 400);
    T_CONTAINS(json_string_value(json_object_get(r, "msg")),
               "cannot create more vfolders");
    json_decref(r);
    r = client_gql(
        &s_p, &s_p.super,
        "mutation { modify_user_resource_policy(name: \"default\","
        " props: {max_vfolder_count: 0, max_quota_scope_size: -1}) { ok msg } }",
        NULL);
    T_ASSERT(client_mutation_ok(r, "modify_user_resource_policy"));
    json_decref(r);
}

//  A session that did not start: why, for the failure's investigation.
static void
s_print_unless_running(json_t *answer)
{
    const char *state = json_string_value(json_object_get(answer, "status"));
    if (state && strcmp(state, "RUNNING") == 0)
        return;
    char *text = json_dumps(answer, JSON_COMPACT);
    fprintf(stderr, "# session: %s\n", text ? text : "(none)");
    free(text);
    char path[256];
    snprintf(path, sizeof path, "/session/%s",
             json_string_value(json_object_get(answer, "sessionId")));
    int status;
    json_t *info = s_call(&s_p.super, "GET", path, NULL, &status);
    text = json_dumps(info, JSON_COMPACT);
    fprintf(stderr, "# its info: %s\n", text ? text : "(none)");
    free(text);
    json_decref(info);
}

static void
test_mounts_on_two_agents(void)
{
    unsigned tag = (unsigned) getpid() % 10000;
    char bridge0[16], bridge1[16];
    snprintf(bridge0, sizeof bridge0, "bpv%ua", tag);
    snprintf(bridge1, sizeof bridge1, "bpv%ub", tag);
    T_ASSERT(
        client_agent_start(&s_p, &s_agents[0], "agent-v1", bridge0, harness_subnet()));
    //  An automount folder: alice's own, dot-prefixed.
    T_EQ_INT(s_status(&s_kp[ALICE], "POST", "/folders", "{\"name\": \".dotfiles\"}"),
             201);
    //  A takes the whole first agent, so B goes to the second.
    int status;
    json_t *r = s_call(&s_kp[ALICE], "POST", "/session",
                       "{\"name\": \"vf-writer\", \"image\": \"" IMAGE "\","
                       " \"group\": \"default\", \"config\": {\"resources\": {\"cpu\": 2,"
                       " \"mem\": \"256m\"}, \"mounts\": [\"team\"],"
                       " \"mount_map\": {\"team\": \"/home/work/shared\"}}}",
                       &status);
    s_print_unless_running(r);
    T_EQ_INT(status, 201);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "RUNNING");
    json_decref(r);
    T_ASSERT(
        client_agent_start(&s_p, &s_agents[1], "agent-v2", bridge1, harness_subnet()));
    r = s_call(&s_kp[CAROL_RW], "POST", "/session",
               "{\"name\": \"vf-reader\", \"image\": \"" IMAGE "\","
               " \"group\": \"default\", \"config\": {\"resources\": {\"cpu\": 1,"
               " \"mem\": \"256m\"}, \"mounts\": [\"team\"],"
               " \"mount_options\": {\"team\": {\"permission\": \"ro\"}}}}",
               &status);
    s_print_unless_running(r);
    T_EQ_INT(status, 201);
    T_EQ_STR(json_string_value(json_object_get(r, "status")), "RUNNING");
    json_decref(r);
    //  Asking for more than one has is refused before anything runs.
    T_EQ_INT(s_status(&s_kp[BOB_RO], "POST", "/session",
                      "{\"name\": \"vf-nope\", \"image\": \"" IMAGE "\", \"group\":"
                      " \"default\", \"config\": {\"mounts\": [\"labdata\"]}}"),
             404);
    //  The writer writes through its mount; the reader reads it on the
    //  other agent and cannot write.
    r = s_call(
        &s_kp[ALICE], "POST", "/session/vf-writer",
        "{\"mode\": \"query\", \"code\": \"echo from-writer > /home/work/shared/w.txt"
        " && test -d /home/work/.dotfiles && echo automounted\"}",
        &status);
    T_EQ_INT(status, 200);
    json_t *result = json_object_get(r, "result");
    char *console = json_dumps(json_object_get(result, "console"), JSON_COMPACT);
    T_CONTAINS(console, "automounted");
    T_EQ_INT(json_integer_value(json_object_get(result, "exitCode")), 0);
    free(console);
    json_decref(r);
    r = s_call(&s_kp[CAROL_RW], "POST", "/session/vf-reader",
               "{\"mode\": \"query\", \"code\": \"cat /home/work/team/w.txt;"
               " touch /home/work/team/r.txt\"}",
               &status);
    T_EQ_INT(status, 200);
    result = json_object_get(r, "result");
    console = json_dumps(json_object_get(result, "console"), JSON_COMPACT);
    T_CONTAINS(console, "from-writer");
    T_CONTAINS(console, "Read-only file system");
    T_ASSERT(json_integer_value(json_object_get(result, "exitCode")) != 0);
    free(console);
    json_decref(r);
    //  What the container wrote is in the folder, through the API too.
    char *body = NULL;
    T_EQ_INT(s_download(&s_kp[ALICE], "team", "w.txt", &body), 200);
    T_EQ_STR(body, "from-writer\n");
    free(body);
    //  A mounted folder does not go to the trash (a purge would pull its
    //  files from under the sessions).
    r = s_call(&s_kp[ALICE], "DELETE", "/folders/team", NULL, &status);
    T_EQ_INT(status, 400);
    T_CONTAINS(json_string_value(json_object_get(r, "msg")),
               "is mounted by the session vf-");
    json_decref(r);
    T_EQ_INT(s_status(&s_kp[ALICE], "DELETE", "/session/vf-writer", NULL), 200);
    T_EQ_INT(s_status(&s_kp[CAROL_RW], "DELETE", "/session/vf-reader", NULL), 200);
}

static void
test_purge_and_stop(void)
{
    //  Purge: in the trash first, then gone with its bytes.
    char body[128];
    snprintf(body, sizeof body, "{\"id\": \"%s\"}", s_team_id);
    //  Once the sessions that mounted it have ended.
    int status = 0;
    for (int waited = 0; waited < 30000 && status != 204; waited += 200) {
        status = s_status(&s_kp[ALICE], "DELETE", "/folders/team", NULL);
        if (status != 204)
            harness_pause_ms(200);
    }
    T_EQ_INT(status, 204);
    T_EQ_INT(s_status(&s_kp[ALICE], "POST", "/folders/purge", body), 204);
    T_EQ_INT(s_status(&s_kp[ALICE], "POST", "/folders/restore-from-trash-bin", body),
             404);
    bool clean = true;
    for (int i = 0; i < 2; i++)
        if (s_containers && (harness_stop(&s_agents[i], CLIENT_STOP_MS) != 0 ||
                             harness_log_has_report(&s_agents[i]))) {
            fprintf(stderr, "# agent %d log=%s\n", i, s_agents[i].log_path);
            clean = false;
        }
    if (harness_stop(&s_sp, CLIENT_STOP_MS) != 0 || harness_log_has_report(&s_sp)) {
        fprintf(stderr, "# storage-proxy log=%s\n", s_sp.log_path);
        clean = false;
    }
    clean = client_platform_stop(&s_p) && clean;
    T_ASSERT(clean);
    client_platform_end(&s_p, !clean);
}

int
main(void)
{
    T_RUN(test_start);
    T_RUN(test_hosts_and_create);
    T_RUN(test_upload_download_and_invitations);
    T_RUN(test_permission_matrix);
    T_RUN(test_clone);
    T_RUN(test_bad_paths_and_quota);
    T_RUN(test_policy_limits);
    //  The mounts need real containers; without them the rest still runs.
    s_containers = harness_can_run_containers();
    if (s_containers)
        T_RUN(test_mounts_on_two_agents);
    else
        T_RUN_SKIP(test_mounts_on_two_agents, "needs root, runc, umoci and tini");
    T_RUN(test_purge_and_stop);
    return T_DONE();
}
