/*  =========================================================================
    gw_manager - the manager's status, the announcement, scheduler operations

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  ---------------------------------------------------------------------------
//  Settings: one row per key in manager_settings

//  The value of key (caller owns it), or NULL when unset; *failed on error.
static char *
s_setting(bus_db_t *db, const char *key, bool *failed)
{
    const char *params[] = {key, NULL};
    json_t *row = gw_store_one(db, "SELECT value FROM manager_settings WHERE key = ?1",
                               params, NULL, failed);
    const char *value = json_string_value(json_object_get(row, "value"));
    char *out = value ? strdup(value) : NULL;
    json_decref(row);
    return out;
}

//  Writes key = value, or deletes key when value is NULL.
static int
s_set_setting(bus_db_t *db, const char *key, const char *value)
{
    sqlite3_stmt *stmt =
        value
            ? bus_db_stmt(db, "INSERT INTO manager_settings (key, value) VALUES (?1, ?2)"
                              " ON CONFLICT (key) DO UPDATE SET value = ?2")
            : bus_db_stmt(db, "DELETE FROM manager_settings WHERE key = ?1");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
    if (value)
        sqlite3_bind_text(stmt, 2, value, -1, SQLITE_STATIC);
    int rc = sqlite3_step(stmt) == SQLITE_DONE ? 0 : -1;
    if (rc != 0)
        bus_log_error("manager_settings write failed key=%s: %s", key,
                      sqlite3_errmsg(bus_db_handle(db)));
    sqlite3_reset(stmt);
    return rc;
}

bool
gw_manager_frozen(gw_server_t *gw)
{
    bool failed = false;
    char *status = s_setting(gw_server_db(gw), "status", &failed);
    if (failed)
        bus_log_error("cannot read the manager status; taken as running");
    bool frozen = status && strcmp(status, GW_MANAGER_FROZEN) == 0;
    free(status);
    return frozen;
}

//  The handlers Backend.AI marks ALL_ALLOWED (running only): what creates.
static gw_handler_fn *const s_refused_when_frozen[] = {
    gw_session_handle_create,
    gw_template_handle_create_session, //  a session too, made from a template
    gw_vfolder_handle_create,
    gw_service_handle_create, //  a model service, and so its sessions
};

bool
gw_manager_admit(gw_request_t *r)
{
    size_t count = sizeof s_refused_when_frozen / sizeof s_refused_when_frozen[0];
    for (size_t i = 0; i < count; i++) {
        if (r->route->handler == s_refused_when_frozen[i]) {
            if (!gw_manager_frozen(r->gw))
                return true;
            gw_reply_problem(r, "server-frozen", NULL);
            return false;
        }
    }
    return true;
}

static bool
s_superadmin(gw_request_t *r)
{
    if (gw_identity_is_superadmin(&r->who))
        return true;
    gw_reply_problem(r, "generic-forbidden", "Only a superadmin may do this.");
    return false;
}

//  ---------------------------------------------------------------------------
//  GET, PUT /manager/status

typedef struct {
    gw_request_t *r;
    char *status;
} status_call_t;

static void
s_on_sessions(void *arg, const bus_reply_t *reply)
{
    status_call_t *call = arg;
    gw_request_t *r = call->r;
    proto_session_list_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK ||
        proto_session_list_rep_decode(&rep, reply->body, reply->body_size, &err) !=
            BUS_OK)
        gw_reply_status(r, BUS_STATUS_UNAVAILABLE,
                        reply->status != BUS_OK ? reply->detail : err.detail);
    else {
        json_int_t active = (json_int_t) rep.total_count;
        const char *name = gw_server_config(r->gw)->node.node_name;
        char host[256] = "gateway";
        if (name && *name)
            snprintf(host, sizeof host, "%s", name);
        else if (gethostname(host, sizeof host) != 0)
            snprintf(host, sizeof host, "gateway");
        host[sizeof host - 1] = '\0';
        json_t *node = json_pack(
            "{s:s, s:i, s:s, s:i, s:b, s:I, s:s, s:s, s:s}", "id", host, "num_proc", 1,
            "service_addr", gw_http_endpoint(gw_server_http(r->gw)), "heartbeat_timeout",
            0, "ssl_enabled", gw_http_tls(gw_server_http(r->gw)), "active_sessions",
            active, "status", call->status, "version", BACKPLANE_VERSION, "api_version",
            GW_API_VERSION);
        gw_reply_json(r, 200,
                      json_pack("{s:[o], s:s, s:I}", "nodes", node, "status",
                                call->status, "active_sessions", active));
        proto_session_list_rep_clear(&rep);
    }
    free(call->status);
    free(call);
}

static void
s_status_get(gw_request_t *r)
{
    status_call_t *call = calloc(1, sizeof *call);
    if (!call) {
        gw_reply_problem(r, "internal-server-error", "out of memory");
        return;
    }
    call->r = r;
    call->status =
        strdup(gw_manager_frozen(r->gw) ? GW_MANAGER_FROZEN : GW_MANAGER_RUNNING);
    proto_session_list_req_t req;
    proto_session_list_req_init(&req);
    req.statuses = GW_MANAGER_ACTIVE_STATUSES;
    req.limit = 1;
    const char *scheduler = bus_node_find(gw_server_node(r->gw), "scheduler");
    bus_writer_t *writer = scheduler ? bus_writer_new() : NULL;
    uint64_t sent = 0;
    if (writer && call->status && req.statuses &&
        proto_session_list_req_write(&req, writer) == 0)
        sent = bus_node_call(gw_server_node(r->gw), scheduler, PROTO_SESSION_LIST,
                             bus_writer_data(writer), bus_writer_size(writer), 0,
                             s_on_sessions, call);
    bus_writer_destroy(&writer);
    proto_session_list_req_clear(&req);
    if (!sent) {
        gw_reply_status(r, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
        free(call->status);
        free(call);
    }
}

//  force_kill: every session that holds resources is destroyed (forced),
//  a page of session.list at a time with at most GW_MANAGER_KILL_WINDOW
//  destroys in flight, until a list finds none or GW_MANAGER_KILL_ROUNDS
//  lists were read. The status was written first, so no new session comes
//  in meanwhile. Replies 204 when done, or the failure of a list.
typedef struct {
    gw_request_t *r;
    char **ids; //  the page's session ids
    size_t count, next, in_flight, failed;
    int rounds;
} kill_t;

static void s_kill_list(kill_t *self);

static void
s_kill_free(kill_t *self)
{
    for (size_t i = 0; i < self->count; i++)
        free(self->ids[i]);
    free(self->ids);
    self->ids = NULL;
    self->count = self->next = 0;
}

static void s_kill_send(kill_t *self);

static void
s_on_killed(void *arg, const bus_reply_t *reply)
{
    kill_t *self = arg;
    self->in_flight--;
    if (reply->status != BUS_OK) {
        self->failed++;
        bus_log_warning("force_kill: destroy failed: %s", reply->detail);
    }
    s_kill_send(self);
}

//  Sends destroys up to the window; lists again once the page is done.
static void
s_kill_send(kill_t *self)
{
    const char *scheduler = bus_node_find(gw_server_node(self->r->gw), "scheduler");
    while (scheduler && self->next < self->count &&
           self->in_flight < GW_MANAGER_KILL_WINDOW) {
        proto_session_destroy_req_t req;
        proto_session_destroy_req_init(&req);
        req.session_id = self->ids[self->next++];
        req.forced = true;
        req.reason = "force-terminated";
        bus_writer_t *writer = bus_writer_new();
        bool sent = writer && proto_session_destroy_req_write(&req, writer) == 0 &&
                    bus_node_call(gw_server_node(self->r->gw), scheduler,
                                  PROTO_SESSION_DESTROY, bus_writer_data(writer),
                                  bus_writer_size(writer), 0, s_on_killed, self) != 0;
        bus_writer_destroy(&writer);
        if (sent)
            self->in_flight++;
        else
            self->failed++;
    }
    if (self->in_flight > 0)
        return;
    if (self->next < self->count) //  no scheduler: the rest cannot be sent
        self->failed += self->count - self->next;
    bool more = self->count > 0 && self->failed == 0;
    s_kill_free(self);
    if (more && self->rounds < GW_MANAGER_KILL_ROUNDS) {
        s_kill_list(self);
        return;
    }
    if (self->failed)
        gw_reply_problem(self->r, "service-unavailable",
                         "frozen, but some sessions could not be destroyed");
    else
        gw_reply_json(self->r, 204, NULL);
    free(self);
}

static void
s_on_kill_list(void *arg, const bus_reply_t *reply)
{
    kill_t *self = arg;
    proto_session_list_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK ||
        proto_session_list_rep_decode(&rep, reply->body, reply->body_size, &err) !=
            BUS_OK) {
        gw_reply_status(self->r, BUS_STATUS_UNAVAILABLE,
                        reply->status != BUS_OK ? reply->detail : err.detail);
        free(self);
        return;
    }
    self->ids = rep.sessions_count ? calloc(rep.sessions_count, sizeof *self->ids) : NULL;
    for (size_t i = 0; self->ids && i < rep.sessions_count; i++) {
        self->ids[self->count] = strdup(rep.sessions[i].session_id);
        if (self->ids[self->count])
            self->count++;
    }
    proto_session_list_rep_clear(&rep);
    bus_log_notice("force_kill: destroying sessions=%zu round=%d", self->count,
                   self->rounds);
    s_kill_send(self);
}

static void
s_kill_list(kill_t *self)
{
    self->rounds++;
    proto_session_list_req_t req;
    proto_session_list_req_init(&req);
    req.statuses = GW_MANAGER_KILL_STATUSES;
    req.limit = GW_MANAGER_KILL_PAGE;
    const char *scheduler = bus_node_find(gw_server_node(self->r->gw), "scheduler");
    bus_writer_t *writer = scheduler ? bus_writer_new() : NULL;
    uint64_t sent = 0;
    if (writer && req.statuses && proto_session_list_req_write(&req, writer) == 0)
        sent = bus_node_call(gw_server_node(self->r->gw), scheduler, PROTO_SESSION_LIST,
                             bus_writer_data(writer), bus_writer_size(writer), 0,
                             s_on_kill_list, self);
    bus_writer_destroy(&writer);
    proto_session_list_req_clear(&req);
    if (!sent) {
        gw_reply_status(self->r, BUS_STATUS_UNAVAILABLE,
                        "frozen, but the scheduler is not reachable to kill sessions");
        free(self);
    }
}

static void
s_status_put(gw_request_t *r)
{
    if (!s_superadmin(r))
        return;
    const char *status = NULL;
    bool force_kill = false;
    char detail[128] = "";
    if (!gw_params_str(r->params, "status", &status, detail, sizeof detail) ||
        !gw_params_bool(r->params, "force_kill", &force_kill, detail, sizeof detail)) {
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    if (!status) {
        gw_reply_problem(r, "invalid-api-params", "status: required");
        return;
    }
    if (strcmp(status, GW_MANAGER_RUNNING) != 0 &&
        strcmp(status, GW_MANAGER_FROZEN) != 0) {
        gw_reply_problem(r, "invalid-api-params",
                         "status: expected \"running\" or \"frozen\"");
        return;
    }
    if (s_set_setting(gw_server_db(r->gw), "status", status) != 0) {
        gw_reply_problem(r, "internal-server-error", "cannot write the status");
        return;
    }
    bus_log_notice("manager status=%s force_kill=%d by=%s", status, force_kill,
                   r->who.access_key);
    if (!force_kill) {
        gw_reply_json(r, 204, NULL);
        return;
    }
    kill_t *kill = calloc(1, sizeof *kill);
    if (!kill) {
        gw_reply_problem(r, "internal-server-error", "out of memory");
        return;
    }
    kill->r = r;
    s_kill_list(kill);
}

void
gw_manager_handle_status(gw_request_t *r)
{
    if (strcmp(r->method, "PUT") == 0)
        s_status_put(r);
    else
        s_status_get(r);
}

//  ---------------------------------------------------------------------------
//  GET, POST /manager/announcement

static void
s_announcement_get(gw_request_t *r)
{
    bool failed = false;
    char *message = s_setting(gw_server_db(r->gw), "announcement", &failed);
    if (failed)
        gw_reply_problem(r, "internal-server-error", "cannot read the announcement");
    else
        gw_reply_json(r, 200,
                      json_pack("{s:b, s:s}", "enabled", message != NULL, "message",
                                message ? message : ""));
    free(message);
}

static void
s_announcement_post(gw_request_t *r)
{
    if (!s_superadmin(r))
        return;
    bool enabled = false;
    const char *message = NULL;
    char detail[128] = "";
    if (!gw_params_bool(r->params, "enabled", &enabled, detail, sizeof detail) ||
        !gw_params_str(r->params, "message", &message, detail, sizeof detail)) {
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    if (enabled && (!message || !*message)) {
        gw_reply_problem(r, "invalid-api-params",
                         "Empty message not allowed to enable announcement");
        return;
    }
    if (enabled && strlen(message) > GW_MANAGER_MESSAGE_MAX) {
        gw_reply_problem(r, "invalid-api-params", "message: too long");
        return;
    }
    if (s_set_setting(gw_server_db(r->gw), "announcement", enabled ? message : NULL) !=
        0) {
        gw_reply_problem(r, "internal-server-error", "cannot write the announcement");
        return;
    }
    bus_log_notice("announcement %s by=%s", enabled ? "set" : "cleared",
                   r->who.access_key);
    gw_reply_json(r, 204, NULL);
}

void
gw_manager_handle_announcement(gw_request_t *r)
{
    if (strcmp(r->method, "POST") == 0)
        s_announcement_post(r);
    else
        s_announcement_get(r);
}

//  ---------------------------------------------------------------------------
//  POST /manager/scheduler/operation

static void
s_on_schedulable(void *arg, const bus_reply_t *reply)
{
    gw_request_t *r = arg;
    if (reply->status == BUS_STATUS_NOT_FOUND)
        gw_reply_problem(r, "instance-not-found", reply->detail);
    else if (reply->status != BUS_OK)
        gw_reply_status(r, reply->status, reply->detail);
    else
        gw_reply_json(r, 204, NULL);
}

void
gw_manager_handle_scheduler_operation(gw_request_t *r)
{
    if (!s_superadmin(r))
        return;
    const char *op = NULL;
    char detail[128] = "";
    if (!gw_params_str(r->params, "op", &op, detail, sizeof detail)) {
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    json_t *args = json_object_get(r->params, "args");
    if (!op || !args) {
        gw_reply_problem(r, "invalid-api-params", op ? "args: required" : "op: required");
        return;
    }
    bool include = strcmp(op, "include-agents") == 0;
    if (!include && strcmp(op, "exclude-agents") != 0) {
        gw_reply_problem(r, "invalid-api-params",
                         "op: expected \"include-agents\" or \"exclude-agents\"");
        return;
    }
    //  A list of agent ids (a single string is one id, as trafaret's
    //  t.List would not take it; Backend.AI refuses it).
    if (!json_is_array(args) || json_array_size(args) > GW_MANAGER_AGENTS_MAX) {
        gw_reply_problem(r, "invalid-api-params",
                         json_is_array(args) ? "args: too many agents"
                                             : "args: expected a list of agent ids");
        return;
    }
    size_t count = json_array_size(args);
    for (size_t i = 0; i < count; i++) {
        const char *id = json_string_value(json_array_get(args, i));
        if (!id || strlen(id) > GW_MANAGER_AGENT_ID_MAX) {
            snprintf(detail, sizeof detail, "args[%zu]: expected an agent id", i);
            gw_reply_problem(r, "invalid-api-params", detail);
            return;
        }
    }
    proto_scheduler_schedulable_req_t req;
    proto_scheduler_schedulable_req_init(&req);
    req.schedulable = include;
    //  The list in req's arena; the ids are borrowed from args.
    proto_scheduler_agent_ref_t *agents =
        count ? proto_arena_alloc(&req.owned_, count * sizeof *agents) : NULL;
    req.agents = agents;
    bool ok = !count || agents;
    for (size_t i = 0; ok && i < count; i++) {
        proto_scheduler_agent_ref_init(&agents[i]);
        req.agents_count++;
        agents[i].id = json_string_value(json_array_get(args, i));
        ok = agents[i].id != NULL;
    }
    bus_log_info("scheduler operation op=%s agents=%zu by=%s", op, count,
                 r->who.access_key);
    const char *scheduler = bus_node_find(gw_server_node(r->gw), "scheduler");
    bus_writer_t *writer = ok && scheduler ? bus_writer_new() : NULL;
    uint64_t sent = 0;
    if (writer && proto_scheduler_schedulable_req_write(&req, writer) == 0)
        sent = bus_node_call(gw_server_node(r->gw), scheduler,
                             PROTO_SCHEDULER_SCHEDULABLE, bus_writer_data(writer),
                             bus_writer_size(writer), 0, s_on_schedulable, r);
    bus_writer_destroy(&writer);
    proto_scheduler_schedulable_req_clear(&req);
    if (!sent)
        gw_reply_status(r, BUS_STATUS_UNAVAILABLE,
                        ok ? "the scheduler is not reachable" : "out of memory");
}
