/*  =========================================================================
    wsp_db - the wsproxy's database: its schema and every statement

    Two tables. routes: one row per open route (who may use it, where it
    leads, the port it is served on, its expiry and byte counters), so a
    restart serves every route again on the same port with the same
    cookie; a model service's endpoint is a row too, with its replicas. permits: the
   SHA-256 of each one-time permit not yet used, with its route and expiry; a permit is
   deleted when it is used.

    Functions over the node's bus_db (statements cached there, by text).
    A failed write is logged with what it was.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef WSP_DB_H_INCLUDED
#define WSP_DB_H_INCLUDED

#include "bus.h"
#include "bus_apptoken.h"

#define WSP_ROUTE_ID_LEN 32 //  hex digits

//  One row of the routes table.
typedef struct {
    char id[WSP_ROUTE_ID_LEN + 1];
    char session_id[BUS_APPTOKEN_ID_MAX + 1];
    char kernel_id[BUS_APPTOKEN_ID_MAX + 1];
    char app[BUS_APPTOKEN_APP_MAX + 1];
    bus_apptoken_protocol_t protocol;
    char host[BUS_APPTOKEN_HOST_MAX + 1]; //  the target
    int target_port;
    char access_key[BUS_APPTOKEN_ID_MAX + 1];
    char user_uuid[BUS_APPTOKEN_ID_MAX + 1];
    int port;            //  the wsproxy's port serving it
    int64_t created_at;  //  unix seconds
    int64_t expires_at;  //  unix seconds
    uint64_t bytes_in;   //  client to app
    uint64_t bytes_out;  //  app to client
    bool endpoint;       //  a model service's endpoint: session_id is its id
    bool open_to_public; //  an endpoint served without a token
} wsp_db_route_t;

//  The schema, for the service's bus_service_t.
extern const bus_db_migration_t wsp_db_migrations[];
#define WSP_DB_MIGRATION_COUNT 2

//  targets: an endpoint's replicas as JSON ("[]" for an app's route).
typedef void(wsp_db_route_fn)(void *arg,
                              const wsp_db_route_t *route,
                              const char *targets);

//  ---------------------------------------------------------------------------
//  Inserts route (targets: an endpoint's replicas as JSON, or NULL). 0 or -1.
int wsp_db_route_insert(bus_db_t *db, const wsp_db_route_t *route, const char *targets);

//  Rewrites an endpoint's name, openness and replicas. 0 or -1.
int
wsp_db_endpoint_update(bus_db_t *db, const wsp_db_route_t *route, const char *targets);

//  Rewrites route's target, kernel and expiry (it was opened again). 0 or -1.
int wsp_db_route_retarget(bus_db_t *db, const wsp_db_route_t *route);

//  Writes route id's byte counters and expiry. 0 or -1.
int wsp_db_route_touch(bus_db_t *db,
                       const char *id,
                       uint64_t bytes_in,
                       uint64_t bytes_out,
                       int64_t expires_at);

//  Deletes route id and its permits. 0 or -1.
int wsp_db_route_delete(bus_db_t *db, const char *id);

//  Calls fn for every route. 0 or -1.
int wsp_db_routes_each(bus_db_t *db, wsp_db_route_fn *fn, void *arg);

//  ---------------------------------------------------------------------------
//  Keeps a permit (its SHA-256, hex) for route id until expires_at. 0 or -1.
int wsp_db_permit_insert(bus_db_t *db,
                         const char *hash,
                         const char *route_id,
                         int64_t expires_at);

//  Uses the permit hash for route id at now: true, and the permit is gone,
//  when it was there, for that route and not expired.
bool
wsp_db_permit_take(bus_db_t *db, const char *hash, const char *route_id, int64_t now);

//  Forgets permits expired before now. 0 or -1.
int wsp_db_permits_expire(bus_db_t *db, int64_t now);

#endif
