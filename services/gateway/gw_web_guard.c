/*  =========================================================================
    gw_web_guard - browser paths and origins, checked

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

int
gw_web_guard_path(const char *raw, char *out, size_t size)
{
    assert(raw && out && size > 0);
    if (*raw != '/')
        return -1;
    size_t used = 0;
    const char *p = raw;
    while (*p) {
        while (*p == '/')
            p++;
        if (!*p)
            break;
        //  One segment, decoded into seg.
        char seg[GW_WEB_PATH_MAX];
        size_t len = 0;
        for (; *p && *p != '/'; p++) {
            int c = (unsigned char) *p;
            if (c == '%') {
                int hi = bus_hex_digit(p[1]), lo = hi < 0 ? -1 : bus_hex_digit(p[2]);
                if (hi < 0 || lo < 0)
                    return -1;
                c = hi * 16 + lo;
                p += 2;
                if (c == '/')
                    return -1; //  an encoded slash hides a segment boundary
            }
            if (c < 0x20 || c == 0x7f || c == '\\')
                return -1;
            if (len + 1 >= sizeof seg)
                return -1;
            seg[len++] = (char) c;
        }
        seg[len] = 0;
        if (strcmp(seg, ".") == 0)
            continue;
        if (strcmp(seg, "..") == 0)
            return -1;
        if (used + (used ? 1 : 0) + len + 1 > size)
            return -1;
        if (used)
            out[used++] = '/';
        memcpy(out + used, seg, len);
        used += len;
    }
    out[used] = 0;
    return 0;
}

//  A host: letters, digits, dots, dashes, 1..253 of them, or "[...]" of hex
//  digits, colons and dots.
static bool
s_host_ok(const char *host, size_t len)
{
    if (len == 0 || len > 253)
        return false;
    if (host[0] == '[') {
        if (len < 3 || host[len - 1] != ']')
            return false;
        for (size_t i = 1; i + 1 < len; i++)
            if (!isxdigit((unsigned char) host[i]) && host[i] != ':' && host[i] != '.')
                return false;
        return true;
    }
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char) host[i]) && host[i] != '.' && host[i] != '-')
            return false;
    return true;
}

int
gw_web_guard_origin_normalize(const char *origin, char *out, size_t size)
{
    assert(origin && out && size > 0);
    bool https;
    const char *p;
    if (strncasecmp(origin, "http://", 7) == 0)
        https = false, p = origin + 7;
    else if (strncasecmp(origin, "https://", 8) == 0)
        https = true, p = origin + 8;
    else
        return -1;
    //  The host ends at the port's colon (after a bracket for IPv6) or a slash.
    size_t host_len;
    if (*p == '[') {
        const char *close = strchr(p, ']');
        if (!close)
            return -1;
        host_len = (size_t) (close - p) + 1;
    } else
        host_len = strcspn(p, ":/");
    if (!s_host_ok(p, host_len))
        return -1;
    const char *rest = p + host_len;
    long port = https ? 443 : 80;
    if (*rest == ':') {
        rest++;
        size_t digits = strspn(rest, "0123456789");
        if (digits == 0 || digits > 5)
            return -1;
        port = strtol(rest, NULL, 10);
        if (port < 1 || port > 65535)
            return -1;
        rest += digits;
    }
    if (*rest == '/')
        rest++;
    if (*rest)
        return -1;
    int wrote;
    if (port == (https ? 443 : 80))
        wrote =
            snprintf(out, size, "%s://%.*s", https ? "https" : "http", (int) host_len, p);
    else
        wrote = snprintf(out, size, "%s://%.*s:%ld", https ? "https" : "http",
                         (int) host_len, p, port);
    if (wrote < 0 || (size_t) wrote >= size)
        return -1;
    for (char *c = out; *c; c++)
        *c = (char) tolower((unsigned char) *c);
    return 0;
}

bool
gw_web_guard_origin(const char *origin,
                    const char *fetch_site,
                    const char *host,
                    bool tls,
                    const char *public_url)
{
    if (!origin) {
        //  No Origin: a browser still says where the request comes from.
        if (fetch_site)
            return strcmp(fetch_site, "same-origin") == 0 ||
                   strcmp(fetch_site, "none") == 0;
        return true;
    }
    char theirs[GW_WEB_ORIGIN_MAX], ours[GW_WEB_ORIGIN_MAX];
    if (gw_web_guard_origin_normalize(origin, theirs, sizeof theirs) != 0)
        return false; //  "null", a file: page, anything malformed
    if (public_url && *public_url) {
        if (gw_web_guard_origin_normalize(public_url, ours, sizeof ours) != 0)
            return false;
    } else {
        char url[GW_WEB_ORIGIN_MAX];
        if (!host || strlen(host) > 260)
            return false;
        snprintf(url, sizeof url, "%s://%s", tls ? "https" : "http", host);
        if (strchr(host, '/') ||
            gw_web_guard_origin_normalize(url, ours, sizeof ours) != 0)
            return false;
    }
    return strcmp(theirs, ours) == 0;
}
