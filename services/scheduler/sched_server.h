/*  =========================================================================
    sched_server - the scheduler on its bus node: its state, its timers

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_SERVER_H_INCLUDED
#define SCHED_SERVER_H_INCLUDED

#include "bus.h"

//  The service as bus_main runs it.
extern const bus_service_t sched_service;

#endif
