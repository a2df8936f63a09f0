/*  =========================================================================
    scheduler_faults_test - the scheduler killed (SIGKILL) during a burst of
    session creates and restarted on the same state and bus ports, with a
    real agent running containers. Within a time bound every session must
    be RUNNING or over with a reason (none left PENDING, PREPARING or
    TERMINATING), and the agent must run exactly the RUNNING sessions'
    containers (no orphans); destroying them all must leave no container
    behind. Then the same with the agent frozen (SIGSTOP) while the
    scheduler dies, so that the kernel.create and kernel.destroy calls it
    sent expire unread: only the restarted scheduler's reconciliation can
    settle those kernels. Last, creates the agent reads only after the
    scheduler gave up on them: the containers it starts must be removed.
    And a full restart where another service took the agent's old port: a
    destroy it answers "not found" must not end a session whose container
    runs. Needs root, runc, umoci and tini; skips otherwise.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <arpa/inet.h>
#include <pthread.h>
#include <stdatomic.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bus.h"
#include "harness.h"
#include "t.h"

#define CALL_MS    15000
#define SETTLE_MS  20000 //  the bound: all settled this long after a restart
#define SESSIONS   10
#define KILL_AFTER 6    //  creates sent before the scheduler dies
#define AGENT_MS   2000 //  agents.create_timeout_ms: a call's deadline
#define EXPIRE_MS  3300 //  the deadline, the 1 s grace and a margin
#define LATE       3    //  sessions of the round whose creates time out
#define LATE_MS    2400 //  past the deadline, within its grace
#define ROUNDS     4
#define STRANGER   3 //  the round of one session whose destroy a stranger answers
#define IMAGE      "local.backplane/library/busybox:latest"
#define STR(x)     #x
#define XSTR(x)    STR(x)

static char *s_dir;
static harness_proc_t s_scheduler, s_agent;
static char s_pub[64], s_sub[64], s_registry[64], s_rpc[160], s_bridge[16];
static char s_agent_rpc[160];    //  where the agent answers, from its ready line
static char s_agent_sets[2][64]; //  its bridge and subnet, for a restart
static bus_rpc_client_t *s_client;
static char s_ids[ROUNDS][SESSIONS][48];
static const int s_count[ROUNDS] = {SESSIONS, SESSIONS, LATE, 1};
static int s_starts; //  scheduler starts so far: its log is scheduler-<n>.log

//  How many containers the agent's runc has.
static int
s_containers(void)
{
    char command[600];
    snprintf(command, sizeof command, "runc --root %s/agent-f/runc list -q 2>/dev/null",
             s_dir);
    FILE *out = popen(command, "r");
    if (!out)
        return -1;
    int count = 0;
    char line[256];
    while (fgets(line, sizeof line, out))
        if (*line != '\n')
            count++;
    pclose(out);
    return count;
}

//  Lines of the scheduler's current log that contain text.
static int
s_log_count(const char *text)
{
    char command[700];
    snprintf(command, sizeof command, "grep -c '%s' %s/scheduler-%d.log", text, s_dir,
             s_starts);
    FILE *out = popen(command, "r");
    int count = 0;
    if (out) {
        if (fscanf(out, "%d", &count) != 1)
            count = 0;
        pclose(out);
    }
    return count;
}

//  Starts the scheduler on the fixed hub ports (log <dir>/scheduler-<n>.log)
//  and connects s_client to its RPC endpoint.
static bool
s_scheduler_start(void)
{
    char name[32];
    snprintf(name, sizeof name, "scheduler-%d", ++s_starts);
    harness_bus_t bus = {s_pub, s_sub, s_registry};
    harness_endpoints_t sched;
    const char *sets[] = {"bus.sync_ms=300", "sessions.pass_ms=100",
                          "agents.create_timeout_ms=" XSTR(AGENT_MS), "log.level=info",
                          NULL};
    if (harness_scheduler_start(&s_scheduler, s_dir, name, &bus, sets, &sched) != 0)
        return false;
    snprintf(s_rpc, sizeof s_rpc, "%s", sched.rpc);
    bus_rpc_client_destroy(&s_client);
    s_client = bus_rpc_client_new(s_rpc, "test/faults", NULL);
    return s_client != NULL;
}

static bus_writer_t *
s_create_req(int round, int i)
{
    char kernel[56], name[32];
    snprintf(kernel, sizeof kernel, "k-%s", s_ids[round][i]);
    snprintf(name, sizeof name, "burst-%d-%d", round, i);
    proto_kv_t slots[] = {{"cpu", "0.1"}, {"mem", "134217728"}};
    proto_session_create_req_t in;
    proto_session_create_req_init(&in);
    in.session_id = s_ids[round][i];
    in.kernel_id = kernel;
    in.name = name;
    in.access_key = "AKFAULTS";
    in.user_uuid = "user-f";
    in.domain_name = "default";
    in.group_id = "group-f";
    in.scaling_group = "default";
    in.image = IMAGE;
    in.slots = slots;
    in.slots_count = 2;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_session_create_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    return writer;
}

//  Calls a session.* method; the session in the reply into info.
static int
s_call(const char *method, bus_writer_t *writer, proto_session_info_t *info)
{
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    int rc =
        writer ? bus_rpc_client_call_sync(s_client, method, bus_writer_data(writer),
                                          bus_writer_size(writer), CALL_MS, &reply, &err)
               : BUS_STATUS_INTERNAL;
    bus_writer_destroy(&writer);
    proto_session_create_rep_t rep;
    if (rc == BUS_OK && info) {
        rc = proto_session_create_rep_decode(&rep, zchunk_data(reply), zchunk_size(reply),
                                             &err);
        if (rc == BUS_OK) {
            *info = rep.session; //  moved out of rep
            memset(&rep.session, 0, sizeof rep.session);
            info->owned_ = rep.owned_; //  the strings are in rep's arena
            rep.owned_ = NULL;
            proto_session_create_rep_clear(&rep);
        }
    }
    if (rc != BUS_OK)
        fprintf(stderr, "# %s: %d %s\n", method, rc, err.detail);
    zchunk_destroy(&reply);
    return rc;
}

static int
s_get(int round, int i, proto_session_info_t *info)
{
    proto_session_get_req_t in;
    proto_session_get_req_init(&in);
    in.session_id = s_ids[round][i];
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_session_get_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    return s_call(PROTO_SESSION_GET, writer, info);
}

static bool
s_dead(const char *status)
{
    return strcmp(status, "TERMINATED") == 0 || strcmp(status, "CANCELLED") == 0;
}

//  Settled: RUNNING with its address known, or over (or ERROR) with a
//  reason.
static bool
s_settled(const proto_session_info_t *info)
{
    if (strcmp(info->status, "RUNNING") == 0)
        return info->kernel_host && *info->kernel_host;
    return (s_dead(info->status) || strcmp(info->status, "ERROR") == 0) &&
           info->status_info && *info->status_info;
}

//  Reads a round's sessions: how many are settled (or, with over, over with
//  a reason) and how many RUNNING.
static void
s_census(int round, bool over, int *settled, int *running, bool report)
{
    *settled = *running = 0;
    for (int i = 0; i < s_count[round]; i++) {
        proto_session_info_t info;
        proto_session_info_init(&info);
        if (s_get(round, i, &info) == BUS_OK) {
            *settled += over
                            ? s_dead(info.status) && info.status_info && *info.status_info
                            : s_settled(&info);
            *running += strcmp(info.status, "RUNNING") == 0;
            if (report)
                fprintf(stderr, "# %s %s info=%s host=%s\n", s_ids[round][i], info.status,
                        info.status_info ? info.status_info : "",
                        info.kernel_host ? info.kernel_host : "");
        }
        proto_session_info_clear(&info);
    }
}

//  Waits (SETTLE_MS at most) until a round's sessions are all settled (or
//  over) and the agent runs exactly the RUNNING ones; asserts it.
static void
s_settle(int round, bool over)
{
    int64_t started = bus_clock_mono_ms();
    int settled = 0, running = 0, containers = -1;
    do {
        s_census(round, over, &settled, &running, false);
        containers = s_containers();
        if (settled == s_count[round] && containers == running)
            break;
        harness_pause_ms(100);
    } while (bus_clock_mono_ms() - started < SETTLE_MS);
    int64_t took = bus_clock_mono_ms() - started;
    fprintf(stderr, "# round %d %s in %lld ms: %d running, %d containers\n", round,
            over ? "over" : "settled", (long long) took, running, containers);
    if (settled != s_count[round] || containers != running)
        s_census(round, over, &settled, &running, true);
    T_EQ_INT(settled, s_count[round]);
    T_EQ_INT(containers, running);
    T_ASSERT(over || running > 0);
    T_ASSERT(took < SETTLE_MS);
}

static void
s_on_burst_reply(void *arg, const bus_reply_t *reply)
{
    (void) reply;
    (*(int *) arg)++;
}

static void
s_freeze_agent(bool frozen)
{
    kill(s_agent.pid, frozen ? SIGSTOP : SIGCONT);
}

//  The burst: creates 20 ms apart, the scheduler killed right after the
//  KILL_AFTER-th, while it places sessions and the agent starts
//  containers; the rest go into the void. A frozen agent reads nothing
//  until the calls sent to it expired. Then the scheduler comes back and
//  every create is sent again, as the gateway retries.
static void
s_burst(int round, bool freeze)
{
    if (freeze)
        s_freeze_agent(true);
    int replies = 0;
    for (int i = 0; i < SESSIONS; i++) {
        bus_writer_t *writer = s_create_req(round, i);
        T_ASSERT(writer);
        if (writer)
            bus_rpc_client_call(s_client, PROTO_SESSION_CREATE, bus_writer_data(writer),
                                bus_writer_size(writer), CALL_MS, s_on_burst_reply,
                                &replies);
        bus_writer_destroy(&writer);
        if (i + 1 == KILL_AFTER)
            harness_kill(&s_scheduler);
        for (int pump = 0; pump < 10; pump++) {
            while (bus_rpc_client_dispatch(s_client) > 0)
                ;
            bus_rpc_client_tick(s_client);
            harness_pause_ms(2);
        }
    }
    fprintf(stderr, "# round %d: %d of %d creates answered before the kill\n", round,
            replies, SESSIONS);
    //  The agent goes on alone for a moment (its events wait in its outbox).
    harness_pause_ms(freeze ? EXPIRE_MS : 300);
    if (freeze)
        s_freeze_agent(false);
    T_ASSERT(s_scheduler_start()); //  answers the old calls UNAVAILABLE
    for (int i = 0; i < SESSIONS; i++) {
        proto_session_info_t info;
        T_EQ_INT(s_call(PROTO_SESSION_CREATE, s_create_req(round, i), &info), BUS_OK);
        proto_session_info_clear(&info);
    }
    s_settle(round, false);
}

//  Destroys a round's sessions; with freeze, the agent is frozen meanwhile
//  and the scheduler killed and restarted once the destroys expired.
static void
s_destroy_all(int round, bool freeze)
{
    if (freeze)
        s_freeze_agent(true);
    for (int i = 0; i < s_count[round]; i++) {
        proto_session_destroy_req_t in;
        proto_session_destroy_req_init(&in);
        in.session_id = s_ids[round][i];
        bus_writer_t *writer = bus_writer_new();
        if (writer && proto_session_destroy_req_write(&in, writer) != 0)
            bus_writer_destroy(&writer);
        T_EQ_INT(s_call(PROTO_SESSION_DESTROY, writer, NULL), BUS_OK);
    }
    if (freeze) {
        harness_pause_ms(200);
        harness_kill(&s_scheduler);
        harness_pause_ms(EXPIRE_MS);
        s_freeze_agent(false);
        T_ASSERT(s_scheduler_start());
    }
    s_settle(round, true);
}

static void
test_start(void)
{
    s_dir = harness_tmpdir("faults");
    T_ASSERT(s_dir);
    int pid = (int) (getpid() % 100000);
    snprintf(s_bridge, sizeof s_bridge, "bpf%d", pid);
    for (int round = 0; round < ROUNDS; round++)
        for (int i = 0; i < SESSIONS; i++)
            snprintf(s_ids[round][i], sizeof s_ids[round][i], "sf-%d-%d-%d", pid, round,
                     i);
    T_EQ_INT(harness_busybox_images(s_dir), 0);
    int ports[3];
    for (int i = 0; i < 3; i++) {
        ports[i] = harness_free_port();
        T_ASSERT(ports[i] > 0);
    }
    snprintf(s_pub, sizeof s_pub, "tcp://127.0.0.1:%d", ports[0]);
    snprintf(s_sub, sizeof s_sub, "tcp://127.0.0.1:%d", ports[1]);
    snprintf(s_registry, sizeof s_registry, "tcp://127.0.0.1:%d", ports[2]);
    T_ASSERT(s_scheduler_start());
    snprintf(s_agent_sets[0], sizeof s_agent_sets[0], "agent.network.bridge=%s",
             s_bridge);
    const char *subnet = harness_subnet();
    T_ASSERT(subnet);
    snprintf(s_agent_sets[1], sizeof s_agent_sets[1], "agent.network.cidr=%s",
             subnet ? subnet : "");
    const char *extra[] = {"agent.slots.cpu=2", "agent.slots.mem=4g", s_agent_sets[0],
                           s_agent_sets[1], NULL};
    harness_bus_t bus = {s_pub, s_sub, s_registry};
    char line[HARNESS_LINE_MAX];
    T_ASSERT(harness_agent_start(&s_agent, s_dir, "agent-f", &bus, extra, line,
                                 sizeof line) == 0);
    T_ASSERT(harness_field(line, "rpc", s_agent_rpc, sizeof s_agent_rpc));
}

static void
test_kill_during_burst(void)
{
    s_burst(0, false);
    s_destroy_all(0, false);
}

static void
test_lost_creates_are_repaired(void)
{
    s_burst(1, true);
    //  Placed before the kill, created by nobody: the reconciliation's.
    T_ASSERT(s_log_count("kernel reconciled") > 0);
}

static void
test_lost_destroys_are_repaired(void)
{
    s_destroy_all(1, true);
    T_ASSERT(s_log_count("kernel reconciled") > 0);
}

static void
test_late_creates_leave_no_orphans(void)
{
    //  The agent reads the creates after the scheduler gave up on them (and
    //  cancelled the sessions), but before their deadline's grace ran out:
    //  it starts containers nobody wants, which the reconciliation removes.
    int before = s_log_count("orphan kernel destroyed");
    s_freeze_agent(true);
    for (int i = 0; i < LATE; i++) {
        proto_session_info_t info;
        T_EQ_INT(s_call(PROTO_SESSION_CREATE, s_create_req(2, i), &info), BUS_OK);
        proto_session_info_clear(&info);
    }
    harness_pause_ms(LATE_MS);
    s_freeze_agent(false);
    int64_t started = bus_clock_mono_ms();
    while (s_log_count("orphan kernel destroyed") == before &&
           bus_clock_mono_ms() - started < SETTLE_MS)
        harness_pause_ms(100);
    T_ASSERT(s_log_count("orphan kernel destroyed") > before);
    s_settle(2, true);
    proto_session_info_t info;
    proto_session_info_init(&info);
    T_EQ_INT(s_get(2, 0, &info), BUS_OK);
    T_EQ_STR(info.status, "CANCELLED");
    T_EQ_STR(info.status_info, "failed-to-start");
    proto_session_info_clear(&info);
}

//  ---------------------------------------------------------------------------
//  A stranger at the agent's old address

typedef struct {
    atomic_bool stop;
    atomic_int answered;
    bool bound;
} stranger_t;

//  Another service on the agent's old port: a ROUTER that serves no method,
//  so that every call is answered "unknown method" (NOT_FOUND).
static void *
s_stranger_run(void *arg)
{
    stranger_t *stranger = arg;
    bus_rpc_server_t *server = bus_rpc_server_new(s_agent_rpc, NULL);
    stranger->bound = server != NULL;
    while (server && !atomic_load(&stranger->stop)) {
        zmq_pollitem_t item = {zsock_resolve(bus_rpc_server_sock(server)), 0, ZMQ_POLLIN,
                               0};
        if (zmq_poll(&item, 1, 50) > 0)
            atomic_fetch_add(&stranger->answered, bus_rpc_server_dispatch(server));
    }
    bus_rpc_server_destroy(&server);
    return NULL;
}

//  The whole platform killed at once (a second `make run`), and before the
//  agent is back its RPC port is another service's. The restarted
//  scheduler knows the agent only by the address of its earlier run: a
//  destroy sent there before the agent's first heartbeat is answered "not
//  found" by the stranger, which is no news of the kernel. The session must
//  not end while its container runs; once the agent is back (elsewhere),
//  the reconciliation ends it and the container goes.
static void
test_destroy_answered_by_a_stranger(void)
{
    proto_session_info_t info;
    T_EQ_INT(s_call(PROTO_SESSION_CREATE, s_create_req(STRANGER, 0), &info), BUS_OK);
    proto_session_info_clear(&info);
    s_settle(STRANGER, false);
    harness_kill(&s_agent);
    harness_kill(&s_scheduler);
    stranger_t stranger = {0};
    pthread_t thread;
    T_EQ_INT(pthread_create(&thread, NULL, s_stranger_run, &stranger), 0);
    harness_pause_ms(200);
    T_ASSERT(stranger.bound);
    T_ASSERT(s_scheduler_start());
    proto_session_destroy_req_t in;
    proto_session_destroy_req_init(&in);
    in.session_id = s_ids[STRANGER][0];
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_session_destroy_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    T_EQ_INT(s_call(PROTO_SESSION_DESTROY, writer, NULL), BUS_OK);
    int64_t started = bus_clock_mono_ms();
    while (atomic_load(&stranger.answered) == 0 &&
           bus_clock_mono_ms() - started < CALL_MS)
        harness_pause_ms(50);
    T_ASSERT(atomic_load(&stranger.answered) > 0);
    harness_pause_ms(500); //  the answer applied
    proto_session_info_init(&info);
    T_EQ_INT(s_get(STRANGER, 0, &info), BUS_OK);
    fprintf(stderr, "# after the stranger's answer: %s %s, %d container(s)\n",
            info.status, info.status_info ? info.status_info : "", s_containers());
    T_ASSERT(!s_dead(info.status));
    proto_session_info_clear(&info);
    T_EQ_INT(s_containers(), 1);
    T_ASSERT(s_log_count("left to the reconciliation") > 0);
    atomic_store(&stranger.stop, true);
    pthread_join(thread, NULL);
    //  The agent back, on a port of its own choosing: it adopts its
    //  container, and the reconciliation destroys it.
    const char *extra[] = {"agent.slots.cpu=2", "agent.slots.mem=4g", s_agent_sets[0],
                           s_agent_sets[1], NULL};
    harness_bus_t bus = {s_pub, s_sub, s_registry};
    T_ASSERT(harness_agent_start(&s_agent, s_dir, "agent-f", &bus, extra, NULL, 0) == 0);
    s_settle(STRANGER, true);
    T_EQ_INT(s_containers(), 0);
}

int
main(void)
{
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    T_RUN(test_start);
    if (t_failures) //  nothing to test without the platform
        return T_DONE();
    T_RUN(test_kill_during_burst);
    T_RUN(test_lost_creates_are_repaired);
    T_RUN(test_lost_destroys_are_repaired);
    T_RUN(test_late_creates_leave_no_orphans);
    T_RUN(test_destroy_answered_by_a_stranger);
    bus_rpc_client_destroy(&s_client);
    bool clean =
        harness_teardown(&s_scheduler, &s_agent, s_bridge, s_dir, t_failures > 0);
    return clean ? T_DONE() : 1;
}
