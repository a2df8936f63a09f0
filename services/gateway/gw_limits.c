/*  =========================================================================
    gw_limits - the limits a new session is held to, for the scheduler

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  A stored slot map (JSON text) as an object; an empty one when absent.
static json_t *
s_slot_map(json_t *text)
{
    json_t *map =
        json_is_string(text) ? json_loads(json_string_value(text), 0, NULL) : NULL;
    if (!json_is_object(map)) {
        json_decref(map);
        map = json_object();
    }
    return map;
}

//  A column of the row; JSON null when it has none.
static json_t *
s_column(json_t *row, const char *name)
{
    json_t *value = json_object_get(row, name);
    return value ? value : json_null();
}

static const char *
s_unspecified(json_t *value)
{
    const char *text = json_string_value(value);
    return text && strcmp(text, "LIMITED") == 0 ? "limited" : "unlimited";
}

json_t *
gw_limits_of(gw_ctx_t *ctx, const char *project_id, bus_error_t *err)
{
    const char *params[] = {ctx->who->keypair_policy, project_id, ctx->who->domain,
                            ctx->who->user_uuid, NULL};
    bool failed = false;
    json_t *row = gw_store_one(
        ctx->db,
        "SELECT p.total_resource_slots AS slots, p.default_for_unspecified AS dflt,"
        " p.max_concurrent_sessions AS concurrent,"
        " p.max_containers_per_session AS containers,"
        " p.max_pending_session_count AS pending_count,"
        " p.max_pending_session_resource_slots AS pending_slots,"
        " p.idle_timeout AS idle_timeout, p.max_session_lifetime AS lifetime,"
        " main.total_resource_slots AS user_slots,"
        " main.default_for_unspecified AS user_dflt,"
        " (SELECT total_resource_slots FROM groups WHERE id = ?2) AS project_slots,"
        " (SELECT total_resource_slots FROM domains WHERE name = ?3) AS domain_slots"
        " FROM keypair_resource_policies p"
        " LEFT JOIN keypair_resource_policies main ON main.name = (SELECT"
        "  k.resource_policy FROM keypairs k WHERE k.user_id = ?4"
        "  ORDER BY k.created_at, k.access_key LIMIT 1)"
        " WHERE p.name = ?1",
        params, NULL, &failed);
    if (!row) {
        bus_error_set(err, failed ? BUS_STATUS_INTERNAL : BUS_STATUS_NOT_FOUND,
                      failed ? "database error" : "no keypair resource policy");
        return NULL;
    }
    json_t *pending_slots = json_object_get(row, "pending_slots");
    json_t *limits = json_pack(
        "{s:{s:o, s:s, s:O, s:O, s:O, s:o, s:O, s:O}, s:{s:o, s:s}, s:{s:o}, s:{s:o}}",
        "keypair", "total_resource_slots", s_slot_map(json_object_get(row, "slots")),
        "unspecified", s_unspecified(json_object_get(row, "dflt")),
        "max_concurrent_sessions", s_column(row, "concurrent"),
        "max_containers_per_session", s_column(row, "containers"),
        "max_pending_session_count", s_column(row, "pending_count"),
        "max_pending_session_resource_slots",
        json_is_string(pending_slots) ? s_slot_map(pending_slots) : json_null(),
        "idle_timeout", s_column(row, "idle_timeout"), "max_session_lifetime",
        s_column(row, "lifetime"), "user", "total_resource_slots",
        s_slot_map(json_object_get(row, "user_slots")), "unspecified",
        s_unspecified(json_object_get(row, "user_dflt")), "project",
        "total_resource_slots", s_slot_map(json_object_get(row, "project_slots")),
        "domain", "total_resource_slots",
        s_slot_map(json_object_get(row, "domain_slots")));
    json_decref(row);
    if (!limits)
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot write the limits");
    return limits;
}
