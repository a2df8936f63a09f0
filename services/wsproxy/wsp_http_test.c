/*  =========================================================================
    wsp_http_test - request and response heads as the wsproxy relays them:
    framing, keep-alive, WebSocket upgrades, smuggling refused, the head
    written for the app, an app's Connection headers left out of a kept
    connection's answer, cookies, and chunked bodies found in pieces

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "wsp_classes.h"
#include "t.h"

//  Parses text as a request (a copy: the parse writes into it).
static bool
s_request(const char *text, wsp_http_head_t *req, char **copy_p)
{
    *copy_p = strdup(text);
    return wsp_http_parse_request(*copy_p, strlen(text), req);
}

static bool
s_response(const char *text, const char *method, wsp_http_head_t *res, char **copy_p)
{
    *copy_p = strdup(text);
    return wsp_http_parse_response(*copy_p, strlen(text), method, res);
}

static void
test_request_framing(void)
{
    wsp_http_head_t req;
    char *copy = NULL;
    T_ASSERT(s_request("GET /api/contents?x=1 HTTP/1.1\r\nHost: h:10200\r\n\r\n", &req,
                       &copy));
    T_EQ_STR(req.method, "GET");
    T_EQ_STR(req.target, "/api/contents?x=1");
    T_EQ_INT(req.body, WSP_HTTP_BODY_NONE);
    T_ASSERT(req.keep_alive);
    T_ASSERT(!req.upgrade);
    T_EQ_STR(wsp_http_header(&req, "host"), "h:10200");
    free(copy);
    T_ASSERT(s_request("PUT /f HTTP/1.1\r\nContent-Length:  12 \r\n\r\n", &req, &copy));
    T_EQ_INT(req.body, WSP_HTTP_BODY_LENGTH);
    T_EQ_INT(req.length, 12);
    free(copy);
    T_ASSERT(s_request("POST /f HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
                       &req, &copy));
    T_EQ_INT(req.body, WSP_HTTP_BODY_CHUNKED);
    free(copy);
    T_ASSERT(s_request("GET / HTTP/1.0\r\n\r\n", &req, &copy));
    T_ASSERT(!req.keep_alive);
    free(copy);
    T_ASSERT(s_request("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", &req, &copy));
    T_ASSERT(req.keep_alive);
    free(copy);
    T_ASSERT(s_request("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", &req, &copy));
    T_ASSERT(!req.keep_alive);
    free(copy);
}

static void
test_request_refused(void)
{
    static const char *bad[] = {
        "GET / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
        "GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
        "GET / HTTP/1.1\r\nContent-Length: 5x\r\n\r\n",
        "GET / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
        "GET / HTTP/2.0\r\n\r\n",
        "GET  / HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\nNo colon here\r\n\r\n",
        "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
        "GET / HTTP/1.1\r\nX: a\rb\r\n\r\n",
        "GET / HTTP/1.1\nHost: x\r\n\r\n",
        "GET /\x01 HTTP/1.1\r\n\r\n",
        "G(T / HTTP/1.1\r\n\r\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        wsp_http_head_t req;
        char *copy = NULL;
        bool ok = s_request(bad[i], &req, &copy);
        free(copy);
        if (ok)
            T_FAIL_("accepted: %s", bad[i]);
    }
    //  a duplicate Content-Length with the same value passes
    wsp_http_head_t req;
    char *copy = NULL;
    T_ASSERT(s_request("GET / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n",
                       &req, &copy));
    free(copy);
}

static void
test_websocket_handshake(void)
{
    wsp_http_head_t req;
    char *copy = NULL;
    T_ASSERT(s_request("GET /api/kernels/k/channels HTTP/1.1\r\nHost: h\r\n"
                       "Connection: keep-alive, Upgrade\r\nUpgrade: websocket\r\n"
                       "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                       "Sec-WebSocket-Protocol: tty\r\nSec-WebSocket-Version: 13\r\n\r\n",
                       &req, &copy));
    T_ASSERT(req.upgrade);
    T_ASSERT(req.websocket);
    //  what the app gets keeps the upgrade and the subprotocol
    char out[WSP_HTTP_HEAD_MAX];
    ssize_t n = wsp_http_request_write(&req, "10.0.0.5:8888", "127.0.0.1", false, false,
                                       out, sizeof out);
    T_ASSERT(n > 0);
    T_CONTAINS(out, "Upgrade: websocket\r\n");
    T_CONTAINS(out, "Connection: keep-alive, Upgrade\r\n");
    T_CONTAINS(out, "Sec-WebSocket-Protocol: tty\r\n");
    T_CONTAINS(out, "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n");
    free(copy);
    //  an Upgrade without Connection: upgrade is no upgrade
    T_ASSERT(s_request("GET / HTTP/1.1\r\nUpgrade: websocket\r\n\r\n", &req, &copy));
    T_ASSERT(!req.upgrade);
    free(copy);
    //  the app's 101 has no body; a 101 is recognised whatever the reason text
    wsp_http_head_t res;
    T_ASSERT(s_response("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                        "Connection: Upgrade\r\nSec-WebSocket-Accept: x\r\n\r\n",
                        "GET", &res, &copy));
    T_EQ_INT(res.status, 101);
    T_EQ_INT(res.body, WSP_HTTP_BODY_NONE);
    free(copy);
}

static void
test_response_framing(void)
{
    wsp_http_head_t res;
    char *copy = NULL;
    T_ASSERT(
        s_response("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", "GET", &res, &copy));
    T_EQ_INT(res.body, WSP_HTTP_BODY_LENGTH);
    T_EQ_INT(res.length, 10);
    T_ASSERT(res.keep_alive);
    free(copy);
    T_ASSERT(
        s_response("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", "HEAD", &res, &copy));
    T_EQ_INT(res.body, WSP_HTTP_BODY_NONE);
    free(copy);
    T_ASSERT(s_response("HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n", "GET",
                        &res, &copy));
    T_EQ_INT(res.body, WSP_HTTP_BODY_NONE);
    free(copy);
    T_ASSERT(s_response("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
                        "Content-Length: 10\r\n\r\n",
                        "GET", &res, &copy));
    T_EQ_INT(res.body, WSP_HTTP_BODY_CHUNKED);
    free(copy);
    T_ASSERT(s_response("HTTP/1.0 200 OK\r\n\r\n", "GET", &res, &copy));
    T_EQ_INT(res.body, WSP_HTTP_BODY_CLOSE);
    T_ASSERT(!res.keep_alive);
    free(copy);
    T_ASSERT(s_response("HTTP/1.1 100 Continue\r\n\r\n", "PUT", &res, &copy));
    T_EQ_INT(res.status, 100);
    T_EQ_INT(res.body, WSP_HTTP_BODY_NONE);
    free(copy);
    T_ASSERT(s_response("HTTP/1.1 204\r\n\r\n", "GET", &res, &copy));
    free(copy);
    T_ASSERT(!s_response("HTTP/1.1 2x0 OK\r\n\r\n", "GET", &res, &copy));
    free(copy);
    T_ASSERT(!s_response("ICY 200 OK\r\n\r\n", "GET", &res, &copy));
    free(copy);
}

//  An app's answer on a connection it closes, to a client whose connection
//  the proxy keeps: the head without Connection and Keep-Alive (folded
//  lines too), every other line as it came.
static void
test_response_kept(void)
{
    const char *head = "HTTP/1.1 200 OK\r\nDate: Thu\r\nConnection: close\r\n"
                       "keep-alive: timeout=5,\r\n max=3\r\nConnection-Id: 7\r\n"
                       "Content-Length: 3\r\n\r\n";
    char out[512];
    ssize_t n = wsp_http_response_kept(head, strlen(head), out, sizeof out);
    T_EQ_STR(out, "HTTP/1.1 200 OK\r\nDate: Thu\r\nConnection-Id: 7\r\n"
                  "Content-Length: 3\r\n\r\n");
    T_EQ_INT(n, (ssize_t) strlen(out));
    //  what it writes parses, and keeps the connection
    wsp_http_head_t res;
    char *copy = NULL;
    T_ASSERT(s_response(out, "GET", &res, &copy));
    T_ASSERT(res.keep_alive);
    T_EQ_INT(res.length, 3);
    free(copy);
    const char *plain = "HTTP/1.1 204 No Content\r\n\r\n";
    T_EQ_INT(wsp_http_response_kept(plain, strlen(plain), out, sizeof out),
             (ssize_t) strlen(plain));
    T_EQ_STR(out, plain);
    T_EQ_INT(wsp_http_response_kept(head, strlen(head), out, 20), -1);
}

static void
test_request_written_for_the_app(void)
{
    wsp_http_head_t req;
    char *copy = NULL;
    T_ASSERT(s_request("POST /x?y HTTP/1.1\r\nHost: proxy:10201\r\n"
                       "Cookie: a=1; wsp_permit_10201=secret; b=2\r\n"
                       "X-Forwarded-For: 10.1.1.1\r\nContent-Length: 3\r\n\r\n",
                       &req, &copy));
    char out[WSP_HTTP_HEAD_MAX];
    ssize_t n = wsp_http_request_write(&req, "10.0.0.5:8888", "192.168.0.9", false, false,
                                       out, sizeof out);
    T_ASSERT(n > 0);
    T_EQ_INT((size_t) n, strlen(out));
    T_ASSERT(strncmp(out, "POST /x?y HTTP/1.1\r\nHost: 10.0.0.5:8888\r\n", 41) == 0);
    T_CONTAINS(out, "Cookie: a=1; b=2\r\n");
    T_ASSERT(!strstr(out, "secret"));
    T_CONTAINS(out, "X-Forwarded-For: 10.1.1.1, 192.168.0.9\r\n");
    T_CONTAINS(out, "X-Forwarded-Host: proxy:10201\r\n");
    T_CONTAINS(out, "Content-Length: 3\r\n");
    T_CONTAINS(out, "X-Forwarded-Proto: http\r\n");
    T_ASSERT(strcmp(out + n - 4, "\r\n\r\n") == 0);
    //  a client that came over TLS
    n = wsp_http_request_write(&req, "10.0.0.5:8888", "192.168.0.9", true, false, out,
                               sizeof out);
    T_ASSERT(n > 0);
    T_CONTAINS(out, "X-Forwarded-Proto: https\r\n");
    //  an endpoint's token stays with the proxy; an app's Authorization passes
    free(copy);
    T_ASSERT(
        s_request("GET / HTTP/1.1\r\nAuthorization: BackendAI tok\r\nAccept: */*\r\n\r\n",
                  &req, &copy));
    n = wsp_http_request_write(&req, "h:1", "c", false, true, out, sizeof out);
    T_ASSERT(n > 0 && !strstr(out, "Authorization") && !strstr(out, "tok"));
    T_CONTAINS(out, "Accept: */*\r\n");
    n = wsp_http_request_write(&req, "h:1", "c", false, false, out, sizeof out);
    T_CONTAINS(out, "Authorization: BackendAI tok\r\n");
    //  only the permit cookie: no Cookie header at all
    free(copy);
    T_ASSERT(
        s_request("GET / HTTP/1.1\r\nCookie: wsp_permit_10201=s\r\n\r\n", &req, &copy));
    n = wsp_http_request_write(&req, "h:1", "c", false, false, out, sizeof out);
    T_ASSERT(n > 0 && !strstr(out, "Cookie"));
    //  too small a buffer
    T_EQ_INT(wsp_http_request_write(&req, "h:1", "c", false, false, out, 10), -1);
    free(copy);
}

