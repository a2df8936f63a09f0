/*  =========================================================================
    gw_multipart_writer - MIME multipart bodies, built

    The writer appends parts to one growing buffer in the layout aiohttp's
    MultipartWriter uses, so what it builds reads the same to the official
    client: a random boundary, each part's headers (a form-data name and
    filename as quoted strings, with an RFC 5987 filename* when the name is
    not plain ASCII), its bytes, and the closing delimiter. Pure apart from
    RAND_bytes.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
//  RAND_bytes, for the writer's boundary.
#include <openssl/rand.h>

#define S_SUBTYPE_MAX  32 //  longest subtype the writer accepts
#define S_BOUNDARY_HEX 32 //  hex digits in a writer's boundary (16 random bytes)

//  RFC 9110 tchar (as the parser's, gw_multipart.c).
static bool
s_is_tchar(int c)
{
    return c > 0 && c < 0x7f && (isalnum(c) || strchr("!#$%&'*+-.^_`|~", c));
}

struct _gw_multipart_writer_t {
    char boundary[S_BOUNDARY_HEX + 1];
    char content_type[sizeof "multipart/; boundary=" + S_SUBTYPE_MAX + S_BOUNDARY_HEX];
    bool form_data;
    bool finished;
    uint8_t *buffer;
    size_t size;
    size_t allocated;
};

//  ---------------------------------------------------------------------
gw_multipart_writer_t *
gw_multipart_writer_new(const char *subtype)
{
    assert(subtype);
    size_t length = strlen(subtype);
    if (length == 0 || length > S_SUBTYPE_MAX)
        return NULL;
    for (size_t i = 0; i < length; i++)
        if (!s_is_tchar((unsigned char) subtype[i]))
            return NULL;
    unsigned char random[S_BOUNDARY_HEX / 2];
    if (RAND_bytes(random, sizeof random) != 1)
        return NULL;
    gw_multipart_writer_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    for (size_t i = 0; i < sizeof random; i++)
        snprintf(self->boundary + 2 * i, 3, "%02x", random[i]);
    snprintf(self->content_type, sizeof self->content_type, "multipart/%s; boundary=%s",
             subtype, self->boundary);
    self->form_data = strcasecmp(subtype, "form-data") == 0;
    return self;
}

//  ---------------------------------------------------------------------
void
gw_multipart_writer_destroy(gw_multipart_writer_t **self_p)
{
    assert(self_p);
    gw_multipart_writer_t *self = *self_p;
    if (!self)
        return;
    free(self->buffer);
    free(self);
    *self_p = NULL;
}

//  ---------------------------------------------------------------------
const char *
gw_multipart_writer_content_type(const gw_multipart_writer_t *self)
{
    assert(self);
    return self->content_type;
}

static int
s_write(gw_multipart_writer_t *self, const void *bytes, size_t size)
{
    if (size > SIZE_MAX - self->size)
        return -1;
    if (self->size + size > self->allocated) {
        size_t grown = self->allocated ? self->allocated : 1024;
        while (grown < self->size + size)
            grown = grown > SIZE_MAX / 2 ? self->size + size : grown * 2;
        uint8_t *bigger = realloc(self->buffer, grown);
        if (!bigger)
            return -1;
        self->buffer = bigger;
        self->allocated = grown;
    }
    if (size)
        memcpy(self->buffer + self->size, bytes, size);
    self->size += size;
    return 0;
}

static int
s_write_str(gw_multipart_writer_t *self, const char *text)
{
    return s_write(self, text, strlen(text));
}

//  Writes text as the inside of a quoted-string.
static int
s_write_quoted(gw_multipart_writer_t *self, const char *text)
{
    int rc = s_write_str(self, "\"");
    for (const char *c = text; *c && rc == 0; c++) {
        if (*c == '"' || *c == '\\')
            rc = s_write(self, "\\", 1);
        if (rc == 0)
            rc = s_write(self, c, 1);
    }
    return rc == 0 ? s_write_str(self, "\"") : -1;
}

//  Writes text as an RFC 5987 ext-value in UTF-8.
static int
s_write_ext(gw_multipart_writer_t *self, const char *text)
{
    int rc = s_write_str(self, "utf-8''");
    for (const unsigned char *c = (const unsigned char *) text; *c && rc == 0; c++) {
        if (isalnum(*c) || (*c < 0x80 && strchr("!#$&+-.^_`|~", *c)))
            rc = s_write(self, c, 1);
        else {
            char escape[4];
            snprintf(escape, sizeof escape, "%%%02X", *c);
            rc = s_write(self, escape, 3);
        }
    }
    return rc;
}

static bool
s_has_control(const char *text)
{
    for (const unsigned char *c = (const unsigned char *) text; text && *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            return true;
    return false;
}

static bool
s_is_ascii(const char *text)
{
    for (const unsigned char *c = (const unsigned char *) text; *c; c++)
        if (*c >= 0x80)
            return false;
    return true;
}

//  ---------------------------------------------------------------------
int
gw_multipart_writer_add(gw_multipart_writer_t *self,
                        const char *name,
                        const char *filename,
                        const char *content_type,
                        const uint8_t *data,
                        size_t size)
{
    assert(self);
    assert(data || size == 0);
    if (self->finished || s_has_control(name) || s_has_control(filename) ||
        s_has_control(content_type))
        return -1;
    //  The data must not hold a delimiter, which would end the part early;
    //  "--" boundary at its very start follows the blank line's CRLF.
    char delimiter[4 + S_BOUNDARY_HEX + 1];
    size_t delimiter_length =
        (size_t) snprintf(delimiter, sizeof delimiter, "\r\n--%s", self->boundary);
    if (size && ((size >= delimiter_length - 2 &&
                  memcmp(data, delimiter + 2, delimiter_length - 2) == 0) ||
                 memmem(data, size, delimiter, delimiter_length)))
        return -1;

    size_t rollback = self->size;
    char line[64];
    int rc = s_write_str(self, "--");
    rc = rc ? rc : s_write_str(self, self->boundary);
    rc = rc ? rc : s_write_str(self, "\r\nContent-Type: ");
    rc = rc ? rc
            : s_write_str(self, content_type ? content_type : "application/octet-stream");
    rc = rc ? rc : s_write_str(self, "\r\n");
    if (self->form_data || filename) {
        rc = rc ? rc
                : s_write_str(self, self->form_data ? "Content-Disposition: form-data"
                                                    : "Content-Disposition: attachment");
        if (name && self->form_data) {
            rc = rc ? rc : s_write_str(self, "; name=");
            rc = rc ? rc : s_write_quoted(self, name);
        }
        if (filename) {
            rc = rc ? rc : s_write_str(self, "; filename=");
            rc = rc ? rc : s_write_quoted(self, filename);
            if (!s_is_ascii(filename)) {
                rc = rc ? rc : s_write_str(self, "; filename*=");
                rc = rc ? rc : s_write_ext(self, filename);
            }
        }
        rc = rc ? rc : s_write_str(self, "\r\n");
    }
    if (!self->form_data)
        rc = rc ? rc : s_write_str(self, "Content-Encoding: identity\r\n");
    snprintf(line, sizeof line, "Content-Length: %zu\r\n\r\n", size);
    rc = rc ? rc : s_write_str(self, line);
    rc = rc ? rc : s_write(self, data, size);
    rc = rc ? rc : s_write_str(self, "\r\n");
    if (rc != 0)
        self->size = rollback;
    return rc;
}

//  ---------------------------------------------------------------------
int
gw_multipart_writer_finish(gw_multipart_writer_t *self, uint8_t **body_p, size_t *size_p)
{
    assert(self && body_p && size_p);
    if (self->finished)
        return -1;
    size_t rollback = self->size;
    if (s_write_str(self, "--") || s_write_str(self, self->boundary) ||
        s_write_str(self, "--\r\n")) {
        self->size = rollback;
        return -1;
    }
    self->finished = true;
    *body_p = self->buffer;
    *size_p = self->size;
    self->buffer = NULL;
    self->size = self->allocated = 0;
    return 0;
}
