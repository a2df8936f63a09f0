/*  =========================================================================
    agent_net - kernel networking: a veth pair on an agent-owned bridge

    Each kernel gets a named network namespace (AGENT_NET_NETNS_DIR/bp-<id>)
    holding lo and eth0, the peer of a host-side veth enslaved to the agent's
    bridge. eth0 has the next free address of the agent's subnet and a default
    route via the bridge, which holds the subnet's first host address. The
    agent's app proxy reaches kernel services at <ip>:<port>; outbound traffic
    is masqueraded when nft or iptables is installed (NAT is optional).

    Allocations survive agent restarts: each is a file
    <state_dir>/net/<kernel_id> holding the kernel's address, read back by
    agent_net_new. Networks made ahead ("spares", agent_net_spares_set) get
    a kernel's names when attach gives them out. The runc bundle joins the namespace
   through the kernel spec's netns_path.

    The object is not thread-safe; one thread owns it (the agent's kernel
    worker, agent_container; the loop at start and stop).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_NET_H_INCLUDED
#define AGENT_NET_H_INCLUDED

#include <limits.h>
#include <stdbool.h>
#include "bus.h"

//  Where `ip netns` keeps its namespaces, and our names' prefix there.
#define AGENT_NET_NETNS_DIR    "/run/netns"
#define AGENT_NET_NETNS_PREFIX "bp-"
//  Host-side veth: this prefix plus hex digits of a hash of the kernel id,
//  AGENT_NET_IFNAME_MAX chars in all (the kernel's IFNAMSIZ - 1).
#define AGENT_NET_VETH_PREFIX "bpv"
#define AGENT_NET_IFNAME_MAX  15
//  The interface name inside the kernel's namespace.
#define AGENT_NET_KERNEL_IFNAME "eth0"
//  Subnets from /16 (65534 hosts) to /30 (one kernel besides the bridge).
#define AGENT_NET_PREFIX_MIN 16
#define AGENT_NET_PREFIX_MAX 30
//  Default bridge and subnet for the agent's config.
#define AGENT_NET_DEFAULT_BRIDGE "bp0"
#define AGENT_NET_DEFAULT_CIDR   "10.213.0.0/16"
//  Room for a dotted IPv4 address and for "a.b.c.d/nn".
#define AGENT_NET_IP_MAX     64
#define AGENT_NET_ROUTED_MAX 8 //  subnets in agent.network.routed

//  The most kernel networks made ahead (agent_net_spares_set).
#define AGENT_NET_SPARES_MAX 16

typedef struct _agent_net_t agent_net_t;

//  ---------------------------------------------------------------------------
//  The name of kernel_id's host-side veth, a pure function of the id, so
//  the stats can find its counters without the net object (another thread's).
void agent_net_veth_name(const char *kernel_id, char name[AGENT_NET_IFNAME_MAX + 1]);

//  ---------------------------------------------------------------------------
//  Make sure the bridge exists (created when missing, with the first host of
//  cidr as its address, up), IPv4 forwarding is on, and the subnet is
//  masqueraded when nft or iptables exists (logged and skipped otherwise).
//  Reads back the allocations under <state_dir>/net/. Returns NULL with err
//  filled: INVALID for a bad bridge name or cidr, CONFLICT when the name is
//  taken by something that is not a bridge, INTERNAL when a step failed.
agent_net_t *agent_net_new(const char *bridge,
                           const char *cidr,
                           const char *state_dir,
                           bus_error_t *err);

//  ---------------------------------------------------------------------------
//  routed: IPv4 subnets, comma-separated ("10.213.0.0/16, 10.214.0.0/16"; ""
//  none, at most AGENT_NET_ROUTED_MAX), of other agents' kernels, which their
//  hosts route: traffic from the kernels to them is not masqueraded (the NAT
//  rule rewritten), so that the kernel at the other end sees the sender's own
//  address. Returns 0, or INVALID (a bad subnet, too many) or INTERNAL (the
//  rule not rewritten) with err filled.
int agent_net_routed_set(agent_net_t *self, const char *routed, bus_error_t *err);

//  Free the object. The bridge, the kernels' namespaces and the allocations
//  stay, for a new object (or agent) to take over; the spares go.
void agent_net_destroy(agent_net_t **self_p);

//  ---------------------------------------------------------------------------
//  Give a kernel its network: a namespace, a veth pair on the bridge, eth0
//  with the next free address, lo up, a default route via the bridge. Fills
//  netns_path (for agent_kernel_spec_t.netns_path) and ip (dotted, no
//  prefix). Returns 0, or INVALID (bad kernel id), CONFLICT (already
//  attached), UNAVAILABLE (subnet full) or INTERNAL with err filled; on
//  failure nothing is left behind.
int agent_net_attach(agent_net_t *self,
                     const char *kernel_id,
                     char netns_path[PATH_MAX],
                     char ip[AGENT_NET_IP_MAX],
                     bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Keep up to count (at most AGENT_NET_SPARES_MAX) kernel networks made
//  ahead, for attach to give out (0, the default: none; fewer drops the
//  extra ones). They are made by agent_net_spare_make, one per call, and
//  removed by agent_net_destroy and agent_net_teardown; those an agent
//  that crashed left are removed by the next agent_net_new.
void agent_net_spares_set(agent_net_t *self, size_t count);

//  Make one spare when fewer than wanted are ready: returns 1 when it made
//  one, 0 when none was wanted, -1 with err filled (nothing is left).
int agent_net_spare_make(agent_net_t *self, bus_error_t *err);

//  How many spares are ready.
size_t agent_net_spare_count(agent_net_t *self);

//  What the names of this agent's spare namespaces begin with in
//  AGENT_NET_NETNS_DIR: "bpspare-", a hash of its state directory, '-'.
//  The directory is the machine's one for every agent, so the hash keeps
//  two agents' spares apart even when their bridges have one name (each
//  in a network namespace of its own, as tests and the testbed run them).
const char *agent_net_spare_prefix(agent_net_t *self);

//  ---------------------------------------------------------------------------
//  Take a kernel's network away: its veth, namespace and allocation. Returns
//  0, NOT_FOUND when none of these existed (so a second call returns
//  NOT_FOUND), INVALID for a bad id, or INTERNAL with err filled.
int agent_net_detach(agent_net_t *self, const char *kernel_id, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  The address a kernel holds, into ip. Returns 0 or NOT_FOUND.
int agent_net_lookup(agent_net_t *self, const char *kernel_id, char ip[AGENT_NET_IP_MAX]);

//  The bridge's address (the kernels' gateway), dotted. Borrowed.
const char *agent_net_gateway(agent_net_t *self);

//  True when outbound NAT is set up for the subnet.
bool agent_net_nat(agent_net_t *self);

//  Removes the NAT table (nft) of bridge that an earlier agent left, for an
//  agent that stops without having made its network: no kernel of it needs
//  the table, which would otherwise outlive the bridge.
void agent_net_nat_forget(const char *bridge);

//  ---------------------------------------------------------------------------
//  Remove the bridge and the NAT rules agent_net_new made (tests, uninstall).
//  Kernels still attached lose their link to the host. Returns 0, or
//  INTERNAL with err filled.
int agent_net_teardown(agent_net_t *self, bus_error_t *err);

#endif
