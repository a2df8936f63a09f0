/*  =========================================================================
    gw_etcd - /config/resource-slots, its details, vfolder-types and
    docker-registries

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  Display metadata of the slot types Backend.AI describes (its
//  KNOWN_SLOT_METADATA): the details route answers these fields.
typedef struct {
    const char *slot;
    const char *slot_name;
    const char *description;
    const char *human_readable_name;
    const char *display_unit;
    bool binary;
    int round_length;
    const char *display_icon;
} slot_metadata_t;

static const slot_metadata_t s_metadata[] = {
    {"cpu", "cpu", "CPU", "CPU", "Core", false, 0, "cpu"},
    {"mem", "ram", "Memory", "RAM", "GiB", true, 0, "cpu"},
    {"cuda.device", "cuda.device", "CUDA-capable GPU", "GPU", "GPU", false, 0, "gpu1"},
    {"cuda.shares", "cuda.shares", "CUDA-capable GPU (fractional)", "fGPU", "fGPU", false,
     2, "gpu1"},
    {"rocm.device", "rocm.device", "ROCm-capable GPU", "GPU", "GPU", false, 0, "gpu2"},
    {"tpu.device", "tpu.device", "TPU device", "TPU", "GPU", false, 0, "tpu"},
};

typedef struct {
    gw_request_t *r;
    bool details;
    char *sgroup; //  details only: NULL for every group
} slots_call_t;

//  slot -> unit for cpu, mem and every slot the agents kept report.
static json_t *
s_slot_types(json_t *agents, const char *sgroup)
{
    json_t *types = json_pack("{s:s, s:s}", "cpu", "count", "mem", "bytes");
    size_t index;
    json_t *agent;
    json_array_foreach(agents, index, agent)
    {
        if (sgroup) {
            const char *group =
                json_string_value(json_object_get(agent, "scaling_group"));
            const char *status = json_string_value(json_object_get(agent, "status"));
            if (!group || strcmp(group, sgroup) != 0 || !status ||
                strcmp(status, "ALIVE") != 0 ||
                !json_is_true(json_object_get(agent, "schedulable")))
                continue;
        }
        //  gw_agent_from_reply gives the slot maps as JSON text.
        const char *text = json_string_value(json_object_get(agent, "available_slots"));
        json_t *slots = text ? json_loads(text, 0, NULL) : NULL;
        const char *slot;
        json_t *value;
        json_object_foreach(slots, slot, value)
        {
            (void) value;
            json_object_set_new(
                types, slot,
                json_string(bus_slots_unit(slot) == BUS_SLOTS_BYTES ? "bytes" : "count"));
        }
        json_decref(slots);
    }
    return types;
}

static json_t *
s_details(json_t *types)
{
    json_t *out = json_object();
    for (size_t i = 0; i < sizeof s_metadata / sizeof s_metadata[0]; i++) {
        const slot_metadata_t *m = &s_metadata[i];
        if (!json_object_get(types, m->slot))
            continue;
        json_object_set_new(
            out, m->slot,
            json_pack("{s:s, s:s, s:s, s:s, s:{s:b, s:i}, s:s}", "slot_name",
                      m->slot_name, "description", m->description, "human_readable_name",
                      m->human_readable_name, "display_unit", m->display_unit,
                      "number_format", "binary", m->binary, "round_length",
                      m->round_length, "display_icon", m->display_icon));
    }
    return out;
}

static void
s_on_agents(void *arg, const bus_reply_t *reply)
{
    slots_call_t *call = arg;
    json_t *agents = gw_agent_from_reply(reply);
    if (!json_is_array(agents)) {
        const char *why = json_string_value(json_object_get(agents, "error"));
        gw_reply_status(call->r, BUS_STATUS_UNAVAILABLE, why ? why : "no answer");
    } else {
        //  The types come from every agent the registry knows (Backend.AI's
        //  come from every agent that registered); the details' sgroup
        //  filter keeps the group's ALIVE, schedulable agents' and cpu, mem.
        json_t *types = s_slot_types(agents, NULL);
        if (call->details && call->sgroup) {
            json_t *of_group = s_slot_types(agents, call->sgroup);
            json_t *all = s_details(types);
            json_t *kept = json_object();
            const char *slot;
            json_t *value;
            json_object_foreach(all, slot, value)
            {
                if (json_object_get(of_group, slot))
                    json_object_set(kept, slot, value);
            }
            json_decref(all);
            json_decref(of_group);
            gw_reply_json(call->r, 200, kept);
        } else if (call->details)
            gw_reply_json(call->r, 200, s_details(types));
        else {
            gw_reply_json(call->r, 200, types);
            types = NULL;
        }
        json_decref(types);
    }
    json_decref(agents);
    free(call->sgroup);
    free(call);
}

static void
s_ask_agents(gw_request_t *r, bool details)
{
    const char *sgroup = NULL;
    char detail[128] = "";
    if (details && !gw_params_str(r->params, "sgroup", &sgroup, detail, sizeof detail)) {
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    slots_call_t *call = calloc(1, sizeof *call);
    if (call) {
        call->r = r;
        call->details = details;
        call->sgroup = sgroup ? strdup(sgroup) : NULL;
    }
    const char *scheduler = bus_node_find(gw_server_node(r->gw), "scheduler");
    static const uint8_t empty_map = 0x80; //  scheduler.agents with no filter
    if (!call || (sgroup && !call->sgroup) || !scheduler ||
        !bus_node_call(gw_server_node(r->gw), scheduler, PROTO_SCHEDULER_AGENTS,
                       &empty_map, 1, 0, s_on_agents, call)) {
        gw_reply_status(r, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
        if (call)
            free(call->sgroup);
        free(call);
    }
}

void
gw_etcd_handle_resource_slots(gw_request_t *r)
{
    s_ask_agents(r, false);
}

void
gw_etcd_handle_resource_slot_details(gw_request_t *r)
{
    s_ask_agents(r, true);
}

void
gw_etcd_handle_vfolder_types(gw_request_t *r)
{
    //  Folders may be owned by a user or by a project (gw_vfolder).
    gw_reply_json(r, 200, json_pack("[s, s]", "user", "group"));
}

void
gw_etcd_handle_docker_registries(gw_request_t *r)
{
    if (!gw_identity_is_superadmin(&r->who)) {
        gw_reply_problem(r, "generic-forbidden", "Only a superadmin may do this.");
        return;
    }
    json_t *rows = gw_image_registries(gw_server_db(r->gw));
    if (!rows) {
        gw_reply_problem(r, "internal-server-error", "cannot read the images");
        return;
    }
    json_t *out = json_pack("{s:s}", GW_IMAGE_DEFAULT_REGISTRY, GW_ETCD_DOCKER_HUB_URL);
    size_t index;
    json_t *row;
    json_array_foreach(rows, index, row)
    {
        const char *name = json_string_value(json_object_get(row, "registry"));
        if (!name || !*name || json_object_get(out, name))
            continue;
        char url[300];
        snprintf(url, sizeof url, "https://%s", name);
        json_object_set_new(out, name, json_string(url));
    }
    json_decref(rows);
    gw_reply_json(r, 200, out);
}
