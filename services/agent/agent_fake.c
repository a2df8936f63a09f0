/*  =========================================================================
    agent_fake - a fleet of fake agents: heartbeats and kernel.* without
    containers

    The fleet keeps its agents in an array (agent i answers to <node>-<i+1>,
    found by parsing the number back) and its kernels in a hash by id, each
    also linked into its agent's list so that kernel.list of one agent does
    not walk the whole fleet. The heartbeats of all agents are spread over
    bus.heartbeat_ms by one timer that sends a slice of them each tick, so a
    fleet of thousands does not burst into the hub at once. The durable
    events of one burst of requests share one transaction (see s_batch): one
    process takes tens of thousands of creates a second. Each kernel keeps
    what kernel.create's slots gave it of the fleet's slots, and each agent
    their sums, which its heartbeat reports (occupied_slots, with
    kernel_count) for the scheduler's ledger invariant.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

#define FAKE_AGENT_ID_MAX   (BUS_NODE_NAME_MAX + 16) //  "<node>-<n>" and its NUL
#define FAKE_CONTAINER_MAX  80                       //  "fake-" and a kernel id
#define FAKE_SLOTS_MAX      64                       //  the heartbeat's map limit
#define FAKE_ARCHITECTURE   "x86_64"
#define FAKE_REASON_DEFAULT "user-requested"

typedef struct _s_kernel_t s_kernel_t;

typedef struct {
    char id[FAKE_AGENT_ID_MAX];
    s_kernel_t *kernels; //  its kernels, a doubly linked list
    size_t kernel_count;
    int64_t *occupied; //  per fleet slot: its kernels' sum (in the fleet's block)
} s_agent_t;

struct _s_kernel_t {
    char *id;
    char *session_id;
    s_agent_t *agent;
    s_kernel_t *prev, *next;
    int64_t *amounts; //  per fleet slot: what kernel.create gave it
};

struct _agent_fake_t {
    bus_node_t *node;
    const agent_config_t *config;
    s_agent_t *agents;
    size_t agent_count;
    const proto_kv_t *slots; //  what each agent offers, normalized
    void *slots_arena;       //  holds slots
    size_t slot_count;
    bus_slots_unit_t *units; //  each slot's unit
    int64_t *occupied;       //  agent_count x slot_count sums (s_agent_t.occupied)
    zhashx_t *kernels;       //  kernel id -> s_kernel_t (owned)
    zhashx_t *ended;         //  kernel id -> its exit code as text (owned)
    struct event *timer;
    size_t slices;       //  heartbeat ticks per period
    size_t slice;        //  the next tick's slice
    struct event *flush; //  commits the batch of events, once the loop breathes
    bool batch;          //  a transaction holding events is open
    size_t batched;      //  events in it
};

//  ---------------------------------------------------------------------------
//  Kernels

static void
s_kernel_free(void **item_p)
{
    s_kernel_t *kernel = *item_p;
    if (kernel) {
        free(kernel->id);
        free(kernel->session_id);
        free(kernel->amounts);
        free(kernel);
        *item_p = NULL;
    }
}

//  Adds (sign 1) or takes away (-1) kernel's amounts from its agent's sums.
static void
s_kernel_count(agent_fake_t *self, s_kernel_t *kernel, int sign)
{
    for (size_t i = 0; i < self->slot_count; i++) {
        int64_t *sum = &kernel->agent->occupied[i];
        int64_t amount = kernel->amounts[i];
        //  Saturating: amounts are positive, a sum never wraps.
        if (sign > 0)
            *sum = amount > INT64_MAX - *sum ? INT64_MAX : *sum + amount;
        else
            *sum = amount > *sum ? 0 : *sum - amount;
    }
}

static void
s_kernel_link(s_agent_t *agent, s_kernel_t *kernel)
{
    kernel->agent = agent;
    kernel->prev = NULL;
    kernel->next = agent->kernels;
    if (agent->kernels)
        agent->kernels->prev = kernel;
    agent->kernels = kernel;
    agent->kernel_count++;
}

static void
s_kernel_unlink(s_kernel_t *kernel)
{
    s_agent_t *agent = kernel->agent;
    if (kernel->prev)
        kernel->prev->next = kernel->next;
    else
        agent->kernels = kernel->next;
    if (kernel->next)
        kernel->next->prev = kernel->prev;
    agent->kernel_count--;
    kernel->prev = kernel->next = NULL;
}

//  The agent an agent_id names: "<node>-<n>" with 1 <= n <= count; the
//  first one when agent_id is empty ("whoever answers"); NULL otherwise.
static s_agent_t *
s_agent_find(agent_fake_t *self, const char *agent_id)
{
    if (!agent_id || !*agent_id)
        return &self->agents[0];
    const char *node = bus_node_name(self->node);
    size_t length = strlen(node);
    if (strncmp(agent_id, node, length) != 0 || agent_id[length] != '-')
        return NULL;
    const char *digits = agent_id + length + 1;
    if (*digits < '1' || *digits > '9')
        return NULL; //  no sign, no leading zero, not empty
    size_t number = 0;
    for (const char *c = digits; *c; c++) {
        if (*c < '0' || *c > '9')
            return NULL;
        number = number * 10 + (size_t) (*c - '0');
        if (number > self->agent_count)
            return NULL;
    }
    return &self->agents[number - 1];
}

//  Commits the batch: its events are published now.
static void
s_commit(agent_fake_t *self)
{
    if (!self->batch)
        return;
    self->batch = false;
    if (bus_node_commit(self->node) != 0)
        bus_log_error("kernel events lost count=%zu", self->batched);
    self->batched = 0;
}

static void
s_on_flush(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    s_commit(arg);
}

//  Opens the transaction the durable events go in, unless it is open: 0 or
//  -1. The events of one burst of requests share it, committed once the
//  loop has served them all (one commit, not one per kernel: at thousands
//  of kernels a second the commits would cost more than the rest of the
//  fleet). Replies may leave before their event; the scheduler takes
//  whichever comes first.
static int
s_batch(agent_fake_t *self)
{
    if (!self->batch) {
        if (bus_node_begin(self->node) != 0)
            return -1;
        self->batch = true;
        event_active(self->flush, EV_TIMEOUT, 0);
    }
    return 0;
}

//  Counts an event agent_events recorded (rc 0) in the batch; rc.
static int
s_counted(agent_fake_t *self, int rc)
{
    self->batched += rc == 0;
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.create

static int
s_create_reply(const s_kernel_t *kernel, proto_kernel_create_rep_t *out, bus_error_t *err)
{
    char container[FAKE_CONTAINER_MAX];
    snprintf(container, sizeof container, "fake-%s", kernel->id);
    out->kernel_id = kernel->id;
    out->container_id = proto_arena_strdup(&out->owned_, container);
    out->kernel_host = AGENT_FAKE_KERNEL_HOST;
    return out->container_id ? BUS_OK
                             : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
}

//  What in's slots give of each fleet slot, into amounts (slot_count). A
//  slot the fleet does not offer is not counted (the scheduler places no
//  amount of it here); an amount that does not parse counts 0.
static void
s_amounts(agent_fake_t *self, const proto_kernel_create_req_t *in, int64_t *amounts)
{
    for (size_t i = 0; i < in->slots_count; i++) {
        const proto_kv_t *kv = &in->slots[i];
        size_t s = 0;
        while (s < self->slot_count && strcmp(self->slots[s].key, kv->key) != 0)
            s++;
        if (s == self->slot_count || !kv->value)
            continue;
        json_t *text = json_string(kv->value);
        bus_slots_value_t value = {false, 0};
        bus_error_t err;
        if (text &&
            bus_slots_parse_value(self->units[s], kv->key, text, &value, &err) ==
                BUS_OK &&
            !value.infinite)
            amounts[s] = value.amount;
        json_decref(text);
    }
}

//  Starts a kernel on agent: announced (durable kernel.started), then
//  remembered. *kernel_p is borrowed from the fleet.
static int
s_start(agent_fake_t *self,
        s_agent_t *agent,
        const proto_kernel_create_req_t *in,
        s_kernel_t **kernel_p,
        bus_error_t *err)
{
    s_kernel_t *kernel = calloc(1, sizeof *kernel);
    if (kernel) {
        kernel->id = strdup(in->kernel_id);
        kernel->session_id = strdup(in->session_id);
        kernel->amounts = calloc(self->slot_count, sizeof *kernel->amounts);
    }
    if (!kernel || !kernel->id || !kernel->session_id || !kernel->amounts) {
        void *dead = kernel;
        s_kernel_free(&dead);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    char container[FAKE_CONTAINER_MAX];
    snprintf(container, sizeof container, "fake-%s", kernel->id);
    proto_kernel_started_t event;
    proto_kernel_started_init(&event);
    event.kernel_id = kernel->id;
    event.session_id = kernel->session_id;
    event.agent_id = agent->id;
    event.container_id = container;
    event.kernel_host = AGENT_FAKE_KERNEL_HOST;
    event.at = bus_clock_wall_us();
    if (s_batch(self) != 0 ||
        s_counted(self, agent_events_started(self->node, &event)) != 0) {
        void *dead = kernel;
        s_kernel_free(&dead);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot record kernel %s",
                             in->kernel_id);
    }
    s_amounts(self, in, kernel->amounts);
    s_kernel_link(agent, kernel);
    s_kernel_count(self, kernel, 1);
    zhashx_insert(self->kernels, kernel->id, kernel);
    *kernel_p = kernel;
    bus_log_info("kernel started kernel=%s session=%s agent=%s", kernel->id,
                 kernel->session_id, agent->id);
    return BUS_OK;
}

static int
s_on_create(void *arg,
            const proto_kernel_create_req_t *in,
            proto_kernel_create_rep_t *out,
            bus_rpc_request_t *req,
            bus_error_t *err)
{
    (void) req;
    agent_fake_t *self = arg;
    int rc = BUS_OK;
    s_agent_t *agent = s_agent_find(self, in->agent_id);
    s_kernel_t *kernel = NULL;
    if (!agent_bundle_id_valid(in->kernel_id))
        rc = bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id");
    else if ((kernel = zhashx_lookup(self->kernels, in->kernel_id)))
        rc = BUS_OK; //  idempotent: what it has
    else if (zhashx_lookup(self->ended, in->kernel_id))
        //  The wording the scheduler recognizes from a real agent.
        rc = bus_error_set(err, BUS_STATUS_CONFLICT, "kernel %s already ended",
                           in->kernel_id);
    else if (!agent)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no agent %s here", in->agent_id);
    else
        rc = s_start(self, agent, in, &kernel, err);
    if (rc == BUS_OK)
        rc = s_create_reply(kernel, out, err);
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.destroy

//  Ends a kernel: announced (durable kernel.terminated), then forgotten
//  (its exit code kept in ended). BUS_OK, or INTERNAL when the event could
//  not be recorded (the kernel stays, so that a retry can end it).
static int
s_end(agent_fake_t *self, s_kernel_t *kernel, const char *reason, bus_error_t *err)
{
    proto_kernel_terminated_t event;
    proto_kernel_terminated_init(&event);
    event.kernel_id = kernel->id;
    event.session_id = kernel->session_id;
    event.agent_id = kernel->agent->id;
    event.exit_code = 0;
    event.reason = reason;
    event.at = bus_clock_wall_us();
    if (s_batch(self) != 0 ||
        s_counted(self, agent_events_terminated(self->node, &event)) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot record the end of %s",
                             kernel->id);
    bus_log_info("kernel terminated kernel=%s agent=%s reason=%s", kernel->id,
                 kernel->agent->id, reason);
    if (zhashx_size(self->ended) >= AGENT_FAKE_ENDED_MAX)
        zhashx_purge(self->ended);
    char *code = strdup("0");
    if (code)
        zhashx_update(self->ended, kernel->id, code);
    s_kernel_count(self, kernel, -1);
    s_kernel_unlink(kernel);
    zhashx_delete(self->kernels, kernel->id); //  frees kernel
    return BUS_OK;
}

static int
s_on_destroy(void *arg,
             const proto_kernel_destroy_req_t *in,
             proto_kernel_destroy_rep_t *out,
             bus_rpc_request_t *req,
             bus_error_t *err)
{
    (void) req;
    agent_fake_t *self = arg;
    int rc = BUS_OK;
    s_kernel_t *kernel = zhashx_lookup(self->kernels, in->kernel_id);
    const char *ended = kernel ? NULL : zhashx_lookup(self->ended, in->kernel_id);
    if (!agent_bundle_id_valid(in->kernel_id))
        rc = bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id");
    else if (kernel)
        rc = s_end(self, kernel,
                   in->reason && *in->reason ? in->reason : FAKE_REASON_DEFAULT, err);
    else if (ended)
        out->exit_code = atoi(ended); //  already destroyed: the same answer
    else
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel");
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.list

//  Adds agent's kernels to list (which has room for them), counted in out.
static void
s_list_agent(const s_agent_t *agent,
             proto_kernel_state_t *list,
             proto_kernel_list_rep_t *out)
{
    for (s_kernel_t *kernel = agent->kernels; kernel; kernel = kernel->next) {
        proto_kernel_state_t *state = &list[out->kernels_count++];
        proto_kernel_state_init(state);
        state->kernel_id = kernel->id;
        state->session_id = kernel->session_id;
        state->status = "running";
    }
}

static int
s_on_list(void *arg,
          const proto_kernel_list_req_t *in,
          proto_kernel_list_rep_t *out,
          bus_rpc_request_t *req,
          bus_error_t *err)
{
    (void) req;
    agent_fake_t *self = arg;
    int rc = BUS_OK;
    //  No agent named: every kernel behind this endpoint.
    bool all = !in->agent_id || !*in->agent_id;
    s_agent_t *agent = all ? NULL : s_agent_find(self, in->agent_id);
    size_t count = all ? zhashx_size(self->kernels) : agent ? agent->kernel_count : 0;
    proto_kernel_state_t *list = proto_arena_alloc(&out->owned_, count * sizeof *list);
    out->kernels = list;
    if (!all && !agent)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no agent %s here", in->agent_id);
    else if (!list)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    else if (agent)
        s_list_agent(agent, list, out);
    else
        for (size_t i = 0; i < self->agent_count; i++)
            s_list_agent(&self->agents[i], list, out);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Every other kernel.* method

static int
s_on_unsupported(void *arg,
                 bus_rpc_request_t *req,
                 const void *body,
                 size_t size,
                 bus_writer_t *reply,
                 bus_error_t *err)
{
    (void) arg;
    (void) body;
    (void) size;
    (void) reply;
    bus_log_info("refused method=%s reason=\"%s\"", bus_rpc_request_method(req),
                 AGENT_FAKE_NO_CONTAINERS);
    return bus_error_set(err, BUS_STATUS_UNAVAILABLE, AGENT_FAKE_NO_CONTAINERS);
}

//  kernel.hosts: a fake kernel has no hosts file; the cluster's map is
//  accepted so that cluster sessions run on fake agents as on real ones.
static int
s_on_hosts(void *arg,
           const proto_kernel_hosts_req_t *in,
           proto_kernel_hosts_rep_t *out,
           bus_rpc_request_t *req,
           bus_error_t *err)
{
    (void) arg, (void) in, (void) out, (void) req, (void) err;
    return BUS_OK;
}

//  Serves create, destroy, list and hosts, and refuses every other kernel.* method
//  of the schema (so one added later is refused too). 0 or -1.
static int
s_handle(agent_fake_t *self)
{
    const bus_node_method_t methods[] = {
        proto_kernel_create_method(s_on_create),
        proto_kernel_destroy_method(s_on_destroy),
        proto_kernel_list_method(s_on_list),
        proto_kernel_hosts_method(s_on_hosts),
    };
    const size_t count = sizeof methods / sizeof methods[0];
    if (bus_node_serve(self->node, methods, count, self, NULL) != BUS_OK)
        return -1;
    static const char prefix[] = "kernel.";
    for (size_t i = 0; i < proto_entry_count; i++) {
        const proto_entry_t *entry = &proto_entries[i];
        bool served = false;
        for (size_t m = 0; m < count && !served; m++)
            served = strcmp(entry->name, methods[m].method) == 0;
        if (entry->kind != PROTO_REQUEST ||
            strncmp(entry->name, prefix, sizeof prefix - 1) != 0 || served)
            continue;
        if (bus_node_handle(self->node, entry->name, s_on_unsupported, self) != 0)
            return -1;
    }
    return 0;
}

//  ---------------------------------------------------------------------------
//  Heartbeats

static void
s_beat(agent_fake_t *self, const s_agent_t *agent, bus_writer_t *writer)
{
    char texts[FAKE_SLOTS_MAX][BUS_SLOTS_VALUE_MAX];
    proto_kv_t occupied[FAKE_SLOTS_MAX];
    for (size_t i = 0; i < self->slot_count; i++) {
        bus_slots_format_value(self->units[i],
                               &(bus_slots_value_t){false, agent->occupied[i]}, texts[i]);
        occupied[i] = (proto_kv_t){self->slots[i].key, texts[i]};
    }
    proto_agent_heartbeat_t beat;
    proto_agent_heartbeat_init(&beat);
    beat.agent_id = agent->id;
    beat.region = self->config->region;
    beat.scaling_group = self->config->scaling_group;
    beat.architecture = FAKE_ARCHITECTURE;
    beat.version = BACKPLANE_VERSION;
    beat.rpc_endpoint = bus_node_rpc_endpoint(self->node);
    beat.schedulable = true;
    beat.available_slots = self->slots;
    beat.available_slots_count = self->slot_count;
    beat.occupied_slots = occupied;
    beat.occupied_slots_count = self->slot_count;
    beat.kernel_count = agent->kernel_count;
    bus_writer_reset(writer);
    if (proto_agent_heartbeat_write(&beat, writer) == 0)
        bus_node_publish(self->node, PROTO_AGENT_HEARTBEAT, bus_writer_data(writer),
                         bus_writer_size(writer));
}

//  One tick: the next slice of the agents heartbeats.
static void
s_on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    agent_fake_t *self = arg;
    size_t first = self->slice * self->agent_count / self->slices;
    size_t last = (self->slice + 1) * self->agent_count / self->slices;
    self->slice = (self->slice + 1) % self->slices;
    bus_writer_t *writer = bus_writer_new();
    for (size_t i = first; writer && i < last; i++)
        s_beat(self, &self->agents[i], writer);
    bus_writer_destroy(&writer);
}

//  ---------------------------------------------------------------------------
//  The fleet

agent_fake_t *
agent_fake_new(bus_node_t *node, const agent_config_t *config, bus_error_t *err)
{
    assert(node && config);
    if (config->fake_agents < 1 || config->fake_agents > AGENT_FAKE_AGENTS_MAX) {
        bus_error_set(err, BUS_STATUS_INVALID, "fake.agents: %d is not in 1..%d",
                      config->fake_agents, AGENT_FAKE_AGENTS_MAX);
        return NULL;
    }
    const char *name = bus_node_name(node);
    //  The last agent's id must fit the heartbeat's agent_id (128 bytes).
    char last[FAKE_AGENT_ID_MAX];
    int length = snprintf(last, sizeof last, "%s-%d", name, config->fake_agents);
    if (length < 0 || length > 128) {
        bus_error_set(err, BUS_STATUS_INVALID,
                      "fake agents: node name '%s' is too long for agent ids", name);
        return NULL;
    }
    agent_fake_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    self->config = config;
    if (agent_fake_parse_slots(config->fake_slots, &self->slots_arena, &self->slots,
                               &self->slot_count, err) != BUS_OK)
        goto fail;
    self->agent_count = (size_t) config->fake_agents;
    self->agents = calloc(self->agent_count, sizeof *self->agents);
    self->units = calloc(self->slot_count, sizeof *self->units);
    self->occupied = calloc(self->agent_count * self->slot_count, sizeof *self->occupied);
    self->kernels = zhashx_new();
    self->ended = zhashx_new();
    if (!self->agents || !self->units || !self->occupied || !self->kernels ||
        !self->ended) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        goto fail;
    }
    zhashx_set_destructor(self->kernels, s_kernel_free);
    zhashx_set_destructor(self->ended, (zhashx_destructor_fn *) zstr_free);
    for (size_t i = 0; i < self->slot_count; i++)
        self->units[i] = bus_slots_unit(self->slots[i].key);
    for (size_t i = 0; i < self->agent_count; i++) {
        snprintf(self->agents[i].id, sizeof self->agents[i].id, "%s-%zu", name, i + 1);
        self->agents[i].occupied = &self->occupied[i * self->slot_count];
    }
    self->flush = event_new(bus_node_base(node), -1, 0, s_on_flush, self);
    if (!self->flush) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot create the flush event");
        goto fail;
    }
    if (s_handle(self) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot serve the kernel methods");
        goto fail;
    }
    int period_ms = config->node.heartbeat_ms;
    size_t slices = (size_t) (period_ms / AGENT_FAKE_BEAT_SLICE_MS);
    self->slices = slices < 1                   ? 1
                   : slices > self->agent_count ? self->agent_count
                                                : slices;
    int tick_ms = period_ms / (int) self->slices;
    struct timeval tv = {tick_ms / 1000, (tick_ms % 1000) * 1000};
    self->timer = event_new(bus_node_base(node), -1, EV_PERSIST, s_on_timer, self);
    if (!self->timer || event_add(self->timer, &tv) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot start the heartbeat timer");
        goto fail;
    }
    bus_log_notice("fake agents ready count=%zu first=%s last=%s slots=%s"
                   " scaling_group=%s",
                   self->agent_count, self->agents[0].id, last, config->fake_slots,
                   config->scaling_group);
    return self;
fail:
    agent_fake_destroy(&self);
    return NULL;
}

void
agent_fake_destroy(agent_fake_t **self_p)
{
    assert(self_p);
    agent_fake_t *self = *self_p;
    if (!self)
        return;
    *self_p = NULL;
    if (self->timer)
        event_free(self->timer);
    s_commit(self); //  the events of the last burst
    if (self->flush)
        event_free(self->flush);
    zhashx_destroy(&self->kernels);
    zhashx_destroy(&self->ended);
    proto_arena_free(&self->slots_arena);
    free(self->units);
    free(self->occupied);
    free(self->agents);
    free(self);
}

//  ---------------------------------------------------------------------------
//  Slots

int
agent_fake_parse_slots(const char *text,
                       void **owned,
                       const proto_kv_t **slots_p,
                       size_t *count_p,
                       bus_error_t *err)
{
    assert(text && slots_p && count_p);
    *slots_p = NULL;
    *count_p = 0;
    char *copy = strdup(text);
    proto_kv_t *slots = proto_arena_alloc(owned, FAKE_SLOTS_MAX * sizeof *slots);
    size_t count = 0;
    int rc =
        copy && slots ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    char *save = NULL;
    for (char *item = copy ? strtok_r(copy, ",", &save) : NULL; item && rc == BUS_OK;
         item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (!eq || eq == item) {
            rc = bus_error_set(err, BUS_STATUS_INVALID,
                               "fake.slots: expected slot=amount, got '%s'", item);
            break;
        }
        *eq = '\0';
        bus_slots_unit_t unit = bus_slots_unit(item);
        bool twice = false;
        for (size_t i = 0; i < count; i++)
            twice = twice || strcmp(slots[i].key, item) == 0;
        bus_slots_value_t value = {false, 0};
        json_t *amount = json_string(eq + 1);
        if (unit == BUS_SLOTS_UNKNOWN)
            rc = bus_error_set(err, BUS_STATUS_INVALID,
                               "fake.slots: Unknown slot type: %s", item);
        else if (twice)
            rc = bus_error_set(err, BUS_STATUS_INVALID, "fake.slots: %s given twice",
                               item);
        else if (count == FAKE_SLOTS_MAX)
            rc = bus_error_set(err, BUS_STATUS_INVALID, "fake.slots: too many slots");
        else if (!amount)
            rc = bus_error_set(err, BUS_STATUS_INVALID, "fake.slots: %s: bad amount",
                               item);
        else if ((rc = bus_slots_parse_value(unit, item, amount, &value, err)) ==
                     BUS_OK &&
                 value.infinite)
            rc = bus_error_set(err, BUS_STATUS_INVALID,
                               "fake.slots: %s cannot be unlimited", item);
        json_decref(amount);
        if (rc != BUS_OK)
            break;
        char formatted[BUS_SLOTS_VALUE_MAX];
        bus_slots_format_value(unit, &value, formatted);
        slots[count].key = proto_arena_strdup(owned, item);
        slots[count].value = proto_arena_strdup(owned, formatted);
        count++;
        if (!slots[count - 1].key || !slots[count - 1].value)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    if (rc == BUS_OK && count == 0)
        rc = bus_error_set(err, BUS_STATUS_INVALID, "fake.slots: no slot given");
    free(copy);
    if (rc != BUS_OK) {
        proto_arena_free(owned);
        return rc;
    }
    *slots_p = slots;
    *count_p = count;
    return BUS_OK;
}
