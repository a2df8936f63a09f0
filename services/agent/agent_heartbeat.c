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
    struct event *timer;
    char cpu[BUS_SLOTS_VALUE_MAX];
    char mem[BUS_SLOTS_VALUE_MAX];
    char architecture[72]; //  uname machine (up to 65 bytes)
};

//  One slot's amount from its option: "auto" is what the machine has.
static int
s_resolve(bus_slots_unit_t unit,
          const char *slot,
          const char *option,
          int64_t automatic,
          char out[BUS_SLOTS_VALUE_MAX],
          bus_error_t *err)
{
    bus_slots_value_t value = {false, automatic};
    if (strcmp(option, "auto") != 0) {
        json_t *text = json_string(option);
        int rc = bus_slots_parse_value(unit, slot, text, &value, err);
        json_decref(text);
        if (rc != BUS_OK)
            return rc;
    }
    bus_slots_format_value(unit, &value, out);
    return BUS_OK;
}

void
agent_heartbeat_send(agent_heartbeat_t *self)
{
    proto_kv_t slots[] = {{"cpu", self->cpu}, {"mem", self->mem}};
    proto_agent_heartbeat_t beat;
    proto_agent_heartbeat_init(&beat);
    beat.agent_id = (char *) bus_node_name(self->node);
    beat.region = self->config->region;
    beat.scaling_group = self->config->scaling_group;
    beat.architecture = self->architecture;
    beat.version = BACKPLANE_VERSION;
    beat.rpc_endpoint = (char *) bus_node_rpc_endpoint(self->node);
    beat.schedulable = true;
    beat.available_slots = slots;
    beat.available_slots_count = sizeof slots / sizeof slots[0];
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_agent_heartbeat_write(&beat, writer) == 0)
        bus_node_publish(self->node, PROTO_AGENT_HEARTBEAT, bus_writer_data(writer),
                         bus_writer_size(writer));
    bus_writer_destroy(&writer);
}

static void
s_on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    agent_heartbeat_send(arg);
}

agent_heartbeat_t *
agent_heartbeat_new(bus_node_t *node, const agent_config_t *config, bus_error_t *err)
{
    agent_heartbeat_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->node = node;
    self->config = config;
    struct sysinfo info;
    int64_t ram = sysinfo(&info) == 0 ? (int64_t) info.totalram * info.mem_unit : 0;
    int64_t cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (s_resolve(BUS_SLOTS_COUNT, "cpu", config->cpu, cpus * BUS_SLOTS_COUNT_SCALE,
                  self->cpu, err) != BUS_OK ||
        s_resolve(BUS_SLOTS_BYTES, "mem", config->mem, ram, self->mem, err) != BUS_OK) {
        free(self);
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
    bus_log_notice("agent slots cpu=%s mem=%s scaling_group=%s", self->cpu, self->mem,
                   config->scaling_group);
    return self;
}

void
agent_heartbeat_destroy(agent_heartbeat_t **self_p)
{
    assert(self_p);
    if (*self_p) {
        if ((*self_p)->timer)
            event_free((*self_p)->timer);
        free(*self_p);
        *self_p = NULL;
    }
}
