/*  =========================================================================
    image_rescan_test - GraphQL rescan_images as a background task against
    the whole platform with a real agent whose own rescan timer is off: an
    image copied into the agent's images dir after start-up is not in the
    catalogue until a superadmin's rescan, whose task reports on
    /events/background-task (bgtask_done with its progress, then
    server_close) and after which the image is listed, installed on the
    agent; a domain admin may not rescan; unknown and missing task ids.
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

static client_platform_t s_p;
static harness_proc_t s_agent;
static char s_bridge[16];
static client_keypair_t s_admin;

#define RESCAN "mutation($r: String) { rescan_images(registry: $r) { ok msg task_id } }"

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "rescan", false) == 0);
    snprintf(s_bridge, sizeof s_bridge, "bpr%d", (int) (getpid() % 100000));
    static const char *const sets[] = {"agent.images_rescan_ms=0", NULL};
    T_ASSERT(client_agent_start_with(&s_p, &s_agent, "agent-r", s_bridge,
                                     harness_subnet(), sets));
    T_ASSERT(client_person(&s_p, "admin@example.com", "default", "admin", &s_admin));
    //  A rescan asks the agents the gateway knows on the bus (the registry's
    //  peers, refreshed every bus.sync_ms), which may come after the
    //  catalogue the agent announced: wait until /healthz names it.
    bool known = false;
    for (int tries = 0; tries < 100 && !known; tries++) {
        char *body = NULL;
        harness_http(s_p.api, "GET", "/healthz", NULL, &body, 5000);
        known = body && strstr(body, "agent-r");
        free(body);
        if (!known)
            harness_pause_ms(100);
    }
    T_ASSERT(known);
}

//  The installed agents of the image named name in the catalogue, as
//  JSON text, or NULL when it is not listed.
static char *
s_image(const char *name)
{
    json_t *r =
        client_gql(&s_p, &s_p.super, "{ images { name installed_agents } }", NULL);
    json_t *images = json_object_get(json_object_get(r, "data"), "images");
    char *found = NULL;
    size_t index;
    json_t *image;
    json_array_foreach(images, index, image)
    {
        if (strcmp(json_string_value(json_object_get(image, "name")), name) == 0)
            found = json_dumps(json_object_get(image, "installed_agents"), JSON_COMPACT);
    }
    json_decref(r);
    return found;
}

static void
test_rescan(void)
{
    char *before = s_image("library/tinybox");
    T_ASSERT(before == NULL);
    free(before);
    char command[1024];
    snprintf(command, sizeof command, "cp -a %s/images/busybox %s/images/tinybox",
             s_p.dir, s_p.dir);
    T_EQ_INT(system(command), 0);
    //  The agent scans at start only: nothing picks it up by itself.
    before = s_image("library/tinybox");
    T_ASSERT(before == NULL);
    free(before);
    //  A domain admin may not.
    json_t *r =
        client_gql(&s_p, &s_admin, RESCAN, json_pack("{s:s}", "r", "local.backplane"));
    json_t *result = json_object_get(json_object_get(r, "data"), "rescan_images");
    T_ASSERT(json_is_false(json_object_get(result, "ok")));
    T_ASSERT(json_is_null(json_object_get(result, "task_id")));
    json_decref(r);
    //  A superadmin's answers its task at once.
    r = client_gql(&s_p, &s_p.super, RESCAN, json_pack("{s:s}", "r", "local.backplane"));
    result = json_object_get(json_object_get(r, "data"), "rescan_images");
    T_ASSERT(json_is_true(json_object_get(result, "ok")));
    char task[64] = "";
    snprintf(task, sizeof task, "%s",
             json_string_value(json_object_get(result, "task_id"))
                 ? json_string_value(json_object_get(result, "task_id"))
                 : "");
    T_EQ_INT(strlen(task), 36);
    json_decref(r);
    //  Its stream ends: bgtask_done with one agent of one done, then
    //  server_close.
    char path[128], *text = NULL;
    snprintf(path, sizeof path, "/events/background-task?task_id=%s", task);
    T_EQ_INT(client_signed(&s_p, &s_p.super, "GET", path, NULL, NULL, &text, NULL), 200);
    T_CONTAINS(text, "event: bgtask_done\r\n");
    T_CONTAINS(text, "event: server_close\r\ndata: {}\r\n");
    const char *done = text ? strstr(text, "event: bgtask_done\r\ndata: ") : NULL;
    json_t *data = done ? json_loads(done + strlen("event: bgtask_done\r\ndata: "),
                                     JSON_DISABLE_EOF_CHECK, NULL)
                        : NULL;
    T_EQ_STR(json_string_value(json_object_get(data, "task_id")), task);
    T_EQ_INT(json_integer_value(json_object_get(data, "current_progress")), 1);
    T_EQ_INT(json_integer_value(json_object_get(data, "total_progress")), 1);
    T_EQ_STR(json_string_value(json_object_get(data, "message")), "rescanned 1 agents");
    json_decref(data);
    T_ASSERT(!text || !strstr(text, "bgtask_failed"));
    free(text);
    //  The copied image is in the catalogue now, on the agent.
    char *agents = s_image("library/tinybox");
    T_EQ_STR(agents, "[\"agent-r\"]");
    free(agents);
    agents = s_image("library/busybox");
    T_EQ_STR(agents, "[\"agent-r\"]");
    free(agents);
    //  Gone from the store, gone from the agent's catalogue after the next.
    snprintf(command, sizeof command, "rm -rf %s/images/tinybox", s_p.dir);
    T_EQ_INT(system(command), 0);
    r = client_gql(&s_p, &s_p.super, RESCAN, NULL);
    result = json_object_get(json_object_get(r, "data"), "rescan_images");
    snprintf(task, sizeof task, "%s",
             json_string_value(json_object_get(result, "task_id"))
                 ? json_string_value(json_object_get(result, "task_id"))
                 : "");
    json_decref(r);
    snprintf(path, sizeof path, "/events/background-task?taskId=%s", task);
    T_EQ_INT(client_signed(&s_p, &s_p.super, "GET", path, NULL, NULL, &text, NULL), 200);
    T_CONTAINS(text, "event: bgtask_done\r\n");
    free(text);
    agents = s_image("library/tinybox");
    T_ASSERT(agents == NULL || strcmp(agents, "[]") == 0);
    free(agents);
}

static void
test_unknown_task(void)
{
    T_EQ_INT(client_signed(&s_p, &s_p.super, "GET",
                           "/events/background-task?task_id="
                           "00000000-0000-0000-0000-000000000000",
                           NULL, NULL, NULL, NULL),
             404);
    T_EQ_INT(client_signed(&s_p, &s_p.super, "GET", "/events/background-task", NULL, NULL,
                           NULL, NULL),
             400);
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
    T_RUN(test_rescan);
    T_RUN(test_unknown_task);
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
