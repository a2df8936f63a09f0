/*  =========================================================================
    sched_agents - the agent registry, from the agents' heartbeats

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

struct _sched_agents_t {
    bus_node_t *node;
    int lost_ms;
    zhashx_t *slots; //  agent id -> its last heartbeat written, as s_slots_text
    zhashx_t *seen;  //  agent id -> when it was last heard, not yet written (µs)
};

//  Everything a heartbeat says but when it was sent, as one text, to see
//  whether it changed (a restart changes started_at).
static char *
s_slots_text(const proto_agent_heartbeat_t *beat)
{
    zchunk_t *text = zchunk_new(NULL, 256);
    const char *fields[] = {beat->region,       beat->scaling_group,
                            beat->rpc_endpoint, beat->architecture,
                            beat->version,      beat->schedulable ? "1" : "0"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        zchunk_extend(text, fields[i] ? fields[i] : "",
                      strlen(fields[i] ? fields[i] : ""));
        zchunk_extend(text, "|", 1);
    }
    char started[24];
    snprintf(started, sizeof started, "%" PRId64 "|", beat->started_at);
    zchunk_extend(text, started, strlen(started));
    const proto_kv_t *maps[] = {beat->available_slots, beat->occupied_slots,
                                beat->placeable_slots};
    size_t counts[] = {beat->available_slots_count, beat->occupied_slots_count,
                       beat->placeable_slots_count};
    for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++) {
        for (size_t i = 0; i < counts[m]; i++) {
            const char *value = maps[m][i].value ? maps[m][i].value : "";
            zchunk_extend(text, maps[m][i].key, strlen(maps[m][i].key));
            zchunk_extend(text, "=", 1);
            zchunk_extend(text, value, strlen(value));
            zchunk_extend(text, ";", 1);
        }
        zchunk_extend(text, "|", 1);
    }
    char *out = zchunk_strdup(text);
    zchunk_destroy(&text);
    return out;
}

//  Writes one heartbeat: an agent that says the same as last time (a
//  cluster of a thousand agents beats a thousand times a second; what they
//  say rarely changes) is only noted as heard, written with the others at
//  the next check (sched_agents_expire); otherwise the agents row, and its
//  slot maps into agent_capacity, agent_reported and agent_placeable when
//  they changed, in one transaction. An agent_placeable an agent's refusal
//  lowered (sched_kernels) stays until a heartbeat says something else.
static void
s_record(sched_agents_t *self, const proto_agent_heartbeat_t *beat)
{
    bus_db_t *db = bus_node_db(self->node);
    int64_t now = bus_clock_wall_us();
    char *slots = s_slots_text(beat);
    const char *last = zhashx_lookup(self->slots, beat->agent_id);
    bool changed = !last || !slots || strcmp(last, slots) != 0;
    if (!changed) {
        zhashx_update(self->seen, beat->agent_id, (void *) (intptr_t) now);
        zstr_free(&slots);
        return;
    }
    zhashx_delete(self->seen, beat->agent_id);
    bus_node_begin(self->node);
    bool ok = sched_db_agents_beat(db, beat, now) == 0;
    if (ok && bus_node_commit(self->node) == 0) {
        if (slots)
            zhashx_update(self->slots, beat->agent_id, slots);
    } else {
        bus_log_error("agent heartbeat not recorded agent=%s", beat->agent_id);
        if (ok)
            zhashx_delete(self->slots, beat->agent_id);
        else
            bus_node_rollback(self->node);
    }
    zstr_free(&slots);
}

bool
sched_agents_speaks_for(const char *src, const char *agent_id)
{
    if (!src || !agent_id || !*agent_id || strncmp(src, "agent/", 6) != 0)
        return false;
    const char *node = src + 6;
    size_t length = strlen(node);
    if (!length || strncmp(agent_id, node, length) != 0)
        return false;
    if (agent_id[length] == 0)
        return true;
    const char *digits = agent_id + length + 1;
    if (agent_id[length] != '-' || !*digits)
        return false;
    for (; *digits; digits++)
        if (*digits < '0' || *digits > '9')
            return false;
    return true;
}

static void
s_on_heartbeat(void *arg, const bus_event_t *event)
{
    sched_agents_t *self = arg;
    proto_agent_heartbeat_t beat;
    bus_error_t err = {0};
    if (proto_agent_heartbeat_decode(&beat, event->body, event->body_size, &err) !=
        BUS_OK) {
        bus_log_warning("agent heartbeat malformed src=%s reason=\"%s\"",
                        event->header.src, err.detail);
        return;
    }
    if (sched_agents_speaks_for(event->header.src, beat.agent_id))
        s_record(self, &beat);
    else
        bus_log_warning("agent heartbeat refused agent=%s src=%s rpc=%s"
                        " reason=\"not the sender's agent id\"",
                        beat.agent_id ? beat.agent_id : "-", event->header.src,
                        beat.rpc_endpoint ? beat.rpc_endpoint : "-");
    proto_agent_heartbeat_clear(&beat);
}

//  An agent saying goodbye (service.stopping: its host drained and taken
//  out, or its process restarted): TERMINATED at once, as Backend.AI marks
//  an agent that announces its termination, so that nothing more is placed
//  on it in the lost_ms it would otherwise stay ALIVE (a kernel.create sent
//  there would wait agents.create_timeout_ms for nobody). Its kernels are
//  left to the reconciliation as a LOST agent's: they end after the
//  termination grace unless it comes back, whose first heartbeat is then
//  written in full and makes it ALIVE again.
static void
s_on_stopping(void *arg, const bus_event_t *event)
{
    sched_agents_t *self = arg;
    proto_service_stopping_t stopping;
    bus_error_t err = {0};
    if (proto_service_stopping_decode(&stopping, event->body, event->body_size, &err) !=
        BUS_OK) {
        bus_log_warning("service.stopping malformed src=%s reason=\"%s\"",
                        event->header.src, err.detail);
        return;
    }
    if (stopping.service && stopping.node && strcmp(stopping.service, "agent") == 0 &&
        bus_node_begin(self->node) == 0) {
        int changed = sched_db_agents_terminated(bus_node_db(self->node), stopping.node,
                                                 bus_clock_wall_us());
        if (changed < 0)
            bus_node_rollback(self->node);
        if (changed < 0 || bus_node_commit(self->node) != 0)
            bus_log_error("agent termination not recorded agent=%s", stopping.node);
        else if (changed > 0) {
            bus_log_notice("agent terminated agent=%s reason=\"%s\"", stopping.node,
                           stopping.reason ? stopping.reason : "");
            zhashx_delete(self->slots, stopping.node);
            zhashx_delete(self->seen, stopping.node);
        }
    }
    proto_service_stopping_clear(&stopping);
}

//  An agent about to be marked LOST: its next heartbeat is written in
//  full, which makes it ALIVE again.
static bool
s_forget(void *arg, const char *agent_id)
{
    sched_agents_t *self = arg;
    bus_log_warning("agent lost agent=%s silent_ms>%d", agent_id, self->lost_ms);
    zhashx_delete(self->slots, agent_id);
    return true;
}

int
sched_agents_expire(sched_agents_t *self)
{
    assert(self);
    bus_db_t *db = bus_node_db(self->node);
    int64_t now = bus_clock_wall_us();
    int64_t before = now - (int64_t) self->lost_ms * 1000;
    //  The heartbeats heard since the last check, in one transaction.
    if (zhashx_size(self->seen) && bus_node_begin(self->node) == 0) {
        for (void *at = zhashx_first(self->seen); at; at = zhashx_next(self->seen))
            sched_db_agents_seen(db, zhashx_cursor(self->seen), (int64_t) (intptr_t) at);
        if (bus_node_commit(self->node) == 0)
            zhashx_purge(self->seen);
    }
    return sched_db_agents_expire(db, before, now, s_forget, self);
}

void
sched_agents_forget(sched_agents_t *self, const char *agent_id)
{
    assert(self);
    zhashx_delete(self->slots, agent_id);
}

sched_agents_t *
sched_agents_new(bus_node_t *node, int lost_ms)
{
    assert(node);
    sched_agents_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->node = node;
    self->lost_ms = lost_ms;
    self->slots = zhashx_new();
    self->seen = zhashx_new();
    if (self->slots) {
        zhashx_set_destructor(self->slots, (zhashx_destructor_fn *) zstr_free);
        zhashx_set_duplicator(self->slots, (zhashx_duplicator_fn *) strdup);
    }
    if (!self->slots || !self->seen ||
        bus_node_subscribe(node, PROTO_AGENT_HEARTBEAT, s_on_heartbeat, self) != 0 ||
        bus_node_subscribe(node, PROTO_SERVICE_STOPPING, s_on_stopping, self) != 0)
        sched_agents_destroy(&self);
    return self;
}

void
sched_agents_destroy(sched_agents_t **self_p)
{
    assert(self_p);
    sched_agents_t *self = *self_p;
    if (self) {
        zhashx_destroy(&self->slots);
        zhashx_destroy(&self->seen);
        free(self);
        *self_p = NULL;
    }
}
