/*  =========================================================================
    sched_calls - the kernel.* calls in flight to the agents

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

struct _sched_calls_t {
    bus_node_t *node;
    bus_db_t *db;
    int timeout_ms;
    sched_call_t *head; //  the calls that left, newest first
};

sched_calls_t *
sched_calls_new(bus_node_t *node, int timeout_ms)
{
    assert(node);
    sched_calls_t *self = calloc(1, sizeof *self);
    if (self) {
        self->node = node;
        self->db = bus_node_db(node);
        self->timeout_ms = timeout_ms;
    }
    return self;
}

void
sched_calls_destroy(sched_calls_t **self_p)
{
    assert(self_p);
    sched_calls_t *self = *self_p;
    if (self) {
        while (self->head) {
            sched_call_t *call = self->head;
            bus_node_cancel(self->node, call->endpoint, call->call_id);
            sched_calls_done(&call);
        }
        free(self);
        *self_p = NULL;
    }
}

int
sched_calls_timeout_ms(sched_calls_t *self)
{
    assert(self);
    return self->timeout_ms;
}

sched_call_t *
sched_calls_prepare(sched_calls_t *self, const char *session_id, const char *kernel_id)
{
    assert(self);
    sched_call_t *call = calloc(1, sizeof *call);
    if (call) {
        call->owner = self;
        snprintf(call->session_id, sizeof call->session_id, "%s", session_id);
        snprintf(call->kernel_id, sizeof call->kernel_id, "%s", kernel_id);
    }
    return call;
}

//  The answer: to the handler of whoever sent the call.
static void
s_on_reply(void *arg, const bus_reply_t *reply)
{
    sched_call_t *call = arg;
    call->fn(call->arg, call, reply);
}

bool
sched_calls_send(sched_calls_t *self,
                 sched_call_t *call,
                 const char *endpoint,
                 const char *method,
                 bus_writer_t *writer,
                 sched_call_fn *fn,
                 void *arg)
{
    assert(self && call && fn);
    snprintf(call->endpoint, sizeof call->endpoint, "%s", endpoint);
    char addr[SCHED_CALLS_ENDPOINT_MAX];
    if (!sched_db_agents_address(self->db, call->kernel_id, call->agent_id, addr,
                                 &call->agent_started))
        call->agent_started = 0;
    call->fn = fn;
    call->arg = arg;
    call->call_id = bus_node_call(
        self->node, endpoint, method, bus_writer_data(writer), bus_writer_size(writer),
        call->timeout_ms > 0 ? call->timeout_ms : self->timeout_ms, s_on_reply, call);
    if (!call->call_id)
        return false;
    call->next = self->head;
    if (self->head)
        self->head->prev = call;
    self->head = call;
    return true;
}

void
sched_calls_done(sched_call_t **call_p)
{
    assert(call_p);
    sched_call_t *call = *call_p;
    if (!call)
        return;
    if (call->call_id) {
        sched_calls_t *self = call->owner;
        if (call->prev)
            call->prev->next = call->next;
        else if (self->head == call)
            self->head = call->next;
        if (call->next)
            call->next->prev = call->prev;
    }
    bus_rpc_request_destroy(&call->req); //  unanswered: the caller times out
    free(call);
    *call_p = NULL;
}

//  An agent that restarted may have come back on another port, or on the
//  same one (a fixed rpc_bind, a port the system gave again): either way
//  what its previous process was asked died with it, and calls still
//  waiting for that will only time out (or be retried after a third of
//  their deadline, agents.create_timeout_ms): they must not hold the kernel
//  back from the reconciliation.
bool
sched_calls_current(sched_calls_t *self, const sched_call_t *call)
{
    assert(self && call);
    char addr[SCHED_CALLS_ENDPOINT_MAX];
    int64_t started_at;
    if (!sched_db_agents_address(self->db, call->kernel_id, call->agent_id, addr,
                                 &started_at))
        return true; //  unknown: trust the call
    return strcmp(addr, call->endpoint) == 0 && started_at == call->agent_started;
}

bool
sched_calls_in_flight(sched_calls_t *self, const char *kernel_id)
{
    assert(self);
    for (sched_call_t *call = self->head; call; call = call->next)
        if (!call->list && strcmp(call->kernel_id, kernel_id) == 0 &&
            sched_calls_current(self, call))
            return true;
    return false;
}

bool
sched_calls_listing(sched_calls_t *self, const char *agent_id, const char *addr)
{
    assert(self);
    for (sched_call_t *call = self->head; call; call = call->next)
        if (call->list && strcmp(call->agent_id, agent_id) == 0 &&
            strcmp(call->endpoint, addr) == 0 && sched_calls_current(self, call))
            return true;
    return false;
}
