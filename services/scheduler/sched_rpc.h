/*  =========================================================================
    sched_rpc - every RPC the scheduler serves, from one table

    Each handler decodes the request, calls the module that owns the
    answer and encodes the reply; they are registered in a loop over one
    static table (method -> handler). The session.* methods first flush the
    group commit (sched_commit), so that a request never overtakes the
    creates before it, except session.create, which is queued to it:

      session.create        queued, recorded and answered by the next flush
      session.destroy       ends the session (sched_kernels_end_session)
      session.get           by id, or by the owner's name (the live one first)
      session.list          a page and the count of all (sched_db_list)
      session.rename        a RUNNING session (sched_db_sessions_rename)
      session.restart       RESTARTING, then kernel.restart to its agent;
                            answered once it runs again (or it failed)
      scheduler.agents      the registry (sched_db_agents_list)
      scheduler.schedulable an operator includes or excludes agents
      scheduler.usage       what a keypair, project and domain hold
      scheduler.invariant   the ledger's checks (sched_db_ledger_check)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_RPC_H_INCLUDED
#define SCHED_RPC_H_INCLUDED

#include "bus.h"
#include "sched_agents.h"
#include "sched_calls.h"
#include "sched_commit.h"
#include "sched_kernels.h"
#include "sched_lifecycle.h"

//  A session.restart's answer must reach the caller this long before its
//  deadline, so the call to the agent gets less.
#define SCHED_RPC_RESTART_MARGIN_MS 250

typedef struct _sched_rpc_t sched_rpc_t;

//  Serves every method of the table on node, with the modules given
//  (borrowed). NULL with err when a method cannot be served.
sched_rpc_t *sched_rpc_new(bus_node_t *node,
                           sched_lifecycle_t *lifecycle,
                           sched_calls_t *calls,
                           sched_commit_t *commit,
                           sched_kernels_t *kernels,
                           sched_agents_t *agents,
                           bus_error_t *err);
void sched_rpc_destroy(sched_rpc_t **self_p);

//  Writes session_id's info as every session.* method answers (a reply
//  with one member, "session"), read as session.get reads it; also the
//  answer to a session.create sent again. BUS_OK, or NOT_FOUND or INTERNAL
//  with err.
int sched_rpc_session_reply(bus_db_t *db,
                            const char *session_id,
                            bus_writer_t *reply,
                            bus_error_t *err);

#endif
