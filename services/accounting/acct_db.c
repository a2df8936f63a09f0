/*  =========================================================================
    acct_db - the accounting's database: its schema and every statement

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "acct_classes.h"

const bus_db_migration_t acct_db_migrations[] = {
    {"the access log",
     "CREATE TABLE access_log ("
     "  request_id TEXT PRIMARY KEY,"
     "  ts INTEGER NOT NULL,"
     "  access_key TEXT NOT NULL DEFAULT '',"
     "  user_id TEXT NOT NULL DEFAULT '',"
     "  domain_name TEXT NOT NULL DEFAULT '',"
     "  method TEXT NOT NULL,"
     "  path TEXT NOT NULL,"
     "  status INTEGER NOT NULL,"
     "  latency_us INTEGER NOT NULL DEFAULT 0,"
     "  client_addr TEXT NOT NULL DEFAULT '',"
     "  error_type TEXT NOT NULL DEFAULT '',"
     "  src TEXT NOT NULL);"
     "CREATE INDEX access_log_ts ON access_log (ts);"
     "CREATE INDEX access_log_access_key ON access_log (access_key, ts);"},
    {"usage records, raw samples and their hourly and daily roll-ups",
     "CREATE TABLE usage ("
     "  kernel_id TEXT PRIMARY KEY,"
     "  session_id TEXT NOT NULL DEFAULT '', session_name TEXT NOT NULL DEFAULT '',"
     "  access_key TEXT NOT NULL DEFAULT '', user_uuid TEXT NOT NULL DEFAULT '',"
     "  group_id TEXT NOT NULL DEFAULT '', domain_name TEXT NOT NULL DEFAULT '',"
     "  scaling_group TEXT NOT NULL DEFAULT '', agent_id TEXT NOT NULL DEFAULT '',"
     "  container_id TEXT NOT NULL DEFAULT '', image TEXT NOT NULL DEFAULT '',"
     "  status TEXT NOT NULL DEFAULT 'PENDING', status_info TEXT NOT NULL DEFAULT '',"
     "  slots TEXT NOT NULL DEFAULT '{}',"
     "  cpu REAL NOT NULL DEFAULT 0, mem REAL NOT NULL DEFAULT 0,"
     "  accel_device REAL NOT NULL DEFAULT 0, accel_share REAL NOT NULL DEFAULT 0,"
     "  created_at INTEGER NOT NULL, started_at INTEGER NOT NULL DEFAULT 0,"
     "  ended_at INTEGER NOT NULL, src_flags INTEGER NOT NULL DEFAULT 0,"
     "  final INTEGER NOT NULL DEFAULT 0,"
     "  last_at INTEGER NOT NULL DEFAULT 0, last_cpu_ns INTEGER NOT NULL DEFAULT 0,"
     "  last_mem INTEGER NOT NULL DEFAULT 0, last_mem_peak INTEGER NOT NULL DEFAULT 0,"
     "  last_mem_limit INTEGER NOT NULL DEFAULT 0, last_pids INTEGER NOT NULL DEFAULT 0,"
     "  last_io_read INTEGER NOT NULL DEFAULT 0, last_io_write INTEGER NOT NULL DEFAULT "
     "0,"
     "  last_net_rx INTEGER NOT NULL DEFAULT 0, last_net_tx INTEGER NOT NULL DEFAULT 0,"
     "  cpu_ns INTEGER NOT NULL DEFAULT 0, mem_byte_s REAL NOT NULL DEFAULT 0,"
     "  mem_peak INTEGER NOT NULL DEFAULT 0, io_read INTEGER NOT NULL DEFAULT 0,"
     "  io_write INTEGER NOT NULL DEFAULT 0, net_rx INTEGER NOT NULL DEFAULT 0,"
     "  net_tx INTEGER NOT NULL DEFAULT 0, samples INTEGER NOT NULL DEFAULT 0,"
     "  cpu_util REAL NOT NULL DEFAULT 0, cpu_util_max REAL NOT NULL DEFAULT 0);"
     "CREATE INDEX usage_group ON usage (group_id, ended_at);"
     "CREATE INDEX usage_user ON usage (user_uuid, ended_at);"
     "CREATE INDEX usage_access_key ON usage (access_key, ended_at);"
     "CREATE INDEX usage_domain ON usage (domain_name, ended_at);"
     "CREATE INDEX usage_ended ON usage (ended_at);"
     "CREATE TABLE usage_sample ("
     "  id INTEGER PRIMARY KEY, kernel_id TEXT NOT NULL, ts INTEGER NOT NULL,"
     "  cpu_ns INTEGER NOT NULL, mem_byte_s REAL NOT NULL,"
     "  io_read INTEGER NOT NULL, io_write INTEGER NOT NULL,"
     "  net_rx INTEGER NOT NULL, net_tx INTEGER NOT NULL);"
     "CREATE INDEX usage_sample_kernel ON usage_sample (kernel_id, ts);"
     "CREATE INDEX usage_sample_ts ON usage_sample (ts);"
     "CREATE TABLE usage_hourly ("
     "  kernel_id TEXT NOT NULL, hour INTEGER NOT NULL,"
     "  cpu_ns INTEGER NOT NULL, mem_byte_s REAL NOT NULL,"
     "  io_read INTEGER NOT NULL, io_write INTEGER NOT NULL,"
     "  net_rx INTEGER NOT NULL, net_tx INTEGER NOT NULL, samples INTEGER NOT NULL,"
     "  PRIMARY KEY (kernel_id, hour)) WITHOUT ROWID;"
     "CREATE TABLE usage_daily ("
     "  domain_name TEXT NOT NULL, group_id TEXT NOT NULL, user_uuid TEXT NOT NULL,"
     "  day INTEGER NOT NULL,"
     "  cpu_ns INTEGER NOT NULL, mem_byte_s REAL NOT NULL,"
     "  io_read INTEGER NOT NULL, io_write INTEGER NOT NULL,"
     "  net_rx INTEGER NOT NULL, net_tx INTEGER NOT NULL, samples INTEGER NOT NULL,"
     "  PRIMARY KEY (group_id, day, user_uuid, domain_name)) WITHOUT ROWID;"
     "CREATE INDEX usage_daily_domain ON usage_daily (domain_name, day);"
     "CREATE TABLE acct_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);"
     "INSERT INTO acct_meta VALUES ('rolled', 0);"},
    //  Sample ids never go back: once every sample had expired, SQLite gave
    //  the next one id 1 again, at or below the roll-up's mark, and the
    //  buckets never counted it. AUTOINCREMENT, its sequence starting past
    //  the mark.
    //  What the rebuild (acct_db_rebuild) needs: the hours of all kernels
    //  at once (the administrators' bins read them too), and the time
    //  before which raw samples may have expired. A database that already
    //  has buckets may have lost samples before now: its horizon starts
    //  here, so no bucket is ever rewritten from an incomplete set.
    {"sample ids that never go back, the hourly buckets by hour, the raw samples' "
     "horizon",
     "CREATE TABLE usage_sample_new ("
     "  id INTEGER PRIMARY KEY AUTOINCREMENT, kernel_id TEXT NOT NULL,"
     "  ts INTEGER NOT NULL, cpu_ns INTEGER NOT NULL, mem_byte_s REAL NOT NULL,"
     "  io_read INTEGER NOT NULL, io_write INTEGER NOT NULL,"
     "  net_rx INTEGER NOT NULL, net_tx INTEGER NOT NULL);"
     "INSERT INTO usage_sample_new SELECT * FROM usage_sample;"
     "DROP TABLE usage_sample;"
     "ALTER TABLE usage_sample_new RENAME TO usage_sample;"
     "CREATE INDEX usage_sample_kernel ON usage_sample (kernel_id, ts);"
     "CREATE INDEX usage_sample_ts ON usage_sample (ts);"
     "DELETE FROM sqlite_sequence WHERE name = 'usage_sample';"
     "INSERT INTO sqlite_sequence (name, seq) SELECT 'usage_sample',"
     " max(coalesce((SELECT max(id) FROM usage_sample), 0),"
     " (SELECT value FROM acct_meta WHERE key = 'rolled'));"
     "CREATE INDEX usage_hourly_hour ON usage_hourly (hour);"
     "INSERT INTO acct_meta SELECT 'expired', CASE WHEN EXISTS"
     " (SELECT 1 FROM usage_hourly) THEN CAST(strftime('%s', 'now') AS INTEGER)"
     " * 1000000 ELSE 0 END;"},
    {"the I/O and network rates of the last interval (live_stat's stats.rate, bps)",
     "ALTER TABLE usage ADD COLUMN io_read_rate REAL NOT NULL DEFAULT 0;"
     "ALTER TABLE usage ADD COLUMN io_write_rate REAL NOT NULL DEFAULT 0;"
     "ALTER TABLE usage ADD COLUMN net_rx_rate REAL NOT NULL DEFAULT 0;"
     "ALTER TABLE usage ADD COLUMN net_tx_rate REAL NOT NULL DEFAULT 0;"},
    {"the GPU figures (live_stat's cuda_mem and cuda_util)",
     "ALTER TABLE usage ADD COLUMN last_cuda_devices INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE usage ADD COLUMN last_cuda_mem INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE usage ADD COLUMN last_cuda_mem_total INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE usage ADD COLUMN last_cuda_util INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE usage ADD COLUMN cuda_mem_max INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE usage ADD COLUMN cuda_util_max REAL NOT NULL DEFAULT 0;"
     "ALTER TABLE usage ADD COLUMN cuda_util_s REAL NOT NULL DEFAULT 0;"},
};
_Static_assert(sizeof acct_db_migrations / sizeof acct_db_migrations[0] ==
                   ACCT_DB_MIGRATION_COUNT,
               "ACCT_DB_MIGRATION_COUNT counts acct_db_migrations");

//  Every column of usage, in acct_record_t's order (s_read_record).
#define RECORD_COLUMNS                                                                   \
    "kernel_id, session_id, session_name, access_key, user_uuid, group_id, "             \
    "domain_name, scaling_group, agent_id, container_id, image, status, "                \
    "status_info, slots, cpu, mem, accel_device, accel_share, created_at, "              \
    "started_at, ended_at, src_flags, final, last_at, last_cpu_ns, last_mem, "           \
    "last_mem_peak, last_mem_limit, last_pids, last_io_read, last_io_write, "            \
    "last_net_rx, last_net_tx, cpu_ns, mem_byte_s, mem_peak, io_read, io_write, "        \
    "net_rx, net_tx, samples, cpu_util, cpu_util_max, io_read_rate, io_write_rate, "     \
    "net_rx_rate, net_tx_rate, last_cuda_devices, last_cuda_mem, last_cuda_mem_total, "  \
    "last_cuda_util, cuda_mem_max, cuda_util_max, cuda_util_s"

//  An optional string of an event: "" when absent.
static const char *
s_or_empty(const char *text)
{
    return text ? text : "";
}

//  ---------------------------------------------------------------------------

//  The single integer sql answers, 0 on error.
static uint64_t
s_count(bus_db_t *db, const char *sql)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, sql);
    if (!stmt)
        return 0;
    int64_t count = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : 0;
    sqlite3_reset(stmt);
    return count > 0 ? (uint64_t) count : 0;
}

uint64_t
acct_db_access_count(bus_db_t *db)
{
    assert(db);
    //  No row of access_log is ever deleted (it has no retention yet), so
    //  its largest rowid is its count, read in O(log n) where count(*)
    //  would read the whole table at every scrape. Revisit with retention.
    return s_count(db, "SELECT coalesce(max(rowid), 0) FROM access_log");
}

uint64_t
acct_db_record_count(bus_db_t *db)
{
    assert(db);
    return s_count(db, "SELECT count(*) FROM usage");
}

int
acct_db_access_insert(bus_db_t *db, const proto_gateway_access_t *access, const char *src)
{
    assert(db && access && src);
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "INSERT OR IGNORE INTO access_log (request_id, ts, access_key, "
                        "user_id, domain_name,"
                        " method, path, status, latency_us, client_addr, error_type, src)"
                        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, access->request_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, access->ts);
    sqlite3_bind_text(stmt, 3, s_or_empty(access->access_key), -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 4, s_or_empty(access->user_id), -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 5, s_or_empty(access->domain_name), -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 6, access->method, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 7, access->path, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 8, (int64_t) access->status);
    sqlite3_bind_int64(stmt, 9, (int64_t) access->latency_us);
    sqlite3_bind_text(stmt, 10, s_or_empty(access->client_addr), -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 11, s_or_empty(access->error_type), -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 12, src, -1, SQLITE_STATIC);
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    //  Not logged here: the event is retried from the inbox (bus_node).
    return rc == SQLITE_DONE ? 0 : -1;
}

//  Copies text column index into out (size bytes).
static void
s_column_text(sqlite3_stmt *stmt, int index, char *out, size_t size)
{
    const unsigned char *text = sqlite3_column_text(stmt, index);
    snprintf(out, size, "%s", text ? (const char *) text : "");
}

static uint64_t
s_column_u64(sqlite3_stmt *stmt, int index)
{
    int64_t value = sqlite3_column_int64(stmt, index);
    return value > 0 ? (uint64_t) value : 0;
}

//  Reads the row stmt is on (RECORD_COLUMNS first) into record.
static void
s_read_record(sqlite3_stmt *stmt, acct_record_t *r)
{
    memset(r, 0, sizeof *r);
    s_column_text(stmt, 0, r->kernel_id, sizeof r->kernel_id);
    s_column_text(stmt, 1, r->session_id, sizeof r->session_id);
    s_column_text(stmt, 2, r->session_name, sizeof r->session_name);
    s_column_text(stmt, 3, r->access_key, sizeof r->access_key);
    s_column_text(stmt, 4, r->user_uuid, sizeof r->user_uuid);
    s_column_text(stmt, 5, r->group_id, sizeof r->group_id);
    s_column_text(stmt, 6, r->domain_name, sizeof r->domain_name);
    s_column_text(stmt, 7, r->scaling_group, sizeof r->scaling_group);
    s_column_text(stmt, 8, r->agent_id, sizeof r->agent_id);
    s_column_text(stmt, 9, r->container_id, sizeof r->container_id);
    s_column_text(stmt, 10, r->image, sizeof r->image);
    s_column_text(stmt, 11, r->status, sizeof r->status);
    s_column_text(stmt, 12, r->status_info, sizeof r->status_info);
    s_column_text(stmt, 13, r->slots, sizeof r->slots);
    r->cpu = sqlite3_column_double(stmt, 14);
    r->mem = sqlite3_column_double(stmt, 15);
    r->accel_device = sqlite3_column_double(stmt, 16);
    r->accel_share = sqlite3_column_double(stmt, 17);
    r->created_at = sqlite3_column_int64(stmt, 18);
    r->started_at = sqlite3_column_int64(stmt, 19);
    r->ended_at = sqlite3_column_int64(stmt, 20);
    r->src_flags = sqlite3_column_int(stmt, 21);
    r->final = sqlite3_column_int(stmt, 22) != 0;
    r->last.at = sqlite3_column_int64(stmt, 23);
    r->last.cpu_used_ns = s_column_u64(stmt, 24);
    r->last.mem_bytes = s_column_u64(stmt, 25);
    r->last.mem_peak_bytes = s_column_u64(stmt, 26);
    r->last.mem_limit_bytes = s_column_u64(stmt, 27);
    r->last.pids = s_column_u64(stmt, 28);
    r->last.io_read_bytes = s_column_u64(stmt, 29);
    r->last.io_write_bytes = s_column_u64(stmt, 30);
    r->last.net_rx_bytes = s_column_u64(stmt, 31);
    r->last.net_tx_bytes = s_column_u64(stmt, 32);
    r->cpu_ns = s_column_u64(stmt, 33);
    r->mem_byte_s = sqlite3_column_double(stmt, 34);
    r->mem_peak_bytes = s_column_u64(stmt, 35);
    r->io_read = s_column_u64(stmt, 36);
    r->io_write = s_column_u64(stmt, 37);
    r->net_rx = s_column_u64(stmt, 38);
    r->net_tx = s_column_u64(stmt, 39);
    r->samples = s_column_u64(stmt, 40);
    r->cpu_util = sqlite3_column_double(stmt, 41);
    r->cpu_util_max = sqlite3_column_double(stmt, 42);
    r->io_read_rate = sqlite3_column_double(stmt, 43);
    r->io_write_rate = sqlite3_column_double(stmt, 44);
    r->net_rx_rate = sqlite3_column_double(stmt, 45);
    r->net_tx_rate = sqlite3_column_double(stmt, 46);
    r->last.cuda_devices = s_column_u64(stmt, 47);
    r->last.cuda_mem_bytes = s_column_u64(stmt, 48);
    r->last.cuda_mem_total_bytes = s_column_u64(stmt, 49);
    r->last.cuda_util_pct = s_column_u64(stmt, 50);
    r->cuda_mem_max = s_column_u64(stmt, 51);
    r->cuda_util_max = sqlite3_column_double(stmt, 52);
    r->cuda_util_s = sqlite3_column_double(stmt, 53);
}

//  Binds record as ?1..?54 (RECORD_COLUMNS' order); the counters-only
//  UPDATE uses ?1 and ?23.. of the same numbering.
static void
s_bind_record(sqlite3_stmt *stmt, const acct_record_t *r, bool identity)
{
    sqlite3_bind_text(stmt, 1, r->kernel_id, -1, SQLITE_STATIC);
    if (identity) {
        sqlite3_bind_text(stmt, 2, r->session_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 3, r->session_name, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 4, r->access_key, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 5, r->user_uuid, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 6, r->group_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 7, r->domain_name, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 8, r->scaling_group, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 9, r->agent_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 10, r->container_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 11, r->image, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 12, r->status, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 13, r->status_info, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 14, r->slots, -1, SQLITE_STATIC);
        sqlite3_bind_double(stmt, 15, r->cpu);
        sqlite3_bind_double(stmt, 16, r->mem);
        sqlite3_bind_double(stmt, 17, r->accel_device);
        sqlite3_bind_double(stmt, 18, r->accel_share);
        sqlite3_bind_int64(stmt, 19, r->created_at);
        sqlite3_bind_int64(stmt, 20, r->started_at);
        sqlite3_bind_int64(stmt, 21, r->ended_at);
        sqlite3_bind_int(stmt, 22, r->src_flags);
    }
    sqlite3_bind_int(stmt, 23, r->final ? 1 : 0);
    sqlite3_bind_int64(stmt, 24, r->last.at);
    sqlite3_bind_int64(stmt, 25, (int64_t) r->last.cpu_used_ns);
    sqlite3_bind_int64(stmt, 26, (int64_t) r->last.mem_bytes);
    sqlite3_bind_int64(stmt, 27, (int64_t) r->last.mem_peak_bytes);
    sqlite3_bind_int64(stmt, 28, (int64_t) r->last.mem_limit_bytes);
    sqlite3_bind_int64(stmt, 29, (int64_t) r->last.pids);
    sqlite3_bind_int64(stmt, 30, (int64_t) r->last.io_read_bytes);
    sqlite3_bind_int64(stmt, 31, (int64_t) r->last.io_write_bytes);
    sqlite3_bind_int64(stmt, 32, (int64_t) r->last.net_rx_bytes);
    sqlite3_bind_int64(stmt, 33, (int64_t) r->last.net_tx_bytes);
    sqlite3_bind_int64(stmt, 34, (int64_t) r->cpu_ns);
    sqlite3_bind_double(stmt, 35, r->mem_byte_s);
    sqlite3_bind_int64(stmt, 36, (int64_t) r->mem_peak_bytes);
    sqlite3_bind_int64(stmt, 37, (int64_t) r->io_read);
    sqlite3_bind_int64(stmt, 38, (int64_t) r->io_write);
    sqlite3_bind_int64(stmt, 39, (int64_t) r->net_rx);
    sqlite3_bind_int64(stmt, 40, (int64_t) r->net_tx);
    sqlite3_bind_int64(stmt, 41, (int64_t) r->samples);
    sqlite3_bind_double(stmt, 42, r->cpu_util);
    sqlite3_bind_double(stmt, 43, r->cpu_util_max);
    sqlite3_bind_double(stmt, 44, r->io_read_rate);
    sqlite3_bind_double(stmt, 45, r->io_write_rate);
    sqlite3_bind_double(stmt, 46, r->net_rx_rate);
    sqlite3_bind_double(stmt, 47, r->net_tx_rate);
    sqlite3_bind_int64(stmt, 48, (int64_t) r->last.cuda_devices);
    sqlite3_bind_int64(stmt, 49, (int64_t) r->last.cuda_mem_bytes);
    sqlite3_bind_int64(stmt, 50, (int64_t) r->last.cuda_mem_total_bytes);
    sqlite3_bind_int64(stmt, 51, (int64_t) r->last.cuda_util_pct);
    sqlite3_bind_int64(stmt, 52, (int64_t) r->cuda_mem_max);
    sqlite3_bind_double(stmt, 53, r->cuda_util_max);
    sqlite3_bind_double(stmt, 54, r->cuda_util_s);
}

//  Steps a write statement to its end and resets it. 0 or -1.
static int
s_done(sqlite3_stmt *stmt)
{
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? 0 : -1;
}

int
acct_db_record_get(bus_db_t *db, const char *kernel_id, acct_record_t *record)
{
    assert(db && kernel_id && record);
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT " RECORD_COLUMNS " FROM usage WHERE kernel_id = ?1");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, kernel_id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(stmt), found = 0;
    if (rc == SQLITE_ROW) {
        s_read_record(stmt, record);
        found = 1;
    } else if (rc != SQLITE_DONE)
        found = -1;
    sqlite3_reset(stmt);
    return found;
}

int
acct_db_record_put(bus_db_t *db, const acct_record_t *record)
{
    assert(db && record);
    sqlite3_stmt *stmt = bus_db_stmt(
        db,
        "INSERT INTO usage (kernel_id, session_id, session_name, access_key, "
        "user_uuid, group_id, domain_name, scaling_group, agent_id, container_id, "
        "image, status, status_info, slots, cpu, mem, accel_device, accel_share, "
        "created_at, started_at, ended_at, src_flags, final, last_at, last_cpu_ns, "
        "last_mem, last_mem_peak, last_mem_limit, last_pids, last_io_read, "
        "last_io_write, last_net_rx, last_net_tx, cpu_ns, mem_byte_s, mem_peak, "
        "io_read, io_write, net_rx, net_tx, samples, cpu_util, cpu_util_max, "
        "io_read_rate, io_write_rate, net_rx_rate, net_tx_rate, last_cuda_devices, "
        "last_cuda_mem, last_cuda_mem_total, last_cuda_util, cuda_mem_max, "
        "cuda_util_max, cuda_util_s) VALUES "
        "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, "
        "?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, "
        "?33, ?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41, ?42, ?43, ?44, ?45, ?46, ?47, "
        "?48, ?49, ?50, ?51, ?52, ?53, ?54) "
        "ON CONFLICT "
        "(kernel_id) DO UPDATE SET session_id = excluded.session_id, session_name = "
        "excluded.session_name, access_key = excluded.access_key, user_uuid = "
        "excluded.user_uuid, group_id = excluded.group_id, domain_name = "
        "excluded.domain_name, scaling_group = excluded.scaling_group, agent_id = "
        "excluded.agent_id, container_id = excluded.container_id, image = "
        "excluded.image, status = excluded.status, status_info = excluded.status_info, "
        "slots = excluded.slots, cpu = excluded.cpu, mem = excluded.mem, accel_device "
        "= excluded.accel_device, accel_share = excluded.accel_share, created_at = "
        "excluded.created_at, started_at = excluded.started_at, ended_at = "
        "excluded.ended_at, src_flags = excluded.src_flags, final = excluded.final, "
        "last_at = excluded.last_at, last_cpu_ns = excluded.last_cpu_ns, last_mem = "
        "excluded.last_mem, last_mem_peak = excluded.last_mem_peak, last_mem_limit = "
        "excluded.last_mem_limit, last_pids = excluded.last_pids, last_io_read = "
        "excluded.last_io_read, last_io_write = excluded.last_io_write, last_net_rx = "
        "excluded.last_net_rx, last_net_tx = excluded.last_net_tx, cpu_ns = "
        "excluded.cpu_ns, mem_byte_s = excluded.mem_byte_s, mem_peak = "
        "excluded.mem_peak, io_read = excluded.io_read, io_write = excluded.io_write, "
        "net_rx = excluded.net_rx, net_tx = excluded.net_tx, samples = "
        "excluded.samples, cpu_util = excluded.cpu_util, cpu_util_max = "
        "excluded.cpu_util_max, io_read_rate = excluded.io_read_rate, io_write_rate = "
        "excluded.io_write_rate, net_rx_rate = excluded.net_rx_rate, net_tx_rate = "
        "excluded.net_tx_rate, last_cuda_devices = excluded.last_cuda_devices, "
        "last_cuda_mem = excluded.last_cuda_mem, last_cuda_mem_total = "
        "excluded.last_cuda_mem_total, last_cuda_util = excluded.last_cuda_util, "
        "cuda_mem_max = excluded.cuda_mem_max, cuda_util_max = excluded.cuda_util_max, "
        "cuda_util_s = excluded.cuda_util_s");
    if (!stmt)
        return -1;
    s_bind_record(stmt, record, true);
    return s_done(stmt);
}

int
acct_db_record_put_counters(bus_db_t *db, const acct_record_t *record)
{
    assert(db && record);
    sqlite3_stmt *stmt = bus_db_stmt(
        db,
        "UPDATE usage SET final = ?23, last_at = ?24, last_cpu_ns = ?25, last_mem = "
        "?26, last_mem_peak = ?27, last_mem_limit = ?28, last_pids = ?29, last_io_read "
        "= ?30, last_io_write = ?31, last_net_rx = ?32, last_net_tx = ?33, cpu_ns = "
        "?34, mem_byte_s = ?35, mem_peak = ?36, io_read = ?37, io_write = ?38, net_rx "
        "= ?39, net_tx = ?40, samples = ?41, cpu_util = ?42, cpu_util_max = ?43, "
        "io_read_rate = ?44, io_write_rate = ?45, net_rx_rate = ?46, net_tx_rate = ?47, "
        "last_cuda_devices = ?48, last_cuda_mem = ?49, last_cuda_mem_total = ?50, "
        "last_cuda_util = ?51, cuda_mem_max = ?52, cuda_util_max = ?53, cuda_util_s = "
        "?54 "
        "WHERE kernel_id = ?1");
    if (!stmt)
        return -1;
    s_bind_record(stmt, record, false);
    return s_done(stmt);
}

int
acct_db_sample_insert(bus_db_t *db, const char *kernel_id, const acct_delta_t *delta)
{
    assert(db && kernel_id && delta);
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "INSERT INTO usage_sample (kernel_id, ts, cpu_ns, mem_byte_s, io_read,"
            " io_write, net_rx, net_tx) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, kernel_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, delta->at);
    sqlite3_bind_int64(stmt, 3, (int64_t) delta->cpu_ns);
    sqlite3_bind_double(stmt, 4, delta->mem_byte_s);
    sqlite3_bind_int64(stmt, 5, (int64_t) delta->io_read);
    sqlite3_bind_int64(stmt, 6, (int64_t) delta->io_write);
    sqlite3_bind_int64(stmt, 7, (int64_t) delta->net_rx);
    sqlite3_bind_int64(stmt, 8, (int64_t) delta->net_tx);
    return s_done(stmt);
}

//  The window's statements, one per leading index; every value is bound
//  (?1 the leading key, ?2 from, ?3 to, ?4.. the other filters, "" = any).
#define WINDOW_FILTERS                                                                   \
    " AND ended_at > ?2 AND started_at > 0 AND started_at < ?3"                          \
    " AND (?4 = '' OR group_id = ?4) AND (?5 = '' OR domain_name = ?5)"                  \
    " AND (?6 = '' OR user_uuid = ?6) AND (?7 = '' OR access_key = ?7)"                  \
    " ORDER BY ended_at, kernel_id"

static const char *const s_window_sql[] = {
    "SELECT " RECORD_COLUMNS " FROM usage WHERE group_id = ?1" WINDOW_FILTERS,
    "SELECT " RECORD_COLUMNS " FROM usage WHERE user_uuid = ?1" WINDOW_FILTERS,
    "SELECT " RECORD_COLUMNS " FROM usage WHERE access_key = ?1" WINDOW_FILTERS,
    "SELECT " RECORD_COLUMNS " FROM usage WHERE domain_name = ?1" WINDOW_FILTERS,
    "SELECT " RECORD_COLUMNS " FROM usage WHERE ?1 = ''" WINDOW_FILTERS,
};

static bool
s_set(const char *text)
{
    return text && *text;
}

int
acct_db_records_each(bus_db_t *db,
                     const acct_db_scope_t *scope,
                     size_t max,
                     acct_db_record_fn *fn,
                     void *arg,
                     bus_error_t *err)
{
    assert(db && scope && fn);
    //  The most selective key leads: a project, a user, a keypair, a domain.
    const char *key = "";
    size_t which = 4;
    if (s_set(scope->group_id))
        which = 0, key = scope->group_id;
    else if (s_set(scope->user_uuid))
        which = 1, key = scope->user_uuid;
    else if (s_set(scope->access_key))
        which = 2, key = scope->access_key;
    else if (s_set(scope->domain_name))
        which = 3, key = scope->domain_name;
    sqlite3_stmt *stmt = bus_db_stmt(db, s_window_sql[which]);
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the usage records");
    sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, scope->from);
    sqlite3_bind_int64(stmt, 3, scope->to);
    sqlite3_bind_text(stmt, 4, s_or_empty(scope->group_id), -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 5, s_or_empty(scope->domain_name), -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 6, s_or_empty(scope->user_uuid), -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 7, s_or_empty(scope->access_key), -1, SQLITE_STATIC);
    acct_record_t *record = malloc(sizeof *record);
    int rc = record ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    size_t count = 0;
    while (rc == BUS_OK) {
        int step = sqlite3_step(stmt);
        if (step == SQLITE_DONE)
            break;
        if (step != SQLITE_ROW) {
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "reading the usage records: %s",
                               sqlite3_errmsg(bus_db_handle(db)));
            break;
        }
        if (++count > max) {
            rc = bus_error_set(err, BUS_STATUS_INVALID,
                               "more than %zu kernels in the window: ask for a shorter "
                               "period or fewer projects",
                               max);
            break;
        }
        s_read_record(stmt, record);
        if (fn(arg, record) != 0)
            break;
    }
    sqlite3_reset(stmt);
    free(record);
    return rc;
}

//  Reads a sums row (cpu_ns, mem_byte_s, io_read, io_write, net_rx, net_tx,
//  samples) starting at column first.
static void
s_read_sums(sqlite3_stmt *stmt, int first, acct_db_sums_t *sums)
{
    sums->cpu_ns = s_column_u64(stmt, first);
    sums->mem_byte_s = sqlite3_column_double(stmt, first + 1);
    sums->io_read = s_column_u64(stmt, first + 2);
    sums->io_write = s_column_u64(stmt, first + 3);
    sums->net_rx = s_column_u64(stmt, first + 4);
    sums->net_tx = s_column_u64(stmt, first + 5);
    sums->samples = s_column_u64(stmt, first + 6);
}

static void
s_add_sums(acct_db_sums_t *to, const acct_db_sums_t *from)
{
    to->cpu_ns += from->cpu_ns;
    to->mem_byte_s += from->mem_byte_s;
    to->io_read += from->io_read;
    to->io_write += from->io_write;
    to->net_rx += from->net_rx;
    to->net_tx += from->net_tx;
    to->samples += from->samples;
}

static int
s_add_one(void *arg, int64_t at, int64_t span, const acct_db_sums_t *sums)
{
    (void) at;
    (void) span;
    s_add_sums(arg, sums);
    return 0;
}

int
acct_db_sums_window(
    bus_db_t *db, const char *kernel_id, int64_t from, int64_t to, acct_db_sums_t *sums)
{
    memset(sums, 0, sizeof *sums);
    return acct_db_sums_each(db, kernel_id, from, to, s_add_one, sums);
}

//  The mark of the roll-up: samples with a larger id are not in buckets.
static int64_t
s_rolled(bus_db_t *db)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT value FROM acct_meta WHERE key = 'rolled'");
    if (!stmt)
        return -1;
    int64_t mark = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
    sqlite3_reset(stmt);
    return mark;
}

//  Runs stmt (already bound) and calls fn per row (at, then the sums).
static int
s_each_sums(sqlite3_stmt *stmt, int64_t span, acct_db_sums_fn *fn, void *arg)
{
    int rc = 0, step;
    while ((step = sqlite3_step(stmt)) == SQLITE_ROW) {
        acct_db_sums_t sums;
        s_read_sums(stmt, 1, &sums);
        if (fn(arg, sqlite3_column_int64(stmt, 0), span, &sums) != 0)
            break;
    }
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        rc = -1;
    sqlite3_reset(stmt);
    return rc;
}

int
acct_db_sums_each(bus_db_t *db,
                  const char *kernel_id,
                  int64_t from,
                  int64_t to,
                  acct_db_sums_fn *fn,
                  void *arg)
{
    assert(db && kernel_id && fn);
    int64_t mark = s_rolled(db);
    if (mark < 0)
        return -1;
    sqlite3_stmt *hourly = bus_db_stmt(
        db, "SELECT hour, cpu_ns, mem_byte_s, io_read, io_write, net_rx, net_tx, samples"
            " FROM usage_hourly WHERE kernel_id = ?1 AND hour >= ?2 AND hour < ?3");
    if (!hourly)
        return -1;
    sqlite3_bind_text(hourly, 1, kernel_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(hourly, 2,
                       from - from % ACCT_HOUR_US == from
                           ? from
                           : from - from % ACCT_HOUR_US + ACCT_HOUR_US);
    sqlite3_bind_int64(hourly, 3, to);
    if (s_each_sums(hourly, ACCT_HOUR_US, fn, arg) != 0)
        return -1;
    sqlite3_stmt *raw = bus_db_stmt(
        db,
        "SELECT ts, cpu_ns, mem_byte_s, io_read, io_write, net_rx, net_tx, 1"
        " FROM usage_sample WHERE kernel_id = ?1 AND ts >= ?2 AND ts < ?3 AND id > ?4");
    if (!raw)
        return -1;
    sqlite3_bind_text(raw, 1, kernel_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(raw, 2, from);
    sqlite3_bind_int64(raw, 3, to);
    sqlite3_bind_int64(raw, 4, mark);
    return s_each_sums(raw, 0, fn, arg);
}

//  Binds ?1 ?2 to two ints and runs a write statement. 0 or -1.
static int
s_run2(bus_db_t *db, const char *sql, int64_t a, int64_t b)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, sql);
    if (!stmt)
        return -1;
    sqlite3_bind_int64(stmt, 1, a);
    sqlite3_bind_int64(stmt, 2, b);
    return s_done(stmt);
}

//  Runs a statement with ?1 bound; its changes go to *changes. 0 or -1.
static int
s_run1(bus_db_t *db, const char *sql, int64_t a, int64_t *changes)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, sql);
    if (!stmt)
        return -1;
    sqlite3_bind_int64(stmt, 1, a);
    int rc = s_done(stmt);
    if (rc == 0 && changes)
        *changes = sqlite3_changes(bus_db_handle(db));
    return rc;
}

//  The largest usage_sample id, or -1 when it cannot be read.
static int64_t
s_top(bus_db_t *db)
{
    int64_t top = -1;
    sqlite3_stmt *stmt = bus_db_stmt(db, "SELECT coalesce(max(id), 0) FROM usage_sample");
    if (stmt) {
        if (sqlite3_step(stmt) == SQLITE_ROW)
            top = sqlite3_column_int64(stmt, 0);
        sqlite3_reset(stmt);
    }
    return top;
}

//  Rolls every sample in (mark, top] into its hour and its day once, and
//  moves the mark to top, inside the caller's transaction. 0 or -1.
static int
s_roll(bus_db_t *db, int64_t mark, int64_t top)
{
    int rc =
        s_run2(db,
               "INSERT INTO usage_hourly (kernel_id, hour, cpu_ns, mem_byte_s, io_read,"
               " io_write, net_rx, net_tx, samples)"
               " SELECT kernel_id, ts - ts % 3600000000, sum(cpu_ns), sum(mem_byte_s),"
               " sum(io_read), sum(io_write), sum(net_rx), sum(net_tx), count(*)"
               " FROM usage_sample WHERE id > ?1 AND id <= ?2 GROUP BY 1, 2"
               " ON CONFLICT (kernel_id, hour) DO UPDATE SET"
               " cpu_ns = cpu_ns + excluded.cpu_ns, mem_byte_s = mem_byte_s + "
               "excluded.mem_byte_s,"
               " io_read = io_read + excluded.io_read, io_write = io_write + "
               "excluded.io_write,"
               " net_rx = net_rx + excluded.net_rx, net_tx = net_tx + excluded.net_tx,"
               " samples = samples + excluded.samples",
               mark, top);
    if (rc == 0)
        rc = s_run2(
            db,
            "INSERT INTO usage_daily (domain_name, group_id, user_uuid, day, cpu_ns,"
            " mem_byte_s, io_read, io_write, net_rx, net_tx, samples)"
            " SELECT coalesce(u.domain_name, ''), coalesce(u.group_id, ''),"
            " coalesce(u.user_uuid, ''), s.ts - s.ts % 86400000000, sum(s.cpu_ns),"
            " sum(s.mem_byte_s), sum(s.io_read), sum(s.io_write), sum(s.net_rx),"
            " sum(s.net_tx), count(*)"
            " FROM usage_sample s LEFT JOIN usage u ON u.kernel_id = s.kernel_id"
            " WHERE s.id > ?1 AND s.id <= ?2 GROUP BY 1, 2, 3, 4"
            " ON CONFLICT (group_id, day, user_uuid, domain_name) DO UPDATE SET"
            " cpu_ns = cpu_ns + excluded.cpu_ns,"
            " mem_byte_s = mem_byte_s + excluded.mem_byte_s,"
            " io_read = io_read + excluded.io_read, io_write = io_write + "
            "excluded.io_write,"
            " net_rx = net_rx + excluded.net_rx, net_tx = net_tx + excluded.net_tx,"
            " samples = samples + excluded.samples",
            mark, top);
    if (rc == 0)
        rc =
            s_run1(db, "UPDATE acct_meta SET value = ?1 WHERE key = 'rolled'", top, NULL);
    return rc;
}

int
acct_db_compact(bus_db_t *db, int64_t expire_before, int64_t *rolled, int64_t *expired)
{
    assert(db);
    *rolled = *expired = 0;
    if (bus_db_begin(db) != 0)
        return -1;
    int64_t mark = s_rolled(db), top = s_top(db);
    int rc = mark < 0 || top < 0 ? -1 : 0;
    if (rc == 0 && top > mark) {
        //  The mark moves in the same transaction: nothing is added twice.
        rc = s_roll(db, mark, top);
        if (rc == 0)
            *rolled = top - mark;
        mark = top;
    }
    if (rc == 0) {
        //  Only rolled-up samples expire, so nothing is lost to the sums.
        sqlite3_stmt *stmt =
            bus_db_stmt(db, "DELETE FROM usage_sample WHERE id IN (SELECT id FROM"
                            " usage_sample WHERE ts < ?1 AND id <= ?2 LIMIT ?3)");
        if (!stmt)
            rc = -1;
        else {
            sqlite3_bind_int64(stmt, 1, expire_before);
            sqlite3_bind_int64(stmt, 2, mark);
            sqlite3_bind_int64(stmt, 3, ACCT_DB_EXPIRE_BATCH);
            rc = s_done(stmt);
            if (rc == 0)
                *expired = sqlite3_changes(bus_db_handle(db));
        }
    }
    //  Samples before expire_before may be gone now: the rebuild's horizon.
    if (rc == 0 && *expired > 0)
        rc = s_run1(db,
                    "UPDATE acct_meta SET value = max(value, ?1) WHERE key = 'expired'",
                    expire_before, NULL);
    if (rc == 0)
        return bus_db_commit(db);
    bus_db_rollback(db);
    return -1;
}

//  The first hour (or day, unit) starting at or after at, without overflow.
static int64_t
s_ceil(int64_t at, int64_t unit)
{
    if (at <= 0)
        return 0;
    if (at > INT64_MAX - unit)
        return INT64_MAX - INT64_MAX % unit;
    return at % unit ? at - at % unit + unit : at;
}

int
acct_db_rebuild(bus_db_t *db, acct_db_rebuilt_t *out)
{
    assert(db && out);
    memset(out, 0, sizeof *out);
    if (bus_db_begin(db) != 0)
        return -1;
    int64_t mark = s_rolled(db), top = s_top(db), expired = -1;
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT value FROM acct_meta WHERE key = 'expired'");
    if (stmt) {
        if (sqlite3_step(stmt) == SQLITE_ROW)
            expired = sqlite3_column_int64(stmt, 0);
        sqlite3_reset(stmt);
    }
    int rc = mark < 0 || top < 0 || expired < 0 ? -1 : 0;
    //  First what is pending, as a compaction would: every sample is then
    //  in the buckets once, whatever they held before.
    if (rc == 0 && top > mark) {
        rc = s_roll(db, mark, top);
        out->rolled = top - mark;
    }
    //  From the horizon on every sample is still there: each hour is the
    //  sum of its samples.
    int64_t horizon = s_ceil(expired, ACCT_HOUR_US);
    int64_t day = horizon - horizon % ACCT_DAY_US;
    out->horizon = horizon;
    if (rc == 0)
        rc = s_run1(db, "DELETE FROM usage_hourly WHERE hour >= ?1", horizon, NULL);
    if (rc == 0)
        rc = s_run1(db,
                    "INSERT INTO usage_hourly (kernel_id, hour, cpu_ns, mem_byte_s,"
                    " io_read, io_write, net_rx, net_tx, samples)"
                    " SELECT kernel_id, ts - ts % 3600000000, sum(cpu_ns),"
                    " sum(mem_byte_s), sum(io_read), sum(io_write), sum(net_rx),"
                    " sum(net_tx), count(*) FROM usage_sample"
                    " WHERE ts >= ?1 GROUP BY 1, 2",
                    horizon, &out->hourly);
    //  Each day from the horizon's on is the sum of its hours, under the
    //  owners the records hold now.
    if (rc == 0)
        rc = s_run1(db, "DELETE FROM usage_daily WHERE day >= ?1", day, NULL);
    if (rc == 0)
        rc = s_run1(db,
                    "INSERT INTO usage_daily (domain_name, group_id, user_uuid, day,"
                    " cpu_ns, mem_byte_s, io_read, io_write, net_rx, net_tx, samples)"
                    " SELECT coalesce(u.domain_name, ''), coalesce(u.group_id, ''),"
                    " coalesce(u.user_uuid, ''), h.hour - h.hour % 86400000000,"
                    " sum(h.cpu_ns), sum(h.mem_byte_s), sum(h.io_read), sum(h.io_write),"
                    " sum(h.net_rx), sum(h.net_tx), sum(h.samples)"
                    " FROM usage_hourly h LEFT JOIN usage u ON u.kernel_id = h.kernel_id"
                    " WHERE h.hour >= ?1 GROUP BY 1, 2, 3, 4",
                    day, &out->daily);
    //  Every kernel rewritten: all its buckets against its record's totals.
    stmt =
        rc == 0
            ? bus_db_stmt(db, "WITH k AS (SELECT DISTINCT kernel_id FROM usage_hourly"
                              "  WHERE hour >= ?1),"
                              " h AS (SELECT h.kernel_id, sum(h.cpu_ns) AS cpu_ns,"
                              "  sum(h.io_read) AS io_read, sum(h.io_write) AS io_write,"
                              "  sum(h.net_rx) AS net_rx, sum(h.net_tx) AS net_tx,"
                              "  sum(h.samples) AS samples FROM usage_hourly h"
                              "  JOIN k ON k.kernel_id = h.kernel_id GROUP BY 1)"
                              " SELECT count(*), coalesce(sum(u.kernel_id IS NULL"
                              "  OR u.cpu_ns <> h.cpu_ns OR u.io_read <> h.io_read"
                              "  OR u.io_write <> h.io_write OR u.net_rx <> h.net_rx"
                              "  OR u.net_tx <> h.net_tx OR u.samples <> h.samples), 0)"
                              " FROM h LEFT JOIN usage u ON u.kernel_id = h.kernel_id")
            : NULL;
    if (stmt) {
        sqlite3_bind_int64(stmt, 1, horizon);
        if (sqlite3_step(stmt) == SQLITE_ROW) {
            out->kernels = sqlite3_column_int64(stmt, 0);
            out->mismatched = sqlite3_column_int64(stmt, 1);
        } else
            rc = -1;
        sqlite3_reset(stmt);
    } else
        rc = -1;
    if (rc == 0)
        return bus_db_commit(db);
    bus_db_rollback(db);
    return -1;
}

int
acct_db_sums_all_each(
    bus_db_t *db, int64_t from, int64_t to, acct_db_sums_fn *fn, void *arg)
{
    assert(db && fn);
    int64_t mark = s_rolled(db);
    if (mark < 0)
        return -1;
    sqlite3_stmt *hourly = bus_db_stmt(
        db, "SELECT hour, sum(cpu_ns), sum(mem_byte_s), sum(io_read), sum(io_write),"
            " sum(net_rx), sum(net_tx), sum(samples) FROM usage_hourly"
            " WHERE hour >= ?1 AND hour < ?2 GROUP BY hour");
    if (!hourly)
        return -1;
    sqlite3_bind_int64(hourly, 1, s_ceil(from, ACCT_HOUR_US));
    sqlite3_bind_int64(hourly, 2, to);
    if (s_each_sums(hourly, ACCT_HOUR_US, fn, arg) != 0)
        return -1;
    sqlite3_stmt *raw = bus_db_stmt(
        db, "SELECT ts, cpu_ns, mem_byte_s, io_read, io_write, net_rx, net_tx, 1"
            " FROM usage_sample WHERE ts >= ?1 AND ts < ?2 AND id > ?3");
    if (!raw)
        return -1;
    sqlite3_bind_int64(raw, 1, from);
    sqlite3_bind_int64(raw, 2, to);
    sqlite3_bind_int64(raw, 3, mark);
    return s_each_sums(raw, 0, fn, arg);
}

//  Sums every row of table into sums. 0 or -1.
static int
s_sum_table(bus_db_t *db, const char *sql, acct_db_sums_t *sums)
{
    memset(sums, 0, sizeof *sums);
    sqlite3_stmt *stmt = bus_db_stmt(db, sql);
    if (!stmt)
        return -1;
    int rc = sqlite3_step(stmt) == SQLITE_ROW ? 0 : -1;
    if (rc == 0)
        s_read_sums(stmt, 0, sums);
    sqlite3_reset(stmt);
    return rc;
}

int
acct_db_sums_total(bus_db_t *db,
                   acct_db_sums_t *raw,
                   acct_db_sums_t *hourly,
                   acct_db_sums_t *daily)
{
#define SUMS_OF(table, count)                                                            \
    "SELECT coalesce(sum(cpu_ns), 0), coalesce(sum(mem_byte_s), 0),"                     \
    " coalesce(sum(io_read), 0), coalesce(sum(io_write), 0), coalesce(sum(net_rx), 0),"  \
    " coalesce(sum(net_tx), 0), " count " FROM " table
    if (s_sum_table(db, SUMS_OF("usage_sample", "count(*)"), raw) != 0 ||
        s_sum_table(db, SUMS_OF("usage_hourly", "coalesce(sum(samples), 0)"), hourly) !=
            0 ||
        s_sum_table(db, SUMS_OF("usage_daily", "coalesce(sum(samples), 0)"), daily) != 0)
        return -1;
#undef SUMS_OF
    return 0;
}
