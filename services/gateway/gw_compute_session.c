/*  =========================================================================
    gw_compute_session - compute_session and compute_session_list in the
    GraphQL admin API, from the scheduler

    The scheduler owns sessions. When an operation asks for these fields,
    gw_gql first fetches the sessions the caller may see with session.list
    (a superadmin all, a domain admin its domain's, anyone else its own
    keypair's; the newest GW_SESSIONS_PREFETCH_MAX) into
    r->prefetch_sessions; the resolvers filter, order and page them, and
    add what only the gateway knows (project names, user emails).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  One column of one row by id from the gateway's own tables, or "".
static json_t *
s_lookup(bus_db_t *db, const char *sql, const char *id)
{
    sqlite3_stmt *stmt = id ? bus_db_stmt(db, sql) : NULL;
    json_t *out = NULL;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(stmt) == SQLITE_ROW)
            out = json_string((const char *) sqlite3_column_text(stmt, 0));
        sqlite3_reset(stmt);
    }
    return out ? out : json_string("");
}

void
gw_compute_session_request(gw_request_t *r, bus_writer_t *writer)
{
    proto_session_list_req_t in;
    proto_session_list_req_init(&in);
    in.limit = GW_SESSIONS_PREFETCH_MAX;
    if (!gw_identity_is_superadmin(&r->who)) {
        if (gw_identity_admins_domain(&r->who, r->who.domain))
            in.domain_name = r->who.domain;
        else
            in.access_key = r->who.access_key;
    }
    proto_session_list_req_write(&in, writer);
}

json_t *
gw_compute_session_from_reply(gw_request_t *r, const bus_reply_t *reply)
{
    proto_session_list_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK)
        return json_pack("{s:s}", "error", *reply->detail ? reply->detail : "no answer");
    if (proto_session_list_rep_decode(&rep, reply->body, reply->body_size, &err) !=
        BUS_OK)
        return json_pack("{s:s}", "error", err.detail);
    bus_db_t *db = r->gw->db;
    json_t *sessions = json_array();
    for (size_t i = 0; i < rep.sessions_count; i++) {
        const proto_session_info_t *s = &rep.sessions[i];
        //  registry/project/name:tag → the catalogue's registry, name and tag.
        const char *image = s->image ? s->image : "";
        const char *slash = strchr(image, '/'), *colon = strrchr(image, ':');
        char registry[256] = "", tag[128] = "";
        if (slash)
            snprintf(registry, sizeof registry, "%.*s", (int) (slash - image), image);
        if (colon && (!slash || colon > slash))
            snprintf(tag, sizeof tag, "%s", colon + 1);
        json_t *occupied = gw_gql_slots(s->occupied_slots, s->occupied_slots_count);
        json_t *apps = gw_apps_of_session(r->gw, s->image, s->preopen_ports);
        char *service_ports = json_dumps(apps, JSON_COMPACT);
        json_decref(apps);
        json_t *status_data = json_string(s->status_data ? s->status_data : "{}");
        json_t *container = json_pack(
            "{s:s?, s:s?, s:s, s:s, s:s, s:s?, s:s?, s:s, s:s?, s:s?, s:s?, s:O, s:O, "
            "s:s?,"
            " s:I, s:o}",
            "id", s->kernel_id, "session_id", s->session_id, "role", "main",
            "cluster_role", "main", "cluster_hostname", "main1", "agent", s->agent_id,
            "image", s->image, "registry", registry, "status", s->status, "status_info",
            s->status_info, "container_id", s->container_id, "status_data", status_data,
            "occupied_slots", occupied, "kernel_host", s->kernel_host, "cluster_idx",
            (json_int_t) 1, "status_changed", gw_gql_time(s->status_changed));
        json_t *session = json_pack(
            "{s:s, s:s, s:s, s:s?, s:s?, s:s, s:s, s:s?, s:s?, s:s?, s:s?, s:s?, s:s?,"
            " s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:s, s:s, s:I, s:s, s:[], s:[o],"
            " s:[], s:s?, s:s?}",
            "id", s->session_id, "session_id", s->session_id, "name", s->name, "type",
            s->type, "image", s->image, "registry", registry, "tag", tag, "domain_name",
            s->domain_name, "group_id", s->group_id, "user_id", s->user_uuid,
            "access_key", s->access_key, "status", s->status, "status_info",
            s->status_info, "status_data", status_data, "status_changed",
            gw_gql_time(s->status_changed), "created_at", gw_gql_time(s->created_at),
            "terminated_at", gw_gql_time(s->terminated_at), "occupied_slots", occupied,
            "group_name",
            s_lookup(db, "SELECT name FROM groups WHERE id = ?1", s->group_id),
            "user_email",
            s_lookup(db, "SELECT email FROM users WHERE uuid = ?1", s->user_uuid),
            "result", s->result ? s->result : "UNDEFINED", "cluster_mode",
            s->cluster_mode ? s->cluster_mode : "single-node", "service_ports",
            service_ports ? service_ports : "[]", "cluster_size",
            (json_int_t) (s->cluster_size ? s->cluster_size : 1), "resource_opts", "{}",
            "mounts", "containers", container, "dependencies", "scaling_group",
            s->scaling_group, "agent", s->agent_id);
        free(service_ports);
        json_array_append_new(sessions, session);
    }
    proto_session_list_rep_clear(&rep);
    return sessions;
}

bool
gw_compute_session_is_root(const char *name)
{
    for (const gw_gql_root_t *root = gw_compute_session_gql; root->name; root++)
        if (strcmp(root->name, name) == 0)
            return true;
    return false;
}

//  The prefetched sessions, or NULL with err when the scheduler failed.
static json_t *
s_sessions(gw_request_t *r, bus_error_t *err)
{
    if (!json_is_array(r->prefetch_sessions)) {
        const char *why =
            json_string_value(json_object_get(r->prefetch_sessions, "error"));
        bus_error_set(err, BUS_STATUS_UNAVAILABLE, "the scheduler did not answer: %s",
                      why ? why : "not reachable");
        return NULL;
    }
    return r->prefetch_sessions;
}

static json_t *
q_compute_session(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *all = s_sessions(r, err);
    if (!all)
        return NULL;
    const char *id = gw_gql_arg(args, "id");
    size_t index;
    json_t *session;
    json_array_foreach(all, index, session)
    {
        if (id && strcmp(json_string_value(json_object_get(session, "id")), id) == 0)
            return json_incref(session);
    }
    return json_null();
}

static json_t *
q_compute_session_list(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *all = s_sessions(r, err);
    if (!all)
        return NULL;
    const char *status = gw_gql_arg(args, "status");
    const char *access_key = gw_gql_arg(args, "access_key");
    const char *group_id = gw_gql_arg(args, "group_id");
    json_t *kept = json_array();
    size_t index;
    json_t *session;
    json_array_foreach(all, index, session)
    {
        const char *s_status = json_string_value(json_object_get(session, "status"));
        if (status && *status && !gw_gql_in_list(status, s_status))
            continue;
        if (access_key &&
            strcmp(access_key, json_string_value(json_object_get(session, "access_key"))))
            continue;
        if (group_id &&
            strcmp(group_id, json_string_value(json_object_get(session, "group_id"))))
            continue;
        json_array_append(kept, session);
    }
    return gw_gql_page(kept, args, err);
}

const gw_gql_root_t gw_compute_session_gql[] = {
    {"query", "compute_session", q_compute_session},
    {"query", "compute_session_list", q_compute_session_list},
    {NULL, NULL, NULL},
};
