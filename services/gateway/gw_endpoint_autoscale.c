/*  =========================================================================
    gw_endpoint_autoscale - model services' autoscaling rules evaluated on
    their metrics, averaged over a window (how, in the header)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define S_FORGET_WINDOWS 3 //  a kernel silent this many windows is forgotten

//  A route's main kernel: its endpoint and its CPU readings.
typedef struct {
    char endpoint_id[GW_UUID_SIZE];
    int64_t seen_ms; //  monotonic: when a sample last came
    gw_endpoint_autoscale_cpu_t cpu;
} s_kernel_t;

//  What a call in flight holds (the reconciliation's pattern): its reply
//  may come after this is gone.
typedef struct {
    gw_endpoint_autoscale_t *self;
    int refs;
} s_link_t;

struct _gw_endpoint_autoscale_t {
    s_link_t *link;
    gw_server_t *gw;
    gw_endpoint_autoscale_scaled_fn *scaled;
    void *arg;
    struct event *timer;
    int64_t window_ms, period_ms;
    zhashx_t *kernels;  //  kernel id -> s_kernel_t
    zhashx_t *requests; //  endpoint id -> s_ring_t of the wsproxy's counters
    bool asking;        //  a wsproxy.endpoint.requests is on its way
};

static const gw_endpoint_autoscale_slot_t *
s_ring_at(const gw_endpoint_autoscale_ring_t *ring, size_t i)
{
    return &ring->items[(ring->head + i) % GW_ENDPOINT_AUTOSCALE_SAMPLES_MAX];
}

//  The slot a reading received at now_ms goes to: the newest while its span
//  is short, else a new one (the oldest dropped when the ring is full: by
//  then it is out of the window).
static gw_endpoint_autoscale_slot_t *
s_ring_slot(gw_endpoint_autoscale_ring_t *ring, int64_t now_ms)
{
    if (ring->count) {
        gw_endpoint_autoscale_slot_t *newest =
            &ring->items[(ring->head + ring->count - 1) %
                         GW_ENDPOINT_AUTOSCALE_SAMPLES_MAX];
        if (now_ms - newest->start_ms < ring->slot_ms)
            return newest;
    }
    size_t at = (ring->head + ring->count) % GW_ENDPOINT_AUTOSCALE_SAMPLES_MAX;
    if (ring->count == GW_ENDPOINT_AUTOSCALE_SAMPLES_MAX)
        ring->head = (ring->head + 1) % GW_ENDPOINT_AUTOSCALE_SAMPLES_MAX;
    else
        ring->count++;
    ring->items[at] = (gw_endpoint_autoscale_slot_t){now_ms, now_ms, 0, 0};
    return &ring->items[at];
}

static void
s_free(void **item)
{
    free(*item);
    *item = NULL;
}

//  ---------------------------------------------------------------------------
//  Pure parts

bool
gw_endpoint_autoscale_holds(const char *comparator, double value, double threshold)
{
    if (!comparator)
        return false;
    if (strcmp(comparator, "LESS_THAN") == 0)
        return value < threshold;
    if (strcmp(comparator, "LESS_THAN_OR_EQUAL") == 0)
        return value <= threshold;
    if (strcmp(comparator, "GREATER_THAN") == 0)
        return value > threshold;
    if (strcmp(comparator, "GREATER_THAN_OR_EQUAL") == 0)
        return value >= threshold;
    return false;
}

int64_t
gw_endpoint_autoscale_target(
    int64_t desired, int64_t step, int64_t low, int64_t high, int64_t policy_max)
{
    int64_t top = high >= 0 && high < policy_max ? high : policy_max;
    int64_t bottom = low > 0 ? low : 0;
    int64_t to = desired + step;
    if (step > 0 && to > top)
        to = top;
    if (step < 0 && to < bottom)
        to = bottom;
    //  Never the other way: a count already beyond a bound is left alone.
    if ((step > 0 && to <= desired) || (step < 0 && to >= desired))
        return desired;
    return to;
}

void
gw_endpoint_autoscale_ring_init(gw_endpoint_autoscale_ring_t *ring, int64_t window_ms)
{
    memset(ring, 0, sizeof *ring);
    //  Spans of slot_ms: at most window / slot_ms + 2 slots touch a window.
    int64_t spans = GW_ENDPOINT_AUTOSCALE_SAMPLES_MAX - 2;
    ring->slot_ms = window_ms > 0 ? (window_ms + spans - 1) / spans : 1;
}

void
gw_endpoint_autoscale_counter_add(gw_endpoint_autoscale_ring_t *ring,
                                  int64_t now_ms,
                                  double value)
{
    if (ring->count && s_ring_at(ring, ring->count - 1)->value > value)
        ring->count = 0;
    gw_endpoint_autoscale_slot_t *slot = s_ring_slot(ring, now_ms);
    slot->at_ms = now_ms;
    slot->value = value;
    slot->count++;
}

bool
gw_endpoint_autoscale_rate(const gw_endpoint_autoscale_ring_t *ring,
                           int64_t now_ms,
                           int64_t window_ms,
                           double *out)
{
    if (ring->count == 0)
        return false;
    const gw_endpoint_autoscale_slot_t *newest = s_ring_at(ring, ring->count - 1);
    const gw_endpoint_autoscale_slot_t *oldest = NULL;
    for (size_t i = 0; i < ring->count && !oldest; i++)
        if (s_ring_at(ring, i)->at_ms >= now_ms - window_ms)
            oldest = s_ring_at(ring, i);
    if (!oldest || newest->at_ms <= oldest->at_ms)
        return false;
    *out = (newest->value - oldest->value) * 1000.0 /
           (double) (newest->at_ms - oldest->at_ms);
    return true;
}

void
gw_endpoint_autoscale_cpu_add(gw_endpoint_autoscale_cpu_t *cpu,
                              int64_t agent_ms,
                              uint64_t cpu_ns,
                              int64_t now_ms)
{
    //  The agent's clock stamps its counter: the delivery's delay is no
    //  part of the interval, and its offset from ours cancels out.
    if (cpu->has_last && cpu_ns >= cpu->last_cpu_ns && agent_ms > cpu->last_agent_ms) {
        gw_endpoint_autoscale_slot_t *slot = s_ring_slot(&cpu->cpu, now_ms);
        slot->at_ms = now_ms;
        slot->value += (double) (cpu_ns - cpu->last_cpu_ns) /
                       ((double) (agent_ms - cpu->last_agent_ms) * 1e6) * 100.0;
        slot->count++;
    }
    cpu->has_last = true;
    cpu->last_cpu_ns = cpu_ns;
    cpu->last_agent_ms = agent_ms;
}

bool
gw_endpoint_autoscale_cpu_mean(const gw_endpoint_autoscale_cpu_t *cpu,
                               int64_t now_ms,
                               int64_t window_ms,
                               double *out)
{
    double sum = 0;
    uint64_t samples = 0;
    for (size_t i = 0; i < cpu->cpu.count; i++) {
        const gw_endpoint_autoscale_slot_t *slot = s_ring_at(&cpu->cpu, i);
        if (slot->at_ms >= now_ms - window_ms) {
            sum += slot->value;
            samples += slot->count;
        }
    }
    if (!samples)
        return false;
    *out = sum / (double) samples;
    return true;
}

//  ---------------------------------------------------------------------------
//  Metrics

//  The requests per second of endpoint_id across the window, from the
//  wsproxy's counters; false when there are not two readings in it.
static bool
s_rps(gw_endpoint_autoscale_t *self, const char *endpoint_id, int64_t now, double *out)
{
    gw_endpoint_autoscale_ring_t *ring = zhashx_lookup(self->requests, endpoint_id);
    return ring && gw_endpoint_autoscale_rate(ring, now, self->window_ms, out);
}

//  The mean CPU utilisation of endpoint_id's kernels across the window
//  (each kernel's mean first); false when none has a sample in it.
static bool
s_cpu(gw_endpoint_autoscale_t *self, const char *endpoint_id, int64_t now, double *out)
{
    double sum = 0;
    size_t kernels = 0;
    for (s_kernel_t *k = zhashx_first(self->kernels); k; k = zhashx_next(self->kernels)) {
        double mean;
        if (strcmp(k->endpoint_id, endpoint_id) == 0 &&
            gw_endpoint_autoscale_cpu_mean(&k->cpu, now, self->window_ms, &mean)) {
            sum += mean;
            kernels++;
        }
    }
    if (!kernels)
        return false;
    *out = sum / (double) kernels;
    return true;
}

static void
s_on_stats(void *arg, const bus_event_t *event)
{
    gw_endpoint_autoscale_t *self = arg;
    proto_kernel_stats_t stats;
    bus_error_t err = {0};
    if (proto_kernel_stats_decode(&stats, event->body, event->body_size, &err) != BUS_OK)
        return;
    s_kernel_t *kernel = zhashx_lookup(self->kernels, stats.kernel_id);
    if (kernel) {
        kernel->seen_ms = bus_clock_mono_ms();
        gw_endpoint_autoscale_cpu_add(&kernel->cpu, event->header.ts / 1000,
                                      stats.cpu_used_ns, kernel->seen_ms);
    }
    proto_kernel_stats_clear(&stats);
}

void
gw_endpoint_autoscale_kernel(gw_endpoint_autoscale_t *self,
                             const char *endpoint_id,
                             const char *kernel_id)
{
    if (!self || !endpoint_id || !kernel_id || !*kernel_id ||
        zhashx_lookup(self->kernels, kernel_id))
        return;
    s_kernel_t *kernel = calloc(1, sizeof *kernel);
    if (!kernel)
        return;
    snprintf(kernel->endpoint_id, sizeof kernel->endpoint_id, "%s", endpoint_id);
    kernel->seen_ms = bus_clock_mono_ms();
    gw_endpoint_autoscale_ring_init(&kernel->cpu.cpu, self->window_ms);
    zhashx_insert(self->kernels, kernel_id, kernel);
}

//  The wsproxy's counters: one reading per endpoint it serves.
static void
s_on_requests(void *arg, const bus_reply_t *reply)
{
    s_link_t *link = arg;
    gw_endpoint_autoscale_t *self = link->self;
    if (--link->refs == 0)
        free(link);
    if (!self)
        return;
    self->asking = false;
    proto_wsproxy_endpoint_requests_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK ||
        proto_wsproxy_endpoint_requests_rep_decode(&rep, reply->body, reply->body_size,
                                                   &err) != BUS_OK) {
        bus_log_debug("no request counters from the wsproxy status=%s",
                      bus_status_str(reply->status));
        return;
    }
    int64_t now = bus_clock_mono_ms();
    for (size_t i = 0; i < rep.endpoints_count; i++) {
        const proto_wsproxy_endpoint_requests_t *e = &rep.endpoints[i];
        if (!e->found)
            continue;
        gw_endpoint_autoscale_ring_t *ring =
            zhashx_lookup(self->requests, e->endpoint_id);
        if (!ring) {
            ring = malloc(sizeof *ring);
            if (!ring)
                continue;
            gw_endpoint_autoscale_ring_init(ring, self->window_ms);
            zhashx_insert(self->requests, e->endpoint_id, ring);
        }
        //  Fewer than before: the wsproxy started again, from 0.
        gw_endpoint_autoscale_counter_add(ring, now, (double) e->requests);
    }
    proto_wsproxy_endpoint_requests_rep_clear(&rep);
}

//  Asks the wsproxy for the counters of endpoints (ids, a JSON array).
static void
s_ask_requests(gw_endpoint_autoscale_t *self, json_t *ids)
{
    bus_node_t *node = gw_server_node(self->gw);
    const char *wsproxy = bus_node_find(node, "wsproxy");
    size_t count = json_array_size(ids);
    if (!wsproxy || !count || self->asking)
        return;
    if (count > PROTO_WSPROXY_ENDPOINT_REQUESTS_REQ_ENDPOINT_IDS_MAX)
        count = PROTO_WSPROXY_ENDPOINT_REQUESTS_REQ_ENDPOINT_IDS_MAX;
    const char **list = calloc(count, sizeof *list);
    if (!list)
        return;
    for (size_t i = 0; i < count; i++)
        list[i] = json_string_value(json_array_get(ids, i));
    proto_wsproxy_endpoint_requests_req_t in;
    proto_wsproxy_endpoint_requests_req_init(&in);
    in.endpoint_ids = list;
    in.endpoint_ids_count = count;
    bus_error_t err;
    bus_writer_t *writer = proto_wsproxy_endpoint_requests_req_writer(&in, &err);
    free(list);
    if (!writer)
        return;
    self->link->refs++;
    if (bus_node_call(node, wsproxy, PROTO_WSPROXY_ENDPOINT_REQUESTS,
                      bus_writer_data(writer), bus_writer_size(writer),
                      (int) self->period_ms, s_on_requests, self->link) == 0)
        self->link->refs--;
    else
        self->asking = true;
    bus_writer_destroy(&writer);
}

//  Forgets kernels silent for S_FORGET_WINDOWS windows (their routes
//  ended) and the counters of endpoints without rules now (in ids).
static void
s_forget(gw_endpoint_autoscale_t *self, json_t *ids)
{
    int64_t now = bus_clock_mono_ms();
    zlistx_t *gone = zlistx_new();
    if (!gone)
        return;
    for (s_kernel_t *k = zhashx_first(self->kernels); k; k = zhashx_next(self->kernels))
        if (now - k->seen_ms > S_FORGET_WINDOWS * self->window_ms)
            zlistx_add_end(gone, (void *) zhashx_cursor(self->kernels));
    for (const char *key = zlistx_first(gone); key; key = zlistx_next(gone))
        zhashx_delete(self->kernels, key);
    zlistx_purge(gone);
    for (void *ring = zhashx_first(self->requests); ring;
         ring = zhashx_next(self->requests)) {
        const char *key = zhashx_cursor(self->requests);
        bool wanted = false;
        for (size_t i = 0; i < json_array_size(ids) && !wanted; i++)
            wanted = strcmp(json_string_value(json_array_get(ids, i)), key) == 0;
        if (!wanted)
            zlistx_add_end(gone, (void *) key);
    }
    for (const char *key = zlistx_first(gone); key; key = zlistx_next(gone))
        zhashx_delete(self->requests, key);
    zlistx_destroy(&gone);
}

//  ---------------------------------------------------------------------------
//  Evaluation

//  One endpoint's rules (rows, oldest first): the first that holds, out of
//  its cool-down, and can move the replicas, moves them. True when one did.
static bool
s_evaluate(gw_endpoint_autoscale_t *self, json_t *endpoint, json_t *rules)
{
    bus_db_t *db = gw_server_db(self->gw);
    const char *id = json_string_value(json_object_get(endpoint, "id"));
    int64_t desired =
        json_integer_value(json_object_get(endpoint, "desired_session_count"));
    int64_t now_us = bus_clock_wall_us();
    int64_t mono = bus_clock_mono_ms();
    size_t index;
    json_t *rule;
    json_array_foreach(rules, index, rule)
    {
        const char *rule_id = json_string_value(json_object_get(rule, "id"));
        const char *source = json_string_value(json_object_get(rule, "metric_source"));
        const char *metric = json_string_value(json_object_get(rule, "metric_name"));
        const char *comparator = json_string_value(json_object_get(rule, "comparator"));
        const char *threshold_text =
            json_string_value(json_object_get(rule, "threshold"));
        double threshold = threshold_text ? strtod(threshold_text, NULL) : 0;
        double value = 0;
        bool known = false;
        if (source && metric && strcmp(source, "KERNEL") == 0 &&
            strcmp(metric, GW_ENDPOINT_RULE_METRIC_CPU) == 0)
            known = s_cpu(self, id, mono, &value);
        else if (source && metric && strcmp(source, "INFERENCE_FRAMEWORK") == 0 &&
                 strcmp(metric, GW_ENDPOINT_RULE_METRIC_RPS) == 0)
            known = s_rps(self, id, mono, &value);
        if (!known) {
            bus_log_debug("autoscaling rule waits for its metric rule=%s endpoint=%s "
                          "metric=%s",
                          rule_id, id, metric ? metric : "");
            continue;
        }
        if (!gw_endpoint_autoscale_holds(comparator, value, threshold))
            continue;
        json_t *last = json_object_get(rule, "last_triggered_at");
        int64_t cooldown_us =
            json_integer_value(json_object_get(rule, "cooldown_seconds")) * 1000000;
        if (json_is_integer(last) && now_us - json_integer_value(last) < cooldown_us) {
            bus_log_debug("autoscaling rule holds in its cool-down rule=%s endpoint=%s "
                          "%s=%.3f",
                          rule_id, id, metric, value);
            continue;
        }
        json_t *low = json_object_get(rule, "min_replicas");
        json_t *high = json_object_get(rule, "max_replicas");
        int64_t step = json_integer_value(json_object_get(rule, "step_size"));
        int64_t policy_max = gw_endpoint_replicas_max(
            db, json_string_value(json_object_get(endpoint, "session_owner")));
        int64_t to = gw_endpoint_autoscale_target(
            desired, step, json_is_integer(low) ? json_integer_value(low) : -1,
            json_is_integer(high) ? json_integer_value(high) : -1, policy_max);
        if (to == desired) {
            bus_log_info("autoscaling rule holds at its bound rule=%s endpoint=%s "
                         "%s=%.3f %s %s replicas=%lld step=%lld",
                         rule_id, id, metric, value, comparator, threshold_text,
                         (long long) desired, (long long) step);
            continue;
        }
        bus_error_t err = {0};
        if (gw_endpoint_set_desired(db, id, to, &err) != BUS_OK) {
            bus_log_warning("autoscaling not applied rule=%s endpoint=%s detail=\"%s\"",
                            rule_id, id, err.detail);
            return false;
        }
        gw_endpoint_rule_triggered(db, rule_id, now_us);
        bus_log_notice("endpoint autoscaled endpoint=%s rule=%s %s=%.3f %s %s "
                       "window_s=%lld from=%lld to=%lld",
                       id, rule_id, metric, value, comparator, threshold_text,
                       (long long) (self->window_ms / 1000), (long long) desired,
                       (long long) to);
        return true;
    }
    return false;
}

static void
s_tick(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    gw_endpoint_autoscale_t *self = arg;
    bus_db_t *db = gw_server_db(self->gw);
    json_t *endpoints = gw_endpoint_live(db);
    json_t *with_rules = json_array();
    bool scaled = false;
    size_t index;
    json_t *endpoint;
    json_array_foreach(endpoints, index, endpoint)
    {
        const char *id = json_string_value(json_object_get(endpoint, "id"));
        const char *stage =
            json_string_value(json_object_get(endpoint, "lifecycle_stage"));
        if (!stage || strcmp(stage, "created") != 0)
            continue;
        json_t *rules = gw_endpoint_rule_list(db, id);
        if (json_array_size(rules)) {
            json_array_append_new(with_rules, json_string(id));
            scaled = s_evaluate(self, endpoint, rules) || scaled;
        }
        json_decref(rules);
    }
    s_ask_requests(self, with_rules);
    s_forget(self, with_rules);
    json_decref(with_rules);
    json_decref(endpoints);
    if (scaled && self->scaled)
        self->scaled(self->arg);
    struct timeval tv = {self->period_ms / 1000, (self->period_ms % 1000) * 1000};
    evtimer_add(self->timer, &tv);
}

//  ---------------------------------------------------------------------------

gw_endpoint_autoscale_t *
gw_endpoint_autoscale_new(gw_server_t *gw,
                          gw_endpoint_autoscale_scaled_fn *scaled,
                          void *arg)
{
    gw_endpoint_autoscale_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    const gw_config_t *config = gw_server_config(gw);
    bus_node_t *node = gw_server_node(gw);
    self->gw = gw;
    self->scaled = scaled;
    self->arg = arg;
    self->window_ms = (int64_t) config->autoscale_window_s * 1000;
    self->period_ms = config->autoscale_period_ms;
    self->link = calloc(1, sizeof *self->link);
    if (self->link) {
        self->link->self = self;
        self->link->refs = 1;
    }
    self->kernels = zhashx_new();
    self->requests = zhashx_new();
    if (self->kernels)
        zhashx_set_destructor(self->kernels, s_free);
    if (self->requests)
        zhashx_set_destructor(self->requests, s_free);
    self->timer = evtimer_new(bus_node_base(node), s_tick, self);
    if (!self->link || !self->kernels || !self->requests || !self->timer ||
        bus_node_subscribe(node, PROTO_KERNEL_STATS, s_on_stats, self) != 0) {
        gw_endpoint_autoscale_destroy(&self);
        return NULL;
    }
    struct timeval tv = {self->period_ms / 1000, (self->period_ms % 1000) * 1000};
    evtimer_add(self->timer, &tv);
    return self;
}

void
gw_endpoint_autoscale_destroy(gw_endpoint_autoscale_t **self_p)
{
    gw_endpoint_autoscale_t *self = *self_p;
    if (!self)
        return;
    if (self->timer)
        event_free(self->timer);
    zhashx_destroy(&self->kernels);
    zhashx_destroy(&self->requests);
    if (self->link) {
        self->link->self = NULL;
        if (--self->link->refs == 0)
            free(self->link);
    }
    free(self);
    *self_p = NULL;
}
