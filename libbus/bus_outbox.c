/*  =========================================================================
    bus_outbox - the publisher side of durable events

    The headers of stored events are rebuilt from their columns when sent
    or replayed, so a live event and its replay are byte-for-byte the same
    envelope, and a sequence number is only taken by a row that committed.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

static const char s_schema[] =
    "CREATE TABLE IF NOT EXISTS bus_outbox ("
    "  domain TEXT NOT NULL, seq INTEGER NOT NULL, id BLOB NOT NULL,"
    "  ts INTEGER NOT NULL, topic TEXT NOT NULL, corr TEXT NOT NULL DEFAULT '',"
    "  body BLOB NOT NULL, PRIMARY KEY (domain, seq)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS bus_outbox_meta ("
    "  key TEXT PRIMARY KEY, value INTEGER NOT NULL);";

#define SQL_NEXT_SEQ "SELECT coalesce(max(seq), 0) + 1 FROM bus_outbox WHERE domain = ?1"
#define SQL_INSERT                                                                       \
    "INSERT INTO bus_outbox (domain, seq, id, ts, topic, corr, body)"                    \
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
#define SQL_SELECT_FROM                                                                  \
    "SELECT seq, id, ts, topic, corr, body FROM bus_outbox"                              \
    " WHERE domain = ?1 AND seq >= ?2 ORDER BY seq LIMIT ?3"
#define SQL_FIRST "SELECT coalesce(min(seq), 0) FROM bus_outbox WHERE domain = ?1"

typedef struct {
    uint64_t published; //  last sequence number sent live
    bool dirty;         //  appended since the last flush
} domain_state_t;

struct _bus_outbox_t {
    bus_db_t *db;
    char src[BUS_SRC_MAX];
    uint64_t epoch;
    zhashx_t *domains; //  domain -> domain_state_t
    bus_writer_t *header;
    bool any_dirty;
};

bool
bus_topic_domain(const char *topic, char *out, size_t out_size)
{
    const char *dot = strchr(topic, '.');
    if (!dot || dot == topic || (size_t) (dot - topic) >= out_size)
        return false;
    memcpy(out, topic, (size_t) (dot - topic));
    out[dot - topic] = 0;
    return true;
}

static void
s_free_item(void **item_p)
{
    free(*item_p);
    *item_p = NULL;
}

static domain_state_t *
s_domain(bus_outbox_t *self, const char *domain)
{
    domain_state_t *state = zhashx_lookup(self->domains, domain);
    if (!state) {
        state = calloc(1, sizeof *state);
        if (state)
            zhashx_insert(self->domains, domain, state);
    }
    return state;
}

//  A number for this boot of the machine (FNV-1a of the kernel's boot id),
//  0 when it cannot be read.
static int64_t
s_boot_id(void)
{
    char text[64] = "";
    FILE *file = fopen("/proc/sys/kernel/random/boot_id", "re");
    if (file) {
        if (!fgets(text, sizeof text, file))
            text[0] = '\0';
        fclose(file);
    }
    uint64_t hash = 14695981039346656037ull;
    for (const char *p = text; *p && *p != '\n'; p++)
        hash = (hash ^ (uint8_t) *p) * 1099511628211ull;
    return *text ? (int64_t) (hash & INT64_MAX) : 0;
}

static int64_t
s_meta(bus_outbox_t *self, const char *key)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(self->db, "SELECT value FROM bus_outbox_meta WHERE key = ?1");
    int64_t value = 0;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
        if (sqlite3_step(stmt) == SQLITE_ROW)
            value = sqlite3_column_int64(stmt, 0);
        sqlite3_reset(stmt);
    }
    return value;
}

static int
s_set_meta(bus_outbox_t *self, const char *key, int64_t value)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        self->db, "INSERT OR REPLACE INTO bus_outbox_meta (key, value) VALUES (?1, ?2)");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, value);
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? 0 : -1;
}

//  Whether the sequence may have gone back: the database runs with
//  synchronous=NORMAL (bus_db), so a commit reaches the disk at the next
//  checkpoint, not when it returns. A process that dies loses nothing (the
//  operating system still writes what it was given), but a machine that
//  stops (power, kernel panic, a VM killed) can lose the last commits, and
//  with them sequence numbers that subscribers have already applied: the
//  same numbers, taken again by new events, would be dropped as duplicates.
//  So when the outbox was left open (no clean destroy) and the machine has
//  booted since, the stream starts over under a new epoch: subscribers see
//  the new epoch, start their cursor afresh and apply every new event. What
//  a subscriber had not fetched of the old stream is left to the services'
//  reconciliation, as for any event older than the retained window.
static bool
s_machine_stopped_under_us(bus_outbox_t *self, int64_t boot)
{
    return s_meta(self, "open") != 0 && boot != 0 && s_meta(self, "boot") != boot;
}

//  Reads or creates the epoch (a new one after the machine stopped under a
//  running publisher), marks the outbox open, and marks everything already
//  stored as published: after a restart, subscribers fetch what they lack
//  by replay.
static int
s_load(bus_outbox_t *self)
{
    int64_t boot = s_boot_id();
    self->epoch = (uint64_t) s_meta(self, "epoch");
    if (self->epoch != 0 && s_machine_stopped_under_us(self, boot)) {
        bus_log_warning("the machine stopped while this publisher ran: commits since the "
                        "last sync to disk may be lost, and their sequence numbers "
                        "reused; starting a new epoch src=%s old_epoch=%" PRIu64,
                        self->src, self->epoch);
        if (bus_db_exec(self->db, "DELETE FROM bus_outbox") != 0)
            return -1;
        self->epoch = 0;
    }
    if (s_set_meta(self, "boot", boot) != 0 || s_set_meta(self, "open", 1) != 0)
        return -1;
    if (self->epoch == 0) {
        uint8_t id[BUS_EVENT_ID_SIZE];
        bus_event_id_new(id);
        uint64_t epoch = (uint64_t) bus_clock_wall_us();
        for (int i = 0; i < 8; i++)
            epoch ^= (uint64_t) id[i] << (8 * i);
        self->epoch = (epoch & INT64_MAX) | 1;
        if (s_set_meta(self, "epoch", (int64_t) self->epoch) != 0)
            return -1;
    }
    sqlite3_stmt *stmt =
        bus_db_stmt(self->db, "SELECT domain, max(seq) FROM bus_outbox GROUP BY domain");
    if (!stmt)
        return -1;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        domain_state_t *state =
            s_domain(self, (const char *) sqlite3_column_text(stmt, 0));
        if (state)
            state->published = (uint64_t) sqlite3_column_int64(stmt, 1);
    }
    sqlite3_reset(stmt);
    return 0;
}

//  s_load in one transaction: a new epoch and the end of the old stream's
//  rows happen together or not at all. That commit, and it alone, is
//  synchronous=FULL (one fsync per start): the mark that the outbox is open
//  must be on the disk before any event of this run is published. Under
//  NORMAL a power loss could take the mark with the events, and the outbox
//  would look closed cleanly at its old head, keep its epoch and hand the
//  lost numbers out again (bus_outbox_test:
//  test_power_loss_never_reuses_a_number). Inside a caller's transaction
//  the caller's commit decides.
static int
s_load_atomically(bus_outbox_t *self)
{
    bool own = !bus_db_in_transaction(self->db);
    if (own && (bus_db_exec(self->db, "PRAGMA synchronous = FULL") != 0 ||
                bus_db_begin(self->db) != 0))
        return -1;
    int rc = s_load(self);
    if (own && (rc != 0 ? bus_db_rollback(self->db) : bus_db_commit(self->db)) != 0)
        rc = -1;
    if (own && bus_db_exec(self->db, "PRAGMA synchronous = NORMAL") != 0)
        rc = -1;
    return rc;
}

bus_outbox_t *
bus_outbox_new(bus_db_t *db, const char *src, bus_error_t *err)
{
    assert(db && src);
    bus_outbox_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->db = db;
    snprintf(self->src, sizeof self->src, "%s", src);
    self->domains = zhashx_new();
    self->header = bus_writer_new();
    if (!self->domains || !self->header || bus_db_exec(db, s_schema) != 0 ||
        s_load_atomically(self) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot set up the event outbox");
        bus_outbox_destroy(&self);
        return NULL;
    }
    zhashx_set_destructor(self->domains, s_free_item);
    return self;
}

void
bus_outbox_destroy(bus_outbox_t **self_p)
{
    assert(self_p);
    bus_outbox_t *self = *self_p;
    if (self) {
        //  a clean end: the next start needs no new epoch (see s_load)
        if (self->epoch && !bus_db_in_transaction(self->db))
            s_set_meta(self, "open", 0);
        if (self->domains)
            zhashx_set_destructor(self->domains, s_free_item);
        zhashx_destroy(&self->domains);
        bus_writer_destroy(&self->header);
        free(self);
        *self_p = NULL;
    }
}

uint64_t
bus_outbox_epoch(bus_outbox_t *self)
{
    return self->epoch;
}

uint64_t
bus_outbox_append(bus_outbox_t *self,
                  const char *topic,
                  const void *body,
                  size_t body_size)
{
    char domain[BUS_OUTBOX_DOMAIN_MAX];
    if (!bus_topic_domain(topic, domain, sizeof domain) ||
        strlen(topic) >= BUS_TOPIC_MAX) {
        bus_log_error("outbox refuses topic without a domain topic=%s", topic);
        return 0;
    }
    domain_state_t *state = s_domain(self, domain);
    if (!state || bus_db_begin(self->db) != 0)
        return 0;
    uint64_t seq = 0;
    sqlite3_stmt *next = bus_db_stmt(self->db, SQL_NEXT_SEQ);
    sqlite3_stmt *insert = bus_db_stmt(self->db, SQL_INSERT);
    if (next && insert) {
        sqlite3_bind_text(next, 1, domain, -1, SQLITE_STATIC);
        if (sqlite3_step(next) == SQLITE_ROW)
            seq = (uint64_t) sqlite3_column_int64(next, 0);
        sqlite3_reset(next);
    }
    if (seq) {
        uint8_t id[BUS_EVENT_ID_SIZE];
        bus_event_id_new(id);
        sqlite3_bind_text(insert, 1, domain, -1, SQLITE_STATIC);
        sqlite3_bind_int64(insert, 2, (int64_t) seq);
        sqlite3_bind_blob(insert, 3, id, sizeof id, SQLITE_STATIC);
        sqlite3_bind_int64(insert, 4, bus_clock_bus_us());
        sqlite3_bind_text(insert, 5, topic, -1, SQLITE_STATIC);
        sqlite3_bind_text(insert, 6, bus_log_corr(), -1, SQLITE_STATIC);
        sqlite3_bind_blob(insert, 7, body_size ? body : "", (int) body_size,
                          SQLITE_STATIC);
        if (sqlite3_step(insert) != SQLITE_DONE) {
            bus_log_error("outbox insert failed topic=%s reason=\"%s\"", topic,
                          sqlite3_errmsg(bus_db_handle(self->db)));
            seq = 0;
        }
        sqlite3_reset(insert);
    }
    if (seq == 0) {
        bus_db_rollback(self->db);
        return 0;
    }
    if (bus_db_commit(self->db) != 0)
        return 0;
    state->dirty = true;
    self->any_dirty = true;
    return seq;
}

//  Encodes the envelope header of a stored row into self->header.
static void
s_write_header(bus_outbox_t *self, sqlite3_stmt *row)
{
    bus_header_t header;
    memset(&header, 0, sizeof header);
    header.version = BUS_ENVELOPE_VERSION;
    header.seq = (uint64_t) sqlite3_column_int64(row, 0);
    header.epoch = self->epoch;
    if (sqlite3_column_bytes(row, 1) == BUS_EVENT_ID_SIZE)
        memcpy(header.id, sqlite3_column_blob(row, 1), BUS_EVENT_ID_SIZE);
    header.ts = sqlite3_column_int64(row, 2);
    snprintf(header.src, sizeof header.src, "%s", self->src);
    const char *corr = (const char *) sqlite3_column_text(row, 4);
    snprintf(header.corr, sizeof header.corr, "%s", corr ? corr : "");
    bus_writer_reset(self->header);
    bus_header_write(&header, self->header);
}

int
bus_outbox_flush(bus_outbox_t *self, bus_pub_t *pub)
{
    if (!self->any_dirty || bus_db_in_transaction(self->db))
        return 0;
    int sent = 0;
    const char *domain;
    for (domain_state_t *state = zhashx_first(self->domains); state;
         state = zhashx_next(self->domains)) {
        if (!state->dirty)
            continue;
        domain = zhashx_cursor(self->domains);
        sqlite3_stmt *stmt = bus_db_stmt(self->db, SQL_SELECT_FROM);
        if (!stmt)
            return -1;
        int rows;
        do {
            rows = 0;
            sqlite3_bind_text(stmt, 1, domain, -1, SQLITE_STATIC);
            sqlite3_bind_int64(stmt, 2, (int64_t) state->published + 1);
            sqlite3_bind_int(stmt, 3, BUS_OUTBOX_FLUSH_BATCH);
            while (sqlite3_step(stmt) == SQLITE_ROW) {
                s_write_header(self, stmt);
                //  A full queue drops the live copy; subscribers replay it.
                bus_pub_send_raw(
                    pub, (const char *) sqlite3_column_text(stmt, 3),
                    bus_writer_data(self->header), bus_writer_size(self->header),
                    sqlite3_column_blob(stmt, 5), (size_t) sqlite3_column_bytes(stmt, 5));
                state->published = (uint64_t) sqlite3_column_int64(stmt, 0);
                rows++;
            }
            sqlite3_reset(stmt);
            sent += rows;
        } while (rows == BUS_OUTBOX_FLUSH_BATCH);
        state->dirty = false;
    }
    self->any_dirty = false;
    return sent;
}

uint64_t
bus_outbox_publish(bus_outbox_t *self,
                   bus_pub_t *pub,
                   const char *topic,
                   const void *body,
                   size_t body_size)
{
    uint64_t seq = bus_outbox_append(self, topic, body, body_size);
    if (seq)
        bus_outbox_flush(self, pub);
    return seq;
}

uint64_t
bus_outbox_head(bus_outbox_t *self, const char *domain)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        self->db, "SELECT coalesce(max(seq), 0) FROM bus_outbox WHERE domain = ?1");
    if (!stmt)
        return 0;
    sqlite3_bind_text(stmt, 1, domain, -1, SQLITE_STATIC);
    uint64_t head =
        sqlite3_step(stmt) == SQLITE_ROW ? (uint64_t) sqlite3_column_int64(stmt, 0) : 0;
    sqlite3_reset(stmt);
    return head;
}

size_t
bus_outbox_streams(bus_outbox_t *self, bus_outbox_stream_t *out, size_t max)
{
    assert(self && (out || max == 0));
    size_t count = 0;
    for (domain_state_t *state = zhashx_first(self->domains); state && count < max;
         state = zhashx_next(self->domains)) {
        bus_outbox_stream_t *stream = &out[count++];
        snprintf(stream->domain, sizeof stream->domain, "%s",
                 (const char *) zhashx_cursor(self->domains));
        stream->published = state->published;
        stream->head = bus_outbox_head(self, stream->domain);
        stream->first = 0;
        sqlite3_stmt *stmt = bus_db_stmt(self->db, SQL_FIRST);
        if (stmt) {
            sqlite3_bind_text(stmt, 1, stream->domain, -1, SQLITE_STATIC);
            if (sqlite3_step(stmt) == SQLITE_ROW)
                stream->first = (uint64_t) sqlite3_column_int64(stmt, 0);
            sqlite3_reset(stmt);
        }
    }
    return count;
}

int
bus_outbox_replay(bus_outbox_t *self,
                  const char *domain,
                  uint64_t from_seq,
                  uint64_t max,
                  bus_writer_t *writer)
{
    if (max == 0 || max > BUS_OUTBOX_REPLAY_MAX)
        max = BUS_OUTBOX_REPLAY_MAX;
    if (from_seq == 0)
        from_seq = 1;
    uint64_t head = bus_outbox_head(self, domain), first = 0;
    sqlite3_stmt *stmt = bus_db_stmt(self->db, SQL_FIRST);
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    sqlite3_bind_text(stmt, 1, domain, -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) == SQLITE_ROW)
        first = (uint64_t) sqlite3_column_int64(stmt, 0);
    sqlite3_reset(stmt);
    uint64_t count = 0;
    if (from_seq <= head) {
        uint64_t start = from_seq > first ? from_seq : first;
        count = head - start + 1 < max ? head - start + 1 : max;
    }
    //  Same shape as proto bus.replay reply: {domain, epoch, head,
    //  first_retained, events: [{topic, header, body}]}.
    bus_writer_map(writer, 5);
    bus_writer_str(writer, "domain");
    bus_writer_str(writer, domain);
    bus_writer_str(writer, "epoch");
    bus_writer_uint(writer, self->epoch);
    bus_writer_str(writer, "head");
    bus_writer_uint(writer, head);
    bus_writer_str(writer, "first_retained");
    bus_writer_uint(writer, first);
    bus_writer_str(writer, "events");
    bus_writer_array(writer, (uint32_t) count);
    stmt = bus_db_stmt(self->db, SQL_SELECT_FROM);
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    sqlite3_bind_text(stmt, 1, domain, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, (int64_t) from_seq);
    sqlite3_bind_int64(stmt, 3, (int64_t) count);
    uint64_t written = 0;
    while (written < count && sqlite3_step(stmt) == SQLITE_ROW) {
        s_write_header(self, stmt);
        bus_writer_map(writer, 3);
        bus_writer_str(writer, "topic");
        bus_writer_str(writer, (const char *) sqlite3_column_text(stmt, 3));
        bus_writer_str(writer, "header");
        bus_writer_bin(writer, bus_writer_data(self->header),
                       bus_writer_size(self->header));
        bus_writer_str(writer, "body");
        bus_writer_bin(writer, sqlite3_column_blob(stmt, 5),
                       (size_t) sqlite3_column_bytes(stmt, 5));
        written++;
    }
    sqlite3_reset(stmt);
    //  Rows cannot vanish between the count and the read: one thread owns
    //  the database. A short read would be a bug; fail rather than lie.
    return written == count ? BUS_OK : BUS_STATUS_INTERNAL;
}

int
bus_outbox_trim(bus_outbox_t *self, int64_t retain)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        self->db, "DELETE FROM bus_outbox WHERE seq <= (SELECT max(seq) FROM bus_outbox b"
                  " WHERE b.domain = bus_outbox.domain) - ?1");
    if (!stmt)
        return -1;
    sqlite3_bind_int64(stmt, 1, retain);
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? sqlite3_changes(bus_db_handle(self->db)) : -1;
}
