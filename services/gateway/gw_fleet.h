/*  =========================================================================
    gw_fleet - each resource group's live agents, as the scheduler last
    told them, for the checks on a create's path

    A create checks that some live agent of its resource group could ever
    hold it (gw_session_launch) before it asks the scheduler to queue it.
    Asking for the group's agents first cost a round trip to the scheduler
    on every create (0.2-0.5 ms of bench-session's 1.7 ms to placement).
    The answer changes only when agents come, go or change their capacity,
    so it is kept for a short time and used only to say yes: a create that
    the kept list would refuse asks the scheduler again and is judged on
    the fresh list, so an agent that just joined is never missed. An agent
    that left meanwhile makes a yes that the scheduler turns into a wait,
    as a group with no agent at all does.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_FLEET_H_INCLUDED
#define GW_FLEET_H_INCLUDED

#include <jansson.h>
#include <stdint.h>

//  How long a group's list is used (ms).
#define GW_FLEET_TTL_MS 1000

//  Groups kept at most (a gateway serves few); past it the oldest goes.
#define GW_FLEET_GROUPS_MAX 64

typedef struct _gw_fleet_t gw_fleet_t;

//  Keeps each group's list for ttl_ms.
gw_fleet_t *gw_fleet_new(int64_t ttl_ms);
void gw_fleet_destroy(gw_fleet_t **self_p);

//  The agents of group (gw_agent_from_reply's array) when they were kept
//  less than the fleet's ttl_ms ago, else NULL. Borrowed until the next put.
json_t *gw_fleet_get(gw_fleet_t *self, const char *group);

//  Keeps agents (an array; anything else is ignored) as group's, now.
void gw_fleet_put(gw_fleet_t *self, const char *group, json_t *agents);

#endif
