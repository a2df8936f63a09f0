/*  =========================================================================
    kernels_test - the agent's kernel.* service with real runc containers:
    create (kernel.started), execute in the busybox image, logs, list,
    quick answers (kernel.list, an execute, heartbeats) while 20 kernels
    are being created, all of which then run and are destroyed cleanly,
    the file methods (upload, download, download_single, list_files, and
    paths that leave home refused), the terminal (pty_write opens, resizes
    and types; pty_read waits for output, keeps the last 256 KiB, answers
    closed when the kernel goes), restart in place (files kept, processes
    gone, no lifecycle event), destroy (kernel.terminated, nothing left on
    the host, the id never created again), a kernel that exits by itself
    (self-terminated), an agent killed and restarted (the kernel is adopted,
    runs code again and restarts; one that died meanwhile is
    lost-on-restart), and an unknown image. Under bad input: a batch task
    killed by the OOM killer (oom-killed), a kernel that exits by SIGKILL
    after one of its runs was OOM-killed (self-terminated all the same), and
    code deaf to SIGINT (a plain interrupt leaves it, a forced one kills it
    and frees the kernel). Needs root, runc and tini; skips otherwise.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "bus.h"
#include "harness.h"
#include "t.h"

#define CALL_MS  60000
#define EVENT_MS 15000
#define IMAGE    "local.backplane/library/busybox:latest"
#define MAX_SEEN 256
//  A memory limit and a shell command that allocates well past it.
#define SMALL_MEM "67108864"
#define MEM_HOG   "x=$(yes | head -c 200000000); echo ${#x}"

static char *s_dir;
static harness_proc_t s_scheduler, s_agent;
static harness_endpoints_t s_sched; //  the scheduler, which hosts the bus
static char s_rpc[160];
static char s_bridge[16];
static const char *s_cidr; //  the agent's kernels' subnet
static bus_sub_t *s_sub;
static bus_rpc_client_t *s_client;

//  The kernel.* events seen so far.
typedef struct {
    char topic[BUS_TOPIC_MAX];
    char kernel_id[72];
    char reason[72];
    int64_t exit_code;
    bool oom_killed;
} s_seen_t;
static s_seen_t s_seen[MAX_SEEN];
static size_t s_nseen;

static void
s_drain(void)
{
    bus_event_t event;
    bus_error_t err;
    while (bus_sub_recv(s_sub, &event, &err) == BUS_OK) {
        if (s_nseen == MAX_SEEN)
            continue;
        s_seen_t *seen = &s_seen[s_nseen];
        memset(seen, 0, sizeof *seen);
        snprintf(seen->topic, sizeof seen->topic, "%s", event.topic);
        if (strcmp(event.topic, PROTO_KERNEL_STARTED) == 0) {
            proto_kernel_started_t started;
            if (proto_kernel_started_decode(&started, event.body, event.body_size,
                                            &err) == BUS_OK) {
                snprintf(seen->kernel_id, sizeof seen->kernel_id, "%s",
                         started.kernel_id);
                proto_kernel_started_clear(&started);
                s_nseen++;
            }
        } else if (strcmp(event.topic, PROTO_KERNEL_STATS) == 0) {
            proto_kernel_stats_t stats;
            if (proto_kernel_stats_decode(&stats, event.body, event.body_size, &err) ==
                BUS_OK) {
                snprintf(seen->kernel_id, sizeof seen->kernel_id, "%s", stats.kernel_id);
                seen->exit_code = (int64_t) stats.pids;
                proto_kernel_stats_clear(&stats);
                //  One per kernel is enough; more would crowd the others out.
                bool known = false;
                for (size_t i = 0; i < s_nseen && !known; i++)
                    known = strcmp(s_seen[i].topic, PROTO_KERNEL_STATS) == 0 &&
                            strcmp(s_seen[i].kernel_id, seen->kernel_id) == 0;
                if (!known)
                    s_nseen++;
            }
        } else if (strcmp(event.topic, PROTO_KERNEL_TERMINATED) == 0) {
            proto_kernel_terminated_t ended;
            if (proto_kernel_terminated_decode(&ended, event.body, event.body_size,
                                               &err) == BUS_OK) {
                snprintf(seen->kernel_id, sizeof seen->kernel_id, "%s", ended.kernel_id);
                snprintf(seen->reason, sizeof seen->reason, "%s",
                         ended.reason ? ended.reason : "");
                seen->exit_code = ended.exit_code;
                seen->oom_killed = ended.oom_killed;
                proto_kernel_terminated_clear(&ended);
                s_nseen++;
            }
        }
    }
}

//  Waits for topic about kernel_id; the event, or NULL.
static const s_seen_t *
s_wait_event(const char *topic, const char *kernel_id)
{
    int64_t deadline = bus_clock_mono_ms() + EVENT_MS;
    do {
        s_drain();
        for (size_t i = 0; i < s_nseen; i++)
            if (strcmp(s_seen[i].topic, topic) == 0 &&
                strcmp(s_seen[i].kernel_id, kernel_id) == 0)
                return &s_seen[i];
        harness_pause_ms(20);
    } while (bus_clock_mono_ms() < deadline);
    return NULL;
}

//  Calls method with the body writer holds; the reply body into *reply_p.
static int
s_call(const char *method, bus_writer_t *writer, zchunk_t **reply_p, bus_error_t *err)
{
    int rc = bus_rpc_client_call_sync(s_client, method, bus_writer_data(writer),
                                      bus_writer_size(writer), CALL_MS, reply_p, err);
    bus_writer_destroy(&writer);
    return rc;
}

//  kernel.create's body for kernel id with mem bytes of memory (a batch
//  kernel when startup_command), into writer.
static void
s_create_body(const char *id,
              const char *image,
              const char *startup_command,
              const char *mem,
              bus_writer_t *writer)
{
    proto_kv_t slots[] = {{"cpu", "1"}, {"mem", (char *) mem}};
    proto_kv_t environ[] = {{"GREETING", "hi there"}};
    proto_kernel_create_req_t in;
    proto_kernel_create_req_init(&in);
    in.kernel_id = id;
    in.session_id = "session-1";
    in.image = image;
    in.slots = slots;
    in.slots_count = 2;
    in.environ = environ;
    in.environ_count = 1;
    in.access_key = "AKTEST";
    if (startup_command) {
        in.session_type = "batch";
        in.startup_command = startup_command;
    }
    T_EQ_INT(proto_kernel_create_req_write(&in, writer), 0);
}

//  Creates kernel id with mem bytes of memory (a batch kernel when
//  startup_command); the status, the reply into *out when given.
static int
s_create_mem(const char *id,
             const char *image,
             const char *startup_command,
             const char *mem,
             proto_kernel_create_rep_t *out)
{
    bus_writer_t *writer = bus_writer_new();
    s_create_body(id, image, startup_command, mem, writer);
    zchunk_t *reply = NULL;
    bus_error_t err;
    int rc = s_call(PROTO_KERNEL_CREATE, writer, &reply, &err);
    if (rc != BUS_OK)
        fprintf(stderr, "# create %s: %d %s\n", id, rc, err.detail);
    if (rc == BUS_OK && out)
        rc = proto_kernel_create_rep_decode(out, zchunk_data(reply), zchunk_size(reply),
                                            &err);
    zchunk_destroy(&reply);
    return rc;
}

static int
s_create_ex(const char *id,
            const char *image,
            const char *startup_command,
            proto_kernel_create_rep_t *out)
{
    return s_create_mem(id, image, startup_command, "268435456", out);
}

static int
s_create(const char *id, const char *image, proto_kernel_create_rep_t *out)
{
    return s_create_ex(id, image, NULL, out);
}

//  Runs code in mode, waiting wait_ms at most; the §3.4 result text (caller
//  frees) or NULL.
static char *
s_execute_ms(const char *id,
             const char *run_id,
             const char *mode,
             const char *code,
             int wait_ms,
             int *rc_p)
{
    proto_kernel_execute_req_t in;
    proto_kernel_execute_req_init(&in);
    in.kernel_id = id;
    in.run_id = run_id;
    in.mode = mode;
    in.code = code;
    in.wait_ms = (uint64_t) wait_ms;
    bus_writer_t *writer = bus_writer_new();
    if (proto_kernel_execute_req_write(&in, writer) != 0)
        return NULL; //  refused by the schema: the caller sees a failure
    in.kernel_id = in.run_id = in.mode = in.code = NULL;
    proto_kernel_execute_req_clear(&in);
    zchunk_t *reply = NULL;
    bus_error_t err;
    int rc = s_call(PROTO_KERNEL_EXECUTE, writer, &reply, &err);
    if (rc_p)
        *rc_p = rc;
    char *result = NULL;
    proto_kernel_execute_rep_t out;
    if (rc == BUS_OK &&
        proto_kernel_execute_rep_decode(&out, zchunk_data(reply), zchunk_size(reply),
                                        &err) == BUS_OK) {
        result = strdup(out.result);
        proto_kernel_execute_rep_clear(&out);
    } else if (rc != BUS_OK)
        fprintf(stderr, "# execute %s %s: %d %s\n", id, mode, rc, err.detail);
    zchunk_destroy(&reply);
    return result;
}

//  s_execute_ms waiting 10 s at most.
static char *
s_execute(
    const char *id, const char *run_id, const char *mode, const char *code, int *rc_p)
{
    return s_execute_ms(id, run_id, mode, code, 10000, rc_p);
}

//  kernel.interrupt of run_id (NULL: whatever runs), forced or not. The status.
static int
s_interrupt(const char *id, const char *run_id, bool force)
{
    proto_kernel_interrupt_req_t in;
    proto_kernel_interrupt_req_init(&in);
    in.kernel_id = id;
    in.run_id = run_id;
    in.force = force;
    bus_writer_t *writer = bus_writer_new();
    if (proto_kernel_interrupt_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    in.kernel_id = in.run_id = NULL;
    proto_kernel_interrupt_req_clear(&in);
    zchunk_t *reply = NULL;
    bus_error_t err;
    int rc = s_call(PROTO_KERNEL_INTERRUPT, writer, &reply, &err);
    if (rc != BUS_OK)
        fprintf(stderr, "# interrupt %s: %d %s\n", id, rc, err.detail);
    zchunk_destroy(&reply);
    return rc;
}

static int
s_destroy(const char *id, int64_t *exit_code)
{
    proto_kernel_destroy_req_t in;
    proto_kernel_destroy_req_init(&in);
    in.kernel_id = id;
    in.grace_ms = 2000;
    bus_writer_t *writer = bus_writer_new();
    if (proto_kernel_destroy_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    in.kernel_id = NULL;
    proto_kernel_destroy_req_clear(&in);
    zchunk_t *reply = NULL;
    bus_error_t err;
    int rc = s_call(PROTO_KERNEL_DESTROY, writer, &reply, &err);
    proto_kernel_destroy_rep_t out;
    if (rc == BUS_OK && exit_code &&
        proto_kernel_destroy_rep_decode(&out, zchunk_data(reply), zchunk_size(reply),
                                        &err) == BUS_OK)
        *exit_code = out.exit_code;
    zchunk_destroy(&reply);
    return rc;
}

static int
s_restart(const char *id)
{
    proto_kernel_restart_req_t in;
    proto_kernel_restart_req_init(&in);
    in.kernel_id = id;
    in.grace_ms = 2000;
    bus_writer_t *writer = bus_writer_new();
    if (proto_kernel_restart_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    in.kernel_id = NULL;
    proto_kernel_restart_req_clear(&in);
    zchunk_t *reply = NULL;
    bus_error_t err;
    int rc = s_call(PROTO_KERNEL_RESTART, writer, &reply, &err);
    if (rc != BUS_OK)
        fprintf(stderr, "# restart %s: %d %s\n", id, rc, err.detail);
    zchunk_destroy(&reply);
    return rc;
}

//  How many events of topic about kernel_id were seen so far.
static size_t
s_count_events(const char *topic, const char *kernel_id)
{
    s_drain();
    size_t count = 0;
    for (size_t i = 0; i < s_nseen; i++)
        if (strcmp(s_seen[i].topic, topic) == 0 &&
            strcmp(s_seen[i].kernel_id, kernel_id) == 0)
            count++;
    return count;
}

//  `runc list` under the agent's root prints no container.
static bool
s_runc_empty(void)
{
    char command[1024];
    snprintf(command, sizeof command,
             "test -z \"$(runc --root %s/agent-k/runc list -q 2>/dev/null)\"", s_dir);
    return harness_shell(command) == 0;
}

//  Nothing of kernel id is left: dir, netns, mount, cgroup.
static bool
s_nothing_left(const char *id)
{
    char command[1024];
    snprintf(command, sizeof command,
             "test ! -e %s/agent-k/kernels/%s && test ! -e /run/netns/bp-%s &&"
             " ! grep -q 'kernels/%s/' /proc/self/mountinfo &&"
             " ! ls -d /sys/fs/cgroup/*/backplane/%s /sys/fs/cgroup/backplane/%s"
             " >/dev/null 2>&1",
             s_dir, id, id, id, id, id);
    return harness_shell(command) == 0;
}

