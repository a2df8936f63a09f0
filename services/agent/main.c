/*  =========================================================================
    main - backplane-agent: runs the containers of one node, or (fake.agents
    > 0) a fleet of fake agents that run none (agent_fake)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

//  What runs: the real agent's state, or the fleet.
typedef struct {
    void *real;
    agent_fake_t *fake;
} s_state_t;

static void
s_fini(void **state_p)
{
    s_state_t *state = *state_p;
    if (state) {
        if (state->real)
            agent_service.fini(&state->real);
        agent_fake_destroy(&state->fake);
        free(state);
        *state_p = NULL;
    }
}

//  The fleet needs no runc, images or root: the real agent is not started.
static void *
s_init(bus_node_t *node, const void *config_p, bus_error_t *err)
{
    const agent_config_t *config = config_p;
    s_state_t *state = calloc(1, sizeof *state);
    if (!state) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    if (config->fake_agents > 0)
        state->fake = agent_fake_new(node, config, err);
    else
        state->real = agent_service.init(node, config, err);
    if (!state->fake && !state->real) {
        free(state);
        return NULL;
    }
    return state;
}

int
main(int argc, char **argv)
{
    bus_service_t service = agent_service;
    service.init = s_init;
    service.fini = s_fini;
    return bus_main(&service, argc, argv);
}
