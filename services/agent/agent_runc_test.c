/*  =========================================================================
    agent_runc_test - the container driver against the real runc

    The config.json cases need nothing. The container cases need root, runc,
    the static busybox (Debian busybox-static) and tini-static; without them
    they are reported as one passing test with a note, so make check does not
    fail for want of a container host. The setup builds a tiny busybox rootfs
    in a temp dir; each kernel runs tini-static as PID 1 over `/bin/sh -c`.
    Every case removes what it made, and the last checks that nothing is left:
    no runc container under our root, no mount under the temp dir (the
    overlay, the scratch, the run and log tmpfs), no kernel cgroup.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <glob.h>         //  leftover cgroup dirs
#include <sys/resource.h> //  getrlimit: the NOFILE clamp
#include <sys/stat.h>     //  stat
#include "t.h"

#define TINI_HOST "/usr/bin/tini-static"
#define BUSYBOX   "/bin/busybox"
#define WAIT_MS   10000

static char s_tmp[] = "/tmp/agent_runc_test.XXXXXX";
static char s_image[256];
static char s_state[256];
static agent_runc_t *s_runc;

//  Exits the reap callback saw.
typedef struct {
    char id[AGENT_BUNDLE_KERNEL_ID_MAX + 1];
    int exit_code;
    bool oom_killed;
} exit_t;
static exit_t s_exits[32];
static size_t s_exit_count;

static void
s_on_exit(const char *kernel_id, int pid, int exit_code, bool oom_killed, void *arg)
{
    (void) pid;
    (void) arg;
    if (!kernel_id || s_exit_count == sizeof s_exits / sizeof s_exits[0])
        return;
    exit_t *record = &s_exits[s_exit_count++];
    snprintf(record->id, sizeof record->id, "%s", kernel_id);
    record->exit_code = exit_code;
    record->oom_killed = oom_killed;
}

//  Reap until kernel_id's exit is seen; NULL after WAIT_MS.
static const exit_t *
s_wait_exit(const char *kernel_id)
{
    int64_t deadline = zclock_mono() + WAIT_MS;
    while (zclock_mono() < deadline) {
        agent_runc_reap(s_runc, s_on_exit, NULL);
        for (size_t i = 0; i < s_exit_count; i++)
            if (streq(s_exits[i].id, kernel_id))
                return &s_exits[i];
        zclock_sleep(10);
    }
    return NULL;
}

static char *
s_kernel_id(const char *name)
{
    return zsys_sprintf("t%d-%s", (int) getpid(), name);
}

static void
s_spec(agent_kernel_spec_t *spec, const char *id, const char *script, const char **args)
{
    memset(spec, 0, sizeof *spec);
    args[0] = AGENT_KERNEL_TINI_PATH;
    args[1] = "-s";
    args[2] = "--";
    args[3] = "/bin/sh";
    args[4] = "-c";
    args[5] = script;
    args[6] = NULL;
    spec->kernel_id = id;
    spec->image_rootfs = s_image;
    spec->args = args;
    spec->tini_path = TINI_HOST;
}

static char *
s_kernel_file(const char *id, const char *leaf)
{
    char *path = agent_runc_kernel_path(s_runc, id, leaf);
    FILE *file = fopen(path, "r");
    zstr_free(&path);
    if (!file)
        return NULL;
    char *data = calloc(1, 65536);
    size_t n = fread(data, 1, 65535, file);
    data[n] = '\0';
    fclose(file);
    return data;
}

static bool
s_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

//  Mounts whose mount point lies under the temp dir.
static int
s_mounts_under_tmp(void)
{
    FILE *file = fopen("/proc/self/mountinfo", "r");
    if (!file)
        return -1;
    int count = 0;
    char line[4096];
    while (fgets(line, sizeof line, file))
        if (strstr(line, s_tmp))
            count++;
    fclose(file);
    return count;
}

static int
s_cgroup_dirs(const char *id)
{
    char pattern[PATH_MAX];
    snprintf(pattern, sizeof pattern, "/sys/fs/cgroup/*/backplane/%s", id);
    glob_t found;
    int count = glob(pattern, 0, NULL, &found) == 0 ? (int) found.gl_pathc : 0;
    globfree(&found);
    snprintf(pattern, sizeof pattern, "/sys/fs/cgroup/backplane/%s", id);
    count += s_exists(pattern);
    return count;
}

//  Nothing of kernel id is left: dir, mount, runc state, cgroups.
static bool
s_gone(const char *id)
{
    char *dir = agent_runc_kernel_path(s_runc, id, NULL);
    char state[PATH_MAX];
    snprintf(state, sizeof state, "%s/runc/%s", s_state, id);
    bool gone = !s_exists(dir) && !s_exists(state) && s_cgroup_dirs(id) == 0;
    zstr_free(&dir);
    return gone;
}

