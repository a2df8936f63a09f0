/*  =========================================================================
    bus_node - what every Backplane service is built on

    A node is one service process on the bus. It owns the service's SQLite
    database, its outbox and inbox, a PUB and a SUB socket to the hub, an
    RPC server, a client to the registry, RPC clients to the peers it calls,
    and a small HTTP endpoint for /healthz and /metrics. It can also host
    the hub and the registry (bus.hub.host). It runs on a libevent
    event_base, so the gateway's HTTP server and the bus share one loop,
    one thread, and no locks.

    Its periodic duties (one cron timer, every bus.heartbeat_ms):
      - heartbeat the registry, re-registering when told to;
      - when hosting the registry, expire silent peers;
      - refresh the peer list (every bus.sync_ms) and poll each peer for
        durable events this node follows but has not applied (catch-up after
        a restart, and the safety net for events lost in flight);
      - flush the outbox, trim it to bus.outbox_retain events.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_NODE_H_INCLUDED
#define BUS_NODE_H_INCLUDED

#include "bus_config.h"
#include "bus_db.h"
#include "bus_envelope.h"
#include "bus_rpc.h"
#include "bus_sub.h"

struct event_base;
struct evbuffer;
struct evhttp;

#define BUS_NODE_SERVICE_MAX  64
#define BUS_NODE_NAME_MAX     128
#define BUS_NODE_REPLAY_BATCH 1000
//  A clock off the registry's by this much is logged (bus_node_presence).
#define BUS_NODE_CLOCK_WARN_MS 1000

//  The options every service shares; each service's config struct embeds
//  one and adds BUS_NODE_CONFIG_ROWS to its table.
typedef struct {
    char *node_name; //  this node's name; "" means the host name
    char *state_dir; //  the database is <state_dir>/<service>.db
    char *log_level;
    char *rpc_bind;      //  where this service's RPC server binds
    char *rpc_advertise; //  endpoint peers use to reach it; "" = as bound
    char *http_listen;   //  host:port for /healthz and /metrics; "" = off
    bool hub_host;       //  run the hub and the registry in this process
    char *hub_publish;   //  hub endpoint publishers use (bound when hosting)
    char *hub_subscribe; //  hub endpoint subscribers use (bound when hosting)
    char *registry;      //  registry endpoint (bound when hosting)
    int heartbeat_ms;
    int peer_expiry_ms;
    int rpc_timeout_ms;
    int sync_ms;
    int outbox_retain;
    bool curve_enabled;
    char *curve_server_cert;
    char *curve_client_cert;
    char *curve_server_public;
    char *curve_authorized_keys;
} bus_node_config_t;

#define BUS_NODE_DEFAULT_HUB_PUBLISH   "tcp://127.0.0.1:6101"
#define BUS_NODE_DEFAULT_HUB_SUBSCRIBE "tcp://127.0.0.1:6102"
#define BUS_NODE_DEFAULT_REGISTRY      "tcp://127.0.0.1:6103"

//  Where each service answers /healthz and /metrics (bus.http_listen) by
//  default: one fixed port per service, so that a Prometheus server finds
//  them (README, "Operators"). Loopback only; an operator who scrapes from
//  another host sets bus.http_listen. Tests use BUS_NODE_HTTP_ANY.
#define BUS_NODE_HTTP_GATEWAY       "127.0.0.1:9101"
#define BUS_NODE_HTTP_SCHEDULER     "127.0.0.1:9102"
#define BUS_NODE_HTTP_AGENT         "127.0.0.1:9103"
#define BUS_NODE_HTTP_STORAGE_PROXY "127.0.0.1:9104"
#define BUS_NODE_HTTP_WSPROXY       "127.0.0.1:9105"
#define BUS_NODE_HTTP_ACCOUNTING    "127.0.0.1:9106"
#define BUS_NODE_HTTP_ANY           "127.0.0.1:0" //  any free port

//  Rows for a service's config table. type is the service's config struct,
//  member the bus_node_config_t inside it; hub_default is "true" for the one
//  service that hosts the hub by default, http_default the service's
//  bus.http_listen (BUS_NODE_HTTP_<SERVICE>).
// clang-format off
#define BUS_NODE_CONFIG_ROWS(type, member, hub_default, http_default)                      \
    {"node.name", BUS_CFG_STRING, offsetof(type, member.node_name), "", 0, BUS_NODE_NAME_MAX - 1, NULL,\
     "this node's name on the bus; empty means the host name"},                            \
    {"node.state_dir", BUS_CFG_STRING, offsetof(type, member.state_dir), "/var/lib/backplane", 0, 4095, NULL,\
     "directory of this service's SQLite database (<service>.db)"},                        \
    {"log.level", BUS_CFG_ENUM, offsetof(type, member.log_level), "notice", 0, 0, "error|warning|notice|info|debug",\
     "least severe level written: error, warning, notice, info or debug"},                 \
    {"bus.rpc_bind", BUS_CFG_STRING, offsetof(type, member.rpc_bind), "tcp://127.0.0.1:*", 1, 255, NULL,\
     "where this service's RPC server binds (* = any free port)"},                         \
    {"bus.rpc_advertise", BUS_CFG_STRING, offsetof(type, member.rpc_advertise), "", 0, 255, NULL,\
     "endpoint other hosts use to reach the RPC server; empty = as bound (bound on every address: this host's address toward the registry)"},\
    {"bus.http_listen", BUS_CFG_STRING, offsetof(type, member.http_listen), http_default, 0, 255, NULL,\
     "host:port for /healthz and /metrics (port 0 = any free port); empty = off"},         \
    {"bus.hub.host", BUS_CFG_BOOL, offsetof(type, member.hub_host), hub_default, 0, 0, NULL,\
     "run the event hub and the registry inside this service"},                            \
    {"bus.hub.publish", BUS_CFG_STRING, offsetof(type, member.hub_publish), BUS_NODE_DEFAULT_HUB_PUBLISH, 1, 255, NULL,\
     "hub endpoint that publishers connect to (bound here when hosting)"},                 \
    {"bus.hub.subscribe", BUS_CFG_STRING, offsetof(type, member.hub_subscribe), BUS_NODE_DEFAULT_HUB_SUBSCRIBE, 1, 255, NULL,\
     "hub endpoint that subscribers connect to (bound here when hosting)"},                \
    {"bus.hub.registry", BUS_CFG_STRING, offsetof(type, member.registry), BUS_NODE_DEFAULT_REGISTRY, 1, 255, NULL,\
     "registry endpoint where services announce themselves (bound here when hosting)"},    \
    {"bus.heartbeat_ms", BUS_CFG_INT, offsetof(type, member.heartbeat_ms), "1000", 50, 60000, NULL,\
     "how often this service tells the registry it is alive"},                             \
    {"bus.peer_expiry_ms", BUS_CFG_INT, offsetof(type, member.peer_expiry_ms), "5000", 200, 600000, NULL,\
     "silence after which the registry forgets a peer (when hosting)"},                    \
    {"bus.rpc_timeout_ms", BUS_CFG_INT, offsetof(type, member.rpc_timeout_ms), "5000", 10, 600000, NULL,\
     "deadline of an RPC call to another service"},                                        \
    {"bus.sync_ms", BUS_CFG_INT, offsetof(type, member.sync_ms), "2000", 50, 600000, NULL, \
     "how often to ask each peer for durable events missed"},                              \
    {"bus.outbox_retain", BUS_CFG_INT, offsetof(type, member.outbox_retain), "100000", 100, 100000000, NULL,\
     "durable events kept per domain for replay"},                                         \
    {"bus.curve.enabled", BUS_CFG_BOOL, offsetof(type, member.curve_enabled), "false", 0, 0, NULL,\
     "encrypt and authenticate bus traffic with CurveZMQ (between hosts)"},                \
    {"bus.curve.server_cert", BUS_CFG_STRING, offsetof(type, member.curve_server_cert), "", 0, 4095, NULL,\
     "secret certificate this node's bus servers present (zcert file): the host's own key pair"},                         \
    {"bus.curve.client_cert", BUS_CFG_STRING, offsetof(type, member.curve_client_cert), "", 0, 4095, NULL,\
     "this node's secret certificate as a client (zcert file)"},                           \
    {"bus.curve.server_public", BUS_CFG_STRING, offsetof(type, member.curve_server_public), "", 0, 40, NULL,\
     "Z85 public key of bus servers whose host no certificate in authorized_keys names (by its address metadata); empty: only those named"},                                          \
    {"bus.curve.authorized_keys", BUS_CFG_STRING, offsetof(type, member.curve_authorized_keys), "", 0, 4095, NULL,\
     "directory of the hosts' public certificates: the clients a server accepts, and the servers' keys by address"}
// clang-format on

typedef struct _bus_node_t bus_node_t;

//  A durable event handler: runs inside the transaction that records the
//  event as applied. Return 0 to commit, -1 to roll back (the event will be
//  offered again later).
typedef int(bus_node_apply_fn)(void *arg, bus_node_t *node, const bus_event_t *event);

//  Creates the node: opens <state_dir>/<service>.db with the service's
//  migrations, binds and connects its sockets, hosts the hub if asked. The
//  config and base are borrowed and must outlive the node. NULL with err.
bus_node_t *bus_node_new(const char *service,
                         const bus_node_config_t *config,
                         struct event_base *base,
                         const bus_db_migration_t *migrations,
                         size_t migration_count,
                         bus_error_t *err);

//  Publishes service.stopping, unregisters, and frees everything.
void bus_node_destroy(bus_node_t **self_p);

//  Registers with the registry, publishes service.started, and prints the
//  readiness line "ready service=... rpc=... http=..." on stdout that
//  scripts and tests wait for. Call once handlers and subscriptions are set.
int bus_node_start(bus_node_t *self);

//  Runs the event loop until SIGTERM or SIGINT (or bus_node_stop). 0.
int bus_node_run(bus_node_t *self);

//  Makes bus_node_run return (from a handler or a signal).
void bus_node_stop(bus_node_t *self);

const char *bus_node_service(bus_node_t *self);
const char *bus_node_name(bus_node_t *self);
//  "service/node"
const char *bus_node_src(bus_node_t *self);
const char *bus_node_rpc_endpoint(bus_node_t *self);
//  "host:port" of the health endpoint, "" when off.
const char *bus_node_http_endpoint(bus_node_t *self);
bus_db_t *bus_node_db(bus_node_t *self);
struct event_base *bus_node_base(bus_node_t *self);
//  The health HTTP server, so a service can add its own routes. May be NULL.
struct evhttp *bus_node_http(bus_node_t *self);

//  Serves method with fn on this node's RPC server. 0 or -1.
int
bus_node_handle(bus_node_t *self, const char *method, bus_rpc_handler_fn *fn, void *arg);

//  One method a service serves, for its table of methods: either a raw
//  handler (fn: the body in, a writer for the reply) or, as almost every
//  method is, a typed one made by proto_<method>_method(handler), which
//  holds only its logic. A table row is written
//      proto_storage_folder_create_method(s_on_create),
//  and the compiler checks the handler against the method's schema.
typedef struct {
    const char *method;
    bus_rpc_handler_fn *fn;        //  raw, or NULL
    bus_typed_fn *typed;           //  typed, or NULL
    bus_typed_adapter_fn *adapter; //  with typed: the method's adapter
} bus_node_method_t;

//  Serves every method of the table (count rows), each handler called with
//  arg: a service lists what it serves in one table and hands it over here.
//  BUS_OK, or BUS_STATUS_INTERNAL in err naming the method that could not
//  be served.
int bus_node_serve(bus_node_t *self,
                   const bus_node_method_t *methods,
                   size_t count,
                   void *arg,
                   bus_error_t *err);

//  Answers a request a handler detached. body may be NULL.
int bus_node_reply(bus_node_t *self,
                   bus_rpc_request_t **req_p,
                   int status,
                   const char *detail,
                   const void *body,
                   size_t body_size);

//  Subscribes to live events whose topic starts with prefix; delivery is
//  best effort. 0 or -1.
int bus_node_subscribe(bus_node_t *self, const char *prefix, bus_sub_fn *fn, void *arg);

//  Follows a whole domain ("kernel") of durable events from every
//  publisher: each event is applied exactly once, in each publisher's
//  order, even across restarts of either side. 0 or -1.
int
bus_node_follow(bus_node_t *self, const char *domain, bus_node_apply_fn *fn, void *arg);

//  The URL clients use (the gateway's API, the storage-proxy's transfers),
//  which the ready line ends with as url=...: set it in the service's init,
//  before bus_node_start prints that line.
void bus_node_set_url(bus_node_t *self, const char *url);

//  The URL of a web UI the service serves (the gateway's web listener),
//  which the ready line carries as web=... before url=...
void bus_node_set_web_url(bus_node_t *self, const char *url);

//  Appends a service's own Prometheus lines to out, after the node's.
typedef void(bus_node_metrics_fn)(void *arg, struct evbuffer *out);

//  Makes GET /metrics on the node's HTTP endpoint end with fn's lines (fn
//  NULL: none). arg is borrowed and must outlive the node or a reset.
void bus_node_set_metrics(bus_node_t *self, bus_node_metrics_fn *fn, void *arg);

//  How far this node has applied the durable stream of domain from the
//  publisher src ("service/node"): its last sequence number applied, 0 when
//  none yet (or the domain is not followed).
uint64_t bus_node_applied(bus_node_t *self, const char *src, const char *domain);

//  Publishes an ephemeral event. 0 or -1 (dropped).
int
bus_node_publish(bus_node_t *self, const char *topic, const void *body, size_t body_size);

//  Records a durable event: inside the caller's open transaction (commit it
//  with bus_node_commit), or in one of its own. Returns the sequence number
//  or 0.
uint64_t
bus_node_emit(bus_node_t *self, const char *topic, const void *body, size_t body_size);

//  Transactions on the node's database that publish the events emitted
//  inside them once they commit.
int bus_node_begin(bus_node_t *self);
int bus_node_commit(bus_node_t *self);
int bus_node_rollback(bus_node_t *self);

//  Calls method on the RPC server at endpoint (a client is kept per
//  endpoint). timeout_ms <= 0 means bus.rpc_timeout_ms. Returns the call id,
//  or 0 when it could not be sent (fn does not run then).
uint64_t bus_node_call(bus_node_t *self,
                       const char *endpoint,
                       const char *method,
                       const void *body,
                       size_t body_size,
                       int timeout_ms,
                       bus_reply_fn *fn,
                       void *arg);

//  Forgets a pending call made with bus_node_call to endpoint.
void bus_node_cancel(bus_node_t *self, const char *endpoint, uint64_t call_id);

//  The last peer list from the registry (refreshed every bus.sync_ms).
//  Borrowed; valid until the next refresh.
const proto_registry_peers_rep_t *bus_node_peers(bus_node_t *self);

//  The RPC endpoint of the first live peer of service, or NULL.
const char *bus_node_find(bus_node_t *self, const char *service);

//  Asks the registry for the peer list now; fn gets the raw reply.
uint64_t bus_node_refresh_peers(bus_node_t *self, bus_reply_fn *fn, void *arg);

//  Creates directory path and its missing parents (mode 0750). 0 or -1.
int bus_mkdirs(const char *path);
//  The same with mode for each directory it creates (existing ones keep
//  theirs). 0 or -1 with errno.
int bus_mkdirs_mode(const char *path, mode_t mode);

#endif
