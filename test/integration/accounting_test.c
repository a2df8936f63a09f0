/*  =========================================================================
    accounting_test - usage records end to end: the real scheduler, an agent
    running busybox containers and the accounting service. Two batch
    sessions with known slots run for a known time, one burning a CPU, one
    idle; accounting is killed (-9) while they run and started again: the
    usage it answers then holds each kernel once, what was held (slots x
    time) within one stats interval of the wall time, the burner's CPU
    seconds near its wall time, the same totals after another restart, and
    the user's 15-minute bins add up to the totals. Needs root, runc, umoci
    and tini; skips otherwise.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bus.h"
#include "harness.h"
#include "t.h"

#define CALL_MS  30000
#define END_MS   90000
#define IMAGE    "local.backplane/library/busybox:latest"
#define RUN_S    8
#define STATS_MS 500
#define US       1000000.0

static char *s_dir;
static harness_proc_t s_scheduler, s_agent, s_acct;
static harness_endpoints_t s_ends;
static char s_bridge[16], s_acct_rpc[160];
static bus_rpc_client_t *s_client, *s_acct_client;
static int64_t s_from;

static int
s_call(bus_rpc_client_t *client,
       const char *method,
       bus_writer_t *writer,
       zchunk_t **reply,
       bus_error_t *err)
{
    int rc = bus_rpc_client_call_sync(client, method, bus_writer_data(writer),
                                      bus_writer_size(writer), CALL_MS, reply, err);
    bus_writer_destroy(&writer);
    return rc;
}

static int
s_create(const char *id, const char *command)
{
    char kernel[72];
    snprintf(kernel, sizeof kernel, "k-%s", id);
    proto_kv_t slots[] = {{"cpu", "1"}, {"mem", "268435456"}};
    proto_session_create_req_t in;
    proto_session_create_req_init(&in);
    in.session_id = id;
    in.kernel_id = kernel;
    in.name = id;
    in.access_key = "AKACCT";
    in.user_uuid = "user-acct";
    in.domain_name = "default";
    in.group_id = "group-acct";
    in.scaling_group = "default";
    in.image = IMAGE;
    in.slots = slots;
    in.slots_count = 2;
    in.type = "BATCH";
    in.startup_command = command;
    bus_writer_t *writer = bus_writer_new();
    proto_session_create_req_write(&in, writer);
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    int rc = s_call(s_client, "session.create", writer, &reply, &err);
    if (rc != BUS_OK)
        fprintf(stderr, "# session.create: %s\n", err.detail);
    zchunk_destroy(&reply);
    return rc;
}

static int
s_acct_start(void)
{
    char state[512], line[HARNESS_LINE_MAX], pub[200], sub[200], reg[200];
    snprintf(state, sizeof state, "node.state_dir=%s/accounting", s_dir);
    snprintf(pub, sizeof pub, "bus.hub.publish=%s", s_ends.hub_publish);
    snprintf(sub, sizeof sub, "bus.hub.subscribe=%s", s_ends.hub_subscribe);
    snprintf(reg, sizeof reg, "bus.hub.registry=%s", s_ends.registry);
    const char *args[] = {"--set", state,
                          "--set", pub,
                          "--set", sub,
                          "--set", reg,
                          "--set", "bus.heartbeat_ms=100",
                          "--set", "bus.sync_ms=200",
                          "--set", "accounting.flush_ms=100",
                          "--set", "accounting.compact_s=1",
                          NULL};
    if (harness_start(&s_acct, s_dir, "accounting", "accounting", args) != 0 ||
        !harness_wait_line(&s_acct, "ready ", HARNESS_READY_MS, line, sizeof line) ||
        !harness_field(line, "rpc", s_acct_rpc, sizeof s_acct_rpc))
        return -1;
    bus_rpc_client_destroy(&s_acct_client);
    s_acct_client = bus_rpc_client_new(s_acct_rpc, "test/accounting", NULL);
    return s_acct_client ? 0 : -1;
}

//  accounting.usage by session for user-acct since the test began.
static int
s_usage(const char *by, proto_accounting_usage_rep_t *out)
{
    proto_accounting_usage_req_t in;
    proto_accounting_usage_req_init(&in);
    const char *groups[] = {"group-acct"};
    in.group_ids = groups;
    in.group_ids_count = 1;
    in.from = s_from;
    in.to = bus_clock_wall_us() + 3600LL * 1000000;
    in.group_by = by;
    bus_writer_t *writer = bus_writer_new();
    proto_accounting_usage_req_write(&in, writer);
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    int rc = s_call(s_acct_client, "accounting.usage", writer, &reply, &err);
    if (rc == BUS_OK)
        rc = proto_accounting_usage_rep_decode(out, zchunk_data(reply),
                                               zchunk_size(reply), &err);
    else
        fprintf(stderr, "# accounting.usage: %s\n", err.detail);
    zchunk_destroy(&reply);
    return rc;
}

static void
test_start(void)
{
    s_dir = harness_tmpdir("accounting");
    T_ASSERT(s_dir);
    snprintf(s_bridge, sizeof s_bridge, "bpa%d", (int) (getpid() % 100000));
    T_EQ_INT(harness_busybox_images(s_dir), 0);
    const char *sched_extra[] = {"sessions.pass_ms=100", NULL};
    T_EQ_INT(harness_scheduler_start(&s_scheduler, s_dir, "scheduler", NULL, sched_extra,
                                     &s_ends),
             0);
    s_client = bus_rpc_client_new(s_ends.rpc, "test/accounting", NULL);
    T_ASSERT(s_client);
    char bridge[64], stats[64];
    snprintf(bridge, sizeof bridge, "agent.network.bridge=%s", s_bridge);
    snprintf(stats, sizeof stats, "agent.stats_ms=%d", STATS_MS);
    const char *extra[] = {"agent.slots.cpu=2",
                           "agent.slots.mem=2g",
                           bridge,
                           "agent.network.cidr=10.219.0.0/24",
                           stats,
                           NULL};
    harness_bus_t bus = harness_endpoints_bus(&s_ends);
    T_ASSERT(harness_agent_start(&s_agent, s_dir, "agent-a", &bus, extra, NULL, 0) == 0);
    T_EQ_INT(s_acct_start(), 0);
}

static void
test_usage_survives_kill(void)
{
    s_from = bus_clock_wall_us();
    char burner[128], idle[64];
    snprintf(burner, sizeof burner, "timeout %d sh -c 'while :; do :; done'; exit 0",
             RUN_S);
    snprintf(idle, sizeof idle, "sleep %d", RUN_S);
    //  Ids of this run: a kernel's network namespace is named after it.
    char burn_id[32], idle_id[32];
    snprintf(burn_id, sizeof burn_id, "s-burn-%d", (int) getpid());
    snprintf(idle_id, sizeof idle_id, "s-idle-%d", (int) getpid());
    T_EQ_INT(s_create(burn_id, burner), BUS_OK);
    T_EQ_INT(s_create(idle_id, idle), BUS_OK);
    harness_pause_ms(RUN_S * 1000 / 3);
    harness_kill(&s_acct); //  kill -9 while they run
    harness_pause_ms(500);
    T_EQ_INT(s_acct_start(), 0);
    //  Until both kernels ended (accounting catches up from the outboxes).
    proto_accounting_usage_rep_t rep;
    int64_t deadline = bus_clock_mono_ms() + END_MS;
    bool ended = false;
    while (!ended && bus_clock_mono_ms() < deadline) {
        harness_pause_ms(300);
        if (s_usage("session", &rep) != BUS_OK)
            continue;
        ended = rep.groups_count == 2;
        for (size_t i = 0; ended && i < rep.groups_count; i++)
            ended = rep.groups[i].kernels_count == 1 && rep.groups[i].kernels[0].ended_at;
        if (!ended)
            proto_accounting_usage_rep_clear(&rep);
    }
    T_ASSERT(ended);
    //  Sorted by session: s-burn, s-idle; each kernel once.
    const proto_accounting_group_t *burn = &rep.groups[0], *idle_g = &rep.groups[1];
    T_EQ_STR(burn->session_id, burn_id);
    T_EQ_STR(idle_g->session_id, idle_id);
    for (int i = 0; i < 2; i++) {
        const proto_accounting_group_t *g = &rep.groups[i];
        const proto_accounting_kernel_t *k = &g->kernels[0];
        double wall = (double) (k->ended_at - k->started_at) / US;
        fprintf(stderr,
                "# %s held=%.3f s cpu_held=%.3f cpu_used=%.3f wall=%.3f image=%s\n",
                g->session_id, g->usage.held_s, g->usage.cpu_held_s, g->usage.cpu_used_s,
                wall, k->image);
        T_EQ_INT(g->kernel_count, 1);
        T_EQ_STR(k->user_uuid, "user-acct");
        T_EQ_STR(k->access_key, "AKACCT");
        T_EQ_STR(k->scaling_group, "default");
        T_EQ_STR(k->agent_id, "agent-a");
        T_EQ_STR(k->image, IMAGE);
        T_EQ_INT(k->slots_count, 2);
        //  Held: the slots x the time it ran, which is the command's time
        //  within a stats interval (plus the runner's start and stop).
        T_ASSERT(fabs(g->usage.cpu_held_s - 1.0 * g->usage.held_s) < 1e-6);
        T_ASSERT(fabs(g->usage.mem_held_byte_s - 268435456.0 * g->usage.held_s) < 1);
        T_ASSERT(g->usage.held_s > RUN_S - STATS_MS / 1000.0);
        T_ASSERT(g->usage.held_s < RUN_S + 5);
    }
    //  The burner used about its wall time of one CPU (a loaded machine
    //  gives it less), the idle one nearly nothing.
    T_ASSERT(burn->usage.cpu_used_s > 0.4 * RUN_S);
    T_ASSERT(burn->usage.cpu_used_s < burn->usage.held_s + STATS_MS / 1000.0);
    T_ASSERT(idle_g->usage.cpu_used_s < 0.5);
    double held = burn->usage.cpu_held_s + idle_g->usage.cpu_held_s;
    double used = burn->usage.cpu_used_s + idle_g->usage.cpu_used_s;
    proto_accounting_usage_rep_clear(&rep);

    //  A clean restart: the same totals.
    T_EQ_INT(harness_stop(&s_acct, 10000), 0);
    T_EQ_INT(s_acct_start(), 0);
    T_EQ_INT(s_usage("project", &rep), BUS_OK);
    T_EQ_INT(rep.groups_count, 1);
    T_EQ_INT(rep.groups[0].kernel_count, 2);
    T_ASSERT(fabs(rep.groups[0].usage.cpu_held_s - held) < 1e-6);
    T_ASSERT(fabs(rep.groups[0].usage.cpu_used_s - used) < 1e-6);
    proto_accounting_usage_rep_clear(&rep);

    //  The user's 15-minute bins add up to the totals.
    proto_accounting_stats_user_req_t in;
    proto_accounting_stats_user_req_init(&in);
    in.user_uuid = "user-acct";
    bus_writer_t *writer = bus_writer_new();
    proto_accounting_stats_user_req_write(&in, writer);
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    T_EQ_INT(s_call(s_acct_client, "accounting.stats_user", writer, &reply, &err),
             BUS_OK);
    proto_accounting_stats_user_rep_t bins;
    T_EQ_INT(proto_accounting_stats_user_rep_decode(&bins, zchunk_data(reply),
                                                    zchunk_size(reply), &err),
             BUS_OK);
    zchunk_destroy(&reply);
    T_EQ_INT(bins.bins_count, 2880);
    double bin_held = 0, bin_used = 0;
    for (size_t i = 0; i < bins.bins_count; i++) {
        bin_held += bins.bins[i].cpu_held_s;
        bin_used += bins.bins[i].cpu_used_s;
    }
    proto_accounting_stats_user_rep_clear(&bins);
    T_ASSERT(fabs(bin_held - held) < 1e-6);
    T_ASSERT(fabs(bin_used - used) < 1e-6);
    //  Bad input is refused with a reason.
    proto_accounting_usage_req_t bad;
    proto_accounting_usage_req_init(&bad);
    bad.from = 10;
    bad.to = 5;
    writer = bus_writer_new();
    proto_accounting_usage_req_write(&bad, writer);
    proto_accounting_usage_req_clear(&bad);
    T_EQ_INT(s_call(s_acct_client, "accounting.usage", writer, &reply, &err),
             BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "after its start");
    zchunk_destroy(&reply);
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
    T_RUN(test_usage_survives_kill);
    bus_rpc_client_destroy(&s_client);
    bus_rpc_client_destroy(&s_acct_client);
    bool acct_clean =
        harness_stop(&s_acct, 10000) == 0 && !harness_log_has_report(&s_acct);
    bool clean =
        harness_teardown(&s_scheduler, &s_agent, s_bridge, s_dir, t_failures > 0);
    return clean && acct_clean ? T_DONE() : 1;
}
