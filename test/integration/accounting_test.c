/*  =========================================================================
    accounting_test - usage records end to end: the real scheduler, an agent
    running busybox containers and the accounting service. Two batch
    sessions with known slots run for a known time, one burning a CPU, one
    idle holding one of the mock accelerator's GPUs (device-seconds held); accounting is
   killed (-9) while they run and started again: the usage it answers then holds each
   kernel once, what was held (slots x time) within one stats interval of the wall time,
   the burner's CPU seconds near its wall time, the same totals after another restart, and
    the user's 15-minute bins add up to the totals. A third session writes
    IO_MIB MiB to its (host-disk) scratch with O_DIRECT and moves bytes to and
    from a server of the test on the bridge's address: its record holds at
    least those bytes and less than twice them (no double counting across
    the kill), the same after a restart, and its last_stat says so in
    Backend.AI's metric object. Needs root, runc, umoci and tini; skips
    otherwise.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <jansson.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
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
#define MIB      1048576.0
#define IO_MIB   20 //  the io session writes this much with fsync
#define UP_MIB   4  //  it sends this much to the test's server
#define DOWN_MIB 2  //  and receives this much from it
#define SERVE_MS 60000

static char *s_dir;
static harness_proc_t s_scheduler, s_agent, s_acct;
static harness_endpoints_t s_ends;
static char s_bridge[16], s_acct_rpc[160];
static const char *s_cidr; //  the agent's kernels' subnet
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
s_create(const char *id, const char *command, bool gpu)
{
    char kernel[72];
    snprintf(kernel, sizeof kernel, "k-%s", id);
    proto_kv_t slots[] = {{"cpu", "1"}, {"mem", "268435456"}, {"cuda.device", "1"}};
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
    in.slots_count = gpu ? 3 : 2;
    in.type = "BATCH";
    in.startup_command = command;
    bus_writer_t *writer = bus_writer_new();
    if (proto_session_create_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    int rc = s_call(s_client, "session.create", writer, &reply, &err);
    if (rc != BUS_OK)
        fprintf(stderr, "# session.create: %s\n", err.detail);
    zchunk_destroy(&reply);
    return rc;
}

//  A server on every address of the host (the kernels reach it on the
//  bridge's): for one connection it sends DOWN_MIB MiB and reads UP_MIB
//  MiB, both at once (poll), then closes. Runs in a child process; its exit
//  status is 0 when both went through. Returns its pid, and its port.
static pid_t
s_serve(int *port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = INADDR_ANY};
    socklen_t len = sizeof addr;
    if (fd < 0 || bind(fd, (struct sockaddr *) &addr, sizeof addr) != 0 ||
        listen(fd, 1) != 0 || getsockname(fd, (struct sockaddr *) &addr, &len) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    *port = ntohs(addr.sin_port);
    pid_t pid = fork();
    if (pid != 0) {
        close(fd);
        return pid;
    }
    alarm(SERVE_MS / 1000);
    int conn = accept(fd, NULL, NULL);
    static char buffer[65536];
    size_t sent = 0, received = 0, down = DOWN_MIB << 20, up = UP_MIB << 20;
    while (conn >= 0 && (sent < down || received < up)) {
        struct pollfd p = {conn, (short) ((sent < down ? POLLOUT : 0) | POLLIN), 0};
        if (poll(&p, 1, SERVE_MS) <= 0)
            break;
        if (p.revents & POLLIN) {
            ssize_t n = read(conn, buffer, sizeof buffer);
            if (n <= 0)
                break;
            received += (size_t) n;
        }
        if (sent < down && (p.revents & POLLOUT)) {
            size_t want = down - sent < sizeof buffer ? down - sent : sizeof buffer;
            ssize_t n = write(conn, buffer, want);
            if (n <= 0)
                break;
            sent += (size_t) n;
        }
    }
    _exit(sent >= down && received >= up ? 0 : 1);
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
    if (proto_accounting_usage_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
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
    char bridge[64], stats[64], cidr[64];
    snprintf(bridge, sizeof bridge, "agent.network.bridge=%s", s_bridge);
    snprintf(stats, sizeof stats, "agent.stats_ms=%d", STATS_MS);
    s_cidr = harness_subnet();
    T_ASSERT(s_cidr);
    snprintf(cidr, sizeof cidr, "agent.network.cidr=%s", s_cidr ? s_cidr : "");
    const char *extra[] = {"agent.slots.cpu=2", "agent.slots.mem=2g", bridge, cidr,
                           "agent.scratch_type=hostdir", //  its writes reach a disk
                           //  two fake GPUs, whole devices (the idle session holds one)
                           "accelerators.mock=devices=2,memory=8g,mode=device", stats,
                           NULL};
    harness_bus_t bus = harness_endpoints_bus(&s_ends);
    T_ASSERT(harness_agent_start(&s_agent, s_dir, "agent-a", &bus, extra, NULL, 0) == 0);
    T_EQ_INT(s_acct_start(), 0);
}

//  The number of metric key's field of a last_stat text ("current",
//  "stats.rate"), a decimal string; -1 when absent.
static double
s_stat_field(const char *stat, const char *key, const char *field, const char **unit)
{
    json_t *root = json_loads(stat, 0, NULL);
    json_t *metric = json_object_get(root, key);
    const char *text = json_string_value(json_object_get(metric, field));
    double value = text ? strtod(text, NULL) : -1;
    static char unit_hint[16];
    snprintf(unit_hint, sizeof unit_hint, "%s",
             json_string_value(json_object_get(metric, "unit_hint"))
                 ? json_string_value(json_object_get(metric, "unit_hint"))
                 : "");
    *unit = unit_hint;
    json_decref(root);
    return value;
}

//  accounting.live of one kernel: its stat text into stat (empty: none).
static int
s_live(const char *kernel_id, bool *live, char *stat, size_t size)
{
    proto_accounting_live_req_t in;
    proto_accounting_live_req_init(&in);
    const char *ids[] = {kernel_id};
    in.kernel_ids = ids;
    in.kernel_ids_count = 1;
    bus_writer_t *writer = bus_writer_new();
    if (proto_accounting_live_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    int rc = s_call(s_acct_client, "accounting.live", writer, &reply, &err);
    proto_accounting_live_rep_t rep;
    if (rc == BUS_OK &&
        (rc = proto_accounting_live_rep_decode(&rep, zchunk_data(reply),
                                               zchunk_size(reply), &err)) == BUS_OK) {
        rc = rep.kernels_count == 1 && rep.kernels[0].found ? BUS_OK
                                                            : BUS_STATUS_NOT_FOUND;
        if (rc == BUS_OK) {
            *live = rep.kernels[0].live;
            snprintf(stat, size, "%s", rep.kernels[0].stat ? rep.kernels[0].stat : "");
        }
        proto_accounting_live_rep_clear(&rep);
    }
    zchunk_destroy(&reply);
    return rc;
}

static void
test_usage_survives_kill(void)
{
    s_from = bus_clock_wall_us();
    int port = 0;
    pid_t server = s_serve(&port);
    T_ASSERT(server > 0);
    char burner[128], idle[64], io[512];
    snprintf(burner, sizeof burner, "timeout %d sh -c 'while :; do :; done'; exit 0",
             RUN_S);
    snprintf(idle, sizeof idle, "sleep %d", RUN_S);
    //  Writes past the page cache (O_DIRECT: cgroup v1 charges a write to
    //  the task that submits it, and on a busy machine the kernel's flusher
    //  threads wrote 15 of the 20 MiB once, before dd's fsync could), then
    //  sends and receives through its eth0 (to the bridge's address, the
    //  subnet's first), then stays a while.
    char gateway[32];
    harness_subnet_host(s_cidr, 1, gateway, sizeof gateway);
    snprintf(
        io, sizeof io,
        "dd if=/dev/zero of=/home/work/io.bin bs=1M count=%d oflag=direct conv=fsync && "
        "dd if=/dev/zero bs=65536 count=%d | nc %s %d >/dev/null; sleep %d",
        IO_MIB, UP_MIB * 16, gateway, port, RUN_S / 2);
    //  Ids of this run: a kernel's network namespace is named after it.
    char burn_id[32], idle_id[32], io_id[32], io_kernel[40];
    snprintf(burn_id, sizeof burn_id, "s-burn-%d", (int) getpid());
    snprintf(idle_id, sizeof idle_id, "s-idle-%d", (int) getpid());
    snprintf(io_id, sizeof io_id, "s-io-%d", (int) getpid());
    snprintf(io_kernel, sizeof io_kernel, "k-%s", io_id);
    T_EQ_INT(s_create(burn_id, burner, false), BUS_OK);
    T_EQ_INT(s_create(idle_id, idle, true), BUS_OK); //  one of the mock's GPUs
    T_EQ_INT(s_create(io_id, io, false), BUS_OK);
    harness_pause_ms(RUN_S * 1000 / 3);
    harness_kill(&s_acct); //  kill -9 while they run
    harness_pause_ms(500);
    T_EQ_INT(s_acct_start(), 0);
    //  Until the kernels ended (accounting catches up from the outboxes).
    proto_accounting_usage_rep_t rep;
    int64_t deadline = bus_clock_mono_ms() + END_MS;
    bool ended = false;
    while (!ended && bus_clock_mono_ms() < deadline) {
        harness_pause_ms(300);
        if (s_usage("session", &rep) != BUS_OK)
            continue;
        ended = rep.groups_count == 3;
        for (size_t i = 0; ended && i < rep.groups_count; i++)
            ended = rep.groups[i].kernels_count == 1 && rep.groups[i].kernels[0].ended_at;
        if (!ended)
            proto_accounting_usage_rep_clear(&rep);
    }
    T_ASSERT(ended);
    //  The server saw the whole exchange.
    int status = -1;
    T_EQ_INT(waitpid(server, &status, 0), server);
    T_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    //  Sorted by session: s-burn, s-idle, s-io; each kernel once.
    const proto_accounting_group_t *burn = &rep.groups[0], *idle_g = &rep.groups[1],
                                   *io_g = &rep.groups[2];
    T_EQ_STR(burn->session_id, burn_id);
    T_EQ_STR(idle_g->session_id, idle_id);
    T_EQ_STR(io_g->session_id, io_id);
    for (int i = 0; i < 3; i++) {
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
        T_EQ_INT(k->slots_count, g == idle_g ? 3 : 2);
        //  A GPU held is device-seconds: the idle one held one the whole time.
        double gpu_s = g == idle_g ? g->usage.held_s : 0.0;
        T_ASSERT(fabs(g->usage.accel_device_s - gpu_s) < 1e-6);
        //  Held: the slots x the time it ran, which is the command's time
        //  within a stats interval (plus the runner's start and stop).
        T_ASSERT(fabs(g->usage.cpu_held_s - 1.0 * g->usage.held_s) < 1e-6);
        T_ASSERT(fabs(g->usage.mem_held_byte_s - 268435456.0 * g->usage.held_s) < 1);
        if (g != io_g) {
            T_ASSERT(g->usage.held_s > RUN_S - STATS_MS / 1000.0);
            T_ASSERT(g->usage.held_s < RUN_S + 5);
        }
    }
    //  Its writes and its exchange, each counted once: at least what it
    //  moved (the network's counters include the headers), less than twice.
    const proto_accounting_figures_t *u = &io_g->usage;
    fprintf(stderr,
            "# %s io_read=%" PRIu64 " io_write=%" PRIu64 " net_rx=%" PRIu64
            " net_tx=%" PRIu64 "\n",
            io_g->session_id, u->io_read_bytes, u->io_write_bytes, u->net_rx_bytes,
            u->net_tx_bytes);
    T_ASSERT(u->io_write_bytes >= IO_MIB * MIB);
    T_ASSERT(u->io_write_bytes < 2 * IO_MIB * MIB);
    T_ASSERT(u->net_tx_bytes > UP_MIB * MIB);
    T_ASSERT(u->net_tx_bytes < 2 * UP_MIB * MIB);
    T_ASSERT(u->net_rx_bytes > DOWN_MIB * MIB);
    T_ASSERT(u->net_rx_bytes < 2 * DOWN_MIB * MIB);
    //  The others moved next to nothing.
    T_ASSERT(burn->usage.io_write_bytes < MIB && idle_g->usage.io_write_bytes < MIB);
    T_ASSERT(burn->usage.net_tx_bytes < MIB && idle_g->usage.net_rx_bytes < MIB);
    uint64_t io_write = u->io_write_bytes, io_read = u->io_read_bytes;
    //  Its last_stat: Backend.AI's metric objects, the final figures.
    char stat[8192];
    bool live = true;
    const char *unit = "";
    T_EQ_INT(s_live(io_kernel, &live, stat, sizeof stat), BUS_OK);
    fprintf(stderr, "# last_stat %s\n", stat);
    T_ASSERT(!live);
    T_ASSERT(fabs(s_stat_field(stat, "io_write", "current", &unit) - (double) io_write) <
             1);
    T_EQ_STR(unit, "bytes");
    T_ASSERT(s_stat_field(stat, "io_write", "stats.rate", &unit) >= 0);
    T_ASSERT(fabs(s_stat_field(stat, "io_read", "current", &unit) - (double) io_read) <
             1);
    T_ASSERT(s_stat_field(stat, "net_tx", "current", &unit) >= 0);
    T_EQ_STR(unit, "bps");
    T_ASSERT(s_stat_field(stat, "net_rx", "current", &unit) >= 0);
    T_EQ_STR(unit, "bps");
    //  The burner used up to its wall time of one CPU, the idle one nearly
    //  nothing. How much less than the wall time depends on what else the
    //  machine runs (the suite runs two tests at once on two cores, under
    //  ASan): the bound only tells "burned" from "idle", ten times over.
    T_ASSERT(burn->usage.cpu_used_s > 0.2 * RUN_S);
    T_ASSERT(burn->usage.cpu_used_s < burn->usage.held_s + STATS_MS / 1000.0);
    T_ASSERT(idle_g->usage.cpu_used_s < 0.5);
    double held = burn->usage.cpu_held_s + idle_g->usage.cpu_held_s + u->cpu_held_s;
    double used = burn->usage.cpu_used_s + idle_g->usage.cpu_used_s + u->cpu_used_s;
    uint64_t io_write_all = 0, net_rx_all = 0, net_tx_all = 0;
    for (int i = 0; i < 3; i++) {
        io_write_all += rep.groups[i].usage.io_write_bytes;
        net_rx_all += rep.groups[i].usage.net_rx_bytes;
        net_tx_all += rep.groups[i].usage.net_tx_bytes;
    }
    proto_accounting_usage_rep_clear(&rep);

    //  A clean restart: the same totals.
    T_EQ_INT(harness_stop(&s_acct, 10000), 0);
    T_EQ_INT(s_acct_start(), 0);
    T_EQ_INT(s_usage("project", &rep), BUS_OK);
    T_EQ_INT(rep.groups_count, 1);
    T_EQ_INT(rep.groups[0].kernel_count, 3);
    T_ASSERT(fabs(rep.groups[0].usage.cpu_held_s - held) < 1e-6);
    T_ASSERT(fabs(rep.groups[0].usage.cpu_used_s - used) < 1e-6);
    //  The project's bytes are the three kernels', as before the restart.
    T_EQ_INT(rep.groups[0].usage.io_write_bytes, io_write_all);
    T_EQ_INT(rep.groups[0].usage.net_rx_bytes, net_rx_all);
    T_EQ_INT(rep.groups[0].usage.net_tx_bytes, net_tx_all);
    proto_accounting_usage_rep_clear(&rep);

    //  The user's 15-minute bins add up to the totals.
    proto_accounting_stats_user_req_t in;
    proto_accounting_stats_user_req_init(&in);
    in.user_uuid = "user-acct";
    bus_writer_t *writer = bus_writer_new();
    T_EQ_INT(proto_accounting_stats_user_req_write(&in, writer), 0);
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
    T_EQ_INT(proto_accounting_usage_req_write(&bad, writer), 0);
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
