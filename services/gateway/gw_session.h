/*  =========================================================================
    gw_session - the /session routes: create, info, destroy, execute

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_SESSION_H_INCLUDED
#define GW_SESSION_H_INCLUDED

#include "gw_request.h"

//  POST /session (and /session/_/create): create or reuse, reference §3.1-3.2.
void gw_session_handle_create(gw_request_t *r);
//  GET /session/{session}: the session's info (§3.3).
void gw_session_handle_info(gw_request_t *r);
//  DELETE /session/{session}: terminate it.
void gw_session_handle_destroy(gw_request_t *r);
//  POST /session/{session}: execute (§3.4) on the session's agent.
void gw_session_handle_execute(gw_request_t *r);
//  GET /session/{session}/logs: the container's output, {"result": {"logs"}}.
void gw_session_handle_logs(gw_request_t *r);
//  POST /session/{session}/interrupt: SIGINT to the running code; 204.
void gw_session_handle_interrupt(gw_request_t *r);

#endif
