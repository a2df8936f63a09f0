/*  =========================================================================
    acct_server - the accounting service as bus_main runs it

    Keeps usage records, statistics and the access and audit log. It
    follows the gateway's durable events, so every request the gateway
    served lands in access_log (acct_db) exactly once, even across restarts
    of either side. Its state is the node's database; it serves no RPC
    methods of its own (so no acct_rpc yet).

    Timers (besides the node's cron, listed in bus_node.h: heartbeat,
    peer list, catch-up of missed durable events, outbox):
      none. Access records are written as their events arrive, one inbox
      transaction each.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "acct_classes.h"

//  Records one gateway.access event; runs inside the inbox transaction.
static int
s_apply_gateway(void *arg, bus_node_t *node, const bus_event_t *event)
{
    (void) arg;
    if (strcmp(event->topic, PROTO_GATEWAY_ACCESS) != 0)
        return 0; //  other gateway events are not ours to keep
    proto_gateway_access_t access;
    bus_error_t err = {0};
    if (proto_gateway_access_decode(&access, event->body, event->body_size, &err) !=
        BUS_OK) {
        //  A malformed event can never be applied: log it and move past it,
        //  or the stream would stall on it for ever.
        bus_log_error("access event malformed; skipped src=%s seq=%" PRIu64
                      " reason=\"%s\"",
                      event->header.src, event->header.seq, err.detail);
        return 0;
    }
    int rc = acct_db_access_insert(bus_node_db(node), &access, event->header.src);
    proto_gateway_access_clear(&access);
    return rc;
}

static void *
s_init(bus_node_t *node, const void *config, bus_error_t *err)
{
    (void) config;
    if (bus_node_follow(node, "gateway", s_apply_gateway, NULL) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot follow the gateway's events");
        return NULL;
    }
    return node;
}

const bus_service_t acct_service = {
    .name = "accounting",
    .summary = "Keeps usage records, statistics and the access and audit log",
    .options = acct_config_options,
    .config_size = sizeof(acct_config_t),
    .node_config_offset = offsetof(acct_config_t, node),
    .migrations = acct_db_migrations,
    .migration_count = ACCT_DB_MIGRATION_COUNT,
    .init = s_init,
};
