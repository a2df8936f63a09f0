/*  =========================================================================
    harness - process control, log lines and a minimal HTTP client

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define POLL_INTERVAL_MS 5

static long long
s_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void
harness_pause_ms(int ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int
harness_shell(const char *command)
{
    int rc = system(command);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

int
harness_shell_int(const char *command)
{
    FILE *pipe = popen(command, "r");
    int value = -1;
    if (pipe) {
        if (fscanf(pipe, "%d", &value) != 1)
            value = -1;
        pclose(pipe);
    }
    return value;
}

int
harness_runc_pid(const char *root, const char *id)
{
    char command[1024];
    snprintf(command, sizeof command,
             "runc --root %s state %s 2>/dev/null"
             " | sed -n 's/^ *\"pid\": *\\([0-9]*\\).*/\\1/p'",
             root, id);
    return harness_shell_int(command);
}

const char *
harness_subnet(void)
{
    enum { MAX = 8 };
    static char cidrs[MAX][24];
    static int used;
    mkdir(HARNESS_SUBNET_DIR, 01777);
    for (int n = 0; n < 256 && used < MAX; n++) {
        char path[64], command[96];
        snprintf(path, sizeof path, HARNESS_SUBNET_DIR "/%d", n);
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0)
            continue;
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            close(fd);
            continue;
        }
        //  Left routed by a test that died: not usable either.
        snprintf(command, sizeof command, "ip -4 route show 10.240.%d.0/24 | grep -q .",
                 n);
        if (system(command) == 0) {
            close(fd);
            continue;
        }
        //  fd stays open: the claim lasts as long as this process.
        snprintf(cidrs[used], sizeof cidrs[used], "10.240.%d.0/24", n);
        return cidrs[used++];
    }
    return NULL;
}

void
harness_subnet_host(const char *cidr, int host, char *out, size_t size)
{
    const char *last = cidr ? strrchr(cidr, '.') : NULL;
    int prefix = last ? (int) (last - cidr) + 1 : 0;
    if (host > 0)
        snprintf(out, size, "%.*s%d", prefix, cidr ? cidr : "", host);
    else
        snprintf(out, size, "%.*s", prefix, cidr ? cidr : "");
}

int
harness_free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET,
                               .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t size = sizeof addr;
    int port = -1;
    if (fd >= 0 && bind(fd, (struct sockaddr *) &addr, sizeof addr) == 0 &&
        getsockname(fd, (struct sockaddr *) &addr, &size) == 0)
        port = ntohs(addr.sin_port);
    if (fd >= 0)
        close(fd);
    return port;
}

char *
harness_tmpdir(const char *name)
{
    char *dir = malloc(256);
    if (!dir)
        return NULL;
    snprintf(dir, 256, "/tmp/backplane-%s-XXXXXX", name);
    if (!mkdtemp(dir)) {
        free(dir);
        return NULL;
    }
    return dir;
}

static int
s_remove(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void) st;
    (void) flag;
    (void) ftw;
    return remove(path);
}

void
harness_rmdir(const char *dir)
{
    if (dir && strncmp(dir, "/tmp/backplane-", 15) == 0)
        nftw(dir, s_remove, 16, FTW_DEPTH | FTW_PHYS);
}

