/*  =========================================================================
    agent_net_test - kernel networks with real namespaces, veths and a bridge

    The config.json and argument cases need nothing. The network cases need
    root, iproute2 and the static busybox (its ping, nc and ip); the container
    cases also runc and tini-static. Without them they are reported as one
    passing test with a note. The bridge is bpt<pid> on a /28 of 10.251.0.0/16
    picked by pid, so parallel runs and a running agent do not clash; the last
    case removes the bridge and checks nothing of ours is left. The host's
    ip_forward setting is restored at the end.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <arpa/inet.h>  //  inet_pton: connecting to a kernel
#include <dirent.h>     //  counting bridge ports and namespaces
#include <netinet/in.h> //  sockaddr_in
#include <sys/socket.h> //  socket, connect
#include <sys/stat.h>   //  stat
#include <sys/time.h>   //  timeval: a read timeout
#include <sys/wait.h>   //  WIFEXITED: system's status
#include "t.h"

#define TINI_HOST     "/usr/bin/tini-static"
#define BUSYBOX       "/bin/busybox"
#define WAIT_MS       10000
#define PORT          8080
#define TIMING_ROUNDS 50

//  A command in the named network namespace. nsenter joins only its network:
//  `ip netns exec` (and `ip -n`) also remount /sys in the namespace they make.
#define IN_NETNS "nsenter --net=" AGENT_NET_NETNS_DIR "/"

static char s_tmp[] = "/tmp/agent_net_test.XXXXXX";
static char s_state[256];
static char s_image[256];
static char s_bridge[16];
static char s_cidr[32];
static char s_gateway[AGENT_NET_IP_MAX];
static char s_forward[8];
static agent_net_t *s_net;
static const char *s_runc_missing; //  why the container cases cannot run

//  What the first cases attached, for the later ones.
static char s_ip_a[AGENT_NET_IP_MAX];
static char s_ip_b[AGENT_NET_IP_MAX];

static char *
s_kernel_id(const char *name)
{
    return zsys_sprintf("t%d-%s", (int) getpid(), name);
}

static bool
s_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

//  Exit status of a shell command made from fmt (fixed test strings only).
static int
s_sh(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *command = zsys_vprintf(fmt, args);
    va_end(args);
    int rc = system(command);
    zstr_free(&command);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

//  Output of a shell command. Caller owns return value.
static char *
s_capture(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *command = zsys_vprintf(fmt, args);
    va_end(args);
    FILE *pipe = popen(command, "r");
    zstr_free(&command);
    char *data = calloc(1, 65536);
    if (pipe) {
        size_t n = fread(data, 1, 65535, pipe);
        data[n] = '\0';
        pclose(pipe);
    }
    return data;
}

static int
s_count_entries(const char *path, const char *prefix)
{
    DIR *dir = opendir(path);
    if (!dir)
        return 0;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)))
        if (entry->d_name[0] != '.' &&
            strncmp(entry->d_name, prefix, strlen(prefix)) == 0)
            count++;
    closedir(dir);
    return count;
}

//  Ports on the test bridge.
static int
s_bridge_ports(void)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "/sys/class/net/%s/brif", s_bridge);
    return s_count_entries(path, "");
}

//  Namespaces of this test run under /run/netns.
static int
s_our_netns(void)
{
    char prefix[64];
    snprintf(prefix, sizeof prefix, AGENT_NET_NETNS_PREFIX "t%d-", (int) getpid());
    return s_count_entries(AGENT_NET_NETNS_DIR, prefix);
}

//  The host-side veth name agent_net gives a kernel (FNV-1a of the id, as
//  agent_net.c computes it), so a case can take the name first.
static void
s_veth_name(const char *kernel_id, char name[AGENT_NET_IFNAME_MAX + 1])
{
    uint64_t hash = 14695981039346656037ULL;
    for (const char *p = kernel_id; *p; p++) {
        hash ^= (unsigned char) *p;
        hash *= 1099511628211ULL;
    }
    int digits = AGENT_NET_IFNAME_MAX - (int) strlen(AGENT_NET_VETH_PREFIX);
    snprintf(name, AGENT_NET_IFNAME_MAX + 1, "%s%0*" PRIx64, AGENT_NET_VETH_PREFIX,
             digits, (uint64_t) (hash & ((1ULL << (4 * digits)) - 1)));
}

static bool
s_ping(const char *netns, const char *ip)
{
    if (netns)
        return s_sh(IN_NETNS "%s " BUSYBOX " ping -c1 -W1 %s >/dev/null 2>&1", netns,
                    ip) == 0;
    return s_sh(BUSYBOX " ping -c1 -W1 %s >/dev/null 2>&1", ip) == 0;
}

//  ---------------------------------------------------------------------------
//  config.json (no root needed)

static void
test_bundle_network(void)
{
    const char *args[] = {"/bin/sh", NULL};
    agent_kernel_spec_t spec = {.kernel_id = "k1",
                                .image_rootfs = "/img",
                                .args = args,
                                .netns_path = "/run/netns/bp-k1"};
    bus_error_t err = {0};
    json_t *config = agent_bundle_config(&spec, "/r", "/run", &err);
    T_ASSERT(config);
    char *text = json_dumps(json_object_get(config, "linux"), JSON_COMPACT);
    json_decref(config);
    bool joined = strstr(text, "{\"type\":\"network\",\"path\":\"/run/netns/bp-k1\"}");
    bool pid = strstr(text, "{\"type\":\"pid\"}");
    free(text);
    T_ASSERT(joined);
    T_ASSERT(pid);

    spec.netns_path = NULL;
    spec.host_network = true;
    config = agent_bundle_config(&spec, "/r", "/run", &err);
    T_ASSERT(config);
    text = json_dumps(json_object_get(config, "linux"), JSON_COMPACT);
    json_decref(config);
    bool network = strstr(text, "network");
    bool mount = strstr(text, "{\"type\":\"mount\"}");
    free(text);
    T_ASSERT(!network);
    T_ASSERT(mount);

    spec.netns_path = "/run/netns/bp-k1";
    T_ASSERT(!agent_bundle_config(&spec, "/r", "/run", &err));
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    spec.host_network = false;
    spec.netns_path = "relative/ns";
    T_ASSERT(!agent_bundle_config(&spec, "/r", "/run", &err));
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
}

static void
test_new_invalid(void)
{
    bus_error_t err = {0};
    const char *bad_cidrs[] = {NULL,          "10.0.0.0",     "10.0.0.0/8",
                               "10.0.0.0/31", "10.0.0.0/24x", "10.0.0/24",
                               "/24",         "300.0.0.0/24", "10.0.0.0/"};
    for (size_t i = 0; i < sizeof bad_cidrs / sizeof bad_cidrs[0]; i++) {
        err.status = 0;
        T_ASSERT(!agent_net_new("bpx0", bad_cidrs[i], "/nonexistent", &err));
        T_EQ_INT(err.status, BUS_STATUS_INVALID);
    }
    const char *bad_bridges[] = {NULL, "", "much-too-long-name", "a/b", "a b", ".."};
    for (size_t i = 0; i < sizeof bad_bridges / sizeof bad_bridges[0]; i++) {
        err.status = 0;
        T_ASSERT(!agent_net_new(bad_bridges[i], "10.0.0.0/24", "/nonexistent", &err));
        T_EQ_INT(err.status, BUS_STATUS_INVALID);
    }
}

//  ---------------------------------------------------------------------------
//  Networks

static void
test_new_makes_bridge(void)
{
    char *text = s_capture("ip -4 -o addr show dev %s", s_bridge);
    char *want = zsys_sprintf("inet %s/28", s_gateway);
    bool has_address = strstr(text, want) != NULL;
    free(text);
    zstr_free(&want);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "/sys/class/net/%s/bridge", s_bridge);
    T_ASSERT(s_exists(path));
    T_ASSERT(has_address);
    T_EQ_STR(agent_net_gateway(s_net), s_gateway);
    text = s_capture("cat /proc/sys/net/ipv4/ip_forward");
    bool forwarding = text[0] == '1';
    free(text);
    T_ASSERT(forwarding);
    //  a second object over the same bridge is fine (an agent restart)
    bus_error_t err = {0};
    agent_net_t *again = agent_net_new(s_bridge, s_cidr, s_state, &err);
    T_ASSERT(again);
    //  Other agents' routed kernel subnets: left out of the masquerade
    //  (normalized to their networks), bad lists refused, "" back to all.
    T_EQ_INT(agent_net_routed_set(again, "10.99.7.1/16, 10.98.1.0/24", &err), 0);
    text = s_capture("nft list table ip backplane_%s", s_bridge);
    T_CONTAINS(text, "ip daddr != { 10.98.1.0/24, 10.99.0.0/16 } masquerade");
    free(text);
    const char *bad[] = {"10.0.0.0/33", "nope", "10.0.0.0", "10.0.0.0/8; 11.0.0.0/8",
                         "1.0.0.0/8 2.0.0.0/8 3.0.0.0/8 4.0.0.0/8 5.0.0.0/8 6.0.0.0/8"
                         " 7.0.0.0/8 8.0.0.0/8 9.0.0.0/8"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        T_EQ_INT(agent_net_routed_set(again, bad[i], &err), BUS_STATUS_INVALID);
    T_EQ_INT(agent_net_routed_set(again, "", &err), 0);
    text = s_capture("nft list table ip backplane_%s", s_bridge);
    T_ASSERT(text && !strstr(text, "daddr") && strstr(text, "masquerade"));
    free(text);
    agent_net_destroy(&again);
    agent_net_destroy(&again);
    //  a name taken by something else is refused
    T_ASSERT(!agent_net_new("lo", s_cidr, s_state, &err));
    T_EQ_INT(err.status, BUS_STATUS_CONFLICT);
}

//  agent_netlink on its own: statuses callers act on, errors that name the
//  operation and the link, a namespace with a socket inside it.
static void
test_netlink(void)
{
    bus_error_t err = {0};
    agent_netlink_t *nl = agent_netlink_new(&err);
    T_ASSERT(nl);
    agent_netlink_link_t link;
    T_EQ_INT(agent_netlink_link_get(nl, "bpnone0", &link, &err), BUS_STATUS_NOT_FOUND);
    T_CONTAINS(err.detail, "get link bpnone0: No such device");
    T_EQ_INT(agent_netlink_link_get(nl, s_bridge, &link, &err), 0);
    T_EQ_STR(link.kind, "bridge");
    T_EQ_STR(link.name, s_bridge);
    T_ASSERT(link.up && link.index > 0 && link.master == 0);
    T_EQ_INT(agent_netlink_link_get(nl, "lo", &link, &err), 0);
    T_EQ_STR(link.kind, "");
    T_EQ_INT(agent_netlink_bridge_add(nl, s_bridge, &err), BUS_STATUS_CONFLICT);
    T_CONTAINS(err.detail, s_bridge);
    T_EQ_INT(agent_netlink_bridge_add(nl, "much-too-long-name", &err),
             BUS_STATUS_INVALID);
    T_EQ_INT(agent_netlink_link_del(nl, "bpnone0", &err), BUS_STATUS_NOT_FOUND);
    T_CONTAINS(err.detail, "delete link bpnone0");
    T_EQ_INT(agent_netlink_link_up(nl, "bpnone0", NULL, &err), BUS_STATUS_NOT_FOUND);

    //  a namespace: its name is taken once, the socket inside sees only lo
    char name[64], path[PATH_MAX];
    snprintf(name, sizeof name, AGENT_NET_NETNS_PREFIX "t%d-nl", (int) getpid());
    snprintf(path, sizeof path, AGENT_NET_NETNS_DIR "/%s", name);
    agent_netlink_t *inside = NULL, *again = NULL;
    //  as the agent does before its first namespace: on a fresh machine
    //  nothing has made the directory yet
    T_EQ_INT(agent_netlink_netns_prepare(AGENT_NET_NETNS_DIR, &err), 0);
    T_EQ_INT(agent_netlink_netns_add(AGENT_NET_NETNS_DIR, name, &inside, &err), 0);
    T_ASSERT(inside && s_exists(path));
    T_EQ_INT(agent_netlink_netns_add(AGENT_NET_NETNS_DIR, name, &again, &err),
             BUS_STATUS_CONFLICT);
    T_ASSERT(!again);
    T_EQ_INT(agent_netlink_netns_add(AGENT_NET_NETNS_DIR, "../x", &again, &err),
             BUS_STATUS_INVALID);
    T_EQ_INT(agent_netlink_link_get(inside, s_bridge, &link, &err), BUS_STATUS_NOT_FOUND);
    T_EQ_INT(agent_netlink_link_get(inside, "lo", &link, &err), 0);
    T_ASSERT(!link.up);
    T_EQ_INT(agent_netlink_link_up(inside, "lo", NULL, &err), 0);
    //  a gateway nothing reaches: refused, with the kernel's own message
    T_EQ_INT(agent_netlink_route_add_default(inside, &link, 0x0a090909, &err),
             BUS_STATUS_INTERNAL);
    T_CONTAINS(err.detail, "netlink add default route via 10.9.9.9 dev lo: ");
    printf("# route refused: %s\n", err.detail);
    T_EQ_INT(agent_netlink_addr_add(inside, &link, 0x0a090901, 24, false, &err), 0);
    T_EQ_INT(agent_netlink_addr_add(inside, &link, 0x0a090901, 24, false, &err),
             BUS_STATUS_CONFLICT);
    T_CONTAINS(err.detail, "add address 10.9.9.1/24 to lo");
    T_EQ_INT(agent_netlink_addr_add(inside, &link, 0x0a090901, 24, true, &err), 0);
    T_EQ_INT(agent_netlink_route_add_default(inside, &link, 0x0a090902, &err), 0);
    char *addr = s_capture(IN_NETNS "%s ip -4 -o addr show dev lo", name);
    char *route = s_capture(IN_NETNS "%s ip route show default", name);
    bool ok = strstr(addr, "inet 10.9.9.1/24") && strstr(route, "default via 10.9.9.2");
    free(addr);
    free(route);
    T_ASSERT(ok);
    agent_netlink_destroy(&inside);
    agent_netlink_destroy(&inside);
    T_EQ_INT(agent_netlink_netns_del(AGENT_NET_NETNS_DIR, name, &err), 0);
    T_ASSERT(!s_exists(path));
    T_EQ_INT(agent_netlink_netns_del(AGENT_NET_NETNS_DIR, name, &err),
             BUS_STATUS_NOT_FOUND);
    agent_netlink_destroy(&nl);
}

static void
test_attach_two(void)
{
    char *a = s_kernel_id("a");
    char *b = s_kernel_id("b");
    char ns_a[PATH_MAX], ns_b[PATH_MAX];
    bus_error_t err = {0};
    int rc = agent_net_attach(s_net, a, ns_a, s_ip_a, &err);
    if (rc)
        fprintf(stderr, "# attach: %s\n", err.detail);
    T_EQ_INT(rc, 0);
    T_EQ_INT(agent_net_attach(s_net, b, ns_b, s_ip_b, &err), 0);
    char *want = zsys_sprintf(AGENT_NET_NETNS_DIR "/" AGENT_NET_NETNS_PREFIX "%s", a);
    bool path_ok = streq(ns_a, want);
    zstr_free(&want);
    T_ASSERT(path_ok);
    T_ASSERT(s_exists(ns_a) && s_exists(ns_b));
    T_ASSERT(!streq(s_ip_a, s_ip_b));
    T_ASSERT(!streq(s_ip_a, s_gateway));
    T_EQ_INT(s_bridge_ports(), 2);

    //  the host end is up on the bridge; named namespaces propagate (as ip's)
    char veth[AGENT_NET_IFNAME_MAX + 1];
    s_veth_name(a, veth);
    char *host = s_capture("ip -o link show dev %s", veth);
    char *want_master = zsys_sprintf("master %s ", s_bridge);
    char *propagation = s_capture("findmnt -n -o PROPAGATION " AGENT_NET_NETNS_DIR);
    bool host_ok =
        strstr(host, ",UP") && strstr(host, want_master) && strstr(propagation, "shared");
    if (!host_ok)
        fprintf(stderr, "# host: %s# propagation: %s\n", host, propagation);
    free(host);
    free(propagation);
    zstr_free(&want_master);
    T_ASSERT(host_ok);
    //  and neither it nor the bridge took an IPv6 link-local address (one
    //  shows at once, tentative): no change of the host's addresses at each
    //  kernel (ERR_NETWORK_CHANGED in a browser on the host).
    char *v6 =
        s_capture("ip -6 -o addr show dev %s; ip -6 -o addr show dev %s", veth, s_bridge);
    T_ASSERT(!strstr(v6, "inet6"));
    if (strstr(v6, "inet6"))
        fprintf(stderr, "# ipv6: %s\n", v6);
    free(v6);

    //  eth0 holds the address, with lo up and a default route via the bridge
    char *addr = s_capture(IN_NETNS "bp-%s ip -4 -o addr show dev eth0", a);
    char *links = s_capture(IN_NETNS "bp-%s ip -o link show", a);
    char *route = s_capture(IN_NETNS "bp-%s ip route show default", a);
    char *want_addr = zsys_sprintf("inet %s/28", s_ip_a);
    char *want_route = zsys_sprintf("default via %s dev eth0", s_gateway);
    bool ok = strstr(addr, want_addr) && strstr(route, want_route) &&
              strstr(links, "lo: <LOOPBACK,UP") && strstr(links, "eth0@");
    if (!ok)
        fprintf(stderr, "# addr: %s# links: %s# route: %s\n", addr, links, route);
    free(addr);
    free(links);
    free(route);
    zstr_free(&want_addr);
    zstr_free(&want_route);
    T_ASSERT(ok);

    //  each reaches the other, the bridge and itself; the host reaches both
    char name_a[PATH_MAX], name_b[PATH_MAX];
    snprintf(name_a, sizeof name_a, AGENT_NET_NETNS_PREFIX "%s", a);
    snprintf(name_b, sizeof name_b, AGENT_NET_NETNS_PREFIX "%s", b);
    T_ASSERT(s_ping(name_a, s_ip_b));
    T_ASSERT(s_ping(name_b, s_ip_a));
    T_ASSERT(s_ping(name_a, s_gateway));
    T_ASSERT(s_ping(name_b, s_gateway));
    T_ASSERT(s_ping(name_a, "127.0.0.1"));
    T_ASSERT(s_ping(NULL, s_ip_a));

    char ip[AGENT_NET_IP_MAX];
    T_EQ_INT(agent_net_lookup(s_net, a, ip), 0);
    T_EQ_STR(ip, s_ip_a);
    zstr_free(&a);
    zstr_free(&b);
}

static void
test_attach_refused(void)
{
    char *a = s_kernel_id("a");
    char ns[PATH_MAX], ip[AGENT_NET_IP_MAX];
    bus_error_t err = {0};
    T_EQ_INT(agent_net_attach(s_net, a, ns, ip, &err), BUS_STATUS_CONFLICT);
    T_EQ_INT(agent_net_attach(s_net, "../etc", ns, ip, &err), BUS_STATUS_INVALID);
    T_EQ_INT(agent_net_detach(s_net, "a/b", &err), BUS_STATUS_INVALID);
    T_EQ_INT(agent_net_lookup(s_net, "nobody", ip), BUS_STATUS_NOT_FOUND);
    //  a namespace of that name without an allocation: refused, detach clears it
    char *stray = s_kernel_id("stray");
    T_EQ_INT(s_sh("ip netns add bp-%s", stray), 0);
    T_EQ_INT(agent_net_attach(s_net, stray, ns, ip, &err), BUS_STATUS_CONFLICT);
    T_EQ_INT(agent_net_detach(s_net, stray, &err), 0);
    T_EQ_INT(agent_net_detach(s_net, stray, &err), BUS_STATUS_NOT_FOUND);
    //  so is a link with the kernel's veth name: refused, and left alone
    char veth[AGENT_NET_IFNAME_MAX + 1];
    s_veth_name(stray, veth);
    T_EQ_INT(s_sh("ip link add %s type veth peer name bps%d", veth, (int) getpid()), 0);
    T_EQ_INT(agent_net_attach(s_net, stray, ns, ip, &err), BUS_STATUS_CONFLICT);
    T_CONTAINS(err.detail, veth);
    T_EQ_INT(s_sh("ip link show dev %s >/dev/null 2>&1", veth), 0);
    char *file = zsys_sprintf("%s/net/%s", s_state, stray);
    bool no_file = !s_exists(file);
    zstr_free(&file);
    T_ASSERT(no_file);
    T_EQ_INT(agent_net_detach(s_net, stray, &err), 0);
    T_ASSERT(s_sh("ip link show dev %s >/dev/null 2>&1", veth) != 0);
    T_EQ_INT(agent_net_detach(s_net, stray, &err), BUS_STATUS_NOT_FOUND);
    //  detaching a kernel that never had a network changes nothing, every time
    char *never = s_kernel_id("never");
    T_EQ_INT(agent_net_detach(s_net, never, &err), BUS_STATUS_NOT_FOUND);
    T_CONTAINS(err.detail, never);
    T_EQ_INT(agent_net_detach(s_net, never, &err), BUS_STATUS_NOT_FOUND);
    zstr_free(&never);
    T_EQ_INT(s_bridge_ports(), 2);
    zstr_free(&a);
    zstr_free(&stray);
}

//  A new object (an agent restart) reads the allocations back.
static void
test_allocations_persist(void)
{
    char *a = s_kernel_id("a");
    char *b = s_kernel_id("b");
    char *c = s_kernel_id("c");
    char *file = zsys_sprintf("%s/net/%s", s_state, a);
    char *text = s_capture("cat %s", file);
    char *want = zsys_sprintf("%s\n", s_ip_a);
    bool file_ok = streq(text, want);
    free(text);
    zstr_free(&want);
    zstr_free(&file);
    T_ASSERT(file_ok);

    agent_net_destroy(&s_net);
    T_ASSERT(!s_net);
    bus_error_t err = {0};
    s_net = agent_net_new(s_bridge, s_cidr, s_state, &err);
    T_ASSERT(s_net);
    char ip[AGENT_NET_IP_MAX];
    T_EQ_INT(agent_net_lookup(s_net, a, ip), 0);
    T_EQ_STR(ip, s_ip_a);
    T_EQ_INT(agent_net_lookup(s_net, b, ip), 0);
    T_EQ_STR(ip, s_ip_b);
    char ns[PATH_MAX];
    T_EQ_INT(agent_net_attach(s_net, a, ns, ip, &err), BUS_STATUS_CONFLICT);
    T_EQ_INT(agent_net_attach(s_net, c, ns, ip, &err), 0);
    T_ASSERT(!streq(ip, s_ip_a) && !streq(ip, s_ip_b) && !streq(ip, s_gateway));
    T_EQ_INT(agent_net_detach(s_net, c, &err), 0);
    //  the network still works after the restart
    char name[PATH_MAX];
    snprintf(name, sizeof name, AGENT_NET_NETNS_PREFIX "%s", a);
    T_ASSERT(s_ping(name, s_ip_b));
    zstr_free(&a);
    zstr_free(&b);
    zstr_free(&c);
}

//  A /28 holds 13 kernels; the 14th is refused, and nothing is left of it.
static void
test_subnet_full(void)
{
    char ns[PATH_MAX], ip[AGENT_NET_IP_MAX];
    bus_error_t err = {0};
    char *ids[16] = {NULL};
    int attached = 0, status = 0;
    for (int i = 0; i < 16 && status == 0; i++) {
        char name[16];
        snprintf(name, sizeof name, "full%d", i);
        ids[i] = s_kernel_id(name);
        status = agent_net_attach(s_net, ids[i], ns, ip, &err);
        if (status == 0)
            attached++;
    }
    T_EQ_INT(status, BUS_STATUS_UNAVAILABLE);
    T_EQ_INT(attached, 11); //  13 minus a and b
    T_EQ_INT(s_bridge_ports(), 13);
    for (int i = 0; i < 16; i++) {
        if (ids[i] && i < attached)
            T_EQ_INT(agent_net_detach(s_net, ids[i], &err), 0);
        zstr_free(&ids[i]);
    }
    T_EQ_INT(s_bridge_ports(), 2);
}

//  Detach removes the veth, the namespace and the allocation; twice is NOT_FOUND.
static void
test_detach(void)
{
    char *a = s_kernel_id("a");
    bus_error_t err = {0};
    T_EQ_INT(agent_net_detach(s_net, a, &err), 0);
    char *ns = zsys_sprintf(AGENT_NET_NETNS_DIR "/" AGENT_NET_NETNS_PREFIX "%s", a);
    char *file = zsys_sprintf("%s/net/%s", s_state, a);
    bool gone = !s_exists(ns) && !s_exists(file);
    zstr_free(&ns);
    zstr_free(&file);
    T_ASSERT(gone);
    T_EQ_INT(s_bridge_ports(), 1);
    char ip[AGENT_NET_IP_MAX];
    T_EQ_INT(agent_net_lookup(s_net, a, ip), BUS_STATUS_NOT_FOUND);
    T_EQ_INT(agent_net_detach(s_net, a, &err), BUS_STATUS_NOT_FOUND);
    T_ASSERT(!s_ping(NULL, s_ip_a));
    zstr_free(&a);
}

//  Networks made ahead: complete inside, off the bridge, given a
//  kernel's names by attach; what a crashed agent left is removed by the
//  next object, and destroy removes the rest.
static void
test_spares(void)
{
    bus_error_t err = {0};
    char spare_prefix[64], *spare_dir = zsys_sprintf("%s/net-spares", s_state);
    snprintf(spare_prefix, sizeof spare_prefix, "%s", agent_net_spare_prefix(s_net));
    T_ASSERT(strncmp(spare_prefix, "bpspare-", 8) == 0 && strlen(spare_prefix) == 21);
    T_EQ_INT(agent_net_spare_make(s_net, &err), 0); //  none wanted yet
    agent_net_spares_set(s_net, 2);
    T_EQ_INT(agent_net_spare_make(s_net, &err), 1);
    T_EQ_INT(agent_net_spare_make(s_net, &err), 1);
    T_EQ_INT(agent_net_spare_make(s_net, &err), 0);
    T_EQ_INT(agent_net_spare_count(s_net), 2);
    T_EQ_INT(s_count_entries(spare_dir, ""), 2);
    T_EQ_INT(s_count_entries(AGENT_NET_NETNS_DIR, spare_prefix), 2);
    T_EQ_INT(s_bridge_ports(), 1); //  b: spares join the bridge when taken
    T_EQ_INT(s_sh("test -z \"$(ip -o link show master %s up | grep ' bps')\"", s_bridge),
             0);

    //  a kernel gets one: its names, up, reaching the bridge
    char *k = s_kernel_id("spare");
    char ns[PATH_MAX], ip[AGENT_NET_IP_MAX], veth[AGENT_NET_IFNAME_MAX + 1];
    T_EQ_INT(agent_net_attach(s_net, k, ns, ip, &err), 0);
    char *want = zsys_sprintf(AGENT_NET_NETNS_DIR "/" AGENT_NET_NETNS_PREFIX "%s", k);
    T_EQ_STR(ns, want);
    zstr_free(&want);
    T_ASSERT(s_exists(ns));
    T_EQ_INT(agent_net_spare_count(s_net), 1);
    T_EQ_INT(s_count_entries(spare_dir, ""), 1);
    T_EQ_INT(s_count_entries(AGENT_NET_NETNS_DIR, spare_prefix), 1);
    s_veth_name(k, veth);
    T_EQ_INT(s_sh("ip -o link show dev %s master %s up | grep -q .", veth, s_bridge), 0);
    T_EQ_INT(s_sh(IN_NETNS AGENT_NET_NETNS_PREFIX "%s ip -o -4 addr show dev eth0"
                                                  " | grep -q ' %s/'",
                  k, ip),
             0);
    char name[PATH_MAX];
    snprintf(name, sizeof name, AGENT_NET_NETNS_PREFIX "%s", k);
    T_ASSERT(s_ping(name, s_gateway));
    T_ASSERT(s_ping(NULL, ip));
    char looked_up[AGENT_NET_IP_MAX];
    T_EQ_INT(agent_net_lookup(s_net, k, looked_up), 0);
    T_EQ_STR(looked_up, ip);
    T_EQ_INT(agent_net_detach(s_net, k, &err), 0);
    T_ASSERT(!s_exists(ns));
    T_ASSERT(s_sh("ip link show dev %s >/dev/null 2>&1", veth) != 0);
    T_EQ_INT(s_bridge_ports(), 1);

    //  what a crashed agent left: a spare's file and what it names, and a
    //  file that names nothing; the next object removes them
    char left_ns[80], left_veth[AGENT_NET_IFNAME_MAX + 1];
    snprintf(left_ns, sizeof left_ns, "%s77", spare_prefix);
    snprintf(left_veth, sizeof left_veth, "bps%dx", (int) getpid() % 100000);
    T_EQ_INT(s_sh("ip netns add %s && ip link add %s type veth peer name eth9 &&"
                  " echo '10.0.0.9 %s %s' > %s/77 && echo junk > %s/junk",
                  left_ns, left_veth, left_ns, left_veth, spare_dir, spare_dir),
             0);
    agent_net_destroy(&s_net); //  its own spare goes
    T_EQ_INT(s_count_entries(spare_dir, ""), 2);
    T_EQ_INT(s_count_entries(AGENT_NET_NETNS_DIR, spare_prefix), 1);
    s_net = agent_net_new(s_bridge, s_cidr, s_state, &err);
    T_ASSERT(s_net);
    T_EQ_INT(s_count_entries(spare_dir, ""), 0);
    T_EQ_INT(s_count_entries(AGENT_NET_NETNS_DIR, spare_prefix), 0);
    T_ASSERT(s_sh("ip link show dev %s >/dev/null 2>&1", left_veth) != 0);
    T_EQ_INT(s_bridge_ports(), 1);
    //  and the kernel that was there before is still there
    char *b = s_kernel_id("b");
    T_EQ_INT(agent_net_lookup(s_net, b, looked_up), 0);
    zstr_free(&b);

    //  a spare someone broke (its namespace removed by hand): the kernel gets
    //  a network made anew, and nothing of the spare is left
    agent_net_spares_set(s_net, 1);
    T_EQ_INT(agent_net_spare_make(s_net, &err), 1);
    T_EQ_INT(s_sh("ip netns del %s0", spare_prefix), 0); //  the first of this object
    T_EQ_INT(agent_net_attach(s_net, k, ns, ip, &err), 0);
    T_EQ_INT(agent_net_spare_count(s_net), 0);
    T_ASSERT(s_ping(name, s_gateway));
    T_EQ_INT(agent_net_detach(s_net, k, &err), 0);
    T_EQ_INT(s_count_entries(spare_dir, ""), 0);
    T_EQ_INT(s_bridge_ports(), 1);
    agent_net_spares_set(s_net, 0);
    zstr_free(&k);
    zstr_free(&spare_dir);
}

//  Attach and detach one kernel TIMING_ROUNDS times; the means go to a TAP
//  comment (no assertion: the host's load decides).
static void
test_timing(void)
{
    char *id = s_kernel_id("timing");
    char ns[PATH_MAX], ip[AGENT_NET_IP_MAX];
    bus_error_t err = {0};
    int64_t attach_us = 0, detach_us = 0;
    int rounds = 0;
    for (; rounds < TIMING_ROUNDS; rounds++) {
        int64_t start = zclock_usecs();
        if (agent_net_attach(s_net, id, ns, ip, &err) != 0)
            break;
        int64_t attached = zclock_usecs();
        attach_us += attached - start;
        if (agent_net_detach(s_net, id, &err) != 0)
            break;
        detach_us += zclock_usecs() - attached;
    }
    if (rounds < TIMING_ROUNDS)
        fprintf(stderr, "# timing: %s\n", err.detail);
    T_EQ_INT(rounds, TIMING_ROUNDS);
    printf("# attach+detach: %.2f ms per kernel (attach %.2f, detach %.2f; %d rounds)\n",
           (double) (attach_us + detach_us) / 1000.0 / rounds,
           (double) attach_us / 1000.0 / rounds, (double) detach_us / 1000.0 / rounds,
           rounds);
    zstr_free(&id);
}

//  A kernel run by agent_runc in its namespace: it sees eth0 with its address
//  and the host reaches its service at ip:port.
static void
test_runc_kernel(void)
{
    if (s_runc_missing) {
        T_SKIP("%s", s_runc_missing);
    }
    agent_runc_t *runc = agent_runc_new(NULL, s_state);
    T_ASSERT(runc);
    char *id = s_kernel_id("ctr");
    char ns[PATH_MAX], ip[AGENT_NET_IP_MAX];
    bus_error_t err = {0};
    T_EQ_INT(agent_net_attach(s_net, id, ns, ip, &err), 0);
    const char *args[] = {AGENT_KERNEL_TINI_PATH,
                          "-s",
                          "--",
                          "/bin/sh",
                          "-c",
                          "ip -4 -o addr show dev eth0; echo routes $(ip route);"
                          " echo hello-from-kernel | exec nc -l -p 8080",
                          NULL};
    agent_kernel_spec_t spec = {.kernel_id = id,
                                .image_rootfs = s_image,
                                .args = args,
                                .tini_path = TINI_HOST,
                                .netns_path = ns};
    int rc = agent_runc_create(runc, &spec, &err);
    if (rc)
        fprintf(stderr, "# create: %s\n", err.detail);
    T_EQ_INT(rc, 0);

    //  the host connects to the kernel's address
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(PORT)};
    inet_pton(AF_INET, ip, &address.sin_addr);
    char reply[64] = "";
    int64_t deadline = zclock_mono() + WAIT_MS;
    while (!*reply && zclock_mono() < deadline) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        struct timeval timeout = {.tv_sec = 2};
        if (fd >= 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        if (fd >= 0 && connect(fd, (struct sockaddr *) &address, sizeof address) == 0) {
            ssize_t n = read(fd, reply, sizeof reply - 1);
            reply[n > 0 ? n : 0] = '\0';
        }
        if (fd >= 0)
            close(fd);
        if (!*reply)
            zclock_sleep(20);
    }
    char *log_path = agent_runc_kernel_path(runc, id, "container.log");
    char *log = s_capture("cat %s", log_path);
    zstr_free(&log_path);
    char *want_addr = zsys_sprintf("inet %s/28", ip);
    char *want_route = zsys_sprintf("default via %s", s_gateway);
    bool ok = strstr(log, want_addr) && strstr(log, want_route);
    if (!ok)
        fprintf(stderr, "# log: %s\n", log);
    free(log);
    zstr_free(&want_addr);
    zstr_free(&want_route);
    T_ASSERT(ok);
    T_EQ_STR(reply, "hello-from-kernel\n");

    T_EQ_INT(agent_runc_remove(runc, id, 1000, NULL, &err), 0);
    T_EQ_INT(agent_net_detach(s_net, id, &err), 0);
    agent_runc_reap_all(runc, NULL, NULL);
    agent_runc_destroy(&runc);
    zstr_free(&id);
}

//  A kernel reaches a host beyond the agent's machine through the agent's
//  NAT (its own nft table). The other host is a network namespace joined to
//  this one by a veth pair, with no route back to the kernels' subnet: only
//  a masqueraded connection can be answered.
static void
test_runc_egress(void)
{
    if (s_runc_missing) {
        T_SKIP("%s", s_runc_missing);
    }
    //  the NAT table is the agent's own, present while it runs
    T_ASSERT(agent_net_nat(s_net));
    T_EQ_INT(s_sh("nft list table ip backplane_%s >/dev/null", s_bridge), 0);

    //  198.18.0.0/15 (benchmarking, never routed): a /30 per run
    unsigned slot = (unsigned) getpid() % 16384;
    char far[32], near[32], host[32];
    snprintf(near, sizeof near, "198.18.%u.%u", slot / 64, (slot % 64) * 4 + 1);
    snprintf(far, sizeof far, "198.18.%u.%u", slot / 64, (slot % 64) * 4 + 2);
    snprintf(host, sizeof host, "bpe%d", (int) getpid());
    T_EQ_INT(s_sh("ip netns add %s && ip link add %sa type veth peer name %sb &&"
                  " ip link set %sb netns %s && ip addr add %s/30 dev %sa &&"
                  " ip link set %sa up && " IN_NETNS "%s ip addr add %s/30 dev %sb &&"
                  " " IN_NETNS "%s ip link set %sb up && " IN_NETNS
                  "%s ip link set lo up",
                  host, host, host, host, host, near, host, host, host, far, host, host,
                  host, host),
             0);
    //  the far host answers one connection with what it saw
    char *out = zsys_sprintf("%s/egress.out", s_tmp);
    T_EQ_INT(s_sh(IN_NETNS "%s " BUSYBOX " timeout 20 " BUSYBOX
                           " nc -l -p 9000 -e " BUSYBOX " echo far-host-here >%s 2>&1 &",
                  host, out),
             0);

    agent_runc_t *runc = agent_runc_new(NULL, s_state);
    char *id = s_kernel_id("egress");
    char ns[PATH_MAX], ip[AGENT_NET_IP_MAX];
    bus_error_t err = {0};
    T_ASSERT(runc);
    T_EQ_INT(agent_net_attach(s_net, id, ns, ip, &err), 0);
    char *script = zsys_sprintf("for i in 1 2 3 4 5 6 7 8 9 10; do"
                                " nc -w 2 %s 9000 </dev/null && break; sleep 0.2; done",
                                far);
    const char *args[] = {
        AGENT_KERNEL_TINI_PATH, "-s", "--", "/bin/sh", "-c", script, NULL};
    agent_kernel_spec_t spec = {.kernel_id = id,
                                .image_rootfs = s_image,
                                .args = args,
                                .tini_path = TINI_HOST,
                                .netns_path = ns};
    T_EQ_INT(agent_runc_create(runc, &spec, &err), 0);
    int64_t deadline = zclock_mono() + WAIT_MS;
    while (agent_runc_pid(runc, id) > 0 && zclock_mono() < deadline) {
        agent_runc_reap(runc, NULL, NULL);
        zclock_sleep(10);
    }
    char *log_path = agent_runc_kernel_path(runc, id, "container.log");
    char *log = s_capture("cat %s", log_path);
    bool reached = strstr(log, "far-host-here") != NULL;
    if (!reached)
        fprintf(stderr, "# kernel %s saw: %s\n", ip, log);
    free(log);
    zstr_free(&log_path);
    zstr_free(&script);
    agent_runc_remove(runc, id, 1000, NULL, &err);
    agent_net_detach(s_net, id, &err);
    agent_runc_reap_all(runc, NULL, NULL);
    agent_runc_destroy(&runc);
    zstr_free(&id);
    zstr_free(&out);
    s_sh("ip netns del %s; ip link del %sa 2>/dev/null", host, host);
    T_ASSERT(reached);
}

//  With host_network the kernel sees the host's interfaces, the bridge among them.
static void
test_runc_host_network(void)
{
    if (s_runc_missing) {
        T_SKIP("%s", s_runc_missing);
    }
    agent_runc_t *runc = agent_runc_new(NULL, s_state);
    T_ASSERT(runc);
    char *id = s_kernel_id("host");
    const char *args[] = {"/bin/sh", "-c", "echo net $(ls /sys/class/net) end", NULL};
    agent_kernel_spec_t spec = {
        .kernel_id = id, .image_rootfs = s_image, .args = args, .host_network = true};
    bus_error_t err = {0};
    int rc = agent_runc_create(runc, &spec, &err);
    if (rc)
        fprintf(stderr, "# create: %s\n", err.detail);
    T_EQ_INT(rc, 0);
    int64_t deadline = zclock_mono() + WAIT_MS;
    while (agent_runc_pid(runc, id) > 0 && zclock_mono() < deadline) {
        agent_runc_reap(runc, NULL, NULL);
        zclock_sleep(10);
    }
    char *log_path = agent_runc_kernel_path(runc, id, "container.log");
    char *log = s_capture("cat %s", log_path);
    zstr_free(&log_path);
    char *want = zsys_sprintf(" %s ", s_bridge);
    bool ok = strstr(log, want) && strstr(log, " end");
    if (!ok)
        fprintf(stderr, "# log: %s\n", log);
    free(log);
    zstr_free(&want);
    T_ASSERT(ok);
    T_EQ_INT(agent_runc_remove(runc, id, 1000, NULL, &err), 0);
    agent_runc_destroy(&runc);
    zstr_free(&id);
}

//  A failing step (the bridge is gone) leaves nothing behind; a new object
//  makes the bridge again.
static void
test_attach_rollback(void)
{
    T_EQ_INT(s_sh("ip link del %s", s_bridge), 0);
    char *id = s_kernel_id("broken");
    char ns[PATH_MAX], ip[AGENT_NET_IP_MAX];
    bus_error_t err = {0};
    T_EQ_INT(agent_net_attach(s_net, id, ns, ip, &err), BUS_STATUS_INTERNAL);
    T_CONTAINS(err.detail, "netlink get link");
    T_CONTAINS(err.detail, s_bridge);
    char *file = zsys_sprintf("%s/net/%s", s_state, id);
    bool gone = !s_exists(file);
    zstr_free(&file);
    T_ASSERT(gone);
    T_EQ_INT(s_our_netns(), 1); //  b's only
    T_EQ_INT(agent_net_lookup(s_net, id, ip), BUS_STATUS_NOT_FOUND);
    T_EQ_INT(agent_net_detach(s_net, id, &err), BUS_STATUS_NOT_FOUND);
    zstr_free(&id);
    agent_net_destroy(&s_net);
    s_net = agent_net_new(s_bridge, s_cidr, s_state, &err);
    T_ASSERT(s_net);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "/sys/class/net/%s/bridge", s_bridge);
    T_ASSERT(s_exists(path));
    //  b's veth is back on the new bridge
    T_EQ_INT(s_bridge_ports(), 1);
    T_ASSERT(s_ping(NULL, s_ip_b));
}

//  Detach the rest, remove the bridge: nothing of this run is left.
static void
test_teardown(void)
{
    char *b = s_kernel_id("b");
    bus_error_t err = {0};
    T_EQ_INT(agent_net_detach(s_net, b, &err), 0);
    zstr_free(&b);
    T_EQ_INT(s_our_netns(), 0);
    char *dir = zsys_sprintf("%s/net", s_state);
    int files = s_count_entries(dir, "");
    zstr_free(&dir);
    T_EQ_INT(files, 0);
    T_EQ_INT(agent_net_teardown(s_net, &err), 0);
    //  and the NAT table with it
    T_ASSERT(s_sh("nft list table ip backplane_%s >/dev/null 2>&1", s_bridge) != 0);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "/sys/class/net/%s", s_bridge);
    T_ASSERT(!s_exists(path));
    T_EQ_INT(agent_net_teardown(s_net, &err), 0);
}

//  An agent that stops without having made its network removes the NAT
//  table an earlier run of its bridge left (after a kill -9, the bridge
//  goes with the test, the table stayed).
static void
test_nat_forget(void)
{
    if (s_sh("command -v nft >/dev/null") != 0)
        T_SKIP("no nft");
    char bridge[32];
    snprintf(bridge, sizeof bridge, "bpg%d", (int) getpid());
    T_EQ_INT(s_sh("nft add table ip backplane_%s", bridge), 0);
    agent_net_nat_forget(bridge);
    T_ASSERT(s_sh("nft list table ip backplane_%s >/dev/null 2>&1", bridge) != 0);
    agent_net_nat_forget(bridge); //  none: nothing to do
}

//  ---------------------------------------------------------------------------

static const char *
s_missing(void)
{
    if (geteuid() != 0)
        return "not root";
    if (access("/usr/sbin/ip", X_OK) != 0 && access("/sbin/ip", X_OK) != 0 &&
        access("/usr/bin/ip", X_OK) != 0 && access("/bin/ip", X_OK) != 0)
        return "iproute2 not installed";
    if (access(BUSYBOX, X_OK) != 0)
        return "busybox-static not installed";
    return NULL;
}

static const char *
s_missing_runc(void)
{
    if (system("command -v runc >/dev/null 2>&1") != 0)
        return "runc not installed";
    if (access(TINI_HOST, X_OK) != 0)
        return "tini-static not installed";
    return NULL;
}

//  A busybox rootfs with relative applet links and a work user (as agent_runc_test).
static int
s_make_image(void)
{
    return s_sh(
        "set -e; R=%s; mkdir -p $R/bin $R/etc $R/proc $R/sys $R/dev $R/tmp $R/home;"
        " cp " BUSYBOX " $R/bin/busybox;"
        " for a in $($R/bin/busybox --list); do [ -e $R/bin/$a ] || ln -s busybox "
        "$R/bin/$a; done; chmod 1777 $R/tmp;"
        " printf "
        "'root:x:0:0:root:/root:/bin/sh\\nwork:x:1000:1000::/home/work:/bin/sh\\n'"
        " > $R/etc/passwd; printf 'root:x:0:\\nwork:x:1000:\\n' > $R/etc/group",
        s_image);
}

int
main(void)
{
    T_RUN(test_bundle_network);
    T_RUN(test_new_invalid);

    const char *missing = s_missing();
    if (missing) {
        T_RUN_SKIP(test_network_cases, missing);
        return T_DONE();
    }
    if (!mkdtemp(s_tmp)) {
        printf("# cannot make %s\n", s_tmp);
        return 1;
    }
    snprintf(s_state, sizeof s_state, "%s/state", s_tmp);
    snprintf(s_image, sizeof s_image, "%s/image", s_tmp);
    s_runc_missing = s_missing_runc();
    if (!s_runc_missing && s_make_image() != 0)
        s_runc_missing = "cannot build the busybox image";
    //  a /28 of 10.251.0.0/16 and a bridge name per run
    unsigned slot = (unsigned) getpid() % 4096;
    snprintf(s_bridge, sizeof s_bridge, "bpt%d", (int) getpid());
    snprintf(s_cidr, sizeof s_cidr, "10.251.%u.%u/28", slot / 16, (slot % 16) * 16);
    snprintf(s_gateway, sizeof s_gateway, "10.251.%u.%u", slot / 16,
             (slot % 16) * 16 + 1);
    char *forward = s_capture("cat /proc/sys/net/ipv4/ip_forward");
    snprintf(s_forward, sizeof s_forward, "%c", forward[0] == '1' ? '1' : '0');
    free(forward);

    bus_error_t err = {0};
    s_net = agent_net_new(s_bridge, s_cidr, s_state, &err);
    if (!s_net) {
        printf("# agent_net_new: %s\n", err.detail);
        s_sh("ip link del %s 2>/dev/null", s_bridge);
        return 1;
    }
    T_RUN(test_new_makes_bridge);
    T_RUN(test_netlink);
    T_RUN(test_attach_two);
    T_RUN(test_attach_refused);
    T_RUN(test_allocations_persist);
    T_RUN(test_subnet_full);
    T_RUN(test_detach);
    T_RUN(test_spares);
    T_RUN(test_timing);
    T_RUN(test_runc_kernel);
    T_RUN(test_runc_egress);
    T_RUN(test_runc_host_network);
    T_RUN(test_attach_rollback);
    T_RUN(test_teardown);
    T_RUN(test_nat_forget);

    //  Whatever a failed case left: kernels' networks, then the bridge.
    char prefix[64];
    snprintf(prefix, sizeof prefix, "t%d-", (int) getpid());
    char *dir = zsys_sprintf("%s/net", s_state);
    DIR *entries = opendir(dir);
    struct dirent *entry;
    while (s_net && entries && (entry = readdir(entries)))
        if (strncmp(entry->d_name, prefix, strlen(prefix)) == 0)
            agent_net_detach(s_net, entry->d_name, NULL);
    if (entries)
        closedir(entries);
    zstr_free(&dir);
    s_sh("ip netns del " AGENT_NET_NETNS_PREFIX "t%d-nl 2>/dev/null", (int) getpid());
    if (s_net)
        agent_net_teardown(s_net, NULL);
    else
        s_sh("ip link del %s 2>/dev/null", s_bridge);
    agent_net_destroy(&s_net);
    s_sh("echo %s > /proc/sys/net/ipv4/ip_forward", s_forward);
    s_sh("rm -rf %s", s_tmp);
    return T_DONE();
}
