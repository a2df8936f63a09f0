/*  =========================================================================
    sched_invariant - the ledger checked against itself and the agents

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

//  Each query lists the violations of one promise, one text per row.
static const char *const s_checks[] = {
    //  Occupancy kept by the triggers = the rows' sum.
    "WITH sums AS (SELECT agent_id, slot, sum(amount) AS amount FROM allocations"
    "  GROUP BY agent_id, slot)"
    " SELECT printf('agent %s slot %s: allocation rows sum to %d, occupancy says %d',"
    "  coalesce(s.agent_id, o.agent_id), coalesce(s.slot, o.slot),"
    "  coalesce(s.amount, 0), coalesce(o.amount, 0))"
    " FROM sums s FULL JOIN agent_occupancy o"
    "  ON o.agent_id = s.agent_id AND o.slot = s.slot"
    " WHERE coalesce(s.amount, 0) <> coalesce(o.amount, 0)",
    //  Never more than the capacity.
    "SELECT printf('agent %s slot %s: %d allocated, capacity %d', o.agent_id, o.slot,"
    "  o.amount, coalesce(c.amount, 0))"
    " FROM agent_occupancy o LEFT JOIN agent_capacity c"
    "  ON c.agent_id = o.agent_id AND c.slot = o.slot"
    " WHERE o.amount > coalesce(c.amount, 0)",
    //  Usage per scope = the rows of its sessions' kernels.
    "WITH rows AS (SELECT s.access_key, s.user_uuid, s.group_id, s.domain_name,"
    "  a.slot, a.amount FROM allocations a JOIN kernels k ON k.id = a.kernel_id"
    "  JOIN sessions s ON s.id = k.session_id),"
    " sums AS (SELECT 'keypair' AS kind, access_key AS key, slot, sum(amount) AS amount"
    "  FROM rows GROUP BY 2, 3 UNION ALL SELECT 'user', user_uuid, slot, sum(amount)"
    "  FROM rows GROUP BY 2, 3 UNION ALL SELECT 'project', group_id, slot, sum(amount)"
    "  FROM rows GROUP BY 2, 3 UNION ALL SELECT 'domain', domain_name, slot,"
    "  sum(amount) FROM rows GROUP BY 2, 3"
    "  UNION ALL SELECT 'pending', s.access_key, r.slot, sum(r.amount)"
    "  FROM kernel_requests r JOIN kernels k ON k.id = r.kernel_id"
    "  JOIN sessions s ON s.id = k.session_id WHERE s.status = 'PENDING'"
    "  GROUP BY 2, 3)"
    " SELECT printf('%s %s slot %s: rows sum to %d, usage says %d',"
    "  coalesce(s.kind, u.kind), coalesce(s.key, u.key), coalesce(s.slot, u.slot),"
    "  coalesce(s.amount, 0), coalesce(u.amount, 0))"
    " FROM sums s FULL JOIN scope_usage u"
    "  ON u.kind = s.kind AND u.key = s.key AND u.slot = s.slot"
    " WHERE coalesce(s.amount, 0) <> coalesce(u.amount, 0)",
    //  Counts per keypair = the sessions' statuses.
    "WITH counts AS (SELECT access_key,"
    "  sum(status NOT IN ('PENDING', 'TERMINATED', 'CANCELLED', 'ERROR')) AS concurrent,"
    "  sum(status = 'PENDING') AS pending FROM sessions GROUP BY access_key)"
    " SELECT printf('keypair %s: %d sessions hold slots and %d are pending,"
    "  the counts say %d and %d', coalesce(c.access_key, k.access_key),"
    "  coalesce(c.concurrent, 0), coalesce(c.pending, 0), coalesce(k.concurrent, 0),"
    "  coalesce(k.pending, 0))"
    " FROM counts c FULL JOIN keypair_counts k ON k.access_key = c.access_key"
    " WHERE coalesce(c.concurrent, 0) <> coalesce(k.concurrent, 0)"
    "  OR coalesce(c.pending, 0) <> coalesce(k.pending, 0)",
    //  Rows only for kernels that hold slots.
    "SELECT printf('kernel %s (%s) still has allocation rows', k.id, k.status)"
    " FROM kernels k WHERE k.status IN ('PENDING', 'TERMINATED', 'CANCELLED')"
    " AND EXISTS (SELECT 1 FROM allocations a WHERE a.kernel_id = k.id)",
    //  What agents at rest say their kernels hold = the ledger.
    "SELECT printf('agent %s slot %s: the agent reports %d in use, the ledger %d',"
    "  r.agent_id, r.slot, r.amount, coalesce(o.amount, 0))"
    " FROM agent_reported r LEFT JOIN agent_occupancy o"
    "  ON o.agent_id = r.agent_id AND o.slot = r.slot"
    " WHERE r.amount <> coalesce(o.amount, 0) AND NOT EXISTS (SELECT 1 FROM kernels k"
    "  WHERE k.agent_id = r.agent_id AND k.status IN ('SCHEDULED', 'PREPARING',"
    "  'BUILDING', 'PULLING', 'RESTARTING', 'TERMINATING'))"
    " AND (SELECT status FROM agents WHERE id = r.agent_id) = 'ALIVE'",
};

int
sched_invariant_check(bus_db_t *db, json_t **report)
{
    json_t *lines = json_array();
    int violations = 0;
    for (size_t i = 0; i < sizeof s_checks / sizeof s_checks[0]; i++) {
        sqlite3_stmt *stmt = bus_db_stmt(db, s_checks[i]);
        if (!stmt) {
            json_decref(lines);
            return -1;
        }
        int rc;
        while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
            violations++;
            json_array_append_new(
                lines, json_string((const char *) sqlite3_column_text(stmt, 0)));
        }
        sqlite3_reset(stmt);
        if (rc != SQLITE_DONE) {
            json_decref(lines);
            return -1;
        }
    }
    if (report)
        *report = lines;
    else
        json_decref(lines);
    return violations;
}

static int
s_serve(void *arg,
        bus_rpc_request_t *req,
        const void *body,
        size_t size,
        bus_writer_t *reply,
        bus_error_t *err)
{
    (void) req;
    proto_scheduler_invariant_req_t in;
    int rc = proto_scheduler_invariant_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    proto_scheduler_invariant_req_clear(&in);
    json_t *report = NULL;
    int violations = sched_invariant_check(bus_node_db(arg), &report);
    if (violations < 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the ledger");
    proto_scheduler_invariant_rep_t out;
    proto_scheduler_invariant_rep_init(&out);
    out.violations = (uint64_t) violations;
    out.report = json_dumps(report, JSON_COMPACT);
    json_decref(report);
    rc = out.report && proto_scheduler_invariant_rep_write(&out, reply) == 0
             ? BUS_OK
             : bus_error_set(err, BUS_STATUS_INTERNAL, "cannot write the report");
    proto_scheduler_invariant_rep_clear(&out);
    return rc;
}

int
sched_invariant_serve(bus_node_t *node)
{
    return bus_node_handle(node, PROTO_SCHEDULER_INVARIANT, s_serve, node);
}

int
sched_invariant_command(const void *config, int argc, char **argv)
{
    const sched_config_t *sched = config;
    if (argc < 1 || strcmp(argv[0], "check-ledger") != 0 || argc > 1) {
        fprintf(stderr, "usage: backplane-scheduler [--config F] check-ledger\n");
        return 2;
    }
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/scheduler.db", sched->node.state_dir);
    bus_error_t err = {0};
    bus_db_t *db = bus_db_open(path, sched_db_migrations, SCHED_DB_MIGRATION_COUNT, &err);
    if (!db) {
        fprintf(stderr, "backplane-scheduler: %s: %s\n", path, err.detail);
        return 2;
    }
    json_t *report = NULL;
    int violations = sched_invariant_check(db, &report);
    bus_db_destroy(&db);
    if (violations < 0) {
        fprintf(stderr, "backplane-scheduler: %s: cannot read the ledger\n", path);
        return 2;
    }
    size_t index;
    json_t *line;
    json_array_foreach(report, index, line) printf("%s\n", json_string_value(line));
    printf("%d violation%s\n", violations, violations == 1 ? "" : "s");
    json_decref(report);
    return violations ? 1 : 0;
}
