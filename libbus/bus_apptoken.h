/*  =========================================================================
    bus_apptoken - short-lived tokens for opening an app through the wsproxy

    The gateway signs one when a user asks to open an app of a session
    (POST /session/{id}/start-service); the web UI hands it to the wsproxy
    (GET /v2/proxy/{token}/{session}/add?app=), which checks it with the
    secret both share and opens a route to the target it names. A token is
    bus_token's scheme (base64url(JSON claims) "." base64url(HMAC-SHA256)),
    with the claims
        {"op": "app", "session_id", "kernel_id", "app", "protocol",
         "host", "port", "access_key", "user_uuid", "exp", "nonce"}
    so it grants one app of one session to one user, reaching host:port
    (where the agent published the app's container port), until exp (unix
    seconds). An upload or download token never passes for one ("op").

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_APPTOKEN_H_INCLUDED
#define BUS_APPTOKEN_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bus_status.h"

#define BUS_APPTOKEN_ID_MAX    64  //  session, kernel, access key, user
#define BUS_APPTOKEN_APP_MAX   64  //  an app's name: [A-Za-z0-9_.-]
#define BUS_APPTOKEN_HOST_MAX  255 //  the target host (name or address)
#define BUS_APPTOKEN_NONCE_MAX 64

//  The protocols a route speaks. Backend.AI's "preopen" is served as http.
typedef enum {
    BUS_APPTOKEN_HTTP = 1, //  HTTP/1.1 and WebSocket, with a permit cookie
    BUS_APPTOKEN_TCP = 2,  //  a plain TCP forwarder
} bus_apptoken_protocol_t;

//  What a token grants. Plain value: nothing to free.
typedef struct {
    char session_id[BUS_APPTOKEN_ID_MAX + 1];
    char kernel_id[BUS_APPTOKEN_ID_MAX + 1]; //  may be empty
    char app[BUS_APPTOKEN_APP_MAX + 1];
    bus_apptoken_protocol_t protocol;
    char host[BUS_APPTOKEN_HOST_MAX + 1];
    uint16_t port;
    char access_key[BUS_APPTOKEN_ID_MAX + 1]; //  may be empty
    char user_uuid[BUS_APPTOKEN_ID_MAX + 1];
    int64_t expires;                        //  unix seconds; refused from then on
    char nonce[BUS_APPTOKEN_NONCE_MAX + 1]; //  filled by sign when empty
} bus_apptoken_claims_t;

//  ---------------------------------------------------------------------------
//  "http" or "tcp"; "unknown" for other values.
const char *bus_apptoken_protocol_str(bus_apptoken_protocol_t protocol);

//  Parses "http", "preopen" (served as http) or "tcp". 0, or -1.
int bus_apptoken_protocol_parse(const char *text, bus_apptoken_protocol_t *protocol);

//  True for an app name a token may carry: 1-64 of [A-Za-z0-9_.-].
bool bus_apptoken_app_ok(const char *app);

//  ---------------------------------------------------------------------------
//  Signs claims with secret (at least BUS_TOKEN_SECRET_MIN bytes). An empty
//  nonce is filled with a fresh random one. Caller owns return value. NULL
//  with err (BUS_STATUS_INVALID): a short secret, an empty session, user,
//  host or app, a bad app name, port 0, a negative expiry, control
//  characters.
char *bus_apptoken_sign(const void *secret,
                        size_t secret_len,
                        bus_apptoken_claims_t *claims,
                        bus_error_t *err);

//  Checks token (len bytes off the wire) against secret at now (unix
//  seconds) and fills claims. The signature is checked first, in constant
//  time. BUS_OK, or with err and claims zeroed:
//    BUS_STATUS_INVALID    malformed (no dot, bad base64url, not JSON, a
//                          missing or bad claim)
//    BUS_STATUS_FORBIDDEN  "bad token signature", "token expired", "not an
//                          app token"
//    BUS_STATUS_INTERNAL   a short secret
int bus_apptoken_verify(const void *secret,
                        size_t secret_len,
                        const char *token,
                        size_t len,
                        int64_t now,
                        bus_apptoken_claims_t *claims,
                        bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Endpoint tokens: what a model service's caller sends (Authorization:
//  BackendAI <token>, or Bearer) to the endpoint's URL on the wsproxy. The
//  gateway signs one for the endpoint's owner (POST /services/{id}/token),
//  the wsproxy checks it with the same secret: the claims
//      {"op": "endpoint", "endpoint_id", "user_uuid", "exp", "nonce"}
//  grant every request to that one endpoint until exp. An app token never
//  passes for one, nor one for an app.
typedef struct {
    char endpoint_id[BUS_APPTOKEN_ID_MAX + 1];
    char user_uuid[BUS_APPTOKEN_ID_MAX + 1];
    int64_t expires;                        //  unix seconds; refused from then on
    char nonce[BUS_APPTOKEN_NONCE_MAX + 1]; //  filled by sign when empty
} bus_apptoken_endpoint_t;

//  Signs claims, as bus_apptoken_sign does. NULL with err
//  (BUS_STATUS_INVALID) for an empty endpoint or user, a negative expiry,
//  control characters.
char *bus_apptoken_endpoint_sign(const void *secret,
                                 size_t secret_len,
                                 bus_apptoken_endpoint_t *claims,
                                 bus_error_t *err);

//  Checks an endpoint token, as bus_apptoken_verify does ("not an endpoint
//  token" for another kind: BUS_STATUS_FORBIDDEN).
int bus_apptoken_endpoint_verify(const void *secret,
                                 size_t secret_len,
                                 const char *token,
                                 size_t len,
                                 int64_t now,
                                 bus_apptoken_endpoint_t *claims,
                                 bus_error_t *err);

#endif