//  ---------------------------------------------------------------------------
//  config.json (no root needed)

static void
test_bundle_config(void)
{
    const char *args[] = {"/bin/sh", "-c", "true", NULL};
    const char *env[] = {"FOO=bar", NULL};
    agent_kernel_spec_t spec = {.kernel_id = "k1",
                                .image_rootfs = "/img",
                                .args = args,
                                .env = env,
                                .cpu_count = 1.5,
                                .cpuset = "0-1",
                                .memory_bytes = 64 << 20,
                                .pids_max = 20,
                                .shm_bytes = 1 << 20,
                                .runner_path = "/host/runner",
                                .tini_path = "/host/tini",
                                .ttyd_path = "/host/ttyd"};
    bus_error_t err = {0};
    json_t *config = agent_bundle_config(&spec, "/k/bundle/rootfs", "/k/run", &err);
    T_ASSERT(config);
    char *text = json_dumps(config, JSON_COMPACT);
    json_t *process = json_object_get(config, "process");
    json_t *linux_ = json_object_get(config, "linux");
    json_t *resources = json_object_get(linux_, "resources");
    bool ok_user = json_integer_value(
                       json_object_get(json_object_get(process, "user"), "uid")) == 1000;
    char *cwd = strdup(json_string_value(json_object_get(process, "cwd")));
    char *cgroup = strdup(json_string_value(json_object_get(linux_, "cgroupsPath")));
    json_int_t limit = json_integer_value(
        json_object_get(json_object_get(resources, "memory"), "limit"));
    json_int_t swap =
        json_integer_value(json_object_get(json_object_get(resources, "memory"), "swap"));
    json_int_t quota =
        json_integer_value(json_object_get(json_object_get(resources, "cpu"), "quota"));
    json_int_t pids =
        json_integer_value(json_object_get(json_object_get(resources, "pids"), "limit"));
    json_t *caps = json_object_get(process, "capabilities");
    json_t *rlimit = json_array_get(json_object_get(process, "rlimits"), 0);
    struct rlimit own;
    getrlimit(RLIMIT_NOFILE, &own);
    json_int_t nofile = json_integer_value(json_object_get(rlimit, "hard"));
    bool nofile_ok =
        nofile > 0 && (own.rlim_max == RLIM_INFINITY || (rlim_t) nofile <= own.rlim_max);
    char *dumped = strdup(text);
    free(text);
    json_t *caps_copy = json_copy(caps);
    json_decref(config);
    size_t caps_size = json_object_size(caps_copy);
    json_decref(caps_copy);
    bool cwd_ok = streq(cwd, "/home/work");
    bool cgroup_ok = streq(cgroup, "/backplane/k1");
    free(cwd);
    free(cgroup);

    T_ASSERT(ok_user);
    T_ASSERT(cwd_ok);
    T_ASSERT(cgroup_ok);
    T_EQ_INT(limit, 64 << 20);
    T_EQ_INT(swap, 64 << 20);
    T_EQ_INT(quota, 150000);
    T_EQ_INT(pids, 20);
    T_EQ_INT(caps_size, 1); //  bounding only: uid 1000 holds none
    T_ASSERT(nofile_ok);
    T_CONTAINS(dumped, "\"FOO=bar\"");
    T_CONTAINS(dumped, "\"HOME=/home/work\"");
    T_CONTAINS(dumped, "\"BACKENDAI_KERNEL_ID=k1\"");
    T_CONTAINS(dumped, "\"noNewPrivileges\":true");
    T_CONTAINS(dumped, "\"cpus\":\"0-1\"");
    T_CONTAINS(dumped, "\"size=1048576\"");
    T_CONTAINS(dumped, "{\"type\":\"network\"}");
    T_CONTAINS(dumped,
               "\"destination\":\"/opt/backplane/bin/backplane-runner\",\"type\":"
               "\"bind\",\"source\":\"/host/runner\",\"options\":[\"rbind\",\"ro\"");
    T_CONTAINS(dumped,
               "\"destination\":\"/opt/backplane/bin/backplane-ttyd\",\"type\":"
               "\"bind\",\"source\":\"/host/ttyd\",\"options\":[\"rbind\",\"ro\"");
    T_CONTAINS(dumped,
               "\"destination\":\"/opt/backplane/run\",\"type\":\"bind\",\"source\":"
               "\"/k/run\",\"options\":[\"rbind\",\"rw\"");
    T_CONTAINS(dumped, "\"/proc/kcore\"");
    T_CONTAINS(dumped, "\"/proc/sysrq-trigger\"");
    T_ASSERT(!strstr(dumped, "oomScoreAdj"));
    free(dumped);
}

