/*  =========================================================================
    gw_config - the gateway's options: config/gateway.yaml

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_CONFIG_H_INCLUDED
#define GW_CONFIG_H_INCLUDED

#include "bus.h"

//  The web listener's Content-Security-Policy unless configured: every
//  script from the listener itself and none inline, no plugins, no
//  framing (frame-ancestors, with X-Frame-Options for old browsers).
#define GW_WEB_CSP_DEFAULT                                                               \
    "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; "        \
    "frame-ancestors 'none'; form-action 'self'; img-src 'self' data: blob:; "           \
    "style-src 'self' 'unsafe-inline'; font-src 'self' data:; "                          \
    "connect-src 'self' http: https: ws: wss:"

typedef struct {
    bus_node_config_t node;
    char *listen;                    //  host:port of the API
    char *tls_cert;                  //  PEM certificate chain; "" = plain HTTP
    char *tls_key;                   //  PEM private key of tls_cert
    int64_t max_body_bytes;          //  larger request bodies are refused with 413
    int request_timeout_ms;          //  a request waiting on the bus longer gets 503/504
    int healthz_timeout_ms;          //  how long /healthz waits for each service
    int password_iterations;         //  PBKDF2 rounds for new password hashes
    int clock_skew_s;                //  accepted difference between Date and our clock
    int login_ttl_s;                 //  lifetime of a browser login session
    bool cookie_secure;              //  mark the login cookie Secure (TLS deployments)
    int rate_window_s;               //  rolling window of the per-keypair rate limit
    char *admin_email;               //  the superadmin created on first start
    char *default_domain;            //  the domain created on first start
    char *default_project;           //  the project created in it
    char *vfolder_default_host;      //  "<proxy>:<volume>" new folders go to
    char *vfolder_token_secret_file; //  secret shared with the storage-proxies
    int vfolder_token_ttl_s;         //  lifetime of upload and download tokens
    char *apps_token_secret_file;    //  secret shared with the wsproxies
    int apps_token_ttl_s;            //  lifetime of an app token
    char *apps_wsproxy_addr;         //  the wsproxy of groups that name none
    int error_log_retention_days;    //  error logs older are deleted
    int error_log_expire_s;          //  how often they are looked for
    char *web_listen;                //  host:port of the web listener; "" = off
    char *web_tls_cert;              //  its PEM certificate chain; "" = plain HTTP
    char *web_tls_key;               //  PEM private key of web_tls_cert
    char *web_root;                  //  the UI's files; "" = GW_WEB_ROOT_DEFAULT
    char *web_public_url;            //  the origin browsers use; "" = the request's
    char *web_csp;                   //  Content-Security-Policy of every web answer
    int autoscale_window_s;          //  model services' metrics are averaged over it
    int autoscale_period_ms;         //  how often autoscaling rules are evaluated
} gw_config_t;

extern const bus_config_option_t gw_config_options[];

#endif
