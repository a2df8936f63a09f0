/*  =========================================================================
    agent_stats - a kernel's resource usage, read from its cgroups

    Each kernel's cgroup is /backplane/<kernel_id> (see agent_bundle). On a
    cgroup v1 or hybrid host the numbers live in the v1 controllers
    (cpuacct, memory, pids); on a pure v2 host in the one unified tree. The
    agent samples these on its tick; CPU percent is the delta of cpu_used_ns
    over the elapsed time.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_STATS_H_INCLUDED
#define AGENT_STATS_H_INCLUDED

#include <stdint.h>

#define AGENT_STATS_CGROUP_ROOT "/sys/fs/cgroup"

//  One sample. A value the host does not offer is 0; memory_limit_bytes is
//  0 when the kernel has no limit.
typedef struct {
    uint64_t cpu_used_ns;        //  CPU time of all its tasks since start
    uint64_t memory_bytes;       //  memory charged now
    uint64_t memory_max_bytes;   //  highest memory charged
    uint64_t memory_limit_bytes; //  its memory limit
    uint64_t memory_failcnt;     //  times the limit was hit (v1 only)
    uint64_t oom_kills;          //  processes the OOM killer took
    uint64_t pids;               //  tasks now
} agent_stats_t;

//  ---------------------------------------------------------------------------
//  Fill stats for kernel_id (a valid kernel id). Returns 0, or
//  BUS_STATUS_NOT_FOUND when the kernel has no cgroup (not started, removed).
int agent_stats_read(const char *kernel_id, agent_stats_t *stats);

#endif