void
harness_sweep(const char *dir)
{
    if (!dir || strncmp(dir, "/tmp/backplane-", 15) != 0 || strchr(dir, '\'') ||
        getenv("BACKPLANE_KEEP"))
        return;
    char command[4096];
    snprintf(
        command, sizeof command,
        "d='%s'; for r in \"$d\"/*/runc; do [ -d \"$r\" ] || continue;"
        " for c in $(runc --root \"$r\" list -q 2>/dev/null); do"
        " runc --root \"$r\" kill \"$c\" KILL 2>/dev/null;"
        " runc --root \"$r\" delete -f \"$c\" 2>/dev/null; done; done;"
        " for f in \"$d\"/*/net/*; do [ -f \"$f\" ] &&"
        " ip netns del \"bp-${f##*/}\" 2>/dev/null; done;"
        " for f in \"$d\"/*/net-spares/*; do [ -f \"$f\" ] && read -r _ ns _ <\"$f\" &&"
        " ip netns del \"$ns\" 2>/dev/null; done;"
        " awk -v d=\"$d/\" 'index($5, d) == 1 {print $5}' /proc/self/mountinfo |"
        " sort -r | while read -r m; do umount -l \"$m\"; done;"
        //  An agent's NAT table (backplane_<bridge>) outlives the bridge the
        //  test removed when the agent stopped with kernels (they keep both
        //  by design). An agent makes its bridge before that table and
        //  removes the table first: one without its bridge is a leftover,
        //  whoever's it was. The published ports' tables
        //  (backplane_ports_<name>) are not named by a link: left alone.
        " for t in $(nft list tables 2>/dev/null |"
        " awk '$3 ~ /^backplane_/ && $3 !~ /^backplane_ports_/ {print $3}'); do"
        " ip link show \"${t#backplane_}\" >/dev/null 2>&1 ||"
        " nft delete table ip \"$t\" 2>/dev/null; done; true",
        dir);
    if (harness_shell(command) != 0)
        fprintf(stderr, "# could not sweep %s\n", dir);
}

const char *
harness_bindir(void)
{
    const char *dir = getenv("BACKPLANE_BINDIR");
    return dir && *dir ? dir : "build/bin";
}

int
harness_start(harness_proc_t *proc,
              const char *dir,
              const char *name,
              const char *service,
              const char *const *args)
{
    memset(proc, 0, sizeof *proc);
    snprintf(proc->name, sizeof proc->name, "%s", name);
    snprintf(proc->log_path, sizeof proc->log_path, "%s/%s.log", dir, name);
    char binary[512];
    snprintf(binary, sizeof binary, "%s/backplane-%s", harness_bindir(), service);
    const char *argv[72]; //  the args callers build (64 at most) and ours
    int argc = 0;
    argv[argc++] = binary;
    //  Every service answers /metrics on a fixed port by default; tests run
    //  in parallel, so each takes any free one (the ready line says which),
    //  unless its own args say otherwise (a later --set wins).
    argv[argc++] = "--set";
    argv[argc++] = "bus.http_listen=" HARNESS_HTTP_ANY;
    for (int i = 0; args && args[i] && argc < 71; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;
    //  The log is emptied here, before the fork: emptied in the child, a
    //  restarted service's old "ready" line could still be read by the
    //  parent's next harness_wait_line (with the old endpoints in it).
    int fd = open(proc->log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd);
        return -1;
    }
    if (pid == 0) {
        //  If the test dies, its services die with it: no orphans on the machine.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
        execv(binary, (char *const *) argv);
        fprintf(stderr, "exec %s: %s\n", binary, strerror(errno));
        _exit(127);
    }
    close(fd);
    proc->pid = pid;
    return 0;
}

bool
harness_wait_line(
    harness_proc_t *proc, const char *prefix, int timeout_ms, char *line, size_t size)
{
    long long deadline = s_now_ms() + timeout_ms;
    size_t prefix_len = strlen(prefix);
    while (true) {
        FILE *log = fopen(proc->log_path, "r");
        char buf[HARNESS_LINE_MAX];
        bool found = false;
        while (log && fgets(buf, sizeof buf, log))
            if (strncmp(buf, prefix, prefix_len) == 0) {
                buf[strcspn(buf, "\n")] = 0;
                if (line)
                    snprintf(line, size, "%s", buf);
                found = true;
                break;
            }
        if (log)
            fclose(log);
        if (found)
            return true;
        int status;
        if (proc->pid > 0 && waitpid(proc->pid, &status, WNOHANG) == proc->pid) {
            proc->exit_status =
                WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            proc->pid = 0;
            return false;
        }
        if (s_now_ms() >= deadline)
            return false;
        harness_pause_ms(POLL_INTERVAL_MS);
    }
}

