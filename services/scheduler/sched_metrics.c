/*  =========================================================================
    sched_metrics - the scheduler's lines of GET /metrics

    Every resource group seen (in a session not yet ended, or among the
    agents) gets a sample of every session status, agent status and of the
    pending queue, 0 where there is none, so that a series does not vanish
    when its count drops to zero and alerts can compare with 0.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

//  The statuses of the sessions sched_db_metrics_sessions counts.
static const char *const s_session_statuses[] = {
    "PENDING",    "SCHEDULED",        "PULLING",     "PREPARING", "RUNNING",
    "RESTARTING", "RUNNING_DEGRADED", "TERMINATING", "ERROR"};
#define SESSION_STATUSES (sizeof s_session_statuses / sizeof s_session_statuses[0])

static const char *const s_agent_statuses[] = {"ALIVE", "LOST", "TERMINATED"};
#define AGENT_STATUSES (sizeof s_agent_statuses / sizeof s_agent_statuses[0])

struct _sched_metrics_t {
    bus_node_t *node;
    bus_metrics_hist_t pass_seconds;
    uint64_t placements;
};

//  One scrape's counts per resource group.
typedef struct {
    char name[SCHED_METRICS_NAME_MAX];
    int64_t sessions[SESSION_STATUSES];
    int64_t agents[AGENT_STATUSES];
    int64_t pending;
    int64_t oldest_us; //  created_at of the oldest PENDING session; 0: none
} group_t;

typedef struct {
    group_t *groups;
    size_t count;
    bool truncated;
} scrape_t;

static group_t *
s_group(scrape_t *scrape, const char *name)
{
    if (!name)
        name = "";
    for (size_t i = 0; i < scrape->count; i++)
        if (strcmp(scrape->groups[i].name, name) == 0)
            return &scrape->groups[i];
    if (scrape->count == SCHED_METRICS_GROUPS_MAX) {
        scrape->truncated = true;
        return NULL;
    }
    group_t *group = &scrape->groups[scrape->count++];
    memset(group, 0, sizeof *group);
    snprintf(group->name, sizeof group->name, "%s", name);
    return group;
}

static size_t
s_index(const char *const *names, size_t count, const char *name)
{
    for (size_t i = 0; name && i < count; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return count;
}

static void
s_on_session(void *arg, const char *status, const char *group_name, int64_t n, int64_t y)
{
    (void) y;
    group_t *group = s_group(arg, group_name);
    size_t i = s_index(s_session_statuses, SESSION_STATUSES, status);
    if (group && i < SESSION_STATUSES)
        group->sessions[i] = n;
}

static void
s_on_pending(
    void *arg, const char *group_name, const char *unused, int64_t n, int64_t oldest)
{
    (void) unused;
    group_t *group = s_group(arg, group_name);
    if (group) {
        group->pending = n;
        group->oldest_us = oldest;
    }
}

static void
s_on_agents(void *arg, const char *status, const char *group_name, int64_t n, int64_t y)
{
    (void) y;
    group_t *group = s_group(arg, group_name);
    size_t i = s_index(s_agent_statuses, AGENT_STATUSES, status);
    if (group && i < AGENT_STATUSES)
        group->agents[i] = n;
}

//  An agent's slot amount in the unit /metrics uses: bytes, or whole counts
//  (cpu 0.5 is stored as 500).
static double
s_slot_amount(const char *slot, int64_t amount)
{
    return bus_slots_unit(slot) == BUS_SLOTS_BYTES
               ? (double) amount
               : (double) amount / BUS_SLOTS_COUNT_SCALE;
}

static void
s_on_slot(void *arg, const char *agent, const char *slot, int64_t capacity, int64_t used)
{
    struct evbuffer *out = arg;
    const char *kinds[] = {"capacity", "occupied"};
    int64_t amounts[] = {capacity, used};
    for (size_t i = 0; i < 2; i++) {
        char labels[BUS_METRICS_LABELS_MAX] = "";
        bus_metrics_label(labels, sizeof labels, "agent", agent);
        bus_metrics_label(labels, sizeof labels, "slot", slot);
        bus_metrics_label(labels, sizeof labels, "kind", kinds[i]);
        bus_metrics_sample(out, "backplane_agent_slots", labels,
                           s_slot_amount(slot ? slot : "", amounts[i]));
    }
}

//  "resource_group" plus one more label (key NULL: none).
static void
s_labels(char *labels, const char *group, const char *key, const char *value)
{
    labels[0] = 0;
    if (key)
        bus_metrics_label(labels, BUS_METRICS_LABELS_MAX, key, value);
    bus_metrics_label(labels, BUS_METRICS_LABELS_MAX, "resource_group", group);
}

static void
s_write_groups(const scrape_t *scrape, struct evbuffer *out)
{
    char labels[BUS_METRICS_LABELS_MAX];
    int64_t now_us = bus_clock_wall_us();
    bus_metrics_family(out, "backplane_sessions", "gauge",
                       "sessions not yet ended, by status and resource group");
    for (size_t g = 0; g < scrape->count; g++)
        for (size_t s = 0; s < SESSION_STATUSES; s++) {
            s_labels(labels, scrape->groups[g].name, "status", s_session_statuses[s]);
            bus_metrics_sample(out, "backplane_sessions", labels,
                               (double) scrape->groups[g].sessions[s]);
        }
    bus_metrics_family(out, "backplane_sessions_pending", "gauge",
                       "sessions waiting in the PENDING queue, by resource group");
    for (size_t g = 0; g < scrape->count; g++) {
        s_labels(labels, scrape->groups[g].name, NULL, NULL);
        bus_metrics_sample(out, "backplane_sessions_pending", labels,
                           (double) scrape->groups[g].pending);
    }
    bus_metrics_family(out, "backplane_sessions_pending_oldest_seconds", "gauge",
                       "how long the oldest PENDING session has waited (0: none waits)");
    for (size_t g = 0; g < scrape->count; g++) {
        const group_t *group = &scrape->groups[g];
        double waited = group->pending && group->oldest_us && now_us > group->oldest_us
                            ? (double) (now_us - group->oldest_us) / 1e6
                            : 0;
        s_labels(labels, group->name, NULL, NULL);
        bus_metrics_sample(out, "backplane_sessions_pending_oldest_seconds", labels,
                           waited);
    }
    bus_metrics_family(out, "backplane_agents", "gauge",
                       "agents by status and resource group");
    for (size_t g = 0; g < scrape->count; g++)
        for (size_t s = 0; s < AGENT_STATUSES; s++) {
            s_labels(labels, scrape->groups[g].name, "status", s_agent_statuses[s]);
            bus_metrics_sample(out, "backplane_agents", labels,
                               (double) scrape->groups[g].agents[s]);
        }
}

static void
s_write(void *arg, struct evbuffer *out)
{
    sched_metrics_t *self = arg;
    bus_db_t *db = bus_node_db(self->node);
    scrape_t scrape = {calloc(SCHED_METRICS_GROUPS_MAX, sizeof(group_t)), 0, false};
    if (scrape.groups) {
        sched_db_metrics_sessions(db, s_on_session, &scrape);
        sched_db_metrics_pending(db, s_on_pending, &scrape);
        sched_db_metrics_agents(db, s_on_agents, &scrape);
        if (scrape.truncated)
            bus_log_warning("metrics list the first %d resource groups only",
                            SCHED_METRICS_GROUPS_MAX);
        s_write_groups(&scrape, out);
        free(scrape.groups);
    }
    bus_metrics_family(out, "backplane_agent_slots", "gauge",
                       "each agent's capacity and occupied amount per resource slot "
                       "(bytes, or whole units for counts such as cpu)");
    sched_db_metrics_slots(db, s_on_slot, out);
    bus_metrics_family(out, "backplane_scheduler_pass_duration_seconds", "histogram",
                       "how long one scheduling pass took");
    bus_metrics_hist_write(&self->pass_seconds, out,
                           "backplane_scheduler_pass_duration_seconds", NULL);
    bus_metrics_family(out, "backplane_scheduler_placements_total", "counter",
                       "sessions the scheduling passes placed on agents");
    bus_metrics_sample(out, "backplane_scheduler_placements_total", NULL,
                       (double) self->placements);
}

sched_metrics_t *
sched_metrics_new(bus_node_t *node)
{
    assert(node);
    sched_metrics_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->node = node;
    bus_metrics_hist_init(&self->pass_seconds, bus_metrics_seconds_buckets,
                          BUS_METRICS_SECONDS_BUCKETS);
    bus_node_set_metrics(node, s_write, self);
    return self;
}

void
sched_metrics_destroy(sched_metrics_t **self_p)
{
    assert(self_p);
    sched_metrics_t *self = *self_p;
    if (self) {
        bus_node_set_metrics(self->node, NULL, NULL);
        free(self);
        *self_p = NULL;
    }
}

void
sched_metrics_pass(sched_metrics_t *self, double seconds, size_t sessions)
{
    assert(self);
    bus_metrics_hist_observe(&self->pass_seconds, seconds);
    self->placements += sessions;
}
