/*  =========================================================================
    sched_db_agents - the agent registry in the scheduler's database

    agents holds each agent as its heartbeats describe it (ALIVE, or LOST
    once silent), agent_capacity the slots it offers and agent_reported
    what it says its kernels hold, one row per slot in integer units. An
    operator's exclusion (operator_excluded) outlasts the heartbeats, which
    otherwise say whether the agent is schedulable.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_DB_AGENTS_H_INCLUDED
#define SCHED_DB_AGENTS_H_INCLUDED

#include "bus.h"

//  Writes what a heartbeat says at now_us: the agent ALIVE with its place,
//  address and process start (upserted), and its capacity and reported
//  occupancy rewritten from the slot maps. Slots that cannot be scheduled
//  are left out, and said so. Inside the caller's transaction. 0 or -1.
int
sched_db_agents_beat(bus_db_t *db, const proto_agent_heartbeat_t *beat, int64_t now_us);

//  agent_id refused kernel_id for want of room for slot (NULL or "": for
//  any accelerator slot the kernel asks for): until its next heartbeat
//  says otherwise, one kernel there can have less of each such slot than
//  kernel_id asked (agent_placeable lowered). Inside the caller's
//  transaction. 0 or -1.
int sched_db_agents_refused(bus_db_t *db,
                            const char *agent_id,
                            const char *kernel_id,
                            const char *slot);

//  Notes that agent_id was heard at seen_us.
void sched_db_agents_seen(bus_db_t *db, const char *agent_id, int64_t seen_us);

//  Marks LOST (at now_us) every ALIVE agent not heard since before_us,
//  calling fn (when given) with each first. Returns how many.
int sched_db_agents_expire(
    bus_db_t *db, int64_t before_us, int64_t now_us, sched_db_id_fn *fn, void *arg);

//  Marks an ALIVE agent TERMINATED (at now_us: the reconciliation's grace
//  runs from then, as for a LOST one). Returns 1 when it was ALIVE, 0 when
//  not, -1 on a database error.
int sched_db_agents_terminated(bus_db_t *db, const char *agent_id, int64_t now_us);

//  The agents of scaling_group (a LIKE pattern; NULL or "" for all) whose
//  status is in statuses (comma-separated; NULL or "" for all), by id,
//  each with its capacity and what its allocation rows hold, into out
//  (initialized by the caller). BUS_OK or INTERNAL.
int sched_db_agents_list(bus_db_t *db,
                         const char *scaling_group,
                         const char *statuses,
                         proto_scheduler_agents_rep_t *out);

//  An operator includes (schedulable) or excludes agent_id. BUS_OK,
//  NOT_FOUND or INTERNAL.
int sched_db_agents_set_schedulable(bus_db_t *db, const char *agent_id, bool schedulable);

//  Where the agent of kernel_id (when given and not ""), else the agent
//  agent_id, answers now and when its process started, as its heartbeats
//  say. False when neither is known.
bool sched_db_agents_address(bus_db_t *db,
                             const char *kernel_id,
                             const char *agent_id,
                             char addr[256],
                             int64_t *started_at);

//  Whether the agent of kernel_id answers at addr now and was heard from at
//  since_us (wall clock) or later.
bool sched_db_agents_confirmed(bus_db_t *db,
                               const char *kernel_id,
                               const char *addr,
                               int64_t since_us);

//  An agent as the reconciliation sees it.
typedef struct {
    char id[128];
    char addr[256];
    bool alive;
    int64_t lost_at; //  0 unless LOST
} sched_db_agent_t;

//  Every agent, by id: at most max into out. Returns how many.
size_t sched_db_agents_all(bus_db_t *db, sched_db_agent_t *out, size_t max);

//  The resource groups and architectures that have ALIVE, schedulable
//  agents, as "<group>\n<architecture>" strings. Caller owns the list (its
//  items are freed with it); NULL on a database error.
zlistx_t *sched_db_agents_groups(bus_db_t *db);

#endif
