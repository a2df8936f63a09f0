/*  =========================================================================
    agent_unpack - the cache of unpacked image root filesystems

    Layout of cache_dir: <hex>/rootfs (the image) and <hex>/complete (the
    marker, written after umoci succeeds), <hex>.lock (the flock file), and
    while work is under way .unpack-<hex>.XXXXXX or .prune-<hex>.XXXXXX temp
    dirs. A new image is unpacked into a temp dir, the marker written and the
    file system synced, and the temp dir renamed to <hex>, so <hex> appears
    whole or not at all. Lock files are unlinked only by prune while it holds
    them exclusively; every locker checks, after flock returns, that the path
    still names the file it locked, and starts again when it does not.

    umoci runs by fork and exec with an argv, stdin on the null device and
    its stdout and stderr captured in a memfd; the last line it prints is the
    error message.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <dirent.h>   //  opendir: walking the cache
#include <fcntl.h>    //  open flags
#include <sys/file.h> //  flock
#include <sys/stat.h> //  stat, chmod
#include <sys/wait.h> //  waitpid

#define HEX_LEN     64
#define MARKER      "complete"
#define UNPACK_TEMP ".unpack-"
#define PRUNE_TEMP  ".prune-"
#define MESSAGE_MAX 1024

//  The 64 hex digits of a valid "sha256:<hex>" digest, or NULL.
static const char *
s_digest_hex(const char *digest)
{
    if (!digest || strncmp(digest, "sha256:", 7) != 0)
        return NULL;
    const char *hex = digest + 7;
    for (size_t i = 0; i < HEX_LEN; i++)
        if (!((hex[i] >= '0' && hex[i] <= '9') || (hex[i] >= 'a' && hex[i] <= 'f')))
            return NULL;
    return hex[HEX_LEN] == '\0' ? hex : NULL;
}

//  True when name starts with 64 lowercase hex digits.
static bool
s_hex_prefix(const char *name)
{
    for (size_t i = 0; i < HEX_LEN; i++)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
            return false;
    return true;
}

//  "<cache_dir>/<hex><leaf>" into path; false when it does not fit.
static bool
s_path(char path[PATH_MAX], const char *cache_dir, const char *hex, const char *leaf)
{
    int len = snprintf(path, PATH_MAX, "%s/%.*s%s", cache_dir, HEX_LEN, hex, leaf);
    return len > 0 && len < PATH_MAX;
}

//  Opens (creating) the lock file at path and flocks it with operation
//  (LOCK_SH, LOCK_EX, optionally | LOCK_NB). Returns the descriptor, or -1
//  with errno set (EWOULDBLOCK when LOCK_NB found it held).
static int
s_lock(const char *path, int operation)
{
    while (true) {
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0)
            return -1;
        int rc;
        while ((rc = flock(fd, operation)) != 0 && errno == EINTR)
            ;
        if (rc != 0) {
            int saved = errno;
            close(fd);
            errno = saved;
            return -1;
        }
        //  Prune may have unlinked the file while we waited: lock the new one.
        struct stat held, named;
        if (fstat(fd, &held) == 0 && stat(path, &named) == 0 &&
            held.st_dev == named.st_dev && held.st_ino == named.st_ino)
            return fd;
        close(fd);
    }
}

//  The last non-blank line of text, without umoci's leading bullet, trimmed,
//  copied into message.
static void
s_last_line(char *text, char *message, size_t size)
{
    size_t len = strlen(text);
    while (len && isspace((unsigned char) text[len - 1]))
        text[--len] = '\0';
    char *line = strrchr(text, '\n');
    line = line ? line + 1 : text;
    while (isspace((unsigned char) *line))
        line++;
    //  "⨯ " (error) or "• " (info), U+2A2F and U+2022 in UTF-8
    if (strncmp(line, "\xe2\xa8\xaf", 3) == 0 || strncmp(line, "\xe2\x80\xa2", 3) == 0)
        line += 3;
    while (isspace((unsigned char) *line))
        line++;
    if (!*line)
        line = "no message";
    size_t copied = strnlen(line, size - 1);
    memcpy(message, line, copied);
    message[copied] = '\0';
}

//  Runs `umoci raw unpack --image layout:tag rootfs`. Returns 0, or -1 with
//  a one-line reason in message.
static int
s_umoci(const char *layout, const char *tag, const char *rootfs, char *message)
{
    char image[PATH_MAX + 256];
    if (snprintf(image, sizeof image, "%s:%s", layout, tag) >= (int) sizeof image) {
        snprintf(message, MESSAGE_MAX, "layout path too long");
        return -1;
    }
    const char *argv[] = {
        AGENT_UNPACK_UMOCI, "raw", "unpack", "--image", image, rootfs, NULL};
    int output = -1;
    int status = agent_command_run(argv, -1, &output, NULL);
    if (status < 0)
        snprintf(message, MESSAGE_MAX, "cannot run %s: %s", AGENT_UNPACK_UMOCI,
                 strerror(errno));
    else if (status != 0) {
        //  The tail, where the error line is.
        char text[4096];
        agent_command_tail(output, text, sizeof text);
        s_last_line(text, message, MESSAGE_MAX);
    }
    if (output >= 0)
        close(output);
    return status == 0 ? 0 : -1;
}

//  Writes the marker into dir and syncs dir's file system, so a rootfs that
//  is renamed into place is on disk. 0 or -1.
static int
s_complete(const char *dir, const char *digest)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/" MARKER, dir) >= (int) sizeof path)
        return -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    size_t len = strlen(digest);
    bool ok = write(fd, digest, len) == (ssize_t) len && write(fd, "\n", 1) == 1 &&
              syncfs(fd) == 0;
    return close(fd) == 0 && ok ? 0 : -1;
}

//  Unpacks into a temp dir and renames it to dir. Called with the lock held
//  exclusively and the marker absent.
static int
s_unpack(const char *cache_dir,
         const char *hex,
         const char *dir,
         const char *layout,
         const char *tag,
         bus_error_t *err)
{
    int64_t started = bus_clock_mono_ms();
    //  A dir with no marker was not made by us: start afresh.
    if (agent_fs_remove_tree(dir) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot remove %s: %s", dir,
                             strerror(errno));
    //  The caller checked that these fit.
    char temp[PATH_MAX], rootfs[PATH_MAX];
    snprintf(temp, sizeof temp, "%s/" UNPACK_TEMP "%s.XXXXXX", cache_dir, hex);
    if (!mkdtemp(temp))
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot create %s: %s", temp,
                             strerror(errno));
    if (snprintf(rootfs, sizeof rootfs, "%s/rootfs", temp) >= (int) sizeof rootfs) {
        rmdir(temp);
        return bus_error_set(err, BUS_STATUS_INVALID, "cache dir path too long");
    }
    char message[MESSAGE_MAX] = "";
    bus_error_t local = {0};
    if (s_umoci(layout, tag, rootfs, message) != 0) {
        //  umoci names paths first and the cause last: keep the tail.
        size_t len = strlen(message), room = BUS_ERROR_DETAIL_MAX - 32;
        bus_error_set(&local, BUS_STATUS_INTERNAL, "umoci unpack failed: %s%s",
                      len > room ? "..." : "",
                      len > room ? message + len - room : message);
    } else if (chmod(temp, 0755) != 0 || s_complete(temp, hex - 7) != 0)
        bus_error_set(&local, BUS_STATUS_INTERNAL, "cannot complete %s: %s", temp,
                      strerror(errno));
    else if (rename(temp, dir) != 0)
        bus_error_set(&local, BUS_STATUS_INTERNAL, "cannot rename %s to %s: %s", temp,
                      dir, strerror(errno));
    if (local.status != BUS_OK) {
        agent_fs_remove_tree(temp);
        bus_log_warning(
            "image unpack failed digest=sha256:%s layout=%s tag=%s error=\"%s\"", hex,
            layout, tag, message[0] ? message : local.detail);
        if (err)
            *err = local;
        return local.status;
    }
    bus_log_notice("image unpacked digest=sha256:%s layout=%s tag=%s ms=%" PRId64, hex,
                   layout, tag, bus_clock_mono_ms() - started);
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Unpack an image once, or find it unpacked.

int
agent_unpack_rootfs(const char *cache_dir,
                    const char *layout,
                    const char *tag,
                    const char *digest,
                    char out[PATH_MAX],
                    bus_error_t *err)
{
    assert(cache_dir);
    assert(layout);
    assert(tag);
    assert(digest);
    assert(out);
    out[0] = '\0';
    const char *hex = s_digest_hex(digest);
    if (!hex)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "invalid image digest (want sha256: and 64 lowercase hex)");
    if (!*tag || strpbrk(tag, ":/"))
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid image tag");
    char dir[PATH_MAX], marker[PATH_MAX], lock[PATH_MAX], rootfs[PATH_MAX];
    if (!s_path(dir, cache_dir, hex, "") || !s_path(marker, cache_dir, hex, "/" MARKER) ||
        !s_path(lock, cache_dir, hex, ".lock") ||
        !s_path(rootfs, cache_dir, hex, "/rootfs") ||
        strlen(cache_dir) + sizeof UNPACK_TEMP + HEX_LEN + 32 > PATH_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID, "cache dir path too long");

    if (access(marker, F_OK) != 0) {
        if (bus_mkdirs(cache_dir) != 0)
            return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot create %s: %s",
                                 cache_dir, strerror(errno));
        int fd = s_lock(lock, LOCK_EX);
        if (fd < 0)
            return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot lock %s: %s", lock,
                                 strerror(errno));
        //  Another caller may have unpacked it while we waited.
        int rc = access(marker, F_OK) == 0
                     ? BUS_OK
                     : s_unpack(cache_dir, hex, dir, layout, tag, err);
        close(fd);
        if (rc != BUS_OK)
            return rc;
    }
    memcpy(out, rootfs, strlen(rootfs) + 1);
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Keep a rootfs from being pruned while a kernel uses it.

int
agent_unpack_hold(const char *cache_dir, const char *digest, bus_error_t *err)
{
    assert(cache_dir);
    assert(digest);
    const char *hex = s_digest_hex(digest);
    if (!hex)
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid image digest"), -1;
    char marker[PATH_MAX], lock[PATH_MAX];
    if (!s_path(marker, cache_dir, hex, "/" MARKER) ||
        !s_path(lock, cache_dir, hex, ".lock"))
        return bus_error_set(err, BUS_STATUS_INVALID, "cache dir path too long"), -1;
    int fd = s_lock(lock, LOCK_SH);
    if (fd < 0 && errno == ENOENT)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "image %s is not unpacked",
                             digest),
               -1;
    if (fd < 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot lock %s: %s", lock,
                             strerror(errno)),
               -1;
    if (access(marker, F_OK) != 0) {
        close(fd);
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "image %s is not unpacked",
                             digest),
               -1;
    }
    return fd;
}

//  True when an overlay mounted in this namespace has rootfs among its lower
//  dirs (the super options of /proc/self/mountinfo, after " - ").
static bool
s_mounted_lower(const char *rootfs)
{
    char real[PATH_MAX];
    const char *names[2] = {rootfs, realpath(rootfs, real) ? real : NULL};
    FILE *file = fopen("/proc/self/mountinfo", "r");
    if (!file)
        return false;
    setvbuf(file, NULL, _IOFBF, 65536); //  not stdio's 1 KiB a read
    bool found = false;
    char *line = NULL;
    size_t size = 0;
    while (!found && getline(&line, &size, file) > 0) {
        char *options = strstr(line, " - overlay ");
        if (!options)
            continue;
        for (size_t i = 0; i < 2 && !found; i++) {
            if (!names[i])
                continue;
            size_t len = strlen(names[i]);
            for (char *hit = strstr(options, names[i]); hit && !found;
                 hit = strstr(hit + 1, names[i]))
                found = (hit[-1] == '=' || hit[-1] == ':') && strchr(",: \n", hit[len]);
        }
    }
    free(line);
    fclose(file);
    return found;
}

//  Locks <hex>.lock without waiting; -1 when someone holds it.
static int
s_try_lock(const char *cache_dir, const char *hex)
{
    char lock[PATH_MAX];
    if (!s_path(lock, cache_dir, hex, ".lock"))
        return -1;
    return s_lock(lock, LOCK_EX | LOCK_NB);
}

//  Removes image hex (not kept, not in use). Returns 1 when removed.
static int
s_prune_image(const char *cache_dir, const char *hex)
{
    char dir[PATH_MAX], path[PATH_MAX], temp[PATH_MAX];
    if (!s_path(dir, cache_dir, hex, "") || !s_path(path, cache_dir, hex, "/rootfs"))
        return 0;
    if (snprintf(temp, sizeof temp, "%s/" PRUNE_TEMP "%.64s.XXXXXX", cache_dir, hex) >=
        (int) sizeof temp)
        return 0;
    int fd = s_try_lock(cache_dir, hex);
    if (fd < 0)
        return 0;
    int removed = 0;
    if (s_mounted_lower(path))
        bus_log_info("image rootfs in use, kept digest=sha256:%.64s", hex);
    else {
        //  Out of sight first, so no one sees a half-removed tree as <hex>.
        s_path(path, cache_dir, hex, "/" MARKER);
        unlink(path);
        if (mkdtemp(temp) && rename(dir, temp) == 0 && agent_fs_remove_tree(temp) == 0) {
            s_path(path, cache_dir, hex, ".lock");
            unlink(path);
            removed = 1;
            bus_log_notice("image rootfs pruned digest=sha256:%.64s", hex);
        } else
            bus_log_warning("cannot prune %s: %s", dir, strerror(errno));
    }
    close(fd);
    return removed;
}

static bool
s_kept(const char *hex, const char *const *keep_digests, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *keep = s_digest_hex(keep_digests[i]);
        if (keep && memcmp(keep, hex, HEX_LEN) == 0)
            return true;
    }
    return false;
}

static void *
s_name_dup(const void *name)
{
    return strdup(name);
}

static void
s_name_free(void **name_p)
{
    free(*name_p);
    *name_p = NULL;
}

//  ---------------------------------------------------------------------------
//  Remove unpacked images that are no longer wanted.

int
agent_unpack_prune(const char *cache_dir, const char *const *keep_digests, size_t n)
{
    assert(cache_dir);
    assert(keep_digests || n == 0);
    DIR *handle = opendir(cache_dir);
    if (!handle)
        return errno == ENOENT ? 0 : -1;
    //  Names first: pruning adds and removes entries.
    zlistx_t *names = zlistx_new();
    zlistx_set_duplicator(names, s_name_dup);
    zlistx_set_destructor(names, s_name_free);
    struct dirent *entry;
    while ((entry = readdir(handle)))
        zlistx_add_end(names, entry->d_name);
    closedir(handle);

    int removed = 0;
    char path[PATH_MAX];
    for (const char *name = zlistx_first(names); name; name = zlistx_next(names)) {
        size_t len = strlen(name);
        if (len == HEX_LEN && s_hex_prefix(name)) {
            if (!s_kept(name, keep_digests, n))
                removed += s_prune_image(cache_dir, name);
            continue;
        }
        const char *hex = NULL;
        if (strncmp(name, UNPACK_TEMP, strlen(UNPACK_TEMP)) == 0)
            hex = name + strlen(UNPACK_TEMP);
        else if (strncmp(name, PRUNE_TEMP, strlen(PRUNE_TEMP)) == 0)
            hex = name + strlen(PRUNE_TEMP);
        if (hex && strlen(hex) > HEX_LEN && s_hex_prefix(hex) && hex[HEX_LEN] == '.') {
            //  A crashed unpack or prune: no one is working on it when unlocked.
            int fd = s_try_lock(cache_dir, hex);
            if (fd >= 0) {
                if (snprintf(path, sizeof path, "%s/%s", cache_dir, name) <
                    (int) sizeof path)
                    agent_fs_remove_tree(path);
                close(fd);
            }
        } else if (len == HEX_LEN + 5 && s_hex_prefix(name) &&
                   streq(name + HEX_LEN, ".lock") && !s_kept(name, keep_digests, n)) {
            //  A lock file with no image left (a hold on a missing image).
            int fd = s_try_lock(cache_dir, name);
            if (fd >= 0) {
                if (s_path(path, cache_dir, name, "") && access(path, F_OK) != 0 &&
                    s_path(path, cache_dir, name, ".lock"))
                    unlink(path);
                close(fd);
            }
        }
    }
    zlistx_destroy(&names);
    return removed;
}
