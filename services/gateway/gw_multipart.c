/*  =========================================================================
    gw_multipart - MIME multipart bodies: upload parsing, download building

    A one-pass parser over a body held in memory: it finds each delimiter
    (CRLF "--" boundary) with memmem, so the cost is linear in the body,
    reads the part's header lines (folded lines unfolded, Content-
    Disposition and Content-Type kept, others checked and skipped) and
    points the part's data into the body. The Content-Type and Content-
    Disposition values share one parameter parser (token or quoted-string
    values, RFC 5987 ext-values for name* and filename*). Every read is
    bounded by the body's end; every failure is BUS_STATUS_INVALID with a
    detail naming the part. Pure. The writer is gw_multipart_writer's.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define S_KEY_MAX 64 //  longest parameter name, with its NUL

//  ---------------------------------------------------------------------
//  Character classes

//  RFC 9110 tchar.
static bool
s_is_tchar(int c)
{
    return c > 0 && c < 0x7f && (isalnum(c) || strchr("!#$%&'*+-.^_`|~", c));
}

static bool
s_is_ows(int c)
{
    return c == ' ' || c == '\t';
}

//  RFC 2046 bchars: what a boundary may hold (space only quoted, never last).
static bool
s_is_bchar(int c)
{
    return c > 0 && c < 0x7f && (isalnum(c) || strchr("'()+_,-./:=? ", c));
}

static int
s_hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

//  Strict UTF-8: no overlong forms, no surrogates, nothing above U+10FFFF.
static bool
s_utf8_valid(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t extra;
        uint32_t cp, min;
        if (c >= 0xc2 && c <= 0xdf) {
            extra = 1, cp = c & 0x1f, min = 0x80;
        } else if (c >= 0xe0 && c <= 0xef) {
            extra = 2, cp = c & 0x0f, min = 0x800;
        } else if (c >= 0xf0 && c <= 0xf4) {
            extra = 3, cp = c & 0x07, min = 0x10000;
        } else
            return false;
        if (n - i - 1 < extra)
            return false;
        for (size_t k = 1; k <= extra; k++) {
            uint8_t cc = s[i + k];
            if ((cc & 0xc0) != 0x80)
                return false;
            cp = (cp << 6) | (cc & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        i += extra + 1;
    }
    return true;
}

//  Decodes %XX escapes in text[0..length). Returns a fresh string and its
//  length in *size_p, or NULL on a malformed escape or no memory.
static char *
s_percent_decode(const char *text, size_t length, size_t *size_p)
{
    char *out = malloc(length + 1);
    if (!out)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < length; i++) {
        if (text[i] != '%') {
            out[n++] = text[i];
            continue;
        }
        if (length - i < 3) {
            free(out);
            return NULL;
        }
        int h = s_hex_value((unsigned char) text[i + 1]);
        int l = s_hex_value((unsigned char) text[i + 2]);
        if (h < 0 || l < 0) {
            free(out);
            return NULL;
        }
        out[n++] = (char) (h * 16 + l);
        i += 2;
    }
    out[n] = '\0';
    *size_p = n;
    return out;
}

//  ---------------------------------------------------------------------
//  Header values: `value *( OWS ";" OWS key OWS "=" OWS (token / quoted) )`

typedef struct {
    char key[S_KEY_MAX]; //  lower-cased
    char *value;         //  quoted-string unescaped, or the token as written
} s_param_t;

typedef struct {
    char *type; //  the text before the first ';', trimmed and lower-cased
    s_param_t params[GW_MULTIPART_MAX_PARAMS];
    size_t count;
} s_hvalue_t;

static void
s_hvalue_clear(s_hvalue_t *self)
{
    free(self->type);
    for (size_t i = 0; i < self->count; i++)
        free(self->params[i].value);
    memset(self, 0, sizeof *self);
}

static const char *
s_hvalue_get(const s_hvalue_t *self, const char *key)
{
    for (size_t i = 0; i < self->count; i++)
        if (strcmp(self->params[i].key, key) == 0)
            return self->params[i].value;
    return NULL;
}

//  Reads a quoted-string at *p_p (on the opening quote) into a fresh
//  string. Returns it, or NULL with *why_p set.
static char *
s_quoted_parse(const char **p_p, const char **why_p)
{
    const char *p = *p_p + 1;
    char *out = malloc(strlen(p) + 1);
    if (!out) {
        *why_p = "out of memory";
        return NULL;
    }
    size_t n = 0;
    for (;;) {
        unsigned char c = (unsigned char) *p;
        if (c == '"') {
            p++;
            break;
        }
        if (c == '\\') {
            p++;
            c = (unsigned char) *p;
        }
        if (c == '\0') {
            *why_p = "unterminated quoted string";
            free(out);
            return NULL;
        }
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            *why_p = "control character in a quoted string";
            free(out);
            return NULL;
        }
        out[n++] = (char) c;
        p++;
    }
    out[n] = '\0';
    *p_p = p;
    return out;
}

//  Parses a header value with parameters. Returns 0, or -1 with *why_p set
//  (self is cleared either way first, and on failure).
static int
s_hvalue_parse(s_hvalue_t *self, const char *text, const char **why_p)
{
    memset(self, 0, sizeof *self);
    const char *p = text;
    while (s_is_ows(*p))
        p++;
    const char *start = p;
    while (*p && *p != ';')
        p++;
    const char *stop = p;
    while (stop > start && s_is_ows(stop[-1]))
        stop--;
    self->type = strndup(start, (size_t) (stop - start));
    if (!self->type) {
        *why_p = "out of memory";
        return -1;
    }
    for (char *c = self->type; *c; c++)
        *c = (char) tolower((unsigned char) *c);

    while (*p == ';') {
        p++;
        while (s_is_ows(*p))
            p++;
        if (*p == ';' || *p == '\0')
            continue; //  an empty parameter, as after a trailing ';'
        const char *key = p;
        while (s_is_tchar((unsigned char) *p))
            p++;
        size_t key_length = (size_t) (p - key);
        if (key_length == 0) {
            *why_p = "bad parameter name";
            goto fail;
        }
        if (key_length >= S_KEY_MAX) {
            *why_p = "parameter name too long";
            goto fail;
        }
        while (s_is_ows(*p))
            p++;
        if (*p != '=') {
            *why_p = "parameter without a value";
            goto fail;
        }
        p++;
        while (s_is_ows(*p))
            p++;
        char *value;
        if (*p == '"') {
            value = s_quoted_parse(&p, why_p);
            if (!value)
                goto fail;
        } else {
            //  Looser than a token: unquoted boundaries often hold '/' or '='.
            const char *v = p;
            while ((unsigned char) *p > 0x20 && (unsigned char) *p < 0x7f && *p != ';' &&
                   *p != '"' && *p != '\\')
                p++;
            if (p == v) {
                *why_p = "empty or bad parameter value";
                goto fail;
            }
            value = strndup(v, (size_t) (p - v));
            if (!value) {
                *why_p = "out of memory";
                goto fail;
            }
        }
        while (s_is_ows(*p))
            p++;
        if (*p != ';' && *p != '\0') {
            free(value);
            *why_p = "junk after a parameter value";
            goto fail;
        }
        char lower[S_KEY_MAX];
        for (size_t i = 0; i < key_length; i++)
            lower[i] = (char) tolower((unsigned char) key[i]);
        lower[key_length] = '\0';
        if (s_hvalue_get(self, lower)) {
            free(value);
            *why_p = "duplicate parameter";
            goto fail;
        }
        if (self->count == GW_MULTIPART_MAX_PARAMS) {
            free(value);
            *why_p = "too many parameters";
            goto fail;
        }
        memcpy(self->params[self->count].key, lower, key_length + 1);
        self->params[self->count].value = value;
        self->count++;
    }
    return 0;

fail:
    s_hvalue_clear(self);
    return -1;
}

//  Decodes an RFC 5987 ext-value (charset'language'pct-encoded) into UTF-8.
//  Returns a fresh string, or NULL with *why_p set.
static char *
s_ext_decode(const char *value, const char **why_p)
{
    const char *q1 = strchr(value, '\'');
    const char *q2 = q1 ? strchr(q1 + 1, '\'') : NULL;
    if (!q2) {
        *why_p = "extended parameter without charset'language'";
        return NULL;
    }
    size_t charset_length = (size_t) (q1 - value);
    int charset; //  0 utf-8, 1 us-ascii, 2 iso-8859-1
    if (charset_length == 0 ||
        (charset_length == 5 && strncasecmp(value, "utf-8", 5) == 0))
        charset = 0;
    else if (charset_length == 8 && strncasecmp(value, "us-ascii", 8) == 0)
        charset = 1;
    else if (charset_length == 10 && strncasecmp(value, "iso-8859-1", 10) == 0)
        charset = 2;
    else {
        *why_p = "unsupported charset in an extended parameter";
        return NULL;
    }
    size_t size;
    char *raw = s_percent_decode(q2 + 1, strlen(q2 + 1), &size);
    if (!raw) {
        *why_p = "bad percent escape";
        return NULL;
    }
    if (memchr(raw, '\0', size)) {
        free(raw);
        *why_p = "NUL byte in a parameter";
        return NULL;
    }
    if (charset == 2) {
        //  Latin-1 to UTF-8: each byte above 0x7f becomes two.
        char *out = malloc(size * 2 + 1);
        if (!out) {
            free(raw);
            *why_p = "out of memory";
            return NULL;
        }
        size_t n = 0;
        for (size_t i = 0; i < size; i++) {
            unsigned char c = (unsigned char) raw[i];
            if (c < 0x80)
                out[n++] = (char) c;
            else {
                out[n++] = (char) (0xc0 | (c >> 6));
                out[n++] = (char) (0x80 | (c & 0x3f));
            }
        }
        out[n] = '\0';
        free(raw);
        return out;
    }
    for (size_t i = 0; charset == 1 && i < size; i++)
        if ((unsigned char) raw[i] >= 0x80) {
            free(raw);
            *why_p = "non-ASCII byte in a us-ascii parameter";
            return NULL;
        }
    if (!s_utf8_valid((const uint8_t *) raw, size)) {
        free(raw);
        *why_p = "parameter is not valid UTF-8";
        return NULL;
    }
    return raw;
}

//  The value of key* (decoded) or else key from a Content-Disposition, as
//  aiohttp's content_disposition_filename picks it. Returns 0 with a fresh
//  string or NULL (absent) in *out_p, or -1 with *why_p set.
static int
s_disposition_param(const s_hvalue_t *value,
                    const char *key,
                    char **out_p,
                    bool *ext_p,
                    const char **why_p)
{
    char ext_key[S_KEY_MAX];
    snprintf(ext_key, sizeof ext_key, "%s*", key);
    *out_p = NULL;
    if (ext_p)
        *ext_p = false;
    const char *ext = s_hvalue_get(value, ext_key);
    if (ext) {
        *out_p = s_ext_decode(ext, why_p);
        if (ext_p)
            *ext_p = true;
        return *out_p ? 0 : -1;
    }
    const char *plain = s_hvalue_get(value, key);
    if (!plain)
        return 0;
    if (!s_utf8_valid((const uint8_t *) plain, strlen(plain))) {
        *why_p = "parameter is not valid UTF-8";
        return -1;
    }
    *out_p = strdup(plain);
    if (!*out_p) {
        *why_p = "out of memory";
        return -1;
    }
    return 0;
}

//  ---------------------------------------------------------------------
//  The body

//  Reads the boundary from a request's Content-Type into boundary (room for
//  GW_MULTIPART_MAX_BOUNDARY + 1). Returns 0, or -1 with err set.
static int
s_boundary_get(const char *content_type, char *boundary, bus_error_t *err)
{
    if (!content_type) {
        bus_error_set(err, BUS_STATUS_INVALID, "multipart body without Content-Type");
        return -1;
    }
    s_hvalue_t value;
    const char *why = NULL;
    if (s_hvalue_parse(&value, content_type, &why) != 0) {
        bus_error_set(err, BUS_STATUS_INVALID, "bad multipart Content-Type: %s", why);
        return -1;
    }
    int rc = -1;
    if (strncmp(value.type, "multipart/", strlen("multipart/")) != 0 ||
        !value.type[strlen("multipart/")]) {
        bus_error_set(err, BUS_STATUS_INVALID, "Content-Type is not multipart/*");
        goto done;
    }
    const char *subtype = value.type + strlen("multipart/");
    for (const char *c = subtype; *c; c++)
        if (!s_is_tchar((unsigned char) *c)) {
            bus_error_set(err, BUS_STATUS_INVALID, "bad multipart Content-Type subtype");
            goto done;
        }
    const char *found = s_hvalue_get(&value, "boundary");
    if (!found) {
        bus_error_set(err, BUS_STATUS_INVALID, "multipart Content-Type has no boundary");
        goto done;
    }
    size_t length = strlen(found);
    if (length == 0 || length > GW_MULTIPART_MAX_BOUNDARY) {
        bus_error_set(err, BUS_STATUS_INVALID,
                      "multipart boundary must be 1 to %d characters long, not %zu",
                      GW_MULTIPART_MAX_BOUNDARY, length);
        goto done;
    }
    for (size_t i = 0; i < length; i++)
        if (!s_is_bchar((unsigned char) found[i])) {
            bus_error_set(err, BUS_STATUS_INVALID,
                          "multipart boundary has a bad character");
            goto done;
        }
    if (found[length - 1] == ' ') {
        bus_error_set(err, BUS_STATUS_INVALID, "multipart boundary ends with a space");
        goto done;
    }
    memcpy(boundary, found, length + 1);
    rc = 0;
done:
    s_hvalue_clear(&value);
    return rc;
}

//  Which header a line (or its continuation) belongs to.
typedef enum { S_H_NONE, S_H_DISPOSITION, S_H_TYPE, S_H_OTHER } s_header_t;

//  Appends bytes to a value buffer sized for the whole header block.
static void
s_buffer_add(char *buffer, size_t *length_p, const uint8_t *bytes, size_t size)
{
    memcpy(buffer + *length_p, bytes, size);
    *length_p += size;
    buffer[*length_p] = '\0';
}

//  Trims OWS from both ends of a NUL-terminated buffer, in place.
static void
s_trim(char *text)
{
    size_t length = strlen(text), start = 0;
    while (length > 0 && s_is_ows(text[length - 1]))
        length--;
    while (start < length && s_is_ows(text[start]))
        start++;
    memmove(text, text + start, length - start);
    text[length - start] = '\0';
}

//  Reads the header lines [head, stop), each ending in CRLF, into part.
//  Returns 0, or -1 with *why_p set.
static int
s_headers_parse(gw_multipart_part_t *part,
                const uint8_t *head,
                const uint8_t *stop,
                const char **why_p)
{
    size_t block = (size_t) (stop - head);
    char *disposition = NULL, *type = NULL;
    size_t disposition_length = 0, type_length = 0;
    s_header_t current = S_H_NONE;
    const uint8_t *line = head;
    int rc = -1;
    while (line < stop) {
        const uint8_t *eol = memmem(line, (size_t) (stop - line), "\r\n", 2);
        if (!eol || eol == line) {
            *why_p = "malformed header block";
            goto done;
        }
        for (const uint8_t *c = line; c < eol; c++)
            if ((*c < 0x20 && *c != '\t') || *c == 0x7f) {
                *why_p = "control character in a header line";
                goto done;
            }
        const uint8_t *value;
        if (s_is_ows(line[0])) {
            if (current == S_H_NONE) {
                *why_p = "continuation line before any header";
                goto done;
            }
            value = line; //  unfolded: the line joins the previous one
        } else {
            const uint8_t *colon = line;
            while (colon < eol && s_is_tchar(*colon))
                colon++;
            if (colon == line || colon == eol || *colon != ':') {
                *why_p = "malformed header line";
                goto done;
            }
            size_t name_length = (size_t) (colon - line);
            if (name_length == strlen("content-disposition") &&
                strncasecmp((const char *) line, "content-disposition", name_length) ==
                    0) {
                if (disposition) {
                    *why_p = "duplicate Content-Disposition";
                    goto done;
                }
                disposition = malloc(block + 1);
                if (!disposition) {
                    *why_p = "out of memory";
                    goto done;
                }
                current = S_H_DISPOSITION;
            } else if (name_length == strlen("content-type") &&
                       strncasecmp((const char *) line, "content-type", name_length) ==
                           0) {
                if (type) {
                    *why_p = "duplicate Content-Type";
                    goto done;
                }
                type = malloc(block + 1);
                if (!type) {
                    *why_p = "out of memory";
                    goto done;
                }
                current = S_H_TYPE;
            } else
                current = S_H_OTHER;
            value = colon + 1;
        }
        if (current == S_H_DISPOSITION)
            s_buffer_add(disposition, &disposition_length, value, (size_t) (eol - value));
        else if (current == S_H_TYPE)
            s_buffer_add(type, &type_length, value, (size_t) (eol - value));
        line = eol + 2;
    }
    if (type) {
        s_trim(type);
        part->content_type = type;
        type = NULL;
    }
    if (disposition) {
        s_hvalue_t parsed;
        if (s_hvalue_parse(&parsed, disposition, why_p) != 0)
            goto done;
        bool token = *parsed.type != '\0';
        for (const char *c = parsed.type; *c; c++)
            token = token && s_is_tchar((unsigned char) *c);
        if (!token)
            *why_p = "bad Content-Disposition type";
        else if (s_disposition_param(&parsed, "name", &part->name, NULL, why_p) == 0 &&
                 s_disposition_param(&parsed, "filename", &part->filename,
                                     &part->filename_ext, why_p) == 0)
            rc = 0;
        s_hvalue_clear(&parsed);
        goto done;
    }
    rc = 0;
done:
    free(disposition);
    free(type);
    return rc;
}

//  Reads one body part [start, stop) (between the CRLF that ends its
//  delimiter line and the CRLF that starts the next delimiter).
static int
s_part_parse(gw_multipart_part_t *part,
             const uint8_t *start,
             const uint8_t *stop,
             size_t index,
             bus_error_t *err)
{
    size_t length = (size_t) (stop - start);
    const uint8_t *head_end, *data;
    if (length == 0)
        head_end = start, data = stop; //  no headers, no body
    else if (length >= 2 && start[0] == '\r' && start[1] == '\n')
        head_end = start, data = start + 2; //  no headers
    else {
        size_t window =
            length < GW_MULTIPART_MAX_HEADER + 2 ? length : GW_MULTIPART_MAX_HEADER + 2;
        const uint8_t *blank = memmem(start, window, "\r\n\r\n", 4);
        if (blank)
            head_end = blank + 2, data = blank + 4;
        else if (length >= 2 && length <= GW_MULTIPART_MAX_HEADER && stop[-2] == '\r' &&
                 stop[-1] == '\n')
            head_end = stop, data = stop; //  headers and no body (RFC 2046 allows it)
        else if (length > GW_MULTIPART_MAX_HEADER) {
            bus_error_set(err, BUS_STATUS_INVALID,
                          "multipart part %zu: headers longer than %d bytes", index + 1,
                          GW_MULTIPART_MAX_HEADER);
            return -1;
        } else {
            bus_error_set(err, BUS_STATUS_INVALID,
                          "multipart part %zu: headers do not end with an empty line",
                          index + 1);
            return -1;
        }
    }
    if ((size_t) (head_end - start) > GW_MULTIPART_MAX_HEADER) {
        bus_error_set(err, BUS_STATUS_INVALID,
                      "multipart part %zu: headers longer than %d bytes", index + 1,
                      GW_MULTIPART_MAX_HEADER);
        return -1;
    }
    const char *why = NULL;
    if (s_headers_parse(part, start, head_end, &why) != 0) {
        bus_error_set(err, BUS_STATUS_INVALID, "multipart part %zu: %s", index + 1, why);
        return -1;
    }
    part->data = data;
    part->size = (size_t) (stop - data);
    return 0;
}

//  ---------------------------------------------------------------------
int
gw_multipart_parse(const char *content_type,
                   const uint8_t *body,
                   size_t size,
                   gw_multipart_part_t **parts_p,
                   size_t *count_p,
                   bus_error_t *err)
{
    assert(parts_p && count_p);
    assert(body || size == 0);
    *parts_p = NULL;
    *count_p = 0;
    char boundary[GW_MULTIPART_MAX_BOUNDARY + 1];
    if (s_boundary_get(content_type, boundary, err) != 0)
        return -1;
    //  The delimiter is CRLF "--" boundary; the first one may lack the CRLF.
    char delimiter[4 + GW_MULTIPART_MAX_BOUNDARY + 1];
    size_t delimiter_length =
        (size_t) snprintf(delimiter, sizeof delimiter, "\r\n--%s", boundary);
    if (!body)
        body = (const uint8_t *) "";

    size_t at; //  just after the "--" boundary of the current delimiter
    if (size >= delimiter_length - 2 &&
        memcmp(body, delimiter + 2, delimiter_length - 2) == 0)
        at = delimiter_length - 2;
    else {
        const uint8_t *hit = memmem(body, size, delimiter, delimiter_length);
        if (!hit) {
            bus_error_set(err, BUS_STATUS_INVALID,
                          "multipart body has no delimiter line");
            return -1;
        }
        at = (size_t) (hit - body) + delimiter_length;
    }

    gw_multipart_part_t *parts = NULL;
    size_t count = 0, allocated = 0;
    for (;;) {
        if (size - at >= 2 && body[at] == '-' && body[at + 1] == '-')
            break; //  the close delimiter; the epilogue after it is ignored
        while (at < size && s_is_ows(body[at]))
            at++;
        if (size - at < 2) {
            bus_error_set(err, BUS_STATUS_INVALID,
                          "multipart body ends before the final delimiter");
            goto fail;
        }
        if (body[at] != '\r' || body[at + 1] != '\n') {
            bus_error_set(err, BUS_STATUS_INVALID,
                          "multipart delimiter line %zu is followed by other bytes",
                          count + 1);
            goto fail;
        }
        at += 2;
        if (count == GW_MULTIPART_MAX_PARTS) {
            bus_error_set(err, BUS_STATUS_INVALID,
                          "multipart body has more than %d parts",
                          GW_MULTIPART_MAX_PARTS);
            goto fail;
        }
        const uint8_t *next = memmem(body + at, size - at, delimiter, delimiter_length);
        if (!next) {
            bus_error_set(err, BUS_STATUS_INVALID,
                          "multipart body ends before the final delimiter");
            goto fail;
        }
        if (count == allocated) {
            size_t grown = allocated ? allocated * 2 : 4;
            if (grown > GW_MULTIPART_MAX_PARTS)
                grown = GW_MULTIPART_MAX_PARTS;
            gw_multipart_part_t *bigger = realloc(parts, grown * sizeof *parts);
            if (!bigger) {
                bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
                goto fail;
            }
            parts = bigger;
            allocated = grown;
        }
        memset(&parts[count], 0, sizeof parts[count]);
        count++;
        if (s_part_parse(&parts[count - 1], body + at, next, count - 1, err) != 0)
            goto fail;
        at = (size_t) (next - body) + delimiter_length;
    }
    *parts_p = parts;
    *count_p = count;
    return 0;

fail:
    gw_multipart_parts_destroy(&parts, count);
    return -1;
}

//  ---------------------------------------------------------------------
void
gw_multipart_parts_destroy(gw_multipart_part_t **parts_p, size_t count)
{
    assert(parts_p);
    gw_multipart_part_t *parts = *parts_p;
    if (!parts)
        return;
    for (size_t i = 0; i < count; i++) {
        free(parts[i].name);
        free(parts[i].filename);
        free(parts[i].content_type);
    }
    free(parts);
    *parts_p = NULL;
}

//  ---------------------------------------------------------------------
char *
gw_multipart_percent_decode(const char *text)
{
    assert(text);
    size_t size;
    char *out = s_percent_decode(text, strlen(text), &size);
    if (out && (memchr(out, '\0', size) || !s_utf8_valid((const uint8_t *) out, size))) {
        free(out);
        out = NULL;
    }
    return out;
}