static bool
s_start_agent(void)
{
    char bridge[64], cidr[64];
    snprintf(bridge, sizeof bridge, "agent.network.bridge=%s", s_bridge);
    if (!s_cidr)
        s_cidr = harness_subnet(); //  the same one after a restart
    snprintf(cidr, sizeof cidr, "agent.network.cidr=%s", s_cidr ? s_cidr : "");
    const char *extra[] = {"agent.stats_ms=200", bridge, cidr, NULL};
    harness_bus_t bus = harness_endpoints_bus(&s_sched);
    char line[HARNESS_LINE_MAX];
    if (harness_agent_start(&s_agent, s_dir, "agent-k", &bus, extra, line, sizeof line) !=
            0 ||
        !harness_field(line, "rpc", s_rpc, sizeof s_rpc))
        return false;
    bus_rpc_client_destroy(&s_client);
    s_client = bus_rpc_client_new(s_rpc, "test/kernels", NULL);
    return s_client != NULL;
}

static void
test_start(void)
{
    s_dir = harness_tmpdir("kernels");
    T_ASSERT(s_dir);
    snprintf(s_bridge, sizeof s_bridge, "bpk%d", (int) (getpid() % 100000));
    T_EQ_INT(harness_busybox_images(s_dir), 0);

    T_EQ_INT(
        harness_scheduler_start(&s_scheduler, s_dir, "scheduler", NULL, NULL, &s_sched),
        0);
    s_sub = bus_sub_new(s_sched.hub_subscribe, NULL);
    T_ASSERT(s_sub);
    T_ASSERT(bus_sub_subscribe(s_sub, "kernel.", NULL, NULL) == 0);
    T_ASSERT(s_start_agent());
}

static void
test_create_and_started(void)
{
    proto_kernel_create_rep_t out;
    T_EQ_INT(s_create("k1", IMAGE, &out), BUS_OK);
    T_EQ_STR(out.kernel_id, "k1");
    char prefix[32];
    harness_subnet_host(s_cidr, 0, prefix, sizeof prefix);
    T_CONTAINS(out.kernel_host, prefix);
    char host[64];
    snprintf(host, sizeof host, "%s", out.kernel_host);
    proto_kernel_create_rep_clear(&out);
    T_ASSERT(s_wait_event(PROTO_KERNEL_STARTED, "k1"));
    //  Again: the same answer, no second start.
    T_EQ_INT(s_create("k1", IMAGE, &out), BUS_OK);
    T_EQ_STR(out.kernel_host, host);
    proto_kernel_create_rep_clear(&out);
}

