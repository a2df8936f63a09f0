/*  =========================================================================
    testbed_test - the platform on five hosts (deploy/testbed): every
    service reached at its own host's address, a session on each agent host

    deploy/testbed up makes five network namespaces on a bridge in a
    namespace of its own (control, front, storage, agent1, agent2), installs
    this build's binaries as make install lays them out, and starts each
    service in its host with a config file that binds and advertises that
    host's address, CurveZMQ on every bus socket. This test then talks to
    the gateway from the root namespace, through the machine's link to that
    LAN, as a workstation would: every service registered from its own
    host's address (/healthz, the agents' addresses) with the host's own
    hostname; one busybox session on
    each agent host with a command run in it, both mounting one folder: bytes
    written in it on one host read on the other; a file written in one served
    by the wsproxy on the front host over HTTPS (the agent publishes the
    app's port on its host's address); an agent with a key no host authorized refused and
    logged; the bus not readable on the wire, nor a folder's bytes uploaded
    to and downloaded from the storage-proxy (HTTPS, a certificate of the
    testbed's authority); every service of the control host killed with -9
    and started again, the sessions on the agent hosts untouched and a new
    one placed; a cluster session across both
    agent hosts whose kernels reach each other by name (each agent host's
    kernels on a subnet of their own, routed by the other); and down leaves
    no namespace, link, mount, container or process behind. The testbed's
    /24 is a harness_subnet, so that it routes nothing of another test's;
    its prefix is "bpt<N>", N the subnet's number. Needs root, runc, umoci,
    tini, ip, nsenter, python3 and curl.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <arpa/inet.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gateway_client.h"
#include "harness.h"
#include "t.h"
#include "testbed_client.h"

#define IMAGE "local.backplane/library/busybox:latest"

static const char *const k_agents[] = {"agent1/agent", "agent2/agent", NULL};
//  The directory of an earlier version's testbed: control's key pair made
//  without its address in the certificate, and the one server key every
//  host held. up makes the pair again and drops that key (a second `make
//  testbed` after an update failed on them: "no curve server key").
static testbed_t s_tb = {.name = "testbed",
                         .letters = "bpt",
                         .env = "TESTBED_AGENT_CPU=2 TESTBED_AGENT_MEM=1g",
                         .agents = k_agents,
                         .seed = "mkdir -p control/curve &&"
                                 " \"$BINDIR/backplane-scheduler\" --make-cert"
                                 " control/curve/control.cert >/dev/null &&"
                                 " cp control/curve/control.cert_secret"
                                 " control/curve/server.cert_secret"};
static char s_agents[2][64];  //  the agent each session ran on
static char s_session_id[64]; //  tb-1's

typedef struct {
    const char *service, *node;
    int host; //  the last number of the host's address
} where_t;

static const where_t k_where[] = {
    {"scheduler", "control", 11},     {"accounting", "control", 11},
    {"gateway", "front", 12},         {"wsproxy", "front", 12},
    {"storage-proxy", "storage", 13}, {"agent", "agent1", 21},
    {"agent", "agent2", 22},
};
#define WHERE_COUNT (sizeof k_where / sizeof k_where[0])

static void
test_up(void)
{
    T_EQ_INT(testbed_up(&s_tb), 0);
}

//  The gateway's /healthz, asked from the root namespace over the bridge,
//  names every service at its own host's address.
static void
test_every_service_from_its_host(void)
{
    char *text = NULL;
    T_EQ_INT(harness_http(s_tb.p.api, "GET", "/healthz", NULL, &text, CLIENT_HTTP_MS),
             200);
    json_t *health = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    T_EQ_INT(json_array_size(json_object_get(health, "services")), WHERE_COUNT);
    json_decref(health);
    for (size_t i = 0; i < WHERE_COUNT; i++) {
        bool found = testbed_health_names(&s_tb, k_where[i].service, k_where[i].node,
                                          k_where[i].host);
        if (!found)
            fprintf(stderr, "# %s on %s not up in /healthz at its host's address\n",
                    k_where[i].service, k_where[i].node);
        T_ASSERT(found);
    }

    //  Each host's services see its own hostname (a UTS namespace per host).
    for (size_t i = 0; i < WHERE_COUNT; i++) {
        char command[PATH_MAX + 256], name[64] = "";
        snprintf(command, sizeof command,
                 "nsenter --uts=/proc/$(cat %s/%s/%s.pid)/ns/uts hostname", s_tb.dir,
                 k_where[i].node, k_where[i].service);
        FILE *pipe = popen(command, "r");
        if (pipe && !fgets(name, sizeof name, pipe))
            name[0] = '\0';
        if (pipe)
            pclose(pipe);
        name[strcspn(name, "\n")] = '\0';
        T_EQ_STR(name, k_where[i].node);
    }

    //  The scheduler's agents, as the admin API lists them: both alive, each
    //  at its own host's address (the second may come a heartbeat after
    //  /healthz's readiness, which asks for one agent).
    json_t *r = NULL, *items = NULL;
    for (int tries = 0; tries < 100; tries++) {
        json_decref(r);
        r = client_gql(
            &s_tb.p, &s_tb.p.super,
            "{ agent_list(limit: 10, offset: 0, status: \"ALIVE\") { items { id"
            " status addr } } }",
            NULL);
        items = json_object_get(json_object_get(json_object_get(r, "data"), "agent_list"),
                                "items");
        if (json_array_size(items) == 2)
            break;
        harness_pause_ms(100);
    }
    T_EQ_INT(json_array_size(items), 2);
    size_t index;
    json_t *agent;
    json_array_foreach(items, index, agent)
    {
        const char *id = json_string_value(json_object_get(agent, "id"));
        char prefix[64];
        snprintf(prefix, sizeof prefix, "tcp://%s.%d:", s_tb.net,
                 id && strcmp(id, "agent2") == 0 ? 22 : 21);
        T_EQ_STR(json_string_value(json_object_get(agent, "status")), "ALIVE");
        T_CONTAINS(json_string_value(json_object_get(agent, "addr")), prefix);
    }
    json_decref(r);
}

//  A session on each agent host, placed there by excluding the other agent
//  while it is created (each agent offers two CPUs: one is left for the
//  session test_control_host_killed creates), each with the folder
//  tb-shared mounted: the same directory of the storage host's volume,
//  mounted on both agent hosts.
static void
test_a_session_on_each_agent_host(void)
{
    int status = 0;
    json_t *r =
        testbed_request(&s_tb, "POST", "/folders", "{\"name\": \"tb-shared\"}", &status);
    json_decref(r);
    T_EQ_INT(status, 201);
    for (int i = 0; i < 2; i++) {
        const char *other = i == 0 ? "\"agent2\"" : "\"agent1\"";
        T_ASSERT(testbed_operation(&s_tb, "exclude-agents", other));
        char name[32], body[512];
        snprintf(name, sizeof name, "tb-%d", i + 1);
        snprintf(body, sizeof body,
                 "{\"name\": \"%s\", \"image\": \"" IMAGE "\", \"enqueueOnly\": true,"
                 " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"256m\"},"
                 " \"mounts\": [\"tb-shared\"]},"
                 " \"type\": \"interactive\", \"group\": \"default\","
                 " \"domain\": \"default\"}",
                 name);
        bool running = client_session_running(&s_tb.p, &s_tb.p.super, body, name,
                                              i == 0 ? s_session_id : NULL);
        T_ASSERT(testbed_operation(&s_tb, "include-agents", other));
        T_ASSERT(running);
        //  A command in it; the host it runs on, and its kernel.
        char path[64];
        snprintf(path, sizeof path, "/session/%s", name);
        r = testbed_request(&s_tb, "POST", path,
                            "{\"mode\": \"query\", \"runId\": \"tb\","
                            " \"code\": \"echo ran-in-$(echo kernel)\"}",
                            &status);
        T_EQ_INT(status, 200);
        json_t *result = json_object_get(r, "result");
        T_EQ_STR(json_string_value(json_object_get(result, "status")), "finished");
        char *console = json_dumps(json_object_get(result, "console"), JSON_COMPACT);
        T_CONTAINS(console, "ran-in-kernel");
        free(console);
        json_decref(r);
    }
    r = client_gql(&s_tb.p, &s_tb.p.super,
                   "{ compute_session_list(limit: 10, offset: 0) { items { name"
                   " containers { id agent } } } }",
                   NULL);
    json_t *items = json_object_get(
        json_object_get(json_object_get(r, "data"), "compute_session_list"), "items");
    T_EQ_INT(json_array_size(items), 2);
    for (size_t i = 0; i < json_array_size(items); i++) {
        json_t *item = json_array_get(items, i);
        const char *name = json_string_value(json_object_get(item, "name"));
        int n = name && strcmp(name, "tb-2") == 0 ? 1 : 0;
        json_t *container = json_array_get(json_object_get(item, "containers"), 0);
        const char *id = json_string_value(json_object_get(container, "id"));
        const char *agent = json_string_value(json_object_get(container, "agent"));
        snprintf(s_tb.kernels[n], sizeof s_tb.kernels[n], "%s", id ? id : "");
        snprintf(s_agents[n], sizeof s_agents[n], "%s", agent ? agent : "");
    }
    json_decref(r);
    T_EQ_STR(s_agents[0], "agent1");
    T_EQ_STR(s_agents[1], "agent2");
}

//  What session name's command printed (its console's stdout, joined);
//  NULL when it did not finish. Caller owns return value.
static char *
s_stdout(const char *name, const char *code)
{
    char path[64], body[1024];
    snprintf(path, sizeof path, "/session/%s", name);
    snprintf(body, sizeof body,
             "{\"mode\": \"query\", \"runId\": \"fo\", \"code\": \"%s\"}", code);
    int status = 0;
    json_t *r = testbed_request(&s_tb, "POST", path, body, &status);
    json_t *result = json_object_get(r, "result");
    char *out = NULL;
    const char *state = json_string_value(json_object_get(result, "status"));
    if (status == 200 && state && strcmp(state, "finished") == 0) {
        //  console: [["stdout", "text"], ...]
        size_t index, size = 0;
        json_t *item;
        FILE *stream = open_memstream(&out, &size);
        json_array_foreach(json_object_get(result, "console"), index, item)
        {
            const char *kind = json_string_value(json_array_get(item, 0));
            const char *text = json_string_value(json_array_get(item, 1));
            if (kind && text && strcmp(kind, "stdout") == 0)
                fputs(text, stream);
        }
        fclose(stream);
    }
    json_decref(r);
    return out;
}

//  A folder written on one host and read on another: tb-1, on agent1's
//  host, writes 64 KiB of random bytes into tb-shared; tb-2, on agent2's
//  host, reads the same bytes there (their checksums and sizes agree), and
//  what tb-2 appends tb-1 reads back.
static void
test_folder_written_on_one_host_read_on_another(void)
{
    char *written =
        s_stdout("tb-1", "head -c 65536 /dev/urandom > /home/work/tb-shared/"
                         "random.bin && md5sum < /home/work/tb-shared/random.bin"
                         " && wc -c < /home/work/tb-shared/random.bin");
    char *read =
        s_stdout("tb-2", "md5sum < /home/work/tb-shared/random.bin"
                         " && wc -c < /home/work/tb-shared/random.bin"
                         " && echo from-agent2 >> /home/work/tb-shared/back.txt");
    char *back = s_stdout("tb-1", "cat /home/work/tb-shared/back.txt");
    T_ASSERT(written && read);
    //  "<32 hex digits>  -\n65536\n"
    T_ASSERT(written && strlen(written) > 32 && strstr(written, "65536"));
    T_EQ_STR(read, written);
    T_EQ_STR(back, "from-agent2\n");
    free(written);
    free(read);
    free(back);
}

//  curl with the testbed's authority trusted and a cookie jar in the
//  testbed's directory: the HTTP status, the body into body (size bytes,
//  may be NULL), -1 when curl failed.
static int
s_curl_tls(const char *options, char *body, size_t size)
{
    char command[12000];
    snprintf(command, sizeof command,
             "curl -sS -m 20 --cacert %s/secrets/tls/ca.crt -c %s/cookies -b %s/cookies"
             " -o %s/curl.out -w '%%{http_code}' %s",
             s_tb.dir, s_tb.dir, s_tb.dir, s_tb.dir, options);
    FILE *pipe = popen(command, "r");
    char out[64] = "";
    if (!pipe)
        return -1;
    if (!fgets(out, sizeof out, pipe))
        out[0] = '\0';
    if (pclose(pipe) != 0)
        return -1;
    if (body && size) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/curl.out", s_tb.dir);
        FILE *file = fopen(path, "r");
        size_t n = file ? fread(body, 1, size - 1, file) : 0;
        body[n] = '\0';
        if (file)
            fclose(file);
    }
    return atoi(out);
}

//  A file written in a session on an agent host, served by its httpd app
//  through the wsproxy on the front host over HTTPS (its API and the
//  app's port, a certificate of the testbed's authority): the gateway
//  answers the wsproxy's https:// address, the wsproxy an https:// app
//  URL on the front host, whose permit sets a Secure cookie; the agent
//  publishes the app's port on its host's address.
static void
test_app_through_the_wsproxy_on_another_host(void)
{
    int status;
    json_t *r =
        testbed_request(&s_tb, "POST", "/session/tb-1",
                        "{\"mode\": \"query\", \"runId\": \"page\","
                        " \"code\": \"echo served-from-agent-host > index.html\"}",
                        &status);
    T_EQ_INT(status, 200);
    json_decref(r);
    r = testbed_request(&s_tb, "POST", "/session/tb-1/start-service",
                        "{\"app\": \"httpd\", \"login_session_token\": null,"
                        " \"arguments\": \"null\"}",
                        &status);
    T_EQ_INT(status, 200);
    const char *token = json_string_value(json_object_get(r, "token"));
    const char *addr = json_string_value(json_object_get(r, "wsproxy_addr"));
    char want[64];
    snprintf(want, sizeof want, "https://%s.12:5050", s_tb.net);
    T_ASSERT(token && addr);
    T_EQ_STR(addr, want);
    char options[4096], body[8192];
    snprintf(options, sizeof options, "'%s/v2/proxy/%s/%s/add?app=httpd&protocol=http'",
             addr, token, s_session_id);
    json_decref(r);
    T_EQ_INT(s_curl_tls(options, body, sizeof body), 200);
    r = json_loads(body, 0, NULL);
    const char *url = json_string_value(json_object_get(r, "url"));
    T_ASSERT(url);
    //  The route is on the front host, over TLS.
    snprintf(want, sizeof want, "https://%s.12:", s_tb.net);
    T_ASSERT(strncmp(url, want, strlen(want)) == 0);
    //  The permit: a redirect that sets the route's cookie (Secure).
    snprintf(options, sizeof options, "-D %s/permit.head '%s'", s_tb.dir, url);
    T_EQ_INT(s_curl_tls(options, NULL, 0), 302);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/permit.head", s_tb.dir);
    FILE *head = fopen(path, "r");
    T_ASSERT(head);
    char line[1024];
    bool secure = false;
    while (head && fgets(line, sizeof line, head))
        if (strncasecmp(line, "set-cookie:", 11) == 0 && strstr(line, "Secure"))
            secure = true;
    if (head)
        fclose(head);
    T_ASSERT(secure);
    char root[256];
    snprintf(root, sizeof root, "%.*s", (int) (strchr(url + 8, '/') - url), url);
    snprintf(options, sizeof options, "'%s/index.html'", root);
    json_decref(r);
    T_EQ_INT(s_curl_tls(options, body, sizeof body), 200);
    T_CONTAINS(body, "served-from-agent-host");
}

//  An agent whose key no host authorized: the scheduler's hub and registry
//  refuse it, and say so with its address and key; it never joins.
static void
test_unknown_agent_key_refused(void)
{
    char rogue[256], key[64] = "", command[4096];
    snprintf(rogue, sizeof rogue, "%s/rogue", s_tb.dir);
    snprintf(command, sizeof command,
             "mkdir -p %s && %s/root/usr/bin/backplane-agent --make-cert %s/rogue.cert"
             " >%s/key",
             rogue, s_tb.dir, rogue, rogue);
    T_EQ_INT(harness_shell(command), 0);
    snprintf(command, sizeof command, "%s/key", rogue);
    FILE *file = fopen(command, "r");
    T_ASSERT(file);
    T_ASSERT(fgets(key, sizeof key, file));
    fclose(file);
    key[strcspn(key, "\n")] = '\0';
    T_EQ_INT(strlen(key), 40);
    //  On agent2's host, with agent2's configuration but its own key (a fake
    //  agent: it would run no container if it were let in).
    snprintf(command, sizeof command,
             "nsenter --net=/run/netns/%s-agent2 %s/root/usr/bin/backplane-agent"
             " --config %s/agent2/agent.yaml --set node.name=rogue"
             " --set node.state_dir=%s --set bus.http_listen=%s.22:0"
             " --set bus.curve.client_cert=%s/rogue.cert_secret --set fake.agents=1"
             " </dev/null >%s/agent.log 2>&1 & echo $! >%s/pid",
             s_tb.prefix, s_tb.dir, s_tb.dir, rogue, s_tb.net, rogue, rogue, rogue);
    T_EQ_INT(harness_shell(command), 0);
    char needle[256];
    snprintf(needle, sizeof needle, "address=%s.22 mechanism=CURVE public_key=%s",
             s_tb.net, key);
    harness_proc_t scheduler = {.pid = 0};
    snprintf(scheduler.log_path, sizeof scheduler.log_path, "%.*s/control/scheduler.log",
             200, s_tb.dir);
    bool refused = false;
    for (int tries = 0; tries < 100 && !refused; tries++) {
        refused = harness_log_has(&scheduler, needle) &&
                  harness_log_has(&scheduler, "reason=\"unknown key\"");
        if (!refused)
            harness_pause_ms(100);
    }
    //  Not among the agents, not registered: its registration timed out.
    harness_proc_t agent = {.pid = 0};
    snprintf(agent.log_path, sizeof agent.log_path, "%.*s/agent.log", 256, rogue);
    bool timed_out = false;
    for (int tries = 0; tries < 100 && !timed_out; tries++) {
        timed_out = harness_log_has(&agent, "registration failed");
        if (!timed_out)
            harness_pause_ms(100);
    }
    json_t *r = client_gql(&s_tb.p, &s_tb.p.super,
                           "{ agent_list(limit: 10, offset: 0) { items { id } } }", NULL);
    char *text = json_dumps(r, JSON_COMPACT);
    json_decref(r);
    //  Stopped before any assertion, so that a failure leaves no process.
    snprintf(command, sizeof command, "kill -TERM $(cat %s/pid)", rogue);
    int killed = harness_shell(command);
    for (int tries = 0; tries < 100 && !harness_log_has(&agent, "msg=\"stopped\"");
         tries++)
        harness_pause_ms(100);
    bool stopped = harness_log_has(&agent, "msg=\"stopped\"");
    T_ASSERT(refused);
    T_ASSERT(timed_out);
    T_ASSERT(text && strstr(text, "agent1") && !strstr(text, "rogue"));
    free(text);
    T_EQ_INT(killed, 0);
    T_ASSERT(stopped);
}

//  Each host its own key pair and no other's secret: the only secret
//  certificate under a host's curve/ is its own, and its servers present it
//  (their config names it as server_cert), so an agent host holds nothing
//  that could serve as the hub (bus_socket_test: an impostor with an agent's
//  secret on the hub's address is never answered).
static void
test_each_host_its_own_key(void)
{
    const char *hosts[] = {"control", "front", "storage", "agent1", "agent2"};
    for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++) {
        char command[PATH_MAX + 128], found[PATH_MAX] = "", want[PATH_MAX];
        snprintf(command, sizeof command,
                 "cd %s/%s/curve && find . -name '*_secret' | sort | tr '\\n' ' '",
                 s_tb.dir, hosts[i]);
        FILE *pipe = popen(command, "r");
        if (pipe && !fgets(found, sizeof found, pipe))
            found[0] = '\0';
        if (pipe)
            pclose(pipe);
        snprintf(want, sizeof want, "./%s.cert_secret ", hosts[i]);
        T_EQ_STR(found, want);
    }
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/control/scheduler.yaml", s_tb.dir);
    FILE *file = fopen(path, "r");
    T_ASSERT(file);
    char line[PATH_MAX], want[PATH_MAX];
    snprintf(want, sizeof want, "server_cert: \"%s/control/curve/control.cert_secret\"",
             s_tb.dir);
    bool found = false;
    while (file && fgets(line, sizeof line, file))
        found = found || strstr(line, want);
    if (file)
        fclose(file);
    T_ASSERT(found);
}

//  A packet socket made in the testbed's switch (the namespace of its
//  bridge, <prefix>-lan), where every frame between hosts passes, and
//  nothing else does. ETH_P_ALL: a socket of ETH_P_IP sees nothing of the
//  veths here. -1 on failure.
static int
s_switch_socket(void)
{
    char path[128];
    snprintf(path, sizeof path, "/run/netns/%s-lan", s_tb.prefix);
    int lan = open(path, O_RDONLY | O_CLOEXEC);
    int self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    int fd = -1;
    if (lan >= 0 && self >= 0 && setns(lan, CLONE_NEWNET) == 0) {
        fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
        if (setns(self, CLONE_NEWNET) != 0) {
            if (fd >= 0)
                close(fd);
            fd = -1;
        }
    }
    if (lan >= 0)
        close(lan);
    if (self >= 0)
        close(self);
    if (fd >= 0) {
        struct timeval timeout = {0, 200000};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    }
    return fd;
}

//  What the capture saw of the TCP payloads between hosts.
typedef struct {
    int payloads;
    bool http;        //  "GET /healthz": plain HTTP to the gateway
    bool bus;         //  a heartbeat's name, as msgpack without CurveZMQ has it
    bool marker;      //  the folder test's bytes
    bool tls_storage; //  a TLS handshake record to the storage-proxy's port
} seen_t;

#define MARKER "backplane-testbed-marker"

//  Reads what the switch passed until it is quiet for 200 ms (or 2,000
//  frames), into seen.
static void
s_scan(int fd, seen_t *seen)
{
    unsigned char frame[65536];
    for (int n = 0; n < 2000; n++) {
        ssize_t size = recv(fd, frame, sizeof frame, 0);
        if (size <= 0)
            break;
        if ((size_t) size < ETH_HLEN || ((frame[12] << 8) | frame[13]) != ETH_P_IP)
            continue;
        //  An IPv4 TCP segment: its payload after both headers (read byte
        //  by byte: the IP header after the 14-byte Ethernet one is not
        //  aligned for struct iphdr).
        const unsigned char *ip = frame + ETH_HLEN;
        size_t ip_len = (size_t) (ip[0] & 0x0f) * 4;
        if ((size_t) size < ETH_HLEN + ip_len + 20 || ip[9] != IPPROTO_TCP)
            continue;
        const unsigned char *tcp = ip + ip_len;
        size_t head = ETH_HLEN + ip_len + (size_t) (tcp[12] >> 4) * 4;
        if ((size_t) size <= head)
            continue;
        seen->payloads++;
        const unsigned char *payload = frame + head;
        size_t length = (size_t) size - head;
        if (memmem(payload, length, "GET /healthz", 12))
            seen->http = true;
        if (memmem(payload, length, "registry.heartbeat", 18) ||
            memmem(payload, length, "agent.heartbeat", 15))
            seen->bus = true;
        if (memmem(payload, length, MARKER, strlen(MARKER)))
            seen->marker = true;
        if (((tcp[2] << 8) | tcp[3]) == 6021 && length >= 2 && payload[0] == 0x16 &&
            payload[1] == 0x03)
            seen->tls_storage = true;
    }
}

//  What crosses the testbed's wire, captured at the switch for a few
//  heartbeats: the bus is not readable (without CurveZMQ every heartbeat
//  carries "registry.heartbeat" and "agent.heartbeat" in clear), while the
//  plain HTTP asked meanwhile is, which shows the capture sees payloads.
static void
test_bus_traffic_not_in_clear(void)
{
    int fd = s_switch_socket();
    T_ASSERT(fd >= 0);
    seen_t seen = {0};
    for (int round = 0; round < 20; round++) { //  about 3 s: 3 heartbeats per service
        if (round % 5 == 0) {
            char *text = NULL;
            harness_http(s_tb.p.api, "GET", "/healthz", NULL, &text, CLIENT_HTTP_MS);
            free(text);
        }
        s_scan(fd, &seen);
    }
    close(fd);
    T_ASSERT(seen.payloads > 0);
    T_ASSERT(seen.http);
    T_ASSERT(!seen.bus);
}

//  curl's HTTP status for options and URL, trusting the testbed's
//  authority; -1 when curl failed.
static int
s_curl(const char *options)
{
    char command[12000], out[64] = "";
    snprintf(command, sizeof command,
             "curl -sS -m 20 --cacert %s/secrets/tls/ca.crt -o /dev/null"
             " -w '%%{http_code}' %s",
             s_tb.dir, options);
    FILE *pipe = popen(command, "r");
    if (!pipe)
        return -1;
    if (!fgets(out, sizeof out, pipe))
        out[0] = '\0';
    int rc = pclose(pipe);
    return rc == 0 ? atoi(out) : -1;
}

//  A folder's bytes between hosts: uploaded from this machine to the
//  storage-proxy on its host, and downloaded back, through the URLs the
//  gateway answers (https://, the storage host's address, a certificate
//  of the testbed's authority). The capture at the switch sees the TLS
//  handshakes to the storage-proxy, and never the bytes.
static void
test_folder_traffic_not_in_clear(void)
{
    int status = 0;
    json_t *r =
        testbed_request(&s_tb, "POST", "/folders", "{\"name\": \"tb-tls\"}", &status);
    json_decref(r);
    T_EQ_INT(status, 201);
    char body[PATH_MAX];
    snprintf(body, sizeof body, "%s/marker.txt", s_tb.dir);
    FILE *file = fopen(body, "w");
    T_ASSERT(file);
    for (int i = 0; i < 2000; i++)
        fprintf(file, "%s %d\n", MARKER, i);
    fclose(file);
    struct stat st;
    T_EQ_INT(stat(body, &st), 0);
    char request[256];
    snprintf(request, sizeof request, "{\"path\": \"marker.txt\", \"size\": %lld}",
             (long long) st.st_size);
    r = testbed_request(&s_tb, "POST", "/folders/tb-tls/request-upload", request,
                        &status);
    T_EQ_INT(status, 200);
    const char *url = json_string_value(json_object_get(r, "url"));
    const char *token = json_string_value(json_object_get(r, "token"));
    T_ASSERT(url && token);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "https://%s.13:6021", s_tb.net);
    T_ASSERT(strncmp(url, prefix, strlen(prefix)) == 0);

    int fd = s_switch_socket();
    T_ASSERT(fd >= 0);
    seen_t seen = {0};
    char options[8192];
    snprintf(options, sizeof options,
             "-X PATCH -H 'Tus-Resumable: 1.0.0' -H 'Upload-Offset: 0'"
             " -H 'Content-Type: application/offset+octet-stream' --data-binary @%s"
             " '%s?token=%s'",
             body, url, token);
    json_decref(r);
    T_EQ_INT(s_curl(options), 204);
    s_scan(fd, &seen);
    r = testbed_request(&s_tb, "POST", "/folders/tb-tls/request-download",
                        "{\"path\": \"marker.txt\"}", &status);
    T_EQ_INT(status, 200);
    url = json_string_value(json_object_get(r, "url"));
    token = json_string_value(json_object_get(r, "token"));
    T_ASSERT(url && token);
    snprintf(options, sizeof options, "'%s?token=%s'", url, token);
    json_decref(r);
    T_EQ_INT(s_curl(options), 200);
    s_scan(fd, &seen);
    close(fd);
    T_ASSERT(seen.tls_storage);
    T_ASSERT(!seen.marker);
    r = testbed_request(&s_tb, "DELETE", "/folders/tb-tls", NULL, &status);
    json_decref(r);
    T_ASSERT(status == 204 || status == 200);
}

//  The control host's every service (the scheduler with the hub and the
//  registry, and accounting) killed with -9 at once, as the host losing
//  power, then started again with the same command lines, as its
//  supervisor would: the sessions on both agent hosts are still RUNNING,
//  each in the one container it had, and answer; a new session is placed
//  and runs; then all three are destroyed.
static void
test_control_host_killed(void)
{
    T_EQ_INT(testbed_run(&s_tb, NULL, "restart control all"), 0);
    //  Back when /healthz says ready, as a load balancer would take it: the
    //  services run once the restart returns, but the gateway learns the new
    //  scheduler from the registry some 100 ms later, and its calls answer
    //  503 until then (an execute, which the agent serves, may pass sooner).
    int health = 0;
    for (int waited = 0; waited < 60000 && health != 200; waited += 200) {
        health = harness_http(s_tb.p.api, "GET", "/healthz", NULL, NULL, CLIENT_HTTP_MS);
        if (health != 200)
            harness_pause_ms(200);
    }
    T_EQ_INT(health, 200);
    for (int i = 0; i < 2; i++) {
        char path[64];
        snprintf(path, sizeof path, "/session/tb-%d", i + 1);
        bool ran = false;
        for (int waited = 0; waited < 60000 && !ran; waited += 500) {
            int status = 0;
            json_t *r = testbed_request(&s_tb, "POST", path,
                                        "{\"mode\": \"query\", \"runId\": \"kr\","
                                        " \"code\": \"echo again-$((40 + 2))\"}",
                                        &status);
            char *console =
                r ? json_dumps(json_object_get(json_object_get(r, "result"), "console"),
                               JSON_COMPACT)
                  : NULL;
            ran = status == 200 && console && strstr(console, "again-42");
            free(console);
            json_decref(r);
            if (!ran)
                harness_pause_ms(500);
        }
        T_ASSERT(ran);
        int status = 0;
        json_t *r = testbed_request(&s_tb, "GET", path, NULL, &status);
        T_EQ_INT(status, 200);
        T_EQ_STR(json_string_value(json_object_get(r, "status")), "RUNNING");
        json_decref(r);
        //  The same container: the kernel the session had, still one.
        T_EQ_INT(testbed_containers(&s_tb, s_tb.kernels[i]), 1);
    }
    //  The kernels as the scheduler lists them after its restart: the same
    //  ids on the same agents.
    json_t *r = client_gql(&s_tb.p, &s_tb.p.super,
                           "{ compute_session_list(limit: 10, offset: 0) { items { name"
                           " status containers { id agent } } } }",
                           NULL);
    json_t *items = json_object_get(
        json_object_get(json_object_get(r, "data"), "compute_session_list"), "items");
    T_EQ_INT(json_array_size(items), 2);
    for (size_t i = 0; i < json_array_size(items); i++) {
        json_t *item = json_array_get(items, i);
        const char *name = json_string_value(json_object_get(item, "name"));
        int n = name && strcmp(name, "tb-2") == 0 ? 1 : 0;
        json_t *containers = json_object_get(item, "containers");
        json_t *container = json_array_get(containers, 0);
        T_EQ_INT(json_array_size(containers), 1);
        T_EQ_STR(json_string_value(json_object_get(item, "status")), "RUNNING");
        T_EQ_STR(json_string_value(json_object_get(container, "id")), s_tb.kernels[n]);
        T_EQ_STR(json_string_value(json_object_get(container, "agent")), s_agents[n]);
    }
    json_decref(r);
    //  Placing works again: a new session runs (on either agent: each has a
    //  CPU left) and answers.
    char id[TESTBED_ID_SIZE], kernel[TESTBED_ID_SIZE], agent[TESTBED_ID_SIZE];
    T_ASSERT(testbed_session(&s_tb, "tb-3", NULL, id, kernel, agent));
    snprintf(s_tb.kernels[2], sizeof s_tb.kernels[2], "%s", kernel);
    T_ASSERT(strcmp(agent, "agent1") == 0 || strcmp(agent, "agent2") == 0);
    T_ASSERT(testbed_answers(&s_tb, "tb-3", "placed-after-restart"));
    T_EQ_INT(testbed_containers(&s_tb, kernel), 1);
}

static void
test_destroy_sessions(void)
{
    T_EQ_INT(testbed_destroy_session(&s_tb, "tb-1"), 200);
    T_EQ_INT(testbed_destroy_session(&s_tb, "tb-2"), 200);
    T_EQ_INT(testbed_destroy_session(&s_tb, "tb-3"), 200);
}

//  A shell command's first line of output into out ("" if none).
static void
s_first_line(const char *command, char *out, size_t size)
{
    FILE *pipe = popen(command, "r");
    out[0] = '\0';
    if (pipe && !fgets(out, (int) size, pipe))
        out[0] = '\0';
    if (pipe)
        pclose(pipe);
    out[strcspn(out, "\n")] = '\0';
}

//  The other kernel sees the main one by its own address, not its agent
//  host's (agent.network.routed: no NAT between the agents' kernel
//  subnets): a listener on port 7777 in each kernel's network namespace
//  (entered through its container's process), the main kernel connecting
//  to sub1; the listener that accepted prints the peer's address.
static void
s_check_peer_address(const char *main_ip)
{
    char path[PATH_MAX], command[PATH_MAX * 4];
    snprintf(path, sizeof path, "%s/listener.py", s_tb.dir);
    FILE *file = fopen(path, "w");
    T_ASSERT(file);
    if (file) {
        fputs("import socket\n"
              "s = socket.socket()\n"
              "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
              "s.bind(('0.0.0.0', 7777))\n"
              "s.listen(1)\n"
              "s.settimeout(60)\n"
              "c, a = s.accept()\n"
              "print(a[0], flush=True)\n",
              file);
        fclose(file);
    }
    //  The session's two kernels: the only containers left, one per agent
    //  (the admin API lists a session's main kernel only).
    for (int i = 0; i < 2; i++) {
        char id[TESTBED_ID_SIZE], pid[32];
        snprintf(command, sizeof command, "runc --root %s/agent%d/agent/runc list -q",
                 s_tb.dir, i + 1);
        s_first_line(command, id, sizeof id);
        T_ASSERT(*id);
        snprintf(command, sizeof command,
                 "runc --root %s/agent%d/agent/runc state %s |"
                 " sed -n 's/.*\"pid\": *\\([0-9]*\\).*/\\1/p'",
                 s_tb.dir, i + 1, id);
        s_first_line(command, pid, sizeof pid);
        T_ASSERT(*pid);
        snprintf(command, sizeof command,
                 "nsenter --net=/proc/%s/ns/net python3 %s/listener.py"
                 " >%s/peer-%d 2>&1 </dev/null & echo $! >%s/peer-%d.pid",
                 pid, s_tb.dir, s_tb.dir, i, s_tb.dir, i);
        T_EQ_INT(harness_shell(command), 0);
    }
    int status = 0;
    json_t *r =
        testbed_request(&s_tb, "POST", "/session/tb-cluster",
                        "{\"mode\": \"query\", \"runId\": \"peer\", \"code\":"
                        " \"for i in 1 2 3 4 5 6 7 8 9 10; do echo hi | nc -w 3 sub1 7777"
                        " && break; sleep 1; done\"}",
                        &status);
    T_EQ_INT(status, 200);
    json_decref(r);
    char seen[2][64] = {"", ""};
    for (int tries = 0; tries < 100 && !*seen[0] && !*seen[1]; tries++) {
        for (int i = 0; i < 2; i++) {
            snprintf(command, sizeof command, "cat %s/peer-%d 2>/dev/null", s_tb.dir, i);
            s_first_line(command, seen[i], sizeof seen[i]);
        }
        if (!*seen[0] && !*seen[1])
            harness_pause_ms(100);
    }
    for (int i = 0; i < 2; i++) {
        snprintf(command, sizeof command,
                 "kill -TERM $(cat %s/peer-%d.pid) 2>/dev/null; true", s_tb.dir, i);
        harness_shell(command);
    }
    fprintf(stderr, "# main %s; the listeners saw \"%s\" and \"%s\"\n", main_ip, seen[0],
            seen[1]);
    //  Exactly one accepted (sub1's), from the main kernel's own address.
    T_ASSERT(!*seen[0] != !*seen[1]);
    T_EQ_STR(*seen[0] ? seen[0] : seen[1], main_ip);
}

