/*  =========================================================================
    gw_web_guard - what a browser's request may be: a path beneath the UI's
    root, an origin that is the listener's own

    Pure functions over outside input (the request line and headers), so
    they are unit-tested and fuzzed (test/fuzz/fuzz_web_guard.c) apart
    from any socket:

      - gw_web_guard_path turns a URL path as it came off the wire into a
        relative path for bus_beneath_open: percent-decoded, "." and empty
        segments dropped, and refused when a segment is "..", or holds a
        NUL, a control character, a backslash or an encoded slash;
      - gw_web_guard_origin_normalize reads an origin ("scheme://host[:port]")
        into one spelling: lower case, the default port dropped;
      - gw_web_guard_origin decides whether a request that changes state
        (or opens a WebSocket) comes from the listener's own pages: its
        Origin must be ours; without one, Sec-Fetch-Site must say
        same-origin; a client that sends neither is no browser (the official
        client in session mode) and passes, since a browser always sends one
        of them on such a request.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_WEB_GUARD_H_INCLUDED
#define GW_WEB_GUARD_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>

#define GW_WEB_PATH_MAX   1024 //  a decoded path, NUL included
#define GW_WEB_ORIGIN_MAX 300  //  "scheme://host:port", NUL included

//  Decodes raw (a URL path, "/" first; its query already cut off) into
//  out, relative ("" for the root, "a/b.js"), with "." and empty segments
//  dropped. 0, or -1 when raw is refused: no leading "/", a ".." segment,
//  a bad or encoded NUL, slash or control character, a backslash, or a
//  result that does not fit size.
int gw_web_guard_path(const char *raw, char *out, size_t size);

//  Writes origin ("http" or "https", "://", a host of letters, digits, dots
//  and dashes or a bracketed IPv6 address, an optional port 1..65535, an
//  optional single trailing "/") as "scheme://host[:port]" in lower case,
//  without the scheme's default port, into out. 0, or -1 when it is not
//  that shape or does not fit.
int gw_web_guard_origin_normalize(const char *origin, char *out, size_t size);

//  Whether a state-changing request may go on. origin and fetch_site are
//  the Origin and Sec-Fetch-Site headers (NULL when absent); own is the
//  listener's origin: public_url when set, else the listener's scheme
//  (tls) with the request's Host header.
bool gw_web_guard_origin(const char *origin,
                         const char *fetch_site,
                         const char *host,
                         bool tls,
                         const char *public_url);

#endif
