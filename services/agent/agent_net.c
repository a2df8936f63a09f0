/*  =========================================================================
    agent_net - kernel networks made in-process with rtnetlink

    The bridge, the veth pairs, addresses, routes and the named namespaces
    are made by agent_netlink: raw rtnetlink requests and a helper thread
    for each new namespace, no process per step. Only NAT, optional and
    done once per agent, still runs a tool (`nft` or `iptables`), forked and
    exec'd with an argv, never a shell string, stdin on the null device and
    the output captured for error details. The subnet is a bitmap of host
    indexes: 0 is the network, 1 the bridge, the last the broadcast address;
    kernels get the next free index after the last one given, so a freed
    address is not reused at once. An allocation is written (atomically, by
    rename) before anything is created for it and removed after everything
    else is gone, so a crash never leaves a veth or namespace that no file
    names; detach removes whatever of a kernel's network exists. It is not
    fsync'd: what it guards, the veth and the namespace (a name under /run),
    goes with the host, so only an agent's crash matters, after which the
    page cache still holds the file; an fsync on a create's path cost
    1-5 ms on a shared disk.

    Spares: making a namespace and a veth pair is most of a create's network
    step (about 1.5 ms: the namespace 0.7, the pair 0.4, addresses and
    routes 0.4), so up to agent_net_spares_set of them are made ahead, off
    the create's path (agent_net_spare_make, which the agent runs on its
    worker after a create). A spare is complete inside (lo, eth0 with its
    address, the default route) with its host end down and on no bridge;
    attach gives it the kernel's names, the namespace by a bind mount (a
    mount point cannot be renamed) and the veth by a rename, which puts it
    on the bridge and up in the same request (0.4 ms left on the create's
    path, most of it the bridge taking a port that comes up: a spare stays
    off the bridge, where it would only be a port that is down). Each spare is a file
    <state_dir>/net-spares/<n> naming its address, namespace and veth,
    written before they are made, so a spare a crash left is removed by the
    next agent_net_new (or taken over by the kernel it was being given to,
    which then holds its address).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <arpa/inet.h> //  inet_pton, inet_ntop: addresses in text
#include <dirent.h>    //  reading back the allocations
#include <fcntl.h>     //  open flags
#include <sys/stat.h>  //  mkdir, stat
#include <sys/wait.h>  //  waitpid

#define IP_FORWARD        "/proc/sys/net/ipv4/ip_forward"
#define OUTPUT_TAIL       160 //  the most of a tool's output kept in an error detail
#define NFT_TABLE_PREFIX  "backplane_"
#define SPARE_VETH_PREFIX "bps" //  a spare's host end, until a kernel takes it
//  A spare's namespace, until a kernel takes it: not AGENT_NET_NETNS_PREFIX
//  and an id, which a kernel's name is, so the two can never meet.
#define SPARE_NETNS_PREFIX "bpspare-"

//  A kernel network made ahead (see the header).
typedef struct {
    unsigned n;     //  its number, its file's name
    uint32_t index; //  its address's host index
    char netns[AGENT_NET_IFNAME_MAX + 32];
    char veth[AGENT_NET_IFNAME_MAX + 1];
} s_spare_t;

struct _agent_net_t {
    char *bridge;
    char *net_dir;   //  <state_dir>/net
    uint32_t base;   //  network address, host order
    int prefix;      //  subnet prefix length
    uint32_t size;   //  addresses in the subnet
    uint8_t *used;   //  bitmap of host indexes
    uint32_t cursor; //  last index given
    char cidr[AGENT_NET_IP_MAX + 8];
    char gateway[AGENT_NET_IP_MAX];
    agent_netlink_t *nl;     //  a rtnetlink socket in the agent's namespace
    bool netns_ready;        //  AGENT_NET_NETNS_DIR is a shared mount point
    char nat_tool[PATH_MAX]; //  nft or iptables; empty when neither exists
    bool nat;
    char nft_table[64];
    //  agent_net_routed_set's subnets, normalized ("a.b.c.d/n"), never
    //  masqueraded
    char routed[AGENT_NET_ROUTED_MAX][AGENT_NET_IP_MAX + 8];
    size_t routed_count;
    zhashx_t *kernels; //  id -> host index, cast to a pointer (never 0)
    char *spare_dir;   //  <state_dir>/net-spares
    char spare_prefix[sizeof SPARE_NETNS_PREFIX + AGENT_NET_IFNAME_MAX + 1];
    s_spare_t spares[AGENT_NET_SPARES_MAX];
    size_t spare_count;   //  made and not taken
    size_t spares_wanted; //  agent_net_spares_set
    unsigned spare_next;  //  the next spare's number
};

//  Where a tool may live; PATH may lack the sbin dirs.
static const char *const s_tool_dirs[] = {"/usr/sbin", "/sbin", "/usr/bin", "/bin", NULL};

static bool
s_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

//  Full path of tool into path. Returns false when it is nowhere.
static bool
s_find_tool(const char *tool, char path[PATH_MAX])
{
    for (size_t i = 0; s_tool_dirs[i]; i++) {
        snprintf(path, PATH_MAX, "%s/%s", s_tool_dirs[i], tool);
        if (access(path, X_OK) == 0)
            return true;
    }
    const char *env = getenv("PATH");
    char *dirs = env ? strdup(env) : NULL;
    bool found = false;
    char *save = NULL;
    for (char *dir = dirs ? strtok_r(dirs, ":", &save) : NULL; dir && !found;
         dir = strtok_r(NULL, ":", &save)) {
        snprintf(path, PATH_MAX, "%s/%s", dir, tool);
        found = *dir == '/' && access(path, X_OK) == 0;
    }
    free(dirs);
    if (!found)
        path[0] = '\0';
    return found;
}

//  Run argv (argv[0] a full path) and wait. Its stdout and stderr, trimmed to
//  the last OUTPUT_TAIL bytes, go into output. Returns its exit status, or -1
//  when it could not run.
static int
s_run(const char *const *argv, char *output, size_t output_size)
{
    int out_fd = -1;
    int status = agent_command_run(argv, -1, &out_fd, NULL);
    agent_command_tail(out_fd, output, output_size);
    for (char *p = output; *p; p++)
        if (*p == '\n')
            *p = ' ';
    if (out_fd >= 0)
        close(out_fd);
    return status;
}

//  Run argv; on failure fill err (INTERNAL) with the command and its output.
static int
s_run_checked(const char *const *argv, bus_error_t *err)
{
    char output[OUTPUT_TAIL + 1];
    int status = s_run(argv, output, sizeof output);
    if (status == 0)
        return 0;
    const char *tool = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    bus_error_set(err, BUS_STATUS_INTERNAL, "%s %s %s failed (%d): %s", tool,
                  argv[1] ? argv[1] : "", argv[1] && argv[2] ? argv[2] : "", status,
                  output);
    return BUS_STATUS_INTERNAL;
}

//  An interface name the kernel takes: 1..15 chars, no '/', no space.
static bool
s_ifname_valid(const char *name)
{
    if (!name || !*name || strlen(name) > AGENT_NET_IFNAME_MAX || streq(name, ".") ||
        streq(name, ".."))
        return false;
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char) *p) && *p != '_' && *p != '.' && *p != '-')
            return false;
    return true;
}

//  "a.b.c.d/n", n from min to max, into the masked network and prefix.
//  Returns false when bad.
static bool
s_parse_cidr_in(const char *cidr, long min, long max, uint32_t *base_p, int *prefix_p)
{
    char address[INET_ADDRSTRLEN];
    const char *slash = cidr ? strchr(cidr, '/') : NULL;
    if (!slash || slash == cidr || (size_t) (slash - cidr) >= sizeof address)
        return false;
    memcpy(address, cidr, (size_t) (slash - cidr));
    address[slash - cidr] = '\0';
    struct in_addr in;
    if (inet_pton(AF_INET, address, &in) != 1)
        return false;
    char *end = NULL;
    errno = 0;
    long prefix = strtol(slash + 1, &end, 10);
    if (errno || end == slash + 1 || *end || prefix < min || prefix > max)
        return false;
    uint32_t mask = prefix == 0 ? 0 : ~0U << (32 - prefix);
    *base_p = ntohl(in.s_addr) & mask;
    *prefix_p = (int) prefix;
    return true;
}

//  A kernels' subnet: a prefix of AGENT_NET_PREFIX_MIN..MAX.
static bool
s_parse_cidr(const char *cidr, uint32_t *base_p, int *prefix_p)
{
    return s_parse_cidr_in(cidr, AGENT_NET_PREFIX_MIN, AGENT_NET_PREFIX_MAX, base_p,
                           prefix_p);
}

static void
s_format_ip(uint32_t address, char ip[AGENT_NET_IP_MAX])
{
    struct in_addr in = {.s_addr = htonl(address)};
    if (!inet_ntop(AF_INET, &in, ip, AGENT_NET_IP_MAX))
        snprintf(ip, AGENT_NET_IP_MAX, "0.0.0.0");
}

static bool
s_used(agent_net_t *self, uint32_t index)
{
    return (self->used[index / 8] >> (index % 8)) & 1;
}

static void
s_set_used(agent_net_t *self, uint32_t index, bool used)
{
    if (used)
        self->used[index / 8] |= (uint8_t) (1u << (index % 8));
    else
        self->used[index / 8] &= (uint8_t) ~(1u << (index % 8));
}

//  Indexes a kernel may hold: past the bridge, before the broadcast address.
static bool
s_index_valid(agent_net_t *self, uint32_t index)
{
    return index >= 2 && index + 1 < self->size;
}

//  ---------------------------------------------------------------------------
//  The host-side veth name: the prefix plus 48 bits of FNV-1a of the id.

//  Both prefixes are 3 characters: a name is the prefix and 12 hex digits.
#define HASH_DIGITS (AGENT_NET_IFNAME_MAX - 3)
_Static_assert(sizeof AGENT_NET_VETH_PREFIX - 1 == 3 && sizeof SPARE_VETH_PREFIX - 1 == 3,
               "veth prefixes are 3 characters");

static void
s_hashed_name(const char *prefix, const char *text, char name[AGENT_NET_IFNAME_MAX + 1])
{
    uint64_t hash = 14695981039346656037ULL;
    for (const char *p = text; *p; p++) {
        hash ^= (unsigned char) *p;
        hash *= 1099511628211ULL;
    }
    snprintf(name, AGENT_NET_IFNAME_MAX + 1, "%.3s%0*" PRIx64, prefix, HASH_DIGITS,
             (uint64_t) (hash & ((1ULL << (4 * HASH_DIGITS)) - 1)));
}

void
agent_net_veth_name(const char *kernel_id, char name[AGENT_NET_IFNAME_MAX + 1])
{
    assert(kernel_id && name);
    s_hashed_name(AGENT_NET_VETH_PREFIX, kernel_id, name);
}

static void
s_netns_name(const char *kernel_id, char name[PATH_MAX])
{
    snprintf(name, PATH_MAX, "%s%s", AGENT_NET_NETNS_PREFIX, kernel_id);
}

static void
s_netns_path(const char *kernel_id, char path[PATH_MAX])
{
    snprintf(path, PATH_MAX, "%s/%s%s", AGENT_NET_NETNS_DIR, AGENT_NET_NETNS_PREFIX,
             kernel_id);
}

//  Write a kernel's allocation file: a temp file renamed into place (not
//  synced: see the header).
static int
s_write_allocation(agent_net_t *self, const char *kernel_id, const char *ip)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", self->net_dir, kernel_id);
    char line[AGENT_NET_IP_MAX + 1];
    int len = snprintf(line, sizeof line, "%s\n", ip);
    return agent_fs_replace(path, line, (size_t) len);
}

//  The index an allocation file names, or 0 when it names none we can use.
static uint32_t
s_read_allocation(agent_net_t *self, const char *path)
{
    FILE *file = fopen(path, "re");
    if (!file)
        return 0;
    char line[AGENT_NET_IP_MAX] = "";
    bool read = fgets(line, sizeof line, file) != NULL;
    fclose(file);
    if (!read)
        return 0;
    line[strcspn(line, " \t\r\n")] = '\0';
    struct in_addr in;
    if (inet_pton(AF_INET, line, &in) != 1)
        return 0;
    uint32_t address = ntohl(in.s_addr);
    if ((address & (~0U << (32 - self->prefix))) != self->base)
        return 0;
    uint32_t index = address - self->base;
    return s_index_valid(self, index) && !s_used(self, index) ? index : 0;
}

//  Put a kernel's veth back on the bridge when it lost it (the bridge was
//  removed and made again while the kernel lived).
static void
s_reattach(agent_net_t *self, const char *kernel_id)
{
    char veth[AGENT_NET_IFNAME_MAX + 1];
    agent_net_veth_name(kernel_id, veth);
    agent_netlink_link_t link, bridge;
    if (agent_netlink_link_get(self->nl, veth, &link, NULL) != BUS_OK || link.master)
        return;
    bus_error_t err = {0};
    if (agent_netlink_link_get(self->nl, self->bridge, &bridge, &err) == BUS_OK &&
        agent_netlink_link_up(self->nl, veth, &bridge, &err) == BUS_OK)
        bus_log_notice("kernel network reattached kernel=%s veth=%s", kernel_id, veth);
    else
        bus_log_warning("kernel network reattach failed kernel=%s error=\"%s\"",
                        kernel_id, err.detail);
}

//  Rebuild the free set and the kernel table from <state_dir>/net/.
static void
s_load_allocations(agent_net_t *self)
{
    DIR *dir = opendir(self->net_dir);
    if (!dir)
        return;
    struct dirent *entry;
    char path[PATH_MAX];
    while ((entry = readdir(dir))) {
        const char *name = entry->d_name;
        if (streq(name, ".") || streq(name, ".."))
            continue;
        snprintf(path, sizeof path, "%s/%s", self->net_dir, name);
        if (name[0] == '.') {
            unlink(path); //  a temp file a crash left
            continue;
        }
        uint32_t index = agent_bundle_id_valid(name) ? s_read_allocation(self, path) : 0;
        if (!index) {
            bus_log_warning("net allocation ignored file=%s subnet=%s", path, self->cidr);
            continue;
        }
        s_set_used(self, index, true);
        zhashx_insert(self->kernels, name, (void *) (uintptr_t) index);
        s_reattach(self, name);
        if (index > self->cursor)
            self->cursor = index;
    }
    closedir(dir);
}

//  Make sure the bridge exists, has the gateway address and is up.
static int
s_bridge_up(agent_net_t *self, bus_error_t *err)
{
    agent_netlink_link_t bridge;
    bus_error_t step = {0};
    int status = agent_netlink_link_get(self->nl, self->bridge, &bridge, &step);
    if (status == BUS_STATUS_NOT_FOUND) {
        //  another agent may have made it meanwhile: only its absence is an error
        status = agent_netlink_bridge_add(self->nl, self->bridge, &step);
        if (status == BUS_OK)
            status = agent_netlink_link_no_ipv6_ll(self->nl, self->bridge, &step);
        if (status == BUS_OK)
            bus_log_notice("bridge created bridge=%s", self->bridge);
        if (status == BUS_OK || status == BUS_STATUS_CONFLICT)
            status = agent_netlink_link_get(self->nl, self->bridge, &bridge, &step);
    }
    if (status != BUS_OK)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "%s", step.detail);
    if (!streq(bridge.kind, "bridge"))
        return bus_error_set(err, BUS_STATUS_CONFLICT, "%s exists and is not a bridge",
                             self->bridge);
    if (agent_netlink_addr_add(self->nl, &bridge, self->base + 1, self->prefix, true,
                               &step) != BUS_OK ||
        agent_netlink_link_up(self->nl, self->bridge, NULL, &step) != BUS_OK)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "%s", step.detail);
    return BUS_OK;
}

//  IPv4 forwarding, needed for traffic leaving the bridge's subnet: to
//  other hosts, and to the kernels of another agent on this host (a
//  multi-node cluster session placed on two agents of one machine), which
//  the host routes from one bridge to the other over their connected
//  routes; with NAT on, such traffic is masqueraded as coming from the
//  other bridge's address, which still reaches. Kernels on one bridge and
//  the host reach each other without it, so failure is a warning.
static void
s_forwarding_on(void)
{
    int fd = open(IP_FORWARD, O_RDWR | O_CLOEXEC);
    char value = '0';
    if (fd >= 0 && read(fd, &value, 1) == 1 && value == '1') {
        close(fd);
        return;
    }
    bool ok = fd >= 0 && pwrite(fd, "1\n", 2, 0) == 2;
    if (fd >= 0)
        close(fd);
    if (ok)
        bus_log_notice("ip forwarding enabled");
    else
        bus_log_warning("cannot enable ip forwarding: kernels reach neither other hosts"
                        " nor other agents' kernels");
}

//  Masquerade what leaves the subnet through any interface but the bridge.
//  With nft the rule lives in a table of ours, flushed and rewritten each
//  time; with iptables each rule is added only when -C does not find it,
//  and FORWARD gets accepts for the bridge (docker sets its policy to DROP).
static int
s_nat_up(agent_net_t *self, bus_error_t *err)
{
    const char *tool = self->nat_tool;
    if (!strstr(tool, "iptables")) {
        const char *table[] = {tool, "add", "table", "ip", self->nft_table, NULL};
        const char *chain[] = {tool,          "add",      "chain", "ip",  self->nft_table,
                               "postrouting", "{",        "type",  "nat", "hook",
                               "postrouting", "priority", "100",   ";",   "}",
                               NULL};
        const char *flush[] = {tool,          "flush", "chain", "ip", self->nft_table,
                               "postrouting", NULL};
        char oifname[AGENT_NET_IFNAME_MAX + 3]; //  quoted: a name may start with a digit
        snprintf(oifname, sizeof oifname, "\"%s\"", self->bridge);
        //  The routed subnets, as an anonymous set: "{ a, b }" (one argument:
        //  nft joins its arguments with spaces).
        char routed[AGENT_NET_ROUTED_MAX * (AGENT_NET_IP_MAX + 10) + 8] = "{";
        for (size_t i = 0; i < self->routed_count; i++) {
            size_t used = strlen(routed);
            snprintf(routed + used, sizeof routed - used, "%s %s", i ? "," : "",
                     self->routed[i]);
        }
        strcat(routed, " }");
        const char *rule[] = {tool,
                              "add",
                              "rule",
                              "ip",
                              self->nft_table,
                              "postrouting",
                              "ip",
                              "saddr",
                              self->cidr,
                              "oifname",
                              "!=",
                              oifname,
                              self->routed_count ? "ip" : "masquerade",
                              self->routed_count ? "daddr" : NULL,
                              "!=",
                              routed,
                              "masquerade",
                              NULL};
        if (s_run_checked(table, err) || s_run_checked(chain, err) ||
            s_run_checked(flush, err) || s_run_checked(rule, err))
            return BUS_STATUS_INTERNAL;
        return BUS_OK;
    }
    const char *rules[][12] = {
        {"-t", "nat", "POSTROUTING", "-s", self->cidr, "!", "-o", self->bridge, "-j",
         "MASQUERADE", NULL},
        {"-t", "filter", "FORWARD", "-i", self->bridge, "-j", "ACCEPT", NULL},
        {"-t", "filter", "FORWARD", "-o", self->bridge, "-j", "ACCEPT", NULL}};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        //  tool -t TABLE -C|-A CHAIN spec...
        const char *argv[16] = {tool, rules[i][0], rules[i][1], "-C"};
        size_t argc = 4;
        for (size_t j = 2; rules[i][j]; j++)
            argv[argc++] = rules[i][j];
        argv[argc] = NULL;
        char output[OUTPUT_TAIL + 1];
        if (s_run(argv, output, sizeof output) == 0)
            continue;
        argv[3] = "-A";
        if (s_run_checked(argv, err) != 0)
            return BUS_STATUS_INTERNAL;
    }
    //  Before the MASQUERADE, a RETURN for each routed subnet.
    for (size_t i = 0; i < self->routed_count; i++) {
        const char *argv[] = {
            tool,       "-t", "nat",           "-C", "POSTROUTING", "-s",
            self->cidr, "-d", self->routed[i], "-j", "RETURN",      NULL};
        char output[OUTPUT_TAIL + 1];
        if (s_run(argv, output, sizeof output) == 0)
            continue;
        argv[3] = "-I";
        if (s_run_checked(argv, err) != 0)
            return BUS_STATUS_INTERNAL;
    }
    return BUS_OK;
}

static void
s_nat_down(agent_net_t *self)
{
    const char *tool = self->nat_tool;
    char output[OUTPUT_TAIL + 1];
    if (!strstr(tool, "iptables")) {
        const char *argv[] = {tool, "delete", "table", "ip", self->nft_table, NULL};
        s_run(argv, output, sizeof output);
        return;
    }
    const char *rules[][12] = {
        {"-t", "nat", "-D", "POSTROUTING", "-s", self->cidr, "!", "-o", self->bridge,
         "-j", "MASQUERADE"},
        {"-t", "filter", "-D", "FORWARD", "-i", self->bridge, "-j", "ACCEPT", NULL},
        {"-t", "filter", "-D", "FORWARD", "-o", self->bridge, "-j", "ACCEPT", NULL}};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        const char *argv[16] = {tool};
        size_t argc = 1;
        for (size_t j = 0; j < 12 && rules[i][j]; j++)
            argv[argc++] = rules[i][j];
        argv[argc] = NULL;
        s_run(argv, output, sizeof output);
    }
    for (size_t i = 0; i < self->routed_count; i++) {
        const char *argv[] = {
            tool,       "-t", "nat",           "-D", "POSTROUTING", "-s",
            self->cidr, "-d", self->routed[i], "-j", "RETURN",      NULL};
        s_run(argv, output, sizeof output);
    }
}

int
agent_net_routed_set(agent_net_t *self, const char *routed, bus_error_t *err)
{
    assert(self);
    char list[AGENT_NET_ROUTED_MAX][AGENT_NET_IP_MAX + 8];
    size_t count = 0;
    const char *p = routed ? routed : "";
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        size_t length = strcspn(p, ", ");
        if (length == 0)
            break;
        char item[AGENT_NET_IP_MAX + 8];
        uint32_t base;
        int prefix;
        snprintf(item, sizeof item, "%.*s", (int) length, p);
        if (length >= sizeof item || !s_parse_cidr_in(item, 1, 32, &base, &prefix)) {
            bus_error_set(err, BUS_STATUS_INVALID,
                          "invalid routed subnet \"%.*s\" (want a.b.c.d/n)", (int) length,
                          p);
            return BUS_STATUS_INVALID;
        }
        if (count == AGENT_NET_ROUTED_MAX) {
            bus_error_set(err, BUS_STATUS_INVALID, "more than %d routed subnets",
                          AGENT_NET_ROUTED_MAX);
            return BUS_STATUS_INVALID;
        }
        char network[AGENT_NET_IP_MAX];
        s_format_ip(base, network);
        snprintf(list[count++], sizeof list[0], "%s/%d", network, prefix);
        p += length;
    }
    //  The old RETURN rules out (iptables) before the new list is put in.
    if (self->nat)
        s_nat_down(self);
    memcpy(self->routed, list, sizeof list);
    self->routed_count = count;
    if (self->nat && s_nat_up(self, err) != BUS_OK) {
        self->nat = false;
        return BUS_STATUS_INTERNAL;
    }
    return BUS_OK;
}

//  Make a kernel's namespace and veth pair, and configure both ends: the
//  host end on the bridge and up (a spare: down, on no bridge); in the
//  namespace lo up, eth0 with address (host order) and up, a default route
//  via the bridge. The caller removes whatever exists of it on failure.
static int
s_setup(agent_net_t *self,
        const char *netns,
        const char *veth,
        uint32_t address,
        bool spare,
        bus_error_t *err)
{
    if (!self->netns_ready) {
        if (agent_netlink_netns_prepare(AGENT_NET_NETNS_DIR, err) != BUS_OK)
            return BUS_STATUS_INTERNAL;
        self->netns_ready = true;
    }
    agent_netlink_link_t bridge, eth;
    if (agent_netlink_link_get(self->nl, self->bridge, &bridge, err) != BUS_OK)
        return BUS_STATUS_INTERNAL;
    agent_netlink_t *inside = NULL;
    if (agent_netlink_netns_add(AGENT_NET_NETNS_DIR, netns, &inside, err) != BUS_OK)
        return BUS_STATUS_INTERNAL;
    //  the peer is made right in the namespace, which the file names
    char netns_path[PATH_MAX];
    snprintf(netns_path, sizeof netns_path, "%s/%s", AGENT_NET_NETNS_DIR, netns);
    int netns_fd = open(netns_path, O_RDONLY | O_CLOEXEC);
    int status = BUS_STATUS_INTERNAL;
    if (netns_fd < 0)
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot open %s: %s", netns_path,
                      strerror(errno));
    else
        status = agent_netlink_veth_add(self->nl, veth, AGENT_NET_KERNEL_IFNAME, netns_fd,
                                        err);
    if (netns_fd >= 0)
        close(netns_fd);
    if (status != BUS_OK ||
        agent_netlink_link_no_ipv6_ll(self->nl, veth, err) != BUS_OK ||
        (!spare && agent_netlink_link_up(self->nl, veth, &bridge, err) != BUS_OK) ||
        agent_netlink_link_up(inside, "lo", NULL, err) != BUS_OK ||
        agent_netlink_link_get(inside, AGENT_NET_KERNEL_IFNAME, &eth, err) != BUS_OK ||
        agent_netlink_addr_add(inside, &eth, address, self->prefix, false, err) !=
            BUS_OK ||
        agent_netlink_link_up(inside, AGENT_NET_KERNEL_IFNAME, NULL, err) != BUS_OK ||
        agent_netlink_route_add_default(inside, &eth, self->base + 1, err) != BUS_OK)
        status = BUS_STATUS_INTERNAL;
    agent_netlink_destroy(&inside);
    return status;
}

//  The next free host index after the last one given, or 0 when the
//  subnet is full.
static uint32_t
s_next_index(agent_net_t *self)
{
    for (uint32_t step = 1; step <= self->size; step++) {
        uint32_t candidate = (self->cursor + step) % self->size;
        if (s_index_valid(self, candidate) && !s_used(self, candidate))
            return candidate;
    }
    return 0;
}

static void
s_spare_file(agent_net_t *self, unsigned n, char path[PATH_MAX])
{
    snprintf(path, PATH_MAX, "%s/%u", self->spare_dir, n);
}

//  Whatever exists of a spare: its veth, its namespace (its peer goes with
//  it) and its file. Its address is the caller's to free.
static void
s_spare_remove(agent_net_t *self, const s_spare_t *spare)
{
    bus_error_t step = {0};
    int rc = agent_netlink_link_del(self->nl, spare->veth, &step);
    if (rc == BUS_OK || rc == BUS_STATUS_NOT_FOUND)
        rc = agent_netlink_netns_del(AGENT_NET_NETNS_DIR, spare->netns, &step);
    if (rc != BUS_OK && rc != BUS_STATUS_NOT_FOUND) {
        //  Its file stays, so that the next agent_net_new tries again.
        bus_log_warning("spare network not removed netns=%s error=\"%s\"", spare->netns,
                        step.detail);
        return;
    }
    char path[PATH_MAX];
    s_spare_file(self, spare->n, path);
    unlink(path);
}

//  A spare under a kernel's names: the namespace bound on netns, the host
//  end renamed to veth, on the bridge and up. The spare's file goes last:
//  until then a crash leaves it for agent_net_new to remove (whatever of
//  it was not yet the kernel's).
static int
s_spare_take(agent_net_t *self,
             const s_spare_t *spare,
             const char *netns,
             const char *veth,
             bus_error_t *err)
{
    agent_netlink_link_t bridge;
    int status =
        agent_netlink_netns_rename(AGENT_NET_NETNS_DIR, spare->netns, netns, err);
    if (status == BUS_OK)
        status = agent_netlink_link_get(self->nl, self->bridge, &bridge, err);
    if (status == BUS_OK)
        status = agent_netlink_link_rename_up(self->nl, spare->veth, veth, &bridge, err);
    if (status == BUS_OK) {
        char path[PATH_MAX];
        s_spare_file(self, spare->n, path);
        unlink(path);
    }
    return status;
}

//  Remove the spares an earlier agent left (their files name them). Their
//  addresses are not marked: one a kernel took is marked by its own file.
static void
s_remove_left_spares(agent_net_t *self)
{
    DIR *dir = opendir(self->spare_dir);
    if (!dir)
        return;
    struct dirent *entry;
    char path[PATH_MAX], line[AGENT_NET_IP_MAX + sizeof(s_spare_t)];
    while ((entry = readdir(dir))) {
        if (entry->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", self->spare_dir, entry->d_name);
        FILE *file = fopen(path, "re");
        bool read = file && fgets(line, sizeof line, file);
        if (file)
            fclose(file);
        s_spare_t spare = {0};
        char *n_end = NULL;
        unsigned long n = strtoul(entry->d_name, &n_end, 10);
        char format[64];
        snprintf(format, sizeof format, "%%*s %%%zus %%%zus", sizeof spare.netns - 1,
                 sizeof spare.veth - 1);
        if (read && n_end && !*n_end && n <= UINT_MAX &&
            sscanf(line, format, spare.netns, spare.veth) == 2 &&
            strncmp(spare.netns, SPARE_NETNS_PREFIX, strlen(SPARE_NETNS_PREFIX)) == 0 &&
            strncmp(spare.veth, SPARE_VETH_PREFIX, strlen(SPARE_VETH_PREFIX)) == 0) {
            spare.n = (unsigned) n;
            s_spare_remove(self, &spare);
            bus_log_notice("spare network of an earlier agent removed netns=%s",
                           spare.netns);
        } else {
            bus_log_warning("spare network file ignored and removed file=%s", path);
            unlink(path);
        }
    }
    closedir(dir);
}

//  Drop spares until count are left, freeing their addresses.
static void
s_spares_trim(agent_net_t *self, size_t count)
{
    while (self->spare_count > count) {
        s_spare_t *spare = &self->spares[--self->spare_count];
        s_spare_remove(self, spare);
        s_set_used(self, spare->index, false);
    }
}

//  Remove whatever exists of a kernel's network. Returns 0 when something was
//  there, NOT_FOUND when nothing was, INTERNAL when a removal failed.
static int
s_remove(agent_net_t *self, const char *kernel_id, bus_error_t *err)
{
    char veth[AGENT_NET_IFNAME_MAX + 1], netns[PATH_MAX], allocation[PATH_MAX];
    agent_net_veth_name(kernel_id, veth);
    s_netns_name(kernel_id, netns);
    snprintf(allocation, sizeof allocation, "%s/%s", self->net_dir, kernel_id);
    void *item = zhashx_lookup(self->kernels, kernel_id);
    bool found = item != NULL;
    int status = BUS_OK;

    //  the veth first: a namespace a container still holds outlives its file
    bus_error_t step = {0};
    int rc = agent_netlink_link_del(self->nl, veth, &step);
    if (rc == BUS_OK)
        found = true;
    else if (rc != BUS_STATUS_NOT_FOUND)
        status = bus_error_set(err, BUS_STATUS_INTERNAL, "%s", step.detail);
    rc = agent_netlink_netns_del(AGENT_NET_NETNS_DIR, netns, &step);
    if (rc == BUS_OK)
        found = true;
    else if (rc != BUS_STATUS_NOT_FOUND) {
        if (status == BUS_OK) //  the first failure is the one reported
            bus_error_set(err, BUS_STATUS_INTERNAL, "%s", step.detail);
        status = BUS_STATUS_INTERNAL;
    }
    if (status != BUS_OK)
        return status; //  keep the allocation: the address is still in use
    if (unlink(allocation) == 0)
        found = true;
    else if (errno != ENOENT)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot remove %s: %s", allocation,
                             strerror(errno));
    if (item) {
        s_set_used(self, (uint32_t) (uintptr_t) item, false);
        zhashx_delete(self->kernels, kernel_id);
    }
    if (!found)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "kernel %s has no network",
                             kernel_id);
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Make sure the bridge, forwarding and NAT are there; read back allocations.

agent_net_t *
agent_net_new(const char *bridge,
              const char *cidr,
              const char *state_dir,
              bus_error_t *err)
{
    assert(state_dir);
    if (!s_ifname_valid(bridge)) {
        bus_error_set(err, BUS_STATUS_INVALID, "invalid bridge name");
        return NULL;
    }
    uint32_t base;
    int prefix;
    if (!s_parse_cidr(cidr, &base, &prefix)) {
        bus_error_set(err, BUS_STATUS_INVALID,
                      "invalid subnet \"%s\" (want a.b.c.d/%d..%d)", cidr ? cidr : "",
                      AGENT_NET_PREFIX_MIN, AGENT_NET_PREFIX_MAX);
        return NULL;
    }
    agent_net_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->bridge = strdup(bridge);
    self->net_dir = zsys_sprintf("%s/net", state_dir);
    self->spare_dir = zsys_sprintf("%s/net-spares", state_dir);
    if (self->spare_dir) {
        char tag[AGENT_NET_IFNAME_MAX + 1];
        s_hashed_name("dir", self->spare_dir, tag);
        snprintf(self->spare_prefix, sizeof self->spare_prefix, "%s%s-",
                 SPARE_NETNS_PREFIX, tag + 3);
    }
    self->base = base;
    self->prefix = prefix;
    self->size = 1U << (32 - prefix);
    self->used = calloc(self->size / 8 + 1, 1);
    self->cursor = 1;
    self->kernels = zhashx_new();
    if (!self->bridge || !self->net_dir || !self->spare_dir || !self->used ||
        !self->kernels) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        goto fail;
    }
    char network[AGENT_NET_IP_MAX];
    s_format_ip(base, network);
    snprintf(self->cidr, sizeof self->cidr, "%s/%d", network, prefix);
    s_format_ip(base + 1, self->gateway);
    snprintf(self->nft_table, sizeof self->nft_table, NFT_TABLE_PREFIX "%s", bridge);
    for (char *p = self->nft_table; *p; p++)
        if (!isalnum((unsigned char) *p))
            *p = '_';
    s_set_used(self, 0, true);
    s_set_used(self, 1, true);
    s_set_used(self, self->size - 1, true);

    if (bus_mkdirs_mode(self->net_dir, 0700) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot make %s: %s", self->net_dir,
                      strerror(errno));
        goto fail;
    }
    self->nl = agent_netlink_new(err);
    if (!self->nl)
        goto fail;
    if (s_bridge_up(self, err) != BUS_OK)
        goto fail;
    s_forwarding_on();
    if (s_find_tool("nft", self->nat_tool) || s_find_tool("iptables", self->nat_tool)) {
        bus_error_t nat_err = {0};
        self->nat = s_nat_up(self, &nat_err) == BUS_OK;
        if (!self->nat)
            bus_log_warning("no outbound nat subnet=%s error=\"%s\"", self->cidr,
                            nat_err.detail);
    } else
        bus_log_warning("no outbound nat subnet=%s error=\"neither nft nor iptables is "
                        "installed\"",
                        self->cidr);
    s_load_allocations(self);
    s_remove_left_spares(self);
    bus_log_notice(
        "kernel network ready bridge=%s subnet=%s gateway=%s nat=%s kernels=%zu",
        self->bridge, self->cidr, self->gateway, self->nat ? "yes" : "no",
        zhashx_size(self->kernels));
    return self;

fail:
    agent_net_destroy(&self);
    return NULL;
}

//  ---------------------------------------------------------------------------
//  Free the object; the network stays.

void
agent_net_destroy(agent_net_t **self_p)
{
    assert(self_p);
    agent_net_t *self = *self_p;
    if (!self)
        return;
    if (self->nl)
        s_spares_trim(self, 0);
    agent_netlink_destroy(&self->nl);
    zhashx_destroy(&self->kernels);
    zstr_free(&self->spare_dir);
    free(self->used);
    zstr_free(&self->net_dir);
    free(self->bridge);
    free(self);
    *self_p = NULL;
}

//  ---------------------------------------------------------------------------
//  Give a kernel its namespace, veth and address.

int
agent_net_attach(agent_net_t *self,
                 const char *kernel_id,
                 char netns_path[PATH_MAX],
                 char ip[AGENT_NET_IP_MAX],
                 bus_error_t *err)
{
    assert(self);
    assert(netns_path);
    assert(ip);
    if (!agent_bundle_id_valid(kernel_id))
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id");
    if (zhashx_lookup(self->kernels, kernel_id))
        return bus_error_set(err, BUS_STATUS_CONFLICT, "kernel %s already has a network",
                             kernel_id);
    char veth[AGENT_NET_IFNAME_MAX + 1], netns[PATH_MAX], path[PATH_MAX];
    agent_net_veth_name(kernel_id, veth);
    s_netns_name(kernel_id, netns);
    s_netns_path(kernel_id, path);
    agent_netlink_link_t link;
    bus_error_t check = {0};
    int found = agent_netlink_link_get(self->nl, veth, &link, &check);
    if (found != BUS_OK && found != BUS_STATUS_NOT_FOUND)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "%s", check.detail);
    if (s_exists(path) || found == BUS_OK)
        return bus_error_set(err, BUS_STATUS_CONFLICT,
                             "%s or %s exists without an allocation (detach it)", path,
                             veth);

    //  A spare's address, or the next free one after the last one given.
    s_spare_t spare = {0};
    bool spared = self->spare_count > 0;
    if (spared)
        spare = self->spares[--self->spare_count];
    uint32_t index = spared ? spare.index : s_next_index(self);
    if (!index)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "subnet %s is full",
                             self->cidr);
    char address[AGENT_NET_IP_MAX];
    s_format_ip(self->base + index, address);
    if (s_write_allocation(self, kernel_id, address) != 0) {
        if (spared)
            self->spares[self->spare_count++] = spare; //  still whole
        return bus_error_set(err, BUS_STATUS_INTERNAL,
                             "cannot write allocation in %s: %s", self->net_dir,
                             strerror(errno));
    }
    s_set_used(self, index, true);
    zhashx_insert(self->kernels, kernel_id, (void *) (uintptr_t) index);
    if (!spared)
        self->cursor = index;

    bus_error_t step_err = {0};
    int status = spared
                     ? s_spare_take(self, &spare, netns, veth, &step_err)
                     : s_setup(self, netns, veth, self->base + index, false, &step_err);
    if (status != BUS_OK) {
        bus_log_error("kernel network failed kernel=%s spare=%s error=\"%s\"", kernel_id,
                      spared ? spare.netns : "-", step_err.detail);
        s_remove(self, kernel_id, NULL);
        if (spared) {
            //  What is left of the spare goes; the next spare, or a network
            //  made anew, is the answer, as if there had been no such spare.
            s_spare_remove(self, &spare);
            return agent_net_attach(self, kernel_id, netns_path, ip, err);
        }
        return bus_error_set(err, BUS_STATUS_INTERNAL, "%s", step_err.detail);
    }
    snprintf(netns_path, PATH_MAX, "%s", path);
    snprintf(ip, AGENT_NET_IP_MAX, "%s", address);
    bus_log_info("kernel network attached kernel=%s ip=%s veth=%s", kernel_id, address,
                 veth);
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Spares.

void
agent_net_spares_set(agent_net_t *self, size_t count)
{
    assert(self);
    self->spares_wanted = count < AGENT_NET_SPARES_MAX ? count : AGENT_NET_SPARES_MAX;
    s_spares_trim(self, self->spares_wanted);
}

const char *
agent_net_spare_prefix(agent_net_t *self)
{
    assert(self);
    return self->spare_prefix;
}

size_t
agent_net_spare_count(agent_net_t *self)
{
    assert(self);
    return self->spare_count;
}

int
agent_net_spare_make(agent_net_t *self, bus_error_t *err)
{
    assert(self);
    if (self->spare_count >= self->spares_wanted)
        return 0;
    if (bus_mkdirs_mode(self->spare_dir, 0700) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot make %s: %s", self->spare_dir,
                      strerror(errno));
        return -1;
    }
    s_spare_t spare = {.n = self->spare_next++, .index = s_next_index(self)};
    if (!spare.index) {
        bus_error_set(err, BUS_STATUS_UNAVAILABLE, "subnet %s is full", self->cidr);
        return -1;
    }
    snprintf(spare.netns, sizeof spare.netns, "%s%u", self->spare_prefix, spare.n);
    s_hashed_name(SPARE_VETH_PREFIX, spare.netns, spare.veth);
    char path[PATH_MAX], address[AGENT_NET_IP_MAX], line[sizeof address + sizeof spare];
    s_spare_file(self, spare.n, path);
    s_format_ip(self->base + spare.index, address);
    int len = snprintf(line, sizeof line, "%s %s %s\n", address, spare.netns, spare.veth);
    if (agent_fs_replace(path, line, (size_t) len) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot write %s: %s", path,
                      strerror(errno));
        return -1;
    }
    s_set_used(self, spare.index, true);
    self->cursor = spare.index;
    if (s_setup(self, spare.netns, spare.veth, self->base + spare.index, true, err) !=
        BUS_OK) {
        s_spare_remove(self, &spare);
        s_set_used(self, spare.index, false);
        return -1;
    }
    self->spares[self->spare_count++] = spare;
    return 1;
}

//  ---------------------------------------------------------------------------
//  Take a kernel's network away.

int
agent_net_detach(agent_net_t *self, const char *kernel_id, bus_error_t *err)
{
    assert(self);
    if (!agent_bundle_id_valid(kernel_id))
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id");
    int status = s_remove(self, kernel_id, err);
    if (status == BUS_OK)
        bus_log_info("kernel network detached kernel=%s", kernel_id);
    return status;
}

//  ---------------------------------------------------------------------------
//  The address a kernel holds.

int
agent_net_lookup(agent_net_t *self, const char *kernel_id, char ip[AGENT_NET_IP_MAX])
{
    assert(self);
    assert(ip);
    void *item = kernel_id ? zhashx_lookup(self->kernels, kernel_id) : NULL;
    if (!item)
        return BUS_STATUS_NOT_FOUND;
    s_format_ip(self->base + (uint32_t) (uintptr_t) item, ip);
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  The bridge's address.

const char *
agent_net_gateway(agent_net_t *self)
{
    assert(self);
    return self->gateway;
}

//  ---------------------------------------------------------------------------
//  True when outbound NAT is set up.

bool
agent_net_nat(agent_net_t *self)
{
    assert(self);
    return self->nat;
}

//  ---------------------------------------------------------------------------
//  The NAT table of a bridge an earlier agent left.

void
agent_net_nat_forget(const char *bridge)
{
    assert(bridge);
    char tool[PATH_MAX], table[64], output[OUTPUT_TAIL + 1];
    if (!s_find_tool("nft", tool))
        return; //  iptables' rules go with the network of the agent that made them
    snprintf(table, sizeof table, NFT_TABLE_PREFIX "%s", bridge);
    const char *argv[] = {tool, "delete", "table", "ip", table, NULL};
    if (s_run(argv, output, sizeof output) == 0)
        bus_log_notice("nat table of an earlier run removed table=%s", table);
}

//  ---------------------------------------------------------------------------
//  Remove the bridge and our NAT rules.

int
agent_net_teardown(agent_net_t *self, bus_error_t *err)
{
    assert(self);
    s_spares_trim(self, 0);
    if (self->nat) {
        s_nat_down(self);
        self->nat = false;
    }
    bus_error_t step = {0};
    int status = agent_netlink_link_del(self->nl, self->bridge, &step);
    if (status == BUS_STATUS_NOT_FOUND)
        return BUS_OK;
    if (status != BUS_OK)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "%s", step.detail);
    bus_log_notice("bridge removed bridge=%s", self->bridge);
    return BUS_OK;
}
