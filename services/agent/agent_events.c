/*  =========================================================================
    agent_events - the durable kernel events an agent records

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

typedef int(s_write_fn)(const void *item, bus_writer_t *writer);

//  Encodes item with write into a fresh writer and emits it under topic.
static int
s_emit(bus_node_t *node, const char *topic, s_write_fn *write, const void *item)
{
    bus_writer_t *writer = bus_writer_new();
    int rc = -1;
    if (writer && write(item, writer) == 0)
        rc = bus_node_emit(node, topic, bus_writer_data(writer),
                           bus_writer_size(writer)) > 0
                 ? 0
                 : -1;
    bus_writer_destroy(&writer);
    return rc;
}

static int
s_write_started(const void *item, bus_writer_t *writer)
{
    return proto_kernel_started_write(item, writer);
}

static int
s_write_terminated(const void *item, bus_writer_t *writer)
{
    return proto_kernel_terminated_write(item, writer);
}

int
agent_events_started(bus_node_t *node, const proto_kernel_started_t *event)
{
    return s_emit(node, PROTO_KERNEL_STARTED, s_write_started, event);
}

int
agent_events_terminated(bus_node_t *node, const proto_kernel_terminated_t *event)
{
    return s_emit(node, PROTO_KERNEL_TERMINATED, s_write_terminated, event);
}
