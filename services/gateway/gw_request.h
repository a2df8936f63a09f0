/*  =========================================================================
    gw_request - one HTTP request on its way through the gateway

    Every request becomes a gw_request_t and passes the same stages, in
    order, before its handler runs:
        route      the table in gw_routes.c: method and path pattern
        auth       Backend.AI HMAC signature (gw_auth), or a browser login
                   cookie; the caller's identity (gw_identity)
        origin     an unsigned request that changes state or opens a
                   WebSocket must come from the listener's own origin
                   (gw_web_admit): a cross-site POST is 403
        rate       the keypair's rolling-window limit (gw_ratelimit)
        params     JSON body or query string (gw_params)
        frozen     while the platform is frozen, the routes that create
                   answer 503 server-frozen (gw_manager)
    A stage that refuses answers with problem+json and the handler never
    runs. When the reply has gone out, the request is recorded in the access
    log: a durable gateway.access event that accounting keeps.

    A handler ends the request with exactly one gw_reply_* call, now or
    later (after an RPC). If the client hangs up first, r->req becomes NULL
    and the reply functions only release the request.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_REQUEST_H_INCLUDED
#define GW_REQUEST_H_INCLUDED

#include "bus.h"
#include "gw_identity.h"
#include "gw_ctx.h"
#include "gw_server.h"

struct evhttp_request;

#define GW_PATH_PARAMS_MAX 4
#define GW_PATH_MAX        2048
#define GW_REQUEST_ID_SIZE 37

typedef enum {
    GW_AUTH_NONE,     //  open to anyone (version document, health)
    GW_AUTH_REQUIRED, //  a signed request or a login cookie
    //  The same, and the caller may act for the keypair owner_access_key
    //  names, as Backend.AI's session routes let administrators do: a
    //  superadmin for any, a domain admin for the keys of its domain. The
    //  handler then runs as that keypair's identity (r->who); r->caller is
    //  who asked.
    GW_AUTH_OWNER,
} gw_auth_need_t;

typedef struct gw_request_s gw_request_t;
typedef void(gw_handler_fn)(gw_request_t *r);

//  A route: methods (EVHTTP_REQ_* mask), a path pattern whose "{name}"
//  segments capture one segment each, who may call it, and the handler.
typedef struct {
    int methods;
    const char *pattern;
    gw_auth_need_t auth;
    gw_handler_fn *handler;
} gw_route_t;

struct gw_request_s {
    gw_server_t *gw;
    struct evhttp_request *req; //  NULL once the client went away
    const gw_route_t *route;
    char id[GW_REQUEST_ID_SIZE];
    int64_t started_us;
    const char *method; //  after X-Method-Override
    char path[GW_PATH_MAX];
    char client_addr[64];
    //  Path captures, in pattern order.
    int path_param_count;
    char path_params[GW_PATH_PARAMS_MAX][256];
    //  Came through the web listener (/func, /server): the login cookie's
    //  answers are the web listener's (Secure behind its TLS).
    bool web;
    //  Filled by the auth stage.
    bool authenticated;
    bool signed_request; //  by an HMAC signature, not a browser's cookie
    //  The SHA-256 (hex) of the login token that authenticated r; "" when
    //  none did (a signature, or no one).
    char login_hash[65];
    gw_identity_t who;
    //  Who signed the request when it acts for another keypair's owner
    //  (GW_AUTH_OWNER): its access_key is "" otherwise. Never holds a secret.
    gw_identity_t caller;
    //  What the administrative operations run with: the server's database,
    //  node, config and identity cache, and who (&r->who). See gw_request_ctx.
    gw_ctx_t ctx;
    //  Filled by the params stage; owned.
    json_t *params;
    //  Data fetched from other services before a handler runs (GraphQL's
    //  agent fields); owned, NULL when none.
    json_t *prefetch;
    json_t *prefetch_sessions; //  compute_session fields: answers by name and arguments
    //  Root fields resolved before the document ran, so that another
    //  service's figures could be added to their values (gw_concurrency):
    //  response key -> {name, args, value}; the execution takes the value
    //  instead of resolving the field again.
    json_t *prefetch_resolved;
    //  The model store's folders read for model_card(s) (gw_model_card):
    //  folder id -> {definition | error, readme, readme_filetype}.
    json_t *prefetch_cards;
    //  For the response headers and the access log.
    int rate_remaining; //  -1: unlimited or not counted
    const char *error_type;
    int status;
};

//  Runs the stages for an evhttp request and, if they pass, the handler.
void gw_request_dispatch(gw_server_t *gw,
                         struct evhttp_request *req,
                         const gw_route_t *routes);

//  The same for a request of the web listener whose path (the part after
//  /func, or /server/...) is path rather than the URI's.
void gw_request_dispatch_web(gw_server_t *gw,
                             struct evhttp_request *req,
                             const gw_route_t *routes,
                             const char *path);

//  Ends a request whose reply its handler writes itself, for as long as it
//  lasts (a WebSocket after its 101, an event stream): logs it with status
//  and frees r. Returns libevent's request, still open; r->req must be set.
struct evhttp_request *gw_request_take_over(gw_request_t *r, int status);

//  Replies with JSON (reference stolen; NULL sends {}) and ends the request.
void gw_reply_json(gw_request_t *r, int status, json_t *body);

//  Replies with bytes of content_type (copied) and ends the request: files,
//  archives, multipart bodies.
void gw_reply_bytes(
    gw_request_t *r, int status, const char *content_type, const void *data, size_t size);

//  Replies with the problem slug and ends the request; detail may be NULL.
void gw_reply_problem(gw_request_t *r, const char *slug, const char *detail);

//  The same with a "data" member (reference stolen), as Backend.AI's
//  invalid-api-params and graphql-error carry.
void gw_reply_problem_data(gw_request_t *r,
                           const char *slug,
                           const char *detail,
                           json_t *data);

//  Replies with the problem that stands for a bus status from another service.
void gw_reply_status(gw_request_t *r, int status, const char *detail);

//  The path capture called name ("{name}" in the pattern), or NULL.
const char *gw_request_path_param(const gw_request_t *r, const char *name);

//  The context r's handler runs administrative operations with (borrowed,
//  valid while r is): the caller is r->who, after the owner stage.
gw_ctx_t *gw_request_ctx(gw_request_t *r);

//  A request header, or NULL.
const char *gw_request_header(const gw_request_t *r, const char *name);

#endif
