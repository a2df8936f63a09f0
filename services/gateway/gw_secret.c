/*  =========================================================================
    gw_secret - password hashing and random credentials (OpenSSL)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include <openssl/crypto.h> //  CRYPTO_memcmp
#include <openssl/evp.h>    //  PKCS5_PBKDF2_HMAC, EVP_Digest, base64
#include <openssl/rand.h>   //  RAND_bytes

#define SALT_BYTES 16
#define HASH_BYTES 32
#define B64_MAX    64

static int
s_b64(const unsigned char *data, int size, char *out)
{
    return EVP_EncodeBlock((unsigned char *) out, data, size);
}

int
gw_password_hash(const char *password, int iterations, char *out, size_t size)
{
    unsigned char salt[SALT_BYTES], hash[HASH_BYTES];
    char salt64[B64_MAX], hash64[B64_MAX];
    if (RAND_bytes(salt, sizeof salt) != 1 ||
        PKCS5_PBKDF2_HMAC(password, (int) strlen(password), salt, sizeof salt, iterations,
                          EVP_sha256(), sizeof hash, hash) != 1)
        return -1;
    s_b64(salt, sizeof salt, salt64);
    s_b64(hash, sizeof hash, hash64);
    int n = snprintf(out, size, "pbkdf2_sha256$%d$%s$%s", iterations, salt64, hash64);
    OPENSSL_cleanse(hash, sizeof hash);
    return n > 0 && (size_t) n < size ? 0 : -1;
}

bool
gw_password_verify(const char *password, const char *stored)
{
    int iterations = 0;
    char salt64[B64_MAX], hash64[B64_MAX];
    if (!stored ||
        sscanf(stored, "pbkdf2_sha256$%d$%63[^$]$%63s", &iterations, salt64, hash64) !=
            3 ||
        iterations < 1 || iterations > 10000000)
        return false;
    unsigned char salt[B64_MAX], expected[B64_MAX], actual[HASH_BYTES];
    int salt_len =
        EVP_DecodeBlock(salt, (const unsigned char *) salt64, (int) strlen(salt64));
    int hash_len =
        EVP_DecodeBlock(expected, (const unsigned char *) hash64, (int) strlen(hash64));
    //  DecodeBlock counts padding bytes as data: our sizes are fixed.
    if (salt_len < SALT_BYTES || hash_len < HASH_BYTES)
        return false;
    if (PKCS5_PBKDF2_HMAC(password, (int) strlen(password), salt, SALT_BYTES, iterations,
                          EVP_sha256(), HASH_BYTES, actual) != 1)
        return false;
    bool ok = CRYPTO_memcmp(actual, expected, HASH_BYTES) == 0;
    OPENSSL_cleanse(actual, sizeof actual);
    return ok;
}

//  Fills out with size - 1 characters drawn uniformly from alphabet.
static int
s_random_text(const char *alphabet, char *out, size_t size)
{
    size_t n = strlen(alphabet);
    //  Reject bytes past the largest multiple of n, so every character is equally likely.
    unsigned limit = 256 - 256 % (unsigned) n;
    size_t filled = 0;
    while (filled + 1 < size) {
        unsigned char bytes[64];
        if (RAND_bytes(bytes, sizeof bytes) != 1)
            return -1;
        for (size_t i = 0; i < sizeof bytes && filled + 1 < size; i++)
            if (bytes[i] < limit)
                out[filled++] = alphabet[bytes[i] % n];
    }
    out[filled] = 0;
    return 0;
}

int
gw_access_key_new(char out[GW_ACCESS_KEY_SIZE])
{
    memcpy(out, "AKIA", 4);
    return s_random_text("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", out + 4,
                         GW_ACCESS_KEY_SIZE - 4);
}

int
gw_secret_key_new(char out[GW_SECRET_KEY_SIZE])
{
    return s_random_text(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", out,
        GW_SECRET_KEY_SIZE);
}

int
gw_token_new(char out[GW_TOKEN_SIZE])
{
    return s_random_text("0123456789abcdef", out, GW_TOKEN_SIZE);
}

int
gw_uuid_new(char out[GW_UUID_SIZE])
{
    unsigned char b[16];
    if (RAND_bytes(b, sizeof b) != 1)
        return -1;
    b[6] = (unsigned char) ((b[6] & 0x0f) | 0x40); //  version 4
    b[8] = (unsigned char) ((b[8] & 0x3f) | 0x80); //  RFC 4122 variant
    snprintf(out, GW_UUID_SIZE,
             "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
             b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
             b[13], b[14], b[15]);
    return 0;
}

void
gw_sha256_hex(const char *text, char out[GW_TOKEN_SIZE])
{
    unsigned char digest[32];
    unsigned int len = 0;
    EVP_Digest(text, strlen(text), digest, &len, EVP_sha256(), NULL);
    for (unsigned i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", digest[i]);
}
