/*  =========================================================================
    bus_node_private - the node's state, shared by the bus_node*.c files only

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_NODE_PRIVATE_H_INCLUDED
#define BUS_NODE_PRIVATE_H_INCLUDED

#include "bus_classes.h"

#define NODE_RPC_TICK_MS         10  //  deadline resolution of outgoing calls
#define NODE_PUMP_EVENTS         256 //  events read per pass of the pump
#define NODE_PUMP_PASSES         8   //  passes before yielding to the event loop
#define NODE_PUMP_BUDGET_MS      50  //  or once a pass ends this long after the start
#define NODE_FOLLOW_MAX          16
#define NODE_TRIM_EVERY_CRONS    60
#define NODE_UNREGISTER_MS       500
#define NODE_METRICS_STREAMS_MAX 64 //  outbox domains /metrics lists at most

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
    char web_url[512]; //  the gateway's web UI, for the ready line; "" when none
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
    int64_t clock_logged_us; //  the offset to the registry's clock last logged
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
    //  The service's own /metrics lines (bus_node_set_metrics); NULL: none.
    bus_node_metrics_fn *metrics_fn;
    void *metrics_arg;
};

//  The pump and its kick (bus_node.c)
void node_pump(bus_node_t *self);
void node_kick(bus_node_t *self);
//  The RPC client of an endpoint, made on first use (bus_node.c)
node_client_t *node_client(bus_node_t *self, const char *endpoint);
//  Presence (bus_node_presence.c)
void node_register(bus_node_t *self);
void node_heartbeat(bus_node_t *self);
void
node_on_expired(void *arg, const char *service, const char *node, int64_t last_seen_us);
//  Durable domains (bus_node_durable.c): ask every peer for what is missing
void node_sync(bus_node_t *self);
int node_serve_replay(void *arg,
                      bus_rpc_request_t *req,
                      const void *body,
                      size_t size,
                      bus_writer_t *reply,
                      bus_error_t *err);
//  Health (bus_node_health.c)
proto_service_health_fn node_serve_health;
int node_http_start(bus_node_t *self);
//  The body of GET /metrics: the node's lines, then the service's (bus_node_metrics.c)
void node_metrics_write(bus_node_t *self, struct evbuffer *out);

#endif
