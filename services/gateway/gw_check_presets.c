/*  =========================================================================
    gw_check_presets - POST /resource/check-presets: what the caller may
    still allocate, and which resource presets fit now

    The limits are the gateway's (the keypair's resource policy, the
    project's and the domain's total_resource_slots); what is held comes
    from the scheduler's allocation ledger (scheduler.usage), and what the
    agents have free from its registry (scheduler.agents). The two calls
    run one after the other, then the answer is computed here:

      remaining = limit - held, per slot, never below zero ("Infinity"
                  when there is no limit);
      a resource group's remaining = the sum over its ALIVE, schedulable
                  agents of capacity - occupied (an agent's GPUs offered both
                  whole and as shares counted once: s_couple);
      a preset is allocatable when it fits the keypair's, the project's and
                  the domain's remaining, and one agent of the resource
                  groups asked about has room for all of it (a kernel runs
                  on one agent).

    The slots reported are cpu and mem and every slot an agent offers, as
    Backend.AI reports the slot types its agents know.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define SLOTS_MAX 64

//  One slot's amounts for everything the answer holds.
typedef struct {
    char name[48];
    bus_slots_unit_t unit;
} check_slot_t;

//  The request while it waits for the scheduler.
typedef struct {
    gw_request_t *r;
    char project_id[GW_UUID_SIZE];
    json_t *sgroups;       //  names asked about: the one given, or every usable one
    json_t *keypair_limit; //  slot maps as stored (objects of strings)
    json_t *group_limit;
    json_t *domain_limit;
    bool keypair_unlimited; //  default_for_unspecified = UNLIMITED
    json_t *usage;          //  scheduler.usage reply as JSON
} check_t;

static void
s_check_free(check_t *self)
{
    json_decref(self->sgroups);
    json_decref(self->keypair_limit);
    json_decref(self->group_limit);
    json_decref(self->domain_limit);
    json_decref(self->usage);
    free(self);
}

//  A stored slot map (JSON text) as an object; {} when absent or broken.
static json_t *
s_slot_object(const char *text)
{
    json_t *object = text ? json_loads(text, 0, NULL) : NULL;
    if (!json_is_object(object)) {
        json_decref(object);
        object = json_object();
    }
    return object;
}

//  A proto slot map as a JSON object of strings.
static json_t *
s_map_object(const proto_kv_t *map, size_t count)
{
    json_t *object = json_object();
    for (size_t i = 0; i < count; i++)
        json_object_set_new(object, map[i].key, json_string(map[i].value));
    return object;
}

//  The amount of slot in object (a map of strings or numbers); missing is
//  fallback.
static bus_slots_value_t
s_amount(json_t *object, const check_slot_t *slot, bus_slots_value_t fallback)
{
    json_t *text = json_object_get(object, slot->name);
    bus_slots_value_t value = fallback;
    bus_error_t err = {0};
    if (text &&
        bus_slots_parse_value(slot->unit, slot->name, text, &value, &err) != BUS_OK)
        value = fallback; //  stored values were normalized; this cannot happen
    return value;
}

static bus_slots_value_t
s_minus(bus_slots_value_t a, bus_slots_value_t b)
{
    if (a.infinite)
        return a;
    if (b.infinite || b.amount >= a.amount)
        return (bus_slots_value_t){false, 0};
    return (bus_slots_value_t){false, a.amount - b.amount};
}

static bus_slots_value_t
s_plus(bus_slots_value_t a, bus_slots_value_t b)
{
    if (a.infinite || b.infinite)
        return (bus_slots_value_t){true, 0};
    return (bus_slots_value_t){false, a.amount + b.amount};
}

static bool
s_fits(bus_slots_value_t want, bus_slots_value_t room)
{
    return room.infinite || (!want.infinite && want.amount <= room.amount);
}

static void
s_put(json_t *object, const check_slot_t *slot, bus_slots_value_t value)
{
    char text[BUS_SLOTS_VALUE_MAX];
    bus_slots_format_value(slot->unit, &value, text);
    json_object_set_new(object, slot->name, json_string(text));
}

//  An agent that offers <p>.device and <p>.shares over the same GPUs gives
//  each GPU either whole or as shares (issue 20): room[] (per slot, from
//  capacity - occupied) gets what each can really still be given, as the
//  scheduler's pass counts it: GPUs held whole have no shares, and shares
//  in use keep at least ceil(shares / per GPU) GPUs from being taken whole.
static void
s_couple(const check_slot_t *slots,
         size_t count,
         json_t *available,
         json_t *occupied,
         bus_slots_value_t *room)
{
    bus_slots_value_t zero = {false, 0};
    for (size_t d = 0; d < count; d++) {
        const char *dot = strrchr(slots[d].name, '.');
        if (!dot || !bus_slots_whole(slots[d].name))
            continue;
        char shares_name[sizeof slots[d].name + 8];
        snprintf(shares_name, sizeof shares_name, "%.*s.shares",
                 (int) (dot - slots[d].name), slots[d].name);
        for (size_t s = 0; s < count; s++) {
            if (strcmp(slots[s].name, shares_name) != 0)
                continue;
            bus_slots_value_t devices = s_amount(available, &slots[d], zero);
            bus_slots_value_t capacity = s_amount(available, &slots[s], zero);
            bus_slots_pair_t pair;
            if (devices.infinite || capacity.infinite ||
                !bus_slots_pair(devices.amount, capacity.amount,
                                s_amount(occupied, &slots[d], zero).amount,
                                s_amount(occupied, &slots[s], zero).amount, &pair))
                continue;
            room[d] = (bus_slots_value_t){false, bus_slots_pair_device_room(&pair)};
            room[s] = (bus_slots_value_t){false, bus_slots_pair_shares_room(&pair)};
        }
    }
}

//  Adds name to the slot list unless it is there or unknown.
static void
s_add_slot(check_slot_t *slots, size_t *count, const char *name)
{
    bus_slots_unit_t unit = bus_slots_unit(name);
    if (unit == BUS_SLOTS_UNKNOWN || *count == SLOTS_MAX)
        return;
    for (size_t i = 0; i < *count; i++)
        if (strcmp(slots[i].name, name) == 0)
            return;
    snprintf(slots[*count].name, sizeof slots[*count].name, "%s", name);
    slots[*count].unit = unit;
    (*count)++;
}

//  True when agent counts toward the resource groups asked about.
static bool
s_agent_counts(json_t *agent, json_t *sgroups)
{
    if (strcmp(json_string_value(json_object_get(agent, "status")), "ALIVE") != 0 ||
        !json_is_true(json_object_get(agent, "schedulable")))
        return false;
    const char *sgroup = json_string_value(json_object_get(agent, "scaling_group"));
    size_t index;
    json_t *name;
    json_array_foreach(sgroups, index,
                       name) if (sgroup && strcmp(json_string_value(name), sgroup) ==
                                               0) return true;
    return false;
}

//  Computes and sends the answer from the limits, the usage and agents.
static void
s_answer(check_t *self, json_t *agents)
{
    gw_request_t *r = self->r;
    check_slot_t slots[SLOTS_MAX];
    size_t count = 0;
    s_add_slot(slots, &count, "cpu");
    s_add_slot(slots, &count, "mem");
    size_t index;
    json_t *agent;
    json_array_foreach(agents, index, agent)
    {
        json_t *available = json_loads(
            json_string_value(json_object_get(agent, "available_slots")), 0, NULL);
        const char *name;
        json_t *value;
        json_object_foreach(available, name, value) s_add_slot(slots, &count, name);
        json_decref(available);
    }
    const bus_slots_value_t zero = {false, 0}, unlimited = {true, 0};
    bus_slots_value_t keypair_room[SLOTS_MAX], group_room[SLOTS_MAX],
        domain_room[SLOTS_MAX];
    json_t *out = json_object();
    json_t *keypair_limits = json_object(), *keypair_using = json_object(),
           *keypair_remaining = json_object(), *group_limits = json_object(),
           *group_using = json_object(), *group_remaining = json_object();
    json_t *held_keypair = json_object_get(self->usage, "keypair");
    json_t *held_group = json_object_get(self->usage, "group");
    json_t *held_domain = json_object_get(self->usage, "domain");
    for (size_t i = 0; i < count; i++) {
        bus_slots_value_t limit = s_amount(self->keypair_limit, &slots[i],
                                           self->keypair_unlimited ? unlimited : zero);
        bus_slots_value_t held = s_amount(held_keypair, &slots[i], zero);
        keypair_room[i] = s_minus(limit, held);
        s_put(keypair_limits, &slots[i], limit);
        s_put(keypair_using, &slots[i], held);
        s_put(keypair_remaining, &slots[i], keypair_room[i]);
        limit = s_amount(self->group_limit, &slots[i], unlimited);
        held = s_amount(held_group, &slots[i], zero);
        group_room[i] = s_minus(limit, held);
        s_put(group_limits, &slots[i], limit);
        s_put(group_using, &slots[i], held);
        s_put(group_remaining, &slots[i], group_room[i]);
        domain_room[i] = s_minus(s_amount(self->domain_limit, &slots[i], unlimited),
                                 s_amount(held_domain, &slots[i], zero));
    }
    //  Per resource group: the keypair's holdings and the agents' room.
    json_t *per_sgroup = json_object(), *sgroup_remaining = json_object();
    bus_slots_value_t total_room[SLOTS_MAX];
    for (size_t i = 0; i < count; i++)
        total_room[i] = zero;
    json_t *name;
    json_array_foreach(self->sgroups, index, name)
    {
        json_t *using = json_object(), *remaining = json_object();
        json_t *held = json_object_get(json_object_get(self->usage, "by_scaling_group"),
                                       json_string_value(name));
        for (size_t i = 0; i < count; i++) {
            s_put(using, &slots[i], s_amount(held, &slots[i], zero));
            s_put(remaining, &slots[i], zero);
        }
        json_object_set_new(
            per_sgroup, json_string_value(name),
            json_pack("{s:o, s:o}", "using", using, "remaining", remaining));
    }
    //  Each agent's room, kept for the presets' fit.
    size_t agent_count = json_array_size(agents);
    bus_slots_value_t(*rooms)[SLOTS_MAX] =
        calloc(agent_count ? agent_count : 1, sizeof *rooms);
    size_t counted = 0;
    json_array_foreach(agents, index, agent)
    {
        if (!rooms || !s_agent_counts(agent, self->sgroups))
            continue;
        json_t *available = json_loads(
            json_string_value(json_object_get(agent, "available_slots")), 0, NULL);
        json_t *occupied = json_loads(
            json_string_value(json_object_get(agent, "occupied_slots")), 0, NULL);
        json_t *remaining = json_object_get(
            json_object_get(per_sgroup,
                            json_string_value(json_object_get(agent, "scaling_group"))),
            "remaining");
        for (size_t i = 0; i < count; i++)
            rooms[counted][i] = s_minus(s_amount(available, &slots[i], zero),
                                        s_amount(occupied, &slots[i], zero));
        s_couple(slots, count, available, occupied, rooms[counted]);
        for (size_t i = 0; i < count; i++) {
            bus_slots_value_t room = rooms[counted][i];
            total_room[i] = s_plus(total_room[i], room);
            s_put(remaining, &slots[i],
                  s_plus(s_amount(remaining, &slots[i], zero), room));
        }
        counted++;
        json_decref(available);
        json_decref(occupied);
    }
    for (size_t i = 0; i < count; i++)
        s_put(sgroup_remaining, &slots[i], total_room[i]);
    //  The presets of the resource group asked about (all when none was).
    const char *sgroup = json_string_value(json_object_get(r->params, "scaling_group"));
    json_t *rows = NULL, *presets = json_array();
    bus_error_t err = {0};
    if (gw_preset_list(gw_request_ctx(r), sgroup, &rows, &err) == BUS_OK) {
        json_t *row;
        json_array_foreach(rows, index, row)
        {
            json_t *want =
                s_slot_object(json_string_value(json_object_get(row, "resource_slots")));
            bool quota = true, agent_fits = false;
            for (size_t i = 0; i < count; i++) {
                bus_slots_value_t amount = s_amount(want, &slots[i], zero);
                quota &= s_fits(amount, keypair_room[i]) &&
                         s_fits(amount, group_room[i]) && s_fits(amount, domain_room[i]);
            }
            for (size_t a = 0; quota && !agent_fits && a < counted; a++) {
                agent_fits = true;
                for (size_t i = 0; i < count; i++)
                    agent_fits &= s_fits(s_amount(want, &slots[i], zero), rooms[a][i]);
            }
            json_array_append_new(
                presets, json_pack("{s:O, s:o, s:O, s:b}", "name",
                                   json_object_get(row, "name"), "resource_slots", want,
                                   "shared_memory", json_object_get(row, "shared_memory"),
                                   "allocatable", quota && agent_fits));
        }
    }
    json_decref(rows);
    free(rooms);
    json_object_set_new(out, "keypair_limits", keypair_limits);
    json_object_set_new(out, "keypair_using", keypair_using);
    json_object_set_new(out, "keypair_remaining", keypair_remaining);
    json_object_set_new(out, "group_limits", group_limits);
    json_object_set_new(out, "group_using", group_using);
    json_object_set_new(out, "group_remaining", group_remaining);
    json_object_set_new(out, "scaling_group_remaining", sgroup_remaining);
    json_object_set_new(out, "scaling_groups", per_sgroup);
    json_object_set_new(out, "presets", presets);
    gw_reply_json(r, 200, out);
}

static void
s_on_agents(void *arg, const bus_reply_t *reply)
{
    check_t *self = arg;
    json_t *agents = gw_agent_from_reply(reply);
    if (!json_is_array(agents)) {
        const char *why = json_string_value(json_object_get(agents, "error"));
        gw_reply_status(self->r, BUS_STATUS_UNAVAILABLE, why ? why : "no answer");
    } else
        s_answer(self, agents);
    json_decref(agents);
    s_check_free(self);
}

static void
s_on_usage(void *arg, const bus_reply_t *reply)
{
    check_t *self = arg;
    proto_scheduler_usage_rep_t usage;
    bus_error_t err = {0};
    if (reply->status != BUS_OK ||
        proto_scheduler_usage_rep_decode(&usage, reply->body, reply->body_size, &err) !=
            BUS_OK) {
        gw_reply_status(self->r, BUS_STATUS_UNAVAILABLE,
                        reply->status != BUS_OK ? reply->detail : err.detail);
        s_check_free(self);
        return;
    }
    json_t *by_sgroup = json_object();
    for (size_t i = 0; i < usage.keypair_by_scaling_group_count; i++) {
        const proto_scheduler_usage_t *u = &usage.keypair_by_scaling_group[i];
        json_object_set_new(by_sgroup, u->scaling_group,
                            s_map_object(u->slots, u->slots_count));
    }
    self->usage = json_pack("{s:o, s:o, s:o, s:o}", "keypair",
                            s_map_object(usage.keypair, usage.keypair_count), "group",
                            s_map_object(usage.group, usage.group_count), "domain",
                            s_map_object(usage.domain, usage.domain_count),
                            "by_scaling_group", by_sgroup);
    proto_scheduler_usage_rep_clear(&usage);
    const char *scheduler = bus_node_find(gw_server_node(self->r->gw), "scheduler");
    static const uint8_t empty_map = 0x80; //  scheduler.agents with no filter
    if (!scheduler ||
        !bus_node_call(gw_server_node(self->r->gw), scheduler, PROTO_SCHEDULER_AGENTS,
                       &empty_map, 1, 0, s_on_agents, self)) {
        gw_reply_status(self->r, BUS_STATUS_UNAVAILABLE,
                        "the scheduler is not reachable");
        s_check_free(self);
    }
}

//  Reads the limits of the caller's keypair, project and domain: the ones each
//  session.create carries to the scheduler (gw_limits).
static int
s_limits(check_t *self, bus_error_t *err)
{
    json_t *limits = gw_limits_of(gw_request_ctx(self->r), self->project_id, err);
    if (!limits)
        return err->status;
    const char *kinds[] = {"keypair", "project", "domain"};
    json_t **maps[] = {&self->keypair_limit, &self->group_limit, &self->domain_limit};
    for (int i = 0; i < 3; i++)
        *maps[i] = json_incref(
            json_object_get(json_object_get(limits, kinds[i]), "total_resource_slots"));
    const char *unspecified = json_string_value(
        json_object_get(json_object_get(limits, "keypair"), "unspecified"));
    self->keypair_unlimited = !unspecified || strcmp(unspecified, "unlimited") == 0;
    json_decref(limits);
    return BUS_OK;
}

void
gw_check_presets_handle(gw_request_t *r)
{
    json_t *group = json_object_get(r->params, "group");
    json_t *sgroup = json_object_get(r->params, "scaling_group");
    if ((group && !json_is_string(group) && !json_is_null(group)) ||
        (sgroup && !json_is_string(sgroup) && !json_is_null(sgroup))) {
        gw_reply_problem(r, "invalid-api-params", "group and scaling_group are strings");
        return;
    }
    check_t *self = calloc(1, sizeof *self);
    if (!self) {
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    self->r = r;
    bus_error_t err = {0};
    //  The client sends the project name, "default" when the user gave none.
    const char *project = json_is_string(group) ? json_string_value(group) : "default";
    json_t *usable = NULL;
    int rc =
        gw_sgroup_usable(gw_request_ctx(r), project, self->project_id, &usable, &err);
    if (rc == BUS_STATUS_NOT_FOUND) {
        gw_reply_problem(r, "invalid-api-params", "Unknown project");
        s_check_free(self);
        return;
    }
    if (rc == BUS_OK && json_is_string(sgroup)) {
        bool allowed = false;
        size_t index;
        json_t *name;
        json_array_foreach(usable, index, name) allowed |=
            strcmp(json_string_value(name), json_string_value(sgroup)) == 0;
        json_decref(usable);
        usable = NULL;
        if (!allowed) {
            gw_reply_problem(r, "invalid-api-params", "Unknown scaling group");
            s_check_free(self);
            return;
        }
        self->sgroups = json_pack("[O]", sgroup);
    } else
        self->sgroups = usable;
    if (rc == BUS_OK)
        rc = s_limits(self, &err);
    if (rc != BUS_OK) {
        gw_reply_status(r, rc, err.detail);
        s_check_free(self);
        return;
    }
    proto_scheduler_usage_req_t req;
    proto_scheduler_usage_req_init(&req);
    req.access_key = r->who.access_key;
    req.group_id = self->project_id;
    req.domain_name = r->who.domain;
    bus_writer_t *writer = bus_writer_new();
    const char *scheduler = bus_node_find(gw_server_node(r->gw), "scheduler");
    bool sent = writer && scheduler &&
                proto_scheduler_usage_req_write(&req, writer) == 0 &&
                bus_node_call(gw_server_node(r->gw), scheduler, PROTO_SCHEDULER_USAGE,
                              bus_writer_data(writer), bus_writer_size(writer), 0,
                              s_on_usage, self);
    bus_writer_destroy(&writer);
    if (!sent) {
        gw_reply_status(r, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
        s_check_free(self);
    }
}
