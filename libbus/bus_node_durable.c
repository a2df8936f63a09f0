/*  =========================================================================
    bus_node_durable - following durable domains: apply in order, replay what is missing

    A followed domain's events are applied with the subscriber's cursor in
    one transaction (bus_inbox); a gap asks the publisher for what is
    missing (bus.replay), and the sync of every peer's streams, run each
    time the peer list is refreshed, catches what a gap cannot show. The
    publisher's side of bus.replay, node_serve_replay, reads the outbox.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_node_private.h"

//  ---------------------------------------------------------------------------
//  Durable events: apply in order, replay what is missing

typedef struct {
    node_follow_t *follow;
    char src[BUS_SRC_MAX];
    uint64_t round; //  the cursor's replay_round when it was asked
} replay_ctx_t;

static void s_replay(node_follow_t *follow, const char *src);

//  Applies one durable event and advances its cursor atomically: in a
//  transaction of its own, or, inside the pump's batch transaction, under a
//  savepoint, so a failing event is undone alone and the others stand.
static int
s_apply(node_follow_t *follow, const bus_event_t *event)
{
    bus_node_t *self = follow->node;
    bool batch = bus_db_in_transaction(self->db);
    if (batch ? bus_db_exec(self->db, "SAVEPOINT bus_apply") != 0
              : bus_node_begin(self) != 0)
        return -1;
    if (follow->fn(follow->arg, self, event) != 0 ||
        bus_inbox_advance(self->inbox, event->header.src, follow->domain,
                          event->header.epoch, event->header.seq) != 0) {
        if (batch)
            bus_db_exec(self->db, "ROLLBACK TO bus_apply; RELEASE bus_apply");
        else {
            bus_node_rollback(self);
            bus_inbox_discard(self->inbox);
        }
        return -1;
    }
    if (batch)
        bus_db_exec(self->db, "RELEASE bus_apply");
    else if (bus_node_commit(self) != 0) {
        bus_inbox_discard(self->inbox);
        return -1;
    }
    self->durable_applied++;
    return 0;
}

//  An event already applied (its stream's cursor is at or past its seq)
//  is ignored: a live event that a catch-up brought first, or a frame
//  captured and sent again, from its host or another. Said at notice, at
//  most once per stream every BUS_INBOX_DUPLICATE_LOG_MS, with how many.
static void
s_duplicate(node_follow_t *follow, const bus_event_t *event)
{
    bus_inbox_cursor_t *cursor =
        bus_inbox_cursor(follow->node->inbox, event->header.src, follow->domain);
    if (!cursor)
        return;
    cursor->duplicates++;
    int64_t now = bus_clock_mono_ms();
    if (cursor->duplicate_logged_ms &&
        now - cursor->duplicate_logged_ms < BUS_INBOX_DUPLICATE_LOG_MS)
        return;
    bus_log_notice("durable event already applied; ignored topic=%s src=%s"
                   " epoch=%" PRIu64 " seq=%" PRIu64 " applied=%" PRIu64
                   " duplicates=%" PRIu64,
                   event->topic, event->header.src, event->header.epoch,
                   event->header.seq, cursor->seq, cursor->duplicates);
    cursor->duplicate_logged_ms = now;
    cursor->duplicates = 0;
}

static void
s_on_durable(void *arg, const bus_event_t *event)
{
    node_follow_t *follow = arg;
    if (event->header.seq == 0) {
        bus_log_debug("ephemeral event in a durable domain ignored topic=%s",
                      event->topic);
        return;
    }
    bus_inbox_verdict_t verdict =
        bus_inbox_check(follow->node->inbox, event->header.src, follow->domain,
                        event->header.epoch, event->header.seq);
    //  How far the publisher has written, for the lag /metrics shows.
    bus_inbox_seen(follow->node->inbox, event->header.src, follow->domain,
                   event->header.epoch, event->header.seq);
    switch (verdict) {
        case BUS_INBOX_APPLY:
            if (s_apply(follow, event) != 0)
                bus_log_warning("durable event not applied; will retry topic=%s src=%s "
                                "seq=%" PRIu64,
                                event->topic, event->header.src, event->header.seq);
            break;
        case BUS_INBOX_DUPLICATE:
            s_duplicate(follow, event);
            break;
        case BUS_INBOX_GAP:
            s_replay(follow, event->header.src);
            break;
    }
}

static const proto_registry_peer_t *
s_peer_by_src(bus_node_t *self, const char *src)
{
    char peer_src[BUS_SRC_MAX];
    for (size_t i = 0; i < self->peers.peers_count; i++) {
        const proto_registry_peer_t *peer = &self->peers.peers[i];
        snprintf(peer_src, sizeof peer_src, "%s/%s", peer->service, peer->node);
        if (strcmp(peer_src, src) == 0)
            return peer;
    }
    return NULL;
}

static void
s_on_replay(void *arg, const bus_reply_t *reply)
{
    replay_ctx_t *ctx = arg;
    node_follow_t *follow = ctx->follow;
    bus_node_t *self = follow->node;
    bus_inbox_cursor_t *cursor = bus_inbox_cursor(self->inbox, ctx->src, follow->domain);
    //  Only the latest request's answer ends the replay: an older one went
    //  to where the publisher was before it came back elsewhere.
    if (cursor && cursor->replay_round == ctx->round)
        cursor->replaying = false;
    proto_bus_replay_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK) {
        bus_log_info("replay failed src=%s domain=%s status=%s detail=\"%s\"", ctx->src,
                     follow->domain, bus_status_str(reply->status), reply->detail);
        free(ctx);
        return;
    }
    if (proto_bus_replay_rep_decode(&rep, reply->body, reply->body_size, &err) !=
        BUS_OK) {
        bus_log_warning("replay reply malformed src=%s reason=\"%s\"", ctx->src,
                        err.detail);
        free(ctx);
        return;
    }
    bus_reader_t *reader = bus_reader_new();
    bool more = rep.events_count > 0;
    if (reader && rep.events_count && bus_node_begin(self) == 0) {
        bool failed = false;
        for (size_t i = 0; i < rep.events_count && !failed; i++) {
            const proto_bus_frame_t *frame = &rep.events[i];
            bus_event_t event;
            if (bus_event_parse(&event, reader, frame->topic, strlen(frame->topic),
                                frame->header, frame->header_size, frame->body,
                                frame->body_size, &err) != BUS_OK ||
                strcmp(event.header.src, ctx->src) != 0) {
                bus_log_warning("replayed event malformed src=%s reason=\"%s\"", ctx->src,
                                err.detail);
                failed = true;
                break;
            }
            bus_inbox_verdict_t verdict =
                bus_inbox_check(self->inbox, ctx->src, follow->domain, event.header.epoch,
                                event.header.seq);
            if (verdict == BUS_INBOX_DUPLICATE)
                continue;
            if (verdict == BUS_INBOX_GAP) {
                //  Only retention can open a gap inside a replay: the events
                //  are gone for good. Say so, and carry on from here.
                bus_log_error("durable events lost to the publisher's retention src=%s "
                              "domain=%s missing_before=%" PRIu64,
                              ctx->src, follow->domain, event.header.seq);
            }
            if (follow->fn(follow->arg, self, &event) != 0 ||
                bus_inbox_advance(self->inbox, ctx->src, follow->domain,
                                  event.header.epoch, event.header.seq) != 0)
                failed = true;
            else if (cursor) {
                //  Later checks in this batch compare against the staged position.
                cursor->epoch = event.header.epoch;
                cursor->seq = event.header.seq;
                self->durable_replayed++;
            }
        }
        if (failed) {
            bus_node_rollback(self);
            bus_inbox_discard(self->inbox);
            more = false;
            //  Reload the cursor from the database's view: nothing moved.
            sqlite3_stmt *stmt = bus_db_stmt(
                self->db,
                "SELECT epoch, seq FROM bus_inbox WHERE src = ?1 AND domain = ?2");
            if (stmt && cursor) {
                sqlite3_bind_text(stmt, 1, ctx->src, -1, SQLITE_STATIC);
                sqlite3_bind_text(stmt, 2, follow->domain, -1, SQLITE_STATIC);
                cursor->epoch = cursor->seq = 0;
                if (sqlite3_step(stmt) == SQLITE_ROW) {
                    cursor->epoch = (uint64_t) sqlite3_column_int64(stmt, 0);
                    cursor->seq = (uint64_t) sqlite3_column_int64(stmt, 1);
                }
                sqlite3_reset(stmt);
            }
        } else if (bus_node_commit(self) != 0) {
            bus_inbox_discard(self->inbox);
            more = false;
        }
    }
    bus_reader_destroy(&reader);
    bus_inbox_seen(self->inbox, ctx->src, follow->domain, rep.epoch, rep.head);
    bool behind = cursor && rep.epoch == cursor->epoch && cursor->seq < rep.head;
    proto_bus_replay_rep_clear(&rep);
    if (more && behind)
        s_replay(follow, ctx->src);
    free(ctx);
}

uint64_t
bus_node_applied(bus_node_t *self, const char *src, const char *domain)
{
    assert(self && src && domain);
    return self->inbox ? bus_inbox_applied(self->inbox, src, domain) : 0;
}

//  Asks the publisher src for the events of follow's domain after the cursor.
static void
s_replay(node_follow_t *follow, const char *src)
{
    bus_node_t *self = follow->node;
    bus_inbox_cursor_t *cursor = bus_inbox_cursor(self->inbox, src, follow->domain);
    if (!cursor)
        return;
    const proto_registry_peer_t *peer = s_peer_by_src(self, src);
    if (!peer || !peer->rpc_endpoint || !*peer->rpc_endpoint)
        return; //  not known yet: the next sync finds it
    //  One replay at a time, unless the one out went to an address the
    //  publisher has left (it restarted on another port): ask it anew there
    //  rather than wait for the old request to time out. Events that come
    //  twice are skipped by the cursor.
    if (cursor->replaying && strcmp(cursor->replay_endpoint, peer->rpc_endpoint) == 0)
        return;
    proto_bus_replay_req_t req;
    proto_bus_replay_req_init(&req);
    req.domain = follow->domain;
    req.epoch = cursor->epoch;
    req.from_seq = cursor->seq + 1;
    req.max = BUS_NODE_REPLAY_BATCH;
    bus_writer_reset(self->scratch);
    int rc = proto_bus_replay_req_write(&req, self->scratch);
    replay_ctx_t *ctx = rc == 0 ? calloc(1, sizeof *ctx) : NULL;
    if (!ctx)
        return;
    ctx->follow = follow;
    snprintf(ctx->src, sizeof ctx->src, "%s", src);
    ctx->round = cursor->replay_round + 1;
    if (bus_node_call(self, peer->rpc_endpoint, PROTO_BUS_REPLAY,
                      bus_writer_data(self->scratch), bus_writer_size(self->scratch), 0,
                      s_on_replay, ctx)) {
        cursor->replaying = true;
        cursor->replay_started_ms = bus_clock_mono_ms();
        cursor->replay_round = ctx->round;
        snprintf(cursor->replay_endpoint, sizeof cursor->replay_endpoint, "%s",
                 peer->rpc_endpoint);
    } else
        free(ctx);
}

//  The safety net: ask every peer for what each followed domain lacks.
void
node_sync(bus_node_t *self)
{
    char src[BUS_SRC_MAX];
    for (size_t i = 0; i < self->peers.peers_count; i++) {
        const proto_registry_peer_t *peer = &self->peers.peers[i];
        snprintf(src, sizeof src, "%s/%s", peer->service, peer->node);
        for (int f = 0; f < self->follow_count; f++)
            s_replay(&self->follows[f], src);
    }
}

int
bus_node_follow(bus_node_t *self, const char *domain, bus_node_apply_fn *fn, void *arg)
{
    if (self->follow_count == NODE_FOLLOW_MAX ||
        strlen(domain) >= BUS_OUTBOX_DOMAIN_MAX || strchr(domain, '.') || !*domain)
        return -1;
    node_follow_t *follow = &self->follows[self->follow_count++];
    follow->node = self;
    snprintf(follow->domain, sizeof follow->domain, "%s", domain);
    snprintf(follow->prefix, sizeof follow->prefix, "%s.", domain);
    follow->fn = fn;
    follow->arg = arg;
    return bus_sub_subscribe(self->sub, follow->prefix, s_on_durable, follow);
}

int
node_serve_replay(void *arg,
                  bus_rpc_request_t *req,
                  const void *body,
                  size_t size,
                  bus_writer_t *reply,
                  bus_error_t *err)
{
    (void) req;
    bus_node_t *self = arg;
    proto_bus_replay_req_t in;
    int rc = proto_bus_replay_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    rc = bus_outbox_replay(self->outbox, in.domain, in.from_seq, in.max, reply);
    proto_bus_replay_req_clear(&in);
    return rc;
}
