/*  =========================================================================
    bus_where - a list's condition and order as SQL, every value bound

    The services answer list requests from their own SQLite with a WHERE
    built here: the caller's fixed pieces (scope, arguments), a JSON term
    that a client's filter was translated into (the gateway's
    gw_minilang_filter_pushdown), and an order. The term:
        ["and", t, ...]  ["or", t, ...]  ["not", t]     (one or more t)
        ["true"]  ["false"]  ["unknown"]                 (SQL's 1, 0, NULL)
        ["isnull", f]  ["notnull", f]
        ["=", f, "s"]  and <> < <= > >=                  (bytewise, as BINARY)
        ["like", f, "p"]   SQL LIKE with \ escaping the next character
                           (ASCII case folded, _ one UTF-8 character)
        ["glob", f, "p"]   SQLite GLOB (case-sensitive)
        ["in", f, ["s" or null, ...]]                    (one or more items)
    with f a text field of the caller's column table, and SQL's three-valued
    logic. Field names map to columns through that table and operators to
    fixed text, so nothing from the request reaches the SQL text: values
    are numbered parameters. An order is a comma list of the table's fields,
    each with an optional leading - (descending): nulls sort last ascending
    and first descending, and the caller's default order breaks ties.
    Anything else is INVALID, checked before a statement is prepared.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_WHERE_H_INCLUDED
#define BUS_WHERE_H_INCLUDED

#include <sqlite3.h>
#include "bus_status.h"

#define BUS_WHERE_DEPTH_MAX   32    //  deepest nesting of terms
#define BUS_WHERE_PARAMS_MAX  1000  //  bound values in one statement
#define BUS_WHERE_PATTERN_MAX 10000 //  bytes of a like/glob pattern (SQLite's cap: 50000)
#define BUS_WHERE_ORDER_MAX   16    //  keys in an order

//  A field a term or order may name: its SQL (the caller's fixed text),
//  whether terms may use it (else orders only), and whether it may be NULL
//  (then an order says where nulls go; SQLite cannot walk an index for
//  NULLS LAST, so say it only where needed). A table ends with a NULL field.
typedef struct {
    const char *field;
    const char *column;
    bool text;
    bool nullable;
} bus_where_column_t;

typedef struct _bus_where_t bus_where_t;

//  An empty builder ("WHERE 1") over columns (borrowed, static) whose
//  default order is default_order ("ORDER BY ..." text without the
//  keywords, e.g. "s.created_at DESC, s.id"; borrowed). NULL when out of
//  memory.
bus_where_t *bus_where_new(const bus_where_column_t *columns, const char *default_order);

//  Destroys the builder and NULLs the pointer; idempotent.
void bus_where_destroy(bus_where_t **self_p);

//  Appends the caller's fixed SQL text (never input). 0 or -1.
int bus_where_append(bus_where_t *self, const char *sql);

//  Appends "?N" for a new text or integer parameter. 0 or -1 (out of
//  memory, more than BUS_WHERE_PARAMS_MAX).
int bus_where_param_text(bus_where_t *self, const char *text, size_t length);
int bus_where_param_int(bus_where_t *self, int64_t value);

//  ANDs column = value (value NULL: nothing added). 0 or -1.
int bus_where_equal(bus_where_t *self, const char *column, const char *value);

//  ANDs "column is one of the comma list's words" (NULL or "": nothing
//  added; empty words skipped; only commas: nothing matches). 0 or -1.
int bus_where_in_words(bus_where_t *self, const char *column, const char *words);

//  ANDs the JSON term text (see above; NULL or "": nothing). BUS_OK, or
//  INVALID with err.
int bus_where_term(bus_where_t *self, const char *json_text, bus_error_t *err);

//  Sets the order from its text (NULL or "": the default). BUS_OK, or
//  INVALID with err.
int bus_where_order(bus_where_t *self, const char *text, bus_error_t *err);

//  " WHERE ..." to follow the FROM clause; borrowed until the next call.
const char *bus_where_sql(const bus_where_t *self);

//  " ORDER BY ..."; borrowed until the next call.
const char *bus_where_order_sql(const bus_where_t *self);

//  How many parameters the WHERE binds (?1..?n); a statement's LIMIT and
//  OFFSET take the numbers after them.
int bus_where_param_count(const bus_where_t *self);

//  Binds the parameters to stmt, prepared from SQL this builder wrote
//  (copies: the statement may outlive the builder).
void bus_where_bind(const bus_where_t *self, sqlite3_stmt *stmt);

//  Prepares head + WHERE + tail on db's handle (not cached: list shapes
//  vary too much) with the parameters bound. NULL, logged, on failure.
//  Caller finalizes it.
sqlite3_stmt *bus_where_prepare(const bus_where_t *self,
                                sqlite3 *db,
                                const char *head,
                                const char *tail);

#endif
