/*  =========================================================================
    sched_reconcile - what a lost message left behind, repaired from what
    each agent says it runs

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

struct _sched_reconcile_t {
    bus_node_t *node;
    bus_db_t *db;
    sched_lifecycle_t *lifecycle;
    sched_calls_t *calls;
    sched_kernels_t *kernels;
    int64_t period_us; //  the age a kernel is repaired at
    int64_t grace_us;  //  a LOST agent's kernels end after this
};

sched_reconcile_t *
sched_reconcile_new(bus_node_t *node,
                    sched_lifecycle_t *lifecycle,
                    sched_calls_t *calls,
                    sched_kernels_t *kernels,
                    int64_t period_us,
                    int64_t grace_us)
{
    assert(node && lifecycle && calls && kernels);
    sched_reconcile_t *self = calloc(1, sizeof *self);
    if (self) {
        self->node = node;
        self->db = bus_node_db(node);
        self->lifecycle = lifecycle;
        self->calls = calls;
        self->kernels = kernels;
        self->period_us = period_us;
        self->grace_us = grace_us;
    }
    return self;
}

void
sched_reconcile_destroy(sched_reconcile_t **self_p)
{
    assert(self_p);
    free(*self_p);
    *self_p = NULL;
}

static void
s_log_repair(const char *agent_id,
             const sched_unsettled_t *row,
             const char *to,
             const char *why)
{
    bus_log_notice("kernel reconciled session=%s kernel=%s agent=%s from=%s to=%s"
                   " why=\"%s\"",
                   row->session_id, row->kernel_id, agent_id,
                   sched_kernel_status_str(row->status), to, why);
}

//  Moves a kernel in a transaction of its own.
static void
s_move(sched_reconcile_t *self,
       const char *kernel_id,
       sched_kernel_status_t status,
       const char *reason,
       const char *status_data)
{
    if (bus_node_begin(self->node) == 0) {
        sched_lifecycle_move(self->lifecycle, kernel_id, status, reason, status_data,
                             NULL);
        bus_node_commit(self->node);
    }
}

//  An agent that is LOST (or cannot be reached): its kernels being created
//  are cancelled, those being destroyed end.
static void
s_settle_unreachable(sched_reconcile_t *self, const char *agent_id, int64_t before_us)
{
    sched_unsettled_t *rows = calloc(SCHED_RECONCILE_UNSETTLED_MAX, sizeof *rows);
    size_t count = rows ? sched_db_kernels_unsettled(self->db, agent_id, before_us, rows,
                                                     SCHED_RECONCILE_UNSETTLED_MAX)
                        : 0;
    for (size_t i = 0; i < count; i++) {
        const sched_unsettled_t *row = &rows[i];
        if (sched_calls_in_flight(self->calls, row->kernel_id) ||
            bus_node_begin(self->node) != 0)
            continue;
        if (sched_kernel_is_creating(row->status)) {
            char why[192];
            snprintf(why, sizeof why, "agent %s is lost", agent_id);
            json_t *data = json_pack("{s:s}", "error", why);
            char *text = data ? json_dumps(data, JSON_COMPACT) : NULL;
            s_log_repair(agent_id, row, "CANCELLED", why);
            sched_lifecycle_move(self->lifecycle, row->kernel_id, SCHED_KERNEL_CANCELLED,
                                 "failed-to-start", text, NULL);
            free(text);
            json_decref(data);
        } else {
            s_log_repair(agent_id, row, "TERMINATED", "its agent is lost");
            sched_lifecycle_move(self->lifecycle, row->kernel_id, SCHED_KERNEL_TERMINATED,
                                 "agent-termination", NULL, NULL);
        }
        bus_node_commit(self->node);
    }
    free(rows);
}

//  An agent LOST past the grace period: every kernel it still holds slots
//  for ends with agent-termination, one transaction each.
static void
s_end_lost(sched_reconcile_t *self, const char *agent_id)
{
    sched_db_kernel_t *rows = calloc(SCHED_RECONCILE_UNSETTLED_MAX, sizeof *rows);
    size_t count = rows ? sched_db_kernels_holding(self->db, agent_id, rows,
                                                   SCHED_RECONCILE_UNSETTLED_MAX)
                        : 0;
    for (size_t i = 0; i < count; i++) {
        if (sched_calls_in_flight(self->calls, rows[i].id) ||
            bus_node_begin(self->node) != 0)
            continue;
        bus_log_warning("kernel ended kernel=%s session=%s reason=agent-termination"
                        " agent=%s (lost longer than the grace period)",
                        rows[i].id, rows[i].session_id, agent_id);
        sched_lifecycle_move(self->lifecycle, rows[i].id, SCHED_KERNEL_TERMINATED,
                             "agent-termination", NULL, NULL);
        bus_node_commit(self->node);
    }
    free(rows);
}

static bool
s_listed(const proto_kernel_list_rep_t *rep, const char *kernel_id)
{
    for (size_t i = 0; i < rep->kernels_count; i++)
        if (rep->kernels[i].kernel_id &&
            strcmp(rep->kernels[i].kernel_id, kernel_id) == 0)
            return true;
    return false;
}

//  One unsettled kernel of the agent call listed, from what it runs.
static void
s_settle(sched_reconcile_t *self,
         const sched_call_t *call,
         const sched_unsettled_t *row,
         bool runs)
{
    if (sched_kernel_is_creating(row->status) && runs) {
        //  As if its kernel.started had arrived.
        s_log_repair(call->agent_id, row, "RUNNING", "its agent runs it");
        s_move(self, row->kernel_id, SCHED_KERNEL_RUNNING, NULL, NULL);
    } else if (sched_kernel_is_creating(row->status)) {
        //  kernel.create was lost (or never sent): once more; the agent
        //  answers a kernel id it has with what it has, and a failure
        //  cancels the session as the first attempt's would.
        s_log_repair(call->agent_id, row, sched_kernel_status_str(row->status),
                     "its agent does not have it: kernel.create sent again");
        sched_assignment_t again = {.cluster_role = "main", .cluster_idx = 1};
        snprintf(again.kernel_id, sizeof again.kernel_id, "%s", row->kernel_id);
        snprintf(again.session_id, sizeof again.session_id, "%s", row->session_id);
        snprintf(again.agent_id, sizeof again.agent_id, "%s", call->agent_id);
        sched_db_kernel_t place = {.cluster_role = "main", .cluster_idx = 1};
        sched_db_kernels_place(self->db, row->kernel_id, &place);
        snprintf(again.cluster_role, sizeof again.cluster_role, "%s", place.cluster_role);
        again.cluster_idx = place.cluster_idx;
        sched_kernels_create(self->kernels, &again);
    } else if (row->status == SCHED_KERNEL_RESTARTING) {
        //  kernel.restart's answer was lost: the agent runs it again, or
        //  it could not and its kernel.terminated was lost too.
        s_log_repair(call->agent_id, row, runs ? "RUNNING" : "TERMINATED",
                     runs ? "its agent runs it" : "its agent does not have it");
        if (runs)
            s_move(self, row->kernel_id, SCHED_KERNEL_RUNNING, NULL, NULL);
        else
            s_move(self, row->kernel_id, SCHED_KERNEL_TERMINATED, "failed-to-start",
                   "{\"error\": \"the kernel did not come back from a restart\"}");
    } else if (runs) {
        s_log_repair(call->agent_id, row, sched_kernel_status_str(row->status),
                     "its agent still runs it: kernel.destroy sent again");
        sched_kernels_terminate(
            self->kernels, row->session_id, row->kernel_id, call->endpoint,
            *row->status_info ? row->status_info : "user-requested", -1);
    } else {
        //  Destroyed, and its kernel.terminated lost.
        s_log_repair(call->agent_id, row, "TERMINATED", "its agent does not have it");
        s_move(self, row->kernel_id, SCHED_KERNEL_TERMINATED,
               *row->status_info ? row->status_info : "already-terminated", NULL);
    }
}

//  An agent's kernel.list: settles its unsettled kernels from it and
//  destroys the kernels it runs for sessions that are over.
static void
s_on_listed(void *arg, sched_call_t *call, const bus_reply_t *reply)
{
    sched_reconcile_t *self = arg;
    proto_kernel_list_rep_t rep;
    proto_kernel_list_rep_init(&rep);
    bus_error_t err = {0};
    int rc = reply->status;
    if (rc == BUS_OK)
        rc = proto_kernel_list_rep_decode(&rep, reply->body, reply->body_size, &err);
    sched_unsettled_t *rows =
        rc == BUS_OK ? calloc(SCHED_RECONCILE_UNSETTLED_MAX, sizeof *rows) : NULL;
    if (rc != BUS_OK)
        bus_log_warning("reconciliation cannot list kernels agent=%s status=%d"
                        " detail=\"%s\"",
                        call->agent_id, rc,
                        reply->status != BUS_OK ? reply->detail : err.detail);
    //  Only kernels that were waiting when the list was asked: the list says
    //  nothing about a create sent after it.
    int64_t before = bus_clock_wall_us() - self->period_us;
    if (before > call->sent_us)
        before = call->sent_us;
    size_t count = rows ? sched_db_kernels_unsettled(self->db, call->agent_id, before,
                                                     rows, SCHED_RECONCILE_UNSETTLED_MAX)
                        : 0;
    for (size_t i = 0; i < count; i++)
        if (!sched_calls_in_flight(self->calls, rows[i].kernel_id))
            s_settle(self, call, &rows[i], s_listed(&rep, rows[i].kernel_id));
    //  Orphans: a kernel whose session is over (cancelled after a create that
    //  timed out, say) must not keep running. Kernels this scheduler never
    //  heard of are left alone.
    for (size_t i = 0; rc == BUS_OK && i < rep.kernels_count; i++) {
        const char *kernel_id = rep.kernels[i].kernel_id;
        int status = kernel_id ? sched_db_kernels_current(self->db, kernel_id) : -1;
        if ((status != SCHED_KERNEL_TERMINATED && status != SCHED_KERNEL_CANCELLED) ||
            sched_calls_in_flight(self->calls, kernel_id))
            continue;
        bus_log_notice("orphan kernel destroyed kernel=%s session=%s agent=%s status=%s",
                       kernel_id,
                       rep.kernels[i].session_id ? rep.kernels[i].session_id : "",
                       call->agent_id, sched_kernel_status_str(status));
        sched_kernels_terminate(
            self->kernels, rep.kernels[i].session_id ? rep.kernels[i].session_id : "",
            kernel_id, call->endpoint, "force-terminated", 0);
    }
    free(rows);
    proto_kernel_list_rep_clear(&rep);
    sched_calls_done(&call);
}

//  Asks an ALIVE agent what it runs, unless a list is in flight already
//  (to its process now: one that went before a restart does not count).
static void
s_list_agent(sched_reconcile_t *self, const char *agent_id, const char *addr)
{
    if (sched_calls_listing(self->calls, agent_id, addr))
        return;
    proto_kernel_list_req_t req;
    proto_kernel_list_req_init(&req);
    req.agent_id = agent_id;
    bus_writer_t *writer = bus_writer_new();
    sched_call_t *call = sched_calls_prepare(self->calls, "", "");
    if (call) {
        call->list = true;
        call->timeout_ms =
            SCHED_RECONCILE_LIST_MS; //  a list is quick, or the agent is gone
        call->sent_us = bus_clock_wall_us();
        snprintf(call->agent_id, sizeof call->agent_id, "%s", agent_id);
    }
    if (!(writer && call && proto_kernel_list_req_write(&req, writer) == 0 &&
          sched_calls_send(self->calls, call, addr, PROTO_KERNEL_LIST, writer,
                           s_on_listed, self))) {
        bus_log_warning("reconciliation cannot ask agent=%s", agent_id);
        sched_calls_done(&call);
    }
    bus_writer_destroy(&writer);
}

void
sched_reconcile_run(sched_reconcile_t *self)
{
    assert(self);
    sched_db_agent_t *agents = calloc(SCHED_RECONCILE_AGENTS_MAX, sizeof *agents);
    size_t count =
        agents ? sched_db_agents_all(self->db, agents, SCHED_RECONCILE_AGENTS_MAX) : 0;
    int64_t now = bus_clock_wall_us(), before = now - self->period_us;
    for (size_t i = 0; i < count; i++)
        if (agents[i].alive && *agents[i].addr)
            s_list_agent(self, agents[i].id, agents[i].addr);
        else {
            s_settle_unreachable(self, agents[i].id, before);
            if (agents[i].lost_at && agents[i].lost_at < now - self->grace_us)
                s_end_lost(self, agents[i].id);
        }
    free(agents);
}
