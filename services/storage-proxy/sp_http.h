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
#include "sp_config.h"
#include "sp_folders.h"

#define SP_HTTP_STALL_S      60         //  a connection idle this long is dropped
#define SP_HTTP_HEAD_MAX     16384      //  bytes of a request line and headers
#define SP_HTTP_BODY_BUFFER  (4 << 20)  //  an upload's bytes between two writes
#define SP_HTTP_READ_TURN    (64 << 20) //  body bytes one connection reads per turn
#define SP_HTTP_WRITE_TURN   (64 << 20) //  file bytes one connection sends per turn
#define SP_HTTP_SENDFILE_MAX (16 << 20) //  bytes asked of one sendfile
#define SP_HTTP_CONN_MAX     1024       //  open connections; more are refused
#define SP_HTTP_ACCEPT_TURN  64         //  connections accepted per turn
#define SP_HTTP_TUS_VERSION  "1.0.0"

typedef struct _sp_http_t sp_http_t;

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

#endif