static void
test_bundle_invalid(void)
{
    const char *args[] = {"/bin/sh", NULL};
    const char *no_args[] = {NULL};
    agent_kernel_spec_t spec = {
        .kernel_id = "../x", .image_rootfs = "/img", .args = args};
    bus_error_t err = {0};
    T_ASSERT(!agent_bundle_config(&spec, "/r", "/run", &err));
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    spec.kernel_id = "ok";
    spec.args = no_args;
    T_ASSERT(!agent_bundle_config(&spec, "/r", "/run", &err));
    spec.args = args;
    spec.cpuset = "0;reboot";
    T_ASSERT(!agent_bundle_config(&spec, "/r", "/run", &err));
    spec.cpuset = NULL;
    spec.memory_bytes = -1;
    T_ASSERT(!agent_bundle_config(&spec, "/r", "/run", &err));
    T_ASSERT(!agent_bundle_id_valid(".hidden"));
    T_ASSERT(!agent_bundle_id_valid("a/b"));
    T_ASSERT(agent_bundle_id_valid("3f1c2d4e-aaaa-bbbb-cccc-0123456789ab"));
}

//  ---------------------------------------------------------------------------
//  Containers

static void
test_exit_code_and_log(void)
{
    char *id = s_kernel_id("exit");
    const char *args[8];
    agent_kernel_spec_t spec;
    s_spec(&spec, id, "echo hello; exit 3", args);
    bus_error_t err = {0};
    int rc = agent_runc_create(s_runc, &spec, &err);
    if (rc != 0)
        fprintf(stderr, "# create: %s\n", err.detail);
    T_EQ_INT(rc, 0);
    const exit_t *exit = s_wait_exit(id);
    T_ASSERT(exit);
    T_EQ_INT(exit->exit_code, 3);
    T_ASSERT(!exit->oom_killed);
    T_EQ_INT(agent_runc_pid(s_runc, id), -1);
    char *log = s_kernel_file(id, "container.log");
    bool hello = log && strstr(log, "hello\n");
    free(log);
    T_ASSERT(hello);
    //  A second kernel with the same id is refused.
    T_EQ_INT(agent_runc_create(s_runc, &spec, &err), BUS_STATUS_CONFLICT);
    int code = 0;
    T_EQ_INT(agent_runc_remove(s_runc, id, 1000, &code, &err), 0);
    T_EQ_INT(code, 3);
    T_ASSERT(s_gone(id));
    T_EQ_INT(agent_runc_remove(s_runc, id, 1000, NULL, &err), BUS_STATUS_NOT_FOUND);
    zstr_free(&id);
}

static void
test_user_home_overlay(void)
{
    char *id = s_kernel_id("user");
    const char *args[8];
    agent_kernel_spec_t spec;
    s_spec(&spec, id,
           "echo uid=$(id -u) gid=$(id -g) cwd=$(pwd); echo data > f.txt;"
           " echo net=$(ls /sys/class/net); echo host=$(hostname);"
           " touch /opt/backplane/bin/x 2>/dev/null || echo bin-ro;"
           " touch /opt/backplane/run/r && echo run-rw",
           args);
    bus_error_t err = {0};
    int rc = agent_runc_create(s_runc, &spec, &err);
    if (rc != 0)
        fprintf(stderr, "# create: %s\n", err.detail);
    T_EQ_INT(rc, 0);
    const exit_t *exit = s_wait_exit(id);
    T_ASSERT(exit);
    T_EQ_INT(exit->exit_code, 0);
    char *log = s_kernel_file(id, "container.log");
    char *data = s_kernel_file(id, "upper/home/work/f.txt");
    char *run_file = agent_runc_kernel_path(s_runc, id, "run/r");
    bool run_written = s_exists(run_file);
    zstr_free(&run_file);
    char image_file[PATH_MAX];
    snprintf(image_file, sizeof image_file, "%s/home/work/f.txt", s_image);
    bool in_image = s_exists(image_file);
    char *host = zsys_sprintf("host=%s\n", id);
    bool ok = log && strstr(log, "uid=1000 gid=1000 cwd=/home/work\n") &&
              strstr(log, "net=lo\n") && strstr(log, host) && strstr(log, "bin-ro\n") &&
              strstr(log, "run-rw\n");
    if (!ok)
        fprintf(stderr, "# log: %s\n", log ? log : "(none)");
    free(log);
    zstr_free(&host);
    T_ASSERT(ok);
    T_ASSERT(data && streq(data, "data\n"));
    free(data);
    T_ASSERT(!in_image);
    T_ASSERT(run_written);
    T_EQ_INT(agent_runc_remove(s_runc, id, 1000, NULL, &err), 0);
    T_ASSERT(s_gone(id));
    zstr_free(&id);
}

