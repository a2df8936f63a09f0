/*  =========================================================================
    sp_clone - a folder's tree copied into another folder, off the loop

    What a clone does on its job's thread (sp_jobs): the source folder's
    tree is copied into the target's empty root with descriptors, never by
    path, so a symlink a container planted or swapped in cannot lead the
    copy out of either folder. Each directory is entered with O_NOFOLLOW,
    files are copied with copy_file_range (read and write where the kernel
    cannot), symlinks are copied as links, and fifos, sockets and devices
    are left out, as is the source's upload staging directory.

    What is made belongs to uid:gid when set (the containers' user): the
    copy keeps each entry's mode (less setuid and setgid) and times, not its
    owner, so a clone of a folder that holds files of root is wholly the
    containers' user's.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_CLONE_H_INCLUDED
#define SP_CLONE_H_INCLUDED

#include "bus.h"
#include "sp_jobs.h"

#define SP_CLONE_BUFFER     (1 << 20) //  read/write fallback of a copy
#define SP_CLONE_RANGE_STEP (1 << 30) //  bytes asked of one copy_file_range

//  ---------------------------------------------------------------------------
//  Copies the tree of directory src into directory dst (both absolute, both
//  existing; dst empty), giving what it makes to uid:gid ((uid_t) -1 and
//  (gid_t) -1: as created). Adds the bytes and entries copied to *bytes_p
//  and *entries_p, also when it fails. Gives up, BUS_STATUS_UNAVAILABLE,
//  once jobs is stopping. Runs on a job's thread: touches no database, node
//  or log. 0, or -1 with err (BUS_STATUS_UNAVAILABLE for a full disk).
int sp_clone_tree(const char *src,
                  const char *dst,
                  uid_t uid,
                  gid_t gid,
                  sp_jobs_t *jobs,
                  uint64_t *bytes_p,
                  uint64_t *entries_p,
                  bus_error_t *err);

#endif
