/*  =========================================================================
    sched_where - session.list's condition and order over the sessions table

    bus_where over "sessions s" with the session info's fields: the text
    fields a where term may name (session_id, name, access_key, user_uuid,
    domain_name, group_id, scaling_group, type, status, status_info, image,
    architecture, tag, result, cluster_mode) and, for orders only,
    created_at, status_changed and terminated_at (0, a session that has not
    ended, counts as null). The default order is newest first, ties by id.
    Plus the conditions of session.list's own fields. Part of the db layer
    (sched_db.h): the SQL it builds is run by sched_db_list alone.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_WHERE_H_INCLUDED
#define SCHED_WHERE_H_INCLUDED

#include "bus.h"

//  An empty builder over the sessions table. NULL when out of memory.
bus_where_t *sched_where_new(void);

//  ANDs "the status is one of the comma list's words" (NULL or "":
//  nothing added). 0 or -1.
int sched_where_statuses(bus_where_t *where, const char *statuses);

//  ANDs "mounts the virtual folder of this id" (NULL or "": nothing
//  added). 0 or -1.
int sched_where_mounting(bus_where_t *where, const char *folder_id);

//  ANDs "after the session (created_at_us, id) in the newest-first order".
//  0 or -1.
int sched_where_after(bus_where_t *where, int64_t created_at_us, const char *id);

#endif
