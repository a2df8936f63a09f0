/*  =========================================================================
    gw_stats - the last resource use of every running kernel

    Agents publish kernel.stats for each running kernel every stats period
    (best effort, not durable). The gateway keeps the latest per kernel, so
    that DELETE /session can answer with the session's last statistics as
    Backend.AI does ({"stats": {...}}, its version 2 form, which
    `backend.ai run --rm -s` prints). An entry goes when its kernel's end
    comes on the session events; at most GW_STATS_MAX are kept.

    It also keeps each agent's latest agent.stats (the host's CPU busy time
    per core and memory in use, every heartbeat), which GraphQL agent,
    agents and agent_list answer as live_stat (Backend.AI's node form:
    {"node": {cpu_util, mem}, "devices": {cpu_util: {core: ...}, mem:
    {root: ...}}}), cpu_cur_pct (node cpu_util pct: 100 per busy core) and
    mem_cur_bytes. Figures older than GW_STATS_AGENT_STALE_MS are not
    answered (an agent gone quiet has none, as Backend.AI's expired Redis key).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_STATS_H_INCLUDED
#define GW_STATS_H_INCLUDED

#include "bus.h"
#include "gw_events.h"

#define GW_STATS_MAX 8192
//  The most agents whose figures are kept (the scheduler.agents limit).
#define GW_STATS_AGENTS_MAX 10000
//  Older figures are not answered.
#define GW_STATS_AGENT_STALE_MS 60000

typedef struct _gw_stats_t gw_stats_t;

//  Listens to the node's kernel.stats and to events (borrowed: it must
//  outlive the object). NULL when that fails.
gw_stats_t *gw_stats_new(bus_node_t *node, gw_events_t *events);

void gw_stats_destroy(gw_stats_t **self_p);

//  The kernel's last statistics in Backend.AI's version 2 form, or an empty
//  object when none came. Caller owns the result.
json_t *gw_stats_last(gw_stats_t *self, const char *kernel_id);

//  ---------------------------------------------------------------------------
//  Sets live_stat (JSON text), cpu_cur_pct and mem_cur_bytes of each agent
//  object in agents (gw_agent_from_reply's array; anything else is left as
//  it is) from its latest figures: {"node": {}, "devices": {}}, 0 and 0
//  when there are none.
void gw_stats_agents_fill(gw_stats_t *self, json_t *agents);

#endif
