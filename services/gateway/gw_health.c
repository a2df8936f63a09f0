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
s_finish(health_check_t *check)
{
    {
        static const char *expected[] = GW_HEALTH_SERVICES;
        json_t *missing = json_array();
        for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
            bool up = false;
            size_t index;
            json_t *entry;
            json_array_foreach(check->services, index, entry)
            {
                if (strcmp(json_string_value(json_object_get(entry, "service")),
                           expected[i]) == 0 &&
                    strcmp(json_string_value(json_object_get(entry, "status")), "up") ==
                        0)
                    up = true;
            }
            if (!up)
                json_array_append_new(missing, json_string(expected[i]));
        }
        bool ok = json_array_size(missing) == 0;
        json_t *body =
            json_pack("{s:s, s:s, s:o, s:o}", "status", ok ? "ok" : "degraded", "version",
                      BACKPLANE_VERSION, "services", check->services, "missing", missing);
        check->services = NULL;
        gw_reply_json(check->r, ok ? 200 : 503, body);
    }
    json_decref(check->services);
    free(check);
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
    const gw_config_t *config = gw->config;
    proto_registry_peers_rep_t peers;
    bus_error_t err = {0};
    if (reply->status != BUS_OK ||
        proto_registry_peers_rep_decode(&peers, reply->body, reply->body_size, &err) !=
            BUS_OK) {
        gw_reply_problem(check->r, "service-unavailable",
                         "the bus registry did not answer");
        json_decref(check->services);
        free(check);
        return;
    }
    //  The gateway answers for itself; the others over the bus.
    json_array_append_new(check->services,
                          json_pack("{s:s, s:s, s:s, s:s, s:I}", "service", "gateway",
                                    "node", bus_node_name(gw->node), "rpc",
                                    bus_node_rpc_endpoint(gw->node), "status",
                                    bus_db_ok(bus_node_db(gw->node)) ? "up" : "degraded",
                                    "latency_ms", (json_int_t) 0));
    check->pending = 1; //  held until the loop below is done
    for (size_t i = 0; i < peers.peers_count; i++) {
        proto_registry_peer_t *peer = &peers.peers[i];
        if (strcmp(peer->service, "gateway") == 0 &&
            strcmp(peer->node, bus_node_name(gw->node)) == 0)
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
        if (!bus_node_call(gw->node, call->endpoint, PROTO_SERVICE_HEALTH, &empty_map, 1,
                           config->healthz_timeout_ms, s_on_health, call)) {
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
    check->started_ms = bus_clock_mono_ms();
    if (!bus_node_refresh_peers(r->gw->node, s_on_peers, check)) {
        json_decref(check->services);
        free(check);
        gw_reply_problem(r, "service-unavailable", "cannot reach the bus registry");
    }
}
