/*  =========================================================================
    bus_addr - a numeric host and a port as a socket address

    The gateway's app tunnel and the agent's port probe connect to what an
    agent answered: an IPv4 or IPv6 address in text, never a name to look
    up (a lookup would block the loop). A node bound on every address finds
    the one it is reached at (bus_addr_local_toward), at start.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_ADDR_H_INCLUDED
#define BUS_ADDR_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

//  Fills addr (and *len) from host, a dotted IPv4 or an IPv6 address, and
//  port. 0, or -1 when host is neither.
int bus_addr_numeric(const char *host,
                     uint16_t port,
                     struct sockaddr_storage *addr,
                     socklen_t *len);

//  Splits an endpoint ("tcp://HOST:PORT", "HOST:PORT"; an IPv6 host in
//  brackets) into its host (brackets removed) and port text. 0, or -1 when
//  there is no ":PORT" or a part does not fit.
int bus_addr_endpoint_split(
    const char *endpoint, char *host, size_t host_size, char *port, size_t port_size);

//  Whether a host (as bus_addr_endpoint_split gives it) means every address
//  of the machine: "*", 0.0.0.0 or ::.
bool bus_addr_host_wildcard(const char *host);

//  Whether a host names this machine's loopback: 127.0.0.0/8, ::1 or
//  localhost.
bool bus_addr_host_loopback(const char *host);

//  The address of this machine that packets to endpoint's host leave from
//  (the route's source: a UDP socket connected there, nothing sent), in
//  host ("10.0.0.5", "fd00::5"). A host name is looked up (this blocks: call
//  it at start only). 0, or -1 when it has no route or cannot be resolved.
int bus_addr_local_toward(const char *endpoint, char *host, size_t size);

#endif
