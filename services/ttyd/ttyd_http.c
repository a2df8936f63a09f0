/*  =========================================================================
    ttyd_http - one HTTP/1.x request head: the method, the path, and what a
    WebSocket upgrade needs

    The head is read whole (the loop caps it at TTYD_HEAD_MAX) and parsed
    here: the request line "METHOD SP TARGET SP HTTP/1.x", then header lines
    "Name: value" up to the blank line. Only the headers of a WebSocket
    upgrade are kept (Upgrade, Connection, Sec-WebSocket-Key, -Version,
    -Protocol); their lists are split on commas and compared without case
    where RFC 6455 says so. Pure: no I/O.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "ttyd_classes.h"

//  Whether the comma list value (len bytes) holds token, compared with or
//  without case.
static bool
s_list_has(const char *value, size_t len, const char *token, bool nocase)
{
    size_t token_len = strlen(token);
    const char *p = value, *end = value + len;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == ','))
            p++;
        const char *start = p;
        while (p < end && *p != ',')
            p++;
        const char *stop = p;
        while (stop > start && (stop[-1] == ' ' || stop[-1] == '\t'))
            stop--;
        if ((size_t) (stop - start) == token_len &&
            (nocase ? strncasecmp(start, token, token_len) == 0
                    : memcmp(start, token, token_len) == 0))
            return true;
    }
    return false;
}

int
ttyd_http_parse(const char *head, size_t size, ttyd_http_request_t *req)
{
    memset(req, 0, sizeof *req);
    const char *end = head + size;
    const char *eol = memchr(head, '\n', size);
    if (!eol)
        return -1;
    //  The request line.
    const char *line_end = eol > head && eol[-1] == '\r' ? eol - 1 : eol;
    const char *sp1 = memchr(head, ' ', (size_t) (line_end - head));
    const char *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t) (line_end - sp1 - 1)) : NULL;
    if (!sp1 || !sp2 || sp1 == head || (size_t) (sp1 - head) >= sizeof req->method ||
        sp2 == sp1 + 1 || line_end - sp2 - 1 != 8 || memcmp(sp2 + 1, "HTTP/1.", 7) != 0)
        return -1;
    memcpy(req->method, head, (size_t) (sp1 - head));
    const char *target = sp1 + 1;
    const char *query = memchr(target, '?', (size_t) (sp2 - target));
    const char *path_end = query ? query : sp2;
    if (*target != '/' || (size_t) (path_end - target) >= sizeof req->path)
        return -1;
    memcpy(req->path, target, (size_t) (path_end - target));
    bool upgrade = false, connection = false;
    //  The header lines.
    const char *p = eol + 1;
    while (p < end) {
        eol = memchr(p, '\n', (size_t) (end - p));
        if (!eol)
            return -1;
        line_end = eol > p && eol[-1] == '\r' ? eol - 1 : eol;
        if (line_end == p)
            break; //  the blank line
        const char *colon = memchr(p, ':', (size_t) (line_end - p));
        if (!colon || colon == p)
            return -1;
        size_t name_len = (size_t) (colon - p);
        const char *value = colon + 1;
        while (value < line_end && (*value == ' ' || *value == '\t'))
            value++;
        const char *value_end = line_end;
        while (value_end > value && (value_end[-1] == ' ' || value_end[-1] == '\t'))
            value_end--;
        size_t value_len = (size_t) (value_end - value);
#define S_IS(name) (name_len == strlen(name) && strncasecmp(p, name, name_len) == 0)
        if (S_IS("Upgrade"))
            upgrade = upgrade || s_list_has(value, value_len, "websocket", true);
        else if (S_IS("Connection"))
            connection = connection || s_list_has(value, value_len, "upgrade", true);
        else if (S_IS("Sec-WebSocket-Key")) {
            if (value_len < sizeof req->ws_key) {
                memcpy(req->ws_key, value, value_len);
                req->ws_key[value_len] = '\0';
            }
        } else if (S_IS("Sec-WebSocket-Version"))
            req->version_13 = value_len == 2 && memcmp(value, "13", 2) == 0;
        else if (S_IS("Sec-WebSocket-Protocol")) {
            req->protocols = true;
            req->protocol_tty =
                req->protocol_tty || s_list_has(value, value_len, "tty", false);
        }
#undef S_IS
        p = eol + 1;
    }
    req->upgrade = upgrade && connection;
    return 0;
}