static void
test_execute(void)
{
    char *result = s_execute("k1", "r1", "query", "echo hello", NULL);
    T_ASSERT(result);
    T_CONTAINS(result, "\"status\":\"finished\"");
    T_CONTAINS(result, "hello");
    T_CONTAINS(result, "\"exitCode\":0");
    free(result);
    result = s_execute("k1", "r2", "query",
                       "echo $BACKENDAI_KERNEL_ID $BACKENDAI_SESSION_ID $GREETING $HOME;"
                       " id -u; exit 3",
                       NULL);
    T_ASSERT(result);
    T_CONTAINS(result, "k1 session-1 hi there /home/work");
    T_CONTAINS(result, "1000");
    T_CONTAINS(result, "\"exitCode\":3");
    free(result);
    //  A run longer than wait_ms continues.
    proto_kernel_execute_req_t in;
    proto_kernel_execute_req_init(&in);
    in.kernel_id = "k1";
    in.run_id = "r3";
    in.mode = "query";
    in.code = "echo one; sleep 1; echo two";
    in.wait_ms = 200;
    bus_writer_t *writer = bus_writer_new();
    T_EQ_INT(proto_kernel_execute_req_write(&in, writer), 0);
    in.kernel_id = in.run_id = in.mode = in.code = NULL;
    proto_kernel_execute_req_clear(&in);
    zchunk_t *reply = NULL;
    bus_error_t err;
    T_EQ_INT(s_call(PROTO_KERNEL_EXECUTE, writer, &reply, &err), BUS_OK);
    proto_kernel_execute_rep_t out;
    T_EQ_INT(proto_kernel_execute_rep_decode(&out, zchunk_data(reply), zchunk_size(reply),
                                             &err),
             BUS_OK);
    T_CONTAINS(out.result, "\"status\":\"continued\"");
    proto_kernel_execute_rep_clear(&out);
    zchunk_destroy(&reply);
    result = s_execute("k1", "r3", "continue", "", NULL);
    T_ASSERT(result);
    T_CONTAINS(result, "two");
    T_CONTAINS(result, "\"status\":\"finished\"");
    free(result);
    result = s_execute("k1", "r4", "complete", "pri", NULL);
    T_ASSERT(result);
    T_CONTAINS(result, "\"completions\":[]");
    free(result);
    int rc = 0;
    result = s_execute("nope", "r5", "query", "true", &rc);
    T_ASSERT(!result);
    T_EQ_INT(rc, BUS_STATUS_NOT_FOUND);
}

static void
test_logs_list_interrupt(void)
{
    proto_kernel_logs_req_t in;
    proto_kernel_logs_req_init(&in);
    in.kernel_id = "k1";
    in.max_bytes = 1000;
    bus_writer_t *writer = bus_writer_new();
    T_EQ_INT(proto_kernel_logs_req_write(&in, writer), 0);
    in.kernel_id = NULL;
    proto_kernel_logs_req_clear(&in);
    zchunk_t *reply = NULL;
    bus_error_t err;
    T_EQ_INT(s_call(PROTO_KERNEL_LOGS, writer, &reply, &err), BUS_OK);
    proto_kernel_logs_rep_t logs;
    T_EQ_INT(
        proto_kernel_logs_rep_decode(&logs, zchunk_data(reply), zchunk_size(reply), &err),
        BUS_OK);
    T_ASSERT(logs.logs_size <= 1000);
    proto_kernel_logs_rep_clear(&logs);
    zchunk_destroy(&reply);

    writer = bus_writer_new();
    proto_kernel_list_req_t list_in;
    proto_kernel_list_req_init(&list_in);
    T_EQ_INT(proto_kernel_list_req_write(&list_in, writer), 0);
    T_EQ_INT(s_call(PROTO_KERNEL_LIST, writer, &reply, &err), BUS_OK);
    proto_kernel_list_rep_t list;
    T_EQ_INT(
        proto_kernel_list_rep_decode(&list, zchunk_data(reply), zchunk_size(reply), &err),
        BUS_OK);
    T_EQ_INT(list.kernels_count, 1);
    if (list.kernels_count == 1) {
        T_EQ_STR(list.kernels[0].kernel_id, "k1");
        T_EQ_STR(list.kernels[0].status, "running");
    }
    proto_kernel_list_rep_clear(&list);
    zchunk_destroy(&reply);

    proto_kernel_interrupt_req_t stop;
    proto_kernel_interrupt_req_init(&stop);
    stop.kernel_id = "k1";
    writer = bus_writer_new();
    T_EQ_INT(proto_kernel_interrupt_req_write(&stop, writer), 0);
    stop.kernel_id = NULL;
    proto_kernel_interrupt_req_clear(&stop);
    T_EQ_INT(s_call(PROTO_KERNEL_INTERRUPT, writer, &reply, &err), BUS_OK);
    zchunk_destroy(&reply);
}

//  ---------------------------------------------------------------------------
//  The agent stays responsive while it creates kernels: it creates and
//  removes containers off its loop.

#define BUSY_KERNELS 20
//  A quick answer (kernel.list, an execute on k1, a heartbeat) must come
//  within this long while the creates go on, and within a quarter of the
//  time they take together.
#define BUSY_QUICK_MS 1000

//  An asynchronous call's answer: its status and when it came.
typedef struct {
    bool done;
    int status;
    int64_t sent_us;
    int64_t at_us;
} s_answer_t;

static void
s_on_answer(void *arg, const bus_reply_t *reply)
{
    s_answer_t *answer = arg;
    answer->done = true;
    answer->status = reply->status;
    answer->at_us = bus_clock_mono_us();
    if (reply->status != BUS_OK)
        fprintf(stderr, "# busy call: %d %s\n", reply->status, reply->detail);
}

//  Sends method with writer's body (destroyed) without waiting.
static bool
s_send(const char *method, bus_writer_t *writer, s_answer_t *answer)
{
    memset(answer, 0, sizeof *answer);
    answer->sent_us = bus_clock_mono_us();
    uint64_t call =
        bus_rpc_client_call(s_client, method, bus_writer_data(writer),
                            bus_writer_size(writer), CALL_MS, s_on_answer, answer);
    bus_writer_destroy(&writer);
    return call > 0;
}

//  How many of count answers have not come.
static int
s_unanswered(const s_answer_t *answers, int count)
{
    int left = 0;
    for (int i = 0; i < count; i++)
        left += !answers[i].done;
    return left;
}

//  The agent's heartbeats seen while creates were going on: how many, the
//  last one's arrival, the longest gap between two.
typedef struct {
    int count;
    int64_t last_us;
    int64_t gap_us;
} s_beats_t;

//  Serves the client and notes the heartbeats into seen until answer came
//  (or CALL_MS).
static bool
s_busy_wait(s_answer_t *answer, bus_sub_t *beats, s_beats_t *seen)
{
    int64_t deadline = bus_clock_mono_ms() + CALL_MS;
    while (!answer->done && bus_clock_mono_ms() < deadline) {
        zsock_t *socks[] = {bus_rpc_client_sock(s_client), bus_sub_sock(beats)};
        zmq_pollitem_t items[] = {{zsock_resolve(socks[0]), 0, ZMQ_POLLIN, 0},
                                  {zsock_resolve(socks[1]), 0, ZMQ_POLLIN, 0}};
        zmq_poll(items, 2, 10);
        bus_rpc_client_dispatch(s_client);
        bus_rpc_client_tick(s_client);
        bus_event_t event;
        bus_error_t err;
        while (bus_sub_recv(beats, &event, &err) == BUS_OK) {
            int64_t now = bus_clock_mono_us();
            if (seen->last_us > 0 && now - seen->last_us > seen->gap_us)
                seen->gap_us = now - seen->last_us;
            seen->last_us = now;
            seen->count++;
        }
    }
    return answer->done;
}

