/*  =========================================================================
    sched_usage - scheduler.usage: what a keypair, its project and its
    domain hold now

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

#define SUM_BY(column)                                                                   \
    "SELECT a.slot, sum(a.amount) FROM allocations a"                                    \
    " JOIN kernels k ON k.id = a.kernel_id JOIN sessions s ON s.id = k.session_id"       \
    " WHERE s." column " = ?1 GROUP BY a.slot ORDER BY a.slot"

//  The sums for one owner column, into map; an empty value asks nothing.
static int
s_sum(bus_db_t *db, const char *sql, const char *value, proto_kv_t **map, size_t *count)
{
    if (!value || !*value)
        return BUS_OK;
    sqlite3_stmt *stmt = bus_db_stmt(db, sql);
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    sqlite3_bind_text(stmt, 1, value, -1, SQLITE_TRANSIENT);
    sched_db_slot_map(stmt, map, count);
    return BUS_OK;
}

//  The keypair's sums per resource group.
static int
s_by_scaling_group(bus_db_t *db, const char *access_key, proto_scheduler_usage_rep_t *out)
{
    sqlite3_stmt *groups = bus_db_stmt(
        db, "SELECT DISTINCT s.scaling_group FROM allocations a"
            " JOIN kernels k ON k.id = a.kernel_id JOIN sessions s ON s.id = k.session_id"
            " WHERE s.access_key = ?1 ORDER BY s.scaling_group");
    if (!groups)
        return BUS_STATUS_INTERNAL;
    sqlite3_bind_text(groups, 1, access_key, -1, SQLITE_TRANSIENT);
    size_t capacity = 0;
    int rc = BUS_OK;
    while (rc == BUS_OK && sqlite3_step(groups) == SQLITE_ROW) {
        if (out->keypair_by_scaling_group_count == capacity) {
            capacity = capacity ? capacity * 2 : 4;
            proto_scheduler_usage_t *grown =
                realloc(out->keypair_by_scaling_group, capacity * sizeof *grown);
            if (!grown) {
                rc = BUS_STATUS_INTERNAL;
                break;
            }
            out->keypair_by_scaling_group = grown;
        }
        proto_scheduler_usage_t *usage =
            &out->keypair_by_scaling_group[out->keypair_by_scaling_group_count++];
        proto_scheduler_usage_init(usage);
        usage->scaling_group = strdup((const char *) sqlite3_column_text(groups, 0));
        sqlite3_stmt *sums =
            bus_db_stmt(db, "SELECT a.slot, sum(a.amount) FROM allocations a"
                            " JOIN kernels k ON k.id = a.kernel_id"
                            " JOIN sessions s ON s.id = k.session_id"
                            " WHERE s.access_key = ?1 AND s.scaling_group = ?2"
                            " GROUP BY a.slot ORDER BY a.slot");
        if (!usage->scaling_group || !sums) {
            rc = BUS_STATUS_INTERNAL;
            break;
        }
        sqlite3_bind_text(sums, 1, access_key, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(sums, 2, usage->scaling_group, -1, SQLITE_TRANSIENT);
        sched_db_slot_map(sums, &usage->slots, &usage->slots_count);
    }
    sqlite3_reset(groups);
    return rc;
}

static int
s_usage(void *arg,
        bus_rpc_request_t *req,
        const void *body,
        size_t size,
        bus_writer_t *reply,
        bus_error_t *err)
{
    (void) req;
    bus_db_t *db = bus_node_db(arg);
    proto_scheduler_usage_req_t in;
    int rc = proto_scheduler_usage_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    proto_scheduler_usage_rep_t out;
    proto_scheduler_usage_rep_init(&out);
    rc = s_sum(db, SUM_BY("access_key"), in.access_key, &out.keypair, &out.keypair_count);
    if (rc == BUS_OK)
        rc = s_sum(db, SUM_BY("group_id"), in.group_id, &out.group, &out.group_count);
    if (rc == BUS_OK)
        rc = s_sum(db, SUM_BY("domain_name"), in.domain_name, &out.domain,
                   &out.domain_count);
    if (rc == BUS_OK)
        rc = s_by_scaling_group(db, in.access_key, &out);
    if (rc == BUS_OK && proto_scheduler_usage_rep_write(&out, reply) != 0)
        rc = BUS_STATUS_INTERNAL;
    if (rc != BUS_OK)
        bus_error_set(err, rc, "cannot sum the allocation ledger");
    proto_scheduler_usage_rep_clear(&out);
    proto_scheduler_usage_req_clear(&in);
    return rc;
}

int
sched_usage_serve(bus_node_t *node)
{
    return bus_node_handle(node, PROTO_SCHEDULER_USAGE, s_usage, node);
}
