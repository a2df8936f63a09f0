/*  =========================================================================
    gw_request - the request pipeline: route, auth, rate, params, handler,
    reply, access log

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include <strings.h> //  strcasecmp for X-Method-Override

static int
s_method_bit(const char *method)
{
    static const struct {
        const char *name;
        int bit;
    } methods[] = {
        {"GET", EVHTTP_REQ_GET},       {"POST", EVHTTP_REQ_POST},
        {"HEAD", EVHTTP_REQ_HEAD},     {"PUT", EVHTTP_REQ_PUT},
        {"DELETE", EVHTTP_REQ_DELETE}, {"OPTIONS", EVHTTP_REQ_OPTIONS},
        {"PATCH", EVHTTP_REQ_PATCH},
    };
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
        if (strcasecmp(methods[i].name, method) == 0)
            return methods[i].bit;
    return 0;
}

//  Matches path against pattern segment by segment, capturing "{name}"
//  segments into r. True on a match.
static bool
s_match(gw_request_t *r, const char *pattern, const char *path)
{
    int captures = 0;
    const char *p = pattern, *q = path;
    while (*p && *q) {
        if (*p != '/' || *q != '/')
            return false;
        p++, q++;
        size_t plen = strcspn(p, "/"), qlen = strcspn(q, "/");
        if (plen > 1 && p[0] == '{' && p[plen - 1] == '}') {
            if (qlen == 0 || captures == GW_PATH_PARAMS_MAX ||
                qlen >= sizeof r->path_params[0])
                return false;
            //  Captures are percent-decoded: a session name may hold spaces.
            char raw[sizeof r->path_params[0]];
            memcpy(raw, q, qlen);
            raw[qlen] = 0;
            char *decoded = evhttp_uridecode(raw, 0, NULL);
            if (!decoded)
                return false;
            snprintf(r->path_params[captures++], sizeof r->path_params[0], "%s", decoded);
            free(decoded);
        } else if (plen != qlen || strncmp(p, q, plen) != 0)
            return false;
        p += plen, q += qlen;
    }
    if (*p || *q)
        return false;
    r->path_param_count = captures;
    return true;
}

const char *
gw_request_path_param(const gw_request_t *r, const char *name)
{
    size_t len = strlen(name);
    int index = 0;
    for (const char *p = r->route->pattern; (p = strchr(p, '{')); p++) {
        if (strncmp(p + 1, name, len) == 0 && p[1 + len] == '}')
            return index < r->path_param_count ? r->path_params[index] : NULL;
        index++;
    }
    return NULL;
}

const char *
gw_request_header(const gw_request_t *r, const char *name)
{
    return r->req ? evhttp_find_header(evhttp_request_get_input_headers(r->req), name)
                  : NULL;
}

//  ---------------------------------------------------------------------------
//  The end of a request: reply, then access log

static void
s_release(gw_request_t *r)
{
    json_decref(r->prefetch);
    json_decref(r->prefetch_sessions);
    json_decref(r->prefetch_resolved);
    json_decref(r->prefetch_cards);
    json_decref(r->params);
    free(r);
}

//  The access log: one durable event per request (written in batches).
static void
s_log_access(gw_request_t *r)
{
    proto_gateway_access_t access;
    proto_gateway_access_init(&access);
    access.request_id = r->id;
    access.ts = r->started_us;
    //  who asked, also when it acted for another keypair's owner
    const gw_identity_t *who = *r->caller.access_key ? &r->caller : &r->who;
    access.access_key = r->authenticated ? who->access_key : "";
    access.user_id = r->authenticated ? who->user_uuid : "";
    access.domain_name = r->authenticated ? who->domain : "";
    access.method = r->method;
    access.path = r->path;
    access.status = (uint64_t) r->status;
    access.latency_us = (uint64_t) (bus_clock_wall_us() - r->started_us);
    access.client_addr = r->client_addr;
    access.error_type = (r->error_type ? r->error_type : "");
    gw_accesslog_add(gw_server_accesslog(r->gw), &access);
    gw_metrics_request(gw_server_metrics(r->gw), r->method,
                       r->route ? r->route->pattern : NULL, r->status,
                       (double) access.latency_us / 1e6);
    bus_log_info("request method=%s path=%s status=%d access_key=%s latency_us=%" PRIu64
                 " id=%s",
                 r->method, r->path, r->status, r->authenticated ? who->access_key : "-",
                 access.latency_us, r->id);
}

static void
s_on_close(struct evhttp_connection *conn, void *arg)
{
    (void) conn;
    gw_request_t *r = arg;
    r->req = NULL;
}

//  The first half of every reply: false when the client went away (then
//  the request is logged and released).
static bool
s_send_begin(gw_request_t *r, int status)
{
    r->status = status;
    if (!r->req) {
        //  The client went away; the handler's answer has nowhere to go.
        r->status = 499;
        s_log_access(r);
        s_release(r);
        return false;
    }
    evhttp_connection_set_closecb(evhttp_request_get_connection(r->req), NULL, NULL);
    struct evkeyvalq *headers = evhttp_request_get_output_headers(r->req);
    if (r->authenticated && r->rate_remaining >= 0) {
        char value[32];
        snprintf(value, sizeof value, "%d", r->who.rate_limit);
        evhttp_add_header(headers, "X-RateLimit-Limit", value);
        snprintf(value, sizeof value, "%d", r->rate_remaining);
        evhttp_add_header(headers, "X-RateLimit-Remaining", value);
        snprintf(value, sizeof value, "%d", gw_ratelimit_window_s(gw_server_rate(r->gw)));
        evhttp_add_header(headers, "X-RateLimit-Window", value);
    }
    return true;
}

static void
s_send(gw_request_t *r, int status, json_t *body, const char *content_type)
{
    if (!s_send_begin(r, status)) {
        json_decref(body);
        return;
    }
    gw_http_reply_json(r->req, status, body, content_type);
    s_log_access(r);
    s_release(r);
}

void
gw_reply_bytes(
    gw_request_t *r, int status, const char *content_type, const void *data, size_t size)
{
    if (!s_send_begin(r, status))
        return;
    gw_http_reply_bytes(r->req, status, content_type, data, size);
    s_log_access(r);
    s_release(r);
}

struct evhttp_request *
gw_request_take_over(gw_request_t *r, int status)
{
    struct evhttp_request *req = r->req;
    evhttp_connection_set_closecb(evhttp_request_get_connection(req), NULL, NULL);
    r->status = status;
    s_log_access(r);
    s_release(r);
    return req;
}

void
gw_reply_json(gw_request_t *r, int status, json_t *body)
{
    s_send(r, status, body ? body : json_object(), NULL);
}

void
gw_reply_problem(gw_request_t *r, const char *slug, const char *detail)
{
    gw_reply_problem_data(r, slug, detail, NULL);
}

void
gw_reply_problem_data(gw_request_t *r, const char *slug, const char *detail, json_t *data)
{
    r->error_type = slug;
    int status = gw_problem_status(slug);
    char type[128];
    snprintf(type, sizeof type, "%s%s", GW_PROBLEM_TYPE_BASE, slug);
    json_t *body =
        json_pack("{s:s, s:s, s:i, s:s}", "type", type, "title", gw_problem_title(slug),
                  "status", status, "request_id", r->id);
    if (body && detail) {
        json_object_set_new(body, "msg", json_string(detail));
        json_object_set_new(body, "detail", json_string(detail));
    }
    if (body)
        json_object_set_new(body, "instance", json_string(r->path));
    if (body && data)
        json_object_set_new(body, "data", data);
    else
        json_decref(data);
    //  A failure of ours (5xx) met by a known user needs an operator: logged
    //  at error level and kept in the error logs, where the user and their
    //  admins see it (gw_errorlog).
    if (status >= 500 && r->who.user_uuid[0]) {
        bus_log_error("request failed method=%s path=%s type=%s detail=\"%s\" id=%s "
                      "user=%s",
                      r->method, r->path, slug, detail ? detail : "", r->id,
                      r->who.user_uuid);
        char context[128];
        snprintf(context, sizeof context, "{\"request_id\":\"%s\",\"type\":\"%s\"}",
                 r->id, slug);
        gw_errorlog_entry_t entry = {.severity = "error",
                                     .source = "gateway",
                                     .user_uuid = r->who.user_uuid,
                                     .message = detail ? detail : gw_problem_title(slug),
                                     .context_lang = "c",
                                     .context_env = context,
                                     .request_url = r->path,
                                     .request_status = status};
        gw_errorlog_append(gw_server_db(r->gw), &entry);
    } else
        bus_log_info("request refused method=%s path=%s type=%s detail=\"%s\" id=%s",
                     r->method, r->path, slug, detail ? detail : "", r->id);
    s_send(r, status, body, "application/problem+json");
}

void
gw_reply_status(gw_request_t *r, int status, const char *detail)
{
    gw_reply_problem(r, gw_problem_slug_for_status(status), detail);
}

//  ---------------------------------------------------------------------------
//  Stages

//  Authenticates r: HMAC signature, else a login cookie. True to go on;
//  false when a reply was sent.
static bool
s_authenticate(gw_request_t *r)
{
    gw_server_t *gw = r->gw;
    struct evkeyvalq *headers = evhttp_request_get_input_headers(r->req);
    gw_auth_params_t params;
    gw_auth_problem_t problem = {0};
    int64_t skew_us = (int64_t) gw_server_config(gw)->clock_skew_s * 1000000;
    gw_auth_rc_t rc =
        gw_auth_extract(headers, bus_clock_wall_us(), skew_us, &params, &problem);
    if (rc == GW_AUTH_FAILED) {
        gw_reply_problem(r, problem.slug, problem.detail);
        return false;
    }
    if (rc == GW_AUTH_SIGNED) {
        unsigned char key[GW_AUTH_DIGEST_MAX];
        size_t key_len = 0;
        int found = gw_identity_cache_get(
            gw_server_identities(gw), bus_node_db(gw_server_node(gw)),
            params.credential.access_key, params.credential.hash_name, params.date_key,
            params.host ? params.host : "", &r->who, key, &key_len);
        OPENSSL_cleanse(r->who.secret_key, sizeof r->who.secret_key);
        if (found == BUS_STATUS_INTERNAL) {
            gw_reply_problem(r, "internal-server-error", NULL);
            return false;
        }
        //  Inactive keypairs and users are refused as unknown ones are.
        if (found != BUS_OK || !r->who.keypair_active || !r->who.user_active) {
            bus_log_info("auth refused access_key=%s reason=%s",
                         params.credential.access_key,
                         found != BUS_OK ? "unknown" : "inactive");
            memset(&r->who, 0, sizeof r->who);
            gw_reply_problem(r, GW_AUTH_SLUG_FAILED, GW_AUTH_DETAIL_UNKNOWN_KEY);
            return false;
        }
        //  The signature covers the method on the wire, not an override.
        int checked = gw_auth_check_with_key(&params, gw_http_method_name(r->req),
                                             evhttp_request_get_uri(r->req),
                                             key_len ? key : NULL, key_len, &problem);
        OPENSSL_cleanse(key, sizeof key);
        if (checked != 0) {
            memset(&r->who, 0, sizeof r->who);
            gw_reply_problem(r, problem.slug, problem.detail);
            return false;
        }
        r->authenticated = true;
        r->signed_request = true;
        return true;
    }
    //  Unsigned: a browser's login cookie may stand in for the signature.
    if (gw_login_identify(gw, gw_request_header(r, "Cookie"), &r->who, r->login_hash) ==
        BUS_OK) {
        OPENSSL_cleanse(r->who.secret_key, sizeof r->who.secret_key);
        r->authenticated = true;
        return true;
    }
    if (r->route->auth != GW_AUTH_NONE) {
        gw_reply_problem(r, GW_AUTH_SLUG_FAILED, GW_AUTH_DETAIL_UNAUTHORIZED);
        return false;
    }
    return true;
}

//  GW_AUTH_OWNER: the keypair owner_access_key names, when it is not the
//  caller's, becomes the identity the handler acts as, if the caller may
//  act for it (Backend.AI's rules: a superadmin for any keypair, a domain
//  admin for the keypairs of its own domain's users other than
//  superadmins, nobody else). Never silently the caller's own instead.
static bool
s_act_for_owner(gw_request_t *r)
{
    if (r->route->auth != GW_AUTH_OWNER)
        return true;
    json_t *value = json_object_get(r->params, "owner_access_key");
    if (!value || json_is_null(value))
        return true;
    const char *owner = json_string_value(value);
    if (!owner || !*owner || strlen(owner) >= sizeof r->who.access_key) {
        gw_reply_problem(r, "invalid-api-params", "owner_access_key: an access key");
        return false;
    }
    if (strcmp(owner, r->who.access_key) == 0)
        return true;
    if (r->who.role != GW_ROLE_SUPERADMIN && r->who.role != GW_ROLE_ADMIN) {
        gw_reply_problem(r, "generic-forbidden",
                         "only administrators may act for another keypair");
        return false;
    }
    gw_identity_t owner_id;
    int rc = gw_identity_load(gw_server_db(r->gw), owner, &owner_id);
    OPENSSL_cleanse(owner_id.secret_key, sizeof owner_id.secret_key);
    if (rc == BUS_STATUS_NOT_FOUND) {
        gw_reply_problem(r, "invalid-api-params", "Unknown owner access key");
        return false;
    }
    if (rc != BUS_OK) {
        gw_reply_status(r, rc, "cannot read the owner's keypair");
        return false;
    }
    bool allowed = gw_identity_is_superadmin(&r->who) ||
                   (gw_identity_admins_domain(&r->who, owner_id.domain) &&
                    owner_id.role != GW_ROLE_SUPERADMIN);
    if (!allowed) {
        gw_reply_problem(r, "generic-forbidden",
                         "you may not act for a keypair outside your domain");
        return false;
    }
    r->caller = r->who;
    OPENSSL_cleanse(r->caller.secret_key, sizeof r->caller.secret_key);
    r->who = owner_id;
    return true;
}

static bool
s_rate_limit(gw_request_t *r)
{
    r->rate_remaining = -1;
    if (!r->authenticated)
        return true;
    if (!gw_ratelimit_take(gw_server_rate(r->gw), r->who.access_key, r->who.rate_limit,
                           bus_clock_mono_ms(), &r->rate_remaining)) {
        gw_reply_problem(r, "rate-limit-exceeded", NULL);
        return false;
    }
    return true;
}

//  Refuses a body over api.max_body_bytes before any work is spent on it.
static bool
s_check_size(gw_request_t *r)
{
    struct evbuffer *input = evhttp_request_get_input_buffer(r->req);
    size_t length = input ? evbuffer_get_length(input) : 0;
    int64_t limit = gw_routes_max_body(r->route, gw_server_config(r->gw)->max_body_bytes);
    if ((int64_t) length <= limit)
        return true;
    char detail[128];
    snprintf(detail, sizeof detail, "The body (%zu bytes) is larger than %lld bytes.",
             length, (long long) limit);
    gw_reply_problem(r, "request-entity-too-large", detail);
    return false;
}

static bool
s_parse_params(gw_request_t *r)
{
    char detail[256];
    r->params = gw_params_parse(r->req, detail, sizeof detail);
    if (!r->params) {
        gw_reply_problem(r, "invalid-api-params", detail);
        return false;
    }
    return true;
}

gw_ctx_t *
gw_request_ctx(gw_request_t *r)
{
    assert(r);
    return &r->ctx;
}

static void
s_dispatch(gw_server_t *gw,
           struct evhttp_request *req,
           const gw_route_t *routes,
           const char *web_path)
{
    gw_request_t *r = calloc(1, sizeof *r);
    if (!r) {
        gw_send_problem(req, "internal-server-error", NULL);
        return;
    }
    r->gw = gw;
    r->ctx = (gw_ctx_t){gw_server_db(gw), gw_server_node(gw), gw_server_config(gw),
                        gw_server_identities(gw), &r->who};
    r->req = req;
    r->started_us = bus_clock_wall_us();
    r->rate_remaining = -1;
    gw_uuid_new(r->id);
    r->method = gw_http_method_name(req);
    const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
    const char *path = web_path ? web_path : uri ? evhttp_uri_get_path(uri) : NULL;
    snprintf(r->path, sizeof r->path, "%s", path && *path ? path : "/");
    r->web = web_path != NULL;
    char *addr = NULL;
    ev_uint16_t port = 0;
    evhttp_connection_get_peer(evhttp_request_get_connection(req), &addr, &port);
    snprintf(r->client_addr, sizeof r->client_addr, "%s", addr ? addr : "");
    evhttp_connection_set_closecb(evhttp_request_get_connection(req), s_on_close, r);
    bus_log_set_corr(r->id);

    //  A POST may say which method it stands for.
    const char *override =
        evhttp_find_header(evhttp_request_get_input_headers(req), "X-Method-Override");
    int method = (int) evhttp_request_get_command(req);
    if (override && method == EVHTTP_REQ_POST && s_method_bit(override)) {
        method = s_method_bit(override);
        static const char *names[] = {"GET",    "POST",    "HEAD", "PUT",
                                      "DELETE", "OPTIONS", "PATCH"};
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (strcasecmp(names[i], override) == 0)
                r->method = names[i];
    }
    bool path_known = false;
    for (const gw_route_t *route = routes; route->pattern; route++) {
        if (!s_match(r, route->pattern, r->path))
            continue;
        path_known = true;
        if (route->methods & method) {
            r->route = route;
            break;
        }
    }
    if (!r->route)
        gw_reply_problem(r, path_known ? "method-not-allowed" : "url-not-found", NULL);
    else if (s_check_size(r) && s_authenticate(r) && gw_web_admit(r) && s_rate_limit(r) &&
             s_parse_params(r) && s_act_for_owner(r) && gw_manager_admit(r))
        r->route->handler(r);
    bus_log_set_corr(NULL);
}

void
gw_request_dispatch(gw_server_t *gw, struct evhttp_request *req, const gw_route_t *routes)
{
    s_dispatch(gw, req, routes, NULL);
}

void
gw_request_dispatch_web(gw_server_t *gw,
                        struct evhttp_request *req,
                        const gw_route_t *routes,
                        const char *path)
{
    assert(path);
    s_dispatch(gw, req, routes, path);
}
