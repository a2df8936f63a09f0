/*  =========================================================================
    sp_volumes - the volumes of a storage-proxy and where folders live on them

    The spec is parsed once at start into a fixed array; everything after
    that is lookups. The file system type comes from statfs's magic number,
    only to report it and to say, for XFS, that project quotas are not in
    use yet.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <sys/stat.h>    //  stat, mkdir: the volume directories
#include <sys/statfs.h>  //  statfs: the file system type
#include <sys/statvfs.h> //  statvfs: capacity and usage

//  Magic numbers of statfs f_type (linux/magic.h) for the types worth naming.
#define XFS_MAGIC   0x58465342
#define EXT4_MAGIC  0xEF53
#define TMPFS_MAGIC 0x01021994
#define BTRFS_MAGIC 0x9123683E
#define NFS_MAGIC   0x6969
#define ZFS_MAGIC   0x2FC12FC1
#define OVL_MAGIC   0x794C7630

struct _sp_volumes_t {
    char proxy[SP_VOLUME_HOST_MAX + 1];
    sp_volume_t volumes[SP_VOLUMES_MAX];
    size_t count;
};

static bool
s_name_ok(const char *name, size_t len)
{
    if (len == 0 || len > SP_VOLUME_NAME_MAX)
        return false;
    if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        if (!(isalnum((unsigned char) c) || c == '.' || c == '_' || c == '-'))
            return false;
    }
    return true;
}

//  Trims spaces at both ends of [*start, *end).
static void
s_trim(const char **start, const char **end)
{
    while (*start < *end && isspace((unsigned char) **start))
        (*start)++;
    while (*end > *start && isspace((unsigned char) (*end)[-1]))
        (*end)--;
}

static void
s_fs_type(sp_volume_t *volume)
{
    struct statfs st;
    const char *name = "unknown";
    if (statfs(volume->path, &st) == 0) {
        switch ((unsigned long) st.f_type) {
            case XFS_MAGIC:
                name = "xfs";
                break;
            case EXT4_MAGIC:
                name = "ext4";
                break;
            case TMPFS_MAGIC:
                name = "tmpfs";
                break;
            case BTRFS_MAGIC:
                name = "btrfs";
                break;
            case NFS_MAGIC:
                name = "nfs";
                break;
            case ZFS_MAGIC:
                name = "zfs";
                break;
            case OVL_MAGIC:
                name = "overlay";
                break;
            default:
                break;
        }
    }
    snprintf(volume->fs_type, sizeof volume->fs_type, "%s", name);
    volume->xfs = strcmp(name, "xfs") == 0;
}

//  Fills volume from one entry [start, end) of the spec.
static int
s_parse_entry(sp_volumes_t *self,
              const char *start,
              const char *end,
              const char *state_dir,
              bus_error_t *err)
{
    s_trim(&start, &end);
    int len = (int) (end - start);
    const char *eq = memchr(start, '=', (size_t) (end - start));
    const char *colon = eq ? memchr(eq, ':', (size_t) (end - eq)) : NULL;
    if (!eq || !colon)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "storage.volumes: '%.*s' is not NAME=BACKEND:PATH", len,
                             start),
               -1;
    const char *name = start, *name_end = eq;
    const char *backend = eq + 1, *backend_end = colon;
    const char *path = colon + 1, *path_end = end;
    s_trim(&name, &name_end);
    s_trim(&backend, &backend_end);
    s_trim(&path, &path_end);
    size_t name_len = (size_t) (name_end - name);
    if (!s_name_ok(name, name_len))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "storage.volumes: bad volume name in '%.*s' (letters, "
                             "digits, '.', '_', '-', at most %d)",
                             len, start, SP_VOLUME_NAME_MAX),
               -1;
    if ((size_t) (backend_end - backend) != 5 || memcmp(backend, "local", 5) != 0)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "storage.volumes: unknown backend '%.*s' (only local)",
                             (int) (backend_end - backend), backend),
               -1;
    size_t path_len = (size_t) (path_end - path);
    if (path_len == 0 || memchr(path, '\0', path_len))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "storage.volumes: no path in '%.*s'", len, start),
               -1;
    if (self->count == SP_VOLUMES_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "storage.volumes: more than %d volumes", SP_VOLUMES_MAX),
               -1;
    sp_volume_t *volume = &self->volumes[self->count];
    memset(volume, 0, sizeof *volume);
    memcpy(volume->name, name, name_len);
    snprintf(volume->backend, sizeof volume->backend, "local");
    if (sp_volumes_find(self, volume->name))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "storage.volumes: volume '%s' named twice", volume->name),
               -1;
    bool relative = path[0] != '/';
    int n = relative ? snprintf(volume->path, sizeof volume->path, "%s/%.*s", state_dir,
                                (int) path_len, path)
                     : snprintf(volume->path, sizeof volume->path, "%.*s", (int) path_len,
                                path);
    if (n < 0 || (size_t) n >= sizeof volume->path)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "storage.volumes: path of '%s' too long", volume->name),
               -1;
    char host[sizeof volume->host + 1];
    n = snprintf(host, sizeof host, "%s:%.*s", self->proxy, (int) name_len, name);
    if (n < 0 || (size_t) n >= sizeof volume->host)
        return bus_error_set(err, BUS_STATUS_INVALID, "host name of '%s' too long",
                             volume->name),
               -1;
    memcpy(volume->host, host, (size_t) n + 1);
    if (relative && bus_mkdirs_mode(volume->path, SP_VOLUMES_DIR_MODE) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "volume %s: cannot create %s: %s",
                             volume->name, volume->path, strerror(errno)),
               -1;
    struct stat st;
    if (stat(volume->path, &st) != 0 || !S_ISDIR(st.st_mode))
        return bus_error_set(err, BUS_STATUS_NOT_FOUND,
                             "volume %s: %s is not a directory (is it mounted?)",
                             volume->name, volume->path),
               -1;
    char trash[PATH_MAX + 16];
    snprintf(trash, sizeof trash, "%s/%s", volume->path, SP_VOLUMES_TRASH);
    if (mkdir(trash, 0700) != 0 && errno != EEXIST)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "volume %s: cannot create %s: %s",
                             volume->name, trash, strerror(errno)),
               -1;
    s_fs_type(volume);
    self->count++;
    return 0;
}

//  ---------------------------------------------------------------------------

sp_volumes_t *
sp_volumes_new(const char *spec,
               const char *state_dir,
               const char *proxy,
               bus_error_t *err)
{
    assert(spec && state_dir && proxy);
    sp_volumes_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    if (!*proxy || strlen(proxy) > SP_VOLUME_HOST_MAX / 2 || strchr(proxy, ':')) {
        bus_error_set(err, BUS_STATUS_INVALID, "bad proxy name '%s'", proxy);
        goto fail;
    }
    snprintf(self->proxy, sizeof self->proxy, "%s", proxy);
    const char *start = spec;
    while (true) {
        const char *comma = strchr(start, ',');
        const char *end = comma ? comma : start + strlen(start);
        const char *a = start, *b = end;
        s_trim(&a, &b);
        if (a == b) {
            if (comma || self->count == 0) {
                bus_error_set(err, BUS_STATUS_INVALID, "storage.volumes: empty entry");
                goto fail;
            }
        } else if (s_parse_entry(self, start, end, state_dir, err) != 0)
            goto fail;
        if (!comma)
            break;
        start = comma + 1;
    }
    return self;
fail:
    sp_volumes_destroy(&self);
    return NULL;
}

void
sp_volumes_destroy(sp_volumes_t **self_p)
{
    assert(self_p);
    free(*self_p);
    *self_p = NULL;
}

//  ---------------------------------------------------------------------------

const char *
sp_volumes_proxy(sp_volumes_t *self)
{
    assert(self);
    return self->proxy;
}

size_t
sp_volumes_count(sp_volumes_t *self)
{
    assert(self);
    return self->count;
}

const sp_volume_t *
sp_volumes_at(sp_volumes_t *self, size_t index)
{
    assert(self);
    return index < self->count ? &self->volumes[index] : NULL;
}

const sp_volume_t *
sp_volumes_find(sp_volumes_t *self, const char *name)
{
    assert(self);
    for (size_t i = 0; name && i < self->count; i++)
        if (strcmp(self->volumes[i].name, name) == 0)
            return &self->volumes[i];
    return NULL;
}

//  ---------------------------------------------------------------------------

int
sp_volumes_usage(const sp_volume_t *volume, sp_volume_usage_t *usage, bus_error_t *err)
{
    assert(volume && usage);
    memset(usage, 0, sizeof *usage);
    struct statvfs st;
    if (statvfs(volume->path, &st) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "statvfs %s: %s", volume->name,
                             strerror(errno)),
               -1;
    uint64_t unit = st.f_frsize ? st.f_frsize : st.f_bsize;
    usage->capacity = (uint64_t) st.f_blocks * unit;
    usage->available = (uint64_t) st.f_bavail * unit;
    usage->used = (uint64_t) (st.f_blocks - st.f_bfree) * unit;
    return 0;
}

//  ---------------------------------------------------------------------------

int
sp_volumes_check_id(const char *id, char out[SP_FOLDER_ID_LEN + 1], bus_error_t *err)
{
    assert(out);
    out[0] = '\0';
    size_t len = id ? strlen(id) : 0;
    //  8-4-4-4-12 with dashes, or 32 digits
    bool dashed = len == SP_FOLDER_ID_LEN + 4;
    if (len != SP_FOLDER_ID_LEN && !dashed)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "bad folder id: 32 hex digits or a UUID expected"),
               -1;
    char digits[SP_FOLDER_ID_LEN + 1];
    size_t used = 0;
    for (size_t i = 0; i < len; i++) {
        char c = id[i];
        if (dashed && (i == 8 || i == 13 || i == 18 || i == 23)) {
            if (c != '-')
                return bus_error_set(err, BUS_STATUS_INVALID, "bad folder id: bad UUID"),
                       -1;
            continue;
        }
        if (!isxdigit((unsigned char) c))
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "bad folder id: 32 hex digits or a UUID expected"),
                   -1;
        digits[used++] = (char) tolower((unsigned char) c);
    }
    digits[used] = '\0';
    memcpy(out, digits, used + 1);
    return 0;
}

int
sp_volumes_folder_path(const sp_volume_t *volume, const char *id, char *out, size_t size)
{
    assert(volume && id && out);
    int n = snprintf(out, size, "%s/%.2s/%s", volume->path, id, id);
    return n < 0 || (size_t) n >= size ? -1 : 0;
}
