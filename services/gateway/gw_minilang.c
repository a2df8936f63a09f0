/*  =========================================================================
    gw_minilang - Backend.AI's filter and order minilang for *_list fields

    A hand-written parser for the two small languages that the `filter` and
    `order` arguments of Backend.AI's paginated GraphQL lists use, with the
    same grammar as the manager's lark grammars, and an evaluator that
    applies a filter to the JSON objects the gateway's resolvers produce,
    and a stable sort for the order. Pure: no I/O. Nesting is bounded by
    GW_MINILANG_MAX_DEPTH and the text by GW_MINILANG_MAX_TEXT; a run of &
    and | is kept as one flat node so that long chains cost no recursion.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  Three-valued logic, as SQL's WHERE.
typedef enum { S_FALSE = 0, S_TRUE = 1, S_UNKNOWN = 2 } s_tri_t;

typedef enum {
    S_OP_EQ,
    S_OP_NE,
    S_OP_GT,
    S_OP_GE,
    S_OP_LT,
    S_OP_LE,
    S_OP_CONTAINS,
    S_OP_IN,
    S_OP_IS,
    S_OP_ISNOT,
    S_OP_LIKE,
    S_OP_ILIKE
} s_op_t;

typedef enum {
    S_V_STRING,
    S_V_INT,
    S_V_REAL,
    S_V_TRUE,
    S_V_FALSE,
    S_V_NULL,
    S_V_LIST
} s_vtype_t;

typedef struct s_value {
    s_vtype_t type;
    char *string; //  S_V_STRING: decoded bytes, NUL-terminated
    size_t length;
    json_int_t integer;
    double real;
    struct s_value *items; //  S_V_LIST
    size_t count;
} s_value_t;

typedef enum { S_N_CMP, S_N_NOT, S_N_CHAIN } s_ntype_t;

typedef struct s_node {
    s_ntype_t type;
    //  S_N_CMP
    char *field;
    s_op_t op;
    s_value_t value;
    char *pattern; //  contains on a string: "%value%"
    size_t pattern_length;
    //  S_N_NOT
    struct s_node *child;
    //  S_N_CHAIN: count nodes, count - 1 operators ('&' or '|'), right-grouped
    struct s_node **nodes;
    char *ops;
    size_t count;
} s_node_t;

struct _gw_minilang_filter_t {
    s_node_t *root;
};

//  ---------------------------------------------------------------------
//  Lexer

typedef enum {
    S_T_END,
    S_T_IDENT,
    S_T_STRING,
    S_T_NUMBER,
    S_T_LPAREN,
    S_T_RPAREN,
    S_T_LBRACK,
    S_T_RBRACK,
    S_T_COMMA,
    S_T_AMP,
    S_T_PIPE,
    S_T_BANG,
    S_T_PLUS,
    S_T_MINUS,
    S_T_OP, //  == != > >= < <=
    S_T_BAD
} s_ttype_t;

typedef struct {
    s_ttype_t type;
    size_t start, length; //  in the text
    size_t line, column;  //  1-based
} s_token_t;

typedef struct {
    const char *text;
    size_t size;
    size_t pos, line, line_start;
    const char *prefix; //  "Query filter parsing error" or "... ordering ..."
    const char *const *fields;
    bool numbers;    //  + and - start numbers (filter), or are signs (order)
    s_token_t token; //  the current one
    int depth;
    char *error;
    size_t error_size;
    bool failed;
} s_parser_t;

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

static void s_fail(s_parser_t *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
s_fail(s_parser_t *p, const char *fmt, ...)
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
s_describe(const s_parser_t *p, char *out, size_t size)
{
    const s_token_t *t = &p->token;
    if (t->type == S_T_END) {
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

static void
s_unexpected(s_parser_t *p)
{
    char what[160];
    s_describe(p, what, sizeof what);
    s_fail(p, "unexpected %s at line %zu, column %zu", what, p->token.line,
           p->token.column);
}

//  Reads the next token into p->token.
static void
s_next(s_parser_t *p)
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
    s_token_t *t = &p->token;
    t->start = p->pos;
    t->line = p->line;
    t->column = p->pos - p->line_start + 1;
    t->length = 1;
    if (p->pos >= p->size) {
        t->type = S_T_END;
        t->length = 0;
        return;
    }
    size_t i = p->pos;
    char c = s[i];
    if (s_ident_start(c)) {
        while (i < p->size && s_ident_char(s[i]))
            i++;
        t->type = S_T_IDENT;
    } else if (c == '"') {
        //  A backslash takes the next character along; a newline ends
        //  nothing but is not allowed (the grammar's regex excludes it).
        t->type = S_T_BAD;
        i++;
        while (i < p->size && s[i] != '\n') {
            if (s[i] == '\\' && i + 1 < p->size && s[i + 1] != '\n')
                i += 2;
            else if (s[i] == '"') {
                t->type = S_T_STRING;
                i++;
                break;
            } else
                i++;
        }
        if (t->type == S_T_BAD) {
            p->pos = i;
            t->length = i - t->start;
            s_fail(p, "unterminated string at line %zu, column %zu", t->line, t->column);
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
        t->type = digits > 0 ? S_T_NUMBER : S_T_BAD;
        i = digits > 0 ? j : i + 1;
    } else {
        i++;
        switch (c) {
            case '(':
                t->type = S_T_LPAREN;
                break;
            case ')':
                t->type = S_T_RPAREN;
                break;
            case '[':
                t->type = S_T_LBRACK;
                break;
            case ']':
                t->type = S_T_RBRACK;
                break;
            case ',':
                t->type = S_T_COMMA;
                break;
            case '&':
                t->type = S_T_AMP;
                break;
            case '|':
                t->type = S_T_PIPE;
                break;
            case '+':
                t->type = S_T_PLUS;
                break;
            case '-':
                t->type = S_T_MINUS;
                break;
            case '!':
                if (i < p->size && s[i] == '=') {
                    i++;
                    t->type = S_T_OP;
                } else
                    t->type = S_T_BANG;
                break;
            case '=':
                if (i < p->size && s[i] == '=') {
                    i++;
                    t->type = S_T_OP;
                } else
                    t->type = S_T_BAD;
                break;
            case '<':
            case '>':
                if (i < p->size && s[i] == '=')
                    i++;
                t->type = S_T_OP;
                break;
            default:
                t->type = S_T_BAD;
                break;
        }
    }
    t->length = i - t->start;
    p->pos = i;
}

static bool
s_token_is(const s_parser_t *p, const char *word)
{
    size_t n = strlen(word);
    return p->token.length == n && memcmp(p->text + p->token.start, word, n) == 0;
}

//  Checks a field name against the allowed list; fails naming it.
static bool
s_field_allowed(s_parser_t *p, const char *name)
{
    if (!p->fields)
        return true;
    for (size_t i = 0; p->fields[i]; i++)
        if (strcmp(p->fields[i], name) == 0)
            return true;
    s_fail(p, "('Unknown/unsupported field name', '%s')", name);
    return false;
}

//  ---------------------------------------------------------------------
//  Values and nodes

static void
s_value_free(s_value_t *v)
{
    free(v->string);
    for (size_t i = 0; i < v->count; i++)
        s_value_free(&v->items[i]);
    free(v->items);
    memset(v, 0, sizeof *v);
}

static void
s_node_free(s_node_t *node)
{
    if (!node)
        return;
    free(node->field);
    s_value_free(&node->value);
    free(node->pattern);
    s_node_free(node->child);
    for (size_t i = 0; i < node->count; i++)
        s_node_free(node->nodes[i]);
    free(node->nodes);
    free(node->ops);
    free(node);
}

//  The string token's contents: \" becomes ", other pairs stay as written.
static bool
s_string_decode(s_parser_t *p, s_value_t *v)
{
    const char *s = p->text + p->token.start + 1;
    size_t n = p->token.length - 2;
    v->string = malloc(n + 1);
    if (!v->string) {
        s_fail(p, "out of memory");
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
    v->type = S_V_STRING;
    return true;
}

static bool
s_number_decode(s_parser_t *p, s_value_t *v)
{
    char buffer[64];
    size_t n = p->token.length;
    if (n >= sizeof buffer) {
        s_fail(p, "number too long at line %zu, column %zu", p->token.line,
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
            v->type = S_V_INT;
            v->integer = (json_int_t) value;
            return true;
        }
    }
    v->type = S_V_REAL;
    v->real = strtod(buffer, NULL);
    return true;
}

static bool s_parse_value(s_parser_t *p, s_value_t *v);

static bool
s_parse_list(s_parser_t *p, s_value_t *v)
{
    v->type = S_V_LIST;
    if (++p->depth > GW_MINILANG_MAX_DEPTH) {
        s_fail(p, "nesting deeper than %d at line %zu, column %zu", GW_MINILANG_MAX_DEPTH,
               p->token.line, p->token.column);
        return false;
    }
    s_next(p); //  past [
    size_t capacity = 0;
    if (p->token.type != S_T_RBRACK) {
        while (!p->failed) {
            if (v->count == capacity) {
                capacity = capacity ? capacity * 2 : 4;
                s_value_t *items = realloc(v->items, capacity * sizeof *items);
                if (!items) {
                    s_fail(p, "out of memory");
                    return false;
                }
                v->items = items;
            }
            memset(&v->items[v->count], 0, sizeof *v->items);
            v->count++;
            if (!s_parse_value(p, &v->items[v->count - 1]))
                return false;
            if (p->token.type != S_T_COMMA)
                break;
            s_next(p);
        }
    }
    if (p->failed)
        return false;
    if (p->token.type != S_T_RBRACK) {
        s_unexpected(p);
        return false;
    }
    p->depth--;
    s_next(p);
    return true;
}

//  A value at the current token; leaves the token after it.
static bool
s_parse_value(s_parser_t *p, s_value_t *v)
{
    if (p->failed)
        return false;
    bool ok = true;
    switch (p->token.type) {
        case S_T_STRING:
            ok = s_string_decode(p, v);
            break;
        case S_T_NUMBER:
            ok = s_number_decode(p, v);
            break;
        case S_T_LBRACK:
            return s_parse_list(p, v);
        case S_T_IDENT:
            if (s_token_is(p, "null"))
                v->type = S_V_NULL;
            else if (s_token_is(p, "true"))
                v->type = S_V_TRUE;
            else if (s_token_is(p, "false"))
                v->type = S_V_FALSE;
            else
                ok = false;
            if (!ok)
                s_unexpected(p);
            break;
        default:
            s_unexpected(p);
            return false;
    }
    if (ok)
        s_next(p);
    return ok && !p->failed;
}

static const struct {
    const char *text;
    s_op_t op;
} s_ops[] = {{"==", S_OP_EQ},
             {"!=", S_OP_NE},
             {">", S_OP_GT},
             {">=", S_OP_GE},
             {"<", S_OP_LT},
             {"<=", S_OP_LE},
             {"contains", S_OP_CONTAINS},
             {"in", S_OP_IN},
             {"is", S_OP_IS},
             {"isnot", S_OP_ISNOT},
             {"like", S_OP_LIKE},
             {"ilike", S_OP_ILIKE}};

//  field op value
static s_node_t *
s_parse_comparison(s_parser_t *p)
{
    s_node_t *node = calloc(1, sizeof *node);
    if (!node) {
        s_fail(p, "out of memory");
        return NULL;
    }
    node->type = S_N_CMP;
    node->field = strndup(p->text + p->token.start, p->token.length);
    if (!node->field) {
        s_fail(p, "out of memory");
        goto fail;
    }
    s_next(p);
    bool found = false;
    if (p->token.type == S_T_OP || p->token.type == S_T_IDENT)
        for (size_t i = 0; i < sizeof s_ops / sizeof s_ops[0] && !found; i++)
            if (s_token_is(p, s_ops[i].text)) {
                node->op = s_ops[i].op;
                found = true;
            }
    if (!found) {
        s_unexpected(p);
        goto fail;
    }
    s_token_t at = p->token;
    s_next(p);
    if (!s_parse_value(p, &node->value))
        goto fail;
    //  What the manager's SQL would refuse, refused here at parse time.
    s_vtype_t type = node->value.type;
    const char *problem = NULL;
    if (node->op == S_OP_IN && type != S_V_LIST)
        problem = "in needs a [list]";
    else if (type == S_V_LIST && node->op != S_OP_IN && node->op != S_OP_CONTAINS)
        problem = "a [list] goes only with in or contains";
    else if ((node->op == S_OP_IS || node->op == S_OP_ISNOT) && type != S_V_NULL &&
             type != S_V_TRUE && type != S_V_FALSE)
        problem = "is and isnot need null, true or false";
    else if ((node->op == S_OP_LIKE || node->op == S_OP_ILIKE) && type != S_V_STRING)
        problem = "like and ilike need a string";
    if (problem) {
        s_fail(p, "%s at line %zu, column %zu", problem, at.line, at.column);
        goto fail;
    }
    if (node->op == S_OP_CONTAINS && type == S_V_STRING) {
        node->pattern_length = node->value.length + 2;
        node->pattern = malloc(node->pattern_length + 1);
        if (!node->pattern) {
            s_fail(p, "out of memory");
            goto fail;
        }
        node->pattern[0] = '%';
        memcpy(node->pattern + 1, node->value.string, node->value.length);
        node->pattern[node->pattern_length - 1] = '%';
        node->pattern[node->pattern_length] = '\0';
    }
    if (!s_field_allowed(p, node->field))
        goto fail;
    return node;
fail:
    s_node_free(node);
    return NULL;
}

static s_node_t *s_parse_expr(s_parser_t *p);

//  ! expr | ( expr ) | comparison
static s_node_t *
s_parse_term(s_parser_t *p)
{
    if (p->token.type == S_T_IDENT)
        return s_parse_comparison(p);
    if (p->token.type != S_T_BANG && p->token.type != S_T_LPAREN) {
        s_unexpected(p);
        return NULL;
    }
    if (++p->depth > GW_MINILANG_MAX_DEPTH) {
        s_fail(p, "nesting deeper than %d at line %zu, column %zu", GW_MINILANG_MAX_DEPTH,
               p->token.line, p->token.column);
        return NULL;
    }
    s_node_t *node = NULL;
    if (p->token.type == S_T_BANG) {
        s_next(p);
        s_node_t *child = s_parse_expr(p);
        if (!child)
            return NULL;
        node = calloc(1, sizeof *node);
        if (!node) {
            s_node_free(child);
            s_fail(p, "out of memory");
            return NULL;
        }
        node->type = S_N_NOT;
        node->child = child;
    } else {
        s_next(p);
        node = s_parse_expr(p);
        if (!node)
            return NULL;
        if (p->token.type != S_T_RPAREN) {
            s_unexpected(p);
            s_node_free(node);
            return NULL;
        }
        s_next(p);
    }
    p->depth--;
    return node;
}

//  term ((& | |) term)*, kept flat; one term stands for itself.
static s_node_t *
s_parse_expr(s_parser_t *p)
{
    s_node_t *first = s_parse_term(p);
    if (!first || (p->token.type != S_T_AMP && p->token.type != S_T_PIPE))
        return first;
    s_node_t *chain = calloc(1, sizeof *chain);
    size_t capacity = 8;
    if (chain) {
        chain->type = S_N_CHAIN;
        chain->nodes = malloc(capacity * sizeof *chain->nodes);
        chain->ops = malloc(capacity);
    }
    if (!chain || !chain->nodes || !chain->ops) {
        s_node_free(first);
        s_node_free(chain);
        s_fail(p, "out of memory");
        return NULL;
    }
    chain->nodes[chain->count++] = first;
    while (p->token.type == S_T_AMP || p->token.type == S_T_PIPE) {
        if (chain->count == capacity) {
            capacity *= 2;
            s_node_t **nodes = realloc(chain->nodes, capacity * sizeof *nodes);
            if (nodes)
                chain->nodes = nodes;
            char *ops = realloc(chain->ops, capacity);
            if (ops)
                chain->ops = ops;
            if (!nodes || !ops) {
                s_fail(p, "out of memory");
                s_node_free(chain);
                return NULL;
            }
        }
        chain->ops[chain->count - 1] = p->token.type == S_T_AMP ? '&' : '|';
        s_next(p);
        s_node_t *next = s_parse_term(p);
        if (!next) {
            s_node_free(chain);
            return NULL;
        }
        chain->nodes[chain->count++] = next;
    }
    return chain;
}

static bool
s_parser_init(s_parser_t *p,
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
        s_fail(p, "no text");
        return false;
    }
    p->text = text;
    p->size = strnlen(text, GW_MINILANG_MAX_TEXT + 1);
    if (p->size > GW_MINILANG_MAX_TEXT) {
        s_fail(p, "longer than %d bytes", GW_MINILANG_MAX_TEXT);
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
    s_parser_t p;
    if (!s_parser_init(&p, text, fields, "Query filter parsing error", error, error_size))
        return NULL;
    p.numbers = true;
    s_next(&p);
    s_node_t *root = p.failed ? NULL : s_parse_expr(&p);
    if (root && p.token.type != S_T_END)
        s_unexpected(&p);
    if (p.failed) {
        s_node_free(root);
        return NULL;
    }
    gw_minilang_filter_t *self = calloc(1, sizeof *self);
    if (!self) {
        s_node_free(root);
        s_fail(&p, "out of memory");
        return NULL;
    }
    self->root = root;
    return self;
}

//  ---------------------------------------------------------------------
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
s_compare(const json_t *field, const s_value_t *v)
{
    if (json_is_number(field) && (v->type == S_V_INT || v->type == S_V_REAL)) {
        if (json_is_integer(field) && v->type == S_V_INT) {
            json_int_t a = json_integer_value(field);
            return a < v->integer ? -1 : a > v->integer;
        }
        double a = json_number_value(field);
        double b = v->type == S_V_INT ? (double) v->integer : v->real;
        if (a != a || b != b)
            return 2;
        return a < b ? -1 : a > b;
    }
    if (json_is_string(field) && v->type == S_V_STRING) {
        size_t an = json_string_length(field);
        size_t n = an < v->length ? an : v->length;
        int c = memcmp(json_string_value(field), v->string, n);
        if (c == 0)
            return an < v->length ? -1 : an > v->length;
        return c < 0 ? -1 : 1;
    }
    if (json_is_boolean(field) && (v->type == S_V_TRUE || v->type == S_V_FALSE)) {
        int a = json_is_true(field), b = v->type == S_V_TRUE;
        return a < b ? -1 : a > b;
    }
    return 2;
}

static s_tri_t
s_is(const json_t *field, const s_value_t *v)
{
    if (v->type == S_V_NULL)
        return !field || json_is_null(field) ? S_TRUE : S_FALSE;
    if (!json_is_boolean(field))
        return S_FALSE;
    return (json_is_true(field) == (v->type == S_V_TRUE)) ? S_TRUE : S_FALSE;
}

static s_tri_t
s_not(s_tri_t t)
{
    return t == S_UNKNOWN ? S_UNKNOWN : t == S_TRUE ? S_FALSE : S_TRUE;
}

static s_tri_t
s_or(s_tri_t a, s_tri_t b)
{
    if (a == S_TRUE || b == S_TRUE)
        return S_TRUE;
    return a == S_UNKNOWN || b == S_UNKNOWN ? S_UNKNOWN : S_FALSE;
}

static s_tri_t
s_and(s_tri_t a, s_tri_t b)
{
    if (a == S_FALSE || b == S_FALSE)
        return S_FALSE;
    return a == S_UNKNOWN || b == S_UNKNOWN ? S_UNKNOWN : S_TRUE;
}

//  One scalar (non-array) field value against a comparison.
static s_tri_t
s_compare_scalar(const s_node_t *node, const json_t *field)
{
    const s_value_t *v = &node->value;
    bool null = !field || json_is_null(field);
    switch (node->op) {
        case S_OP_IS:
            return s_is(field, v);
        case S_OP_ISNOT:
            return s_not(s_is(field, v));
        case S_OP_EQ:
        case S_OP_NE:
            if (v->type == S_V_NULL) //  == null is IS NULL, as SQLAlchemy makes it
                return node->op == S_OP_EQ ? s_is(field, v) : s_not(s_is(field, v));
            break;
        default:
            break;
    }
    if (null || v->type == S_V_NULL)
        return S_UNKNOWN;
    switch (node->op) {
        case S_OP_EQ:
        case S_OP_NE:
        case S_OP_GT:
        case S_OP_GE:
        case S_OP_LT:
        case S_OP_LE: {
            int c = s_compare(field, v);
            if (c == 2)
                return node->op == S_OP_NE ? S_TRUE : S_FALSE;
            bool r = node->op == S_OP_EQ   ? c == 0
                     : node->op == S_OP_NE ? c != 0
                     : node->op == S_OP_GT ? c > 0
                     : node->op == S_OP_GE ? c >= 0
                     : node->op == S_OP_LT ? c < 0
                                           : c <= 0;
            return r ? S_TRUE : S_FALSE;
        }
        case S_OP_IN: {
            bool has_null = false;
            for (size_t i = 0; i < v->count; i++) {
                if (v->items[i].type == S_V_NULL)
                    has_null = true;
                else if (s_compare(field, &v->items[i]) == 0)
                    return S_TRUE;
            }
            return has_null ? S_UNKNOWN : S_FALSE;
        }
        case S_OP_LIKE:
        case S_OP_ILIKE:
            if (!json_is_string(field))
                return S_UNKNOWN;
            return s_like(v->string, v->length, json_string_value(field),
                          json_string_length(field), node->op == S_OP_ILIKE)
                       ? S_TRUE
                       : S_FALSE;
        case S_OP_CONTAINS:
            if (json_is_string(field) && node->pattern)
                return s_like(node->pattern, node->pattern_length,
                              json_string_value(field), json_string_length(field), false)
                           ? S_TRUE
                           : S_FALSE;
            return s_compare(field, v) == 0 ? S_TRUE : S_FALSE;
        default:
            return S_UNKNOWN;
    }
}

//  contains on an array field: each wanted value is one of its items.
static s_tri_t
s_array_contains(const json_t *array, const s_value_t *v)
{
    size_t wanted = v->type == S_V_LIST ? v->count : 1;
    for (size_t w = 0; w < wanted; w++) {
        const s_value_t *want = v->type == S_V_LIST ? &v->items[w] : v;
        bool found = false;
        for (size_t i = 0; i < json_array_size(array) && !found; i++)
            found = s_compare(json_array_get(array, i), want) == 0;
        if (!found)
            return S_FALSE;
    }
    return S_TRUE;
}

static s_tri_t
s_eval(const s_node_t *node, const json_t *item)
{
    switch (node->type) {
        case S_N_NOT:
            return s_not(s_eval(node->child, item));
        case S_N_CHAIN: {
            //  Right-grouped: a op (b op (c ...)), folded from the right.
            s_tri_t result = s_eval(node->nodes[node->count - 1], item);
            for (size_t i = node->count - 1; i-- > 0;) {
                s_tri_t left = s_eval(node->nodes[i], item);
                result = node->ops[i] == '&' ? s_and(left, result) : s_or(left, result);
            }
            return result;
        }
        case S_N_CMP:
        default: {
            const json_t *field = json_object_get(item, node->field);
            if (!json_is_array(field))
                return s_compare_scalar(node, field);
            if (node->op == S_OP_CONTAINS)
                return s_array_contains(field, &node->value);
            //  As Backend.AI's array fields: any item satisfying it is enough.
            s_tri_t result = S_FALSE;
            for (size_t i = 0; i < json_array_size(field) && result != S_TRUE; i++)
                result = s_or(result, s_compare_scalar(node, json_array_get(field, i)));
            return result;
        }
    }
}

bool
gw_minilang_filter_match(const gw_minilang_filter_t *self, const json_t *item)
{
    assert(self);
    return json_is_object(item) && s_eval(self->root, item) == S_TRUE;
}

void
gw_minilang_filter_destroy(gw_minilang_filter_t **self_p)
{
    assert(self_p);
    if (*self_p) {
        s_node_free((*self_p)->root);
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
s_parse_order(s_parser_t *p, s_key_t **keys_p, size_t *count_p)
{
    s_key_t *keys = NULL;
    size_t count = 0, capacity = 0;
    s_next(p);
    if (p->token.type != S_T_END) {
        while (!p->failed) {
            bool descending = false;
            if (p->token.type == S_T_PLUS || p->token.type == S_T_MINUS) {
                descending = p->token.type == S_T_MINUS;
                s_next(p);
            }
            if (p->token.type != S_T_IDENT) {
                s_unexpected(p);
                break;
            }
            if (count == capacity) {
                capacity = capacity ? capacity * 2 : 4;
                s_key_t *more = realloc(keys, capacity * sizeof *keys);
                if (!more) {
                    s_fail(p, "out of memory");
                    break;
                }
                keys = more;
            }
            keys[count].field = strndup(p->text + p->token.start, p->token.length);
            keys[count].descending = descending;
            if (!keys[count].field) {
                s_fail(p, "out of memory");
                break;
            }
            count++;
            if (!s_field_allowed(p, keys[count - 1].field))
                break;
            s_next(p);
            if (p->token.type == S_T_END)
                break;
            if (p->token.type != S_T_COMMA) {
                s_unexpected(p);
                break;
            }
            s_next(p);
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
    s_parser_t p;
    if (!s_parser_init(&p, text, fields, "Query ordering parsing error", error,
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
            s_fail(&p, "out of memory");
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

static json_t *s_push_node(s_push_t *push, const s_node_t *node, int *depth);

//  One comparison, or NULL when it stays in memory.
static json_t *
s_push_compare(s_push_t *push, const s_node_t *node)
{
    const gw_minilang_column_t *c = s_push_column(push, node->field, true);
    if (!c)
        return NULL;
    const s_value_t *v = &node->value;
    static const char *const ops[] = {
        [S_OP_EQ] = "=",  [S_OP_NE] = "<>", [S_OP_GT] = ">",
        [S_OP_GE] = ">=", [S_OP_LT] = "<",  [S_OP_LE] = "<="};
    switch (node->op) {
        case S_OP_IS:
        case S_OP_ISNOT:
            //  is true/false: a text field is never a boolean, null or not.
            if (v->type != S_V_NULL)
                return json_pack("[s]", (node->op == S_OP_IS) ? "false" : "true");
            return json_pack("[s, s]", node->op == S_OP_IS ? "isnull" : "notnull",
                             c->column);
        case S_OP_EQ:
        case S_OP_NE:
        case S_OP_GT:
        case S_OP_GE:
        case S_OP_LT:
        case S_OP_LE:
            if (v->type == S_V_NULL) {
                if (node->op == S_OP_EQ || node->op == S_OP_NE)
                    return json_pack("[s, s]", node->op == S_OP_EQ ? "isnull" : "notnull",
                                     c->column);
                return json_pack("[s]", "unknown");
            }
            if (v->type != S_V_STRING || push->values >= GW_MINILANG_PUSH_VALUES_MAX)
                return NULL;
            push->values++;
            return json_pack("[s, s, s%]", ops[node->op], c->column, v->string,
                             v->length);
        case S_OP_IN: {
            //  Items of another type never equal a string: left out.
            json_t *items = json_array();
            bool has_null = false;
            for (size_t i = 0; i < v->count; i++) {
                const s_value_t *item = &v->items[i];
                if (item->type == S_V_NULL)
                    has_null = true;
                else if (item->type == S_V_STRING) {
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
        case S_OP_LIKE:
        case S_OP_ILIKE:
        case S_OP_CONTAINS: {
            //  contains on a string is like %value% (its % and _ still wild).
            const char *pat = node->op == S_OP_CONTAINS ? node->pattern : v->string;
            size_t pn = node->op == S_OP_CONTAINS ? node->pattern_length : v->length;
            if (!pat || push->values >= GW_MINILANG_PUSH_VALUES_MAX)
                return NULL;
            json_t *pattern = s_push_pattern(pat, pn, node->op != S_OP_ILIKE);
            if (!pattern)
                return NULL;
            push->values++;
            return json_pack("[s, s, o]", node->op == S_OP_ILIKE ? "like" : "glob",
                             c->column, pattern);
        }
        default:
            return NULL;
    }
}

//  nodes[start..] of a chain, right-grouped: a op (b op (c ...)), with runs
//  of one operator flat. NULL when any part stays in memory.
static json_t *
s_push_chain(s_push_t *push, const s_node_t *chain, size_t start, int *depth)
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
s_push_node(s_push_t *push, const s_node_t *node, int *depth)
{
    *depth = 1;
    if (node->type == S_N_CMP)
        return s_push_compare(push, node);
    if (node->type == S_N_NOT) {
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
s_push_conjuncts(s_push_t *push, const s_node_t *node, json_t *terms)
{
    bool complete = true;
    size_t start = 0;
    if (node->type == S_N_CHAIN) {
        //  a & (b op ...): a is a conjunct, and so are the rest's.
        for (; start + 1 < node->count && node->ops[start] == '&'; start++)
            complete &= s_push_conjuncts(push, node->nodes[start], terms);
        if (start + 1 == node->count)
            return s_push_conjuncts(push, node->nodes[start], terms) && complete;
    }
    size_t values = push->values;
    int depth = 0;
    json_t *term = node->type == S_N_CHAIN ? s_push_chain(push, node, start, &depth)
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
    s_parser_t p;
    if (!s_parser_init(&p, text, fields, "Query ordering parsing error", error,
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
