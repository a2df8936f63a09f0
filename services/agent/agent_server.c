/*  =========================================================================
    agent_server - the agent as bus_main runs it

    Runs the containers of one node through an OCI runtime. So far it joins
    the bus, answers service.health, and publishes agent.heartbeat with the
    slots it offers, from which the scheduler keeps its agent registry.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

static void *
s_init(bus_node_t *node, const void *config, bus_error_t *err)
{
    return agent_heartbeat_new(node, config, err);
}

static void
s_fini(void **state_p)
{
    agent_heartbeat_destroy((agent_heartbeat_t **) state_p);
}

const bus_service_t agent_service = {
    .name = "agent",
    .summary = "Runs the containers of one node through an OCI runtime",
    .options = agent_config_options,
    .config_size = sizeof(agent_config_t),
    .node_config_offset = offsetof(agent_config_t, node),
    .init = s_init,
    .fini = s_fini,
};
