/*  =========================================================================
    gw_websocket - the WebSocket wire format (RFC 6455), without the socket

    Three pieces: the Sec-WebSocket-Accept answer to a client's handshake
    key; the header of a frame the server sends (unmasked, never
    fragmented); and a reader that turns the bytes a client sends, in
    whatever chunks they arrive, into whole messages: fragments joined,
    masks removed, control frames delivered as they come, text checked to
    be UTF-8. Everything a client sends is outside input, so the reader
    refuses what RFC 6455 forbids with the close code to answer, and never
    holds more than one message of max_message bytes.
    gw_wsconn puts this on a connection.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_WEBSOCKET_H_INCLUDED
#define GW_WEBSOCKET_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    GW_WS_CONTINUATION = 0x0,
    GW_WS_TEXT = 0x1,
    GW_WS_BINARY = 0x2,
    GW_WS_CLOSE = 0x8,
    GW_WS_PING = 0x9,
    GW_WS_PONG = 0xA,
} gw_ws_opcode_t;

//  Close codes (RFC 6455 §7.4.1) we send.
#define GW_WS_CLOSE_NORMAL      1000
#define GW_WS_CLOSE_GOING_AWAY  1001
#define GW_WS_CLOSE_PROTOCOL    1002
#define GW_WS_CLOSE_UNSUPPORTED 1003
#define GW_WS_CLOSE_BAD_DATA    1007 //  text that is not UTF-8
#define GW_WS_CLOSE_POLICY      1008
#define GW_WS_CLOSE_TOO_BIG     1009
#define GW_WS_CLOSE_INTERNAL    1011
#define GW_WS_CLOSE_TRY_AGAIN   1013 //  a service behind is not ready

#define GW_WS_HEADER_MAX  14 //  2 + 8 bytes of length + 4 of mask
#define GW_WS_ACCEPT_SIZE 29 //  base64 of a SHA-1, and its NUL
#define GW_WS_CONTROL_MAX 125

//  Writes the Sec-WebSocket-Accept value for a client's Sec-WebSocket-Key
//  into accept. False when the key is not the base64 of 16 bytes.
bool gw_ws_accept_key(const char *key, char accept[GW_WS_ACCEPT_SIZE]);

//  Writes the header of one whole, unmasked frame of size payload bytes into
//  out; returns the header's length.
size_t
gw_ws_frame_header(uint8_t out[GW_WS_HEADER_MAX], gw_ws_opcode_t opcode, uint64_t size);

//  Writes a close frame's payload (code, then as much of reason as fits) into
//  out; returns its length.
size_t gw_ws_close_payload(uint8_t out[GW_WS_CONTROL_MAX], int code, const char *reason);

//  True when data is well-formed UTF-8 (no overlong forms, no surrogates).
bool gw_ws_utf8_valid(const uint8_t *data, size_t size);

typedef struct _gw_ws_reader_t gw_ws_reader_t;

//  One message: TEXT or BINARY (whole, unmasked), or a CLOSE, PING or PONG
//  frame's payload. data lives until the callback returns. Return false to
//  stop reading (the rest of the input is dropped).
typedef bool(gw_ws_message_fn)(void *arg,
                               gw_ws_opcode_t opcode,
                               const uint8_t *data,
                               size_t size);

//  A reader for one connection's client frames; messages over max_message
//  bytes are refused with GW_WS_CLOSE_TOO_BIG. NULL when out of memory.
gw_ws_reader_t *gw_ws_reader_new(size_t max_message);

void gw_ws_reader_destroy(gw_ws_reader_t **self_p);

//  Takes the next size bytes of the stream and hands every message they
//  complete to fn. Returns 0, or the close code to answer with when the
//  client broke the protocol; after that the reader refuses everything.
int gw_ws_reader_feed(gw_ws_reader_t *self,
                      const uint8_t *data,
                      size_t size,
                      gw_ws_message_fn *fn,
                      void *arg);

#endif
