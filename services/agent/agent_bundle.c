/*  =========================================================================
    agent_bundle - the OCI runtime config.json of one kernel, built with jansson

    The document follows the recipe that worked with runc 1.1.5 on our hosts
    (docs: shared/reference/container-runtime.md section 9): the user is
    1000:1000 with only a bounding capability set, rlimits never above the
    agent's own hard limits and no oomScoreAdj (the agent has no
    CAP_SYS_RESOURCE), memory and memory+swap limits equal (no swap), and an
    absolute cgroupsPath, because runc nests a relative one under the agent's
    own cgroup, which differs per controller.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <sys/resource.h>  //  getrlimit: clamp NOFILE to what the agent may grant
#include <sys/stat.h>      //  stat: a device node's type and numbers
#include <sys/sysmacros.h> //  major, minor

//  Docker's default set; the user is not root, so these only bound what a
//  setuid-free process could ever regain (noNewPrivileges forbids even that).
static const char *const s_capabilities[] = {"CAP_CHOWN",
                                             "CAP_DAC_OVERRIDE",
                                             "CAP_FSETID",
                                             "CAP_FOWNER",
                                             "CAP_MKNOD",
                                             "CAP_NET_RAW",
                                             "CAP_SETGID",
                                             "CAP_SETUID",
                                             "CAP_SETFCAP",
                                             "CAP_SETPCAP",
                                             "CAP_NET_BIND_SERVICE",
                                             "CAP_SYS_CHROOT",
                                             "CAP_KILL",
                                             "CAP_AUDIT_WRITE",
                                             NULL};

//  runc spec's defaults.
static const char *const s_masked_paths[] = {"/proc/acpi",
                                             "/proc/asound",
                                             "/proc/kcore",
                                             "/proc/keys",
                                             "/proc/latency_stats",
                                             "/proc/timer_list",
                                             "/proc/timer_stats",
                                             "/proc/sched_debug",
                                             "/sys/firmware",
                                             "/proc/scsi",
                                             NULL};
static const char *const s_readonly_paths[] = {
    "/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger", NULL};
static const char *const s_namespaces[] = {"pid", "ipc", "uts", "mount", "network", NULL};

static json_t *
s_string_array(const char *const *items)
{
    json_t *array = json_array();
    for (size_t i = 0; items && items[i]; i++)
        json_array_append_new(array, json_string(items[i]));
    return array;
}

static bool
s_env_has(const char *const *env, const char *key)
{
    size_t len = strlen(key);
    for (size_t i = 0; env && env[i]; i++)
        if (strncmp(env[i], key, len) == 0 && env[i][len] == '=')
            return true;
    return false;
}

static json_t *
s_mount(const char *destination, const char *type, const char *source, json_t *options)
{
    return json_pack("{s:s, s:s, s:s, s:o}", "destination", destination, "type", type,
                     "source", source, "options", options);
}

static json_t *
s_bind(const char *destination, const char *source, bool readonly)
{
    return s_mount(
        destination, "bind", source,
        json_pack("[s, s, s, s]", "rbind", readonly ? "ro" : "rw", "nosuid", "nodev"));
}

//  Our cgroup paths hold only ids we checked, so a path is /backplane/<id>.
static json_t *
s_resources(const agent_kernel_spec_t *spec)
{
    json_t *resources = json_object();
    if (spec->memory_bytes > 0)
        json_object_set_new(resources, "memory",
                            json_pack("{s:I, s:I}", "limit",
                                      (json_int_t) spec->memory_bytes, "swap",
                                      (json_int_t) spec->memory_bytes));
    json_t *cpu = json_object();
    if (spec->cpu_count > 0) {
        json_int_t quota =
            (json_int_t) (spec->cpu_count * AGENT_BUNDLE_CPU_PERIOD_US + 0.5);
        json_object_set_new(cpu, "quota", json_integer(quota));
        json_object_set_new(cpu, "period", json_integer(AGENT_BUNDLE_CPU_PERIOD_US));
    }
    if (spec->cpuset && *spec->cpuset)
        json_object_set_new(cpu, "cpus", json_string(spec->cpuset));
    if (json_object_size(cpu))
        json_object_set_new(resources, "cpu", cpu);
    else
        json_decref(cpu);
    if (spec->pids_max > 0)
        json_object_set_new(resources, "pids",
                            json_pack("{s:I}", "limit", (json_int_t) spec->pids_max));
    if (spec->device_count > 0) {
        //  Deny all, then each node; runc appends its default devices.
        json_t *rules = json_array();
        json_array_append_new(rules,
                              json_pack("{s:b, s:s}", "allow", 0, "access", "rwm"));
        for (size_t i = 0; i < spec->device_count; i++) {
            const agent_bundle_device_t *device = &spec->devices[i];
            char type[2] = {device->type, '\0'};
            json_array_append_new(
                rules, json_pack("{s:b, s:s, s:I, s:I, s:s}", "allow", 1, "type", type,
                                 "major", (json_int_t) device->major, "minor",
                                 (json_int_t) device->minor, "access", "rwm"));
        }
        json_object_set_new(resources, "devices", rules);
    }
    if (spec->io_disk_count > 0) {
        //  A rule no disk reaches: on v1 since Linux 6.10 a disk counts its
        //  I/O per cgroup only once some rule switched its throttling on.
        json_t *read = json_array(), *write = json_array();
        for (size_t i = 0; i < spec->io_disk_count && i < AGENT_BUNDLE_IO_DISKS_MAX;
             i++) {
            const agent_bundle_disk_t *disk = &spec->io_disks[i];
            json_array_append_new(read, json_pack("{s:I, s:I, s:I}", "major", disk->major,
                                                  "minor", disk->minor, "rate",
                                                  (json_int_t) AGENT_STATS_BLKIO_RATE));
            json_array_append_new(write,
                                  json_pack("{s:I, s:I, s:I}", "major", disk->major,
                                            "minor", disk->minor, "rate",
                                            (json_int_t) AGENT_STATS_BLKIO_RATE));
        }
        json_object_set_new(resources, "blockIO",
                            json_pack("{s:o, s:o}", "throttleReadBpsDevice", read,
                                      "throttleWriteBpsDevice", write));
    }
    return resources;
}

//  linux.devices: each node made at its path inside, owned by root.
static json_t *
s_devices(const agent_kernel_spec_t *spec)
{
    json_t *devices = json_array();
    for (size_t i = 0; i < spec->device_count; i++) {
        const agent_bundle_device_t *device = &spec->devices[i];
        char type[2] = {device->type, '\0'};
        json_array_append_new(devices,
                              json_pack("{s:s, s:s, s:I, s:I, s:I, s:i, s:i}", "path",
                                        device->path, "type", type, "major",
                                        (json_int_t) device->major, "minor",
                                        (json_int_t) device->minor, "fileMode",
                                        (json_int_t) device->mode, "uid", 0, "gid", 0));
    }
    return devices;
}

//  A device the config can hold: an absolute clean path, c or b, numbers in range.
static bool
s_device_valid(const agent_bundle_device_t *device)
{
    return device->path && *device->path == '/' && !strstr(device->path, "/../") &&
           (device->type == 'c' || device->type == 'b') && device->major >= 0 &&
           device->major <= UINT32_MAX && device->minor >= 0 &&
           device->minor <= UINT32_MAX && device->mode <= 07777;
}

static bool
s_cpuset_valid(const char *cpuset)
{
    for (const char *p = cpuset; *p; p++)
        if (!isdigit((unsigned char) *p) && *p != ',' && *p != '-')
            return false;
    return true;
}

//  ---------------------------------------------------------------------------
//  True when id is safe as a kernel id.

bool
agent_bundle_id_valid(const char *id)
{
    if (!id || !*id || *id == '.' || strlen(id) > AGENT_BUNDLE_KERNEL_ID_MAX)
        return false;
    for (const char *p = id; *p; p++)
        if (!isalnum((unsigned char) *p) && *p != '_' && *p != '.' && *p != '-')
            return false;
    return true;
}

//  ---------------------------------------------------------------------------
//  A host device node.

int
agent_bundle_device(const char *path, agent_bundle_device_t *device, bus_error_t *err)
{
    assert(path && device);
    if (*path != '/')
        return bus_error_set(err, BUS_STATUS_INVALID, "device %s is not absolute", path);
    struct stat st;
    if (stat(path, &st) != 0)
        return bus_error_set(err,
                             errno == ENOENT ? BUS_STATUS_NOT_FOUND : BUS_STATUS_INVALID,
                             "device %s: %s", path, strerror(errno));
    if (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode))
        return bus_error_set(err, BUS_STATUS_INVALID, "%s is not a device", path);
    *device = (agent_bundle_device_t){
        .path = path,
        .type = S_ISCHR(st.st_mode) ? 'c' : 'b',
        .major = (int64_t) major(st.st_rdev),
        .minor = (int64_t) minor(st.st_rdev),
        .mode = (uint32_t) (st.st_mode & 07777),
    };
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Build the config.json document for spec.

json_t *
agent_bundle_config(const agent_kernel_spec_t *spec,
                    const char *rootfs,
                    const char *run_dir,
                    bus_error_t *err)
{
    assert(spec);
    assert(rootfs);
    assert(run_dir);
    if (!agent_bundle_id_valid(spec->kernel_id)) {
        bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id");
        return NULL;
    }
    if (!spec->args || !spec->args[0] || !*spec->args[0]) {
        bus_error_set(err, BUS_STATUS_INVALID, "no command for kernel %s",
                      spec->kernel_id);
        return NULL;
    }
    if (spec->cpu_count < 0 || spec->memory_bytes < 0 || spec->pids_max < 0 ||
        spec->shm_bytes < 0) {
        bus_error_set(err, BUS_STATUS_INVALID, "negative resource limit");
        return NULL;
    }
    if (spec->cpuset && !s_cpuset_valid(spec->cpuset)) {
        bus_error_set(err, BUS_STATUS_INVALID, "invalid cpuset \"%s\"", spec->cpuset);
        return NULL;
    }
    if (spec->hosts_path && *spec->hosts_path != '/') {
        bus_error_set(err, BUS_STATUS_INVALID, "hosts path must be absolute");
        return NULL;
    }
    if (spec->netns_path && (*spec->netns_path != '/' || spec->host_network)) {
        bus_error_set(err, BUS_STATUS_INVALID,
                      "netns path must be absolute and excludes host network");
        return NULL;
    }
    for (size_t i = 0; i < spec->device_count; i++)
        if (!spec->devices || !s_device_valid(&spec->devices[i])) {
            bus_error_set(err, BUS_STATUS_INVALID, "invalid device %s",
                          spec->devices && spec->devices[i].path ? spec->devices[i].path
                                                                 : "(none)");
            return NULL;
        }
    if (spec->mount_count > 0 && !spec->mounts) {
        bus_error_set(err, BUS_STATUS_INVALID, "mount count without mounts");
        return NULL;
    }
    if (agent_mounts_check(spec->mounts, spec->mount_count, err) != BUS_OK)
        return NULL;
    bool own_shm = false;
    for (size_t i = 0; i < spec->bind_count; i++) {
        const agent_bundle_bind_t *bind = spec->binds ? &spec->binds[i] : NULL;
        if (!bind || !bind->host_path || *bind->host_path != '/' || !bind->kernel_path ||
            *bind->kernel_path != '/' || strstr(bind->kernel_path, "/../") ||
            (strlen(bind->kernel_path) >= 3 &&
             streq(bind->kernel_path + strlen(bind->kernel_path) - 3, "/.."))) {
            bus_error_set(err, BUS_STATUS_INVALID, "invalid bind %s",
                          bind && bind->kernel_path ? bind->kernel_path : "(none)");
            return NULL;
        }
        own_shm = own_shm || streq(bind->kernel_path, "/dev/shm");
    }
    const char *cwd = spec->cwd && *spec->cwd ? spec->cwd : AGENT_KERNEL_HOME;
    if (*cwd != '/') {
        bus_error_set(err, BUS_STATUS_INVALID, "cwd must be absolute");
        return NULL;
    }

    //  process: env defaults come after the caller's, only where it set none
    json_t *env = s_string_array(spec->env);
    if (!s_env_has(spec->env, "PATH"))
        json_array_append_new(env, json_string(AGENT_KERNEL_PATH_ENV));
    if (!s_env_has(spec->env, "HOME"))
        json_array_append_new(env, json_string("HOME=" AGENT_KERNEL_HOME));
    if (!s_env_has(spec->env, "BACKENDAI_KERNEL_ID"))
        json_array_append_new(env,
                              json_sprintf("BACKENDAI_KERNEL_ID=%s", spec->kernel_id));

    struct rlimit nofile = {AGENT_BUNDLE_NOFILE, AGENT_BUNDLE_NOFILE};
    struct rlimit own;
    if (getrlimit(RLIMIT_NOFILE, &own) == 0 && own.rlim_max != RLIM_INFINITY &&
        own.rlim_max < nofile.rlim_max)
        nofile.rlim_cur = nofile.rlim_max = own.rlim_max;

    json_t *process =
        json_pack("{s:b, s:{s:i, s:i}, s:o, s:o, s:s, s:{s:o}, s:[{s:s, s:I, s:I}], s:b}",
                  "terminal", 0, "user", "uid", AGENT_KERNEL_UID, "gid", AGENT_KERNEL_GID,
                  "args", s_string_array(spec->args), "env", env, "cwd", cwd,
                  "capabilities", "bounding", s_string_array(s_capabilities), "rlimits",
                  "type", "RLIMIT_NOFILE", "hard", (json_int_t) nofile.rlim_max, "soft",
                  (json_int_t) nofile.rlim_cur, "noNewPrivileges", 1);

    //  mounts
    char shm_size[64];
    snprintf(
        shm_size, sizeof shm_size, "size=%lld",
        (long long) (spec->shm_bytes > 0 ? spec->shm_bytes : AGENT_BUNDLE_SHM_DEFAULT));
    json_t *mounts = json_array();
    json_array_append_new(mounts, s_mount("/proc", "proc", "proc", json_array()));
    json_array_append_new(mounts,
                          s_mount("/dev", "tmpfs", "tmpfs",
                                  json_pack("[s, s, s, s]", "nosuid", "strictatime",
                                            "mode=755", AGENT_BUNDLE_DEV_SIZE)));
    json_array_append_new(
        mounts, s_mount("/dev/pts", "devpts", "devpts",
                        json_pack("[s, s, s, s, s, s]", "nosuid", "noexec", "newinstance",
                                  "ptmxmode=0666", "mode=0620", "gid=5")));
    if (!own_shm) //  else an MPS daemon's, bound below
        json_array_append_new(mounts,
                              s_mount("/dev/shm", "tmpfs", "shm",
                                      json_pack("[s, s, s, s, s]", "nosuid", "noexec",
                                                "nodev", "mode=1777", shm_size)));
    json_array_append_new(mounts,
                          s_mount("/dev/mqueue", "mqueue", "mqueue",
                                  json_pack("[s, s, s]", "nosuid", "noexec", "nodev")));
    json_array_append_new(
        mounts, s_mount("/sys", "sysfs", "sysfs",
                        json_pack("[s, s, s, s]", "nosuid", "noexec", "nodev", "ro")));
    if (spec->tini_path)
        json_array_append_new(mounts,
                              s_bind(AGENT_KERNEL_TINI_PATH, spec->tini_path, true));
    if (spec->runner_path)
        json_array_append_new(mounts,
                              s_bind(AGENT_KERNEL_RUNNER_PATH, spec->runner_path, true));
    if (spec->ttyd_path)
        json_array_append_new(mounts,
                              s_bind(AGENT_KERNEL_TTYD_PATH, spec->ttyd_path, true));
    json_array_append_new(mounts, s_bind(AGENT_KERNEL_RUN_DIR, run_dir, false));
    //  A file bind pins its inode: whoever updates it rewrites it in place.
    if (spec->hosts_path)
        json_array_append_new(mounts, s_bind("/etc/hosts", spec->hosts_path, true));
    for (size_t i = 0; i < spec->bind_count; i++)
        json_array_append_new(mounts,
                              s_bind(spec->binds[i].kernel_path, spec->binds[i].host_path,
                                     spec->binds[i].readonly));
    //  Virtual folders last, over the home of the overlay root.
    for (size_t i = 0; i < spec->mount_count; i++)
        json_array_append_new(mounts, s_bind(spec->mounts[i].kernel_path,
                                             spec->mounts[i].host_path,
                                             spec->mounts[i].readonly));

    //  linux
    json_t *namespaces = json_array();
    for (size_t i = 0; s_namespaces[i]; i++) {
        bool network = streq(s_namespaces[i], "network");
        if (network && spec->host_network)
            continue;
        if (network && spec->netns_path)
            json_array_append_new(namespaces, json_pack("{s:s, s:s}", "type", "network",
                                                        "path", spec->netns_path));
        else
            json_array_append_new(namespaces,
                                  json_pack("{s:s}", "type", s_namespaces[i]));
    }
    json_t *linux_ = json_pack("{s:s+, s:o, s:o, s:o, s:o}", "cgroupsPath",
                               "/" AGENT_BUNDLE_CGROUP_PARENT "/", spec->kernel_id,
                               "resources", s_resources(spec), "namespaces", namespaces,
                               "maskedPaths", s_string_array(s_masked_paths),
                               "readonlyPaths", s_string_array(s_readonly_paths));
    if (linux_ && spec->device_count > 0)
        json_object_set_new(linux_, "devices", s_devices(spec));

    char hostname[AGENT_BUNDLE_HOSTNAME_MAX + 1];
    snprintf(hostname, sizeof hostname, "%s",
             spec->hostname && *spec->hostname ? spec->hostname : spec->kernel_id);
    json_t *config =
        json_pack("{s:s, s:o, s:{s:s, s:b}, s:s, s:o, s:{s:s}, s:o}", "ociVersion",
                  "1.0.2", "process", process, "root", "path", rootfs, "readonly", 0,
                  "hostname", hostname, "mounts", mounts, "annotations",
                  "ai.backend.kernel-id", spec->kernel_id, "linux", linux_);
    if (!config)
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot build config.json");
    return config;
}

//  ---------------------------------------------------------------------------
//  Write bundle_dir/config.json for spec.

int
agent_bundle_write(const agent_kernel_spec_t *spec,
                   const char *bundle_dir,
                   const char *rootfs,
                   const char *run_dir,
                   bus_error_t *err)
{
    json_t *config = agent_bundle_config(spec, rootfs, run_dir, err);
    if (!config)
        return err ? err->status : BUS_STATUS_INVALID;
    char *path = zsys_sprintf("%s/config.json", bundle_dir);
    int rc = json_dump_file(config, path, JSON_INDENT(1));
    json_decref(config);
    if (rc != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot write %s", path);
        zstr_free(&path);
        return BUS_STATUS_INTERNAL;
    }
    zstr_free(&path);
    return BUS_OK;
}
