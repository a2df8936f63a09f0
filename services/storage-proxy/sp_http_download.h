/*  =========================================================================
    sp_http_download - the download route of the storage-proxy's HTTP
    endpoint: GET|HEAD /download?token=

    The file, streamed from disk (sendfile), with Content-Length,
    Last-Modified, ETag, Content-Disposition and single byte ranges (Range,
    If-Range: 206 and Content-Range; 416 past the end); a directory is
    refused (400).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_HTTP_DOWNLOAD_H_INCLUDED
#define SP_HTTP_DOWNLOAD_H_INCLUDED

#include "sp_http.h"

//  ---------------------------------------------------------------------------
//  Serves /download (an sp_http_route_fn).
void
sp_http_download_route(sp_http_t *http, sp_http_conn_t *conn, struct evkeyvalq *query);

#endif
