/*  =========================================================================
    agent_accel_cuda_test - the CUDA plugin against the fake NVML, and the
    GPU figures of kernels

    The fake library ($BACKPLANE_BINDIR/../lib/fake-nvml/libnvidia-ml.so.1,
    built by make check) reads its GPUs from the file $BACKPLANE_FAKE_NVML,
    which each test writes. Checked: discovery (ids, models, memory, minor
    numbers, slots), the driver's version, NVML initialised once and kept
    while the plugin has GPUs, shut down at once without GPUs and when the
    plugin goes, per-GPU figures that follow the file, compute processes
    with their SM use, and a kernel's figures: the processes on its GPUs
    whose cgroup is its own (this test's own process and cgroup stand in
    for a kernel's), none of another GPU, another cgroup or a gone process.
    The cgroup matcher gets v1, v2 and malformed lines. First of all, the
    real library where the machine has one: its driver version and figures.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <dlfcn.h>
#include "t.h"

#define GIB         (1ULL << 30)
#define DRIVER      "550.54.15"
#define UUID0       "GPU-00000000-1111-2222-3333-444444444444"
#define UUID1       "GPU-55555555-6666-7777-8888-999999999999"
#define GONE_PID    2147483646 //  above any pid_max
#define FAKE_ENV    "BACKPLANE_FAKE_NVML"
#define FAKE_SUFFIX "/../lib/fake-nvml/libnvidia-ml.so.1"

static char s_library[PATH_MAX];
static char s_file[] = "/tmp/fake-nvml-test-XXXXXX";
static void *s_fake;         //  our own reference, so its counters last
static int (*s_inits)(void); //  fake_nvml_inits
static int (*s_live)(void);  //  fake_nvml_live

//  Writes the fake's file.
static bool
s_write(const char *text)
{
    FILE *file = fopen(s_file, "w");
    if (!file)
        return false;
    bool ok = fputs(text, file) >= 0;
    return fclose(file) == 0 && ok;
}

static agent_accel_plugin_t *
s_plugin(agent_accel_mode_t mode)
{
    agent_accel_cuda_config_t config;
    agent_accel_cuda_config_init(&config);
    config.library = s_library;
    config.mode = mode;
    return agent_accel_cuda_new(&config);
}

//  The path of this process's cgroup on its deepest hierarchy, as
//  /proc/self/cgroup names it.
static void
s_own_cgroup(char *path, size_t size)
{
    char line[1024];
    FILE *file = fopen("/proc/self/cgroup", "r");
    snprintf(path, size, "/");
    while (file && fgets(line, sizeof line, file)) {
        line[strcspn(line, "\n")] = '\0';
        char *p = strchr(line, ':');
        p = p ? strchr(p + 1, ':') : NULL;
        if (p && strlen(p + 1) > strlen(path))
            snprintf(path, size, "%s", p + 1);
    }
    if (file)
        fclose(file);
}

static void
test_setup(void)
{
    const char *bindir = getenv("BACKPLANE_BINDIR");
    snprintf(s_library, sizeof s_library, "%s" FAKE_SUFFIX,
             bindir ? bindir : "build/bin");
    int fd = mkstemp(s_file);
    T_ASSERT(fd >= 0);
    close(fd);
    setenv(FAKE_ENV, s_file, 1);
    s_fake = dlopen(s_library, RTLD_NOW | RTLD_LOCAL);
    if (!s_fake)
        T_FAIL_("no fake NVML at %s (make fake-nvml): %s", s_library, dlerror());
    void *inits = dlsym(s_fake, "fake_nvml_inits"),
         *live = dlsym(s_fake, "fake_nvml_live");
    T_ASSERT(inits && live);
    memcpy(&s_inits, &inits, sizeof inits);
    memcpy(&s_live, &live, sizeof live);
}

//  No driver (the file is empty of GPUs, or says init fails): no devices,
//  no slots, nothing left initialised.
static void
test_no_gpus(void)
{
    T_ASSERT(s_fake);
    T_ASSERT(s_write("driver " DRIVER "\n"));
    int before = s_inits();
    agent_accel_plugin_t *plugin = s_plugin(AGENT_ACCEL_MODE_BOTH);
    T_ASSERT(plugin);
    T_EQ_INT(agent_accel_plugin_device_count(plugin), 0);
    T_EQ_INT(agent_accel_plugin_slot_count(plugin), 0);
    T_EQ_INT(s_inits(), before + 1);
    T_EQ_INT(s_live(), 0); //  shut down at once
    T_ASSERT(agent_accel_cuda_driver_version(plugin) == NULL);
    agent_accel_gpu_stats_t stats[2];
    T_EQ_INT(agent_accel_cuda_gpu_stats(plugin, stats, 2), 0);
    agent_accel_plugin_destroy(&plugin);

    T_ASSERT(s_write("fail init\ngpu " UUID0 " 0 1000 0 0 Fake\n"));
    plugin = s_plugin(AGENT_ACCEL_MODE_BOTH);
    T_ASSERT(plugin);
    T_EQ_INT(agent_accel_plugin_device_count(plugin), 0);
    T_EQ_INT(s_live(), 0);
    agent_accel_plugin_destroy(&plugin);

    unsetenv(FAKE_ENV); //  the fake's "no driver"
    plugin = s_plugin(AGENT_ACCEL_MODE_BOTH);
    setenv(FAKE_ENV, s_file, 1);
    T_ASSERT(plugin);
    T_EQ_INT(agent_accel_plugin_device_count(plugin), 0);
    agent_accel_plugin_destroy(&plugin);
}

//  Two GPUs, one without a device node; the driver's version; NVML kept
//  initialised once while the plugin lives, shut down when it goes.
static void
test_discovery(void)
{
    T_ASSERT(s_fake);
    T_ASSERT(s_write("# two GPUs\n"
                     "driver " DRIVER "\n"
                     "gpu " UUID0 " 0 85899345920 1073741824 10 NVIDIA H100 80GB HBM3\n"
                     "gpu " UUID1 " -1 42949672960 0 0 NVIDIA A100-PCIE-40GB\n"));
    int before = s_inits();
    agent_accel_plugin_t *plugin = s_plugin(AGENT_ACCEL_MODE_BOTH);
    T_ASSERT(plugin);
    T_EQ_INT(agent_accel_plugin_device_count(plugin), 2);
    T_EQ_INT(agent_accel_plugin_slot_count(plugin), 2);
    const agent_accel_device_t *d0 = agent_accel_plugin_device(plugin, 0);
    const agent_accel_device_t *d1 = agent_accel_plugin_device(plugin, 1);
    T_EQ_STR(d0->id, UUID0);
    T_EQ_STR(d0->model, "NVIDIA H100 80GB HBM3");
    T_EQ_INT(d0->memory_bytes, 80 * GIB);
    T_EQ_INT(d0->minor, 0);
    T_EQ_INT(d0->index, 0);
    T_EQ_STR(d1->id, UUID1);
    T_EQ_STR(d1->model, "NVIDIA A100-PCIE-40GB");
    T_EQ_INT(d1->minor, -1);
    T_EQ_INT(d1->index, 1);
    T_EQ_STR(agent_accel_cuda_driver_version(plugin), DRIVER);
    T_EQ_INT(s_inits(), before + 1);
    T_EQ_INT(s_live(), 1);
    //  Figures need no new initialisation.
    agent_accel_gpu_stats_t stats[4];
    agent_accel_gpu_process_t processes[4];
    for (int i = 0; i < 5; i++) {
        T_EQ_INT(agent_accel_cuda_gpu_stats(plugin, stats, 4), 2);
        T_EQ_INT(agent_accel_cuda_processes(plugin, processes, 4), 0);
    }
    T_EQ_INT(s_inits(), before + 1);
    //  The allocator finds it; the mock is not a CUDA plugin.
    agent_accel_t *accel = agent_accel_new();
    bus_error_t err;
    T_EQ_INT(agent_accel_add(accel, &plugin, &err), BUS_OK);
    const agent_accel_plugin_t *cuda = agent_accel_cuda_plugin(accel);
    T_ASSERT(cuda);
    T_EQ_STR(agent_accel_cuda_driver_version(cuda), DRIVER);
    agent_accel_destroy(&accel);
    T_EQ_INT(s_live(), 0);
    agent_accel_mock_config_t mock;
    agent_accel_mock_config_init(&mock);
    plugin = agent_accel_mock_new(&mock, &err);
    T_ASSERT(plugin);
    T_ASSERT(agent_accel_cuda_driver_version(plugin) == NULL);
    T_EQ_INT(agent_accel_cuda_gpu_stats(plugin, stats, 4), 0);
    T_EQ_INT(agent_accel_cuda_processes(plugin, processes, 4), 0);
    accel = agent_accel_new();
    T_EQ_INT(agent_accel_add(accel, &plugin, &err), BUS_OK);
    T_ASSERT(agent_accel_cuda_plugin(accel) == NULL);
    T_ASSERT(agent_stats_gpus_new(accel) == NULL);
    agent_accel_destroy(&accel);
}

//  Per-GPU figures follow the file while the plugin runs.
static void
test_gpu_stats(void)
{
    T_ASSERT(s_fake);
    T_ASSERT(s_write("driver " DRIVER "\n"
                     "gpu " UUID0 " 0 1000000 250000 37 Fake\n"
                     "gpu " UUID1 " 1 2000000 0 0 Fake\n"));
    agent_accel_plugin_t *plugin = s_plugin(AGENT_ACCEL_MODE_DEVICE);
    T_ASSERT(plugin);
    agent_accel_gpu_stats_t stats[2];
    T_EQ_INT(agent_accel_cuda_gpu_stats(plugin, stats, 2), 2);
    T_EQ_INT(stats[0].device, 0);
    T_EQ_INT(stats[0].util_pct, 37);
    T_EQ_INT(stats[0].mem_used_bytes, 250000);
    T_EQ_INT(stats[0].mem_total_bytes, 1000000);
    T_EQ_INT(stats[1].device, 1);
    T_EQ_INT(stats[1].util_pct, 0);
    T_EQ_INT(stats[1].mem_total_bytes, 2000000);
    T_EQ_INT(agent_accel_cuda_gpu_stats(plugin, stats, 1), 1); //  room for one
    T_ASSERT(s_write("driver " DRIVER "\n"
                     "gpu " UUID0 " 0 1000000 900000 100 Fake\n"
                     "gpu " UUID1 " 1 2000000 5 3 Fake\n"));
    T_EQ_INT(agent_accel_cuda_gpu_stats(plugin, stats, 2), 2);
    T_EQ_INT(stats[0].util_pct, 100);
    T_EQ_INT(stats[0].mem_used_bytes, 900000);
    T_EQ_INT(stats[1].util_pct, 3);
    T_EQ_INT(stats[1].mem_used_bytes, 5);
    agent_accel_plugin_destroy(&plugin);
    T_EQ_INT(s_live(), 0);
}

static void s_kernel_figures(bool written);

//  A kernel holding GPU 0 (this process's cgroup standing in for its
//  own): its processes on GPU 0 count, the same process on GPU 1 (not its)
//  does not, nor a process that is gone, nor any under another cgroup.
static void
test_kernel_figures(void)
{
    T_ASSERT(s_fake);
    //  A second process of this cgroup: a child that waits to be killed.
    pid_t child = fork();
    T_ASSERT(child >= 0);
    if (child == 0) {
        pause();
        _exit(0);
    }
    char text[1024];
    snprintf(text, sizeof text,
             "driver " DRIVER "\n"
             "gpu " UUID0 " 0 8000000000 3000000000 60 Fake\n"
             "gpu " UUID1 " 1 4000000000 500 5 Fake\n"
             "proc 0 %d 1000000000 40\n"
             "proc 0 %d 200000000 15\n"
             "proc 1 %d 500 5\n"
             "proc 0 %d 7777 7\n",
             (int) getpid(), (int) child, (int) getpid(), GONE_PID);
    bool written = s_write(text);
    s_kernel_figures(written);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
}

//  test_kernel_figures' checks, with the file written.
static void
s_kernel_figures(bool written)
{
    T_ASSERT(written);
    agent_accel_plugin_t *plugin = s_plugin(AGENT_ACCEL_MODE_BOTH);
    T_ASSERT(plugin);
    agent_accel_gpu_process_t processes[8];
    T_EQ_INT(agent_accel_cuda_processes(plugin, processes, 8), 4);
    T_EQ_INT(processes[0].pid, getpid());
    T_EQ_INT(processes[0].device, 0);
    T_EQ_INT(processes[0].mem_bytes, 1000000000);
    T_EQ_INT(processes[0].sm_util_pct, 40);
    T_EQ_INT(processes[1].mem_bytes, 200000000);
    T_EQ_INT(processes[1].sm_util_pct, 15);
    T_EQ_INT(processes[2].pid, GONE_PID);
    T_EQ_INT(processes[3].device, 1);
    T_EQ_INT(processes[3].mem_bytes, 500);

    agent_accel_t *accel = agent_accel_new();
    bus_error_t err;
    T_EQ_INT(agent_accel_add(accel, &plugin, &err), BUS_OK);
    agent_accel_alloc_t alloc;
    proto_kv_t one[] = {{"cuda.device", "1"}};
    T_EQ_INT(agent_accel_allocate(accel, "k1", one, 1, &alloc, &err), BUS_OK);
    proto_kv_t half[] = {{"cuda.shares", "0.5"}};
    T_EQ_INT(agent_accel_allocate(accel, "k2", half, 1, &alloc, &err), BUS_OK);
    char own[PATH_MAX], path[PATH_MAX];
    s_own_cgroup(own, sizeof own);
    printf("# own cgroup %s\n", own);

    agent_stats_gpus_t *gpus = agent_stats_gpus_new(accel);
    T_ASSERT(gpus);
    agent_stats_gpu_t gpu;
    //  k1 holds GPU 0 whole: this process's two entries there.
    agent_stats_gpus_kernel(gpus, agent_accel_lookup(accel, "k1"), own, &gpu);
    T_EQ_INT(gpu.devices, 1);
    T_EQ_INT(gpu.mem_total_bytes, 8000000000);
    T_EQ_INT(gpu.mem_bytes, 1200000000);
    T_EQ_INT(gpu.util_pct, 55);
    //  k2 holds half of GPU 1: the entry there.
    agent_stats_gpus_kernel(gpus, agent_accel_lookup(accel, "k2"), own, &gpu);
    T_EQ_INT(gpu.devices, 1);
    T_EQ_INT(gpu.mem_total_bytes, 4000000000);
    T_EQ_INT(gpu.mem_bytes, 500);
    T_EQ_INT(gpu.util_pct, 5);
    //  Another cgroup: its GPU, none of its use.
    agent_stats_cgroup_path("k1", path, sizeof path);
    T_EQ_STR(path, "/backplane/k1");
    agent_stats_gpus_kernel(gpus, agent_accel_lookup(accel, "k1"), path, &gpu);
    T_EQ_INT(gpu.devices, 1);
    T_EQ_INT(gpu.mem_bytes, 0);
    T_EQ_INT(gpu.util_pct, 0);
    //  Nothing held: all 0.
    agent_stats_gpus_kernel(gpus, NULL, own, &gpu);
    T_EQ_INT(gpu.devices, 0);
    T_EQ_INT(gpu.mem_bytes, 0);
    T_EQ_INT(gpu.mem_total_bytes, 0);
    agent_stats_gpus_destroy(&gpus);
    agent_stats_gpus_destroy(&gpus);
    agent_accel_destroy(&accel);
    T_EQ_INT(s_live(), 0);
}

static void
test_cgroup_within(void)
{
    const char *v2 = "0::/backplane/k1\n";
    T_ASSERT(agent_stats_cgroup_within(v2, "/backplane/k1"));
    T_ASSERT(agent_stats_cgroup_within(v2, "/backplane/k1/"));
    T_ASSERT(agent_stats_cgroup_within(v2, "/backplane"));
    T_ASSERT(agent_stats_cgroup_within(v2, "/"));
    T_ASSERT(!agent_stats_cgroup_within(v2, "/backplane/k"));
    T_ASSERT(!agent_stats_cgroup_within(v2, "/backplane/k10"));
    T_ASSERT(agent_stats_cgroup_within("0::/backplane/k1/init.scope", "/backplane/k1"));
    const char *v1 = "12:pids:/user.slice\n"
                     "4:memory:/backplane/k2\n"
                     "1:name=systemd:/user.slice/session-1.scope\n";
    T_ASSERT(agent_stats_cgroup_within(v1, "/backplane/k2"));
    T_ASSERT(!agent_stats_cgroup_within(v1, "/backplane/k1"));
    T_ASSERT(agent_stats_cgroup_within("3:cpu,cpuacct:/a:b/c", "/a:b"));
    const char *bad[] = {"",    "\n\n", "garbage", "0:/backplane/k1", "0::backplane/k1",
                         "0::", ":::"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (agent_stats_cgroup_within(bad[i], "/backplane/k1"))
            T_FAIL_("matched \"%s\"", bad[i]);
}

//  The real NVML where there is one: its driver version and figures.
static void
test_real_nvml(void)
{
    agent_accel_cuda_config_t config;
    agent_accel_cuda_config_init(&config);
    agent_accel_plugin_t *plugin = agent_accel_cuda_new(&config);
    T_ASSERT(plugin);
    size_t count = agent_accel_plugin_device_count(plugin);
    if (count == 0) {
        agent_accel_plugin_destroy(&plugin);
        T_SKIP("no NVIDIA GPU here");
    }
    const char *driver = agent_accel_cuda_driver_version(plugin);
    printf("# driver %s\n", driver ? driver : "(none)");
    T_ASSERT(driver && isdigit((unsigned char) *driver));
    agent_accel_gpu_stats_t stats[AGENT_ACCEL_DEVICES_MAX];
    size_t n = agent_accel_cuda_gpu_stats(plugin, stats, AGENT_ACCEL_DEVICES_MAX);
    T_EQ_INT(n, count);
    for (size_t i = 0; i < n; i++) {
        printf("# gpu %u util=%u%% mem=%" PRIu64 "/%" PRIu64 "\n", stats[i].device,
               stats[i].util_pct, stats[i].mem_used_bytes, stats[i].mem_total_bytes);
        T_ASSERT(stats[i].mem_total_bytes > 0);
        T_ASSERT(stats[i].mem_used_bytes <= stats[i].mem_total_bytes);
        T_ASSERT(stats[i].util_pct <= 100);
    }
    agent_accel_gpu_process_t processes[AGENT_ACCEL_PROCESSES_MAX];
    n = agent_accel_cuda_processes(plugin, processes, AGENT_ACCEL_PROCESSES_MAX);
    for (size_t i = 0; i < n; i++)
        printf("# process pid=%u gpu=%u mem=%" PRIu64 " sm=%u%%\n", processes[i].pid,
               processes[i].device, processes[i].mem_bytes, processes[i].sm_util_pct);
    agent_accel_plugin_destroy(&plugin);
}

int
main(void)
{
    bus_log_set_level(BUS_LOG_NOTICE);
    T_RUN(test_real_nvml); //  first: the fake, once loaded, answers its soname
    T_RUN(test_setup);
    T_RUN(test_no_gpus);
    T_RUN(test_discovery);
    T_RUN(test_gpu_stats);
    T_RUN(test_kernel_figures);
    T_RUN(test_cgroup_within);
    if (s_fake)
        dlclose(s_fake);
    unlink(s_file);
    return T_DONE();
}
