/*  =========================================================================
    acct_server - the accounting on its bus node: state, handlers, lifecycle

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef ACCT_SERVER_H_INCLUDED
#define ACCT_SERVER_H_INCLUDED

#include "bus.h"

//  The service as bus_main runs it.
extern const bus_service_t acct_service;

#endif
