/*  =========================================================================
    bus_addr - a numeric host and a port as a socket address

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <arpa/inet.h> //  inet_pton
#include <netdb.h>     //  getaddrinfo: the hub may be named
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

int
bus_addr_endpoint_split(
    const char *endpoint, char *host, size_t host_size, char *port, size_t port_size)
{
    assert(endpoint && host && port);
    const char *start = strstr(endpoint, "://");
    start = start ? start + 3 : endpoint;
    const char *colon = strrchr(start, ':');
    if (!colon || !colon[1])
        return -1;
    const char *end = colon;
    if (*start == '[' && end > start + 1 && end[-1] == ']') {
        start++;
        end--;
    }
    size_t len = (size_t) (end - start), port_len = strlen(colon + 1);
    if (len >= host_size || port_len >= port_size)
        return -1;
    memcpy(host, start, len);
    host[len] = '\0';
    memcpy(port, colon + 1, port_len + 1);
    return 0;
}

bool
bus_addr_host_wildcard(const char *host)
{
    assert(host);
    struct in_addr v4;
    struct in6_addr v6;
    if (strcmp(host, "*") == 0)
        return true;
    if (inet_pton(AF_INET, host, &v4) == 1)
        return v4.s_addr == htonl(INADDR_ANY);
    return inet_pton(AF_INET6, host, &v6) == 1 && IN6_IS_ADDR_UNSPECIFIED(&v6);
}

bool
bus_addr_host_loopback(const char *host)
{
    assert(host);
    struct in_addr v4;
    struct in6_addr v6;
    if (strcmp(host, "localhost") == 0)
        return true;
    if (inet_pton(AF_INET, host, &v4) == 1)
        return (ntohl(v4.s_addr) >> 24) == 127;
    return inet_pton(AF_INET6, host, &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

int
bus_addr_local_toward(const char *endpoint, char *host, size_t size)
{
    assert(endpoint && host);
    char peer[256], port[32];
    if (bus_addr_endpoint_split(endpoint, peer, sizeof peer, port, sizeof port) != 0)
        return -1;
    struct addrinfo hints = {.ai_socktype = SOCK_DGRAM, .ai_flags = AI_NUMERICSERV};
    struct addrinfo *found = NULL;
    if (getaddrinfo(peer, port, &hints, &found) != 0 || !found)
        return -1;
    int rc = -1;
    int fd = socket(found->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct sockaddr_storage local;
    socklen_t len = sizeof local;
    if (fd >= 0 && connect(fd, found->ai_addr, found->ai_addrlen) == 0 &&
        getsockname(fd, (struct sockaddr *) &local, &len) == 0) {
        const void *addr =
            local.ss_family == AF_INET6
                ? (const void *) &((struct sockaddr_in6 *) &local)->sin6_addr
                : (const void *) &((struct sockaddr_in *) &local)->sin_addr;
        if (inet_ntop(local.ss_family, addr, host, (socklen_t) size))
            rc = 0;
    }
    if (fd >= 0)
        close(fd);
    freeaddrinfo(found);
    return rc;
}
