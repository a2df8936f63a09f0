/*  =========================================================================
    wsp_config - the wsproxy's options: config/wsproxy.yaml

    wsproxy.listen is the API the web UI and the gateway talk to (/v2/...);
    every route gets one port of wsproxy.app_ports on the same host, where
    its app is served at the root path. URLs name wsproxy.advertise_host
    (the host browsers reach; the listen host when empty), which must be
    one host for the API and the app ports: the permit cookie is scoped by
    host, not port.

    The token secret (wsproxy.token_secret_file) is shared with the
    gateway, which signs app tokens (bus_apptoken) with it; make one with
        umask 077; head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' \
            > /etc/backplane/apps.secret
    and point both at it (the gateway as apps.token_secret_file). Without
    one, /v2/proxy/.../add answers 503 and no route is served.

    wsproxy.tls_cert and wsproxy.tls_key (PEM; bus_tls) put the API and
    every app port on TLS, with every URL answered https://; the gateway's
    apps.wsproxy_addr (or a resource group's wsproxy_addr) must then say
    https:// too. A certificate or key that does not load stops the start.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef WSP_CONFIG_H_INCLUDED
#define WSP_CONFIG_H_INCLUDED

#include "bus.h"

//  Defaults and limits of the options.
#define WSP_CONFIG_LISTEN        "127.0.0.1:5050" //  Backend.AI's wsproxy port
#define WSP_CONFIG_APP_PORTS     "10200-10300"    //  Backend.AI's bind_proxy_port_range
#define WSP_CONFIG_PERMIT_TTL    "60"
#define WSP_CONFIG_ROUTE_IDLE    "86400"
#define WSP_CONFIG_CONNECT_MS    "5000"
#define WSP_CONFIG_IDLE_S        "3600"
#define WSP_CONFIG_BUFFER        "1m"
#define WSP_CONFIG_BUFFER_MIN    (64LL << 10)
#define WSP_CONFIG_BUFFER_MAX    (256LL << 20)
#define WSP_CONFIG_CONNS_DEFAULT "4096"
#define WSP_CONFIG_CRON_MS       "1000"

typedef struct {
    bus_node_config_t node;
    char *listen;            //  host:port of the /v2 API
    char *advertise_host;    //  the host URLs name; "" = the listen host
    char *app_ports;         //  LOW-HIGH: one port per route
    char *token_secret_file; //  the secret shared with the gateway; "" = none
    char *tls_cert;          //  PEM chain: the API and every app port on TLS; "" = plain
    char *tls_key;           //  its PEM private key
    int permit_ttl_s;        //  how long a one-time permit may wait for its use
    int route_idle_s;        //  a route unused this long expires
    int connect_timeout_ms;  //  connecting to an app
    int idle_timeout_s;      //  a connection silent both ways this long is closed
    int64_t buffer_bytes;    //  bytes held per direction before reading stops
    int max_connections;     //  client connections open at once, all routes
    int cron_ms;             //  period of the route cron
} wsp_config_t;

extern const bus_config_option_t wsp_config_options[];

#endif
