/*  =========================================================================
    restart_faults_test - each service killed (SIGKILL) while 40 sessions
    are being created through the HTTP API, and restarted as an operator's
    supervisor would: the same binary, the same config/<service>.yaml that
    `make run` uses, the same command line. The six run as deploy/run-local
    starts them; the command lines override only what must differ on a
    shared test machine: state directories, the ports (free ones, fixed so
    that a restart comes back on the same: hub, API, storage HTTP, each
    RPC endpoint), the agent's bridge and subnet, its images and its cpu
    count (the images ask for one cpu each, and 40 must fit).

    A round: 40 POST /session (enqueueOnly) from four clients at once,
    paced over about a second; the service is killed once a third of them
    were answered, the agent is starting containers and a create is in
    flight (so the kill meets a request, not the gap between two), and
    restarted at once while the rest go on. The
    operator's setup first lets one keypair hold 40 sessions and poll
    freely (policy and rate limit). Within two minutes every session the
    gateway answered 201 must be RUNNING, or ended (TERMINATED, CANCELLED)
    with a status_info reason; no live session of the round may be anything
    but RUNNING (one whose create got no answer may be absent, not stuck);
    the agent's runc must run exactly the RUNNING ones. Then DELETE of
    every live session must end them all, with no container, kernel
    directory, mount, address, veth, network namespace or cgroup left.
    After the restart and after DELETE the scheduler's ledger must hold
    (`backplane-scheduler check-ledger`: no allocation left by a lost
    kernel, the agent's report equal to the ledger). One round per
    service; the scheduler and the agent again once every create was
    answered (the agent still working through the placed kernels); the
    scheduler, the agent and the gateway killed while the sessions are
    being deleted (a DELETE left unanswered is asked again, as a client
    would); then all six killed in one burst and restarted in run-local's
    order. Last, every process stops with SIGTERM,
    exit 0, and no log of any run holds a sanitizer report. Needs root,
    runc, umoci and tini; skips otherwise.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <assert.h>
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gateway_client.h"
#include "t.h"

#define READY_MS  30000
#define STOP_MS   15000
#define SETTLE_MS 120000 //  the bound: settled two minutes after the restart
#define SESSIONS  40
#define KILL_AT   (SESSIONS / 3) //  creates answered before the kill
#define CLIENTS   4              //  creates in flight at once
#define PACE_MS   100            //  between one client's creates: ~1 s of creates
#define AIM_MS    3000           //  how long the kill waits for a create in flight
#define POLL_MS   250
#define LEDGER_MS 10000 //  a few of the agent's heartbeats
#define IMAGE     "local.backplane/library/busybox:latest"

//  In deploy/run-local's order: the scheduler hosts the hub and the registry.
enum { SCHEDULER, GATEWAY, STORAGE, WSPROXY, ACCOUNTING, AGENT, SERVICES };
static const char *s_names[SERVICES] = {"scheduler", "gateway",    "storage-proxy",
                                        "wsproxy",   "accounting", "agent"};

#define OPTS_MAX 12 //  --set pairs of one command line
#define ARGS_MAX (2 * OPTS_MAX + 3)
typedef struct {
    harness_proc_t proc;
    int starts;                 //  its log is <dir>/<service>-<starts>.log
    char opts[OPTS_MAX][1024];  //  the --set values
    const char *argv[ARGS_MAX]; //  the command line, the same at every start
} service_t;

static service_t s_svc[SERVICES];
static client_platform_t s_p; //  only dir, api and super: the processes are ours
static char s_bridge[16], s_runc_root[600];
static const char *s_cidr; //  the agent's kernels' subnet, the same after a restart

//  One create of a round: its name, what the gateway answered.
typedef struct {
    char name[32];
    char id[40]; //  sessionId of a 201, else empty
    int status;  //  HTTP status, -1 when no answer came
} create_t;

static create_t s_creates[SESSIONS];
static atomic_int s_next, s_answered, s_in_flight;
static int s_round;

//  ---------------------------------------------------------------------------
//  The services, started as run-local starts them

static void
s_set(service_t *svc, int *argc, int *opt, const char *fmt, const char *value)
{
    assert(*opt < OPTS_MAX);
    snprintf(svc->opts[*opt], sizeof svc->opts[*opt], fmt, value);
    svc->argv[(*argc)++] = "--set";
    svc->argv[(*argc)++] = svc->opts[(*opt)++];
}

//  The fixed ports: the hub's three, the API, the storage-proxy's HTTP, and
//  each service's RPC endpoint, so that a service comes back where it was
//  (a port another process took meanwhile would be another fault).
enum {
    PORT_PUB,
    PORT_SUB,
    PORT_REGISTRY,
    PORT_API,
    PORT_HTTP,
    PORT_RPC,
    PORTS = PORT_RPC + SERVICES
};

//  The command line of each service, fixed once: a restart repeats it.
static void
s_command_lines(const int ports[PORTS])
{
    char hub[3][64], api[64], http[64];
    for (int i = 0; i < 3; i++)
        snprintf(hub[i], sizeof hub[i], "tcp://127.0.0.1:%d", ports[PORT_PUB + i]);
    snprintf(api, sizeof api, "127.0.0.1:%d", ports[PORT_API]);
    snprintf(http, sizeof http, "127.0.0.1:%d", ports[PORT_HTTP]);
    for (int s = 0; s < SERVICES; s++) {
        service_t *svc = &s_svc[s];
        int argc = 0, opt = 0;
        char path[600];
        static char configs[SERVICES][64];
        snprintf(configs[s], sizeof configs[s], "config/%s.yaml", s_names[s]);
        svc->argv[argc++] = "--config";
        svc->argv[argc++] = configs[s];
        snprintf(path, sizeof path, "%s/%s", s_p.dir, s_names[s]);
        s_set(svc, &argc, &opt, "node.state_dir=%s", path);
        s_set(svc, &argc, &opt, "bus.hub.publish=%s", hub[0]);
        s_set(svc, &argc, &opt, "bus.hub.subscribe=%s", hub[1]);
        s_set(svc, &argc, &opt, "bus.hub.registry=%s", hub[2]);
        char rpc[64];
        snprintf(rpc, sizeof rpc, "tcp://127.0.0.1:%d", ports[PORT_RPC + s]);
        s_set(svc, &argc, &opt, "bus.rpc_bind=%s", rpc);
        snprintf(path, sizeof path, "%s/storage.secret", s_p.dir);
        if (s == GATEWAY) {
            s_set(svc, &argc, &opt, "api.listen=%s", api);
            s_set(svc, &argc, &opt, "web.listen=%s", "127.0.0.1:0");
            s_set(svc, &argc, &opt, "vfolders.token_secret_file=%s", path);
        } else if (s == STORAGE) {
            s_set(svc, &argc, &opt, "http.listen=%s", http);
            s_set(svc, &argc, &opt, "http.token_secret_file=%s", path);
        } else if (s == WSPROXY) {
            //  nothing here asks its /v2 API: any free port, after a restart too
            s_set(svc, &argc, &opt, "wsproxy.listen=%s", "127.0.0.1:0");
        } else if (s == AGENT) {
            snprintf(path, sizeof path, "%s/images", s_p.dir);
            s_set(svc, &argc, &opt, "agent.images_dir=%s", path);
            s_set(svc, &argc, &opt, "agent.network.bridge=%s", s_bridge);
            if (!s_cidr)
                s_cidr = harness_subnet();
            s_set(svc, &argc, &opt, "agent.network.cidr=%s", s_cidr ? s_cidr : "");
            s_set(svc, &argc, &opt, "agent.slots.cpu=%s", "64");
        }
        svc->argv[argc] = NULL;
    }
}

static bool
s_start(int s)
{
    service_t *svc = &s_svc[s];
    char log[80];
    snprintf(log, sizeof log, "%s-%d", s_names[s], ++svc->starts);
    if (harness_start(&svc->proc, s_p.dir, log, s_names[s], svc->argv) != 0)
        return false;
    if (!harness_wait_line(&svc->proc, "ready ", READY_MS, NULL, 0)) {
        fprintf(stderr, "# %s did not start: see %s\n", s_names[s], svc->proc.log_path);
        return false;
    }
    return true;
}

//  ---------------------------------------------------------------------------
//  Requests

static json_t *
s_request(const char *method, const char *path, const char *body, int *status)
{
    char *text = NULL;
    *status = client_signed(&s_p, &s_p.super, method, path, body, NULL, &text, NULL);
    json_t *parsed = text && *text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    return parsed;
}

//  Runs fn(0..count-1) on CLIENTS threads at once.
typedef void(item_fn)(int index);
static item_fn *s_item_fn;
static int s_item_count;

static void *
s_worker(void *arg)
{
    (void) arg;
    for (int i; (i = atomic_fetch_add(&s_next, 1)) < s_item_count;)
        s_item_fn(i);
    return NULL;
}

static void
s_parallel_start(item_fn *fn, int count, pthread_t threads[CLIENTS])
{
    s_item_fn = fn;
    s_item_count = count;
    atomic_store(&s_next, 0);
    for (int t = 0; t < CLIENTS; t++)
        pthread_create(&threads[t], NULL, s_worker, NULL);
}

static void
s_parallel_join(pthread_t threads[CLIENTS])
{
    for (int t = 0; t < CLIENTS; t++)
        pthread_join(threads[t], NULL);
}

static void
s_create_one(int i)
{
    create_t *c = &s_creates[i];
    char body[512];
    snprintf(body, sizeof body,
             "{\"name\": \"%s\", \"image\": \"" IMAGE "\", \"enqueueOnly\": true,"
             " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"64m\"}},"
             " \"group\": \"default\", \"domain\": \"default\"}",
             c->name);
    int status;
    atomic_fetch_add(&s_in_flight, 1);
    json_t *r = s_request("POST", "/session", body, &status);
    atomic_fetch_sub(&s_in_flight, 1);
    c->status = status;
    const char *id = json_string_value(json_object_get(r, "sessionId"));
    if (status == 201 && id)
        snprintf(c->id, sizeof c->id, "%s", id);
    json_decref(r);
    atomic_fetch_add(&s_answered, 1);
    harness_pause_ms(PACE_MS);
}

//  The live sessions (every status but the ended ones), as {id: item}.
static json_t *
s_live(void)
{
    json_t *r = client_gql(
        &s_p, &s_p.super,
        "query($s: String) { compute_session_list(limit: 100, offset: 0, status: $s) {"
        " items { id name status status_info } total_count } }",
        json_pack("{s:s}", "s",
                  "PENDING,SCHEDULED,PREPARING,PULLING,PREPARED,CREATING,RUNNING,"
                  "RESTARTING,RESIZING,SUSPENDED,TERMINATING,ERROR"));
    json_t *items = json_object_get(
        json_object_get(json_object_get(r, "data"), "compute_session_list"), "items");
    json_t *live = NULL;
    if (json_is_array(items)) {
        live = json_object();
        size_t index;
        json_t *item;
        json_array_foreach(items, index, item)
            json_object_set(live, json_string_value(json_object_get(item, "id")), item);
    }
    json_decref(r);
    return live;
}

//  How many kernels the agent has (directories under its state), started
//  or being started.
static int
s_kernel_dirs(void)
{
    char path[600];
    snprintf(path, sizeof path, "%s/agent/kernels", s_p.dir);
    DIR *dir = opendir(path);
    int count = 0;
    struct dirent *entry;
    while (dir && (entry = readdir(dir)))
        count += *entry->d_name != '.';
    if (dir)
        closedir(dir);
    return count;
}

//  How many containers the agent's runc runs.
static int
s_containers(void)
{
    char command[700];
    snprintf(command, sizeof command, "runc --root %s list -q 2>/dev/null", s_runc_root);
    FILE *out = popen(command, "r");
    if (!out)
        return -1;
    int count = 0;
    char line[256];
    while (fgets(line, sizeof line, out))
        if (*line != '\n')
            count++;
    pclose(out);
    return count;
}

static bool
s_ended(const char *status)
{
    return status &&
           (strcmp(status, "TERMINATED") == 0 || strcmp(status, "CANCELLED") == 0);
}

//  One look at the round: true when every session is settled (or, with
//  over, ended) and the containers are the RUNNING ones. With report,
//  prints every session that is not.
static bool
s_check(bool over, bool report, int *running_p)
{
    json_t *live = s_live();
    if (!live) {
        if (report)
            fprintf(stderr, "# the gateway did not list the sessions\n");
        return false;
    }
    bool ok = true;
    int running = 0;
    const char *id;
    json_t *item;
    json_object_foreach(live, id, item)
    {
        const char *status = json_string_value(json_object_get(item, "status"));
        bool is_running = status && strcmp(status, "RUNNING") == 0;
        running += is_running;
        if (over || !is_running) {
            ok = false;
            if (report)
                fprintf(stderr, "# round %d: session %s (%s) is %s info=%s\n", s_round,
                        json_string_value(json_object_get(item, "name")), id, status,
                        json_string_value(json_object_get(item, "status_info")));
        }
    }
    //  Every create answered 201: live (checked above) or ended with a reason.
    for (int i = 0; i < SESSIONS; i++) {
        create_t *c = &s_creates[i];
        if (!*c->id || json_object_get(live, c->id))
            continue;
        char path[80];
        snprintf(path, sizeof path, "/session/%s", c->id);
        int status;
        json_t *r = s_request("GET", path, NULL, &status);
        const char *st = json_string_value(json_object_get(r, "status"));
        const char *info = json_string_value(json_object_get(r, "statusInfo"));
        if (status != 200 || !s_ended(st) || !info || !*info) {
            ok = false;
            if (report)
                fprintf(stderr,
                        "# round %d: session %s (%s) answered 201: HTTP %d %s info=%s\n",
                        s_round, c->name, c->id, status, st ? st : "-",
                        info ? info : "-");
        }
        json_decref(r);
    }
    int containers = s_containers();
    if (containers != running) {
        ok = false;
        if (report)
            fprintf(stderr, "# round %d: %d containers for %d RUNNING sessions\n",
                    s_round, containers, running);
    }
    json_decref(live);
    if (running_p)
        *running_p = running;
    return ok;
}

//  Waits up to SETTLE_MS for s_check; asserts it with a report if not.
static bool
s_settle(bool over, const char *what)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int running = 0;
    bool ok;
    long long took;
    do {
        ok = s_check(over, false, &running);
        clock_gettime(CLOCK_MONOTONIC, &now);
        took = (now.tv_sec - start.tv_sec) * 1000LL +
               (now.tv_nsec - start.tv_nsec) / 1000000;
        if (!ok)
            harness_pause_ms(POLL_MS);
    } while (!ok && took < SETTLE_MS);
    fprintf(stderr, "# round %d %s: %s in %lld ms, %d running\n", s_round, what,
            ok ? "settled" : "NOT settled", took, running);
    if (!ok)
        s_check(over, true, NULL);
    return ok;
}

//  The ids DELETE goes to.
static char s_doomed[2 * SESSIONS][40];
static int s_doomed_status[2 * SESSIONS]; //  HTTP status of its DELETE, -1: none

static void
s_delete_one(int i)
{
    char path[80];
    snprintf(path, sizeof path, "/session/%s", s_doomed[i]);
    int status;
    atomic_fetch_add(&s_in_flight, 1);
    json_t *r = s_request("DELETE", path, NULL, &status);
    atomic_fetch_sub(&s_in_flight, 1);
    s_doomed_status[i] = status;
    if (status != 200)
        fprintf(stderr, "# DELETE %s: %d\n", s_doomed[i], status);
    json_decref(r);
    atomic_fetch_add(&s_answered, 1);
}

//  Nothing of the agent's kernels left on the host: no kernel directory,
//  mount (but the spare kernel dirs' the agent keeps), address or veth on
//  the bridge, and for every kernel any log named, no network namespace or
//  cgroup.
static bool
s_host_clean(void)
{
    char command[2048];
    snprintf(
        command, sizeof command,
        "d=%s; test -z \"$(find $d/agent/kernels $d/agent/net -mindepth 1 -maxdepth 1"
        " ! -name '.*' 2>/dev/null)\" ||"
        " { echo '# kernels or addresses left in' $d/agent >&2; exit 1; };"
        " ! grep \"$d/agent/kernels/\" /proc/self/mountinfo | grep -qv /kernels/.spare- "
        "||"
        " { echo '# kernel mounts left' >&2; exit 1; };"
        " test \"$(ip -o link show master %s 2>/dev/null | wc -l)\" = 0 ||"
        " { echo '# veths left on %s' >&2; exit 1; };"
        " for k in $(grep -ho 'kernel=[0-9a-f-]\\{36\\}' $d/*.log | cut -c8- | sort -u);"
        " do if test -e /run/netns/bp-$k || ls -d /sys/fs/cgroup/*/backplane/$k"
        " /sys/fs/cgroup/backplane/$k 2>/dev/null | grep -q .; then"
        " echo \"# kernel $k left its netns or cgroup:\" >&2; ls -d /run/netns/bp-$k"
        " /sys/fs/cgroup/*/backplane/$k >&2; exit 1; fi; done",
        s_p.dir, s_bridge, s_bridge);
    return harness_shell(command) == 0;
}

