/*  =========================================================================
    agent_config - the option table of the agent

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

const bus_config_option_t agent_config_options[] = {
    BUS_NODE_CONFIG_ROWS(agent_config_t, node, "false"),
    BUS_CONFIG_END,
};
