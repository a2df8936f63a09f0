/*  =========================================================================
    agent_fs - file-system chores the agent's modules share

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_FS_H_INCLUDED
#define AGENT_FS_H_INCLUDED

#include <stddef.h>

//  rm -rf path, never crossing into another file system (FTW_MOUNT): a mount
//  that failed to come off (a kernel's overlay, a bind) is never emptied
//  through. A missing path is fine. 0 or -1.
int agent_fs_remove_tree(const char *path);

//  Replaces path with size bytes of data, whole or not at all: written to
//  ".<name>.tmp" beside it (never through a symlink) and renamed over it.
//  Not synced: the callers' files guard state that goes with the host.
//  0, or -1 with errno (the temporary file removed).
int agent_fs_replace(const char *path, const void *data, size_t size);

#endif
