/*  =========================================================================
    agent_mounts - parse and check the virtual folders of kernel.create

    The text is parsed with jansson into an owned array; every rule is
    checked by agent_mounts_check, which agent_bundle also runs on the list
    it is given, so no path reaches config.json unchecked. A path is
    checked as bytes: the JSON string's length must be its C length (an
    escaped NUL would cut it), and it must already be in its one normal
    form, since a bind destination is compared with the agent's own mount
    points as text.

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

//  Copies string member key of object into *out (owned). A member that is
//  missing, not a string or holds a NUL is refused.
static int
s_member(json_t *object,
         size_t index,
         const char *name,
         const char *key,
         char **out,
         bus_error_t *err)
{
    json_t *value = json_object_get(object, key);
    if (!value)
        return bus_error_set(err, BUS_STATUS_INVALID, "mount %zu (%.64s): no %s", index,
                             name, key);
    const char *text = json_string_value(value);
    if (!text || json_string_length(value) != strlen(text))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "mount %zu (%.64s): %s is not a string", index, name, key);
    *out = strdup(text);
    if (!*out)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    return BUS_OK;
}

//  Fills mount from the index-th object of the array.
static int
s_parse_entry(json_t *item, size_t index, agent_mount_t *mount, bus_error_t *err)
{
    if (!json_is_object(item))
        return bus_error_set(err, BUS_STATUS_INVALID, "mount %zu is not an object",
                             index);
    int rc = s_member(item, index, "?", "name", &mount->name, err);
    if (rc != BUS_OK)
        return rc;
    const char *name = mount->name;
    //  Not used here, but when given they must be what the schema says.
    const char *const optional[] = {"id", "host", NULL};
    for (size_t i = 0; optional[i]; i++) {
        json_t *value = json_object_get(item, optional[i]);
        if (value && !json_is_string(value))
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "mount %zu (%.64s): %s is not a string", index, name,
                                 optional[i]);
    }
    char *permission = NULL;
    rc = s_member(item, index, name, "host_path", &mount->host_path, err);
    if (rc == BUS_OK)
        rc = s_member(item, index, name, "kernel_path", &mount->kernel_path, err);
    if (rc == BUS_OK)
        rc = s_member(item, index, name, "permission", &permission, err);
    if (rc == BUS_OK) {
        if (streq(permission, "ro"))
            mount->readonly = true;
        else if (streq(permission, "rw") || streq(permission, "wd"))
            mount->readonly = false;
        else
            rc = bus_error_set(err, BUS_STATUS_INVALID,
                               "mount %zu (%.64s): unknown permission \"%.16s\"", index,
                               name, permission);
    }
    free(permission);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Parses and checks kernel.create's mounts text.

int
agent_mounts_parse(const char *text, agent_mounts_t **mounts_p, bus_error_t *err)
{
    assert(mounts_p);
    *mounts_p = NULL;
    agent_mounts_t *self = calloc(1, sizeof *self);
    if (!self)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    if (!text || !*text) {
        *mounts_p = self;
        return BUS_OK;
    }
    int rc = BUS_OK;
    json_error_t jerr;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        rc = bus_error_set(err, BUS_STATUS_INVALID, "mounts is not JSON: %.128s",
                           jerr.text);
        goto done;
    }
    if (!json_is_array(root)) {
        rc = bus_error_set(err, BUS_STATUS_INVALID, "mounts is not a JSON array");
        goto done;
    }
    size_t size = json_array_size(root);
    if (size > AGENT_MOUNTS_MAX) {
        rc = bus_error_set(err, BUS_STATUS_INVALID, "%zu mounts, at most %d", size,
                           AGENT_MOUNTS_MAX);
        goto done;
    }
    if (size > 0) {
        self->items = calloc(size, sizeof *self->items);
        if (!self->items) {
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
            goto done;
        }
    }
    for (size_t i = 0; i < size && rc == BUS_OK; i++) {
        self->count = i + 1; //  so destroy frees what the entry got
        rc = s_parse_entry(json_array_get(root, i), i, &self->items[i], err);
    }
    if (rc == BUS_OK)
        rc = agent_mounts_check(self->items, self->count, err);
done:
    json_decref(root);
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