static void
test_memory_oom(void)
{
    char *id = s_kernel_id("oom");
    const char *args[8];
    agent_kernel_spec_t spec;
    s_spec(&spec, id, "exec dd if=/dev/zero of=/dev/null bs=96M count=1", args);
    spec.memory_bytes = 32 << 20;
    bus_error_t err = {0};
    int rc = agent_runc_create(s_runc, &spec, &err);
    if (rc != 0)
        fprintf(stderr, "# create: %s\n", err.detail);
    T_EQ_INT(rc, 0);
    const exit_t *exit = s_wait_exit(id);
    T_ASSERT(exit);
    char *log = s_kernel_file(id, "container.log");
    if (!exit->oom_killed)
        fprintf(stderr, "# exit %d log: %s\n", exit->exit_code, log ? log : "(none)");
    free(log);
    T_ASSERT(exit->oom_killed);
    T_EQ_INT(exit->exit_code, 128 + SIGKILL); //  tini reports its child's signal
    agent_stats_t stats;
    T_EQ_INT(agent_stats_read(id, &stats), 0);
    T_ASSERT(stats.oom_kills >= 1);
    T_EQ_INT(stats.memory_limit_bytes, 32 << 20);
    T_EQ_INT(agent_runc_remove(s_runc, id, 1000, NULL, &err), 0);
    T_ASSERT(s_gone(id));
    zstr_free(&id);
}

//  Waits until kernel id's log holds needle. True when it did.
static bool
s_log_has(const char *id, const char *needle)
{
    int64_t deadline = zclock_mono() + WAIT_MS;
    while (zclock_mono() < deadline) {
        char *log = s_kernel_file(id, "container.log");
        bool found = log && strstr(log, needle);
        free(log);
        if (found)
            return true;
        zclock_sleep(20);
    }
    return false;
}

//  A run (dd) is OOM-killed and the kernel goes on; the OOM kill is then
//  accounted to it, and the kernel's own SIGKILL exit later is no OOM kill.
static void
test_oom_accounted(void)
{
    T_ASSERT(!agent_runc_oom_take(s_runc, "no-such-kernel"));
    char *id = s_kernel_id("oomrun");
    const char *args[8];
    agent_kernel_spec_t spec;
    s_spec(&spec, id,
           "dd if=/dev/zero of=/dev/null bs=96M count=1 2>/dev/null; echo dd=$?;"
           " while [ ! -e /opt/backplane/run/go ]; do sleep 0.05; done; kill -KILL $$",
           args);
    spec.memory_bytes = 32 << 20;
    bus_error_t err = {0};
    T_EQ_INT(agent_runc_create(s_runc, &spec, &err), 0);
    T_ASSERT(s_log_has(id, "dd=137\n"));
    agent_stats_t stats;
    T_EQ_INT(agent_stats_read(id, &stats), 0);
    T_ASSERT(stats.oom_kills >= 1);
    //  The run's end is explained once.
    T_ASSERT(agent_runc_oom_take(s_runc, id));
    T_ASSERT(!agent_runc_oom_take(s_runc, id));
    char *go = agent_runc_kernel_path(s_runc, id, "run/go");
    FILE *file = fopen(go, "w");
    T_ASSERT(file);
    if (file)
        fclose(file);
    zstr_free(&go);
    const exit_t *exit = s_wait_exit(id);
    T_ASSERT(exit);
    if (exit) {
        T_EQ_INT(exit->exit_code, 128 + SIGKILL);
        T_ASSERT(!exit->oom_killed);
    }
    T_EQ_INT(agent_runc_remove(s_runc, id, 1000, NULL, &err), 0);
    T_ASSERT(s_gone(id));
    zstr_free(&id);
}

//  run/ and the log are small tmpfs of their own: a kernel that floods them
//  gets ENOSPC there, not the host's disk.
static void
test_run_and_log_bounded(void)
{
    char *id = s_kernel_id("flood");
    const char *args[8];
    agent_kernel_spec_t spec;
    s_spec(&spec, id,
           "echo first; dd if=/dev/zero of=/opt/backplane/run/big bs=1M count=4"
           " 2>/dev/null; echo run-rc=$?; head -c 40000000 /dev/zero; exit 0",
           args);
    bus_error_t err = {0};
    T_EQ_INT(agent_runc_create(s_runc, &spec, &err), 0);
    const exit_t *exit = s_wait_exit(id);
    T_ASSERT(exit);
    char *run = agent_runc_kernel_path(s_runc, id, "run");
    char *big = agent_runc_kernel_path(s_runc, id, "run/big");
    char *log = agent_runc_kernel_path(s_runc, id, "container.log");
    char *log_dir = agent_runc_kernel_path(s_runc, id, AGENT_OVERLAY_LOG_DIR);
    struct stat st;
    T_ASSERT(agent_overlay_is_mounted(run));
    T_ASSERT(agent_overlay_is_mounted(log_dir));
    T_ASSERT(stat(run, &st) == 0 && st.st_uid == AGENT_KERNEL_UID);
    T_ASSERT(stat(big, &st) == 0 && st.st_size <= AGENT_OVERLAY_RUN_SIZE);
    T_ASSERT(lstat(log, &st) == 0 && S_ISLNK(st.st_mode));
    T_ASSERT(stat(log, &st) == 0 && st.st_size <= AGENT_OVERLAY_LOG_SIZE &&
             st.st_size > AGENT_OVERLAY_LOG_SIZE / 2);
    char *text = s_kernel_file(id, "container.log");
    T_ASSERT(text && strstr(text, "first\n") && strstr(text, "run-rc=1\n"));
    free(text);
    T_EQ_INT(agent_runc_remove(s_runc, id, 1000, NULL, &err), 0);
    T_ASSERT(s_gone(id));
    T_ASSERT(!agent_overlay_is_mounted(run));
    zstr_free(&run);
    zstr_free(&big);
    zstr_free(&log);
    zstr_free(&log_dir);
    zstr_free(&id);
}

