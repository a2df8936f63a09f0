/*  =========================================================================
    bus_where_test - lists' conditions and orders as SQL, against SQLite

    A small table; the builder's fixed pieces, words, terms and orders
    select and sort its rows as the header says; values are only ever
    parameters (one that looks like SQL matches itself); what is not a term
    or an order of the table's fields is refused before SQLite sees it.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "t.h"

static const bus_where_column_t s_columns[] = {
    {"name", "t.name", true, false},
    {"note", "t.note", true, true},
    {"n", "t.n", false, false}, //  orders only
    {NULL, NULL, false, false},
};

static sqlite3 *s_db;

//  The ids the builder selects, in its order, as "1 2 3".
static const char *
s_ids(bus_where_t *where)
{
    static char out[128];
    out[0] = '\0';
    char tail[256];
    snprintf(tail, sizeof tail, "%s", bus_where_order_sql(where));
    sqlite3_stmt *stmt = bus_where_prepare(where, s_db, "SELECT t.id FROM t", tail);
    if (!stmt)
        return "(no statement)";
    size_t used = 0;
    while (sqlite3_step(stmt) == SQLITE_ROW)
        used += (size_t) snprintf(out + used, sizeof out - used, "%s%d", used ? " " : "",
                                  sqlite3_column_int(stmt, 0));
    sqlite3_finalize(stmt);
    return out;
}

static void
test_pieces_terms_orders(void)
{
    bus_where_t *where = bus_where_new(s_columns, "t.id");
    T_ASSERT(where);
    T_EQ_STR(s_ids(where), "1 2 3 4");
    T_EQ_INT(bus_where_equal(where, "t.kind", NULL), 0); //  nothing added
    T_EQ_INT(bus_where_in_words(where, "t.kind", ",a,,b,"), 0);
    T_EQ_STR(s_ids(where), "1 2 4");
    T_EQ_INT(bus_where_term(where,
                            "[\"or\", [\"isnull\", \"note\"], [\"glob\", \"name\","
                            " \"[*]*\"]]",
                            NULL),
             BUS_OK);
    T_EQ_STR(s_ids(where), "2 4");
    bus_error_t err = {0};
    T_EQ_INT(bus_where_order(where, "-note,n", &err), BUS_OK);
    T_CONTAINS(bus_where_order_sql(where), "t.note DESC NULLS FIRST, t.n, t.id");
    T_EQ_STR(s_ids(where), "4 2"); //  both notes null: by n
    T_EQ_INT(bus_where_order(where, "n,nope", &err), BUS_STATUS_INVALID);
    T_EQ_INT(bus_where_order(where, NULL, &err), BUS_OK);
    T_CONTAINS(bus_where_order_sql(where), " ORDER BY t.id");
    bus_where_destroy(&where);
    bus_where_destroy(&where); //  twice is fine
    T_ASSERT(where == NULL);

    //  A value that looks like SQL is a value.
    where = bus_where_new(s_columns, "t.id");
    T_EQ_INT(bus_where_equal(where, "t.name", "x' OR 1=1 --"), 0);
    T_EQ_STR(s_ids(where), "3");
    T_EQ_INT(bus_where_param_count(where), 1);
    bus_where_destroy(&where);

    //  Only commas: nothing. Fields that only order refuse terms.
    where = bus_where_new(s_columns, "t.id");
    T_EQ_INT(bus_where_in_words(where, "t.kind", ",,"), 0);
    T_EQ_STR(s_ids(where), "");
    T_EQ_INT(bus_where_term(where, "[\"=\", \"n\", \"1\"]", &err), BUS_STATUS_INVALID);
    T_EQ_INT(bus_where_term(where, "[\"like\", \"name\", \"%\"] x", &err),
             BUS_STATUS_INVALID);
    bus_where_destroy(&where);

    //  Parameters stop at the limit.
    where = bus_where_new(s_columns, "t.id");
    int rc = 0;
    for (int i = 0; i <= BUS_WHERE_PARAMS_MAX && rc == 0; i++)
        rc = bus_where_param_int(where, i);
    T_EQ_INT(rc, -1);
    T_EQ_INT(bus_where_param_count(where), BUS_WHERE_PARAMS_MAX);
    bus_where_destroy(&where);
}

int
main(void)
{
    if (sqlite3_open(":memory:", &s_db) != SQLITE_OK ||
        sqlite3_exec(s_db,
                     "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                     " note TEXT, n INTEGER, kind TEXT);"
                     "INSERT INTO t VALUES (1, 'alpha', 'x', 3, 'a'),"
                     " (2, '*star', NULL, 2, 'b'), (3, 'x'' OR 1=1 --', 'y', 1, 'c'),"
                     " (4, 'beta', NULL, 1, 'a');",
                     NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "# %s\n", sqlite3_errmsg(s_db));
        return 1;
    }
    T_RUN(test_pieces_terms_orders);
    sqlite3_close(s_db);
    return T_DONE();
}
