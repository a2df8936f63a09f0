/*  =========================================================================
    gw_agent - agent, agents, agent_list and agent_summary_list, answered
    from the scheduler

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

json_t *
gw_agent_from_reply(const bus_reply_t *reply)
{
    proto_scheduler_agents_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK)
        return json_pack("{s:s}", "error", *reply->detail ? reply->detail : "no answer");
    if (proto_scheduler_agents_rep_decode(&rep, reply->body, reply->body_size, &err) !=
        BUS_OK)
        return json_pack("{s:s}", "error", err.detail);
    json_t *agents = json_array();
    for (size_t i = 0; i < rep.agents_count; i++) {
        const proto_scheduler_agent_t *a = &rep.agents[i];
        json_t *agent = json_pack(
            "{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:o, s:o, s:o, s:o, s:o, s:s, s:s,"
            " s:s, s:s, s:i}",
            "id", a->id, "status", a->status, "region", a->region ? a->region : "",
            "scaling_group", a->scaling_group ? a->scaling_group : "", "addr",
            a->addr ? a->addr : "", "architecture",
            a->architecture ? a->architecture : "", "version",
            a->version ? a->version : "", "schedulable", a->schedulable, "first_contact",
            gw_gql_time(a->first_contact), "status_changed",
            gw_gql_time(a->lost_at ? a->lost_at : a->first_contact), "lost_at",
            gw_gql_time(a->lost_at), "available_slots",
            gw_gql_slots(a->available_slots, a->available_slots_count), "occupied_slots",
            gw_gql_slots(a->occupied_slots, a->occupied_slots_count), "live_stat", "{}",
            "compute_plugins", "{}", "hardware_metadata", "{}", "cpu_cur_pct", "0",
            "mem_cur_bytes", 0);
        json_array_append_new(agents, agent);
    }
    proto_scheduler_agents_rep_clear(&rep);
    return agents;
}

bool
gw_agent_is_root(const char *name)
{
    for (const gw_gql_root_t *root = gw_agent_gql; root->name; root++)
        if (strcmp(root->name, name) == 0)
            return true;
    return false;
}

//  The agents the filters keep, or NULL with err (not allowed, no data).
static json_t *
s_agents(gw_request_t *r, json_t *args, bus_error_t *err)
{
    if (!gw_identity_is_superadmin(&r->who)) {
        bus_error_set(err, BUS_STATUS_FORBIDDEN, "only a superadmin lists agents");
        return NULL;
    }
    if (!json_is_array(r->prefetch)) {
        const char *why = json_string_value(json_object_get(r->prefetch, "error"));
        bus_error_set(err, BUS_STATUS_UNAVAILABLE, "the scheduler did not answer: %s",
                      why ? why : "not reachable");
        return NULL;
    }
    const char *status = gw_gql_arg(args, "status");
    const char *sgroup = gw_gql_arg(args, "scaling_group");
    json_t *kept = json_array();
    size_t index;
    json_t *agent;
    json_array_foreach(r->prefetch, index, agent)
    {
        const char *agent_status = json_string_value(json_object_get(agent, "status"));
        const char *agent_sgroup =
            json_string_value(json_object_get(agent, "scaling_group"));
        //  status may be a comma list ("ALIVE,LOST"), as the CLI sends it.
        bool status_ok = !status || !*status || gw_gql_in_list(status, agent_status);
        if (status_ok && (!sgroup || strcmp(sgroup, agent_sgroup) == 0))
            json_array_append(kept, agent);
    }
    return kept;
}

static json_t *
q_agents(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return s_agents(r, args, err);
}

static json_t *
q_agent_list(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *all = s_agents(r, args, err);
    return all ? gw_gql_page(all, args, err) : NULL;
}

static json_t *
q_agent(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *none = json_object();
    json_t *all = s_agents(r, none, err);
    json_decref(none);
    if (!all)
        return NULL;
    const char *id = gw_gql_arg(args, "agent_id");
    json_t *found = json_null();
    size_t index;
    json_t *agent;
    json_array_foreach(all, index, agent)
    {
        if (id && strcmp(json_string_value(json_object_get(agent, "id")), id) == 0) {
            found = json_incref(agent);
            break;
        }
    }
    json_decref(all);
    return found;
}

//  The fields of Backend.AI's AgentSummary (22.09+): an agent without its
//  address, version or live figures, what a user may see of the agents of
//  the resource groups open to them.
static const char *const s_summary_fields[] = {
    "id",           "status",      "status_changed", "region",          "scaling_group",
    "architecture", "schedulable", "first_contact",  "available_slots", "occupied_slots",
    NULL,
};

//  agent_summary_list(limit, offset, status, scaling_group, filter, order):
//  anyone's. A superadmin sees every agent; anyone else those of the
//  resource groups gw_sgroup_list shows them (a user the groups they may
//  use, a domain admin those of their domain).
static json_t *
q_agent_summary_list(gw_request_t *r, json_t *args, bus_error_t *err)
{
    if (!json_is_array(r->prefetch)) {
        const char *why = json_string_value(json_object_get(r->prefetch, "error"));
        bus_error_set(err, BUS_STATUS_UNAVAILABLE, "the scheduler did not answer: %s",
                      why ? why : "not reachable");
        return NULL;
    }
    json_t *groups = NULL;
    bool super = gw_identity_is_superadmin(&r->who);
    if (!super) {
        json_t *any = json_object(); //  active or not: an agent is where it is
        int rc = gw_sgroup_list(gw_request_ctx(r), any, &groups, err);
        json_decref(any);
        if (rc != BUS_OK)
            return NULL;
    }
    const char *status = gw_gql_arg(args, "status");
    const char *sgroup = gw_gql_arg(args, "scaling_group");
    json_t *kept = json_array();
    size_t index;
    json_t *agent;
    json_array_foreach(r->prefetch, index, agent)
    {
        const char *agent_status = json_string_value(json_object_get(agent, "status"));
        const char *agent_sgroup =
            json_string_value(json_object_get(agent, "scaling_group"));
        bool visible = super;
        size_t g;
        json_t *group;
        json_array_foreach(groups, g, group)
        {
            visible |= strcmp(json_string_value(json_object_get(group, "name")),
                              agent_sgroup) == 0;
        }
        if (!visible || (status && *status && !gw_gql_in_list(status, agent_status)) ||
            (sgroup && strcmp(sgroup, agent_sgroup) != 0))
            continue;
        json_t *summary = json_object();
        for (const char *const *field = s_summary_fields; *field; field++)
            json_object_set(summary, *field, json_object_get(agent, *field));
        json_array_append_new(kept, summary);
    }
    json_decref(groups);
    return gw_gql_page(kept, args, err);
}

const gw_gql_root_t gw_agent_gql[] = {
    {"query", "agents", q_agents},
    {"query", "agent_list", q_agent_list},
    {"query", "agent", q_agent},
    {"query", "agent_summary_list", q_agent_summary_list},
    {NULL, NULL, NULL},
};
