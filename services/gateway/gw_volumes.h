/*  =========================================================================
    gw_volumes - the administrators' view of the storage volumes

    What `backend.ai admin storage` and `admin vfolder` ask about volumes
    rather than folders: GraphQL storage_volume_list and storage_volume,
    GET /folders/_/perf-metric, /folders/_/fstab and /folders/_/mounts. All
    are answered from the storage directory (gw_storage: every
    storage-proxy's storage.volumes), superadmins only, as Backend.AI's.
    Backend.AI asks agents for their fstab and mounts through the agent
    watcher, which Backplane does not have: those parts answer what the
    gateway's host has, and no agents.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_VOLUMES_H_INCLUDED
#define GW_VOLUMES_H_INCLUDED

#include "gw_request.h"

#define GW_VOLUMES_FSTAB_PATH "/etc/fstab"
#define GW_VOLUMES_FSTAB_MAX  (64 * 1024) //  bytes of it answered at most

//  storage_volume_list (a page: limit, offset, filter, order) and
//  storage_volume(id): Backend.AI's StorageVolume {id ("<proxy>:<volume>"),
//  backend, path, fsprefix, capabilities, hardware_metadata,
//  performance_metric, usage}; the last three are JSON strings.
extern const gw_gql_root_t gw_volumes_gql[];

//  Whether a root field reads the storage directory (gw_gql then waits
//  for it to be fresh before executing the document).
bool gw_volumes_is_root(const char *name);

//  GET /folders/_/perf-metric?folder_host=: {"metric": {...}}. A local
//  volume keeps no I/O counters: every figure is -1, Backend.AI's "not
//  measured" (its own vfs back-end answers the same).
void gw_volumes_handle_perf_metric(gw_request_t *r);

//  GET /folders/_/fstab[?agent_id=]: {"content", "node", "node_id"} of the
//  gateway host's fstab; an agent's (through the watcher) is not available.
void gw_volumes_handle_fstab(gw_request_t *r);

//  GET /folders/_/mounts: {"manager": {...}, "storage-proxy": {"success",
//  "mounts": [[host, path]], "message"}, "agents": {}}.
void gw_volumes_handle_mounts(gw_request_t *r);

#endif
