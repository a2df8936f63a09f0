/*  =========================================================================
    sched_reclaim - ending sessions nobody uses, or that ran out of time

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

#define SAMPLES_MAX   512       //  kernel.stats samples kept per kernel
#define FORGET_US     120000000 //  a kernel silent this long is forgotten
#define ACTIVITY_KEEP 86400000000LL
#define ENDS_MAX      1024 //  sessions ended per check (the rest: next check)

typedef struct {
    int64_t at_us;
    uint64_t cpu_ns;
    uint64_t mem_bytes;
    uint64_t mem_limit;
} sample_t;

//  What the stats said of one kernel lately.
typedef struct {
    char session_id[64];
    int64_t cpus_milli; //  its cpu allocation, thousandths
    int64_t first_us;   //  first sample
    size_t head, count; //  ring of samples
    sample_t samples[SAMPLES_MAX];
} use_t;

//  A resource group's utilization rule.
typedef struct {
    char group[72];
    int64_t window_us, grace_us;
    bool any;                //  "or": one resource under its threshold is enough
    double cpu_pct, mem_pct; //  < 0: not checked
} rule_t;

struct _sched_reclaim_t {
    bus_node_t *node;
    bus_db_t *db;
    struct event *timer;
    sched_reclaim_end_fn *end;
    void *arg;
    zhashx_t *activity;   //  session id -> last use (wall µs)
    zhashx_t *uses;       //  kernel id -> use_t
    zhashx_t *by_session; //  during a check with utilization rules: session id ->
                          //  zlistx of its kernels' use_t
};

static void
s_on_activity(void *arg, const bus_event_t *event)
{
    sched_reclaim_t *self = arg;
    proto_session_activity_t activity;
    proto_session_activity_init(&activity);
    bus_error_t err = {0};
    if (proto_session_activity_decode(&activity, event->body, event->body_size, &err) ==
        BUS_OK)
        zhashx_update(self->activity, activity.session_id,
                      (void *) (intptr_t) bus_clock_wall_us());
    proto_session_activity_clear(&activity);
}

//  A new kernel's record: its session and cpu allocation; NULL for a
//  kernel this scheduler does not know.
static use_t *
s_use_new(sched_reclaim_t *self, const char *kernel_id)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        self->db, "SELECT k.session_id, coalesce((SELECT amount FROM kernel_requests"
                  " WHERE kernel_id = k.id AND slot = 'cpu'), 0) FROM kernels k"
                  " WHERE k.id = ?1");
    if (!stmt)
        return NULL;
    sqlite3_bind_text(stmt, 1, kernel_id, -1, SQLITE_STATIC);
    use_t *use = NULL;
    if (sqlite3_step(stmt) == SQLITE_ROW && (use = calloc(1, sizeof *use))) {
        snprintf(use->session_id, sizeof use->session_id, "%s",
                 (const char *) sqlite3_column_text(stmt, 0));
        use->cpus_milli = sqlite3_column_int64(stmt, 1);
    }
    sqlite3_reset(stmt);
    return use;
}

static void
s_on_stats(void *arg, const bus_event_t *event)
{
    sched_reclaim_t *self = arg;
    proto_kernel_stats_t stats;
    proto_kernel_stats_init(&stats);
    bus_error_t err = {0};
    if (proto_kernel_stats_decode(&stats, event->body, event->body_size, &err) ==
        BUS_OK) {
        use_t *use = zhashx_lookup(self->uses, stats.kernel_id);
        if (!use && (use = s_use_new(self, stats.kernel_id)))
            zhashx_insert(self->uses, stats.kernel_id, use);
        if (use) {
            int64_t now = bus_clock_wall_us();
            if (!use->count)
                use->first_us = now;
            size_t slot = (use->head + use->count) % SAMPLES_MAX;
            if (use->count == SAMPLES_MAX)
                use->head = (use->head + 1) % SAMPLES_MAX;
            else
                use->count++;
            use->samples[slot] = (sample_t){now, stats.cpu_used_ns, stats.mem_bytes,
                                            stats.mem_limit_bytes};
        }
    }
    proto_kernel_stats_clear(&stats);
}

//  Average use of one kernel over the window ending now: false when the
//  samples do not cover it yet.
static bool
s_kernel_use(
    const use_t *use, int64_t now_us, int64_t window_us, double *cpu, double *mem)
{
    if (use->count < 2 || use->first_us > now_us - window_us)
        return false;
    const sample_t *first = NULL, *last = NULL;
    double mem_sum = 0;
    size_t mem_count = 0;
    for (size_t i = 0; i < use->count; i++) {
        const sample_t *s = &use->samples[(use->head + i) % SAMPLES_MAX];
        if (s->at_us < now_us - window_us)
            continue;
        if (!first)
            first = s;
        last = s;
        if (s->mem_limit) {
            mem_sum += 100.0 * (double) s->mem_bytes / (double) s->mem_limit;
            mem_count++;
        }
    }
    if (!first || first == last || last->at_us <= first->at_us)
        return false;
    double cpus = use->cpus_milli > 0 ? (double) use->cpus_milli / 1000.0 : 1.0;
    double cpu_ns =
        last->cpu_ns >= first->cpu_ns ? (double) (last->cpu_ns - first->cpu_ns) : 0;
    *cpu = 100.0 * cpu_ns / ((double) (last->at_us - first->at_us) * 1000.0) / cpus;
    *mem = mem_count ? mem_sum / (double) mem_count : 0;
    return true;
}

//  Whether a session of a group under rule was idle over its window: every
//  kernel of it covered and under the thresholds (or: one resource).
static bool
s_underused(sched_reclaim_t *self,
            const char *session_id,
            const rule_t *rule,
            int64_t now)
{
    size_t kernels = 0;
    double cpu_sum = 0, mem_sum = 0;
    zlistx_t *uses =
        self->by_session ? zhashx_lookup(self->by_session, session_id) : NULL;
    for (use_t *use = uses ? zlistx_first(uses) : NULL; use; use = zlistx_next(uses)) {
        double cpu, mem;
        if (!s_kernel_use(use, now, rule->window_us, &cpu, &mem))
            return false;
        cpu_sum += cpu;
        mem_sum += mem;
        kernels++;
    }
    if (!kernels)
        return false;
    bool cpu_low = rule->cpu_pct >= 0 && cpu_sum / (double) kernels < rule->cpu_pct;
    bool mem_low = rule->mem_pct >= 0 && mem_sum / (double) kernels < rule->mem_pct;
    bool cpu_ok = rule->cpu_pct < 0 || cpu_low, mem_ok = rule->mem_pct < 0 || mem_low;
    return rule->any ? cpu_low || mem_low : cpu_ok && mem_ok;
}

//  The utilization rules of the groups that have one.
static size_t
s_rules(sched_reclaim_t *self, rule_t *rules, size_t max)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        self->db, "SELECT name, json_extract(opts, '$.idle_checkers.utilization')"
                  " FROM sgroups WHERE json_valid(opts) AND"
                  " json_extract(opts, '$.idle_checkers.utilization') IS NOT NULL");
    size_t count = 0;
    while (stmt && count < max && sqlite3_step(stmt) == SQLITE_ROW) {
        json_t *rule = json_loads((const char *) sqlite3_column_text(stmt, 1), 0, NULL);
        json_t *thresholds = json_object_get(rule, "resource_thresholds");
        json_t *window = json_object_get(rule, "time_window");
        rule_t *r = &rules[count];
        snprintf(r->group, sizeof r->group, "%s",
                 (const char *) sqlite3_column_text(stmt, 0));
        r->window_us = (int64_t) (json_number_value(window) * 1e6);
        r->grace_us =
            (int64_t) (json_number_value(json_object_get(rule, "initial_grace_period")) *
                       1e6);
        const char *op =
            json_string_value(json_object_get(rule, "thresholds_check_operator"));
        r->any = op && strcmp(op, "or") == 0;
        json_t *cpu = json_object_get(json_object_get(thresholds, "cpu_util"), "average");
        json_t *mem = json_object_get(json_object_get(thresholds, "mem"), "average");
        r->cpu_pct = json_is_number(cpu) ? json_number_value(cpu) : -1;
        r->mem_pct = json_is_number(mem) ? json_number_value(mem) : -1;
        if (r->window_us > 0 && (r->cpu_pct >= 0 || r->mem_pct >= 0))
            count++;
        else
            bus_log_warning("resource group %s: idle_checkers.utilization needs a"
                            " time_window and a cpu_util or mem threshold",
                            r->group);
        json_decref(rule);
    }
    if (stmt)
        sqlite3_reset(stmt);
    return count;
}

typedef struct {
    char session_id[64];
    const char *reason;
} end_t;

//  PENDING sessions past their group's pending_timeout.
static size_t
s_pending_timeouts(sched_reclaim_t *self, int64_t now, end_t *ends, size_t count)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        self->db,
        "SELECT s.id FROM sgroups g JOIN sessions s ON s.scaling_group = g.name"
        " AND s.status = 'PENDING'"
        " WHERE json_valid(g.opts) AND json_extract(g.opts, '$.pending_timeout') > 0"
        " AND s.created_at < ?1 - CAST(json_extract(g.opts, '$.pending_timeout')"
        " * 1000000 AS INTEGER)");
    if (!stmt)
        return count;
    sqlite3_bind_int64(stmt, 1, now);
    while (count < ENDS_MAX && sqlite3_step(stmt) == SQLITE_ROW) {
        snprintf(ends[count].session_id, sizeof ends[count].session_id, "%s",
                 (const char *) sqlite3_column_text(stmt, 0));
        ends[count++].reason = "pending-timeout";
    }
    sqlite3_reset(stmt);
    return count;
}

//  PENDING sessions one of whose dependencies ended without success: they
//  can never start.
static size_t
s_failed_dependencies(sched_reclaim_t *self, end_t *ends, size_t count)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        self->db, "SELECT s.id FROM sessions s WHERE s.status = 'PENDING' AND "
                  "s.dependencies <> '[]'"
                  " AND json_valid(s.dependencies) AND EXISTS (SELECT 1 FROM"
                  " json_each(s.dependencies) d JOIN sessions x ON x.id = d.value"
                  " WHERE x.status IN ('TERMINATED', 'CANCELLED', 'ERROR')"
                  " AND x.result <> 'SUCCESS')");
    while (stmt && count < ENDS_MAX && sqlite3_step(stmt) == SQLITE_ROW) {
        snprintf(ends[count].session_id, sizeof ends[count].session_id, "%s",
                 (const char *) sqlite3_column_text(stmt, 0));
        ends[count++].reason = "dependency-failed";
    }
    if (stmt)
        sqlite3_reset(stmt);
    return count;
}

//  RUNNING sessions with a rule that applies: why each one ends, if it does.
static const char *
s_verdict(sched_reclaim_t *self,
          sqlite3_stmt *row,
          const rule_t *rules,
          size_t rule_count,
          int64_t now)
{
    const char *id = (const char *) sqlite3_column_text(row, 0);
    bool batch = strcmp((const char *) sqlite3_column_text(row, 1), "BATCH") == 0;
    int64_t created = sqlite3_column_int64(row, 2);
    int64_t running_since = sqlite3_column_int64(row, 3);
    int64_t batch_timeout = sqlite3_column_int64(row, 4);
    int64_t idle_timeout = sqlite3_column_int64(row, 5);
    int64_t lifetime = sqlite3_column_int64(row, 6);
    const char *group = (const char *) sqlite3_column_text(row, 7);
    if (lifetime > 0 && now - created > lifetime * 1000000)
        return "idle-session-lifetime";
    if (batch)
        return batch_timeout > 0 && now - running_since > batch_timeout * 1000000
                   ? "exec-timeout"
                   : NULL;
    int64_t used = (int64_t) (intptr_t) zhashx_lookup(self->activity, id);
    if (idle_timeout > 0 &&
        now - (used > running_since ? used : running_since) > idle_timeout * 1000000)
        return "idle-timeout";
    for (size_t i = 0; i < rule_count; i++)
        if (strcmp(rules[i].group, group) == 0 &&
            now - running_since > rules[i].grace_us &&
            s_underused(self, id, &rules[i], now))
            return "idle-utilization";
    return NULL;
}

int
sched_reclaim_check(sched_reclaim_t *self, int64_t now)
{
    end_t *ends = calloc(ENDS_MAX, sizeof *ends);
    rule_t rules[32];
    if (!ends)
        return 0;
    size_t rule_count = s_rules(self, rules, 32);
    //  With utilization rules, each session's kernels, found once.
    if (rule_count && (self->by_session = zhashx_new())) {
        zhashx_set_destructor(self->by_session, (zhashx_destructor_fn *) zlistx_destroy);
        for (use_t *use = zhashx_first(self->uses); use; use = zhashx_next(self->uses)) {
            zlistx_t *list = zhashx_lookup(self->by_session, use->session_id);
            if (!list && (list = zlistx_new()))
                zhashx_insert(self->by_session, use->session_id, list);
            if (list)
                zlistx_add_end(list, use);
        }
    }
    size_t count = s_pending_timeouts(self, now, ends, 0);
    count = s_failed_dependencies(self, ends, count);
    //  Only the sessions some rule applies to are read.
    sqlite3_stmt *stmt = bus_db_stmt(
        self->db,
        "SELECT s.id, s.type, s.created_at, s.status_changed, s.batch_timeout,"
        " coalesce(json_extract(l.limits, '$.idle_timeout'), 0),"
        " coalesce(json_extract(l.limits, '$.max_session_lifetime'), 0), s.scaling_group"
        " FROM sessions s LEFT JOIN scope_limits l"
        "  ON l.kind = 'keypair' AND l.key = s.access_key AND json_valid(l.limits)"
        " WHERE s.status = 'RUNNING' AND (s.batch_timeout > 0"
        "  OR json_extract(l.limits, '$.idle_timeout') > 0"
        "  OR json_extract(l.limits, '$.max_session_lifetime') > 0"
        "  OR s.scaling_group IN (SELECT name FROM sgroups WHERE json_valid(opts)"
        "   AND json_extract(opts, '$.idle_checkers.utilization') IS NOT NULL))");
    while (stmt && count < ENDS_MAX && sqlite3_step(stmt) == SQLITE_ROW) {
        const char *reason = s_verdict(self, stmt, rules, rule_count, now);
        if (reason) {
            snprintf(ends[count].session_id, sizeof ends[count].session_id, "%s",
                     (const char *) sqlite3_column_text(stmt, 0));
            ends[count++].reason = reason;
        }
    }
    if (stmt)
        sqlite3_reset(stmt);
    zhashx_destroy(&self->by_session);
    for (size_t i = 0; i < count; i++) {
        bus_log_notice("session ended session=%s reason=%s", ends[i].session_id,
                       ends[i].reason);
        self->end(self->arg, ends[i].session_id, ends[i].reason);
    }
    free(ends);
    //  Forget kernels that stopped reporting and uses long past.
    zlistx_t *stale = zlistx_new();
    for (use_t *use = zhashx_first(self->uses); use && stale;
         use = zhashx_next(self->uses))
        if (use->count && use->samples[(use->head + use->count - 1) % SAMPLES_MAX].at_us <
                              now - FORGET_US)
            zlistx_add_end(stale, (void *) zhashx_cursor(self->uses));
    for (void *key = stale ? zlistx_first(stale) : NULL; key; key = zlistx_next(stale))
        zhashx_delete(self->uses, key);
    zlistx_purge(stale);
    for (void *used = zhashx_first(self->activity); used && stale;
         used = zhashx_next(self->activity))
        if ((int64_t) (intptr_t) used < now - ACTIVITY_KEEP)
            zlistx_add_end(stale, (void *) zhashx_cursor(self->activity));
    for (void *key = stale ? zlistx_first(stale) : NULL; key; key = zlistx_next(stale))
        zhashx_delete(self->activity, key);
    zlistx_destroy(&stale);
    return (int) count;
}

static void
s_on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    sched_reclaim_check(arg, bus_clock_wall_us());
}

sched_reclaim_t *
sched_reclaim_new(bus_node_t *node, int period_ms, sched_reclaim_end_fn *end, void *arg)
{
    sched_reclaim_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->node = node;
    self->db = bus_node_db(node);
    self->end = end;
    self->arg = arg;
    self->activity = zhashx_new();
    self->uses = zhashx_new();
    if (self->uses)
        zhashx_set_destructor(self->uses, (zhashx_destructor_fn *) zstr_free);
    self->timer = event_new(bus_node_base(node), -1, EV_PERSIST, s_on_timer, self);
    struct timeval tv = {period_ms / 1000, (period_ms % 1000) * 1000};
    if (!self->activity || !self->uses || !self->timer ||
        event_add(self->timer, &tv) != 0 ||
        bus_node_subscribe(node, PROTO_SESSION_ACTIVITY, s_on_activity, self) != 0 ||
        bus_node_subscribe(node, PROTO_KERNEL_STATS, s_on_stats, self) != 0)
        sched_reclaim_destroy(&self);
    return self;
}

void
sched_reclaim_destroy(sched_reclaim_t **self_p)
{
    assert(self_p);
    sched_reclaim_t *self = *self_p;
    if (!self)
        return;
    if (self->timer)
        event_free(self->timer);
    zhashx_destroy(&self->activity);
    zhashx_destroy(&self->uses);
    free(self);
    *self_p = NULL;
}
