/*  =========================================================================
    sp_http_head - the request head and Range header, parsed

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"

bool
sp_http_head_parse(char *head, size_t size, sp_http_request_t *req)
{
    memset(req, 0, sizeof *req);
    req->content_length = -1;
    if (size < 4)
        return false;
    char *p = head;
    char *end = head + size - 2; //  the blank line's CRLF
    char *eol = strstr(p, "\r\n");
    if (!eol || eol > end)
        return false;
    *eol = '\0';
    char *sp1 = strchr(p, ' ');
    char *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
    if (!sp1 || !sp2 || sp1 == p || sp2 == sp1 + 1 ||
        (size_t) (sp1 - p) >= sizeof req->method)
        return false;
    *sp1 = *sp2 = '\0';
    memcpy(req->method, p, (size_t) (sp1 - p) + 1);
    req->target = sp1 + 1;
    snprintf(req->path, sizeof req->path, "%.*s", (int) strcspn(req->target, "?"),
             req->target);
    if (strcmp(sp2 + 1, "HTTP/1.1") == 0)
        req->http10 = false;
    else if (strcmp(sp2 + 1, "HTTP/1.0") == 0)
        req->http10 = true;
    else
        return false;
    for (p = eol + 2; p < end;) {
        eol = strstr(p, "\r\n");
        if (!eol || eol > end)
            return false;
        *eol = '\0';
        char *colon = strchr(p, ':');
        if (!colon || colon == p || req->header_count == SP_HTTP_HEADERS_MAX)
            return false;
        *colon = '\0';
        char *value = colon + 1;
        while (*value == ' ' || *value == '\t')
            value++;
        for (char *t = eol; t > value && (t[-1] == ' ' || t[-1] == '\t'); t--)
            t[-1] = '\0';
        req->headers[req->header_count].name = p;
        req->headers[req->header_count++].value = value;
        p = eol + 2;
    }
    const char *length = sp_http_head_header(req, "Content-Length");
    if (length) {
        char *stop = NULL;
        errno = 0;
        long long value = strtoll(length, &stop, 10);
        if (!isdigit((unsigned char) *length) || errno || *stop || value < 0)
            return false;
        req->content_length = value;
    }
    const char *coding = sp_http_head_header(req, "Transfer-Encoding");
    req->chunked = coding && strcasecmp(coding, "identity") != 0;
    const char *connection = sp_http_head_header(req, "Connection");
    req->close = (connection && strcasestr(connection, "close")) ||
                 (req->http10 && !(connection && strcasestr(connection, "keep-alive")));
    return true;
}

const char *
sp_http_head_header(const sp_http_request_t *req, const char *name)
{
    for (size_t i = 0; i < req->header_count; i++)
        if (strcasecmp(req->headers[i].name, name) == 0)
            return req->headers[i].value;
    return NULL;
}

sp_http_range_t
sp_http_range(const char *header, uint64_t size, uint64_t *start_p, uint64_t *len_p)
{
    if (!header || strncmp(header, "bytes=", 6) != 0 || strchr(header, ','))
        return SP_HTTP_RANGE_NONE;
    const char *spec = header + 6;
    while (*spec == ' ')
        spec++;
    const char *dash = strchr(spec, '-');
    if (!dash)
        return SP_HTTP_RANGE_NONE;
    char *end = NULL;
    errno = 0;
    if (dash == spec) { //  suffix: the last n bytes
        if (!isdigit((unsigned char) dash[1]))
            return SP_HTTP_RANGE_NONE;
        unsigned long long n = strtoull(dash + 1, &end, 10);
        if (errno || *end)
            return SP_HTTP_RANGE_NONE;
        if (n == 0 || size == 0)
            return SP_HTTP_RANGE_UNSATISFIABLE;
        *len_p = n < size ? n : size;
        *start_p = size - *len_p;
        return SP_HTTP_RANGE_ONE;
    }
    if (!isdigit((unsigned char) *spec))
        return SP_HTTP_RANGE_NONE;
    unsigned long long first = strtoull(spec, &end, 10);
    if (errno || end != dash)
        return SP_HTTP_RANGE_NONE;
    unsigned long long last = size ? size - 1 : 0;
    if (dash[1]) {
        if (!isdigit((unsigned char) dash[1]))
            return SP_HTTP_RANGE_NONE;
        last = strtoull(dash + 1, &end, 10);
        if (errno || *end || last < first)
            return SP_HTTP_RANGE_NONE;
    }
    if (first >= size)
        return SP_HTTP_RANGE_UNSATISFIABLE;
    if (last >= size)
        last = size - 1;
    *start_p = first;
    *len_p = last - first + 1;
    return SP_HTTP_RANGE_ONE;
}