//  The scheduler's ledger holds (backplane-scheduler check-ledger on its
//  database, beside the running scheduler): allocation rows only for live
//  kernels, the aggregates equal to them, and what the agent reports at
//  rest equal to the ledger. Its heartbeat may trail what just changed, so
//  this waits up to LEDGER_MS for the checks to hold.
static bool
s_ledger_holds(const char *what)
{
    char command[1600];
    snprintf(command, sizeof command,
             "%s/backplane-scheduler --config config/scheduler.yaml"
             " --set node.state_dir=%s/scheduler check-ledger >%s/ledger.log 2>&1",
             harness_bindir(), s_p.dir, s_p.dir);
    for (int waited = 0;; waited += POLL_MS) {
        if (harness_shell(command) == 0)
            return true;
        if (waited >= LEDGER_MS)
            break;
        harness_pause_ms(POLL_MS);
    }
    fprintf(stderr, "# round %d %s: the ledger does not hold:\n", s_round, what);
    snprintf(command, sizeof command, "sed 's/^/#   /' %s/ledger.log >&2", s_p.dir);
    (void) harness_shell(command);
    return false;
}

//  ---------------------------------------------------------------------------
//  A round

//  Kills the victims once kill_at requests of the running batch (creates or
//  deletes) were answered and the agent is busy, and restarts them at once.
static void
s_kill_midway(const int *victims, int count, int kill_at, bool *restarted)
{
    //  Mid-way: a third answered, the agent busy starting containers, and
    //  (for up to AIM_MS more) a create in flight, so that the kill lands
    //  while the platform is answering one rather than between two.
    long long waited = 0, aimed = -1;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        waited = (now.tv_sec - start.tv_sec) * 1000LL +
                 (now.tv_nsec - start.tv_nsec) / 1000000;
        bool midway = atomic_load(&s_answered) >= kill_at &&
                      (s_kernel_dirs() >= KILL_AT / 3 || waited >= READY_MS);
        if (midway && aimed < 0)
            aimed = waited;
        if (midway && (atomic_load(&s_in_flight) > 0 || kill_at >= SESSIONS ||
                       waited - aimed >= AIM_MS))
            break;
        harness_pause_ms(1);
    }
    fprintf(stderr,
            "# round %d: kill after %lld ms: %d answered, %d in flight, %d kernels\n",
            s_round, waited, atomic_load(&s_answered), atomic_load(&s_in_flight),
            s_kernel_dirs());
    for (int v = 0; v < count; v++)
        harness_kill(&s_svc[victims[v]].proc);
    //  The supervisor restarts at once, in run-local's order.
    for (int v = 0; v < count; v++)
        *restarted = s_start(victims[v]) && *restarted;
}

