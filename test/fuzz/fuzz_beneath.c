/*  =========================================================================
    fuzz_beneath - libFuzzer target for the confined lookup (bus_beneath)

    The agent's session files and the storage-proxy's folders open what
    clients name beneath a tree that containers write into. At start this
    target makes such a tree, with what a container could plant in it
    (symlinks out by absolute and relative paths and through /proc, symlinks
    in, a fifo, nested directories) next to a directory outside it, and
    records the inode of everything in the tree. Each input, cut at its
    first NUL as a C string would be, is opened O_PATH beneath the tree's
    root under both policies, with openat2 and with the fallback walk. The
    promise: whatever opens is an inode of the tree, never one outside it.
    A broken promise aborts, so the fuzzer reports it like a crash. The tree
    goes when the process exits.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <fcntl.h>
#include <ftw.h>

#define FUZZ_INODES_MAX 64

static char s_dir[] = "/tmp/fuzz_beneath.XXXXXX";
static int s_root = -1;
static struct {
    dev_t dev;
    ino_t ino;
} s_inodes[FUZZ_INODES_MAX];
static size_t s_inode_count;

static int
s_record(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void) path;
    (void) type;
    (void) ftw;
    if (s_inode_count < FUZZ_INODES_MAX) {
        s_inodes[s_inode_count].dev = st->st_dev;
        s_inodes[s_inode_count++].ino = st->st_ino;
    }
    return 0;
}

static void
s_remove_tree(void)
{
    char command[128];
    snprintf(command, sizeof command, "rm -rf %s", s_dir);
    if (system(command) != 0)
        fprintf(stderr, "fuzz_beneath: could not remove %s\n", s_dir);
}

static void
s_make_tree(void)
{
    if (!mkdtemp(s_dir))
        abort();
    char command[1024];
    snprintf(command, sizeof command,
             "set -e; cd %s; mkdir -p root/a/b/c outside/d; echo x > outside/secret;"
             " echo y > root/file; touch root/a/b/c/deep; mkfifo root/fifo;"
             " ln -s /etc root/abs; ln -s ../outside root/rel; ln -s ../../.. root/a/up;"
             " ln -s /proc/self/root root/proc; ln -s /proc/self/cwd root/a/cwd;"
             " ln -s file root/in; ln -s a/b root/ab; ln -s ../file root/a/back;"
             " ln -s loop root/loop; ln -s ../../outside/d root/a/b/out",
             s_dir);
    if (system(command) != 0)
        abort();
    atexit(s_remove_tree);
    char root[sizeof s_dir + 8];
    snprintf(root, sizeof root, "%s/root", s_dir);
    if (nftw(root, s_record, 16, FTW_PHYS) != 0)
        abort();
    s_root = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (s_root < 0)
        abort();
}

static void
s_check_inside(int fd)
{
    if (fd < 0)
        return;
    struct stat st;
    if (fstat(fd, &st) != 0)
        abort();
    close(fd);
    for (size_t i = 0; i < s_inode_count; i++)
        if (s_inodes[i].dev == st.st_dev && s_inodes[i].ino == st.st_ino)
            return;
    abort(); //  an inode from outside the tree
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (s_root < 0)
        s_make_tree();
    if (size > 256)
        return 0;
    char rel[257];
    memcpy(rel, data, size);
    rel[size] = '\0';
    for (int walk = 0; walk < 2; walk++) {
        bus_beneath_force_walk(walk);
        s_check_inside(bus_beneath_open(s_root, rel, O_PATH, 0, BUS_BENEATH_IN));
        s_check_inside(bus_beneath_open(s_root, rel, O_PATH, 0, BUS_BENEATH_STRICT));
        s_check_inside(
            bus_beneath_open(s_root, rel, O_PATH | O_DIRECTORY, 0, BUS_BENEATH_IN));
    }
    bus_beneath_force_walk(false);
    return 0;
}