//  Destroys the kernels of ids that were created (answered OK), all at
//  once. True when every destroy was answered OK, every kernel ended
//  user-requested and nothing of them is left.
static bool
s_busy_destroy(char ids[][16], const s_answer_t *creates, int count)
{
    static s_answer_t destroys[BUSY_KERNELS];
    bool ok = true;
    for (int i = 0; i < count; i++) {
        destroys[i] = (s_answer_t){.done = true, .status = BUS_OK};
        if (!creates[i].done || creates[i].status != BUS_OK)
            continue;
        proto_kernel_destroy_req_t in;
        proto_kernel_destroy_req_init(&in);
        in.kernel_id = ids[i];
        in.grace_ms = 2000;
        bus_writer_t *writer = bus_writer_new();
        if (proto_kernel_destroy_req_write(&in, writer) != 0)
            return false; //  refused by the schema: the caller sees a failure
        in.kernel_id = NULL;
        proto_kernel_destroy_req_clear(&in);
        ok = s_send(PROTO_KERNEL_DESTROY, writer, &destroys[i]) && ok;
    }
    int64_t deadline = bus_clock_mono_ms() + CALL_MS;
    while (s_unanswered(destroys, count) > 0 && bus_clock_mono_ms() < deadline) {
        bus_rpc_client_dispatch(s_client);
        bus_rpc_client_tick(s_client);
        harness_pause_ms(10);
    }
    for (int i = 0; i < count; i++) {
        if (!creates[i].done || creates[i].status != BUS_OK)
            continue;
        const s_seen_t *ended = s_wait_event(PROTO_KERNEL_TERMINATED, ids[i]);
        bool clean = destroys[i].done && destroys[i].status == BUS_OK && ended &&
                     strcmp(ended->reason, "user-requested") == 0 &&
                     s_nothing_left(ids[i]);
        if (!clean)
            fprintf(stderr, "# %s not destroyed cleanly\n", ids[i]);
        ok = ok && clean;
    }
    return ok;
}

static void
test_answers_while_creating(void)
{
    bus_sub_t *beats = bus_sub_new(s_sched.hub_subscribe, NULL);
    T_ASSERT(beats);
    T_ASSERT(bus_sub_subscribe(beats, PROTO_AGENT_HEARTBEAT, NULL, NULL) == 0);
    //  Once the subscription holds, a heartbeat comes every 100 ms.
    bus_event_t event;
    bus_error_t err;
    int64_t deadline = bus_clock_mono_ms() + EVENT_MS;
    while (bus_sub_recv(beats, &event, &err) != BUS_OK && bus_clock_mono_ms() < deadline)
        harness_pause_ms(10);
    s_beats_t seen = {.last_us = bus_clock_mono_us()};

    static s_answer_t creates[BUSY_KERNELS];
    char ids[BUSY_KERNELS][16];
    bool sent = true;
    int64_t start = bus_clock_mono_us();
    for (int i = 0; i < BUSY_KERNELS; i++) {
        snprintf(ids[i], sizeof ids[i], "busy%d", i + 1);
        bus_writer_t *writer = bus_writer_new();
        s_create_body(ids[i], IMAGE, NULL, "268435456", writer);
        sent = s_send(PROTO_KERNEL_CREATE, writer, &creates[i]) && sent;
    }
    //  Quick calls one after the other, a list then an execute on k1, until
    //  every create is answered: each answer's latency, and how many creates
    //  it came before.
    int64_t list_max = 0, exec_max = 0;
    int lists = 0, execs = 0, lists_early = 0, execs_early = 0, first_pending = -1;
    bool quick_ok = sent;
    for (int round = 0; quick_ok && s_unanswered(creates, BUSY_KERNELS) > 0; round++) {
        s_answer_t quick;
        bus_writer_t *writer = bus_writer_new();
        bool list = round % 2 == 0;
        if (list) {
            proto_kernel_list_req_t in;
            proto_kernel_list_req_init(&in);
            T_EQ_INT(proto_kernel_list_req_write(&in, writer), 0);
            proto_kernel_list_req_clear(&in);
        } else {
            char run[32];
            snprintf(run, sizeof run, "q%d", round);
            proto_kernel_execute_req_t in;
            proto_kernel_execute_req_init(&in);
            in.kernel_id = "k1";
            in.run_id = run;
            in.mode = "query";
            in.code = "echo quick";
            in.wait_ms = 5000;
            T_EQ_INT(proto_kernel_execute_req_write(&in, writer), 0);
            in.kernel_id = in.run_id = in.mode = in.code = NULL;
            proto_kernel_execute_req_clear(&in);
        }
        quick_ok =
            s_send(list ? PROTO_KERNEL_LIST : PROTO_KERNEL_EXECUTE, writer, &quick) &&
            s_busy_wait(&quick, beats, &seen) && quick.status == BUS_OK;
        int64_t took = quick.at_us - quick.sent_us;
        int pending = s_unanswered(creates, BUSY_KERNELS);
        if (first_pending < 0)
            first_pending = pending;
        if (list) {
            lists++;
            list_max = took > list_max ? took : list_max;
            lists_early += pending >= BUSY_KERNELS / 2;
        } else {
            execs++;
            exec_max = took > exec_max ? took : exec_max;
            execs_early += pending >= BUSY_KERNELS / 2;
        }
    }
    //  Whatever happened above, the creates' answers, for the clean-up.
    deadline = bus_clock_mono_ms() + CALL_MS;
    while (s_unanswered(creates, BUSY_KERNELS) > 0 && bus_clock_mono_ms() < deadline) {
        bus_rpc_client_dispatch(s_client);
        bus_rpc_client_tick(s_client);
        harness_pause_ms(10);
    }
    bus_sub_destroy(&beats);
    int64_t last_create = 0;
    int created = 0;
    for (int i = 0; i < BUSY_KERNELS; i++) {
        created += creates[i].done && creates[i].status == BUS_OK;
        last_create = creates[i].at_us > last_create ? creates[i].at_us : last_create;
    }
    int64_t total = last_create - start;
    fprintf(stderr,
            "# %d creates answered in %.0f ms; kernel.list x%d max %.1f ms, execute"
            " x%d max %.1f ms, %d heartbeats, gap max %.1f ms; first quick answer with"
            " %d creates pending\n",
            created, total / 1e3, lists, list_max / 1e3, execs, exec_max / 1e3,
            seen.count, seen.gap_us / 1e3, first_pending);
    //  All of them run (each answers code), then go cleanly, destroyed at once.
    bool running = true;
    for (int i = 0; i < BUSY_KERNELS; i++) {
        if (!creates[i].done || creates[i].status != BUS_OK)
            continue;
        char *result = s_execute(ids[i], "r1", "query", "echo alive", NULL);
        running = running && s_wait_event(PROTO_KERNEL_STARTED, ids[i]) && result &&
                  strstr(result, "alive");
        free(result);
    }
    bool destroyed = s_busy_destroy(ids, creates, BUSY_KERNELS);

    T_ASSERT(quick_ok);
    T_EQ_INT(created, BUSY_KERNELS);
    T_ASSERT(running);
    T_ASSERT(destroyed);
    //  Answered while the creates were going on, not after them.
    T_ASSERT(first_pending >= BUSY_KERNELS / 2);
    T_ASSERT(lists_early > 0);
    T_ASSERT(execs_early > 0);
    T_ASSERT(list_max < BUSY_QUICK_MS * 1000 && list_max * 4 < total);
    T_ASSERT(exec_max < BUSY_QUICK_MS * 1000 && exec_max * 4 < total);
    //  The agent kept heartbeating through the creates (a gap is measured
    //  only between beats that came).
    T_ASSERT(seen.count >= 1);
    T_ASSERT(seen.gap_us < BUSY_QUICK_MS * 1000 && seen.gap_us * 4 < total);
    //  k1 is the one left.
    zchunk_t *reply = NULL;
    bus_writer_t *writer = bus_writer_new();
    proto_kernel_list_req_t list_in;
    proto_kernel_list_req_init(&list_in);
    T_EQ_INT(proto_kernel_list_req_write(&list_in, writer), 0);
    T_EQ_INT(s_call(PROTO_KERNEL_LIST, writer, &reply, &err), BUS_OK);
    proto_kernel_list_rep_t list;
    T_EQ_INT(
        proto_kernel_list_rep_decode(&list, zchunk_data(reply), zchunk_size(reply), &err),
        BUS_OK);
    T_EQ_INT(list.kernels_count, 1);
    proto_kernel_list_rep_clear(&list);
    zchunk_destroy(&reply);
}

