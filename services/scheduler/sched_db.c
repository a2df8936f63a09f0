/*  =========================================================================
    sched_db - the scheduler's schema, as numbered migrations

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
};

_Static_assert(sizeof sched_db_migrations / sizeof sched_db_migrations[0] ==
                   SCHED_DB_MIGRATION_COUNT,
               "SCHED_DB_MIGRATION_COUNT must match the migration list");

void
sched_db_slot_map(sqlite3_stmt *stmt, proto_kv_t **map_p, size_t *count_p)
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
        map[count].key = strdup(slot);
        map[count].value = strdup(text);
        count++;
    }
    sqlite3_reset(stmt);
    *map_p = map;
    *count_p = count;
}