static void
test_pids_limit(void)
{
    char *id = s_kernel_id("pids");
    const char *args[8];
    agent_kernel_spec_t spec;
    s_spec(&spec, id,
           "n=0; for i in $(seq 100); do sleep 5 & n=$((n+1)); done; echo started=$n",
           args);
    spec.pids_max = 20;
    bus_error_t err = {0};
    int rc = agent_runc_create(s_runc, &spec, &err);
    if (rc != 0)
        fprintf(stderr, "# create: %s\n", err.detail);
    T_EQ_INT(rc, 0);
    char *path = zsys_sprintf("/sys/fs/cgroup/pids/backplane/%s/pids.max", id);
    FILE *file = fopen(path, "r");
    zstr_free(&path);
    char max[32] = "";
    if (file) {
        if (!fgets(max, sizeof max, file))
            max[0] = '\0';
        fclose(file);
    }
    const exit_t *exit = s_wait_exit(id);
    T_ASSERT(exit);
    char *log = s_kernel_file(id, "container.log");
    bool refused = log && strstr(log, "can't fork") && !strstr(log, "started=100");
    if (!refused)
        fprintf(stderr, "# log: %s\n", log ? log : "(none)");
    free(log);
    T_ASSERT(refused);
    T_ASSERT(!file || streq(max, "20\n"));
    T_EQ_INT(agent_runc_remove(s_runc, id, 1000, NULL, &err), 0);
    T_ASSERT(s_gone(id));
    zstr_free(&id);
}

//  Two kernels: B sees neither A's processes nor A's files. A is then removed
//  with a grace period; tini passes SIGTERM on to its child (exit 143).
static void
test_isolation_and_grace(void)
{
    char *a = s_kernel_id("a");
    char *b = s_kernel_id("b");
    const char *args_a[8], *args_b[8];
    agent_kernel_spec_t spec_a, spec_b;
    s_spec(&spec_a, a, "echo secret > /home/work/a.txt; exec sleep 30", args_a);
    s_spec(&spec_b, b,
           "test -e /home/work/a.txt && echo seen-file;"
           " echo sleeps=$(ps -o comm | grep -c '^sleep'); echo b-done",
           args_b);
    bus_error_t err = {0};
    T_EQ_INT(agent_runc_create(s_runc, &spec_a, &err), 0);
    char *a_file = agent_runc_kernel_path(s_runc, a, "upper/home/work/a.txt");
    int64_t deadline = zclock_mono() + WAIT_MS;
    while (!s_exists(a_file) && zclock_mono() < deadline)
        zclock_sleep(10);
    bool a_wrote = s_exists(a_file);
    zstr_free(&a_file);
    T_ASSERT(a_wrote);
    T_EQ_INT(agent_runc_create(s_runc, &spec_b, &err), 0);
    const exit_t *exit = s_wait_exit(b);
    T_ASSERT(exit);
    char *log = s_kernel_file(b, "container.log");
    bool isolated = log && strstr(log, "sleeps=0\n") && strstr(log, "b-done") &&
                    !strstr(log, "seen-file");
    if (!isolated)
        fprintf(stderr, "# log: %s\n", log ? log : "(none)");
    free(log);
    T_ASSERT(isolated);
    T_ASSERT(agent_runc_pid(s_runc, a) > 0);

    int code = 0;
    int64_t started = zclock_mono();
    T_EQ_INT(agent_runc_remove(s_runc, a, 5000, &code, &err), 0);
    T_ASSERT(zclock_mono() - started < 4000); //  TERM sufficed
    T_EQ_INT(code, 143);
    T_EQ_INT(agent_runc_remove(s_runc, b, 1000, NULL, &err), 0);
    T_ASSERT(s_gone(a));
    T_ASSERT(s_gone(b));
    zstr_free(&a);
    zstr_free(&b);
}

