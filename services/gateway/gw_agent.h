/*  =========================================================================
    gw_agent - agents in the GraphQL admin API, from the scheduler

    The scheduler owns the agent registry. When a GraphQL operation asks
    for agent, agents, agent_list or agent_summary_list, gw_gql first
    fetches the registry with scheduler.agents and keeps it in r->prefetch;
    these resolvers answer from it, in Backend.AI's field names
    (available_slots and occupied_slots as JSONString). Agents are a
    superadmin's view, as in Backend.AI; agent_summary_list (Backend.AI
    22.09's AgentSummary) shows anyone the agents of the resource groups
    open to them, without their addresses.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_AGENT_H_INCLUDED
#define GW_AGENT_H_INCLUDED

#include "gw_gql.h"

//  The agent root fields.
extern const gw_gql_root_t gw_agent_gql[];

//  True for a root field these resolvers answer.
bool gw_agent_is_root(const char *name);

//  The scheduler's reply as a JSON array of agent objects, or a JSON
//  object {"error": detail} when the call failed. Caller owns it.
json_t *gw_agent_from_reply(const bus_reply_t *reply);

#endif
