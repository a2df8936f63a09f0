/*  =========================================================================
    wsp_server - the wsproxy on its bus node: state, handlers, lifecycle

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef WSP_SERVER_H_INCLUDED
#define WSP_SERVER_H_INCLUDED

#include "bus.h"

//  The service as bus_main runs it.
extern const bus_service_t wsp_service;

#endif
