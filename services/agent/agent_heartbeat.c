/*  =========================================================================
    agent_heartbeat - the periodic agent.heartbeat event

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <sys/sysinfo.h> //  sysinfo for the total RAM
#include <sys/utsname.h> //  uname for the architecture

struct _agent_heartbeat_t {
    bus_node_t *node;
    const agent_config_t *config;
    const agent_accel_t *accel;
    struct event *timer;
    int64_t cpu;               //  thousandths
    int64_t mem;               //  bytes
    char architecture[72];     //  uname machine (up to 65 bytes)
    int64_t started_at;        //  this process's start (wall µs): tells the scheduler
                               //  that calls sent to an earlier process are lost
    agent_hoststats_t *host;   //  the previous reading of the host's figures
    proto_agent_core_t *cores; //  agent.stats' list, AGENT_HOSTSTATS_CORES_MAX
};

//  One slot of a heartbeat's maps: its name (borrowed), amounts and text.
typedef struct {
    const char *name;
    bus_slots_unit_t unit;
    int64_t capacity;
    int64_t occupied;
    char available_text[BUS_SLOTS_VALUE_MAX];
    char occupied_text[BUS_SLOTS_VALUE_MAX];
} s_slot_t;

//  One slot's amount from its option: "auto" is what the machine has.
static int
s_resolve(bus_slots_unit_t unit,
          const char *slot,
          const char *option,
          int64_t automatic,
          int64_t *out,
          bus_error_t *err)
{
    bus_slots_value_t value = {false, automatic};
    if (strcmp(option, "auto") != 0) {
        json_t *text = json_string(option);
        int rc = text ? bus_slots_parse_value(unit, slot, text, &value, err)
                      : bus_error_set(err, BUS_STATUS_INVALID, "invalid %s", slot);
        json_decref(text);
        if (rc != BUS_OK)
            return rc;
        if (value.infinite)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "agent.slots.%s cannot be unlimited", slot);
    }
    *out = value.amount;
    return BUS_OK;
}

//  The amount of a formatted slot value; 0 when it does not parse.
static int64_t
s_amount(bus_slots_unit_t unit, const char *name, const char *text)
{
    json_t *input = json_string(text ? text : "");
    bus_slots_value_t value = {false, 0};
    bus_error_t err;
    bool ok = input && bus_slots_parse_value(unit, name, input, &value, &err) == BUS_OK &&
              !value.infinite;
    json_decref(input);
    return ok ? value.amount : 0;
}

//  What s_occupied's callback adds to: the slots so far and their names.
typedef struct {
    s_slot_t *slots;
    size_t count;
    char (*names)[AGENT_ACCEL_SLOT_NAME_MAX];
} s_occupied_t;

//  One row's amount of one slot, added to its slot; a slot the agent does
//  not offer is added when there is room, its name copied into names.
static void
s_on_slot(const char *name, const char *text, void *arg)
{
    s_occupied_t *occupied = arg;
    bus_slots_unit_t unit = bus_slots_unit(name);
    if (unit == BUS_SLOTS_UNKNOWN)
        return; //  not a slot the scheduler counts
    s_slot_t *slots = occupied->slots;
    size_t i = 0;
    while (i < occupied->count && strcmp(slots[i].name, name) != 0)
        i++;
    if (i == occupied->count) {
        if (occupied->count == AGENT_HEARTBEAT_SLOTS_MAX)
            return;
        //  The row's text goes with the next step: the name is copied.
        snprintf(occupied->names[i], AGENT_ACCEL_SLOT_NAME_MAX, "%s", name);
        slots[occupied->count++] = (s_slot_t){.name = occupied->names[i], .unit = unit};
    }
    int64_t amount = s_amount(unit, name, text);
    slots[i].occupied =
        amount > INT64_MAX - slots[i].occupied ? INT64_MAX : slots[i].occupied + amount;
}

//  Adds what the kernels table's rows hold to slots (count of them in use,
//  room for AGENT_HEARTBEAT_SLOTS_MAX). Returns the new count; *kernels_p
//  the rows.
static size_t
s_occupied(agent_heartbeat_t *self,
           s_slot_t *slots,
           size_t count,
           char names[][AGENT_ACCEL_SLOT_NAME_MAX],
           uint64_t *kernels_p)
{
    bus_db_t *db = bus_node_db(self->node);
    *kernels_p = agent_db_kernels_count(db);
    s_occupied_t occupied = {slots, count, names};
    agent_db_slots_each(db, s_on_slot, &occupied);
    return occupied.count;
}

void
agent_heartbeat_send(agent_heartbeat_t *self)
{
    s_slot_t slots[AGENT_HEARTBEAT_SLOTS_MAX];
    size_t count = 0;
    slots[count++] =
        (s_slot_t){.name = "cpu", .unit = BUS_SLOTS_COUNT, .capacity = self->cpu};
    slots[count++] =
        (s_slot_t){.name = "mem", .unit = BUS_SLOTS_BYTES, .capacity = self->mem};
    agent_accel_slot_state_t states[AGENT_HEARTBEAT_SLOTS_MAX - 2];
    size_t accel =
        agent_accel_slots(self->accel, states, sizeof states / sizeof states[0]);
    if (accel > sizeof states / sizeof states[0])
        accel = sizeof states / sizeof states[0];
    //  What one kernel could be given now, per accelerator slot: the
    //  scheduler's totals cannot see how the devices are split.
    char placeable_text[sizeof states / sizeof states[0]][BUS_SLOTS_VALUE_MAX];
    proto_kv_t placeable[sizeof states / sizeof states[0]];
    for (size_t i = 0; i < accel; i++) {
        slots[count++] = (s_slot_t){.name = states[i].name,
                                    .unit = states[i].unit,
                                    .capacity = states[i].capacity};
        bus_slots_format_value(states[i].unit,
                               &(bus_slots_value_t){false, states[i].placeable},
                               placeable_text[i]);
        placeable[i] = (proto_kv_t){states[i].name, placeable_text[i]};
    }
    size_t available = count;
    uint64_t kernels = 0;
    char names[AGENT_HEARTBEAT_SLOTS_MAX][AGENT_ACCEL_SLOT_NAME_MAX];
    count = s_occupied(self, slots, count, names, &kernels);
    proto_kv_t offered[AGENT_HEARTBEAT_SLOTS_MAX], occupied[AGENT_HEARTBEAT_SLOTS_MAX];
    for (size_t i = 0; i < count; i++) {
        bus_slots_format_value(slots[i].unit,
                               &(bus_slots_value_t){false, slots[i].capacity},
                               slots[i].available_text);
        bus_slots_format_value(slots[i].unit,
                               &(bus_slots_value_t){false, slots[i].occupied},
                               slots[i].occupied_text);
        offered[i] = (proto_kv_t){slots[i].name, slots[i].available_text};
        occupied[i] = (proto_kv_t){slots[i].name, slots[i].occupied_text};
    }
    proto_agent_heartbeat_t beat;
    proto_agent_heartbeat_init(&beat);
    beat.agent_id = bus_node_name(self->node);
    beat.region = self->config->region;
    beat.scaling_group = self->config->scaling_group;
    beat.architecture = self->architecture;
    beat.version = BACKPLANE_VERSION;
    beat.rpc_endpoint = bus_node_rpc_endpoint(self->node);
    beat.schedulable = true;
    beat.available_slots = offered;
    beat.available_slots_count = available;
    beat.occupied_slots = occupied;
    beat.occupied_slots_count = count;
    beat.kernel_count = kernels;
    beat.started_at = self->started_at;
    beat.placeable_slots = accel ? placeable : NULL;
    beat.placeable_slots_count = accel;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_agent_heartbeat_write(&beat, writer) == 0)
        bus_node_publish(self->node, PROTO_AGENT_HEARTBEAT, bus_writer_data(writer),
                         bus_writer_size(writer));
    bus_writer_destroy(&writer);
}

//  Each GPU's figures now into gpus (AGENT_HEARTBEAT_GPUS_MAX); how many.
static size_t
s_gpus(const agent_accel_t *accel, proto_agent_gpu_t *gpus)
{
    const agent_accel_plugin_t *cuda = agent_accel_cuda_plugin(accel);
    agent_accel_gpu_stats_t figures[AGENT_HEARTBEAT_GPUS_MAX];
    size_t count =
        cuda ? agent_accel_cuda_gpu_stats(cuda, figures, AGENT_HEARTBEAT_GPUS_MAX) : 0;
    for (size_t i = 0; i < count; i++) {
        const agent_accel_device_t *device =
            agent_accel_plugin_device(cuda, figures[i].device);
        gpus[i] = (proto_agent_gpu_t){.id = device->id,
                                      .index = device->index,
                                      .util_pct = figures[i].util_pct,
                                      .mem_used_bytes = figures[i].mem_used_bytes,
                                      .mem_total_bytes = figures[i].mem_total_bytes};
    }
    return count;
}

void
agent_heartbeat_send_stats(agent_heartbeat_t *self)
{
    assert(self);
    agent_hoststats_sample_t sample;
    if (agent_hoststats_take(self->host, zclock_mono(), &sample) != 0) {
        bus_log_warning("host figures unread: /proc/stat or /proc/meminfo");
        return;
    }
    proto_agent_stats_t stats;
    proto_agent_stats_init(&stats);
    stats.agent_id = bus_node_name(self->node);
    stats.interval_ms = sample.interval_ms;
    for (size_t i = 0; i < sample.cores; i++)
        self->cores[i] = (proto_agent_core_t){.busy_ms = sample.busy_ms[i]};
    stats.cores = self->cores;
    stats.cores_count = sample.cores;
    stats.mem_used_bytes = sample.mem_used_bytes;
    stats.mem_total_bytes = sample.mem_total_bytes;
    proto_agent_gpu_t gpus[AGENT_HEARTBEAT_GPUS_MAX];
    stats.gpus = gpus;
    stats.gpus_count = s_gpus(self->accel, gpus);
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_agent_stats_write(&stats, writer) == 0)
        bus_node_publish(self->node, PROTO_AGENT_STATS, bus_writer_data(writer),
                         bus_writer_size(writer));
    bus_writer_destroy(&writer);
}

//  Every bus.heartbeat_ms: the heartbeat, the host's figures, and the
//  expiry of ended kernels' kept logs (an indexed delete, cheap when
//  nothing is due).
static void
s_on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    agent_heartbeat_t *self = arg;
    agent_heartbeat_send(self);
    agent_heartbeat_send_stats(self);
    int64_t before =
        bus_clock_wall_us() - (int64_t) self->config->ended_log_retention_s * 1000000;
    int64_t expired = agent_db_ended_logs_expire(bus_node_db(self->node), before);
    if (expired > 0)
        bus_log_info("ended kernels' logs expired count=%" PRId64, expired);
}

agent_heartbeat_t *
agent_heartbeat_new(bus_node_t *node,
                    const agent_config_t *config,
                    const agent_accel_t *accel,
                    bus_error_t *err)
{
    assert(node && config && accel);
    agent_heartbeat_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    self->config = config;
    self->accel = accel;
    self->started_at = bus_clock_wall_us();
    self->host = agent_hoststats_new();
    self->cores = calloc(AGENT_HOSTSTATS_CORES_MAX, sizeof *self->cores);
    if (!self->host || !self->cores) {
        agent_heartbeat_destroy(&self);
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    //  The first reading, so the first agent.stats has an interval.
    agent_hoststats_sample_t first;
    agent_hoststats_take(self->host, zclock_mono(), &first);
    struct sysinfo info;
    int64_t ram = sysinfo(&info) == 0 ? (int64_t) info.totalram * info.mem_unit : 0;
    int64_t cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (s_resolve(BUS_SLOTS_COUNT, "cpu", config->cpu, cpus * BUS_SLOTS_COUNT_SCALE,
                  &self->cpu, err) != BUS_OK ||
        s_resolve(BUS_SLOTS_BYTES, "mem", config->mem, ram, &self->mem, err) != BUS_OK) {
        agent_heartbeat_destroy(&self);
        return NULL;
    }
    struct utsname host;
    snprintf(self->architecture, sizeof self->architecture, "%s",
             uname(&host) == 0 ? host.machine : "x86_64");
    int period_ms = config->node.heartbeat_ms;
    struct timeval tv = {period_ms / 1000, (period_ms % 1000) * 1000};
    self->timer = event_new(bus_node_base(node), -1, EV_PERSIST, s_on_timer, self);
    if (!self->timer || event_add(self->timer, &tv) != 0) {
        agent_heartbeat_destroy(&self);
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot start the heartbeat timer");
        return NULL;
    }
    char cpu[BUS_SLOTS_VALUE_MAX], mem[BUS_SLOTS_VALUE_MAX];
    bus_slots_format_value(BUS_SLOTS_COUNT, &(bus_slots_value_t){false, self->cpu}, cpu);
    bus_slots_format_value(BUS_SLOTS_BYTES, &(bus_slots_value_t){false, self->mem}, mem);
    bus_log_notice("agent slots cpu=%s mem=%s scaling_group=%s", cpu, mem,
                   config->scaling_group);
    agent_accel_slot_state_t states[AGENT_HEARTBEAT_SLOTS_MAX];
    size_t count = agent_accel_slots(accel, states, AGENT_HEARTBEAT_SLOTS_MAX);
    for (size_t i = 0; i < count && i < AGENT_HEARTBEAT_SLOTS_MAX; i++) {
        char capacity[BUS_SLOTS_VALUE_MAX];
        bus_slots_format_value(states[i].unit,
                               &(bus_slots_value_t){false, states[i].capacity}, capacity);
        bus_log_notice("agent slots %s=%s", states[i].name, capacity);
    }
    return self;
}

void
agent_heartbeat_destroy(agent_heartbeat_t **self_p)
{
    assert(self_p);
    if (*self_p) {
        if ((*self_p)->timer)
            event_free((*self_p)->timer);
        agent_hoststats_destroy(&(*self_p)->host);
        free((*self_p)->cores);
        free(*self_p);
        *self_p = NULL;
    }
}
