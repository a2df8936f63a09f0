/*  =========================================================================
    acct_query_test - usage records in a real database: lifecycle, agent and
    sample events into records, usage by project, user, session and domain,
    a reopened database (restart) that counts nothing twice, roll-ups whose
    sums equal the raw sums and leave the answers as they were, the
    15-minute bins adding up to the totals, bad input refused, the
    window queries on an index, grouping by image and resource group,
    everyone's bins, and roll-ups rebuilt after they were corrupted

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "acct_classes.h"
#include "t.h"

#define S  1000000LL          //  µs per second
#define T0 (1790812800LL * S) //  2026-10-01T00:00:00Z
#define NS 1000000000ULL

static char s_tmp[64], s_path[128];
static bus_db_t *s_db;

static void
s_open(void)
{
    bus_error_t err = {0};
    s_db = bus_db_open(s_path, acct_db_migrations, ACCT_DB_MIGRATION_COUNT, &err);
    if (!s_db)
        fprintf(stderr, "# %s\n", err.detail);
}

//  A kernel of session sid owned by user in group: scheduled, started at
//  start by the agent, sampled every 10 s at one busy core (cpu) or idle,
//  ended at end with final counters.
static void
s_kernel(const char *kid,
         const char *user,
         const char *group,
         int64_t start,
         int64_t end,
         bool busy)
{
    proto_kv_t slots[] = {{"cpu", "2"}, {"mem", "1073741824"}, {"cuda.device", "1"}};
    proto_session_lifecycle_t step;
    proto_session_lifecycle_init(&step);
    step.event = "kernel_preparing";
    step.session_id = kid;
    step.session_name = "s";
    step.access_key = "AK";
    step.user_uuid = user;
    step.group_id = group;
    step.domain_name = "default";
    step.scaling_group = "default";
    step.image = "busybox";
    step.kernel_id = kid;
    step.slots = slots;
    step.slots_count = 3;
    step.at = start - S;
    bus_db_begin(s_db);
    T_ASSERT(acct_ingest_lifecycle(s_db, &step) == 0);
    proto_kernel_started_t started = {
        .kernel_id = kid, .session_id = kid, .agent_id = "a1", .at = start};
    T_ASSERT(acct_ingest_started(s_db, &started) == 0);
    //  The scheduler's kernel_started comes later, with its own time: the
    //  agent's stays.
    step.event = "kernel_started";
    step.at = start + 3 * S;
    T_ASSERT(acct_ingest_lifecycle(s_db, &step) == 0);
    uint64_t cpu = 0;
    for (int64_t at = start + 10 * S; at < end; at += 10 * S) {
        cpu += busy ? 10 * NS : 0;
        acct_sample_t sample = {.at = at,
                                .cpu_used_ns = cpu,
                                .mem_bytes = 1000,
                                .io_read_bytes = (uint64_t) (at - start) / S};
        T_EQ_INT(acct_ingest_sample(s_db, kid, "a1", &sample), 1);
    }
    proto_kernel_terminated_t ended = {.kernel_id = kid,
                                       .session_id = kid,
                                       .agent_id = "a1",
                                       .at = end,
                                       .has_stats = true,
                                       .cpu_used_ns =
                                           busy ? (uint64_t) (end - start) / S * NS : 0,
                                       .io_read_bytes = (uint64_t) (end - start) / S};
    T_ASSERT(acct_ingest_terminated(s_db, &ended) == 0);
    step.event = "kernel_terminated";
    step.at = end + 2 * S;
    T_ASSERT(acct_ingest_lifecycle(s_db, &step) == 0);
    T_ASSERT(bus_db_commit(s_db) == 0);
}

static int
s_usage(const char *by,
        const char *group,
        int64_t from,
        int64_t to,
        proto_accounting_usage_rep_t *out,
        bus_error_t *err)
{
    proto_accounting_usage_req_t req;
    proto_accounting_usage_req_init(&req);
    const char *ids[] = {group};
    if (group) {
        req.group_ids = ids;
        req.group_ids_count = 1;
    }
    req.from = from;
    req.to = to;
    req.group_by = by;
    int rc = acct_query_usage(s_db, &req, T0 + 86400 * S, out, err);
    return rc;
}

static void
test_start(void)
{
    snprintf(s_tmp, sizeof s_tmp, "/tmp/acct_query_test.XXXXXX");
    T_ASSERT(mkdtemp(s_tmp));
    snprintf(s_path, sizeof s_path, "%s/accounting.db", s_tmp);
    s_open();
    T_ASSERT(s_db);
    //  k-busy: 1000 s busy; k-idle: 600 s idle; k-other: another project.
    s_kernel("k-busy", "u1", "g1", T0 + 100 * S, T0 + 1100 * S, true);
    s_kernel("k-idle", "u2", "g1", T0 + 200 * S, T0 + 800 * S, false);
    s_kernel("k-other", "u1", "g2", T0 + 300 * S, T0 + 400 * S, true);
}

static void
test_usage_by_project(void)
{
    proto_accounting_usage_rep_t rep;
    bus_error_t err = {0};
    T_EQ_INT(s_usage("project", "g1", T0, T0 + 86400 * S, &rep, &err), BUS_OK);
    T_EQ_INT(rep.groups_count, 1);
    const proto_accounting_group_t *g = &rep.groups[0];
    T_EQ_STR(g->group_id, "g1");
    T_EQ_INT(g->kernel_count, 2);
    T_EQ_INT(g->session_count, 2);
    T_ASSERT(fabs(g->usage.held_s - 1600) < 1e-6);
    T_ASSERT(fabs(g->usage.cpu_held_s - 3200) < 1e-6); //  2 cores x 1600 s
    T_ASSERT(fabs(g->usage.accel_device_s - 1600) < 1e-6);
    T_ASSERT(fabs(g->usage.cpu_used_s - 1000) < 1e-6); //  the busy one's wall time
    T_EQ_INT(g->usage.io_read_bytes, 1600);
    T_EQ_INT(g->kernels_count, 2);
    T_EQ_STR(g->kernels[0].image, "busybox");
    T_EQ_STR(g->kernels[1].kernel_id, "k-busy");      //  in the order they ended
    T_EQ_INT(g->kernels[1].started_at, T0 + 100 * S); //  the agent's time won
    T_EQ_INT(g->kernels[1].ended_at, T0 + 1100 * S);
    T_EQ_STR(g->kernels[0].status, "TERMINATED");
    proto_accounting_usage_rep_clear(&rep);
    //  Half a window: held clipped; used from the samples of the hours in it.
    T_EQ_INT(s_usage("user", NULL, T0, T0 + 600 * S, &rep, &err), BUS_OK);
    T_EQ_INT(rep.groups_count, 2);
    T_EQ_STR(rep.groups[0].user_uuid, "u1");
    T_ASSERT(fabs(rep.groups[0].usage.held_s - (500 + 100)) < 1e-6);
    proto_accounting_usage_rep_clear(&rep);
    T_EQ_INT(s_usage("domain", NULL, T0, T0 + 86400 * S, &rep, &err), BUS_OK);
    T_EQ_INT(rep.groups_count, 1);
    T_EQ_INT(rep.groups[0].kernel_count, 3);
    proto_accounting_usage_rep_clear(&rep);
    //  A window before everything: nothing.
    T_EQ_INT(s_usage("session", NULL, T0 - 86400 * S, T0, &rep, &err), BUS_OK);
    T_EQ_INT(rep.groups_count, 0);
    proto_accounting_usage_rep_clear(&rep);
}

static void
test_restart_counts_nothing_twice(void)
{
    bus_db_destroy(&s_db);
    s_open();
    T_ASSERT(s_db);
    //  Samples delivered again after the restart are older than the last.
    acct_sample_t again = {.at = T0 + 500 * S, .cpu_used_ns = 400 * NS};
    T_EQ_INT(acct_ingest_sample(s_db, "k-busy", "a1", &again), 0);
    proto_accounting_usage_rep_t rep;
    bus_error_t err = {0};
    T_EQ_INT(s_usage("project", "g1", T0, T0 + 86400 * S, &rep, &err), BUS_OK);
    T_ASSERT(fabs(rep.groups[0].usage.cpu_used_s - 1000) < 1e-6);
    proto_accounting_usage_rep_clear(&rep);
}

static void
test_rollup_sums_equal_raw_sums(void)
{
    acct_db_sums_t raw, hourly, daily;
    T_EQ_INT(acct_db_sums_total(s_db, &raw, &hourly, &daily), 0);
    T_ASSERT(raw.samples > 0);
    T_EQ_INT(hourly.samples, 0);
    int64_t rolled, expired;
    T_EQ_INT(acct_db_compact(s_db, 0, &rolled, &expired), 0);
    T_EQ_INT(rolled, raw.samples);
    T_EQ_INT(expired, 0);
    acct_db_sums_t raw2, hourly2, daily2;
    T_EQ_INT(acct_db_sums_total(s_db, &raw2, &hourly2, &daily2), 0);
    T_EQ_INT(hourly2.cpu_ns, raw.cpu_ns);
    T_EQ_INT(daily2.cpu_ns, raw.cpu_ns);
    T_EQ_INT(hourly2.io_read, raw.io_read);
    T_EQ_INT(daily2.samples, raw.samples);
    T_ASSERT(fabs(hourly2.mem_byte_s - raw.mem_byte_s) < 1e-6);
    //  Again: nothing is added twice.
    T_EQ_INT(acct_db_compact(s_db, 0, &rolled, &expired), 0);
    T_EQ_INT(rolled, 0);
    T_EQ_INT(acct_db_sums_total(s_db, &raw2, &hourly2, &daily2), 0);
    T_EQ_INT(hourly2.cpu_ns, raw.cpu_ns);
    //  Expiry drops the raw samples; the answers stay.
    T_EQ_INT(acct_db_compact(s_db, INT64_MAX, &rolled, &expired), 0);
    T_EQ_INT(expired, raw.samples);
    proto_accounting_usage_rep_t rep;
    bus_error_t err = {0};
    T_EQ_INT(s_usage("project", "g1", T0, T0 + 86400 * S, &rep, &err), BUS_OK);
    T_ASSERT(fabs(rep.groups[0].usage.cpu_used_s - 1000) < 1e-6);
    proto_accounting_usage_rep_clear(&rep);
    //  A window that crosses the busy kernel reads the hourly buckets.
    T_EQ_INT(s_usage("project", "g1", T0, T0 + 3600 * S, &rep, &err), BUS_OK);
    T_ASSERT(fabs(rep.groups[0].usage.cpu_used_s - 1000) < 1e-6);
    proto_accounting_usage_rep_clear(&rep);
}

static void
test_bins_add_up_to_the_totals(void)
{
    proto_accounting_stats_user_req_t req;
    proto_accounting_stats_user_req_init(&req);
    req.user_uuid = "u1";
    req.to = T0 + 3600 * S;
    proto_accounting_stats_user_rep_t rep;
    bus_error_t err = {0};
    T_EQ_INT(acct_query_stats_user(s_db, &req, T0 + 86400 * S, &rep, &err), BUS_OK);
    T_EQ_INT(rep.bins_count, ACCT_QUERY_BINS);
    T_EQ_INT(rep.bin_s, 900);
    double held = 0, used = 0;
    uint64_t busiest = 0;
    for (size_t i = 0; i < rep.bins_count; i++) {
        held += rep.bins[i].cpu_held_s;
        used += rep.bins[i].cpu_used_s;
        if (rep.bins[i].num_sessions > busiest)
            busiest = rep.bins[i].num_sessions;
    }
    T_EQ_INT(rep.bins[rep.bins_count - 1].date, T0 + 3600 * S);
    T_ASSERT(fabs(held - 2 * (1000 + 100)) < 1e-6);
    T_ASSERT(fabs(used - (1000 + 100)) < 1e-6);
    T_EQ_INT(busiest, 2);
    proto_accounting_stats_user_rep_clear(&rep);
    //  Within the hour of the samples: its bucket is spread over the bins
    //  that began, none is lost.
    req.to = T0 + 1200 * S;
    T_EQ_INT(acct_query_stats_user(s_db, &req, T0 + 1250 * S, &rep, &err), BUS_OK);
    used = 0;
    for (size_t i = 0; i < rep.bins_count; i++)
        used += rep.bins[i].cpu_used_s;
    T_ASSERT(fabs(used - (1000 + 100)) < 1e-6);
    proto_accounting_stats_user_rep_clear(&rep);
    req.user_uuid = NULL;
    T_EQ_INT(acct_query_stats_user(s_db, &req, T0, &rep, &err), BUS_STATUS_INVALID);
    proto_accounting_stats_user_rep_clear(&rep);
}

static void
test_live(void)
{
    const char *ids[] = {"k-busy", "k-nope"};
    proto_accounting_live_req_t req = {.kernel_ids = ids, .kernel_ids_count = 2};
    proto_accounting_live_rep_t rep;
    bus_error_t err = {0};
    T_EQ_INT(acct_query_live(s_db, &req, &rep, &err), BUS_OK);
    T_EQ_INT(rep.kernels_count, 2);
    T_ASSERT(rep.kernels[0].found && !rep.kernels[0].live);
    T_CONTAINS(rep.kernels[0].stat, "\"cpu_used\"");
    T_ASSERT(!rep.kernels[1].found && !rep.kernels[1].stat);
    proto_accounting_live_rep_clear(&rep);
}

static void
test_bad_input(void)
{
    proto_accounting_usage_rep_t rep;
    bus_error_t err = {0};
    T_EQ_INT(s_usage("project", NULL, T0, T0, &rep, &err), BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "after its start");
    T_EQ_INT(s_usage("project", NULL, T0, T0 + 102 * 86400 * S, &rep, &err),
             BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "100 days");
    T_EQ_INT(s_usage("planet", NULL, T0, T0 + S, &rep, &err), BUS_STATUS_INVALID);
    int64_t from, to;
    T_EQ_INT(acct_query_month("2026-10", &from, &to, &err), BUS_OK);
    T_EQ_INT(from, T0);
    T_EQ_INT(to, T0 + 31 * 86400 * S);
    T_EQ_INT(acct_query_month("202612", &from, &to, &err), BUS_OK);
    T_EQ_INT(acct_query_month("2026-13", &from, &to, &err), BUS_STATUS_INVALID);
    T_EQ_INT(acct_query_month("2026-1", &from, &to, &err), BUS_STATUS_INVALID);
    T_EQ_INT(acct_query_month("oct", &from, &to, &err), BUS_STATUS_INVALID);
    T_EQ_INT(acct_query_day("20261001", &from, &err), BUS_OK);
    T_EQ_INT(from, T0);
    T_EQ_INT(acct_query_day("20260231", &from, &err), BUS_STATUS_INVALID);
    //  More kernels than an answer may hold: refused, not scanned for ever.
    T_EQ_INT(ACCT_QUERY_KERNELS_MAX > 0, 1);
}

//  The window queries read an index, never the whole table.
static void
test_window_queries_use_an_index(void)
{
    const char *keys[] = {"group_id", "user_uuid", "access_key", "domain_name"};
    for (int i = 0; i < 4; i++) {
        char sql[512];
        snprintf(sql, sizeof sql,
                 "EXPLAIN QUERY PLAN SELECT kernel_id FROM usage WHERE %s = ?1"
                 " AND ended_at > ?2 AND started_at > 0 AND started_at < ?3"
                 " ORDER BY ended_at, kernel_id",
                 keys[i]);
        sqlite3_stmt *stmt = NULL;
        T_EQ_INT(sqlite3_prepare_v2(bus_db_handle(s_db), sql, -1, &stmt, NULL),
                 SQLITE_OK);
        char plan[1024] = "";
        while (sqlite3_step(stmt) == SQLITE_ROW)
            strncat(plan, (const char *) sqlite3_column_text(stmt, 3),
                    sizeof plan - strlen(plan) - 1);
        sqlite3_finalize(stmt);
        T_CONTAINS(plan, "USING INDEX");
        T_ASSERT(strstr(plan, "SCAN usage") == NULL || strstr(plan, "INDEX") != NULL);
    }
}

//  Runs sql on the test's database (corrupting it on purpose).
static void
s_exec(const char *sql)
{
    char *error = NULL;
    int rc = sqlite3_exec(bus_db_handle(s_db), sql, NULL, NULL, &error);
    if (rc != SQLITE_OK)
        fprintf(stderr, "# %s: %s\n", sql, error ? error : "?");
    sqlite3_free(error);
    T_EQ_INT(rc, SQLITE_OK);
}

//  One number a query answers.
static double
s_number(const char *sql)
{
    sqlite3_stmt *stmt = NULL;
    double value = -1;
    if (sqlite3_prepare_v2(bus_db_handle(s_db), sql, -1, &stmt, NULL) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
        value = sqlite3_column_double(stmt, 0);
    sqlite3_finalize(stmt);
    return value;
}

//  Everyone's bins: held and used of every kernel add up.
static void
s_all_bins(double *held, double *used, uint64_t *busiest)
{
    proto_accounting_stats_all_req_t req;
    proto_accounting_stats_all_req_init(&req);
    req.to = T0 + 5 * 3600 * S;
    proto_accounting_stats_all_rep_t rep;
    bus_error_t err = {0};
    T_EQ_INT(acct_query_stats_all(s_db, &req, T0 + 86400 * S, &rep, &err), BUS_OK);
    T_EQ_INT(rep.bins_count, ACCT_QUERY_BINS);
    *held = *used = 0;
    *busiest = 0;
    for (size_t i = 0; i < rep.bins_count; i++) {
        *held += rep.bins[i].cpu_held_s;
        *used += rep.bins[i].cpu_used_s;
        if (rep.bins[i].num_sessions > *busiest)
            *busiest = rep.bins[i].num_sessions;
    }
    proto_accounting_stats_all_rep_clear(&rep);
}

static void
test_groupings_and_admin_bins(void)
{
    //  Samples before 02:00 expired (test_rollup_sums_equal_raw_sums); a
    //  later kernel of another image and resource group keeps its samples.
    char sql[256];
    snprintf(sql, sizeof sql, "UPDATE acct_meta SET value = %lld WHERE key = 'expired'",
             (long long) (T0 + 2 * 3600 * S));
    s_exec(sql);
    s_kernel("k-late", "u3", "g3", T0 + 3 * 3600 * S, T0 + 4 * 3600 * S, true);
    s_exec("UPDATE usage SET image = 'python', scaling_group = 'gpu'"
           " WHERE kernel_id = 'k-late'");
    int64_t rolled, expired;
    T_EQ_INT(acct_db_compact(s_db, 0, &rolled, &expired), 0);
    T_ASSERT(rolled > 0);

    //  Everyone's bins: 2 cores x (1000 + 600 + 100 + 3600 s) held; 1000 +
    //  100 + 3600 CPU seconds used, from the hours of all kernels at once.
    double held, used;
    uint64_t busiest;
    s_all_bins(&held, &used, &busiest);
    T_ASSERT(fabs(held - 2 * 5300.0) < 1e-6);
    //  k-late's samples came after every earlier one had expired: their
    //  new ids still lie past the roll-up's mark, so its hours hold them.
    T_ASSERT(fabs(s_number("SELECT sum(cpu_ns) FROM usage_hourly"
                           " WHERE kernel_id = 'k-late'") -
                  3600.0 * NS) < 1);
    T_ASSERT(fabs(used - 4700.0) < 1e-6);
    T_EQ_INT(busiest, 3);

    //  By image and by resource group, one line each, in key order.
    proto_accounting_usage_req_t req;
    proto_accounting_usage_req_init(&req);
    req.from = T0;
    req.to = T0 + 86400 * S;
    req.group_by = "image";
    req.with_kernels = false;
    proto_accounting_usage_rep_t rep;
    bus_error_t err = {0};
    T_EQ_INT(acct_query_usage(s_db, &req, T0 + 86400 * S, &rep, &err), BUS_OK);
    T_EQ_INT(rep.groups_count, 2);
    T_EQ_STR(acct_query_group_key(&rep.groups[0], ACCT_BY_IMAGE), "busybox");
    T_EQ_STR(acct_query_group_key(&rep.groups[1], ACCT_BY_IMAGE), "python");
    T_EQ_INT(rep.groups[0].kernel_count, 3);
    T_EQ_INT(rep.groups[0].kernels_count, 0);
    T_ASSERT(fabs(rep.groups[0].usage.cpu_used_s - 1100) < 1e-6);
    T_ASSERT(fabs(rep.groups[1].usage.cpu_held_s - 7200) < 1e-6);
    T_EQ_STR(rep.groups[1].group_id, ""); //  a grouping across projects
    proto_accounting_usage_rep_clear(&rep);
    req.group_by = "resource_group";
    T_EQ_INT(acct_query_usage(s_db, &req, T0 + 86400 * S, &rep, &err), BUS_OK);
    T_EQ_INT(rep.groups_count, 2);
    T_EQ_STR(rep.groups[0].scaling_group, "default");
    T_EQ_STR(rep.groups[1].scaling_group, "gpu");
    T_ASSERT(fabs(rep.groups[1].usage.cpu_used_s - 3600) < 1e-6);
    proto_accounting_usage_rep_clear(&rep);
    //  Summaries may span a year; lists of kernels 100 days.
    req.to = T0 + 300 * 86400 * S;
    T_EQ_INT(acct_query_usage(s_db, &req, T0 + 86400 * S, &rep, &err), BUS_OK);
    proto_accounting_usage_rep_clear(&rep);
    req.to = T0 + 368 * 86400 * S;
    T_EQ_INT(acct_query_usage(s_db, &req, T0, &rep, &err), BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "366 days");
    req.to = T0 + 300 * 86400 * S;
    req.with_kernels = true;
    T_EQ_INT(acct_query_usage(s_db, &req, T0, &rep, &err), BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "100 days");
    req.group_by = "galaxy";
    T_EQ_INT(acct_query_usage(s_db, &req, T0, &rep, &err), BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "resource_group");
    T_EQ_INT(acct_query_group_by("session"), ACCT_BY_SESSION);
    T_EQ_INT(acct_query_group_by(NULL), -1);
}

//  The roll-ups cleared and corrupted, then rebuilt: the same answers.
static void
test_rebuild(void)
{
    double held0, used0;
    uint64_t busiest;
    s_all_bins(&held0, &used0, &busiest);
    double total = s_number("SELECT sum(cpu_ns) FROM usage");
    T_ASSERT(total > 0);
    s_exec("DELETE FROM usage_hourly WHERE kernel_id = 'k-late'");
    s_exec("UPDATE usage_daily SET cpu_ns = 0, samples = 0");
    double held, used;
    s_all_bins(&held, &used, &busiest);
    T_ASSERT(fabs(used - (used0 - 3600)) < 1e-6); //  k-late's hours are gone
    for (int round = 0; round < 2; round++) {     //  twice: idempotent
        acct_db_rebuilt_t done;
        T_EQ_INT(acct_db_rebuild(s_db, &done), 0);
        T_EQ_INT(done.rolled, 0);
        T_EQ_INT(done.horizon, T0 + 2 * 3600 * S);
        T_EQ_INT(done.hourly, 2); //  k-late's two hours (the last at its end)
        T_EQ_INT(done.daily, 4);  //  day 1: (g1, u1), (g1, u2), (g2, u1), (g3, u3)
        T_EQ_INT(done.kernels, 1);
        T_EQ_INT(done.mismatched, 0);
        s_all_bins(&held, &used, &busiest);
        T_ASSERT(fabs(held - held0) < 1e-6);
        T_ASSERT(fabs(used - used0) < 1e-6);
        T_ASSERT(fabs(s_number("SELECT sum(cpu_ns) FROM usage_hourly") - total) < 1);
        T_ASSERT(fabs(s_number("SELECT sum(cpu_ns) FROM usage_daily") - total) < 1);
        T_ASSERT(fabs(s_number("SELECT sum(samples) FROM usage_daily") -
                      s_number("SELECT sum(samples) FROM usage")) < 1e-9);
    }
    //  A record that disagrees with its buckets is counted, not hidden.
    s_exec("UPDATE usage SET cpu_ns = cpu_ns + 1 WHERE kernel_id = 'k-late'");
    acct_db_rebuilt_t done;
    T_EQ_INT(acct_db_rebuild(s_db, &done), 0);
    T_EQ_INT(done.mismatched, 1);
    s_exec("UPDATE usage SET cpu_ns = cpu_ns - 1 WHERE kernel_id = 'k-late'");
    //  Buckets before the horizon are the only record: left as they are.
    double busy = s_number("SELECT sum(cpu_ns) FROM usage_hourly"
                           " WHERE kernel_id = 'k-busy'");
    T_ASSERT(busy > 0);
    T_EQ_INT(acct_db_rebuild(s_db, &done), 0);
    T_ASSERT(
        s_number("SELECT sum(cpu_ns) FROM usage_hourly WHERE kernel_id = 'k-busy'") ==
        busy);
}

static void
test_report(void)
{
    bus_db_destroy(&s_db);
    char out[4096] = "";
    FILE *f = fmemopen(out, sizeof out, "w");
    T_ASSERT(f);
    T_EQ_INT(acct_report_print(s_path, "project", "2026-10", f), 0);
    fclose(f);
    T_CONTAINS(out, "Usage by project, 2026-10-01T00:00:00Z - 2026-11-01T00:00:00Z");
    T_CONTAINS(out, "g1 ");
    T_CONTAINS(out, "TOTAL");
    //  CPU-hours held: g1 3200 s, g2 200 s, g3 (k-late) 7200 s, / 3600.
    T_CONTAINS(out, "0.889");
    T_CONTAINS(out, "2.944");
    //  The same grouping as the RPC's: by image, busybox and python.
    memset(out, 0, sizeof out);
    f = fmemopen(out, sizeof out, "w");
    T_ASSERT(f);
    T_EQ_INT(acct_report_print(s_path, "image", "2026-10", f), 0);
    fclose(f);
    T_CONTAINS(out, "Usage by image,");
    T_CONTAINS(out, "\nbusybox ");
    T_CONTAINS(out, "\npython ");
    T_EQ_INT(acct_report_print(s_path, "planet", "2026-10", stderr), 1);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", s_tmp);
    T_EQ_INT(system(cmd), 0);
}

int
main(void)
{
    bus_log_set_level(BUS_LOG_WARNING);
    T_RUN(test_start);
    T_RUN(test_usage_by_project);
    T_RUN(test_restart_counts_nothing_twice);
    T_RUN(test_rollup_sums_equal_raw_sums);
    T_RUN(test_bins_add_up_to_the_totals);
    T_RUN(test_live);
    T_RUN(test_bad_input);
    T_RUN(test_window_queries_use_an_index);
    T_RUN(test_groupings_and_admin_bins);
    T_RUN(test_rebuild);
    T_RUN(test_report);
    bus_db_destroy(&s_db);
    return T_DONE();
}
