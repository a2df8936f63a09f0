/*  =========================================================================
    sp_fs - file operations confined beneath a virtual folder's root

    A client path is first checked and normalized without touching the file
    system. It is then looked up from a descriptor of the folder root with
    bus_beneath (openat2 and RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS, and
    the one fallback every service has where openat2 is missing), so the
    kernel refuses any step out of the folder, whatever the symlinks, with
    no check-then-use race; the staging directory follows no symlink.
    Mutations resolve the parent that way and act on the last component
    with the *at calls, which never follow it. A recursive delete and the
    usage scan go down with openat(O_NOFOLLOW | O_DIRECTORY) from the
    directory they hold, so a symlink swapped in meanwhile is removed or
    skipped, never entered.

    Nothing is opened for I/O by name: a file is opened O_PATH, checked with
    fstat to be a regular file, and only then reopened (bus_beneath_reopen),
    so a fifo cannot block us and a device node planted by a container
    cannot open a host device.

    A listing reads the directory once and keeps the page's names in a
    max-heap bounded by the page size: names not after the cursor are
    skipped, a name smaller than the heap's largest replaces it. That is
    O(n log page) comparisons and memory for one page; only the page's
    entries are stat'ed, then sorted. 100,000 entries cost one pass of
    getdents and about a thousand fstatat calls per page.

    Expiring abandoned uploads reads the staging directory (reached with
    RESOLVE_NO_SYMLINKS) and, for each old regular file, opens it the same
    way (O_PATH, fstat, reopen) and takes its flock without waiting: an
    upload holds that lock while it writes, so a file being written is
    never removed. Under the lock the age is read again from the file and
    the name checked to still be that file before unlinkat, which never
    follows a symlink either.

    An owner set with sp_fs_set_owner gets each directory made, with
    fchownat(AT_SYMLINK_NOFOLLOW) from the parent descriptor it was made
    in, and each staging file, with fchown on the descriptor held.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <dirent.h>   //  fdopendir, readdir: listings, scans, recursive delete
#include <fcntl.h>    //  O_* and AT_* flags
#include <sys/file.h> //  flock: an upload holds its staging file locked
#include <sys/stat.h> //  fstat, fstatat, mkdirat

#define HEAP_INITIAL 64

struct _sp_fs_t {
    int root;                 //  O_PATH descriptor of the folder root
    int parent;               //  O_PATH descriptor of the directory the root is in
    char stage[NAME_MAX + 1]; //  the staging directory's name in parent
    dev_t dev;
    ino_t ino;
    uid_t uid; //  owner of what is made; (uid_t) -1: as created
    gid_t gid; //  (gid_t) -1: as created
};

//  ---------------------------------------------------------------------------
//  Helpers

//  Sets err for a failed call on rel and returns -1.
static int
s_fail(bus_error_t *err, int errnum, const char *what, const char *rel)
{
    return bus_beneath_error(err, errnum, what, rel, BUS_STATUS_FORBIDDEN, "the folder");
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

//  True when what this object makes is given to someone.
static bool
s_owned(const sp_fs_t *self)
{
    return self->uid != (uid_t) -1 || self->gid != (gid_t) -1;
}

//  Sets err for an entry that could not be given to the owner; -1.
static int
s_own_fail(const sp_fs_t *self, bus_error_t *err, int errnum, const char *rel)
{
    bus_error_set(err, BUS_STATUS_INTERNAL, "cannot give %s to %d:%d: %s",
                  *rel ? rel : ".", self->uid == (uid_t) -1 ? -1 : (int) self->uid,
                  self->gid == (gid_t) -1 ? -1 : (int) self->gid, strerror(errnum));
    return -1;
}

//  Splits normalized rel into its parent (written to dir) and last name.
static const char *
s_split(const char *rel, char dir[SP_FS_PATH_MAX + 1])
{
    const char *slash = strrchr(rel, '/');
    if (!slash) {
        dir[0] = '\0';
        return rel;
    }
    memcpy(dir, rel, (size_t) (slash - rel));
    dir[slash - rel] = '\0';
    return slash + 1;
}

//  Reopens an O_PATH descriptor of a regular file for I/O with flags
//  (bus_beneath_reopen). With single_link, a file with other hard links is
//  refused too.
static int
s_reopen_regular(int pathfd,
                 int flags,
                 bool single_link,
                 struct stat *st,
                 const char *rel,
                 bus_error_t *err)
{
    int fd = bus_beneath_reopen(pathfd, flags, single_link, st);
    if (fd >= 0)
        return fd;
    if (errno == EINVAL)
        bus_error_set(err, BUS_STATUS_INVALID, "not a regular file: %s",
                      *rel ? rel : ".");
    else if (errno == EMLINK)
        bus_error_set(err, BUS_STATUS_FORBIDDEN, "file has other hard links: %s", rel);
    else if (errno == ESTALE)
        bus_error_set(err, BUS_STATUS_INTERNAL, "reopen %s: another file", rel);
    else
        return s_fail(err, errno, "reopen", rel);
    return -1;
}

static void
s_info(const struct stat *st, sp_fs_info_t *info)
{
    if (S_ISREG(st->st_mode))
        info->type = SP_FS_FILE;
    else if (S_ISDIR(st->st_mode))
        info->type = SP_FS_DIR;
    else if (S_ISLNK(st->st_mode))
        info->type = SP_FS_SYMLINK;
    else
        info->type = SP_FS_OTHER;
    info->size = st->st_size > 0 ? (uint64_t) st->st_size : 0;
    info->mode = (uint32_t) (st->st_mode & 07777);
    info->mtime = st->st_mtim;
    info->ctime = st->st_ctim;
}

static bool
s_is_dot(const char *name)
{
    return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

//  ---------------------------------------------------------------------------

sp_fs_t *
sp_fs_new(const char *root, bus_error_t *err)
{
    assert(root);
    int fd = open(root, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (errno == ENOENT)
            bus_error_set(err, BUS_STATUS_NOT_FOUND, "no folder directory");
        else
            bus_error_set(err, BUS_STATUS_INTERNAL, "open folder %s: %s", root,
                          strerror(errno));
        s_close(&fd);
        return NULL;
    }
    sp_fs_t *self = calloc(1, sizeof *self);
    if (!self) {
        close(fd);
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->root = fd;
    self->parent = -1;
    self->dev = st.st_dev;
    self->ino = st.st_ino;
    //  Partial uploads stage beside the folder, never in it: a container
    //  that mounts the folder must not see them (sp_fs.h).
    char stage_path[PATH_MAX];
    if (sp_fs_stage_path(root, stage_path, sizeof stage_path) != 0) {
        sp_fs_destroy(&self);
        bus_error_set(err, BUS_STATUS_INVALID, "folder path too long: %s", root);
        return NULL;
    }
    const char *slash = strrchr(stage_path, '/');
    snprintf(self->stage, sizeof self->stage, "%s", slash + 1);
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%.*s", (int) (slash - stage_path), stage_path);
    self->parent = open(*parent ? parent : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (self->parent < 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "open %s: %s", parent, strerror(errno));
        sp_fs_destroy(&self);
        return NULL;
    }
    self->uid = (uid_t) -1;
    self->gid = (gid_t) -1;
    return self;
}

void
sp_fs_destroy(sp_fs_t **self_p)
{
    assert(self_p);
    sp_fs_t *self = *self_p;
    if (self) {
        s_close(&self->root);
        s_close(&self->parent);
        free(self);
        *self_p = NULL;
    }
}

void
sp_fs_set_owner(sp_fs_t *self, uid_t uid, gid_t gid)
{
    assert(self);
    self->uid = uid;
    self->gid = gid;
}

//  ---------------------------------------------------------------------------

int
sp_fs_check_path(const char *path,
                 size_t len,
                 char out[SP_FS_PATH_MAX + 1],
                 bus_error_t *err)
{
    assert(out);
    out[0] = '\0';
    if (bus_beneath_check_bytes(path, len, SP_FS_PATH_MAX, err) != 0)
        return -1;
    if (len && path[0] == '/')
        return bus_error_set(err, BUS_STATUS_INVALID, "absolute path"), -1;
    size_t used = 0;
    size_t start = 0;
    while (start < len) {
        const char *slash = memchr(path + start, '/', len - start);
        size_t end = slash ? (size_t) (slash - path) : len;
        size_t n = end - start;
        const char *name = path + start;
        start = slash ? end + 1 : len;
        if (n == 0 || (slash && start == len))
            return bus_error_set(err, BUS_STATUS_INVALID, "empty component in path"), -1;
        if (n == 1 && name[0] == '.')
            continue;
        if (n == 2 && name[0] == '.' && name[1] == '.')
            return bus_error_set(err, BUS_STATUS_INVALID, "'..' in path"), -1;
        if (n > SP_FS_NAME_MAX)
            return bus_error_set(err, BUS_STATUS_INVALID, "name over %d bytes in path",
                                 SP_FS_NAME_MAX),
                   -1;
        if (used == 0 && n == strlen(SP_FS_STAGE_DIR) &&
            memcmp(name, SP_FS_STAGE_DIR, n) == 0)
            return bus_error_set(err, BUS_STATUS_INVALID, "reserved name in path: %s",
                                 SP_FS_STAGE_DIR),
                   -1;
        if (used)
            out[used++] = '/';
        memcpy(out + used, name, n);
        used += n;
    }
    out[used] = '\0'; //  never longer than path
    return 0;
}

//  ---------------------------------------------------------------------------

int
sp_fs_stat(
    sp_fs_t *self, const char *path, size_t len, sp_fs_info_t *info, bus_error_t *err)
{
    assert(self && info);
    memset(info, 0, sizeof *info);
    char rel[SP_FS_PATH_MAX + 1];
    if (sp_fs_check_path(path, len, rel, err) != 0)
        return -1;
    int fd = bus_beneath_open(self->root, rel, O_PATH | O_NOFOLLOW, 0, BUS_BENEATH_IN);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        s_fail(err, errno, "stat", rel);
        s_close(&fd);
        return -1;
    }
    close(fd);
    s_info(&st, info);
    return 0;
}

//  ---------------------------------------------------------------------------
//  Listing

//  Max-heap of names: heap[0] is the largest.
static void
s_swap(char **heap, size_t a, size_t b)
{
    char *name = heap[a];
    heap[a] = heap[b];
    heap[b] = name;
}

static void
s_sift_up(char **heap, size_t i)
{
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (strcmp(heap[parent], heap[i]) >= 0)
            break;
        s_swap(heap, parent, i);
        i = parent;
    }
}

static void
s_sift_down(char **heap, size_t count, size_t i)
{
    for (;;) {
        size_t left = 2 * i + 1, right = left + 1, top = i;
        if (left < count && strcmp(heap[left], heap[top]) > 0)
            top = left;
        if (right < count && strcmp(heap[right], heap[top]) > 0)
            top = right;
        if (top == i)
            return;
        s_swap(heap, i, top);
        i = top;
    }
}

static int
s_compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

//  Reads dir once: the limit smallest names after cursor into *heap_p
//  (sorted on return), with counts. -1 with errno.
static int
s_select_names(DIR *dir,
               const char *cursor,
               bool hide_stage,
               size_t limit,
               char ***heap_p,
               size_t *count_p,
               size_t *total_p,
               size_t *matched_p)
{
    char **heap = NULL;
    size_t count = 0, cap = 0, total = 0, matched = 0;
    struct dirent *de;
    for (;;) {
        errno = 0;
        if (!(de = readdir(dir)))
            break;
        const char *name = de->d_name;
        if (s_is_dot(name) || (hide_stage && strcmp(name, SP_FS_STAGE_DIR) == 0))
            continue;
        total++;
        if (*cursor && strcmp(name, cursor) <= 0)
            continue;
        matched++;
        if (count == limit) {
            if (strcmp(name, heap[0]) >= 0)
                continue;
            char *copy = strdup(name);
            if (!copy)
                goto nomem;
            free(heap[0]);
            heap[0] = copy;
            s_sift_down(heap, count, 0);
            continue;
        }
        if (count == cap) {
            size_t grown = cap ? cap * 2 : HEAP_INITIAL;
            if (grown > limit)
                grown = limit;
            char **bigger = realloc(heap, grown * sizeof *heap);
            if (!bigger)
                goto nomem;
            heap = bigger;
            cap = grown;
        }
        if (!(heap[count] = strdup(name)))
            goto nomem;
        s_sift_up(heap, count++);
    }
    if (errno != 0)
        goto fail;
    if (count)
        qsort(heap, count, sizeof *heap, s_compare_names);
    *heap_p = heap;
    *count_p = count;
    *total_p = total;
    *matched_p = matched;
    return 0;
nomem:
    errno = ENOMEM;
fail:;
    int saved = errno;
    for (size_t i = 0; i < count; i++)
        free(heap[i]);
    free(heap);
    errno = saved;
    return -1;
}

int
sp_fs_list(sp_fs_t *self,
           const char *path,
           size_t len,
           const char *after,
           size_t after_len,
           size_t limit,
           sp_fs_page_t **page_p,
           bus_error_t *err)
{
    assert(self && page_p);
    *page_p = NULL;
    char rel[SP_FS_PATH_MAX + 1];
    if (sp_fs_check_path(path, len, rel, err) != 0)
        return -1;
    char cursor[SP_FS_NAME_MAX + 1];
    if (after_len > SP_FS_NAME_MAX ||
        (after_len && (!after || memchr(after, 0, after_len))))
        return bus_error_set(err, BUS_STATUS_INVALID, "bad listing cursor"), -1;
    if (after_len)
        memcpy(cursor, after, after_len);
    cursor[after_len] = '\0';
    if (limit == 0)
        limit = SP_FS_LIST_DEFAULT;
    if (limit > SP_FS_LIST_MAX)
        limit = SP_FS_LIST_MAX;

    //  O_DIRECTORY fails before anything is opened when it is not one
    int fd = bus_beneath_open(self->root, rel, O_RDONLY | O_DIRECTORY, 0, BUS_BENEATH_IN);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        s_fail(err, errno, "open", rel);
        s_close(&fd);
        return -1;
    }
    bool is_root = st.st_dev == self->dev && st.st_ino == self->ino;
    DIR *dir = fdopendir(fd);
    if (!dir) {
        s_fail(err, errno, "open", rel);
        close(fd);
        return -1;
    }
    char **names = NULL;
    size_t count = 0, total = 0, matched = 0;
    size_t i = 0; //  names before i are the page's or freed
    sp_fs_page_t *page = NULL;
    if (s_select_names(dir, cursor, is_root, limit, &names, &count, &total, &matched) !=
        0) {
        s_fail(err, errno, "read directory", rel);
        goto fail;
    }
    page = calloc(1, sizeof *page);
    if (!page || (count && !(page->entries = calloc(count, sizeof *page->entries)))) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory listing %s", rel);
        goto fail;
    }
    page->total = total;
    page->more = matched > count;
    for (; i < count; i++) {
        if (fstatat(dirfd(dir), names[i], &st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno == ENOENT) {
                free(names[i]); //  gone meanwhile
                continue;
            }
            s_fail(err, errno, "stat", names[i]);
            goto fail;
        }
        sp_fs_entry_t *entry = &page->entries[page->count++];
        entry->name = names[i];
        s_info(&st, &entry->info);
    }
    free(names);
    closedir(dir);
    *page_p = page;
    return 0;
fail:
    if (page) {
        for (size_t k = i; k < count; k++)
            free(names[k]);
        sp_fs_page_destroy(&page);
    } else {
        for (size_t k = 0; k < count; k++)
            free(names[k]);
    }
    free(names);
    closedir(dir);
    return -1;
}

void
sp_fs_page_destroy(sp_fs_page_t **self_p)
{
    assert(self_p);
    sp_fs_page_t *self = *self_p;
    if (self) {
        for (size_t i = 0; i < self->count; i++)
            free(self->entries[i].name);
        free(self->entries);
        free(self);
        *self_p = NULL;
    }
}

//  ---------------------------------------------------------------------------
//  mkdir

//  Makes one directory, rel's last component, in its existing parent.
static int
s_mkdir_one(sp_fs_t *self, const char *rel, bool exist_ok, bus_error_t *err)
{
    char dir[SP_FS_PATH_MAX + 1];
    const char *name = s_split(rel, dir);
    int parent =
        bus_beneath_open(self->root, dir, O_PATH | O_DIRECTORY, 0, BUS_BENEATH_IN);
    if (parent < 0)
        return s_fail(err, errno, "open", dir);
    int rc = 0;
    if (mkdirat(parent, name, SP_FS_DIR_MODE) == 0) {
        //  The new directory itself: a symlink swapped in would be changed,
        //  never its target.
        if (s_owned(self) &&
            fchownat(parent, name, self->uid, self->gid, AT_SYMLINK_NOFOLLOW) != 0) {
            rc = s_own_fail(self, err, errno, rel);
            unlinkat(parent, name, AT_REMOVEDIR);
        }
    } else {
        if (errno != EEXIST)
            rc = s_fail(err, errno, "mkdir", rel);
        else {
            //  a directory, or a symlink to one that stays beneath the root
            int fd = bus_beneath_open(self->root, rel, O_PATH | O_DIRECTORY, 0,
                                      BUS_BENEATH_IN);
            if (fd < 0 && errno == ENOTDIR) {
                bus_error_set(err, BUS_STATUS_CONFLICT,
                              "exists and is not a directory: %s", rel);
                rc = -1;
            } else if (fd < 0)
                rc = s_fail(err, errno, "open", rel);
            else if (!exist_ok)
                rc = s_fail(err, EEXIST, "mkdir", rel);
            s_close(&fd);
        }
    }
    close(parent);
    return rc;
}

//  mkdir on a normalized path.
static int
s_mkdir(sp_fs_t *self, const char *rel, unsigned flags, bus_error_t *err)
{
    bool exist_ok = (flags & SP_FS_MKDIR_EXIST_OK) != 0;
    if (!*rel)
        return exist_ok ? 0 : s_fail(err, EEXIST, "mkdir", rel);
    if (flags & SP_FS_MKDIR_PARENTS) {
        char prefix[SP_FS_PATH_MAX + 1];
        for (const char *slash = strchr(rel, '/'); slash;
             slash = strchr(slash + 1, '/')) {
            memcpy(prefix, rel, (size_t) (slash - rel));
            prefix[slash - rel] = '\0';
            if (s_mkdir_one(self, prefix, true, err) != 0)
                return -1;
        }
    }
    return s_mkdir_one(self, rel, exist_ok, err);
}

int
sp_fs_mkdir(sp_fs_t *self, const char *path, size_t len, unsigned flags, bus_error_t *err)
{
    assert(self);
    char rel[SP_FS_PATH_MAX + 1];
    if (sp_fs_check_path(path, len, rel, err) != 0)
        return -1;
    return s_mkdir(self, rel, flags, err);
}

//  ---------------------------------------------------------------------------
//  symlink

int
sp_fs_symlink(
    sp_fs_t *self, const char *target, const char *path, size_t len, bus_error_t *err)
{
    assert(self && target);
    char rel[SP_FS_PATH_MAX + 1];
    if (sp_fs_check_path(path, len, rel, err) != 0)
        return -1;
    if (!*rel)
        return bus_error_set(err, BUS_STATUS_INVALID, "no link name in path"), -1;
    char dir[SP_FS_PATH_MAX + 1];
    const char *name = s_split(rel, dir);
    int parent =
        bus_beneath_open(self->root, dir, O_PATH | O_DIRECTORY, 0, BUS_BENEATH_IN);
    if (parent < 0)
        return s_fail(err, errno, "open", dir);
    int rc = 0;
    if (symlinkat(target, parent, name) != 0) {
        if (errno == EEXIST) {
            bus_error_set(err, BUS_STATUS_CONFLICT, "already exists: %s", rel);
            rc = -1;
        } else
            rc = s_fail(err, errno, "symlink", rel);
    } else if (s_owned(self) &&
               fchownat(parent, name, self->uid, self->gid, AT_SYMLINK_NOFOLLOW) != 0) {
        rc = s_own_fail(self, err, errno, rel);
        unlinkat(parent, name, 0);
    }
    close(parent);
    return rc;
}

//  ---------------------------------------------------------------------------

int
sp_fs_rename(sp_fs_t *self,
             const char *src,
             size_t src_len,
             const char *dst,
             size_t dst_len,
             bus_error_t *err)
{
    assert(self);
    char src_rel[SP_FS_PATH_MAX + 1], dst_rel[SP_FS_PATH_MAX + 1];
    if (sp_fs_check_path(src, src_len, src_rel, err) != 0 ||
        sp_fs_check_path(dst, dst_len, dst_rel, err) != 0)
        return -1;
    if (!*src_rel || !*dst_rel)
        return bus_error_set(err, BUS_STATUS_INVALID, "cannot rename the folder root"),
               -1;
    char src_dir[SP_FS_PATH_MAX + 1], dst_dir[SP_FS_PATH_MAX + 1];
    const char *src_name = s_split(src_rel, src_dir);
    const char *dst_name = s_split(dst_rel, dst_dir);
    int rc = -1;
    int dst_fd = -1;
    int src_fd =
        bus_beneath_open(self->root, src_dir, O_PATH | O_DIRECTORY, 0, BUS_BENEATH_IN);
    if (src_fd < 0) {
        s_fail(err, errno, "open", src_dir);
        goto done;
    }
    dst_fd =
        bus_beneath_open(self->root, dst_dir, O_PATH | O_DIRECTORY, 0, BUS_BENEATH_IN);
    if (dst_fd < 0) {
        s_fail(err, errno, "open", dst_dir);
        goto done;
    }
    if (renameat2(src_fd, src_name, dst_fd, dst_name, RENAME_NOREPLACE) != 0) {
        int saved = errno;
        struct stat st;
        //  say which side is missing
        if (saved == ENOENT && fstatat(src_fd, src_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
            s_fail(err, saved, "rename", dst_rel);
        else
            s_fail(err, saved, "rename", saved == EEXIST ? dst_rel : src_rel);
        goto done;
    }
    rc = 0;
done:
    s_close(&src_fd);
    s_close(&dst_fd);
    return rc;
}

int
sp_fs_move(sp_fs_t *self,
           const char *src,
           size_t src_len,
           const char *dst,
           size_t dst_len,
           bus_error_t *err)
{
    assert(self);
    //  "dir1/" is dir1, as Python's paths read it; "/" alone stays absolute.
    while (dst_len > 1 && dst[dst_len - 1] == '/')
        dst_len--;
    char src_rel[SP_FS_PATH_MAX + 1], dst_rel[SP_FS_PATH_MAX + 1];
    if (sp_fs_check_path(src, src_len, src_rel, err) != 0 ||
        sp_fs_check_path(dst, dst_len, dst_rel, err) != 0)
        return -1;
    if (!*src_rel)
        return bus_error_set(err, BUS_STATUS_INVALID, "cannot move the folder root"), -1;
    int dir_fd = bus_beneath_open(self->root, dst_rel, O_PATH | O_DIRECTORY | O_NOFOLLOW,
                                  0, BUS_BENEATH_IN);
    if (dir_fd < 0)
        return sp_fs_rename(self, src_rel, strlen(src_rel), dst_rel, strlen(dst_rel),
                            err);
    s_close(&dir_fd);
    char dir[SP_FS_PATH_MAX + 1], into[SP_FS_PATH_MAX + 2];
    const char *name = s_split(src_rel, dir);
    int n = snprintf(into, sizeof into, "%s%s%s", dst_rel, *dst_rel ? "/" : "", name);
    if (n < 0 || (size_t) n > SP_FS_PATH_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID, "path over %d bytes",
                             SP_FS_PATH_MAX),
               -1;
    return sp_fs_rename(self, src_rel, strlen(src_rel), into, (size_t) n, err);
}

//  ---------------------------------------------------------------------------
//  delete

//  Removes name in parent and everything below it, never following a
//  symlink: a directory is entered only through openat(O_NOFOLLOW) from the
//  one that holds it.
static int
s_remove_tree(int parent, const char *name, int depth, const char *rel, bus_error_t *err)
{
    if (depth >= SP_FS_MAX_DEPTH) {
        bus_error_set(err, BUS_STATUS_INVALID, "directory tree too deep: %s", rel);
        return -1;
    }
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOTDIR || errno == ELOOP) //  not (or no longer) a directory
            return unlinkat(parent, name, 0) == 0 || errno == ENOENT
                       ? 0
                       : s_fail(err, errno, "delete", rel);
        return errno == ENOENT ? 0 : s_fail(err, errno, "open", rel);
    }
    DIR *dir = fdopendir(fd);
    if (!dir) {
        close(fd);
        return s_fail(err, errno, "open", rel);
    }
    int rc = 0;
    struct dirent *de;
    while (rc == 0) {
        errno = 0;
        if (!(de = readdir(dir))) {
            if (errno != 0)
                rc = s_fail(err, errno, "read directory", rel);
            break;
        }
        if (s_is_dot(de->d_name))
            continue;
        if (de->d_type == DT_DIR || de->d_type == DT_UNKNOWN)
            rc = s_remove_tree(dirfd(dir), de->d_name, depth + 1, rel, err);
        else if (unlinkat(dirfd(dir), de->d_name, 0) != 0 && errno != ENOENT) {
            if (errno == EISDIR) //  became a directory meanwhile
                rc = s_remove_tree(dirfd(dir), de->d_name, depth + 1, rel, err);
            else
                rc = s_fail(err, errno, "delete", rel);
        }
    }
    closedir(dir);
    if (rc == 0 && unlinkat(parent, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
        rc = s_fail(err, errno, "delete", rel);
    return rc;
}

int
sp_fs_delete(
    sp_fs_t *self, const char *path, size_t len, bool recursive, bus_error_t *err)
{
    assert(self);
    char rel[SP_FS_PATH_MAX + 1];
    if (sp_fs_check_path(path, len, rel, err) != 0)
        return -1;
    if (!*rel)
        return bus_error_set(err, BUS_STATUS_INVALID, "cannot delete the folder root"),
               -1;
    char dir[SP_FS_PATH_MAX + 1];
    const char *name = s_split(rel, dir);
    int parent =
        bus_beneath_open(self->root, dir, O_PATH | O_DIRECTORY, 0, BUS_BENEATH_IN);
    if (parent < 0)
        return s_fail(err, errno, "open", dir);
    int rc = 0;
    struct stat st;
    if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        rc = s_fail(err, errno, "stat", rel);
    else if (!S_ISDIR(st.st_mode)) {
        if (unlinkat(parent, name, 0) != 0)
            rc = s_fail(err, errno, "delete", rel);
    } else if (recursive)
        rc = s_remove_tree(parent, name, 0, rel, err);
    else if (unlinkat(parent, name, AT_REMOVEDIR) != 0)
        rc = s_fail(err, errno, "delete", rel);
    close(parent);
    return rc;
}

//  ---------------------------------------------------------------------------

int
sp_fs_open_read(
    sp_fs_t *self, const char *path, size_t len, uint64_t *size_p, bus_error_t *err)
{
    assert(self && size_p);
    *size_p = 0;
    char rel[SP_FS_PATH_MAX + 1];
    if (sp_fs_check_path(path, len, rel, err) != 0)
        return -1;
    int pathfd = bus_beneath_open(self->root, rel, O_PATH, 0, BUS_BENEATH_IN);
    if (pathfd < 0)
        return s_fail(err, errno, "open", rel);
    struct stat st;
    int fd = s_reopen_regular(pathfd, O_RDONLY, false, &st, rel, err);
    close(pathfd);
    if (fd >= 0)
        *size_p = (uint64_t) st.st_size;
    return fd;
}

//  ---------------------------------------------------------------------------

//  Adds up directory fd (which it closes) and everything below it.
static int
s_usage_dir(int fd,
            int depth,
            uint64_t *bytes,
            uint64_t *entries,
            const char *rel,
            bus_error_t *err)
{
    DIR *dir = fdopendir(fd);
    if (!dir) {
        close(fd);
        return s_fail(err, errno, "open", rel);
    }
    int rc = 0;
    struct dirent *de;
    while (rc == 0) {
        errno = 0;
        if (!(de = readdir(dir))) {
            if (errno != 0)
                rc = s_fail(err, errno, "read directory", rel);
            break;
        }
        if (s_is_dot(de->d_name))
            continue;
        struct stat st;
        if (fstatat(dirfd(dir), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno != ENOENT)
                rc = s_fail(err, errno, "stat", rel);
            continue;
        }
        (*entries)++;
        if (S_ISREG(st.st_mode))
            *bytes += (uint64_t) st.st_size;
        else if (S_ISDIR(st.st_mode)) {
            if (depth + 1 >= SP_FS_MAX_DEPTH) {
                bus_error_set(err, BUS_STATUS_INVALID, "directory tree too deep: %s",
                              rel);
                rc = -1;
                break;
            }
            int child = openat(dirfd(dir), de->d_name,
                               O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (child >= 0)
                rc = s_usage_dir(child, depth + 1, bytes, entries, rel, err);
            else if (errno != ENOENT && errno != ENOTDIR && errno != ELOOP)
                rc = s_fail(err, errno, "open", rel);
        }
    }
    closedir(dir);
    return rc;
}

static int s_stage_open(sp_fs_t *self, int flags, bool create);

int
sp_fs_usage(sp_fs_t *self, uint64_t *bytes_p, uint64_t *entries_p, bus_error_t *err)
{
    assert(self && bytes_p && entries_p);
    *bytes_p = 0;
    *entries_p = 0;
    int fd = bus_beneath_open(self->root, "", O_RDONLY | O_DIRECTORY, 0, BUS_BENEATH_IN);
    if (fd < 0)
        return s_fail(err, errno, "open", "");
    uint64_t bytes = 0, entries = 0;
    if (s_usage_dir(fd, 0, &bytes, &entries, ".", err) != 0)
        return -1;
    //  Partial uploads take the folder's space (its quota charged them),
    //  but are no entries of it.
    uint64_t staged_entries = 0;
    int stage = s_stage_open(self, O_RDONLY, false);
    if (stage >= 0 &&
        s_usage_dir(stage, 0, &bytes, &staged_entries, SP_FS_STAGE_DIR, err) != 0)
        return -1;
    *bytes_p = bytes;
    *entries_p = entries;
    return 0;
}

//  ---------------------------------------------------------------------------
//  Staging

static bool
s_stage_name_ok(const char *name)
{
    size_t len = name ? strlen(name) : 0;
    if (len == 0 || len > SP_FS_NAME_MAX || s_is_dot(name))
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
              (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
            return false;
    }
    return true;
}

int
sp_fs_stage_path(const char *root, char *out, size_t size)
{
    size_t len = strlen(root);
    while (len > 1 && root[len - 1] == '/')
        len--;
    const char *base = root + len;
    while (base > root && base[-1] != '/')
        base--;
    int n = snprintf(out, size, "%.*s%s%.*s", (int) (base - root), root,
                     SP_FS_STAGE_PREFIX, (int) (root + len - base), base);
    return n < 0 || (size_t) n >= size || root + len == base ||
                   strlen(SP_FS_STAGE_PREFIX) + (size_t) (root + len - base) > NAME_MAX
               ? -1
               : 0;
}

//  The staging directory with flags (O_PATH or O_RDONLY, and O_DIRECTORY);
//  made when missing and create is set. It is ours alone (the volume's
//  layout, beside the folder), so no symlink is followed to it or in it.
//  -1 with errno.
static int
s_stage_open(sp_fs_t *self, int flags, bool create)
{
    int fd =
        openat(self->parent, self->stage, flags | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 && errno == ENOTDIR &&
        fstatat(self->parent, self->stage, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISLNK(st.st_mode))
        errno = ELOOP; //  a symlink planted in its place: not followed
    if (fd >= 0 || errno != ENOENT || !create)
        return fd;
    if (mkdirat(self->parent, self->stage, SP_FS_STAGE_DIR_MODE) != 0 && errno != EEXIST)
        return -1;
    return openat(self->parent, self->stage,
                  flags | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

static int
s_stage_dir(sp_fs_t *self, bool create)
{
    return s_stage_open(self, O_PATH, create);
}

int
sp_fs_stage_open(sp_fs_t *self, const char *name, bus_error_t *err)
{
    assert(self);
    if (!s_stage_name_ok(name))
        return bus_error_set(err, BUS_STATUS_INVALID, "bad staging file name"), -1;
    int dir = s_stage_dir(self, true);
    if (dir < 0)
        return s_fail(err, errno, "open", SP_FS_STAGE_DIR);
    int fd = bus_beneath_open(dir, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW,
                              SP_FS_FILE_MODE, BUS_BENEATH_STRICT);
    bool made = fd >= 0;
    if (fd < 0 && errno == EEXIST) {
        //  resuming: whatever is there must be our plain file
        int pathfd =
            bus_beneath_open(dir, name, O_PATH | O_NOFOLLOW, 0, BUS_BENEATH_STRICT);
        if (pathfd >= 0) {
            struct stat st;
            fd = s_reopen_regular(pathfd, O_RDWR, true, &st, name, err);
            close(pathfd);
            if (fd < 0) {
                close(dir);
                return -1;
            }
        }
    }
    if (fd < 0)
        s_fail(err, errno, "open staging file", name);
    //  Given away on the descriptor we hold, so the committed file is the
    //  owner's (a resumed one made before an owner was set too).
    else if (s_owned(self) && fchown(fd, self->uid, self->gid) != 0) {
        s_own_fail(self, err, errno, name);
        close(fd);
        fd = -1;
        if (made)
            unlinkat(dir, name, 0);
    }
    close(dir);
    return fd;
}

int
sp_fs_stage_commit(
    sp_fs_t *self, const char *name, const char *path, size_t len, bus_error_t *err)
{
    assert(self);
    if (!s_stage_name_ok(name))
        return bus_error_set(err, BUS_STATUS_INVALID, "bad staging file name"), -1;
    char rel[SP_FS_PATH_MAX + 1];
    if (sp_fs_check_path(path, len, rel, err) != 0)
        return -1;
    if (!*rel)
        return bus_error_set(err, BUS_STATUS_INVALID, "no file name in path"), -1;
    char dir[SP_FS_PATH_MAX + 1];
    const char *base = s_split(rel, dir);
    if (*dir && s_mkdir(self, dir, SP_FS_MKDIR_PARENTS | SP_FS_MKDIR_EXIST_OK, err) != 0)
        return -1;
    int rc = -1;
    int stage = -1;
    int parent =
        bus_beneath_open(self->root, dir, O_RDONLY | O_DIRECTORY, 0, BUS_BENEATH_IN);
    if (parent < 0) {
        s_fail(err, errno, "open", dir);
        goto done;
    }
    stage = s_stage_dir(self, false);
    if (stage < 0) {
        s_fail(err, errno, "open", SP_FS_STAGE_DIR);
        goto done;
    }
    if (renameat2(stage, name, parent, base, 0) != 0) {
        s_fail(err, errno, "rename", errno == ENOENT ? name : rel);
        goto done;
    }
    if (fsync(parent) != 0) {
        s_fail(err, errno, "sync", *dir ? dir : ".");
        goto done;
    }
    rc = 0;
done:
    s_close(&stage);
    s_close(&parent);
    return rc;
}

int
sp_fs_stage_remove(sp_fs_t *self, const char *name, bus_error_t *err)
{
    assert(self);
    if (!s_stage_name_ok(name))
        return bus_error_set(err, BUS_STATUS_INVALID, "bad staging file name"), -1;
    int dir = s_stage_dir(self, false);
    if (dir < 0)
        return errno == ENOENT ? 0 : s_fail(err, errno, "open", SP_FS_STAGE_DIR);
    int rc = 0;
    if (unlinkat(dir, name, 0) != 0 && errno != ENOENT)
        rc = s_fail(err, errno, "delete staging file", name);
    close(dir);
    return rc;
}

//  Removes staging file name in dir (a descriptor of the staging directory)
//  if it is a regular file last written before before that no upload holds
//  (sets *st). 1 when removed, 0 when left, -1 with err.
static int
s_stage_expire_one(
    int dir, const char *name, time_t before, struct stat *st, bus_error_t *err)
{
    //  Most entries are young: lstat first, nothing is opened for them.
    if (fstatat(dir, name, st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT ? 0 : s_fail(err, errno, "stat staging file", name);
    if (!S_ISREG(st->st_mode) || st->st_mtim.tv_sec >= before)
        return 0;
    int pathfd = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (pathfd < 0)
        return errno == ENOENT ? 0 : s_fail(err, errno, "open staging file", name);
    bus_error_t open_err = {0};
    int fd = s_reopen_regular(pathfd, O_RDONLY, false, st, name, &open_err);
    close(pathfd);
    if (fd < 0) {
        //  swapped for a symlink or a special file meanwhile: left alone
        if (open_err.status == BUS_STATUS_INVALID)
            return 0;
        if (err)
            *err = open_err;
        return -1;
    }
    int rc = 0;
    struct stat named;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK) //  else an upload is writing it
            rc = s_fail(err, errno, "lock staging file", name);
    } else if (fstat(fd, st) != 0)
        rc = s_fail(err, errno, "stat staging file", name);
    else if (st->st_mtim.tv_sec < before &&
             fstatat(dir, name, &named, AT_SYMLINK_NOFOLLOW) == 0 &&
             named.st_dev == st->st_dev && named.st_ino == st->st_ino) {
        if (unlinkat(dir, name, 0) == 0)
            rc = 1;
        else if (errno != ENOENT)
            rc = s_fail(err, errno, "delete staging file", name);
    }
    close(fd); //  drops the lock
    return rc;
}

int
sp_fs_stage_expire(
    sp_fs_t *self, time_t before, sp_fs_expired_fn *fn, void *arg, bus_error_t *err)
{
    assert(self);
    int fd = s_stage_open(self, O_RDONLY, false);
    if (fd < 0)
        return errno == ENOENT ? 0 : s_fail(err, errno, "open", SP_FS_STAGE_DIR);
    DIR *dir = fdopendir(fd);
    if (!dir) {
        close(fd);
        return s_fail(err, errno, "open", SP_FS_STAGE_DIR);
    }
    int rc = 0;
    struct dirent *de;
    for (;;) {
        errno = 0;
        if (!(de = readdir(dir))) {
            if (errno != 0 && rc == 0)
                rc = s_fail(err, errno, "read directory", SP_FS_STAGE_DIR);
            break;
        }
        if (s_is_dot(de->d_name))
            continue;
        struct stat st;
        bus_error_t one = {0};
        int removed = s_stage_expire_one(dirfd(dir), de->d_name, before, &st, &one);
        if (removed > 0 && fn)
            fn(arg, de->d_name, st.st_size > 0 ? (uint64_t) st.st_size : 0, st.st_mtim);
        else if (removed < 0 && rc == 0) {
            if (err)
                *err = one;
            rc = -1;
        }
    }
    closedir(dir);
    return rc;
}

//  ---------------------------------------------------------------------------
//  write_all

int
sp_fs_write_all(int fd, const void *data, size_t len, bus_error_t *err)
{
    const uint8_t *bytes = data;
    while (len && fd >= 0) {
        ssize_t n = write(fd, bytes, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return bus_error_fail(err,
                                  errno == ENOSPC || errno == EDQUOT
                                      ? BUS_STATUS_UNAVAILABLE
                                      : BUS_STATUS_INTERNAL,
                                  "cannot write: %s", strerror(errno));
        bytes += n;
        len -= (size_t) n;
    }
    return 0;
}
