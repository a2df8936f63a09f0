/*  =========================================================================
    testbed_cluster_test - a cluster session of four kernels on two agent
    hosts of the testbed, two agents per host, every kernel pinging every
    other by name

    deploy/testbed with TESTBED_AGENTS_PER_HOST=2: agent1 and agent2 each
    run a second agent, agentb (nodes agent1b and agent2b, kernels on
    10.214.<N>.0/24 on a bridge of their own, <prefix>-<N>b), each agent
    offering one CPU. A multi-node cluster session of four kernels of one
    CPU, created through the gateway's HTTP API, gets one kernel on each
    agent (multi-node places each kernel on an agent of its own): two on
    each host, one in each of the host's two subnets. Each kernel pings
    every other by its cluster hostname (main1, sub1, sub2, sub3, which the
    agents write into the kernels' /etc/hosts): `ping -c1 -W2 <name>` run
    by `runc exec` in its container, as root with CAP_NET_RAW (busybox's
    ping opens a raw socket only, and the kernel's user holds no
    capability); the main kernel, through the execute API as its own user,
    also reaches each other by name over TCP (refused on a closed port).
    What a name resolves to is the address of the kernel that bears it, in
    the subnet of the agent that runs it, so the packets cross the two
    bridges of a host and the routed subnets between hosts. agent2b is
    then killed (SIGKILL) holding spare kernel networks (agent.spares,
    namespaces named in its net-spares/ files); `down`
    sweeps them with the rest and leaves no namespace (the hosts', the
    kernels', the spare ones), mount, container or process, every other
    service stopped cleanly.

    The testbed's /24 is a harness_subnet; its prefix is "bpc<N>". Needs
    root, runc, umoci, tini, ip, nsenter, python3 and curl.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gateway_client.h"
#include "harness.h"
#include "t.h"
#include "testbed_client.h"

#define IMAGE   "local.backplane/library/busybox:latest"
#define KERNELS 4

//  The four agents: their host, service (their state directory's name),
//  node name, host number and kernels' subnet (its first three numbers).
typedef struct {
    const char *host, *service, *node;
    int number;
    const char *subnet;
} agent_t;

static const agent_t k_agents[KERNELS] = {
    {"agent1", "agent", "agent1", 21, "10.213.21."},
    {"agent1", "agentb", "agent1b", 21, "10.214.21."},
    {"agent2", "agent", "agent2", 22, "10.213.22."},
    {"agent2", "agentb", "agent2b", 22, "10.214.22."},
};

static const char *const k_names[KERNELS] = {"main1", "sub1", "sub2", "sub3"};

//  The same agents as deploy/testbed's "host/service", in the same order.
static const char *const k_services[KERNELS + 1] = {
    "agent1/agent", "agent1/agentb", "agent2/agent", "agent2/agentb", NULL};

//  kernels[i]: the kernel agent i runs of the session.
static testbed_t s_tb = {.name = "tb-cluster",
                         .letters = "bpc",
                         .env = "TESTBED_AGENTS_PER_HOST=2 TESTBED_AGENT_CPU=1"
                                " TESTBED_AGENT_MEM=1g",
                         .agents = k_services};
//  What each kernel says of itself.
static char s_hostnames[KERNELS][32];

//  Run in a kernel: its own name and address (/etc/hosts), then each
//  other cluster hostname reached, one line each ("reached=sub1", or
//  "missed=sub1" and why). No quote of either kind: it goes into a JSON
//  string and a shell's single quotes as it is.
#define PROBE_HEAD                                                                       \
    "me=$(hostname); echo me=$me addr=$(grep -w $me /etc/hosts | cut -f1 | head -n 1);"  \
    " for n in main1 sub1 sub2 sub3; do [ $n = $me ] && continue;"
//  ping -c1 -W2 NAME: an ICMP echo answered.
#define PROBE_PING                                                                       \
    PROBE_HEAD " if out=$(ping -c1 -W2 $n 2>&1); then echo reached=$n;"                  \
               " else echo missed=$n $out; fi; done"
//  A TCP connection to port 7 of NAME, where nothing listens: refused by
//  that kernel (a reset from its address) is the proof.
#define PROBE_TCP                                                                        \
    PROBE_HEAD " out=$(nc -w 2 $n 7 </dev/null 2>&1); case $out in *refused*)"           \
               " echo reached=$n ;; *) echo missed=$n $out ;; esac; done"

//  The ALIVE agents as the admin API lists them: how many, and whether
//  each of ours is among them at its own host's address.
static int
s_agents_alive(bool *all_ours)
{
    json_t *r =
        client_gql(&s_tb.p, &s_tb.p.super,
                   "{ agent_list(limit: 10, offset: 0, status: \"ALIVE\") { items {"
                   " id status addr } } }",
                   NULL);
    json_t *items = json_object_get(
        json_object_get(json_object_get(r, "data"), "agent_list"), "items");
    int found = 0;
    for (size_t i = 0; i < KERNELS; i++) {
        char prefix[64];
        snprintf(prefix, sizeof prefix, "tcp://%s.%d:", s_tb.net, k_agents[i].number);
        size_t index;
        json_t *agent;
        json_array_foreach(items, index, agent)
        {
            const char *id = json_string_value(json_object_get(agent, "id"));
            const char *addr = json_string_value(json_object_get(agent, "addr"));
            if (id && addr && strcmp(id, k_agents[i].node) == 0 &&
                strncmp(addr, prefix, strlen(prefix)) == 0)
                found++;
        }
    }
    int alive = (int) json_array_size(items);
    *all_ours = found == KERNELS;
    json_decref(r);
    return alive;
}

//  A command's output (its first 4095 bytes; caller frees); NULL when it
//  cannot be run.
static char *
s_output(const char *command)
{
    FILE *pipe = popen(command, "r");
    if (!pipe)
        return NULL;
    char *text = calloc(1, 4096);
    size_t size = text ? fread(text, 1, 4095, pipe) : 0;
    pclose(pipe);
    if (text)
        text[size] = '\0';
    return text;
}

//  The containers in one agent's runc state, one id a line (caller frees);
//  NULL when it cannot be read.
static char *
s_runc_list(const agent_t *agent)
{
    char command[PATH_MAX + 64];
    snprintf(command, sizeof command, "runc --root %s/%s/%s/runc list -q 2>/dev/null",
             s_tb.dir, agent->host, agent->service);
    return s_output(command);
}

//  PROBE_PING in a kernel's container on agent: in its namespaces (its
//  network, its /etc/hosts), as root with CAP_NET_RAW, which busybox's
//  ping needs (it opens a raw socket only; the kernel's own user holds no
//  capability). Its output (caller frees).
static char *
s_probe_exec(const agent_t *agent, const char *kernel)
{
    char command[PATH_MAX + 512];
    snprintf(command, sizeof command,
             "runc --root %s/%s/%s/runc exec --user 0:0 --cap CAP_NET_RAW %s"
             " sh -c '" PROBE_PING "' 2>&1",
             s_tb.dir, agent->host, agent->service, kernel);
    return s_output(command);
}

//  PROBE_TCP in the session's main kernel through the execute API, as the
//  kernel's user: its stdout (caller frees).
static char *
s_probe_api(void)
{
    int status;
    json_t *r = testbed_request(&s_tb, "POST", "/session/tbc-4",
                                "{\"mode\": \"query\", \"runId\": \"ping\","
                                " \"code\": \"" PROBE_TCP "\"}",
                                &status);
    json_t *result = json_object_get(r, "result");
    json_t *console = json_object_get(result, "console");
    size_t size = 1, index;
    json_t *item;
    json_array_foreach(console, index, item)
    {
        const char *text = json_string_value(json_array_get(item, 1));
        size += text ? strlen(text) : 0;
    }
    char *out = status == 200 ? calloc(1, size) : NULL;
    json_array_foreach(console, index, item)
    {
        const char *stream = json_string_value(json_array_get(item, 0));
        const char *text = json_string_value(json_array_get(item, 1));
        if (out && stream && text && strcmp(stream, "stdout") == 0)
            strcat(out, text);
    }
    if (!out)
        fprintf(stderr, "# execute in tbc-4: %d\n", status);
    json_decref(r);
    return out;
}

//  Whether a probe's output says it is one of the cluster's kernels, at
//  an address of subnet, and reached every other kernel by name. Its
//  hostname into name (32 bytes).
static bool
s_probe_ok(const char *out, const char *subnet, char *name)
{
    *name = '\0';
    const char *me = out ? strstr(out, "me=") : NULL;
    if (!me) {
        fprintf(stderr, "# probe: %s\n", out ? out : "(no output)");
        return false;
    }
    sscanf(me, "me=%31s", name);
    char want[64];
    snprintf(want, sizeof want, "addr=%s", subnet);
    bool ok = strstr(out, want) != NULL;
    int named = 0;
    for (size_t i = 0; i < KERNELS; i++) {
        if (strcmp(name, k_names[i]) == 0) {
            named++;
            continue;
        }
        snprintf(want, sizeof want, "reached=%s\n", k_names[i]);
        ok = ok && strstr(out, want);
    }
    ok = ok && named == 1;
    if (!ok)
        fprintf(stderr, "# probe of %s (subnet %s): %s\n", name, subnet, out);
    return ok;
}

static void
test_up(void)
{
    T_EQ_INT(testbed_up(&s_tb), 0);
}

//  Four agents ALIVE, two at each agent host's address; the gateway's
//  /healthz names the second ones too.
static void
test_two_agents_per_host(void)
{
    bool ours = false;
    int alive = 0;
    for (int tries = 0; tries < 100; tries++) {
        alive = s_agents_alive(&ours);
        if (alive == KERNELS && ours)
            break;
        harness_pause_ms(200);
    }
    T_EQ_INT(alive, KERNELS);
    T_ASSERT(ours);
    for (size_t i = 0; i < KERNELS; i++) {
        bool found =
            testbed_health_names(&s_tb, "agent", k_agents[i].node, k_agents[i].number);
        if (!found)
            fprintf(stderr, "# agent %s not up in /healthz at %s.%d\n", k_agents[i].node,
                    s_tb.net, k_agents[i].number);
        T_ASSERT(found);
    }
}

//  The cluster session of four: one kernel on each agent, each reaching
//  every other by name.
static void
test_cluster_of_four_on_two_hosts(void)
{
    json_t *r = client_gql(&s_tb.p, &s_tb.p.super,
                           "mutation { modify_keypair_resource_policy(name: \"default\","
                           " props: {max_containers_per_session: 4}) { ok msg } }",
                           NULL);
    T_ASSERT(client_mutation_ok(r, "modify_keypair_resource_policy"));
    json_decref(r);
    char session_id[64] = "";
    bool running = client_session_running(
        &s_tb.p, &s_tb.p.super,
        "{\"name\": \"tbc-4\", \"image\": \"" IMAGE "\", \"enqueueOnly\": true,"
        " \"clusterSize\": 4, \"clusterMode\": \"multi-node\","
        " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"}},"
        " \"type\": \"interactive\", \"group\": \"default\", \"domain\": \"default\"}",
        "tbc-4", session_id);
    T_ASSERT(running);
    if (!running)
        return;

    //  One container on each agent (agent1, agent1b, agent2, agent2b).
    for (size_t i = 0; i < KERNELS; i++) {
        char *text = s_runc_list(&k_agents[i]);
        int lines = 0;
        for (char *p = text; p && *p; p++)
            lines += *p == '\n';
        if (lines != 1)
            fprintf(stderr, "# %s runs %d containers: %s\n", k_agents[i].node, lines,
                    text ? text : "");
        T_EQ_INT(lines, 1);
        if (text && lines >= 1)
            sscanf(text, "%63s", s_tb.kernels[i]);
        free(text);
    }
    //  The session's main kernel, as the API names it, is one of them.
    char query[256];
    snprintf(query, sizeof query,
             "{ compute_session(id: \"%s\") { cluster_size cluster_mode containers {"
             " id agent } } }",
             session_id);
    r = client_gql(&s_tb.p, &s_tb.p.super, query, NULL);
    json_t *session = json_object_get(json_object_get(r, "data"), "compute_session");
    json_t *main_kernel = json_array_get(json_object_get(session, "containers"), 0);
    const char *main_id = json_string_value(json_object_get(main_kernel, "id"));
    const char *main_agent = json_string_value(json_object_get(main_kernel, "agent"));
    T_EQ_INT(json_integer_value(json_object_get(session, "cluster_size")), KERNELS);
    T_EQ_STR(json_string_value(json_object_get(session, "cluster_mode")), "multi-node");
    int main_index = -1;
    for (int i = 0; i < KERNELS; i++)
        if (main_agent && strcmp(main_agent, k_agents[i].node) == 0)
            main_index = i;
    T_ASSERT(main_index >= 0);
    T_EQ_STR(main_id, main_index >= 0 ? s_tb.kernels[main_index] : "");
    json_decref(r);

    //  Each kernel pings the other three by name; the /etc/hosts files come
    //  with kernel.hosts once every kernel has its address, and a first
    //  ping may wait on ARP: a few tries.
    bool seen[KERNELS] = {false};
    for (int i = 0; i < KERNELS; i++) {
        bool ok = false;
        for (int tries = 0; tries < 5 && !ok; tries++) {
            char *out = s_probe_exec(&k_agents[i], s_tb.kernels[i]);
            ok = s_probe_ok(out, k_agents[i].subnet, s_hostnames[i]);
            free(out);
            if (!ok)
                harness_pause_ms(1000);
        }
        T_ASSERT(ok);
        for (int n = 0; n < KERNELS; n++)
            if (strcmp(s_hostnames[i], k_names[n]) == 0) {
                T_ASSERT(!seen[n]); //  each name on one kernel only
                seen[n] = true;
            }
    }
    for (int n = 0; n < KERNELS; n++)
        T_ASSERT(seen[n]);
    //  The main kernel is main1, and does the same through the execute API.
    T_EQ_STR(main_index >= 0 ? s_hostnames[main_index] : "", "main1");
    char *out = s_probe_api();
    char name[32];
    T_ASSERT(s_probe_ok(out, main_index >= 0 ? k_agents[main_index].subnet : "-", name));
    T_EQ_STR(name, "main1");
    free(out);

    int status;
    r = testbed_request(&s_tb, "DELETE", "/session/tbc-4", NULL, &status);
    T_EQ_INT(status, 200);
    json_decref(r);
    int left = -1;
    for (int waited = 0; waited < 30000 && (left = testbed_containers(&s_tb, NULL)) != 0;
         waited += 200)
        harness_pause_ms(200);
    T_EQ_INT(left, 0);
}

//  agent2b killed (SIGKILL) while it holds spare networks (made after its
//  create, agent.spares): their namespaces, named in its net-spares/ files,
//  stay in /run/netns for `down` to sweep (test_down_leaves_nothing).
static void
test_agent_killed_with_spares(void)
{
    const agent_t *agent = &k_agents[3];
    int spares = 0;
    for (int waited = 0;
         waited < 20000 && (spares = testbed_spare_files(&s_tb, k_services[3])) == 0;
         waited += 200)
        harness_pause_ms(200);
    T_ASSERT(spares > 0);
    s_tb.spare_count = 0;
    T_EQ_INT(testbed_spare_files(&s_tb, k_services[3]), spares);
    char command[PATH_MAX];
    snprintf(command, sizeof command, "kill %s %s", agent->host, agent->service);
    T_EQ_INT(testbed_run(&s_tb, NULL, command), 0);
    s_tb.killed = k_services[3]; //  its log does not end "stopped"
    int present = 0;
    for (int i = 0; i < s_tb.spare_count; i++)
        present += testbed_namespaces(s_tb.spares[i], false);
    T_EQ_INT(present, spares);
}

//  down sweeps the killed agent's spare namespaces with the rest (the other
//  agents' clean stop removes theirs) and leaves nothing.
static void
test_down_leaves_nothing(void)
{
    T_EQ_INT(testbed_down_check(&s_tb), 0);
    T_ASSERT(s_tb.spare_count > 0);
}

TESTBED_MAIN(s_tb, {
    T_RUN(test_two_agents_per_host);
    T_RUN(test_cluster_of_four_on_two_hosts);
    T_RUN(test_agent_killed_with_spares);
})
