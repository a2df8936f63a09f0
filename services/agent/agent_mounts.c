/*  =========================================================================
    agent_mounts - copy and check the virtual folders of kernel.create

    The decoded list is copied into an owned array; every rule is checked
    by agent_mounts_check, which agent_bundle also runs on the list it is
    given, so no path reaches config.json unchecked. A path is checked as
    bytes (the decoder already refused a string holding a NUL), and it must
    already be in its one normal form, since a bind destination is compared
    with the agent's own mount points as text.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <sys/stat.h> //  lstat: a host_path must be a real directory

//  The container paths the agent mounts itself (agent_bundle): a folder may
//  be bound on none of them, beneath none, and above none.
static const char *const s_reserved[] = {"/proc",
                                         "/dev",
                                         "/sys",
                                         "/etc/hosts",
                                         AGENT_KERNEL_RUNNER_PATH,
                                         AGENT_KERNEL_TINI_PATH,
                                         AGENT_KERNEL_RUN_DIR,
                                         NULL};

//  True when path is base or lies beneath it.
static bool
s_under(const char *path, const char *base)
{
    size_t len = strlen(base);
    if (len == 1 && base[0] == '/')
        return true;
    return strncmp(path, base, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

//  True when one of a and b is the other or lies beneath it.
static bool
s_overlap(const char *a, const char *b)
{
    return s_under(a, b) || s_under(b, a);
}

//  Checks that path (what of entry index) is absolute, clean and short.
static int
s_check_path(
    size_t index, const char *name, const char *what, const char *path, bus_error_t *err)
{
    if (!path || *path != '/')
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "mount %zu (%.64s): %s must be absolute", index, name, what);
    size_t len = strlen(path);
    if (len >= PATH_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID, "mount %zu (%.64s): %s is too long",
                             index, name, what);
    if (len == 1)
        return bus_error_set(err, BUS_STATUS_INVALID, "mount %zu (%.64s): %s is the root",
                             index, name, what);
    for (const char *p = path; *p; p++)
        if ((unsigned char) *p < 0x20 || *p == 0x7f)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "mount %zu (%.64s): %s has a control character", index,
                                 name, what);
    //  Each component after a '/': not empty, not "." nor "..".
    for (const char *p = path; *p; p++) {
        if (*p != '/')
            continue;
        const char *c = p + 1;
        size_t clen = strcspn(c, "/");
        if (clen == 0 || (clen == 1 && c[0] == '.') ||
            (clen == 2 && c[0] == '.' && c[1] == '.'))
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "mount %zu (%.64s): %s is not a clean path (empty, . or "
                                 ".. component)",
                                 index, name, what);
    }
    return BUS_OK;
}

//  Copies the string field key of entry index into *out (owned); a
//  missing one (a list filled by hand: the decoder refuses it) is refused.
static int
s_copy(size_t index,
       const char *name,
       const char *key,
       const char *value,
       char **out,
       bus_error_t *err)
{
    if (!value)
        return bus_error_set(err, BUS_STATUS_INVALID, "mount %zu (%.64s): no %s", index,
                             name, key);
    *out = strdup(value);
    return *out ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
}

//  Fills mount from the index-th item of the list.
static int
s_copy_entry(const proto_kernel_mount_t *item,
             size_t index,
             agent_mount_t *mount,
             bus_error_t *err)
{
    int rc = s_copy(index, "?", "name", item->name, &mount->name, err);
    const char *name = mount->name;
    if (rc == BUS_OK)
        rc = s_copy(index, name, "host_path", item->host_path, &mount->host_path, err);
    if (rc == BUS_OK)
        rc = s_copy(index, name, "kernel_path", item->kernel_path, &mount->kernel_path,
                    err);
    if (rc != BUS_OK)
        return rc;
    const char *permission = item->permission;
    if (!permission)
        return bus_error_set(err, BUS_STATUS_INVALID, "mount %zu (%.64s): no permission",
                             index, name);
    if (streq(permission, "ro"))
        mount->readonly = true;
    else if (streq(permission, "rw") || streq(permission, "wd"))
        mount->readonly = false;
    else
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "mount %zu (%.64s): unknown permission \"%.16s\"", index,
                             name, permission);
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Copies and checks kernel.create's mounts.

int
agent_mounts_from_list(const proto_kernel_mount_t *items,
                       size_t count,
                       agent_mounts_t **mounts_p,
                       bus_error_t *err)
{
    assert(mounts_p);
    *mounts_p = NULL;
    if (count > AGENT_MOUNTS_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID, "%zu mounts, at most %d", count,
                             AGENT_MOUNTS_MAX);
    agent_mounts_t *self = calloc(1, sizeof *self);
    if (!self || (count && !(self->items = calloc(count, sizeof *self->items)))) {
        free(self);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    int rc = BUS_OK;
    for (size_t i = 0; i < count && rc == BUS_OK; i++) {
        self->count = i + 1; //  so destroy frees what the entry got
        rc = s_copy_entry(&items[i], i, &self->items[i], err);
    }
    if (rc == BUS_OK)
        rc = agent_mounts_check(self->items, self->count, err);
    if (rc == BUS_OK)
        *mounts_p = self;
    else
        agent_mounts_destroy(&self);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Frees the list.

void
agent_mounts_destroy(agent_mounts_t **self_p)
{
    assert(self_p);
    agent_mounts_t *self = *self_p;
    if (!self)
        return;
    for (size_t i = 0; i < self->count; i++) {
        free(self->items[i].name);
        free(self->items[i].host_path);
        free(self->items[i].kernel_path);
    }
    free(self->items);
    free(self);
    *self_p = NULL;
}

//  ---------------------------------------------------------------------------
//  Checks the form of count entries.

int
agent_mounts_check(const agent_mount_t *items, size_t count, bus_error_t *err)
{
    if (count > AGENT_MOUNTS_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID, "%zu mounts, at most %d", count,
                             AGENT_MOUNTS_MAX);
    for (size_t i = 0; i < count; i++) {
        const agent_mount_t *mount = &items[i];
        const char *name = mount->name ? mount->name : "";
        size_t name_len = strlen(name);
        if (name_len == 0 || name_len > AGENT_MOUNTS_NAME_MAX)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "mount %zu: name must be 1 to %d bytes", i,
                                 AGENT_MOUNTS_NAME_MAX);
        for (const char *p = name; *p; p++)
            if ((unsigned char) *p < 0x20 || *p == 0x7f)
                return bus_error_set(err, BUS_STATUS_INVALID,
                                     "mount %zu: name has a control character", i);
        int rc = s_check_path(i, name, "host_path", mount->host_path, err);
        if (rc == BUS_OK)
            rc = s_check_path(i, name, "kernel_path", mount->kernel_path, err);
        if (rc != BUS_OK)
            return rc;
        const char *path = mount->kernel_path;
        //  The home itself, or above it: the folder would hide it.
        if (s_under(AGENT_KERNEL_HOME, path))
            return bus_error_set(
                err, BUS_STATUS_INVALID,
                "mount %zu (%.64s): kernel_path %.64s would hide " AGENT_KERNEL_HOME, i,
                name, path);
        for (size_t r = 0; s_reserved[r]; r++)
            if (s_overlap(path, s_reserved[r]))
                return bus_error_set(err, BUS_STATUS_INVALID,
                                     "mount %zu (%.64s): kernel_path %.64s meets %s, "
                                     "which the agent mounts",
                                     i, name, path, s_reserved[r]);
        for (size_t j = 0; j < i; j++) {
            if (streq(path, items[j].kernel_path))
                return bus_error_set(err, BUS_STATUS_INVALID,
                                     "mount %zu (%.64s): kernel_path %.64s is taken by "
                                     "mount %zu",
                                     i, name, path, j);
            if (s_overlap(path, items[j].kernel_path))
                return bus_error_set(err, BUS_STATUS_INVALID,
                                     "mount %zu (%.64s): kernel_path %.64s nests with "
                                     "mount %zu's",
                                     i, name, path, j);
        }
    }
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Checks that every host_path is a directory, not a symlink.

int
agent_mounts_check_hosts(const agent_mounts_t *self, bus_error_t *err)
{
    assert(self);
    for (size_t i = 0; i < self->count; i++) {
        const agent_mount_t *mount = &self->items[i];
        struct stat st;
        if (lstat(mount->host_path, &st) != 0) {
            int status = errno == ENOENT || errno == ENOTDIR ? BUS_STATUS_NOT_FOUND
                                                             : BUS_STATUS_INTERNAL;
            return bus_error_set(err, status, "mount %zu (%.64s): %.96s: %s", i,
                                 mount->name, mount->host_path, strerror(errno));
        }
        if (!S_ISDIR(st.st_mode))
            return bus_error_set(err, BUS_STATUS_NOT_FOUND,
                                 "mount %zu (%.64s): %.96s is not a directory", i,
                                 mount->name, mount->host_path);
    }
    return BUS_OK;
}
