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

//  The records of strings of session.create and kernel.create, as
//  bus_jsonlist moves them: the same keys the JSON rows have.
#define S_MOUNT_FIELDS(type)                                                             \
    {                                                                                    \
        {"name", offsetof(type, name)}, {"id", offsetof(type, id)},                      \
            {"host", offsetof(type, host)}, {"host_path", offsetof(type, host_path)},    \
            {"kernel_path", offsetof(type, kernel_path)},                                \
            {"permission", offsetof(type, permission)},                                  \
        {                                                                                \
            NULL, 0                                                                      \
        }                                                                                \
    }
#define S_DOTFILE_FIELDS(type)                                                           \
    {                                                                                    \
        {"path", offsetof(type, path)}, {"permission", offsetof(type, permission)},      \
            {"data", offsetof(type, data)},                                              \
        {                                                                                \
            NULL, 0                                                                      \
        }                                                                                \
    }
static const bus_jsonlist_field_t s_session_mount[] =
    S_MOUNT_FIELDS(proto_session_mount_t);
static const bus_jsonlist_field_t s_kernel_mount[] = S_MOUNT_FIELDS(proto_kernel_mount_t);
static const bus_jsonlist_field_t s_session_dotfile[] =
    S_DOTFILE_FIELDS(proto_session_dotfile_t);
static const bus_jsonlist_field_t s_kernel_dotfile[] =
    S_DOTFILE_FIELDS(proto_kernel_dotfile_t);

int
sched_wire_mounts(const proto_session_mount_t *items,
                  size_t count,
                  char **text_p,
                  bus_error_t *err)
{
    assert(text_p);
    *text_p = NULL;
    return count == 0
               ? BUS_OK
               : s_dump(bus_jsonlist_write(items, count, sizeof *items, s_session_mount),
                        text_p, err);
}

int
sched_wire_dotfiles(const proto_session_dotfile_t *items,
                    size_t count,
                    char **text_p,
                    bus_error_t *err)
{
    assert(text_p);
    *text_p = NULL;
    return count == 0 ? BUS_OK
                      : s_dump(bus_jsonlist_write(items, count, sizeof *items,
                                                  s_session_dotfile),
                               text_p, err);
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

//  A stored JSON array text as the records fields names, in *arena; *ok
//  false when text holds something but not all of it could be read (not a
//  JSON array, or out of memory): a create must not go out without it.
static void *
s_read(const char *text,
       size_t item_size,
       const bus_jsonlist_field_t *fields,
       void **arena,
       size_t *count,
       bool *ok)
{
    json_t *list = text && *text ? json_loads(text, 0, NULL) : NULL;
    void *items = bus_jsonlist_read(list, item_size, fields, arena, count);
    *ok = !text || !*text || (json_is_array(list) && json_array_size(list) == *count);
    json_decref(list);
    return items;
}

const proto_kernel_mount_t *
sched_wire_kernel_mounts(const char *text, void **arena, size_t *count, bool *ok)
{
    assert(count && ok);
    return s_read(text, sizeof(proto_kernel_mount_t), s_kernel_mount, arena, count, ok);
}

const proto_kernel_dotfile_t *
sched_wire_kernel_dotfiles(const char *text, void **arena, size_t *count, bool *ok)
{
    assert(count && ok);
    return s_read(text, sizeof(proto_kernel_dotfile_t), s_kernel_dotfile, arena, count,
                  ok);
}