//  A kernel that ignores SIGTERM is killed once the grace period is over.
static void
test_remove_escalates(void)
{
    char *id = s_kernel_id("stubborn");
    const char *args[8];
    agent_kernel_spec_t spec;
    //  no tini here: sh is PID 1 and ignores TERM
    s_spec(&spec, id, "trap '' TERM; while true; do sleep 1; done", args);
    args[0] = "/bin/sh";
    args[1] = "-c";
    args[2] = args[5];
    args[3] = NULL;
    bus_error_t err = {0};
    T_EQ_INT(agent_runc_create(s_runc, &spec, &err), 0);
    zclock_sleep(50); //  let the trap be set before TERM arrives
    int code = 0;
    int64_t started = zclock_mono();
    T_EQ_INT(agent_runc_remove(s_runc, id, 300, &code, &err), 0);
    int64_t took = zclock_mono() - started;
    T_ASSERT(took >= 300 && took < 4000);
    T_EQ_INT(code, 137);
    T_ASSERT(s_gone(id));
    zstr_free(&id);
}

//  A kernel's entry moves to another driver (as from the agent's loop to its
//  worker): the first forgets the kernel and no longer reaps it, the second
//  knows its pid and removes it with its exit code.
static void
test_detach_attach(void)
{
    char *id = s_kernel_id("moved");
    const char *args[8];
    agent_kernel_spec_t spec;
    s_spec(&spec, id, "exec sleep 30", args);
    bus_error_t err = {0};
    T_EQ_INT(agent_runc_create(s_runc, &spec, &err), 0);
    int pid = agent_runc_pid(s_runc, id);
    T_ASSERT(pid > 0);
    agent_runc_entry_t *entry = agent_runc_detach(s_runc, id);
    T_ASSERT(entry);
    T_ASSERT(!agent_runc_detach(s_runc, id));
    T_EQ_INT(agent_runc_pid(s_runc, id), -1);
    agent_runc_t *other = agent_runc_new(NULL, s_state);
    T_ASSERT(other);
    T_EQ_INT(agent_runc_attach(other, &entry, &err), 0);
    T_ASSERT(!entry);
    T_EQ_INT(agent_runc_pid(other, id), pid);
    //  Known twice is refused, the entry left with the caller.
    agent_runc_entry_t *again = agent_runc_detach(other, id);
    T_EQ_INT(agent_runc_attach(other, &again, &err), 0);
    again = agent_runc_detach(other, id);
    T_EQ_INT(agent_runc_adopt(other, id, pid, &err), 0);
    T_EQ_INT(agent_runc_attach(other, &again, &err), BUS_STATUS_CONFLICT);
    T_ASSERT(again);
    agent_runc_entry_destroy(&again);
    T_ASSERT(!again);
    //  Killed: the first driver, which no longer holds it, does not reap it.
    T_EQ_INT(agent_runc_kill(other, id, SIGKILL, &err), 0);
    zclock_sleep(200);
    agent_runc_reap(s_runc, NULL, NULL);
    int code = 0;
    T_EQ_INT(agent_runc_remove(other, id, 1000, &code, &err), 0);
    T_EQ_INT(code, 137); //  its child: the code is known
    T_ASSERT(s_gone(id));
    agent_runc_destroy(&other);
    zstr_free(&id);
}

//  After the driver is recreated (as after an agent restart), list finds the
//  running kernel and adopt takes it back.
static void
test_list_and_adopt(void)
{
    char *id = s_kernel_id("adopt");
    const char *args[8];
    agent_kernel_spec_t spec;
    s_spec(&spec, id, "exec sleep 30", args);
    spec.memory_bytes = 64 << 20;
    bus_error_t err = {0};
    T_EQ_INT(agent_runc_create(s_runc, &spec, &err), 0);
    int pid = agent_runc_pid(s_runc, id);
    T_ASSERT(pid > 0);
    //  runc returns once tini runs; tini starts sleep soon after
    agent_stats_t stats = {0};
    int64_t deadline = zclock_mono() + WAIT_MS;
    while (agent_stats_read(id, &stats) == 0 && stats.pids < 2 &&
           zclock_mono() < deadline)
        zclock_sleep(10);
    T_EQ_INT(agent_stats_read(id, &stats), 0);
    T_EQ_INT(stats.pids, 2); //  tini and sleep
    T_ASSERT(stats.cpu_used_ns > 0);
    T_ASSERT(stats.memory_bytes > 0);
    T_ASSERT(stats.memory_max_bytes >= stats.memory_bytes);
    T_EQ_INT(stats.memory_limit_bytes, 64 << 20);
    T_EQ_INT(stats.oom_kills, 0);

    agent_runc_destroy(&s_runc);
    T_ASSERT(!s_runc);
    s_runc = agent_runc_new(NULL, s_state);
    T_ASSERT(s_runc);
    T_EQ_INT(agent_runc_pid(s_runc, id), -1);
    agent_runc_state_t *states = NULL;
    size_t count = 0;
    int rc = agent_runc_list(s_runc, &states, &count, &err);
    bool match = false;
    for (size_t i = 0; i < count; i++)
        if (streq(states[i].id, id))
            match = states[i].pid == pid && streq(states[i].status, "running");
    free(states);
    T_EQ_INT(rc, 0);
    T_ASSERT(match);
    T_EQ_INT(agent_runc_adopt(s_runc, id, pid, &err), 0);
    T_EQ_INT(agent_runc_adopt(s_runc, id, pid, &err), BUS_STATUS_CONFLICT);
    T_EQ_INT(agent_runc_pid(s_runc, id), pid);
    T_EQ_INT(agent_runc_kill(s_runc, id, 0, &err), 0);
    int code = 0;
    T_EQ_INT(agent_runc_remove(s_runc, id, 5000, &code, &err), 0);
    T_EQ_INT(code, 143); //  still our child: the code is known
    T_ASSERT(s_gone(id));
    T_EQ_INT(agent_stats_read(id, &stats), BUS_STATUS_NOT_FOUND);
    T_EQ_INT(agent_runc_kill(s_runc, id, SIGTERM, &err), BUS_STATUS_NOT_FOUND);
    zstr_free(&id);
}

