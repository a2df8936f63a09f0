/*  =========================================================================
    gw_web - the web listener: the UI's files, /server, /func, /config.toml

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include <fcntl.h>    //  O_PATH, O_DIRECTORY for the root and its files
#include <strings.h>  //  strcasecmp, strncasecmp for header values
#include <sys/stat.h> //  fstat: sizes, times, kinds

//  The page answered when the UI's directory does not exist: no script,
//  no style, so the strictest policy holds for it too.
#define S_NOT_BUILT_PAGE                                                                 \
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"                  \
    "<title>Backplane</title></head>\n<body><h1>Backplane</h1>\n"                        \
    "<p>The web UI is not built on this server, so there is no page to show "            \
    "yet.</p>\n<p>This listener already serves the API under <code>/func/</code> "       \
    "(after <code>POST /server/login</code>) and <code>/config.toml</code> for "         \
    "Backend.AI's own web UI.</p>\n</body></html>\n"

struct _gw_web_t {
    gw_server_t *gw;
    gw_http_t *http;
    char root[PATH_MAX]; //  the UI's files
};

//  ---------------------------------------------------------------------------
//  Answers of the listener's own (files, refusals outside the pipeline)

//  The headers every answer of the web listener carries.
static void
s_security_headers(gw_server_t *gw, struct evhttp_request *req)
{
    struct evkeyvalq *headers = evhttp_request_get_output_headers(req);
    evhttp_add_header(headers, "Content-Security-Policy", gw_server_config(gw)->web_csp);
    evhttp_add_header(headers, "X-Frame-Options", "DENY");
    evhttp_add_header(headers, "X-Content-Type-Options", "nosniff");
    evhttp_add_header(headers, "Referrer-Policy", "same-origin");
    evhttp_add_header(headers, "Cross-Origin-Opener-Policy", "same-origin");
}

static void
s_log(struct evhttp_request *req, const char *path, int status, const char *what)
{
    bus_log_info("web request method=%s path=%s status=%d%s%s", gw_http_method_name(req),
                 path, status, what ? " file=" : "", what ? what : "");
}

//  A refusal outside the pipeline (a file, a method): problem+json.
static void
s_problem(struct evhttp_request *req,
          const char *path,
          const char *slug,
          const char *detail)
{
    s_log(req, path, gw_problem_status(slug), NULL);
    gw_send_problem(req, slug, detail);
}

static const struct {
    const char *ext;
    const char *type;
} s_types[] = {
    {"html", "text/html; charset=utf-8"},
    {"htm", "text/html; charset=utf-8"},
    {"js", "text/javascript; charset=utf-8"},
    {"mjs", "text/javascript; charset=utf-8"},
    {"css", "text/css; charset=utf-8"},
    {"json", "application/json"},
    {"map", "application/json"},
    {"webmanifest", "application/manifest+json"},
    {"txt", "text/plain; charset=utf-8"},
    {"toml", "application/toml"},
    {"xml", "application/xml"},
    {"svg", "image/svg+xml"},
    {"png", "image/png"},
    {"jpg", "image/jpeg"},
    {"jpeg", "image/jpeg"},
    {"gif", "image/gif"},
    {"webp", "image/webp"},
    {"ico", "image/x-icon"},
    {"woff", "font/woff"},
    {"woff2", "font/woff2"},
    {"ttf", "font/ttf"},
    {"otf", "font/otf"},
    {"eot", "application/vnd.ms-fontobject"},
    {"wasm", "application/wasm"},
    {"pdf", "application/pdf"},
    {"mp4", "video/mp4"},
    {"webm", "video/webm"},
};

//  The content type of a file name, from its extension.
static const char *
s_content_type(const char *name)
{
    const char *slash = strrchr(name, '/');
    const char *dot = strrchr(slash ? slash : name, '.');
    if (dot)
        for (size_t i = 0; i < sizeof s_types / sizeof s_types[0]; i++)
            if (strcasecmp(dot + 1, s_types[i].ext) == 0)
                return s_types[i].type;
    return "application/octet-stream";
}

//  Whether Accept-Encoding lets us answer gzip (a "gzip" or "*" coding not
//  weighted q=0).
static bool
s_accepts_gzip(const char *header)
{
    for (const char *p = header; p && *p;) {
        p += strspn(p, " \t,");
        size_t len = strcspn(p, ",");
        size_t name = strcspn(p, ";, \t");
        if ((name == 4 && strncasecmp(p, "gzip", 4) == 0) || (name == 1 && p[0] == '*')) {
            const char *q = strstr(p, "q=");
            bool zero = q && q < p + len && strtod(q + 2, NULL) <= 0.0;
            return !zero;
        }
        p += len;
    }
    return false;
}

//  Whether If-None-Match (a list of entity tags, or "*") names etag.
static bool
s_etag_matches(const char *header, const char *etag)
{
    size_t len = strlen(etag);
    for (const char *p = header; p && *p;) {
        p += strspn(p, " \t,");
        if (*p == '*')
            return true;
        if (strncmp(p, "W/", 2) == 0)
            p += 2; //  weak comparison, as RFC 9110 asks for If-None-Match
        if (strncmp(p, etag, len) == 0 && (p[len] == 0 || strchr(" \t,", p[len])))
            return true;
        p += strcspn(p, ",");
    }
    return false;
}

//  The outcome of looking a file up beneath the root.
typedef enum { S_FOUND, S_MISSING, S_ESCAPE } s_lookup_t;

//  Opens rel beneath rootfd for reading (a directory: its index.html).
//  S_FOUND with *fd_p and *st, S_MISSING, or S_ESCAPE for a lookup that
//  would leave the root (a symlink out) or meets something not a file.
static s_lookup_t
s_open_file(
    int rootfd, const char *rel, int *fd_p, struct stat *st, char *name, size_t size)
{
    snprintf(name, size, "%s", rel);
    int pathfd = bus_beneath_open(rootfd, rel, O_PATH, 0, BUS_BENEATH_IN);
    if (pathfd >= 0 && fstat(pathfd, st) == 0 && S_ISDIR(st->st_mode)) {
        close(pathfd);
        int wrote = snprintf(name, size, "%s%sindex.html", rel, *rel ? "/" : "");
        if (wrote < 0 || (size_t) wrote >= size)
            return S_MISSING;
        pathfd = bus_beneath_open(rootfd, name, O_PATH, 0, BUS_BENEATH_IN);
    }
    if (pathfd < 0)
        return errno == EXDEV || errno == ELOOP ? S_ESCAPE : S_MISSING;
    int fd = bus_beneath_reopen(pathfd, O_RDONLY, false, st);
    int saved = errno;
    close(pathfd);
    if (fd < 0)
        return saved == ENOENT ? S_MISSING : S_ESCAPE;
    *fd_p = fd;
    return S_FOUND;
}

//  Sends an open file (fd taken) as status (200, or 403 for a page a role
//  may not see), or 304 when the client holds a 200's file.
static void
s_send_file(gw_web_t *self,
            struct evhttp_request *req,
            const char *path,
            const char *name,
            int fd,
            const struct stat *st,
            bool gzip,
            int status)
{
    struct evkeyvalq *in = evhttp_request_get_input_headers(req);
    struct evkeyvalq *out = evhttp_request_get_output_headers(req);
    if (st->st_size > GW_WEB_FILE_MAX) {
        close(fd);
        s_problem(req, path, "internal-server-error", "The file is too large to serve.");
        return;
    }
    char etag[96], modified[64];
    snprintf(etag, sizeof etag, "\"%llx-%llx-%lx%s\"", (unsigned long long) st->st_size,
             (unsigned long long) st->st_mtim.tv_sec, (unsigned long) st->st_mtim.tv_nsec,
             gzip ? "-gz" : "");
    struct tm tm;
    gmtime_r(&st->st_mtim.tv_sec, &tm);
    strftime(modified, sizeof modified, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    evhttp_add_header(out, "Content-Type", s_content_type(name));
    if (status == 200) {
        evhttp_add_header(out, "ETag", etag);
        evhttp_add_header(out, "Last-Modified", modified);
    }
    //  Always asked again, answered 304 while it is the same file.
    evhttp_add_header(out, "Cache-Control", status == 200 ? "no-cache" : "no-store");
    evhttp_add_header(out, "Vary",
                      status == 200 ? "Accept-Encoding" : "Accept-Encoding, Cookie");
    if (gzip)
        evhttp_add_header(out, "Content-Encoding", "gzip");
    const char *none_match = evhttp_find_header(in, "If-None-Match");
    const char *since = evhttp_find_header(in, "If-Modified-Since");
    bool fresh = false;
    if (status != 200)
        ;
    else if (none_match)
        fresh = s_etag_matches(none_match, etag);
    else if (since) {
        struct tm when = {0};
        const char *end = strptime(since, "%a, %d %b %Y %H:%M:%S GMT", &when);
        fresh = end && !*end && timegm(&when) >= st->st_mtim.tv_sec;
    }
    if (fresh) {
        close(fd);
        s_log(req, path, 304, name);
        evhttp_send_reply(req, 304, "Not Modified", NULL);
        return;
    }
    struct evbuffer *body = evbuffer_new();
    if (!body) {
        close(fd);
        s_problem(req, path, "internal-server-error", NULL);
        return;
    }
    if (evhttp_request_get_command(req) == EVHTTP_REQ_HEAD) {
        char length[32];
        snprintf(length, sizeof length, "%lld", (long long) st->st_size);
        evhttp_add_header(out, "Content-Length", length);
        close(fd);
    } else if (st->st_size == 0)
        close(fd);
    else if (evbuffer_add_file(body, fd, 0, st->st_size) != 0) {
        //  evbuffer_add_file closed fd
        evbuffer_free(body);
        s_problem(req, path, "internal-server-error", NULL);
        return;
    }
    s_log(req, path, status, name);
    evhttp_send_reply(req, status, status == 200 ? "OK" : "Forbidden", body);
    evbuffer_free(body);
    (void) self;
}

//  A path whose last segment has no dot names no file: one of the UI's own
//  routes (/job, /data/folder), answered with index.html.
static bool
s_is_app_route(const char *rel)
{
    const char *slash = strrchr(rel, '/');
    return !strchr(slash ? slash + 1 : rel, '.');
}

//  The least role a page of the UI needs, by its path: /admin/... for
//  administrators, /system/... for superadmins, the rest for anyone.
static gw_role_t
s_page_role(const char *rel)
{
    if (strncmp(rel, "system", 6) == 0 && (rel[6] == 0 || rel[6] == '/'))
        return GW_ROLE_SUPERADMIN;
    if (strncmp(rel, "admin", 5) == 0 && (rel[5] == 0 || rel[5] == '/'))
        return GW_ROLE_ADMIN;
    return GW_ROLE_MONITOR;
}

//  200, or 403 for a page the logged-in person's role may not use. Someone
//  not logged in gets the page (the UI shows its login; the API it would
//  call checks the role again, whatever a page shows).
static int
s_page_status(gw_web_t *self, struct evhttp_request *req, const char *rel)
{
    gw_role_t needs = s_page_role(rel);
    if (needs == GW_ROLE_MONITOR)
        return 200;
    gw_identity_t who;
    const char *cookie =
        evhttp_find_header(evhttp_request_get_input_headers(req), "Cookie");
    if (!cookie || gw_login_identify(self->gw, cookie, &who, NULL) != BUS_OK)
        return 200;
    return who.role >= needs ? 200 : 403;
}

//  GET or HEAD of a file of the UI.
static void
s_static(gw_web_t *self, struct evhttp_request *req, const char *path)
{
    int method = (int) evhttp_request_get_command(req);
    if (method != EVHTTP_REQ_GET && method != EVHTTP_REQ_HEAD) {
        s_problem(req, path, "method-not-allowed", NULL);
        return;
    }
    char rel[GW_WEB_PATH_MAX];
    if (gw_web_guard_path(path, rel, sizeof rel) != 0) {
        bus_log_info("web path refused path=%s", path);
        s_problem(req, path, "generic-bad-request", "The path is not one of a file.");
        return;
    }
    int rootfd = open(self->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (rootfd < 0) {
        if (!s_is_app_route(rel)) {
            s_problem(req, path, "url-not-found", NULL);
            return;
        }
        //  The UI is not built: a page that says so.
        struct evkeyvalq *out = evhttp_request_get_output_headers(req);
        evhttp_add_header(out, "Content-Type", "text/html; charset=utf-8");
        evhttp_add_header(out, "Cache-Control", "no-cache");
        struct evbuffer *body = evbuffer_new();
        if (body && method != EVHTTP_REQ_HEAD)
            evbuffer_add(body, S_NOT_BUILT_PAGE, strlen(S_NOT_BUILT_PAGE));
        s_log(req, path, 200, "(not built)");
        evhttp_send_reply(req, 200, "OK", body);
        if (body)
            evbuffer_free(body);
        return;
    }
    int fd = -1;
    struct stat st;
    char name[GW_WEB_PATH_MAX + 16];
    s_lookup_t found = s_open_file(rootfd, rel, &fd, &st, name, sizeof name);
    int status = 200;
    if (found == S_MISSING && s_is_app_route(rel)) {
        found = s_open_file(rootfd, "index.html", &fd, &st, name, sizeof name);
        status = s_page_status(self, req, rel);
    }
    if (found != S_FOUND) {
        close(rootfd);
        if (found == S_ESCAPE)
            bus_log_info("web path leads outside the root path=%s", path);
        s_problem(req, path, "url-not-found", NULL);
        return;
    }
    //  A compressed sibling, when the client takes gzip.
    bool gzip = false;
    if (s_accepts_gzip(evhttp_find_header(evhttp_request_get_input_headers(req),
                                          "Accept-Encoding"))) {
        char gz[sizeof name + 3], gz_name[sizeof gz + 16];
        snprintf(gz, sizeof gz, "%s.gz", name);
        int gz_fd = -1;
        struct stat gz_st;
        if (s_open_file(rootfd, gz, &gz_fd, &gz_st, gz_name, sizeof gz_name) == S_FOUND &&
            strcmp(gz, gz_name) == 0) {
            close(fd);
            fd = gz_fd, st = gz_st, gzip = true;
        } else if (gz_fd >= 0)
            close(gz_fd);
    }
    close(rootfd);
    s_send_file(self, req, path, name, fd, &st, gzip, status);
}

//  ---------------------------------------------------------------------------
//  Dispatch

static void
s_dispatch(gw_server_t *gw, struct evhttp_request *req)
{
    gw_web_t *self = gw_server_web(gw);
    s_security_headers(gw, req);
    const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
    const char *path = uri ? evhttp_uri_get_path(uri) : NULL;
    if (!path || !*path)
        path = "/";
    size_t prefix = strlen(GW_WEB_API_PREFIX);
    if (strncmp(path, GW_WEB_API_PREFIX, prefix) == 0 &&
        (path[prefix] == 0 || path[prefix] == '/'))
        gw_request_dispatch_web(gw, req, gw_routes, path[prefix] ? path + prefix : "/");
    else if (strncmp(path, "/server/", 8) == 0 || strcmp(path, "/config.toml") == 0)
        gw_request_dispatch_web(gw, req, gw_web_routes, path);
    else if (self)
        s_static(self, req, path);
    else
        s_problem(req, path, "service-unavailable", NULL);
}

//  The root when web.root is empty: GW_WEB_ROOT_DEFAULT from the binary's
//  directory.
static void
s_default_root(char *root, size_t size)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) {
        snprintf(root, size, "%s", GW_WEB_ROOT_DEFAULT);
        return;
    }
    exe[len] = 0;
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = 0;
    if ((size_t) snprintf(root, size, "%.*s/%s",
                          (int) (size - sizeof GW_WEB_ROOT_DEFAULT - 1), exe,
                          GW_WEB_ROOT_DEFAULT) >= size)
        snprintf(root, size, "%s", GW_WEB_ROOT_DEFAULT);
}

gw_web_t *
gw_web_new(gw_server_t *gw, bus_error_t *err)
{
    const gw_config_t *config = gw_server_config(gw);
    if (!*config->web_listen)
        return NULL;
    char origin[GW_WEB_ORIGIN_MAX];
    if (*config->web_public_url &&
        gw_web_guard_origin_normalize(config->web_public_url, origin, sizeof origin) !=
            0) {
        bus_error_set(err, BUS_STATUS_INVALID,
                      "web.public_url '%s' is not scheme://host[:port]",
                      config->web_public_url);
        return NULL;
    }
    gw_web_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->gw = gw;
    if (*config->web_root)
        snprintf(self->root, sizeof self->root, "%s", config->web_root);
    else
        s_default_root(self->root, sizeof self->root);
    gw_http_opts_t opts = {"web",
                           config->web_listen,
                           config->web_tls_cert,
                           config->web_tls_key,
                           config->max_body_bytes,
                           s_dispatch};
    self->http = gw_http_new(gw, &opts, err);
    if (!self->http) {
        free(self);
        return NULL;
    }
    struct stat st;
    if (stat(self->root, &st) != 0 || !S_ISDIR(st.st_mode))
        bus_log_warning("web UI not built: no directory %s (web.root); its pages say so",
                        self->root);
    return self;
}

void
gw_web_destroy(gw_web_t **self_p)
{
    gw_web_t *self = *self_p;
    if (!self)
        return;
    gw_http_destroy(&self->http);
    free(self);
    *self_p = NULL;
}

const char *
gw_web_endpoint(const gw_web_t *self)
{
    assert(self);
    return gw_http_endpoint(self->http);
}

bool
gw_web_tls(const gw_web_t *self)
{
    assert(self);
    return gw_http_tls(self->http);
}

const char *
gw_web_root(const gw_web_t *self)
{
    assert(self);
    return self->root;
}

//  ---------------------------------------------------------------------------
//  The origin stage and /config.toml

//  Whether the listener r came through speaks TLS.
static bool
s_tls(gw_request_t *r)
{
    gw_web_t *web = gw_server_web(r->gw);
    return r->web && web ? gw_web_tls(web) : gw_http_tls(gw_server_http(r->gw));
}

bool
gw_web_admit(gw_request_t *r)
{
    if (r->signed_request)
        return true; //  a browser cannot sign: no forgery to fear
    int method = (int) evhttp_request_get_command(r->req);
    bool changes = method == EVHTTP_REQ_POST || method == EVHTTP_REQ_PUT ||
                   method == EVHTTP_REQ_PATCH || method == EVHTTP_REQ_DELETE;
    const char *upgrade = gw_request_header(r, "Upgrade");
    bool websocket = upgrade && strcasecmp(upgrade, "websocket") == 0;
    if (!changes && !websocket)
        return true;
    const char *origin = gw_request_header(r, "Origin");
    if (gw_web_guard_origin(origin, gw_request_header(r, "Sec-Fetch-Site"),
                            gw_request_header(r, "Host"), s_tls(r),
                            r->web ? gw_server_config(r->gw)->web_public_url : ""))
        return true;
    bus_log_notice("cross-site request refused method=%s path=%s origin=%s", r->method,
                   r->path, origin ? origin : "-");
    gw_reply_problem(r, "generic-forbidden",
                     "Cross-site request refused: it does not come from this server's "
                     "pages.");
    return false;
}

void
gw_web_handle_config_toml(gw_request_t *r)
{
    const gw_config_t *config = gw_server_config(r->gw);
    char endpoint[GW_WEB_ORIGIN_MAX];
    int rc;
    if (*config->web_public_url)
        rc = gw_web_guard_origin_normalize(config->web_public_url, endpoint,
                                           sizeof endpoint);
    else {
        const char *host = gw_request_header(r, "Host");
        char url[GW_WEB_ORIGIN_MAX];
        rc = host && strlen(host) < 260 && !strchr(host, '/') ? 0 : -1;
        if (rc == 0) {
            snprintf(url, sizeof url, "%s://%s", s_tls(r) ? "https" : "http", host);
            rc = gw_web_guard_origin_normalize(url, endpoint, sizeof endpoint);
        }
    }
    if (rc != 0) {
        gw_reply_problem(r, "generic-bad-request", "The Host header is not host[:port].");
        return;
    }
    //  The wsproxy the UI's v1 app path would use; the v2 path (the
    //  browser's) takes its address from start-service.
    const char *wsproxy = config->apps_wsproxy_addr;
    bool quoted_ok = !strpbrk(wsproxy, "\"\\\n");
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out) {
        gw_reply_problem(r, "internal-server-error", NULL);
        return;
    }
    fprintf(out,
            "# Backplane: the configuration Backend.AI's web UI (22.03) reads.\n"
            "[general]\n"
            "apiEndpoint = \"%s\"\n"
            "apiEndpointText = \"Backplane\"\n"
            "connectionMode = \"SESSION\"\n"
            "allowChangeSigninMode = false\n"
            "signupSupport = false\n"
            "allowSignout = false\n"
            "allowAnonymousChangePassword = false\n"
            "allowProjectResourceMonitor = true\n"
            "allowManualImageNameForSession = false\n"
            "autoLogout = false\n"
            "debug = false\n"
            "maskUserInfo = false\n"
            "enableContainerCommit = false\n"
            "hideAgents = false\n"
            "enable2FA = false\n"
            "force2FA = false\n"
            "directoryBasedUsage = false\n"
            "maxCountForPreopenPorts = 10\n"
            "allowCustomResourceAllocation = true\n"
            "\n[wsproxy]\n"
            "proxyURL = \"%s%s\"\n"
            "\n[menu]\n"
            "blocklist = \"pipeline,github,import\"\n"
            "\n[resources]\n"
            "openPortToPublic = false\n"
            "allowPreferredPort = false\n"
            "allowNonAuthTCP = false\n"
            "maxCPUCoresPerContainer = 64\n"
            "maxMemoryPerContainer = 256\n"
            "maxCUDADevicesPerContainer = 8\n"
            "maxCUDASharesPerContainer = 8\n"
            "maxShmPerContainer = 16\n"
            "maxFileUploadSize = -1\n"
            "\n[environments]\n"
            "showNonInstalledImages = false\n"
            "\n[plugin]\n"
            "\n[pipeline]\n",
            endpoint, quoted_ok ? wsproxy : "",
            quoted_ok && *wsproxy && wsproxy[strlen(wsproxy) - 1] != '/' ? "/" : "");
    fclose(out);
    gw_reply_bytes(r, 200, "application/toml; charset=utf-8", text, size);
    free(text);
}
