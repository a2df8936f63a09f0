/*  =========================================================================
    acct_config - the accounting's options: config/accounting.yaml

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef ACCT_CONFIG_H_INCLUDED
#define ACCT_CONFIG_H_INCLUDED

#include "bus.h"

#define ACCT_CONFIG_RAW_RETENTION_DEFAULT "604800" //  raw samples: 7 days
#define ACCT_CONFIG_COMPACT_DEFAULT       "60"     //  roll-up and expiry, seconds
#define ACCT_CONFIG_FLUSH_DEFAULT         "200"    //  queued samples written, ms
#define ACCT_CONFIG_QUEUE_DEFAULT         "20000"  //  samples queued at most

typedef struct {
    bus_node_config_t node;
    int raw_retention_s;
    int compact_s;
    int flush_ms;
    int stats_queue;
} acct_config_t;

extern const bus_config_option_t acct_config_options[];

#endif
