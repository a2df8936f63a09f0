/*  =========================================================================
    agent_kernels - the kernel.* service on the agent's loop

    A kernel is a record in a hash (id -> s_kernel_t) holding what must be
    given back when it ends: the shared hold on its image's rootfs, its
    network attachment and its runner client. One function, s_end, gives
    all of it back, deletes the kernel's row and emits kernel.terminated in
    one transaction; destroy, the reap timer and the restart check all end
    kernels through it, so the clean-up is the same whatever ends a kernel.
    kernel.restart stops the container and runs it again in place (the
    kernel keeps its record, its files and its address; the stop is not an
    end); only a restart that fails ends the kernel. A kernel id that ended
    is remembered (ended) and never created again.
    A kernel of a cluster session (cluster_size > 1) is named as Backend.AI
    names it, its role and its index within the role (main1, sub1, sub2),
    which is its container's hostname; every kernel gets Backend.AI's
    BACKENDAI_CLUSTER_* environment. Its /etc/hosts is a file of the agent,
    <state_dir>/hosts/<kernel_id>, bound read-only into the container
    (agent_runc makes the kernel's own directory, so the file cannot live
    there before the container starts): localhost and its own name at
    first, the whole cluster's names once the scheduler sends kernel.hosts.
    A bound file pins its inode, so a rename would go unseen: it is
    rewritten in place (the new text over the old, then cut to its length,
    so a reader never sees it empty).
    kernel.execute detaches its request and answers from the runner
    client's collect callback, which fires exactly once (with UNAVAILABLE
    when the kernel goes first).
    A kernel's accelerators are taken from the agent's allocator
    (agent_accel) before anything else of it, exactly as kernel.create's
    slots ask, and given back by s_end (or by a create that fails); its row
    keeps the slots it was given (a JSON object, which the heartbeat sums)
    and its allocation's stored form, which a restarted agent takes again
    for every kernel it adopts. Its container gets the allocation's
    variables (the user's own values of those names are dropped) and the
    device nodes that exist on the host.
    kernel.create's mounts (virtual folders, agent_mounts) are parsed and
    their host directories looked at before anything of the kernel is made;
    they become bind mounts in its bundle's config.json, which stays with
    the kernel: kernel.restart runs that same bundle again, and a restarted
    agent adopts running containers with their mounts in place.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <fcntl.h>     //  open flags for container.log
#include <libgen.h>    //  dirname: the runner next to the agent binary
#include <sys/stat.h>  //  stat: the runner's socket
#include <dirent.h>    //  opendir: stale hosts files after a restart
#include <arpa/inet.h> //  inet_pton: the addresses kernel.hosts names

const bus_db_migration_t agent_kernels_migrations[] = {
    {"the kernels this agent runs", "CREATE TABLE kernels ("
                                    "  id TEXT PRIMARY KEY,"
                                    "  session_id TEXT NOT NULL,"
                                    "  image TEXT NOT NULL,"
                                    "  digest TEXT NOT NULL,"
                                    "  ip TEXT NOT NULL DEFAULT '',"
                                    "  session_type TEXT NOT NULL DEFAULT 'interactive',"
                                    "  created_at INTEGER NOT NULL);"},
    {"the slots and accelerators each kernel was given",
     "ALTER TABLE kernels ADD COLUMN slots TEXT NOT NULL DEFAULT '{}';"
     "ALTER TABLE kernels ADD COLUMN accel TEXT NOT NULL DEFAULT '';"},
};

_Static_assert(sizeof agent_kernels_migrations / sizeof agent_kernels_migrations[0] ==
                   AGENT_KERNELS_MIGRATION_COUNT,
               "AGENT_KERNELS_MIGRATION_COUNT must match the migration list");

typedef struct {
    agent_kernels_t *owner; //  set with its runner client
    char *id;
    char *session_id;
    char *digest;
    char ip[AGENT_NET_IP_MAX];
    char hostname[AGENT_BUNDLE_HOSTNAME_MAX + 1]; //  empty when adopted
    int hold_fd;     //  shared lock on the image's rootfs; -1 when none
    bool net;        //  attached to the bridge
    bool adopted;    //  taken back after a restart: not our child, polled
    int pid;         //  PID 1 on the host
    char *run_id;    //  the last run started, for interrupt
    bool ending;     //  s_end is giving it back
    bool restarting; //  s_restart has stopped it to run it again
    bool task_oom;   //  its batch task ended by an OOM kill
    agent_runner_client_t *runner;
} s_kernel_t;

//  An exit agent_runc_reap reported, handled after it returns.
typedef struct {
    char *id;
    int exit_code;
    bool oom_killed;
} s_exit_t;

struct _agent_kernels_t {
    bus_node_t *node;
    const agent_config_t *config;
    agent_images_t *images;
    agent_accel_t *accel; //  the agent's accelerators (borrowed)
    agent_runc_t *runc;
    agent_net_t *net; //  bridge mode only
    char *cache_dir;  //  unpacked images
    char *runner_path;
    zhashx_t *kernels; //  id -> s_kernel_t
    zhashx_t *ended;   //  id -> exit code as text, of kernels destroyed lately
    zlistx_t *exits;   //  s_exit_t, filled by the reap callback
    struct event *reap_timer;
    struct event *stats_timer;
    agent_kernels_runner_fn *runner_hook; //  told when runner clients come and go
    void *runner_hook_arg;
};

//  A kernel.execute waiting for the runner.
typedef struct {
    agent_kernels_t *self;
    bus_rpc_request_t *req;
} s_exec_t;

static void
s_kernel_free(s_kernel_t **kernel_p)
{
    s_kernel_t *kernel = *kernel_p;
    if (!kernel)
        return;
    agent_runner_client_destroy(&kernel->runner);
    if (kernel->hold_fd >= 0)
        close(kernel->hold_fd);
    free(kernel->id);
    free(kernel->session_id);
    free(kernel->digest);
    free(kernel->run_id);
    free(kernel);
    *kernel_p = NULL;
}

static void
s_kernel_destructor(void **item_p)
{
    s_kernel_free((s_kernel_t **) item_p);
}

static void
s_exit_destructor(void **item_p)
{
    s_exit_t *exit = *item_p;
    if (exit) {
        free(exit->id);
        free(exit);
        *item_p = NULL;
    }
}

static s_kernel_t *
s_kernel_new(const char *id, const char *session_id, const char *digest)
{
    s_kernel_t *kernel = calloc(1, sizeof *kernel);
    if (!kernel)
        return NULL;
    kernel->id = strdup(id);
    kernel->session_id = strdup(session_id ? session_id : "");
    kernel->digest = strdup(digest ? digest : "");
    kernel->hold_fd = -1;
    if (!kernel->id || !kernel->session_id || !kernel->digest)
        s_kernel_free(&kernel);
    return kernel;
}

//  Tells the runner hook about kernel's new runner client.
static void
s_runner_made(agent_kernels_t *self, s_kernel_t *kernel)
{
    if (self->runner_hook && kernel->runner)
        self->runner_hook(kernel->id, kernel->runner, self->runner_hook_arg);
}

//  Destroys kernel's runner client, telling the runner hook first.
static void
s_runner_drop(agent_kernels_t *self, s_kernel_t *kernel)
{
    if (self->runner_hook && kernel->runner)
        self->runner_hook(kernel->id, NULL, self->runner_hook_arg);
    agent_runner_client_destroy(&kernel->runner);
}

#define S_TASK_RUN_ID "batch-task"

//  A run of the kernel ended. A SIGKILL may be the OOM killer's: the
//  cgroup's count tells, and the kill is then this run's (not the kernel's,
//  should it exit later).
static void
s_on_run_finished(const char *run_id, int exit_code, void *arg)
{
    s_kernel_t *kernel = arg;
    if (exit_code != 128 + SIGKILL)
        return;
    bool oom = agent_runc_oom_take(kernel->owner->runc, kernel->id);
    if (strcmp(run_id, S_TASK_RUN_ID) == 0)
        kernel->task_oom = oom;
    if (oom)
        bus_log_notice("run oom-killed kernel=%s run=%s", kernel->id, run_id);
}

//  A runner client for kernel on socket, told of its runs' ends. NULL with
//  err filled.
static agent_runner_client_t *
s_runner_new(agent_kernels_t *self,
             s_kernel_t *kernel,
             const char *socket,
             bus_error_t *err)
{
    agent_runner_client_t *runner =
        agent_runner_client_new(bus_node_base(self->node), socket, err);
    if (runner) {
        kernel->owner = self;
        agent_runner_client_set_finished_handler(runner, s_on_run_finished, kernel);
    }
    return runner;
}

//  True when pid runs and is not a zombie.
static bool
s_pid_alive(int pid)
{
    if (pid <= 0)
        return false;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *file = fopen(path, "re");
    if (!file)
        return false;
    char text[512];
    size_t n = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[n] = '\0';
    const char *paren = strrchr(text, ')');
    return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

//  A slot's decimal amount, 0 when absent or malformed.
static double
s_slot(const proto_kernel_create_req_t *in, const char *slot)
{
    for (size_t i = 0; i < in->slots_count; i++)
        if (strcmp(in->slots[i].key, slot) == 0 && in->slots[i].value) {
            char *end;
            errno = 0;
            double value = strtod(in->slots[i].value, &end);
            if (errno || end == in->slots[i].value || *end || value < 0)
                return 0;
            return value;
        }
    return 0;
}

static const char *
s_label(const agent_image_t *image, const char *key)
{
    for (size_t i = 0; i < image->info.labels_count; i++)
        if (strcmp(image->info.labels[i].key, key) == 0)
            return image->info.labels[i].value;
    return NULL;
}

//  In bridge mode, sets the network up when first needed, so an agent that
//  never runs a kernel leaves the host's network alone. 0, or -1 with err.
static int
s_net_ready(agent_kernels_t *self, bus_error_t *err)
{
    if (self->net || strcmp(self->config->net_mode, "bridge") != 0)
        return 0;
    bus_error_t step;
    self->net = agent_net_new(self->config->net_bridge, self->config->net_cidr,
                              self->config->node.state_dir, &step);
    if (self->net)
        return 0;
    bus_log_error("kernel network unavailable detail=\"%s\"", step.detail);
    bus_error_set(err, BUS_STATUS_UNAVAILABLE, "kernel network unavailable: %s",
                  step.detail);
    return -1;
}

//  ---------------------------------------------------------------------------
//  The kernel's /etc/hosts: <state_dir>/hosts/<kernel_id>, bound read-only

#define S_HOSTS_DIR  "hosts"
#define S_HOSTS_HEAD "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n"
#define S_HOSTS_MAX  1024 //  names one kernel.hosts may give
//  The address of a kernel's own name when it has none on a network.
#define S_HOSTS_SELF "127.0.1.1"

//  Its path; caller frees.
static char *
s_hosts_path(agent_kernels_t *self, const char *kernel_id)
{
    return zsys_sprintf("%s/" S_HOSTS_DIR "/%s", self->config->node.state_dir, kernel_id);
}

//  A name for /etc/hosts and sethostname: 1..63 letters, digits, '-' and
//  '.', not starting with '-' or '.'.
static bool
s_hostname_valid(const char *name)
{
    size_t len = name ? strlen(name) : 0;
    if (len == 0 || len > AGENT_BUNDLE_HOSTNAME_MAX || *name == '-' || *name == '.')
        return false;
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char) *p) && *p != '-' && *p != '.')
            return false;
    return true;
}

//  The kernel's first hosts file, before its container binds it: written
//  whole to a temp file and renamed into place.
static int
s_hosts_create(agent_kernels_t *self, const s_kernel_t *kernel, bus_error_t *err)
{
    char *dir = zsys_sprintf("%s/" S_HOSTS_DIR, self->config->node.state_dir);
    char *path = s_hosts_path(self, kernel->id);
    char *temp = zsys_sprintf("%s/.%s.tmp", dir ? dir : "", kernel->id);
    char *text = zsys_sprintf(S_HOSTS_HEAD "%s\t%s\n",
                              *kernel->ip ? kernel->ip : S_HOSTS_SELF, kernel->hostname);
    int rc = BUS_OK;
    if (!dir || !path || !temp || !text)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    else if (bus_mkdirs_mode(dir, 0700) != 0)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot make %s: %s", dir,
                           strerror(errno));
    else {
        int fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
        size_t len = strlen(text);
        bool ok = fd >= 0 && write(fd, text, len) == (ssize_t) len;
        ok = (fd < 0 || close(fd) == 0) && ok;
        if (!ok || rename(temp, path) != 0) {
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot write %s: %s", path,
                               strerror(errno));
            unlink(temp);
        }
    }
    zstr_free(&dir);
    zstr_free(&path);
    zstr_free(&temp);
    zstr_free(&text);
    return rc;
}

//  Rewrites the kernel's hosts file in place: its container has the inode
//  bound, so a new file renamed over it would go unseen. The new text goes
//  over the old and the file is cut to its length after: a reader may see
//  the old text, a mix for an instant, never an empty file.
static int
s_hosts_rewrite(agent_kernels_t *self,
                const char *kernel_id,
                const char *text,
                bus_error_t *err)
{
    char *path = s_hosts_path(self, kernel_id);
    if (!path)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    size_t len = strlen(text);
    bool ok = fd >= 0 && pwrite(fd, text, len, 0) == (ssize_t) len &&
              ftruncate(fd, (off_t) len) == 0;
    int rc = ok ? BUS_OK
                : bus_error_set(err, BUS_STATUS_INTERNAL, "cannot rewrite %s: %s", path,
                                strerror(errno));
    if (fd >= 0)
        close(fd);
    zstr_free(&path);
    return rc;
}

//  The hosts text for kernel from kernel.hosts' JSON object (hostname ->
//  address): localhost, each name in the object's order, and the kernel's
//  own name when the object lacks it. Caller frees *text_p.
static int
s_hosts_text(const s_kernel_t *kernel, const char *json, char **text_p, bus_error_t *err)
{
    *text_p = NULL;
    json_t *map = json_loads(json, 0, NULL);
    size_t count = json_is_object(map) ? json_object_size(map) : 0;
    if (!json_is_object(map) || count > S_HOSTS_MAX) {
        json_decref(map);
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "hosts is not a JSON object of at most %d names",
                             S_HOSTS_MAX);
    }
    size_t line_max = INET6_ADDRSTRLEN + AGENT_BUNDLE_HOSTNAME_MAX + 2;
    size_t size = sizeof S_HOSTS_HEAD + (count + 1) * line_max;
    char *text = malloc(size);
    if (!text) {
        json_decref(map);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    size_t len = (size_t) snprintf(text, size, "%s", S_HOSTS_HEAD);
    bool own = !*kernel->hostname;
    int rc = BUS_OK;
    const char *name;
    json_t *value;
    json_object_foreach(map, name, value)
    {
        const char *address = json_string_value(value);
        unsigned char bytes[sizeof(struct in6_addr)];
        if (!s_hostname_valid(name) || !address ||
            (inet_pton(AF_INET, address, bytes) != 1 &&
             inet_pton(AF_INET6, address, bytes) != 1)) {
            rc =
                bus_error_set(err, BUS_STATUS_INVALID, "bad hosts entry \"%.64s\"", name);
            break;
        }
        len += (size_t) snprintf(text + len, size - len, "%s\t%s\n", address, name);
        own = own || strcmp(name, kernel->hostname) == 0;
    }
    if (rc == BUS_OK && !own)
        snprintf(text + len, size - len, "%s\t%s\n",
                 *kernel->ip ? kernel->ip : S_HOSTS_SELF, kernel->hostname);
    json_decref(map);
    if (rc == BUS_OK)
        *text_p = text;
    else
        free(text);
    return rc;
}

//  Removes the kernel's hosts file (its container has gone).
static void
s_hosts_remove(agent_kernels_t *self, const char *kernel_id)
{
    char *path = s_hosts_path(self, kernel_id);
    if (path && unlink(path) != 0 && errno != ENOENT)
        bus_log_warning("cannot remove %s: %s", path, strerror(errno));
    zstr_free(&path);
}

//  Gives back what a kernel holds on the host: runner, container, network,
//  image hold. Returns the exit code runc saw (AGENT_RUNC_EXIT_UNKNOWN when
//  none) in *exit_code_p; err keeps the first failure (logged).
static void
s_release(agent_kernels_t *self,
          s_kernel_t *kernel,
          int grace_ms,
          int *exit_code_p,
          bus_error_t *err)
{
    s_runner_drop(self, kernel);
    bus_error_t step;
    int rc = agent_runc_remove(self->runc, kernel->id, grace_ms, exit_code_p, &step);
    if (rc != BUS_OK && rc != BUS_STATUS_NOT_FOUND) {
        bus_log_error("kernel remove failed kernel=%s detail=\"%s\"", kernel->id,
                      step.detail);
        if (err && err->status == BUS_OK)
            *err = step;
    }
    if (self->net) {
        rc = agent_net_detach(self->net, kernel->id, &step);
        if (rc != BUS_OK && rc != BUS_STATUS_NOT_FOUND)
            bus_log_error("kernel net detach failed kernel=%s detail=\"%s\"", kernel->id,
                          step.detail);
        kernel->net = false;
    }
    if (kernel->hold_fd >= 0) {
        close(kernel->hold_fd);
        kernel->hold_fd = -1;
    }
    s_hosts_remove(self, kernel->id);
}

//  Ends a kernel: releases it, deletes its row and emits kernel.terminated in
//  one transaction, forgets it. Returns its exit code: exit_code when the
//  caller knows it, else what runc saw. kernel is freed.
static int
s_end(agent_kernels_t *self,
      s_kernel_t *kernel,
      int grace_ms,
      const char *reason,
      const char *detail,
      int exit_code,
      bool oom_killed)
{
    int seen = AGENT_RUNC_EXIT_UNKNOWN;
    bus_error_t err = {0};
    kernel->ending = true;
    //  The final counters, read while the cgroup is still there: they ride
    //  on kernel.terminated, so accounting's totals do not depend on the
    //  ephemeral samples.
    agent_stats_t stats;
    bool has_stats = agent_stats_read(kernel->id, &stats) == BUS_OK;
    s_release(self, kernel, grace_ms, &seen, &err);
    agent_accel_release(self->accel, kernel->id);
    if (exit_code == AGENT_RUNC_EXIT_UNKNOWN)
        exit_code = seen;
    proto_kernel_terminated_t event;
    proto_kernel_terminated_init(&event);
    event.kernel_id = kernel->id;
    event.session_id = kernel->session_id;
    event.agent_id = (char *) bus_node_name(self->node);
    event.exit_code = exit_code;
    event.reason = (char *) reason;
    event.detail = (char *) (detail ? detail : err.status != BUS_OK ? err.detail : "");
    event.oom_killed = oom_killed;
    event.at = bus_clock_wall_us();
    if (has_stats) {
        event.has_stats = true;
        event.cpu_used_ns = stats.cpu_used_ns;
        event.mem_peak_bytes = stats.memory_max_bytes;
    }
    bus_db_t *db = bus_node_db(self->node);
    bool done = false;
    if (bus_node_begin(self->node) == 0) {
        sqlite3_stmt *stmt = bus_db_stmt(db, "DELETE FROM kernels WHERE id = ?1");
        if (stmt) {
            sqlite3_bind_text(stmt, 1, kernel->id, -1, SQLITE_STATIC);
            done = sqlite3_step(stmt) == SQLITE_DONE;
            sqlite3_reset(stmt);
        }
        done = done && agent_events_terminated(self->node, &event) == 0;
        if (done)
            done = bus_node_commit(self->node) == 0;
        else
            bus_node_rollback(self->node);
    }
    if (!done)
        bus_log_error("cannot record the end of kernel %s", kernel->id);
    bus_log_notice("kernel terminated kernel=%s reason=%s exit_code=%d oom=%s",
                   kernel->id, reason, exit_code, oom_killed ? "yes" : "no");
    if (zhashx_size(self->ended) >= AGENT_KERNELS_ENDED_MAX)
        zhashx_purge(self->ended);
    char code[16];
    snprintf(code, sizeof code, "%d", exit_code);
    zhashx_update(self->ended, kernel->id, strdup(code));
    zhashx_delete(self->kernels, kernel->id); //  frees kernel
    return exit_code;
}

//  The runner's socket inside the kernel's run dir.
static char *
s_socket_path(agent_kernels_t *self, const char *kernel_id)
{
    return agent_runc_kernel_path(self->runc, kernel_id, "run/runner.sock");
}

//  Waits (blocking the loop) until the runner listens or the kernel exits.
//  The runner makes its socket a millisecond or two after the container
//  starts; a look every RUNNER_POLL_US costs an eighth of a millisecond on
//  average where 1 ms sleeps cost half of one. (Taking the wait off the
//  loop altogether is the agent's next step.)
#define RUNNER_POLL_US 250
static bool
s_wait_runner(agent_kernels_t *self, s_kernel_t *kernel)
{
    char *path = s_socket_path(self, kernel->id);
    int64_t deadline = bus_clock_mono_ms() + AGENT_KERNELS_RUNNER_WAIT_MS;
    bool ready = false;
    struct stat st;
    while (!ready && bus_clock_mono_ms() < deadline && s_pid_alive(kernel->pid)) {
        ready = stat(path, &st) == 0 && S_ISSOCK(st.st_mode);
        if (!ready)
            usleep(RUNNER_POLL_US);
    }
    zstr_free(&path);
    return ready;
}

//  The end of a kernel's container.log into a fresh buffer (*size_p bytes).
static uint8_t *
s_log_tail(agent_kernels_t *self, const char *kernel_id, size_t max, size_t *size_p)
{
    *size_p = 0;
    char *path = agent_runc_kernel_path(self->runc, kernel_id, "container.log");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
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
//  A batch session's task: the startup command, run as a batch run. Its end
//  ends the kernel (task-finished, or task-failed with a non-zero exit, or
//  oom-killed).

#define S_TASK_WAIT_MS 60000

typedef struct {
    agent_kernels_t *self;
    char *kernel_id;
} s_task_t;

static void s_on_task(json_t *result, const bus_error_t *err, void *arg);

static void
s_task_collect(s_task_t *task, s_kernel_t *kernel)
{
    agent_runner_client_collect(kernel->runner, S_TASK_RUN_ID, S_TASK_WAIT_MS, s_on_task,
                                task);
}

static void
s_on_task(json_t *result, const bus_error_t *err, void *arg)
{
    s_task_t *task = arg;
    agent_kernels_t *self = task->self;
    s_kernel_t *kernel = zhashx_lookup(self->kernels, task->kernel_id);
    const char *status = json_string_value(json_object_get(result, "status"));
    if (kernel && !kernel->ending && result && status &&
        strcmp(status, "finished") != 0) {
        s_task_collect(task, kernel); //  continued or waiting: keep waiting
        return;
    }
    if (kernel && !kernel->ending && result) {
        int code = (int) json_integer_value(json_object_get(result, "exitCode"));
        //  Killed by the OOM killer (s_on_run_finished asked the cgroup).
        bool oom = code == 128 + SIGKILL && kernel->task_oom;
        s_end(self, kernel, 0,
              oom         ? "oom-killed"
              : code == 0 ? "task-finished"
                          : "task-failed",
              NULL, code, oom);
    } else if (!result && kernel && !kernel->ending && !kernel->restarting)
        //  The runner went away: the reap timer sees the container's end.
        bus_log_warning("batch task lost kernel=%s detail=\"%s\"", task->kernel_id,
                        err->detail);
    free(task->kernel_id);
    free(task);
}

//  Starts kernel's startup command as its task. Returns BUS_OK or an error.
static int
s_task_start(agent_kernels_t *self,
             s_kernel_t *kernel,
             const char *command,
             bus_error_t *err)
{
    s_task_t *task = calloc(1, sizeof *task);
    if (!task || !(task->kernel_id = strdup(kernel->id))) {
        free(task);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    task->self = self;
    if (agent_runner_client_batch(kernel->runner, S_TASK_RUN_ID, NULL, NULL, command,
                                  err) != 0) {
        free(task->kernel_id);
        free(task);
        return err->status;
    }
    free(kernel->run_id);
    kernel->run_id = strdup(S_TASK_RUN_ID);
    kernel->task_oom = false;
    s_task_collect(task, kernel);
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  The bootstrap script (kernel.create's bootstrap_script): written to the
//  kernel's home as .bootstrap.sh and run once as a batch run (as the user,
//  in /home/work) after the runner answers and before the kernel counts as
//  started. It blocks the loop as the rest of kernel.create does, on a
//  private event base and runner connection, at most S_BOOTSTRAP_WAIT_MS. A
//  script that fails or runs too long does not stop the kernel: the agent's
//  log has its exit code, as Backend.AI's entrypoint logs it.

#define S_BOOTSTRAP_RUN_ID  "bootstrap"
#define S_BOOTSTRAP_FILE    ".bootstrap.sh"
#define S_BOOTSTRAP_WAIT_MS 60000
#define S_BOOTSTRAP_KILL_MS 2000

typedef struct {
    bool done;    //  finished, or the runner went away
    bool pending; //  a collect is waiting for its answer
    int exit_code;
    char detail[256];
} s_bootstrap_t;

static void
s_on_bootstrap(json_t *result, const bus_error_t *err, void *arg)
{
    s_bootstrap_t *boot = arg;
    boot->pending = false;
    const char *status = json_string_value(json_object_get(result, "status"));
    if (!result) {
        snprintf(boot->detail, sizeof boot->detail, "%s", err ? err->detail : "");
        boot->done = true;
    } else if (status && strcmp(status, "finished") == 0) {
        boot->exit_code = (int) json_integer_value(json_object_get(result, "exitCode"));
        boot->done = true;
    }
}

//  Runs the private base until boot is done or deadline_ms (monotonic).
static void
s_bootstrap_wait(struct event_base *base,
                 agent_runner_client_t *runner,
                 s_bootstrap_t *boot,
                 int64_t deadline_ms)
{
    while (!boot->done) {
        int64_t left = deadline_ms - bus_clock_mono_ms();
        if (left <= 0 && !boot->pending)
            return;
        if (!boot->pending) {
            boot->pending = true;
            agent_runner_client_collect(runner, S_BOOTSTRAP_RUN_ID, (int) left,
                                        s_on_bootstrap, boot);
        }
        if (boot->pending && !boot->done)
            event_base_loop(base, EVLOOP_ONCE);
    }
}

static void
s_bootstrap(agent_kernels_t *self,
            s_kernel_t *kernel,
            const char *socket,
            const char *script)
{
    bus_error_t err = {0};
    s_bootstrap_t boot = {.exit_code = -1};
    char home[PATH_MAX];
    char *rootfs = agent_runc_kernel_path(self->runc, kernel->id, "bundle/rootfs");
    int n = rootfs ? snprintf(home, sizeof home, "%s%s", rootfs, AGENT_KERNEL_HOME) : -1;
    zstr_free(&rootfs);
    struct event_base *base = NULL;
    agent_runner_client_t *runner = NULL;
    bool written = n >= 0 && (size_t) n < sizeof home &&
                   agent_files_write(home, S_BOOTSTRAP_FILE, script, strlen(script),
                                     AGENT_KERNEL_UID, AGENT_KERNEL_GID, &err) == 0;
    if (written && !(base = event_base_new()))
        bus_error_set(&err, BUS_STATUS_INTERNAL, "cannot make an event base");
    if (base && (runner = agent_runner_client_new(base, socket, &err)) != NULL &&
        agent_runner_client_batch(runner, S_BOOTSTRAP_RUN_ID, NULL, NULL,
                                  "/bin/sh " AGENT_KERNEL_HOME "/" S_BOOTSTRAP_FILE,
                                  &err) == 0) {
        s_bootstrap_wait(base, runner, &boot, bus_clock_mono_ms() + S_BOOTSTRAP_WAIT_MS);
        if (!boot.done) {
            //  Too long: kill it, so that the runner is free for the kernel.
            snprintf(boot.detail, sizeof boot.detail, "ran over %d s, killed",
                     S_BOOTSTRAP_WAIT_MS / 1000);
            if (agent_runner_client_kill(runner, S_BOOTSTRAP_RUN_ID, &err) == 0)
                s_bootstrap_wait(base, runner, &boot,
                                 bus_clock_mono_ms() + S_BOOTSTRAP_KILL_MS);
        }
    }
    if (!written && err.status == BUS_OK)
        bus_error_set(&err, BUS_STATUS_INTERNAL, "kernel home path too long");
    if (!*boot.detail && err.status != BUS_OK)
        snprintf(boot.detail, sizeof boot.detail, "%s", err.detail);
    if (boot.exit_code == 0 && !*boot.detail)
        bus_log_info("bootstrap script done kernel=%s exit_code=0", kernel->id);
    else
        bus_log_warning("bootstrap script failed kernel=%s exit_code=%d detail=\"%s\"",
                        kernel->id, boot.exit_code, boot.detail);
    agent_runner_client_destroy(&runner); //  a pending collect answers now
    if (base)
        event_base_free(base);
}

//  ---------------------------------------------------------------------------
//  kernel.create

static int
s_create_reply(s_kernel_t *kernel, bus_writer_t *reply, bus_error_t *err)
{
    proto_kernel_create_rep_t out;
    proto_kernel_create_rep_init(&out);
    out.kernel_id = kernel->id;
    out.container_id = kernel->id;
    out.kernel_host = kernel->ip;
    return proto_kernel_create_rep_write(&out, reply) == 0
               ? BUS_OK
               : bus_error_set(err, BUS_STATUS_INTERNAL, "cannot encode the reply");
}

//  What a kernel is in its session, as Backend.AI tells a container
//  (manager registry.py and sokovan launcher.py, the BACKENDAI_CLUSTER_*
//  variables): its role and 1-based index among that role's kernels, its
//  0-based index in the whole session, its hostname (role + index: main1,
//  sub1, sub2), and how many kernels each role has ("main:1,sub:2", roles
//  in name order).
#define S_ROLES_MAX 64
typedef struct {
    uint64_t size;       //  kernels in the session
    uint64_t local_rank; //  cluster_idx - 1
    uint64_t role_idx;   //  its index among its role's kernels
    char hostname[AGENT_BUNDLE_HOSTNAME_MAX + 1];
    char replicas[S_ROLES_MAX * 24];
} s_cluster_t;

typedef struct {
    char role[24];
    unsigned count;
} s_role_count_t;

static int
s_role_cmp(const void *a, const void *b)
{
    return strcmp(((const s_role_count_t *) a)->role, ((const s_role_count_t *) b)->role);
}

//  The role a cluster hostname names: itself without its trailing digits.
static void
s_host_role(const char *host, size_t len, char *role, size_t size)
{
    while (len > 0 && isdigit((unsigned char) host[len - 1]))
        len--;
    snprintf(role, size, "%.*s", (int) len, host);
}

//  Fills cluster from kernel.create's cluster fields: cluster_idx is the
//  kernel's 1-based place in cluster_hosts (main1,sub1,sub2...). Without
//  cluster_hosts (a caller that sends none) the hostname is the role and
//  cluster_idx. INVALID when the hostname is not one.
static int
s_cluster(const proto_kernel_create_req_t *in, s_cluster_t *cluster, bus_error_t *err)
{
    memset(cluster, 0, sizeof *cluster);
    const char *role = in->cluster_role && *in->cluster_role ? in->cluster_role : "main";
    uint64_t idx = in->cluster_idx ? in->cluster_idx : 1;
    cluster->size = in->cluster_size ? in->cluster_size : 1;
    cluster->local_rank = idx - 1;
    cluster->role_idx = idx;
    snprintf(cluster->hostname, sizeof cluster->hostname, "%.24s%" PRIu64, role, idx);
    s_role_count_t roles[S_ROLES_MAX];
    size_t role_count = 0;
    const char *hosts = in->cluster_hosts ? in->cluster_hosts : "";
    uint64_t place = 1;
    for (const char *p = hosts; *p; place++) {
        size_t len = strcspn(p, ",");
        if (place == idx && len > AGENT_BUNDLE_HOSTNAME_MAX)
            cluster->hostname[0] = '\0'; //  too long: refused below
        else if (place == idx)
            snprintf(cluster->hostname, sizeof cluster->hostname, "%.*s", (int) len, p);
        char name[24];
        s_host_role(p, len < sizeof name ? len : sizeof name - 1, name, sizeof name);
        size_t i = 0;
        while (i < role_count && strcmp(roles[i].role, name) != 0)
            i++;
        if (i == role_count && role_count < S_ROLES_MAX) {
            snprintf(roles[role_count].role, sizeof roles[role_count].role, "%s", name);
            roles[role_count++].count = 0;
        }
        if (i < role_count)
            roles[i].count++;
        p += p[len] ? len + 1 : len;
    }
    //  Its index among its role's kernels is the number its hostname ends in.
    size_t role_len = strlen(role);
    const char *digits = cluster->hostname + role_len;
    if (strncmp(cluster->hostname, role, role_len) == 0 &&
        isdigit((unsigned char) *digits))
        cluster->role_idx = strtoull(digits, NULL, 10);
    if (role_count == 0) {
        snprintf(roles[0].role, sizeof roles[0].role, "%s", role);
        roles[role_count++].count = 1;
    }
    qsort(roles, role_count, sizeof roles[0], s_role_cmp);
    size_t len = 0;
    for (size_t i = 0; i < role_count && len < sizeof cluster->replicas; i++)
        len += (size_t) snprintf(cluster->replicas + len, sizeof cluster->replicas - len,
                                 "%s%s:%u", i ? "," : "", roles[i].role, roles[i].count);
    if (!s_hostname_valid(cluster->hostname))
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid cluster hostname \"%s\"",
                             cluster->hostname);
    return BUS_OK;
}

//  True when key is one the agent decides: a name of accel ("KEY=value"
//  items) or one of the CUDA variables, which only an allocation sets.
static bool
s_accel_name(char *const *accel, const char *key)
{
    if (strcmp(key, AGENT_ACCEL_ENV_VISIBLE) == 0 ||
        strcmp(key, AGENT_ACCEL_ENV_THREADS) == 0 ||
        strcmp(key, AGENT_ACCEL_ENV_MEMORY) == 0)
        return true;
    size_t length = strlen(key);
    for (size_t i = 0; accel && accel[i]; i++)
        if (strncmp(accel[i], key, length) == 0 && accel[i][length] == '=')
            return true;
    return false;
}

//  The container's environment: the user's, then ours, then the
//  accelerators' (accel, NULL-terminated "KEY=value"; ours win).
static char **
s_environ(const proto_kernel_create_req_t *in,
          const agent_image_t *image,
          const s_cluster_t *cluster,
          char *const *accel)
{
    size_t accel_count = 0;
    while (accel && accel[accel_count])
        accel_count++;
    size_t max = in->environ_count + 24 + accel_count, count = 0;
    char **env = calloc(max + 1, sizeof *env);
    if (!env)
        return NULL;
    for (size_t i = 0; i < in->environ_count; i++) {
        const char *key = in->environ[i].key;
        if (!*key || strchr(key, '=') || strncmp(key, "BACKENDAI_", 10) == 0 ||
            strcmp(key, "HOME") == 0 || s_accel_name(accel, key))
            continue;
        env[count++] = zsys_sprintf("%s=%s", key, in->environ[i].value);
    }
    env[count++] = zsys_sprintf("BACKENDAI_SESSION_ID=%s", in->session_id);
    env[count++] = zsys_sprintf("BACKENDAI_SESSION_NAME=%s",
                                in->session_name ? in->session_name : "");
    env[count++] = zsys_sprintf("BACKENDAI_KERNEL_ID=%s", in->kernel_id);
    env[count++] = zsys_sprintf("BACKENDAI_KERNEL_IMAGE=%s", image->info.reference);
    env[count++] = zsys_sprintf("BACKENDAI_CLUSTER_ROLE=%s",
                                in->cluster_role ? in->cluster_role : "main");
    env[count++] = zsys_sprintf("BACKENDAI_CLUSTER_IDX=%" PRIu64, cluster->role_idx);
    env[count++] =
        zsys_sprintf("BACKENDAI_CLUSTER_LOCAL_RANK=%" PRIu64, cluster->local_rank);
    env[count++] = zsys_sprintf("BACKENDAI_CLUSTER_HOST=%s", cluster->hostname);
    env[count++] = zsys_sprintf("BACKENDAI_CLUSTER_SIZE=%" PRIu64, cluster->size);
    env[count++] = zsys_sprintf(
        "BACKENDAI_CLUSTER_HOSTS=%s",
        in->cluster_hosts && *in->cluster_hosts ? in->cluster_hosts : cluster->hostname);
    env[count++] = zsys_sprintf("BACKENDAI_CLUSTER_REPLICAS=%s", cluster->replicas);
    env[count++] = zsys_sprintf("BACKENDAI_CLUSTER_MODE=%s",
                                in->cluster_mode && *in->cluster_mode ? in->cluster_mode
                                                                      : "single-node");
    env[count++] = zsys_sprintf("BACKENDAI_SESSION_TYPE=%s",
                                in->session_type ? in->session_type : "interactive");
    env[count++] =
        zsys_sprintf("BACKENDAI_ACCESS_KEY=%s", in->access_key ? in->access_key : "");
    env[count++] =
        zsys_sprintf("BACKENDAI_USER_UUID=%s", in->user_uuid ? in->user_uuid : "");
    env[count++] =
        zsys_sprintf("BACKENDAI_DOMAIN_NAME=%s", in->domain_name ? in->domain_name : "");
    env[count++] =
        zsys_sprintf("BACKENDAI_GROUP_ID=%s", in->group_id ? in->group_id : "");
    env[count++] = zsys_sprintf("HOME=%s", AGENT_KERNEL_HOME);
    bool lang = false;
    for (size_t i = 0; i < count; i++)
        lang = lang || (env[i] && strncmp(env[i], "LANG=", 5) == 0);
    if (!lang)
        env[count++] = strdup("LANG=C.UTF-8");
    for (size_t i = 0; i < accel_count; i++)
        env[count++] = strdup(accel[i]);
    for (size_t i = 0; i < count; i++)
        if (!env[i]) {
            for (size_t j = 0; j < count; j++)
                free(env[j]);
            free(env);
            return NULL;
        }
    return env;
}

static void
s_free_strv(char **items)
{
    for (size_t i = 0; items && items[i]; i++)
        free(items[i]);
    free(items);
}

//  kernel.create's slots as its row keeps them: a JSON object of the
//  decimal strings. NULL when out of memory; caller frees.
static char *
s_slots_json(const proto_kernel_create_req_t *in)
{
    json_t *map = json_object();
    for (size_t i = 0; map && i < in->slots_count; i++)
        if (in->slots[i].key && in->slots[i].value)
            json_object_set_new(map, in->slots[i].key, json_string(in->slots[i].value));
    char *text = map ? json_dumps(map, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(map);
    return text;
}

//  The device nodes (NULL-terminated host paths) that exist, into devices
//  (room for all of them; paths borrowed from nodes). Returns the count.
static size_t
s_device_nodes(char *const *nodes, agent_bundle_device_t *devices)
{
    size_t count = 0;
    for (size_t i = 0; nodes[i]; i++) {
        bus_error_t step;
        int rc = agent_bundle_device(nodes[i], &devices[count], &step);
        if (rc == BUS_OK)
            count++;
        else if (rc == BUS_STATUS_NOT_FOUND)
            bus_log_info("accelerator device node absent path=%s", nodes[i]);
        else
            bus_log_warning("accelerator device node left out detail=\"%s\"",
                            step.detail);
    }
    return count;
}

//  Starts the kernel in *in. Returns BUS_OK with the kernel recorded, or an
//  error with everything undone.
static int
s_create(agent_kernels_t *self,
         const proto_kernel_create_req_t *in,
         s_kernel_t **kernel_p,
         bus_error_t *err)
{
    *kernel_p = NULL;
    //  When each step ended, for the "kernel started" line: where a create's
    //  milliseconds go (bench-session prints them).
    int64_t t_begin = bus_clock_mono_us(), t_prepared = 0, t_net = 0, t_runc = 0,
            t_runner = 0;
    const agent_image_t *image = agent_images_find(self->images, in->image);
    if (!image)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such image: %s", in->image);
    const char *runtime_path = s_label(image, "ai.backend.runtime-path");
    const char *runtime_type = s_label(image, "ai.backend.runtime-type");
    if (!runtime_type || !*runtime_type)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "image %s has no ai.backend.runtime-type label", in->image);
    s_cluster_t cluster;
    int rc = s_cluster(in, &cluster, err);
    if (rc != BUS_OK)
        return rc;
    //  Its folders are checked before anything of it is made.
    agent_mounts_t *mounts = NULL;
    rc = agent_mounts_parse(in->mounts, &mounts, err);
    if (rc == BUS_OK)
        rc = agent_mounts_check_hosts(mounts, err);
    if (rc != BUS_OK) {
        bus_log_warning("kernel create refused kernel=%s detail=\"%s\"", in->kernel_id,
                        err->detail);
        agent_mounts_destroy(&mounts);
        return rc;
    }
    s_kernel_t *kernel = s_kernel_new(in->kernel_id, in->session_id, image->info.digest);
    if (!kernel) {
        agent_mounts_destroy(&mounts);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    //  A cluster's kernels are named main1, sub1...; a lone kernel keeps its id.
    snprintf(kernel->hostname, sizeof kernel->hostname, "%s",
             cluster.size > 1 ? cluster.hostname : kernel->id);
    char rootfs[PATH_MAX];
    char netns[PATH_MAX] = "";
    char **env = NULL;
    char *socket = NULL;
    char *hosts = NULL;
    bool created = false;
    //  Its accelerators first: a create that cannot have them does nothing else.
    agent_accel_alloc_t alloc;
    char **accel_env = NULL, **nodes = NULL;
    char *accel_text = NULL, *slots_text = NULL;
    agent_bundle_device_t *devices = NULL;
    size_t device_count = 0;
    rc = agent_accel_allocate(self->accel, kernel->id, in->slots, in->slots_count, &alloc,
                              err);
    if (rc != BUS_OK)
        goto fail;
    accel_text = agent_accel_allocation_format(self->accel, &alloc);
    accel_env = agent_accel_environ(self->accel, &alloc);
    nodes = agent_accel_device_nodes(self->accel, &alloc);
    slots_text = s_slots_json(in);
    size_t node_count = 0;
    while (nodes && nodes[node_count])
        node_count++;
    devices = calloc(node_count + 1, sizeof *devices);
    if (!accel_text || !accel_env || !nodes || !slots_text || !devices) {
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        goto fail;
    }
    device_count = s_device_nodes(nodes, devices);
    rc = agent_unpack_rootfs(self->cache_dir, image->layout, image->tag,
                             image->info.digest, rootfs, err);
    if (rc == BUS_OK) {
        kernel->hold_fd = agent_unpack_hold(self->cache_dir, image->info.digest, err);
        if (kernel->hold_fd < 0 && err->status == BUS_STATUS_NOT_FOUND) {
            //  pruned in between: once more
            rc = agent_unpack_rootfs(self->cache_dir, image->layout, image->tag,
                                     image->info.digest, rootfs, err);
            if (rc == BUS_OK)
                kernel->hold_fd =
                    agent_unpack_hold(self->cache_dir, image->info.digest, err);
        }
        if (kernel->hold_fd < 0)
            rc = err->status;
    }
    if (rc != BUS_OK)
        goto fail;
    t_prepared = bus_clock_mono_us();
    if (s_net_ready(self, err) != 0) {
        rc = err->status;
        goto fail;
    }
    if (self->net) {
        rc = agent_net_attach(self->net, kernel->id, netns, kernel->ip, err);
        if (rc != BUS_OK)
            goto fail;
        kernel->net = true;
    } else if (strcmp(self->config->net_mode, "host") == 0)
        snprintf(kernel->ip, sizeof kernel->ip, "127.0.0.1");
    rc = s_hosts_create(self, kernel, err);
    if (rc != BUS_OK)
        goto fail;
    hosts = s_hosts_path(self, kernel->id);
    t_net = bus_clock_mono_us();

    env = s_environ(in, image, &cluster, accel_env);
    if (!env) {
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        goto fail;
    }
    const char *args[12];
    size_t argc = 0;
    args[argc++] = AGENT_KERNEL_TINI_PATH;
    args[argc++] = "-s";
    args[argc++] = "--";
    args[argc++] = AGENT_KERNEL_RUNNER_PATH;
    args[argc++] = "--socket";
    args[argc++] = AGENT_KERNEL_RUN_DIR "/runner.sock";
    if (runtime_path && *runtime_path) {
        args[argc++] = "--runtime";
        args[argc++] = runtime_path;
    }
    args[argc++] = "--type";
    args[argc++] = runtime_type;
    args[argc] = NULL;
    double mem = s_slot(in, "mem");
    agent_kernel_spec_t spec = {
        .kernel_id = kernel->id,
        .image_rootfs = rootfs,
        .args = args,
        .env = (const char *const *) env,
        .cpu_count = s_slot(in, "cpu"),
        .memory_bytes = mem >= 1 && mem < 9.2e18 ? (int64_t) mem : 0,
        .pids_max = self->config->pids_max,
        .shm_bytes = in->shmem_bytes < INT64_MAX ? (int64_t) in->shmem_bytes : 0,
        .runner_path = self->runner_path,
        .tini_path = self->config->tini_path,
        .netns_path = *netns ? netns : NULL,
        .host_network = strcmp(self->config->net_mode, "host") == 0,
        .hostname = kernel->hostname,
        .hosts_path = hosts,
        .devices = devices,
        .device_count = device_count,
        .mounts = mounts->items,
        .mount_count = mounts->count,
    };
    rc = agent_runc_create(self->runc, &spec, err);
    if (rc != BUS_OK)
        goto fail;
    created = true;
    t_runc = bus_clock_mono_us();
    kernel->pid = agent_runc_pid(self->runc, kernel->id);
    if (!s_wait_runner(self, kernel)) {
        size_t size = 0;
        uint8_t *log = s_log_tail(self, kernel->id, 200, &size);
        rc = bus_error_set(err, BUS_STATUS_INTERNAL,
                           "the kernel's runner did not start: %.*s", (int) size,
                           log ? (const char *) log : "");
        free(log);
        goto fail;
    }
    socket = s_socket_path(self, kernel->id);
    if (socket && in->bootstrap_script && *in->bootstrap_script)
        s_bootstrap(self, kernel, socket, in->bootstrap_script);
    kernel->runner = s_runner_new(self, kernel, socket, err);
    if (!kernel->runner) {
        rc = err->status;
        goto fail;
    }
    t_runner = bus_clock_mono_us();

    //  Recorded and announced together.
    proto_kernel_started_t event;
    proto_kernel_started_init(&event);
    event.kernel_id = kernel->id;
    event.session_id = kernel->session_id;
    event.agent_id = (char *) bus_node_name(self->node);
    event.container_id = kernel->id;
    event.kernel_host = kernel->ip;
    event.at = bus_clock_wall_us();
    bool done = false;
    if (bus_node_begin(self->node) == 0) {
        sqlite3_stmt *stmt = bus_db_stmt(
            bus_node_db(self->node),
            "INSERT OR REPLACE INTO kernels (id, session_id, image, digest, ip,"
            " session_type, created_at, slots, accel)"
            " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
        if (stmt) {
            sqlite3_bind_text(stmt, 1, kernel->id, -1, SQLITE_STATIC);
            sqlite3_bind_text(stmt, 2, kernel->session_id, -1, SQLITE_STATIC);
            sqlite3_bind_text(stmt, 3, in->image, -1, SQLITE_STATIC);
            sqlite3_bind_text(stmt, 4, kernel->digest, -1, SQLITE_STATIC);
            sqlite3_bind_text(stmt, 5, kernel->ip, -1, SQLITE_STATIC);
            sqlite3_bind_text(stmt, 6,
                              in->session_type ? in->session_type : "interactive", -1,
                              SQLITE_STATIC);
            sqlite3_bind_int64(stmt, 7, event.at);
            sqlite3_bind_text(stmt, 8, slots_text, -1, SQLITE_STATIC);
            sqlite3_bind_text(stmt, 9, accel_text, -1, SQLITE_STATIC);
            done = sqlite3_step(stmt) == SQLITE_DONE;
            sqlite3_reset(stmt);
        }
        done = done && agent_events_started(self->node, &event) == 0;
        if (done)
            done = bus_node_commit(self->node) == 0;
        else
            bus_node_rollback(self->node);
    }
    if (!done) {
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot record kernel %s",
                           kernel->id);
        goto fail;
    }
    zstr_free(&socket);
    zstr_free(&hosts);
    s_free_strv(env);
    zhashx_insert(self->kernels, kernel->id, kernel);
    zhashx_delete(self->ended, kernel->id);
    *kernel_p = kernel;
    s_runner_made(self, kernel);
    int64_t t_end = bus_clock_mono_us();
    bus_log_notice(
        "kernel started kernel=%s session=%s image=%s pid=%d ip=%s accel=\"%s\""
        " prepare_ms=%.1f net_ms=%.1f runc_ms=%.1f runner_ms=%.1f record_ms=%.1f",
        kernel->id, kernel->session_id, in->image, kernel->pid, kernel->ip, accel_text,
        (t_prepared - t_begin) / 1e3, (t_net - t_prepared) / 1e3, (t_runc - t_net) / 1e3,
        (t_runner - t_runc) / 1e3, (t_end - t_runner) / 1e3);
    free(accel_text);
    free(slots_text);
    free(devices);
    agent_mounts_destroy(&mounts);
    agent_accel_strv_destroy(&accel_env);
    agent_accel_strv_destroy(&nodes);
    if (in->session_type && strcmp(in->session_type, "batch") == 0 &&
        in->startup_command && *in->startup_command) {
        bus_error_t task_err;
        if (s_task_start(self, kernel, in->startup_command, &task_err) != BUS_OK) {
            //  Started and announced: its end says why.
            s_end(self, kernel, 0, "failed-to-start", task_err.detail, 1, false);
            *kernel_p = NULL;
            return bus_error_set(err, task_err.status, "%s", task_err.detail);
        }
    }
    return BUS_OK;

fail:
    bus_log_warning("kernel create failed kernel=%s detail=\"%s\"", kernel->id,
                    err->detail);
    zstr_free(&socket);
    zstr_free(&hosts);
    s_free_strv(env);
    free(accel_text);
    free(slots_text);
    free(devices);
    agent_mounts_destroy(&mounts);
    agent_accel_strv_destroy(&accel_env);
    agent_accel_strv_destroy(&nodes);
    agent_accel_release(self->accel, kernel->id);
    agent_runner_client_destroy(&kernel->runner);
    if (created)
        agent_runc_remove(self->runc, kernel->id, 0, NULL, NULL);
    if (kernel->net)
        agent_net_detach(self->net, kernel->id, NULL);
    s_hosts_remove(self, kernel->id);
    s_kernel_free(&kernel);
    return rc;
}

//  Refuses a request meant for another agent: its address (a port the
//  system gave) may have changed hands after that agent restarted, and a
//  kernel.create or kernel.list that reaches this one by mistake must not
//  start a kernel here or answer for the other's. UNAVAILABLE, and the
//  scheduler knows the detail's "changed hands": the agent meant was not
//  reached, which is no reason to cancel the session.
static int
s_check_addressee(agent_kernels_t *self, const char *agent_id, bus_error_t *err)
{
    const char *me = bus_node_name(self->node);
    if (agent_id && *agent_id && strcmp(agent_id, me) != 0)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                             "this is agent %s, not %s: its address changed hands", me,
                             agent_id);
    return BUS_OK;
}

static int
s_on_create(void *arg,
            bus_rpc_request_t *req,
            const void *body,
            size_t size,
            bus_writer_t *reply,
            bus_error_t *err)
{
    (void) req;
    agent_kernels_t *self = arg;
    proto_kernel_create_req_t in;
    int rc = proto_kernel_create_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    s_kernel_t *kernel = NULL;
    if (s_check_addressee(self, in.agent_id, err) != BUS_OK)
        rc = BUS_STATUS_UNAVAILABLE; //  meant for another agent
    else if (!agent_bundle_id_valid(in.kernel_id))
        rc = bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id");
    else if ((kernel = zhashx_lookup(self->kernels, in.kernel_id)))
        rc = BUS_OK; //  idempotent: what it has
    else if (zhashx_lookup(self->ended, in.kernel_id))
        //  A create sent again after the kernel ended (the scheduler's
        //  reconciliation, a retry): a batch task must not run twice.
        rc = bus_error_set(err, BUS_STATUS_CONFLICT, "kernel %s already ended",
                           in.kernel_id);
    else
        rc = s_create(self, &in, &kernel, err);
    if (rc == BUS_OK)
        rc = s_create_reply(kernel, reply, err);
    proto_kernel_create_req_clear(&in);
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.hosts

static int
s_on_hosts(void *arg,
           bus_rpc_request_t *req,
           const void *body,
           size_t size,
           bus_writer_t *reply,
           bus_error_t *err)
{
    (void) req;
    agent_kernels_t *self = arg;
    proto_kernel_hosts_req_t in;
    int rc = proto_kernel_hosts_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    s_kernel_t *kernel = zhashx_lookup(self->kernels, in.kernel_id);
    char *text = NULL;
    if (!kernel || kernel->ending)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel %.64s",
                           in.kernel_id);
    else if ((rc = s_hosts_text(kernel, in.hosts, &text, err)) == BUS_OK &&
             (rc = s_hosts_rewrite(self, kernel->id, text, err)) == BUS_OK)
        bus_log_info("kernel hosts written kernel=%s", kernel->id);
    free(text);
    proto_kernel_hosts_rep_t out;
    proto_kernel_hosts_rep_init(&out);
    if (rc == BUS_OK && proto_kernel_hosts_rep_write(&out, reply) != 0)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot encode the reply");
    proto_kernel_hosts_rep_clear(&out);
    proto_kernel_hosts_req_clear(&in);
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.destroy

static int
s_on_destroy(void *arg,
             bus_rpc_request_t *req,
             const void *body,
             size_t size,
             bus_writer_t *reply,
             bus_error_t *err)
{
    (void) req;
    agent_kernels_t *self = arg;
    proto_kernel_destroy_req_t in;
    int rc = proto_kernel_destroy_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    proto_kernel_destroy_rep_t out;
    proto_kernel_destroy_rep_init(&out);
    s_kernel_t *kernel = zhashx_lookup(self->kernels, in.kernel_id);
    const char *ended = kernel ? NULL : zhashx_lookup(self->ended, in.kernel_id);
    if (!agent_bundle_id_valid(in.kernel_id))
        rc = bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id");
    else if (kernel) {
        int grace = in.grace_ms > 600000 ? 600000 : (int) in.grace_ms;
        out.exit_code =
            s_end(self, kernel, grace, in.reason ? in.reason : "user-requested", NULL,
                  AGENT_RUNC_EXIT_UNKNOWN, false);
    } else if (ended)
        out.exit_code = atoi(ended); //  already destroyed: the same answer
    else
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel");
    if (rc == BUS_OK && proto_kernel_destroy_rep_write(&out, reply) != 0)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot encode the reply");
    proto_kernel_destroy_req_clear(&in);
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.restart

//  Stops the kernel's container and runs it again from the same bundle: the
//  overlay (its files), network namespace, image hold and row stay; the
//  runner, its interpreter and every process go. No durable event when it
//  works. When it cannot run again the kernel ends (failed-to-start, with
//  kernel.terminated) and the error is returned.
static int
s_restart(agent_kernels_t *self,
          s_kernel_t *kernel,
          int grace_ms,
          const char *startup_command,
          bus_error_t *err)
{
    //  The reap timer must not see this stop as the kernel's end: the stop
    //  reaps the exit itself, and the loop is ours until the kernel runs.
    kernel->restarting = true;
    s_runner_drop(self, kernel); //  waiters: UNAVAILABLE
    free(kernel->run_id);
    kernel->run_id = NULL;
    bus_error_t step = {0};
    int exit_code = AGENT_RUNC_EXIT_UNKNOWN;
    int rc = agent_runc_stop(self->runc, kernel->id, grace_ms, &exit_code, &step);
    char *socket = s_socket_path(self, kernel->id);
    if (rc == BUS_OK) {
        //  The old runner's socket would pass for the new one's.
        if (socket)
            unlink(socket);
        rc = agent_runc_start(self->runc, kernel->id, &step);
    }
    if (rc == BUS_OK) {
        kernel->pid = agent_runc_pid(self->runc, kernel->id);
        kernel->adopted = false; //  our child now
        if (!s_wait_runner(self, kernel)) {
            size_t size = 0;
            uint8_t *log = s_log_tail(self, kernel->id, 200, &size);
            rc = bus_error_set(&step, BUS_STATUS_INTERNAL,
                               "the kernel's runner did not start: %.*s", (int) size,
                               log ? (const char *) log : "");
            free(log);
        }
    }
    if (rc == BUS_OK) {
        kernel->runner = s_runner_new(self, kernel, socket, &step);
        if (!kernel->runner)
            rc = step.status;
    }
    zstr_free(&socket);
    kernel->restarting = false;
    if (rc == BUS_OK)
        s_runner_made(self, kernel);
    if (rc != BUS_OK) {
        bus_log_warning("kernel restart failed kernel=%s detail=\"%s\"", kernel->id,
                        step.detail);
        char detail[sizeof step.detail + 32];
        snprintf(detail, sizeof detail, "restart failed: %s", step.detail);
        bus_error_set(err, rc, "%s", detail);
        s_end(self, kernel, 0, "failed-to-start", detail, AGENT_RUNC_EXIT_UNKNOWN, false);
        return rc;
    }
    bus_log_notice("kernel restarted kernel=%s pid=%d exit_code=%d", kernel->id,
                   kernel->pid, exit_code);
    if (startup_command && *startup_command) {
        bus_error_t task_err;
        if (s_task_start(self, kernel, startup_command, &task_err) != BUS_OK) {
            s_end(self, kernel, 0, "failed-to-start", task_err.detail, 1, false);
            return bus_error_set(err, task_err.status, "%s", task_err.detail);
        }
    }
    return BUS_OK;
}

static int
s_on_restart(void *arg,
             bus_rpc_request_t *req,
             const void *body,
             size_t size,
             bus_writer_t *reply,
             bus_error_t *err)
{
    (void) req;
    agent_kernels_t *self = arg;
    proto_kernel_restart_req_t in;
    int rc = proto_kernel_restart_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    s_kernel_t *kernel = zhashx_lookup(self->kernels, in.kernel_id);
    if (!agent_bundle_id_valid(in.kernel_id))
        rc = bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id");
    else if (!kernel && zhashx_lookup(self->ended, in.kernel_id))
        rc = bus_error_set(err, BUS_STATUS_CONFLICT, "kernel %s already ended",
                           in.kernel_id);
    else if (!kernel)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel");
    else if (kernel->ending || kernel->restarting)
        rc = bus_error_set(err, BUS_STATUS_CONFLICT, "kernel %s is ending", in.kernel_id);
    else {
        int grace = in.grace_ms > 600000 ? 600000 : (int) in.grace_ms;
        rc = s_restart(self, kernel, grace, in.startup_command, err);
    }
    proto_kernel_restart_rep_t out;
    proto_kernel_restart_rep_init(&out);
    if (rc == BUS_OK && proto_kernel_restart_rep_write(&out, reply) != 0)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot encode the reply");
    proto_kernel_restart_rep_clear(&out);
    proto_kernel_restart_req_clear(&in);
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.execute

static void
s_exec_answer(s_exec_t *exec, int status, const char *detail, const char *result)
{
    agent_kernels_t *self = exec->self;
    if (status == BUS_OK) {
        proto_kernel_execute_rep_t out;
        proto_kernel_execute_rep_init(&out);
        out.result = (char *) result;
        bus_writer_t *writer = bus_writer_new();
        if (writer && proto_kernel_execute_rep_write(&out, writer) == 0)
            bus_node_reply(self->node, &exec->req, BUS_OK, NULL, bus_writer_data(writer),
                           bus_writer_size(writer));
        else
            bus_node_reply(self->node, &exec->req, BUS_STATUS_INTERNAL,
                           "cannot encode the result", NULL, 0);
        bus_writer_destroy(&writer);
    } else
        bus_node_reply(self->node, &exec->req, status, detail, NULL, 0);
    free(exec);
}

static void
s_on_collect(json_t *result, const bus_error_t *err, void *arg)
{
    s_exec_t *exec = arg;
    if (!result) {
        s_exec_answer(exec, err->status, err->detail, NULL);
        return;
    }
    char *text = json_dumps(result, JSON_COMPACT);
    if (text)
        s_exec_answer(exec, BUS_OK, NULL, text);
    else
        s_exec_answer(exec, BUS_STATUS_INTERNAL, "cannot encode the result", NULL);
    free(text);
}

static int
s_on_execute(void *arg,
             bus_rpc_request_t *req,
             const void *body,
             size_t size,
             bus_writer_t *reply,
             bus_error_t *err)
{
    agent_kernels_t *self = arg;
    proto_kernel_execute_req_t in;
    int rc = proto_kernel_execute_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    s_kernel_t *kernel = zhashx_lookup(self->kernels, in.kernel_id);
    const char *mode = in.mode;
    const char *code = in.code ? in.code : "";
    bool collect = true;
    if (!kernel || !kernel->runner)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel");
    else if (strcmp(mode, "query") == 0)
        rc = agent_runner_client_exec(kernel->runner, in.run_id, code, strlen(code),
                                      err) == 0
                 ? BUS_OK
                 : err->status;
    else if (strcmp(mode, "batch") == 0) {
        json_t *options =
            in.options && *in.options ? json_loads(in.options, 0, NULL) : json_object();
        if (!json_is_object(options))
            rc = bus_error_set(err, BUS_STATUS_INVALID, "options are not a JSON object");
        else
            rc = agent_runner_client_batch(
                     kernel->runner, in.run_id,
                     json_string_value(json_object_get(options, "clean")),
                     json_string_value(json_object_get(options, "build")),
                     json_string_value(json_object_get(options, "exec")), err) == 0
                     ? BUS_OK
                     : err->status;
        json_decref(options);
    } else if (strcmp(mode, "input") == 0)
        rc = agent_runner_client_input(kernel->runner, in.run_id, code, err) == 0
                 ? BUS_OK
                 : err->status;
    else if (strcmp(mode, "continue") == 0)
        rc = BUS_OK;
    else if (strcmp(mode, "complete") == 0) {
        collect = false;
        json_t *result =
            json_pack("{s:s, s:s, s:n, s:[], s:{}, s:[]}", "runId", in.run_id, "status",
                      "finished", "exitCode", "console", "options", "completions");
        char *text = result ? json_dumps(result, JSON_COMPACT) : NULL;
        proto_kernel_execute_rep_t out;
        proto_kernel_execute_rep_init(&out);
        out.result = text;
        rc = text && proto_kernel_execute_rep_write(&out, reply) == 0
                 ? BUS_OK
                 : bus_error_set(err, BUS_STATUS_INTERNAL, "cannot encode the result");
        free(text);
        json_decref(result);
    } else
        rc = bus_error_set(err, BUS_STATUS_INVALID, "unknown mode %s", mode);
    if (rc == BUS_OK && kernel &&
        (strcmp(mode, "query") == 0 || strcmp(mode, "batch") == 0)) {
        free(kernel->run_id);
        kernel->run_id = strdup(in.run_id);
    }
    if (rc == BUS_OK && collect) {
        //  The answer comes when the run finishes, waits for input, or wait_ms
        //  passes, but before the caller gives up.
        int wait_ms = in.wait_ms > 600000 ? 600000 : (int) in.wait_ms;
        int left = bus_rpc_request_remaining_ms(req) - 250;
        if (left < wait_ms)
            wait_ms = left > 0 ? left : 0;
        s_exec_t *exec = calloc(1, sizeof *exec);
        if (!exec)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        else {
            exec->self = self;
            exec->req = bus_rpc_request_detach(req);
            agent_runner_client_collect(kernel->runner, in.run_id, wait_ms, s_on_collect,
                                        exec);
            rc = BUS_STATUS_PENDING_;
        }
    }
    proto_kernel_execute_req_clear(&in);
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.interrupt, kernel.logs, kernel.list

static int
s_on_interrupt(void *arg,
               bus_rpc_request_t *req,
               const void *body,
               size_t size,
               bus_writer_t *reply,
               bus_error_t *err)
{
    (void) req;
    (void) reply;
    agent_kernels_t *self = arg;
    proto_kernel_interrupt_req_t in;
    int rc = proto_kernel_interrupt_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    s_kernel_t *kernel = zhashx_lookup(self->kernels, in.kernel_id);
    bool wanted = kernel && kernel->run_id &&
                  (!in.run_id || !*in.run_id || strcmp(in.run_id, kernel->run_id) == 0);
    if (!kernel || !kernel->runner)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel");
    else if (wanted) {
        bus_error_t step;
        //  Nothing going (or another run than the one named) is fine: there
        //  is nothing to interrupt.
        int sent =
            in.force
                ? agent_runner_client_kill(kernel->runner, kernel->run_id, &step)
                : agent_runner_client_interrupt(kernel->runner, kernel->run_id, &step);
        if (sent != 0 && step.status != BUS_STATUS_NOT_FOUND)
            rc = bus_error_set(err, step.status, "%s", step.detail);
        else if (sent == 0 && in.force)
            bus_log_notice("run killed kernel=%s run=%s", kernel->id, kernel->run_id);
    }
    proto_kernel_interrupt_req_clear(&in);
    return rc;
}

static int
s_on_logs(void *arg,
          bus_rpc_request_t *req,
          const void *body,
          size_t size,
          bus_writer_t *reply,
          bus_error_t *err)
{
    (void) req;
    agent_kernels_t *self = arg;
    proto_kernel_logs_req_t in;
    int rc = proto_kernel_logs_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    if (!zhashx_lookup(self->kernels, in.kernel_id))
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel");
    else {
        size_t max = in.max_bytes > 16777216 ? 16777216 : (size_t) in.max_bytes;
        proto_kernel_logs_rep_t out;
        proto_kernel_logs_rep_init(&out);
        out.logs = s_log_tail(self, in.kernel_id, max, &out.logs_size);
        if (proto_kernel_logs_rep_write(&out, reply) != 0)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot encode the reply");
        proto_kernel_logs_rep_clear(&out);
    }
    proto_kernel_logs_req_clear(&in);
    return rc;
}

static int
s_on_list(void *arg,
          bus_rpc_request_t *req,
          const void *body,
          size_t size,
          bus_writer_t *reply,
          bus_error_t *err)
{
    (void) req;
    agent_kernels_t *self = arg;
    proto_kernel_list_req_t in;
    int rc = proto_kernel_list_req_decode(&in, body, size, err);
    if (rc == BUS_OK)
        rc = s_check_addressee(self, in.agent_id, err);
    if (rc != BUS_OK) {
        proto_kernel_list_req_clear(&in);
        return rc;
    }
    proto_kernel_list_rep_t out;
    proto_kernel_list_rep_init(&out);
    size_t count = zhashx_size(self->kernels);
    out.kernels = count ? calloc(count, sizeof *out.kernels) : NULL;
    for (s_kernel_t *kernel = zhashx_first(self->kernels); kernel && out.kernels;
         kernel = zhashx_next(self->kernels)) {
        proto_kernel_state_t *state = &out.kernels[out.kernels_count++];
        proto_kernel_state_init(state);
        state->kernel_id = kernel->id;
        state->session_id = kernel->session_id;
        state->status = "running";
    }
    if (proto_kernel_list_rep_write(&out, reply) != 0)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot encode the reply");
    free(out.kernels); //  the strings are the kernels'
    proto_kernel_list_req_clear(&in);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Timers: exits and stats

static void
s_on_exit(const char *kernel_id, int pid, int exit_code, bool oom_killed, void *arg)
{
    (void) pid;
    agent_kernels_t *self = arg;
    if (!kernel_id)
        return; //  an orphan re-parented to us
    s_exit_t *exit = calloc(1, sizeof *exit);
    if (exit && (exit->id = strdup(kernel_id))) {
        exit->exit_code = exit_code;
        exit->oom_killed = oom_killed;
        zlistx_add_end(self->exits, exit);
    } else
        free(exit);
}

static void
s_reap(agent_kernels_t *self)
{
    agent_runc_reap(self->runc, s_on_exit, self);
    //  Adopted kernels are not our children: their end is only seen in /proc.
    for (s_kernel_t *kernel = zhashx_first(self->kernels); kernel;
         kernel = zhashx_next(self->kernels))
        if (kernel->adopted && !kernel->restarting && !s_pid_alive(kernel->pid))
            s_on_exit(kernel->id, kernel->pid, AGENT_RUNC_EXIT_UNKNOWN, false, self);
    s_exit_t *exit;
    while ((exit = zlistx_detach(self->exits, NULL))) {
        s_kernel_t *kernel = zhashx_lookup(self->kernels, exit->id);
        if (kernel && !kernel->restarting)
            s_end(self, kernel, 0, exit->oom_killed ? "oom-killed" : "self-terminated",
                  NULL, exit->exit_code, exit->oom_killed);
        s_exit_destructor((void **) &exit);
    }
}

static void
s_on_reap_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    s_reap(arg);
}

static void
s_on_stats_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    agent_kernels_t *self = arg;
    bus_writer_t *writer = bus_writer_new();
    for (s_kernel_t *kernel = zhashx_first(self->kernels); kernel && writer;
         kernel = zhashx_next(self->kernels)) {
        agent_stats_t stats;
        if (agent_stats_read(kernel->id, &stats) != BUS_OK)
            continue;
        proto_kernel_stats_t event;
        proto_kernel_stats_init(&event);
        event.kernel_id = kernel->id;
        event.agent_id = (char *) bus_node_name(self->node);
        event.cpu_used_ns = stats.cpu_used_ns;
        event.mem_bytes = stats.memory_bytes;
        event.mem_peak_bytes = stats.memory_max_bytes;
        event.mem_limit_bytes = stats.memory_limit_bytes;
        event.pids = stats.pids;
        bus_writer_reset(writer);
        if (proto_kernel_stats_write(&event, writer) == 0)
            bus_node_publish(self->node, PROTO_KERNEL_STATS, bus_writer_data(writer),
                             bus_writer_size(writer));
    }
    bus_writer_destroy(&writer);
}

//  ---------------------------------------------------------------------------
//  Restart: adopt what runs, report what died

//  Removes what <state_dir>/<leaf>/<id> (leaf "kernels": the kernel's
//  directory, "net": its network allocation) holds for kernels that have
//  no row in rows (the table's ids).
static void
s_sweep_unrecorded(agent_kernels_t *self, zhashx_t *rows, const char *leaf)
{
    char *path = zsys_sprintf("%s/%s", self->config->node.state_dir, leaf);
    DIR *dir = path ? opendir(path) : NULL;
    zlistx_t *ids = zlistx_new(); //  collected first: removal changes the directory
    struct dirent *entry;
    while (dir && ids && (entry = readdir(dir)))
        if (agent_bundle_id_valid(entry->d_name) && !zhashx_lookup(rows, entry->d_name))
            zlistx_add_end(ids, strdup(entry->d_name));
    if (dir)
        closedir(dir);
    char *id;
    while (ids && (id = zlistx_detach(ids, NULL))) {
        bus_error_t err = {0};
        int rc = strcmp(leaf, "net") == 0
                     ? agent_net_detach(self->net, id, &err)
                     : agent_runc_remove(self->runc, id, 0, NULL, &err);
        if (rc == BUS_OK)
            bus_log_warning("crash leftovers removed kernel=%s in=%s", id, leaf);
        else if (rc != BUS_STATUS_NOT_FOUND)
            bus_log_error("crash leftovers not removed kernel=%s in=%s detail=\"%s\"", id,
                          leaf, err.detail);
        free(id);
    }
    zlistx_destroy(&ids);
    zstr_free(&path);
}

static void
s_recover(agent_kernels_t *self)
{
    agent_runc_state_t *states = NULL;
    size_t count = 0;
    bus_error_t err;
    if (agent_runc_list(self->runc, &states, &count, &err) != BUS_OK)
        bus_log_error("cannot list kernels detail=\"%s\"", err.detail);
    //  Kernels left from before need the network for their clean-up.
    sqlite3_stmt *any = bus_db_stmt(bus_node_db(self->node), "SELECT 1 FROM kernels");
    bool rows_exist = any && sqlite3_step(any) == SQLITE_ROW;
    if (any)
        sqlite3_reset(any);
    char *net_dir = zsys_sprintf("%s/net", self->config->node.state_dir);
    if (count > 0 || rows_exist || (net_dir && access(net_dir, F_OK) == 0))
        s_net_ready(self, NULL);
    zstr_free(&net_dir);
    zhashx_t *rows = zhashx_new(); //  ids of the table
    sqlite3_stmt *stmt = bus_db_stmt(
        bus_node_db(self->node), "SELECT id, session_id, digest, ip, accel FROM kernels");
    zlistx_t *lost = zlistx_new();
    zlistx_set_destructor(lost, s_kernel_destructor);
    while (stmt && rows && lost && sqlite3_step(stmt) == SQLITE_ROW) {
        const char *id = (const char *) sqlite3_column_text(stmt, 0);
        s_kernel_t *kernel = s_kernel_new(id, (const char *) sqlite3_column_text(stmt, 1),
                                          (const char *) sqlite3_column_text(stmt, 2));
        if (!kernel)
            continue;
        snprintf(kernel->ip, sizeof kernel->ip, "%s", sqlite3_column_text(stmt, 3));
        kernel->net = self->net != NULL;
        zhashx_insert(rows, id, "");
        const agent_runc_state_t *state = NULL;
        for (size_t i = 0; i < count; i++)
            if (strcmp(states[i].id, id) == 0)
                state = &states[i];
        bool running = state && state->pid > 0 && strcmp(state->status, "running") == 0 &&
                       s_pid_alive(state->pid) &&
                       agent_runc_adopt(self->runc, id, state->pid, &err) == BUS_OK;
        if (running) {
            kernel->pid = state->pid;
            kernel->adopted = true;
            kernel->hold_fd = agent_unpack_hold(self->cache_dir, kernel->digest, &err);
            char *socket = s_socket_path(self, id);
            kernel->runner = s_runner_new(self, kernel, socket, &err);
            zstr_free(&socket);
            zhashx_insert(self->kernels, kernel->id, kernel);
            bus_log_notice("kernel adopted kernel=%s pid=%d", id, kernel->pid);
            //  Its devices again, so that no new kernel is given them. When
            //  they no longer fit (the accelerators' configuration changed)
            //  it keeps running, unaccounted, and the log says so.
            const char *accel = (const char *) sqlite3_column_text(stmt, 4);
            if (accel && *accel &&
                agent_accel_restore(self->accel, id, accel, &err) != BUS_OK)
                bus_log_error("kernel accelerators not restored kernel=%s accel=\"%s\""
                              " detail=\"%s\"",
                              id, accel, err.detail);
        } else
            zlistx_add_end(lost, kernel);
    }
    if (stmt)
        sqlite3_reset(stmt);
    //  The dead ones: cleaned and reported (the statement is reset first).
    s_kernel_t *kernel;
    while (lost && (kernel = zlistx_detach(lost, NULL))) {
        zhashx_insert(self->kernels, kernel->id, kernel);
        s_end(self, kernel, 0, "lost-on-restart", "the agent restarted and it was gone",
              AGENT_RUNC_EXIT_UNKNOWN, false);
    }
    //  Containers of ours nobody recorded (a crash inside create): removed.
    for (size_t i = 0; rows && i < count; i++)
        if (!zhashx_lookup(rows, states[i].id)) {
            bus_log_warning("removing unrecorded kernel=%s", states[i].id);
            agent_runc_remove(self->runc, states[i].id, 0, NULL, NULL);
            if (self->net)
                agent_net_detach(self->net, states[i].id, NULL);
        }
    //  A crash inside create before runc knew the container leaves no
    //  container to list, but its directory (overlay mounts) or its network
    //  (allocation file, namespace, veth): removed too, or they would stay
    //  for ever and the create the scheduler sends again would be refused
    //  ("already has a network").
    if (rows) {
        s_sweep_unrecorded(self, rows, "kernels");
        if (self->net)
            s_sweep_unrecorded(self, rows, "net");
    }
    zlistx_destroy(&lost);
    zhashx_destroy(&rows);
    free(states);
    //  Hosts files of kernels that are gone (a crash inside create or end).
    char *hosts_dir = zsys_sprintf("%s/" S_HOSTS_DIR, self->config->node.state_dir);
    DIR *dir = hosts_dir ? opendir(hosts_dir) : NULL;
    struct dirent *entry;
    while (dir && (entry = readdir(dir)))
        if (*entry->d_name != '.' && !zhashx_lookup(self->kernels, entry->d_name))
            s_hosts_remove(self, entry->d_name);
    if (dir)
        closedir(dir);
    zstr_free(&hosts_dir);
}

//  ---------------------------------------------------------------------------
//  Create the manager.

//  The runner next to the agent's own binary, or the configured one.
static char *
s_runner_path(const agent_config_t *config)
{
    if (config->runner_path && *config->runner_path) {
        //  Absolute: runc resolves a relative source inside the bundle.
        char real[PATH_MAX];
        return strdup(realpath(config->runner_path, real) ? real : config->runner_path);
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return strdup("/usr/local/bin/backplane-runner");
    exe[n] = '\0';
    return zsys_sprintf("%s/backplane-runner", dirname(exe));
}

agent_kernels_t *
agent_kernels_new(bus_node_t *node,
                  const agent_config_t *config,
                  agent_images_t *images,
                  agent_accel_t *accel,
                  bus_error_t *err)
{
    assert(node);
    assert(config);
    assert(images);
    assert(accel);
    agent_kernels_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    self->config = config;
    self->images = images;
    self->accel = accel;
    const char *state_dir = config->node.state_dir;
    self->cache_dir = zsys_sprintf("%s/rootfs", state_dir);
    self->runner_path = s_runner_path(config);
    self->kernels = zhashx_new();
    self->ended = zhashx_new();
    self->exits = zlistx_new();
    if (!self->cache_dir || !self->runner_path || !self->kernels || !self->ended ||
        !self->exits) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        goto fail;
    }
    zhashx_set_destructor(self->kernels, s_kernel_destructor);
    zhashx_set_destructor(self->ended, (zhashx_destructor_fn *) zstr_free);
    zlistx_set_destructor(self->exits, s_exit_destructor);
    if (access(self->runner_path, X_OK) != 0)
        bus_log_warning("no kernel runner at %s (agent.runner_path)", self->runner_path);
    //  Every kernel's writable layer: a tmpfs of scratch_size, or host dirs.
    if (agent_overlay_set_scratch(config->scratch_type, config->scratch_size) != 0) {
        bus_error_set(err, BUS_STATUS_INVALID,
                      "agent.scratch_type %s is not memory or hostdir",
                      config->scratch_type);
        goto fail;
    }
    self->runc = agent_runc_new(config->runc, state_dir);
    if (!self->runc) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot set up runc state in %s",
                      state_dir);
        goto fail;
    }
    s_recover(self);
    struct timeval reap = {0, AGENT_KERNELS_REAP_MS * 1000};
    self->reap_timer =
        event_new(bus_node_base(node), -1, EV_PERSIST, s_on_reap_timer, self);
    if (!self->reap_timer || event_add(self->reap_timer, &reap) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot start the reap timer");
        goto fail;
    }
    if (config->stats_ms > 0) {
        struct timeval tv = {config->stats_ms / 1000, (config->stats_ms % 1000) * 1000};
        self->stats_timer =
            event_new(bus_node_base(node), -1, EV_PERSIST, s_on_stats_timer, self);
        if (!self->stats_timer || event_add(self->stats_timer, &tv) != 0) {
            bus_error_set(err, BUS_STATUS_INTERNAL, "cannot start the stats timer");
            goto fail;
        }
    }
    if (bus_node_handle(node, PROTO_KERNEL_CREATE, s_on_create, self) != 0 ||
        bus_node_handle(node, PROTO_KERNEL_DESTROY, s_on_destroy, self) != 0 ||
        bus_node_handle(node, PROTO_KERNEL_HOSTS, s_on_hosts, self) != 0 ||
        bus_node_handle(node, PROTO_KERNEL_RESTART, s_on_restart, self) != 0 ||
        bus_node_handle(node, PROTO_KERNEL_EXECUTE, s_on_execute, self) != 0 ||
        bus_node_handle(node, PROTO_KERNEL_INTERRUPT, s_on_interrupt, self) != 0 ||
        bus_node_handle(node, PROTO_KERNEL_LOGS, s_on_logs, self) != 0 ||
        bus_node_handle(node, PROTO_KERNEL_LIST, s_on_list, self) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot serve the kernel methods");
        goto fail;
    }
    bus_log_notice("kernels ready count=%zu network=%s runner=%s",
                   zhashx_size(self->kernels), config->net_mode, self->runner_path);
    return self;
fail:
    agent_kernels_destroy(&self);
    return NULL;
}

//  ---------------------------------------------------------------------------
//  Free the manager; kernels keep running.

void
agent_kernels_destroy(agent_kernels_t **self_p)
{
    assert(self_p);
    agent_kernels_t *self = *self_p;
    if (!self)
        return;
    *self_p = NULL;
    if (self->reap_timer)
        event_free(self->reap_timer);
    if (self->stats_timer)
        event_free(self->stats_timer);
    //  The hook hears of every client going, as the kernels are freed below.
    for (s_kernel_t *kernel = self->kernels ? zhashx_first(self->kernels) : NULL;
         kernel && self->runner_hook; kernel = zhashx_next(self->kernels))
        if (kernel->runner)
            self->runner_hook(kernel->id, NULL, self->runner_hook_arg);
    //  With no kernel left, nothing needs the bridge or the NAT table: a
    //  stopped agent leaves no rule behind (the next start makes both anew).
    //  Kernels that outlive the agent keep both until it re-adopts them.
    if (self->net && self->kernels && zhashx_size(self->kernels) == 0) {
        bus_error_t err = {0};
        if (agent_net_teardown(self->net, &err) != BUS_OK)
            bus_log_warning("cannot remove the kernel network error=\"%s\"", err.detail);
    }
    zhashx_destroy(&self->kernels); //  runner clients answer their waiters
    zhashx_destroy(&self->ended);
    zlistx_destroy(&self->exits);
    agent_net_destroy(&self->net);
    agent_runc_destroy(&self->runc);
    zstr_free(&self->cache_dir);
    free(self->runner_path);
    free(self);
}

//  ---------------------------------------------------------------------------
//  How many kernels.

size_t
agent_kernels_count(agent_kernels_t *self)
{
    assert(self);
    return zhashx_size(self->kernels);
}

//  ---------------------------------------------------------------------------
//  The host path of a running kernel's home.

int
agent_kernels_home(agent_kernels_t *self,
                   const char *kernel_id,
                   char *path,
                   size_t size,
                   bus_error_t *err)
{
    assert(self);
    assert(kernel_id);
    assert(path);
    s_kernel_t *kernel = zhashx_lookup(self->kernels, kernel_id);
    if (!kernel || kernel->ending || !kernel->runner)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel");
    char *rootfs = agent_runc_kernel_path(self->runc, kernel->id, "bundle/rootfs");
    if (!rootfs)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    int n = snprintf(path, size, "%s%s", rootfs, AGENT_KERNEL_HOME);
    zstr_free(&rootfs);
    if (n < 0 || (size_t) n >= size)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "kernel home path too long");
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  The runner client of a running kernel.

agent_runner_client_t *
agent_kernels_runner(agent_kernels_t *self, const char *kernel_id)
{
    assert(self);
    assert(kernel_id);
    s_kernel_t *kernel = zhashx_lookup(self->kernels, kernel_id);
    return kernel && !kernel->ending && !kernel->restarting ? kernel->runner : NULL;
}

//  ---------------------------------------------------------------------------
//  Set the runner hook.

void
agent_kernels_set_runner_hook(agent_kernels_t *self,
                              agent_kernels_runner_fn *fn,
                              void *arg)
{
    assert(self);
    self->runner_hook = fn;
    self->runner_hook_arg = arg;
}
