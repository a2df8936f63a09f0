/*  =========================================================================
    fuzz_web_guard - libFuzzer target for the web listener's path and
    origin checks (gw_web_guard)

    Both read what a browser, or anyone, sends: the request path and the
    Origin, Host and Sec-Fetch-Site headers. The input, cut at its first
    NUL, is the raw path, then split at its first newline into an origin
    and a host. Promises: a path that passes is relative, has no empty,
    "." or ".." segment, no control byte and no backslash, fits its
    buffer, and normalises to itself again when it holds no '%'; a
    normalised origin is lower case, "http://" or "https://" then a host
    of the allowed bytes and an optional port, and normalises to itself;
    the origin check is true for the host's own origin and agrees with
    comparing the normalised forms. Any broken promise aborts.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "../../services/gateway/gw_web_guard.h"

#define FUZZ_WEB_MAX_INPUT 4096

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

static void
s_check_path(const char *raw)
{
    char out[GW_WEB_PATH_MAX];
    if (gw_web_guard_path(raw, out, sizeof out) != 0)
        return;
    size_t len = strlen(out);
    s_check(len < sizeof out);
    s_check(len == 0 || (out[0] != '/' && out[len - 1] != '/'));
    s_check(!strstr(out, "//") && !strchr(out, '\\'));
    for (size_t i = 0; i < len; i++)
        s_check((unsigned char) out[i] >= 0x20 && out[i] != 0x7f);
    //  every segment: not empty, not "." or ".."
    for (const char *seg = out; len && *seg;) {
        size_t seg_len = strcspn(seg, "/");
        s_check(seg_len > 0);
        s_check(!(seg_len == 1 && seg[0] == '.'));
        s_check(!(seg_len == 2 && seg[0] == '.' && seg[1] == '.'));
        seg += seg_len;
        if (*seg == '/')
            seg++;
    }
    if (!strchr(out, '%')) {
        char again[GW_WEB_PATH_MAX + 1], twice[GW_WEB_PATH_MAX];
        snprintf(again, sizeof again, "/%s", out);
        s_check(gw_web_guard_path(again, twice, sizeof twice) == 0);
        s_check(strcmp(out, twice) == 0);
    }
}

static void
s_check_origin(const char *origin, const char *host)
{
    char out[GW_WEB_ORIGIN_MAX];
    if (gw_web_guard_origin_normalize(origin, out, sizeof out) == 0) {
        s_check(strncmp(out, "http://", 7) == 0 || strncmp(out, "https://", 8) == 0);
        for (const char *c = out; *c; c++)
            s_check(!isupper((unsigned char) *c) &&
                    (isalnum((unsigned char) *c) || strchr(":/.-[]", *c)));
        char twice[GW_WEB_ORIGIN_MAX];
        s_check(gw_web_guard_origin_normalize(out, twice, sizeof twice) == 0);
        s_check(strcmp(out, twice) == 0);
    }
    //  The check against the host's own origin agrees with the normal forms.
    char own[GW_WEB_ORIGIN_MAX + 16], own_norm[GW_WEB_ORIGIN_MAX],
        theirs[GW_WEB_ORIGIN_MAX];
    snprintf(own, sizeof own, "http://%s", host);
    bool own_ok = strlen(host) <= 260 && !strchr(host, '/') &&
                  gw_web_guard_origin_normalize(own, own_norm, sizeof own_norm) == 0;
    bool theirs_ok = gw_web_guard_origin_normalize(origin, theirs, sizeof theirs) == 0;
    bool allowed = gw_web_guard_origin(origin, NULL, host, false, "");
    s_check(allowed == (own_ok && theirs_ok && strcmp(own_norm, theirs) == 0));
    if (own_ok)
        s_check(gw_web_guard_origin(own, NULL, host, false, ""));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_WEB_MAX_INPUT)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    s_check_path(text);
    char *newline = strchr(text, '\n');
    const char *host = "";
    if (newline) {
        *newline = 0;
        host = newline + 1;
    }
    s_check_origin(text, host);
    free(text);
    return 0;
}
