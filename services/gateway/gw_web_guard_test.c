/*  =========================================================================
    gw_web_guard_test - browser paths and origins

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

//  The normalised path, or "REFUSED".
static const char *
s_path(const char *raw)
{
    static char out[GW_WEB_PATH_MAX];
    return gw_web_guard_path(raw, out, sizeof out) == 0 ? out : "REFUSED";
}

static const char *
s_origin(const char *origin)
{
    static char out[GW_WEB_ORIGIN_MAX];
    return gw_web_guard_origin_normalize(origin, out, sizeof out) == 0 ? out : "REFUSED";
}

static void
test_paths(void)
{
    T_EQ_STR(s_path("/"), "");
    T_EQ_STR(s_path("/index.html"), "index.html");
    T_EQ_STR(s_path("//a///b/./c/"), "a/b/c");
    T_EQ_STR(s_path("/a%20b/%41.js"), "a b/A.js");
    T_EQ_STR(s_path("/.well-known/x"), ".well-known/x");
    T_EQ_STR(s_path("/..."), "...");
    T_EQ_STR(s_path("/a..b"), "a..b");
    T_EQ_STR(s_path("/%2e/x"), "x");
    //  Refused: out of the root, hidden boundaries, control bytes.
    T_EQ_STR(s_path("/.."), "REFUSED");
    T_EQ_STR(s_path("/a/../b"), "REFUSED");
    T_EQ_STR(s_path("/%2e%2e/x"), "REFUSED");
    T_EQ_STR(s_path("/%2E%2E"), "REFUSED");
    T_EQ_STR(s_path("/a%2fb"), "REFUSED");
    T_EQ_STR(s_path("/a%00b"), "REFUSED");
    T_EQ_STR(s_path("/a%0ab"), "REFUSED");
    T_EQ_STR(s_path("/a\\b"), "REFUSED");
    T_EQ_STR(s_path("/a%5cb"), "REFUSED");
    T_EQ_STR(s_path("/a%zz"), "REFUSED");
    T_EQ_STR(s_path("/a%4"), "REFUSED");
    T_EQ_STR(s_path("a"), "REFUSED");
    T_EQ_STR(s_path(""), "REFUSED");
    char small[4];
    T_EQ_INT(gw_web_guard_path("/abcd", small, sizeof small), -1);
    T_EQ_INT(gw_web_guard_path("/abc", small, sizeof small), 0);
    T_EQ_STR(small, "abc");
}

static void
test_origins(void)
{
    T_EQ_STR(s_origin("http://127.0.0.1:8090"), "http://127.0.0.1:8090");
    T_EQ_STR(s_origin("HTTP://Example.COM:80"), "http://example.com");
    T_EQ_STR(s_origin("https://example.com:443/"), "https://example.com");
    T_EQ_STR(s_origin("https://example.com:8443"), "https://example.com:8443");
    T_EQ_STR(s_origin("http://[::1]:8090"), "http://[::1]:8090");
    T_EQ_STR(s_origin("null"), "REFUSED");
    T_EQ_STR(s_origin("file://"), "REFUSED");
    T_EQ_STR(s_origin("http://"), "REFUSED");
    T_EQ_STR(s_origin("http://a\"b"), "REFUSED");
    T_EQ_STR(s_origin("http://a b"), "REFUSED");
    T_EQ_STR(s_origin("http://a:0"), "REFUSED");
    T_EQ_STR(s_origin("http://a:65536"), "REFUSED");
    T_EQ_STR(s_origin("http://a:80x"), "REFUSED");
    T_EQ_STR(s_origin("http://a/path"), "REFUSED");
    T_EQ_STR(s_origin("http://user@a"), "REFUSED");
    T_EQ_STR(s_origin("http://[::1"), "REFUSED");
}

static void
test_origin_check(void)
{
    //  The listener's own origin, from Host.
    T_ASSERT(
        gw_web_guard_origin("http://127.0.0.1:8090", NULL, "127.0.0.1:8090", false, ""));
    T_ASSERT(gw_web_guard_origin("http://Localhost", NULL, "localhost:80", false, NULL));
    T_ASSERT(
        !gw_web_guard_origin("http://127.0.0.1:8091", NULL, "127.0.0.1:8090", false, ""));
    T_ASSERT(!gw_web_guard_origin("https://127.0.0.1:8090", NULL, "127.0.0.1:8090", false,
                                  ""));
    T_ASSERT(
        !gw_web_guard_origin("http://evil.example", NULL, "127.0.0.1:8090", false, ""));
    T_ASSERT(!gw_web_guard_origin("null", NULL, "127.0.0.1:8090", false, ""));
    T_ASSERT(!gw_web_guard_origin("http://a", NULL, NULL, false, ""));
    T_ASSERT(!gw_web_guard_origin("http://a", NULL, "a/b", false, ""));
    T_ASSERT(!gw_web_guard_origin("http://a\"b", NULL, "a\"b", false, ""));
    //  Behind a proxy: web.public_url, whatever Host says.
    T_ASSERT(gw_web_guard_origin("https://ui.example.com", NULL, "127.0.0.1:8090", false,
                                 "https://ui.example.com/"));
    T_ASSERT(!gw_web_guard_origin("http://127.0.0.1:8090", NULL, "127.0.0.1:8090", false,
                                  "https://ui.example.com"));
    //  No Origin: Sec-Fetch-Site decides; neither: not a browser.
    T_ASSERT(gw_web_guard_origin(NULL, "same-origin", "h", false, ""));
    T_ASSERT(gw_web_guard_origin(NULL, "none", "h", false, ""));
    T_ASSERT(!gw_web_guard_origin(NULL, "same-site", "h", false, ""));
    T_ASSERT(!gw_web_guard_origin(NULL, "cross-site", "h", false, ""));
    T_ASSERT(gw_web_guard_origin(NULL, NULL, "h", false, ""));
}

int
main(void)
{
    T_RUN(test_paths);
    T_RUN(test_origins);
    T_RUN(test_origin_check);
    return T_DONE();
}
