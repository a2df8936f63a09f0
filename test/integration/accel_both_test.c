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

#include "accel_client.h"
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

//  Starts agent i on the platform (a restart keeps its subnet).
static bool
s_agent_up(int i)
{
    return accel_agent_up(&s_p, &s_agents[i], s_names[i], s_bridges[i], &s_cidrs[i],
                          s_mocks[i]);
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
    json_t *r = accel_request(&s_p, "POST", "/session", body, &status);
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
        text = accel_info(&s_p, name);
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
    T_ASSERT(harness_log_has(&s_agents[0], "\"agent slots\" cuda.device=2"));
    T_ASSERT(harness_log_has(&s_agents[0], "\"agent slots\" cuda.shares=2"));
    T_ASSERT(client_image_listed(&s_p, "busybox"));
}

//  One device whole, the other shared: what is left is 0.4 of one device's
//  shares and no whole device; each session asking more waits, and says
//  which slot is short.
static void
test_one_offer_per_gpu(void)
{
    T_EQ_INT(accel_create(&s_p, "bw-1", DEVICE("1"), "", false), 201);
    T_EQ_INT(accel_create(&s_p, "bh-1", SHARES("0.6"), "", false), 201);
    int whole = accel_device(&s_p, "bw-1"), shared = accel_device(&s_p, "bh-1");
    T_ASSERT(whole >= 0 && shared >= 0 && whole != shared);
    T_EQ_INT(accel_create(&s_p, "bh-2", SHARES("0.6"), "", true), 201);
    T_ASSERT(
        s_pending_because("bh-2", "cuda.shares: asked 0.6, free 0.4 on the best agent"));
    T_EQ_INT(accel_create(&s_p, "bw-2", DEVICE("1"), "", true), 201);
    T_ASSERT(s_pending_because("bw-2", "cuda.device: asked 1, free 0 on the best agent"));
    T_ASSERT(accel_ledger_holds(&s_p));
    long long placeable =
        accel_row_soon(&s_p, "agent_placeable", GB, "cuda.shares", 400, 3000);
    T_ASSERT(placeable == 400 || placeable == -2);
    //  check-presets says the same: no GPU whole, 0.4 of a share (the web UI's
    //  "remaining" and its presets read this).
    int status;
    json_t *r = accel_request(&s_p, "POST", "/resource/check-presets", "{}", &status);
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
    T_ASSERT(accel_info(&s_p, "bad-1") == NULL);
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
    T_ASSERT(harness_log_has(&s_agents[0], "kernel adopted"));
    T_ASSERT(!harness_log_has(&s_agents[0], "not restored"));
    T_ASSERT(accel_wait(&s_p, "bw-1", "RUNNING", 100));
    T_ASSERT(accel_wait(&s_p, "bh-1", "RUNNING", 100));
    long long shares =
        accel_row_soon(&s_p, "agent_placeable", GB, "cuda.shares", 400, 5000);
    long long devices =
        accel_row_soon(&s_p, "agent_placeable", GB, "cuda.device", 0, 5000);
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
    int whole = accel_device(&s_p, "bw-1");
    accel_destroy(&s_p, "bw-1");
    T_ASSERT(accel_wait(&s_p, "bw-1", NULL, 20000));
    T_ASSERT(accel_wait(&s_p, "bh-2", "RUNNING", 30000));
    T_EQ_INT(accel_device(&s_p, "bh-2"), whole);
    T_ASSERT(s_pending_because("bw-2", "cuda.device: asked 1, free 0"));
    accel_destroy(&s_p, "bw-2");
    T_ASSERT(accel_wait(&s_p, "bw-2", NULL, 20000));
}

//  Two devices with 0.6 each in use hold 0.8 of shares in total but no 0.5
//  on one device. Three at once: whether the agent refused the third (the
//  scheduler's figures trailed) or its heartbeat held it back, it waits,
//  never cancelled, and runs once a device has room.
static void
test_fragmented_burst(void)
{
    accel_destroy(&s_p, "bh-1");
    accel_destroy(&s_p, "bh-2");
    T_ASSERT(accel_wait(&s_p, "bh-1", NULL, 20000));
    T_ASSERT(accel_wait(&s_p, "bh-2", NULL, 20000));
    long long placeable =
        accel_row_soon(&s_p, "agent_placeable", GB, "cuda.device", 2000, 5000);
    T_ASSERT(placeable == 2000 || placeable == -2);
    T_EQ_INT(accel_create(&s_p, "fr-1", SHARES("0.6"), "", true), 201);
    T_EQ_INT(accel_create(&s_p, "fr-2", SHARES("0.6"), "", true), 201);
    T_EQ_INT(accel_create(&s_p, "fr-3", SHARES("0.5"), "", true), 201);
    T_ASSERT(accel_wait(&s_p, "fr-1", "RUNNING", 30000));
    T_ASSERT(accel_wait(&s_p, "fr-2", "RUNNING", 30000));
    T_ASSERT(s_pending_because("fr-3", "cuda.shares"));
    fprintf(stderr, "# the agent %s the third\n",
            harness_log_has(&s_agents[0], "does not fit") ? "refused" : "was never sent");
    char *text = accel_info(&s_p, "fr-3");
    T_ASSERT(text && !strstr(text, "CANCELLED"));
    free(text);
    accel_destroy(&s_p, "fr-1");
    T_ASSERT(accel_wait(&s_p, "fr-1", NULL, 20000));
    T_ASSERT(accel_wait(&s_p, "fr-3", "RUNNING", 30000));
}

static void
test_all_end(void)
{
    const char *names[] = {"fr-2", "fr-3"};
    for (size_t i = 0; i < 2; i++)
        accel_destroy(&s_p, names[i]);
    for (size_t i = 0; i < 2; i++)
        T_ASSERT(accel_wait(&s_p, names[i], NULL, 20000));
    T_ASSERT(accel_ledger_holds(&s_p));
    long long reported =
        accel_row_soon(&s_p, "agent_reported", GB, "cuda.shares", 0, 3000);
    T_ASSERT(reported == 0 || reported == -2);
    reported = accel_row_soon(&s_p, "agent_placeable", GB, "cuda.shares", 2000, 3000);
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