int
harness_stop(harness_proc_t *proc, int timeout_ms)
{
    if (proc->pid <= 0)
        return proc->exit_status;
    kill(proc->pid, SIGTERM);
    long long deadline = s_now_ms() + timeout_ms;
    int status = 0;
    while (waitpid(proc->pid, &status, WNOHANG) == 0) {
        if (s_now_ms() >= deadline) {
            kill(proc->pid, SIGKILL);
            waitpid(proc->pid, &status, 0);
            break;
        }
        harness_pause_ms(POLL_INTERVAL_MS);
    }
    proc->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    proc->pid = 0;
    return proc->exit_status;
}

void
harness_kill(harness_proc_t *proc)
{
    if (proc->pid > 0) {
        kill(proc->pid, SIGKILL);
        int status;
        waitpid(proc->pid, &status, 0);
        proc->exit_status = 128 + SIGKILL;
        proc->pid = 0;
    }
}

bool
harness_log_has(const harness_proc_t *proc, const char *needle)
{
    FILE *file = fopen(proc->log_path, "r");
    char line[HARNESS_LINE_MAX];
    bool found = false;
    while (file && !found && fgets(line, sizeof line, file))
        found = strstr(line, needle) != NULL;
    if (file)
        fclose(file);
    return found;
}

bool
harness_log_has_report(harness_proc_t *proc)
{
    FILE *log = fopen(proc->log_path, "r");
    char buf[HARNESS_LINE_MAX];
    bool found = false;
    while (log && fgets(buf, sizeof buf, log))
        if (strstr(buf, "Sanitizer") || strstr(buf, "runtime error:") ||
            strstr(buf, "LeakSanitizer")) {
            found = true;
            break;
        }
    if (log)
        fclose(log);
    return found;
}

bool
harness_field(const char *line, const char *key, char *out, size_t size)
{
    size_t key_len = strlen(key);
    for (const char *p = line; (p = strstr(p, key)); p += key_len) {
        if ((p == line || p[-1] == ' ') && p[key_len] == '=') {
            const char *value = p + key_len + 1;
            size_t len = strcspn(value, " \n");
            snprintf(out, size, "%.*s", (int) len, value);
            return true;
        }
    }
    return false;
}

int
harness_http(const char *hostport,
             const char *method,
             const char *path,
             const char *body,
             char **body_p,
             int timeout_ms)
{
    return harness_http_ex(hostport, method, path, NULL, "application/json", body, body_p,
                           NULL, timeout_ms);
}

int
harness_http_ex(const char *hostport,
                const char *method,
                const char *path,
                const char *const *headers,
                const char *content_type,
                const char *body,
                char **body_p,
                char **headers_p,
                int timeout_ms)
{
    return harness_http_bytes(hostport, method, path, headers, content_type, body, body_p,
                              NULL, headers_p, timeout_ms);
}

