/*  =========================================================================
    fuzz_auth - libFuzzer target for the gateway's request-signature headers

    Every request that is not anonymous reaches the gateway with an
    Authorization, a Date, an X-BackendAI-Version and a Content-Type header
    that anyone can write. The input, cut at its first NUL byte as a header
    value would be, goes to each parser (gw_auth_parse_authorization,
    gw_auth_parse_date, gw_auth_parse_version, gw_auth_content_type). The
    promises checked, beyond not crashing: each answers the same twice; an
    Authorization that parses has a known type, a sign method "HMAC-<hash>"
    whose hash is supported and in lower case, a 1-64 character [A-Za-z0-9]
    access key and a lower-case hex signature of that hash's digest length,
    and one that does not says why; a Date that parses has an 8-digit date
    key; a version that parses is "v<major>.<YYYYMMDD>"; a content type is
    NUL-terminated within its buffer and lower case. Any broken promise
    aborts, so the fuzzer reports it like a crash.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "../../services/gateway/gw_auth.h"

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

static bool
s_all(const char *text, const char *allowed)
{
    return text[strspn(text, allowed)] == '\0';
}

static size_t
s_digest_hex_len(const char *hash_name)
{
    static const struct {
        const char *name;
        size_t hex;
    } digests[] = {
        {"sha1", 40}, {"sha224", 56}, {"sha256", 64}, {"sha384", 96}, {"sha512", 128}};
    for (size_t i = 0; i < sizeof digests / sizeof digests[0]; i++)
        if (strcmp(digests[i].name, hash_name) == 0)
            return digests[i].hex;
    return 0;
}

static void
s_authorization(const char *text)
{
    gw_auth_credential_t out, again;
    char detail[GW_AUTH_DETAIL_MAX] = "", detail_again[GW_AUTH_DETAIL_MAX] = "";
    memset(&out, 0xa5, sizeof out); //  whatever the parser leaves must be sane
    memset(&again, 0x5a, sizeof again);
    int rc = gw_auth_parse_authorization(text, &out, detail, sizeof detail);
    int rc_again = gw_auth_parse_authorization(text, &again, detail_again, sizeof detail);
    s_check(rc == rc_again);
    s_check(strcmp(detail, detail_again) == 0);
    if (rc != 0) {
        s_check(rc == -1 && detail[0] != '\0');
        s_check(memchr(detail, '\0', sizeof detail) != NULL);
        return;
    }
    s_check(memcmp(&out, &again, sizeof out) == 0 ||
            (strcmp(out.auth_type, again.auth_type) == 0 &&
             strcmp(out.sign_method, again.sign_method) == 0 &&
             strcmp(out.hash_name, again.hash_name) == 0 &&
             strcmp(out.access_key, again.access_key) == 0 &&
             strcmp(out.signature, again.signature) == 0));
    s_check(strcmp(out.auth_type, "BackendAI") == 0 ||
            strcmp(out.auth_type, "Sorna") == 0);
    s_check(strncasecmp(out.sign_method, "HMAC-", 5) == 0);
    size_t hex = s_digest_hex_len(out.hash_name);
    s_check(hex > 0);
    size_t key_len = strlen(out.access_key);
    s_check(key_len >= 1 && key_len <= GW_AUTH_ACCESS_KEY_MAX);
    s_check(s_all(out.access_key,
                  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"));
    s_check(strlen(out.signature) == hex && s_all(out.signature, "0123456789abcdef"));
}

static void
s_date(const char *text)
{
    int64_t at = 0, again = 0;
    char key[GW_AUTH_DATE_KEY_SIZE], key_again[GW_AUTH_DATE_KEY_SIZE];
    memset(key, 'x', sizeof key);
    int rc = gw_auth_parse_date(text, &at, key);
    int rc_again = gw_auth_parse_date(text, &again, key_again);
    s_check(rc == rc_again);
    if (rc != 0) {
        s_check(rc == -1);
        return;
    }
    s_check(at == again && memcmp(key, key_again, sizeof key) == 0);
    s_check(strlen(key) == 8 && s_all(key, "0123456789"));
    s_check(gw_auth_parse_date(text, &again, NULL) == 0 && again == at);
}

static void
s_version(const char *text)
{
    int major = -1, date = -1;
    int rc = gw_auth_parse_version(text, &major, &date);
    bool supported = gw_auth_version_supported(text);
    if (rc != 0) {
        s_check(rc == -1 && !supported);
        return;
    }
    //  ^v\d+\.\d{8}$
    s_check(text[0] == 'v' && major >= 0 && date >= 0 && date <= 99999999);
    const char *dot = strchr(text, '.');
    s_check(dot && strlen(dot + 1) == 8 && s_all(dot + 1, "0123456789"));
}

static void
s_content_type(const char *text)
{
    char out[GW_AUTH_CONTENT_TYPE_SIZE], again[GW_AUTH_CONTENT_TYPE_SIZE];
    memset(out, 'x', sizeof out);
    int rc = gw_auth_content_type(text, out, sizeof out);
    int rc_again = gw_auth_content_type(text, again, sizeof again);
    s_check(rc == rc_again);
    if (rc != 0)
        return;
    s_check(memchr(out, '\0', sizeof out) != NULL && strcmp(out, again) == 0);
    for (const char *p = out; *p; p++)
        s_check(!(*p >= 'A' && *p <= 'Z'));
    s_check(strchr(out, '/') != NULL);
    //  too small a buffer is refused, never overrun
    char tiny[4];
    rc = gw_auth_content_type(text, tiny, sizeof tiny);
    s_check(rc == -1 || memchr(tiny, '\0', sizeof tiny) != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 2 * GW_AUTH_HEADER_MAX)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    s_authorization(text);
    s_date(text);
    s_version(text);
    s_content_type(text);
    free(text);
    return 0;
}
