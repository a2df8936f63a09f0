/*  =========================================================================
    agent_hoststats - the host's CPU and memory use, for agent.stats

    Backend.AI's node live_stat: the CPU time each core was busy between two
    readings of /proc/stat (user, nice, system, irq, softirq and steal; idle
    and iowait are not busy), and the memory in use from /proc/meminfo
    (MemTotal - MemAvailable, what the kernel could not hand out without
    swapping). The object keeps the previous reading; the first one has no
    interval. The parsers are pure, for the unit test.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_HOSTSTATS_H_INCLUDED
#define AGENT_HOSTSTATS_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

//  The most CPUs counted (the schema's limit on agent.stats cores).
#define AGENT_HOSTSTATS_CORES_MAX 4096
#define AGENT_HOSTSTATS_PROC_STAT "/proc/stat"
#define AGENT_HOSTSTATS_MEMINFO   "/proc/meminfo"

typedef struct _agent_hoststats_t agent_hoststats_t;

//  One reading's figures. busy_ms is borrowed from the object, valid until
//  its next take.
typedef struct {
    uint64_t interval_ms;    //  wall time since the previous reading; 0: first
    size_t cores;            //  CPUs in busy_ms
    const uint64_t *busy_ms; //  per CPU: busy during the interval (0 when first)
    uint64_t mem_used_bytes;
    uint64_t mem_total_bytes;
} agent_hoststats_sample_t;

//  ---------------------------------------------------------------------------
//  A reader of the host's figures. NULL when out of memory.
agent_hoststats_t *agent_hoststats_new(void);

//  ---------------------------------------------------------------------------
//  Safe twice; clears the pointer.
void agent_hoststats_destroy(agent_hoststats_t **self_p);

//  ---------------------------------------------------------------------------
//  Reads /proc/stat and /proc/meminfo at now_ms (monotonic) into *out.
//  0, or -1 when either cannot be read or parsed (the previous reading
//  stays).
int agent_hoststats_take(agent_hoststats_t *self,
                         int64_t now_ms,
                         agent_hoststats_sample_t *out);

//  ---------------------------------------------------------------------------
//  Parses /proc/stat's "cpuN" lines: each CPU's busy ticks into busy[i]
//  (room for max). Returns the count, or -1 when there is none.
int agent_hoststats_parse_cpu(const char *text, uint64_t *busy, size_t max);

//  ---------------------------------------------------------------------------
//  Parses /proc/meminfo: MemTotal and MemAvailable (bytes). 0, or -1 when
//  MemTotal is missing (MemAvailable missing: MemFree + Buffers + Cached).
int agent_hoststats_parse_mem(const char *text, uint64_t *used, uint64_t *total);

#endif
