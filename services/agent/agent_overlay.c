/*  =========================================================================
    agent_overlay - mount and unmount a kernel's overlayfs root

    The mount options are one comma-separated string, so a lower, upper or
    work path holding ',' or ':' (or '\\') cannot be passed safely; such paths
    are refused instead of escaped. Whether a path is mounted is read from
    /proc/self/mountinfo, whose paths escape space, tab, newline and backslash
    as octal.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <sys/mount.h> //  mount, umount2
#include <sys/stat.h>  //  mkdir

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

//  ---------------------------------------------------------------------------
//  Create upper/work and mount the overlay of lower on target.

int
agent_overlay_mount(const char *lower,
                    const char *kernel_dir,
                    const char *target,
                    bus_error_t *err)
{
    assert(lower);
    assert(kernel_dir);
    assert(target);
    char upper[PATH_MAX], work[PATH_MAX], path[PATH_MAX + 64];
    if (strlen(kernel_dir) + 16 > sizeof upper)
        return bus_error_set(err, BUS_STATUS_INVALID, "kernel dir path too long");
    snprintf(upper, sizeof upper, "%s/upper", kernel_dir);
    snprintf(work, sizeof work, "%s/work", kernel_dir);
    if (!s_option_safe(lower) || !s_option_safe(upper) || !s_option_safe(work))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "overlay paths may not hold ',', ':' or '\\'");
    struct stat st;
    if (stat(lower, &st) != 0 || !S_ISDIR(st.st_mode))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "image rootfs %s is not a directory", lower);

    if (bus_mkdirs_mode(work, 0700) != 0 || bus_mkdirs_mode(upper, 0755) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot create %s: %s", upper,
                             strerror(errno));
    //  Mount points and the home dir live in the upper layer.
    static const char *const dirs[] = {AGENT_KERNEL_HOME, AGENT_KERNEL_BIN_DIR,
                                       AGENT_KERNEL_RUN_DIR, NULL};
    for (size_t i = 0; dirs[i]; i++) {
        snprintf(path, sizeof path, "%s%s", upper, dirs[i]);
        if (bus_mkdirs_mode(path, 0755) != 0)
            return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot create %s: %s", path,
                                 strerror(errno));
    }
    snprintf(path, sizeof path, "%s%s", upper, AGENT_KERNEL_HOME);
    if (chown(path, AGENT_KERNEL_UID, AGENT_KERNEL_GID) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot chown %s: %s", path,
                             strerror(errno));

    char options[3 * PATH_MAX + 64];
    snprintf(options, sizeof options, "lowerdir=%s,upperdir=%s,workdir=%s", lower, upper,
             work);
    if (mount("overlay", target, "overlay", 0, options) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot mount overlay on %s: %s",
                             target, strerror(errno));
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Unmount target.

int
agent_overlay_unmount(const char *target)
{
    assert(target);
    if (!agent_overlay_is_mounted(target))
        return 0;
    if (umount2(target, 0) == 0)
        return 0;
    if (errno == EBUSY && umount2(target, MNT_DETACH) == 0)
        return 0;
    return -1;
}

//  ---------------------------------------------------------------------------
//  True when path is a mount point.

bool
agent_overlay_is_mounted(const char *path)
{
    assert(path);
    char wanted[PATH_MAX];
    if (!realpath(path, wanted))
        return false;
    FILE *file = fopen("/proc/self/mountinfo", "r");
    if (!file)
        return false;
    bool found = false;
    char *line = NULL;
    size_t size = 0;
    //  "36 35 98:0 /root /mnt/point rw,... - type source options": field 5
    while (!found && getline(&line, &size, file) > 0) {
        char *save = NULL, *field = strtok_r(line, " ", &save);
        for (int i = 1; field && i < 5; i++)
            field = strtok_r(NULL, " ", &save);
        if (field) {
            s_unescape(field);
            found = streq(field, wanted);
        }
    }
    free(line);
    fclose(file);
    return found;
}
