/*  =========================================================================
    sched_db_list - session.list in the database: the count, a page's ids,
    the page's rows

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

//  The WHERE and ORDER BY of a list, with statuses in place of the
//  filter's, or INVALID/INTERNAL with err.
static int
s_list_where(const sched_session_filter_t *filter,
             const char *statuses,
             bus_where_t **where_p,
             bus_error_t *err)
{
    bus_where_t *where = sched_where_new();
    if (!where || bus_where_equal(where, "s.access_key", filter->access_key) != 0 ||
        bus_where_equal(where, "s.domain_name", filter->domain_name) != 0 ||
        bus_where_equal(where, "s.group_id", filter->group_id) != 0 ||
        sched_where_statuses(where, statuses) != 0 ||
        sched_where_mounting(where, filter->mounted_folder) != 0 ||
        (filter->after_id && *filter->after_id &&
         sched_where_after(where, filter->after_created_at, filter->after_id) != 0)) {
        bus_where_destroy(&where);
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "too many values in the filter, or out of memory");
    }
    int rc = bus_where_term(where, filter->where, err);
    if (rc == BUS_OK)
        rc = bus_where_order(where, filter->order, err);
    if (rc == BUS_OK && filter->order && *filter->order && filter->after_id &&
        *filter->after_id)
        rc = bus_error_set(err, BUS_STATUS_INVALID,
                           "a cursor (after_id) goes with the default order only");
    if (rc != BUS_OK)
        bus_where_destroy(&where);
    *where_p = where;
    return rc;
}

//  A row of a page before it is read: where it sorts, and its id.
typedef struct {
    int64_t created_at;
    char *id;
} s_row_t;

static void
s_rows_free(s_row_t *rows, size_t count)
{
    for (size_t i = 0; rows && i < count; i++)
        free(rows[i].id);
    free(rows);
}

//  The rows of one page of the list narrowed to statuses: at most limit
//  from offset, into *rows (owned). BUS_OK, INVALID or INTERNAL.
static int
s_page_rows(bus_db_t *db,
            const sched_session_filter_t *filter,
            const char *statuses,
            size_t limit,
            size_t offset,
            s_row_t **rows,
            size_t *count,
            bus_error_t *err)
{
    *rows = NULL;
    *count = 0;
    bus_where_t *where = NULL;
    int rc = s_list_where(filter, statuses, &where, err);
    if (rc != BUS_OK)
        return rc;
    int params = bus_where_param_count(where);
    char *tail = NULL;
    sqlite3_stmt *stmt = NULL;
    if (asprintf(&tail, "%s LIMIT ?%d OFFSET ?%d", bus_where_order_sql(where), params + 1,
                 params + 2) > 0)
        stmt = bus_where_prepare(where, bus_db_handle(db),
                                 "SELECT s.created_at, s.id FROM sessions s", tail);
    free(tail);
    bus_where_destroy(&where);
    s_row_t *out = calloc(limit ? limit : 1, sizeof *out);
    if (!stmt || !out) {
        sqlite3_finalize(stmt);
        free(out);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot list sessions");
    }
    //  Both bind as signed 64-bit numbers.
    sqlite3_bind_int64(stmt, params + 1,
                       (sqlite3_int64) (limit < (size_t) INT64_MAX ? limit : INT64_MAX));
    sqlite3_bind_int64(
        stmt, params + 2,
        (sqlite3_int64) (offset < (size_t) INT64_MAX ? offset : INT64_MAX));
    size_t n = 0;
    while (n < limit && sqlite3_step(stmt) == SQLITE_ROW) {
        out[n].created_at = sqlite3_column_int64(stmt, 0);
        out[n].id = sched_db_column_dup(stmt, 1);
        if (out[n++].id == NULL) {
            sqlite3_finalize(stmt);
            s_rows_free(out, n);
            return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        }
    }
    sqlite3_finalize(stmt);
    *rows = out;
    *count = n;
    return BUS_OK;
}

//  True when a sorts before b newest first (ties by id).
static bool
s_row_before(const s_row_t *a, const s_row_t *b)
{
    return a->created_at > b->created_at ||
           (a->created_at == b->created_at && strcmp(a->id, b->id) < 0);
}

//  The page of a status list in the default order, one status at a time:
//  SQLite walks one status's index range in order and stops at the page's
//  end, where an IN list of several would sort every match. Each status
//  gives its first offset + limit rows; merged, the page is the rows from
//  offset. Only for distinct words (a repeated one is skipped).
static int
s_page_rows_merged(bus_db_t *db,
                   const sched_session_filter_t *filter,
                   size_t limit,
                   size_t offset,
                   s_row_t **rows,
                   size_t *count,
                   bus_error_t *err)
{
    *rows = NULL;
    *count = 0;
    s_row_t *lists[SCHED_DB_LIST_MERGE_STATUSES] = {0};
    size_t sizes[SCHED_DB_LIST_MERGE_STATUSES] = {0},
           heads[SCHED_DB_LIST_MERGE_STATUSES] = {0};
    char words[SCHED_DB_LIST_MERGE_STATUSES][SCHED_DB_LIST_WORD_MAX] = {{0}};
    size_t k = 0;
    int rc = BUS_OK;
    for (const char *p = filter->statuses; *p && rc == BUS_OK;) {
        size_t word = strcspn(p, ",");
        bool seen = word == 0 || word >= SCHED_DB_LIST_WORD_MAX;
        for (size_t i = 0; i < k && !seen; i++)
            seen = strlen(words[i]) == word && strncmp(words[i], p, word) == 0;
        if (!seen) {
            memcpy(words[k], p, word);
            rc = s_page_rows(db, filter, words[k], offset + limit, 0, &lists[k],
                             &sizes[k], err);
            k++;
        }
        p += word + (p[word] == ',');
    }
    s_row_t *out = rc == BUS_OK ? calloc(limit ? limit : 1, sizeof *out) : NULL;
    if (rc == BUS_OK && !out)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    size_t n = 0;
    for (size_t taken = 0; rc == BUS_OK && n < limit; taken++) {
        size_t best = k;
        for (size_t i = 0; i < k; i++)
            if (heads[i] < sizes[i] &&
                (best == k ||
                 s_row_before(&lists[i][heads[i]], &lists[best][heads[best]])))
                best = i;
        if (best == k)
            break;
        s_row_t *row = &lists[best][heads[best]++];
        if (taken >= offset) {
            out[n++] = *row; //  the id moves to out
            row->id = NULL;
        }
    }
    for (size_t i = 0; i < k; i++)
        s_rows_free(lists[i], sizes[i]);
    if (rc != BUS_OK) {
        s_rows_free(out, n);
        return rc;
    }
    *rows = out;
    *count = n;
    return BUS_OK;
}

//  Whether statuses has more than one word and no more than the merge
//  takes, each short enough to be a status.
static bool
s_mergeable(const char *statuses)
{
    size_t words = 0;
    for (const char *p = statuses ? statuses : ""; *p;) {
        size_t word = strcspn(p, ",");
        if (word >= SCHED_DB_LIST_WORD_MAX)
            return false;
        words += word > 0;
        p += word + (p[word] == ',');
    }
    return words > 1 && words <= SCHED_DB_LIST_MERGE_STATUSES;
}

int
sched_db_list_sessions(bus_db_t *db,
                       const sched_session_filter_t *filter,
                       proto_session_info_t **out,
                       size_t *count,
                       size_t *total,
                       bus_error_t *err)
{
    *out = NULL;
    *count = *total = 0;
    bus_where_t *where = NULL;
    int rc = s_list_where(filter, filter->statuses, &where, err);
    if (rc != BUS_OK)
        return rc;
    //  The count reads an index when the status or owner narrows the list.
    sqlite3_stmt *stmt = bus_where_prepare(where, bus_db_handle(db),
                                           "SELECT count(*) FROM sessions s", "");
    bus_where_destroy(&where);
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot count sessions");
    if (sqlite3_step(stmt) == SQLITE_ROW)
        *total = (size_t) sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    size_t limit = filter->limit < *total ? filter->limit : *total;
    if (limit == 0 || filter->offset >= *total)
        return BUS_OK;
    //  The page's ids first, from the sessions table (its indexes) alone;
    //  then each row with its main kernel, as session.get reads it.
    s_row_t *rows = NULL;
    size_t n = 0;
    bool merge = (!filter->order || !*filter->order) && s_mergeable(filter->statuses) &&
                 limit <= SCHED_DB_LIST_MERGE_ROWS &&
                 filter->offset <= SCHED_DB_LIST_MERGE_ROWS - limit;
    rc = merge ? s_page_rows_merged(db, filter, limit, filter->offset, &rows, &n, err)
               : s_page_rows(db, filter, filter->statuses, limit, filter->offset, &rows,
                             &n, err);
    if (rc != BUS_OK)
        return rc;
    proto_session_info_t *infos = calloc(n ? n : 1, sizeof *infos);
    if (!infos) {
        s_rows_free(rows, n);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    size_t read = 0;
    for (size_t i = 0; i < n; i++) {
        proto_session_info_init(&infos[read]);
        if (sched_db_sessions_get(db, rows[i].id, &infos[read]) == BUS_OK)
            read++;
        else
            proto_session_info_clear(&infos[read]);
    }
    s_rows_free(rows, n);
    *out = infos;
    *count = read;
    return BUS_OK;
}
