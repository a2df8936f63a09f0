/*  =========================================================================
    agent_runc - run kernels as runc containers by exec'ing the runc CLI

    Every runc call is a fork and exec with stdin on the null device. For
    `run -d` the container inherits runc's stdout and stderr, so both go to
    the kernel's container.log (a pipe would never see EOF while the kernel
    lives); other calls write into two memfds that are read once runc exits.
    Children close every inherited descriptor above 2 before exec.

    The cgroups are /backplane/<kernel_id> in every hierarchy (absolute, as
    runc 1.1.5 on a hybrid host needs). runc removes them on delete but
    leaves the /backplane parents, and a failed start may leave its own, so
    remove cleans both. OOM kills are counted by the kernel's memory cgroup
    (memory.oom_control on v1, memory.events on v2). The OOM killer may take
    one run's process and leave the kernel running, so each kernel keeps a
    baseline: the count already accounted for (at its start or adoption, and
    moved on by agent_runc_oom_take when a run's end is explained by it). A
    kernel's own exit is an OOM kill only when it was by SIGKILL and the count
    grew past the baseline; the count is read when the exit is reaped, before
    runc delete removes the cgroup.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <dirent.h>    //  walking the cgroup hierarchies
#include <fcntl.h>     //  open flags
#include <sys/prctl.h> //  PR_SET_CHILD_SUBREAPER
#include <sys/stat.h>  //  mkdir, stat
#include <sys/wait.h>  //  waitpid

#define CGROUP_ROOT "/sys/fs/cgroup"

//  A kernel's entry: what the driver knows of its container. It moves
//  between drivers with agent_runc_detach and agent_runc_attach.
struct _agent_runc_entry_t {
    char *id;
    int pid;       //  PID 1 on the host
    bool exited;   //  reaped (or seen gone)
    int exit_code; //  valid once exited
    bool oom_killed;
    uint64_t oom_base; //  the cgroup's OOM kills accounted for already
    bool foreign;      //  adopted and not our child: never waited for, its pid
                       //  may even belong to another process of ours one day
};
typedef agent_runc_entry_t s_kernel_t;

//  Spare kernel dirs: <state_dir>/kernels/.spare-<n>, with bundle/rootfs
//  made and everything mounted that does not depend on the image
//  (agent_overlay_prepare); a create renames one to the kernel's dir (the
//  mounts below a directory move with it) instead of making it. A leading
//  dot keeps them out of what is a kernel's dir (agent_bundle_id_valid).
#define SPARE_PREFIX ".spare-"

struct _agent_runc_t {
    char *runc_path;
    char *state_dir;                        //  absolute
    char *root;                             //  runc --root
    zhashx_t *kernels;                      //  id -> s_kernel_t
    unsigned spares[AGENT_RUNC_SPARES_MAX]; //  the spare dirs' numbers
    size_t spare_count;
    size_t spares_wanted;
    unsigned spare_next;
    bool spares_swept; //  those an earlier agent left are gone
};

//  Whole small file into a fresh string, or NULL. Caller owns return value.
static char *
s_read_fd(int fd)
{
    off_t size = lseek(fd, 0, SEEK_END);
    if (size < 0 || lseek(fd, 0, SEEK_SET) < 0)
        return NULL;
    char *data = malloc((size_t) size + 1);
    if (!data)
        return NULL;
    size_t done = 0;
    while (done < (size_t) size) {
        ssize_t n = read(fd, data + done, (size_t) size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t) n;
    }
    data[done] = '\0';
    return data;
}

//  Whole file by reading to EOF: cgroup and proc files report no size.
//  Caller owns return value.
static char *
s_read_file(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    size_t size = 0, capacity = 4096;
    char *data = malloc(capacity + 1);
    while (data) {
        ssize_t n = read(fd, data + size, capacity - size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        size += (size_t) n;
        if (size == capacity) {
            capacity *= 2;
            char *bigger = realloc(data, capacity + 1);
            if (!bigger) {
                free(data);
                data = NULL;
            } else
                data = bigger;
        }
    }
    close(fd);
    if (data)
        data[size] = '\0';
    return data;
}

//  The last AGENT_RUNC_ERROR_TAIL bytes of text, trailing space trimmed.
static const char *
s_tail(char *text)
{
    if (!text)
        return "";
    size_t len = strlen(text);
    while (len && isspace((unsigned char) text[len - 1]))
        text[--len] = '\0';
    return len > AGENT_RUNC_ERROR_TAIL ? text + len - AGENT_RUNC_ERROR_TAIL : text;
}

//  Run `runc --root <root> args...`. With out_fd >= 0 its stdout and stderr go
//  there; otherwise they are captured into *out_p and *err_p (either may be
//  NULL). Returns runc's exit status, or -1 when it could not run.
static int
s_runc(
    agent_runc_t *self, const char *const *args, int out_fd, char **out_p, char **err_p)
{
    const char *argv[16];
    size_t argc = 0;
    argv[argc++] = self->runc_path;
    argv[argc++] = "--root";
    argv[argc++] = self->root;
    for (size_t i = 0; args[i]; i++) {
        assert(argc < sizeof argv / sizeof argv[0] - 1);
        argv[argc++] = args[i];
    }
    argv[argc] = NULL;

    int out_mem = -1, err_mem = -1;
    bool capture = out_fd < 0;
    int status = agent_command_run(argv, out_fd, capture ? &out_mem : NULL,
                                   capture ? &err_mem : NULL);
    if (out_p)
        *out_p = out_mem >= 0 ? s_read_fd(out_mem) : NULL;
    if (err_p)
        *err_p = err_mem >= 0 ? s_read_fd(err_mem) : NULL;
    if (out_mem >= 0)
        close(out_mem);
    if (err_mem >= 0)
        close(err_mem);
    return status;
}

//  The OOM kills the kernel's memory cgroup counted; 0 when it has none.
static uint64_t
s_oom_count(const char *kernel_id)
{
    agent_stats_t stats;
    return agent_stats_read(kernel_id, &stats) == BUS_OK ? stats.oom_kills : 0;
}

//  rmdir <hierarchy>/backplane/<id> and the parent when empty, in every
//  hierarchy (v1 controllers and a hybrid host's unified one) and at the root
//  (pure v2).
static void
s_cgroup_remove(const char *kernel_id)
{
    char path[PATH_MAX];
    DIR *dir = opendir(CGROUP_ROOT);
    if (!dir)
        return;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        if (entry->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, CGROUP_ROOT "/%s/" AGENT_BUNDLE_CGROUP_PARENT "/%s",
                 entry->d_name, kernel_id);
        rmdir(path);
        snprintf(path, sizeof path, CGROUP_ROOT "/%s/" AGENT_BUNDLE_CGROUP_PARENT,
                 entry->d_name);
        rmdir(path);
    }
    closedir(dir);
    snprintf(path, sizeof path, CGROUP_ROOT "/" AGENT_BUNDLE_CGROUP_PARENT "/%s",
             kernel_id);
    rmdir(path);
}

//  The parent of pid (from /proc), or -1.
static int
s_parent(int pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    char *stat = s_read_file(path);
    //  "pid (comm) S ppid ...": the fields after the last ')'
    const char *paren = stat ? strrchr(stat, ')') : NULL;
    char state;
    int parent = -1;
    if (!paren || sscanf(paren + 1, " %c %d", &state, &parent) != 2)
        parent = -1;
    free(stat);
    return parent;
}

static int
s_exit_code(int wstatus)
{
    return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
}

static void
s_kernel_exited(s_kernel_t *kernel, int exit_code)
{
    kernel->exited = true;
    kernel->exit_code = exit_code;
    //  The OOM killer's signal, and a kill no run's end explained.
    kernel->oom_killed =
        exit_code == 128 + SIGKILL && s_oom_count(kernel->id) > kernel->oom_base;
}

//  Wait until the kernel's PID 1 is gone or deadline (zclock_mono ms) passes.
static bool
s_wait_gone(s_kernel_t *kernel, int64_t deadline)
{
    while (true) {
        if (kernel->exited)
            return true;
        int wstatus;
        pid_t pid = kernel->foreign ? -1 : waitpid(kernel->pid, &wstatus, WNOHANG);
        if (kernel->foreign)
            errno = ECHILD;
        if (pid == kernel->pid) {
            s_kernel_exited(kernel, s_exit_code(wstatus));
            return true;
        }
        if (pid < 0 && errno == ECHILD && !agent_runc_pid_alive(kernel->pid)) {
            s_kernel_exited(kernel, AGENT_RUNC_EXIT_UNKNOWN);
            return true;
        }
        if (zclock_mono() >= deadline)
            return false;
        zclock_sleep(AGENT_RUNC_POLL_MS);
    }
}

//  runc kill's or delete's complaint, as a status.
static int
s_runc_status(const char *text)
{
    if (text && strstr(text, "does not exist"))
        return BUS_STATUS_NOT_FOUND;
    if (text && strstr(text, "not running"))
        return BUS_STATUS_CONFLICT;
    return BUS_STATUS_INTERNAL;
}

//  TERM to a running kernel, up to grace_ms for it to go, then KILL to all its
//  processes and up to AGENT_RUNC_KILL_WAIT_MS more. Its exit, when seen, is
//  stored in kernel (not reported by agent_runc_reap).
static void
s_terminate(agent_runc_t *self, s_kernel_t *kernel, int grace_ms)
{
    if (kernel->exited)
        return;
    agent_runc_kill(self, kernel->id, SIGTERM, NULL);
    if (!s_wait_gone(kernel, zclock_mono() + (grace_ms > 0 ? grace_ms : 0))) {
        const char *args[] = {"kill", "--all", kernel->id, "KILL", NULL};
        s_runc(self, args, -1, NULL, NULL);
        s_wait_gone(kernel, zclock_mono() + AGENT_RUNC_KILL_WAIT_MS);
    }
}

//  `runc delete --force`: runc's state and the container's cgroup go (and
//  whatever still runs in it). Returns 0, or INTERNAL with err filled;
//  a container runc does not know is fine.
static int
s_delete(agent_runc_t *self, const char *kernel_id, bus_error_t *err)
{
    const char *args[] = {"delete", "--force", kernel_id, NULL};
    char *output = NULL;
    int rc = s_runc(self, args, -1, NULL, &output);
    int status = BUS_OK;
    if (rc != 0 && s_runc_status(output) != BUS_STATUS_NOT_FOUND)
        status = bus_error_set(err, BUS_STATUS_INTERNAL, "runc delete %s failed (%d): %s",
                               kernel_id, rc, s_tail(output));
    free(output);
    return status;
}

//  `runc run -d` of the bundle in dir (its config.json and mounted rootfs as
//  they are), stdout and stderr appended to container.log. Returns the
//  host pid of the container's PID 1, or -1 with err filled (runc's state
//  of the failed start deleted).
static int
s_run_bundle(agent_runc_t *self, const char *id, const char *dir, bus_error_t *err)
{
    char *bundle = zsys_sprintf("%s/bundle", dir);
    char *log = zsys_sprintf("%s/container.log", dir);
    char *pid_file = zsys_sprintf("%s/pid", dir);
    int pid = -1;
    unlink(pid_file); //  a start that fails must not read an earlier pid
    int log_fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
    if (log_fd < 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot open %s: %s", log,
                      strerror(errno));
        goto done;
    }
    const char *args[] = {"run",      "-d",   "--pid-file", pid_file,
                          "--bundle", bundle, id,           NULL};
    int rc = s_runc(self, args, log_fd, NULL, NULL);
    close(log_fd);
    char *pid_text = rc == 0 ? s_read_file(pid_file) : NULL;
    pid = pid_text ? atoi(pid_text) : 0;
    free(pid_text);
    if (pid <= 0) {
        char *output = s_read_file(log);
        bus_error_set(err, BUS_STATUS_INTERNAL, "runc run %s failed (%d): %s", id, rc,
                      s_tail(output));
        free(output);
        s_delete(self, id, NULL);
        pid = -1;
    }
done:
    zstr_free(&bundle);
    zstr_free(&log);
    zstr_free(&pid_file);
    return pid;
}

//  ---------------------------------------------------------------------------
//  Create a driver over state_dir.

agent_runc_t *
agent_runc_new(const char *runc_path, const char *state_dir)
{
    assert(state_dir);
    char *kernels = zsys_sprintf("%s/kernels", state_dir);
    char *root = zsys_sprintf("%s/runc", state_dir);
    int rc =
        bus_mkdirs_mode(kernels, 0711) == 0 && bus_mkdirs_mode(root, 0700) == 0 ? 0 : -1;
    zstr_free(&kernels);
    zstr_free(&root);
    char real[PATH_MAX];
    if (rc != 0 || !realpath(state_dir, real))
        return NULL;
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0)
        return NULL;

    agent_runc_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->runc_path = strdup(runc_path ? runc_path : AGENT_RUNC_DEFAULT_PATH);
    self->state_dir = strdup(real);
    self->root = zsys_sprintf("%s/runc", real);
    self->kernels = zhashx_new();
    if (!self->runc_path || !self->state_dir || !self->root || !self->kernels) {
        agent_runc_destroy(&self);
        return NULL;
    }
    return self;
}

//  ---------------------------------------------------------------------------
//  Spare kernel dirs.

static void
s_spare_path(agent_runc_t *self, unsigned n, char path[PATH_MAX])
{
    snprintf(path, PATH_MAX, "%s/kernels/" SPARE_PREFIX "%u", self->state_dir, n);
}

//  Unmounts and removes a spare dir (or one an earlier agent left); a dir
//  that cannot be unmounted is kept, and logged.
static void
s_spare_remove(const char *dir)
{
    char rootfs[PATH_MAX + 16];
    snprintf(rootfs, sizeof rootfs, "%s/bundle/rootfs", dir);
    if (agent_overlay_unmount_kernel(dir, rootfs) == 0)
        agent_fs_remove_tree(dir);
    else
        bus_log_warning("spare kernel dir kept dir=%s error=\"%s\"", dir,
                        strerror(errno));
}

//  Drops spares until count are left.
static void
s_spares_trim(agent_runc_t *self, size_t count)
{
    char path[PATH_MAX];
    while (self->spare_count > count) {
        s_spare_path(self, self->spares[--self->spare_count], path);
        s_spare_remove(path);
    }
}

//  Removes the spare dirs an earlier agent left.
static void
s_spares_sweep(agent_runc_t *self)
{
    self->spares_swept = true;
    char *kernels = zsys_sprintf("%s/kernels", self->state_dir);
    DIR *dir = kernels ? opendir(kernels) : NULL;
    zlistx_t *left = zlistx_new();
    struct dirent *entry;
    while (dir && left && (entry = readdir(dir)))
        if (strncmp(entry->d_name, SPARE_PREFIX, strlen(SPARE_PREFIX)) == 0)
            zlistx_add_end(left, zsys_sprintf("%s/%s", kernels, entry->d_name));
    if (dir)
        closedir(dir);
    char *path;
    while (left && (path = zlistx_detach(left, NULL))) {
        s_spare_remove(path);
        bus_log_notice("spare kernel dir of an earlier agent removed dir=%s", path);
        zstr_free(&path);
    }
    zlistx_destroy(&left);
    zstr_free(&kernels);
}

void
agent_runc_spares_set(agent_runc_t *self, size_t count)
{
    assert(self);
    if (!self->spares_swept)
        s_spares_sweep(self);
    self->spares_wanted = count < AGENT_RUNC_SPARES_MAX ? count : AGENT_RUNC_SPARES_MAX;
    s_spares_trim(self, self->spares_wanted);
}

int
agent_runc_spare_make(agent_runc_t *self, bus_error_t *err)
{
    assert(self);
    if (self->spare_count >= self->spares_wanted)
        return 0;
    char path[PATH_MAX], rootfs[PATH_MAX + 16];
    s_spare_path(self, self->spare_next++, path);
    snprintf(rootfs, sizeof rootfs, "%s/bundle/rootfs", path);
    if (mkdir(path, 0711) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot create %s: %s", path,
                      strerror(errno));
        return -1;
    }
    if (bus_mkdirs_mode(rootfs, 0755) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot create %s: %s", rootfs,
                      strerror(errno));
        agent_fs_remove_tree(path);
        return -1;
    }
    if (agent_overlay_prepare(path, err) != BUS_OK) {
        s_spare_remove(path);
        return -1;
    }
    self->spares[self->spare_count++] = self->spare_next - 1;
    return 1;
}

size_t
agent_runc_spare_count(agent_runc_t *self)
{
    assert(self);
    return self->spare_count;
}

//  A spare renamed to dir (which must not exist). 0, or -1 when there was
//  none or it could not be renamed (then it is removed).
static int
s_spare_take(agent_runc_t *self, const char *dir)
{
    if (self->spare_count == 0)
        return -1;
    char path[PATH_MAX];
    s_spare_path(self, self->spares[--self->spare_count], path);
    if (rename(path, dir) == 0)
        return 0;
    bus_log_warning("spare kernel dir not taken dir=%s error=\"%s\"", path,
                    strerror(errno));
    s_spare_remove(path);
    return -1;
}

//  ---------------------------------------------------------------------------
//  Free the driver; containers keep running.

void
agent_runc_destroy(agent_runc_t **self_p)
{
    assert(self_p);
    agent_runc_t *self = *self_p;
    if (!self)
        return;
    //  The table has no destructor, so that agent_runc_detach can hand an
    //  entry out: its entries are freed here.
    for (s_kernel_t *kernel = self->kernels ? zhashx_first(self->kernels) : NULL; kernel;
         kernel = zhashx_next(self->kernels))
        agent_runc_entry_destroy(&kernel);
    s_spares_trim(self, 0);
    zhashx_destroy(&self->kernels);
    free(self->runc_path);
    free(self->state_dir);
    zstr_free(&self->root);
    free(self);
    *self_p = NULL;
}

//  ---------------------------------------------------------------------------
//  Start a kernel.

int
agent_runc_create(agent_runc_t *self, const agent_kernel_spec_t *spec, bus_error_t *err)
{
    assert(self);
    assert(spec);
    if (!agent_bundle_id_valid(spec->kernel_id))
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id");
    if (!spec->image_rootfs)
        return bus_error_set(err, BUS_STATUS_INVALID, "no image rootfs");
    const char *id = spec->kernel_id;
    if (zhashx_lookup(self->kernels, id))
        return bus_error_set(err, BUS_STATUS_CONFLICT, "kernel %s exists", id);
    char *dir = agent_runc_kernel_path(self, id, NULL);
    struct stat st;
    if (lstat(dir, &st) == 0) {
        zstr_free(&dir);
        return bus_error_set(err, BUS_STATUS_CONFLICT, "kernel dir of %s exists", id);
    }
    char *bundle = zsys_sprintf("%s/bundle", dir);
    char *rootfs = zsys_sprintf("%s/bundle/rootfs", dir);
    char *run = zsys_sprintf("%s/" AGENT_OVERLAY_RUN_DIR, dir);
    int status = BUS_STATUS_INTERNAL;

    //  A spare's dir, made with its mounts ahead, or a new one.
    if (s_spare_take(self, dir) != 0 && mkdir(dir, 0711) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot create %s: %s", dir,
                      strerror(errno));
        zstr_free(&dir); //  not ours to remove
        goto fail;
    }
    if (bus_mkdirs_mode(rootfs, 0755) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot create %s: %s", rootfs,
                      strerror(errno));
        goto fail;
    }
    //  The bundle first: it checks the spec before anything is mounted.
    status = agent_bundle_write(spec, bundle, rootfs, run, err);
    if (status != BUS_OK)
        goto fail;
    //  run/ and the log on their own tmpfs, then the root.
    status = agent_overlay_mount_side(dir, err);
    if (status != BUS_OK)
        goto fail;
    status = agent_overlay_mount(spec->image_rootfs, dir, rootfs, err);
    if (status != BUS_OK)
        goto fail;
    //  The dotfiles, through the overlay root, before anything runs in it.
    if (spec->dotfiles && spec->dotfiles->count) {
        char *home = zsys_sprintf("%s%s", rootfs, AGENT_KERNEL_HOME);
        status = home ? agent_dotfiles_write(spec->dotfiles, home, AGENT_KERNEL_UID,
                                             AGENT_KERNEL_GID, err)
                      : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        zstr_free(&home);
        if (status != BUS_OK)
            goto fail;
    }
    status = BUS_STATUS_INTERNAL;
    //  A cgroup left by an earlier kernel of this id would be reused, counts
    //  and all.
    uint64_t oom_base = s_oom_count(id);
    int pid = s_run_bundle(self, id, dir, err);
    if (pid <= 0)
        goto fail;
    s_kernel_t *kernel = calloc(1, sizeof *kernel);
    assert(kernel);
    kernel->id = strdup(id);
    kernel->pid = pid;
    kernel->exit_code = AGENT_RUNC_EXIT_UNKNOWN;
    kernel->oom_base = oom_base;
    zhashx_insert(self->kernels, id, kernel);
    status = BUS_OK;
    goto done;

fail:
    //  Whatever of the overlay, scratch and side mounts this call made.
    if (dir && agent_overlay_unmount_kernel(dir, rootfs) == 0)
        agent_fs_remove_tree(dir);
    s_cgroup_remove(id);
done:
    zstr_free(&dir);
    zstr_free(&bundle);
    zstr_free(&rootfs);
    zstr_free(&run);
    return status;
}

//  ---------------------------------------------------------------------------
//  The host pid of a kernel's PID 1.

int
agent_runc_pid(agent_runc_t *self, const char *kernel_id)
{
    assert(self);
    s_kernel_t *kernel = kernel_id ? zhashx_lookup(self->kernels, kernel_id) : NULL;
    return kernel && !kernel->exited ? kernel->pid : -1;
}

//  ---------------------------------------------------------------------------
//  Reap this driver's kernels that exited.

int
agent_runc_reap(agent_runc_t *self, agent_runc_exit_fn *fn, void *arg)
{
    assert(self);
    int count = 0;
    for (s_kernel_t *kernel = zhashx_first(self->kernels); kernel;
         kernel = zhashx_next(self->kernels)) {
        int wstatus;
        //  Its pid only: a child another thread waits for keeps its status.
        if (kernel->exited || kernel->pid <= 0 || kernel->foreign ||
            waitpid(kernel->pid, &wstatus, WNOHANG) != kernel->pid)
            continue; //  running, or not our child (adopted)
        s_kernel_exited(kernel, s_exit_code(wstatus));
        count++;
        if (fn)
            fn(kernel->id, kernel->pid, kernel->exit_code, kernel->oom_killed, arg);
    }
    return count;
}

//  ---------------------------------------------------------------------------
//  Reap every exited child.

int
agent_runc_reap_all(agent_runc_t *self, agent_runc_exit_fn *fn, void *arg)
{
    assert(self);
    int count = agent_runc_reap(self, fn, arg);
    int wstatus;
    pid_t pid;
    while ((pid = waitpid(-1, &wstatus, WNOHANG)) > 0) {
        s_kernel_t *found = NULL;
        for (s_kernel_t *kernel = zhashx_first(self->kernels); kernel;
             kernel = zhashx_next(self->kernels))
            if (kernel->pid == pid && !kernel->exited && !kernel->foreign)
                found = kernel;
        if (found) {
            s_kernel_exited(found, s_exit_code(wstatus));
            count++;
            if (fn)
                fn(found->id, pid, found->exit_code, found->oom_killed, arg);
        } else if (fn)
            fn(NULL, pid, s_exit_code(wstatus), false, arg);
    }
    return count;
}

//  ---------------------------------------------------------------------------
//  Signal a kernel's PID 1.

int
agent_runc_kill(agent_runc_t *self, const char *kernel_id, int signal, bus_error_t *err)
{
    assert(self);
    if (!agent_bundle_id_valid(kernel_id))
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id");
    char number[16];
    snprintf(number, sizeof number, "%d", signal);
    const char *args[] = {"kill", kernel_id, number, NULL};
    char *output = NULL;
    int rc = s_runc(self, args, -1, NULL, &output);
    int status = BUS_OK;
    if (rc != 0)
        status = bus_error_set(err, s_runc_status(output), "runc kill %s failed (%d): %s",
                               kernel_id, rc, s_tail(output));
    free(output);
    return status;
}

//  ---------------------------------------------------------------------------
//  Stop and remove a kernel.

int
agent_runc_remove(agent_runc_t *self,
                  const char *kernel_id,
                  int grace_ms,
                  int *exit_code_p,
                  bus_error_t *err)
{
    return agent_runc_remove_keeping_log(self, kernel_id, grace_ms, exit_code_p, 0, NULL,
                                         NULL, err);
}

//  ---------------------------------------------------------------------------
//  Stop and remove a kernel, keeping the end of its log.

int
agent_runc_remove_keeping_log(agent_runc_t *self,
                              const char *kernel_id,
                              int grace_ms,
                              int *exit_code_p,
                              size_t log_max,
                              uint8_t **log_p,
                              size_t *log_size_p,
                              bus_error_t *err)
{
    assert(self);
    assert(!log_p || log_size_p);
    if (log_p) {
        *log_p = NULL;
        *log_size_p = 0;
    }
    if (exit_code_p)
        *exit_code_p = AGENT_RUNC_EXIT_UNKNOWN;
    if (!agent_bundle_id_valid(kernel_id))
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id");
    s_kernel_t *kernel = zhashx_lookup(self->kernels, kernel_id);
    char *dir = agent_runc_kernel_path(self, kernel_id, NULL);
    char *rootfs = agent_runc_kernel_path(self, kernel_id, "bundle/rootfs");
    char *state = zsys_sprintf("%s/%s", self->root, kernel_id);
    struct stat st;
    bool exists = kernel || lstat(dir, &st) == 0 || lstat(state, &st) == 0;
    int status = BUS_OK;
    if (!exists) {
        status = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no kernel %s", kernel_id);
        goto done;
    }

    if (kernel)
        s_terminate(self, kernel, grace_ms);
    if (kernel && exit_code_p)
        *exit_code_p = kernel->exit_code;

    //  delete --force kills whatever is left (a kernel this driver never knew).
    status = s_delete(self, kernel_id, err);
    //  A not-yet-reaped PID 1 that delete killed is ours to collect.
    if (kernel && !kernel->exited)
        s_wait_gone(kernel, zclock_mono() + AGENT_RUNC_KILL_WAIT_MS);
    if (log_p && log_max > 0)
        *log_p = agent_runc_log_tail(self, kernel_id, log_max, log_size_p);

    if (agent_overlay_unmount_kernel(dir, rootfs) != 0) {
        status = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot unmount %s: %s", rootfs,
                               strerror(errno));
        goto done; //  keep the dir: its rootfs still shows the image
    }
    if (agent_fs_remove_tree(dir) != 0 && status == BUS_OK)
        status = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot remove %s: %s", dir,
                               strerror(errno));
    s_cgroup_remove(kernel_id);
    if (kernel) {
        zhashx_delete(self->kernels, kernel_id);
        agent_runc_entry_destroy(&kernel);
    }
done:
    zstr_free(&dir);
    zstr_free(&rootfs);
    zstr_free(&state);
    return status;
}

//  ---------------------------------------------------------------------------
//  The end of a kernel's container.log.

uint8_t *
agent_runc_log_tail(agent_runc_t *self, const char *kernel_id, size_t max, size_t *size_p)
{
    assert(self && kernel_id && size_p);
    *size_p = 0;
    char *path = agent_runc_kernel_path(self, kernel_id, "container.log");
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    zstr_free(&path);
    if (fd < 0)
        return NULL;
    struct stat st;
    uint8_t *data = NULL;
    if (fstat(fd, &st) == 0) {
        size_t size = (size_t) st.st_size;
        off_t from = size > max ? (off_t) (size - max) : 0;
        size = size > max ? max : size;
        data = malloc(size + 1);
        ssize_t n = data ? pread(fd, data, size, from) : -1;
        *size_p = n > 0 ? (size_t) n : 0;
    }
    close(fd);
    return data;
}

//  ---------------------------------------------------------------------------
//  Stop a kernel but keep what it has.

int
agent_runc_stop(agent_runc_t *self,
                const char *kernel_id,
                int grace_ms,
                int *exit_code_p,
                bus_error_t *err)
{
    assert(self);
    if (exit_code_p)
        *exit_code_p = AGENT_RUNC_EXIT_UNKNOWN;
    if (!agent_bundle_id_valid(kernel_id))
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id");
    s_kernel_t *kernel = zhashx_lookup(self->kernels, kernel_id);
    if (!kernel)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no kernel %s", kernel_id);
    s_terminate(self, kernel, grace_ms);
    int status = s_delete(self, kernel_id, err);
    //  A not-yet-reaped PID 1 that delete killed is ours to collect.
    if (!kernel->exited)
        s_wait_gone(kernel, zclock_mono() + AGENT_RUNC_KILL_WAIT_MS);
    if (!kernel->exited && status == BUS_OK)
        status =
            bus_error_set(err, BUS_STATUS_INTERNAL, "kernel %s did not stop", kernel_id);
    if (exit_code_p)
        *exit_code_p = kernel->exit_code;
    return status;
}

//  ---------------------------------------------------------------------------
//  Run a stopped kernel again.

int
agent_runc_start(agent_runc_t *self, const char *kernel_id, bus_error_t *err)
{
    assert(self);
    if (!agent_bundle_id_valid(kernel_id))
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id");
    s_kernel_t *kernel = zhashx_lookup(self->kernels, kernel_id);
    if (!kernel)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no kernel %s", kernel_id);
    if (!kernel->exited)
        return bus_error_set(err, BUS_STATUS_CONFLICT, "kernel %s still runs", kernel_id);
    char *dir = agent_runc_kernel_path(self, kernel_id, NULL);
    char *rootfs = agent_runc_kernel_path(self, kernel_id, "bundle/rootfs");
    int status = BUS_OK;
    //  Without its overlay the container would see an empty rootfs.
    if (!agent_overlay_is_mounted(rootfs))
        status = bus_error_set(err, BUS_STATUS_INTERNAL,
                               "the rootfs of %s is not mounted", kernel_id);
    else {
        //  What the last run left in runc's state or the cgroups.
        s_delete(self, kernel_id, NULL);
        s_cgroup_remove(kernel_id);
        uint64_t oom_base = s_oom_count(kernel_id);
        int pid = s_run_bundle(self, kernel_id, dir, err);
        if (pid > 0) {
            kernel->pid = pid;
            kernel->exited = false;
            kernel->exit_code = AGENT_RUNC_EXIT_UNKNOWN;
            kernel->oom_killed = false;
            kernel->oom_base = oom_base;
            kernel->foreign = false; //  runc's child, handed to us
        } else {
            s_cgroup_remove(kernel_id);
            status = BUS_STATUS_INTERNAL; //  err says why
        }
    }
    zstr_free(&dir);
    zstr_free(&rootfs);
    return status;
}

//  ---------------------------------------------------------------------------
//  The containers under our root.

int
agent_runc_list(agent_runc_t *self,
                agent_runc_state_t **states_p,
                size_t *count_p,
                bus_error_t *err)
{
    assert(self);
    assert(states_p);
    assert(count_p);
    *states_p = NULL;
    *count_p = 0;
    const char *args[] = {"list", "--format", "json", NULL};
    char *output = NULL, *errors = NULL;
    int rc = s_runc(self, args, -1, &output, &errors);
    int status = BUS_OK;
    json_t *list = NULL;
    if (rc != 0) {
        status = bus_error_set(err, BUS_STATUS_INTERNAL, "runc list failed (%d): %s", rc,
                               s_tail(errors));
        goto done;
    }
    //  An empty list prints "null".
    list = output ? json_loads(output, JSON_DECODE_ANY, NULL) : NULL;
    if (!list || (!json_is_array(list) && !json_is_null(list))) {
        status =
            bus_error_set(err, BUS_STATUS_INTERNAL, "runc list printed no JSON list");
        goto done;
    }
    size_t size = json_is_array(list) ? json_array_size(list) : 0;
    if (size == 0)
        goto done;
    agent_runc_state_t *states = calloc(size, sizeof *states);
    assert(states);
    size_t count = 0, index;
    json_t *item;
    json_array_foreach(list, index, item)
    {
        const char *id = json_string_value(json_object_get(item, "id"));
        const char *state = json_string_value(json_object_get(item, "status"));
        json_int_t pid = json_integer_value(json_object_get(item, "pid"));
        if (!agent_bundle_id_valid(id) || !state)
            continue;
        snprintf(states[count].id, sizeof states[count].id, "%s", id);
        snprintf(states[count].status, sizeof states[count].status, "%s", state);
        states[count].pid = pid > 0 && pid <= INT_MAX ? (int) pid : 0;
        count++;
    }
    if (count == 0)
        free(states);
    else {
        *states_p = states;
        *count_p = count;
    }
done:
    json_decref(list);
    free(output);
    free(errors);
    return status;
}

//  ---------------------------------------------------------------------------
//  Take back a kernel a previous driver started.

int
agent_runc_adopt(agent_runc_t *self, const char *kernel_id, int pid, bus_error_t *err)
{
    assert(self);
    if (!agent_bundle_id_valid(kernel_id) || pid <= 0)
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id or pid");
    if (zhashx_lookup(self->kernels, kernel_id))
        return bus_error_set(err, BUS_STATUS_CONFLICT, "kernel %s is known", kernel_id);
    char *dir = agent_runc_kernel_path(self, kernel_id, NULL);
    struct stat st;
    int found = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
    zstr_free(&dir);
    if (!found)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no dir for kernel %s",
                             kernel_id);
    s_kernel_t *kernel = calloc(1, sizeof *kernel);
    assert(kernel);
    kernel->id = strdup(kernel_id);
    kernel->pid = pid;
    kernel->exit_code = AGENT_RUNC_EXIT_UNKNOWN;
    //  What happened before is not known: no earlier kill is blamed on it.
    kernel->oom_base = s_oom_count(kernel_id);
    kernel->foreign = s_parent(pid) != getpid();
    zhashx_insert(self->kernels, kernel_id, kernel);
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  OOM kills a run's end explains.

bool
agent_runc_oom_take(agent_runc_t *self, const char *kernel_id)
{
    assert(self);
    s_kernel_t *kernel = kernel_id ? zhashx_lookup(self->kernels, kernel_id) : NULL;
    if (!kernel || kernel->exited)
        return false;
    uint64_t count = s_oom_count(kernel_id);
    if (count <= kernel->oom_base)
        return false;
    kernel->oom_base = count;
    return true;
}

//  ---------------------------------------------------------------------------
//  Whether a process runs.

bool
agent_runc_pid_alive(int pid)
{
    if (pid <= 0)
        return false;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    char *stat = s_read_file(path);
    if (!stat)
        return false;
    //  "pid (comm) S ...": the state follows the last ')'
    const char *paren = strrchr(stat, ')');
    bool alive = paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
    free(stat);
    return alive;
}

//  ---------------------------------------------------------------------------
//  Take a kernel's entry out of the driver.

agent_runc_entry_t *
agent_runc_detach(agent_runc_t *self, const char *kernel_id)
{
    assert(self);
    assert(kernel_id);
    s_kernel_t *kernel = zhashx_lookup(self->kernels, kernel_id);
    if (kernel)
        zhashx_delete(self->kernels, kernel_id); //  no destructor: the caller's now
    return kernel;
}

//  ---------------------------------------------------------------------------
//  Put an entry another driver gave up into this one.

int
agent_runc_attach(agent_runc_t *self, agent_runc_entry_t **entry_p, bus_error_t *err)
{
    assert(self);
    assert(entry_p && *entry_p);
    agent_runc_entry_t *entry = *entry_p;
    if (zhashx_lookup(self->kernels, entry->id))
        return bus_error_set(err, BUS_STATUS_CONFLICT, "kernel %s is known", entry->id);
    zhashx_insert(self->kernels, entry->id, entry);
    *entry_p = NULL;
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Free an entry no driver holds.

void
agent_runc_entry_destroy(agent_runc_entry_t **entry_p)
{
    assert(entry_p);
    agent_runc_entry_t *entry = *entry_p;
    if (entry) {
        free(entry->id);
        free(entry);
        *entry_p = NULL;
    }
}

//  ---------------------------------------------------------------------------
//  The host path of leaf inside a kernel's dir.

char *
agent_runc_kernel_path(agent_runc_t *self, const char *kernel_id, const char *leaf)
{
    assert(self);
    assert(kernel_id);
    return leaf ? zsys_sprintf("%s/kernels/%s/%s", self->state_dir, kernel_id, leaf)
                : zsys_sprintf("%s/kernels/%s", self->state_dir, kernel_id);
}
