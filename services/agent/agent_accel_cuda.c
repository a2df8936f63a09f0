/*  =========================================================================
    agent_accel_cuda - NVIDIA GPUs found through NVML

    The CUDA plugin opens libnvidia-ml.so.1 at run time (no build-time
    dependency: the few NVML types and prototypes it calls are declared
    here, as the NVML API documents them), lists the GPUs with their UUID,
    name, memory and minor number, and shuts NVML down again: allocation
    needs no driver calls. Without the library, or when nvmlInit fails (no
    driver, no GPU), the plugin has no devices and declares no slots, and
    one notice says why. A GPU that cannot be read is left out with a
    warning. Containers see their GPUs by UUID in CUDA_VISIBLE_DEVICES, which
    NVIDIA recommends with MPS because indexes are renumbered inside a
    container and by an MPS server, and get /dev/nvidia<minor>,
    /dev/nvidiactl and /dev/nvidia-uvm.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <dlfcn.h> //  dlopen of NVML at run time

//  NVML's own declarations (nvml.h), only what is called here.
#define NVML_SUCCESS_          0
#define NVML_NAME_BUFFER_SIZE_ 96          //  NVML_DEVICE_NAME_V2_BUFFER_SIZE
#define NVML_UUID_BUFFER_SIZE_ 96          //  NVML_DEVICE_UUID_V2_BUFFER_SIZE
typedef int nvml_return_t;                 //  nvmlReturn_t
typedef struct nvml_device *nvml_device_t; //  nvmlDevice_t, opaque
typedef struct {
    unsigned long long total; //  bytes
    unsigned long long free;
    unsigned long long used;
} nvml_memory_t; //  nvmlMemory_t

typedef struct {
    nvml_return_t (*init)(void);
    nvml_return_t (*shutdown)(void);
    const char *(*error_string)(nvml_return_t);
    nvml_return_t (*count)(unsigned int *);
    nvml_return_t (*handle)(unsigned int, nvml_device_t *);
    nvml_return_t (*name)(nvml_device_t, char *, unsigned int);
    nvml_return_t (*uuid)(nvml_device_t, char *, unsigned int);
    nvml_return_t (*memory)(nvml_device_t, nvml_memory_t *);
    nvml_return_t (*minor)(nvml_device_t, unsigned int *);
} s_nvml_t;

static const char *const s_shared_nodes[] = {"/dev/nvidiactl", "/dev/nvidia-uvm", NULL};

void
agent_accel_cuda_config_init(agent_accel_cuda_config_t *config)
{
    assert(config);
    *config = (agent_accel_cuda_config_t){
        .library = AGENT_ACCEL_NVML_LIBRARY,
        .shares_per_device = AGENT_ACCEL_SHARES_DEFAULT,
        .quantum = AGENT_ACCEL_QUANTUM_DEFAULT,
        .mode = AGENT_ACCEL_MODE_BOTH,
    };
}

//  dlsym into a function pointer (POSIX guarantees the conversion works).
static bool
s_symbol(void *library, const char *name, void *fn_p, size_t size)
{
    void *symbol = dlsym(library, name);
    if (!symbol)
        return false;
    assert(size == sizeof symbol);
    memcpy(fn_p, &symbol, size);
    return true;
}

#define S_SYMBOL(lib, name, field) s_symbol((lib), (name), &(field), sizeof(field))

static const char *
s_error(const s_nvml_t *nvml, nvml_return_t rc)
{
    const char *text = nvml->error_string ? nvml->error_string(rc) : NULL;
    return text ? text : "unknown NVML error";
}

//  Reads GPU i into device. False (with a warning) when NVML cannot.
static bool
s_read_device(const s_nvml_t *nvml, unsigned int i, agent_accel_device_t *device)
{
    nvml_device_t handle;
    nvml_memory_t memory;
    unsigned int minor = 0;
    char name[NVML_NAME_BUFFER_SIZE_] = "";
    char uuid[NVML_UUID_BUFFER_SIZE_] = "";
    nvml_return_t rc = nvml->handle(i, &handle);
    if (rc == NVML_SUCCESS_)
        rc = nvml->uuid(handle, uuid, sizeof uuid);
    if (rc == NVML_SUCCESS_)
        rc = nvml->name(handle, name, sizeof name);
    if (rc == NVML_SUCCESS_)
        rc = nvml->memory(handle, &memory);
    if (rc != NVML_SUCCESS_) {
        bus_log_warning("cuda: GPU left out index=%u detail=\"%s\"", i,
                        s_error(nvml, rc));
        return false;
    }
    uuid[sizeof uuid - 1] = '\0';
    name[sizeof name - 1] = '\0';
    *device = (agent_accel_device_t){.index = i, .minor = -1};
    //  No minor number (some virtual GPUs): no device node to give.
    if (nvml->minor(handle, &minor) == NVML_SUCCESS_ && minor <= INT32_MAX)
        device->minor = (int32_t) minor;
    snprintf(device->id, sizeof device->id, "%s", uuid);
    snprintf(device->model, sizeof device->model, "%s", name);
    device->memory_bytes = memory.total > (unsigned long long) INT64_MAX
                               ? INT64_MAX
                               : (int64_t) memory.total;
    return true;
}

//  Adds the GPUs NVML lists in library to self; logs one notice when there is
//  no NVML to ask.
static void
s_discover(agent_accel_plugin_t *self, const char *library)
{
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        bus_log_notice("cuda: no NVML, no GPUs offered library=%s detail=\"%s\"", library,
                       why ? why : "");
        return;
    }
    s_nvml_t nvml;
    memset(&nvml, 0, sizeof nvml);
    S_SYMBOL(handle, "nvmlErrorString", nvml.error_string);
    if (!S_SYMBOL(handle, "nvmlInit_v2", nvml.init) ||
        !S_SYMBOL(handle, "nvmlShutdown", nvml.shutdown) ||
        !S_SYMBOL(handle, "nvmlDeviceGetCount_v2", nvml.count) ||
        !S_SYMBOL(handle, "nvmlDeviceGetHandleByIndex_v2", nvml.handle) ||
        !S_SYMBOL(handle, "nvmlDeviceGetName", nvml.name) ||
        !S_SYMBOL(handle, "nvmlDeviceGetUUID", nvml.uuid) ||
        !S_SYMBOL(handle, "nvmlDeviceGetMemoryInfo", nvml.memory) ||
        !S_SYMBOL(handle, "nvmlDeviceGetMinorNumber", nvml.minor)) {
        bus_log_notice("cuda: NVML lacks a function, no GPUs offered library=%s",
                       library);
        dlclose(handle);
        return;
    }
    nvml_return_t rc = nvml.init();
    if (rc != NVML_SUCCESS_) {
        bus_log_notice("cuda: nvmlInit failed, no GPUs offered detail=\"%s\"",
                       s_error(&nvml, rc));
        dlclose(handle);
        return;
    }
    unsigned int count = 0;
    rc = nvml.count(&count);
    if (rc != NVML_SUCCESS_)
        bus_log_notice("cuda: cannot count GPUs, none offered detail=\"%s\"",
                       s_error(&nvml, rc));
    for (unsigned int i = 0; rc == NVML_SUCCESS_ && i < count; i++) {
        agent_accel_device_t device;
        if (s_read_device(&nvml, i, &device) &&
            agent_accel_plugin_add_device(self, &device) != 0)
            bus_log_warning("cuda: GPU left out index=%u id=%s (duplicate or too many)",
                            i, device.id);
    }
    nvml.shutdown();
    dlclose(handle);
}

agent_accel_plugin_t *
agent_accel_cuda_new(const agent_accel_cuda_config_t *config)
{
    assert(config);
    if (config->shares_per_device <= 0 ||
        config->shares_per_device > AGENT_ACCEL_SHARES_MAX || config->quantum <= 0 ||
        config->shares_per_device % config->quantum != 0) {
        bus_log_error("cuda: shares_per_device must be 0.001..%lld and a multiple of"
                      " quantum",
                      AGENT_ACCEL_SHARES_MAX / BUS_SLOTS_COUNT_SCALE);
        return NULL;
    }
    agent_accel_info_t info = {
        .name = "cuda",
        .visible_by_id = true,
        .node_prefix = "/dev/nvidia",
        .shared_nodes = s_shared_nodes,
        .shares_per_device = config->shares_per_device,
        .quantum = config->quantum,
    };
    agent_accel_plugin_t *self = agent_accel_plugin_new(&info);
    if (!self)
        return NULL;
    s_discover(self, config->library ? config->library : AGENT_ACCEL_NVML_LIBRARY);
    if (agent_accel_plugin_device_count(self) == 0)
        return self; //  no devices: no slots
    int rc = 0;
    if (config->mode != AGENT_ACCEL_MODE_SHARES)
        rc |= agent_accel_plugin_add_slot(self, "cuda.device", AGENT_ACCEL_WHOLE);
    if (config->mode != AGENT_ACCEL_MODE_DEVICE)
        rc |= agent_accel_plugin_add_slot(self, "cuda.shares", AGENT_ACCEL_SHARES);
    assert(rc == 0);
    (void) rc;
    bus_log_notice("cuda: %zu GPUs offered", agent_accel_plugin_device_count(self));
    return self;
}
