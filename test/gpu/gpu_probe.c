/*  =========================================================================
    gpu_probe - a CUDA program with no CUDA toolkit, for GPU containers

    Runs inside a GPU session's container to show that the driver files the
    agent binds there work: it opens libcuda.so.1 by its soname (as every
    CUDA program does, through LD_LIBRARY_PATH), initialises the driver,
    and with
      --jit            loads a kernel from PTX text (the driver's JIT
                       compiler, libnvidia-ptxjitcompiler), launches it over
                       a buffer and checks every value it wrote;
      --alloc MIB      allocates MIB MiB of device memory in one piece (under
                       MPS, refused beyond CUDA_MPS_PINNED_DEVICE_MEM_LIMIT);
      --hold SECONDS   keeps what it allocated that long before it exits (for
                       the agent's stats to see it).
    Prints "key=value" lines (device, memory, jit, alloc) and exits 0 when
    every step asked for worked, 1 when one failed, 2 when there is no
    usable driver. Built without the toolkit: the few driver API types and
    functions it calls are declared here, as cuda.h documents them.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int cu_result_t; //  CUresult; 0 is CUDA_SUCCESS
typedef int cu_device_t; //  CUdevice
typedef struct cu_context *cu_context_t;
typedef struct cu_module *cu_module_t;
typedef struct cu_function *cu_function_t;
typedef unsigned long long cu_deviceptr_t; //  CUdeviceptr (64-bit)

typedef struct {
    cu_result_t (*init)(unsigned int);
    cu_result_t (*driver_version)(int *);
    cu_result_t (*device_count)(int *);
    cu_result_t (*device_get)(cu_device_t *, int);
    cu_result_t (*device_name)(char *, int, cu_device_t);
    cu_result_t (*device_memory)(size_t *, cu_device_t);
    cu_result_t (*retain)(cu_context_t *, cu_device_t);
    cu_result_t (*set_current)(cu_context_t);
    cu_result_t (*mem_info)(size_t *, size_t *);
    cu_result_t (*alloc)(cu_deviceptr_t *, size_t);
    cu_result_t (*free)(cu_deviceptr_t);
    cu_result_t (*to_host)(void *, cu_deviceptr_t, size_t);
    cu_result_t (*load_data)(cu_module_t *, const void *);
    cu_result_t (*get_function)(cu_function_t *, cu_module_t, const char *);
    cu_result_t (*launch)(cu_function_t,
                          unsigned,
                          unsigned,
                          unsigned,
                          unsigned,
                          unsigned,
                          unsigned,
                          unsigned,
                          void *,
                          void **,
                          void **);
    cu_result_t (*synchronize)(void);
    cu_result_t (*error_name)(cu_result_t, const char **);
} s_cuda_t;

static s_cuda_t s_cuda;

//  out[i] = 3 * i + 1 for i < n: one thread per element.
static const char s_ptx[] = ".version 7.0\n"
                            ".target sm_50\n"
                            ".address_size 64\n"
                            ".visible .entry fill(.param .u64 out, .param .u32 n)\n"
                            "{\n"
                            "    .reg .pred %p;\n"
                            "    .reg .b32 %r<7>;\n"
                            "    .reg .b64 %rd<5>;\n"
                            "    ld.param.u64 %rd1, [out];\n"
                            "    ld.param.u32 %r1, [n];\n"
                            "    mov.u32 %r2, %ctaid.x;\n"
                            "    mov.u32 %r3, %ntid.x;\n"
                            "    mov.u32 %r4, %tid.x;\n"
                            "    mad.lo.s32 %r5, %r2, %r3, %r4;\n"
                            "    setp.ge.u32 %p, %r5, %r1;\n"
                            "    @%p bra DONE;\n"
                            "    cvta.to.global.u64 %rd2, %rd1;\n"
                            "    mul.wide.u32 %rd3, %r5, 4;\n"
                            "    add.s64 %rd4, %rd2, %rd3;\n"
                            "    mad.lo.s32 %r6, %r5, 3, 1;\n"
                            "    st.global.u32 [%rd4], %r6;\n"
                            "DONE:\n"
                            "    ret;\n"
                            "}\n";

static const char *
s_error(cu_result_t rc)
{
    const char *name = NULL;
    if (s_cuda.error_name && s_cuda.error_name(rc, &name) == 0 && name)
        return name;
    return "unknown CUDA error";
}

static int
s_symbol(void *library, const char *name, void *fn_p, size_t size)
{
    void *symbol = dlsym(library, name);
    if (!symbol || size != sizeof symbol) {
        printf("error=missing %s\n", name);
        return -1;
    }
    memcpy(fn_p, &symbol, size);
    return 0;
}

#define S_SYMBOL(lib, name, field) s_symbol((lib), (name), &(field), sizeof(field))

static int
s_open(void)
{
    void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        printf("error=no libcuda.so.1 (%s)\n", dlerror());
        return -1;
    }
    if (S_SYMBOL(library, "cuInit", s_cuda.init) ||
        S_SYMBOL(library, "cuDriverGetVersion", s_cuda.driver_version) ||
        S_SYMBOL(library, "cuDeviceGetCount", s_cuda.device_count) ||
        S_SYMBOL(library, "cuDeviceGet", s_cuda.device_get) ||
        S_SYMBOL(library, "cuDeviceGetName", s_cuda.device_name) ||
        S_SYMBOL(library, "cuDeviceTotalMem_v2", s_cuda.device_memory) ||
        S_SYMBOL(library, "cuDevicePrimaryCtxRetain", s_cuda.retain) ||
        S_SYMBOL(library, "cuCtxSetCurrent", s_cuda.set_current) ||
        S_SYMBOL(library, "cuMemGetInfo_v2", s_cuda.mem_info) ||
        S_SYMBOL(library, "cuMemAlloc_v2", s_cuda.alloc) ||
        S_SYMBOL(library, "cuMemFree_v2", s_cuda.free) ||
        S_SYMBOL(library, "cuMemcpyDtoH_v2", s_cuda.to_host) ||
        S_SYMBOL(library, "cuModuleLoadData", s_cuda.load_data) ||
        S_SYMBOL(library, "cuModuleGetFunction", s_cuda.get_function) ||
        S_SYMBOL(library, "cuLaunchKernel", s_cuda.launch) ||
        S_SYMBOL(library, "cuCtxSynchronize", s_cuda.synchronize) ||
        S_SYMBOL(library, "cuGetErrorName", s_cuda.error_name))
        return -1;
    return 0;
}

//  The kernel from PTX over n values, each checked.
static int
s_jit(void)
{
    enum { N = 1 << 20 };
    cu_module_t module;
    cu_function_t fill;
    cu_deviceptr_t out = 0;
    cu_result_t rc = s_cuda.load_data(&module, s_ptx);
    if (rc == 0)
        rc = s_cuda.get_function(&fill, module, "fill");
    if (rc == 0)
        rc = s_cuda.alloc(&out, N * sizeof(uint32_t));
    unsigned int n = N;
    void *params[] = {&out, &n};
    if (rc == 0)
        rc = s_cuda.launch(fill, N / 256, 1, 1, 256, 1, 1, 0, NULL, params, NULL);
    if (rc == 0)
        rc = s_cuda.synchronize();
    uint32_t *host = malloc(N * sizeof *host);
    if (rc == 0 && host)
        rc = s_cuda.to_host(host, out, N * sizeof *host);
    if (out)
        s_cuda.free(out);
    if (rc != 0 || !host) {
        printf("jit=failed (%s)\n", rc ? s_error(rc) : "out of memory");
        free(host);
        return -1;
    }
    size_t wrong = 0;
    for (uint32_t i = 0; i < N; i++)
        wrong += host[i] != 3 * i + 1;
    free(host);
    printf("jit=%s values=%d wrong=%zu\n", wrong ? "wrong" : "ok", N, wrong);
    return wrong ? -1 : 0;
}

int
main(int argc, char *argv[])
{
    bool jit = false;
    long alloc_mib = 0, hold_s = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--jit") == 0)
            jit = true;
        else if (strcmp(argv[i], "--alloc") == 0 && i + 1 < argc)
            alloc_mib = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--hold") == 0 && i + 1 < argc)
            hold_s = strtol(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: gpu-probe [--jit] [--alloc MIB] [--hold SECONDS]\n");
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (s_open() != 0)
        return 2;
    int version = 0, count = 0;
    cu_device_t device;
    cu_context_t context;
    cu_result_t rc = s_cuda.init(0);
    if (rc == 0)
        rc = s_cuda.driver_version(&version);
    if (rc == 0)
        rc = s_cuda.device_count(&count);
    if (rc == 0 && count == 0) {
        printf("error=no device visible\n");
        return 2;
    }
    if (rc == 0)
        rc = s_cuda.device_get(&device, 0);
    if (rc == 0)
        rc = s_cuda.retain(&context, device);
    if (rc == 0)
        rc = s_cuda.set_current(context);
    if (rc != 0) {
        printf("error=init failed (%s)\n", s_error(rc));
        return 2;
    }
    char name[256] = "";
    size_t total = 0, free_bytes = 0, total_now = 0;
    s_cuda.device_name(name, sizeof name, device);
    s_cuda.device_memory(&total, device);
    s_cuda.mem_info(&free_bytes, &total_now);
    printf("devices=%d device=\"%s\" driver_api=%d memory_mib=%zu free_mib=%zu"
           " mps_pipe=%s\n",
           count, name, version, total >> 20, free_bytes >> 20,
           getenv("CUDA_MPS_PIPE_DIRECTORY") ? getenv("CUDA_MPS_PIPE_DIRECTORY") : "-");
    int failed = 0;
    if (jit && s_jit() != 0)
        failed = 1;
    cu_deviceptr_t held = 0;
    if (alloc_mib > 0) {
        rc = s_cuda.alloc(&held, (size_t) alloc_mib << 20);
        printf("alloc=%s mib=%ld%s%s%s\n", rc == 0 ? "ok" : "failed", alloc_mib,
               rc ? " (" : "", rc ? s_error(rc) : "", rc ? ")" : "");
        failed |= rc != 0;
    }
    if (hold_s > 0)
        sleep((unsigned) hold_s);
    if (held)
        s_cuda.free(held);
    return failed;
}
