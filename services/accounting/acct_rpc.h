/*  =========================================================================
    acct_rpc - the accounting.* methods (proto/accounting.yaml) on the node

    Each handler decodes its request, answers from acct_query over the
    node's database, and answers at once. Bad input is BUS_STATUS_INVALID
    with a detail the gateway can show.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef ACCT_RPC_H_INCLUDED
#define ACCT_RPC_H_INCLUDED

#include "bus.h"
#include "acct_ingest.h"

typedef struct _acct_rpc_t acct_rpc_t;

//  ---------------------------------------------------------------------------
//  Serves the accounting methods on node; ingest (borrowed, may be NULL) is
//  flushed before each answer so it counts every sample received. Caller
//  owns return value. NULL with err.
acct_rpc_t *acct_rpc_new(bus_node_t *node, acct_ingest_t *ingest, bus_error_t *err);

//  Idempotent, NULLs the pointer.
void acct_rpc_destroy(acct_rpc_t **self_p);

#endif
