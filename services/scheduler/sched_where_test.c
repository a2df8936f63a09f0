/*  =========================================================================
    sched_where_test - session.list's condition and order against SQLite

    Sessions written straight into a real database with the scheduler's
    migrations; each case lists them through sched_db_list_sessions with a
    JSON term and an order and compares the ids, in order, and the total.
    Malformed terms and orders are refused as INVALID, none of them reaching
    SQLite; the query plans of the GraphQL list's page use the indexes.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"
#include "t.h"

static bus_db_t *s_db;

//  id, name, access key, group, status, status_info (NULL: none), created.
static const struct {
    const char *id, *name, *access_key, *group_id, *status, *status_info;
    int64_t created_at;
} s_rows[] = {
    {"a1", "alpha", "AK1", "g1", "RUNNING", NULL, 100},
    {"b2", "Beta", "AK1", "g2", "PENDING", "queued", 200},
    {"c3", "gamma_1", "AK2", "g1", "TERMINATED", "user-requested", 300},
    {"d4", "delta*", "AK2", "g2", "RUNNING", "", 300},
    {"e5", "épsilon", "AK3", "g1", "CANCELLED", "user-requested", 500},
};

static void
s_fill(void)
{
    for (size_t i = 0; i < sizeof s_rows / sizeof s_rows[0]; i++) {
        sqlite3_stmt *stmt = bus_db_stmt(
            s_db, "INSERT INTO sessions (id, name, access_key, user_uuid, domain_name,"
                  " group_id, scaling_group, status, status_info, status_changed, image,"
                  " created_at) VALUES (?1, ?2, ?3, 'u', 'default', ?4, 'default', ?5,"
                  " ?6, ?7, 'img', ?7)");
        T_ASSERT(stmt);
        sqlite3_bind_text(stmt, 1, s_rows[i].id, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 2, s_rows[i].name, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 3, s_rows[i].access_key, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 4, s_rows[i].group_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 5, s_rows[i].status, -1, SQLITE_STATIC);
        if (s_rows[i].status_info)
            sqlite3_bind_text(stmt, 6, s_rows[i].status_info, -1, SQLITE_STATIC);
        sqlite3_bind_int64(stmt, 7, s_rows[i].created_at);
        T_EQ_INT(sqlite3_step(stmt), SQLITE_DONE);
        sqlite3_reset(stmt);
    }
}

//  The ids of a list as "a1 b2", and its total; the status.
static int
s_list(const sched_session_filter_t *filter, char *ids, size_t size, size_t *total)
{
    proto_session_info_t *page = NULL;
    size_t count = 0;
    bus_error_t err = {0};
    int rc = sched_db_list_sessions(s_db, filter, &page, &count, total, &err);
    size_t used = 0;
    ids[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        used += (size_t) snprintf(ids + used, size - used, "%s%s", i ? " " : "",
                                  page[i].session_id);
        proto_session_info_clear(&page[i]);
    }
    free(page);
    if (rc != BUS_OK && rc != BUS_STATUS_INVALID)
        fprintf(stderr, "# %s\n", err.detail);
    return rc;
}

static const struct {
    const char *where;
    const char *order;
    const char *ids; //  the whole list, in order
} s_cases[] = {
    {NULL, NULL, "e5 c3 d4 b2 a1"}, //  newest first, ties by id
    {"[\"=\", \"access_key\", \"AK1\"]", NULL, "b2 a1"},
    {"[\"<>\", \"access_key\", \"AK1\"]", NULL, "e5 c3 d4"},
    {"[\">=\", \"name\", \"delta*\"]", NULL, "e5 c3 d4"},   //  bytewise: d < é
    {"[\"<\", \"name\", \"alpha\"]", NULL, "b2"},           //  B < a
    {"[\"like\", \"name\", \"%A%\"]", NULL, "c3 d4 b2 a1"}, //  ASCII folded
    {"[\"like\", \"name\", \"gamma\\\\_%\"]", NULL, "c3"},  //  \_ is a _
    {"[\"like\", \"name\", \"_psilon\"]", NULL, "e5"},      //  _ is é
    {"[\"glob\", \"name\", \"*a*\"]", NULL, "c3 d4 b2 a1"}, //  case-sensitive
    {"[\"glob\", \"name\", \"B*\"]", NULL, "b2"},
    {"[\"glob\", \"name\", \"*[*]\"]", NULL, "d4"},
    {"[\"in\", \"status\", [\"RUNNING\", \"PENDING\"]]", NULL, "d4 b2 a1"},
    {"[\"not\", [\"in\", \"status\", [\"RUNNING\", null]]]", NULL, ""}, //  unknown
    {"[\"isnull\", \"status_info\"]", NULL, "a1"},
    {"[\"notnull\", \"status_info\"]", NULL, "e5 c3 d4 b2"},
    {"[\"=\", \"status_info\", \"queued\"]", NULL, "b2"},
    {"[\"not\", [\"=\", \"status_info\", \"queued\"]]", NULL, "e5 c3 d4"}, //  not a1
    {"[\"or\", [\"=\", \"group_id\", \"g2\"], [\"and\", [\"=\", \"access_key\", "
     "\"AK3\"], [\"true\"]]]",
     NULL, "e5 d4 b2"},
    {"[\"and\", [\"unknown\"], [\"false\"]]", NULL, ""},
    {"[\"or\", [\"unknown\"], [\"true\"]]", NULL, "e5 c3 d4 b2 a1"},
    {NULL, "name", "b2 a1 d4 c3 e5"},
    {NULL, "-name", "e5 c3 d4 a1 b2"},
    {NULL, "status_info", "d4 b2 e5 c3 a1"}, //  "" < queued < user-requested, null last
    {NULL, "-status_info", "a1 e5 c3 b2 d4"},
    {NULL, "group_id,-access_key", "e5 c3 a1 d4 b2"},
    {NULL, "created_at", "a1 b2 c3 d4 e5"},
    {NULL, "-terminated_at", "e5 c3 d4 b2 a1"}, //  all null: the default order
};

static void
test_terms_and_orders(void)
{
    for (size_t i = 0; i < sizeof s_cases / sizeof s_cases[0]; i++) {
        sched_session_filter_t filter = {
            .where = s_cases[i].where, .order = s_cases[i].order, .limit = 100};
        char ids[256];
        size_t total = 0;
        T_EQ_INT(s_list(&filter, ids, sizeof ids, &total), BUS_OK);
        if (strcmp(ids, s_cases[i].ids) != 0)
            fprintf(stderr, "# case %zu: where %s order %s\n", i,
                    s_cases[i].where ? s_cases[i].where : "-",
                    s_cases[i].order ? s_cases[i].order : "-");
        T_EQ_STR(ids, s_cases[i].ids);
        //  The total counts the whole list.
        size_t words = *ids ? 1 : 0;
        for (const char *p = ids; *p; p++)
            words += *p == ' ';
        T_EQ_INT(total, words);
    }
}

static void
test_pages_statuses_and_cursor(void)
{
    sched_session_filter_t filter = {
        .statuses = "RUNNING,,CANCELLED", .limit = 2, .order = "name"};
    char ids[256];
    size_t total = 0;
    T_EQ_INT(s_list(&filter, ids, sizeof ids, &total), BUS_OK);
    T_EQ_STR(ids, "a1 d4");
    T_EQ_INT(total, 3);
    filter.offset = 2;
    T_EQ_INT(s_list(&filter, ids, sizeof ids, &total), BUS_OK);
    T_EQ_STR(ids, "e5");
    filter.offset = 3;
    T_EQ_INT(s_list(&filter, ids, sizeof ids, &total), BUS_OK);
    T_EQ_STR(ids, "");
    T_EQ_INT(total, 3);
    filter.offset = SIZE_MAX; //  far past the end
    T_EQ_INT(s_list(&filter, ids, sizeof ids, &total), BUS_OK);
    T_EQ_STR(ids, "");
    //  Several statuses in the default order: merged one status at a time
    //  (a repeated one counted once), the same rows as one query.
    static const struct {
        const char *statuses;
        size_t limit, offset;
        const char *ids;
    } merged[] = {
        {"RUNNING,CANCELLED,RUNNING", 2, 0, "e5 d4"},
        {"RUNNING,CANCELLED,RUNNING", 2, 1, "d4 a1"},
        {"RUNNING,CANCELLED", 2, 2, "a1"},
        {"RUNNING,CANCELLED", 1, 3, ""},
        {"TERMINATED,RUNNING", 10, 0, "c3 d4 a1"}, //  c3 and d4 tie at 300: by id
        {"RUNNING,TERMINATED", 1, 1, "d4"},
        {"RUNNING,TERMINATED", 2, SCHED_DB_LIST_MERGE_ROWS, ""}, //  past the merge
    };
    for (size_t i = 0; i < sizeof merged / sizeof merged[0]; i++) {
        sched_session_filter_t several = {.statuses = merged[i].statuses,
                                          .limit = merged[i].limit,
                                          .offset = merged[i].offset};
        T_EQ_INT(s_list(&several, ids, sizeof ids, &total), BUS_OK);
        T_EQ_STR(ids, merged[i].ids);
        T_EQ_INT(total, 3);
    }
    sched_session_filter_t commas = {.statuses = ",,", .limit = 10};
    T_EQ_INT(s_list(&commas, ids, sizeof ids, &total), BUS_OK);
    T_EQ_INT(total, 0);
    //  The cursor: after c3 (300) comes d4 (300, a larger id), then b2.
    sched_session_filter_t after = {
        .after_created_at = 300, .after_id = "c3", .limit = 2};
    T_EQ_INT(s_list(&after, ids, sizeof ids, &total), BUS_OK);
    T_EQ_STR(ids, "d4 b2");
    T_EQ_INT(total, 3);
    after.order = "name";
    T_EQ_INT(s_list(&after, ids, sizeof ids, &total), BUS_STATUS_INVALID);
}

static void
test_malformed_refused(void)
{
    static const char *terms[] = {
        "",
        "not json",
        "{}",
        "[]",
        "[1]",
        "[\"and\"]",
        "[\"and\", 1]",
        "[\"not\"]",
        "[\"not\", [\"true\"], [\"true\"]]",
        "[\"true\", 1]",
        "[\"=\", \"name\"]",
        "[\"=\", \"name\", 1]",
        "[\"=\", \"name\", null]",
        "[\"=\", \"created_at\", \"1\"]", //  not a text field
        "[\"=\", \"nope\", \"x\"]",
        "[\"=\", 7, \"x\"]",
        "[\"~\", \"name\", \"x\"]",
        "[\"in\", \"name\", []]",
        "[\"in\", \"name\", [1]]",
        "[\"in\", \"name\", \"x\"]",
        "[\"isnull\", \"name\", \"x\"]",
        "[\"like\", \"name\", [\"x\"]]",
        "[\"=\", \"name\", \"x\", \"y\"]",
        "[\"=\", \"name\", \"x\"] trailing",
    };
    for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++) {
        sched_session_filter_t filter = {.where = terms[i], .limit = 10};
        char ids[256];
        size_t total = 0;
        int rc = s_list(&filter, ids, sizeof ids, &total);
        //  "" is no condition at all.
        T_EQ_INT(rc, i == 0 ? BUS_OK : BUS_STATUS_INVALID);
    }
    //  Nesting past the limit, and a pattern past its size.
    char deep[16 * (BUS_WHERE_DEPTH_MAX + 2)] = "";
    for (int i = 0; i <= BUS_WHERE_DEPTH_MAX; i++)
        strcat(deep, "[\"not\", ");
    strcat(deep, "[\"true\"]");
    for (int i = 0; i <= BUS_WHERE_DEPTH_MAX; i++)
        strcat(deep, "]");
    sched_session_filter_t filter = {.where = deep, .limit = 10};
    char ids[256];
    size_t total = 0;
    T_EQ_INT(s_list(&filter, ids, sizeof ids, &total), BUS_STATUS_INVALID);
    char *pattern = malloc(BUS_WHERE_PATTERN_MAX + 64);
    T_ASSERT(pattern);
    int n = snprintf(pattern, 64, "[\"like\", \"name\", \"");
    memset(pattern + n, '%', BUS_WHERE_PATTERN_MAX + 1);
    strcpy(pattern + n + BUS_WHERE_PATTERN_MAX + 1, "\"]");
    filter.where = pattern;
    T_EQ_INT(s_list(&filter, ids, sizeof ids, &total), BUS_STATUS_INVALID);
    free(pattern);
    //  Too many values.
    size_t size = 32 + 6 * (BUS_WHERE_PARAMS_MAX + 1);
    char *many = malloc(size);
    T_ASSERT(many);
    size_t used = (size_t) snprintf(many, size, "[\"in\", \"name\", [");
    for (int i = 0; i <= BUS_WHERE_PARAMS_MAX; i++)
        used += (size_t) snprintf(many + used, size - used, "%s\"x\"", i ? "," : "");
    snprintf(many + used, size - used, "]]");
    filter.where = many;
    T_EQ_INT(s_list(&filter, ids, sizeof ids, &total), BUS_STATUS_INVALID);
    free(many);
    static const char *orders[] = {",",
                                   "nope",
                                   "-",
                                   "name,",
                                   "--name",
                                   "name desc",
                                   "name,name,name,name,name,name,name,name,name,name,"
                                   "name,name,name,name,name,name,name"};
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++) {
        sched_session_filter_t ordered = {.order = orders[i], .limit = 10};
        T_EQ_INT(s_list(&ordered, ids, sizeof ids, &total), BUS_STATUS_INVALID);
    }
}

//  The plan of the statement for a GraphQL page by status reads an index
//  and sorts at most the ties of one created_at.
static void
test_page_plans_use_indexes(void)
{
    static const struct {
        const char *sql;
        const char *index;
    } plans[] = {
        {"SELECT count(*) FROM sessions s WHERE 1 AND s.status IN (?1, ?2)",
         "COVERING INDEX sessions_listed"},
        {"SELECT s.created_at, s.id FROM sessions s WHERE 1 AND s.status IN (?1)"
         " ORDER BY s.created_at DESC, s.id LIMIT 20",
         "COVERING INDEX sessions_listed"},
        {"SELECT s.created_at, s.id FROM sessions s WHERE 1 AND s.status IN (?1, ?2)"
         " ORDER BY s.created_at DESC, s.id LIMIT 20",
         "COVERING INDEX sessions_listed"},
        {"SELECT s.created_at, s.id FROM sessions s WHERE 1"
         " ORDER BY s.created_at DESC, s.id LIMIT 20",
         "COVERING INDEX sessions_created"},
    };
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++) {
        char sql[512];
        snprintf(sql, sizeof sql, "EXPLAIN QUERY PLAN %s", plans[i].sql);
        sqlite3_stmt *stmt = NULL;
        T_EQ_INT(sqlite3_prepare_v2(bus_db_handle(s_db), sql, -1, &stmt, NULL),
                 SQLITE_OK);
        char plan[1024] = "";
        size_t used = 0;
        while (sqlite3_step(stmt) == SQLITE_ROW && used < sizeof plan)
            used += (size_t) snprintf(plan + used, sizeof plan - used, "%s; ",
                                      (const char *) sqlite3_column_text(stmt, 3));
        sqlite3_finalize(stmt);
        T_CONTAINS(plan, plans[i].index);
    }
}

int
main(void)
{
    bus_error_t err = {0};
    s_db = bus_db_open(":memory:", sched_db_migrations, SCHED_DB_MIGRATION_COUNT, &err);
    if (!s_db) {
        fprintf(stderr, "# %s\n", err.detail);
        return 1;
    }
    s_fill();
    T_RUN(test_terms_and_orders);
    T_RUN(test_pages_statuses_and_cursor);
    T_RUN(test_malformed_refused);
    T_RUN(test_page_plans_use_indexes);
    bus_db_destroy(&s_db);
    return T_DONE();
}
