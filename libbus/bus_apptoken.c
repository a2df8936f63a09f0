/*  =========================================================================
    bus_apptoken - short-lived tokens for opening an app through the wsproxy

    A companion of bus_token: the signature and its encoding are
    bus_token_seal/bus_token_open, this file only says which claims an app
    token has and checks each for type, length and characters after the
    signature passed.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "bus_apptoken.h"
#include "bus_token.h"
#include <openssl/rand.h> //  RAND_bytes: nonces

#define NONCE_BYTES 16
#define OP_APP      "app"
#define OP_ENDPOINT "endpoint"

static const char s_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static bool
s_clean(const char *s, size_t max, bool allow_empty)
{
    size_t len = strnlen(s, max + 1);
    if (len > max || (!allow_empty && len == 0))
        return false;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char) s[i] < 0x20 || s[i] == 0x7f)
            return false;
    return true;
}

static bool
s_nonce_ok(const char *nonce)
{
    size_t len = strnlen(nonce, BUS_APPTOKEN_NONCE_MAX + 1);
    if (len == 0 || len > BUS_APPTOKEN_NONCE_MAX)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!strchr(s_alphabet, nonce[i]) || nonce[i] == '\0')
            return false;
    return true;
}

//  Fills an empty nonce with a fresh random one, or checks the one given.
static int
s_nonce(char nonce[BUS_APPTOKEN_NONCE_MAX + 1], bus_error_t *err)
{
    if (nonce[0] != '\0')
        return s_nonce_ok(nonce)
                   ? BUS_OK
                   : bus_error_set(err, BUS_STATUS_INVALID, "bad token nonce");
    uint8_t random[NONCE_BYTES];
    if (RAND_bytes(random, sizeof random) != 1)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "no random bytes for a nonce");
    for (size_t i = 0; i < sizeof random; i++) {
        nonce[2 * i] = s_alphabet[random[i] >> 4];
        nonce[2 * i + 1] = s_alphabet[random[i] & 15];
    }
    nonce[2 * sizeof random] = '\0';
    return BUS_OK;
}

//  Seals root (taken) as a token; what names its kind when root is NULL
//  (json_pack refuses strings that are not UTF-8).
static char *
s_seal(const void *secret,
       size_t secret_len,
       json_t *root,
       const char *what,
       bus_error_t *err)
{
    if (!root) {
        bus_error_set(err, BUS_STATUS_INVALID, "%s token claims are not UTF-8", what);
        return NULL;
    }
    char *token = bus_token_seal(secret, secret_len, root, err);
    json_decref(root);
    return token;
}

//  Opens token as one of kind op: BUS_OK with *root (the caller's), or the
//  failure ("not an <what> token" for another kind).
static int
s_open(const void *secret,
       size_t secret_len,
       const char *token,
       size_t len,
       const char *op,
       const char *what,
       json_t **root,
       bus_error_t *err)
{
    int rc = bus_token_open(secret, secret_len, token, len, root, err);
    if (rc != BUS_OK)
        return rc;
    const char *kind = json_string_value(json_object_get(*root, "op"));
    if (!kind || strcmp(kind, op) != 0) {
        json_decref(*root);
        *root = NULL;
        return bus_error_set(err, BUS_STATUS_FORBIDDEN, "not an %s token", what);
    }
    return BUS_OK;
}

//  A verify's verdict: bad names a claim that did not parse; else the
//  expiry against now. claims (size bytes) is zeroed on a failure.
static int
s_verdict(const char *bad,
          int64_t expires,
          int64_t now,
          void *claims,
          size_t size,
          bus_error_t *err)
{
    int rc = BUS_OK;
    if (bad)
        rc = bus_error_set(err, BUS_STATUS_INVALID,
                           "malformed token: missing or bad claim '%s'", bad);
    else if (now >= expires)
        rc = bus_error_set(err, BUS_STATUS_FORBIDDEN, "token expired");
    if (rc != BUS_OK)
        memset(claims, 0, size);
    return rc;
}

//  Copies string claim key (at most max bytes, no control characters) into
//  out. False when missing, not a string, too long or (unless allowed)
//  empty.
static bool
s_take(json_t *root, const char *key, char *out, size_t max, bool allow_empty)
{
    json_t *value = json_object_get(root, key);
    if (!json_is_string(value))
        return false;
    const char *s = json_string_value(value);
    size_t len = json_string_length(value);
    if (len > max || memchr(s, '\0', len) || (!allow_empty && len == 0))
        return false;
    memcpy(out, s, len);
    out[len] = '\0';
    return s_clean(out, max, allow_empty);
}

//  ---------------------------------------------------------------------------

const char *
bus_apptoken_protocol_str(bus_apptoken_protocol_t protocol)
{
    switch (protocol) {
        case BUS_APPTOKEN_HTTP:
            return "http";
        case BUS_APPTOKEN_TCP:
            return "tcp";
    }
    return "unknown";
}

int
bus_apptoken_protocol_parse(const char *text, bus_apptoken_protocol_t *protocol)
{
    assert(protocol);
    if (text && (strcmp(text, "http") == 0 || strcmp(text, "preopen") == 0))
        *protocol = BUS_APPTOKEN_HTTP;
    else if (text && strcmp(text, "tcp") == 0)
        *protocol = BUS_APPTOKEN_TCP;
    else
        return -1;
    return 0;
}

bool
bus_apptoken_app_ok(const char *app)
{
    if (!app)
        return false;
    size_t len = strnlen(app, BUS_APPTOKEN_APP_MAX + 1);
    if (len == 0 || len > BUS_APPTOKEN_APP_MAX)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char) app[i]) && !strchr("_.-", app[i]))
            return false;
    return true;
}

//  ---------------------------------------------------------------------------

char *
bus_apptoken_sign(const void *secret,
                  size_t secret_len,
                  bus_apptoken_claims_t *claims,
                  bus_error_t *err)
{
    assert(claims);
    if (!s_clean(claims->session_id, BUS_APPTOKEN_ID_MAX, false) ||
        !s_clean(claims->kernel_id, BUS_APPTOKEN_ID_MAX, true) ||
        !bus_apptoken_app_ok(claims->app) ||
        !s_clean(claims->host, BUS_APPTOKEN_HOST_MAX, false) ||
        !s_clean(claims->access_key, BUS_APPTOKEN_ID_MAX, true) ||
        !s_clean(claims->user_uuid, BUS_APPTOKEN_ID_MAX, false) || claims->port == 0 ||
        claims->expires < 0 ||
        (claims->protocol != BUS_APPTOKEN_HTTP && claims->protocol != BUS_APPTOKEN_TCP)) {
        bus_error_set(err, BUS_STATUS_INVALID, "claims an app token cannot carry");
        return NULL;
    }
    if (s_nonce(claims->nonce, err) != BUS_OK)
        return NULL;
    json_t *root =
        json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:s, s:s, s:I, s:s}", "op", OP_APP,
                  "session_id", claims->session_id, "kernel_id", claims->kernel_id, "app",
                  claims->app, "protocol", bus_apptoken_protocol_str(claims->protocol),
                  "host", claims->host, "port", (int) claims->port, "access_key",
                  claims->access_key, "user_uuid", claims->user_uuid, "exp",
                  (json_int_t) claims->expires, "nonce", claims->nonce);
    return s_seal(secret, secret_len, root, "app", err);
}

//  ---------------------------------------------------------------------------

int
bus_apptoken_verify(const void *secret,
                    size_t secret_len,
                    const char *token,
                    size_t len,
                    int64_t now,
                    bus_apptoken_claims_t *claims,
                    bus_error_t *err)
{
    assert(claims);
    memset(claims, 0, sizeof *claims);
    json_t *root = NULL;
    int rc = s_open(secret, secret_len, token, len, OP_APP, "app", &root, err);
    if (rc != BUS_OK)
        return rc;
    json_t *port = json_object_get(root, "port");
    json_t *exp = json_object_get(root, "exp");
    const char *bad = NULL;
    if (!s_take(root, "session_id", claims->session_id, BUS_APPTOKEN_ID_MAX, false))
        bad = "session_id";
    else if (!s_take(root, "kernel_id", claims->kernel_id, BUS_APPTOKEN_ID_MAX, true))
        bad = "kernel_id";
    else if (!s_take(root, "app", claims->app, BUS_APPTOKEN_APP_MAX, false) ||
             !bus_apptoken_app_ok(claims->app))
        bad = "app";
    else if (bus_apptoken_protocol_parse(
                 json_string_value(json_object_get(root, "protocol")),
                 &claims->protocol) != 0)
        bad = "protocol";
    else if (!s_take(root, "host", claims->host, BUS_APPTOKEN_HOST_MAX, false))
        bad = "host";
    else if (!json_is_integer(port) || json_integer_value(port) < 1 ||
             json_integer_value(port) > 65535)
        bad = "port";
    else if (!s_take(root, "access_key", claims->access_key, BUS_APPTOKEN_ID_MAX, true))
        bad = "access_key";
    else if (!s_take(root, "user_uuid", claims->user_uuid, BUS_APPTOKEN_ID_MAX, false))
        bad = "user_uuid";
    else if (!json_is_integer(exp) || json_integer_value(exp) < 0)
        bad = "exp";
    else if (!s_take(root, "nonce", claims->nonce, BUS_APPTOKEN_NONCE_MAX, false) ||
             !s_nonce_ok(claims->nonce))
        bad = "nonce";
    if (!bad) {
        claims->port = (uint16_t) json_integer_value(port);
        claims->expires = (int64_t) json_integer_value(exp);
    }
    json_decref(root);
    return s_verdict(bad, claims->expires, now, claims, sizeof *claims, err);
}

//  ---------------------------------------------------------------------------
//  Endpoint tokens

char *
bus_apptoken_endpoint_sign(const void *secret,
                           size_t secret_len,
                           bus_apptoken_endpoint_t *claims,
                           bus_error_t *err)
{
    assert(claims);
    if (!s_clean(claims->endpoint_id, BUS_APPTOKEN_ID_MAX, false) ||
        !s_clean(claims->user_uuid, BUS_APPTOKEN_ID_MAX, false) || claims->expires < 0) {
        bus_error_set(err, BUS_STATUS_INVALID, "claims an endpoint token cannot carry");
        return NULL;
    }
    if (s_nonce(claims->nonce, err) != BUS_OK)
        return NULL;
    json_t *root =
        json_pack("{s:s, s:s, s:s, s:I, s:s}", "op", OP_ENDPOINT, "endpoint_id",
                  claims->endpoint_id, "user_uuid", claims->user_uuid, "exp",
                  (json_int_t) claims->expires, "nonce", claims->nonce);
    return s_seal(secret, secret_len, root, "endpoint", err);
}

int
bus_apptoken_endpoint_verify(const void *secret,
                             size_t secret_len,
                             const char *token,
                             size_t len,
                             int64_t now,
                             bus_apptoken_endpoint_t *claims,
                             bus_error_t *err)
{
    assert(claims);
    memset(claims, 0, sizeof *claims);
    json_t *root = NULL;
    int rc = s_open(secret, secret_len, token, len, OP_ENDPOINT, "endpoint", &root, err);
    if (rc != BUS_OK)
        return rc;
    json_t *exp = json_object_get(root, "exp");
    const char *bad = NULL;
    if (!s_take(root, "endpoint_id", claims->endpoint_id, BUS_APPTOKEN_ID_MAX, false))
        bad = "endpoint_id";
    else if (!s_take(root, "user_uuid", claims->user_uuid, BUS_APPTOKEN_ID_MAX, false))
        bad = "user_uuid";
    else if (!json_is_integer(exp) || json_integer_value(exp) < 0)
        bad = "exp";
    else if (!s_take(root, "nonce", claims->nonce, BUS_APPTOKEN_NONCE_MAX, false) ||
             !s_nonce_ok(claims->nonce))
        bad = "nonce";
    else
        claims->expires = (int64_t) json_integer_value(exp);
    json_decref(root);
    return s_verdict(bad, claims->expires, now, claims, sizeof *claims, err);
}
