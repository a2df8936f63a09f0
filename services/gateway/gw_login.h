/*  =========================================================================
    gw_login - browser sessions: login with email and password, a cookie

    POST /server/login checks the email and password and answers with a
    session cookie (HttpOnly, SameSite=Strict, Secure behind TLS); requests
    that carry the cookie act as the user's keypair, without a signature.
    The token is 256 random bits; the database keeps only its SHA-256, so a
    leaked database opens no session. Repeated failures for one user name
    are refused with 429 for the rest of the rate window. The answers are
    Backend.AI's webserver's (reference part 2 §D.3): a wrong password is
    200 with authenticated false. A session ends at auth.login_ttl_s, at
    logout, and when its user's password changes, or the user or keypair
    is deactivated (triggers, gw_db migration 11); an inactive user's
    cookie opens nothing even before that.

    Also the /auth routes the Backend.AI webserver and client use:
    authorize, role, update-password, and the echo test.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_LOGIN_H_INCLUDED
#define GW_LOGIN_H_INCLUDED

#include "gw_request.h"

#define GW_LOGIN_COOKIE       "backplane_session"
#define GW_LOGIN_MAX_FAILURES 10 //  per user name and rate window

#define GW_LOGIN_SESSION_ID_SIZE 33 //  login-check's session_id: 128 bits in hex

//  The identity behind the session cookie in a Cookie header, and the
//  SHA-256 of its token into hash_out (may be NULL). BUS_OK, or
//  BUS_STATUS_NOT_FOUND (no cookie, unknown or expired session, inactive
//  user or keypair).
int gw_login_identify(gw_server_t *gw,
                      const char *cookie_header,
                      gw_identity_t *who,
                      char hash_out[GW_TOKEN_SIZE]);

//  The handlers.
void gw_login_login(gw_request_t *r);
void gw_login_logout(gw_request_t *r);
void gw_login_check(gw_request_t *r);
void gw_login_token_login(gw_request_t *r);
void gw_login_authorize(gw_request_t *r);
void gw_login_role(gw_request_t *r);
void gw_login_update_password(gw_request_t *r);
void gw_login_echo(gw_request_t *r);

#endif
