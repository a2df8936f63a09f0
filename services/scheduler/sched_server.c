/*  =========================================================================
    sched_server - the scheduler as bus_main runs it: its state, its
    timers, and its offline command

    Owns sessions and kernels (the source of truth), the pending queue, the
    agent registry and the slot allocation ledger, besides what every node
    does (bus_node: heartbeats, catch-up of durable events, the outbox).
    Its state is composed of objects, each made by its _new in s_init and
    undone by its _destroy in s_fini:

      sched_db_checkpoint   WAL checkpoints on a thread of their own
      sched_agents          the agent registry, from heartbeats
      sched_lifecycle       kernel moves and their session.lifecycle events
      sched_calls           the kernel.* calls in flight to agents
      sched_commit          the group commit of creates and create answers
      sched_kernels         kernel.create and kernel.destroy, and answers
      sched_cluster         kernel.hosts for cluster sessions
      sched_kernel_events   the agents' kernel.started and kernel.terminated
      sched_dispatch        one scheduling pass (sched_db_snapshot,
                            sched_pass, sched_quota), written back
      sched_reconcile       what lost messages left, repaired
      sched_reclaim         sessions idle or out of time, ended
      sched_rpc             every RPC served, from one table
      sched_metrics         its lines of /metrics (and the passes' timings)
    (and sched_groups, which follows policy.scaling_group into sgroups).

    Timers, all on the node's event loop but the checkpoint thread's:

      pass        every sessions.pass_ms (1000): flushes the group commit,
                  runs a scheduling pass over every resource group with
                  live agents, emits the placements' events and sends
                  their kernel.create calls; every RECONCILE_PASSES (10)
                  passes, a reconciliation (sched_reconcile) of the kernels
                  that waited that long in a transitional status.
      soon        one-shot, a pass right after a create: at the next turn
                  of the loop when none ran in the last SOON_US (2 ms: the
                  scheduler was idle, a lone session waits for nothing),
                  else SOON_US later, so that a burst of creates is placed
                  by one pass rather than one each; also after a pass
                  that placed a whole window (a backlog drains at pass
                  speed, not a window per period), and from a flush when
                  it is overdue by OVERDUE_US (100 ms): libevent runs
                  timers only when nothing is active, and a stream of
                  requests keeps it so.
      agents      every SCHED_AGENTS_CHECK_MS (1000, fixed): writes when
                  each agent was last heard and marks agents silent for
                  agents.lost_ms (10000) LOST (sched_agents_expire).
      reclaim     every sessions.reclaim_ms (5000): ends the sessions idle,
                  overdue or pending too long (sched_reclaim_check).
      flush       not a timer: made active by whatever sched_commit queues,
                  it runs once the loop turn's messages are served and
                  records them in one transaction (sched_commit_flush).
      checkpoint  every SCHED_DB_CHECKPOINT_MS (200, fixed), on its own
                  thread and connection: a passive WAL checkpoint.
    A LOST agent's kernels end agents.termination_grace_ms (60000) after it
    was lost, at the next reconciliation; kernel.create and the other calls
    to agents wait agents.create_timeout_ms (120000) at most, kernel.list
    SCHED_RECONCILE_LIST_MS (5000). The node's own cron (heartbeat to the
    registry, peer refresh and catch-up, outbox flush, every
    bus.heartbeat_ms) is bus_node's.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

#define SOON_US          2000   //  during a burst, a pass this long after a create
#define OVERDUE_US       100000 //  a pass due this long ago runs from the flush
#define RECONCILE_PASSES 10     //  a reconciliation every this many timed passes

typedef struct {
    bus_node_t *node;
    sched_db_checkpoint_t *checkpoint; //  NULL: the loop's connection checkpoints alone
    sched_agents_t *agents;
    sched_lifecycle_t *lifecycle;
    sched_calls_t *calls;
    sched_commit_t *commit;
    sched_kernels_t *kernels;
    sched_cluster_t *cluster;
    sched_kernel_events_t *kernel_events;
    sched_dispatch_t *dispatch;
    sched_reconcile_t *reconcile;
    sched_reclaim_t *reclaim;
    sched_rpc_t *rpc;
    sched_metrics_t *metrics;
    struct event *pass;   //  the periodic pass
    struct event *soon;   //  a pass right after a create
    struct event *expire; //  the agents' check
    struct event *reclaim_timer;
    int64_t soon_us; //  when the soon pass is due (monotonic), while pending
    int64_t pass_us; //  when the last pass ran (monotonic)
    unsigned ticks;  //  timed passes so far
} sched_server_t;

//  ---------------------------------------------------------------------------
//  Passes

static void s_pass(sched_server_t *self);

//  Asks for a pass, unless one is asked for already (see soon above).
static void
s_soon(sched_server_t *self)
{
    if (!event_pending(self->soon, EV_TIMEOUT, NULL)) {
        int64_t now = bus_clock_mono_us();
        int64_t due = now - self->pass_us >= SOON_US ? now : now + SOON_US;
        struct timeval soon = {0, (suseconds_t) (due - now)};
        event_add(self->soon, &soon);
        self->soon_us = due;
    }
}

//  One pass: placements recorded with their events in one transaction,
//  then the agents asked.
static void
s_pass(sched_server_t *self)
{
    self->pass_us = bus_clock_mono_us();
    sched_commit_flush(self->commit);
    if (bus_node_begin(self->node) != 0)
        return;
    size_t count = 0;
    sched_assignment_t *placed =
        sched_dispatch_run(self->dispatch, bus_clock_wall_us(), &count);
    size_t sessions = 0;
    for (size_t i = 0; i < count; i++)
        sessions += placed[i].first;
    //  The pass wrote the kernels and their sessions PREPARING (what
    //  SCHEDULED then PREPARING in this transaction would have left).
    sched_lifecycle_placed(self->lifecycle, placed, count);
    //  A whole window placed: more may wait behind it, and need not wait
    //  for the period.
    if (sched_dispatch_more(self->dispatch))
        s_soon(self);
    if (bus_node_commit(self->node) == 0 && count) {
        //  One read transaction for all the requests, not one per statement.
        bool read = bus_node_begin(self->node) == 0;
        for (size_t i = 0; i < count; i++)
            sched_kernels_create(self->kernels, &placed[i]);
        if (read)
            bus_node_commit(self->node);
    }
    free(placed);
    //  From the group commit's flush to the last kernel.create sent.
    sched_metrics_pass(self->metrics,
                       (double) (bus_clock_mono_us() - self->pass_us) / 1e6, sessions);
}

//  After a flush: the sessions it stored are placed without waiting a
//  period, but after the creates that arrive with them (one pass for a
//  burst, not one per session: a pass reads every agent of the group).
static void
s_flushed(void *arg, bool created)
{
    sched_server_t *self = arg;
    if (created)
        s_soon(self);
    //  A loop kept busy by a stream of requests runs no timer (libevent
    //  serves what is active first): a pass overdue that long runs here.
    else if (event_pending(self->soon, EV_TIMEOUT, NULL) &&
             bus_clock_mono_us() - self->soon_us > OVERDUE_US) {
        event_del(self->soon);
        s_pass(self);
    }
}

//  ---------------------------------------------------------------------------
//  Timers

static void
s_on_pass(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    sched_server_t *self = arg;
    s_pass(self);
    if (++self->ticks % RECONCILE_PASSES == 0)
        sched_reconcile_run(self->reconcile);
}

static void
s_on_soon(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    s_pass(arg);
}

static void
s_on_expire(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    sched_server_t *self = arg;
    sched_agents_expire(self->agents);
}

static void
s_on_reclaim(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    sched_server_t *self = arg;
    sched_reclaim_check(self->reclaim, bus_clock_wall_us());
}

//  A persistent timer every period_ms, started. NULL on failure.
static struct event *
s_timer(sched_server_t *self, int period_ms, event_callback_fn fn)
{
    struct event *timer = event_new(bus_node_base(self->node), -1, EV_PERSIST, fn, self);
    struct timeval tv = {period_ms / 1000, (period_ms % 1000) * 1000};
    if (timer && event_add(timer, &tv) != 0) {
        event_free(timer);
        timer = NULL;
    }
    return timer;
}

//  ---------------------------------------------------------------------------
//  State

//  A session the reclamation ends: after the creates before it.
static void
s_reclaim_end(void *arg, const char *session_id, const char *reason)
{
    sched_server_t *self = arg;
    sched_commit_flush(self->commit);
    if (sched_kernels_end_session(self->kernels, session_id, reason, false) != BUS_OK)
        bus_log_warning("cannot end session=%s reason=%s", session_id, reason);
}

static void
s_fini(void **state_p)
{
    sched_server_t *self = *state_p;
    if (!self)
        return;
    struct event **timers[] = {&self->pass, &self->soon, &self->expire,
                               &self->reclaim_timer};
    for (size_t i = 0; i < sizeof timers / sizeof timers[0]; i++)
        if (*timers[i]) {
            event_free(*timers[i]);
            *timers[i] = NULL;
        }
    sched_metrics_destroy(&self->metrics);
    sched_rpc_destroy(&self->rpc);
    //  The commit's queued answers hold calls: it goes first, then the calls
    //  still in flight are cancelled, so that no answer finds us gone.
    sched_commit_destroy(&self->commit);
    sched_calls_destroy(&self->calls);
    sched_reclaim_destroy(&self->reclaim);
    sched_reconcile_destroy(&self->reconcile);
    sched_dispatch_destroy(&self->dispatch);
    sched_kernel_events_destroy(&self->kernel_events);
    sched_cluster_destroy(&self->cluster);
    sched_kernels_destroy(&self->kernels);
    sched_lifecycle_destroy(&self->lifecycle);
    sched_agents_destroy(&self->agents);
    sched_db_checkpoint_destroy(&self->checkpoint);
    free(self);
    *state_p = NULL;
}

static void *
s_init(bus_node_t *node, const void *config_, bus_error_t *err)
{
    const sched_config_t *config = config_;
    sched_server_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    bus_db_t *db = bus_node_db(node);
    //  Tuning, not schema (see sched_db.h).
    if (sched_db_tune(db) != 0)
        bus_log_warning("cannot tune the database; going on with the defaults");
    self->checkpoint = sched_db_checkpoint_new(db);
    bool ok =
        (self->agents = sched_agents_new(node, config->agent_lost_ms)) &&
        sched_groups_follow(node) == 0 && (self->lifecycle = sched_lifecycle_new(node)) &&
        (self->calls = sched_calls_new(node, config->create_timeout_ms)) &&
        (self->commit = sched_commit_new(node, self->lifecycle, s_flushed, self)) &&
        (self->kernels =
             sched_kernels_new(node, self->lifecycle, self->calls, self->commit)) &&
        (self->cluster = sched_cluster_new(node)) &&
        (self->kernel_events =
             sched_kernel_events_new(node, self->lifecycle, self->cluster)) &&
        (self->dispatch = sched_dispatch_new(db, (int64_t) config->pass_ms * 1000,
                                             SCHED_DISPATCH_WINDOW)) &&
        (self->reconcile =
             sched_reconcile_new(node, self->lifecycle, self->calls, self->kernels,
                                 (int64_t) config->pass_ms * RECONCILE_PASSES * 1000,
                                 (int64_t) config->agent_grace_ms * 1000)) &&
        (self->reclaim = sched_reclaim_new(node, s_reclaim_end, self));
    if (ok)
        self->rpc = sched_rpc_new(node, self->lifecycle, self->calls, self->commit,
                                  self->kernels, self->agents, err);
    if (self->rpc && !(self->metrics = sched_metrics_new(node)))
        sched_rpc_destroy(&self->rpc); //  cannot start: out of memory
    if (self->dispatch) {
        sched_dispatch_set_preparing(self->dispatch, true);
        //  Nothing goes to an agent until it has spoken to this process.
        sched_dispatch_set_heard_since(self->dispatch, bus_clock_wall_us());
    }
    if (self->kernels)
        sched_kernels_set_heard_since(self->kernels, bus_clock_wall_us());
    self->soon = event_new(bus_node_base(node), -1, 0, s_on_soon, self);
    if (self->rpc && self->soon) {
        self->expire = s_timer(self, SCHED_AGENTS_CHECK_MS, s_on_expire);
        self->pass = s_timer(self, config->pass_ms, s_on_pass);
        self->reclaim_timer = s_timer(self, config->reclaim_ms, s_on_reclaim);
    }
    if (!self->expire || !self->pass || !self->reclaim_timer) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot start the scheduler");
        void *dead = self;
        s_fini(&dead);
        return NULL;
    }
    return self;
}

//  ---------------------------------------------------------------------------
//  backplane-scheduler check-ledger: the ledger's checks (sched_db_ledger)
//  on the database of config, offline. Exit status 0 when they hold, 1
//  when some do not (each printed), 2 on bad usage or a database that
//  cannot be read.

static int
s_command(const void *config_, int argc, char **argv)
{
    const sched_config_t *config = config_;
    if (argc < 1 || strcmp(argv[0], "check-ledger") != 0 || argc > 1) {
        fprintf(stderr, "usage: backplane-scheduler [--config F] check-ledger\n");
        return 2;
    }
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/scheduler.db", config->node.state_dir);
    bus_error_t err = {0};
    bus_db_t *db = sched_db_open(path, &err);
    if (!db) {
        fprintf(stderr, "backplane-scheduler: %s: %s\n", path, err.detail);
        return 2;
    }
    json_t *report = NULL;
    int violations = sched_db_ledger_check(db, &report);
    bus_db_destroy(&db);
    if (violations < 0) {
        fprintf(stderr, "backplane-scheduler: %s: cannot read the ledger\n", path);
        return 2;
    }
    size_t index;
    json_t *line;
    json_array_foreach(report, index, line) printf("%s\n", json_string_value(line));
    printf("%d violation%s\n", violations, violations == 1 ? "" : "s");
    json_decref(report);
    return violations ? 1 : 0;
}

const bus_service_t sched_service = {
    .name = "scheduler",
    .summary = "Owns sessions and kernels, the pending queue, the agent registry and the "
               "slot allocation ledger",
    .options = sched_config_options,
    .config_size = sizeof(sched_config_t),
    .node_config_offset = offsetof(sched_config_t, node),
    .migrations = sched_db_migrations,
    .migration_count = SCHED_DB_MIGRATION_COUNT,
    .init = s_init,
    .fini = s_fini,
    .command = s_command,
};
