/*  =========================================================================
    agent_faults_test - the agent killed (SIGKILL) while sessions run, and
    restarted on the same state directory (and another RPC port), with the real
    scheduler and real runc containers. Three sessions run; one wrote a
    file. While the agent is down one container is killed and a new
    session is created. Within a time bound after the restart: the two
    that still ran are RUNNING, answer code, and are the same containers
    (same pid, the file still there); the killed one is TERMINATED with
    lost-on-restart, its slots given back, nothing of it left on the host
    (container, mount, network namespace, directory); the session created
    meanwhile runs. Destroying the rest leaves nothing behind. Needs root,
    runc, umoci and tini; skips otherwise.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <arpa/inet.h>
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

#define CALL_MS   15000
#define SETTLE_MS 20000 //  the bound: everything settled this long after the restart
#define IMAGE     "local.backplane/library/busybox:latest"
#define AK        "AKAGENTFAULTS"
#define AK_LATE   "AKAGENTFAULTSD" //  session D's owner: A, B and C's usage without D
#define CPU       "0.25"
#define MEM       "134217728"

enum { A, B, C, D, E, SESSIONS };

static char *s_dir;
static harness_proc_t s_scheduler, s_agent;
static harness_endpoints_t s_sched; //  the scheduler, which hosts the bus
static char s_bridge[16];
static const char *s_cidr; //  the agent's kernels' subnet
static char s_agent_bind[64], s_agent_addr[256];
static bus_rpc_client_t *s_client, *s_agent_client;
static char s_ids[SESSIONS][48], s_kernels[SESSIONS][56];
static int s_pid_a, s_pid_c; //  A's and C's container pids before the kill
static int64_t s_restarted;  //  when the agent came back (monotonic ms)

//  The ids runc lists under the agent's root, sorted, space-separated.
static void
s_containers(char *out, size_t size)
{
    char command[600];
    snprintf(command, sizeof command,
             "runc --root %s/agent-a/runc list -q 2>/dev/null | sort | tr '\\n' ' '",
             s_dir);
    *out = '\0';
    FILE *pipe = popen(command, "r");
    if (!pipe)
        return;
    if (!fgets(out, (int) size, pipe))
        *out = '\0';
    pclose(pipe);
    out[strcspn(out, "\n")] = '\0';
}

//  The pid runc knows for container id, or -1.
static int
s_container_pid(const char *id)
{
    char root[512];
    snprintf(root, sizeof root, "%s/agent-a/runc", s_dir);
    return harness_runc_pid(root, id);
}

//  Nothing of kernel id is left on the host: directory, address, netns,
//  mount, cgroup.
static bool
s_nothing_left(const char *id)
{
    char command[2048];
    snprintf(command, sizeof command,
             "test ! -e %s/agent-a/kernels/%s && test ! -e %s/agent-a/net/%s &&"
             " test ! -e /run/netns/bp-%s && ! grep -q 'kernels/%s/' /proc/self/mountinfo"
             " && ! ls -d /sys/fs/cgroup/*/backplane/%s /sys/fs/cgroup/backplane/%s"
             " 2>/dev/null | grep -q .",
             s_dir, id, s_dir, id, id, id, id, id);
    return harness_shell(command) == 0;
}

//  Everything s_nothing_left looks for is there for kernel id (so that its
//  absence means something).
static bool
s_all_there(const char *id)
{
    char command[2048];
    snprintf(command, sizeof command,
             "test -d %s/agent-a/kernels/%s && test -e %s/agent-a/net/%s &&"
             " test -e /run/netns/bp-%s && grep -q 'kernels/%s/' /proc/self/mountinfo"
             " && ls -d /sys/fs/cgroup/*/backplane/%s /sys/fs/cgroup/backplane/%s"
             " 2>/dev/null | grep -q .",
             s_dir, id, s_dir, id, id, id, id, id);
    return harness_shell(command) == 0;
}

//  How many interfaces (the kernels' veths) the bridge has.
static int
s_bridge_ports(void)
{
    char command[256];
    snprintf(command, sizeof command, "ip -o link show master %s 2>/dev/null | wc -l",
             s_bridge);
    return harness_shell_int(command);
}

