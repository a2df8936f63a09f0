/*  =========================================================================
    bus_node - a service process on the bus, on a libevent loop

    ZeroMQ sockets signal readiness through a file descriptor that is edge
    triggered: it fires when the socket's state changes, and a send or a
    receive may consume that change. So the node never trusts a single
    callback to mean "one message": every socket callback and every API
    call that sends schedules one "pump", which serves every socket until a
    whole pass finds nothing left to read. That is the fix for the lost
    wake-up that bites every libevent+ZeroMQ integration.

    The node is one object in four files: this one (the loop: the pump, RPC
    clients, the cron timer, lifecycle and accessors), bus_node_durable.c
    (following durable domains: apply, replay, sync), bus_node_presence.c
    (the registry: register, heartbeat, peers) and bus_node_health.c (the
    health method and the /healthz and /metrics endpoint). They share the
    struct through bus_node_private.h.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_node_private.h"
#include <netinet/in.h> //  INET6_ADDRSTRLEN
#include <signal.h>     //  SIG_IGN once stopping: see bus_node_destroy
#include <sys/stat.h>   //  mkdir for the state directory

//  Schedules the pump for the next turn of the loop. A zero timeout, not
//  event_active: libevent runs an event activated from a callback in the
//  same turn, so a pump that kicks itself while work is left would run
//  again and again before any timer or signal (heartbeats, RPC deadlines,
//  SIGTERM) got its turn. A kick already scheduled, or due in this turn,
//  is left alone: adding a due timer again takes it off the turn's active
//  events, and a busy loop would put the pump off for ever.
void
node_kick(bus_node_t *self)
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
    node_pump(arg);
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

node_client_t *
node_client(bus_node_t *self, const char *endpoint)
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
        endpoint && *endpoint && !self->closing ? node_client(self, endpoint) : NULL;
    if (!entry)
        return 0;
    if (timeout_ms <= 0)
        timeout_ms = self->config->rpc_timeout_ms;
    uint64_t call_id =
        bus_rpc_client_call(entry->client, method, body, body_size, timeout_ms, fn, arg);
    node_kick(self);
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
    node_pump(self);
}

//  ---------------------------------------------------------------------------
//  The pump: serve every socket until nothing is left to read

static bool
s_readable(zsock_t *socket)
{
    return socket && (zsock_events(socket) & ZMQ_POLLIN);
}

void
node_pump(bus_node_t *self)
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
        node_kick(self);
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
    node_pump(self);
}

//  The periodic duties, listed in bus_node.h.
static void
s_on_cron(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    bus_node_t *self = arg;
    node_heartbeat(self);
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
    node_pump(self);
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

//  A node bound on every address (bus.rpc_bind tcp://0.0.0.0:* or
//  tcp://*:*) with no bus.rpc_advertise would register tcp://0.0.0.0:PORT,
//  which a peer on another host connects to as its own host, where some
//  other service may well listen on PORT. It advertises instead the address
//  its packets to the registry leave from: the one the hosts of the bus
//  reach it at. Kept as bound when that cannot be found (logged).
static void
s_advertise_reachable(bus_node_t *self, const char *registry)
{
    char host[256], port[32], local[INET6_ADDRSTRLEN];
    if (bus_addr_endpoint_split(self->rpc_endpoint, host, sizeof host, port,
                                sizeof port) != 0 ||
        !bus_addr_host_wildcard(host))
        return;
    if (bus_addr_local_toward(registry, local, sizeof local) != 0) {
        bus_log_warning("rpc endpoint %s names every address and no route to the registry"
                        " %s says which one peers reach: set bus.rpc_advertise",
                        self->rpc_endpoint, registry);
        return;
    }
    char bound[sizeof self->rpc_endpoint];
    snprintf(bound, sizeof bound, "%s", self->rpc_endpoint);
    snprintf(self->rpc_endpoint, sizeof self->rpc_endpoint,
             strchr(local, ':') ? "tcp://[%s]:%s" : "tcp://%s:%s", local, port);
    bus_log_notice("rpc endpoint advertised as the address toward the registry bound=%s"
                   " advertised=%s registry=%s",
                   bound, self->rpc_endpoint, registry);
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
                                          config->peer_expiry_ms, node_on_expired, self);
        if (!self->registry)
            goto fail;
    }
    self->pub = bus_pub_new(self->hub ? bus_hub_local_publish_endpoint(self->hub)
                                      : self->hub_publish,
                            self->src, &self->curve);
    self->sub = bus_sub_new(self->hub ? bus_hub_local_subscribe_endpoint(self->hub)
                                      : self->hub_subscribe,
                            &self->curve);
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
    if (!*config->rpc_advertise)
        s_advertise_reachable(self, config->registry);
    //  The methods every node serves. bus.replay is raw: it streams the
    //  outbox's rows into the reply as SQLite reads them (node_serve_replay).
    bus_node_method_t builtin[] = {
        proto_service_health_method(node_serve_health),
        {PROTO_BUS_REPLAY, node_serve_replay, NULL, NULL},
    };
    if (bus_node_serve(self, builtin, sizeof builtin / sizeof builtin[0], self, err) !=
        BUS_OK)
        goto fail;

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
    if (node_http_start(self) != 0) {
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
    node_register(self);
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
           "registry=%s%s%s%s%s\n",
           self->service, self->name, self->rpc_endpoint,
           *self->http_endpoint ? self->http_endpoint : "-", self->hub_publish,
           self->hub_subscribe, self->registry_endpoint, *self->web_url ? " web=" : "",
           self->web_url, *self->url ? " url=" : "", self->url);
    fflush(stdout);
    return 0;
}

int
bus_node_run(bus_node_t *self)
{
    node_pump(self);
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
    node_client_t *entry = node_client(self, self->registry_endpoint);
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

void
bus_node_set_url(bus_node_t *self, const char *url)
{
    assert(self && url);
    snprintf(self->url, sizeof self->url, "%s", url);
}

void
bus_node_set_web_url(bus_node_t *self, const char *url)
{
    assert(self && url);
    snprintf(self->web_url, sizeof self->web_url, "%s", url);
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
bus_node_serve(bus_node_t *self,
               const bus_node_method_t *methods,
               size_t count,
               void *arg,
               bus_error_t *err)
{
    assert(self && (methods || count == 0));
    for (size_t i = 0; i < count; i++) {
        const bus_node_method_t *method = &methods[i];
        assert(!method->fn != !method->typed);
        assert(!method->typed || method->adapter);
        int rc = method->typed
                     ? bus_rpc_server_handle_typed(self->rpc, method->method,
                                                   method->typed, method->adapter, arg)
                     : bus_rpc_server_handle(self->rpc, method->method, method->fn, arg);
        if (rc != 0)
            return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot serve %s",
                                 method->method);
    }
    return BUS_OK;
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
    node_kick(self);
    return rc;
}

int
bus_node_subscribe(bus_node_t *self, const char *prefix, bus_sub_fn *fn, void *arg)
{
    return bus_sub_subscribe(self->sub, prefix, fn, arg);
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
