/*  =========================================================================
    agent_overlay - mount and unmount a kernel's overlayfs root

    The mount options are one comma-separated string, so a lower, upper or
    work path holding ',' or ':' (or '\\') cannot be passed safely; such paths
    are refused instead of escaped. Whether a path is mounted is what statx
    says (STATX_ATTR_MOUNT_ROOT: one call, whatever the number of mounts on
    the host), else read from /proc/self/mountinfo, whose paths escape
    space, tab, newline and backslash as octal; an overlay's upperdir is read
    back from there, so unmounting finds the scratch tmpfs of a kernel
    mounted by an earlier agent process. mountinfo grows with every mount on
    the host (other kernels, their namespaces, whatever else runs there), and
    a create and a removal used to read it a dozen times each, a kilobyte a
    read: it is read in large blocks, and only where a mount's type or
    options are wanted.

    In memory mode the scratch tmpfs is mounted nosuid,nodev: that only
    guards the host's own view of it (<kernel_dir>/scratch), since overlayfs
    checks the flags of the overlay mount, not of its upper layer. tmpfs pages
    are charged to the memory cgroup of the task that writes them, so what a
    kernel writes to its root also counts against the kernel's memory limit:
    the scratch size bounds the disk-like use, the cgroup bounds RAM overall,
    and a kernel cannot make the host swap or run out of memory through its
    root. Pages stay charged (to the cgroup or its parent once removed) until
    the tmpfs is unmounted.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <fcntl.h>     //  AT_FDCWD, AT_NO_AUTOMOUNT
#include <sys/mount.h> //  mount, umount2
#include <sys/stat.h>  //  mkdir, statx

//  How much of /proc/self/mountinfo one read takes (stdio's default for
//  proc files is 1 KiB).
#define S_MOUNTINFO_BUFFER 65536

//  How many stacked mounts one unmount call takes off a mount point.
#define S_UNMOUNT_DEPTH 8

//  Process-wide scratch settings (agent_overlay_set_scratch): written once at
//  start, before any kernel is mounted, by the thread that owns the kernels.
static const char *s_scratch_type = AGENT_OVERLAY_SCRATCH_TYPE_DEFAULT;
static int64_t s_scratch_size = AGENT_OVERLAY_SCRATCH_SIZE_DEFAULT_BYTES;

static bool
s_option_safe(const char *path)
{
    return !strpbrk(path, ",:\\");
}

//  Undo mountinfo's octal escapes in place.
static void
s_unescape(char *path)
{
    char *out = path;
    for (char *in = path; *in; in++) {
        if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] >= '0' &&
            in[2] <= '7' && in[3] >= '0' && in[3] <= '7') {
            *out++ = (char) ((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
            in += 3;
        } else
            *out++ = *in;
    }
    *out = '\0';
}

//  The canonical name of a known scratch type, or NULL.
static const char *
s_scratch_type_name(const char *type)
{
    if (type && streq(type, AGENT_OVERLAY_SCRATCH_MEMORY))
        return AGENT_OVERLAY_SCRATCH_MEMORY;
    if (type && streq(type, AGENT_OVERLAY_SCRATCH_HOSTDIR))
        return AGENT_OVERLAY_SCRATCH_HOSTDIR;
    return NULL;
}

static bool
s_scratch_size_valid(int64_t size)
{
    return size >= AGENT_OVERLAY_SCRATCH_SIZE_MIN &&
           size <= AGENT_OVERLAY_SCRATCH_SIZE_MAX;
}

//  Find the topmost mount on path in /proc/self/mountinfo. Returns true when
//  there is one, with its filesystem type and super options copied (either
//  may be NULL).
static bool
s_mount_find(
    const char *path, char *fstype, size_t fstype_size, char *super, size_t super_size)
{
    char wanted[PATH_MAX];
    if (!realpath(path, wanted))
        return false;
    FILE *file = fopen("/proc/self/mountinfo", "r");
    if (!file)
        return false;
    setvbuf(file, NULL, _IOFBF, S_MOUNTINFO_BUFFER);
    bool found = false;
    char *line = NULL;
    size_t size = 0;
    //  "36 35 98:0 /root /mnt/point rw,... [optional...] - type source superopts"
    while (getline(&line, &size, file) > 0) {
        line[strcspn(line, "\n")] = '\0';
        char *save = NULL, *field = strtok_r(line, " ", &save);
        for (int i = 1; field && i < 5; i++)
            field = strtok_r(NULL, " ", &save);
        if (!field)
            continue;
        s_unescape(field);
        if (!streq(field, wanted))
            continue;
        //  Later lines are mounts on top of earlier ones: keep the last.
        found = true;
        while ((field = strtok_r(NULL, " ", &save)) && !streq(field, "-"))
            ;
        char *type = field ? strtok_r(NULL, " ", &save) : NULL;
        char *source = type ? strtok_r(NULL, " ", &save) : NULL;
        char *options = source ? strtok_r(NULL, " ", &save) : NULL;
        if (fstype)
            snprintf(fstype, fstype_size, "%s", type ? type : "");
        if (super)
            snprintf(super, super_size, "%s", options ? options : "");
    }
    free(line);
    fclose(file);
    return found;
}

//  From an overlay's super options, the scratch dir its upperdir lies in:
//  "...,upperdir=<dir>/scratch/upper,..." gives <dir>/scratch. False when
//  the upper dir is not in a scratch dir (hostdir mode).
static bool
s_scratch_of(const char *super, char *scratch, size_t scratch_size)
{
    static const char key[] = "upperdir=";
    const char *start = super;
    while (start && strncmp(start, key, strlen(key)) != 0) {
        start = strchr(start, ',');
        if (start)
            start++;
    }
    if (!start)
        return false;
    start += strlen(key);
    size_t length = strcspn(start, ",");
    if (length >= scratch_size)
        return false;
    memcpy(scratch, start, length);
    scratch[length] = '\0';
    s_unescape(scratch);
    const char *tail = "/" AGENT_OVERLAY_SCRATCH_DIR "/upper";
    length = strlen(scratch);
    if (length <= strlen(tail) || !streq(scratch + length - strlen(tail), tail))
        return false;
    scratch[length - strlen("/upper")] = '\0';
    return true;
}

//  Unmount one mount on path; a busy one is detached lazily.
static int
s_umount(const char *path)
{
    if (umount2(path, 0) == 0)
        return 0;
    if (errno == EBUSY && umount2(path, MNT_DETACH) == 0)
        return 0;
    return -1;
}

//  Take every mount (up to S_UNMOUNT_DEPTH stacked) off path.
static int
s_umount_all(const char *path)
{
    for (int i = 0; i < S_UNMOUNT_DEPTH && agent_overlay_is_mounted(path); i++)
        if (s_umount(path) != 0)
            return -1;
    return 0;
}

//  Mount the scratch tmpfs of size bytes on path.
static int
s_mount_scratch(const char *path, int64_t size)
{
    int64_t inodes = size / AGENT_OVERLAY_SCRATCH_BYTES_PER_INODE;
    if (inodes < AGENT_OVERLAY_SCRATCH_INODES_MIN)
        inodes = AGENT_OVERLAY_SCRATCH_INODES_MIN;
    char options[128];
    snprintf(options, sizeof options, "size=%" PRId64 ",nr_inodes=%" PRId64 ",mode=0755",
             size, inodes);
    return mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, options);
}

//  Mount a side tmpfs on <kernel_dir>/<name> unless one is there. Returns 0
//  with *mounted_p telling whether this call mounted it, or -1 with err.
static int
s_mount_side(const char *kernel_dir,
             const char *name,
             int64_t size,
             int inodes,
             const char *owner,
             bool *mounted_p,
             bus_error_t *err)
{
    *mounted_p = false;
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", kernel_dir, name) >= (int) sizeof path) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "kernel dir path too long");
        return -1;
    }
    if (bus_mkdirs_mode(path, 0755) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot create %s: %s", path,
                      strerror(errno));
        return -1;
    }
    if (agent_overlay_is_mounted(path))
        return 0;
    char options[160];
    snprintf(options, sizeof options, "size=%" PRId64 ",nr_inodes=%d,%s", size, inodes,
             owner);
    if (mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, options) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot mount tmpfs on %s: %s", path,
                      strerror(errno));
        return -1;
    }
    *mounted_p = true;
    return 0;
}

//  Take every mount off <kernel_dir>/<name>. Returns 0 or -1.
static int
s_umount_side(const char *kernel_dir, const char *name)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", kernel_dir, name) >= (int) sizeof path)
        return 0; //  too long for agent_overlay_mount_side to have made it
    return s_umount_all(path);
}

//  ---------------------------------------------------------------------------
//  Set the process-wide scratch type and size.

int
agent_overlay_set_scratch(const char *type, int64_t size)
{
    const char *name = s_scratch_type_name(type);
    if (!name || !s_scratch_size_valid(size))
        return -1;
    s_scratch_type = name;
    s_scratch_size = size;
    return 0;
}

//  ---------------------------------------------------------------------------
//  Mount with the process-wide scratch settings.

int
agent_overlay_mount(const char *lower,
                    const char *kernel_dir,
                    const char *target,
                    bus_error_t *err)
{
    return agent_overlay_mount_scratch(lower, kernel_dir, target, s_scratch_type,
                                       s_scratch_size, err);
}

//  ---------------------------------------------------------------------------
//  The writable layers: the scratch (a tmpfs when memory), upper/ and work/
//  in it, the upper layer's mount points and home. Whatever exists already
//  is kept (a spare kernel dir made them ahead, a kernel taken back after a
//  restart has them). *mounted_p tells whether this call mounted the scratch.

static int
s_layers(const char *kernel_dir,
         bool memory,
         int64_t scratch_size,
         const char *upper,
         const char *work,
         bool *mounted_p,
         bus_error_t *err)
{
    char scratch[PATH_MAX], upper_link[PATH_MAX], path[PATH_MAX + 64];
    snprintf(scratch, sizeof scratch, "%s/" AGENT_OVERLAY_SCRATCH_DIR, kernel_dir);
    snprintf(upper_link, sizeof upper_link, "%s/upper", kernel_dir);
    int status = BUS_STATUS_INTERNAL;
    *mounted_p = false;
    if (memory) {
        if (bus_mkdirs_mode(scratch, 0755) != 0)
            return bus_error_set(err, status, "cannot create %s: %s", scratch,
                                 strerror(errno));
        if (!agent_overlay_is_mounted(scratch)) {
            if (s_mount_scratch(scratch, scratch_size) != 0)
                return bus_error_set(err, status, "cannot mount tmpfs on %s: %s", scratch,
                                     strerror(errno));
            *mounted_p = true;
        }
        //  The upper layer's host path stays <kernel_dir>/upper.
        if (symlink(AGENT_OVERLAY_SCRATCH_DIR "/upper", upper_link) != 0 &&
            errno != EEXIST) {
            bus_error_set(err, status, "cannot create %s: %s", upper_link,
                          strerror(errno));
            goto fail;
        }
    }
    if (bus_mkdirs_mode(work, 0700) != 0 || bus_mkdirs_mode(upper, 0755) != 0) {
        bus_error_set(err, status, "cannot create %s: %s", upper, strerror(errno));
        goto fail;
    }
    //  Mount points and the home dir live in the upper layer.
    static const char *const dirs[] = {AGENT_KERNEL_HOME, AGENT_KERNEL_BIN_DIR,
                                       AGENT_KERNEL_RUN_DIR, NULL};
    for (size_t i = 0; dirs[i]; i++) {
        snprintf(path, sizeof path, "%s%s", upper, dirs[i]);
        if (bus_mkdirs_mode(path, 0755) != 0) {
            bus_error_set(err, status, "cannot create %s: %s", path, strerror(errno));
            goto fail;
        }
    }
    snprintf(path, sizeof path, "%s%s", upper, AGENT_KERNEL_HOME);
    if (chown(path, AGENT_KERNEL_UID, AGENT_KERNEL_GID) != 0) {
        bus_error_set(err, status, "cannot chown %s: %s", path, strerror(errno));
        goto fail;
    }
    return BUS_OK;

fail:
    if (*mounted_p && s_umount(scratch) != 0)
        bus_log_error("cannot unmount %s: %s", scratch, strerror(errno));
    *mounted_p = false;
    return status;
}

//  upper/ and work/ of kernel_dir into upper and work (PATH_MAX each).
//  Returns 0, or INVALID (a path too long, or one overlayfs options cannot
//  carry).
static int
s_layer_paths(
    const char *kernel_dir, bool memory, char *upper, char *work, bus_error_t *err)
{
    if (strlen(kernel_dir) + 32 > PATH_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID, "kernel dir path too long");
    const char *sub = memory ? AGENT_OVERLAY_SCRATCH_DIR "/" : "";
    snprintf(upper, PATH_MAX, "%s/%supper", kernel_dir, sub);
    snprintf(work, PATH_MAX, "%s/%swork", kernel_dir, sub);
    if (!s_option_safe(upper) || !s_option_safe(work))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "overlay paths may not hold ',', ':' or '\\'");
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Make the scratch, upper/ and work/, and mount the overlay of lower on target.

int
agent_overlay_mount_scratch(const char *lower,
                            const char *kernel_dir,
                            const char *target,
                            const char *scratch_type,
                            int64_t scratch_size,
                            bus_error_t *err)
{
    assert(lower);
    assert(kernel_dir);
    assert(target);
    const char *type = s_scratch_type_name(scratch_type);
    if (!type)
        return bus_error_set(err, BUS_STATUS_INVALID, "unknown scratch type %s",
                             scratch_type ? scratch_type : "(none)");
    bool memory = streq(type, AGENT_OVERLAY_SCRATCH_MEMORY);
    if (memory && !s_scratch_size_valid(scratch_size))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "scratch size %" PRId64 " out of range", scratch_size);
    char upper[PATH_MAX], work[PATH_MAX];
    if (s_layer_paths(kernel_dir, memory, upper, work, err) != BUS_OK)
        return err->status;
    if (!s_option_safe(lower))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "overlay paths may not hold ',', ':' or '\\'");
    struct stat st;
    if (stat(lower, &st) != 0 || !S_ISDIR(st.st_mode))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "image rootfs %s is not a directory", lower);
    //  Already mounted (by us, before an agent restart): nothing to do.
    if (agent_overlay_is_mounted(target))
        return BUS_OK;

    bool mounted_scratch = false;
    if (s_layers(kernel_dir, memory, scratch_size, upper, work, &mounted_scratch, err) !=
        BUS_OK)
        return err->status;
    char options[3 * PATH_MAX + 64];
    snprintf(options, sizeof options, "lowerdir=%s,upperdir=%s,workdir=%s", lower, upper,
             work);
    if (mount("overlay", target, "overlay", 0, options) != 0) {
        int status =
            bus_error_set(err, BUS_STATUS_INTERNAL, "cannot mount overlay on %s: %s",
                          target, strerror(errno));
        char scratch[PATH_MAX + 16];
        snprintf(scratch, sizeof scratch, "%s/" AGENT_OVERLAY_SCRATCH_DIR, kernel_dir);
        if (mounted_scratch && s_umount(scratch) != 0)
            bus_log_error("cannot unmount %s: %s", scratch, strerror(errno));
        return status;
    }
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  What of a kernel dir does not depend on its image, made ahead.

int
agent_overlay_prepare(const char *kernel_dir, bus_error_t *err)
{
    assert(kernel_dir);
    bool memory = streq(s_scratch_type, AGENT_OVERLAY_SCRATCH_MEMORY);
    char upper[PATH_MAX], work[PATH_MAX];
    if (s_layer_paths(kernel_dir, memory, upper, work, err) != BUS_OK)
        return err->status;
    if (agent_overlay_mount_side(kernel_dir, err) != BUS_OK)
        return err->status;
    bool mounted_scratch = false;
    if (s_layers(kernel_dir, memory, s_scratch_size, upper, work, &mounted_scratch,
                 err) != BUS_OK) {
        s_umount_side(kernel_dir, AGENT_OVERLAY_RUN_DIR);
        s_umount_side(kernel_dir, AGENT_OVERLAY_LOG_DIR);
        return err->status;
    }
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Mount the kernel's run and log tmpfs.

int
agent_overlay_mount_side(const char *kernel_dir, bus_error_t *err)
{
    assert(kernel_dir);
    char owner[64], link[PATH_MAX];
    snprintf(owner, sizeof owner, "mode=0755,uid=%d,gid=%d", AGENT_KERNEL_UID,
             AGENT_KERNEL_GID);
    if (snprintf(link, sizeof link, "%s/" AGENT_OVERLAY_LOG_FILE, kernel_dir) >=
        (int) sizeof link)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "kernel dir path too long");
    bool run_mounted = false, log_mounted = false;
    if (s_mount_side(kernel_dir, AGENT_OVERLAY_RUN_DIR, AGENT_OVERLAY_RUN_SIZE,
                     AGENT_OVERLAY_RUN_INODES, owner, &run_mounted, err) != 0)
        goto fail;
    if (s_mount_side(kernel_dir, AGENT_OVERLAY_LOG_DIR, AGENT_OVERLAY_LOG_SIZE,
                     AGENT_OVERLAY_LOG_INODES, "mode=0700", &log_mounted, err) != 0)
        goto fail;
    //  Readers keep the old path: <kernel_dir>/container.log.
    if (symlink(AGENT_OVERLAY_LOG_DIR "/" AGENT_OVERLAY_LOG_FILE, link) != 0 &&
        errno != EEXIST) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot create %s: %s", link,
                      strerror(errno));
        goto fail;
    }
    return BUS_OK;

fail:
    if (log_mounted && s_umount_side(kernel_dir, AGENT_OVERLAY_LOG_DIR) != 0)
        bus_log_error("cannot unmount %s/" AGENT_OVERLAY_LOG_DIR ": %s", kernel_dir,
                      strerror(errno));
    if (run_mounted && s_umount_side(kernel_dir, AGENT_OVERLAY_RUN_DIR) != 0)
        bus_log_error("cannot unmount %s/" AGENT_OVERLAY_RUN_DIR ": %s", kernel_dir,
                      strerror(errno));
    return BUS_STATUS_INTERNAL;
}

//  ---------------------------------------------------------------------------
//  Unmount target and its scratch.

int
agent_overlay_unmount(const char *target)
{
    assert(target);
    char fstype[32], super[3 * PATH_MAX + 256], scratch[PATH_MAX];
    for (int i = 0; i < S_UNMOUNT_DEPTH; i++) {
        if (!s_mount_find(target, fstype, sizeof fstype, super, sizeof super))
            return 0;
        bool has_scratch =
            streq(fstype, "overlay") && s_scratch_of(super, scratch, sizeof scratch);
        if (s_umount(target) != 0)
            return -1;
        //  The overlay holds its own reference to the tmpfs: unmounting
        //  this one frees the memory once the overlay is gone too.
        if (has_scratch && s_mount_find(scratch, fstype, sizeof fstype, NULL, 0) &&
            streq(fstype, "tmpfs") && s_umount_all(scratch) != 0)
            return -1;
    }
    if (!agent_overlay_is_mounted(target))
        return 0;
    errno = EBUSY; //  more stacked mounts than S_UNMOUNT_DEPTH
    return -1;
}

//  ---------------------------------------------------------------------------
//  Unmount target, its scratch, whatever is left on <kernel_dir>/scratch,
//  and the side mounts.

int
agent_overlay_unmount_kernel(const char *kernel_dir, const char *target)
{
    assert(kernel_dir);
    assert(target);
    if (agent_overlay_unmount(target) != 0)
        return -1;
    if (s_umount_side(kernel_dir, AGENT_OVERLAY_SCRATCH_DIR) != 0)
        return -1;
    int rc = s_umount_side(kernel_dir, AGENT_OVERLAY_RUN_DIR);
    if (s_umount_side(kernel_dir, AGENT_OVERLAY_LOG_DIR) != 0)
        rc = -1;
    return rc;
}

//  ---------------------------------------------------------------------------
//  True when path is a mount point.

bool
agent_overlay_is_mounted(const char *path)
{
    assert(path);
    //  statx follows symlinks as realpath does in s_mount_find, and sees
    //  the topmost mount on path as mountinfo's last line for it would.
    struct statx stx;
    if (statx(AT_FDCWD, path, AT_NO_AUTOMOUNT, STATX_TYPE, &stx) != 0)
        return errno == ENOENT || errno == ENOTDIR ? false
                                                   : s_mount_find(path, NULL, 0, NULL, 0);
    if (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)
        return (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
    return s_mount_find(path, NULL, 0, NULL, 0); //  a kernel before 5.8
}