static bool
s_agent_up(void)
{
    char bridge[64], bind[96], cidr[64];
    snprintf(bridge, sizeof bridge, "agent.network.bridge=%s", s_bridge);
    snprintf(bind, sizeof bind, "bus.rpc_bind=%s", s_agent_bind);
    if (!s_cidr)
        s_cidr = harness_subnet(); //  the same one after a restart
    snprintf(cidr, sizeof cidr, "agent.network.cidr=%s", s_cidr ? s_cidr : "");
    const char *extra[] = {
        "agent.slots.cpu=2", "agent.slots.mem=2g", bridge, cidr, bind, NULL};
    harness_bus_t bus = harness_endpoints_bus(&s_sched);
    char line[HARNESS_LINE_MAX], rpc[160];
    if (harness_agent_start(&s_agent, s_dir, "agent-a", &bus, extra, line, sizeof line) !=
            0 ||
        !harness_field(line, "rpc", rpc, sizeof rpc))
        return false;
    if (strcmp(rpc, s_agent_bind) != 0)
        fprintf(stderr, "# agent rpc %s, bound %s\n", rpc, s_agent_bind);
    return strcmp(rpc, s_agent_bind) == 0;
}

//  Calls a scheduler method; the reply into *reply_p (caller destroys).
static int
s_call_raw(bus_rpc_client_t *client,
           const char *method,
           bus_writer_t *writer,
           zchunk_t **reply_p)
{
    bus_error_t err = {0};
    int rc =
        writer && client
            ? bus_rpc_client_call_sync(client, method, bus_writer_data(writer),
                                       bus_writer_size(writer), CALL_MS, reply_p, &err)
            : BUS_STATUS_INTERNAL;
    bus_writer_destroy(&writer);
    if (rc != BUS_OK)
        fprintf(stderr, "# %s: %d %s\n", method, rc, err.detail);
    return rc;
}

//  Calls a session.* method; the session in the reply into info (when
//  given, and then cleared by the caller).
static int
s_call(const char *method, bus_writer_t *writer, proto_session_info_t *info)
{
    zchunk_t *reply = NULL;
    int rc = s_call_raw(s_client, method, writer, &reply);
    if (rc == BUS_OK && info) {
        bus_error_t err = {0};
        proto_session_create_rep_t rep;
        rc = proto_session_create_rep_decode(&rep, zchunk_data(reply), zchunk_size(reply),
                                             &err);
        if (rc == BUS_OK) {
            *info = rep.session; //  moved out of rep
            memset(&rep.session, 0, sizeof rep.session);
            info->owned_ = rep.owned_; //  the strings are in rep's arena
            rep.owned_ = NULL;
            proto_session_create_rep_clear(&rep);
        } else
            fprintf(stderr, "# %s: reply %s\n", method, err.detail);
    }
    zchunk_destroy(&reply);
    return rc;
}

static int
s_create(int i, proto_session_info_t *info)
{
    char name[32];
    snprintf(name, sizeof name, "agent-fault-%c", 'a' + i);
    proto_kv_t slots[] = {{"cpu", CPU}, {"mem", MEM}};
    proto_session_create_req_t in;
    proto_session_create_req_init(&in);
    in.session_id = s_ids[i];
    in.kernel_id = s_kernels[i];
    in.name = name;
    in.access_key = i == D ? AK_LATE : AK;
    in.user_uuid = "user-af";
    in.domain_name = "default";
    in.group_id = "group-af";
    in.scaling_group = "default";
    in.image = IMAGE;
    in.slots = slots;
    in.slots_count = 2;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_session_create_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    return s_call(PROTO_SESSION_CREATE, writer, info);
}

static int
s_get(int i, proto_session_info_t *info)
{
    proto_session_get_req_t in;
    proto_session_get_req_init(&in);
    in.session_id = s_ids[i];
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_session_get_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    return s_call(PROTO_SESSION_GET, writer, info);
}

