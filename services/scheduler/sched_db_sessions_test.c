/*  =========================================================================
    sched_db_sessions_test - the session lifecycle in a real SQLite database

    Sessions inserted, placed by scheduling passes on agents whose rows are
    written as the registry writes them, moved through kernel transitions;
    the allocation ledger checked as the SUM it is after every step; the
    unsettled kernels the reconciliation looks at (a restart among them).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"
#include "t.h"

static bus_db_t *s_db;
static sched_dispatch_t *s_dispatch;

//  One scheduling pass at now; copies at most max placements to placed.
static size_t
s_schedule(int64_t now, sched_assignment_t *placed, size_t max)
{
    size_t count = 0;
    sched_assignment_t *all = sched_dispatch_run(s_dispatch, now, &count);
    if (count > max)
        count = max;
    if (count)
        memcpy(placed, all, count * sizeof *placed);
    free(all);
    return count;
}

static void
s_exec(const char *sql)
{
    if (bus_db_exec(s_db, sql) != 0)
        fprintf(stderr, "# setup failed: %s\n", sql);
}

//  An agent as the registry records it: status, group, arch, cpu and mem.
static void
s_agent(const char *id, const char *status, const char *group, int64_t cpu, int64_t mem)
{
    char sql[512];
    snprintf(
        sql, sizeof sql,
        "INSERT INTO agents (id, status, scaling_group, first_contact, last_seen)"
        " VALUES ('%s', '%s', '%s', 1, 1);"
        "INSERT INTO agent_capacity VALUES ('%s', 'cpu', %lld), ('%s', 'mem', %lld);",
        id, status, group, id, (long long) cpu, id, (long long) mem);
    s_exec(sql);
}

static int
s_insert(const char *session, const char *name, int64_t cpu)
{
    char kernel[SCHED_ID_MAX];
    snprintf(kernel, sizeof kernel, "k-%s", session);
    sched_amount_t request[] = {{"cpu", cpu}, {"mem", 1 << 20}};
    sched_session_spec_t spec = {.session_id = session,
                                 .kernel_id = kernel,
                                 .name = name,
                                 .access_key = "AKTEST",
                                 .user_uuid = "u-1",
                                 .domain_name = "default",
                                 .group_id = "g-1",
                                 .scaling_group = "default",
                                 .image = "local.backplane/library/busybox:latest",
                                 .request = request,
                                 .request_count = 2};
    bus_error_t err = {0};
    return sched_db_sessions_insert(s_db, &spec, 1000, &err);
}

//  The SUM of an agent's allocation rows for cpu.
static int64_t
s_cpu_held(const char *agent)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        s_db, "SELECT coalesce(sum(amount), 0) FROM allocations WHERE agent_id = ?1"
              " AND slot = 'cpu'");
    sqlite3_bind_text(stmt, 1, agent, -1, SQLITE_TRANSIENT);
    int64_t held = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
    sqlite3_reset(stmt);
    return held;
}

static const char *
s_agent_of(sched_assignment_t *placed, size_t count, const char *session)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(placed[i].session_id, session) == 0)
            return placed[i].agent_id;
    return NULL;
}

static int
s_move(const char *kernel,
       sched_kernel_status_t status,
       const char *info,
       const char *data)
{
    bus_error_t err = {0};
    return sched_db_kernels_status(s_db, kernel, status, info, data, 2000, &err);
}

static void
test_insert_and_names(void)
{
    T_EQ_INT(s_insert("s1", "big", 3000), BUS_OK);
    T_EQ_INT(sched_db_sessions_status(s_db, "s1"), SCHED_SESSION_PENDING);
    T_EQ_INT(s_insert("s1b", "big", 1000), BUS_STATUS_CONFLICT);  //  a live name
    T_EQ_INT(s_insert("s1", "other", 1000), BUS_STATUS_CONFLICT); //  the id exists
    T_EQ_INT(s_insert("bad id/..", "x", 1000), BUS_STATUS_INVALID);
    T_EQ_INT(s_insert("s2", "two", 2000), BUS_OK);
    T_EQ_INT(s_insert("s3", "three", 2000), BUS_OK);
    T_EQ_INT(s_insert("s4", "four", 500), BUS_OK);
    //  A refused insert left nothing behind.
    T_EQ_INT(sched_db_sessions_status(s_db, "s1b"), -1);
}

static void
test_placement_with_backfill(void)
{
    s_agent("a1", "ALIVE", "default", 2000, INT64_C(4) << 30);
    s_agent("a2", "ALIVE", "default", 4000, INT64_C(4) << 30);
    s_agent("a0-lost", "LOST", "default", 64000, INT64_C(64) << 30);
    s_agent("a3-gpu", "ALIVE", "gpu", 64000, INT64_C(64) << 30);
    sched_assignment_t placed[8];
    size_t count = s_schedule(1500, placed, 8);
    //  s1 (3 cpus) only fits a2; s2 (2) takes a1; s3 (2) fits nowhere now
    //  and waits; s4 (0.5) goes past it into a2's room.
    T_EQ_INT(count, 3);
    T_EQ_STR(s_agent_of(placed, count, "s1"), "a2");
    T_EQ_STR(s_agent_of(placed, count, "s2"), "a1");
    T_ASSERT(s_agent_of(placed, count, "s3") == NULL);
    T_EQ_STR(s_agent_of(placed, count, "s4"), "a2");
    T_EQ_INT(s_cpu_held("a1"), 2000);
    T_EQ_INT(s_cpu_held("a2"), 3500);
    T_EQ_INT(s_cpu_held("a0-lost"), 0);
    T_EQ_INT(sched_db_sessions_status(s_db, "s1"), SCHED_SESSION_SCHEDULED);
    T_EQ_INT(sched_db_sessions_status(s_db, "s3"), SCHED_SESSION_PENDING);
    //  A pass with nothing new to place places nothing.
    T_EQ_INT(s_schedule(1600, placed, 8), 0);
}

static void
test_kernel_transitions_drive_the_session(void)
{
    T_EQ_INT(s_move("k-s2", SCHED_KERNEL_PREPARING, NULL, NULL), BUS_OK);
    T_EQ_INT(sched_db_sessions_status(s_db, "s2"), SCHED_SESSION_PREPARING);
    T_EQ_INT(s_move("k-s2", SCHED_KERNEL_RUNNING, NULL, NULL), BUS_OK);
    T_EQ_INT(sched_db_sessions_status(s_db, "s2"), SCHED_SESSION_RUNNING);
    T_EQ_INT(s_move("k-s2", SCHED_KERNEL_RUNNING, NULL, NULL), BUS_OK); //  no change
    //  Backwards is refused and changes nothing.
    T_EQ_INT(s_move("k-s2", SCHED_KERNEL_PENDING, NULL, NULL), BUS_STATUS_INVALID);
    T_EQ_INT(s_move("k-nope", SCHED_KERNEL_RUNNING, NULL, NULL), BUS_STATUS_NOT_FOUND);
    T_EQ_INT(s_move("k-s2", SCHED_KERNEL_TERMINATED, "self-terminated", "[1]"),
             BUS_STATUS_INVALID);
    T_EQ_INT(sched_db_sessions_status(s_db, "s2"), SCHED_SESSION_RUNNING);
    T_EQ_INT(s_cpu_held("a1"), 2000);
    //  The end gives the slots back, with the reason.
    T_EQ_INT(s_move("k-s2", SCHED_KERNEL_TERMINATED, "oom-killed",
                    "{\"kernel\": {\"exit_code\": 137}}"),
             BUS_OK);
    T_EQ_INT(sched_db_sessions_status(s_db, "s2"), SCHED_SESSION_TERMINATED);
    T_EQ_INT(s_cpu_held("a1"), 0);
    sqlite3_stmt *stmt = bus_db_stmt(
        s_db,
        "SELECT status_info, status_data, terminated_at FROM sessions WHERE id = 's2'");
    T_ASSERT(stmt && sqlite3_step(stmt) == SQLITE_ROW);
    T_EQ_STR((const char *) sqlite3_column_text(stmt, 0), "oom-killed");
    T_CONTAINS((const char *) sqlite3_column_text(stmt, 1), "137");
    T_EQ_INT(sqlite3_column_int64(stmt, 2), 2000);
    sqlite3_reset(stmt);
    //  Every move is in its history, in order, each once, with its reason;
    //  session.get carries it.
    proto_session_info_t info;
    proto_session_info_init(&info);
    T_EQ_INT(sched_db_sessions_get(s_db, "s2", &info), BUS_OK);
    json_t *history = json_loads(info.status_history ? info.status_history : "", 0, NULL);
    const char *expected[] = {"PENDING", "SCHEDULED", "PREPARING", "RUNNING",
                              "TERMINATED"};
    T_EQ_INT((int) json_array_size(history), 5);
    for (size_t i = 0; i < 5; i++)
        T_EQ_STR(json_string_value(json_object_get(json_array_get(history, i), "status")),
                 expected[i]);
    T_EQ_STR(json_string_value(json_object_get(json_array_get(history, 4), "info")),
             "oom-killed");
    T_EQ_INT(json_integer_value(json_object_get(json_array_get(history, 4), "at")), 2000);
    json_decref(history);
    proto_session_info_clear(&info);
    //  Its room goes to the waiting session; its name is free again.
    sched_assignment_t placed[4];
    T_EQ_INT(s_schedule(2500, placed, 4), 1);
    T_EQ_STR(placed[0].session_id, "s3");
    T_EQ_STR(placed[0].agent_id, "a1");
    T_EQ_INT(s_insert("s5", "two", 100), BUS_OK);
}

static void
test_a_failed_start_ends_in_error(void)
{
    //  The agent could not start s4's kernel: ERROR, then TERMINATED.
    T_EQ_INT(s_move("k-s4", SCHED_KERNEL_ERROR, "failed-to-start",
                    "{\"error\": \"no such image\"}"),
             BUS_OK);
    T_EQ_INT(sched_db_sessions_status(s_db, "s4"), SCHED_SESSION_ERROR);
    T_EQ_INT(s_cpu_held("a2"), 3500); //  an ERROR kernel still holds until it ends
    T_EQ_INT(s_move("k-s4", SCHED_KERNEL_TERMINATED, NULL, NULL), BUS_OK);
    T_EQ_INT(sched_db_sessions_status(s_db, "s4"), SCHED_SESSION_TERMINATED);
    T_EQ_INT(s_cpu_held("a2"), 3000);
    //  The ledger is exactly the rows of the kernels that still occupy.
    sqlite3_stmt *stmt = bus_db_stmt(
        s_db, "SELECT count(*) FROM allocations a JOIN kernels k ON k.id = a.kernel_id"
              " WHERE k.status IN ('PENDING', 'TERMINATED', 'CANCELLED')");
    T_ASSERT(stmt && sqlite3_step(stmt) == SQLITE_ROW);
    T_EQ_INT(sqlite3_column_int(stmt, 0), 0);
    sqlite3_reset(stmt);
}

static const char *
s_slot_value(const proto_kv_t *map, size_t count, const char *slot)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(map[i].key, slot) == 0)
            return map[i].value;
    return NULL;
}

static void
test_get_and_list(void)
{
    proto_session_info_t info;
    proto_session_info_init(&info);
    T_EQ_INT(sched_db_sessions_get(s_db, "s1", &info), BUS_OK);
    T_EQ_STR(info.name, "big");
    T_EQ_STR(info.status, "SCHEDULED");
    T_EQ_STR(info.kernel_id, "k-s1");
    T_EQ_STR(info.agent_id, "a2");
    T_EQ_STR(info.type, "INTERACTIVE");
    T_EQ_STR(s_slot_value(info.requested_slots, info.requested_slots_count, "cpu"), "3");
    T_EQ_STR(s_slot_value(info.occupied_slots, info.occupied_slots_count, "mem"),
             "1048576");
    T_EQ_INT(info.created_at, 1000);
    proto_session_info_clear(&info);
    proto_session_info_init(&info);
    T_EQ_INT(sched_db_sessions_get(s_db, "s2", &info), BUS_OK);
    T_EQ_STR(info.status_info, "oom-killed");
    T_EQ_INT(info.occupied_slots_count, 0); //  it gave its slots back
    T_ASSERT(info.terminated_at > 0);
    proto_session_info_clear(&info);
    proto_session_info_init(&info);
    T_EQ_INT(sched_db_sessions_get(s_db, "nope", &info), BUS_STATUS_NOT_FOUND);
    proto_session_info_clear(&info);
    //  Filters, total and paging: s1, s3 live; s2, s4 over; s5 pending.
    sched_session_filter_t filter = {
        .access_key = "AKTEST", .statuses = "PENDING,SCHEDULED,RUNNING", .limit = 2};
    proto_session_info_t *page = NULL;
    size_t count = 0, total = 0;
    T_EQ_INT(sched_db_list_sessions(s_db, &filter, &page, &count, &total, NULL), BUS_OK);
    T_EQ_INT(total, 3);
    T_EQ_INT(count, 2);
    for (size_t i = 0; i < count; i++)
        proto_session_info_clear(&page[i]);
    free(page);
    filter.offset = 2;
    T_EQ_INT(sched_db_list_sessions(s_db, &filter, &page, &count, &total, NULL), BUS_OK);
    T_EQ_INT(count, 1);
    for (size_t i = 0; i < count; i++)
        proto_session_info_clear(&page[i]);
    free(page);
    sched_session_filter_t over = {.statuses = "TERMINATED", .limit = 10};
    T_EQ_INT(sched_db_list_sessions(s_db, &over, &page, &count, &total, NULL), BUS_OK);
    T_EQ_INT(total, 2);
    T_EQ_INT(count, 2);
    for (size_t i = 0; i < count; i++) {
        T_EQ_STR(page[i].status, "TERMINATED");
        proto_session_info_clear(&page[i]);
    }
    free(page);
    sched_session_filter_t other = {.access_key = "AKOTHER", .limit = 10};
    T_EQ_INT(sched_db_list_sessions(s_db, &other, &page, &count, &total, NULL), BUS_OK);
    T_EQ_INT(total, 0);
    T_ASSERT(page == NULL);
    //  The sessions that mount a folder (the gateway asks before the trash).
    s_exec("UPDATE sessions SET mounts = '[{\"name\": \"data\", \"id\": \"f00d\"}]'"
           " WHERE id = 's3'");
    sched_session_filter_t mounting = {.mounted_folder = "f00d", .limit = 10};
    T_EQ_INT(sched_db_list_sessions(s_db, &mounting, &page, &count, &total, NULL),
             BUS_OK);
    T_EQ_INT(total, 1);
    T_EQ_STR(page[0].session_id, "s3");
    proto_session_info_clear(&page[0]);
    free(page);
    mounting.mounted_folder = "beef";
    T_EQ_INT(sched_db_list_sessions(s_db, &mounting, &page, &count, &total, NULL),
             BUS_OK);
    T_EQ_INT(total, 0);
}

static void
test_unsettled_kernels(void)
{
    //  Left by test_get_and_list: k-s1 SCHEDULED on a2 since 1500, k-s3
    //  SCHEDULED on a1 since 2500; the others PENDING or over.
    T_EQ_INT(sched_db_kernels_current(s_db, "k-s1"), SCHED_KERNEL_SCHEDULED);
    T_EQ_INT(sched_db_kernels_current(s_db, "k-s2"), SCHED_KERNEL_TERMINATED);
    T_EQ_INT(sched_db_kernels_current(s_db, "k-s5"), SCHED_KERNEL_PENDING);
    T_EQ_INT(sched_db_kernels_current(s_db, "k-nope"), -1);
    sched_unsettled_t rows[4];
    T_EQ_INT(sched_db_kernels_unsettled(s_db, "a2", 1500, rows, 4), 0); //  not before
    T_EQ_INT(sched_db_kernels_unsettled(s_db, "a2", 1501, rows, 4), 1);
    T_EQ_STR(rows[0].kernel_id, "k-s1");
    T_EQ_STR(rows[0].session_id, "s1");
    T_EQ_INT(rows[0].status, SCHED_KERNEL_SCHEDULED);
    T_EQ_INT(rows[0].since_us, 1500);
    T_EQ_STR(rows[0].status_info, "");
    T_EQ_INT(sched_db_kernels_unsettled(s_db, "a1", 3000, rows, 4), 1);
    T_EQ_STR(rows[0].kernel_id, "k-s3");
    T_EQ_INT(sched_db_kernels_unsettled(s_db, "a-none", 9000, rows, 4), 0);
    //  Running is settled; terminating is not, and keeps its reason.
    T_EQ_INT(s_move("k-s3", SCHED_KERNEL_PREPARING, NULL, NULL), BUS_OK);
    T_EQ_INT(sched_db_kernels_unsettled(s_db, "a1", 3000, rows, 4), 1);
    T_EQ_INT(rows[0].status, SCHED_KERNEL_PREPARING);
    T_EQ_INT(rows[0].since_us, 2000);
    T_EQ_INT(s_move("k-s3", SCHED_KERNEL_RUNNING, NULL, NULL), BUS_OK);
    T_EQ_INT(sched_db_kernels_unsettled(s_db, "a1", 3000, rows, 4), 0);
    //  A restart is transitional too: the session follows, the slots stay.
    T_EQ_INT(s_move("k-s3", SCHED_KERNEL_RESTARTING, "restarting", NULL), BUS_OK);
    T_EQ_INT(sched_db_sessions_status(s_db, "s3"), SCHED_SESSION_RESTARTING);
    T_EQ_INT(s_cpu_held("a1"), 2000);
    T_EQ_INT(sched_db_kernels_unsettled(s_db, "a1", 3000, rows, 4), 1);
    T_EQ_INT(rows[0].status, SCHED_KERNEL_RESTARTING);
    T_EQ_STR(rows[0].status_info, "restarting");
    T_EQ_INT(s_move("k-s3", SCHED_KERNEL_RUNNING, NULL, NULL), BUS_OK);
    T_EQ_INT(sched_db_sessions_status(s_db, "s3"), SCHED_SESSION_RUNNING);
    T_EQ_INT(sched_db_kernels_unsettled(s_db, "a1", 3000, rows, 4), 0);
    //  Only a running kernel restarts.
    T_EQ_INT(s_move("k-s5", SCHED_KERNEL_RESTARTING, "restarting", NULL),
             BUS_STATUS_INVALID);
    T_EQ_INT(s_move("k-s3", SCHED_KERNEL_TERMINATING, "user-requested", NULL), BUS_OK);
    T_EQ_INT(sched_db_kernels_unsettled(s_db, "a1", 3000, rows, 4), 1);
    T_EQ_INT(rows[0].status, SCHED_KERNEL_TERMINATING);
    T_EQ_STR(rows[0].status_info, "user-requested");
    //  Over: settled for good; max bounds the answer.
    T_EQ_INT(s_move("k-s3", SCHED_KERNEL_TERMINATED, NULL, NULL), BUS_OK);
    T_EQ_INT(sched_db_kernels_unsettled(s_db, "a1", 3000, rows, 4), 0);
    T_EQ_INT(sched_db_kernels_unsettled(s_db, "a2", 3000, rows, 0), 0);
    T_EQ_INT(sched_db_sessions_status(s_db, "s3"), SCHED_SESSION_TERMINATED);
}

//  Group commit (sched_commit's flush): many inserts under savepoints of
//  one transaction; one that fails midway (its kernel id is taken, after
//  its session row was written) is undone alone, the others commit.
static void
test_units_of_one_transaction(void)
{
    T_EQ_INT(bus_db_begin(s_db), 0);
    T_EQ_INT(bus_db_savepoint(s_db), 0);
    T_EQ_INT(s_insert("u1", "unit-1", 500), BUS_OK);
    T_EQ_INT(bus_db_release(s_db), 0);
    //  The same kernel id again under another session id: CONFLICT on the
    //  kernel row, after the session row went in; the unit is undone.
    T_EQ_INT(bus_db_savepoint(s_db), 0);
    char kernel[SCHED_ID_MAX] = "k-u1";
    sched_amount_t request[] = {{"cpu", 500}};
    sched_session_spec_t spec = {.session_id = "u2",
                                 .kernel_id = kernel,
                                 .name = "unit-2",
                                 .access_key = "AKTEST",
                                 .user_uuid = "u-1",
                                 .domain_name = "default",
                                 .group_id = "g-1",
                                 .scaling_group = "default",
                                 .image = "local.backplane/library/busybox:latest",
                                 .request = request,
                                 .request_count = 1};
    bus_error_t err = {0};
    T_EQ_INT(sched_db_sessions_insert(s_db, &spec, 1000, &err), BUS_STATUS_CONFLICT);
    //  Poisoned inside the unit only.
    T_EQ_INT(bus_db_begin(s_db), -1);
    T_EQ_INT(bus_db_release(s_db), -1);
    T_EQ_INT(bus_db_savepoint(s_db), 0);
    T_EQ_INT(s_insert("u3", "unit-3", 500), BUS_OK);
    T_EQ_INT(bus_db_release(s_db), 0);
    T_EQ_INT(bus_db_commit(s_db), 0);
    T_EQ_INT(sched_db_sessions_status(s_db, "u1"), SCHED_SESSION_PENDING);
    T_EQ_INT(sched_db_sessions_status(s_db, "u2"), -1);
    T_EQ_INT(sched_db_sessions_status(s_db, "u3"), SCHED_SESSION_PENDING);
    //  A unit needs a transaction; one that rolled back entirely is gone.
    T_EQ_INT(bus_db_savepoint(s_db), -1);
    T_EQ_INT(bus_db_begin(s_db), 0);
    T_EQ_INT(bus_db_savepoint(s_db), 0);
    T_EQ_INT(s_insert("u4", "unit-4", 500), BUS_OK);
    T_EQ_INT(bus_db_release(s_db), 0);
    T_EQ_INT(bus_db_rollback(s_db), 0);
    T_EQ_INT(sched_db_sessions_status(s_db, "u4"), -1);
    //  Placed PREPARING at once, for a caller that asks the agents itself.
    s_agent("a-units", "ALIVE", "units", 4000, 1 << 30);
    s_exec("UPDATE sessions SET scaling_group = 'units' WHERE id IN ('u1', 'u3')");
    sched_dispatch_t *dispatch = sched_dispatch_new(s_db, 100, 0);
    sched_dispatch_set_preparing(dispatch, true);
    size_t count = 0;
    sched_assignment_t *placed = sched_dispatch_run(dispatch, 2000, &count);
    T_ASSERT(count >= 2); //  and what earlier tests left pending elsewhere
    free(placed);
    sched_dispatch_destroy(&dispatch);
    T_EQ_INT(sched_db_sessions_status(s_db, "u1"), SCHED_SESSION_PREPARING);
    T_EQ_INT(sched_db_kernels_current(s_db, "k-u3"), SCHED_KERNEL_PREPARING);
    sched_move_t move;
    T_EQ_INT(sched_db_kernels_move(s_db, "k-u1", SCHED_KERNEL_RUNNING, NULL, NULL, 3000,
                                   &move, &err),
             BUS_OK);
    T_EQ_INT(move.kernel_from, SCHED_KERNEL_PREPARING);
    T_EQ_INT(move.session_from, SCHED_SESSION_PREPARING);
    T_EQ_INT(move.session_to, SCHED_SESSION_RUNNING);
    T_EQ_STR(move.name, "unit-1");
    T_EQ_STR(move.access_key, "AKTEST");
    T_EQ_STR(move.cluster_role, "main");
    T_EQ_INT(move.cluster_idx, 1);
    json_t *report = NULL;
    T_EQ_INT(sched_db_ledger_check(s_db, &report), 0);
    json_decref(report);
}

//  The answer session.create builds from its request is, byte for byte,
//  what reading the session back gives.
static void
s_check_info_of(const sched_session_spec_t *spec)
{
    bus_error_t err = {0};
    T_EQ_INT(sched_db_sessions_insert(s_db, spec, 4242, &err), BUS_OK);
    proto_session_info_t built, read;
    proto_session_info_init(&built);
    proto_session_info_init(&read);
    T_EQ_INT(sched_db_sessions_info_of(spec, 4242, &built), BUS_OK);
    T_EQ_INT(sched_db_sessions_get(s_db, spec->session_id, &read), BUS_OK);
    zframe_t *a = proto_session_info_encode(&built);
    zframe_t *b = proto_session_info_encode(&read);
    T_ASSERT(a && b);
    T_ASSERT(a && b && zframe_eq(a, b));
    zframe_destroy(&a);
    zframe_destroy(&b);
    proto_session_info_clear(&built);
    proto_session_info_clear(&read);
}

static void
test_info_of_a_new_session(void)
{
    sched_amount_t request[] = {{"mem", 3 << 20}, {"cpu", 1500}, {"cuda.shares", 250}};
    sched_session_spec_t spec = {.session_id = "info-1",
                                 .kernel_id = "k-info-1",
                                 .name = "info-defaults",
                                 .access_key = "AKINFO",
                                 .user_uuid = "u-9",
                                 .domain_name = "default",
                                 .group_id = "g-9",
                                 .scaling_group = "default",
                                 .image = "local.backplane/library/busybox:latest",
                                 .request = request,
                                 .request_count = 3};
    s_check_info_of(&spec);
    spec.session_id = "info-2";
    spec.kernel_id = "k-info-2";
    spec.name = "info-all";
    spec.type = "BATCH";
    spec.architecture = "aarch64";
    spec.environ = "{\"A\":\"1\"}";
    spec.resource_opts = "{\"shmem\": 64}";
    spec.startup_command = "echo hi";
    spec.preopen_ports = "[8080]";
    spec.bootstrap_script = "true";
    spec.priority = 50;
    spec.cluster_mode = "multi-node";
    spec.cluster_size = 3;
    spec.starts_at_us = 99;
    spec.batch_timeout_s = 60;
    spec.mounts = "[]";
    s_check_info_of(&spec);
    spec.session_id = "info-3";
    spec.kernel_id = "k-info-3";
    spec.name = "info-nothing";
    spec.request_count = 0;
    spec.cluster_size = 0;
    spec.cluster_mode = NULL;
    s_check_info_of(&spec);
}

//  A model service's replica: type INFERENCE (the CHECK widened in place by
//  migration 13 takes it, and still refuses anything else), its
//  model_service kept for kernel.create.
static void
test_inference_sessions(void)
{
    sched_amount_t request[] = {{"cpu", 1000}, {"mem", 1 << 20}};
    sched_session_spec_t spec = {.session_id = "inf-1",
                                 .kernel_id = "k-inf-1",
                                 .name = "svc-route-1",
                                 .access_key = "AKINF",
                                 .user_uuid = "u-inf",
                                 .domain_name = "default",
                                 .group_id = "g-inf",
                                 .scaling_group = "default",
                                 .image = "local.backplane/library/busybox:latest",
                                 .type = "INFERENCE",
                                 .model_service = "{\"name\":\"m\",\"port\":8000}",
                                 .request = request,
                                 .request_count = 2};
    bus_error_t err = {0};
    T_EQ_INT(sched_db_sessions_insert(s_db, &spec, 1000, &err), BUS_OK);
    sched_db_create_t create;
    T_ASSERT(sched_db_sessions_create_request(s_db, "inf-1", "nowhere", &create));
    T_EQ_STR(create.type, "INFERENCE");
    T_EQ_STR(create.model_service, "{\"name\":\"m\",\"port\":8000}");
    sched_db_create_clear(&create);
    //  The schema refuses what the check above it would: the CHECK is there.
    T_ASSERT(bus_db_exec(s_db, "UPDATE sessions SET type = 'OTHER' WHERE id = 'inf-1'") !=
             0);
    spec.session_id = "inf-2";
    spec.kernel_id = "k-inf-2";
    spec.name = "svc-route-2";
    spec.type = "SOMETHING";
    T_EQ_INT(sched_db_sessions_insert(s_db, &spec, 1000, &err), BUS_STATUS_INVALID);
}

//  A database of the schema before the history had a table of its own: the
//  migration carries each session's history over, and moves append to it.
static void
test_history_carried_over(void)
{
    char path[] = "/tmp/sched-history-XXXXXX";
    int fd = mkstemp(path);
    T_ASSERT(fd >= 0);
    close(fd);
    bus_error_t err = {0};
    bus_db_t *db =
        bus_db_open(path, sched_db_migrations, SCHED_DB_MIGRATION_COUNT - 1, &err);
    T_ASSERT(db);
    sched_amount_t request[] = {{"cpu", 1000}};
    sched_session_spec_t spec = {.session_id = "old-1",
                                 .kernel_id = "k-old-1",
                                 .name = "old",
                                 .access_key = "AKOLD",
                                 .user_uuid = "u-old",
                                 .domain_name = "default",
                                 .group_id = "g-old",
                                 .scaling_group = "default",
                                 .image = "local.backplane/library/busybox:latest",
                                 .request = request,
                                 .request_count = 1};
    T_EQ_INT(sched_db_sessions_insert(db, &spec, 1000, &err), BUS_OK);
    T_EQ_INT(bus_db_exec(db,
                         "UPDATE sessions SET status = 'CANCELLED', status_changed = 2000"
                         " WHERE id = 'old-1'"),
             0);
    bus_db_destroy(&db);
    db = bus_db_open(path, sched_db_migrations, SCHED_DB_MIGRATION_COUNT, &err);
    T_ASSERT(db);
    T_EQ_INT(
        bus_db_exec(db, "UPDATE sessions SET status = 'TERMINATED', status_changed = 3000"
                        " WHERE id = 'old-1'"),
        0);
    proto_session_info_t info;
    proto_session_info_init(&info);
    T_EQ_INT(sched_db_sessions_get(db, "old-1", &info), BUS_OK);
    json_t *history = json_loads(info.status_history ? info.status_history : "", 0, NULL);
    T_EQ_INT((int) json_array_size(history), 3);
    const char *expected[] = {"PENDING", "CANCELLED", "TERMINATED"};
    for (size_t i = 0; i < 3; i++)
        T_EQ_STR(json_string_value(json_object_get(json_array_get(history, i), "status")),
                 expected[i]);
    json_decref(history);
    proto_session_info_clear(&info);
    bus_db_destroy(&db);
    char wal[64];
    unlink(path);
    snprintf(wal, sizeof wal, "%s-wal", path);
    unlink(wal);
    snprintf(wal, sizeof wal, "%s-shm", path);
    unlink(wal);
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
    s_dispatch = sched_dispatch_new(s_db, 100, 0);
    T_RUN(test_insert_and_names);
    T_RUN(test_placement_with_backfill);
    T_RUN(test_kernel_transitions_drive_the_session);
    T_RUN(test_a_failed_start_ends_in_error);
    T_RUN(test_get_and_list);
    T_RUN(test_unsettled_kernels);
    T_RUN(test_units_of_one_transaction);
    T_RUN(test_info_of_a_new_session);
    T_RUN(test_inference_sessions);
    T_RUN(test_history_carried_over);
    sched_dispatch_destroy(&s_dispatch);
    bus_db_destroy(&s_db);
    return T_DONE();
}
