/*  =========================================================================
    gw_login - login sessions and the /server and /auth routes

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  The user behind email, if its password matches and it is active.
typedef struct {
    char uuid[GW_UUID_SIZE];
    char domain[GW_NAME_MAX];
    char role[16];
    char status[24];
    bool need_password_change;
} login_user_t;

//  Checks email/password (and domain, when given). BUS_OK, NOT_FOUND for a
//  wrong email or password (indistinguishable, on purpose), or INTERNAL.
static int
s_check_password(bus_db_t *db,
                 const char *email,
                 const char *password,
                 const char *domain,
                 login_user_t *user)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT uuid, domain_name, role, status, password,"
                        " need_password_change FROM users WHERE email = ?1");
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    sqlite3_bind_text(stmt, 1, email, -1, SQLITE_STATIC);
    int rc = BUS_STATUS_NOT_FOUND;
    if (sqlite3_step(stmt) == SQLITE_ROW) {
        snprintf(user->uuid, sizeof user->uuid, "%s", sqlite3_column_text(stmt, 0));
        snprintf(user->domain, sizeof user->domain, "%s", sqlite3_column_text(stmt, 1));
        snprintf(user->role, sizeof user->role, "%s", sqlite3_column_text(stmt, 2));
        snprintf(user->status, sizeof user->status, "%s", sqlite3_column_text(stmt, 3));
        user->need_password_change = sqlite3_column_int(stmt, 5) != 0;
        if (gw_password_verify(password, (const char *) sqlite3_column_text(stmt, 4)) &&
            (!domain || strcmp(domain, user->domain) == 0))
            rc = BUS_OK;
    }
    sqlite3_reset(stmt);
    return rc;
}

//  The keypair a login acts as: the user's active one, admin keys first.
static bool
s_user_keypair(bus_db_t *db, const char *user_uuid, char *access_key, char *secret_key)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, "SELECT access_key, secret_key FROM keypairs"
                                         " WHERE user_id = ?1 AND is_active = 1"
                                         " ORDER BY is_admin DESC, created_at LIMIT 1");
    if (!stmt)
        return false;
    sqlite3_bind_text(stmt, 1, user_uuid, -1, SQLITE_STATIC);
    bool found = sqlite3_step(stmt) == SQLITE_ROW;
    if (found) {
        snprintf(access_key, GW_ACCESS_KEY_SIZE, "%s", sqlite3_column_text(stmt, 0));
        if (secret_key)
            snprintf(secret_key, GW_SECRET_KEY_SIZE, "%s", sqlite3_column_text(stmt, 1));
    }
    sqlite3_reset(stmt);
    return found;
}

//  True when key (a user name) has failed too often in the current window.
static bool
s_too_many_failures(gw_server_t *gw, const char *key)
{
    return gw_ratelimit_exhausted(gw_server_login_failures(gw), key,
                                  GW_LOGIN_MAX_FAILURES, bus_clock_mono_ms());
}

//  The session token in a Cookie header, into token. False if none.
static bool
s_cookie_token(const char *header, char token[GW_TOKEN_SIZE])
{
    static const char name[] = GW_LOGIN_COOKIE "=";
    for (const char *p = header; p && (p = strstr(p, name)); p++) {
        if (p != header && p[-1] != ' ' && p[-1] != ';')
            continue;
        p += sizeof name - 1;
        size_t len = strcspn(p, "; ");
        if (len != GW_TOKEN_SIZE - 1)
            return false;
        memcpy(token, p, len);
        token[len] = 0;
        return true;
    }
    return false;
}

int
gw_login_identify(gw_server_t *gw,
                  const char *cookie_header,
                  gw_identity_t *who,
                  char hash_out[GW_TOKEN_SIZE])
{
    char token[GW_TOKEN_SIZE], hash[GW_TOKEN_SIZE];
    if (!s_cookie_token(cookie_header, token))
        return BUS_STATUS_NOT_FOUND;
    gw_sha256_hex(token, hash);
    OPENSSL_cleanse(token, sizeof token);
    bus_db_t *db = bus_node_db(gw_server_node(gw));
    sqlite3_stmt *stmt = bus_db_stmt(db, "SELECT access_key FROM login_sessions"
                                         " WHERE token_hash = ?1 AND expires_at > ?2");
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    sqlite3_bind_text(stmt, 1, hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, bus_clock_wall_us() / 1000000);
    char access_key[GW_ACCESS_KEY_SIZE] = "";
    if (sqlite3_step(stmt) == SQLITE_ROW)
        snprintf(access_key, sizeof access_key, "%s", sqlite3_column_text(stmt, 0));
    sqlite3_reset(stmt);
    if (!*access_key)
        return BUS_STATUS_NOT_FOUND;
    int rc = gw_identity_load(db, access_key, who);
    if (rc == BUS_OK && (!who->keypair_active || !who->user_active))
        rc = BUS_STATUS_NOT_FOUND;
    if (rc == BUS_OK && hash_out)
        memcpy(hash_out, hash, GW_TOKEN_SIZE);
    return rc;
}

//  Whether the cookie is marked Secure: when configured, or when the
//  listener r came through speaks TLS.
static bool
s_secure(gw_request_t *r)
{
    gw_web_t *web = gw_server_web(r->gw);
    return gw_server_config(r->gw)->cookie_secure ||
           (r->web && web ? gw_web_tls(web) : gw_http_tls(gw_server_http(r->gw)));
}

//  The session's public id, for login-check's session_id: the first half of
//  the token's hash. It names the session (Backend.AI's web UI passes it
//  on as login_session_token) but opens nothing: only the cookie's token,
//  which scripts cannot read (HttpOnly), authenticates.
static void
s_session_id(const char *hash, char id[GW_LOGIN_SESSION_ID_SIZE])
{
    size_t len = strnlen(hash, GW_LOGIN_SESSION_ID_SIZE - 1);
    memcpy(id, hash, len);
    id[len] = 0;
}

static void
s_login_failed(gw_request_t *r, int status, const char *slug, const char *detail)
{
    char type[128];
    snprintf(type, sizeof type, "%s%s", GW_PROBLEM_TYPE_BASE, slug);
    r->error_type = slug;
    gw_reply_json(r, status,
                  json_pack("{s:b, s:{s:s, s:s, s:s}}", "authenticated", 0, "data",
                            "type", type, "title", gw_problem_title(slug), "details",
                            detail));
}

//  Opens a login session for access_key: its row (only the token's hash is
//  kept), the cookie, and Backend.AI's webserver's answer. who names the
//  person in the log.
static void
s_open_session(gw_request_t *r,
               const char *access_key,
               const char *who,
               const char *role,
               const char *status)
{
    gw_server_t *gw = r->gw;
    bus_db_t *db = bus_node_db(gw_server_node(gw));
    char token[GW_TOKEN_SIZE], hash[GW_TOKEN_SIZE];
    if (gw_token_new(token) != 0) {
        gw_reply_problem(r, "internal-server-error", NULL);
        return;
    }
    gw_sha256_hex(token, hash);
    int64_t now = bus_clock_wall_us() / 1000000;
    //  Expired sessions go when a new one comes, so the table stays small.
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "DELETE FROM login_sessions WHERE expires_at <= ?1");
    if (stmt) {
        sqlite3_bind_int64(stmt, 1, now);
        sqlite3_step(stmt);
        sqlite3_reset(stmt);
    }
    stmt = bus_db_stmt(db, "INSERT INTO login_sessions (token_hash, access_key,"
                           " created_at, expires_at) VALUES (?1, ?2, ?3, ?4)");
    int step = SQLITE_ERROR;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, hash, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 2, access_key, -1, SQLITE_STATIC);
        sqlite3_bind_int64(stmt, 3, now);
        sqlite3_bind_int64(stmt, 4, now + gw_server_config(gw)->login_ttl_s);
        step = sqlite3_step(stmt);
        sqlite3_reset(stmt);
    }
    if (step != SQLITE_DONE) {
        gw_reply_problem(r, "internal-server-error", NULL);
        return;
    }
    char cookie[256];
    snprintf(cookie, sizeof cookie,
             "%s=%s; Path=/; Max-Age=%d; HttpOnly; SameSite=Strict%s", GW_LOGIN_COOKIE,
             token, gw_server_config(gw)->login_ttl_s, s_secure(r) ? "; Secure" : "");
    OPENSSL_cleanse(token, sizeof token);
    if (r->req)
        evhttp_add_header(evhttp_request_get_output_headers(r->req), "Set-Cookie",
                          cookie);
    OPENSSL_cleanse(cookie, sizeof cookie);
    bus_log_notice("login %s access_key=%s", who, access_key);
    gw_reply_json(r, 200,
                  json_pack("{s:b, s:{s:s, s:s, s:s}}", "authenticated", 1, "data",
                            "access_key", access_key, "role", role, "status", status));
}

//  A keypair login, Backplane's beside Backend.AI's email and password:
//  the access key with its secret key, both active, of an active user. The
//  same answers, failure counting and cookie as a password login.
static void
s_keypair_login(gw_request_t *r, const char *access_key, const char *secret_key)
{
    char key[GW_ACCESS_KEY_SIZE + 16];
    snprintf(key, sizeof key, "login-key:%.*s", GW_ACCESS_KEY_SIZE - 1, access_key);
    if (s_too_many_failures(r->gw, key)) {
        s_login_failed(r, 429, "rate-limit-exceeded", "Too many failed login attempts.");
        return;
    }
    gw_identity_t who;
    int rc = gw_identity_load(bus_node_db(gw_server_node(r->gw)), access_key, &who);
    size_t len = strlen(secret_key);
    bool match = rc == BUS_OK && len == strlen(who.secret_key) &&
                 CRYPTO_memcmp(secret_key, who.secret_key, len) == 0;
    bool active = match && who.keypair_active && who.user_active;
    OPENSSL_cleanse(who.secret_key, sizeof who.secret_key);
    if (!active) {
        int remaining;
        gw_ratelimit_take(gw_server_login_failures(r->gw), key, GW_LOGIN_MAX_FAILURES,
                          bus_clock_mono_ms(), &remaining);
        bus_log_info("login refused access_key=%.*s reason=%s", GW_ACCESS_KEY_SIZE - 1,
                     access_key, match ? "inactive" : "mismatch");
        s_login_failed(r, 200, GW_AUTH_SLUG_FAILED,
                       match ? "The user is not active." : "User credential mismatch.");
        return;
    }
    s_open_session(r, who.access_key, who.email, gw_role_str(who.role), "active");
}

void
gw_login_login(gw_request_t *r)
{
    //  Backend.AI's webserver: a live session is not replaced.
    if (r->authenticated && *r->login_hash) {
        gw_reply_problem(r, "generic-bad-request", "You have already logged in.");
        return;
    }
    const char *email = NULL, *password = NULL, *key_id = NULL, *secret_key = NULL;
    char detail[256] = "";
    if (!gw_params_str(r->params, "access_key", &key_id, detail, sizeof detail) ||
        !gw_params_str(r->params, "secret_key", &secret_key, detail, sizeof detail)) {
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    if (key_id && !json_object_get(r->params, "username")) {
        if (!secret_key) {
            gw_reply_problem(r, "invalid-api-params",
                             "You must provide the secret_key field.");
            return;
        }
        s_keypair_login(r, key_id, secret_key);
        return;
    }
    if (!gw_params_str(r->params, "username", &email, detail, sizeof detail) ||
        !gw_params_str(r->params, "password", &password, detail, sizeof detail) ||
        !email || !password) {
        if (!*detail)
            snprintf(detail, sizeof detail, "You must provide the %s field.",
                     !email ? "username" : "password");
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    //  Empty fields guess nothing: Backend.AI's web UI sends them on every
    //  page load to learn whether a login is needed. Refused, not counted.
    if (!*email || !*password) {
        s_login_failed(r, 200, GW_AUTH_SLUG_FAILED, "User credential mismatch.");
        return;
    }
    //  Failed attempts per user name: a password guesser gets 429.
    char key[GW_EMAIL_MAX + 8];
    snprintf(key, sizeof key, "login:%s", email);
    int remaining;
    gw_server_t *gw = r->gw;
    if (s_too_many_failures(gw, key)) {
        s_login_failed(r, 429, "rate-limit-exceeded", "Too many failed login attempts.");
        return;
    }
    bus_db_t *db = bus_node_db(gw_server_node(gw));
    login_user_t user;
    char access_key[GW_ACCESS_KEY_SIZE];
    int rc = s_check_password(db, email, password, NULL, &user);
    if (rc == BUS_OK && strcmp(user.status, "active") != 0)
        rc = BUS_STATUS_FORBIDDEN;
    if (rc == BUS_OK && !s_user_keypair(db, user.uuid, access_key, NULL))
        rc = BUS_STATUS_FORBIDDEN;
    if (rc != BUS_OK) {
        gw_ratelimit_take(gw_server_login_failures(gw), key, GW_LOGIN_MAX_FAILURES,
                          bus_clock_mono_ms(), &remaining);
        bus_log_info("login refused email=%s reason=%s", email,
                     rc == BUS_STATUS_FORBIDDEN ? "inactive" : "mismatch");
        //  200, as Backend.AI's webserver answers: its web UI reads any
        //  other status but 429 as "no manager found at the endpoint".
        s_login_failed(r, 200, GW_AUTH_SLUG_FAILED,
                       rc == BUS_STATUS_FORBIDDEN ? "The user is not active."
                                                  : "User credential mismatch.");
        return;
    }
    s_open_session(r, access_key, email, user.role, user.status);
}

void
gw_login_logout(gw_request_t *r)
{
    char token[GW_TOKEN_SIZE], hash[GW_TOKEN_SIZE];
    if (s_cookie_token(gw_request_header(r, "Cookie"), token)) {
        gw_sha256_hex(token, hash);
        sqlite3_stmt *stmt = bus_db_stmt(
            gw_server_db(r->gw), "DELETE FROM login_sessions WHERE token_hash = ?1");
        if (stmt) {
            sqlite3_bind_text(stmt, 1, hash, -1, SQLITE_STATIC);
            sqlite3_step(stmt);
            sqlite3_reset(stmt);
        }
    }
    if (r->req) {
        char cookie[128];
        snprintf(cookie, sizeof cookie,
                 "%s=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict%s", GW_LOGIN_COOKIE,
                 s_secure(r) ? "; Secure" : "");
        evhttp_add_header(evhttp_request_get_output_headers(r->req), "Set-Cookie",
                          cookie);
    }
    gw_reply_json(r, 200, json_pack("{s:b}", "authenticated", 0));
}

void
gw_login_check(gw_request_t *r)
{
    if (!r->authenticated) {
        gw_reply_json(
            r, 200,
            json_pack("{s:b, s:n, s:n}", "authenticated", 0, "data", "session_id"));
        return;
    }
    char id[GW_LOGIN_SESSION_ID_SIZE];
    s_session_id(r->login_hash, id);
    gw_reply_json(r, 200,
                  json_pack("{s:b, s:{s:s, s:s, s:s, s:s, s:s, s:s}, s:o}",
                            "authenticated", 1, "data", "access_key", r->who.access_key,
                            "role", gw_role_str(r->who.role), "status",
                            r->who.user_active ? "active" : "inactive", "email",
                            r->who.email, "user_id", r->who.user_uuid, "domain_name",
                            r->who.domain, "session_id",
                            *id ? json_string(id) : json_null()));
}

void
gw_login_token_login(gw_request_t *r)
{
    const char *token = NULL;
    char detail[256] = "";
    if (!gw_params_str(r->params, "sToken", &token, detail, sizeof detail) || !token) {
        gw_reply_problem(r, "invalid-api-params",
                         *detail ? detail : "You must provide the sToken field.");
        return;
    }
    //  Backend.AI hands sToken to an authorize hook (a single sign-on
    //  plugin); Backplane has none, so no token opens a session.
    s_login_failed(r, 200, GW_AUTH_SLUG_FAILED,
                   "Token login needs a single sign-on provider, which this server "
                   "does not have.");
}

void
gw_login_authorize(gw_request_t *r)
{
    const char *type = NULL, *domain = NULL, *email = NULL, *password = NULL;
    char detail[256] = "type, domain, username and password are required";
    if (!gw_params_str(r->params, "type", &type, detail, sizeof detail) ||
        !gw_params_str(r->params, "domain", &domain, detail, sizeof detail) ||
        !gw_params_str(r->params, "username", &email, detail, sizeof detail) ||
        !gw_params_str(r->params, "password", &password, detail, sizeof detail) ||
        !type || !domain || !email || !password) {
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    if (strcmp(type, "keypair") != 0) {
        gw_reply_problem(r, "invalid-api-params", "only type \"keypair\" is supported");
        return;
    }
    char key[GW_EMAIL_MAX + 8];
    snprintf(key, sizeof key, "login:%s", email);
    if (s_too_many_failures(r->gw, key)) {
        gw_reply_problem(r, "rate-limit-exceeded", "Too many failed login attempts.");
        return;
    }
    bus_db_t *db = gw_server_db(r->gw);
    login_user_t user;
    char access_key[GW_ACCESS_KEY_SIZE], secret_key[GW_SECRET_KEY_SIZE];
    if (s_check_password(db, email, password, domain, &user) != BUS_OK ||
        strcmp(user.status, "active") != 0 ||
        !s_user_keypair(db, user.uuid, access_key, secret_key)) {
        int remaining;
        gw_ratelimit_take(gw_server_login_failures(r->gw), key, GW_LOGIN_MAX_FAILURES,
                          bus_clock_mono_ms(), &remaining);
        gw_reply_problem(r, GW_AUTH_SLUG_FAILED, "User credential mismatch.");
        return;
    }
    json_t *body =
        json_pack("{s:{s:s, s:s, s:s, s:s}}", "data", "access_key", access_key,
                  "secret_key", secret_key, "role", user.role, "status", user.status);
    OPENSSL_cleanse(secret_key, sizeof secret_key);
    gw_reply_json(r, 200, body);
}

void
gw_login_role(gw_request_t *r)
{
    const char *group = NULL;
    char detail[256];
    if (!gw_params_str(r->params, "group", &group, detail, sizeof detail)) {
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    const char *global = r->who.role == GW_ROLE_SUPERADMIN ? "superadmin" : "user";
    const char *domain_role =
        r->who.role == GW_ROLE_SUPERADMIN || r->who.role == GW_ROLE_ADMIN ? "admin"
                                                                          : "user";
    json_t *body = json_pack("{s:s, s:s, s:n}", "global_role", global, "domain_role",
                             domain_role, "group_role");
    if (group) {
        sqlite3_stmt *stmt = bus_db_stmt(gw_server_db(r->gw),
                                         "SELECT 1 FROM association_groups_users WHERE "
                                         "group_id = ?1 AND user_id = ?2");
        bool member = false;
        if (stmt) {
            sqlite3_bind_text(stmt, 1, group, -1, SQLITE_STATIC);
            sqlite3_bind_text(stmt, 2, r->who.user_uuid, -1, SQLITE_STATIC);
            member = sqlite3_step(stmt) == SQLITE_ROW;
            sqlite3_reset(stmt);
        }
        if (!member) {
            json_decref(body);
            gw_reply_problem(r, "object-not-found", "No such user group.");
            return;
        }
        json_object_set_new(body, "group_role", json_string("user"));
    }
    gw_reply_json(r, 200, body);
}

//  When the session whose token hashes to hash expires; 0 when it does not exist.
static int64_t
s_session_expires(bus_db_t *db, const char *hash)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT expires_at FROM login_sessions WHERE token_hash = ?1");
    int64_t expires = 0;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, hash, -1, SQLITE_STATIC);
        if (sqlite3_step(stmt) == SQLITE_ROW)
            expires = sqlite3_column_int64(stmt, 0);
        sqlite3_reset(stmt);
    }
    return expires;
}

//  Puts a session back as it was (its expiry unchanged).
static void
s_session_restore(bus_db_t *db, const char *hash, const char *access_key, int64_t expires)
{
    if (expires <= 0)
        return;
    sqlite3_stmt *stmt = bus_db_stmt(db, "INSERT OR IGNORE INTO login_sessions"
                                         " (token_hash, access_key, created_at,"
                                         " expires_at) VALUES (?1, ?2, ?3, ?4)");
    if (stmt) {
        sqlite3_bind_text(stmt, 1, hash, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 2, access_key, -1, SQLITE_STATIC);
        sqlite3_bind_int64(stmt, 3, bus_clock_wall_us() / 1000000);
        sqlite3_bind_int64(stmt, 4, expires);
        sqlite3_step(stmt);
        sqlite3_reset(stmt);
    }
}

void
gw_login_update_password(gw_request_t *r)
{
    const char *old_password = NULL, *new_password = NULL, *again = NULL;
    char detail[256] = "old_password, new_password and new_password2 are required";
    if (!gw_params_str(r->params, "old_password", &old_password, detail, sizeof detail) ||
        !gw_params_str(r->params, "new_password", &new_password, detail, sizeof detail) ||
        !gw_params_str(r->params, "new_password2", &again, detail, sizeof detail) ||
        !old_password || !new_password || !again) {
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    if (strcmp(new_password, again) != 0) {
        gw_reply_json(r, 400, json_pack("{s:s}", "error_msg", "new password mismatch"));
        return;
    }
    bus_db_t *db = gw_server_db(r->gw);
    login_user_t user;
    if (s_check_password(db, r->who.email, old_password, NULL, &user) != BUS_OK) {
        gw_reply_problem(r, GW_AUTH_SLUG_FAILED, "Old password mismatch");
        return;
    }
    char hash[GW_PASSWORD_HASH_MAX], now[40];
    gw_now_iso(now);
    int64_t session_expires = *r->login_hash ? s_session_expires(db, r->login_hash) : 0;
    if (gw_password_hash(new_password, gw_server_config(r->gw)->password_iterations, hash,
                         sizeof hash) != 0) {
        gw_reply_problem(r, "internal-server-error", NULL);
        return;
    }
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "UPDATE users SET password = ?1, modified_at = ?2,"
                        " need_password_change = 0 WHERE uuid = ?3");
    int rc = SQLITE_ERROR;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, hash, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 2, now, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 3, r->who.user_uuid, -1, SQLITE_STATIC);
        rc = sqlite3_step(stmt);
        sqlite3_reset(stmt);
    }
    if (rc != SQLITE_DONE) {
        gw_reply_problem(r, "internal-server-error", NULL);
        return;
    }
    //  The change ended every login session of the user (a trigger,
    //  gw_db); the one that made it goes on.
    if (*r->login_hash)
        s_session_restore(db, r->login_hash, r->who.access_key, session_expires);
    gw_identity_cache_clear(gw_server_identities(r->gw));
    bus_log_notice("password changed email=%s", r->who.email);
    gw_reply_json(r, 200, json_object());
}

void
gw_login_echo(gw_request_t *r)
{
    json_t *echo = json_object_get(r->params, "echo");
    gw_reply_json(
        r, 200,
        json_pack("{s:s, s:O}", "authorized", "yes", "echo", echo ? echo : json_null()));
}
