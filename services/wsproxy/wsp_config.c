/*  =========================================================================
    wsp_config - the option table of the wsproxy

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "wsp_classes.h"

const bus_config_option_t wsp_config_options[] = {
    BUS_NODE_CONFIG_ROWS(wsp_config_t, node, "false", BUS_NODE_HTTP_WSPROXY),
    {"wsproxy.listen", BUS_CFG_STRING, offsetof(wsp_config_t, listen), WSP_CONFIG_LISTEN,
     1, 255, NULL,
     "host:port of the API the web UI and the gateway use (/v2/status, /v2/conf, "
     "/v2/proxy/{token}/{session}/add); port 0 = any free port"},
    {"wsproxy.advertise_host", BUS_CFG_STRING, offsetof(wsp_config_t, advertise_host), "",
     0, 255, NULL,
     "the host name in the URLs answered (the API's and every app port's: one host, "
     "the permit cookie is scoped by host); empty = the listen host"},
    {"wsproxy.app_ports", BUS_CFG_STRING, offsetof(wsp_config_t, app_ports),
     WSP_CONFIG_APP_PORTS, 3, 32, NULL,
     "LOW-HIGH: the ports routes are served on, one per route, bound on the listen "
     "host; an app is served at the root path of its port"},
    {"wsproxy.token_secret_file", BUS_CFG_STRING,
     offsetof(wsp_config_t, token_secret_file), "", 0, 4095, NULL,
     "file holding the secret shared with the gateway, which signs app tokens "
     "(umask 077; head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \\n' > FILE); "
     "empty = every token refused"},
    {"wsproxy.tls_cert", BUS_CFG_STRING, offsetof(wsp_config_t, tls_cert), "", 0, 4095,
     NULL,
     "PEM certificate chain: the API and every app port serve TLS and every URL "
     "answered says https:// (the gateway's apps.wsproxy_addr must too); empty = "
     "plain HTTP"},
    {"wsproxy.tls_key", BUS_CFG_STRING, offsetof(wsp_config_t, tls_key), "", 0, 4095,
     NULL, "PEM private key of wsproxy.tls_cert"},
    {"wsproxy.permit_ttl_s", BUS_CFG_INT, offsetof(wsp_config_t, permit_ttl_s),
     WSP_CONFIG_PERMIT_TTL, 5, 3600, NULL,
     "seconds the one-time permit of an answered URL may wait to be exchanged for "
     "the route's cookie"},
    {"wsproxy.route_idle_s", BUS_CFG_INT, offsetof(wsp_config_t, route_idle_s),
     WSP_CONFIG_ROUTE_IDLE, 10, 31536000, NULL,
     "a route neither opened again nor used for this long expires (its port is "
     "freed); a session that ends closes its routes at once"},
    {"wsproxy.connect_timeout_ms", BUS_CFG_INT,
     offsetof(wsp_config_t, connect_timeout_ms), WSP_CONFIG_CONNECT_MS, 100, 120000, NULL,
     "how long connecting to an app may take before the client gets 502"},
    {"wsproxy.idle_timeout_s", BUS_CFG_INT, offsetof(wsp_config_t, idle_timeout_s),
     WSP_CONFIG_IDLE_S, 5, 604800, NULL,
     "a proxied connection with no byte either way for this long is closed"},
    {"wsproxy.buffer_bytes", BUS_CFG_BYTES, offsetof(wsp_config_t, buffer_bytes),
     WSP_CONFIG_BUFFER, WSP_CONFIG_BUFFER_MIN, WSP_CONFIG_BUFFER_MAX, NULL,
     "bytes held for a slow reader, per connection and direction, before the proxy "
     "stops reading the other side (back-pressure)"},
    {"wsproxy.max_connections", BUS_CFG_INT, offsetof(wsp_config_t, max_connections),
     WSP_CONFIG_CONNS_DEFAULT, 1, 1000000, NULL,
     "client connections open at once over all routes; more are refused"},
    {"wsproxy.cron_ms", BUS_CFG_INT, offsetof(wsp_config_t, cron_ms), WSP_CONFIG_CRON_MS,
     50, 60000, NULL,
     "period of the route cron: expiry of routes and permits, byte counters written, "
     "idle connections closed, splice pipes of quiet ones shrunk"},
    BUS_CONFIG_END,
};