static int
s_destroy(int i)
{
    proto_session_destroy_req_t in;
    proto_session_destroy_req_init(&in);
    in.session_id = s_ids[i];
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_session_destroy_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    return s_call(PROTO_SESSION_DESTROY, writer, NULL);
}

//  Session i's status (and status_info) into the buffers; false if unknown.
static bool
s_status(int i, char *status, size_t size, char *why, size_t why_size)
{
    proto_session_info_t info;
    proto_session_info_init(&info);
    bool known = s_get(i, &info) == BUS_OK;
    snprintf(status, size, "%s", known && info.status ? info.status : "?");
    if (why)
        snprintf(why, why_size, "%s", known && info.status_info ? info.status_info : "");
    proto_session_info_clear(&info);
    return known;
}

//  Runs code in session i's kernel (kernel.execute to its agent); the
//  result JSON (caller frees) or NULL.
static char *
s_execute(int i, const char *run_id, const char *code)
{
    proto_kernel_execute_req_t in;
    proto_kernel_execute_req_init(&in);
    in.kernel_id = s_kernels[i];
    in.run_id = run_id;
    in.mode = "query";
    in.code = code;
    in.wait_ms = 10000;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_kernel_execute_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    zchunk_t *reply = NULL;
    char *result = NULL;
    if (s_call_raw(s_agent_client, PROTO_KERNEL_EXECUTE, writer, &reply) == BUS_OK) {
        bus_error_t err = {0};
        proto_kernel_execute_rep_t out;
        if (proto_kernel_execute_rep_decode(&out, zchunk_data(reply), zchunk_size(reply),
                                            &err) == BUS_OK) {
            result = strdup(out.result);
            proto_kernel_execute_rep_clear(&out);
        }
    }
    zchunk_destroy(&reply);
    return result;
}

//  The value of key in a slot map, or "".
static const char *
s_slot(const proto_kv_t *slots, size_t count, const char *key)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(slots[i].key, key) == 0)
            return slots[i].value;
    return "";
}

//  The agent's occupied cpu and mem as the scheduler's registry says.
static bool
s_agent_occupied(char *cpu, char *mem, size_t size)
{
    proto_scheduler_agents_req_t in;
    proto_scheduler_agents_req_init(&in);
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_scheduler_agents_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    zchunk_t *reply = NULL;
    bool found = false;
    *cpu = *mem = '\0';
    if (s_call_raw(s_client, PROTO_SCHEDULER_AGENTS, writer, &reply) == BUS_OK) {
        bus_error_t err = {0};
        proto_scheduler_agents_rep_t out;
        if (proto_scheduler_agents_rep_decode(&out, zchunk_data(reply),
                                              zchunk_size(reply), &err) == BUS_OK) {
            for (size_t i = 0; i < out.agents_count; i++)
                if (strcmp(out.agents[i].id, "agent-a") == 0) {
                    const proto_scheduler_agent_t *agent = &out.agents[i];
                    snprintf(cpu, size, "%s",
                             s_slot(agent->occupied_slots, agent->occupied_slots_count,
                                    "cpu"));
                    snprintf(mem, size, "%s",
                             s_slot(agent->occupied_slots, agent->occupied_slots_count,
                                    "mem"));
                    found = true;
                }
            proto_scheduler_agents_rep_clear(&out);
        }
    }
    zchunk_destroy(&reply);
    return found;
}

//  What access_key holds now (scheduler.usage): cpu and mem.
static bool
s_usage(const char *access_key, char *cpu, char *mem, size_t size)
{
    proto_scheduler_usage_req_t in;
    proto_scheduler_usage_req_init(&in);
    in.access_key = access_key;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_scheduler_usage_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    zchunk_t *reply = NULL;
    bool ok = false;
    *cpu = *mem = '\0';
    if (s_call_raw(s_client, PROTO_SCHEDULER_USAGE, writer, &reply) == BUS_OK) {
        bus_error_t err = {0};
        proto_scheduler_usage_rep_t out;
        if (proto_scheduler_usage_rep_decode(&out, zchunk_data(reply), zchunk_size(reply),
                                             &err) == BUS_OK) {
            snprintf(cpu, size, "%s", s_slot(out.keypair, out.keypair_count, "cpu"));
            snprintf(mem, size, "%s", s_slot(out.keypair, out.keypair_count, "mem"));
            ok = true;
            proto_scheduler_usage_rep_clear(&out);
        }
    }
    zchunk_destroy(&reply);
    return ok;
}

