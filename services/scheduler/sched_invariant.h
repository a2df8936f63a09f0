/*  =========================================================================
    sched_invariant - the ledger checked against itself and the agents

    The scheduler's promises, checked from the database alone:
      - for every agent and slot, the SUM of its allocation rows equals the
        occupancy the triggers keep (agent_occupancy), and never exceeds
        the agent's capacity;
      - for every quota scope and slot, the SUM of the allocation rows of
        its sessions' kernels equals scope_usage, and the pending amounts
        equal what the PENDING sessions ask for;
      - each keypair's counts of slot-holding and PENDING sessions equal
        the sessions' statuses;
      - only kernels that hold slots (placed, not ended) have allocation
        rows;
      - where an agent reported what its kernels hold (agent.heartbeat
        occupied_slots, at rest: no kernel of it in a transitional status),
        the ledger says the same.
    Run by the tests after every scenario, by scheduler.invariant over RPC,
    and offline by `backplane-scheduler check-ledger`.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_INVARIANT_H_INCLUDED
#define SCHED_INVARIANT_H_INCLUDED

#include "bus.h"

//  Serves scheduler.invariant on node. 0 or -1.
int sched_invariant_serve(bus_node_t *node);

//  backplane-scheduler check-ledger: opens the database of config (a
//  sched_config_t) and prints each violation; exit status 0 when none, 1
//  when some, 2 on bad usage or a database that cannot be read.
int sched_invariant_command(const void *config, int argc, char **argv);

//  Checks db; returns how many violations were found (0: all hold), -1
//  when the database cannot be read. When report is given, *report is a
//  JSON array (caller owns it) with one line of text per violation.
int sched_invariant_check(bus_db_t *db, json_t **report);

#endif