//  A round: 40 creates, the victims killed once kill_at of them were
//  answered (SESSIONS: once all were), or with kill_at -1 while every live
//  session is deleted.
static void
s_round_run(const int *victims, int count, int kill_at)
{
    s_round++;
    memset(s_creates, 0, sizeof s_creates);
    for (int i = 0; i < SESSIONS; i++)
        snprintf(s_creates[i].name, sizeof s_creates[i].name, "rf%d-%02d", s_round, i);
    atomic_store(&s_answered, 0);
    atomic_store(&s_in_flight, 0);
    pthread_t threads[CLIENTS];
    bool restarted = true;
    s_parallel_start(s_create_one, SESSIONS, threads);
    if (kill_at >= 0)
        s_kill_midway(victims, count, kill_at, &restarted);
    s_parallel_join(threads);
    int accepted = 0, refused = 0, unanswered = 0;
    for (int i = 0; i < SESSIONS; i++) {
        accepted += *s_creates[i].id != 0;
        unanswered += s_creates[i].status < 0;
        refused += !*s_creates[i].id && s_creates[i].status >= 0;
    }
    fprintf(stderr, "# round %d (", s_round);
    for (int v = 0; v < count; v++)
        fprintf(stderr, "%s%s", v ? " " : "", s_names[victims[v]]);
    fprintf(stderr, " killed%s): %d created, %d refused, %d unanswered\n",
            kill_at < 0 ? " once the sessions are being deleted" : "", accepted, refused,
            unanswered);
    T_ASSERT(accepted > 0);
    bool settled = s_settle(false, "after the restart");
    bool ledger = s_ledger_holds("after the restart");
    //  Destroy every live session, whether its create was answered or not.
    json_t *live = s_live();
    int doomed = 0;
    const char *id;
    json_t *item;
    json_object_foreach(live, id, item)
    {
        if (doomed < 2 * SESSIONS)
            snprintf(s_doomed[doomed++], sizeof s_doomed[0], "%s", id);
    }
    json_decref(live);
    atomic_store(&s_answered, 0);
    atomic_store(&s_in_flight, 0);
    s_parallel_start(s_delete_one, doomed, threads);
    if (kill_at < 0)
        s_kill_midway(victims, count, doomed / 3, &restarted);
    s_parallel_join(threads);
    //  A client whose DELETE got no answer (the gateway was down) or an
    //  error asks again until one comes.
    for (int tries = 0; kill_at < 0 && tries < READY_MS / POLL_MS; tries++) {
        bool again = false;
        for (int i = 0; i < doomed; i++)
            if (s_doomed_status[i] < 0 || s_doomed_status[i] >= 500) {
                again = true;
                s_delete_one(i);
            }
        if (!again)
            break;
        harness_pause_ms(POLL_MS);
    }
    bool over = s_settle(true, "after DELETE");
    bool ledger_over = s_ledger_holds("after DELETE");
    bool clean = s_host_clean();
    if (!clean)
        fprintf(stderr, "# round %d: kernels left on the host (see %s/agent)\n", s_round,
                s_p.dir);
    T_ASSERT(restarted);
    T_ASSERT(settled);
    T_ASSERT(ledger);
    T_ASSERT(over);
    T_ASSERT(ledger_over);
    T_ASSERT(clean);
}

