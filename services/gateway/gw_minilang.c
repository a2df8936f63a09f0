/*  =========================================================================
    gw_minilang - Backend.AI's filter and order minilang for *_list fields

    A hand-written parser for the two small languages that the `filter` and
    `order` arguments of Backend.AI's paginated GraphQL lists use, with the
    same grammar as the manager's lark grammars, and an evaluator that
    applies a filter to the JSON objects the gateway's resolvers produce,
    and a stable sort for the order (gw_minilang_eval). Pure: no I/O. Nesting is bounded
   by GW_MINILANG_MAX_DEPTH and the text by GW_MINILANG_MAX_TEXT; a run of & and | is kept
   as one flat node so that long chains cost no recursion.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "gw_minilang_private.h"

//  ---------------------------------------------------------------------
//  Lexer

static bool
s_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool
s_ident_char(char c)
{
    return s_ident_start(c) || (c >= '0' && c <= '9');
}

static bool
s_digit(char c)
{
    return c >= '0' && c <= '9';
}

void
gw_minilang_fail(gw_minilang_parser_t *p, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = true;
    if (!p->error || p->error_size == 0)
        return;
    int n = snprintf(p->error, p->error_size, "%s: ", p->prefix);
    if (n < 0 || (size_t) n >= p->error_size)
        return;
    va_list args;
    va_start(args, fmt);
    vsnprintf(p->error + n, p->error_size - (size_t) n, fmt, args);
    va_end(args);
}

//  The current token, printable and safe for JSON: ASCII, at most 24 bytes.
static void
s_describe(const gw_minilang_parser_t *p, char *out, size_t size)
{
    const gw_minilang_token_t *t = &p->token;
    if (t->type == GW_MINILANG_T_END) {
        snprintf(out, size, "end of input");
        return;
    }
    size_t n = 0;
    out[n++] = '\'';
    for (size_t i = 0; i < t->length && i < 24 && n + 6 < size; i++) {
        unsigned char c = (unsigned char) p->text[t->start + i];
        if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'')
            out[n++] = (char) c;
        else
            n += (size_t) snprintf(out + n, size - n, "\\x%02x", c);
    }
    if (t->length > 24 && n + 4 < size) {
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n++] = '\'';
    out[n] = '\0';
}

void
gw_minilang_unexpected(gw_minilang_parser_t *p)
{
    char what[160];
    s_describe(p, what, sizeof what);
    gw_minilang_fail(p, "unexpected %s at line %zu, column %zu", what, p->token.line,
                     p->token.column);
}

//  Reads the next token into p->token.
void
gw_minilang_next(gw_minilang_parser_t *p)
{
    const char *s = p->text;
    while (p->pos < p->size) {
        char c = s[p->pos];
        if (c == '\n') {
            p->line++;
            p->line_start = p->pos + 1;
        } else if (c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v')
            break;
        p->pos++;
    }
    gw_minilang_token_t *t = &p->token;
    t->start = p->pos;
    t->line = p->line;
    t->column = p->pos - p->line_start + 1;
    t->length = 1;
    if (p->pos >= p->size) {
        t->type = GW_MINILANG_T_END;
        t->length = 0;
        return;
    }
    size_t i = p->pos;
    char c = s[i];
    if (s_ident_start(c)) {
        while (i < p->size && s_ident_char(s[i]))
            i++;
        t->type = GW_MINILANG_T_IDENT;
    } else if (c == '"') {
        //  A backslash takes the next character along; a newline ends
        //  nothing but is not allowed (the grammar's regex excludes it).
        t->type = GW_MINILANG_T_BAD;
        i++;
        while (i < p->size && s[i] != '\n') {
            if (s[i] == '\\' && i + 1 < p->size && s[i + 1] != '\n')
                i += 2;
            else if (s[i] == '"') {
                t->type = GW_MINILANG_T_STRING;
                i++;
                break;
            } else
                i++;
        }
        if (t->type == GW_MINILANG_T_BAD) {
            p->pos = i;
            t->length = i - t->start;
            gw_minilang_fail(p, "unterminated string at line %zu, column %zu", t->line,
                             t->column);
            return;
        }
    } else if (p->numbers && (s_digit(c) || c == '.' || c == '+' || c == '-')) {
        //  SIGNED_NUMBER: [+-] (digits [. digits?] | . digits) [e [+-] digits]
        size_t j = i;
        if (s[j] == '+' || s[j] == '-')
            j++;
        size_t digits = 0;
        while (j < p->size && s_digit(s[j]))
            j++, digits++;
        if (j < p->size && s[j] == '.') {
            j++;
            while (j < p->size && s_digit(s[j]))
                j++, digits++;
        }
        if (digits > 0 && j < p->size && (s[j] == 'e' || s[j] == 'E')) {
            size_t k = j + 1;
            if (k < p->size && (s[k] == '+' || s[k] == '-'))
                k++;
            if (k < p->size && s_digit(s[k])) {
                while (k < p->size && s_digit(s[k]))
                    k++;
                j = k;
            }
        }
        t->type = digits > 0 ? GW_MINILANG_T_NUMBER : GW_MINILANG_T_BAD;
        i = digits > 0 ? j : i + 1;
    } else {
        i++;
        switch (c) {
            case '(':
                t->type = GW_MINILANG_T_LPAREN;
                break;
            case ')':
                t->type = GW_MINILANG_T_RPAREN;
                break;
            case '[':
                t->type = GW_MINILANG_T_LBRACK;
                break;
            case ']':
                t->type = GW_MINILANG_T_RBRACK;
                break;
            case ',':
                t->type = GW_MINILANG_T_COMMA;
                break;
            case '&':
                t->type = GW_MINILANG_T_AMP;
                break;
            case '|':
                t->type = GW_MINILANG_T_PIPE;
                break;
            case '+':
                t->type = GW_MINILANG_T_PLUS;
                break;
            case '-':
                t->type = GW_MINILANG_T_MINUS;
                break;
            case '!':
                if (i < p->size && s[i] == '=') {
                    i++;
                    t->type = GW_MINILANG_T_OP;
                } else
                    t->type = GW_MINILANG_T_BANG;
                break;
            case '=':
                if (i < p->size && s[i] == '=') {
                    i++;
                    t->type = GW_MINILANG_T_OP;
                } else
                    t->type = GW_MINILANG_T_BAD;
                break;
            case '<':
            case '>':
                if (i < p->size && s[i] == '=')
                    i++;
                t->type = GW_MINILANG_T_OP;
                break;
            default:
                t->type = GW_MINILANG_T_BAD;
                break;
        }
    }
    t->length = i - t->start;
    p->pos = i;
}

static bool
s_token_is(const gw_minilang_parser_t *p, const char *word)
{
    size_t n = strlen(word);
    return p->token.length == n && memcmp(p->text + p->token.start, word, n) == 0;
}

//  Checks a field name against the allowed list; fails naming it.
bool
gw_minilang_field_allowed(gw_minilang_parser_t *p, const char *name)
{
    if (!p->fields)
        return true;
    for (size_t i = 0; p->fields[i]; i++)
        if (strcmp(p->fields[i], name) == 0)
            return true;
    gw_minilang_fail(p, "('Unknown/unsupported field name', '%s')", name);
    return false;
}

//  ---------------------------------------------------------------------
//  Values and nodes

static void
s_value_free(gw_minilang_value_t *v)
{
    free(v->string);
    for (size_t i = 0; i < v->count; i++)
        s_value_free(&v->items[i]);
    free(v->items);
    memset(v, 0, sizeof *v);
}

void
gw_minilang_node_free(gw_minilang_node_t *node)
{
    if (!node)
        return;
    free(node->field);
    s_value_free(&node->value);
    free(node->pattern);
    gw_minilang_node_free(node->child);
    for (size_t i = 0; i < node->count; i++)
        gw_minilang_node_free(node->nodes[i]);
    free(node->nodes);
    free(node->ops);
    free(node);
}

//  The string token's contents: \" becomes ", other pairs stay as written.
static bool
s_string_decode(gw_minilang_parser_t *p, gw_minilang_value_t *v)
{
    const char *s = p->text + p->token.start + 1;
    size_t n = p->token.length - 2;
    v->string = malloc(n + 1);
    if (!v->string) {
        gw_minilang_fail(p, "out of memory");
        return false;
    }
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 1 < n) {
            if (s[i + 1] != '"')
                v->string[o++] = s[i];
            v->string[o++] = s[i + 1];
            i++;
        } else
            v->string[o++] = s[i];
    }
    v->string[o] = '\0';
    v->length = o;
    v->type = GW_MINILANG_V_STRING;
    return true;
}

static bool
s_number_decode(gw_minilang_parser_t *p, gw_minilang_value_t *v)
{
    char buffer[64];
    size_t n = p->token.length;
    if (n >= sizeof buffer) {
        gw_minilang_fail(p, "number too long at line %zu, column %zu", p->token.line,
                         p->token.column);
        return false;
    }
    memcpy(buffer, p->text + p->token.start, n);
    buffer[n] = '\0';
    bool real = strpbrk(buffer, ".eE") != NULL;
    if (!real) {
        errno = 0;
        long long value = strtoll(buffer, NULL, 10);
        if (errno == 0) {
            v->type = GW_MINILANG_V_INT;
            v->integer = (json_int_t) value;
            return true;
        }
    }
    v->type = GW_MINILANG_V_REAL;
    v->real = strtod(buffer, NULL);
    return true;
}

static bool s_parse_value(gw_minilang_parser_t *p, gw_minilang_value_t *v);

static bool
s_parse_list(gw_minilang_parser_t *p, gw_minilang_value_t *v)
{
    v->type = GW_MINILANG_V_LIST;
    if (++p->depth > GW_MINILANG_MAX_DEPTH) {
        gw_minilang_fail(p, "nesting deeper than %d at line %zu, column %zu",
                         GW_MINILANG_MAX_DEPTH, p->token.line, p->token.column);
        return false;
    }
    gw_minilang_next(p); //  past [
    size_t capacity = 0;
    if (p->token.type != GW_MINILANG_T_RBRACK) {
        while (!p->failed) {
            if (v->count == capacity) {
                capacity = capacity ? capacity * 2 : 4;
                gw_minilang_value_t *items = realloc(v->items, capacity * sizeof *items);
                if (!items) {
                    gw_minilang_fail(p, "out of memory");
                    return false;
                }
                v->items = items;
            }
            memset(&v->items[v->count], 0, sizeof *v->items);
            v->count++;
            if (!s_parse_value(p, &v->items[v->count - 1]))
                return false;
            if (p->token.type != GW_MINILANG_T_COMMA)
                break;
            gw_minilang_next(p);
        }
    }
    if (p->failed)
        return false;
    if (p->token.type != GW_MINILANG_T_RBRACK) {
        gw_minilang_unexpected(p);
        return false;
    }
    p->depth--;
    gw_minilang_next(p);
    return true;
}

//  A value at the current token; leaves the token after it.
static bool
s_parse_value(gw_minilang_parser_t *p, gw_minilang_value_t *v)
{
    if (p->failed)
        return false;
    bool ok = true;
    switch (p->token.type) {
        case GW_MINILANG_T_STRING:
            ok = s_string_decode(p, v);
            break;
        case GW_MINILANG_T_NUMBER:
            ok = s_number_decode(p, v);
            break;
        case GW_MINILANG_T_LBRACK:
            return s_parse_list(p, v);
        case GW_MINILANG_T_IDENT:
            if (s_token_is(p, "null"))
                v->type = GW_MINILANG_V_NULL;
            else if (s_token_is(p, "true"))
                v->type = GW_MINILANG_V_TRUE;
            else if (s_token_is(p, "false"))
                v->type = GW_MINILANG_V_FALSE;
            else
                ok = false;
            if (!ok)
                gw_minilang_unexpected(p);
            break;
        default:
            gw_minilang_unexpected(p);
            return false;
    }
    if (ok)
        gw_minilang_next(p);
    return ok && !p->failed;
}

static const struct {
    const char *text;
    gw_minilang_op_t op;
} s_ops[] = {{"==", GW_MINILANG_OP_EQ},
             {"!=", GW_MINILANG_OP_NE},
             {">", GW_MINILANG_OP_GT},
             {">=", GW_MINILANG_OP_GE},
             {"<", GW_MINILANG_OP_LT},
             {"<=", GW_MINILANG_OP_LE},
             {"contains", GW_MINILANG_OP_CONTAINS},
             {"in", GW_MINILANG_OP_IN},
             {"is", GW_MINILANG_OP_IS},
             {"isnot", GW_MINILANG_OP_ISNOT},
             {"like", GW_MINILANG_OP_LIKE},
             {"ilike", GW_MINILANG_OP_ILIKE}};

//  field op value
static gw_minilang_node_t *
s_parse_comparison(gw_minilang_parser_t *p)
{
    gw_minilang_node_t *node = calloc(1, sizeof *node);
    if (!node) {
        gw_minilang_fail(p, "out of memory");
        return NULL;
    }
    node->type = GW_MINILANG_N_CMP;
    node->field = strndup(p->text + p->token.start, p->token.length);
    if (!node->field) {
        gw_minilang_fail(p, "out of memory");
        goto fail;
    }
    gw_minilang_next(p);
    bool found = false;
    if (p->token.type == GW_MINILANG_T_OP || p->token.type == GW_MINILANG_T_IDENT)
        for (size_t i = 0; i < sizeof s_ops / sizeof s_ops[0] && !found; i++)
            if (s_token_is(p, s_ops[i].text)) {
                node->op = s_ops[i].op;
                found = true;
            }
    if (!found) {
        gw_minilang_unexpected(p);
        goto fail;
    }
    gw_minilang_token_t at = p->token;
    gw_minilang_next(p);
    if (!s_parse_value(p, &node->value))
        goto fail;
    //  What the manager's SQL would refuse, refused here at parse time.
    gw_minilang_vtype_t type = node->value.type;
    const char *problem = NULL;
    if (node->op == GW_MINILANG_OP_IN && type != GW_MINILANG_V_LIST)
        problem = "in needs a [list]";
    else if (type == GW_MINILANG_V_LIST && node->op != GW_MINILANG_OP_IN &&
             node->op != GW_MINILANG_OP_CONTAINS)
        problem = "a [list] goes only with in or contains";
    else if ((node->op == GW_MINILANG_OP_IS || node->op == GW_MINILANG_OP_ISNOT) &&
             type != GW_MINILANG_V_NULL && type != GW_MINILANG_V_TRUE &&
             type != GW_MINILANG_V_FALSE)
        problem = "is and isnot need null, true or false";
    else if ((node->op == GW_MINILANG_OP_LIKE || node->op == GW_MINILANG_OP_ILIKE) &&
             type != GW_MINILANG_V_STRING)
        problem = "like and ilike need a string";
    if (problem) {
        gw_minilang_fail(p, "%s at line %zu, column %zu", problem, at.line, at.column);
        goto fail;
    }
    if (node->op == GW_MINILANG_OP_CONTAINS && type == GW_MINILANG_V_STRING) {
        node->pattern_length = node->value.length + 2;
        node->pattern = malloc(node->pattern_length + 1);
        if (!node->pattern) {
            gw_minilang_fail(p, "out of memory");
            goto fail;
        }
        node->pattern[0] = '%';
        memcpy(node->pattern + 1, node->value.string, node->value.length);
        node->pattern[node->pattern_length - 1] = '%';
        node->pattern[node->pattern_length] = '\0';
    }
    if (!gw_minilang_field_allowed(p, node->field))
        goto fail;
    return node;
fail:
    gw_minilang_node_free(node);
    return NULL;
}

static gw_minilang_node_t *s_parse_expr(gw_minilang_parser_t *p);

//  ! expr | ( expr ) | comparison
static gw_minilang_node_t *
s_parse_term(gw_minilang_parser_t *p)
{
    if (p->token.type == GW_MINILANG_T_IDENT)
        return s_parse_comparison(p);
    if (p->token.type != GW_MINILANG_T_BANG && p->token.type != GW_MINILANG_T_LPAREN) {
        gw_minilang_unexpected(p);
        return NULL;
    }
    if (++p->depth > GW_MINILANG_MAX_DEPTH) {
        gw_minilang_fail(p, "nesting deeper than %d at line %zu, column %zu",
                         GW_MINILANG_MAX_DEPTH, p->token.line, p->token.column);
        return NULL;
    }
    gw_minilang_node_t *node = NULL;
    if (p->token.type == GW_MINILANG_T_BANG) {
        gw_minilang_next(p);
        gw_minilang_node_t *child = s_parse_expr(p);
        if (!child)
            return NULL;
        node = calloc(1, sizeof *node);
        if (!node) {
            gw_minilang_node_free(child);
            gw_minilang_fail(p, "out of memory");
            return NULL;
        }
        node->type = GW_MINILANG_N_NOT;
        node->child = child;
    } else {
        gw_minilang_next(p);
        node = s_parse_expr(p);
        if (!node)
            return NULL;
        if (p->token.type != GW_MINILANG_T_RPAREN) {
            gw_minilang_unexpected(p);
            gw_minilang_node_free(node);
            return NULL;
        }
        gw_minilang_next(p);
    }
    p->depth--;
    return node;
}

//  term ((& | |) term)*, kept flat; one term stands for itself.
static gw_minilang_node_t *
s_parse_expr(gw_minilang_parser_t *p)
{
    gw_minilang_node_t *first = s_parse_term(p);
    if (!first ||
        (p->token.type != GW_MINILANG_T_AMP && p->token.type != GW_MINILANG_T_PIPE))
        return first;
    gw_minilang_node_t *chain = calloc(1, sizeof *chain);
    size_t capacity = 8;
    if (chain) {
        chain->type = GW_MINILANG_N_CHAIN;
        chain->nodes = malloc(capacity * sizeof *chain->nodes);
        chain->ops = malloc(capacity);
    }
    if (!chain || !chain->nodes || !chain->ops) {
        gw_minilang_node_free(first);
        gw_minilang_node_free(chain);
        gw_minilang_fail(p, "out of memory");
        return NULL;
    }
    chain->nodes[chain->count++] = first;
    while (p->token.type == GW_MINILANG_T_AMP || p->token.type == GW_MINILANG_T_PIPE) {
        if (chain->count == capacity) {
            capacity *= 2;
            gw_minilang_node_t **nodes = realloc(chain->nodes, capacity * sizeof *nodes);
            if (nodes)
                chain->nodes = nodes;
            char *ops = realloc(chain->ops, capacity);
            if (ops)
                chain->ops = ops;
            if (!nodes || !ops) {
                gw_minilang_fail(p, "out of memory");
                gw_minilang_node_free(chain);
                return NULL;
            }
        }
        chain->ops[chain->count - 1] = p->token.type == GW_MINILANG_T_AMP ? '&' : '|';
        gw_minilang_next(p);
        gw_minilang_node_t *next = s_parse_term(p);
        if (!next) {
            gw_minilang_node_free(chain);
            return NULL;
        }
        chain->nodes[chain->count++] = next;
    }
    return chain;
}

bool
gw_minilang_parser_init(gw_minilang_parser_t *p,
                        const char *text,
                        const char *const *fields,
                        const char *prefix,
                        char *error,
                        size_t error_size)
{
    memset(p, 0, sizeof *p);
    p->prefix = prefix;
    p->fields = fields;
    p->error = error;
    p->error_size = error_size;
    p->line = 1;
    if (error && error_size)
        error[0] = '\0';
    if (!text) {
        gw_minilang_fail(p, "no text");
        return false;
    }
    p->text = text;
    p->size = strnlen(text, GW_MINILANG_MAX_TEXT + 1);
    if (p->size > GW_MINILANG_MAX_TEXT) {
        gw_minilang_fail(p, "longer than %d bytes", GW_MINILANG_MAX_TEXT);
        return false;
    }
    return true;
}

gw_minilang_filter_t *
gw_minilang_filter_parse(const char *text,
                         const char *const *fields,
                         char *error,
                         size_t error_size)
{
    gw_minilang_parser_t p;
    if (!gw_minilang_parser_init(&p, text, fields, "Query filter parsing error", error,
                                 error_size))
        return NULL;
    p.numbers = true;
    gw_minilang_next(&p);
    gw_minilang_node_t *root = p.failed ? NULL : s_parse_expr(&p);
    if (root && p.token.type != GW_MINILANG_T_END)
        gw_minilang_unexpected(&p);
    if (p.failed) {
        gw_minilang_node_free(root);
        return NULL;
    }
    gw_minilang_filter_t *self = calloc(1, sizeof *self);
    if (!self) {
        gw_minilang_node_free(root);
        gw_minilang_fail(&p, "out of memory");
        return NULL;
    }
    self->root = root;
    return self;
}

//  ---------------------------------------------------------------------
