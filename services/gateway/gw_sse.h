/*  =========================================================================
    gw_sse - the event streams: GET /events/session, /events/background-task

    Server-Sent Events (reference §5): "event: <name>" and "data: <json>"
    lines per event, a ": ping" comment every GW_SSE_PING_MS so that
    proxies and the client see the stream alive. /events/session relays the
    session lifecycle events the caller may see (their own sessions; a
    domain admin's domain; everything for a superadmin), narrowed by the
    query: sessionId, or name|sessionName, ownerAccessKey|owner_access_key,
    group|groupName, and scope (*, session or kernel).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_SSE_H_INCLUDED
#define GW_SSE_H_INCLUDED

#include "gw_request.h"

#define GW_SSE_PING_MS 15000
//  The retry a bgtask_updated suggests (Backend.AI's "retry: 5").
#define GW_SSE_BGTASK_RETRY_MS 5

void gw_sse_handle_session(gw_request_t *r);

//  A background task's events (gw_bgtask): its last update at once, the
//  following ones as they come, and after its end server_close and the end
//  of the reply. An unknown (or forgotten) task id is 404, as Backend.AI
//  answers for a task it does not have.
void gw_sse_handle_background_task(gw_request_t *r);

//  Ends every open stream; for shutdown, before the HTTP server is freed.
void gw_sse_close_all(gw_server_t *gw);

#endif
