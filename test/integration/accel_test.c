/*  =========================================================================
    accel_test - accelerators through the whole platform: sessions asking
    cuda.shares and cuda.device over the gateway, placed on real agents
    whose mock plugin (accelerators.mock) offers two fake GPUs, one agent in
    shares mode and one in device mode. Four sessions of 0.5 shares fit two
    devices and a fifth stays PENDING (no-available-instances); inside the
    containers the variables show the device and its MPS-style limits
    (CUDA_VISIBLE_DEVICES, BACKPLANE_MOCK_CUDA_*), the user's own values of
    those names dropped; ending a session frees its shares for the one
    waiting; after the agent restarts, its adopted kernels hold their
    devices again, so a new session gets the device with room, not a taken
    one; whole devices are given one per session. At rest the scheduler's
    ledger agrees with what the agents report (check-ledger). Needs root,
    runc, umoci and tini.

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

#define IMAGE  "local.backplane/library/busybox:latest"
#define SHARES "{\"cpu\": 1, \"mem\": \"64m\", \"cuda.shares\": \"0.5\"}"
#define DEVICE "{\"cpu\": 1, \"mem\": \"64m\", \"cuda.device\": 1}"
//  The agents' fake GPUs: 16 GiB each, so half a device pins 8192 MiB.
#define MOCK_SHARES "devices=2,memory=16g,shares_per_device=1,quantum=0.001,mode=shares"
#define MOCK_DEVICE "devices=2,memory=8g,mode=device"
#define GS          "agent-gs" //  the shares agent
#define GD          "agent-gd" //  the device agent

static client_platform_t s_p;
static harness_proc_t s_agents[2];
static char s_bridges[2][16];
static const char *const s_names[2] = {GS, GD};
static const char *s_cidrs[2]; //  harness_subnet, at the first start
static const char *const s_mocks[2] = {MOCK_SHARES, MOCK_DEVICE};

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

//  What the scheduler recorded from agent's heartbeats for slot
//  (agent_reported), read with the sqlite3 shell; -2 without that shell,
//  -1 when there is no row.
static long long
s_reported(const char *agent, const char *slot)
{
    if (harness_shell("command -v sqlite3 > /dev/null") != 0)
        return -2;
    char command[1024], path[600], out[64] = "";
    snprintf(path, sizeof path, "%s/reported.txt", s_p.dir);
    snprintf(command, sizeof command,
             "sqlite3 %s/scheduler/scheduler.db \"SELECT amount FROM agent_reported"
             " WHERE agent_id = '%s' AND slot = '%s'\" > %s 2>&1",
             s_p.dir, agent, slot, path);
    if (harness_shell(command) != 0)
        return -1;
    FILE *file = fopen(path, "r");
    size_t got = file ? fread(out, 1, sizeof out - 1, file) : 0;
    out[got] = 0;
    if (file)
        fclose(file);
    return *out ? atoll(out) : -1;
}

//  What agent reports for slot once it says want, or what it says after
//  timeout_ms: heartbeats come every bus.heartbeat_ms, so a report trails
//  the ledger by up to one of them. -2 without the sqlite3 shell.
static long long
s_reported_soon(const char *agent, const char *slot, long long want, int timeout_ms)
{
    long long reported = s_reported(agent, slot);
    for (int waited = 0; reported != want && reported != -2 && waited < timeout_ms;
         waited += 100) {
        harness_pause_ms(100);
        reported = s_reported(agent, slot);
    }
    return reported;
}

//  Starts agent i (0: shares, 1: device) on the platform.
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

static void
test_start(void)
{
    const char *sets[] = {"sessions.pass_ms=200", NULL};
    T_ASSERT(client_platform_start_with(&s_p, "accel", false, sets) == 0);
    int pid = (int) (getpid() % 100000);
    snprintf(s_bridges[0], sizeof s_bridges[0], "bpu%d", pid);
    snprintf(s_bridges[1], sizeof s_bridges[1], "bpv%d", pid);
    T_EQ_INT(harness_busybox_images(s_p.dir), 0);
    T_ASSERT(s_agent_up(0));
    T_ASSERT(s_agent_up(1));
    T_ASSERT(s_log_has(0, "plugin=mock index=1 id=mock-1"));
    T_ASSERT(s_log_has(0, "\"agent slots\" cuda.shares=2"));
    T_ASSERT(s_log_has(1, "\"agent slots\" cuda.device=2"));
    //  The gateway resolves images from its catalogue, fed by the agents.
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

//  Four halves fill two devices, two on each; each container sees its one
//  device and half of it as MPS limits; the user's own values are dropped.
static void
test_four_fit(void)
{
    const char *names[] = {"sh-1", "sh-2", "sh-3", "sh-4"};
    int on[2] = {0, 0};
    for (int i = 0; i < 4; i++)
        T_EQ_INT(s_create(names[i], SHARES,
                          i == 0 ? "{\"CUDA_VISIBLE_DEVICES\": \"7\","
                                   " \"BACKPLANE_MOCK_CUDA_VISIBLE_DEVICES\": \"9\"}"
                                 : "",
                          false),
                 201);
    for (int i = 0; i < 4; i++) {
        char env[256];
        T_ASSERT(s_env(names[i], env, sizeof env));
        fprintf(stderr, "# %s: %s\n", names[i], env);
        int device = env[2] - '0';
        T_ASSERT(device == 0 || device == 1);
        char want[128];
        snprintf(want, sizeof want, "V=%d M=%d T=50 L=0=8192M", device, device);
        T_EQ_STR(env, want);
        if (device == 0 || device == 1)
            on[device]++;
    }
    T_EQ_INT(on[0], 2);
    T_EQ_INT(on[1], 2);
}

static void
test_fifth_pends(void)
{
    T_EQ_INT(s_create("sh-5", SHARES, "", true), 201);
    harness_pause_ms(800); //  a few passes
    T_ASSERT(s_wait("sh-5", "PENDING", 100));
    char *text = s_info("sh-5");
    T_CONTAINS(text ? text : "", "no-available-instances");
    free(text);
}

static void
test_ledger_full(void)
{
    T_ASSERT(s_ledger_holds());
    long long reported = s_reported_soon(GS, "cuda.shares", 2000, 3000);
    fprintf(stderr, "# %s reports cuda.shares %lld (thousandths)\n", GS, reported);
    T_ASSERT(reported == 2000 || reported == -2);
    reported = s_reported_soon(GS, "cpu", 4000, 3000);
    T_ASSERT(reported == 4000 || reported == -2);
}

//  The freed half goes to the one waiting, on the device it was on.
static void
test_end_frees(void)
{
    int freed = s_device("sh-1");
    T_ASSERT(freed == 0 || freed == 1);
    s_destroy("sh-1");
    T_ASSERT(s_wait("sh-1", NULL, 20000));
    T_ASSERT(s_wait("sh-5", "RUNNING", 30000));
    T_EQ_INT(s_device("sh-5"), freed);
}

//  Device 0 full, device 1 half free; the agent restarts; its adopted
//  kernels take their halves again, so the new session lands on device 1
//  (an empty allocator would give it device 0), and one more waits.
static void
test_restart_restores(void)
{
    const char *names[] = {"sh-2", "sh-3", "sh-4", "sh-5"};
    const char *gone = NULL;
    for (int i = 0; i < 4 && !gone; i++)
        if (s_device(names[i]) == 1)
            gone = names[i];
    T_ASSERT(gone != NULL);
    if (!gone)
        return;
    s_destroy(gone);
    T_ASSERT(s_wait(gone, NULL, 20000));
    T_EQ_INT(harness_stop(&s_agents[0], 10000), 0);
    T_ASSERT(!harness_log_has_report(&s_agents[0]));
    T_ASSERT(s_agent_up(0));
    T_ASSERT(s_log_has(0, "kernel adopted"));
    T_ASSERT(!s_log_has(0, "not restored"));
    for (int i = 0; i < 4; i++)
        if (names[i] != gone)
            T_ASSERT(s_wait(names[i], "RUNNING", 100));
    T_EQ_INT(s_create("sh-6", SHARES, "", false), 201);
    T_EQ_INT(s_device("sh-6"), 1);
    T_EQ_INT(s_create("sh-7", SHARES, "", true), 201);
    harness_pause_ms(800);
    T_ASSERT(s_wait("sh-7", "PENDING", 100));
    T_ASSERT(s_ledger_holds());
    long long reported = s_reported_soon(GS, "cuda.shares", 2000, 3000);
    T_ASSERT(reported == 2000 || reported == -2);
}

//  Whole devices on the other agent: one each, a third waits for one.
static void
test_whole_devices(void)
{
    T_EQ_INT(s_create("dv-1", DEVICE, "", false), 201);
    T_EQ_INT(s_create("dv-2", DEVICE, "", false), 201);
    char env[256];
    T_ASSERT(s_env("dv-1", env, sizeof env));
    fprintf(stderr, "# dv-1: %s\n", env);
    T_CONTAINS(env, " T= L="); //  a whole device: no MPS limits
    int first = s_device("dv-1"), second = s_device("dv-2");
    T_ASSERT(first >= 0 && second >= 0 && first != second);
    T_EQ_INT(s_create("dv-3", DEVICE, "", true), 201);
    harness_pause_ms(800);
    T_ASSERT(s_wait("dv-3", "PENDING", 100));
    s_destroy("dv-1");
    T_ASSERT(s_wait("dv-3", "RUNNING", 30000));
    T_EQ_INT(s_device("dv-3"), first);
    long long reported = s_reported_soon(GD, "cuda.device", 2000, 3000);
    T_ASSERT(reported == 2000 || reported == -2);
}

//  Everything ends; the shares are all given back and the ledger holds.
static void
test_all_end(void)
{
    const char *names[] = {"sh-2", "sh-3", "sh-4", "sh-5", "sh-6",
                           "sh-7", "dv-1", "dv-2", "dv-3"};
    size_t count = sizeof names / sizeof names[0];
    for (size_t i = 0; i < count; i++)
        s_destroy(names[i]);
    for (size_t i = 0; i < count; i++)
        T_ASSERT(s_wait(names[i], NULL, 20000));
    T_ASSERT(s_ledger_holds());
    long long reported = s_reported_soon(GS, "cuda.shares", 0, 3000);
    T_ASSERT(reported == 0 || reported == -2);
    reported = s_reported_soon(GD, "cuda.device", 0, 3000);
    T_ASSERT(reported == 0 || reported == -2);
}

static void
test_stop(void)
{
    for (int i = 0; i < 2; i++) {
        T_EQ_INT(harness_stop(&s_agents[i], 10000), 0);
        T_ASSERT(!harness_log_has_report(&s_agents[i]));
        char command[128];
        snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridges[i]);
        (void) harness_shell(command);
    }
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
    T_RUN(test_four_fit);
    T_RUN(test_fifth_pends);
    T_RUN(test_ledger_full);
    T_RUN(test_end_frees);
    T_RUN(test_restart_restores);
    T_RUN(test_whole_devices);
    T_RUN(test_all_end);
    T_RUN(test_stop);
    client_platform_end(&s_p, t_failures > 0);
    return T_DONE();
}
