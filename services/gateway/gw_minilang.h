/*  =========================================================================
    gw_minilang - Backend.AI's filter and order minilang for *_list fields

    The `filter` argument of a paginated GraphQL list is an expression:
    comparisons `field op value` with op one of == != > >= < <= contains in
    is isnot like ilike; values are double-quoted strings (\" escapes a
    quote; other backslash pairs stay as written, as Backend.AI passes them
    to SQL), numbers, true, false, null, or [lists]; `!` negates everything
    to its right; & and | have the same precedence and group to the right,
    so `a & b | c` means `a & (b | c)` (the LALR grammar resolves its
    conflicts by shifting); parentheses group. Matching follows SQL's
    three-valued logic: a comparison with a missing or null field is
    unknown, unknown is not a match, and `!unknown` stays unknown; `== null`
    and `!= null` mean IS NULL and IS NOT NULL. Strings compare bytewise
    (timestamps are ISO 8601 strings, so they order by time); like and
    ilike use % and _ with backslash escaping the next character, ilike
    folds ASCII letters only. An array-valued field matches when any of its
    items does; `contains` on a string is a substring test, on an array a
    membership test. The `order` argument is a comma list of fields, each
    with an optional + (ascending, the default) or - (descending); null
    sorts after everything when ascending, as PostgreSQL does.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_MINILANG_H_INCLUDED
#define GW_MINILANG_H_INCLUDED

#define GW_MINILANG_MAX_TEXT  65536 //  longest filter or order text, bytes
#define GW_MINILANG_MAX_DEPTH 64    //  deepest nesting of ( ! and [

typedef struct _gw_minilang_filter_t gw_minilang_filter_t;

//  Parses a filter. fields is the NULL-terminated list of field names that
//  may be used, or NULL for any name. Returns the filter (caller owns it) or
//  NULL with a message in error ("Query filter parsing error: ..." naming
//  the line and column, or the unknown field), as Backend.AI answers.
gw_minilang_filter_t *gw_minilang_filter_parse(const char *text,
                                               const char *const *fields,
                                               char *error,
                                               size_t error_size);

//  True when the JSON object item satisfies the filter.
bool gw_minilang_filter_match(const gw_minilang_filter_t *self, const json_t *item);

//  Destroys the filter and NULLs the pointer; idempotent.
void gw_minilang_filter_destroy(gw_minilang_filter_t **self_p);

//  Sorts the array of objects items in place, stably, by the order text.
//  Returns 0, or -1 with a message in error ("Query ordering parsing error:
//  ...") and items untouched.
int gw_minilang_order(json_t *items,
                      const char *text,
                      const char *const *fields,
                      char *error,
                      size_t error_size);

//  ---------------------------------------------------------------------
//  Pushdown: what SQL can answer instead of the matcher and the sort

#define GW_MINILANG_PUSH_DEPTH_MAX   24    //  deepest term pushed
#define GW_MINILANG_PUSH_VALUES_MAX  500   //  values bound, all terms together
#define GW_MINILANG_PUSH_PATTERN_MAX 10000 //  bytes of a like or glob pattern
#define GW_MINILANG_PUSH_ORDER_MAX   16    //  keys of an order pushed

//  A field of the items that a store has as a column: its name there.
//  Pushdown assumes what the store and the items hold agree: a text field
//  is a string or JSON null (SQL NULL) in every item; an order field also
//  sorts as its column does (times as microseconds sort as the ISO 8601
//  strings the items show them as). A table ends with a NULL field.
typedef struct {
    const char *field;
    const char *column;
    bool text; //  may appear in a filter (else only in an order)
} gw_minilang_column_t;

//  The top-level conjuncts of the filter (the terms of its leading run of
//  &, parentheses opened) that SQL over the columns answers exactly as the
//  matcher does, as the JSON terms of the scheduler's session.list `where`
//  (bus_where.h): ["and", t, ...] of them, or NULL when none is. *complete
//  is true when they are the whole filter; otherwise the rows SQL returns
//  must still go through gw_minilang_filter_match, which then decides the
//  rest (it holds for the pushed terms already). A comparison stays in
//  memory when its field has no text column or its value is a type the
//  field never holds (the matcher's mismatches are not SQL's), or when it
//  would pass the PUSH limits. Caller owns the result.
json_t *gw_minilang_filter_pushdown(const gw_minilang_filter_t *self,
                                    const gw_minilang_column_t *columns,
                                    bool *complete);

//  The order text as the scheduler's session.list `order` ("col,-col")
//  into out: 0 when every key has a column, 1 when some key has none (sort
//  in memory), -1 with the message in error (gw_minilang_order's) when the
//  text does not parse against fields.
int gw_minilang_order_pushdown(const char *text,
                               const char *const *fields,
                               const gw_minilang_column_t *columns,
                               char *out,
                               size_t out_size,
                               char *error,
                               size_t error_size);

#endif
