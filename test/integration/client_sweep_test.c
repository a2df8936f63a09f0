/*  =========================================================================
    client_sweep_test - what the official client's sweep (issue 14) found
    missing or wrong, over HTTP with the signing client

    Storage volumes: GraphQL storage_volume_list and storage_volume (admin
    storage list/info), GET /folders/_/perf-metric, /folders/_/fstab and
    /folders/_/mounts (admin vfolder perf-metric, get-fstab-contents,
    list-mounts): the superadmin gets Backend.AI's shapes, bad input a
    problem, anyone else 403 or a GraphQL error. move-file as `vfolder mv`
    sends it ("dir1/"): into an existing directory. An owned folder's
    innate permission (create -p ro, update-options -p) is what its owner
    is shown and mounts by default. task-logs (GET /session/_/logs?task_id=)
    answers a batch task's log as text/plain to its owner and to a
    superadmin acting for it, 404 to another user, 403 to a user or another
    domain's admin acting for it. The parts with containers need root,
    runc, umoci and tini; they skip otherwise.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gateway_client.h"
#include "t.h"

#define IMAGE   "local.backplane/library/busybox:latest"
#define AGENT   "agent-sweep"
#define WAIT_MS 30000

static client_platform_t s_p;
static harness_proc_t s_proxy, s_agent;
static bool s_containers;
static char s_bridge[16];
static client_keypair_t s_alice, s_bob, s_other_admin;

static long long
s_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

//  A signed request as kp: the status, the raw body in *text_p (when
//  given, caller frees) and the parsed one in *r_p (when given).
static int
s_as(const client_keypair_t *kp,
     const char *method,
     const char *path,
     const char *body,
     json_t **r_p,
     char **text_p)
{
    char *text = NULL;
    int status = client_signed(&s_p, kp, method, path, body, NULL, &text, NULL);
    if (r_p)
        *r_p = text ? json_loads(text, 0, NULL) : NULL;
    if (text_p)
        *text_p = text;
    else
        free(text);
    return status;
}

//  The problem type's slug of a problem+json body.
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
    T_ASSERT(client_platform_start(&s_p, "sweep", false) == 0);
    char hostport[64];
    T_ASSERT(client_storage_start(&s_p, &s_proxy, hostport, sizeof hostport));
    //  The gateway learns of the new storage-proxy from the registry's peer
    //  list: wait until its directory holds the volume.
    long long deadline = s_now_ms() + WAIT_MS;
    json_int_t volumes = 0;
    while (volumes < 1 && s_now_ms() < deadline) {
        json_t *r = client_gql(
            &s_p, &s_p.super, "{ storage_volume_list(limit: 10) { total_count } }", NULL);
        volumes = json_integer_value(json_object_get(
            json_object_get(json_object_get(r, "data"), "storage_volume_list"),
            "total_count"));
        json_decref(r);
        if (volumes < 1)
            harness_pause_ms(100);
    }
    T_EQ_INT(volumes, 1);
    s_containers = harness_can_run_containers();
    if (s_containers) {
        snprintf(s_bridge, sizeof s_bridge, "bps%d", (int) (getpid() % 100000));
        T_ASSERT(client_agent_start(&s_p, &s_agent, AGENT, s_bridge, harness_subnet()));
    }
    T_ASSERT(client_person(&s_p, "alice@sweep.example", "default", "user", &s_alice));
    T_ASSERT(client_person(&s_p, "bob@sweep.example", "default", "user", &s_bob));
    json_decref(client_gql(&s_p, &s_p.super,
                           "mutation { create_domain(name: \"far\", props: {}) { ok } }",
                           NULL));
    T_ASSERT(client_person(&s_p, "admin@far.example", "far", "admin", &s_other_admin));
}

static void
test_storage_volumes(void)
{
    json_t *r = client_gql(&s_p, &s_p.super,
                           "{ storage_volume_list(limit: 10, offset: 0) { items { id"
                           " backend path fsprefix capabilities usage performance_metric"
                           " hardware_metadata } total_count } }",
                           NULL);
    json_t *list = json_object_get(json_object_get(r, "data"), "storage_volume_list");
    T_EQ_INT(json_integer_value(json_object_get(list, "total_count")), 1);
    json_t *volume = json_array_get(json_object_get(list, "items"), 0);
    T_EQ_STR(json_string_value(json_object_get(volume, "id")), "local:volume1");
    T_EQ_STR(json_string_value(json_object_get(volume, "backend")), "local");
    T_EQ_STR(json_string_value(json_object_get(volume, "fsprefix")), ".");
    T_ASSERT(strstr(json_string_value(json_object_get(volume, "path")), s_p.dir));
    T_ASSERT(json_array_size(json_object_get(volume, "capabilities")) >= 1);
    //  usage and the others are JSON strings, as Backend.AI's JSONString
    json_t *usage =
        json_loads(json_string_value(json_object_get(volume, "usage")), 0, NULL);
    T_ASSERT(json_integer_value(json_object_get(usage, "capacity_bytes")) > 0);
    json_decref(usage);
    json_t *metric = json_loads(
        json_string_value(json_object_get(volume, "performance_metric")), 0, NULL);
    T_EQ_INT(json_integer_value(json_object_get(metric, "iops_read")), -1);
    json_decref(metric);
    json_decref(r);
    //  one by id; an unknown one is null
    r = client_gql(&s_p, &s_p.super,
                   "query($h: String!) { storage_volume(id: $h) { id backend } }",
                   json_pack("{s:s}", "h", "local:volume1"));
    T_EQ_STR(json_string_value(json_object_get(
                 json_object_get(json_object_get(r, "data"), "storage_volume"), "id")),
             "local:volume1");
    json_decref(r);
    r = client_gql(&s_p, &s_p.super, "{ storage_volume(id: \"nope:x\") { id } }", NULL);
    T_ASSERT(json_is_null(json_object_get(json_object_get(r, "data"), "storage_volume")));
    json_decref(r);
    //  a user: an error, no data
    r = client_gql(&s_p, &s_alice, "{ storage_volume_list(limit: 10) { total_count } }",
                   NULL);
    T_ASSERT(json_array_size(json_object_get(r, "errors")) >= 1);
    T_ASSERT(!json_is_object(
        json_object_get(json_object_get(r, "data"), "storage_volume_list")));
    json_decref(r);
    //  a bad page
    r = client_gql(&s_p, &s_p.super, "{ storage_volume_list(limit: 0) { total_count } }",
                   NULL);
    T_ASSERT(json_array_size(json_object_get(r, "errors")) >= 1);
    json_decref(r);
}

static void
test_volume_routes(void)
{
    json_t *r = NULL;
    T_EQ_INT(s_as(&s_p.super, "GET", "/folders/_/perf-metric?folder_host=local:volume1",
                  NULL, &r, NULL),
             200);
    T_EQ_INT(json_integer_value(
                 json_object_get(json_object_get(r, "metric"), "io_bytes_write")),
             -1);
    json_decref(r);
    T_EQ_INT(s_as(&s_p.super, "GET", "/folders/_/perf-metric", NULL, &r, NULL), 400);
    T_EQ_STR(s_type(r), "invalid-api-params");
    json_decref(r);
    T_EQ_INT(s_as(&s_p.super, "GET", "/folders/_/perf-metric?folder_host=nope:x", NULL,
                  &r, NULL),
             404);
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "GET", "/folders/_/perf-metric?folder_host=local:volume1",
                  NULL, &r, NULL),
             403);
    T_EQ_STR(s_type(r), "insufficient-privilege");
    json_decref(r);
    //  fstab: the gateway host's; an agent's would need the watcher
    T_EQ_INT(s_as(&s_p.super, "GET", "/folders/_/fstab", NULL, &r, NULL), 200);
    T_ASSERT(json_is_string(json_object_get(r, "content")));
    T_EQ_STR(json_string_value(json_object_get(r, "node")), "manager");
    json_decref(r);
    T_EQ_INT(s_as(&s_p.super, "GET", "/folders/_/fstab?agent_id=" AGENT, NULL, &r, NULL),
             400);
    T_EQ_STR(s_type(r), "not-implemented");
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "GET", "/folders/_/fstab", NULL, NULL, NULL), 403);
    //  mounts: each volume with its path
    T_EQ_INT(s_as(&s_p.super, "GET", "/folders/_/mounts", NULL, &r, NULL), 200);
    json_t *pair =
        json_array_get(json_object_get(json_object_get(r, "storage-proxy"), "mounts"), 0);
    T_EQ_STR(json_string_value(json_array_get(pair, 0)), "local:volume1");
    T_ASSERT(strstr(json_string_value(json_array_get(pair, 1)), s_p.dir));
    T_ASSERT(json_is_object(json_object_get(r, "agents")));
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "GET", "/folders/_/mounts", NULL, NULL, NULL), 403);
}

//  The names in a folder's directory listing, joined by ','.
static void
s_names(const client_keypair_t *kp,
        const char *folder,
        const char *dir,
        char *out,
        size_t size)
{
    char path[256];
    snprintf(path, sizeof path, "/folders/%s/files?path=%s", folder, dir);
    json_t *r = NULL;
    out[0] = '\0';
    if (s_as(kp, "GET", path, NULL, &r, NULL) != 200) {
        json_decref(r);
        return;
    }
    size_t i;
    json_t *item;
    json_array_foreach(json_object_get(r, "items"), i, item)
    {
        const char *name = json_string_value(json_object_get(item, "name"));
        if (strlen(out) + strlen(name ? name : "") + 2 < size) {
            strcat(out, *out ? "," : "");
            strcat(out, name ? name : "");
        }
    }
    json_decref(r);
}

static void
test_move_into_directory(void)
{
    T_EQ_INT(s_as(&s_alice, "POST", "/folders",
                  "{\"name\": \"moves\", \"host\": \"local:volume1\"}", NULL, NULL),
             201);
    T_EQ_INT(
        s_as(&s_alice, "POST", "/folders/moves/mkdir", "{\"path\": \"a\"}", NULL, NULL),
        201);
    T_EQ_INT(s_as(&s_alice, "POST", "/folders/moves/mkdir", "{\"path\": \"dir1\"}", NULL,
                  NULL),
             201);
    //  `vfolder mv moves a dir1/`: a goes inside dir1
    T_EQ_INT(s_as(&s_alice, "POST", "/folders/moves/move-file",
                  "{\"src\": \"a\", \"dst\": \"dir1/\"}", NULL, NULL),
             200);
    char names[256];
    s_names(&s_alice, "moves", "dir1", names, sizeof names);
    T_EQ_STR(names, "a");
    //  back to the root, then a plain rename
    T_EQ_INT(s_as(&s_alice, "POST", "/folders/moves/move-file",
                  "{\"src\": \"dir1/a\", \"dst\": \".\"}", NULL, NULL),
             200);
    T_EQ_INT(s_as(&s_alice, "POST", "/folders/moves/move-file",
                  "{\"src\": \"a\", \"dst\": \"b\"}", NULL, NULL),
             200);
    s_names(&s_alice, "moves", ".", names, sizeof names);
    T_ASSERT(strstr(names, "b") && strstr(names, "dir1") && !strstr(names, "a,"));
    //  bad input: a problem, nothing moved
    json_t *r = NULL;
    T_EQ_INT(s_as(&s_alice, "POST", "/folders/moves/move-file",
                  "{\"src\": \"b\", \"dst\": \"../x/\"}", &r, NULL),
             400);
    T_ASSERT(json_is_string(json_object_get(r, "title")));
    json_decref(r);
    T_EQ_INT(s_as(&s_alice, "POST", "/folders/moves/move-file", "{\"src\": \"b\"}", NULL,
                  NULL),
             400);
    T_EQ_INT(s_as(&s_bob, "POST", "/folders/moves/move-file",
                  "{\"src\": \"b\", \"dst\": \"dir1/\"}", NULL, NULL),
             404);
}

//  The permission alice's folder list shows for name.
static const char *
s_listed_perm(const char *name)
{
    static char perm[8];
    perm[0] = '\0';
    json_t *r = NULL;
    s_as(&s_alice, "GET", "/folders", NULL, &r, NULL);
    size_t i;
    json_t *folder;
    json_array_foreach(r, i, folder)
    {
        if (strcmp(json_string_value(json_object_get(folder, "name")), name) == 0)
            snprintf(perm, sizeof perm, "%s",
                     json_string_value(json_object_get(folder, "permission")));
    }
    json_decref(r);
    return perm;
}

//  Waits for a session of alice's to end; its id in id.
static bool
s_batch(const char *name, const char *command, const char *mounts, char id[64])
{
    char body[768];
    snprintf(body, sizeof body,
             "{\"name\": \"%s\", \"image\": \"" IMAGE "\", \"type\": \"batch\","
             " \"startupCommand\": \"%s\", \"config\": {\"resources\": {\"cpu\": 1,"
             " \"mem\": \"128m\"}%s}}",
             name, command, mounts);
    json_t *r = NULL;
    if (s_as(&s_alice, "POST", "/session", body, &r, NULL) != 201) {
        char *text = json_dumps(r, JSON_COMPACT);
        printf("# create %s: %s\n", name, text ? text : "");
        free(text);
        json_decref(r);
        return false;
    }
    snprintf(id, 64, "%s", json_string_value(json_object_get(r, "sessionId")));
    json_decref(r);
    char path[128], state[32] = "";
    snprintf(path, sizeof path, "/session/%s", id);
    long long deadline = s_now_ms() + WAIT_MS;
    while (strcmp(state, "TERMINATED") != 0 && s_now_ms() < deadline) {
        harness_pause_ms(100);
        s_as(&s_alice, "GET", path, NULL, &r, NULL);
        const char *status = json_string_value(json_object_get(r, "status"));
        snprintf(state, sizeof state, "%s", status ? status : "");
        json_decref(r);
    }
    return strcmp(state, "TERMINATED") == 0;
}

//  The task log of id as kp, with owner (an access key, or NULL).
static int
s_task_log(const client_keypair_t *kp, const char *id, const char *owner, char **text_p)
{
    char path[256];
    snprintf(path, sizeof path, "/session/_/logs?task_id=%s%s%s", id,
             owner ? "&owner_access_key=" : "", owner ? owner : "");
    return s_as(kp, "GET", path, NULL, NULL, text_p);
}

static void
test_owned_permission(void)
{
    T_EQ_INT(s_as(&s_alice, "POST", "/folders",
                  "{\"name\": \"innate\", \"host\": \"local:volume1\","
                  " \"permission\": \"ro\"}",
                  NULL, NULL),
             201);
    T_EQ_STR(s_listed_perm("innate"), "ro");
    json_t *r = NULL;
    T_EQ_INT(s_as(&s_alice, "GET", "/folders/innate", NULL, &r, NULL), 200);
    T_EQ_STR(json_string_value(json_object_get(r, "permission")), "ro");
    T_ASSERT(json_is_true(json_object_get(r, "is_owner")));
    json_decref(r);
    //  the owner keeps its rights: it writes through the API and changes it
    T_EQ_INT(
        s_as(&s_alice, "POST", "/folders/innate/mkdir", "{\"path\": \"d\"}", NULL, NULL),
        201);
    T_EQ_INT(s_as(&s_alice, "POST", "/folders/innate/update-options",
                  "{\"permission\": \"rw\"}", NULL, NULL),
             201);
    T_EQ_STR(s_listed_perm("innate"), "rw");
    T_EQ_INT(s_as(&s_alice, "POST", "/folders/innate/update-options",
                  "{\"permission\": \"ro\"}", NULL, NULL),
             201);
    T_EQ_STR(s_listed_perm("innate"), "ro");
    T_EQ_INT(s_as(&s_alice, "POST", "/folders/innate/update-options",
                  "{\"permission\": \"xx\"}", &r, NULL),
             400);
    json_decref(r);
    T_EQ_STR(s_listed_perm("innate"), "ro");
}

static void
test_task_logs(void)
{
    if (!s_containers) {
        printf("# no containers: task-logs not checked\n");
        return;
    }
    char id[64];
    T_ASSERT(s_batch("sweep-task", "echo line-of-the-task", "", id));
    char *text = NULL;
    T_EQ_INT(s_task_log(&s_alice, id, NULL, &text), 200);
    T_ASSERT(text && strstr(text, "line-of-the-task"));
    T_ASSERT(text && text[0] != '{'); //  text/plain, not JSON
    free(text);
    //  taskId, as the official client spells it
    char path[256];
    snprintf(path, sizeof path, "/session/_/logs?taskId=%s", id);
    T_EQ_INT(s_as(&s_alice, "GET", path, NULL, NULL, &text), 200);
    T_ASSERT(text && strstr(text, "line-of-the-task"));
    free(text);
    //  the superadmin for alice; others refused
    T_EQ_INT(s_task_log(&s_p.super, id, s_alice.access_key, &text), 200);
    T_ASSERT(text && strstr(text, "line-of-the-task"));
    free(text);
    T_EQ_INT(s_task_log(&s_bob, id, NULL, NULL), 404);
    T_EQ_INT(s_task_log(&s_bob, id, s_alice.access_key, NULL), 403);
    T_EQ_INT(s_task_log(&s_other_admin, id, s_alice.access_key, NULL), 403);
    //  bad input
    json_t *r = NULL;
    T_EQ_INT(s_as(&s_alice, "GET", "/session/_/logs", NULL, &r, NULL), 400);
    T_EQ_STR(s_type(r), "invalid-api-params");
    json_decref(r);
    T_EQ_INT(s_task_log(&s_alice, "not-a-uuid", NULL, NULL), 400);
    T_EQ_INT(s_task_log(&s_alice, "00000000-0000-0000-0000-000000000000", NULL, NULL),
             404);
}

static void
test_innate_mount(void)
{
    if (!s_containers)
        return;
    char id[64];
    T_ASSERT(s_batch("innate-mount",
                     "touch /home/work/innate/x && echo wrote-it || echo refused-it",
                     ", \"mounts\": [\"innate\"]", id));
    char *text = NULL;
    T_EQ_INT(s_task_log(&s_alice, id, NULL, &text), 200);
    if (!text || !strstr(text, "refused-it"))
        printf("# the task's log: %s\n", text ? text : "(none)");
    T_ASSERT(text && strstr(text, "refused-it") && !strstr(text, "wrote-it"));
    free(text);
}

int
main(void)
{
    T_RUN(test_start);
    if (t_failures)
        return T_DONE();
    T_RUN(test_storage_volumes);
    T_RUN(test_volume_routes);
    T_RUN(test_move_into_directory);
    T_RUN(test_owned_permission);
    T_RUN(test_task_logs);
    T_RUN(test_innate_mount);
    int agent = s_containers ? harness_stop(&s_agent, CLIENT_STOP_MS) : 0;
    int proxy = harness_stop(&s_proxy, CLIENT_STOP_MS);
    bool clean = client_platform_stop(&s_p) && agent == 0 && proxy == 0 &&
                 !(s_containers && harness_log_has_report(&s_agent)) &&
                 !harness_log_has_report(&s_proxy);
    if (!clean)
        fprintf(stderr, "# a service did not stop cleanly (agent %d, proxy %d)\n", agent,
                proxy);
    if (s_containers) {
        char command[64];
        snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridge);
        if (system(command) == 0)
            fprintf(stderr, "# the agent left its bridge %s\n", s_bridge);
    }
    client_platform_end(&s_p, t_failures > 0 || !clean);
    return clean ? T_DONE() : 1;
}
