/*  =========================================================================
    web_test - the gateway's web listener over HTTP on loopback: the UI's
    files (content types, ETag and 304, gzip siblings, paths that leave the
    root refused, the single-page fallback), the login cookie and the API
    under /func (REST, GraphQL, a session created, its execute WebSocket
    and the event stream), logout and password change revoking the
    cookie, forged and expired cookies, a cross-site POST refused, the
    security headers, /config.toml. The session part needs root, runc,
    umoci and tini, and is skipped without them.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "gateway_client.h"
#include "t.h"

#define IMAGE "local.backplane/library/busybox:latest"

static client_platform_t s_p;
static client_keypair_t s_user;
static harness_proc_t s_agent;
static char s_bridge[16];
static bool s_agent_up;
static char s_cookie[160];   //  "backplane_session=..." of the user's login
static char s_cookie_h[200]; //  "Cookie: ..." of it
static char s_origin_h[100]; //  "Origin: http://<web>", the listener's own

//  Writes text into the web root's file name. True when written.
static bool
s_file(const char *name, const char *text, size_t size)
{
    char path[600];
    snprintf(path, sizeof path, "%s/webui/%s", s_p.dir, name);
    FILE *file = fopen(path, "wb");
    if (!file)
        return false;
    bool ok = fwrite(text, 1, size, file) == size;
    return fclose(file) == 0 && ok;
}

//  One request to the web listener with extra headers (NULL-terminated);
//  status, with body and headers when asked for (caller frees).
static int
s_web(const char *method,
      const char *path,
      const char *const *headers,
      const char *body,
      char **body_p,
      char **headers_p)
{
    return harness_http_ex(s_p.web, method, path, headers,
                           body ? "application/json" : NULL, body, body_p, headers_p,
                           CLIENT_HTTP_MS);
}

//  A header's value from a response head, into out ("" when absent).
static void
s_header(const char *head, const char *name, char *out, size_t size)
{
    *out = 0;
    size_t len = strlen(name);
    for (const char *p = head; p && (p = strcasestr(p, name)); p += len)
        if ((p == head || p[-1] == '\n') && p[len] == ':') {
            const char *value = p + len + 1;
            value += strspn(value, " ");
            snprintf(out, size, "%.*s", (int) strcspn(value, "\r\n"), value);
            return;
        }
}

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "web", false) == 0);
    T_ASSERT(*s_p.web);
    T_ASSERT(strcmp(s_p.web, s_p.api) != 0);
    T_ASSERT(client_person(&s_p, "webuser@example.com", "default", "user", &s_user));
    snprintf(s_origin_h, sizeof s_origin_h, "Origin: http://%s", s_p.web);
}

//  Before the UI is built, a page says so.
static void
test_not_built(void)
{
    char *body = NULL, *head = NULL;
    T_EQ_INT(s_web("GET", "/", NULL, NULL, &body, &head), 200);
    T_CONTAINS(head, "text/html");
    T_CONTAINS(body, "The web UI is not built");
    T_ASSERT(!strstr(body, "<script"));
    free(body);
    free(head);
    T_EQ_INT(s_web("GET", "/sessions", NULL, NULL, NULL, NULL), 200);
    T_EQ_INT(s_web("GET", "/app.js", NULL, NULL, NULL, NULL), 404);
}

static void
test_files(void)
{
    char path[600];
    snprintf(path, sizeof path, "%s/webui", s_p.dir);
    T_EQ_INT(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/webui/sub", s_p.dir);
    T_EQ_INT(mkdir(path, 0755), 0);
    static const char index_html[] = "<!DOCTYPE html><title>UI</title>INDEX-PAGE\n";
    static const char gz[] = "\x1f\x8b\x08\x00GZ-BYTES";
    T_ASSERT(s_file("index.html", index_html, strlen(index_html)));
    T_ASSERT(s_file("app.js", "console.log('app');\n", 20));
    T_ASSERT(s_file("style.css", "body{}\n", 7));
    T_ASSERT(s_file("data.json", "{}", 2));
    T_ASSERT(s_file("font.woff2", "wOF2", 4));
    T_ASSERT(s_file("sub/index.html", "SUB-INDEX", 9));
    T_ASSERT(s_file("bundle.js", "PLAIN-BUNDLE", 12));
    T_ASSERT(s_file("bundle.js.gz", gz, sizeof gz - 1));
    //  Outside the root: a secret, and links that lead to it.
    char secret[600], link[600];
    snprintf(secret, sizeof secret, "%s/secret.txt", s_p.dir);
    FILE *file = fopen(secret, "w");
    T_ASSERT(file && fputs("TOP-SECRET", file) >= 0 && fclose(file) == 0);
    snprintf(link, sizeof link, "%s/webui/escape.txt", s_p.dir);
    T_EQ_INT(symlink(secret, link), 0);
    snprintf(link, sizeof link, "%s/webui/outside", s_p.dir);
    T_EQ_INT(symlink(s_p.dir, link), 0);
    snprintf(link, sizeof link, "%s/webui/inside.js", s_p.dir);
    T_EQ_INT(symlink("app.js", link), 0);

    //  Types, the security headers, validators.
    static const struct {
        const char *path, *type;
    } types[] = {
        {"/", "text/html; charset=utf-8"},
        {"/index.html", "text/html; charset=utf-8"},
        {"/app.js", "text/javascript; charset=utf-8"},
        {"/style.css", "text/css; charset=utf-8"},
        {"/data.json", "application/json"},
        {"/font.woff2", "font/woff2"},
        {"/inside.js", "text/javascript; charset=utf-8"},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        char *head = NULL, value[512];
        T_EQ_INT(s_web("GET", types[i].path, NULL, NULL, NULL, &head), 200);
        s_header(head, "Content-Type", value, sizeof value);
        T_EQ_STR(value, types[i].type);
        s_header(head, "X-Content-Type-Options", value, sizeof value);
        T_EQ_STR(value, "nosniff");
        free(head);
    }
    char *body = NULL, *head = NULL, etag[128], value[1024];
    T_EQ_INT(s_web("GET", "/", NULL, NULL, &body, &head), 200);
    T_EQ_STR(body, index_html);
    s_header(head, "Content-Security-Policy", value, sizeof value);
    //  scripts from the listener only, none inline
    T_CONTAINS(value, "script-src 'self';");
    const char *scripts = strstr(value, "script-src");
    T_ASSERT(scripts && !memmem(scripts, strcspn(scripts, ";"), "unsafe", 6));
    T_CONTAINS(value, "frame-ancestors 'none'");
    s_header(head, "X-Frame-Options", value, sizeof value);
    T_EQ_STR(value, "DENY");
    s_header(head, "Referrer-Policy", value, sizeof value);
    T_EQ_STR(value, "same-origin");
    free(body);
    free(head);
    T_EQ_INT(s_web("GET", "/app.js", NULL, NULL, &body, &head), 200);
    T_EQ_STR(body, "console.log('app');\n");
    s_header(head, "ETag", etag, sizeof etag);
    T_ASSERT(etag[0] == '"' && strlen(etag) > 4);
    s_header(head, "Last-Modified", value, sizeof value);
    T_CONTAINS(value, " GMT");
    free(body);
    free(head);
    char match[200];
    snprintf(match, sizeof match, "If-None-Match: %s", etag);
    const char *conditional[] = {match, NULL};
    body = NULL;
    T_EQ_INT(s_web("GET", "/app.js", conditional, NULL, &body, NULL), 304);
    T_ASSERT(!body || !*body);
    free(body);
    const char *other[] = {"If-None-Match: \"nope\"", NULL};
    T_EQ_INT(s_web("GET", "/app.js", other, NULL, NULL, NULL), 200);
    //  HEAD: the length, no body.
    T_EQ_INT(s_web("HEAD", "/app.js", NULL, NULL, NULL, &head), 200);
    s_header(head, "Content-Length", value, sizeof value);
    T_EQ_STR(value, "20");
    free(head);

    //  The gzip sibling, for clients that take it.
    const char *gzip[] = {"Accept-Encoding: br, gzip", NULL};
    size_t size = 0;
    T_EQ_INT(harness_http_bytes(s_p.web, "GET", "/bundle.js", gzip, NULL, NULL, &body,
                                &size, &head, CLIENT_HTTP_MS),
             200);
    T_EQ_INT(size, sizeof gz - 1);
    T_ASSERT(body && memcmp(body, gz, sizeof gz - 1) == 0);
    s_header(head, "Content-Encoding", value, sizeof value);
    T_EQ_STR(value, "gzip");
    s_header(head, "Content-Type", value, sizeof value);
    T_EQ_STR(value, "text/javascript; charset=utf-8");
    s_header(head, "Vary", value, sizeof value);
    T_EQ_STR(value, "Accept-Encoding");
    free(body);
    free(head);
    const char *no_gzip[] = {"Accept-Encoding: gzip;q=0", NULL};
    T_EQ_INT(s_web("GET", "/bundle.js", no_gzip, NULL, &body, &head), 200);
    T_EQ_STR(body, "PLAIN-BUNDLE");
    s_header(head, "Content-Encoding", value, sizeof value);
    T_EQ_STR(value, "");
    free(body);
    free(head);

    //  A directory's index; the single-page fallback for the UI's routes.
    T_EQ_INT(s_web("GET", "/sub/", NULL, NULL, &body, NULL), 200);
    T_EQ_STR(body, "SUB-INDEX");
    free(body);
    T_EQ_INT(s_web("GET", "/job", NULL, NULL, &body, NULL), 200);
    T_EQ_STR(body, index_html);
    free(body);
    T_EQ_INT(s_web("GET", "/data/folder/x", NULL, NULL, &body, NULL), 200);
    T_EQ_STR(body, index_html);
    free(body);
    T_EQ_INT(s_web("GET", "/missing.js", NULL, NULL, &body, &head), 404);
    T_CONTAINS(head, "application/problem+json");
    free(body);
    free(head);

    //  Nothing outside the root: dot-dot, encoded or not, and links out.
    static const char *const escapes[] = {"/../secret.txt", "/sub/../../secret.txt",
                                          "/%2e%2e/secret.txt",
                                          "/sub%2f..%2f..%2fsecret.txt", "/a%00b"};
    for (size_t i = 0; i < sizeof escapes / sizeof escapes[0]; i++) {
        body = NULL;
        int status = s_web("GET", escapes[i], NULL, NULL, &body, NULL);
        T_ASSERT(status == 400 || status == 404);
        T_ASSERT(!body || !strstr(body, "TOP-SECRET"));
        free(body);
    }
    T_EQ_INT(s_web("GET", "/../secret.txt", NULL, NULL, NULL, NULL), 400);
    body = NULL;
    T_EQ_INT(s_web("GET", "/escape.txt", NULL, NULL, &body, NULL), 404);
    T_ASSERT(!strstr(body ? body : "", "TOP-SECRET"));
    free(body);
    body = NULL;
    T_EQ_INT(s_web("GET", "/outside/secret.txt", NULL, NULL, &body, NULL), 404);
    T_ASSERT(!strstr(body ? body : "", "TOP-SECRET"));
    free(body);
    //  Files are read, never written.
    T_EQ_INT(s_web("POST", "/app.js", NULL, "{}", NULL, NULL), 405);
}

static void
test_config_toml(void)
{
    char *body = NULL, *head = NULL, value[256], want[128];
    T_EQ_INT(s_web("GET", "/config.toml", NULL, NULL, &body, &head), 200);
    s_header(head, "Content-Type", value, sizeof value);
    T_EQ_STR(value, "application/toml; charset=utf-8");
    snprintf(want, sizeof want, "apiEndpoint = \"http://%s\"\n", s_p.web);
    T_CONTAINS(body, want);
    T_CONTAINS(body, "connectionMode = \"SESSION\"\n");
    T_CONTAINS(body, "[wsproxy]\nproxyURL = \"\"\n");
    T_CONTAINS(body, "[resources]\n");
    free(body);
    free(head);
    //  (A Host that would break out of the TOML string is refused by
    //  gw_web_guard_origin_normalize: gw_web_guard_test.)
}

//  The cookie of a fresh login as email, into cookie. The status.
static int
s_login(const char *email, const char *password, char *cookie, size_t size, char **body_p)
{
    char body[256], *head = NULL;
    snprintf(body, sizeof body, "{\"username\": \"%s\", \"password\": \"%s\"}", email,
             password);
    const char *headers[] = {s_origin_h, NULL};
    int status = s_web("POST", "/server/login", headers, body, body_p, &head);
    *cookie = 0;
    const char *set = head ? strstr(head, "backplane_session=") : NULL;
    if (set)
        snprintf(cookie, size, "%.*s", (int) strcspn(set, ";\r\n"), set);
    free(head);
    return status;
}

static void
test_login(void)
{
    //  Backend.AI's webserver's answers: a wrong password is 200.
    char *body = NULL;
    T_EQ_INT(s_login("webuser@example.com", "wrong", s_cookie, sizeof s_cookie, &body),
             200);
    json_t *r = json_loads(body, 0, NULL);
    T_ASSERT(json_is_false(json_object_get(r, "authenticated")));
    T_EQ_STR(json_string_value(json_object_get(json_object_get(r, "data"), "details")),
             "User credential mismatch.");
    T_EQ_STR(s_cookie, "");
    json_decref(r);
    free(body);
    const char *headers[] = {s_origin_h, NULL};
    T_EQ_INT(
        s_web("POST", "/server/login", headers, "{\"password\": \"x\"}", &body, NULL),
        400);
    T_CONTAINS(body, "You must provide the username field.");
    free(body);
    //  The right one: the cookie, HttpOnly and SameSite.
    char *head = NULL;
    T_EQ_INT(s_web("POST", "/server/login", headers,
                   "{\"username\": \"webuser@example.com\", \"password\": \"pw-123456\"}",
                   &body, &head),
             200);
    T_CONTAINS(body, "\"authenticated\":true");
    char set_cookie[512];
    s_header(head, "Set-Cookie", set_cookie, sizeof set_cookie);
    T_CONTAINS(set_cookie, "backplane_session=");
    T_CONTAINS(set_cookie, "; HttpOnly");
    T_CONTAINS(set_cookie, "; SameSite=Strict");
    T_CONTAINS(set_cookie, "; Path=/");
    snprintf(s_cookie, sizeof s_cookie, "%.*s", (int) strcspn(set_cookie, ";"),
             set_cookie);
    snprintf(s_cookie_h, sizeof s_cookie_h, "Cookie: %s", s_cookie);
    free(body);
    free(head);
    //  login-check: who, and the session's public id.
    const char *with_cookie[] = {s_cookie_h, s_origin_h, NULL};
    T_EQ_INT(s_web("POST", "/server/login-check", with_cookie, NULL, &body, NULL), 200);
    r = json_loads(body, 0, NULL);
    json_t *data = json_object_get(r, "data");
    T_ASSERT(json_is_true(json_object_get(r, "authenticated")));
    T_EQ_STR(json_string_value(json_object_get(data, "access_key")), s_user.access_key);
    T_EQ_STR(json_string_value(json_object_get(data, "role")), "user");
    T_EQ_STR(json_string_value(json_object_get(data, "status")), "active");
    T_EQ_STR(json_string_value(json_object_get(data, "email")), "webuser@example.com");
    const char *id = json_string_value(json_object_get(r, "session_id"));
    T_ASSERT(id && strlen(id) == 32 && strspn(id, "0123456789abcdef") == 32);
    //  The id is not the token: it opens nothing.
    T_ASSERT(!strstr(s_cookie, id));
    json_decref(r);
    free(body);
    T_EQ_INT(s_web("POST", "/server/login-check", NULL, NULL, &body, NULL), 200);
    T_EQ_STR(body, "{\"authenticated\":false,\"data\":null,\"session_id\":null}");
    free(body);
    //  Logged in already.
    T_EQ_INT(s_web("POST", "/server/login", with_cookie,
                   "{\"username\": \"webuser@example.com\", \"password\": \"pw-123456\"}",
                   &body, NULL),
             400);
    T_CONTAINS(body, "You have already logged in.");
    free(body);
    //  token-login: no single sign-on here, said as the web UI reads it.
    T_EQ_INT(s_web("POST", "/server/token-login", headers, "{\"sToken\": \"abc\"}", &body,
                   NULL),
             200);
    T_CONTAINS(body, "\"authenticated\":false");
    free(body);
}

static void
test_func(void)
{
    const char *with_cookie[] = {s_cookie_h, s_origin_h, NULL};
    //  The version probe needs no login.
    char *body = NULL;
    T_EQ_INT(s_web("GET", "/func/", NULL, NULL, &body, NULL), 200);
    T_CONTAINS(body, "\"version\":\"v6.20220315\"");
    //  A Backend.AI release the web UI 22.03 compares its features with.
    T_CONTAINS(body, "\"manager\":\"22.03.0\"");
    free(body);
    //  Everything else does; with the cookie, it is the user.
    T_EQ_INT(s_web("GET", "/func/auth/role", NULL, NULL, &body, NULL), 401);
    T_CONTAINS(body, "auth-failed");
    free(body);
    T_EQ_INT(s_web("GET", "/func/auth/role", with_cookie, NULL, &body, NULL), 200);
    T_CONTAINS(body, "\"global_role\":\"user\"");
    free(body);
    T_EQ_INT(s_web("GET", "/func/folders", with_cookie, NULL, &body, NULL), 200);
    T_EQ_STR(body, "[]");
    free(body);
    //  GraphQL, the new endpoint and the legacy one the 22.03 UI uses.
    T_EQ_INT(s_web("POST", "/func/admin/gql", with_cookie,
                   "{\"query\": \"{ compute_session_list(limit: 10, offset: 0)"
                   " { total_count } }\"}",
                   &body, NULL),
             200);
    T_EQ_STR(body, "{\"data\":{\"compute_session_list\":{\"total_count\":0}}}");
    free(body);
    T_EQ_INT(s_web("POST", "/func/admin/graphql", with_cookie,
                   "{\"query\": \"{ keypair { access_key } }\"}", &body, NULL),
             200);
    json_t *r = json_loads(body, 0, NULL);
    T_EQ_STR(
        json_string_value(json_object_get(json_object_get(r, "keypair"), "access_key")),
        s_user.access_key);
    json_decref(r);
    free(body);
    //  /func alone is the API's /; unknown API paths are the API's 404.
    T_EQ_INT(s_web("GET", "/func", NULL, NULL, NULL, NULL), 200);
    T_EQ_INT(s_web("GET", "/func/nothing-here", with_cookie, NULL, &body, NULL), 404);
    T_CONTAINS(body, "url-not-found");
    free(body);
    //  The API listener still wants a signature or the cookie, as before.
    T_EQ_INT(client_signed(&s_p, &s_user, "GET", "/auth/role", NULL, NULL, NULL, NULL),
             200);
}

static void
test_cross_site(void)
{
    //  A cross-site POST carries the cookie only where a browser is lax;
    //  its Origin gives it away.
    const char *evil[] = {s_cookie_h, "Origin: http://evil.example", NULL};
    char *body = NULL;
    T_EQ_INT(s_web("POST", "/func/folders", evil, "{\"name\": \"stolen\"}", &body, NULL),
             403);
    T_CONTAINS(body, "generic-forbidden");
    free(body);
    const char *port[] = {s_cookie_h, "Origin: http://127.0.0.1:1", NULL};
    T_EQ_INT(s_web("DELETE", "/func/folders/x", port, NULL, NULL, NULL), 403);
    const char *null_origin[] = {s_cookie_h, "Origin: null", NULL};
    T_EQ_INT(s_web("POST", "/server/logout", null_origin, NULL, NULL, NULL), 403);
    const char *fetch_site[] = {s_cookie_h, "Sec-Fetch-Site: cross-site", NULL};
    T_EQ_INT(s_web("POST", "/func/folders", fetch_site, "{\"name\": \"x\"}", NULL, NULL),
             403);
    //  A login made from another site (login CSRF) too.
    const char *login[] = {"Origin: https://evil.example", NULL};
    T_EQ_INT(s_web("POST", "/server/login", login,
                   "{\"username\": \"webuser@example.com\", \"password\": \"pw-123456\"}",
                   NULL, NULL),
             403);
    //  The cookie on the API listener with a foreign Origin: the same rule.
    const char *api_evil[] = {s_cookie_h, "Origin: http://evil.example", NULL};
    T_EQ_INT(harness_http_ex(s_p.api, "POST", "/folders", api_evil, "application/json",
                             "{\"name\": \"x\"}", NULL, NULL, CLIENT_HTTP_MS),
             403);
    //  GETs are not state-changing; nothing was made above.
    T_EQ_INT(s_web("GET", "/func/folders", evil, NULL, &body, NULL), 200);
    T_EQ_STR(body, "[]");
    free(body);
}

//  Backplane's keypair login: the access key with its secret key opens the
//  same kind of session as a password; a wrong secret is refused as a
//  wrong password is.
static void
test_keypair_login(void)
{
    const char *headers[] = {s_origin_h, NULL};
    char body[256], *answer = NULL, *head = NULL;
    //  Backend.AI's web UI posts empty fields on every page load: refused,
    //  never counted as the failures of a password guesser.
    for (int i = 0; i < 15; i++) {
        T_EQ_INT(s_web("POST", "/server/login", headers,
                       "{\"username\": \"\", \"password\": \"\"}", &answer, NULL),
                 200);
        T_CONTAINS(answer, "\"authenticated\":false");
        free(answer);
    }
    snprintf(body, sizeof body, "{\"access_key\": \"%s\", \"secret_key\": \"wrong\"}",
             s_user.access_key);
    T_EQ_INT(s_web("POST", "/server/login", headers, body, &answer, &head), 200);
    T_CONTAINS(answer, "\"authenticated\":false");
    T_CONTAINS(answer, "User credential mismatch.");
    T_ASSERT(!strstr(head, "backplane_session="));
    free(answer);
    free(head);
    T_EQ_INT(s_web("POST", "/server/login", headers, "{\"access_key\": \"AKIA\"}",
                   &answer, NULL),
             400);
    T_CONTAINS(answer, "secret_key");
    free(answer);
    snprintf(body, sizeof body, "{\"access_key\": \"%s\", \"secret_key\": \"%s\"}",
             s_user.access_key, s_user.secret_key);
    T_EQ_INT(s_web("POST", "/server/login", headers, body, &answer, &head), 200);
    T_CONTAINS(answer, "\"authenticated\":true");
    T_CONTAINS(answer, s_user.access_key);
    const char *set = strstr(head, "backplane_session=");
    T_ASSERT(set);
    char cookie[200];
    snprintf(cookie, sizeof cookie, "Cookie: %.*s", set ? (int) strcspn(set, ";\r\n") : 0,
             set ? set : "");
    free(answer);
    free(head);
    const char *with_cookie[] = {cookie, NULL};
    T_EQ_INT(s_web("GET", "/server/login-check", with_cookie, NULL, &answer, NULL), 200);
    T_CONTAINS(answer, "webuser@example.com");
    free(answer);
}

//  Pages of the UI under /admin/ and /system/ answer 403 to a role that may
//  not use them (the page itself, index.html, says so), and 200 to one that
//  may, and to anyone not logged in, whom the UI shows its login.
static void
test_page_roles(void)
{
    const char *user[] = {s_cookie_h, NULL};
    char *body = NULL, *head = NULL;
    T_EQ_INT(s_web("GET", "/admin/users", user, NULL, &body, &head), 403);
    T_CONTAINS(body, "INDEX-PAGE");
    T_CONTAINS(head, "no-store");
    free(body);
    free(head);
    T_EQ_INT(s_web("GET", "/system/information", user, NULL, NULL, NULL), 403);
    T_EQ_INT(s_web("GET", "/admin", user, NULL, NULL, NULL), 403);
    T_EQ_INT(s_web("GET", "/sessions/new", user, NULL, NULL, NULL), 200);
    T_EQ_INT(s_web("GET", "/administrator", user, NULL, NULL, NULL), 200);
    T_EQ_INT(s_web("GET", "/admin/users", NULL, NULL, NULL, NULL), 200);
    //  A file under those paths is a file, whoever asks.
    T_EQ_INT(s_web("GET", "/admin/users.js", user, NULL, NULL, NULL), 404);
    client_keypair_t kp;
    T_ASSERT(client_person(&s_p, "webadmin@example.com", "default", "admin", &kp));
    T_ASSERT(client_person(&s_p, "websuper@example.com", "default", "superadmin", &kp));
    char cookie[160], header[200];
    T_EQ_INT(s_login("webadmin@example.com", "pw-123456", cookie, sizeof cookie, NULL),
             200);
    snprintf(header, sizeof header, "Cookie: %s", cookie);
    const char *admin[] = {header, NULL};
    T_EQ_INT(s_web("GET", "/admin/users", admin, NULL, NULL, NULL), 200);
    T_EQ_INT(s_web("GET", "/system/information", admin, NULL, NULL, NULL), 403);
    T_EQ_INT(s_login("websuper@example.com", "pw-123456", cookie, sizeof cookie, NULL),
             200);
    snprintf(header, sizeof header, "Cookie: %s", cookie);
    T_EQ_INT(s_web("GET", "/system/information", admin, NULL, NULL, NULL), 200);
}

static void
test_bad_cookies(void)
{
    char *body = NULL;
    //  Forged: the right shape, an unknown token.
    const char *forged[] = {
        "Cookie: backplane_session="
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        NULL};
    T_EQ_INT(s_web("GET", "/func/auth/role", forged, NULL, &body, NULL), 401);
    T_CONTAINS(body, "auth-failed");
    free(body);
    const char *garbage[] = {"Cookie: backplane_session=x; other=1", NULL};
    T_EQ_INT(s_web("GET", "/func/auth/role", garbage, NULL, NULL, NULL), 401);
    //  Expired: a live session whose time has passed.
    char cookie[160], cookie_h[200];
    T_EQ_INT(s_login("webuser@example.com", "pw-123456", cookie, sizeof cookie, NULL),
             200);
    snprintf(cookie_h, sizeof cookie_h, "Cookie: %s", cookie);
    const char *with[] = {cookie_h, NULL};
    T_EQ_INT(s_web("GET", "/func/auth/role", with, NULL, NULL, NULL), 200);
    char db_path[600];
    snprintf(db_path, sizeof db_path, "%s/gateway/gateway.db", s_p.dir);
    sqlite3 *db = NULL;
    T_EQ_INT(sqlite3_open(db_path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    //  the session just made (the newest row), not the one of s_cookie
    T_EQ_INT(sqlite3_exec(db,
                          "UPDATE login_sessions SET expires_at = 1 WHERE rowid ="
                          " (SELECT max(rowid) FROM login_sessions)",
                          NULL, NULL, NULL),
             SQLITE_OK);
    T_EQ_INT(sqlite3_changes(db), 1);
    sqlite3_close(db);
    T_EQ_INT(s_web("GET", "/func/auth/role", with, NULL, &body, NULL), 401);
    free(body);
    const char *mine[] = {s_cookie_h, NULL};
    T_EQ_INT(s_web("GET", "/func/auth/role", mine, NULL, NULL, NULL), 200);
}

//  A WebSocket and an event stream under /func, for a session made there.
static void
test_session_streams(void)
{
    if (!s_agent_up)
        T_SKIP("needs root, runc, umoci and /usr/bin/tini-static");
    client_platform_t web = s_p;
    snprintf(web.api, sizeof web.api, "%s", s_p.web);
    const char *with_cookie[] = {s_cookie_h, s_origin_h, NULL};
    int status;
    char head[4096];
    int events =
        client_stream_open(&web, NULL, "/func/events/session?sessionName=web-one",
                           with_cookie, &status, head, sizeof head);
    T_EQ_INT(status, 200);
    T_CONTAINS(head, "text/event-stream");
    T_CONTAINS(head, "X-Frame-Options: DENY");
    //  Without the cookie, no stream.
    int refused = client_stream_open(&web, NULL, "/func/events/session", NULL, &status,
                                     head, sizeof head);
    T_EQ_INT(status, 401);
    close(refused);
    char *body = NULL;
    T_EQ_INT(s_web("POST", "/func/session", with_cookie,
                   "{\"name\": \"web-one\", \"image\": \"" IMAGE "\","
                   " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"}}}",
                   &body, NULL),
             201);
    T_CONTAINS(body, "\"status\":\"RUNNING\"");
    free(body);
    char *text = client_read_until(events, "event: session_started", 10000);
    T_ASSERT(text != NULL);
    T_CONTAINS(text, "\"sessionName\":\"web-one\"");
    free(text);
    close(events);
    //  The execute WebSocket, as a browser opens it: cookie and Origin.
    int fd = client_ws_open_ex(&web, NULL, "/func/stream/session/web-one/execute",
                               with_cookie, &status);
    T_EQ_INT(status, 101);
    T_ASSERT(fd >= 0);
    const char *request = "{\"code\": \"echo from-the-web\", \"mode\": \"query\","
                          " \"options\": {}}";
    T_EQ_INT(client_ws_send(fd, 1, request, strlen(request)), 0);
    bool seen = false;
    for (int i = 0; i < 20 && !seen; i++) {
        char *data = NULL;
        if (client_ws_recv(fd, &data, NULL, 10000) != 1) {
            free(data);
            break;
        }
        seen = strstr(data, "from-the-web") != NULL;
        free(data);
    }
    T_ASSERT(seen);
    close(fd);
    //  A WebSocket from another site's page is refused before the upgrade.
    const char *evil[] = {s_cookie_h, "Origin: http://evil.example", NULL};
    fd = client_ws_open_ex(&web, NULL, "/func/stream/session/web-one/execute", evil,
                           &status);
    T_EQ_INT(status, 403);
    T_EQ_INT(fd, -1);
    T_EQ_INT(s_web("DELETE", "/func/session/web-one", with_cookie, NULL, NULL, NULL),
             200);
}

static void
test_revocation(void)
{
    const char *with_cookie[] = {s_cookie_h, s_origin_h, NULL};
    //  A password change ends the user's other sessions; the one that made
    //  it goes on.
    char other[160], other_h[200];
    T_EQ_INT(s_login("webuser@example.com", "pw-123456", other, sizeof other, NULL), 200);
    snprintf(other_h, sizeof other_h, "Cookie: %s", other);
    const char *with_other[] = {other_h, NULL};
    T_EQ_INT(s_web("GET", "/func/auth/role", with_other, NULL, NULL, NULL), 200);
    char *body = NULL;
    T_EQ_INT(s_web("POST", "/func/auth/update-password", with_cookie,
                   "{\"old_password\": \"pw-123456\", \"new_password\": \"pw-654321\","
                   " \"new_password2\": \"pw-654321\"}",
                   &body, NULL),
             200);
    free(body);
    T_EQ_INT(s_web("GET", "/func/auth/role", with_other, NULL, NULL, NULL), 401);
    T_EQ_INT(s_web("GET", "/func/auth/role", with_cookie, NULL, NULL, NULL), 200);
    //  Logout ends this one, and says so to the browser.
    char *head = NULL, value[256];
    T_EQ_INT(s_web("POST", "/server/logout", with_cookie, NULL, NULL, &head), 200);
    s_header(head, "Set-Cookie", value, sizeof value);
    T_CONTAINS(value, "backplane_session=;");
    T_CONTAINS(value, "Max-Age=0");
    free(head);
    T_EQ_INT(s_web("GET", "/func/auth/role", with_cookie, NULL, NULL, NULL), 401);
    //  Deactivation ends the sessions of the user.
    T_EQ_INT(s_login("webuser@example.com", "pw-654321", other, sizeof other, NULL), 200);
    snprintf(other_h, sizeof other_h, "Cookie: %s", other);
    T_EQ_INT(s_web("GET", "/func/auth/role", with_other, NULL, NULL, NULL), 200);
    json_t *r = client_gql(&s_p, &s_p.super,
                           "mutation { modify_user(email: \"webuser@example.com\","
                           " props: {status: \"inactive\"}) { ok msg } }",
                           NULL);
    T_ASSERT(client_mutation_ok(r, "modify_user"));
    json_decref(r);
    T_EQ_INT(s_web("GET", "/func/auth/role", with_other, NULL, NULL, NULL), 401);
    char db_path[600];
    snprintf(db_path, sizeof db_path, "%s/gateway/gateway.db", s_p.dir);
    sqlite3 *db = NULL;
    sqlite3_stmt *stmt = NULL;
    T_EQ_INT(sqlite3_open(db_path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    T_EQ_INT(sqlite3_prepare_v2(
                 db, "SELECT count(*) FROM login_sessions WHERE access_key = ?1", -1,
                 &stmt, NULL),
             SQLITE_OK);
    sqlite3_bind_text(stmt, 1, s_user.access_key, -1, SQLITE_STATIC);
    T_EQ_INT(sqlite3_step(stmt), SQLITE_ROW);
    T_EQ_INT(sqlite3_column_int(stmt, 0), 0);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
}

int
main(void)
{
    T_RUN(test_start);
    if (t_failures)
        return T_DONE();
    T_RUN(test_not_built);
    T_RUN(test_files);
    T_RUN(test_config_toml);
    T_RUN(test_login);
    T_RUN(test_func);
    T_RUN(test_cross_site);
    T_RUN(test_keypair_login);
    T_RUN(test_page_roles);
    T_RUN(test_bad_cookies);
    if (harness_can_run_containers()) {
        snprintf(s_bridge, sizeof s_bridge, "bpw%d", (int) (getpid() % 100000));
        s_agent_up =
            client_agent_start(&s_p, &s_agent, "agent-w", s_bridge, harness_subnet());
    }
    T_RUN(test_session_streams);
    T_RUN(test_revocation);
    int agent = s_agent_up ? harness_stop(&s_agent, CLIENT_STOP_MS) : 0;
    bool clean = client_platform_stop(&s_p) && agent == 0 &&
                 (!s_agent_up || !harness_log_has_report(&s_agent));
    if (!clean)
        fprintf(stderr, "# a service did not stop cleanly (agent %d)\n", agent);
    if (s_agent_up) {
        char command[64];
        snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridge);
        if (system(command) == 0)
            fprintf(stderr, "# the agent left its bridge %s\n", s_bridge);
    }
    client_platform_end(&s_p, t_failures > 0 || !clean);
    return clean ? T_DONE() : 1;
}
