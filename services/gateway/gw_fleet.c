/*  =========================================================================
    gw_fleet - each resource group's live agents, kept for a short time

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

typedef struct {
    json_t *agents;
    int64_t kept_ms; //  monotonic
} s_entry_t;

struct _gw_fleet_t {
    zhashx_t *groups; //  group -> s_entry_t
    int64_t ttl_ms;
};

static void
s_entry_destroy(void **item)
{
    s_entry_t *entry = *item;
    if (entry) {
        json_decref(entry->agents);
        free(entry);
        *item = NULL;
    }
}

gw_fleet_t *
gw_fleet_new(int64_t ttl_ms)
{
    gw_fleet_t *self = calloc(1, sizeof *self);
    if (self) {
        self->groups = zhashx_new();
        self->ttl_ms = ttl_ms;
    }
    if (!self || !self->groups) {
        gw_fleet_destroy(&self);
        return NULL;
    }
    zhashx_set_destructor(self->groups, s_entry_destroy);
    return self;
}

void
gw_fleet_destroy(gw_fleet_t **self_p)
{
    assert(self_p);
    gw_fleet_t *self = *self_p;
    if (!self)
        return;
    zhashx_destroy(&self->groups);
    free(self);
    *self_p = NULL;
}

json_t *
gw_fleet_get(gw_fleet_t *self, const char *group)
{
    assert(self);
    s_entry_t *entry = group ? zhashx_lookup(self->groups, group) : NULL;
    if (!entry || bus_clock_mono_ms() - entry->kept_ms >= self->ttl_ms)
        return NULL;
    return entry->agents;
}

void
gw_fleet_put(gw_fleet_t *self, const char *group, json_t *agents)
{
    assert(self);
    if (!group || !json_is_array(agents))
        return;
    if (zhashx_size(self->groups) >= GW_FLEET_GROUPS_MAX &&
        !zhashx_lookup(self->groups, group)) {
        //  Full: the oldest goes.
        const char *oldest = NULL;
        int64_t oldest_ms = INT64_MAX;
        for (s_entry_t *entry = zhashx_first(self->groups); entry;
             entry = zhashx_next(self->groups))
            if (entry->kept_ms < oldest_ms) {
                oldest_ms = entry->kept_ms;
                oldest = zhashx_cursor(self->groups);
            }
        if (oldest) {
            char *key = strdup(oldest);
            if (key)
                zhashx_delete(self->groups, key);
            free(key);
        }
    }
    s_entry_t *entry = calloc(1, sizeof *entry);
    if (!entry)
        return;
    entry->agents = json_incref(agents);
    entry->kept_ms = bus_clock_mono_ms();
    zhashx_update(self->groups, group, entry);
}
