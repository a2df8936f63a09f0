/*  =========================================================================
    gateway_usage_test - the administrators' usage routes against the whole
    platform with a real agent and real runc containers: two batch
    sessions of two users run and end; then GET /resource/stats/admin/month
    has every kernel in the bins it lived in, with its slots, as the usage
    records say; GET /admin/v1/usage sums per user, domain, image and
    resource group equal the records' totals, its CSV says what its JSON
    says; a user gets 403 from all three routes, a domain admin reads only
    their own domain; bad input is 400 problem+json; and after the
    accounting's roll-ups and the scheduler's counters are corrupted by
    hand, POST /resource/recalculate-usage (as `backend.ai admin resource
    recalculate-usage` sends it) restores the same totals. Needs root, runc,
    umoci and tini.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "gateway_client.h"
#include "t.h"

#define IMAGE   "local.backplane/library/busybox:latest"
#define MEM     268435456.0
#define END_MS  90000
#define BIN_US  (900LL * 1000000)
#define DAY_S   86400
#define OPEN_AT 9223372036854775807LL //  a running kernel's ended_at

static client_platform_t s_p;
static harness_proc_t s_agent;
static char s_bridge[16];
static client_keypair_t s_carol, s_dora;
static char s_days[2][16]; //  yesterday and tomorrow, YYYY-MM-DD (UTC)
static int s_not_problem;  //  refusals that were not problem+json

//  A request as kp; the parsed body (NULL if none), the status in *status,
//  the raw text in *text_p when asked (caller frees).
static json_t *
s_as(const client_keypair_t *kp,
     const char *method,
     const char *path,
     const char *body,
     int *status,
     char **text_p)
{
    char *text = NULL, *headers = NULL;
    *status = client_signed(&s_p, kp, method, path, body, NULL, &text, &headers);
    json_t *parsed = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
    //  Every refusal is problem+json (test_bad_input counts the others).
    if (*status >= 400 && (!headers || !strstr(headers, "application/problem+json"))) {
        fprintf(stderr, "# %s %s: %d without problem+json\n", method, path, *status);
        s_not_problem++;
    }
    free(headers);
    if (text_p)
        *text_p = text;
    else
        free(text);
    return parsed;
}

//  The accounting's or the scheduler's database, opened beside the service.
static sqlite3 *
s_open(const char *service)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s.db", s_p.dir, service, service);
    sqlite3 *db = NULL;
    if (sqlite3_open(path, &db) != SQLITE_OK) {
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, 10000);
    return db;
}

static double
s_number(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *stmt = NULL;
    double value = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
        value = sqlite3_column_double(stmt, 0);
    sqlite3_finalize(stmt);
    return value;
}

static void
s_exec(sqlite3 *db, const char *sql)
{
    char *error = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &error);
    if (rc != SQLITE_OK)
        fprintf(stderr, "# %s: %s\n", sql, error ? error : "?");
    sqlite3_free(error);
    T_EQ_INT(rc, SQLITE_OK);
}

//  A batch session as kp that sleeps seconds.
static int
s_batch(const client_keypair_t *kp, const char *name, int seconds)
{
    char body[1024];
    snprintf(body, sizeof body,
             "{\"name\": \"%s\", \"image\": \"" IMAGE "\", \"type\": \"batch\","
             " \"startupCommand\": \"sleep %d\", \"enqueueOnly\": true,"
             " \"group\": \"default\", \"domain\": \"default\","
             " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"256m\"}}}",
             name, seconds);
    int status;
    json_decref(s_as(kp, "POST", "/session", body, &status, NULL));
    return status;
}

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "gw-usage", true) == 0);
    snprintf(s_bridge, sizeof s_bridge, "bpu%d", (int) (getpid() % 100000));
    T_ASSERT(client_agent_start(&s_p, &s_agent, "agent-u", s_bridge, harness_subnet()));
    T_ASSERT(client_person(&s_p, "carol@example.com", "default", "user", &s_carol));
    json_decref(client_gql(
        &s_p, &s_p.super, "mutation { create_domain(name: \"other\", props: {}) { ok } }",
        NULL));
    T_ASSERT(client_person(&s_p, "dora@example.com", "other", "admin", &s_dora));
    time_t now = time(NULL), before = now - DAY_S, after = now + DAY_S;
    struct tm tm;
    strftime(s_days[0], sizeof s_days[0], "%Y-%m-%d", gmtime_r(&before, &tm));
    strftime(s_days[1], sizeof s_days[1], "%Y-%m-%d", gmtime_r(&after, &tm));
}

//  Two users' batch sessions run and end; accounting has both records.
static void
test_sessions_run(void)
{
    T_EQ_INT(s_batch(&s_p.super, "use-admin", 3), 201);
    T_EQ_INT(s_batch(&s_carol, "use-carol", 2), 201);
    sqlite3 *db = s_open("accounting");
    T_ASSERT(db);
    double ended = 0;
    for (int waited = 0; waited < END_MS && ended < 2; waited += 200) {
        harness_pause_ms(200);
        ended = s_number(db, "SELECT count(*) FROM usage WHERE started_at > 0"
                             " AND ended_at < 9223372036854775807");
    }
    T_EQ_INT((int) ended, 2);
    sqlite3_close(db);
}

//  The records' totals, per the usage table (what every answer must match).
typedef struct {
    double kernels, held_s, cpu_held_s, mem_held_byte_s, cpu_used_s, io_read;
} totals_t;

static totals_t
s_totals(sqlite3 *db)
{
    totals_t t;
    t.kernels = s_number(db, "SELECT count(*) FROM usage WHERE started_at > 0");
    t.held_s = s_number(db, "SELECT sum(ended_at - started_at) / 1e6 FROM usage"
                            " WHERE started_at > 0");
    t.cpu_held_s = s_number(db, "SELECT sum(cpu * (ended_at - started_at) / 1e6)"
                                " FROM usage WHERE started_at > 0");
    t.mem_held_byte_s = s_number(db, "SELECT sum(mem * (ended_at - started_at) / 1e6)"
                                     " FROM usage WHERE started_at > 0");
    t.cpu_used_s = s_number(db, "SELECT sum(cpu_ns) / 1e9 FROM usage");
    t.io_read = s_number(db, "SELECT sum(io_read) FROM usage");
    return t;
}

static bool
s_near(double a, double b)
{
    return fabs(a - b) <= 1e-6 * (1 + fabs(b));
}

static double
s_real(json_t *object, const char *key)
{
    return json_number_value(json_object_get(object, key));
}

//  GET /admin/v1/usage as kp; the JSON answer (caller decrefs).
static json_t *
s_summary(const client_keypair_t *kp,
          const char *group_by,
          const char *format,
          int *status,
          char **text_p)
{
    char path[256];
    snprintf(path, sizeof path, "/admin/v1/usage?group_by=%s&start=%s&end=%s&format=%s",
             group_by, s_days[0], s_days[1], format);
    return s_as(kp, "GET", path, NULL, status, text_p);
}

//  The sums per group add up to the records' totals, in JSON and in CSV.
static void
test_summaries_match_the_records(void)
{
    sqlite3 *db = s_open("accounting");
    T_ASSERT(db);
    totals_t want = s_totals(db);
    sqlite3_close(db);
    T_ASSERT(want.kernels == 2 && want.cpu_held_s > 2);
    int status;
    json_t *r = s_summary(&s_p.super, "user", "json", &status, NULL);
    T_EQ_INT(status, 200);
    json_t *groups = json_object_get(r, "groups"), *total = json_object_get(r, "total");
    T_EQ_INT(json_array_size(groups), 2);
    T_EQ_STR(json_string_value(json_object_get(r, "group_by")), "user");
    T_EQ_INT(json_integer_value(json_object_get(total, "kernels")), 2);
    T_ASSERT(s_near(s_real(total, "held_s"), want.held_s));
    T_ASSERT(s_near(s_real(total, "cpu_held_s"), want.cpu_held_s));
    T_ASSERT(s_near(s_real(total, "mem_held_byte_s"), want.mem_held_byte_s));
    T_ASSERT(s_near(s_real(total, "cpu_used_s"), want.cpu_used_s));
    T_ASSERT(s_near(s_real(total, "io_read_bytes"), want.io_read));
    //  Each user's row: one kernel, held 1 core and 256 MiB for its time.
    bool carol = false;
    size_t index;
    json_t *g;
    json_array_foreach(groups, index, g)
    {
        T_EQ_INT(json_integer_value(json_object_get(g, "kernels")), 1);
        T_ASSERT(s_near(s_real(g, "cpu_held_s"), s_real(g, "held_s")));
        T_ASSERT(s_near(s_real(g, "mem_held_byte_s"), MEM * s_real(g, "held_s")));
        T_ASSERT(s_real(g, "held_s") > 1);
        carol |= strcmp(json_string_value(json_object_get(g, "name")),
                        "carol@example.com") == 0;
    }
    T_ASSERT(carol);

    //  The CSV: a header row, then the same rows with the same numbers.
    char *text = NULL;
    json_decref(s_summary(&s_p.super, "user", "csv", &status, &text));
    T_EQ_INT(status, 200);
    T_ASSERT(text);
    char *save = NULL, *line = strtok_r(text, "\r\n", &save);
    T_ASSERT(line &&
             strncmp(line, "key,name,domain_name,kernels,sessions,held_s,", 45) == 0);
    char *columns[32];
    int ncolumns = 0;
    for (char *c = strtok(line, ","); c && ncolumns < 32; c = strtok(NULL, ","))
        columns[ncolumns++] = c;
    T_EQ_INT(ncolumns, 17);
    size_t rows = 0;
    for (line = strtok_r(NULL, "\r\n", &save); line;
         line = strtok_r(NULL, "\r\n", &save)) {
        json_t *row = json_array_get(groups, rows++); //  the same order
        char *fields[32];
        int n = 0;
        for (char *f = line, *end; f && n < 32; f = end ? end + 1 : NULL) {
            end = strchr(f, ',');
            if (end)
                *end = 0;
            fields[n++] = f;
        }
        T_EQ_INT(n, ncolumns);
        for (int c = 0; row && c < n && c < ncolumns; c++) {
            json_t *value = json_object_get(row, columns[c]);
            if (json_is_string(value))
                T_EQ_STR(fields[c], json_string_value(value));
            else
                T_ASSERT(strtod(fields[c], NULL) == json_number_value(value));
        }
    }
    T_EQ_INT(rows, 2);
    free(text);
    json_decref(r);

    //  Other groupings: one group each, the same totals.
    const char *const bys[] = {"domain", "image", "resource_group", "project"};
    const char *const keys[] = {"default", IMAGE, "default", NULL};
    for (int i = 0; i < 4; i++) {
        r = s_summary(&s_p.super, bys[i], "json", &status, NULL);
        T_EQ_INT(status, 200);
        groups = json_object_get(r, "groups");
        T_EQ_INT(json_array_size(groups), 1);
        g = json_array_get(groups, 0);
        if (keys[i])
            T_EQ_STR(json_string_value(json_object_get(g, "key")), keys[i]);
        else
            T_EQ_STR(json_string_value(json_object_get(g, "name")), "default");
        T_EQ_INT(json_integer_value(json_object_get(g, "kernels")), 2);
        T_ASSERT(s_near(s_real(g, "cpu_held_s"), want.cpu_held_s));
        T_ASSERT(s_near(s_real(g, "cpu_used_s"), want.cpu_used_s));
        json_decref(r);
    }
}

//  Everyone's bins hold each kernel where it lived, with its slots.
static void
test_admin_month_bins(void)
{
    int status;
    json_t *bins =
        s_as(&s_p.super, "GET", "/resource/stats/admin/month", NULL, &status, NULL);
    T_EQ_INT(status, 200);
    T_EQ_INT(json_array_size(bins), 2880);
    int64_t first = (int64_t) llround(
        json_number_value(json_object_get(json_array_get(bins, 0), "date")) * 1e6);
    T_EQ_INT(first % BIN_US, 0);
    //  The bins each kernel lived in, from the records.
    int expected[2880] = {0};
    sqlite3 *db = s_open("accounting");
    T_ASSERT(db);
    sqlite3_stmt *stmt = NULL;
    T_EQ_INT(sqlite3_prepare_v2(db,
                                "SELECT started_at, ended_at FROM usage"
                                " WHERE started_at > 0",
                                -1, &stmt, NULL),
             SQLITE_OK);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        int64_t start = sqlite3_column_int64(stmt, 0),
                end = sqlite3_column_int64(stmt, 1);
        T_ASSERT(end != OPEN_AT);
        for (int64_t i = (start - first) / BIN_US; i <= (end - 1 - first) / BIN_US; i++)
            if (i >= 0 && i < 2880)
                expected[i]++;
    }
    sqlite3_finalize(stmt);
    double io = s_number(db, "SELECT sum(io_read) FROM usage"), bin_io = 0;
    sqlite3_close(db);
    int kernels = 0;
    size_t index;
    json_t *bin;
    json_array_foreach(bins, index, bin)
    {
        int sessions = (int) json_integer_value(
            json_object_get(json_object_get(bin, "num_sessions"), "value"));
        if (sessions != expected[index])
            fprintf(stderr, "# bin %zu: %d kernels, the records say %d\n", index,
                    sessions, expected[index]);
        T_EQ_INT(sessions, expected[index]);
        T_EQ_INT(json_integer_value(
                     json_object_get(json_object_get(bin, "cpu_allocated"), "value")),
                 sessions);
        T_ASSERT(json_integer_value(
                     json_object_get(json_object_get(bin, "mem_allocated"), "value")) ==
                 sessions * (json_int_t) MEM);
        T_EQ_STR(json_string_value(
                     json_object_get(json_object_get(bin, "mem_allocated"), "unit_hint")),
                 "bytes");
        bin_io += json_number_value(
            json_object_get(json_object_get(bin, "io_read_bytes"), "value"));
        kernels += sessions;
    }
    T_ASSERT(kernels >= 2);
    //  Bytes spread over bins are written as whole numbers: one per bin lost.
    T_ASSERT(bin_io <= io && bin_io >= io - 2880);
    json_decref(bins);
}

static void
test_who_may(void)
{
    int status;
    json_decref(
        s_as(&s_carol, "GET", "/resource/stats/admin/month", NULL, &status, NULL));
    T_EQ_INT(status, 403);
    json_decref(
        s_as(&s_carol, "POST", "/resource/recalculate-usage", NULL, &status, NULL));
    T_EQ_INT(status, 403);
    json_decref(s_summary(&s_carol, "user", "json", &status, NULL));
    T_EQ_INT(status, 403);
    //  A domain admin: their domain only, where nothing ran.
    json_t *r = s_summary(&s_dora, "user", "json", &status, NULL);
    T_EQ_INT(status, 200);
    T_EQ_STR(json_string_value(json_object_get(r, "domain")), "other");
    T_EQ_INT(json_array_size(json_object_get(r, "groups")), 0);
    json_decref(r);
    json_decref(s_as(&s_dora, "GET",
                     "/admin/v1/usage?group_by=user&start=2026-01-01&end=2026-01-02"
                     "&domain=default",
                     NULL, &status, NULL));
    T_EQ_INT(status, 403);
    json_decref(s_as(&s_dora, "GET", "/resource/stats/admin/month", NULL, &status, NULL));
    T_EQ_INT(status, 403);
}

static void
test_bad_input(void)
{
    static const char *const paths[] = {
        "/admin/v1/usage?group_by=planet&start=2026-01-01&end=2026-01-02",
        "/admin/v1/usage?group_by=session&start=2026-01-01&end=2026-01-02",
        "/admin/v1/usage?group_by=user&start=2026-01-02&end=2026-01-01",
        "/admin/v1/usage?group_by=user&start=2025-01-01&end=2026-01-02", //  367 days
        "/admin/v1/usage?group_by=user&start=2026-02-30&end=2026-03-02",
        "/admin/v1/usage?group_by=user&start=2026-1-1&end=2026-03-02",
        "/admin/v1/usage?group_by=user&end=2026-03-02",
        "/admin/v1/usage?group_by=user&start=2026-01-01&end=2026-01-02&format=xml",
    };
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        int status;
        json_t *r = s_as(&s_p.super, "GET", paths[i], NULL, &status, NULL);
        if (status != 400)
            fprintf(stderr, "# %s: %d\n", paths[i], status);
        T_EQ_INT(status, 400);
        T_CONTAINS(json_string_value(json_object_get(r, "type")), "invalid-api-params");
        json_decref(r);
    }
    T_EQ_INT(s_not_problem, 0);
    //  A whole year is fine.
    int status;
    json_t *r = s_as(&s_p.super, "GET",
                     "/admin/v1/usage?group_by=domain&start=2025-01-01&end=2026-01-01",
                     NULL, &status, NULL);
    T_EQ_INT(status, 200);
    json_decref(r);
}

//  The official client's `backend.ai admin resource recalculate-usage`,
//  where it is installed (BACKPLANE_BCP names it; else backend.ai on PATH).
static void
s_official_client(void)
{
    const char *bcp = getenv("BACKPLANE_BCP") ? getenv("BACKPLANE_BCP") : "backend.ai";
    char command[1024];
    snprintf(command, sizeof command, "command -v %s >/dev/null 2>&1", bcp);
    if (system(command) != 0) {
        fprintf(stderr, "# %s is not installed: the official client is not tried\n", bcp);
        return;
    }
    snprintf(command, sizeof command,
             "BACKEND_ENDPOINT=http://%s BACKEND_ACCESS_KEY=%s BACKEND_SECRET_KEY=%s"
             " %s admin resource recalculate-usage 2>&1",
             s_p.api, s_p.super.access_key, s_p.super.secret_key, bcp);
    FILE *out = popen(command, "r");
    T_ASSERT(out);
    char text[4096] = "";
    size_t size = fread(text, 1, sizeof text - 1, out);
    text[size] = 0;
    T_EQ_INT(pclose(out), 0);
    fprintf(stderr, "# %s: %s", bcp, text);
    T_CONTAINS(text, "Resource allocation is re-calculated.");
}

//  The roll-ups cleared and corrupted, the scheduler's counters too; the
//  recalculation, as the official client asks for it, repairs both.
static void
test_recalculate_repairs(void)
{
    int status;
    json_t *before = s_summary(&s_p.super, "user", "json", &status, NULL);
    T_EQ_INT(status, 200);
    json_t *bins0 =
        s_as(&s_p.super, "GET", "/resource/stats/admin/month", NULL, &status, NULL);
    sqlite3 *acct = s_open("accounting"), *sched = s_open("scheduler");
    T_ASSERT(acct && sched);
    double cpu_ns = s_number(acct, "SELECT sum(cpu_ns) FROM usage");
    double samples = s_number(acct, "SELECT sum(samples) FROM usage");
    T_ASSERT(samples > 0);
    s_exec(acct, "DELETE FROM usage_hourly");
    s_exec(acct, "UPDATE usage_daily SET cpu_ns = cpu_ns * 3 + 7, samples = 0");
    s_exec(acct, "INSERT INTO usage_hourly VALUES ('k-bogus', 0, 5000000000, 0, 0, 0,"
                 " 0, 0, 3)");
    s_exec(acct, "INSERT INTO usage_daily VALUES ('default', 'g-bogus', 'u-bogus', 0,"
                 " 5000000000, 0, 0, 0, 0, 0, 3)");
    T_ASSERT(fabs(s_number(acct, "SELECT sum(cpu_ns) FROM usage_hourly") - cpu_ns) > 1);
    T_ASSERT(fabs(s_number(acct, "SELECT sum(cpu_ns) FROM usage_daily") - cpu_ns) > 1);
    s_exec(sched, "UPDATE keypair_counts SET concurrent = concurrent + 7");
    s_exec(sched, "UPDATE agent_occupancy SET amount = amount + 1000");
    T_ASSERT(s_number(sched, "SELECT sum(concurrent) FROM keypair_counts") >= 7);
    //  bcp: `backend.ai admin resource recalculate-usage` posts no body.
    json_t *r =
        s_as(&s_p.super, "POST", "/resource/recalculate-usage", NULL, &status, NULL);
    T_EQ_INT(status, 200);
    T_ASSERT(json_is_object(r) && json_object_size(r) == 0);
    json_decref(r);
    //  The buckets hold every sample once again.
    T_ASSERT(fabs(s_number(acct, "SELECT sum(cpu_ns) FROM usage_hourly") - cpu_ns) < 1);
    T_ASSERT(fabs(s_number(acct, "SELECT sum(cpu_ns) FROM usage_daily") - cpu_ns) < 1);
    T_ASSERT(s_number(acct, "SELECT sum(samples) FROM usage_hourly") == samples);
    T_ASSERT(s_number(acct, "SELECT sum(samples) FROM usage_daily") == samples);
    //  The sessions ended: no keypair holds a session or a slot.
    T_ASSERT(s_number(sched, "SELECT coalesce(sum(concurrent), 0) FROM keypair_counts") ==
             0);
    T_ASSERT(s_number(sched, "SELECT coalesce(sum(amount), 0) FROM agent_occupancy") ==
             0);
    sqlite3_close(acct);
    sqlite3_close(sched);
    //  The same answers as before, and again after a second run.
    for (int round = 0; round < 2; round++) {
        json_t *after = s_summary(&s_p.super, "user", "json", &status, NULL);
        T_EQ_INT(status, 200);
        T_ASSERT(json_equal(json_object_get(after, "total"),
                            json_object_get(before, "total")));
        json_decref(after);
        json_t *bins =
            s_as(&s_p.super, "GET", "/resource/stats/admin/month", NULL, &status, NULL);
        size_t index;
        json_t *bin;
        json_array_foreach(bins, index, bin)
        {
            json_t *old = json_array_get(bins0, index);
            T_ASSERT(json_equal(json_object_get(bin, "num_sessions"),
                                json_object_get(old, "num_sessions")));
            T_ASSERT(json_equal(json_object_get(bin, "io_read_bytes"),
                                json_object_get(old, "io_read_bytes")));
        }
        json_decref(bins);
        json_decref(
            s_as(&s_p.super, "POST", "/resource/recalculate-usage", NULL, &status, NULL));
        T_EQ_INT(status, 200);
    }
    json_decref(bins0);
    json_decref(before);
    s_official_client();
}

int
main(void)
{
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    T_RUN(test_start);
    if (t_failures)
        return T_DONE();
    T_RUN(test_sessions_run);
    T_RUN(test_summaries_match_the_records);
    T_RUN(test_admin_month_bins);
    T_RUN(test_who_may);
    T_RUN(test_bad_input);
    T_RUN(test_recalculate_repairs);
    int agent = harness_stop(&s_agent, CLIENT_STOP_MS);
    bool clean =
        client_platform_stop(&s_p) && agent == 0 && !harness_log_has_report(&s_agent);
    if (!clean)
        fprintf(stderr, "# a service did not stop cleanly (agent %d)\n", agent);
    char command[64];
    snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridge);
    if (system(command) == 0)
        fprintf(stderr, "# the agent left its bridge %s\n", s_bridge);
    client_platform_end(&s_p, t_failures > 0 || !clean);
    return clean ? T_DONE() : 1;
}
