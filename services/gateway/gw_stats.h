/*  =========================================================================
    gw_stats - the last resource use of every running kernel

    Agents publish kernel.stats for each running kernel every stats period
    (best effort, not durable). The gateway keeps the latest per kernel, so
    that DELETE /session can answer with the session's last statistics as
    Backend.AI does ({"stats": {...}}, its version 2 form, which
    `backend.ai run --rm -s` prints). An entry goes when its kernel's end
    comes on the session events; at most GW_STATS_MAX are kept.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_STATS_H_INCLUDED
#define GW_STATS_H_INCLUDED

#include "bus.h"
#include "gw_events.h"

#define GW_STATS_MAX 8192

typedef struct _gw_stats_t gw_stats_t;

//  Listens to the node's kernel.stats and to events (borrowed: it must
//  outlive the object). NULL when that fails.
gw_stats_t *gw_stats_new(bus_node_t *node, gw_events_t *events);

void gw_stats_destroy(gw_stats_t **self_p);

//  The kernel's last statistics in Backend.AI's version 2 form, or an empty
//  object when none came. Caller owns the result.
json_t *gw_stats_last(gw_stats_t *self, const char *kernel_id);

#endif
