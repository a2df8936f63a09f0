/*  =========================================================================
    agent_container - the host side of kernels: what the worker does

    A kernel on the host is its image's unpacked rootfs (held shared, so
    that no prune removes it), its network (a namespace and an address on
    the agent's bridge, in bridge mode), its /etc/hosts file (agent_hosts)
    and its runc container (agent_runc: dir, overlay, cgroup, PID 1). An
    agent_container_t says which of those a kernel holds; the
    agent_containers_t context makes them (setup), runs the container
    again in place (restart), and gives back whatever one holds (release):
    the one function that does, for a kernel that ends and for a create or
    restart that fails half-way alike.

    All of it is slow (umoci, ip, runc) and runs on the agent's worker
    thread (agent_worker): the context, with its own runc driver and the
    network, belongs to that thread while the worker runs (to the loop
    before it starts and after it stops: recovery, teardown), and a
    container belongs to the job that carries it, or else to its kernel's
    record on the loop. Its runc entry travels with it between the loop's
    driver (which reaps) and the worker's (agent_runc_detach/attach).

    Readiness of the runner is an event: once runc has started the
    container, setup and restart wait on an inotify watch of the kernel's
    run dir, where the runner binds its socket, and on a pidfd of the
    container's PID 1, which becomes readable when it dies, at most
    AGENT_CONTAINER_RUNNER_WAIT_MS.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_CONTAINER_H_INCLUDED
#define AGENT_CONTAINER_H_INCLUDED

#include "bus.h"
#include "agent_config.h"
#include "agent_bundle.h"
#include "agent_net.h"
#include "agent_runc.h"

//  How long setup and restart wait for the runner's socket to appear.
#define AGENT_CONTAINER_RUNNER_WAIT_MS 10000
//  The most of container.log a failed start's error quotes.
#define AGENT_CONTAINER_LOG_QUOTE 200

typedef struct _agent_containers_t agent_containers_t;

//  What one kernel holds on the host. Owned by one thread at a time (see
//  above); the flags say what release has to give back.
typedef struct {
    char id[AGENT_BUNDLE_KERNEL_ID_MAX + 1];
    int hold_fd;               //  shared lock on its image's rootfs; -1 when none
    bool net;                  //  attached to the bridge (namespace, veth, address)
    bool hosts;                //  its hosts file written
    bool container;            //  runc may know it (its dir, mounts, state)
    agent_runc_entry_t *entry; //  its runc entry while it travels (NULL on the loop,
                               //  whose driver holds it then)
    char ip[AGENT_NET_IP_MAX]; //  its address ("127.0.0.1" with the host's network)
    int pid;                   //  its PID 1 on the host, once started
    uint8_t *log;              //  release: the end of its container.log, kept
    size_t log_size;           //  (agent.ended_log_max_bytes at most; owned)
} agent_container_t;

//  The image a container is made of (strings borrowed).
typedef struct {
    const char *layout; //  the OCI layout's directory
    const char *tag;
    const char *digest; //  the manifest's, the unpack cache's key
} agent_container_image_t;

//  When each step of a setup ended (monotonic µs), for the "kernel started"
//  line: where a create's milliseconds go.
typedef struct {
    int64_t begun;    //  the worker took the job
    int64_t prepared; //  image unpacked and held
    int64_t net;      //  network and hosts file ready
    int64_t runc;     //  runc run -d returned
    int64_t runner;   //  the runner listens (and the bootstrap script ran)
} agent_container_times_t;

//  ---------------------------------------------------------------------------
//  The context over config (borrowed, must outlive it): a runc driver of
//  its own over config's state dir, the unpack cache, the runner's path.
//  The network is made on first use (agent_containers_net_ready). NULL with
//  err.
agent_containers_t *agent_containers_new(const agent_config_t *config, bus_error_t *err);

//  Frees the context. The containers, the bridge and the addresses stay.
void agent_containers_destroy(agent_containers_t **self_p);

//  The runner's host path (borrowed), bound into every container.
const char *agent_containers_runner_path(agent_containers_t *self);

//  The context's runc driver (borrowed), for the recovery at start.
agent_runc_t *agent_containers_runc(agent_containers_t *self);

//  The network in bridge mode once made, else NULL (borrowed).
agent_net_t *agent_containers_net(agent_containers_t *self);

//  Apps' published ports (agent.publish.host), NULL when not published.
//  Made with the context, so any thread may use it (it locks itself).
agent_ports_t *agent_containers_ports(agent_containers_t *self);

//  In bridge mode, sets the network up when first needed, so that an agent
//  that never runs a kernel leaves the host's network alone. 0, or -1 with
//  err (UNAVAILABLE) when it cannot be made.
int agent_containers_net_ready(agent_containers_t *self, bus_error_t *err);

//  Prepares one kernel ahead (agent.spares): a kernel dir, and a network
//  once the network exists (a first create made it). 1 when it made either,
//  0 when none is wanted, -1 when making one failed (logged).
int agent_containers_spare_make(agent_containers_t *self);

//  Removes the bridge and the NAT table (a stopped agent with no kernel
//  leaves no rule behind). 0, or an error logged.
int agent_containers_net_teardown(agent_containers_t *self);

//  ---------------------------------------------------------------------------
//  A container record for kernel_id holding nothing. NULL when out of
//  memory. Caller owns return value.
agent_container_t *agent_container_new(const char *kernel_id);

//  Frees the record (and a travelling runc entry; the rootfs hold is
//  closed), giving nothing else back: a kernel that outlives the agent
//  keeps its container.
void agent_container_destroy(agent_container_t **self_p);

//  What a kernel a previous agent started, which runc still runs, holds:
//  its container, its network (when there is one), and a new hold on its
//  image's rootfs (digest's; none when pruned, logged).
void agent_containers_adopt(agent_containers_t *self,
                            agent_container_t *container,
                            const char *digest);

//  ---------------------------------------------------------------------------
//  Makes container's kernel on the host, in order: the image unpacked and
//  held, the network (bridge: a namespace and an address; host: the host's),
//  the hosts file (hostname: its own name), the runc container of spec
//  (whose kernel_id, image_rootfs, runner, tini, network and hosts fields it
//  fills), then waits for the runner and runs bootstrap (NULL or "": none).
//  On the worker's thread. Returns BUS_OK with container->entry the new
//  container's runc entry, or an error with container holding what was
//  made so far (give it back with agent_containers_release).
int agent_containers_setup(agent_containers_t *self,
                           agent_container_t *container,
                           const agent_container_image_t *image,
                           agent_kernel_spec_t *spec,
                           const char *bootstrap,
                           agent_container_times_t *times,
                           bus_error_t *err);

//  Stops container's kernel (TERM, grace_ms, KILL) and runs it again from
//  the same bundle, then waits for its runner: its files, address and
//  hosts file stay. container->entry must be its runc entry (taken from the
//  loop's driver); it is there again on return. The exit the stop saw goes
//  into *exit_code_p. BUS_OK, or an error (release it then).
int agent_containers_restart(agent_containers_t *self,
                             agent_container_t *container,
                             int grace_ms,
                             int *exit_code_p,
                             bus_error_t *err);

//  Gives back whatever container holds: the container (TERM, grace_ms,
//  KILL, runc delete, overlay and dir removed), the network, the rootfs
//  hold, the hosts file; clears the flags. The exit runc saw goes into
//  *exit_code_p (AGENT_RUNC_EXIT_UNKNOWN when none); err keeps the first
//  failure (each logged).
void agent_containers_release(agent_containers_t *self,
                              agent_container_t *container,
                              int grace_ms,
                              int *exit_code_p,
                              bus_error_t *err);

//  ---------------------------------------------------------------------------
//  The end of a kernel's container.log (at most max bytes) in a fresh
//  buffer of *size_p bytes, NULL when there is none. Any thread.
uint8_t *agent_container_log_tail(agent_runc_t *runc,
                                  const char *kernel_id,
                                  size_t max,
                                  size_t *size_p);

#endif
