/*  =========================================================================
    acct_server - the accounting service as bus_main runs it

    Keeps usage records, statistics and the access and audit log. It
    follows the gateway's durable events, so every request the gateway
    served lands in access_log (acct_db) exactly once, even across restarts
    of either side; it follows the scheduler's session and the agents'
    kernel domains and their kernel.stats samples into one usage record per
    kernel (acct_ingest), rolls the samples up (acct_db_compact) and
    answers the accounting.* methods (acct_rpc, acct_query). Its offline
    command is `backplane-accounting report` (acct_report).

    Timers (besides the node's cron, listed in bus_node.h: heartbeat,
    peer list, catch-up of missed durable events, outbox):
      - the accounting cron, every accounting.flush_ms (s_on_cron):
          - writes the queued kernel.stats samples in one transaction
            (also when the queue fills, and before every RPC answer);
          - every accounting.compact_s (and once at start): rolls the raw
            samples not yet rolled up into the hourly and daily buckets,
            then deletes rolled-up samples older than
            accounting.raw_retention_s, at most ACCT_DB_EXPIRE_BATCH a pass.
    Durable events are applied as they arrive, in the node's inbox
    transaction (no timer).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "acct_classes.h"

typedef struct {
    bus_node_t *node;
    const acct_config_t *config;
    acct_ingest_t *ingest;
    acct_rpc_t *rpc;
    struct event *cron;
    int64_t compacted_ms; //  monotonic: the last compaction
    uint64_t rolled;      //  samples rolled up since start
    uint64_t expired;     //  samples deleted since start
} acct_state_t;

//  Records one gateway.access event; runs inside the inbox transaction.
static int
s_apply_gateway(void *arg, bus_node_t *node, const bus_event_t *event)
{
    (void) arg;
    if (strcmp(event->topic, PROTO_GATEWAY_ACCESS) != 0)
        return 0; //  other gateway events are not ours to keep
    proto_gateway_access_t access;
    bus_error_t err = {0};
    if (proto_gateway_access_decode(&access, event->body, event->body_size, &err) !=
        BUS_OK) {
        //  A malformed event can never be applied: log it and move past it,
        //  or the stream would stall on it for ever.
        bus_log_error("access event malformed; skipped src=%s seq=%" PRIu64
                      " reason=\"%s\"",
                      event->header.src, event->header.seq, err.detail);
        return 0;
    }
    int rc = acct_db_access_insert(bus_node_db(node), &access, event->header.src);
    proto_gateway_access_clear(&access);
    return rc;
}

static void
s_compact(acct_state_t *state)
{
    int64_t expire_before =
        bus_clock_wall_us() - (int64_t) state->config->raw_retention_s * 1000000;
    int64_t rolled = 0, expired = 0;
    if (acct_db_compact(bus_node_db(state->node), expire_before, &rolled, &expired) != 0)
        bus_log_warning("usage compaction failed; retried at the next pass");
    else if (rolled || expired)
        bus_log_info("usage compacted rolled=%" PRId64 " expired=%" PRId64, rolled,
                     expired);
    state->rolled += (uint64_t) rolled;
    state->expired += (uint64_t) expired;
    state->compacted_ms = bus_clock_mono_ms();
}

static void
s_on_cron(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    acct_state_t *state = arg;
    acct_ingest_flush(state->ingest);
    if (bus_clock_mono_ms() - state->compacted_ms >=
        (int64_t) state->config->compact_s * 1000)
        s_compact(state);
}

//  The lines of /metrics: the ingest of kernel.stats samples, the
//  compaction, and the records kept. How far behind the event streams
//  accounting is (gateway, session, kernel) is the node's
//  backplane_event_lag_* (bus_node_metrics).
static void
s_metrics(void *arg, struct evbuffer *out)
{
    acct_state_t *state = arg;
    const acct_ingest_stats_t *stats = acct_ingest_stats(state->ingest);
    bus_db_t *db = bus_node_db(state->node);
    static const struct {
        const char *name;
        const char *type;
        const char *help;
    } families[] = {
        {"backplane_accounting_samples_applied_total", "counter",
         "kernel.stats samples added to usage records"},
        {"backplane_accounting_samples_skipped_total", "counter",
         "kernel.stats samples already counted or for no record"},
        {"backplane_accounting_samples_malformed_total", "counter",
         "kernel.stats samples that could not be decoded"},
        {"backplane_accounting_samples_queued", "gauge",
         "kernel.stats samples waiting for the next write"},
        {"backplane_accounting_ingest_lag_seconds", "gauge",
         "at the last write of queued samples, the age of the oldest one"},
        {"backplane_accounting_samples_rolled_total", "counter",
         "raw samples rolled up into hourly and daily buckets since start"},
        {"backplane_accounting_samples_expired_total", "counter",
         "rolled-up raw samples deleted since start"},
    };
    double values[] = {(double) stats->samples_applied,
                       (double) stats->samples_skipped,
                       (double) stats->samples_malformed,
                       (double) acct_ingest_pending(state->ingest),
                       (double) stats->lag_us / 1e6,
                       (double) state->rolled,
                       (double) state->expired};
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
        bus_metrics_family(out, families[i].name, families[i].type, families[i].help);
        bus_metrics_sample(out, families[i].name, NULL, values[i]);
    }
    bus_metrics_family(out, "backplane_accounting_records", "gauge",
                       "records kept: requests in the access log, usage records "
                       "(one per kernel)");
    bus_metrics_sample(out, "backplane_accounting_records", "kind=\"access_log\"",
                       (double) acct_db_access_count(db));
    bus_metrics_sample(out, "backplane_accounting_records", "kind=\"usage\"",
                       (double) acct_db_record_count(db));
}

static void
s_fini(void **state_p)
{
    acct_state_t *state = *state_p;
    if (state) {
        if (state->cron)
            event_free(state->cron);
        if (state->node)
            bus_node_set_metrics(state->node, NULL, NULL);
        acct_rpc_destroy(&state->rpc);
        acct_ingest_destroy(&state->ingest); //  flushes what is queued
        free(state);
        *state_p = NULL;
    }
}

static void *
s_init(bus_node_t *node, const void *config_, bus_error_t *err)
{
    const acct_config_t *config = config_;
    acct_state_t *state = calloc(1, sizeof *state);
    if (!state) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    state->node = node;
    state->config = config;
    if (bus_node_follow(node, "gateway", s_apply_gateway, NULL) != 0)
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot follow the gateway's events");
    else
        state->ingest = acct_ingest_new(node, (size_t) config->stats_queue, err);
    if (state->ingest)
        state->rpc = acct_rpc_new(node, state->ingest, err);
    if (state->rpc)
        state->cron = event_new(bus_node_base(node), -1, EV_PERSIST, s_on_cron, state);
    struct timeval tv = {config->flush_ms / 1000, (config->flush_ms % 1000) * 1000};
    if (!state->cron || event_add(state->cron, &tv) != 0) {
        if (state->rpc)
            bus_error_set(err, BUS_STATUS_INTERNAL, "cannot start the accounting cron");
        void *dead = state;
        s_fini(&dead);
        return NULL;
    }
    s_compact(state);
    bus_node_set_metrics(node, s_metrics, state);
    return state;
}

const bus_service_t acct_service = {
    .name = "accounting",
    .summary = "Keeps usage records, statistics and the access and audit log",
    .options = acct_config_options,
    .config_size = sizeof(acct_config_t),
    .node_config_offset = offsetof(acct_config_t, node),
    .migrations = acct_db_migrations,
    .migration_count = ACCT_DB_MIGRATION_COUNT,
    .init = s_init,
    .fini = s_fini,
    .command = acct_report_command,
};
