/*  =========================================================================
    fuzz_pushdown - libFuzzer target: the SQL a filter is pushed down as
    answers what the minilang matcher answers

    The input, cut at its first NUL byte, is parsed as a minilang filter
    over three text fields of a few items (strings with %, _, \, case and
    multibyte letters, an empty string, nulls). What gw_minilang_filter_
    pushdown makes of it must be accepted by the scheduler's builder
    (bus_where_term), and the SQL it builds, run on the same rows in
    SQLite, must select exactly the items the matcher keeps when the
    pushdown says it is complete, and at least them when it is not (the
    gateway then filters the rest). The raw input also goes to the builder
    as a JSON term, which must refuse or build without crashing. Any broken
    promise aborts, so the fuzzer reports it like a crash.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "../../services/gateway/gw_minilang.h"
#include "../../services/scheduler/sched_where.h"

#define ROWS 8

static const char *const s_fields[] = {"name", "note", "kind", "age", NULL};

//  The fields as the scheduler's text columns (age has none).
static const gw_minilang_column_t s_columns[] = {
    {"name", "name", true},
    {"note", "status_info", true},
    {"kind", "type", true},
    {NULL, NULL, false},
};

//  name, note (NULL: null), kind.
static const char *s_rows[ROWS][3] = {
    {"alice", NULL, "INTERACTIVE"},
    {"Bob", "b%_\\", "BATCH"},
    {"caf\xc3\xa9", "", "batch"},
    {"CAF\xc3\x89", "x", "INTERACTIVE"},
    {"a_b", "%", ""},
    {"a*b?[c]", "\\", "A"},
    {"", NULL, "a\"b"},
    {"zeta 9", "\xce\xb4", "interactive"},
};

static sqlite3 *s_db;

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

static void
s_setup(void)
{
    if (s_db)
        return;
    s_check(sqlite3_open(":memory:", &s_db) == SQLITE_OK);
    s_check(sqlite3_exec(s_db,
                         "CREATE TABLE sessions (id INTEGER PRIMARY KEY, name TEXT,"
                         " status_info TEXT, type TEXT)",
                         NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_stmt *stmt = NULL;
    s_check(sqlite3_prepare_v2(s_db, "INSERT INTO sessions VALUES (?1, ?2, ?3, ?4)", -1,
                               &stmt, NULL) == SQLITE_OK);
    for (int i = 0; i < ROWS; i++) {
        sqlite3_bind_int(stmt, 1, i);
        for (int c = 0; c < 3; c++)
            if (s_rows[i][c])
                sqlite3_bind_text(stmt, c + 2, s_rows[i][c], -1, SQLITE_STATIC);
            else
                sqlite3_bind_null(stmt, c + 2);
        s_check(sqlite3_step(stmt) == SQLITE_DONE);
        sqlite3_reset(stmt);
        sqlite3_clear_bindings(stmt);
    }
    sqlite3_finalize(stmt);
}

//  The rows the builder's SQL selects, as bits.
static unsigned
s_selected(const bus_where_t *where)
{
    char *sql = NULL;
    s_check(asprintf(&sql, "SELECT s.id FROM sessions s%s", bus_where_sql(where)) > 0);
    sqlite3_stmt *stmt = NULL;
    s_check(sqlite3_prepare_v2(s_db, sql, -1, &stmt, NULL) == SQLITE_OK);
    bus_where_bind(where, stmt);
    unsigned bits = 0;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
        bits |= 1u << sqlite3_column_int(stmt, 0);
    s_check(rc == SQLITE_DONE);
    sqlite3_finalize(stmt);
    free(sql);
    return bits;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > GW_MINILANG_MAX_TEXT + 16)
        return 0;
    s_setup();
    char *text = malloc(size + 1);
    s_check(text != NULL);
    memcpy(text, data, size);
    text[size] = '\0';
    //  Anything as a term: refused or built, never a crash.
    bus_where_t *raw = sched_where_new();
    s_check(raw != NULL);
    bus_error_t err = {0};
    if (bus_where_term(raw, text, &err) == BUS_OK)
        s_selected(raw);
    else
        s_check(err.status == BUS_STATUS_INVALID || err.status == BUS_STATUS_INTERNAL);
    bus_where_destroy(&raw);

    char error[256];
    gw_minilang_filter_t *f =
        gw_minilang_filter_parse(text, s_fields, error, sizeof error);
    if (f) {
        unsigned matched = 0;
        for (int i = 0; i < ROWS; i++) {
            json_t *item =
                json_pack("{s:s, s:s?, s:s, s:i}", "name", s_rows[i][0], "note",
                          s_rows[i][1], "kind", s_rows[i][2], "age", i);
            s_check(item != NULL);
            if (gw_minilang_filter_match(f, item))
                matched |= 1u << i;
            json_decref(item);
        }
        bool complete = false;
        json_t *terms = gw_minilang_filter_pushdown(f, s_columns, &complete);
        s_check(terms || !complete);
        unsigned selected = (1u << ROWS) - 1;
        if (terms) {
            char *term = json_dumps(terms, JSON_COMPACT);
            s_check(term != NULL);
            bus_where_t *where = sched_where_new();
            s_check(where != NULL);
            //  What the gateway sends, the scheduler takes.
            s_check(bus_where_term(where, term, &err) == BUS_OK);
            selected = s_selected(where);
            bus_where_destroy(&where);
            free(term);
            json_decref(terms);
        }
        if (complete)
            s_check(selected == matched);
        else
            s_check((selected & matched) == matched);
        gw_minilang_filter_destroy(&f);
    }
    free(text);
    return 0;
}
