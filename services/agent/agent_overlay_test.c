/*  =========================================================================
    agent_overlay_test - kernel overlays on a memory or a host-dir scratch

    The argument checks need nothing. The mount cases need root (overlayfs
    and tmpfs mounts); without it they are reported as one passing test with
    a note. Each case mounts a kernel overlay over a tiny lower dir in a temp
    dir, writes through the merged dir, unmounts, and checks that no mount is
    left under the temp dir. In memory mode a 4 MiB scratch must stop writes
    with ENOSPC near 4 MiB, and its inode limit must stop a flood of empty
    files; a second kernel must be able to write while the first is full.
    The side mounts (run/, log/) must stop writes at their sizes, keep the
    kernel user's ownership of run/, survive a second mount and go with
    agent_overlay_unmount_kernel. Whether a path is mounted must agree with
    mountinfo through a symlink and with mounts stacked.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <sys/mount.h> //  umount2: a kernel whose overlay went away first
#include <sys/stat.h>  //  lstat
#include "t.h"

#define SMALL    (INT64_C(4) << 20)
#define CHUNK    65536
#define FILL_MAX (INT64_C(64) << 20)

static char s_tmp[] = "/tmp/agent_overlay_test.XXXXXX";
static char s_lower[PATH_MAX];

//  A kernel's paths under the temp dir.
typedef struct {
    char dir[PATH_MAX];
    char target[PATH_MAX + 32];
    char scratch[PATH_MAX + 32];
} kernel_t;

static void
s_kernel(kernel_t *kernel, const char *name)
{
    snprintf(kernel->dir, sizeof kernel->dir, "%s/%s", s_tmp, name);
    snprintf(kernel->target, sizeof kernel->target, "%s/bundle/rootfs", kernel->dir);
    snprintf(kernel->scratch, sizeof kernel->scratch, "%s/scratch", kernel->dir);
    bus_mkdirs_mode(kernel->target, 0755);
}

static bool
s_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

//  Mounts whose mountinfo line mentions the temp dir (mount point or options).
static int
s_mounts_under_tmp(void)
{
    FILE *file = fopen("/proc/self/mountinfo", "r");
    if (!file)
        return -1;
    int count = 0;
    char line[8192];
    while (fgets(line, sizeof line, file))
        if (strstr(line, s_tmp))
            count++;
    fclose(file);
    return count;
}

//  Mounts of type fstype whose mount point is exactly path.
static int
s_mounts_at(const char *path, const char *fstype)
{
    FILE *file = fopen("/proc/self/mountinfo", "r");
    if (!file)
        return -1;
    char wanted[PATH_MAX + 8], type[40];
    snprintf(wanted, sizeof wanted, " %s ", path);
    snprintf(type, sizeof type, " - %s ", fstype);
    int count = 0;
    char line[8192];
    while (fgets(line, sizeof line, file))
        if (strstr(line, wanted) && strstr(line, type))
            count++;
    fclose(file);
    return count;
}

//  Write path in CHUNK pieces until an error or FILL_MAX bytes. Returns the
//  bytes written; *errno_p gets the error (0 when none).
static int64_t
s_fill(const char *path, int *errno_p)
{
    static char chunk[CHUNK];
    memset(chunk, 'x', sizeof chunk);
    *errno_p = 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        *errno_p = errno;
        return 0;
    }
    int64_t total = 0;
    while (total < FILL_MAX) {
        ssize_t n = write(fd, chunk, sizeof chunk);
        if (n < 0) {
            *errno_p = errno;
            break;
        }
        total += n;
    }
    if (close(fd) != 0 && !*errno_p)
        *errno_p = errno;
    return total;
}

static char *
s_read(const char *path)
{
    FILE *file = fopen(path, "r");
    if (!file)
        return NULL;
    char *data = calloc(1, 4096);
    size_t n = fread(data, 1, 4095, file);
    data[n] = '\0';
    fclose(file);
    return data;
}

//  ---------------------------------------------------------------------------

static void
test_set_scratch(void)
{
    T_EQ_INT(agent_overlay_set_scratch("disk", SMALL), -1);
    T_EQ_INT(agent_overlay_set_scratch(NULL, SMALL), -1);
    T_EQ_INT(agent_overlay_set_scratch("memory", 4096), -1);
    T_EQ_INT(agent_overlay_set_scratch("memory", AGENT_OVERLAY_SCRATCH_SIZE_MAX + 1), -1);
    T_EQ_INT(agent_overlay_set_scratch("hostdir", SMALL), 0);
    T_EQ_INT(agent_overlay_set_scratch("memory", SMALL), 0);
}

static void
test_config_defaults(void)
{
    agent_config_t config;
    memset(&config, 0, sizeof config);
    bus_error_t err = {0};
    T_EQ_INT(bus_config_defaults(agent_config_options, &config, &err), 0);
    T_EQ_STR(config.scratch_type, "memory");
    T_EQ_INT(config.scratch_size, AGENT_OVERLAY_SCRATCH_SIZE_DEFAULT_BYTES);
    T_EQ_INT(agent_overlay_set_scratch(config.scratch_type, config.scratch_size), 0);
    bus_config_clear(agent_config_options, &config);
}

static void
test_mount_invalid(void)
{
    bus_error_t err = {0};
    T_EQ_INT(agent_overlay_mount_scratch("/nonexistent", "/nonexistent-k",
                                         "/nonexistent-k/rootfs", "disk", SMALL, &err),
             BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "scratch type");
    T_EQ_INT(agent_overlay_mount_scratch("/nonexistent", "/nonexistent-k",
                                         "/nonexistent-k/rootfs", "memory", 100, &err),
             BUS_STATUS_INVALID);
    T_EQ_INT(agent_overlay_mount_scratch("/a,b", "/nonexistent-k",
                                         "/nonexistent-k/rootfs", "memory", SMALL, &err),
             BUS_STATUS_INVALID);
    T_EQ_INT(agent_overlay_mount_scratch("/nonexistent", "/nonexistent-k",
                                         "/nonexistent-k/rootfs", "hostdir", 0, &err),
             BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "not a directory");
    T_ASSERT(!s_exists("/nonexistent-k"));
    T_EQ_INT(agent_overlay_unmount("/nonexistent/target"), 0);
}

//  ---------------------------------------------------------------------------
//  Root-only cases.

static void
test_memory_enospc(void)
{
    kernel_t k;
    s_kernel(&k, "mem");
    bus_error_t err = {0};
    T_EQ_INT(agent_overlay_mount_scratch(s_lower, k.dir, k.target, "memory", SMALL, &err),
             BUS_OK);
    T_EQ_INT(s_mounts_at(k.scratch, "tmpfs"), 1);
    T_EQ_INT(s_mounts_at(k.target, "overlay"), 1);

    //  The image shows through; the kernel's home is there and is 1000's.
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/etc/hello", k.target);
    char *data = s_read(path);
    T_EQ_STR(data, "hello\n");
    free(data);
    struct stat st;
    snprintf(path, sizeof path, "%s/home/work", k.target);
    T_EQ_INT(stat(path, &st), 0);
    T_EQ_INT(st.st_uid, AGENT_KERNEL_UID);

    //  Filling the root stops at the scratch size.
    snprintf(path, sizeof path, "%s/home/work/fill", k.target);
    int error = 0;
    int64_t written = s_fill(path, &error);
    printf("# memory scratch of %" PRId64 " bytes took %" PRId64 " (%s)\n", SMALL,
           written, strerror(error));
    T_EQ_INT(error, ENOSPC);
    T_ASSERT(written > SMALL / 2);
    T_ASSERT(written <= SMALL);
    //  The write went to the tmpfs, seen on the host through <kernel_dir>/upper.
    snprintf(path, sizeof path, "%s/upper/home/work/fill", k.dir);
    T_EQ_INT(stat(path, &st), 0);
    T_EQ_INT(st.st_size, written);
    snprintf(path, sizeof path, "%s/scratch/upper/home/work/fill", k.dir);
    T_ASSERT(s_exists(path));
    //  The lower dir did not change.
    snprintf(path, sizeof path, "%s/home/work/fill", s_lower);
    T_ASSERT(!s_exists(path));

    //  Another kernel still writes while this one is full.
    kernel_t other;
    s_kernel(&other, "other");
    T_EQ_INT(agent_overlay_mount_scratch(s_lower, other.dir, other.target, "memory",
                                         SMALL, &err),
             BUS_OK);
    snprintf(path, sizeof path, "%s/tmp-file", other.target);
    FILE *file = fopen(path, "w");
    T_ASSERT(file);
    T_ASSERT(fputs("still fine\n", file) >= 0);
    T_EQ_INT(fclose(file), 0);
    T_EQ_INT(agent_overlay_unmount(other.target), 0);

    T_EQ_INT(agent_overlay_unmount(k.target), 0);
    T_EQ_INT(s_mounts_under_tmp(), 0);
    T_ASSERT(!agent_overlay_is_mounted(k.scratch));
    T_EQ_INT(agent_fs_remove_tree(k.dir), 0);
    T_EQ_INT(agent_fs_remove_tree(other.dir), 0);
}

static void
test_memory_inodes(void)
{
    kernel_t k;
    s_kernel(&k, "inodes");
    bus_error_t err = {0};
    T_EQ_INT(agent_overlay_mount_scratch(s_lower, k.dir, k.target, "memory", SMALL, &err),
             BUS_OK);
    char path[PATH_MAX * 2];
    int created = 0, error = 0;
    for (; created < 100000; created++) {
        snprintf(path, sizeof path, "%s/home/work/f%d", k.target, created);
        int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) {
            error = errno;
            break;
        }
        close(fd);
    }
    printf("# memory scratch of %" PRId64 " bytes took %d empty files (%s)\n", SMALL,
           created, strerror(error));
    T_EQ_INT(error, ENOSPC);
    T_ASSERT(created <= AGENT_OVERLAY_SCRATCH_INODES_MIN);
    T_EQ_INT(agent_overlay_unmount(k.target), 0);
    T_EQ_INT(s_mounts_under_tmp(), 0);
    T_EQ_INT(agent_fs_remove_tree(k.dir), 0);
}

//  A second mount of a mounted kernel (a re-adopted one) changes nothing.
static void
test_memory_idempotent(void)
{
    kernel_t k;
    s_kernel(&k, "again");
    bus_error_t err = {0};
    //  Through the process-wide settings, as agent_runc mounts.
    T_EQ_INT(agent_overlay_set_scratch("memory", SMALL), 0);
    T_EQ_INT(agent_overlay_mount(s_lower, k.dir, k.target, &err), BUS_OK);
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/home/work/keep", k.target);
    FILE *file = fopen(path, "w");
    T_ASSERT(file);
    fputs("kept\n", file);
    fclose(file);
    T_EQ_INT(agent_overlay_mount(s_lower, k.dir, k.target, &err), BUS_OK);
    T_EQ_INT(s_mounts_at(k.scratch, "tmpfs"), 1);
    T_EQ_INT(s_mounts_at(k.target, "overlay"), 1);
    char *data = s_read(path);
    T_EQ_STR(data, "kept\n");
    free(data);
    T_EQ_INT(agent_overlay_unmount(k.target), 0);
    T_EQ_INT(s_mounts_under_tmp(), 0);
    //  A second unmount is no error.
    T_EQ_INT(agent_overlay_unmount(k.target), 0);
    T_EQ_INT(agent_overlay_unmount_kernel(k.dir, k.target), 0);
    T_EQ_INT(agent_fs_remove_tree(k.dir), 0);
}

//  The scratch alone is left (the overlay went away some other way).
static void
test_memory_orphan_scratch(void)
{
    kernel_t k;
    s_kernel(&k, "orphan");
    bus_error_t err = {0};
    T_EQ_INT(agent_overlay_mount_scratch(s_lower, k.dir, k.target, "memory", SMALL, &err),
             BUS_OK);
    T_EQ_INT(umount2(k.target, 0), 0);
    T_EQ_INT(s_mounts_at(k.scratch, "tmpfs"), 1);
    //  agent_overlay_unmount only knows the target ...
    T_EQ_INT(agent_overlay_unmount(k.target), 0);
    T_EQ_INT(s_mounts_at(k.scratch, "tmpfs"), 1);
    //  ... agent_overlay_unmount_kernel also knows the kernel dir.
    T_EQ_INT(agent_overlay_unmount_kernel(k.dir, k.target), 0);
    T_EQ_INT(s_mounts_under_tmp(), 0);
    T_EQ_INT(agent_fs_remove_tree(k.dir), 0);
    T_ASSERT(!s_exists(k.dir));
}

//  A failed overlay mount takes its fresh scratch away again.
static void
test_memory_failure_cleans(void)
{
    kernel_t k;
    s_kernel(&k, "fail");
    char target[PATH_MAX + 64];
    snprintf(target, sizeof target, "%s/no-such-dir", k.dir);
    bus_error_t err = {0};
    T_EQ_INT(agent_overlay_mount_scratch(s_lower, k.dir, target, "memory", SMALL, &err),
             BUS_STATUS_INTERNAL);
    T_CONTAINS(err.detail, "cannot mount overlay");
    T_EQ_INT(s_mounts_under_tmp(), 0);
    T_EQ_INT(agent_fs_remove_tree(k.dir), 0);
}

static void
test_hostdir(void)
{
    kernel_t k;
    s_kernel(&k, "host");
    bus_error_t err = {0};
    T_EQ_INT(agent_overlay_mount_scratch(s_lower, k.dir, k.target, "hostdir", 0, &err),
             BUS_OK);
    T_EQ_INT(s_mounts_at(k.target, "overlay"), 1);
    T_ASSERT(!s_exists(k.scratch));
    //  upper/ is a plain dir of the kernel dir, on the temp dir's filesystem.
    char path[PATH_MAX * 2];
    struct stat st;
    snprintf(path, sizeof path, "%s/upper", k.dir);
    T_EQ_INT(lstat(path, &st), 0);
    T_ASSERT(S_ISDIR(st.st_mode));
    //  More than a memory scratch would take goes through.
    snprintf(path, sizeof path, "%s/home/work/fill", k.target);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    T_ASSERT(fd >= 0);
    static char chunk[CHUNK];
    int64_t total = 0;
    while (total < 2 * SMALL && write(fd, chunk, sizeof chunk) == (ssize_t) sizeof chunk)
        total += CHUNK;
    close(fd);
    T_EQ_INT(total, 2 * SMALL);
    snprintf(path, sizeof path, "%s/upper/home/work/fill", k.dir);
    T_EQ_INT(stat(path, &st), 0);
    T_EQ_INT(st.st_size, 2 * SMALL);
    T_EQ_INT(agent_overlay_unmount_kernel(k.dir, k.target), 0);
    T_EQ_INT(s_mounts_under_tmp(), 0);
    T_EQ_INT(agent_fs_remove_tree(k.dir), 0);
}

//  run/ and log/: small, bounded, made once, gone with the kernel.
static void
test_side_mounts(void)
{
    kernel_t k;
    s_kernel(&k, "side");
    bus_error_t err = {0};
    T_EQ_INT(agent_overlay_mount_side(k.dir, &err), BUS_OK);
    char run[PATH_MAX + 8], log_dir[PATH_MAX + 8], link[PATH_MAX + 32];
    char path[PATH_MAX + 32];
    snprintf(run, sizeof run, "%s/" AGENT_OVERLAY_RUN_DIR, k.dir);
    snprintf(log_dir, sizeof log_dir, "%s/" AGENT_OVERLAY_LOG_DIR, k.dir);
    snprintf(link, sizeof link, "%s/" AGENT_OVERLAY_LOG_FILE, k.dir);
    T_EQ_INT(s_mounts_at(run, "tmpfs"), 1);
    T_EQ_INT(s_mounts_at(log_dir, "tmpfs"), 1);
    struct stat st;
    T_EQ_INT(stat(run, &st), 0);
    T_EQ_INT(st.st_uid, AGENT_KERNEL_UID);
    T_EQ_INT(st.st_gid, AGENT_KERNEL_GID);
    T_EQ_INT(st.st_mode & 07777, 0755);
    T_EQ_INT(lstat(link, &st), 0);
    T_ASSERT(S_ISLNK(st.st_mode));
    //  Each takes its size and no more.
    int error = 0;
    snprintf(path, sizeof path, "%s/big", run);
    T_ASSERT(s_fill(path, &error) <= AGENT_OVERLAY_RUN_SIZE);
    T_EQ_INT(error, ENOSPC);
    int64_t logged = s_fill(link, &error); //  through the symlink
    T_ASSERT(logged <= AGENT_OVERLAY_LOG_SIZE && logged > AGENT_OVERLAY_LOG_SIZE / 2);
    T_EQ_INT(error, ENOSPC);
    snprintf(path, sizeof path, "%s/" AGENT_OVERLAY_LOG_FILE, log_dir);
    T_EQ_INT(stat(path, &st), 0);
    T_EQ_INT(st.st_size, logged);
    //  Again (a kernel taken back): the same mounts, what they hold kept.
    T_EQ_INT(agent_overlay_mount_side(k.dir, &err), BUS_OK);
    T_EQ_INT(s_mounts_at(run, "tmpfs"), 1);
    T_EQ_INT(s_mounts_at(log_dir, "tmpfs"), 1);
    T_EQ_INT(stat(link, &st), 0);
    T_EQ_INT(st.st_size, logged);
    //  The kernel's unmount takes them too, with or without an overlay.
    T_EQ_INT(agent_overlay_unmount_kernel(k.dir, k.target), 0);
    T_EQ_INT(s_mounts_under_tmp(), 0);
    T_EQ_INT(agent_fs_remove_tree(k.dir), 0);
    T_ASSERT(!s_exists(k.dir));
}

//  Whether a path is mounted (statx where the kernel tells, else mountinfo)
//  agrees with mountinfo: nothing there, a plain dir, a tmpfs, the same
//  through a symlink, two stacked and one taken off, none left.
static void
test_is_mounted(void)
{
    char dir[PATH_MAX], link[PATH_MAX], missing[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/point", s_tmp);
    snprintf(link, sizeof link, "%s/point-link", s_tmp);
    snprintf(missing, sizeof missing, "%s/missing/deeper", s_tmp);
    T_EQ_INT(bus_mkdirs_mode(dir, 0755), 0);
    T_EQ_INT(symlink(dir, link), 0);
    T_ASSERT(!agent_overlay_is_mounted(missing));
    T_ASSERT(!agent_overlay_is_mounted(dir));
    T_ASSERT(!agent_overlay_is_mounted(link));
    T_ASSERT(agent_overlay_is_mounted("/"));
    T_EQ_INT(mount("tmpfs", dir, "tmpfs", 0, "size=64k"), 0);
    T_EQ_INT(s_mounts_at(dir, "tmpfs"), 1);
    T_ASSERT(agent_overlay_is_mounted(dir));
    T_ASSERT(agent_overlay_is_mounted(link));
    //  A dir inside the mount is not a mount point.
    char inside[PATH_MAX + 8];
    snprintf(inside, sizeof inside, "%s/sub", dir);
    T_EQ_INT(mkdir(inside, 0755), 0);
    T_ASSERT(!agent_overlay_is_mounted(inside));
    T_EQ_INT(mount("tmpfs", dir, "tmpfs", 0, "size=64k"), 0);
    T_EQ_INT(s_mounts_at(dir, "tmpfs"), 2);
    T_EQ_INT(umount2(dir, 0), 0);
    T_ASSERT(agent_overlay_is_mounted(dir));
    T_EQ_INT(umount2(dir, 0), 0);
    T_EQ_INT(s_mounts_at(dir, "tmpfs"), 0);
    T_ASSERT(!agent_overlay_is_mounted(dir));
    T_EQ_INT(unlink(link), 0);
    T_EQ_INT(rmdir(dir), 0);
}

//  ---------------------------------------------------------------------------

int
main(void)
{
    T_RUN(test_set_scratch);
    T_RUN(test_config_defaults);
    T_RUN(test_mount_invalid);

    if (geteuid() != 0) {
        T_RUN_SKIP(test_mount_cases, "not root");
        return T_DONE();
    }
    if (!mkdtemp(s_tmp)) {
        printf("# cannot make %s\n", s_tmp);
        return 1;
    }
    snprintf(s_lower, sizeof s_lower, "%s/lower", s_tmp);
    char hello[PATH_MAX + 16];
    snprintf(hello, sizeof hello, "%s/lower/etc/hello", s_tmp);
    if (bus_mkdirs_mode(hello, 0755) != 0 || rmdir(hello) != 0) {
        printf("# cannot make the lower dir in %s\n", s_tmp);
        return 1;
    }
    FILE *file = fopen(hello, "w");
    if (!file || fputs("hello\n", file) < 0 || fclose(file) != 0) {
        printf("# cannot write %s\n", hello);
        return 1;
    }
    T_RUN(test_memory_enospc);
    T_RUN(test_memory_inodes);
    T_RUN(test_memory_idempotent);
    T_RUN(test_memory_orphan_scratch);
    T_RUN(test_memory_failure_cleans);
    T_RUN(test_hostdir);
    T_RUN(test_side_mounts);
    T_RUN(test_is_mounted);

    //  Whatever a failed case left: no mount, no dir.
    for (int i = 0; i < 4 && s_mounts_under_tmp() > 0; i++) {
        static const char *const names[] = {"mem",    "other", "inodes", "again",
                                            "orphan", "fail",  "host",   NULL};
        for (size_t n = 0; names[n]; n++) {
            kernel_t k;
            s_kernel(&k, names[n]);
            agent_overlay_unmount_kernel(k.dir, k.target);
        }
    }
    int left = s_mounts_under_tmp();
    if (left != 0)
        printf("# %d mounts left under %s\n", left, s_tmp);
    else
        agent_fs_remove_tree(s_tmp);
    return T_DONE();
}
