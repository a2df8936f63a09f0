/*  =========================================================================
    wsp_conn - one client connection on a route's port, relayed to its app

    Two ends, the client's socket and the app's, each with an input and an
    output evbuffer and its own read and write events on the node's loop.
    Reads are large (WSP_CONN_READ_CHUNK) and bytes move between buffers
    without copying (evbuffer_remove_buffer). Back-pressure: an end is
    read only while the other end's output holds less than
    wsproxy.buffer_bytes, so a slow reader stops the fast writer and a
    connection never holds more than about twice that.

    An http route's connection is HTTP/1.1: each request head is parsed
    (wsp_http), checked for the route's permit cookie (or is the permit
    exchange itself, WSP_CONN_PERMIT_PATH), written again for the app and
    its body streamed by its framing (Content-Length or chunked); the
    answer's head is parsed for its framing and passed on as it came, its
    body streamed the same way (or until the app closes). Connections are
    kept alive; the app's connection is opened on the first request and
    again when the app closed it. A WebSocket upgrade the app answers with
    101 turns the connection into a byte pipe both ways, as a tcp route's
    connection is from its start. Local answers (400, 403, 431, 502) are
    problem+json and close the connection.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef WSP_CONN_H_INCLUDED
#define WSP_CONN_H_INCLUDED

#include "bus.h"
#include "wsp_routes.h"

#define WSP_CONN_READ_CHUNK  (256 << 10) //  bytes asked of one read
#define WSP_CONN_PIPE_MIN    (64 << 10)  //  a splice pipe, new or quiet (the default)
#define WSP_CONN_PIPE_MAX    (1 << 20)   //  one a splice filled (holds <= buffer_bytes)
#define WSP_CONN_PERMIT_PATH "/__wsproxy/permit"

//  ---------------------------------------------------------------------------
//  A connection accepted on route's port (fd, non-blocking; taken, closed on
//  failure too) from client ("ip:port"). Caller owns return value; NULL
//  when out of memory.
wsp_conn_t *wsp_conn_new(wsp_route_t *route, int fd, const char *client);

//  Closes both ends and frees it. Idempotent, NULLs the pointer.
void wsp_conn_destroy(wsp_conn_t **self_p);

//  Starts relaying; handle is the route's name for it (wsp_route_drop).
//  A tcp route's connection connects to the app now.
void wsp_conn_start(wsp_conn_t *self, void *handle);

//  Milliseconds since the connection last moved a byte (monotonic now_ms).
int64_t wsp_conn_idle_ms(wsp_conn_t *self, int64_t now_ms);

//  Gives back the capacity of pipes a burst grew (up to WSP_CONN_PIPE_MAX)
//  once the connection is quiet: the route cron calls it, so that an idle
//  WebSocket holds default-sized pipes (pipe slots are kernel memory, and
//  counted against fs.pipe-user-pages-soft).
void wsp_conn_trim(wsp_conn_t *self);

#endif
