/*  =========================================================================
    agent_accel_mps - one NVIDIA MPS control daemon per GPU held in shares

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include "agent_accel_mps.h"
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h> //  unshare
#include <signal.h>
#include <sys/mount.h> //  the daemon's own /dev/shm
#include <sys/stat.h>
#include <sys/wait.h>

#define S_READY_MS    3000 //  how long a start waits for the daemon's control socket
#define S_HOLDERS_MAX 256

typedef struct {
    bool used;     //  a daemon runs, is starting or quitting for this GPU
    bool starting; //  a start is out (agent_accel_mps_start_t): pid is its to set
    uint32_t index;
    char uuid[AGENT_ACCEL_ID_MAX];
    pid_t pid;       //  0: none
    bool child;      //  ours (waitpid works), not adopted from an earlier agent
    int64_t quit_at; //  monotonic ms of the quit; 0: not quitting
    pid_t client;    //  the "quit" client, ours to reap; 0: none
    char *holders[S_HOLDERS_MAX];
    size_t holder_count;
} s_gpu_t;

//  A daemon's start: made on the loop with everything it needs, run off
//  it, handed back. Only start_done touches the supervisor.
struct _agent_accel_mps_start_t {
    agent_accel_mps_t *mps;
    uint32_t index;
    bool wait_only; //  another start of this GPU runs first: wait for its socket
    pid_t old;      //  a quitting daemon killed for this start, to see gone; 0: none
    bool old_child;
    char control[PATH_MAX];
    char state_dir[PATH_MAX];
    char index_dir[PATH_MAX];
    char pipe[PATH_MAX];
    char log[PATH_MAX];
    char log_file[PATH_MAX];
    char pid_file[PATH_MAX];
    char shm[PATH_MAX];
    char socket[PATH_MAX + 16];
    char env[4][PATH_MAX + 64];
    char uuid[AGENT_ACCEL_ID_MAX];
    pid_t pid; //  the run's: the daemon started, 0: none
};

struct _agent_accel_mps_t {
    char *control; //  NULL: no MPS here
    char *state_dir;
    char *shm_root;
    char *tag;
    s_gpu_t gpus[AGENT_ACCEL_MPS_GPUS_MAX];
};

static int64_t
s_now_ms(void)
{
    return bus_clock_mono_us() / 1000;
}

//  <state_dir>/<index>/<name> into out.
static void
s_path(const agent_accel_mps_t *self,
       uint32_t index,
       const char *name,
       char *out,
       size_t size)
{
    snprintf(out, size, "%s/%u%s%s", self->state_dir, index, *name ? "/" : "", name);
}

static void
s_shm_dir(const agent_accel_mps_t *self, uint32_t index, char *out, size_t size)
{
    snprintf(out, size, "%s/backplane-mps-%s-%u", self->shm_root, self->tag, index);
}

static s_gpu_t *
s_find(agent_accel_mps_t *self, uint32_t index)
{
    for (size_t i = 0; i < AGENT_ACCEL_MPS_GPUS_MAX; i++)
        if (self->gpus[i].used && self->gpus[i].index == index)
            return &self->gpus[i];
    return NULL;
}

static s_gpu_t *
s_slot(agent_accel_mps_t *self, uint32_t index, const char *uuid)
{
    s_gpu_t *gpu = s_find(self, index);
    for (size_t i = 0; !gpu && i < AGENT_ACCEL_MPS_GPUS_MAX; i++)
        if (!self->gpus[i].used) {
            gpu = &self->gpus[i];
            *gpu = (s_gpu_t){.used = true, .index = index};
        }
    if (gpu && uuid)
        snprintf(gpu->uuid, sizeof gpu->uuid, "%s", uuid);
    return gpu;
}

//  True when pid runs (not a zombie) nvidia-cuda-mps-control: its argv[0],
//  or argv[1] where it is a script run by its interpreter (a pid file may
//  name a pid reused since; a zombie's command line is empty).
static bool
s_is_control(pid_t pid)
{
    char path[64], line[PATH_MAX];
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int) pid);
    FILE *file = fopen(path, "r");
    if (!file)
        return false;
    size_t n = fread(line, 1, sizeof line - 1, file);
    fclose(file);
    line[n] = '\0';
    for (size_t at = 0, arg = 0; at < n && arg < 2; arg++) {
        const char *slash = strrchr(line + at, '/');
        if (streq(slash ? slash + 1 : line + at, "nvidia-cuda-mps-control"))
            return true;
        at += strlen(line + at) + 1;
    }
    return false;
}

static bool
s_alive(s_gpu_t *gpu)
{
    if (gpu->pid <= 0)
        return false;
    if (gpu->child) {
        int status;
        pid_t waited = waitpid(gpu->pid, &status, WNOHANG);
        if (waited == 0)
            return true;
        if (waited == gpu->pid)
            return false;
        //  Reaped by the agent's orphan reaping (agent_runc_reap_all): gone.
    }
    return kill(gpu->pid, 0) == 0 && s_is_control(gpu->pid);
}

static void
s_reap_client(s_gpu_t *gpu)
{
    int status;
    if (gpu->client > 0 && waitpid(gpu->client, &status, WNOHANG) != 0)
        gpu->client = 0;
}

//  A descriptor for the daemon's output: <index>/log/control.out.
static int
s_log_fd(const agent_accel_mps_t *self, uint32_t index)
{
    char path[PATH_MAX];
    s_path(self, index, "log/control.out", path, sizeof path);
    return open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

static void
s_write_all(int fd, const char *text)
{
    size_t size = strlen(text);
    while (size > 0) {
        ssize_t n = write(fd, text, size);
        if (n <= 0)
            return;
        text += n;
        size -= (size_t) n;
    }
}

//  In the child after fork: only async-signal-safe calls, then exec.
static void
s_exec_child(int in_fd,
             int log_fd,
             const char *shm_dir,
             const char *control,
             char *const *argv,
             char *const *envp)
{
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    umask(0);
    if (shm_dir) {
        //  The daemon's own session and mount namespace: its /dev/shm is the
        //  directory its clients' containers get.
        setsid();
        if (unshare(CLONE_NEWNS) != 0 ||
            mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
            mount(shm_dir, "/dev/shm", NULL, MS_BIND, NULL) != 0) {
            s_write_all(log_fd, "backplane: cannot bind the MPS /dev/shm\n");
            _exit(126);
        }
    }
    if (dup2(in_fd, 0) < 0 || dup2(log_fd, 1) < 0 || dup2(log_fd, 2) < 0)
        _exit(126);
    //  None of the agent's sockets and files: a daemon outlives the agent and
    //  would hold its ports and databases open.
    close_range(3, ~0U, 0);
    execve(control, argv, envp);
    s_write_all(log_fd, "backplane: cannot run nvidia-cuda-mps-control\n");
    _exit(127);
}

//  The daemon's environment: its GPU, its directories, and a PATH where the
//  control finds nvidia-cuda-mps-server (beside itself).
static void
s_environ(const agent_accel_mps_t *self, const s_gpu_t *gpu, char env[4][PATH_MAX + 64])
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", self->control);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    snprintf(env[0], PATH_MAX + 64, "CUDA_VISIBLE_DEVICES=%s", gpu->uuid);
    char pipe[PATH_MAX], log[PATH_MAX];
    s_path(self, gpu->index, "pipe", pipe, sizeof pipe);
    s_path(self, gpu->index, "log", log, sizeof log);
    snprintf(env[1], PATH_MAX + 64, "CUDA_MPS_PIPE_DIRECTORY=%s", pipe);
    snprintf(env[2], PATH_MAX + 64, "CUDA_MPS_LOG_DIRECTORY=%s", log);
    snprintf(env[3], PATH_MAX + 64, "PATH=%s:/usr/sbin:/usr/bin:/sbin:/bin", dir);
}

//  The start of GPU's daemon, to run off the loop: old, a quitting daemon
//  just killed, is seen gone first; wait_only when another start of it is
//  out (it runs first: agent_accel_mps_start_run's contract), which this
//  one waits for. NULL when out of memory.
static agent_accel_mps_start_t *
s_plan(agent_accel_mps_t *self,
       const s_gpu_t *gpu,
       pid_t old,
       bool old_child,
       bool wait_only)
{
    agent_accel_mps_start_t *start = calloc(1, sizeof *start);
    if (!start)
        return NULL;
    start->mps = self;
    start->index = gpu->index;
    start->wait_only = wait_only;
    start->old = old;
    start->old_child = old_child;
    snprintf(start->control, sizeof start->control, "%s", self->control);
    snprintf(start->state_dir, sizeof start->state_dir, "%s", self->state_dir);
    snprintf(start->uuid, sizeof start->uuid, "%s", gpu->uuid);
    s_path(self, gpu->index, "", start->index_dir, sizeof start->index_dir);
    s_path(self, gpu->index, "pipe", start->pipe, sizeof start->pipe);
    s_path(self, gpu->index, "log", start->log, sizeof start->log);
    s_path(self, gpu->index, "log/control.out", start->log_file, sizeof start->log_file);
    s_path(self, gpu->index, "pid", start->pid_file, sizeof start->pid_file);
    s_shm_dir(self, gpu->index, start->shm, sizeof start->shm);
    snprintf(start->socket, sizeof start->socket, "%s/control", start->pipe);
    s_environ(self, gpu, start->env);
    return start;
}

//  Off the loop: waits until pid (the daemon start started) made its
//  control socket, up to S_READY_MS; pid 0 when another start made it.
//  A client that starts before the socket is there runs without MPS, and
//  so without its limits: the kernel waits for it.
static int
s_wait_ready(agent_accel_mps_start_t *start, pid_t pid, bus_error_t *err)
{
    s_gpu_t daemon = {.pid = pid, .child = true};
    int64_t deadline = s_now_ms() + S_READY_MS;
    while (access(start->socket, F_OK) != 0) {
        if (pid && !s_alive(&daemon))
            return bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                                 "MPS: the control daemon of GPU %u exited at start"
                                 " (see %s/control.out)",
                                 start->index, start->log);
        if (s_now_ms() > deadline) {
            if (pid) {
                int status;
                kill(-pid, SIGKILL);
                waitpid(pid, &status, 0);
            }
            return bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                                 "MPS: the control daemon of GPU %u made no socket in"
                                 " %d ms (see %s/control.out)",
                                 start->index, S_READY_MS, start->log);
        }
        usleep(10000);
    }
    return BUS_OK;
}

//  Off the loop: the old daemon, killed, is gone (its socket and its GPU
//  are the new one's).
static void
s_wait_gone(agent_accel_mps_start_t *start)
{
    if (start->old <= 0)
        return;
    if (start->old_child) {
        int status;
        while (waitpid(start->old, &status, 0) < 0 && errno == EINTR)
            ; //  ECHILD: the agent's orphan reaping took it
        return;
    }
    s_gpu_t old = {.pid = start->old};
    while (s_alive(&old))
        usleep(1000);
}

int
agent_accel_mps_start_run(agent_accel_mps_start_t *start, bus_error_t *err)
{
    assert(start);
    if (start->wait_only)
        return s_wait_ready(start, 0, err);
    s_wait_gone(start);
    //  The MPS server runs as its clients' user (the kernels' uid 1000) and
    //  makes its sockets and log in these: theirs, under directories anyone
    //  may pass through (a root-only state directory stopped every server
    //  at its start on a real GPU).
    if (zsys_dir_create("%s", start->pipe) != 0 ||
        zsys_dir_create("%s", start->log) != 0 || chmod(start->state_dir, 0755) != 0 ||
        chmod(start->index_dir, 0755) != 0 ||
        chown(start->pipe, AGENT_KERNEL_UID, AGENT_KERNEL_GID) != 0 ||
        chmod(start->pipe, 0755) != 0 ||
        chown(start->log, AGENT_KERNEL_UID, AGENT_KERNEL_GID) != 0 ||
        chmod(start->log, 0755) != 0 ||
        (mkdir(start->shm, 01777) != 0 && errno != EEXIST) ||
        chmod(start->shm, 01777) != 0)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                             "MPS: cannot make the directories of GPU %u: %s",
                             start->index, strerror(errno));
    unlink(start->socket); //  a dead daemon's, which would fool the wait

    char *envp[] = {start->env[0], start->env[1], start->env[2], start->env[3], NULL};
    char *argv[] = {(char *) "nvidia-cuda-mps-control", (char *) "-f", NULL};
    int log_fd = open(start->log_file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (log_fd < 0 || null_fd < 0) {
        if (log_fd >= 0)
            close(log_fd);
        if (null_fd >= 0)
            close(null_fd);
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "MPS: cannot open its log");
    }
    pid_t pid = fork();
    if (pid == 0)
        s_exec_child(null_fd, log_fd, start->shm, start->control, argv, envp);
    close(log_fd);
    close(null_fd);
    if (pid < 0)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "MPS: cannot fork: %s",
                             strerror(errno));
    char text[32];
    snprintf(text, sizeof text, "%d\n", (int) pid);
    agent_fs_replace(start->pid_file, text, strlen(text));
    if (s_wait_ready(start, pid, err) != BUS_OK)
        return err->status;
    start->pid = pid;
    bus_log_notice("MPS control daemon started gpu=%u uuid=%s pid=%d", start->index,
                   start->uuid, (int) pid);
    return BUS_OK;
}

void
agent_accel_mps_start_done(agent_accel_mps_start_t **start_p)
{
    assert(start_p);
    agent_accel_mps_start_t *start = *start_p;
    if (!start)
        return;
    s_gpu_t *gpu = start->wait_only ? NULL : s_find(start->mps, start->index);
    if (gpu) {
        //  A daemon nobody holds any more is told to quit by supervise.
        gpu->starting = false;
        gpu->pid = start->pid;
        gpu->child = start->pid > 0;
        gpu->quit_at = 0;
    }
    free(start);
    *start_p = NULL;
}

//  Tells GPU's daemon to quit: "quit" on the stdin of a client.
static void
s_quit(agent_accel_mps_t *self, s_gpu_t *gpu)
{
    if (gpu->pid <= 0 || gpu->quit_at)
        return;
    gpu->quit_at = s_now_ms();
    char env[4][PATH_MAX + 64];
    s_environ(self, gpu, env);
    char *envp[] = {env[1], env[3], NULL};
    char *argv[] = {(char *) "nvidia-cuda-mps-control", NULL};
    int fds[2];
    int log_fd = s_log_fd(self, gpu->index);
    if (log_fd < 0 || pipe2(fds, O_CLOEXEC) != 0) {
        if (log_fd >= 0)
            close(log_fd);
        return; //  the grace runs out and supervise kills it
    }
    pid_t pid = fork();
    if (pid == 0)
        s_exec_child(fds[0], log_fd, NULL, self->control, argv, envp);
    close(fds[0]);
    close(log_fd);
    if (pid > 0) {
        gpu->client = pid;
        //  A client gone already is EPIPE here, not a signal: bus_node ignores
        //  SIGPIPE in every service.
        s_write_all(fds[1], "quit\n");
    }
    close(fds[1]);
    bus_log_info("MPS control daemon told to quit gpu=%u pid=%d", gpu->index,
                 (int) gpu->pid);
}

//  GPU's daemon is gone: its files go, and the slot is free unless holders
//  remain.
static void
s_gone(agent_accel_mps_t *self, s_gpu_t *gpu)
{
    char path[PATH_MAX];
    s_path(self, gpu->index, "pid", path, sizeof path);
    unlink(path);
    s_shm_dir(self, gpu->index, path, sizeof path);
    if (gpu->holder_count == 0)
        agent_fs_remove_tree(path);
    gpu->pid = 0;
    gpu->quit_at = 0;
    if (gpu->holder_count == 0 && gpu->client == 0)
        gpu->used = false;
}

//  A daemon an earlier agent left for GPU index, adopted when alive.
static void
s_adopt(agent_accel_mps_t *self, s_gpu_t *gpu)
{
    char path[PATH_MAX];
    s_path(self, gpu->index, "pid", path, sizeof path);
    FILE *file = fopen(path, "r");
    int pid = 0;
    if (file) {
        if (fscanf(file, "%d", &pid) != 1)
            pid = 0;
        fclose(file);
    }
    if (pid > 0 && kill(pid, 0) == 0 && s_is_control(pid)) {
        gpu->pid = pid;
        gpu->child = false;
        bus_log_notice("MPS control daemon adopted gpu=%u pid=%d", gpu->index, pid);
    }
}

//  ---------------------------------------------------------------------------

agent_accel_mps_t *
agent_accel_mps_new(const char *control,
                    const char *state_dir,
                    const char *shm_root,
                    const char *tag)
{
    assert(state_dir && shm_root && tag);
    agent_accel_mps_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->control = control ? strdup(control) : NULL;
    self->state_dir = strdup(state_dir);
    self->shm_root = strdup(shm_root);
    self->tag = strdup(tag);
    if ((control && !self->control) || !self->state_dir || !self->shm_root ||
        !self->tag) {
        agent_accel_mps_destroy(&self);
        return NULL;
    }
    return self;
}

void
agent_accel_mps_destroy(agent_accel_mps_t **self_p)
{
    assert(self_p);
    agent_accel_mps_t *self = *self_p;
    if (!self)
        return;
    for (size_t i = 0; i < AGENT_ACCEL_MPS_GPUS_MAX; i++)
        for (size_t h = 0; h < self->gpus[i].holder_count; h++)
            free(self->gpus[i].holders[h]);
    free(self->control);
    free(self->state_dir);
    free(self->shm_root);
    free(self->tag);
    free(self);
    *self_p = NULL;
}

int
agent_accel_mps_acquire(agent_accel_mps_t *self,
                        const char *kernel_id,
                        uint32_t index,
                        const char *uuid,
                        agent_accel_mps_binds_t *out,
                        agent_accel_mps_start_t **start_p,
                        bus_error_t *err)
{
    assert(self && kernel_id && uuid && out && start_p);
    *start_p = NULL;
    if (!self->control)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                             "MPS: no nvidia-cuda-mps-control on this host");
    s_gpu_t *gpu = s_slot(self, index, uuid);
    if (!gpu)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "MPS: too many GPUs");
    bool held = false;
    for (size_t h = 0; h < gpu->holder_count; h++)
        held = held || streq(gpu->holders[h], kernel_id);
    if (!held && gpu->holder_count == S_HOLDERS_MAX)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "MPS: too many holders");
    agent_accel_mps_start_t *start = NULL;
    if (gpu->starting)
        start = s_plan(self, gpu, 0, false, true);
    else {
        if (gpu->pid == 0)
            s_adopt(self, gpu);
        pid_t old = 0;
        bool old_child = false;
        if (gpu->pid > 0 && gpu->quit_at) {
            //  Quitting: a new holder waits for a fresh daemon, not the old
            //  one, which its start sees gone first.
            kill(-gpu->pid, SIGKILL);
            kill(gpu->pid, SIGKILL);
            old = gpu->pid, old_child = gpu->child;
            gpu->pid = 0;
            gpu->quit_at = 0;
        }
        if (gpu->pid > 0 && !s_alive(gpu))
            gpu->pid = 0;
        if (gpu->pid == 0)
            start = s_plan(self, gpu, old, old_child, false);
        if (gpu->pid == 0 && !start) {
            if (gpu->holder_count == 0)
                gpu->used = gpu->client != 0;
            return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        }
        gpu->starting = start != NULL;
    }
    char *copy = held ? NULL : strdup(kernel_id);
    if ((gpu->starting && !start) || (!held && !copy)) {
        free(copy);
        agent_accel_mps_start_done(&start);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    if (copy)
        gpu->holders[gpu->holder_count++] = copy;
    s_path(self, index, "pipe", out->pipe_dir, sizeof out->pipe_dir);
    s_shm_dir(self, index, out->shm_dir, sizeof out->shm_dir);
    *start_p = start;
    return BUS_OK;
}

void
agent_accel_mps_release(agent_accel_mps_t *self, const char *kernel_id)
{
    assert(self && kernel_id);
    for (size_t i = 0; i < AGENT_ACCEL_MPS_GPUS_MAX; i++) {
        s_gpu_t *gpu = &self->gpus[i];
        if (!gpu->used)
            continue;
        for (size_t h = 0; h < gpu->holder_count; h++)
            if (streq(gpu->holders[h], kernel_id)) {
                free(gpu->holders[h]);
                gpu->holders[h] = gpu->holders[--gpu->holder_count];
                if (gpu->holder_count == 0)
                    s_quit(self, gpu);
                break;
            }
    }
}

void
agent_accel_mps_sweep(agent_accel_mps_t *self)
{
    assert(self);
    if (!self->control)
        return;
    DIR *dir = opendir(self->state_dir);
    struct dirent *entry;
    while (dir && (entry = readdir(dir))) {
        char *end = NULL;
        unsigned long index = strtoul(entry->d_name, &end, 10);
        if (!isdigit((unsigned char) entry->d_name[0]) || *end || index > UINT32_MAX)
            continue;
        if (s_find(self, (uint32_t) index))
            continue; //  held (adopted or started) since the agent began
        s_gpu_t probe = {.used = true, .index = (uint32_t) index};
        s_adopt(self, &probe);
        s_gpu_t *gpu = probe.pid > 0 ? s_slot(self, (uint32_t) index, NULL) : NULL;
        if (gpu) {
            *gpu = probe;
            bus_log_notice("MPS control daemon held by no kernel, stopping gpu=%u",
                           gpu->index);
            s_quit(self, gpu);
        }
    }
    if (dir)
        closedir(dir);
}

agent_accel_mps_start_t *
agent_accel_mps_supervise(agent_accel_mps_t *self)
{
    assert(self);
    agent_accel_mps_start_t *restart = NULL;
    for (size_t i = 0; i < AGENT_ACCEL_MPS_GPUS_MAX; i++) {
        s_gpu_t *gpu = &self->gpus[i];
        if (!gpu->used)
            continue;
        s_reap_client(gpu);
        if (gpu->starting)
            continue; //  its daemon is its start's until start_done
        bool alive = s_alive(gpu);
        if (gpu->quit_at) {
            if (!alive)
                s_gone(self, gpu);
            else if (s_now_ms() - gpu->quit_at > AGENT_ACCEL_MPS_STOP_MS) {
                bus_log_warning("MPS control daemon did not quit, killed gpu=%u pid=%d",
                                gpu->index, (int) gpu->pid);
                kill(-gpu->pid, SIGKILL);
                kill(gpu->pid, SIGKILL);
            }
        } else if (!alive && gpu->holder_count > 0) {
            if (restart)
                continue; //  one start at a time: this one at the next step
            bus_log_warning("MPS control daemon died, starting it again gpu=%u pid=%d",
                            gpu->index, (int) gpu->pid);
            gpu->pid = 0;
            restart = s_plan(self, gpu, 0, false, false);
            gpu->starting = restart != NULL;
        } else if (!alive)
            s_gone(self, gpu);
        else if (gpu->holder_count == 0)
            s_quit(self, gpu);
    }
    return restart;
}

void
agent_accel_mps_stop_all(agent_accel_mps_t *self)
{
    assert(self);
    for (size_t i = 0; i < AGENT_ACCEL_MPS_GPUS_MAX; i++)
        if (self->gpus[i].used && self->gpus[i].pid > 0)
            s_quit(self, &self->gpus[i]);
    int64_t deadline = s_now_ms() + AGENT_ACCEL_MPS_STOP_MS;
    for (size_t i = 0; i < AGENT_ACCEL_MPS_GPUS_MAX; i++) {
        s_gpu_t *gpu = &self->gpus[i];
        if (!gpu->used || gpu->pid <= 0)
            continue;
        while (s_alive(gpu) && s_now_ms() < deadline)
            usleep(10000);
        if (s_alive(gpu)) {
            kill(-gpu->pid, SIGKILL);
            kill(gpu->pid, SIGKILL);
            while (s_alive(gpu))
                usleep(1000);
        }
        if (gpu->client > 0) {
            int status;
            waitpid(gpu->client, &status, 0);
            gpu->client = 0;
        }
        for (size_t h = 0; h < gpu->holder_count; h++)
            free(gpu->holders[h]);
        gpu->holder_count = 0;
        s_gone(self, gpu);
    }
}

int
agent_accel_mps_pid(const agent_accel_mps_t *self, uint32_t index)
{
    assert(self);
    for (size_t i = 0; i < AGENT_ACCEL_MPS_GPUS_MAX; i++)
        if (self->gpus[i].used && self->gpus[i].index == index)
            return (int) self->gpus[i].pid;
    return 0;
}
