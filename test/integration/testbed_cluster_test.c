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
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gateway_client.h"
#include "harness.h"
#include "t.h"

#define IMAGE   "local.backplane/library/busybox:latest"
#define KERNELS 4

static char *s_dir;
static char s_net[32];    //  "10.240.N": the hosts' /24
static char s_prefix[16]; //  "bpcN"
static client_platform_t s_p;
static bool s_up;

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

//  What each agent runs of the session: its kernel, and what the kernel
//  says of itself.
static char s_kernels[KERNELS][64];
static char s_hostnames[KERNELS][32];
static bool s_killed; //  agent2b killed: its log does not end "stopped"

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

static int
s_testbed(const char *command)
{
    char line[PATH_MAX * 3];
    snprintf(line, sizeof line,
             "TESTBED_PREFIX=%s TESTBED_NET=%s TESTBED_AGENTS_PER_HOST=2"
             " TESTBED_AGENT_CPU=1 TESTBED_AGENT_MEM=1g BACKPLANE_IMAGES=%s/images"
             " BACKPLANE_BINDIR=%s deploy/testbed %s %s >>%s/testbed.log 2>&1",
             s_prefix, s_net, s_dir, harness_bindir(), command, s_dir, s_dir);
    return harness_shell(line);
}

static json_t *
s_request(const char *method, const char *path, const char *body, int *status)
{
    char *text = NULL;
    *status = client_signed(&s_p, &s_p.super, method, path, body, NULL, &text, NULL);
    json_t *parsed = text ? json_loads(text, 0, NULL) : NULL;
    if (!parsed && text && *text)
        fprintf(stderr, "# %s %s: %d %s\n", method, path, *status, text);
    free(text);
    return parsed;
}

