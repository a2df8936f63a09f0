/*  =========================================================================
    agent_accel_test - accelerator plugins and the device allocator

    Share arithmetic at its edges (exact fit, one thousandth over, the
    smallest share, spanning devices with a remainder, fragmentation,
    whole devices), all or nothing, the stored form and its malformed
    variants, restore after a restart, the container's variables and device
    nodes, the mock configuration, the CUDA plugin without NVML (and with it
    where the machine has GPUs), an invariant loop of random allocations
    and releases checked against a model after every step, and the device
    nodes in a container's config.json (agent_bundle).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include "t.h"

#define GIB (1LL << 30)

//  An allocator with the mock plugin of config text.
static agent_accel_t *
s_mock(const char *text)
{
    agent_accel_mock_config_t config;
    bus_error_t err;
    if (agent_accel_mock_config_parse(text, &config, &err) != BUS_OK)
        return NULL;
    agent_accel_plugin_t *plugin = agent_accel_mock_new(&config, &err);
    agent_accel_t *accel = agent_accel_new();
    if (!plugin || !accel || agent_accel_add(accel, &plugin, &err) != BUS_OK) {
        agent_accel_plugin_destroy(&plugin);
        agent_accel_destroy(&accel);
    }
    return accel;
}

//  Allocates one slot for kernel.
static int
s_take(agent_accel_t *accel,
       const char *kernel,
       const char *slot,
       const char *value,
       agent_accel_alloc_t *alloc,
       bus_error_t *err)
{
    proto_kv_t kv[] = {{slot, value}};
    return agent_accel_allocate(accel, kernel, kv, 1, alloc, err);
}

//  The stored form of what kernel holds ("" when nothing); caller frees.
static char *
s_text(agent_accel_t *accel, const char *kernel)
{
    const agent_accel_alloc_t *alloc = agent_accel_lookup(accel, kernel);
    agent_accel_alloc_t none = {0};
    return agent_accel_allocation_format(accel, alloc ? alloc : &none);
}

//  Used thousandths of slot.
static int64_t
s_used(const agent_accel_t *accel, const char *slot)
{
    agent_accel_slot_state_t states[8];
    size_t count = agent_accel_slots(accel, states, 8);
    for (size_t i = 0; i < count && i < 8; i++)
        if (strcmp(states[i].name, slot) == 0)
            return states[i].used;
    return -1;
}

//  What one kernel could be given of slot now, in thousandths.
static int64_t
s_placeable(const agent_accel_t *accel, const char *slot)
{
    agent_accel_slot_state_t states[8];
    size_t count = agent_accel_slots(accel, states, 8);
    for (size_t i = 0; i < count && i < 8; i++)
        if (strcmp(states[i].name, slot) == 0)
            return states[i].placeable;
    return -1;
}

//  Whether placeable is exact for slot: that much is given (then given
//  back), one step more is refused.
static bool
s_placeable_exact(agent_accel_t *accel, const char *slot, int64_t step)
{
    int64_t most = s_placeable(accel, slot);
    bool ok = most >= 0;
    int64_t amounts[2] = {most, most + step};
    for (int i = 0; i < 2 && ok; i++) {
        if (amounts[i] == 0)
            continue;
        char value[BUS_SLOTS_VALUE_MAX];
        bus_slots_format_value(BUS_SLOTS_COUNT, &(bus_slots_value_t){false, amounts[i]},
                               value);
        agent_accel_alloc_t alloc;
        bus_error_t err;
        int rc = s_take(accel, "probe", slot, value, &alloc, &err);
        ok = i == 0 ? rc == BUS_OK
                    : rc == BUS_STATUS_CONFLICT && strstr(err.detail, BUS_SLOTS_NO_FIT);
        agent_accel_release(accel, "probe");
        if (!ok)
            fprintf(stderr, "# %s placeable %" PRId64 ": %s refused or not: %d\n", slot,
                    most, value, rc);
    }
    return ok;
}

//  The value of name in env, NULL when absent.
static const char *
s_env(char **env, const char *name)
{
    size_t length = strlen(name);
    for (size_t i = 0; env && env[i]; i++)
        if (strncmp(env[i], name, length) == 0 && env[i][length] == '=')
            return env[i] + length + 1;
    return NULL;
}

static size_t
s_strv_count(char **strv)
{
    size_t count = 0;
    while (strv && strv[count])
        count++;
    return count;
}

static bool
s_checked(const agent_accel_t *accel)
{
    bus_error_t err;
    int rc = agent_accel_check(accel, &err);
    if (rc != BUS_OK)
        fprintf(stderr, "# check: %s\n", err.detail);
    return rc == BUS_OK;
}

//  ---------------------------------------------------------------------------

static void
test_mock_config(void)
{
    agent_accel_mock_config_t config;
    bus_error_t err;
    T_EQ_INT(agent_accel_mock_config_parse("", &config, &err), BUS_OK);
    T_EQ_INT(config.devices, 2);
    T_EQ_INT(config.memory_bytes, 16 * GIB);
    T_EQ_INT(config.shares_per_device, 1000);
    T_EQ_INT(config.quantum, 1);
    T_EQ_INT(config.mode, AGENT_ACCEL_MODE_BOTH);
    T_EQ_INT(agent_accel_mock_config_parse(
                 "devices=3,memory=8g,shares_per_device=2,quantum=0.25,mode=shares",
                 &config, &err),
             BUS_OK);
    T_EQ_INT(config.devices, 3);
    T_EQ_INT(config.memory_bytes, 8 * GIB);
    T_EQ_INT(config.shares_per_device, 2000);
    T_EQ_INT(config.quantum, 250);
    T_EQ_INT(config.mode, AGENT_ACCEL_MODE_SHARES);
    T_EQ_INT(agent_accel_mock_config_parse("memory=1.5g", &config, &err), BUS_OK);
    T_EQ_INT(config.memory_bytes, 3 * GIB / 2);
    const char *bad[] = {"devices=65",
                         "devices=-1",
                         "devices=x",
                         "devices=",
                         "memory=-1",
                         "memory=0",
                         "memory=inf",
                         "foo=1",
                         "devices",
                         "=2",
                         "devices=2,",
                         ",devices=2",
                         "mode=all",
                         "quantum=0",
                         "shares_per_device=0",
                         "shares_per_device=abc",
                         "devices=2,,mode=both"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err.status = BUS_OK;
        if (agent_accel_mock_config_parse(bad[i], &config, &err) != BUS_STATUS_INVALID)
            T_FAIL_("accepted \"%s\"", bad[i]);
        T_EQ_INT(err.status, BUS_STATUS_INVALID);
    }
    char longer[AGENT_ACCEL_MOCK_CONFIG_MAX + 8];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    T_EQ_INT(agent_accel_mock_config_parse(longer, &config, &err), BUS_STATUS_INVALID);
    //  parsed, but the plugin refuses a quantum that does not divide a device
    T_EQ_INT(agent_accel_mock_config_parse("quantum=0.3", &config, &err), BUS_OK);
    agent_accel_plugin_t *plugin = agent_accel_mock_new(&config, &err);
    T_ASSERT(plugin == NULL);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
}

static void
test_slots_reported(void)
{
    agent_accel_t *accel = s_mock("devices=3,shares_per_device=2.5");
    T_ASSERT(accel);
    agent_accel_slot_state_t states[4];
    T_EQ_INT(agent_accel_slots(accel, states, 4), 2);
    T_EQ_STR(states[0].name, "cuda.device");
    T_EQ_INT(states[0].unit, BUS_SLOTS_COUNT);
    T_EQ_INT(states[0].capacity, 3000);
    T_EQ_INT(states[0].used, 0);
    T_EQ_STR(states[1].name, "cuda.shares");
    T_EQ_INT(states[1].capacity, 7500);
    const agent_accel_plugin_t *plugin = agent_accel_plugin(accel, 0);
    T_EQ_STR(agent_accel_plugin_name(plugin), "mock");
    T_EQ_INT(agent_accel_plugin_device_count(plugin), 3);
    T_EQ_STR(agent_accel_plugin_device(plugin, 2)->id, "mock-2");
    T_EQ_INT(agent_accel_plugin_device(plugin, 2)->memory_bytes, 16 * GIB);
    T_EQ_INT(agent_accel_plugin_device(plugin, 2)->minor, -1);
    agent_accel_log(accel);
    agent_accel_destroy(&accel);
    agent_accel_destroy(&accel);

    accel = s_mock("mode=device");
    T_ASSERT(accel);
    T_EQ_INT(agent_accel_slots(accel, states, 4), 1);
    T_EQ_STR(states[0].name, "cuda.device");
    bus_error_t err;
    T_EQ_INT(s_take(accel, "k", "cuda.shares", "0.5", NULL, &err), BUS_STATUS_CONFLICT);
    agent_accel_destroy(&accel);

    accel = s_mock("devices=0"); //  slots declared, nothing to report
    T_ASSERT(accel);
    T_EQ_INT(agent_accel_slots(accel, states, 4), 0);
    T_EQ_INT(s_take(accel, "k", "cuda.shares", "0.5", NULL, &err), BUS_STATUS_CONFLICT);
    agent_accel_destroy(&accel);
}

static void
test_exact_fit_and_one_over(void)
{
    agent_accel_t *accel = s_mock("devices=1");
    T_ASSERT(accel);
    agent_accel_alloc_t alloc;
    bus_error_t err;
    //  one thousandth over a device with only one device: refused
    T_EQ_INT(s_take(accel, "a", "cuda.shares", "1.001", &alloc, &err),
             BUS_STATUS_CONFLICT);
    T_EQ_INT(s_used(accel, "cuda.shares"), 0);
    //  exactly one device
    T_EQ_INT(s_take(accel, "a", "cuda.shares", "1", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.count, 1);
    T_EQ_INT(alloc.parts[0].amount, 1000);
    T_EQ_INT(s_used(accel, "cuda.shares"), 1000);
    //  nothing left, not even the smallest share
    T_EQ_INT(s_take(accel, "b", "cuda.shares", "0.001", &alloc, &err),
             BUS_STATUS_CONFLICT);
    T_CONTAINS(err.detail, "no device has 0.001 free");
    T_ASSERT(agent_accel_release(accel, "a"));
    //  0.999 then 0.002 does not fit, 0.001 does, exactly
    T_EQ_INT(s_take(accel, "a", "cuda.shares", "0.999", &alloc, &err), BUS_OK);
    T_EQ_INT(s_take(accel, "b", "cuda.shares", "0.002", &alloc, &err),
             BUS_STATUS_CONFLICT);
    T_EQ_INT(s_take(accel, "b", "cuda.shares", "0.001", &alloc, &err), BUS_OK);
    T_EQ_INT(s_used(accel, "cuda.shares"), 1000);
    T_ASSERT(s_checked(accel));
    agent_accel_destroy(&accel);

    //  one thousandth over a device with two: 0.001 on one, the other whole
    accel = s_mock("devices=2");
    T_EQ_INT(s_take(accel, "a", "cuda.shares", "1.001", &alloc, &err), BUS_OK);
    char *text = s_text(accel, "a");
    T_EQ_STR(text, "cuda.shares:0=1,1=1000");
    free(text);
    T_ASSERT(s_checked(accel));
    agent_accel_destroy(&accel);
}

static void
test_smallest_share(void)
{
    agent_accel_t *accel = s_mock("devices=1");
    agent_accel_alloc_t alloc;
    bus_error_t err;
    T_EQ_INT(s_take(accel, "a", "cuda.shares", "0.001", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.count, 1);
    T_EQ_INT(alloc.parts[0].amount, 1);
    char **env = agent_accel_environ(accel, &alloc);
    T_ASSERT(env);
    //  1/1000 of compute rounds up to 1 %, of 16 GiB down to 16 MiB
    T_EQ_STR(s_env(env, "BACKPLANE_MOCK_CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), "1");
    T_EQ_STR(s_env(env, "BACKPLANE_MOCK_CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"), "0=16M");
    agent_accel_strv_destroy(&env);
    //  bus_slots keeps three places (half to even): 0.0004 is zero, which
    //  asks nothing; 0.0015 is 0.002
    T_EQ_INT(s_take(accel, "b", "cuda.shares", "0.0004", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.count, 0);
    T_EQ_INT(s_take(accel, "b", "cuda.shares", "0", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.count, 0);
    T_EQ_INT(s_take(accel, "b", "cuda.shares", "0.0015", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.parts[0].amount, 2);
    T_ASSERT(agent_accel_release(accel, "b"));
    T_ASSERT(agent_accel_lookup(accel, "b") == NULL);
    T_ASSERT(!agent_accel_release(accel, "b"));
    agent_accel_destroy(&accel);
}

static void
test_best_fit(void)
{
    agent_accel_t *accel = s_mock("devices=3");
    agent_accel_alloc_t alloc;
    bus_error_t err;
    T_EQ_INT(s_take(accel, "a", "cuda.shares", "0.5", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.parts[0].device, 0);
    //  0.7 does not fit device 0 (0.5 free): devices 1 and 2 tie, lower first
    T_EQ_INT(s_take(accel, "b", "cuda.shares", "0.7", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.parts[0].device, 1);
    //  0.3: device 1 has exactly 0.3 free, the least that fits
    T_EQ_INT(s_take(accel, "c", "cuda.shares", "0.3", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.parts[0].device, 1);
    //  0.4: device 0 (0.5 free) rather than the untouched device 2
    T_EQ_INT(s_take(accel, "d", "cuda.shares", "0.4", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.parts[0].device, 0);
    //  1.0 needs the untouched one
    T_EQ_INT(s_take(accel, "e", "cuda.shares", "1.0", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.parts[0].device, 2);
    T_EQ_INT(s_used(accel, "cuda.shares"), 2900);
    T_ASSERT(s_checked(accel));
    agent_accel_destroy(&accel);
}

static void
test_span_with_remainder(void)
{
    agent_accel_t *accel = s_mock("devices=4");
    agent_accel_alloc_t alloc;
    bus_error_t err;
    T_EQ_INT(s_take(accel, "a", "cuda.shares", "0.5", &alloc, &err), BUS_OK); //  dev 0
    //  2.5: the remainder goes where exactly 0.5 is free, two untouched whole
    T_EQ_INT(s_take(accel, "b", "cuda.shares", "2.5", &alloc, &err), BUS_OK);
    char *text = s_text(accel, "b");
    T_EQ_STR(text, "cuda.shares:0=500,1=1000,2=1000");
    free(text);
    T_EQ_INT(alloc.count, 3);
    //  one untouched device left: 1.5 cannot have it twice
    T_EQ_INT(s_take(accel, "c", "cuda.shares", "1.5", &alloc, &err), BUS_STATUS_CONFLICT);
    T_EQ_INT(s_take(accel, "c", "cuda.shares", "1.0", &alloc, &err), BUS_OK);
    T_ASSERT(agent_accel_release(accel, "a"));
    T_ASSERT(agent_accel_release(accel, "c"));
    //  device 0 has 0.5 free (b's remainder), device 3 is untouched: 1.25 puts
    //  its remainder on device 0 and takes device 3 whole
    T_EQ_INT(s_take(accel, "d", "cuda.shares", "1.25", &alloc, &err), BUS_OK);
    text = s_text(accel, "d");
    T_EQ_STR(text, "cuda.shares:0=250,3=1000");
    free(text);
    //  0.25 left on device 0 and no untouched device: 1.25 and 0.26 refused
    T_EQ_INT(s_take(accel, "e", "cuda.shares", "1.25", &alloc, &err),
             BUS_STATUS_CONFLICT);
    T_EQ_INT(s_take(accel, "e", "cuda.shares", "0.26", &alloc, &err),
             BUS_STATUS_CONFLICT);
    T_EQ_INT(s_take(accel, "e", "cuda.shares", "0.25", &alloc, &err), BUS_OK);
    T_EQ_INT(s_used(accel, "cuda.shares"), 4000);
    T_ASSERT(s_checked(accel));
    agent_accel_destroy(&accel);
}

static void
test_fragmentation_refused(void)
{
    agent_accel_t *accel = s_mock("devices=2");
    agent_accel_alloc_t alloc;
    bus_error_t err;
    T_EQ_INT(s_take(accel, "a", "cuda.shares", "0.6", &alloc, &err), BUS_OK);
    T_EQ_INT(s_take(accel, "b", "cuda.shares", "0.6", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.parts[0].device, 1);
    //  0.8 free in all, 0.4 on each: 0.5 fits no device
    T_EQ_INT(s_take(accel, "c", "cuda.shares", "0.5", &alloc, &err), BUS_STATUS_CONFLICT);
    T_EQ_INT(s_take(accel, "c", "cuda.shares", "0.8", &alloc, &err), BUS_STATUS_CONFLICT);
    T_EQ_INT(s_take(accel, "c", "cuda.shares", "1.2", &alloc, &err), BUS_STATUS_CONFLICT);
    T_EQ_INT(s_take(accel, "c", "cuda.device", "1", &alloc, &err), BUS_STATUS_CONFLICT);
    T_ASSERT(agent_accel_lookup(accel, "c") == NULL);
    T_EQ_INT(s_used(accel, "cuda.shares"), 1200);
    T_EQ_INT(s_take(accel, "c", "cuda.shares", "0.4", &alloc, &err), BUS_OK);
    T_EQ_INT(s_take(accel, "d", "cuda.shares", "0.4", &alloc, &err), BUS_OK);
    T_EQ_INT(s_used(accel, "cuda.shares"), 2000);
    T_ASSERT(s_checked(accel));
    agent_accel_destroy(&accel);
}

static void
test_whole_devices(void)
{
    agent_accel_t *accel = s_mock("devices=3");
    agent_accel_alloc_t alloc;
    bus_error_t err;
    T_EQ_INT(s_take(accel, "a", "cuda.device", "1.5", &alloc, &err), BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "whole number");
    T_EQ_INT(s_take(accel, "a", "cuda.device", "0.001", &alloc, &err),
             BUS_STATUS_INVALID);
    T_EQ_INT(s_take(accel, "a", "cuda.device", "4", &alloc, &err), BUS_STATUS_CONFLICT);
    T_EQ_INT(s_take(accel, "a", "cuda.shares", "0.1", &alloc, &err), BUS_OK); //  dev 0
    //  device 0 is busy with a share: only two whole devices are free
    T_EQ_INT(s_take(accel, "b", "cuda.device", "3", &alloc, &err), BUS_STATUS_CONFLICT);
    T_EQ_INT(s_take(accel, "b", "cuda.device", "1", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.count, 1);
    T_EQ_INT(alloc.parts[0].device, 1);
    T_EQ_INT(alloc.parts[0].amount, 1000);
    T_EQ_INT(s_used(accel, "cuda.device"), 1000);
    T_EQ_INT(s_used(accel, "cuda.shares"), 100);
    //  a device held whole gives no shares: 0.95 fits neither 0 (0.9) nor 1
    T_EQ_INT(s_take(accel, "c", "cuda.shares", "0.95", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.parts[0].device, 2);
    T_EQ_INT(s_take(accel, "d", "cuda.shares", "0.95", &alloc, &err),
             BUS_STATUS_CONFLICT);
    T_EQ_INT(s_take(accel, "d", "cuda.device", "1", &alloc, &err), BUS_STATUS_CONFLICT);
    T_ASSERT(agent_accel_release(accel, "b"));
    T_EQ_INT(s_take(accel, "d", "cuda.device", "1", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.parts[0].device, 1);
    T_ASSERT(s_checked(accel));
    agent_accel_destroy(&accel);
}

//  One device offered both ways (mode both): taken whole it has no shares
//  to give, and with shares in use it cannot be taken whole; what the
//  heartbeat reports as placeable says so, and fragmentation too.
static void
test_placeable_both(void)
{
    agent_accel_t *accel = s_mock("devices=1,memory=16g,mode=both");
    agent_accel_alloc_t alloc;
    bus_error_t err;
    T_EQ_INT(s_placeable(accel, "cuda.device"), 1000);
    T_EQ_INT(s_placeable(accel, "cuda.shares"), 1000);
    T_EQ_INT(s_take(accel, "a", "cuda.device", "1", &alloc, &err), BUS_OK);
    T_EQ_INT(s_placeable(accel, "cuda.device"), 0);
    T_EQ_INT(s_placeable(accel, "cuda.shares"), 0);
    T_EQ_INT(s_take(accel, "b", "cuda.shares", "0.5", &alloc, &err), BUS_STATUS_CONFLICT);
    T_CONTAINS(err.detail, "cuda.shares " BUS_SLOTS_NO_FIT);
    T_ASSERT(agent_accel_release(accel, "a"));
    T_EQ_INT(s_take(accel, "b", "cuda.shares", "0.5", &alloc, &err), BUS_OK);
    T_EQ_INT(s_placeable(accel, "cuda.device"), 0);
    T_EQ_INT(s_placeable(accel, "cuda.shares"), 500);
    T_EQ_INT(s_take(accel, "a", "cuda.device", "1", &alloc, &err), BUS_STATUS_CONFLICT);
    T_CONTAINS(err.detail, "cuda.device " BUS_SLOTS_NO_FIT);
    agent_accel_destroy(&accel);
    //  three devices, two of them half used: 0.5 on one, or 1.5 spanning
    accel = s_mock("devices=3,mode=both");
    T_EQ_INT(s_take(accel, "a", "cuda.shares", "0.5", &alloc, &err), BUS_OK);
    T_EQ_INT(s_take(accel, "b", "cuda.shares", "0.7", &alloc, &err), BUS_OK);
    T_EQ_INT(s_placeable(accel, "cuda.device"), 1000);
    T_EQ_INT(s_placeable(accel, "cuda.shares"), 1500);
    T_ASSERT(s_placeable_exact(accel, "cuda.shares", 1));
    T_ASSERT(s_placeable_exact(accel, "cuda.device", 1000));
    agent_accel_destroy(&accel);
}

static void
test_all_or_nothing(void)
{
    agent_accel_t *accel = s_mock("devices=2");
    agent_accel_alloc_t alloc;
    bus_error_t err;
    //  one whole device and 1.5 shares need three devices: nothing is taken
    proto_kv_t both[] = {
        {"cpu", "2"}, {"cuda.device", "1"}, {"mem", "4g"}, {"cuda.shares", "1.5"}};
    T_EQ_INT(agent_accel_allocate(accel, "a", both, 4, &alloc, &err),
             BUS_STATUS_CONFLICT);
    T_EQ_INT(s_used(accel, "cuda.device"), 0);
    T_EQ_INT(s_used(accel, "cuda.shares"), 0);
    T_ASSERT(agent_accel_lookup(accel, "a") == NULL);
    T_ASSERT(s_checked(accel));
    //  whole first, then the shares on what is left, whatever the map's order
    both[3].value = "0.5";
    T_EQ_INT(agent_accel_allocate(accel, "a", both, 4, &alloc, &err), BUS_OK);
    char *text = agent_accel_allocation_format(accel, &alloc);
    T_EQ_STR(text, "cuda.device:0=1000;cuda.shares:1=500");
    free(text);
    char **env = agent_accel_environ(accel, &alloc);
    T_EQ_STR(s_env(env, "CUDA_VISIBLE_DEVICES"), "0,1");
    T_EQ_STR(s_env(env, "BACKPLANE_MOCK_CUDA_VISIBLE_DEVICES"), "0,1");
    T_EQ_STR(s_env(env, "BACKPLANE_MOCK_CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), "50");
    T_EQ_STR(s_env(env, "BACKPLANE_MOCK_CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"), "1=8192M");
    agent_accel_strv_destroy(&env);
    //  the same kernel cannot take twice
    T_EQ_INT(agent_accel_allocate(accel, "a", both + 1, 1, &alloc, &err),
             BUS_STATUS_CONFLICT);
    T_ASSERT(agent_accel_release(accel, "a"));
    T_ASSERT(!agent_accel_release(accel, "a"));
    T_EQ_INT(s_used(accel, "cuda.device"), 0);
    T_EQ_INT(s_used(accel, "cuda.shares"), 0);
    T_ASSERT(s_checked(accel));
    agent_accel_destroy(&accel);
}

static void
test_request_values(void)
{
    agent_accel_t *accel = s_mock("devices=2,quantum=0.25");
    agent_accel_alloc_t alloc;
    bus_error_t err;
    proto_kv_t plain[] = {{"cpu", "2"}, {"mem", "4g"}, {"cuda.shares", NULL}};
    T_EQ_INT(agent_accel_allocate(accel, "a", plain, 3, &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.count, 0);
    T_ASSERT(agent_accel_lookup(accel, "a") == NULL);
    T_EQ_INT(s_take(accel, "a", "rocm.device", "1", &alloc, &err), BUS_STATUS_CONFLICT);
    T_CONTAINS(err.detail, "no rocm.device");
    T_EQ_INT(s_take(accel, "a", "rocm.device", "0", &alloc, &err), BUS_OK);
    const char *bad[] = {"abc", "-1", "inf", "0.3", "1.1", "", "0x1", "1,5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (s_take(accel, "a", "cuda.shares", bad[i], &alloc, &err) != BUS_STATUS_INVALID)
            T_FAIL_("accepted \"%s\"", bad[i]);
    T_EQ_INT(s_take(accel, "a", "cuda.shares", "0.75", &alloc, &err), BUS_OK);
    proto_kv_t twice[] = {{"cuda.shares", "0.25"}, {"cuda.shares", "0.25"}};
    T_EQ_INT(agent_accel_allocate(accel, "b", twice, 2, &alloc, &err),
             BUS_STATUS_INVALID);
    T_EQ_INT(s_used(accel, "cuda.shares"), 750);
    T_ASSERT(s_checked(accel));
    agent_accel_destroy(&accel);
}

static void
test_shares_per_device(void)
{
    agent_accel_t *accel = s_mock("devices=2,shares_per_device=2,memory=10g");
    agent_accel_alloc_t alloc;
    bus_error_t err;
    T_EQ_INT(s_take(accel, "a", "cuda.shares", "1", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.count, 1);
    char **env = agent_accel_environ(accel, &alloc);
    T_EQ_STR(s_env(env, "BACKPLANE_MOCK_CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), "50");
    T_EQ_STR(s_env(env, "BACKPLANE_MOCK_CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"), "0=5120M");
    agent_accel_strv_destroy(&env);
    //  2.5 with 1.0 used on device 0: the remainder there, device 1 whole
    T_EQ_INT(s_take(accel, "b", "cuda.shares", "2.5", &alloc, &err), BUS_OK);
    char *text = s_text(accel, "b");
    T_EQ_STR(text, "cuda.shares:0=500,1=2000");
    free(text);
    T_EQ_INT(s_used(accel, "cuda.shares"), 3500);
    //  a whole device is still one device
    T_ASSERT(agent_accel_release(accel, "b"));
    T_EQ_INT(s_take(accel, "c", "cuda.device", "1", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.parts[0].device, 1);
    T_EQ_INT(alloc.parts[0].amount, 1000);
    T_ASSERT(s_checked(accel));
    agent_accel_destroy(&accel);
}

static void
test_mock_environ(void)
{
    agent_accel_t *accel = s_mock("devices=2");
    agent_accel_alloc_t alloc;
    bus_error_t err;
    T_EQ_INT(s_take(accel, "a", "cuda.shares", "0.333", &alloc, &err), BUS_OK);
    char **env = agent_accel_environ(accel, &alloc);
    T_EQ_INT(s_strv_count(env), 4);
    T_EQ_STR(s_env(env, "CUDA_VISIBLE_DEVICES"), "0");
    T_EQ_STR(s_env(env, "BACKPLANE_MOCK_CUDA_VISIBLE_DEVICES"), "0");
    //  33.3 % rounds up; 16 GiB x 0.333 = 5455.87 MiB rounds down
    T_EQ_STR(s_env(env, "BACKPLANE_MOCK_CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), "34");
    T_EQ_STR(s_env(env, "BACKPLANE_MOCK_CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"), "0=5455M");
    T_ASSERT(s_env(env, "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE") == NULL);
    agent_accel_strv_destroy(&env);
    char **nodes = agent_accel_device_nodes(accel, &alloc);
    T_ASSERT(nodes);
    T_EQ_INT(s_strv_count(nodes), 0);
    agent_accel_strv_destroy(&nodes);
    agent_accel_strv_destroy(&nodes);
    //  spanning: the smallest percentage over the devices; the remainder goes
    //  to device 0 (equals: the lower), device 1 is whole
    T_ASSERT(agent_accel_release(accel, "a"));
    T_EQ_INT(s_take(accel, "b", "cuda.shares", "1.5", &alloc, &err), BUS_OK);
    env = agent_accel_environ(accel, &alloc);
    T_EQ_STR(s_env(env, "CUDA_VISIBLE_DEVICES"), "0,1");
    T_EQ_STR(s_env(env, "BACKPLANE_MOCK_CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), "50");
    T_EQ_STR(s_env(env, "BACKPLANE_MOCK_CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"),
             "0=8192M,1=16384M");
    agent_accel_strv_destroy(&env);
    //  whole devices only: no MPS limits
    T_ASSERT(agent_accel_release(accel, "b"));
    T_EQ_INT(s_take(accel, "c", "cuda.shares", "2", &alloc, &err), BUS_OK);
    env = agent_accel_environ(accel, &alloc);
    T_EQ_INT(s_strv_count(env), 2);
    T_EQ_STR(s_env(env, "CUDA_VISIBLE_DEVICES"), "0,1");
    agent_accel_strv_destroy(&env);
    //  nothing allocated: nothing given
    agent_accel_alloc_t none = {0};
    env = agent_accel_environ(accel, &none);
    T_ASSERT(env);
    T_EQ_INT(s_strv_count(env), 0);
    agent_accel_strv_destroy(&env);
    agent_accel_destroy(&accel);
}

//  A plugin in the CUDA flavour with fake GPUs, as agent_accel_cuda_new
//  builds one from NVML.
static agent_accel_t *
s_fake_cuda(void)
{
    static const char *const shared[] = {"/dev/nvidiactl", "/dev/nvidia-uvm", NULL};
    agent_accel_info_t info = {
        .name = "cuda",
        .visible_by_id = true,
        .node_prefix = "/dev/nvidia",
        .shared_nodes = shared,
        .shares_per_device = 1000,
        .quantum = 1,
    };
    agent_accel_plugin_t *plugin = agent_accel_plugin_new(&info);
    agent_accel_t *accel = agent_accel_new();
    if (!plugin || !accel)
        goto fail;
    if (agent_accel_plugin_add_slot(plugin, "cuda.device", AGENT_ACCEL_WHOLE) != 0 ||
        agent_accel_plugin_add_slot(plugin, "cuda.shares", AGENT_ACCEL_SHARES) != 0)
        goto fail;
    //  added out of index order, minors unlike indexes
    const struct {
        uint32_t index;
        int32_t minor;
        const char *id;
    } gpus[] = {{1, 3, "GPU-bbbb"}, {0, 2, "GPU-aaaa"}, {2, -1, "GPU-cccc"}};
    for (size_t i = 0; i < 3; i++) {
        agent_accel_device_t device = {
            .index = gpus[i].index, .minor = gpus[i].minor, .memory_bytes = 80 * GIB};
        snprintf(device.id, sizeof device.id, "%s", gpus[i].id);
        snprintf(device.model, sizeof device.model, "NVIDIA H100 80GB HBM3");
        if (agent_accel_plugin_add_device(plugin, &device) != 0)
            goto fail;
    }
    if (agent_accel_add(accel, &plugin, NULL) != BUS_OK)
        goto fail;
    return accel;
fail:
    agent_accel_plugin_destroy(&plugin);
    agent_accel_destroy(&accel);
    return NULL;
}

static void
test_cuda_environ(void)
{
    agent_accel_t *accel = s_fake_cuda();
    T_ASSERT(accel);
    agent_accel_alloc_t alloc;
    bus_error_t err;
    //  device position 0 is index 1: 0.25 goes there (lowest position first)
    T_EQ_INT(s_take(accel, "a", "cuda.shares", "0.25", &alloc, &err), BUS_OK);
    T_EQ_INT(s_take(accel, "b", "cuda.shares", "1.75", &alloc, &err), BUS_OK);
    char *text = agent_accel_allocation_format(accel, &alloc);
    //  the remainder on index 1 (0.75 free: best fit), index 0 whole
    T_EQ_STR(text, "cuda.shares:1=750,0=1000");
    free(text);
    char **env = agent_accel_environ(accel, &alloc);
    T_EQ_INT(s_strv_count(env), 3);
    //  by index order: index 0 (whole) first, then index 1
    T_EQ_STR(s_env(env, "CUDA_VISIBLE_DEVICES"), "GPU-aaaa,GPU-bbbb");
    T_EQ_STR(s_env(env, "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), "75");
    T_EQ_STR(s_env(env, "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"), "0=81920M,1=61440M");
    agent_accel_strv_destroy(&env);
    char **nodes = agent_accel_device_nodes(accel, &alloc);
    T_EQ_INT(s_strv_count(nodes), 4);
    T_EQ_STR(nodes[0], "/dev/nvidia2");
    T_EQ_STR(nodes[1], "/dev/nvidia3");
    T_EQ_STR(nodes[2], "/dev/nvidiactl");
    T_EQ_STR(nodes[3], "/dev/nvidia-uvm");
    agent_accel_strv_destroy(&nodes);
    //  a GPU without a minor number gets only the shared nodes
    T_EQ_INT(s_take(accel, "c", "cuda.device", "1", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.parts[0].device, 2);
    nodes = agent_accel_device_nodes(accel, &alloc);
    T_EQ_INT(s_strv_count(nodes), 2);
    T_EQ_STR(nodes[0], "/dev/nvidiactl");
    agent_accel_strv_destroy(&nodes);
    env = agent_accel_environ(accel, &alloc);
    T_EQ_INT(s_strv_count(env), 1);
    T_EQ_STR(s_env(env, "CUDA_VISIBLE_DEVICES"), "GPU-cccc");
    agent_accel_strv_destroy(&env);
    T_ASSERT(s_checked(accel));
    agent_accel_destroy(&accel);
}

static void
test_format_parse(void)
{
    agent_accel_t *accel = s_mock("devices=4");
    agent_accel_alloc_t alloc, back;
    bus_error_t err;
    proto_kv_t both[] = {{"cuda.shares", "2.25"}, {"cuda.device", "1"}};
    T_EQ_INT(agent_accel_allocate(accel, "a", both, 2, &alloc, &err), BUS_OK);
    char *text = agent_accel_allocation_format(accel, &alloc);
    T_EQ_STR(text, "cuda.device:0=1000;cuda.shares:1=250,2=1000,3=1000");
    T_EQ_INT(agent_accel_allocation_parse(accel, text, &back, &err), BUS_OK);
    T_EQ_INT(back.count, alloc.count);
    for (size_t i = 0; i < alloc.count; i++) { //  field by field: padding differs
        T_EQ_INT(back.parts[i].plugin, alloc.parts[i].plugin);
        T_EQ_INT(back.parts[i].slot, alloc.parts[i].slot);
        T_EQ_INT(back.parts[i].device, alloc.parts[i].device);
        T_EQ_INT(back.parts[i].amount, alloc.parts[i].amount);
    }
    free(text);
    agent_accel_alloc_t none = {0};
    text = agent_accel_allocation_format(accel, &none);
    T_EQ_STR(text, "");
    free(text);
    T_EQ_INT(agent_accel_allocation_parse(accel, "", &back, &err), BUS_OK);
    T_EQ_INT(back.count, 0);
    //  any order in, sorted out
    T_EQ_INT(agent_accel_allocation_parse(accel, "cuda.shares:3=5,0=7;cuda.device:1=1000",
                                          &back, &err),
             BUS_OK);
    text = agent_accel_allocation_format(accel, &back);
    T_EQ_STR(text, "cuda.device:1=1000;cuda.shares:0=7,3=5");
    free(text);
    const char *bad[] = {"cuda.shares",
                         "cuda.shares:",
                         "cuda.shares:0",
                         "cuda.shares:0=",
                         "cuda.shares:=5",
                         "cuda.shares:0=0",
                         "cuda.shares:0=1001",
                         "cuda.shares:4=100",
                         "cuda.shares:-1=5",
                         "cuda.shares:0=-5",
                         "cuda.shares:0=+5",
                         "cuda.shares:0=1,0=2",
                         "cuda.shares:0=1;",
                         ";cuda.shares:0=1",
                         "cuda.shares:0=1,",
                         "cuda.shares:0=1 ",
                         " cuda.shares:0=1",
                         "cuda.shares:0=1;;cuda.device:1=1000",
                         "cuda.shares:0=1:2",
                         "cuda.shares:0=99999999999999999999",
                         "cuda.shares:4294967296=1",
                         "cuda.device:0=500",
                         "cuda.device:0=2000",
                         "rocm.device:0=1000",
                         ":0=1",
                         "cuda:0=500",
                         "cuda.shares:0x1=5",
                         "cuda.shares:0=1.5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err.status = BUS_OK;
        if (agent_accel_allocation_parse(accel, bad[i], &back, &err) !=
            BUS_STATUS_INVALID)
            T_FAIL_("accepted \"%s\"", bad[i]);
        T_EQ_INT(err.status, BUS_STATUS_INVALID);
    }
    T_EQ_INT(agent_accel_allocation_parse(accel, NULL, &back, &err), BUS_STATUS_INVALID);
    char *longer = malloc(AGENT_ACCEL_TEXT_MAX + 16);
    T_ASSERT(longer);
    strcpy(longer, "cuda.shares:0=1");
    memset(longer + 15, '0', AGENT_ACCEL_TEXT_MAX);
    longer[AGENT_ACCEL_TEXT_MAX + 15] = '\0';
    T_EQ_INT(agent_accel_allocation_parse(accel, longer, &back, &err),
             BUS_STATUS_INVALID);
    free(longer);
    agent_accel_destroy(&accel);
}

static void
test_restore(void)
{
    agent_accel_t *accel = s_mock("devices=3");
    agent_accel_alloc_t alloc;
    bus_error_t err;
    T_EQ_INT(s_take(accel, "a", "cuda.shares", "0.5", &alloc, &err), BUS_OK);
    T_EQ_INT(s_take(accel, "b", "cuda.shares", "1.25", &alloc, &err), BUS_OK);
    T_EQ_INT(s_take(accel, "c", "cuda.device", "1", &alloc, &err), BUS_OK);
    char *texts[3] = {s_text(accel, "a"), s_text(accel, "b"), s_text(accel, "c")};
    T_ASSERT(texts[0] && texts[1] && texts[2]);
    const char *kernels[3] = {"a", "b", "c"};
    //  the agent restarts: a fresh allocator takes the same parts back
    agent_accel_t *again = s_mock("devices=3");
    for (size_t i = 0; i < 3; i++)
        T_EQ_INT(agent_accel_restore(again, kernels[i], texts[i], &err), BUS_OK);
    T_EQ_INT(s_used(again, "cuda.shares"), s_used(accel, "cuda.shares"));
    T_EQ_INT(s_used(again, "cuda.device"), s_used(accel, "cuda.device"));
    for (size_t i = 0; i < 3; i++) {
        char *text = s_text(again, kernels[i]);
        T_EQ_STR(text, texts[i]);
        free(text);
    }
    T_ASSERT(s_checked(again));
    //  twice, or parts that no longer fit: refused, nothing changes
    T_EQ_INT(agent_accel_restore(again, "a", texts[0], &err), BUS_STATUS_CONFLICT);
    T_EQ_INT(agent_accel_restore(again, "d", texts[2], &err), BUS_STATUS_CONFLICT);
    T_EQ_INT(agent_accel_restore(again, "d", "cuda.shares:2=1", &err),
             BUS_STATUS_CONFLICT);
    T_EQ_INT(agent_accel_restore(again, "d", "cuda.shares:0=250,1=1", &err),
             BUS_STATUS_CONFLICT); //  0 fits, 1 does not: 0 given back
    T_EQ_INT(agent_accel_restore(again, "d", "cuda.shares:7=1", &err),
             BUS_STATUS_INVALID);
    T_ASSERT(agent_accel_lookup(again, "d") == NULL);
    T_EQ_INT(s_used(again, "cuda.shares"), 1750);
    T_EQ_INT(agent_accel_restore(again, "d", "cuda.shares:0=250", &err), BUS_OK);
    T_EQ_INT(agent_accel_restore(again, "e", "", &err), BUS_OK);
    T_ASSERT(agent_accel_lookup(again, "e") == NULL);
    T_ASSERT(s_checked(again));
    //  a restored allocation is released like any other
    T_ASSERT(agent_accel_release(again, "b"));
    T_EQ_INT(s_used(again, "cuda.shares"), 750);
    T_ASSERT(s_checked(again));
    for (size_t i = 0; i < 3; i++)
        free(texts[i]);
    agent_accel_destroy(&again);
    agent_accel_destroy(&accel);
}

static void
test_add_conflicts(void)
{
    agent_accel_t *accel = s_mock("");
    bus_error_t err;
    agent_accel_mock_config_t config;
    agent_accel_mock_config_init(&config);
    agent_accel_plugin_t *plugin = agent_accel_mock_new(&config, &err);
    T_EQ_INT(agent_accel_add(accel, &plugin, &err), BUS_STATUS_CONFLICT);
    T_ASSERT(plugin); //  still the caller's
    agent_accel_plugin_destroy(&plugin);
    agent_accel_plugin_destroy(&plugin);
    agent_accel_info_t info = {.name = "other", .shares_per_device = 1000, .quantum = 1};
    plugin = agent_accel_plugin_new(&info);
    T_EQ_INT(agent_accel_plugin_add_slot(plugin, "cuda.shares", AGENT_ACCEL_SHARES), 0);
    T_EQ_INT(agent_accel_plugin_add_slot(plugin, "cuda.shares", AGENT_ACCEL_SHARES), -1);
    T_EQ_INT(agent_accel_plugin_add_slot(plugin, "mem", AGENT_ACCEL_SHARES), -1);
    T_EQ_INT(agent_accel_add(accel, &plugin, &err), BUS_STATUS_CONFLICT);
    T_CONTAINS(err.detail, "declared by plugin mock");
    agent_accel_device_t device = {.index = 0, .minor = -1};
    snprintf(device.id, sizeof device.id, "x");
    T_EQ_INT(agent_accel_plugin_add_device(plugin, &device), 0);
    T_EQ_INT(agent_accel_plugin_add_device(plugin, &device), -1);
    device.index = 1;
    T_EQ_INT(agent_accel_plugin_add_device(plugin, &device), -1); //  same id
    agent_accel_plugin_destroy(&plugin);
    //  a CUDA plugin without NVML declares nothing, so it sits next to the mock
    agent_accel_cuda_config_t cuda;
    agent_accel_cuda_config_init(&cuda);
    cuda.library = "libnvidia-ml-backplane-absent.so.1";
    plugin = agent_accel_cuda_new(&cuda);
    T_ASSERT(plugin);
    T_EQ_INT(agent_accel_add(accel, &plugin, &err), BUS_OK);
    T_EQ_INT(agent_accel_plugin_count(accel), 2);
    T_EQ_INT(agent_accel_slots(accel, NULL, 0), 2);
    agent_accel_destroy(&accel);
}

static void
test_cuda_without_nvml(void)
{
    agent_accel_cuda_config_t config;
    agent_accel_cuda_config_init(&config);
    T_EQ_STR(config.library, "libnvidia-ml.so.1");
    config.library = "libnvidia-ml-backplane-absent.so.1";
    agent_accel_plugin_t *plugin = agent_accel_cuda_new(&config);
    T_ASSERT(plugin);
    T_EQ_STR(agent_accel_plugin_name(plugin), "cuda");
    T_EQ_INT(agent_accel_plugin_device_count(plugin), 0);
    T_EQ_INT(agent_accel_plugin_slot_count(plugin), 0);
    agent_accel_t *accel = agent_accel_new();
    bus_error_t err;
    T_EQ_INT(agent_accel_add(accel, &plugin, &err), BUS_OK);
    T_EQ_INT(agent_accel_slots(accel, NULL, 0), 0);
    agent_accel_alloc_t alloc;
    T_EQ_INT(s_take(accel, "a", "cuda.shares", "0.5", &alloc, &err), BUS_STATUS_CONFLICT);
    T_EQ_INT(s_take(accel, "a", "cuda.device", "1", &alloc, &err), BUS_STATUS_CONFLICT);
    T_EQ_INT(s_take(accel, "a", "cpu", "1", &alloc, &err), BUS_OK);
    T_EQ_INT(alloc.count, 0);
    T_EQ_INT(agent_accel_restore(accel, "b", "cuda.shares:0=1", &err),
             BUS_STATUS_INVALID);
    agent_accel_destroy(&accel);
    //  a library that is there but is not NVML
    config.library = "libc.so.6";
    plugin = agent_accel_cuda_new(&config);
    T_ASSERT(plugin);
    T_EQ_INT(agent_accel_plugin_device_count(plugin), 0);
    T_EQ_INT(agent_accel_plugin_slot_count(plugin), 0);
    agent_accel_plugin_destroy(&plugin);
    config.quantum = 3; //  does not divide 1000
    T_ASSERT(agent_accel_cuda_new(&config) == NULL);
}

//  With the real library: nothing on a machine without GPUs, sane devices on
//  one with them.
static void
test_cuda_discovery(void)
{
    agent_accel_cuda_config_t config;
    agent_accel_cuda_config_init(&config);
    config.mode = AGENT_ACCEL_MODE_SHARES;
    agent_accel_plugin_t *plugin = agent_accel_cuda_new(&config);
    T_ASSERT(plugin);
    size_t count = agent_accel_plugin_device_count(plugin);
    printf("# cuda: %zu GPUs\n", count);
    T_EQ_INT(agent_accel_plugin_slot_count(plugin), count ? 1 : 0);
    for (size_t i = 0; i < count; i++) {
        const agent_accel_device_t *device = agent_accel_plugin_device(plugin, i);
        printf("# gpu index=%" PRIu32 " minor=%" PRId32 " id=%s model=\"%s\""
               " memory=%" PRId64 "\n",
               device->index, device->minor, device->id, device->model,
               device->memory_bytes);
        T_EQ_INT(device->index, i);
        T_ASSERT(strncmp(device->id, "GPU-", 4) == 0 ||
                 strncmp(device->id, "MIG-", 4) == 0);
        T_ASSERT(*device->model);
        T_ASSERT(device->memory_bytes > 0);
    }
    agent_accel_t *accel = agent_accel_new();
    bus_error_t err;
    T_EQ_INT(agent_accel_add(accel, &plugin, &err), BUS_OK);
    if (count > 0) {
        agent_accel_alloc_t alloc;
        T_EQ_INT(s_take(accel, "a", "cuda.shares", "0.5", &alloc, &err), BUS_OK);
        char **env = agent_accel_environ(accel, &alloc);
        char **nodes = agent_accel_device_nodes(accel, &alloc);
        for (size_t i = 0; env && env[i]; i++)
            printf("# env %s\n", env[i]);
        for (size_t i = 0; nodes && nodes[i]; i++)
            printf("# node %s%s\n", nodes[i],
                   access(nodes[i], F_OK) == 0 ? "" : " (absent)");
        T_EQ_STR(s_env(env, "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), "50");
        T_EQ_STR(s_env(env, "CUDA_VISIBLE_DEVICES"),
                 agent_accel_plugin_device(agent_accel_plugin(accel, 0), 0)->id);
        agent_accel_strv_destroy(&env);
        agent_accel_strv_destroy(&nodes);
    }
    agent_accel_destroy(&accel);
}

//  A deterministic generator for the invariant loop.
static uint64_t s_seed = 0x9e3779b97f4a7c15ULL;

static uint32_t
s_random(uint32_t below)
{
    s_seed ^= s_seed << 13;
    s_seed ^= s_seed >> 7;
    s_seed ^= s_seed << 17;
    return (uint32_t) (s_seed % below);
}

#define LOOP_KERNELS 24
#define LOOP_STEPS   20000

static void
test_invariant_loop(void)
{
    agent_accel_t *accel = s_mock("devices=4,shares_per_device=1");
    T_ASSERT(accel);
    const agent_accel_plugin_t *plugin = agent_accel_plugin(accel, 0);
    static const int64_t picks[] = {1, 250, 333, 500, 999, 1000, 1001, 1500, 2000, 2999};
    size_t placed = 0, refused = 0;
    for (int step = 0; step < LOOP_STEPS; step++) {
        char kernel[16];
        snprintf(kernel, sizeof kernel, "k%u", s_random(LOOP_KERNELS));
        bus_error_t err;
        if (agent_accel_lookup(accel, kernel)) {
            T_ASSERT(agent_accel_release(accel, kernel));
        } else {
            //  the model before: per device, shares in use and held whole
            int64_t used[AGENT_ACCEL_DEVICES_MAX] = {0};
            bool whole[AGENT_ACCEL_DEVICES_MAX] = {false};
            for (uint32_t k = 0; k < LOOP_KERNELS; k++) {
                char name[16];
                snprintf(name, sizeof name, "k%u", k);
                const agent_accel_alloc_t *held = agent_accel_lookup(accel, name);
                for (size_t i = 0; held && i < held->count; i++) {
                    if (held->parts[i].slot == 0)
                        whole[held->parts[i].device] = true;
                    else
                        used[held->parts[i].device] += held->parts[i].amount;
                }
            }
            bool device = s_random(4) == 0;
            int64_t amount = device        ? 1000 * (1 + (int64_t) s_random(2))
                             : s_random(2) ? picks[s_random(10)]
                                           : 1 + (int64_t) s_random(3500);
            char value[BUS_SLOTS_VALUE_MAX];
            bus_slots_format_value(BUS_SLOTS_COUNT, &(bus_slots_value_t){false, amount},
                                   value);
            agent_accel_alloc_t alloc;
            int rc = s_take(accel, kernel, device ? "cuda.device" : "cuda.shares", value,
                            &alloc, &err);
            T_ASSERT(rc == BUS_OK || rc == BUS_STATUS_CONFLICT);
            int64_t most = 0, most_in_use = 0, untouched = 0;
            for (size_t d = 0; d < agent_accel_plugin_device_count(plugin); d++) {
                int64_t room = whole[d] ? 0 : 1000 - used[d];
                most = room > most ? room : most;
                if (!whole[d] && used[d] > 0 && room > most_in_use)
                    most_in_use = room;
                untouched += !whole[d] && used[d] == 0;
            }
            if (rc == BUS_OK) {
                placed++;
                int64_t sum = 0;
                for (size_t i = 0; i < alloc.count; i++) {
                    const agent_accel_part_t *part = &alloc.parts[i];
                    T_ASSERT(part->amount > 0 && part->amount <= 1000);
                    T_ASSERT(!whole[part->device]);
                    T_ASSERT(used[part->device] + part->amount <= 1000);
                    T_ASSERT(!device || used[part->device] == 0);
                    sum += part->amount;
                }
                T_EQ_INT(sum, amount);
                if (!device && amount <= 1000)
                    T_EQ_INT(alloc.count, 1);
            } else {
                refused++;
                //  refusals are right: a share that fits one device had no
                //  device with room; whole devices had too few untouched
                if (!device && amount <= 1000)
                    T_ASSERT(most < amount);
                int64_t wanted = amount / 1000, rest = amount % 1000;
                if (device)
                    T_ASSERT(untouched < wanted);
                //  spanning fits when the remainder has a device in use with
                //  room and enough untouched are left, or one more untouched
                if (!device && amount > 1000)
                    T_ASSERT(!(rest == 0 ? untouched >= wanted
                                         : (most_in_use >= rest && untouched >= wanted) ||
                                               untouched >= wanted + 1));
            }
        }
        //  after every step: no device over, the sums agree, and what the
        //  heartbeat says one kernel could be given is exactly that
        T_ASSERT(s_checked(accel));
        T_ASSERT(s_placeable_exact(accel, "cuda.shares", 1));
        T_ASSERT(s_placeable_exact(accel, "cuda.device", 1000));
        int64_t shares = s_used(accel, "cuda.shares");
        T_ASSERT(shares >= 0 && shares <= 4000);
        T_ASSERT(s_used(accel, "cuda.device") <= 4000);
    }
    printf("# invariant loop: %zu placed, %zu refused\n", placed, refused);
    T_ASSERT(placed > LOOP_STEPS / 10 && refused > LOOP_STEPS / 50);
    for (uint32_t k = 0; k < LOOP_KERNELS; k++) {
        char name[16];
        snprintf(name, sizeof name, "k%u", k);
        agent_accel_release(accel, name);
    }
    T_EQ_INT(s_used(accel, "cuda.shares"), 0);
    T_EQ_INT(s_used(accel, "cuda.device"), 0);
    agent_accel_destroy(&accel);
}

//  The container side of an allocation: device nodes in config.json.
static void
test_bundle_devices(void)
{
    bus_error_t err;
    agent_bundle_device_t devices[2];
    T_EQ_INT(agent_bundle_device("/dev/null", &devices[0], &err), BUS_OK);
    T_EQ_INT(devices[0].type, 'c');
    T_EQ_INT(devices[0].major, 1);
    T_EQ_INT(devices[0].minor, 3);
    T_EQ_INT(agent_bundle_device("/dev/nvidia-none", &devices[1], &err),
             BUS_STATUS_NOT_FOUND);
    T_EQ_INT(agent_bundle_device("/etc", &devices[1], &err), BUS_STATUS_INVALID);
    T_EQ_INT(agent_bundle_device("dev/null", &devices[1], &err), BUS_STATUS_INVALID);
    T_EQ_INT(agent_bundle_device("/dev/zero", &devices[1], &err), BUS_OK);
    const char *args[] = {"/bin/sh", NULL};
    agent_kernel_spec_t spec = {.kernel_id = "k1",
                                .image_rootfs = "/r",
                                .args = args,
                                .devices = devices,
                                .device_count = 2};
    json_t *config = agent_bundle_config(&spec, "/r", "/run", &err);
    T_ASSERT(config != NULL);
    char *text = json_dumps(json_object_get(config, "linux"), JSON_COMPACT);
    T_CONTAINS(text, "\"devices\":[{\"path\":\"/dev/null\",\"type\":\"c\","
                     "\"major\":1,\"minor\":3,\"fileMode\":438,\"uid\":0,\"gid\":0},"
                     "{\"path\":\"/dev/zero\"");
    T_CONTAINS(text, "\"devices\":[{\"allow\":false,\"access\":\"rwm\"},{\"allow\":true,"
                     "\"type\":\"c\",\"major\":1,\"minor\":3,\"access\":\"rwm\"}");
    free(text);
    json_decref(config);
    //  No devices: no device rules at all (runc's defaults stand).
    spec.device_count = 0;
    config = agent_bundle_config(&spec, "/r", "/run", &err);
    text = json_dumps(config, JSON_COMPACT);
    T_ASSERT(text && !strstr(text, "\"devices\""));
    free(text);
    json_decref(config);
    //  A node the config cannot hold is refused.
    devices[1].type = 'p';
    spec.device_count = 2;
    T_ASSERT(!agent_bundle_config(&spec, "/r", "/run", &err));
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
}

int
main(void)
{
    bus_log_set_level(BUS_LOG_WARNING);
    T_RUN(test_mock_config);
    T_RUN(test_slots_reported);
    T_RUN(test_exact_fit_and_one_over);
    T_RUN(test_smallest_share);
    T_RUN(test_best_fit);
    T_RUN(test_span_with_remainder);
    T_RUN(test_fragmentation_refused);
    T_RUN(test_whole_devices);
    T_RUN(test_placeable_both);
    T_RUN(test_all_or_nothing);
    T_RUN(test_request_values);
    T_RUN(test_shares_per_device);
    T_RUN(test_mock_environ);
    T_RUN(test_cuda_environ);
    T_RUN(test_format_parse);
    T_RUN(test_restore);
    T_RUN(test_add_conflicts);
    T_RUN(test_cuda_without_nvml);
    T_RUN(test_cuda_discovery);
    T_RUN(test_invariant_loop);
    T_RUN(test_bundle_devices);
    return T_DONE();
}
