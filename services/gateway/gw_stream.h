/*  =========================================================================
    gw_stream - the /stream/session/{s}/... WebSocket routes

    GET /stream/session/{s}/execute: the execute loop of reference §4, the
    path `backend.ai run` takes. The client's first message says what to
    run ({"code","mode","options"}); the gateway drives the run on the
    session's agent with kernel.execute, sending each result as it comes
    ({"status","console","exitCode","options","files"}), continuing by
    itself while the run goes on, passing the client's text messages as
    input when the run waits for it, and closing after "finished".

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_STREAM_H_INCLUDED
#define GW_STREAM_H_INCLUDED

#include "gw_request.h"

//  How long one kernel.execute waits for output before the gateway sends
//  what it has (a "continued" result) and asks again.
#define GW_STREAM_FLUSH_MS 1000

//  How long a run whose client left has to end after SIGINT before it is
//  killed.
#define GW_STREAM_KILL_MS 2000

void gw_stream_handle_execute(gw_request_t *r);

//  Forgets the runs still to be killed after their clients left; for
//  shutdown.
void gw_stream_close_all(gw_server_t *gw);

#endif
