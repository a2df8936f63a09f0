/*  =========================================================================
    agent_netlink - rtnetlink requests and named network namespaces

    The few kernel network changes agent_net makes, done in-process instead of
    by exec'ing iproute2: links (bridge, veth pair, master and up), IPv4
    addresses and a default route, as raw rtnetlink messages on a
    NETLINK_ROUTE socket, and the named namespaces `ip netns` keeps (a file
    under a directory, the namespace bind-mounted on it). An object is a
    socket bound to the network namespace it was opened in: agent_netlink_new
    gives one in the caller's, agent_netlink_netns_add one inside the new
    namespace, so no thread of ours stays in a foreign namespace.

    Every kernel refusal becomes a bus_error_t naming the operation and the
    interface, with the kernel's extended ack message when it sent one.

    The object is not thread-safe; one thread owns it.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_NETLINK_H_INCLUDED
#define AGENT_NETLINK_H_INCLUDED

#include <stdbool.h>
#include <stdint.h>
#include "bus.h"

//  An interface name without its NUL (the kernel's IFNAMSIZ - 1).
#define AGENT_NETLINK_IFNAME_MAX 15
//  Room for a link kind ("bridge", "veth", ...) with its NUL.
#define AGENT_NETLINK_KIND_MAX 16
//  How long a request waits for the kernel's answer.
#define AGENT_NETLINK_TIMEOUT_MS 5000

typedef struct _agent_netlink_t agent_netlink_t;

//  What agent_netlink_link_get tells about a link.
typedef struct {
    char name[AGENT_NETLINK_IFNAME_MAX + 1];
    int index;
    int master;                        //  its bridge's index, 0 when none
    bool up;                           //  IFF_UP (administratively up)
    char kind[AGENT_NETLINK_KIND_MAX]; //  empty for a link without a kind (lo, ...)
} agent_netlink_link_t;

//  ---------------------------------------------------------------------------
//  A rtnetlink socket in the calling thread's network namespace. Returns
//  NULL with err filled (INTERNAL) when the socket cannot be made.
agent_netlink_t *agent_netlink_new(bus_error_t *err);

//  Close the socket and free the object.
void agent_netlink_destroy(agent_netlink_t **self_p);

//  ---------------------------------------------------------------------------
//  Look a link up by name into link. Returns 0, NOT_FOUND or INTERNAL, with
//  err filled on failure.
int agent_netlink_link_get(agent_netlink_t *self,
                           const char *name,
                           agent_netlink_link_t *link,
                           bus_error_t *err);

//  Make a bridge (down, no address). Returns 0, CONFLICT when the name is
//  taken, INVALID for a bad name, or INTERNAL.
int agent_netlink_bridge_add(agent_netlink_t *self, const char *name, bus_error_t *err);

//  Make a veth pair: name here, peer in the network namespace peer_netns_fd
//  refers to (both down). Returns 0, CONFLICT when name is taken, INVALID
//  for a bad name, or INTERNAL.
int agent_netlink_veth_add(agent_netlink_t *self,
                           const char *name,
                           const char *peer,
                           int peer_netns_fd,
                           bus_error_t *err);

//  Makes the link take no IPv6 link-local address when it comes up (its
//  address generation mode none; a host without IPv6 is left as it is).
//  The host's ends of the kernels' networks carry IPv4 only: each address
//  the kernel would add there is, to every program watching the host's
//  addresses (a browser on it drops its connections in flight with
//  ERR_NETWORK_CHANGED), a change of the host's network at every kernel.
//  Returns 0, NOT_FOUND or INTERNAL.
int
agent_netlink_link_no_ipv6_ll(agent_netlink_t *self, const char *name, bus_error_t *err);

//  Put a link on master (a bridge, as agent_netlink_link_get found it; NULL
//  leaves that alone) and bring it up. Returns 0, NOT_FOUND or INTERNAL.
int agent_netlink_link_up(agent_netlink_t *self,
                          const char *name,
                          const agent_netlink_link_t *master,
                          bus_error_t *err);

//  Rename the link name, which must be down, to new_name, put it on master
//  (NULL leaves that alone) and bring it up. Returns 0, NOT_FOUND, CONFLICT
//  when new_name is taken, INVALID or INTERNAL.
int agent_netlink_link_rename_up(agent_netlink_t *self,
                                 const char *name,
                                 const char *new_name,
                                 const agent_netlink_link_t *master,
                                 bus_error_t *err);

//  Delete a link (a veth's peer goes with it). Returns 0, NOT_FOUND or
//  INTERNAL.
int agent_netlink_link_del(agent_netlink_t *self, const char *name, bus_error_t *err);

//  Give a link the IPv4 address (host order) with its prefix length, as `ip
//  addr add`, or `ip addr replace` when replace. Returns 0, CONFLICT (the
//  address is there and !replace) or INTERNAL.
int agent_netlink_addr_add(agent_netlink_t *self,
                           const agent_netlink_link_t *link,
                           uint32_t address,
                           int prefix,
                           bool replace,
                           bus_error_t *err);

//  A default route via gateway (IPv4, host order) out of link, in the main
//  table. Returns 0, CONFLICT when a default route exists, or INTERNAL.
int agent_netlink_route_add_default(agent_netlink_t *self,
                                    const agent_netlink_link_t *link,
                                    uint32_t gateway,
                                    bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Make dir (where named namespaces live) and a shared mount point of it, as
//  `ip netns add` does, so unmounting a namespace in one mount namespace
//  unmounts it in all. Once per process is enough. Returns 0 or INTERNAL.
int agent_netlink_netns_prepare(const char *dir, bus_error_t *err);

//  Make a new network namespace named dir/name (a helper thread unshares
//  and bind-mounts it there) and give a socket inside it in *inside_p,
//  caller owns it. Returns 0, CONFLICT when dir/name exists, or INTERNAL;
//  on failure nothing is left.
int agent_netlink_netns_add(const char *dir,
                            const char *name,
                            agent_netlink_t **inside_p,
                            bus_error_t *err);

//  Name the namespace dir/from dir/to instead (to is bound to it, then from
//  removed). Returns 0, CONFLICT when to exists, NOT_FOUND when from does
//  not, INVALID or INTERNAL; on failure from keeps its name.
int agent_netlink_netns_rename(const char *dir,
                               const char *from,
                               const char *to,
                               bus_error_t *err);

//  Remove the name dir/name: lazy unmount and unlink. The namespace itself
//  lives on while a process is in it. Returns 0, NOT_FOUND or INTERNAL.
int agent_netlink_netns_del(const char *dir, const char *name, bus_error_t *err);

#endif
