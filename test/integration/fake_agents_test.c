/*  =========================================================================
    fake_agents_test - the real scheduler with a fleet of fake agents
    (backplane-agent with fake.agents): the agents register ALIVE with the
    fleet's slots and endpoint, sessions submitted over session.create all
    run, placed within every agent's capacity, each kernel on the agent the
    fleet says it is on (kernel.list by agent_id), and destroying them ends
    them all there. The fleet's own answers: create idempotent, an unknown
    agent NOT_FOUND, any method that needs a container refused. No root or
    containers needed.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bus.h"
#include "harness.h"
#include "t.h"

#define READY_MS   20000
#define CALL_MS    15000
#define WAIT_MS    60000
#define AGENTS     20
#define SESSIONS   200
#define AGENT_CPU  16 //  each agent's cpu; every session takes 1
#define AGENT_MEM  "64g"
#define AGENT_MEMB "68719476736"
#define FLEET      "fleet"
#define IMAGE      "local.backplane/library/busybox:latest"

static char *s_dir;
static harness_proc_t s_scheduler, s_fleet;
static char s_rpc[160], s_fleet_rpc[160];
static bus_rpc_client_t *s_client, *s_fleet_client;
static char s_ids[SESSIONS][48];
static char s_kernels[SESSIONS][48];
static char s_agent_of[SESSIONS][64]; //  where the scheduler says each runs

//  Calls method with the body in writer (consumed); the reply body into
//  *reply_p when given. The status; the detail into err.
static int
s_call(bus_rpc_client_t *client,
       const char *method,
       bus_writer_t *writer,
       zchunk_t **reply_p,
       bus_error_t *err)
{
    int rc =
        writer ? bus_rpc_client_call_sync(client, method, bus_writer_data(writer),
                                          bus_writer_size(writer), CALL_MS, reply_p, err)
               : BUS_STATUS_INTERNAL;
    bus_writer_destroy(&writer);
    return rc;
}

static bus_writer_t *
s_create_req(int i)
{
    char name[32];
    snprintf(name, sizeof name, "fake-%d", i);
    proto_kv_t slots[] = {{"cpu", "1"}, {"mem", "1073741824"}};
    proto_session_create_req_t in;
    proto_session_create_req_init(&in);
    in.session_id = s_ids[i];
    in.kernel_id = s_kernels[i];
    in.name = name;
    in.access_key = "AKFAKE";
    in.user_uuid = "user-fake";
    in.domain_name = "default";
    in.group_id = "group-fake";
    in.scaling_group = "default";
    in.image = IMAGE;
    in.slots = slots;
    in.slots_count = 2;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_session_create_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    return writer;
}

//  session.list of one status: fills rep (caller clears it).
static int
s_list(const char *status, proto_session_list_rep_t *rep)
{
    proto_session_list_req_t in;
    proto_session_list_req_init(&in);
    in.statuses = status;
    in.limit = 10000;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_session_list_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    int rc = s_call(s_client, PROTO_SESSION_LIST, writer, &reply, &err);
    if (rc == BUS_OK)
        rc = proto_session_list_rep_decode(rep, zchunk_data(reply), zchunk_size(reply),
                                           &err);
    else
        proto_session_list_rep_init(rep);
    zchunk_destroy(&reply);
    return rc;
}

//  Waits until count sessions read status; false on timeout.
static bool
s_wait_status(const char *status, size_t count)
{
    int64_t started = bus_clock_mono_ms();
    size_t seen = 0;
    while (bus_clock_mono_ms() - started < WAIT_MS) {
        proto_session_list_rep_t rep;
        if (s_list(status, &rep) == BUS_OK)
            seen = rep.total_count;
        proto_session_list_rep_clear(&rep);
        if (seen >= count)
            return true;
        harness_pause_ms(100);
    }
    fprintf(stderr, "# %zu of %zu sessions %s\n", seen, count, status);
    return false;
}

//  kernel.list of agent at the fleet: fills rep (caller clears it).
static int
s_kernel_list(const char *agent, proto_kernel_list_rep_t *rep, bus_error_t *err)
{
    proto_kernel_list_req_t in;
    proto_kernel_list_req_init(&in);
    in.agent_id = agent;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_kernel_list_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    zchunk_t *reply = NULL;
    int rc = s_call(s_fleet_client, PROTO_KERNEL_LIST, writer, &reply, err);
    if (rc == BUS_OK)
        rc = proto_kernel_list_rep_decode(rep, zchunk_data(reply), zchunk_size(reply),
                                          err);
    else
        proto_kernel_list_rep_init(rep);
    zchunk_destroy(&reply);
    return rc;
}

static void
test_start(void)
{
    s_dir = harness_tmpdir("fake");
    T_ASSERT(s_dir);
    int pid = (int) getpid();
    for (int i = 0; i < SESSIONS; i++) {
        snprintf(s_ids[i], sizeof s_ids[i], "fa-%d-%d", pid, i);
        snprintf(s_kernels[i], sizeof s_kernels[i], "fk-%d-%d", pid, i);
    }
    char state[512], line[HARNESS_LINE_MAX], pub[200], sub[200], reg[200];
    harness_endpoints_t sched;
    const char *sets[] = {"sessions.pass_ms=100", NULL};
    T_EQ_INT(
        harness_scheduler_start(&s_scheduler, s_dir, "scheduler", NULL, sets, &sched), 0);
    snprintf(s_rpc, sizeof s_rpc, "%s", sched.rpc);
    snprintf(state, sizeof state, "node.state_dir=%s/" FLEET, s_dir);
    snprintf(pub, sizeof pub, "bus.hub.publish=%s", sched.hub_publish);
    snprintf(sub, sizeof sub, "bus.hub.subscribe=%s", sched.hub_subscribe);
    snprintf(reg, sizeof reg, "bus.hub.registry=%s", sched.registry);
    const char *fleet_args[] = {"--set", state,
                                "--set", pub,
                                "--set", sub,
                                "--set", reg,
                                "--set", "node.name=" FLEET,
                                "--set", "bus.heartbeat_ms=100",
                                "--set", "fake.agents=20",
                                "--set", "fake.slots=cpu=16,mem=" AGENT_MEM,
                                NULL};
    T_ASSERT(harness_start(&s_fleet, s_dir, FLEET, "agent", fleet_args) == 0);
    T_ASSERT(harness_wait_line(&s_fleet, "ready ", READY_MS, line, sizeof line));
    T_ASSERT(harness_field(line, "rpc", s_fleet_rpc, sizeof s_fleet_rpc));
    s_client = bus_rpc_client_new(s_rpc, "test/fake", NULL);
    s_fleet_client = bus_rpc_client_new(s_fleet_rpc, "test/fake", NULL);
    T_ASSERT(s_client && s_fleet_client);
}

static void
test_agents_alive(void)
{
    int64_t started = bus_clock_mono_ms();
    proto_scheduler_agents_rep_t rep;
    proto_scheduler_agents_rep_init(&rep);
    while (bus_clock_mono_ms() - started < WAIT_MS) {
        proto_scheduler_agents_rep_clear(&rep);
        proto_scheduler_agents_req_t in;
        proto_scheduler_agents_req_init(&in);
        in.status = "ALIVE";
        bus_writer_t *writer = bus_writer_new();
        if (writer && proto_scheduler_agents_req_write(&in, writer) != 0)
            bus_writer_destroy(&writer);
        zchunk_t *reply = NULL;
        bus_error_t err = {0};
        if (s_call(s_client, PROTO_SCHEDULER_AGENTS, writer, &reply, &err) == BUS_OK)
            proto_scheduler_agents_rep_decode(&rep, zchunk_data(reply),
                                              zchunk_size(reply), &err);
        zchunk_destroy(&reply);
        if (rep.agents_count >= AGENTS)
            break;
        harness_pause_ms(100);
    }
    T_EQ_INT(rep.agents_count, AGENTS);
    bool seen[AGENTS + 1] = {false};
    for (size_t i = 0; i < rep.agents_count; i++) {
        const proto_scheduler_agent_t *agent = &rep.agents[i];
        int number = 0;
        T_ASSERT(sscanf(agent->id, FLEET "-%d", &number) == 1);
        T_ASSERT(number >= 1 && number <= AGENTS && !seen[number]);
        seen[number] = true;
        T_EQ_STR(agent->addr, s_fleet_rpc);
        T_EQ_STR(agent->architecture, "x86_64");
        T_EQ_STR(agent->scaling_group, "default");
        bool cpu = false, mem = false;
        for (size_t s = 0; s < agent->available_slots_count; s++) {
            const proto_kv_t *slot = &agent->available_slots[s];
            cpu =
                cpu || (strcmp(slot->key, "cpu") == 0 && strcmp(slot->value, "16") == 0);
            mem = mem ||
                  (strcmp(slot->key, "mem") == 0 && strcmp(slot->value, AGENT_MEMB) == 0);
        }
        T_ASSERT(cpu && mem);
    }
    proto_scheduler_agents_rep_clear(&rep);
}

static void
test_sessions_run_within_capacity(void)
{
    for (int i = 0; i < SESSIONS; i++) {
        bus_error_t err = {0};
        int rc = s_call(s_client, PROTO_SESSION_CREATE, s_create_req(i), NULL, &err);
        if (rc != BUS_OK)
            fprintf(stderr, "# create %d: %s\n", i, err.detail);
        T_EQ_INT(rc, BUS_OK);
    }
    T_ASSERT(s_wait_status("RUNNING", SESSIONS));
    proto_session_list_rep_t rep;
    T_EQ_INT(s_list("RUNNING", &rep), BUS_OK);
    int load[AGENTS + 1] = {0};
    int placed = 0;
    for (size_t i = 0; i < rep.sessions_count; i++) {
        const proto_session_info_t *info = &rep.sessions[i];
        int index = -1, number = 0;
        for (int s = 0; s < SESSIONS; s++)
            if (strcmp(s_ids[s], info->session_id) == 0)
                index = s;
        if (index < 0)
            continue;
        char container[64];
        snprintf(container, sizeof container, "fake-%s", s_kernels[index]);
        if (!info->agent_id || sscanf(info->agent_id, FLEET "-%d", &number) != 1 ||
            number < 1 || number > AGENTS || !info->kernel_host ||
            strcmp(info->kernel_host, "127.0.0.1") != 0 || !info->container_id ||
            strcmp(info->container_id, container) != 0) {
            fprintf(stderr, "# session %s: agent=%s host=%s container=%s\n",
                    info->session_id, info->agent_id, info->kernel_host,
                    info->container_id);
            continue;
        }
        snprintf(s_agent_of[index], sizeof s_agent_of[index], "%s", info->agent_id);
        load[number]++;
        placed++;
    }
    proto_session_list_rep_clear(&rep);
    T_EQ_INT(placed, SESSIONS);
    //  Never over an agent's capacity, so at least ceil(200 / 16) agents hold
    //  them whatever the selector (packed or spread).
    int used = 0;
    for (int a = 1; a <= AGENTS; a++) {
        T_ASSERT(load[a] <= AGENT_CPU);
        used += load[a] > 0;
    }
    fprintf(stderr, "# %d agents hold the %d sessions\n", used, SESSIONS);
    T_ASSERT(used >= (SESSIONS + AGENT_CPU - 1) / AGENT_CPU);
}

static void
test_fleet_lists_agree(void)
{
    int total = 0;
    for (int a = 1; a <= AGENTS; a++) {
        char agent[64];
        snprintf(agent, sizeof agent, FLEET "-%d", a);
        proto_kernel_list_rep_t rep;
        bus_error_t err = {0};
        T_EQ_INT(s_kernel_list(agent, &rep, &err), BUS_OK);
        for (size_t k = 0; k < rep.kernels_count; k++) {
            int index = -1;
            for (int s = 0; s < SESSIONS; s++)
                if (strcmp(s_kernels[s], rep.kernels[k].kernel_id) == 0)
                    index = s;
            T_ASSERT(index >= 0);
            T_EQ_STR(rep.kernels[k].session_id, s_ids[index]);
            T_EQ_STR(rep.kernels[k].status, "running");
            T_EQ_STR(s_agent_of[index], agent);
            total++;
        }
        proto_kernel_list_rep_clear(&rep);
    }
    T_EQ_INT(total, SESSIONS);
    proto_kernel_list_rep_t rep;
    bus_error_t err = {0};
    T_EQ_INT(s_kernel_list("elsewhere-1", &rep, &err), BUS_STATUS_NOT_FOUND);
    proto_kernel_list_rep_clear(&rep);
}

static void
test_fleet_answers(void)
{
    //  A create again: what exists, nothing new.
    proto_kernel_create_req_t in;
    proto_kernel_create_req_init(&in);
    in.kernel_id = s_kernels[0];
    in.session_id = s_ids[0];
    in.agent_id = s_agent_of[0];
    in.image = IMAGE;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_kernel_create_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    T_EQ_INT(s_call(s_fleet_client, PROTO_KERNEL_CREATE, writer, &reply, &err), BUS_OK);
    proto_kernel_create_rep_t rep;
    T_EQ_INT(proto_kernel_create_rep_decode(&rep, zchunk_data(reply), zchunk_size(reply),
                                            &err),
             BUS_OK);
    char container[64];
    snprintf(container, sizeof container, "fake-%s", s_kernels[0]);
    T_EQ_STR(rep.container_id, container);
    T_EQ_STR(rep.kernel_host, "127.0.0.1");
    T_EQ_INT(rep.service_ports_count, 0);
    proto_kernel_create_rep_clear(&rep);
    zchunk_destroy(&reply);
    //  An agent this fleet does not play.
    in.kernel_id = "fk-nobody";
    in.agent_id = FLEET "-21";
    writer = bus_writer_new();
    if (writer && proto_kernel_create_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    T_EQ_INT(s_call(s_fleet_client, PROTO_KERNEL_CREATE, writer, NULL, &err),
             BUS_STATUS_NOT_FOUND);
    //  Anything that needs a container.
    proto_kernel_execute_req_t run;
    proto_kernel_execute_req_init(&run);
    run.kernel_id = s_kernels[0];
    run.run_id = "r1";
    run.mode = "query";
    run.code = "print(1)";
    writer = bus_writer_new();
    if (writer && proto_kernel_execute_req_write(&run, writer) != 0)
        bus_writer_destroy(&writer);
    T_EQ_INT(s_call(s_fleet_client, PROTO_KERNEL_EXECUTE, writer, NULL, &err),
             BUS_STATUS_UNAVAILABLE);
    T_EQ_STR(err.detail, "fake agent: no containers");
}

static void
test_destroy_ends_them_all(void)
{
    for (int i = 0; i < SESSIONS; i++) {
        proto_session_destroy_req_t in;
        proto_session_destroy_req_init(&in);
        in.session_id = s_ids[i];
        bus_writer_t *writer = bus_writer_new();
        if (writer && proto_session_destroy_req_write(&in, writer) != 0)
            bus_writer_destroy(&writer);
        bus_error_t err = {0};
        T_EQ_INT(s_call(s_client, PROTO_SESSION_DESTROY, writer, NULL, &err), BUS_OK);
    }
    T_ASSERT(s_wait_status("TERMINATED", SESSIONS));
    proto_kernel_list_rep_t rep;
    bus_error_t err = {0};
    T_EQ_INT(s_kernel_list("", &rep, &err), BUS_OK); //  the whole fleet
    T_EQ_INT(rep.kernels_count, 0);
    proto_kernel_list_rep_clear(&rep);
    //  A destroy again answers as the first did.
    proto_kernel_destroy_req_t in;
    proto_kernel_destroy_req_init(&in);
    in.kernel_id = s_kernels[0];
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_kernel_destroy_req_write(&in, writer) != 0)
        bus_writer_destroy(&writer);
    zchunk_t *reply = NULL;
    T_EQ_INT(s_call(s_fleet_client, PROTO_KERNEL_DESTROY, writer, &reply, &err), BUS_OK);
    proto_kernel_destroy_rep_t out;
    T_EQ_INT(proto_kernel_destroy_rep_decode(&out, zchunk_data(reply), zchunk_size(reply),
                                             &err),
             BUS_OK);
    T_EQ_INT(out.exit_code, 0);
    proto_kernel_destroy_rep_clear(&out);
    zchunk_destroy(&reply);
}

//  The replicas of one model service (spread) on as many agents as there
//  are, though the group packs (the default selector) and one agent could
//  hold them all.
#define SPREAD 10
static char s_spread_ids[SPREAD][48], s_spread_kernels[SPREAD][48];

static void
test_spread(void)
{
    for (int i = 0; i < SPREAD; i++) {
        snprintf(s_spread_ids[i], sizeof s_spread_ids[i], "sp-%d-%d", (int) getpid(), i);
        snprintf(s_spread_kernels[i], sizeof s_spread_kernels[i], "sk-%d-%d",
                 (int) getpid(), i);
        char name[32];
        snprintf(name, sizeof name, "replica-%d", i);
        proto_kv_t slots[] = {{"cpu", "1"}, {"mem", "1073741824"}};
        proto_session_create_req_t in;
        proto_session_create_req_init(&in);
        in.session_id = s_spread_ids[i];
        in.kernel_id = s_spread_kernels[i];
        in.name = name;
        in.access_key = "AKFAKE";
        in.user_uuid = "user-fake";
        in.domain_name = "default";
        in.group_id = "group-fake";
        in.scaling_group = "default";
        in.image = IMAGE;
        in.slots = slots;
        in.slots_count = 2;
        in.spread = "endpoint-one";
        bus_writer_t *writer = bus_writer_new();
        if (writer && proto_session_create_req_write(&in, writer) != 0)
            bus_writer_destroy(&writer);
        bus_error_t err = {0};
        T_EQ_INT(s_call(s_client, PROTO_SESSION_CREATE, writer, NULL, &err), BUS_OK);
    }
    T_ASSERT(s_wait_status("RUNNING", SPREAD));
    proto_session_list_rep_t rep;
    T_EQ_INT(s_list("RUNNING", &rep), BUS_OK);
    int load[AGENTS + 1] = {0}, used = 0;
    for (size_t i = 0; i < rep.sessions_count; i++) {
        int number = 0;
        if (rep.sessions[i].agent_id &&
            sscanf(rep.sessions[i].agent_id, FLEET "-%d", &number) == 1 && number >= 1 &&
            number <= AGENTS)
            used += load[number]++ == 0;
    }
    proto_session_list_rep_clear(&rep);
    fprintf(stderr, "# %d agents hold the %d replicas\n", used, SPREAD);
    T_EQ_INT(used, SPREAD);
    for (int i = 0; i < SPREAD; i++) {
        proto_session_destroy_req_t in;
        proto_session_destroy_req_init(&in);
        in.session_id = s_spread_ids[i];
        bus_writer_t *writer = bus_writer_new();
        if (writer && proto_session_destroy_req_write(&in, writer) != 0)
            bus_writer_destroy(&writer);
        bus_error_t err = {0};
        T_EQ_INT(s_call(s_client, PROTO_SESSION_DESTROY, writer, NULL, &err), BUS_OK);
    }
    T_ASSERT(s_wait_status("TERMINATED", SESSIONS + SPREAD));
}

int
main(void)
{
    T_RUN(test_start);
    if (!t_failures) {
        T_RUN(test_agents_alive);
        T_RUN(test_sessions_run_within_capacity);
        T_RUN(test_fleet_lists_agree);
        T_RUN(test_fleet_answers);
        T_RUN(test_destroy_ends_them_all);
        T_RUN(test_spread);
    }
    bus_rpc_client_destroy(&s_client);
    bus_rpc_client_destroy(&s_fleet_client);
    bool clean = harness_teardown(&s_scheduler, &s_fleet, NULL, s_dir, t_failures > 0);
    return clean ? T_DONE() : 1;
}
