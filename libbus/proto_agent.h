//  GENERATED FROM proto/agent.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_agent - agent presence and capacity

    Structs and codecs of the agent domain. Included by proto.h: include
    bus.h, not this file. proto.h documents the functions every struct type T
    has (init, clear, check, write, writer for requests, encode, read, decode,
    print).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef PROTO_AGENT_H_INCLUDED
#define PROTO_AGENT_H_INCLUDED

//  Topics (events) and method names (RPC).
#define PROTO_AGENT_HEARTBEAT "agent.heartbeat"
#define PROTO_AGENT_STATS     "agent.stats"

//  ---------------------------------------------------------------------------
//  agent.core, a nested value: one CPU's busy time during the interval

typedef struct {
    //  User, nice, system, irq, softirq and steal time during interval_ms
    uint64_t busy_ms;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_agent_core_t;

void proto_agent_core_init(proto_agent_core_t *self);
void proto_agent_core_clear(proto_agent_core_t *self);
PROTO_MUST_USE int proto_agent_core_check(const proto_agent_core_t *self,
                                          bus_error_t *err);
PROTO_MUST_USE int proto_agent_core_write(const proto_agent_core_t *self,
                                          bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_agent_core_encode(const proto_agent_core_t *self);
int
proto_agent_core_read(proto_agent_core_t *self, const bus_value_t *map, bus_error_t *err);
int proto_agent_core_decode(proto_agent_core_t *self,
                            const void *data,
                            size_t size,
                            bus_error_t *err);
char *proto_agent_core_print(const proto_agent_core_t *self);

//  ---------------------------------------------------------------------------
//  agent.gpu, a nested value: one GPU's figures now (NVML)

typedef struct {
    //  Its id (the GPU's UUID) (at most 96 bytes)
    const char *id;
    //  Its index (NVML, CUDA)
    uint64_t index;
    //  Percent of NVML's last sample period a kernel ran on it
    uint64_t util_pct;
    //  Its memory in use
    uint64_t mem_used_bytes;
    //  Its memory
    uint64_t mem_total_bytes;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_agent_gpu_t;

#define PROTO_AGENT_GPU_ID_MAX 96

void proto_agent_gpu_init(proto_agent_gpu_t *self);
void proto_agent_gpu_clear(proto_agent_gpu_t *self);
PROTO_MUST_USE int proto_agent_gpu_check(const proto_agent_gpu_t *self, bus_error_t *err);
PROTO_MUST_USE int proto_agent_gpu_write(const proto_agent_gpu_t *self,
                                         bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_agent_gpu_encode(const proto_agent_gpu_t *self);
int
proto_agent_gpu_read(proto_agent_gpu_t *self, const bus_value_t *map, bus_error_t *err);
int proto_agent_gpu_decode(proto_agent_gpu_t *self,
                           const void *data,
                           size_t size,
                           bus_error_t *err);
char *proto_agent_gpu_print(const proto_agent_gpu_t *self);

//  ---------------------------------------------------------------------------
//  agent.heartbeat, event (broadcast): an agent is alive and has these resources (every
//  bus.heartbeat_ms)

typedef struct {
    //  The agent's node name (required, at most 128 bytes)
    const char *agent_id;
    //  Where it runs, e.g. local (at most 64 bytes)
    const char *region;
    //  The resource group it serves (at most 64 bytes)
    const char *scaling_group;
    //  X86_64 or aarch64 (at most 32 bytes)
    const char *architecture;
    //  Backplane version of the agent (at most 64 bytes)
    const char *version;
    //  Where the scheduler reaches it (at most 256 bytes)
    const char *rpc_endpoint;
    //  Whether new kernels may be placed on it
    bool schedulable;
    //  Slot -> capacity as a decimal string, e.g. cpu: 2, mem: 8589934592 (at most 64
    //  pairs, string to string, in wire order)
    const proto_kv_t *available_slots;
    size_t available_slots_count;
    //  Slot -> what its live kernels were given, summed (absent: not reported) (at most
    //  64 pairs, string to string, in wire order)
    const proto_kv_t *occupied_slots;
    size_t occupied_slots_count;
    //  How many kernels it has now
    uint64_t kernel_count;
    //  When this agent process started: another value means it restarted, and calls in
    //  flight to its previous process are lost (0: not reported) (microseconds since the
    //  epoch)
    int64_t started_at;
    //  Accelerator slot -> the most one kernel could be given of it now, as the agent's
    //  per-device allocator places it (whole slots: its completely free devices; shares:
    //  what fits whole free devices plus the most free on one device in use): what totals
    //  cannot show (absent: no bound) (at most 64 pairs, string to string, in wire order)
    const proto_kv_t *placeable_slots;
    size_t placeable_slots_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_agent_heartbeat_t;

#define PROTO_AGENT_HEARTBEAT_AGENT_ID_MAX        128
#define PROTO_AGENT_HEARTBEAT_REGION_MAX          64
#define PROTO_AGENT_HEARTBEAT_SCALING_GROUP_MAX   64
#define PROTO_AGENT_HEARTBEAT_ARCHITECTURE_MAX    32
#define PROTO_AGENT_HEARTBEAT_VERSION_MAX         64
#define PROTO_AGENT_HEARTBEAT_RPC_ENDPOINT_MAX    256
#define PROTO_AGENT_HEARTBEAT_AVAILABLE_SLOTS_MAX 64
#define PROTO_AGENT_HEARTBEAT_OCCUPIED_SLOTS_MAX  64
#define PROTO_AGENT_HEARTBEAT_PLACEABLE_SLOTS_MAX 64

void proto_agent_heartbeat_init(proto_agent_heartbeat_t *self);
void proto_agent_heartbeat_clear(proto_agent_heartbeat_t *self);
PROTO_MUST_USE int proto_agent_heartbeat_check(const proto_agent_heartbeat_t *self,
                                               bus_error_t *err);
PROTO_MUST_USE int proto_agent_heartbeat_write(const proto_agent_heartbeat_t *self,
                                               bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_agent_heartbeat_encode(const proto_agent_heartbeat_t *self);
int proto_agent_heartbeat_read(proto_agent_heartbeat_t *self,
                               const bus_value_t *map,
                               bus_error_t *err);
int proto_agent_heartbeat_decode(proto_agent_heartbeat_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err);
char *proto_agent_heartbeat_print(const proto_agent_heartbeat_t *self);

//  ---------------------------------------------------------------------------
//  agent.stats, event (broadcast): the host's live figures, Backend.AI's node live_stat
//  (every bus.heartbeat_ms): CPU busy time per core from /proc/stat deltas, memory in use
//  from /proc/meminfo

typedef struct {
    //  The agent's node name (required, at most 128 bytes)
    const char *agent_id;
    //  The wall time the CPU figures cover (0: no earlier reading yet)
    uint64_t interval_ms;
    //  Each online CPU, in /proc/stat's order (at most 4096 items)
    const proto_agent_core_t *cores;
    size_t cores_count;
    //  Memory in use now: MemTotal - MemAvailable
    uint64_t mem_used_bytes;
    //  The host's memory: MemTotal
    uint64_t mem_total_bytes;
    //  Each GPU of the cuda plugin (NVML), in index order; empty without (at most 64
    //  items)
    const proto_agent_gpu_t *gpus;
    size_t gpus_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_agent_stats_t;

#define PROTO_AGENT_STATS_AGENT_ID_MAX 128
#define PROTO_AGENT_STATS_CORES_MAX    4096
#define PROTO_AGENT_STATS_GPUS_MAX     64

void proto_agent_stats_init(proto_agent_stats_t *self);
void proto_agent_stats_clear(proto_agent_stats_t *self);
PROTO_MUST_USE int proto_agent_stats_check(const proto_agent_stats_t *self,
                                           bus_error_t *err);
PROTO_MUST_USE int proto_agent_stats_write(const proto_agent_stats_t *self,
                                           bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_agent_stats_encode(const proto_agent_stats_t *self);
int proto_agent_stats_read(proto_agent_stats_t *self,
                           const bus_value_t *map,
                           bus_error_t *err);
int proto_agent_stats_decode(proto_agent_stats_t *self,
                             const void *data,
                             size_t size,
                             bus_error_t *err);
char *proto_agent_stats_print(const proto_agent_stats_t *self);

#endif
