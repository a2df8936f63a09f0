/*  =========================================================================
    sp_git_checkout - a commit's tree, out of a pack, into a folder

    The tree is walked twice. The plan (no writes) reads every tree and
    refuses the whole checkout before anything is made for: a name that is
    empty, ".", "..", ".git" (any case), longer than SP_FS_NAME_MAX or
    holding a '/' or a control character; a mode other than 40000 (tree),
    100644, 100755, 100664 (files), 120000 (symbolic link) and 160000
    (submodule); a tree deeper than SP_GIT_TREE_DEPTH; more entries than
    max_entries, or files holding more than max_bytes; a symbolic link
    whose target is absolute, empty, holds a NUL, has ".." anywhere but at
    its start, or climbs out of the folder (base_depth says how deep the
    checkout lies in it); a name twice in one tree; a path too long
    beneath the directory it goes into. Submodules are counted and left
    out.

    The run writes into the directory at path (made empty by the caller)
    through the folder's sp_fs: a file is written into a staging file,
    given 0755 or 0644 and renamed into place, as an upload is; a second
    entry of one name, should one reach it, is refused (CONFLICT), never
    replaces the first.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_GIT_CHECKOUT_H_INCLUDED
#define SP_GIT_CHECKOUT_H_INCLUDED

#include "sp_fs.h"
#include "sp_git_pack.h"

#define SP_GIT_TREE_DEPTH 64          //  deepest directory of a checkout
#define SP_GIT_WALK_MAX   (64u << 20) //  bytes of trees held at once (one per level)
#define SP_GIT_TREES_KEPT (64u << 20) //  bytes of trees kept by name for the walk

typedef struct {
    uint64_t max_entries; //  files, directories and links
    uint64_t max_bytes;   //  the files' bytes
    size_t base_depth;    //  components of the checkout's path in the folder
} sp_git_checkout_limits_t;

typedef struct {
    uint64_t entries; //  files + dirs + links
    uint64_t files, dirs, links, submodules;
    uint64_t bytes;
} sp_git_checkout_counts_t;

//  Told of each entry made (its count so far).
typedef void(sp_git_progress_fn)(void *arg, uint64_t entries);

//  ---------------------------------------------------------------------------
//  Checks the whole of tree (in pack) against limits, writing nothing, and
//  counts it into *counts: what the run would refuse is refused here, a
//  name twice in one tree and, when path (the directory the run will
//  write into; may be NULL) is given, a path too long beneath it. stop
//  (asked before each entry; may be NULL) gets arg. 0, or -1 with err
//  (INVALID: the detail names the entry and why; or stop's).
int sp_git_checkout_plan(sp_git_pack_t *pack,
                         const uint8_t tree[SP_GIT_SHA_LEN],
                         const sp_git_checkout_limits_t *limits,
                         const char *path,
                         sp_git_stop_fn *stop,
                         void *arg,
                         sp_git_checkout_counts_t *counts,
                         bus_error_t *err);

//  Writes tree into directory path of fs (made empty by the caller),
//  through the staging file stage. stop (asked before each
//  entry) and progress may be NULL; arg goes to both. On failure what was
//  made stays: the caller removes path. 0, or -1 with err.
int sp_git_checkout_run(sp_git_pack_t *pack,
                        const uint8_t tree[SP_GIT_SHA_LEN],
                        const sp_git_checkout_limits_t *limits,
                        sp_fs_t *fs,
                        const char *path,
                        const char *stage,
                        sp_git_stop_fn *stop,
                        sp_git_progress_fn *progress,
                        void *arg,
                        sp_git_checkout_counts_t *counts,
                        bus_error_t *err);

#endif
