/*  =========================================================================
    accel_both_test - one GPU offered once: an agent whose mock plugin
    offers two fake GPUs both whole and as shares (accelerators.mock
    mode=both, as cuda_mode both does). A device taken whole has no shares
    to give and shares in use keep a device from being taken whole: a
    session that does not fit stays PENDING with a reason that names the
    short slot (cuda.shares: asked 0.6, free 0.4 on the best agent) and
    runs once room frees, never cancelled; fractions of cuda.device and
    more than any agent has are a 400 naming the slot; after the agent
    restarts, its adopted kernels hold their devices in the same mode (its
    heartbeat's placeable_slots say so); a burst of shares that the
    agent's devices cannot hold although the totals can leaves the last
    one PENDING (placed and refused by the agent for want of room, or held
    back by what the agent said it can place), and it runs once a device
    has room. At rest the ledger agrees with the agent (check-ledger).
    Needs root, runc, umoci and tini.

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

#define IMAGE     "local.backplane/library/busybox:latest"
#define SHARES(x) "{\"cpu\": 1, \"mem\": \"64m\", \"cuda.shares\": \"" x "\"}"
#define DEVICE(x) "{\"cpu\": 1, \"mem\": \"64m\", \"cuda.device\": " x "}"
#define MOCK_BOTH "devices=2,memory=16g,mode=both"
#define GB        "agent-gb"

static client_platform_t s_p;
static harness_proc_t s_agents[1];
static char s_bridges[1][16];
static const char *const s_names[1] = {GB};
static const char *s_cidrs[1]; //  harness_subnet, at the first start
static const char *const s_mocks[1] = {MOCK_BOTH};

static json_t *
s_request(const char *method, const char *path, const char *body, int *status)
{
    char *text = NULL;
    *status = client_signed(&s_p, &s_p.super, method, path, body, NULL, &text, NULL);
    json_t *parsed = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
    free(text);
    return parsed;
}

//  POST /session of an interactive session asking resources (a JSON
//  object's text), with environ (JSON object text, "" for none); waits
//  until it runs unless enqueue. Returns the HTTP status.
static int
s_create(const char *name, const char *resources, const char *environ, bool enqueue)
{
    char body[1024];
    snprintf(body, sizeof body,
             "{\"name\": \"%s\", \"image\": \"" IMAGE "\", \"type\": \"interactive\","
             " \"enqueueOnly\": %s, \"config\": {\"resources\": %s%s%s}}",
             name, enqueue ? "true" : "false", resources,
             *environ ? ", \"environ\": " : "", environ);
    int status;
    json_t *r = s_request("POST", "/session", body, &status);
    if (status >= 400) {
        char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
        fprintf(stderr, "# create %s: %d %s\n", name, status, text ? text : "");
        free(text);
    }
    json_decref(r);
    return status;
}

//  GET /session/{name} as text (caller frees), NULL when it is not found
//  (never created, or ended).
static char *
s_info(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s", name);
    int status;
    json_t *r = s_request("GET", path, NULL, &status);
    char *text = status == 200 && r ? json_dumps(r, JSON_COMPACT) : NULL;
    json_decref(r);
    return text;
}

//  Waits up to timeout_ms for the session's status; status NULL waits
//  until it has ended (TERMINATED or CANCELLED, or no longer found).
static bool
s_wait(const char *name, const char *status, int timeout_ms)
{
    char want[64] = "";
    if (status)
        snprintf(want, sizeof want, "\"status\":\"%s\"", status);
    char *text = NULL;
    for (int waited = 0; waited <= timeout_ms; waited += 100) {
        free(text);
        text = s_info(name);
        bool ended = !text || strstr(text, "\"status\":\"TERMINATED\"") ||
                     strstr(text, "\"status\":\"CANCELLED\"");
        if (status ? text && strstr(text, want) : ended) {
            free(text);
            return true;
        }
        harness_pause_ms(100);
    }
    fprintf(stderr, "# %s never became %s: %s\n", name, status ? status : "ended",
            text ? text : "(gone)");
    free(text);
    return false;
}

static void
s_destroy(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s", name);
    int status;
    json_decref(s_request("DELETE", path, NULL, &status));
}

//  What the session's container sees: "V=<CUDA_VISIBLE_DEVICES>
//  M=<BACKPLANE_MOCK_CUDA_VISIBLE_DEVICES> T=<..._THREAD_PERCENTAGE>
//  L=<..._PINNED_DEVICE_MEM_LIMIT>" into out; false when the run failed.
static bool
s_env(const char *name, char *out, size_t size)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s", name);
    int status;
    json_t *r = s_request("POST", path,
                          "{\"mode\": \"query\", \"code\": \"echo V=$CUDA_VISIBLE_DEVICES"
                          " M=$BACKPLANE_MOCK_CUDA_VISIBLE_DEVICES"
                          " T=$BACKPLANE_MOCK_CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"
                          " L=$BACKPLANE_MOCK_CUDA_MPS_PINNED_DEVICE_MEM_LIMIT\"}",
                          &status);
    json_t *result = json_object_get(r, "result");
    json_t *console = json_object_get(result, "console");
    *out = '\0';
    size_t index;
    json_t *item;
    json_array_foreach(console, index, item)
    {
        const char *kind = json_string_value(json_array_get(item, 0));
        const char *text = json_string_value(json_array_get(item, 1));
        if (kind && text && strcmp(kind, "stdout") == 0)
            strncat(out, text, size - strlen(out) - 1);
    }
    out[strcspn(out, "\n")] = '\0';
    bool ok = status == 200 && strncmp(out, "V=", 2) == 0;
    if (!ok) {
        char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
        fprintf(stderr, "# env of %s: %d %s\n", name, status, text ? text : "");
        free(text);
    }
    json_decref(r);
    return ok;
}

//  The device a session's container sees (its CUDA_VISIBLE_DEVICES), -1
//  when none or several.
static int
s_device(const char *name)
{
    char env[256];
    if (!s_env(name, env, sizeof env))
        return -1;
    if (env[2] >= '0' && env[2] <= '9' && env[3] == ' ')
        return env[2] - '0';
    fprintf(stderr, "# %s sees %s\n", name, env);
    return -1;
}

//  The scheduler's offline invariant check: true when it finds nothing,
//  tried for a few seconds (heartbeats catch up with the last end).
static bool
s_ledger_holds(void)
{
    char command[1024], path[600], out[4096] = "";
    snprintf(command, sizeof command,
             "%s/backplane-scheduler --set node.state_dir=%s/scheduler check-ledger"
             " > %s/ledger.txt 2>&1",
             harness_bindir(), s_p.dir, s_p.dir);
    snprintf(path, sizeof path, "%s/ledger.txt", s_p.dir);
    int rc = -1;
    for (int tries = 0; tries < 20 && rc != 0; tries++) {
        if (tries)
            harness_pause_ms(250);
        rc = harness_shell(command);
    }
    FILE *file = fopen(path, "r");
    if (file) {
        size_t got = fread(out, 1, sizeof out - 1, file);
        out[got] = 0;
        fclose(file);
    }
    if (rc != 0 || !strstr(out, "0 violations"))
        fprintf(stderr, "# check-ledger %d: %s", rc, out);
    return rc == 0 && strstr(out, "0 violations");
}

//  What the scheduler recorded from agent's heartbeats for slot in table,
//  read with the sqlite3 shell; -2 without that shell, -1 when there is no
//  row.
static long long
s_row(const char *table, const char *agent, const char *slot)
{
    if (harness_shell("command -v sqlite3 > /dev/null") != 0)
        return -2;
    char command[1024], path[600], out[64] = "";
    snprintf(path, sizeof path, "%s/reported.txt", s_p.dir);
    snprintf(command, sizeof command,
             "sqlite3 %s/scheduler/scheduler.db \"SELECT amount FROM %s"
             " WHERE agent_id = '%s' AND slot = '%s'\" > %s 2>&1",
             s_p.dir, table, agent, slot, path);
    if (harness_shell(command) != 0)
        return -1;
    FILE *file = fopen(path, "r");
    size_t got = file ? fread(out, 1, sizeof out - 1, file) : 0;
    out[got] = 0;
    if (file)
        fclose(file);
    return *out ? atoll(out) : -1;
}

//  What the scheduler keeps in table (agent_reported: what the agent's
//  kernels hold; agent_placeable: what one kernel could be given) for slot
//  once it says want, or what it says after timeout_ms: heartbeats come
//  every bus.heartbeat_ms, so a report trails the ledger by up to one of
//  them. -2 without the sqlite3 shell.
static long long
s_row_soon(const char *table,
           const char *agent,
           const char *slot,
           long long want,
           int timeout_ms)
{
    long long reported = s_row(table, agent, slot);
    for (int waited = 0; reported != want && reported != -2 && waited < timeout_ms;
         waited += 100) {
        harness_pause_ms(100);
        reported = s_row(table, agent, slot);
    }
    return reported;
}

//  Starts the agent on the platform.
static bool
s_agent_up(int i)
{
    char bridge[64], cidr[64], mock[160];
    snprintf(bridge, sizeof bridge, "agent.network.bridge=%s", s_bridges[i]);
    if (!s_cidrs[i])
        s_cidrs[i] = harness_subnet();
    snprintf(cidr, sizeof cidr, "agent.network.cidr=%s", s_cidrs[i] ? s_cidrs[i] : "");
    snprintf(mock, sizeof mock, "accelerators.mock=%s", s_mocks[i]);
    const char *extra[] = {
        "agent.slots.cpu=8",       "agent.slots.mem=2g",  bridge, cidr, mock,
        "accelerators.cuda=false", "agent.stats_ms=1000", NULL};
    harness_bus_t bus = {s_p.hub_publish, s_p.hub_subscribe, s_p.registry};
    return harness_agent_start(&s_agents[i], s_p.dir, s_names[i], &bus, extra, NULL, 0) ==
           0;
}

//  True when the agent's log has text.
static bool
s_log_has(int i, const char *text)
{
    FILE *file = fopen(s_agents[i].log_path, "r");
    char line[HARNESS_LINE_MAX];
    bool found = false;
    while (file && !found && fgets(line, sizeof line, file))
        found = strstr(line, text) != NULL;
    if (file)
        fclose(file);
    return found;
}

//  POST /session that must be refused: its status and detail (caller frees).
static int
s_refused(const char *name, const char *resources, char **detail)
{
    char body[1024];
    snprintf(body, sizeof body,
             "{\"name\": \"%s\", \"image\": \"" IMAGE "\", \"type\": \"interactive\","
             " \"enqueueOnly\": true, \"config\": {\"resources\": %s}}",
             name, resources);
    int status;
    json_t *r = s_request("POST", "/session", body, &status);
    const char *text = json_string_value(json_object_get(r, "detail"));
    const char *type = json_string_value(json_object_get(r, "type"));
    fprintf(stderr, "# %s: %d %s %s\n", name, status, type ? type : "", text ? text : "");
    *detail = strdup(text ? text : "");
    if (!type || !strstr(type, "invalid-api-params"))
        status = -status;
    json_decref(r);
    return status;
}

//  Waits a few passes, then: the session is PENDING and its reason has want.
static bool
s_pending_because(const char *name, const char *want)
{
    char *text = NULL;
    bool ok = false;
    for (int waited = 0; waited <= 5000 && !ok; waited += 100) {
        free(text);
        text = s_info(name);
        ok = text && strstr(text, "\"status\":\"PENDING\"") && strstr(text, want);
        if (!ok)
            harness_pause_ms(100);
    }
    if (!ok)
        fprintf(stderr, "# %s not PENDING because %s: %s\n", name, want,
                text ? text : "(gone)");
    free(text);
    return ok;
}

static void
test_start(void)
{
    const char *sets[] = {"sessions.pass_ms=200", NULL};
    T_ASSERT(client_platform_start_with(&s_p, "accelboth", false, sets) == 0);
    int pid = (int) (getpid() % 100000);
    snprintf(s_bridges[0], sizeof s_bridges[0], "bpb%d", pid);
    T_EQ_INT(harness_busybox_images(s_p.dir), 0);
    T_ASSERT(s_agent_up(0));
    T_ASSERT(s_log_has(0, "\"agent slots\" cuda.device=2"));
    T_ASSERT(s_log_has(0, "\"agent slots\" cuda.shares=2"));
    bool listed = false;
    for (int tries = 0; tries < 200 && !listed; tries++) {
        json_t *r = client_gql(&s_p, &s_p.super, "{ images { name } }", NULL);
        char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
        listed = text && strstr(text, "library/busybox");
        free(text);
        json_decref(r);
        if (!listed)
            harness_pause_ms(100);
    }
    T_ASSERT(listed);
}

//  One device whole, the other shared: what is left is 0.4 of one device's
//  shares and no whole device; each session asking more waits, and says
//  which slot is short.
static void
test_one_offer_per_gpu(void)
{
    T_EQ_INT(s_create("bw-1", DEVICE("1"), "", false), 201);
    T_EQ_INT(s_create("bh-1", SHARES("0.6"), "", false), 201);
    int whole = s_device("bw-1"), shared = s_device("bh-1");
    T_ASSERT(whole >= 0 && shared >= 0 && whole != shared);
    T_EQ_INT(s_create("bh-2", SHARES("0.6"), "", true), 201);
    T_ASSERT(
        s_pending_because("bh-2", "cuda.shares: asked 0.6, free 0.4 on the best agent"));
    T_EQ_INT(s_create("bw-2", DEVICE("1"), "", true), 201);
    T_ASSERT(s_pending_because("bw-2", "cuda.device: asked 1, free 0 on the best agent"));
    T_ASSERT(s_ledger_holds());
    long long placeable = s_row_soon("agent_placeable", GB, "cuda.shares", 400, 3000);
    T_ASSERT(placeable == 400 || placeable == -2);
    //  check-presets says the same: no GPU whole, 0.4 of a share (the web UI's
    //  "remaining" and its presets read this).
    int status;
    json_t *r = s_request("POST", "/resource/check-presets", "{}", &status);
    T_EQ_INT(status, 200);
    json_t *remaining = json_object_get(r, "scaling_group_remaining");
    const char *device = json_string_value(json_object_get(remaining, "cuda.device"));
    const char *shares = json_string_value(json_object_get(remaining, "cuda.shares"));
    if (!device || !shares || strcmp(device, "0") != 0 || strcmp(shares, "0.4") != 0) {
        char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
        fprintf(stderr, "# check-presets: %s\n", text ? text : "(none)");
        free(text);
    }
    T_EQ_STR(device, "0");
    T_EQ_STR(shares, "0.4");
    json_decref(r);
}

//  What could never run is refused at once, the slot named.
static void
test_refused_at_the_gateway(void)
{
    char *detail = NULL;
    T_EQ_INT(s_refused("bad-1", DEVICE("0.5"), &detail), 400);
    T_CONTAINS(detail, "cuda.device");
    T_CONTAINS(detail, "whole");
    free(detail);
    T_EQ_INT(s_refused("bad-2", SHARES("2.5"), &detail), 400);
    T_CONTAINS(detail, "cuda.shares: asked 2.5, no agent of the resource group has more"
                       " than 2");
    free(detail);
    T_EQ_INT(s_refused("bad-3", DEVICE("3"), &detail), 400);
    T_CONTAINS(detail, "cuda.device: asked 3");
    free(detail);
    T_EQ_INT(
        s_refused("bad-4", "{\"cpu\": 1, \"mem\": \"64m\", \"rocm.device\": 1}", &detail),
        400);
    T_CONTAINS(detail, "rocm.device: no agent of the resource group has it");
    free(detail);
    //  Both of one GPU's slots together, more than its devices hold.
    T_EQ_INT(s_refused("bad-5",
                       "{\"cpu\": 1, \"mem\": \"64m\", \"cuda.device\": 2,"
                       " \"cuda.shares\": \"0.1\"}",
                       &detail),
             400);
    free(detail);
    T_ASSERT(s_info("bad-1") == NULL);
}

//  The agent restarts: its kernels are adopted in the mode they had, so it
//  still offers no whole device and 0.4 of shares, and the waiting stay
//  PENDING.
static void
test_restart_keeps_modes(void)
{
    T_EQ_INT(harness_stop(&s_agents[0], 10000), 0);
    T_ASSERT(!harness_log_has_report(&s_agents[0]));
    T_ASSERT(s_agent_up(0));
    T_ASSERT(s_log_has(0, "kernel adopted"));
    T_ASSERT(!s_log_has(0, "not restored"));
    T_ASSERT(s_wait("bw-1", "RUNNING", 100));
    T_ASSERT(s_wait("bh-1", "RUNNING", 100));
    long long shares = s_row_soon("agent_placeable", GB, "cuda.shares", 400, 5000);
    long long devices = s_row_soon("agent_placeable", GB, "cuda.device", 0, 5000);
    fprintf(stderr, "# after the restart: placeable cuda.shares %lld cuda.device %lld\n",
            shares, devices);
    T_ASSERT(shares == 400 || shares == -2);
    T_ASSERT(devices == 0 || devices == -2);
    harness_pause_ms(600);
    T_ASSERT(s_pending_because("bh-2", "cuda.shares"));
    T_ASSERT(s_pending_because("bw-2", "cuda.device"));
}

//  The whole device is given back: the shares waiting first take it; the
//  device waiting second still finds none whole.
static void
test_end_frees(void)
{
    int whole = s_device("bw-1");
    s_destroy("bw-1");
    T_ASSERT(s_wait("bw-1", NULL, 20000));
    T_ASSERT(s_wait("bh-2", "RUNNING", 30000));
    T_EQ_INT(s_device("bh-2"), whole);
    T_ASSERT(s_pending_because("bw-2", "cuda.device: asked 1, free 0"));
    s_destroy("bw-2");
    T_ASSERT(s_wait("bw-2", NULL, 20000));
}

//  Two devices with 0.6 each in use hold 0.8 of shares in total but no 0.5
//  on one device. Three at once: whether the agent refused the third (the
//  scheduler's figures trailed) or its heartbeat held it back, it waits,
//  never cancelled, and runs once a device has room.
static void
test_fragmented_burst(void)
{
    s_destroy("bh-1");
    s_destroy("bh-2");
    T_ASSERT(s_wait("bh-1", NULL, 20000));
    T_ASSERT(s_wait("bh-2", NULL, 20000));
    long long placeable = s_row_soon("agent_placeable", GB, "cuda.device", 2000, 5000);
    T_ASSERT(placeable == 2000 || placeable == -2);
    T_EQ_INT(s_create("fr-1", SHARES("0.6"), "", true), 201);
    T_EQ_INT(s_create("fr-2", SHARES("0.6"), "", true), 201);
    T_EQ_INT(s_create("fr-3", SHARES("0.5"), "", true), 201);
    T_ASSERT(s_wait("fr-1", "RUNNING", 30000));
    T_ASSERT(s_wait("fr-2", "RUNNING", 30000));
    T_ASSERT(s_pending_because("fr-3", "cuda.shares"));
    fprintf(stderr, "# the agent %s the third\n",
            s_log_has(0, "does not fit") ? "refused" : "was never sent");
    char *text = s_info("fr-3");
    T_ASSERT(text && !strstr(text, "CANCELLED"));
    free(text);
    s_destroy("fr-1");
    T_ASSERT(s_wait("fr-1", NULL, 20000));
    T_ASSERT(s_wait("fr-3", "RUNNING", 30000));
}

static void
test_all_end(void)
{
    const char *names[] = {"fr-2", "fr-3"};
    for (size_t i = 0; i < 2; i++)
        s_destroy(names[i]);
    for (size_t i = 0; i < 2; i++)
        T_ASSERT(s_wait(names[i], NULL, 20000));
    T_ASSERT(s_ledger_holds());
    long long reported = s_row_soon("agent_reported", GB, "cuda.shares", 0, 3000);
    T_ASSERT(reported == 0 || reported == -2);
    reported = s_row_soon("agent_placeable", GB, "cuda.shares", 2000, 3000);
    T_ASSERT(reported == 2000 || reported == -2);
}

static void
test_stop(void)
{
    T_EQ_INT(harness_stop(&s_agents[0], 10000), 0);
    T_ASSERT(!harness_log_has_report(&s_agents[0]));
    char command[128];
    snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridges[0]);
    (void) harness_shell(command);
    T_ASSERT(client_platform_stop(&s_p));
}

int
main(void)
{
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    T_RUN(test_start);
    T_RUN(test_one_offer_per_gpu);
    T_RUN(test_refused_at_the_gateway);
    T_RUN(test_restart_keeps_modes);
    T_RUN(test_end_frees);
    T_RUN(test_fragmented_burst);
    T_RUN(test_all_end);
    T_RUN(test_stop);
    client_platform_end(&s_p, t_failures > 0);
    return T_DONE();
}
