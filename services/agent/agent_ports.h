/*  =========================================================================
    agent_ports - apps' ports published on the agent's host

    A kernel's apps listen on its bridge address, which only the agent's
    host reaches. With agent.publish.host set (an address of this host that
    the proxies, the gateway's tunnels and the wsproxy, can reach: its LAN
    address), an app's port is published on a port of agent.publish.ports
    at that address the first time it is opened: nft DNAT rules send
    host:port to the kernel's address and port, from other hosts
    (prerouting) and from this one (output). The answer to
    kernel.start_service then names host:port, so a proxy on any host
    reaches the app.

    The mappings are kept in <state_dir>/ports.json (rewritten whole, by
    rename) and the rules in an nft table of their own (backplane_ports_
    <bridge>), rewritten whole from the mappings at each change with one
    `nft -f`, which applies atomically: no rule outlives its mapping, and a
    restarted agent rebuilds the same rules. A kernel's mappings go when its
    network does (agent_container's release, the crash leftovers).

    Called from the loop (publish) and the worker (release): one mutex
    covers the mappings and the table.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_PORTS_H_INCLUDED
#define AGENT_PORTS_H_INCLUDED

#include "bus.h"

#define AGENT_PORTS_MAX 4096 //  mappings at most (the range's size at most)

typedef struct _agent_ports_t agent_ports_t;

//  Whether the bus endpoint ("tcp://HOST:PORT") the agent serves on is
//  meant to be reached from other hosts: any host but loopback (127.0.0.0/8,
//  localhost, ::1). Its proxies may then run elsewhere, where the kernels'
//  bridge addresses are out of reach: the agent warns when it has no
//  agent.publish.host.
bool agent_ports_endpoint_remote(const char *endpoint);

//  Publishing on host (an IPv4 address) in range ("LOW-HIGH"), for the
//  kernels of bridge, with the nft at nft (a path). Reads the mappings
//  kept under state_dir and writes their rules. NULL with err: INVALID for
//  a bad host or range, INTERNAL when nft fails.
agent_ports_t *agent_ports_new(const char *state_dir,
                               const char *bridge,
                               const char *host,
                               const char *range,
                               const char *nft,
                               bus_error_t *err);

//  Frees the object; the mappings and rules stay for the next agent.
void agent_ports_destroy(agent_ports_t **self_p);

//  The address ports are published on. Borrowed.
const char *agent_ports_host(agent_ports_t *self);

//  Publishes kernel_id's ip:port (or finds it published) and returns the
//  host port in *host_port. BUS_OK, or UNAVAILABLE (the range is full),
//  INVALID (a bad id, address or port) or INTERNAL (nft, the file) with
//  err; on failure nothing is published.
int agent_ports_publish(agent_ports_t *self,
                        const char *kernel_id,
                        const char *ip,
                        int port,
                        int *host_port,
                        bus_error_t *err);

//  Removes kernel_id's mappings and their rules. How many went.
size_t agent_ports_release(agent_ports_t *self, const char *kernel_id);

//  Removes the table and every mapping (agent_net_teardown's companion:
//  an agent that stops with no kernel leaves no rule behind).
void agent_ports_teardown(agent_ports_t *self);

#endif
