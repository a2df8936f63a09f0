/*  =========================================================================
    gw_apps - the apps a session's image offers: service ports

    Backend.AI images declare their service-port apps in the label
    ai.backend.service-ports: a comma list of name:protocol:port or
    name:protocol:[port,port], protocol http, tcp, preopen or pty (reference
    §11). The gateway reads it from the image in its catalogue, for
    GET /stream/session/{s}/apps, the servicePorts of POST /session and the
    service_ports of compute_session.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_APPS_H_INCLUDED
#define GW_APPS_H_INCLUDED

#include "gw_request.h"

//  The web terminal every session offers (Backend.AI's ttyd; here
//  backplane-ttyd, started by the agent's built-in definition).
#define GW_APPS_TTYD_NAME "ttyd"
#define GW_APPS_TTYD_PORT 7681

//  Parses a service-ports label into [{"name","protocol","ports":[int]}]
//  (pty entries are left out, as Backend.AI does). NULL with err when the
//  label is malformed (a port outside 1..65535, an unknown protocol).
json_t *gw_apps_parse(const char *label, bus_error_t *err);

//  The value of the label key of the catalogue's image reference (a
//  canonical reference), or NULL. Caller frees.
char *gw_apps_image_label(bus_db_t *db, const char *reference, const char *key);

//  The apps of the catalogue's image reference (a canonical reference);
//  an empty list when it has none or is unknown. Caller owns the result.
json_t *gw_apps_of_image(bus_db_t *db, const char *reference);

//  {"name": "ttyd", "protocol": "http", "ports": [7681]} first (every
//  session has the web terminal, as Backend.AI's agent adds it to every
//  kernel), then the apps of the image (but one named ttyd or using its
//  port), then one {"name": "<port>", "protocol": "preopen", "ports":
//  [port]} for each port of preopen_ports but 7681 (a JSON array text, as
//  the session info carries it; NULL or malformed: none), as Backend.AI
//  lists config.preopen_ports; and for a model service's replica
//  (session_id a route's session; NULL: none) its model's port,
//  {"name": "<model>-<port>", "protocol": "preopen", "ports": [port],
//  "is_inference": true}, as Backend.AI's agent adds it. Caller owns the
//  result.
json_t *gw_apps_of_session(bus_db_t *db,
                           const char *session_id,
                           const char *reference,
                           const char *preopen_ports);

//  GET /stream/session/{s}/apps.
void gw_apps_handle(gw_request_t *r);

#endif
