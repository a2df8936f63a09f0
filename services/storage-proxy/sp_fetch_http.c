/*  =========================================================================
    sp_fetch_http - URLs, Location, response heads and chunked bodies of
    the storage-proxy's HTTP client (pure functions)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"

enum { S_SIZE, S_SIZE_EXT, S_SIZE_LF, S_DATA, S_DATA_CR, S_DATA_LF, S_TRAILER, S_DONE };

static int
s_fail(bus_error_t *err, const char *detail)
{
    bus_error_set(err, BUS_STATUS_INVALID, "%s", detail);
    return -1;
}

//  The scheme's length when url starts with letters then ':', else 0.
static size_t
s_scheme_len(const char *url, size_t len)
{
    size_t i = 0;
    while (i < len && (isalpha((unsigned char) url[i]) ||
                       (i > 0 && (isdigit((unsigned char) url[i]) || url[i] == '+' ||
                                  url[i] == '-' || url[i] == '.'))))
        i++;
    return i > 0 && i < len && url[i] == ':' ? i : 0;
}

int
sp_fetch_url_parse(const char *url, size_t len, sp_fetch_url_t *out, bus_error_t *err)
{
    assert(out);
    memset(out, 0, sizeof *out);
    if (!url || len == 0)
        return s_fail(err, "no URL");
    if (len > SP_FETCH_URL_MAX)
        return s_fail(err, "the URL is longer than 2048 bytes");
    for (size_t i = 0; i < len; i++)
        if ((unsigned char) url[i] <= 0x20 || (unsigned char) url[i] >= 0x7f)
            return s_fail(err, "the URL holds a space, a control or a non-ASCII "
                               "character (percent-encode it)");
    size_t scheme = s_scheme_len(url, len);
    if (scheme == 4 && strncasecmp(url, "http", 4) == 0)
        out->tls = false;
    else if (scheme == 5 && strncasecmp(url, "https", 5) == 0)
        out->tls = true;
    else
        return s_fail(err, "only http:// and https:// URLs are fetched");
    const char *p = url + scheme + 1, *end = url + len;
    if (end - p < 2 || p[0] != '/' || p[1] != '/')
        return s_fail(err, "the URL has no host (http://host/...)");
    p += 2;
    const char *auth_end = p;
    while (auth_end < end && *auth_end != '/' && *auth_end != '?' && *auth_end != '#')
        auth_end++;
    if (memchr(p, '@', (size_t) (auth_end - p)))
        return s_fail(err, "user information in the URL (user:password@) is refused");
    const char *host = p, *host_end;
    if (p < auth_end && *p == '[') {
        host = ++p;
        while (p < auth_end && *p != ']') {
            if (!isxdigit((unsigned char) *p) && *p != ':' && *p != '.')
                return s_fail(err, "the URL's IPv6 address is malformed");
            p++;
        }
        if (p == auth_end)
            return s_fail(err, "the URL's IPv6 address is malformed");
        host_end = p++;
        out->ipv6 = true;
    } else {
        while (p < auth_end && *p != ':') {
            if (!isalnum((unsigned char) *p) && *p != '.' && *p != '-' && *p != '_' &&
                *p != '~')
                return s_fail(err, "the URL's host name holds a character a host "
                                   "name cannot");
            p++;
        }
        host_end = p;
    }
    size_t host_len = (size_t) (host_end - host);
    if (host_len == 0 || host_len > SP_FETCH_HOST_MAX)
        return s_fail(err, "the URL has no host, or one over 253 bytes");
    for (size_t i = 0; i < host_len; i++)
        out->host[i] = (char) tolower((unsigned char) host[i]);
    out->port = out->tls ? 443 : 80;
    if (p < auth_end) {
        if (*p != ':' || p + 1 == auth_end || auth_end - p > 6)
            return s_fail(err, "the URL's port is malformed");
        unsigned port = 0;
        for (p++; p < auth_end; p++) {
            if (!isdigit((unsigned char) *p))
                return s_fail(err, "the URL's port is malformed");
            port = port * 10 + (unsigned) (*p - '0');
        }
        if (port == 0 || port > 65535)
            return s_fail(err, "the URL's port is not within 1-65535");
        out->port = (uint16_t) port;
    }
    const char *frag = memchr(auth_end, '#', (size_t) (end - auth_end));
    const char *target_end = frag ? frag : end;
    size_t target_len = (size_t) (target_end - auth_end);
    size_t at = 0;
    if (target_len == 0 || *auth_end == '?')
        out->target[at++] = '/';
    memcpy(out->target + at, auth_end, target_len); //  fits: len <= URL_MAX
    out->target[at + target_len] = 0;
    return 0;
}

int
sp_fetch_url_format(const sp_fetch_url_t *base, char *out, size_t size)
{
    assert(base && out);
    char port[8] = "";
    if (base->port != (base->tls ? 443 : 80))
        snprintf(port, sizeof port, ":%u", base->port);
    int n = snprintf(out, size, "%s://%s%s%s%s%s", base->tls ? "https" : "http",
                     base->ipv6 ? "[" : "", base->host, base->ipv6 ? "]" : "", port,
                     base->target);
    return n < 0 || (size_t) n >= size ? -1 : 0;
}

int
sp_fetch_url_resolve(const sp_fetch_url_t *base,
                     const char *location,
                     size_t len,
                     char out[SP_FETCH_URL_MAX + 1],
                     bus_error_t *err)
{
    assert(base && out);
    if (!location || len == 0)
        return s_fail(err, "a redirect without a Location");
    if (len > SP_FETCH_URL_MAX)
        return s_fail(err, "a redirect's Location is longer than 2048 bytes");
    char origin[SP_FETCH_URL_MAX + 1];
    sp_fetch_url_t root = *base;
    root.target[0] = 0;
    if (sp_fetch_url_format(&root, origin, sizeof origin) != 0)
        return s_fail(err, "a redirect's Location is too long");
    int n;
    if (s_scheme_len(location, len))
        n = snprintf(out, SP_FETCH_URL_MAX + 1, "%.*s", (int) len, location);
    else if (len >= 2 && location[0] == '/' && location[1] == '/')
        n = snprintf(out, SP_FETCH_URL_MAX + 1, "%s:%.*s", base->tls ? "https" : "http",
                     (int) len, location);
    else if (location[0] == '/')
        n = snprintf(out, SP_FETCH_URL_MAX + 1, "%s%.*s", origin, (int) len, location);
    else {
        //  Relative to the base's directory (its path up to the last '/').
        size_t path = strcspn(base->target, "?");
        if (location[0] == '?')
            n = snprintf(out, SP_FETCH_URL_MAX + 1, "%s%.*s%.*s", origin, (int) path,
                         base->target, (int) len, location);
        else {
            size_t dir = path;
            while (dir > 0 && base->target[dir - 1] != '/')
                dir--;
            n = snprintf(out, SP_FETCH_URL_MAX + 1, "%s%.*s%.*s", origin, (int) dir,
                         base->target, (int) len, location);
        }
    }
    if (n < 0 || n > SP_FETCH_URL_MAX)
        return s_fail(err, "a redirect's Location is longer than 2048 bytes");
    return 0;
}

//  ---------------------------------------------------------------------------

//  Whether header line [p, end) is name (case-insensitive); *value_p its
//  value without the surrounding white space, *value_len_p its length.
static bool
s_header_is(const char *p,
            const char *end,
            const char *name,
            const char **value_p,
            size_t *value_len_p)
{
    size_t n = strlen(name);
    if ((size_t) (end - p) <= n || strncasecmp(p, name, n) != 0 || p[n] != ':')
        return false;
    const char *v = p + n + 1, *e = end;
    while (v < e && (*v == ' ' || *v == '\t'))
        v++;
    while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    *value_p = v;
    *value_len_p = (size_t) (e - v);
    return true;
}

long
sp_fetch_head_parse(const char *buf, size_t len, sp_fetch_head_t *head, bus_error_t *err)
{
    assert(head);
    memset(head, 0, sizeof *head);
    head->content_length = -1;
    size_t scan = len < SP_FETCH_HEAD_MAX ? len : SP_FETCH_HEAD_MAX;
    const char *stop = NULL;
    for (size_t i = 3; i < scan && !stop; i++)
        if (buf[i - 3] == '\r' && buf[i - 2] == '\n' && buf[i - 1] == '\r' &&
            buf[i] == '\n')
            stop = buf + i + 1;
    if (!stop) {
        if (len >= SP_FETCH_HEAD_MAX)
            return s_fail(err, "the server's answer has a head over 16 KiB");
        return 0;
    }
    const char *p = buf, *line_end = memchr(p, '\r', (size_t) (stop - p));
    int status = 0;
    if (!line_end || line_end - p < 12 || strncmp(p, "HTTP/1.", 7) != 0 ||
        !isdigit((unsigned char) p[7]) || p[8] != ' ' || !isdigit((unsigned char) p[9]) ||
        !isdigit((unsigned char) p[10]) || !isdigit((unsigned char) p[11]) ||
        (line_end - p > 12 && p[12] != ' '))
        return s_fail(err, "the server's answer is not HTTP/1.x");
    status = (p[9] - '0') * 100 + (p[10] - '0') * 10 + (p[11] - '0');
    if (status < 100 || status > 599)
        return s_fail(err, "the server's answer has a status out of range");
    head->status = status;
    for (p = line_end + 2; p < stop - 2; p = line_end + 2) {
        line_end = memchr(p, '\r', (size_t) (stop - p));
        if (!line_end || line_end[1] != '\n')
            return s_fail(err, "the server's answer has a bare CR in its head");
        for (const char *c = p; c < line_end; c++)
            if ((unsigned char) *c < 0x20 && *c != '\t')
                return s_fail(err, "the server's answer has a control character in "
                                   "its head");
        if (*p == ' ' || *p == '\t')
            return s_fail(err, "the server's answer folds a header line");
        const char *v;
        size_t vlen;
        if (s_header_is(p, line_end, "content-length", &v, &vlen)) {
            if (vlen == 0 || vlen > 18)
                return s_fail(err, "the server's Content-Length is malformed");
            int64_t value = 0;
            for (size_t i = 0; i < vlen; i++) {
                if (!isdigit((unsigned char) v[i]))
                    return s_fail(err, "the server's Content-Length is malformed");
                value = value * 10 + (v[i] - '0');
            }
            if (head->content_length >= 0 && head->content_length != value)
                return s_fail(err, "the server sent two different Content-Lengths");
            head->content_length = value;
        } else if (s_header_is(p, line_end, "transfer-encoding", &v, &vlen)) {
            if (vlen != 7 || strncasecmp(v, "chunked", 7) != 0 || head->chunked)
                return s_fail(err, "the server's Transfer-Encoding is not plain chunked");
            head->chunked = true;
        } else if (s_header_is(p, line_end, "content-type", &v, &vlen)) {
            size_t n = 0;
            while (n < vlen && n < SP_FETCH_TYPE_MAX && v[n] != ';' && v[n] != ' ' &&
                   v[n] != '\t') {
                head->content_type[n] = (char) tolower((unsigned char) v[n]);
                n++;
            }
            head->content_type[n] = 0;
        } else if (s_header_is(p, line_end, "location", &v, &vlen)) {
            if (vlen > SP_FETCH_URL_MAX)
                head->location_too_long = true;
            else {
                memcpy(head->location, v, vlen);
                head->location[vlen] = 0;
            }
        }
    }
    //  RFC 9112 6.3: chunked wins over a length; both at once is a smell.
    if (head->chunked)
        head->content_length = -1;
    return (long) (stop - buf);
}

//  ---------------------------------------------------------------------------

int
sp_fetch_chunked_step(sp_fetch_chunked_t *self,
                      const uint8_t *in,
                      size_t len,
                      size_t *used_p,
                      const uint8_t **data_p,
                      size_t *data_len_p)
{
    assert(self && used_p && data_p && data_len_p);
    *data_p = NULL;
    *data_len_p = 0;
    size_t i = 0;
    while (i < len && self->state != S_DONE) {
        uint8_t c = in[i];
        switch (self->state) {
            case S_SIZE: {
                int h = bus_hex_digit(c);
                if (h >= 0) {
                    if (self->left >> 59)
                        return -1; //  a size over 2^63
                    self->left = self->left << 4 | (uint64_t) h;
                    self->digits = true;
                    i++;
                    break;
                }
                if (!self->digits)
                    return -1;
                self->state = c == '\r' ? S_SIZE_LF : S_SIZE_EXT;
                self->line = 0;
                i++;
                if (c != '\r' && c != ';' && c != ' ' && c != '\t')
                    return -1;
                break;
            }
            case S_SIZE_EXT:
                if (++self->line > SP_FETCH_CHUNK_EXT || c == '\n')
                    return -1;
                if (c == '\r')
                    self->state = S_SIZE_LF;
                i++;
                break;
            case S_SIZE_LF:
                if (c != '\n')
                    return -1;
                i++;
                self->digits = false;
                self->line = 0;
                self->state = self->left ? S_DATA : S_TRAILER;
                break;
            case S_DATA: {
                size_t take = len - i < self->left ? len - i : (size_t) self->left;
                *data_p = in + i;
                *data_len_p = take;
                self->left -= take;
                i += take;
                if (self->left == 0)
                    self->state = S_DATA_CR;
                *used_p = i;
                return 0; //  one span per step
            }
            case S_DATA_CR:
                if (c != '\r')
                    return -1;
                self->state = S_DATA_LF;
                i++;
                break;
            case S_DATA_LF:
                if (c != '\n')
                    return -1;
                self->state = S_SIZE;
                i++;
                break;
            case S_TRAILER:
                //  Lines until an empty one; line counts bytes before CR.
                i++;
                if (c == '\n') {
                    if (self->line == 0)
                        self->state = S_DONE;
                    self->line = 0;
                } else if (c != '\r' && ++self->line > SP_FETCH_CHUNK_EXT)
                    return -1;
                break;
            default:
                return -1;
        }
    }
    *used_p = i;
    return self->state == S_DONE ? 1 : 0;
}
