/*  =========================================================================
    sched_cluster - a cluster session's kernels learn each other's names

    Backend.AI names the kernels of a cluster session by their role and
    their index within that role: main1, sub1, sub2... (the manager's
    registry, cluster_hostname). kernel.create tells each kernel every name
    of its session (cluster_hosts), so that the agent sets its hostname and
    its BACKENDAI_CLUSTER_* environment; the addresses come later, one per
    kernel.started. Once every kernel of a session with cluster_size > 1
    has its address, each kernel's agent gets kernel.hosts with the whole
    hostname -> address map, which it writes into the kernel's /etc/hosts.
    A failed kernel.hosts is logged and not retried: the kernels run, only
    their names do not resolve.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_CLUSTER_H_INCLUDED
#define SCHED_CLUSTER_H_INCLUDED

#include "bus.h"

#define SCHED_CLUSTER_SENT_MAX 256 //  sessions whose last map is remembered

typedef struct _sched_cluster_t sched_cluster_t;

//  Sends kernel.hosts on node's behalf. NULL when out of memory.
sched_cluster_t *sched_cluster_new(bus_node_t *node);
void sched_cluster_destroy(sched_cluster_t **self_p);

//  The hostnames of session_id's kernels in cluster_idx order, comma-
//  separated ("main1,sub1,sub2"), into out (size bytes). Returns BUS_OK,
//  NOT_FOUND when the session has no kernels, or INTERNAL (out too small,
//  or the database failed).
int sched_cluster_hosts(bus_db_t *db, const char *session_id, char *out, size_t size);

//  Called when a kernel of session_id started (inside the transaction that
//  records it): when the session is a cluster (cluster_size > 1) whose
//  kernels all have an address and none has ended, sends kernel.hosts with
//  the map of every kernel's hostname to its address to each kernel's
//  agent. Calls that fail are logged, not retried. The same map is sent
//  once per session (the last one of the latest SCHED_CLUSTER_SENT_MAX
//  sessions is remembered); a changed map is sent again.
void sched_cluster_started(sched_cluster_t *self, const char *session_id);

#endif
