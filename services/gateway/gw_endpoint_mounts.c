/*  =========================================================================
    gw_endpoint_mounts - the folders a model service's replicas mount

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define S_HOME "/home/work"

//  True when one of a and b is the other or lies beneath it.
static bool
s_overlap(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    size_t n = na < nb ? na : nb;
    return strncmp(a, b, n) == 0 && (a[n] == '\0' || a[n] == '/' || b[n] == '/');
}

bool
gw_endpoint_path_valid(const char *path, bool extra)
{
    static const char *const reserved[] = {"/home",      "/proc",          "/dev", "/sys",
                                           "/etc/hosts", "/opt/backplane", NULL};
    size_t n = path ? strlen(path) : 0;
    if (n < 2 || n > 255 || path[0] != '/' || path[n - 1] == '/' || strstr(path, "//") ||
        strstr(path, "/../") || strstr(path, "/./") || strcmp(path + n - 3, "/..") == 0 ||
        strcmp(path + n - 2, "/.") == 0)
        return false;
    for (const char *c = path; *c; c++)
        if ((unsigned char) *c < 0x20 || *c == 0x7f)
            return false;
    //  An extra folder may go beneath the kernel's home, as a session's do.
    if (extra && strncmp(path, S_HOME "/", strlen(S_HOME) + 1) == 0)
        return true;
    for (size_t i = 0; reserved[i]; i++)
        if (s_overlap(path, reserved[i]))
            return false; //  the same, beneath it, or above it ("/opt" hides the runner)
    return true;
}

//  One extra folder of the request: found, checked, and its stored entry
//  appended to stored; false with *status and detail.
static bool
s_extra_one(gw_ctx_t *ctx,
            const char *key,
            json_t *options,
            json_t *stored,
            int *status,
            char *detail,
            size_t size)
{
    json_t *dest_value = json_object_get(options, "mount_destination");
    json_t *perm_value = json_object_get(options, "permission");
    json_t *type = json_object_get(options, "type");
    if ((options && !json_is_object(options) && !json_is_null(options)) ||
        (dest_value && !json_is_null(dest_value) && !json_is_string(dest_value)) ||
        (type && !json_is_null(type) &&
         (!json_is_string(type) || strcmp(json_string_value(type), "bind") != 0))) {
        *status = BUS_STATUS_INVALID;
        snprintf(detail, size,
                 "config.extra_mounts.%.64s: {mount_destination?, type: \"bind\","
                 " permission?}",
                 key);
        return false;
    }
    gw_vfolder_perm_t asked = 0;
    if (perm_value && !json_is_null(perm_value) &&
        !(asked = gw_vfolder_perm_parse(json_string_value(perm_value)))) {
        *status = BUS_STATUS_INVALID;
        snprintf(detail, size, "config.extra_mounts.%.64s.permission: ro, rw or wd", key);
        return false;
    }
    gw_vfolder_t folder;
    bus_error_t err = {0};
    if (gw_vfolder_find(ctx, key, "ready", &folder, &err) != BUS_OK) {
        *status = err.status == BUS_STATUS_NOT_FOUND ? BUS_STATUS_NOT_FOUND
                                                     : BUS_STATUS_INTERNAL;
        snprintf(detail, size, "Cannot find the extra folder %.64s", key);
        return false;
    }
    const char *mode = json_string_value(json_object_get(folder.row, "usage_mode"));
    gw_vfolder_perm_t own = gw_vfolder_shown_perm(&folder);
    char dest[300];
    const char *given = json_string_value(dest_value);
    if (!given || !*given)
        snprintf(dest, sizeof dest, S_HOME "/%s", folder.name);
    else if (given[0] != '/')
        snprintf(dest, sizeof dest, S_HOME "/%s", given);
    else
        snprintf(dest, sizeof dest, "%s", given);
    bool ok = false;
    if (mode && strcmp(mode, "model") == 0) {
        *status = BUS_STATUS_INVALID;
        snprintf(detail, size,
                 "config.extra_mounts: %.64s is a model folder, which cannot be an extra"
                 " mount",
                 folder.name);
    } else if (!folder.admin &&
               !gw_vfolder_host_allows(ctx, folder.host, NULL, "mount-in-session")) {
        *status = BUS_STATUS_FORBIDDEN;
        snprintf(detail, size, "you may not mount folders of the host %.128s",
                 folder.host);
    } else if (asked > folder.perm) {
        *status = BUS_STATUS_FORBIDDEN;
        snprintf(detail, size, "config.extra_mounts: %.64s may be mounted %s at most",
                 folder.name, gw_vfolder_perm_str(folder.perm));
    } else if (!gw_endpoint_path_valid(dest, true)) {
        *status = BUS_STATUS_INVALID;
        snprintf(detail, size,
                 "config.extra_mounts: %.64s's mount_destination %.128s is no clean"
                 " absolute path beneath /home/work or outside /home, /proc, /dev, /sys,"
                 " /etc/hosts and /opt/backplane",
                 folder.name, dest);
    } else
        ok = true;
    if (ok) {
        json_t *entry =
            json_pack("{s:s, s:s, s:s}", "id", folder.id, "mount_destination", dest,
                      "permission", gw_vfolder_perm_str(asked ? asked : own));
        ok = entry && json_array_append_new(stored, entry) == 0;
        if (!ok) {
            *status = BUS_STATUS_INTERNAL;
            snprintf(detail, size, "out of memory");
        }
    }
    gw_vfolder_clear(&folder);
    return ok;
}

json_t *
gw_endpoint_extra_parse(gw_ctx_t *ctx,
                        json_t *extra,
                        const char *model_dest,
                        int *status,
                        char *detail,
                        size_t size)
{
    assert(ctx && model_dest && status && detail);
    json_t *stored = json_array();
    if (!extra || json_is_null(extra))
        return stored;
    if (!json_is_object(extra) || json_object_size(extra) > GW_ENDPOINT_EXTRA_MAX) {
        *status = BUS_STATUS_INVALID;
        snprintf(detail, size,
                 "config.extra_mounts: an object of at most %d folders (id or name:"
                 " {mount_destination?, type: \"bind\", permission?})",
                 GW_ENDPOINT_EXTRA_MAX);
        json_decref(stored);
        return NULL;
    }
    const char *key;
    json_t *options;
    json_object_foreach(extra, key, options)
    {
        if (!s_extra_one(ctx, key, options, stored, status, detail, size)) {
            json_decref(stored);
            return NULL;
        }
    }
    //  No two places that meet: the model's, or two extra folders'; no folder
    //  twice (by its name and by its id).
    for (size_t i = 0; i < json_array_size(stored); i++) {
        json_t *item = json_array_get(stored, i);
        const char *a = json_string_value(json_object_get(item, "mount_destination"));
        const char *id = json_string_value(json_object_get(item, "id"));
        for (size_t j = 0; j < i; j++)
            if (strcmp(id, json_string_value(
                               json_object_get(json_array_get(stored, j), "id"))) == 0) {
                *status = BUS_STATUS_INVALID;
                snprintf(detail, size, "config.extra_mounts: a folder named twice (%s)",
                         id);
                json_decref(stored);
                return NULL;
            }
        bool meets = s_overlap(a, model_dest);
        for (size_t j = 0; !meets && j < i; j++)
            meets = s_overlap(a, json_string_value(json_object_get(
                                     json_array_get(stored, j), "mount_destination")));
        if (meets) {
            *status = BUS_STATUS_INVALID;
            snprintf(detail, size,
                     "config.extra_mounts: %.200s meets another folder's place (the"
                     " model's, %.200s, or another extra folder's)",
                     a, model_dest);
            json_decref(stored);
            return NULL;
        }
    }
    return stored;
}

json_t *
gw_endpoint_mounts(gw_ctx_t *ctx, json_t *endpoint, char *detail, size_t size)
{
    gw_vfolder_t folder;
    bus_error_t err = {0};
    const char *model = json_string_value(json_object_get(endpoint, "model"));
    if (gw_vfolder_find(ctx, model, "ready", &folder, &err) != BUS_OK) {
        snprintf(detail, size, "Cannot find model folder: %s", err.detail);
        return NULL;
    }
    const char *mode = json_string_value(json_object_get(folder.row, "usage_mode"));
    json_t *mounts = NULL;
    if (!mode || strcmp(mode, "model") != 0)
        snprintf(detail, size, "Selected VFolder is not a model folder");
    else if (!folder.admin &&
             !gw_vfolder_host_allows(ctx, folder.host, NULL, "mount-in-session"))
        snprintf(detail, size, "you may not mount folders of the host %s", folder.host);
    else if (!(mounts = json_pack("[{s:s, s:s, s:s, s:O, s:s}]", "name", folder.name,
                                  "id", folder.id, "host", folder.host, "kernel_path",
                                  json_object_get(endpoint, "model_mount_destination"),
                                  "permission", "ro")))
        snprintf(detail, size, "the endpoint's model mount is unreadable");
    gw_vfolder_clear(&folder);
    //  The extra folders as they were checked at creation, looked up again.
    json_t *extra =
        json_loads(json_string_value(json_object_get(endpoint, "extra_mounts")), 0, NULL);
    size_t index;
    json_t *entry;
    json_array_foreach(extra, index, entry)
    {
        if (!mounts)
            break;
        const char *id = json_string_value(json_object_get(entry, "id"));
        if (gw_vfolder_find(ctx, id, "ready", &folder, &err) != BUS_OK) {
            snprintf(detail, size, "Cannot find the extra folder %.64s", id ? id : "?");
            json_decref(mounts);
            mounts = NULL;
            break;
        }
        //  As the owner may use it now: what was allowed at creation may
        //  have been taken back since (a share cut to ro, a host grant).
        const char *usage = json_string_value(json_object_get(folder.row, "usage_mode"));
        gw_vfolder_perm_t perm = gw_vfolder_perm_parse(
            json_string_value(json_object_get(entry, "permission")));
        if (!perm || perm > folder.perm)
            perm = folder.perm;
        json_t *mount = NULL;
        if (usage && strcmp(usage, "model") == 0)
            snprintf(detail, size, "the extra folder %.64s became a model folder",
                     folder.name);
        else if (!folder.admin &&
                 !gw_vfolder_host_allows(ctx, folder.host, NULL, "mount-in-session"))
            snprintf(detail, size, "you may not mount folders of the host %.128s",
                     folder.host);
        else if (!(mount = json_pack("{s:s, s:s, s:s, s:O, s:s}", "name", folder.name,
                                     "id", folder.id, "host", folder.host, "kernel_path",
                                     json_object_get(entry, "mount_destination"),
                                     "permission", gw_vfolder_perm_str(perm))) ||
                 json_array_append_new(mounts, mount) != 0)
            snprintf(detail, size, "the endpoint's extra mounts are unreadable");
        gw_vfolder_clear(&folder);
        if (!mount) {
            json_decref(mounts);
            mounts = NULL;
            break;
        }
    }
    json_decref(extra);
    return mounts;
}