//  Waits (SETTLE_MS at most) until every session listed has its status
//  (status_info, when given, too); reports the others when it gives up.
static bool
s_wait_statuses(const int *which,
                const char *const *statuses,
                const char *const *whys,
                size_t count)
{
    int64_t started = bus_clock_mono_ms();
    bool all = false;
    do {
        all = true;
        for (size_t k = 0; k < count && all; k++) {
            char status[32], why[80];
            all = s_status(which[k], status, sizeof status, why, sizeof why) &&
                  strcmp(status, statuses[k]) == 0 &&
                  (!whys || !whys[k] || strcmp(why, whys[k]) == 0);
        }
        if (!all)
            harness_pause_ms(100);
    } while (!all && bus_clock_mono_ms() - started < SETTLE_MS);
    if (!all)
        for (size_t k = 0; k < count; k++) {
            char status[32], why[80];
            s_status(which[k], status, sizeof status, why, sizeof why);
            fprintf(stderr, "# %s: %s (%s), wanted %s\n", s_ids[which[k]], status, why,
                    statuses[k]);
        }
    return all;
}

static void
test_start(void)
{
    s_dir = harness_tmpdir("agentfaults");
    T_ASSERT(s_dir);
    int pid = (int) (getpid() % 100000);
    snprintf(s_bridge, sizeof s_bridge, "bpa%d", pid);
    for (int i = 0; i < SESSIONS; i++) {
        snprintf(s_ids[i], sizeof s_ids[i], "af-%d-%c", pid, 'a' + i);
        snprintf(s_kernels[i], sizeof s_kernels[i], "k-af-%d-%c", pid, 'a' + i);
    }
    T_EQ_INT(harness_busybox_images(s_dir), 0);
    int port = harness_free_port();
    T_ASSERT(port > 0);
    snprintf(s_agent_bind, sizeof s_agent_bind, "tcp://127.0.0.1:%d", port);

    const char *sets[] = {"bus.sync_ms=300", "sessions.pass_ms=100", "log.level=info",
                          NULL};
    T_EQ_INT(
        harness_scheduler_start(&s_scheduler, s_dir, "scheduler", NULL, sets, &s_sched),
        0);
    s_client = bus_rpc_client_new(s_sched.rpc, "test/agent-faults", NULL);
    T_ASSERT(s_client);
    T_ASSERT(s_agent_up());
}

//  A, B and C run; A writes a file in its home.
static void
test_sessions_run(void)
{
    for (int i = A; i <= C; i++) {
        proto_session_info_t info;
        T_EQ_INT(s_create(i, &info), BUS_OK);
        proto_session_info_clear(&info);
    }
    const int which[] = {A, B, C};
    const char *const running[] = {"RUNNING", "RUNNING", "RUNNING"};
    T_ASSERT(s_wait_statuses(which, running, NULL, 3));
    proto_session_info_t info;
    T_EQ_INT(s_get(A, &info), BUS_OK);
    T_EQ_STR(info.agent_id, "agent-a");
    char prefix[32];
    harness_subnet_host(s_cidr, 0, prefix, sizeof prefix);
    T_CONTAINS(info.kernel_host, prefix);
    snprintf(s_agent_addr, sizeof s_agent_addr, "%s", info.agent_addr);
    proto_session_info_clear(&info);
    T_EQ_STR(s_agent_addr, s_agent_bind);
    s_agent_client = bus_rpc_client_new(s_agent_addr, "test/agent-faults", NULL);
    T_ASSERT(s_agent_client);
    char *result =
        s_execute(A, "r1", "echo kept-$((40+2)) > /home/work/marker && echo written");
    T_ASSERT(result);
    T_CONTAINS(result, "written");
    T_CONTAINS(result, "\"exitCode\":0");
    free(result);
    char list[512], expect[512];
    s_containers(list, sizeof list);
    snprintf(expect, sizeof expect, "%s %s %s ", s_kernels[A], s_kernels[B],
             s_kernels[C]);
    T_EQ_STR(list, expect);
    s_pid_a = s_container_pid(s_kernels[A]);
    s_pid_c = s_container_pid(s_kernels[C]);
    T_ASSERT(s_pid_a > 0 && s_pid_c > 0);
    T_EQ_INT(s_bridge_ports(), 3);
    for (int i = A; i <= C; i++)
        T_ASSERT(s_all_there(s_kernels[i]));
}

