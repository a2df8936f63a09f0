/*  =========================================================================
    bus.h - public umbrella header of libbus, the library every Backplane
    service links: the event bus and RPC over ZeroMQ, msgpack codecs, the
    generated message schemas, configuration, SQLite state and logging.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_H_INCLUDED
#define BUS_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <czmq.h>

#define BACKPLANE_VERSION "0.1.0"

#include "bus_status.h"
#include "bus_hex.h"
#include "proto.h"
#include "bus_clock.h"
#include "bus_thread.h"
#include "bus_log.h"
#include "bus_codec.h"
#include "bus_slots.h"
#include "bus_figures.h"
#include "bus_addr.h"
#include "bus_envelope.h"
#include "bus_db.h"
#include "bus_where.h"
#include "bus_config.h"
#include "bus_socket.h"
#include "bus_hub.h"
#include "bus_outbox.h"
#include "bus_pub.h"
#include "bus_sub.h"
#include "bus_rpc.h"
#include "bus_registry.h"
#include "bus_inbox.h"
#include "bus_beneath.h"
#include "bus_metrics.h"
#include "bus_node.h"
#include "proto_serve.h"
#include "bus_main.h"

#endif
