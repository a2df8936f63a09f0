/*  =========================================================================
    agent_dotfiles - the dotfiles a kernel finds in its home, from kernel.create

    Parsing and checking (on the loop, before anything of the kernel is
    made) and writing (on the worker, through the overlay root) of
    kernel.create's dotfiles; see agent_dotfiles.h.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

//  "644" to 0644; -1 unless exactly three octal digits.
static int
s_mode(const char *text)
{
    if (!text || strlen(text) != 3)
        return -1;
    int mode = 0;
    for (int i = 0; i < 3; i++) {
        if (text[i] < '0' || text[i] > '7')
            return -1;
        mode = mode * 8 + (text[i] - '0');
    }
    return mode;
}

//  ---------------------------------------------------------------------------
//  Parse

int
agent_dotfiles_parse(const char *text, agent_dotfiles_t **dotfiles_p, bus_error_t *err)
{
    assert(dotfiles_p);
    *dotfiles_p = NULL;
    agent_dotfiles_t *self = calloc(1, sizeof *self);
    if (!self)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    if (!text || !*text) {
        *dotfiles_p = self;
        return BUS_OK;
    }
    json_error_t jerr;
    json_t *list = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    int rc = BUS_OK;
    if (!json_is_array(list))
        rc = bus_error_set(err, BUS_STATUS_INVALID, "dotfiles: not a JSON array");
    else if (json_array_size(list) > AGENT_DOTFILES_MAX)
        rc = bus_error_set(err, BUS_STATUS_INVALID, "dotfiles: more than %d",
                           AGENT_DOTFILES_MAX);
    size_t count = rc == BUS_OK ? json_array_size(list) : 0;
    if (count) {
        self->items = calloc(count, sizeof *self->items);
        if (!self->items)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    for (size_t i = 0; rc == BUS_OK && i < count; i++) {
        json_t *entry = json_array_get(list, i);
        json_t *path = json_object_get(entry, "path");
        json_t *data = json_object_get(entry, "data");
        int mode = s_mode(json_string_value(json_object_get(entry, "permission")));
        char rel[PATH_MAX];
        if (!json_is_string(path) || !json_is_string(data))
            rc = bus_error_set(err, BUS_STATUS_INVALID,
                               "dotfile %zu: path and data must be strings", i);
        else if (mode < 0)
            rc = bus_error_set(err, BUS_STATUS_INVALID,
                               "dotfile %zu: permission is not three octal digits", i);
        else if (agent_files_check_name(json_string_value(path), json_string_length(path),
                                        err) != 0 ||
                 agent_files_normalize(json_string_value(path), rel, err) != 0)
            rc = BUS_STATUS_INVALID;
        else if (!*rel)
            rc = bus_error_set(err, BUS_STATUS_INVALID, "dotfile %zu: no file name", i);
        if (rc != BUS_OK)
            break;
        agent_dotfile_t *item = &self->items[self->count];
        item->path = strdup(rel);
        item->size = json_string_length(data);
        item->data = malloc(item->size + 1);
        item->mode = (mode_t) mode;
        self->count++;
        if (!item->path || !item->data)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        else
            memcpy(item->data, json_string_value(data), item->size + 1);
    }
    json_decref(list);
    if (rc != BUS_OK) {
        agent_dotfiles_destroy(&self);
        return rc;
    }
    *dotfiles_p = self;
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Free

void
agent_dotfiles_destroy(agent_dotfiles_t **self_p)
{
    assert(self_p);
    agent_dotfiles_t *self = *self_p;
    if (!self)
        return;
    for (size_t i = 0; i < self->count; i++) {
        free(self->items[i].path);
        free(self->items[i].data);
    }
    free(self->items);
    free(self);
    *self_p = NULL;
}

//  ---------------------------------------------------------------------------
//  Write

int
agent_dotfiles_write(const agent_dotfiles_t *self,
                     const char *home,
                     uid_t uid,
                     gid_t gid,
                     bus_error_t *err)
{
    assert(home);
    for (size_t i = 0; self && i < self->count; i++) {
        const agent_dotfile_t *item = &self->items[i];
        if (agent_files_write_mode(home, item->path, item->data, item->size, item->mode,
                                   uid, gid, err) != 0) {
            char detail[sizeof err->detail];
            snprintf(detail, sizeof detail, "%s", err->detail);
            return bus_error_set(err, err->status ? err->status : BUS_STATUS_INTERNAL,
                                 "dotfile %.256s: %s", item->path, detail);
        }
    }
    return BUS_OK;
}
