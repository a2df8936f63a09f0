/*  =========================================================================
    sessions_test - sessions end to end between the real scheduler and a
    real agent: session.create places the session and the agent starts a
    runc container (RUNNING, with the lifecycle events Backend.AI names),
    get and list, restart (RESTARTING and back to RUNNING; only a RUNNING
    session restarts), a request too large waits PENDING and is cancelled, an
    unknown image is cancelled with the agent's reason, destroy ends the
    session and gives its slots back, a batch session reports its exit
    code. Needs root, runc, umoci and tini; skips otherwise.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bus.h"
#include "harness.h"
#include "t.h"

#define CALL_MS  30000
#define EVENT_MS 30000
#define IMAGE    "local.backplane/library/busybox:latest"
#define SEEN_MAX 256

static char *s_dir;
static harness_proc_t s_scheduler, s_agent;
static harness_endpoints_t s_sched; //  the scheduler, which hosts the bus
static char s_bridge[16];
static const char *s_cidr; //  the agent's kernels' subnet
static bus_sub_t *s_sub;
static bus_rpc_client_t *s_client;

//  The session.lifecycle events seen so far.
typedef struct {
    char event[40];
    char session_id[72];
    char status[32];
    char reason[72];
    bool has_exit_code;
    int64_t exit_code;
} seen_t;
static seen_t s_seen[SEEN_MAX];
static size_t s_seen_count;

static void
s_drain(void)
{
    bus_event_t event;
    bus_error_t err;
    while (bus_sub_recv(s_sub, &event, &err) == BUS_OK) {
        proto_session_lifecycle_t step;
        if (s_seen_count == SEEN_MAX ||
            proto_session_lifecycle_decode(&step, event.body, event.body_size, &err) !=
                BUS_OK)
            continue;
        seen_t *seen = &s_seen[s_seen_count++];
        snprintf(seen->event, sizeof seen->event, "%s", step.event);
        snprintf(seen->session_id, sizeof seen->session_id, "%s", step.session_id);
        snprintf(seen->status, sizeof seen->status, "%s", step.status ? step.status : "");
        snprintf(seen->reason, sizeof seen->reason, "%s", step.reason ? step.reason : "");
        seen->has_exit_code = step.has_exit_code;
        seen->exit_code = step.exit_code;
        proto_session_lifecycle_clear(&step);
    }
}

//  Waits for event about session_id; the event seen, or NULL.
static const seen_t *
s_wait(const char *event, const char *session_id)
{
    int64_t deadline = bus_clock_mono_ms() + EVENT_MS;
    do {
        s_drain();
        for (size_t i = 0; i < s_seen_count; i++)
            if (strcmp(s_seen[i].event, event) == 0 &&
                strcmp(s_seen[i].session_id, session_id) == 0)
                return &s_seen[i];
        struct timespec pause = {0, 20 * 1000000L};
        nanosleep(&pause, NULL);
    } while (bus_clock_mono_ms() < deadline);
    return NULL;
}

//  Calls a session.* method; the session in the reply into info.
static int
s_call(const char *method, bus_writer_t *writer, proto_session_info_t *info)
{
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    int rc = bus_rpc_client_call_sync(s_client, method, bus_writer_data(writer),
                                      bus_writer_size(writer), CALL_MS, &reply, &err);
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

//  What the next s_create sends as bootstrap_script and preopen_ports (NULL:
//  none).
static const char *s_next_bootstrap, *s_next_preopen;

static int
s_create(const char *id,
         const char *name,
         const char *image,
         const char *cpu,
         const char *batch_command,
         proto_session_info_t *info)
{
    char kernel[72];
    snprintf(kernel, sizeof kernel, "k-%s", id);
    proto_kv_t slots[] = {{"cpu", (char *) cpu}, {"mem", "268435456"}};
    proto_session_create_req_t in;
    proto_session_create_req_init(&in);
    in.session_id = id;
    in.kernel_id = kernel;
    in.name = name;
    in.access_key = "AKTEST";
    in.user_uuid = "user-1";
    in.domain_name = "default";
    in.group_id = "group-1";
    in.scaling_group = "default";
    in.image = image;
    in.slots = slots;
    in.slots_count = 2;
    if (batch_command) {
        in.type = "BATCH";
        in.startup_command = batch_command;
    }
    in.bootstrap_script = s_next_bootstrap;
    in.preopen_ports = s_next_preopen;
    s_next_bootstrap = s_next_preopen = NULL;
    bus_writer_t *writer = bus_writer_new();
    if (proto_session_create_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    return s_call(PROTO_SESSION_CREATE, writer, info);
}

static int
s_get(const char *id, proto_session_info_t *info)
{
    proto_session_get_req_t in;
    proto_session_get_req_init(&in);
    in.session_id = id;
    bus_writer_t *writer = bus_writer_new();
    if (proto_session_get_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    return s_call(PROTO_SESSION_GET, writer, info);
}

static int
s_destroy(const char *id, proto_session_info_t *info)
{
    proto_session_destroy_req_t in;
    proto_session_destroy_req_init(&in);
    in.session_id = id;
    bus_writer_t *writer = bus_writer_new();
    if (proto_session_destroy_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    return s_call(PROTO_SESSION_DESTROY, writer, info);
}

static int
s_restart(const char *id, proto_session_info_t *info)
{
    proto_session_restart_req_t in;
    proto_session_restart_req_init(&in);
    in.session_id = id;
    bus_writer_t *writer = bus_writer_new();
    if (proto_session_restart_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    return s_call(PROTO_SESSION_RESTART, writer, info);
}

//  How many events named event about session_id were seen so far.
static size_t
s_count(const char *event, const char *session_id)
{
    s_drain();
    size_t count = 0;
    for (size_t i = 0; i < s_seen_count; i++)
        if (strcmp(s_seen[i].event, event) == 0 &&
            strcmp(s_seen[i].session_id, session_id) == 0)
            count++;
    return count;
}

static void
test_start(void)
{
    s_dir = harness_tmpdir("sessions");
    T_ASSERT(s_dir);
    snprintf(s_bridge, sizeof s_bridge, "bps%d", (int) (getpid() % 100000));
    T_EQ_INT(harness_busybox_images(s_dir), 0);
    const char *sets[] = {"sessions.pass_ms=100", NULL};
    T_EQ_INT(
        harness_scheduler_start(&s_scheduler, s_dir, "scheduler", NULL, sets, &s_sched),
        0);
    s_client = bus_rpc_client_new(s_sched.rpc, "test/sessions", NULL);
    s_sub = bus_sub_new(s_sched.hub_subscribe, NULL);
    T_ASSERT(s_client && s_sub);
    T_ASSERT(bus_sub_subscribe(s_sub, "session.", NULL, NULL) == 0);

    char bridge[64], cidr[64];
    snprintf(bridge, sizeof bridge, "agent.network.bridge=%s", s_bridge);
    s_cidr = harness_subnet();
    T_ASSERT(s_cidr);
    snprintf(cidr, sizeof cidr, "agent.network.cidr=%s", s_cidr ? s_cidr : "");
    const char *extra[] = {"agent.slots.cpu=2", "agent.slots.mem=2g", bridge, cidr, NULL};
    harness_bus_t bus = harness_endpoints_bus(&s_sched);
    T_ASSERT(harness_agent_start(&s_agent, s_dir, "agent-s", &bus, extra, NULL, 0) == 0);
}

static void
test_create_runs(void)
{
    proto_session_info_t info;
    T_EQ_INT(s_create("s-run", "first", IMAGE, "1", NULL, &info), BUS_OK);
    T_EQ_STR(info.status, "PENDING");
    proto_session_info_clear(&info);
    T_ASSERT(s_wait("session_enqueued", "s-run"));
    T_ASSERT(s_wait("session_scheduled", "s-run"));
    T_ASSERT(s_wait("kernel_started", "s-run"));
    const seen_t *started = s_wait("session_started", "s-run");
    T_ASSERT(started);
    T_EQ_STR(started->status, "RUNNING");
    T_EQ_INT(s_get("s-run", &info), BUS_OK);
    T_EQ_STR(info.status, "RUNNING");
    T_EQ_STR(info.agent_id, "agent-s");
    char prefix[32];
    harness_subnet_host(s_cidr, 0, prefix, sizeof prefix);
    T_CONTAINS(info.kernel_host, prefix);
    T_EQ_INT(info.occupied_slots_count, 2);
    proto_session_info_clear(&info);
    //  The same id again answers what exists; the same name is refused.
    T_EQ_INT(s_create("s-run", "first", IMAGE, "1", NULL, &info), BUS_OK);
    T_EQ_STR(info.status, "RUNNING");
    proto_session_info_clear(&info);
    T_EQ_INT(s_create("s-other", "first", IMAGE, "1", NULL, NULL), BUS_STATUS_CONFLICT);
}

static void
test_restart(void)
{
    size_t started = s_count("session_started", "s-run");
    T_EQ_INT(started, 1);
    proto_session_info_t info;
    T_EQ_INT(s_restart("s-run", &info), BUS_OK);
    T_EQ_STR(info.status, "RUNNING");
    T_EQ_STR(info.agent_id, "agent-s");
    T_EQ_INT(info.occupied_slots_count, 2); //  the slots stayed
    proto_session_info_clear(&info);
    //  Back to RUNNING with session_started, as Backend.AI; no end between.
    int64_t deadline = bus_clock_mono_ms() + EVENT_MS;
    while (s_count("session_started", "s-run") < started + 1 &&
           bus_clock_mono_ms() < deadline) {
        struct timespec pause = {0, 20 * 1000000L};
        nanosleep(&pause, NULL);
    }
    T_EQ_INT(s_count("session_started", "s-run"), started + 1);
    T_EQ_INT(s_count("kernel_terminated", "s-run"), 0);
    T_EQ_INT(s_count("session_terminated", "s-run"), 0);
    T_EQ_INT(s_get("s-run", &info), BUS_OK);
    T_EQ_STR(info.status, "RUNNING");
    proto_session_info_clear(&info);
    //  Unknown: NOT_FOUND.
    T_EQ_INT(s_restart("s-nope", NULL), BUS_STATUS_NOT_FOUND);
}

static void
test_too_big_waits_then_cancels(void)
{
    proto_session_info_t info;
    T_EQ_INT(s_create("s-big", "big", IMAGE, "64", NULL, &info), BUS_OK);
    proto_session_info_clear(&info);
    struct timespec pause = {0, 500 * 1000000L}; //  five passes
    nanosleep(&pause, NULL);
    T_EQ_INT(s_get("s-big", &info), BUS_OK);
    T_EQ_STR(info.status, "PENDING");
    proto_session_info_clear(&info);
    //  Only a RUNNING session restarts.
    T_EQ_INT(s_restart("s-big", NULL), BUS_STATUS_CONFLICT);
    T_EQ_INT(s_get("s-big", &info), BUS_OK);
    T_EQ_STR(info.status, "PENDING");
    proto_session_info_clear(&info);
    T_EQ_INT(s_destroy("s-big", &info), BUS_OK);
    T_EQ_STR(info.status, "CANCELLED");
    proto_session_info_clear(&info);
    T_ASSERT(s_wait("session_cancelled", "s-big"));
}

static void
test_unknown_image_is_cancelled(void)
{
    T_EQ_INT(
        s_create("s-bad", "bad", "local.backplane/library/nope:latest", "1", NULL, NULL),
        BUS_OK);
    const seen_t *cancelled = s_wait("session_cancelled", "s-bad");
    T_ASSERT(cancelled);
    T_EQ_STR(cancelled->reason, "failed-to-start");
    proto_session_info_t info;
    T_EQ_INT(s_get("s-bad", &info), BUS_OK);
    T_EQ_STR(info.status, "CANCELLED");
    T_CONTAINS(info.status_data, "no such image");
    T_EQ_INT(info.occupied_slots_count, 0);
    proto_session_info_clear(&info);
}

static void
test_destroy_ends_and_frees(void)
{
    proto_session_info_t info;
    T_EQ_INT(s_destroy("s-run", &info), BUS_OK);
    T_EQ_STR(info.status, "TERMINATING");
    proto_session_info_clear(&info);
    T_ASSERT(s_wait("session_terminating", "s-run"));
    T_ASSERT(s_wait("kernel_terminated", "s-run"));
    const seen_t *ended = s_wait("session_terminated", "s-run");
    T_ASSERT(ended);
    T_EQ_STR(ended->reason, "user-requested");
    T_EQ_INT(s_get("s-run", &info), BUS_OK);
    T_EQ_STR(info.status, "TERMINATED");
    T_EQ_INT(info.occupied_slots_count, 0);
    T_ASSERT(info.terminated_at > 0);
    proto_session_info_clear(&info);
    T_EQ_INT(s_restart("s-run", NULL), BUS_STATUS_CONFLICT);
    char command[600];
    snprintf(command, sizeof command,
             "test -z \"$(runc --root %s/agent-s/runc list -q 2>/dev/null)\"", s_dir);
    T_EQ_INT(harness_shell(command), 0);
}

static void
test_batch_reports_its_exit_code(void)
{
    //  The bootstrap script runs before the task; its failure stops nothing.
    s_next_bootstrap = "echo ready > /home/work/boot.txt; exit 5";
    s_next_preopen = "[8080]";
    proto_session_info_t created;
    T_EQ_INT(s_create("s-batch", "batch", IMAGE, "1",
                      "grep -q ready /home/work/boot.txt && exit 3", &created),
             BUS_OK);
    T_EQ_STR(created.preopen_ports, "[8080]");
    proto_session_info_clear(&created);
    const seen_t *failure = s_wait("session_failure", "s-batch");
    T_ASSERT(failure);
    T_ASSERT(failure->has_exit_code);
    T_EQ_INT(failure->exit_code, 3);
    T_ASSERT(s_wait("session_terminated", "s-batch"));
    proto_session_info_t info;
    T_EQ_INT(s_get("s-batch", &info), BUS_OK);
    T_EQ_STR(info.status, "TERMINATED");
    T_EQ_INT(info.exit_code, 3);
    proto_session_info_clear(&info);
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
    T_RUN(test_create_runs);
    T_RUN(test_restart);
    T_RUN(test_too_big_waits_then_cancels);
    T_RUN(test_unknown_image_is_cancelled);
    T_RUN(test_destroy_ends_and_frees);
    T_RUN(test_batch_reports_its_exit_code);
    bus_rpc_client_destroy(&s_client);
    bus_sub_destroy(&s_sub);
    bool clean =
        harness_teardown(&s_scheduler, &s_agent, s_bridge, s_dir, t_failures > 0);
    return clean ? T_DONE() : 1;
}
