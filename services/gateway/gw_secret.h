/*  =========================================================================
    gw_secret - passwords, keys and tokens

    Passwords are stored as PBKDF2-HMAC-SHA256 with a random 16-byte salt:
    "pbkdf2_sha256$<iterations>$<salt, base64>$<hash, base64>". Access keys
    look like Backend.AI's ("AKIA" + 16 upper-case letters and digits),
    secret keys are 40 characters of URL-safe base64; both come from the
    OpenSSL random generator.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_SECRET_H_INCLUDED
#define GW_SECRET_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>

#define GW_ACCESS_KEY_SIZE   21 //  20 characters and the NUL
#define GW_SECRET_KEY_SIZE   41
#define GW_PASSWORD_HASH_MAX 160
#define GW_TOKEN_SIZE        65 //  256 bits in hex
#define GW_UUID_SIZE         37

//  Hashes password with a fresh salt into out. 0 or -1.
int gw_password_hash(const char *password, int iterations, char *out, size_t size);

//  True when password matches the stored hash (constant time).
bool gw_password_verify(const char *password, const char *stored);

//  Fresh credentials. 0 or -1.
int gw_access_key_new(char out[GW_ACCESS_KEY_SIZE]);
int gw_secret_key_new(char out[GW_SECRET_KEY_SIZE]);
int gw_token_new(char out[GW_TOKEN_SIZE]);

//  A random (version 4) UUID in canonical text form.
int gw_uuid_new(char out[GW_UUID_SIZE]);

//  SHA-256 of text, in hex: how login tokens are stored.
void gw_sha256_hex(const char *text, char out[GW_TOKEN_SIZE]);

#endif
