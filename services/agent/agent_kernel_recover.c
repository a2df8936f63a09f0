/*  =========================================================================
    agent_kernel_recover - after a restart: adopt what runs, report what died

    At start, before the worker runs (the containers context is the loop's
    until then, and the jobs of the ends below run inline), every row of
    the agent's table is looked up in `runc list`: a kernel whose container
    still runs is adopted (its runc entry in the loop's driver, a new hold
    on its rootfs, its network, a runner client, its accelerators taken
    again), one that died meanwhile ends as any kernel does, lost-on-restart.
    Then what a crash inside a create or an end left is removed: a container
    nobody recorded, and a kernel directory (with its mounts) or an address
    (with its namespace and veth) of a kernel with no row, or the create the
    scheduler sends again would be refused ("already has a network"), and
    the hosts files of kernels that are gone.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <dirent.h> //  opendir: leftovers under the state dir

//  What the walk over the table collects.
typedef struct {
    agent_kernels_t *self;
    const agent_runc_state_t *states; //  runc list
    size_t count;
    zhashx_t *rows; //  ids of the table
    zlistx_t *lost; //  agent_kernel_t whose container is gone
} s_recovery_t;

//  One row: adopted when runc still runs it, else kept for the end.
static void
s_on_row(const agent_db_kernel_t *row, void *arg)
{
    s_recovery_t *recovery = arg;
    agent_kernels_t *self = recovery->self;
    agent_kernel_t *kernel =
        agent_kernel_new(self, row->id, row->session_id, row->digest);
    if (!kernel)
        return;
    snprintf(kernel->ip, sizeof kernel->ip, "%s", row->ip ? row->ip : "");
    snprintf(kernel->container->ip, sizeof kernel->container->ip, "%s", kernel->ip);
    kernel->recorded = true;
    kernel->state = AGENT_KERNEL_RUNNING;
    zhashx_insert(recovery->rows, row->id, "");
    const agent_runc_state_t *state = NULL;
    for (size_t i = 0; i < recovery->count; i++)
        if (strcmp(recovery->states[i].id, row->id) == 0)
            state = &recovery->states[i];
    bus_error_t err;
    bool running = state && state->pid > 0 && strcmp(state->status, "running") == 0 &&
                   agent_runc_pid_alive(state->pid) &&
                   agent_runc_adopt(self->runc, row->id, state->pid, &err) == BUS_OK;
    if (!running) {
        //  Its end gives back whatever is left of it.
        kernel->container->container = true;
        kernel->container->net = agent_containers_net(self->containers) != NULL;
        zlistx_add_end(recovery->lost, kernel);
        return;
    }
    kernel->pid = kernel->container->pid = state->pid;
    kernel->adopted = true;
    agent_containers_adopt(self->containers, kernel->container, row->digest);
    zhashx_insert(self->kernels, kernel->id, kernel);
    char *socket = agent_runc_kernel_path(self->runc, row->id, "run/runner.sock");
    if (!socket || agent_kernels_runner_start(self, kernel, socket, &err) != BUS_OK)
        bus_log_warning("adopted kernel has no runner client kernel=%s", row->id);
    zstr_free(&socket);
    bus_log_notice("kernel adopted kernel=%s pid=%d", row->id, kernel->pid);
    //  Its model service's checks again (the runner answers "running" to
    //  the start: the service outlived the agent, as the container did).
    if (row->model_service && kernel->runner)
        kernel->model = agent_model_start(self, kernel, row->model_service);
    //  Its devices again, so that no new kernel is given them. When they no
    //  longer fit (the accelerators' configuration changed) it keeps
    //  running, unaccounted, and the log says so.
    if (row->accel && *row->accel &&
        agent_accel_restore(self->accel, row->id, row->accel, &err) != BUS_OK)
        bus_log_error("kernel accelerators not restored kernel=%s accel=\"%s\""
                      " detail=\"%s\"",
                      row->id, row->accel, err.detail);
    else
        agent_kernel_gpu_adopt(self, row->id);
}

//  Removes what <state_dir>/<leaf>/<id> (leaf "kernels": the kernel's
//  directory, "net": its network allocation) holds for kernels that have
//  no row in rows (the table's ids).
static void
s_sweep_unrecorded(agent_kernels_t *self, zhashx_t *rows, const char *leaf)
{
    agent_runc_t *runc = agent_containers_runc(self->containers);
    agent_net_t *net = agent_containers_net(self->containers);
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
        int rc = strcmp(leaf, "net") == 0 ? agent_net_detach(net, id, &err)
                                          : agent_runc_remove(runc, id, 0, NULL, &err);
        agent_ports_t *ports = agent_containers_ports(self->containers);
        if (ports)
            agent_ports_release(ports, id);
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

//  ---------------------------------------------------------------------------
//  Adopt, report, clean up.

void
agent_kernel_recover(agent_kernels_t *self)
{
    assert(self);
    assert(!self->worker); //  the context is the loop's
    agent_runc_state_t *states = NULL;
    size_t count = 0;
    bus_error_t err;
    if (agent_runc_list(self->runc, &states, &count, &err) != BUS_OK)
        bus_log_error("cannot list kernels detail=\"%s\"", err.detail);
    //  Kernels left from before need the network for their clean-up.
    bus_db_t *db = bus_node_db(self->node);
    char *net_dir = zsys_sprintf("%s/net", self->config->node.state_dir);
    if (count > 0 || agent_db_kernels_any(db) || (net_dir && access(net_dir, F_OK) == 0))
        agent_containers_net_ready(self->containers, NULL);
    zstr_free(&net_dir);
    s_recovery_t recovery = {self, states, count, zhashx_new(), zlistx_new()};
    if (recovery.rows && recovery.lost)
        agent_db_kernels_each(db, s_on_row, &recovery);
    //  The dead ones: ended (the table is no longer being read).
    agent_kernel_t *kernel;
    while (recovery.lost && (kernel = zlistx_detach(recovery.lost, NULL))) {
        zhashx_insert(self->kernels, kernel->id, kernel);
        agent_kernels_end(self, kernel, 0, "lost-on-restart",
                          "the agent restarted and it was gone", AGENT_RUNC_EXIT_UNKNOWN,
                          false);
    }
    //  Containers of ours nobody recorded (a crash inside create): removed.
    for (size_t i = 0; recovery.rows && i < count; i++)
        if (!zhashx_lookup(recovery.rows, states[i].id)) {
            bus_log_warning("removing unrecorded kernel=%s", states[i].id);
            agent_container_t *leftover = agent_container_new(states[i].id);
            if (leftover) {
                leftover->container = true;
                leftover->net = agent_containers_net(self->containers) != NULL;
                agent_containers_release(self->containers, leftover, 0, NULL, NULL);
            }
            agent_container_destroy(&leftover);
        }
    //  A crash inside create before runc knew the container leaves no
    //  container to list, but its directory (overlay mounts) or its network
    //  (allocation file, namespace, veth): removed too.
    if (recovery.rows) {
        s_sweep_unrecorded(self, recovery.rows, "kernels");
        if (agent_containers_net(self->containers))
            s_sweep_unrecorded(self, recovery.rows, "net");
    }
    zlistx_destroy(&recovery.lost);
    zhashx_destroy(&recovery.rows);
    free(states);
    //  Hosts files of kernels that are gone (a crash inside create or end).
    agent_hosts_sweep(self->config->node.state_dir, self->kernels);
}