//  ---------------------------------------------------------------------------
//  Tests

static void
test_start(void)
{
    memset(&s_p, 0, sizeof s_p);
    s_p.dir = harness_tmpdir("restart");
    T_ASSERT(s_p.dir);
    snprintf(s_bridge, sizeof s_bridge, "bpr%d", (int) (getpid() % 100000));
    snprintf(s_runc_root, sizeof s_runc_root, "%s/agent/runc", s_p.dir);
    T_EQ_INT(harness_busybox_images(s_p.dir), 0);
    //  The secret the gateway and the storage-proxy share, as run-local makes it.
    char path[600];
    snprintf(path, sizeof path, "%s/storage.secret", s_p.dir);
    FILE *secret = fopen(path, "w");
    T_ASSERT(secret);
    fputs("restart-faults-secret-0123456789abcdef\n", secret);
    fclose(secret);
    chmod(path, 0600);
    int ports[PORTS];
    for (int i = 0; i < PORTS; i++) {
        ports[i] = harness_free_port();
        T_ASSERT(ports[i] > 0);
    }
    s_command_lines(ports);
    snprintf(s_p.api, sizeof s_p.api, "127.0.0.1:%d", ports[PORT_API]);
    for (int s = 0; s < SERVICES; s++)
        T_ASSERT(s_start(s));
    snprintf(path, sizeof path, "%s/gateway/admin.env", s_p.dir);
    FILE *env = fopen(path, "r");
    T_ASSERT(env);
    char line[512];
    while (fgets(line, sizeof line, env)) {
        sscanf(line, "export BACKEND_ACCESS_KEY=%31s", s_p.super.access_key);
        sscanf(line, "export BACKEND_SECRET_KEY=%63s", s_p.super.secret_key);
    }
    fclose(env);
    T_ASSERT(*s_p.super.access_key);
    //  The operator's setup: room for 40 sessions of one keypair, and a
    //  rate limit above what the test's polling asks.
    json_t *r = client_gql(&s_p, &s_p.super,
                           "mutation { modify_keypair_resource_policy(name: \"default\","
                           " props: {max_concurrent_sessions: 100}) { ok msg } }",
                           NULL);
    T_ASSERT(client_mutation_ok(r, "modify_keypair_resource_policy"));
    json_decref(r);
    char query[256];
    snprintf(query, sizeof query,
             "mutation { modify_keypair(access_key: \"%s\", props: {rate_limit: 1000000})"
             " { ok msg } }",
             s_p.super.access_key);
    r = client_gql(&s_p, &s_p.super, query, NULL);
    T_ASSERT(client_mutation_ok(r, "modify_keypair"));
    json_decref(r);
    //  The gateway resolves images from its catalogue, fed by the agent.
    bool listed = false;
    for (int tries = 0; !listed && tries < READY_MS / 100; tries++) {
        r = client_gql(&s_p, &s_p.super, "{ images { name } }", NULL);
        char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
        listed = text && strstr(text, "library/busybox");
        free(text);
        json_decref(r);
        if (!listed)
            harness_pause_ms(100);
    }
    T_ASSERT(listed);
}

