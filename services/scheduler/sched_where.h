/*  =========================================================================
    sched_where - a session.list condition and order as SQL over sessions

    session.list's `where` is a JSON term over the session info's text
    fields, which the gateway translates from Backend.AI's filter minilang
    where SQL means the same (gw_minilang_filter_pushdown). The terms:
        ["and", t, ...]  ["or", t, ...]  ["not", t]     (one or more t)
        ["true"]  ["false"]  ["unknown"]                 (SQL's 1, 0, NULL)
        ["isnull", f]  ["notnull", f]
        ["=", f, "s"]  and <> < <= > >=                  (bytewise, as BINARY)
        ["like", f, "p"]   SQL LIKE with \ escaping the next character
                           (ASCII case folded, _ one UTF-8 character)
        ["glob", f, "p"]   SQLite GLOB (case-sensitive)
        ["in", f, ["s" or null, ...]]                    (one or more items)
    with f one of the text fields below, and SQL's three-valued logic. The
    builder turns it into a WHERE fragment whose every value is a bound
    parameter: field names map to columns through a fixed table and
    operators to fixed text, so nothing from the request reaches the SQL
    text. `order` is a comma list of fields, each with an optional leading
    - (descending), the text fields and created_at, status_changed and
    terminated_at (0, a session that has not ended, counts as null): nulls
    sort last ascending and first descending, and the newest first order
    breaks ties. Anything else is INVALID.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_WHERE_H_INCLUDED
#define SCHED_WHERE_H_INCLUDED

#include "bus.h"

#define SCHED_WHERE_DEPTH_MAX  32   //  deepest nesting of terms
#define SCHED_WHERE_PARAMS_MAX 1000 //  bound values in one statement
#define SCHED_WHERE_PATTERN_MAX                                                          \
    10000                        //  bytes of a like/glob pattern (SQLite's cap: 50000)
#define SCHED_WHERE_ORDER_MAX 16 //  keys in an order

typedef struct _sched_where_t sched_where_t;

//  An empty builder: no condition ("WHERE 1"), the default order.
//  NULL when out of memory.
sched_where_t *sched_where_new(void);

//  Destroys the builder and NULLs the pointer; idempotent.
void sched_where_destroy(sched_where_t **self_p);

//  ANDs column = value (value NULL: nothing added). column is SQL text the
//  caller owns and writes itself ("s.access_key"), never input. 0 or -1
//  (out of memory, too many values).
int sched_where_equal(sched_where_t *self, const char *column, const char *value);

//  ANDs "the status is one of the comma list's words" (NULL or "": nothing
//  added; empty words are skipped). 0 or -1.
int sched_where_statuses(sched_where_t *self, const char *statuses);

//  ANDs "mounts the virtual folder of this id" (NULL or "": nothing
//  added). 0 or -1.
int sched_where_mounting(sched_where_t *self, const char *folder_id);

//  ANDs "after the session (created_at_us, id) in the newest-first order".
//  0 or -1.
int sched_where_after(sched_where_t *self, int64_t created_at_us, const char *id);

//  ANDs the JSON term text (see above). BUS_OK, or INVALID with err.
int sched_where_term(sched_where_t *self, const char *json_text, bus_error_t *err);

//  Sets the order from its text (NULL or "": newest first). BUS_OK, or
//  INVALID with err.
int sched_where_order(sched_where_t *self, const char *text, bus_error_t *err);

//  " WHERE ..." to follow "FROM sessions s"; borrowed until the next call.
const char *sched_where_sql(const sched_where_t *self);

//  " ORDER BY ..."; borrowed until the next call.
const char *sched_where_order_sql(const sched_where_t *self);

//  How many parameters the WHERE binds (?1..?n); a statement's LIMIT and
//  OFFSET take the numbers after them.
int sched_where_param_count(const sched_where_t *self);

//  Binds the parameters to stmt, prepared from SQL this builder wrote
//  (copies: the statement may outlive the builder).
void sched_where_bind(const sched_where_t *self, sqlite3_stmt *stmt);

#endif
