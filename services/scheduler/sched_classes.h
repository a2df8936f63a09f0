/*  =========================================================================
    sched_classes.h - private header of the scheduler: its modules and libbus

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_CLASSES_H_INCLUDED
#define SCHED_CLASSES_H_INCLUDED

#include "bus_classes.h"
#include "sched_config.h"
#include "sched_server.h"
//  Pure: statuses, the model of a pass, its policy and quota predicates
#include "sched_status.h"
#include "sched_model.h"
#include "sched_pass.h"
#include "sched_quota.h"
//  The db layer: the only files that write SQL
#include "sched_db.h"
#include "sched_db_sessions.h"
#include "sched_db_kernels.h"
#include "sched_db_agents.h"
#include "sched_db_sgroups.h"
#include "sched_db_snapshot.h"
#include "sched_db_ledger.h"
#include "sched_db_list.h"
#include "sched_db_metrics.h"
#include "sched_where.h"
#include "sched_db_checkpoint.h"
//  The service's objects
#include "sched_agents.h"
#include "sched_groups.h"
#include "sched_dispatch.h"
#include "sched_lifecycle.h"
#include "sched_calls.h"
#include "sched_wire.h"
#include "sched_commit.h"
#include "sched_kernels.h"
#include "sched_cluster.h"
#include "sched_kernel_events.h"
#include "sched_reconcile.h"
#include "sched_reclaim.h"
#include "sched_rpc.h"
#include "sched_metrics.h"

#endif