#define ROUND(name, victim)                                                              \
    static void test_kill_##name(void)                                                   \
    {                                                                                    \
        const int victims[] = {victim};                                                  \
        s_round_run(victims, 1, KILL_AT);                                                \
    }
ROUND(scheduler, SCHEDULER)
ROUND(agent, AGENT)
ROUND(gateway, GATEWAY)
ROUND(storage_proxy, STORAGE)
ROUND(accounting, ACCOUNTING)
ROUND(wsproxy, WSPROXY)

//  Killed once every create was answered, while the agent still works
//  through the kernels the passes placed.
static void
test_kill_scheduler_late(void)
{
    const int victims[] = {SCHEDULER};
    s_round_run(victims, 1, SESSIONS);
}

static void
test_kill_agent_late(void)
{
    const int victims[] = {AGENT};
    s_round_run(victims, 1, SESSIONS);
}

//  Killed while the sessions are being destroyed.
static void
test_kill_scheduler_deleting(void)
{
    const int victims[] = {SCHEDULER};
    s_round_run(victims, 1, -1);
}

static void
test_kill_agent_deleting(void)
{
    const int victims[] = {AGENT};
    s_round_run(victims, 1, -1);
}

static void
test_kill_gateway_deleting(void)
{
    const int victims[] = {GATEWAY};
    s_round_run(victims, 1, -1);
}

