/*  =========================================================================
    gw_app_token - POST /session/{s}/start-service

    Reference part 2 §A.8: the app is resolved and started as for the
    stream tunnels (gw_app), then the gateway signs a token that grants this
    app of this session to the session's owner, reaching the address the
    agent answered (bus_apptoken), and answers it with the resource group's
    wsproxy: {"token", "wsproxy_addr"}. Backend.AI's manager posts the
    target to its wsproxy's /v2/conf and answers the token that returns;
    ours signs it itself with the secret it shares with the wsproxy, which
    checks it when /v2/proxy/{token}/{session}/add opens the route. So the
    gateway never calls the wsproxy, and a wsproxy that restarts loses no
    token.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "bus_apptoken.h"

typedef struct {
    gw_app_t app;
    char wsproxy_addr[1024];
} s_request_t;

const char *
gw_app_token_wsproxy(gw_request_t *r, json_t *group)
{
    const char *own = json_string_value(json_object_get(group, "wsproxy_addr"));
    if (own && *own)
        return own;
    const char *fallback = gw_server_config(r->gw)->apps_wsproxy_addr;
    return fallback && *fallback ? fallback : NULL;
}

static void
s_on_started(gw_request_t *r, gw_app_t *app, bool started, void *arg)
{
    (void) app;
    s_request_t *self = arg;
    if (!started) {
        free(self);
        return; //  answered
    }
    size_t secret_len = 0;
    const uint8_t *secret = gw_server_apps_secret(r->gw, &secret_len);
    bus_apptoken_claims_t claims = {0};
    snprintf(claims.session_id, sizeof claims.session_id, "%s", app->at.session_id);
    snprintf(claims.kernel_id, sizeof claims.kernel_id, "%s", app->at.kernel_id);
    snprintf(claims.app, sizeof claims.app, "%s", app->name);
    snprintf(claims.host, sizeof claims.host, "%s", app->host);
    claims.port = (uint16_t) app->host_port;
    snprintf(claims.access_key, sizeof claims.access_key, "%s", app->access_key);
    snprintf(claims.user_uuid, sizeof claims.user_uuid, "%s", app->user_uuid);
    claims.expires =
        bus_clock_wall_us() / 1000000 + gw_server_config(r->gw)->apps_token_ttl_s;
    bus_error_t err = {0};
    char *token = bus_apptoken_protocol_parse(app->protocol, &claims.protocol) == 0
                      ? bus_apptoken_sign(secret, secret_len, &claims, &err)
                      : NULL;
    if (!token)
        gw_reply_problem(r, "internal-server-error",
                         err.detail[0] ? err.detail : "cannot sign the app token");
    else {
        bus_log_info("app token issued session=%s app=%s user=%s", claims.session_id,
                     claims.app, claims.user_uuid);
        gw_reply_json(
            r, 200,
            json_pack("{s:s, s:s}", "token", token, "wsproxy_addr", self->wsproxy_addr));
    }
    free(token);
    free(self);
}

static void
s_on_session(gw_request_t *r, proto_session_info_t *info, void *arg)
{
    (void) arg;
    s_request_t *self = calloc(1, sizeof *self);
    if (!self) {
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    if (!gw_app_resolve(r, info, &self->app)) {
        free(self);
        return; //  answered
    }
    json_t *group = NULL;
    bus_error_t err = {0};
    const char *wsproxy = NULL;
    if (info->scaling_group &&
        gw_sgroup_get(gw_request_ctx(r), info->scaling_group, &group, &err) == BUS_OK)
        wsproxy = gw_app_token_wsproxy(r, group);
    size_t secret_len = 0;
    if (!wsproxy || !gw_server_apps_secret(r->gw, &secret_len)) {
        json_decref(group);
        free(self);
        gw_reply_problem(r, "service-unavailable",
                         !wsproxy ? "No coordinator configured for this resource group"
                                  : "app tokens are not configured "
                                    "(apps.token_secret_file)");
        return;
    }
    snprintf(self->wsproxy_addr, sizeof self->wsproxy_addr, "%s", wsproxy);
    json_decref(group);
    gw_app_start(r, &self->app, s_on_started, self);
}

void
gw_app_token_handle(gw_request_t *r)
{
    gw_session_find(r, s_on_session, NULL);
}
