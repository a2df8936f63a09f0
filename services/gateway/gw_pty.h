/*  =========================================================================
    gw_pty - GET /stream/session/{s}/pty: a terminal in the session

    A WebSocket of JSON text messages (reference §4). From the client:
    {"type":"stdin","chars":"<base64>"}, {"type":"resize","rows":R,"cols":C},
    {"type":"ping"}, {"type":"restart"}. To the client:
    {"type":"out","data":"<base64>"} and {"type":"error","data":"..."}.
    The terminal is a shell on a pseudo-terminal that the kernel runner
    keeps in the container; the session's agent holds its recent output,
    which the gateway reads with long polls (kernel.pty_read), so several
    viewers, and a viewer that reconnects, see the same screen.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_PTY_H_INCLUDED
#define GW_PTY_H_INCLUDED

#include "gw_request.h"

//  How long one kernel.pty_read waits for output before it is asked again.
#define GW_PTY_POLL_MS 20000
#define GW_PTY_ROWS    24
#define GW_PTY_COLS    80

void gw_pty_handle(gw_request_t *r);

#endif
