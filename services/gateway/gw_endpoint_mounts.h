/*  =========================================================================
    gw_endpoint_mounts - the folders a model service's replicas mount

    Every replica mounts the model folder, read-only, at the endpoint's
    model_mount_destination, and the extra folders POST /services named in
    config.extra_mounts (Backend.AI 24.03: {folder id or name:
    {mount_destination?, type: "bind", permission?}}), which the endpoint
    keeps as a JSON array of {id, mount_destination, permission}. An extra
    folder may not be a model folder; its destination defaults to
    /home/work/<its name> (a relative one is beneath /home/work), must not
    meet the model's or another's, nor a path the agent mounts itself; its
    permission defaults to the one the owner mounts it with, and may not
    exceed what the owner may do with it.

    The folders are looked up again for each replica, as the owner reaches
    them then: a folder deleted or unshared since makes the replica fail to
    start with the reason, as a session asking for it would.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_ENDPOINT_MOUNTS_H_INCLUDED
#define GW_ENDPOINT_MOUNTS_H_INCLUDED

#include "gw_http.h"

#define GW_ENDPOINT_EXTRA_MAX 16 //  extra folders one endpoint may mount

//  True for a place a folder of a replica may be mounted at: a clean
//  absolute path of at most 255 bytes, not /home, /proc, /dev, /sys,
//  /etc/hosts or /opt/backplane, nor beneath or above them; an extra
//  folder may also go beneath /home/work.
bool gw_endpoint_path_valid(const char *path, bool extra);

//  config.extra_mounts of POST /services (NULL, null or an object) as the
//  array the endpoint keeps, the folders found as ctx's caller reaches
//  them; model_dest is where the model goes. Returns the array (empty when
//  none; caller owns it), or NULL with *status (INVALID, NOT_FOUND or
//  FORBIDDEN) and detail said as the client's mistake.
json_t *gw_endpoint_extra_parse(gw_ctx_t *ctx,
                                json_t *extra,
                                const char *model_dest,
                                int *status,
                                char *detail,
                                size_t size);

//  The folders a replica of endpoint (its row) mounts, model first, as
//  gw_session_launch's extra_mounts (name, id, host, kernel_path,
//  permission). NULL with detail when one cannot be mounted any more.
json_t *gw_endpoint_mounts(gw_ctx_t *ctx, json_t *endpoint, char *detail, size_t size);

#endif
