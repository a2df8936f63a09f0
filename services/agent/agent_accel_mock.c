/*  =========================================================================
    agent_accel_mock - fake accelerators from configuration, for tests

    The mock plugin offers the cuda.device and cuda.shares slots (or one of
    them) over a configured number of devices "mock-0", "mock-1", ... with a
    configured memory each. Its containers get the CUDA variables under the
    BACKPLANE_MOCK_ prefix, plus a plain CUDA_VISIBLE_DEVICES, and no device
    nodes, so an integration test can read inside a container what a real
    GPU kernel would be given. The configuration has a text form,
    "devices=2,memory=16g,shares_per_device=1,quantum=0.001,mode=both",
    whose amounts are read by bus_slots (exact decimals, binary suffixes).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

void
agent_accel_mock_config_init(agent_accel_mock_config_t *config)
{
    assert(config);
    *config = (agent_accel_mock_config_t){
        .devices = AGENT_ACCEL_MOCK_DEVICES,
        .memory_bytes = AGENT_ACCEL_MOCK_MEMORY,
        .shares_per_device = AGENT_ACCEL_SHARES_DEFAULT,
        .quantum = AGENT_ACCEL_QUANTUM_DEFAULT,
        .mode = AGENT_ACCEL_MODE_BOTH,
    };
}

//  One amount of unit from text; finite and positive.
static int
s_amount(bus_slots_unit_t unit,
         const char *key,
         const char *text,
         int64_t *out,
         bus_error_t *err)
{
    json_t *input = json_string(text);
    bus_slots_value_t value;
    int rc = input ? bus_slots_parse_value(unit, key, input, &value, err)
                   : bus_error_set(err, BUS_STATUS_INVALID, "invalid %s", key);
    json_decref(input);
    if (rc != BUS_OK)
        return rc;
    if (value.infinite || value.amount <= 0)
        return bus_error_set(err, BUS_STATUS_INVALID, "%s must be positive and finite",
                             key);
    *out = value.amount;
    return BUS_OK;
}

//  One key=value pair into config.
static int
s_option(const char *key,
         const char *value,
         agent_accel_mock_config_t *config,
         bus_error_t *err)
{
    if (strcmp(key, "devices") == 0) {
        char *end;
        errno = 0;
        unsigned long devices = strtoul(value, &end, 10);
        if (!isdigit((unsigned char) *value) || *end || errno ||
            devices > AGENT_ACCEL_DEVICES_MAX)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "devices must be 0..%d, not \"%s\"",
                                 AGENT_ACCEL_DEVICES_MAX, value);
        config->devices = (uint32_t) devices;
        return BUS_OK;
    }
    if (strcmp(key, "memory") == 0)
        return s_amount(BUS_SLOTS_BYTES, key, value, &config->memory_bytes, err);
    if (strcmp(key, "shares_per_device") == 0)
        return s_amount(BUS_SLOTS_COUNT, key, value, &config->shares_per_device, err);
    if (strcmp(key, "quantum") == 0)
        return s_amount(BUS_SLOTS_COUNT, key, value, &config->quantum, err);
    if (strcmp(key, "mode") == 0) {
        if (strcmp(value, "both") == 0)
            config->mode = AGENT_ACCEL_MODE_BOTH;
        else if (strcmp(value, "device") == 0)
            config->mode = AGENT_ACCEL_MODE_DEVICE;
        else if (strcmp(value, "shares") == 0)
            config->mode = AGENT_ACCEL_MODE_SHARES;
        else
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "mode must be both, device or shares, not \"%s\"",
                                 value);
        return BUS_OK;
    }
    return bus_error_set(err, BUS_STATUS_INVALID,
                         "unknown mock accelerator option \"%s\"", key);
}

int
agent_accel_mock_config_parse(const char *text,
                              agent_accel_mock_config_t *config,
                              bus_error_t *err)
{
    assert(config);
    agent_accel_mock_config_init(config);
    if (!text || strlen(text) >= AGENT_ACCEL_MOCK_CONFIG_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "mock accelerator configuration missing or too long");
    char copy[AGENT_ACCEL_MOCK_CONFIG_MAX];
    snprintf(copy, sizeof copy, "%s", text);
    char *rest = *copy ? copy : NULL;
    while (rest) {
        char *pair = strsep(&rest, ",");
        char *value = strchr(pair, '=');
        if (!value || value == pair)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "mock accelerator option \"%s\" is not key=value", pair);
        *value++ = '\0';
        int rc = s_option(pair, value, config, err);
        if (rc != BUS_OK)
            return rc;
    }
    return BUS_OK;
}

agent_accel_plugin_t *
agent_accel_mock_new(const agent_accel_mock_config_t *config, bus_error_t *err)
{
    assert(config);
    if (config->devices > AGENT_ACCEL_DEVICES_MAX || config->memory_bytes <= 0 ||
        config->shares_per_device <= 0 ||
        config->shares_per_device > AGENT_ACCEL_SHARES_MAX || config->quantum <= 0 ||
        config->shares_per_device % config->quantum != 0) {
        bus_error_set(err, BUS_STATUS_INVALID,
                      "mock accelerator: devices 0..%d, memory > 0, shares_per_device"
                      " 0.001..%lld and a multiple of quantum",
                      AGENT_ACCEL_DEVICES_MAX,
                      AGENT_ACCEL_SHARES_MAX / BUS_SLOTS_COUNT_SCALE);
        return NULL;
    }
    agent_accel_info_t info = {
        .name = "mock",
        .env_prefix = AGENT_ACCEL_MOCK_PREFIX,
        .plain_visible = true,
        .shares_per_device = config->shares_per_device,
        .quantum = config->quantum,
    };
    agent_accel_plugin_t *self = agent_accel_plugin_new(&info);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    int rc = 0;
    if (config->mode != AGENT_ACCEL_MODE_SHARES)
        rc |= agent_accel_plugin_add_slot(self, "cuda.device", AGENT_ACCEL_WHOLE);
    if (config->mode != AGENT_ACCEL_MODE_DEVICE)
        rc |= agent_accel_plugin_add_slot(self, "cuda.shares", AGENT_ACCEL_SHARES);
    for (uint32_t i = 0; i < config->devices; i++) {
        agent_accel_device_t device = {
            .index = i, .minor = -1, .memory_bytes = config->memory_bytes};
        snprintf(device.id, sizeof device.id, "mock-%" PRIu32, i);
        snprintf(device.model, sizeof device.model, "%s", AGENT_ACCEL_MOCK_MODEL);
        rc |= agent_accel_plugin_add_device(self, &device);
    }
    assert(rc == 0); //  fresh plugin, distinct names and indexes
    (void) rc;
    return self;
}
