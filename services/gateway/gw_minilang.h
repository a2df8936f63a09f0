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

#endif
