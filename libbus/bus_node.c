/*  =========================================================================
    bus_node - a service process on the bus, on a libevent loop

    ZeroMQ sockets signal readiness through a file descriptor that is edge
    triggered: it fires when the socket's state changes, and a send or a
    receive may consume that change. So the node never trusts a single
    callback to mean "one message": every socket callback and every API
    call that sends schedules one "pump", which serves every socket until a
    whole pass finds nothing left to read. That is the fix for the lost
    wake-up that bites every libevent+ZeroMQ integration.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <netinet/in.h> //  sockaddr_in for the health endpoint's bound port
#include <signal.h>     //  SIG_IGN once stopping: see bus_node_destroy
#include <sys/socket.h>
#include <sys/stat.h> //  mkdir for the state directory

#define NODE_RPC_TICK_MS      10  //  deadline resolution of outgoing calls
#define NODE_PUMP_EVENTS      256 //  events read per pass of the pump
#define NODE_PUMP_PASSES      8   //  passes before yielding to the event loop
#define NODE_PUMP_BUDGET_MS   50  //  or once a pass ends this long after the start
#define NODE_FOLLOW_MAX       16
#define NODE_TRIM_EVERY_CRONS 60
#define NODE_UNREGISTER_MS    500

typedef struct {
    bus_node_t *node;
    char domain[BUS_OUTBOX_DOMAIN_MAX];
    char prefix[BUS_OUTBOX_DOMAIN_MAX + 1];
    bus_node_apply_fn *fn;
    void *arg;
} node_follow_t;

typedef struct {
    bus_rpc_client_t *client;
    struct event *event;
} node_client_t;

struct _bus_node_t {
    const bus_node_config_t *config;
    char service[BUS_NODE_SERVICE_MAX];
    char name[BUS_NODE_NAME_MAX];
    char src[BUS_SRC_MAX];
    char rpc_endpoint[256];
    char http_endpoint[300];
    char url[512]; //  the service's client-facing URL, for the ready line; "" when none
    char hub_publish[256];
    char hub_subscribe[256];
    char registry_endpoint[256];
    bus_curve_t curve;
    int64_t started_ms;
    int64_t started_us;

    struct event_base *base;
    struct event *kick;     //  activated to run the pump
    struct event *cron;     //  periodic duties (see bus_node.h)
    struct event *rpc_tick; //  resolves call deadlines while calls are pending
    struct event *signals[2];
    struct evhttp *http;
    zlistx_t *socket_events; //  struct event * of the fixed sockets

    bus_db_t *db;
    bus_outbox_t *outbox;
    bus_inbox_t *inbox;
    bus_hub_t *hub;
    bus_rpc_server_t *registry_server;
    bus_registry_t *registry;
    bus_pub_t *pub;
    bus_sub_t *sub;
    bus_rpc_server_t *rpc;
    zhashx_t *clients; //  endpoint -> node_client_t

    node_follow_t follows[NODE_FOLLOW_MAX];
    int follow_count;
    proto_registry_peers_rep_t peers;
    int64_t last_sync_ms;
    bool registering;
    bool rpc_tick_armed;
    bool pumping;
    bool yielding; //  the pump spent its budget: nothing more until the kick
    bool closing;  //  destroy has begun: no new calls
    int crons;
    bus_writer_t *scratch;

    //  Counters for /metrics.
    uint64_t durable_applied;
    uint64_t durable_replayed;
    uint64_t rpc_served;
};

static void s_pump(bus_node_t *self);
static void s_register(bus_node_t *self);

//  Schedules the pump for the next turn of the loop. A zero timeout, not
//  event_active: libevent runs an event activated from a callback in the
//  same turn, so a pump that kicks itself while work is left would run
//  again and again before any timer or signal (heartbeats, RPC deadlines,
//  SIGTERM) got its turn. A kick already scheduled, or due in this turn,
//  is left alone: adding a due timer again takes it off the turn's active
//  events, and a busy loop would put the pump off for ever.
static void
s_kick(bus_node_t *self)
{
    static const struct timeval now = {0, 0};
    if (self->kick && !self->pumping && !event_pending(self->kick, EV_TIMEOUT, NULL))
        event_add(self->kick, &now);
}

//  ---------------------------------------------------------------------------
//  RPC clients, one per endpoint

static void
s_client_destroy(void **item_p)
{
    node_client_t *entry = *item_p;
    if (entry) {
        if (entry->event)
            event_free(entry->event);
        bus_rpc_client_destroy(&entry->client);
        free(entry);
        *item_p = NULL;
    }
}

static void
s_on_socket(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    s_pump(arg);
}

static struct event *
s_watch(bus_node_t *self, zsock_t *socket)
{
    struct event *event =
        event_new(self->base, zsock_fd(socket), EV_READ | EV_PERSIST, s_on_socket, self);
    if (event)
        event_add(event, NULL);
    return event;
}

static node_client_t *
s_client(bus_node_t *self, const char *endpoint)
{
    node_client_t *entry = zhashx_lookup(self->clients, endpoint);
    if (entry)
        return entry;
    entry = calloc(1, sizeof *entry);
    if (!entry)
        return NULL;
    entry->client = bus_rpc_client_new(endpoint, self->src, &self->curve);
    if (entry->client)
        entry->event = s_watch(self, bus_rpc_client_sock(entry->client));
    if (!entry->client || !entry->event) {
        s_client_destroy((void **) &entry);
        return NULL;
    }
    zhashx_insert(self->clients, endpoint, entry);
    return entry;
}

uint64_t
bus_node_call(bus_node_t *self,
              const char *endpoint,
              const char *method,
              const void *body,
              size_t body_size,
              int timeout_ms,
              bus_reply_fn *fn,
              void *arg)
{
    node_client_t *entry =
        endpoint && *endpoint && !self->closing ? s_client(self, endpoint) : NULL;
    if (!entry)
        return 0;
    if (timeout_ms <= 0)
        timeout_ms = self->config->rpc_timeout_ms;
    uint64_t call_id =
        bus_rpc_client_call(entry->client, method, body, body_size, timeout_ms, fn, arg);
    s_kick(self);
    return call_id;
}

void
bus_node_cancel(bus_node_t *self, const char *endpoint, uint64_t call_id)
{
    node_client_t *entry = zhashx_lookup(self->clients, endpoint);
    if (entry)
        bus_rpc_client_cancel(entry->client, call_id);
}

static void
s_on_rpc_tick(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    bus_node_t *self = arg;
    self->rpc_tick_armed = false;
    for (node_client_t *entry = zhashx_first(self->clients); entry;
         entry = zhashx_next(self->clients))
        bus_rpc_client_tick(entry->client);
    s_pump(self);
}

//  ---------------------------------------------------------------------------
//  The pump: serve every socket until nothing is left to read

static bool
s_readable(zsock_t *socket)
{
    return socket && (zsock_events(socket) & ZMQ_POLLIN);
}

static void
s_pump(bus_node_t *self)
{
    if (self->pumping)
        return; //  a handler that sends is already inside the pump
    //  Bounded work per turn of the loop: an endless stream of events, or
    //  handlers that block (an agent starting forty containers), must not
    //  keep signals and timers from running: an agent whose heartbeats wait
    //  behind its backlog is taken for dead. A pump that spent its budget
    //  leaves what is left to the kick, on the next turn, after the timers
    //  that came due; until it runs, socket callbacks (every socket may look
    //  readable) leave everything to it.
    if (self->yielding)
        return;
    self->pumping = true;
    bool busy = true;
    int64_t until = bus_clock_mono_ms() + NODE_PUMP_BUDGET_MS;
    for (int pass = 0; busy && pass < NODE_PUMP_PASSES && bus_clock_mono_ms() < until;
         pass++) {
        busy = false;
        if (s_readable(bus_sub_sock(self->sub))) {
            //  One transaction for the whole batch: durable events are then
            //  applied at the rate SQLite groups commits, not one by one.
            bool batch = self->follow_count > 0 && !bus_db_in_transaction(self->db) &&
                         bus_node_begin(self) == 0;
            bus_sub_dispatch(self->sub, NODE_PUMP_EVENTS);
            if (batch && bus_node_commit(self) != 0) {
                bus_log_warning("durable batch not committed; will be replayed");
                bus_inbox_discard(self->inbox);
            }
            busy = true;
        }
        if (s_readable(bus_rpc_server_sock(self->rpc))) {
            self->rpc_served += (uint64_t) bus_rpc_server_dispatch(self->rpc);
            busy = true;
        }
        if (self->registry_server &&
            s_readable(bus_rpc_server_sock(self->registry_server))) {
            bus_rpc_server_dispatch(self->registry_server);
            busy = true;
        }
        for (node_client_t *entry = zhashx_first(self->clients); entry;
             entry = zhashx_next(self->clients))
            if (s_readable(bus_rpc_client_sock(entry->client))) {
                //  A callback may add clients; restart the scan after it.
                bus_rpc_client_dispatch(entry->client);
                busy = true;
                break;
            }
    }
    if (!bus_db_in_transaction(self->db))
        bus_outbox_flush(self->outbox, self->pub);
    if (!self->rpc_tick_armed) {
        for (node_client_t *entry = zhashx_first(self->clients); entry;
             entry = zhashx_next(self->clients))
            if (bus_rpc_client_pending(entry->client)) {
                struct timeval tv = {0, NODE_RPC_TICK_MS * 1000};
                evtimer_add(self->rpc_tick, &tv);
                self->rpc_tick_armed = true;
                break;
            }
    }
    self->pumping = false;
    if (busy) {
        self->yielding = true;
        s_kick(self);
        //  never wait for a kick that could not be scheduled
        self->yielding = self->kick && event_pending(self->kick, EV_TIMEOUT, NULL);
    }
}

static void
s_on_kick(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    bus_node_t *self = arg;
    self->yielding = false;
    s_pump(self);
}

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

static void
s_on_durable(void *arg, const bus_event_t *event)
{
    node_follow_t *follow = arg;
    if (event->header.seq == 0) {
        bus_log_debug("ephemeral event in a durable domain ignored topic=%s",
                      event->topic);
        return;
    }
    switch (bus_inbox_check(follow->node->inbox, event->header.src, follow->domain,
                            event->header.epoch, event->header.seq)) {
        case BUS_INBOX_APPLY:
            if (s_apply(follow, event) != 0)
                bus_log_warning("durable event not applied; will retry topic=%s src=%s "
                                "seq=%" PRIu64,
                                event->topic, event->header.src, event->header.seq);
            break;
        case BUS_INBOX_DUPLICATE:
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
            proto_bus_frame_t *frame = &rep.events[i];
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
    bool behind = cursor && rep.epoch == cursor->epoch && cursor->seq < rep.head;
    proto_bus_replay_rep_clear(&rep);
    if (more && behind)
        s_replay(follow, ctx->src);
    free(ctx);
}

void
bus_node_set_url(bus_node_t *self, const char *url)
{
    assert(self && url);
    snprintf(self->url, sizeof self->url, "%s", url);
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
    req.domain = NULL; //  borrowed
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
static void
s_sync(bus_node_t *self)
{
    char src[BUS_SRC_MAX];
    for (size_t i = 0; i < self->peers.peers_count; i++) {
        const proto_registry_peer_t *peer = &self->peers.peers[i];
        snprintf(src, sizeof src, "%s/%s", peer->service, peer->node);
        for (int f = 0; f < self->follow_count; f++)
            s_replay(&self->follows[f], src);
    }
}

//  ---------------------------------------------------------------------------
//  Registry: register, heartbeat, peers

static void
s_on_peers(void *arg, const bus_reply_t *reply)
{
    bus_node_t *self = arg;
    if (reply->status != BUS_OK)
        return;
    proto_registry_peers_rep_t peers;
    bus_error_t err = {0};
    if (proto_registry_peers_rep_decode(&peers, reply->body, reply->body_size, &err) !=
        BUS_OK) {
        bus_log_warning("peer list malformed reason=\"%s\"", err.detail);
        return;
    }
    proto_registry_peers_rep_clear(&self->peers);
    self->peers = peers;
    s_sync(self);
}

uint64_t
bus_node_refresh_peers(bus_node_t *self, bus_reply_fn *fn, void *arg)
{
    proto_registry_peers_req_t req;
    proto_registry_peers_req_init(&req);
    bus_writer_reset(self->scratch);
    proto_registry_peers_req_write(&req, self->scratch);
    return bus_node_call(self, self->registry_endpoint, PROTO_REGISTRY_PEERS,
                         bus_writer_data(self->scratch), bus_writer_size(self->scratch),
                         self->config->sync_ms, fn ? fn : s_on_peers, fn ? arg : self);
}

static void
s_on_registered(void *arg, const bus_reply_t *reply)
{
    bus_node_t *self = arg;
    self->registering = false;
    if (reply->status == BUS_OK) {
        bus_log_info("registered with the registry endpoint=%s", self->registry_endpoint);
        bus_node_refresh_peers(self, NULL, NULL);
    } else
        bus_log_warning("registration failed status=%s detail=\"%s\"",
                        bus_status_str(reply->status), reply->detail);
}

static void
s_register(bus_node_t *self)
{
    if (self->registering)
        return;
    proto_registry_register_req_t req;
    proto_registry_register_req_init(&req);
    req.service = self->service;
    req.node = self->name;
    req.rpc_endpoint = self->rpc_endpoint;
    req.http_endpoint = self->http_endpoint;
    req.version = BACKPLANE_VERSION;
    req.pid = (uint64_t) getpid();
    req.started_at = self->started_us;
    req.durable_epoch = bus_outbox_epoch(self->outbox);
    bus_writer_reset(self->scratch);
    int rc = proto_registry_register_req_write(&req, self->scratch);
    if (rc == 0 &&
        bus_node_call(self, self->registry_endpoint, PROTO_REGISTRY_REGISTER,
                      bus_writer_data(self->scratch), bus_writer_size(self->scratch),
                      self->config->heartbeat_ms, s_on_registered, self))
        self->registering = true;
}

static void
s_on_heartbeat(void *arg, const bus_reply_t *reply)
{
    bus_node_t *self = arg;
    if (reply->status == BUS_STATUS_REREGISTER) {
        bus_log_notice("registry does not know us; registering again");
        s_register(self);
    } else if (reply->status != BUS_OK)
        bus_log_debug("heartbeat unanswered status=%s", bus_status_str(reply->status));
}

static void
s_heartbeat(bus_node_t *self)
{
    proto_registry_heartbeat_req_t req;
    proto_registry_heartbeat_req_init(&req);
    req.service = self->service;
    req.node = self->name;
    req.durable_epoch = bus_outbox_epoch(self->outbox);
    bus_writer_reset(self->scratch);
    if (proto_registry_heartbeat_req_write(&req, self->scratch) == 0)
        bus_node_call(self, self->registry_endpoint, PROTO_REGISTRY_HEARTBEAT,
                      bus_writer_data(self->scratch), bus_writer_size(self->scratch),
                      self->config->heartbeat_ms, s_on_heartbeat, self);
}

static void
s_on_expired(void *arg, const char *service, const char *node, int64_t last_seen_us)
{
    bus_node_t *self = arg;
    proto_service_expired_t event;
    proto_service_expired_init(&event);
    event.service = (char *) service;
    event.node = (char *) node;
    event.last_seen = last_seen_us;
    bus_writer_reset(self->scratch);
    if (proto_service_expired_write(&event, self->scratch) == 0)
        bus_node_publish(self, PROTO_SERVICE_EXPIRED, bus_writer_data(self->scratch),
                         bus_writer_size(self->scratch));
}

//  The periodic duties, listed in bus_node.h.
static void
s_on_cron(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    bus_node_t *self = arg;
    s_heartbeat(self);
    if (self->registry)
        bus_registry_expire(self->registry);
    int64_t now = bus_clock_mono_ms();
    if (now - self->last_sync_ms >= self->config->sync_ms) {
        self->last_sync_ms = now;
        bus_node_refresh_peers(self, NULL, NULL);
    }
    //  A replay whose reply was lost would block its stream; the call's own
    //  deadline clears it, this is the belt to those braces.
    if (++self->crons % NODE_TRIM_EVERY_CRONS == 0)
        bus_outbox_trim(self->outbox, self->config->outbox_retain);
    s_pump(self);
}

//  ---------------------------------------------------------------------------
//  Built-in RPC methods

static int
s_health(void *arg,
         bus_rpc_request_t *req,
         const void *body,
         size_t size,
         bus_writer_t *reply,
         bus_error_t *err)
{
    (void) req;
    bus_node_t *self = arg;
    proto_service_health_req_t in;
    int rc = proto_service_health_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    proto_service_health_req_clear(&in);
    proto_service_health_rep_t out;
    proto_service_health_rep_init(&out);
    bool db_ok = bus_db_ok(self->db);
    out.service = self->service;
    out.node = self->name;
    out.version = BACKPLANE_VERSION;
    out.pid = (uint64_t) getpid();
    out.uptime_ms = (uint64_t) (bus_clock_mono_ms() - self->started_ms);
    out.db_ok = db_ok;
    out.state = db_ok ? "ok" : "degraded";
    rc = proto_service_health_rep_write(&out, reply);
    return rc == 0 ? BUS_OK : BUS_STATUS_INTERNAL;
}

static int
s_replay_handler(void *arg,
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

//  ---------------------------------------------------------------------------
//  Health endpoint

static void
s_http_reply_json(struct evhttp_request *req, int code, json_t *body)
{
    char *text = json_dumps(body, JSON_COMPACT);
    struct evbuffer *out = evbuffer_new();
    evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type",
                      "application/json");
    if (text && out)
        evbuffer_add(out, text, strlen(text));
    evhttp_send_reply(req, code, code == 200 ? "OK" : "Not Found", out);
    if (out)
        evbuffer_free(out);
    free(text);
    json_decref(body);
}

static void
s_on_http(struct evhttp_request *req, void *arg)
{
    bus_node_t *self = arg;
    const char *path = evhttp_uri_get_path(evhttp_request_get_evhttp_uri(req));
    if (path && strcmp(path, "/healthz") == 0) {
        bool db_ok = bus_db_ok(self->db);
        s_http_reply_json(req, 200,
                          json_pack("{s:s, s:s, s:s, s:s, s:I, s:b}", "service",
                                    self->service, "node", self->name, "status",
                                    db_ok ? "ok" : "degraded", "version",
                                    BACKPLANE_VERSION, "uptime_ms",
                                    (json_int_t) (bus_clock_mono_ms() - self->started_ms),
                                    "db_ok", db_ok));
        return;
    }
    if (path && strcmp(path, "/metrics") == 0) {
        struct evbuffer *out = evbuffer_new();
        if (out) {
            evbuffer_add_printf(
                out,
                "# TYPE backplane_up gauge\nbackplane_up{service=\"%s\"} 1\n"
                "# TYPE backplane_uptime_seconds gauge\n"
                "backplane_uptime_seconds{service=\"%s\"} %.3f\n"
                "# TYPE backplane_events_dropped_total counter\n"
                "backplane_events_dropped_total{service=\"%s\"} %" PRIu64 "\n"
                "# TYPE backplane_durable_applied_total counter\n"
                "backplane_durable_applied_total{service=\"%s\"} %" PRIu64 "\n"
                "# TYPE backplane_durable_replayed_total counter\n"
                "backplane_durable_replayed_total{service=\"%s\"} %" PRIu64 "\n"
                "# TYPE backplane_rpc_served_total counter\n"
                "backplane_rpc_served_total{service=\"%s\"} %" PRIu64 "\n",
                self->service, self->service,
                (double) (bus_clock_mono_ms() - self->started_ms) / 1000.0, self->service,
                bus_pub_dropped(self->pub), self->service, self->durable_applied,
                self->service, self->durable_replayed, self->service, self->rpc_served);
            evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type",
                              "text/plain; version=0.0.4");
            evhttp_send_reply(req, 200, "OK", out);
            evbuffer_free(out);
        }
        return;
    }
    s_http_reply_json(req, 404, json_pack("{s:s}", "error", "not found"));
}

static int
s_http_start(bus_node_t *self)
{
    const char *listen = self->config->http_listen;
    if (!listen || !*listen)
        return 0;
    char host[256];
    const char *colon = strrchr(listen, ':');
    if (!colon || (size_t) (colon - listen) >= sizeof host)
        return -1;
    memcpy(host, listen, (size_t) (colon - listen));
    host[colon - listen] = 0;
    int port = atoi(colon + 1);
    self->http = evhttp_new(self->base);
    if (!self->http)
        return -1;
    evhttp_set_gencb(self->http, s_on_http, self);
    struct evhttp_bound_socket *bound =
        evhttp_bind_socket_with_handle(self->http, host, (ev_uint16_t) port);
    if (!bound) {
        bus_log_error("cannot listen for health checks address=%s", listen);
        return -1;
    }
    struct sockaddr_in addr;
    socklen_t len = sizeof addr;
    if (getsockname(evhttp_bound_socket_get_fd(bound), (struct sockaddr *) &addr, &len) ==
        0)
        port = ntohs(addr.sin_port);
    snprintf(self->http_endpoint, sizeof self->http_endpoint, "%s:%d", host, port);
    return 0;
}

//  ---------------------------------------------------------------------------
//  Lifecycle

static void
s_on_signal(evutil_socket_t fd, short what, void *arg)
{
    (void) what;
    bus_log_notice("signal received, stopping signal=%d", (int) fd);
    bus_node_stop(arg);
}

int
bus_mkdirs_mode(const char *path, mode_t mode)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int) sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, mode) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, mode) != 0 && errno != EEXIST ? -1 : 0;
}

int
bus_mkdirs(const char *path)
{
    return bus_mkdirs_mode(path, 0750);
}

bus_node_t *
bus_node_new(const char *service,
             const bus_node_config_t *config,
             struct event_base *base,
             const bus_db_migration_t *migrations,
             size_t migration_count,
             bus_error_t *err)
{
    assert(service && config && base);
    //  libevent owns the signals; czmq must not install its own handlers.
    zsys_handler_set(NULL);
    bus_node_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->config = config;
    self->base = base;
    self->started_ms = bus_clock_mono_ms();
    self->started_us = bus_clock_wall_us();
    snprintf(self->service, sizeof self->service, "%s", service);
    if (config->node_name && *config->node_name)
        snprintf(self->name, sizeof self->name, "%s", config->node_name);
    else if (gethostname(self->name, sizeof self->name) != 0)
        snprintf(self->name, sizeof self->name, "localhost");
    self->name[sizeof self->name - 1] = 0;
    snprintf(self->src, sizeof self->src, "%s/%s", self->service, self->name);
    proto_registry_peers_rep_init(&self->peers);
    self->curve = (bus_curve_t){config->curve_enabled, config->curve_server_cert,
                                config->curve_client_cert, config->curve_server_public,
                                config->curve_authorized_keys};
    self->scratch = bus_writer_new();
    self->clients = zhashx_new();
    self->socket_events = zlistx_new();
    if (!self->scratch || !self->clients || !self->socket_events)
        goto fail;
    zhashx_set_destructor(self->clients, s_client_destroy);

    char path[4096];
    if (bus_mkdirs(config->state_dir) != 0) {
        bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot create state directory %s: %s",
                      config->state_dir, strerror(errno));
        goto fail;
    }
    snprintf(path, sizeof path, "%s/%s.db", config->state_dir, service);
    self->db = bus_db_open(path, migrations, migration_count, err);
    if (!self->db)
        goto fail;
    self->outbox = bus_outbox_new(self->db, self->src, err);
    self->inbox = self->outbox ? bus_inbox_new(self->db, err) : NULL;
    if (!self->inbox)
        goto fail;

    if (bus_socket_security_start(&self->curve) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL,
                      "cannot start the CurveZMQ authenticator");
        goto fail;
    }
    snprintf(self->hub_publish, sizeof self->hub_publish, "%s", config->hub_publish);
    snprintf(self->hub_subscribe, sizeof self->hub_subscribe, "%s",
             config->hub_subscribe);
    snprintf(self->registry_endpoint, sizeof self->registry_endpoint, "%s",
             config->registry);
    if (config->hub_host) {
        self->hub = bus_hub_new(config->hub_publish, config->hub_subscribe, &self->curve);
        self->registry_server = bus_rpc_server_new(config->registry, &self->curve);
        if (!self->hub || !self->registry_server) {
            bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                          "cannot bind the hub (%s, %s) or the "
                          "registry (%s)",
                          config->hub_publish, config->hub_subscribe, config->registry);
            goto fail;
        }
        snprintf(self->hub_publish, sizeof self->hub_publish, "%s",
                 bus_hub_publish_endpoint(self->hub));
        snprintf(self->hub_subscribe, sizeof self->hub_subscribe, "%s",
                 bus_hub_subscribe_endpoint(self->hub));
        snprintf(self->registry_endpoint, sizeof self->registry_endpoint, "%s",
                 bus_rpc_server_endpoint(self->registry_server));
        self->registry = bus_registry_new(self->registry_server, config->heartbeat_ms,
                                          config->peer_expiry_ms, s_on_expired, self);
        if (!self->registry)
            goto fail;
    }
    self->pub = bus_pub_new(self->hub_publish, self->src, &self->curve);
    self->sub = bus_sub_new(self->hub_subscribe, &self->curve);
    self->rpc = bus_rpc_server_new(config->rpc_bind, &self->curve);
    if (!self->pub || !self->sub || !self->rpc) {
        bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                      "cannot connect to the hub (%s, %s) or "
                      "bind the RPC server (%s)",
                      self->hub_publish, self->hub_subscribe, config->rpc_bind);
        goto fail;
    }
    snprintf(self->rpc_endpoint, sizeof self->rpc_endpoint, "%s",
             *config->rpc_advertise ? config->rpc_advertise
                                    : bus_rpc_server_endpoint(self->rpc));
    bus_rpc_server_handle(self->rpc, PROTO_SERVICE_HEALTH, s_health, self);
    bus_rpc_server_handle(self->rpc, PROTO_BUS_REPLAY, s_replay_handler, self);

    self->kick = evtimer_new(base, s_on_kick, self);
    self->cron = event_new(base, -1, EV_PERSIST, s_on_cron, self);
    self->rpc_tick = evtimer_new(base, s_on_rpc_tick, self);
    self->signals[0] = evsignal_new(base, SIGTERM, s_on_signal, self);
    self->signals[1] = evsignal_new(base, SIGINT, s_on_signal, self);
    if (!self->kick || !self->cron || !self->rpc_tick || !self->signals[0] ||
        !self->signals[1])
        goto fail;
    zsock_t *fixed[] = {bus_sub_sock(self->sub), bus_rpc_server_sock(self->rpc),
                        self->registry_server ? bus_rpc_server_sock(self->registry_server)
                                              : NULL};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        if (!fixed[i])
            continue;
        struct event *event = s_watch(self, fixed[i]);
        if (!event)
            goto fail;
        zlistx_add_end(self->socket_events, event);
    }
    if (s_http_start(self) != 0) {
        bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot listen on %s",
                      config->http_listen);
        goto fail;
    }
    return self;
fail:
    if (err && err->status == BUS_OK)
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot start the %s node", service);
    bus_node_destroy(&self);
    return NULL;
}

int
bus_node_start(bus_node_t *self)
{
    struct timeval tv = {self->config->heartbeat_ms / 1000,
                         (self->config->heartbeat_ms % 1000) * 1000};
    event_add(self->cron, &tv);
    event_add(self->signals[0], NULL);
    event_add(self->signals[1], NULL);
    signal(SIGPIPE, SIG_IGN);
    s_register(self);
    self->last_sync_ms = bus_clock_mono_ms();

    proto_service_started_t event;
    proto_service_started_init(&event);
    event.service = self->service;
    event.node = self->name;
    event.version = BACKPLANE_VERSION;
    event.pid = (uint64_t) getpid();
    event.rpc_endpoint = self->rpc_endpoint;
    event.http_endpoint = self->http_endpoint;
    event.started_at = self->started_us;
    bus_writer_reset(self->scratch);
    if (proto_service_started_write(&event, self->scratch) == 0)
        bus_node_publish(self, PROTO_SERVICE_STARTED, bus_writer_data(self->scratch),
                         bus_writer_size(self->scratch));
    bus_log_notice("service started rpc=%s http=%s hub_publish=%s hub_subscribe=%s "
                   "registry=%s",
                   self->rpc_endpoint, self->http_endpoint, self->hub_publish,
                   self->hub_subscribe, self->registry_endpoint);
    printf("ready service=%s node=%s rpc=%s http=%s hub_publish=%s hub_subscribe=%s "
           "registry=%s%s%s\n",
           self->service, self->name, self->rpc_endpoint,
           *self->http_endpoint ? self->http_endpoint : "-", self->hub_publish,
           self->hub_subscribe, self->registry_endpoint, *self->url ? " url=" : "",
           self->url);
    fflush(stdout);
    return 0;
}

int
bus_node_run(bus_node_t *self)
{
    s_pump(self);
    event_base_dispatch(self->base);
    return 0;
}

void
bus_node_stop(bus_node_t *self)
{
    event_base_loopbreak(self->base);
}

static void
s_say_goodbye(bus_node_t *self)
{
    proto_service_stopping_t event;
    proto_service_stopping_init(&event);
    event.service = self->service;
    event.node = self->name;
    event.reason = "shutdown";
    bus_writer_reset(self->scratch);
    if (proto_service_stopping_write(&event, self->scratch) == 0)
        bus_node_publish(self, PROTO_SERVICE_STOPPING, bus_writer_data(self->scratch),
                         bus_writer_size(self->scratch));
    if (self->registry)
        return; //  hosting the registry: it goes away with us
    proto_registry_unregister_req_t req;
    proto_registry_unregister_req_init(&req);
    req.service = self->service;
    req.node = self->name;
    bus_writer_reset(self->scratch);
    node_client_t *entry = s_client(self, self->registry_endpoint);
    if (entry && proto_registry_unregister_req_write(&req, self->scratch) == 0)
        bus_rpc_client_call_sync(
            entry->client, PROTO_REGISTRY_UNREGISTER, bus_writer_data(self->scratch),
            bus_writer_size(self->scratch), NODE_UNREGISTER_MS, NULL, NULL);
}

void
bus_node_destroy(bus_node_t **self_p)
{
    assert(self_p);
    bus_node_t *self = *self_p;
    if (!self)
        return;
    if (self->pub && self->rpc && self->kick) {
        bus_log_notice("service stopping");
        s_say_goodbye(self);
        //  Give the goodbye a moment to leave before the socket closes.
        zsock_set_linger(bus_pub_sock(self->pub), NODE_UNREGISTER_MS);
    }
    if (self->http)
        evhttp_free(self->http);
    //  Destroying the clients completes their pending calls (unavailable);
    //  the callbacks must not start new ones.
    self->closing = true;
    if (self->socket_events) {
        for (struct event *event = zlistx_first(self->socket_events); event;
             event = zlistx_next(self->socket_events))
            event_free(event);
        zlistx_destroy(&self->socket_events);
    }
    zhashx_destroy(&self->clients);
    bool had_signals = self->signals[0] || self->signals[1];
    struct event **events[] = {&self->kick, &self->cron, &self->rpc_tick,
                               &self->signals[0], &self->signals[1]};
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
        if (*events[i]) {
            event_free(*events[i]);
            *events[i] = NULL;
        }
    //  Freeing the signal events put back the default action, which would
    //  let a second stop signal kill the rest of this clean stop (the
    //  goodbye's linger, the database's close): a terminal's Ctrl-C reaches
    //  every service and then `make run` sends SIGTERM to each. Stopping is
    //  already under way; a supervisor in a hurry has SIGKILL.
    if (had_signals) {
        signal(SIGTERM, SIG_IGN);
        signal(SIGINT, SIG_IGN);
    }
    bus_sub_destroy(&self->sub);
    bus_pub_destroy(&self->pub);
    bus_rpc_server_destroy(&self->rpc);
    bus_registry_destroy(&self->registry);
    bus_rpc_server_destroy(&self->registry_server);
    bus_hub_destroy(&self->hub);
    bus_inbox_destroy(&self->inbox);
    bus_outbox_destroy(&self->outbox);
    bus_db_destroy(&self->db);
    bus_writer_destroy(&self->scratch);
    proto_registry_peers_rep_clear(&self->peers);
    bus_socket_security_stop();
    free(self);
    *self_p = NULL;
}

const char *
bus_node_service(bus_node_t *self)
{
    return self->service;
}

const char *
bus_node_name(bus_node_t *self)
{
    return self->name;
}

const char *
bus_node_src(bus_node_t *self)
{
    return self->src;
}

const char *
bus_node_rpc_endpoint(bus_node_t *self)
{
    return self->rpc_endpoint;
}

const char *
bus_node_http_endpoint(bus_node_t *self)
{
    return self->http_endpoint;
}

bus_db_t *
bus_node_db(bus_node_t *self)
{
    return self->db;
}

struct event_base *
bus_node_base(bus_node_t *self)
{
    return self->base;
}

struct evhttp *
bus_node_http(bus_node_t *self)
{
    return self->http;
}

int
bus_node_handle(bus_node_t *self, const char *method, bus_rpc_handler_fn *fn, void *arg)
{
    return bus_rpc_server_handle(self->rpc, method, fn, arg);
}

int
bus_node_reply(bus_node_t *self,
               bus_rpc_request_t **req_p,
               int status,
               const char *detail,
               const void *body,
               size_t body_size)
{
    int rc = bus_rpc_server_reply(self->rpc, req_p, status, detail, body, body_size);
    s_kick(self);
    return rc;
}

int
bus_node_subscribe(bus_node_t *self, const char *prefix, bus_sub_fn *fn, void *arg)
{
    return bus_sub_subscribe(self->sub, prefix, fn, arg);
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
bus_node_publish(bus_node_t *self, const char *topic, const void *body, size_t body_size)
{
    return bus_pub_send(self->pub, topic, body, body_size);
}

uint64_t
bus_node_emit(bus_node_t *self, const char *topic, const void *body, size_t body_size)
{
    uint64_t seq = bus_outbox_append(self->outbox, topic, body, body_size);
    if (seq && !bus_db_in_transaction(self->db))
        bus_outbox_flush(self->outbox, self->pub);
    return seq;
}

int
bus_node_begin(bus_node_t *self)
{
    return bus_db_begin(self->db);
}

int
bus_node_commit(bus_node_t *self)
{
    int rc = bus_db_commit(self->db);
    if (rc == 0 && !bus_db_in_transaction(self->db)) {
        bus_inbox_committed(self->inbox);
        bus_outbox_flush(self->outbox, self->pub);
    }
    return rc;
}

int
bus_node_rollback(bus_node_t *self)
{
    return bus_db_rollback(self->db);
}

const proto_registry_peers_rep_t *
bus_node_peers(bus_node_t *self)
{
    return &self->peers;
}

const char *
bus_node_find(bus_node_t *self, const char *service)
{
    for (size_t i = 0; i < self->peers.peers_count; i++) {
        const proto_registry_peer_t *peer = &self->peers.peers[i];
        if (strcmp(peer->service, service) == 0 && peer->rpc_endpoint &&
            *peer->rpc_endpoint)
            return peer->rpc_endpoint;
    }
    return NULL;
}
