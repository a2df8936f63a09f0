/*  =========================================================================
    acct_query - windows over the usage records: usage, bins, last figures

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "acct_classes.h"

#define US_PER_S 1e6
#define NS_PER_S 1e9

//  A usage answer being built.
typedef struct {
    bus_db_t *db;
    const proto_accounting_usage_req_t *req;
    int64_t now;
    acct_query_by_t by;
    void **owned; //  the answer's arena: every string of the groups and kernels
    proto_accounting_group_t *groups; //  adopted by the answer once built
    size_t count, size;
    zhashx_t *index;    //  group key -> index + 1
    zhashx_t *sessions; //  "group key \x1f session id" seen
    size_t kernels_max; //  the most an answer may count
    size_t kernels;     //  counted so far
    int rc;
    bus_error_t *err;
} usage_t;

//  A copy of text ("" for NULL) in the answer's arena, freed by its clear.
static const char *
s_dup(void **owned, const char *text)
{
    return proto_arena_strdup(owned, text ? text : "");
}

//  Hands heap memory to the answer's arena; when even that fails, the
//  answer cannot be freed whole and its memory is let go of loudly.
static void
s_adopt(void **owned, void *memory)
{
    if (memory && proto_arena_adopt(owned, memory) != 0)
        bus_log_error("out of memory: an accounting answer is leaked");
}

//  The slots JSON of a record as a proto map, in the answer's arena.
static void
s_slots_out(void **owned, const char *json, const proto_kv_t **slots_p, size_t *count_p)
{
    *slots_p = NULL;
    *count_p = 0;
    json_t *object = json_loads(json, 0, NULL);
    size_t size = object ? json_object_size(object) : 0;
    proto_kv_t *slots = size ? proto_arena_alloc(owned, size * sizeof *slots) : NULL;
    if (slots) {
        const char *key;
        json_t *value;
        size_t count = 0;
        json_object_foreach(object, key, value)
        {
            if (!json_is_string(value) || count == size)
                continue;
            slots[count].key = proto_arena_strdup(owned, key);
            slots[count].value = proto_arena_strdup(owned, json_string_value(value));
            count++;
        }
        *slots_p = slots;
        *count_p = count;
    }
    json_decref(object);
}

//  What record held and used within [from, to).
static int
s_figures(bus_db_t *db,
          const acct_record_t *record,
          int64_t from,
          int64_t to,
          int64_t now,
          proto_accounting_figures_t *out)
{
    proto_accounting_figures_init(out);
    double held = acct_record_held_s(record, from, to, now);
    out->held_s = held;
    out->cpu_held_s = record->cpu * held;
    out->mem_held_byte_s = record->mem * held;
    out->accel_device_s = record->accel_device * held;
    out->accel_share_s = record->accel_share * held;
    out->mem_peak_bytes = record->mem_peak_bytes;
    if (acct_record_inside(record, from, to, now)) {
        out->cpu_used_s = (double) record->cpu_ns / NS_PER_S;
        out->mem_used_byte_s = record->mem_byte_s;
        out->io_read_bytes = record->io_read;
        out->io_write_bytes = record->io_write;
        out->net_rx_bytes = record->net_rx;
        out->net_tx_bytes = record->net_tx;
        return 0;
    }
    acct_db_sums_t sums;
    if (acct_db_sums_window(db, record->kernel_id, from, to, &sums) != 0)
        return -1;
    out->cpu_used_s = (double) sums.cpu_ns / NS_PER_S;
    out->mem_used_byte_s = sums.mem_byte_s;
    out->io_read_bytes = sums.io_read;
    out->io_write_bytes = sums.io_write;
    out->net_rx_bytes = sums.net_rx;
    out->net_tx_bytes = sums.net_tx;
    return 0;
}

//  ---------------------------------------------------------------------------
//  The groupings, one table: the name a request gives, the record's key.

static const struct {
    const char *name;
    acct_query_by_t by;
} s_groupings[] = {
    {"project", ACCT_BY_PROJECT},
    {"user", ACCT_BY_USER},
    {"session", ACCT_BY_SESSION},
    {"domain", ACCT_BY_DOMAIN},
    {"resource_group", ACCT_BY_RESOURCE_GROUP},
    {"image", ACCT_BY_IMAGE},
};

int
acct_query_group_by(const char *name)
{
    for (size_t i = 0; name && i < sizeof s_groupings / sizeof s_groupings[0]; i++)
        if (strcmp(s_groupings[i].name, name) == 0)
            return (int) s_groupings[i].by;
    return -1;
}

const char *
acct_query_group_key(const proto_accounting_group_t *group, acct_query_by_t by)
{
    assert(group);
    const char *key = by == ACCT_BY_PROJECT          ? group->group_id
                      : by == ACCT_BY_USER           ? group->user_uuid
                      : by == ACCT_BY_SESSION        ? group->session_id
                      : by == ACCT_BY_DOMAIN         ? group->domain_name
                      : by == ACCT_BY_RESOURCE_GROUP ? group->scaling_group
                                                     : group->image;
    return key ? key : "";
}

//  The key of record under self's grouping.
static const char *
s_record_key(const usage_t *self, const acct_record_t *r)
{
    switch (self->by) {
        case ACCT_BY_PROJECT:
            return r->group_id;
        case ACCT_BY_USER:
            return r->user_uuid;
        case ACCT_BY_SESSION:
            return r->session_id;
        case ACCT_BY_DOMAIN:
            return r->domain_name;
        case ACCT_BY_RESOURCE_GROUP:
            return r->scaling_group;
        case ACCT_BY_IMAGE:
            return r->image;
    }
    return "";
}

//  The group record belongs to, made when new. NULL when out of memory.
static proto_accounting_group_t *
s_group_of(usage_t *self, const acct_record_t *record, const char **key_p)
{
    const char *key = s_record_key(self, record);
    *key_p = key;
    size_t found = (size_t) (uintptr_t) zhashx_lookup(self->index, key);
    if (found)
        return &self->groups[found - 1];
    if (self->count == self->size) {
        size_t size = self->size ? self->size * 2 : 16;
        proto_accounting_group_t *groups = realloc(self->groups, size * sizeof *groups);
        if (!groups)
            return NULL;
        self->groups = groups;
        self->size = size;
    }
    proto_accounting_group_t *group = &self->groups[self->count++];
    proto_accounting_group_init(group);
    //  A group's project and domain are its first kernel's; a grouping that
    //  spans projects names none, one that spans domains only the domain
    //  asked for.
    bool one_project = self->by == ACCT_BY_PROJECT || self->by == ACCT_BY_USER ||
                       self->by == ACCT_BY_SESSION;
    bool one_domain = one_project || self->by == ACCT_BY_DOMAIN;
    group->group_id = s_dup(self->owned, one_project ? record->group_id : "");
    group->domain_name =
        s_dup(self->owned, one_domain ? record->domain_name : self->req->domain_name);
    if (self->by == ACCT_BY_USER || self->by == ACCT_BY_SESSION) {
        group->user_uuid = s_dup(self->owned, record->user_uuid);
        group->access_key = s_dup(self->owned, record->access_key);
    }
    if (self->by == ACCT_BY_SESSION) {
        group->session_id = s_dup(self->owned, record->session_id);
        group->session_name = s_dup(self->owned, record->session_name);
    }
    if (self->by == ACCT_BY_RESOURCE_GROUP)
        group->scaling_group = s_dup(self->owned, record->scaling_group);
    if (self->by == ACCT_BY_IMAGE)
        group->image = s_dup(self->owned, record->image);
    zhashx_insert(self->index, key, (void *) (uintptr_t) self->count);
    return group;
}

//  Appends record as a kernel of group. 0 or -1.
static int
s_add_kernel(void **owned,
             proto_accounting_group_t *group,
             const acct_record_t *r,
             const proto_accounting_figures_t *figures)
{
    //  The array is ours (heap) until the answer adopts it (s_adopt).
    proto_accounting_kernel_t *kernels =
        realloc((void *) group->kernels, (group->kernels_count + 1) * sizeof *kernels);
    if (!kernels)
        return -1;
    group->kernels = kernels;
    proto_accounting_kernel_t *k = &kernels[group->kernels_count++];
    proto_accounting_kernel_init(k);
    k->kernel_id = s_dup(owned, r->kernel_id);
    k->session_id = s_dup(owned, r->session_id);
    k->session_name = s_dup(owned, r->session_name);
    k->access_key = s_dup(owned, r->access_key);
    k->user_uuid = s_dup(owned, r->user_uuid);
    k->group_id = s_dup(owned, r->group_id);
    k->domain_name = s_dup(owned, r->domain_name);
    k->scaling_group = s_dup(owned, r->scaling_group);
    k->agent_id = s_dup(owned, r->agent_id);
    k->container_id = s_dup(owned, r->container_id);
    k->image = s_dup(owned, r->image);
    k->status = s_dup(owned, r->status);
    k->status_info = s_dup(owned, r->status_info);
    s_slots_out(owned, r->slots, &k->slots, &k->slots_count);
    k->created_at = r->created_at;
    k->started_at = r->started_at;
    k->ended_at = r->ended_at == ACCT_OPEN ? 0 : r->ended_at;
    k->usage = *figures;
    return 0;
}

static int
s_on_usage_record(void *arg, const acct_record_t *record)
{
    usage_t *self = arg;
    proto_accounting_figures_t figures;
    if (s_figures(self->db, record, self->req->from, self->req->to, self->now,
                  &figures) != 0) {
        self->rc =
            bus_error_set(self->err, BUS_STATUS_INTERNAL, "cannot read the samples");
        return -1;
    }
    const char *key;
    proto_accounting_group_t *group = s_group_of(self, record, &key);
    if (!group || (self->req->with_kernels &&
                   s_add_kernel(self->owned, group, record, &figures) != 0)) {
        self->rc = bus_error_set(self->err, BUS_STATUS_INTERNAL, "out of memory");
        return -1;
    }
    self->kernels++;
    group->kernel_count++;
    char seen[ACCT_IMAGE_MAX + ACCT_ID_MAX + 2];
    snprintf(seen, sizeof seen, "%s\x1f%s", key, record->session_id);
    if (!zhashx_lookup(self->sessions, seen)) {
        zhashx_insert(self->sessions, seen, (void *) 1);
        group->session_count++;
    }
    group->cpu_allocated += record->cpu;
    group->mem_allocated += record->mem;
    group->accel_allocated += record->accel_device + record->accel_share;
    bus_figures_add(&group->usage, &figures);
    return 0;
}

//  Groups in key order: the resource group or image, or else the domain
//  and then the project, user or session.
static int
s_compare_groups(const void *a, const void *b)
{
    const proto_accounting_group_t *x = a, *y = b;
    int c = 0;
    if (x->scaling_group && y->scaling_group)
        c = strcmp(x->scaling_group, y->scaling_group);
    else if (x->image && y->image)
        c = strcmp(x->image, y->image);
    if (c == 0)
        c = strcmp(x->domain_name, y->domain_name);
    if (c == 0 && x->session_id && y->session_id)
        c = strcmp(x->session_id, y->session_id);
    else if (c == 0 && x->user_uuid && y->user_uuid)
        c = strcmp(x->user_uuid, y->user_uuid);
    if (c == 0)
        c = strcmp(x->group_id, y->group_id);
    return c;
}

int
acct_query_usage(bus_db_t *db,
                 const proto_accounting_usage_req_t *req,
                 int64_t now,
                 proto_accounting_usage_rep_t *out,
                 bus_error_t *err)
{
    assert(db && req && out);
    proto_accounting_usage_rep_init(out);
    usage_t self = {.db = db, .req = req, .now = now, .err = err, .owned = &out->owned_};
    const char *by = req->group_by ? req->group_by : "project";
    int which = acct_query_group_by(by);
    if (which < 0)
        return bus_error_set(
            err, BUS_STATUS_INVALID,
            "group_by must be " ACCT_QUERY_GROUP_BY_NAMES ", not \"%.16s\"", by);
    self.by = (acct_query_by_t) which;
    //  Without the kernels an answer is one line per group: a longer
    //  period and more kernels, still bounded.
    self.kernels_max =
        req->with_kernels ? ACCT_QUERY_KERNELS_MAX : ACCT_QUERY_SUMMARY_KERNELS_MAX;
    if (req->to <= req->from)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "the period's end must be after its start");
    if (req->with_kernels && req->to - req->from > ACCT_QUERY_PERIOD_MAX_US)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "the period may not exceed 100 days");
    if (req->to - req->from > ACCT_QUERY_SUMMARY_PERIOD_MAX_US)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "the period may not exceed 366 days");
    if (req->group_ids_count > ACCT_QUERY_GROUPS_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID, "at most %d projects per request",
                             ACCT_QUERY_GROUPS_MAX);
    for (size_t i = 0; i < req->group_ids_count; i++)
        if (!req->group_ids[i] || !*req->group_ids[i])
            return bus_error_set(err, BUS_STATUS_INVALID, "an empty project id");
    self.index = zhashx_new();
    self.sessions = zhashx_new();
    if (!self.index || !self.sessions) {
        zhashx_destroy(&self.index);
        zhashx_destroy(&self.sessions);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    acct_db_scope_t scope = {.domain_name = req->domain_name,
                             .user_uuid = req->user_uuid,
                             .access_key = req->access_key,
                             .from = req->from,
                             .to = req->to};
    size_t rounds = req->group_ids_count ? req->group_ids_count : 1;
    for (size_t i = 0; self.rc == BUS_OK && i < rounds; i++) {
        if (req->group_ids_count) {
            bool again = false; //  a project named twice is counted once
            for (size_t j = 0; j < i; j++)
                again = again || strcmp(req->group_ids[j], req->group_ids[i]) == 0;
            if (again)
                continue;
            scope.group_id = req->group_ids[i];
        }
        int rc = acct_db_records_each(db, &scope, self.kernels_max - self.kernels,
                                      s_on_usage_record, &self, err);
        if (self.rc == BUS_OK)
            self.rc = rc;
    }
    zhashx_destroy(&self.index);
    zhashx_destroy(&self.sessions);
    if (self.count > 1)
        qsort(self.groups, self.count, sizeof *self.groups, s_compare_groups);
    //  The answer owns what was built: each group's kernels and the groups.
    for (size_t i = 0; i < self.count; i++)
        s_adopt(&out->owned_, (void *) self.groups[i].kernels);
    s_adopt(&out->owned_, self.groups);
    out->groups = self.groups;
    out->groups_count = self.count;
    out->from = req->from;
    out->to = req->to;
    if (self.rc != BUS_OK)
        proto_accounting_usage_rep_clear(out);
    return self.rc;
}

//  ---------------------------------------------------------------------------
//  accounting.stats_user

typedef struct {
    bus_db_t *db;
    proto_accounting_bin_t *bins;
    int64_t first, end, now;
    bool each_kernel; //  read each record's used amounts (else all at once)
    int rc;
} bins_t;

//  Adds amounts to the bin holding at (nothing outside the window).
static void
s_bin_used(bins_t *self, int64_t at, const acct_db_sums_t *sums, double part)
{
    if (at < self->first || at >= self->end)
        return;
    proto_accounting_bin_t *bin = &self->bins[(at - self->first) / ACCT_QUERY_BIN_US];
    bin->io_read_bytes += (double) sums->io_read * part;
    bin->io_write_bytes += (double) sums->io_write * part;
    bin->cpu_used_s += (double) sums->cpu_ns / NS_PER_S * part;
}

static int
s_on_sums(void *arg, int64_t at, int64_t span, const acct_db_sums_t *sums)
{
    bins_t *self = arg;
    //  A sample not yet rolled up counts as its hour's bucket will: spread
    //  like it. Put in its own bin, its amounts moved to other bins of the
    //  hour once the roll-up ran (or a recalculation rebuilt the buckets), so
    //  a bin of the past read differently from one minute to the next.
    if (span == 0) {
        at -= at % ACCT_HOUR_US;
        span = ACCT_HOUR_US;
    }
    //  An hour's bucket is spread evenly over its bins in the window (the
    //  current hour's over those that began), so the bins add up.
    int64_t a = at > self->first ? at : self->first;
    int64_t b = at + span < self->end ? at + span : self->end;
    int64_t parts = b > a ? (b - a + ACCT_QUERY_BIN_US - 1) / ACCT_QUERY_BIN_US : 0;
    for (int64_t i = 0; i < parts; i++)
        s_bin_used(self, a + i * ACCT_QUERY_BIN_US, sums, 1.0 / (double) parts);
    return 0;
}

static int
s_on_bins_record(void *arg, const acct_record_t *r)
{
    bins_t *self = arg;
    int64_t start = r->started_at;
    int64_t end = r->ended_at == ACCT_OPEN ? self->now : r->ended_at;
    if (start < self->first)
        start = self->first;
    if (end > self->end)
        end = self->end;
    double gpu = r->accel_device + r->accel_share;
    for (int64_t at = start - (start - self->first) % ACCT_QUERY_BIN_US; at < end;
         at += ACCT_QUERY_BIN_US) {
        proto_accounting_bin_t *bin = &self->bins[(at - self->first) / ACCT_QUERY_BIN_US];
        int64_t a = at > start ? at : start;
        int64_t b = at + ACCT_QUERY_BIN_US < end ? at + ACCT_QUERY_BIN_US : end;
        double held = (double) (b - a) / US_PER_S;
        bin->num_sessions++;
        bin->cpu_allocated += r->cpu;
        bin->mem_allocated += r->mem;
        bin->gpu_allocated += gpu;
        bin->cpu_held_s += r->cpu * held;
        bin->mem_held_byte_s += r->mem * held;
        bin->gpu_held_s += gpu * held;
    }
    if (self->each_kernel && acct_db_sums_each(self->db, r->kernel_id, self->first,
                                               self->end, s_on_sums, self) != 0) {
        self->rc = BUS_STATUS_INTERNAL;
        return -1;
    }
    return 0;
}

//  The 2880 bins ending with the one holding to (0: now) of the records in
//  scope (its window set here), at most max of them; each_kernel: read
//  each record's used amounts, else every kernel's at once. The bins go to
//  *bins_p (the caller frees). BUS_OK, INVALID or INTERNAL.
static int
s_bins(bus_db_t *db,
       acct_db_scope_t *scope,
       size_t max,
       bool each_kernel,
       int64_t to,
       int64_t now,
       proto_accounting_bin_t **bins_p,
       bus_error_t *err)
{
    to = to > 0 ? to : now;
    int64_t last = to - to % ACCT_QUERY_BIN_US;
    bins_t self = {.db = db,
                   .first = last - (ACCT_QUERY_BINS - 1) * ACCT_QUERY_BIN_US,
                   .end = last + ACCT_QUERY_BIN_US,
                   .now = now < last + ACCT_QUERY_BIN_US ? now : last + ACCT_QUERY_BIN_US,
                   .each_kernel = each_kernel};
    self.bins = calloc(ACCT_QUERY_BINS, sizeof *self.bins);
    *bins_p = self.bins;
    if (!self.bins)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    for (int i = 0; i < ACCT_QUERY_BINS; i++) {
        proto_accounting_bin_init(&self.bins[i]);
        self.bins[i].date = self.first + i * ACCT_QUERY_BIN_US;
    }
    scope->from = self.first;
    scope->to = self.end;
    int rc = acct_db_records_each(db, scope, max, s_on_bins_record, &self, err);
    if (rc == BUS_OK && !each_kernel &&
        acct_db_sums_all_each(db, self.first, self.end, s_on_sums, &self) != 0)
        self.rc = BUS_STATUS_INTERNAL;
    if (rc == BUS_OK && self.rc != BUS_OK)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the samples");
    return rc;
}

int
acct_query_stats_user(bus_db_t *db,
                      const proto_accounting_stats_user_req_t *req,
                      int64_t now,
                      proto_accounting_stats_user_rep_t *out,
                      bus_error_t *err)
{
    assert(db && req && out);
    proto_accounting_stats_user_rep_init(out);
    bool user = req->user_uuid && *req->user_uuid;
    bool keypair = req->access_key && *req->access_key;
    if (!user && !keypair)
        return bus_error_set(err, BUS_STATUS_INVALID, "a user_uuid or an access_key");
    acct_db_scope_t scope = {.user_uuid = user ? req->user_uuid : NULL,
                             .access_key = keypair ? req->access_key : NULL};
    proto_accounting_bin_t *bins = NULL;
    int rc =
        s_bins(db, &scope, ACCT_QUERY_USER_KERNELS_MAX, true, req->to, now, &bins, err);
    s_adopt(&out->owned_, bins);
    out->bins = bins;
    out->bins_count = bins ? ACCT_QUERY_BINS : 0;
    out->bin_s = ACCT_QUERY_BIN_US / 1000000;
    if (rc != BUS_OK)
        proto_accounting_stats_user_rep_clear(out);
    return rc;
}

int
acct_query_stats_all(bus_db_t *db,
                     const proto_accounting_stats_all_req_t *req,
                     int64_t now,
                     proto_accounting_stats_all_rep_t *out,
                     bus_error_t *err)
{
    assert(db && req && out);
    proto_accounting_stats_all_rep_init(out);
    acct_db_scope_t scope = {0};
    proto_accounting_bin_t *bins = NULL;
    int rc =
        s_bins(db, &scope, ACCT_QUERY_ALL_KERNELS_MAX, false, req->to, now, &bins, err);
    s_adopt(&out->owned_, bins);
    out->bins = bins;
    out->bins_count = bins ? ACCT_QUERY_BINS : 0;
    out->bin_s = ACCT_QUERY_BIN_US / 1000000;
    if (rc != BUS_OK)
        proto_accounting_stats_all_rep_clear(out);
    return rc;
}

//  ---------------------------------------------------------------------------

int
acct_query_live(bus_db_t *db,
                const proto_accounting_live_req_t *req,
                proto_accounting_live_rep_t *out,
                bus_error_t *err)
{
    assert(db && req && out);
    proto_accounting_live_rep_init(out);
    if (req->kernel_ids_count == 0)
        return BUS_OK;
    proto_accounting_live_t *kernels =
        proto_arena_alloc(&out->owned_, req->kernel_ids_count * sizeof *kernels);
    acct_record_t *record = malloc(sizeof *record);
    if (!kernels || !record) {
        free(record);
        proto_accounting_live_rep_clear(out);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    out->kernels = kernels;
    int rc = BUS_OK;
    for (size_t i = 0; rc == BUS_OK && i < req->kernel_ids_count; i++) {
        proto_accounting_live_t *live = &kernels[out->kernels_count++];
        proto_accounting_live_init(live);
        live->kernel_id = s_dup(&out->owned_, req->kernel_ids[i]);
        int found = acct_db_record_get(db, req->kernel_ids[i], record);
        if (found < 0)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the usage records");
        else if (found) {
            live->found = true;
            live->live = record->started_at > 0 && record->ended_at == ACCT_OPEN;
            live->at = record->last.at;
            char *stat = acct_record_stat_json(record);
            s_adopt(&out->owned_, stat);
            live->stat = stat;
        }
    }
    free(record);
    if (rc != BUS_OK)
        proto_accounting_live_rep_clear(out);
    return rc;
}

//  ---------------------------------------------------------------------------

//  Reads exactly n digits at *text into *value; moves past them.
static bool
s_digits(const char **text, int n, int *value)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char) (*text)[i]))
            return false;
        v = v * 10 + ((*text)[i] - '0');
    }
    *text += n;
    *value = v;
    return true;
}

//  µs of the UTC midnight starting year-month-day.
static int64_t
s_utc(int year, int month, int day)
{
    struct tm tm = {.tm_year = year - 1900, .tm_mon = month - 1, .tm_mday = day};
    return (int64_t) timegm(&tm) * 1000000;
}

int
acct_query_month(const char *month, int64_t *from, int64_t *to, bus_error_t *err)
{
    const char *p = month ? month : "";
    int year = 0, mon = 0;
    bool ok = s_digits(&p, 4, &year);
    if (ok && *p == '-')
        p++;
    ok = ok && s_digits(&p, 2, &mon) && *p == '\0' && year >= 1970 && mon >= 1 &&
         mon <= 12;
    if (!ok)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "month must be YYYYMM or YYYY-MM, not \"%.32s\"",
                             month ? month : "");
    *from = s_utc(year, mon, 1);
    *to = mon == 12 ? s_utc(year + 1, 1, 1) : s_utc(year, mon + 1, 1);
    return BUS_OK;
}

int
acct_query_day(const char *day, int64_t *at, bus_error_t *err)
{
    const char *p = day ? day : "";
    int year = 0, mon = 0, mday = 0;
    bool ok = s_digits(&p, 4, &year);
    bool dashes = ok && *p == '-';
    if (dashes)
        p++;
    ok = ok && s_digits(&p, 2, &mon);
    if (ok && dashes)
        ok = *p++ == '-';
    ok = ok && s_digits(&p, 2, &mday) && *p == '\0' && year >= 1970 && mon >= 1 &&
         mon <= 12 && mday >= 1 && mday <= 31;
    if (ok) {
        //  31 February is refused, not carried into March.
        struct tm tm = {.tm_year = year - 1900, .tm_mon = mon - 1, .tm_mday = mday};
        time_t t = timegm(&tm);
        struct tm back;
        ok = gmtime_r(&t, &back) && back.tm_mday == mday;
    }
    if (!ok)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "a date must be YYYYMMDD, not \"%.32s\"", day ? day : "");
    *at = s_utc(year, mon, mday);
    return BUS_OK;
}
