/*  =========================================================================
    agent_fs - file-system chores the agent's modules share

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <ftw.h>      //  nftw: the walk of agent_fs_remove_tree
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
