/*  =========================================================================
    fake_libcuda - a stand-in for the NVIDIA driver's libcuda.so.1, for
    tests on machines without a GPU

    It implements the driver API calls gpu-probe makes, over one fake
    device of FAKE_CUDA_MEMORY_MIB (16384 by default, what the fake NVML
    reports), so that gpu_test can run its whole path in make check: the
    agent finds this library in a fake driver tree and binds it into the
    container under its sonames, the probe loads it by its soname, and what
    the probe reports shows what the container was given. It checks what a
    real driver would depend on and nothing more:
    - "JIT": the module must be PTX text with the entry asked for; the
      launch then writes what the probe's kernel computes (3 i + 1), so
      only the plumbing is checked, not a compiler;
    - MPS: like CUDA, the limits in CUDA_MPS_PINNED_DEVICE_MEM_LIMIT apply
      only to an MPS client, that is, when CUDA_MPS_PIPE_DIRECTORY names a
      directory holding the control daemon's "control" socket; an
      allocation over the limit then fails with CUDA_ERROR_OUT_OF_MEMORY.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define S_SUCCESS       0
#define S_INVALID_VALUE 1
#define S_OUT_OF_MEMORY 2
#define S_NOT_INIT      3
#define S_NOT_FOUND     500

typedef int cu_result_t;
typedef unsigned long long cu_deviceptr_t;

//  The declarations, so that -Wmissing-prototypes is satisfied: these are
//  the library's exported API.
cu_result_t cuInit(unsigned int flags);
cu_result_t cuDriverGetVersion(int *version);
cu_result_t cuDeviceGetCount(int *count);
cu_result_t cuDeviceGet(int *device, int ordinal);
cu_result_t cuDeviceGetName(char *name, int size, int device);
cu_result_t cuDeviceTotalMem_v2(size_t *bytes, int device);
cu_result_t cuDevicePrimaryCtxRetain(void **context, int device);
cu_result_t cuCtxSetCurrent(void *context);
cu_result_t cuMemGetInfo_v2(size_t *free_bytes, size_t *total);
cu_result_t cuMemAlloc_v2(cu_deviceptr_t *ptr, size_t bytes);
cu_result_t cuMemFree_v2(cu_deviceptr_t ptr);
cu_result_t cuMemcpyDtoH_v2(void *host, cu_deviceptr_t ptr, size_t bytes);
cu_result_t cuModuleLoadData(void **module, const void *image);
cu_result_t cuModuleGetFunction(void **function, void *module, const char *name);
cu_result_t cuLaunchKernel(void *function,
                           unsigned gx,
                           unsigned gy,
                           unsigned gz,
                           unsigned bx,
                           unsigned by,
                           unsigned bz,
                           unsigned shared,
                           void *stream,
                           void **params,
                           void **extra);
cu_result_t cuCtxSynchronize(void);
cu_result_t cuGetErrorName(cu_result_t rc, const char **name);

static int s_initialised;
static size_t s_used;                //  bytes allocated, all of them fake
static const char *s_module;         //  the PTX text loaded
static unsigned s_launched_n;        //  the kernel's n, once launched
static cu_deviceptr_t s_launched_at; //  and its buffer

static size_t
s_total(void)
{
    const char *text = getenv("FAKE_CUDA_MEMORY_MIB");
    long mib = text ? atol(text) : 16384;
    return (size_t) (mib > 0 ? mib : 16384) << 20;
}

//  The pinned limit of device 0 in bytes when this process is an MPS
//  client, else the whole device.
static size_t
s_limit(void)
{
    const char *pipe = getenv("CUDA_MPS_PIPE_DIRECTORY");
    const char *limits = getenv("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT");
    char control[4096];
    if (!pipe || !limits)
        return s_total();
    snprintf(control, sizeof control, "%s/control", pipe);
    if (access(control, F_OK) != 0)
        return s_total(); //  no daemon: not a client, no limit (as CUDA)
    const char *zero = strstr(limits, "0=");
    if (!zero)
        return s_total();
    char *end = NULL;
    double amount = strtod(zero + 2, &end);
    size_t unit = end && (*end == 'G' || *end == 'g') ? 1u << 30 : 1u << 20;
    return (size_t) (amount * (double) unit);
}

cu_result_t
cuInit(unsigned int flags)
{
    if (flags != 0)
        return S_INVALID_VALUE;
    s_initialised = 1;
    return S_SUCCESS;
}

cu_result_t
cuDriverGetVersion(int *version)
{
    *version = 13000;
    return S_SUCCESS;
}

cu_result_t
cuDeviceGetCount(int *count)
{
    if (!s_initialised)
        return S_NOT_INIT;
    *count = 1;
    return S_SUCCESS;
}

cu_result_t
cuDeviceGet(int *device, int ordinal)
{
    if (ordinal != 0)
        return S_INVALID_VALUE;
    *device = 0;
    return S_SUCCESS;
}

cu_result_t
cuDeviceGetName(char *name, int size, int device)
{
    (void) device;
    snprintf(name, (size_t) size, "Backplane Fake GPU");
    return S_SUCCESS;
}

cu_result_t
cuDeviceTotalMem_v2(size_t *bytes, int device)
{
    (void) device;
    *bytes = s_total();
    return S_SUCCESS;
}

cu_result_t
cuDevicePrimaryCtxRetain(void **context, int device)
{
    (void) device;
    *context = &s_initialised;
    return S_SUCCESS;
}

cu_result_t
cuCtxSetCurrent(void *context)
{
    return context ? S_SUCCESS : S_INVALID_VALUE;
}

cu_result_t
cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    *total = s_total();
    *free_bytes = s_limit() > s_used ? s_limit() - s_used : 0;
    return S_SUCCESS;
}

cu_result_t
cuMemAlloc_v2(cu_deviceptr_t *ptr, size_t bytes)
{
    if (bytes == 0)
        return S_INVALID_VALUE;
    if (bytes > s_limit() - (s_used < s_limit() ? s_used : s_limit()))
        return S_OUT_OF_MEMORY;
    s_used += bytes;
    *ptr = 0x100000000ULL + s_used;
    return S_SUCCESS;
}

cu_result_t
cuMemFree_v2(cu_deviceptr_t ptr)
{
    (void) ptr;
    return S_SUCCESS;
}

cu_result_t
cuMemcpyDtoH_v2(void *host, cu_deviceptr_t ptr, size_t bytes)
{
    uint32_t *out = host;
    if (ptr != s_launched_at || bytes / sizeof *out > s_launched_n)
        return S_INVALID_VALUE;
    for (uint32_t i = 0; i < bytes / sizeof *out; i++)
        out[i] = 3 * i + 1;
    return S_SUCCESS;
}

cu_result_t
cuModuleLoadData(void **module, const void *image)
{
    const char *ptx = image;
    if (!ptx || !strstr(ptx, ".version") || !strstr(ptx, ".entry"))
        return S_INVALID_VALUE;
    s_module = ptx;
    *module = (void *) ptx;
    return S_SUCCESS;
}

cu_result_t
cuModuleGetFunction(void **function, void *module, const char *name)
{
    char entry[256];
    snprintf(entry, sizeof entry, ".entry %s(", name);
    if (module != s_module || !strstr(s_module, entry))
        return S_NOT_FOUND;
    *function = module;
    return S_SUCCESS;
}

cu_result_t
cuLaunchKernel(void *function,
               unsigned gx,
               unsigned gy,
               unsigned gz,
               unsigned bx,
               unsigned by,
               unsigned bz,
               unsigned shared,
               void *stream,
               void **params,
               void **extra)
{
    (void) gy, (void) gz, (void) by, (void) bz, (void) shared, (void) stream;
    (void) extra;
    if (!function || !params)
        return S_INVALID_VALUE;
    memcpy(&s_launched_at, params[0], sizeof s_launched_at);
    memcpy(&s_launched_n, params[1], sizeof s_launched_n);
    if ((unsigned long long) gx * bx < s_launched_n)
        s_launched_n = gx * bx; //  threads that did not run wrote nothing
    return S_SUCCESS;
}

cu_result_t
cuCtxSynchronize(void)
{
    return S_SUCCESS;
}

cu_result_t
cuGetErrorName(cu_result_t rc, const char **name)
{
    *name = rc == S_OUT_OF_MEMORY   ? "CUDA_ERROR_OUT_OF_MEMORY"
            : rc == S_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE"
            : rc == S_NOT_INIT      ? "CUDA_ERROR_NOT_INITIALIZED"
            : rc == S_NOT_FOUND     ? "CUDA_ERROR_NOT_FOUND"
                                    : "CUDA_ERROR_UNKNOWN";
    return S_SUCCESS;
}
