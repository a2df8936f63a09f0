/*  =========================================================================
    bus_addr - a numeric host and a port as a socket address

    The gateway's app tunnel and the agent's port probe connect to what an
    agent answered: an IPv4 or IPv6 address in text, never a name to look
    up (a lookup would block the loop).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_ADDR_H_INCLUDED
#define BUS_ADDR_H_INCLUDED

#include <stdint.h>
#include <sys/socket.h>

//  Fills addr (and *len) from host, a dotted IPv4 or an IPv6 address, and
//  port. 0, or -1 when host is neither.
int bus_addr_numeric(const char *host,
                     uint16_t port,
                     struct sockaddr_storage *addr,
                     socklen_t *len);

#endif
