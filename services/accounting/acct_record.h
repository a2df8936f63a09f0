/*  =========================================================================
    acct_record - one kernel's usage record and its arithmetic

    A record is one row per kernel: who owned it (keypair, user, project,
    domain), where it ran (resource group, agent, image), what it held
    (its slots, as JSON of slot -> decimal string, and the four amounts the
    sums need: cpu, mem, accelerator devices and shares), when it started
    and ended, and what it used: the cgroup's cumulative counters as last
    seen, and the totals made of the deltas between samples. A sample that
    is not newer than the last one applied (out of order, a duplicate) or
    arrives after the final counters is skipped, so totals never move
    backwards; a counter lower than the last one seen means the counter
    restarted (the container was restarted in place) and counts from zero.
    Allocation-time (what was held) is slots x the overlap of [started,
    ended) with a window; it needs no samples. Pure code, no I/O.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef ACCT_RECORD_H_INCLUDED
#define ACCT_RECORD_H_INCLUDED

#include "bus.h"

//  ended_at of a record whose kernel has not ended: the largest time, so
//  "ends at or after t" is one index range that includes running kernels.
#define ACCT_OPEN INT64_MAX

#define ACCT_ID_MAX     65   //  ids and names, with the NUL (proto max 64)
#define ACCT_AGENT_MAX  129  //  agent and container ids (proto max 128)
#define ACCT_IMAGE_MAX  513  //  image references (proto max 512)
#define ACCT_SLOTS_MAX  4096 //  the slots JSON
#define ACCT_STATUS_MAX 25

//  Which source set the start and the end (the agent's times win over the
//  scheduler's, whatever order their events arrive in).
#define ACCT_SRC_AGENT_START 1
#define ACCT_SRC_AGENT_END   2

//  A kernel's cumulative counters at one moment (a kernel.stats sample, or
//  the final counters on kernel.terminated).
typedef struct {
    int64_t at; //  wall µs
    uint64_t cpu_used_ns;
    uint64_t mem_bytes;
    uint64_t mem_peak_bytes;
    uint64_t mem_limit_bytes;
    uint64_t pids;
    uint64_t io_read_bytes;
    uint64_t io_write_bytes;
    uint64_t net_rx_bytes;
    uint64_t net_tx_bytes;
    //  GPU figures now (0 without GPUs; a final sample has none).
    uint64_t cuda_devices;         //  GPUs it holds
    uint64_t cuda_mem_bytes;       //  GPU memory its processes use
    uint64_t cuda_mem_total_bytes; //  the memory of its GPUs
    uint64_t cuda_util_pct;        //  its SM use, percent summed over its GPUs
} acct_sample_t;

//  What one applied sample added: the raw row kept for roll-ups.
typedef struct {
    int64_t at;
    uint64_t cpu_ns;
    double mem_byte_s;
    uint64_t io_read;
    uint64_t io_write;
    uint64_t net_rx;
    uint64_t net_tx;
} acct_delta_t;

typedef struct {
    char kernel_id[ACCT_ID_MAX];
    char session_id[ACCT_ID_MAX];
    char session_name[ACCT_ID_MAX];
    char access_key[ACCT_ID_MAX];
    char user_uuid[ACCT_ID_MAX];
    char group_id[ACCT_ID_MAX];
    char domain_name[ACCT_ID_MAX];
    char scaling_group[ACCT_ID_MAX];
    char agent_id[ACCT_AGENT_MAX];
    char container_id[ACCT_AGENT_MAX];
    char image[ACCT_IMAGE_MAX];
    char status[ACCT_STATUS_MAX];
    char status_info[ACCT_ID_MAX];
    char slots[ACCT_SLOTS_MAX]; //  JSON object of decimal strings
    double cpu;                 //  from slots: cpu
    double mem;                 //  mem (bytes)
    double accel_device;        //  every *.device / *.devices slot
    double accel_share;         //  every *.shares slot
    int64_t created_at;
    int64_t started_at; //  0: not (yet) started
    int64_t ended_at;   //  ACCT_OPEN: not ended
    int src_flags;      //  ACCT_SRC_*
    bool final;         //  the final counters were applied
    //  The counters as last seen (for deltas).
    acct_sample_t last;
    //  Totals of the deltas applied.
    uint64_t cpu_ns;
    double mem_byte_s;
    uint64_t mem_peak_bytes;
    uint64_t io_read;
    uint64_t io_write;
    uint64_t net_rx;
    uint64_t net_tx;
    uint64_t samples;
    double cpu_util;     //  msec of CPU per second over the last interval
    double cpu_util_max; //  the largest of those
    //  Bytes per second over the last interval (live_stat's io stats.rate
    //  and net current, in Backend.AI's bps).
    double io_read_rate;
    double io_write_rate;
    double net_rx_rate;
    double net_tx_rate;
    //  GPU figures over the samples (live_stat's cuda_mem and cuda_util).
    uint64_t cuda_mem_max; //  the most GPU memory its processes used
    double cuda_util_max;  //  the highest cuda_util_pct
    double cuda_util_s;    //  cuda_util_pct x seconds, for the average
} acct_record_t;

//  ---------------------------------------------------------------------------
//  A fresh record of kernel_id first heard of at at (status PENDING, open).
void acct_record_init(acct_record_t *self, const char *kernel_id, int64_t at);

//  Applies sample: adds its deltas to the totals and fills delta. A final
//  sample (kernel.terminated's counters) is applied once, whatever its time,
//  and closes the record to samples. Returns true when applied, false when
//  skipped (not newer than the last, or after the final counters).
bool acct_record_sample(acct_record_t *self,
                        const acct_sample_t *sample,
                        bool final,
                        acct_delta_t *delta);

//  Sets the slots from a map (slot -> decimal string): the JSON and the four
//  amounts. 0, or -1 when the JSON would not fit (the slots are left).
int acct_record_set_slots(acct_record_t *self, const proto_kv_t *slots, size_t count);

//  Seconds the kernel ran within [from, to), counting a running one up to
//  now. 0 when it never started.
double
acct_record_held_s(const acct_record_t *self, int64_t from, int64_t to, int64_t now);

//  Whether the kernel's whole life lies inside [from, to) (its totals are
//  then the window's), counting a running one up to now.
bool acct_record_inside(const acct_record_t *self, int64_t from, int64_t to, int64_t now);

//  Backend.AI's metric object (reference B.1) for the record's last figures,
//  as JSON; with cuda_mem and cuda_util (as Backend.AI's CUDA plugin: bytes
//  of the kernel's GPUs' memory; percent with 100 per GPU it holds) when
//  it held GPUs. Caller owns return value; NULL when no sample came yet.
char *acct_record_stat_json(const acct_record_t *self);

#endif
