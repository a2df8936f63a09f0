/*  =========================================================================
    cluster_test - cluster sessions between the real scheduler and two real
    agents on this machine (two state dirs, two bridges and subnets, runc):
    a single-node cluster of 2 runs both kernels on one agent, a multi-node
    cluster of 2 one kernel on each; every kernel has Backend.AI's
    BACKENDAI_CLUSTER_* environment and its cluster hostname (main1, sub1);
    once both run, /etc/hosts names both, and main1 reaches a server on sub1
    by name (on one bridge, and from one agent's bridge to the other's
    through the host); destroy leaves no container, namespace or hosts file
    on either agent. Needs root, runc, umoci and tini; skips otherwise.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "bus.h"
#include "harness.h"
#include "t.h"

#define CALL_MS  30000
#define EVENT_MS 30000
#define IMAGE    "local.backplane/library/busybox:latest"
#define SEEN_MAX 256
#define AGENTS   2

static char *s_dir;
static harness_proc_t s_scheduler, s_agents[AGENTS];
static harness_endpoints_t s_sched; //  the scheduler, which hosts the bus
static char s_bridges[AGENTS][16], s_agent_rpc[AGENTS][160];
static const char *s_names[AGENTS] = {"agent-c1", "agent-c2"};
static const char *s_cidrs[AGENTS]; //  harness_subnet, at the first start
static bus_sub_t *s_sub;
static bus_rpc_client_t *s_client, *s_agent_clients[AGENTS];

//  A session's two kernels as the agents run them.
typedef struct {
    const char *id;   //  the session
    const char *mode; //  single-node or multi-node
    char main_id[72], sub_id[72];
    int main_agent, sub_agent; //  index into s_agents
} cluster_t;

static cluster_t s_single = {.id = "c-single", .mode = "single-node"};
static cluster_t s_multi = {.id = "c-multi", .mode = "multi-node"};

//  The session.lifecycle events seen so far.
typedef struct {
    char event[40];
    char session_id[72];
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
        proto_session_lifecycle_clear(&step);
    }
}

//  Waits for event about session_id; true when it came.
static bool
s_wait(const char *event, const char *session_id)
{
    int64_t deadline = bus_clock_mono_ms() + EVENT_MS;
    do {
        s_drain();
        for (size_t i = 0; i < s_seen_count; i++)
            if (strcmp(s_seen[i].event, event) == 0 &&
                strcmp(s_seen[i].session_id, session_id) == 0)
                return true;
        harness_pause_ms(20);
    } while (bus_clock_mono_ms() < deadline);
    return false;
}

//  Calls method on client with what writer holds; the reply into *reply_p.
static int
s_call(bus_rpc_client_t *client,
       const char *method,
       bus_writer_t *writer,
       zchunk_t **reply_p)
{
    bus_error_t err = {0};
    int rc = bus_rpc_client_call_sync(client, method, bus_writer_data(writer),
                                      bus_writer_size(writer), CALL_MS, reply_p, &err);
    bus_writer_destroy(&writer);
    if (rc != BUS_OK)
        fprintf(stderr, "# %s: %d %s\n", method, rc, err.detail);
    return rc;
}

//  session.create of a cluster of size kernels, each with one CPU.
static int
s_create(const cluster_t *cluster, uint64_t size)
{
    char kernel[72];
    snprintf(kernel, sizeof kernel, "k-%s", cluster->id);
    proto_kv_t slots[] = {{"cpu", "1"}, {"mem", "268435456"}};
    proto_session_create_req_t in;
    proto_session_create_req_init(&in);
    in.session_id = cluster->id;
    in.kernel_id = kernel;
    in.name = cluster->id;
    in.access_key = "AKTEST";
    in.user_uuid = "user-1";
    in.domain_name = "default";
    in.group_id = "group-1";
    in.scaling_group = "default";
    in.image = IMAGE;
    in.slots = slots;
    in.slots_count = 2;
    in.cluster_mode = cluster->mode;
    in.cluster_size = size;
    bus_writer_t *writer = bus_writer_new();
    if (proto_session_create_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    zchunk_t *reply = NULL;
    int rc = s_call(s_client, PROTO_SESSION_CREATE, writer, &reply);
    zchunk_destroy(&reply);
    return rc;
}

static int
s_destroy(const char *session_id)
{
    proto_session_destroy_req_t in;
    proto_session_destroy_req_init(&in);
    in.session_id = session_id;
    bus_writer_t *writer = bus_writer_new();
    if (proto_session_destroy_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    zchunk_t *reply = NULL;
    int rc = s_call(s_client, PROTO_SESSION_DESTROY, writer, &reply);
    zchunk_destroy(&reply);
    return rc;
}

//  The kernels agent runs, into *rep (cleared by the caller).
static int
s_list(int agent, proto_kernel_list_rep_t *rep)
{
    proto_kernel_list_req_t in;
    proto_kernel_list_req_init(&in);
    bus_writer_t *writer = bus_writer_new();
    if (proto_kernel_list_req_write(&in, writer) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    int rc = s_call(s_agent_clients[agent], PROTO_KERNEL_LIST, writer, &reply);
    if (rc == BUS_OK)
        rc = proto_kernel_list_rep_decode(rep, zchunk_data(reply), zchunk_size(reply),
                                          &err);
    else
        proto_kernel_list_rep_init(rep);
    zchunk_destroy(&reply);
    return rc;
}

//  Finds the kernels of cluster on the agents: the main one by its id, the
//  other one (the sub) as whatever else of the session runs. How many
//  kernels of the session each agent runs go into counts.
static void
s_locate(cluster_t *cluster, int counts[AGENTS])
{
    char main_id[72];
    snprintf(main_id, sizeof main_id, "k-%s", cluster->id);
    cluster->main_agent = cluster->sub_agent = -1;
    for (int a = 0; a < AGENTS; a++) {
        counts[a] = 0;
        proto_kernel_list_rep_t rep;
        if (s_list(a, &rep) != BUS_OK)
            continue;
        for (size_t i = 0; i < rep.kernels_count; i++) {
            const proto_kernel_state_t *k = &rep.kernels[i];
            if (!k->session_id || strcmp(k->session_id, cluster->id) != 0)
                continue;
            counts[a]++;
            if (strcmp(k->kernel_id, main_id) == 0) {
                snprintf(cluster->main_id, sizeof cluster->main_id, "%s", k->kernel_id);
                cluster->main_agent = a;
            } else {
                snprintf(cluster->sub_id, sizeof cluster->sub_id, "%s", k->kernel_id);
                cluster->sub_agent = a;
            }
        }
        proto_kernel_list_rep_clear(&rep);
    }
}

//  A JSON string's text, "" when it is not one.
static const char *
s_text(const json_t *value)
{
    const char *text = json_string_value(value);
    return text ? text : "";
}

//  Runs shell code in kernel id on agent; its stdout (caller frees), or
//  NULL when the run did not finish.
static char *
s_run(int agent, const char *id, const char *code)
{
    static int runs;
    char run_id[32];
    snprintf(run_id, sizeof run_id, "run-%d", ++runs);
    proto_kernel_execute_req_t in;
    proto_kernel_execute_req_init(&in);
    in.kernel_id = id;
    in.run_id = run_id;
    in.mode = "query";
    in.code = code;
    in.wait_ms = 15000;
    bus_writer_t *writer = bus_writer_new();
    if (proto_kernel_execute_req_write(&in, writer) != 0)
        return NULL; //  refused by the schema: the caller sees a failure
    zchunk_t *reply = NULL;
    int rc = s_call(s_agent_clients[agent], PROTO_KERNEL_EXECUTE, writer, &reply);
    proto_kernel_execute_rep_t out;
    bus_error_t err = {0};
    char *text = NULL;
    if (rc == BUS_OK &&
        proto_kernel_execute_rep_decode(&out, zchunk_data(reply), zchunk_size(reply),
                                        &err) == BUS_OK) {
        json_t *result = json_loads(out.result, 0, NULL);
        const char *status = json_string_value(json_object_get(result, "status"));
        if (status && strcmp(status, "finished") == 0) {
            //  The console: [["stdout", text], ...]; "\n" first eases line matches.
            json_t *console = json_object_get(result, "console");
            size_t size = 2, index;
            json_t *item;
            json_array_foreach(console, index, item)
            {
                size += strlen(s_text(json_array_get(item, 1)));
            }
            text = calloc(1, size);
            if (text)
                text[0] = '\n';
            json_array_foreach(console, index, item)
            {
                if (text && strcmp(s_text(json_array_get(item, 0)), "stdout") == 0)
                    strcat(text, s_text(json_array_get(item, 1)));
            }
        } else
            fprintf(stderr, "# run in %s: %s\n", id, out.result);
        json_decref(result);
        proto_kernel_execute_rep_clear(&out);
    }
    zchunk_destroy(&reply);
    return text;
}

//  Checks what the kernel's environment and hostname say it is.
static bool
s_check_env(const cluster_t *cluster, bool main)
{
    char *out =
        s_run(main ? cluster->main_agent : cluster->sub_agent,
              main ? cluster->main_id : cluster->sub_id,
              "env | grep ^BACKENDAI_CLUSTER_ | sort; echo \"hostname=$(hostname)\"");
    char want[9][96];
    const char *host = main ? "main1" : "sub1";
    snprintf(want[0], sizeof want[0], "\nBACKENDAI_CLUSTER_SIZE=2\n");
    snprintf(want[1], sizeof want[1], "\nBACKENDAI_CLUSTER_ROLE=%s\n",
             main ? "main" : "sub");
    snprintf(want[2], sizeof want[2], "\nBACKENDAI_CLUSTER_IDX=1\n");
    snprintf(want[3], sizeof want[3], "\nBACKENDAI_CLUSTER_LOCAL_RANK=%d\n",
             main ? 0 : 1);
    snprintf(want[4], sizeof want[4], "\nBACKENDAI_CLUSTER_HOST=%s\n", host);
    snprintf(want[5], sizeof want[5], "\nBACKENDAI_CLUSTER_HOSTS=main1,sub1\n");
    snprintf(want[6], sizeof want[6], "\nBACKENDAI_CLUSTER_REPLICAS=main:1,sub:1\n");
    snprintf(want[7], sizeof want[7], "\nBACKENDAI_CLUSTER_MODE=%s\n", cluster->mode);
    snprintf(want[8], sizeof want[8], "\nhostname=%s\n", host);
    bool ok = out != NULL;
    for (size_t i = 0; ok && i < sizeof want / sizeof want[0]; i++)
        if (!strstr(out, want[i])) {
            fprintf(stderr, "# %s of %s lacks \"%s\": %s\n", host, cluster->id,
                    want[i] + 1, out);
            ok = false;
        }
    free(out);
    return ok;
}

//  Waits until the kernel's /etc/hosts names both kernels (kernel.hosts
//  came); true when it did.
static bool
s_wait_hosts(int agent, const char *id)
{
    int64_t deadline = bus_clock_mono_ms() + EVENT_MS;
    while (bus_clock_mono_ms() < deadline) {
        char *out = s_run(agent, id,
                          "grep -q '[[:space:]]main1$' /etc/hosts &&"
                          " grep -q '[[:space:]]sub1$' /etc/hosts && echo named");
        bool named = out && strstr(out, "\nnamed\n");
        free(out);
        if (named)
            return true;
        harness_pause_ms(100);
    }
    return false;
}

//  main1 fetches a file that sub1 serves on port, by sub1's name.
static bool
s_reach(const cluster_t *cluster, int port)
{
    char code[256];
    snprintf(code, sizeof code,
             "echo pong-%s > /home/work/pong.txt && httpd -p %d -h /home/work && echo up",
             cluster->id, port);
    char *out = s_run(cluster->sub_agent, cluster->sub_id, code);
    bool up = out && strstr(out, "\nup\n");
    free(out);
    if (!up)
        return false;
    //  busybox nc: wget of this (static) busybox dies in a container.
    snprintf(code, sizeof code,
             "printf 'GET /pong.txt HTTP/1.0\\r\\n\\r\\n' | nc -w 5 sub1 %d", port);
    out = s_run(cluster->main_agent, cluster->main_id, code);
    char want[64];
    snprintf(want, sizeof want, "\npong-%s\n", cluster->id);
    bool reached = out && strstr(out, want);
    if (!reached)
        fprintf(stderr, "# main1 of %s did not reach sub1: %s\n", cluster->id,
                out ? out : "(no answer)");
    free(out);
    return reached;
}

//  Nothing of kernel id is left on agent: container dir, netns, hosts file.
static bool
s_nothing_left(int agent, const char *id)
{
    char command[1024];
    snprintf(command, sizeof command,
             "test ! -e %s/%s/kernels/%s && test ! -e /run/netns/bp-%s &&"
             " test ! -e %s/%s/hosts/%s",
             s_dir, s_names[agent], id, id, s_dir, s_names[agent], id);
    return harness_shell(command) == 0;
}

static void
test_start(void)
{
    s_dir = harness_tmpdir("cluster");
    T_ASSERT(s_dir);
    T_EQ_INT(harness_busybox_images(s_dir), 0);
    char line[HARNESS_LINE_MAX];
    const char *sets[] = {"sessions.pass_ms=100", "log.level=info", NULL};
    T_EQ_INT(
        harness_scheduler_start(&s_scheduler, s_dir, "scheduler", NULL, sets, &s_sched),
        0);
    s_client = bus_rpc_client_new(s_sched.rpc, "test/cluster", NULL);
    s_sub = bus_sub_new(s_sched.hub_subscribe, NULL);
    T_ASSERT(s_client && s_sub);
    T_ASSERT(bus_sub_subscribe(s_sub, "session.", NULL, NULL) == 0);

    harness_bus_t bus = harness_endpoints_bus(&s_sched);
    for (int a = 0; a < AGENTS; a++) {
        snprintf(s_bridges[a], sizeof s_bridges[a], "bpc%d%u", a + 1,
                 (unsigned) (getpid() % 100000));
        char bridge[64], cidr[64];
        snprintf(bridge, sizeof bridge, "agent.network.bridge=%s", s_bridges[a]);
        if (!s_cidrs[a])
            s_cidrs[a] = harness_subnet();
        snprintf(cidr, sizeof cidr, "agent.network.cidr=%s",
                 s_cidrs[a] ? s_cidrs[a] : "");
        const char *extra[] = {"agent.slots.cpu=4", "agent.slots.mem=2g", bridge, cidr,
                               NULL};
        T_ASSERT(harness_agent_start(&s_agents[a], s_dir, s_names[a], &bus, extra, line,
                                     sizeof line) == 0);
        T_ASSERT(harness_field(line, "rpc", s_agent_rpc[a], sizeof s_agent_rpc[a]));
        s_agent_clients[a] = bus_rpc_client_new(s_agent_rpc[a], "test/cluster", NULL);
        T_ASSERT(s_agent_clients[a]);
    }
}

static void
test_single_node_on_one_agent(void)
{
    T_EQ_INT(s_create(&s_single, 2), BUS_OK);
    T_ASSERT(s_wait("session_scheduled", s_single.id));
    T_ASSERT(s_wait("session_started", s_single.id));
    int counts[AGENTS];
    s_locate(&s_single, counts);
    T_ASSERT(s_single.main_agent >= 0 && s_single.sub_agent >= 0);
    T_EQ_INT(s_single.main_agent, s_single.sub_agent);
    T_EQ_INT(counts[s_single.main_agent], 2);
}

static void
test_multi_node_on_both_agents(void)
{
    T_EQ_INT(s_create(&s_multi, 2), BUS_OK);
    T_ASSERT(s_wait("session_started", s_multi.id));
    int counts[AGENTS];
    s_locate(&s_multi, counts);
    T_ASSERT(s_multi.main_agent >= 0 && s_multi.sub_agent >= 0);
    T_ASSERT(s_multi.main_agent != s_multi.sub_agent);
    T_EQ_INT(counts[0], 1);
    T_EQ_INT(counts[1], 1);
}

static void
test_cluster_environment(void)
{
    T_ASSERT(s_single.main_agent >= 0 && s_multi.main_agent >= 0);
    T_ASSERT(s_check_env(&s_single, true));
    T_ASSERT(s_check_env(&s_single, false));
    T_ASSERT(s_check_env(&s_multi, true));
    T_ASSERT(s_check_env(&s_multi, false));
}

static void
test_hosts_name_the_cluster(void)
{
    T_ASSERT(s_single.main_agent >= 0 && s_multi.main_agent >= 0);
    T_ASSERT(s_wait_hosts(s_single.main_agent, s_single.main_id));
    T_ASSERT(s_wait_hosts(s_single.sub_agent, s_single.sub_id));
    T_ASSERT(s_wait_hosts(s_multi.main_agent, s_multi.main_id));
    T_ASSERT(s_wait_hosts(s_multi.sub_agent, s_multi.sub_id));
}

static void
test_main_reaches_sub_by_name(void)
{
    T_ASSERT(s_single.main_agent >= 0 && s_multi.main_agent >= 0);
    T_ASSERT(s_reach(&s_single, 8081)); //  one bridge
    T_ASSERT(s_reach(&s_multi, 8082));  //  two bridges, through the host
}

static void
test_destroy_cleans_up(void)
{
    const cluster_t *clusters[] = {&s_single, &s_multi};
    for (size_t c = 0; c < 2; c++) {
        T_EQ_INT(s_destroy(clusters[c]->id), BUS_OK);
        T_ASSERT(s_wait("session_terminated", clusters[c]->id));
    }
    for (int a = 0; a < AGENTS; a++) {
        proto_kernel_list_rep_t rep;
        T_EQ_INT(s_list(a, &rep), BUS_OK);
        size_t left = rep.kernels_count;
        proto_kernel_list_rep_clear(&rep);
        T_EQ_INT(left, 0);
        char command[600];
        snprintf(command, sizeof command,
                 "test -z \"$(runc --root %s/%s/runc list -q 2>/dev/null)\"", s_dir,
                 s_names[a]);
        T_EQ_INT(harness_shell(command), 0);
    }
    for (size_t c = 0; c < 2; c++) {
        T_ASSERT(s_nothing_left(clusters[c]->main_agent, clusters[c]->main_id));
        T_ASSERT(s_nothing_left(clusters[c]->sub_agent, clusters[c]->sub_id));
    }
}

int
main(void)
{
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    T_RUN(test_start);
    if (!t_failures) {
        T_RUN(test_single_node_on_one_agent);
        T_RUN(test_multi_node_on_both_agents);
        T_RUN(test_cluster_environment);
        T_RUN(test_hosts_name_the_cluster);
        T_RUN(test_main_reaches_sub_by_name);
        T_RUN(test_destroy_cleans_up);
    }
    bus_rpc_client_destroy(&s_client);
    for (int a = 0; a < AGENTS; a++)
        bus_rpc_client_destroy(&s_agent_clients[a]);
    bus_sub_destroy(&s_sub);
    //  The second agent here, the scheduler and the first in the teardown.
    bool clean = true;
    if (s_agents[1].pid > 0) {
        clean = harness_stop(&s_agents[1], 10000) == 0 &&
                !harness_log_has_report(&s_agents[1]);
        if (!clean)
            fprintf(stderr, "# %s did not stop cleanly\n", s_names[1]);
    }
    char command[128];
    snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridges[1]);
    (void) harness_shell(command);
    clean = harness_teardown(&s_scheduler, &s_agents[0], s_bridges[0], s_dir,
                             t_failures > 0 || !clean) &&
            clean;
    return clean ? T_DONE() : 1;
}