//  Uploads count files (path, data as text) to kernel id. The status.
static int
s_upload(const char *id, const char *const *items, size_t count)
{
    proto_kernel_file_t files[4];
    proto_kernel_upload_req_t in;
    proto_kernel_upload_req_init(&in);
    in.kernel_id = id;
    for (size_t i = 0; i < count; i++) {
        files[i].path = items[2 * i];
        files[i].data = (const uint8_t *) items[2 * i + 1];
        files[i].data_size = strlen(items[2 * i + 1]);
    }
    in.files = files;
    in.files_count = count;
    bus_writer_t *writer = bus_writer_new();
    if (proto_kernel_upload_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    zchunk_t *reply = NULL;
    bus_error_t err;
    int rc = s_call(PROTO_KERNEL_UPLOAD, writer, &reply, &err);
    if (rc != BUS_OK)
        fprintf(stderr, "# upload %s: %d %s\n", id, rc, err.detail);
    zchunk_destroy(&reply);
    return rc;
}

//  One file's bytes (caller frees *data_p, NUL-terminated). The status.
static int
s_download_single(const char *id, const char *path, char **data_p, size_t *size_p)
{
    *data_p = NULL;
    proto_kernel_download_single_req_t in;
    proto_kernel_download_single_req_init(&in);
    in.kernel_id = id;
    in.path = path;
    bus_writer_t *writer = bus_writer_new();
    if (proto_kernel_download_single_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    zchunk_t *reply = NULL;
    bus_error_t err;
    int rc = s_call(PROTO_KERNEL_DOWNLOAD_SINGLE, writer, &reply, &err);
    proto_kernel_download_single_rep_t out;
    if (rc == BUS_OK &&
        (rc = proto_kernel_download_single_rep_decode(
             &out, zchunk_data(reply), zchunk_size(reply), &err)) == BUS_OK) {
        *data_p = calloc(1, out.data_size + 1);
        if (*data_p && out.data_size)
            memcpy(*data_p, out.data, out.data_size);
        *size_p = out.data_size;
        proto_kernel_download_single_rep_clear(&out);
    }
    zchunk_destroy(&reply);
    return rc;
}

//  Downloads path as a tar archive into file tar_path. The status.
static int
s_download(const char *id, const char *path, const char *tar_path)
{
    const char *paths[] = {path};
    proto_kernel_download_req_t in;
    proto_kernel_download_req_init(&in);
    in.kernel_id = id;
    in.paths = paths;
    in.paths_count = 1;
    bus_writer_t *writer = bus_writer_new();
    if (proto_kernel_download_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    zchunk_t *reply = NULL;
    bus_error_t err;
    int rc = s_call(PROTO_KERNEL_DOWNLOAD, writer, &reply, &err);
    proto_kernel_download_rep_t out;
    if (rc == BUS_OK &&
        (rc = proto_kernel_download_rep_decode(&out, zchunk_data(reply),
                                               zchunk_size(reply), &err)) == BUS_OK) {
        if (out.files_count == 1 && strcmp(out.files[0].path, path) == 0) {
            FILE *file = fopen(tar_path, "we");
            if (!file || fwrite(out.files[0].data, 1, out.files[0].data_size, file) !=
                             out.files[0].data_size)
                rc = BUS_STATUS_INTERNAL;
            if (file)
                fclose(file);
        } else
            rc = BUS_STATUS_INTERNAL;
        proto_kernel_download_rep_clear(&out);
    }
    zchunk_destroy(&reply);
    return rc;
}

//  Lists directory path: the files JSON (caller decrefs) and abspath. The status.
static int
s_list_files(
    const char *id, const char *path, json_t **files_p, char *abspath, size_t size)
{
    *files_p = NULL;
    proto_kernel_list_files_req_t in;
    proto_kernel_list_files_req_init(&in);
    in.kernel_id = id;
    in.path = path;
    bus_writer_t *writer = bus_writer_new();
    if (proto_kernel_list_files_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    zchunk_t *reply = NULL;
    bus_error_t err;
    int rc = s_call(PROTO_KERNEL_LIST_FILES, writer, &reply, &err);
    proto_kernel_list_files_rep_t out;
    if (rc == BUS_OK &&
        (rc = proto_kernel_list_files_rep_decode(&out, zchunk_data(reply),
                                                 zchunk_size(reply), &err)) == BUS_OK) {
        *files_p = json_loads(out.files, 0, NULL);
        snprintf(abspath, size, "%s", out.abspath ? out.abspath : "");
        proto_kernel_list_files_rep_clear(&out);
    }
    zchunk_destroy(&reply);
    return rc;
}

static void
test_files(void)
{
    const char *items[] = {"hello.txt", "hi\n", "data/in.txt", "inside data\n"};
    T_EQ_INT(s_upload("k1", items, 2), BUS_OK);
    char *result =
        s_execute("k1", "f1", "query",
                  "cat data/in.txt; ls -lnd data data/in.txt | tr -s ' '", NULL);
    T_ASSERT(result);
    T_CONTAINS(result, "inside data");
    T_CONTAINS(result, "drwxr-xr-x");
    T_CONTAINS(result, " 1000 1000 12 "); //  the file: owner, group, size
    //  The directory made for it belongs to the kernel's user too.
    const char *owned = result ? strstr(result, " 1000 1000 ") : NULL;
    T_ASSERT(owned && strstr(owned + 1, " 1000 1000 "));
    T_CONTAINS(result, "\"exitCode\":0");
    free(result);

    char *data = NULL;
    size_t size = 0;
    T_EQ_INT(s_download_single("k1", "hello.txt", &data, &size), BUS_OK);
    T_EQ_INT(size, 3);
    T_EQ_STR(data ? data : "", "hi\n");
    free(data);

    char tar_path[600], command[1400];
    snprintf(tar_path, sizeof tar_path, "%s/download.tar", s_dir);
    T_EQ_INT(s_download("k1", "data", tar_path), BUS_OK);
    snprintf(command, sizeof command,
             "tar -tf %s | grep -qx 'data/in.txt' && tar -xOf %s data/in.txt |"
             " grep -qx 'inside data'",
             tar_path, tar_path);
    T_EQ_INT(harness_shell(command), 0);

    json_t *files = NULL;
    char abspath[256] = "";
    T_EQ_INT(s_list_files("k1", ".", &files, abspath, sizeof abspath), BUS_OK);
    T_EQ_STR(abspath, "/home/work");
    T_ASSERT(json_is_array(files));
    const char *mode = NULL;
    size_t index;
    json_t *entry;
    json_array_foreach(files, index, entry)
    {
        const char *name = json_string_value(json_object_get(entry, "filename"));
        if (name && strcmp(name, "data") == 0)
            mode = json_string_value(json_object_get(entry, "mode"));
    }
    T_ASSERT(mode && mode[0] == 'd');
    json_decref(files);
    T_EQ_INT(s_list_files("k1", "/home/work/./data/", &files, abspath, sizeof abspath),
             BUS_OK);
    T_EQ_STR(abspath, "/home/work/data");
    T_EQ_INT(json_array_size(files), 1);
    json_decref(files);

    //  Written by the container, read by the agent.
    result = s_execute("k1", "f2", "query", "echo made > made.txt", NULL);
    T_ASSERT(result);
    free(result);
    T_EQ_INT(s_download_single("k1", "made.txt", &data, &size), BUS_OK);
    T_EQ_STR(data ? data : "", "made\n");
    free(data);

    //  Out of home: refused, and nothing written for a request with one bad path.
    int rc = s_download_single("k1", "../../etc/passwd", &data, &size);
    free(data);
    T_ASSERT(rc == BUS_STATUS_INVALID || rc == BUS_STATUS_NOT_FOUND);
    rc = s_download_single("k1", "/etc/passwd", &data, &size);
    free(data);
    T_ASSERT(rc == BUS_STATUS_INVALID || rc == BUS_STATUS_NOT_FOUND);
    T_EQ_INT(s_download("k1", "../..", tar_path), BUS_STATUS_INVALID);
    T_EQ_INT(s_list_files("k1", "/etc", &files, abspath, sizeof abspath),
             BUS_STATUS_INVALID);
    const char *bad[] = {"first.txt", "x", "../escape.txt", "x"};
    T_EQ_INT(s_upload("k1", bad, 2), BUS_STATUS_INVALID);
    T_EQ_INT(s_download_single("k1", "first.txt", &data, &size), BUS_STATUS_NOT_FOUND);
    free(data);
    T_EQ_INT(s_download_single("k1", "missing.txt", &data, &size), BUS_STATUS_NOT_FOUND);
    free(data);
    T_EQ_INT(s_download_single("nope", "hello.txt", &data, &size), BUS_STATUS_NOT_FOUND);
    free(data);
    T_EQ_INT(s_upload("nope", items, 1), BUS_STATUS_NOT_FOUND);
}

static void
test_restart_in_place(void)
{
    //  A file in home, and a process that would run for ever.
    char *result = s_execute("k1", "rs1", "query",
                             "echo kept > kept.txt;"
                             " sleep 1234 </dev/null >/dev/null 2>&1 & ps -o args",
                             NULL);
    T_ASSERT(result);
    T_CONTAINS(result, "sleep 1234");
    free(result);
    harness_pause_ms(300); //  let a stray event arrive before counting
    size_t started = s_count_events(PROTO_KERNEL_STARTED, "k1");
    T_EQ_INT(started, 1);
    T_EQ_INT(s_restart("k1"), BUS_OK);
    //  The file stayed, the process did not, the runner answers anew.
    result = s_execute("k1", "rs2", "query", "cat kept.txt; ps -o args", NULL);
    T_ASSERT(result);
    T_CONTAINS(result, "kept");
    T_ASSERT(result && !strstr(result, "sleep 1234"));
    T_CONTAINS(result, "\"exitCode\":0");
    free(result);
    //  Neither an end nor a second start was announced.
    harness_pause_ms(300);
    T_EQ_INT(s_count_events(PROTO_KERNEL_TERMINATED, "k1"), 0);
    T_EQ_INT(s_count_events(PROTO_KERNEL_STARTED, "k1"), started);
    //  Twice in a row works as well; an unknown kernel is NOT_FOUND.
    T_EQ_INT(s_restart("k1"), BUS_OK);
    result = s_execute("k1", "rs3", "query", "cat kept.txt", NULL);
    T_ASSERT(result);
    T_CONTAINS(result, "kept");
    free(result);
    T_EQ_INT(s_restart("nope"), BUS_STATUS_NOT_FOUND);
    //  The reaper did not take the stops for the kernel's end.
    harness_pause_ms(2 * 200 + 100);
    T_EQ_INT(s_count_events(PROTO_KERNEL_TERMINATED, "k1"), 0);
}

static void
test_stats(void)
{
    const s_seen_t *stats = s_wait_event(PROTO_KERNEL_STATS, "k1");
    T_ASSERT(stats);
    if (stats)
        T_ASSERT(stats->exit_code >= 1); //  pids: tini and the runner at least
}

//  Types data into kernel id's terminal, resizing it when rows or cols. The status.
static int
s_pty_write(const char *id, const char *data, unsigned rows, unsigned cols)
{
    proto_kernel_pty_write_req_t in;
    proto_kernel_pty_write_req_init(&in);
    in.kernel_id = id;
    in.data = (const uint8_t *) data;
    in.data_size = strlen(data);
    in.rows = rows;
    in.cols = cols;
    bus_writer_t *writer = bus_writer_new();
    if (proto_kernel_pty_write_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    zchunk_t *reply = NULL;
    bus_error_t err;
    int rc = s_call(PROTO_KERNEL_PTY_WRITE, writer, &reply, &err);
    if (rc != BUS_OK)
        fprintf(stderr, "# pty_write %s: %d %s\n", id, rc, err.detail);
    zchunk_destroy(&reply);
    return rc;
}

static void
s_pty_read_body(const char *id, uint64_t offset, uint64_t wait_ms, bus_writer_t *writer)
{
    proto_kernel_pty_read_req_t in;
    proto_kernel_pty_read_req_init(&in);
    in.kernel_id = id;
    in.offset = offset;
    in.wait_ms = wait_ms;
    T_EQ_INT(proto_kernel_pty_read_req_write(&in, writer), 0);
}

//  Reads kernel id's terminal from offset. The status; the reply into *out
//  (caller clears) on BUS_OK.
static int
s_pty_read(const char *id,
           uint64_t offset,
           uint64_t wait_ms,
           proto_kernel_pty_read_rep_t *out)
{
    proto_kernel_pty_read_rep_init(out);
    bus_writer_t *writer = bus_writer_new();
    s_pty_read_body(id, offset, wait_ms, writer);
    zchunk_t *reply = NULL;
    bus_error_t err;
    int rc = s_call(PROTO_KERNEL_PTY_READ, writer, &reply, &err);
    if (rc == BUS_OK)
        rc = proto_kernel_pty_read_rep_decode(out, zchunk_data(reply), zchunk_size(reply),
                                              &err);
    zchunk_destroy(&reply);
    return rc;
}

//  Reads kernel id's terminal from *offset_p on until its output holds needle,
//  for at most ms. True when it did; *offset_p is then past what was read.
static bool
s_pty_until(const char *id, uint64_t *offset_p, const char *needle, int ms)
{
    char text[8192];
    size_t used = 0;
    int64_t deadline = bus_clock_mono_ms() + ms;
    while (bus_clock_mono_ms() < deadline) {
        proto_kernel_pty_read_rep_t out;
        if (s_pty_read(id, *offset_p, 1000, &out) != BUS_OK)
            return false;
        *offset_p = out.offset;
        for (size_t i = 0; i < out.data_size; i++) {
            if (used == sizeof text - 1) { //  keep the last half
                memmove(text, text + sizeof text / 2, used - sizeof text / 2);
                used -= sizeof text / 2;
            }
            text[used++] = out.data[i] ? (char) out.data[i] : ' ';
        }
        text[used] = '\0';
        bool closed = out.closed;
        proto_kernel_pty_read_rep_clear(&out);
        if (strstr(text, needle))
            return true;
        if (closed)
            return false;
    }
    fprintf(stderr, "# pty output without \"%s\": %s\n", needle, text);
    return false;
}

static void
test_pty(void)
{
    //  Opened by the first write; the shell's output read from offset 0 on.
    T_EQ_INT(s_pty_write("k1", "echo pty-$((6*7))\n", 24, 80), BUS_OK);
    uint64_t offset = 0;
    T_ASSERT(s_pty_until("k1", &offset, "pty-42", 10000));
    //  Once the shell is quiet, a read waits its wait_ms and answers nothing.
    proto_kernel_pty_read_rep_t out;
    bool quiet = false;
    for (int i = 0; i < 20 && !quiet; i++) {
        int64_t start = bus_clock_mono_ms();
        T_EQ_INT(s_pty_read("k1", offset, 300, &out), BUS_OK);
        int64_t took = bus_clock_mono_ms() - start;
        quiet = out.data_size == 0;
        if (quiet) {
            T_ASSERT(took >= 250 && took < 3000);
            T_EQ_INT(out.offset, offset);
            T_ASSERT(!out.closed);
        }
        offset = out.offset;
        proto_kernel_pty_read_rep_clear(&out);
    }
    T_ASSERT(quiet);
    //  Resized by a write without data.
    T_EQ_INT(s_pty_write("k1", "", 30, 100), BUS_OK);
    T_EQ_INT(s_pty_write("k1", "stty size\n", 0, 0), BUS_OK);
    T_ASSERT(s_pty_until("k1", &offset, "30 100", 10000));
    //  More than is kept: a read from 0 gets the last AGENT_KERNEL_PTY_KEEP bytes.
    T_EQ_INT(s_pty_write("k1",
                         "head -c 300000 /dev/zero | tr '\\0' x; echo big-$((1+1))\n", 0,
                         0),
             BUS_OK);
    T_ASSERT(s_pty_until("k1", &offset, "big-2", 20000));
    T_EQ_INT(s_pty_read("k1", 0, 0, &out), BUS_OK);
    T_ASSERT(out.offset >= offset && out.offset > 300000);
    T_EQ_INT(out.data_size, 256 * 1024);
    proto_kernel_pty_read_rep_clear(&out);
    //  A reader from an earlier terminal (past the end) gets the end at once.
    T_EQ_INT(s_pty_read("k1", UINT64_MAX, 20000, &out), BUS_OK);
    T_EQ_INT(out.data_size, 0);
    T_ASSERT(out.offset >= offset && out.offset < UINT64_MAX);
    proto_kernel_pty_read_rep_clear(&out);
    //  An unknown kernel has no terminal.
    T_EQ_INT(s_pty_read("nope", 0, 0, &out), BUS_STATUS_NOT_FOUND);
    T_EQ_INT(s_pty_write("nope", "x", 0, 0), BUS_STATUS_NOT_FOUND);
}

//  The answer of a pty_read left waiting.
typedef struct {
    bool done;
    int status;
    bool closed;
    size_t size;
} s_pending_t;

static void
s_on_pending(void *arg, const bus_reply_t *reply)
{
    s_pending_t *pending = arg;
    pending->done = true;
    pending->status = reply->status;
    proto_kernel_pty_read_rep_t out;
    bus_error_t err;
    if (reply->status == BUS_OK &&
        proto_kernel_pty_read_rep_decode(&out, reply->body, reply->body_size, &err) ==
            BUS_OK) {
        pending->closed = out.closed;
        pending->size = out.data_size;
        proto_kernel_pty_read_rep_clear(&out);
    }
}

//  Leaves a pty_read waiting at the end of kernel id's terminal, once the
//  shell is quiet (its prompt may still come after the output awaited). The
//  call id (0: not sent).
static uint64_t
s_pending_start(const char *id, s_pending_t *pending)
{
    memset(pending, 0, sizeof *pending);
    uint64_t end = UINT64_MAX;
    bool quiet = false;
    for (int i = 0; i < 20 && !quiet; i++) {
        proto_kernel_pty_read_rep_t out;
        if (s_pty_read(id, end, end == UINT64_MAX ? 0 : 300, &out) != BUS_OK)
            return 0;
        quiet = end != UINT64_MAX && out.data_size == 0;
        end = out.offset;
        proto_kernel_pty_read_rep_clear(&out);
    }
    bus_writer_t *writer = bus_writer_new();
    s_pty_read_body(id, end, 20000, writer);
    uint64_t call =
        bus_rpc_client_call(s_client, PROTO_KERNEL_PTY_READ, bus_writer_data(writer),
                            bus_writer_size(writer), CALL_MS, s_on_pending, pending);
    bus_writer_destroy(&writer);
    harness_pause_ms(100); //  it waits there
    bus_rpc_client_dispatch(s_client);
    return call;
}

//  Waits (5 s at most) for the answer of a pending read. True when it came.
static bool
s_pending_wait(s_pending_t *pending)
{
    int64_t deadline = bus_clock_mono_ms() + 5000;
    while (!pending->done && bus_clock_mono_ms() < deadline) {
        bus_rpc_client_dispatch(s_client);
        bus_rpc_client_tick(s_client);
        harness_pause_ms(10);
    }
    return pending->done;
}

static void
test_destroy(void)
{
    //  A read waiting on k1's terminal, at its end, answers closed when k1 goes.
    static s_pending_t pending; //  static: the answer may come after a failed test
    uint64_t call = s_pending_start("k1", &pending);
    bool early = pending.done;

    int64_t code = -100;
    T_EQ_INT(s_destroy("k1", &code), BUS_OK);
    T_ASSERT(call > 0);
    T_ASSERT(!early);
    T_ASSERT(s_pending_wait(&pending));
    T_EQ_INT(pending.status, BUS_OK);
    T_ASSERT(pending.closed);
    T_EQ_INT(pending.size, 0);
    const s_seen_t *ended = s_wait_event(PROTO_KERNEL_TERMINATED, "k1");
    T_ASSERT(ended);
    if (ended) {
        T_EQ_STR(ended->reason, "user-requested");
        T_EQ_INT(ended->exit_code, code);
    }
    T_ASSERT(s_runc_empty());
    T_ASSERT(s_nothing_left("k1"));
    //  Again: the same exit code; an id never seen is NOT_FOUND.
    int64_t again = -100;
    T_EQ_INT(s_destroy("k1", &again), BUS_OK);
    T_EQ_INT(again, code);
    T_EQ_INT(s_destroy("never", NULL), BUS_STATUS_NOT_FOUND);
    //  An id that ended is not created again, nor restarted.
    T_EQ_INT(s_create("k1", IMAGE, NULL), BUS_STATUS_CONFLICT);
    T_EQ_INT(s_restart("k1"), BUS_STATUS_CONFLICT);
    T_ASSERT(s_runc_empty());
    T_ASSERT(s_nothing_left("k1"));
}

static void
test_self_terminated(void)
{
    T_EQ_INT(s_create("k2", IMAGE, NULL), BUS_OK);
    T_ASSERT(s_wait_event(PROTO_KERNEL_STARTED, "k2"));
    //  TERM to tini: it passes it to the runner, which exits 0, and so does tini.
    char *result = s_execute("k2", "r1", "query", "kill -TERM 1; sleep 5", NULL);
    free(result);
    const s_seen_t *ended = s_wait_event(PROTO_KERNEL_TERMINATED, "k2");
    T_ASSERT(ended);
    if (ended)
        T_EQ_STR(ended->reason, "self-terminated");
    T_ASSERT(s_runc_empty());
    T_ASSERT(s_nothing_left("k2"));
}

static void
test_batch_task(void)
{
    T_EQ_INT(s_create_ex("k6", IMAGE, "echo task; exit 4", NULL), BUS_OK);
    T_ASSERT(s_wait_event(PROTO_KERNEL_STARTED, "k6"));
    const s_seen_t *ended = s_wait_event(PROTO_KERNEL_TERMINATED, "k6");
    T_ASSERT(ended);
    if (ended) {
        T_EQ_STR(ended->reason, "task-failed");
        T_EQ_INT(ended->exit_code, 4);
    }
    T_ASSERT(s_nothing_left("k6"));
    int64_t code = 0;
    T_EQ_INT(s_destroy("k6", &code), BUS_OK);
    T_EQ_INT(code, 4);
    //  A create sent again (the scheduler's reconciliation) must not run the
    //  task twice.
    T_EQ_INT(s_create_ex("k6", IMAGE, "echo task; exit 4", NULL), BUS_STATUS_CONFLICT);
    harness_pause_ms(300);
    T_EQ_INT(s_count_events(PROTO_KERNEL_STARTED, "k6"), 1);
    T_ASSERT(s_nothing_left("k6"));
}

static void
test_batch_oom(void)
{
    //  The task allocates past the kernel's memory: the OOM killer takes it,
    //  and the kernel's end says so rather than task-failed.
    T_EQ_INT(s_create_mem("k7", IMAGE, MEM_HOG, SMALL_MEM, NULL), BUS_OK);
    const s_seen_t *ended = s_wait_event(PROTO_KERNEL_TERMINATED, "k7");
    T_ASSERT(ended);
    if (ended) {
        T_EQ_STR(ended->reason, "oom-killed");
        T_EQ_INT(ended->exit_code, 137);
        T_ASSERT(ended->oom_killed);
    }
    T_ASSERT(s_nothing_left("k7"));
}

static void
test_exit_after_oom(void)
{
    //  A run OOM-killed leaves the kernel running.
    T_EQ_INT(s_create_mem("k8", IMAGE, NULL, SMALL_MEM, NULL), BUS_OK);
    char *result = s_execute("k8", "o1", "query", MEM_HOG, NULL);
    T_ASSERT(result);
    T_CONTAINS(result, "\"exitCode\":137");
    T_ASSERT(result && !strstr(result, "200000000"));
    free(result);
    result = s_execute("k8", "o2", "query", "echo alive", NULL);
    T_ASSERT(result);
    T_CONTAINS(result, "alive");
    free(result);
    //  Later the kernel ends by SIGKILL, but not the OOM killer's: its runner
    //  is killed, and tini exits 137. That earlier OOM kill is no reason.
    result = s_execute("k8", "o3", "query", "kill -KILL $PPID; sleep 5", NULL);
    free(result);
    const s_seen_t *ended = s_wait_event(PROTO_KERNEL_TERMINATED, "k8");
    T_ASSERT(ended);
    if (ended) {
        T_EQ_STR(ended->reason, "self-terminated");
        T_EQ_INT(ended->exit_code, 137);
        T_ASSERT(!ended->oom_killed);
    }
    T_ASSERT(s_nothing_left("k8"));
}

static void
test_force_interrupt(void)
{
    T_EQ_INT(s_create("k9", IMAGE, NULL), BUS_OK);
    //  Code deaf to SIGINT, and so is its sleep.
    char *result = s_execute_ms("k9", "i1", "query",
                                "trap '' INT; echo started; sleep 30", 500, NULL);
    T_ASSERT(result);
    T_CONTAINS(result, "\"status\":\"continued\"");
    T_CONTAINS(result, "started");
    free(result);
    //  A plain interrupt, and a forced one of another run, leave it running.
    T_EQ_INT(s_interrupt("k9", "i1", false), BUS_OK);
    T_EQ_INT(s_interrupt("k9", "other", true), BUS_OK);
    harness_pause_ms(500);
    result = s_execute_ms("k9", "i1", "continue", "", 200, NULL);
    T_ASSERT(result);
    T_CONTAINS(result, "\"status\":\"continued\"");
    free(result);
    //  A forced one kills it at once; the kernel runs the next code.
    int64_t start = bus_clock_mono_ms();
    T_EQ_INT(s_interrupt("k9", "i1", true), BUS_OK);
    result = s_execute("k9", "i1", "continue", "", NULL);
    int64_t took = bus_clock_mono_ms() - start;
    T_ASSERT(result);
    T_CONTAINS(result, "\"status\":\"finished\"");
    T_CONTAINS(result, "\"exitCode\":137");
    free(result);
    T_ASSERT(took < 5000);
    result = s_execute("k9", "i2", "query", "echo next", NULL);
    T_ASSERT(result);
    T_CONTAINS(result, "next");
    T_CONTAINS(result, "\"exitCode\":0");
    free(result);
    //  Nothing runs now: a forced interrupt is fine all the same.
    T_EQ_INT(s_interrupt("k9", NULL, true), BUS_OK);
    T_EQ_INT(s_destroy("k9", NULL), BUS_OK);
    const s_seen_t *ended = s_wait_event(PROTO_KERNEL_TERMINATED, "k9");
    T_ASSERT(ended);
    if (ended)
        T_EQ_STR(ended->reason, "user-requested");
    T_ASSERT(s_nothing_left("k9"));
}

static void
test_restart_adopts(void)
{
    T_EQ_INT(s_create("k3", IMAGE, NULL), BUS_OK);
    T_EQ_INT(s_create("k4", IMAGE, NULL), BUS_OK);
    T_ASSERT(s_wait_event(PROTO_KERNEL_STARTED, "k3"));
    T_ASSERT(s_wait_event(PROTO_KERNEL_STARTED, "k4"));
    harness_kill(&s_agent);
    //  k4 dies while no agent looks.
    char command[1024];
    snprintf(command, sizeof command, "runc --root %s/agent-k/runc kill k4 KILL", s_dir);
    T_EQ_INT(harness_shell(command), 0);
    snprintf(
        command, sizeof command,
        "for i in $(seq 100); do runc --root %s/agent-k/runc state k4 | grep -q stopped"
        " && exit 0; sleep 0.05; done; exit 1",
        s_dir);
    T_EQ_INT(harness_shell(command), 0);
    T_ASSERT(s_start_agent());
    const s_seen_t *ended = s_wait_event(PROTO_KERNEL_TERMINATED, "k4");
    T_ASSERT(ended);
    if (ended)
        T_EQ_STR(ended->reason, "lost-on-restart");
    T_ASSERT(s_nothing_left("k4"));
    char *result = s_execute("k3", "r1", "query", "echo again", NULL);
    T_ASSERT(result);
    T_CONTAINS(result, "again");
    T_CONTAINS(result, "\"status\":\"finished\"");
    free(result);
    //  The adopted kernel's terminal opens, and a read waiting on it answers
    //  closed when the kernel restarts (checked at the end, so that k3 goes).
    uint64_t offset = 0;
    bool pty_open = s_pty_write("k3", "echo adopted-$((2+3))\n", 24, 80) == BUS_OK &&
                    s_pty_until("k3", &offset, "adopted-5", 10000);
    static s_pending_t pending;
    uint64_t call = pty_open ? s_pending_start("k3", &pending) : 0;
    bool early = pending.done;
    //  An adopted kernel (not the agent's child) restarts too.
    T_EQ_INT(s_restart("k3"), BUS_OK);
    bool pty_closed = call > 0 && !early && s_pending_wait(&pending) &&
                      pending.status == BUS_OK && pending.closed;
    result = s_execute("k3", "r2", "query", "echo back", NULL);
    T_ASSERT(result);
    T_CONTAINS(result, "back");
    free(result);
    harness_pause_ms(500);
    T_EQ_INT(s_count_events(PROTO_KERNEL_TERMINATED, "k3"), 0);
    T_EQ_INT(s_destroy("k3", NULL), BUS_OK);
    T_ASSERT(s_wait_event(PROTO_KERNEL_TERMINATED, "k3"));
    T_ASSERT(s_runc_empty());
    T_ASSERT(s_nothing_left("k3"));
    T_ASSERT(pty_open);
    T_ASSERT(!early);
    T_ASSERT(pty_closed);
}

static void
test_bad_image(void)
{
    T_EQ_INT(s_create("k5", "local.backplane/library/nothing:latest", NULL),
             BUS_STATUS_NOT_FOUND);
    T_EQ_INT(s_create("../k5", IMAGE, NULL), BUS_STATUS_INVALID);
    T_ASSERT(s_runc_empty());
    T_ASSERT(s_nothing_left("k5"));
}

int
main(void)
{
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    T_RUN(test_start);
    T_RUN(test_create_and_started);
    T_RUN(test_execute);
    T_RUN(test_logs_list_interrupt);
    T_RUN(test_answers_while_creating);
    T_RUN(test_files);
    T_RUN(test_restart_in_place);
    T_RUN(test_stats);
    T_RUN(test_pty);
    T_RUN(test_destroy);
    T_RUN(test_self_terminated);
    T_RUN(test_batch_task);
    T_RUN(test_batch_oom);
    T_RUN(test_exit_after_oom);
    T_RUN(test_force_interrupt);
    T_RUN(test_restart_adopts);
    T_RUN(test_bad_image);
    bus_rpc_client_destroy(&s_client);
    bus_sub_destroy(&s_sub);
    bool clean =
        harness_teardown(&s_scheduler, &s_agent, s_bridge, s_dir, t_failures > 0);
    return clean ? T_DONE() : 1;
}
