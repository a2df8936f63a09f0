/*  =========================================================================
    sched_dispatch_test - scheduling passes over a real SQLite database

    Quotas at every level refuse with Backend.AI's predicates in
    status_data and let the session run once room frees; the resource
    group's rules come from its row; clusters are placed all or nothing;
    failed tries are counted once per retry period; after every scenario
    the ledger invariant holds (sched_db_ledger_check), including what an agent
    reports.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"
#include "t.h"

#define GIB        (INT64_C(1) << 30)
#define RETRY      1000 //  the retry period of the dispatcher, in µs
#define LIMITS_MAX 1024

static bus_db_t *s_db;
static sched_dispatch_t *s_dispatch;
static int64_t s_now = 1000000;

static void
s_exec(const char *sql)
{
    if (bus_db_exec(s_db, sql) != 0)
        fprintf(stderr, "# setup failed: %s\n", sql);
}

static void
s_agent(const char *id, const char *group, int64_t cpu, int64_t mem)
{
    char sql[512];
    snprintf(
        sql, sizeof sql,
        "INSERT INTO agents (id, scaling_group, first_contact, last_seen)"
        " VALUES ('%s', '%s', 1, 1);"
        "INSERT INTO agent_capacity VALUES ('%s', 'cpu', %lld), ('%s', 'mem', %lld);",
        id, group, id, (long long) cpu, id, (long long) mem);
    s_exec(sql);
}

//  A session owned by access_key (user u-<access_key>, project p, domain
//  d) in group asking cpu per kernel, with limits (JSON text or NULL).
typedef struct {
    const char *id;
    const char *access_key;
    const char *user;
    const char *project;
    const char *domain;
    const char *group;
    int64_t cpu;
    uint32_t cluster_size;
    bool multi_node;
    const char *limits;
} session_t;

static int
s_submit(const session_t *s)
{
    char kernel[80];
    snprintf(kernel, sizeof kernel, "k-%s", s->id);
    sched_amount_t request[] = {{"cpu", s->cpu}, {"mem", GIB}};
    sched_session_spec_t spec = {.session_id = s->id,
                                 .kernel_id = kernel,
                                 .name = s->id,
                                 .access_key = s->access_key,
                                 .user_uuid = s->user ? s->user : s->access_key,
                                 .domain_name = s->domain ? s->domain : "d",
                                 .group_id = s->project ? s->project : "p",
                                 .scaling_group = s->group ? s->group : "default",
                                 .image = "local.backplane/library/busybox:latest",
                                 .request = request,
                                 .request_count = 2,
                                 .priority = 10,
                                 .cluster_size = s->cluster_size,
                                 .cluster_mode = s->multi_node ? "multi-node" : NULL,
                                 .limits = s->limits};
    bus_error_t err = {0};
    s_now += 10;
    int rc = sched_db_sessions_insert(s_db, &spec, s_now, &err);
    if (rc != BUS_OK)
        fprintf(stderr, "# submit %s: %s\n", s->id, err.detail);
    return rc;
}

//  One pass RETRY after the last; returns how many kernels it placed.
static size_t
s_pass(void)
{
    s_now += RETRY;
    size_t count = 0;
    sched_assignment_t *placed = sched_dispatch_run(s_dispatch, s_now, &count);
    free(placed);
    return count;
}

static const char *
s_column(const char *sql, const char *id, char *out, size_t size)
{
    sqlite3_stmt *stmt = bus_db_stmt(s_db, sql);
    *out = 0;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_text(stmt, 0))
            snprintf(out, size, "%s", (const char *) sqlite3_column_text(stmt, 0));
        sqlite3_reset(stmt);
    }
    return out;
}

static const char *
s_status(const char *session)
{
    static char status[32];
    return s_column("SELECT status FROM sessions WHERE id = ?1", session, status,
                    sizeof status);
}

static const char *
s_data(const char *session)
{
    static char data[8192];
    return s_column(
        "SELECT status_info || ' ' || status_data FROM sessions WHERE id = ?1", session,
        data, sizeof data);
}

//  Ends every kernel of a session (TERMINATED), giving its slots back.
static void
s_end(const char *session)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(s_db, "SELECT id, status FROM kernels WHERE session_id = ?1");
    char kernels[SCHED_CLUSTER_MAX][64];
    size_t count = 0;
    sqlite3_bind_text(stmt, 1, session, -1, SQLITE_TRANSIENT);
    while (count < SCHED_CLUSTER_MAX && sqlite3_step(stmt) == SQLITE_ROW)
        snprintf(kernels[count++], 64, "%s", (const char *) sqlite3_column_text(stmt, 0));
    sqlite3_reset(stmt);
    for (size_t i = 0; i < count; i++) {
        bus_error_t err = {0};
        sched_db_kernels_status(s_db, kernels[i], SCHED_KERNEL_TERMINATED,
                                "user-requested", NULL, s_now, &err);
    }
}

//  The ledger holds its promises.
static int
s_violations(void)
{
    json_t *report = NULL;
    int violations = sched_db_ledger_check(s_db, &report);
    size_t index;
    json_t *line;
    json_array_foreach(report, index, line)
        fprintf(stderr, "# invariant: %s\n", json_string_value(line));
    json_decref(report);
    return violations;
}

static void
test_keypair_concurrency_and_slots(void)
{
    s_agent("a1", "default", 16000, 64 * GIB);
    const char *limits = "{\"keypair\": {\"max_concurrent_sessions\": 2,"
                         " \"total_resource_slots\": {\"cpu\": \"3\"}}}";
    T_EQ_INT(s_submit(&(session_t){"c1", "AK1", .cpu = 1000, .limits = limits}), BUS_OK);
    T_EQ_INT(s_submit(&(session_t){"c2", "AK1", .cpu = 1000, .limits = limits}), BUS_OK);
    T_EQ_INT(s_submit(&(session_t){"c3", "AK1", .cpu = 1000, .limits = limits}), BUS_OK);
    T_EQ_INT(s_pass(), 2);
    T_EQ_STR(s_status("c1"), "SCHEDULED");
    T_EQ_STR(s_status("c3"), "PENDING");
    T_CONTAINS(s_data("c3"), "predicate-checks-failed");
    T_CONTAINS(s_data("c3"), "You cannot run more than 2 concurrent sessions");
    T_CONTAINS(s_data("c3"), "\"passed_predicates\"");
    T_CONTAINS(s_data("c3"), "keypair_resource_limit");
    T_EQ_INT(s_violations(), 0);
    //  One ends: c3 runs, and the keypair now holds 2 cpus of its 3.
    s_end("c1");
    T_EQ_INT(s_pass(), 1);
    T_EQ_STR(s_status("c3"), "SCHEDULED");
    //  2 more cpus would be 4 > 3: the slot limit, named with the limit.
    const char *more = "{\"keypair\": {\"max_concurrent_sessions\": 9,"
                       " \"total_resource_slots\": {\"cpu\": \"3\"}}}";
    T_EQ_INT(s_submit(&(session_t){"c4", "AK1", .cpu = 2000, .limits = more}), BUS_OK);
    T_EQ_INT(s_pass(), 0);
    T_CONTAINS(s_data("c4"), "Your keypair resource quota is exceeded. (cpu=3)");
    //  Exactly at the limit is allowed.
    s_end("c2");
    T_EQ_INT(s_pass(), 1);
    T_EQ_STR(s_status("c4"), "SCHEDULED");
    s_end("c3");
    s_end("c4");
    T_EQ_INT(s_violations(), 0);
}

static void
test_user_project_and_domain_slots(void)
{
    //  Two keypairs of one user share the user's limit.
    const char *user = "{\"user\": {\"total_resource_slots\": {\"cpu\": \"2\"}}}";
    T_EQ_INT(s_submit(&(session_t){"u1", "AK2", "U2", .cpu = 1500, .limits = user}),
             BUS_OK);
    T_EQ_INT(s_submit(&(session_t){"u2", "AK3", "U2", .cpu = 1000, .limits = user}),
             BUS_OK);
    T_EQ_INT(s_pass(), 1);
    T_EQ_STR(s_status("u2"), "PENDING");
    T_CONTAINS(s_data("u2"), "user_resource_limit");
    //  The project's limit holds across its users.
    const char *project = "{\"project\": {\"total_resource_slots\": {\"cpu\": \"1\"}}}";
    T_EQ_INT(
        s_submit(&(session_t){"p1", "AK4", "U4", "P4", .cpu = 1000, .limits = project}),
        BUS_OK);
    T_EQ_INT(s_submit(&(session_t){"p2", "AK5", "U5", "P4", .cpu = 1, .limits = project}),
             BUS_OK);
    //  The domain's too.
    const char *domain = "{\"domain\": {\"total_resource_slots\": {\"mem\": \"1g\"}}}";
    T_EQ_INT(s_submit(&(session_t){"d1", "AK6", "U6", "P6", "D6", .cpu = 100,
                                   .limits = domain}),
             BUS_OK);
    T_EQ_INT(s_submit(&(session_t){"d2", "AK7", "U7", "P7", "D6", .cpu = 100,
                                   .limits = domain}),
             BUS_OK);
    T_EQ_INT(s_pass(), 2);
    T_EQ_STR(s_status("p1"), "SCHEDULED");
    T_EQ_STR(s_status("p2"), "PENDING");
    T_CONTAINS(s_data("p2"), "Your group resource quota is exceeded.");
    T_EQ_STR(s_status("d1"), "SCHEDULED");
    T_EQ_STR(s_status("d2"), "PENDING");
    T_CONTAINS(s_data("d2"), "Your domain resource quota is exceeded.");
    T_EQ_INT(s_violations(), 0);
    const char *first[] = {"u1", "p1", "d1"}, *waiting[] = {"u2", "p2", "d2"};
    for (size_t i = 0; i < 3; i++)
        s_end(first[i]);
    T_EQ_INT(s_pass(), 3); //  what waited runs once the others end
    for (size_t i = 0; i < 3; i++) {
        T_EQ_STR(s_status(waiting[i]), "SCHEDULED");
        s_end(waiting[i]);
    }
    T_EQ_INT(s_violations(), 0);
}

static void
test_tries_are_counted_once_per_period(void)
{
    const char *limits = "{\"keypair\": {\"max_concurrent_sessions\": 1}}";
    T_EQ_INT(s_submit(&(session_t){"t1", "AK8", .cpu = 100, .limits = limits}), BUS_OK);
    T_EQ_INT(s_submit(&(session_t){"t2", "AK8", .cpu = 100, .limits = limits}), BUS_OK);
    s_pass();
    //  Three passes within one period count one try.
    for (int i = 0; i < 3; i++) {
        size_t count = 0;
        free(sched_dispatch_run(s_dispatch, s_now + 1 + i, &count));
    }
    char retries[32];
    s_column("SELECT retries FROM sessions WHERE id = ?1", "t2", retries, sizeof retries);
    T_EQ_STR(retries, "1");
    s_pass();
    s_column("SELECT retries FROM sessions WHERE id = ?1", "t2", retries, sizeof retries);
    T_EQ_STR(retries, "2");
    T_CONTAINS(s_data("t2"), "\"retries\":2");
    s_end("t1");
    s_pass();
    s_end("t2");
}

static void
test_rules_of_the_group(void)
{
    //  LIFO with the pack selector in group g2 of two agents.
    s_agent("b1", "g2", 2000, 8 * GIB);
    s_agent("b2", "g2", 2000, 8 * GIB);
    s_exec("INSERT INTO sgroups VALUES ('g2', 'lifo',"
           " '{\"agent_selector\": \"dispersed\"}')");
    T_EQ_INT(s_submit(&(session_t){"l1", "AK9", .group = "g2", .cpu = 2000}), BUS_OK);
    T_EQ_INT(s_submit(&(session_t){"l2", "AK9", .group = "g2", .cpu = 1000}), BUS_OK);
    T_EQ_INT(s_submit(&(session_t){"l3", "AK9", .group = "g2", .cpu = 1000}), BUS_OK);
    //  Newest first and spread: l3 on b1, l2 on b2; l1 (2 cpus) waits.
    T_EQ_INT(s_pass(), 2);
    T_EQ_STR(s_status("l1"), "PENDING");
    T_CONTAINS(s_data("l1"), "no-available-instances");
    char agent[64], other[64];
    s_column("SELECT agent_id FROM kernels WHERE session_id = ?1", "l2", agent,
             sizeof agent);
    s_column("SELECT agent_id FROM kernels WHERE session_id = ?1", "l3", other,
             sizeof other);
    T_ASSERT(strcmp(agent, other) != 0);
    s_end("l2");
    s_end("l3");
    T_EQ_INT(s_pass(), 1);
    s_end("l1");
    T_EQ_INT(s_violations(), 0);
}

static void
test_clusters_all_or_nothing(void)
{
    s_agent("m1", "g3", 4000, 8 * GIB);
    s_agent("m2", "g3", 4000, 8 * GIB);
    //  Single-node: 2 x 2 cpus on one agent.
    T_EQ_INT(s_submit(&(session_t){"x1", "AK10", .group = "g3", .cpu = 2000,
                                   .cluster_size = 2}),
             BUS_OK);
    T_EQ_INT(s_pass(), 2);
    char count[16];
    s_column("SELECT count(DISTINCT agent_id) FROM kernels WHERE session_id = ?1", "x1",
             count, sizeof count);
    T_EQ_STR(count, "1");
    //  Multi-node of 2 with 3 cpus each: one agent is full, so none is placed.
    T_EQ_INT(s_submit(&(session_t){"x2", "AK10", .group = "g3", .cpu = 3000,
                                   .cluster_size = 2, .multi_node = true}),
             BUS_OK);
    T_EQ_INT(s_pass(), 0);
    T_EQ_STR(s_status("x2"), "PENDING");
    s_column("SELECT count(*) FROM allocations a JOIN kernels k ON k.id = a.kernel_id"
             " WHERE k.session_id = ?1",
             "x2", count, sizeof count);
    T_EQ_STR(count, "0");
    //  Room on both: placed on two agents, with sub kernels of their own.
    s_end("x1");
    T_EQ_INT(s_pass(), 2);
    s_column("SELECT count(DISTINCT agent_id) FROM kernels WHERE session_id = ?1", "x2",
             count, sizeof count);
    T_EQ_STR(count, "2");
    s_column("SELECT group_concat(cluster_role || cluster_idx) FROM"
             " (SELECT * FROM kernels WHERE session_id = ?1 ORDER BY cluster_idx)",
             "x2", count, sizeof count);
    T_EQ_STR(count, "main1,sub2");
    T_EQ_INT(s_violations(), 0);
    //  An agent at rest that says it holds other than the ledger is a
    //  violation (m1 is not at rest: its kernel is being created).
    s_exec("INSERT INTO agent_reported VALUES ('m1', 'cpu', 1234),"
           " ('a1', 'cpu', 1234)");
    T_EQ_INT(s_violations(), 1);
    s_exec("DELETE FROM agent_reported");
    s_end("x2");
    T_EQ_INT(s_violations(), 0);
}

//  scheduler.concurrency's read: the sessions that hold slots, per keypair
//  asked, 0 for one without sessions or only PENDING ones; each key found
//  by keypair_counts' primary key (the plan never scans it).
static void
test_concurrency_read(void)
{
    s_agent("cc", "conc", 16000, 64 * GIB);
    T_EQ_INT(s_submit(&(session_t){"n1", "AK41", .group = "conc", .cpu = 100}), BUS_OK);
    T_EQ_INT(s_submit(&(session_t){"n2", "AK41", .group = "conc", .cpu = 100}), BUS_OK);
    T_EQ_INT(s_submit(&(session_t){"n3", "AK42", .group = "conc", .cpu = 100}), BUS_OK);
    T_EQ_INT(s_submit(&(session_t){"n4", "AK43", .group = "nowhere", .cpu = 100}),
             BUS_OK);
    T_EQ_INT(s_pass(), 3);
    const char *keys[] = {"AK42", "AK41", "AK-none", "AK43", "AK41"};
    uint64_t used[5];
    T_EQ_INT(sched_db_ledger_concurrency(s_db, keys, 5, used), BUS_OK);
    T_EQ_INT(used[0], 1);
    T_EQ_INT(used[1], 2);
    T_EQ_INT(used[2], 0);
    T_EQ_INT(used[3], 0); //  PENDING holds nothing
    T_EQ_INT(used[4], 2);
    s_end("n1");
    T_EQ_INT(sched_db_ledger_concurrency(s_db, keys, 2, used), BUS_OK);
    T_EQ_INT(used[0], 1);
    T_EQ_INT(used[1], 1);
    T_EQ_INT(sched_db_ledger_concurrency(s_db, keys, 0, used), BUS_OK);
    sqlite3_stmt *stmt = NULL;
    char plan[512] = "";
    T_EQ_INT(sqlite3_prepare_v2(bus_db_handle(s_db),
                                "EXPLAIN QUERY PLAN SELECT j.key, c.concurrent"
                                " FROM json_each(?1) j"
                                " JOIN keypair_counts c ON c.access_key = j.value",
                                -1, &stmt, NULL),
             SQLITE_OK);
    while (stmt && sqlite3_step(stmt) == SQLITE_ROW)
        snprintf(plan + strlen(plan), sizeof plan - strlen(plan), "%s;",
                 (const char *) sqlite3_column_text(stmt, 3));
    sqlite3_finalize(stmt);
    T_CONTAINS(plan, "SEARCH c USING PRIMARY KEY");
    s_end("n2");
    s_end("n3");
    s_end("n4");
    T_EQ_INT(s_violations(), 0);
}

static void
test_pending_limits_at_submission(void)
{
    //  The scheduler's session.create checks these before inserting; here
    //  the aggregates it reads are checked after inserts and passes.
    char pending[32];
    s_column("SELECT pending FROM keypair_counts WHERE access_key = ?1", "AK1", pending,
             sizeof pending);
    T_EQ_STR(pending, "0");
    T_EQ_INT(s_submit(&(session_t){"q1", "AK11", .group = "nowhere", .cpu = 500}),
             BUS_OK);
    T_EQ_INT(s_submit(&(session_t){"q2", "AK11", .group = "nowhere", .cpu = 500,
                                   .cluster_size = 2}),
             BUS_OK);
    s_column("SELECT pending FROM keypair_counts WHERE access_key = ?1", "AK11", pending,
             sizeof pending);
    T_EQ_STR(pending, "2");
    s_column("SELECT amount FROM scope_usage WHERE kind = 'pending' AND key = ?1"
             " AND slot = 'cpu'",
             "AK11", pending, sizeof pending);
    T_EQ_STR(pending, "1500");
    T_EQ_INT(s_violations(), 0);
}

//  The aggregates broken by hand, then recounted from the rows: every
//  promise holds again, and the same numbers as the triggers kept.
static void
test_recount_repairs_the_aggregates(void)
{
    char before[32], after[32], pending[32];
    T_EQ_INT(s_submit(&(session_t){"r1", "AK21", .cpu = 1000}), BUS_OK);
    T_ASSERT(s_pass() >= 1);
    T_EQ_STR(s_status("r1"), "SCHEDULED");
    s_column("SELECT coalesce(sum(amount), 0) FROM scope_usage WHERE kind = ?1",
             "keypair", before, sizeof before);
    s_column("SELECT pending FROM keypair_counts WHERE access_key = ?1", "AK11", pending,
             sizeof pending);
    T_ASSERT(atoi(before) > 0); //  sessions still hold slots
    s_exec("UPDATE keypair_counts SET concurrent = concurrent + 5, pending = 0");
    s_exec("UPDATE agent_occupancy SET amount = amount * 2");
    s_exec("DELETE FROM scope_usage WHERE kind = 'keypair'");
    s_exec("INSERT INTO keypair_counts VALUES ('AK-ghost', 3, 1)");
    T_ASSERT(s_violations() > 0);
    int fixed = 0;
    T_EQ_INT(sched_db_ledger_recount(s_db, &fixed, NULL), 0);
    T_ASSERT(fixed > 0);
    T_EQ_INT(s_violations(), 0);
    s_column("SELECT coalesce(sum(amount), 0) FROM scope_usage WHERE kind = ?1",
             "keypair", after, sizeof after);
    T_EQ_STR(after, before);
    s_column("SELECT pending FROM keypair_counts WHERE access_key = ?1", "AK11", after,
             sizeof after);
    T_EQ_STR(after, pending);
    //  Nothing to repair: nothing changes.
    T_EQ_INT(sched_db_ledger_recount(s_db, &fixed, NULL), 0);
    T_EQ_INT(fixed, 0);
}

//  A session asking one accelerator slot (and a little cpu and memory) in
//  resource group gpu.
static int
s_submit_accel(const char *id, const char *slot, int64_t amount)
{
    char kernel[80];
    snprintf(kernel, sizeof kernel, "k-%s", id);
    sched_amount_t request[] = {{"cpu", 100}, {"mem", GIB / 4}, {"", amount}};
    snprintf(request[2].slot, sizeof request[2].slot, "%s", slot);
    sched_session_spec_t spec = {.session_id = id,
                                 .kernel_id = kernel,
                                 .name = id,
                                 .access_key = "AK-GPU",
                                 .user_uuid = "u-gpu",
                                 .domain_name = "d",
                                 .group_id = "p",
                                 .scaling_group = "gpu",
                                 .image = "local.backplane/library/busybox:latest",
                                 .request = request,
                                 .request_count = 3,
                                 .priority = 10,
                                 .cluster_size = 1};
    bus_error_t err = {0};
    s_now += 10;
    int rc = sched_db_sessions_insert(s_db, &spec, s_now, &err);
    if (rc != BUS_OK)
        fprintf(stderr, "# submit %s: %s\n", id, err.detail);
    return rc;
}

//  One GPU offered whole and as shares (cuda_mode both): taken whole, a
//  shares session waits and its reason names cuda.shares; an agent's
//  refusal for want of room puts a scheduled session back in the queue,
//  and what the agent can place holds it there until a heartbeat says
//  otherwise.
static void
test_gpu_offered_once(void)
{
    s_agent("g1", "gpu", 4000, 8 * GIB);
    s_exec("INSERT INTO agent_capacity VALUES ('g1', 'cuda.device', 1000),"
           " ('g1', 'cuda.shares', 1000)");
    T_EQ_INT(s_submit_accel("w1", "cuda.device", 1000), BUS_OK);
    s_pass();
    T_EQ_STR(s_status("w1"), "SCHEDULED");
    T_EQ_INT(s_submit_accel("h1", "cuda.shares", 500), BUS_OK);
    s_pass();
    T_EQ_STR(s_status("h1"), "PENDING");
    T_CONTAINS(s_data("h1"), "no-available-instances");
    T_CONTAINS(s_data("h1"), "cuda.shares: asked 0.5, free 0 on the best agent");
    s_end("w1");
    s_pass();
    T_EQ_STR(s_status("h1"), "SCHEDULED");
    T_EQ_INT(s_violations(), 0);
    //  The agent refuses it (its devices were split otherwise than the
    //  ledger says): back to PENDING, nothing held, the reason kept.
    T_EQ_INT(bus_db_begin(s_db), 0);
    T_EQ_INT(sched_db_agents_refused(s_db, "g1", "k-h1", "cuda.shares"), 0);
    T_EQ_INT(
        sched_db_kernels_requeue(
            s_db, "k-h1", "Agent g1 had no room: cuda.shares " BUS_SLOTS_NO_FIT, s_now),
        BUS_OK);
    T_EQ_INT(bus_db_commit(s_db), 0);
    T_EQ_STR(s_status("h1"), "PENDING");
    T_CONTAINS(s_data("h1"), "Agent g1 had no room");
    char text[64];
    T_EQ_STR(s_column("SELECT status || coalesce(agent_id, '-') FROM kernels"
                      " WHERE id = ?1",
                      "k-h1", text, sizeof text),
             "PENDING-");
    T_EQ_STR(s_column("SELECT amount FROM agent_placeable WHERE slot = ?1", "cuda.shares",
                      text, sizeof text),
             "499");
    T_EQ_INT(s_violations(), 0);
    //  Once only: a kernel no longer being created is not put back again.
    T_EQ_INT(sched_db_kernels_requeue(s_db, "k-h1", "again", s_now),
             BUS_STATUS_NOT_FOUND);
    //  The next pass does not send it there again on the same figures.
    s_pass();
    T_EQ_STR(s_status("h1"), "PENDING");
    T_CONTAINS(s_data("h1"), "cuda.shares: asked 0.5, free 0.499 on the best agent");
    //  A heartbeat that says otherwise (all of it free): placed.
    s_exec("UPDATE agent_placeable SET amount = 1000 WHERE agent_id = 'g1'");
    s_pass();
    T_EQ_STR(s_status("h1"), "SCHEDULED");
    T_EQ_INT(s_violations(), 0);
    s_end("h1");
    T_EQ_INT(s_violations(), 0);
}

//  An agent not heard from since the scheduler started (its row is of an
//  earlier run, with that run's address) gets nothing until a heartbeat
//  of this run; then the session waiting for it is placed there.
static void
test_only_agents_heard_since_the_start(void)
{
    s_agent("r1", "rerun", 4000, 8 * GIB); //  last_seen 1: an earlier run
    sched_dispatch_set_heard_since(s_dispatch, s_now);
    session_t s = {.id = "rr1", .access_key = "AKRR", .group = "rerun", .cpu = 1000};
    T_EQ_INT(s_submit(&s), BUS_OK);
    s_pass();
    T_EQ_STR(s_status("rr1"), "PENDING");
    T_CONTAINS(s_data("rr1"), "No agent of resource group rerun");
    char sql[128];
    snprintf(sql, sizeof sql, "UPDATE agents SET last_seen = %lld WHERE id = 'r1'",
             (long long) s_now);
    s_exec(sql);
    s_pass();
    T_EQ_STR(s_status("rr1"), "SCHEDULED");
    s_end("rr1");
    sched_dispatch_set_heard_since(s_dispatch, 0);
    T_EQ_INT(s_violations(), 0);
}

int
main(void)
{
    bus_log_set_level(BUS_LOG_ERROR);
    bus_error_t err = {0};
    s_db = bus_db_open(":memory:", sched_db_migrations, SCHED_DB_MIGRATION_COUNT, &err);
    if (!s_db) {
        fprintf(stderr, "# %s\n", err.detail);
        return 1;
    }
    s_dispatch = sched_dispatch_new(s_db, RETRY, 0);
    T_RUN(test_keypair_concurrency_and_slots);
    T_RUN(test_user_project_and_domain_slots);
    T_RUN(test_tries_are_counted_once_per_period);
    T_RUN(test_rules_of_the_group);
    T_RUN(test_clusters_all_or_nothing);
    T_RUN(test_concurrency_read);
    T_RUN(test_pending_limits_at_submission);
    T_RUN(test_recount_repairs_the_aggregates);
    T_RUN(test_gpu_offered_once);
    T_RUN(test_only_agents_heard_since_the_start);
    sched_dispatch_destroy(&s_dispatch);
    bus_db_destroy(&s_db);
    return T_DONE();
}
