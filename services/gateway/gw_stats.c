/*  =========================================================================
    gw_stats - the last resource use of every running kernel

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  An agent's latest figures and when they came.
typedef struct {
    proto_agent_stats_t stats;
    int64_t at; //  monotonic ms
} s_agent_t;

struct _gw_stats_t {
    zhashx_t *last;   //  kernel id → proto_kernel_stats_t, the latest
    zhashx_t *agents; //  agent id → s_agent_t
    gw_events_t *events;
    gw_events_listener_t *listener;
};

static void
s_stats_destructor(void **item_p)
{
    proto_kernel_stats_t *stats = *item_p;
    if (stats) {
        proto_kernel_stats_clear(stats);
        free(stats);
        *item_p = NULL;
    }
}

static void
s_on_stats(void *arg, const bus_event_t *event)
{
    gw_stats_t *self = arg;
    proto_kernel_stats_t *stats = calloc(1, sizeof *stats);
    bus_error_t err = {0};
    if (!stats ||
        proto_kernel_stats_decode(stats, event->body, event->body_size, &err) != BUS_OK) {
        free(stats);
        return;
    }
    bool known = zhashx_lookup(self->last, stats->kernel_id) != NULL;
    if (!known && zhashx_size(self->last) >= GW_STATS_MAX) {
        s_stats_destructor((void **) &stats);
        return; //  full: kernels whose end was missed hold the room until restart
    }
    zhashx_update(self->last, stats->kernel_id, stats);
}

static void
s_agent_destructor(void **item_p)
{
    s_agent_t *agent = *item_p;
    if (agent) {
        proto_agent_stats_clear(&agent->stats);
        free(agent);
        *item_p = NULL;
    }
}

static void
s_on_agent_stats(void *arg, const bus_event_t *event)
{
    gw_stats_t *self = arg;
    s_agent_t *agent = calloc(1, sizeof *agent);
    bus_error_t err = {0};
    if (!agent || proto_agent_stats_decode(&agent->stats, event->body, event->body_size,
                                           &err) != BUS_OK) {
        free(agent);
        return;
    }
    agent->at = zclock_mono();
    if (!zhashx_lookup(self->agents, agent->stats.agent_id) &&
        zhashx_size(self->agents) >= GW_STATS_AGENTS_MAX) {
        s_agent_destructor((void **) &agent);
        return;
    }
    zhashx_update(self->agents, agent->stats.agent_id, agent);
}

//  A kernel's end: its statistics are no longer wanted.
static void
s_on_lifecycle(const proto_session_lifecycle_t *event, void *arg)
{
    gw_stats_t *self = arg;
    if (event->kernel_id && (strcmp(event->event, "kernel_terminated") == 0 ||
                             strcmp(event->event, "kernel_cancelled") == 0))
        zhashx_delete(self->last, event->kernel_id);
}

gw_stats_t *
gw_stats_new(bus_node_t *node, gw_events_t *events)
{
    gw_stats_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->events = events;
    self->last = zhashx_new();
    self->agents = zhashx_new();
    if (self->last)
        zhashx_set_destructor(self->last, s_stats_destructor);
    if (self->agents)
        zhashx_set_destructor(self->agents, s_agent_destructor);
    if (self->last && self->agents)
        self->listener = gw_events_listen(events, s_on_lifecycle, self);
    if (!self->listener ||
        bus_node_subscribe(node, PROTO_KERNEL_STATS, s_on_stats, self) != 0 ||
        bus_node_subscribe(node, PROTO_AGENT_STATS, s_on_agent_stats, self) != 0)
        gw_stats_destroy(&self);
    return self;
}

void
gw_stats_destroy(gw_stats_t **self_p)
{
    gw_stats_t *self = *self_p;
    if (!self)
        return;
    gw_events_unlisten(self->events, &self->listener);
    zhashx_destroy(&self->last);
    zhashx_destroy(&self->agents);
    free(self);
    *self_p = NULL;
}

//  One metric as Backend.AI's version 2 stats give it: decimal strings.
static json_t *
s_metric(uint64_t current, uint64_t capacity, const char *unit, uint64_t peak)
{
    char text[32];
    snprintf(text, sizeof text, "%" PRIu64, current);
    json_t *metric = json_pack("{s:s, s:s}", "current", text, "unit_hint", unit);
    if (!metric)
        return NULL;
    if (capacity) {
        snprintf(text, sizeof text, "%" PRIu64, capacity);
        json_object_set_new(metric, "capacity", json_string(text));
        snprintf(text, sizeof text, "%.2f", 100.0 * (double) current / (double) capacity);
        json_object_set_new(metric, "pct", json_string(text));
    } else
        json_object_set_new(metric, "capacity", json_null());
    if (peak) {
        snprintf(text, sizeof text, "%" PRIu64, peak);
        json_object_set_new(metric, "stats.max", json_string(text));
    }
    return metric;
}

json_t *
gw_stats_last(gw_stats_t *self, const char *kernel_id)
{
    const proto_kernel_stats_t *stats =
        self && kernel_id ? zhashx_lookup(self->last, kernel_id) : NULL;
    if (!stats)
        return json_object();
    json_t *last = json_pack("{s:o, s:o, s:o, s:o, s:o, s:i, s:s}", "cpu_used",
                             s_metric(stats->cpu_used_ns / 1000000, 0, "msec", 0), "mem",
                             s_metric(stats->mem_bytes, stats->mem_limit_bytes, "bytes",
                                      stats->mem_peak_bytes),
                             "io_read", s_metric(stats->io_read_bytes, 0, "bytes", 0),
                             "io_write", s_metric(stats->io_write_bytes, 0, "bytes", 0),
                             "pids", s_metric(stats->pids, 0, "count", 0), "version", 2,
                             "status", "terminated");
    if (last && stats->cuda_devices > 0) {
        //  As Backend.AI's CUDA plugin: percent with 100 per GPU held.
        json_object_set_new(
            last, "cuda_mem",
            s_metric(stats->cuda_mem_bytes, stats->cuda_mem_total_bytes, "bytes", 0));
        json_object_set_new(
            last, "cuda_util",
            s_metric(stats->cuda_util_pct, 100 * stats->cuda_devices, "percent", 0));
    }
    return last;
}

//  One node metric of Backend.AI's form; capacity 0: pct null (the first
//  reading, "calculating").
static json_t *
s_node_metric(uint64_t current, uint64_t capacity, const char *unit, double *pct_p)
{
    char cur[32], cap[32], pct[32];
    snprintf(cur, sizeof cur, "%" PRIu64, current);
    snprintf(cap, sizeof cap, "%" PRIu64, capacity);
    double value = capacity ? 100.0 * (double) current / (double) capacity : 0.0;
    snprintf(pct, sizeof pct, "%.2f", value);
    if (pct_p)
        *pct_p = strtod(pct, NULL); //  Backend.AI: float() of the pct text
    return json_pack("{s:s, s:s, s:o, s:s}", "current", cur, "capacity", cap, "pct",
                     capacity ? json_string(pct) : json_null(), "unit_hint", unit);
}

//  The GPUs' figures into live: node cuda_util (100 per GPU) and cuda_mem,
//  and per device, keyed by index, as Backend.AI's CUDA plugin.
static void
s_agent_gpus(const proto_agent_stats_t *stats, json_t *live)
{
    uint64_t util = 0, used = 0, total = 0;
    json_t *utils = json_object(), *mems = json_object();
    for (size_t i = 0; i < stats->gpus_count; i++) {
        const proto_agent_gpu_t *gpu = &stats->gpus[i];
        char name[24];
        snprintf(name, sizeof name, "%" PRIu64, gpu->index);
        util += gpu->util_pct;
        used += gpu->mem_used_bytes;
        total += gpu->mem_total_bytes;
        json_object_set_new(utils, name,
                            s_node_metric(gpu->util_pct, 100, "percent", NULL));
        json_object_set_new(
            mems, name,
            s_node_metric(gpu->mem_used_bytes, gpu->mem_total_bytes, "bytes", NULL));
    }
    json_t *node = json_object_get(live, "node"),
           *devices = json_object_get(live, "devices");
    json_object_set_new(node, "cuda_util",
                        s_node_metric(util, 100 * stats->gpus_count, "percent", NULL));
    json_object_set_new(node, "cuda_mem", s_node_metric(used, total, "bytes", NULL));
    json_object_set_new(devices, "cuda_util", utils);
    json_object_set_new(devices, "cuda_mem", mems);
}

//  Backend.AI's node live_stat of these figures; *cpu_pct_p the node's CPU pct.
static json_t *
s_agent_live(const proto_agent_stats_t *stats, double *cpu_pct_p)
{
    uint64_t busy = 0;
    json_t *cores = json_object();
    for (size_t i = 0; i < stats->cores_count; i++) {
        char name[24];
        snprintf(name, sizeof name, "%zu", i);
        busy += stats->cores[i].busy_ms;
        json_object_set_new(
            cores, name,
            s_node_metric(stats->cores[i].busy_ms, stats->interval_ms, "msec", NULL));
    }
    //  Backend.AI: the node's cpu_util is the CPU msec of all cores over the
    //  interval's msec, so 100 per busy core.
    json_t *cpu = s_node_metric(busy, stats->interval_ms, "msec", cpu_pct_p);
    json_t *mem =
        s_node_metric(stats->mem_used_bytes, stats->mem_total_bytes, "bytes", NULL);
    json_t *mem_root = json_deep_copy(mem);
    json_t *live =
        json_pack("{s:{s:o, s:o}, s:{s:o, s:{s:o}}}", "node", "cpu_util", cpu, "mem", mem,
                  "devices", "cpu_util", cores, "mem", "root", mem_root);
    if (live && stats->gpus_count > 0)
        s_agent_gpus(stats, live);
    return live;
}

void
gw_stats_agents_fill(gw_stats_t *self, json_t *agents)
{
    size_t i;
    json_t *agent;
    int64_t now = zclock_mono();
    json_array_foreach(agents, i, agent)
    {
        const char *id = json_string_value(json_object_get(agent, "id"));
        const s_agent_t *last = self && id ? zhashx_lookup(self->agents, id) : NULL;
        if (last && now - last->at > GW_STATS_AGENT_STALE_MS)
            last = NULL;
        double cpu_pct = 0.0;
        json_t *live = last ? s_agent_live(&last->stats, &cpu_pct) : NULL;
        if (!live)
            live = json_pack("{s:{}, s:{}}", "node", "devices");
        char *text = live ? json_dumps(live, JSON_COMPACT) : NULL;
        json_decref(live);
        json_object_set_new(agent, "live_stat", json_string(text ? text : "{}"));
        free(text);
        json_object_set_new(agent, "cpu_cur_pct", json_real(cpu_pct));
        json_object_set_new(
            agent, "mem_cur_bytes",
            json_integer(last ? (json_int_t) last->stats.mem_used_bytes : 0));
    }
}
