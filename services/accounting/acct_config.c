/*  =========================================================================
    acct_config - the option table of the accounting

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "acct_classes.h"

const bus_config_option_t acct_config_options[] = {
    BUS_NODE_CONFIG_ROWS(acct_config_t, node, "false", BUS_NODE_HTTP_ACCOUNTING),
    {"accounting.raw_retention_s", BUS_CFG_INT, offsetof(acct_config_t, raw_retention_s),
     ACCT_CONFIG_RAW_RETENTION_DEFAULT, 60, 315360000, NULL,
     "seconds raw kernel.stats samples are kept once rolled up into the hourly and "
     "daily buckets (the usage totals never expire)"},
    {"accounting.compact_s", BUS_CFG_INT, offsetof(acct_config_t, compact_s),
     ACCT_CONFIG_COMPACT_DEFAULT, 1, 86400, NULL,
     "how often raw samples are rolled up into hourly and daily buckets and the "
     "expired ones deleted"},
    {"accounting.flush_ms", BUS_CFG_INT, offsetof(acct_config_t, flush_ms),
     ACCT_CONFIG_FLUSH_DEFAULT, 10, 60000, NULL,
     "how often queued kernel.stats samples are written, in one transaction"},
    {"accounting.stats_queue", BUS_CFG_INT, offsetof(acct_config_t, stats_queue),
     ACCT_CONFIG_QUEUE_DEFAULT, 1, 10000000, NULL,
     "kernel.stats samples queued at most; a full queue is written at once"},
    BUS_CONFIG_END,
};
