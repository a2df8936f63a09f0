/*  =========================================================================
    bus_apptoken_test - app tokens for the wsproxy: round trips, forgery,
    expiry, another secret, storage tokens and claims that cannot pass

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "bus_apptoken.h"
#include "bus_token.h"
#include "t.h"

static const char s_secret[] = "0123456789abcdef-app-secret";
#define SECRET  s_secret, strlen(s_secret)
#define NOW     1700000000
#define EXPIRES (NOW + 60)

static bus_apptoken_claims_t
s_claims(void)
{
    bus_apptoken_claims_t claims;
    memset(&claims, 0, sizeof claims);
    snprintf(claims.session_id, sizeof claims.session_id,
             "6a3f1c2e-0b9d-4e8f-a1b2-c3d4e5f60718");
    snprintf(claims.kernel_id, sizeof claims.kernel_id,
             "7b4f1c2e-0b9d-4e8f-a1b2-c3d4e5f60719");
    snprintf(claims.app, sizeof claims.app, "jupyter");
    claims.protocol = BUS_APPTOKEN_HTTP;
    snprintf(claims.host, sizeof claims.host, "10.0.3.7");
    claims.port = 30001;
    snprintf(claims.access_key, sizeof claims.access_key, "AKIAIOSFODNN7EXAMPLE");
    snprintf(claims.user_uuid, sizeof claims.user_uuid,
             "f38dea23-50fa-42a0-b5ae-338f5f4693f4");
    claims.expires = EXPIRES;
    return claims;
}

static int
s_verify(const char *token, bus_apptoken_claims_t *out, bus_error_t *err)
{
    return bus_apptoken_verify(SECRET, token, strlen(token), NOW, out, err);
}

static void
test_round_trip(void)
{
    bus_apptoken_claims_t in = s_claims();
    bus_error_t err = {0};
    char *token = bus_apptoken_sign(SECRET, &in, &err);
    T_ASSERT(token);
    T_EQ_INT(strlen(in.nonce), 32); //  filled in
    bus_apptoken_claims_t out;
    T_EQ_INT(s_verify(token, &out, &err), BUS_OK);
    T_EQ_STR(out.session_id, in.session_id);
    T_EQ_STR(out.kernel_id, in.kernel_id);
    T_EQ_STR(out.app, "jupyter");
    T_EQ_INT(out.protocol, BUS_APPTOKEN_HTTP);
    T_EQ_STR(out.host, "10.0.3.7");
    T_EQ_INT(out.port, 30001);
    T_EQ_STR(out.access_key, in.access_key);
    T_EQ_STR(out.user_uuid, in.user_uuid);
    T_EQ_INT(out.expires, EXPIRES);
    T_EQ_STR(out.nonce, in.nonce);
    //  two tokens for the same claims differ (the nonce)
    bus_apptoken_claims_t again = s_claims();
    char *other = bus_apptoken_sign(SECRET, &again, &err);
    T_ASSERT(other && strcmp(other, token) != 0);
    free(other);
    free(token);
}

static void
test_forged(void)
{
    bus_apptoken_claims_t in = s_claims();
    bus_error_t err = {0};
    char *token = bus_apptoken_sign(SECRET, &in, &err);
    T_ASSERT(token);
    bus_apptoken_claims_t out;
    //  every single-character change is refused
    size_t len = strlen(token);
    for (size_t i = 0; i < len; i++) {
        char saved = token[i];
        token[i] = saved == 'A' ? 'B' : 'A';
        int rc = s_verify(token, &out, &err);
        T_ASSERT(rc == BUS_STATUS_FORBIDDEN || rc == BUS_STATUS_INVALID);
        T_EQ_STR(out.session_id, "");
        token[i] = saved;
    }
    //  another secret
    static const char other[] = "another-secret-of-enough-bytes";
    T_EQ_INT(bus_apptoken_verify(other, strlen(other), token, len, NOW, &out, &err),
             BUS_STATUS_FORBIDDEN);
    T_CONTAINS(err.detail, "signature");
    //  claims of another user spliced onto this signature
    bus_apptoken_claims_t mallory = s_claims();
    snprintf(mallory.user_uuid, sizeof mallory.user_uuid, "mallory");
    char *theirs = bus_apptoken_sign(other, strlen(other), &mallory, &err);
    T_ASSERT(theirs);
    char spliced[BUS_TOKEN_MAX_LEN];
    snprintf(spliced, sizeof spliced, "%.*s%s", (int) (strchr(theirs, '.') - theirs),
             theirs, strchr(token, '.'));
    T_EQ_INT(s_verify(spliced, &out, &err), BUS_STATUS_FORBIDDEN);
    free(theirs);
    //  garbage
    T_EQ_INT(s_verify("", &out, &err), BUS_STATUS_INVALID);
    T_EQ_INT(s_verify("no-dot", &out, &err), BUS_STATUS_INVALID);
    T_EQ_INT(s_verify("a.b", &out, &err), BUS_STATUS_INVALID);
    free(token);
}

static void
test_expired(void)
{
    bus_apptoken_claims_t in = s_claims();
    bus_error_t err = {0};
    char *token = bus_apptoken_sign(SECRET, &in, &err);
    T_ASSERT(token);
    bus_apptoken_claims_t out;
    T_EQ_INT(bus_apptoken_verify(SECRET, token, strlen(token), EXPIRES - 1, &out, &err),
             BUS_OK);
    T_EQ_INT(bus_apptoken_verify(SECRET, token, strlen(token), EXPIRES, &out, &err),
             BUS_STATUS_FORBIDDEN);
    T_CONTAINS(err.detail, "expired");
    free(token);
}

static void
test_not_an_app_token(void)
{
    //  a storage download token signed with the same secret
    bus_token_claims_t storage;
    memset(&storage, 0, sizeof storage);
    storage.op = BUS_TOKEN_DOWNLOAD;
    snprintf(storage.volume, sizeof storage.volume, "volume1");
    snprintf(storage.folder, sizeof storage.folder, "f1");
    storage.expires = EXPIRES;
    bus_error_t err = {0};
    char *token = bus_token_sign(SECRET, &storage, &err);
    T_ASSERT(token);
    bus_apptoken_claims_t out;
    T_EQ_INT(s_verify(token, &out, &err), BUS_STATUS_FORBIDDEN);
    T_CONTAINS(err.detail, "not an app token");
    free(token);
    //  and an app token is no download token
    bus_apptoken_claims_t in = s_claims();
    token = bus_apptoken_sign(SECRET, &in, &err);
    T_ASSERT(token);
    T_EQ_INT(bus_token_verify(SECRET, token, strlen(token), NOW, BUS_TOKEN_DOWNLOAD,
                              &storage, &err),
             BUS_STATUS_INVALID);
    free(token);
}

//  Seals hand-written claims, as a buggy or hostile signer with the secret
//  could, and expects verify to refuse claim why.
static void
s_refuses(const char *json, const char *why)
{
    json_error_t jerr;
    json_t *root = json_loads(json, 0, &jerr);
    bus_error_t err = {0};
    char *token = root ? bus_token_seal(SECRET, root, &err) : NULL;
    json_decref(root);
    bus_apptoken_claims_t out;
    int rc = token ? s_verify(token, &out, &err) : -1;
    free(token);
    if (rc != BUS_STATUS_INVALID || !strstr(err.detail, why))
        fprintf(stderr, "# %s: rc=%d detail=%s\n", json, rc, err.detail);
    t_current_failed |= rc != BUS_STATUS_INVALID || !strstr(err.detail, why);
}

#define BASE                                                                             \
    "\"op\":\"app\",\"kernel_id\":\"\",\"access_key\":\"\",\"nonce\":\"abc\","           \
    "\"exp\":1700000060,\"user_uuid\":\"u\""

static void
test_bad_claims(void)
{
    s_refuses("{" BASE ",\"session_id\":\"s\",\"app\":\"j\",\"protocol\":\"http\","
              "\"host\":\"h\",\"port\":0}",
              "port");
    s_refuses("{" BASE ",\"session_id\":\"s\",\"app\":\"j\",\"protocol\":\"http\","
              "\"host\":\"h\",\"port\":65536}",
              "port");
    s_refuses("{" BASE ",\"session_id\":\"s\",\"app\":\"../x\",\"protocol\":\"http\","
              "\"host\":\"h\",\"port\":1}",
              "app");
    s_refuses("{" BASE ",\"session_id\":\"s\",\"app\":\"j\",\"protocol\":\"pty\","
              "\"host\":\"h\",\"port\":1}",
              "protocol");
    s_refuses("{" BASE ",\"session_id\":\"\",\"app\":\"j\",\"protocol\":\"tcp\","
              "\"host\":\"h\",\"port\":1}",
              "session_id");
    s_refuses("{" BASE ",\"session_id\":\"s\",\"app\":\"j\",\"protocol\":\"tcp\","
              "\"host\":\"h\\r\\nX: y\",\"port\":1}",
              "host");
    s_refuses("{" BASE ",\"session_id\":\"s\",\"app\":\"j\",\"protocol\":\"tcp\","
              "\"port\":1}",
              "host");
    //  and sign refuses what verify would
    bus_apptoken_claims_t in = s_claims();
    in.port = 0;
    bus_error_t err = {0};
    T_ASSERT(!bus_apptoken_sign(SECRET, &in, &err));
    in = s_claims();
    snprintf(in.app, sizeof in.app, "a b");
    T_ASSERT(!bus_apptoken_sign(SECRET, &in, &err));
    in = s_claims();
    T_ASSERT(!bus_apptoken_sign("short", 5, &in, &err));
    //  preopen is served as http
    bus_apptoken_protocol_t protocol;
    T_EQ_INT(bus_apptoken_protocol_parse("preopen", &protocol), 0);
    T_EQ_INT(protocol, BUS_APPTOKEN_HTTP);
    T_EQ_INT(bus_apptoken_protocol_parse("tcp", &protocol), 0);
    T_EQ_INT(protocol, BUS_APPTOKEN_TCP);
    T_EQ_INT(bus_apptoken_protocol_parse("vnc", &protocol), -1);
}

//  Endpoint tokens: a round trip, and neither kind passes for the other.
static void
test_endpoint_tokens(void)
{
    bus_error_t err = {0};
    bus_apptoken_endpoint_t claims = {0}, got;
    snprintf(claims.endpoint_id, sizeof claims.endpoint_id, "ep-1");
    snprintf(claims.user_uuid, sizeof claims.user_uuid, "user-1");
    claims.expires = EXPIRES;
    char *token = bus_apptoken_endpoint_sign(SECRET, &claims, &err);
    T_ASSERT(token);
    T_EQ_INT(bus_apptoken_endpoint_verify(SECRET, token, strlen(token), NOW, &got, &err),
             BUS_OK);
    T_EQ_STR(got.endpoint_id, "ep-1");
    T_EQ_STR(got.user_uuid, "user-1");
    T_ASSERT(got.expires == EXPIRES);
    T_EQ_INT(
        bus_apptoken_endpoint_verify(SECRET, token, strlen(token), EXPIRES, &got, &err),
        BUS_STATUS_FORBIDDEN);
    T_EQ_STR(err.detail, "token expired");
    bus_apptoken_claims_t app;
    T_EQ_INT(bus_apptoken_verify(SECRET, token, strlen(token), NOW, &app, &err),
             BUS_STATUS_FORBIDDEN);
    T_EQ_STR(err.detail, "not an app token");
    //  Another character of the alphabet in the signature (a flipped bit
    //  could leave it, and a malformed token is INVALID, not FORBIDDEN).
    char *forged = &token[strlen(token) - 2];
    *forged = *forged == 'A' ? 'B' : 'A';
    T_EQ_INT(bus_apptoken_endpoint_verify(SECRET, token, strlen(token), NOW, &got, &err),
             BUS_STATUS_FORBIDDEN);
    free(token);
    bus_apptoken_claims_t app_claims = s_claims();
    char *app_token = bus_apptoken_sign(SECRET, &app_claims, &err);
    T_ASSERT(app_token);
    T_EQ_INT(bus_apptoken_endpoint_verify(SECRET, app_token, strlen(app_token), NOW, &got,
                                          &err),
             BUS_STATUS_FORBIDDEN);
    T_EQ_STR(err.detail, "not an endpoint token");
    free(app_token);
    claims.endpoint_id[0] = 0;
    T_ASSERT(!bus_apptoken_endpoint_sign(SECRET, &claims, &err));
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
}

int
main(void)
{
    T_RUN(test_round_trip);
    T_RUN(test_forged);
    T_RUN(test_expired);
    T_RUN(test_not_an_app_token);
    T_RUN(test_bad_claims);
    T_RUN(test_endpoint_tokens);
    return T_DONE();
}
