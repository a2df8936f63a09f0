/*  =========================================================================
    agent_stats - a kernel's resource usage, read from its cgroups

    Each kernel's cgroup is /backplane/<kernel_id> (see agent_bundle). On a
    cgroup v1 or hybrid host the numbers live in the v1 controllers
    (cpuacct, memory, pids); on a pure v2 host in the one unified tree. The
    agent samples these on its tick; CPU percent is the delta of cpu_used_ns
    over the elapsed time.

    Block I/O is the bytes read and written, summed over devices: io.stat's
    rbytes and wbytes on v2, blkio.throttle.io_service_bytes_recursive's
    Read and Write rows on v1 (the only v1 file that counts without the BFQ
    scheduler). Since Linux 6.10 the v1 throttle counts only on a disk whose
    throttling was switched on by a rule, so on v1 hosts every kernel gets
    a no-op rule (AGENT_STATS_BLKIO_RATE) for the disks under its writable
    layer and folders (agent_stats_disk, agent_bundle). Network bytes are
    those of the kernel's host-side veth (agent_net_veth_name) as the
    container sees them: what the host side received the container sent.
    A kernel on the host's network has no veth, and its network counters
    stay 0.

    GPU figures (kernel.stats' cuda_*) come from the CUDA plugin's NVML once
    per stats tick (agent_stats_gpus_new: every GPU's compute processes with
    their memory and SM use, and each process's /proc/<pid>/cgroup, read
    once whatever the number of kernels); a kernel's are the processes on
    the GPUs it holds whose cgroup is the kernel's or below it, summed.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_STATS_H_INCLUDED
#define AGENT_STATS_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "agent_accel.h"

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
    uint64_t io_read_bytes;      //  read from block devices since start
    uint64_t io_write_bytes;     //  written to block devices since start
    uint64_t net_rx_bytes;       //  received on its eth0 since start
    uint64_t net_tx_bytes;       //  sent on its eth0 since start
} agent_stats_t;

//  The rate of the no-op throttle rule that switches on the v1 counters of a
//  disk: 1 PiB/s, which no disk reaches.
#define AGENT_STATS_BLKIO_RATE (1ULL << 50)

//  ---------------------------------------------------------------------------
//  Fill stats for kernel_id (a valid kernel id). Returns 0, or
//  BUS_STATUS_NOT_FOUND when the kernel has no cgroup (not started, removed).
int agent_stats_read(const char *kernel_id, agent_stats_t *stats);

//  ---------------------------------------------------------------------------
//  Sums a cgroup v2 io.stat text ("MAJ:MIN rbytes=N wbytes=N rios=N ...",
//  one line per device) into read and write. A line that does not start
//  with MAJ:MIN, or a value that is not a decimal number, is skipped; sums
//  saturate rather than wrap. Returns the number of device lines counted.
int agent_stats_parse_io_stat(const char *text, uint64_t *read, uint64_t *write);

//  Sums a cgroup v1 blkio.throttle.io_service_bytes text ("MAJ:MIN Read N",
//  "MAJ:MIN Write N", ... per device, then "Total N") into read and write,
//  skipping malformed lines as above. Returns the number of Read and Write
//  rows counted.
int agent_stats_parse_blkio(const char *text, uint64_t *read, uint64_t *write);

//  The receive and transmit byte counters of interface ifname in a
//  /proc/net/dev text (two header lines, then "NAME: rx_bytes rx_packets ...
//  (8 receive fields) tx_bytes ..." per interface). 0, or -1 when no line
//  names ifname or its first nine fields are not decimal numbers.
int agent_stats_parse_net_dev(const char *text,
                              const char *ifname,
                              uint64_t *rx,
                              uint64_t *tx);

//  ---------------------------------------------------------------------------
//  A kernel's GPU figures; all 0 when it holds no GPU of the CUDA plugin.
typedef struct {
    uint32_t devices;         //  GPUs it holds (whole or a share)
    uint64_t mem_bytes;       //  GPU memory its processes use, summed
    uint64_t mem_total_bytes; //  the memory of its GPUs
    uint32_t util_pct;        //  its processes' SM use, percent summed over GPUs
} agent_stats_gpu_t;

#define AGENT_STATS_CGROUP_TEXT_MAX 4096 //  a /proc/<pid>/cgroup read

typedef struct _agent_stats_gpus_t agent_stats_gpus_t;

//  One reading of the GPUs' compute processes and their cgroups. NULL when
//  accel has no CUDA plugin (nothing to read) or out of memory. Caller owns
//  return value.
agent_stats_gpus_t *agent_stats_gpus_new(const agent_accel_t *accel);

void agent_stats_gpus_destroy(agent_stats_gpus_t **self_p);

//  The figures of a kernel holding alloc (NULL: nothing) whose processes
//  live in cgroup_path or below it (agent_stats_cgroup_path).
void agent_stats_gpus_kernel(const agent_stats_gpus_t *self,
                             const agent_accel_alloc_t *alloc,
                             const char *cgroup_path,
                             agent_stats_gpu_t *out);

//  A kernel's cgroup as /proc/<pid>/cgroup names it: "/backplane/<id>".
void agent_stats_cgroup_path(const char *kernel_id, char *path, size_t size);

//  Whether text (a /proc/<pid>/cgroup: "ID:CONTROLLERS:PATH" per line, v1,
//  hybrid or v2) puts the process in path or below it on any hierarchy.
//  Malformed lines are skipped. Pure.
bool agent_stats_cgroup_within(const char *text, const char *path);

//  ---------------------------------------------------------------------------
//  True when the host keeps the controllers in cgroup v1 (v1 or hybrid).
bool agent_stats_cgroup_v1(void);

//  The whole disk holding path's file system, as major and minor numbers
//  (a partition's disk; a disk as it is). Returns 0, or -1 when path's file
//  system is not on a block device (tmpfs, overlay) or cannot be stat'ed.
int agent_stats_disk(const char *path, int64_t *major, int64_t *minor);

#endif
