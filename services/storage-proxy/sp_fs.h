/*  =========================================================================
    sp_fs - file operations confined beneath a virtual folder's root

    A virtual folder is a directory on a volume; users reach it through the
    folder API, uploads and downloads, and through containers that mount
    it, so anything may have been planted in it: symlinks to /etc or to
    "..", fifos, device nodes. Every path here is relative to the folder
    root, checked as it came off the wire (length-delimited, so an embedded
    NUL is refused rather than cut) and resolved by the kernel beneath a
    descriptor of the root with openat2, so no arrangement of symlinks
    leads out. Only regular files are opened for reading or writing.

    The folder keeps partial uploads in a staging directory beside it
    (SP_FS_STAGE_PREFIX, below), never inside it, so that no listing and no
    container that mounts the folder sees them: their bytes count in the
    folder's usage, not its entries. Files there that nobody wrote for long
    are abandoned uploads, which sp_fs_stage_expire removes.

    What a folder object makes (directories, upload files) can be given to
    an owner, the user containers run as: set on the new inode itself,
    never through a symlink. Renames keep what the entry had.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_FS_H_INCLUDED
#define SP_FS_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <sys/types.h>
#include "bus_status.h"

//  Longest relative path, in bytes (PATH_MAX less its NUL), and component.
#define SP_FS_PATH_MAX 4095
#define SP_FS_NAME_MAX 255

//  Modes of the directories and files made here (before the umask).
#define SP_FS_DIR_MODE  0755
#define SP_FS_FILE_MODE 0644

//  Partial uploads stage in a directory beside the folder, never inside it
//  (a container that mounts the folder would see them): for the folder at
//  <dir>/<name> it is <dir>/SP_FS_STAGE_PREFIX<name>, on the same file
//  system, so a complete upload is renamed into place. SP_FS_STAGE_DIR is
//  the name such uploads had at a folder's root before: still refused as
//  a client path and left out of the root's listing.
#define SP_FS_STAGE_PREFIX   ".uploads-"
#define SP_FS_STAGE_DIR      ".backplane-uploads"
#define SP_FS_STAGE_DIR_MODE 0700

//  Listing page sizes: the default for a limit of 0, and the most one call
//  returns (a larger limit is cut to it).
#define SP_FS_LIST_DEFAULT 1000
#define SP_FS_LIST_MAX     100000

//  Deepest directory a recursive delete or a usage scan descends into: each
//  level holds one descriptor.
#define SP_FS_MAX_DEPTH 256

//  sp_fs_mkdir flags.
#define SP_FS_MKDIR_PARENTS  1 //  create missing parents, as mkdir -p
#define SP_FS_MKDIR_EXIST_OK 2 //  an existing directory is success

typedef enum {
    SP_FS_FILE = 1,
    SP_FS_DIR = 2,
    SP_FS_SYMLINK = 3,
    SP_FS_OTHER = 4, //  fifo, socket, device: listed, never opened
} sp_fs_type_t;

//  What lstat says of one entry: a symlink is described, not followed.
typedef struct {
    sp_fs_type_t type;
    uint64_t size;
    uint32_t mode; //  permission bits (07777)
    struct timespec mtime;
    struct timespec ctime;
} sp_fs_info_t;

typedef struct {
    char *name; //  owned by the page
    sp_fs_info_t info;
} sp_fs_entry_t;

//  One page of a listing, sorted by name (bytewise).
typedef struct {
    sp_fs_entry_t *entries;
    size_t count;
    size_t total; //  entries in the whole directory
    bool more;    //  entries after the last one: ask again with it as cursor
} sp_fs_page_t;

typedef struct _sp_fs_t sp_fs_t;

//  ---------------------------------------------------------------------------
//  Opens the folder whose root directory is root (a path from our own
//  configuration; its last component must not be a symlink). Caller owns
//  return value. NULL with err: BUS_STATUS_NOT_FOUND, or BUS_STATUS_INTERNAL.
sp_fs_t *sp_fs_new(const char *root, bus_error_t *err);

//  Closes the folder; idempotent, NULLs the pointer.
void sp_fs_destroy(sp_fs_t **self_p);

//  ---------------------------------------------------------------------------
//  Gives what this object makes from now on (sp_fs_mkdir's directories, the
//  parents and file of an upload) to uid:gid; (uid_t) -1 or (gid_t) -1
//  leave that id as created, which is the default. A directory that cannot
//  be given away is removed again and the call fails.
void sp_fs_set_owner(sp_fs_t *self, uid_t uid, gid_t gid);

//  ---------------------------------------------------------------------------
//  Checks a client path (len bytes) and writes its normal form into out:
//  components joined by '/', "." components dropped, "" for the root.
//  Refuses, with BUS_STATUS_INVALID: a NUL or control character, an absolute
//  path, an empty component ("a//b", "a/"), "..", a component over
//  SP_FS_NAME_MAX or a path over SP_FS_PATH_MAX bytes, and a first component
//  naming SP_FS_STAGE_DIR. 0 or -1.
int sp_fs_check_path(const char *path,
                     size_t len,
                     char out[SP_FS_PATH_MAX + 1],
                     bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Describes path without following a final symlink (symlinks before it are
//  followed while they stay beneath the root). 0, or -1 with err.
int sp_fs_stat(
    sp_fs_t *self, const char *path, size_t len, sp_fs_info_t *info, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  One page of directory path: the limit (0: SP_FS_LIST_DEFAULT) smallest
//  names after the cursor (after, after_len bytes; empty for the first
//  page), so pages stay stable while entries come and go. One readdir pass
//  keeps the page in a bounded heap and only the page's entries are
//  stat'ed. An entry gone between readdir and stat is left out, so a page
//  can be short with more still set. Caller owns *page_p
//  (sp_fs_page_destroy). 0, or -1 with err.
int sp_fs_list(sp_fs_t *self,
               const char *path,
               size_t len,
               const char *after,
               size_t after_len,
               size_t limit,
               sp_fs_page_t **page_p,
               bus_error_t *err);

//  Frees a page and its names; idempotent, NULLs the pointer.
void sp_fs_page_destroy(sp_fs_page_t **self_p);

//  ---------------------------------------------------------------------------
//  Makes directory path (SP_FS_DIR_MODE), given to the owner. With
//  SP_FS_MKDIR_PARENTS missing parents are made too; with SP_FS_MKDIR_EXIST_OK an
//  existing directory is success; anything else there is BUS_STATUS_CONFLICT. 0, or -1
//  with err.
int sp_fs_mkdir(
    sp_fs_t *self, const char *path, size_t len, unsigned flags, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Makes a symbolic link at path holding target (a NUL-terminated string,
//  written as given: the caller decides which targets it allows; sp_fs
//  never follows one out of the folder anyway), given to the owner.
//  Something at path already is BUS_STATUS_CONFLICT. 0, or -1 with err.
int sp_fs_symlink(
    sp_fs_t *self, const char *target, const char *path, size_t len, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Renames or moves src to dst within the folder, never replacing dst
//  (BUS_STATUS_CONFLICT). A symlink is moved, not its target. Neither may be
//  the root. 0, or -1 with err.
int sp_fs_rename(sp_fs_t *self,
                 const char *src,
                 size_t src_len,
                 const char *dst,
                 size_t dst_len,
                 bus_error_t *err);

//  Moves src as `mv` and Backend.AI's move-file do: dst may end with '/',
//  and a dst that is an existing directory (or the root, ".") receives src
//  under its own name. Otherwise sp_fs_rename. 0, or -1 with err.
int sp_fs_move(sp_fs_t *self,
               const char *src,
               size_t src_len,
               const char *dst,
               size_t dst_len,
               bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Deletes path: a file, a symlink (not its target), or a directory, which
//  must be empty unless recursive (BUS_STATUS_CONFLICT). A recursive delete
//  never follows a symlink and stops at SP_FS_MAX_DEPTH. 0, or -1 with err.
int sp_fs_delete(
    sp_fs_t *self, const char *path, size_t len, bool recursive, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Opens regular file path for reading (symlinks followed while they stay
//  beneath the root) and sets *size_p. Anything else (a directory, a fifo, a
//  socket, a device) is refused with BUS_STATUS_INVALID before it is opened
//  for I/O. Returns the descriptor (caller closes it), or -1 with err.
int sp_fs_open_read(
    sp_fs_t *self, const char *path, size_t len, uint64_t *size_p, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Scans the whole folder without following symlinks: *bytes_p is the sum
//  of regular files' sizes (partial uploads included), *entries_p the
//  number of entries below the root. 0, or -1 with err.
int sp_fs_usage(sp_fs_t *self, uint64_t *bytes_p, uint64_t *entries_p, bus_error_t *err);

//  The staging directory of the folder at root, into out (size bytes). 0,
//  or -1 when it does not fit.
int sp_fs_stage_path(const char *root, char *out, size_t size);

//  ---------------------------------------------------------------------------
//  The upload primitive. name is a staging file name: 1 to SP_FS_NAME_MAX
//  bytes of [A-Za-z0-9._-], not "." or "..". Opens the staging file name for
//  reading and writing, creating the directory and then the file (O_EXCL)
//  when missing. Refuses a staging file that is a symlink, not a regular
//  file or has other hard links. The file is given to the owner
//  (sp_fs_set_owner), a resumed one too. Returns the descriptor (caller
//  closes it), or -1 with err.
int sp_fs_stage_open(sp_fs_t *self, const char *name, bus_error_t *err);

//  Renames staging file name onto path in one step (renameat2), making
//  missing parents (given to the owner); a file already at path is
//  replaced, a directory is not.
//  The caller fsyncs the data first; this fsyncs the target's directory.
//  0, or -1 with err (the staging file stays).
int sp_fs_stage_commit(
    sp_fs_t *self, const char *name, const char *path, size_t len, bus_error_t *err);

//  Removes staging file name; a missing one is success. 0, or -1 with err.
int sp_fs_stage_remove(sp_fs_t *self, const char *name, bus_error_t *err);

//  Told of each staging file sp_fs_stage_expire removed: its name
//  (borrowed), its size and when it was last written.
typedef void(sp_fs_expired_fn)(void *arg,
                               const char *name,
                               uint64_t bytes,
                               struct timespec mtime);

//  Removes the staging files of abandoned uploads: the regular files in
//  SP_FS_STAGE_DIR last written before before (wall-clock seconds). A file
//  an upload holds open (sp_upload locks it) is left, whatever its age, and
//  so are symlinks (never followed), directories and special files. fn, when
//  not NULL, runs for each file removed. No staging directory is success.
//  0, or -1 with err for the first failure (the other files are still
//  tried; those removed were told to fn).
int sp_fs_stage_expire(
    sp_fs_t *self, time_t before, sp_fs_expired_fn *fn, void *arg, bus_error_t *err);

//  Writes all len bytes of data to fd (a descriptor a fetch, an unpacking
//  or a clone writes a file through; -1 writes nothing: a check without
//  output), again after a short write or EINTR. 0, or -1 with err:
//  BUS_STATUS_UNAVAILABLE when the disk is full (ENOSPC, EDQUOT),
//  BUS_STATUS_INTERNAL otherwise.
int sp_fs_write_all(int fd, const void *data, size_t len, bus_error_t *err);

#endif
