/*  =========================================================================
    bench_session - create-to-RUNNING latency of a session through the HTTP
    API, against bare `runc run -d` of the same image in the same run

    Starts the real platform as the integration tests do (test/integration
    harness: scheduler, accounting and gateway on loopback, then an agent
    that runs real runc containers on a bridge and subnet of its own, so
    that tests running on the same host do not collide with it), with state
    in a /tmp/backplane-bench-s-* directory removed at the end.

    The session side is what a client sees: POST /session for the busybox
    image with 1 cpu and 256m, signed as the superadmin; the gateway answers
    201 once the session is RUNNING, so the request's wall time is the
    create-to-RUNNING latency. A reply that is not 201 with status RUNNING
    is a failure, counted and shown. Each session is then deleted, and the
    bench waits until it reads TERMINATED (that time is shown too) so that
    its teardown never overlaps the next measurement. The superadmin's rate
    limit is raised first (modify_keypair), or those polls would exhaust it.

    The floor is `runc run -d` on a rootfs unpacked once with umoci, with
    the limits the agent gives a kernel of that size (cpu quota, memory
    without swap, pids), the same user, mounts and namespaces, but a fresh
    network namespace from runc (loopback only) and no overlay: time from
    fork to the exit of `runc run -d` (the container is started), then
    `runc delete -f` outside the timed part.

    Both run one at a time, in alternating blocks of BENCH_BLOCK, after one
    untimed warm-up of each (the agent's first kernel unpacks the image).
    Afterwards what the deleted sessions left on the host is counted (the
    agent's kernel dirs, hosts files, net allocations, runc containers and
    mounts under the state dir: all 0, or the bench fails), and each
    service's VmRSS (from /proc/<pid>/status) is printed
    with the number of sessions its databases now record; the last line is
        session: p50_ms=X p99_ms=Y runc_p50_ms=Z ratio=R
    with ratio = p50 / runc p50. Before it, the timeline of a create: the
    p50 of when each hop happened after the POST (session_scheduled,
    kernel.started, session_started, as the bus tells them to a subscriber
    the bench is, and the 201), and the p50 of each step inside the agent
    (from its "kernel started" lines); and the same for each quarter of the
    run, with its own runc p50 and ratio, so that what grows with the number
    of sessions made shows as a drift from the first quarter to the last.
    Usage: bench_session [COUNT]   (default $BENCH_SESSIONS, else 200)
    The binaries come from $BACKPLANE_BINDIR (else build/bin); the image from
    build/images/busybox (else deploy/images/build). BENCH_KEEP=1 keeps the
    state directory with the services' logs. Ctrl-C stops early and cleans up.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
//  Processes and containers: not libbus's business, so bus_classes.h does
//  not carry these.
#include <dirent.h>       //  the cgroup hierarchies, the agent's leftovers
#include <fcntl.h>        //  open for the runtime's log and stdin
#include <sys/mount.h>    //  umount2 of an overlay an interrupted agent left
#include <sys/prctl.h>    //  PR_SET_CHILD_SUBREAPER: containers' init reparent to us
#include <sys/wait.h>     //  waitpid
#include <sys/resource.h> //  getrlimit: clamp NOFILE as the agent does

#include "integration/gateway_client.h"

#define BENCH_DEFAULT_COUNT 200
#define BENCH_BLOCK         10 //  sessions, then as many runc containers, and again
#define BENCH_IMAGE         "local.backplane/library/busybox:latest"
#define BENCH_CPU           1             //  cpus per session and container
#define BENCH_MEM           "256m"        //  memory per session
#define BENCH_MEM_BYTES     (256LL << 20) //  the same, for config.json
//  agent.pids_max's default: the agent gives every kernel this limit.
#define BENCH_PIDS_MAX      4096
#define BENCH_NOFILE        65536 //  AGENT_BUNDLE_NOFILE
#define BENCH_CPU_PERIOD_US 100000
#define BENCH_TERMINATE_MS  30000 //  DELETE until the session reads TERMINATED
#define BENCH_POLL_MS       20
#define BENCH_RSS_LIMIT_KIB (20 * 1024)
#define BENCH_RATE_LIMIT    1000000 //  GW_RATELIMIT_MAX_LIMIT
//  Short names: a kernel's runner socket, <dir>/<agent>/kernels/<uuid>/run/
//  runner.sock, must fit a unix socket address (108 bytes).
//  Names no integration test uses: the agent's bridge is bpb<pid>, its
//  subnet 10.214.0.0/22 (the tests use 10.217-10.219 and 10.251; the
//  default is 10.213), the floor's cgroups live under their own parent.
#define BENCH_AGENT         "bench-a"
#define BENCH_CIDR          "10.214.0.0/22"
#define BENCH_CGROUP_PARENT "backplane-bench"
#define BENCH_CGROUP_ROOT   "/sys/fs/cgroup"
#define BENCH_TINI          "/usr/bin/tini-static"
#define BENCH_NETNS_PREFIX  "bp-" //  AGENT_NET_NETNS_PREFIX

static volatile sig_atomic_t s_interrupted = 0;

static void
s_on_signal(int signum)
{
    (void) signum;
    s_interrupted = 1;
}

//  ---------------------------------------------------------------------------
//  Clocks, statistics, small helpers

static int64_t
s_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void
s_pause_ms(int ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int
s_compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return x < y ? -1 : x > y;
}

//  Nearest-rank percentile of count values (sorted in place), in ms.
static double
s_percentile_ms(int64_t *values, int count, double percent)
{
    if (count <= 0)
        return 0;
    qsort(values, (size_t) count, sizeof *values, s_compare_int64);
    int rank = (int) (percent / 100 * count + 0.999999);
    rank = rank < 1 ? 1 : rank > count ? count : rank;
    return (double) values[rank - 1] / 1000;
}

//  Runs argv (argv[0] looked up in PATH) with stdin on /dev/null and stdout
//  and stderr appended to log_fd. Its exit status, or -1.
static int
s_spawn(const char *const *argv, int log_fd)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0)
            dup2(null, STDIN_FILENO);
        if (log_fd >= 0) {
            dup2(log_fd, STDOUT_FILENO);
            dup2(log_fd, STDERR_FILENO);
        }
        execvp(argv[0], (char *const *) argv);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

//  A shell command; its output is not wanted. Exit status.
static int
s_shell(const char *command)
{
    char quiet[PATH_MAX * 2 + 32];
    snprintf(quiet, sizeof quiet, "(%s) >/dev/null 2>&1", command);
    int status = system(quiet);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

//  VmRSS and VmHWM of pid in KiB; false when it is gone.
static bool
s_memory_kib(pid_t pid, long *rss, long *hwm)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int) pid);
    FILE *file = pid > 0 ? fopen(path, "r") : NULL;
    if (!file)
        return false;
    *rss = *hwm = -1;
    while (fgets(line, sizeof line, file)) {
        sscanf(line, "VmRSS: %ld", rss);
        sscanf(line, "VmHWM: %ld", hwm);
    }
    fclose(file);
    return *rss >= 0;
}

//  ---------------------------------------------------------------------------
//  The bench

//  The hops of one create, in order, as the bus tells them (the agent's own
//  steps come from its "kernel started" line, see s_agent_steps).
typedef enum {
    HOP_SCHEDULED,      //  session_scheduled: the scheduler placed it
    HOP_KERNEL_STARTED, //  kernel.started: the agent's container and runner are up
    HOP_RUNNING,        //  session_started: the scheduler recorded it RUNNING
    HOP_REPLY,          //  the gateway's 201 reached the client
    HOP_COUNT
} hop_t;
static const char *s_hop_names[HOP_COUNT] = {"scheduled", "kernel.started", "started",
                                             "201 reply"};

//  The steps the agent's "kernel started" lines time (agent_kernel_create.c).
enum { AGENT_STEPS = 6 };
static const char *s_step_names[AGENT_STEPS] = {"prepare_ms", "net_ms",    "runc_ms",
                                                "runner_ms",  "record_ms", "queue_ms"};

typedef struct {
    client_platform_t platform;
    harness_proc_t agent;
    bool platform_up;
    char bridge[16];
    char floor[PATH_MAX / 2]; //  <platform dir>/floor: the bundle of the runc floor
    char runc_root[PATH_MAX / 2];
    char container[64]; //  the floor's container in flight, for the clean-up
    int log_fd;         //  <floor>/runc.log: what runc says
    int count;
    int64_t *session_us; //  create-to-RUNNING, per session
    int64_t *destroy_us; //  DELETE until TERMINATED
    int64_t *runc_us;    //  runc run -d
    int sessions, destroys, runs;
    int session_failures, destroy_failures, run_failures;
    //  The timeline of each timed create: when each hop happened after the
    //  POST (wall clock, as the services stamp their events).
    bus_sub_t *events;          //  session.lifecycle and kernel.started from the hub
    struct _hop_ctx_t *timing;  //  the create being timed, while it is
    int64_t *hop_us[HOP_COUNT]; //  per timed session, in order; 0: not seen
    //  The agent's steps from its "kernel started" lines, in order, the
    //  warm-up's left out (see s_agent_steps_read).
    int64_t *step_us[AGENT_STEPS];
    int steps;
} bench_t;

typedef struct {
    const char *name;
    harness_proc_t *proc;
    long rss_start;
    //  CPU time (its own and its reaped children's: the agent reaps runc
    //  and the containers) spent during the session half of the blocks of
    //  each quarter of the run, in clock ticks: robust to a loaded machine,
    //  where wall times are not.
    long long cpu[4], children[4];
} service_t;

//  utime+stime and cutime+cstime of pid in clock ticks; false when gone.
static bool
s_cpu_ticks(pid_t pid, long long *own, long long *children)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int) pid);
    FILE *file = pid > 0 ? fopen(path, "r") : NULL;
    size_t size = file ? fread(text, 1, sizeof text - 1, file) : 0;
    if (file)
        fclose(file);
    text[size] = '\0';
    const char *paren = strrchr(text, ')');
    long long utime, stime, cutime, cstime;
    //  after "pid (comm)": state ppid pgrp session tty tpgid flags minflt
    //  cminflt majflt cmajflt utime stime cutime cstime
    if (!paren ||
        sscanf(paren + 1,
               " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lld %lld %lld %lld", &utime,
               &stime, &cutime, &cstime) != 4)
        return false;
    *own = utime + stime;
    *children = cutime + cstime;
    return true;
}

//  The bench's reaped children (the floor's runc and containers) in ticks.
static long long
s_own_children_ticks(void)
{
    struct rusage usage;
    getrusage(RUSAGE_CHILDREN, &usage);
    long long us = (long long) (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000 +
                   usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
    return us * sysconf(_SC_CLK_TCK) / 1000000;
}

//  One signed request as the superadmin; the parsed reply (NULL if none).
static json_t *
s_request(bench_t *self,
          const char *method,
          const char *path,
          const char *body,
          int *status,
          char **text_p)
{
    char *text = NULL;
    *status = client_signed(&self->platform, &self->platform.super, method, path, body,
                            NULL, &text, NULL);
    json_t *parsed = text ? json_loads(text, 0, NULL) : NULL;
    if (text_p)
        *text_p = text;
    else
        free(text);
    return parsed;
}

//  Polls GET /session/<name> until it reads TERMINATED. 0 or -1.
static int
s_wait_terminated(bench_t *self, const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s", name);
    int64_t deadline = s_now_us() + (int64_t) BENCH_TERMINATE_MS * 1000;
    char last[32] = "";
    while (s_now_us() < deadline && !s_interrupted) {
        int status;
        json_t *reply = s_request(self, "GET", path, NULL, &status, NULL);
        const char *state = json_string_value(json_object_get(reply, "status"));
        snprintf(last, sizeof last, "%s", state ? state : "?");
        json_decref(reply);
        if (strcmp(last, "TERMINATED") == 0)
            return 0;
        s_pause_ms(BENCH_POLL_MS);
    }
    if (!s_interrupted)
        fprintf(stderr, "bench-session: %s still %s %d ms after DELETE\n", name, last,
                BENCH_TERMINATE_MS);
    return -1;
}

//  The create being timed: its session (known once the reply came) and
//  when each hop happened after the POST.
typedef struct _hop_ctx_t {
    const char *session_id;
    int64_t start;
    int64_t at[HOP_COUNT];
} hop_ctx_t;

static void
s_on_event(void *arg, const bus_event_t *event)
{
    hop_ctx_t *ctx = ((bench_t *) arg)->timing;
    if (!ctx || !ctx->session_id)
        return;
    if (strcmp(event->topic, PROTO_SESSION_LIFECYCLE) == 0) {
        proto_session_lifecycle_t in;
        if (proto_session_lifecycle_decode(&in, event->body, event->body_size, NULL) != 0)
            return;
        if (in.session_id && strcmp(in.session_id, ctx->session_id) == 0 && in.event) {
            if (strcmp(in.event, "session_scheduled") == 0)
                ctx->at[HOP_SCHEDULED] = in.at - ctx->start;
            else if (strcmp(in.event, "session_started") == 0)
                ctx->at[HOP_RUNNING] = in.at - ctx->start;
        }
        proto_session_lifecycle_clear(&in);
    } else if (strcmp(event->topic, PROTO_KERNEL_STARTED) == 0) {
        proto_kernel_started_t in;
        if (proto_kernel_started_decode(&in, event->body, event->body_size, NULL) != 0)
            return;
        if (in.session_id && strcmp(in.session_id, ctx->session_id) == 0)
            ctx->at[HOP_KERNEL_STARTED] = in.at - ctx->start;
        proto_kernel_started_clear(&in);
    }
}

//  Reads what the hub brought for the create just timed and keeps its hops.
static void
s_record_hops(bench_t *self, hop_ctx_t *ctx)
{
    //  The events were published before the reply left; the last of them
    //  may still be on their way through the hub.
    for (int tries = 0; self->events && tries < 100; tries++) {
        bus_sub_dispatch(self->events, 0);
        if (ctx->at[HOP_SCHEDULED] && ctx->at[HOP_KERNEL_STARTED] && ctx->at[HOP_RUNNING])
            break;
        s_pause_ms(1);
    }
    for (int h = 0; h < HOP_COUNT; h++)
        self->hop_us[h][self->sessions - 1] = ctx->at[h] > 0 ? ctx->at[h] : 0;
}

//  The p50 in ms of values[from..to) that are not 0 (the order is kept).
static double
s_p50_range(const int64_t *values, int from, int to)
{
    int count = 0;
    int64_t *copy = to > from ? calloc((size_t) (to - from), sizeof *copy) : NULL;
    for (int i = from; copy && i < to; i++)
        if (values[i] > 0)
            copy[count++] = values[i];
    double p50 = s_percentile_ms(copy, count, 50);
    free(copy);
    return p50;
}

//  Reads the agent's "kernel started" lines into step_us, in order, less
//  the first (the warm-up's create, which unpacks the image).
static void
s_agent_steps_read(bench_t *self)
{
    FILE *log = fopen(self->agent.log_path, "r");
    char line[2048];
    int seen = 0;
    while (log && fgets(line, sizeof line, log) && self->steps < self->count) {
        if (!strstr(line, "msg=\"kernel started\"") || seen++ == 0)
            continue;
        for (int s = 0; s < AGENT_STEPS; s++) {
            const char *at = strstr(line, s_step_names[s]);
            self->step_us[s][self->steps] =
                at ? (int64_t) (strtod(at + strlen(s_step_names[s]) + 1, NULL) * 1000)
                   : 0;
        }
        self->steps++;
    }
    if (log)
        fclose(log);
}

//  The p50 of each of the agent's steps over creates [from, to), into out.
static void
s_agent_steps(bench_t *self, int from, int to, char *out, size_t size)
{
    size_t used = 0;
    *out = '\0';
    to = to < self->steps ? to : self->steps;
    for (int s = 0; s < AGENT_STEPS; s++)
        used +=
            (size_t) snprintf(out + used, used < size ? size - used : 0, "%s%.*s %.1f",
                              s ? ", " : "", (int) (strlen(s_step_names[s]) - 3),
                              s_step_names[s], s_p50_range(self->step_us[s], from, to));
}

//  The same timeline for each quarter of the run: what grows with the
//  number of sessions made shows as a drift from the first to the last.
static void
s_quarters(bench_t *self)
{
    if (self->sessions < 8 || self->runs < 8)
        return;
    for (int q = 0; q < 4; q++) {
        int from = self->sessions * q / 4, to = self->sessions * (q + 1) / 4;
        int rfrom = self->runs * q / 4, rto = self->runs * (q + 1) / 4;
        double p50 = s_p50_range(self->session_us, from, to);
        double r50 = s_p50_range(self->runc_us, rfrom, rto);
        char steps[512];
        s_agent_steps(self, from, to, steps, sizeof steps);
        printf("  quarter %d (sessions %d-%d): p50 %.1f runc_p50 %.1f ratio %.2f;", q + 1,
               from + 1, to, p50, r50, r50 > 0 ? p50 / r50 : 0);
        for (int h = 0; h < HOP_COUNT; h++)
            printf(" %s %.1f,", s_hop_names[h], s_p50_range(self->hop_us[h], from, to));
        printf(" agent: %s\n", steps);
    }
}

//  Creates one session (timed), then deletes it and waits until it ended.
static void
s_session_once(bench_t *self, int index)
{
    char name[64], body[512], path[128];
    snprintf(name, sizeof name, "bench-%d-%d", (int) getpid(), index);
    snprintf(body, sizeof body,
             "{\"name\": \"%s\", \"image\": \"" BENCH_IMAGE "\", \"config\":"
             " {\"resources\": {\"cpu\": %d, \"mem\": \"" BENCH_MEM "\"}},"
             " \"type\": \"interactive\", \"group\": \"default\","
             " \"domain\": \"default\"}",
             name, BENCH_CPU);
    int status;
    char *text = NULL;
    hop_ctx_t hops = {NULL, bus_clock_wall_us(), {0}};
    if (self->events)
        bus_sub_dispatch(self->events, 0); //  what earlier sessions left
    int64_t start = s_now_us();
    json_t *reply = s_request(self, "POST", "/session", body, &status, &text);
    int64_t elapsed = s_now_us() - start;
    hops.at[HOP_REPLY] = bus_clock_wall_us() - hops.start;
    const char *state = json_string_value(json_object_get(reply, "status"));
    if (index >= 0) {
        if (status == 201 && state && strcmp(state, "RUNNING") == 0) {
            self->session_us[self->sessions++] = elapsed;
            hops.session_id = json_string_value(json_object_get(reply, "sessionId"));
            self->timing = &hops;
            s_record_hops(self, &hops);
            self->timing = NULL;
        } else {
            self->session_failures++;
            if (!s_interrupted)
                fprintf(stderr, "bench-session: POST /session %s: %d %s\n", name, status,
                        text ? text : "(no reply)");
        }
    }
    json_decref(reply);
    free(text);
    if (s_interrupted && status != 201)
        return;
    //  Whatever the reply, the session may exist: end it.
    snprintf(path, sizeof path, "/session/%s", name);
    start = s_now_us();
    json_decref(s_request(self, "DELETE", path, NULL, &status, NULL));
    if (status == 404)
        return;
    int ended = status == 200 ? s_wait_terminated(self, name) : -1;
    if (ended == 0 && index >= 0)
        self->destroy_us[self->destroys++] = s_now_us() - start;
    else if (index >= 0) {
        self->destroy_failures++;
        if (status != 200 && !s_interrupted)
            fprintf(stderr, "bench-session: DELETE %s: %d\n", path, status);
    }
}

//  Starts one container of the floor (timed), then deletes it.
static void
s_runc_once(bench_t *self, int index)
{
    char pid_file[PATH_MAX], bundle[PATH_MAX];
    snprintf(self->container, sizeof self->container, "bpbench-%d-%d", (int) getpid(),
             index < 0 ? 0 : index + 1);
    snprintf(pid_file, sizeof pid_file, "%s/pid", self->floor);
    snprintf(bundle, sizeof bundle, "%s", self->floor);
    unlink(pid_file);
    const char *run[] = {"runc",       "--root", self->runc_root, "run",  "-d",
                         "--pid-file", pid_file, "--bundle",      bundle, self->container,
                         NULL};
    int64_t start = s_now_us();
    int rc = s_spawn(run, self->log_fd);
    int64_t elapsed = s_now_us() - start;
    FILE *file = fopen(pid_file, "r");
    int init = 0;
    if (file) {
        if (fscanf(file, "%d", &init) != 1)
            init = 0;
        fclose(file);
    }
    if (index >= 0) {
        if (rc == 0 && init > 0)
            self->runc_us[self->runs++] = elapsed;
        else {
            self->run_failures++;
            if (!s_interrupted)
                fprintf(stderr,
                        "bench-session: runc run -d %s exited %d (see %s/runc.log)\n",
                        self->container, rc, self->floor);
        }
    }
    const char *del[] = {"runc",          "--root", self->runc_root, "delete", "-f",
                         self->container, NULL};
    s_spawn(del, self->log_fd);
    //  We are the subreaper its init was handed to: reap it.
    for (int tries = 0; init > 0 && tries < 100; tries++) {
        pid_t done = waitpid(init, NULL, WNOHANG);
        if (done == init || (done < 0 && errno != EINTR))
            break;
        s_pause_ms(10);
    }
    self->container[0] = 0;
}

//  config.json of the floor: the agent's document (agent_bundle.c) for a
//  kernel of BENCH_CPU cpus and BENCH_MEM, less the network namespace it
//  prepares (runc makes a fresh one) and the overlay (a plain rootfs).
static int
s_floor_config(bench_t *self)
{
    char path[PATH_MAX], rootfs[PATH_MAX], run_dir[PATH_MAX], runner[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/config.json", self->floor);
    snprintf(rootfs, sizeof rootfs, "%s/rootfs", self->floor);
    snprintf(run_dir, sizeof run_dir, "%s/run", self->floor);
    char bindir[PATH_MAX];
    if (!realpath(harness_bindir(), bindir))
        return -1;
    snprintf(runner, sizeof runner, "%s/backplane-runner", bindir);
    if (mkdir(run_dir, 0755) != 0 || chown(run_dir, 1000, 1000) != 0)
        return -1;
    struct rlimit own;
    json_int_t nofile = BENCH_NOFILE;
    if (getrlimit(RLIMIT_NOFILE, &own) == 0 && own.rlim_max != RLIM_INFINITY &&
        (json_int_t) own.rlim_max < nofile)
        nofile = (json_int_t) own.rlim_max;
    json_t *capabilities = json_pack(
        "[s, s, s, s, s, s, s, s, s, s, s, s, s, s]", "CAP_CHOWN", "CAP_DAC_OVERRIDE",
        "CAP_FSETID", "CAP_FOWNER", "CAP_MKNOD", "CAP_NET_RAW", "CAP_SETGID",
        "CAP_SETUID", "CAP_SETFCAP", "CAP_SETPCAP", "CAP_NET_BIND_SERVICE",
        "CAP_SYS_CHROOT", "CAP_KILL", "CAP_AUDIT_WRITE");
    json_t *process =
        json_pack("{s:b, s:{s:i, s:i}, s:[s, s, s, s, s], s:[s, s], s:s, s:{s:o},"
                  " s:[{s:s, s:I, s:I}], s:b}",
                  "terminal", 0, "user", "uid", 1000, "gid", 1000, "args",
                  "/opt/backplane/bin/tini", "-s", "--", "/bin/sleep", "1000000", "env",
                  "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                  "HOME=/home/work", "cwd", "/", "capabilities", "bounding", capabilities,
                  "rlimits", "type", "RLIMIT_NOFILE", "hard", nofile, "soft", nofile,
                  "noNewPrivileges", 1);
    json_t *mounts = json_pack(
        "[{s:s, s:s, s:s, s:[]},"
        " {s:s, s:s, s:s, s:[s, s, s, s]},"
        " {s:s, s:s, s:s, s:[s, s, s, s, s, s]},"
        " {s:s, s:s, s:s, s:[s, s, s, s, s]},"
        " {s:s, s:s, s:s, s:[s, s, s]},"
        " {s:s, s:s, s:s, s:[s, s, s, s]},"
        " {s:s, s:s, s:s, s:[s, s, s, s]},"
        " {s:s, s:s, s:s, s:[s, s, s, s]},"
        " {s:s, s:s, s:s, s:[s, s, s, s]}]",
        "destination", "/proc", "type", "proc", "source", "proc", "options",
        "destination", "/dev", "type", "tmpfs", "source", "tmpfs", "options", "nosuid",
        "strictatime", "mode=755", "size=65536k", "destination", "/dev/pts", "type",
        "devpts", "source", "devpts", "options", "nosuid", "noexec", "newinstance",
        "ptmxmode=0666", "mode=0620", "gid=5", "destination", "/dev/shm", "type", "tmpfs",
        "source", "shm", "options", "nosuid", "noexec", "nodev", "mode=1777",
        "size=67108864", "destination", "/dev/mqueue", "type", "mqueue", "source",
        "mqueue", "options", "nosuid", "noexec", "nodev", "destination", "/sys", "type",
        "sysfs", "source", "sysfs", "options", "nosuid", "noexec", "nodev", "ro",
        "destination", "/opt/backplane/bin/tini", "type", "bind", "source", BENCH_TINI,
        "options", "rbind", "ro", "nosuid", "nodev", "destination",
        "/opt/backplane/bin/backplane-runner", "type", "bind", "source", runner,
        "options", "rbind", "ro", "nosuid", "nodev", "destination", "/opt/backplane/run",
        "type", "bind", "source", run_dir, "options", "rbind", "rw", "nosuid", "nodev");
    json_t *resources = json_pack(
        "{s:{s:I, s:I}, s:{s:I, s:I}, s:{s:I}}", "memory", "limit",
        (json_int_t) BENCH_MEM_BYTES, "swap", (json_int_t) BENCH_MEM_BYTES, "cpu",
        "quota", (json_int_t) BENCH_CPU * BENCH_CPU_PERIOD_US, "period",
        (json_int_t) BENCH_CPU_PERIOD_US, "pids", "limit", (json_int_t) BENCH_PIDS_MAX);
    json_t *linux_ = json_pack(
        "{s:s, s:o, s:[{s:s}, {s:s}, {s:s}, {s:s}, {s:s}],"
        " s:[s, s, s, s, s, s, s, s, s, s], s:[s, s, s, s, s]}",
        "cgroupsPath", "/" BENCH_CGROUP_PARENT "/bench", "resources", resources,
        "namespaces", "type", "pid", "type", "ipc", "type", "uts", "type", "mount",
        "type", "network", "maskedPaths", "/proc/acpi", "/proc/asound", "/proc/kcore",
        "/proc/keys", "/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats",
        "/proc/sched_debug", "/sys/firmware", "/proc/scsi", "readonlyPaths", "/proc/bus",
        "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger");
    json_t *config =
        json_pack("{s:s, s:o, s:{s:s, s:b}, s:s, s:o, s:o}", "ociVersion", "1.0.2",
                  "process", process, "root", "path", rootfs, "readonly", 0, "hostname",
                  "bench", "mounts", mounts, "linux", linux_);
    int rc = config && json_dump_file(config, path, JSON_INDENT(1)) == 0 ? 0 : -1;
    json_decref(config);
    return rc;
}

//  The floor's bundle: the busybox image unpacked once, and its config.
//  The cgroupsPath is one path for every container (they run one at a
//  time), so that the clean-up knows it. 0 or -1.
static int
s_floor_setup(bench_t *self)
{
    snprintf(self->floor, sizeof self->floor, "%s/floor", self->platform.dir);
    snprintf(self->runc_root, sizeof self->runc_root, "%s/floor-runc",
             self->platform.dir);
    char command[PATH_MAX * 2], log[PATH_MAX];
    snprintf(command, sizeof command, "umoci unpack --image %s/images/busybox:latest %s",
             self->platform.dir, self->floor);
    if (s_shell(command) != 0) {
        fprintf(stderr, "bench-session: umoci unpack failed: %s\n", command);
        return -1;
    }
    snprintf(log, sizeof log, "%s/runc.log", self->floor);
    self->log_fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (self->log_fd < 0 || s_floor_config(self) != 0) {
        fprintf(stderr, "bench-session: cannot write the floor's bundle in %s\n",
                self->floor);
        return -1;
    }
    return 0;
}

//  The superadmin's requests (a POST, a DELETE and the polls after it per
//  session) would soon exhaust the default 1,000 in 15 minutes: raise its
//  limit to the largest the gateway takes, so the limiter still runs on
//  every request. 0 or -1.
static int
s_raise_rate_limit(bench_t *self)
{
    char query[256];
    snprintf(query, sizeof query,
             "mutation { modify_keypair(access_key: \"%s\", props: {rate_limit: %d})"
             " { ok msg } }",
             self->platform.super.access_key, BENCH_RATE_LIMIT);
    json_t *reply = client_gql(&self->platform, &self->platform.super, query, NULL);
    bool ok = reply && client_mutation_ok(reply, "modify_keypair");
    json_decref(reply);
    if (!ok)
        fprintf(stderr, "bench-session: cannot raise the superadmin's rate limit\n");
    return ok ? 0 : -1;
}

static int
s_setup(bench_t *self)
{
    if (client_platform_start(&self->platform, "bench-s", true) != 0) {
        fprintf(stderr, "bench-session: the platform did not start (binaries in %s)\n",
                harness_bindir());
        return -1;
    }
    self->platform_up = true;
    //  The bench listens to the bus as any program may, for the timeline.
    self->events = bus_sub_new(self->platform.hub_subscribe, NULL);
    if (!self->events ||
        bus_sub_subscribe(self->events, PROTO_SESSION_LIFECYCLE, s_on_event, self) != 0 ||
        bus_sub_subscribe(self->events, PROTO_KERNEL_STARTED, s_on_event, self) != 0)
        fprintf(stderr, "bench-session: no timeline: cannot subscribe to %s\n",
                self->platform.hub_subscribe);
    if (s_raise_rate_limit(self) != 0)
        return -1;
    snprintf(self->bridge, sizeof self->bridge, "bpb%d", (int) (getpid() % 100000));
    if (!client_agent_start(&self->platform, &self->agent, BENCH_AGENT, self->bridge,
                            BENCH_CIDR)) {
        fprintf(stderr, "bench-session: the agent did not start or list busybox (%s)\n",
                self->agent.log_path);
        return -1;
    }
    return s_floor_setup(self);
}

//  Entries in dir, less dot files; -1 when it cannot be read.
static int
s_dir_entries(const char *dir)
{
    DIR *handle = opendir(dir);
    if (!handle)
        return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(handle)))
        count += entry->d_name[0] != '.';
    closedir(handle);
    return count;
}

//  What every session, deleted, must not have left on the host while the
//  agent still runs: kernel dirs, hosts files, net allocations (each names
//  a namespace and a veth), runc containers, mounts under the state dir
//  (but the spare kernel dirs', whose names start with a dot).
//  Prints them; true when something was left.
static bool
s_leftovers(bench_t *self)
{
    char path[PATH_MAX], command[PATH_MAX + 64], line[PATH_MAX * 2];
    const char *dirs[] = {"kernels", "hosts", "net"};
    int counts[3];
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/" BENCH_AGENT "/%s", self->platform.dir, dirs[i]);
        counts[i] = s_dir_entries(path);
    }
    int containers = 0, mounts = 0;
    snprintf(command, sizeof command, "runc --root %s/" BENCH_AGENT "/runc list -q",
             self->platform.dir);
    FILE *list = popen(command, "r");
    while (list && fgets(line, sizeof line, list))
        containers += *line != '\n';
    if (list)
        pclose(list);
    FILE *mountinfo = fopen("/proc/self/mountinfo", "r");
    //  The agent's spare kernel dirs (agent.spares) hold mounts of their
    //  own: kernels prepared ahead, not left behind.
    while (mountinfo && fgets(line, sizeof line, mountinfo))
        mounts += strstr(line, self->platform.dir) && !strstr(line, "/kernels/.spare-");
    if (mountinfo)
        fclose(mountinfo);
    printf("leftovers after %d sessions: kernel_dirs=%d hosts=%d net=%d runc=%d "
           "mounts=%d\n",
           self->sessions + self->session_failures, counts[0], counts[1], counts[2],
           containers, mounts);
    return counts[0] > 0 || counts[1] > 0 || counts[2] > 0 || containers || mounts;
}

//  What an interrupted run may leave: the floor's container, kernels the
//  agent still ran when it stopped (their runc state, overlay, network
//  namespace), the bridge, the cgroup parents.
static void
s_sweep(bench_t *self)
{
    char command[PATH_MAX * 2];
    if (*self->container) {
        const char *del[] = {"runc",          "--root", self->runc_root, "delete", "-f",
                             self->container, NULL};
        s_spawn(del, self->log_fd);
    }
    char agent_state[PATH_MAX / 2], root[PATH_MAX];
    snprintf(agent_state, sizeof agent_state, "%s/" BENCH_AGENT, self->platform.dir);
    snprintf(root, sizeof root, "%s/runc", agent_state);
    snprintf(command, sizeof command, "runc --root %s list -q 2>/dev/null", root);
    FILE *list = access(root, F_OK) == 0 ? popen(command, "r") : NULL;
    char id[128];
    while (list && fgets(id, sizeof id, list)) {
        id[strcspn(id, "\r\n")] = 0;
        if (!*id || strchr(id, '/') || strchr(id, '\''))
            continue;
        fprintf(stderr, "bench-session: removing kernel %s left by the agent\n", id);
        const char *del[] = {"runc", "--root", root, "delete", "-f", id, NULL};
        s_spawn(del, -1);
    }
    if (list)
        pclose(list);
    //  Overlays still mounted under the agent's kernels, and their netns.
    char kernels[PATH_MAX];
    snprintf(kernels, sizeof kernels, "%s/kernels", agent_state);
    DIR *dir = opendir(kernels);
    struct dirent *entry;
    while (dir && (entry = readdir(dir))) {
        if (entry->d_name[0] == '.')
            continue;
        char rootfs[PATH_MAX * 2];
        snprintf(rootfs, sizeof rootfs, "%s/%s/bundle/rootfs", kernels, entry->d_name);
        umount2(rootfs, MNT_DETACH);
        snprintf(command, sizeof command, "ip netns del " BENCH_NETNS_PREFIX "%s",
                 entry->d_name);
        s_shell(command);
    }
    if (dir)
        closedir(dir);
    if (*self->bridge) {
        snprintf(command, sizeof command,
                 "ip link del %s; command -v nft && nft delete table ip backplane_%s",
                 self->bridge, self->bridge);
        s_shell(command);
    }
    //  The floor's cgroup parent in every hierarchy (runc removed the leaves).
    dir = opendir(BENCH_CGROUP_ROOT);
    while (dir && (entry = readdir(dir))) {
        char path[PATH_MAX * 2];
        snprintf(path, sizeof path, BENCH_CGROUP_ROOT "/%s/" BENCH_CGROUP_PARENT "/bench",
                 entry->d_name);
        rmdir(path);
        snprintf(path, sizeof path, BENCH_CGROUP_ROOT "/%s/" BENCH_CGROUP_PARENT,
                 entry->d_name);
        rmdir(path);
    }
    if (dir)
        closedir(dir);
    rmdir(BENCH_CGROUP_ROOT "/" BENCH_CGROUP_PARENT "/bench");
    rmdir(BENCH_CGROUP_ROOT "/" BENCH_CGROUP_PARENT);
}

static void
s_teardown(bench_t *self, bool keep)
{
    bus_sub_destroy(&self->events);
    if (self->agent.pid > 0)
        harness_stop(&self->agent, CLIENT_STOP_MS);
    if (self->platform_up) {
        client_platform_stop(&self->platform);
        s_sweep(self);
        if (self->log_fd > 0)
            close(self->log_fd);
        client_platform_end(&self->platform, keep);
    }
}

//  ---------------------------------------------------------------------------

int
main(int argc, char **argv)
{
    static bench_t bench;
    bench_t *self = &bench;
    const char *count_text = argc > 1 ? argv[1] : getenv("BENCH_SESSIONS");
    self->count = count_text && *count_text ? atoi(count_text) : BENCH_DEFAULT_COUNT;
    if (self->count <= 0) {
        fprintf(stderr,
                "usage: bench_session [COUNT]   (default $BENCH_SESSIONS, else %d)\n",
                BENCH_DEFAULT_COUNT);
        return 2;
    }
    if (!harness_can_run_containers()) {
        fprintf(stderr, "bench-session: needs root, runc, umoci and " BENCH_TINI "\n");
        return 1;
    }
    self->log_fd = -1;
    self->session_us = calloc((size_t) self->count, sizeof *self->session_us);
    self->destroy_us = calloc((size_t) self->count, sizeof *self->destroy_us);
    self->runc_us = calloc((size_t) self->count, sizeof *self->runc_us);
    assert(self->session_us && self->destroy_us && self->runc_us);
    for (int h = 0; h < HOP_COUNT; h++) {
        self->hop_us[h] = calloc((size_t) self->count, sizeof *self->hop_us[h]);
        assert(self->hop_us[h]);
    }
    for (int s = 0; s < AGENT_STEPS; s++) {
        self->step_us[s] = calloc((size_t) self->count, sizeof *self->step_us[s]);
        assert(self->step_us[s]);
    }
    setvbuf(stdout, NULL, _IOLBF, 0); //  in order with stderr in a log
    signal(SIGPIPE, SIG_IGN);
    struct sigaction action = {.sa_handler = s_on_signal}; //  no SA_RESTART
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    //  Like the agent: runc run -d hands the container's init to us.
    prctl(PR_SET_CHILD_SUBREAPER, 1);

    const char *keep_text = getenv("BENCH_KEEP");
    bool keep = keep_text && *keep_text && strcmp(keep_text, "0") != 0;
    if (s_setup(self) != 0) {
        s_teardown(self, true);
        return 1;
    }
    service_t services[] = {{.name = "scheduler", .proc = &self->platform.scheduler},
                            {.name = "gateway", .proc = &self->platform.gateway},
                            {.name = "accounting", .proc = &self->platform.accounting},
                            {.name = "agent", .proc = &self->agent}};
    size_t service_count = sizeof services / sizeof services[0];
    printf("bench-session: %d sessions (%s, %d cpu, %s) through the API on %s and %d "
           "bare runc run -d, in alternating blocks of %d; state in %s\n",
           self->count, BENCH_IMAGE, BENCH_CPU, BENCH_MEM, self->platform.api,
           self->count, BENCH_BLOCK, self->platform.dir);
    fflush(stdout);

    //  Warm-up, not counted: the agent unpacks the image for its first kernel.
    s_session_once(self, -1);
    s_runc_once(self, -1);
    for (size_t i = 0; i < service_count; i++) {
        long hwm;
        if (!s_memory_kib(services[i].proc->pid, &services[i].rss_start, &hwm))
            services[i].rss_start = -1;
    }
    long long floor_cpu[4] = {0};
    int64_t started = s_now_us();
    for (int done = 0; done < self->count && !s_interrupted; done += BENCH_BLOCK) {
        int block = self->count - done < BENCH_BLOCK ? self->count - done : BENCH_BLOCK;
        int64_t block_start = s_now_us();
        int quarter = done * 4 / self->count;
        long long before[8] = {0}, after[8] = {0};
        for (size_t i = 0; i < service_count; i++)
            s_cpu_ticks(services[i].proc->pid, &before[2 * i], &before[2 * i + 1]);
        for (int i = 0; i < block && !s_interrupted; i++)
            s_session_once(self, done + i);
        for (size_t i = 0; i < service_count; i++) {
            s_cpu_ticks(services[i].proc->pid, &after[2 * i], &after[2 * i + 1]);
            services[i].cpu[quarter] += after[2 * i] - before[2 * i];
            services[i].children[quarter] += after[2 * i + 1] - before[2 * i + 1];
        }
        int64_t sessions_end = s_now_us();
        long long floor_before = s_own_children_ticks();
        for (int i = 0; i < block && !s_interrupted; i++)
            s_runc_once(self, done + i);
        floor_cpu[quarter] += s_own_children_ticks() - floor_before;
        if (self->count >= 5 * BENCH_BLOCK && (done / BENCH_BLOCK) % 5 == 4)
            printf("  %d/%d: last block %.1f s sessions, %.1f s runc\n", done + block,
                   self->count, (double) (sessions_end - block_start) / 1e6,
                   (double) (s_now_us() - sessions_end) / 1e6);
        fflush(stdout);
    }
    double seconds = (double) (s_now_us() - started) / 1e6;

    //  Memory, while every service still runs with what it recorded.
    char rss_line[512] = "rss:";
    size_t used = strlen(rss_line);
    bool over = false;
    for (size_t i = 0; i < service_count; i++) {
        long rss = -1, hwm = -1;
        bool alive = s_memory_kib(services[i].proc->pid, &rss, &hwm);
        if (alive) {
            printf("  %-10s pid %-7d VmRSS %6.1f MiB (%6.1f after the warm-up), "
                   "VmHWM %6.1f MiB\n",
                   services[i].name, (int) services[i].proc->pid, rss / 1024.0,
                   services[i].rss_start / 1024.0, hwm / 1024.0);
            over = over || rss >= BENCH_RSS_LIMIT_KIB;
        }
        used += (size_t) snprintf(rss_line + used, sizeof rss_line - used,
                                  alive ? " %s_mib=%.1f" : " %s_mib=gone",
                                  services[i].name, rss / 1024.0);
    }
    s_agent_steps_read(self);
    //  Each session waited for TERMINATED: nothing of its kernel may be left.
    bool left = !s_interrupted && s_leftovers(self);
    bool interrupted = s_interrupted;
    s_teardown(self, keep);
    if (interrupted)
        printf("bench-session: interrupted; cleaned up\n");

    int sessions = self->sessions, runs = self->runs;
    char steps[512];
    s_agent_steps(self, 0, self->steps, steps, sizeof steps);
    //  Before the whole run's percentiles sort the arrays in place.
    printf("by quarter of the run (p50, ms; hops after the POST):\n");
    s_quarters(self);
    //  CPU per create (and delete): what a growing scan would show first.
    double tick_ms = 1000.0 / (double) sysconf(_SC_CLK_TCK);
    for (int q = 0; q < 4 && self->count >= 8; q++) {
        int per = (self->count * (q + 1) / 4) - (self->count * q / 4);
        printf("  quarter %d cpu ms per session:", q + 1);
        for (size_t i = 0; i < service_count; i++)
            printf(" %s %.1f%s", services[i].name,
                   (double) services[i].cpu[q] * tick_ms / per,
                   i + 1 < service_count ? "," : "");
        printf(" (its children %.1f); floor runc %.1f\n",
               (double) services[service_count - 1].children[q] * tick_ms / per,
               (double) floor_cpu[q] * tick_ms / per);
    }
    double p50 = s_percentile_ms(self->session_us, sessions, 50);
    double p90 = s_percentile_ms(self->session_us, sessions, 90);
    double p99 = s_percentile_ms(self->session_us, sessions, 99);
    double max = s_percentile_ms(self->session_us, sessions, 100);
    double min = sessions ? (double) self->session_us[0] / 1000 : 0;
    double d50 = s_percentile_ms(self->destroy_us, self->destroys, 50);
    double d99 = s_percentile_ms(self->destroy_us, self->destroys, 99);
    double r50 = s_percentile_ms(self->runc_us, runs, 50);
    double r90 = s_percentile_ms(self->runc_us, runs, 90);
    double r99 = s_percentile_ms(self->runc_us, runs, 99);
    double rmin = runs ? (double) self->runc_us[0] / 1000 : 0;
    printf("sessions: %d ok, %d failed; create-to-RUNNING min %.1f p50 %.1f p90 %.1f "
           "p99 %.1f max %.1f ms; DELETE-to-TERMINATED p50 %.1f p99 %.1f ms "
           "(%d failed)\n",
           sessions, self->session_failures, min, p50, p90, p99, max, d50, d99,
           self->destroy_failures);
    printf("runc:     %d ok, %d failed; run -d min %.1f p50 %.1f p90 %.1f p99 %.1f ms\n",
           runs, self->run_failures, rmin, r50, r90, r99);
    printf("bench-session: %.1f s for the timed part; %d sessions recorded\n", seconds,
           self->sessions + self->session_failures + 1);
    if (over)
        printf("bench-session: target missed: a service at or over %d MiB RSS\n",
               BENCH_RSS_LIMIT_KIB / 1024);
    if (left)
        printf("bench-session: a deleted session left something on the host\n");
    printf("%s\n", rss_line);
    //  Where the milliseconds of a create go: p50 of each hop after the POST,
    //  and of each step inside the agent.
    printf("timeline (p50 after the POST, ms):");
    for (int h = 0; h < HOP_COUNT; h++)
        printf(" %s %.1f%s", s_hop_names[h], s_p50_range(self->hop_us[h], 0, sessions),
               h + 1 < HOP_COUNT ? "," : "\n");
    printf("agent steps (p50, ms): %s\n", steps);
    double ratio = r50 > 0 ? p50 / r50 : 0;
    printf("session: p50_ms=%.1f p99_ms=%.1f runc_p50_ms=%.1f ratio=%.2f\n", p50, p99,
           r50, ratio);
    free(self->session_us);
    free(self->destroy_us);
    free(self->runc_us);
    for (int h = 0; h < HOP_COUNT; h++)
        free(self->hop_us[h]);
    for (int s = 0; s < AGENT_STEPS; s++)
        free(self->step_us[s]);
    return interrupted || left || self->session_failures || self->run_failures ? 1 : 0;
}
