/*  =========================================================================
    sched_db_sessions - sessions in the scheduler's database

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"
#include <sys/random.h> //  getrandom: the UUIDs of a cluster's sub kernels

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

//  A random (version 4) UUID for a cluster's sub kernel, in out[37].
static void
s_uuid(char out[37])
{
    uint8_t b[16];
    if (getrandom(b, sizeof b, 0) != (ssize_t) sizeof b) {
        //  Never short for 16 bytes once the pool is ready; a clock-mixed
        //  fallback keeps ids unique within this process all the same.
        static uint64_t counter;
        uint64_t mix[2] = {(uint64_t) bus_clock_wall_us(), ++counter};
        memcpy(b, mix, sizeof b);
    }
    b[6] = (uint8_t) ((b[6] & 0x0f) | 0x40);
    b[8] = (uint8_t) ((b[8] & 0x3f) | 0x80);
    snprintf(out, 37,
             "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
             b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
             b[13], b[14], b[15]);
}

//  Inserts one kernel of the session and what it asks for.
static int
s_insert_kernel(bus_db_t *db,
                const sched_session_spec_t *spec,
                const char *kernel_id,
                uint32_t index,
                int64_t now_us,
                bus_error_t *err)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "INSERT INTO kernels (id, session_id, cluster_role, cluster_idx,"
                        " status_changed, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)");
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    sched_db_bind_text(stmt, 1, kernel_id);
    sched_db_bind_text(stmt, 2, spec->session_id);
    sched_db_bind_text(stmt, 3, index == 1 ? "main" : "sub");
    sqlite3_bind_int(stmt, 4, (int) index);
    sqlite3_bind_int64(stmt, 5, now_us);
    int rc = sched_db_step(stmt);
    for (size_t i = 0; rc == BUS_OK && i < spec->request_count; i++) {
        if (spec->request[i].amount < 0)
            return bus_error_set(err, BUS_STATUS_INVALID, "negative amount of %s",
                                 spec->request[i].slot);
        stmt = bus_db_stmt(db, "INSERT INTO kernel_requests (kernel_id, slot, amount)"
                               " VALUES (?1, ?2, ?3)");
        if (!stmt)
            return BUS_STATUS_INTERNAL;
        sched_db_bind_text(stmt, 1, kernel_id);
        sched_db_bind_text(stmt, 2, spec->request[i].slot);
        sqlite3_bind_int64(stmt, 3, spec->request[i].amount);
        rc = sched_db_step(stmt);
    }
    return rc;
}

//  Keeps the owner's limits the gateway resolved, one row per scope: the
//  latest submission's are the ones in force.
static int
s_store_limits(bus_db_t *db, const sched_session_spec_t *spec, bus_error_t *err)
{
    if (!spec->limits || !*spec->limits)
        return BUS_OK;
    json_t *limits = json_loads(spec->limits, 0, NULL);
    if (!json_is_object(limits)) {
        json_decref(limits);
        return bus_error_set(err, BUS_STATUS_INVALID, "limits: expected a JSON object");
    }
    const char *kinds[] = {"keypair", "user", "project", "domain"};
    const char *keys[] = {spec->access_key, spec->user_uuid, spec->group_id,
                          spec->domain_name};
    int rc = BUS_OK;
    for (int i = 0; rc == BUS_OK && i < 4; i++) {
        json_t *scope = json_object_get(limits, kinds[i]);
        if (!scope)
            continue;
        if (!json_is_object(scope)) {
            rc = bus_error_set(err, BUS_STATUS_INVALID, "limits.%s: expected an object",
                               kinds[i]);
            break;
        }
        char *text = json_dumps(scope, JSON_COMPACT | JSON_SORT_KEYS);
        sqlite3_stmt *stmt = bus_db_stmt(
            db, "INSERT INTO scope_limits (kind, key, limits) VALUES (?1, ?2, ?3)"
                " ON CONFLICT DO UPDATE SET limits = excluded.limits"
                " WHERE limits <> excluded.limits");
        rc = stmt && text ? BUS_OK : BUS_STATUS_INTERNAL;
        if (rc == BUS_OK) {
            sched_db_bind_text(stmt, 1, kinds[i]);
            sched_db_bind_text(stmt, 2, keys[i]);
            sched_db_bind_text(stmt, 3, text);
            rc = sched_db_step(stmt);
        }
        free(text);
    }
    json_decref(limits);
    return rc;
}

//  The session ids of a dependencies list (JSON array text of ids or the
//  names of the owner's sessions, the latest of that name), as a JSON
//  array text the caller frees. NULL with err for a malformed list or one
//  that names no session.
static char *
s_resolve_dependencies(bus_db_t *db, const sched_session_spec_t *spec, bus_error_t *err)
{
    json_t *list = json_loads(spec->dependencies, 0, NULL);
    json_t *ids = json_array();
    size_t index;
    json_t *item;
    if (!json_is_array(list))
        bus_error_set(err, BUS_STATUS_INVALID, "dependencies: expected a JSON array");
    json_array_foreach(list, index, item)
    {
        const char *name = json_string_value(item);
        sqlite3_stmt *stmt = bus_db_stmt(
            db, "SELECT id FROM sessions WHERE id = ?1 UNION ALL SELECT * FROM"
                " (SELECT id FROM sessions WHERE access_key = ?2 AND name = ?1"
                " ORDER BY created_at DESC LIMIT 1) LIMIT 1");
        if (!name || !stmt) {
            bus_error_set(err, BUS_STATUS_INVALID, "dependencies: session ids or names");
            break;
        }
        sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 2, spec->access_key, -1, SQLITE_STATIC);
        if (sqlite3_step(stmt) == SQLITE_ROW)
            json_array_append_new(
                ids, json_string((const char *) sqlite3_column_text(stmt, 0)));
        else
            bus_error_set(err, BUS_STATUS_INVALID, "dependencies: no session %s", name);
        sqlite3_reset(stmt);
        if (*err->detail)
            break;
    }
    char *text = *err->detail ? NULL : json_dumps(ids, JSON_COMPACT);
    json_decref(ids);
    json_decref(list);
    return text;
}

int
sched_db_sessions_insert(bus_db_t *db,
                         const sched_session_spec_t *spec,
                         int64_t now_us,
                         bus_error_t *err)
{
    if (!s_valid_id(spec->session_id) || !s_valid_id(spec->kernel_id) || !spec->name ||
        !spec->access_key || !spec->user_uuid || !spec->domain_name || !spec->group_id ||
        !spec->scaling_group || !spec->image)
        return bus_error_set(err, BUS_STATUS_INVALID, "incomplete session spec");
    if (spec->type && strcmp(spec->type, "INTERACTIVE") != 0 &&
        strcmp(spec->type, "BATCH") != 0 && strcmp(spec->type, "INFERENCE") != 0)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "type is INTERACTIVE, BATCH or INFERENCE");
    if (spec->cluster_mode && strcmp(spec->cluster_mode, "single-node") != 0 &&
        strcmp(spec->cluster_mode, "multi-node") != 0)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "cluster_mode is single-node or multi-node");
    uint32_t size = spec->cluster_size ? spec->cluster_size : 1;
    if (size > SCHED_CLUSTER_MAX || spec->priority < 0 || spec->priority > 100)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             size > SCHED_CLUSTER_MAX ? "a cluster has at most %d kernels"
                                                      : "priority is 0..100",
                             SCHED_CLUSTER_MAX);
    char *dependencies = NULL;
    if (spec->dependencies && *spec->dependencies &&
        !(dependencies = s_resolve_dependencies(db, spec, err)))
        return err->status ? err->status : BUS_STATUS_INVALID;
    if (bus_db_begin(db) != 0) {
        free(dependencies);
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "database busy");
    }
    //  A name is unique among the owner's sessions that are not over.
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT 1 FROM sessions WHERE access_key = ?1 AND name = ?2"
                        " AND status NOT IN ('TERMINATED', 'CANCELLED')");
    int rc = stmt ? BUS_OK : BUS_STATUS_INTERNAL;
    if (stmt) {
        sched_db_bind_text(stmt, 1, spec->access_key);
        sched_db_bind_text(stmt, 2, spec->name);
        bool taken = sqlite3_step(stmt) == SQLITE_ROW;
        sqlite3_reset(stmt);
        if (taken)
            rc = bus_error_set(err, BUS_STATUS_CONFLICT,
                               "a session named %s already exists", spec->name);
    }
    if (rc == BUS_OK) {
        stmt = bus_db_stmt(
            db,
            "INSERT INTO sessions (id, name, access_key, user_uuid, domain_name,"
            " group_id, scaling_group, type, status_changed, image, architecture,"
            " environ, resource_opts, startup_command, created_at, preopen_ports,"
            " bootstrap_script, priority, cluster_mode, cluster_size, starts_at,"
            " dependencies, batch_timeout, mounts, tag, dotfiles, model_service, spread)"
            " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, coalesce(?8, 'INTERACTIVE'), ?9,"
            " ?10, coalesce(?11, 'x86_64'), coalesce(?12, '{}'),"
            " coalesce(?13, '{}'), ?14, ?9, coalesce(?15, '[]'), ?16, ?17,"
            " coalesce(?18, 'single-node'), ?19, ?20, coalesce(?21, '[]'), ?22,"
            " coalesce(?23, '[]'), ?24, ?25, ?26, coalesce(?27, ''))");
        rc = stmt ? BUS_OK : BUS_STATUS_INTERNAL;
    }
    if (rc == BUS_OK) {
        const char *texts[] = {spec->session_id,    spec->name,        spec->access_key,
                               spec->user_uuid,     spec->domain_name, spec->group_id,
                               spec->scaling_group, spec->type};
        for (int i = 0; i < 8; i++)
            sched_db_bind_text(stmt, i + 1, texts[i]);
        sqlite3_bind_int64(stmt, 9, now_us);
        sched_db_bind_text(stmt, 10, spec->image);
        sched_db_bind_text(stmt, 11, spec->architecture);
        sched_db_bind_text(stmt, 12, spec->environ);
        sched_db_bind_text(stmt, 13, spec->resource_opts);
        sched_db_bind_text(stmt, 14, spec->startup_command);
        sched_db_bind_text(stmt, 15, spec->preopen_ports);
        sched_db_bind_text(stmt, 16, spec->bootstrap_script);
        sqlite3_bind_int(stmt, 17, spec->priority);
        sched_db_bind_text(stmt, 18, spec->cluster_mode);
        sqlite3_bind_int(stmt, 19, (int) size);
        sqlite3_bind_int64(stmt, 20, spec->starts_at_us);
        sched_db_bind_text(stmt, 21, dependencies);
        sqlite3_bind_int64(stmt, 22, spec->batch_timeout_s);
        sched_db_bind_text(stmt, 23, spec->mounts);
        sched_db_bind_text(stmt, 24, spec->tag);
        sched_db_bind_text(stmt, 25, spec->dotfiles);
        sched_db_bind_text(stmt, 26, spec->model_service);
        sched_db_bind_text(stmt, 27, spec->spread);
        rc = sched_db_step(stmt);
    }
    if (rc == BUS_OK)
        rc = s_insert_kernel(db, spec, spec->kernel_id, 1, now_us, err);
    for (uint32_t index = 2; rc == BUS_OK && index <= size; index++) {
        char kernel_id[37];
        s_uuid(kernel_id);
        rc = s_insert_kernel(db, spec, kernel_id, index, now_us, err);
    }
    free(dependencies);
    if (rc == BUS_OK)
        rc = s_store_limits(db, spec, err);
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

int
sched_db_sessions_rename(bus_db_t *db,
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
    sched_db_bind_text(stmt, 1, session_id);
    sched_db_bind_text(stmt, 2, name);
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
    sched_db_bind_text(stmt, 1, session_id);
    sched_db_bind_text(stmt, 2, name);
    bool done = sqlite3_step(stmt) == SQLITE_DONE;
    sqlite3_reset(stmt);
    return done ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "cannot rename");
}

int
sched_db_sessions_status(bus_db_t *db, const char *session_id)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, "SELECT status FROM sessions WHERE id = ?1");
    if (!stmt)
        return -1;
    sched_db_bind_text(stmt, 1, session_id);
    int status = -1;
    if (sqlite3_step(stmt) == SQLITE_ROW)
        status =
            sched_session_status_from_str((const char *) sqlite3_column_text(stmt, 0));
    sqlite3_reset(stmt);
    return status;
}

#define SESSION_COLUMNS                                                                  \
    "SELECT s.id, s.name, s.access_key, s.user_uuid, s.domain_name, s.group_id,"         \
    " s.scaling_group, s.type, s.status, s.status_info, s.status_data, s.image,"         \
    " s.architecture, s.tag, k.id, k.agent_id, k.container_id, k.kernel_host,"           \
    " coalesce(k.exit_code, 0), s.created_at, s.status_changed,"                         \
    " coalesce(s.terminated_at, 0), a.addr, s.preopen_ports, s.result, s.cluster_mode,"  \
    " s.cluster_size, h.entries FROM sessions s"                                         \
    " LEFT JOIN session_history h ON h.session_id = s.id"                                \
    " LEFT JOIN kernels k ON k.session_id = s.id AND k.cluster_role = 'main'"            \
    " LEFT JOIN agents a ON a.id = k.agent_id"

//  A (slot, amount) query for one kernel as a map in the arena *owned.
static void
s_kernel_slots(bus_db_t *db,
               const char *sql,
               const char *kernel_id,
               void **owned,
               const proto_kv_t **map,
               size_t *count)
{
    sqlite3_stmt *stmt = kernel_id ? bus_db_stmt(db, sql) : NULL;
    if (!stmt)
        return;
    sched_db_bind_text(stmt, 1, kernel_id);
    sched_db_slot_map(stmt, owned, map, count);
}

//  The current row of a SESSION_COLUMNS statement into out, whose arena
//  holds the strings.
static void
s_read_info(sqlite3_stmt *stmt, proto_session_info_t *out)
{
    void **owned = &out->owned_;
    const char **texts[] = {&out->session_id,    &out->name,         &out->access_key,
                            &out->user_uuid,     &out->domain_name,  &out->group_id,
                            &out->scaling_group, &out->type,         &out->status,
                            &out->status_info,   &out->status_data,  &out->image,
                            &out->architecture,  &out->tag,          &out->kernel_id,
                            &out->agent_id,      &out->container_id, &out->kernel_host};
    for (int i = 0; i < 18; i++)
        *texts[i] = sched_db_column_text(stmt, i, owned);
    out->exit_code = sqlite3_column_int64(stmt, 18);
    out->created_at = sqlite3_column_int64(stmt, 19);
    out->status_changed = sqlite3_column_int64(stmt, 20);
    out->terminated_at = sqlite3_column_int64(stmt, 21);
    out->agent_addr = sched_db_column_text(stmt, 22, owned);
    out->preopen_ports = sched_db_column_text(stmt, 23, owned);
    out->result = sched_db_column_text(stmt, 24, owned);
    out->cluster_mode = sched_db_column_text(stmt, 25, owned);
    out->cluster_size = (uint64_t) sqlite3_column_int64(stmt, 26);
    out->status_history = sched_db_column_text(stmt, 27, owned);
}

//  The slot maps, read after the row's statement is reset (one open
//  statement at a time).
static void
s_read_slots(bus_db_t *db, proto_session_info_t *out)
{
    s_kernel_slots(db, "SELECT slot, amount FROM kernel_requests WHERE kernel_id = ?1",
                   out->kernel_id, &out->owned_, &out->requested_slots,
                   &out->requested_slots_count);
    s_kernel_slots(db, "SELECT slot, amount FROM allocations WHERE kernel_id = ?1",
                   out->kernel_id, &out->owned_, &out->occupied_slots,
                   &out->occupied_slots_count);
}

int
sched_db_sessions_get(bus_db_t *db, const char *session_id, proto_session_info_t *out)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, SESSION_COLUMNS " WHERE s.id = ?1");
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    sched_db_bind_text(stmt, 1, session_id);
    bool found = sqlite3_step(stmt) == SQLITE_ROW;
    if (found)
        s_read_info(stmt, out);
    sqlite3_reset(stmt);
    if (!found)
        return BUS_STATUS_NOT_FOUND;
    s_read_slots(db, out);
    return BUS_OK;
}

static const char *
s_dup_or(void **owned, const char *text, const char *otherwise)
{
    return proto_arena_strdup(owned, text ? text : otherwise);
}

static int
s_slot_cmp(const void *a, const void *b)
{
    return strcmp(((const proto_kv_t *) a)->key, ((const proto_kv_t *) b)->key);
}

int
sched_db_sessions_info_of(const sched_session_spec_t *spec,
                          int64_t now_us,
                          proto_session_info_t *out)
{
    //  Each column as the insert stores it (the same defaults) and as
    //  s_read_info reads it back; NULL columns stay NULL. The copies go
    //  into out's arena.
    void **owned = &out->owned_;
    out->session_id = proto_arena_strdup(owned, spec->session_id);
    out->name = proto_arena_strdup(owned, spec->name);
    out->access_key = proto_arena_strdup(owned, spec->access_key);
    out->user_uuid = proto_arena_strdup(owned, spec->user_uuid);
    out->domain_name = proto_arena_strdup(owned, spec->domain_name);
    out->group_id = proto_arena_strdup(owned, spec->group_id);
    out->scaling_group = proto_arena_strdup(owned, spec->scaling_group);
    out->type = s_dup_or(owned, spec->type, "INTERACTIVE");
    out->status = "PENDING";
    out->status_data = "{}";
    out->image = proto_arena_strdup(owned, spec->image);
    out->architecture = s_dup_or(owned, spec->architecture, "x86_64");
    out->kernel_id = proto_arena_strdup(owned, spec->kernel_id);
    out->created_at = out->status_changed = now_us;
    out->preopen_ports = s_dup_or(owned, spec->preopen_ports, "[]");
    out->tag = proto_arena_strdup(owned, spec->tag);
    out->result = "UNDEFINED";
    out->cluster_mode = s_dup_or(owned, spec->cluster_mode, "single-node");
    out->cluster_size = spec->cluster_size ? spec->cluster_size : 1;
    //  As the sessions_history_started trigger writes it (SQLite's compact
    //  JSON).
    char history[96];
    snprintf(history, sizeof history,
             "[{\"status\":\"PENDING\",\"at\":%lld,\"info\":\"\"}]", (long long) now_us);
    out->status_history = proto_arena_strdup(owned, history);
    //  What the main kernel asks for, in the primary key's order.
    if (spec->request_count) {
        proto_kv_t *slots = proto_arena_alloc(owned, spec->request_count * sizeof *slots);
        if (!slots)
            return BUS_STATUS_INTERNAL;
        out->requested_slots = slots;
        for (size_t i = 0; i < spec->request_count; i++) {
            const char *slot = spec->request[i].slot;
            bus_slots_value_t value = {false, spec->request[i].amount};
            char text[BUS_SLOTS_VALUE_MAX];
            bus_slots_format_value(bus_slots_unit(slot), &value, text);
            slots[i].key = proto_arena_strdup(owned, slot);
            slots[i].value = proto_arena_strdup(owned, text);
            out->requested_slots_count++;
            if (!slots[i].key || !slots[i].value)
                return BUS_STATUS_INTERNAL;
        }
        qsort(slots, out->requested_slots_count, sizeof *slots, s_slot_cmp);
    }
    const char *texts[] = {
        out->session_id,  out->name,          out->access_key,    out->user_uuid,
        out->domain_name, out->group_id,      out->scaling_group, out->type,
        out->status,      out->status_data,   out->image,         out->architecture,
        out->kernel_id,   out->preopen_ports, out->result,        out->cluster_mode};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (!texts[i])
            return BUS_STATUS_INTERNAL;
    return BUS_OK;
}

//  The owner's columns of a row (name, access_key, domain_name, group_id
//  from column first on) into move, with session_id.
static void
s_read_owner(sqlite3_stmt *stmt, int first, const char *session_id, sched_move_t *move)
{
    snprintf(move->session_id, sizeof move->session_id, "%s", session_id);
    sched_db_column_copy(stmt, first, move->name, sizeof move->name);
    sched_db_column_copy(stmt, first + 1, move->access_key, sizeof move->access_key);
    sched_db_column_copy(stmt, first + 2, move->domain_name, sizeof move->domain_name);
    sched_db_column_copy(stmt, first + 3, move->group_id, sizeof move->group_id);
}

int
sched_db_sessions_owner(bus_db_t *db, const char *session_id, sched_move_t *move)
{
    memset(move, 0, sizeof *move);
    sqlite3_stmt *stmt = bus_db_stmt(db, "SELECT name, access_key, domain_name, group_id"
                                         " FROM sessions WHERE id = ?1");
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_STATIC);
    int rc = BUS_STATUS_NOT_FOUND;
    if (sqlite3_step(stmt) == SQLITE_ROW) {
        rc = BUS_OK;
        s_read_owner(stmt, 0, session_id, move);
    }
    sqlite3_reset(stmt);
    return rc;
}

int
sched_db_sessions_event_of(bus_db_t *db,
                           const char *session_id,
                           const char *kernel_id,
                           sched_move_t *move)
{
    memset(move, 0, sizeof *move);
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT s.name, s.access_key, s.domain_name, s.group_id, s.status,"
            " k.cluster_role, k.cluster_idx FROM sessions s"
            " LEFT JOIN kernels k ON k.id = ?2 AND k.session_id = s.id"
            " WHERE s.id = ?1");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, kernel_id ? kernel_id : "", -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_ROW) {
        sqlite3_reset(stmt);
        return -1;
    }
    s_read_owner(stmt, 0, session_id, move);
    int status =
        sched_session_status_from_str((const char *) sqlite3_column_text(stmt, 4));
    if (kernel_id && sqlite3_column_type(stmt, 5) != SQLITE_NULL) {
        sched_db_column_copy(stmt, 5, move->cluster_role, sizeof move->cluster_role);
        move->cluster_idx = sqlite3_column_int64(stmt, 6);
    }
    sqlite3_reset(stmt);
    return status;
}

void
sched_db_sessions_kernel_facts(bus_db_t *db,
                               const char *kernel_id,
                               proto_session_lifecycle_t *step)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT s.user_uuid, s.scaling_group, s.image, k.agent_id FROM kernels k"
            " JOIN sessions s ON s.id = k.session_id WHERE k.id = ?1");
    if (!stmt)
        return;
    sched_db_bind_text(stmt, 1, kernel_id);
    bool found = sqlite3_step(stmt) == SQLITE_ROW;
    if (found) {
        step->user_uuid = sched_db_column_text(stmt, 0, &step->owned_);
        step->scaling_group = sched_db_column_text(stmt, 1, &step->owned_);
        step->image = sched_db_column_text(stmt, 2, &step->owned_);
        step->agent_id = sched_db_column_text(stmt, 3, &step->owned_);
    }
    sqlite3_reset(stmt);
    //  What it asked is what it holds while placed (the ledger's rows go
    //  when it ends, the request stays).
    if (found)
        s_kernel_slots(db,
                       "SELECT slot, amount FROM kernel_requests WHERE kernel_id = ?1",
                       kernel_id, &step->owned_, &step->slots, &step->slots_count);
}

bool
sched_db_sessions_create_request(bus_db_t *db,
                                 const char *session_id,
                                 const char *agent_id,
                                 sched_db_create_t *out)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT coalesce(a.addr, ''), s.environ, coalesce(s.startup_command, ''),"
            " coalesce(json_extract(s.resource_opts, '$.shmem'), 0),"
            " s.bootstrap_script, s.cluster_mode, s.cluster_size,"
            " s.mounts, s.name, s.type, s.image, s.architecture, s.access_key,"
            " s.user_uuid, s.domain_name, s.group_id, s.dotfiles, s.model_service"
            " FROM sessions s LEFT JOIN agents a ON a.id = ?2 WHERE s.id = ?1");
    if (!stmt)
        return false;
    sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 2, agent_id, -1, SQLITE_TRANSIENT);
    bool found = sqlite3_step(stmt) == SQLITE_ROW;
    if (found) {
        sched_db_column_copy(stmt, 0, out->addr, sizeof out->addr);
        char **texts[] = {&out->environ,
                          &out->startup_command,
                          &out->bootstrap_script,
                          &out->mounts,
                          &out->name,
                          &out->type,
                          &out->image,
                          &out->architecture,
                          &out->access_key,
                          &out->user_uuid,
                          &out->domain_name,
                          &out->group_id,
                          &out->dotfiles,
                          &out->model_service};
        static const int columns[] = {1, 2, 4, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
        for (size_t c = 0; c < sizeof columns / sizeof columns[0]; c++)
            *texts[c] = sched_db_column_dup(stmt, columns[c]);
        out->shmem_bytes = (uint64_t) sqlite3_column_int64(stmt, 3);
        sched_db_column_copy(stmt, 5, out->cluster_mode, sizeof out->cluster_mode);
        out->cluster_size = (uint64_t) sqlite3_column_int64(stmt, 6);
    }
    sqlite3_reset(stmt);
    return found;
}

void
sched_db_create_clear(sched_db_create_t *self)
{
    char **texts[] = {&self->environ,
                      &self->startup_command,
                      &self->bootstrap_script,
                      &self->mounts,
                      &self->name,
                      &self->type,
                      &self->image,
                      &self->architecture,
                      &self->access_key,
                      &self->user_uuid,
                      &self->domain_name,
                      &self->group_id,
                      &self->dotfiles,
                      &self->model_service};
    for (size_t c = 0; c < sizeof texts / sizeof texts[0]; c++) {
        free(*texts[c]);
        *texts[c] = NULL;
    }
}

bool
sched_db_sessions_find(
    bus_db_t *db, const char *access_key, const char *name, char *id, size_t size)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT id FROM sessions WHERE access_key = ?1 AND name = ?2"
                        " ORDER BY status IN ('TERMINATED', 'CANCELLED'), created_at DESC"
                        " LIMIT 1");
    if (!stmt)
        return false;
    sqlite3_bind_text(stmt, 1, access_key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 2, name, -1, SQLITE_TRANSIENT);
    bool found = sqlite3_step(stmt) == SQLITE_ROW;
    if (found)
        sched_db_column_copy(stmt, 0, id, size);
    sqlite3_reset(stmt);
    return found;
}

bool
sched_db_sessions_is_batch(bus_db_t *db, const char *session_id)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT type = 'BATCH' FROM sessions WHERE id = ?1");
    bool batch = false;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(stmt) == SQLITE_ROW)
            batch = sqlite3_column_int(stmt, 0) != 0;
        sqlite3_reset(stmt);
    }
    return batch;
}

void
sched_db_sessions_set_result(bus_db_t *db, const char *session_id, bool success)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, "UPDATE sessions SET result = ?2"
                                         " WHERE id = ?1");
    if (stmt) {
        sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 2, success ? "SUCCESS" : "FAILURE", -1, SQLITE_STATIC);
        sqlite3_step(stmt);
        sqlite3_reset(stmt);
    }
}

int64_t
sched_db_sessions_cluster_size(bus_db_t *db, const char *session_id)
{
    int64_t size = 0;
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT cluster_size FROM sessions WHERE id = ?1");
    if (stmt) {
        sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(stmt) == SQLITE_ROW)
            size = sqlite3_column_int64(stmt, 0);
        sqlite3_reset(stmt);
    }
    return size;
}

bool
sched_db_sessions_restart_target(bus_db_t *db,
                                 const char *session_id,
                                 const char *agent_id,
                                 char *addr,
                                 size_t addr_size,
                                 char *command,
                                 size_t command_size)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT a.addr, CASE WHEN s.type = 'BATCH' THEN"
                        " coalesce(s.startup_command, '') ELSE '' END"
                        " FROM sessions s, agents a WHERE s.id = ?1 AND a.id = ?2"
                        " AND a.status = 'ALIVE'");
    bool found = false;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 2, agent_id ? agent_id : "", -1, SQLITE_TRANSIENT);
        if (sqlite3_step(stmt) == SQLITE_ROW) {
            found = true;
            sched_db_column_copy(stmt, 0, addr, addr_size);
            sched_db_column_copy(stmt, 1, command, command_size);
        }
        sqlite3_reset(stmt);
    }
    return found;
}

bool
sched_db_sessions_tried(bus_db_t *db,
                        const char *session_id,
                        int64_t retries,
                        int64_t skipped,
                        int64_t now_us,
                        const char *status_info,
                        const char *status_data)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "UPDATE sessions SET retries = ?2, skipped = ?3, tried_at = ?4,"
                        " status_info = ?5, status_data = coalesce(?6, status_data)"
                        " WHERE id = ?1 AND status = 'PENDING'");
    if (!stmt)
        return true; //  logged by bus_db_stmt
    sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, retries);
    sqlite3_bind_int64(stmt, 3, skipped);
    sqlite3_bind_int64(stmt, 4, now_us);
    sqlite3_bind_text(stmt, 5, status_info, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 6, status_data, -1, SQLITE_STATIC);
    bool done = sqlite3_step(stmt) == SQLITE_DONE;
    sqlite3_reset(stmt);
    return done;
}

void
sched_db_sessions_failed_dependencies(bus_db_t *db, sched_db_id_fn *fn, void *arg)
{
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT s.id FROM sessions s WHERE s.status = 'PENDING' AND "
                        "s.dependencies <> '[]'"
                        " AND json_valid(s.dependencies) AND EXISTS (SELECT 1 FROM"
                        " json_each(s.dependencies) d JOIN sessions x ON x.id = d.value"
                        " WHERE x.status IN ('TERMINATED', 'CANCELLED', 'ERROR')"
                        " AND x.result <> 'SUCCESS')");
    bool more = true;
    while (stmt && more && sqlite3_step(stmt) == SQLITE_ROW)
        more = fn(arg, (const char *) sqlite3_column_text(stmt, 0));
    if (stmt)
        sqlite3_reset(stmt);
}

void
sched_db_sessions_reclaimable(bus_db_t *db, sched_db_running_fn *fn, void *arg)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db,
        "SELECT s.id, s.type, s.created_at, s.status_changed, s.batch_timeout,"
        " coalesce(json_extract(l.limits, '$.idle_timeout'), 0),"
        " coalesce(json_extract(l.limits, '$.max_session_lifetime'), 0), s.scaling_group"
        " FROM sessions s LEFT JOIN scope_limits l"
        "  ON l.kind = 'keypair' AND l.key = s.access_key AND json_valid(l.limits)"
        " WHERE s.status = 'RUNNING' AND (s.batch_timeout > 0"
        "  OR json_extract(l.limits, '$.idle_timeout') > 0"
        "  OR json_extract(l.limits, '$.max_session_lifetime') > 0"
        "  OR s.scaling_group IN (SELECT name FROM sgroups WHERE json_valid(opts)"
        "   AND json_extract(opts, '$.idle_checkers.utilization') IS NOT NULL))");
    bool more = true;
    while (stmt && more && sqlite3_step(stmt) == SQLITE_ROW) {
        sched_db_running_t row = {
            .id = (const char *) sqlite3_column_text(stmt, 0),
            .batch = strcmp((const char *) sqlite3_column_text(stmt, 1), "BATCH") == 0,
            .created_at = sqlite3_column_int64(stmt, 2),
            .running_since = sqlite3_column_int64(stmt, 3),
            .batch_timeout = sqlite3_column_int64(stmt, 4),
            .idle_timeout = sqlite3_column_int64(stmt, 5),
            .lifetime = sqlite3_column_int64(stmt, 6),
            .scaling_group = (const char *) sqlite3_column_text(stmt, 7),
        };
        more = fn(arg, &row);
    }
    if (stmt)
        sqlite3_reset(stmt);
}