//  The agent dies; B's container dies while no agent looks; D is created
//  meanwhile; the agent comes back on the same state, on another port.
static void
test_agent_killed_and_restarted(void)
{
    harness_kill(&s_agent);
    bus_rpc_client_destroy(&s_agent_client);
    char command[1024];
    snprintf(command, sizeof command, "runc --root %s/agent-a/runc kill %s KILL", s_dir,
             s_kernels[B]);
    T_EQ_INT(harness_shell(command), 0);
    snprintf(command, sizeof command,
             "for i in $(seq 100); do runc --root %s/agent-a/runc state %s"
             " | grep -q stopped && exit 0; sleep 0.05; done; exit 1",
             s_dir, s_kernels[B]);
    T_EQ_INT(harness_shell(command), 0);
    proto_session_info_t info;
    T_EQ_INT(s_create(D, &info), BUS_OK);
    T_EQ_STR(info.status, "PENDING");
    proto_session_info_clear(&info);
    harness_pause_ms(500); //  a few scheduling passes with the agent away
    char status[32], why[80];
    T_ASSERT(s_status(D, status, sizeof status, why, sizeof why));
    fprintf(stderr, "# D while the agent is down: %s %s\n", status, why);
    T_ASSERT(strcmp(status, "CANCELLED") != 0 && strcmp(status, "TERMINATED") != 0);
    T_ASSERT(s_status(A, status, sizeof status, NULL, 0));
    T_EQ_STR(status, "RUNNING"); //  no heartbeat for a moment is not a loss
    //  It comes back on another port, as an agent with the shipped
    //  `bus.rpc_bind: tcp://127.0.0.1:*` does: D's create, sent to the old
    //  one, must not hold D back.
    int port = harness_free_port();
    T_ASSERT(port > 0);
    snprintf(s_agent_bind, sizeof s_agent_bind, "tcp://127.0.0.1:%d", port);
    T_ASSERT(s_agent_up());
    s_restarted = bus_clock_mono_ms();
    snprintf(s_agent_addr, sizeof s_agent_addr, "%s", s_agent_bind);
    s_agent_client = bus_rpc_client_new(s_agent_addr, "test/agent-faults", NULL);
    T_ASSERT(s_agent_client);
}

