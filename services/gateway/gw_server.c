/*  =========================================================================
    gw_server - the gateway as bus_main runs it

    The gateway's HTTP server runs on the node's event loop, so a request
    handler can call other services over the bus and answer when the reply
    comes, without threads or locks.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

static void
s_fini(void **state_p)
{
    gw_server_t *gw = *state_p;
    if (gw) {
        gw_http_stop(gw);
        gw_stats_fini(gw);
        gw_events_fini(gw);
        gw_accesslog_destroy(&gw->accesslog);
        gw_activity_destroy(&gw->activity);
        gw_storage_destroy(&gw->storage);
        if (gw->token_secret)
            OPENSSL_cleanse(gw->token_secret, gw->token_secret_len);
        free(gw->token_secret);
        gw_identity_cache_destroy(&gw->identities);
        gw_ratelimit_destroy(&gw->rate);
        gw_ratelimit_destroy(&gw->login_failures);
        free(gw);
        *state_p = NULL;
    }
}

static void *
s_init(bus_node_t *node, const void *config_, bus_error_t *err)
{
    const gw_config_t *config = config_;
    gw_server_t *gw = calloc(1, sizeof *gw);
    if (!gw)
        return NULL;
    gw->node = node;
    gw->db = bus_node_db(node);
    gw->config = config;
    gw->rate = gw_ratelimit_new(config->rate_window_s);
    gw->login_failures = gw_ratelimit_new(config->rate_window_s);
    gw->identities = gw_identity_cache_new(GW_IDENTITY_TTL_MS);
    gw->accesslog = gw_accesslog_new(node);
    gw->activity = gw_activity_new(node);
    gw->storage = gw_storage_new(node);
    if (!gw->rate || !gw->login_failures || !gw->identities || !gw->accesslog ||
        !gw->activity || !gw->storage) {
        s_fini((void **) &gw);
        return NULL;
    }
    //  Without the secret the folders work, but files go in and out only
    //  through the storage-proxy's own RPC: request-upload/download refuse.
    if (*config->vfolder_token_secret_file &&
        bus_token_read_secret(config->vfolder_token_secret_file,
                              "vfolders.token_secret_file", &gw->token_secret,
                              &gw->token_secret_len, err) != 0) {
        s_fini((void **) &gw);
        return NULL;
    }
    if (gw_image_init(gw) != 0 || gw_events_init(gw) != 0 || gw_stats_init(gw) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot follow image or session events");
        s_fini((void **) &gw);
        return NULL;
    }
    if (gw_http_start(gw, config->listen, config->max_body_bytes, err) != 0) {
        s_fini((void **) &gw);
        return NULL;
    }
    char url[320];
    snprintf(url, sizeof url, "%s://%s", gw->tls ? "https" : "http", gw->endpoint);
    if (gw_bootstrap(bus_node_db(node), config, url, err) != 0) {
        s_fini((void **) &gw);
        return NULL;
    }
    bus_log_notice("api listening url=%s/", url);
    //  on the ready line, which scripts and people look for
    char slash[sizeof url + 1];
    snprintf(slash, sizeof slash, "%s/", url);
    bus_node_set_url(node, slash);
    return gw;
}

const bus_service_t gw_service = {
    .name = "gateway",
    .summary = "The Backend.AI-compatible HTTP API: authentication, tenancy, sessions",
    .options = gw_config_options,
    .config_size = sizeof(gw_config_t),
    .node_config_offset = offsetof(gw_config_t, node),
    .migrations = gw_db_migrations,
    .migration_count = GW_DB_MIGRATION_COUNT,
    .init = s_init,
    .fini = s_fini,
    .command = gw_admin_cli,
};
