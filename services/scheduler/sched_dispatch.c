/*  =========================================================================
    sched_dispatch - one scheduling pass: snapshot, decide, write back

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

struct _sched_dispatch_t {
    bus_db_t *db;
    int64_t retry_us;
    size_t window;
    zhashx_t *cursors;      //  "<group>\n<architecture>" -> round-robin cursor + 1
    bool preparing;         //  placements are written PREPARING, not SCHEDULED
    bool more;              //  the last run placed a whole window somewhere
    int64_t heard_since_us; //  places only on agents heard from since (wall µs)
};

sched_dispatch_t *
sched_dispatch_new(bus_db_t *db, int64_t retry_us, size_t window)
{
    sched_dispatch_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->db = db;
    self->retry_us = retry_us;
    self->window = window ? window : SCHED_DISPATCH_WINDOW;
    self->cursors = zhashx_new();
    if (!self->cursors)
        sched_dispatch_destroy(&self);
    return self;
}

void
sched_dispatch_destroy(sched_dispatch_t **self_p)
{
    assert(self_p);
    sched_dispatch_t *self = *self_p;
    if (!self)
        return;
    zhashx_destroy(&self->cursors);
    free(self);
    *self_p = NULL;
}

void
sched_dispatch_set_heard_since(sched_dispatch_t *self, int64_t since_us)
{
    assert(self);
    self->heard_since_us = since_us;
}

void
sched_dispatch_set_preparing(sched_dispatch_t *self, bool preparing)
{
    assert(self);
    self->preparing = preparing;
}

//  The kernels a pass placed so far: a growable array.
typedef struct {
    sched_assignment_t *items;
    size_t count, max;
} placed_t;

//  A new zeroed assignment at the end of placed; NULL when out of memory.
static sched_assignment_t *
s_append(placed_t *placed)
{
    if (placed->count == placed->max) {
        size_t max = placed->max ? placed->max * 2 : 64;
        sched_assignment_t *grown = realloc(placed->items, max * sizeof *grown);
        if (!grown)
            return NULL;
        placed->items = grown;
        placed->max = max;
    }
    sched_assignment_t *a = &placed->items[placed->count++];
    memset(a, 0, sizeof *a);
    return a;
}

//  Appends the kernels of a placed session to placed and records them.
//  A session of one kernel has its main kernel, which the snapshot read;
//  a cluster's kernels are read here.
static int
s_placed(sched_dispatch_t *self,
         const sched_db_snapshot_t *snapshot,
         const sched_pending_t *p,
         const sched_pending_extra_t *extra,
         int64_t now_us,
         placed_t *placed)
{
    if (p->kernel_count == 1 && *extra->kernel_id) {
        sched_assignment_t *a = s_append(placed);
        if (!a)
            return -1;
        snprintf(a->kernel_id, sizeof a->kernel_id, "%s", extra->kernel_id);
        snprintf(a->session_id, sizeof a->session_id, "%s", p->session_id);
        snprintf(a->agent_id, sizeof a->agent_id, "%s",
                 snapshot->agents[p->agents[0]].id);
        snprintf(a->cluster_role, sizeof a->cluster_role, "main");
        a->cluster_idx = 1;
        a->first = true;
        return sched_db_ledger_assign(self->db, p->session_id, a->kernel_id, a->agent_id,
                                      now_us, self->preparing);
    }
    sched_db_kernel_t kernels[SCHED_CLUSTER_MAX];
    int found = sched_db_kernels_of_session(
        self->db, p->session_id, kernels,
        p->kernel_count < SCHED_CLUSTER_MAX ? p->kernel_count : SCHED_CLUSTER_MAX);
    if (found < 0)
        return -1;
    int rc = 0;
    uint32_t k = 0;
    while (rc == 0 && k < (uint32_t) found) {
        sched_assignment_t *a = s_append(placed);
        if (!a) {
            rc = -1;
            break;
        }
        snprintf(a->kernel_id, sizeof a->kernel_id, "%.*s", (int) sizeof a->kernel_id - 1,
                 kernels[k].id);
        snprintf(a->session_id, sizeof a->session_id, "%s", p->session_id);
        snprintf(a->agent_id, sizeof a->agent_id, "%s",
                 snapshot->agents[p->agents[k]].id);
        snprintf(a->cluster_role, sizeof a->cluster_role, "%.*s",
                 (int) sizeof a->cluster_role - 1, kernels[k].cluster_role);
        a->cluster_idx = kernels[k].cluster_idx;
        a->first = k == 0;
        k++;
    }
    if (rc != 0 || k != p->kernel_count)
        return -1; //  a kernel row is missing: the schema was changed under us
    for (size_t i = placed->count - k; i < placed->count; i++)
        if (sched_db_ledger_assign(self->db, p->session_id, placed->items[i].kernel_id,
                                   placed->items[i].agent_id, now_us,
                                   self->preparing) != 0)
            return -1;
    return 0;
}

//  Appends to msg (size bytes) the slots short for p on the agent closest
//  to fitting it: "cuda.shares: asked 0.6, free 0.5 on the best agent".
static void
s_explain(const sched_db_snapshot_t *snapshot,
          const sched_pass_t *pass,
          const sched_pending_t *p,
          char *msg,
          size_t size)
{
    sched_short_t shorts[SCHED_DISPATCH_SHORT_MAX];
    size_t count = sched_pass_explain(pass, p, shorts, SCHED_DISPATCH_SHORT_MAX);
    for (size_t i = 0; i < count; i++) {
        const char *name = snapshot->slot_names[shorts[i].slot];
        bus_slots_unit_t unit = bus_slots_unit(name);
        if (unit == BUS_SLOTS_UNKNOWN)
            unit = BUS_SLOTS_COUNT;
        char asked[BUS_SLOTS_VALUE_MAX], free_text[BUS_SLOTS_VALUE_MAX];
        bus_slots_format_value(unit, &(bus_slots_value_t){false, shorts[i].asked}, asked);
        bus_slots_format_value(unit, &(bus_slots_value_t){false, shorts[i].free},
                               free_text);
        size_t used = strlen(msg);
        snprintf(msg + used, size - used, "%s%s: asked %s, free %s on the best agent",
                 i ? "; " : ": ", name, asked, free_text);
    }
}

//  Records a failed try of a session left PENDING: retries, the
//  head-of-line counter and status_data.scheduler.
static void
s_tried(sched_dispatch_t *self,
        const sched_db_snapshot_t *snapshot,
        const sched_pass_t *pass,
        sched_quota_t *quota,
        const sched_pending_t *p,
        const sched_pending_extra_t *extra,
        int64_t now_us)
{
    sched_verdict_t verdict;
    bool admitted = sched_quota_check(quota, p, &verdict);
    char msg[SCHED_DISPATCH_MSG_MAX];
    const char *info = "no-available-instances";
    if (p->outcome == SCHED_OUTCOME_QUOTA || !admitted) {
        info = "predicate-checks-failed";
        snprintf(msg, sizeof msg, "%s",
                 verdict.failed_count ? verdict.failed[0].msg : "quota exceeded");
    } else if (p->outcome == SCHED_OUTCOME_RESERVED)
        snprintf(msg, sizeof msg,
                 "The agents with room are held for a session that waited longer");
    else {
        snprintf(msg, sizeof msg,
                 "No agent of resource group %s has room for the session now",
                 snapshot->group);
        s_explain(snapshot, pass, p, msg, sizeof msg);
    }
    char *data = sched_quota_status_data(&verdict, msg, extra->retries + 1, now_us);
    if (!sched_db_sessions_tried(self->db, p->session_id, extra->retries + 1, p->skipped,
                                 now_us, info, data))
        bus_log_warning("cannot record a try of session=%s", p->session_id);
    free(data);
}

//  One group's pass; appends its placements.
static void
s_group(sched_dispatch_t *self,
        const char *group,
        const char *architecture,
        int64_t now_us,
        placed_t *placed)
{
    sched_db_snapshot_t *snapshot = sched_db_snapshot_load(
        self->db, group, architecture, now_us, self->heard_since_us, self->window);
    if (!snapshot) {
        bus_log_error("cannot read the pending sessions of resource group %s", group);
        return;
    }
    if (snapshot->pending_count == 0) {
        sched_db_snapshot_destroy(&snapshot);
        return;
    }
    char cursor_key[128];
    snprintf(cursor_key, sizeof cursor_key, "%s\n%s", group, architecture);
    uint32_t cursor = (uint32_t) (uintptr_t) zhashx_lookup(self->cursors, cursor_key);
    cursor = cursor ? cursor - 1 : 0;
    sched_quota_t quota = {snapshot->scopes, snapshot->scope_count, snapshot->slot_names,
                           snapshot->slot_count};
    sched_pass_t pass = {.rules = &snapshot->rules,
                         .slot_count = snapshot->slot_count,
                         .agents = snapshot->agents,
                         .agent_count = snapshot->agent_count,
                         .owners = snapshot->owners,
                         .owner_count = snapshot->owner_count,
                         .pending = snapshot->pending,
                         .pending_count = snapshot->pending_count,
                         .now_us = now_us,
                         .rr_cursor = &cursor,
                         .admit = sched_quota_admit_hook,
                         .charge = sched_quota_charge_hook,
                         .arg = &quota,
                         .spread_counts = snapshot->spread_counts,
                         .spread_groups = snapshot->spread_groups};
    size_t sessions_placed = sched_pass_run(&pass);
    zhashx_update(self->cursors, cursor_key, (void *) (uintptr_t) (cursor + 1));
    if (bus_db_begin(self->db) != 0) {
        sched_db_snapshot_destroy(&snapshot);
        return;
    }
    size_t first = placed->count;
    bool failed = false;
    //  The placements, then the quota check again for those left, on
    //  usage that now includes what this pass placed.
    for (size_t i = 0; i < snapshot->pending_count && !failed; i++) {
        sched_pending_t *p = &snapshot->pending[i];
        if (p->outcome == SCHED_OUTCOME_PLACED)
            failed =
                s_placed(self, snapshot, p, &snapshot->extra[i], now_us, placed) != 0;
    }
    for (size_t i = 0; i < snapshot->pending_count && !failed; i++) {
        sched_pending_t *p = &snapshot->pending[i];
        if (p->outcome != SCHED_OUTCOME_PLACED && p->outcome != SCHED_OUTCOME_NONE &&
            now_us - snapshot->extra[i].tried_at >= self->retry_us)
            s_tried(self, snapshot, &pass, &quota, p, &snapshot->extra[i], now_us);
    }
    if (failed || bus_db_commit(self->db) != 0) {
        if (failed)
            bus_db_rollback(self->db);
        bus_log_error("cannot record the placements in resource group %s", group);
        placed->count = first;
    } else if (sessions_placed) {
        self->more = self->more || sessions_placed == self->window;
        bus_log_info("pass placed %zu of %zu pending sessions in resource group %s",
                     sessions_placed, snapshot->pending_count, group);
    }
    sched_db_snapshot_destroy(&snapshot);
}

bool
sched_dispatch_more(sched_dispatch_t *self)
{
    assert(self);
    return self->more;
}

sched_assignment_t *
sched_dispatch_run(sched_dispatch_t *self, int64_t now_us, size_t *count)
{
    *count = 0;
    self->more = false;
    //  The groups that have agents: pending sessions elsewhere have nowhere
    //  to go (and keep their last status_data).
    zlistx_t *groups = sched_db_agents_groups(self->db);
    if (!groups)
        return NULL;
    placed_t placed = {NULL, 0, 0};
    for (char *item = groups ? zlistx_first(groups) : NULL; item;
         item = zlistx_next(groups)) {
        char *newline = strchr(item, '\n');
        if (!newline)
            continue;
        *newline = 0;
        s_group(self, item, newline + 1, now_us, &placed);
        *newline = '\n';
    }
    zlistx_destroy(&groups);
    *count = placed.count;
    if (placed.count == 0) {
        free(placed.items);
        placed.items = NULL;
    }
    return placed.items;
}