//  Within the bound: A and C RUNNING, B over with the agent's reason, D
//  running; the containers are exactly A, C and D.
static void
test_settled_after_restart(void)
{
    const int which[] = {A, B, C, D};
    const char *const statuses[] = {"RUNNING", "TERMINATED", "RUNNING", "RUNNING"};
    const char *const whys[] = {NULL, "lost-on-restart", NULL, NULL};
    T_ASSERT(s_wait_statuses(which, statuses, whys, 4));
    char list[512], expect[512];
    snprintf(expect, sizeof expect, "%s %s %s ", s_kernels[A], s_kernels[C],
             s_kernels[D]);
    int64_t took = bus_clock_mono_ms() - s_restarted;
    do {
        s_containers(list, sizeof list);
        if (strcmp(list, expect) != 0)
            harness_pause_ms(100);
    } while (strcmp(list, expect) != 0 && bus_clock_mono_ms() - s_restarted < SETTLE_MS);
    fprintf(stderr, "# settled %lld ms after the restart\n", (long long) took);
    T_EQ_STR(list, expect);
    T_ASSERT(took < SETTLE_MS);
    //  B's end carries the agent's detail and gives its slots back.
    proto_session_info_t info;
    T_EQ_INT(s_get(B, &info), BUS_OK);
    T_EQ_INT(info.occupied_slots_count, 0);
    T_CONTAINS(info.status_data, "the agent restarted");
    T_ASSERT(info.terminated_at > 0);
    proto_session_info_clear(&info);
    char cpu[32], mem[32];
    T_ASSERT(s_usage(AK, cpu, mem, sizeof cpu)); //  A and C only
    T_EQ_STR(cpu, "0.5");
    T_EQ_STR(mem, "268435456");
    T_ASSERT(s_agent_occupied(cpu, mem, sizeof cpu)); //  A, C and D
    T_EQ_STR(cpu, "0.75");
    T_EQ_STR(mem, "402653184");
    T_ASSERT(s_nothing_left(s_kernels[B]));
    T_EQ_INT(s_bridge_ports(), 3); //  A, C and D's veths; B's is gone
}

//  A and C are the same containers as before: same pid, A's file kept,
//  and they run code; D runs code too.
static void
test_adopted_sessions_answer(void)
{
    T_EQ_INT(s_container_pid(s_kernels[A]), s_pid_a);
    T_EQ_INT(s_container_pid(s_kernels[C]), s_pid_c);
    char *result = s_execute(A, "r2", "cat /home/work/marker");
    T_ASSERT(result);
    T_CONTAINS(result, "kept-42");
    T_CONTAINS(result, "\"exitCode\":0");
    free(result);
    result = s_execute(C, "r1", "echo c-$((1+1))");
    T_ASSERT(result);
    T_CONTAINS(result, "c-2");
    free(result);
    result = s_execute(D, "r1", "echo d-$((2+1))");
    T_ASSERT(result);
    T_CONTAINS(result, "d-3");
    free(result);
}

//  A kernel.create or kernel.list meant for another agent (whose address
//  this one took over after that one restarted elsewhere) is refused, and
//  nothing of the kernel is made here.
static void
test_requests_for_another_agent_refused(void)
{
    char kernel[64];
    snprintf(kernel, sizeof kernel, "k-af-%d-other", (int) (getpid() % 100000));
    proto_kv_t slots[] = {{"cpu", CPU}, {"mem", MEM}};
    proto_kernel_create_req_t in;
    proto_kernel_create_req_init(&in);
    in.kernel_id = kernel;
    in.session_id = "af-other";
    in.agent_id = "agent-other";
    in.image = IMAGE;
    in.slots = slots;
    in.slots_count = 2;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_kernel_create_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    zchunk_t *reply = NULL;
    T_EQ_INT(s_call_raw(s_agent_client, PROTO_KERNEL_CREATE, writer, &reply),
             BUS_STATUS_UNAVAILABLE);
    zchunk_destroy(&reply);
    T_ASSERT(s_nothing_left(kernel));
    proto_kernel_list_req_t list;
    proto_kernel_list_req_init(&list);
    list.agent_id = "agent-other";
    writer = bus_writer_new();
    if (writer && proto_kernel_list_req_write(&list, writer) != 0)
        bus_writer_destroy(&writer);
    T_EQ_INT(s_call_raw(s_agent_client, PROTO_KERNEL_LIST, writer, &reply),
             BUS_STATUS_UNAVAILABLE);
    zchunk_destroy(&reply);
}

