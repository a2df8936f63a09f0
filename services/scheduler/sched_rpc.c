/*  =========================================================================
    sched_rpc - every RPC the scheduler serves, from one table

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

#define COMMAND_MAX 65536 //  a batch session's startup command, restarted

struct _sched_rpc_t {
    bus_node_t *node;
    bus_db_t *db;
    sched_lifecycle_t *lifecycle;
    sched_calls_t *calls;
    sched_commit_t *commit;
    sched_kernels_t *kernels;
    sched_agents_t *agents;
};

//  ---------------------------------------------------------------------------
//  session.*

//  Fills out with session_id's info as session.get reads it (out's own
//  arena). BUS_OK, or NOT_FOUND or INTERNAL with err.
static int
s_session_out(sched_rpc_t *self,
              const char *session_id,
              proto_session_info_t *out,
              bus_error_t *err)
{
    int rc = sched_db_sessions_get(self->db, session_id, out);
    if (rc != BUS_OK)
        bus_error_set(err, rc,
                      rc == BUS_STATUS_NOT_FOUND ? "no such session %s"
                                                 : "cannot read session %s",
                      session_id);
    return rc;
}

static int
s_on_create(void *arg,
            bus_rpc_request_t *req,
            const void *body,
            size_t size,
            bus_writer_t *reply,
            bus_error_t *err)
{
    (void) reply;
    sched_rpc_t *self = arg;
    return sched_commit_create(self->commit, req, body, size, err);
}

static int
s_on_destroy(void *arg,
             const proto_session_destroy_req_t *in,
             proto_session_destroy_rep_t *out,
             bus_rpc_request_t *req,
             bus_error_t *err)
{
    (void) req;
    sched_rpc_t *self = arg;
    sched_commit_flush(self->commit); //  the creates before it first
    int rc =
        sched_kernels_end_session(self->kernels, in->session_id, in->reason, in->forced);
    if (rc == BUS_OK)
        return s_session_out(self, in->session_id, &out->session, err);
    return bus_error_set(err, rc,
                         rc == BUS_STATUS_NOT_FOUND ? "no such session %s"
                                                    : "cannot end session %s",
                         in->session_id);
}

//  Answers a session.restart with the session as it is now, or the error.
static void
s_restart_answer(sched_rpc_t *self, sched_call_t *call, int status, const char *detail)
{
    if (!call->req)
        return;
    bus_writer_t *writer = status == BUS_OK ? bus_writer_new() : NULL;
    bus_error_t err = {0};
    if (writer)
        status = sched_rpc_session_reply(self->db, call->session_id, writer, &err);
    else if (status == BUS_OK)
        status = bus_error_set(&err, BUS_STATUS_INTERNAL, "out of memory");
    if (status == BUS_OK)
        bus_node_reply(self->node, &call->req, BUS_OK, NULL, bus_writer_data(writer),
                       bus_writer_size(writer));
    else
        bus_node_reply(self->node, &call->req, status, *err.detail ? err.detail : detail,
                       NULL, 0);
    bus_writer_destroy(&writer);
}

//  The agent's answer to kernel.restart. Success: RUNNING again (with
//  session_started, as Backend.AI). A failure leaves the kernel RESTARTING
//  for what settles it: the agent ends a kernel it could not run again
//  (kernel.terminated, failed-to-start), and the reconciliation asks an
//  agent that did not answer; only an agent that does not know the kernel
//  ends it here.
static void
s_on_restarted(void *arg, sched_call_t *call, const bus_reply_t *reply)
{
    sched_rpc_t *self = arg;
    int current = sched_db_kernels_current(self->db, call->kernel_id);
    if (current == SCHED_KERNEL_RESTARTING && bus_node_begin(self->node) == 0) {
        //  RUNNING again, saying so: "restarting" was the step, not the state
        if (reply->status == BUS_OK)
            sched_lifecycle_move(self->lifecycle, call->kernel_id, SCHED_KERNEL_RUNNING,
                                 "restarted", NULL, NULL);
        else if (reply->status == BUS_STATUS_NOT_FOUND) {
            json_t *data = json_pack("{s:s}", "error", reply->detail);
            char *text = data ? json_dumps(data, JSON_COMPACT) : NULL;
            sched_lifecycle_move(self->lifecycle, call->kernel_id,
                                 SCHED_KERNEL_TERMINATED, "failed-to-start", text, NULL);
            free(text);
            json_decref(data);
        }
        bus_node_commit(self->node);
    }
    if (reply->status == BUS_OK)
        bus_log_info("session restarted session=%s kernel=%s", call->session_id,
                     call->kernel_id);
    else
        bus_log_warning("session restart failed session=%s kernel=%s status=%d"
                        " detail=\"%s\"",
                        call->session_id, call->kernel_id, reply->status, reply->detail);
    s_restart_answer(self, call, reply->status, reply->detail);
    sched_calls_done(&call);
}

//  RESTARTING with no event (Backend.AI has none for it), then the agent;
//  the detached request is answered by s_on_restarted.
static int
s_restart_kernel(sched_rpc_t *self,
                 bus_rpc_request_t *req,
                 const char *session_id,
                 const char *kernel_id,
                 const char *addr,
                 const char *command,
                 bus_error_t *err)
{
    if (bus_node_begin(self->node) != 0)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "database busy");
    if (sched_lifecycle_move(self->lifecycle, kernel_id, SCHED_KERNEL_RESTARTING,
                             "restarting", NULL, NULL) != BUS_OK) {
        bus_node_rollback(self->node);
        return bus_error_set(err, BUS_STATUS_CONFLICT, "session %s cannot restart",
                             session_id);
    }
    if (bus_node_commit(self->node) != 0)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot commit");
    proto_kernel_restart_req_t call_req;
    proto_kernel_restart_req_init(&call_req);
    call_req.kernel_id = kernel_id;
    call_req.startup_command = *command ? command : NULL;
    bus_writer_t *writer = bus_writer_new();
    sched_call_t *call = sched_calls_prepare(self->calls, session_id, kernel_id);
    if (call) {
        //  The answer must reach the caller before it gives up.
        int most = sched_calls_timeout_ms(self->calls);
        int left = bus_rpc_request_remaining_ms(req) - SCHED_RPC_RESTART_MARGIN_MS;
        call->timeout_ms = left < most ? (left > 0 ? left : 1) : most;
        call->req = bus_rpc_request_detach(req);
    }
    bool sent = writer && call &&
                proto_kernel_restart_req_write(&call_req, writer) == 0 &&
                sched_calls_send(self->calls, call, addr, PROTO_KERNEL_RESTART, writer,
                                 s_on_restarted, self);
    int rc = call ? BUS_STATUS_PENDING_
                  : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    if (!sent && call) {
        bus_reply_t failed = {
            BUS_STATUS_UNAVAILABLE, "the agent is not reachable", NULL, 0, 0, 0};
        s_on_restarted(self, call, &failed);
    }
    bus_writer_destroy(&writer);
    return rc;
}

static int
s_on_restart(void *arg,
             const proto_session_restart_req_t *in,
             proto_session_restart_rep_t *out,
             bus_rpc_request_t *req,
             bus_error_t *err)
{
    (void) out;
    sched_rpc_t *self = arg;
    sched_commit_flush(self->commit); //  the creates before it first
    proto_session_info_t info;
    proto_session_info_init(&info);
    char addr[SCHED_CALLS_ENDPOINT_MAX] = "", command[COMMAND_MAX] = "";
    int rc = sched_db_sessions_get(self->db, in->session_id, &info);
    if (rc != BUS_OK)
        rc = bus_error_set(err, rc, "no such session %s", in->session_id);
    else if (sched_session_status_from_str(info.status) != SCHED_SESSION_RUNNING ||
             !info.kernel_id ||
             sched_db_kernels_current(self->db, info.kernel_id) != SCHED_KERNEL_RUNNING)
        rc = bus_error_set(err, BUS_STATUS_CONFLICT,
                           "session %s is %s: only a RUNNING session restarts",
                           in->session_id, info.status);
    else if (!sched_db_sessions_restart_target(self->db, in->session_id, info.agent_id,
                                               addr, sizeof addr, command,
                                               sizeof command) ||
             !*addr)
        rc = bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                           "the agent of session %s is not reachable", in->session_id);
    if (rc == BUS_OK)
        rc = s_restart_kernel(self, req, in->session_id, info.kernel_id, addr, command,
                              err);
    proto_session_info_clear(&info);
    return rc;
}

static int
s_on_get(void *arg,
         const proto_session_get_req_t *in,
         proto_session_get_rep_t *out,
         bus_rpc_request_t *req,
         bus_error_t *err)
{
    (void) req;
    sched_rpc_t *self = arg;
    sched_commit_flush(self->commit); //  the creates before it first
    char id[SCHED_ID_MAX] = "";
    if (in->session_id)
        snprintf(id, sizeof id, "%s", in->session_id);
    else if (in->access_key && in->name)
        sched_db_sessions_find(self->db, in->access_key, in->name, id, sizeof id);
    return *id ? s_session_out(self, id, &out->session, err)
               : bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such session");
}

static int
s_on_rename(void *arg,
            const proto_session_rename_req_t *in,
            proto_session_rename_rep_t *out,
            bus_rpc_request_t *req,
            bus_error_t *err)
{
    (void) req;
    sched_rpc_t *self = arg;
    sched_commit_flush(self->commit); //  the creates before it first
    int rc = sched_db_sessions_rename(self->db, in->session_id, in->name, err);
    if (rc == BUS_OK) {
        bus_log_info("session renamed session=%s name=%s", in->session_id, in->name);
        rc = s_session_out(self, in->session_id, &out->session, err);
    }
    return rc;
}

static int
s_on_list(void *arg,
          const proto_session_list_req_t *in,
          proto_session_list_rep_t *out,
          bus_rpc_request_t *req,
          bus_error_t *err)
{
    (void) req;
    sched_rpc_t *self = arg;
    sched_commit_flush(self->commit); //  the creates before it first
    sched_session_filter_t filter = {
        .access_key = in->access_key,
        .domain_name = in->domain_name,
        .group_id = in->group_id,
        .statuses = in->statuses,
        .limit = in->limit,
        .offset = in->offset,
        .mounted_folder = in->mounted_folder,
        .where = in->where,
        .order = in->order,
        .after_created_at = in->after_created_at,
        .after_id = in->after_id,
    };
    size_t count = 0, total = 0;
    proto_session_info_t *page = NULL; //  each item holds its own arena
    int rc = sched_db_list_sessions(self->db, &filter, &page, &count, &total, err);
    if (rc != BUS_OK)
        return rc;
    //  The reply takes the array and the items' arenas.
    for (size_t i = 0; i < count; i++)
        proto_arena_join(&out->owned_, &page[i].owned_);
    if (proto_arena_adopt(&out->owned_, page) != 0) {
        free(page);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    out->sessions = page;
    out->sessions_count = count;
    out->total_count = total;
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  scheduler.*

static int
s_on_agents(void *arg,
            const proto_scheduler_agents_req_t *in,
            proto_scheduler_agents_rep_t *out,
            bus_rpc_request_t *req,
            bus_error_t *err)
{
    (void) req;
    sched_rpc_t *self = arg;
    int rc = sched_db_agents_list(self->db, in->scaling_group, in->status, out);
    return rc == BUS_OK ? BUS_OK : bus_error_set(err, rc, "database error");
}

//  scheduler.schedulable: every agent named, or none when one is unknown
//  (Backend.AI's update rolls back on a short row count). Excluding sets
//  operator_excluded, which later heartbeats respect; including clears it
//  and forgets the agent's last heartbeat, so the next one rewrites
//  schedulable with what the agent itself says.
static int
s_on_schedulable(void *arg,
                 const proto_scheduler_schedulable_req_t *in,
                 proto_scheduler_schedulable_rep_t *out,
                 bus_rpc_request_t *req,
                 bus_error_t *err)
{
    (void) req;
    sched_rpc_t *self = arg;
    if (bus_node_begin(self->node) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    int rc = BUS_OK;
    uint64_t changed = 0;
    const char *missing = NULL;
    for (size_t i = 0; rc == BUS_OK && i < in->agents_count; i++) {
        rc = sched_db_agents_set_schedulable(self->db, in->agents[i].id, in->schedulable);
        if (rc == BUS_STATUS_NOT_FOUND)
            missing = in->agents[i].id;
        else if (rc == BUS_OK)
            changed++;
    }
    if (rc == BUS_OK && bus_node_commit(self->node) != 0)
        rc = BUS_STATUS_INTERNAL;
    else if (rc != BUS_OK)
        bus_node_rollback(self->node);
    if (rc == BUS_OK) {
        for (size_t i = 0; i < in->agents_count; i++)
            sched_agents_forget(self->agents, in->agents[i].id);
        bus_log_notice("agents %s count=%" PRIu64,
                       in->schedulable ? "included" : "excluded", changed);
        out->changed = changed;
    }
    if (rc == BUS_STATUS_NOT_FOUND)
        bus_error_set(err, rc, "No such agent: %.128s", missing);
    else if (rc != BUS_OK)
        bus_error_set(err, rc, "database error");
    return rc;
}

static int
s_on_usage(void *arg,
           const proto_scheduler_usage_req_t *in,
           proto_scheduler_usage_rep_t *out,
           bus_rpc_request_t *req,
           bus_error_t *err)
{
    (void) req;
    sched_rpc_t *self = arg;
    int rc = sched_db_ledger_usage(self->db, in->access_key, in->group_id,
                                   in->domain_name, out);
    return rc == BUS_OK ? BUS_OK
                        : bus_error_set(err, rc, "cannot sum the allocation ledger");
}

//  scheduler.concurrency: the GraphQL keypairs' concurrency_used, for the
//  keypairs of one answer (at most the schema's bound per call).
static int
s_on_concurrency(void *arg,
                 const proto_scheduler_concurrency_req_t *in,
                 proto_scheduler_concurrency_rep_t *out,
                 bus_rpc_request_t *req,
                 bus_error_t *err)
{
    (void) req;
    sched_rpc_t *self = arg;
    size_t count = in->access_keys_count;
    uint64_t *used = proto_arena_alloc(&out->owned_, (count ? count : 1) * sizeof *used);
    proto_scheduler_keypair_concurrency_t *keypairs =
        proto_arena_alloc(&out->owned_, (count ? count : 1) * sizeof *keypairs);
    if (!used || !keypairs)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    memset(used, 0, (count ? count : 1) * sizeof *used);
    int rc = sched_db_ledger_concurrency(self->db, in->access_keys, count, used);
    if (rc != BUS_OK)
        return bus_error_set(err, rc, "cannot read the keypairs' counts");
    //  The keys are the request's, which lives until the reply is written.
    for (size_t i = 0; i < count; i++) {
        proto_scheduler_keypair_concurrency_init(&keypairs[i]);
        keypairs[i].access_key = in->access_keys[i];
        keypairs[i].concurrency_used = used[i];
    }
    out->keypairs = keypairs;
    out->keypairs_count = count;
    return BUS_OK;
}

//  A ledger report as JSON text in a reply's arena; takes report.
static int
s_report_out(json_t *report, const char **text_p, void **arena, bus_error_t *err)
{
    char *text = json_dumps(report, JSON_COMPACT);
    json_decref(report);
    if (!text || proto_arena_adopt(arena, text) != 0) {
        free(text);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot write the report");
    }
    *text_p = text;
    return BUS_OK;
}

static int
s_on_invariant(void *arg,
               const proto_scheduler_invariant_req_t *in,
               proto_scheduler_invariant_rep_t *out,
               bus_rpc_request_t *req,
               bus_error_t *err)
{
    (void) in, (void) req;
    sched_rpc_t *self = arg;
    json_t *report = NULL;
    int violations = sched_db_ledger_check(self->db, &report);
    if (violations < 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the ledger");
    out->violations = (uint64_t) violations;
    return s_report_out(report, &out->report, &out->owned_, err);
}

static int
s_on_recalculate(void *arg,
                 const proto_scheduler_recalculate_req_t *in,
                 proto_scheduler_recalculate_rep_t *out,
                 bus_rpc_request_t *req,
                 bus_error_t *err)
{
    (void) in, (void) req;
    sched_rpc_t *self = arg;
    sched_commit_flush(self->commit); //  the creates before it first
    json_t *report = NULL;
    int fixed = 0;
    int violations = sched_db_ledger_recount(self->db, &fixed, &report);
    if (violations < 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot recount the ledger");
    bus_log_notice("ledger recounted fixed=%d violations=%d", fixed, violations);
    out->fixed = (uint64_t) fixed;
    out->violations = (uint64_t) violations;
    return s_report_out(report, &out->report, &out->owned_, err);
}

//  ---------------------------------------------------------------------------

sched_rpc_t *
sched_rpc_new(bus_node_t *node,
              sched_lifecycle_t *lifecycle,
              sched_calls_t *calls,
              sched_commit_t *commit,
              sched_kernels_t *kernels,
              sched_agents_t *agents,
              bus_error_t *err)
{
    assert(node && lifecycle && calls && commit && kernels && agents);
    sched_rpc_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    self->db = bus_node_db(node);
    self->lifecycle = lifecycle;
    self->calls = calls;
    self->commit = commit;
    self->kernels = kernels;
    self->agents = agents;
    const bus_node_method_t methods[] = {
        //  Raw: sched_commit decodes each create inside its group commit.
        {.method = PROTO_SESSION_CREATE, .fn = s_on_create},
        proto_session_destroy_method(s_on_destroy),
        proto_session_get_method(s_on_get),
        proto_session_list_method(s_on_list),
        proto_session_rename_method(s_on_rename),
        proto_session_restart_method(s_on_restart),
        proto_scheduler_agents_method(s_on_agents),
        proto_scheduler_schedulable_method(s_on_schedulable),
        proto_scheduler_usage_method(s_on_usage),
        proto_scheduler_concurrency_method(s_on_concurrency),
        proto_scheduler_invariant_method(s_on_invariant),
        proto_scheduler_recalculate_method(s_on_recalculate),
    };
    if (bus_node_serve(node, methods, sizeof methods / sizeof methods[0], self, err) !=
        BUS_OK) {
        sched_rpc_destroy(&self);
        return NULL;
    }
    return self;
}

int
sched_rpc_session_reply(bus_db_t *db,
                        const char *session_id,
                        bus_writer_t *reply,
                        bus_error_t *err)
{
    proto_session_create_rep_t rep;
    proto_session_create_rep_init(&rep);
    int rc = sched_db_sessions_get(db, session_id, &rep.session);
    if (rc == BUS_OK && proto_session_create_rep_write(&rep, reply) != 0)
        rc = BUS_STATUS_INTERNAL;
    proto_session_create_rep_clear(&rep);
    if (rc != BUS_OK)
        bus_error_set(err, rc,
                      rc == BUS_STATUS_NOT_FOUND ? "no such session %s"
                                                 : "cannot read session %s",
                      session_id);
    return rc;
}

void
sched_rpc_destroy(sched_rpc_t **self_p)
{
    assert(self_p);
    free(*self_p);
    *self_p = NULL;
}
