/*  =========================================================================
    agent_files - confined file access to a container's home directory

    The session file routes of Backend.AI (upload, download, download_single,
    files) reach /home/work of a kernel's container. The agent sees that
    directory on the host as <kernel dir>/bundle/rootfs/home/work, which is
    what these functions take as home. Client paths are relative to
    /home/work; an absolute path must start with /home/work. Every lookup is
    confined beneath home by openat2 (RESOLVE_BENEATH): "..", a symlink
    that leads out (absolute symlinks included) and magic links are refused.
    Only regular files and directories are read or written; device files,
    fifos and sockets are never opened.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_FILES_H_INCLUDED
#define AGENT_FILES_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "bus.h"

//  The container path of home: client paths are relative to it.
#define AGENT_FILES_HOME "/home/work"

//  The size Backend.AI allows one uploaded or downloaded file (1 MiB); a
//  default for the callers' max_size, not enforced here.
#define AGENT_FILES_DEFAULT_MAX_SIZE (1024 * 1024)

//  The deepest directory agent_files_tar descends into below its top.
#define AGENT_FILES_MAX_DEPTH 128

//  Mode of the directories agent_files_write creates, and of the file.
#define AGENT_FILES_DIR_MODE  0755
#define AGENT_FILES_FILE_MODE 0644

//  ---------------------------------------------------------------------------
//  Checks a path as it came off the wire, length-delimited (a msgpack or
//  JSON string may hold a NUL that a C string would silently cut): refuses
//  an embedded NUL, control characters and paths of PATH_MAX bytes or more
//  with BUS_STATUS_INVALID. 0 or -1.
int agent_files_check_name(const char *bytes, size_t len, bus_error_t *err);

//  Writes path's form relative to home into out, as every function here
//  resolves it: components joined by one '/', no "." and no leading
//  /home/work, "" for home itself. Refuses control characters, "..", long
//  names and absolute paths outside /home/work with BUS_STATUS_INVALID.
//  0 or -1.
int agent_files_normalize(const char *path, char out[PATH_MAX], bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Writes size bytes of data to path under home, atomically: into a temp
//  file in the target directory, then renamed over the name, so a reader
//  never sees a partial file. Missing parent directories are created (mode
//  AGENT_FILES_DIR_MODE, owned uid:gid); the file gets AGENT_FILES_FILE_MODE
//  and uid:gid ((uid_t) -1 and (gid_t) -1 leave ownership alone). An existing
//  name that is not a regular file (a directory, a symlink, a fifo) is
//  refused. Returns 0, or -1 with err: BUS_STATUS_INVALID for a bad path,
//  BUS_STATUS_NOT_FOUND for a missing home, BUS_STATUS_INTERNAL for I/O.
int agent_files_write(const char *home,
                      const char *path,
                      const void *data,
                      size_t size,
                      uid_t uid,
                      gid_t gid,
                      bus_error_t *err);

//  The same with the file's permission bits given (a dotfile's "755"): the
//  temp file is made 0600 and gets mode (0777 at most: never set-id bits)
//  only once it is whole.
int agent_files_write_mode(const char *home,
                           const char *path,
                           const void *data,
                           size_t size,
                           mode_t mode,
                           uid_t uid,
                           gid_t gid,
                           bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Reads the regular file path under home (a symlink that stays beneath home
//  is followed) into *data_p, *size_p. Caller owns *data_p (free); it is
//  NUL-terminated past size for convenience. Returns 0, or -1 with err:
//  BUS_STATUS_NOT_FOUND, BUS_STATUS_INVALID for a bad path, something other
//  than a regular file, or a file over max_size bytes.
int agent_files_read(const char *home,
                     const char *path,
                     size_t max_size,
                     uint8_t **data_p,
                     size_t *size_p,
                     bus_error_t *err);

//  ---------------------------------------------------------------------------
//  A ustar archive of path under home, a regular file or a directory tree,
//  named as `tar -C parent -cf - basename` names it (home itself is "work").
//  A symlink at the top that stays beneath home is followed; symlinks inside
//  the tree are stored as symlinks, other special files are left out. Names
//  over 100 bytes use the ustar prefix field or a GNU 'L' record (link
//  targets a 'K' record). Caller owns *data_p (free). Returns 0, or -1 with
//  err: BUS_STATUS_NOT_FOUND, BUS_STATUS_INVALID for a bad path, a tree
//  deeper than AGENT_FILES_MAX_DEPTH or an archive over max_size bytes.
int agent_files_tar(const char *home,
                    const char *path,
                    size_t max_size,
                    uint8_t **data_p,
                    size_t *size_p,
                    bus_error_t *err);

//  ---------------------------------------------------------------------------
//  The entries of directory path under home (not . and ..), sorted by name,
//  as the JSON text Backend.AI's list_files puts in "files": an array of
//  {"mode": "-rw-r--r--" (stat.filemode, of the entry itself, not a
//  symlink's target), "size": int, "ctime", "mtime", "atime": float seconds,
//  "filename": str}. Names that are not UTF-8 get U+FFFD for the bad bytes.
//  Caller owns *json_p (free). Returns 0, or -1 with err: BUS_STATUS_NOT_FOUND,
//  BUS_STATUS_INVALID for a bad path or something other than a directory.
int agent_files_list(const char *home, const char *path, char **json_p, bus_error_t *err);

#endif
