/*  =========================================================================
    ttyd.h - backplane-ttyd: a web terminal speaking ttyd's protocol

    backplane-ttyd serves the `ttyd` app of every kernel (Backend.AI starts
    ttyd on container port 7681; Debian 12 has no ttyd package). It listens
    on one TCP port and serves a terminal page at / (xterm.js, embedded at
    build time) and a WebSocket at /ws with the subprotocol "tty", speaking
    ttyd's protocol: the client's first message is JSON ({"AuthToken",
    "columns", "rows"}), then messages whose first byte says what they are
    ('0' input, '1' resize {"columns","rows"}, '2' pause, '3' resume); the
    server sends '0' output, '1' the window title and '2' preferences
    (JSON). Each WebSocket gets its own shell on its own pseudo-terminal.

    Modules, each a file: ttyd_buf (bounded byte queues), ttyd_ws (frames
    and the handshake; pure), ttyd_msg (ttyd's messages; pure), ttyd_http
    (a request head; pure), ttyd_sha1 (SHA-1 and base64 for the
    handshake; pure), ttyd_page (the page and the embedded files),
    ttyd_pty (a shell on a pseudo-terminal), ttyd_server (the one poll
    loop), ttyd_main (options).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef TTYD_H_INCLUDED
#define TTYD_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define TTYD_PORT_DEFAULT 7681         //  Backend.AI's ttyd port
#define TTYD_CLIENTS_MAX  32           //  connections at once, HTTP and WebSocket
#define TTYD_HEAD_MAX     8192         //  bytes of an HTTP request head
#define TTYD_HEAD_MS      10000        //  for a request head to arrive
#define TTYD_REPLY_MS     60000        //  for an answer to be read (the page, xterm.js)
#define TTYD_CLOSING_MS   5000         //  for a close frame to be read
#define TTYD_MESSAGE_MAX  (256 * 1024) //  bytes of one client message (a paste)
#define TTYD_OUT_HIGH     (64 * 1024)  //  queued for the client: stop reading the PTY
#define TTYD_OUT_MAX      (TTYD_OUT_HIGH + 4 * TTYD_PTY_CHUNK)
#define TTYD_PTY_CHUNK    16384       //  one read of the PTY, one output message
#define TTYD_PTY_IN_MAX   (64 * 1024) //  queued for the shell: stop reading the client
#define TTYD_COLS_DEFAULT 80
#define TTYD_ROWS_DEFAULT 24
#define TTYD_TERM         "xterm-256color"
#define TTYD_SHELLS                                                                      \
    {                                                                                    \
        "/bin/bash", "/bin/ash", "/bin/sh"                                               \
    }
#define TTYD_TITLE_MAX   256
#define TTYD_PREFERENCES "{}"

//  ---------------------------------------------------------------------------
//  ttyd_buf: a byte queue that grows up to max bytes and no further.
typedef struct {
    uint8_t *data;
    size_t start, end, capacity;
    size_t max; //  the most it ever holds
} ttyd_buf_t;

//  An empty queue that holds at most max bytes (nothing allocated yet).
void ttyd_buf_init(ttyd_buf_t *self, size_t max);
//  Frees the storage; the queue is empty and usable again.
void ttyd_buf_clear(ttyd_buf_t *self);
//  Copies size bytes to the end: 0, or -1 (unchanged) when max would be
//  passed or memory runs out.
int ttyd_buf_append(ttyd_buf_t *self, const void *data, size_t size);
//  Bytes queued, the first of them (borrowed; valid until the next append).
size_t ttyd_buf_size(const ttyd_buf_t *self);
uint8_t *ttyd_buf_data(ttyd_buf_t *self);
//  Room left before max.
size_t ttyd_buf_room(const ttyd_buf_t *self);
//  Makes room for size more bytes at the end and returns where they go
//  (NULL when max would be passed); ttyd_buf_commit adds the n written.
uint8_t *ttyd_buf_reserve(ttyd_buf_t *self, size_t size);
void ttyd_buf_commit(ttyd_buf_t *self, size_t n);
//  Drops size bytes (at most ttyd_buf_size) from the front.
void ttyd_buf_consume(ttyd_buf_t *self, size_t size);

//  ---------------------------------------------------------------------------
//  ttyd_ws: WebSocket (RFC 6455) frames from clients and to them.
#define TTYD_WS_CONTINUATION   0x0
#define TTYD_WS_TEXT           0x1
#define TTYD_WS_BINARY         0x2
#define TTYD_WS_CLOSE          0x8
#define TTYD_WS_PING           0x9
#define TTYD_WS_PONG           0xA
#define TTYD_WS_HEADER_MAX     14 //  the longest client frame header
#define TTYD_WS_CONTROL_MAX    125
#define TTYD_WS_CLOSE_NORMAL   1000
#define TTYD_WS_CLOSE_GOING    1001
#define TTYD_WS_CLOSE_PROTOCOL 1002
#define TTYD_WS_CLOSE_TOO_BIG  1009
#define TTYD_WS_CLOSE_ERROR    1011

//  Called with each whole message (TEXT or BINARY, fragments joined) and
//  each control frame (CLOSE, PING, PONG); data is borrowed. Returns 0 to
//  go on, 1 to stop after this one (back-pressure: the rest stays unread),
//  -1 to fail.
typedef int(ttyd_ws_on_message_t)(void *arg,
                                  int opcode,
                                  const uint8_t *data,
                                  size_t size);

//  What one connection's reader keeps between calls: the message being
//  joined from fragments.
typedef struct {
    int opcode; //  of the message being joined; 0: none
    ttyd_buf_t message;
} ttyd_ws_reader_t;

void ttyd_ws_reader_init(ttyd_ws_reader_t *self);
void ttyd_ws_reader_clear(ttyd_ws_reader_t *self);

//  Decodes the client frames in data (size bytes; payloads are unmasked in
//  place) and calls on_message for each message or control frame. Returns
//  the bytes used (a partial frame is left for the next call), or -1 with
//  *close_code set when the client broke the protocol (unmasked, reserved
//  bits, unknown opcode, a control frame too long or fragmented, a
//  continuation of nothing, a message over TTYD_MESSAGE_MAX) or on_message
//  failed.
long ttyd_ws_reader_feed(ttyd_ws_reader_t *self,
                         uint8_t *data,
                         size_t size,
                         ttyd_ws_on_message_t *on_message,
                         void *arg,
                         int *close_code);

//  Writes the header of an unmasked server frame (FIN set) with size bytes
//  of payload into out (at least 10 bytes); returns its length.
size_t ttyd_ws_header(uint8_t *out, int opcode, size_t size);

//  The Sec-WebSocket-Accept of a Sec-WebSocket-Key, into out (29 bytes).
//  0, or -1 when the key is not 24 characters of base64.
int ttyd_ws_accept(const char *key, char *out);

//  ---------------------------------------------------------------------------
//  ttyd_msg: the messages of ttyd's protocol from a client.
typedef enum {
    TTYD_MSG_HELLO,   //  the first message: JSON with columns, rows, AuthToken
    TTYD_MSG_INPUT,   //  '0' then bytes for the terminal
    TTYD_MSG_RESIZE,  //  '1' then {"columns": C, "rows": R}
    TTYD_MSG_PAUSE,   //  '2': stop sending output
    TTYD_MSG_RESUME,  //  '3': send output again
    TTYD_MSG_UNKNOWN, //  anything else (ignored, as ttyd does)
} ttyd_msg_type_t;

typedef struct {
    ttyd_msg_type_t type;
    const uint8_t *data; //  INPUT: the bytes (borrowed)
    size_t size;
    unsigned columns, rows; //  HELLO and RESIZE: 1..65535, or 0 when absent or bad
} ttyd_msg_t;

//  Classifies one client message (never fails: what it cannot read is
//  UNKNOWN, and a size it cannot read is 0).
void ttyd_msg_parse(const uint8_t *data, size_t size, ttyd_msg_t *msg);

//  Reads "columns" and "rows" of a JSON object text: 0 when it is one
//  (each found integer of 1..65535 stored, others left), -1 when the text
//  is not a JSON object (nesting deeper than 32 included).
int ttyd_msg_json_size(const char *text, size_t size, unsigned *columns, unsigned *rows);

//  ---------------------------------------------------------------------------
//  ttyd_http: one HTTP/1.x request head.
#define TTYD_HTTP_PATH_MAX 512
typedef struct {
    char method[16];
    char path[TTYD_HTTP_PATH_MAX]; //  without the query
    char ws_key[64];               //  Sec-WebSocket-Key, "" if none
    bool upgrade;                  //  Upgrade: websocket and Connection: upgrade
    bool version_13;               //  Sec-WebSocket-Version: 13
    bool protocols;                //  a Sec-WebSocket-Protocol header came
    bool protocol_tty;             //  ... and it offers "tty"
} ttyd_http_request_t;

//  Parses a request head (size bytes, up to and including the blank line).
//  0, or -1 when it is not a request line followed by header lines.
int ttyd_http_parse(const char *head, size_t size, ttyd_http_request_t *req);

//  ---------------------------------------------------------------------------
//  ttyd_sha1: SHA-1 (20 bytes into digest) and base64 (NUL-terminated into
//  out, 4 * ceil(size / 3) + 1 bytes).
void ttyd_sha1(const void *data, size_t size, uint8_t digest[20]);
void ttyd_base64(const uint8_t *data, size_t size, char *out);

//  ---------------------------------------------------------------------------
//  ttyd_page: what plain GETs are answered with.
typedef struct {
    const char *path;         //  "/xterm.js"
    const char *content_type; //  with charset where it is text
    const uint8_t *data;
    size_t size;
} ttyd_asset_t;

//  The file served at path (the page at / and /index.html, the embedded
//  xterm.js files, /token), or NULL.
const ttyd_asset_t *ttyd_page_find(const char *path);

//  Whether xterm.js was embedded (else / is the plain fallback page).
bool ttyd_page_has_xterm(void);

//  Generated into $(BUILD)/ttyd/ttyd_assets.c by services/ttyd/gen-assets:
//  the xterm.js files, ended by an entry whose path is NULL (only that one
//  when npm was unavailable).
extern const ttyd_asset_t ttyd_assets[];

//  ---------------------------------------------------------------------------
//  ttyd_pty: a program on a new pseudo-terminal.

//  The first of TTYD_SHELLS that is executable, or NULL.
const char *ttyd_pty_shell(void);

//  Starts argv (argv[0] a path) in a new session on a new pseudo-terminal of
//  columns x rows, with TERM set; its master (non-blocking, close-on-exec)
//  into *master_p. The child's pid, or -1 with errno.
pid_t
ttyd_pty_spawn(const char *const *argv, unsigned columns, unsigned rows, int *master_p);

//  Sets the size of the terminal behind master. 0 or -1.
int ttyd_pty_resize(int master, unsigned columns, unsigned rows);

//  ---------------------------------------------------------------------------
//  ttyd_server: the listening socket, the connections, the shells.
typedef struct ttyd_server_t ttyd_server_t;

//  Listens on address:port (address NULL: every IPv4 and IPv6 address)
//  and will start argv (borrowed, kept) for each terminal. NULL with a
//  line on stderr when it cannot listen.
ttyd_server_t *ttyd_server_new(const char *address, int port, const char *const *argv);
void ttyd_server_destroy(ttyd_server_t **self_p);

//  The port it listens on (the real one when port 0 was asked).
int ttyd_server_port(ttyd_server_t *self);

//  Serves until SIGTERM or SIGINT; then hangs up every shell. 0 or -1.
int ttyd_server_run(ttyd_server_t *self);

//  One log line on stderr: "backplane-ttyd: <level> <text>".
void ttyd_log(const char *level, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

#endif
