/*  =========================================================================
    agent_ports_test - which bus endpoints mean proxies on other hosts

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include "t.h"

static void
test_endpoint_remote(void)
{
    //  Loopback: the proxies run here, the bridge addresses are reachable.
    T_ASSERT(!agent_ports_endpoint_remote("tcp://127.0.0.1:*"));
    T_ASSERT(!agent_ports_endpoint_remote("tcp://127.0.0.1:5000"));
    T_ASSERT(!agent_ports_endpoint_remote("tcp://127.1.2.3:5000"));
    T_ASSERT(!agent_ports_endpoint_remote("tcp://localhost:5000"));
    T_ASSERT(!agent_ports_endpoint_remote("tcp://[::1]:5000"));
    //  A host's address, every address, an interface, a name: elsewhere.
    T_ASSERT(agent_ports_endpoint_remote("tcp://10.250.0.21:*"));
    T_ASSERT(agent_ports_endpoint_remote("tcp://128.0.0.1:5000"));
    T_ASSERT(agent_ports_endpoint_remote("tcp://*:5000"));
    T_ASSERT(agent_ports_endpoint_remote("tcp://0.0.0.0:5000"));
    T_ASSERT(agent_ports_endpoint_remote("tcp://eth0:5000"));
    T_ASSERT(agent_ports_endpoint_remote("tcp://gpu-node-7.lan:5000"));
    //  No scheme, no port: the host is what there is.
    T_ASSERT(!agent_ports_endpoint_remote("127.0.0.1"));
    T_ASSERT(agent_ports_endpoint_remote("10.0.0.1"));
}

int
main(void)
{
    T_RUN(test_endpoint_remote);
    return T_DONE();
}
