/*  =========================================================================
    gw_config - the option table of the gateway

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

const bus_config_option_t gw_config_options[] = {
    BUS_NODE_CONFIG_ROWS(gw_config_t, node, "false", BUS_NODE_HTTP_GATEWAY),
    {"api.listen", BUS_CFG_STRING, offsetof(gw_config_t, listen), "127.0.0.1:8081", 3,
     255, NULL,
     "host:port the Backend.AI-compatible API listens on (port 0 = any free port)"},
    {"api.tls_cert", BUS_CFG_STRING, offsetof(gw_config_t, tls_cert), "", 0, 4095, NULL,
     "PEM certificate (chain) to serve HTTPS with; empty serves plain HTTP"},
    {"api.tls_key", BUS_CFG_STRING, offsetof(gw_config_t, tls_key), "", 0, 4095, NULL,
     "PEM private key of api.tls_cert"},
    {"api.max_body_bytes", BUS_CFG_BYTES, offsetof(gw_config_t, max_body_bytes), "1m",
     1024, 1LL << 30, NULL, "largest request body accepted; larger ones get 413"},
    {"api.request_timeout_ms", BUS_CFG_INT, offsetof(gw_config_t, request_timeout_ms),
     "30000", 100, 3600000, NULL, "how long a request may wait on other services"},
    {"api.healthz_timeout_ms", BUS_CFG_INT, offsetof(gw_config_t, healthz_timeout_ms),
     "1000", 50, 60000, NULL, "how long /healthz waits for each service to answer"},
    {"auth.password_iterations", BUS_CFG_INT, offsetof(gw_config_t, password_iterations),
     "100000", 1000, 10000000, NULL, "PBKDF2-HMAC-SHA256 rounds for new password hashes"},
    {"auth.clock_skew_s", BUS_CFG_INT, offsetof(gw_config_t, clock_skew_s), "900", 0,
     86400, NULL, "largest accepted difference between a request's Date and our clock"},
    {"auth.login_ttl_s", BUS_CFG_INT, offsetof(gw_config_t, login_ttl_s), "86400", 60,
     31536000, NULL, "lifetime of a browser login session (POST /server/login)"},
    {"auth.cookie_secure", BUS_CFG_BOOL, offsetof(gw_config_t, cookie_secure), "false", 0,
     0, NULL, "send the login cookie only over HTTPS (turn on behind TLS)"},
    {"auth.rate_window_s", BUS_CFG_INT, offsetof(gw_config_t, rate_window_s), "900", 1,
     86400, NULL, "rolling window of the per-keypair request rate limit"},
    {"bootstrap.admin_email", BUS_CFG_STRING, offsetof(gw_config_t, admin_email),
     "admin@backplane.local", 3, 255, NULL,
     "email of the superadmin created on first start (credentials go to admin.env)"},
    {"bootstrap.domain", BUS_CFG_STRING, offsetof(gw_config_t, default_domain), "default",
     1, 63, NULL, "the domain created on first start"},
    {"bootstrap.project", BUS_CFG_STRING, offsetof(gw_config_t, default_project),
     "default", 1, 63, NULL,
     "the project (Backend.AI group) created in that domain on first start"},
    {"vfolders.default_host", BUS_CFG_STRING, offsetof(gw_config_t, vfolder_default_host),
     "local:volume1", 0, 191, NULL,
     "folder host (<proxy>:<volume>) used when a new folder names none; the default "
     "domain may use it from first start"},
    {"vfolders.token_secret_file", BUS_CFG_STRING,
     offsetof(gw_config_t, vfolder_token_secret_file), "", 0, 4095, NULL,
     "file holding the secret shared with the storage-proxies (their "
     "http.token_secret_file) to sign upload and download tokens; empty refuses them"},
    {"vfolders.token_ttl_s", BUS_CFG_INT, offsetof(gw_config_t, vfolder_token_ttl_s),
     "3600", 10, 604800, NULL,
     "lifetime of an upload or download token: the whole transfer must start and end "
     "within it"},
    {"apps.token_secret_file", BUS_CFG_STRING,
     offsetof(gw_config_t, apps_token_secret_file), "", 0, 4095, NULL,
     "file holding the secret shared with the wsproxies (their "
     "wsproxy.token_secret_file) to sign app tokens (POST /session/{s}/start-service); "
     "empty refuses them"},
    {"apps.token_ttl_s", BUS_CFG_INT, offsetof(gw_config_t, apps_token_ttl_s), "300", 10,
     86400, NULL,
     "lifetime of an app token: the wsproxy must be asked to open the app within it"},
    {"apps.wsproxy_addr", BUS_CFG_STRING, offsetof(gw_config_t, apps_wsproxy_addr),
     "http://127.0.0.1:5050", 0, 1023, NULL,
     "URL of the wsproxy (its wsproxy.listen; https:// when it has wsproxy.tls_cert) "
     "for resource groups whose wsproxy_addr is empty; empty leaves them without one "
     "(wsproxy-version answers v1, start-service 503)"},
    {"logs.error_retention_days", BUS_CFG_INT,
     offsetof(gw_config_t, error_log_retention_days), "90", 1, 36500, NULL,
     "error logs (GET /logs/error) older than this many days are deleted (Backend.AI's "
     "logs.error.retention, 90 days)"},
    {"logs.error_expire_interval_s", BUS_CFG_INT,
     offsetof(gw_config_t, error_log_expire_s), "3600", 1, 86400, NULL,
     "how often old error logs are looked for and deleted (also at start)"},
    {"web.listen", BUS_CFG_STRING, offsetof(gw_config_t, web_listen), "127.0.0.1:8090", 0,
     255, NULL,
     "host:port of the web listener (Backend.AI's webserver role: the UI's files, "
     "/server/login, the API under /func/ with the login cookie, /config.toml); "
     "port 0 = any free port; empty = no web listener"},
    {"web.tls_cert", BUS_CFG_STRING, offsetof(gw_config_t, web_tls_cert), "", 0, 4095,
     NULL,
     "PEM certificate (chain) the web listener serves HTTPS with; empty serves "
     "plain HTTP"},
    {"web.tls_key", BUS_CFG_STRING, offsetof(gw_config_t, web_tls_key), "", 0, 4095, NULL,
     "PEM private key of web.tls_cert"},
    {"web.root", BUS_CFG_STRING, offsetof(gw_config_t, web_root), "", 0, 4095, NULL,
     "directory of the web UI's files; empty = ../share/backplane/webui from the "
     "binary's directory (PREFIX/share after make install, build/share in the build "
     "tree); a missing directory serves a page saying the UI is not built"},
    {"web.public_url", BUS_CFG_STRING, offsetof(gw_config_t, web_public_url), "", 0, 255,
     NULL,
     "origin browsers reach the web listener at (scheme://host[:port]), behind a "
     "reverse proxy; empty = the listener's scheme and the request's Host. Requests "
     "that change state must come from it (Origin), and /config.toml names it"},
    {"web.content_security_policy", BUS_CFG_STRING, offsetof(gw_config_t, web_csp),
     GW_WEB_CSP_DEFAULT, 1, 4095, NULL,
     "Content-Security-Policy header of every answer of the web listener (scripts only "
     "from the listener, never inline; no framing); connect-src stays open because "
     "uploads and apps go to the storage-proxies and wsproxies, on other origins"},
    {"serving.autoscale_window_s", BUS_CFG_INT, offsetof(gw_config_t, autoscale_window_s),
     "60", 1, 3600, NULL,
     "model services' autoscaling rules compare their metric (requests per second on the "
     "endpoint's URL, the replicas' CPU utilisation) averaged over this many seconds"},
    {"serving.autoscale_period_ms", BUS_CFG_INT,
     offsetof(gw_config_t, autoscale_period_ms), "5000", 100, 600000, NULL,
     "how often the autoscaling rules are evaluated and the wsproxy's request counters "
     "read"},
    BUS_CONFIG_END,
};
