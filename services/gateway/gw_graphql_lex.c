/*  =========================================================================
    gw_graphql_lex - GraphQL errors, UTF-8, the arena and the lexer

    The lexer hands the parser one token at a time (GraphQL is LL(1)) and
    decodes strings as it meets them. Every node comes from the document's
    arena, so a parse that fails anywhere frees everything with the
    document. Lists grow in arena vectors that double. Positions stay byte
    offsets until a token or an error needs a line and column; those are
    found by scanning forward from the last offset located, so the cost
    stays linear in the input.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "gw_graphql_private.h"

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

//  Quotes up to GW_GRAPHQL_SHOWN_MAX code points of text into out (GW_GRAPHQL_SHOWN_SIZE
//  bytes): control characters and malformed bytes become '?', and "..."
//  marks a cut.
const char *
gw_graphql_excerpt(const char *text, size_t len, char *out)
{
    const unsigned char *s = (const unsigned char *) text;
    size_t i = 0, o = 0, shown = 0;
    while (i < len && shown < GW_GRAPHQL_SHOWN_MAX) {
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

void
gw_graphql_error_set(gw_gql_error_t *err, int line, int column, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    s_error_vset(err, line, column, fmt, args);
    va_end(args);
}

void
gw_graphql_error_clear(gw_gql_error_t *err)
{
    if (err) {
        err->message[0] = '\0';
        err->line = 0;
        err->column = 0;
    }
}

//  Records the first error of a parse; later ones are consequences.
void
gw_graphql_fail(gw_graphql_parser_t *p, int line, int column, const char *fmt, ...)
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
s_locate(gw_graphql_parser_t *p, size_t offset, int *line, int *column)
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

static void s_fail_at(gw_graphql_parser_t *p, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
s_fail_at(gw_graphql_parser_t *p, size_t offset, const char *fmt, ...)
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
int
gw_graphql_work(gw_graphql_parser_t *p, size_t steps)
{
    p->work += steps;
    if (p->work > GW_GQL_MAX_WORK) {
        gw_graphql_fail(
            p, 0, 0, "Document is too complex: validating it takes more than %d steps.",
            GW_GQL_MAX_WORK);
        return -1;
    }
    return 0;
}

//  Steps charged for hashing or comparing a string of len bytes.
size_t
gw_graphql_cost(size_t len)
{
    return 1 + len / GW_GRAPHQL_WORK_BYTES;
}

//  ---------------------------------------------------------------------------
//  Arena, vectors, hash tables

//  Zeroed memory that lives as long as the document, or NULL (failed).
void *
gw_graphql_alloc(gw_graphql_parser_t *p, size_t size)
{
    size_t align = sizeof(max_align_t);
    if (size > SIZE_MAX / 2) {
        gw_graphql_fail(p, 0, 0, "Out of memory.");
        return NULL;
    }
    size = (size + align - 1) / align * align;
    gw_graphql_chunk_t *chunk = p->doc->chunks;
    if (!chunk || chunk->size - chunk->used < size) {
        size_t want = size > GW_GRAPHQL_CHUNK_SIZE ? size : GW_GRAPHQL_CHUNK_SIZE;
        chunk = malloc(sizeof *chunk + want);
        if (!chunk) {
            gw_graphql_fail(p, 0, 0, "Out of memory.");
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

char *
gw_graphql_strndup(gw_graphql_parser_t *p, const void *text, size_t len)
{
    char *copy = gw_graphql_alloc(p, len + 1);
    if (copy)
        memcpy(copy, text, len);
    return copy;
}

//  A new slot at the end of vec, or NULL (failed). Slots move when the
//  vector grows: fill them, do not keep pointers to them while pushing.
void *
gw_graphql_vec_push(gw_graphql_parser_t *p, gw_graphql_vec_t *vec, size_t size)
{
    if (vec->count == vec->capacity) {
        size_t capacity = vec->capacity ? vec->capacity * 2 : 4;
        if (capacity > SIZE_MAX / 2 / size) {
            gw_graphql_fail(p, 0, 0, "Out of memory.");
            return NULL;
        }
        void *data = gw_graphql_alloc(p, capacity * size);
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
s_map_slot(gw_graphql_parser_t *p, const gw_graphql_map_t *map, const char *key)
{
    size_t mask = map->capacity - 1, slot = s_hash(key) & mask, probes = 1;
    while (map->keys[slot] && map->keys[slot] != key &&
           strcmp(map->keys[slot], key) != 0) {
        slot = (slot + 1) & mask;
        probes++;
    }
    gw_graphql_work(p, probes * gw_graphql_cost(strlen(key)));
    return slot;
}

//  The value stored under key, or NULL (absent, or failed).
void *
gw_graphql_map_get(gw_graphql_parser_t *p, const gw_graphql_map_t *map, const char *key)
{
    if (map->count == 0)
        return NULL;
    size_t slot = s_map_slot(p, map, key);
    return map->keys[slot] ? map->values[slot] : NULL;
}

//  Stores value under key, which must be absent. 0 or -1 (failed).
int
gw_graphql_map_put(gw_graphql_parser_t *p,
                   gw_graphql_map_t *map,
                   const char *key,
                   void *value)
{
    if ((map->count + 1) * 2 > map->capacity) {
        gw_graphql_map_t grown = {
            NULL, NULL, map->capacity ? map->capacity * 2 : GW_GRAPHQL_MAP_MIN, 0};
        grown.keys = gw_graphql_alloc(p, grown.capacity * sizeof *grown.keys);
        grown.values = gw_graphql_alloc(p, grown.capacity * sizeof *grown.values);
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
s_describe_char(gw_graphql_parser_t *p, size_t pos, char *out, size_t size)
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
s_hex4(gw_graphql_parser_t *p, size_t i)
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
s_fail_escape(gw_graphql_parser_t *p, size_t start, size_t end)
{
    char shown[GW_GRAPHQL_SHOWN_SIZE];
    if (end > p->size)
        end = p->size;
    s_fail_at(p, start, "Syntax Error: Invalid Unicode escape sequence: \"%s\".",
              gw_graphql_excerpt((const char *) p->src + start, end - start, shown));
}

//  The escape \u at src[i]: its code point in *cp and its length in
//  bytes, or 0 (failed).
static size_t
s_lex_unicode(gw_graphql_parser_t *p, size_t i, uint32_t *cp)
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
s_lex_string(gw_graphql_parser_t *p, size_t start)
{
    const unsigned char *s = p->src;
    size_t n = p->size, i = start + 1;
    //  Decoding never makes text longer, so the raw extent sizes the buffer.
    while (i < n && s[i] != '"' && s[i] != '\n' && s[i] != '\r')
        i += (s[i] == '\\' && i + 1 < n) ? 2 : 1;
    size_t capacity = i - start + 4, o = 0;
    char *out = gw_graphql_alloc(p, capacity);
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
                    char shown[GW_GRAPHQL_SHOWN_SIZE];
                    size_t end = i + 1;
                    if (end < n) {
                        size_t step = s_utf8_decode(s + end, n - end, &cp);
                        end += step ? step : 1;
                    }
                    s_fail_at(p, i,
                              "Syntax Error: Invalid character escape sequence: \"%s\".",
                              gw_graphql_excerpt((const char *) s + i, end - i, shown));
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
s_lex_block_string(gw_graphql_parser_t *p, size_t start)
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
    char *raw = gw_graphql_alloc(p, end - start + 1);
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
    s_span_t *spans = gw_graphql_alloc(p, lines * sizeof *spans);
    char *out = gw_graphql_alloc(p, raw_len + 1);
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
s_lex_digits(gw_graphql_parser_t *p, size_t *i)
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
s_lex_number(gw_graphql_parser_t *p, size_t start)
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
int
gw_graphql_next(gw_graphql_parser_t *p)
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
    gw_graphql_token_t *tok = &p->tok;
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
    const char *punctuator = c && c != '_' ? strchr(GW_GRAPHQL_PUNCTUATORS, c) : NULL;
    int rc = 0;
    if (punctuator)
        tok->kind =
            (gw_graphql_token_kind_t) (T_BANG + (punctuator - GW_GRAPHQL_PUNCTUATORS));
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
