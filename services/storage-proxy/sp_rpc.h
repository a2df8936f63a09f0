/*  =========================================================================
    sp_rpc - the storage.* methods (proto/storage.yaml) on the node

    Each handler decodes its request, looks the folder up in sp_folders and
    works through sp_fs, so every client path is checked and resolved
    beneath the folder root. Statuses and details are answered as sp_fs and
    sp_folders give them. Clones and rescans answer later, when their job
    ends; everything else answers at once.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_RPC_H_INCLUDED
#define SP_RPC_H_INCLUDED

#include "bus.h"
#include "sp_folders.h"
#include "sp_fetch.h"

//  How long a directory listed whole for paging is served from memory.
#define SP_RPC_LIST_CACHE_MS 10000
//  A directory changed this recently is not kept (its next change could
//  fall in the same timestamp tick).
#define SP_RPC_LIST_RACY_MS 2000

typedef struct _sp_rpc_t sp_rpc_t;

//  ---------------------------------------------------------------------------
//  Serves the storage methods on node over folders (borrowed; both outlive
//  it), and fetch (storage.files.fetch's jobs, borrowed too). url is the client-facing
//  HTTP endpoint storage.volumes announces
//  ("" when off; copied). Caller owns return value. NULL with err.
sp_rpc_t *sp_rpc_new(bus_node_t *node,
                     sp_folders_t *folders,
                     sp_fetch_t *fetch,
                     const char *url,
                     bus_error_t *err);

//  Idempotent, NULLs the pointer. Destroy the folders first: their pending
//  clones and rescans answer through this object.
void sp_rpc_destroy(sp_rpc_t **self_p);

#endif
