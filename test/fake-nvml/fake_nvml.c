/*  =========================================================================
    fake_nvml - a stand-in for libnvidia-ml.so.1 on machines without a GPU

    Built by make into $(BUILD)/lib/fake-nvml/libnvidia-ml.so.1 (soname
    libnvidia-ml.so.1, no sanitizer, no allocation) and opened by the agent
    in tests through accelerators.cuda_nvml_library. It implements the NVML
    functions the agent's CUDA plugin calls, with NVML's own signatures
    (declared here, as the plugin does: no nvml.h). Its GPUs, their figures
    and their processes come from the text file named by the environment
    variable BACKPLANE_FAKE_NVML, read again on every call, so a test can
    change the figures while the agent runs. One item per line, '#' starts
    a comment:

        driver <version>                         nvmlSystemGetDriverVersion
        gpu <uuid> <minor> <total> <used> <util> <name...>
                                                 one GPU, index = its rank
                                                 among the gpu lines; minor
                                                 -1: none; bytes; percent
        proc <gpu index> <pid> <bytes> <sm util> a compute process on a GPU
        fail init                                nvmlInit_v2 fails

    Without the variable, or when the file cannot be read, nvmlInit_v2 fails
    with NVML_ERROR_DRIVER_NOT_LOADED, as NVML does on a host without a
    driver. Process utilization samples carry the current time, so every
    call answers each process once more. fake_nvml_inits() and
    fake_nvml_live() (not NVML) let a test count initialisations and tell
    whether NVML is initialised now.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FAKE_ENV       "BACKPLANE_FAKE_NVML"
#define FAKE_GPUS_MAX  16
#define FAKE_PROCS_MAX 64
#define FAKE_TEXT_MAX  96
#define FAKE_LINE_MAX  512

//  NVML's return codes (nvml.h), those answered here.
#define NVML_SUCCESS                 0
#define NVML_ERROR_UNINITIALIZED     1
#define NVML_ERROR_INVALID_ARGUMENT  2
#define NVML_ERROR_NOT_FOUND         6
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_ERROR_DRIVER_NOT_LOADED 9
#define NVML_ERROR_UNKNOWN           999

typedef int nvmlReturn_t;
typedef struct fake_device *nvmlDevice_t;
typedef struct {
    unsigned long long total, free, used;
} nvmlMemory_t;
typedef struct {
    unsigned int gpu, memory;
} nvmlUtilization_t;
typedef struct {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId, computeInstanceId;
} nvmlProcessInfo_t; //  nvmlProcessInfo_v2_t, what the _v3 functions fill
typedef struct {
    unsigned int pid;
    unsigned long long timeStamp; //  CPU time, µs
    unsigned int smUtil, memUtil, encUtil, decUtil;
} nvmlProcessUtilizationSample_t;

typedef struct {
    char uuid[FAKE_TEXT_MAX];
    char name[FAKE_TEXT_MAX];
    long minor;
    unsigned long long total, used;
    unsigned int util;
} fake_gpu_t;

typedef struct {
    unsigned int gpu, pid, sm;
    unsigned long long bytes;
} fake_proc_t;

typedef struct {
    char driver[FAKE_TEXT_MAX];
    int fail_init;
    unsigned int gpus, procs;
    fake_gpu_t gpu[FAKE_GPUS_MAX];
    fake_proc_t proc[FAKE_PROCS_MAX];
} fake_state_t;

//  One handle per GPU: a handle is the address of its GPU's slot here.
struct fake_device {
    char unused;
};
static struct fake_device s_handles[FAKE_GPUS_MAX];
static fake_state_t s_state;
static int s_live;  //  nvmlInit_v2 calls not yet shut down
static int s_inits; //  nvmlInit_v2 calls that succeeded, ever

//  These are the exported functions (no header: the agent dlsyms them).
#pragma GCC diagnostic ignored "-Wmissing-prototypes"

//  Reads the file into s_state. 0, or -1 when there is none.
static int
s_load(void)
{
    memset(&s_state, 0, sizeof s_state);
    const char *path = getenv(FAKE_ENV);
    FILE *file = path && *path ? fopen(path, "r") : NULL;
    if (!file)
        return -1;
    char line[FAKE_LINE_MAX];
    while (fgets(line, sizeof line, file)) {
        line[strcspn(line, "#\n")] = '\0';
        fake_gpu_t gpu = {.minor = -1};
        fake_proc_t proc = {0};
        int name_at = 0;
        if (sscanf(line, " driver %95s", s_state.driver) == 1)
            continue;
        if (strncmp(line, "fail init", 9) == 0)
            s_state.fail_init = 1;
        else if (sscanf(line, " gpu %95s %ld %llu %llu %u %n", gpu.uuid, &gpu.minor,
                        &gpu.total, &gpu.used, &gpu.util, &name_at) == 5 &&
                 s_state.gpus < FAKE_GPUS_MAX) {
            snprintf(gpu.name, sizeof gpu.name, "%s", name_at ? line + name_at : "");
            gpu.name[strcspn(gpu.name, "\r")] = '\0';
            s_state.gpu[s_state.gpus++] = gpu;
        } else if (sscanf(line, " proc %u %u %llu %u", &proc.gpu, &proc.pid, &proc.bytes,
                          &proc.sm) == 4 &&
                   s_state.procs < FAKE_PROCS_MAX)
            s_state.proc[s_state.procs++] = proc;
    }
    fclose(file);
    return 0;
}

//  The GPU of handle, NULL when it is none of ours or NVML is not up.
static fake_gpu_t *
s_gpu(nvmlDevice_t handle, unsigned int *index)
{
    if (!s_live || handle < s_handles || handle >= s_handles + FAKE_GPUS_MAX ||
        s_load() != 0)
        return NULL;
    unsigned int i = (unsigned int) (handle - s_handles);
    if (i >= s_state.gpus)
        return NULL;
    if (index)
        *index = i;
    return &s_state.gpu[i];
}

static nvmlReturn_t
s_copy(char *out, unsigned int length, const char *text)
{
    if (!out)
        return NVML_ERROR_INVALID_ARGUMENT;
    if (strlen(text) >= length)
        return NVML_ERROR_INSUFFICIENT_SIZE;
    memcpy(out, text, strlen(text) + 1);
    return NVML_SUCCESS;
}

nvmlReturn_t
nvmlInit_v2(void)
{
    if (s_load() != 0)
        return NVML_ERROR_DRIVER_NOT_LOADED;
    if (s_state.fail_init)
        return NVML_ERROR_UNKNOWN;
    s_live++;
    s_inits++;
    return NVML_SUCCESS;
}

nvmlReturn_t
nvmlShutdown(void)
{
    if (!s_live)
        return NVML_ERROR_UNINITIALIZED;
    s_live--;
    return NVML_SUCCESS;
}

const char *
nvmlErrorString(nvmlReturn_t result)
{
    switch (result) {
        case NVML_SUCCESS:
            return "Success";
        case NVML_ERROR_UNINITIALIZED:
            return "Uninitialized";
        case NVML_ERROR_INVALID_ARGUMENT:
            return "Invalid Argument";
        case NVML_ERROR_NOT_FOUND:
            return "Not Found";
        case NVML_ERROR_INSUFFICIENT_SIZE:
            return "Insufficient Size";
        case NVML_ERROR_DRIVER_NOT_LOADED:
            return "Driver Not Loaded";
        default:
            return "Unknown Error";
    }
}

nvmlReturn_t
nvmlSystemGetDriverVersion(char *version, unsigned int length)
{
    if (!s_live || s_load() != 0)
        return NVML_ERROR_UNINITIALIZED;
    return s_copy(version, length, s_state.driver);
}

nvmlReturn_t
nvmlDeviceGetCount_v2(unsigned int *count)
{
    if (!s_live || s_load() != 0)
        return NVML_ERROR_UNINITIALIZED;
    if (!count)
        return NVML_ERROR_INVALID_ARGUMENT;
    *count = s_state.gpus;
    return NVML_SUCCESS;
}

nvmlReturn_t
nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device)
{
    if (!s_live || s_load() != 0)
        return NVML_ERROR_UNINITIALIZED;
    if (!device || index >= s_state.gpus)
        return NVML_ERROR_INVALID_ARGUMENT;
    *device = &s_handles[index];
    return NVML_SUCCESS;
}

nvmlReturn_t
nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length)
{
    fake_gpu_t *gpu = s_gpu(device, NULL);
    return gpu ? s_copy(name, length, gpu->name) : NVML_ERROR_INVALID_ARGUMENT;
}

nvmlReturn_t
nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length)
{
    fake_gpu_t *gpu = s_gpu(device, NULL);
    return gpu ? s_copy(uuid, length, gpu->uuid) : NVML_ERROR_INVALID_ARGUMENT;
}

nvmlReturn_t
nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory)
{
    fake_gpu_t *gpu = s_gpu(device, NULL);
    if (!gpu || !memory)
        return NVML_ERROR_INVALID_ARGUMENT;
    memory->total = gpu->total;
    memory->used = gpu->used;
    memory->free = gpu->total > gpu->used ? gpu->total - gpu->used : 0;
    return NVML_SUCCESS;
}

nvmlReturn_t
nvmlDeviceGetMinorNumber(nvmlDevice_t device, unsigned int *minor)
{
    fake_gpu_t *gpu = s_gpu(device, NULL);
    if (!gpu || !minor)
        return NVML_ERROR_INVALID_ARGUMENT;
    if (gpu->minor < 0)
        return NVML_ERROR_NOT_FOUND;
    *minor = (unsigned int) gpu->minor;
    return NVML_SUCCESS;
}

nvmlReturn_t
nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *utilization)
{
    fake_gpu_t *gpu = s_gpu(device, NULL);
    if (!gpu || !utilization)
        return NVML_ERROR_INVALID_ARGUMENT;
    utilization->gpu = gpu->util;
    utilization->memory = 0;
    return NVML_SUCCESS;
}

//  NVML's contract: *count in is the room of infos; out, how many there are,
//  with NVML_ERROR_INSUFFICIENT_SIZE when they do not fit (infos may be NULL
//  with *count 0 to ask).
nvmlReturn_t
nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device,
                                        unsigned int *count,
                                        nvmlProcessInfo_t *infos)
{
    unsigned int index;
    if (!s_gpu(device, &index) || !count)
        return NVML_ERROR_INVALID_ARGUMENT;
    unsigned int n = 0;
    for (unsigned int i = 0; i < s_state.procs; i++)
        n += s_state.proc[i].gpu == index;
    if (n > *count || (n && !infos)) {
        *count = n;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    n = 0;
    for (unsigned int i = 0; i < s_state.procs; i++)
        if (s_state.proc[i].gpu == index)
            infos[n++] = (nvmlProcessInfo_t){.pid = s_state.proc[i].pid,
                                             .usedGpuMemory = s_state.proc[i].bytes,
                                             .gpuInstanceId = 0xFFFFFFFF,
                                             .computeInstanceId = 0xFFFFFFFF};
    *count = n;
    return NVML_SUCCESS;
}

//  The same contract; samples newer than last_seen (all carry now), or
//  NVML_ERROR_NOT_FOUND when there are none.
nvmlReturn_t
nvmlDeviceGetProcessUtilization(nvmlDevice_t device,
                                nvmlProcessUtilizationSample_t *samples,
                                unsigned int *count,
                                unsigned long long last_seen)
{
    unsigned int index;
    if (!s_gpu(device, &index) || !count)
        return NVML_ERROR_INVALID_ARGUMENT;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long long now = (unsigned long long) ts.tv_sec * 1000000ULL +
                             (unsigned long long) ts.tv_nsec / 1000;
    unsigned int n = 0;
    for (unsigned int i = 0; i < s_state.procs; i++)
        n += s_state.proc[i].gpu == index && now > last_seen;
    if (n == 0)
        return NVML_ERROR_NOT_FOUND;
    if (n > *count || !samples) {
        *count = n;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    n = 0;
    for (unsigned int i = 0; i < s_state.procs; i++)
        if (s_state.proc[i].gpu == index)
            samples[n++] = (nvmlProcessUtilizationSample_t){.pid = s_state.proc[i].pid,
                                                            .timeStamp = now,
                                                            .smUtil = s_state.proc[i].sm};
    *count = n;
    return NVML_SUCCESS;
}

//  Not NVML: for tests.
int
fake_nvml_inits(void)
{
    return s_inits;
}

int
fake_nvml_live(void)
{
    return s_live;
}
