/*  =========================================================================
    gw_session - the /session routes: create, info, destroy, execute

    gw_session_create.c answers POST /session, gw_session.c the routes of
    one session (a table of operations); gw_session_spec checks a create's
    body.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_SESSION_H_INCLUDED
#define GW_SESSION_H_INCLUDED

#include "gw_request.h"
#include "gw_session_spec.h"

//  POST /session (and /session/_/create): create or reuse, reference §3.1-3.2.
void gw_session_handle_create(gw_request_t *r);

//  Answers every POST /session still waiting for its session (503, the
//  gateway is stopping) and frees it: for a stop, before the HTTP server
//  goes. How many were answered.
size_t gw_session_create_close_all(gw_server_t *gw);
//  GET /session/{session}: the session's info (§3.3).
void gw_session_handle_info(gw_request_t *r);
//  DELETE /session/{session}: terminate it.
void gw_session_handle_destroy(gw_request_t *r);
//  POST /session/{session}: execute (§3.4) on the session's agent.
void gw_session_handle_rename(gw_request_t *r);
void gw_session_handle_restart(gw_request_t *r);
void gw_session_handle_execute(gw_request_t *r);
#define GW_SESSION_TEXT_TYPE "text/plain; charset=utf-8" //  a task's log

//  GET /session/{session}/logs: the container's output, {"result": {"logs"}};
//  GET /session/_/logs?task_id=UUID: a batch task's log as text/plain.
void gw_session_handle_logs(gw_request_t *r);
//  POST /session/{session}/interrupt: SIGINT to the running code; 204.
void gw_session_handle_interrupt(gw_request_t *r);

//  Where a running session's main kernel answers: for the routes that talk
//  to it through its agent.
typedef struct {
    char session_id[GW_UUID_SIZE];
    char kernel_id[GW_UUID_SIZE];
    char agent_addr[256];
} gw_session_kernel_t;

//  Fills kernel from info when the session runs; otherwise answers r with
//  400 "the session is not running" and returns false.
bool gw_session_kernel(gw_request_t *r,
                       const proto_session_info_t *info,
                       gw_session_kernel_t *kernel);

//  What gw_session_find found: the session, which the caller may use. The
//  callee ends r (replies, or takes the connection over); info is cleared
//  after it returns.
typedef void(gw_session_found_fn)(gw_request_t *r, proto_session_info_t *info, void *arg);

//  Looks up the session of r's {session} path parameter (a UUID, or the
//  name among the caller's sessions) and hands it to found; a session that
//  does not exist or is not the caller's is answered 404 without calling.
void gw_session_find(gw_request_t *r, gw_session_found_fn *found, void *arg);

//  The scheduler's endpoint, or NULL when the gateway knows none now.
const char *gw_session_scheduler(gw_request_t *r);

//  Sends a session.* or kernel.* call for r to endpoint (NULL: false) and
//  destroys writer; fn gets arg with the reply. False when it could not
//  leave (then fn is never called).
bool gw_session_call(gw_request_t *r,
                     const char *endpoint,
                     const char *method,
                     bus_writer_t *writer,
                     int timeout_ms,
                     bus_reply_fn *fn,
                     void *arg);

//  Decodes a reply that carries a session (session.get, session.create)
//  into info (caller clears it); BUS_OK, or the reply's failure in err.
int gw_session_info_decode(const bus_reply_t *reply,
                           proto_session_info_t *info,
                           bus_error_t *err);

#endif
