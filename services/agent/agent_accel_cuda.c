/*  =========================================================================
    agent_accel_cuda - NVIDIA GPUs found through NVML

    The CUDA plugin opens libnvidia-ml.so.1 (accelerators.cuda_nvml_library)
    at run time (no build-time dependency: the few NVML types and prototypes
    it calls are declared here, as NVML's nvml.h declares them), lists the
    GPUs with their UUID, name, memory and minor number, and reads the
    driver's version. Without the library, or when nvmlInit fails (no
    driver, no GPU), the plugin has no devices and declares no slots, one
    notice says why, and NVML is shut down and closed at once. With GPUs
    NVML stays initialised in the plugin's state until the plugin is
    destroyed (the agent's stop): nvmlInit costs far more than the reads the
    stats timer and the heartbeat make every few seconds, which are each a
    driver call per GPU (utilization, memory, compute processes and their
    SM samples). A GPU that cannot be read is left out with a warning.
    Containers see their GPUs by UUID in CUDA_VISIBLE_DEVICES, which NVIDIA
    recommends with MPS because indexes are renumbered inside a container
    and by an MPS server, and get /dev/nvidia<minor>, /dev/nvidiactl and
    /dev/nvidia-uvm.

    The functions for figures are optional: a driver without them (older
    than r470's _v3 process list) still offers its GPUs, and its figures
    read 0.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <dlfcn.h> //  dlopen of NVML at run time

//  NVML's own declarations (nvml.h), only what is called here.
#define NVML_SUCCESS_             0
#define NVML_ERROR_NOT_FOUND_     6
#define NVML_NAME_BUFFER_SIZE_    96 //  NVML_DEVICE_NAME_V2_BUFFER_SIZE
#define NVML_UUID_BUFFER_SIZE_    96 //  NVML_DEVICE_UUID_V2_BUFFER_SIZE
#define NVML_VALUE_NOT_AVAILABLE_ (~0ULL)
typedef int nvml_return_t;                 //  nvmlReturn_t
typedef struct nvml_device *nvml_device_t; //  nvmlDevice_t, opaque
typedef struct {
    unsigned long long total; //  bytes
    unsigned long long free;
    unsigned long long used;
} nvml_memory_t; //  nvmlMemory_t
typedef struct {
    unsigned int gpu;    //  percent of the sample period a kernel ran
    unsigned int memory; //  percent of it the memory was read or written
} nvml_utilization_t;    //  nvmlUtilization_t
typedef struct {
    unsigned int pid;
    unsigned long long used_memory; //  usedGpuMemory, bytes or NOT_AVAILABLE
    unsigned int gpu_instance;      //  MIG ids, 0xFFFFFFFF without MIG
    unsigned int compute_instance;
} nvml_process_t; //  nvmlProcessInfo_t (_v2), what the _v3 calls fill
typedef struct {
    unsigned int pid;
    unsigned long long timestamp; //  CPU time of the sample, µs
    unsigned int sm;              //  percent
    unsigned int memory;
    unsigned int encoder;
    unsigned int decoder;
} nvml_sample_t; //  nvmlProcessUtilizationSample_t

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
    //  Optional: without them the figures read 0.
    nvml_return_t (*driver)(char *, unsigned int);
    nvml_return_t (*utilization)(nvml_device_t, nvml_utilization_t *);
    nvml_return_t (*processes)(nvml_device_t, unsigned int *, nvml_process_t *);
    //  MPS clients (Volta and later): listed apart from the compute processes,
    //  and they are what kernels holding a fraction run.
    nvml_return_t (*mps_processes)(nvml_device_t, unsigned int *, nvml_process_t *);
    nvml_return_t (*samples)(nvml_device_t,
                             nvml_sample_t *,
                             unsigned int *,
                             unsigned long long);
} s_nvml_t;

//  The plugin's state while it has GPUs: NVML open and initialised.
typedef struct {
    void *library; //  dlopen handle
    s_nvml_t nvml;
    char driver[AGENT_ACCEL_DRIVER_MAX];              //  "" when NVML did not say
    nvml_device_t handles[AGENT_ACCEL_DEVICES_MAX];   //  by the plugin's position
    unsigned long long seen[AGENT_ACCEL_DEVICES_MAX]; //  the newest SM sample read
    nvml_process_t infos[AGENT_ACCEL_PROCESSES_MAX];  //  one GPU's, while reading
    nvml_sample_t samples[AGENT_ACCEL_PROCESSES_MAX];
} s_cuda_t;

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

//  Reads GPU i into device and its handle. False (with a warning) when NVML
//  cannot.
static bool
s_read_device(const s_nvml_t *nvml,
              unsigned int i,
              agent_accel_device_t *device,
              nvml_device_t *handle_p)
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
    *handle_p = handle;
    return true;
}

//  Shuts NVML down and closes it (the plugin's state destructor).
static void
s_cuda_destroy(void *state)
{
    s_cuda_t *cuda = state;
    if (!cuda)
        return;
    nvml_return_t rc = cuda->nvml.shutdown();
    if (rc != NVML_SUCCESS_)
        bus_log_warning("cuda: nvmlShutdown failed detail=\"%s\"",
                        s_error(&cuda->nvml, rc));
    dlclose(cuda->library);
    free(cuda);
}

//  Opens NVML in library and initialises it into a fresh state; NULL (one
//  notice logged, nothing left open) when it cannot.
static s_cuda_t *
s_open(const char *library)
{
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        bus_log_notice("cuda: no NVML, no GPUs offered library=%s detail=\"%s\"", library,
                       why ? why : "");
        return NULL;
    }
    s_cuda_t *cuda = calloc(1, sizeof *cuda);
    if (!cuda) {
        bus_log_error("cuda: out of memory, no GPUs offered");
        dlclose(handle);
        return NULL;
    }
    cuda->library = handle;
    s_nvml_t *nvml = &cuda->nvml;
    S_SYMBOL(handle, "nvmlErrorString", nvml->error_string);
    if (!S_SYMBOL(handle, "nvmlInit_v2", nvml->init) ||
        !S_SYMBOL(handle, "nvmlShutdown", nvml->shutdown) ||
        !S_SYMBOL(handle, "nvmlDeviceGetCount_v2", nvml->count) ||
        !S_SYMBOL(handle, "nvmlDeviceGetHandleByIndex_v2", nvml->handle) ||
        !S_SYMBOL(handle, "nvmlDeviceGetName", nvml->name) ||
        !S_SYMBOL(handle, "nvmlDeviceGetUUID", nvml->uuid) ||
        !S_SYMBOL(handle, "nvmlDeviceGetMemoryInfo", nvml->memory) ||
        !S_SYMBOL(handle, "nvmlDeviceGetMinorNumber", nvml->minor)) {
        bus_log_notice("cuda: NVML lacks a function, no GPUs offered library=%s",
                       library);
        dlclose(handle);
        free(cuda);
        return NULL;
    }
    S_SYMBOL(handle, "nvmlSystemGetDriverVersion", nvml->driver);
    S_SYMBOL(handle, "nvmlDeviceGetUtilizationRates", nvml->utilization);
    S_SYMBOL(handle, "nvmlDeviceGetComputeRunningProcesses_v3", nvml->processes);
    S_SYMBOL(handle, "nvmlDeviceGetMPSComputeRunningProcesses_v3", nvml->mps_processes);
    S_SYMBOL(handle, "nvmlDeviceGetProcessUtilization", nvml->samples);
    nvml_return_t rc = nvml->init();
    if (rc != NVML_SUCCESS_) {
        bus_log_notice("cuda: nvmlInit failed, no GPUs offered detail=\"%s\"",
                       s_error(nvml, rc));
        dlclose(handle);
        free(cuda);
        return NULL;
    }
    return cuda;
}

//  Adds the GPUs NVML lists in library to self; keeps NVML open in self's
//  state when there are any, else closes it.
static void
s_discover(agent_accel_plugin_t *self, const char *library)
{
    s_cuda_t *cuda = s_open(library);
    if (!cuda)
        return;
    const s_nvml_t *nvml = &cuda->nvml;
    unsigned int count = 0;
    nvml_return_t rc = nvml->count(&count);
    if (rc != NVML_SUCCESS_)
        bus_log_notice("cuda: cannot count GPUs, none offered detail=\"%s\"",
                       s_error(nvml, rc));
    for (unsigned int i = 0; rc == NVML_SUCCESS_ && i < count; i++) {
        agent_accel_device_t device;
        nvml_device_t handle;
        size_t at = agent_accel_plugin_device_count(self);
        if (!s_read_device(nvml, i, &device, &handle))
            continue;
        if (agent_accel_plugin_add_device(self, &device) != 0)
            bus_log_warning("cuda: GPU left out index=%u id=%s (duplicate or too many)",
                            i, device.id);
        else
            cuda->handles[at] = handle;
    }
    if (agent_accel_plugin_device_count(self) == 0) {
        s_cuda_destroy(cuda); //  nothing to watch: NVML is not kept
        return;
    }
    if (nvml->driver) {
        rc = nvml->driver(cuda->driver, sizeof cuda->driver);
        if (rc != NVML_SUCCESS_) {
            bus_log_warning("cuda: no driver version detail=\"%s\"", s_error(nvml, rc));
            cuda->driver[0] = '\0';
        }
        cuda->driver[sizeof cuda->driver - 1] = '\0';
    }
    if (!nvml->utilization || !nvml->processes || !nvml->samples)
        bus_log_notice("cuda: this NVML lacks utilization or process figures: GPU"
                       " figures read 0 library=%s",
                       library);
    bus_log_notice("cuda: NVML open driver=%s library=%s",
                   *cuda->driver ? cuda->driver : "unknown", library);
    agent_accel_plugin_set_state(self, cuda, s_cuda_destroy);
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

const agent_accel_plugin_t *
agent_accel_cuda_plugin(const agent_accel_t *accel)
{
    assert(accel);
    for (size_t i = 0; i < agent_accel_plugin_count(accel); i++) {
        const agent_accel_plugin_t *plugin = agent_accel_plugin(accel, i);
        if (agent_accel_plugin_state(plugin, s_cuda_destroy))
            return plugin;
    }
    return NULL;
}

const char *
agent_accel_cuda_driver_version(const agent_accel_plugin_t *plugin)
{
    assert(plugin);
    const s_cuda_t *cuda = agent_accel_plugin_state(plugin, s_cuda_destroy);
    return cuda && *cuda->driver ? cuda->driver : NULL;
}

size_t
agent_accel_cuda_gpu_stats(const agent_accel_plugin_t *plugin,
                           agent_accel_gpu_stats_t *out,
                           size_t max)
{
    assert(plugin && (out || max == 0));
    const s_cuda_t *cuda = agent_accel_plugin_state(plugin, s_cuda_destroy);
    size_t filled = 0;
    for (size_t i = 0;
         cuda && i < agent_accel_plugin_device_count(plugin) && filled < max; i++) {
        nvml_memory_t memory;
        nvml_utilization_t rates = {0, 0};
        if (cuda->nvml.memory(cuda->handles[i], &memory) != NVML_SUCCESS_)
            continue;
        if (cuda->nvml.utilization &&
            cuda->nvml.utilization(cuda->handles[i], &rates) != NVML_SUCCESS_)
            rates.gpu = 0;
        out[filled++] = (agent_accel_gpu_stats_t){
            .device = (uint8_t) i,
            .util_pct = rates.gpu > 100 ? 100 : rates.gpu,
            .mem_used_bytes = memory.used,
            .mem_total_bytes = memory.total,
        };
    }
    return filled;
}

//  The SM use of pid in GPU i's latest samples (count of them), 0 when none.
static uint32_t
s_sm(const s_cuda_t *cuda, unsigned int count, unsigned int pid)
{
    unsigned long long newest = 0;
    uint32_t sm = 0;
    for (unsigned int j = 0; j < count; j++)
        if (cuda->samples[j].pid == pid && cuda->samples[j].timestamp >= newest) {
            newest = cuda->samples[j].timestamp;
            sm = cuda->samples[j].sm > 100 ? 100 : cuda->samples[j].sm;
        }
    return sm;
}

size_t
agent_accel_cuda_processes(const agent_accel_plugin_t *plugin,
                           agent_accel_gpu_process_t *out,
                           size_t max)
{
    assert(plugin && (out || max == 0));
    //  The cursor of sample times is the state's own, not the plugin's.
    s_cuda_t *cuda = agent_accel_plugin_state(plugin, s_cuda_destroy);
    if (!cuda || !cuda->nvml.processes)
        return 0;
    size_t filled = 0;
    for (size_t i = 0; i < agent_accel_plugin_device_count(plugin) && filled < max; i++) {
        unsigned int count = AGENT_ACCEL_PROCESSES_MAX;
        nvml_return_t rc = cuda->nvml.processes(cuda->handles[i], &count, cuda->infos);
        if (rc != NVML_SUCCESS_) {
            bus_log_debug("cuda: no process list device=%zu detail=\"%s\"", i,
                          s_error(&cuda->nvml, rc));
            continue;
        }
        unsigned int samples = AGENT_ACCEL_PROCESSES_MAX;
        rc = cuda->nvml.samples ? cuda->nvml.samples(cuda->handles[i], cuda->samples,
                                                     &samples, cuda->seen[i])
                                : NVML_ERROR_NOT_FOUND_;
        if (rc != NVML_SUCCESS_)
            samples = 0; //  none since the last call (NOT_FOUND), or unsupported
        for (unsigned int j = 0; j < samples; j++)
            if (cuda->samples[j].timestamp > cuda->seen[i])
                cuda->seen[i] = cuda->samples[j].timestamp;
        size_t first = filled; //  this device's, for the MPS list's duplicates
        for (int list = 0; list < 2; list++) {
            if (list == 1) {
                count = AGENT_ACCEL_PROCESSES_MAX;
                if (!cuda->nvml.mps_processes ||
                    cuda->nvml.mps_processes(cuda->handles[i], &count, cuda->infos) !=
                        NVML_SUCCESS_)
                    break;
            }
            for (unsigned int j = 0; j < count && filled < max; j++) {
                bool listed = false;
                for (size_t k = first; k < filled && list == 1; k++)
                    listed = listed || out[k].pid == cuda->infos[j].pid;
                if (listed)
                    continue;
                unsigned long long bytes = cuda->infos[j].used_memory;
                out[filled++] = (agent_accel_gpu_process_t){
                    .pid = cuda->infos[j].pid,
                    .device = (uint8_t) i,
                    .mem_bytes = bytes == NVML_VALUE_NOT_AVAILABLE_ ? 0 : bytes,
                    .sm_util_pct = s_sm(cuda, samples, cuda->infos[j].pid),
                };
            }
        }
    }
    return filled;
}
