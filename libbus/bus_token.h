/*  =========================================================================
    bus_token - short-lived tokens the gateway signs and the storage-proxy checks

    request-upload and request-download answer a token and the
    storage-proxy's URL; the client then talks to the storage-proxy with the
    token alone, no API key. The gateway and the storage-proxy share a
    secret. A token is base64url(JSON claims) "." base64url(HMAC-SHA256 of
    the first part under the secret), both without padding. The claims
    scope it to one operation, one folder on one volume and one path, carry
    the announced size of an upload, an expiry in unix seconds and a random
    nonce that names the upload's staging file. To the client the token is
    opaque, as Backend.AI's JWT is.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_TOKEN_H_INCLUDED
#define BUS_TOKEN_H_INCLUDED

#include <stddef.h>
#include <stdint.h>
#include "bus_status.h"

//  Longest token accepted or produced, in bytes. A 4095-byte path fits.
#define BUS_TOKEN_MAX_LEN 8192
//  Shortest secret accepted: anything shorter is a configuration mistake.
#define BUS_TOKEN_SECRET_MIN 16
//  Longest volume name and folder id in the claims.
#define BUS_TOKEN_NAME_MAX 255
//  Longest relative path in the claims (PATH_MAX less its NUL).
#define BUS_TOKEN_PATH_MAX 4095
//  Random bytes in a nonce bus_token_sign makes; longest nonce accepted.
#define BUS_TOKEN_NONCE_BYTES 16
#define BUS_TOKEN_NONCE_MAX   64

typedef enum {
    BUS_TOKEN_UPLOAD = 1,
    BUS_TOKEN_DOWNLOAD = 2,
} bus_token_op_t;

//  What a token grants. Plain value: no pointers, nothing to free. Strings
//  are NUL-terminated and never hold a NUL; the nonce holds only
//  [A-Za-z0-9_-], so it can name a file.
typedef struct {
    bus_token_op_t op;
    char volume[BUS_TOKEN_NAME_MAX + 1];
    char folder[BUS_TOKEN_NAME_MAX + 1];
    char path[BUS_TOKEN_PATH_MAX + 1];
    uint64_t size;   //  uploads: the total size announced; 0 for downloads
    int64_t expires; //  unix seconds; the token is refused from then on
    char nonce[BUS_TOKEN_NONCE_MAX + 1];
} bus_token_claims_t;

//  ---------------------------------------------------------------------------
//  "upload" or "download"; "unknown" for other values.
const char *bus_token_op_str(bus_token_op_t op);

//  ---------------------------------------------------------------------------
//  Signs claims with secret (secret_len bytes, at least BUS_TOKEN_SECRET_MIN).
//  An empty claims->nonce is first filled with a fresh random one, so the
//  caller learns it. Caller owns return value (free). NULL with err
//  (BUS_STATUS_INVALID) for a short secret or claims a token cannot carry:
//  empty volume or folder, a string that is not UTF-8 or holds a control
//  character where names cannot, a bad nonce, a negative size or expiry.
char *bus_token_sign(const void *secret,
                     size_t secret_len,
                     bus_token_claims_t *claims,
                     bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Checks token (len bytes, as it came off the wire) against secret at time
//  now (unix seconds) for operation expected, and fills claims. The
//  signature is checked, in constant time, before the claims are parsed.
//  Returns BUS_OK, or with err and claims zeroed:
//    BUS_STATUS_INVALID    "malformed token: ..." (empty, too long, no dot,
//                          bad base64url, not JSON, a missing or bad field)
//    BUS_STATUS_FORBIDDEN  "bad token signature", "token expired",
//                          "token is for download, not upload"
//    BUS_STATUS_INTERNAL   a secret shorter than BUS_TOKEN_SECRET_MIN
int bus_token_verify(const void *secret,
                     size_t secret_len,
                     const char *token,
                     size_t len,
                     int64_t now,
                     bus_token_op_t expected,
                     bus_token_claims_t *claims,
                     bus_error_t *err);

//  Longest secret file read, in bytes.
#define BUS_TOKEN_SECRET_FILE_MAX 4096

//  ---------------------------------------------------------------------------
//  Reads the secret the gateway and the storage-proxy share from the file at
//  path (option names the option in messages): its bytes less trailing
//  white space, at least BUS_TOKEN_SECRET_MIN of them. A file others may
//  read is logged as a warning. Caller owns *secret (free after
//  OPENSSL_cleanse). 0, or -1 with err: NOT_FOUND (cannot open: missing, or
//  a symlink) or INVALID (unreadable, too long, too short).
int bus_token_read_secret(const char *path,
                          const char *option,
                          uint8_t **secret,
                          size_t *secret_len,
                          bus_error_t *err);

//  ---------------------------------------------------------------------------
//  The same scheme for other kinds of tokens (bus_apptoken): seal signs any
//  JSON object of claims (borrowed), written compact with sorted keys.
//  Caller owns return value. NULL with err (a short secret, claims that
//  cannot be written or make a token over BUS_TOKEN_MAX_LEN).
struct json_t;
char *bus_token_seal(const void *secret,
                     size_t secret_len,
                     struct json_t *claims,
                     bus_error_t *err);

//  Checks the signature of token (len bytes) in constant time, then parses
//  its claims: BUS_OK with *claims a JSON object the caller owns
//  (json_decref), or with err and *claims NULL: BUS_STATUS_INVALID
//  (malformed), BUS_STATUS_FORBIDDEN (bad signature), BUS_STATUS_INTERNAL
//  (short secret). Expiry and every claim are the caller's to check.
int bus_token_open(const void *secret,
                   size_t secret_len,
                   const char *token,
                   size_t len,
                   struct json_t **claims,
                   bus_error_t *err);

#endif
