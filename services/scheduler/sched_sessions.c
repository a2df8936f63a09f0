/*  =========================================================================
    sched_sessions - sessions and kernels in the scheduler's database

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

#define CANDIDATES_MAX 1024 //  agents considered per resource group and pass
#define AMOUNTS_MAX    64   //  slots per agent or request
#define PASS_MAX       256  //  pending sessions looked at per pass

static void
s_bind(sqlite3_stmt *stmt, int index, const char *text)
{
    if (text)
        sqlite3_bind_text(stmt, index, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(stmt, index);
}

//  Steps a write statement; BUS_OK, CONFLICT for a constraint, INTERNAL.
static int
s_step(sqlite3_stmt *stmt)
{
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc == SQLITE_DONE)
        return BUS_OK;
    return rc == SQLITE_CONSTRAINT ? BUS_STATUS_CONFLICT : BUS_STATUS_INTERNAL;
}

static bool
s_valid_id(const char *id)
{
    size_t length = id ? strlen(id) : 0;
    if (length == 0 || length >= SCHED_ID_MAX)
        return false;
    for (const char *c = id; *c; c++)
        if (!isalnum((unsigned char) *c) && *c != '-' && *c != '_' && *c != '.')
            return false;
    return true;
}

int
sched_sessions_insert(bus_db_t *db,
                      const sched_session_spec_t *spec,
                      int64_t now_us,
                      bus_error_t *err)
{
    if (!s_valid_id(spec->session_id) || !s_valid_id(spec->kernel_id) || !spec->name ||
        !spec->access_key || !spec->user_uuid || !spec->domain_name || !spec->group_id ||
        !spec->scaling_group || !spec->image)
        return bus_error_set(err, BUS_STATUS_INVALID, "incomplete session spec");
    if (spec->type && strcmp(spec->type, "INTERACTIVE") != 0 &&
        strcmp(spec->type, "BATCH") != 0)
        return bus_error_set(err, BUS_STATUS_INVALID, "type is INTERACTIVE or BATCH");
    if (bus_db_begin(db) != 0)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "database busy");
    //  A name is unique among the owner's sessions that are not over.
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT 1 FROM sessions WHERE access_key = ?1 AND name = ?2"
                        " AND status NOT IN ('TERMINATED', 'CANCELLED')");
    int rc = stmt ? BUS_OK : BUS_STATUS_INTERNAL;
    if (stmt) {
        s_bind(stmt, 1, spec->access_key);
        s_bind(stmt, 2, spec->name);
        bool taken = sqlite3_step(stmt) == SQLITE_ROW;
        sqlite3_reset(stmt);
        if (taken)
            rc = bus_error_set(err, BUS_STATUS_CONFLICT,
                               "a session named %s already exists", spec->name);
    }
    if (rc == BUS_OK) {
        stmt = bus_db_stmt(
            db, "INSERT INTO sessions (id, name, access_key, user_uuid, domain_name,"
                " group_id, scaling_group, type, status_changed, image, architecture,"
                " environ, resource_opts, startup_command, created_at, preopen_ports,"
                " bootstrap_script)"
                " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, coalesce(?8, 'INTERACTIVE'), ?9,"
                " ?10, coalesce(?11, 'x86_64'), coalesce(?12, '{}'),"
                " coalesce(?13, '{}'), ?14, ?9, coalesce(?15, '[]'), ?16)");
        rc = stmt ? BUS_OK : BUS_STATUS_INTERNAL;
    }
    if (rc == BUS_OK) {
        const char *texts[] = {spec->session_id,    spec->name,        spec->access_key,
                               spec->user_uuid,     spec->domain_name, spec->group_id,
                               spec->scaling_group, spec->type};
        for (int i = 0; i < 8; i++)
            s_bind(stmt, i + 1, texts[i]);
        sqlite3_bind_int64(stmt, 9, now_us);
        s_bind(stmt, 10, spec->image);
        s_bind(stmt, 11, spec->architecture);
        s_bind(stmt, 12, spec->environ);
        s_bind(stmt, 13, spec->resource_opts);
        s_bind(stmt, 14, spec->startup_command);
        s_bind(stmt, 15, spec->preopen_ports);
        s_bind(stmt, 16, spec->bootstrap_script);
        rc = s_step(stmt);
    }
    if (rc == BUS_OK) {
        stmt = bus_db_stmt(db, "INSERT INTO kernels (id, session_id, status_changed,"
                               " created_at) VALUES (?1, ?2, ?3, ?3)");
        rc = stmt ? BUS_OK : BUS_STATUS_INTERNAL;
        if (stmt) {
            s_bind(stmt, 1, spec->kernel_id);
            s_bind(stmt, 2, spec->session_id);
            sqlite3_bind_int64(stmt, 3, now_us);
            rc = s_step(stmt);
        }
    }
    for (size_t i = 0; rc == BUS_OK && i < spec->request_count; i++) {
        if (spec->request[i].amount < 0) {
            rc = bus_error_set(err, BUS_STATUS_INVALID, "negative amount of %s",
                               spec->request[i].slot);
            break;
        }
        stmt = bus_db_stmt(db, "INSERT INTO kernel_requests (kernel_id, slot, amount)"
                               " VALUES (?1, ?2, ?3)");
        rc = stmt ? BUS_OK : BUS_STATUS_INTERNAL;
        if (stmt) {
            s_bind(stmt, 1, spec->kernel_id);
            s_bind(stmt, 2, spec->request[i].slot);
            sqlite3_bind_int64(stmt, 3, spec->request[i].amount);
            rc = s_step(stmt);
        }
    }
    if (rc != BUS_OK) {
        bus_db_rollback(db);
        if (!*err->detail)
            bus_error_set(err, rc,
                          rc == BUS_STATUS_CONFLICT ? "the session or kernel id exists"
                                                    : "database error");
        return rc;
    }
    if (bus_db_commit(db) != 0)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot commit the session");
    return BUS_OK;
}

//  Reads (slot, amount) rows into amounts; returns how many.
static size_t
s_amounts(sqlite3_stmt *stmt, sched_amount_t *amounts, size_t max)
{
    size_t count = 0;
    while (count < max && sqlite3_step(stmt) == SQLITE_ROW) {
        snprintf(amounts[count].slot, sizeof amounts[count].slot, "%s",
                 (const char *) sqlite3_column_text(stmt, 0));
        amounts[count].amount = sqlite3_column_int64(stmt, 1);
        count++;
    }
    sqlite3_reset(stmt);
    return count;
}

//  An agent with its capacity and what its allocation rows hold.
typedef struct {
    char id[128];
    sched_amount_t capacity[AMOUNTS_MAX];
    size_t capacity_count;
    sched_amount_t occupied[AMOUNTS_MAX];
    size_t occupied_count;
} agent_room_t;

//  The candidate agents of a resource group and architecture.
//  How many agents are ALIVE now.
static size_t
s_count_alive(bus_db_t *db)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT count(*) FROM agents WHERE status = 'ALIVE'");
    size_t count = 0;
    if (stmt && sqlite3_step(stmt) == SQLITE_ROW)
        count = (size_t) sqlite3_column_int64(stmt, 0);
    if (stmt)
        sqlite3_reset(stmt);
    return count;
}

static size_t
s_agents(bus_db_t *db,
         const char *scaling_group,
         const char *architecture,
         agent_room_t *agents,
         size_t max)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT id FROM agents WHERE status = 'ALIVE' AND schedulable = 1"
                        " AND scaling_group = ?1 AND architecture = ?2 ORDER BY id");
    if (!stmt)
        return 0;
    s_bind(stmt, 1, scaling_group);
    s_bind(stmt, 2, architecture);
    size_t count = 0;
    while (count < max && sqlite3_step(stmt) == SQLITE_ROW)
        snprintf(agents[count++].id, sizeof agents[0].id, "%s",
                 (const char *) sqlite3_column_text(stmt, 0));
    sqlite3_reset(stmt);
    for (size_t i = 0; i < count; i++) {
        sqlite3_stmt *rows = bus_db_stmt(
            db, "SELECT slot, amount FROM agent_capacity WHERE agent_id = ?1");
        agents[i].capacity_count = 0;
        if (rows) {
            s_bind(rows, 1, agents[i].id);
            agents[i].capacity_count = s_amounts(rows, agents[i].capacity, AMOUNTS_MAX);
        }
        rows = bus_db_stmt(db, "SELECT slot, sum(amount) FROM allocations"
                               " WHERE agent_id = ?1 GROUP BY slot");
        agents[i].occupied_count = 0;
        if (rows) {
            s_bind(rows, 1, agents[i].id);
            agents[i].occupied_count = s_amounts(rows, agents[i].occupied, AMOUNTS_MAX);
        }
    }
    return count;
}

//  Writes one placement: allocation rows, kernel and session SCHEDULED.
static int
s_assign(bus_db_t *db,
         const char *session_id,
         const char *kernel_id,
         const char *agent_id,
         int64_t now_us)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db,
        "INSERT INTO allocations (kernel_id, agent_id, slot, amount)"
        " SELECT kernel_id, ?2, slot, amount FROM kernel_requests WHERE kernel_id = ?1");
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    s_bind(stmt, 1, kernel_id);
    s_bind(stmt, 2, agent_id);
    int rc = s_step(stmt);
    stmt = bus_db_stmt(db, "UPDATE kernels SET status = 'SCHEDULED', agent_id = ?2,"
                           " status_changed = ?3 WHERE id = ?1 AND status = 'PENDING'");
    if (rc == BUS_OK && stmt) {
        s_bind(stmt, 1, kernel_id);
        s_bind(stmt, 2, agent_id);
        sqlite3_bind_int64(stmt, 3, now_us);
        rc = s_step(stmt);
    }
    stmt = bus_db_stmt(db,
                       "UPDATE sessions SET status = 'SCHEDULED', status_changed = ?2,"
                       " status_info = 'scheduled' WHERE id = ?1 AND status = 'PENDING'");
    if (rc == BUS_OK && stmt) {
        s_bind(stmt, 1, session_id);
        sqlite3_bind_int64(stmt, 2, now_us);
        rc = s_step(stmt);
    }
    return stmt ? rc : BUS_STATUS_INTERNAL;
}

int
sched_sessions_rename(bus_db_t *db,
                      const char *session_id,
                      const char *name,
                      bus_error_t *err)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT status, access_key, (SELECT count(*) FROM sessions AS other"
            "  WHERE other.access_key = sessions.access_key AND other.name = ?2"
            "  AND other.id <> sessions.id"
            "  AND other.status NOT IN ('TERMINATED', 'CANCELLED'))"
            " FROM sessions WHERE id = ?1");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    s_bind(stmt, 1, session_id);
    s_bind(stmt, 2, name);
    int rc = BUS_OK;
    if (sqlite3_step(stmt) != SQLITE_ROW)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such session");
    else if (strcmp((const char *) sqlite3_column_text(stmt, 0), "RUNNING") != 0)
        rc = bus_error_set(err, BUS_STATUS_CONFLICT,
                           "only a RUNNING session can be renamed");
    else if (sqlite3_column_int(stmt, 2) > 0)
        rc = bus_error_set(err, BUS_STATUS_CONFLICT, "a session named %s already exists",
                           name);
    sqlite3_reset(stmt);
    if (rc != BUS_OK)
        return rc;
    stmt = bus_db_stmt(db, "UPDATE sessions SET name = ?2 WHERE id = ?1");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    s_bind(stmt, 1, session_id);
    s_bind(stmt, 2, name);
    bool done = sqlite3_step(stmt) == SQLITE_DONE;
    sqlite3_reset(stmt);
    return done ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "cannot rename");
}

size_t
sched_sessions_schedule(bus_db_t *db, int64_t now_us, sched_assignment_t *out, size_t max)
{
    //  The pending sessions first (ids only), so no read statement stays
    //  open while the pass writes.
    typedef struct {
        char session_id[SCHED_ID_MAX], kernel_id[SCHED_ID_MAX];
        char scaling_group[72], architecture[40];
    } pending_t;
    pending_t *pending = calloc(PASS_MAX, sizeof *pending);
    //  Room for the live agents there are, not for the most there may be:
    //  an agent's room is some kilobytes, and this runs every pass.
    size_t agents_max = s_count_alive(db);
    if (agents_max > CANDIDATES_MAX)
        agents_max = CANDIDATES_MAX;
    agent_room_t *agents = agents_max ? calloc(agents_max, sizeof *agents) : NULL;
    sched_candidate_t *candidates =
        agents_max ? calloc(agents_max, sizeof *candidates) : NULL;
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT s.id, k.id, s.scaling_group, s.architecture FROM sessions s"
            " JOIN kernels k ON k.session_id = s.id"
            " WHERE s.status = 'PENDING' AND k.status = 'PENDING'"
            " ORDER BY s.created_at, s.id LIMIT ?1");
    size_t count = 0, placed = 0;
    if (pending && agents && candidates && stmt) {
        sqlite3_bind_int(stmt, 1, PASS_MAX);
        while (count < PASS_MAX && sqlite3_step(stmt) == SQLITE_ROW) {
            pending_t *p = &pending[count++];
            snprintf(p->session_id, sizeof p->session_id, "%s",
                     (const char *) sqlite3_column_text(stmt, 0));
            snprintf(p->kernel_id, sizeof p->kernel_id, "%s",
                     (const char *) sqlite3_column_text(stmt, 1));
            snprintf(p->scaling_group, sizeof p->scaling_group, "%s",
                     (const char *) sqlite3_column_text(stmt, 2));
            snprintf(p->architecture, sizeof p->architecture, "%s",
                     (const char *) sqlite3_column_text(stmt, 3));
        }
        sqlite3_reset(stmt);
    }
    for (size_t i = 0; i < count && placed < max; i++) {
        pending_t *p = &pending[i];
        sched_amount_t request[AMOUNTS_MAX];
        size_t request_count = 0;
        sqlite3_stmt *rows = bus_db_stmt(
            db, "SELECT slot, amount FROM kernel_requests WHERE kernel_id = ?1");
        if (rows) {
            s_bind(rows, 1, p->kernel_id);
            request_count = s_amounts(rows, request, AMOUNTS_MAX);
        }
        //  Read the room afresh per session: the previous placement used some.
        size_t agent_count =
            s_agents(db, p->scaling_group, p->architecture, agents, agents_max);
        size_t candidate_count = agent_count;
        for (size_t a = 0; a < candidate_count; a++)
            candidates[a] = (sched_candidate_t){
                agents[a].id, agents[a].capacity, agents[a].capacity_count,
                agents[a].occupied, agents[a].occupied_count};
        int chosen =
            sched_place_first_fit(candidates, candidate_count, request, request_count);
        if (chosen < 0)
            continue;
        if (bus_db_begin(db) != 0)
            break;
        if (s_assign(db, p->session_id, p->kernel_id, agents[chosen].id, now_us) !=
            BUS_OK) {
            bus_db_rollback(db);
            bus_log_error("cannot record a placement session=%s kernel=%s agent=%s",
                          p->session_id, p->kernel_id, agents[chosen].id);
            continue;
        }
        if (bus_db_commit(db) != 0)
            continue;
        sched_assignment_t *a = &out[placed++];
        snprintf(a->kernel_id, sizeof a->kernel_id, "%s", p->kernel_id);
        snprintf(a->session_id, sizeof a->session_id, "%s", p->session_id);
        snprintf(a->agent_id, sizeof a->agent_id, "%s", agents[chosen].id);
        bus_log_info("session scheduled session=%s kernel=%s agent=%s", p->session_id,
                     p->kernel_id, agents[chosen].id);
    }
    free(pending);
    free(agents);
    free(candidates);
    return placed;
}

//  Recomputes the status of session_id from its kernels, writing it when
//  it changed and the state machine allows it.
static int
s_follow_kernels(bus_db_t *db,
                 const char *session_id,
                 const char *status_info,
                 const char *status_data,
                 int64_t now_us)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT status, cluster_role = 'main' FROM kernels"
                        " WHERE session_id = ?1 ORDER BY cluster_idx, id");
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    s_bind(stmt, 1, session_id);
    sched_kernel_status_t kernels[64];
    size_t count = 0, main = 0;
    while (count < 64 && sqlite3_step(stmt) == SQLITE_ROW) {
        int status =
            sched_kernel_status_from_str((const char *) sqlite3_column_text(stmt, 0));
        if (sqlite3_column_int(stmt, 1))
            main = count;
        kernels[count++] =
            status < 0 ? SCHED_KERNEL_ERROR : (sched_kernel_status_t) status;
    }
    sqlite3_reset(stmt);
    int current = sched_sessions_status(db, session_id);
    if (count == 0 || current < 0)
        return BUS_STATUS_NOT_FOUND;
    sched_session_status_t next = sched_session_status_of(kernels, count, main);
    if ((int) next == current)
        return BUS_OK;
    if (!sched_session_transition_ok((sched_session_status_t) current, next)) {
        bus_log_warning("session status kept session=%s status=%s kernels_say=%s",
                        session_id, sched_session_status_str(current),
                        sched_session_status_str(next));
        return BUS_OK;
    }
    stmt = bus_db_stmt(
        db, "UPDATE sessions SET status = ?2, status_changed = ?3,"
            " status_info = coalesce(?4, status_info), status_data = coalesce(?5, "
            "status_data),"
            " terminated_at = CASE WHEN ?6 THEN ?3 ELSE terminated_at END WHERE id = ?1");
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    s_bind(stmt, 1, session_id);
    s_bind(stmt, 2, sched_session_status_str(next));
    sqlite3_bind_int64(stmt, 3, now_us);
    s_bind(stmt, 4, status_info);
    s_bind(stmt, 5, status_data);
    sqlite3_bind_int(stmt, 6, sched_session_is_dead(next));
    return s_step(stmt);
}

int
sched_sessions_kernel_status(bus_db_t *db,
                             const char *kernel_id,
                             sched_kernel_status_t status,
                             const char *status_info,
                             const char *status_data,
                             int64_t now_us,
                             bus_error_t *err)
{
    if (status_data) {
        json_t *data = json_loads(status_data, 0, NULL);
        bool object = json_is_object(data);
        json_decref(data);
        if (!object)
            return bus_error_set(err, BUS_STATUS_INVALID, "status_data is a JSON object");
    }
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT status, session_id FROM kernels WHERE id = ?1");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    s_bind(stmt, 1, kernel_id);
    int from = -1;
    char session_id[SCHED_ID_MAX] = "";
    if (sqlite3_step(stmt) == SQLITE_ROW) {
        from = sched_kernel_status_from_str((const char *) sqlite3_column_text(stmt, 0));
        snprintf(session_id, sizeof session_id, "%s",
                 (const char *) sqlite3_column_text(stmt, 1));
    }
    sqlite3_reset(stmt);
    if (from < 0)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no kernel %s", kernel_id);
    if ((sched_kernel_status_t) from == status)
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
            " terminated_at = CASE WHEN ?6 THEN ?3 ELSE terminated_at END WHERE id = ?1");
    int rc = stmt ? BUS_OK : BUS_STATUS_INTERNAL;
    if (stmt) {
        s_bind(stmt, 1, kernel_id);
        s_bind(stmt, 2, sched_kernel_status_str(status));
        sqlite3_bind_int64(stmt, 3, now_us);
        s_bind(stmt, 4, status_info);
        s_bind(stmt, 5, status_data);
        sqlite3_bind_int(stmt, 6, !sched_kernel_occupies(status));
        rc = s_step(stmt);
    }
    //  The ledger: a kernel that no longer occupies gives its slots back.
    if (rc == BUS_OK && !sched_kernel_occupies(status)) {
        stmt = bus_db_stmt(db, "DELETE FROM allocations WHERE kernel_id = ?1");
        rc = stmt ? BUS_OK : BUS_STATUS_INTERNAL;
        if (stmt) {
            s_bind(stmt, 1, kernel_id);
            rc = s_step(stmt);
        }
    }
    if (rc == BUS_OK)
        rc = s_follow_kernels(db, session_id, status_info, status_data, now_us);
    if (rc != BUS_OK) {
        bus_db_rollback(db);
        return bus_error_set(err, rc, "cannot record the kernel's status");
    }
    if (bus_db_commit(db) != 0)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot commit the status");
    return BUS_OK;
}

int
sched_sessions_status(bus_db_t *db, const char *session_id)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, "SELECT status FROM sessions WHERE id = ?1");
    if (!stmt)
        return -1;
    s_bind(stmt, 1, session_id);
    int status = -1;
    if (sqlite3_step(stmt) == SQLITE_ROW)
        status =
            sched_session_status_from_str((const char *) sqlite3_column_text(stmt, 0));
    sqlite3_reset(stmt);
    return status;
}

int
sched_sessions_kernel_current(bus_db_t *db, const char *kernel_id)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, "SELECT status FROM kernels WHERE id = ?1");
    if (!stmt)
        return -1;
    s_bind(stmt, 1, kernel_id);
    int status = -1;
    if (sqlite3_step(stmt) == SQLITE_ROW)
        status =
            sched_kernel_status_from_str((const char *) sqlite3_column_text(stmt, 0));
    sqlite3_reset(stmt);
    return status;
}

size_t
sched_sessions_unsettled(bus_db_t *db,
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
    s_bind(stmt, 1, agent_id);
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

#define SESSION_COLUMNS                                                                  \
    "SELECT s.id, s.name, s.access_key, s.user_uuid, s.domain_name, s.group_id,"         \
    " s.scaling_group, s.type, s.status, s.status_info, s.status_data, s.image,"         \
    " s.architecture, s.tag, k.id, k.agent_id, k.container_id, k.kernel_host,"           \
    " coalesce(k.exit_code, 0), s.created_at, s.status_changed,"                         \
    " coalesce(s.terminated_at, 0), a.addr, s.preopen_ports FROM sessions s"             \
    " LEFT JOIN kernels k ON k.session_id = s.id AND k.cluster_role = 'main'"            \
    " LEFT JOIN agents a ON a.id = k.agent_id"

#define SESSION_FILTER                                                                   \
    " WHERE (?1 IS NULL OR s.access_key = ?1) AND (?2 IS NULL OR s.domain_name = ?2)"    \
    " AND (?3 IS NULL OR s.group_id = ?3)"                                               \
    " AND (?4 IS NULL OR instr(',' || ?4 || ',', ',' || s.status || ',') > 0)"

static char *
s_column(sqlite3_stmt *stmt, int column)
{
    const unsigned char *text = sqlite3_column_text(stmt, column);
    return text ? strdup((const char *) text) : NULL;
}

//  A (slot, amount) query for one kernel as a map.
static void
s_kernel_slots(
    bus_db_t *db, const char *sql, const char *kernel_id, proto_kv_t **map, size_t *count)
{
    sqlite3_stmt *stmt = kernel_id ? bus_db_stmt(db, sql) : NULL;
    if (!stmt)
        return;
    s_bind(stmt, 1, kernel_id);
    sched_db_slot_map(stmt, map, count);
}

//  The current row of a SESSION_COLUMNS statement into out.
static void
s_read_info(sqlite3_stmt *stmt, proto_session_info_t *out)
{
    char **texts[] = {&out->session_id,    &out->name,         &out->access_key,
                      &out->user_uuid,     &out->domain_name,  &out->group_id,
                      &out->scaling_group, &out->type,         &out->status,
                      &out->status_info,   &out->status_data,  &out->image,
                      &out->architecture,  &out->tag,          &out->kernel_id,
                      &out->agent_id,      &out->container_id, &out->kernel_host};
    for (int i = 0; i < 18; i++)
        *texts[i] = s_column(stmt, i);
    out->exit_code = sqlite3_column_int64(stmt, 18);
    out->created_at = sqlite3_column_int64(stmt, 19);
    out->status_changed = sqlite3_column_int64(stmt, 20);
    out->terminated_at = sqlite3_column_int64(stmt, 21);
    out->agent_addr = s_column(stmt, 22);
    out->preopen_ports = s_column(stmt, 23);
}

//  The slot maps, read after the row's statement is reset (one open
//  statement at a time).
static void
s_read_slots(bus_db_t *db, proto_session_info_t *out)
{
    s_kernel_slots(db, "SELECT slot, amount FROM kernel_requests WHERE kernel_id = ?1",
                   out->kernel_id, &out->requested_slots, &out->requested_slots_count);
    s_kernel_slots(db, "SELECT slot, amount FROM allocations WHERE kernel_id = ?1",
                   out->kernel_id, &out->occupied_slots, &out->occupied_slots_count);
}

int
sched_sessions_get(bus_db_t *db, const char *session_id, proto_session_info_t *out)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, SESSION_COLUMNS " WHERE s.id = ?1");
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    s_bind(stmt, 1, session_id);
    bool found = sqlite3_step(stmt) == SQLITE_ROW;
    if (found)
        s_read_info(stmt, out);
    sqlite3_reset(stmt);
    if (!found)
        return BUS_STATUS_NOT_FOUND;
    s_read_slots(db, out);
    return BUS_OK;
}

static void
s_bind_filter(sqlite3_stmt *stmt, const sched_session_filter_t *filter)
{
    s_bind(stmt, 1, filter->access_key);
    s_bind(stmt, 2, filter->domain_name);
    s_bind(stmt, 3, filter->group_id);
    s_bind(stmt, 4, filter->statuses && *filter->statuses ? filter->statuses : NULL);
}

int
sched_sessions_list(bus_db_t *db,
                    const sched_session_filter_t *filter,
                    proto_session_info_t **out,
                    size_t *count,
                    size_t *total)
{
    *out = NULL;
    *count = *total = 0;
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT count(*) FROM sessions s" SESSION_FILTER);
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    s_bind_filter(stmt, filter);
    if (sqlite3_step(stmt) == SQLITE_ROW)
        *total = (size_t) sqlite3_column_int64(stmt, 0);
    sqlite3_reset(stmt);
    size_t limit = filter->limit < *total ? filter->limit : *total;
    if (limit == 0)
        return BUS_OK;
    proto_session_info_t *infos = calloc(limit, sizeof *infos);
    stmt = bus_db_stmt(db, SESSION_COLUMNS SESSION_FILTER
                       " ORDER BY s.created_at DESC, s.id LIMIT ?5 OFFSET ?6");
    if (!infos || !stmt) {
        free(infos);
        return BUS_STATUS_INTERNAL;
    }
    s_bind_filter(stmt, filter);
    sqlite3_bind_int64(stmt, 5, (sqlite3_int64) limit);
    sqlite3_bind_int64(stmt, 6, (sqlite3_int64) filter->offset);
    size_t n = 0;
    while (n < limit && sqlite3_step(stmt) == SQLITE_ROW) {
        proto_session_info_init(&infos[n]);
        s_read_info(stmt, &infos[n++]);
    }
    sqlite3_reset(stmt);
    for (size_t i = 0; i < n; i++)
        s_read_slots(db, &infos[i]);
    *out = infos;
    *count = n;
    return BUS_OK;
}
