/*  =========================================================================
    main - backplane-agent: runs the containers of one node, or (fake.agents
    > 0) a fleet of fake agents that run none (agent_fake)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

int
main(int argc, char **argv)
{
    return bus_main(&agent_service, argc, argv);
}
