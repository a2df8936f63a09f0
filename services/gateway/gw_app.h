/*  =========================================================================
    gw_app - one app of a session: which one a request means, and starting it

    The routes that open an app (the stream tunnels /stream/session/{s}/
    tcpproxy and /httpproxy, and POST /session/{s}/start-service) do the
    same first steps, as Backend.AI's manager does: resolve the app among the
    session's service ports (the image's ai.backend.service-ports and the
    session's preopen ports), check the port asked for, and have the main
    kernel's agent start it (kernel.start_service) before anything else
    happens: a start that fails is an HTTP error, never a WebSocket that
    closes.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_APP_H_INCLUDED
#define GW_APP_H_INCLUDED

#include "gw_request.h"
#include "gw_session.h"

//  How long the agent may take to start an app and find its port open.
#define GW_APP_START_TIMEOUT_MS 15000

typedef struct {
    gw_session_kernel_t at; //  the session, its main kernel and agent
    char name[65];          //  the app
    char protocol[16];      //  http, tcp or preopen
    char ports[128];        //  its container ports, "8080,8081"
    int port;               //  the one asked for (the first by default)
    char user_uuid[64];     //  the session's owner
    char access_key[64];
    char runtime_path[256]; //  the image's ai.backend.runtime-path
    //  Where it answers, once started: the kernel's address and port.
    char status[16]; //  started or running
    char host[64];
    int host_port;
} gw_app_t;

//  Resolves the app r names (parameter "app", or "service"; "port" picks
//  one of its ports) in the running session info into app. Answers r and
//  returns false when it cannot: 400 invalid-api-params (no app, a port
//  the app does not open, a protocol that cannot be opened), 404
//  object-not-found listing the session's apps, 500 for a pty app.
bool gw_app_resolve(gw_request_t *r, const proto_session_info_t *info, gw_app_t *app);

//  Called once, when the app's port accepts connections (started true; r
//  is still the caller's to answer) or when it could not be started
//  (started false; r has been answered 500 "Failed to launch the app
//  service" with the agent's error as data, or 503 when the agent is out
//  of reach).
typedef void(gw_app_started_fn)(gw_request_t *r, gw_app_t *app, bool started, void *arg);

//  Starts app (the caller's; it must outlive fn) with r's "arguments" and
//  "envs" parameters (strings holding JSON, "null" for none), then calls
//  fn.
void gw_app_start(gw_request_t *r, gw_app_t *app, gw_app_started_fn *fn, void *arg);

#endif
