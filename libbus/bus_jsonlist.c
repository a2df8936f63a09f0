/*  =========================================================================
    bus_jsonlist - lists of string records between JSON and typed messages

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "bus_jsonlist.h"

//  The member of field in the record at item.
static const char **
s_member(void *item, const bus_jsonlist_field_t *field)
{
    return (const char **) ((uint8_t *) item + field->offset);
}

void *
bus_jsonlist_read(json_t *list,
                  size_t item_size,
                  const bus_jsonlist_field_t *fields,
                  void **arena,
                  size_t *count)
{
    assert(item_size && fields && arena && count);
    *count = 0;
    size_t size = json_is_array(list) ? json_array_size(list) : 0;
    if (size == 0 || size > SIZE_MAX / item_size)
        return NULL;
    uint8_t *items = proto_arena_alloc(arena, size * item_size);
    if (!items)
        return NULL;
    memset(items, 0, size * item_size);
    for (size_t i = 0; i < size; i++) {
        json_t *object = json_array_get(list, i);
        for (const bus_jsonlist_field_t *field = fields; field->key; field++) {
            const char *text = json_string_value(json_object_get(object, field->key));
            if (!text)
                continue;
            const char *copy = proto_arena_strdup(arena, text);
            if (!copy)
                return NULL; //  the arena keeps what was copied until the clear
            *s_member(items + i * item_size, field) = copy;
        }
    }
    *count = size;
    return items;
}

json_t *
bus_jsonlist_write(const void *items,
                   size_t count,
                   size_t item_size,
                   const bus_jsonlist_field_t *fields)
{
    assert(fields);
    json_t *list = json_array();
    for (size_t i = 0; list && i < count; i++) {
        json_t *object = json_object();
        const uint8_t *item = (const uint8_t *) items + i * item_size;
        for (const bus_jsonlist_field_t *field = fields; object && field->key; field++) {
            const char *text = *(const char *const *) (item + field->offset);
            if (text && json_object_set_new(object, field->key, json_string(text)) != 0) {
                json_decref(object);
                object = NULL;
            }
        }
        if (!object || json_array_append_new(list, object) != 0) {
            json_decref(list);
            list = NULL;
        }
    }
    return list;
}
