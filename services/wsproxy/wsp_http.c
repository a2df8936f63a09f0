/*  =========================================================================
    wsp_http - HTTP/1.1 heads and chunked framing, as the wsproxy relays them

    The parsers cut the head in place: each line's CRLF becomes NULs, the
    colon of a header a NUL, and values are trimmed of spaces and tabs.
    Framing follows RFC 9112 section 6: a request with both
    Content-Length and Transfer-Encoding is refused rather than guessed
    at, and so is one whose Transfer-Encoding does not end in chunked; a
    response's Transfer-Encoding wins over its Content-Length.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "wsp_classes.h"

#define CHUNK_DIGITS_MAX 15 //  hex digits of a chunk size: below 2^60

enum {
    CH_SIZE,     //  hex digits of a chunk size
    CH_EXT,      //  a chunk extension, up to CR
    CH_SIZE_LF,  //  the LF after the size line
    CH_DATA,     //  the chunk's data
    CH_DATA_CR,  //  the CR after the data
    CH_DATA_LF,  //  the LF after it
    CH_TRAILER,  //  the start of a trailer line (CR: the end)
    CH_TLINE,    //  inside a trailer line, up to CR
    CH_TLINE_LF, //  the LF after a trailer line
    CH_LAST_LF,  //  the LF of the final blank line
};

//  Cuts the line at *cursor (ending in CRLF) and moves past it. NULL when
//  there is no CRLF, or a bare CR or NUL inside.
static char *
s_line(char **cursor, char *end)
{
    char *line = *cursor;
    for (char *p = line; p + 1 < end; p++) {
        if (*p == '\r') {
            if (p[1] != '\n')
                return NULL;
            *p = '\0';
            *cursor = p + 2;
            return line;
        }
        if (*p == '\0' || *p == '\n')
            return NULL;
    }
    return NULL;
}

static char *
s_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t len = strlen(s);
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        s[--len] = '\0';
    return s;
}

static bool
s_token_char(char c)
{
    return isalnum((unsigned char) c) || strchr("!#$%&'*+-.^_`|~", c);
}

//  Reads the header lines from cursor to end into head. False if malformed.
static bool
s_headers(char *cursor, char *end, wsp_http_head_t *head)
{
    head->header_count = 0;
    while (cursor < end) {
        char *line = s_line(&cursor, end);
        if (!line)
            return false;
        if (*line == '\0')
            return cursor == end; //  the blank line ends the head
        char *colon = strchr(line, ':');
        if (!colon || colon == line || head->header_count >= WSP_HTTP_HEADERS_MAX)
            return false;
        for (char *p = line; p < colon; p++)
            if (!s_token_char(*p))
                return false;
        *colon = '\0';
        head->headers[head->header_count].name = line;
        head->headers[head->header_count].value = s_trim(colon + 1);
        head->header_count++;
    }
    return false;
}

//  Reads every Content-Length into *length. 0: none, 1: one value, -1:
//  malformed or values that differ.
static int
s_content_length(const wsp_http_head_t *head, uint64_t *length)
{
    int found = 0;
    for (size_t i = 0; i < head->header_count; i++) {
        if (strcasecmp(head->headers[i].name, "Content-Length") != 0)
            continue;
        const char *v = head->headers[i].value;
        if (!isdigit((unsigned char) *v) || strlen(v) > 18)
            return -1;
        uint64_t value = 0;
        for (; *v; v++) {
            if (!isdigit((unsigned char) *v))
                return -1;
            value = value * 10 + (uint64_t) (*v - '0');
        }
        if (found && value != *length)
            return -1;
        *length = value;
        found = 1;
    }
    return found;
}

//  The last coding of the Transfer-Encoding headers is chunked: 1; there
//  is a Transfer-Encoding but not ending in chunked: -1; none: 0.
static int
s_transfer_encoding(const wsp_http_head_t *head)
{
    int state = 0;
    for (size_t i = 0; i < head->header_count; i++) {
        if (strcasecmp(head->headers[i].name, "Transfer-Encoding") != 0)
            continue;
        const char *v = head->headers[i].value;
        const char *last = strrchr(v, ',');
        last = last ? last + 1 : v;
        while (*last == ' ' || *last == '\t')
            last++;
        state = strcasecmp(last, "chunked") == 0 ? 1 : -1;
    }
    return state;
}

static bool
s_connection_has(const wsp_http_head_t *head, const char *token)
{
    for (size_t i = 0; i < head->header_count; i++)
        if (strcasecmp(head->headers[i].name, "Connection") == 0 &&
            wsp_http_has_token(head->headers[i].value, token))
            return true;
    return false;
}

//  "HTTP/1.0" or "HTTP/1.1" into *http10. False for anything else.
static bool
s_version(const char *text, bool *http10)
{
    if (strcmp(text, "HTTP/1.1") == 0)
        *http10 = false;
    else if (strcmp(text, "HTTP/1.0") == 0)
        *http10 = true;
    else
        return false;
    return true;
}

static void
s_keep_alive(wsp_http_head_t *head)
{
    head->keep_alive = head->http10 ? s_connection_has(head, "keep-alive")
                                    : !s_connection_has(head, "close");
}

//  ---------------------------------------------------------------------------

bool
wsp_http_parse_request(char *head, size_t size, wsp_http_head_t *req)
{
    assert(head && req);
    memset(req, 0, sizeof *req);
    char *cursor = head, *end = head + size;
    char *line = s_line(&cursor, end);
    if (!line)
        return false;
    char *sp1 = strchr(line, ' ');
    char *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
    if (!sp1 || !sp2 || sp1 == line || sp2 == sp1 + 1 || strchr(sp2 + 1, ' ') ||
        (size_t) (sp1 - line) > WSP_HTTP_METHOD_MAX)
        return false;
    *sp1 = '\0';
    *sp2 = '\0';
    for (char *p = line; *p; p++)
        if (!s_token_char(*p))
            return false;
    for (char *p = sp1 + 1; *p; p++)
        if ((unsigned char) *p <= 0x20 || *p == 0x7f)
            return false;
    snprintf(req->method, sizeof req->method, "%s", line);
    req->target = sp1 + 1;
    if (!s_version(sp2 + 1, &req->http10) || !s_headers(cursor, end, req))
        return false;
    int te = s_transfer_encoding(req);
    int cl = s_content_length(req, &req->length);
    if (te < 0 || cl < 0 || (te > 0 && cl > 0))
        return false;
    req->body = te > 0   ? WSP_HTTP_BODY_CHUNKED
                : cl > 0 ? WSP_HTTP_BODY_LENGTH
                         : WSP_HTTP_BODY_NONE;
    if (req->body == WSP_HTTP_BODY_LENGTH && req->length == 0)
        req->body = WSP_HTTP_BODY_NONE;
    s_keep_alive(req);
    const char *upgrade = wsp_http_header(req, "Upgrade");
    req->upgrade = upgrade && *upgrade && s_connection_has(req, "upgrade");
    req->websocket = req->upgrade && wsp_http_has_token(upgrade, "websocket");
    return true;
}

bool
wsp_http_parse_response(char *head, size_t size, const char *method, wsp_http_head_t *res)
{
    assert(head && res);
    memset(res, 0, sizeof *res);
    char *cursor = head, *end = head + size;
    char *line = s_line(&cursor, end);
    if (!line || strlen(line) < 12 || line[8] != ' ')
        return false;
    line[8] = '\0';
    if (!s_version(line, &res->http10))
        return false;
    const char *code = line + 9;
    if (!isdigit((unsigned char) code[0]) || !isdigit((unsigned char) code[1]) ||
        !isdigit((unsigned char) code[2]) || (code[3] != ' ' && code[3] != '\0'))
        return false;
    res->status = (code[0] - '0') * 100 + (code[1] - '0') * 10 + (code[2] - '0');
    if (res->status < 100 || !s_headers(cursor, end, res))
        return false;
    int te = s_transfer_encoding(res);
    int cl = s_content_length(res, &res->length);
    if (cl < 0)
        return false;
    s_keep_alive(res);
    if ((method && strcmp(method, "HEAD") == 0) || res->status < 200 ||
        res->status == 204 || res->status == 304)
        res->body = WSP_HTTP_BODY_NONE;
    else if (te > 0)
        res->body = WSP_HTTP_BODY_CHUNKED;
    else if (te < 0)
        res->body = WSP_HTTP_BODY_CLOSE;
    else if (cl > 0)
        res->body = res->length ? WSP_HTTP_BODY_LENGTH : WSP_HTTP_BODY_NONE;
    else
        res->body = WSP_HTTP_BODY_CLOSE;
    if (res->body == WSP_HTTP_BODY_CLOSE)
        res->keep_alive = false;
    return true;
}

const char *
wsp_http_header(const wsp_http_head_t *head, const char *name)
{
    assert(head && name);
    for (size_t i = 0; i < head->header_count; i++)
        if (strcasecmp(head->headers[i].name, name) == 0)
            return head->headers[i].value;
    return NULL;
}

bool
wsp_http_has_token(const char *value, const char *token)
{
    if (!value)
        return false;
    size_t len = strlen(token);
    const char *p = value;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        const char *start = p;
        while (*p && *p != ',')
            p++;
        const char *stop = p;
        while (stop > start && (stop[-1] == ' ' || stop[-1] == '\t'))
            stop--;
        if ((size_t) (stop - start) == len && strncasecmp(start, token, len) == 0)
            return true;
    }
    return false;
}

//  Calls back each "name=value" pair of a Cookie header value: fn returns
//  true to stop.
typedef bool(cookie_fn)(
    void *arg, const char *name, size_t name_len, const char *value, size_t value_len);

static bool
s_cookies(const char *header, cookie_fn *fn, void *arg)
{
    const char *p = header;
    while (*p) {
        while (*p == ' ' || *p == ';')
            p++;
        const char *start = p;
        while (*p && *p != ';')
            p++;
        const char *eq = memchr(start, '=', (size_t) (p - start));
        if (!eq)
            continue;
        const char *value_end = p;
        while (value_end > eq + 1 && value_end[-1] == ' ')
            value_end--;
        if (fn(arg, start, (size_t) (eq - start), eq + 1, (size_t) (value_end - eq - 1)))
            return true;
    }
    return false;
}

typedef struct {
    const char *name;
    char *out;
    size_t size;
    bool found;
} cookie_find_t;

static bool
s_cookie_find(void *arg, const char *name, size_t name_len, const char *value, size_t len)
{
    cookie_find_t *find = arg;
    if (strlen(find->name) != name_len || strncmp(name, find->name, name_len) != 0)
        return false;
    if (len >= find->size)
        return false;
    memcpy(find->out, value, len);
    find->out[len] = '\0';
    find->found = true;
    return true;
}

bool
wsp_http_cookie(const wsp_http_head_t *req, const char *name, char *out, size_t size)
{
    assert(req && name && out && size > 0);
    cookie_find_t find = {name, out, size, false};
    for (size_t i = 0; i < req->header_count && !find.found; i++)
        if (strcasecmp(req->headers[i].name, "Cookie") == 0)
            s_cookies(req->headers[i].value, s_cookie_find, &find);
    return find.found;
}

//  ---------------------------------------------------------------------------

typedef struct {
    char *out;
    size_t size;
    size_t len;
    bool overflow;
    size_t kept; //  cookies written into the current Cookie line
} writer_t;

static void
s_put(writer_t *w, const char *text, size_t len)
{
    if (w->overflow || w->len + len >= w->size) {
        w->overflow = true;
        return;
    }
    memcpy(w->out + w->len, text, len);
    w->len += len;
}

static void
s_puts(writer_t *w, const char *text)
{
    s_put(w, text, strlen(text));
}

static bool
s_cookie_keep(void *arg, const char *name, size_t name_len, const char *value, size_t len)
{
    writer_t *w = arg;
    size_t prefix = strlen(WSP_HTTP_COOKIE_PREFIX);
    if (name_len >= prefix && strncmp(name, WSP_HTTP_COOKIE_PREFIX, prefix) == 0)
        return false;
    if (w->kept++ == 0)
        s_puts(w, "Cookie: ");
    else
        s_puts(w, "; ");
    s_put(w, name, name_len);
    s_puts(w, "=");
    s_put(w, value, len);
    return false;
}

ssize_t
wsp_http_request_write(const wsp_http_head_t *req,
                       const char *host,
                       const char *client,
                       bool tls,
                       bool drop_authorization,
                       char *out,
                       size_t size)
{
    assert(req && host && client && out);
    writer_t w = {out, size, 0, false, 0};
    s_puts(&w, req->method);
    s_puts(&w, " ");
    s_puts(&w, req->target);
    s_puts(&w, " HTTP/1.1\r\nHost: ");
    s_puts(&w, host);
    s_puts(&w, "\r\n");
    const char *forwarded_for = NULL;
    for (size_t i = 0; i < req->header_count; i++) {
        const wsp_http_header_t *h = &req->headers[i];
        if (strcasecmp(h->name, "Host") == 0 ||
            strncasecmp(h->name, "X-Forwarded-", 12) == 0) {
            if (strcasecmp(h->name, "X-Forwarded-For") == 0)
                forwarded_for = h->value;
            continue;
        }
        if (drop_authorization && strcasecmp(h->name, "Authorization") == 0)
            continue;
        if (strcasecmp(h->name, "Cookie") == 0) {
            w.kept = 0;
            s_cookies(h->value, s_cookie_keep, &w);
            if (w.kept)
                s_puts(&w, "\r\n");
            continue;
        }
        s_puts(&w, h->name);
        s_puts(&w, ": ");
        s_puts(&w, h->value);
        s_puts(&w, "\r\n");
    }
    s_puts(&w, "X-Forwarded-For: ");
    if (forwarded_for && *forwarded_for) {
        s_puts(&w, forwarded_for);
        s_puts(&w, ", ");
    }
    s_puts(&w, client);
    const char *original = wsp_http_header(req, "Host");
    if (original && *original) {
        s_puts(&w, "\r\nX-Forwarded-Host: ");
        s_puts(&w, original);
    }
    s_puts(&w, tls ? "\r\nX-Forwarded-Proto: https\r\n\r\n"
                   : "\r\nX-Forwarded-Proto: http\r\n\r\n");
    if (w.overflow)
        return -1;
    out[w.len] = '\0';
    return (ssize_t) w.len;
}

//  Whether the header line at line (len bytes) is named name (any case).
static bool
s_line_named(const char *line, size_t len, const char *name)
{
    size_t n = strlen(name);
    return len > n && line[n] == ':' && strncasecmp(line, name, n) == 0;
}

ssize_t
wsp_http_response_kept(const char *head, size_t len, char *out, size_t size)
{
    assert(head && out);
    writer_t w = {out, size, 0, false, 0};
    bool dropped = false; //  the line before was left out
    for (const char *p = head, *end = head + len; p < end;) {
        const char *eol = memchr(p, '\n', (size_t) (end - p));
        size_t n = eol ? (size_t) (eol - p) + 1 : (size_t) (end - p);
        bool status_line = p == head;
        //  a line that starts with a space or a tab continues the one before
        if (status_line || (*p != ' ' && *p != '\t'))
            dropped = !status_line && (s_line_named(p, n, "Connection") ||
                                       s_line_named(p, n, "Keep-Alive"));
        if (!dropped)
            s_put(&w, p, n);
        p += n;
    }
    if (w.overflow)
        return -1;
    out[w.len] = '\0';
    return (ssize_t) w.len;
}

//  ---------------------------------------------------------------------------

ssize_t
wsp_http_chunked_scan(wsp_http_chunked_t *self, const char *data, size_t n, bool *done)
{
    assert(self && done);
    *done = false;
    size_t i = 0;
    while (i < n) {
        char c = data[i];
        switch (self->state) {
            case CH_SIZE: {
                int v = bus_hex_digit(c);
                if (v >= 0) {
                    if (++self->digits > CHUNK_DIGITS_MAX)
                        return -1;
                    self->left = self->left * 16 + (uint64_t) v;
                } else if (self->digits == 0)
                    return -1;
                else if (c == ';' || c == ' ' || c == '\t')
                    self->state = CH_EXT;
                else if (c == '\r')
                    self->state = CH_SIZE_LF;
                else
                    return -1;
                i++;
                break;
            }
            case CH_EXT:
                if (c == '\r')
                    self->state = CH_SIZE_LF;
                else if (c == '\n' || c == '\0')
                    return -1;
                i++;
                break;
            case CH_SIZE_LF:
                if (c != '\n')
                    return -1;
                self->state = self->left ? CH_DATA : CH_TRAILER;
                i++;
                break;
            case CH_DATA: {
                size_t take = n - i < self->left ? n - i : (size_t) self->left;
                self->left -= take;
                i += take;
                if (self->left == 0)
                    self->state = CH_DATA_CR;
                break;
            }
            case CH_DATA_CR:
                if (c != '\r')
                    return -1;
                self->state = CH_DATA_LF;
                i++;
                break;
            case CH_DATA_LF:
                if (c != '\n')
                    return -1;
                self->state = CH_SIZE;
                self->digits = 0;
                i++;
                break;
            case CH_TRAILER:
                self->state = c == '\r' ? CH_LAST_LF : CH_TLINE;
                i++;
                break;
            case CH_TLINE:
                if (c == '\r')
                    self->state = CH_TLINE_LF;
                else if (c == '\n' || c == '\0')
                    return -1;
                i++;
                break;
            case CH_TLINE_LF:
                if (c != '\n')
                    return -1;
                self->state = CH_TRAILER;
                i++;
                break;
            case CH_LAST_LF:
                if (c != '\n')
                    return -1;
                i++;
                memset(self, 0, sizeof *self);
                *done = true;
                return (ssize_t) i;
            default:
                return -1;
        }
    }
    return (ssize_t) i;
}

uint64_t
wsp_http_chunked_data_left(const wsp_http_chunked_t *self)
{
    assert(self);
    return self->state == CH_DATA ? self->left : 0;
}

void
wsp_http_chunked_skip(wsp_http_chunked_t *self, uint64_t n)
{
    assert(self && self->state == CH_DATA && n <= self->left);
    self->left -= n;
    if (self->left == 0)
        self->state = CH_DATA_CR;
}
