/*  =========================================================================
    gw_vfolder_mounts - the folders a new session mounts, resolved

    POST /session's config names folders to mount (mounts: names or ids),
    where (mount_map: name -> path, relative to /home/work or absolute
    under it) and how (mount_options: name -> {"permission": "ro"}); the
    caller's own dot-prefixed folders are mounted as well, at
    /home/work/<name>, as Backend.AI's automount folders are. Each folder
    must be reachable by the caller, ready, and on a host it may mount
    from; it is mounted with the caller's permission, or less when asked
    (asking for more than the caller has is refused). The storage-proxy of
    each folder says which directory the agent bind-mounts.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_VFOLDER_MOUNTS_H_INCLUDED
#define GW_VFOLDER_MOUNTS_H_INCLUDED

#include "gw_request.h"

#define GW_VFOLDER_MOUNTS_MAX 64 //  folders one session mounts

//  The outcome: mounts is kernel.create's JSON (owned by the callee, NULL
//  when there is nothing to mount); or slug and detail of the problem to
//  answer, mounts NULL.
typedef void(gw_vfolder_mounts_fn)(void *arg,
                                   const char *mounts,
                                   const char *slug,
                                   const char *detail);

//  Resolves the mounts of config (the create body's config object, may be
//  NULL) for ctx's caller, with extra (NULL, or an array of mounts the
//  caller checked itself: {name, id, host, kernel_path, permission}, e.g.
//  a model folder at /models); done runs once, now or after the
//  storage-proxies answered.
void gw_vfolder_mounts_resolve(gw_server_t *gw,
                               gw_ctx_t *ctx,
                               json_t *config,
                               json_t *extra,
                               gw_vfolder_mounts_fn *done,
                               void *arg);

#endif
