/*  =========================================================================
    sp_metrics - the storage-proxy's lines of GET /metrics: its volumes

    Per volume, read at each scrape: the file system's capacity, used and
    available bytes (statvfs, sp_volumes_usage), and the folders it holds
    with the bytes their last usage scans found (sp_db).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_METRICS_H_INCLUDED
#define SP_METRICS_H_INCLUDED

#include "bus.h"
#include "sp_volumes.h"

typedef struct _sp_metrics_t sp_metrics_t;

//  Adds the storage-proxy's lines to node's /metrics. node and volumes are
//  borrowed and must outlive the object. NULL on failure.
sp_metrics_t *sp_metrics_new(bus_node_t *node, sp_volumes_t *volumes);

//  Takes the lines off the node's /metrics and frees the object.
void sp_metrics_destroy(sp_metrics_t **self_p);

#endif
