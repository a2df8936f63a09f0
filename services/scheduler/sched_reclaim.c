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
    char session_id[64];
    int64_t cpus_milli = 0;
    if (!sched_db_kernels_use(self->db, kernel_id, session_id, sizeof session_id,
                              &cpus_milli))
        return NULL;
    use_t *use = calloc(1, sizeof *use);
    if (use) {
        snprintf(use->session_id, sizeof use->session_id, "%s", session_id);
        use->cpus_milli = cpus_milli;
    }
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

//  The rules read so far (s_rule).
typedef struct {
    rule_t *rules;
    size_t count, max;
} rules_t;

//  One group's utilization rule, kept when it says what to check.
static bool
s_rule(void *arg, const char *group, const char *text)
{
    rules_t *rules = arg;
    if (rules->count >= rules->max)
        return false;
    json_t *rule = json_loads(text, 0, NULL);
    json_t *thresholds = json_object_get(rule, "resource_thresholds");
    json_t *window = json_object_get(rule, "time_window");
    rule_t *r = &rules->rules[rules->count];
    snprintf(r->group, sizeof r->group, "%s", group);
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
        rules->count++;
    else
        bus_log_warning("resource group %s: idle_checkers.utilization needs a"
                        " time_window and a cpu_util or mem threshold",
                        r->group);
    json_decref(rule);
    return rules->count < rules->max;
}

//  The utilization rules of the groups that have one.
static size_t
s_rules(sched_reclaim_t *self, rule_t *rules, size_t max)
{
    rules_t found = {rules, 0, max};
    if (max)
        sched_db_sgroups_utilization(self->db, s_rule, &found);
    return found.count;
}

typedef struct {
    char session_id[64];
    const char *reason;
} end_t;

//  The sessions a check ends so far, and why (s_end_*).
typedef struct {
    sched_reclaim_t *self;
    end_t *ends;
    size_t count;
    const char *reason; //  of the ids the current query gives
    const rule_t *rules;
    size_t rule_count;
    int64_t now;
} ending_t;

//  A session the current query says ends for ending->reason.
static bool
s_end_id(void *arg, const char *session_id)
{
    ending_t *ending = arg;
    if (ending->count >= ENDS_MAX)
        return false;
    snprintf(ending->ends[ending->count].session_id,
             sizeof ending->ends[ending->count].session_id, "%s", session_id);
    ending->ends[ending->count++].reason = ending->reason;
    return ending->count < ENDS_MAX;
}

//  A RUNNING session with a rule that applies: why it ends, if it does.
static const char *
s_verdict(sched_reclaim_t *self,
          const sched_db_running_t *row,
          const rule_t *rules,
          size_t rule_count,
          int64_t now)
{
    if (row->lifetime > 0 && now - row->created_at > row->lifetime * 1000000)
        return "idle-session-lifetime";
    if (row->batch)
        return row->batch_timeout > 0 &&
                       now - row->running_since > row->batch_timeout * 1000000
                   ? "exec-timeout"
                   : NULL;
    int64_t used = (int64_t) (intptr_t) zhashx_lookup(self->activity, row->id);
    int64_t since = used > row->running_since ? used : row->running_since;
    if (row->idle_timeout > 0 && now - since > row->idle_timeout * 1000000)
        return "idle-timeout";
    for (size_t i = 0; i < rule_count; i++)
        if (strcmp(rules[i].group, row->scaling_group) == 0 &&
            now - row->running_since > rules[i].grace_us &&
            s_underused(self, row->id, &rules[i], now))
            return "idle-utilization";
    return NULL;
}

//  A RUNNING session some rule applies to: ends when its verdict says so.
static bool
s_end_running(void *arg, const sched_db_running_t *row)
{
    ending_t *ending = arg;
    if (ending->count >= ENDS_MAX)
        return false;
    const char *reason =
        s_verdict(ending->self, row, ending->rules, ending->rule_count, ending->now);
    if (reason) {
        snprintf(ending->ends[ending->count].session_id,
                 sizeof ending->ends[ending->count].session_id, "%s", row->id);
        ending->ends[ending->count++].reason = reason;
    }
    return ending->count < ENDS_MAX;
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
    ending_t ending = {self, ends, 0, "pending-timeout", rules, rule_count, now};
    sched_db_sgroups_pending_timeouts(self->db, now, s_end_id, &ending);
    ending.reason = "dependency-failed";
    sched_db_sessions_failed_dependencies(self->db, s_end_id, &ending);
    //  Only the sessions some rule applies to are read.
    sched_db_sessions_reclaimable(self->db, s_end_running, &ending);
    size_t count = ending.count;
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

sched_reclaim_t *
sched_reclaim_new(bus_node_t *node, sched_reclaim_end_fn *end, void *arg)
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
    if (!self->activity || !self->uses ||
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
    zhashx_destroy(&self->activity);
    zhashx_destroy(&self->uses);
    free(self);
    *self_p = NULL;
}
