/*  =========================================================================
    acct_db - the accounting's database: its schema and every statement

    access_log: one row per request a gateway answered, keyed by the
    gateway's request id, so an event delivered twice (a replay after a
    restart of either side) is kept once.
    usage: one record per kernel (acct_record.h), keyed by kernel id.
    ended_at is ACCT_OPEN while the kernel runs, so the windows' indexes
    ((group_id | user_uuid | access_key | domain_name, ended_at) and
    (ended_at)) answer "overlaps [from, to)" with one range.
    usage_sample: the raw samples, one row per applied sample with what it
    added (deltas), kept accounting.raw_retention_s.
    usage_hourly: per kernel and hour, the sums of its samples.
    usage_daily: per domain, project, user and day, the same sums.
    acct_meta: rolled = the largest usage_sample id already summed into the
    hourly and daily buckets, so a roll-up never adds a sample twice;
    expired = the largest time before which raw samples were deleted, so
    the buckets from there on can be rebuilt from the samples exactly
    (acct_db_rebuild) and older ones are the only record left.
    Sums: a record's totals = its samples' deltas = its hourly buckets plus
    its samples not yet rolled up.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef ACCT_DB_H_INCLUDED
#define ACCT_DB_H_INCLUDED

#include "bus.h"
#include "acct_record.h"

//  The schema, for the service's bus_service_t.
extern const bus_db_migration_t acct_db_migrations[];
#define ACCT_DB_MIGRATION_COUNT 5

#define ACCT_HOUR_US (3600LL * 1000000LL)
#define ACCT_DAY_US  (86400LL * 1000000LL)
//  Raw samples deleted per compaction pass at most (a pass stays short).
#define ACCT_DB_EXPIRE_BATCH 100000

//  Which records a window reads: at most one of the scope keys leads (the
//  index), the others filter.
typedef struct {
    const char *group_id; //  NULL or "": any
    const char *domain_name;
    const char *user_uuid;
    const char *access_key;
    int64_t from, to;
} acct_db_scope_t;

//  Sums of samples (raw or rolled up).
typedef struct {
    uint64_t cpu_ns;
    double mem_byte_s;
    uint64_t io_read, io_write, net_rx, net_tx;
    uint64_t samples;
} acct_db_sums_t;

//  Called per record; return 0 to go on, -1 to stop.
typedef int(acct_db_record_fn)(void *arg, const acct_record_t *record);
//  Called per bucket or sample: its time (hour start or sample time) and
//  the time it spans (ACCT_HOUR_US for a bucket, 0 for a sample).
typedef int(acct_db_sums_fn)(void *arg,
                             int64_t at,
                             int64_t span,
                             const acct_db_sums_t *sums);

//  ---------------------------------------------------------------------------
//  Records one gateway.access event published by src (its header's src);
//  one already recorded is left as it is. Runs inside the caller's
//  transaction. 0 or -1.
int acct_db_access_insert(bus_db_t *db,
                          const proto_gateway_access_t *access,
                          const char *src);

//  How many requests the access log holds; how many usage records (one per
//  kernel) there are. For /metrics; 0 on error.
uint64_t acct_db_access_count(bus_db_t *db);
uint64_t acct_db_record_count(bus_db_t *db);

//  Reads kernel_id's record: 1 found, 0 none, -1 error.
int acct_db_record_get(bus_db_t *db, const char *kernel_id, acct_record_t *record);

//  Writes the whole record (insert or replace its columns). 0 or -1.
int acct_db_record_put(bus_db_t *db, const acct_record_t *record);

//  Writes only the counters and totals of an existing record (the samples'
//  path: no indexed column changes). 0 or -1.
int acct_db_record_put_counters(bus_db_t *db, const acct_record_t *record);

//  Keeps one applied sample's deltas. 0 or -1.
int acct_db_sample_insert(bus_db_t *db, const char *kernel_id, const acct_delta_t *delta);

//  Calls fn for every record that ran within scope's window (started
//  before to, not ended by from), at most max of them: BUS_OK,
//  BUS_STATUS_INVALID when there were more (err says so), or
//  BUS_STATUS_INTERNAL.
int acct_db_records_each(bus_db_t *db,
                         const acct_db_scope_t *scope,
                         size_t max,
                         acct_db_record_fn *fn,
                         void *arg,
                         bus_error_t *err);

//  The sums of kernel_id's samples with time in [from, to): the hourly
//  buckets whose hour starts within it and the samples not yet rolled up.
int acct_db_sums_window(
    bus_db_t *db, const char *kernel_id, int64_t from, int64_t to, acct_db_sums_t *sums);

//  Calls fn for kernel_id's hourly buckets starting in [from, to), then for
//  its samples in [from, to) not yet rolled up. 0 or -1.
int acct_db_sums_each(bus_db_t *db,
                      const char *kernel_id,
                      int64_t from,
                      int64_t to,
                      acct_db_sums_fn *fn,
                      void *arg);

//  Rolls the samples not yet rolled up into the hourly and daily buckets,
//  then deletes rolled-up samples older than expire_before (at most
//  ACCT_DB_EXPIRE_BATCH). Runs in its own transaction. *rolled and
//  *expired say how many. 0 or -1.
int
acct_db_compact(bus_db_t *db, int64_t expire_before, int64_t *rolled, int64_t *expired);

//  What a rebuild did (accounting.recalculate's reply).
typedef struct {
    int64_t rolled;     //  pending samples rolled up first
    int64_t horizon;    //  hourly buckets from here on rewritten from samples
    int64_t hourly;     //  hourly buckets written
    int64_t daily;      //  daily buckets written
    int64_t kernels;    //  kernels whose buckets were rewritten
    int64_t mismatched; //  of those, whose buckets differ from their record
} acct_db_rebuilt_t;

//  Rebuilds the roll-ups in one transaction: rolls up the pending samples,
//  rewrites every hourly bucket from the horizon (the first hour from
//  which no raw sample has expired) as the sum of its samples, every daily
//  bucket from the horizon's day as the sum of its hours under the owners
//  the records hold now, and counts the kernels rewritten whose buckets do
//  not add up to their record's totals. Buckets before the horizon are the
//  only record of their samples and stay. Idempotent. 0 or -1.
int acct_db_rebuild(bus_db_t *db, acct_db_rebuilt_t *out);

//  Calls fn for the hourly buckets of all kernels summed per hour, for the
//  hours starting in [from, to), then for every sample in [from, to) not
//  yet rolled up (the administrators' bins; one index range each). 0 or -1.
int acct_db_sums_all_each(
    bus_db_t *db, int64_t from, int64_t to, acct_db_sums_fn *fn, void *arg);

//  Sums of every sample (raw), every hourly and every daily bucket: they
//  are equal once rolled up (tests, the report's check). 0 or -1.
int acct_db_sums_total(bus_db_t *db,
                       acct_db_sums_t *raw,
                       acct_db_sums_t *hourly,
                       acct_db_sums_t *daily);

#endif
