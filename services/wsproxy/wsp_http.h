/*  =========================================================================
    wsp_http - HTTP/1.1 heads and chunked framing, as the wsproxy relays them

    Pure functions over bytes a client or a backend sent: no sockets, no
    loop (wsp_conn uses them; wsp_http_test drives them). The proxy parses
    only what it must to relay a message without holding it whole: where
    the head ends, how the body is framed (none, Content-Length, chunked,
    or until the backend closes), whether the connection stays open, and
    whether a request asks for a WebSocket (an upgrade the backend accepts
    with 101, after which the connection is a byte pipe). A request head
    is written again for the backend (Host rewritten, the proxy's own
    cookie removed, X-Forwarded-* added); a response head passes as it
    came, but for the Connection and Keep-Alive headers of an app that
    closes its connection while the proxy keeps the client's. Bodies are
    never parsed beyond their chunk framing.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef WSP_HTTP_H_INCLUDED
#define WSP_HTTP_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define WSP_HTTP_HEAD_MAX    16384 //  bytes of a request or response head
#define WSP_HTTP_HEADERS_MAX 100   //  header lines of one head
#define WSP_HTTP_METHOD_MAX  31
//  The proxy's permit cookie is WSP_HTTP_COOKIE_PREFIX<port>: one per app
//  port, since browsers scope cookies by host, not port.
#define WSP_HTTP_COOKIE_PREFIX "wsp_permit_"

typedef struct {
    const char *name;
    const char *value;
} wsp_http_header_t;

typedef enum {
    WSP_HTTP_BODY_NONE,    //  no body
    WSP_HTTP_BODY_LENGTH,  //  exactly length bytes
    WSP_HTTP_BODY_CHUNKED, //  chunked: wsp_http_chunked_scan finds its end
    WSP_HTTP_BODY_CLOSE,   //  a response read until the backend closes
} wsp_http_body_t;

//  A parsed head. Strings point into the head that was parsed (which the
//  parse cuts into strings) and are good while it is.
typedef struct {
    char method[WSP_HTTP_METHOD_MAX + 1]; //  requests
    const char *target;                   //  requests
    int status;                           //  responses
    bool http10;
    wsp_http_header_t headers[WSP_HTTP_HEADERS_MAX];
    size_t header_count;
    wsp_http_body_t body;
    uint64_t length; //  WSP_HTTP_BODY_LENGTH
    bool keep_alive; //  the sender keeps the connection after this message
    bool upgrade;    //  requests: Connection: upgrade with an Upgrade header
    bool websocket;  //  requests: the upgrade is to "websocket"
} wsp_http_head_t;

//  ---------------------------------------------------------------------------
//  Parses a request head of size bytes (the request line and headers and the
//  blank line's CRLF CRLF; head[size] must be readable and NUL). Writes NULs
//  into head. False when malformed: a request line that is not METHOD SP
//  TARGET SP HTTP/1.x, a header line without a name and colon or with a
//  bare CR or NUL, more than WSP_HTTP_HEADERS_MAX headers, a
//  Content-Length that is not one decimal (or several that differ), both
//  Content-Length and Transfer-Encoding, or a Transfer-Encoding that does
//  not end in chunked (request smuggling starts there).
bool wsp_http_parse_request(char *head, size_t size, wsp_http_head_t *req);

//  Parses a response head as above, for a request with method (HEAD and 1xx,
//  204, 304 answers have no body; no length means until close).
bool wsp_http_parse_response(char *head,
                             size_t size,
                             const char *method,
                             wsp_http_head_t *res);

//  The value of header name (any case), or NULL.
const char *wsp_http_header(const wsp_http_head_t *head, const char *name);

//  True when the comma-separated list value holds token (any case).
bool wsp_http_has_token(const char *value, const char *token);

//  The value of cookie name in the request's Cookie headers, copied into out
//  (size bytes); false when absent or too long.
bool
wsp_http_cookie(const wsp_http_head_t *req, const char *name, char *out, size_t size);

//  ---------------------------------------------------------------------------
//  Writes req again for the backend at host ("host:port") into out (size
//  bytes): the request line as HTTP/1.1, every header but Host (written as
//  host) and the proxy's permit cookies (other cookies kept), plus
//  X-Forwarded-For (client appended), X-Forwarded-Host (the Host the client
//  sent) and X-Forwarded-Proto (https when tls: the client came over TLS).
//  With drop_authorization, the Authorization header stays behind too: an
//  endpoint's token is the proxy's credential, not the model's.
//  Returns the length, or -1 when out is too small.
ssize_t wsp_http_request_write(const wsp_http_head_t *req,
                               const char *host,
                               const char *client,
                               bool tls,
                               bool drop_authorization,
                               char *out,
                               size_t size);

//  ---------------------------------------------------------------------------
//  Writes the response head (len bytes as the app sent them, a head
//  wsp_http_parse_response took) into out (size bytes) without its
//  Connection and Keep-Alive headers (and their folded lines): they are
//  the app's hop, not the client's (RFC 9110 section 7.6.1). For an app
//  that closes after its answer while the proxy keeps the client's
//  connection: its "close" would send the client away for nothing.
//  Returns the length, or -1 when out is too small.
ssize_t wsp_http_response_kept(const char *head, size_t len, char *out, size_t size);

//  ---------------------------------------------------------------------------
//  Finding the end of a chunked body while its bytes pass through unchanged.
typedef struct {
    int state;
    uint64_t left; //  bytes left of the current chunk's data
    int digits;
} wsp_http_chunked_t;

//  Scans n more bytes of a chunked body. Returns how many of them belong to
//  the body (all n unless it ended inside them: then *done is set and the
//  rest belongs to the next message), or -1 when the framing is broken.
ssize_t
wsp_http_chunked_scan(wsp_http_chunked_t *self, const char *data, size_t n, bool *done);

//  How many bytes of chunk data follow before the next framing byte: the
//  proxy may move them without looking (splice), then says so with
//  wsp_http_chunked_skip. 0 when the scanner is not inside chunk data.
uint64_t wsp_http_chunked_data_left(const wsp_http_chunked_t *self);

//  Takes n bytes of chunk data as passed (n <= wsp_http_chunked_data_left).
void wsp_http_chunked_skip(wsp_http_chunked_t *self, uint64_t n);

#endif
