/*  =========================================================================
    gw_endpoint - model services (Backend.AI's endpoints) and their routes,
    as the gateway keeps them

    An endpoint is a model folder served by desired_session_count replicas;
    each replica is a route, and each route one INFERENCE session. The rows
    are Backend.AI 24.03's: lifecycle_stage created, destroying, destroyed;
    route status provisioning, healthy, unhealthy, terminating,
    failed_to_start (lowercase as its columns hold them; GraphQL says the
    upper-case names). Who may see and change one: its session owner, an
    admin of its domain, a superadmin (Backend.AI's owner scope). Every
    statement on the two tables is here; gw_endpoint_reconcile moves them,
    gw_service_api answers /services.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_ENDPOINT_H_INCLUDED
#define GW_ENDPOINT_H_INCLUDED

#include "bus.h"
#include "gw_gql.h"
#include "gw_identity.h"

#define GW_ENDPOINT_NAME_MIN    4
#define GW_ENDPOINT_NAME_MAX    24
#define GW_ENDPOINT_RETRIES_MAX 5 //  failed starts in a row before it stops trying

//  A new endpoint: row holds every column of the endpoints table but the
//  lifecycle's (an object keyed by column). BUS_OK, CONFLICT when a live
//  endpoint has the name, or INTERNAL.
int gw_endpoint_insert(bus_db_t *db, json_t *row, bus_error_t *err);

//  The row of endpoint id (any lifecycle), or NULL. Caller owns it.
json_t *gw_endpoint_get(bus_db_t *db, const char *id);

//  Whether who may see and change endpoint (its row): the session owner,
//  an admin of its domain, a superadmin.
bool gw_endpoint_may(const gw_identity_t *who, json_t *endpoint);

//  Backend.AI's ServeInfo of endpoint (its row). Caller owns it.
json_t *gw_endpoint_view(bus_db_t *db, json_t *endpoint);

//  GET /services: the user's endpoints in lifecycle created (name: only
//  that one, NULL: all), as its bare list. NULL on a database error.
json_t *gw_endpoint_list(bus_db_t *db, const char *user_uuid, const char *name);

//  Every endpoint, destroyed ones too, oldest first (GraphQL's lists, which
//  filter them). NULL on a database error.
json_t *gw_endpoint_all(bus_db_t *db);

//  Endpoints in lifecycle created or destroying: what the reconciliation
//  looks at. NULL on a database error.
json_t *gw_endpoint_live(bus_db_t *db);

//  Sets the replicas wanted (an endpoint in lifecycle created). BUS_OK or
//  NOT_FOUND.
int
gw_endpoint_set_desired(bus_db_t *db, const char *id, int64_t count, bus_error_t *err);

//  DELETE /services/{id}: none wanted and lifecycle destroying, or
//  destroyed at once when it has no route.
int gw_endpoint_destroy(bus_db_t *db, const char *id, bus_error_t *err);

//  The lifecycle destroyed, with its time.
void gw_endpoint_destroyed(bus_db_t *db, const char *id);

//  GraphQL modify_endpoint: props may change image, resource_slots and
//  environ (a JSON object or its text: what every replica runs, so a new
//  generation, rolled out by the reconciliation), desired_session_count
//  and open_to_public. BUS_OK, NOT_FOUND (no service, or it is ending),
//  INVALID with the field, INTERNAL.
int gw_endpoint_modify(bus_db_t *db, const char *id, json_t *props, bus_error_t *err);

//  Its URL on the wsproxy (Backend.AI's service_endpoint).
void gw_endpoint_set_url(bus_db_t *db, const char *id, const char *url);

//  Adds n to the failed starts in a row (n 0: back to none).
void gw_endpoint_retries(bus_db_t *db, const char *id, int n);

//  POST /services/{id}/errors/clear: failed routes deleted, retries 0.
void gw_endpoint_clear_errors(bus_db_t *db, const char *id);

//  The most replicas one endpoint of user_uuid may have: its user resource
//  policy's max_session_count_per_model_session (10 when it has none).
int64_t gw_endpoint_replicas_max(bus_db_t *db, const char *user_uuid);

//  The service port of session_id when it is a route's session: {"name":
//  "<model>-<port>", "protocol": "preopen", "ports": [port], "is_inference":
//  true}; else NULL. Caller owns it.
json_t *gw_endpoint_service_port(bus_db_t *db, const char *session_id);

//  Keeps token, issued for endpoint (its row) until valid_until (unix
//  seconds). BUS_OK or INTERNAL.
int gw_endpoint_token_insert(bus_db_t *db,
                             json_t *endpoint,
                             const char *token,
                             int64_t valid_until,
                             bus_error_t *err);

//  The tokens of endpoint_id (NULL: all), oldest first; the one named token
//  when token is given. NULL on a database error.
json_t *gw_endpoint_tokens(bus_db_t *db, const char *endpoint_id, const char *token);

//  ---------------------------------------------------------------------------
//  Routes

//  The routes of endpoint id, oldest first. NULL on a database error.
json_t *gw_route_list(bus_db_t *db, const char *endpoint_id);

//  The route id, or the route of session; NULL when none.
json_t *gw_route_get(bus_db_t *db, const char *id);
json_t *gw_route_of_session(bus_db_t *db, const char *session_id);

//  A new route of endpoint (its row), provisioning, with id.
int gw_route_insert(bus_db_t *db, json_t *endpoint, const char *id, bus_error_t *err);

//  Its session, once session.create answered.
void gw_route_set_session(bus_db_t *db, const char *id, const char *session_id);

//  Its status (lowercase), and error_data (JSON text, NULL: unchanged).
void gw_route_set_status(bus_db_t *db,
                         const char *id,
                         const char *status,
                         const char *error_data);

//  Its traffic ratio. BUS_OK or NOT_FOUND.
int gw_route_set_ratio(bus_db_t *db, const char *id, double ratio, bus_error_t *err);

//  Gone: its session ended.
void gw_route_delete(bus_db_t *db, const char *id);

//  GraphQL: endpoint, endpoint_list, routing_list (gw_endpoint_gql.c).
extern const gw_gql_root_t gw_endpoint_gql[];

#endif
