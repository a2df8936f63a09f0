/*  =========================================================================
    sched_db_kernels - kernels in the scheduler's database

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

//  The status session_id takes from its kernels now that kernel moved to
//  status: a single kernel decides alone; a cluster's statuses are read
//  (after the kernel's own row was written). -1 when there are none.
static int
s_status_from_kernels(bus_db_t *db,
                      const char *session_id,
                      int64_t cluster_size,
                      sched_kernel_status_t status)
{
    if (cluster_size <= 1)
        return (int) sched_session_status_of(&status, 1, 0);
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT status, cluster_role = 'main' FROM kernels"
                        " WHERE session_id = ?1 ORDER BY cluster_idx, id");
    if (!stmt)
        return -1;
    sched_db_bind_text(stmt, 1, session_id);
    sched_kernel_status_t kernels[SCHED_CLUSTER_MAX];
    size_t count = 0, main = 0;
    while (count < SCHED_CLUSTER_MAX && sqlite3_step(stmt) == SQLITE_ROW) {
        int kernel =
            sched_kernel_status_from_str((const char *) sqlite3_column_text(stmt, 0));
        if (sqlite3_column_int(stmt, 1))
            main = count;
        kernels[count++] =
            kernel < 0 ? SCHED_KERNEL_ERROR : (sched_kernel_status_t) kernel;
    }
    sqlite3_reset(stmt);
    return count ? (int) sched_session_status_of(kernels, count, main) : -1;
}

//  Writes the session's status when its kernels moved it and the state
//  machine allows it; *now is the status it has afterwards.
static int
s_follow_kernels(bus_db_t *db,
                 const char *session_id,
                 int current,
                 int next,
                 const char *status_info,
                 const char *status_data,
                 int64_t now_us,
                 int *now)
{
    *now = current;
    if (next < 0 || current < 0)
        return BUS_STATUS_NOT_FOUND;
    if (next == current)
        return BUS_OK;
    if (!sched_session_transition_ok((sched_session_status_t) current,
                                     (sched_session_status_t) next)) {
        bus_log_warning("session status kept session=%s status=%s kernels_say=%s",
                        session_id, sched_session_status_str(current),
                        sched_session_status_str(next));
        return BUS_OK;
    }
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "UPDATE sessions SET status = ?2, status_changed = ?3,"
            " status_info = coalesce(?4, status_info), status_data = coalesce(?5, "
            "status_data),"
            " terminated_at = CASE WHEN ?6 THEN ?3 ELSE terminated_at END WHERE id = ?1");
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    sched_db_bind_text(stmt, 1, session_id);
    sched_db_bind_text(stmt, 2, sched_session_status_str(next));
    sqlite3_bind_int64(stmt, 3, now_us);
    sched_db_bind_text(stmt, 4, status_info);
    sched_db_bind_text(stmt, 5, status_data);
    sqlite3_bind_int(stmt, 6, sched_session_is_dead((sched_session_status_t) next));
    int rc = sched_db_step(stmt);
    if (rc == BUS_OK)
        *now = next;
    return rc;
}

int
sched_db_kernels_move(bus_db_t *db,
                      const char *kernel_id,
                      sched_kernel_status_t status,
                      const char *status_info,
                      const char *status_data,
                      int64_t now_us,
                      sched_move_t *out,
                      bus_error_t *err)
{
    return sched_db_kernels_move_from(db, kernel_id, SCHED_KERNEL_FROM_ANY, status,
                                      status_info, status_data, NULL, NULL, now_us, out,
                                      err);
}

int
sched_db_kernels_move_from(bus_db_t *db,
                           const char *kernel_id,
                           unsigned from_mask,
                           sched_kernel_status_t status,
                           const char *status_info,
                           const char *status_data,
                           const char *container_id,
                           const char *kernel_host,
                           int64_t now_us,
                           sched_move_t *out,
                           bus_error_t *err)
{
    sched_move_t local;
    sched_move_t *move = out ? out : &local;
    memset(move, 0, sizeof *move);
    if (status_data) {
        json_t *data = json_loads(status_data, 0, NULL);
        bool object = json_is_object(data);
        json_decref(data);
        if (!object)
            return bus_error_set(err, BUS_STATUS_INVALID, "status_data is a JSON object");
    }
    //  The kernel, its session and what the events say of them, at once.
    sqlite3_stmt *stmt = bus_db_stmt(
        db,
        "SELECT k.status, k.session_id, k.cluster_role, k.cluster_idx, s.status,"
        " s.cluster_size, s.name, s.access_key, s.domain_name, s.group_id"
        " FROM kernels k LEFT JOIN sessions s ON s.id = k.session_id WHERE k.id = ?1");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    sched_db_bind_text(stmt, 1, kernel_id);
    int from = -1, current = -1;
    int64_t cluster_size = 1;
    if (sqlite3_step(stmt) == SQLITE_ROW) {
        from = sched_kernel_status_from_str((const char *) sqlite3_column_text(stmt, 0));
        sched_db_column_copy(stmt, 1, move->session_id, sizeof move->session_id);
        sched_db_column_copy(stmt, 2, move->cluster_role, sizeof move->cluster_role);
        move->cluster_idx = sqlite3_column_int64(stmt, 3);
        if (sqlite3_column_type(stmt, 4) != SQLITE_NULL)
            current = sched_session_status_from_str(
                (const char *) sqlite3_column_text(stmt, 4));
        cluster_size = move->cluster_size = sqlite3_column_int64(stmt, 5);
        sched_db_column_copy(stmt, 6, move->name, sizeof move->name);
        sched_db_column_copy(stmt, 7, move->access_key, sizeof move->access_key);
        sched_db_column_copy(stmt, 8, move->domain_name, sizeof move->domain_name);
        sched_db_column_copy(stmt, 9, move->group_id, sizeof move->group_id);
    }
    sqlite3_reset(stmt);
    if (from < 0)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no kernel %s", kernel_id);
    move->kernel_from = (sched_kernel_status_t) from;
    move->session_from = move->session_to =
        current < 0 ? SCHED_SESSION_ERROR : (sched_session_status_t) current;
    if ((sched_kernel_status_t) from == status || !(from_mask & (1u << from)))
        return BUS_OK;
    //  A kernel moves as the session status it stands for may move; moves
    //  within one session status (PREPARING to BUILDING) are free.
    sched_session_status_t as_from = sched_kernel_to_session(from);
    sched_session_status_t as_to = sched_kernel_to_session(status);
    if (as_from != as_to && !sched_session_transition_ok(as_from, as_to))
        return bus_error_set(err, BUS_STATUS_INVALID, "kernel %s cannot go from %s to %s",
                             kernel_id, sched_kernel_status_str(from),
                             sched_kernel_status_str(status));
    if (bus_db_begin(db) != 0)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "database busy");
    stmt = bus_db_stmt(
        db, "UPDATE kernels SET status = ?2, status_changed = ?3,"
            " status_info = coalesce(?4, status_info), status_data = coalesce(?5, "
            "status_data),"
            " terminated_at = CASE WHEN ?6 THEN ?3 ELSE terminated_at END,"
            " container_id = coalesce(?7, container_id),"
            " kernel_host = coalesce(?8, kernel_host) WHERE id = ?1");
    int rc = stmt ? BUS_OK : BUS_STATUS_INTERNAL;
    if (stmt) {
        sched_db_bind_text(stmt, 1, kernel_id);
        sched_db_bind_text(stmt, 2, sched_kernel_status_str(status));
        sqlite3_bind_int64(stmt, 3, now_us);
        sched_db_bind_text(stmt, 4, status_info);
        sched_db_bind_text(stmt, 5, status_data);
        sqlite3_bind_int(stmt, 6, !sched_kernel_occupies(status));
        sched_db_bind_text(stmt, 7, container_id);
        sched_db_bind_text(stmt, 8, kernel_host);
        rc = sched_db_step(stmt);
    }
    //  The ledger: a kernel that no longer occupies gives its slots back.
    if (rc == BUS_OK && !sched_kernel_occupies(status)) {
        stmt = bus_db_stmt(db, "DELETE FROM allocations WHERE kernel_id = ?1");
        rc = stmt ? BUS_OK : BUS_STATUS_INTERNAL;
        if (stmt) {
            sched_db_bind_text(stmt, 1, kernel_id);
            rc = sched_db_step(stmt);
        }
    }
    int after = current;
    if (rc == BUS_OK)
        rc = s_follow_kernels(
            db, move->session_id, current,
            s_status_from_kernels(db, move->session_id, cluster_size, status),
            status_info, status_data, now_us, &after);
    if (rc != BUS_OK) {
        bus_db_rollback(db);
        return bus_error_set(err, rc, "cannot record the kernel's status");
    }
    if (bus_db_commit(db) != 0)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot commit the status");
    move->session_to = (sched_session_status_t) after;
    return BUS_OK;
}

int
sched_db_kernels_status(bus_db_t *db,
                        const char *kernel_id,
                        sched_kernel_status_t status,
                        const char *status_info,
                        const char *status_data,
                        int64_t now_us,
                        bus_error_t *err)
{
    return sched_db_kernels_move(db, kernel_id, status, status_info, status_data, now_us,
                                 NULL, err);
}

int
sched_db_kernels_requeue(bus_db_t *db,
                         const char *kernel_id,
                         const char *msg,
                         int64_t now_us)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT s.id, s.retries FROM kernels k JOIN sessions s ON s.id = k.session_id"
            " WHERE k.id = ?1 AND s.cluster_size <= 1 AND k.status IN ('SCHEDULED',"
            " 'PREPARING', 'BUILDING', 'PULLING')");
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    sched_db_bind_text(stmt, 1, kernel_id);
    char session_id[SCHED_ID_MAX] = "";
    int64_t retries = 0;
    if (sqlite3_step(stmt) == SQLITE_ROW) {
        sched_db_column_copy(stmt, 0, session_id, sizeof session_id);
        retries = sqlite3_column_int64(stmt, 1);
    }
    sqlite3_reset(stmt);
    if (!*session_id)
        return BUS_STATUS_NOT_FOUND;
    sched_verdict_t none;
    memset(&none, 0, sizeof none);
    char *data = sched_quota_status_data(&none, msg, (uint32_t) retries + 1, now_us);
    static const char *const sql[] = {
        "DELETE FROM allocations WHERE kernel_id = ?1",
        "UPDATE kernels SET status = 'PENDING', agent_id = NULL, status_changed = ?2,"
        " status_info = 'no-available-instances', container_id = NULL,"
        " kernel_host = NULL WHERE id = ?1",
        "UPDATE sessions SET status = 'PENDING', status_changed = ?2,"
        " status_info = 'no-available-instances', status_data = ?3,"
        " retries = retries + 1, tried_at = ?2"
        " WHERE id = (SELECT session_id FROM kernels WHERE id = ?1)",
    };
    int rc = data ? BUS_OK : BUS_STATUS_INTERNAL;
    for (size_t i = 0; rc == BUS_OK && i < sizeof sql / sizeof sql[0]; i++) {
        stmt = bus_db_stmt(db, sql[i]);
        if (!stmt) {
            rc = BUS_STATUS_INTERNAL;
            break;
        }
        sched_db_bind_text(stmt, 1, kernel_id);
        if (i > 0)
            sqlite3_bind_int64(stmt, 2, now_us);
        if (i == 2)
            sched_db_bind_text(stmt, 3, data);
        rc = sched_db_step(stmt);
    }
    free(data);
    return rc;
}

int
sched_db_kernels_current(bus_db_t *db, const char *kernel_id)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, "SELECT status FROM kernels WHERE id = ?1");
    if (!stmt)
        return -1;
    sched_db_bind_text(stmt, 1, kernel_id);
    int status = -1;
    if (sqlite3_step(stmt) == SQLITE_ROW)
        status =
            sched_kernel_status_from_str((const char *) sqlite3_column_text(stmt, 0));
    sqlite3_reset(stmt);
    return status;
}

size_t
sched_db_kernels_unsettled(bus_db_t *db,
                           const char *agent_id,
                           int64_t before_us,
                           sched_unsettled_t *out,
                           size_t max)
{
    //  By agent, so that the kernels_agent index does the work however many
    //  ended kernels the table keeps.
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT id, session_id, coalesce(status_info, ''), status, status_changed"
            " FROM kernels WHERE agent_id = ?1 AND status IN ('SCHEDULED', 'PREPARING',"
            " 'BUILDING', 'PULLING', 'RESTARTING', 'TERMINATING')"
            " AND status_changed < ?2"
            " ORDER BY status_changed, id LIMIT ?3");
    if (!stmt || max == 0)
        return 0;
    sched_db_bind_text(stmt, 1, agent_id);
    sqlite3_bind_int64(stmt, 2, before_us);
    sqlite3_bind_int64(stmt, 3, (sqlite3_int64) max);
    size_t count = 0;
    while (count < max && sqlite3_step(stmt) == SQLITE_ROW) {
        int status =
            sched_kernel_status_from_str((const char *) sqlite3_column_text(stmt, 3));
        if (status < 0)
            continue;
        sched_unsettled_t *row = &out[count++];
        snprintf(row->kernel_id, sizeof row->kernel_id, "%s",
                 (const char *) sqlite3_column_text(stmt, 0));
        snprintf(row->session_id, sizeof row->session_id, "%s",
                 (const char *) sqlite3_column_text(stmt, 1));
        snprintf(row->status_info, sizeof row->status_info, "%s",
                 (const char *) sqlite3_column_text(stmt, 2));
        row->status = (sched_kernel_status_t) status;
        row->since_us = sqlite3_column_int64(stmt, 4);
    }
    sqlite3_reset(stmt);
    return count;
}

int
sched_db_kernels_live(bus_db_t *db,
                      const char *session_id,
                      sched_db_kernel_t *out,
                      size_t max)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT k.id, coalesce(a.addr, '') FROM kernels k"
            " LEFT JOIN agents a ON a.id = k.agent_id AND a.status = 'ALIVE'"
            " WHERE k.session_id = ?1 AND k.status NOT IN ('TERMINATED', 'CANCELLED')"
            " ORDER BY k.cluster_idx");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_STATIC);
    size_t count = 0;
    while (count < max && sqlite3_step(stmt) == SQLITE_ROW) {
        sched_db_column_copy(stmt, 0, out[count].id, sizeof out[count].id);
        sched_db_column_copy(stmt, 1, out[count].addr, sizeof out[count].addr);
        count++;
    }
    sqlite3_reset(stmt);
    return (int) count;
}

size_t
sched_db_kernels_holding(bus_db_t *db,
                         const char *agent_id,
                         sched_db_kernel_t *out,
                         size_t max)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT id, session_id FROM kernels"
                        " WHERE agent_id = ?1 AND status NOT IN"
                        " ('PENDING', 'TERMINATED', 'CANCELLED') LIMIT ?2");
    size_t count = 0;
    if (!stmt)
        return 0;
    sqlite3_bind_text(stmt, 1, agent_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 2, (int) max);
    while (count < max && sqlite3_step(stmt) == SQLITE_ROW) {
        sched_db_column_copy(stmt, 0, out[count].id, sizeof out[count].id);
        sched_db_column_copy(stmt, 1, out[count].session_id,
                             sizeof out[count].session_id);
        count++;
    }
    sqlite3_reset(stmt);
    return count;
}

int
sched_db_kernels_of_session(bus_db_t *db,
                            const char *session_id,
                            sched_db_kernel_t *out,
                            size_t max)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT id, cluster_role, cluster_idx FROM kernels"
                        " WHERE session_id = ?1 ORDER BY cluster_idx");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_STATIC);
    size_t count = 0;
    while (count < max && sqlite3_step(stmt) == SQLITE_ROW) {
        sched_db_column_copy(stmt, 0, out[count].id, sizeof out[count].id);
        sched_db_column_copy(stmt, 1, out[count].cluster_role,
                             sizeof out[count].cluster_role);
        out[count].cluster_idx = (uint32_t) sqlite3_column_int(stmt, 2);
        count++;
    }
    sqlite3_reset(stmt);
    return (int) count;
}

void
sched_db_kernels_place(bus_db_t *db, const char *kernel_id, sched_db_kernel_t *kernel)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT cluster_role, cluster_idx FROM kernels WHERE id = ?1");
    if (!stmt)
        return;
    sqlite3_bind_text(stmt, 1, kernel_id, -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) == SQLITE_ROW) {
        sched_db_column_copy(stmt, 0, kernel->cluster_role, sizeof kernel->cluster_role);
        kernel->cluster_idx = (uint32_t) sqlite3_column_int(stmt, 1);
    }
    sqlite3_reset(stmt);
}

int
sched_db_kernels_agent(bus_db_t *db, const char *kernel_id, char *out, size_t size)
{
    *out = 0;
    sqlite3_stmt *stmt = bus_db_stmt(db, "SELECT agent_id FROM kernels WHERE id = ?1");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, kernel_id, -1, SQLITE_STATIC);
    int rc = -1;
    if (sqlite3_step(stmt) == SQLITE_ROW) {
        sched_db_column_copy(stmt, 0, out, size);
        rc = 0;
    }
    sqlite3_reset(stmt);
    return rc;
}

int
sched_db_kernels_members(bus_db_t *db,
                         const char *session_id,
                         sched_db_member_t *out,
                         size_t max)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db,
        "SELECT k.id, k.cluster_role, coalesce(k.kernel_host, ''),"
        " coalesce(a.addr, ''),"
        " k.status IN ('TERMINATING', 'TERMINATED', 'CANCELLED')"
        " FROM kernels k LEFT JOIN agents a ON a.id = k.agent_id AND a.status = 'ALIVE'"
        " WHERE k.session_id = ?1 ORDER BY k.cluster_idx, k.id");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_TRANSIENT);
    size_t count = 0;
    while (count < max && sqlite3_step(stmt) == SQLITE_ROW) {
        sched_db_member_t *member = &out[count++];
        sched_db_column_copy(stmt, 0, member->id, sizeof member->id);
        sched_db_column_copy(stmt, 1, member->role, sizeof member->role);
        sched_db_column_copy(stmt, 2, member->host, sizeof member->host);
        sched_db_column_copy(stmt, 3, member->addr, sizeof member->addr);
        member->ended = sqlite3_column_int(stmt, 4) != 0;
    }
    sqlite3_reset(stmt);
    return (int) count;
}

void
sched_db_kernels_requests(bus_db_t *db,
                          const char *kernel_id,
                          void **owned,
                          const proto_kv_t **map,
                          size_t *count)
{
    sqlite3_stmt *stmt = kernel_id
                             ? bus_db_stmt(db, "SELECT slot, amount FROM kernel_requests"
                                               " WHERE kernel_id = ?1")
                             : NULL;
    if (!stmt)
        return;
    sched_db_bind_text(stmt, 1, kernel_id);
    sched_db_slot_map(stmt, owned, map, count);
}

bool
sched_db_kernels_use(bus_db_t *db,
                     const char *kernel_id,
                     char *session_id,
                     size_t size,
                     int64_t *cpus_milli)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT k.session_id, coalesce((SELECT amount FROM kernel_requests"
            " WHERE kernel_id = k.id AND slot = 'cpu'), 0) FROM kernels k"
            " WHERE k.id = ?1");
    if (!stmt)
        return false;
    sqlite3_bind_text(stmt, 1, kernel_id, -1, SQLITE_STATIC);
    bool found = sqlite3_step(stmt) == SQLITE_ROW;
    if (found) {
        sched_db_column_copy(stmt, 0, session_id, size);
        *cpus_milli = sqlite3_column_int64(stmt, 1);
    }
    sqlite3_reset(stmt);
    return found;
}

void
sched_db_kernels_set_container(bus_db_t *db,
                               const char *kernel_id,
                               const char *container_id,
                               const char *kernel_host)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, "UPDATE kernels SET container_id = ?2,"
                                         " kernel_host = ?3 WHERE id = ?1"
                                         " AND (container_id IS NOT ?2"
                                         " OR kernel_host IS NOT ?3)");
    if (!stmt)
        return;
    sqlite3_bind_text(stmt, 1, kernel_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 2, container_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 3, kernel_host, -1, SQLITE_TRANSIENT);
    sqlite3_step(stmt);
    sqlite3_reset(stmt);
}

void
sched_db_kernels_merge_container(bus_db_t *db,
                                 const char *kernel_id,
                                 const char *container_id,
                                 const char *kernel_host)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "UPDATE kernels SET container_id = coalesce(?2,"
                        " container_id), kernel_host = coalesce(?3, kernel_host)"
                        " WHERE id = ?1"
                        " AND (container_id IS NOT coalesce(?2, container_id)"
                        " OR kernel_host IS NOT coalesce(?3, kernel_host))");
    if (!stmt)
        return;
    sqlite3_bind_text(stmt, 1, kernel_id, -1, SQLITE_TRANSIENT);
    sched_db_bind_text(stmt, 2, container_id);
    sched_db_bind_text(stmt, 3, kernel_host);
    sqlite3_step(stmt);
    sqlite3_reset(stmt);
}

void
sched_db_kernels_set_exit_code(bus_db_t *db, const char *kernel_id, int64_t code)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "UPDATE kernels SET exit_code = ?2 WHERE id = ?1");
    if (!stmt)
        return;
    sqlite3_bind_text(stmt, 1, kernel_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(stmt, 2, code);
    sqlite3_step(stmt);
    sqlite3_reset(stmt);
}
