/*  =========================================================================
    sp_http - the storage-proxy's client-facing HTTP endpoint: uploads and
    downloads authorised by tokens

    The gateway answers request-upload and request-download with a token
    (bus_token, signed with the secret both share) and this endpoint's URL;
    the client then comes here with the token alone, as the official
    Backend.AI client does:

      GET /                 {"status": "ok", "type": "client-facing", ...}
      OPTIONS /upload       tus discovery: Tus-Version, Tus-Extension
      POST /upload?token=   tus creation (optional; the client skips it):
                            201, Location, Upload-Offset
      HEAD /upload?token=   200, Upload-Offset (bytes so far), Upload-Length
      PATCH /upload?token=  a chunk at Upload-Offset (Content-Type
                            application/offset+octet-stream): 204 with the
                            new Upload-Offset; 409 (with the current
                            Upload-Offset) when the offsets differ; 412
                            quota-exceeded when the chunk would cross the
                            folder's quota, nothing of it written
      GET|HEAD /download?token=
                            the file, streamed from disk (sendfile), with
                            Content-Length, Last-Modified, ETag and single
                            byte ranges (Range, If-Range: 206 and
                            Content-Range; 416 past the end); a directory
                            is refused (400)

    The server (this file's object) owns the listener, the connections and
    the route table; sp_http_conn is one connection (reading, answering),
    sp_http_upload and sp_http_download are the routes.

    Browsers: every answer carries Access-Control-Allow-Origin: * and
    exposes the tus and download headers, and a CORS preflight (OPTIONS
    with Access-Control-Request-Method) on any route is answered 204 with
    the methods and headers the routes take, so the web UI, served from
    another origin, uploads and downloads here directly. The token in the
    URL is the only authority; no cookie is read.

    Errors are problem+json like the gateway's: {"type":
    "https://api.backend.ai/probs/<slug>", "title", "status", "msg",
    "detail"}. An upload's body streams to disk through a buffer of
    SP_HTTP_BODY_BUFFER bytes; a request body over http.max_chunk_bytes is
    refused (413). Bytes of a PATCH that breaks off stay: HEAD answers the
    offset they reach.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_HTTP_H_INCLUDED
#define SP_HTTP_H_INCLUDED

#include "bus.h"
#include "bus_token.h"
#include "sp_config.h"
#include "sp_folders.h"
#include "sp_http_conn.h"

#define SP_HTTP_STALL_S      60         //  a connection idle this long is dropped
#define SP_HTTP_HEAD_MAX     16384      //  bytes of a request line and headers
#define SP_HTTP_BODY_BUFFER  (4 << 20)  //  an upload's bytes between two writes
#define SP_HTTP_READ_TURN    (64 << 20) //  body bytes one connection reads per turn
#define SP_HTTP_WRITE_TURN   (64 << 20) //  file bytes one connection sends per turn
#define SP_HTTP_SENDFILE_MAX (16 << 20) //  bytes asked of one sendfile
#define SP_HTTP_TLS_RECORD   16384      //  file bytes read and encrypted at once (TLS)
#define SP_HTTP_CONN_MAX     1024       //  open connections; more are refused
#define SP_HTTP_ACCEPT_TURN  64         //  connections accepted per turn
#define SP_HTTP_EXTRA_MAX    12288 //  an answer's extra headers (Location holds a token)

typedef struct _sp_http_t sp_http_t;
struct evkeyvalq; //  libevent's parsed query

//  ---------------------------------------------------------------------------
//  Reads the token secret and binds config's http.listen on node's loop;
//  uploads and downloads go into folders (borrowed; both outlive it).
//  Caller owns return value. NULL with err (a bad listen address, a port
//  in use, an unreadable or short secret).
sp_http_t *sp_http_new(bus_node_t *node,
                       sp_folders_t *folders,
                       const sp_config_t *config,
                       bus_error_t *err);

//  Closes the listener and its connections. Idempotent, NULLs the pointer.
void sp_http_destroy(sp_http_t **self_p);

//  ---------------------------------------------------------------------------
//  The URL clients are given: http.advertise, or http://host:port as bound.
const char *sp_http_url(sp_http_t *self);

//  "host:port" as bound.
const char *sp_http_endpoint(sp_http_t *self);

//  ---------------------------------------------------------------------------
//  For the connections (sp_http_conn) and the routes (sp_http_upload,
//  sp_http_download): what they need of the server.

//  A route: answers the request on conn (exactly once, or starts reading
//  its body with sp_http_conn_read_body). query is the parsed query string,
//  borrowed for the call.
typedef void(sp_http_route_fn)(sp_http_t *http,
                               sp_http_conn_t *conn,
                               struct evkeyvalq *query);

//  Serves the request whose head conn just parsed through the route table.
void sp_http_dispatch(sp_http_t *self, sp_http_conn_t *conn);

//  Closes and frees the connection that handle (given at its start) names.
//  conn is gone when this returns.
void sp_http_drop(sp_http_t *self, void *handle);

//  The largest request body taken (http.max_chunk_bytes).
uint64_t sp_http_max_body(sp_http_t *self);

//  The folders uploads and downloads go into. Borrowed.
sp_folders_t *sp_http_folders(sp_http_t *self);

//  Checks the token in query for op and finds the folder it names. True
//  with claims and folder filled; false once conn is answered why not.
bool sp_http_authorize(sp_http_t *self,
                       sp_http_conn_t *conn,
                       struct evkeyvalq *query,
                       bus_token_op_t op,
                       bus_token_claims_t *claims,
                       sp_folder_t *folder);

#endif
