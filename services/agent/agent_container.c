/*  =========================================================================
    agent_container - the host side of kernels: what the worker does

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <fcntl.h>       //  open flags for container.log
#include <libgen.h>      //  dirname: the runner next to the agent binary
#include <poll.h>        //  the wait for the runner
#include <sys/inotify.h> //  the runner's socket appearing
#include <sys/pidfd.h>   //  the container's PID 1 dying
#include <sys/stat.h>    //  stat: the runner's socket

//  Without inotify or pidfd (old kernels), how often the wait for the
//  runner looks again.
#define S_WAIT_FALLBACK_MS 20

struct _agent_containers_t {
    const agent_config_t *config;
    agent_runc_t *runc;   //  the worker's driver
    agent_net_t *net;     //  bridge mode, once made
    agent_ports_t *ports; //  apps' published ports; NULL: not published (set at new)
    char *cache_dir;      //  unpacked images
    char *runner_path;
    char *ttyd_path; //  backplane-ttyd next to the runner; NULL when not there
    //  The inotify instance every wait for a runner adds its watch to: one
    //  for the context's life, because closing one waits for an RCU grace
    //  period (a dozen milliseconds) and would cost every create that much.
    int watch;
};

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

//  Whether the runner's socket is there.
static bool
s_socket_ready(const char *socket)
{
    struct stat st;
    return socket && stat(socket, &st) == 0 && S_ISSOCK(st.st_mode);
}

//  Waits until the runner listens or the container's PID 1 dies, at most
//  AGENT_CONTAINER_RUNNER_WAIT_MS: each event wakes it, an inotify event in
//  the run dir (the socket bound) or the pidfd (the process gone).
static bool
s_wait_runner(agent_containers_t *self, agent_container_t *container)
{
    char *dir = agent_runc_kernel_path(self->runc, container->id, AGENT_OVERLAY_RUN_DIR);
    char *socket = agent_runc_kernel_path(self->runc, container->id, "run/runner.sock");
    char events[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    if (self->watch < 0)
        self->watch = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    while (self->watch >= 0 && read(self->watch, events, sizeof events) > 0)
        ; //  what earlier waits left (their watches' removal)
    int wd = self->watch >= 0 && dir
                 ? inotify_add_watch(self->watch, dir, IN_CREATE | IN_MOVED_TO)
                 : -1;
    int pidfd = container->pid > 0 ? pidfd_open(container->pid, 0) : -1;
    bool gone = container->pid <= 0 || (pidfd < 0 && errno == ESRCH);
    int64_t deadline = bus_clock_mono_ms() + AGENT_CONTAINER_RUNNER_WAIT_MS;
    bool ready = false;
    //  Looked at after the watch is set, so a socket bound before is seen.
    while (!(ready = s_socket_ready(socket)) && !gone) {
        int64_t left = deadline - bus_clock_mono_ms();
        if (left <= 0)
            break;
        if (pidfd < 0 && !agent_runc_pid_alive(container->pid))
            break;
        int timeout = (int) left;
        if ((wd < 0 || pidfd < 0) && timeout > S_WAIT_FALLBACK_MS)
            timeout = S_WAIT_FALLBACK_MS;
        struct pollfd fds[2] = {{wd >= 0 ? self->watch : -1, POLLIN, 0},
                                {pidfd, POLLIN, 0}};
        int n = poll(fds, 2, timeout);
        if (n > 0 && (fds[1].revents & POLLIN))
            gone = true; //  one last look below
        if (n > 0 && (fds[0].revents & POLLIN))
            while (read(self->watch, events, sizeof events) > 0)
                ; //  what happened is looked at, not read
    }
    if (!ready && gone)
        ready = s_socket_ready(socket);
    if (wd >= 0)
        inotify_rm_watch(self->watch, wd);
    if (pidfd >= 0)
        close(pidfd);
    zstr_free(&dir);
    zstr_free(&socket);
    return ready;
}

//  The error of a runner that did not start, with the end of its log.
static int
s_runner_failed(agent_containers_t *self, agent_container_t *container, bus_error_t *err)
{
    size_t size = 0;
    uint8_t *log = agent_container_log_tail(self->runc, container->id,
                                            AGENT_CONTAINER_LOG_QUOTE, &size);
    int rc =
        bus_error_set(err, BUS_STATUS_INTERNAL, "the kernel's runner did not start: %.*s",
                      (int) size, log ? (const char *) log : "");
    free(log);
    return rc;
}

//  ---------------------------------------------------------------------------
//  The context.

//  Publishing apps' ports takes nft (iptables has no atomic rewrite of a
//  table), and the bridge network.
static int
s_ports_new(agent_containers_t *self, bus_error_t *err)
{
    static const char *const nfts[] = {"/usr/sbin/nft", "/sbin/nft", "/usr/bin/nft",
                                       "/bin/nft"};
    const char *nft = NULL;
    for (size_t i = 0; i < sizeof nfts / sizeof nfts[0] && !nft; i++)
        if (access(nfts[i], X_OK) == 0)
            nft = nfts[i];
    if (strcmp(self->config->net_mode, "bridge") != 0 || !nft) {
        bus_error_set(err, BUS_STATUS_INVALID,
                      "agent.publish.host needs agent.network.mode bridge and nft%s",
                      nft ? "" : " (not found: install nftables)");
        return -1;
    }
    self->ports = agent_ports_new(self->config->node.state_dir, self->config->net_bridge,
                                  self->config->publish_host, self->config->publish_ports,
                                  nft, err);
    return self->ports ? 0 : -1;
}

agent_containers_t *
agent_containers_new(const agent_config_t *config, bus_error_t *err)
{
    assert(config);
    agent_containers_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->config = config;
    self->watch = -1;
    self->cache_dir = zsys_sprintf("%s/rootfs", config->node.state_dir);
    self->runner_path = s_runner_path(config);
    if (!self->cache_dir || !self->runner_path) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        agent_containers_destroy(&self);
        return NULL;
    }
    self->runc = agent_runc_new(config->runc, config->node.state_dir);
    if (!self->runc) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot set up runc state in %s",
                      config->node.state_dir);
        agent_containers_destroy(&self);
        return NULL;
    }
    //  Kernel dirs made ahead; and those a crashed agent left are removed.
    agent_runc_spares_set(self->runc, (size_t) config->spares);
    if (access(self->runner_path, X_OK) != 0)
        bus_log_warning("no kernel runner at %s (agent.runner_path)", self->runner_path);
    //  The web terminal (the ttyd app) ships next to the runner, as `make` and
    //  `make install` put it; without it kernels start, and the app fails.
    char *dir = strdup(self->runner_path);
    self->ttyd_path = dir ? zsys_sprintf("%s/backplane-ttyd", dirname(dir)) : NULL;
    free(dir);
    if (self->ttyd_path && access(self->ttyd_path, X_OK) != 0) {
        bus_log_warning("no web terminal at %s: the ttyd app cannot start",
                        self->ttyd_path);
        zstr_free(&self->ttyd_path);
    }
    //  Served beyond loopback, the agent has peers on other hosts: the
    //  gateway's tunnels and the wsproxy there reach a kernel's app only at
    //  a published port, never at its bridge address. Each open would fail
    //  with a connection timeout far from here; this says why at start.
    const char *endpoint =
        *config->node.rpc_advertise ? config->node.rpc_advertise : config->node.rpc_bind;
    if (!*config->publish_host && agent_ports_endpoint_remote(endpoint))
        bus_log_warning("agent.publish.host is empty: apps of this agent's kernels can be"
                        " opened from this host only, not by a gateway or wsproxy on"
                        " another (set it to this host's address) endpoint=%s",
                        endpoint);
    if (*config->publish_host && s_ports_new(self, err) != 0) {
        agent_containers_destroy(&self);
        return NULL;
    }
    return self;
}

void
agent_containers_destroy(agent_containers_t **self_p)
{
    assert(self_p);
    agent_containers_t *self = *self_p;
    if (!self)
        return;
    if (self->watch >= 0)
        close(self->watch);
    agent_net_destroy(&self->net);
    agent_ports_destroy(&self->ports);
    agent_runc_destroy(&self->runc);
    zstr_free(&self->cache_dir);
    free(self->runner_path);
    zstr_free(&self->ttyd_path);
    free(self);
    *self_p = NULL;
}

const char *
agent_containers_runner_path(agent_containers_t *self)
{
    assert(self);
    return self->runner_path;
}

agent_runc_t *
agent_containers_runc(agent_containers_t *self)
{
    assert(self);
    return self->runc;
}

agent_ports_t *
agent_containers_ports(agent_containers_t *self)
{
    assert(self);
    return self->ports;
}

agent_net_t *
agent_containers_net(agent_containers_t *self)
{
    assert(self);
    return self->net;
}

int
agent_containers_net_ready(agent_containers_t *self, bus_error_t *err)
{
    assert(self);
    if (self->net || strcmp(self->config->net_mode, "bridge") != 0)
        return 0;
    bus_error_t step;
    self->net = agent_net_new(self->config->net_bridge, self->config->net_cidr,
                              self->config->node.state_dir, &step);
    if (self->net &&
        agent_net_routed_set(self->net, self->config->net_routed, &step) != 0) {
        bus_log_error("kernel network routes unset detail=\"%s\"", step.detail);
        agent_net_destroy(&self->net);
        bus_error_set(err, BUS_STATUS_UNAVAILABLE, "kernel network unavailable: %s",
                      step.detail);
        return -1;
    }
    if (self->net) {
        agent_net_spares_set(self->net, (size_t) self->config->spares);
        return 0;
    }
    bus_log_error("kernel network unavailable detail=\"%s\"", step.detail);
    bus_error_set(err, BUS_STATUS_UNAVAILABLE, "kernel network unavailable: %s",
                  step.detail);
    return -1;
}

int
agent_containers_spare_make(agent_containers_t *self)
{
    assert(self);
    bus_error_t err = {0};
    int dir = agent_runc_spare_make(self->runc, &err);
    if (dir < 0)
        bus_log_warning("spare kernel dir not made error=\"%s\"", err.detail);
    int net = self->net ? agent_net_spare_make(self->net, &err) : 0;
    if (net < 0)
        bus_log_warning("spare kernel network not made error=\"%s\"", err.detail);
    return dir > 0 || net > 0 ? 1 : dir < 0 || net < 0 ? -1 : 0;
}

int
agent_containers_net_teardown(agent_containers_t *self)
{
    assert(self);
    bus_error_t err = {0};
    if (self->ports)
        agent_ports_teardown(self->ports);
    int rc = self->net ? agent_net_teardown(self->net, &err) : BUS_OK;
    if (!self->net && strcmp(self->config->net_mode, "bridge") == 0)
        agent_net_nat_forget(self->config->net_bridge);
    if (rc != BUS_OK)
        bus_log_warning("cannot remove the kernel network error=\"%s\"", err.detail);
    return rc;
}

//  ---------------------------------------------------------------------------
//  A container record.

agent_container_t *
agent_container_new(const char *kernel_id)
{
    assert(kernel_id);
    agent_container_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    snprintf(self->id, sizeof self->id, "%s", kernel_id);
    self->hold_fd = -1;
    return self;
}

void
agent_container_destroy(agent_container_t **self_p)
{
    assert(self_p);
    agent_container_t *self = *self_p;
    if (!self)
        return;
    if (self->hold_fd >= 0)
        close(self->hold_fd);
    agent_runc_entry_destroy(&self->entry);
    free(self->log);
    free(self);
    *self_p = NULL;
}

//  ---------------------------------------------------------------------------
//  What an adopted kernel holds.

void
agent_containers_adopt(agent_containers_t *self,
                       agent_container_t *container,
                       const char *digest)
{
    assert(self && container && digest);
    bus_error_t err = {0};
    container->container = true;
    container->net = self->net != NULL;
    container->hold_fd = agent_unpack_hold(self->cache_dir, digest, &err);
    if (container->hold_fd < 0)
        bus_log_warning("adopted kernel holds no rootfs kernel=%s detail=\"%s\"",
                        container->id, err.detail);
}

//  ---------------------------------------------------------------------------
//  Make a kernel on the host.

int
agent_containers_setup(agent_containers_t *self,
                       agent_container_t *container,
                       const agent_container_image_t *image,
                       agent_kernel_spec_t *spec,
                       const char *bootstrap,
                       agent_container_times_t *times,
                       bus_error_t *err)
{
    assert(self && container && image && spec && times);
    const agent_config_t *config = self->config;
    const char *id = container->id;
    times->begun = bus_clock_mono_us();
    char rootfs[PATH_MAX];
    int rc = agent_unpack_rootfs(self->cache_dir, image->layout, image->tag,
                                 image->digest, rootfs, err);
    if (rc == BUS_OK) {
        container->hold_fd = agent_unpack_hold(self->cache_dir, image->digest, err);
        if (container->hold_fd < 0 && err->status == BUS_STATUS_NOT_FOUND) {
            //  pruned in between: once more
            rc = agent_unpack_rootfs(self->cache_dir, image->layout, image->tag,
                                     image->digest, rootfs, err);
            if (rc == BUS_OK)
                container->hold_fd =
                    agent_unpack_hold(self->cache_dir, image->digest, err);
        }
        if (container->hold_fd < 0)
            rc = err->status;
    }
    if (rc != BUS_OK)
        return rc;
    times->prepared = bus_clock_mono_us();
    char netns[PATH_MAX] = "";
    if (agent_containers_net_ready(self, err) != 0)
        return err->status;
    if (self->net) {
        rc = agent_net_attach(self->net, id, netns, container->ip, err);
        if (rc != BUS_OK)
            return rc;
        container->net = true;
    } else if (strcmp(config->net_mode, "host") == 0)
        snprintf(container->ip, sizeof container->ip, "127.0.0.1");
    rc = agent_hosts_create(config->node.state_dir, id, container->ip, spec->hostname,
                            err);
    if (rc != BUS_OK)
        return rc;
    char *hosts = agent_hosts_path(config->node.state_dir, id);
    times->net = bus_clock_mono_us();

    spec->kernel_id = id;
    spec->image_rootfs = rootfs;
    spec->runner_path = self->runner_path;
    spec->tini_path = config->tini_path;
    spec->ttyd_path = self->ttyd_path;
    spec->netns_path = *netns ? netns : NULL;
    spec->host_network = strcmp(config->net_mode, "host") == 0;
    spec->hosts_path = hosts;
    rc = hosts ? agent_runc_create(self->runc, spec, err)
               : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    //  Nothing of the caller's buffers stays in the spec.
    spec->image_rootfs = spec->netns_path = spec->hosts_path = NULL;
    zstr_free(&hosts);
    if (rc != BUS_OK)
        return rc;
    container->container = true;
    container->pid = agent_runc_pid(self->runc, id);
    times->runc = bus_clock_mono_us();
    if (!s_wait_runner(self, container))
        return s_runner_failed(self, container, err);
    if (bootstrap && *bootstrap) {
        char *socket = agent_runc_kernel_path(self->runc, id, "run/runner.sock");
        if (socket)
            agent_task_bootstrap(self->runc, id, socket, bootstrap);
        zstr_free(&socket);
    }
    times->runner = bus_clock_mono_us();
    container->entry = agent_runc_detach(self->runc, id);
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Run a kernel again in place.

int
agent_containers_restart(agent_containers_t *self,
                         agent_container_t *container,
                         int grace_ms,
                         int *exit_code_p,
                         bus_error_t *err)
{
    assert(self && container);
    const char *id = container->id;
    *exit_code_p = AGENT_RUNC_EXIT_UNKNOWN;
    if (container->entry && agent_runc_attach(self->runc, &container->entry, err) != 0)
        return err->status;
    int rc = agent_runc_stop(self->runc, id, grace_ms, exit_code_p, err);
    if (rc == BUS_OK) {
        //  The old runner's socket would pass for the new one's.
        char *socket = agent_runc_kernel_path(self->runc, id, "run/runner.sock");
        if (socket)
            unlink(socket);
        zstr_free(&socket);
        rc = agent_runc_start(self->runc, id, err);
    }
    if (rc == BUS_OK) {
        container->pid = agent_runc_pid(self->runc, id);
        if (!s_wait_runner(self, container))
            rc = s_runner_failed(self, container, err);
    }
    container->entry = agent_runc_detach(self->runc, id);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Give back what a kernel holds on the host.

void
agent_containers_release(agent_containers_t *self,
                         agent_container_t *container,
                         int grace_ms,
                         int *exit_code_p,
                         bus_error_t *err)
{
    assert(self && container);
    const char *id = container->id;
    if (exit_code_p)
        *exit_code_p = AGENT_RUNC_EXIT_UNKNOWN;
    bus_error_t step = {0};
    if (container->entry && agent_runc_attach(self->runc, &container->entry, &step) != 0)
        agent_runc_entry_destroy(&container->entry); //  cannot be: removed by id
    if (container->container) {
        free(container->log);
        container->log = NULL;
        container->log_size = 0;
        int rc = agent_runc_remove_keeping_log(
            self->runc, id, grace_ms, exit_code_p, (size_t) self->config->ended_log_max,
            &container->log, &container->log_size, &step);
        if (rc != BUS_OK && rc != BUS_STATUS_NOT_FOUND) {
            bus_log_error("kernel remove failed kernel=%s detail=\"%s\"", id,
                          step.detail);
            if (err && err->status == BUS_OK)
                *err = step;
        }
        container->container = false;
    }
    if (container->net && self->net) {
        int rc = agent_net_detach(self->net, id, &step);
        if (rc != BUS_OK && rc != BUS_STATUS_NOT_FOUND)
            bus_log_error("kernel net detach failed kernel=%s detail=\"%s\"", id,
                          step.detail);
    }
    if (self->ports)
        agent_ports_release(self->ports, id); //  its address may go to another
    container->net = false;
    if (container->hold_fd >= 0) {
        close(container->hold_fd);
        container->hold_fd = -1;
    }
    agent_hosts_remove(self->config->node.state_dir, id);
}

//  ---------------------------------------------------------------------------
//  The end of a kernel's container.log.

uint8_t *
agent_container_log_tail(agent_runc_t *runc,
                         const char *kernel_id,
                         size_t max,
                         size_t *size_p)
{
    return agent_runc_log_tail(runc, kernel_id, max, size_p);
}
