/*  =========================================================================
    sched_db_ledger - the allocation ledger: placements' rows, the sums
    read from them, and the checks that they agree

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

int
sched_db_ledger_assign(bus_db_t *db,
                       const char *session_id,
                       const char *kernel_id,
                       const char *agent_id,
                       int64_t now_us,
                       bool preparing)
{
    const char *status = preparing ? "PREPARING" : "SCHEDULED";
    sqlite3_stmt *stmt = bus_db_stmt(
        db,
        "INSERT INTO allocations (kernel_id, agent_id, slot, amount)"
        " SELECT kernel_id, ?2, slot, amount FROM kernel_requests WHERE kernel_id = ?1");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, kernel_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, agent_id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(stmt) == SQLITE_DONE ? 0 : -1;
    sqlite3_reset(stmt);
    stmt = bus_db_stmt(db, "UPDATE kernels SET status = ?4, agent_id = ?2,"
                           " status_changed = ?3 WHERE id = ?1 AND status = 'PENDING'");
    if (rc == 0 && stmt) {
        sqlite3_bind_text(stmt, 1, kernel_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 2, agent_id, -1, SQLITE_STATIC);
        sqlite3_bind_int64(stmt, 3, now_us);
        sqlite3_bind_text(stmt, 4, status, -1, SQLITE_STATIC);
        rc = sqlite3_step(stmt) == SQLITE_DONE ? 0 : -1;
        sqlite3_reset(stmt);
    }
    stmt = bus_db_stmt(db, "UPDATE sessions SET status = ?3, status_changed = ?2,"
                           " status_info = 'scheduled', skipped = 0"
                           " WHERE id = ?1 AND status = 'PENDING'");
    if (rc == 0 && stmt) {
        sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_STATIC);
        sqlite3_bind_int64(stmt, 2, now_us);
        sqlite3_bind_text(stmt, 3, status, -1, SQLITE_STATIC);
        rc = sqlite3_step(stmt) == SQLITE_DONE ? 0 : -1;
        sqlite3_reset(stmt);
    }
    return stmt ? rc : -1;
}

//  ---------------------------------------------------------------------------
//  Usage

#define SUM_BY(column)                                                                   \
    "SELECT a.slot, sum(a.amount) FROM allocations a"                                    \
    " JOIN kernels k ON k.id = a.kernel_id JOIN sessions s ON s.id = k.session_id"       \
    " WHERE s." column " = ?1 GROUP BY a.slot ORDER BY a.slot"

//  The sums for one owner column, into map in the arena *owned; an empty
//  value asks nothing.
static int
s_sum(bus_db_t *db,
      const char *sql,
      const char *value,
      void **owned,
      const proto_kv_t **map,
      size_t *count)
{
    if (!value || !*value)
        return BUS_OK;
    sqlite3_stmt *stmt = bus_db_stmt(db, sql);
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    sqlite3_bind_text(stmt, 1, value, -1, SQLITE_TRANSIENT);
    sched_db_slot_map(stmt, owned, map, count);
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
    size_t capacity = 0, count = 0;
    proto_scheduler_usage_t *list = NULL; //  copied into out's arena at the end
    int rc = BUS_OK;
    while (rc == BUS_OK && sqlite3_step(groups) == SQLITE_ROW) {
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 4;
            proto_scheduler_usage_t *grown = realloc(list, capacity * sizeof *grown);
            if (!grown) {
                rc = BUS_STATUS_INTERNAL;
                break;
            }
            list = grown;
        }
        proto_scheduler_usage_t *usage = &list[count++];
        proto_scheduler_usage_init(usage);
        usage->scaling_group = sched_db_column_text(groups, 0, &out->owned_);
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
        sched_db_slot_map(sums, &out->owned_, &usage->slots, &usage->slots_count);
    }
    sqlite3_reset(groups);
    if (rc == BUS_OK && count) {
        out->keypair_by_scaling_group =
            proto_arena_memdup(&out->owned_, list, count * sizeof *list);
        if (!out->keypair_by_scaling_group)
            rc = BUS_STATUS_INTERNAL;
        else
            out->keypair_by_scaling_group_count = count;
    }
    free(list);
    return rc;
}

int
sched_db_ledger_usage(bus_db_t *db,
                      const char *access_key,
                      const char *group_id,
                      const char *domain_name,
                      proto_scheduler_usage_rep_t *out)
{
    int rc = s_sum(db, SUM_BY("access_key"), access_key, &out->owned_, &out->keypair,
                   &out->keypair_count);
    if (rc == BUS_OK)
        rc = s_sum(db, SUM_BY("group_id"), group_id, &out->owned_, &out->group,
                   &out->group_count);
    if (rc == BUS_OK)
        rc = s_sum(db, SUM_BY("domain_name"), domain_name, &out->owned_, &out->domain,
                   &out->domain_count);
    if (rc == BUS_OK)
        rc = s_by_scaling_group(db, access_key, out);
    return rc;
}

int
sched_db_ledger_concurrency(bus_db_t *db,
                            const char *const *access_keys,
                            size_t count,
                            uint64_t *used)
{
    for (size_t i = 0; i < count; i++)
        used[i] = 0;
    if (count == 0)
        return BUS_OK;
    //  The keys go in as one JSON array; j.key is each one's index in it.
    json_t *keys = json_array();
    for (size_t i = 0; keys && i < count; i++)
        if (json_array_append_new(
                keys, json_string(access_keys[i] ? access_keys[i] : "")) != 0) {
            json_decref(keys);
            keys = NULL;
        }
    char *text = keys ? json_dumps(keys, JSON_COMPACT) : NULL;
    json_decref(keys);
    sqlite3_stmt *stmt =
        text ? bus_db_stmt(db, "SELECT j.key, c.concurrent FROM json_each(?1) j"
                               " JOIN keypair_counts c ON c.access_key = j.value")
             : NULL;
    if (!stmt) {
        free(text);
        return BUS_STATUS_INTERNAL;
    }
    sqlite3_bind_text(stmt, 1, text, -1, SQLITE_STATIC);
    int step;
    while ((step = sqlite3_step(stmt)) == SQLITE_ROW) {
        sqlite3_int64 index = sqlite3_column_int64(stmt, 0);
        sqlite3_int64 concurrent = sqlite3_column_int64(stmt, 1);
        if (index >= 0 && (size_t) index < count)
            used[index] = concurrent > 0 ? (uint64_t) concurrent : 0;
    }
    sqlite3_reset(stmt);
    free(text);
    return step == SQLITE_DONE ? BUS_OK : BUS_STATUS_INTERNAL;
}

//  ---------------------------------------------------------------------------
//  Admission

void
sched_db_ledger_pending(bus_db_t *db,
                        const char *access_key,
                        const sched_db_snapshot_t *slots,
                        sched_scope_t *scope)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT pending FROM keypair_counts WHERE access_key = ?1");
    if (stmt) {
        sqlite3_bind_text(stmt, 1, access_key, -1, SQLITE_STATIC);
        if (sqlite3_step(stmt) == SQLITE_ROW)
            scope->pending_count = sqlite3_column_int64(stmt, 0);
        sqlite3_reset(stmt);
    }
    stmt = bus_db_stmt(db, "SELECT slot, amount FROM scope_usage"
                           " WHERE kind = 'pending' AND key = ?1");
    if (stmt) {
        sqlite3_bind_text(stmt, 1, access_key, -1, SQLITE_STATIC);
        while (sqlite3_step(stmt) == SQLITE_ROW) {
            int slot = sched_db_snapshot_slot(
                slots, (const char *) sqlite3_column_text(stmt, 0));
            if (slot >= 0)
                scope->pending_slots.v[slot] = sqlite3_column_int64(stmt, 1);
        }
        sqlite3_reset(stmt);
    }
}

//  ---------------------------------------------------------------------------
//  The checks

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
sched_db_ledger_check(bus_db_t *db, json_t **report)
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

//  ---------------------------------------------------------------------------
//  The recount

//  Each aggregate from its rows, as the migration that made it wrote it.
static const char *const s_recount[] = {
    "DELETE FROM agent_occupancy",
    "INSERT INTO agent_occupancy SELECT agent_id, slot, sum(amount) FROM allocations"
    " GROUP BY agent_id, slot",
    "DELETE FROM scope_usage",
    "INSERT INTO scope_usage (kind, key, slot, amount)"
    " SELECT x.kind, CASE x.kind WHEN 'keypair' THEN s.access_key"
    "  WHEN 'user' THEN s.user_uuid WHEN 'project' THEN s.group_id"
    "  ELSE s.domain_name END, a.slot, sum(a.amount)"
    " FROM allocations a JOIN kernels k ON k.id = a.kernel_id"
    " JOIN sessions s ON s.id = k.session_id CROSS JOIN scope_kinds x"
    " GROUP BY 1, 2, 3",
    "INSERT INTO scope_usage (kind, key, slot, amount)"
    " SELECT 'pending', s.access_key, r.slot, sum(r.amount)"
    " FROM kernel_requests r JOIN kernels k ON k.id = r.kernel_id"
    " JOIN sessions s ON s.id = k.session_id WHERE s.status = 'PENDING'"
    " GROUP BY 2, 3",
    "DELETE FROM keypair_counts",
    "INSERT INTO keypair_counts SELECT access_key,"
    " sum(status NOT IN ('PENDING', 'TERMINATED', 'CANCELLED', 'ERROR')),"
    " sum(status = 'PENDING') FROM sessions GROUP BY access_key",
};

int
sched_db_ledger_recount(bus_db_t *db, int *fixed, json_t **report)
{
    assert(db && fixed);
    *fixed = 0;
    if (bus_db_begin(db) != 0)
        return -1;
    int before = sched_db_ledger_check(db, NULL);
    int rc = before < 0 ? -1 : 0;
    for (size_t i = 0; rc == 0 && i < sizeof s_recount / sizeof s_recount[0]; i++) {
        sqlite3_stmt *stmt = bus_db_stmt(db, s_recount[i]);
        rc = stmt && sqlite3_step(stmt) == SQLITE_DONE ? 0 : -1;
        if (stmt)
            sqlite3_reset(stmt);
    }
    if (rc != 0 || bus_db_commit(db) != 0) {
        bus_log_error("cannot recount the ledger's aggregates: %s",
                      sqlite3_errmsg(bus_db_handle(db)));
        bus_db_rollback(db);
        return -1;
    }
    int after = sched_db_ledger_check(db, report);
    if (after < 0)
        return -1;
    *fixed = before > after ? before - after : 0;
    return after;
}
