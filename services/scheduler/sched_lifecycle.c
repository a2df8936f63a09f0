/*  =========================================================================
    sched_lifecycle - kernel and session moves, and the session.lifecycle
    events that tell them

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

struct _sched_lifecycle_t {
    bus_node_t *node;
    bus_db_t *db;
    bus_writer_t *writer; //  the event being emitted
};

sched_lifecycle_t *
sched_lifecycle_new(bus_node_t *node)
{
    assert(node);
    sched_lifecycle_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->node = node;
    self->db = bus_node_db(node);
    self->writer = bus_writer_new();
    if (!self->writer)
        sched_lifecycle_destroy(&self);
    return self;
}

void
sched_lifecycle_destroy(sched_lifecycle_t **self_p)
{
    assert(self_p);
    sched_lifecycle_t *self = *self_p;
    if (self) {
        bus_writer_destroy(&self->writer);
        free(self);
        *self_p = NULL;
    }
}

void
sched_lifecycle_emit_move(sched_lifecycle_t *self,
                          const char *event,
                          const sched_move_t *move,
                          sched_session_status_t status,
                          const char *kernel_id,
                          const char *reason,
                          const int64_t *exit_code)
{
    assert(self);
    proto_session_lifecycle_t step;
    proto_session_lifecycle_init(&step);
    step.event = event;
    step.session_id = move->session_id;
    step.session_name = move->name;
    step.access_key = move->access_key;
    step.domain_name = move->domain_name;
    step.group_id = move->group_id;
    step.status = sched_session_status_str(status);
    step.kernel_id = kernel_id;
    if (kernel_id && *move->cluster_role) {
        //  Backend.AI numbers a kernel within its role (main1, sub1, sub2);
        //  the kernels table numbers them across the session (1, 2, 3).
        step.cluster_role = move->cluster_role;
        int64_t index = move->cluster_idx;
        step.cluster_idx =
            (uint64_t) (strcmp(step.cluster_role, "sub") == 0 && index > 1 ? index - 1
                                                                           : index);
    }
    step.reason = reason;
    step.has_exit_code = exit_code != NULL;
    step.exit_code = exit_code ? *exit_code : 0;
    step.at = bus_clock_wall_us();
    //  Kernel steps carry what accounting keeps of the kernel.
    if (kernel_id)
        sched_db_sessions_kernel_facts(self->db, kernel_id, &step);
    bus_writer_reset(self->writer);
    if (proto_session_lifecycle_write(&step, self->writer) == 0)
        bus_node_emit(self->node, PROTO_SESSION_LIFECYCLE, bus_writer_data(self->writer),
                      bus_writer_size(self->writer));
    proto_session_lifecycle_clear(&step); //  the facts' arena; the rest is borrowed
}

void
sched_lifecycle_emit(sched_lifecycle_t *self,
                     const char *event,
                     const char *session_id,
                     const char *kernel_id,
                     const char *reason,
                     const int64_t *exit_code)
{
    assert(self);
    sched_move_t move;
    int status = sched_db_sessions_event_of(self->db, session_id, kernel_id, &move);
    if (status >= 0)
        sched_lifecycle_emit_move(self, event, &move, (sched_session_status_t) status,
                                  kernel_id, reason, exit_code);
}

int
sched_lifecycle_move_from(sched_lifecycle_t *self,
                          unsigned from_mask,
                          const char *kernel_id,
                          sched_kernel_status_t status,
                          const char *reason,
                          const char *status_data,
                          const int64_t *exit_code,
                          const char *container_id,
                          const char *kernel_host,
                          sched_move_t *out)
{
    assert(self);
    sched_move_t local;
    sched_move_t *found = out ? out : &local;
    bus_error_t err = {0};
    int rc = sched_db_kernels_move_from(self->db, kernel_id, from_mask, status, reason,
                                        status_data, container_id, kernel_host,
                                        bus_clock_wall_us(), found, &err);
    if (rc != BUS_OK) {
        if (rc != BUS_STATUS_NOT_FOUND || from_mask == SCHED_KERNEL_FROM_ANY)
            bus_log_warning("kernel status refused kernel=%s to=%s detail=\"%s\"",
                            kernel_id, sched_kernel_status_str(status), err.detail);
        return rc;
    }
    if (!(from_mask & (1u << found->kernel_from)))
        return BUS_OK;
    const sched_move_t move = *found;
    static const char *kernel_events[SCHED_KERNEL_STATUS_COUNT] = {
        [SCHED_KERNEL_PREPARING] = "kernel_preparing",
        [SCHED_KERNEL_RUNNING] = "kernel_started",
        [SCHED_KERNEL_TERMINATING] = "kernel_terminating",
        [SCHED_KERNEL_TERMINATED] = "kernel_terminated",
        [SCHED_KERNEL_CANCELLED] = "kernel_cancelled",
    };
    //  A restart has no kernel event in Backend.AI: it ends with
    //  session_started alone.
    bool restarted =
        status == SCHED_KERNEL_RUNNING && move.kernel_from == SCHED_KERNEL_RESTARTING;
    if (kernel_events[status] && !restarted)
        sched_lifecycle_emit_move(self, kernel_events[status], &move, move.session_to,
                                  kernel_id, reason, exit_code);
    if (move.session_to == move.session_from)
        return BUS_OK;
    static const char *session_events[SCHED_SESSION_STATUS_COUNT] = {
        [SCHED_SESSION_RUNNING] = "session_started",
        [SCHED_SESSION_TERMINATING] = "session_terminating",
        [SCHED_SESSION_TERMINATED] = "session_terminated",
        [SCHED_SESSION_CANCELLED] = "session_cancelled",
    };
    if (session_events[move.session_to])
        sched_lifecycle_emit_move(self, session_events[move.session_to], &move,
                                  move.session_to, NULL, reason, exit_code);
    return BUS_OK;
}

int
sched_lifecycle_move(sched_lifecycle_t *self,
                     const char *kernel_id,
                     sched_kernel_status_t status,
                     const char *reason,
                     const char *status_data,
                     const int64_t *exit_code)
{
    return sched_lifecycle_move_from(self, SCHED_KERNEL_FROM_ANY, kernel_id, status,
                                     reason, status_data, exit_code, NULL, NULL, NULL);
}

void
sched_lifecycle_enqueued(sched_lifecycle_t *self, const sched_session_spec_t *spec)
{
    assert(self);
    sched_move_t move;
    memset(&move, 0, sizeof move);
    snprintf(move.session_id, sizeof move.session_id, "%s", spec->session_id);
    snprintf(move.name, sizeof move.name, "%s", spec->name);
    snprintf(move.access_key, sizeof move.access_key, "%s", spec->access_key);
    snprintf(move.domain_name, sizeof move.domain_name, "%s", spec->domain_name);
    snprintf(move.group_id, sizeof move.group_id, "%s", spec->group_id);
    sched_lifecycle_emit_move(self, "session_enqueued", &move, SCHED_SESSION_PENDING,
                              NULL, NULL, NULL);
}

void
sched_lifecycle_placed(sched_lifecycle_t *self,
                       const sched_assignment_t *placed,
                       size_t count)
{
    assert(self);
    sched_move_t move;
    memset(&move, 0, sizeof move);
    for (size_t i = 0; i < count; i++) {
        if (placed[i].first &&
            sched_db_sessions_owner(self->db, placed[i].session_id, &move) == BUS_OK)
            sched_lifecycle_emit_move(self, "session_scheduled", &move,
                                      SCHED_SESSION_SCHEDULED, NULL, NULL, NULL);
        if (strcmp(move.session_id, placed[i].session_id) != 0)
            continue; //  not found: nothing to tell
        snprintf(move.cluster_role, sizeof move.cluster_role, "%s",
                 placed[i].cluster_role);
        move.cluster_idx = placed[i].cluster_idx;
        sched_lifecycle_emit_move(self, "kernel_preparing", &move,
                                  SCHED_SESSION_PREPARING, placed[i].kernel_id, NULL,
                                  NULL);
    }
}
