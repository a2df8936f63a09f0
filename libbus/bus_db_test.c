/*  =========================================================================
    bus_db_test - migrations, pragmas, the statement cache, nested
    transactions and the busy timeout, on files in a temporary directory
    that is removed at the end (WAL and shared-memory files included)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
//  opendir/readdir, to empty the temporary directory whatever a test left
#include <dirent.h>
#include "t.h"

static char s_dir[] = "/tmp/bus_db_test.XXXXXX";

static const bus_db_migration_t s_migrations[] = {
    {"create parent",
     "CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT NOT NULL);"},
    {"create child", "CREATE TABLE child (id INTEGER PRIMARY KEY,"
                     " parent_id INTEGER NOT NULL REFERENCES parent (id));"},
    {"add note", "ALTER TABLE parent ADD COLUMN note TEXT;"
                 " CREATE INDEX child_parent ON child (parent_id);"},
    {"broken", "CREATE TABLE half (x); INSERT INTO missing VALUES (1);"},
};

//  Log lines captured while a test expects some
static char *s_log_text;
static size_t s_log_size;
static FILE *s_log_stream;

static void
s_capture_start(void)
{
    free(s_log_text);
    s_log_text = NULL;
    s_log_stream = open_memstream(&s_log_text, &s_log_size);
    assert(s_log_stream);
    bus_log_set_stream(s_log_stream);
}

//  The text captured since s_capture_start; valid until the next start.
static const char *
s_capture_end(void)
{
    bus_log_set_stream(NULL);
    if (s_log_stream)
        fclose(s_log_stream);
    s_log_stream = NULL;
    return s_log_text ? s_log_text : "";
}

static const char *
s_path(const char *name)
{
    static char path[sizeof s_dir + 256];
    snprintf(path, sizeof path, "%s/%s", s_dir, name);
    return path;
}

//  First column of the first row of sql as an int, -1 on any error.
static int
s_query_int(sqlite3 *handle, const char *sql)
{
    sqlite3_stmt *stmt = NULL;
    int value = -1;
    if (sqlite3_prepare_v2(handle, sql, -1, &stmt, NULL) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
        value = sqlite3_column_int(stmt, 0);
    sqlite3_finalize(stmt);
    return value;
}

static int
s_table_exists(bus_db_t *db, const char *table)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, table, -1, SQLITE_STATIC);
    int count = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int(stmt, 0) : -1;
    sqlite3_reset(stmt);
    return count;
}

static void
test_migrations_in_order(void)
{
    bus_error_t err = {0};
    s_capture_start();
    bus_db_t *db = bus_db_open(s_path("order.db"), s_migrations, 2, &err);
    const char *log = s_capture_end();
    T_ASSERT(db);
    T_EQ_INT(bus_db_version(db), 2);
    T_EQ_INT(s_table_exists(db, "parent"), 1);
    T_EQ_INT(s_table_exists(db, "child"), 1);
    const char *first =
        strstr(log, "migration applied\" version=1 name=\"create parent\"");
    const char *second =
        strstr(log, "migration applied\" version=2 name=\"create child\"");
    T_ASSERT(first && second && first < second);
    bus_db_destroy(&db);

    //  A newer build applies only what is missing
    s_capture_start();
    db = bus_db_open(s_path("order.db"), s_migrations, 3, &err);
    log = s_capture_end();
    T_ASSERT(db);
    T_EQ_INT(bus_db_version(db), 3);
    T_ASSERT(!strstr(log, "version=1"));
    T_ASSERT(!strstr(log, "version=2"));
    T_CONTAINS(log, "migration applied\" version=3 name=\"add note\"");
    T_EQ_INT(s_query_int(bus_db_handle(db),
                         "SELECT count(*) FROM pragma_table_info('parent')"
                         " WHERE name = 'note'"),
             1);
    bus_db_destroy(&db);

    //  Up to date: nothing applied
    s_capture_start();
    db = bus_db_open(s_path("order.db"), s_migrations, 3, &err);
    log = s_capture_end();
    T_ASSERT(db);
    T_ASSERT(!strstr(log, "migration applied"));
    bus_db_destroy(&db);
}

static void
test_failing_migration(void)
{
    bus_error_t err = {0};
    bus_db_t *db = bus_db_open(s_path("fail.db"), s_migrations, 2, &err);
    T_ASSERT(db);
    T_EQ_INT(bus_db_exec(db, "INSERT INTO parent (id, name) VALUES (1, 'kept')"), 0);
    bus_db_destroy(&db);

    //  Step 3 applies, step 4 fails halfway: its table must not survive
    s_capture_start();
    db = bus_db_open(s_path("fail.db"), s_migrations, 4, &err);
    const char *log = s_capture_end();
    T_ASSERT(db == NULL);
    T_EQ_INT(err.status, BUS_STATUS_INTERNAL);
    T_CONTAINS(err.detail, "migration 4");
    T_CONTAINS(err.detail, "broken");
    T_CONTAINS(err.detail, "no such table: missing");
    T_CONTAINS(log, "version=3");

    db = bus_db_open(s_path("fail.db"), s_migrations, 3, &err);
    T_ASSERT(db);
    T_EQ_INT(bus_db_version(db), 3);
    T_EQ_INT(s_table_exists(db, "half"), 0);
    T_EQ_INT(
        s_query_int(bus_db_handle(db), "SELECT count(*) FROM parent WHERE name = 'kept'"),
        1);
    bus_db_destroy(&db);
}

static void
test_downgrade_refused(void)
{
    bus_error_t err = {0};
    bus_db_t *db = bus_db_open(s_path("down.db"), s_migrations, 3, &err);
    T_ASSERT(db);
    bus_db_destroy(&db);

    s_capture_start();
    db = bus_db_open(s_path("down.db"), s_migrations, 2, &err);
    s_capture_end();
    T_ASSERT(db == NULL);
    T_EQ_INT(err.status, BUS_STATUS_CONFLICT);
    T_CONTAINS(err.detail,
               "database schema version 3 is newer than this build knows (2)");

    //  The file is untouched
    db = bus_db_open(s_path("down.db"), s_migrations, 3, &err);
    T_ASSERT(db);
    T_EQ_INT(bus_db_version(db), 3);
    bus_db_destroy(&db);
}

static void
test_unopenable_path(void)
{
    bus_error_t err = {0};
    char path[300];
    snprintf(path, sizeof path, "%s/no/such/dir/x.db", s_dir);
    s_capture_start();
    bus_db_t *db = bus_db_open(path, s_migrations, 1, &err);
    const char *log = s_capture_end();
    T_ASSERT(db == NULL);
    T_EQ_INT(err.status, BUS_STATUS_UNAVAILABLE);
    T_CONTAINS(err.detail, path);
    T_CONTAINS(log, "sqlite open failed");

    //  A file that is not a database
    FILE *junk = fopen(s_path("junk.db"), "w");
    T_ASSERT(junk);
    for (int i = 0; i < 256; i++)
        fputs("this is not an sqlite database\n", junk);
    fclose(junk);
    s_capture_start();
    db = bus_db_open(s_path("junk.db"), s_migrations, 1, &err);
    s_capture_end();
    T_ASSERT(db == NULL);
    T_EQ_INT(err.status, BUS_STATUS_UNAVAILABLE);
    T_CONTAINS(err.detail, "junk.db");
}

static void
test_pragmas(void)
{
    bus_error_t err = {0};
    bus_db_t *db = bus_db_open(s_path("wal.db"), s_migrations, 2, &err);
    T_ASSERT(db);
    sqlite3_stmt *stmt = bus_db_stmt(db, "PRAGMA journal_mode");
    T_ASSERT(stmt && sqlite3_step(stmt) == SQLITE_ROW);
    T_EQ_STR((const char *) sqlite3_column_text(stmt, 0), "wal");
    sqlite3_reset(stmt);
    T_EQ_INT(s_query_int(bus_db_handle(db), "PRAGMA synchronous"), 1); //  NORMAL
    T_EQ_INT(s_query_int(bus_db_handle(db), "PRAGMA foreign_keys"), 1);
    T_EQ_INT(s_query_int(bus_db_handle(db), "PRAGMA busy_timeout"),
             BUS_DB_BUSY_TIMEOUT_MS);
    T_ASSERT(access(s_path("wal.db-wal"), F_OK) == 0);
    bus_db_destroy(&db);

    //  In memory there is no WAL, and that is fine
    db = bus_db_open(":memory:", s_migrations, 2, &err);
    T_ASSERT(db);
    T_EQ_INT(bus_db_version(db), 2);
    T_EQ_INT(s_query_int(bus_db_handle(db), "PRAGMA foreign_keys"), 1);
    bus_db_destroy(&db);
}

static void
test_foreign_keys(void)
{
    bus_error_t err = {0};
    bus_db_t *db = bus_db_open(":memory:", s_migrations, 2, &err);
    T_ASSERT(db);
    sqlite3_stmt *stmt = bus_db_stmt(db, "INSERT INTO child (parent_id) VALUES (?1)");
    T_ASSERT(stmt);
    sqlite3_bind_int(stmt, 1, 99);
    T_EQ_INT(sqlite3_step(stmt) & 0xff, SQLITE_CONSTRAINT);
    T_EQ_INT(bus_db_exec(db, "INSERT INTO parent (id, name) VALUES (99, 'p')"), 0);
    stmt = bus_db_stmt(db, "INSERT INTO child (parent_id) VALUES (?1)");
    sqlite3_bind_int(stmt, 1, 99);
    T_EQ_INT(sqlite3_step(stmt), SQLITE_DONE);
    T_EQ_INT(s_query_int(bus_db_handle(db), "SELECT count(*) FROM child"), 1);
    bus_db_destroy(&db);
}

//  A write stepped to its end: done, refused by a constraint, or not
//  prepared at all; the statement is reset for its next use either way.
static void
test_step_done(void)
{
    bus_error_t err = {0};
    bus_db_t *db = bus_db_open(":memory:", s_migrations, 2, &err);
    T_ASSERT(db);
    const char *sql = "INSERT INTO parent (id, name) VALUES (?1, 'p')";
    sqlite3_stmt *stmt = bus_db_stmt(db, sql);
    sqlite3_bind_int(stmt, 1, 7);
    T_EQ_INT(bus_db_step_done(db, stmt, "first"), BUS_OK);
    T_EQ_INT(bus_db_step_done(db, stmt, "again"), BUS_STATUS_CONFLICT); //  same id
    sqlite3_bind_int(stmt, 1, 8);
    T_EQ_INT(bus_db_step_done(db, stmt, "next"), BUS_OK);
    T_EQ_INT(s_query_int(bus_db_handle(db), "SELECT count(*) FROM parent"), 2);
    T_EQ_INT(bus_db_step_done(db, NULL, "unprepared"), BUS_STATUS_INTERNAL);
    bus_db_destroy(&db);
}

static void
test_statement_cache(void)
{
    bus_error_t err = {0};
    bus_db_t *db = bus_db_open(":memory:", s_migrations, 1, &err);
    T_ASSERT(db);
    T_EQ_INT(bus_db_exec(db, "INSERT INTO parent (id, name) VALUES (1, 'a'), (2, 'b')"),
             0);

    const char *sql = "SELECT id, ?1 FROM parent ORDER BY id";
    sqlite3_stmt *first = bus_db_stmt(db, sql);
    T_ASSERT(first);
    sqlite3_bind_text(first, 1, "bound", -1, SQLITE_STATIC);
    T_EQ_INT(sqlite3_step(first), SQLITE_ROW);
    T_EQ_INT(sqlite3_column_int(first, 0), 1);
    T_EQ_STR((const char *) sqlite3_column_text(first, 1), "bound");
    T_EQ_INT(sqlite3_step(first), SQLITE_ROW); //  left on row 2, not reset

    //  Same text (a different buffer): same statement, back at row 1, unbound
    char copy[64];
    snprintf(copy, sizeof copy, "%s", sql);
    sqlite3_stmt *again = bus_db_stmt(db, copy);
    T_ASSERT(again == first);
    T_EQ_INT(sqlite3_step(again), SQLITE_ROW);
    T_EQ_INT(sqlite3_column_int(again, 0), 1);
    T_EQ_INT(sqlite3_column_type(again, 1), SQLITE_NULL);
    sqlite3_reset(again);

    sqlite3_stmt *other = bus_db_stmt(db, "SELECT name FROM parent WHERE id = ?1");
    T_ASSERT(other && other != first);
    bus_db_destroy(&db);
}

static void
test_bad_sql(void)
{
    bus_error_t err = {0};
    bus_db_t *db = bus_db_open(":memory:", NULL, 0, &err);
    T_ASSERT(db);
    s_capture_start();
    sqlite3_stmt *stmt = bus_db_stmt(db, "SELEKT 1");
    sqlite3_stmt *again = bus_db_stmt(db, "SELEKT 1");
    sqlite3_stmt *two = bus_db_stmt(db, "SELECT 1; SELECT 2");
    sqlite3_stmt *none = bus_db_stmt(db, "  -- nothing");
    int exec_rc = bus_db_exec(db, "CREATE TABLE \"quoted\" (x); DROP TABLE nope");
    const char *log = s_capture_end();
    T_ASSERT(stmt == NULL && again == NULL && two == NULL && none == NULL);
    T_CONTAINS(log, "level=error");
    T_CONTAINS(log, "sql=\"SELEKT 1\"");
    T_CONTAINS(log, "syntax error");
    T_CONTAINS(log, "more than one statement");
    T_EQ_INT(exec_rc, -1);
    T_CONTAINS(log, "no such table: nope");
    T_CONTAINS(log, "CREATE TABLE \\\"quoted\\\"");
    T_ASSERT(bus_db_ok(db));
    bus_db_destroy(&db);
}

static void
test_nested_transactions(void)
{
    bus_error_t err = {0};
    bus_db_t *db = bus_db_open(s_path("nest.db"), s_migrations, 1, &err);
    T_ASSERT(db);
    sqlite3 *reader = NULL;
    T_EQ_INT(sqlite3_open_v2(s_path("nest.db"), &reader, SQLITE_OPEN_READONLY, NULL),
             SQLITE_OK);
    const char *count = "SELECT count(*) FROM parent";

    T_ASSERT(!bus_db_in_transaction(db));
    T_EQ_INT(bus_db_begin(db), 0);
    T_EQ_INT(bus_db_begin(db), 0);
    T_EQ_INT(bus_db_exec(db, "INSERT INTO parent (name) VALUES ('x')"), 0);
    T_EQ_INT(bus_db_commit(db), 0);
    T_ASSERT(bus_db_in_transaction(db));
    T_EQ_INT(s_query_int(reader, count), 0); //  the inner commit wrote nothing
    T_EQ_INT(bus_db_commit(db), 0);
    T_ASSERT(!bus_db_in_transaction(db));
    T_EQ_INT(s_query_int(reader, count), 1);

    //  Unbalanced calls are refused, not fatal
    s_capture_start();
    int commit_rc = bus_db_commit(db);
    int rollback_rc = bus_db_rollback(db);
    s_capture_end();
    T_EQ_INT(commit_rc, -1);
    T_EQ_INT(rollback_rc, -1);

    sqlite3_close(reader);
    bus_db_destroy(&db);
}

static void
test_inner_rollback(void)
{
    bus_error_t err = {0};
    bus_db_t *db = bus_db_open(s_path("rollback.db"), s_migrations, 1, &err);
    T_ASSERT(db);
    const char *count = "SELECT count(*) FROM parent";

    T_EQ_INT(bus_db_begin(db), 0);
    T_EQ_INT(bus_db_exec(db, "INSERT INTO parent (name) VALUES ('outer')"), 0);
    T_EQ_INT(bus_db_begin(db), 0);
    T_EQ_INT(bus_db_begin(db), 0);
    T_EQ_INT(bus_db_exec(db, "INSERT INTO parent (name) VALUES ('inner')"), 0);
    T_EQ_INT(bus_db_rollback(db), 0);
    T_ASSERT(bus_db_in_transaction(db));
    T_EQ_INT(bus_db_begin(db), -1); //  would run outside any transaction
    T_EQ_INT(bus_db_commit(db), -1);
    T_ASSERT(bus_db_in_transaction(db));
    T_EQ_INT(bus_db_commit(db), -1);
    T_ASSERT(!bus_db_in_transaction(db));
    T_EQ_INT(s_query_int(bus_db_handle(db), count), 0);

    //  Rollback, then the outer level rolls back too
    T_EQ_INT(bus_db_begin(db), 0);
    T_EQ_INT(bus_db_begin(db), 0);
    T_EQ_INT(bus_db_rollback(db), 0);
    T_EQ_INT(bus_db_rollback(db), 0);
    T_ASSERT(!bus_db_in_transaction(db));

    //  The failure does not outlive its transaction
    T_EQ_INT(bus_db_begin(db), 0);
    T_EQ_INT(bus_db_exec(db, "INSERT INTO parent (name) VALUES ('later')"), 0);
    T_EQ_INT(bus_db_commit(db), 0);
    T_EQ_INT(s_query_int(bus_db_handle(db), count), 1);
    bus_db_destroy(&db);
}

static void
test_busy_timeout(void)
{
    bus_error_t err = {0};
    bus_db_t *db = bus_db_open(s_path("busy.db"), s_migrations, 1, &err);
    T_ASSERT(db);
    sqlite3 *other = NULL;
    T_EQ_INT(sqlite3_open(s_path("busy.db"), &other), SQLITE_OK);
    T_EQ_INT(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);

    sqlite3_busy_timeout(bus_db_handle(db), 100);
    s_capture_start();
    int64_t start = bus_clock_mono_ms();
    int rc = bus_db_begin(db);
    int64_t elapsed = bus_clock_mono_ms() - start;
    const char *log = s_capture_end();
    sqlite3_busy_timeout(bus_db_handle(db), BUS_DB_BUSY_TIMEOUT_MS);
    T_EQ_INT(rc, -1);
    T_ASSERT(!bus_db_in_transaction(db));
    T_ASSERT(elapsed >= 80 && elapsed < 2000);
    T_CONTAINS(log, "locked");

    T_EQ_INT(sqlite3_exec(other, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    T_EQ_INT(bus_db_begin(db), 0);
    T_EQ_INT(bus_db_commit(db), 0);
    sqlite3_close(other);
    bus_db_destroy(&db);
}

static void
test_ok_and_destroy(void)
{
    bus_error_t err = {0};
    bus_db_t *db = bus_db_open(":memory:", NULL, 0, &err);
    T_ASSERT(db);
    T_EQ_INT(bus_db_version(db), 0);
    T_ASSERT(bus_db_ok(db));
    T_ASSERT(bus_db_ok(db));
    T_EQ_INT(bus_db_begin(db), 0); //  destroy inside a transaction rolls it back
    s_capture_start();
    bus_db_destroy(&db);
    s_capture_end();
    T_ASSERT(db == NULL);
    bus_db_destroy(&db);
    T_ASSERT(db == NULL);
}

static void
s_remove_dir(void)
{
    DIR *dir = opendir(s_dir);
    if (!dir)
        return;
    struct dirent *entry;
    while ((entry = readdir(dir)))
        if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0)
            unlink(s_path(entry->d_name));
    closedir(dir);
    rmdir(s_dir);
}

int
main(void)
{
    if (!mkdtemp(s_dir)) {
        perror("mkdtemp");
        return 1;
    }
    T_RUN(test_migrations_in_order);
    T_RUN(test_failing_migration);
    T_RUN(test_downgrade_refused);
    T_RUN(test_unopenable_path);
    T_RUN(test_pragmas);
    T_RUN(test_foreign_keys);
    T_RUN(test_statement_cache);
    T_RUN(test_step_done);
    T_RUN(test_bad_sql);
    T_RUN(test_nested_transactions);
    T_RUN(test_inner_rollback);
    T_RUN(test_busy_timeout);
    T_RUN(test_ok_and_destroy);
    s_capture_end();
    free(s_log_text);
    s_remove_dir();
    return T_DONE();
}
