/*  =========================================================================
    gw_session_files - a session's files: upload, download, download_single,
    files (reference §3)

    Files live in the session's main container under /home/work; the
    gateway finds the session (gw_session_find) and asks its agent
    (kernel.upload, kernel.download, kernel.download_single,
    kernel.list_files), which reads and writes them confined beneath that
    directory. Limits are Backend.AI's: at most GW_FILES_UPLOAD_MAX files of
    less than GW_FILES_UPLOAD_FILE_MAX bytes per upload, at most
    GW_FILES_DOWNLOAD_MAX paths per download.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_SESSION_FILES_H_INCLUDED
#define GW_SESSION_FILES_H_INCLUDED

#include "gw_request.h"

#define GW_FILES_UPLOAD_MAX      20
#define GW_FILES_UPLOAD_FILE_MAX (1024 * 1024)
#define GW_FILES_DOWNLOAD_MAX    5
#define GW_FILES_ARCHIVE_MAX     (16 * 1024 * 1024) //  per downloaded path

//  POST /session/{s}/upload: multipart/form-data, one part per file, the
//  part's filename its path under /home/work. 204.
void gw_session_files_handle_upload(gw_request_t *r);

//  GET or POST /session/{s}/download: "files" in the JSON body (the 22.03
//  client's GET) or repeated in the query. multipart/mixed, one tar archive
//  per path.
void gw_session_files_handle_download(gw_request_t *r);

//  GET or POST /session/{s}/download_single?file=PATH: the file's bytes.
void gw_session_files_handle_download_single(gw_request_t *r);

//  GET /session/{s}/files, "path" in the JSON body or query (default "."):
//  {"files": "<JSON list>", "errors": "", "abspath": PATH}.
void gw_session_files_handle_list(gw_request_t *r);

#endif
