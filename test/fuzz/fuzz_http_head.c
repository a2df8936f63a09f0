/*  =========================================================================
    fuzz_http_head - libFuzzer target for the storage-proxy's HTTP request
    heads and Range headers (sp_http_head)

    The storage-proxy's upload and download endpoint faces clients
    directly. The input is what a client sends: up to its first blank line
    it is a head, kept NUL-terminated after the bytes the server holds, as
    the server does (what follows the blank line stays in the buffer, like a
    body that came with the head). The promises checked, beyond not
    crashing: parsing is the same twice; a parsed head has a method shorter
    than its buffer, a NUL-terminated path without "?", at most
    SP_HTTP_HEADERS_MAX headers, each with a name (no colon) and a value
    without blanks at either end, all inside the head; a Content-Length
    that is -1 or what the header says. Every Range, for files of several
    sizes, is ignored, refused, or a part of the file that fits in it. Any
    broken promise aborts, so the fuzzer reports it like a crash.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "../../services/storage-proxy/sp_http_head.h"

#define FUZZ_HEAD_MAX 16384 //  SP_HTTP_HEAD_MAX

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

static bool
s_inside(const char *p, const char *start, size_t size)
{
    return p >= start && p < start + size;
}

static void
s_check_range(const char *header)
{
    static const uint64_t sizes[] = {0, 1, 7, 1000, UINT64_MAX / 2, UINT64_MAX};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint64_t start = 0, len = 0;
        sp_http_range_t range = sp_http_range(header, sizes[i], &start, &len);
        if (range == SP_HTTP_RANGE_ONE)
            s_check(len >= 1 && start < sizes[i] && len <= sizes[i] - start);
        else
            s_check(range == SP_HTTP_RANGE_NONE || range == SP_HTTP_RANGE_UNSATISFIABLE);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_HEAD_MAX)
        return 0;
    //  The range parser alone, on the input as one header value.
    char *value = malloc(size + 1);
    if (!value)
        return 0;
    memcpy(value, data, size);
    value[size] = '\0';
    s_check_range(value);
    free(value);

    //  The head: up to the first blank line, as the server finds it.
    const uint8_t *blank = memmem(data, size, "\r\n\r\n", 4);
    if (!blank)
        return 0;
    size_t head_size = (size_t) (blank - data) + 4;
    char *head = malloc(size + 1), *again = malloc(size + 1);
    if (!head || !again) {
        free(head);
        free(again);
        return 0;
    }
    memcpy(head, data, size);
    memcpy(again, data, size);
    head[size] = again[size] = '\0';
    sp_http_request_t req, req_again;
    bool ok = sp_http_head_parse(head, head_size, &req);
    s_check(ok == sp_http_head_parse(again, head_size, &req_again));
    if (ok) {
        s_check(memchr(req.method, '\0', sizeof req.method) && req.method[0]);
        s_check(memchr(req.path, '\0', sizeof req.path) && !strchr(req.path, '?'));
        s_check(strcmp(req.method, req_again.method) == 0 &&
                strcmp(req.path, req_again.path) == 0);
        s_check(s_inside(req.target, head, head_size));
        s_check(req.header_count <= SP_HTTP_HEADERS_MAX &&
                req.header_count == req_again.header_count);
        for (size_t i = 0; i < req.header_count; i++) {
            const sp_http_header_t *h = &req.headers[i];
            s_check(s_inside(h->name, head, head_size) &&
                    s_inside(h->value, head, head_size));
            s_check(h->name[0] && !strchr(h->name, ':'));
            size_t n = strlen(h->value);
            s_check(n == 0 || (h->value[0] != ' ' && h->value[0] != '\t' &&
                               h->value[n - 1] != ' ' && h->value[n - 1] != '\t'));
            s_check(strcmp(h->value, req_again.headers[i].value) == 0);
        }
        const char *length = sp_http_head_header(&req, "Content-Length");
        s_check(length ? req.content_length >= 0 &&
                             req.content_length == strtoll(length, NULL, 10)
                       : req.content_length == -1);
        s_check_range(sp_http_head_header(&req, "Range"));
    }
    free(head);
    free(again);
    return 0;
}
