/*  =========================================================================
    agent_fs - file-system chores the agent's modules share

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <fcntl.h>    //  open flags
#include <ftw.h>      //  nftw: the walk of agent_fs_remove_tree
#include <libgen.h>   //  dirname, basename: the temporary file's name
#include <sys/stat.h> //  lstat

static int
s_remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void) st;
    (void) ftw;
    if (type == FTW_DP)
        return rmdir(path) == 0 || errno == ENOENT ? 0 : -1;
    return unlink(path) == 0 || errno == ENOENT ? 0 : -1;
}

int
agent_fs_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    return nftw(path, s_remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

int
agent_fs_replace(const char *path, const void *data, size_t size)
{
    assert(path && (data || size == 0));
    char dir[PATH_MAX], base[PATH_MAX], temp[PATH_MAX * 2];
    snprintf(dir, sizeof dir, "%s", path);
    snprintf(base, sizeof base, "%s", path);
    snprintf(temp, sizeof temp, "%s/.%s.tmp", dirname(dir), basename(base));
    int fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return -1;
    bool ok = write(fd, data, size) == (ssize_t) size;
    ok = close(fd) == 0 && ok;
    if (!ok || rename(temp, path) != 0) {
        int saved = errno;
        unlink(temp);
        errno = saved;
        return -1;
    }
    return 0;
}
