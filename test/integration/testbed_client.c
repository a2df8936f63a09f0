/*  =========================================================================
    testbed_client - a deploy/testbed of one test's own, and what the
    testbed tests ask of it

    deploy/testbed makes network namespaces as hosts on a bridge of their
    own and starts the platform's services in them. Each testbed test
    (testbed_test, testbed_ops_test, testbed_wan_test, testbed_faults_test,
    testbed_cluster_test) brings one up on a harness_subnet /24 of its own,
    with a prefix of its own letters and that subnet's number, runs
    deploy/testbed's commands on it (restart, kill, cut, partition,
    add-agent...), asks the gateway from the root namespace as the
    superadmin, and ends with `down`, which must leave nothing behind: this
    file holds all of that, so that each test holds only its cases. It
    asserts nothing itself (test/t.h's state is per test file): each
    function answers, and says on stderr what went wrong.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testbed_client.h"

#define IMAGE "local.backplane/library/busybox:latest"

//  Every testbed's services besides its agents, "host/service".
static const char *const k_services[] = {"control/scheduler", "control/accounting",
                                         "front/gateway", "front/wsproxy",
                                         "storage/storage-proxy"};
#define SERVICE_COUNT (sizeof k_services / sizeof k_services[0])

static bool
s_have(const char *tool)
{
    char command[128];
    snprintf(command, sizeof command, "command -v %s >/dev/null 2>&1", tool);
    return harness_shell(command) == 0;
}

//  ---------------------------------------------------------------------------
//  Whether this machine can run a testbed; the skip plan printed if not.

bool
testbed_can_run(void)
{
    if (harness_can_run_containers() && s_have("ip") && s_have("nsenter") &&
        s_have("python3") && s_have("curl"))
        return true;
    printf("1..0 # SKIP needs root, runc, umoci, tini, ip, nsenter, python3, curl\n");
    return false;
}

//  ---------------------------------------------------------------------------
//  Brings the testbed up on a subnet and prefix of its own.

int
testbed_up(testbed_t *self)
{
    assert(self && self->name && self->letters && self->agents);
    const char *subnet = harness_subnet(); //  "10.240.N.0/24"
    if (!subnet) {
        fprintf(stderr, "# no subnet for the testbed\n");
        return -1;
    }
    harness_subnet_host(subnet, 0, self->net, sizeof self->net); //  "10.240.N."
    self->net[strlen(self->net) - 1] = '\0';
    snprintf(self->prefix, sizeof self->prefix, "%s%s", self->letters,
             strrchr(self->net, '.') + 1);
    //  Namespaces of this prefix can only be a crashed run's (the subnet's
    //  claim is ours): up would refuse them.
    char command[512];
    snprintf(command, sizeof command,
             "for ns in $(ls /run/netns 2>/dev/null); do case $ns in %s-*)"
             " ip netns del $ns 2>/dev/null ;; esac; done;"
             " ip link del %s-lan 2>/dev/null; true",
             self->prefix, self->prefix);
    harness_shell(command);
    self->dir = harness_tmpdir(self->name);
    if (!self->dir) {
        fprintf(stderr, "# no directory for the testbed\n");
        return -1;
    }
    if (harness_busybox_images(self->dir) != 0) {
        fprintf(stderr, "# the busybox images: not made\n");
        return -1;
    }
    if (self->seed) {
        const char *bindir =
            getenv("BACKPLANE_BINDIR") ? getenv("BACKPLANE_BINDIR") : "build/bin";
        char absolute[PATH_MAX], seed[PATH_MAX * 3];
        if (!realpath(bindir, absolute)) {
            fprintf(stderr, "# %s: %s\n", bindir, strerror(errno));
            return -1;
        }
        snprintf(seed, sizeof seed, "cd %s && BINDIR=%s && %s", self->dir, absolute,
                 self->seed);
        if (harness_shell(seed) != 0) {
            fprintf(stderr, "# the seed before up failed: %s\n", self->seed);
            return -1;
        }
    }
    int rc = testbed_run(self, NULL, "up");
    if (rc != 0) {
        fprintf(stderr, "# testbed up: %d (see %s/testbed.log)\n", rc, self->dir);
        return -1;
    }
    self->up = true;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/front/gateway/admin.env", self->dir);
    if (!client_read_admin_env(path, &self->p.super)) {
        fprintf(stderr, "# %s: no superadmin\n", path);
        return -1;
    }
    snprintf(self->p.api, sizeof self->p.api, "%s.12:8081", self->net);
    return 0;
}

//  ---------------------------------------------------------------------------
//  Runs a deploy/testbed command on the testbed.

int
testbed_run(testbed_t *self, const char *env, const char *command)
{
    assert(self && self->dir && command);
    char line[PATH_MAX * 3];
    snprintf(line, sizeof line,
             "%s %s TESTBED_PREFIX=%s TESTBED_NET=%s BACKPLANE_IMAGES=%s/images"
             " BACKPLANE_BINDIR=%s deploy/testbed %s %s >>%s/testbed.log 2>&1",
             self->env ? self->env : "", env ? env : "", self->prefix, self->net,
             self->dir, harness_bindir(), command, self->dir, self->dir);
    return harness_shell(line);
}

//  ---------------------------------------------------------------------------
//  A signed request as the superadmin.

json_t *
testbed_request(
    testbed_t *self, const char *method, const char *path, const char *body, int *status)
{
    char *text = NULL;
    *status =
        client_signed(&self->p, &self->p.super, method, path, body, NULL, &text, NULL);
    json_t *parsed = text ? json_loads(text, 0, NULL) : NULL;
    if (!parsed && text && *text)
        fprintf(stderr, "# %s %s: %d %s\n", method, path, *status, text);
    free(text);
    return parsed;
}

//  ---------------------------------------------------------------------------
//  A scheduler operation on agents.

bool
testbed_operation(testbed_t *self, const char *op, const char *args)
{
    char body[256];
    snprintf(body, sizeof body, "{\"op\": \"%s\", \"args\": [%s]}", op, args);
    int status;
    json_t *r =
        testbed_request(self, "POST", "/manager/scheduler/operation", body, &status);
    json_decref(r);
    return status == 200 || status == 204;
}

//  ---------------------------------------------------------------------------
//  DELETE /session/{name}.

int
testbed_destroy_session(testbed_t *self, const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s", name);
    int status;
    json_t *r = testbed_request(self, "DELETE", path, NULL, &status);
    json_decref(r);
    return status;
}

//  ---------------------------------------------------------------------------
//  A session of 1 CPU, running: its id, kernel and agent.

bool
testbed_session(testbed_t *self,
                const char *name,
                const char *sgroup,
                char *id,
                char *kernel,
                char *agent)
{
    char body[512];
    snprintf(
        body, sizeof body,
        "{\"name\": \"%s\", \"image\": \"" IMAGE "\", \"enqueueOnly\": true,"
        " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"}%s%s%s},"
        " \"type\": \"interactive\", \"group\": \"default\", \"domain\": \"default\"}",
        name, sgroup ? ", \"scaling_group\": \"" : "", sgroup ? sgroup : "",
        sgroup ? "\"" : "");
    *id = *kernel = *agent = '\0';
    if (!client_session_running(&self->p, &self->p.super, body, name, id))
        return false;
    char query[256];
    snprintf(query, sizeof query,
             "{ compute_session(id: \"%s\") { containers { id agent } } }", id);
    json_t *r = client_gql(&self->p, &self->p.super, query, NULL);
    json_t *container = json_array_get(
        json_object_get(json_object_get(json_object_get(r, "data"), "compute_session"),
                        "containers"),
        0);
    const char *k = json_string_value(json_object_get(container, "id"));
    const char *a = json_string_value(json_object_get(container, "agent"));
    snprintf(kernel, TESTBED_ID_SIZE, "%s", k ? k : "");
    snprintf(agent, TESTBED_ID_SIZE, "%s", a ? a : "");
    json_decref(r);
    return *kernel && *agent;
}

//  ---------------------------------------------------------------------------
//  Whether a session answers `echo word`.

bool
testbed_answers(testbed_t *self, const char *name, const char *word)
{
    char path[128], body[256];
    snprintf(path, sizeof path, "/session/%s", name);
    snprintf(body, sizeof body,
             "{\"mode\": \"query\", \"runId\": \"tb\", \"code\": \"echo %s\"}", word);
    int status;
    json_t *r = testbed_request(self, "POST", path, body, &status);
    char *console = json_dumps(json_object_get(json_object_get(r, "result"), "console"),
                               JSON_COMPACT);
    bool ok = status == 200 && console && strstr(console, word);
    if (!ok)
        fprintf(stderr, "# %s: no \"%s\" (%d): %s\n", name, word, status,
                console ? console : "");
    free(console);
    json_decref(r);
    return ok;
}

//  ---------------------------------------------------------------------------
//  An agent's status and address.

void
testbed_agent(testbed_t *self,
              const char *id,
              char *status,
              size_t status_size,
              char *addr,
              size_t addr_size)
{
    json_t *r = client_gql(&self->p, &self->p.super,
                           "{ agent_list(limit: 20, offset: 0, status:"
                           " \"ALIVE,LOST,TERMINATED\") { items { id status addr } } }",
                           NULL);
    json_t *items = json_object_get(
        json_object_get(json_object_get(r, "data"), "agent_list"), "items");
    snprintf(status, status_size, "%s", "");
    if (addr)
        snprintf(addr, addr_size, "%s", "");
    size_t index;
    json_t *agent;
    json_array_foreach(items, index, agent)
    {
        const char *agent_id = json_string_value(json_object_get(agent, "id"));
        const char *st = json_string_value(json_object_get(agent, "status"));
        const char *ad = json_string_value(json_object_get(agent, "addr"));
        if (agent_id && st && strcmp(agent_id, id) == 0) {
            snprintf(status, status_size, "%s", st);
            if (addr)
                snprintf(addr, addr_size, "%s", ad ? ad : "");
        }
    }
    json_decref(r);
}

//  ---------------------------------------------------------------------------
//  Waits for an agent's status.

bool
testbed_agent_becomes(testbed_t *self, const char *id, const char *status, int within_ms)
{
    char now[32] = "";
    for (int waited = 0; waited <= within_ms; waited += 200) {
        testbed_agent(self, id, now, sizeof now, NULL, 0);
        if (strcmp(now, status) == 0)
            return true;
        harness_pause_ms(200);
    }
    fprintf(stderr, "# agent %s: %s, not %s\n", id, now, status);
    return false;
}

//  ---------------------------------------------------------------------------
//  Whether /healthz names a service up at its host's address.

bool
testbed_health_names(testbed_t *self, const char *service, const char *node, int number)
{
    char *text = NULL;
    harness_http(self->p.api, "GET", "/healthz", NULL, &text, CLIENT_HTTP_MS);
    json_t *health = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "tcp://%s.%d:", self->net, number);
    bool found = false;
    size_t index;
    json_t *s;
    json_array_foreach(json_object_get(health, "services"), index, s)
    {
        const char *sv = json_string_value(json_object_get(s, "service"));
        const char *nd = json_string_value(json_object_get(s, "node"));
        const char *st = json_string_value(json_object_get(s, "status"));
        const char *rpc = json_string_value(json_object_get(s, "rpc"));
        if (sv && nd && strcmp(sv, service) == 0 && strcmp(nd, node) == 0)
            found = number == 0 ||
                    (st && strcmp(st, "up") == 0 && rpc && strstr(rpc, prefix) == rpc);
    }
    json_decref(health);
    return found;
}

//  ---------------------------------------------------------------------------
//  Containers named kernel in the agents' runc states.

int
testbed_containers(testbed_t *self, const char *kernel)
{
    char agents[1024] = "";
    for (const char *const *a = self->agents; *a; a++) {
        size_t used = strlen(agents);
        snprintf(agents + used, sizeof agents - used, " %s", *a);
    }
    char command[PATH_MAX * 2 + 1024];
    snprintf(command, sizeof command,
             "exit $(for h in%s; do runc --root %s/$h/runc list -q 2>/dev/null; done"
             " | grep -c -x '%s')",
             agents, self->dir, kernel ? kernel : ".*");
    return harness_shell(command);
}

//  ---------------------------------------------------------------------------
//  The spare networks an agent holds, noted.

int
testbed_spare_files(testbed_t *self, const char *agent)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s/net-spares", self->dir, agent);
    DIR *dir = opendir(path);
    int count = 0;
    struct dirent *entry;
    while (dir && (entry = readdir(dir))) {
        if (entry->d_name[0] == '.')
            continue;
        count++;
        char file[PATH_MAX + 256], ns[TESTBED_ID_SIZE] = "";
        snprintf(file, sizeof file, "%s/%s", path, entry->d_name);
        FILE *in = fopen(file, "r");
        if (in && fscanf(in, "%*s %63s", ns) == 1 &&
            self->spare_count < TESTBED_SPARES_MAX)
            snprintf(self->spares[self->spare_count++], TESTBED_ID_SIZE, "%s", ns);
        if (in)
            fclose(in);
    }
    if (dir)
        closedir(dir);
    return count;
}

//  ---------------------------------------------------------------------------
//  Namespaces whose name starts with prefix.

int
testbed_namespaces(const char *prefix, bool left)
{
    DIR *dir = opendir("/run/netns");
    int count = 0;
    struct dirent *entry;
    while (dir && (entry = readdir(dir)))
        if (strncmp(entry->d_name, prefix, strlen(prefix)) == 0) {
            if (left)
                fprintf(stderr, "# namespace %s left\n", entry->d_name);
            count++;
        }
    if (dir)
        closedir(dir);
    return count;
}

//  True when a process's executable is under dir (a service of the testbed).
static bool
s_process_under(const char *dir)
{
    DIR *proc = opendir("/proc");
    if (!proc)
        return false;
    bool found = false;
    struct dirent *entry;
    while (!found && (entry = readdir(proc))) {
        char path[PATH_MAX], exe[PATH_MAX];
        snprintf(path, sizeof path, "/proc/%s/exe", entry->d_name);
        ssize_t n = readlink(path, exe, sizeof exe - 1);
        if (n <= 0)
            continue;
        exe[n] = '\0';
        if (strncmp(exe, dir, strlen(dir)) == 0) {
            fprintf(stderr, "# process %s (%s) left\n", entry->d_name, exe);
            found = true;
        }
    }
    closedir(proc);
    return found;
}

//  How many mounts are under dir (kernels' roots, spare kernel directories'
//  tmpfs, folders), each printed; -1 when the mount table cannot be read.
static int
s_mounts_under(const char *dir)
{
    FILE *mounts = fopen("/proc/self/mountinfo", "r");
    if (!mounts)
        return -1;
    int count = 0;
    char line[4096];
    size_t dir_len = strlen(dir);
    while (fgets(line, sizeof line, mounts)) {
        char *field = line; //  the fifth field is the mount point
        for (int f = 0; f < 4 && field; f++) {
            field = strchr(field, ' ');
            if (field)
                field++;
        }
        if (field && strncmp(field, dir, dir_len) == 0) {
            fprintf(stderr, "# mount left: %s", line);
            count++;
        }
    }
    fclose(mounts);
    return count;
}

//  Whether a service's log ("host/service") ends "stopped" with no
//  sanitizer report (only the latter when it was killed).
static bool
s_stopped_cleanly(testbed_t *self, const char *log)
{
    bool killed = self->killed && strcmp(self->killed, log) == 0;
    char command[PATH_MAX * 2 + 128];
    if (killed)
        snprintf(command, sizeof command,
                 "! grep -q -E 'Sanitizer|runtime error' %s/%s.log", self->dir, log);
    else
        snprintf(command, sizeof command,
                 "tail -n 1 %s/%s.log | grep -q 'msg=\"stopped\"' &&"
                 " ! grep -q -E 'Sanitizer|runtime error' %s/%s.log",
                 self->dir, log, self->dir, log);
    if (harness_shell(command) == 0)
        return true;
    fprintf(stderr, "# %s.log: not stopped cleanly\n", log);
    return false;
}

//  ---------------------------------------------------------------------------
//  down, and what it leaves: nothing.

int
testbed_down_check(testbed_t *self)
{
    assert(self);
    if (!self->dir) {
        fprintf(stderr, "# no testbed to take down\n");
        return 1;
    }
    int failed = 0;
    //  The agents' spares, for after: a clean stop removes them, down
    //  sweeps a killed agent's (and their files).
    for (const char *const *a = self->agents; *a; a++)
        testbed_spare_files(self, *a);
    if (testbed_run(self, NULL, "down") != 0) {
        fprintf(stderr, "# testbed down failed\n");
        failed++;
    }
    self->up = false;
    //  The hosts', the switch's; the spare ones; the kernels'.
    char prefix[PATH_MAX];
    snprintf(prefix, sizeof prefix, "%s-", self->prefix);
    failed += testbed_namespaces(prefix, true) != 0;
    for (int i = 0; i < self->spare_count; i++)
        failed += testbed_namespaces(self->spares[i], true) != 0;
    for (int i = 0; i < TESTBED_KERNELS_MAX; i++)
        if (*self->kernels[i]) {
            snprintf(prefix, sizeof prefix, "bp-%s", self->kernels[i]);
            failed += testbed_namespaces(prefix, true) != 0;
        }
    //  This machine's link to the switch.
    char path[PATH_MAX];
    snprintf(path, sizeof path, "/sys/class/net/%s-lan", self->prefix);
    struct stat st;
    if (lstat(path, &st) == 0) {
        fprintf(stderr, "# %s left\n", path);
        failed++;
    }
    int containers = testbed_containers(self, NULL);
    if (containers != 0) {
        fprintf(stderr, "# %d container(s) left\n", containers);
        failed++;
    }
    snprintf(path, sizeof path, "%s/root/", self->dir);
    failed += s_process_under(path);
    failed += s_mounts_under(self->dir) != 0;
    for (size_t i = 0; i < SERVICE_COUNT; i++)
        failed += !s_stopped_cleanly(self, k_services[i]);
    for (const char *const *a = self->agents; *a; a++)
        failed += !s_stopped_cleanly(self, *a);
    //  Down again: nothing to do, and no error.
    if (testbed_run(self, NULL, "down") != 0) {
        fprintf(stderr, "# testbed down again failed\n");
        failed++;
    }
    return failed;
}

//  ---------------------------------------------------------------------------
//  The end of a test: nothing left up, the directory removed or kept.

void
testbed_end(testbed_t *self, bool failed)
{
    if (self->up)
        testbed_run(self, NULL, "down"); //  whatever failed, nothing stays up
    self->up = false;
    if (!self->dir)
        return;
    if (!failed && !getenv("BACKPLANE_KEEP"))
        harness_rmdir(self->dir);
    else
        fprintf(stderr, "# testbed kept in %s\n", self->dir);
    free(self->dir);
    self->dir = NULL;
}
