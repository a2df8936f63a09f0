/*  =========================================================================
    gw_session - the /session/{session} routes: find the session, then act

    Each route is an operation on one session: look it up (by id, or by
    name among the caller's sessions) with session.get, check that the
    caller may use it, then act, as one row of s_ops says: info answers from
    what was found; destroy, rename and restart ask the scheduler; logs,
    interrupt and execute go straight to the agent of the session's main
    kernel while it runs (execute answers Backend.AI's result object,
    reference §3.4); logs also once it ended (what the agent kept).
    gw_session_find is the same lookup for the other
    session routes (files, apps, streams). POST /session itself is
    gw_session_create's. Every step is a callback: nothing here blocks the
    loop.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define EXEC_WAIT_MS       5000
#define EXEC_TIMEOUT       (EXEC_WAIT_MS + 10000)
#define RESTART_TIMEOUT_MS 30000 //  the grace period, and the new container's start

//  The operations, each a row of s_ops.
typedef enum {
    OP_FIND,
    OP_INFO,
    OP_DESTROY,
    OP_RENAME,
    OP_RESTART,
    OP_EXECUTE,
    OP_LOGS,
    OP_INTERRUPT,
    OP_COUNT
} op_kind_t;

typedef struct op_def op_def_t;

//  One request's way through the scheduler and the agent.
typedef struct {
    gw_request_t *r;
    gw_server_t *gw;
    const op_def_t *def;
    char kernel_id[GW_UUID_SIZE]; //  DELETE: whose last statistics to answer with
    gw_session_found_fn *found;   //  OP_FIND: who gets the session
    void *found_arg;
    bool plain; //  OP_LOGS for task-logs: the log as text/plain, not JSON
} op_t;

//  What an operation does with the session it found: at is its main kernel
//  when the row says the operation needs it running, else NULL. It ends
//  the request and frees op.
typedef void(op_act_fn)(op_t *op,
                        proto_session_info_t *info,
                        const gw_session_kernel_t *at);

struct op_def {
    op_act_fn *act;
    bool on_agent;        //  needs the session running (else 400, not running)
    const char *conflict; //  the problem a CONFLICT answer is; NULL: the status's
};

static void
s_op_free(op_t *op)
{
    free(op);
}

//  Replies with err's status and frees op.
static void
s_fail(op_t *op, int status, const char *detail)
{
    gw_reply_status(op->r, status,
                    detail && *detail ? detail : "the scheduler did not answer");
    s_op_free(op);
}

//  Sends op's call to the scheduler; answers and frees op when it could not
//  leave.
static void
s_ask_scheduler(op_t *op,
                const char *method,
                bus_writer_t *writer,
                const bus_error_t *err,
                int timeout_ms,
                bus_reply_fn *fn)
{
    if (!writer)
        s_fail(op, err->status, err->detail);
    else if (!gw_session_call(op->r, gw_session_scheduler(op->r), method, writer,
                              timeout_ms, fn, op))
        s_fail(op, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
}

//  The same to the agent of the session's main kernel.
static void
s_ask_agent(op_t *op,
            const gw_session_kernel_t *at,
            const char *method,
            bus_writer_t *writer,
            const bus_error_t *err,
            int timeout_ms,
            bus_reply_fn *fn)
{
    if (!writer)
        s_fail(op, err->status, err->detail);
    else if (!gw_session_call(op->r, at->agent_addr, method, writer, timeout_ms, fn, op))
        s_fail(op, BUS_STATUS_UNAVAILABLE, "the agent is not reachable");
}

//  True when the caller may act on the session: its owner, an admin of its
//  domain, or a superadmin.
static bool
s_may_use(gw_request_t *r, const proto_session_info_t *info)
{
    return (info->access_key && strcmp(info->access_key, r->who.access_key) == 0) ||
           gw_identity_admins_domain(&r->who, info->domain_name ? info->domain_name : "");
}

//  ---------------------------------------------------------------------------
//  The operations, one function each

static void
s_act_find(op_t *op, proto_session_info_t *info, const gw_session_kernel_t *at)
{
    (void) at;
    op->found(op->r, info, op->found_arg);
    s_op_free(op);
}

//  Backend.AI's session info (reference §3.3), the fields the client prints.
static json_t *
s_info_json(const proto_session_info_t *info)
{
    json_t *requested = json_object(), *occupied = json_object();
    for (size_t i = 0; i < info->requested_slots_count; i++)
        json_object_set_new(requested, info->requested_slots[i].key,
                            json_string(info->requested_slots[i].value));
    for (size_t i = 0; i < info->occupied_slots_count; i++)
        json_object_set_new(occupied, info->occupied_slots[i].key,
                            json_string(info->occupied_slots[i].value));
    char *requested_text = json_dumps(requested, JSON_COMPACT);
    char *occupied_text = json_dumps(occupied, JSON_COMPACT);
    json_t *data = info->status_data ? json_loads(info->status_data, 0, NULL) : NULL;
    int64_t age_ms = (bus_clock_wall_us() - info->created_at) / 1000;
    json_t *out = json_pack(
        "{s:s?, s:s?, s:s?, s:s?, s:s?, s:s?, s:s?, s:s, s:s, s:s?, s:s, s:s?, s:o, s:I,"
        " s:I}",
        "domainName", info->domain_name, "groupId", info->group_id, "userId",
        info->user_uuid, "lang", info->image, "image", info->image, "architecture",
        info->architecture, "containerId", info->container_id, "occupiedSlots",
        occupied_text ? occupied_text : "{}", "requestedSlots",
        requested_text ? requested_text : "{}", "tag", info->tag, "status", info->status,
        "statusInfo", info->status_info, "statusData", data ? data : json_object(), "age",
        (json_int_t) age_ms, "numQueriesExecuted", (json_int_t) 0);
    free(requested_text);
    free(occupied_text);
    json_decref(requested);
    json_decref(occupied);
    return out;
}

static void
s_act_info(op_t *op, proto_session_info_t *info, const gw_session_kernel_t *at)
{
    (void) at;
    gw_reply_json(op->r, 200, s_info_json(info));
    s_op_free(op);
}

static void
s_on_destroyed(void *arg, const bus_reply_t *reply)
{
    op_t *op = arg;
    if (reply->status != BUS_OK)
        s_fail(op, reply->status, reply->detail);
    else {
        //  Backend.AI answers with the session's last statistics.
        gw_reply_json(op->r, 200,
                      json_pack("{s:o}", "stats",
                                gw_stats_last(gw_server_stats(op->gw), op->kernel_id)));
        s_op_free(op);
    }
}

static void
s_act_destroy(op_t *op, proto_session_info_t *info, const gw_session_kernel_t *at)
{
    (void) at;
    proto_session_destroy_req_t in;
    proto_session_destroy_req_init(&in);
    in.session_id = info->session_id;
    snprintf(op->kernel_id, sizeof op->kernel_id, "%s",
             info->kernel_id ? info->kernel_id : "");
    in.forced = json_is_true(json_object_get(op->r->params, "forced")) ||
                json_is_string(json_object_get(op->r->params, "forced"));
    bus_error_t err;
    bus_writer_t *writer = proto_session_destroy_req_writer(&in, &err);
    s_ask_scheduler(op, PROTO_SESSION_DESTROY, writer, &err, 0, s_on_destroyed);
}

//  The answer of a call that changes something and answers 204: rename,
//  restart, interrupt. A CONFLICT (a name taken, a session not running) is
//  the caller's mistake, as Backend.AI reports it for each (the row's
//  conflict).
static void
s_on_changed(void *arg, const bus_reply_t *reply)
{
    op_t *op = arg;
    if (reply->status == BUS_STATUS_CONFLICT && op->def->conflict)
        gw_reply_problem(op->r, op->def->conflict, reply->detail);
    else if (reply->status != BUS_OK)
        gw_reply_status(op->r, reply->status, reply->detail);
    else
        gw_reply_json(op->r, 204, NULL);
    s_op_free(op);
}

static void
s_act_rename(op_t *op, proto_session_info_t *info, const gw_session_kernel_t *at)
{
    (void) at;
    static const char *const k_name[] = {"name", "session_name", "clientSessionToken",
                                         NULL};
    const char *name = json_string_value(gw_session_param(op->r->params, k_name));
    if (!name || !gw_session_name_valid(name)) {
        gw_reply_problem(op->r, "invalid-api-params",
                         "name: 4-64 letters, digits, '_', '.' or '-', starting and "
                         "ending with a letter, digit or '_'");
        s_op_free(op);
        return;
    }
    proto_session_rename_req_t in;
    proto_session_rename_req_init(&in);
    in.session_id = info->session_id;
    in.name = name;
    bus_error_t err;
    bus_writer_t *writer = proto_session_rename_req_writer(&in, &err);
    s_ask_scheduler(op, PROTO_SESSION_RENAME, writer, &err, 0, s_on_changed);
}

//  The answer comes once the kernel runs again (or could not).
static void
s_act_restart(op_t *op, proto_session_info_t *info, const gw_session_kernel_t *at)
{
    (void) at;
    proto_session_restart_req_t in;
    proto_session_restart_req_init(&in);
    in.session_id = info->session_id;
    bus_error_t err;
    bus_writer_t *writer = proto_session_restart_req_writer(&in, &err);
    s_ask_scheduler(op, PROTO_SESSION_RESTART, writer, &err, RESTART_TIMEOUT_MS,
                    s_on_changed);
}

static void
s_on_logs(void *arg, const bus_reply_t *reply)
{
    op_t *op = arg;
    proto_kernel_logs_rep_t rep;
    bus_error_t err = {0};
    //  An ended kernel whose log the agent no longer keeps (expired, or it
    //  never started): Backend.AI answers an empty log.
    if (reply->status == BUS_STATUS_NOT_FOUND) {
        if (op->plain)
            gw_reply_bytes(op->r, 200, GW_SESSION_TEXT_TYPE, "", 0);
        else
            gw_reply_json(op->r, 200, json_pack("{s:{s:s}}", "result", "logs", ""));
        s_op_free(op);
        return;
    }
    if (reply->status != BUS_OK) {
        s_fail(op, reply->status, reply->detail);
        return;
    }
    if (proto_kernel_logs_rep_decode(&rep, reply->body, reply->body_size, &err) !=
        BUS_OK) {
        s_fail(op, BUS_STATUS_PROTOCOL, err.detail);
        return;
    }
    if (op->plain) {
        gw_reply_bytes(op->r, 200, GW_SESSION_TEXT_TYPE, rep.logs, rep.logs_size);
        proto_kernel_logs_rep_clear(&rep);
        s_op_free(op);
        return;
    }
    //  JSON strings are UTF-8: a log that is not (binary output, or a tail
    //  cut inside a character) keeps its ASCII and marks the rest '?'.
    json_t *logs = json_stringn((const char *) rep.logs, rep.logs_size);
    uint8_t *ascii = logs ? NULL : malloc(rep.logs_size ? rep.logs_size : 1);
    if (ascii) {
        for (size_t i = 0; i < rep.logs_size; i++)
            ascii[i] = rep.logs[i] >= 0x80 || rep.logs[i] == 0 ? '?' : rep.logs[i];
        logs = json_stringn((const char *) ascii, rep.logs_size);
        free(ascii);
    }
    proto_kernel_logs_rep_clear(&rep);
    if (!logs) {
        s_fail(op, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    gw_reply_json(op->r, 200, json_pack("{s:{s:o}}", "result", "logs", logs));
    s_op_free(op);
}

//  A running session's log comes from its container; an ended one's from
//  what its agent kept when the kernel ended (agent_db ended_logs), so the
//  agent of its main kernel is asked in either case; a session that never
//  had one answers an empty log.
static void
s_act_logs(op_t *op, proto_session_info_t *info, const gw_session_kernel_t *running)
{
    (void) running;
    gw_session_kernel_t ended;
    const gw_session_kernel_t *at = NULL;
    if (info->status && strcmp(info->status, "RUNNING") == 0) {
        if (!gw_session_kernel(op->r, info, &ended)) {
            s_op_free(op);
            return;
        }
        at = &ended;
    } else if (info->agent_addr && *info->agent_addr && info->kernel_id) {
        snprintf(ended.session_id, sizeof ended.session_id, "%s", info->session_id);
        snprintf(ended.kernel_id, sizeof ended.kernel_id, "%s", info->kernel_id);
        snprintf(ended.agent_addr, sizeof ended.agent_addr, "%s", info->agent_addr);
        at = &ended;
    }
    if (!at) {
        if (op->plain)
            gw_reply_bytes(op->r, 200, GW_SESSION_TEXT_TYPE, "", 0);
        else
            gw_reply_json(op->r, 200, json_pack("{s:{s:s}}", "result", "logs", ""));
        s_op_free(op);
        return;
    }
    proto_kernel_logs_req_t in;
    proto_kernel_logs_req_init(&in);
    in.kernel_id = at->kernel_id;
    bus_error_t err;
    bus_writer_t *writer = proto_kernel_logs_req_writer(&in, &err);
    s_ask_agent(op, at, PROTO_KERNEL_LOGS, writer, &err, 0, s_on_logs);
}

static void
s_act_interrupt(op_t *op, proto_session_info_t *info, const gw_session_kernel_t *at)
{
    (void) info;
    proto_kernel_interrupt_req_t in;
    proto_kernel_interrupt_req_init(&in);
    in.kernel_id = at->kernel_id;
    bus_error_t err;
    bus_writer_t *writer = proto_kernel_interrupt_req_writer(&in, &err);
    s_ask_agent(op, at, PROTO_KERNEL_INTERRUPT, writer, &err, 0, s_on_changed);
}

static void
s_on_executed(void *arg, const bus_reply_t *reply)
{
    op_t *op = arg;
    proto_kernel_execute_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK) {
        s_fail(op, reply->status, reply->detail);
        return;
    }
    if (proto_kernel_execute_rep_decode(&rep, reply->body, reply->body_size, &err) !=
        BUS_OK) {
        s_fail(op, BUS_STATUS_PROTOCOL, err.detail);
        return;
    }
    json_t *result = json_loads(rep.result, 0, NULL);
    proto_kernel_execute_rep_clear(&rep);
    gw_reply_json(op->r, 200,
                  json_pack("{s:o}", "result", result ? result : json_object()));
    s_op_free(op);
}

static void
s_act_execute(op_t *op, proto_session_info_t *info, const gw_session_kernel_t *at)
{
    (void) info;
    json_t *params = op->r->params;
    const char *mode = json_string_value(json_object_get(params, "mode"));
    json_t *run_id = json_object_get(params, "runId");
    const char *code = json_string_value(json_object_get(params, "code"));
    json_t *options = json_object_get(params, "options");
    char generated[GW_UUID_SIZE];
    if (!json_is_string(run_id))
        gw_uuid_new(generated);
    if (!mode) {
        gw_reply_problem(op->r, "invalid-api-params", "mode is required");
        s_op_free(op);
        return;
    }
    //  The schema's limit, named as the client knows the field; the request's
    //  check below answers any other value out of its limits.
    if (json_string_length(run_id) > PROTO_KERNEL_EXECUTE_REQ_RUN_ID_MAX) {
        char detail[BUS_ERROR_DETAIL_MAX];
        snprintf(detail, sizeof detail, "runId: %zu bytes, at most %d",
                 json_string_length(run_id), PROTO_KERNEL_EXECUTE_REQ_RUN_ID_MAX);
        gw_reply_problem(op->r, "invalid-api-params", detail);
        s_op_free(op);
        return;
    }
    proto_kernel_execute_req_t in;
    proto_kernel_execute_req_init(&in);
    in.kernel_id = at->kernel_id;
    in.run_id = (json_is_string(run_id) ? json_string_value(run_id) : generated);
    in.mode = mode;
    in.code = (code ? code : "");
    char *options_text =
        json_is_object(options) ? json_dumps(options, JSON_COMPACT) : NULL;
    in.options = options_text;
    in.wait_ms = EXEC_WAIT_MS;
    bus_error_t err;
    bus_writer_t *writer = proto_kernel_execute_req_writer(&in, &err);
    free(options_text);
    s_ask_agent(op, at, PROTO_KERNEL_EXECUTE, writer, &err, EXEC_TIMEOUT, s_on_executed);
}

//  ---------------------------------------------------------------------------
//  The table: what each operation does with the session it found

static const op_def_t s_ops[OP_COUNT] = {
    [OP_FIND] = {s_act_find, false, NULL},
    [OP_INFO] = {s_act_info, false, NULL},
    [OP_DESTROY] = {s_act_destroy, false, NULL},
    [OP_RENAME] = {s_act_rename, false, "invalid-api-params"},
    [OP_RESTART] = {s_act_restart, false, "generic-bad-request"},
    [OP_EXECUTE] = {s_act_execute, true, NULL},
    [OP_LOGS] = {s_act_logs, false, NULL},
    [OP_INTERRUPT] = {s_act_interrupt, true, NULL},
};

//  The session found: the caller's, or answered 404; then the row's act.
static void
s_on_found(void *arg, const bus_reply_t *reply)
{
    op_t *op = arg;
    proto_session_info_t info;
    proto_session_info_init(&info);
    bus_error_t err = {0};
    if (gw_session_info_decode(reply, &info, &err) != BUS_OK ||
        !s_may_use(op->r, &info)) {
        proto_session_info_clear(&info);
        s_fail(op,
               err.status && err.status != BUS_STATUS_NOT_FOUND ? err.status
                                                                : BUS_STATUS_NOT_FOUND,
               "No matching session found.");
        return;
    }
    gw_session_kernel_t at;
    if (!op->def->on_agent)
        op->def->act(op, &info, NULL);
    else if (gw_session_kernel(op->r, &info, &at))
        op->def->act(op, &info, &at);
    else
        s_op_free(op);
    proto_session_info_clear(&info);
}

//  Looks the path's session up (by the caller's name, or by id), then runs
//  operation kind on it.
//  Whether ref has a UUID's shape (then it is a session id, not a name).
static bool
s_is_uuid(const char *ref)
{
    return strlen(ref) == 36 && ref[8] == '-' && ref[13] == '-' && ref[18] == '-' &&
           ref[23] == '-';
}

static void
s_find_ref(gw_request_t *r,
           op_kind_t kind,
           const char *ref,
           bool plain,
           gw_session_found_fn *found,
           void *found_arg)
{
    op_t *op = calloc(1, sizeof *op);
    if (!op || !ref) {
        free(op);
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    op->r = r;
    op->gw = r->gw;
    op->def = &s_ops[kind];
    op->found = found;
    op->found_arg = found_arg;
    op->plain = plain;
    proto_session_get_req_t in;
    proto_session_get_req_init(&in);
    if (s_is_uuid(ref))
        in.session_id = ref;
    else {
        in.access_key = r->who.access_key;
        in.name = ref;
    }
    bus_error_t err;
    bus_writer_t *writer = proto_session_get_req_writer(&in, &err);
    s_ask_scheduler(op, PROTO_SESSION_GET, writer, &err, 0, s_on_found);
}

static void
s_find(gw_request_t *r, op_kind_t kind, gw_session_found_fn *found, void *found_arg)
{
    s_find_ref(r, kind, gw_request_path_param(r, "session"), false, found, found_arg);
}

//  ---------------------------------------------------------------------------
//  The routes

void
gw_session_handle_info(gw_request_t *r)
{
    s_find(r, OP_INFO, NULL, NULL);
}

void
gw_session_handle_destroy(gw_request_t *r)
{
    s_find(r, OP_DESTROY, NULL, NULL);
}

void
gw_session_handle_rename(gw_request_t *r)
{
    s_find(r, OP_RENAME, NULL, NULL);
}

void
gw_session_handle_restart(gw_request_t *r)
{
    s_find(r, OP_RESTART, NULL, NULL);
}

void
gw_session_handle_execute(gw_request_t *r)
{
    s_find(r, OP_EXECUTE, NULL, NULL);
}

//  GET /session/_/logs?task_id= is Backend.AI's task log (backend.ai
//  task-logs): the log of the batch task, i.e. of the session or kernel the
//  id names, as text/plain. Session names have at least 4 characters, so
//  "_" is never one.
void
gw_session_handle_logs(gw_request_t *r)
{
    const char *ref = gw_request_path_param(r, "session");
    if (!ref || strcmp(ref, "_") != 0) {
        s_find(r, OP_LOGS, NULL, NULL);
        return;
    }
    static const char *const k_keys[] = {"task_id",  "taskId",       "kernel_id",
                                         "kernelId", "session_name", "sessionName",
                                         NULL};
    const char *task = NULL;
    char detail[128] = "task_id is required";
    for (size_t i = 0; k_keys[i] && !task; i++)
        if (!gw_params_str(r->params, k_keys[i], &task, detail, sizeof detail)) {
            gw_reply_problem(r, "invalid-api-params", detail);
            return;
        }
    if (!task || !s_is_uuid(task)) {
        gw_reply_problem(r, "invalid-api-params",
                         task ? "task_id must be a UUID" : "task_id is required");
        return;
    }
    s_find_ref(r, OP_LOGS, task, true, NULL, NULL);
}

void
gw_session_handle_interrupt(gw_request_t *r)
{
    s_find(r, OP_INTERRUPT, NULL, NULL);
}

void
gw_session_find(gw_request_t *r, gw_session_found_fn *found, void *arg)
{
    s_find(r, OP_FIND, found, arg);
}

//  ---------------------------------------------------------------------------
//  Shared with the other session routes

bool
gw_session_kernel(gw_request_t *r,
                  const proto_session_info_t *info,
                  gw_session_kernel_t *kernel)
{
    if (!info->status || strcmp(info->status, "RUNNING") != 0 || !info->agent_addr ||
        !info->kernel_id) {
        gw_reply_problem(r, "generic-bad-request", "the session is not running");
        return false;
    }
    gw_activity_touch(gw_server_activity(r->gw), info->session_id);
    snprintf(kernel->session_id, sizeof kernel->session_id, "%s", info->session_id);
    snprintf(kernel->kernel_id, sizeof kernel->kernel_id, "%s", info->kernel_id);
    snprintf(kernel->agent_addr, sizeof kernel->agent_addr, "%s", info->agent_addr);
    return true;
}

const char *
gw_session_scheduler(gw_request_t *r)
{
    return bus_node_find(gw_server_node(r->gw), "scheduler");
}

bool
gw_session_call(gw_request_t *r,
                const char *endpoint,
                const char *method,
                bus_writer_t *writer,
                int timeout_ms,
                bus_reply_fn *fn,
                void *arg)
{
    bool sent =
        endpoint &&
        bus_node_call(gw_server_node(r->gw), endpoint, method, bus_writer_data(writer),
                      bus_writer_size(writer), timeout_ms, fn, arg) != 0;
    bus_writer_destroy(&writer);
    return sent;
}

int
gw_session_info_decode(const bus_reply_t *reply,
                       proto_session_info_t *info,
                       bus_error_t *err)
{
    if (reply->status != BUS_OK)
        return bus_error_set(err, reply->status, "%s", reply->detail);
    proto_session_create_rep_t rep;
    int rc = proto_session_create_rep_decode(&rep, reply->body, reply->body_size, err);
    if (rc == BUS_OK) {
        *info = rep.session;
        memset(&rep.session, 0, sizeof rep.session);
        info->owned_ = rep.owned_; //  the strings are in rep's arena
        rep.owned_ = NULL;
        proto_session_create_rep_clear(&rep);
    }
    return rc;
}
