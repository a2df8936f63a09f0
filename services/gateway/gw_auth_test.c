/*  =========================================================================
    gw_auth_test - the worked example of reference §1.3, vectors signed by
    the official Python client, the Authorization/Date/Content-Type/version
    parsers, and whole requests verified with tampering, skew, legacy
    headers and every failure slug

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

#define EXAMPLE_AK      "AKIAIOSFODNN7EXAMPLE"
#define EXAMPLE_SK      "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
#define EXAMPLE_DATE    "2024-05-01T12:34:56.789012+00:00"
#define EXAMPLE_NOW_US  INT64_C(1714566896789012)
#define EXAMPLE_HOST    "127.0.0.1:8081"
#define EXAMPLE_VERSION "v6.20220315"
#define OTHER_AK        "AKIAOTHERKEY00000000"
#define OTHER_SK        "another-secret-key"
#define MINUTE_US       (INT64_C(60) * 1000000)

static void
s_hex(const unsigned char *data, size_t len, char *out)
{
    for (size_t i = 0; i < len; i++)
        sprintf(out + 2 * i, "%02x", data[i]);
    out[2 * len] = '\0';
}

//  ---------------------------------------------------------------------------
//  Reference §1.3

static void
test_worked_example_keys(void)
{
    unsigned char key[GW_AUTH_DIGEST_MAX];
    size_t len = 0;
    char hex[GW_AUTH_HEX_SIZE];
    T_EQ_INT(gw_auth_hmac("sha256", EXAMPLE_SK, strlen(EXAMPLE_SK), "20240501", 8, key,
                          sizeof key, &len),
             0);
    T_EQ_INT(len, 32);
    s_hex(key, len, hex);
    T_EQ_STR(hex, "e6fcca521cd6e8ae05b52aa17ed9ac9cdc043d25ca68b208f48acd99eabd5fcf");
    T_EQ_INT(gw_auth_signing_key("sha256", EXAMPLE_SK, "20240501", EXAMPLE_HOST, key,
                                 sizeof key, &len),
             0);
    s_hex(key, len, hex);
    T_EQ_STR(hex, "bb627f0435106903b99c909a4c1750f0f651aeb8ffb109c9332e5c84b8c8ac36");
    //  Too small an output, unknown hashes.
    T_EQ_INT(gw_auth_hmac("sha256", "k", 1, "d", 1, key, 31, &len), -1);
    T_EQ_INT(gw_auth_hmac("md5", "k", 1, "d", 1, key, sizeof key, &len), -1);
    T_EQ_INT(gw_auth_hmac("SHA256", "k", 1, "d", 1, key, sizeof key, &len), -1);
    T_EQ_INT(gw_auth_hmac(NULL, "k", 1, "d", 1, key, sizeof key, &len), -1);
    //  An empty key and empty data are fine (RFC 4231-style sanity check).
    T_EQ_INT(gw_auth_hmac("sha256", "", 0, "", 0, key, sizeof key, &len), 0);
    s_hex(key, len, hex);
    T_EQ_STR(hex, "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad");
}

static void
test_worked_example_string_to_sign(void)
{
    char *text =
        gw_auth_string_to_sign("sha256", "post", "/session", EXAMPLE_DATE, EXAMPLE_HOST,
                               "Application/JSON", GW_AUTH_VERSION_LINE, EXAMPLE_VERSION);
    T_ASSERT(text);
    T_EQ_STR(text,
             "POST\n/session\n2024-05-01T12:34:56.789012+00:00\nhost:127.0.0.1:8081\n"
             "content-type:application/json\nx-backendai-version:v6.20220315\n"
             "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    free(text);
    //  The body hash follows the signMethod's hash.
    text = gw_auth_string_to_sign("sha1", "GET", "/", "d", "h", "text/plain",
                                  GW_AUTH_LEGACY_VERSION_LINE, "v4.20181215");
    T_ASSERT(text);
    T_EQ_STR(text,
             "GET\n/\nd\nhost:h\ncontent-type:text/plain\nx-sorna-version:v4.20181215\n"
             "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    free(text);
    text = gw_auth_string_to_sign("sha512", "GET", "/", "d", "h", "text/plain",
                                  GW_AUTH_VERSION_LINE, "v9.20250722");
    T_ASSERT(text);
    T_CONTAINS(text,
               "\nx-backendai-version:v9.20250722\ncf83e1357eefb8bdf1542850d66d8007d620e4"
               "050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd474"
               "17a81a538327af927da3e");
    free(text);
    T_ASSERT(!gw_auth_string_to_sign("md5", "GET", "/", "d", "h", "t/p", "x", "v"));
}

static void
test_worked_example_signatures(void)
{
    struct {
        const char *method, *target, *content_type, *expect;
    } cases[] = {
        {"POST", "/session", "application/json",
         "bf9fff1201b7c2370b2f9baf1afc3ecaf6e60d04d3f0fb3c7cbb4b028a160d00"},
        {"GET", "/folders/_/hosts", "text/plain",
         "cc8507c81dc277b86ae916e18579e0f72a5a151750f0b373d902c4598a39993c"},
        {"DELETE", "/session/mysess-01?forced=true", "text/plain",
         "d61f2289cbd48f73ff1dc67ae7fa1f5d40f7501b23f30aedda9ae79a85f89b85"},
        //  WebSocket: no Content-Type header, signed as octet-stream.
        {"GET", "/stream/session/mysess-01/pty", NULL,
         "aaf69940024fbcd61e1aab7655dd6ec4a77f9afbe532d6cce7ec886bdc6dc53a"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char content_type[GW_AUTH_CONTENT_TYPE_SIZE];
        T_EQ_INT(gw_auth_content_type(cases[i].content_type, content_type,
                                      sizeof content_type),
                 0);
        char hex[GW_AUTH_HEX_SIZE];
        T_EQ_INT(gw_auth_signature("sha256", EXAMPLE_SK, cases[i].method, cases[i].target,
                                   EXAMPLE_DATE, "20240501", EXAMPLE_HOST, content_type,
                                   GW_AUTH_VERSION_LINE, EXAMPLE_VERSION, hex,
                                   sizeof hex),
                 0);
        T_EQ_STR(hex, cases[i].expect);
    }
    char small[64];
    T_EQ_INT(gw_auth_signature("sha256", EXAMPLE_SK, "GET", "/", EXAMPLE_DATE, "20240501",
                               EXAMPLE_HOST, "text/plain", GW_AUTH_VERSION_LINE,
                               EXAMPLE_VERSION, small, sizeof small),
             -1);
}

//  Vectors printed once by the official client's generate_signature
//  (client-src/ai/backend/client/auth.py), fed the same inputs.
static void
test_client_vectors(void)
{
    struct {
        const char *method, *version, *host, *date, *date_key, *target, *content_type;
        const char *secret, *hash, *expect;
    } cases[] = {
        {"GET", "v6.20220315", "api.example.com:8443", "2024-11-03T23:59:58.120034+00:00",
         "20241103", "/folders/my%20data/files?path=a%2Fb%20c&limit=10", "text/plain",
         "k9R/2vQx+LmP0aZ7wE3sT5yU8iO1pAsDfGhJkL0z", "sha256",
         "14c7b047aee968543f78794f61792c478a806a42cfbf7088d7a9872e377f9225"},
        {"POST", "v8.20240315", "backend.example.org", "2025-02-28T00:00:01.000005+00:00",
         "20250228",
         "/session/3f1c7a52-9e0b-4d6a-8c21-5b7e0f9a1d44/rename?name=new%2Fname%3Dx",
         "application/json", "s3cr3t-with-\xc3\xbcnicode-and spaces", "sha256",
         "fdc4822d3b45299dce8499b668c5565169f96dfacb785d939bb780072f7f63c3"},
        {"PUT", "v9.20250722", "10.0.0.7:8090", "2024-02-29T12:00:00+00:00", "20240229",
         "/folders/_/upload?folder=%E3%83%87%E3%83%BC%E3%82%BF", "multipart/form-data",
         EXAMPLE_SK, "sha512",
         "aee3b61d37bbc36b83ab9df2e6353bb96790bb3c7639ff6e04b93d6a4d846bbd4d0d7ade53caaac"
         "f6"
         "1323853140c7c022e1bc41cb832625d1af718e084d13c2e"},
        //  +09:00: the client keys on the date as written (May 1, UTC Apr 30).
        {"GET", "v7.20230615", "[::1]:8081", "2024-05-01T01:30:00.250000+09:00",
         "20240501", "/stream/session/s1/pty", "application/octet-stream", EXAMPLE_SK,
         "sha256", "facb84b2c7728ae80e9e57284bc263ba397e9eb3dc790f5f568c93637ff4b2c1"},
        {"DELETE", "v6.20220315", EXAMPLE_HOST, EXAMPLE_DATE, "20240501",
         "/session/mysess-01?forced=true&owner_access_key=AKIAOTHER", "text/plain",
         EXAMPLE_SK, "sha1", "0759e3ce3b2c791e98a78f77c52d9c03bb1733ff"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        //  The date key the parser derives is the one the client used.
        int64_t us;
        char date_key[GW_AUTH_DATE_KEY_SIZE];
        T_EQ_INT(gw_auth_parse_date(cases[i].date, &us, date_key), 0);
        T_EQ_STR(date_key, cases[i].date_key);
        char hex[GW_AUTH_HEX_SIZE];
        T_EQ_INT(gw_auth_signature(
                     cases[i].hash, cases[i].secret, cases[i].method, cases[i].target,
                     cases[i].date, date_key, cases[i].host, cases[i].content_type,
                     GW_AUTH_VERSION_LINE, cases[i].version, hex, sizeof hex),
                 0);
        T_EQ_STR(hex, cases[i].expect);
    }
}

//  ---------------------------------------------------------------------------
//  Parsers

static void
test_parse_authorization_accepts(void)
{
    gw_auth_credential_t credential;
    char detail[GW_AUTH_DETAIL_MAX];
    const char *sig256 =
        "bf9fff1201b7c2370b2f9baf1afc3ecaf6e60d04d3f0fb3c7cbb4b028a160d00";
    char header[512];
    snprintf(header, sizeof header, "BackendAI signMethod=HMAC-SHA256, credential=%s:%s",
             EXAMPLE_AK, sig256);
    T_EQ_INT(gw_auth_parse_authorization(header, &credential, detail, sizeof detail), 0);
    T_EQ_STR(credential.auth_type, "BackendAI");
    T_EQ_STR(credential.sign_method, "HMAC-SHA256");
    T_EQ_STR(credential.hash_name, "sha256");
    T_EQ_STR(credential.access_key, EXAMPLE_AK);
    T_EQ_STR(credential.signature, sig256);

    //  Legacy type, spaces around "," and "=", other order, extra parameter.
    snprintf(header, sizeof header,
             "Sorna  credential = %s:%s ,signMethod= hmac-sha256 , realm=x", EXAMPLE_AK,
             sig256);
    T_EQ_INT(gw_auth_parse_authorization(header, &credential, detail, sizeof detail), 0);
    T_EQ_STR(credential.auth_type, "Sorna");
    T_EQ_STR(credential.sign_method, "hmac-sha256");
    T_EQ_STR(credential.hash_name, "sha256");
    T_EQ_STR(credential.access_key, EXAMPLE_AK);
    T_EQ_STR(credential.signature, sig256);

    //  Every supported hash, with a signature of its length.
    struct {
        const char *method, *hash;
        size_t hex_len;
    } hashes[] = {{"HMAC-SHA1", "sha1", 40},
                  {"HMAC-SHA224", "sha224", 56},
                  {"HMAC-SHA256", "sha256", 64},
                  {"HMAC-SHA384", "sha384", 96},
                  {"Hmac-Sha512", "sha512", 128}};
    for (size_t i = 0; i < sizeof hashes / sizeof hashes[0]; i++) {
        char sig[GW_AUTH_HEX_SIZE];
        memset(sig, 'a', hashes[i].hex_len);
        sig[hashes[i].hex_len] = '\0';
        snprintf(header, sizeof header, "BackendAI signMethod=%s, credential=AK1:%s",
                 hashes[i].method, sig);
        T_EQ_INT(gw_auth_parse_authorization(header, &credential, NULL, 0), 0);
        T_EQ_STR(credential.hash_name, hashes[i].hash);
        T_EQ_STR(credential.signature, sig);
    }
    //  A 64-character access key is the longest.
    char key[GW_AUTH_ACCESS_KEY_MAX + 1];
    memset(key, 'K', GW_AUTH_ACCESS_KEY_MAX);
    key[GW_AUTH_ACCESS_KEY_MAX] = '\0';
    snprintf(header, sizeof header, "BackendAI signMethod=HMAC-SHA256, credential=%s:%s",
             key, sig256);
    T_EQ_INT(gw_auth_parse_authorization(header, &credential, NULL, 0), 0);
    T_EQ_STR(credential.access_key, key);
}

static void
test_parse_authorization_rejects(void)
{
    const char *sig = "bf9fff1201b7c2370b2f9baf1afc3ecaf6e60d04d3f0fb3c7cbb4b028a160d00";
    char long_key[GW_AUTH_ACCESS_KEY_MAX + 2];
    memset(long_key, 'K', GW_AUTH_ACCESS_KEY_MAX + 1);
    long_key[GW_AUTH_ACCESS_KEY_MAX + 1] = '\0';
    char too_long[GW_AUTH_HEADER_MAX + 64];
    snprintf(too_long, sizeof too_long,
             "BackendAI signMethod=HMAC-SHA256, credential=AK1:%s, pad=", sig);
    size_t used = strlen(too_long);
    memset(too_long + used, 'x', sizeof too_long - used - 1);
    too_long[sizeof too_long - 1] = '\0';

    struct {
        const char *format; //  %s takes sig, or long_key then sig
        bool long_key;
        const char *detail;
    } cases[] = {
        {"", false, "Malformed authorization header"},
        {"BackendAI", false, "Malformed authorization header"},
        {"Bearer signMethod=HMAC-SHA256, credential=AK1:%s", false, "type name"},
        {"backendai signMethod=HMAC-SHA256, credential=AK1:%s", false, "type name"},
        {"BackendAI signMethod=HMAC-SHA256", false, "Missing or malformed"},
        {"BackendAI credential=AK1:%s", false, "Missing or malformed"},
        {"BackendAI signMethod=HMAC-SHA256, credential=AK1%s", false,
         "Missing or malformed"},
        {"BackendAI signMethod=HMAC-SHA256, credential", false, "Missing or malformed"},
        {"BackendAI signMethod=HMAC-SHA256, credential=AK1:%s,", false,
         "Missing or malformed"},
        {"BackendAI signMethod=HMAC-SHA256,, credential=AK1:%s", false,
         "Missing or malformed"},
        {"BackendAI signMethod=HMAC-SHA256, credential=AK1:%s, credential=AK2:%s", false,
         "Duplicated"},
        {"BackendAI signMethod=HMAC-SHA256, credential=:%s", false, "access key"},
        {"BackendAI signMethod=HMAC-SHA256, credential=AK-1:%s", false, "access key"},
        {"BackendAI signMethod=HMAC-SHA256, credential=AK 1:%s", false, "access key"},
        {"BackendAI signMethod=HMAC-SHA256, credential=%s:%s", true, "access key"},
        {"BackendAI signMethod=HMAC-MD5, credential=AK1:%s", false, "hash type"},
        {"BackendAI signMethod=HMAC-SHA3_256, credential=AK1:%s", false, "hash type"},
        {"BackendAI signMethod=HMAC-SHA256X, credential=AK1:%s", false, "hash type"},
        {"BackendAI signMethod=HMAC-, credential=AK1:%s", false, "hash type"},
        {"BackendAI signMethod=CMAC-SHA256, credential=AK1:%s", false, "MAC type"},
        {"BackendAI signMethod=HMAC-SHA-256, credential=AK1:%s", false,
         "Invalid signature"},
        {"BackendAI signMethod=SHA256, credential=AK1:%s", false, "Invalid signature"},
        {"BackendAI signMethod=, credential=AK1:%s", false, "Invalid signature"},
        {"BackendAI signMethod=HMAC-SHA256, credential=AK1:", false, "lower-case hex"},
        {"BackendAI signMethod=HMAC-SHA256, credential=AK1:%s0", false, "lower-case hex"},
        {"BackendAI signMethod=HMAC-SHA1, credential=AK1:%s", false, "lower-case hex"},
        {"BackendAI signMethod=HMAC-SHA256, credential=AK1:"
         "BF9FFF1201B7C2370B2F9BAF1AFC3ECAF6E60D04D3F0FB3C7CBB4B028A160D00",
         false, "lower-case hex"},
        {"BackendAI signMethod=HMAC-SHA256, credential=AK1:"
         "zf9fff1201b7c2370b2f9baf1afc3ecaf6e60d04d3f0fb3c7cbb4b028a160d00",
         false, "lower-case hex"},
        {"BackendAI signMethod=HMAC-SHA256, credential=AK1:%s:extra", false,
         "lower-case hex"},
    };
    gw_auth_credential_t credential;
    char header[512], detail[GW_AUTH_DETAIL_MAX];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].long_key)
            snprintf(header, sizeof header, cases[i].format, long_key, sig);
        else
            snprintf(header, sizeof header, cases[i].format, sig, sig);
        detail[0] = '\0';
        if (gw_auth_parse_authorization(header, &credential, detail, sizeof detail) != -1)
            T_FAIL_("accepted: %s", header);
        T_CONTAINS(detail, cases[i].detail);
    }
    T_EQ_INT(gw_auth_parse_authorization(too_long, &credential, detail, sizeof detail),
             -1);
    T_CONTAINS(detail, "Malformed authorization header");
}

static void
test_parse_date_accepts(void)
{
    //  Expected values printed by python-dateutil's parse (naive = UTC).
    struct {
        const char *text;
        int64_t epoch_us;
        const char *date_key;
    } cases[] = {
        {"2024-05-01T12:34:56.789012+00:00", INT64_C(1714566896789012), "20240501"},
        {"2024-05-01T12:34:56.789012Z", INT64_C(1714566896789012), "20240501"},
        {"2024-05-01T12:34:56Z", INT64_C(1714566896000000), "20240501"},
        {"2024-05-01T12:34:56", INT64_C(1714566896000000), "20240501"},
        {"2024-05-01 12:34:56", INT64_C(1714566896000000), "20240501"},
        {"2024-05-01 12:34:56.5", INT64_C(1714566896500000), "20240501"},
        {"2024-05-01T21:34:56+0900", INT64_C(1714566896000000), "20240501"},
        {"2024-05-01T21:34:56+09", INT64_C(1714566896000000), "20240501"},
        {"2024-05-01T07:04:56.000001-05:30", INT64_C(1714566896000001), "20240501"},
        {"2024-05-01T01:30:00.250000+09:00", INT64_C(1714494600250000), "20240501"},
        {"2024-04-30T23:59:59.999999999-00:00", INT64_C(1714521599999999), "20240430"},
        {"2024-02-29T00:00:00Z", INT64_C(1709164800000000), "20240229"},
        {"2000-02-29T23:59:59+23:59", INT64_C(951782459000000), "20000229"},
        {"1970-01-01T00:00:00Z", INT64_C(0), "19700101"},
        {"9999-12-31T23:59:59Z", INT64_C(253402300799000000), "99991231"},
        {"0001-01-01T00:00:00Z", INT64_C(-62135596800000000), "00010101"},
        {"Wed, 01 May 2024 12:34:56 GMT", INT64_C(1714566896000000), "20240501"},
        {"Thu, 29 Feb 2024 00:00:00 GMT", INT64_C(1709164800000000), "20240229"},
        {"Sun, 06 Nov 1994 08:49:37 GMT", INT64_C(784111777000000), "19941106"},
        //  A wrong weekday is ignored, as dateutil ignores it.
        {"Mon, 01 May 2024 12:34:56 GMT", INT64_C(1714566896000000), "20240501"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t us = -1;
        char date_key[GW_AUTH_DATE_KEY_SIZE] = "";
        if (gw_auth_parse_date(cases[i].text, &us, date_key) != 0)
            T_FAIL_("rejected: %s", cases[i].text);
        T_EQ_INT(us, cases[i].epoch_us);
        T_EQ_STR(date_key, cases[i].date_key);
        T_EQ_INT(gw_auth_parse_date(cases[i].text, &us, NULL), 0);
    }
}

static void
test_parse_date_rejects(void)
{
    const char *cases[] = {
        "",
        " ",
        "garbage",
        "2024",
        "2024-05-01",
        "2024-05-01T",
        "2024-05-01T12:34",
        "2024-05-01T12:34:5",
        "2024-13-01T00:00:00Z",
        "2024-00-10T00:00:00Z",
        "2023-02-29T00:00:00Z",
        "1900-02-29T00:00:00Z",
        "2024-04-31T00:00:00Z",
        "2024-05-00T00:00:00Z",
        "2024-05-32T00:00:00Z",
        "2024-05-01T24:00:00Z",
        "2024-05-01T12:60:00Z",
        "2024-05-01T12:34:60Z",
        "2024-05-01T12:34:56+24:00",
        "2024-05-01T12:34:56+09:60",
        "2024-05-01T12:34:56+9",
        "2024-05-01T12:34:56+090",
        "2024-05-01T12:34:56+09:",
        "2024-05-01T12:34:56+09:0",
        "2024-05-01T12:34:56+",
        "2024-05-01T12:34:56.",
        "2024-05-01T12:34:56.1234567890",
        "2024-05-01T12:34:56.x",
        "2024-05-01T12:34:56Zjunk",
        "2024-05-01T12:34:56 ",
        " 2024-05-01T12:34:56",
        "2024-05-01T12:34:56ZZ",
        "2024-05-01T12:34:56z",
        "2024-05-01t12:34:56",
        "2024-5-01T12:34:56Z",
        "24-05-01T12:34:56Z",
        "2024/05/01 12:34:56",
        "2024-05-01X12:34:56",
        "2024-05-01T12-34-56",
        "2024-05-01T12:34:56\n",
        "2024-05-01T12:34:56 UTC",
        "0000-01-01T00:00:00Z",
        "-2024-05-01T12:34:56Z",
        "+2024-05-01T12:34:56Z",
        "Wed, 01 May 2024 12:34:56 UTC",
        "Wed, 01 May 2024 12:34:56",
        "Wed, 1 May 2024 12:34:56 GMT",
        "Wed 01 May 2024 12:34:56 GMT",
        "wed, 01 may 2024 12:34:56 GMT",
        "Wed, 01 Foo 2024 12:34:56 GMT",
        "Xyz, 01 May 2024 12:34:56 GMT",
        "Wed, 31 Apr 2024 12:34:56 GMT",
        "Wed, 01 May 2024 25:34:56 GMT",
        "Wed, 01 May 2024 12:34:56 GMT ",
        "Wed, 01 May 24 12:34:56 GMT",
        "Wednesday, 01-May-24 12:34:56 GMT",
        "Wed May  1 12:34:56 2024",
        "1714566896",
        "\xef\xbc\x92\xef\xbc\x90\xef\xbc\x92\xef\xbc\x94-05-01T12:34:56Z"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t us = 42;
        char date_key[GW_AUTH_DATE_KEY_SIZE] = "";
        if (gw_auth_parse_date(cases[i], &us, date_key) != -1)
            T_FAIL_("accepted: \"%s\"", cases[i]);
    }
    int64_t us;
    T_EQ_INT(gw_auth_parse_date(NULL, &us, NULL), -1);
}

static void
test_content_type(void)
{
    struct {
        const char *value, *expect;
    } cases[] = {
        {NULL, "application/octet-stream"},
        {"", "application/octet-stream"},
        {"   ", "application/octet-stream"},
        {"application/json", "application/json"},
        {"Application/JSON; charset=UTF-8", "application/json"},
        {"  text/plain  ", "text/plain"},
        {"text/plain;", "text/plain"},
        {"application/json ;x=1", "application/json"},
        {"application/json\t", "application/json"},
        {"multipart/form-data; boundary=----abc", "multipart/form-data"},
        {"application/problem+json", "application/problem+json"},
        {"application/ json", "application/ json"},
        {"/", "/"},
        //  Not type/subtype: aiohttp >= 3.14 says octet-stream.
        {"text", "application/octet-stream"},
        {"a/b/c", "application/octet-stream"},
        {";", "application/octet-stream"},
        {"application/json, text/plain", "application/octet-stream"},
    };
    char out[GW_AUTH_CONTENT_TYPE_SIZE];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        T_EQ_INT(gw_auth_content_type(cases[i].value, out, sizeof out), 0);
        T_EQ_STR(out, cases[i].expect);
    }
    char small[16];
    T_EQ_INT(gw_auth_content_type("text/plain", small, sizeof small), 0);
    T_EQ_INT(gw_auth_content_type("application/json", small, sizeof small), -1);
    T_EQ_INT(gw_auth_content_type(NULL, small, sizeof small), -1);
    char exact[17];
    T_EQ_INT(gw_auth_content_type("application/json", exact, sizeof exact), 0);
    T_EQ_INT(gw_auth_content_type("application/jsonx", exact, sizeof exact), -1);
}

static void
test_versions(void)
{
    const char *supported[] = {"v4.20181215", "v4.20190115", "v4.20190315", "v4.20190615",
                               "v5.20191215", "v6.20200815", "v6.20220315", "v6.20220615",
                               "v6.20221201", "v6.20230315", "v7.20230615", "v8.20240315",
                               "v8.20240915", "v9.20250722"};
    for (size_t i = 0; i < sizeof supported / sizeof supported[0]; i++) {
        T_ASSERT(gw_auth_version_supported(supported[i]));
        T_EQ_INT(gw_auth_parse_version(supported[i], NULL, NULL), 0);
    }
    const char *unsupported[] = {"",
                                 NULL,
                                 "v3.20181215",
                                 "v4.20181214",
                                 "v6.20210815",
                                 "v9.20250723",
                                 "V6.20220315",
                                 "v6.20220315 ",
                                 "v10.20250722"};
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
        T_ASSERT(!gw_auth_version_supported(unsupported[i]));

    int major = -1, date = -1;
    T_EQ_INT(gw_auth_parse_version("v6.20220315", &major, &date), 0);
    T_EQ_INT(major, 6);
    T_EQ_INT(date, 20220315);
    T_EQ_INT(gw_auth_parse_version("v12.20300101", &major, &date), 0);
    T_EQ_INT(major, 12);
    T_EQ_INT(date, 20300101);
    T_EQ_INT(gw_auth_parse_version("v06.20220315", &major, &date), 0);
    T_EQ_INT(major, 6);
    T_EQ_INT(gw_auth_parse_version("v123456789.20220315", &major, &date), 0);
    T_EQ_INT(major, 123456789);
    const char *malformed[] = {NULL,
                               "",
                               "v",
                               "v6",
                               "v6.",
                               "v.20220315",
                               "6.20220315",
                               "V6.20220315",
                               "v6.2022031",
                               "v6.202203150",
                               "v6.2022031x",
                               "v6_20220315",
                               "v6.20220315\n",
                               " v6.20220315",
                               "v-6.20220315",
                               "v1234567890.20220315"};
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++)
        if (gw_auth_parse_version(malformed[i], &major, &date) != -1)
            T_FAIL_("accepted: \"%s\"", malformed[i]);
}

//  ---------------------------------------------------------------------------
//  Whole requests

//  A request as a client would send it; NULL fields are left out.
typedef struct {
    const char *method, *target, *content_type, *date, *host, *version;
    const char *date_header;    //  "Date" unless set
    const char *version_header; //  "X-BackendAI-Version" unless set
    const char *auth_type;      //  "BackendAI" unless set
    const char *sign_method;    //  "HMAC-SHA256" unless set
    const char *access_key;     //  EXAMPLE_AK unless set
    const char *secret;         //  EXAMPLE_SK unless set
} request_t;

static request_t
s_example(void)
{
    return (request_t){.method = "POST",
                       .target = "/session",
                       .content_type = "application/json",
                       .date = EXAMPLE_DATE,
                       .host = EXAMPLE_HOST,
                       .version = EXAMPLE_VERSION};
}

static void
s_headers_init(struct evkeyvalq *headers)
{
    headers->tqh_first = NULL;
    headers->tqh_last = &headers->tqh_first;
}

//  Fills headers with r, signed with the client's algorithm.
static void
s_build(struct evkeyvalq *headers, const request_t *r)
{
    s_headers_init(headers);
    const char *sign_method = r->sign_method ? r->sign_method : "HMAC-SHA256";
    const char *version_header =
        r->version_header ? r->version_header : "X-BackendAI-Version";
    char hash[GW_AUTH_HASH_NAME_SIZE] = "sha256";
    const char *dash = strchr(sign_method, '-');
    if (dash && strlen(dash + 1) < sizeof hash)
        for (size_t i = 0; i <= strlen(dash + 1); i++)
            hash[i] = (char) tolower((unsigned char) dash[1 + i]);
    int64_t us;
    char date_key[GW_AUTH_DATE_KEY_SIZE] = "20240501";
    if (r->date)
        gw_auth_parse_date(r->date, &us, date_key);
    char content_type[GW_AUTH_CONTENT_TYPE_SIZE] = "";
    gw_auth_content_type(r->content_type, content_type, sizeof content_type);
    const char *line = strcmp(version_header, "X-Sorna-Version") == 0
                           ? GW_AUTH_LEGACY_VERSION_LINE
                           : GW_AUTH_VERSION_LINE;
    char signature[GW_AUTH_HEX_SIZE] = "";
    gw_auth_signature(hash, r->secret ? r->secret : EXAMPLE_SK, r->method, r->target,
                      r->date ? r->date : "", date_key, r->host ? r->host : "",
                      content_type, line, r->version ? r->version : "", signature,
                      sizeof signature);
    char authorization[512];
    snprintf(authorization, sizeof authorization, "%s signMethod=%s, credential=%s:%s",
             r->auth_type ? r->auth_type : "BackendAI", sign_method,
             r->access_key ? r->access_key : EXAMPLE_AK, signature);
    if (r->host)
        evhttp_add_header(headers, "Host", r->host);
    if (r->date)
        evhttp_add_header(headers, r->date_header ? r->date_header : "Date", r->date);
    if (r->version)
        evhttp_add_header(headers, version_header, r->version);
    if (r->content_type)
        evhttp_add_header(headers, "Content-Type", r->content_type);
    evhttp_add_header(headers, "User-Agent", "Backend.AI Client for Python 22.03.2");
    evhttp_add_header(headers, "Authorization", authorization);
}

static const char *
s_lookup(void *arg, const char *access_key)
{
    int *calls = arg;
    if (calls)
        (*calls)++;
    if (strcmp(access_key, EXAMPLE_AK) == 0)
        return EXAMPLE_SK;
    if (strcmp(access_key, OTHER_AK) == 0)
        return OTHER_SK;
    return NULL;
}

//  Verifies r as received with method and target at now_us.
static gw_auth_rc_t
s_verify_as(const request_t *r,
            const char *method,
            const char *target,
            int64_t now_us,
            gw_auth_problem_t *problem)
{
    struct evkeyvalq headers;
    s_build(&headers, r);
    gw_auth_params_t params;
    gw_auth_rc_t rc = gw_auth_verify(&headers, method, target, s_lookup, NULL, now_us,
                                     GW_AUTH_MAX_SKEW_US, &params, problem);
    evhttp_clear_headers(&headers);
    return rc;
}

static gw_auth_rc_t
s_verify(const request_t *r, gw_auth_problem_t *problem)
{
    return s_verify_as(r, r->method, r->target, EXAMPLE_NOW_US, problem);
}

static void
test_verify_signed_request(void)
{
    request_t r = s_example();
    struct evkeyvalq headers;
    s_build(&headers, &r);
    gw_auth_params_t params;
    gw_auth_problem_t problem;
    T_EQ_INT(
        gw_auth_extract(&headers, EXAMPLE_NOW_US, GW_AUTH_MAX_SKEW_US, &params, &problem),
        GW_AUTH_SIGNED);
    T_ASSERT(!problem.slug);
    T_EQ_STR(params.credential.access_key, EXAMPLE_AK);
    T_EQ_STR(params.credential.signature,
             "bf9fff1201b7c2370b2f9baf1afc3ecaf6e60d04d3f0fb3c7cbb4b028a160d00");
    T_EQ_STR(params.date_raw, EXAMPLE_DATE);
    T_EQ_INT(params.date_us, EXAMPLE_NOW_US);
    T_EQ_STR(params.date_key, "20240501");
    T_EQ_STR(params.host, EXAMPLE_HOST);
    T_EQ_STR(params.content_type, "application/json");
    T_EQ_STR(params.version, EXAMPLE_VERSION);
    T_EQ_STR(params.version_line, GW_AUTH_VERSION_LINE);
    T_EQ_INT(gw_auth_check(&params, "POST", "/session", EXAMPLE_SK, &problem), 0);
    T_ASSERT(!problem.slug);
    evhttp_clear_headers(&headers);

    //  The other worked examples, through the whole path; header names in any case.
    request_t others[] = {
        {.method = "GET", .target = "/folders/_/hosts", .content_type = "text/plain"},
        {.method = "DELETE",
         .target = "/session/mysess-01?forced=true",
         .content_type = "text/plain"},
        {.method = "GET",
         .target = "/stream/session/mysess-01/pty",
         .content_type = NULL},
        {.method = "POST",
         .target = "/folders",
         .content_type = "Application/JSON; charset=utf-8"},
        {.method = "GET",
         .target = "/",
         .content_type = "text/plain",
         .date = "Wed, 01 May 2024 12:34:56 GMT"},
        {.method = "GET",
         .target = "/",
         .content_type = "text/plain",
         .date = "2024-05-01T21:40:00+09:00"},
        {.method = "GET",
         .target = "/",
         .content_type = "text/plain",
         .sign_method = "HMAC-SHA512"},
        {.method = "GET",
         .target = "/",
         .content_type = "text/plain",
         .sign_method = "hmac-sha1",
         .access_key = OTHER_AK,
         .secret = OTHER_SK},
        {.method = "GET",
         .target = "/",
         .content_type = "text/plain",
         .date_header = "date",
         .version_header = "x-backendai-version"},
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        request_t o = others[i];
        o.host = EXAMPLE_HOST;
        o.version = EXAMPLE_VERSION;
        if (!o.date)
            o.date = EXAMPLE_DATE;
        if (s_verify(&o, &problem) != GW_AUTH_SIGNED)
            T_FAIL_("case %zu: %s %s", i, problem.slug, problem.detail);
    }
    //  The lookup runs once, for a signed request only.
    int calls = 0;
    s_build(&headers, &r);
    T_EQ_INT(gw_auth_verify(&headers, "POST", "/session", s_lookup, &calls,
                            EXAMPLE_NOW_US, GW_AUTH_MAX_SKEW_US, NULL, &problem),
             GW_AUTH_SIGNED);
    T_EQ_INT(calls, 1);
    evhttp_clear_headers(&headers);
}

static void
test_verify_skew(void)
{
    request_t r = s_example();
    gw_auth_problem_t problem;
    //  Inside the window: Date may lag or lead now by up to 15 minutes.
    int64_t inside[] = {0, 14 * MINUTE_US, -14 * MINUTE_US, 15 * MINUTE_US - 1,
                        -15 * MINUTE_US + 1};
    for (size_t i = 0; i < sizeof inside / sizeof inside[0]; i++)
        T_EQ_INT(
            s_verify_as(&r, "POST", "/session", EXAMPLE_NOW_US + inside[i], &problem),
            GW_AUTH_SIGNED);
    //  Outside, the bounds excluded as the manager excludes them.
    int64_t outside[] = {15 * MINUTE_US,      -15 * MINUTE_US,
                         16 * MINUTE_US,      -16 * MINUTE_US,
                         24 * 60 * MINUTE_US, -365 * 24 * 60 * MINUTE_US};
    for (size_t i = 0; i < sizeof outside / sizeof outside[0]; i++) {
        T_EQ_INT(
            s_verify_as(&r, "POST", "/session", EXAMPLE_NOW_US + outside[i], &problem),
            GW_AUTH_FAILED);
        T_EQ_STR(problem.slug, "invalid-auth-params");
        T_EQ_STR(problem.detail, "Date/time sync error");
    }
}

static void
test_verify_tampering(void)
{
    request_t r = s_example();
    gw_auth_problem_t problem;
    //  Each a request signed for one thing and received as another.
    T_EQ_INT(s_verify_as(&r, "PUT", "/session", EXAMPLE_NOW_US, &problem),
             GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "auth-failed");
    T_EQ_STR(problem.detail, "HMAC signature mismatch");
    T_EQ_INT(s_verify_as(&r, "POST", "/sessions", EXAMPLE_NOW_US, &problem),
             GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "auth-failed");
    T_EQ_INT(s_verify_as(&r, "POST", "/session?x=1", EXAMPLE_NOW_US, &problem),
             GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "auth-failed");
    r.target = "/session/mysess-01?forced=true";
    r.method = "DELETE";
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_SIGNED);
    T_EQ_INT(s_verify_as(&r, "DELETE", "/session/mysess-01?forced=false", EXAMPLE_NOW_US,
                         &problem),
             GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "auth-failed");
    //  The target is compared as received: an equivalent encoding is another target.
    T_EQ_INT(s_verify_as(&r, "DELETE", "/session/mysess%2D01?forced=true", EXAMPLE_NOW_US,
                         &problem),
             GW_AUTH_FAILED);

    //  Wrong secret: signed with another key's secret.
    r = s_example();
    r.secret = OTHER_SK;
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "auth-failed");
    T_EQ_STR(problem.detail, "HMAC signature mismatch");

    //  Headers changed after signing.
    struct {
        const char *name, *value;
    } edits[] = {
        {"Host", "127.0.0.1:8082"},
        {"Host", "localhost:8081"},
        {"Content-Type", "text/plain"},
        {"Date", "2024-05-01T12:34:56.789012Z"}, //  same instant, other bytes
        {"X-BackendAI-Version", "v6.20220615"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        struct evkeyvalq headers;
        r = s_example();
        s_build(&headers, &r);
        evhttp_remove_header(&headers, edits[i].name);
        evhttp_add_header(&headers, edits[i].name, edits[i].value);
        gw_auth_rc_t rc =
            gw_auth_verify(&headers, "POST", "/session", s_lookup, NULL, EXAMPLE_NOW_US,
                           GW_AUTH_MAX_SKEW_US, NULL, &problem);
        evhttp_clear_headers(&headers);
        if (rc != GW_AUTH_FAILED)
            T_FAIL_("accepted %s: %s", edits[i].name, edits[i].value);
        T_EQ_STR(problem.slug, "auth-failed");
    }
    //  Content-Type parameters and case are not signed.
    struct evkeyvalq headers;
    r = s_example();
    s_build(&headers, &r);
    evhttp_remove_header(&headers, "Content-Type");
    evhttp_add_header(&headers, "Content-Type", "APPLICATION/json; charset=utf-8");
    T_EQ_INT(gw_auth_verify(&headers, "POST", "/session", s_lookup, NULL, EXAMPLE_NOW_US,
                            GW_AUTH_MAX_SKEW_US, NULL, &problem),
             GW_AUTH_SIGNED);
    evhttp_clear_headers(&headers);
}

static void
test_verify_versions(void)
{
    gw_auth_problem_t problem;
    request_t r = s_example();
    r.version = "v6.20210815";
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "generic-bad-request");
    T_EQ_STR(problem.detail, "Unsupported API version.");
    //  An empty X-BackendAI-Version counts as none ("new or legacy"), an
    //  empty X-Sorna-Version alone as a version that is not supported.
    r.version = "";
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "invalid-auth-params");
    T_EQ_STR(problem.detail, "API version missing in request headers");
    r.version_header = "X-Sorna-Version";
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "generic-bad-request");

    //  Legacy: X-Sorna-Version is signed as "x-sorna-version:", with type Sorna.
    r = s_example();
    r.version_header = "X-Sorna-Version";
    r.auth_type = "Sorna";
    r.version = "v4.20181215";
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_SIGNED);
    struct evkeyvalq headers;
    s_build(&headers, &r);
    gw_auth_params_t params;
    T_EQ_INT(
        gw_auth_extract(&headers, EXAMPLE_NOW_US, GW_AUTH_MAX_SKEW_US, &params, &problem),
        GW_AUTH_SIGNED);
    T_EQ_STR(params.version_line, GW_AUTH_LEGACY_VERSION_LINE);
    T_EQ_STR(params.credential.auth_type, "Sorna");
    evhttp_clear_headers(&headers);
    //  The unsupported check applies to the legacy header too.
    r.version = "v3.20181215";
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "generic-bad-request");

    //  No version on a signed request: 400 after the key lookup.
    r = s_example();
    r.version = NULL;
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "invalid-auth-params");
    T_EQ_STR(problem.detail, "API version missing in request headers");
    //  ... but an unknown key wins, as the manager looks the key up first.
    r.access_key = "AKIAUNKNOWN";
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "auth-failed");
    T_EQ_STR(problem.detail, GW_AUTH_DETAIL_UNKNOWN_KEY);

    //  An unsigned request is checked for its version as well.
    s_headers_init(&headers);
    evhttp_add_header(&headers, "X-BackendAI-Version", "v2.20170915");
    T_EQ_INT(
        gw_auth_extract(&headers, EXAMPLE_NOW_US, GW_AUTH_MAX_SKEW_US, &params, &problem),
        GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "generic-bad-request");
    evhttp_clear_headers(&headers);
    evhttp_add_header(&headers, "X-BackendAI-Version", "v9.20250722");
    T_EQ_INT(
        gw_auth_extract(&headers, EXAMPLE_NOW_US, GW_AUTH_MAX_SKEW_US, &params, &problem),
        GW_AUTH_ANONYMOUS);
    T_EQ_STR(params.version, "v9.20250722");
    evhttp_clear_headers(&headers);
}

static void
test_verify_date_headers(void)
{
    gw_auth_problem_t problem;
    request_t r = s_example();
    r.date_header = "X-BackendAI-Date";
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_SIGNED);
    r.date_header = "X-Sorna-Date";
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_SIGNED);
    r.date_header = "X-Other-Date";
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "invalid-auth-params");
    T_CONTAINS(problem.detail, "Date/time sync error");
    r.date = NULL;
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "invalid-auth-params");
    T_CONTAINS(problem.detail, "Date/time sync error");
    r = s_example();
    r.date = "2024-05-01T12:34:56.789012+00:00 junk";
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "invalid-auth-params");
    T_CONTAINS(problem.detail, "Date/time sync error");

    //  Date wins over the fallbacks; an empty Date falls back.
    struct evkeyvalq headers;
    r = s_example();
    s_build(&headers, &r);
    evhttp_add_header(&headers, "X-BackendAI-Date", "2000-01-01T00:00:00Z");
    T_EQ_INT(gw_auth_verify(&headers, "POST", "/session", s_lookup, NULL, EXAMPLE_NOW_US,
                            GW_AUTH_MAX_SKEW_US, NULL, &problem),
             GW_AUTH_SIGNED);
    evhttp_clear_headers(&headers);
    r.date_header = "X-BackendAI-Date";
    s_build(&headers, &r);
    evhttp_add_header(&headers, "Date", "");
    T_EQ_INT(gw_auth_verify(&headers, "POST", "/session", s_lookup, NULL, EXAMPLE_NOW_US,
                            GW_AUTH_MAX_SKEW_US, NULL, &problem),
             GW_AUTH_SIGNED);
    evhttp_clear_headers(&headers);

    //  Duplicated signed headers are refused.
    const char *duplicated[][2] = {
        {"Date", EXAMPLE_DATE},
        {"date", "Wed, 01 May 2024 12:34:56 GMT"},
        {"Authorization", "BackendAI signMethod=HMAC-SHA256, credential=AK1:00"},
        {"X-BackendAI-Version", EXAMPLE_VERSION},
        {"Host", EXAMPLE_HOST},
        {"Content-Type", "application/json"},
    };
    for (size_t i = 0; i < sizeof duplicated / sizeof duplicated[0]; i++) {
        r = s_example();
        s_build(&headers, &r);
        evhttp_add_header(&headers, duplicated[i][0], duplicated[i][1]);
        gw_auth_rc_t rc =
            gw_auth_verify(&headers, "POST", "/session", s_lookup, NULL, EXAMPLE_NOW_US,
                           GW_AUTH_MAX_SKEW_US, NULL, &problem);
        evhttp_clear_headers(&headers);
        if (rc != GW_AUTH_FAILED)
            T_FAIL_("accepted a second %s", duplicated[i][0]);
        T_EQ_STR(problem.slug, "invalid-auth-params");
        T_CONTAINS(problem.detail, "Duplicated");
    }
    r = s_example();
    r.date_header = "X-Sorna-Date";
    s_build(&headers, &r);
    evhttp_add_header(&headers, "X-Sorna-Date", EXAMPLE_DATE);
    T_EQ_INT(gw_auth_verify(&headers, "POST", "/session", s_lookup, NULL, EXAMPLE_NOW_US,
                            GW_AUTH_MAX_SKEW_US, NULL, &problem),
             GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "invalid-auth-params");
    evhttp_clear_headers(&headers);
}

static void
test_verify_authorization_failures(void)
{
    gw_auth_problem_t problem;
    gw_auth_params_t params;
    struct evkeyvalq headers;
    //  No Authorization, or an empty one: an unsigned request.
    request_t r = s_example();
    s_build(&headers, &r);
    evhttp_remove_header(&headers, "Authorization");
    T_EQ_INT(
        gw_auth_extract(&headers, EXAMPLE_NOW_US, GW_AUTH_MAX_SKEW_US, &params, &problem),
        GW_AUTH_ANONYMOUS);
    T_ASSERT(!problem.slug);
    evhttp_add_header(&headers, "Authorization", "");
    int calls = 0;
    T_EQ_INT(gw_auth_verify(&headers, "POST", "/session", s_lookup, &calls,
                            EXAMPLE_NOW_US, GW_AUTH_MAX_SKEW_US, NULL, &problem),
             GW_AUTH_ANONYMOUS);
    T_EQ_INT(calls, 0);
    evhttp_clear_headers(&headers);

    //  Replaced Authorization headers: slug, detail, and whether the key is looked up.
    struct {
        const char *authorization, *slug, *detail;
        int lookups;
    } cases[] = {
        {"BackendAI", "invalid-auth-params", "Malformed authorization header", 0},
        {"Basic dXNlcjpwYXNz", "invalid-auth-params", "Invalid authorization type name",
         0},
        {"BackendAI signMethod=HMAC-SHA256", "invalid-auth-params",
         "Missing or malformed authorization parameters", 0},
        {"BackendAI signMethod=HMAC-SHA256, credential=" EXAMPLE_AK,
         "invalid-auth-params", "Missing or malformed authorization parameters", 0},
        {"BackendAI signMethod=HMAC-SHA256, credential=AKIA-BAD:00", "auth-failed",
         "Malformed access key", 0},
        {"BackendAI signMethod=HMAC-SHA256, credential=AKIAUNKNOWN:00", "auth-failed",
         GW_AUTH_DETAIL_UNKNOWN_KEY, 1},
        {"BackendAI signMethod=HMAC-MD5, credential=" EXAMPLE_AK ":00",
         "invalid-auth-params", "Unsupported request signing method (hash type)", 1},
        {"BackendAI signMethod=RSA-SHA256, credential=" EXAMPLE_AK ":00",
         "invalid-auth-params", "Unsupported request signing method (MAC type)", 1},
        {"BackendAI signMethod=HMAC-SHA-256, credential=" EXAMPLE_AK ":00", "auth-failed",
         "Invalid signature", 1},
        {"BackendAI signMethod=HMAC-SHA256, credential=" EXAMPLE_AK ":00", "auth-failed",
         "HMAC signature mismatch", 1},
        {"BackendAI signMethod=HMAC-SHA256, credential=" EXAMPLE_AK
         ":BF9FFF1201B7C2370B2F9BAF1AFC3ECAF6E60D04D3F0FB3C7CBB4B028A160D00",
         "auth-failed", "HMAC signature mismatch", 1},
        //  The right signature under another key.
        {"BackendAI signMethod=HMAC-SHA256, credential=" OTHER_AK
         ":bf9fff1201b7c2370b2f9baf1afc3ecaf6e60d04d3f0fb3c7cbb4b028a160d00",
         "auth-failed", "HMAC signature mismatch", 1},
        //  The right signature under another hash name: its length is wrong.
        {"BackendAI signMethod=HMAC-SHA384, credential=" EXAMPLE_AK
         ":bf9fff1201b7c2370b2f9baf1afc3ecaf6e60d04d3f0fb3c7cbb4b028a160d00",
         "auth-failed", "HMAC signature mismatch", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        r = s_example();
        s_build(&headers, &r);
        evhttp_remove_header(&headers, "Authorization");
        evhttp_add_header(&headers, "Authorization", cases[i].authorization);
        calls = 0;
        gw_auth_rc_t rc =
            gw_auth_verify(&headers, "POST", "/session", s_lookup, &calls, EXAMPLE_NOW_US,
                           GW_AUTH_MAX_SKEW_US, NULL, &problem);
        evhttp_clear_headers(&headers);
        if (rc != GW_AUTH_FAILED)
            T_FAIL_("accepted: %s", cases[i].authorization);
        T_EQ_STR(problem.slug, cases[i].slug);
        T_EQ_STR(problem.detail, cases[i].detail);
        T_EQ_INT(calls, cases[i].lookups);
    }
    //  The Date is checked before the Authorization header is parsed.
    r = s_example();
    s_build(&headers, &r);
    evhttp_remove_header(&headers, "Authorization");
    evhttp_add_header(&headers, "Authorization", "BackendAI nonsense");
    T_EQ_INT(gw_auth_extract(&headers, EXAMPLE_NOW_US + 60 * MINUTE_US,
                             GW_AUTH_MAX_SKEW_US, &params, &problem),
             GW_AUTH_FAILED);
    T_EQ_STR(problem.detail, "Date/time sync error");
    evhttp_clear_headers(&headers);
}

static void
test_verify_host_and_content_type(void)
{
    gw_auth_problem_t problem;
    //  Without a Host header nothing can match (the manager would sign its FQDN).
    request_t r = s_example();
    r.host = NULL;
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "auth-failed");
    T_EQ_STR(problem.detail, "Missing Host header");
    //  IPv6 literal and default-port hosts are signed verbatim.
    r = s_example();
    r.host = "[::1]:8081";
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_SIGNED);
    r.host = "api.example.com";
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_SIGNED);
    //  A Content-Type too long to sign.
    char long_type[300] = "application/";
    memset(long_type + strlen(long_type), 'x', 200);
    long_type[212] = '\0';
    r = s_example();
    r.content_type = long_type;
    T_EQ_INT(s_verify(&r, &problem), GW_AUTH_FAILED);
    T_EQ_STR(problem.slug, "invalid-auth-params");
}

//  A secret key or signature never reaches the log, whatever fails.
static void
test_secrets_never_logged(void)
{
    FILE *capture = tmpfile();
    T_ASSERT(capture);
    bus_log_set_stream(capture);
    bus_log_set_level(BUS_LOG_DEBUG);
    gw_auth_problem_t problem;
    request_t r = s_example();
    s_verify_as(&r, "PUT", "/session", EXAMPLE_NOW_US, &problem); //  mismatch
    r.secret = OTHER_SK;
    s_verify(&r, &problem); //  wrong secret
    r = s_example();
    r.sign_method = "HMAC-MD5";
    s_verify(&r, &problem); //  deferred problem
    r = s_example();
    s_verify_as(&r, "POST", "/session", EXAMPLE_NOW_US + 60 * MINUTE_US,
                &problem); //  skew
    r.access_key = "AKIAUNKNOWN";
    s_verify(&r, &problem);
    bus_log_set_stream(NULL);
    bus_log_set_level(BUS_LOG_NOTICE);

    char text[8192];
    rewind(capture);
    size_t len = fread(text, 1, sizeof text - 1, capture);
    text[len] = '\0';
    fclose(capture);
    T_CONTAINS(text, "access_key=" EXAMPLE_AK);
    T_CONTAINS(text, "access_key=AKIAUNKNOWN");
    T_CONTAINS(text, "HMAC signature mismatch");
    T_ASSERT(!strstr(text, EXAMPLE_SK));
    T_ASSERT(!strstr(text, OTHER_SK));
    T_ASSERT(!strstr(text, "bf9fff12"));
    T_ASSERT(!strstr(text, "Authorization"));
    T_ASSERT(!strstr(text, "credential="));
}

int
main(void)
{
    T_RUN(test_worked_example_keys);
    T_RUN(test_worked_example_string_to_sign);
    T_RUN(test_worked_example_signatures);
    T_RUN(test_client_vectors);
    T_RUN(test_parse_authorization_accepts);
    T_RUN(test_parse_authorization_rejects);
    T_RUN(test_parse_date_accepts);
    T_RUN(test_parse_date_rejects);
    T_RUN(test_content_type);
    T_RUN(test_versions);
    T_RUN(test_verify_signed_request);
    T_RUN(test_verify_skew);
    T_RUN(test_verify_tampering);
    T_RUN(test_verify_versions);
    T_RUN(test_verify_date_headers);
    T_RUN(test_verify_authorization_failures);
    T_RUN(test_verify_host_and_content_type);
    T_RUN(test_secrets_never_logged);
    return T_DONE();
}
