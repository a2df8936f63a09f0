/*  =========================================================================
    gw_minilang_eval - what a filter and an order mean

    A parsed filter matched against the JSON objects the resolvers produce,
    with SQL's three-valued logic; the order parsed and applied as a stable
    sort; and the pushdown: the top-level conjuncts of a filter, and an
    order, that SQL answers exactly as the matcher does, as bus_where terms
    for the scheduler or the gateway's own tables. Pure: no I/O.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "gw_minilang_private.h"

//  Matching

//  SQL LIKE over bytes, with _ taking one UTF-8 character and \ escaping
//  the next pattern character. Backtracks only to the last %, so it costs
//  at most pattern x subject steps.
static bool
s_like(const char *pat, size_t pn, const char *str, size_t sn, bool fold)
{
    size_t pi = 0, si = 0;
    size_t star_p = SIZE_MAX, star_s = 0;
    while (si < sn) {
        if (pi < pn && pat[pi] == '%') {
            star_p = ++pi;
            star_s = si;
            continue;
        }
        if (pi < pn && pat[pi] == '_') {
            pi++;
            si++;
            while (si < sn && ((unsigned char) str[si] & 0xc0) == 0x80)
                si++;
            continue;
        }
        if (pi < pn) {
            size_t q = pi;
            if (pat[q] == '\\' && q + 1 < pn)
                q++;
            char a = pat[q], b = str[si];
            if (fold) {
                a = (char) tolower((unsigned char) a);
                b = (char) tolower((unsigned char) b);
            }
            if (a == b) {
                pi = q + 1;
                si++;
                continue;
            }
        }
        if (star_p == SIZE_MAX)
            return false;
        //  Let the last % take one more character (a whole UTF-8 one).
        star_s++;
        while (star_s < sn && ((unsigned char) str[star_s] & 0xc0) == 0x80)
            star_s++;
        si = star_s;
        pi = star_p;
    }
    while (pi < pn && pat[pi] == '%')
        pi++;
    return pi == pn;
}

//  -1, 0, 1, or 2 when the two do not compare.
static int
s_compare(const json_t *field, const gw_minilang_value_t *v)
{
    if (json_is_number(field) &&
        (v->type == GW_MINILANG_V_INT || v->type == GW_MINILANG_V_REAL)) {
        if (json_is_integer(field) && v->type == GW_MINILANG_V_INT) {
            json_int_t a = json_integer_value(field);
            return a < v->integer ? -1 : a > v->integer;
        }
        double a = json_number_value(field);
        double b = v->type == GW_MINILANG_V_INT ? (double) v->integer : v->real;
        if (a != a || b != b)
            return 2;
        return a < b ? -1 : a > b;
    }
    if (json_is_string(field) && v->type == GW_MINILANG_V_STRING) {
        size_t an = json_string_length(field);
        size_t n = an < v->length ? an : v->length;
        int c = memcmp(json_string_value(field), v->string, n);
        if (c == 0)
            return an < v->length ? -1 : an > v->length;
        return c < 0 ? -1 : 1;
    }
    if (json_is_boolean(field) &&
        (v->type == GW_MINILANG_V_TRUE || v->type == GW_MINILANG_V_FALSE)) {
        int a = json_is_true(field), b = v->type == GW_MINILANG_V_TRUE;
        return a < b ? -1 : a > b;
    }
    return 2;
}

static gw_minilang_tri_t
s_is(const json_t *field, const gw_minilang_value_t *v)
{
    if (v->type == GW_MINILANG_V_NULL)
        return !field || json_is_null(field) ? GW_MINILANG_TRUE : GW_MINILANG_FALSE;
    if (!json_is_boolean(field))
        return GW_MINILANG_FALSE;
    return (json_is_true(field) == (v->type == GW_MINILANG_V_TRUE)) ? GW_MINILANG_TRUE
                                                                    : GW_MINILANG_FALSE;
}

static gw_minilang_tri_t
s_not(gw_minilang_tri_t t)
{
    return t == GW_MINILANG_UNKNOWN ? GW_MINILANG_UNKNOWN
           : t == GW_MINILANG_TRUE  ? GW_MINILANG_FALSE
                                    : GW_MINILANG_TRUE;
}

static gw_minilang_tri_t
s_or(gw_minilang_tri_t a, gw_minilang_tri_t b)
{
    if (a == GW_MINILANG_TRUE || b == GW_MINILANG_TRUE)
        return GW_MINILANG_TRUE;
    return a == GW_MINILANG_UNKNOWN || b == GW_MINILANG_UNKNOWN ? GW_MINILANG_UNKNOWN
                                                                : GW_MINILANG_FALSE;
}

static gw_minilang_tri_t
s_and(gw_minilang_tri_t a, gw_minilang_tri_t b)
{
    if (a == GW_MINILANG_FALSE || b == GW_MINILANG_FALSE)
        return GW_MINILANG_FALSE;
    return a == GW_MINILANG_UNKNOWN || b == GW_MINILANG_UNKNOWN ? GW_MINILANG_UNKNOWN
                                                                : GW_MINILANG_TRUE;
}

//  One scalar (non-array) field value against a comparison.
static gw_minilang_tri_t
s_compare_scalar(const gw_minilang_node_t *node, const json_t *field)
{
    const gw_minilang_value_t *v = &node->value;
    bool null = !field || json_is_null(field);
    switch (node->op) {
        case GW_MINILANG_OP_IS:
            return s_is(field, v);
        case GW_MINILANG_OP_ISNOT:
            return s_not(s_is(field, v));
        case GW_MINILANG_OP_EQ:
        case GW_MINILANG_OP_NE:
            if (v->type ==
                GW_MINILANG_V_NULL) //  == null is IS NULL, as SQLAlchemy makes it
                return node->op == GW_MINILANG_OP_EQ ? s_is(field, v)
                                                     : s_not(s_is(field, v));
            break;
        default:
            break;
    }
    if (null || v->type == GW_MINILANG_V_NULL)
        return GW_MINILANG_UNKNOWN;
    switch (node->op) {
        case GW_MINILANG_OP_EQ:
        case GW_MINILANG_OP_NE:
        case GW_MINILANG_OP_GT:
        case GW_MINILANG_OP_GE:
        case GW_MINILANG_OP_LT:
        case GW_MINILANG_OP_LE: {
            int c = s_compare(field, v);
            if (c == 2)
                return node->op == GW_MINILANG_OP_NE ? GW_MINILANG_TRUE
                                                     : GW_MINILANG_FALSE;
            bool r = node->op == GW_MINILANG_OP_EQ   ? c == 0
                     : node->op == GW_MINILANG_OP_NE ? c != 0
                     : node->op == GW_MINILANG_OP_GT ? c > 0
                     : node->op == GW_MINILANG_OP_GE ? c >= 0
                     : node->op == GW_MINILANG_OP_LT ? c < 0
                                                     : c <= 0;
            return r ? GW_MINILANG_TRUE : GW_MINILANG_FALSE;
        }
        case GW_MINILANG_OP_IN: {
            bool has_null = false;
            for (size_t i = 0; i < v->count; i++) {
                if (v->items[i].type == GW_MINILANG_V_NULL)
                    has_null = true;
                else if (s_compare(field, &v->items[i]) == 0)
                    return GW_MINILANG_TRUE;
            }
            return has_null ? GW_MINILANG_UNKNOWN : GW_MINILANG_FALSE;
        }
        case GW_MINILANG_OP_LIKE:
        case GW_MINILANG_OP_ILIKE:
            if (!json_is_string(field))
                return GW_MINILANG_UNKNOWN;
            return s_like(v->string, v->length, json_string_value(field),
                          json_string_length(field), node->op == GW_MINILANG_OP_ILIKE)
                       ? GW_MINILANG_TRUE
                       : GW_MINILANG_FALSE;
        case GW_MINILANG_OP_CONTAINS:
            if (json_is_string(field) && node->pattern)
                return s_like(node->pattern, node->pattern_length,
                              json_string_value(field), json_string_length(field), false)
                           ? GW_MINILANG_TRUE
                           : GW_MINILANG_FALSE;
            return s_compare(field, v) == 0 ? GW_MINILANG_TRUE : GW_MINILANG_FALSE;
        default:
            return GW_MINILANG_UNKNOWN;
    }
}

//  contains on an array field: each wanted value is one of its items.
static gw_minilang_tri_t
s_array_contains(const json_t *array, const gw_minilang_value_t *v)
{
    size_t wanted = v->type == GW_MINILANG_V_LIST ? v->count : 1;
    for (size_t w = 0; w < wanted; w++) {
        const gw_minilang_value_t *want =
            v->type == GW_MINILANG_V_LIST ? &v->items[w] : v;
        bool found = false;
        for (size_t i = 0; i < json_array_size(array) && !found; i++)
            found = s_compare(json_array_get(array, i), want) == 0;
        if (!found)
            return GW_MINILANG_FALSE;
    }
    return GW_MINILANG_TRUE;
}

static gw_minilang_tri_t
s_eval(const gw_minilang_node_t *node, const json_t *item)
{
    switch (node->type) {
        case GW_MINILANG_N_NOT:
            return s_not(s_eval(node->child, item));
        case GW_MINILANG_N_CHAIN: {
            //  Right-grouped: a op (b op (c ...)), folded from the right.
            gw_minilang_tri_t result = s_eval(node->nodes[node->count - 1], item);
            for (size_t i = node->count - 1; i-- > 0;) {
                gw_minilang_tri_t left = s_eval(node->nodes[i], item);
                result = node->ops[i] == '&' ? s_and(left, result) : s_or(left, result);
            }
            return result;
        }
        case GW_MINILANG_N_CMP:
        default: {
            const json_t *field = json_object_get(item, node->field);
            if (!json_is_array(field))
                return s_compare_scalar(node, field);
            if (node->op == GW_MINILANG_OP_CONTAINS)
                return s_array_contains(field, &node->value);
            //  As Backend.AI's array fields: any item satisfying it is enough.
            gw_minilang_tri_t result = GW_MINILANG_FALSE;
            for (size_t i = 0; i < json_array_size(field) && result != GW_MINILANG_TRUE;
                 i++)
                result = s_or(result, s_compare_scalar(node, json_array_get(field, i)));
            return result;
        }
    }
}

bool
gw_minilang_filter_match(const gw_minilang_filter_t *self, const json_t *item)
{
    assert(self);
    return json_is_object(item) && s_eval(self->root, item) == GW_MINILANG_TRUE;
}

void
gw_minilang_filter_destroy(gw_minilang_filter_t **self_p)
{
    assert(self_p);
    if (*self_p) {
        gw_minilang_node_free((*self_p)->root);
        free(*self_p);
        *self_p = NULL;
    }
}

//  ---------------------------------------------------------------------
//  Ordering

typedef struct {
    char *field;
    bool descending;
} s_key_t;

//  Sort rank of a JSON type: bool, number, string, other, then null last.
static int
s_rank(const json_t *v)
{
    if (!v || json_is_null(v))
        return 4;
    if (json_is_boolean(v))
        return 0;
    if (json_is_number(v))
        return 1;
    if (json_is_string(v))
        return 2;
    return 3;
}

static int
s_order_compare(const json_t *a, const json_t *b, const s_key_t *keys, size_t count)
{
    for (size_t k = 0; k < count; k++) {
        const json_t *x = json_object_get(a, keys[k].field);
        const json_t *y = json_object_get(b, keys[k].field);
        int rx = s_rank(x), ry = s_rank(y);
        int c = rx < ry ? -1 : rx > ry;
        if (c == 0 && rx == 0)
            c = json_is_true(x) - json_is_true(y);
        else if (c == 0 && rx == 1) {
            if (json_is_integer(x) && json_is_integer(y)) {
                json_int_t i = json_integer_value(x), j = json_integer_value(y);
                c = i < j ? -1 : i > j;
            } else {
                double i = json_number_value(x), j = json_number_value(y);
                c = i < j ? -1 : i > j;
            }
        } else if (c == 0 && rx == 2) {
            size_t xn = json_string_length(x), yn = json_string_length(y);
            int m = memcmp(json_string_value(x), json_string_value(y), xn < yn ? xn : yn);
            c = m ? (m < 0 ? -1 : 1) : (xn < yn ? -1 : xn > yn);
        }
        if (c != 0)
            return keys[k].descending ? -c : c;
    }
    return 0;
}

//  Stable merge sort of items[0..n) using scratch of the same size.
static void
s_merge_sort(
    json_t **items, json_t **scratch, size_t n, const s_key_t *keys, size_t count)
{
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                scratch[o++] = s_order_compare(items[j], items[i], keys, count) < 0
                                   ? items[j++]
                                   : items[i++];
            while (i < mid)
                scratch[o++] = items[i++];
            while (j < hi)
                scratch[o++] = items[j++];
        }
        memcpy(items, scratch, n * sizeof *items);
    }
}

//  The keys of an order text, or -1 with the message.
static int
s_parse_order(gw_minilang_parser_t *p, s_key_t **keys_p, size_t *count_p)
{
    s_key_t *keys = NULL;
    size_t count = 0, capacity = 0;
    gw_minilang_next(p);
    if (p->token.type != GW_MINILANG_T_END) {
        while (!p->failed) {
            bool descending = false;
            if (p->token.type == GW_MINILANG_T_PLUS ||
                p->token.type == GW_MINILANG_T_MINUS) {
                descending = p->token.type == GW_MINILANG_T_MINUS;
                gw_minilang_next(p);
            }
            if (p->token.type != GW_MINILANG_T_IDENT) {
                gw_minilang_unexpected(p);
                break;
            }
            if (count == capacity) {
                capacity = capacity ? capacity * 2 : 4;
                s_key_t *more = realloc(keys, capacity * sizeof *keys);
                if (!more) {
                    gw_minilang_fail(p, "out of memory");
                    break;
                }
                keys = more;
            }
            keys[count].field = strndup(p->text + p->token.start, p->token.length);
            keys[count].descending = descending;
            if (!keys[count].field) {
                gw_minilang_fail(p, "out of memory");
                break;
            }
            count++;
            if (!gw_minilang_field_allowed(p, keys[count - 1].field))
                break;
            gw_minilang_next(p);
            if (p->token.type == GW_MINILANG_T_END)
                break;
            if (p->token.type != GW_MINILANG_T_COMMA) {
                gw_minilang_unexpected(p);
                break;
            }
            gw_minilang_next(p);
        }
    }
    if (p->failed) {
        for (size_t i = 0; i < count; i++)
            free(keys[i].field);
        free(keys);
        return -1;
    }
    *keys_p = keys;
    *count_p = count;
    return 0;
}

int
gw_minilang_order(json_t *items,
                  const char *text,
                  const char *const *fields,
                  char *error,
                  size_t error_size)
{
    assert(json_is_array(items));
    gw_minilang_parser_t p;
    if (!gw_minilang_parser_init(&p, text, fields, "Query ordering parsing error", error,
                                 error_size))
        return -1;
    s_key_t *keys = NULL;
    size_t count = 0;
    if (s_parse_order(&p, &keys, &count) != 0)
        return -1;
    size_t n = json_array_size(items);
    int rc = 0;
    if (count > 0 && n > 1) {
        json_t **array = malloc(2 * n * sizeof *array);
        if (array) {
            for (size_t i = 0; i < n; i++)
                array[i] = json_incref(json_array_get(items, i));
            s_merge_sort(array, array + n, n, keys, count);
            json_array_clear(items);
            for (size_t i = 0; i < n; i++)
                json_array_append_new(items, array[i]);
            free(array);
        } else {
            gw_minilang_fail(&p, "out of memory");
            rc = -1;
        }
    }
    for (size_t i = 0; i < count; i++)
        free(keys[i].field);
    free(keys);
    return rc;
}

//  ---------------------------------------------------------------------
//  Pushdown

typedef struct {
    const gw_minilang_column_t *columns;
    size_t values; //  bound so far
} s_push_t;

static const gw_minilang_column_t *
s_push_column(const s_push_t *push, const char *field, bool text)
{
    for (const gw_minilang_column_t *c = push->columns; c && c->field; c++)
        if (strcmp(c->field, field) == 0)
            return !text || c->text ? c : NULL;
    return NULL;
}

//  A minilang like pattern (% _ and \ escaping the next character, a lone
//  trailing \ itself, as s_like reads it) as SQLite's LIKE ... ESCAPE '\'
//  (glob false) or GLOB (glob true). NULL when out of memory or longer
//  than GW_MINILANG_PUSH_PATTERN_MAX.
static json_t *
s_push_pattern(const char *pat, size_t pn, bool glob)
{
    char *out = malloc(3 * pn + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < pn; i++) {
        char c = pat[i];
        bool literal = true;
        if (c == '%' || c == '_') {
            out[o++] = glob ? (c == '%' ? '*' : '?') : c;
            literal = false;
        } else if (c == '\\' && i + 1 < pn)
            c = pat[++i];
        if (!literal)
            continue;
        if (glob && (c == '*' || c == '?' || c == '[')) {
            out[o++] = '[';
            out[o++] = c;
            out[o++] = ']';
        } else {
            if (!glob && (c == '%' || c == '_' || c == '\\'))
                out[o++] = '\\';
            out[o++] = c;
        }
    }
    json_t *text = o <= GW_MINILANG_PUSH_PATTERN_MAX ? json_stringn(out, o) : NULL;
    free(out);
    return text;
}

static json_t *s_push_node(s_push_t *push, const gw_minilang_node_t *node, int *depth);

//  One comparison, or NULL when it stays in memory.
static json_t *
s_push_compare(s_push_t *push, const gw_minilang_node_t *node)
{
    const gw_minilang_column_t *c = s_push_column(push, node->field, true);
    if (!c)
        return NULL;
    const gw_minilang_value_t *v = &node->value;
    static const char *const ops[] = {
        [GW_MINILANG_OP_EQ] = "=", [GW_MINILANG_OP_NE] = "<>",
        [GW_MINILANG_OP_GT] = ">", [GW_MINILANG_OP_GE] = ">=",
        [GW_MINILANG_OP_LT] = "<", [GW_MINILANG_OP_LE] = "<="};
    switch (node->op) {
        case GW_MINILANG_OP_IS:
        case GW_MINILANG_OP_ISNOT:
            //  is true/false: a text field is never a boolean, null or not.
            if (v->type != GW_MINILANG_V_NULL)
                return json_pack("[s]",
                                 (node->op == GW_MINILANG_OP_IS) ? "false" : "true");
            return json_pack("[s, s]",
                             node->op == GW_MINILANG_OP_IS ? "isnull" : "notnull",
                             c->column);
        case GW_MINILANG_OP_EQ:
        case GW_MINILANG_OP_NE:
        case GW_MINILANG_OP_GT:
        case GW_MINILANG_OP_GE:
        case GW_MINILANG_OP_LT:
        case GW_MINILANG_OP_LE:
            if (v->type == GW_MINILANG_V_NULL) {
                if (node->op == GW_MINILANG_OP_EQ || node->op == GW_MINILANG_OP_NE)
                    return json_pack("[s, s]",
                                     node->op == GW_MINILANG_OP_EQ ? "isnull" : "notnull",
                                     c->column);
                return json_pack("[s]", "unknown");
            }
            if (v->type != GW_MINILANG_V_STRING ||
                push->values >= GW_MINILANG_PUSH_VALUES_MAX)
                return NULL;
            push->values++;
            return json_pack("[s, s, s%]", ops[node->op], c->column, v->string,
                             v->length);
        case GW_MINILANG_OP_IN: {
            //  Items of another type never equal a string: left out.
            json_t *items = json_array();
            bool has_null = false;
            for (size_t i = 0; i < v->count; i++) {
                const gw_minilang_value_t *item = &v->items[i];
                if (item->type == GW_MINILANG_V_NULL)
                    has_null = true;
                else if (item->type == GW_MINILANG_V_STRING) {
                    if (push->values >= GW_MINILANG_PUSH_VALUES_MAX) {
                        json_decref(items);
                        return NULL;
                    }
                    push->values++;
                    json_array_append_new(items,
                                          json_stringn(item->string, item->length));
                }
            }
            if (json_array_size(items) == 0) {
                //  Nothing can equal it: unknown with a null in the list or a
                //  null field, else false.
                json_decref(items);
                return has_null ? json_pack("[s]", "unknown")
                                : json_pack("[s, [s, s], [s]]", "and", "isnull",
                                            c->column, "unknown");
            }
            if (has_null)
                json_array_append_new(items, json_null());
            return json_pack("[s, s, o]", "in", c->column, items);
        }
        case GW_MINILANG_OP_LIKE:
        case GW_MINILANG_OP_ILIKE:
        case GW_MINILANG_OP_CONTAINS: {
            //  contains on a string is like %value% (its % and _ still wild).
            const char *pat =
                node->op == GW_MINILANG_OP_CONTAINS ? node->pattern : v->string;
            size_t pn =
                node->op == GW_MINILANG_OP_CONTAINS ? node->pattern_length : v->length;
            if (!pat || push->values >= GW_MINILANG_PUSH_VALUES_MAX)
                return NULL;
            json_t *pattern = s_push_pattern(pat, pn, node->op != GW_MINILANG_OP_ILIKE);
            if (!pattern)
                return NULL;
            push->values++;
            return json_pack("[s, s, o]",
                             node->op == GW_MINILANG_OP_ILIKE ? "like" : "glob",
                             c->column, pattern);
        }
        default:
            return NULL;
    }
}

//  nodes[start..] of a chain, right-grouped: a op (b op (c ...)), with runs
//  of one operator flat. NULL when any part stays in memory.
static json_t *
s_push_chain(s_push_t *push, const gw_minilang_node_t *chain, size_t start, int *depth)
{
    json_t *result = s_push_node(push, chain->nodes[chain->count - 1], depth);
    for (size_t i = chain->count - 1; result && i-- > start;) {
        int left_depth = 0;
        json_t *left = s_push_node(push, chain->nodes[i], &left_depth);
        const char *op = chain->ops[i] == '&' ? "and" : "or";
        if (!left) {
            json_decref(result);
            return NULL;
        }
        const char *result_op = json_string_value(json_array_get(result, 0));
        if (result_op && strcmp(result_op, op) == 0 && json_array_size(result) > 2) {
            json_array_insert_new(result, 1, left);
            *depth = *depth > left_depth + 1 ? *depth : left_depth + 1;
        } else {
            result = json_pack("[s, o, o]", op, left, result);
            *depth = 1 + (*depth > left_depth ? *depth : left_depth);
        }
        if (*depth > GW_MINILANG_PUSH_DEPTH_MAX) {
            json_decref(result);
            return NULL;
        }
    }
    return result;
}

//  A node as a term with its depth, or NULL when it stays in memory.
static json_t *
s_push_node(s_push_t *push, const gw_minilang_node_t *node, int *depth)
{
    *depth = 1;
    if (node->type == GW_MINILANG_N_CMP)
        return s_push_compare(push, node);
    if (node->type == GW_MINILANG_N_NOT) {
        json_t *child = s_push_node(push, node->child, depth);
        if (!child || ++*depth > GW_MINILANG_PUSH_DEPTH_MAX) {
            json_decref(child);
            return NULL;
        }
        return json_pack("[s, o]", "not", child);
    }
    return s_push_chain(push, node, 0, depth);
}

//  Adds the top-level conjuncts of node to terms; false when one of them
//  stays in memory. Each conjunct pushes whole or not at all.
static bool
s_push_conjuncts(s_push_t *push, const gw_minilang_node_t *node, json_t *terms)
{
    bool complete = true;
    size_t start = 0;
    if (node->type == GW_MINILANG_N_CHAIN) {
        //  a & (b op ...): a is a conjunct, and so are the rest's.
        for (; start + 1 < node->count && node->ops[start] == '&'; start++)
            complete &= s_push_conjuncts(push, node->nodes[start], terms);
        if (start + 1 == node->count)
            return s_push_conjuncts(push, node->nodes[start], terms) && complete;
    }
    size_t values = push->values;
    int depth = 0;
    json_t *term = node->type == GW_MINILANG_N_CHAIN
                       ? s_push_chain(push, node, start, &depth)
                       : s_push_node(push, node, &depth);
    if (!term) {
        push->values = values; //  what it bound is not sent
        return false;
    }
    json_array_append_new(terms, term);
    return complete;
}

json_t *
gw_minilang_filter_pushdown(const gw_minilang_filter_t *self,
                            const gw_minilang_column_t *columns,
                            bool *complete)
{
    assert(self && complete);
    s_push_t push = {columns, 0};
    json_t *terms = json_array();
    *complete = s_push_conjuncts(&push, self->root, terms);
    if (json_array_size(terms) == 0) {
        json_decref(terms);
        return NULL;
    }
    json_array_insert_new(terms, 0, json_string("and"));
    return terms;
}

int
gw_minilang_order_pushdown(const char *text,
                           const char *const *fields,
                           const gw_minilang_column_t *columns,
                           char *out,
                           size_t out_size,
                           char *error,
                           size_t error_size)
{
    assert(out && out_size > 0);
    out[0] = '\0';
    gw_minilang_parser_t p;
    if (!gw_minilang_parser_init(&p, text, fields, "Query ordering parsing error", error,
                                 error_size))
        return -1;
    s_key_t *keys = NULL;
    size_t count = 0;
    if (s_parse_order(&p, &keys, &count) != 0)
        return -1;
    s_push_t push = {columns, 0};
    int rc = count > GW_MINILANG_PUSH_ORDER_MAX ? 1 : 0;
    size_t used = 0;
    for (size_t i = 0; i < count && rc == 0; i++) {
        const gw_minilang_column_t *c = s_push_column(&push, keys[i].field, false);
        int n = c ? snprintf(out + used, out_size - used, "%s%s%s", i ? "," : "",
                             keys[i].descending ? "-" : "", c->column)
                  : -1;
        if (n < 0 || (size_t) n >= out_size - used)
            rc = 1;
        else
            used += (size_t) n;
    }
    for (size_t i = 0; i < count; i++)
        free(keys[i].field);
    free(keys);
    if (rc != 0)
        out[0] = '\0';
    return rc;
}
