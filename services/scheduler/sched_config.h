/*  =========================================================================
    sched_config - the scheduler's options: config/scheduler.yaml

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_CONFIG_H_INCLUDED
#define SCHED_CONFIG_H_INCLUDED

#include "bus.h"

typedef struct {
    bus_node_config_t node;
    int agent_lost_ms;     //  silence after which an agent is LOST
    int agent_grace_ms;    //  then how long before its kernels end
    int pass_ms;           //  period of the scheduling pass
    int reclaim_ms;        //  period of the idle and timeout checks
    int create_timeout_ms; //  how long an agent may take to start a kernel
} sched_config_t;

extern const bus_config_option_t sched_config_options[];

#endif
