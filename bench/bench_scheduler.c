/*  =========================================================================
    bench_scheduler - sustained placements per second of the real scheduler
    against a thousand fake agents, and the time from enqueue to scheduled

    Starts the real scheduler (hosting the hub and the registry, state in a
    fresh /tmp/backplane-bench-sched-* directory removed at the end) and
    fleets of fake agents (backplane-agent with fake.agents, at most
    BENCH_FLEET_MAX per process), each agent offering enough slots for the
    whole run. Once scheduler.agents reports every agent ALIVE, the bench's
    own bus node submits the sessions through the scheduler's session.create
    RPC, pipelined (BENCH_WINDOW calls in flight), in mixed shapes (cpu 0.5
    to 4, mem 256m to 8g, single kernels) from a few keypairs. It follows
    session.lifecycle and takes, per session, the time from its create being
    sent to its session_scheduled event (and to session_started, shown for
    information). Prints the placements per second (sessions scheduled over
    the time from the first create sent to the last session_scheduled seen),
    p50 and p99, and last
        scheduler: placements_per_s=X p99_ms=Y agents=A sessions=S
    Environment: BENCH_AGENTS (default 1000), BENCH_SESSIONS (100000),
    BENCH_WINDOW (256), BENCH_SCHED_SET ("key=value ...": more scheduler
    options, e.g. "sessions.pass_ms=100"), BENCH_HEARTBEAT_MS (the agents'
    bus.heartbeat_ms, 1000), BENCH_KEEP=1 keeps the directory with the
    services' logs (else it goes, also after a failure, which shows the end
    of each log). The binaries come from $BACKPLANE_BINDIR (else build/bin).
    Across hosts (root; bench/bench-scheduler-hosts makes the hosts with
    deploy/testbed): BENCH_SCHED_NETNS, a network namespace (a path in
    /run/netns) where the scheduler and this bench run, the scheduler bound
    on BENCH_SCHED_ADDR there (its hub and RPC); BENCH_AGENT_NETNS, the
    namespaces the fleets go to in turn, each bound on every address there
    (advertising the one the scheduler is reached from).
    Exits 1 when not every session was scheduled (30 s without progress ends
    the wait). Ctrl-C stops early and cleans up.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <fcntl.h>
#include <sched.h>

#include "bus_classes.h"
#include "integration/harness.h"

#define BENCH_AGENTS_DEFAULT   1000
#define BENCH_SESSIONS_DEFAULT 100000
#define BENCH_WINDOW_DEFAULT   256
#define BENCH_HEARTBEAT_MS     1000
#define BENCH_FLEET_MAX        500 //  fake agents per process
#define BENCH_FLEETS_MAX       64
#define BENCH_READY_MS         30000
#define BENCH_ALIVE_BASE_MS    30000 //  waiting for every agent ALIVE: this
#define BENCH_ALIVE_PER_MS     30    //  plus this per agent
#define BENCH_CHECK_MS         100   //  progress checks (and scheduler.agents polls)
#define BENCH_STALL_MS         30000 //  no progress this long ends the run
#define BENCH_CALL_MS          120000
#define BENCH_STOP_MS          10000
#define BENCH_KEYPAIRS         16
#define BENCH_IMAGE            "local.backplane/library/busybox:latest"
#define BENCH_GROUP            "default"
#define BENCH_ID_FORMAT        "%08x-0000-4000-8000-%012d"
#define BENCH_SESSION_TAG      0xb0000000u
#define BENCH_KERNEL_TAG       0xc0000000u
#define BENCH_CPU_MAX_MILLI    4000 //  the largest shape
#define BENCH_MEM_MAX_GIB      8
#define BENCH_CPU_MIN          64 //  an agent's cpu, at least
#define BENCH_MEM_MIN_GIB      256
#define BENCH_ID_MAX           48
#define BENCH_ARGS_MAX         40 //  the scheduler's arguments, BENCH_SCHED_SET's included
#define BENCH_LOG_TAIL         15 //  lines of each log shown after a failure

//  The shapes, in turn: cpu (a count) and mem (bytes as bus_slots takes them).
static const struct {
    const char *cpu;
    const char *mem;
} s_shapes[] = {
    {"0.5", "268435456"}, {"1", "536870912"},    {"1", "1073741824"},
    {"2", "2147483648"},  {"0.5", "1073741824"}, {"2", "4294967296"},
    {"4", "8589934592"},  {"1.5", "3221225472"}, {"4", "4294967296"},
    {"0.5", "536870912"},
};
#define BENCH_SHAPES (sizeof s_shapes / sizeof s_shapes[0])

//  The bench's own node: only the options every node has.
typedef struct {
    bus_node_config_t node;
} bench_config_t;

static const bus_config_option_t s_options[] = {
    BUS_NODE_CONFIG_ROWS(bench_config_t, node, "false", BUS_NODE_HTTP_ANY),
    BUS_CONFIG_END,
};

typedef enum { PHASE_AGENTS, PHASE_SUBMIT, PHASE_DONE } bench_phase_t;

typedef struct {
    int agents, sessions, window, heartbeat_ms;
    char *dir;
    harness_proc_t scheduler;
    harness_proc_t fleets[BENCH_FLEETS_MAX];
    int fleet_count;
    char rpc[256], hub_publish[160], hub_subscribe[160], registry[160];
    bench_config_t config;
    struct event_base *base;
    bus_node_t *node;
    struct event *timer;
    bench_phase_t phase;
    int64_t phase_started_us;
    int alive;     //  ALIVE agents at the last poll
    bool polling;  //  a scheduler.agents call is out
    int next;      //  the next session to submit
    int in_flight; //  creates sent, not answered
    int answered, refused;
    int scheduled, started;
    int64_t *sent_us;      //  per session: when its create was sent (0: not yet)
    int64_t *scheduled_us; //  its session_scheduled (0: not seen)
    int64_t *started_us;   //  its session_started (0: not seen)
    int64_t first_sent_us, last_scheduled_us, progress_us;
    char first_refusal[BUS_ERROR_DETAIL_MAX];
    bool failed;
} bench_t;

static int64_t
s_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int
s_env_int(const char *name, int fallback, int min, int max)
{
    const char *text = getenv(name);
    if (!text || !*text)
        return fallback;
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (*end || value < min || value > max) {
        fprintf(stderr, "bench_scheduler: %s=%s is not in %d..%d, using %d\n", name, text,
                min, max, fallback);
        return fallback;
    }
    return (int) value;
}

static int
s_compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return x < y ? -1 : x > y;
}

//  Nearest-rank percentile of sorted values, in ms.
static double
s_percentile_ms(const int64_t *sorted, int count, double percent)
{
    if (count <= 0)
        return 0;
    int rank = (int) (percent / 100 * count + 0.999999);
    rank = rank < 1 ? 1 : rank > count ? count : rank;
    return (double) sorted[rank - 1] / 1000;
}

//  The session number of an id this bench made, or -1.
static int
s_session_index(const bench_t *self, const char *id)
{
    unsigned tag = 0;
    int index = -1;
    if (!id || sscanf(id, "%08x-0000-4000-8000-%12d", &tag, &index) != 2 ||
        tag != BENCH_SESSION_TAG || index < 0 || index >= self->sessions)
        return -1;
    return index;
}

//  ---------------------------------------------------------------------------
//  Processes

//  Moves this thread (and the processes it starts from now on) into the
//  network namespace at path. 0 or -1.
static int
s_enter_netns(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    int rc = fd >= 0 ? setns(fd, CLONE_NEWNET) : -1;
    if (rc != 0)
        fprintf(stderr, "bench_scheduler: cannot enter the network namespace %s\n", path);
    if (fd >= 0)
        close(fd);
    return rc;
}

//  Starts the scheduler hosting the hub on free ports (of BENCH_SCHED_ADDR,
//  else loopback); fills the endpoints.
static bool
s_start_scheduler(bench_t *self)
{
    char state[600], line[HARNESS_LINE_MAX];
    snprintf(state, sizeof state, "node.state_dir=%s/scheduler", self->dir);
    const char *addr = getenv("BENCH_SCHED_ADDR");
    addr = addr && *addr ? addr : "127.0.0.1";
    char pub[96], sub[96], reg[96], rpc[96];
    snprintf(pub, sizeof pub, "bus.hub.publish=tcp://%s:*", addr);
    snprintf(sub, sizeof sub, "bus.hub.subscribe=tcp://%s:*", addr);
    snprintf(reg, sizeof reg, "bus.hub.registry=tcp://%s:*", addr);
    snprintf(rpc, sizeof rpc, "bus.rpc_bind=tcp://%s:*", addr);
    const char *args[BENCH_ARGS_MAX] = {"--set", state,
                                        "--set", "node.name=bench-scheduler",
                                        "--set", "bus.hub.host=true",
                                        "--set", pub,
                                        "--set", sub,
                                        "--set", reg,
                                        "--set", rpc,
                                        NULL};
    //  BENCH_SCHED_SET="key=value ...": more options for the scheduler.
    size_t argc = 14;
    char *extra = getenv("BENCH_SCHED_SET") ? strdup(getenv("BENCH_SCHED_SET")) : NULL;
    char *save = NULL;
    for (char *set = extra ? strtok_r(extra, " ", &save) : NULL;
         set && argc + 3 <= BENCH_ARGS_MAX; set = strtok_r(NULL, " ", &save)) {
        args[argc++] = "--set";
        args[argc++] = set;
        args[argc] = NULL;
        printf("scheduler: --set %s\n", set);
    }
    if (harness_start(&self->scheduler, self->dir, "scheduler", "scheduler", args) != 0 ||
        !harness_wait_line(&self->scheduler, "ready ", BENCH_READY_MS, line,
                           sizeof line) ||
        !harness_field(line, "rpc", self->rpc, sizeof self->rpc) ||
        !harness_field(line, "hub_publish", self->hub_publish,
                       sizeof self->hub_publish) ||
        !harness_field(line, "hub_subscribe", self->hub_subscribe,
                       sizeof self->hub_subscribe) ||
        !harness_field(line, "registry", self->registry, sizeof self->registry)) {
        fprintf(stderr, "bench_scheduler: the scheduler did not start (%s)\n",
                self->scheduler.log_path);
        free(extra);
        return false;
    }
    free(extra);
    return true;
}

//  Starts the fleets: agents split evenly over as few processes as
//  BENCH_FLEET_MAX allows, every agent with room for the whole run.
static bool
s_start_fleets(bench_t *self)
{
    self->fleet_count = (self->agents + BENCH_FLEET_MAX - 1) / BENCH_FLEET_MAX;
    //  Room for every session in the largest shape, spread evenly.
    long long per_agent = ((long long) self->sessions + self->agents - 1) / self->agents;
    long long cpu = per_agent * BENCH_CPU_MAX_MILLI / 1000 + BENCH_CPU_MAX_MILLI / 1000;
    long long mem = per_agent * BENCH_MEM_MAX_GIB + BENCH_MEM_MAX_GIB;
    cpu = cpu < BENCH_CPU_MIN ? BENCH_CPU_MIN : cpu;
    mem = mem < BENCH_MEM_MIN_GIB ? BENCH_MEM_MIN_GIB : mem;
    char slots[128], pub[200], sub[200], reg[200], beat[64];
    snprintf(slots, sizeof slots, "fake.slots=cpu=%lld,mem=%lldg", cpu, mem);
    snprintf(pub, sizeof pub, "bus.hub.publish=%s", self->hub_publish);
    snprintf(sub, sizeof sub, "bus.hub.subscribe=%s", self->hub_subscribe);
    snprintf(reg, sizeof reg, "bus.hub.registry=%s", self->registry);
    snprintf(beat, sizeof beat, "bus.heartbeat_ms=%d", self->heartbeat_ms);
    printf("fleets: %d processes, %d agents, each cpu=%lld mem=%lldg\n",
           self->fleet_count, self->agents, cpu, mem);
    //  BENCH_AGENT_NETNS: the fleets' hosts, in turn; back home after each.
    char *hosts[BENCH_FLEETS_MAX];
    int host_count = 0;
    char *list = getenv("BENCH_AGENT_NETNS") ? strdup(getenv("BENCH_AGENT_NETNS")) : NULL;
    char *save = NULL;
    for (char *ns = list ? strtok_r(list, " ", &save) : NULL;
         ns && host_count < BENCH_FLEETS_MAX; ns = strtok_r(NULL, " ", &save))
        hosts[host_count++] = ns;
    int home = host_count ? open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC) : -1;
    bool ok = !host_count || home >= 0;
    for (int f = 0; ok && f < self->fleet_count; f++) {
        int count = self->agents / self->fleet_count +
                    (f < self->agents % self->fleet_count ? 1 : 0);
        char name[64], state[600], node[80], agents[64];
        snprintf(name, sizeof name, "fleet-%d", f + 1);
        snprintf(state, sizeof state, "node.state_dir=%s/%s", self->dir, name);
        snprintf(node, sizeof node, "node.name=%s", name);
        snprintf(agents, sizeof agents, "fake.agents=%d", count);
        const char *args[] = {
            "--set", state, "--set", node, "--set", agents, "--set", slots, "--set", pub,
            "--set", sub,   "--set", reg,  "--set", beat,   NULL,    NULL,  NULL};
        if (host_count) {
            args[16] = "--set";
            args[17] = "bus.rpc_bind=tcp://0.0.0.0:*";
        }
        if (host_count) {
            printf("fleet-%d on %s\n", f + 1, hosts[f % host_count]);
            ok = s_enter_netns(hosts[f % host_count]) == 0;
        }
        ok = ok && harness_start(&self->fleets[f], self->dir, name, "agent", args) == 0;
        if (host_count && setns(home, CLONE_NEWNET) != 0)
            ok = false;
        if (!ok ||
            !harness_wait_line(&self->fleets[f], "ready ", BENCH_READY_MS, NULL, 0)) {
            fprintf(stderr, "bench_scheduler: fleet %d did not start (%s)\n", f + 1,
                    self->fleets[f].log_path);
            ok = false;
        }
    }
    if (home >= 0)
        close(home);
    free(list);
    return ok;
}

//  CPU seconds (user + system) pid has used so far; -1 when it is gone.
static double
s_cpu_s(pid_t pid)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int) pid);
    FILE *file = pid > 0 ? fopen(path, "r") : NULL;
    if (!file)
        return -1;
    size_t n = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[n] = '\0';
    //  After the command's closing parenthesis: state, then fields 4..; utime
    //  and stime are fields 14 and 15.
    const char *rest = strrchr(text, ')');
    unsigned long long user = 0, system = 0;
    if (!rest || sscanf(rest + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
                        &user, &system) != 2)
        return -1;
    return (double) (user + system) / (double) sysconf(_SC_CLK_TCK);
}

//  Where the CPU went: each process's CPU time so far.
static void
s_show_cpu(const bench_t *self)
{
    printf("cpu: scheduler %.1f s", s_cpu_s(self->scheduler.pid));
    for (int f = 0; f < self->fleet_count; f++)
        printf(", %s %.1f s", self->fleets[f].name, s_cpu_s(self->fleets[f].pid));
    printf(", bench %.1f s\n", s_cpu_s(getpid()));
}

//  Stops everything this bench started; true when every service exited
//  cleanly (quiet: without saying which did not).
static bool
s_stop_all(bench_t *self, bool quiet)
{
    bool clean = true;
    for (int f = 0; f <= self->fleet_count; f++) {
        harness_proc_t *proc =
            f < self->fleet_count ? &self->fleets[f] : &self->scheduler;
        if (proc->pid > 0 && harness_stop(proc, BENCH_STOP_MS) != 0) {
            if (!quiet)
                fprintf(stderr, "bench_scheduler: %s exited %d\n", proc->name,
                        proc->exit_status);
            clean = false;
        }
    }
    return clean;
}

//  The end of each service's log, for a run that failed (the directory
//  goes unless BENCH_KEEP is set).
static void
s_show_logs(const bench_t *self)
{
    char command[1200];
    snprintf(command, sizeof command,
             "for f in %s/*.log; do echo \"== $f\"; tail -n %d \"$f\"; done >&2",
             self->dir, BENCH_LOG_TAIL);
    harness_shell(command);
}

//  ---------------------------------------------------------------------------
//  Waiting for the agents

static void
s_on_agents(void *arg, const bus_reply_t *reply)
{
    bench_t *self = arg;
    self->polling = false;
    if (reply->status != BUS_OK)
        return;
    proto_scheduler_agents_rep_t rep;
    bus_error_t err = {0};
    if (proto_scheduler_agents_rep_decode(&rep, reply->body, reply->body_size, &err) !=
        BUS_OK)
        return;
    int alive = 0;
    for (size_t i = 0; i < rep.agents_count; i++)
        alive += strcmp(rep.agents[i].status, "ALIVE") == 0;
    self->alive = alive;
    proto_scheduler_agents_rep_clear(&rep);
}

static void
s_poll_agents(bench_t *self)
{
    if (self->polling)
        return;
    proto_scheduler_agents_req_t req;
    proto_scheduler_agents_req_init(&req);
    req.status = "ALIVE";
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_scheduler_agents_req_write(&req, writer) == 0 &&
        bus_node_call(self->node, self->rpc, PROTO_SCHEDULER_AGENTS,
                      bus_writer_data(writer), bus_writer_size(writer), BENCH_CALL_MS,
                      s_on_agents, self) != 0)
        self->polling = true;
    bus_writer_destroy(&writer);
}

//  ---------------------------------------------------------------------------
//  Submitting

static void s_on_created(void *arg, const bus_reply_t *reply);

//  Sends the next create; false when none is left or it could not leave.
static bool
s_submit_one(bench_t *self)
{
    if (self->next >= self->sessions)
        return false;
    int i = self->next;
    char session[BENCH_ID_MAX], kernel[BENCH_ID_MAX], name[32], key[32], user[32];
    snprintf(session, sizeof session, BENCH_ID_FORMAT, BENCH_SESSION_TAG, i);
    snprintf(kernel, sizeof kernel, BENCH_ID_FORMAT, BENCH_KERNEL_TAG, i);
    snprintf(name, sizeof name, "bench-%d", i);
    snprintf(key, sizeof key, "AKBENCH%02d", i % BENCH_KEYPAIRS);
    snprintf(user, sizeof user, "user-%02d", i % BENCH_KEYPAIRS);
    proto_kv_t slots[] = {{"cpu", (char *) s_shapes[i % BENCH_SHAPES].cpu},
                          {"mem", (char *) s_shapes[i % BENCH_SHAPES].mem}};
    proto_session_create_req_t req;
    proto_session_create_req_init(&req);
    req.session_id = session;
    req.kernel_id = kernel;
    req.name = name;
    req.access_key = key;
    req.user_uuid = user;
    req.domain_name = "default";
    req.group_id = "bench-group";
    req.scaling_group = BENCH_GROUP;
    req.image = BENCH_IMAGE;
    req.slots = slots;
    req.slots_count = sizeof slots / sizeof slots[0];
    bus_writer_t *writer = bus_writer_new();
    int64_t now = s_now_us();
    bool sent = writer && proto_session_create_req_write(&req, writer) == 0 &&
                bus_node_call(self->node, self->rpc, PROTO_SESSION_CREATE,
                              bus_writer_data(writer), bus_writer_size(writer),
                              BENCH_CALL_MS, s_on_created, self) != 0;
    bus_writer_destroy(&writer);
    if (!sent)
        return false;
    if (!self->first_sent_us)
        self->first_sent_us = now;
    self->sent_us[i] = now;
    self->next++;
    self->in_flight++;
    return true;
}

//  Tops the window up.
static void
s_submit(bench_t *self)
{
    while (self->in_flight < self->window && s_submit_one(self))
        ;
}

static void
s_on_created(void *arg, const bus_reply_t *reply)
{
    bench_t *self = arg;
    self->in_flight--;
    self->answered++;
    self->progress_us = s_now_us();
    if (reply->status != BUS_OK) {
        if (!self->refused++)
            snprintf(self->first_refusal, sizeof self->first_refusal, "%s: %s",
                     bus_status_str(reply->status), reply->detail);
    }
    if (self->phase == PHASE_SUBMIT)
        s_submit(self);
}

//  ---------------------------------------------------------------------------
//  Lifecycle events

static void
s_on_lifecycle(void *arg, const bus_event_t *event)
{
    bench_t *self = arg;
    int64_t now = s_now_us();
    proto_session_lifecycle_t step;
    bus_error_t err = {0};
    if (proto_session_lifecycle_decode(&step, event->body, event->body_size, &err) !=
        BUS_OK)
        return;
    int i = s_session_index(self, step.session_id);
    if (i >= 0 && self->sent_us[i]) {
        if (strcmp(step.event, "session_scheduled") == 0 && !self->scheduled_us[i]) {
            self->scheduled_us[i] = now;
            self->scheduled++;
            self->last_scheduled_us = now;
            self->progress_us = now;
        } else if (strcmp(step.event, "session_started") == 0 && !self->started_us[i]) {
            self->started_us[i] = now;
            self->started++;
            self->progress_us = now;
        }
    }
    proto_session_lifecycle_clear(&step);
}

//  ---------------------------------------------------------------------------
//  The run, on the node's loop

static void
s_on_check(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    bench_t *self = arg;
    int64_t now = s_now_us();
    if (self->phase == PHASE_AGENTS) {
        if (self->alive >= self->agents) {
            printf("agents: %d ALIVE after %.1f s\n", self->alive,
                   (double) (now - self->phase_started_us) / 1e6);
            fflush(stdout);
            self->phase = PHASE_SUBMIT;
            self->phase_started_us = self->progress_us = now;
            s_submit(self);
        } else if (now - self->phase_started_us >
                   (int64_t) (BENCH_ALIVE_BASE_MS + BENCH_ALIVE_PER_MS * self->agents) *
                       1000) {
            fprintf(stderr, "bench_scheduler: only %d of %d agents ALIVE\n", self->alive,
                    self->agents);
            self->failed = true;
            bus_node_stop(self->node);
        } else
            s_poll_agents(self);
        return;
    }
    s_submit(self); //  calls that could not leave before
    bool done = self->answered == self->sessions &&
                self->scheduled + self->refused >= self->sessions &&
                self->started >= self->scheduled;
    if (done || now - self->progress_us > (int64_t) BENCH_STALL_MS * 1000) {
        if (!done)
            fprintf(stderr,
                    "bench_scheduler: no progress for %d s: %d sent, %d answered, "
                    "%d scheduled, %d started\n",
                    BENCH_STALL_MS / 1000, self->next, self->answered, self->scheduled,
                    self->started);
        self->phase = PHASE_DONE;
        bus_node_stop(self->node);
    }
}

//  Latencies (event time - sent time) of the sessions that have one, sorted.
static int
s_latencies(const bench_t *self, const int64_t *at, int64_t *out)
{
    int count = 0;
    for (int i = 0; i < self->sessions; i++)
        if (at[i] && self->sent_us[i])
            out[count++] = at[i] - self->sent_us[i];
    qsort(out, (size_t) count, sizeof *out, s_compare_int64);
    return count;
}

static void
s_report(bench_t *self)
{
    int64_t *values = calloc((size_t) self->sessions, sizeof *values);
    if (!values)
        return;
    double span_s = self->last_scheduled_us > self->first_sent_us
                        ? (double) (self->last_scheduled_us - self->first_sent_us) / 1e6
                        : 0;
    double rate = span_s > 0 ? self->scheduled / span_s : 0;
    int count = s_latencies(self, self->started_us, values);
    printf("running: %d sessions, p50_ms=%.1f p99_ms=%.1f (create sent to "
           "session_started)\n",
           count, s_percentile_ms(values, count, 50), s_percentile_ms(values, count, 99));
    count = s_latencies(self, self->scheduled_us, values);
    double p50 = s_percentile_ms(values, count, 50);
    double p99 = s_percentile_ms(values, count, 99);
    if (self->refused)
        printf("refused: %d creates (first: %s)\n", self->refused, self->first_refusal);
    printf("scheduled: %d of %d sessions in %.2f s: %.0f placements/s, p50_ms=%.1f "
           "p99_ms=%.1f (create sent to session_scheduled)\n",
           self->scheduled, self->sessions, span_s, rate, p50, p99);
    printf("scheduler: placements_per_s=%.0f p99_ms=%.1f agents=%d sessions=%d\n", rate,
           p99, self->agents, self->sessions);
    free(values);
}

//  The bench's node: on the scheduler's hub, state in <dir>/bench.
static bool
s_node_start(bench_t *self)
{
    bus_error_t err = {0};
    char state[600];
    snprintf(state, sizeof state, "%s/bench", self->dir);
    const char *sets[][2] = {
        {"node.name", "bench"},
        {"node.state_dir", state},
        {"log.level", "warning"},
        {"bus.http_listen", ""},
        {"bus.hub.publish", self->hub_publish},
        {"bus.hub.subscribe", self->hub_subscribe},
        {"bus.hub.registry", self->registry},
    };
    if (bus_config_defaults(s_options, &self->config, &err) != 0)
        goto fail;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        if (bus_config_set(s_options, &self->config, sets[i][0], sets[i][1], &err) != 0)
            goto fail;
    bus_log_init("bench", "bench", BUS_LOG_WARNING);
    self->base = event_base_new();
    self->node =
        self->base ? bus_node_new("bench", &self->config.node, self->base, NULL, 0, &err)
                   : NULL;
    if (!self->node || bus_node_subscribe(self->node, PROTO_SESSION_LIFECYCLE,
                                          s_on_lifecycle, self) != 0)
        goto fail;
    self->timer = event_new(self->base, -1, EV_PERSIST, s_on_check, self);
    struct timeval tv = {0, BENCH_CHECK_MS * 1000};
    if (!self->timer || event_add(self->timer, &tv) != 0 ||
        bus_node_start(self->node) != 0)
        goto fail;
    return true;
fail:
    fprintf(stderr, "bench_scheduler: the bench's node did not start: %s\n", err.detail);
    return false;
}

static void
s_node_stop(bench_t *self)
{
    if (self->timer)
        event_free(self->timer);
    self->timer = NULL;
    bus_node_destroy(&self->node);
    if (self->base)
        event_base_free(self->base);
    self->base = NULL;
    bus_config_clear(s_options, &self->config);
}

int
main(void)
{
    bench_t bench = {0};
    bench_t *self = &bench;
    self->agents = s_env_int("BENCH_AGENTS", BENCH_AGENTS_DEFAULT, 1,
                             BENCH_FLEET_MAX * BENCH_FLEETS_MAX);
    self->sessions = s_env_int("BENCH_SESSIONS", BENCH_SESSIONS_DEFAULT, 1, 10000000);
    self->window = s_env_int("BENCH_WINDOW", BENCH_WINDOW_DEFAULT, 1, 100000);
    self->heartbeat_ms = s_env_int("BENCH_HEARTBEAT_MS", BENCH_HEARTBEAT_MS, 50, 60000);
    self->sent_us = calloc((size_t) self->sessions, sizeof *self->sent_us);
    self->scheduled_us = calloc((size_t) self->sessions, sizeof *self->scheduled_us);
    self->started_us = calloc((size_t) self->sessions, sizeof *self->started_us);
    self->dir = harness_tmpdir("bench-sched");
    const char *sched_ns = getenv("BENCH_SCHED_NETNS");
    if (sched_ns && *sched_ns && s_enter_netns(sched_ns) != 0)
        return 1;
    printf("bench_scheduler: %d agents, %d sessions, window %d, binaries in %s\n",
           self->agents, self->sessions, self->window, harness_bindir());
    fflush(stdout);
    bool ok = self->sent_us && self->scheduled_us && self->started_us && self->dir &&
              s_start_scheduler(self) && s_start_fleets(self) && s_node_start(self);
    bool started = ok;
    if (ok) {
        self->phase = PHASE_AGENTS;
        self->phase_started_us = s_now_us();
        bus_node_run(self->node); //  until done, or SIGINT/SIGTERM
        ok = !self->failed && self->phase == PHASE_DONE;
        if (self->phase == PHASE_DONE) {
            s_show_cpu(self);
            s_report(self);
        }
    }
    s_node_stop(self);
    //  Ctrl-C reached the services too: how they end is no news then.
    bool interrupted = started && !self->failed && self->phase != PHASE_DONE;
    bool clean = s_stop_all(self, interrupted);
    bool complete = ok && self->scheduled == self->sessions;
    if (ok && !complete)
        fprintf(stderr, "bench_scheduler: %d of %d sessions scheduled\n", self->scheduled,
                self->sessions);
    if (interrupted)
        fprintf(stderr, "bench_scheduler: interrupted\n");
    else if (self->dir && (!complete || !clean))
        s_show_logs(self);
    if (self->dir && getenv("BENCH_KEEP"))
        fprintf(stderr, "bench_scheduler: logs kept in %s\n", self->dir);
    else if (self->dir)
        harness_rmdir(self->dir);
    free(self->dir);
    free(self->sent_us);
    free(self->scheduled_us);
    free(self->started_us);
    return complete && clean ? 0 : 1;
}
