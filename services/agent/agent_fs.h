/*  =========================================================================
    agent_fs - file-system chores the agent's modules share

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_FS_H_INCLUDED
#define AGENT_FS_H_INCLUDED

//  rm -rf path, never crossing into another file system (FTW_MOUNT): a mount
//  that failed to come off (a kernel's overlay, a bind) is never emptied
//  through. A missing path is fine. 0 or -1.
int agent_fs_remove_tree(const char *path);

#endif
