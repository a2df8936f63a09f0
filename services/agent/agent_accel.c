/*  =========================================================================
    agent_accel - accelerator plugins and the device allocator of the agent

    Each plugin keeps, per device, the SHARES thousandths in use and whether
    a WHOLE slot holds it; the allocator keeps each kernel's parts in a hash
    by kernel id, so releasing is idempotent and the invariant check can add
    the parts up again. An allocation is planned and applied part by part on
    the live counters and rolled back part by part when a later part does
    not fit, so nothing is ever half taken. Text (the stored form, the
    environment values) is written with open_memstream.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

#include "agent_accel_private.h"

//  ---------------------------------------------------------------------------
//  Plugins

static void
s_copy(char *out, size_t size, const char *text)
{
    snprintf(out, size, "%s", text ? text : "");
}

agent_accel_plugin_t *
agent_accel_plugin_new(const agent_accel_info_t *info)
{
    assert(info && info->name && *info->name);
    assert(strlen(info->name) < AGENT_ACCEL_NAME_MAX);
    assert(info->shares_per_device > 0 &&
           info->shares_per_device <= AGENT_ACCEL_SHARES_MAX);
    assert(info->quantum > 0 && info->shares_per_device % info->quantum == 0);
    agent_accel_plugin_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    s_copy(self->name, sizeof self->name, info->name);
    s_copy(self->env_prefix, sizeof self->env_prefix, info->env_prefix);
    self->plain_visible = info->plain_visible;
    self->visible_by_id = info->visible_by_id;
    s_copy(self->node_prefix, sizeof self->node_prefix, info->node_prefix);
    for (size_t i = 0; info->shared_nodes && info->shared_nodes[i]; i++) {
        assert(i < AGENT_ACCEL_SHARED_NODES);
        s_copy(self->shared_nodes[i], AGENT_ACCEL_NODE_MAX, info->shared_nodes[i]);
        self->shared_count = i + 1;
    }
    self->shares_per_device = info->shares_per_device;
    self->quantum = info->quantum;
    return self;
}

void
agent_accel_plugin_destroy(agent_accel_plugin_t **self_p)
{
    assert(self_p);
    agent_accel_plugin_t *self = *self_p;
    if (self && self->state_destroy)
        self->state_destroy(self->state);
    free(self);
    *self_p = NULL;
}

void
agent_accel_plugin_set_state(agent_accel_plugin_t *self,
                             void *state,
                             agent_accel_state_destroy_fn *destroy)
{
    assert(self && destroy && !self->state_destroy);
    self->state = state;
    self->state_destroy = destroy;
}

void *
agent_accel_plugin_state(const agent_accel_plugin_t *self,
                         agent_accel_state_destroy_fn *destroy)
{
    assert(self && destroy);
    return self->state_destroy == destroy ? self->state : NULL;
}

int
agent_accel_plugin_add_slot(agent_accel_plugin_t *self,
                            const char *slot,
                            agent_accel_kind_t kind)
{
    assert(self && slot);
    if (self->slot_count == AGENT_ACCEL_PLUGIN_SLOTS || !*slot ||
        strlen(slot) >= AGENT_ACCEL_SLOT_NAME_MAX ||
        bus_slots_unit(slot) != BUS_SLOTS_COUNT)
        return -1;
    for (size_t i = 0; i < self->slot_count; i++)
        if (strcmp(self->slots[i].name, slot) == 0)
            return -1;
    agent_accel_slot_t *out = &self->slots[self->slot_count++];
    s_copy(out->name, sizeof out->name, slot);
    out->unit = BUS_SLOTS_COUNT;
    out->kind = kind;
    return 0;
}

int
agent_accel_plugin_add_device(agent_accel_plugin_t *self,
                              const agent_accel_device_t *device)
{
    assert(self && device);
    if (self->device_count == AGENT_ACCEL_DEVICES_MAX || device->memory_bytes < 0)
        return -1;
    for (size_t i = 0; i < self->device_count; i++)
        if (self->devices[i].index == device->index ||
            strcmp(self->devices[i].id, device->id) == 0)
            return -1;
    agent_accel_device_t *out = &self->devices[self->device_count++];
    *out = *device;
    out->id[sizeof out->id - 1] = '\0';
    out->model[sizeof out->model - 1] = '\0';
    return 0;
}

const char *
agent_accel_plugin_name(const agent_accel_plugin_t *self)
{
    assert(self);
    return self->name;
}

size_t
agent_accel_plugin_slot_count(const agent_accel_plugin_t *self)
{
    assert(self);
    return self->slot_count;
}

const agent_accel_slot_t *
agent_accel_plugin_slot(const agent_accel_plugin_t *self, size_t i)
{
    assert(self && i < self->slot_count);
    return &self->slots[i];
}

size_t
agent_accel_plugin_device_count(const agent_accel_plugin_t *self)
{
    assert(self);
    return self->device_count;
}

const agent_accel_device_t *
agent_accel_plugin_device(const agent_accel_plugin_t *self, size_t i)
{
    assert(self && i < self->device_count);
    return &self->devices[i];
}

//  ---------------------------------------------------------------------------
//  The allocator

static void
s_alloc_destroy(void **item_p)
{
    free(*item_p);
    *item_p = NULL;
}

agent_accel_t *
agent_accel_new(void)
{
    agent_accel_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->kernels = zhashx_new();
    if (!self->kernels) {
        free(self);
        return NULL;
    }
    zhashx_set_destructor(self->kernels, s_alloc_destroy);
    return self;
}

void
agent_accel_destroy(agent_accel_t **self_p)
{
    assert(self_p);
    agent_accel_t *self = *self_p;
    if (!self)
        return;
    for (size_t i = 0; i < self->plugin_count; i++)
        agent_accel_plugin_destroy(&self->plugins[i]);
    zhashx_destroy(&self->kernels);
    free(self);
    *self_p = NULL;
}

//  The plugin and slot positions of a slot name; false when no plugin has it.
static bool
s_find_slot(const agent_accel_t *self, const char *name, size_t *plugin, size_t *slot)
{
    for (size_t p = 0; p < self->plugin_count; p++)
        for (size_t s = 0; s < self->plugins[p]->slot_count; s++)
            if (strcmp(self->plugins[p]->slots[s].name, name) == 0) {
                *plugin = p;
                *slot = s;
                return true;
            }
    return false;
}

int
agent_accel_add(agent_accel_t *self, agent_accel_plugin_t **plugin_p, bus_error_t *err)
{
    assert(self && plugin_p && *plugin_p);
    agent_accel_plugin_t *plugin = *plugin_p;
    if (self->plugin_count == AGENT_ACCEL_PLUGINS_MAX)
        return bus_error_set(err, BUS_STATUS_CONFLICT, "too many accelerator plugins");
    for (size_t p = 0; p < self->plugin_count; p++)
        if (strcmp(self->plugins[p]->name, plugin->name) == 0)
            return bus_error_set(err, BUS_STATUS_CONFLICT,
                                 "accelerator plugin %s is loaded already", plugin->name);
    size_t p, s;
    for (size_t i = 0; i < plugin->slot_count; i++)
        if (s_find_slot(self, plugin->slots[i].name, &p, &s))
            return bus_error_set(err, BUS_STATUS_CONFLICT,
                                 "slot %s of plugin %s is declared by plugin %s already",
                                 plugin->slots[i].name, plugin->name,
                                 self->plugins[p]->name);
    self->plugins[self->plugin_count++] = plugin;
    *plugin_p = NULL;
    return BUS_OK;
}

size_t
agent_accel_plugin_count(const agent_accel_t *self)
{
    assert(self);
    return self->plugin_count;
}

const agent_accel_plugin_t *
agent_accel_plugin(const agent_accel_t *self, size_t i)
{
    assert(self && i < self->plugin_count);
    return self->plugins[i];
}

void
agent_accel_log(const agent_accel_t *self)
{
    assert(self);
    for (size_t p = 0; p < self->plugin_count; p++) {
        const agent_accel_plugin_t *plugin = self->plugins[p];
        for (size_t d = 0; d < plugin->device_count; d++) {
            const agent_accel_device_t *device = &plugin->devices[d];
            bus_log_notice("accelerator plugin=%s index=%" PRIu32 " id=%s model=\"%s\""
                           " memory=%" PRId64 " minor=%" PRId32,
                           plugin->name, device->index, device->id, device->model,
                           device->memory_bytes, device->minor);
        }
    }
}

static int64_t
s_free(const agent_accel_plugin_t *plugin, size_t d)
{
    return plugin->whole[d] ? 0 : plugin->shares_per_device - plugin->used[d];
}

static bool
s_untouched(const agent_accel_plugin_t *plugin, size_t d)
{
    return !plugin->whole[d] && plugin->used[d] == 0;
}

//  A slot's capacity on one device, in thousandths.
static int64_t
s_capacity(const agent_accel_plugin_t *plugin, const agent_accel_slot_t *slot)
{
    return slot->kind == AGENT_ACCEL_WHOLE ? AGENT_ACCEL_DEVICE_UNIT
                                           : plugin->shares_per_device;
}

size_t
agent_accel_slots(const agent_accel_t *self, agent_accel_slot_state_t *out, size_t max)
{
    assert(self);
    size_t count = 0;
    for (size_t p = 0; p < self->plugin_count; p++) {
        const agent_accel_plugin_t *plugin = self->plugins[p];
        for (size_t s = 0; s < plugin->slot_count && plugin->device_count > 0; s++) {
            const agent_accel_slot_t *slot = &plugin->slots[s];
            int64_t used = 0, untouched = 0, most = 0;
            for (size_t d = 0; d < plugin->device_count; d++) {
                used += slot->kind == AGENT_ACCEL_WHOLE
                            ? (plugin->whole[d] ? AGENT_ACCEL_DEVICE_UNIT : 0)
                            : plugin->used[d];
                if (s_untouched(plugin, d))
                    untouched++;
                else if (!plugin->whole[d] && s_free(plugin, d) > most)
                    most = s_free(plugin, d);
            }
            //  What one kernel could be given now (see s_take_whole and
            //  s_take_shares): whole devices need untouched ones; shares
            //  take untouched devices whole and the rest on the device in
            //  use with the most free, so any amount up to the sum fits.
            int64_t placeable = slot->kind == AGENT_ACCEL_WHOLE
                                    ? untouched * AGENT_ACCEL_DEVICE_UNIT
                                    : untouched * plugin->shares_per_device + most;
            if (out && count < max)
                out[count] = (agent_accel_slot_state_t){slot->name, slot->unit,
                                                        (int64_t) plugin->device_count *
                                                            s_capacity(plugin, slot),
                                                        used, placeable};
            count++;
        }
    }
    return count;
}

//  ---------------------------------------------------------------------------
//  Taking and giving back parts

//  Takes part if it fits; false (nothing changed) when it does not.
static bool
s_apply(agent_accel_t *self, const agent_accel_part_t *part)
{
    agent_accel_plugin_t *plugin = self->plugins[part->plugin];
    size_t d = part->device;
    if (plugin->whole[d] || part->amount <= 0)
        return false;
    if (plugin->slots[part->slot].kind == AGENT_ACCEL_WHOLE) {
        if (plugin->used[d] != 0 || part->amount != AGENT_ACCEL_DEVICE_UNIT)
            return false;
        plugin->whole[d] = true;
    } else {
        if (part->amount > plugin->shares_per_device - plugin->used[d])
            return false;
        plugin->used[d] += part->amount;
    }
    return true;
}

//  Gives back a part s_apply took.
static void
s_unapply(agent_accel_t *self, const agent_accel_part_t *part)
{
    agent_accel_plugin_t *plugin = self->plugins[part->plugin];
    size_t d = part->device;
    if (plugin->slots[part->slot].kind == AGENT_ACCEL_WHOLE) {
        assert(plugin->whole[d]);
        plugin->whole[d] = false;
    } else {
        assert(plugin->used[d] >= part->amount);
        plugin->used[d] -= part->amount;
    }
}

//  Gives back the first count parts of alloc, last first.
static void
s_rollback(agent_accel_t *self, const agent_accel_alloc_t *alloc, size_t count)
{
    while (count > 0)
        s_unapply(self, &alloc->parts[--count]);
}

//  Applies and records one part. -1 when alloc is full (nothing taken).
static int
s_take(agent_accel_t *self,
       agent_accel_alloc_t *alloc,
       size_t p,
       size_t s,
       size_t d,
       int64_t amount)
{
    if (alloc->count == AGENT_ACCEL_ALLOC_MAX)
        return -1;
    agent_accel_part_t part = {(uint8_t) p, (uint8_t) s, (uint8_t) d, amount};
    bool fits = s_apply(self, &part);
    assert(fits);
    (void) fits;
    alloc->parts[alloc->count++] = part;
    return 0;
}

//  The device with the least free that still holds amount, skipping skip;
//  -1 when none.
static int
s_best_fit(const agent_accel_plugin_t *plugin, int64_t amount, int skip)
{
    int best = -1;
    for (size_t d = 0; d < plugin->device_count; d++) {
        int64_t room = s_free(plugin, d);
        if ((int) d != skip && room >= amount &&
            (best < 0 || room < s_free(plugin, (size_t) best)))
            best = (int) d;
    }
    return best;
}

//  Takes amount of WHOLE slot s of plugin p: completely free devices,
//  lowest position first.
static int
s_take_whole(agent_accel_t *self,
             agent_accel_alloc_t *alloc,
             size_t p,
             size_t s,
             int64_t amount,
             bus_error_t *err)
{
    const agent_accel_plugin_t *plugin = self->plugins[p];
    const char *name = plugin->slots[s].name;
    if (amount % AGENT_ACCEL_DEVICE_UNIT != 0)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "%s must be a whole number of devices", name);
    int64_t wanted = amount / AGENT_ACCEL_DEVICE_UNIT, untouched = 0;
    for (size_t d = 0; d < plugin->device_count; d++)
        untouched += s_untouched(plugin, d);
    if (wanted > untouched)
        return bus_error_set(err, BUS_STATUS_CONFLICT,
                             "%s " BUS_SLOTS_NO_FIT ": %" PRId64
                             " free devices wanted, %" PRId64 " free",
                             name, wanted, untouched);
    for (size_t d = 0; d < plugin->device_count && wanted > 0; d++)
        if (s_untouched(plugin, d)) {
            if (s_take(self, alloc, p, s, d, AGENT_ACCEL_DEVICE_UNIT) != 0)
                return bus_error_set(err, BUS_STATUS_CONFLICT, "too many devices");
            wanted--;
        }
    return BUS_OK;
}

//  Takes amount of SHARES slot s of plugin p (see the header for the rule).
static int
s_take_shares(agent_accel_t *self,
              agent_accel_alloc_t *alloc,
              size_t p,
              size_t s,
              int64_t amount,
              bus_error_t *err)
{
    const agent_accel_plugin_t *plugin = self->plugins[p];
    const char *name = plugin->slots[s].name;
    int64_t capacity = plugin->shares_per_device;
    char text[BUS_SLOTS_VALUE_MAX];
    bus_slots_format_value(BUS_SLOTS_COUNT, &(bus_slots_value_t){false, amount}, text);
    if (amount % plugin->quantum != 0) {
        char quantum[BUS_SLOTS_VALUE_MAX];
        bus_slots_format_value(BUS_SLOTS_COUNT,
                               &(bus_slots_value_t){false, plugin->quantum}, quantum);
        return bus_error_set(err, BUS_STATUS_INVALID, "%s %s is not a multiple of %s",
                             name, text, quantum);
    }
    if (amount <= capacity) {
        int d = s_best_fit(plugin, amount, -1);
        if (d < 0)
            return bus_error_set(err, BUS_STATUS_CONFLICT,
                                 "%s " BUS_SLOTS_NO_FIT ": no device has %s free", name,
                                 text);
        return s_take(self, alloc, p, s, (size_t) d, amount) == 0
                   ? BUS_OK
                   : bus_error_set(err, BUS_STATUS_CONFLICT, "too many devices");
    }
    int64_t wanted = amount / capacity, rest = amount % capacity, untouched = 0;
    //  The remainder first: best fit prefers a device in use, which leaves the
    //  untouched ones for the whole part; it takes an untouched one only when
    //  no device in use has room, and then one was needed anyway.
    int last = rest > 0 ? s_best_fit(plugin, rest, -1) : -1;
    for (size_t d = 0; d < plugin->device_count; d++)
        untouched += (int) d != last && s_untouched(plugin, d);
    if ((rest > 0 && last < 0) || untouched < wanted)
        return bus_error_set(err, BUS_STATUS_CONFLICT,
                             "%s " BUS_SLOTS_NO_FIT ": not enough free devices for %s",
                             name, text);
    for (size_t d = 0; d < plugin->device_count && wanted > 0; d++)
        if ((int) d != last && s_untouched(plugin, d)) {
            if (s_take(self, alloc, p, s, d, capacity) != 0)
                return bus_error_set(err, BUS_STATUS_CONFLICT, "too many devices");
            wanted--;
        }
    if (last >= 0 && s_take(self, alloc, p, s, (size_t) last, rest) != 0)
        return bus_error_set(err, BUS_STATUS_CONFLICT, "too many devices");
    return BUS_OK;
}

static int
s_part_compare(const void *a, const void *b)
{
    const agent_accel_part_t *x = a, *y = b;
    if (x->plugin != y->plugin)
        return x->plugin < y->plugin ? -1 : 1;
    if (x->slot != y->slot)
        return x->slot < y->slot ? -1 : 1;
    return x->device < y->device ? -1 : x->device > y->device;
}

//  Records a copy of alloc as kernel_id's. BUS_OK or BUS_STATUS_INTERNAL.
static int
s_record(agent_accel_t *self,
         const char *kernel_id,
         const agent_accel_alloc_t *alloc,
         bus_error_t *err)
{
    agent_accel_alloc_t *copy = malloc(sizeof *copy);
    if (!copy)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    *copy = *alloc;
    if (zhashx_insert(self->kernels, kernel_id, copy) != 0) {
        free(copy);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    return BUS_OK;
}

typedef struct {
    size_t plugin;
    size_t slot;
    int64_t amount;
} s_request_t;

int
agent_accel_allocate(agent_accel_t *self,
                     const char *kernel_id,
                     const proto_kv_t *slots,
                     size_t slots_count,
                     agent_accel_alloc_t *alloc,
                     bus_error_t *err)
{
    assert(self && kernel_id && (slots || slots_count == 0));
    if (zhashx_lookup(self->kernels, kernel_id))
        return bus_error_set(err, BUS_STATUS_CONFLICT,
                             "kernel %s holds accelerators already", kernel_id);
    s_request_t requests[AGENT_ACCEL_PLUGINS_MAX * AGENT_ACCEL_PLUGIN_SLOTS];
    size_t count = 0;
    for (size_t i = 0; i < slots_count; i++) {
        const char *key = slots[i].key, *value = slots[i].value;
        size_t p = 0, s = 0;
        bool ours = s_find_slot(self, key, &p, &s);
        if (!value || (!ours && !strchr(key, '.')))
            continue; //  cpu, mem: not ours
        json_t *input = json_string(value);
        bus_slots_value_t amount;
        int rc = input ? bus_slots_parse_value(BUS_SLOTS_COUNT, key, input, &amount, err)
                       : bus_error_set(err, BUS_STATUS_INVALID, "invalid %s", key);
        json_decref(input);
        if (rc != BUS_OK)
            return rc;
        if (amount.infinite)
            return bus_error_set(err, BUS_STATUS_INVALID, "%s cannot be unlimited", key);
        if (amount.amount == 0)
            continue;
        if (!ours)
            return bus_error_set(err, BUS_STATUS_CONFLICT, "this agent has no %s", key);
        for (size_t j = 0; j < count; j++)
            if (requests[j].plugin == p && requests[j].slot == s)
                return bus_error_set(err, BUS_STATUS_INVALID, "%s asked twice", key);
        requests[count++] = (s_request_t){p, s, amount.amount};
    }
    agent_accel_alloc_t taken = {0};
    int rc = BUS_OK;
    //  WHOLE slots first: they need untouched devices, SHARES can use the rest.
    for (int pass = 0; pass < 2 && rc == BUS_OK; pass++)
        for (size_t i = 0; i < count && rc == BUS_OK; i++) {
            const s_request_t *r = &requests[i];
            agent_accel_kind_t kind = self->plugins[r->plugin]->slots[r->slot].kind;
            if (pass == 0 && kind == AGENT_ACCEL_WHOLE)
                rc = s_take_whole(self, &taken, r->plugin, r->slot, r->amount, err);
            else if (pass == 1 && kind == AGENT_ACCEL_SHARES)
                rc = s_take_shares(self, &taken, r->plugin, r->slot, r->amount, err);
        }
    qsort(taken.parts, taken.count, sizeof taken.parts[0], s_part_compare);
    if (rc == BUS_OK && taken.count > 0)
        rc = s_record(self, kernel_id, &taken, err);
    if (rc != BUS_OK) {
        s_rollback(self, &taken, taken.count);
        return rc;
    }
    if (alloc)
        *alloc = taken;
    return BUS_OK;
}

const agent_accel_alloc_t *
agent_accel_lookup(const agent_accel_t *self, const char *kernel_id)
{
    assert(self && kernel_id);
    return zhashx_lookup(self->kernels, kernel_id);
}

bool
agent_accel_release(agent_accel_t *self, const char *kernel_id)
{
    assert(self && kernel_id);
    agent_accel_alloc_t *alloc = zhashx_lookup(self->kernels, kernel_id);
    if (!alloc)
        return false;
    s_rollback(self, alloc, alloc->count);
    zhashx_delete(self->kernels, kernel_id);
    return true;
}

int
agent_accel_restore(agent_accel_t *self,
                    const char *kernel_id,
                    const char *text,
                    bus_error_t *err)
{
    assert(self && kernel_id);
    if (zhashx_lookup(self->kernels, kernel_id))
        return bus_error_set(err, BUS_STATUS_CONFLICT,
                             "kernel %s holds accelerators already", kernel_id);
    agent_accel_alloc_t alloc;
    int rc = agent_accel_allocation_parse(self, text, &alloc, err);
    if (rc != BUS_OK)
        return rc;
    for (size_t i = 0; i < alloc.count; i++)
        if (!s_apply(self, &alloc.parts[i])) {
            s_rollback(self, &alloc, i);
            const agent_accel_plugin_t *plugin = self->plugins[alloc.parts[i].plugin];
            return bus_error_set(err, BUS_STATUS_CONFLICT,
                                 "kernel %s: %s on device %" PRIu32 " no longer fits",
                                 kernel_id, plugin->slots[alloc.parts[i].slot].name,
                                 plugin->devices[alloc.parts[i].device].index);
        }
    if (alloc.count > 0 && (rc = s_record(self, kernel_id, &alloc, err)) != BUS_OK)
        s_rollback(self, &alloc, alloc.count);
    return rc;
}

//  ---------------------------------------------------------------------------
//  The stored form

char *
agent_accel_allocation_format(const agent_accel_t *self, const agent_accel_alloc_t *alloc)
{
    assert(self && alloc);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out)
        return NULL;
    for (size_t i = 0; i < alloc->count; i++) {
        const agent_accel_part_t *part = &alloc->parts[i];
        assert(part->plugin < self->plugin_count);
        const agent_accel_plugin_t *plugin = self->plugins[part->plugin];
        bool group = i == 0 || part->plugin != alloc->parts[i - 1].plugin ||
                     part->slot != alloc->parts[i - 1].slot;
        if (group)
            fprintf(out, "%s%s:", i ? ";" : "", plugin->slots[part->slot].name);
        else
            fputc(',', out);
        fprintf(out, "%" PRIu32 "=%" PRId64, plugin->devices[part->device].index,
                part->amount);
    }
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

//  Reads decimal digits at *p, at most max. False when there are none, too
//  many or the value exceeds max.
static bool
s_parse_uint(const char **p, uint64_t max, uint64_t *out)
{
    const char *s = *p;
    uint64_t value = 0;
    size_t digits = 0;
    while (*s >= '0' && *s <= '9') {
        if (++digits > 19)
            return false;
        value = value * 10 + (uint64_t) (*s++ - '0');
    }
    if (digits == 0 || value > max)
        return false;
    *p = s;
    *out = value;
    return true;
}

int
agent_accel_allocation_parse(const agent_accel_t *self,
                             const char *text,
                             agent_accel_alloc_t *alloc,
                             bus_error_t *err)
{
    assert(self && alloc);
    alloc->count = 0;
    if (!text || strlen(text) > AGENT_ACCEL_TEXT_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "allocation text missing or too long");
    const char *p = text;
    while (*p) {
        const char *colon = strchr(p, ':');
        size_t length = colon ? (size_t) (colon - p) : 0;
        if (length == 0 || length >= AGENT_ACCEL_SLOT_NAME_MAX)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "allocation: slot name expected");
        char name[AGENT_ACCEL_SLOT_NAME_MAX];
        memcpy(name, p, length);
        name[length] = '\0';
        size_t pi, si;
        if (!s_find_slot(self, name, &pi, &si))
            return bus_error_set(err, BUS_STATUS_INVALID, "allocation: no slot %s", name);
        const agent_accel_plugin_t *plugin = self->plugins[pi];
        int64_t capacity = s_capacity(plugin, &plugin->slots[si]);
        p = colon + 1;
        for (;;) {
            uint64_t index, amount;
            if (!s_parse_uint(&p, UINT32_MAX, &index) || *p++ != '=' ||
                !s_parse_uint(&p, INT64_MAX, &amount))
                return bus_error_set(err, BUS_STATUS_INVALID,
                                     "allocation: <index>=<amount> expected for %s",
                                     name);
            size_t d = 0;
            while (d < plugin->device_count && plugin->devices[d].index != index)
                d++;
            if (d == plugin->device_count)
                return bus_error_set(err, BUS_STATUS_INVALID,
                                     "allocation: %s has no device %" PRIu64,
                                     plugin->name, index);
            if (amount == 0 || (int64_t) amount > capacity ||
                (plugin->slots[si].kind == AGENT_ACCEL_WHOLE &&
                 (int64_t) amount != capacity))
                return bus_error_set(err, BUS_STATUS_INVALID,
                                     "allocation: %s %" PRIu64 " on device %" PRIu64
                                     " is out of range",
                                     name, amount, index);
            for (size_t i = 0; i < alloc->count; i++)
                if (alloc->parts[i].plugin == pi && alloc->parts[i].slot == si &&
                    alloc->parts[i].device == d)
                    return bus_error_set(err, BUS_STATUS_INVALID,
                                         "allocation: %s device %" PRIu64 " twice", name,
                                         index);
            if (alloc->count == AGENT_ACCEL_ALLOC_MAX)
                return bus_error_set(err, BUS_STATUS_INVALID,
                                     "allocation: too many parts");
            alloc->parts[alloc->count++] = (agent_accel_part_t){
                (uint8_t) pi, (uint8_t) si, (uint8_t) d, (int64_t) amount};
            if (*p == ',')
                p++;
            else
                break;
        }
        if (*p == ';' && p[1])
            p++;
        else if (*p)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "allocation: unexpected text at \"%.16s\"", p);
    }
    qsort(alloc->parts, alloc->count, sizeof alloc->parts[0], s_part_compare);
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  The invariant

int
agent_accel_check(const agent_accel_t *self, bus_error_t *err)
{
    assert(self);
    int64_t shares[AGENT_ACCEL_PLUGINS_MAX][AGENT_ACCEL_DEVICES_MAX] = {{0}};
    int whole[AGENT_ACCEL_PLUGINS_MAX][AGENT_ACCEL_DEVICES_MAX] = {{0}};
    for (const agent_accel_alloc_t *alloc = zhashx_first(self->kernels); alloc;
         alloc = zhashx_next(self->kernels)) {
        const char *kernel = zhashx_cursor(self->kernels);
        for (size_t i = 0; i < alloc->count; i++) {
            const agent_accel_part_t *part = &alloc->parts[i];
            if (part->plugin >= self->plugin_count ||
                part->device >= self->plugins[part->plugin]->device_count ||
                part->slot >= self->plugins[part->plugin]->slot_count ||
                part->amount <= 0)
                return bus_error_set(err, BUS_STATUS_INTERNAL,
                                     "kernel %s has a part out of range", kernel);
            if (self->plugins[part->plugin]->slots[part->slot].kind == AGENT_ACCEL_WHOLE)
                whole[part->plugin][part->device]++;
            else
                shares[part->plugin][part->device] += part->amount;
        }
    }
    for (size_t p = 0; p < self->plugin_count; p++) {
        const agent_accel_plugin_t *plugin = self->plugins[p];
        for (size_t d = 0; d < plugin->device_count; d++) {
            uint32_t index = plugin->devices[d].index;
            if (plugin->used[d] < 0 || plugin->used[d] > plugin->shares_per_device)
                return bus_error_set(
                    err, BUS_STATUS_INTERNAL,
                    "%s device %" PRIu32 " holds %" PRId64 " of %" PRId64, plugin->name,
                    index, plugin->used[d], plugin->shares_per_device);
            if (plugin->whole[d] && plugin->used[d] != 0)
                return bus_error_set(err, BUS_STATUS_INTERNAL,
                                     "%s device %" PRIu32 " is whole and shared",
                                     plugin->name, index);
            if (shares[p][d] != plugin->used[d] ||
                whole[p][d] != (plugin->whole[d] ? 1 : 0))
                return bus_error_set(err, BUS_STATUS_INTERNAL,
                                     "%s device %" PRIu32 " holds %" PRId64
                                     "%s, its kernels %" PRId64 " and %d whole",
                                     plugin->name, index, plugin->used[d],
                                     plugin->whole[d] ? " whole" : "", shares[p][d],
                                     whole[p][d]);
        }
    }
    return BUS_OK;
}
