/*  =========================================================================
    agent_server - the agent as bus_main runs it

    Runs the containers of one node through an OCI runtime. So far the agent is its node:
   it joins the bus, registers, heartbeats and answers service.health, bus.replay and
   /healthz.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

const bus_service_t agent_service = {
    .name = "agent",
    .summary = "Runs the containers of one node through an OCI runtime",
    .options = agent_config_options,
    .config_size = sizeof(agent_config_t),
    .node_config_offset = offsetof(agent_config_t, node),
};
