/*  =========================================================================
    agent_events - the durable kernel events an agent records

    kernel.started and kernel.terminated, encoded and emitted into the
    node's outbox: inside the caller's open transaction when there is one
    (published once it commits), else in one of their own. Real kernels
    (agent_kernels) and a fake fleet's (agent_fake) record them alike.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_EVENTS_H_INCLUDED
#define AGENT_EVENTS_H_INCLUDED

#include "bus.h"

//  0, or -1 when the event could not be encoded or recorded.
int agent_events_started(bus_node_t *node, const proto_kernel_started_t *event);
int agent_events_terminated(bus_node_t *node, const proto_kernel_terminated_t *event);

#endif
