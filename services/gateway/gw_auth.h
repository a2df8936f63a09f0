/*  =========================================================================
    gw_auth - Backend.AI's HMAC request signing, verified the way the
    Backend.AI manager verifies it

    A client signs every request with its keypair: two HMACs derive a
    signing key from the secret key, the request's calendar date and the
    Host; a third signs a canonical string of method, request target, raw
    Date header, Host, Content-Type, API version and the hash of an empty
    body (reference §1.2). The functions here are pure: they read strings
    and an evhttp header list and never do I/O, except one log line per
    failed check that names the access key and never a secret or a
    signature.

    Open questions settled against the manager's code (bai@main
    api/rest/middleware/auth.py, bai@24.03 api/auth.py) and the official
    client (client/auth.py):
    * Date key: the parsed Date formatted %Y%m%d *in the offset the Date was
      written in*, not converted to UTC (the manager calls strftime on the
      aware datetime dateutil returns; a naive Date counts as UTC). The
      client always writes UTC, so both readings agree for it; for
      "2024-05-01T01:30:00+09:00" the key is 20240501 (the UTC day is the
      30th), which is what the client itself signs with.
    * Body hash: hex(H("")) where H is the signMethod's hash, not always
      sha256 (client and manager both call hashlib.new(hash_type, b"")); it
      is sha256 only because the client defaults to HMAC-SHA256.
    * Missing version header on a signed request: 400 invalid-auth-params
      "API version missing in request headers" (the manager's signer); an
      unsigned request without one is fine. A version that is not in the
      supported list: 400 generic-bad-request "Unsupported API version.",
      for every request, before authentication.
    * Slugs, in the manager's order: unsupported version → generic-bad-request;
      no (or an empty) Authorization header → anonymous (the route answers
      401 auth-failed "Unauthorized access" when it needs a user); missing,
      unparsable or skewed Date (±15 min, bounds excluded) → 400
      invalid-auth-params "Date/time sync error"; malformed Authorization →
      400 invalid-auth-params; unknown access key → 401 auth-failed;
      unsupported MAC or hash in signMethod → 400 invalid-auth-params, a
      signMethod without exactly one "-" → 401 auth-failed; wrong signature
      → 401 auth-failed. Duplicated signed headers (Authorization, Date,
      X-BackendAI-Date, X-Sorna-Date, version, Host, Content-Type) are 400
      invalid-auth-params here, where the manager silently takes the first.
    Deliberate differences: only sha1/sha224/sha256/sha384/sha512 are
    accepted (the manager takes any hashlib algorithm, the client only ever
    sends sha256); X-Forwarded-URL is ignored (newer managers sign against
    it when present, which unbinds the signature from the real path); the
    Date grammar is the strict subset of dateutil's described at
    gw_auth_parse_date.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_AUTH_H_INCLUDED
#define GW_AUTH_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct evkeyvalq;

//  Clock skew the manager allows between Date and now (check_date).
#define GW_AUTH_MAX_SKEW_US (INT64_C(15) * 60 * 1000000)
//  Longest access key accepted ([A-Za-z0-9]; Backend.AI issues 20).
#define GW_AUTH_ACCESS_KEY_MAX 64
//  Largest digest of a supported hash (sha512), in bytes.
#define GW_AUTH_DIGEST_MAX 64
//  Room for a hex digest of any supported hash plus its NUL.
#define GW_AUTH_HEX_SIZE (2 * GW_AUTH_DIGEST_MAX + 1)
//  "YYYYMMDD" plus NUL.
#define GW_AUTH_DATE_KEY_SIZE 9
//  Longest Authorization value parsed; longer ones are malformed.
#define GW_AUTH_HEADER_MAX 1024
//  Room for a normalised Content-Type (MIME type only) plus NUL.
#define GW_AUTH_CONTENT_TYPE_SIZE 128
//  Room for "HMAC-SHA256" and the like, plus NUL.
#define GW_AUTH_SIGN_METHOD_SIZE 32
//  Room for a hash name ("sha256") plus NUL.
#define GW_AUTH_HASH_NAME_SIZE 8
#define GW_AUTH_DETAIL_MAX     256

//  What aiohttp's request.content_type reports when there is nothing usable.
#define GW_AUTH_DEFAULT_CONTENT_TYPE "application/octet-stream"
//  The version line's name in the string to sign, new and legacy.
#define GW_AUTH_VERSION_LINE        "x-backendai-version"
#define GW_AUTH_LEGACY_VERSION_LINE "x-sorna-version"

//  Problem slugs (reference §10) and the manager's details that callers send.
#define GW_AUTH_SLUG_INVALID        "invalid-auth-params"
#define GW_AUTH_SLUG_FAILED         "auth-failed"
#define GW_AUTH_SLUG_BAD_REQUEST    "generic-bad-request"
#define GW_AUTH_DETAIL_UNKNOWN_KEY  "Access key not found"
#define GW_AUTH_DETAIL_UNAUTHORIZED "Unauthorized access"

//  The parts of an Authorization header.
typedef struct {
    char auth_type[16];                         //  "BackendAI" or legacy "Sorna"
    char sign_method[GW_AUTH_SIGN_METHOD_SIZE]; //  as sent: "HMAC-SHA256"
    char hash_name[GW_AUTH_HASH_NAME_SIZE];     //  lower case: "sha256"
    char access_key[GW_AUTH_ACCESS_KEY_MAX + 1];
    char signature[GW_AUTH_HEX_SIZE]; //  lower-case hex; a secret: never log it
} gw_auth_credential_t;

//  Why a request was refused: a Backend.AI problem slug (static string;
//  NULL while there is none) and a detail for the "msg" field. The detail
//  never holds a secret or a signature.
typedef struct {
    const char *slug;
    char detail[GW_AUTH_DETAIL_MAX];
} gw_auth_problem_t;

//  Everything gw_auth_extract read from the headers, for gw_auth_check.
//  The const char * fields are borrowed from the header list: valid while
//  the request lives.
typedef struct {
    gw_auth_credential_t credential;
    const char *date_raw; //  the Date (or fallback) header, verbatim
    int64_t date_us;      //  parsed, µs since the epoch
    char date_key[GW_AUTH_DATE_KEY_SIZE];
    const char *host; //  Host header; NULL when absent
    char content_type[GW_AUTH_CONTENT_TYPE_SIZE];
    const char *version;      //  NULL when the request names none
    const char *version_line; //  GW_AUTH_VERSION_LINE or the legacy one
    //  Checked after the access key is known, in the manager's order.
    gw_auth_problem_t deferred;
    bool signature_malformed;
} gw_auth_params_t;

typedef enum {
    GW_AUTH_FAILED = -1,   //  problem says why
    GW_AUTH_SIGNED = 0,    //  a signature to check; params filled
    GW_AUTH_ANONYMOUS = 1, //  no Authorization header: an unsigned request
} gw_auth_rc_t;

//  ---------------------------------------------------------------------------
//  Pieces

//  Parses "BackendAI signMethod=HMAC-SHA256, credential=<AK>:<hex>" (or the
//  legacy type "Sorna"; spaces around "," and "=" are fine; other
//  parameters are ignored). The hash comes from signMethod "HMAC-<hash>",
//  any case: sha1, sha224, sha256, sha384 or sha512. The access key is 1-64
//  of [A-Za-z0-9]; the signature is lower-case hex of the digest's length.
//  Returns 0, or -1 with a reason in detail (detail may be NULL).
int gw_auth_parse_authorization(const char *header,
                                gw_auth_credential_t *out,
                                char *detail,
                                size_t size);

//  Parses a Date header the way the manager's dateutil call reads what
//  clients send, strictly:
//    ISO 8601  YYYY-MM-DD(T| )HH:MM:SS[.f{1,9}][Z|±HH:MM|±HHMM|±HH]
//              (no offset means UTC; digits past microseconds are dropped)
//    IMF-fixdate (RFC 7231)  Wed, 01 May 2024 12:34:56 GMT
//  Out-of-range fields (Feb 30, 24:00, :60, offsets of 24 h) and trailing
//  bytes are refused; a weekday that does not match the date is accepted,
//  as dateutil does. Sets *epoch_us, and date_key (GW_AUTH_DATE_KEY_SIZE
//  bytes, may be NULL) to the date as written, YYYYMMDD, in the Date's own
//  offset: the signing key's date. Returns 0 or -1.
int gw_auth_parse_date(const char *text, int64_t *epoch_us, char *date_key);

//  aiohttp's request.content_type: the MIME type before any ";", trimmed
//  and lower-cased; GW_AUTH_DEFAULT_CONTENT_TYPE when the header is absent
//  (NULL), empty, or not of the form type/subtype (aiohttp >= 3.14; older
//  ones said text/plain for the last two). Returns 0, or -1 when out is
//  too small.
int gw_auth_content_type(const char *header_value, char *out, size_t size);

//  Parses "v<major>.<YYYYMMDD>" (^v\d+\.\d{8}$). Returns 0 or -1.
int gw_auth_parse_version(const char *version, int *major, int *date);

//  True for the versions the manager accepts (v4.20181215 .. v9.20250722).
bool gw_auth_version_supported(const char *version);

//  ---------------------------------------------------------------------------
//  Signing

//  HMAC of data under key with hash_name ("sha256", ...). Writes the digest
//  to out and its length to *out_len. Returns 0, or -1 for an unsupported
//  hash or an out smaller than the digest.
int gw_auth_hmac(const char *hash_name,
                 const void *key,
                 size_t key_len,
                 const void *data,
                 size_t data_len,
                 unsigned char *out,
                 size_t out_size,
                 size_t *out_len);

//  The signing key: HMAC(HMAC(secret_key, date_key), host). Returns 0 or -1
//  as gw_auth_hmac does.
int gw_auth_signing_key(const char *hash_name,
                        const char *secret_key,
                        const char *date_key,
                        const char *host,
                        unsigned char *out,
                        size_t out_size,
                        size_t *out_len);

//  The canonical string: METHOD (upper-cased) \n request target \n raw Date
//  \n host:<host> \n content-type:<content type, lower-cased> \n
//  <version_line>:<version> \n hex(H("")). The target is path and query
//  exactly as received. Caller owns return value; NULL for an unsupported
//  hash or when out of memory.
char *gw_auth_string_to_sign(const char *hash_name,
                             const char *method,
                             const char *request_target,
                             const char *date_raw,
                             const char *host,
                             const char *content_type,
                             const char *version_line,
                             const char *version);

//  The request signature, lower-case hex, into out_hex (GW_AUTH_HEX_SIZE is
//  always enough). content_type is the MIME type as gw_auth_content_type
//  gives it. Returns 0, or -1 for an unsupported hash, a small buffer or
//  no memory.
int gw_auth_signature(const char *hash_name,
                      const char *secret_key,
                      const char *method,
                      const char *request_target,
                      const char *date_raw,
                      const char *date_key,
                      const char *host,
                      const char *content_type,
                      const char *version_line,
                      const char *version,
                      char *out_hex,
                      size_t out_size);

//  The same from a signing key already derived with gw_auth_signing_key
//  (callers cache it per keypair, date and host: it is two of the three
//  HMACs of every check).
int gw_auth_signature_with_key(const char *hash_name,
                               const unsigned char *key,
                               size_t key_len,
                               const char *method,
                               const char *request_target,
                               const char *date_raw,
                               const char *host,
                               const char *content_type,
                               const char *version_line,
                               const char *version,
                               char *out_hex,
                               size_t out_size);

//  ---------------------------------------------------------------------------
//  Verifying a request, in two steps so that the caller can look the access
//  key up in between:
//      rc = gw_auth_extract (headers, now_us, GW_AUTH_MAX_SKEW_US, &params, &problem);
//      GW_AUTH_SIGNED: secret = lookup (params.credential.access_key);
//          no such key: 401 auth-failed GW_AUTH_DETAIL_UNKNOWN_KEY;
//          else gw_auth_check (&params, method, target, secret, &problem)

//  Reads and checks the headers of a request up to the point where the
//  secret key is needed: the API version, the Authorization header, the
//  Date against now_us (|Date - now| < max_skew_us), Host and
//  Content-Type. Returns GW_AUTH_SIGNED, GW_AUTH_ANONYMOUS (params then
//  hold only the version), or GW_AUTH_FAILED with problem set.
gw_auth_rc_t gw_auth_extract(const struct evkeyvalq *headers,
                             int64_t now_us,
                             int64_t max_skew_us,
                             gw_auth_params_t *params,
                             gw_auth_problem_t *problem);

//  Finishes what gw_auth_extract began, with the access key's secret:
//  method is the request method as received, request_target the raw URI
//  (evhttp_request_get_uri). Compares signatures in constant time. Logs one
//  line on failure, naming the access key only. Returns 0, or -1 with
//  problem set.
int gw_auth_check(const gw_auth_params_t *params,
                  const char *method,
                  const char *request_target,
                  const char *secret_key,
                  gw_auth_problem_t *problem);

//  gw_auth_check with the signing key already derived (see
//  gw_auth_signature_with_key); key NULL fails as internal.
int gw_auth_check_with_key(const gw_auth_params_t *params,
                           const char *method,
                           const char *request_target,
                           const unsigned char *key,
                           size_t key_len,
                           gw_auth_problem_t *problem);

//  The active secret key of access_key, borrowed until the call returns, or
//  NULL when there is none.
typedef const char *(gw_auth_lookup_fn) (void *arg, const char *access_key);

//  Both steps for a caller that can look keys up synchronously. Returns as
//  gw_auth_extract does; an unknown key or a failed check is
//  GW_AUTH_FAILED. params may be NULL.
gw_auth_rc_t gw_auth_verify(const struct evkeyvalq *headers,
                            const char *method,
                            const char *request_target,
                            gw_auth_lookup_fn *lookup,
                            void *lookup_arg,
                            int64_t now_us,
                            int64_t max_skew_us,
                            gw_auth_params_t *params,
                            gw_auth_problem_t *problem);

#endif
