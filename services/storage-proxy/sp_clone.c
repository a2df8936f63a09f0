/*  =========================================================================
    sp_clone - a folder's tree copied into another folder, off the loop

    A walk down both trees from directory descriptors: each entry of the
    source is stat'ed without following it, and made in the target with
    the *at calls from the target directory's descriptor. A directory is
    made writable for us while it is filled (0700 added) and given its
    mode when done. An entry that vanishes meanwhile is left out; one
    swapped for another type between stat and open is left out too.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <dirent.h>   //  fdopendir, readdir: the source's directories
#include <fcntl.h>    //  openat flags, AT_* flags
#include <sys/stat.h> //  fstatat, mkdirat, fchmod, futimens

//  One copy: where it reports, whose the copy is.
typedef struct {
    uid_t uid; //  the owner of the copy; -1: as created
    gid_t gid;
    sp_jobs_t *jobs;
    uint64_t *bytes_p;
    uint64_t *entries_p;
    bus_error_t *err;
} copy_t;

static int
s_copy_fail(copy_t *copy, int errnum, const char *what, const char *name)
{
    bus_error_set(copy->err,
                  errnum == ENOSPC || errnum == EDQUOT ? BUS_STATUS_UNAVAILABLE
                                                       : BUS_STATUS_INTERNAL,
                  "clone: %s %s: %s", what, name, strerror(errnum));
    return -1;
}

//  Gives name in dir (never through a symlink) to the clone's owner.
static int
s_copy_own(copy_t *copy, int dir, const char *name)
{
    if (copy->uid == (uid_t) -1 && copy->gid == (gid_t) -1)
        return 0;
    if (fchownat(dir, name, copy->uid, copy->gid, AT_SYMLINK_NOFOLLOW) != 0)
        return s_copy_fail(copy, errno, "chown", name);
    return 0;
}

//  Copies the bytes of in to out.
static int
s_copy_bytes(copy_t *copy, int in, int out, const char *name)
{
    bool ranged = true;
    char *buffer = NULL;
    int rc = 0;
    while (!sp_jobs_stopping(copy->jobs)) {
        ssize_t n;
        if (ranged) {
            n = copy_file_range(in, NULL, out, NULL, SP_CLONE_RANGE_STEP, 0);
            if (n < 0 && (errno == EXDEV || errno == EINVAL || errno == ENOSYS ||
                          errno == EOPNOTSUPP)) {
                ranged = false;
                continue;
            }
        } else {
            if (!buffer && !(buffer = malloc(SP_CLONE_BUFFER))) {
                rc = s_copy_fail(copy, ENOMEM, "copy", name);
                break;
            }
            n = read(in, buffer, SP_CLONE_BUFFER);
            for (ssize_t done = 0; n > 0 && done < n;) {
                ssize_t w = write(out, buffer + done, (size_t) (n - done));
                if (w < 0 && errno == EINTR)
                    continue;
                if (w <= 0) {
                    n = -1;
                    break;
                }
                done += w;
            }
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = s_copy_fail(copy, errno, "copy", name);
            break;
        }
        if (n == 0)
            break;
        *copy->bytes_p += (uint64_t) n;
    }
    free(buffer);
    return rc;
}

static int
s_copy_file(copy_t *copy, int src, int dst, const char *name, const struct stat *st)
{
    int in = openat(src, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (in < 0)
        return errno == ENOENT ? 0 : s_copy_fail(copy, errno, "open", name);
    struct stat now;
    if (fstat(in, &now) != 0 || !S_ISREG(now.st_mode)) {
        close(in); //  swapped for something else meanwhile: left out
        return 0;
    }
    int out = openat(dst, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                     st->st_mode & 0777);
    if (out < 0) {
        int saved = errno;
        close(in);
        return s_copy_fail(copy, saved, "create", name);
    }
    int rc = s_copy_bytes(copy, in, out, name);
    if (rc == 0 && (copy->uid != (uid_t) -1 || copy->gid != (gid_t) -1) &&
        fchown(out, copy->uid, copy->gid) != 0)
        rc = s_copy_fail(copy, errno, "chown", name);
    if (rc == 0) {
        struct timespec times[2] = {now.st_atim, now.st_mtim};
        fchmod(out, st->st_mode & 07777 & ~(mode_t) (S_ISUID | S_ISGID));
        futimens(out, times);
    }
    close(in);
    close(out);
    return rc;
}

static int
s_copy_tree(copy_t *copy, int src, int dst, int depth)
{
    if (depth > SP_FS_MAX_DEPTH)
        return bus_error_set(copy->err, BUS_STATUS_INVALID,
                             "clone: deeper than %d levels", SP_FS_MAX_DEPTH),
               -1;
    int fd = dup(src);
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dir) {
        if (fd >= 0)
            close(fd);
        return s_copy_fail(copy, errno, "read", "directory");
    }
    int rc = 0;
    struct dirent *entry;
    while (rc == 0 && (entry = readdir(dir))) {
        const char *name = entry->d_name;
        if (sp_jobs_stopping(copy->jobs)) {
            bus_error_set(copy->err, BUS_STATUS_UNAVAILABLE, "clone interrupted");
            rc = -1;
            break;
        }
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
            (depth == 0 && strcmp(name, SP_FS_STAGE_DIR) == 0))
            continue;
        struct stat st;
        if (fstatat(src, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno != ENOENT)
                rc = s_copy_fail(copy, errno, "stat", name);
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            if (mkdirat(dst, name, (st.st_mode & 0777) | 0700) != 0) {
                rc = s_copy_fail(copy, errno, "mkdir", name);
                break;
            }
            if (s_copy_own(copy, dst, name) != 0) {
                rc = -1;
                break;
            }
            int sub_src =
                openat(src, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            int sub_dst =
                openat(dst, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub_src >= 0 && sub_dst >= 0)
                rc = s_copy_tree(copy, sub_src, sub_dst, depth + 1);
            else if (sub_dst < 0)
                rc = s_copy_fail(copy, errno, "open", name);
            if (sub_src >= 0)
                close(sub_src);
            if (sub_dst >= 0) {
                fchmod(sub_dst, st.st_mode & 0777);
                close(sub_dst);
            }
        } else if (S_ISREG(st.st_mode))
            rc = s_copy_file(copy, src, dst, name, &st);
        else if (S_ISLNK(st.st_mode)) {
            char target[PATH_MAX];
            ssize_t n = readlinkat(src, name, target, sizeof target - 1);
            if (n < 0) {
                if (errno != ENOENT)
                    rc = s_copy_fail(copy, errno, "readlink", name);
                continue;
            }
            target[n] = '\0';
            if (symlinkat(target, dst, name) != 0)
                rc = s_copy_fail(copy, errno, "symlink", name);
            else
                rc = s_copy_own(copy, dst, name);
        } else
            continue; //  fifos, sockets, devices are never copied
        if (rc == 0)
            (*copy->entries_p)++;
    }
    closedir(dir);
    return rc;
}

//  ---------------------------------------------------------------------------

int
sp_clone_tree(const char *src_path,
              const char *dst_path,
              uid_t uid,
              gid_t gid,
              sp_jobs_t *jobs,
              uint64_t *bytes_p,
              uint64_t *entries_p,
              bus_error_t *err)
{
    assert(src_path && dst_path && jobs && bytes_p && entries_p);
    bus_error_t local = {0};
    copy_t state = {uid, gid, jobs, bytes_p, entries_p, err ? err : &local};
    copy_t *copy = &state;
    int rc = -1;
    int src = open(src_path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int dst = open(dst_path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (src < 0 || dst < 0)
        s_copy_fail(copy, errno, "open", "folder");
    else if (s_copy_tree(copy, src, dst, 0) == 0 && fsync(dst) != 0)
        s_copy_fail(copy, errno, "sync", "folder");
    else
        rc = copy->err->status == BUS_OK ? 0 : -1;
    if (src >= 0)
        close(src);
    if (dst >= 0)
        close(dst);
    return rc;
}
