/*  =========================================================================
    bus_beneath_test - the confined lookup, with openat2 and with the
    fallback walk, against a tree with everything a container could plant:
    symlinks out (absolute, relative, through /proc), symlinks in, a fifo,
    a hard link to a file outside

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <fcntl.h>
#include "t.h"

static char s_dir[] = "/tmp/bus_beneath_test.XXXXXX";
static int s_root = -1;

static int
s_sh(const char *fmt, ...)
{
    char command[2048];
    va_list args;
    va_start(args, fmt);
    vsnprintf(command, sizeof command, fmt, args);
    va_end(args);
    return system(command);
}

//  Opens rel under policy and says whether it worked; the descriptor goes.
static bool
s_opens(const char *rel, int flags, bus_beneath_policy_t policy, int *errno_p)
{
    int fd = bus_beneath_open(s_root, rel, flags, 0644, policy);
    if (errno_p)
        *errno_p = fd < 0 ? errno : 0;
    if (fd >= 0)
        close(fd);
    return fd >= 0;
}

//  What both lookups must refuse, and what both must allow.
static void
s_confinement_cases(bool walking)
{
    int e = 0;
    const char *out[] = {"out_abs",
                         "out_rel",
                         "out_proc",
                         "..",
                         "dir/../..",
                         "../outside",
                         "dir/../../outside/secret",
                         "out_rel/x",
                         "out_abs_dir/passwd"};
    for (size_t i = 0; i < sizeof out / sizeof out[0]; i++) {
        for (int p = 0; p < 2; p++) {
            bool opened =
                s_opens(out[i], O_PATH, p ? BUS_BENEATH_STRICT : BUS_BENEATH_IN, &e);
            if (opened)
                printf("# %s: %s opened under policy %d\n", walking ? "walk" : "openat2",
                       out[i], p);
            T_ASSERT(!opened);
            T_ASSERT(e == EXDEV || e == ELOOP || e == ENOTDIR || e == ENOENT);
        }
    }
    const char *in[] = {"", "file", "dir", "dir/inner", "fifo"};
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        T_ASSERT(s_opens(in[i], O_PATH, BUS_BENEATH_IN, NULL));
        T_ASSERT(s_opens(in[i], O_PATH, BUS_BENEATH_STRICT, NULL));
    }
    //  A symlink that stays inside: openat2 follows it unless strict; the
    //  walk follows none (stricter, never weaker).
    T_EQ_INT(s_opens("in_link", O_PATH, BUS_BENEATH_IN, NULL), !walking);
    T_EQ_INT(s_opens("in_dir/inner", O_PATH, BUS_BENEATH_IN, NULL), !walking);
    T_ASSERT(!s_opens("in_link", O_PATH, BUS_BENEATH_STRICT, NULL));
    T_ASSERT(!s_opens("in_dir/inner", O_PATH, BUS_BENEATH_STRICT, NULL));
    //  Creating: beneath, never through a symlink.
    T_ASSERT(s_opens("dir/new", O_WRONLY | O_CREAT | O_EXCL, BUS_BENEATH_STRICT, NULL));
    T_ASSERT(
        !s_opens("in_dir/new2", O_WRONLY | O_CREAT | O_EXCL, BUS_BENEATH_STRICT, NULL));
    T_ASSERT(!s_opens("out_rel", O_WRONLY | O_CREAT, BUS_BENEATH_IN, NULL));
    T_EQ_INT(s_sh("test ! -e %s/outside/new2 && test ! -e %s/outside/x", s_dir, s_dir),
             0);
    T_EQ_INT(unlinkat(s_root, "dir/new", 0), 0);
}

static void
test_openat2(void)
{
    bus_beneath_force_walk(false);
    s_confinement_cases(false);
}

static void
test_walk_fallback(void)
{
    bus_beneath_force_walk(true);
    s_confinement_cases(true);
    bus_beneath_force_walk(false);
}

static void
test_reopen(void)
{
    struct stat st;
    int pathfd = bus_beneath_open(s_root, "file", O_PATH, 0, BUS_BENEATH_IN);
    T_ASSERT(pathfd >= 0);
    int fd = bus_beneath_reopen(pathfd, O_RDONLY, true, &st);
    T_ASSERT(fd >= 0);
    char buf[16] = "";
    T_EQ_INT(read(fd, buf, sizeof buf - 1), 6);
    T_EQ_STR(buf, "inside");
    close(fd);
    close(pathfd);
    //  A fifo is refused at once (opening it would block), as a directory is.
    const char *not_files[] = {"fifo", "dir", ""};
    for (size_t i = 0; i < 3; i++) {
        pathfd = bus_beneath_open(s_root, not_files[i], O_PATH, 0, BUS_BENEATH_IN);
        T_ASSERT(pathfd >= 0);
        errno = 0;
        T_EQ_INT(bus_beneath_reopen(pathfd, O_RDONLY, false, &st), -1);
        T_EQ_INT(errno, EINVAL);
        close(pathfd);
    }
    //  A hard link to a file outside is the same inode as that file: a
    //  writer that asks for a single link refuses it.
    pathfd = bus_beneath_open(s_root, "hard", O_PATH, 0, BUS_BENEATH_IN);
    T_ASSERT(pathfd >= 0);
    T_EQ_INT(bus_beneath_reopen(pathfd, O_RDWR, true, &st), -1);
    T_EQ_INT(errno, EMLINK);
    fd = bus_beneath_reopen(pathfd, O_RDONLY, false, &st);
    T_ASSERT(fd >= 0);
    close(fd);
    close(pathfd);
}

static void
test_check_bytes(void)
{
    bus_error_t err = {0};
    T_EQ_INT(bus_beneath_check_bytes("a/b c", 5, 10, &err), 0);
    T_EQ_INT(bus_beneath_check_bytes("\xc3\xa9t\xc3\xa9", 5, 10, &err), 0);
    T_EQ_INT(bus_beneath_check_bytes("", 0, 10, &err), 0);
    T_EQ_INT(bus_beneath_check_bytes("a\0b", 3, 10, &err), -1);
    T_CONTAINS(err.detail, "NUL character");
    T_EQ_INT(bus_beneath_check_bytes("a\nb", 3, 10, &err), -1);
    T_CONTAINS(err.detail, "control character");
    T_EQ_INT(bus_beneath_check_bytes("a\x7f", 2, 10, &err), -1);
    T_EQ_INT(bus_beneath_check_bytes("abcdefghijk", 11, 10, &err), -1);
    T_CONTAINS(err.detail, "over 10 bytes");
    T_EQ_INT(bus_beneath_check_bytes(NULL, 3, 10, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
}

static void
test_errors(void)
{
    bus_error_t err = {0};
    T_EQ_INT(
        bus_beneath_error(&err, EXDEV, "open", "a/b", BUS_STATUS_FORBIDDEN, "the folder"),
        -1);
    T_EQ_INT(err.status, BUS_STATUS_FORBIDDEN);
    T_EQ_STR(err.detail, "path leads outside the folder: a/b");
    bus_beneath_error(&err, ELOOP, "open", "l", BUS_STATUS_INVALID, "home");
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    bus_beneath_error(&err, ENOENT, "open", "", BUS_STATUS_INVALID, "home");
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    T_EQ_STR(err.detail, "no such file or directory: .");
    bus_beneath_error(&err, EDQUOT, "write", "f", BUS_STATUS_INVALID, "home");
    T_EQ_INT(err.status, BUS_STATUS_UNAVAILABLE);
    bus_beneath_error(&err, EIO, "read", "f", BUS_STATUS_INVALID, "home");
    T_EQ_INT(err.status, BUS_STATUS_INTERNAL);
    T_CONTAINS(err.detail, "read f: ");
}

int
main(void)
{
    bus_log_init("bus_beneath_test", NULL, BUS_LOG_ERROR);
    if (!mkdtemp(s_dir))
        return 1;
    if (s_sh("set -e; cd %s; mkdir -p root/dir outside; echo secret > outside/secret;"
             " printf inside > root/file; touch root/dir/inner; mkfifo root/fifo;"
             " ln -s /etc/passwd root/out_abs; ln -s /etc root/out_abs_dir;"
             " ln -s ../outside root/out_rel; ln -s /proc/self/root/etc/passwd "
             "root/out_proc;"
             " ln -s file root/in_link; ln -s dir root/in_dir;"
             " ln outside/secret root/hard",
             s_dir) != 0)
        return 1;
    char root[sizeof s_dir + 8];
    snprintf(root, sizeof root, "%s/root", s_dir);
    s_root = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    T_RUN(test_openat2);
    T_RUN(test_walk_fallback);
    T_RUN(test_reopen);
    T_RUN(test_check_bytes);
    T_RUN(test_errors);
    close(s_root);
    s_sh("rm -rf %s", s_dir);
    return T_DONE();
}
