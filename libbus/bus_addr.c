/*  =========================================================================
    bus_addr - a numeric host and a port as a socket address

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <arpa/inet.h> //  inet_pton
#include <netinet/in.h>

int
bus_addr_numeric(const char *host,
                 uint16_t port,
                 struct sockaddr_storage *addr,
                 socklen_t *len)
{
    assert(addr && len);
    memset(addr, 0, sizeof *addr);
    struct sockaddr_in *v4 = (struct sockaddr_in *) addr;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *) addr;
    if (host && inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        *len = sizeof *v4;
        return 0;
    }
    if (host && inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        *len = sizeof *v6;
        return 0;
    }
    return -1;
}
