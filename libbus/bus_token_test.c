/*  =========================================================================
    bus_token_test - signed upload and download tokens: round trips, tampering,
    expiry, the wrong operation and garbage

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "bus_token.h"
#include <openssl/evp.h>  //  EVP_sha256: forging tokens over hand-written claims
#include <openssl/hmac.h> //  HMAC
#include "t.h"

static const char s_secret[] = "0123456789abcdef-shared-secret";
#define SECRET  s_secret, strlen(s_secret)
#define NOW     1700000000
#define EXPIRES (NOW + 300)

static bus_token_claims_t
s_claims(bus_token_op_t op)
{
    bus_token_claims_t claims;
    memset(&claims, 0, sizeof claims);
    claims.op = op;
    snprintf(claims.volume, sizeof claims.volume, "volume1");
    snprintf(claims.folder, sizeof claims.folder, "0f1e2d3c4b5a69788796a5b4c3d2e1f0");
    snprintf(claims.path, sizeof claims.path, "data/train set/ünïcode.csv");
    claims.size = op == BUS_TOKEN_UPLOAD ? 1234567890123ULL : 0;
    claims.expires = EXPIRES;
    return claims;
}

static int
s_verify(const char *token, bus_token_op_t op, bus_token_claims_t *out, bus_error_t *err)
{
    return bus_token_verify(SECRET, token, strlen(token), NOW, op, out, err);
}

static void
test_round_trip(void)
{
    bus_token_claims_t claims = s_claims(BUS_TOKEN_UPLOAD);
    bus_error_t err = {0};
    char *token = bus_token_sign(SECRET, &claims, &err);
    T_ASSERT(token);
    T_ASSERT(strlen(claims.nonce) == 22); //  16 random bytes, filled in
    T_ASSERT(strlen(token) <= BUS_TOKEN_MAX_LEN);
    T_ASSERT(strspn(token, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                           "0123456789-_.") == strlen(token));
    bus_token_claims_t got;
    int rc = s_verify(token, BUS_TOKEN_UPLOAD, &got, &err);
    free(token);
    T_EQ_INT(rc, BUS_OK);
    T_EQ_INT(got.op, BUS_TOKEN_UPLOAD);
    T_EQ_STR(got.volume, claims.volume);
    T_EQ_STR(got.folder, claims.folder);
    T_EQ_STR(got.path, claims.path);
    T_EQ_STR(got.nonce, claims.nonce);
    T_ASSERT(got.size == 1234567890123ULL);
    T_EQ_INT(got.expires, EXPIRES);

    //  a download, an empty path (the folder root), a nonce given by the caller
    claims = s_claims(BUS_TOKEN_DOWNLOAD);
    claims.path[0] = '\0';
    snprintf(claims.nonce, sizeof claims.nonce, "given-nonce_1");
    token = bus_token_sign(SECRET, &claims, &err);
    T_ASSERT(token);
    rc = s_verify(token, BUS_TOKEN_DOWNLOAD, &got, &err);
    free(token);
    T_EQ_INT(rc, BUS_OK);
    T_EQ_STR(got.path, "");
    T_EQ_STR(got.nonce, "given-nonce_1");
    T_EQ_INT(got.size, 0);
}

static void
test_nonces_differ(void)
{
    bus_token_claims_t a = s_claims(BUS_TOKEN_UPLOAD), b = s_claims(BUS_TOKEN_UPLOAD);
    char *ta = bus_token_sign(SECRET, &a, NULL);
    char *tb = bus_token_sign(SECRET, &b, NULL);
    T_ASSERT(ta && tb);
    T_ASSERT(strcmp(a.nonce, b.nonce) != 0);
    T_ASSERT(strcmp(ta, tb) != 0);
    free(ta);
    free(tb);
}

static void
test_tampered(void)
{
    bus_token_claims_t claims = s_claims(BUS_TOKEN_UPLOAD), got;
    bus_error_t err = {0};
    char *token = bus_token_sign(SECRET, &claims, &err);
    T_ASSERT(token);
    size_t len = strlen(token);
    size_t dot = (size_t) (strchr(token, '.') - token);

    //  every byte of the claims part flipped to another alphabet letter
    int refused = 0;
    for (size_t i = 0; i < dot; i++) {
        char saved = token[i];
        token[i] = saved == 'A' ? 'B' : 'A';
        int rc = s_verify(token, BUS_TOKEN_UPLOAD, &got, &err);
        token[i] = saved;
        if (rc == BUS_STATUS_FORBIDDEN && strcmp(err.detail, "bad token signature") == 0)
            refused++;
    }
    T_EQ_INT(refused, (int) dot);
    T_EQ_STR(got.volume, ""); //  zeroed on failure

    //  a signature byte changed
    char saved = token[dot + 5];
    token[dot + 5] = saved == 'x' ? 'y' : 'x';
    T_EQ_INT(s_verify(token, BUS_TOKEN_UPLOAD, &got, &err), BUS_STATUS_FORBIDDEN);
    T_EQ_STR(err.detail, "bad token signature");
    token[dot + 5] = saved;

    //  the last signature character with stray low bits: same bytes, other text
    char last = token[len - 1];
    int v =
        strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", last) -
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    token[len - 1] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[v | 1];
    T_EQ_INT(s_verify(token, BUS_TOKEN_UPLOAD, &got, &err), BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "malformed token");
    token[len - 1] = last;

    //  claims of another token under this one's signature
    bus_token_claims_t other = s_claims(BUS_TOKEN_UPLOAD);
    snprintf(other.path, sizeof other.path, "../../etc/passwd");
    char *token2 = bus_token_sign(SECRET, &other, &err);
    T_ASSERT(token2);
    char *spliced = NULL;
    T_ASSERT(asprintf(&spliced, "%.*s%s", (int) (strchr(token2, '.') - token2), token2,
                      token + dot) > 0);
    T_EQ_INT(s_verify(spliced, BUS_TOKEN_UPLOAD, &got, &err), BUS_STATUS_FORBIDDEN);
    free(spliced);
    free(token2);

    //  another secret
    T_EQ_INT(bus_token_verify("another-secret-of-16+", 21, token, len, NOW,
                              BUS_TOKEN_UPLOAD, &got, &err),
             BUS_STATUS_FORBIDDEN);
    T_EQ_INT(s_verify(token, BUS_TOKEN_UPLOAD, &got, &err), BUS_OK);
    free(token);
}

static void
test_expired(void)
{
    bus_token_claims_t claims = s_claims(BUS_TOKEN_DOWNLOAD), got;
    bus_error_t err = {0};
    char *token = bus_token_sign(SECRET, &claims, &err);
    T_ASSERT(token);
    size_t len = strlen(token);
    T_EQ_INT(
        bus_token_verify(SECRET, token, len, EXPIRES - 1, BUS_TOKEN_DOWNLOAD, &got, &err),
        BUS_OK);
    int rc =
        bus_token_verify(SECRET, token, len, EXPIRES, BUS_TOKEN_DOWNLOAD, &got, &err);
    T_EQ_INT(rc, BUS_STATUS_FORBIDDEN);
    T_EQ_STR(err.detail, "token expired");
    rc = bus_token_verify(SECRET, token, len, EXPIRES + 86400, BUS_TOKEN_DOWNLOAD, &got,
                          &err);
    T_EQ_INT(rc, BUS_STATUS_FORBIDDEN);
    free(token);
}

static void
test_wrong_op(void)
{
    bus_token_claims_t claims = s_claims(BUS_TOKEN_DOWNLOAD), got;
    bus_error_t err = {0};
    char *token = bus_token_sign(SECRET, &claims, &err);
    T_ASSERT(token);
    int rc = s_verify(token, BUS_TOKEN_UPLOAD, &got, &err);
    free(token);
    T_EQ_INT(rc, BUS_STATUS_FORBIDDEN);
    T_EQ_STR(err.detail, "token is for download, not upload");
    T_EQ_INT(got.op, 0);
}

//  A token over hand-written claims, signed with the real secret, so only
//  the claims checks can refuse it.
static char *
s_forge(const char *json)
{
    char payload[BUS_TOKEN_MAX_LEN];
    //  base64url by hand, via a round through sign's output alphabet
    static const char b64[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    size_t len = strlen(json), o = 0, i = 0;
    const unsigned char *d = (const unsigned char *) json;
    for (; i + 3 <= len; i += 3) {
        uint32_t v = (uint32_t) d[i] << 16 | (uint32_t) d[i + 1] << 8 | d[i + 2];
        payload[o++] = b64[v >> 18 & 63];
        payload[o++] = b64[v >> 12 & 63];
        payload[o++] = b64[v >> 6 & 63];
        payload[o++] = b64[v & 63];
    }
    if (len - i >= 1) {
        uint32_t v =
            (uint32_t) d[i] << 16 | (len - i == 2 ? (uint32_t) d[i + 1] << 8 : 0);
        payload[o++] = b64[v >> 18 & 63];
        payload[o++] = b64[v >> 12 & 63];
        if (len - i == 2)
            payload[o++] = b64[v >> 6 & 63];
    }
    payload[o] = '\0';
    unsigned char mac[32];
    unsigned mac_len = 0;
    HMAC(EVP_sha256(), s_secret, (int) strlen(s_secret), (const unsigned char *) payload,
         o, mac, &mac_len);
    char *token = malloc(o + 1 + 44);
    memcpy(token, payload, o);
    token[o] = '.';
    o++;
    for (i = 0; i + 3 <= 32; i += 3) {
        uint32_t v = (uint32_t) mac[i] << 16 | (uint32_t) mac[i + 1] << 8 | mac[i + 2];
        token[o++] = b64[v >> 18 & 63];
        token[o++] = b64[v >> 12 & 63];
        token[o++] = b64[v >> 6 & 63];
        token[o++] = b64[v & 63];
    }
    uint32_t v = (uint32_t) mac[30] << 16 | (uint32_t) mac[31] << 8;
    token[o++] = b64[v >> 18 & 63];
    token[o++] = b64[v >> 12 & 63];
    token[o++] = b64[v >> 6 & 63];
    token[o] = '\0';
    return token;
}

static void
test_garbage(void)
{
    bus_token_claims_t got;
    bus_error_t err = {0};
    T_EQ_INT(bus_token_verify(SECRET, "", 0, NOW, BUS_TOKEN_UPLOAD, &got, &err),
             BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "empty");
    T_EQ_INT(bus_token_verify(SECRET, NULL, 0, NOW, BUS_TOKEN_UPLOAD, &got, &err),
             BUS_STATUS_INVALID);
    T_EQ_INT(s_verify("nodothere", BUS_TOKEN_UPLOAD, &got, &err), BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "no '.'");
    T_EQ_INT(s_verify(".", BUS_TOKEN_UPLOAD, &got, &err), BUS_STATUS_INVALID);
    T_EQ_INT(s_verify("abc.", BUS_TOKEN_UPLOAD, &got, &err), BUS_STATUS_INVALID);
    T_EQ_INT(s_verify("abc.def.ghi", BUS_TOKEN_UPLOAD, &got, &err), BUS_STATUS_INVALID);
    T_EQ_INT(s_verify("e30.!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!", BUS_TOKEN_UPLOAD,
                      &got, &err),
             BUS_STATUS_INVALID);

    //  huge
    size_t huge_len = 1 << 20;
    char *huge = malloc(huge_len + 1);
    memset(huge, 'A', huge_len);
    huge[huge_len / 2] = '.';
    huge[huge_len] = '\0';
    T_EQ_INT(s_verify(huge, BUS_TOKEN_UPLOAD, &got, &err), BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "over");
    free(huge);

    //  a NUL inside the length-delimited token
    bus_token_claims_t claims = s_claims(BUS_TOKEN_UPLOAD);
    char *token = bus_token_sign(SECRET, &claims, &err);
    T_ASSERT(token);
    size_t len = strlen(token);
    token[3] = '\0';
    T_EQ_INT(bus_token_verify(SECRET, token, len, NOW, BUS_TOKEN_UPLOAD, &got, &err),
             BUS_STATUS_INVALID);
    free(token);

    //  signed, but the claims part is not base64url / not JSON / incomplete
    struct {
        const char *json;
        const char *detail;
    } cases[] = {
        {"not json at all", "not a JSON object"},
        {"[1,2,3]", "not a JSON object"},
        {"{\"op\":\"upload\"", "not a JSON object"},
        {"{}", "'op'"},
        {"{\"op\":\"delete\",\"volume\":\"v\",\"folder\":\"f\",\"path\":\"p\","
         "\"size\":1,\"exp\":1800000000,\"nonce\":\"n\"}",
         "'op'"},
        {"{\"op\":\"upload\",\"folder\":\"f\",\"path\":\"p\",\"size\":1,"
         "\"exp\":1800000000,\"nonce\":\"n\"}",
         "'volume'"},
        {"{\"op\":\"upload\",\"volume\":\"v\",\"folder\":\"f\",\"path\":\"p\","
         "\"exp\":1800000000,\"nonce\":\"n\"}",
         "'size'"},
        {"{\"op\":\"upload\",\"volume\":\"v\",\"folder\":\"f\",\"path\":\"p\","
         "\"size\":-1,\"exp\":1800000000,\"nonce\":\"n\"}",
         "'size'"},
        {"{\"op\":\"upload\",\"volume\":\"v\",\"folder\":\"f\",\"path\":\"p\","
         "\"size\":\"12\",\"exp\":1800000000,\"nonce\":\"n\"}",
         "'size'"},
        {"{\"op\":\"upload\",\"volume\":\"v\",\"folder\":\"f\",\"path\":\"p\","
         "\"size\":1,\"nonce\":\"n\"}",
         "'exp'"},
        {"{\"op\":\"upload\",\"volume\":\"v\",\"folder\":\"f\",\"path\":\"p\","
         "\"size\":1,\"exp\":1800000000}",
         "'nonce'"},
        {"{\"op\":\"upload\",\"volume\":\"v\",\"folder\":\"f\",\"path\":\"p\","
         "\"size\":1,\"exp\":1800000000,\"nonce\":\"../x\"}",
         "'nonce'"},
        {"{\"op\":\"upload\",\"volume\":\"v\\u0001\",\"folder\":\"f\",\"path\":\"p\","
         "\"size\":1,\"exp\":1800000000,\"nonce\":\"n\"}",
         "'volume'"},
        {"{\"op\":\"upload\",\"volume\":\"v\",\"folder\":\"f\",\"path\":\"a\\u0000b\","
         "\"size\":1,\"exp\":1800000000,\"nonce\":\"n\"}",
         "not a JSON object"}, //  jansson refuses \u0000 outright
        {"{\"op\":\"upload\",\"volume\":\"v\",\"folder\":\"\",\"path\":\"p\","
         "\"size\":1,\"exp\":1800000000,\"nonce\":\"n\"}",
         "'folder'"},
        {"{\"op\":\"upload\",\"op\":\"upload\",\"volume\":\"v\",\"folder\":\"f\","
         "\"path\":\"p\",\"size\":1,\"exp\":1800000000,\"nonce\":\"n\"}",
         "not a JSON object"}, //  duplicate keys
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *forged = s_forge(cases[i].json);
        int rc = s_verify(forged, BUS_TOKEN_UPLOAD, &got, &err);
        free(forged);
        if (rc != BUS_STATUS_INVALID || !strstr(err.detail, cases[i].detail))
            fprintf(stderr, "# case %zu: rc %d detail %s\n", i, rc, err.detail);
        T_EQ_INT(rc, BUS_STATUS_INVALID);
        T_CONTAINS(err.detail, cases[i].detail);
    }
    //  the forger itself is right: a complete claims set passes
    char *forged = s_forge("{\"op\":\"upload\",\"volume\":\"v\",\"folder\":\"f\","
                           "\"path\":\"p\",\"size\":1,\"exp\":1800000000,\"nonce\":\"n\","
                           "\"extra\":true}");
    T_EQ_INT(s_verify(forged, BUS_TOKEN_UPLOAD, &got, &err), BUS_OK);
    free(forged);
}

static void
test_sign_refuses(void)
{
    bus_error_t err = {0};
    bus_token_claims_t claims = s_claims(BUS_TOKEN_UPLOAD);
    T_ASSERT(!bus_token_sign("short", 5, &claims, &err));
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    claims.volume[0] = '\0';
    T_ASSERT(!bus_token_sign(SECRET, &claims, &err));
    claims = s_claims(BUS_TOKEN_UPLOAD);
    snprintf(claims.path, sizeof claims.path, "bad\xff utf8");
    T_ASSERT(!bus_token_sign(SECRET, &claims, &err));
    T_CONTAINS(err.detail, "UTF-8");
    claims = s_claims(BUS_TOKEN_UPLOAD);
    snprintf(claims.nonce, sizeof claims.nonce, "a/b");
    T_ASSERT(!bus_token_sign(SECRET, &claims, &err));
    claims = s_claims(BUS_TOKEN_UPLOAD);
    claims.expires = -1;
    T_ASSERT(!bus_token_sign(SECRET, &claims, &err));
    //  a path of the longest length still makes a token
    claims = s_claims(BUS_TOKEN_UPLOAD);
    memset(claims.path, 'p', BUS_TOKEN_PATH_MAX);
    claims.path[BUS_TOKEN_PATH_MAX] = '\0';
    char *token = bus_token_sign(SECRET, &claims, &err);
    T_ASSERT(token);
    bus_token_claims_t got;
    T_EQ_INT(s_verify(token, BUS_TOKEN_UPLOAD, &got, &err), BUS_OK);
    T_EQ_INT(strlen(got.path), BUS_TOKEN_PATH_MAX);
    free(token);
    //  verify with a short secret is a server problem
    T_EQ_INT(bus_token_verify("short", 5, "a.b", 3, NOW, BUS_TOKEN_UPLOAD, &got, &err),
             BUS_STATUS_INTERNAL);
}

int
main(void)
{
    T_RUN(test_round_trip);
    T_RUN(test_nonces_differ);
    T_RUN(test_tampered);
    T_RUN(test_expired);
    T_RUN(test_wrong_op);
    T_RUN(test_garbage);
    T_RUN(test_sign_refuses);
    return T_DONE();
}