static void
test_bad_spec_leaves_nothing(void)
{
    char *id = s_kernel_id("bad");
    const char *args[8];
    agent_kernel_spec_t spec;
    s_spec(&spec, id, "true", args);
    spec.image_rootfs = "/nonexistent/rootfs";
    bus_error_t err = {0};
    T_EQ_INT(agent_runc_create(s_runc, &spec, &err), BUS_STATUS_INVALID);
    T_ASSERT(s_gone(id));
    //  runc itself fails: the command does not exist in the image
    s_spec(&spec, id, "true", args);
    args[0] = "/no/such/binary";
    args[1] = NULL;
    T_EQ_INT(agent_runc_create(s_runc, &spec, &err), BUS_STATUS_INTERNAL);
    T_CONTAINS(err.detail, "no such file");
    T_ASSERT(s_gone(id));
    zstr_free(&id);
}

//  Kernel dirs made ahead: mounted but for the image's overlay, taken by a
//  create (its home and run dir work as in a dir made on the spot), the
//  rest removed with the driver; those a crashed agent left are removed by
//  the next driver's first agent_runc_spares_set.
static void
test_spare_dirs(void)
{
    bus_error_t err = {0};
    char kernels[PATH_MAX];
    snprintf(kernels, sizeof kernels, "%s/kernels", s_state);
    int mounts_before = s_mounts_under_tmp();
    T_EQ_INT(agent_runc_spare_make(s_runc, &err), 0); //  none wanted yet
    agent_runc_spares_set(s_runc, 2);
    T_EQ_INT(agent_runc_spare_make(s_runc, &err), 1);
    T_EQ_INT(agent_runc_spare_make(s_runc, &err), 1);
    T_EQ_INT(agent_runc_spare_make(s_runc, &err), 0);
    T_EQ_INT(agent_runc_spare_count(s_runc), 2);
    //  run, log and the scratch of each
    T_EQ_INT(s_mounts_under_tmp(), mounts_before + 6);

    char *id = s_kernel_id("spare");
    const char *args[8];
    agent_kernel_spec_t spec;
    s_spec(&spec, id,
           "echo data > f.txt; touch /opt/backplane/run/r && echo run-rw;"
           " echo uid=$(id -u) cwd=$(pwd)",
           args);
    int rc = agent_runc_create(s_runc, &spec, &err);
    if (rc != 0)
        fprintf(stderr, "# create: %s\n", err.detail);
    T_EQ_INT(rc, 0);
    T_EQ_INT(agent_runc_spare_count(s_runc), 1);
    const exit_t *exit = s_wait_exit(id);
    T_ASSERT(exit);
    T_EQ_INT(exit->exit_code, 0);
    char *log = s_kernel_file(id, "container.log");
    char *data = s_kernel_file(id, "upper/home/work/f.txt");
    bool ok = log && strstr(log, "run-rw\n") && strstr(log, "uid=1000 cwd=/home/work\n");
    if (!ok)
        fprintf(stderr, "# log: %s\n", log ? log : "(none)");
    T_ASSERT(ok);
    T_ASSERT(data && streq(data, "data\n"));
    free(log);
    free(data);
    T_EQ_INT(agent_runc_remove(s_runc, id, 1000, NULL, &err), 0);
    T_ASSERT(s_gone(id));
    zstr_free(&id);

    //  The driver goes with its spare; a crashed agent's is left behind.
    agent_runc_destroy(&s_runc);
    T_EQ_INT(s_mounts_under_tmp(), mounts_before);
    char *left = zsys_sprintf("mkdir -p %s/.spare-77/run && mount -t tmpfs left "
                              "%s/.spare-77/run",
                              kernels, kernels);
    T_EQ_INT(system(left), 0);
    zstr_free(&left);
    T_EQ_INT(s_mounts_under_tmp(), mounts_before + 1);
    s_runc = agent_runc_new(NULL, s_state);
    T_ASSERT(s_runc);
    agent_runc_spares_set(s_runc, 0);
    T_EQ_INT(s_mounts_under_tmp(), mounts_before);
    char spare[PATH_MAX + 16];
    snprintf(spare, sizeof spare, "%s/.spare-77", kernels);
    T_ASSERT(!s_exists(spare));
}

