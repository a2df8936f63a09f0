/*  =========================================================================
    bus_addr_test - endpoints split, wildcards told, the address toward a
    peer found

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "t.h"

static void
test_split(void)
{
    char host[64], port[16];
    T_EQ_INT(bus_addr_endpoint_split("tcp://10.0.0.5:6103", host, sizeof host, port,
                                     sizeof port),
             0);
    T_EQ_STR(host, "10.0.0.5");
    T_EQ_STR(port, "6103");
    T_EQ_INT(bus_addr_endpoint_split("tcp://[fd00::5]:49152", host, sizeof host, port,
                                     sizeof port),
             0);
    T_EQ_STR(host, "fd00::5");
    T_EQ_STR(port, "49152");
    T_EQ_INT(bus_addr_endpoint_split("tcp://*:*", host, sizeof host, port, sizeof port),
             0);
    T_EQ_STR(host, "*");
    T_EQ_STR(port, "*");
    T_EQ_INT(
        bus_addr_endpoint_split("hub.lan:6101", host, sizeof host, port, sizeof port), 0);
    T_EQ_STR(host, "hub.lan");
    //  No port, or too long a host: refused.
    T_EQ_INT(
        bus_addr_endpoint_split("tcp://10.0.0.5", host, sizeof host, port, sizeof port),
        -1);
    T_EQ_INT(
        bus_addr_endpoint_split("tcp://10.0.0.5:", host, sizeof host, port, sizeof port),
        -1);
    T_EQ_INT(bus_addr_endpoint_split("tcp://10.0.0.5:1", host, 4, port, sizeof port), -1);
}

static void
test_wildcard(void)
{
    T_ASSERT(bus_addr_host_wildcard("*"));
    T_ASSERT(bus_addr_host_wildcard("0.0.0.0"));
    T_ASSERT(bus_addr_host_wildcard("::"));
    T_ASSERT(!bus_addr_host_wildcard("127.0.0.1"));
    T_ASSERT(!bus_addr_host_wildcard("10.0.0.5"));
    T_ASSERT(!bus_addr_host_wildcard("::1"));
    T_ASSERT(!bus_addr_host_wildcard("eth0"));
    T_ASSERT(!bus_addr_host_wildcard(""));
}

static void
test_loopback(void)
{
    T_ASSERT(bus_addr_host_loopback("127.0.0.1"));
    T_ASSERT(bus_addr_host_loopback("127.1.2.3"));
    T_ASSERT(bus_addr_host_loopback("::1"));
    T_ASSERT(bus_addr_host_loopback("localhost"));
    T_ASSERT(!bus_addr_host_loopback("128.0.0.1"));
    T_ASSERT(!bus_addr_host_loopback("0.0.0.0"));
    T_ASSERT(!bus_addr_host_loopback("*"));
    T_ASSERT(!bus_addr_host_loopback("fd00::1"));
    T_ASSERT(!bus_addr_host_loopback(""));
}

static void
test_local_toward(void)
{
    char host[64];
    T_EQ_INT(bus_addr_local_toward("tcp://127.0.0.1:6103", host, sizeof host), 0);
    T_EQ_STR(host, "127.0.0.1");
    T_EQ_INT(bus_addr_local_toward("tcp://localhost:6103", host, sizeof host), 0);
    T_ASSERT(strcmp(host, "127.0.0.1") == 0 || strcmp(host, "::1") == 0);
    T_EQ_INT(bus_addr_local_toward("tcp://127.0.0.1", host, sizeof host), -1);
}

int
main(void)
{
    T_RUN(test_split);
    T_RUN(test_wildcard);
    T_RUN(test_loopback);
    T_RUN(test_local_toward);
    return T_DONE();
}
