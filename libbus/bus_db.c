/*  =========================================================================
    bus_db - the SQLite helper every service uses for its own state

    Opens one connection per database file, owned by one thread (so the
    connection runs without SQLite's mutexes), in WAL mode with foreign keys
    and a busy timeout, then brings the schema up to date: migrations[i] runs
    in its own BEGIN IMMEDIATE transaction together with the bump of PRAGMA
    user_version to i + 1. Prepared statements live in a zhashx keyed by
    their SQL text and are finalized by its destructor. Transactions nest
    with a depth counter; a rollback at any depth poisons the enclosing
    levels until the outermost one ends. No SQL here is built from input: the
    only formatted statement is "PRAGMA user_version = %d".

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

//  How much of a statement or an error message goes into one log line
#define DB_LOG_TEXT_MAX 512

struct _bus_db_t {
    sqlite3 *handle;
    zhashx_t *stmts; //  SQL text -> sqlite3_stmt *, finalized by the destructor
    int depth;       //  bus_db_begin calls not yet matched by commit/rollback
    bool failed;     //  rolled back at an inner depth: outer commits must fail
    bool lost;       //  SQLite ended the transaction itself: everything fails
    int units[BUS_DB_SAVEPOINT_MAX]; //  depth of each open savepoint, innermost last
    int unit_count;
};

//  Copies text into buf as the inside of a logfmt quoted value: quotes and
//  backslashes escaped, newlines and tabs flattened, truncated to fit.
static const char *
s_quote(char *buf, size_t size, const char *text)
{
    size_t pos = 0;
    for (const char *p = text ? text : ""; *p && pos + 3 < size; p++) {
        char c = *p;
        if (c == '"' || c == '\\')
            buf[pos++] = '\\';
        buf[pos++] = (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    }
    buf[pos] = 0;
    return buf;
}

static void
s_stmt_destroy(void **item_p)
{
    sqlite3_finalize(*item_p);
    *item_p = NULL;
}

//  Runs sql; on failure logs it with SQLite's message and copies the message
//  into errbuf when given (the connection's message is gone after ROLLBACK).
static int
s_exec(bus_db_t *self, const char *sql, char *errbuf, size_t errsize)
{
    char *errmsg = NULL;
    int rc = sqlite3_exec(self->handle, sql, NULL, NULL, &errmsg);
    if (rc == SQLITE_OK)
        return 0;
    const char *msg = errmsg ? errmsg : sqlite3_errstr(rc);
    char qmsg[DB_LOG_TEXT_MAX], qsql[DB_LOG_TEXT_MAX];
    bus_log_error("sqlite exec failed rc=%d error=\"%s\" sql=\"%s\"", rc,
                  s_quote(qmsg, sizeof qmsg, msg), s_quote(qsql, sizeof qsql, sql));
    if (errbuf)
        snprintf(errbuf, errsize, "%s", msg);
    sqlite3_free(errmsg);
    return -1;
}

//  PRAGMA user_version, or -1 (logged) when it cannot be read. The value
//  comes from the file, so a negative one is reported, not trusted.
static int
s_read_version(bus_db_t *self, int *version)
{
    sqlite3_stmt *stmt = bus_db_stmt(self, "PRAGMA user_version");
    if (!stmt)
        return -1;
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW)
        *version = sqlite3_column_int(stmt, 0);
    sqlite3_reset(stmt);
    if (rc != SQLITE_ROW) {
        bus_log_error("sqlite read user_version failed error=\"%s\"",
                      sqlite3_errmsg(self->handle));
        return -1;
    }
    return 0;
}

//  Applies migrations[step] and records step + 1, all in one transaction.
//  The version is read again under the write lock, so a second process
//  opening the same file at the same moment cannot apply a step twice; then
//  this step is skipped and *version tells the caller where the file is.
static int
s_migrate_step(bus_db_t *self,
               const bus_db_migration_t *migrations,
               int step,
               int *version,
               bus_error_t *err)
{
    const char *name = migrations[step].name ? migrations[step].name : "";
    char errbuf[BUS_ERROR_DETAIL_MAX] = "";
    if (s_exec(self, "BEGIN IMMEDIATE", errbuf, sizeof errbuf) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "migration %d \"%s\" cannot start: %s",
                      step + 1, name, errbuf);
        return -1;
    }
    if (s_read_version(self, version) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "migration %d \"%s\": %s", step + 1, name,
                      "cannot read user_version");
        goto fail;
    }
    if (*version != step) {
        //  Someone else migrated meanwhile: nothing to write here.
        s_exec(self, "ROLLBACK", NULL, 0);
        return 0;
    }
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", step + 1);
    if (s_exec(self, migrations[step].sql ? migrations[step].sql : "", errbuf,
               sizeof errbuf) != 0 ||
        s_exec(self, pragma, errbuf, sizeof errbuf) != 0 ||
        s_exec(self, "COMMIT", errbuf, sizeof errbuf) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "migration %d \"%s\" failed: %s",
                      step + 1, name, errbuf);
        goto fail;
    }
    *version = step + 1;
    char qname[DB_LOG_TEXT_MAX];
    bus_log_notice("migration applied version=%d name=\"%s\"", step + 1,
                   s_quote(qname, sizeof qname, name));
    return 0;

fail:
    if (!sqlite3_get_autocommit(self->handle))
        s_exec(self, "ROLLBACK", NULL, 0);
    return -1;
}

static int
s_migrate(bus_db_t *self,
          const bus_db_migration_t *migrations,
          int count,
          bus_error_t *err)
{
    int version;
    if (s_read_version(self, &version) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read user_version: %s",
                      sqlite3_errmsg(self->handle));
        return -1;
    }
    while (version < count) {
        if (version < 0)
            break;
        if (s_migrate_step(self, migrations, version, &version, err) != 0)
            return -1;
    }
    if (version < 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "database schema version %d is invalid",
                      version);
        return -1;
    }
    if (version > count) {
        bus_error_set(err, BUS_STATUS_CONFLICT,
                      "database schema version %d is newer than this build knows (%d)",
                      version, count);
        return -1;
    }
    return 0;
}

//  Connection settings, applied before any migration. Failures here mean the
//  file is not usable (not a database, locked for longer than the timeout).
static int
s_configure(bus_db_t *self, const char *path, bus_error_t *err)
{
    //  Set first, so switching to WAL waits for other connections as well.
    sqlite3_busy_timeout(self->handle, BUS_DB_BUSY_TIMEOUT_MS);

    sqlite3_stmt *stmt = bus_db_stmt(self, "PRAGMA journal_mode = WAL");
    int rc = stmt ? sqlite3_step(stmt) : SQLITE_ERROR;
    if (rc != SQLITE_ROW) {
        bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot use database %s: %s", path,
                      sqlite3_errmsg(self->handle));
        return -1;
    }
    //  ":memory:" answers "memory"; anything else but "wal" means the file
    //  system refused WAL (no shared memory): usable, but readers block writers.
    const char *mode = (const char *) sqlite3_column_text(stmt, 0);
    if (!mode || (strcmp(mode, "wal") != 0 && strcmp(mode, "memory") != 0))
        bus_log_warning("sqlite journal mode is not WAL path=%s mode=%s", path,
                        mode ? mode : "(null)");
    sqlite3_reset(stmt);

    //  synchronous=NORMAL in WAL mode never corrupts the file: a power loss
    //  can only lose the last transactions committed since the previous
    //  checkpoint's fsync, which costs one fsync per checkpoint instead of
    //  one per commit.
    char errbuf[BUS_ERROR_DETAIL_MAX] = "";
    if (s_exec(self, "PRAGMA foreign_keys = ON", errbuf, sizeof errbuf) != 0 ||
        s_exec(self, "PRAGMA synchronous = NORMAL", errbuf, sizeof errbuf) != 0) {
        bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot use database %s: %s", path,
                      errbuf);
        return -1;
    }
    return 0;
}

//  SQLite's process-wide settings, once, before its first connection. Its
//  memory statistics take a global mutex around every allocation, and no
//  service reads them: off, the scheduler spends about 12% less CPU a
//  placement (make bench-scheduler).
static pthread_once_t s_library_once = PTHREAD_ONCE_INIT;

static void
s_library_configure(void)
{
    //  SQLITE_MISUSE if something initialized the library first: the
    //  statistics then stay on, which costs time, not correctness.
    (void) sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

//  Opens path and brings its schema to version count. The caller creates the
//  parent directory. Caller owns return value; NULL with err filled on failure.
bus_db_t *
bus_db_open(const char *path,
            const bus_db_migration_t *migrations,
            size_t count,
            bus_error_t *err)
{
    assert(path);
    assert(migrations || count == 0);
    assert(count <= INT_MAX);
    bus_db_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->stmts = zhashx_new();
    if (!self->stmts) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        goto fail;
    }
    //  Keys are duplicated by zhashx's default key duplicator.
    zhashx_set_destructor(self->stmts, s_stmt_destroy);

    pthread_once(&s_library_once, s_library_configure);
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    int rc = sqlite3_open_v2(path, &self->handle, flags, NULL);
    if (rc != SQLITE_OK) {
        bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot open database %s: %s", path,
                      self->handle ? sqlite3_errmsg(self->handle) : sqlite3_errstr(rc));
        bus_log_error("sqlite open failed path=%s error=\"%s\"", path,
                      err ? err->detail : sqlite3_errstr(rc));
        goto fail;
    }
    if (s_configure(self, path, err) != 0 ||
        s_migrate(self, migrations, (int) count, err) != 0) {
        bus_log_error("sqlite open failed path=%s error=\"%s\"", path,
                      err ? err->detail : "see above");
        goto fail;
    }
    return self;

fail:
    bus_db_destroy(&self);
    return NULL;
}

//  Finalizes every cached statement and closes the connection; an open
//  transaction is rolled back by the close.
void
bus_db_destroy(bus_db_t **self_p)
{
    assert(self_p);
    bus_db_t *self = *self_p;
    if (!self)
        return;
    if (self->depth > 0)
        bus_log_warning("sqlite closed inside a transaction depth=%d", self->depth);
    zhashx_destroy(&self->stmts);
    if (self->handle && sqlite3_close(self->handle) != SQLITE_OK) {
        //  Statements prepared through the raw handle were not finalized:
        //  close when they are, rather than leak the connection.
        bus_log_error("sqlite close failed error=\"%s\"", sqlite3_errmsg(self->handle));
        sqlite3_close_v2(self->handle);
    }
    free(self);
    *self_p = NULL;
}

//  For calls this module does not wrap. Borrowed: do not close it.
sqlite3 *
bus_db_handle(bus_db_t *self)
{
    assert(self);
    return self->handle;
}

//  The cache hands back the same statement for the same text, reset here, so
//  a caller that returned early without resetting cannot leak its bindings
//  or an old cursor into the next use.
sqlite3_stmt *
bus_db_stmt(bus_db_t *self, const char *sql)
{
    assert(self);
    assert(sql);
    sqlite3_stmt *stmt = zhashx_lookup(self->stmts, sql);
    if (stmt) {
        sqlite3_reset(stmt);
        sqlite3_clear_bindings(stmt);
        return stmt;
    }
    const char *tail = NULL;
    int rc = sqlite3_prepare_v3(self->handle, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt,
                                &tail);
    const char *problem = NULL;
    if (rc != SQLITE_OK)
        problem = sqlite3_errmsg(self->handle);
    else if (!stmt)
        problem = "no statement in the text";
    else {
        while (tail && isspace((unsigned char) *tail))
            tail++;
        if (tail && *tail)
            problem = "more than one statement in the text";
    }
    if (problem) {
        char qmsg[DB_LOG_TEXT_MAX], qsql[DB_LOG_TEXT_MAX];
        bus_log_error("sqlite prepare failed error=\"%s\" sql=\"%s\"",
                      s_quote(qmsg, sizeof qmsg, problem),
                      s_quote(qsql, sizeof qsql, sql));
        sqlite3_finalize(stmt);
        return NULL;
    }
    zhashx_insert(self->stmts, sql, stmt);
    return stmt;
}

//  For DDL and statements without results or parameters.
int
bus_db_step_done(bus_db_t *self, sqlite3_stmt *stmt, const char *what)
{
    assert(self && what);
    if (!stmt)
        return BUS_STATUS_INTERNAL; //  bus_db_stmt logged why it did not prepare
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc == SQLITE_DONE)
        return BUS_OK;
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
        return BUS_STATUS_CONFLICT;
    bus_log_error("database write failed what=%s error=\"%s\"", what,
                  sqlite3_errmsg(self->handle));
    return BUS_STATUS_INTERNAL;
}

int64_t
bus_db_run_before(bus_db_t *self, const char *sql, int64_t before, const char *what)
{
    assert(self && sql && what);
    sqlite3_stmt *stmt = bus_db_stmt(self, sql);
    if (!stmt)
        return -1;
    sqlite3_bind_int64(stmt, 1, before);
    int rc = bus_db_step_done(self, stmt, what);
    sqlite3_clear_bindings(stmt);
    return rc == BUS_OK ? (int64_t) sqlite3_changes(self->handle) : -1;
}

int
bus_db_exec(bus_db_t *self, const char *sql)
{
    assert(self);
    assert(sql);
    return s_exec(self, sql, NULL, 0);
}

//  Fails without changing the depth when BEGIN does (busy beyond the
//  timeout) and, at an inner depth, when the transaction was already rolled
//  back: work done then would run outside any transaction.
//  Runs one of the fixed transaction-control statements through the
//  statement cache (they run once per unit of work: no parse each time).
static int
s_control(bus_db_t *self, const char *sql)
{
    sqlite3_stmt *stmt = bus_db_stmt(self, sql);
    int rc = stmt ? sqlite3_step(stmt) : SQLITE_ERROR;
    if (stmt)
        sqlite3_reset(stmt);
    if (rc == SQLITE_DONE)
        return 0;
    bus_log_error("sqlite %s failed error=\"%s\"", sql, sqlite3_errmsg(self->handle));
    return -1;
}

//  Inside a transaction: notices that SQLite ended it on its own.
static bool
s_lost(bus_db_t *self)
{
    if (!self->lost && sqlite3_get_autocommit(self->handle)) {
        //  SQLite rolled it back itself (I/O error, full disk, ...)
        bus_log_error("sqlite transaction ended under us depth=%d", self->depth);
        self->lost = self->failed = true;
    }
    return self->lost;
}

int
bus_db_begin(bus_db_t *self)
{
    assert(self);
    if (self->depth > 0) {
        s_lost(self);
        if (self->failed)
            return -1;
        self->depth++;
        return 0;
    }
    if (s_exec(self, "BEGIN IMMEDIATE", NULL, 0) != 0)
        return -1;
    self->depth = 1;
    self->failed = self->lost = false;
    self->unit_count = 0;
    return 0;
}

//  Only the outermost commit writes. -1 when the transaction was rolled back
//  at some depth, or when COMMIT fails (then it is rolled back here).
int
bus_db_commit(bus_db_t *self)
{
    assert(self);
    if (self->depth == 0) {
        bus_log_error("sqlite commit without a transaction");
        return -1;
    }
    //  A unit ends with release, never with commit.
    assert(self->unit_count == 0 || self->depth > self->units[self->unit_count - 1]);
    self->depth--;
    if (self->depth > 0)
        return self->failed ? -1 : 0;
    if (self->failed) {
        if (!sqlite3_get_autocommit(self->handle))
            s_exec(self, "ROLLBACK", NULL, 0);
        self->failed = self->lost = false;
        return -1;
    }
    if (s_exec(self, "COMMIT", NULL, 0) == 0)
        return 0;
    if (!sqlite3_get_autocommit(self->handle))
        s_exec(self, "ROLLBACK", NULL, 0);
    return -1;
}

//  Ends this depth and undoes the whole transaction; the enclosing depths
//  still call commit or rollback, and their commits return -1.
int
bus_db_rollback(bus_db_t *self)
{
    assert(self);
    if (self->depth == 0) {
        bus_log_error("sqlite rollback without a transaction");
        return -1;
    }
    assert(self->unit_count == 0 || self->depth > self->units[self->unit_count - 1]);
    self->depth--;
    int rc = 0;
    if (self->unit_count > 0 && !s_lost(self)) {
        //  Inside a unit: undo the unit only; the levels inside it fail
        //  until it is released.
        rc = s_control(self, "ROLLBACK TO bus_db_unit");
        if (rc != 0)
            self->lost = true;
        self->failed = true;
        return rc;
    }
    if (!sqlite3_get_autocommit(self->handle))
        rc = s_exec(self, "ROLLBACK", NULL, 0);
    self->failed = self->depth > 0;
    return rc;
}

//  Opens a unit one level deeper, under a savepoint.
int
bus_db_savepoint(bus_db_t *self)
{
    assert(self);
    if (self->depth == 0) {
        bus_log_error("sqlite savepoint without a transaction");
        return -1;
    }
    if (s_lost(self) || self->failed || self->unit_count == BUS_DB_SAVEPOINT_MAX ||
        s_control(self, "SAVEPOINT bus_db_unit") != 0)
        return -1;
    self->depth++;
    self->units[self->unit_count++] = self->depth;
    return 0;
}

//  Ends the innermost unit: keeps its work, or undoes it when something
//  inside rolled back (-1). The enclosing levels are not poisoned by it.
int
bus_db_release(bus_db_t *self)
{
    assert(self);
    assert(self->unit_count > 0 && self->depth == self->units[self->unit_count - 1]);
    self->unit_count--;
    self->depth--;
    int rc = self->failed ? -1 : 0;
    if (s_lost(self))
        return -1;
    if (self->failed && s_control(self, "ROLLBACK TO bus_db_unit") != 0)
        self->lost = true;
    if (!self->lost && s_control(self, "RELEASE bus_db_unit") != 0)
        self->lost = true;
    //  The unit was opened on a healthy level: only a lost transaction
    //  poisons the levels around it.
    self->failed = self->lost;
    return self->lost ? -1 : rc;
}

bool
bus_db_in_transaction(bus_db_t *self)
{
    assert(self);
    return self->depth > 0;
}

//  -1 when it cannot be read.
int
bus_db_version(bus_db_t *self)
{
    assert(self);
    int version;
    return s_read_version(self, &version) == 0 ? version : -1;
}

//  Goes through the statement cache, so a probe costs one step.
bool
bus_db_ok(bus_db_t *self)
{
    assert(self);
    sqlite3_stmt *stmt = bus_db_stmt(self, "SELECT 1");
    if (!stmt)
        return false;
    bool ok = sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_int(stmt, 0) == 1;
    sqlite3_reset(stmt);
    return ok;
}