int
harness_http_bytes(const char *hostport,
                   const char *method,
                   const char *path,
                   const char *const *headers,
                   const char *content_type,
                   const char *body,
                   char **body_p,
                   size_t *size_p,
                   char **headers_p,
                   int timeout_ms)
{
    char host[64];
    const char *colon = strrchr(hostport, ':');
    if (!colon || (size_t) (colon - hostport) >= sizeof host)
        return -1;
    snprintf(host, sizeof host, "%.*s", (int) (colon - hostport), hostport);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(atoi(colon + 1))};
    if (inet_pton(AF_INET, host, &addr.sin_addr) != 1)
        return -1;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    if (connect(fd, (struct sockaddr *) &addr, sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    size_t body_len = body ? strlen(body) : 0;
    size_t request_cap = 8192 + body_len;
    char *request = malloc(request_cap);
    if (!request) {
        close(fd);
        return -1;
    }
    int len = snprintf(request, request_cap,
                       "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", method,
                       path, hostport);
    if (content_type)
        len += snprintf(request + len, request_cap - (size_t) len, "Content-Type: %s\r\n",
                        content_type);
    for (int i = 0; headers && headers[i]; i++)
        len += snprintf(request + len, request_cap - (size_t) len, "%s\r\n", headers[i]);
    len += snprintf(request + len, request_cap - (size_t) len,
                    "Content-Length: %zu\r\n\r\n", body_len);
    if (body_len)
        memcpy(request + len, body, body_len);
    size_t total = (size_t) len + body_len;
    bool written = write(fd, request, total) == (ssize_t) total;
    free(request);
    if (!written) {
        close(fd);
        return -1;
    }
    size_t cap = 65536, used = 0;
    char *response = malloc(cap + 1);
    long long deadline = s_now_ms() + timeout_ms;
    while (response) {
        struct pollfd pfd = {fd, POLLIN, 0};
        int left = (int) (deadline - s_now_ms());
        if (left <= 0 || poll(&pfd, 1, left) <= 0)
            break;
        if (used == cap) {
            char *bigger = realloc(response, cap * 2 + 1);
            if (!bigger)
                break;
            response = bigger;
            cap *= 2;
        }
        ssize_t n = read(fd, response + used, cap - used);
        if (n <= 0)
            break;
        used += (size_t) n;
    }
    close(fd);
    if (!response)
        return -1;
    response[used] = 0;
    int status = -1;
    if (sscanf(response, "HTTP/1.%*d %d", &status) != 1)
        status = -1;
    char *start = strstr(response, "\r\n\r\n");
    if (headers_p)
        *headers_p = strndup(response, start ? (size_t) (start - response) : used);
    //  The whole body, NULs included, NUL-terminated.
    size_t offset = start ? (size_t) (start + 4 - response) : used;
    if (body_p && (*body_p = malloc(used - offset + 1)) != NULL) {
        memcpy(*body_p, response + offset, used - offset + 1);
        if (size_p)
            *size_p = used - offset;
    }
    free(response);
    return status;
}

bool
harness_can_run_containers(void)
{
    return getuid() == 0 && system("command -v runc >/dev/null 2>&1") == 0 &&
           system("command -v umoci >/dev/null 2>&1") == 0 &&
           access("/usr/bin/tini-static", X_OK) == 0;
}

int
harness_busybox_images(const char *dir)
{
    char command[1600];
    if (access("build/images/busybox/index.json", R_OK) == 0)
        snprintf(command, sizeof command,
                 "mkdir -p %s/images && cp -a build/images/busybox %s/images/", dir, dir);
    else
        snprintf(command, sizeof command,
                 "deploy/images/build busybox %s/images/busybox >/dev/null", dir);
    return system(command) == 0 ? 0 : -1;
}

int
harness_debian_image(const char *dir, const char *name)
{
    //  Built where the Makefile keeps it, so the next run finds it cached
    //  (the script does nothing when its recipe has not changed), under a
    //  lock: two tests running at once may both want it.
    char command[1600];
    snprintf(command, sizeof command,
             "mkdir -p build/images && flock build/images/.%s.lock "
             "deploy/images/build %s build/images/%s >/dev/null && "
             "mkdir -p %s/images && cp -a build/images/%s %s/images/",
             name, name, name, dir, name, dir);
    return system(command) == 0 ? 0 : -1;
}

int
harness_python_images(const char *dir)
{
    return harness_debian_image(dir, "python");
}

int
harness_agent_start(harness_proc_t *agent,
                    const char *dir,
                    const char *name,
                    const harness_bus_t *bus,
                    const char *const *extra,
                    char *line,
                    size_t size)
{
    char state[512], pub[160], sub[160], reg[160], images[512], node[160], runner[600];
    snprintf(state, sizeof state, "node.state_dir=%s/%s", dir, name);
    snprintf(images, sizeof images, "agent.images_dir=%s/images", dir);
    snprintf(pub, sizeof pub, "bus.hub.publish=%s", bus->hub_publish);
    snprintf(sub, sizeof sub, "bus.hub.subscribe=%s", bus->hub_subscribe);
    snprintf(reg, sizeof reg, "bus.hub.registry=%s", bus->registry);
    snprintf(node, sizeof node, "node.name=%s", name);
    snprintf(runner, sizeof runner, "agent.runner_path=%s/backplane-runner",
             harness_bindir());
    const char *args[64] = {"--set", state,  "--set", pub,
                            "--set", sub,    "--set", reg,
                            "--set", node,   "--set", runner,
                            "--set", images, "--set", "bus.heartbeat_ms=100"};
    size_t argc = 16;
    for (size_t i = 0; extra && extra[i] && argc < 62; i++) {
        args[argc++] = "--set";
        args[argc++] = extra[i];
    }
    args[argc] = NULL;
    if (harness_start(agent, dir, name, "agent", args) != 0 ||
        !harness_wait_line(agent, "ready ", 20000, line, size))
        return -1;
    return 0;
}

int
harness_scheduler_start(harness_proc_t *proc,
                        const char *dir,
                        const char *name,
                        const harness_bus_t *bus,
                        const char *const *extra,
                        harness_endpoints_t *out)
{
    char state[512], pub[200], sub[200], reg[200];
    snprintf(state, sizeof state, "node.state_dir=%s/scheduler", dir);
    snprintf(pub, sizeof pub, "bus.hub.publish=%s",
             bus ? bus->hub_publish : "tcp://127.0.0.1:*");
    snprintf(sub, sizeof sub, "bus.hub.subscribe=%s",
             bus ? bus->hub_subscribe : "tcp://127.0.0.1:*");
    snprintf(reg, sizeof reg, "bus.hub.registry=%s",
             bus ? bus->registry : "tcp://127.0.0.1:*");
    const char *args[64] = {"--set", state,   "--set", pub,     "--set",
                            sub,     "--set", reg,     "--set", "bus.heartbeat_ms=100"};
    size_t argc = 10;
    for (size_t i = 0; extra && extra[i] && argc < 62; i++) {
        args[argc++] = "--set";
        args[argc++] = extra[i];
    }
    args[argc] = NULL;
    char line[HARNESS_LINE_MAX];
    harness_endpoints_t endpoints;
    memset(&endpoints, 0, sizeof endpoints);
    if (harness_start(proc, dir, name, "scheduler", args) != 0 ||
        !harness_wait_line(proc, "ready ", HARNESS_READY_MS, line, sizeof line) ||
        !harness_field(line, "rpc", endpoints.rpc, sizeof endpoints.rpc))
        return -1;
    //  The ports the hub and the registry got (the line has them as bound).
    char *const fields[] = {endpoints.hub_publish, endpoints.hub_subscribe,
                            endpoints.registry};
    const char *const keys[] = {"hub_publish", "hub_subscribe", "registry"};
    const char *const given[] = {bus ? bus->hub_publish : NULL,
                                 bus ? bus->hub_subscribe : NULL,
                                 bus ? bus->registry : NULL};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!harness_field(line, keys[i], fields[i], HARNESS_ENDPOINT_MAX)) {
            if (!given[i])
                return -1;
            snprintf(fields[i], HARNESS_ENDPOINT_MAX, "%s", given[i]);
        }
    if (out)
        *out = endpoints;
    return 0;
}

