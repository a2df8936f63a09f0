/*  =========================================================================
    agent_unpack_test - the unpacked image cache against the real umoci

    Digest and tag checks need nothing. The other cases need root and umoci
    and a busybox layout: a copy of build/images/busybox when it is there,
    else one built by deploy/images/build (run from the repository root, as
    make check does). Without them they are reported as one passing test with
    a note. Cases: a first unpack, a reuse that never runs umoci (PATH is
    emptied for it), concurrent unpacks in forked processes, a layout missing
    a blob, a missing umoci, and prune with kept, held, mounted and stale
    entries. Everything lives in one temp dir, removed at the end.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <dirent.h>    //  listing the cache
#include <ftw.h>       //  nftw: removing the temp dir
#include <sys/mount.h> //  mount: an overlay over a cached rootfs
#include <sys/stat.h>  //  stat
#include <sys/wait.h>  //  waitpid: the concurrent unpackers
#include "t.h"

#define IMAGE_SOURCE "build/images/busybox"
#define DIGEST_A     "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define DIGEST_B     "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
#define DIGEST_C     "sha256:cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
#define DIGEST_D     "sha256:dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
#define DIGEST_E     "sha256:eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"

static char s_tmp[] = "/tmp/agent_unpack_test.XXXXXX";
static char s_layout[256];
static char s_digest[80]; //  the layout's real manifest digest

//  A fresh cache dir path under the temp dir.
static const char *
s_cache(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", s_tmp, name);
    return path;
}

static bool
s_exists(const char *dir, const char *leaf)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, leaf);
    struct stat st;
    return lstat(path, &st) == 0;
}

//  Entries of dir other than . and .., names joined by spaces into list.
static size_t
s_list(const char *dir, char *list, size_t size)
{
    size_t count = 0;
    list[0] = '\0';
    DIR *handle = opendir(dir);
    struct dirent *entry;
    while (handle && (entry = readdir(handle))) {
        if (streq(entry->d_name, ".") || streq(entry->d_name, ".."))
            continue;
        count++;
        size_t len = strlen(list);
        snprintf(list + len, size - len, "%s%s", len ? " " : "", entry->d_name);
    }
    if (handle)
        closedir(handle);
    return count;
}

static void
test_invalid_digest(void)
{
    const char *bad[] = {
        "",
        "sha256:",
        "sha512:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "sha256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        DIGEST_A "a",
        "sha256:../../../../../../../../../../../../../../../../etc/x",
        "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/",
        NULL};
    char out[PATH_MAX];
    const char *cache = s_cache("invalid");
    for (size_t i = 0; bad[i]; i++) {
        bus_error_t err = {0};
        T_EQ_INT(agent_unpack_rootfs(cache, "/nonexistent", "latest", bad[i], out, &err),
                 BUS_STATUS_INVALID);
        T_CONTAINS(err.detail, "digest");
        T_EQ_STR(out, "");
        T_EQ_INT(agent_unpack_hold(cache, bad[i], &err), -1);
        T_EQ_INT(err.status, BUS_STATUS_INVALID);
    }
    bus_error_t err = {0};
    T_EQ_INT(agent_unpack_rootfs(cache, "/nonexistent", "a:b", DIGEST_A, out, &err),
             BUS_STATUS_INVALID);
    T_EQ_INT(agent_unpack_rootfs(cache, "/nonexistent", "", DIGEST_A, out, &err),
             BUS_STATUS_INVALID);
    T_ASSERT(!s_exists(cache, ""));
}

static void
test_unpack(void)
{
    const char *cache = s_cache("cache");
    char out[PATH_MAX], want[PATH_MAX];
    bus_error_t err = {0};
    T_EQ_INT(agent_unpack_rootfs(cache, s_layout, "latest", s_digest, out, &err), BUS_OK);
    snprintf(want, sizeof want, "%s/%s/rootfs", cache, s_digest + 7);
    T_EQ_STR(out, want);
    T_ASSERT(s_exists(out, "bin/busybox"));
    T_ASSERT(s_exists(out, "home/work"));
    T_ASSERT(!s_exists(out, "complete")); //  the marker is beside rootfs, not in it
    char list[1024];
    T_EQ_INT(s_list(cache, list, sizeof list), 2); //  <hex> and <hex>.lock
}

static void
test_reuse(void)
{
    const char *cache = s_cache("cache");
    char marker[PATH_MAX], out[PATH_MAX];
    snprintf(marker, sizeof marker, "%s/%s/complete", cache, s_digest + 7);
    struct stat before, after;
    T_ASSERT(stat(marker, &before) == 0);
    //  With no umoci on PATH, only a reuse can succeed.
    char *path = strdup(getenv("PATH") ? getenv("PATH") : "");
    setenv("PATH", s_tmp, 1);
    bus_error_t err = {0};
    int64_t started = bus_clock_mono_ms();
    int rc = agent_unpack_rootfs(cache, s_layout, "latest", s_digest, out, &err);
    int64_t elapsed = bus_clock_mono_ms() - started;
    setenv("PATH", path, 1);
    free(path);
    T_EQ_INT(rc, BUS_OK);
    T_ASSERT(elapsed < 100);
    T_ASSERT(stat(marker, &after) == 0);
    T_EQ_INT(after.st_ino, before.st_ino);
    T_EQ_INT(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
    T_ASSERT(s_exists(out, "bin/busybox"));
}

static void
test_concurrent(void)
{
    const char *cache = s_cache("concurrent");
    enum { CHILDREN = 4 };
    int fds[2];
    T_ASSERT(pipe(fds) == 0);
    pid_t pids[CHILDREN];
    for (int i = 0; i < CHILDREN; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            char out[PATH_MAX];
            bus_error_t err = {0};
            int rc = agent_unpack_rootfs(cache, s_layout, "latest", s_digest, out, &err);
            struct stat st;
            uint64_t inode = rc == BUS_OK && stat(out, &st) == 0 ? st.st_ino : 0;
            if (write(fds[1], &inode, sizeof inode) != sizeof inode)
                _exit(2);
            _exit(rc == BUS_OK ? 0 : 1);
        }
    }
    close(fds[1]);
    int ok = 0;
    for (int i = 0; i < CHILDREN; i++) {
        int wstatus;
        if (pids[i] > 0 && waitpid(pids[i], &wstatus, 0) == pids[i] &&
            WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)
            ok++;
    }
    uint64_t inodes[CHILDREN] = {0};
    for (int i = 0; i < CHILDREN; i++)
        if (read(fds[0], &inodes[i], sizeof inodes[i]) != sizeof inodes[i])
            inodes[i] = 0;
    close(fds[0]);
    T_EQ_INT(ok, CHILDREN);
    for (int i = 0; i < CHILDREN; i++) {
        T_ASSERT(inodes[i] != 0);
        T_EQ_INT(inodes[i], inodes[0]);
    }
    char list[1024];
    T_EQ_INT(s_list(cache, list, sizeof list), 2);
}

static void
test_broken_layout(void)
{
    //  A copy of the layout without its largest blob (the layer).
    char broken[300], command[1024];
    snprintf(broken, sizeof broken, "%s/broken-layout", s_tmp);
    snprintf(command, sizeof command,
             "cp -a '%s' '%s' && cd '%s/blobs/sha256' && rm -f \"$(ls -S | head -n 1)\"",
             s_layout, broken, broken);
    T_EQ_INT(system(command), 0);
    const char *cache = s_cache("broken");
    char out[PATH_MAX], list[1024];
    bus_error_t err = {0};
    T_EQ_INT(agent_unpack_rootfs(cache, broken, "latest", s_digest, out, &err),
             BUS_STATUS_INTERNAL);
    T_CONTAINS(err.detail, "no such file or directory");
    T_EQ_STR(out, "");
    //  Only the lock file is left: no image dir, no temp dir.
    T_EQ_INT(s_list(cache, list, sizeof list), 1);
    T_CONTAINS(list, ".lock");

    T_EQ_INT(agent_unpack_rootfs(cache, s_layout, "nosuchtag", s_digest, out, &err),
             BUS_STATUS_INTERNAL);
    T_CONTAINS(err.detail, "tag is not found");
    T_EQ_INT(s_list(cache, list, sizeof list), 1);

    char *path = strdup(getenv("PATH") ? getenv("PATH") : "");
    setenv("PATH", s_tmp, 1);
    int rc = agent_unpack_rootfs(cache, s_layout, "latest", s_digest, out, &err);
    setenv("PATH", path, 1);
    free(path);
    T_EQ_INT(rc, BUS_STATUS_INTERNAL);
    T_CONTAINS(err.detail, "cannot run umoci");
    T_EQ_INT(s_list(cache, list, sizeof list), 1);
}

static void
test_prune(void)
{
    const char *cache = s_cache("prune");
    const char *digests[] = {DIGEST_A, DIGEST_B, DIGEST_C, DIGEST_D, DIGEST_E};
    char out[PATH_MAX], path[PATH_MAX], list[2048];
    bus_error_t err = {0};
    for (size_t i = 0; i < 5; i++)
        T_EQ_INT(agent_unpack_rootfs(cache, s_layout, "latest", digests[i], out, &err),
                 BUS_OK);
    //  B is held by a kernel; D is the lower dir of a mounted overlay.
    int hold = agent_unpack_hold(cache, DIGEST_B, &err);
    T_ASSERT(hold >= 0);
    char upper[300], work[300], merged[300], options[1200];
    snprintf(upper, sizeof upper, "%s/upper", s_tmp);
    snprintf(work, sizeof work, "%s/work", s_tmp);
    snprintf(merged, sizeof merged, "%s/merged", s_tmp);
    T_ASSERT(mkdir(upper, 0755) == 0 && mkdir(work, 0755) == 0 &&
             mkdir(merged, 0755) == 0);
    snprintf(options, sizeof options, "lowerdir=%s/%s/rootfs,upperdir=%s,workdir=%s",
             cache, DIGEST_D + 7, upper, work);
    bool mounted = mount("overlay", merged, "overlay", 0, options) == 0;
    T_ASSERT(mounted);
    //  A crashed unpack's temp dir and a lock file with no image.
    snprintf(path, sizeof path, "%s/.unpack-%s.Xy12Zq", cache, DIGEST_E + 7);
    T_ASSERT(mkdir(path, 0700) == 0);
    T_EQ_INT(agent_unpack_hold(cache,
                               "sha256:"
                               "0123456789abcdef0123456789abcdef"
                               "0123456789abcdef0123456789abcdef",
                               &err),
             -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);

    const char *keep[] = {DIGEST_A, "not a digest", DIGEST_E};
    int removed = agent_unpack_prune(cache, keep, 3);
    T_EQ_INT(removed, 1); //  C
    T_ASSERT(s_exists(cache, DIGEST_A + 7));
    T_ASSERT(s_exists(cache, DIGEST_B + 7));
    T_ASSERT(!s_exists(cache, DIGEST_C + 7));
    T_ASSERT(s_exists(cache, DIGEST_D + 7));
    T_ASSERT(s_exists(cache, DIGEST_E + 7));
    T_EQ_INT(s_list(cache, list, sizeof list), 8); //  A B D E and their lock files
    T_ASSERT(!strstr(list, "cccc"));
    T_ASSERT(!strstr(list, ".unpack-"));
    T_ASSERT(!strstr(list, "0123456789abcdef"));

    //  Released and unmounted, B and D go; a held rootfs still reads.
    T_ASSERT(s_exists(merged, "bin/busybox"));
    T_EQ_INT(umount2(merged, 0), 0);
    close(hold);
    T_EQ_INT(agent_unpack_prune(cache, keep, 3), 2);
    T_EQ_INT(s_list(cache, list, sizeof list), 4);
    T_EQ_INT(agent_unpack_hold(cache, DIGEST_B, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    T_EQ_INT(agent_unpack_prune(cache, NULL, 0), 2);
    T_EQ_INT(s_list(cache, list, sizeof list), 0);
    T_EQ_INT(agent_unpack_prune(s_cache("nonexistent"), NULL, 0), 0);
}

static int
s_remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void) st;
    (void) ftw;
    return type == FTW_DP ? rmdir(path) : unlink(path);
}

//  Runs argv and waits; true on exit 0. Quiet.
static bool
s_run(const char *const *argv)
{
    pid_t pid = fork();
    if (pid == 0) {
        int null_fd = open("/dev/null", O_WRONLY);
        if (null_fd >= 0) {
            dup2(null_fd, 1);
            dup2(null_fd, 2);
        }
        execvp(argv[0], (char *const *) argv);
        _exit(127);
    }
    int wstatus;
    return pid > 0 && waitpid(pid, &wstatus, 0) == pid && WIFEXITED(wstatus) &&
           WEXITSTATUS(wstatus) == 0;
}

//  Copies or builds the busybox layout; NULL or why not.
static const char *
s_setup(void)
{
    if (geteuid() != 0)
        return "not root";
    const char *version[] = {"umoci", "--version", NULL};
    if (!s_run(version))
        return "no umoci on PATH";
    snprintf(s_layout, sizeof s_layout, "%s/layout", s_tmp);
    struct stat st;
    if (stat(IMAGE_SOURCE "/index.json", &st) == 0) {
        const char *copy[] = {"cp", "-a", IMAGE_SOURCE, s_layout, NULL};
        if (!s_run(copy))
            return "cannot copy " IMAGE_SOURCE;
    } else {
        const char *build[] = {"deploy/images/build", "busybox", s_layout, NULL};
        if (!s_run(build))
            return "no " IMAGE_SOURCE " and deploy/images/build busybox failed";
    }
    agent_image_t images[4] = {0};
    size_t count = agent_images_read_layout(s_layout, "busybox", images, 4);
    for (size_t i = 0; i < count; i++) {
        if (streq(images[i].tag, "latest"))
            snprintf(s_digest, sizeof s_digest, "%s", images[i].info.digest);
        agent_image_clear(&images[i]);
    }
    return s_digest[0] ? NULL : "the busybox layout has no latest tag";
}

int
main(void)
{
    bus_log_init("agent_unpack_test", "test", BUS_LOG_NOTICE);
    if (!mkdtemp(s_tmp)) {
        perror("mkdtemp");
        return 1;
    }
    T_RUN(test_invalid_digest);
    const char *missing = s_setup();
    if (missing) {
        T_RUN_SKIP(test_unpack_cases, missing);
    } else {
        T_RUN(test_unpack);
        T_RUN(test_reuse);
        T_RUN(test_concurrent);
        T_RUN(test_broken_layout);
        T_RUN(test_prune);
    }
    char merged[300];
    snprintf(merged, sizeof merged, "%s/merged", s_tmp);
    umount2(merged, MNT_DETACH);
    nftw(s_tmp, s_remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
    return T_DONE();
}
