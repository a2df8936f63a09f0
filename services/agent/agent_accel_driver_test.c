/*  =========================================================================
    agent_accel_driver_test - finding the NVIDIA driver's user space in a
    fake driver tree, and the binds and variables a GPU container gets

    The tree is laid out as a driver installation: ld.so.conf with an
    include of ld.so.conf.d, whose file names the driver's directory; there
    libcuda.so.<version> with its soname link, libnvidia-ml, the PTX JIT
    compiler; a stale libcuda of another version in the system directory
    (CUDA's forward-compatibility copy, an old install) that must never be
    picked; binaries in usr/bin, one not executable. The files are stubs:
    only their names and places matter.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include "agent_accel_driver.h"
#include <sys/stat.h>
#include "t.h"

static char s_root[] = "/tmp/agent_accel_driver_test.XXXXXX";

static void
s_write(const char *relative, const char *text, mode_t mode)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", s_root, relative);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    zsys_dir_create("%s", path);
    *slash = '/';
    FILE *file = fopen(path, "w");
    assert(file);
    fputs(text, file);
    fclose(file);
    chmod(path, mode);
}

static void
s_link(const char *relative, const char *target)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", s_root, relative);
    T_EQ_INT(symlink(target, path), 0);
}

static void
s_make_tree(void)
{
    s_write("etc/ld.so.conf", "# the host's\ninclude /etc/ld.so.conf.d/*.conf\n", 0644);
    s_write("etc/ld.so.conf.d/nvidia.conf", "/opt/nvidia/lib  # the driver\n", 0644);
    s_write("etc/ld.so.conf.d/other.conf", "hwcap 0 nosegneg\n/opt/other/lib:/opt/x\n",
            0644);
    s_write("opt/nvidia/lib/libcuda.so.580.1.2", "stub", 0755);
    s_link("opt/nvidia/lib/libcuda.so.1", "libcuda.so.580.1.2");
    s_write("opt/nvidia/lib/libnvidia-ml.so.580.1.2", "stub", 0755);
    s_link("opt/nvidia/lib/libnvidia-ml.so.1", "libnvidia-ml.so.580.1.2");
    s_write("opt/nvidia/lib/libnvidia-ptxjitcompiler.so.580.1.2", "stub", 0755);
    s_write("opt/nvidia/lib/libnvidia-gpucomp.so.580.1.2", "stub", 0755);
    //  A copy of another version, earlier in no search order but there.
    s_write("usr/lib/x86_64-linux-gnu/libcuda.so.470.9", "stale", 0755);
    //  A wrapper script first in the search order, the driver's ELF later.
    s_write("usr/bin/nvidia-smi", "#!/bin/sh\nexec nvidia-smi.real \"$@\"\n", 0755);
    s_write("usr/local/nvidia/bin/nvidia-smi", "\177ELF stub", 0755);
    s_write("usr/bin/nvidia-cuda-mps-control", "#!/bin/sh\n", 0755);
    s_write("usr/bin/nvidia-debugdump", "not executable", 0644);
}

//  The host path bound at kernel_path, NULL when none.
static const char *
s_host_of(const agent_accel_driver_t *driver, const char *kernel_path)
{
    for (size_t i = 0; i < agent_accel_driver_count(driver); i++) {
        const agent_accel_driver_file_t *file = agent_accel_driver_file(driver, i);
        if (streq(file->kernel_path, kernel_path))
            return file->host_path;
    }
    return NULL;
}

static void
test_found(void)
{
    agent_accel_driver_t *driver = agent_accel_driver_new(s_root, NULL);
    T_ASSERT(driver);
    T_ASSERT(agent_accel_driver_found(driver));
    T_EQ_STR(agent_accel_driver_version(driver), "580.1.2");
    char want[PATH_MAX];
    snprintf(want, sizeof want, "%s/opt/nvidia/lib/libcuda.so.580.1.2", s_root);
    //  libcuda under its versioned name, its soname and the bare name.
    T_EQ_STR(s_host_of(driver, "/usr/local/nvidia/lib64/libcuda.so.580.1.2"), want);
    T_EQ_STR(s_host_of(driver, "/usr/local/nvidia/lib64/libcuda.so.1"), want);
    T_EQ_STR(s_host_of(driver, "/usr/local/nvidia/lib64/libcuda.so"), want);
    snprintf(want, sizeof want, "%s/opt/nvidia/lib/libnvidia-ml.so.580.1.2", s_root);
    T_EQ_STR(s_host_of(driver, "/usr/local/nvidia/lib64/libnvidia-ml.so.1"), want);
    T_ASSERT(s_host_of(driver, "/usr/local/nvidia/lib64/libnvidia-ptxjitcompiler.so.1"));
    //  Only a versioned name for gpucomp; nvvm is absent and left out.
    T_ASSERT(s_host_of(driver, "/usr/local/nvidia/lib64/libnvidia-gpucomp.so.580.1.2"));
    T_ASSERT(!s_host_of(driver, "/usr/local/nvidia/lib64/libnvidia-nvvm.so.4"));
    //  The stale copy is never bound.
    for (size_t i = 0; i < agent_accel_driver_count(driver); i++)
        T_ASSERT(!strstr(agent_accel_driver_file(driver, i)->host_path, "470"));
    //  Executables only.
    snprintf(want, sizeof want, "%s/usr/local/nvidia/bin/nvidia-smi", s_root);
    T_EQ_STR(s_host_of(driver, "/usr/local/nvidia/bin/nvidia-smi"), want);
    //  A script alone is taken (the fake MPS control here).
    T_ASSERT(!s_host_of(driver, "/usr/local/nvidia/bin/nvidia-debugdump"));
    snprintf(want, sizeof want, "%s/usr/bin/nvidia-cuda-mps-control", s_root);
    T_EQ_STR(agent_accel_driver_binary(driver, "nvidia-cuda-mps-control"), want);
    T_ASSERT(!agent_accel_driver_binary(driver, "nvidia-cuda-mps-server"));
    agent_accel_driver_destroy(&driver);
    T_ASSERT(!driver);
}

static void
test_version_from_nvml(void)
{
    //  NVML's version wins over libcuda's link: a driver whose libraries
    //  are not of that version is not found (the kernel module and the
    //  libraries disagree: mounting them would only fail later).
    agent_accel_driver_t *driver = agent_accel_driver_new(s_root, "999.0");
    T_ASSERT(!agent_accel_driver_found(driver));
    T_EQ_INT(agent_accel_driver_count(driver), 0);
    T_EQ_STR(agent_accel_driver_version(driver), "");
    T_ASSERT(!agent_accel_driver_environ(driver, NULL, NULL));
    agent_accel_driver_destroy(&driver);
    driver = agent_accel_driver_new(s_root, "580.1.2");
    T_ASSERT(agent_accel_driver_found(driver));
    agent_accel_driver_destroy(&driver);
}

static void
test_no_driver(void)
{
    char empty[PATH_MAX];
    snprintf(empty, sizeof empty, "%s/empty", s_root);
    zsys_dir_create("%s", empty);
    agent_accel_driver_t *driver = agent_accel_driver_new(empty, NULL);
    T_ASSERT(driver);
    T_ASSERT(!agent_accel_driver_found(driver));
    T_EQ_INT(agent_accel_driver_count(driver), 0);
    agent_accel_driver_destroy(&driver);
}

static void
test_environ(void)
{
    agent_accel_driver_t *driver = agent_accel_driver_new(s_root, NULL);
    char **env = agent_accel_driver_environ(driver, NULL, NULL);
    T_ASSERT(env);
    T_EQ_STR(env[0], "LD_LIBRARY_PATH=/usr/local/nvidia/lib64");
    T_EQ_STR(env[1], "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
                     ":/usr/local/nvidia/bin");
    T_EQ_STR(env[2], "NVIDIA_DRIVER_CAPABILITIES=compute,utility");
    T_ASSERT(!env[3]);
    agent_accel_strv_destroy(&env);
    env = agent_accel_driver_environ(driver, "/opt/conda/bin:/bin", "/opt/lib");
    T_EQ_STR(env[0], "LD_LIBRARY_PATH=/usr/local/nvidia/lib64:/opt/lib");
    T_EQ_STR(env[1], "PATH=/opt/conda/bin:/bin:/usr/local/nvidia/bin");
    agent_accel_strv_destroy(&env);
    agent_accel_driver_destroy(&driver);
}

//  config.json binds the files read-only; a bind at /dev/shm replaces the
//  private tmpfs; a relative or climbing path is refused.
static void
test_bundle_binds(void)
{
    const char *args[] = {"/bin/true", NULL};
    agent_bundle_bind_t binds[] = {
        {"/host/libcuda.so.580", "/usr/local/nvidia/lib64/libcuda.so.1", true},
        {"/host/mps/0/pipe", "/tmp/nvidia-mps", false},
        {"/dev/shm/backplane-mps-a-0", "/dev/shm", false},
    };
    agent_kernel_spec_t spec = {
        .kernel_id = "k1",
        .image_rootfs = "/state/k1/rootfs",
        .args = args,
        .binds = binds,
        .bind_count = 3,
    };
    bus_error_t err;
    json_t *config =
        agent_bundle_config(&spec, "/state/k1/rootfs", "/state/k1/run", &err);
    T_ASSERT(config);
    json_t *mounts = json_object_get(config, "mounts");
    size_t shm_count = 0;
    bool lib_ro = false, pipe_rw = false;
    for (size_t i = 0; i < json_array_size(mounts); i++) {
        json_t *m = json_array_get(mounts, i);
        const char *dest = json_string_value(json_object_get(m, "destination"));
        char *options = json_dumps(json_object_get(m, "options"), JSON_COMPACT);
        if (streq(dest, "/dev/shm")) {
            shm_count++;
            T_EQ_STR(json_string_value(json_object_get(m, "type")), "bind");
        }
        if (streq(dest, "/usr/local/nvidia/lib64/libcuda.so.1"))
            lib_ro = strstr(options, "\"ro\"") != NULL;
        if (streq(dest, "/tmp/nvidia-mps"))
            pipe_rw = strstr(options, "\"rw\"") != NULL;
        free(options);
    }
    T_EQ_INT(shm_count, 1);
    T_ASSERT(lib_ro);
    T_ASSERT(pipe_rw);
    json_decref(config);

    binds[0].kernel_path = "usr/lib/x";
    T_ASSERT(!agent_bundle_config(&spec, "/state/k1/rootfs", "/state/k1/run", &err));
    T_CONTAINS(err.detail, "invalid bind");
    binds[0].kernel_path = "/usr/../etc/passwd";
    T_ASSERT(!agent_bundle_config(&spec, "/state/k1/rootfs", "/state/k1/run", &err));
    binds[0].kernel_path = "/usr/lib/x";
    binds[0].host_path = "relative";
    T_ASSERT(!agent_bundle_config(&spec, "/state/k1/rootfs", "/state/k1/run", &err));
}

int
main(void)
{
    bus_log_set_level(BUS_LOG_WARNING);
    if (!mkdtemp(s_root)) {
        perror("mkdtemp");
        return 1;
    }
    s_make_tree();
    T_RUN(test_found);
    T_RUN(test_version_from_nvml);
    T_RUN(test_no_driver);
    T_RUN(test_environ);
    T_RUN(test_bundle_binds);
    agent_fs_remove_tree(s_root);
    return T_DONE();
}
