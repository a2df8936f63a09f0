/*  =========================================================================
    gw_graphql - GraphQL lexer, parser, validation and fragment inlining;
    values and variables as JSON

    The lexer hands the parser one token at a time (GraphQL is LL(1)) and
    decodes strings as it meets them. Every node comes from the document's
    arena, so a parse that fails anywhere frees everything with the
    document. Lists grow in arena vectors that double. Positions stay byte
    offsets until a token or an error needs a line and column; those are
    found by scanning forward from the last offset located, so the cost
    stays linear in the input.

    While parsing, each operation and fragment notes the variables it reads
    and the fragments it spreads. Validation works from these notes, not by
    walking trees again: known fragments, an iterative search for cycles,
    then for every operation the fragments it reaches, whose variables the
    operation must define. Inlining follows the spec's CollectFields: per
    selection set, fields are grouped by response key in a hash table, and
    each group's sub-selections are collected together one level down.
    Recursion is bounded by GW_GQL_MAX_DEPTH everywhere; a work counter
    bounds hash probes, fragment visits and comparisons, so no input makes
    validation quadratic past GW_GQL_MAX_WORK.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
//  isfinite, for float literals such as 1e999
#include <math.h>

//  Bytes in an arena chunk; larger requests get a chunk of their own size.
#define S_CHUNK_SIZE (64 * 1024)
//  Code points of a token or value quoted back in an error message.
#define S_SHOWN_MAX 40
//  Buffer for such a quotation: S_SHOWN_MAX code points, "..." and NUL.
#define S_SHOWN_SIZE (S_SHOWN_MAX * 4 + 8)
//  First number of slots of a hash table; it doubles at half load.
#define S_MAP_MIN 16
//  Longest variable path in a coercion message: "ids[3][0]".
#define S_PATH_MAX 96
//  Bytes of string comparison or hashing counted as one step of work.
#define S_WORK_BYTES 16
//  2^53: doubles this large or larger are all integers.
#define S_EXACT 9007199254740992.0

//  ---------------------------------------------------------------------------
//  Internal types

typedef struct s_chunk {
    struct s_chunk *next;
    size_t size;
    size_t used;
    max_align_t data[];
} s_chunk_t;

typedef enum {
    T_EOF,
    T_BANG,
    T_DOLLAR,
    T_AMP,
    T_PAREN_L,
    T_PAREN_R,
    T_SPREAD,
    T_COLON,
    T_EQUALS,
    T_AT,
    T_BRACKET_L,
    T_BRACKET_R,
    T_BRACE_L,
    T_PIPE,
    T_BRACE_R,
    T_NAME,
    T_INT,
    T_FLOAT,
    T_STRING,
    T_BLOCK_STRING
} s_token_kind_t;

//  The one-character punctuators in the order of their kinds from T_BANG;
//  "_" holds the place of T_SPREAD ("...").
#define S_PUNCTUATORS "!$&()_:=@[]{|}"

//  As graphql-js names them in messages; punctuators quoted.
static const char *s_kind_names[] = {
    "<EOF>", "\"!\"", "\"$\"", "\"&\"", "\"(\"",  "\")\"",      "\"...\"",
    "\":\"", "\"=\"", "\"@\"", "\"[\"", "\"]\"",  "\"{\"",      "\"|\"",
    "\"}\"", "Name",  "Int",   "Float", "String", "BlockString"};

typedef struct {
    s_token_kind_t kind;
    size_t start; //  byte offsets in the source
    size_t end;
    int line;
    int column;
    char *value; //  STRING, BLOCK_STRING: decoded, NUL-terminated
    size_t length;
} s_token_t;

//  A vector in the arena: doubling leaves the old copy behind, which at
//  most doubles what the lists cost.
typedef struct {
    void *data;
    size_t count;
    size_t capacity;
} s_vec_t;

//  Open-addressing hash table from a string to a pointer.
typedef struct {
    const char **keys;
    void **values;
    size_t capacity;
    size_t count;
} s_map_t;

//  A fragment spread or a variable read, as noted for validation.
typedef struct {
    const char *name;
    int line;
    int column;
} s_ref_t;

//  What a definition reads and spreads, lexically (not through spreads).
typedef struct {
    s_vec_t usages;  //  of s_ref_t: variables read
    s_vec_t spreads; //  of s_ref_t: fragments spread
} s_refs_t;

typedef enum { S_FIELD, S_SPREAD, S_INLINE } s_item_kind_t;

typedef struct s_psel s_psel_t;

//  One selection as written: a field, a fragment spread or an inline
//  fragment.
typedef struct {
    s_item_kind_t kind;
    const char *alias;
    const char *name; //  field name; fragment name; type condition or NULL
    const gw_gql_argument_t *arguments;
    size_t argument_count;
    const gw_gql_directive_t *directives; //  @skip/@include, any condition
    size_t directive_count;
    const s_psel_t *selection; //  NULL for a leaf field and a spread
    int line;
    int column;
} s_item_t;

//  A selection set as written.
struct s_psel {
    const s_item_t *items;
    size_t count;
};

typedef struct {
    const char *name;
    const char *type_condition;
    const s_psel_t *selection;
    s_refs_t refs;
    int line;
    int column;
    int color;          //  cycle search: 0 new, 1 on the stack, 2 done
    size_t stack_index; //  its frame while color is 1
    size_t stamp;       //  the last operation whose reach included it
    bool used;
} s_fragment_t;

//  The public operation comes first, so that a gw_gql_operation_t from
//  gw_gql_doc_operation can be cast back.
typedef struct {
    gw_gql_operation_t pub;
    const gw_gql_variable_t **sorted; //  variables by name, for bsearch
    const s_psel_t *parsed;
    s_refs_t refs;
} s_operation_t;

struct gw_gql_doc {
    s_chunk_t *chunks;
    s_operation_t **operations;
    size_t operation_count;
};

typedef struct {
    gw_gql_doc_t *doc;
    const unsigned char *src;
    size_t size;
    size_t pos; //  where the lexer continues
    size_t loc_offset;
    int loc_line;
    int loc_column;
    s_token_t tok;
    size_t tokens;
    int depth;
    size_t work;
    size_t fields;
    s_refs_t *refs;         //  of the definition being parsed
    s_vec_t operations;     //  of s_operation_t *
    s_vec_t fragments;      //  of s_fragment_t *, in document order
    s_fragment_t **by_name; //  the same, sorted by name, after parsing
    s_fragment_t **scratch; //  a stack as long as the fragment list
    gw_gql_error_t *err;
    bool failed;
} s_parser_t;

//  ---------------------------------------------------------------------------
//  Errors and UTF-8

//  Length of the well-formed UTF-8 sequence at s (n bytes available), with
//  its code point in *cp; 0 when malformed, overlong, a surrogate or cut.
static size_t
s_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    if (n == 0)
        return 0;
    uint32_t c = s[0], value, min;
    size_t len;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2, value = c & 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, value = c & 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, value = c & 0x07, min = 0x10000;
    } else
        return 0;
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        value = (value << 6) | (s[i] & 0x3F);
    }
    if (value < min || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
        return 0;
    *cp = value;
    return len;
}

//  Writes code point cp (a Unicode scalar value) as UTF-8; returns bytes.
static size_t
s_utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char) cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char) (0xC0 | (cp >> 6));
        out[1] = (char) (0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char) (0xE0 | (cp >> 12));
        out[1] = (char) (0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char) (0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char) (0xF0 | (cp >> 18));
    out[1] = (char) (0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char) (0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char) (0x80 | (cp & 0x3F));
    return 4;
}

//  A message cut by snprintf may end inside a UTF-8 sequence: drop it, so
//  that messages always go into JSON.
static void
s_utf8_trim(char *text)
{
    size_t len = strlen(text);
    if (len == 0 || (unsigned char) text[len - 1] < 0x80)
        return;
    size_t start = len - 1;
    while (start > 0 && ((unsigned char) text[start] & 0xC0) == 0x80)
        start--;
    uint32_t cp;
    if (s_utf8_decode((const unsigned char *) text + start, len - start, &cp) !=
        len - start)
        text[start] = '\0';
}

//  Quotes up to S_SHOWN_MAX code points of text into out (S_SHOWN_SIZE
//  bytes): control characters and malformed bytes become '?', and "..."
//  marks a cut.
static const char *
s_excerpt(const char *text, size_t len, char *out)
{
    const unsigned char *s = (const unsigned char *) text;
    size_t i = 0, o = 0, shown = 0;
    while (i < len && shown < S_SHOWN_MAX) {
        uint32_t cp;
        size_t n = s_utf8_decode(s + i, len - i, &cp);
        if (n == 0 || cp < 0x20 || cp == 0x7F) {
            out[o++] = '?';
            i += n ? n : 1;
        } else {
            memcpy(out + o, s + i, n);
            o += n;
            i += n;
        }
        shown++;
    }
    if (i < len) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
    return out;
}

static void
s_error_vset(gw_gql_error_t *err, int line, int column, const char *fmt, va_list args)
{
    if (!err)
        return;
    vsnprintf(err->message, sizeof err->message, fmt, args);
    s_utf8_trim(err->message);
    err->line = line;
    err->column = column;
}

static void s_error_set(gw_gql_error_t *err, int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
s_error_set(gw_gql_error_t *err, int line, int column, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    s_error_vset(err, line, column, fmt, args);
    va_end(args);
}

static void
s_error_clear(gw_gql_error_t *err)
{
    if (err) {
        err->message[0] = '\0';
        err->line = 0;
        err->column = 0;
    }
}

//  Records the first error of a parse; later ones are consequences.
static void s_fail(s_parser_t *p, int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
s_fail(s_parser_t *p, int line, int column, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = true;
    va_list args;
    va_start(args, fmt);
    s_error_vset(p->err, line, column, fmt, args);
    va_end(args);
}

//  Line and column of a byte offset. Offsets asked for only grow during a
//  parse, so scanning on from the last one keeps the total linear; a
//  smaller offset starts again from the top.
static void
s_locate(s_parser_t *p, size_t offset, int *line, int *column)
{
    if (offset < p->loc_offset) {
        p->loc_offset = 0;
        p->loc_line = 1;
        p->loc_column = 1;
    }
    if (offset > p->size)
        offset = p->size;
    while (p->loc_offset < offset) {
        unsigned char c = p->src[p->loc_offset];
        if (c == '\n') {
            if (!(p->loc_offset > 0 && p->src[p->loc_offset - 1] == '\r'))
                p->loc_line++;
            p->loc_column = 1;
        } else if (c == '\r') {
            p->loc_line++;
            p->loc_column = 1;
        } else if ((c & 0xC0) != 0x80)
            p->loc_column++;
        p->loc_offset++;
    }
    *line = p->loc_line;
    *column = p->loc_column;
}

static void s_fail_at(s_parser_t *p, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
s_fail_at(s_parser_t *p, size_t offset, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = true;
    int line, column;
    s_locate(p, offset, &line, &column);
    va_list args;
    va_start(args, fmt);
    s_error_vset(p->err, line, column, fmt, args);
    va_end(args);
}

//  Counts steps of validation; fails once the document has cost too much.
static int
s_work(s_parser_t *p, size_t steps)
{
    p->work += steps;
    if (p->work > GW_GQL_MAX_WORK) {
        s_fail(p, 0, 0,
               "Document is too complex: validating it takes more than %d steps.",
               GW_GQL_MAX_WORK);
        return -1;
    }
    return 0;
}

//  Steps charged for hashing or comparing a string of len bytes.
static size_t
s_cost(size_t len)
{
    return 1 + len / S_WORK_BYTES;
}

//  ---------------------------------------------------------------------------
//  Arena, vectors, hash tables

//  Zeroed memory that lives as long as the document, or NULL (failed).
static void *
s_alloc(s_parser_t *p, size_t size)
{
    size_t align = sizeof(max_align_t);
    if (size > SIZE_MAX / 2) {
        s_fail(p, 0, 0, "Out of memory.");
        return NULL;
    }
    size = (size + align - 1) / align * align;
    s_chunk_t *chunk = p->doc->chunks;
    if (!chunk || chunk->size - chunk->used < size) {
        size_t want = size > S_CHUNK_SIZE ? size : S_CHUNK_SIZE;
        chunk = malloc(sizeof *chunk + want);
        if (!chunk) {
            s_fail(p, 0, 0, "Out of memory.");
            return NULL;
        }
        chunk->size = want;
        chunk->used = 0;
        chunk->next = p->doc->chunks;
        p->doc->chunks = chunk;
    }
    void *memory = (char *) chunk->data + chunk->used;
    chunk->used += size;
    memset(memory, 0, size);
    return memory;
}

static char *
s_strndup(s_parser_t *p, const void *text, size_t len)
{
    char *copy = s_alloc(p, len + 1);
    if (copy)
        memcpy(copy, text, len);
    return copy;
}

//  A new slot at the end of vec, or NULL (failed). Slots move when the
//  vector grows: fill them, do not keep pointers to them while pushing.
static void *
s_vec_push(s_parser_t *p, s_vec_t *vec, size_t size)
{
    if (vec->count == vec->capacity) {
        size_t capacity = vec->capacity ? vec->capacity * 2 : 4;
        if (capacity > SIZE_MAX / 2 / size) {
            s_fail(p, 0, 0, "Out of memory.");
            return NULL;
        }
        void *data = s_alloc(p, capacity * size);
        if (!data)
            return NULL;
        if (vec->count)
            memcpy(data, vec->data, vec->count * size);
        vec->data = data;
        vec->capacity = capacity;
    }
    return (char *) vec->data + size * vec->count++;
}

//  FNV-1a; probes are charged to the work counter, so crafted collisions
//  only make a document fail sooner.
static size_t
s_hash(const char *key)
{
    uint64_t hash = UINT64_C(14695981039346656037);
    for (const unsigned char *s = (const unsigned char *) key; *s; s++)
        hash = (hash ^ *s) * UINT64_C(1099511628211);
    return (size_t) (hash ^ (hash >> 29));
}

//  Slot of key: where it is, or the empty slot where it would go.
static size_t
s_map_slot(s_parser_t *p, const s_map_t *map, const char *key)
{
    size_t mask = map->capacity - 1, slot = s_hash(key) & mask, probes = 1;
    while (map->keys[slot] && map->keys[slot] != key &&
           strcmp(map->keys[slot], key) != 0) {
        slot = (slot + 1) & mask;
        probes++;
    }
    s_work(p, probes * s_cost(strlen(key)));
    return slot;
}

//  The value stored under key, or NULL (absent, or failed).
static void *
s_map_get(s_parser_t *p, const s_map_t *map, const char *key)
{
    if (map->count == 0)
        return NULL;
    size_t slot = s_map_slot(p, map, key);
    return map->keys[slot] ? map->values[slot] : NULL;
}

//  Stores value under key, which must be absent. 0 or -1 (failed).
static int
s_map_put(s_parser_t *p, s_map_t *map, const char *key, void *value)
{
    if ((map->count + 1) * 2 > map->capacity) {
        s_map_t grown = {NULL, NULL, map->capacity ? map->capacity * 2 : S_MAP_MIN, 0};
        grown.keys = s_alloc(p, grown.capacity * sizeof *grown.keys);
        grown.values = s_alloc(p, grown.capacity * sizeof *grown.values);
        if (!grown.keys || !grown.values)
            return -1;
        for (size_t i = 0; i < map->capacity; i++)
            if (map->keys[i]) {
                size_t slot = s_map_slot(p, &grown, map->keys[i]);
                grown.keys[slot] = map->keys[i];
                grown.values[slot] = map->values[i];
                grown.count++;
            }
        *map = grown;
    }
    size_t slot = s_map_slot(p, map, key);
    map->keys[slot] = key;
    map->values[slot] = value;
    map->count++;
    return p->failed ? -1 : 0;
}

//  ---------------------------------------------------------------------------
//  Lexer

static bool
s_is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static bool
s_is_name_start(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool
s_is_name_char(unsigned char c)
{
    return s_is_name_start(c) || s_is_digit(c);
}

static int
s_hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

//  The character at pos as graphql-js prints it: "<EOF>", "x" or U+XXXX.
static const char *
s_describe_char(s_parser_t *p, size_t pos, char *out, size_t size)
{
    if (pos >= p->size)
        snprintf(out, size, "<EOF>");
    else {
        uint32_t cp;
        unsigned char c = p->src[pos];
        if (c >= 0x20 && c < 0x7F)
            snprintf(out, size, c == '"' ? "'\"'" : "\"%c\"", c);
        else if (s_utf8_decode(p->src + pos, p->size - pos, &cp))
            snprintf(out, size, "U+%04" PRIX32, cp);
        else
            snprintf(out, size, "U+FFFD");
    }
    return out;
}

//  Four hex digits at s[i..i+4) as a number, or -1.
static long
s_hex4(s_parser_t *p, size_t i)
{
    if (i + 4 > p->size)
        return -1;
    long value = 0;
    for (size_t k = 0; k < 4; k++) {
        int digit = s_hex_value(p->src[i + k]);
        if (digit < 0)
            return -1;
        value = value * 16 + digit;
    }
    return value;
}

static void
s_fail_escape(s_parser_t *p, size_t start, size_t end)
{
    char shown[S_SHOWN_SIZE];
    if (end > p->size)
        end = p->size;
    s_fail_at(p, start, "Syntax Error: Invalid Unicode escape sequence: \"%s\".",
              s_excerpt((const char *) p->src + start, end - start, shown));
}

//  The escape \u at src[i]: its code point in *cp and its length in
//  bytes, or 0 (failed).
static size_t
s_lex_unicode(s_parser_t *p, size_t i, uint32_t *cp)
{
    const unsigned char *s = p->src;
    if (i + 2 < p->size && s[i + 2] == '{') {
        uint32_t value = 0;
        size_t j = i + 3, digits = 0;
        int digit;
        while (j < p->size && value <= 0x10FFFF && (digit = s_hex_value(s[j])) >= 0) {
            value = value * 16 + (uint32_t) digit;
            digits++;
            j++;
        }
        if (j < p->size && s[j] == '}' && digits > 0 && value <= 0x10FFFF &&
            !(value >= 0xD800 && value <= 0xDFFF)) {
            *cp = value;
            return j + 1 - i;
        }
        s_fail_escape(p, i, j + 1);
        return 0;
    }
    long value = s_hex4(p, i + 2);
    if (value < 0) {
        s_fail_escape(p, i, i + 6);
        return 0;
    }
    if (value >= 0xD800 && value <= 0xDBFF && i + 12 <= p->size && s[i + 6] == '\\' &&
        s[i + 7] == 'u') {
        long trail = s_hex4(p, i + 8);
        if (trail >= 0xDC00 && trail <= 0xDFFF) {
            *cp = 0x10000 + (((uint32_t) value - 0xD800) << 10) +
                  ((uint32_t) trail - 0xDC00);
            return 12;
        }
    }
    if (value >= 0xD800 && value <= 0xDFFF) {
        s_fail_escape(p, i, i + 6);
        return 0;
    }
    *cp = (uint32_t) value;
    return 6;
}

//  "...": decodes escapes into the token's value. 0 or -1.
static int
s_lex_string(s_parser_t *p, size_t start)
{
    const unsigned char *s = p->src;
    size_t n = p->size, i = start + 1;
    //  Decoding never makes text longer, so the raw extent sizes the buffer.
    while (i < n && s[i] != '"' && s[i] != '\n' && s[i] != '\r')
        i += (s[i] == '\\' && i + 1 < n) ? 2 : 1;
    size_t capacity = i - start + 4, o = 0;
    char *out = s_alloc(p, capacity);
    if (!out)
        return -1;
    i = start + 1;
    while (true) {
        if (i >= n || s[i] == '\n' || s[i] == '\r') {
            s_fail_at(p, i, "Syntax Error: Unterminated string.");
            return -1;
        }
        unsigned char c = s[i];
        uint32_t cp;
        size_t len;
        if (c == '"') {
            i++;
            break;
        }
        if (o + 4 >= capacity) {
            s_fail_at(p, i, "Syntax Error: Unterminated string.");
            return -1;
        }
        if (c == '\\') {
            char escaped = 0;
            switch (i + 1 < n ? s[i + 1] : 0) {
                case '"':
                    escaped = '"';
                    break;
                case '\\':
                    escaped = '\\';
                    break;
                case '/':
                    escaped = '/';
                    break;
                case 'b':
                    escaped = '\b';
                    break;
                case 'f':
                    escaped = '\f';
                    break;
                case 'n':
                    escaped = '\n';
                    break;
                case 'r':
                    escaped = '\r';
                    break;
                case 't':
                    escaped = '\t';
                    break;
                case 'u':
                    len = s_lex_unicode(p, i, &cp);
                    if (len == 0)
                        return -1;
                    o += s_utf8_encode(cp, out + o);
                    i += len;
                    continue;
                default: {
                    char shown[S_SHOWN_SIZE];
                    size_t end = i + 1;
                    if (end < n) {
                        size_t step = s_utf8_decode(s + end, n - end, &cp);
                        end += step ? step : 1;
                    }
                    s_fail_at(p, i,
                              "Syntax Error: Invalid character escape sequence: \"%s\".",
                              s_excerpt((const char *) s + i, end - i, shown));
                    return -1;
                }
            }
            out[o++] = escaped;
            i += 2;
        } else if (c < 0x20 && c != '\t') {
            s_fail_at(p, i, "Syntax Error: Invalid character within String: U+%04X.", c);
            return -1;
        } else if (c < 0x80)
            out[o++] = (char) s[i++];
        else if ((len = s_utf8_decode(s + i, n - i, &cp)) == 0) {
            s_fail_at(p, i, "Syntax Error: Invalid UTF-8 sequence.");
            return -1;
        } else {
            memcpy(out + o, s + i, len);
            o += len;
            i += len;
        }
    }
    p->tok.kind = T_STRING;
    p->tok.value = out;
    p->tok.length = o;
    p->tok.end = i;
    return 0;
}

typedef struct {
    size_t start;
    size_t len;
} s_span_t;

static bool
s_is_blank(char c)
{
    return c == ' ' || c == '\t';
}

//  """...""": the raw text with \""" unescaped, then the spec's
//  BlockStringValue: common indentation and blank edge lines removed.
static int
s_lex_block_string(s_parser_t *p, size_t start)
{
    const unsigned char *s = p->src;
    size_t n = p->size, i = start + 3, end;
    while (true) {
        if (i >= n) {
            s_fail_at(p, n, "Syntax Error: Unterminated string.");
            return -1;
        }
        unsigned char c = s[i];
        uint32_t cp;
        size_t len;
        if (c == '"' && i + 2 < n && s[i + 1] == '"' && s[i + 2] == '"') {
            end = i;
            break;
        }
        if (c == '\\' && i + 3 < n && s[i + 1] == '"' && s[i + 2] == '"' &&
            s[i + 3] == '"')
            i += 4;
        else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            s_fail_at(p, i, "Syntax Error: Invalid character within String: U+%04X.", c);
            return -1;
        } else if (c < 0x80)
            i++;
        else if ((len = s_utf8_decode(s + i, n - i, &cp)) == 0) {
            s_fail_at(p, i, "Syntax Error: Invalid UTF-8 sequence.");
            return -1;
        } else
            i += len;
    }
    char *raw = s_alloc(p, end - start + 1);
    if (!raw)
        return -1;
    size_t raw_len = 0, lines = 1;
    for (i = start + 3; i < end;) {
        if (s[i] == '\\' && i + 3 < end && s[i + 1] == '"' && s[i + 2] == '"' &&
            s[i + 3] == '"') {
            memcpy(raw + raw_len, "\"\"\"", 3);
            raw_len += 3;
            i += 4;
            continue;
        }
        if (s[i] == '\n' || (s[i] == '\r' && !(i + 1 < end && s[i + 1] == '\n')))
            lines++;
        raw[raw_len++] = (char) s[i++];
    }
    s_span_t *spans = s_alloc(p, lines * sizeof *spans);
    char *out = s_alloc(p, raw_len + 1);
    if (!spans || !out)
        return -1;
    size_t line = 0, line_start = 0;
    for (i = 0; i <= raw_len; i++) {
        if (i == raw_len || raw[i] == '\n' || raw[i] == '\r') {
            spans[line].start = line_start;
            spans[line].len = i - line_start;
            line++;
            if (i < raw_len && raw[i] == '\r' && i + 1 < raw_len && raw[i + 1] == '\n')
                i++;
            line_start = i + 1;
        }
    }
    size_t common = SIZE_MAX, first = SIZE_MAX, last = 0;
    for (line = 0; line < lines; line++) {
        size_t indent = 0;
        while (indent < spans[line].len && s_is_blank(raw[spans[line].start + indent]))
            indent++;
        if (indent == spans[line].len)
            continue;
        if (first == SIZE_MAX)
            first = line;
        last = line;
        if (line > 0 && indent < common)
            common = indent;
    }
    size_t o = 0;
    for (line = first; first != SIZE_MAX && line <= last; line++) {
        size_t cut =
            line == 0 ? 0 : (common < spans[line].len ? common : spans[line].len);
        memcpy(out + o, raw + spans[line].start + cut, spans[line].len - cut);
        o += spans[line].len - cut;
        if (line < last)
            out[o++] = '\n';
    }
    p->tok.kind = T_BLOCK_STRING;
    p->tok.value = out;
    p->tok.length = o;
    p->tok.end = end + 3;
    return 0;
}

static int
s_lex_digits(s_parser_t *p, size_t *i)
{
    if (*i >= p->size || !s_is_digit(p->src[*i])) {
        char shown[16];
        s_fail_at(p, *i, "Syntax Error: Invalid number, expected digit but got: %s.",
                  s_describe_char(p, *i, shown, sizeof shown));
        return -1;
    }
    while (*i < p->size && s_is_digit(p->src[*i]))
        (*i)++;
    return 0;
}

static int
s_lex_number(s_parser_t *p, size_t start)
{
    const unsigned char *s = p->src;
    size_t n = p->size, i = start;
    bool is_float = false;
    if (s[i] == '-')
        i++;
    if (i < n && s[i] == '0') {
        i++;
        if (i < n && s_is_digit(s[i])) {
            s_fail_at(p, i,
                      "Syntax Error: Invalid number, unexpected digit after 0: \"%c\".",
                      s[i]);
            return -1;
        }
    } else if (s_lex_digits(p, &i) != 0)
        return -1;
    if (i < n && s[i] == '.') {
        is_float = true;
        i++;
        if (s_lex_digits(p, &i) != 0)
            return -1;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        is_float = true;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        if (s_lex_digits(p, &i) != 0)
            return -1;
    }
    if (i < n && (s[i] == '.' || s_is_name_start(s[i]))) {
        char shown[16];
        s_fail_at(p, i, "Syntax Error: Invalid number, expected digit but got: %s.",
                  s_describe_char(p, i, shown, sizeof shown));
        return -1;
    }
    p->tok.kind = is_float ? T_FLOAT : T_INT;
    p->tok.end = i;
    return 0;
}

//  Skips ignored text (BOM, white space, line ends, commas, comments) and
//  reads the next token into p->tok. 0 or -1 (failed).
static int
s_next(s_parser_t *p)
{
    const unsigned char *s = p->src;
    size_t n = p->size, i = p->pos;
    while (i < n) {
        unsigned char c = s[i];
        if (c == ' ' || c == '\t' || c == ',' || c == '\n' || c == '\r')
            i++;
        else if (c == 0xEF && i + 2 < n && s[i + 1] == 0xBB && s[i + 2] == 0xBF)
            i += 3;
        else if (c == '#') {
            i++;
            while (i < n && s[i] != '\n' && s[i] != '\r') {
                uint32_t cp;
                size_t len = s[i] < 0x80 ? 1 : s_utf8_decode(s + i, n - i, &cp);
                if (len == 0) {
                    s_fail_at(p, i, "Syntax Error: Invalid UTF-8 sequence.");
                    return -1;
                }
                i += len;
            }
        } else
            break;
    }
    s_token_t *tok = &p->tok;
    memset(tok, 0, sizeof *tok);
    tok->start = i;
    tok->end = i + 1;
    s_locate(p, i, &tok->line, &tok->column);
    if (i >= n) {
        tok->kind = T_EOF;
        tok->end = i;
        p->pos = i;
        return 0;
    }
    if (++p->tokens > GW_GQL_MAX_TOKENS) {
        s_fail_at(p, i,
                  "Syntax Error: Document contains more than %d tokens. Parsing aborted.",
                  GW_GQL_MAX_TOKENS);
        return -1;
    }
    unsigned char c = s[i];
    const char *punctuator = c && c != '_' ? strchr(S_PUNCTUATORS, c) : NULL;
    int rc = 0;
    if (punctuator)
        tok->kind = (s_token_kind_t) (T_BANG + (punctuator - S_PUNCTUATORS));
    else if (c == '.' && i + 2 < n && s[i + 1] == '.' && s[i + 2] == '.') {
        tok->kind = T_SPREAD;
        tok->end = i + 3;
    } else if (c == '"' && i + 2 < n && s[i + 1] == '"' && s[i + 2] == '"')
        rc = s_lex_block_string(p, i);
    else if (c == '"')
        rc = s_lex_string(p, i);
    else if (c == '-' || s_is_digit(c))
        rc = s_lex_number(p, i);
    else if (s_is_name_start(c)) {
        while (tok->end < n && s_is_name_char(s[tok->end]))
            tok->end++;
        tok->kind = T_NAME;
    } else {
        uint32_t cp;
        char shown[16];
        if (c == '\'')
            s_fail_at(p, i,
                      "Syntax Error: Unexpected single quote character ('), did you mean "
                      "to use a double quote (\")?");
        else if (c >= 0x80 && !s_utf8_decode(s + i, n - i, &cp))
            s_fail_at(p, i, "Syntax Error: Invalid UTF-8 sequence.");
        else
            s_fail_at(p, i, "Syntax Error: Unexpected character: %s.",
                      s_describe_char(p, i, shown, sizeof shown));
        rc = -1;
    }
    p->pos = tok->end;
    return rc;
}

//  ---------------------------------------------------------------------------
//  Parser

static bool
s_peek_name(s_parser_t *p, const char *word)
{
    size_t len = strlen(word);
    return p->tok.kind == T_NAME && p->tok.end - p->tok.start == len &&
           memcmp(p->src + p->tok.start, word, len) == 0;
}

//  The current token as graphql-js describes it: "}" or Name "foo".
static const char *
s_token_desc(s_parser_t *p, char *out, size_t size)
{
    s_token_t *tok = &p->tok;
    char shown[S_SHOWN_SIZE];
    if (tok->kind == T_STRING || tok->kind == T_BLOCK_STRING)
        snprintf(out, size, "%s \"%s\"", s_kind_names[tok->kind],
                 s_excerpt(tok->value, tok->length, shown));
    else if (tok->kind == T_NAME || tok->kind == T_INT || tok->kind == T_FLOAT)
        snprintf(
            out, size, "%s \"%s\"", s_kind_names[tok->kind],
            s_excerpt((const char *) p->src + tok->start, tok->end - tok->start, shown));
    else
        snprintf(out, size, "%s", s_kind_names[tok->kind]);
    return out;
}

static int
s_unexpected(s_parser_t *p)
{
    char desc[S_SHOWN_SIZE + 32];
    s_fail(p, p->tok.line, p->tok.column, "Syntax Error: Unexpected %s.",
           s_token_desc(p, desc, sizeof desc));
    return -1;
}

static int
s_expect(s_parser_t *p, s_token_kind_t kind)
{
    if (p->tok.kind == kind)
        return s_next(p);
    char desc[S_SHOWN_SIZE + 32];
    s_fail(p, p->tok.line, p->tok.column, "Syntax Error: Expected %s, found %s.",
           s_kind_names[kind], s_token_desc(p, desc, sizeof desc));
    return -1;
}

//  The current Name token, copied, and the next token read; or NULL.
static const char *
s_expect_name(s_parser_t *p)
{
    if (p->tok.kind != T_NAME) {
        s_expect(p, T_NAME);
        return NULL;
    }
    const char *name = s_strndup(p, p->src + p->tok.start, p->tok.end - p->tok.start);
    if (!name || s_next(p) != 0)
        return NULL;
    return name;
}

static int
s_enter(s_parser_t *p)
{
    if (++p->depth > GW_GQL_MAX_DEPTH) {
        s_fail(p, p->tok.line, p->tok.column,
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

static bool
s_is_after(int line, int column, int other_line, int other_column)
{
    return line > other_line || (line == other_line && column > other_column);
}

//  Names in a list of arguments or object fields are unique: sort a copy
//  (no input makes it quadratic) and compare neighbours. what is
//  "argument" or "input field".
static int
s_check_unique(s_parser_t *p,
               const gw_gql_argument_t *list,
               size_t count,
               const char *what)
{
    if (count < 2)
        return 0;
    const gw_gql_argument_t **sorted = s_alloc(p, count * sizeof *sorted);
    if (!sorted)
        return -1;
    for (size_t i = 0; i < count; i++)
        sorted[i] = &list[i];
    qsort(sorted, count, sizeof *sorted, s_compare_arguments);
    for (size_t i = 1; i < count; i++)
        if (strcmp(sorted[i - 1]->name, sorted[i]->name) == 0) {
            const gw_gql_argument_t *later = sorted[i];
            if (s_is_after(sorted[i - 1]->line, sorted[i - 1]->column, later->line,
                           later->column))
                later = sorted[i - 1];
            s_fail(p, later->line, later->column,
                   "There can be only one %s named \"%s\".", what, later->name);
            return -1;
        }
    return 0;
}

static int s_parse_value(s_parser_t *p, bool is_const, gw_gql_value_t *value);

//  Name ":" Value, for arguments and object fields.
static int
s_parse_named_value(s_parser_t *p, bool is_const, gw_gql_argument_t *out)
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
s_parse_int(s_parser_t *p, gw_gql_value_t *value)
{
    const char *text = value->text;
    bool negative = text[0] == '-';
    uint64_t limit = negative ? UINT64_C(9223372036854775808) : INT64_MAX, number = 0;
    for (const char *d = text + negative; *d; d++) {
        uint64_t digit = (uint64_t) (*d - '0');
        if (number > (limit - digit) / 10) {
            char shown[S_SHOWN_SIZE];
            s_fail(p, value->line, value->column,
                   "Int cannot represent non 64-bit signed integer value: %s",
                   s_excerpt(text, value->length, shown));
            return -1;
        }
        number = number * 10 + digit;
    }
    value->integer = negative ? (int64_t) (0 - number) : (int64_t) number;
    return 0;
}

static int
s_parse_value(s_parser_t *p, bool is_const, gw_gql_value_t *value)
{
    s_token_t *tok = &p->tok;
    memset(value, 0, sizeof *value);
    value->line = tok->line;
    value->column = tok->column;
    switch (tok->kind) {
        case T_BRACKET_L:
        case T_BRACE_L: {
            bool is_list = tok->kind == T_BRACKET_L;
            if (s_enter(p) != 0 || s_next(p) != 0)
                return -1;
            s_vec_t list = {0};
            while (tok->kind != (is_list ? T_BRACKET_R : T_BRACE_R)) {
                if (is_list) {
                    gw_gql_value_t item, *slot;
                    if (s_parse_value(p, is_const, &item) != 0 ||
                        !(slot = s_vec_push(p, &list, sizeof item)))
                        return -1;
                    *slot = item;
                } else {
                    gw_gql_argument_t field, *slot;
                    if (s_parse_named_value(p, is_const, &field) != 0 ||
                        !(slot = s_vec_push(p, &list, sizeof field)))
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
            return s_next(p);
        }
        case T_INT:
        case T_FLOAT:
            value->length = tok->end - tok->start;
            value->text = s_strndup(p, p->src + tok->start, value->length);
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
                    char shown[S_SHOWN_SIZE];
                    s_fail(p, value->line, value->column,
                           "Float cannot represent non numeric value: %s",
                           s_excerpt(value->text, value->length, shown));
                    return -1;
                }
            }
            return s_next(p);
        case T_STRING:
        case T_BLOCK_STRING:
            value->kind = GW_GQL_STRING;
            value->text = tok->value;
            value->length = tok->length;
            return s_next(p);
        case T_NAME:
            if (s_peek_name(p, "true") || s_peek_name(p, "false")) {
                value->kind = GW_GQL_BOOLEAN;
                value->boolean = s_peek_name(p, "true");
                return s_next(p);
            }
            if (s_peek_name(p, "null")) {
                value->kind = GW_GQL_NULL;
                return s_next(p);
            }
            value->kind = GW_GQL_ENUM;
            value->text = s_expect_name(p);
            value->length = value->text ? strlen(value->text) : 0;
            return value->text ? 0 : -1;
        case T_DOLLAR:
            if (s_next(p) != 0)
                return -1;
            if (is_const) {
                if (tok->kind != T_NAME)
                    return s_unexpected(p);
                s_fail(p, value->line, value->column,
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
                s_ref_t *usage = s_vec_push(p, &p->refs->usages, sizeof *usage);
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
s_parse_arguments(s_parser_t *p,
                  bool is_const,
                  const gw_gql_argument_t **arguments,
                  size_t *count)
{
    *arguments = NULL;
    *count = 0;
    if (p->tok.kind != T_PAREN_L)
        return 0;
    if (s_next(p) != 0)
        return -1;
    s_vec_t list = {0};
    do {
        gw_gql_argument_t argument, *slot;
        if (s_parse_named_value(p, is_const, &argument) != 0 ||
            !(slot = s_vec_push(p, &list, sizeof argument)))
            return -1;
        *slot = argument;
    } while (p->tok.kind != T_PAREN_R);
    *arguments = list.data;
    *count = list.count;
    if (s_check_unique(p, *arguments, *count, "argument") != 0)
        return -1;
    return s_next(p);
}

//  Directives where they may stand. location names the place where none is
//  allowed (QUERY, VARIABLE_DEFINITION, ...); NULL where @skip and
//  @include are (fields, spreads, inline fragments).
static int
s_parse_directives(s_parser_t *p,
                   const char *location,
                   bool is_const,
                   const gw_gql_directive_t **directives,
                   size_t *count)
{
    s_vec_t list = {0};
    while (p->tok.kind == T_AT) {
        int line = p->tok.line, column = p->tok.column;
        if (s_next(p) != 0)
            return -1;
        const char *name = s_expect_name(p);
        if (!name)
            return -1;
        if (strcmp(name, "skip") != 0 && strcmp(name, "include") != 0) {
            s_fail(p, line, column, "Unknown directive \"@%s\".", name);
            return -1;
        }
        if (location) {
            s_fail(p, line, column, "Directive \"@%s\" may not be used on %s.", name,
                   location);
            return -1;
        }
        const gw_gql_directive_t *seen = list.data;
        for (size_t i = 0; i < list.count; i++)
            if (strcmp(seen[i].name, name) == 0) {
                s_fail(p, line, column,
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
                s_fail(p, arguments[i].line, arguments[i].column,
                       "Unknown argument \"%s\" on directive \"@%s\".", arguments[i].name,
                       name);
                return -1;
            }
            condition = &arguments[i].value;
        }
        if (!condition) {
            s_fail(
                p, line, column,
                "Directive \"@%s\" argument \"if\" of type \"Boolean!\" is required, but "
                "it was not provided.",
                name);
            return -1;
        }
        if (condition->kind != GW_GQL_BOOLEAN && condition->kind != GW_GQL_VARIABLE) {
            s_fail(p, condition->line, condition->column,
                   "Argument \"if\" of directive \"@%s\" must be a Boolean.", name);
            return -1;
        }
        gw_gql_directive_t *slot = s_vec_push(p, &list, sizeof *slot);
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

static const s_psel_t *s_parse_selection_set(s_parser_t *p);

static int
s_parse_selection(s_parser_t *p, s_item_t *item)
{
    memset(item, 0, sizeof *item);
    item->line = p->tok.line;
    item->column = p->tok.column;
    if (p->tok.kind == T_SPREAD) {
        if (s_next(p) != 0)
            return -1;
        if (p->tok.kind == T_NAME && !s_peek_name(p, "on")) {
            item->kind = S_SPREAD;
            item->name = s_expect_name(p);
            if (!item->name)
                return -1;
            s_ref_t *ref = s_vec_push(p, &p->refs->spreads, sizeof *ref);
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
            if (s_next(p) != 0 || !(item->name = s_expect_name(p)))
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
        if (s_next(p) != 0 || !(item->name = s_expect_name(p)))
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
static const s_psel_t *
s_parse_selection_set(s_parser_t *p)
{
    if (p->tok.kind != T_BRACE_L) {
        s_expect(p, T_BRACE_L);
        return NULL;
    }
    if (s_enter(p) != 0 || s_next(p) != 0)
        return NULL;
    s_vec_t items = {0};
    do {
        s_item_t item, *slot;
        if (s_parse_selection(p, &item) != 0 ||
            !(slot = s_vec_push(p, &items, sizeof item)))
            return NULL;
        *slot = item;
    } while (p->tok.kind != T_BRACE_R);
    p->depth--;
    s_psel_t *set = s_alloc(p, sizeof *set);
    if (!set || s_next(p) != 0)
        return NULL;
    set->items = items.data;
    set->count = items.count;
    return set;
}

static const gw_gql_type_t *
s_parse_type(s_parser_t *p)
{
    gw_gql_type_t *type = s_alloc(p, sizeof *type);
    if (!type)
        return NULL;
    const char *inner;
    if (p->tok.kind == T_BRACKET_L) {
        if (s_enter(p) != 0 || s_next(p) != 0 || !(type->item = s_parse_type(p)) ||
            s_expect(p, T_BRACKET_R) != 0)
            return NULL;
        p->depth--;
        inner = type->item->text;
    } else if (!(type->name = s_expect_name(p)))
        return NULL;
    else
        inner = type->name;
    if (p->tok.kind == T_BANG) {
        type->non_null = true;
        if (s_next(p) != 0)
            return NULL;
    }
    size_t len = strlen(inner);
    char *text = s_alloc(p, len + 4);
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
s_parse_variable_definitions(s_parser_t *p, s_operation_t *op)
{
    s_vec_t list = {0};
    if (s_next(p) != 0)
        return -1;
    do {
        gw_gql_variable_t variable = {0}, *slot;
        variable.line = p->tok.line;
        variable.column = p->tok.column;
        if (s_expect(p, T_DOLLAR) != 0 || !(variable.name = s_expect_name(p)) ||
            s_expect(p, T_COLON) != 0 || !(variable.type = s_parse_type(p)))
            return -1;
        if (p->tok.kind == T_EQUALS) {
            gw_gql_value_t *value = s_alloc(p, sizeof *value);
            if (!value || s_next(p) != 0 || s_parse_value(p, true, value) != 0)
                return -1;
            variable.default_value = value;
        }
        const gw_gql_directive_t *directives;
        size_t directive_count;
        if (s_parse_directives(p, "VARIABLE_DEFINITION", true, &directives,
                               &directive_count) != 0 ||
            !(slot = s_vec_push(p, &list, sizeof variable)))
            return -1;
        *slot = variable;
    } while (p->tok.kind != T_PAREN_R);
    if (s_next(p) != 0)
        return -1;
    op->pub.variables = list.data;
    op->pub.variable_count = list.count;
    op->sorted = s_alloc(p, list.count * sizeof *op->sorted);
    if (!op->sorted)
        return -1;
    for (size_t i = 0; i < list.count; i++)
        op->sorted[i] = &op->pub.variables[i];
    qsort(op->sorted, list.count, sizeof *op->sorted, s_compare_variables);
    for (size_t i = 1; i < list.count; i++)
        if (strcmp(op->sorted[i - 1]->name, op->sorted[i]->name) == 0) {
            const gw_gql_variable_t *later = op->sorted[i];
            if (s_is_after(op->sorted[i - 1]->line, op->sorted[i - 1]->column,
                           later->line, later->column))
                later = op->sorted[i - 1];
            s_fail(p, later->line, later->column,
                   "There can be only one variable named \"$%s\".", later->name);
            return -1;
        }
    return 0;
}

static int
s_parse_operation(s_parser_t *p)
{
    s_operation_t *op = s_alloc(p, sizeof *op), **slot;
    if (!op || !(slot = s_vec_push(p, &p->operations, sizeof *slot)))
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
        if (s_next(p) != 0)
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
s_parse_fragment(s_parser_t *p)
{
    s_fragment_t *fragment = s_alloc(p, sizeof *fragment), **slot;
    if (!fragment || !(slot = s_vec_push(p, &p->fragments, sizeof *slot)))
        return -1;
    *slot = fragment;
    fragment->line = p->tok.line;
    fragment->column = p->tok.column;
    p->refs = &fragment->refs;
    if (s_next(p) != 0)
        return -1;
    if (s_peek_name(p, "on"))
        return s_unexpected(p);
    if (!(fragment->name = s_expect_name(p)))
        return -1;
    if (!s_peek_name(p, "on")) {
        char desc[S_SHOWN_SIZE + 32];
        s_fail(p, p->tok.line, p->tok.column, "Syntax Error: Expected \"on\", found %s.",
               s_token_desc(p, desc, sizeof desc));
        return -1;
    }
    const gw_gql_directive_t *directives;
    size_t directive_count;
    if (s_next(p) != 0 || !(fragment->type_condition = s_expect_name(p)) ||
        s_parse_directives(p, "FRAGMENT_DEFINITION", false, &directives,
                           &directive_count) != 0)
        return -1;
    fragment->selection = s_parse_selection_set(p);
    return fragment->selection ? 0 : -1;
}

static int
s_parse_document(s_parser_t *p)
{
    if (s_next(p) != 0)
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
//  Validation

static int
s_compare_fragments(const void *a, const void *b)
{
    const s_fragment_t *x = *(const s_fragment_t *const *) a;
    const s_fragment_t *y = *(const s_fragment_t *const *) b;
    return strcmp(x->name, y->name);
}

static s_fragment_t *
s_find_fragment(s_parser_t *p, const char *name)
{
    size_t low = 0, high = p->fragments.count, cost = s_cost(strlen(name));
    while (low < high) {
        if (s_work(p, cost) != 0)
            return NULL;
        size_t mid = low + (high - low) / 2;
        int order = strcmp(name, p->by_name[mid]->name);
        if (order == 0)
            return p->by_name[mid];
        if (order < 0)
            high = mid;
        else
            low = mid + 1;
    }
    return NULL;
}

//  The definition of variable name in op, or NULL; *steps counts the
//  comparisons (may be NULL).
static const gw_gql_variable_t *
s_find_variable(const s_operation_t *op, const char *name, size_t *steps)
{
    size_t low = 0, high = op->pub.variable_count;
    while (low < high) {
        if (steps)
            (*steps)++;
        size_t mid = low + (high - low) / 2;
        int order = strcmp(name, op->sorted[mid]->name);
        if (order == 0)
            return op->sorted[mid];
        if (order < 0)
            high = mid;
        else
            low = mid + 1;
    }
    return NULL;
}

static int
s_check_names(s_parser_t *p)
{
    s_operation_t **ops = p->operations.data;
    size_t count = p->operations.count;
    for (size_t i = 0; i < count && count > 1; i++)
        if (!ops[i]->pub.name) {
            s_fail(p, ops[i]->pub.line, ops[i]->pub.column,
                   "This anonymous operation must be the only defined operation.");
            return -1;
        }
    //  With more than one operation, all have names.
    s_map_t seen = {0};
    for (size_t i = 0; i < count && count > 1; i++) {
        const char *name = ops[i]->pub.name;
        if (s_map_get(p, &seen, name)) {
            s_fail(p, ops[i]->pub.line, ops[i]->pub.column,
                   "There can be only one operation named \"%s\".", name);
            return -1;
        }
        if (p->failed || s_map_put(p, &seen, name, ops[i]) != 0)
            return -1;
    }
    size_t fragments = p->fragments.count;
    p->by_name = s_alloc(p, (fragments + 1) * sizeof *p->by_name);
    p->scratch = s_alloc(p, (fragments + 1) * sizeof *p->scratch);
    if (!p->by_name || !p->scratch)
        return -1;
    if (fragments) {
        memcpy(p->by_name, p->fragments.data, fragments * sizeof *p->by_name);
        qsort(p->by_name, fragments, sizeof *p->by_name, s_compare_fragments);
    }
    for (size_t i = 1; i < fragments; i++)
        if (strcmp(p->by_name[i - 1]->name, p->by_name[i]->name) == 0) {
            const s_fragment_t *later = p->by_name[i];
            if (s_is_after(p->by_name[i - 1]->line, p->by_name[i - 1]->column,
                           later->line, later->column))
                later = p->by_name[i - 1];
            s_fail(p, later->line, later->column,
                   "There can be only one fragment named \"%s\".", later->name);
            return -1;
        }
    return 0;
}

//  Every spread names a fragment of the document.
static int
s_check_known(s_parser_t *p, const s_refs_t *refs)
{
    const s_ref_t *spreads = refs->spreads.data;
    for (size_t i = 0; i < refs->spreads.count; i++)
        if (!s_find_fragment(p, spreads[i].name)) {
            if (!p->failed)
                s_fail(p, spreads[i].line, spreads[i].column, "Unknown fragment \"%s\".",
                       spreads[i].name);
            return -1;
        }
    return 0;
}

static void
s_append(char *buffer, size_t size, const char *text)
{
    size_t len = strlen(buffer);
    if (len + 1 < size)
        snprintf(buffer + len, size - len, "%s", text);
}

//  Depth-first search over the spread graph with a stack of our own (a
//  chain of fragments may be as long as the document).
static int
s_check_cycles(s_parser_t *p)
{
    typedef struct {
        s_fragment_t *fragment;
        size_t next;
    } s_frame_t;
    size_t count = p->fragments.count;
    s_fragment_t **fragments = p->fragments.data;
    s_frame_t *frames = s_alloc(p, (count + 1) * sizeof *frames);
    if (!frames)
        return -1;
    for (size_t f = 0; f < count; f++) {
        if (fragments[f]->color != 0)
            continue;
        size_t top = 0;
        frames[0].fragment = fragments[f];
        frames[0].next = 0;
        fragments[f]->color = 1;
        fragments[f]->stack_index = 0;
        while (true) {
            s_frame_t *frame = &frames[top];
            const s_refs_t *refs = &frame->fragment->refs;
            if (frame->next == refs->spreads.count) {
                frame->fragment->color = 2;
                if (top == 0)
                    break;
                top--;
                continue;
            }
            const s_ref_t *ref = (const s_ref_t *) refs->spreads.data + frame->next++;
            s_fragment_t *target = s_find_fragment(p, ref->name);
            if (!target)
                return -1;
            if (target->color == 1) {
                char message[GW_GQL_ERROR_MAX];
                snprintf(message, sizeof message,
                         "Cannot spread fragment \"%s\" within itself", target->name);
                for (size_t k = target->stack_index + 1; k <= top; k++) {
                    const char *name = frames[k].fragment->name;
                    //  Room for the name, its quotes and separator, and ", ...".
                    if (strlen(message) + strlen(name) + 12 >= sizeof message) {
                        s_append(message, sizeof message, ", ...");
                        break;
                    }
                    s_append(message, sizeof message,
                             k == target->stack_index + 1 ? " via \"" : ", \"");
                    s_append(message, sizeof message, name);
                    s_append(message, sizeof message, "\"");
                }
                s_append(message, sizeof message, ".");
                s_fail(p, ref->line, ref->column, "%s", message);
                return -1;
            }
            if (target->color == 0) {
                target->color = 1;
                target->stack_index = ++top;
                frames[top].fragment = target;
                frames[top].next = 0;
            }
        }
    }
    return 0;
}

static int
s_check_usages(s_parser_t *p, const s_operation_t *op, const s_refs_t *refs)
{
    const s_ref_t *usages = refs->usages.data;
    for (size_t i = 0; i < refs->usages.count; i++) {
        size_t steps = 1;
        const gw_gql_variable_t *variable = s_find_variable(op, usages[i].name, &steps);
        if (s_work(p, steps * s_cost(strlen(usages[i].name))) != 0)
            return -1;
        if (!variable) {
            if (op->pub.name)
                s_fail(p, usages[i].line, usages[i].column,
                       "Variable \"$%s\" is not defined by operation \"%s\".",
                       usages[i].name, op->pub.name);
            else
                s_fail(p, usages[i].line, usages[i].column,
                       "Variable \"$%s\" is not defined.", usages[i].name);
            return -1;
        }
    }
    return 0;
}

//  The variables read by op and by every fragment it reaches are defined
//  by op; those fragments are used.
static int
s_check_variables(s_parser_t *p, const s_operation_t *op, size_t stamp)
{
    if (s_check_usages(p, op, &op->refs) != 0)
        return -1;
    size_t top = 0;
    const s_refs_t *refs = &op->refs;
    while (true) {
        const s_ref_t *spreads = refs->spreads.data;
        for (size_t i = 0; i < refs->spreads.count; i++) {
            s_fragment_t *target = s_find_fragment(p, spreads[i].name);
            if (!target)
                return -1;
            if (target->stamp != stamp) {
                target->stamp = stamp;
                p->scratch[top++] = target;
            }
        }
        if (top == 0)
            return 0;
        s_fragment_t *fragment = p->scratch[--top];
        fragment->used = true;
        if (s_check_usages(p, op, &fragment->refs) != 0)
            return -1;
        refs = &fragment->refs;
    }
}

static int
s_validate(s_parser_t *p)
{
    if (s_check_names(p) != 0)
        return -1;
    s_operation_t **ops = p->operations.data;
    s_fragment_t **fragments = p->fragments.data;
    for (size_t i = 0; i < p->operations.count; i++)
        if (s_check_known(p, &ops[i]->refs) != 0)
            return -1;
    for (size_t i = 0; i < p->fragments.count; i++)
        if (s_check_known(p, &fragments[i]->refs) != 0)
            return -1;
    if (s_check_cycles(p) != 0)
        return -1;
    for (size_t i = 0; i < p->operations.count; i++)
        if (s_check_variables(p, ops[i], i + 1) != 0)
            return -1;
    for (size_t i = 0; i < p->fragments.count; i++)
        if (!fragments[i]->used) {
            s_fail(p, fragments[i]->line, fragments[i]->column,
                   "Fragment \"%s\" is never used.", fragments[i]->name);
            return -1;
        }
    return 0;
}

//  ---------------------------------------------------------------------------
//  Inlining: the spec's CollectFields, one selection set at a time

//  A condition that reads a variable, inherited from enclosing fragments.
typedef struct s_cond {
    const gw_gql_directive_t *directive;
    const struct s_cond *next;
} s_cond_t;

typedef struct s_occurrence {
    const s_item_t *item;
    struct s_occurrence *next;
} s_occurrence_t;

//  Fields of one response key and the same conditions, merged into one.
typedef struct s_group {
    const s_item_t *first;
    const s_cond_t *conds;
    size_t cond_count;
    s_occurrence_t *occurrences;
    s_occurrence_t *last;
    struct s_group *next;     //  in document order
    struct s_group *same_key; //  another group of the key, other conditions
} s_group_t;

typedef struct {
    s_map_t keys; //  response key -> first s_group_t of the key
    s_group_t *head;
    s_group_t *tail;
    size_t count;
} s_collect_t;

static bool
s_value_equal(s_parser_t *p, const gw_gql_value_t *a, const gw_gql_value_t *b);

static bool
s_arguments_equal(s_parser_t *p,
                  const gw_gql_argument_t *a,
                  size_t a_count,
                  const gw_gql_argument_t *b,
                  size_t b_count)
{
    if (a_count != b_count)
        return false;
    if (a == b)
        return true;
    //  Usually in the same order; otherwise look each one up.
    for (size_t i = 0; i < a_count; i++) {
        const gw_gql_argument_t *match = NULL;
        size_t cost = s_cost(strlen(a[i].name));
        for (size_t k = 0; !match && k < b_count; k++) {
            size_t j = (i + k) % b_count;
            if (s_work(p, cost) != 0)
                return false;
            if (a[i].name == b[j].name || strcmp(a[i].name, b[j].name) == 0)
                match = &b[j];
        }
        if (!match || !s_value_equal(p, &a[i].value, &match->value))
            return false;
    }
    return true;
}

static bool
s_value_equal(s_parser_t *p, const gw_gql_value_t *a, const gw_gql_value_t *b)
{
    if (a == b)
        return true;
    if (s_work(p, s_cost(a->length)) != 0 || a->kind != b->kind)
        return false;
    switch (a->kind) {
        case GW_GQL_INT:
            return a->integer == b->integer;
        case GW_GQL_FLOAT:
            return a->number == b->number;
        case GW_GQL_BOOLEAN:
            return a->boolean == b->boolean;
        case GW_GQL_NULL:
            return true;
        case GW_GQL_LIST:
            if (a->count != b->count)
                return false;
            for (size_t i = 0; i < a->count; i++)
                if (!s_value_equal(p, &a->items[i], &b->items[i]))
                    return false;
            return true;
        case GW_GQL_OBJECT:
            return s_arguments_equal(p, a->fields, a->count, b->fields, b->count);
        default:
            return a->length == b->length && memcmp(a->text, b->text, a->length) == 0;
    }
}

static bool
s_conds_equal(s_parser_t *p, const s_cond_t *a, const s_cond_t *b)
{
    for (; a && b; a = a->next, b = b->next)
        if (strcmp(a->directive->name, b->directive->name) != 0 ||
            !s_value_equal(p, a->directive->condition, b->directive->condition))
            return false;
    return !a && !b;
}

static int
s_collect_field(s_parser_t *p,
                s_collect_t *c,
                const s_item_t *item,
                const s_cond_t *conds)
{
    const char *key = item->alias ? item->alias : item->name;
    s_group_t *head = s_map_get(p, &c->keys, key), *group = NULL;
    if (p->failed)
        return -1;
    if (head) {
        const s_item_t *first = head->first;
        const char *why = NULL;
        if (s_work(p, s_cost(strlen(key))) != 0)
            return -1;
        if (first->name != item->name && strcmp(first->name, item->name) != 0) {
            s_fail(
                p, item->line, item->column,
                "Fields \"%s\" conflict because \"%s\" and \"%s\" are different fields. "
                "Use different aliases on the fields to fetch both if this was "
                "intentional.",
                key, first->name, item->name);
            return -1;
        }
        if (!s_arguments_equal(p, first->arguments, first->argument_count,
                               item->arguments, item->argument_count))
            why = "they have differing arguments";
        else if (!first->selection != !item->selection)
            why = "subfields are selected on only one of them";
        if (p->failed)
            return -1;
        if (why) {
            s_fail(
                p, item->line, item->column,
                "Fields \"%s\" conflict because %s. Use different aliases on the fields "
                "to fetch both if this was intentional.",
                key, why);
            return -1;
        }
        group = head;
        while (group && !s_conds_equal(p, group->conds, conds))
            group = group->same_key;
        if (p->failed)
            return -1;
    }
    if (!group) {
        group = s_alloc(p, sizeof *group);
        if (!group)
            return -1;
        group->first = item;
        group->conds = conds;
        for (const s_cond_t *cond = conds; cond; cond = cond->next)
            group->cond_count++;
        if (head) {
            group->same_key = head->same_key;
            head->same_key = group;
        } else if (s_map_put(p, &c->keys, key, group) != 0)
            return -1;
        if (c->tail)
            c->tail->next = group;
        else
            c->head = group;
        c->tail = group;
        c->count++;
    }
    s_occurrence_t *occurrence = s_alloc(p, sizeof *occurrence);
    if (!occurrence)
        return -1;
    occurrence->item = item;
    if (group->last)
        group->last->next = occurrence;
    else
        group->occurrences = occurrence;
    group->last = occurrence;
    return 0;
}

//  Collects the fields of set into c, through fragments. nest counts the
//  spreads and inline fragments entered.
static int
s_collect(
    s_parser_t *p, s_collect_t *c, const s_psel_t *set, const s_cond_t *conds, int nest)
{
    for (size_t i = 0; i < set->count; i++) {
        const s_item_t *item = &set->items[i];
        const s_cond_t *item_conds = conds;
        bool skipped = false;
        if (s_work(p, 1) != 0)
            return -1;
        for (size_t d = 0; d < item->directive_count; d++) {
            const gw_gql_directive_t *directive = &item->directives[d];
            if (directive->condition->kind == GW_GQL_BOOLEAN) {
                bool include = strcmp(directive->name, "include") == 0;
                if (directive->condition->boolean != include)
                    skipped = true;
                continue;
            }
            s_cond_t *cond = s_alloc(p, sizeof *cond);
            if (!cond)
                return -1;
            cond->directive = directive;
            cond->next = item_conds;
            item_conds = cond;
        }
        if (skipped)
            continue;
        if (item->kind == S_FIELD) {
            if (s_collect_field(p, c, item, item_conds) != 0)
                return -1;
            continue;
        }
        const s_psel_t *inner = item->selection;
        if (item->kind == S_SPREAD) {
            const s_fragment_t *fragment = s_find_fragment(p, item->name);
            if (!fragment)
                return -1;
            inner = fragment->selection;
        }
        if (nest + 1 > GW_GQL_MAX_DEPTH) {
            s_fail(p, item->line, item->column,
                   "Fragments are nested more than %d levels deep.", GW_GQL_MAX_DEPTH);
            return -1;
        }
        if (s_collect(p, c, inner, item_conds, nest + 1) != 0)
            return -1;
    }
    return 0;
}

//  The selection of root, or of every occurrence in group, as public
//  fields; depth is the nesting level of the result.
static const gw_gql_selection_t *
s_resolve(s_parser_t *p, const s_psel_t *root, const s_group_t *group, int depth)
{
    if (depth > GW_GQL_MAX_DEPTH) {
        s_fail(p, group->first->line, group->first->column,
               "Fields are nested more than %d levels deep once fragments are inlined.",
               GW_GQL_MAX_DEPTH);
        return NULL;
    }
    s_collect_t c = {0};
    if (root && s_collect(p, &c, root, NULL, 0) != 0)
        return NULL;
    for (const s_occurrence_t *o = group ? group->occurrences : NULL; o; o = o->next)
        if (s_collect(p, &c, o->item->selection, NULL, 0) != 0)
            return NULL;
    p->fields += c.count;
    if (p->fields > GW_GQL_MAX_FIELDS) {
        s_fail(p, 0, 0,
               "Document selects more than %d fields once fragments are inlined.",
               GW_GQL_MAX_FIELDS);
        return NULL;
    }
    gw_gql_selection_t *selection = s_alloc(p, sizeof *selection);
    gw_gql_field_t *fields = s_alloc(p, c.count * sizeof *fields);
    if (!selection || !fields)
        return NULL;
    size_t i = 0;
    for (const s_group_t *g = c.head; g; g = g->next, i++) {
        const s_item_t *item = g->first;
        gw_gql_field_t *field = &fields[i];
        field->alias = item->alias;
        field->name = item->name;
        field->key = item->alias ? item->alias : item->name;
        field->arguments = item->arguments;
        field->argument_count = item->argument_count;
        field->line = item->line;
        field->column = item->column;
        if (g->cond_count) {
            gw_gql_directive_t *directives =
                s_alloc(p, g->cond_count * sizeof *directives);
            if (!directives)
                return NULL;
            size_t d = 0;
            for (const s_cond_t *cond = g->conds; cond; cond = cond->next)
                directives[d++] = *cond->directive;
            field->directives = directives;
            field->directive_count = d;
        }
        if (item->selection && !(field->selection = s_resolve(p, NULL, g, depth + 1)))
            return NULL;
    }
    selection->fields = fields;
    selection->count = c.count;
    return selection;
}

//  ---------------------------------------------------------------------------
//  Documents

gw_gql_doc_t *
gw_gql_parse(const char *text, size_t size, gw_gql_error_t *err)
{
    assert(text || size == 0);
    s_error_clear(err);
    if (size > GW_GQL_MAX_INPUT) {
        s_error_set(err, 0, 0, "Document is larger than %d bytes.", GW_GQL_MAX_INPUT);
        return NULL;
    }
    gw_gql_doc_t *doc = calloc(1, sizeof *doc);
    if (!doc) {
        s_error_set(err, 0, 0, "Out of memory.");
        return NULL;
    }
    s_parser_t parser = {0}, *p = &parser;
    p->doc = doc;
    p->src = (const unsigned char *) (text ? text : "");
    p->size = size;
    p->loc_line = 1;
    p->loc_column = 1;
    p->err = err;
    if (s_parse_document(p) == 0 && s_validate(p) == 0) {
        s_operation_t **ops = p->operations.data;
        for (size_t i = 0; i < p->operations.count; i++) {
            const gw_gql_selection_t *selection = s_resolve(p, ops[i]->parsed, NULL, 1);
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
            s_chunk_t *next = self->chunks->next;
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
    s_error_clear(err);
    if (name && *name) {
        for (size_t i = 0; i < self->operation_count; i++)
            if (self->operations[i]->pub.name &&
                strcmp(self->operations[i]->pub.name, name) == 0)
                return &self->operations[i]->pub;
        char shown[S_SHOWN_SIZE];
        s_error_set(err, 0, 0, "Unknown operation named \"%s\".",
                    s_excerpt(name, strlen(name), shown));
        return NULL;
    }
    if (self->operation_count == 1)
        return &self->operations[0]->pub;
    if (self->operation_count == 0)
        s_error_set(err, 0, 0, "Must provide an operation.");
    else
        s_error_set(err, 0, 0,
                    "Must provide operation name if query contains multiple operations.");
    return NULL;
}

//  ---------------------------------------------------------------------------
//  Variables and values as JSON

//  A JSON value as graphql-js inspects it in messages, cut to fit.
static const char *
s_inspect(const json_t *value, char *out)
{
    char *dump = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT | JSON_ENSURE_ASCII |
                                       JSON_SORT_KEYS);
    if (!dump)
        return strcpy(out, "?");
    s_excerpt(dump, strlen(dump), out);
    free(dump);
    return out;
}

//  value as a GraphQL built-in scalar of type name, or an incref'd value
//  for other named types. NULL with reason when it cannot be coerced.
static json_t *
s_coerce_scalar(const char *name, json_t *value, char *reason, size_t size)
{
    char shown[S_SHOWN_SIZE];
    if (strcmp(name, "Int") == 0) {
        double number = json_number_value(value);
        //  Beyond 2^53 every double is integral; below, the cast is exact.
        bool integral =
            json_is_integer(value) ||
            (json_is_real(value) && (number >= S_EXACT || number <= -S_EXACT ||
                                     number == (double) (int64_t) number));
        if (!integral)
            snprintf(reason, size, "Int cannot represent non-integer value: %s",
                     s_inspect(value, shown));
        else if (json_is_integer(value) ? json_integer_value(value) < INT32_MIN ||
                                              json_integer_value(value) > INT32_MAX
                                        : number < INT32_MIN || number > INT32_MAX)
            snprintf(reason, size,
                     "Int cannot represent non 32-bit signed integer value: %s",
                     s_inspect(value, shown));
        else
            return json_integer(json_is_integer(value) ? json_integer_value(value)
                                                       : (json_int_t) number);
        return NULL;
    }
    if (strcmp(name, "Float") == 0) {
        if (json_is_number(value))
            return json_real(json_number_value(value));
        snprintf(reason, size, "Float cannot represent non numeric value: %s",
                 s_inspect(value, shown));
        return NULL;
    }
    if (strcmp(name, "String") == 0 || strcmp(name, "Boolean") == 0) {
        bool is_string = name[0] == 'S';
        if (is_string ? json_is_string(value) : json_is_boolean(value))
            return json_incref(value);
        snprintf(reason, size, "%s cannot represent a non %s value: %s", name,
                 is_string ? "string" : "boolean", s_inspect(value, shown));
        return NULL;
    }
    if (strcmp(name, "ID") == 0) {
        if (json_is_string(value))
            return json_incref(value);
        if (json_is_integer(value)) {
            char digits[32];
            snprintf(digits, sizeof digits, "%" JSON_INTEGER_FORMAT,
                     json_integer_value(value));
            return json_string(digits);
        }
        snprintf(reason, size, "ID cannot represent value: %s", s_inspect(value, shown));
        return NULL;
    }
    if (strcmp(name, "JSONString") == 0) {
        json_t *parsed = NULL;
        if (json_is_string(value))
            parsed = json_loadb(json_string_value(value), json_string_length(value),
                                JSON_DECODE_ANY, NULL);
        if (parsed) {
            json_decref(parsed);
            return json_incref(value);
        }
        snprintf(reason, size, "JSONString cannot represent value: %s",
                 s_inspect(value, shown));
        return NULL;
    }
    return json_incref(value);
}

//  value (not NULL) coerced to type; path names where it sits, for
//  messages. NULL with *invalid and reason on a mismatch. Recursion
//  follows the type, at most GW_GQL_MAX_DEPTH lists deep.
static json_t *
s_coerce(const gw_gql_type_t *type,
         json_t *value,
         char *path,
         json_t **invalid,
         char *reason,
         size_t size)
{
    if (json_is_null(value)) {
        if (!type->non_null)
            return json_null();
        snprintf(reason, size, "Expected non-nullable type \"%s\" not to be null.",
                 type->text);
        *invalid = value;
        return NULL;
    }
    if (!type->item) {
        json_t *coerced = s_coerce_scalar(type->name, value, reason, size);
        if (!coerced && !reason[0])
            snprintf(reason, size, "Out of memory.");
        if (!coerced)
            *invalid = value;
        return coerced;
    }
    json_t *list = json_array();
    if (!list) {
        snprintf(reason, size, "Out of memory.");
        *invalid = value;
        return NULL;
    }
    size_t len = strlen(path), count = json_is_array(value) ? json_array_size(value) : 1;
    for (size_t i = 0; i < count; i++) {
        json_t *item = json_is_array(value) ? json_array_get(value, i) : value;
        if (json_is_array(value))
            snprintf(path + len, S_PATH_MAX - len, "[%zu]", i);
        json_t *coerced = s_coerce(type->item, item, path, invalid, reason, size);
        if (!coerced || json_array_append_new(list, coerced) != 0) {
            if (coerced && !reason[0]) {
                snprintf(reason, size, "Out of memory.");
                *invalid = value;
            }
            json_decref(list);
            return NULL;
        }
    }
    path[len] = '\0';
    return list;
}

static json_t *s_value_json(const gw_gql_value_t *value,
                            const s_operation_t *op,
                            json_t *variables,
                            gw_gql_error_t *err,
                            bool *absent);

json_t *
gw_gql_operation_coerce_variables(const gw_gql_operation_t *op,
                                  json_t *variables,
                                  gw_gql_error_t *err)
{
    assert(op);
    s_error_clear(err);
    if (variables && !json_is_object(variables)) {
        s_error_set(err, 0, 0,
                    "Variables must be provided as an Object where each property is a "
                    "variable value.");
        return NULL;
    }
    json_t *coerced = json_object();
    if (!coerced) {
        s_error_set(err, 0, 0, "Out of memory.");
        return NULL;
    }
    for (size_t i = 0; i < op->variable_count; i++) {
        const gw_gql_variable_t *variable = &op->variables[i];
        json_t *value = variables ? json_object_get(variables, variable->name) : NULL;
        json_t *fallback = NULL, *invalid = NULL, *result;
        char path[S_PATH_MAX], reason[GW_GQL_ERROR_MAX] = "", shown[S_SHOWN_SIZE];
        snprintf(path, sizeof path, "%s", variable->name);
        size_t root_len = strlen(path);
        if (!value && !variable->default_value) {
            if (variable->type->non_null) {
                s_error_set(err, variable->line, variable->column,
                            "Variable \"$%s\" of required type \"%s\" was not provided.",
                            variable->name, variable->type->text);
                goto fail;
            }
            continue;
        }
        if (!value) {
            bool absent = false;
            fallback = s_value_json(variable->default_value, NULL, NULL, err, &absent);
            if (!fallback)
                goto fail;
            result =
                s_coerce(variable->type, fallback, path, &invalid, reason, sizeof reason);
            if (!result) {
                s_error_set(err, variable->line, variable->column,
                            "Variable \"$%s\" has invalid default value %s; %s",
                            variable->name, s_inspect(fallback, shown), reason);
                json_decref(fallback);
                goto fail;
            }
            json_decref(fallback);
        } else if (json_is_null(value) && variable->type->non_null) {
            s_error_set(err, variable->line, variable->column,
                        "Variable \"$%s\" of non-null type \"%s\" must not be null.",
                        variable->name, variable->type->text);
            goto fail;
        } else if (!(result = s_coerce(variable->type, value, path, &invalid, reason,
                                       sizeof reason))) {
            char at[S_PATH_MAX + 8] = "";
            if (strlen(path) > root_len)
                snprintf(at, sizeof at, " at \"%s\"", path);
            s_error_set(err, variable->line, variable->column,
                        "Variable \"$%s\" got invalid value %s%s; %s", variable->name,
                        s_inspect(invalid ? invalid : value, shown), at, reason);
            goto fail;
        }
        if (json_object_set_new(coerced, variable->name, result) != 0) {
            s_error_set(err, 0, 0, "Out of memory.");
            goto fail;
        }
    }
    return coerced;
fail:
    json_decref(coerced);
    return NULL;
}

static json_t *
s_value_json(const gw_gql_value_t *value,
             const s_operation_t *op,
             json_t *variables,
             gw_gql_error_t *err,
             bool *absent)
{
    json_t *json = NULL;
    *absent = false;
    switch (value->kind) {
        case GW_GQL_VARIABLE: {
            const gw_gql_variable_t *variable =
                op ? s_find_variable(op, value->text, NULL) : NULL;
            if (!variable) {
                s_error_set(err, value->line, value->column,
                            "Variable \"$%s\" is not defined.", value->text);
                return NULL;
            }
            json_t *given = json_is_object(variables)
                                ? json_object_get(variables, variable->name)
                                : NULL;
            if (given)
                return json_incref(given);
            if (variable->default_value)
                return s_value_json(variable->default_value, NULL, NULL, err, absent);
            if (variable->type->non_null) {
                s_error_set(err, value->line, value->column,
                            "Variable \"$%s\" of required type \"%s\" was not provided.",
                            variable->name, variable->type->text);
                return NULL;
            }
            *absent = true;
            json = json_null();
            break;
        }
        case GW_GQL_INT:
            json = json_integer((json_int_t) value->integer);
            break;
        case GW_GQL_FLOAT:
            json = json_real(value->number);
            break;
        case GW_GQL_STRING:
            json = json_stringn(value->text, value->length);
            break;
        case GW_GQL_BOOLEAN:
            json = json_boolean(value->boolean);
            break;
        case GW_GQL_NULL:
            json = json_null();
            break;
        case GW_GQL_ENUM:
            json = json_string(value->text);
            break;
        case GW_GQL_LIST:
            json = json_array();
            for (size_t i = 0; json && i < value->count; i++) {
                bool missing;
                json_t *item =
                    s_value_json(&value->items[i], op, variables, err, &missing);
                if (!item) {
                    json_decref(json);
                    return NULL;
                }
                if (json_array_append_new(json, item) != 0) {
                    json_decref(json);
                    json = NULL;
                }
            }
            break;
        case GW_GQL_OBJECT:
            json = json_object();
            for (size_t i = 0; json && i < value->count; i++) {
                bool missing;
                const gw_gql_argument_t *field = &value->fields[i];
                json_t *item = s_value_json(&field->value, op, variables, err, &missing);
                if (!item) {
                    json_decref(json);
                    return NULL;
                }
                if (missing)
                    json_decref(item);
                else if (json_object_set_new(json, field->name, item) != 0) {
                    json_decref(json);
                    json = NULL;
                }
            }
            break;
    }
    if (!json)
        s_error_set(err, value->line, value->column, "Out of memory.");
    return json;
}

json_t *
gw_gql_value_json(const gw_gql_value_t *value,
                  const gw_gql_operation_t *op,
                  json_t *variables,
                  gw_gql_error_t *err)
{
    assert(value);
    s_error_clear(err);
    bool absent;
    return s_value_json(value, (const s_operation_t *) op, variables, err, &absent);
}

json_t *
gw_gql_field_argument(const gw_gql_field_t *field,
                      const char *name,
                      const gw_gql_operation_t *op,
                      json_t *variables,
                      gw_gql_error_t *err)
{
    assert(field);
    assert(name);
    s_error_clear(err);
    for (size_t i = 0; i < field->argument_count; i++)
        if (strcmp(field->arguments[i].name, name) == 0) {
            bool absent;
            json_t *json =
                s_value_json(&field->arguments[i].value, (const s_operation_t *) op,
                             variables, err, &absent);
            if (absent) {
                json_decref(json);
                return NULL;
            }
            return json;
        }
    return NULL;
}

int
gw_gql_field_included(const gw_gql_field_t *field,
                      const gw_gql_operation_t *op,
                      json_t *variables,
                      gw_gql_error_t *err)
{
    assert(field);
    s_error_clear(err);
    int included = 1;
    for (size_t i = 0; i < field->directive_count && included == 1; i++) {
        const gw_gql_directive_t *directive = &field->directives[i];
        bool absent;
        json_t *json = s_value_json(directive->condition, (const s_operation_t *) op,
                                    variables, err, &absent);
        if (!json)
            return -1;
        if (!json_is_boolean(json)) {
            char shown[S_SHOWN_SIZE];
            s_error_set(
                err, directive->line, directive->column,
                "Argument \"if\" of directive \"@%s\" must be a Boolean, found %s.",
                directive->name, s_inspect(json, shown));
            included = -1;
        } else if (json_is_true(json) != (strcmp(directive->name, "include") == 0))
            included = 0;
        json_decref(json);
    }
    return included;
}
