/*  =========================================================================
    agent_kernel - one kernel of the agent: its record and parked requests

    A parked request is answered exactly once, by agent_kernel_answer when
    what it waits for is done (bus_node_reply destroys it), or, when the
    agent stops first, not at all, as a request still queued in the socket
    would not be: the caller's deadline, and the scheduler's reconciliation
    with the next agent, take over as they do for an agent that died. An
    UNAVAILABLE answer instead would make the scheduler cancel the session.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

//  A parked request and, when marked, the answer it is to get.
typedef struct {
    bus_rpc_request_t *req;
    agent_kernel_wait_t kind;
    bool marked;
    int status;
    char detail[BUS_ERROR_DETAIL_MAX];
} s_waiter_t;

//  The method's reply from the record, into writer. 0 or -1.
static int
s_write_reply(agent_kernel_t *self, agent_kernel_wait_t kind, bus_writer_t *writer)
{
    if (kind == AGENT_KERNEL_WAIT_CREATE) {
        proto_kernel_create_rep_t out;
        proto_kernel_create_rep_init(&out);
        out.kernel_id = self->id;
        out.container_id = self->id;
        out.kernel_host = self->ip;
        return proto_kernel_create_rep_write(&out, writer);
    }
    if (kind == AGENT_KERNEL_WAIT_DESTROY) {
        proto_kernel_destroy_rep_t out;
        proto_kernel_destroy_rep_init(&out);
        out.exit_code = self->end.exit_code;
        return proto_kernel_destroy_rep_write(&out, writer);
    }
    proto_kernel_restart_rep_t out;
    proto_kernel_restart_rep_init(&out);
    int rc = proto_kernel_restart_rep_write(&out, writer);
    proto_kernel_restart_rep_clear(&out);
    return rc;
}

//  Answers one parked request and frees it.
static void
s_reply(agent_kernel_t *self, s_waiter_t *waiter, int status, const char *detail)
{
    bus_node_t *node = self->owner->node;
    if (waiter->marked) {
        status = waiter->status;
        detail = waiter->detail;
    }
    bus_writer_t *writer = status == BUS_OK ? bus_writer_new() : NULL;
    if (status != BUS_OK)
        bus_node_reply(node, &waiter->req, status, detail, NULL, 0);
    else if (writer && s_write_reply(self, waiter->kind, writer) == 0)
        bus_node_reply(node, &waiter->req, BUS_OK, NULL, bus_writer_data(writer),
                       bus_writer_size(writer));
    else
        bus_node_reply(node, &waiter->req, BUS_STATUS_INTERNAL, "cannot encode the reply",
                       NULL, 0);
    bus_writer_destroy(&writer);
    free(waiter);
}

//  ---------------------------------------------------------------------------
//  A record holding nothing.

agent_kernel_t *
agent_kernel_new(agent_kernels_t *owner,
                 const char *id,
                 const char *session_id,
                 const char *digest)
{
    assert(owner && id);
    agent_kernel_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->owner = owner;
    self->state = AGENT_KERNEL_CREATING;
    self->id = strdup(id);
    self->session_id = strdup(session_id ? session_id : "");
    self->digest = strdup(digest ? digest : "");
    self->container = agent_container_new(id);
    self->waiters = zlistx_new();
    self->end.exit_code = AGENT_RUNC_EXIT_UNKNOWN;
    if (!self->id || !self->session_id || !self->digest || !self->container ||
        !self->waiters)
        agent_kernel_destroy(&self);
    return self;
}

//  ---------------------------------------------------------------------------
//  Free the record.

void
agent_kernel_destroy(agent_kernel_t **self_p)
{
    assert(self_p);
    agent_kernel_t *self = *self_p;
    if (!self)
        return;
    agent_kernel_drop(self);
    zlistx_destroy(&self->waiters);
    agent_model_destroy(&self->model);
    agent_runner_client_destroy(&self->runner);
    agent_container_destroy(&self->container);
    free(self->id);
    free(self->session_id);
    free(self->digest);
    free(self->run_id);
    free(self->end.reason);
    free(self->end.detail);
    free(self->end.log);
    free(self);
    *self_p = NULL;
}

//  ---------------------------------------------------------------------------
//  Park a request.

int
agent_kernel_wait(agent_kernel_t *self,
                  bus_rpc_request_t *req,
                  agent_kernel_wait_t kind,
                  bus_error_t *err)
{
    assert(self && req);
    s_waiter_t *waiter = calloc(1, sizeof *waiter);
    if (!waiter || !zlistx_add_end(self->waiters, waiter)) {
        free(waiter);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    waiter->kind = kind;
    waiter->req = bus_rpc_request_detach(req);
    return BUS_STATUS_PENDING_;
}

//  ---------------------------------------------------------------------------
//  Drop the parked requests unanswered.

void
agent_kernel_drop(agent_kernel_t *self)
{
    assert(self);
    s_waiter_t *waiter;
    while (self->waiters && (waiter = zlistx_detach(self->waiters, NULL))) {
        bus_log_notice("request left unanswered, the agent stops kernel=%s method=%s",
                       self->id, bus_rpc_request_method(waiter->req));
        bus_rpc_request_destroy(&waiter->req);
        free(waiter);
    }
}

//  ---------------------------------------------------------------------------
//  Mark what parked requests of a kind will be answered.

void
agent_kernel_mark(agent_kernel_t *self,
                  agent_kernel_wait_t kind,
                  int status,
                  const char *detail)
{
    assert(self);
    for (s_waiter_t *waiter = zlistx_first(self->waiters); waiter;
         waiter = zlistx_next(self->waiters))
        if (waiter->kind == kind) {
            waiter->marked = true;
            waiter->status = status;
            snprintf(waiter->detail, sizeof waiter->detail, "%s", detail ? detail : "");
        }
}

//  ---------------------------------------------------------------------------
//  Answer the parked requests of a kind.

void
agent_kernel_answer(agent_kernel_t *self,
                    agent_kernel_wait_t kind,
                    int status,
                    const char *detail)
{
    assert(self);
    zlistx_t *kept = zlistx_new();
    if (!kept)
        return; //  out of memory: they go unanswered with the record
    s_waiter_t *waiter;
    while ((waiter = zlistx_detach(self->waiters, NULL)))
        if (waiter->kind == kind)
            s_reply(self, waiter, status, detail);
        else
            zlistx_add_end(kept, waiter);
    zlistx_destroy(&self->waiters);
    self->waiters = kept;
}

//  ---------------------------------------------------------------------------
//  How the kernel is to end.

void
agent_kernel_set_end(agent_kernel_t *self,
                     int grace_ms,
                     const char *reason,
                     const char *detail,
                     int exit_code,
                     bool oom_killed)
{
    assert(self && reason);
    //  Copied first: reason or detail may be the record's own.
    char *reason_copy = strdup(reason);
    char *detail_copy = detail ? strdup(detail) : NULL;
    free(self->end.reason);
    free(self->end.detail);
    self->end.grace_ms = grace_ms;
    self->end.reason = reason_copy;
    self->end.detail = detail_copy;
    self->end.exit_code = exit_code;
    self->end.oom_killed = oom_killed;
}
