/*  =========================================================================
    bus_beneath - files reached only beneath a directory, whatever was
    planted in it

    A virtual folder (the storage-proxy) and a container's home directory
    (the agent) are trees that users and containers write into, so anything
    may wait there: symlinks to /etc or to "..", magic links through /proc,
    fifos, device nodes, hard links to files elsewhere. This is the one
    place that opens a path in such a tree:

      - bus_beneath_check_bytes refuses, before any lookup, what a path off
        the wire must never hold (NUL, control characters, too long);
      - bus_beneath_open resolves a normalised relative path from a
        descriptor of the root with openat2 (RESOLVE_BENEATH |
        RESOLVE_NO_MAGICLINKS, plus RESOLVE_NO_SYMLINKS when asked), so the
        kernel refuses any step out with no check-then-use race. On a kernel
        without openat2 (before 5.6) every caller gets the same fallback:
        one component at a time with O_NOFOLLOW, which follows no symlink
        at all: stricter than openat2, never weaker;
      - bus_beneath_reopen turns an O_PATH descriptor of a regular file into
        one for I/O through /proc/self/fd, after fstat said it is a regular
        file (and, when asked, one with no other hard link), then checks it
        is still that inode: a fifo cannot block the caller and a device
        node cannot open a host device.

    Paths given to bus_beneath_open are relative, already normalised by
    the caller (no "..", no empty component: its service decides what it
    accepts, such as the agent's /home/work prefix); "" is the root itself.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_BENEATH_H_INCLUDED
#define BUS_BENEATH_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "bus_status.h"

//  What a lookup may follow.
typedef enum {
    BUS_BENEATH_IN,    //  symlinks that stay beneath the root
    BUS_BENEATH_STRICT //  no symlink at all
} bus_beneath_policy_t;

//  Refuses a path as it came off the wire, length-delimited (a msgpack or
//  JSON string may hold a NUL that a C string would cut): NULL with a
//  length, an embedded NUL, control characters, and len > max. 0, or -1
//  with BUS_STATUS_INVALID in err.
int bus_beneath_check_bytes(const char *bytes, size_t len, size_t max, bus_error_t *err);

//  Opens rel (normalised, relative; "" is the root) beneath rootfd with
//  flags (O_CLOEXEC is added; with O_CREAT, mode) under policy. Returns
//  the descriptor, or -1 with errno: EXDEV or ELOOP for a lookup that would
//  leave the root or meet a symlink the policy refuses, or the call's own.
int bus_beneath_open(
    int rootfd, const char *rel, int flags, mode_t mode, bus_beneath_policy_t policy);

//  Reopens pathfd, an O_PATH descriptor, for I/O with flags when it is a
//  regular file (with single_link: one with no other hard link); *st gets
//  what fstat said. Returns the descriptor, or -1 with errno: EINVAL for
//  something other than a regular file, EMLINK for other hard links,
//  ESTALE when the file was swapped in between.
int bus_beneath_reopen(int pathfd, int flags, bool single_link, struct stat *st);

//  Sets err for a call (what) on rel that failed with errnum, in the words
//  both services answer with, and returns -1: a lookup that would leave the
//  root (EXDEV) says "path leads outside <root_name>" with escape_status
//  (the agent answers INVALID, the storage-proxy FORBIDDEN); the usual
//  errors map to NOT_FOUND, INVALID, CONFLICT, FORBIDDEN and UNAVAILABLE;
//  anything else is INTERNAL with the system's message.
int bus_beneath_error(bus_error_t *err,
                      int errnum,
                      const char *what,
                      const char *rel,
                      int escape_status,
                      const char *root_name);

//  Tests: take the fallback lookup even where openat2 exists.
void bus_beneath_force_walk(bool on);

#endif
