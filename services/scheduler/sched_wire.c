/*  =========================================================================
    sched_wire - session.create's typed values as the scheduler stores them,
    and back into kernel.create

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

static const char *const s_scopes[] = {"keypair", "user", "project", "domain"};
#define S_SCOPES (sizeof s_scopes / sizeof *s_scopes)

//  Pairs as a JSON object of strings.
static json_t *
s_map(const proto_kv_t *pairs, size_t count)
{
    json_t *object = json_object();
    for (size_t i = 0; object && i < count; i++)
        if (json_object_set_new(object, pairs[i].key, json_string(pairs[i].value)) != 0) {
            json_decref(object);
            return NULL;
        }
    return object;
}

//  A count: null for -1, no limit.
static json_t *
s_count(int64_t value)
{
    return value < 0 ? json_null() : json_integer(value);
}

//  One scope as sched_db_snapshot_parse_limits reads it.
static json_t *
s_scope(const proto_session_scope_limits_t *item)
{
    json_t *pending = item->max_pending_session_resource_slots_count
                          ? s_map(item->max_pending_session_resource_slots,
                                  item->max_pending_session_resource_slots_count)
                          : json_null();
    return json_pack(
        "{s:o, s:s, s:o, s:o, s:o, s:o, s:I, s:I}", "total_resource_slots",
        s_map(item->total_resource_slots, item->total_resource_slots_count),
        "unspecified", item->limited ? "limited" : "unlimited", "max_concurrent_sessions",
        s_count(item->max_concurrent_sessions), "max_containers_per_session",
        s_count(item->max_containers_per_session), "max_pending_session_count",
        s_count(item->max_pending_session_count), "max_pending_session_resource_slots",
        pending, "idle_timeout", (json_int_t) item->idle_timeout, "max_session_lifetime",
        (json_int_t) item->max_session_lifetime);
}

//  The JSON text of value (stolen), or INTERNAL.
static int
s_dump(json_t *value, char **text_p, bus_error_t *err)
{
    *text_p = value ? json_dumps(value, JSON_COMPACT) : NULL;
    json_decref(value);
    return *text_p ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
}

int
sched_wire_limits(const proto_session_scope_limits_t *items,
                  size_t count,
                  char **text_p,
                  bus_error_t *err)
{
    assert(text_p);
    *text_p = NULL;
    if (count == 0)
        return BUS_OK;
    json_t *limits = json_object();
    for (size_t i = 0; limits && i < count; i++) {
        const char *scope = items[i].scope;
        size_t k = 0;
        while (k < S_SCOPES && strcmp(scope, s_scopes[k]) != 0)
            k++;
        if (k == S_SCOPES || json_object_get(limits, scope)) {
            json_decref(limits);
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 k == S_SCOPES ? "limits: unknown scope \"%.16s\""
                                               : "limits: scope %s given twice",
                                 scope);
        }
        json_t *object = s_scope(&items[i]);
        if (!object || json_object_set_new(limits, scope, object) != 0) {
            json_decref(limits);
            limits = NULL;
        }
    }
    return s_dump(limits, text_p, err);
}

int
sched_wire_mounts(const proto_session_mount_t *items,
                  size_t count,
                  char **text_p,
                  bus_error_t *err)
{
    assert(text_p);
    *text_p = NULL;
    if (count == 0)
        return BUS_OK;
    json_t *list = json_array();
    for (size_t i = 0; list && i < count; i++) {
        const proto_session_mount_t *item = &items[i];
        json_t *folder = json_pack("{s:s, s:s, s:s, s:s}", "name", item->name,
                                   "host_path", item->host_path, "kernel_path",
                                   item->kernel_path, "permission", item->permission);
        //  The id is what session.list's mounting filter looks up.
        if (folder && item->id)
            json_object_set_new(folder, "id", json_string(item->id));
        if (folder && item->host)
            json_object_set_new(folder, "host", json_string(item->host));
        if (!folder || json_array_append_new(list, folder) != 0) {
            json_decref(list);
            list = NULL;
        }
    }
    return s_dump(list, text_p, err);
}

int
sched_wire_strings(const char *const *items,
                   size_t count,
                   char **text_p,
                   bus_error_t *err)
{
    assert(text_p);
    *text_p = NULL;
    if (count == 0)
        return BUS_OK;
    json_t *list = json_array();
    for (size_t i = 0; list && i < count; i++)
        if (json_array_append_new(list, json_string(items[i])) != 0) {
            json_decref(list);
            list = NULL;
        }
    return s_dump(list, text_p, err);
}

//  A member of object as a string in *arena; NULL when it is none.
static const char *
s_member(json_t *object, const char *key, void **arena)
{
    const char *text = json_string_value(json_object_get(object, key));
    return text ? proto_arena_strdup(arena, text) : NULL;
}

const proto_kernel_mount_t *
sched_wire_kernel_mounts(const char *text, void **arena, size_t *count)
{
    assert(count);
    *count = 0;
    json_t *list = text ? json_loads(text, 0, NULL) : NULL;
    size_t size = json_is_array(list) ? json_array_size(list) : 0;
    proto_kernel_mount_t *items =
        size ? proto_arena_alloc(arena, size * sizeof *items) : NULL;
    for (size_t i = 0; items && i < size; i++) {
        json_t *folder = json_array_get(list, i);
        proto_kernel_mount_init(&items[i]);
        items[i].name = s_member(folder, "name", arena);
        items[i].id = s_member(folder, "id", arena);
        items[i].host = s_member(folder, "host", arena);
        items[i].host_path = s_member(folder, "host_path", arena);
        items[i].kernel_path = s_member(folder, "kernel_path", arena);
        items[i].permission = s_member(folder, "permission", arena);
    }
    json_decref(list);
    *count = items ? size : 0;
    return items;
}
