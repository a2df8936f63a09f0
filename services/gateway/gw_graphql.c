/*  =========================================================================
    gw_graphql - the GraphQL parser and its documents

    A recursive-descent parser over the lexer (gw_graphql_lex), one token of
    look-ahead. While parsing, each operation and fragment notes the
    variables it reads and the fragments it spreads (gw_graphql_check
    validates from these notes and inlines the fragments). Everything lives
    in the document's arena.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "gw_graphql_private.h"
//  isfinite, for float literals such as 1e999
#include <math.h>

//  As graphql-js names them in messages; punctuators quoted.
static const char *s_kind_names[] = {
    "<EOF>", "\"!\"", "\"$\"", "\"&\"", "\"(\"",  "\")\"",      "\"...\"",
    "\":\"", "\"=\"", "\"@\"", "\"[\"", "\"]\"",  "\"{\"",      "\"|\"",
    "\"}\"", "Name",  "Int",   "Float", "String", "BlockString"};

//  ---------------------------------------------------------------------------
//  Parser

static bool
s_peek_name(gw_graphql_parser_t *p, const char *word)
{
    size_t len = strlen(word);
    return p->tok.kind == T_NAME && p->tok.end - p->tok.start == len &&
           memcmp(p->src + p->tok.start, word, len) == 0;
}

//  The current token as graphql-js describes it: "}" or Name "foo".
static const char *
s_token_desc(gw_graphql_parser_t *p, char *out, size_t size)
{
    gw_graphql_token_t *tok = &p->tok;
    char shown[GW_GRAPHQL_SHOWN_SIZE];
    if (tok->kind == T_STRING || tok->kind == T_BLOCK_STRING)
        snprintf(out, size, "%s \"%s\"", s_kind_names[tok->kind],
                 gw_graphql_excerpt(tok->value, tok->length, shown));
    else if (tok->kind == T_NAME || tok->kind == T_INT || tok->kind == T_FLOAT)
        snprintf(out, size, "%s \"%s\"", s_kind_names[tok->kind],
                 gw_graphql_excerpt((const char *) p->src + tok->start,
                                    tok->end - tok->start, shown));
    else
        snprintf(out, size, "%s", s_kind_names[tok->kind]);
    return out;
}

static int
s_unexpected(gw_graphql_parser_t *p)
{
    char desc[GW_GRAPHQL_SHOWN_SIZE + 32];
    gw_graphql_fail(p, p->tok.line, p->tok.column, "Syntax Error: Unexpected %s.",
                    s_token_desc(p, desc, sizeof desc));
    return -1;
}

static int
s_expect(gw_graphql_parser_t *p, gw_graphql_token_kind_t kind)
{
    if (p->tok.kind == kind)
        return gw_graphql_next(p);
    char desc[GW_GRAPHQL_SHOWN_SIZE + 32];
    gw_graphql_fail(p, p->tok.line, p->tok.column, "Syntax Error: Expected %s, found %s.",
                    s_kind_names[kind], s_token_desc(p, desc, sizeof desc));
    return -1;
}

//  The current Name token, copied, and the next token read; or NULL.
static const char *
s_expect_name(gw_graphql_parser_t *p)
{
    if (p->tok.kind != T_NAME) {
        s_expect(p, T_NAME);
        return NULL;
    }
    const char *name =
        gw_graphql_strndup(p, p->src + p->tok.start, p->tok.end - p->tok.start);
    if (!name || gw_graphql_next(p) != 0)
        return NULL;
    return name;
}

static int
s_enter(gw_graphql_parser_t *p)
{
    if (++p->depth > GW_GQL_MAX_DEPTH) {
        gw_graphql_fail(p, p->tok.line, p->tok.column,
                        "Syntax Error: Document is nested more than %d levels deep.",
                        GW_GQL_MAX_DEPTH);
        return -1;
    }
    return 0;
}

static int
s_compare_arguments(const void *a, const void *b)
{
    const gw_gql_argument_t *x = *(const gw_gql_argument_t *const *) a;
    const gw_gql_argument_t *y = *(const gw_gql_argument_t *const *) b;
    return strcmp(x->name, y->name);
}

bool
gw_graphql_is_after(int line, int column, int other_line, int other_column)
{
    return line > other_line || (line == other_line && column > other_column);
}

//  Names in a list of arguments or object fields are unique: sort a copy
//  (no input makes it quadratic) and compare neighbours. what is
//  "argument" or "input field".
static int
s_check_unique(gw_graphql_parser_t *p,
               const gw_gql_argument_t *list,
               size_t count,
               const char *what)
{
    if (count < 2)
        return 0;
    const gw_gql_argument_t **sorted = gw_graphql_alloc(p, count * sizeof *sorted);
    if (!sorted)
        return -1;
    for (size_t i = 0; i < count; i++)
        sorted[i] = &list[i];
    qsort(sorted, count, sizeof *sorted, s_compare_arguments);
    for (size_t i = 1; i < count; i++)
        if (strcmp(sorted[i - 1]->name, sorted[i]->name) == 0) {
            const gw_gql_argument_t *later = sorted[i];
            if (gw_graphql_is_after(sorted[i - 1]->line, sorted[i - 1]->column,
                                    later->line, later->column))
                later = sorted[i - 1];
            gw_graphql_fail(p, later->line, later->column,
                            "There can be only one %s named \"%s\".", what, later->name);
            return -1;
        }
    return 0;
}

static int s_parse_value(gw_graphql_parser_t *p, bool is_const, gw_gql_value_t *value);

//  Name ":" Value, for arguments and object fields.
static int
s_parse_named_value(gw_graphql_parser_t *p, bool is_const, gw_gql_argument_t *out)
{
    memset(out, 0, sizeof *out);
    out->line = p->tok.line;
    out->column = p->tok.column;
    out->name = s_expect_name(p);
    if (!out->name || s_expect(p, T_COLON) != 0)
        return -1;
    return s_parse_value(p, is_const, &out->value);
}

//  A signed decimal that must fit int64.
static int
s_parse_int(gw_graphql_parser_t *p, gw_gql_value_t *value)
{
    const char *text = value->text;
    bool negative = text[0] == '-';
    uint64_t limit = negative ? UINT64_C(9223372036854775808) : INT64_MAX, number = 0;
    for (const char *d = text + negative; *d; d++) {
        uint64_t digit = (uint64_t) (*d - '0');
        if (number > (limit - digit) / 10) {
            char shown[GW_GRAPHQL_SHOWN_SIZE];
            gw_graphql_fail(p, value->line, value->column,
                            "Int cannot represent non 64-bit signed integer value: %s",
                            gw_graphql_excerpt(text, value->length, shown));
            return -1;
        }
        number = number * 10 + digit;
    }
    value->integer = negative ? (int64_t) (0 - number) : (int64_t) number;
    return 0;
}

static int
s_parse_value(gw_graphql_parser_t *p, bool is_const, gw_gql_value_t *value)
{
    gw_graphql_token_t *tok = &p->tok;
    memset(value, 0, sizeof *value);
    value->line = tok->line;
    value->column = tok->column;
    switch (tok->kind) {
        case T_BRACKET_L:
        case T_BRACE_L: {
            bool is_list = tok->kind == T_BRACKET_L;
            if (s_enter(p) != 0 || gw_graphql_next(p) != 0)
                return -1;
            gw_graphql_vec_t list = {0};
            while (tok->kind != (is_list ? T_BRACKET_R : T_BRACE_R)) {
                if (is_list) {
                    gw_gql_value_t item, *slot;
                    if (s_parse_value(p, is_const, &item) != 0 ||
                        !(slot = gw_graphql_vec_push(p, &list, sizeof item)))
                        return -1;
                    *slot = item;
                } else {
                    gw_gql_argument_t field, *slot;
                    if (s_parse_named_value(p, is_const, &field) != 0 ||
                        !(slot = gw_graphql_vec_push(p, &list, sizeof field)))
                        return -1;
                    *slot = field;
                }
            }
            p->depth--;
            value->kind = is_list ? GW_GQL_LIST : GW_GQL_OBJECT;
            value->count = list.count;
            if (is_list)
                value->items = list.data;
            else {
                value->fields = list.data;
                if (s_check_unique(p, value->fields, list.count, "input field") != 0)
                    return -1;
            }
            return gw_graphql_next(p);
        }
        case T_INT:
        case T_FLOAT:
            value->length = tok->end - tok->start;
            value->text = gw_graphql_strndup(p, p->src + tok->start, value->length);
            if (!value->text)
                return -1;
            if (tok->kind == T_INT) {
                value->kind = GW_GQL_INT;
                if (s_parse_int(p, value) != 0)
                    return -1;
            } else {
                value->kind = GW_GQL_FLOAT;
                value->number = strtod(value->text, NULL);
                if (!isfinite(value->number)) {
                    char shown[GW_GRAPHQL_SHOWN_SIZE];
                    gw_graphql_fail(
                        p, value->line, value->column,
                        "Float cannot represent non numeric value: %s",
                        gw_graphql_excerpt(value->text, value->length, shown));
                    return -1;
                }
            }
            return gw_graphql_next(p);
        case T_STRING:
        case T_BLOCK_STRING:
            value->kind = GW_GQL_STRING;
            value->text = tok->value;
            value->length = tok->length;
            return gw_graphql_next(p);
        case T_NAME:
            if (s_peek_name(p, "true") || s_peek_name(p, "false")) {
                value->kind = GW_GQL_BOOLEAN;
                value->boolean = s_peek_name(p, "true");
                return gw_graphql_next(p);
            }
            if (s_peek_name(p, "null")) {
                value->kind = GW_GQL_NULL;
                return gw_graphql_next(p);
            }
            value->kind = GW_GQL_ENUM;
            value->text = s_expect_name(p);
            value->length = value->text ? strlen(value->text) : 0;
            return value->text ? 0 : -1;
        case T_DOLLAR:
            if (gw_graphql_next(p) != 0)
                return -1;
            if (is_const) {
                if (tok->kind != T_NAME)
                    return s_unexpected(p);
                gw_graphql_fail(
                    p, value->line, value->column,
                    "Syntax Error: Unexpected variable \"$%.*s\" in constant value.",
                    (int) (tok->end - tok->start), (const char *) p->src + tok->start);
                return -1;
            }
            value->kind = GW_GQL_VARIABLE;
            value->text = s_expect_name(p);
            if (!value->text)
                return -1;
            value->length = strlen(value->text);
            {
                gw_graphql_ref_t *usage =
                    gw_graphql_vec_push(p, &p->refs->usages, sizeof *usage);
                if (!usage)
                    return -1;
                usage->name = value->text;
                usage->line = value->line;
                usage->column = value->column;
            }
            return 0;
        default:
            return s_unexpected(p);
    }
}

//  "(" arguments ")" if present; at least one inside.
static int
s_parse_arguments(gw_graphql_parser_t *p,
                  bool is_const,
                  const gw_gql_argument_t **arguments,
                  size_t *count)
{
    *arguments = NULL;
    *count = 0;
    if (p->tok.kind != T_PAREN_L)
        return 0;
    if (gw_graphql_next(p) != 0)
        return -1;
    gw_graphql_vec_t list = {0};
    do {
        gw_gql_argument_t argument, *slot;
        if (s_parse_named_value(p, is_const, &argument) != 0 ||
            !(slot = gw_graphql_vec_push(p, &list, sizeof argument)))
            return -1;
        *slot = argument;
    } while (p->tok.kind != T_PAREN_R);
    *arguments = list.data;
    *count = list.count;
    if (s_check_unique(p, *arguments, *count, "argument") != 0)
        return -1;
    return gw_graphql_next(p);
}

//  Directives where they may stand. location names the place where none is
//  allowed (QUERY, VARIABLE_DEFINITION, ...); NULL where @skip and
//  @include are (fields, spreads, inline fragments).
static int
s_parse_directives(gw_graphql_parser_t *p,
                   const char *location,
                   bool is_const,
                   const gw_gql_directive_t **directives,
                   size_t *count)
{
    gw_graphql_vec_t list = {0};
    while (p->tok.kind == T_AT) {
        int line = p->tok.line, column = p->tok.column;
        if (gw_graphql_next(p) != 0)
            return -1;
        const char *name = s_expect_name(p);
        if (!name)
            return -1;
        if (strcmp(name, "skip") != 0 && strcmp(name, "include") != 0) {
            gw_graphql_fail(p, line, column, "Unknown directive \"@%s\".", name);
            return -1;
        }
        if (location) {
            gw_graphql_fail(p, line, column, "Directive \"@%s\" may not be used on %s.",
                            name, location);
            return -1;
        }
        const gw_gql_directive_t *seen = list.data;
        for (size_t i = 0; i < list.count; i++)
            if (strcmp(seen[i].name, name) == 0) {
                gw_graphql_fail(
                    p, line, column,
                    "The directive \"@%s\" can only be used once at this location.",
                    name);
                return -1;
            }
        const gw_gql_argument_t *arguments;
        size_t argument_count;
        if (s_parse_arguments(p, is_const, &arguments, &argument_count) != 0)
            return -1;
        const gw_gql_value_t *condition = NULL;
        for (size_t i = 0; i < argument_count; i++) {
            if (strcmp(arguments[i].name, "if") != 0) {
                gw_graphql_fail(p, arguments[i].line, arguments[i].column,
                                "Unknown argument \"%s\" on directive \"@%s\".",
                                arguments[i].name, name);
                return -1;
            }
            condition = &arguments[i].value;
        }
        if (!condition) {
            gw_graphql_fail(
                p, line, column,
                "Directive \"@%s\" argument \"if\" of type \"Boolean!\" is required, but "
                "it was not provided.",
                name);
            return -1;
        }
        if (condition->kind != GW_GQL_BOOLEAN && condition->kind != GW_GQL_VARIABLE) {
            gw_graphql_fail(p, condition->line, condition->column,
                            "Argument \"if\" of directive \"@%s\" must be a Boolean.",
                            name);
            return -1;
        }
        gw_gql_directive_t *slot = gw_graphql_vec_push(p, &list, sizeof *slot);
        if (!slot)
            return -1;
        slot->name = name;
        slot->condition = condition;
        slot->line = line;
        slot->column = column;
    }
    *directives = list.data;
    *count = list.count;
    return 0;
}

static const gw_graphql_psel_t *s_parse_selection_set(gw_graphql_parser_t *p);

static int
s_parse_selection(gw_graphql_parser_t *p, gw_graphql_item_t *item)
{
    memset(item, 0, sizeof *item);
    item->line = p->tok.line;
    item->column = p->tok.column;
    if (p->tok.kind == T_SPREAD) {
        if (gw_graphql_next(p) != 0)
            return -1;
        if (p->tok.kind == T_NAME && !s_peek_name(p, "on")) {
            item->kind = S_SPREAD;
            item->name = s_expect_name(p);
            if (!item->name)
                return -1;
            gw_graphql_ref_t *ref =
                gw_graphql_vec_push(p, &p->refs->spreads, sizeof *ref);
            if (!ref)
                return -1;
            ref->name = item->name;
            ref->line = item->line;
            ref->column = item->column;
            return s_parse_directives(p, NULL, false, &item->directives,
                                      &item->directive_count);
        }
        item->kind = S_INLINE;
        if (s_peek_name(p, "on")) {
            if (gw_graphql_next(p) != 0 || !(item->name = s_expect_name(p)))
                return -1;
        }
        if (s_parse_directives(p, NULL, false, &item->directives,
                               &item->directive_count) != 0)
            return -1;
        item->selection = s_parse_selection_set(p);
        return item->selection ? 0 : -1;
    }
    item->kind = S_FIELD;
    item->name = s_expect_name(p);
    if (!item->name)
        return -1;
    if (p->tok.kind == T_COLON) {
        item->alias = item->name;
        if (gw_graphql_next(p) != 0 || !(item->name = s_expect_name(p)))
            return -1;
    }
    if (s_parse_arguments(p, false, &item->arguments, &item->argument_count) != 0 ||
        s_parse_directives(p, NULL, false, &item->directives, &item->directive_count) !=
            0)
        return -1;
    if (p->tok.kind == T_BRACE_L) {
        item->selection = s_parse_selection_set(p);
        return item->selection ? 0 : -1;
    }
    return 0;
}

//  "{" selections "}": at least one.
static const gw_graphql_psel_t *
s_parse_selection_set(gw_graphql_parser_t *p)
{
    if (p->tok.kind != T_BRACE_L) {
        s_expect(p, T_BRACE_L);
        return NULL;
    }
    if (s_enter(p) != 0 || gw_graphql_next(p) != 0)
        return NULL;
    gw_graphql_vec_t items = {0};
    do {
        gw_graphql_item_t item, *slot;
        if (s_parse_selection(p, &item) != 0 ||
            !(slot = gw_graphql_vec_push(p, &items, sizeof item)))
            return NULL;
        *slot = item;
    } while (p->tok.kind != T_BRACE_R);
    p->depth--;
    gw_graphql_psel_t *set = gw_graphql_alloc(p, sizeof *set);
    if (!set || gw_graphql_next(p) != 0)
        return NULL;
    set->items = items.data;
    set->count = items.count;
    return set;
}

static const gw_gql_type_t *
s_parse_type(gw_graphql_parser_t *p)
{
    gw_gql_type_t *type = gw_graphql_alloc(p, sizeof *type);
    if (!type)
        return NULL;
    const char *inner;
    if (p->tok.kind == T_BRACKET_L) {
        if (s_enter(p) != 0 || gw_graphql_next(p) != 0 ||
            !(type->item = s_parse_type(p)) || s_expect(p, T_BRACKET_R) != 0)
            return NULL;
        p->depth--;
        inner = type->item->text;
    } else if (!(type->name = s_expect_name(p)))
        return NULL;
    else
        inner = type->name;
    if (p->tok.kind == T_BANG) {
        type->non_null = true;
        if (gw_graphql_next(p) != 0)
            return NULL;
    }
    size_t len = strlen(inner);
    char *text = gw_graphql_alloc(p, len + 4);
    if (!text)
        return NULL;
    snprintf(text, len + 4, "%s%s%s%s", type->item ? "[" : "", inner,
             type->item ? "]" : "", type->non_null ? "!" : "");
    type->text = text;
    return type;
}

static int
s_compare_variables(const void *a, const void *b)
{
    const gw_gql_variable_t *x = *(const gw_gql_variable_t *const *) a;
    const gw_gql_variable_t *y = *(const gw_gql_variable_t *const *) b;
    return strcmp(x->name, y->name);
}

//  "(" $name: Type = default ... ")"; then the sorted index.
static int
s_parse_variable_definitions(gw_graphql_parser_t *p, gw_graphql_operation_t *op)
{
    gw_graphql_vec_t list = {0};
    if (gw_graphql_next(p) != 0)
        return -1;
    do {
        gw_gql_variable_t variable = {0}, *slot;
        variable.line = p->tok.line;
        variable.column = p->tok.column;
        if (s_expect(p, T_DOLLAR) != 0 || !(variable.name = s_expect_name(p)) ||
            s_expect(p, T_COLON) != 0 || !(variable.type = s_parse_type(p)))
            return -1;
        if (p->tok.kind == T_EQUALS) {
            gw_gql_value_t *value = gw_graphql_alloc(p, sizeof *value);
            if (!value || gw_graphql_next(p) != 0 || s_parse_value(p, true, value) != 0)
                return -1;
            variable.default_value = value;
        }
        const gw_gql_directive_t *directives;
        size_t directive_count;
        if (s_parse_directives(p, "VARIABLE_DEFINITION", true, &directives,
                               &directive_count) != 0 ||
            !(slot = gw_graphql_vec_push(p, &list, sizeof variable)))
            return -1;
        *slot = variable;
    } while (p->tok.kind != T_PAREN_R);
    if (gw_graphql_next(p) != 0)
        return -1;
    op->pub.variables = list.data;
    op->pub.variable_count = list.count;
    op->sorted = gw_graphql_alloc(p, list.count * sizeof *op->sorted);
    if (!op->sorted)
        return -1;
    for (size_t i = 0; i < list.count; i++)
        op->sorted[i] = &op->pub.variables[i];
    qsort(op->sorted, list.count, sizeof *op->sorted, s_compare_variables);
    for (size_t i = 1; i < list.count; i++)
        if (strcmp(op->sorted[i - 1]->name, op->sorted[i]->name) == 0) {
            const gw_gql_variable_t *later = op->sorted[i];
            if (gw_graphql_is_after(op->sorted[i - 1]->line, op->sorted[i - 1]->column,
                                    later->line, later->column))
                later = op->sorted[i - 1];
            gw_graphql_fail(p, later->line, later->column,
                            "There can be only one variable named \"$%s\".", later->name);
            return -1;
        }
    return 0;
}

static int
s_parse_operation(gw_graphql_parser_t *p)
{
    gw_graphql_operation_t *op = gw_graphql_alloc(p, sizeof *op), **slot;
    if (!op || !(slot = gw_graphql_vec_push(p, &p->operations, sizeof *slot)))
        return -1;
    *slot = op;
    op->pub.line = p->tok.line;
    op->pub.column = p->tok.column;
    op->pub.kind = "query";
    p->refs = &op->refs;
    if (p->tok.kind == T_NAME) {
        const char *location = "QUERY";
        if (s_peek_name(p, "mutation"))
            op->pub.kind = "mutation", location = "MUTATION";
        else if (s_peek_name(p, "subscription"))
            op->pub.kind = "subscription", location = "SUBSCRIPTION";
        if (gw_graphql_next(p) != 0)
            return -1;
        if (p->tok.kind == T_NAME && !(op->pub.name = s_expect_name(p)))
            return -1;
        if (p->tok.kind == T_PAREN_L && s_parse_variable_definitions(p, op) != 0)
            return -1;
        const gw_gql_directive_t *directives;
        size_t directive_count;
        if (s_parse_directives(p, location, false, &directives, &directive_count) != 0)
            return -1;
    }
    op->parsed = s_parse_selection_set(p);
    return op->parsed ? 0 : -1;
}

static int
s_parse_fragment(gw_graphql_parser_t *p)
{
    gw_graphql_fragment_t *fragment = gw_graphql_alloc(p, sizeof *fragment), **slot;
    if (!fragment || !(slot = gw_graphql_vec_push(p, &p->fragments, sizeof *slot)))
        return -1;
    *slot = fragment;
    fragment->line = p->tok.line;
    fragment->column = p->tok.column;
    p->refs = &fragment->refs;
    if (gw_graphql_next(p) != 0)
        return -1;
    if (s_peek_name(p, "on"))
        return s_unexpected(p);
    if (!(fragment->name = s_expect_name(p)))
        return -1;
    if (!s_peek_name(p, "on")) {
        char desc[GW_GRAPHQL_SHOWN_SIZE + 32];
        gw_graphql_fail(p, p->tok.line, p->tok.column,
                        "Syntax Error: Expected \"on\", found %s.",
                        s_token_desc(p, desc, sizeof desc));
        return -1;
    }
    const gw_gql_directive_t *directives;
    size_t directive_count;
    if (gw_graphql_next(p) != 0 || !(fragment->type_condition = s_expect_name(p)) ||
        s_parse_directives(p, "FRAGMENT_DEFINITION", false, &directives,
                           &directive_count) != 0)
        return -1;
    fragment->selection = s_parse_selection_set(p);
    return fragment->selection ? 0 : -1;
}

static int
s_parse_document(gw_graphql_parser_t *p)
{
    if (gw_graphql_next(p) != 0)
        return -1;
    if (p->tok.kind == T_EOF)
        return s_unexpected(p);
    while (p->tok.kind != T_EOF) {
        int rc;
        if (p->tok.kind == T_BRACE_L || s_peek_name(p, "query") ||
            s_peek_name(p, "mutation") || s_peek_name(p, "subscription"))
            rc = s_parse_operation(p);
        else if (s_peek_name(p, "fragment"))
            rc = s_parse_fragment(p);
        else
            rc = s_unexpected(p);
        if (rc != 0)
            return -1;
    }
    return 0;
}

//  ---------------------------------------------------------------------------
//  Documents

gw_gql_doc_t *
gw_gql_parse(const char *text, size_t size, gw_gql_error_t *err)
{
    assert(text || size == 0);
    gw_graphql_error_clear(err);
    if (size > GW_GQL_MAX_INPUT) {
        gw_graphql_error_set(err, 0, 0, "Document is larger than %d bytes.",
                             GW_GQL_MAX_INPUT);
        return NULL;
    }
    gw_gql_doc_t *doc = calloc(1, sizeof *doc);
    if (!doc) {
        gw_graphql_error_set(err, 0, 0, "Out of memory.");
        return NULL;
    }
    gw_graphql_parser_t parser = {0}, *p = &parser;
    p->doc = doc;
    p->src = (const unsigned char *) (text ? text : "");
    p->size = size;
    p->loc_line = 1;
    p->loc_column = 1;
    p->err = err;
    if (s_parse_document(p) == 0 && gw_graphql_validate(p) == 0) {
        gw_graphql_operation_t **ops = p->operations.data;
        for (size_t i = 0; i < p->operations.count; i++) {
            const gw_gql_selection_t *selection = gw_graphql_inline(p, ops[i]->parsed);
            if (!selection)
                break;
            ops[i]->pub.selection = *selection;
        }
    }
    if (p->failed) {
        gw_gql_doc_destroy(&doc);
        return NULL;
    }
    doc->operations = p->operations.data;
    doc->operation_count = p->operations.count;
    return doc;
}

void
gw_gql_doc_destroy(gw_gql_doc_t **self_p)
{
    assert(self_p);
    gw_gql_doc_t *self = *self_p;
    if (self) {
        while (self->chunks) {
            gw_graphql_chunk_t *next = self->chunks->next;
            free(self->chunks);
            self->chunks = next;
        }
        free(self);
        *self_p = NULL;
    }
}

const gw_gql_operation_t *
gw_gql_doc_operation(const gw_gql_doc_t *self, const char *name, gw_gql_error_t *err)
{
    assert(self);
    gw_graphql_error_clear(err);
    if (name && *name) {
        for (size_t i = 0; i < self->operation_count; i++)
            if (self->operations[i]->pub.name &&
                strcmp(self->operations[i]->pub.name, name) == 0)
                return &self->operations[i]->pub;
        char shown[GW_GRAPHQL_SHOWN_SIZE];
        gw_graphql_error_set(err, 0, 0, "Unknown operation named \"%s\".",
                             gw_graphql_excerpt(name, strlen(name), shown));
        return NULL;
    }
    if (self->operation_count == 1)
        return &self->operations[0]->pub;
    if (self->operation_count == 0)
        gw_graphql_error_set(err, 0, 0, "Must provide an operation.");
    else
        gw_graphql_error_set(
            err, 0, 0,
            "Must provide operation name if query contains multiple operations.");
    return NULL;
}

//  ---------------------------------------------------------------------------