//  The ALIVE agents as the admin API lists them: how many, and whether
//  each of ours is among them at its own host's address.
static int
s_agents_alive(bool *all_ours)
{
    json_t *r =
        client_gql(&s_p, &s_p.super,
                   "{ agent_list(limit: 10, offset: 0, status: \"ALIVE\") { items {"
                   " id status addr } } }",
                   NULL);
    json_t *items = json_object_get(
        json_object_get(json_object_get(r, "data"), "agent_list"), "items");
    int found = 0;
    for (size_t i = 0; i < KERNELS; i++) {
        char prefix[64];
        snprintf(prefix, sizeof prefix, "tcp://%s.%d:", s_net, k_agents[i].number);
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

//  The containers in one agent's runc state, one id a line (caller frees);
//  NULL when it cannot be read.
static char *
s_runc_list(const agent_t *agent)
{
    char command[PATH_MAX + 64];
    snprintf(command, sizeof command, "runc --root %s/%s/%s/runc list -q 2>/dev/null",
             s_dir, agent->host, agent->service);
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

//  How many containers the four agents' runc states hold in all.
static int
s_containers(void)
{
    int count = 0;
    for (size_t i = 0; i < KERNELS; i++) {
        char *text = s_runc_list(&k_agents[i]);
        for (char *line = text; line && *line; line++)
            if (*line == '\n')
                count++;
        free(text);
    }
    return count;
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
             s_dir, agent->host, agent->service, kernel);
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

//  PROBE_TCP in the session's main kernel through the execute API, as the
//  kernel's user: its stdout (caller frees).
static char *
s_probe_api(void)
{
    int status;
    json_t *r = s_request("POST", "/session/tbc-4",
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
    const char *subnet = harness_subnet(); //  "10.240.N.0/24"
    T_ASSERT(subnet);
    if (!subnet)
        return;
    harness_subnet_host(subnet, 0, s_net, sizeof s_net); //  "10.240.N."
    s_net[strlen(s_net) - 1] = '\0';
    snprintf(s_prefix, sizeof s_prefix, "bpc%s", strrchr(s_net, '.') + 1);
    //  Namespaces of this prefix can only be a crashed run's (the subnet's
    //  claim is ours): up would refuse them.
    char command[512];
    snprintf(
        command, sizeof command,
        "for h in control front storage agent1 agent2 lan; do"
        " ip netns del %s-$h 2>/dev/null; done; ip link del %s-lan 2>/dev/null; true",
        s_prefix, s_prefix);
    harness_shell(command);
    s_dir = harness_tmpdir("tb-cluster");
    T_ASSERT(s_dir);
    T_EQ_INT(harness_busybox_images(s_dir), 0);
    int rc = s_testbed("up");
    T_EQ_INT(rc, 0);
    if (rc != 0)
        return;
    s_up = true;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/front/gateway/admin.env", s_dir);
    T_ASSERT(client_read_admin_env(path, &s_p.super));
    snprintf(s_p.api, sizeof s_p.api, "%s.12:8081", s_net);
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
    char *text = NULL;
    T_EQ_INT(harness_http(s_p.api, "GET", "/healthz", NULL, &text, CLIENT_HTTP_MS), 200);
    json_t *health = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    json_t *services = json_object_get(health, "services");
    for (size_t i = 0; i < KERNELS; i++) {
        char prefix[64];
        snprintf(prefix, sizeof prefix, "tcp://%s.%d:", s_net, k_agents[i].number);
        bool found = false;
        size_t index;
        json_t *s;
        json_array_foreach(services, index, s)
        {
            const char *service = json_string_value(json_object_get(s, "service"));
            const char *node = json_string_value(json_object_get(s, "node"));
            const char *rpc = json_string_value(json_object_get(s, "rpc"));
            if (service && node && rpc && strcmp(service, "agent") == 0 &&
                strcmp(node, k_agents[i].node) == 0 &&
                strncmp(rpc, prefix, strlen(prefix)) == 0)
                found = true;
        }
        if (!found)
            fprintf(stderr, "# agent %s not in /healthz at %s\n", k_agents[i].node,
                    prefix);
        T_ASSERT(found);
    }
    json_decref(health);
}

//  The cluster session of four: one kernel on each agent, each reaching
//  every other by name.
static void
test_cluster_of_four_on_two_hosts(void)
{
    json_t *r = client_gql(&s_p, &s_p.super,
                           "mutation { modify_keypair_resource_policy(name: \"default\","
                           " props: {max_containers_per_session: 4}) { ok msg } }",
                           NULL);
    T_ASSERT(client_mutation_ok(r, "modify_keypair_resource_policy"));
    json_decref(r);
    char session_id[64] = "";
    bool running = client_session_running(
        &s_p, &s_p.super,
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
            sscanf(text, "%63s", s_kernels[i]);
        free(text);
    }
    //  The session's main kernel, as the API names it, is one of them.
    char query[256];
    snprintf(query, sizeof query,
             "{ compute_session(id: \"%s\") { cluster_size cluster_mode containers {"
             " id agent } } }",
             session_id);
    r = client_gql(&s_p, &s_p.super, query, NULL);
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
    T_EQ_STR(main_id, main_index >= 0 ? s_kernels[main_index] : "");
    json_decref(r);

    //  Each kernel pings the other three by name; the /etc/hosts files come
    //  with kernel.hosts once every kernel has its address, and a first
    //  ping may wait on ARP: a few tries.
    bool seen[KERNELS] = {false};
    for (int i = 0; i < KERNELS; i++) {
        bool ok = false;
        for (int tries = 0; tries < 5 && !ok; tries++) {
            char *out = s_probe_exec(&k_agents[i], s_kernels[i]);
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
    r = s_request("DELETE", "/session/tbc-4", NULL, &status);
    T_EQ_INT(status, 200);
    json_decref(r);
    int left = -1;
    for (int waited = 0; waited < 30000 && (left = s_containers()) != 0; waited += 200)
        harness_pause_ms(200);
    T_EQ_INT(left, 0);
}

//  Namespaces in /run/netns whose name starts with prefix (each printed
//  when left is true: none should be).
static int
s_namespaces(const char *prefix, bool left)
{
    DIR *dir = opendir("/run/netns");
    int count = 0;
    struct dirent *entry;
    while (dir && (entry = readdir(dir)))
        if (strncmp(entry->d_name, prefix, strlen(prefix)) == 0) {
            if (left)
                fprintf(stderr, "# namespace %s left\n", entry->d_name);
            count++;
        }
    if (dir)
        closedir(dir);
    return count;
}

//  The spare namespaces seen in the agents' net-spares/ files, for
//  test_down_leaves_nothing to look for.
#define SPARES_SEEN_MAX 64
static char s_spares_seen[SPARES_SEEN_MAX][64];
static int s_spares_seen_count;

//  The spare networks an agent holds: each file of its net-spares/ names
//  "<address> <namespace> <veth>" (bpspare-<hash of its state dir>-<n>).
//  Each namespace is added to s_spares_seen; returns how many files.
static int
s_spare_files(const agent_t *agent)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s/%s/net-spares", s_dir, agent->host,
             agent->service);
    DIR *dir = opendir(path);
    int count = 0;
    struct dirent *entry;
    while (dir && (entry = readdir(dir))) {
        if (entry->d_name[0] == '.')
            continue;
        count++;
        char file[PATH_MAX + 256], ns[64] = "";
        snprintf(file, sizeof file, "%s/%s", path, entry->d_name);
        FILE *in = fopen(file, "r");
        if (in && fscanf(in, "%*s %63s", ns) == 1 &&
            s_spares_seen_count < SPARES_SEEN_MAX)
            snprintf(s_spares_seen[s_spares_seen_count++], 64, "%s", ns);
        if (in)
            fclose(in);
    }
    if (dir)
        closedir(dir);
    return count;
}

//  agent2b killed (SIGKILL) while it holds spare networks (made after its
//  create, agent.spares): their namespaces, named in its net-spares/ files,
//  stay in /run/netns for `down` to sweep (test_down_leaves_nothing).
static void
test_agent_killed_with_spares(void)
{
    const agent_t *agent = &k_agents[3];
    int spares = 0;
    for (int waited = 0; waited < 20000 && (spares = s_spare_files(agent)) == 0;
         waited += 200)
        harness_pause_ms(200);
    T_ASSERT(spares > 0);
    s_spares_seen_count = 0;
    T_EQ_INT(s_spare_files(agent), spares);
    char command[PATH_MAX];
    snprintf(command, sizeof command, "kill %s %s", agent->host, agent->service);
    T_EQ_INT(s_testbed(command), 0);
    s_killed = true;
    int present = 0;
    for (int i = 0; i < s_spares_seen_count; i++)
        present += s_namespaces(s_spares_seen[i], false);
    T_EQ_INT(present, spares);
}

//  True when a process's executable is under dir (a service of the testbed).
static bool
s_process_under(const char *dir)
{
    DIR *proc = opendir("/proc");
    if (!proc)
        return false;
    bool found = false;
    struct dirent *entry;
    while (!found && (entry = readdir(proc))) {
        char path[PATH_MAX], exe[PATH_MAX];
        snprintf(path, sizeof path, "/proc/%s/exe", entry->d_name);
        ssize_t n = readlink(path, exe, sizeof exe - 1);
        if (n <= 0)
            continue;
        exe[n] = '\0';
        if (strncmp(exe, dir, strlen(dir)) == 0) {
            fprintf(stderr, "# process %s (%s) left\n", entry->d_name, exe);
            found = true;
        }
    }
    closedir(proc);
    return found;
}

static void
test_down_leaves_nothing(void)
{
    T_ASSERT(s_dir);
    //  The other agents' spares too: their clean stop removes them.
    for (int i = 0; i < KERNELS; i++)
        if (i != 3)
            s_spare_files(&k_agents[i]);
    T_EQ_INT(s_testbed("down"), 0);
    s_up = false;
    //  The hosts', the switch's; the kernels'; the agents' spare ones
    //  (named in their net-spares/ files).
    char prefix[PATH_MAX];
    snprintf(prefix, sizeof prefix, "%s-", s_prefix);
    T_EQ_INT(s_namespaces(prefix, true), 0);
    T_ASSERT(s_spares_seen_count > 0);
    for (int i = 0; i < s_spares_seen_count; i++)
        T_EQ_INT(s_namespaces(s_spares_seen[i], true), 0);
    for (int i = 0; i < KERNELS; i++)
        if (*s_kernels[i]) {
            snprintf(prefix, sizeof prefix, "bp-%s", s_kernels[i]);
            T_EQ_INT(s_namespaces(prefix, true), 0);
        }
    char path[PATH_MAX];
    snprintf(path, sizeof path, "/sys/class/net/%s-lan", s_prefix);
    T_ASSERT(access(path, F_OK) != 0);
    T_EQ_INT(s_containers(), 0);
    snprintf(path, sizeof path, "%s/root/", s_dir);
    T_ASSERT(!s_process_under(path));
    //  No mount under the testbed's directory (kernels' roots, spare
    //  kernel directories' tmpfs, folders).
    FILE *mounts = fopen("/proc/self/mountinfo", "r");
    T_ASSERT(mounts);
    char line[4096];
    size_t dir_len = strlen(s_dir);
    while (mounts && fgets(line, sizeof line, mounts)) {
        char *field = line; //  the fifth field is the mount point
        for (int f = 0; f < 4 && field; f++) {
            field = strchr(field, ' ');
            if (field)
                field++;
        }
        bool under = field && strncmp(field, s_dir, dir_len) == 0;
        if (under)
            fprintf(stderr, "# mount left: %s", line);
        T_ASSERT(!under);
    }
    if (mounts)
        fclose(mounts);
    static const char *const k_logs[] = {
        "control/scheduler", "control/accounting",    "front/gateway",
        "front/wsproxy",     "storage/storage-proxy", "agent1/agent",
        "agent1/agentb",     "agent2/agent",          "agent2/agentb"};
    for (size_t i = 0; i < sizeof k_logs / sizeof k_logs[0]; i++) {
        //  The killed agent's log just ends.
        bool killed = s_killed && strcmp(k_logs[i], "agent2/agentb") == 0;
        char command[PATH_MAX * 2 + 128];
        if (killed)
            snprintf(command, sizeof command,
                     "! grep -q -E 'Sanitizer|runtime error' %s/%s.log", s_dir,
                     k_logs[i]);
        else
            snprintf(command, sizeof command,
                     "tail -n 1 %s/%s.log | grep -q 'msg=\"stopped\"' &&"
                     " ! grep -q -E 'Sanitizer|runtime error' %s/%s.log",
                     s_dir, k_logs[i], s_dir, k_logs[i]);
        int rc = harness_shell(command);
        if (rc != 0)
            fprintf(stderr, "# %s.log: not stopped cleanly\n", k_logs[i]);
        T_EQ_INT(rc, 0);
    }
    //  Down again: nothing to do, and no error.
    T_EQ_INT(s_testbed("down"), 0);
}

static bool
s_have(const char *tool)
{
    char command[128];
    snprintf(command, sizeof command, "command -v %s >/dev/null 2>&1", tool);
    return harness_shell(command) == 0;
}

int
main(void)
{
    if (!harness_can_run_containers() || !s_have("ip") || !s_have("nsenter") ||
        !s_have("python3") || !s_have("curl")) {
        printf("1..0 # SKIP needs root, runc, umoci, tini, ip, nsenter, python3, curl\n");
        return 0;
    }
    T_RUN(test_up);
    if (s_up) {
        T_RUN(test_two_agents_per_host);
        T_RUN(test_cluster_of_four_on_two_hosts);
        T_RUN(test_agent_killed_with_spares);
    }
    T_RUN(test_down_leaves_nothing);
    if (s_up)
        s_testbed("down"); //  whatever failed, nothing stays up
    if (s_dir) {
        if (!t_failures && !getenv("BACKPLANE_KEEP"))
            harness_rmdir(s_dir);
        else
            fprintf(stderr, "# testbed kept in %s\n", s_dir);
        free(s_dir);
    }
    return T_DONE();
}
