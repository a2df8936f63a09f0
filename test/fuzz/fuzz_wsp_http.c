/*  =========================================================================
    fuzz_wsp_http - libFuzzer target for the wsproxy's HTTP heads and
    chunked framing (wsp_http)

    The wsproxy reads request heads from anyone who reaches an app's port
    and response heads from apps, which a user's container runs. The first
    input byte picks the request method a response answers (for its body
    rules) and how the bytes after the head are cut into feeds; the rest,
    up to its first blank line, is a head, parsed as a request and as a
    response, each twice, with the same result. The promises checked,
    beyond not crashing:
      - a parsed head's strings lie inside it, at most WSP_HTTP_HEADERS_MAX
        header names, none empty or holding a colon; a body of a length
        comes with a Content-Length that says it, a chunked one with a
        Transfer-Encoding, and a request never has both;
      - a request written again for the app (wsp_http_request_write, with
        and without its Authorization) parses as a request of the same
        method and target, with the Host given, no Authorization when it is
        dropped, and the same body framing (when the proxy's four header
        lines leave it within WSP_HTTP_HEADERS_MAX);
      - a response head without its Connection headers
        (wsp_http_response_kept) is no longer, parses with the same status
        and framing, and names no Connection or Keep-Alive header;
      - the bytes after the head, as a chunked body, end at the same byte
        with the same verdict whether scanned whole, in feeds, or with the
        chunk data skipped as splice skips it.
    Any broken promise aborts, so the fuzzer reports it like a crash.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "../../services/wsproxy/wsp_http.h"

#define OUT_SIZE (WSP_HTTP_HEAD_MAX + 1024) //  what wsp_conn writes a request into

static const char *const s_methods[] = {"GET", "HEAD", "POST", "CONNECT"};

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

//  A copy of head (size bytes) with a NUL after it, as the proxy holds one.
static char *
s_copy(const char *head, size_t size)
{
    char *copy = malloc(size + 1);
    if (copy) {
        memcpy(copy, head, size);
        copy[size] = '\0';
    }
    return copy;
}

//  The promises every parsed head keeps, inside its buffer head (size); a
//  request never has both a length and a coding (a response's coding wins).
static void
s_check_head(const wsp_http_head_t *h, const char *head, size_t size, bool request)
{
    s_check(h->header_count <= WSP_HTTP_HEADERS_MAX);
    for (size_t i = 0; i < h->header_count; i++) {
        s_check(s_inside(h->headers[i].name, head, size) &&
                s_inside(h->headers[i].value, head, size));
        s_check(h->headers[i].name[0] && !strchr(h->headers[i].name, ':'));
    }
    const char *length = wsp_http_header(h, "Content-Length");
    const char *coding = wsp_http_header(h, "Transfer-Encoding");
    s_check(!(request && length && coding));
    if (h->body == WSP_HTTP_BODY_LENGTH)
        s_check(length && h->length == strtoull(length, NULL, 10));
    if (h->body == WSP_HTTP_BODY_CHUNKED)
        s_check(coding != NULL);
}

static void
s_check_request(const char *raw, size_t size)
{
    char *head = s_copy(raw, size), *again = s_copy(raw, size);
    char *out = malloc(OUT_SIZE);
    if (!head || !again || !out)
        goto done;
    wsp_http_head_t req, req_again;
    bool ok = wsp_http_parse_request(head, size, &req);
    s_check(ok == wsp_http_parse_request(again, size, &req_again));
    if (!ok)
        goto done;
    s_check(memchr(req.method, '\0', sizeof req.method) && req.method[0]);
    s_check(s_inside(req.target, head, size));
    s_check(strcmp(req.method, req_again.method) == 0 &&
            strcmp(req.target, req_again.target) == 0 &&
            req.header_count == req_again.header_count && req.body == req_again.body);
    s_check_head(&req, head, size, true);
    for (int drop = 0; drop < 2; drop++) {
        ssize_t n = wsp_http_request_write(&req, "app:8000", "10.0.0.1", drop, drop, out,
                                           OUT_SIZE);
        if (n < 0)
            continue; //  too large with the proxy's headers: a 431
        //  Host and three X-Forwarded-* lines may take it past what this
        //  parser takes (the app's may take more)
        if (req.header_count + 4 > WSP_HTTP_HEADERS_MAX)
            continue;
        s_check((size_t) n < OUT_SIZE && out[n] == '\0' && n >= 4 &&
                memcmp(out + n - 4, "\r\n\r\n", 4) == 0);
        wsp_http_head_t written;
        s_check(wsp_http_parse_request(out, (size_t) n, &written));
        s_check(strcmp(written.method, req.method) == 0 &&
                strcmp(written.target, req.target) == 0 && written.body == req.body);
        const char *host = wsp_http_header(&written, "Host");
        s_check(host && strcmp(host, "app:8000") == 0);
        if (drop)
            s_check(!wsp_http_header(&written, "Authorization"));
    }
done:
    free(head);
    free(again);
    free(out);
}

static void
s_check_response(const char *raw, size_t size, const char *method)
{
    char *head = s_copy(raw, size), *again = s_copy(raw, size);
    char *out = malloc(size + 1);
    if (!head || !again || !out)
        goto done;
    wsp_http_head_t res, res_again;
    bool ok = wsp_http_parse_response(head, size, method, &res);
    s_check(ok == wsp_http_parse_response(again, size, method, &res_again));
    if (!ok)
        goto done;
    s_check(res.status >= 100 && res.status <= 999 && res.status == res_again.status);
    s_check(res.body == res_again.body && res.header_count == res_again.header_count);
    s_check_head(&res, head, size, false);
    //  The head as the app sent it, without its hop's Connection headers.
    ssize_t n = wsp_http_response_kept(raw, size, out, size + 1);
    s_check(n >= 0 && (size_t) n <= size);
    wsp_http_head_t kept;
    s_check(wsp_http_parse_response(out, (size_t) n, method, &kept));
    s_check(kept.status == res.status && !wsp_http_header(&kept, "Connection") &&
            !wsp_http_header(&kept, "Keep-Alive"));
    //  Framing that depends on Connection (a 1.0 answer kept alive, or not,
    //  has no length either way): the same whenever a length or chunks say.
    if (res.body == WSP_HTTP_BODY_LENGTH || res.body == WSP_HTTP_BODY_CHUNKED)
        s_check(kept.body == res.body && kept.length == res.length);
done:
    free(head);
    free(again);
    free(out);
}

//  Scans body (n bytes) as a chunked body in feeds of at most step bytes
//  (0: whole), skipping chunk data as the proxy's splice does when skip.
//  Returns the bytes that belong to the body, -1 for broken framing, and
//  whether it ended.
static ssize_t
s_scan(const char *body, size_t n, size_t step, bool skip, bool *done)
{
    wsp_http_chunked_t chunk;
    memset(&chunk, 0, sizeof chunk);
    size_t at = 0;
    *done = false;
    while (at < n && !*done) {
        if (skip) {
            uint64_t data = wsp_http_chunked_data_left(&chunk);
            if (data > 0) {
                size_t take = data < n - at ? (size_t) data : n - at;
                wsp_http_chunked_skip(&chunk, take);
                at += take;
                continue;
            }
        }
        size_t feed = step && step < n - at ? step : n - at;
        ssize_t used = wsp_http_chunked_scan(&chunk, body + at, feed, done);
        if (used < 0)
            return -1;
        s_check((size_t) used <= feed && (*done || (size_t) used == feed));
        at += (size_t) used;
    }
    return (ssize_t) at;
}

static void
s_check_chunked(const char *body, size_t n, size_t step)
{
    bool done_whole, done_fed, done_skipped;
    ssize_t whole = s_scan(body, n, 0, false, &done_whole);
    ssize_t fed = s_scan(body, n, step, false, &done_fed);
    ssize_t skipped = s_scan(body, n, step, true, &done_skipped);
    s_check(whole == fed && whole == skipped);
    if (whole >= 0)
        s_check(done_whole == done_fed && done_whole == done_skipped);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 2 * WSP_HTTP_HEAD_MAX)
        return 0;
    const char *method = s_methods[data[0] % (sizeof s_methods / sizeof s_methods[0])];
    size_t step = (size_t) (data[0] >> 2);
    const char *text = (const char *) data + 1;
    size_t left = size - 1;
    const char *blank = memmem(text, left, "\r\n\r\n", 4);
    if (!blank) {
        s_check_chunked(text, left, step);
        return 0;
    }
    size_t head_size = (size_t) (blank - text) + 4;
    if (head_size <= WSP_HTTP_HEAD_MAX) {
        s_check_request(text, head_size);
        s_check_response(text, head_size, method);
    }
    s_check_chunked(text + head_size, left - head_size, step);
    return 0;
}