static void
test_kill_all_six(void)
{
    const int victims[] = {SCHEDULER, GATEWAY, STORAGE, WSPROXY, ACCOUNTING, AGENT};
    s_round_run(victims, SERVICES, KILL_AT);
}

static void
test_stop_cleanly(void)
{
    bool clean = true;
    for (int s = SERVICES - 1; s >= 0; s--) {
        int status = harness_stop(&s_svc[s].proc, STOP_MS);
        if (status != 0) {
            fprintf(stderr, "# %s exit=%d log=%s\n", s_names[s], status,
                    s_svc[s].proc.log_path);
            clean = false;
        }
    }
    //  Every run's log, the killed ones' included.
    char command[700];
    snprintf(command, sizeof command,
             "grep -l -E 'Sanitizer|runtime error:' %s/*.log >&2", s_p.dir);
    bool reports = harness_shell(command) == 0;
    T_ASSERT(clean);
    T_ASSERT(!reports);
}

int
main(void)
{
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    T_RUN(test_start);
    if (!t_failures) {
        T_RUN(test_kill_scheduler);
        T_RUN(test_kill_agent);
        T_RUN(test_kill_gateway);
        T_RUN(test_kill_storage_proxy);
        T_RUN(test_kill_accounting);
        T_RUN(test_kill_wsproxy);
        T_RUN(test_kill_scheduler_late);
        T_RUN(test_kill_agent_late);
        T_RUN(test_kill_scheduler_deleting);
        T_RUN(test_kill_agent_deleting);
        T_RUN(test_kill_gateway_deleting);
        T_RUN(test_kill_all_six);
    }
    T_RUN(test_stop_cleanly);
    for (int s = 0; s < SERVICES; s++)
        harness_kill(&s_svc[s].proc);
    //  Whatever failed, no container keeps running (the files stay to see).
    char command[1600];
    snprintf(command, sizeof command,
             "for c in $(runc --root %s list -q 2>/dev/null); do"
             " runc --root %s delete --force $c; done; ip link del %s 2>/dev/null",
             s_runc_root, s_runc_root, s_bridge);
    (void) harness_shell(command);
    if (t_failures || getenv("BACKPLANE_KEEP"))
        fprintf(stderr, "# logs kept in %s\n", s_p.dir);
    else
        harness_rmdir(s_p.dir);
    free(s_p.dir);
    return T_DONE();
}
