//  GENERATED FROM proto/accounting.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_accounting - usage records and statistics, served by the accounting
    service

    Structs and codecs of the accounting domain. Included by proto.h: include
    bus.h, not this file. proto.h documents the functions every struct type T
    has (init, clear, check, write, writer for requests, encode, read, decode,
    print).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef PROTO_ACCOUNTING_H_INCLUDED
#define PROTO_ACCOUNTING_H_INCLUDED

//  Topics (events) and method names (RPC).
#define PROTO_ACCOUNTING_USAGE       "accounting.usage"
#define PROTO_ACCOUNTING_STATS_USER  "accounting.stats_user"
#define PROTO_ACCOUNTING_STATS_ALL   "accounting.stats_all"
#define PROTO_ACCOUNTING_RECALCULATE "accounting.recalculate"
#define PROTO_ACCOUNTING_LIVE        "accounting.live"

//  ---------------------------------------------------------------------------
//  accounting.figures, a nested value: what some kernels held and used within a window

typedef struct {
    //  Seconds the kernels existed (ran) within the window, summed
    double held_s;
    //  Cpu slot x seconds held (core-seconds)
    double cpu_held_s;
    //  Mem slot x seconds held (byte-seconds)
    double mem_held_byte_s;
    //  Accelerator *.device slots x seconds held
    double accel_device_s;
    //  Accelerator *.shares slots x seconds held
    double accel_share_s;
    //  CPU seconds used (cgroup)
    double cpu_used_s;
    //  Memory in use x seconds (byte-seconds, from the samples)
    double mem_used_byte_s;
    //  The largest peak memory of the kernels
    uint64_t mem_peak_bytes;
    //  Bytes read from block devices
    uint64_t io_read_bytes;
    //  Bytes written to block devices
    uint64_t io_write_bytes;
    //  Bytes received
    uint64_t net_rx_bytes;
    //  Bytes sent
    uint64_t net_tx_bytes;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_accounting_figures_t;

void proto_accounting_figures_init(proto_accounting_figures_t *self);
void proto_accounting_figures_clear(proto_accounting_figures_t *self);
PROTO_MUST_USE int proto_accounting_figures_check(const proto_accounting_figures_t *self,
                                                  bus_error_t *err);
PROTO_MUST_USE int proto_accounting_figures_write(const proto_accounting_figures_t *self,
                                                  bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_accounting_figures_encode(const proto_accounting_figures_t *self);
int proto_accounting_figures_read(proto_accounting_figures_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err);
int proto_accounting_figures_decode(proto_accounting_figures_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err);
char *proto_accounting_figures_print(const proto_accounting_figures_t *self);

//  ---------------------------------------------------------------------------
//  accounting.kernel, a nested value: one kernel's usage record (Backend.AI's c_info)

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  Its session (at most 64 bytes)
    const char *session_id;
    //  Its session's name (at most 64 bytes)
    const char *session_name;
    //  The owner's keypair (at most 64 bytes)
    const char *access_key;
    //  The owner (at most 64 bytes)
    const char *user_uuid;
    //  The project (at most 64 bytes)
    const char *group_id;
    //  The domain (at most 64 bytes)
    const char *domain_name;
    //  The resource group (at most 64 bytes)
    const char *scaling_group;
    //  The agent it ran on (at most 128 bytes)
    const char *agent_id;
    //  Its container (at most 128 bytes)
    const char *container_id;
    //  The image reference (at most 512 bytes)
    const char *image;
    //  PENDING, RUNNING, TERMINATED or CANCELLED (at most 24 bytes)
    const char *status;
    //  Why it ended (at most 64 bytes)
    const char *status_info;
    //  What it held, slot -> decimal string (at most 64 pairs, string to string, in wire
    //  order)
    const proto_kv_t *slots;
    size_t slots_count;
    //  When accounting first heard of it (microseconds since the epoch)
    int64_t created_at;
    //  When it started (0: never) (microseconds since the epoch)
    int64_t started_at;
    //  When it ended (0: still running) (microseconds since the epoch)
    int64_t ended_at;
    //  Within the window
    proto_accounting_figures_t usage;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_accounting_kernel_t;

#define PROTO_ACCOUNTING_KERNEL_KERNEL_ID_MAX     64
#define PROTO_ACCOUNTING_KERNEL_SESSION_ID_MAX    64
#define PROTO_ACCOUNTING_KERNEL_SESSION_NAME_MAX  64
#define PROTO_ACCOUNTING_KERNEL_ACCESS_KEY_MAX    64
#define PROTO_ACCOUNTING_KERNEL_USER_UUID_MAX     64
#define PROTO_ACCOUNTING_KERNEL_GROUP_ID_MAX      64
#define PROTO_ACCOUNTING_KERNEL_DOMAIN_NAME_MAX   64
#define PROTO_ACCOUNTING_KERNEL_SCALING_GROUP_MAX 64
#define PROTO_ACCOUNTING_KERNEL_AGENT_ID_MAX      128
#define PROTO_ACCOUNTING_KERNEL_CONTAINER_ID_MAX  128
#define PROTO_ACCOUNTING_KERNEL_IMAGE_MAX         512
#define PROTO_ACCOUNTING_KERNEL_STATUS_MAX        24
#define PROTO_ACCOUNTING_KERNEL_STATUS_INFO_MAX   64
#define PROTO_ACCOUNTING_KERNEL_SLOTS_MAX         64

void proto_accounting_kernel_init(proto_accounting_kernel_t *self);
void proto_accounting_kernel_clear(proto_accounting_kernel_t *self);
PROTO_MUST_USE int proto_accounting_kernel_check(const proto_accounting_kernel_t *self,
                                                 bus_error_t *err);
PROTO_MUST_USE int proto_accounting_kernel_write(const proto_accounting_kernel_t *self,
                                                 bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_accounting_kernel_encode(const proto_accounting_kernel_t *self);
int proto_accounting_kernel_read(proto_accounting_kernel_t *self,
                                 const bus_value_t *map,
                                 bus_error_t *err);
int proto_accounting_kernel_decode(proto_accounting_kernel_t *self,
                                   const void *data,
                                   size_t size,
                                   bus_error_t *err);
char *proto_accounting_kernel_print(const proto_accounting_kernel_t *self);

//  ---------------------------------------------------------------------------
//  accounting.group, a nested value: the usage of one project, user or session within the
//  window

typedef struct {
    //  The project (group_by project; else the first kernel's) (at most 64 bytes)
    const char *group_id;
    //  The domain (at most 64 bytes)
    const char *domain_name;
    //  Group_by user or session: the owner (at most 64 bytes)
    const char *user_uuid;
    //  Group_by user or session: the owner's keypair (at most 64 bytes)
    const char *access_key;
    //  Group_by session: the session (at most 64 bytes)
    const char *session_id;
    //  Group_by session: its name (at most 64 bytes)
    const char *session_name;
    //  Group_by resource_group: the resource group (at most 64 bytes)
    const char *scaling_group;
    //  Group_by image: the image reference (at most 512 bytes)
    const char *image;
    //  Kernels counted
    uint64_t kernel_count;
    //  Sessions counted
    uint64_t session_count;
    //  Cpu slots of the kernels counted, summed
    double cpu_allocated;
    //  Mem slots (bytes) of the kernels counted, summed
    double mem_allocated;
    //  Accelerator device and share slots, summed
    double accel_allocated;
    //  Within the window
    proto_accounting_figures_t usage;
    //  The kernels counted (with_kernels) (at most 20000 items)
    const proto_accounting_kernel_t *kernels;
    size_t kernels_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_accounting_group_t;

#define PROTO_ACCOUNTING_GROUP_GROUP_ID_MAX      64
#define PROTO_ACCOUNTING_GROUP_DOMAIN_NAME_MAX   64
#define PROTO_ACCOUNTING_GROUP_USER_UUID_MAX     64
#define PROTO_ACCOUNTING_GROUP_ACCESS_KEY_MAX    64
#define PROTO_ACCOUNTING_GROUP_SESSION_ID_MAX    64
#define PROTO_ACCOUNTING_GROUP_SESSION_NAME_MAX  64
#define PROTO_ACCOUNTING_GROUP_SCALING_GROUP_MAX 64
#define PROTO_ACCOUNTING_GROUP_IMAGE_MAX         512
#define PROTO_ACCOUNTING_GROUP_KERNELS_MAX       20000

void proto_accounting_group_init(proto_accounting_group_t *self);
void proto_accounting_group_clear(proto_accounting_group_t *self);
PROTO_MUST_USE int proto_accounting_group_check(const proto_accounting_group_t *self,
                                                bus_error_t *err);
PROTO_MUST_USE int proto_accounting_group_write(const proto_accounting_group_t *self,
                                                bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_accounting_group_encode(const proto_accounting_group_t *self);
int proto_accounting_group_read(proto_accounting_group_t *self,
                                const bus_value_t *map,
                                bus_error_t *err);
int proto_accounting_group_decode(proto_accounting_group_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err);
char *proto_accounting_group_print(const proto_accounting_group_t *self);

//  ---------------------------------------------------------------------------
//  accounting.bin, a nested value: one 15-minute bin of a user's statistics (Backend.AI's
//  stats/user/month entry)

typedef struct {
    //  The bin's start (microseconds since the epoch)
    int64_t date;
    //  Kernels alive at some time in the bin
    uint64_t num_sessions;
    //  Their cpu slots
    double cpu_allocated;
    //  Their mem slots (bytes)
    double mem_allocated;
    //  Their accelerator device and share slots
    double gpu_allocated;
    //  Bytes read in the bin
    double io_read_bytes;
    //  Bytes written in the bin
    double io_write_bytes;
    //  Cpu slot x seconds held in the bin
    double cpu_held_s;
    //  Mem slot x seconds held in the bin
    double mem_held_byte_s;
    //  Accelerator slots x seconds held in the bin
    double gpu_held_s;
    //  CPU seconds used in the bin
    double cpu_used_s;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_accounting_bin_t;

void proto_accounting_bin_init(proto_accounting_bin_t *self);
void proto_accounting_bin_clear(proto_accounting_bin_t *self);
PROTO_MUST_USE int proto_accounting_bin_check(const proto_accounting_bin_t *self,
                                              bus_error_t *err);
PROTO_MUST_USE int proto_accounting_bin_write(const proto_accounting_bin_t *self,
                                              bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_accounting_bin_encode(const proto_accounting_bin_t *self);
int proto_accounting_bin_read(proto_accounting_bin_t *self,
                              const bus_value_t *map,
                              bus_error_t *err);
int proto_accounting_bin_decode(proto_accounting_bin_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err);
char *proto_accounting_bin_print(const proto_accounting_bin_t *self);

//  ---------------------------------------------------------------------------
//  accounting.live, a nested value: one kernel's last figures

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  Accounting has a record of it
    bool found;
    //  It still runs (live_stat); false: the figures are its last (last_stat)
    bool live;
    //  When the last sample was taken (0: none yet) (microseconds since the epoch)
    int64_t at;
    //  Backend.AI's metric object as JSON (reference B.1): cpu_util, cpu_used, mem,
    //  io_read, io_write, net_rx, net_tx; absent when no sample came (at most 8192 bytes)
    const char *stat;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_accounting_live_t;

#define PROTO_ACCOUNTING_LIVE_KERNEL_ID_MAX 64
#define PROTO_ACCOUNTING_LIVE_STAT_MAX      8192

void proto_accounting_live_init(proto_accounting_live_t *self);
void proto_accounting_live_clear(proto_accounting_live_t *self);
PROTO_MUST_USE int proto_accounting_live_check(const proto_accounting_live_t *self,
                                               bus_error_t *err);
PROTO_MUST_USE int proto_accounting_live_write(const proto_accounting_live_t *self,
                                               bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_accounting_live_encode(const proto_accounting_live_t *self);
int proto_accounting_live_read(proto_accounting_live_t *self,
                               const bus_value_t *map,
                               bus_error_t *err);
int proto_accounting_live_decode(proto_accounting_live_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err);
char *proto_accounting_live_print(const proto_accounting_live_t *self);

//  ---------------------------------------------------------------------------
//  accounting.usage request (idempotent): what kernels whose life overlaps [from, to)
//  held and used within it, grouped by project, user, session, domain, resource group or
//  image (at most 100 projects; with kernels 101 days and 20000 kernels, without them 367
//  days and 200000 kernels)

typedef struct {
    //  Only these projects; empty: every project (of domain_name when given) (at most 100
    //  items)
    const char *const *group_ids;
    size_t group_ids_count;
    //  Only this domain's (at most 64 bytes)
    const char *domain_name;
    //  Only this user's (at most 64 bytes)
    const char *user_uuid;
    //  Only this keypair's (at most 64 bytes)
    const char *access_key;
    //  The window's start (inclusive) (required, microseconds since the epoch)
    int64_t from;
    //  The window's end (exclusive) (required, microseconds since the epoch)
    int64_t to;
    //  Project, user, session, domain, resource_group or image (at most 16 bytes, default
    //  "project")
    const char *group_by;
    //  Answer each group's kernels too (default true)
    bool with_kernels;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_accounting_usage_req_t;

#define PROTO_ACCOUNTING_USAGE_REQ_GROUP_IDS_MAX   100
#define PROTO_ACCOUNTING_USAGE_REQ_DOMAIN_NAME_MAX 64
#define PROTO_ACCOUNTING_USAGE_REQ_USER_UUID_MAX   64
#define PROTO_ACCOUNTING_USAGE_REQ_ACCESS_KEY_MAX  64
#define PROTO_ACCOUNTING_USAGE_REQ_GROUP_BY_MAX    16

void proto_accounting_usage_req_init(proto_accounting_usage_req_t *self);
void proto_accounting_usage_req_clear(proto_accounting_usage_req_t *self);
PROTO_MUST_USE int proto_accounting_usage_req_check(const proto_accounting_usage_req_t *self,
                                                    bus_error_t *err);
PROTO_MUST_USE int proto_accounting_usage_req_write(const proto_accounting_usage_req_t *self,
                                                    bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_accounting_usage_req_writer(const proto_accounting_usage_req_t *self,
                                                               bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_accounting_usage_req_encode(const proto_accounting_usage_req_t *self);
int proto_accounting_usage_req_read(proto_accounting_usage_req_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err);
int proto_accounting_usage_req_decode(proto_accounting_usage_req_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err);
char *proto_accounting_usage_req_print(const proto_accounting_usage_req_t *self);

//  ---------------------------------------------------------------------------
//  accounting.usage reply (idempotent): what kernels whose life overlaps [from, to) held
//  and used within it, grouped by project, user, session, domain, resource group or image
//  (at most 100 projects; with kernels 101 days and 20000 kernels, without them 367 days
//  and 200000 kernels)

typedef struct {
    //  One per project, user, session, domain, resource group or image, in key order (at
    //  most 200000 items)
    const proto_accounting_group_t *groups;
    size_t groups_count;
    //  The window's start (microseconds since the epoch)
    int64_t from;
    //  The window's end (microseconds since the epoch)
    int64_t to;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_accounting_usage_rep_t;

#define PROTO_ACCOUNTING_USAGE_REP_GROUPS_MAX 200000

void proto_accounting_usage_rep_init(proto_accounting_usage_rep_t *self);
void proto_accounting_usage_rep_clear(proto_accounting_usage_rep_t *self);
PROTO_MUST_USE int proto_accounting_usage_rep_check(const proto_accounting_usage_rep_t *self,
                                                    bus_error_t *err);
PROTO_MUST_USE int proto_accounting_usage_rep_write(const proto_accounting_usage_rep_t *self,
                                                    bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_accounting_usage_rep_encode(const proto_accounting_usage_rep_t *self);
int proto_accounting_usage_rep_read(proto_accounting_usage_rep_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err);
int proto_accounting_usage_rep_decode(proto_accounting_usage_rep_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err);
char *proto_accounting_usage_rep_print(const proto_accounting_usage_rep_t *self);

//  ---------------------------------------------------------------------------
//  accounting.stats_user request (idempotent): a user's (or keypair's) kernels over the
//  30 days before `to` in 2880 15-minute bins, oldest first, always all of them

typedef struct {
    //  The user (or access_key) (at most 64 bytes)
    const char *user_uuid;
    //  The keypair (or user_uuid) (at most 64 bytes)
    const char *access_key;
    //  The end of the last bin's 15 minutes is at or after this (0: now) (microseconds
    //  since the epoch)
    int64_t to;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_accounting_stats_user_req_t;

#define PROTO_ACCOUNTING_STATS_USER_REQ_USER_UUID_MAX  64
#define PROTO_ACCOUNTING_STATS_USER_REQ_ACCESS_KEY_MAX 64

void proto_accounting_stats_user_req_init(proto_accounting_stats_user_req_t *self);
void proto_accounting_stats_user_req_clear(proto_accounting_stats_user_req_t *self);
PROTO_MUST_USE int proto_accounting_stats_user_req_check(const proto_accounting_stats_user_req_t *self,
                                                         bus_error_t *err);
PROTO_MUST_USE int proto_accounting_stats_user_req_write(const proto_accounting_stats_user_req_t *self,
                                                         bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_accounting_stats_user_req_writer(const proto_accounting_stats_user_req_t *self,
                                                                    bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_accounting_stats_user_req_encode(const proto_accounting_stats_user_req_t *self);
int proto_accounting_stats_user_req_read(proto_accounting_stats_user_req_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err);
int proto_accounting_stats_user_req_decode(proto_accounting_stats_user_req_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err);
char *
proto_accounting_stats_user_req_print(const proto_accounting_stats_user_req_t *self);

//  ---------------------------------------------------------------------------
//  accounting.stats_user reply (idempotent): a user's (or keypair's) kernels over the 30
//  days before `to` in 2880 15-minute bins, oldest first, always all of them

typedef struct {
    //  2880 bins (at most 2880 items)
    const proto_accounting_bin_t *bins;
    size_t bins_count;
    //  900
    uint64_t bin_s;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_accounting_stats_user_rep_t;

#define PROTO_ACCOUNTING_STATS_USER_REP_BINS_MAX 2880

void proto_accounting_stats_user_rep_init(proto_accounting_stats_user_rep_t *self);
void proto_accounting_stats_user_rep_clear(proto_accounting_stats_user_rep_t *self);
PROTO_MUST_USE int proto_accounting_stats_user_rep_check(const proto_accounting_stats_user_rep_t *self,
                                                         bus_error_t *err);
PROTO_MUST_USE int proto_accounting_stats_user_rep_write(const proto_accounting_stats_user_rep_t *self,
                                                         bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_accounting_stats_user_rep_encode(const proto_accounting_stats_user_rep_t *self);
int proto_accounting_stats_user_rep_read(proto_accounting_stats_user_rep_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err);
int proto_accounting_stats_user_rep_decode(proto_accounting_stats_user_rep_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err);
char *
proto_accounting_stats_user_rep_print(const proto_accounting_stats_user_rep_t *self);

//  ---------------------------------------------------------------------------
//  accounting.stats_all request (idempotent): every kernel over the 30 days before `to`
//  in 2880 15-minute bins, oldest first, always all of them (the administrators' view; at
//  most 200000 kernels)

typedef struct {
    //  The end of the last bin's 15 minutes is at or after this (0: now) (microseconds
    //  since the epoch)
    int64_t to;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_accounting_stats_all_req_t;

void proto_accounting_stats_all_req_init(proto_accounting_stats_all_req_t *self);
void proto_accounting_stats_all_req_clear(proto_accounting_stats_all_req_t *self);
PROTO_MUST_USE int proto_accounting_stats_all_req_check(const proto_accounting_stats_all_req_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE int proto_accounting_stats_all_req_write(const proto_accounting_stats_all_req_t *self,
                                                        bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_accounting_stats_all_req_writer(const proto_accounting_stats_all_req_t *self,
                                                                   bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_accounting_stats_all_req_encode(const proto_accounting_stats_all_req_t *self);
int proto_accounting_stats_all_req_read(proto_accounting_stats_all_req_t *self,
                                        const bus_value_t *map,
                                        bus_error_t *err);
int proto_accounting_stats_all_req_decode(proto_accounting_stats_all_req_t *self,
                                          const void *data,
                                          size_t size,
                                          bus_error_t *err);
char *proto_accounting_stats_all_req_print(const proto_accounting_stats_all_req_t *self);

//  ---------------------------------------------------------------------------
//  accounting.stats_all reply (idempotent): every kernel over the 30 days before `to` in
//  2880 15-minute bins, oldest first, always all of them (the administrators' view; at
//  most 200000 kernels)

typedef struct {
    //  2880 bins (at most 2880 items)
    const proto_accounting_bin_t *bins;
    size_t bins_count;
    //  900
    uint64_t bin_s;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_accounting_stats_all_rep_t;

#define PROTO_ACCOUNTING_STATS_ALL_REP_BINS_MAX 2880

void proto_accounting_stats_all_rep_init(proto_accounting_stats_all_rep_t *self);
void proto_accounting_stats_all_rep_clear(proto_accounting_stats_all_rep_t *self);
PROTO_MUST_USE int proto_accounting_stats_all_rep_check(const proto_accounting_stats_all_rep_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE int proto_accounting_stats_all_rep_write(const proto_accounting_stats_all_rep_t *self,
                                                        bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_accounting_stats_all_rep_encode(const proto_accounting_stats_all_rep_t *self);
int proto_accounting_stats_all_rep_read(proto_accounting_stats_all_rep_t *self,
                                        const bus_value_t *map,
                                        bus_error_t *err);
int proto_accounting_stats_all_rep_decode(proto_accounting_stats_all_rep_t *self,
                                          const void *data,
                                          size_t size,
                                          bus_error_t *err);
char *proto_accounting_stats_all_rep_print(const proto_accounting_stats_all_rep_t *self);

//  ---------------------------------------------------------------------------
//  accounting.recalculate request (idempotent): rebuilds the roll-ups from the raw
//  samples: rolls up what is pending, rewrites the hourly buckets from `horizon` on (raw
//  samples before it have expired, so older buckets are the only record and stay) and the
//  daily buckets from the day of `horizon` on from the hourly ones and the records'
//  owners, then checks each rewritten kernel's buckets against its record's totals

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_accounting_recalculate_req_t;

void proto_accounting_recalculate_req_init(proto_accounting_recalculate_req_t *self);
void proto_accounting_recalculate_req_clear(proto_accounting_recalculate_req_t *self);
PROTO_MUST_USE int proto_accounting_recalculate_req_check(const proto_accounting_recalculate_req_t *self,
                                                          bus_error_t *err);
PROTO_MUST_USE int proto_accounting_recalculate_req_write(const proto_accounting_recalculate_req_t *self,
                                                          bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_accounting_recalculate_req_writer(const proto_accounting_recalculate_req_t *self,
                                                                     bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_accounting_recalculate_req_encode(const proto_accounting_recalculate_req_t *self);
int proto_accounting_recalculate_req_read(proto_accounting_recalculate_req_t *self,
                                          const bus_value_t *map,
                                          bus_error_t *err);
int proto_accounting_recalculate_req_decode(proto_accounting_recalculate_req_t *self,
                                            const void *data,
                                            size_t size,
                                            bus_error_t *err);
char *
proto_accounting_recalculate_req_print(const proto_accounting_recalculate_req_t *self);

//  ---------------------------------------------------------------------------
//  accounting.recalculate reply (idempotent): rebuilds the roll-ups from the raw samples:
//  rolls up what is pending, rewrites the hourly buckets from `horizon` on (raw samples
//  before it have expired, so older buckets are the only record and stay) and the daily
//  buckets from the day of `horizon` on from the hourly ones and the records' owners,
//  then checks each rewritten kernel's buckets against its record's totals

typedef struct {
    //  Samples that were still pending and got rolled up
    uint64_t rolled;
    //  Hourly buckets from here on were rewritten from the raw samples (microseconds
    //  since the epoch)
    int64_t horizon;
    //  Hourly buckets written
    uint64_t hourly;
    //  Daily buckets written
    uint64_t daily;
    //  Kernels whose buckets were rewritten and checked
    uint64_t kernels;
    //  Of those, kernels whose buckets still differ from their record's totals (their
    //  difference lies before the horizon)
    uint64_t mismatched;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_accounting_recalculate_rep_t;

void proto_accounting_recalculate_rep_init(proto_accounting_recalculate_rep_t *self);
void proto_accounting_recalculate_rep_clear(proto_accounting_recalculate_rep_t *self);
PROTO_MUST_USE int proto_accounting_recalculate_rep_check(const proto_accounting_recalculate_rep_t *self,
                                                          bus_error_t *err);
PROTO_MUST_USE int proto_accounting_recalculate_rep_write(const proto_accounting_recalculate_rep_t *self,
                                                          bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_accounting_recalculate_rep_encode(const proto_accounting_recalculate_rep_t *self);
int proto_accounting_recalculate_rep_read(proto_accounting_recalculate_rep_t *self,
                                          const bus_value_t *map,
                                          bus_error_t *err);
int proto_accounting_recalculate_rep_decode(proto_accounting_recalculate_rep_t *self,
                                            const void *data,
                                            size_t size,
                                            bus_error_t *err);
char *
proto_accounting_recalculate_rep_print(const proto_accounting_recalculate_rep_t *self);

//  ---------------------------------------------------------------------------
//  accounting.live request (idempotent): the last figures of some kernels (at most 1000),
//  in the order asked

typedef struct {
    //  The kernels (at most 1000 items)
    const char *const *kernel_ids;
    size_t kernel_ids_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_accounting_live_req_t;

#define PROTO_ACCOUNTING_LIVE_REQ_KERNEL_IDS_MAX 1000

void proto_accounting_live_req_init(proto_accounting_live_req_t *self);
void proto_accounting_live_req_clear(proto_accounting_live_req_t *self);
PROTO_MUST_USE int proto_accounting_live_req_check(const proto_accounting_live_req_t *self,
                                                   bus_error_t *err);
PROTO_MUST_USE int proto_accounting_live_req_write(const proto_accounting_live_req_t *self,
                                                   bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_accounting_live_req_writer(const proto_accounting_live_req_t *self,
                                                              bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_accounting_live_req_encode(const proto_accounting_live_req_t *self);
int proto_accounting_live_req_read(proto_accounting_live_req_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err);
int proto_accounting_live_req_decode(proto_accounting_live_req_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err);
char *proto_accounting_live_req_print(const proto_accounting_live_req_t *self);

//  ---------------------------------------------------------------------------
//  accounting.live reply (idempotent): the last figures of some kernels (at most 1000),
//  in the order asked

typedef struct {
    //  One per kernel asked (at most 1000 items)
    const proto_accounting_live_t *kernels;
    size_t kernels_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_accounting_live_rep_t;

#define PROTO_ACCOUNTING_LIVE_REP_KERNELS_MAX 1000

void proto_accounting_live_rep_init(proto_accounting_live_rep_t *self);
void proto_accounting_live_rep_clear(proto_accounting_live_rep_t *self);
PROTO_MUST_USE int proto_accounting_live_rep_check(const proto_accounting_live_rep_t *self,
                                                   bus_error_t *err);
PROTO_MUST_USE int proto_accounting_live_rep_write(const proto_accounting_live_rep_t *self,
                                                   bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_accounting_live_rep_encode(const proto_accounting_live_rep_t *self);
int proto_accounting_live_rep_read(proto_accounting_live_rep_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err);
int proto_accounting_live_rep_decode(proto_accounting_live_rep_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err);
char *proto_accounting_live_rep_print(const proto_accounting_live_rep_t *self);

#endif
