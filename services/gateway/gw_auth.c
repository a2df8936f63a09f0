/*  =========================================================================
    gw_auth - Backend.AI's HMAC request signing, verified the way the
    manager verifies it

    The parsers walk the text with a cursor and accept exactly the grammar
    the header describes; anything left over is an error. Hashes come from a
    fixed table of five names that OpenSSL resolves. The string to sign is
    built in one allocation and the HMACs use OpenSSL's one-shot HMAC().
    Signatures are compared with CRYPTO_memcmp once their lengths, which are
    public, agree; derived keys are wiped after use.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
//  libcrypto (OpenSSL 3): digests, HMAC, constant-time comparison, cleanse.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

//  The hashes a signMethod may name (lower case, as hashlib spells them).
static const char *s_hashes[] = {"sha1", "sha224", "sha256", "sha384", "sha512", NULL};

//  The manager's VALID_VERSIONS (reference §2).
static const char *s_versions[] = {
    "v4.20181215", "v4.20190115", "v4.20190315", "v4.20190615", "v5.20191215",
    "v6.20200815", "v6.20220315", "v6.20220615", "v6.20221201", "v6.20230315",
    "v7.20230615", "v8.20240315", "v8.20240915", "v9.20250722", NULL};

static const char *s_weekdays[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", NULL};
static const char *s_months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul",
                                 "Aug", "Sep", "Oct", "Nov", "Dec", NULL};

typedef enum {
    PARSE_OK,
    PARSE_MALFORMED,       //  400 invalid-auth-params at once
    PARSE_BAD_ACCESS_KEY,  //  401 auth-failed at once: no such key can exist
    PARSE_BAD_SIGN_METHOD, //  reported after the key lookup, as the manager does
    PARSE_BAD_SIGNATURE    //  a mismatch, reported last
} parse_rc_t;

//  A calendar time as written, before its offset is applied.
typedef struct {
    int year, month, day, hour, minute, second, micro;
    int offset_s; //  east of UTC
} when_t;

static const EVP_MD *
s_digest(const char *hash_name)
{
    if (!hash_name)
        return NULL;
    for (int i = 0; s_hashes[i]; i++)
        if (strcmp(hash_name, s_hashes[i]) == 0)
            return EVP_get_digestbyname(s_hashes[i]);
    return NULL;
}

//  The whitespace Python's str.strip() removes, ASCII part.
static bool
s_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static bool
s_is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool
s_is_alnum(char c)
{
    return s_is_digit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static char
s_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char) (c - 'A' + 'a') : c;
}

static char
s_upper(char c)
{
    return c >= 'a' && c <= 'z' ? (char) (c - 'a' + 'A') : c;
}

//  Narrows [*start, *end) to its text without surrounding whitespace.
static void
s_trim(const char **start, const char **end)
{
    while (*start < *end && s_is_space(**start))
        (*start)++;
    while (*end > *start && s_is_space((*end)[-1]))
        (*end)--;
}

static bool
s_span_is(const char *start, const char *end, const char *text)
{
    size_t len = strlen(text);
    return (size_t) (end - start) == len && memcmp(start, text, len) == 0;
}

static void
s_hex(const unsigned char *data, size_t len, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = digits[data[i] >> 4];
        out[2 * i + 1] = digits[data[i] & 0x0f];
    }
    out[2 * len] = '\0';
}

static void s_problem(gw_auth_problem_t *problem, const char *slug, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
s_problem(gw_auth_problem_t *problem, const char *slug, const char *fmt, ...)
{
    problem->slug = slug;
    va_list args;
    va_start(args, fmt);
    vsnprintf(problem->detail, sizeof problem->detail, fmt, args);
    va_end(args);
}

static void
s_problem_clear(gw_auth_problem_t *problem)
{
    problem->slug = NULL;
    problem->detail[0] = '\0';
}

//  The manager's _extract_auth_params plus the checks its sign_request does
//  on the signMethod, and ours on the access key and signature shapes.
static parse_rc_t
s_parse_authorization(const char *header,
                      gw_auth_credential_t *out,
                      gw_auth_problem_t *problem)
{
    memset(out, 0, sizeof *out);
    s_problem_clear(problem);
    size_t len = strlen(header);
    if (len == 0 || len > GW_AUTH_HEADER_MAX) {
        s_problem(problem, GW_AUTH_SLUG_INVALID, "Malformed authorization header");
        return PARSE_MALFORMED;
    }
    const char *end = header + len;
    const char *space = strchr(header, ' ');
    if (!space) {
        s_problem(problem, GW_AUTH_SLUG_INVALID, "Malformed authorization header");
        return PARSE_MALFORMED;
    }
    if (!s_span_is(header, space, "BackendAI") && !s_span_is(header, space, "Sorna")) {
        s_problem(problem, GW_AUTH_SLUG_INVALID, "Invalid authorization type name");
        return PARSE_MALFORMED;
    }
    memcpy(out->auth_type, header, (size_t) (space - header));

    //  Comma-separated key=value pairs, each part trimmed.
    const char *method = NULL, *method_end = NULL;
    const char *credential = NULL, *credential_end = NULL;
    const char *cursor = space + 1;
    while (true) {
        const char *comma = memchr(cursor, ',', (size_t) (end - cursor));
        const char *piece_end = comma ? comma : end;
        const char *equals = memchr(cursor, '=', (size_t) (piece_end - cursor));
        if (!equals) {
            s_problem(problem, GW_AUTH_SLUG_INVALID,
                      "Missing or malformed authorization parameters");
            return PARSE_MALFORMED;
        }
        const char *key = cursor, *key_end = equals;
        const char *value = equals + 1, *value_end = piece_end;
        s_trim(&key, &key_end);
        s_trim(&value, &value_end);
        const char **slot = NULL, **slot_end = NULL;
        if (s_span_is(key, key_end, "signMethod")) {
            slot = &method;
            slot_end = &method_end;
        } else if (s_span_is(key, key_end, "credential")) {
            slot = &credential;
            slot_end = &credential_end;
        }
        if (slot) {
            if (*slot) {
                s_problem(problem, GW_AUTH_SLUG_INVALID,
                          "Duplicated authorization parameter");
                return PARSE_MALFORMED;
            }
            *slot = value;
            *slot_end = value_end;
        }
        if (!comma)
            break;
        cursor = comma + 1;
    }
    const char *colon =
        credential ? memchr(credential, ':', (size_t) (credential_end - credential))
                   : NULL;
    if (!method || !colon) {
        s_problem(problem, GW_AUTH_SLUG_INVALID,
                  "Missing or malformed authorization parameters");
        return PARSE_MALFORMED;
    }

    //  The access key: no such key exists unless it has the right shape.
    size_t key_len = (size_t) (colon - credential);
    bool key_ok = key_len > 0 && key_len <= GW_AUTH_ACCESS_KEY_MAX;
    for (size_t i = 0; key_ok && i < key_len; i++)
        key_ok = s_is_alnum(credential[i]);
    if (!key_ok) {
        s_problem(problem, GW_AUTH_SLUG_FAILED, "Malformed access key");
        return PARSE_BAD_ACCESS_KEY;
    }
    memcpy(out->access_key, credential, key_len);

    //  signMethod: "<mac>-<hash>", exactly one dash (else the manager's
    //  unpacking raises ValueError, which it reports as a bad signature).
    size_t method_len = (size_t) (method_end - method);
    const char *dash = memchr(method, '-', method_len);
    if (method_len >= sizeof out->sign_method || !dash ||
        memchr(dash + 1, '-', (size_t) (method_end - dash - 1))) {
        s_problem(problem, GW_AUTH_SLUG_FAILED, "Invalid signature");
        return PARSE_BAD_SIGN_METHOD;
    }
    memcpy(out->sign_method, method, method_len);
    char mac[8] = "";
    size_t mac_len = (size_t) (dash - method);
    for (size_t i = 0; i < mac_len && i < sizeof mac - 1; i++)
        mac[i] = s_lower(method[i]);
    if (mac_len != 4 || strcmp(mac, "hmac") != 0) {
        s_problem(problem, GW_AUTH_SLUG_INVALID,
                  "Unsupported request signing method (MAC type)");
        return PARSE_BAD_SIGN_METHOD;
    }
    size_t hash_len = (size_t) (method_end - dash - 1);
    const EVP_MD *md = NULL;
    if (hash_len < sizeof out->hash_name) {
        for (size_t i = 0; i < hash_len; i++)
            out->hash_name[i] = s_lower(dash[1 + i]);
        md = s_digest(out->hash_name);
    }
    if (!md) {
        out->hash_name[0] = '\0';
        s_problem(problem, GW_AUTH_SLUG_INVALID,
                  "Unsupported request signing method (hash type)");
        return PARSE_BAD_SIGN_METHOD;
    }

    //  The signature: lower-case hex of the digest's length, as hexdigest()
    //  writes it (anything else could never compare equal).
    const char *signature = colon + 1;
    size_t signature_len = (size_t) (credential_end - signature);
    bool signature_ok = signature_len == 2 * (size_t) EVP_MD_get_size(md);
    for (size_t i = 0; signature_ok && i < signature_len; i++)
        signature_ok =
            s_is_digit(signature[i]) || (signature[i] >= 'a' && signature[i] <= 'f');
    if (!signature_ok) {
        s_problem(problem, GW_AUTH_SLUG_FAILED,
                  "Signature is not lower-case hex of the digest's length");
        return PARSE_BAD_SIGNATURE;
    }
    memcpy(out->signature, signature, signature_len);
    return PARSE_OK;
}

int
gw_auth_parse_authorization(const char *header,
                            gw_auth_credential_t *out,
                            char *detail,
                            size_t size)
{
    assert(header);
    assert(out);
    gw_auth_problem_t problem;
    if (s_parse_authorization(header, out, &problem) == PARSE_OK)
        return 0;
    if (detail && size)
        snprintf(detail, size, "%s", problem.detail);
    return -1;
}

//  Exactly digits decimal digits at *cursor, into *value.
static bool
s_number(const char **cursor, int digits, int *value)
{
    int number = 0;
    for (int i = 0; i < digits; i++) {
        char c = (*cursor)[i];
        if (!s_is_digit(c))
            return false;
        number = number * 10 + (c - '0');
    }
    *cursor += digits;
    *value = number;
    return true;
}

static bool
s_literal(const char **cursor, const char *text)
{
    size_t len = strlen(text);
    if (strncmp(*cursor, text, len) != 0)
        return false;
    *cursor += len;
    return true;
}

//  One of names (three letters each, case as in RFC 7231) at *cursor.
static bool
s_name(const char **cursor, const char **names, int *index)
{
    for (int i = 0; names[i]; i++)
        if (s_literal(cursor, names[i])) {
            *index = i;
            return true;
        }
    return false;
}

static bool
s_parse_iso(const char *cursor, when_t *when)
{
    if (!s_number(&cursor, 4, &when->year) || !s_literal(&cursor, "-") ||
        !s_number(&cursor, 2, &when->month) || !s_literal(&cursor, "-") ||
        !s_number(&cursor, 2, &when->day))
        return false;
    if (*cursor != 'T' && *cursor != ' ')
        return false;
    cursor++;
    if (!s_number(&cursor, 2, &when->hour) || !s_literal(&cursor, ":") ||
        !s_number(&cursor, 2, &when->minute) || !s_literal(&cursor, ":") ||
        !s_number(&cursor, 2, &when->second))
        return false;
    if (*cursor == '.') {
        cursor++;
        int digits = 0;
        for (; s_is_digit(*cursor); cursor++, digits++)
            if (digits < 6)
                when->micro = when->micro * 10 + (*cursor - '0');
        if (digits == 0 || digits > 9)
            return false;
        for (; digits < 6; digits++)
            when->micro *= 10;
    }
    if (*cursor == 'Z')
        cursor++;
    else if (*cursor == '+' || *cursor == '-') {
        int sign = *cursor++ == '-' ? -1 : 1;
        int hours, minutes = 0;
        if (!s_number(&cursor, 2, &hours))
            return false;
        if (*cursor == ':') {
            cursor++;
            if (!s_number(&cursor, 2, &minutes))
                return false;
        } else if (s_is_digit(*cursor) && !s_number(&cursor, 2, &minutes))
            return false;
        if (hours > 23 || minutes > 59)
            return false;
        when->offset_s = sign * (hours * 3600 + minutes * 60);
    }
    return *cursor == '\0';
}

static bool
s_parse_imf(const char *cursor, when_t *when)
{
    int weekday;
    if (!s_name(&cursor, s_weekdays, &weekday) || !s_literal(&cursor, ", ") ||
        !s_number(&cursor, 2, &when->day) || !s_literal(&cursor, " ") ||
        !s_name(&cursor, s_months, &when->month) || !s_literal(&cursor, " ") ||
        !s_number(&cursor, 4, &when->year) || !s_literal(&cursor, " ") ||
        !s_number(&cursor, 2, &when->hour) || !s_literal(&cursor, ":") ||
        !s_number(&cursor, 2, &when->minute) || !s_literal(&cursor, ":") ||
        !s_number(&cursor, 2, &when->second) || !s_literal(&cursor, " GMT"))
        return false;
    when->month++;
    return *cursor == '\0';
}

static int
s_days_in_month(int year, int month)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : days[month - 1];
}

//  Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
//  days_from_civil).
static int64_t
s_days_from_civil(int year, int month, int day)
{
    int64_t y = year - (month <= 2);
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t year_of_era = y - era * 400;
    int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    int64_t day_of_era =
        year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * 146097 + day_of_era - 719468;
}

int
gw_auth_parse_date(const char *text, int64_t *epoch_us, char *date_key)
{
    assert(epoch_us);
    if (!text)
        return -1;
    when_t when = {0};
    bool parsed =
        s_is_digit(text[0]) ? s_parse_iso(text, &when) : s_parse_imf(text, &when);
    if (!parsed || when.year < 1 || when.month < 1 || when.month > 12 || when.day < 1 ||
        when.day > s_days_in_month(when.year, when.month) || when.hour > 23 ||
        when.minute > 59 || when.second > 59)
        return -1;
    int64_t seconds = s_days_from_civil(when.year, when.month, when.day) * 86400 +
                      when.hour * 3600 + when.minute * 60 + when.second - when.offset_s;
    *epoch_us = seconds * 1000000 + when.micro;
    if (date_key)
        snprintf(date_key, GW_AUTH_DATE_KEY_SIZE, "%04d%02d%02d", when.year % 10000,
                 when.month % 100, when.day % 100);
    return 0;
}

int
gw_auth_content_type(const char *header_value, char *out, size_t size)
{
    assert(out);
    const char *start = header_value ? header_value : "";
    const char *end = strchr(start, ';');
    if (!end)
        end = start + strlen(start);
    s_trim(&start, &end);
    size_t slashes = 0;
    for (const char *c = start; c < end; c++)
        slashes += *c == '/';
    if (slashes != 1) {
        start = GW_AUTH_DEFAULT_CONTENT_TYPE;
        end = start + strlen(start);
    }
    size_t len = (size_t) (end - start);
    if (len >= size)
        return -1;
    for (size_t i = 0; i < len; i++)
        out[i] = s_lower(start[i]);
    out[len] = '\0';
    return 0;
}

int
gw_auth_parse_version(const char *version, int *major, int *date)
{
    if (!version || version[0] != 'v')
        return -1;
    const char *cursor = version + 1;
    int number = 0, digits = 0;
    for (; s_is_digit(*cursor); cursor++, digits++) {
        if (digits == 9)
            return -1; //  would not fit an int
        number = number * 10 + (*cursor - '0');
    }
    int revision;
    if (digits == 0 || *cursor++ != '.' || !s_number(&cursor, 8, &revision) || *cursor)
        return -1;
    if (major)
        *major = number;
    if (date)
        *date = revision;
    return 0;
}

bool
gw_auth_version_supported(const char *version)
{
    if (!version)
        return false;
    for (int i = 0; s_versions[i]; i++)
        if (strcmp(version, s_versions[i]) == 0)
            return true;
    return false;
}

int
gw_auth_hmac(const char *hash_name,
             const void *key,
             size_t key_len,
             const void *data,
             size_t data_len,
             unsigned char *out,
             size_t out_size,
             size_t *out_len)
{
    assert(key || key_len == 0);
    assert(data || data_len == 0);
    assert(out);
    assert(out_len);
    static const unsigned char empty[1] = {0};
    const EVP_MD *md = s_digest(hash_name);
    if (!md || out_size < (size_t) EVP_MD_get_size(md) || key_len > INT_MAX)
        return -1;
    unsigned int len = 0;
    if (!HMAC(md, key_len ? key : empty, (int) key_len, data_len ? data : empty, data_len,
              out, &len))
        return -1;
    *out_len = len;
    return 0;
}

int
gw_auth_signing_key(const char *hash_name,
                    const char *secret_key,
                    const char *date_key,
                    const char *host,
                    unsigned char *out,
                    size_t out_size,
                    size_t *out_len)
{
    assert(secret_key);
    assert(date_key);
    assert(host);
    unsigned char date_hmac[GW_AUTH_DIGEST_MAX];
    size_t date_hmac_len;
    if (gw_auth_hmac(hash_name, secret_key, strlen(secret_key), date_key,
                     strlen(date_key), date_hmac, sizeof date_hmac, &date_hmac_len) != 0)
        return -1;
    int rc = gw_auth_hmac(hash_name, date_hmac, date_hmac_len, host, strlen(host), out,
                          out_size, out_len);
    OPENSSL_cleanse(date_hmac, sizeof date_hmac);
    return rc;
}

char *
gw_auth_string_to_sign(const char *hash_name,
                       const char *method,
                       const char *request_target,
                       const char *date_raw,
                       const char *host,
                       const char *content_type,
                       const char *version_line,
                       const char *version)
{
    assert(method && request_target && date_raw && host);
    assert(content_type && version_line && version);
    const EVP_MD *md = s_digest(hash_name);
    if (!md)
        return NULL;
    unsigned char body_hash[EVP_MAX_MD_SIZE];
    unsigned int body_hash_len = 0;
    if (!EVP_Digest("", 0, body_hash, &body_hash_len, md, NULL))
        return NULL;
    char body_hex[2 * EVP_MAX_MD_SIZE + 1];
    s_hex(body_hash, body_hash_len, body_hex);

    static const char format[] = "%s\n%s\n%s\nhost:%s\ncontent-type:%s\n%s:%s\n%s";
    int len = snprintf(NULL, 0, format, method, request_target, date_raw, host,
                       content_type, version_line, version, body_hex);
    if (len < 0)
        return NULL;
    char *text = malloc((size_t) len + 1);
    if (!text)
        return NULL;
    snprintf(text, (size_t) len + 1, format, method, request_target, date_raw, host,
             content_type, version_line, version, body_hex);
    //  The client upper-cases the method and lower-cases the content type.
    size_t method_len = strlen(method);
    for (size_t i = 0; i < method_len; i++)
        text[i] = s_upper(text[i]);
    char *type = text + method_len + 1 + strlen(request_target) + 1 + strlen(date_raw) +
                 strlen("\nhost:") + strlen(host) + strlen("\ncontent-type:");
    size_t type_len = strlen(content_type);
    for (size_t i = 0; i < type_len; i++)
        type[i] = s_lower(type[i]);
    return text;
}

int
gw_auth_signature_with_key(const char *hash_name,
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
                           size_t out_size)
{
    assert(out_hex);
    const EVP_MD *md = s_digest(hash_name);
    if (!md || out_size < 2 * (size_t) EVP_MD_get_size(md) + 1)
        return -1;
    char *text = gw_auth_string_to_sign(hash_name, method, request_target, date_raw, host,
                                        content_type, version_line, version);
    int rc = -1;
    unsigned char mac[GW_AUTH_DIGEST_MAX];
    size_t mac_len;
    if (text && gw_auth_hmac(hash_name, key, key_len, text, strlen(text), mac, sizeof mac,
                             &mac_len) == 0) {
        s_hex(mac, mac_len, out_hex);
        rc = 0;
    }
    free(text);
    return rc;
}

int
gw_auth_signature(const char *hash_name,
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
                  size_t out_size)
{
    unsigned char key[GW_AUTH_DIGEST_MAX];
    size_t key_len;
    if (gw_auth_signing_key(hash_name, secret_key, date_key, host, key, sizeof key,
                            &key_len) != 0)
        return -1;
    int rc = gw_auth_signature_with_key(hash_name, key, key_len, method, request_target,
                                        date_raw, host, content_type, version_line,
                                        version, out_hex, out_size);
    OPENSSL_cleanse(key, sizeof key);
    return rc;
}

//  The value of the first header called name (any case) in *value, NULL
//  when there is none. Returns how many there are.
static int
s_header(const struct evkeyvalq *headers, const char *name, const char **value)
{
    int count = 0;
    *value = NULL;
    for (const struct evkeyval *header = headers->tqh_first; header;
         header = header->next.tqe_next)
        if (evutil_ascii_strcasecmp(header->key, name) == 0 && count++ == 0)
            *value = header->value;
    return count;
}

static gw_auth_rc_t
s_extract_failed(gw_auth_problem_t *problem)
{
    bus_log_debug("auth rejected type=%s reason=\"%s\"", problem->slug, problem->detail);
    return GW_AUTH_FAILED;
}

gw_auth_rc_t
gw_auth_extract(const struct evkeyvalq *headers,
                int64_t now_us,
                int64_t max_skew_us,
                gw_auth_params_t *params,
                gw_auth_problem_t *problem)
{
    assert(headers);
    assert(params);
    assert(problem);
    memset(params, 0, sizeof *params);
    s_problem_clear(problem);

    //  The API version, checked for every request before authentication
    //  (api_middleware): the first non-empty of the new and legacy headers.
    const char *version, *legacy_version;
    if (s_header(headers, "X-BackendAI-Version", &version) > 1 ||
        s_header(headers, "X-Sorna-Version", &legacy_version) > 1) {
        s_problem(problem, GW_AUTH_SLUG_INVALID, "Duplicated API version header");
        return s_extract_failed(problem);
    }
    params->version_line = version ? GW_AUTH_VERSION_LINE : GW_AUTH_LEGACY_VERSION_LINE;
    params->version = version && *version ? version : legacy_version;
    if (params->version && !gw_auth_version_supported(params->version)) {
        s_problem(problem, GW_AUTH_SLUG_BAD_REQUEST, "Unsupported API version.");
        return s_extract_failed(problem);
    }

    const char *authorization;
    if (s_header(headers, "Authorization", &authorization) > 1) {
        s_problem(problem, GW_AUTH_SLUG_INVALID, "Duplicated Authorization header");
        return s_extract_failed(problem);
    }
    if (!authorization || !*authorization)
        return GW_AUTH_ANONYMOUS;

    //  The date (check_date): Date, else X-BackendAI-Date, else X-Sorna-Date.
    const char *date, *backendai_date, *sorna_date;
    if (s_header(headers, "Date", &date) > 1 ||
        s_header(headers, "X-BackendAI-Date", &backendai_date) > 1 ||
        s_header(headers, "X-Sorna-Date", &sorna_date) > 1) {
        s_problem(problem, GW_AUTH_SLUG_INVALID, "Duplicated Date header");
        return s_extract_failed(problem);
    }
    if (!date || !*date)
        date = backendai_date ? backendai_date : sorna_date;
    if (!date || !*date) {
        s_problem(problem, GW_AUTH_SLUG_INVALID, "Date/time sync error (no Date header)");
        return s_extract_failed(problem);
    }
    if (gw_auth_parse_date(date, &params->date_us, params->date_key) != 0) {
        s_problem(problem, GW_AUTH_SLUG_INVALID,
                  "Date/time sync error (unparsable Date header)");
        return s_extract_failed(problem);
    }
    if (params->date_us <= now_us - max_skew_us ||
        params->date_us >= now_us + max_skew_us) {
        s_problem(problem, GW_AUTH_SLUG_INVALID, "Date/time sync error");
        return s_extract_failed(problem);
    }
    params->date_raw = date;

    switch (s_parse_authorization(authorization, &params->credential, problem)) {
        case PARSE_OK:
            break;
        case PARSE_MALFORMED:
        case PARSE_BAD_ACCESS_KEY:
            return s_extract_failed(problem);
        case PARSE_BAD_SIGN_METHOD:
            params->deferred = *problem;
            s_problem_clear(problem);
            break;
        case PARSE_BAD_SIGNATURE:
            params->signature_malformed = true;
            s_problem_clear(problem);
            break;
    }

    const char *content_type;
    if (s_header(headers, "Host", &params->host) > 1 ||
        s_header(headers, "Content-Type", &content_type) > 1) {
        s_problem(problem, GW_AUTH_SLUG_INVALID,
                  "Duplicated Host or Content-Type header");
        return s_extract_failed(problem);
    }
    if (gw_auth_content_type(content_type, params->content_type,
                             sizeof params->content_type) != 0) {
        s_problem(problem, GW_AUTH_SLUG_INVALID, "Content-Type too long");
        return s_extract_failed(problem);
    }
    return GW_AUTH_SIGNED;
}

int
gw_auth_check_with_key(const gw_auth_params_t *params,
                       const char *method,
                       const char *request_target,
                       const unsigned char *key,
                       size_t key_len,
                       gw_auth_problem_t *problem)
{
    assert(params);
    assert(method);
    assert(request_target);
    assert(problem);
    s_problem_clear(problem);
    const gw_auth_credential_t *credential = &params->credential;
    char expected[GW_AUTH_HEX_SIZE];
    if (params->deferred.slug)
        *problem = params->deferred;
    else if (!params->version)
        s_problem(problem, GW_AUTH_SLUG_INVALID,
                  "API version missing in request headers");
    else if (!params->host)
        s_problem(problem, GW_AUTH_SLUG_FAILED, "Missing Host header");
    else if (params->signature_malformed)
        s_problem(problem, GW_AUTH_SLUG_FAILED, "HMAC signature mismatch");
    else if (!key)
        s_problem(problem, "internal-server-error", "Cannot derive the signing key");
    else if (gw_auth_signature_with_key(credential->hash_name, key, key_len, method,
                                        request_target, params->date_raw, params->host,
                                        params->content_type, params->version_line,
                                        params->version, expected, sizeof expected) != 0)
        s_problem(problem, "internal-server-error", "Cannot compute the signature");
    else {
        size_t len = strlen(expected);
        bool equal = strlen(credential->signature) == len &&
                     CRYPTO_memcmp(expected, credential->signature, len) == 0;
        OPENSSL_cleanse(expected, sizeof expected);
        if (equal)
            return 0;
        s_problem(problem, GW_AUTH_SLUG_FAILED, "HMAC signature mismatch");
    }
    bus_log_info("auth rejected access_key=%s type=%s reason=\"%s\"",
                 credential->access_key, problem->slug, problem->detail);
    return -1;
}

int
gw_auth_check(const gw_auth_params_t *params,
              const char *method,
              const char *request_target,
              const char *secret_key,
              gw_auth_problem_t *problem)
{
    assert(secret_key);
    unsigned char key[GW_AUTH_DIGEST_MAX];
    size_t key_len = 0;
    bool derived =
        params->host && params->credential.hash_name[0] &&
        gw_auth_signing_key(params->credential.hash_name, secret_key, params->date_key,
                            params->host, key, sizeof key, &key_len) == 0;
    int rc = gw_auth_check_with_key(params, method, request_target, derived ? key : NULL,
                                    key_len, problem);
    OPENSSL_cleanse(key, sizeof key);
    return rc;
}

gw_auth_rc_t
gw_auth_verify(const struct evkeyvalq *headers,
               const char *method,
               const char *request_target,
               gw_auth_lookup_fn *lookup,
               void *lookup_arg,
               int64_t now_us,
               int64_t max_skew_us,
               gw_auth_params_t *params,
               gw_auth_problem_t *problem)
{
    assert(lookup);
    gw_auth_params_t local;
    if (!params)
        params = &local;
    gw_auth_rc_t rc = gw_auth_extract(headers, now_us, max_skew_us, params, problem);
    if (rc != GW_AUTH_SIGNED)
        return rc;
    const char *secret_key = lookup(lookup_arg, params->credential.access_key);
    if (!secret_key) {
        s_problem(problem, GW_AUTH_SLUG_FAILED, GW_AUTH_DETAIL_UNKNOWN_KEY);
        bus_log_info("auth rejected access_key=%s type=%s reason=\"%s\"",
                     params->credential.access_key, problem->slug, problem->detail);
        return GW_AUTH_FAILED;
    }
    if (gw_auth_check(params, method, request_target, secret_key, problem) != 0)
        return GW_AUTH_FAILED;
    return GW_AUTH_SIGNED;
}
