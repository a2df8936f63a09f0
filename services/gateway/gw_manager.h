/*  =========================================================================
    gw_manager - maintenance: the manager's status, the announcement and
    the scheduler operations (Backend.AI's /manager routes)

    The status ("running" or "frozen") and the announcement live in the
    gateway's database (manager_settings), so a frozen platform stays frozen
    across a gateway restart. While frozen, the routes that create (a
    session, a virtual folder) answer 503 server-frozen and GraphQL
    mutations fail, as Backend.AI's ALL_ALLOWED handlers and its mutation
    middleware do; everything else, the running sessions included, works,
    unless the freeze asked force_kill: then they are destroyed.
    include-agents and exclude-agents go to the scheduler
    (scheduler.schedulable).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_MANAGER_H_INCLUDED
#define GW_MANAGER_H_INCLUDED

#include "bus.h"
#include "gw_request.h"

#define GW_MANAGER_RUNNING      "running"
#define GW_MANAGER_FROZEN       "frozen"
#define GW_MANAGER_MESSAGE_MAX  65536 //  bytes an announcement may hold
#define GW_MANAGER_AGENTS_MAX   10000 //  agents one scheduler operation names
#define GW_MANAGER_AGENT_ID_MAX 128   //  bytes of one agent id
#define GW_MANAGER_KILL_PAGE    1000  //  sessions force_kill lists at a time
#define GW_MANAGER_KILL_WINDOW  32    //  destroys force_kill keeps in flight
#define GW_MANAGER_KILL_ROUNDS  100   //  lists force_kill reads at most
//  The statuses whose sessions count as active in GET /manager/status.
#define GW_MANAGER_ACTIVE_STATUSES                                                       \
    "SCHEDULED,PULLING,PREPARING,RUNNING,RESTARTING,RUNNING_DEGRADED,TERMINATING"
//  The statuses whose sessions force_kill destroys (TERMINATING ones go already).
#define GW_MANAGER_KILL_STATUSES                                                         \
    "SCHEDULED,PULLING,PREPARING,RUNNING,RESTARTING,RUNNING_DEGRADED"

//  True when the platform is frozen (a read of the gateway's database; an
//  unreadable one counts as running, and is logged).
bool gw_manager_frozen(gw_server_t *gw);

//  The frozen check of the request pipeline: false, with 503 server-frozen
//  sent, when the platform is frozen and r's route creates something.
bool gw_manager_admit(gw_request_t *r);

//  GET /manager/status (anyone signed) and PUT (superadmin: freeze, unfreeze;
//  force_kill destroys every session that holds resources, once frozen).
void gw_manager_handle_status(gw_request_t *r);

//  GET /manager/announcement (anyone signed) and POST (superadmin).
void gw_manager_handle_announcement(gw_request_t *r);

//  POST /manager/scheduler/operation (superadmin): include-agents,
//  exclude-agents.
void gw_manager_handle_scheduler_operation(gw_request_t *r);

#endif
