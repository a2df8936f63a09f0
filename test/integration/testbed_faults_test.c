/*  =========================================================================
    testbed_faults_test - bad input across hosts on the testbed: a revoked
    key, messages replayed or forged from another host, a host whose clock
    is 10 minutes off, a partition in the middle of a create

    On deploy/testbed's five hosts (each agent offering 2 CPUs, sessions
    taking 1, the scheduler's agents.lost_ms 6 s):
    - replayed and forged messages, sent from this machine with agent2's
      own key (so the hub admits them) as another host would: a
      kernel.started captured on the wire from agent1's stream, sent again
      after its session ended, is ignored as already applied (logged) and
      the session stays ended with no container; a kernel.terminated in
      agent2's name for a kernel running on agent1 is refused (logged) and
      the session runs on; an agent.heartbeat in agent2's name that says it
      is agent1, with agent2's address, is refused (logged) and agent1's
      sessions still go to agent1's address;
    - a revoked key: agent2's public key taken out of every host's
      authorized keys and agent2 restarted: its every connection is refused
      and logged by the scheduler with its address and key, it goes LOST
      and nothing is placed there (libzmq does not try a refused connect
      again); its key put back and agent2 restarted, it is ALIVE again;
    - a clock 10 minutes off (ahead, then behind): agent2 restarted with
      BACKPLANE_TEST_CLOCK_SKEW_S (libbus/bus_clock.h; the namespaces share
      the machine's clock): it logs how far its clock is from the
      registry's and corrects its bus time, registers (/healthz names it
      up), stays ALIVE past lost_ms, and a session placed on it runs and
      answers;
    - a partition in the middle of a create: agent2's switch port cut right
      after POST /session placed there, mended 12 s later (past lost_ms):
      the session ends RUNNING in exactly one container or ended with a
      reason and no container, never stuck in between, never two.

    The testbed's /24 is a harness_subnet; its prefix is "bpf<N>". Needs
    root, runc, umoci, tini, ip, nsenter, python3 and curl.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bus.h"
#include "gateway_client.h"
#include "harness.h"
#include "t.h"
#include "testbed_client.h"

#define IMAGE       "local.backplane/library/busybox:latest"
#define LOST_MS     6000
#define SKEW_S      600
#define PARTITION_S 12

#define TEXT_(x) #x
#define TEXT(x)  TEXT_(x)

static const char *const k_agents[] = {"agent1/agent", "agent2/agent", NULL};
static testbed_t s_tb = {.name = "tb-faults",
                         .letters = "bpf",
                         .env = "TESTBED_AGENT_CPU=2 TESTBED_AGENT_MEM=1g"
                                " TESTBED_AGENT_LOST_MS=" TEXT(LOST_MS),
                         .agents = k_agents};

//  Whether id stays status for ms (polled every 200 ms).
static bool
s_agent_stays(const char *id, const char *status, int ms)
{
    char now[32] = "";
    for (int waited = 0; waited <= ms; waited += 200) {
        testbed_agent(&s_tb, id, now, sizeof now, NULL, 0);
        if (strcmp(now, status) != 0) {
            fprintf(stderr, "# agent %s: %s, not %s, after %d ms\n", id, now, status,
                    waited);
            return false;
        }
        harness_pause_ms(200);
    }
    return true;
}

static bool
s_log_waits(const char *log, const char *needle, const char *also, int within_ms)
{
    harness_proc_t proc = {.pid = 0};
    snprintf(proc.log_path, sizeof proc.log_path, "%.*s/%s", 200, s_tb.dir, log);
    for (int waited = 0; waited <= within_ms; waited += 100) {
        if (harness_log_has(&proc, needle) && (!also || harness_log_has(&proc, also)))
            return true;
        harness_pause_ms(100);
    }
    fprintf(stderr, "# %s: no \"%s\"%s%s\n", log, needle, also ? " with " : "",
            also ? also : "");
    return false;
}

//  A session's status and status_info by id ("" when unknown).
static void
s_status(const char *id, char *status, char *info)
{
    char query[256];
    snprintf(query, sizeof query,
             "{ compute_session(id: \"%s\") { status status_info } }", id);
    json_t *r = client_gql(&s_tb.p, &s_tb.p.super, query, NULL);
    json_t *s = json_object_get(json_object_get(r, "data"), "compute_session");
    const char *st = json_string_value(json_object_get(s, "status"));
    const char *in = json_string_value(json_object_get(s, "status_info"));
    snprintf(status, 32, "%s", st ? st : "");
    snprintf(info, 128, "%s", in ? in : "");
    json_decref(r);
}

static void
s_destroy(const char *name)
{
    T_EQ_INT(testbed_destroy_session(&s_tb, name), 200);
}

//  A bus socket on this machine that the hub takes for agent2's host: its
//  key pair, the hub's key found in its authorized keys by the control
//  host's address.
static zsock_t *
s_as_agent2(int type, int port)
{
    char cert[PATH_MAX], keys[PATH_MAX], endpoint[64];
    snprintf(cert, sizeof cert, "%s/agent2/curve/agent2.cert_secret", s_tb.dir);
    snprintf(keys, sizeof keys, "%s/agent2/curve/authorized", s_tb.dir);
    snprintf(endpoint, sizeof endpoint, "tcp://%s.11:%d", s_tb.net, port);
    bus_curve_t curve = {.enabled = true,
                         .server_cert = cert,
                         .client_cert = cert,
                         .server_public = "",
                         .authorized_keys = keys};
    return bus_socket_connect(type, endpoint, &curve);
}

static void
test_up(void)
{
    bus_log_set_level(BUS_LOG_ERROR); //  this test's own bus sockets: errors only
    T_EQ_INT(testbed_up(&s_tb), 0);
    T_ASSERT(testbed_agent_becomes(&s_tb, "agent1", "ALIVE", 20000));
    T_ASSERT(testbed_agent_becomes(&s_tb, "agent2", "ALIVE", 20000));
}

//  Sends the frames of msg (kept) on pub until the log has needle, at most
//  15 s: a PUB socket drops what it sends before the hub's subscriptions
//  reach it, and duplicates are logged once per stream every 10 s.
static bool
s_send_until_logged(zsock_t *pub, zmsg_t *msg, const char *log, const char *needle)
{
    harness_proc_t proc = {.pid = 0};
    snprintf(proc.log_path, sizeof proc.log_path, "%.*s/%s", 200, s_tb.dir, log);
    for (int tries = 0; tries < 75; tries++) {
        zmsg_t *copy = zmsg_dup(msg);
        zmsg_send(&copy, pub);
        zmsg_destroy(&copy);
        harness_pause_ms(200);
        if (harness_log_has(&proc, needle))
            return true;
    }
    fprintf(stderr, "# %s: no \"%s\"\n", log, needle);
    return false;
}

//  An event as a publisher sends it: [topic][header][body].
static zmsg_t *
s_event(
    const char *topic, const char *src, uint64_t epoch, uint64_t seq, bus_writer_t *body)
{
    bus_header_t header;
    bus_header_init(&header, src);
    header.epoch = epoch;
    header.seq = seq;
    bus_writer_t *w = bus_writer_new();
    bus_header_write(&header, w);
    zmsg_t *msg = zmsg_new();
    zmsg_addstr(msg, topic);
    zmsg_addmem(msg, bus_writer_data(w), bus_writer_size(w));
    zmsg_addmem(msg, bus_writer_data(body), bus_writer_size(body));
    bus_writer_destroy(&w);
    return msg;
}

//  (b) A message replayed from another host, and forged ones.
static void
test_replayed_and_forged_messages(void)
{
    //  Everything on agent1 (agent2 excluded while they are placed).
    T_ASSERT(testbed_operation(&s_tb, "exclude-agents", "\"agent2\""));
    //  A tap on the hub, as agent2's host: kernel.started as they pass.
    zsock_t *tap = s_as_agent2(ZMQ_SUB, 6102);
    T_ASSERT(tap);
    if (!tap)
        return;
    zsock_set_subscribe(tap, PROTO_KERNEL_STARTED);
    harness_pause_ms(500); //  the subscription reaching the hub: a tap may miss nothing
    char id1[64] = "", kernel1[64], agent1[64];
    T_ASSERT(testbed_session(&s_tb, "f-replayed", NULL, id1, kernel1, agent1));
    T_EQ_STR(agent1, "agent1");
    char id2[64] = "", kernel2[64], agent2[64];
    T_ASSERT(testbed_session(&s_tb, "f-forged", NULL, id2, kernel2, agent2));
    T_EQ_STR(agent2, "agent1");
    T_ASSERT(testbed_operation(&s_tb, "include-agents", "\"agent2\""));
    //  The tap's capture of f-replayed's kernel.started.
    zmsg_t *captured = NULL;
    zpoller_t *poller = zpoller_new(tap, NULL);
    while (!captured && zpoller_wait(poller, 2000) == tap) {
        zmsg_t *msg = zmsg_recv(tap);
        if (!msg || zmsg_size(msg) != 3) {
            zmsg_destroy(&msg);
            continue;
        }
        zframe_t *body = zmsg_last(msg);
        proto_kernel_started_t started;
        proto_kernel_started_init(&started);
        bus_error_t err = {0};
        if (proto_kernel_started_decode(&started, zframe_data(body), zframe_size(body),
                                        &err) == BUS_OK &&
            started.session_id && strcmp(started.session_id, id1) == 0)
            captured = zmsg_dup(msg);
        proto_kernel_started_clear(&started);
        zmsg_destroy(&msg);
    }
    zpoller_destroy(&poller);
    zsock_destroy(&tap);
    T_ASSERT(captured);

    //  Ended, then its kernel.started sent again from agent2's host.
    s_destroy("f-replayed");
    char status[32] = "", info[128];
    for (int waited = 0; waited < 30000 && strcmp(status, "TERMINATED") != 0;
         waited += 200) {
        s_status(id1, status, info);
        harness_pause_ms(200);
    }
    T_EQ_STR(status, "TERMINATED");
    zsock_t *pub = s_as_agent2(ZMQ_PUB, 6101);
    T_ASSERT(pub);
    char needle[256];
    if (captured && pub) {
        T_ASSERT(s_send_until_logged(pub, captured, "control/scheduler.log",
                                     "msg=\"durable event already applied; ignored\""
                                     " topic=kernel.started src=agent/agent1"));
        harness_pause_ms(1000);
        s_status(id1, status, info);
        T_EQ_STR(status, "TERMINATED");
        T_EQ_INT(testbed_containers(&s_tb, kernel1), 0);
    }
    zmsg_destroy(&captured);

    //  A kernel.terminated in agent2's name for f-forged's kernel, which
    //  runs on agent1, as the next event of a stream of agent2's.
    bus_writer_t *w = bus_writer_new();
    proto_kernel_terminated_t ended;
    proto_kernel_terminated_init(&ended);
    ended.kernel_id = kernel2;
    ended.session_id = id2;
    ended.agent_id = "agent2";
    ended.exit_code = 0;
    ended.reason = "self-terminated";
    T_EQ_INT(proto_kernel_terminated_write(&ended, w), 0);
    zmsg_t *forged = s_event(PROTO_KERNEL_TERMINATED, "agent/agent2", 4242, 1, w);
    snprintf(needle, sizeof needle,
             "msg=\"kernel event refused\" topic=kernel.terminated kernel=%s agent=agent1"
             " src=agent/agent2",
             kernel2);
    if (pub)
        T_ASSERT(s_send_until_logged(pub, forged, "control/scheduler.log", needle));
    zmsg_destroy(&forged);
    s_status(id2, status, info);
    T_EQ_STR(status, "RUNNING");
    T_ASSERT(testbed_answers(&s_tb, "f-forged", "still-running"));
    T_EQ_INT(testbed_containers(&s_tb, kernel2), 1);

    //  A heartbeat in agent2's name that says it is agent1, at agent2's
    //  address: refused, agent1's address kept.
    char rpc[64];
    snprintf(rpc, sizeof rpc, "tcp://%s.22:1", s_tb.net);
    proto_agent_heartbeat_t beat;
    proto_agent_heartbeat_init(&beat);
    beat.agent_id = "agent1";
    beat.rpc_endpoint = rpc;
    beat.scaling_group = "default";
    beat.architecture = "x86_64";
    beat.version = "forged";
    beat.schedulable = true;
    proto_kv_t slots[] = {{"cpu", "64"}, {"mem", "68719476736"}};
    beat.available_slots = slots;
    beat.available_slots_count = 2;
    bus_writer_reset(w);
    T_EQ_INT(proto_agent_heartbeat_write(&beat, w), 0);
    forged = s_event(PROTO_AGENT_HEARTBEAT, "agent/agent2", 0, 0, w);
    snprintf(needle, sizeof needle,
             "msg=\"agent heartbeat refused\" agent=agent1 src=agent/agent2 rpc=%s", rpc);
    if (pub)
        T_ASSERT(s_send_until_logged(pub, forged, "control/scheduler.log", needle));
    zmsg_destroy(&forged);
    bus_writer_destroy(&w);
    zsock_destroy(&pub);
    char st[32], addr[128];
    testbed_agent(&s_tb, "agent1", st, sizeof st, addr, sizeof addr);
    T_EQ_STR(st, "ALIVE");
    char expect[64];
    snprintf(expect, sizeof expect, "tcp://%s.21:", s_tb.net);
    T_ASSERT(strstr(addr, expect) == addr);
    if (strstr(addr, expect) != addr)
        fprintf(stderr, "# agent1's addr: %s\n", addr);
    s_destroy("f-forged");
}

//  (a) agent2's key revoked on every host, agent2 restarted: refused.
static void
test_revoked_key(void)
{
    //  What a failure above may have left running takes agent1's CPUs.
    int status;
    json_decref(testbed_request(&s_tb, "DELETE", "/session/f-forged", NULL, &status));
    char key[64] = "", command[PATH_MAX * 2];
    snprintf(command, sizeof command, "%s/agent2/curve/agent2.cert", s_tb.dir);
    zcert_t *cert = zcert_load(command);
    T_ASSERT(cert);
    if (cert)
        snprintf(key, sizeof key, "%s", zcert_public_txt(cert));
    zcert_destroy(&cert);
    snprintf(command, sizeof command,
             "mkdir -p %s/revoked && for h in control front storage agent1 agent2; do"
             " mv %s/$h/curve/authorized/agent2.cert %s/revoked/$h.cert || exit 1; done",
             s_tb.dir, s_tb.dir, s_tb.dir);
    T_EQ_INT(harness_shell(command), 0);
    testbed_run(&s_tb, NULL,
                "restart agent2 agent"); //  it may start or not: what counts is below
    char needle[256];
    snprintf(needle, sizeof needle, "address=%s.22 mechanism=CURVE public_key=%s",
             s_tb.net, key);
    T_ASSERT(
        s_log_waits("control/scheduler.log", needle, "reason=\"unknown key\"", 10000));
    T_ASSERT(testbed_agent_becomes(&s_tb, "agent2", "LOST", LOST_MS + 10000));
    //  Nothing placed there: two sessions both go to agent1, its 2 CPUs.
    char id[64], kernel[64], agent[64];
    T_ASSERT(testbed_session(&s_tb, "f-revoked-1", NULL, id, kernel, agent));
    T_EQ_STR(agent, "agent1");
    T_ASSERT(testbed_session(&s_tb, "f-revoked-2", NULL, id, kernel, agent));
    T_EQ_STR(agent, "agent1");
    s_destroy("f-revoked-1");
    s_destroy("f-revoked-2");
    //  Refused for good: libzmq gives up a connect whose handshake the
    //  server refused (a protocol error, not a lost connection), so agent2
    //  stays LOST and knocks no more.
    T_ASSERT(s_agent_stays("agent2", "LOST", 3000));
    //  The key back and agent2 restarted, as an operator would: ALIVE.
    snprintf(command, sizeof command,
             "for h in control front storage agent1 agent2; do"
             " mv %s/revoked/$h.cert %s/$h/curve/authorized/agent2.cert || exit 1; done",
             s_tb.dir, s_tb.dir);
    T_EQ_INT(harness_shell(command), 0);
    T_EQ_INT(testbed_run(&s_tb, NULL, "restart agent2 agent"), 0);
    T_ASSERT(testbed_agent_becomes(&s_tb, "agent2", "ALIVE", 20000));
}

//  (c) agent2's clock 10 minutes ahead, then behind.
static void
test_clock_off(void)
{
    const int skews[] = {SKEW_S, -SKEW_S};
    for (size_t i = 0; i < sizeof skews / sizeof skews[0]; i++) {
        char env[64], command[PATH_MAX + 64];
        snprintf(env, sizeof env, "BACKPLANE_TEST_CLOCK_SKEW_S=%d", skews[i]);
        T_EQ_INT(testbed_run(&s_tb, env, "restart agent2 agent"), 0);
        //  The registry's clock minus agent2's: -600 s ahead, +600 s behind
        //  (to within the round trip).
        snprintf(command, sizeof command,
                 "for i in $(seq 100); do grep -q -E 'clock differs from the registry.s"
                 " host; bus time corrected. offset_ms=%s(599[0-9]{3}|600[0-9]{3}) ' "
                 "%s/agent2/"
                 "agent.log && exit 0; sleep 0.1; done; exit 1",
                 skews[i] > 0 ? "-" : "", s_tb.dir);
        T_EQ_INT(harness_shell(command), 0);
        T_ASSERT(testbed_agent_becomes(&s_tb, "agent2", "ALIVE", 20000));
        //  Neither LOST early nor anything but ALIVE for longer than lost_ms.
        T_ASSERT(s_agent_stays("agent2", "ALIVE", LOST_MS + 2000));
        //  Registered: /healthz names it up.
        char *text = NULL;
        harness_http(s_tb.p.api, "GET", "/healthz", NULL, &text, CLIENT_HTTP_MS);
        char up[128];
        snprintf(up, sizeof up, "tcp://%s.22:", s_tb.net);
        T_ASSERT(text && strstr(text, up));
        free(text);
        //  A session placed there runs and answers.
        T_ASSERT(testbed_operation(&s_tb, "exclude-agents", "\"agent1\""));
        char name[32], id[64], kernel[64], agent[64];
        snprintf(name, sizeof name, "f-clock-%zu", i);
        T_ASSERT(testbed_session(&s_tb, name, NULL, id, kernel, agent));
        T_EQ_STR(agent, "agent2");
        T_ASSERT(testbed_operation(&s_tb, "include-agents", "\"agent1\""));
        T_ASSERT(testbed_answers(&s_tb, name, "on-time"));
        s_destroy(name);
    }
    //  Its clock right again.
    T_EQ_INT(testbed_run(&s_tb, NULL, "restart agent2 agent"), 0);
    T_ASSERT(testbed_agent_becomes(&s_tb, "agent2", "ALIVE", 20000));
}

//  (d) agent2 cut off right after a create placed there, mended later.
static void
test_partition_in_a_create(void)
{
    //  Nothing else runs: every container counted below is this session's.
    for (int waited = 0; waited < 30000 && testbed_containers(&s_tb, NULL) != 0;
         waited += 200)
        harness_pause_ms(200);
    T_EQ_INT(testbed_containers(&s_tb, NULL), 0);
    T_ASSERT(testbed_operation(&s_tb, "exclude-agents", "\"agent1\""));
    char *text = NULL;
    int status =
        client_signed(&s_tb.p, &s_tb.p.super, "POST", "/session",
                      "{\"name\": \"f-cut\", \"image\": \"" IMAGE "\","
                      " \"enqueueOnly\": true,"
                      " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"}},"
                      " \"type\": \"interactive\", \"group\": \"default\","
                      " \"domain\": \"default\"}",
                      NULL, &text, NULL);
    T_EQ_INT(testbed_run(&s_tb, NULL, "cut agent2"), 0);
    T_EQ_INT(status, 201);
    json_t *r = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    const char *sid = json_string_value(json_object_get(r, "sessionId"));
    char id[64];
    snprintf(id, sizeof id, "%s", sid ? sid : "");
    json_decref(r);
    T_ASSERT(*id);
    T_ASSERT(testbed_operation(&s_tb, "include-agents", "\"agent1\""));
    harness_pause_ms(PARTITION_S * 1000);
    char st[32] = "", info[128] = "";
    s_status(id, st, info);
    fprintf(stderr, "# f-cut during the partition: %s %s\n", st, info);
    T_EQ_INT(testbed_run(&s_tb, NULL, "mend agent2"), 0);
    T_ASSERT(testbed_agent_becomes(&s_tb, "agent2", "ALIVE", 20000));
    //  Settled: RUNNING in one container, or ended with a reason and none.
    bool settled = false;
    int containers = -1;
    for (int waited = 0; waited < 120000 && !settled; waited += 500) {
        s_status(id, st, info);
        containers = testbed_containers(&s_tb, NULL);
        settled = (strcmp(st, "RUNNING") == 0 && containers == 1) ||
                  ((strcmp(st, "TERMINATED") == 0 || strcmp(st, "CANCELLED") == 0 ||
                    strcmp(st, "ERROR") == 0) &&
                   *info && containers == 0);
        if (!settled)
            harness_pause_ms(500);
    }
    fprintf(stderr, "# f-cut after the partition: %s (%s), %d container(s)\n", st, info,
            containers);
    T_ASSERT(settled);
    //  And it stays so: never a second container.
    harness_pause_ms(3000);
    char again[32], info2[128];
    s_status(id, again, info2);
    T_EQ_STR(again, st);
    T_EQ_INT(testbed_containers(&s_tb, NULL), containers);
    if (strcmp(st, "RUNNING") == 0) {
        T_ASSERT(testbed_answers(&s_tb, "f-cut", "after-the-cut"));
        s_destroy("f-cut");
    }
}

static void
test_down_leaves_nothing(void)
{
    T_EQ_INT(testbed_down_check(&s_tb), 0);
}

TESTBED_MAIN(s_tb, {
    T_RUN(test_replayed_and_forged_messages);
    T_RUN(test_revoked_key);
    T_RUN(test_clock_off);
    T_RUN(test_partition_in_a_create);
})
