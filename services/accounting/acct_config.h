/*  =========================================================================
    acct_config - the accounting's options: config/accounting.yaml

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef ACCT_CONFIG_H_INCLUDED
#define ACCT_CONFIG_H_INCLUDED

#include "bus.h"

typedef struct {
    bus_node_config_t node;
} acct_config_t;

extern const bus_config_option_t acct_config_options[];

#endif