static void
test_nothing_left(void)
{
    agent_runc_state_t *states = NULL;
    size_t count = 0;
    bus_error_t err = {0};
    T_EQ_INT(agent_runc_list(s_runc, &states, &count, &err), 0);
    free(states);
    T_EQ_INT(count, 0);
    T_EQ_INT(s_mounts_under_tmp(), 0);
    char pattern[64];
    snprintf(pattern, sizeof pattern, "t%d-*", (int) getpid());
    T_EQ_INT(s_cgroup_dirs(pattern), 0);
    agent_runc_reap_all(s_runc, NULL, NULL);
}

//  ---------------------------------------------------------------------------

static const char *
s_missing(void)
{
    if (geteuid() != 0)
        return "not root";
    if (system("command -v runc >/dev/null 2>&1") != 0)
        return "runc not installed";
    if (access(BUSYBOX, X_OK) != 0)
        return "busybox-static not installed";
    if (access(TINI_HOST, X_OK) != 0)
        return "tini-static not installed";
    return NULL;
}

//  A busybox rootfs with relative applet links and a work user.
static int
s_make_image(void)
{
    snprintf(s_image, sizeof s_image, "%s/image", s_tmp);
    snprintf(s_state, sizeof s_state, "%s/state", s_tmp);
    char *script = zsys_sprintf(
        "set -e; R=%s; mkdir -p $R/bin $R/etc $R/proc $R/sys $R/dev $R/tmp $R/home;"
        " cp " BUSYBOX " $R/bin/busybox;"
        " for a in $($R/bin/busybox --list); do [ -e $R/bin/$a ] || ln -s busybox "
        "$R/bin/$a;"
        " done; chmod 1777 $R/tmp;"
        " printf "
        "'root:x:0:0:root:/root:/bin/sh\\nwork:x:1000:1000::/home/work:/bin/sh\\n'"
        " > $R/etc/passwd; printf 'root:x:0:\\nwork:x:1000:\\n' > $R/etc/group",
        s_image);
    int rc = system(script);
    zstr_free(&script);
    return rc;
}

int
main(void)
{
    T_RUN(test_bundle_config);
    T_RUN(test_bundle_invalid);

    const char *missing = s_missing();
    if (missing) {
        T_RUN_SKIP(test_container_cases, missing);
        return T_DONE();
    }
    if (!mkdtemp(s_tmp) || s_make_image() != 0) {
        printf("# cannot build the test image in %s\n", s_tmp);
        return 1;
    }
    s_runc = agent_runc_new(NULL, s_state);
    if (!s_runc) {
        printf("# cannot create the driver in %s\n", s_state);
        return 1;
    }
    T_RUN(test_exit_code_and_log);
    T_RUN(test_user_home_overlay);
    T_RUN(test_memory_oom);
    T_RUN(test_oom_accounted);
    T_RUN(test_run_and_log_bounded);
    T_RUN(test_pids_limit);
    T_RUN(test_isolation_and_grace);
    T_RUN(test_remove_escalates);
    T_RUN(test_detach_attach);
    T_RUN(test_list_and_adopt);
    T_RUN(test_bad_spec_leaves_nothing);
    T_RUN(test_spare_dirs);
    T_RUN(test_nothing_left);

    //  Whatever a failed case left: remove it before the temp dir goes.
    agent_runc_state_t *states = NULL;
    size_t count = 0;
    agent_runc_list(s_runc, &states, &count, NULL);
    for (size_t i = 0; i < count; i++)
        agent_runc_remove(s_runc, states[i].id, 0, NULL, NULL);
    free(states);
    agent_runc_destroy(&s_runc);
    if (s_mounts_under_tmp() == 0) {
        char *command = zsys_sprintf("rm -rf %s", s_tmp);
        if (system(command) != 0)
            printf("# cannot remove %s\n", s_tmp);
        zstr_free(&command);
    } else
        printf("# mounts left under %s: not removed\n", s_tmp);
    return T_DONE();
}