//  A cluster session of two kernels, one per agent host (multi-node: an
//  agent each): its hosts file names both kernels at addresses of their own
//  hosts' subnets (10.213.<host number>.0/24), and the main one reaches the
//  other by name across hosts (nothing listens on port 7, so the other
//  kernel's refusal is the proof), seen from its own address.
static void
test_cluster_across_agent_hosts(void)
{
    json_t *r = client_gql(&s_tb.p, &s_tb.p.super,
                           "mutation { modify_keypair_resource_policy(name: \"default\","
                           " props: {max_containers_per_session: 2}) { ok msg } }",
                           NULL);
    T_ASSERT(client_mutation_ok(r, "modify_keypair_resource_policy"));
    json_decref(r);
    T_ASSERT(client_session_running(
        &s_tb.p, &s_tb.p.super,
        "{\"name\": \"tb-cluster\", \"image\": \"" IMAGE "\", \"enqueueOnly\": true,"
        " \"clusterSize\": 2, \"clusterMode\": \"multi-node\","
        " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"256m\"}},"
        " \"type\": \"interactive\", \"group\": \"default\", \"domain\": \"default\"}",
        "tb-cluster", NULL));
    int status;
    r = testbed_request(
        &s_tb, "POST", "/session/tb-cluster",
        "{\"mode\": \"query\", \"runId\": \"cl\", \"code\":"
        " \"echo main=$(grep -w main1 /etc/hosts | cut -f1)"
        " sub=$(grep -w sub1 /etc/hosts | cut -f1); nc -w 5 sub1 7 </dev/null\"}",
        &status);
    T_EQ_INT(status, 200);
    char *console = json_dumps(json_object_get(json_object_get(r, "result"), "console"),
                               JSON_COMPACT);
    json_decref(r);
    //  One kernel in each host's subnet, and sub1 reached: "Connection
    //  refused" from its address, on the other host.
    bool main_on_1 = console && strstr(console, "main=10.213.21.");
    T_CONTAINS(console, main_on_1 ? "sub=10.213.22." : "main=10.213.22.");
    T_CONTAINS(console, main_on_1 ? "main=10.213.21." : "sub=10.213.21.");
    T_CONTAINS(console, main_on_1 ? "(10.213.22." : "(10.213.21.");
    T_CONTAINS(console, "Connection refused");
    char main_ip[32] = "";
    const char *m = console ? strstr(console, "main=") : NULL;
    if (m)
        sscanf(m + 5, "%31[0-9.]", main_ip);
    free(console);
    T_ASSERT(*main_ip);
    s_check_peer_address(main_ip);
    r = testbed_request(&s_tb, "DELETE", "/session/tb-cluster", NULL, &status);
    T_EQ_INT(status, 200);
    json_decref(r);
}

static void
test_down_leaves_nothing(void)
{
    T_EQ_INT(testbed_down_check(&s_tb), 0);
}

TESTBED_MAIN(s_tb, {
    T_RUN(test_every_service_from_its_host);
    T_RUN(test_a_session_on_each_agent_host);
    T_RUN(test_folder_written_on_one_host_read_on_another);
    T_RUN(test_app_through_the_wsproxy_on_another_host);
    T_RUN(test_unknown_agent_key_refused);
    T_RUN(test_each_host_its_own_key);
    T_RUN(test_bus_traffic_not_in_clear);
    T_RUN(test_folder_traffic_not_in_clear);
    T_RUN(test_control_host_killed);
    T_RUN(test_destroy_sessions);
    T_RUN(test_cluster_across_agent_hosts);
})