static void
test_cookies(void)
{
    wsp_http_head_t req;
    char *copy = NULL;
    T_ASSERT(
        s_request("GET / HTTP/1.1\r\nCookie: a=1;b=two \r\nCookie: wsp_permit_1=abc\r\n"
                  "\r\n",
                  &req, &copy));
    char value[16];
    T_ASSERT(wsp_http_cookie(&req, "b", value, sizeof value));
    T_EQ_STR(value, "two");
    T_ASSERT(wsp_http_cookie(&req, "wsp_permit_1", value, sizeof value));
    T_EQ_STR(value, "abc");
    T_ASSERT(!wsp_http_cookie(&req, "wsp_permit_2", value, sizeof value));
    T_ASSERT(!wsp_http_cookie(&req, "a", value, 1)); //  too long for out
    T_ASSERT(wsp_http_has_token("keep-alive, Upgrade", "upgrade"));
    T_ASSERT(!wsp_http_has_token("upgraded", "upgrade"));
    free(copy);
}

static void
test_chunked(void)
{
    static const char body[] = "4;ext=1\r\nWiki\r\n6\r\npedia \r\nE\r\nin \r\n\r\nchunks."
                               "\r\n0\r\nTrailer: x\r\n\r\n";
    static const char next[] = "GET / HTTP/1.1\r\n\r\n";
    char all[256];
    snprintf(all, sizeof all, "%s%s", body, next);
    size_t body_len = strlen(body);
    //  whole, then one byte at a time: the end is found at the same place
    wsp_http_chunked_t chunk = {0};
    bool done = false;
    T_EQ_INT(wsp_http_chunked_scan(&chunk, all, strlen(all), &done), (ssize_t) body_len);
    T_ASSERT(done);
    memset(&chunk, 0, sizeof chunk);
    size_t used = 0;
    done = false;
    for (size_t i = 0; i < strlen(all) && !done; i++) {
        ssize_t n = wsp_http_chunked_scan(&chunk, all + i, 1, &done);
        T_ASSERT(n == 1);
        used += (size_t) n;
    }
    T_ASSERT(done);
    T_EQ_INT(used, body_len);
    //  chunk data passed unseen (spliced): the scan goes on after it
    memset(&chunk, 0, sizeof chunk);
    done = false;
    T_EQ_INT(wsp_http_chunked_data_left(&chunk), 0);
    T_EQ_INT(wsp_http_chunked_scan(&chunk, body, 10, &done), 10); //  "4;ext=1\r\nW"
    T_EQ_INT(wsp_http_chunked_data_left(&chunk), 3);
    wsp_http_chunked_skip(&chunk, 2);
    T_EQ_INT(wsp_http_chunked_data_left(&chunk), 1);
    wsp_http_chunked_skip(&chunk, 1);
    T_EQ_INT(wsp_http_chunked_data_left(&chunk), 0);
    T_EQ_INT(wsp_http_chunked_scan(&chunk, body + 13, 5, &done), 5); //  "\r\n6\r\n"
    T_EQ_INT(wsp_http_chunked_data_left(&chunk), 6);
    T_EQ_INT(wsp_http_chunked_scan(&chunk, all + 18, strlen(all) - 18, &done),
             (ssize_t) (body_len - 18));
    T_ASSERT(done);
    //  broken framing
    static const char *bad[] = {"x\r\n", "4\r\nWikiX", "4\nWiki", "10000000000000000\r\n",
                                "0\r\n\r\x01"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&chunk, 0, sizeof chunk);
        if (wsp_http_chunked_scan(&chunk, bad[i], strlen(bad[i]), &done) != -1)
            T_FAIL_("accepted chunked: %s", bad[i]);
    }
}

int
main(void)
{
    T_RUN(test_request_framing);
    T_RUN(test_request_refused);
    T_RUN(test_websocket_handshake);
    T_RUN(test_response_framing);
    T_RUN(test_response_kept);
    T_RUN(test_request_written_for_the_app);
    T_RUN(test_cookies);
    T_RUN(test_chunked);
    return T_DONE();
}
