/*  =========================================================================
    sched_agents - heartbeats into the registry; LOST detection; listing

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

struct _sched_agents_t {
    bus_node_t *node;
    int lost_ms;
    struct event *timer;
    zhashx_t *slots; //  agent id -> its last heartbeat written, as s_slots_text
    zhashx_t *seen;  //  agent id -> when it was last heard, not yet written (µs)
};

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

//  Everything a heartbeat says but when it was sent, as one text, to see
//  whether it changed (a restart changes started_at).
static char *
s_slots_text(const proto_agent_heartbeat_t *beat)
{
    zchunk_t *text = zchunk_new(NULL, 256);
    const char *fields[] = {beat->region,       beat->scaling_group,
                            beat->rpc_endpoint, beat->architecture,
                            beat->version,      beat->schedulable ? "1" : "0"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        zchunk_extend(text, fields[i] ? fields[i] : "",
                      strlen(fields[i] ? fields[i] : ""));
        zchunk_extend(text, "|", 1);
    }
    char started[24];
    snprintf(started, sizeof started, "%" PRId64 "|", beat->started_at);
    zchunk_extend(text, started, strlen(started));
    const proto_kv_t *maps[] = {beat->available_slots, beat->occupied_slots};
    size_t counts[] = {beat->available_slots_count, beat->occupied_slots_count};
    for (int m = 0; m < 2; m++) {
        for (size_t i = 0; i < counts[m]; i++) {
            const char *value = maps[m][i].value ? maps[m][i].value : "";
            zchunk_extend(text, maps[m][i].key, strlen(maps[m][i].key));
            zchunk_extend(text, "=", 1);
            zchunk_extend(text, value, strlen(value));
            zchunk_extend(text, ";", 1);
        }
        zchunk_extend(text, "|", 1);
    }
    char *out = zchunk_strdup(text);
    zchunk_destroy(&text);
    return out;
}

//  Writes one heartbeat: an agent that says the same as last time (a
//  cluster of a thousand agents beats a thousand times a second; what they
//  say rarely changes) is only noted as heard, written with the others at
//  the next check (sched_agents_expire); otherwise the agents row, and its
//  slot maps into agent_capacity and agent_reported when they changed, in
//  one transaction.
static void
s_record(sched_agents_t *self, const proto_agent_heartbeat_t *beat)
{
    bus_db_t *db = bus_node_db(self->node);
    int64_t now = bus_clock_wall_us();
    char *slots = s_slots_text(beat);
    const char *last = zhashx_lookup(self->slots, beat->agent_id);
    bool changed = !last || !slots || strcmp(last, slots) != 0;
    if (!changed) {
        zhashx_update(self->seen, beat->agent_id, (void *) (intptr_t) now);
        zstr_free(&slots);
        return;
    }
    zhashx_delete(self->seen, beat->agent_id);
    bus_node_begin(self->node);
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "INSERT INTO agents (id, status, region, scaling_group, addr, architecture,"
            " version, schedulable, first_contact, last_seen, started_at)"
            " VALUES (?1, 'ALIVE', ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9)"
            " ON CONFLICT (id) DO UPDATE SET status = 'ALIVE', region = ?2,"
            " scaling_group = ?3, addr = ?4, architecture = ?5, version = ?6,"
            " schedulable = ?7 AND NOT operator_excluded, last_seen = ?8, lost_at = NULL,"
            " started_at = ?9");
    bool ok = stmt != NULL;
    if (ok) {
        sqlite3_bind_text(stmt, 1, beat->agent_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 2, beat->region ? beat->region : "", -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 3, beat->scaling_group ? beat->scaling_group : "default",
                          -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 4, beat->rpc_endpoint ? beat->rpc_endpoint : "", -1,
                          SQLITE_STATIC);
        sqlite3_bind_text(stmt, 5, beat->architecture ? beat->architecture : "x86_64", -1,
                          SQLITE_STATIC);
        sqlite3_bind_text(stmt, 6, beat->version ? beat->version : "", -1, SQLITE_STATIC);
        sqlite3_bind_int(stmt, 7, beat->schedulable);
        sqlite3_bind_int64(stmt, 8, now);
        sqlite3_bind_int64(stmt, 9, beat->started_at);
        ok = sqlite3_step(stmt) == SQLITE_DONE;
        sqlite3_reset(stmt);
    }
    if (ok)
        ok = s_write_slots(db, "agent_capacity", beat->agent_id, beat->available_slots,
                           beat->available_slots_count) &&
             s_write_slots(db, "agent_reported", beat->agent_id, beat->occupied_slots,
                           beat->occupied_slots_count);
    if (ok && bus_node_commit(self->node) == 0) {
        if (slots)
            zhashx_update(self->slots, beat->agent_id, slots);
    } else {
        bus_log_error("agent heartbeat not recorded agent=%s", beat->agent_id);
        if (ok)
            zhashx_delete(self->slots, beat->agent_id);
        else
            bus_node_rollback(self->node);
    }
    zstr_free(&slots);
}

static void
s_on_heartbeat(void *arg, const bus_event_t *event)
{
    sched_agents_t *self = arg;
    proto_agent_heartbeat_t beat;
    bus_error_t err = {0};
    if (proto_agent_heartbeat_decode(&beat, event->body, event->body_size, &err) !=
        BUS_OK) {
        bus_log_warning("agent heartbeat malformed src=%s reason=\"%s\"",
                        event->header.src, err.detail);
        return;
    }
    s_record(self, &beat);
    proto_agent_heartbeat_clear(&beat);
}

int
sched_agents_expire(sched_agents_t *self)
{
    bus_db_t *db = bus_node_db(self->node);
    int64_t now = bus_clock_wall_us();
    int64_t before = now - (int64_t) self->lost_ms * 1000;
    //  The heartbeats heard since the last check, in one transaction.
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "UPDATE agents SET last_seen = ?2 WHERE id = ?1");
    if (zhashx_size(self->seen) && stmt && bus_node_begin(self->node) == 0) {
        for (void *at = zhashx_first(self->seen); at; at = zhashx_next(self->seen)) {
            sqlite3_bind_text(stmt, 1, zhashx_cursor(self->seen), -1, SQLITE_STATIC);
            sqlite3_bind_int64(stmt, 2, (int64_t) (intptr_t) at);
            sqlite3_step(stmt);
            sqlite3_reset(stmt);
        }
        if (bus_node_commit(self->node) == 0)
            zhashx_purge(self->seen);
    }
    stmt = bus_db_stmt(db,
                       "SELECT id FROM agents WHERE status = 'ALIVE' AND last_seen < ?1");
    if (!stmt)
        return 0;
    sqlite3_bind_int64(stmt, 1, before);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        const char *id = (const char *) sqlite3_column_text(stmt, 0);
        bus_log_warning("agent lost agent=%s silent_ms>%d", id, self->lost_ms);
        //  Its next heartbeat is written in full: it makes the agent ALIVE.
        zhashx_delete(self->slots, id);
    }
    sqlite3_reset(stmt);
    stmt = bus_db_stmt(db, "UPDATE agents SET status = 'LOST', lost_at = ?2"
                           " WHERE status = 'ALIVE' AND last_seen < ?1");
    if (!stmt)
        return 0;
    sqlite3_bind_int64(stmt, 1, before);
    sqlite3_bind_int64(stmt, 2, now);
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? sqlite3_changes(bus_db_handle(db)) : 0;
}

static void
s_on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    sched_agents_expire(arg);
}

static int
s_list(void *arg,
       bus_rpc_request_t *req,
       const void *body,
       size_t size,
       bus_writer_t *reply,
       bus_error_t *err)
{
    (void) req;
    sched_agents_t *self = arg;
    proto_scheduler_agents_req_t in;
    int rc = proto_scheduler_agents_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    bus_db_t *db = bus_node_db(self->node);
    sqlite3_stmt *agents = bus_db_stmt(
        db, "SELECT id, status, region, scaling_group, addr, architecture, version,"
            " schedulable, first_contact, last_seen, coalesce(lost_at, 0) FROM agents"
            " WHERE scaling_group LIKE ?1 AND (?2 = '' OR instr(',' || ?2 || ',',"
            " ',' || status || ',') > 0) ORDER BY id");
    if (!agents) {
        proto_scheduler_agents_req_clear(&in);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    }
    sqlite3_bind_text(agents, 1,
                      in.scaling_group && *in.scaling_group ? in.scaling_group : "%", -1,
                      SQLITE_TRANSIENT);
    sqlite3_bind_text(agents, 2, in.status ? in.status : "", -1, SQLITE_TRANSIENT);
    proto_scheduler_agents_rep_t out;
    proto_scheduler_agents_rep_init(&out);
    size_t capacity = 0;
    while (sqlite3_step(agents) == SQLITE_ROW) {
        if (out.agents_count == capacity) {
            capacity = capacity ? capacity * 2 : 8;
            proto_scheduler_agent_t *grown =
                realloc(out.agents, capacity * sizeof *grown);
            if (!grown)
                break;
            out.agents = grown;
        }
        proto_scheduler_agent_t *agent = &out.agents[out.agents_count++];
        proto_scheduler_agent_init(agent);
        agent->id = strdup((const char *) sqlite3_column_text(agents, 0));
        agent->status = strdup((const char *) sqlite3_column_text(agents, 1));
        agent->region = strdup((const char *) sqlite3_column_text(agents, 2));
        agent->scaling_group = strdup((const char *) sqlite3_column_text(agents, 3));
        agent->addr = strdup((const char *) sqlite3_column_text(agents, 4));
        agent->architecture = strdup((const char *) sqlite3_column_text(agents, 5));
        agent->version = strdup((const char *) sqlite3_column_text(agents, 6));
        agent->schedulable = sqlite3_column_int(agents, 7) != 0;
        agent->first_contact = sqlite3_column_int64(agents, 8);
        agent->last_seen = sqlite3_column_int64(agents, 9);
        agent->lost_at = sqlite3_column_int64(agents, 10);
    }
    sqlite3_reset(agents);
    //  Capacity and the ledger's sums, per agent (a handful of agents per
    //  call: two primary-key searches each).
    for (size_t i = 0; i < out.agents_count; i++) {
        proto_scheduler_agent_t *agent = &out.agents[i];
        sqlite3_stmt *slots = bus_db_stmt(
            db, "SELECT slot, amount FROM agent_capacity WHERE agent_id = ?1");
        if (slots) {
            sqlite3_bind_text(slots, 1, agent->id, -1, SQLITE_STATIC);
            sched_db_slot_map(slots, &agent->available_slots,
                              &agent->available_slots_count);
        }
        //  agent_occupancy is the sum of the agent's allocation rows, kept
        //  by the ledger's triggers (a slot whose rows are gone stays at 0).
        slots = bus_db_stmt(db, "SELECT slot, amount FROM agent_occupancy"
                                " WHERE agent_id = ?1 AND amount <> 0");
        if (slots) {
            sqlite3_bind_text(slots, 1, agent->id, -1, SQLITE_STATIC);
            sched_db_slot_map(slots, &agent->occupied_slots,
                              &agent->occupied_slots_count);
        }
    }
    rc =
        proto_scheduler_agents_rep_write(&out, reply) == 0 ? BUS_OK : BUS_STATUS_INTERNAL;
    proto_scheduler_agents_rep_clear(&out);
    proto_scheduler_agents_req_clear(&in);
    return rc;
}

//  scheduler.schedulable: every agent named, or none when one is unknown
//  (Backend.AI's update rolls back on a short row count). Excluding sets
//  operator_excluded, which later heartbeats respect; including clears it
//  and forgets the agent's last heartbeat, so the next one rewrites
//  schedulable with what the agent itself says.
static int
s_schedulable(void *arg,
              bus_rpc_request_t *req,
              const void *body,
              size_t size,
              bus_writer_t *reply,
              bus_error_t *err)
{
    (void) req;
    sched_agents_t *self = arg;
    proto_scheduler_schedulable_req_t in;
    int rc = proto_scheduler_schedulable_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    bus_db_t *db = bus_node_db(self->node);
    if (bus_node_begin(self->node) != 0) {
        proto_scheduler_schedulable_req_clear(&in);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    }
    sqlite3_stmt *stmt = bus_db_stmt(db, "UPDATE agents SET operator_excluded = ?1,"
                                         " schedulable = ?2 WHERE id = ?3");
    uint64_t changed = 0;
    const char *missing = NULL;
    rc = stmt ? BUS_OK : BUS_STATUS_INTERNAL;
    for (size_t i = 0; rc == BUS_OK && i < in.agents_count; i++) {
        sqlite3_bind_int(stmt, 1, !in.schedulable);
        sqlite3_bind_int(stmt, 2, in.schedulable);
        sqlite3_bind_text(stmt, 3, in.agents[i].id, -1, SQLITE_STATIC);
        if (sqlite3_step(stmt) != SQLITE_DONE)
            rc = BUS_STATUS_INTERNAL;
        else if (sqlite3_changes(bus_db_handle(db)) == 0) {
            rc = BUS_STATUS_NOT_FOUND;
            missing = in.agents[i].id;
        } else
            changed++;
        sqlite3_reset(stmt);
    }
    if (rc == BUS_OK && bus_node_commit(self->node) != 0)
        rc = BUS_STATUS_INTERNAL;
    else if (rc != BUS_OK)
        bus_node_rollback(self->node);
    if (rc == BUS_OK) {
        for (size_t i = 0; i < in.agents_count; i++)
            zhashx_delete(self->slots, in.agents[i].id);
        bus_log_notice("agents %s count=%" PRIu64,
                       in.schedulable ? "included" : "excluded", changed);
        proto_scheduler_schedulable_rep_t out;
        proto_scheduler_schedulable_rep_init(&out);
        out.changed = changed;
        if (proto_scheduler_schedulable_rep_write(&out, reply) != 0)
            rc = BUS_STATUS_INTERNAL;
        proto_scheduler_schedulable_rep_clear(&out);
    }
    if (rc == BUS_STATUS_NOT_FOUND)
        bus_error_set(err, rc, "No such agent: %.128s", missing);
    else if (rc != BUS_OK)
        bus_error_set(err, rc, "database error");
    proto_scheduler_schedulable_req_clear(&in);
    return rc;
}

sched_agents_t *
sched_agents_new(bus_node_t *node, int lost_ms)
{
    sched_agents_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->node = node;
    self->lost_ms = lost_ms;
    self->timer = event_new(bus_node_base(node), -1, EV_PERSIST, s_on_timer, self);
    self->slots = zhashx_new();
    self->seen = zhashx_new();
    if (self->slots) {
        zhashx_set_destructor(self->slots, (zhashx_destructor_fn *) zstr_free);
        zhashx_set_duplicator(self->slots, (zhashx_duplicator_fn *) strdup);
    }
    struct timeval tv = {SCHED_AGENTS_CHECK_MS / 1000,
                         (SCHED_AGENTS_CHECK_MS % 1000) * 1000};
    if (!self->timer || !self->slots || !self->seen || event_add(self->timer, &tv) != 0 ||
        bus_node_subscribe(node, PROTO_AGENT_HEARTBEAT, s_on_heartbeat, self) != 0 ||
        bus_node_handle(node, PROTO_SCHEDULER_AGENTS, s_list, self) != 0 ||
        bus_node_handle(node, PROTO_SCHEDULER_SCHEDULABLE, s_schedulable, self) != 0) {
        sched_agents_destroy(&self);
        return NULL;
    }
    return self;
}

void
sched_agents_destroy(sched_agents_t **self_p)
{
    assert(self_p);
    if (*self_p) {
        if ((*self_p)->timer)
            event_free((*self_p)->timer);
        zhashx_destroy(&(*self_p)->slots);
        zhashx_destroy(&(*self_p)->seen);
        free(*self_p);
        *self_p = NULL;
    }
}
