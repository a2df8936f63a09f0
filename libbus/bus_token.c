/*  =========================================================================
    bus_token - short-lived tokens the gateway signs and the storage-proxy checks

    The signed part is the base64url text of the claims, not the JSON, so
    verification never depends on how JSON was written: the storage-proxy
    splits at the dot, decodes the signature strictly (no padding, no stray
    bits, so one signature has one spelling), recomputes HMAC-SHA256 over
    the first part and compares with CRYPTO_memcmp. Only a token that passes
    is decoded and parsed; jansson then rejects duplicate keys, and every
    claim is checked for type and length. Expiry and operation come last.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "bus_token.h"
#include <openssl/crypto.h> //  CRYPTO_memcmp: constant-time signature compare
#include <openssl/evp.h>    //  EVP_sha256
#include <openssl/hmac.h>   //  HMAC
#include <openssl/rand.h>   //  RAND_bytes: nonces
#include <fcntl.h>          //  open: the secret file
#include <sys/stat.h>       //  fstat: the secret file's mode

#define MAC_LEN            32 //  SHA-256
#define B64_ENCODED_LEN(n) (((n) *4 + 2) / 3)

static const char s_b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

//  ---------------------------------------------------------------------------
//  base64url without padding

//  Writes B64_ENCODED_LEN(len) characters and a NUL to out.
static void
s_b64_encode(const uint8_t *data, size_t len, char *out)
{
    size_t o = 0, i = 0;
    for (; i + 3 <= len; i += 3) {
        uint32_t v = (uint32_t) data[i] << 16 | (uint32_t) data[i + 1] << 8 | data[i + 2];
        out[o++] = s_b64[v >> 18 & 63];
        out[o++] = s_b64[v >> 12 & 63];
        out[o++] = s_b64[v >> 6 & 63];
        out[o++] = s_b64[v & 63];
    }
    if (len - i == 1) {
        uint32_t v = (uint32_t) data[i] << 16;
        out[o++] = s_b64[v >> 18 & 63];
        out[o++] = s_b64[v >> 12 & 63];
    } else if (len - i == 2) {
        uint32_t v = (uint32_t) data[i] << 16 | (uint32_t) data[i + 1] << 8;
        out[o++] = s_b64[v >> 18 & 63];
        out[o++] = s_b64[v >> 12 & 63];
        out[o++] = s_b64[v >> 6 & 63];
    }
    out[o] = '\0';
}

static int
s_b64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '-')
        return 62;
    if (c == '_')
        return 63;
    return -1;
}

//  Decodes len characters into out (room for len * 3 / 4 bytes). Strict:
//  only the alphabet, no padding, no length that leaves one character over,
//  zero bits where the last character holds less than six. Returns the
//  byte count, or -1.
static ptrdiff_t
s_b64_decode(const char *text, size_t len, uint8_t *out)
{
    if (len % 4 == 1)
        return -1;
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        int v = s_b64_value(text[i]);
        if (v < 0)
            return -1;
        acc = (acc << 6 | (uint32_t) v) & 0xffffff;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t) (acc >> bits);
        }
    }
    if (bits > 0 && (acc & ((1u << bits) - 1)) != 0)
        return -1;
    return (ptrdiff_t) o;
}

//  ---------------------------------------------------------------------------
//  Claims

static bool
s_nonce_ok(const char *nonce, size_t len)
{
    if (len == 0 || len > BUS_TOKEN_NONCE_MAX)
        return false;
    for (size_t i = 0; i < len; i++)
        if (s_b64_value(nonce[i]) < 0)
            return false;
    return true;
}

static bool
s_has_control(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if ((unsigned char) s[i] < 0x20 || s[i] == 0x7f)
            return true;
    return false;
}

//  Copies a string claim of at most max bytes into out; false when it is
//  missing, not a string, empty (unless allowed), too long, holds a NUL or
//  (for names) a control character.
static bool
s_take_string(json_t *root,
              const char *key,
              char *out,
              size_t max,
              bool allow_empty,
              bool name,
              const char **why)
{
    json_t *value = json_object_get(root, key);
    if (!json_is_string(value)) {
        *why = key;
        return false;
    }
    const char *s = json_string_value(value);
    size_t len = json_string_length(value);
    if ((!allow_empty && len == 0) || len > max || memchr(s, '\0', len) ||
        (name && s_has_control(s, len))) {
        *why = key;
        return false;
    }
    memcpy(out, s, len);
    out[len] = '\0';
    return true;
}

static bool
s_take_int(json_t *root, const char *key, int64_t *out, const char **why)
{
    json_t *value = json_object_get(root, key);
    if (!json_is_integer(value) || json_integer_value(value) < 0) {
        *why = key;
        return false;
    }
    *out = (int64_t) json_integer_value(value);
    return true;
}

//  Fills claims from the JSON text. 0, or -1 with err.
static int
s_parse_claims(const uint8_t *json,
               size_t len,
               bus_token_claims_t *claims,
               bus_error_t *err)
{
    json_error_t jerr;
    json_t *root = json_loadb((const char *) json, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!json_is_object(root)) {
        json_decref(root);
        bus_error_set(err, BUS_STATUS_INVALID,
                      "malformed token: claims are not a JSON object");
        return -1;
    }
    const char *why = NULL;
    bool ok = false;
    const char *op = json_string_value(json_object_get(root, "op"));
    int64_t size = 0;
    if (op && strcmp(op, "upload") == 0)
        claims->op = BUS_TOKEN_UPLOAD;
    else if (op && strcmp(op, "download") == 0)
        claims->op = BUS_TOKEN_DOWNLOAD;
    else {
        why = "op";
        goto done;
    }
    if (!s_take_string(root, "volume", claims->volume, BUS_TOKEN_NAME_MAX, false, true,
                       &why) ||
        !s_take_string(root, "folder", claims->folder, BUS_TOKEN_NAME_MAX, false, true,
                       &why) ||
        !s_take_string(root, "path", claims->path, BUS_TOKEN_PATH_MAX, true, false,
                       &why) ||
        !s_take_string(root, "nonce", claims->nonce, BUS_TOKEN_NONCE_MAX, false, true,
                       &why) ||
        !s_take_int(root, "size", &size, &why) ||
        !s_take_int(root, "exp", &claims->expires, &why))
        goto done;
    if (!s_nonce_ok(claims->nonce, strlen(claims->nonce))) {
        why = "nonce";
        goto done;
    }
    claims->size = (uint64_t) size;
    ok = true;
done:
    json_decref(root);
    if (!ok)
        bus_error_set(err, BUS_STATUS_INVALID,
                      "malformed token: missing or bad claim '%s'", why);
    return ok ? 0 : -1;
}

//  ---------------------------------------------------------------------------

const char *
bus_token_op_str(bus_token_op_t op)
{
    switch (op) {
        case BUS_TOKEN_UPLOAD:
            return "upload";
        case BUS_TOKEN_DOWNLOAD:
            return "download";
    }
    return "unknown";
}

//  ---------------------------------------------------------------------------
//  The tail every kind of token shares: json (claims already written, taken
//  and freed here) as base64url, a '.', and the base64url HMAC-SHA256 of the
//  first part under secret. The token (caller frees), or NULL with err set:
//  INVALID when it would pass BUS_TOKEN_MAX_LEN, INTERNAL when memory or the
//  HMAC fails.
static char *
s_seal(const void *secret, size_t secret_len, char *json, bus_error_t *err)
{
    size_t json_len = strlen(json);
    size_t payload_len = B64_ENCODED_LEN(json_len);
    size_t total = payload_len + 1 + B64_ENCODED_LEN(MAC_LEN);
    if (total > BUS_TOKEN_MAX_LEN) {
        free(json);
        bus_error_set(err, BUS_STATUS_INVALID, "token claims too long");
        return NULL;
    }
    char *token = malloc(total + 1);
    if (!token) {
        free(json);
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory signing a token");
        return NULL;
    }
    s_b64_encode((const uint8_t *) json, json_len, token);
    free(json);
    uint8_t mac[EVP_MAX_MD_SIZE];
    unsigned mac_len = 0;
    if (!HMAC(EVP_sha256(), secret, (int) secret_len, (const uint8_t *) token,
              payload_len, mac, &mac_len) ||
        mac_len != MAC_LEN) {
        free(token);
        bus_error_set(err, BUS_STATUS_INTERNAL, "HMAC-SHA256 failed");
        return NULL;
    }
    token[payload_len] = '.';
    s_b64_encode(mac, MAC_LEN, token + payload_len + 1);
    return token;
}

//  ---------------------------------------------------------------------------

char *
bus_token_sign(const void *secret,
               size_t secret_len,
               bus_token_claims_t *claims,
               bus_error_t *err)
{
    assert(claims);
    if (!secret || secret_len < BUS_TOKEN_SECRET_MIN || secret_len > INT_MAX) {
        bus_error_set(err, BUS_STATUS_INVALID, "token secret shorter than %d bytes",
                      BUS_TOKEN_SECRET_MIN);
        return NULL;
    }
    size_t volume_len = strnlen(claims->volume, sizeof claims->volume);
    size_t folder_len = strnlen(claims->folder, sizeof claims->folder);
    size_t path_len = strnlen(claims->path, sizeof claims->path);
    size_t nonce_len = strnlen(claims->nonce, sizeof claims->nonce);
    if (volume_len == 0 || volume_len > BUS_TOKEN_NAME_MAX ||
        s_has_control(claims->volume, volume_len) || folder_len == 0 ||
        folder_len > BUS_TOKEN_NAME_MAX || s_has_control(claims->folder, folder_len) ||
        path_len > BUS_TOKEN_PATH_MAX || nonce_len > BUS_TOKEN_NONCE_MAX ||
        claims->size > INT64_MAX || claims->expires < 0 ||
        (claims->op != BUS_TOKEN_UPLOAD && claims->op != BUS_TOKEN_DOWNLOAD)) {
        bus_error_set(err, BUS_STATUS_INVALID, "claims a token cannot carry");
        return NULL;
    }
    if (nonce_len == 0) {
        uint8_t random[BUS_TOKEN_NONCE_BYTES];
        if (RAND_bytes(random, sizeof random) != 1) {
            bus_error_set(err, BUS_STATUS_INTERNAL, "no random bytes for a nonce");
            return NULL;
        }
        s_b64_encode(random, sizeof random, claims->nonce);
    } else if (!s_nonce_ok(claims->nonce, nonce_len)) {
        bus_error_set(err, BUS_STATUS_INVALID, "bad token nonce");
        return NULL;
    }
    json_t *root =
        json_pack("{s:s, s:s, s:s, s:s, s:I, s:I, s:s}", "op",
                  bus_token_op_str(claims->op), "volume", claims->volume, "folder",
                  claims->folder, "path", claims->path, "size", (json_int_t) claims->size,
                  "exp", (json_int_t) claims->expires, "nonce", claims->nonce);
    char *json = root ? json_dumps(root, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(root);
    if (!json) {
        //  json_pack refuses strings that are not UTF-8
        bus_error_set(err, BUS_STATUS_INVALID, "token claims are not UTF-8");
        return NULL;
    }
    return s_seal(secret, secret_len, json, err);
}

//  ---------------------------------------------------------------------------

//  Checks token's form and signature under secret and decodes its claims
//  part into json (BUS_TOKEN_MAX_LEN bytes) without parsing it: what every
//  kind of token shares. BUS_OK, or INVALID (malformed), FORBIDDEN (a bad
//  signature), INTERNAL (no usable secret) with err set.
static int
s_unseal(const void *secret,
         size_t secret_len,
         const char *token,
         size_t len,
         uint8_t *json,
         size_t *json_len,
         bus_error_t *err)
{
    if (!secret || secret_len < BUS_TOKEN_SECRET_MIN || secret_len > INT_MAX)
        return bus_error_set(err, BUS_STATUS_INTERNAL,
                             "token secret shorter than %d bytes", BUS_TOKEN_SECRET_MIN);
    if (!token || len == 0)
        return bus_error_set(err, BUS_STATUS_INVALID, "malformed token: empty");
    if (len > BUS_TOKEN_MAX_LEN)
        return bus_error_set(err, BUS_STATUS_INVALID, "malformed token: over %d bytes",
                             BUS_TOKEN_MAX_LEN);
    const char *dot = memchr(token, '.', len);
    if (!dot)
        return bus_error_set(err, BUS_STATUS_INVALID, "malformed token: no '.'");
    size_t payload_len = (size_t) (dot - token);
    size_t sig_len = len - payload_len - 1;
    uint8_t sig[MAC_LEN];
    if (payload_len == 0 || sig_len != B64_ENCODED_LEN(MAC_LEN) ||
        s_b64_decode(dot + 1, sig_len, sig) != MAC_LEN)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "malformed token: bad signature part");

    for (size_t i = 0; i < payload_len; i++)
        if (s_b64_value(token[i]) < 0)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "malformed token: bad claims part");

    uint8_t mac[EVP_MAX_MD_SIZE];
    unsigned mac_len = 0;
    if (!HMAC(EVP_sha256(), secret, (int) secret_len, (const uint8_t *) token,
              payload_len, mac, &mac_len) ||
        mac_len != MAC_LEN)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "HMAC-SHA256 failed");
    if (CRYPTO_memcmp(mac, sig, MAC_LEN) != 0)
        return bus_error_set(err, BUS_STATUS_FORBIDDEN, "bad token signature");

    //  Signed by the holder of the secret from here on; still checked fully
    ptrdiff_t decoded = s_b64_decode(token, payload_len, json);
    if (decoded < 0)
        return bus_error_set(err, BUS_STATUS_INVALID, "malformed token: bad claims part");
    *json_len = (size_t) decoded;
    return BUS_OK;
}

int
bus_token_verify(const void *secret,
                 size_t secret_len,
                 const char *token,
                 size_t len,
                 int64_t now,
                 bus_token_op_t expected,
                 bus_token_claims_t *claims,
                 bus_error_t *err)
{
    assert(claims);
    memset(claims, 0, sizeof *claims);
    uint8_t json[BUS_TOKEN_MAX_LEN];
    size_t json_len = 0;
    int rc = s_unseal(secret, secret_len, token, len, json, &json_len, err);
    if (rc != BUS_OK)
        return rc;
    if (s_parse_claims(json, json_len, claims, err) != 0) {
        memset(claims, 0, sizeof *claims);
        return BUS_STATUS_INVALID;
    }
    if (now >= claims->expires) {
        memset(claims, 0, sizeof *claims);
        return bus_error_set(err, BUS_STATUS_FORBIDDEN, "token expired");
    }
    if (claims->op != expected) {
        bus_token_op_t op = claims->op;
        memset(claims, 0, sizeof *claims);
        return bus_error_set(err, BUS_STATUS_FORBIDDEN, "token is for %s, not %s",
                             bus_token_op_str(op), bus_token_op_str(expected));
    }
    return BUS_OK;
}

int
bus_token_read_secret(const char *path,
                      const char *option,
                      uint8_t **secret,
                      size_t *secret_len,
                      bus_error_t *err)
{
    *secret = NULL;
    *secret_len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "%s %s: %s", option, path,
                             strerror(errno)),
               -1;
    struct stat st;
    if (fstat(fd, &st) == 0 && (st.st_mode & 077))
        bus_log_warning("token secret file readable by others path=%s mode=%o", path,
                        (unsigned) (st.st_mode & 0777));
    uint8_t *bytes = malloc(BUS_TOKEN_SECRET_FILE_MAX + 1);
    ssize_t n = bytes ? read(fd, bytes, BUS_TOKEN_SECRET_FILE_MAX + 1) : -1;
    close(fd);
    if (n < 0 || n > BUS_TOKEN_SECRET_FILE_MAX) {
        free(bytes);
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "%s %s: unreadable or over %d bytes", option, path,
                             BUS_TOKEN_SECRET_FILE_MAX),
               -1;
    }
    while (n > 0 && isspace(bytes[n - 1]))
        n--;
    if (n < BUS_TOKEN_SECRET_MIN) {
        OPENSSL_cleanse(bytes, BUS_TOKEN_SECRET_FILE_MAX + 1);
        free(bytes);
        return bus_error_set(err, BUS_STATUS_INVALID, "%s %s: shorter than %d bytes",
                             option, path, BUS_TOKEN_SECRET_MIN),
               -1;
    }
    *secret = bytes;
    *secret_len = (size_t) n;
    return 0;
}

//  ---------------------------------------------------------------------------
//  Sealed JSON claims (bus_apptoken and other token kinds)

char *
bus_token_seal(const void *secret, size_t secret_len, json_t *claims, bus_error_t *err)
{
    assert(claims);
    if (!secret || secret_len < BUS_TOKEN_SECRET_MIN || secret_len > INT_MAX) {
        bus_error_set(err, BUS_STATUS_INVALID, "token secret shorter than %d bytes",
                      BUS_TOKEN_SECRET_MIN);
        return NULL;
    }
    char *json = json_dumps(claims, JSON_COMPACT | JSON_SORT_KEYS);
    if (!json) {
        bus_error_set(err, BUS_STATUS_INVALID, "token claims cannot be written");
        return NULL;
    }
    return s_seal(secret, secret_len, json, err);
}

int
bus_token_open(const void *secret,
               size_t secret_len,
               const char *token,
               size_t len,
               json_t **claims,
               bus_error_t *err)
{
    assert(claims);
    *claims = NULL;
    uint8_t json[BUS_TOKEN_MAX_LEN];
    size_t json_len = 0;
    int rc = s_unseal(secret, secret_len, token, len, json, &json_len, err);
    if (rc != BUS_OK)
        return rc;
    json_error_t jerr;
    json_t *root =
        json_loadb((const char *) json, json_len, JSON_REJECT_DUPLICATES, &jerr);
    if (!json_is_object(root)) {
        json_decref(root);
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "malformed token: claims are not a JSON object");
    }
    *claims = root;
    return BUS_OK;
}
