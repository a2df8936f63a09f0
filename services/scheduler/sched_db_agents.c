/*  =========================================================================
    sched_db_agents - the agent registry in the scheduler's database

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

//  Rewrites table's rows of agent_id (agent_capacity or agent_reported)
//  from a slot map. Slots that cannot be scheduled are left out, and said
//  so. False on a database error.
static bool
s_write_slots(bus_db_t *db,
              const char *table,
              const char *agent_id,
              const proto_kv_t *slots,
              size_t count)
{
    char sql[128];
    snprintf(sql, sizeof sql, "DELETE FROM %s WHERE agent_id = ?1", table);
    sqlite3_stmt *stmt = bus_db_stmt(db, sql);
    if (!stmt)
        return false;
    sqlite3_bind_text(stmt, 1, agent_id, -1, SQLITE_STATIC);
    bool ok = sqlite3_step(stmt) == SQLITE_DONE;
    sqlite3_reset(stmt);
    snprintf(sql, sizeof sql,
             "INSERT INTO %s (agent_id, slot, amount) VALUES (?1, ?2, ?3)", table);
    stmt = ok ? bus_db_stmt(db, sql) : NULL;
    for (size_t i = 0; ok && stmt && i < count; i++) {
        const proto_kv_t *kv = &slots[i];
        bus_slots_unit_t unit = bus_slots_unit(kv->key);
        bus_slots_value_t value;
        bus_error_t err = {0};
        json_t *text = json_string(kv->value ? kv->value : "");
        int rc = unit == BUS_SLOTS_UNKNOWN
                     ? BUS_STATUS_INVALID
                     : bus_slots_parse_value(unit, kv->key, text, &value, &err);
        json_decref(text);
        if (rc != BUS_OK || value.infinite) {
            //  A slot we do not know cannot be scheduled: leave it out, say so.
            bus_log_warning("agent slot ignored agent=%s slot=%s reason=\"%s\"", agent_id,
                            kv->key,
                            unit == BUS_SLOTS_UNKNOWN ? "unknown slot type" : err.detail);
            continue;
        }
        sqlite3_bind_text(stmt, 1, agent_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 2, kv->key, -1, SQLITE_STATIC);
        sqlite3_bind_int64(stmt, 3, value.amount);
        ok = sqlite3_step(stmt) == SQLITE_DONE;
        sqlite3_reset(stmt);
    }
    return ok && stmt;
}

int
sched_db_agents_beat(bus_db_t *db, const proto_agent_heartbeat_t *beat, int64_t now_us)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "INSERT INTO agents (id, status, region, scaling_group, addr, architecture,"
            " version, schedulable, first_contact, last_seen, started_at)"
            " VALUES (?1, 'ALIVE', ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9)"
            " ON CONFLICT (id) DO UPDATE SET status = 'ALIVE', region = ?2,"
            " scaling_group = ?3, addr = ?4, architecture = ?5, version = ?6,"
            " schedulable = ?7 AND NOT operator_excluded, last_seen = ?8, lost_at = NULL,"
            " started_at = ?9");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, beat->agent_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, beat->region ? beat->region : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 3, beat->scaling_group ? beat->scaling_group : "default", -1,
                      SQLITE_STATIC);
    sqlite3_bind_text(stmt, 4, beat->rpc_endpoint ? beat->rpc_endpoint : "", -1,
                      SQLITE_STATIC);
    sqlite3_bind_text(stmt, 5, beat->architecture ? beat->architecture : "x86_64", -1,
                      SQLITE_STATIC);
    sqlite3_bind_text(stmt, 6, beat->version ? beat->version : "", -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 7, beat->schedulable);
    sqlite3_bind_int64(stmt, 8, now_us);
    sqlite3_bind_int64(stmt, 9, beat->started_at);
    bool ok = sqlite3_step(stmt) == SQLITE_DONE;
    sqlite3_reset(stmt);
    ok = ok &&
         s_write_slots(db, "agent_capacity", beat->agent_id, beat->available_slots,
                       beat->available_slots_count) &&
         s_write_slots(db, "agent_reported", beat->agent_id, beat->occupied_slots,
                       beat->occupied_slots_count) &&
         s_write_slots(db, "agent_placeable", beat->agent_id, beat->placeable_slots,
                       beat->placeable_slots_count);
    return ok ? 0 : -1;
}

int
sched_db_agents_refused(bus_db_t *db,
                        const char *agent_id,
                        const char *kernel_id,
                        const char *slot)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "INSERT INTO agent_placeable (agent_id, slot, amount)"
            " SELECT ?1, slot, amount - 1 FROM kernel_requests"
            " WHERE kernel_id = ?2 AND amount > 0 AND slot <> 'cpu' AND slot <> 'mem'"
            " AND (?3 IS NULL OR slot = ?3)"
            " ON CONFLICT DO UPDATE SET amount = min(amount, excluded.amount)");
    if (!stmt)
        return -1;
    sched_db_bind_text(stmt, 1, agent_id);
    sched_db_bind_text(stmt, 2, kernel_id);
    sched_db_bind_text(stmt, 3, slot && *slot ? slot : NULL);
    return sched_db_step(stmt) == BUS_OK ? 0 : -1;
}

void
sched_db_agents_seen(bus_db_t *db, const char *agent_id, int64_t seen_us)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "UPDATE agents SET last_seen = ?2 WHERE id = ?1");
    if (!stmt)
        return;
    sqlite3_bind_text(stmt, 1, agent_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, seen_us);
    sqlite3_step(stmt);
    sqlite3_reset(stmt);
}

int
sched_db_agents_expire(
    bus_db_t *db, int64_t before_us, int64_t now_us, sched_db_id_fn *fn, void *arg)
{
    sqlite3_stmt *stmt =
        fn ? bus_db_stmt(
                 db, "SELECT id FROM agents WHERE status = 'ALIVE' AND last_seen < ?1")
           : NULL;
    if (fn && !stmt)
        return 0;
    if (stmt) {
        sqlite3_bind_int64(stmt, 1, before_us);
        while (sqlite3_step(stmt) == SQLITE_ROW)
            fn(arg, (const char *) sqlite3_column_text(stmt, 0));
        sqlite3_reset(stmt);
    }
    stmt = bus_db_stmt(db, "UPDATE agents SET status = 'LOST', lost_at = ?2"
                           " WHERE status = 'ALIVE' AND last_seen < ?1");
    if (!stmt)
        return 0;
    sqlite3_bind_int64(stmt, 1, before_us);
    sqlite3_bind_int64(stmt, 2, now_us);
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? sqlite3_changes(bus_db_handle(db)) : 0;
}

int
sched_db_agents_terminated(bus_db_t *db, const char *agent_id, int64_t now_us)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "UPDATE agents SET status = 'TERMINATED',"
                        " lost_at = ?2 WHERE id = ?1 AND status = 'ALIVE'");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, agent_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, now_us);
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? sqlite3_changes(bus_db_handle(db)) : -1;
}

int
sched_db_agents_list(bus_db_t *db,
                     const char *scaling_group,
                     const char *statuses,
                     proto_scheduler_agents_rep_t *out)
{
    sqlite3_stmt *agents = bus_db_stmt(
        db, "SELECT id, status, region, scaling_group, addr, architecture, version,"
            " schedulable, first_contact, last_seen, coalesce(lost_at, 0) FROM agents"
            " WHERE scaling_group LIKE ?1 AND (?2 = '' OR instr(',' || ?2 || ',',"
            " ',' || status || ',') > 0) ORDER BY id");
    if (!agents)
        return BUS_STATUS_INTERNAL;
    sqlite3_bind_text(agents, 1, scaling_group && *scaling_group ? scaling_group : "%",
                      -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(agents, 2, statuses ? statuses : "", -1, SQLITE_TRANSIENT);
    //  The list grows on the heap and goes into out's arena at the end, with
    //  every string.
    void **owned = &out->owned_;
    proto_scheduler_agent_t *list = NULL;
    size_t count = 0, capacity = 0;
    while (sqlite3_step(agents) == SQLITE_ROW) {
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 8;
            proto_scheduler_agent_t *grown = realloc(list, capacity * sizeof *grown);
            if (!grown)
                break;
            list = grown;
        }
        proto_scheduler_agent_t *agent = &list[count++];
        proto_scheduler_agent_init(agent);
        agent->id = sched_db_column_text(agents, 0, owned);
        agent->status = sched_db_column_text(agents, 1, owned);
        agent->region = sched_db_column_text(agents, 2, owned);
        agent->scaling_group = sched_db_column_text(agents, 3, owned);
        agent->addr = sched_db_column_text(agents, 4, owned);
        agent->architecture = sched_db_column_text(agents, 5, owned);
        agent->version = sched_db_column_text(agents, 6, owned);
        agent->schedulable = sqlite3_column_int(agents, 7) != 0;
        agent->first_contact = sqlite3_column_int64(agents, 8);
        agent->last_seen = sqlite3_column_int64(agents, 9);
        agent->lost_at = sqlite3_column_int64(agents, 10);
    }
    sqlite3_reset(agents);
    //  Capacity and the ledger's sums, per agent (a handful of agents per
    //  call: two primary-key searches each).
    for (size_t i = 0; i < count; i++) {
        proto_scheduler_agent_t *agent = &list[i];
        sqlite3_stmt *slots = bus_db_stmt(
            db, "SELECT slot, amount FROM agent_capacity WHERE agent_id = ?1");
        if (slots) {
            sqlite3_bind_text(slots, 1, agent->id, -1, SQLITE_STATIC);
            sched_db_slot_map(slots, owned, &agent->available_slots,
                              &agent->available_slots_count);
        }
        //  agent_occupancy is the sum of the agent's allocation rows, kept
        //  by the ledger's triggers (a slot whose rows are gone stays at 0).
        slots = bus_db_stmt(db, "SELECT slot, amount FROM agent_occupancy"
                                " WHERE agent_id = ?1 AND amount <> 0");
        if (slots) {
            sqlite3_bind_text(slots, 1, agent->id, -1, SQLITE_STATIC);
            sched_db_slot_map(slots, owned, &agent->occupied_slots,
                              &agent->occupied_slots_count);
        }
    }
    out->agents = count ? proto_arena_memdup(owned, list, count * sizeof *list) : NULL;
    out->agents_count = out->agents ? count : 0;
    free(list);
    return BUS_OK;
}

int
sched_db_agents_set_schedulable(bus_db_t *db, const char *agent_id, bool schedulable)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, "UPDATE agents SET operator_excluded = ?1,"
                                         " schedulable = ?2 WHERE id = ?3");
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    sqlite3_bind_int(stmt, 1, !schedulable);
    sqlite3_bind_int(stmt, 2, schedulable);
    sqlite3_bind_text(stmt, 3, agent_id, -1, SQLITE_STATIC);
    int rc = BUS_OK;
    if (sqlite3_step(stmt) != SQLITE_DONE)
        rc = BUS_STATUS_INTERNAL;
    else if (sqlite3_changes(bus_db_handle(db)) == 0)
        rc = BUS_STATUS_NOT_FOUND;
    sqlite3_reset(stmt);
    return rc;
}

bool
sched_db_agents_address(bus_db_t *db,
                        const char *kernel_id,
                        const char *agent_id,
                        char addr[256],
                        int64_t *started_at)
{
    bool by_kernel = kernel_id && *kernel_id;
    sqlite3_stmt *stmt =
        bus_db_stmt(db, by_kernel ? "SELECT a.addr, a.started_at FROM kernels k"
                                    " JOIN agents a ON a.id = k.agent_id WHERE k.id = ?1"
                                  : "SELECT addr, started_at FROM agents WHERE id = ?1");
    bool found = false;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, by_kernel ? kernel_id : agent_id, -1,
                          SQLITE_TRANSIENT);
        if (sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_text(stmt, 0)) {
            found = true;
            snprintf(addr, 256, "%s", (const char *) sqlite3_column_text(stmt, 0));
            *started_at = sqlite3_column_int64(stmt, 1);
        }
        sqlite3_reset(stmt);
    }
    return found;
}

bool
sched_db_agents_confirmed(bus_db_t *db,
                          const char *kernel_id,
                          const char *addr,
                          int64_t since_us)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT a.addr = ?2 AND a.last_seen >= ?3"
                        " FROM kernels k JOIN agents a ON a.id = k.agent_id"
                        " WHERE k.id = ?1");
    bool confirmed = false;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, kernel_id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 2, addr, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(stmt, 3, since_us);
        confirmed = sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_int(stmt, 0) != 0;
        sqlite3_reset(stmt);
    }
    return confirmed;
}

size_t
sched_db_agents_all(bus_db_t *db, sched_db_agent_t *out, size_t max)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, "SELECT id, addr, status = 'ALIVE',"
                                         " coalesce(lost_at, 0)"
                                         " FROM agents ORDER BY id");
    size_t count = 0;
    while (stmt && count < max && sqlite3_step(stmt) == SQLITE_ROW) {
        sched_db_agent_t *agent = &out[count++];
        sched_db_column_copy(stmt, 0, agent->id, sizeof agent->id);
        sched_db_column_copy(stmt, 1, agent->addr, sizeof agent->addr);
        agent->alive = sqlite3_column_int(stmt, 2) != 0;
        agent->lost_at = sqlite3_column_int64(stmt, 3);
    }
    if (stmt)
        sqlite3_reset(stmt);
    return count;
}

zlistx_t *
sched_db_agents_groups(bus_db_t *db)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT DISTINCT scaling_group, architecture FROM agents"
                        " WHERE status = 'ALIVE' AND schedulable = 1");
    if (!stmt)
        return NULL;
    zlistx_t *groups = zlistx_new();
    if (groups)
        zlistx_set_destructor(groups, (zlistx_destructor_fn *) zstr_free);
    while (groups && sqlite3_step(stmt) == SQLITE_ROW)
        zlistx_add_end(groups, zsys_sprintf("%s\n%s", sqlite3_column_text(stmt, 0),
                                            sqlite3_column_text(stmt, 1)));
    sqlite3_reset(stmt);
    return groups;
}
