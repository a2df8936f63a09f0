/*  =========================================================================
    gw_wsconn - one WebSocket connection, taken over from an HTTP request

    libevent 2.1 has no WebSocket server, so a request that asks for the
    upgrade is answered "101 Switching Protocols" on its own bufferevent,
    which this module then reads and writes itself (gw_websocket does the
    framing). The connection pings the client every GW_WSCONN_PING_MS and
    gives up on one that has been silent for GW_WSCONN_IDLE_MS.

    Ownership: the handler that upgrades owns the connection's other end
    (its "owner", e.g. an execute loop). The owner hears each message and,
    once, that the connection went away (on_gone), after which it must not
    touch it. Or the owner ends it itself with gw_wsconn_close and hears
    nothing more. Either way the connection frees itself once its last bytes
    are out. When the gateway stops, every connection is closed with 1001.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_WSCONN_H_INCLUDED
#define GW_WSCONN_H_INCLUDED

#include "bus.h"
#include "gw_request.h"
#include "gw_websocket.h"

#define GW_WSCONN_MAX_MESSAGE (4 * 1024 * 1024)
#define GW_WSCONN_PING_MS     20000
#define GW_WSCONN_IDLE_MS     75000
#define GW_WSCONN_CLOSE_MS    2000 //  how long a close waits for the client's answer
#define GW_WSCONN_OUTPUT_MAX                                                             \
    (16 * 1024 * 1024)                 //  unsent bytes before a client is dropped
#define GW_WSCONN_DRAINED (256 * 1024) //  unsent bytes at which on_drained fires

typedef struct _gw_wsconn_t gw_wsconn_t;

typedef struct {
    //  A TEXT or BINARY message from the client.
    void (*on_message)(gw_wsconn_t *ws,
                       gw_ws_opcode_t opcode,
                       const uint8_t *data,
                       size_t size,
                       void *arg);
    //  The client closed, vanished or broke the protocol; ws is about to be
    //  freed.
    void (*on_gone)(gw_wsconn_t *ws, void *arg);
    //  Optional: what was queued for the client fell to GW_WSCONN_DRAINED
    //  bytes or fewer (an owner that stopped producing may go on).
    void (*on_drained)(gw_wsconn_t *ws, void *arg);
    //  The largest message accepted from the client; 0: GW_WSCONN_MAX_MESSAGE.
    size_t max_message;
} gw_wsconn_handlers_t;

//  True when r carries a well-formed WebSocket upgrade request.
bool gw_wsconn_requested(gw_request_t *r);

//  Answers r with 101 and takes its connection over; r is ended (and
//  logged). When r is not a WebSocket request, answers 400 and returns
//  NULL. The handlers are copied; arg is the owner's.
gw_wsconn_t *
gw_wsconn_accept(gw_request_t *r, const gw_wsconn_handlers_t *handlers, void *arg);

//  Sends one message; -1 when the connection is closing.
int
gw_wsconn_send(gw_wsconn_t *self, gw_ws_opcode_t opcode, const void *data, size_t size);

//  Bytes queued for the client and not sent yet: an owner relaying a
//  stream stops reading its source above a limit of its own and goes on
//  at on_drained.
size_t gw_wsconn_pending(gw_wsconn_t *self);

//  Stops (paused true) or resumes reading the client's messages: the
//  owner's back-pressure when what they feed cannot take more. Pings and
//  the idle deadline are not affected by a pause of the owner's making.
void gw_wsconn_pause(gw_wsconn_t *self, bool paused);

//  Sends a JSON document as a TEXT message; the reference is stolen.
int gw_wsconn_send_json(gw_wsconn_t *self, json_t *document);

//  The owner ends the connection with a close code and reason; on_gone is
//  not called after this, and self must not be used again.
void gw_wsconn_close(gw_wsconn_t *self, int code, const char *reason);

//  Closes every connection of the gateway with 1001, telling owners they
//  are gone. For shutdown, before the HTTP server is freed.
void gw_wsconn_close_all(gw_server_t *gw);

#endif
