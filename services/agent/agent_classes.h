/*  =========================================================================
    agent_classes.h - private header of the agent: its modules and libbus

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_CLASSES_H_INCLUDED
#define AGENT_CLASSES_H_INCLUDED

#include "bus_classes.h"
#include "agent_config.h"
#include "agent_accel.h"
#include "agent_server.h"
#include "agent_heartbeat.h"
#include "agent_fs.h"
#include "agent_files.h"
#include "agent_command.h"
#include "agent_images.h"
#include "agent_unpack.h"
#include "agent_netlink.h"
#include "agent_net.h"
#include "agent_ports.h"
#include "agent_bundle.h"
#include "agent_overlay.h"
#include "agent_runc.h"
#include "agent_stats.h"
#include "agent_hoststats.h"
#include "agent_runner_proto.h"
#include "agent_runner_client.h"
#include "agent_events.h"
#include "agent_db.h"
#include "agent_worker.h"
#include "agent_hosts.h"
#include "agent_container.h"
#include "agent_spec.h"
#include "agent_model.h"
#include "agent_kernels.h"
#include "agent_kernel.h"
#include "agent_task.h"
#include "agent_kernel_files.h"
#include "agent_kernel_pty.h"
#include "agent_service_def.h"
#include "agent_fake.h"

#endif
