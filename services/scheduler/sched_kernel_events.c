/*  =========================================================================
    sched_kernel_events - the agents' durable kernel events, applied

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

struct _sched_kernel_events_t {
    bus_db_t *db;
    sched_lifecycle_t *lifecycle;
    sched_cluster_t *cluster;
};

static void
s_started(sched_kernel_events_t *self, const proto_kernel_started_t *started)
{
    //  What kernel.create's reply says, for when that reply was lost,
    //  written with the move when the kernel moves; the kernel, its
    //  session's size and the move, read at once.
    const char *container =
        started->container_id && *started->container_id ? started->container_id : NULL;
    const char *host =
        started->kernel_host && *started->kernel_host ? started->kernel_host : NULL;
    sched_move_t move;
    int rc = sched_lifecycle_move_from(self->lifecycle, SCHED_KERNEL_CREATING,
                                       started->kernel_id, SCHED_KERNEL_RUNNING, NULL,
                                       NULL, NULL, container, host, &move);
    if (!(rc == BUS_OK && sched_kernel_is_creating((int) move.kernel_from)))
        sched_db_kernels_merge_container(self->db, started->kernel_id, container, host);
    if (rc != BUS_OK || move.cluster_size > 1)
        sched_cluster_started(self->cluster, started->session_id);
}

static void
s_terminated(sched_kernel_events_t *self, const proto_kernel_terminated_t *ended)
{
    int current = sched_db_kernels_current(self->db, ended->kernel_id);
    if (current == SCHED_KERNEL_CANCELLED) {
        //  An orphan the reconciliation removed: its session is over.
        bus_log_info("cancelled kernel ended kernel=%s reason=%s", ended->kernel_id,
                     ended->reason ? ended->reason : "");
        return;
    }
    if (current < 0)
        return;
    sched_db_kernels_set_exit_code(self->db, ended->kernel_id, ended->exit_code);
    json_t *data =
        json_pack("{s:{s:I, s:b}}", "kernel", "exit_code", (json_int_t) ended->exit_code,
                  "oom_killed", ended->oom_killed);
    if (ended->detail && *ended->detail)
        json_object_set_new(data, "error", json_string(ended->detail));
    char *text = json_dumps(data, JSON_COMPACT);
    const char *reason = ended->oom_killed ? "oom-killed" : ended->reason;
    bool batch = sched_db_sessions_is_batch(self->db, ended->session_id);
    //  Batch sessions end with their task's result (reference §5), which
    //  the sessions that depend on them wait for.
    if (batch)
        sched_db_sessions_set_result(self->db, ended->session_id, ended->exit_code == 0);
    sched_lifecycle_move(self->lifecycle, ended->kernel_id, SCHED_KERNEL_TERMINATED,
                         reason, text, &ended->exit_code);
    if (batch)
        sched_lifecycle_emit(self->lifecycle,
                             ended->exit_code == 0 ? "session_success"
                                                   : "session_failure",
                             ended->session_id, NULL, reason, &ended->exit_code);
    free(text);
    json_decref(data);
}

//  Whether the event's sender runs kernel_id: an event about a kernel
//  placed on another agent (a host's event replayed by another, or a
//  forged one) is refused with a warning, and skipped like a malformed
//  one. A kernel the scheduler does not know passes (its handlers ignore
//  it).
static bool
s_sender_runs(sched_kernel_events_t *self,
              const bus_event_t *event,
              const char *kernel_id)
{
    char agent[SCHED_ID_MAX];
    if (sched_db_kernels_agent(self->db, kernel_id, agent, sizeof agent) != 0 ||
        !*agent || sched_agents_speaks_for(event->header.src, agent))
        return true;
    bus_log_warning("kernel event refused topic=%s kernel=%s agent=%s src=%s"
                    " reason=\"the kernel is not the sender's\"",
                    event->topic, kernel_id, agent, event->header.src);
    return false;
}

//  Inside the transaction that records the event as applied: a malformed
//  event cannot become well-formed by waiting, so it is logged and skipped
//  (0), never offered again.
static int
s_apply(void *arg, bus_node_t *node, const bus_event_t *event)
{
    (void) node;
    sched_kernel_events_t *self = arg;
    bus_error_t err = {0};
    if (strcmp(event->topic, PROTO_KERNEL_STARTED) == 0) {
        proto_kernel_started_t started;
        proto_kernel_started_init(&started);
        if (proto_kernel_started_decode(&started, event->body, event->body_size, &err) ==
                BUS_OK &&
            s_sender_runs(self, event, started.kernel_id))
            s_started(self, &started);
        proto_kernel_started_clear(&started);
    } else if (strcmp(event->topic, PROTO_KERNEL_TERMINATED) == 0) {
        proto_kernel_terminated_t ended;
        proto_kernel_terminated_init(&ended);
        if (proto_kernel_terminated_decode(&ended, event->body, event->body_size, &err) ==
                BUS_OK &&
            s_sender_runs(self, event, ended.kernel_id))
            s_terminated(self, &ended);
        proto_kernel_terminated_clear(&ended);
    }
    if (*err.detail)
        bus_log_error("kernel event malformed; skipped topic=%s detail=\"%s\"",
                      event->topic, err.detail);
    return 0;
}

sched_kernel_events_t *
sched_kernel_events_new(bus_node_t *node,
                        sched_lifecycle_t *lifecycle,
                        sched_cluster_t *cluster)
{
    assert(node && lifecycle && cluster);
    sched_kernel_events_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->db = bus_node_db(node);
    self->lifecycle = lifecycle;
    self->cluster = cluster;
    if (bus_node_follow(node, "kernel", s_apply, self) != 0)
        sched_kernel_events_destroy(&self);
    return self;
}

void
sched_kernel_events_destroy(sched_kernel_events_t **self_p)
{
    assert(self_p);
    free(*self_p);
    *self_p = NULL;
}
