/*  =========================================================================
    gw_vfolder_mounts - the folders a new session mounts, resolved

    Everything that can be checked in the gateway's own database is checked
    first, in one pass over the names; then one storage.folder.mount_path
    call per folder goes out at once, and the answer is given when the last
    one is back.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define S_HOME "/home/work"

typedef struct {
    gw_vfolder_mounts_fn *done;
    void *arg;
    json_t *mounts; //  [{"name", "id", "host", "kernel_path", "permission"}]
    size_t pending;
    char slug[64];
    char detail[512];
} resolve_t;

typedef struct {
    resolve_t *resolve;
    json_t *mount; //  borrowed from resolve->mounts
} one_t;

static void
s_finish(resolve_t *resolve)
{
    if (*resolve->slug)
        resolve->done(resolve->arg, NULL, resolve->slug, resolve->detail);
    else {
        char *text = json_array_size(resolve->mounts)
                         ? json_dumps(resolve->mounts, JSON_COMPACT)
                         : NULL;
        if (json_array_size(resolve->mounts) && !text)
            resolve->done(resolve->arg, NULL, "internal-server-error", "out of memory");
        else
            resolve->done(resolve->arg, text, NULL, NULL);
        free(text);
    }
    json_decref(resolve->mounts);
    free(resolve);
}

static void
s_fail(resolve_t *resolve, const char *slug, const char *detail)
{
    if (!*resolve->slug) {
        snprintf(resolve->slug, sizeof resolve->slug, "%s", slug);
        snprintf(resolve->detail, sizeof resolve->detail, "%s", detail);
    }
}

static void
s_on_path(void *arg, const bus_reply_t *reply)
{
    one_t *one = arg;
    resolve_t *resolve = one->resolve;
    proto_storage_folder_mount_path_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK) {
        char detail[512];
        snprintf(detail, sizeof detail, "cannot mount %s: %s",
                 json_string_value(json_object_get(one->mount, "name")), reply->detail);
        s_fail(resolve, "vfolder-operation-failed", detail);
    } else if (proto_storage_folder_mount_path_rep_decode(
                   &rep, reply->body, reply->body_size, &err) != BUS_OK)
        s_fail(resolve, "internal-server-error", err.detail);
    else {
        json_object_set_new(one->mount, "host_path", json_string(rep.path));
        proto_storage_folder_mount_path_rep_clear(&rep);
    }
    free(one);
    if (--resolve->pending == 0)
        s_finish(resolve);
}

//  Where name goes: mount_map's path (relative to /home/work, or absolute
//  beneath it), else /home/work/<name>. false when the path is not one.
static bool
s_kernel_path(json_t *map, const char *name, char *out, size_t size)
{
    const char *asked = json_string_value(json_object_get(map, name));
    if (!asked || !*asked) {
        snprintf(out, size, S_HOME "/%s", name);
        return true;
    }
    if (asked[0] == '/') {
        if (strncmp(asked, S_HOME "/", strlen(S_HOME) + 1) != 0)
            return false;
        snprintf(out, size, "%s", asked);
    } else
        snprintf(out, size, S_HOME "/%s", asked);
    //  The agent refuses anything else as well; saying it here names the field.
    size_t len = strlen(out);
    if (len >= size - 1 || out[len - 1] == '/' || strstr(out, "/../") ||
        strstr(out, "/./") || strstr(out, "//") ||
        (len >= 3 && strcmp(out + len - 3, "/..") == 0))
        return false;
    for (const char *c = out; *c; c++)
        if ((unsigned char) *c < 0x20 || *c == 0x7f)
            return false;
    return true;
}

//  Adds folder (reached) at kernel_path with the permission asked (0: the
//  caller's). false after s_fail.
static bool
s_add(resolve_t *resolve,
      gw_ctx_t *ctx,
      const gw_vfolder_t *folder,
      const char *kernel_path,
      gw_vfolder_perm_t asked)
{
    char detail[512];
    if (json_array_size(resolve->mounts) >= GW_VFOLDER_MOUNTS_MAX) {
        snprintf(detail, sizeof detail, "a session mounts at most %d folders",
                 GW_VFOLDER_MOUNTS_MAX);
        s_fail(resolve, "invalid-api-params", detail);
        return false;
    }
    if (asked > folder->perm) {
        snprintf(detail, sizeof detail, "the folder %s is shared with you as %s, not %s",
                 folder->name, gw_vfolder_perm_str(folder->perm),
                 gw_vfolder_perm_str(asked));
        s_fail(resolve, "vfolder-permission-error", detail);
        return false;
    }
    if (!folder->admin &&
        !gw_vfolder_host_allows(ctx, folder->host, NULL, "mount-in-session")) {
        snprintf(detail, sizeof detail, "you may not mount folders of the host %s",
                 folder->host);
        s_fail(resolve, "insufficient-privilege", detail);
        return false;
    }
    size_t index;
    json_t *mount;
    json_array_foreach(resolve->mounts, index, mount)
    {
        if (strcmp(json_string_value(json_object_get(mount, "kernel_path")),
                   kernel_path) == 0 ||
            strcmp(json_string_value(json_object_get(mount, "id")), folder->id) == 0) {
            snprintf(detail, sizeof detail, "%s is mounted twice, or at %s twice",
                     folder->name, kernel_path);
            s_fail(resolve, "invalid-api-params", detail);
            return false;
        }
    }
    gw_vfolder_perm_t perm = asked ? asked : gw_vfolder_shown_perm(folder);
    json_array_append_new(
        resolve->mounts, json_pack("{s:s, s:s, s:s, s:s, s:s}", "name", folder->name,
                                   "id", folder->id, "host", folder->host, "kernel_path",
                                   kernel_path, "permission", gw_vfolder_perm_str(perm)));
    return true;
}

//  The permission mount_options asks for name: 0 when none; -1 when the
//  option is malformed.
static int
s_asked(json_t *options, const char *name)
{
    json_t *option = json_object_get(options, name);
    if (!option)
        return 0;
    const char *text = json_string_value(json_object_get(option, "permission"));
    if (!text)
        text = json_string_value(json_object_get(option, "perm"));
    gw_vfolder_perm_t perm = gw_vfolder_perm_parse(text);
    return perm ? (int) perm : -1;
}

//  Adds the caller's extra mounts (checked by the caller) unless one meets
//  a folder or a path already there. false after s_fail.
static bool
s_add_extra(resolve_t *resolve, json_t *extra)
{
    size_t index, m;
    json_t *item, *mount;
    json_array_foreach(extra, index, item)
    {
        const char *path = json_string_value(json_object_get(item, "kernel_path"));
        const char *id = json_string_value(json_object_get(item, "id"));
        if (!path || !id) {
            s_fail(resolve, "internal-server-error",
                   "an extra mount without a path or id");
            return false;
        }
        json_array_foreach(resolve->mounts, m, mount)
        {
            if (strcmp(json_string_value(json_object_get(mount, "kernel_path")), path) ==
                    0 ||
                strcmp(json_string_value(json_object_get(mount, "id")), id) == 0) {
                char detail[512];
                snprintf(detail, sizeof detail, "%s is mounted twice, or at %s twice",
                         json_string_value(json_object_get(item, "name")), path);
                s_fail(resolve, "invalid-api-params", detail);
                return false;
            }
        }
        json_array_append(resolve->mounts, item);
    }
    return true;
}

void
gw_vfolder_mounts_resolve(gw_server_t *gw,
                          gw_ctx_t *ctx,
                          json_t *config,
                          json_t *extra,
                          gw_vfolder_mounts_fn *done,
                          void *arg)
{
    resolve_t *resolve = calloc(1, sizeof *resolve);
    if (!resolve) {
        done(arg, NULL, "internal-server-error", "out of memory");
        return;
    }
    resolve->done = done;
    resolve->arg = arg;
    resolve->mounts = json_array();
    json_t *names = json_object_get(config, "mounts");
    json_t *map = json_object_get(config, "mount_map");
    json_t *options = json_object_get(config, "mount_options");
    if ((names && !json_is_array(names) && !json_is_null(names)) ||
        (map && !json_is_object(map) && !json_is_null(map)) ||
        (options && !json_is_object(options) && !json_is_null(options))) {
        s_fail(resolve, "invalid-api-params",
               "config.mounts is a list of folder names, config.mount_map and "
               "config.mount_options objects keyed by name");
        s_finish(resolve);
        return;
    }
    size_t index;
    json_t *item;
    json_array_foreach(names, index, item)
    {
        const char *name = json_string_value(item);
        gw_vfolder_t folder;
        bus_error_t err = {0};
        char kernel_path[PATH_MAX], detail[512];
        if (!name) {
            s_fail(resolve, "invalid-api-params", "config.mounts: folder names");
            break;
        }
        if (gw_vfolder_find(ctx, name, "ready", &folder, &err) != BUS_OK) {
            s_fail(resolve,
                   err.status == BUS_STATUS_NOT_FOUND ? "object-not-found"
                                                      : "internal-server-error",
                   err.detail);
            break;
        }
        //  mount_map and mount_options may key by the name or by what was asked.
        const char *key = json_object_get(map, name) ? name : folder.name;
        int asked = s_asked(options, json_object_get(options, name) ? name : folder.name);
        bool added = false;
        if (!s_kernel_path(map, key, kernel_path, sizeof kernel_path)) {
            snprintf(detail, sizeof detail,
                     "config.mount_map: %s must go beneath " S_HOME "/, with no '..'",
                     name);
            s_fail(resolve, "invalid-api-params", detail);
        } else if (asked < 0)
            s_fail(resolve, "invalid-api-params",
                   "config.mount_options: {\"<name>\": {\"permission\": \"ro\"|\"rw\"}}");
        else
            added = s_add(resolve, ctx, &folder, kernel_path, (gw_vfolder_perm_t) asked);
        gw_vfolder_clear(&folder);
        if (!added)
            break;
    }
    if (!*resolve->slug)
        s_add_extra(resolve, extra);
    //  Automount: the caller's own dot-prefixed folders, unless named above.
    gw_vfolder_t *own = NULL;
    size_t own_count = 0;
    if (!*resolve->slug && gw_vfolder_automounts(ctx, &own, &own_count) != BUS_OK)
        s_fail(resolve, "internal-server-error", "cannot read the folders");
    bool adding = !*resolve->slug;
    for (size_t i = 0; i < own_count; i++) {
        bool named = false;
        size_t m;
        json_t *mount;
        json_array_foreach(resolve->mounts, m, mount) named |=
            strcmp(json_string_value(json_object_get(mount, "id")), own[i].id) == 0;
        char kernel_path[PATH_MAX];
        snprintf(kernel_path, sizeof kernel_path, S_HOME "/%s", own[i].name);
        if (adding && !named)
            adding = s_add(resolve, ctx, &own[i], kernel_path, 0);
        gw_vfolder_clear(&own[i]);
    }
    free(own);
    if (*resolve->slug || json_array_size(resolve->mounts) == 0) {
        s_finish(resolve);
        return;
    }
    //  Held until every call is out, so no early answer finishes it.
    resolve->pending = 1;
    json_t *mount;
    json_array_foreach(resolve->mounts, index, mount)
    {
        one_t *one = calloc(1, sizeof *one);
        if (!one) {
            s_fail(resolve, "internal-server-error", "out of memory");
            break;
        }
        one->resolve = resolve;
        one->mount = mount;
        const char *host = json_string_value(json_object_get(mount, "host"));
        proto_storage_folder_mount_path_req_t in;
        proto_storage_folder_mount_path_req_init(&in);
        in.id = json_string_value(json_object_get(mount, "id"));
        in.volume = gw_storage_volume_of(host);
        bus_error_t err;
        bus_writer_t *writer = proto_storage_folder_mount_path_req_writer(&in, &err);
        resolve->pending++;
        gw_storage_call(gw_server_storage(gw), host, PROTO_STORAGE_FOLDER_MOUNT_PATH,
                        writer, &err, s_on_path, one);
    }
    if (--resolve->pending == 0)
        s_finish(resolve);
}
