/*  =========================================================================
    agent_accel_container - what a kernel's container gets from its
    accelerators: its variables (CUDA_VISIBLE_DEVICES and the MPS limits of
    a fraction), its device nodes, and which devices it holds a fraction of
    or a plugin's slots on (for the GPU driver's files and MPS daemons,
    agent_kernel_gpu.c). Read-only over the allocator's state.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include "agent_accel_private.h"

//  ---------------------------------------------------------------------------
//  What the container gets

//  The positions of plugin p's devices in alloc, ordered by device index;
//  shares[d] the SHARES thousandths on position d. Returns the count.
static size_t
s_devices(const agent_accel_t *self,
          const agent_accel_alloc_t *alloc,
          size_t p,
          size_t order[AGENT_ACCEL_DEVICES_MAX],
          int64_t shares[AGENT_ACCEL_DEVICES_MAX])
{
    const agent_accel_plugin_t *plugin = self->plugins[p];
    bool seen[AGENT_ACCEL_DEVICES_MAX] = {false};
    memset(shares, 0, sizeof(int64_t) * AGENT_ACCEL_DEVICES_MAX);
    size_t count = 0;
    for (size_t i = 0; i < alloc->count; i++) {
        const agent_accel_part_t *part = &alloc->parts[i];
        if (part->plugin != p)
            continue;
        if (plugin->slots[part->slot].kind == AGENT_ACCEL_SHARES)
            shares[part->device] += part->amount;
        if (!seen[part->device]) {
            seen[part->device] = true;
            //  insertion by index
            size_t j = count++;
            while (j > 0 && plugin->devices[order[j - 1]].index >
                                plugin->devices[part->device].index) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = part->device;
        }
    }
    return count;
}

//  Appends one "<prefix><name>=<value>" to env; false when out of memory.
static bool
s_env_add(
    char **env, size_t *count, const char *prefix, const char *name, const char *value)
{
    char *item = zsys_sprintf("%s%s=%s", prefix, name, value);
    if (!item)
        return false;
    env[(*count)++] = item;
    return true;
}

//  Adds plugin p's variables for alloc to env. False when out of memory.
static bool
s_environ_plugin(const agent_accel_t *self,
                 const agent_accel_alloc_t *alloc,
                 size_t p,
                 char **env,
                 size_t *count)
{
    const agent_accel_plugin_t *plugin = self->plugins[p];
    size_t order[AGENT_ACCEL_DEVICES_MAX];
    int64_t shares[AGENT_ACCEL_DEVICES_MAX];
    size_t devices = s_devices(self, alloc, p, order, shares);
    if (devices == 0)
        return true;
    int64_t capacity = plugin->shares_per_device;
    bool fraction = false;
    for (size_t i = 0; i < devices; i++)
        fraction = fraction || (shares[order[i]] > 0 && shares[order[i]] < capacity);
    char *visible = NULL, *memory = NULL;
    size_t size = 0, memory_size = 0;
    FILE *out = open_memstream(&visible, &size);
    FILE *limits = open_memstream(&memory, &memory_size);
    int64_t percent = 100;
    bool listed = false;
    for (size_t i = 0; out && limits && i < devices; i++) {
        const agent_accel_device_t *device = &plugin->devices[order[i]];
        if (plugin->visible_by_id)
            fprintf(out, "%s%s", i ? "," : "", device->id);
        else
            fprintf(out, "%s%" PRIu32, i ? "," : "", device->index);
        int64_t share = shares[order[i]];
        if (share == 0)
            continue;
        //  ceil(100 * share / capacity): the device's compute, never less
        int64_t need = (100 * share + capacity - 1) / capacity;
        if (need < percent)
            percent = need < 1 ? 1 : need;
        //  share x memory, rounded down to MiB so it never exceeds the share
        __int128 bytes = (__int128) share * device->memory_bytes / capacity;
        int64_t mib = (int64_t) (bytes >> 20);
        fprintf(limits, "%s%zu=%" PRId64 "M", listed ? "," : "", i, mib < 1 ? 1 : mib);
        listed = true;
    }
    bool ok = out && limits;
    if (out && fclose(out) != 0)
        ok = false;
    if (limits && fclose(limits) != 0)
        ok = false;
    ok =
        ok && s_env_add(env, count, plugin->env_prefix, AGENT_ACCEL_ENV_VISIBLE, visible);
    if (ok && plugin->plain_visible && *plugin->env_prefix)
        ok = s_env_add(env, count, "", AGENT_ACCEL_ENV_VISIBLE, visible);
    if (ok && fraction) {
        char text[24];
        snprintf(text, sizeof text, "%" PRId64, percent);
        ok = s_env_add(env, count, plugin->env_prefix, AGENT_ACCEL_ENV_THREADS, text) &&
             s_env_add(env, count, plugin->env_prefix, AGENT_ACCEL_ENV_MEMORY, memory);
    }
    free(visible);
    free(memory);
    return ok;
}

char **
agent_accel_environ(const agent_accel_t *self, const agent_accel_alloc_t *alloc)
{
    assert(self && alloc);
    //  at most four variables per plugin
    char **env = calloc(4 * self->plugin_count + 1, sizeof *env);
    if (!env)
        return NULL;
    size_t count = 0;
    for (size_t p = 0; p < self->plugin_count; p++)
        if (!s_environ_plugin(self, alloc, p, env, &count)) {
            agent_accel_strv_destroy(&env);
            return NULL;
        }
    return env;
}

char **
agent_accel_device_nodes(const agent_accel_t *self, const agent_accel_alloc_t *alloc)
{
    assert(self && alloc);
    size_t max = 1;
    for (size_t p = 0; p < self->plugin_count; p++)
        max += self->plugins[p]->device_count + self->plugins[p]->shared_count;
    char **nodes = calloc(max, sizeof *nodes);
    if (!nodes)
        return NULL;
    size_t count = 0;
    for (size_t p = 0; p < self->plugin_count; p++) {
        const agent_accel_plugin_t *plugin = self->plugins[p];
        size_t order[AGENT_ACCEL_DEVICES_MAX];
        int64_t shares[AGENT_ACCEL_DEVICES_MAX];
        size_t devices = s_devices(self, alloc, p, order, shares);
        for (size_t i = 0; i < devices && *plugin->node_prefix; i++)
            if (plugin->devices[order[i]].minor >= 0 &&
                !(nodes[count++] = zsys_sprintf("%s%" PRId32, plugin->node_prefix,
                                                plugin->devices[order[i]].minor)))
                goto fail;
        for (size_t i = 0; devices > 0 && i < plugin->shared_count; i++)
            if (!(nodes[count++] = strdup(plugin->shared_nodes[i])))
                goto fail;
    }
    return nodes;
fail:
    agent_accel_strv_destroy(&nodes);
    return NULL;
}

void
agent_accel_strv_destroy(char ***strv_p)
{
    assert(strv_p);
    char **strv = *strv_p;
    for (size_t i = 0; strv && strv[i]; i++)
        free(strv[i]);
    free(strv);
    *strv_p = NULL;
}

//  ---------------------------------------------------------------------------
//  What an allocation holds of one plugin (the driver files and MPS).

static const agent_accel_plugin_t *
s_plugin_named(const agent_accel_t *self, size_t i, const char *plugin)
{
    return i < self->plugin_count && streq(self->plugins[i]->name, plugin)
               ? self->plugins[i]
               : NULL;
}

bool
agent_accel_alloc_uses(const agent_accel_t *self,
                       const agent_accel_alloc_t *alloc,
                       const char *plugin)
{
    assert(self && plugin);
    for (size_t i = 0; alloc && i < alloc->count; i++)
        if (s_plugin_named(self, alloc->parts[i].plugin, plugin))
            return true;
    return false;
}

size_t
agent_accel_fractions(const agent_accel_t *self,
                      const agent_accel_alloc_t *alloc,
                      const char *plugin,
                      const agent_accel_device_t **out,
                      size_t max)
{
    assert(self && plugin && (out || max == 0));
    size_t count = 0;
    for (size_t i = 0; alloc && i < alloc->count; i++) {
        const agent_accel_part_t *part = &alloc->parts[i];
        const agent_accel_plugin_t *owner = s_plugin_named(self, part->plugin, plugin);
        if (!owner || part->slot >= owner->slot_count ||
            owner->slots[part->slot].kind != AGENT_ACCEL_SHARES ||
            part->amount >= owner->shares_per_device ||
            part->device >= owner->device_count)
            continue;
        if (count < max)
            out[count] = &owner->devices[part->device];
        count++;
    }
    return count;
}
