/*  =========================================================================
    agent_dotfiles - the dotfiles a kernel finds in its home, from kernel.create

    Copying and checking (on the loop, before anything of the kernel is
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
//  Copy and check

int
agent_dotfiles_from_list(const proto_kernel_dotfile_t *items,
                         size_t count,
                         agent_dotfiles_t **dotfiles_p,
                         bus_error_t *err)
{
    assert(dotfiles_p);
    *dotfiles_p = NULL;
    if (count > AGENT_DOTFILES_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID, "dotfiles: more than %d",
                             AGENT_DOTFILES_MAX);
    agent_dotfiles_t *self = calloc(1, sizeof *self);
    if (!self || (count && !(self->items = calloc(count, sizeof *self->items)))) {
        free(self);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    int rc = BUS_OK;
    for (size_t i = 0; rc == BUS_OK && i < count; i++) {
        const char *path = items[i].path, *data = items[i].data;
        int mode = s_mode(items[i].permission);
        char rel[PATH_MAX];
        if (!path || !data)
            rc = bus_error_set(err, BUS_STATUS_INVALID, "dotfile %zu: no path or no data",
                               i);
        else if (mode < 0)
            rc = bus_error_set(err, BUS_STATUS_INVALID,
                               "dotfile %zu: permission is not three octal digits", i);
        else if (agent_files_check_name(path, strlen(path), err) != 0 ||
                 agent_files_normalize(path, rel, err) != 0)
            rc = BUS_STATUS_INVALID;
        else if (!*rel)
            rc = bus_error_set(err, BUS_STATUS_INVALID, "dotfile %zu: no file name", i);
        if (rc != BUS_OK)
            break;
        agent_dotfile_t *item = &self->items[self->count++];
        item->path = strdup(rel);
        item->size = strlen(data);
        item->data = strdup(data);
        item->mode = (mode_t) mode;
        if (!item->path || !item->data)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
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
