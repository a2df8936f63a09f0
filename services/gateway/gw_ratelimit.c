/*  =========================================================================
    gw_ratelimit - rolling-window request counting per keypair

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

typedef struct {
    int64_t *times; //  ring of arrival times, capacity = limit
    int limit;
    int count; //  requests recorded (<= limit)
    int head;  //  index of the oldest
} rate_entry_t;

struct _gw_ratelimit_t {
    zhashx_t *keys; //  access key -> rate_entry_t
    int64_t window_ms;
};

static void
s_entry_destroy(void **item_p)
{
    rate_entry_t *entry = *item_p;
    if (entry) {
        free(entry->times);
        free(entry);
        *item_p = NULL;
    }
}

gw_ratelimit_t *
gw_ratelimit_new(int window_s)
{
    gw_ratelimit_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->keys = zhashx_new();
    if (!self->keys) {
        free(self);
        return NULL;
    }
    zhashx_set_destructor(self->keys, s_entry_destroy);
    self->window_ms = (int64_t) window_s * 1000;
    return self;
}

void
gw_ratelimit_destroy(gw_ratelimit_t **self_p)
{
    assert(self_p);
    if (*self_p) {
        zhashx_destroy(&(*self_p)->keys);
        free(*self_p);
        *self_p = NULL;
    }
}

int
gw_ratelimit_window_s(gw_ratelimit_t *self)
{
    return (int) (self->window_ms / 1000);
}

bool
gw_ratelimit_take(gw_ratelimit_t *self,
                  const char *access_key,
                  int limit,
                  int64_t now_ms,
                  int *remaining)
{
    if (limit <= 0) {
        *remaining = -1;
        return true;
    }
    if (limit > GW_RATELIMIT_MAX_LIMIT)
        limit = GW_RATELIMIT_MAX_LIMIT;
    rate_entry_t *entry = zhashx_lookup(self->keys, access_key);
    if (entry && entry->limit != limit) {
        //  The keypair's limit changed: start its window afresh.
        zhashx_delete(self->keys, access_key);
        entry = NULL;
    }
    if (!entry) {
        entry = calloc(1, sizeof *entry);
        if (entry)
            entry->times = malloc((size_t) limit * sizeof *entry->times);
        if (!entry || !entry->times) {
            s_entry_destroy((void **) &entry);
            *remaining = 0;
            return true; //  out of memory is not the caller's fault
        }
        entry->limit = limit;
        zhashx_insert(self->keys, access_key, entry);
    }
    //  Forget arrivals that left the window.
    while (entry->count > 0 && entry->times[entry->head] <= now_ms - self->window_ms) {
        entry->head = (entry->head + 1) % entry->limit;
        entry->count--;
    }
    if (entry->count == entry->limit) {
        *remaining = 0;
        return false;
    }
    entry->times[(entry->head + entry->count) % entry->limit] = now_ms;
    entry->count++;
    *remaining = entry->limit - entry->count;
    return true;
}

bool
gw_ratelimit_exhausted(gw_ratelimit_t *self,
                       const char *access_key,
                       int limit,
                       int64_t now_ms)
{
    rate_entry_t *entry = zhashx_lookup(self->keys, access_key);
    if (limit <= 0 || !entry || entry->limit != limit)
        return false;
    int live = 0;
    for (int i = 0; i < entry->count; i++)
        if (entry->times[(entry->head + i) % entry->limit] > now_ms - self->window_ms)
            live++;
    return live >= limit;
}