//  Destroying the rest leaves no container, mount, netns or slot.
static void
test_destroy_leaves_nothing(void)
{
    T_EQ_INT(s_destroy(A), BUS_OK);
    T_EQ_INT(s_destroy(C), BUS_OK);
    T_EQ_INT(s_destroy(D), BUS_OK);
    const int which[] = {A, C, D};
    const char *const statuses[] = {"TERMINATED", "TERMINATED", "TERMINATED"};
    const char *const whys[] = {"user-requested", "user-requested", "user-requested"};
    T_ASSERT(s_wait_statuses(which, statuses, whys, 3));
    char list[512];
    s_containers(list, sizeof list);
    T_EQ_STR(list, "");
    for (int i = 0; i < SESSIONS; i++)
        T_ASSERT(s_nothing_left(s_kernels[i]));
    T_EQ_INT(s_bridge_ports(), 0);
    char cpu[32], mem[32];
    T_ASSERT(s_agent_occupied(cpu, mem, sizeof cpu));
    T_ASSERT(*cpu == '\0' || strcmp(cpu, "0") == 0);
    T_ASSERT(*mem == '\0' || strcmp(mem, "0") == 0);
}

//  E's kernel.create reaches the agent, which dies before it answers (it
//  is frozen, then killed) and comes back on the same port: the scheduler
//  must not wait for its call to the dead process (its retry comes only
//  after a third of agents.create_timeout_ms, 40 s by default), and the
//  agent must clear what a create killed half-way leaves (a directory with
//  a mount, an address, a network namespace) or the create sent again is
//  refused. E runs within the bound; destroyed, nothing of it is left.
static void
test_create_lost_with_the_agent(void)
{
    kill(s_agent.pid, SIGSTOP);
    proto_session_info_t info;
    T_EQ_INT(s_create(E, &info), BUS_OK);
    proto_session_info_clear(&info);
    int64_t started = bus_clock_mono_ms();
    char status[32] = "";
    while (s_status(E, status, sizeof status, NULL, 0) &&
           strcmp(status, "PREPARING") != 0 && bus_clock_mono_ms() - started < SETTLE_MS)
        harness_pause_ms(50);
    T_EQ_STR(status, "PREPARING"); //  kernel.create is in the frozen agent's socket
    harness_pause_ms(200);
    harness_kill(&s_agent);
    bus_rpc_client_destroy(&s_agent_client);
    //  What a create killed before runc knew its container leaves.
    char half[64], command[2048], address[32];
    snprintf(half, sizeof half, "k-af-%d-half", (int) (getpid() % 100000));
    harness_subnet_host(s_cidr, 250, address, sizeof address);
    snprintf(command, sizeof command,
             "d=%s/agent-a; mkdir -p $d/kernels/%s/scratch &&"
             " mount -t tmpfs tmpfs $d/kernels/%s/scratch &&"
             " echo %s > $d/net/%s && ip netns add bp-%s",
             s_dir, half, half, address, half, half);
    T_EQ_INT(harness_shell(command), 0);
    T_ASSERT(s_agent_up()); //  s_agent_bind: the same port
    s_agent_client = bus_rpc_client_new(s_agent_bind, "test/agent-faults", NULL);
    T_ASSERT(s_agent_client);
    const int which[] = {E};
    const char *const running[] = {"RUNNING"};
    T_ASSERT(s_wait_statuses(which, running, NULL, 1));
    T_ASSERT(s_nothing_left(half));
    char *result = s_execute(E, "r1", "echo e-$((3+2))");
    T_ASSERT(result);
    T_CONTAINS(result, "e-5");
    free(result);
    T_EQ_INT(s_destroy(E), BUS_OK);
    const char *const ended[] = {"TERMINATED"};
    T_ASSERT(s_wait_statuses(which, ended, NULL, 1));
    char list[512];
    s_containers(list, sizeof list);
    T_EQ_STR(list, "");
    T_ASSERT(s_nothing_left(s_kernels[E]));
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
    T_RUN(test_sessions_run);
    T_RUN(test_agent_killed_and_restarted);
    T_RUN(test_settled_after_restart);
    T_RUN(test_adopted_sessions_answer);
    T_RUN(test_requests_for_another_agent_refused);
    T_RUN(test_destroy_leaves_nothing);
    T_RUN(test_create_lost_with_the_agent);
    bus_rpc_client_destroy(&s_agent_client);
    bus_rpc_client_destroy(&s_client);
    bool clean =
        harness_teardown(&s_scheduler, &s_agent, s_bridge, s_dir, t_failures > 0);
    return clean ? T_DONE() : 1;
}
