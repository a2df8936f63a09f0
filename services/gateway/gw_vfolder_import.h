/*  =========================================================================
    gw_vfolder_import - POST /folders/{name}/import: Import & Run's fetch
    of a URL into a folder, as a background task

    Backend.AI's web UI imports a notebook or a repository by starting a
    session that curls the URL into a folder. Here the folder's
    storage-proxy fetches it itself (storage.files.fetch, §9 of
    ARCHITECTURE.md): the gateway checks that the caller may write the
    folder (rw) and upload to its host, asks the storage-proxy to start,
    and answers {"task_id"} of a background task (gw_bgtask), which it
    keeps up to date by asking storage.files.fetch_status every
    GW_IMPORT_POLL_MS: bgtask_updated with the bytes (or, unpacking, the
    entries) done and to do and the phase as message, then bgtask_done
    with what was made or bgtask_failed with why, on
    /events/background-task?task_id=.

    Body: {"url": "https://...", "path": "notebook.ipynb", "unzip": false,
    "strip_top": false}; path defaults to the URL's last segment. With
    "git": true the URL is a repository the storage-proxy clones over
    git's smart HTTP ("ref": a branch or tag, the remote HEAD by default),
    and path defaults to the repository's name without ".git".

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_VFOLDER_IMPORT_H_INCLUDED
#define GW_VFOLDER_IMPORT_H_INCLUDED

#include "gw_request.h"

#define GW_IMPORT_POLL_MS  500 //  how often a running fetch is asked where it stands
#define GW_IMPORT_MISSES   40  //  unanswered asks in a row before the task fails
#define GW_IMPORT_PATH_MAX 4096
#define GW_IMPORT_REF_MAX  255 //  a git branch or tag name

//  POST /folders/{name}/import
void gw_vfolder_handle_import(gw_request_t *r);

#endif
