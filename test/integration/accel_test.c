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

#include "accel_client.h"
#include "t.h"

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

//  Starts agent i on the platform (a restart keeps its subnet).
static bool
s_agent_up(int i)
{
    return accel_agent_up(&s_p, &s_agents[i], s_names[i], s_bridges[i], &s_cidrs[i],
                          s_mocks[i]);
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
    T_ASSERT(harness_log_has(&s_agents[0], "plugin=mock index=1 id=mock-1"));
    T_ASSERT(harness_log_has(&s_agents[0], "\"agent slots\" cuda.shares=2"));
    T_ASSERT(harness_log_has(&s_agents[1], "\"agent slots\" cuda.device=2"));
    //  The gateway resolves images from its catalogue, fed by the agents.
    T_ASSERT(client_image_listed(&s_p, "busybox"));
}

//  Four halves fill two devices, two on each; each container sees its one
//  device and half of it as MPS limits; the user's own values are dropped.
static void
test_four_fit(void)
{
    const char *names[] = {"sh-1", "sh-2", "sh-3", "sh-4"};
    int on[2] = {0, 0};
    for (int i = 0; i < 4; i++)
        T_EQ_INT(accel_create(&s_p, names[i], SHARES,
                              i == 0 ? "{\"CUDA_VISIBLE_DEVICES\": \"7\","
                                       " \"BACKPLANE_MOCK_CUDA_VISIBLE_DEVICES\": \"9\"}"
                                     : "",
                              false),
                 201);
    for (int i = 0; i < 4; i++) {
        char env[256];
        T_ASSERT(accel_env(&s_p, names[i], env, sizeof env));
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
    T_EQ_INT(accel_create(&s_p, "sh-5", SHARES, "", true), 201);
    harness_pause_ms(800); //  a few passes
    T_ASSERT(accel_wait(&s_p, "sh-5", "PENDING", 100));
    char *text = accel_info(&s_p, "sh-5");
    T_CONTAINS(text ? text : "", "no-available-instances");
    free(text);
}

static void
test_ledger_full(void)
{
    T_ASSERT(accel_ledger_holds(&s_p));
    long long reported =
        accel_row_soon(&s_p, "agent_reported", GS, "cuda.shares", 2000, 3000);
    fprintf(stderr, "# %s reports cuda.shares %lld (thousandths)\n", GS, reported);
    T_ASSERT(reported == 2000 || reported == -2);
    reported = accel_row_soon(&s_p, "agent_reported", GS, "cpu", 4000, 3000);
    T_ASSERT(reported == 4000 || reported == -2);
}

//  The freed half goes to the one waiting, on the device it was on.
static void
test_end_frees(void)
{
    int freed = accel_device(&s_p, "sh-1");
    T_ASSERT(freed == 0 || freed == 1);
    accel_destroy(&s_p, "sh-1");
    T_ASSERT(accel_wait(&s_p, "sh-1", NULL, 20000));
    T_ASSERT(accel_wait(&s_p, "sh-5", "RUNNING", 30000));
    T_EQ_INT(accel_device(&s_p, "sh-5"), freed);
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
        if (accel_device(&s_p, names[i]) == 1)
            gone = names[i];
    T_ASSERT(gone != NULL);
    if (!gone)
        return;
    accel_destroy(&s_p, gone);
    T_ASSERT(accel_wait(&s_p, gone, NULL, 20000));
    T_EQ_INT(harness_stop(&s_agents[0], 10000), 0);
    T_ASSERT(!harness_log_has_report(&s_agents[0]));
    T_ASSERT(s_agent_up(0));
    T_ASSERT(harness_log_has(&s_agents[0], "kernel adopted"));
    T_ASSERT(!harness_log_has(&s_agents[0], "not restored"));
    for (int i = 0; i < 4; i++)
        if (names[i] != gone)
            T_ASSERT(accel_wait(&s_p, names[i], "RUNNING", 100));
    T_EQ_INT(accel_create(&s_p, "sh-6", SHARES, "", false), 201);
    T_EQ_INT(accel_device(&s_p, "sh-6"), 1);
    T_EQ_INT(accel_create(&s_p, "sh-7", SHARES, "", true), 201);
    harness_pause_ms(800);
    T_ASSERT(accel_wait(&s_p, "sh-7", "PENDING", 100));
    T_ASSERT(accel_ledger_holds(&s_p));
    long long reported =
        accel_row_soon(&s_p, "agent_reported", GS, "cuda.shares", 2000, 3000);
    T_ASSERT(reported == 2000 || reported == -2);
}

//  Whole devices on the other agent: one each, a third waits for one.
static void
test_whole_devices(void)
{
    T_EQ_INT(accel_create(&s_p, "dv-1", DEVICE, "", false), 201);
    T_EQ_INT(accel_create(&s_p, "dv-2", DEVICE, "", false), 201);
    char env[256];
    T_ASSERT(accel_env(&s_p, "dv-1", env, sizeof env));
    fprintf(stderr, "# dv-1: %s\n", env);
    T_CONTAINS(env, " T= L="); //  a whole device: no MPS limits
    int first = accel_device(&s_p, "dv-1"), second = accel_device(&s_p, "dv-2");
    T_ASSERT(first >= 0 && second >= 0 && first != second);
    T_EQ_INT(accel_create(&s_p, "dv-3", DEVICE, "", true), 201);
    harness_pause_ms(800);
    T_ASSERT(accel_wait(&s_p, "dv-3", "PENDING", 100));
    accel_destroy(&s_p, "dv-1");
    T_ASSERT(accel_wait(&s_p, "dv-3", "RUNNING", 30000));
    T_EQ_INT(accel_device(&s_p, "dv-3"), first);
    long long reported =
        accel_row_soon(&s_p, "agent_reported", GD, "cuda.device", 2000, 3000);
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
        accel_destroy(&s_p, names[i]);
    for (size_t i = 0; i < count; i++)
        T_ASSERT(accel_wait(&s_p, names[i], NULL, 20000));
    T_ASSERT(accel_ledger_holds(&s_p));
    long long reported =
        accel_row_soon(&s_p, "agent_reported", GS, "cuda.shares", 0, 3000);
    T_ASSERT(reported == 0 || reported == -2);
    reported = accel_row_soon(&s_p, "agent_reported", GD, "cuda.device", 0, 3000);
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
