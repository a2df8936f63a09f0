/*  =========================================================================
    sched_db_list - session.list in the database: the count, a page's ids,
    the page's rows

    A list narrows by owner, statuses (an IN list), a mounted folder and a
    where term (sched_where), in an order of the caller's or newest first.
    It counts every match, reads the page's ids from the sessions table
    alone (its indexes), then each row with its main kernel as
    sched_db_sessions_get reads it, so only the page's rows are joined.
    Each statement is prepared for the one call (its text depends on the
    filter), never cached.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_DB_LIST_H_INCLUDED
#define SCHED_DB_LIST_H_INCLUDED

#include "bus.h"

//  A default-order page of a list of several statuses is read one status
//  at a time and merged, when it ends within the first MERGE_ROWS rows and
//  names at most MERGE_STATUSES statuses (each shorter than
//  SCHED_DB_LIST_WORD_MAX bytes); otherwise one query sorts every match.
#define SCHED_DB_LIST_MERGE_ROWS     1000
#define SCHED_DB_LIST_MERGE_STATUSES 16
#define SCHED_DB_LIST_WORD_MAX       32

//  Which sessions sched_db_list_sessions returns; NULL members match all.
//  statuses is a comma-separated list of status names; where and order
//  are session.list's JSON term and order text (sched_where.h); after_id
//  with after_created_at is a cursor in the default order.
typedef struct {
    const char *access_key;
    const char *domain_name;
    const char *group_id;
    const char *statuses;
    size_t limit;
    size_t offset;
    const char *mounted_folder; //  a virtual folder's id: only sessions mounting it
    const char *where;
    const char *order;
    int64_t after_created_at;
    const char *after_id;
} sched_session_filter_t;

//  The matching sessions, newest first (or in filter->order), from offset,
//  at most limit: *out is an owned array of *count infos (clear each, then
//  free the array); *total counts every match. BUS_OK, INVALID (a bad
//  where or order, with err) or INTERNAL.
int sched_db_list_sessions(bus_db_t *db,
                           const sched_session_filter_t *filter,
                           proto_session_info_t **out,
                           size_t *count,
                           size_t *total,
                           bus_error_t *err);

#endif
