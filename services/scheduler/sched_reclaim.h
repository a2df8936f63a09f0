/*  =========================================================================
    sched_reclaim - ending sessions nobody uses, or that ran out of time

    Every sessions.reclaim_ms the scheduler ends, with Backend.AI's reasons:
      pending-timeout        a session PENDING longer than its resource
                             group's scheduler_opts.pending_timeout (s);
      dependency-failed      a PENDING session one of whose dependencies
                             ended without success (it could never start:
                             dependencies must end TERMINATED with result
                             SUCCESS, which only a batch session's exit
                             code 0 gives);
      idle-timeout           an interactive session nobody used (no
                             execution, files, terminal or stream traffic:
                             the gateway's session.activity) for its
                             keypair policy's idle_timeout (s), counted
                             from the last use or from when it started;
      idle-session-lifetime  a session older than its keypair policy's
                             max_session_lifetime (s);
      exec-timeout           a batch session running longer than its
                             batch_timeout (s);
      idle-utilization       an interactive session whose average use over
                             the resource group's window stayed under its
                             thresholds, as scheduler_opts says:
        "idle_checkers": {"utilization": {"time_window": 600,
          "initial_grace_period": 60, "thresholds_check_operator": "and",
          "resource_thresholds": {"cpu_util": {"average": 10},
                                  "mem": {"average": 10}}}}
        cpu_util is the CPU time used over the window as a percentage of
        the cpus allocated; mem the memory in use as a percentage of the
        limit (kernel.stats, every agent stats period). With "and" every
        listed resource must be under its threshold, with "or" one; the
        window must be covered by samples first.
    Uses are kept in memory only: after a restart of the scheduler a
    running session counts as used at that moment, never as idle.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_RECLAIM_H_INCLUDED
#define SCHED_RECLAIM_H_INCLUDED

#include "bus.h"

//  Ends session_id for reason (sched_kernels_end_session, after the group
//  commit's flush).
typedef void(sched_reclaim_end_fn)(void *arg, const char *session_id, const char *reason);

typedef struct _sched_reclaim_t sched_reclaim_t;

//  Follows session.activity and kernel.stats on node; end is called for
//  each session a check ends. NULL on failure.
sched_reclaim_t *
sched_reclaim_new(bus_node_t *node, sched_reclaim_end_fn *end, void *arg);
void sched_reclaim_destroy(sched_reclaim_t **self_p);

//  One check at now_us; returns how many sessions it ended. Every
//  sessions.reclaim_ms (sched_server).
int sched_reclaim_check(sched_reclaim_t *self, int64_t now_us);

#endif
