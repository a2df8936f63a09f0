/*  =========================================================================
    agent_files - confined file access to a container's home directory

    A client path is first normalized without touching the file system:
    control characters and ".." are refused, "." and repeated slashes
    dropped, a leading /home/work stripped (any other absolute path is
    refused). The result is looked up from a descriptor of home with
    bus_beneath (openat2 and RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS), so
    the kernel refuses any step out of home, however symlinks are arranged,
    without a check-then-use race. Where openat2 is missing, bus_beneath's
    one fallback walks one component at a time and refuses every symlink.

    Nothing is opened for reading by name: the target is opened with O_PATH,
    checked with fstat to be a regular file, and only then reopened through
    /proc/self/fd, so a fifo cannot block the agent and a device node made
    inside the container cannot open a host device. Uploads go to a temp
    file (O_EXCL, O_NOFOLLOW) in the target directory, synced and renamed
    over the name. Archives are ustar written by hand into a growing buffer.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <dirent.h>   //  fdopendir: listings and the archive walk
#include <fcntl.h>    //  open flags, AT_* flags
#include <sys/stat.h> //  fstat, fstatat, mkdirat, fchmod

#define TEMP_PREFIX      ".bp-upload-"
#define TEMP_ATTEMPTS    64
#define TAR_BLOCK        512
#define TAR_TRAILER      (2 * TAR_BLOCK)
#define TAR_NAME_LEN     100
#define TAR_PREFIX_LEN   155
#define TAR_LONGLINK     "././@LongLink"
#define TAR_INITIAL_SIZE 65536
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

static unsigned s_temp_count; //  temp name counter (atomic access)

//  Sets err for a failed syscall on rel and returns -1.
static int
s_fail_errno(bus_error_t *err, int errnum, const char *what, const char *rel)
{
    return bus_beneath_error(err, errnum, what, rel, BUS_STATUS_INVALID,
                             "the home directory");
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

//  Writes path's form relative to home into out: components joined by one
//  '/', no "." and no leading "/home/work", "" for home itself.
int
agent_files_normalize(const char *path, char out[PATH_MAX], bus_error_t *err)
{
    if (!path)
        return bus_error_set(err, BUS_STATUS_INVALID, "no path"), -1;
    if (agent_files_check_name(path, strlen(path), err) != 0)
        return -1;
    const char *p = path;
    if (*p == '/') {
        size_t home_len = strlen(AGENT_FILES_HOME);
        if (strncmp(p, AGENT_FILES_HOME, home_len) != 0 ||
            (p[home_len] != '\0' && p[home_len] != '/')) {
            bus_error_set(err, BUS_STATUS_INVALID, "path outside %s", AGENT_FILES_HOME);
            return -1;
        }
        p += home_len;
    }
    size_t used = 0;
    while (*p) {
        while (*p == '/')
            p++;
        if (!*p)
            break;
        const char *end = strchrnul(p, '/');
        size_t len = (size_t) (end - p);
        if (len == 1 && p[0] == '.') {
            p = end;
            continue;
        }
        if (len == 2 && p[0] == '.' && p[1] == '.') {
            bus_error_set(err, BUS_STATUS_INVALID, "'..' in path");
            return -1;
        }
        if (len > NAME_MAX) {
            bus_error_set(err, BUS_STATUS_INVALID, "name too long in path");
            return -1;
        }
        if (used)
            out[used++] = '/';
        memcpy(out + used, p, len);
        used += len;
        p = end;
    }
    out[used] = '\0'; //  never longer than path, which is under PATH_MAX
    return 0;
}

static int
s_open_home(const char *home, bus_error_t *err)
{
    assert(home);
    //  O_NOFOLLOW: a container root could have made /home/work a symlink
    int fd = open(home, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            bus_error_set(err, BUS_STATUS_NOT_FOUND, "no home directory");
        else
            bus_error_set(err, BUS_STATUS_INTERNAL, "open home %s: %s", home,
                          strerror(errno));
    }
    return fd;
}

//  Opens rel beneath home with flags (never O_CREAT), following symlinks
//  only while they stay beneath (bus_beneath). -1 with errno.
static int
s_open_beneath(int homefd, const char *rel, int flags)
{
    return bus_beneath_open(homefd, rel, flags, 0, BUS_BENEATH_IN);
}

//  Reopens an O_PATH descriptor of a regular file for reading
//  (bus_beneath_reopen): the inode is the one fstat saw, so this cannot
//  open a device or a fifo.
static int
s_reopen_regular(int pathfd, struct stat *st, const char *rel, bus_error_t *err)
{
    int fd = bus_beneath_reopen(pathfd, O_RDONLY, false, st);
    if (fd >= 0)
        return fd;
    if (errno == EINVAL) {
        bus_error_set(err, BUS_STATUS_INVALID, "not a regular file: %s",
                      *rel ? rel : ".");
        return -1;
    }
    return s_fail_errno(err, errno, "reopen", rel);
}

//  Reads up to size bytes into buf; returns the count (short at end of
//  file) or -1.
static ssize_t
s_read_full(int fd, uint8_t *buf, size_t size)
{
    size_t done = 0;
    while (done < size) {
        ssize_t n = read(fd, buf + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        done += (size_t) n;
    }
    return (ssize_t) done;
}

static int
s_write_full(int fd, const uint8_t *buf, size_t size)
{
    while (size > 0) {
        ssize_t n = write(fd, buf, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        buf += n;
        size -= (size_t) n;
    }
    return 0;
}

static int
s_compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

static void
s_free_names(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

//  The names in dir but . and .., sorted. -1 with errno.
static int
s_read_names(DIR *dir, char ***names_p, size_t *count_p)
{
    char **names = NULL;
    size_t count = 0, cap = 0;
    struct dirent *entry;
    errno = 0;
    while ((entry = readdir(dir))) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
            continue;
        if (count == cap) {
            cap = cap ? cap * 2 : 32;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown)
                goto fail;
            names = grown;
        }
        if (!(names[count] = strdup(entry->d_name)))
            goto fail;
        count++;
        errno = 0;
    }
    if (errno)
        goto fail;
    if (count)
        qsort(names, count, sizeof *names, s_compare_names);
    *names_p = names;
    *count_p = count;
    return 0;
fail:;
    int saved = errno ? errno : ENOMEM;
    s_free_names(names, count);
    errno = saved;
    return -1;
}

//  ---------------------------------------------------------------------------

int
agent_files_check_name(const char *bytes, size_t len, bus_error_t *err)
{
    if (!bytes)
        return bus_error_set(err, BUS_STATUS_INVALID, "no path"), -1;
    return bus_beneath_check_bytes(bytes, len, PATH_MAX - 1, err);
}

//  ---------------------------------------------------------------------------
//  Upload

//  Opens (creating as needed) the directory dir beneath home; new
//  directories get uid:gid. Returns an O_PATH descriptor or -1 with err.
static int
s_make_dirs(int homefd, char *dir, uid_t uid, gid_t gid, bus_error_t *err)
{
    int cur = s_open_beneath(homefd, "", O_PATH | O_DIRECTORY);
    if (cur < 0)
        return s_fail_errno(err, errno, "open", "");
    char *name = dir;
    while (*name) {
        char *slash = strchr(name, '/');
        char *end = slash ? slash : name + strlen(name);
        char saved = *end;
        *end = '\0';
        //  dir, cut after this component, is the prefix to open
        int next = s_open_beneath(homefd, dir, O_PATH | O_DIRECTORY);
        if (next < 0 && errno == ENOENT) {
            if (mkdirat(cur, name, AGENT_FILES_DIR_MODE) == 0) {
                int fd =
                    openat(cur, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0 || fchmod(fd, AGENT_FILES_DIR_MODE) != 0 ||
                    ((uid != (uid_t) -1 || gid != (gid_t) -1) &&
                     fchown(fd, uid, gid) != 0)) {
                    s_fail_errno(err, errno, "mkdir", dir);
                    s_close(&fd);
                    s_close(&cur);
                    return -1;
                }
                s_close(&fd);
            } else if (errno != EEXIST) {
                s_fail_errno(err, errno, "mkdir", dir);
                s_close(&cur);
                return -1;
            }
            next = s_open_beneath(homefd, dir, O_PATH | O_DIRECTORY);
        }
        if (next < 0) {
            s_fail_errno(err, errno, "open", dir);
            s_close(&cur);
            return -1;
        }
        s_close(&cur);
        cur = next;
        *end = saved;
        name = saved ? end + 1 : end;
    }
    return cur;
}

//  Writes name in dirfd through a temp file renamed over it.
static int
s_write_atomic(int dir_fd,
               const char *name,
               const char *rel,
               const void *data,
               size_t size,
               mode_t mode,
               uid_t uid,
               gid_t gid,
               bus_error_t *err)
{
    struct stat st;
    if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode)) {
        bus_error_set(err, BUS_STATUS_INVALID, "exists and is not a regular file: %s",
                      rel);
        return -1;
    }
    char temp[64];
    int fd = -1;
    for (int attempt = 0; attempt < TEMP_ATTEMPTS && fd < 0; attempt++) {
        unsigned count = __atomic_fetch_add(&s_temp_count, 1, __ATOMIC_RELAXED);
        snprintf(temp, sizeof temp, TEMP_PREFIX "%ld-%u", (long) getpid(), count);
        fd = openat(dir_fd, temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    0600);
        if (fd < 0 && errno != EEXIST)
            return s_fail_errno(err, errno, "create temp file in", rel);
    }
    if (fd < 0)
        return s_fail_errno(err, EEXIST, "create temp file in", rel);
    if (s_write_full(fd, data, size) != 0 || fchmod(fd, mode) != 0 ||
        ((uid != (uid_t) -1 || gid != (gid_t) -1) && fchown(fd, uid, gid) != 0) ||
        fsync(fd) != 0)
        goto fail;
    int rc = close(fd);
    fd = -1;
    if (rc != 0 || renameat(dir_fd, temp, dir_fd, name) != 0)
        goto fail;
    return 0;
fail:
    s_fail_errno(err, errno, "write", rel);
    s_close(&fd);
    unlinkat(dir_fd, temp, 0);
    return -1;
}

int
agent_files_write(const char *home,
                  const char *path,
                  const void *data,
                  size_t size,
                  uid_t uid,
                  gid_t gid,
                  bus_error_t *err)
{
    return agent_files_write_mode(home, path, data, size, AGENT_FILES_FILE_MODE, uid, gid,
                                  err);
}

int
agent_files_write_mode(const char *home,
                       const char *path,
                       const void *data,
                       size_t size,
                       mode_t mode,
                       uid_t uid,
                       gid_t gid,
                       bus_error_t *err)
{
    assert(data || size == 0);
    char rel[PATH_MAX];
    if (agent_files_normalize(path, rel, err) != 0)
        return -1;
    if (!*rel) {
        bus_error_set(err, BUS_STATUS_INVALID, "no file name in path");
        return -1;
    }
    int homefd = s_open_home(home, err);
    if (homefd < 0)
        return -1;
    char dir[PATH_MAX];
    memcpy(dir, rel, strlen(rel) + 1);
    char *slash = strrchr(dir, '/');
    const char *name = slash ? rel + (slash - dir) + 1 : rel;
    if (slash)
        *slash = '\0';
    else
        dir[0] = '\0';
    int rc = -1;
    int dir_fd = s_make_dirs(homefd, dir, uid, gid, err);
    if (dir_fd >= 0)
        rc = s_write_atomic(dir_fd, name, rel, data, size, mode & 0777, uid, gid, err);
    s_close(&dir_fd);
    s_close(&homefd);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Download of one file

int
agent_files_read(const char *home,
                 const char *path,
                 size_t max_size,
                 uint8_t **data_p,
                 size_t *size_p,
                 bus_error_t *err)
{
    assert(data_p && size_p);
    *data_p = NULL;
    *size_p = 0;
    char rel[PATH_MAX];
    if (agent_files_normalize(path, rel, err) != 0)
        return -1;
    int homefd = s_open_home(home, err);
    if (homefd < 0)
        return -1;
    int pathfd = s_open_beneath(homefd, rel, O_PATH);
    s_close(&homefd);
    if (pathfd < 0)
        return s_fail_errno(err, errno, "open", rel);
    struct stat st;
    int fd = s_reopen_regular(pathfd, &st, rel, err);
    s_close(&pathfd);
    if (fd < 0)
        return -1;
    //  Read until end of file, never more than max_size + 1 bytes: the file
    //  may have grown since fstat.
    uint8_t *data = NULL;
    size_t size = 0, cap = 0;
    if ((uint64_t) st.st_size > max_size)
        goto too_large;
    cap = (size_t) st.st_size + 1;
    for (;;) {
        if (size == cap) {
            size_t grown = cap < max_size / 2 ? cap * 2 : max_size + 1;
            if (grown <= cap)
                goto too_large;
            uint8_t *bigger = realloc(data, grown + 1);
            if (!bigger)
                goto nomem;
            data = bigger;
            cap = grown;
        } else if (!data && !(data = malloc(cap + 1)))
            goto nomem;
        ssize_t n = s_read_full(fd, data + size, cap - size);
        if (n < 0) {
            s_fail_errno(err, errno, "read", rel);
            goto fail;
        }
        size += (size_t) n;
        if (size > max_size)
            goto too_large;
        if (size < cap)
            break; //  end of file
    }
    data[size] = '\0';
    s_close(&fd);
    *data_p = data;
    *size_p = size;
    return 0;
too_large:
    bus_error_set(err, BUS_STATUS_INVALID, "file too large (over %zu bytes): %s",
                  max_size, rel);
    goto fail;
nomem:
    bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory reading %s", rel);
fail:
    free(data);
    s_close(&fd);
    return -1;
}

//  ---------------------------------------------------------------------------
//  Archive

typedef struct {
    uint8_t *data;
    size_t size;
    size_t cap;
    size_t max; //  the archive's limit, trailer included
} archive_t;

//  Makes room for n more bytes and the trailer, refusing when they would
//  take the archive over its limit.
static int
s_archive_grow(archive_t *ar, size_t n, bus_error_t *err)
{
    if (ar->max < TAR_TRAILER || n > ar->max - TAR_TRAILER - ar->size) {
        bus_error_set(err, BUS_STATUS_INVALID, "archive too large (over %zu bytes)",
                      ar->max);
        return -1;
    }
    size_t need = ar->size + n + TAR_TRAILER; //  the trailer always fits
    if (need <= ar->cap)
        return 0;
    size_t cap = ar->cap ? ar->cap : TAR_INITIAL_SIZE;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    uint8_t *grown = realloc(ar->data, cap);
    if (!grown) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory building an archive");
        return -1;
    }
    ar->data = grown;
    ar->cap = cap;
    return 0;
}

//  A numeric header field: octal digits and a NUL, or base-256 (GNU) when
//  the value does not fit.
static void
s_tar_number(char *field, size_t width, uint64_t value)
{
    if ((width - 1) * 3 >= 64 || value < ((uint64_t) 1 << ((width - 1) * 3))) {
        char digits[32];
        snprintf(digits, sizeof digits, "%0*" PRIo64, (int) (width - 1), value);
        memcpy(field, digits, width - 1);
        field[width - 1] = '\0';
        return;
    }
    field[0] = (char) 0x80;
    for (size_t i = width - 1; i > 0; i--) {
        field[i] = (char) (value & 0xff);
        value >>= 8;
    }
}

//  Appends one header block (and nothing else) with a valid checksum.
static int
s_tar_block(archive_t *ar,
            const char *name,
            size_t name_len,
            const char *prefix,
            size_t prefix_len,
            const struct stat *st,
            char type,
            uint64_t size,
            const char *link,
            bus_error_t *err)
{
    if (s_archive_grow(ar, TAR_BLOCK, err) != 0)
        return -1;
    char *block = (char *) ar->data + ar->size;
    memset(block, 0, TAR_BLOCK);
    memcpy(block, name, name_len < TAR_NAME_LEN ? name_len : TAR_NAME_LEN);
    s_tar_number(block + 100, 8, st ? st->st_mode & 07777 : 0644);
    s_tar_number(block + 108, 8, st ? st->st_uid : 0);
    s_tar_number(block + 116, 8, st ? st->st_gid : 0);
    s_tar_number(block + 124, 12, size);
    s_tar_number(block + 136, 12, st && st->st_mtime > 0 ? (uint64_t) st->st_mtime : 0);
    block[156] = type;
    if (link)
        memcpy(block + 157, link, strnlen(link, TAR_NAME_LEN));
    memcpy(block + 257, "ustar", 6);
    memcpy(block + 263, "00", 2);
    if (prefix_len)
        memcpy(block + 345, prefix, prefix_len);
    memset(block + 148, ' ', 8);
    unsigned sum = 0;
    for (size_t i = 0; i < TAR_BLOCK; i++)
        sum += (unsigned char) block[i];
    char digits[16];
    snprintf(digits, sizeof digits, "%06o", sum & 0777777);
    memcpy(block + 148, digits, 6);
    block[154] = '\0';
    block[155] = ' ';
    ar->size += TAR_BLOCK;
    return 0;
}

//  Appends len bytes of data and zero padding to the next block.
static int
s_tar_data(archive_t *ar, const void *data, size_t len, bus_error_t *err)
{
    size_t padded = (len + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;
    if (padded < len || s_archive_grow(ar, padded, err) != 0)
        return -1;
    memcpy(ar->data + ar->size, data, len);
    memset(ar->data + ar->size + len, 0, padded - len);
    ar->size += padded;
    return 0;
}

//  Appends the header of one member, with a GNU 'L' record before it for a
//  name the ustar fields cannot hold and a 'K' record for a long link.
static int
s_tar_header(archive_t *ar,
             const char *name,
             const struct stat *st,
             char type,
             uint64_t size,
             const char *link,
             bus_error_t *err)
{
    size_t len = strlen(name);
    size_t split = 0; //  index of the '/' between prefix and name, 0 for none
    if (len > TAR_NAME_LEN) {
        size_t first = len - TAR_NAME_LEN - 1;
        for (size_t i = first ? first : 1; i <= TAR_PREFIX_LEN && i + 1 < len; i++)
            if (name[i] == '/') {
                split = i;
                break;
            }
        if (!split) {
            if (s_tar_block(ar, TAR_LONGLINK, strlen(TAR_LONGLINK), NULL, 0, NULL, 'L',
                            len + 1, NULL, err) != 0 ||
                s_tar_data(ar, name, len + 1, err) != 0)
                return -1;
        }
    }
    if (link && strlen(link) > TAR_NAME_LEN) {
        size_t link_len = strlen(link);
        if (s_tar_block(ar, TAR_LONGLINK, strlen(TAR_LONGLINK), NULL, 0, NULL, 'K',
                        link_len + 1, NULL, err) != 0 ||
            s_tar_data(ar, link, link_len + 1, err) != 0)
            return -1;
    }
    if (split)
        return s_tar_block(ar, name + split + 1, len - split - 1, name, split, st, type,
                           size, link, err);
    return s_tar_block(ar, name, len, NULL, 0, st, type, size, link, err);
}

static int s_tar_node(archive_t *ar,
                      int pathfd,
                      const struct stat *st,
                      char *name,
                      size_t len,
                      int depth,
                      bus_error_t *err);

//  A regular file's header and bytes: exactly st_size of them, zero-filled
//  if the file shrank meanwhile, cut if it grew.
static int
s_tar_file(archive_t *ar, int pathfd, const char *name, bus_error_t *err)
{
    struct stat st;
    int fd = s_reopen_regular(pathfd, &st, name, err);
    if (fd < 0)
        return -1;
    uint64_t size = (uint64_t) st.st_size;
    size_t padded = (size_t) ((size + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK);
    int rc = -1;
    if (size > ar->max) {
        bus_error_set(err, BUS_STATUS_INVALID, "archive too large (over %zu bytes)",
                      ar->max);
        goto done;
    }
    if (s_tar_header(ar, name, &st, '0', size, NULL, err) != 0 ||
        s_archive_grow(ar, padded, err) != 0)
        goto done;
    ssize_t n = s_read_full(fd, ar->data + ar->size, (size_t) size);
    if (n < 0) {
        s_fail_errno(err, errno, "read", name);
        goto done;
    }
    memset(ar->data + ar->size + n, 0, padded - (size_t) n);
    ar->size += padded;
    rc = 0;
done:
    s_close(&fd);
    return rc;
}

//  A directory's header, then each entry in name order.
static int
s_tar_dir(archive_t *ar,
          int pathfd,
          const struct stat *st,
          char *name,
          size_t len,
          int depth,
          bus_error_t *err)
{
    if (len + 2 > PATH_MAX) {
        bus_error_set(err, BUS_STATUS_INVALID, "name too long in archive: %s", name);
        return -1;
    }
    name[len] = '/';
    name[len + 1] = '\0';
    int rc = s_tar_header(ar, name, st, '5', 0, NULL, err);
    name[len] = '\0';
    if (rc != 0)
        return -1;
    if (depth >= AGENT_FILES_MAX_DEPTH) {
        bus_error_set(err, BUS_STATUS_INVALID, "directory tree too deep: %s", name);
        return -1;
    }
    int fd = openat(pathfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dir) {
        s_fail_errno(err, errno, "open", name);
        s_close(&fd);
        return -1;
    }
    char **names = NULL;
    size_t count = 0;
    if (s_read_names(dir, &names, &count) != 0) {
        s_fail_errno(err, errno, "read directory", name);
        closedir(dir);
        return -1;
    }
    for (size_t i = 0; i < count && rc == 0; i++) {
        size_t entry_len = strlen(names[i]);
        if (len + 1 + entry_len + 2 > PATH_MAX) {
            bus_error_set(err, BUS_STATUS_INVALID, "name too long in archive: %s", name);
            rc = -1;
            break;
        }
        name[len] = '/';
        memcpy(name + len + 1, names[i], entry_len + 1);
        int child = openat(dirfd(dir), names[i], O_PATH | O_NOFOLLOW | O_CLOEXEC);
        struct stat child_st;
        if (child < 0 || fstat(child, &child_st) != 0) {
            if (errno != ENOENT) //  gone meanwhile: leave it out
                rc = s_fail_errno(err, errno, "open", name);
        } else
            rc = s_tar_node(ar, child, &child_st, name, len + 1 + entry_len, depth + 1,
                            err);
        s_close(&child);
        name[len] = '\0';
    }
    s_free_names(names, count);
    closedir(dir);
    return rc;
}

//  One member by its type; fifos, sockets and devices are left out.
static int
s_tar_node(archive_t *ar,
           int pathfd,
           const struct stat *st,
           char *name,
           size_t len,
           int depth,
           bus_error_t *err)
{
    if (S_ISREG(st->st_mode))
        return s_tar_file(ar, pathfd, name, err);
    if (S_ISDIR(st->st_mode))
        return s_tar_dir(ar, pathfd, st, name, len, depth, err);
    if (S_ISLNK(st->st_mode)) {
        char link[PATH_MAX];
        ssize_t n = readlinkat(pathfd, "", link, sizeof link - 1);
        if (n < 0)
            return s_fail_errno(err, errno, "readlink", name);
        link[n] = '\0';
        return s_tar_header(ar, name, st, '2', 0, link, err);
    }
    return 0;
}

int
agent_files_tar(const char *home,
                const char *path,
                size_t max_size,
                uint8_t **data_p,
                size_t *size_p,
                bus_error_t *err)
{
    assert(data_p && size_p);
    *data_p = NULL;
    *size_p = 0;
    char rel[PATH_MAX];
    if (agent_files_normalize(path, rel, err) != 0)
        return -1;
    int homefd = s_open_home(home, err);
    if (homefd < 0)
        return -1;
    int pathfd = s_open_beneath(homefd, rel, O_PATH);
    s_close(&homefd);
    if (pathfd < 0)
        return s_fail_errno(err, errno, "open", rel);
    struct stat st;
    if (fstat(pathfd, &st) != 0) {
        s_fail_errno(err, errno, "stat", rel);
        s_close(&pathfd);
        return -1;
    }
    if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        bus_error_set(err, BUS_STATUS_INVALID, "not a regular file or directory: %s",
                      *rel ? rel : ".");
        s_close(&pathfd);
        return -1;
    }
    char name[PATH_MAX];
    const char *base = strrchr(rel, '/');
    base = base ? base + 1 : *rel ? rel : strrchr(AGENT_FILES_HOME, '/') + 1;
    snprintf(name, sizeof name, "%s", base);
    archive_t ar = {.max = max_size};
    int rc = s_tar_node(&ar, pathfd, &st, name, strlen(name), 0, err);
    s_close(&pathfd);
    if (rc == 0)
        rc = s_archive_grow(&ar, 0, err);
    if (rc != 0) {
        free(ar.data);
        return -1;
    }
    memset(ar.data + ar.size, 0, TAR_TRAILER);
    ar.size += TAR_TRAILER;
    *data_p = ar.data;
    *size_p = ar.size;
    return 0;
}

//  ---------------------------------------------------------------------------
//  Listing

//  Python's stat.filemode: "drwxr-xr-x" and the like.
static void
s_filemode(mode_t mode, char out[11])
{
    switch (mode & S_IFMT) {
        case S_IFLNK:
            out[0] = 'l';
            break;
        case S_IFSOCK:
            out[0] = 's';
            break;
        case S_IFREG:
            out[0] = '-';
            break;
        case S_IFBLK:
            out[0] = 'b';
            break;
        case S_IFDIR:
            out[0] = 'd';
            break;
        case S_IFCHR:
            out[0] = 'c';
            break;
        case S_IFIFO:
            out[0] = 'p';
            break;
        default:
            out[0] = '?';
            break;
    }
    out[1] = mode & S_IRUSR ? 'r' : '-';
    out[2] = mode & S_IWUSR ? 'w' : '-';
    out[3] = mode & S_ISUID ? (mode & S_IXUSR ? 's' : 'S') : (mode & S_IXUSR ? 'x' : '-');
    out[4] = mode & S_IRGRP ? 'r' : '-';
    out[5] = mode & S_IWGRP ? 'w' : '-';
    out[6] = mode & S_ISGID ? (mode & S_IXGRP ? 's' : 'S') : (mode & S_IXGRP ? 'x' : '-');
    out[7] = mode & S_IROTH ? 'r' : '-';
    out[8] = mode & S_IWOTH ? 'w' : '-';
    out[9] = mode & S_ISVTX ? (mode & S_IXOTH ? 't' : 'T') : (mode & S_IXOTH ? 'x' : '-');
    out[10] = '\0';
}

//  Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid.
static size_t
s_utf8_length(const unsigned char *s, size_t n)
{
    uint32_t code;
    size_t len;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf) {
        len = 2;
        code = s[0] & 0x1f;
    } else if ((s[0] & 0xf0) == 0xe0) {
        len = 3;
        code = s[0] & 0x0f;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        len = 4;
        code = s[0] & 0x07;
    } else
        return 0;
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        code = code << 6 | (s[i] & 0x3f);
    }
    if (len == 3 && (code < 0x800 || (code >= 0xd800 && code <= 0xdfff)))
        return 0;
    if (len == 4 && (code < 0x10000 || code > 0x10ffff))
        return 0;
    return len;
}

//  A JSON string of a file name, bad UTF-8 bytes replaced by U+FFFD.
static json_t *
s_json_name(const char *name)
{
    json_t *string = json_string(name);
    if (string)
        return string;
    size_t len = strlen(name);
    char *clean = malloc(len * 3 + 1);
    if (!clean)
        return NULL;
    size_t used = 0;
    const unsigned char *s = (const unsigned char *) name;
    for (size_t i = 0; i < len;) {
        size_t n = s_utf8_length(s + i, len - i);
        if (n) {
            memcpy(clean + used, s + i, n);
            used += n;
            i += n;
        } else {
            memcpy(clean + used, UTF8_REPLACEMENT, 3);
            used += 3;
            i++;
        }
    }
    clean[used] = '\0';
    string = json_string(clean);
    free(clean);
    return string;
}

static double
s_seconds(struct timespec ts)
{
    return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

int
agent_files_list(const char *home, const char *path, char **json_p, bus_error_t *err)
{
    assert(json_p);
    *json_p = NULL;
    char rel[PATH_MAX];
    if (agent_files_normalize(path, rel, err) != 0)
        return -1;
    int homefd = s_open_home(home, err);
    if (homefd < 0)
        return -1;
    //  O_DIRECTORY fails before anything is opened when it is not one
    int fd = s_open_beneath(homefd, rel, O_RDONLY | O_DIRECTORY);
    s_close(&homefd);
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dir) {
        s_fail_errno(err, errno, "open", rel);
        s_close(&fd);
        return -1;
    }
    char **names = NULL;
    size_t count = 0;
    if (s_read_names(dir, &names, &count) != 0) {
        s_fail_errno(err, errno, "read directory", rel);
        closedir(dir);
        return -1;
    }
    json_t *array = json_array();
    for (size_t i = 0; array && i < count; i++) {
        struct stat st;
        if (fstatat(dirfd(dir), names[i], &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue; //  gone meanwhile
        char mode[11];
        s_filemode(st.st_mode, mode);
        json_t *filename = s_json_name(names[i]);
        json_t *entry =
            filename ? json_pack("{s:s, s:I, s:f, s:f, s:f, s:o}", "mode", mode, "size",
                                 (json_int_t) st.st_size, "ctime", s_seconds(st.st_ctim),
                                 "mtime", s_seconds(st.st_mtim), "atime",
                                 s_seconds(st.st_atim), "filename", filename)
                     : NULL;
        if (!entry || json_array_append_new(array, entry) != 0) {
            json_decref(array);
            array = NULL;
        }
    }
    s_free_names(names, count);
    closedir(dir);
    char *text = array ? json_dumps(array, 0) : NULL;
    json_decref(array);
    if (!text) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory listing %s", rel);
        return -1;
    }
    *json_p = text;
    return 0;
}
