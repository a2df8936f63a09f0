/*  =========================================================================
    gw_storage - the storage-proxies the gateway knows, and calls to them

    A folder's host is "<proxy>:<volume>", as Backend.AI spells it. The
    directory maps each proxy name to the RPC endpoint of the storage-proxy
    that answers for it, its client-facing URL and its volumes; it is built
    by asking every registered storage-proxy for storage.volumes, and kept
    for GW_STORAGE_TTL_MS, or until a storage-proxy it never asked joins. Handlers wait
   for a fresh directory with gw_storage_ready, then look hosts up and call the proxy that
   owns one.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_STORAGE_H_INCLUDED
#define GW_STORAGE_H_INCLUDED

#include "bus.h"

#define GW_STORAGE_TTL_MS      5000  //  a directory older than this is rebuilt first
#define GW_STORAGE_RETRY_MS    1000  //  an unknown host rebuilds a directory this old
#define GW_STORAGE_CALL_MS     30000 //  how long a call to a storage-proxy may take
#define GW_STORAGE_HOST_MAX    192   //  "<proxy>:<volume>"
#define GW_STORAGE_WAITERS_MAX 4096  //  requests waiting on one rebuild

typedef struct _gw_storage_t gw_storage_t;
typedef void(gw_storage_ready_fn)(void *arg);

gw_storage_t *gw_storage_new(bus_node_t *node);
//  Forgets the calls in flight: their waiters are never called.
void gw_storage_destroy(gw_storage_t **self_p);

//  Calls fn(arg) once the directory is fresh: at once when it is, else when
//  every storage-proxy answered (or timed out). A proxy that does not
//  answer is left out until the next rebuild.
void gw_storage_ready(gw_storage_t *self, gw_storage_ready_fn *fn, void *arg);

//  Whether the directory holds the volumes of every storage-proxy in the
//  node's peer list (and at least one volume): what /healthz calls ready.
bool gw_storage_complete(gw_storage_t *self);

//  Where host lives: the RPC endpoint of its proxy, and (when not NULL) the
//  volume's name and the proxy's client URL. NULL for an unknown host.
//  Borrowed; valid until the next rebuild.
const char *gw_storage_find(gw_storage_t *self,
                            const char *host,
                            const char **volume,
                            const char **url);

//  Calls method with body (taken) on the storage-proxy that serves host,
//  once the directory is fresh; done(arg, reply) always runs, with
//  NOT_FOUND when no storage-proxy serves host and UNAVAILABLE when the
//  call cannot be sent. body NULL is a request that could not be written
//  (proto_*_writer): done runs at once with err, its status and detail.
void gw_storage_call(gw_storage_t *self,
                     const char *host,
                     const char *method,
                     bus_writer_t *body,
                     const bus_error_t *err,
                     bus_reply_fn *done,
                     void *arg);

//  The volume part of a host ("volume1" of "local:volume1"); host itself
//  when it has no ':'.
const char *gw_storage_volume_of(const char *host);

//  Every volume known, each {"name", "host", "backend", "proxy", "path",
//  "fs_type", "capabilities", "usage": {"capacity_bytes", "used_bytes"}}
//  in the proxies' order, the
//  first proxy's first volume first. Borrowed.
json_t *gw_storage_volumes(gw_storage_t *self);

#endif
