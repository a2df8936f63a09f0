/*  =========================================================================
    acct_rpc - the accounting.* methods on the accounting's node

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "acct_classes.h"

struct _acct_rpc_t {
    bus_node_t *node;
    acct_ingest_t *ingest;
};

//  The queued samples count in the answer.
static void
s_flush(acct_rpc_t *self)
{
    if (self->ingest)
        acct_ingest_flush(self->ingest);
}

//  ---------------------------------------------------------------------------
//  accounting.usage

static int
s_on_usage(void *arg,
           const proto_accounting_usage_req_t *in,
           proto_accounting_usage_rep_t *out,
           bus_rpc_request_t *req,
           bus_error_t *err)
{
    (void) req;
    acct_rpc_t *self = arg;
    s_flush(self);
    int rc = acct_query_usage(bus_node_db(self->node), in, bus_clock_wall_us(), out, err);
    if (rc == BUS_OK)
        bus_log_info("usage answered groups=%zu from=%" PRId64 " to=%" PRId64,
                     out->groups_count, in->from, in->to);
    return rc;
}

//  ---------------------------------------------------------------------------
//  accounting.stats_user

static int
s_on_stats_user(void *arg,
                const proto_accounting_stats_user_req_t *in,
                proto_accounting_stats_user_rep_t *out,
                bus_rpc_request_t *req,
                bus_error_t *err)
{
    (void) req;
    acct_rpc_t *self = arg;
    s_flush(self);
    int rc =
        acct_query_stats_user(bus_node_db(self->node), in, bus_clock_wall_us(), out, err);
    return rc;
}

//  ---------------------------------------------------------------------------
//  accounting.stats_all

static int
s_on_stats_all(void *arg,
               const proto_accounting_stats_all_req_t *in,
               proto_accounting_stats_all_rep_t *out,
               bus_rpc_request_t *req,
               bus_error_t *err)
{
    (void) req;
    acct_rpc_t *self = arg;
    s_flush(self);
    int rc =
        acct_query_stats_all(bus_node_db(self->node), in, bus_clock_wall_us(), out, err);
    return rc;
}

//  ---------------------------------------------------------------------------
//  accounting.recalculate

static int
s_on_recalculate(void *arg,
                 const proto_accounting_recalculate_req_t *in,
                 proto_accounting_recalculate_rep_t *out,
                 bus_rpc_request_t *req,
                 bus_error_t *err)
{
    (void) in, (void) req;
    acct_rpc_t *self = arg;
    s_flush(self); //  the queued samples are rebuilt too
    acct_db_rebuilt_t done;
    int64_t started = bus_clock_mono_ms();
    if (acct_db_rebuild(bus_node_db(self->node), &done) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot rebuild the roll-ups");
    bus_log_notice("roll-ups rebuilt rolled=%" PRId64 " horizon=%" PRId64
                   " hourly=%" PRId64 " daily=%" PRId64 " kernels=%" PRId64
                   " mismatched=%" PRId64 " ms=%" PRId64,
                   done.rolled, done.horizon, done.hourly, done.daily, done.kernels,
                   done.mismatched, bus_clock_mono_ms() - started);
    if (done.mismatched > 0)
        bus_log_warning("%" PRId64 " kernels' buckets differ from their records before"
                        " the raw samples' horizon %" PRId64,
                        done.mismatched, done.horizon);
    out->rolled = (uint64_t) done.rolled;
    out->horizon = done.horizon;
    out->hourly = (uint64_t) done.hourly;
    out->daily = (uint64_t) done.daily;
    out->kernels = (uint64_t) done.kernels;
    out->mismatched = (uint64_t) done.mismatched;
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  accounting.live

static int
s_on_live(void *arg,
          const proto_accounting_live_req_t *in,
          proto_accounting_live_rep_t *out,
          bus_rpc_request_t *req,
          bus_error_t *err)
{
    (void) req;
    acct_rpc_t *self = arg;
    s_flush(self);
    int rc = acct_query_live(bus_node_db(self->node), in, out, err);
    return rc;
}

//  ---------------------------------------------------------------------------

acct_rpc_t *
acct_rpc_new(bus_node_t *node, acct_ingest_t *ingest, bus_error_t *err)
{
    assert(node);
    acct_rpc_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    self->ingest = ingest;
    const bus_node_method_t methods[] = {
        proto_accounting_usage_method(s_on_usage),
        proto_accounting_stats_user_method(s_on_stats_user),
        proto_accounting_stats_all_method(s_on_stats_all),
        proto_accounting_recalculate_method(s_on_recalculate),
        proto_accounting_live_method(s_on_live),
    };
    if (bus_node_serve(node, methods, sizeof methods / sizeof methods[0], self, err) !=
        BUS_OK) {
        acct_rpc_destroy(&self);
        return NULL;
    }
    return self;
}

void
acct_rpc_destroy(acct_rpc_t **self_p)
{
    assert(self_p);
    acct_rpc_t *self = *self_p;
    if (self) {
        free(self);
        *self_p = NULL;
    }
}
