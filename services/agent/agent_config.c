/*  =========================================================================
    agent_config - the option table of the agent

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

const bus_config_option_t agent_config_options[] = {
    BUS_NODE_CONFIG_ROWS(agent_config_t, node, "false"),
    {"agent.scaling_group", BUS_CFG_STRING, offsetof(agent_config_t, scaling_group),
     "default", 1, 63, NULL,
     "the resource group (Backend.AI scaling group) this agent serves"},
    {"agent.region", BUS_CFG_STRING, offsetof(agent_config_t, region), "local", 1, 63,
     NULL, "where this agent runs, as the admin API shows it"},
    {"agent.slots.cpu", BUS_CFG_STRING, offsetof(agent_config_t, cpu), "auto", 1, 31,
     NULL,
     "CPU cores offered to sessions: a count (2, 1.5), or auto for every online CPU"},
    {"agent.slots.mem", BUS_CFG_STRING, offsetof(agent_config_t, mem), "auto", 1, 31,
     NULL,
     "memory offered to sessions: bytes with a suffix (8g), or auto for the total RAM"},
    {"agent.images_dir", BUS_CFG_STRING, offsetof(agent_config_t, images_dir),
     "/var/lib/backplane/images", 1, 4095, NULL,
     "the OCI image layouts this agent runs, one per subdirectory (deploy/images/build)"},
    {"agent.images_rescan_ms", BUS_CFG_INT, offsetof(agent_config_t, images_rescan_ms),
     "10000", 0, 86400000, NULL,
     "how often to rescan agent.images_dir and re-announce a changed catalogue; 0: at "
     "start only"},
    BUS_CONFIG_END,
};
