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

//  ---------------------------------------------------------------------------
//  Typed limits for session.create

//  A slot map as pairs in *arena; amounts that are numbers written as
//  decimal text (a policy's JSON may hold either). Members of null are
//  left out: the scheduler takes a slot that is not listed the same way.
static int
s_slot_pairs(json_t *map, const proto_kv_t **pairs, size_t *count, void **arena)
{
    *pairs = NULL;
    *count = 0;
    size_t size = json_is_object(map) ? json_object_size(map) : 0;
    if (size == 0)
        return 0;
    proto_kv_t *out = proto_arena_alloc(arena, size * sizeof *out);
    if (!out)
        return -1;
    const char *slot;
    json_t *value;
    json_object_foreach(map, slot, value)
    {
        char *text = json_is_string(value)
                         ? proto_arena_strdup(arena, json_string_value(value))
                         : NULL;
        if (json_is_number(value)) {
            char *dumped = json_dumps(value, JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
            text = dumped ? proto_arena_strdup(arena, dumped) : NULL;
            free(dumped);
        } else if (!json_is_string(value))
            continue;
        const char *key = proto_arena_strdup(arena, slot);
        if (!text || !key)
            return -1;
        out[(*count)++] = (proto_kv_t){key, text};
    }
    *pairs = out;
    return 0;
}

//  A count of a policy: -1 (no limit) for null or a negative number.
static int64_t
s_count(json_t *value)
{
    return json_is_integer(value) && json_integer_value(value) >= 0
               ? (int64_t) json_integer_value(value)
               : -1;
}

static uint64_t
s_seconds(json_t *value)
{
    return json_is_integer(value) && json_integer_value(value) > 0
               ? (uint64_t) json_integer_value(value)
               : 0;
}

int
gw_limits_to_scopes(json_t *limits, proto_session_scope_limits_t *out, void **arena)
{
    static const char *const scopes[GW_LIMITS_SCOPES] = {"keypair", "user", "project",
                                                         "domain"};
    int filled = 0;
    for (size_t i = 0; i < GW_LIMITS_SCOPES; i++) {
        json_t *scope = json_object_get(limits, scopes[i]);
        if (!json_is_object(scope))
            continue;
        proto_session_scope_limits_t *item = &out[filled++];
        proto_session_scope_limits_init(item);
        item->scope = scopes[i];
        const char *unspecified =
            json_string_value(json_object_get(scope, "unspecified"));
        item->limited = unspecified && strcmp(unspecified, "limited") == 0;
        item->max_concurrent_sessions =
            s_count(json_object_get(scope, "max_concurrent_sessions"));
        item->max_containers_per_session =
            s_count(json_object_get(scope, "max_containers_per_session"));
        item->max_pending_session_count =
            s_count(json_object_get(scope, "max_pending_session_count"));
        item->idle_timeout = s_seconds(json_object_get(scope, "idle_timeout"));
        item->max_session_lifetime =
            s_seconds(json_object_get(scope, "max_session_lifetime"));
        if (s_slot_pairs(json_object_get(scope, "total_resource_slots"),
                         &item->total_resource_slots, &item->total_resource_slots_count,
                         arena) != 0 ||
            s_slot_pairs(json_object_get(scope, "max_pending_session_resource_slots"),
                         &item->max_pending_session_resource_slots,
                         &item->max_pending_session_resource_slots_count, arena) != 0)
            return -1;
    }
    return filled;
}
