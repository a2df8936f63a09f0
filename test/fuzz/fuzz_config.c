/*  =========================================================================
    fuzz_config - libFuzzer target for the YAML config loader

    Loads the input with bus_config_load_string against a fixed table that
    has every option type and keys nested two groups deep, then checks what
    the loader promises: a success leaves only values the table allows, a
    failure leaves the defaults untouched and says where, in "fuzz:L:C: ".
    The first line of the input is also tried as a --set KEY=VALUE override.
    Any broken promise aborts, so the fuzzer reports it like a crash.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

typedef struct {
    char *name;
    int workers;
    bool verbose;
    int rpc_timeout_ms;
    int64_t queue_limit;
    char *queue_policy;
    char *endpoint;
    bool db_strict;
} fuzz_config_t;

static const bus_config_option_t s_table[] = {
    {"name", BUS_CFG_STRING, offsetof(fuzz_config_t, name), "backplane", 0, 16, NULL,
     "Name shown in logs"},
    {"workers", BUS_CFG_INT, offsetof(fuzz_config_t, workers), "4", 1, 64, NULL,
     "Worker threads"},
    {"verbose", BUS_CFG_BOOL, offsetof(fuzz_config_t, verbose), "no", 0, 0, NULL,
     "Log at debug level"},
    {"bus.rpc_timeout_ms", BUS_CFG_INT, offsetof(fuzz_config_t, rpc_timeout_ms), "5000",
     100, 600000, NULL, "RPC deadline in milliseconds"},
    {"bus.queue.limit", BUS_CFG_BYTES, offsetof(fuzz_config_t, queue_limit), "64m", 0,
     INT64_C(1) << 40, NULL, "Queue size limit"},
    {"bus.queue.policy", BUS_CFG_ENUM, offsetof(fuzz_config_t, queue_policy), "fifo", 0,
     0, "fifo|lifo|drf", "Queue order"},
    {"bus.endpoint", BUS_CFG_STRING, offsetof(fuzz_config_t, endpoint),
     "tcp://127.0.0.1:5555", 0, 0, NULL, "Where the hub listens"},
    {"db.strict", BUS_CFG_BOOL, offsetof(fuzz_config_t, db_strict), "on", 0, 0, NULL,
     "Refuse unknown columns"},
    BUS_CONFIG_END};

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

static bool
s_is_default(const fuzz_config_t *config)
{
    return strcmp(config->name, "backplane") == 0 && config->workers == 4 &&
           !config->verbose && config->rpc_timeout_ms == 5000 &&
           config->queue_limit == INT64_C(64) << 20 &&
           strcmp(config->queue_policy, "fifo") == 0 &&
           strcmp(config->endpoint, "tcp://127.0.0.1:5555") == 0 && config->db_strict;
}

static bool
s_is_allowed(const fuzz_config_t *config)
{
    return config->name && strlen(config->name) <= 16 && config->workers >= 1 &&
           config->workers <= 64 && config->rpc_timeout_ms >= 100 &&
           config->rpc_timeout_ms <= 600000 && config->queue_limit >= 0 &&
           config->queue_limit <= INT64_C(1) << 40 && config->queue_policy &&
           (strcmp(config->queue_policy, "fifo") == 0 ||
            strcmp(config->queue_policy, "lifo") == 0 ||
            strcmp(config->queue_policy, "drf") == 0) &&
           config->endpoint;
}

//  The first line as KEY=VALUE through bus_config_set.
static void
s_try_set(fuzz_config_t *config, const uint8_t *data, size_t size)
{
    const uint8_t *end = memchr(data, '\n', size);
    size_t len = end ? (size_t) (end - data) : size;
    char *line = malloc(len + 1);
    s_check(line != NULL);
    memcpy(line, data, len);
    line[len] = '\0';
    char *equals = strchr(line, '=');
    if (equals) {
        *equals = '\0';
        bus_error_t err = {0};
        if (bus_config_set(s_table, config, line, equals + 1, &err) != 0)
            s_check(err.status == BUS_STATUS_INVALID && err.detail[0] != '\0');
        s_check(s_is_allowed(config));
    }
    free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_config_t config = {0};
    bus_error_t err = {0};
    s_check(bus_config_defaults(s_table, &config, &err) == 0);
    int rc =
        bus_config_load_string(s_table, &config, (const char *) data, size, "fuzz", &err);
    if (rc == 0)
        s_check(s_is_allowed(&config));
    else {
        s_check(rc == -1);
        s_check(err.status == BUS_STATUS_INVALID);
        s_check(strncmp(err.detail, "fuzz:", 5) == 0);
        s_check(s_is_default(&config));
    }
    s_try_set(&config, data, size);
    bus_config_clear(s_table, &config);
    s_check(config.name == NULL && config.queue_policy == NULL &&
            config.endpoint == NULL);
    return 0;
}
