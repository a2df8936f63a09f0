/*  =========================================================================
    bus_jsonlist - lists of string records between JSON and typed messages

    Some typed lists of the schemas (a session's folders to mount, its
    dotfiles) are records of strings only, which a service also keeps as
    JSON: the gateway resolves them as JSON rows, the scheduler stores them
    as JSON text in SQLite, where its SQL reads into them. These two calls
    move such a list between a JSON array of objects and the generated
    structs, driven by a table of the record's fields (its JSON key and
    the offset of its `const char *` member), so each service names its
    fields once instead of writing the loop again.

    The records must be generated types whose members are all strings
    without a default: for those, a zeroed struct is an initialised one.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_JSONLIST_H_INCLUDED
#define BUS_JSONLIST_H_INCLUDED

#include <jansson.h>
#include <stddef.h>

//  One string field of a record: its key in JSON and its member's offset.
typedef struct {
    const char *key;
    size_t offset;
} bus_jsonlist_field_t;

//  The records of list (a JSON array of objects; anything else: none) as
//  an array of item_size structs in *arena (a message's owned_), each
//  field's member a copy of the object's string member of its key, NULL
//  when that is missing or no string (a schema that requires it refuses
//  the message then). fields ends with a {NULL, 0} row. *count gets the
//  number of records; NULL and 0 when there are none or memory ran out.
void *bus_jsonlist_read(json_t *list,
                        size_t item_size,
                        const bus_jsonlist_field_t *fields,
                        void **arena,
                        size_t *count);

//  count records of item_size at items as a JSON array of objects with
//  the fields that are set (not NULL); the caller decrefs it. NULL when
//  out of memory.
json_t *bus_jsonlist_write(const void *items,
                           size_t count,
                           size_t item_size,
                           const bus_jsonlist_field_t *fields);

#endif
