/*  =========================================================================
    agent_kernel_gpu - what a kernel holding NVIDIA GPUs gets besides them

    The allocator (agent_accel) decides which GPUs and how much of each a
    kernel holds, and gives their variables and device nodes. Here is the
    rest, for kernels holding slots of the "cuda" plugin only:
    - the driver's user space (agent_accel_driver): its libraries and
      binaries bound read-only, LD_LIBRARY_PATH and PATH extended (from the
      user's own values of those, which the accelerators' replace);
    - for a fraction of a GPU, its MPS control daemon (agent_accel_mps):
      the daemon's pipe directory and /dev/shm bound, and
      CUDA_MPS_PIPE_DIRECTORY, so that the limits in its environment are
      enforced. The daemon's start (when it is not running yet) is a step
      of the kernel's create job on the worker, before its container;
      one that died is started again by a job of its own. A kernel whose fractions lie on
   several GPUs cannot be the client of several daemons (a process reaches one MPS
   server): it runs on the first GPU's and the log says the others are not limited.

    The driver is looked for once, at start, when the cuda plugin offers
    GPUs (accelerators.cuda_driver_root; the version NVML reported, else
    libcuda's file name); MPS runs when accelerators.cuda_mps is on and the
    driver has nvidia-cuda-mps-control, else fractions are limited by
    variables alone and the start says so once.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include "agent_kernel.h"

#define S_PLUGIN "cuda"

void
agent_kernel_gpu_start(agent_kernels_t *self)
{
    assert(self);
    const agent_accel_plugin_t *cuda = agent_accel_cuda_plugin(self->accel);
    if (!cuda || agent_accel_plugin_device_count(cuda) == 0)
        return; //  no GPUs offered: no driver to look for
    //  The version NVML reports is the kernel module's: the libraries must be it.
    const char *version = agent_accel_cuda_driver_version(cuda);
    self->driver = agent_accel_driver_new(self->config->accel_cuda_driver_root, version);
    if (!self->config->accel_cuda_mps)
        return;
    const char *control =
        self->driver ? agent_accel_driver_binary(self->driver, "nvidia-cuda-mps-control")
                     : NULL;
    if (!control) {
        bus_log_warning("cuda: no nvidia-cuda-mps-control, fractions of GPUs are"
                        " limited by variables alone (not enforced)");
        return;
    }
    //  Not in the state directory, which may be root's alone: the MPS server
    //  runs as the kernels' user and must reach its pipe and log directories.
    char *dir = zsys_sprintf(AGENT_KERNEL_GPU_MPS_ROOT "/%s", bus_node_name(self->node));
    self->mps = dir ? agent_accel_mps_new(control, dir, AGENT_KERNEL_GPU_SHM_ROOT,
                                          bus_node_name(self->node))
                    : NULL;
    zstr_free(&dir);
}

void
agent_kernel_gpu_stop(agent_kernels_t *self)
{
    assert(self);
    agent_accel_mps_destroy(&self->mps);
    agent_accel_driver_destroy(&self->driver);
}

//  Appends a copy of text ("KEY=value") to *env_p (NULL-terminated).
static int
s_append(char ***env_p, const char *text, bus_error_t *err)
{
    size_t count = 0;
    while (*env_p && (*env_p)[count])
        count++;
    char *copy = strdup(text);
    char **env = copy ? realloc(*env_p, (count + 2) * sizeof *env) : NULL;
    if (!env) {
        free(copy);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    env[count] = copy;
    env[count + 1] = NULL;
    *env_p = env;
    return BUS_OK;
}

int
agent_kernel_gpu_setup(agent_kernels_t *self,
                       const char *kernel_id,
                       const agent_accel_alloc_t *alloc,
                       const proto_kernel_create_req_t *in,
                       agent_spec_t *spec,
                       char ***env_p,
                       agent_accel_mps_start_t **mps_start,
                       bus_error_t *err)
{
    assert(self && kernel_id && in && spec && env_p && mps_start);
    *mps_start = NULL;
    if (!agent_accel_alloc_uses(self->accel, alloc, S_PLUGIN))
        return BUS_OK;
    int rc = BUS_OK;
    if (agent_accel_driver_found(self->driver)) {
        for (size_t i = 0; rc == BUS_OK && i < agent_accel_driver_count(self->driver);
             i++) {
            const agent_accel_driver_file_t *file =
                agent_accel_driver_file(self->driver, i);
            rc = agent_spec_add_bind(spec, file->host_path, file->kernel_path, true, err);
        }
        char **more = rc == BUS_OK
                          ? agent_accel_driver_environ(
                                self->driver, agent_spec_base_value(spec, in, "PATH"),
                                agent_spec_base_value(spec, in, "LD_LIBRARY_PATH"))
                          : NULL;
        if (rc == BUS_OK && !more)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        for (size_t i = 0; rc == BUS_OK && more[i]; i++)
            rc = s_append(env_p, more[i], err);
        agent_accel_strv_destroy(&more);
    }
    const agent_accel_device_t *gpus[4];
    size_t fractions = agent_accel_fractions(self->accel, alloc, S_PLUGIN, gpus, 4);
    if (rc != BUS_OK || fractions == 0 || !self->mps)
        return rc;
    if (fractions > 1)
        bus_log_warning("kernel holds fractions of %zu GPUs; MPS limits only the first"
                        " kernel=%s gpu=%u",
                        fractions, kernel_id, gpus[0]->index);
    agent_accel_mps_binds_t binds;
    rc = agent_accel_mps_acquire(self->mps, kernel_id, gpus[0]->index, gpus[0]->id,
                                 &binds, mps_start, err);
    if (rc == BUS_OK)
        rc = agent_spec_add_bind(spec, binds.pipe_dir, AGENT_ACCEL_MPS_PIPE_KERNEL, false,
                                 err);
    if (rc == BUS_OK)
        rc = agent_spec_add_bind(spec, binds.shm_dir, "/dev/shm", false, err);
    if (rc == BUS_OK)
        rc = s_append(env_p, "CUDA_MPS_PIPE_DIRECTORY=" AGENT_ACCEL_MPS_PIPE_KERNEL, err);
    if (rc != BUS_OK) {
        agent_accel_mps_start_done(mps_start);
        agent_accel_mps_release(self->mps, kernel_id);
    }
    return rc;
}

void
agent_kernel_gpu_release(agent_kernels_t *self, const char *kernel_id)
{
    assert(self && kernel_id);
    if (self->mps)
        agent_accel_mps_release(self->mps, kernel_id);
}

void
agent_kernel_gpu_adopt(agent_kernels_t *self, const char *kernel_id)
{
    assert(self && kernel_id);
    const agent_accel_alloc_t *alloc = agent_accel_lookup(self->accel, kernel_id);
    const agent_accel_device_t *gpus[1];
    if (!self->mps || !alloc ||
        agent_accel_fractions(self->accel, alloc, S_PLUGIN, gpus, 1) == 0)
        return;
    agent_accel_mps_binds_t binds;
    agent_accel_mps_start_t *start = NULL;
    bus_error_t err;
    //  At the agent's start, before it serves anything: a daemon to start
    //  again is started here, on the loop.
    int rc = agent_accel_mps_acquire(self->mps, kernel_id, gpus[0]->index, gpus[0]->id,
                                     &binds, &start, &err);
    if (rc == BUS_OK && start)
        rc = agent_accel_mps_start_run(start, &err);
    agent_accel_mps_start_done(&start);
    if (rc != BUS_OK)
        bus_log_error("adopted kernel's MPS daemon not running kernel=%s detail=\"%s\"",
                      kernel_id, err.detail);
}

void
agent_kernel_gpu_adopted_all(agent_kernels_t *self)
{
    assert(self);
    if (self->mps)
        agent_accel_mps_sweep(self->mps);
}

//  On the worker: a daemon that died with holders started again.
static void
s_restart_run(void *job, void *context)
{
    (void) context;
    agent_accel_mps_start_t *start = job;
    bus_error_t err;
    if (agent_accel_mps_start_run(start, &err) != BUS_OK)
        bus_log_error("MPS control daemon not restarted detail=\"%s\"", err.detail);
}

static void
s_restart_done(void *job, bool ran)
{
    (void) ran; //  a start that never ran leaves no daemon: the next step sees it
    agent_accel_mps_start_t *start = job;
    agent_accel_mps_start_done(&start);
}

void
agent_kernel_gpu_supervise(agent_kernels_t *self)
{
    assert(self);
    agent_accel_mps_start_t *restart =
        self->mps ? agent_accel_mps_supervise(self->mps) : NULL;
    if (restart)
        agent_kernels_submit(self, s_restart_run, s_restart_done, restart);
}
