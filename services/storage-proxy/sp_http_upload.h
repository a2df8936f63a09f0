/*  =========================================================================
    sp_http_upload - the tus upload route of the storage-proxy's HTTP
    endpoint: /upload

      OPTIONS /upload       tus discovery: Tus-Version, Tus-Extension
      POST /upload?token=   tus creation (optional; the client skips it):
                            201, Location, Upload-Offset
      HEAD /upload?token=   200, Upload-Offset (bytes so far), Upload-Length
      PATCH /upload?token=  a chunk at Upload-Offset: 204 with the new
                            Upload-Offset; 409 on another offset; 412 over
                            the folder's quota, nothing of it written

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_HTTP_UPLOAD_H_INCLUDED
#define SP_HTTP_UPLOAD_H_INCLUDED

#include "sp_http.h"

#define SP_HTTP_TUS_VERSION "1.0.0"

//  ---------------------------------------------------------------------------
//  Serves /upload (an sp_http_route_fn).
void sp_http_upload_route(sp_http_t *http, sp_http_conn_t *conn, struct evkeyvalq *query);

#endif
