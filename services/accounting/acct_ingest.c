/*  =========================================================================
    acct_ingest - usage records from the events: exactly once, never backwards

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "acct_classes.h"

//  One queued sample.
typedef struct {
    char kernel_id[ACCT_ID_MAX];
    char agent_id[ACCT_AGENT_MAX];
    acct_sample_t sample;
} queued_t;

struct _acct_ingest_t {
    bus_node_t *node;
    bus_db_t *db;
    queued_t *queue;
    size_t queued;
    size_t queue_max;
    acct_ingest_stats_t stats;
};

//  Copies text into a fixed field when the event has it (an absent or
//  empty field leaves what is known).
static void
s_fill(char *field, size_t size, const char *text)
{
    if (text && *text)
        snprintf(field, size, "%s", text);
}

#define FILL(field, text) s_fill(field, sizeof field, text)

//  Reads kernel_id's record, or starts one at at. 0 or -1.
static int
s_load(bus_db_t *db, const char *kernel_id, int64_t at, acct_record_t *record)
{
    int found = acct_db_record_get(db, kernel_id, record);
    if (found < 0)
        return -1;
    if (found == 0)
        acct_record_init(record, kernel_id, at ? at : bus_clock_wall_us());
    return 0;
}

//  Ends record at at with status (TERMINATED, CANCELLED) and why.
static void
s_end(acct_record_t *record, int64_t at, const char *status, const char *reason)
{
    record->ended_at = at > 0 ? at : bus_clock_wall_us();
    if (record->started_at > record->ended_at)
        record->ended_at = record->started_at;
    snprintf(record->status, sizeof record->status, "%s", status);
    FILL(record->status_info, reason);
}

int
acct_ingest_lifecycle(bus_db_t *db, const proto_session_lifecycle_t *step)
{
    assert(db && step);
    if (!step->kernel_id || !*step->kernel_id)
        return 0; //  session-wide steps: the kernel steps carry the facts
    acct_record_t *record = malloc(sizeof *record);
    if (!record || s_load(db, step->kernel_id, step->at, record) != 0) {
        free(record);
        return -1;
    }
    FILL(record->session_id, step->session_id);
    FILL(record->session_name, step->session_name);
    FILL(record->access_key, step->access_key);
    FILL(record->user_uuid, step->user_uuid);
    FILL(record->group_id, step->group_id);
    FILL(record->domain_name, step->domain_name);
    FILL(record->scaling_group, step->scaling_group);
    FILL(record->image, step->image);
    if (!(record->src_flags & ACCT_SRC_AGENT_START))
        FILL(record->agent_id, step->agent_id);
    if (step->slots_count > 0 &&
        acct_record_set_slots(record, step->slots, step->slots_count) != 0)
        bus_log_warning("kernel slots too long; kept the earlier kernel=%s",
                        record->kernel_id);
    const char *event = step->event;
    bool open = record->ended_at == ACCT_OPEN;
    if (strcmp(event, "kernel_started") == 0) {
        if (record->started_at == 0)
            record->started_at = step->at;
        if (open)
            snprintf(record->status, sizeof record->status, "RUNNING");
    } else if (strcmp(event, "kernel_terminated") == 0 && open)
        s_end(record, step->at, "TERMINATED", step->reason);
    else if (strcmp(event, "kernel_cancelled") == 0 && open)
        s_end(record, step->at, record->started_at ? "TERMINATED" : "CANCELLED",
              step->reason);
    int rc = acct_db_record_put(db, record);
    free(record);
    return rc;
}

int
acct_ingest_started(bus_db_t *db, const proto_kernel_started_t *started)
{
    assert(db && started);
    acct_record_t *record = malloc(sizeof *record);
    if (!record || s_load(db, started->kernel_id, started->at, record) != 0) {
        free(record);
        return -1;
    }
    FILL(record->session_id, started->session_id);
    FILL(record->agent_id, started->agent_id);
    FILL(record->container_id, started->container_id);
    //  The agent's first start is the start (a restart in place keeps it).
    if (!(record->src_flags & ACCT_SRC_AGENT_START) && started->at > 0) {
        record->started_at = started->at;
        record->src_flags |= ACCT_SRC_AGENT_START;
    }
    if (record->ended_at == ACCT_OPEN)
        snprintf(record->status, sizeof record->status, "RUNNING");
    int rc = acct_db_record_put(db, record);
    free(record);
    return rc;
}

int
acct_ingest_terminated(bus_db_t *db, const proto_kernel_terminated_t *ended)
{
    assert(db && ended);
    acct_record_t *record = malloc(sizeof *record);
    if (!record || s_load(db, ended->kernel_id, ended->at, record) != 0) {
        free(record);
        return -1;
    }
    FILL(record->session_id, ended->session_id);
    FILL(record->agent_id, ended->agent_id);
    int rc = 0;
    if (ended->has_stats) {
        acct_sample_t sample = {
            .at = ended->at > 0 ? ended->at : bus_clock_wall_us(),
            .cpu_used_ns = ended->cpu_used_ns,
            .mem_peak_bytes = ended->mem_peak_bytes,
            .io_read_bytes = ended->io_read_bytes,
            .io_write_bytes = ended->io_write_bytes,
            .net_rx_bytes = ended->net_rx_bytes,
            .net_tx_bytes = ended->net_tx_bytes,
        };
        acct_delta_t delta;
        if (acct_record_sample(record, &sample, true, &delta))
            rc = acct_db_sample_insert(db, record->kernel_id, &delta);
    }
    //  The agent saw the end: its time wins over the scheduler's.
    if (!(record->src_flags & ACCT_SRC_AGENT_END)) {
        record->ended_at = ACCT_OPEN;
        s_end(record, ended->at, record->started_at ? "TERMINATED" : "CANCELLED",
              ended->reason);
        record->src_flags |= ACCT_SRC_AGENT_END;
    }
    if (rc == 0)
        rc = acct_db_record_put(db, record);
    free(record);
    return rc;
}

int
acct_ingest_sample(bus_db_t *db,
                   const char *kernel_id,
                   const char *agent_id,
                   const acct_sample_t *sample)
{
    assert(db && kernel_id && sample);
    acct_record_t *record = malloc(sizeof *record);
    if (!record)
        return -1;
    int found = acct_db_record_get(db, kernel_id, record);
    if (found == 0)
        acct_record_init(record, kernel_id, sample->at);
    int rc = found < 0 ? -1 : 0;
    acct_delta_t delta;
    if (rc == 0 && acct_record_sample(record, sample, false, &delta)) {
        if (found == 0)
            FILL(record->agent_id, agent_id);
        rc = acct_db_sample_insert(db, kernel_id, &delta);
        if (rc == 0)
            rc = found ? acct_db_record_put_counters(db, record)
                       : acct_db_record_put(db, record);
        if (rc == 0)
            rc = 1;
    }
    free(record);
    return rc;
}

//  ---------------------------------------------------------------------------
//  The durable domains

//  A malformed event can never be applied: logged and skipped, or the
//  stream would stall on it for ever.
static void
s_malformed(const bus_event_t *event, const bus_error_t *err)
{
    bus_log_error("event malformed; skipped topic=%s src=%s seq=%" PRIu64
                  " reason=\"%s\"",
                  event->topic, event->header.src, event->header.seq, err->detail);
}

static int
s_apply_session(void *arg, bus_node_t *node, const bus_event_t *event)
{
    acct_ingest_t *self = arg;
    if (strcmp(event->topic, PROTO_SESSION_LIFECYCLE) != 0)
        return 0;
    proto_session_lifecycle_t step;
    bus_error_t err = {0};
    if (proto_session_lifecycle_decode(&step, event->body, event->body_size, &err) !=
        BUS_OK) {
        s_malformed(event, &err);
        return 0;
    }
    int rc = acct_ingest_lifecycle(bus_node_db(node), &step);
    proto_session_lifecycle_clear(&step);
    if (rc == 0)
        self->stats.records_changed++;
    return rc;
}

static int
s_apply_kernel(void *arg, bus_node_t *node, const bus_event_t *event)
{
    acct_ingest_t *self = arg;
    bus_error_t err = {0};
    int rc = 0;
    if (strcmp(event->topic, PROTO_KERNEL_STARTED) == 0) {
        proto_kernel_started_t started;
        if (proto_kernel_started_decode(&started, event->body, event->body_size, &err) !=
            BUS_OK) {
            s_malformed(event, &err);
            return 0;
        }
        rc = acct_ingest_started(bus_node_db(node), &started);
        proto_kernel_started_clear(&started);
    } else if (strcmp(event->topic, PROTO_KERNEL_TERMINATED) == 0) {
        proto_kernel_terminated_t ended;
        if (proto_kernel_terminated_decode(&ended, event->body, event->body_size, &err) !=
            BUS_OK) {
            s_malformed(event, &err);
            return 0;
        }
        rc = acct_ingest_terminated(bus_node_db(node), &ended);
        proto_kernel_terminated_clear(&ended);
    } else
        return 0;
    if (rc == 0)
        self->stats.records_changed++;
    return rc;
}

static void
s_on_stats(void *arg, const bus_event_t *event)
{
    acct_ingest_queue(arg, event->body, event->body_size, event->header.ts);
}

//  ---------------------------------------------------------------------------

acct_ingest_t *
acct_ingest_new(bus_node_t *node, size_t queue_max, bus_error_t *err)
{
    assert(node && queue_max > 0);
    acct_ingest_t *self = calloc(1, sizeof *self);
    if (self) {
        self->node = node;
        self->db = bus_node_db(node);
        self->queue_max = queue_max;
        self->queue = calloc(queue_max, sizeof *self->queue);
    }
    if (!self || !self->queue) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        acct_ingest_destroy(&self);
        return NULL;
    }
    if (bus_node_follow(node, "session", s_apply_session, self) != 0 ||
        bus_node_follow(node, "kernel", s_apply_kernel, self) != 0 ||
        bus_node_subscribe(node, PROTO_KERNEL_STATS, s_on_stats, self) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot follow the kernel events");
        acct_ingest_destroy(&self);
        return NULL;
    }
    return self;
}

acct_ingest_t *
acct_ingest_new_offline(bus_db_t *db, size_t queue_max)
{
    assert(db && queue_max > 0);
    acct_ingest_t *self = calloc(1, sizeof *self);
    if (self) {
        self->db = db;
        self->queue_max = queue_max;
        self->queue = calloc(queue_max, sizeof *self->queue);
    }
    if (self && !self->queue)
        acct_ingest_destroy(&self);
    return self;
}

void
acct_ingest_destroy(acct_ingest_t **self_p)
{
    assert(self_p);
    acct_ingest_t *self = *self_p;
    if (self) {
        if (self->queue)
            acct_ingest_flush(self);
        free(self->queue);
        free(self);
        *self_p = NULL;
    }
}

int
acct_ingest_queue(acct_ingest_t *self, const void *body, size_t size, int64_t at)
{
    assert(self);
    proto_kernel_stats_t stats;
    bus_error_t err = {0};
    if (proto_kernel_stats_decode(&stats, body, size, &err) != BUS_OK) {
        self->stats.samples_malformed++;
        bus_log_warning("kernel.stats malformed; skipped reason=\"%s\"", err.detail);
        return -1;
    }
    if (self->queued == self->queue_max)
        acct_ingest_flush(self);
    queued_t *queued = &self->queue[self->queued++];
    snprintf(queued->kernel_id, sizeof queued->kernel_id, "%s", stats.kernel_id);
    snprintf(queued->agent_id, sizeof queued->agent_id, "%s",
             stats.agent_id ? stats.agent_id : "");
    queued->sample = (acct_sample_t){
        .at = at,
        .cpu_used_ns = stats.cpu_used_ns,
        .mem_bytes = stats.mem_bytes,
        .mem_peak_bytes = stats.mem_peak_bytes,
        .mem_limit_bytes = stats.mem_limit_bytes,
        .pids = stats.pids,
        .io_read_bytes = stats.io_read_bytes,
        .io_write_bytes = stats.io_write_bytes,
        .net_rx_bytes = stats.net_rx_bytes,
        .net_tx_bytes = stats.net_tx_bytes,
        .cuda_devices = stats.cuda_devices,
        .cuda_mem_bytes = stats.cuda_mem_bytes,
        .cuda_mem_total_bytes = stats.cuda_mem_total_bytes,
        .cuda_util_pct = stats.cuda_util_pct,
    };
    proto_kernel_stats_clear(&stats);
    return 0;
}

int
acct_ingest_flush(acct_ingest_t *self)
{
    assert(self);
    if (self->queued == 0)
        return 0;
    int applied = 0;
    int64_t oldest = INT64_MAX;
    if (bus_db_begin(self->db) != 0)
        applied = -1;
    for (size_t i = 0; applied >= 0 && i < self->queued; i++) {
        queued_t *queued = &self->queue[i];
        if (queued->sample.at < oldest)
            oldest = queued->sample.at;
        int rc = acct_ingest_sample(self->db, queued->kernel_id, queued->agent_id,
                                    &queued->sample);
        if (rc < 0)
            applied = -1;
        else if (rc == 1)
            applied++;
        else
            self->stats.samples_skipped++;
    }
    if (applied >= 0 && bus_db_commit(self->db) != 0)
        applied = -1;
    else if (applied < 0 && bus_db_in_transaction(self->db))
        bus_db_rollback(self->db);
    if (applied < 0)
        bus_log_warning("kernel.stats samples dropped count=%zu (a database error)",
                        self->queued);
    else
        self->stats.samples_applied += (uint64_t) applied;
    self->stats.flushes++;
    self->stats.lag_us = bus_clock_wall_us() - oldest;
    self->queued = 0;
    return applied;
}

size_t
acct_ingest_pending(acct_ingest_t *self)
{
    assert(self);
    return self->queued;
}

const acct_ingest_stats_t *
acct_ingest_stats(acct_ingest_t *self)
{
    assert(self);
    return &self->stats;
}
