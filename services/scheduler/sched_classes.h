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
#include "sched_status.h"
#include "sched_db.h"
#include "sched_model.h"
#include "sched_pass.h"
#include "sched_quota.h"
#include "sched_db_snapshot.h"
#include "sched_agents.h"
#include "sched_usage.h"
#include "sched_db_sessions.h"
#include "sched_db_list.h"
#include "sched_where.h"
#include "sched_dispatch.h"
#include "sched_groups.h"
#include "sched_invariant.h"
#include "sched_reclaim.h"
#include "sched_lifecycle.h"
#include "sched_cluster.h"
#include "sched_db_checkpoint.h"

#endif
