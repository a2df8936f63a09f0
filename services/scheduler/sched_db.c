/*  =========================================================================
    sched_db - the scheduler's schema, as numbered migrations, and the
    helpers of the db layer

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

const bus_db_migration_t sched_db_migrations[] = {
    {"agents, sessions, kernels and the allocation ledger",
     "CREATE TABLE agents ("
     "  id TEXT PRIMARY KEY,"
     "  status TEXT NOT NULL DEFAULT 'ALIVE' CHECK (status IN ('ALIVE', 'LOST', "
     "'TERMINATED')),"
     "  region TEXT NOT NULL DEFAULT '',"
     "  scaling_group TEXT NOT NULL DEFAULT 'default',"
     "  addr TEXT NOT NULL DEFAULT '',"
     "  architecture TEXT NOT NULL DEFAULT 'x86_64',"
     "  version TEXT NOT NULL DEFAULT '',"
     "  schedulable INTEGER NOT NULL DEFAULT 1,"
     "  compute_plugins TEXT NOT NULL DEFAULT '{}',"
     "  first_contact INTEGER NOT NULL,"
     "  last_seen INTEGER NOT NULL,"
     "  lost_at INTEGER);"
     "CREATE TABLE agent_capacity ("
     "  agent_id TEXT NOT NULL REFERENCES agents (id) ON DELETE CASCADE,"
     "  slot TEXT NOT NULL,"
     "  amount INTEGER NOT NULL,"
     "  PRIMARY KEY (agent_id, slot)) WITHOUT ROWID;"
     "CREATE TABLE sessions ("
     "  id TEXT PRIMARY KEY,"
     "  name TEXT NOT NULL,"
     "  access_key TEXT NOT NULL,"
     "  user_uuid TEXT NOT NULL,"
     "  domain_name TEXT NOT NULL,"
     "  group_id TEXT NOT NULL,"
     "  scaling_group TEXT NOT NULL,"
     "  type TEXT NOT NULL DEFAULT 'INTERACTIVE' CHECK (type IN ('INTERACTIVE', "
     "'BATCH')),"
     "  status TEXT NOT NULL DEFAULT 'PENDING',"
     "  status_info TEXT,"
     "  status_data TEXT NOT NULL DEFAULT '{}',"
     "  status_changed INTEGER NOT NULL,"
     "  image TEXT NOT NULL,"
     "  architecture TEXT NOT NULL DEFAULT 'x86_64',"
     "  cluster_mode TEXT NOT NULL DEFAULT 'single-node',"
     "  cluster_size INTEGER NOT NULL DEFAULT 1,"
     "  environ TEXT NOT NULL DEFAULT '{}',"
     "  resource_opts TEXT NOT NULL DEFAULT '{}',"
     "  startup_command TEXT,"
     "  tag TEXT,"
     "  priority INTEGER NOT NULL DEFAULT 10,"
     "  result TEXT NOT NULL DEFAULT 'UNDEFINED',"
     "  created_at INTEGER NOT NULL,"
     "  terminated_at INTEGER);"
     "CREATE INDEX sessions_status ON sessions (status, scaling_group, created_at);"
     "CREATE INDEX sessions_owner ON sessions (access_key, name);"
     "CREATE TABLE kernels ("
     "  id TEXT PRIMARY KEY,"
     "  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,"
     "  cluster_role TEXT NOT NULL DEFAULT 'main',"
     "  cluster_idx INTEGER NOT NULL DEFAULT 1,"
     "  agent_id TEXT REFERENCES agents (id),"
     "  status TEXT NOT NULL DEFAULT 'PENDING',"
     "  status_info TEXT,"
     "  status_data TEXT NOT NULL DEFAULT '{}',"
     "  status_changed INTEGER NOT NULL,"
     "  container_id TEXT,"
     "  kernel_host TEXT,"
     "  service_ports TEXT NOT NULL DEFAULT '[]',"
     "  exit_code INTEGER,"
     "  created_at INTEGER NOT NULL,"
     "  terminated_at INTEGER);"
     "CREATE INDEX kernels_session ON kernels (session_id);"
     "CREATE INDEX kernels_agent ON kernels (agent_id, status);"
     "CREATE TABLE kernel_requests ("
     "  kernel_id TEXT NOT NULL REFERENCES kernels (id) ON DELETE CASCADE,"
     "  slot TEXT NOT NULL,"
     "  amount INTEGER NOT NULL,"
     "  PRIMARY KEY (kernel_id, slot)) WITHOUT ROWID;"
     "CREATE TABLE allocations ("
     "  kernel_id TEXT NOT NULL REFERENCES kernels (id) ON DELETE CASCADE,"
     "  agent_id TEXT NOT NULL REFERENCES agents (id),"
     "  slot TEXT NOT NULL,"
     "  amount INTEGER NOT NULL CHECK (amount >= 0),"
     "  PRIMARY KEY (kernel_id, slot)) WITHOUT ROWID;"
     "CREATE INDEX allocations_agent ON allocations (agent_id, slot);"},
    {"preopen ports and the bootstrap script of sessions",
     "ALTER TABLE sessions ADD COLUMN preopen_ports TEXT NOT NULL DEFAULT '[]';"
     "ALTER TABLE sessions ADD COLUMN bootstrap_script TEXT;"},
    //  The pass reads what agents and quota scopes hold from aggregates the
    //  triggers below keep equal to the rows they sum, in the transaction
    //  that changes the rows: no pass ever sums the ledger, and nothing can
    //  drift (sched_db_ledger_check checks it).
    {"scheduling: resource groups' rules, quota limits, aggregates kept by triggers",
     "CREATE TABLE sgroups ("
     "  name TEXT PRIMARY KEY,"
     "  scheduler TEXT NOT NULL DEFAULT 'fifo',"
     "  opts TEXT NOT NULL DEFAULT '{}');"
     "CREATE TABLE scope_limits ("
     "  kind TEXT NOT NULL,"
     "  key TEXT NOT NULL,"
     "  limits TEXT NOT NULL,"
     "  PRIMARY KEY (kind, key)) WITHOUT ROWID;"
     "ALTER TABLE sessions ADD COLUMN retries INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE sessions ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE sessions ADD COLUMN tried_at INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE sessions ADD COLUMN starts_at INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE sessions ADD COLUMN dependencies TEXT NOT NULL DEFAULT '[]';"
     "ALTER TABLE sessions ADD COLUMN batch_timeout INTEGER NOT NULL DEFAULT 0;"
     "CREATE TABLE agent_occupancy ("
     "  agent_id TEXT NOT NULL,"
     "  slot TEXT NOT NULL,"
     "  amount INTEGER NOT NULL,"
     "  PRIMARY KEY (agent_id, slot)) WITHOUT ROWID;"
     "INSERT INTO agent_occupancy SELECT agent_id, slot, sum(amount) FROM allocations"
     " GROUP BY agent_id, slot;"
     //  kind: keypair, user, project, domain (what kernels hold) and pending
     //  (what a keypair's PENDING sessions ask for).
     "CREATE TABLE scope_usage ("
     "  kind TEXT NOT NULL,"
     "  key TEXT NOT NULL,"
     "  slot TEXT NOT NULL,"
     "  amount INTEGER NOT NULL,"
     "  PRIMARY KEY (kind, key, slot)) WITHOUT ROWID;"
     "CREATE VIEW allocation_scopes AS"
     " SELECT 'keypair' AS kind, s.access_key AS key, a.slot, a.amount"
     " FROM allocations a JOIN kernels k ON k.id = a.kernel_id"
     " JOIN sessions s ON s.id = k.session_id"
     " UNION ALL SELECT 'user', s.user_uuid, a.slot, a.amount FROM allocations a"
     " JOIN kernels k ON k.id = a.kernel_id JOIN sessions s ON s.id = k.session_id"
     " UNION ALL SELECT 'project', s.group_id, a.slot, a.amount"
     " FROM allocations a JOIN kernels k ON k.id = a.kernel_id"
     " JOIN sessions s ON s.id = k.session_id"
     " UNION ALL SELECT 'domain', s.domain_name, a.slot, a.amount"
     " FROM allocations a JOIN kernels k ON k.id = a.kernel_id"
     " JOIN sessions s ON s.id = k.session_id;"
     "INSERT INTO scope_usage SELECT kind, key, slot, sum(amount) FROM allocation_scopes"
     " WHERE true GROUP BY kind, key, slot;"
     "DROP VIEW allocation_scopes;"
     "INSERT INTO scope_usage SELECT 'pending', s.access_key, r.slot, sum(r.amount)"
     " FROM kernel_requests r JOIN kernels k ON k.id = r.kernel_id"
     " JOIN sessions s ON s.id = k.session_id WHERE s.status = 'PENDING'"
     " GROUP BY s.access_key, r.slot;"
     //  Sessions that hold slots (every status but these four) and PENDING
     //  ones, per keypair.
     "CREATE TABLE keypair_counts ("
     "  access_key TEXT PRIMARY KEY,"
     "  concurrent INTEGER NOT NULL DEFAULT 0,"
     "  pending INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;"
     "INSERT INTO keypair_counts SELECT access_key,"
     " sum(status NOT IN ('PENDING', 'TERMINATED', 'CANCELLED', 'ERROR')),"
     " sum(status = 'PENDING') FROM sessions GROUP BY access_key;"
     "CREATE TRIGGER allocations_added AFTER INSERT ON allocations BEGIN"
     "  INSERT INTO agent_occupancy VALUES (NEW.agent_id, NEW.slot, NEW.amount)"
     "   ON CONFLICT DO UPDATE SET amount = amount + excluded.amount;"
     "  INSERT INTO scope_usage SELECT 'keypair', s.access_key, NEW.slot, NEW.amount"
     "   FROM kernels k JOIN sessions s ON s.id = k.session_id WHERE k.id = NEW.kernel_id"
     "   ON CONFLICT DO UPDATE SET amount = amount + excluded.amount;"
     "  INSERT INTO scope_usage SELECT 'user', s.user_uuid, NEW.slot, NEW.amount"
     "   FROM kernels k JOIN sessions s ON s.id = k.session_id WHERE k.id = NEW.kernel_id"
     "   ON CONFLICT DO UPDATE SET amount = amount + excluded.amount;"
     "  INSERT INTO scope_usage SELECT 'project', s.group_id, NEW.slot, NEW.amount"
     "   FROM kernels k JOIN sessions s ON s.id = k.session_id WHERE k.id = NEW.kernel_id"
     "   ON CONFLICT DO UPDATE SET amount = amount + excluded.amount;"
     "  INSERT INTO scope_usage SELECT 'domain', s.domain_name, NEW.slot, NEW.amount"
     "   FROM kernels k JOIN sessions s ON s.id = k.session_id WHERE k.id = NEW.kernel_id"
     "   ON CONFLICT DO UPDATE SET amount = amount + excluded.amount;"
     " END;"
     "CREATE TRIGGER allocations_removed AFTER DELETE ON allocations BEGIN"
     "  UPDATE agent_occupancy SET amount = amount - OLD.amount"
     "   WHERE agent_id = OLD.agent_id AND slot = OLD.slot;"
     "  UPDATE scope_usage SET amount = amount - OLD.amount WHERE slot = OLD.slot AND"
     "   (kind, key) IN (SELECT 'keypair', s.access_key FROM kernels k"
     "   JOIN sessions s ON s.id = k.session_id WHERE k.id = OLD.kernel_id"
     "   UNION ALL SELECT 'user', s.user_uuid FROM kernels k"
     "   JOIN sessions s ON s.id = k.session_id WHERE k.id = OLD.kernel_id"
     "   UNION ALL SELECT 'project', s.group_id FROM kernels k"
     "   JOIN sessions s ON s.id = k.session_id WHERE k.id = OLD.kernel_id"
     "   UNION ALL SELECT 'domain', s.domain_name FROM kernels k"
     "   JOIN sessions s ON s.id = k.session_id WHERE k.id = OLD.kernel_id);"
     " END;"
     "CREATE TRIGGER requests_added AFTER INSERT ON kernel_requests BEGIN"
     "  INSERT INTO scope_usage SELECT 'pending', s.access_key, NEW.slot, NEW.amount"
     "   FROM kernels k JOIN sessions s ON s.id = k.session_id"
     "   WHERE k.id = NEW.kernel_id AND s.status = 'PENDING'"
     "   ON CONFLICT DO UPDATE SET amount = amount + excluded.amount;"
     " END;"
     "CREATE TRIGGER sessions_added AFTER INSERT ON sessions BEGIN"
     "  INSERT INTO keypair_counts VALUES (NEW.access_key,"
     "   NEW.status NOT IN ('PENDING', 'TERMINATED', 'CANCELLED', 'ERROR'),"
     "   NEW.status = 'PENDING')"
     "   ON CONFLICT DO UPDATE SET concurrent = concurrent + excluded.concurrent,"
     "   pending = pending + excluded.pending;"
     " END;"
     "CREATE TRIGGER sessions_moved AFTER UPDATE OF status ON sessions"
     " WHEN OLD.status <> NEW.status BEGIN"
     "  UPDATE keypair_counts SET"
     "   concurrent = concurrent"
     "    + (NEW.status NOT IN ('PENDING', 'TERMINATED', 'CANCELLED', 'ERROR'))"
     "    - (OLD.status NOT IN ('PENDING', 'TERMINATED', 'CANCELLED', 'ERROR')),"
     "   pending = pending + (NEW.status = 'PENDING') - (OLD.status = 'PENDING')"
     "   WHERE access_key = NEW.access_key;"
     "  UPDATE scope_usage SET amount = amount - coalesce((SELECT sum(r.amount)"
     "   FROM kernel_requests r JOIN kernels k ON k.id = r.kernel_id"
     "   WHERE k.session_id = NEW.id AND r.slot = scope_usage.slot), 0)"
     "   WHERE OLD.status = 'PENDING' AND kind = 'pending' AND key = NEW.access_key;"
     " END;"
     //  What each agent last said its kernels hold (agent.heartbeat), for
     //  sched_db_ledger_check.
     "CREATE TABLE agent_reported ("
     "  agent_id TEXT NOT NULL,"
     "  slot TEXT NOT NULL,"
     "  amount INTEGER NOT NULL,"
     "  PRIMARY KEY (agent_id, slot)) WITHOUT ROWID;"
     "CREATE INDEX sessions_pending ON sessions (scaling_group, architecture, created_at)"
     " WHERE status = 'PENDING';"},
    {"virtual folders a session mounts",
     "ALTER TABLE sessions ADD COLUMN mounts TEXT NOT NULL DEFAULT '[]';"},
    //  The same aggregates for less: an allocation row finds its session's
    //  four quota scopes with one lookup of its kernel and session instead
    //  of one per scope (CROSS JOIN keeps that order: the kernel, its
    //  session, then the four kinds).
    {"allocation triggers look their session up once",
     "DROP TRIGGER allocations_added;"
     "DROP TRIGGER allocations_removed;"
     "CREATE TRIGGER allocations_added AFTER INSERT ON allocations BEGIN"
     "  INSERT INTO agent_occupancy VALUES (NEW.agent_id, NEW.slot, NEW.amount)"
     "   ON CONFLICT DO UPDATE SET amount = amount + excluded.amount;"
     "  INSERT INTO scope_usage (kind, key, slot, amount)"
     "   SELECT x.kind, CASE x.kind WHEN 'keypair' THEN s.access_key"
     "    WHEN 'user' THEN s.user_uuid WHEN 'project' THEN s.group_id"
     "    ELSE s.domain_name END, NEW.slot, NEW.amount"
     "   FROM kernels k CROSS JOIN sessions s CROSS JOIN"
     "   (SELECT 'keypair' AS kind UNION ALL SELECT 'user' UNION ALL SELECT 'project'"
     "    UNION ALL SELECT 'domain') x"
     "   WHERE k.id = NEW.kernel_id AND s.id = k.session_id"
     "   ON CONFLICT DO UPDATE SET amount = amount + excluded.amount;"
     " END;"
     "CREATE TRIGGER allocations_removed AFTER DELETE ON allocations BEGIN"
     "  UPDATE agent_occupancy SET amount = amount - OLD.amount"
     "   WHERE agent_id = OLD.agent_id AND slot = OLD.slot;"
     "  UPDATE scope_usage SET amount = amount - OLD.amount WHERE slot = OLD.slot AND"
     "   (kind, key) IN (SELECT x.kind, CASE x.kind WHEN 'keypair' THEN s.access_key"
     "    WHEN 'user' THEN s.user_uuid WHEN 'project' THEN s.group_id"
     "    ELSE s.domain_name END"
     "   FROM kernels k CROSS JOIN sessions s CROSS JOIN"
     "   (SELECT 'keypair' AS kind UNION ALL SELECT 'user' UNION ALL SELECT 'project'"
     "    UNION ALL SELECT 'domain') x"
     "   WHERE k.id = OLD.kernel_id AND s.id = k.session_id);"
     " END;"},
    //  The same answers for less work per session. Indexes: sessions_status
    //  was written by every status change but only ever searched for
    //  PENDING (sessions_pending serves that) and RUNNING (now a partial
    //  index that only the moves into and out of RUNNING write);
    //  allocations_agent only summed an agent's rows, which agent_occupancy
    //  holds (sched_db_ledger_check checks that they agree). Triggers: a list of
    //  three or more values after IN is built into a temporary b-tree each
    //  time a trigger runs, so "holds slots" is spelled out with <>; the
    //  status trigger updates keypair_counts only when a count changes (not
    //  from PREPARING to RUNNING, say); and the four quota scopes of an
    //  allocation row come from a small table rather than a UNION ALL
    //  subquery, which each trigger run materialized.
    {"sessions and allocations keep only the indexes read, cheaper triggers",
     "DROP INDEX sessions_status;"
     "CREATE INDEX sessions_running ON sessions (status_changed)"
     " WHERE status = 'RUNNING';"
     "DROP INDEX allocations_agent;"
     "CREATE TABLE scope_kinds (kind TEXT PRIMARY KEY) WITHOUT ROWID;"
     "INSERT INTO scope_kinds VALUES ('keypair'), ('user'), ('project'), ('domain');"
     "DROP TRIGGER sessions_added;"
     "DROP TRIGGER sessions_moved;"
     "DROP TRIGGER allocations_added;"
     "DROP TRIGGER allocations_removed;"
     "CREATE TRIGGER sessions_added AFTER INSERT ON sessions BEGIN"
     "  INSERT INTO keypair_counts VALUES (NEW.access_key,"
     "   NEW.status <> 'PENDING' AND NEW.status <> 'TERMINATED'"
     "    AND NEW.status <> 'CANCELLED' AND NEW.status <> 'ERROR',"
     "   NEW.status = 'PENDING')"
     "   ON CONFLICT DO UPDATE SET concurrent = concurrent + excluded.concurrent,"
     "   pending = pending + excluded.pending;"
     " END;"
     "CREATE TRIGGER sessions_moved AFTER UPDATE OF status ON sessions"
     " WHEN OLD.status <> NEW.status BEGIN"
     "  UPDATE keypair_counts SET"
     "   concurrent = concurrent"
     "    + (NEW.status <> 'PENDING' AND NEW.status <> 'TERMINATED'"
     "     AND NEW.status <> 'CANCELLED' AND NEW.status <> 'ERROR')"
     "    - (OLD.status <> 'PENDING' AND OLD.status <> 'TERMINATED'"
     "     AND OLD.status <> 'CANCELLED' AND OLD.status <> 'ERROR'),"
     "   pending = pending + (NEW.status = 'PENDING') - (OLD.status = 'PENDING')"
     "   WHERE access_key = NEW.access_key"
     "   AND ((OLD.status = 'PENDING') <> (NEW.status = 'PENDING')"
     "    OR (NEW.status <> 'PENDING' AND NEW.status <> 'TERMINATED'"
     "     AND NEW.status <> 'CANCELLED' AND NEW.status <> 'ERROR')"
     "    <> (OLD.status <> 'PENDING' AND OLD.status <> 'TERMINATED'"
     "     AND OLD.status <> 'CANCELLED' AND OLD.status <> 'ERROR'));"
     "  UPDATE scope_usage SET amount = amount - coalesce((SELECT sum(r.amount)"
     "   FROM kernel_requests r JOIN kernels k ON k.id = r.kernel_id"
     "   WHERE k.session_id = NEW.id AND r.slot = scope_usage.slot), 0)"
     "   WHERE OLD.status = 'PENDING' AND kind = 'pending' AND key = NEW.access_key;"
     " END;"
     "CREATE TRIGGER allocations_added AFTER INSERT ON allocations BEGIN"
     "  INSERT INTO agent_occupancy VALUES (NEW.agent_id, NEW.slot, NEW.amount)"
     "   ON CONFLICT DO UPDATE SET amount = amount + excluded.amount;"
     "  INSERT INTO scope_usage (kind, key, slot, amount)"
     "   SELECT x.kind, CASE x.kind WHEN 'keypair' THEN s.access_key"
     "    WHEN 'user' THEN s.user_uuid WHEN 'project' THEN s.group_id"
     "    ELSE s.domain_name END, NEW.slot, NEW.amount"
     "   FROM kernels k CROSS JOIN sessions s CROSS JOIN scope_kinds x"
     "   WHERE k.id = NEW.kernel_id AND s.id = k.session_id"
     "   ON CONFLICT DO UPDATE SET amount = amount + excluded.amount;"
     " END;"
     "CREATE TRIGGER allocations_removed AFTER DELETE ON allocations BEGIN"
     "  UPDATE agent_occupancy SET amount = amount - OLD.amount"
     "   WHERE agent_id = OLD.agent_id AND slot = OLD.slot;"
     "  UPDATE scope_usage SET amount = amount - OLD.amount WHERE slot = OLD.slot AND"
     "   (kind, key) IN (SELECT x.kind, CASE x.kind WHEN 'keypair' THEN s.access_key"
     "    WHEN 'user' THEN s.user_uuid WHEN 'project' THEN s.group_id"
     "    ELSE s.domain_name END"
     "   FROM kernels k CROSS JOIN sessions s CROSS JOIN scope_kinds x"
     "   WHERE k.id = OLD.kernel_id AND s.id = k.session_id);"
     " END;"},
    //  When each agent's process started, from its heartbeats: an agent back
    //  on the same address after a restart is told apart from the process
    //  the calls in flight went to (sched_calls).
    {"when each agent process started",
     "ALTER TABLE agents ADD COLUMN started_at INTEGER NOT NULL DEFAULT 0;"},
    //  session.list answers one page and the count of all: by status (the
    //  GraphQL list's usual filter) newest first, and newest first over
    //  everything. Both end with id, the order's tie-break, so a page's ids
    //  and the count read the index alone. The status index is written by
    //  every status change, a few per session; the other once.
    {"indexes for session.list pages",
     "CREATE INDEX sessions_listed ON sessions (status, created_at, id);"
     "CREATE INDEX sessions_created ON sessions (created_at, id);"},
    //  An operator's exclude-agents (scheduler.schedulable): the agent stays
    //  unschedulable whatever its heartbeats say until it is included again.
    {"agents excluded from scheduling by an operator",
     "ALTER TABLE agents ADD COLUMN operator_excluded INTEGER NOT NULL DEFAULT 0;"},
    //  The owner's dotfiles as the gateway resolved them (session.create),
    //  kept for kernel.create: a pending session starts with what it asked.
    {"dotfiles a session writes into its kernels' homes",
     "ALTER TABLE sessions ADD COLUMN dotfiles TEXT;"},
    //  What one kernel could be given of each accelerator slot now, as the
    //  agent's per-device allocator last said (agent.heartbeat
    //  placeable_slots; lowered when the agent refuses a kernel for want of
    //  room, until its next heartbeat). And a session put back in the queue
    //  (an agent refused its kernel for want of room) asks again for what it
    //  asks: the reverse of sessions_moved's last statement.
    {"what agents can place now, and sessions put back in the queue",
     "CREATE TABLE agent_placeable ("
     "  agent_id TEXT NOT NULL REFERENCES agents (id) ON DELETE CASCADE,"
     "  slot TEXT NOT NULL,"
     "  amount INTEGER NOT NULL,"
     "  PRIMARY KEY (agent_id, slot)) WITHOUT ROWID;"
     "CREATE TRIGGER sessions_requeued AFTER UPDATE OF status ON sessions"
     " WHEN NEW.status = 'PENDING' AND OLD.status <> 'PENDING' BEGIN"
     "  INSERT INTO scope_usage (kind, key, slot, amount)"
     "   SELECT 'pending', NEW.access_key, r.slot, sum(r.amount)"
     "   FROM kernel_requests r JOIN kernels k ON k.id = r.kernel_id"
     "   WHERE k.session_id = NEW.id GROUP BY r.slot"
     "   ON CONFLICT DO UPDATE SET amount = amount + excluded.amount;"
     " END;"},
    //  Each session's statuses as they came, with the reason of each and
    //  its time (the scheduler's wall clock, µs): [{status, at, info}], the
    //  last 64 kept. Triggers write it, so every path that moves a session
    //  (kernel events, the ledger, a requeue, a restart) is counted the same;
    //  the gateway answers it as Backend.AI's status_history.
    {"each session's status history",
     "ALTER TABLE sessions ADD COLUMN status_history TEXT NOT NULL DEFAULT '[]';"
     "CREATE TRIGGER sessions_history_started AFTER INSERT ON sessions BEGIN"
     "  UPDATE sessions SET status_history = json_array(json_object('status',"
     "   NEW.status, 'at', NEW.status_changed, 'info', coalesce(NEW.status_info, '')))"
     "   WHERE id = NEW.id;"
     " END;"
     "CREATE TRIGGER sessions_history_moved AFTER UPDATE OF status ON sessions"
     " WHEN OLD.status <> NEW.status BEGIN"
     "  UPDATE sessions SET status_history = json_insert("
     "   CASE WHEN json_array_length(status_history) >= 64"
     "    THEN json_remove(status_history, '$[0]') ELSE status_history END, '$[#]',"
     "   json_object('status', NEW.status, 'at', NEW.status_changed, 'info',"
     "    coalesce(NEW.status_info, '')))"
     "   WHERE id = NEW.id;"
     " END;"},
    //  A model service's replicas are INFERENCE sessions (Backend.AI's
    //  session type), each carrying the model service its kernel starts
    //  (kernel.create's model_service). The type's CHECK widens in place:
    //  every row that passed the old one passes the new, so SQLite's own
    //  procedure for loosening a CHECK applies (lang_altertable.html,
    //  "otheralter"), where rebuilding the table would cascade into its
    //  kernels. RESET reloads the schema inside the transaction.
    {"INFERENCE sessions and the model service they start",
     "PRAGMA writable_schema = ON;"
     "UPDATE sqlite_schema SET sql = replace(sql, '''BATCH''))',"
     " '''BATCH'', ''INFERENCE''))')"
     " WHERE type = 'table' AND name = 'sessions';"
     "PRAGMA writable_schema = RESET;"
     "ALTER TABLE sessions ADD COLUMN model_service TEXT;"},
    //  Replicas of one model service are spread over the agents
    //  (sched_pass.h, Spreading): the group a session belongs to.
    {"spread groups",
     "ALTER TABLE sessions ADD COLUMN spread TEXT NOT NULL DEFAULT '';"
     "CREATE INDEX sessions_spread ON sessions (spread) WHERE spread <> '';"},
    //  The status history in a small table of its own: kept in the sessions
    //  row, each move rewrote that wide row twice (the move, then the
    //  trigger's append), and the insert once more; make bench-scheduler
    //  placed 11 % fewer sessions a second for it.
    {"status history beside the sessions",
     "CREATE TABLE session_history ("
     "  session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,"
     "  entries TEXT NOT NULL) WITHOUT ROWID;"
     "INSERT INTO session_history SELECT id, status_history FROM sessions;"
     "DROP TRIGGER sessions_history_started;"
     "DROP TRIGGER sessions_history_moved;"
     "ALTER TABLE sessions DROP COLUMN status_history;"
     "CREATE TRIGGER sessions_history_started AFTER INSERT ON sessions BEGIN"
     "  INSERT INTO session_history VALUES (NEW.id, json_array(json_object('status',"
     "   NEW.status, 'at', NEW.status_changed, 'info', coalesce(NEW.status_info, ''))));"
     " END;"
     "CREATE TRIGGER sessions_history_moved AFTER UPDATE OF status ON sessions"
     " WHEN OLD.status <> NEW.status BEGIN"
     "  UPDATE session_history SET entries = json_insert("
     "   CASE WHEN json_array_length(entries) >= 64"
     "    THEN json_remove(entries, '$[0]') ELSE entries END, '$[#]',"
     "   json_object('status', NEW.status, 'at', NEW.status_changed, 'info',"
     "    coalesce(NEW.status_info, '')))"
     "   WHERE session_id = NEW.id;"
     " END;"},
};

_Static_assert(sizeof sched_db_migrations / sizeof sched_db_migrations[0] ==
                   SCHED_DB_MIGRATION_COUNT,
               "SCHED_DB_MIGRATION_COUNT must match the migration list");

void
sched_db_slot_map(sqlite3_stmt *stmt,
                  void **owned,
                  const proto_kv_t **map_p,
                  size_t *count_p)
{
    size_t count = 0, capacity = 0;
    proto_kv_t *map = NULL;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 8;
            proto_kv_t *grown = realloc(map, capacity * sizeof *map);
            if (!grown)
                break;
            map = grown;
        }
        const char *slot = (const char *) sqlite3_column_text(stmt, 0);
        bus_slots_value_t value = {false, sqlite3_column_int64(stmt, 1)};
        char text[BUS_SLOTS_VALUE_MAX];
        bus_slots_format_value(bus_slots_unit(slot), &value, text);
        map[count].key = proto_arena_strdup(owned, slot);
        map[count].value = proto_arena_strdup(owned, text);
        if (map[count].key && map[count].value)
            count++;
    }
    sqlite3_reset(stmt);
    *map_p = count ? proto_arena_memdup(owned, map, count * sizeof *map) : NULL;
    *count_p = *map_p ? count : 0;
    free(map);
}

int
sched_db_tune(bus_db_t *db)
{
    return bus_db_exec(db, SCHED_DB_PRAGMAS);
}

bus_db_t *
sched_db_open(const char *path, bus_error_t *err)
{
    return bus_db_open(path, sched_db_migrations, SCHED_DB_MIGRATION_COUNT, err);
}

void
sched_db_bind_text(sqlite3_stmt *stmt, int index, const char *text)
{
    if (text)
        sqlite3_bind_text(stmt, index, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(stmt, index);
}

int
sched_db_step(sqlite3_stmt *stmt)
{
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc == SQLITE_DONE)
        return BUS_OK;
    return rc == SQLITE_CONSTRAINT ? BUS_STATUS_CONFLICT : BUS_STATUS_INTERNAL;
}

char *
sched_db_column_dup(sqlite3_stmt *stmt, int column)
{
    const unsigned char *text = sqlite3_column_text(stmt, column);
    return text ? strdup((const char *) text) : NULL;
}

const char *
sched_db_column_text(sqlite3_stmt *stmt, int column, void **owned)
{
    return proto_arena_strdup(owned, (const char *) sqlite3_column_text(stmt, column));
}

void
sched_db_column_copy(sqlite3_stmt *stmt, int column, char *out, size_t size)
{
    const unsigned char *text = sqlite3_column_text(stmt, column);
    snprintf(out, size, "%s", text ? (const char *) text : "");
}
