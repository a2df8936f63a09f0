/*  =========================================================================
    bench_accounting - the accounting's ingest of kernel.stats and its month
    query, each against a raw SQLite baseline of the same run

    In process, on a fresh database under $BENCH_DIR (default /tmp), with
    the accounting's own code (libaccounting.a):
      ingest    BENCH_KERNELS (100,000) kernels made known by their
                session.lifecycle steps, then BENCH_ROUNDS (3) rounds of one
                kernel.stats body per kernel (msgpack, as on the bus), each
                decoded and queued (acct_ingest_queue) and written in
                transactions of accounting.stats_queue (20,000) samples: the
                record read, the deltas applied, the record and a raw
                sample written. events/s over all rounds; lag = the largest
                time a sample waited from its queueing to its commit.
      raw       the same number of rows inserted into a two-index table in
                the same transactions: SQLite's own rate on this machine.
      month     BENCH_RECORDS (1,000,000) usage records, 1000 projects over
                12 months of 2026; then BENCH_QUERIES (200) accounting.usage
                answers (acct_query_usage, with the kernels) for the month
                2026-06 of a random project: p50 and p99 ms; the baseline is
                the bare indexed count of the same rows.
    Last line:  accounting: ingest_eps=X month_p99_ms=Y

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "../services/accounting/acct_classes.h"

#define S        1000000LL
#define JAN_2026 (1767225600LL * S)
#define DAY      (86400LL * S)
#define QUEUE    20000
#define PROJECTS 1000

static int
s_env(const char *name, int fallback)
{
    const char *value = getenv(name);
    return value && atoi(value) > 0 ? atoi(value) : fallback;
}

static int
s_cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static bus_db_t *
s_open(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    bus_error_t err = {0};
    bus_db_t *db = bus_db_open(path, acct_db_migrations, ACCT_DB_MIGRATION_COUNT, &err);
    if (!db)
        fprintf(stderr, "bench: %s: %s\n", path, err.detail);
    return db;
}

int
main(void)
{
    bus_log_set_level(BUS_LOG_WARNING);
    int kernels = s_env("BENCH_KERNELS", 100000);
    int rounds = s_env("BENCH_ROUNDS", 3);
    int records = s_env("BENCH_RECORDS", 1000000);
    int queries = s_env("BENCH_QUERIES", 200);
    const char *base = getenv("BENCH_DIR") ? getenv("BENCH_DIR") : "/tmp";
    char dir[512];
    snprintf(dir, sizeof dir, "%s/bench_accounting.XXXXXX", base);
    if (!mkdtemp(dir))
        return 1;
    printf("accounting bench: %d kernels x %d rounds of kernel.stats, %d records "
           "(shared, loaded machine: compare ratios)\n",
           kernels, rounds, records);

    //  ---- ingest
    bus_db_t *db = s_open(dir, "ingest.db");
    if (!db)
        return 1;
    proto_kv_t slots[] = {{"cpu", "1"}, {"mem", "1073741824"}};
    char id[64];
    bus_db_begin(db);
    for (int k = 0; k < kernels; k++) {
        snprintf(id, sizeof id, "kernel-%08d", k);
        proto_session_lifecycle_t step = {.event = "kernel_started",
                                          .session_id = id,
                                          .kernel_id = id,
                                          .group_id = "g",
                                          .user_uuid = "u",
                                          .access_key = "AK",
                                          .domain_name = "default",
                                          .slots = slots,
                                          .slots_count = 2,
                                          .at = bus_clock_wall_us()};
        acct_ingest_lifecycle(db, &step);
    }
    bus_db_commit(db);
    //  The bodies as the agents publish them.
    bus_writer_t **bodies = calloc((size_t) kernels, sizeof *bodies);
    acct_ingest_t *ingest = acct_ingest_new_offline(db, QUEUE);
    if (!bodies || !ingest)
        return 1;
    int64_t lag_max = 0, events = 0;
    double ingest_s = 0;
    for (int round = 1; round <= rounds; round++) {
        for (int k = 0; k < kernels; k++) {
            snprintf(id, sizeof id, "kernel-%08d", k);
            proto_kernel_stats_t stats = {.kernel_id = id,
                                          .agent_id = "agent",
                                          .cpu_used_ns = (uint64_t) round * 1000000000ULL,
                                          .mem_bytes = 1u << 20,
                                          .mem_peak_bytes = 1u << 21,
                                          .io_read_bytes = (uint64_t) round * 4096};
            if (!bodies[k])
                bodies[k] = bus_writer_new();
            bus_writer_reset(bodies[k]);
            if (proto_kernel_stats_write(&stats, bodies[k]) != 0)
                abort();
        }
        int64_t t0 = bus_clock_mono_us();
        for (int k = 0; k < kernels; k++) {
            acct_ingest_queue(ingest, bus_writer_data(bodies[k]),
                              bus_writer_size(bodies[k]), bus_clock_wall_us());
            if (acct_ingest_pending(ingest) == QUEUE) {
                acct_ingest_flush(ingest);
                int64_t lag = acct_ingest_stats(ingest)->lag_us;
                lag_max = lag > lag_max ? lag : lag_max;
            }
        }
        acct_ingest_flush(ingest);
        ingest_s += (double) (bus_clock_mono_us() - t0) / 1e6;
        events += kernels;
    }
    const acct_ingest_stats_t *st = acct_ingest_stats(ingest);
    double eps = (double) events / ingest_s;
    printf("ingest    %" PRId64 " events in %.2f s: %.0f events/s, applied=%" PRIu64
           " skipped=%" PRIu64 ", lag max %.1f ms\n",
           events, ingest_s, eps, st->samples_applied, st->samples_skipped,
           (double) lag_max / 1000.0);
    acct_ingest_destroy(&ingest);
    for (int k = 0; k < kernels; k++)
        bus_writer_destroy(&bodies[k]);
    free(bodies);
    //  Baseline: raw inserts of as many rows, same transaction size.
    bus_db_exec(db,
                "CREATE TABLE raw (id INTEGER PRIMARY KEY, kernel_id TEXT, ts INTEGER,"
                " cpu INTEGER); CREATE INDEX raw_k ON raw (kernel_id, ts);"
                " CREATE INDEX raw_ts ON raw (ts);");
    int64_t t0 = bus_clock_mono_us();
    for (int64_t i = 0; i < events; i++) {
        if (i % QUEUE == 0)
            bus_db_begin(db);
        sqlite3_stmt *stmt =
            bus_db_stmt(db, "INSERT INTO raw (kernel_id, ts, cpu) VALUES (?1, ?2, ?3)");
        snprintf(id, sizeof id, "kernel-%08d", (int) (i % kernels));
        sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(stmt, 2, bus_clock_wall_us());
        sqlite3_bind_int64(stmt, 3, i);
        sqlite3_step(stmt);
        sqlite3_reset(stmt);
        if (i % QUEUE == QUEUE - 1 || i == events - 1)
            bus_db_commit(db);
    }
    double raw_eps = (double) events / ((double) (bus_clock_mono_us() - t0) / 1e6);
    printf("raw       %.0f rows/s (SQLite insert, two indexes): ingest is %.2fx of it\n",
           raw_eps, eps / raw_eps);
    bus_db_destroy(&db);

    //  ---- month query
    db = s_open(dir, "month.db");
    if (!db)
        return 1;
    t0 = bus_clock_mono_us();
    acct_record_t *r = calloc(1, sizeof *r);
    bus_db_begin(db);
    unsigned seed = 42;
    for (int i = 0; i < records; i++) {
        snprintf(id, sizeof id, "k-%08d", i);
        acct_record_init(r, id, 0);
        snprintf(r->group_id, sizeof r->group_id, "project-%04d", i % PROJECTS);
        snprintf(r->user_uuid, sizeof r->user_uuid, "user-%05d", (i / 7) % 20000);
        snprintf(r->domain_name, sizeof r->domain_name, "default");
        snprintf(r->session_id, sizeof r->session_id, "%s", id);
        acct_record_set_slots(r, slots, 2);
        int64_t start = JAN_2026 + (int64_t) (rand_r(&seed) % 360) * DAY +
                        (int64_t) (rand_r(&seed) % 86400) * S;
        r->created_at = r->started_at = start;
        r->ended_at = start + (int64_t) (rand_r(&seed) % 86400) * S;
        snprintf(r->status, sizeof r->status, "TERMINATED");
        r->cpu_ns = 1000000000ULL;
        r->samples = 1;
        acct_db_record_put(db, r);
        if (i % 100000 == 99999) {
            bus_db_commit(db);
            bus_db_begin(db);
        }
    }
    bus_db_commit(db);
    free(r);
    printf("records   %d written in %.1f s\n", records,
           (double) (bus_clock_mono_us() - t0) / 1e6);
    double *ms = calloc((size_t) queries, sizeof *ms),
           *raw_ms = calloc((size_t) queries, sizeof *raw_ms);
    int64_t from, to;
    bus_error_t err = {0};
    acct_query_month("2026-06", &from, &to, &err);
    size_t kernels_seen = 0;
    for (int q = 0; q < queries; q++) {
        char project[32];
        snprintf(project, sizeof project, "project-%04d", rand_r(&seed) % PROJECTS);
        const char *ids[] = {project};
        proto_accounting_usage_req_t req;
        proto_accounting_usage_req_init(&req);
        req.group_ids = ids;
        req.group_ids_count = 1;
        req.from = from;
        req.to = to;
        int64_t a = bus_clock_mono_us();
        proto_accounting_usage_rep_t rep;
        if (acct_query_usage(db, &req, JAN_2026 + 400 * DAY, &rep, &err) == BUS_OK &&
            rep.groups_count)
            kernels_seen += rep.groups[0].kernels_count;
        ms[q] = (double) (bus_clock_mono_us() - a) / 1000.0;
        proto_accounting_usage_rep_clear(&rep);
        req.group_ids = NULL;
        req.group_ids_count = 0;
        proto_accounting_usage_req_clear(&req);
        a = bus_clock_mono_us();
        sqlite3_stmt *stmt =
            bus_db_stmt(db, "SELECT count(*) FROM usage WHERE group_id = ?1"
                            " AND ended_at > ?2 AND started_at > 0 AND started_at < ?3");
        sqlite3_bind_text(stmt, 1, project, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(stmt, 2, from);
        sqlite3_bind_int64(stmt, 3, to);
        sqlite3_step(stmt);
        sqlite3_reset(stmt);
        raw_ms[q] = (double) (bus_clock_mono_us() - a) / 1000.0;
    }
    qsort(ms, (size_t) queries, sizeof *ms, s_cmp_double);
    qsort(raw_ms, (size_t) queries, sizeof *raw_ms, s_cmp_double);
    double p50 = ms[queries / 2], p99 = ms[(queries * 99) / 100];
    printf("month     %d queries, %.0f kernels each: p50 %.2f ms, p99 %.2f ms "
           "(indexed count alone: p50 %.3f ms, p99 %.3f ms)\n",
           queries, (double) kernels_seen / queries, p50, p99, raw_ms[queries / 2],
           raw_ms[(queries * 99) / 100]);
    free(ms);
    free(raw_ms);
    bus_db_destroy(&db);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: cannot remove %s\n", dir);
    printf("accounting: ingest_eps=%.0f month_p99_ms=%.2f\n", eps, p99);
    return 0;
}
