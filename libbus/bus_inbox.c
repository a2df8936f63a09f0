/*  =========================================================================
    bus_inbox - durable-event cursors, in memory and in SQLite

    Advances made inside a transaction are staged and become the cursor only
    when the caller reports the commit, so memory never runs ahead of disk.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

#define INBOX_KEY_MAX (BUS_SRC_MAX + BUS_OUTBOX_DOMAIN_MAX + 2)

static const char s_schema[] = "CREATE TABLE IF NOT EXISTS bus_inbox ("
                               "  src TEXT NOT NULL, domain TEXT NOT NULL,"
                               "  epoch INTEGER NOT NULL, seq INTEGER NOT NULL,"
                               "  PRIMARY KEY (src, domain)) WITHOUT ROWID;";

struct _bus_inbox_t {
    bus_db_t *db;
    zhashx_t *cursors; //  "src domain" -> bus_inbox_cursor_t
    zhashx_t *staged;  //  "src domain" -> bus_inbox_cursor_t (epoch, seq to apply)
};

static void
s_free_item(void **item_p)
{
    free(*item_p);
    *item_p = NULL;
}

static void
s_key(char *out, const char *src, const char *domain)
{
    //  A space cannot occur in a src or a domain, so the key is unambiguous.
    snprintf(out, INBOX_KEY_MAX, "%s %s", src, domain);
}

bus_inbox_t *
bus_inbox_new(bus_db_t *db, bus_error_t *err)
{
    bus_inbox_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->db = db;
    self->cursors = zhashx_new();
    self->staged = zhashx_new();
    if (!self->cursors || !self->staged || bus_db_exec(db, s_schema) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot set up the event inbox");
        bus_inbox_destroy(&self);
        return NULL;
    }
    zhashx_set_destructor(self->cursors, s_free_item);
    zhashx_set_destructor(self->staged, s_free_item);
    sqlite3_stmt *stmt = bus_db_stmt(db, "SELECT src, domain, epoch, seq FROM bus_inbox");
    while (stmt && sqlite3_step(stmt) == SQLITE_ROW) {
        bus_inbox_cursor_t *cursor =
            bus_inbox_cursor(self, (const char *) sqlite3_column_text(stmt, 0),
                             (const char *) sqlite3_column_text(stmt, 1));
        if (cursor) {
            cursor->epoch = (uint64_t) sqlite3_column_int64(stmt, 2);
            cursor->seq = (uint64_t) sqlite3_column_int64(stmt, 3);
        }
    }
    if (stmt)
        sqlite3_reset(stmt);
    return self;
}

void
bus_inbox_destroy(bus_inbox_t **self_p)
{
    assert(self_p);
    if (*self_p) {
        zhashx_destroy(&(*self_p)->cursors);
        zhashx_destroy(&(*self_p)->staged);
        free(*self_p);
        *self_p = NULL;
    }
}

bus_inbox_cursor_t *
bus_inbox_cursor(bus_inbox_t *self, const char *src, const char *domain)
{
    char key[INBOX_KEY_MAX];
    s_key(key, src, domain);
    bus_inbox_cursor_t *cursor = zhashx_lookup(self->cursors, key);
    if (!cursor) {
        cursor = calloc(1, sizeof *cursor);
        if (cursor) {
            snprintf(cursor->src, sizeof cursor->src, "%s", src);
            snprintf(cursor->domain, sizeof cursor->domain, "%s", domain);
            zhashx_insert(self->cursors, key, cursor);
        }
    }
    return cursor;
}

void
bus_inbox_seen(
    bus_inbox_t *self, const char *src, const char *domain, uint64_t epoch, uint64_t head)
{
    assert(self && src && domain);
    char key[INBOX_KEY_MAX];
    s_key(key, src, domain);
    bus_inbox_cursor_t *cursor = zhashx_lookup(self->cursors, key);
    if (!cursor || cursor->epoch != epoch || head <= cursor->head)
        return;
    cursor->head = head;
    if (head > cursor->seq && cursor->behind_since_ms == 0)
        cursor->behind_since_ms = bus_clock_mono_ms();
}

const bus_inbox_cursor_t *
bus_inbox_first(bus_inbox_t *self)
{
    assert(self);
    return zhashx_first(self->cursors);
}

const bus_inbox_cursor_t *
bus_inbox_next(bus_inbox_t *self)
{
    assert(self);
    return zhashx_next(self->cursors);
}

uint64_t
bus_inbox_applied(bus_inbox_t *self, const char *src, const char *domain)
{
    char key[INBOX_KEY_MAX];
    s_key(key, src, domain);
    bus_inbox_cursor_t *cursor = zhashx_lookup(self->cursors, key);
    return cursor ? cursor->seq : 0;
}

bus_inbox_verdict_t
bus_inbox_check(
    bus_inbox_t *self, const char *src, const char *domain, uint64_t epoch, uint64_t seq)
{
    bus_inbox_cursor_t *cursor = bus_inbox_cursor(self, src, domain);
    if (!cursor)
        return BUS_INBOX_GAP;
    //  Inside a transaction that already applied events of this stream, the
    //  staged position is the current one.
    char key[INBOX_KEY_MAX];
    s_key(key, src, domain);
    bus_inbox_cursor_t *staged = zhashx_lookup(self->staged, key);
    if (staged && staged->epoch == epoch) {
        if (seq <= staged->seq)
            return BUS_INBOX_DUPLICATE;
        return seq == staged->seq + 1 ? BUS_INBOX_APPLY : BUS_INBOX_GAP;
    }
    if (cursor->epoch != epoch) {
        if (cursor->epoch != 0)
            bus_log_warning("publisher database was rebuilt; following its new stream "
                            "src=%s domain=%s old_epoch=%" PRIu64 " epoch=%" PRIu64
                            " applied=%" PRIu64,
                            src, domain, cursor->epoch, epoch, cursor->seq);
        cursor->epoch = epoch;
        cursor->seq = 0;
        cursor->head = 0; //  the new stream's head is heard of anew
        cursor->behind_since_ms = 0;
    }
    if (seq <= cursor->seq)
        return BUS_INBOX_DUPLICATE;
    return seq == cursor->seq + 1 ? BUS_INBOX_APPLY : BUS_INBOX_GAP;
}

int
bus_inbox_advance(
    bus_inbox_t *self, const char *src, const char *domain, uint64_t epoch, uint64_t seq)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        self->db,
        "INSERT INTO bus_inbox (src, domain, epoch, seq) VALUES (?1, ?2, ?3, ?4)"
        " ON CONFLICT (src, domain) DO UPDATE SET epoch = ?3, seq = ?4");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, src, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, domain, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, (int64_t) epoch);
    sqlite3_bind_int64(stmt, 4, (int64_t) seq);
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc != SQLITE_DONE)
        return -1;
    char key[INBOX_KEY_MAX];
    s_key(key, src, domain);
    bus_inbox_cursor_t *staged = zhashx_lookup(self->staged, key);
    if (!staged) {
        staged = calloc(1, sizeof *staged);
        if (!staged)
            return -1;
        zhashx_insert(self->staged, key, staged);
    }
    staged->epoch = epoch;
    staged->seq = seq;
    return 0;
}

void
bus_inbox_committed(bus_inbox_t *self)
{
    for (bus_inbox_cursor_t *staged = zhashx_first(self->staged); staged;
         staged = zhashx_next(self->staged)) {
        bus_inbox_cursor_t *cursor =
            zhashx_lookup(self->cursors, zhashx_cursor(self->staged));
        if (cursor) {
            cursor->epoch = staged->epoch;
            cursor->seq = staged->seq;
            if (cursor->seq >= cursor->head)
                cursor->behind_since_ms = 0; //  caught up
        }
    }
    zhashx_purge(self->staged);
}

void
bus_inbox_discard(bus_inbox_t *self)
{
    zhashx_purge(self->staged);
}
