/*  =========================================================================
    agent_config - the agent's options: config/agent.yaml

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_CONFIG_H_INCLUDED
#define AGENT_CONFIG_H_INCLUDED

#include "bus.h"

typedef struct {
    bus_node_config_t node;
} agent_config_t;

extern const bus_config_option_t agent_config_options[];

#endif
