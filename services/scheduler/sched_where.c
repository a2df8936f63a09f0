/*  =========================================================================
    sched_where - session.list's condition and order over the sessions table

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

//  The info's fields as columns of "sessions s". Only the nullable ones say
//  where nulls go in an order (SQLite cannot walk an index for NULLS LAST).
static const bus_where_column_t s_columns[] = {
    {"session_id", "s.id", true, false},
    {"name", "s.name", true, false},
    {"access_key", "s.access_key", true, false},
    {"user_uuid", "s.user_uuid", true, false},
    {"domain_name", "s.domain_name", true, false},
    {"group_id", "s.group_id", true, false},
    {"scaling_group", "s.scaling_group", true, false},
    {"type", "s.type", true, false},
    {"status", "s.status", true, false},
    {"status_info", "s.status_info", true, true},
    {"image", "s.image", true, false},
    {"architecture", "s.architecture", true, false},
    {"tag", "s.tag", true, true},
    {"result", "s.result", true, false},
    {"cluster_mode", "s.cluster_mode", true, false},
    //  created_at and status_changed are the scheduler's clock when written,
    //  never 0; terminated_at is NULL until the session ends.
    {"created_at", "s.created_at", false, false},
    {"status_changed", "s.status_changed", false, false},
    {"terminated_at", "(CASE WHEN s.terminated_at > 0 THEN s.terminated_at END)", false,
     true},
    {NULL, NULL, false, false},
};

bus_where_t *
sched_where_new(void)
{
    return bus_where_new(s_columns, "s.created_at DESC, s.id");
}

int
sched_where_statuses(bus_where_t *where, const char *statuses)
{
    return bus_where_in_words(where, "s.status", statuses);
}

int
sched_where_mounting(bus_where_t *where, const char *folder_id)
{
    if (!folder_id || !*folder_id)
        return 0;
    return bus_where_append(where, " AND EXISTS (SELECT 1 FROM json_each(s.mounts) m"
                                   " WHERE json_extract(m.value, '$.id') = ") != 0 ||
                   bus_where_param_text(where, folder_id, strlen(folder_id)) != 0 ||
                   bus_where_append(where, ")") != 0
               ? -1
               : 0;
}

int
sched_where_after(bus_where_t *where, int64_t created_at_us, const char *id)
{
    return bus_where_append(where, " AND (s.created_at < ") != 0 ||
                   bus_where_param_int(where, created_at_us) != 0 ||
                   bus_where_append(where, " OR (s.created_at = ") != 0 ||
                   bus_where_param_int(where, created_at_us) != 0 ||
                   bus_where_append(where, " AND s.id > ") != 0 ||
                   bus_where_param_text(where, id, strlen(id)) != 0 ||
                   bus_where_append(where, "))") != 0
               ? -1
               : 0;
}
