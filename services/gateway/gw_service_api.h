/*  =========================================================================
    gw_service_api - /services: model services (Backend.AI 24.03's REST
    routes, reference part 2 §C.2)

    An endpoint serves a model folder (usage_mode model) with replicas, each
    an INFERENCE session that runs the command of the folder's
    model-definition.yaml (gw_model_def) and is health-checked by its
    agent; gw_endpoint_reconcile creates and ends them. Creating checks
    everything a replica's session would be refused for (a dry run of
    gw_session_launch) and reads the definition from the folder's
    storage-proxy (storage.files.read), so a bad definition is a 400 that
    names the file and the line. Who may act on an endpoint: its owner, an
    admin of its domain, a superadmin; anyone else is refused 403.

    Not in this slice: the serving proxy (service_endpoint stays null, no
    token, no traffic balancing: the wsproxy does not serve endpoints
    yet), /services/_/try, /sync, /token, extra mounts, and runtime
    variants other than custom.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_SERVICE_API_H_INCLUDED
#define GW_SERVICE_API_H_INCLUDED

#include "gw_request.h"

//  GET /services[?name=]: the caller's live endpoints, a bare list.
void gw_service_handle_list(gw_request_t *r);
//  POST /services: ServeInfo.
void gw_service_handle_create(gw_request_t *r);
//  GET /services/_/runtimes: the runtime variants served.
void gw_service_handle_runtimes(gw_request_t *r);
//  GET /services/{service_id}: ServeInfo.
void gw_service_handle_info(gw_request_t *r);
//  DELETE /services/{service_id}: {"success": true}.
void gw_service_handle_delete(gw_request_t *r);
//  POST /services/{service_id}/scale {"to"}: {current_route_count, target_count}.
void gw_service_handle_scale(gw_request_t *r);
//  POST /services/{id}/token: {"token"} for the endpoint's URL.
void gw_service_handle_token(gw_request_t *r);
//  POST /services/{id}/sync: its URL's routes pushed again.
void gw_service_handle_sync(gw_request_t *r);
//  POST /services/_/try: a trial session, reported by a background task.
void gw_service_handle_try(gw_request_t *r);
//  PUT /services/{service_id}/routings/{route_id} {"traffic_ratio"}.
void gw_service_handle_route_update(gw_request_t *r);
//  DELETE /services/{service_id}/routings/{route_id}: one replica less.
void gw_service_handle_route_delete(gw_request_t *r);
//  GET /services/{service_id}/errors: {errors, retries}.
void gw_service_handle_errors(gw_request_t *r);
//  POST /services/{service_id}/errors/clear: 204.
void gw_service_handle_errors_clear(gw_request_t *r);

#endif