harness_bus_t
harness_endpoints_bus(const harness_endpoints_t *endpoints)
{
    harness_bus_t bus = {endpoints->hub_publish, endpoints->hub_subscribe,
                         endpoints->registry};
    return bus;
}

bool
harness_teardown(harness_proc_t *scheduler,
                 harness_proc_t *agent,
                 const char *bridge,
                 char *dir,
                 bool failed)
{
    int agent_rc = harness_stop(agent, 10000);
    int scheduler_rc = harness_stop(scheduler, 10000);
    bool clean = agent_rc == 0 && scheduler_rc == 0 && !harness_log_has_report(agent) &&
                 !harness_log_has_report(scheduler);
    if (!clean)
        fprintf(stderr, "# a service did not stop cleanly (agent %d, scheduler %d)\n",
                agent_rc, scheduler_rc);
    if (bridge) {
        char command[128];
        snprintf(command, sizeof command, "ip link del %s 2>/dev/null", bridge);
        (void) harness_shell(command);
    }
    //  What the agent still held (a destroy in flight when it stopped, a
    //  failed test's kernels) ends either way: kept files are read, not run,
    //  and a mount left would stop the removal half way.
    harness_sweep(dir);
    if (!failed && clean && !getenv("BACKPLANE_KEEP"))
        harness_rmdir(dir);
    else
        fprintf(stderr, "# state kept in %s\n", dir);
    free(dir);
    return clean;
}
