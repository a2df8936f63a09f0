/*  =========================================================================
    bus_beneath - files reached only beneath a directory

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <fcntl.h>         //  O_* flags, openat
#include <linux/openat2.h> //  struct open_how, RESOLVE_*: the confined lookup
#include <sys/syscall.h>   //  SYS_openat2: glibc has no wrapper

#define RESOLVE_IN      (RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)
#define RESOLVE_STRICT  (RESOLVE_IN | RESOLVE_NO_SYMLINKS)
#define OPENAT2_RETRIES 16 //  openat2 says EAGAIN when a rename raced the lookup
#define PROC_FD_LEN     64

static bool s_force_walk; //  tests: take the fallback lookup
static int s_no_openat2;  //  set once openat2 said ENOSYS (atomic access)

int
bus_beneath_check_bytes(const char *bytes, size_t len, size_t max, bus_error_t *err)
{
    if (!bytes && len)
        return bus_error_set(err, BUS_STATUS_INVALID, "no path"), -1;
    if (len > max)
        return bus_error_set(err, BUS_STATUS_INVALID, "path over %zu bytes", max), -1;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char) bytes[i];
        if (c < 0x20 || c == 0x7f)
            return bus_error_set(err, BUS_STATUS_INVALID, "%s character in path",
                                 c ? "control" : "NUL"),
                   -1;
    }
    return 0;
}

static void
s_close(int *fd_p)
{
    if (*fd_p >= 0) {
        int saved = errno;
        close(*fd_p);
        errno = saved;
        *fd_p = -1;
    }
}

//  The fallback: one component at a time, following no symlink (rel has no
//  "..", so nothing but a symlink could lead out). -1 with errno.
static int
s_walk(int rootfd, const char *rel, int flags, mode_t mode)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", *rel ? rel : ".") >= (int) sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int cur = rootfd;
    char *name = buf;
    char *slash;
    while ((slash = strchr(name, '/'))) {
        *slash = '\0';
        if (strcmp(name, "..") == 0) {
            if (cur != rootfd)
                s_close(&cur);
            errno = EXDEV;
            return -1;
        }
        int next = openat(cur, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (cur != rootfd)
            s_close(&cur);
        if (next < 0)
            return -1;
        cur = next;
        name = slash + 1;
    }
    if (strcmp(name, "..") == 0) {
        if (cur != rootfd)
            s_close(&cur);
        errno = EXDEV;
        return -1;
    }
    int fd = openat(cur, name, flags | O_NOFOLLOW | O_CLOEXEC, mode);
    if (cur != rootfd)
        s_close(&cur);
    //  O_PATH | O_NOFOLLOW opens the symlink itself rather than failing
    struct stat st;
    if (fd >= 0 && (flags & O_PATH) && fstat(fd, &st) == 0 && S_ISLNK(st.st_mode)) {
        s_close(&fd);
        errno = ELOOP;
    }
    return fd;
}

int
bus_beneath_open(
    int rootfd, const char *rel, int flags, mode_t mode, bus_beneath_policy_t policy)
{
    assert(rel);
    if (!s_force_walk && !__atomic_load_n(&s_no_openat2, __ATOMIC_RELAXED)) {
        struct open_how how;
        memset(&how, 0, sizeof how);
        how.flags = (uint64_t) (flags | O_CLOEXEC);
        how.mode = (flags & O_CREAT) ? mode : 0;
        how.resolve = policy == BUS_BENEATH_STRICT ? RESOLVE_STRICT : RESOLVE_IN;
        for (int attempt = 0; attempt < OPENAT2_RETRIES; attempt++) {
            long fd = syscall(SYS_openat2, rootfd, *rel ? rel : ".", &how, sizeof how);
            if (fd >= 0)
                return (int) fd;
            if (errno != EAGAIN)
                break;
        }
        if (errno != ENOSYS)
            return -1;
        __atomic_store_n(&s_no_openat2, 1, __ATOMIC_RELAXED);
        bus_log_warning("this kernel has no openat2: confined lookups follow no symlink");
    }
    return s_walk(rootfd, rel, flags, mode);
}

int
bus_beneath_reopen(int pathfd, int flags, bool single_link, struct stat *st)
{
    assert(st);
    if (fstat(pathfd, st) != 0)
        return -1;
    if (!S_ISREG(st->st_mode)) {
        errno = EINVAL;
        return -1;
    }
    if (single_link && st->st_nlink != 1) {
        errno = EMLINK;
        return -1;
    }
    char proc[PROC_FD_LEN];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", pathfd);
    int fd = open(proc, flags | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat again;
    if (fstat(fd, &again) != 0 || again.st_dev != st->st_dev ||
        again.st_ino != st->st_ino) {
        s_close(&fd);
        errno = ESTALE;
        return -1;
    }
    return fd;
}

int
bus_beneath_error(bus_error_t *err,
                  int errnum,
                  const char *what,
                  const char *rel,
                  int escape_status,
                  const char *root_name)
{
    const char *shown = rel && *rel ? rel : ".";
    switch (errnum) {
        case ENOENT:
            bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such file or directory: %s",
                          shown);
            break;
        case EXDEV:
            bus_error_set(err, escape_status, "path leads outside %s: %s", root_name,
                          shown);
            break;
        case ELOOP:
            bus_error_set(err, escape_status, "symlink not followed: %s", shown);
            break;
        case ENOTDIR:
            bus_error_set(err, BUS_STATUS_INVALID, "not a directory: %s", shown);
            break;
        case EISDIR:
            bus_error_set(err, BUS_STATUS_INVALID, "is a directory: %s", shown);
            break;
        case EEXIST:
            bus_error_set(err, BUS_STATUS_CONFLICT, "already exists: %s", shown);
            break;
        case ENOTEMPTY:
            bus_error_set(err, BUS_STATUS_CONFLICT, "directory not empty: %s", shown);
            break;
        case ENAMETOOLONG:
            bus_error_set(err, BUS_STATUS_INVALID, "name too long: %s", shown);
            break;
        case EINVAL:
            bus_error_set(err, BUS_STATUS_INVALID, "%s %s: invalid argument", what,
                          shown);
            break;
        case EACCES:
        case EPERM:
            bus_error_set(err, BUS_STATUS_FORBIDDEN, "permission denied: %s", shown);
            break;
        case ENOSPC:
        case EDQUOT:
            bus_error_set(err, BUS_STATUS_UNAVAILABLE, "no space left for %s", shown);
            break;
        default:
            bus_error_set(err, BUS_STATUS_INTERNAL, "%s %s: %s", what, shown,
                          strerror(errnum));
            break;
    }
    return -1;
}

void
bus_beneath_force_walk(bool on)
{
    s_force_walk = on;
}
