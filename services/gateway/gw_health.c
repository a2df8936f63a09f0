/*  =========================================================================
    gw_health - the /healthz fan-out over the bus

    The HTTP client may hang up while the calls are out; the request object
    notices, and the reply at the end then only releases it.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

typedef struct {
    gw_request_t *r;
    json_t *services; //  array of per-peer reports
    json_t *missing;  //  kinds of service with no peer up
    json_t *agents;   //  node names of the agent peers the registry lists
    json_t *waiting;  //  what the gateway's own views still lack
    int pending;
    int64_t started_ms;
} health_check_t;

typedef struct {
    health_check_t *check;
    char *service;
    char *node;
    char *endpoint;
    int64_t sent_ms;
} health_call_t;

static void
s_check_free(health_check_t *check)
{
    json_decref(check->services);
    json_decref(check->missing);
    json_decref(check->agents);
    json_decref(check->waiting);
    free(check);
}

//  The answer: "status" says whether every kind of service has a peer up,
//  "ready" whether the gateway can also serve what depends on them (see
//  gw_health.h); 200 only when both hold.
static void
s_reply(health_check_t *check)
{
    bool ok = json_array_size(check->missing) == 0;
    bool ready = ok && json_array_size(check->waiting) == 0;
    json_t *body =
        json_pack("{s:s, s:b, s:s, s:O, s:O, s:O}", "status", ok ? "ok" : "degraded",
                  "ready", ready, "version", BACKPLANE_VERSION, "services",
                  check->services, "missing", check->missing, "waiting", check->waiting);
    gw_reply_json(check->r, ready ? 200 : 503, body);
    s_check_free(check);
}

static void
s_wait_for(health_check_t *check, const char *what)
{
    json_array_append_new(check->waiting, json_string(what));
}

//  Last step: the scheduler's agents. Ready needs one that is alive,
//  schedulable and has capacity, and, for every agent on the bus, its image
//  catalogue applied to the gateway's own (the images a session can name).
static void
s_on_agents(void *arg, const bus_reply_t *reply)
{
    health_check_t *check = arg;
    bus_node_t *node = gw_server_node(check->r->gw);
    proto_scheduler_agents_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK ||
        proto_scheduler_agents_rep_decode(&rep, reply->body, reply->body_size, &err) !=
            BUS_OK) {
        s_wait_for(check, "the scheduler's agent list");
        s_reply(check);
        return;
    }
    bool capacity = false;
    for (size_t i = 0; i < rep.agents_count && !capacity; i++) {
        const proto_scheduler_agent_t *a = &rep.agents[i];
        capacity = a->status && strcmp(a->status, "ALIVE") == 0 && a->schedulable &&
                   a->available_slots_count > 0;
    }
    proto_scheduler_agents_rep_clear(&rep);
    if (!capacity)
        s_wait_for(check, "an agent with capacity in the scheduler");
    size_t index;
    json_t *name;
    json_array_foreach(check->agents, index, name)
    {
        char src[BUS_SRC_MAX], what[BUS_SRC_MAX + 32];
        snprintf(src, sizeof src, "agent/%s", json_string_value(name));
        if (bus_node_applied(node, src, "image") == 0) {
            snprintf(what, sizeof what, "the image catalogue of %s", src);
            s_wait_for(check, what);
        }
    }
    s_reply(check);
}

//  The storage directory is fresh: it must hold every storage-proxy's
//  volumes (a folder request right after "ready" must find its host).
static void
s_on_storage(void *arg)
{
    health_check_t *check = arg;
    gw_server_t *gw = check->r->gw;
    if (!gw_storage_complete(gw_server_storage(gw)))
        s_wait_for(check, "the volumes of every storage-proxy");
    const char *scheduler = bus_node_find(gw_server_node(gw), "scheduler");
    static const uint8_t empty_map = 0x80; //  scheduler.agents with no filter
    if (!scheduler ||
        !bus_node_call(gw_server_node(gw), scheduler, PROTO_SCHEDULER_AGENTS, &empty_map,
                       1, gw_server_config(gw)->healthz_timeout_ms, s_on_agents, check)) {
        s_wait_for(check, "the scheduler's agent list");
        s_reply(check);
    }
}

//  Every service answered (or not). When each kind has a peer up, go on to
//  readiness: the gateway's own views, which are what requests use.
static void
s_finish(health_check_t *check)
{
    static const char *expected[] = GW_HEALTH_SERVICES;
    gw_server_t *gw = check->r->gw;
    bool refresh = false;
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        bool up = false;
        size_t index;
        json_t *entry;
        json_array_foreach(check->services, index, entry)
        {
            if (strcmp(json_string_value(json_object_get(entry, "service")),
                       expected[i]) == 0 &&
                strcmp(json_string_value(json_object_get(entry, "status")), "up") == 0)
                up = true;
        }
        if (!up)
            json_array_append_new(check->missing, json_string(expected[i]));
        else if (strcmp(expected[i], "gateway") != 0 &&
                 !bus_node_find(gw_server_node(gw), expected[i])) {
            char what[96];
            snprintf(what, sizeof what, "%s in the gateway's peer list", expected[i]);
            s_wait_for(check, what);
            refresh = true;
        }
    }
    //  The peer list the gateway calls with is refreshed every bus.sync_ms;
    //  a probe that finds it behind refreshes it now for the next probe.
    if (refresh)
        bus_node_refresh_peers(gw_server_node(gw), NULL, NULL);
    if (json_array_size(check->missing) > 0)
        s_reply(check);
    else
        gw_storage_ready(gw_server_storage(gw), s_on_storage, check);
}

static void
s_on_health(void *arg, const bus_reply_t *reply)
{
    health_call_t *call = arg;
    health_check_t *check = call->check;
    json_t *entry = json_pack("{s:s, s:s, s:s, s:I}", "service", call->service, "node",
                              call->node, "rpc", call->endpoint, "latency_ms",
                              (json_int_t) (bus_clock_mono_ms() - call->sent_ms));
    proto_service_health_rep_t health;
    bus_error_t err = {0};
    if (reply->status == BUS_OK &&
        proto_service_health_rep_decode(&health, reply->body, reply->body_size, &err) ==
            BUS_OK) {
        json_object_set_new(entry, "status",
                            json_string(health.db_ok ? "up" : "degraded"));
        json_object_set_new(entry, "version",
                            json_string(health.version ? health.version : ""));
        json_object_set_new(entry, "uptime_ms",
                            json_integer((json_int_t) health.uptime_ms));
        proto_service_health_rep_clear(&health);
    } else {
        json_object_set_new(entry, "status", json_string("down"));
        json_object_set_new(entry, "error",
                            json_string(reply->status == BUS_OK
                                            ? err.detail
                                            : bus_status_str(reply->status)));
    }
    json_array_append_new(check->services, entry);
    free(call->service);
    free(call->node);
    free(call->endpoint);
    free(call);
    if (--check->pending == 0)
        s_finish(check);
}

static void
s_on_peers(void *arg, const bus_reply_t *reply)
{
    health_check_t *check = arg;
    gw_server_t *gw = check->r->gw;
    const gw_config_t *config = gw_server_config(gw);
    proto_registry_peers_rep_t peers;
    bus_error_t err = {0};
    if (reply->status != BUS_OK ||
        proto_registry_peers_rep_decode(&peers, reply->body, reply->body_size, &err) !=
            BUS_OK) {
        gw_reply_problem(check->r, "service-unavailable",
                         "the bus registry did not answer");
        s_check_free(check);
        return;
    }
    //  The gateway answers for itself; the others over the bus.
    json_array_append_new(
        check->services,
        json_pack("{s:s, s:s, s:s, s:s, s:I}", "service", "gateway", "node",
                  bus_node_name(gw_server_node(gw)), "rpc",
                  bus_node_rpc_endpoint(gw_server_node(gw)), "status",
                  bus_db_ok(bus_node_db(gw_server_node(gw))) ? "up" : "degraded",
                  "latency_ms", (json_int_t) 0));
    check->pending = 1; //  held until the loop below is done
    for (size_t i = 0; i < peers.peers_count; i++) {
        const proto_registry_peer_t *peer = &peers.peers[i];
        if (strcmp(peer->service, "agent") == 0)
            json_array_append_new(check->agents, json_string(peer->node));
        if (strcmp(peer->service, "gateway") == 0 &&
            strcmp(peer->node, bus_node_name(gw_server_node(gw))) == 0)
            continue;
        health_call_t *call = calloc(1, sizeof *call);
        if (!call)
            continue;
        call->check = check;
        call->service = strdup(peer->service);
        call->node = strdup(peer->node);
        call->endpoint = strdup(peer->rpc_endpoint ? peer->rpc_endpoint : "");
        call->sent_ms = bus_clock_mono_ms();
        check->pending++;
        //  An empty body is the empty map of service.health's request.
        static const uint8_t empty_map = 0x80;
        if (!bus_node_call(gw_server_node(gw), call->endpoint, PROTO_SERVICE_HEALTH,
                           &empty_map, 1, config->healthz_timeout_ms, s_on_health,
                           call)) {
            bus_reply_t failed = {.status = BUS_STATUS_UNAVAILABLE, .detail = "not sent"};
            s_on_health(call, &failed);
        }
    }
    proto_registry_peers_rep_clear(&peers);
    if (--check->pending == 0)
        s_finish(check);
}

void
gw_health_handle(gw_request_t *r)
{
    health_check_t *check = calloc(1, sizeof *check);
    if (!check) {
        gw_reply_problem(r, "internal-server-error", NULL);
        return;
    }
    check->r = r;
    check->services = json_array();
    check->missing = json_array();
    check->agents = json_array();
    check->waiting = json_array();
    check->started_ms = bus_clock_mono_ms();
    if (!bus_node_refresh_peers(gw_server_node(r->gw), s_on_peers, check)) {
        s_check_free(check);
        gw_reply_problem(r, "service-unavailable", "cannot reach the bus registry");
    }
}
