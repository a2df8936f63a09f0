/*  =========================================================================
    sp_git_pack - a strict reader of git pack files (version 2 and 3):
    the objects of a clone, found by their SHA-1

    The pack comes from a server a user named, so it is read as hostile.
    Opening it checks its trailing SHA-1, walks every object once (each
    header, each zlib stream inflated to exactly its declared size, every
    whole object's SHA-1 computed with OpenSSL's EVP over "<type> <size>\0"
    and its bytes), then resolves the deltas (ofs-delta and ref-delta, to a
    depth of SP_GIT_DELTA_DEPTH) to compute their objects' SHA-1 too, so
    every object later asked for by name is the one that name hashes. The
    SHA-1 is OpenSSL's plain one, without git's collision detection
    (sha1dc): acceptable here because the clone trusts the server for the
    content anyway (it sends whatever the repository holds); the hash only
    checks that the pack arrived whole and that names match bytes. A
    delta whose base is not in the pack (a thin pack, never asked for) is
    refused, and so is an object count over the limit, a stream that
    inflates past its size, a copy out of its base, a pack that does not
    end at its checksum.

    The file is mapped, not read into memory: what is held is the index of
    objects (about 64 bytes each), the objects being resolved (a chain of
    deltas is resolved from its base up, holding one base, one delta and
    its result, each at most SP_GIT_OBJECT_MAX) and a cache of delta bases
    (SP_GIT_CACHE_BYTES, room for a base of any size). A blob stored whole
    is inflated straight into its file. Every byte inflated, copied out of
    the cache or made by a delta counts against the pack's max_inflate, so
    a pack crafted to make its chains be resolved again and again ends in
    an error rather than in hours of work.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_GIT_PACK_H_INCLUDED
#define SP_GIT_PACK_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bus_status.h"
#include "sp_git_pkt.h"

#define SP_GIT_OBJECTS_MAX 1000000      //  objects in one pack
#define SP_GIT_OBJECT_MAX  (128u << 20) //  an object resolved in memory
#define SP_GIT_DELTA_DEPTH 1000         //  longest chain of deltas
#define SP_GIT_CACHE_BYTES (SP_GIT_OBJECT_MAX + (32u << 20)) //  delta bases kept
#define SP_GIT_CACHE_SLOTS 1024
//  A clone's max_inflate: SP_GIT_INFLATE_BASE, and SP_GIT_INFLATE_PER_BYTE
//  for each byte its checkout may write (each object is inflated at least
//  twice: once to name it, once to write it).
#define SP_GIT_INFLATE_BASE     (1ull << 30)
#define SP_GIT_INFLATE_PER_BYTE 8
#define SP_GIT_BUFFER           (64u << 10)
#define SP_GIT_STOP_EVERY       (4u << 20) //  bytes inflated between asking stop

typedef enum {
    SP_GIT_COMMIT = 1,
    SP_GIT_TREE = 2,
    SP_GIT_BLOB = 3,
    SP_GIT_TAG = 4,
} sp_git_type_t;

//  Called between objects while a pack is opened, and every
//  SP_GIT_STOP_EVERY bytes inflated while it is open: true to give up (it
//  sets err), so a long pack or one huge object stops at the fetch's
//  deadline or at shutdown.
typedef bool(sp_git_stop_fn)(void *arg, bus_error_t *err);

typedef struct _sp_git_pack_t sp_git_pack_t;

typedef struct {
    uint64_t max_objects; //  objects in the pack, 1 .. SP_GIT_OBJECTS_MAX
    uint64_t max_blob;    //  a blob stored whole (others: SP_GIT_OBJECT_MAX)
    uint64_t max_inflate; //  bytes inflated, copied and made while it is open
} sp_git_pack_limits_t;

//  ---------------------------------------------------------------------------
//  Reads and checks the pack in fd (size bytes; fd is borrowed and mapped,
//  so it must not shrink while the pack is open) within limits (copied):
//  an object whose header declares more than its limit is refused before
//  it is inflated. stop, when not NULL, is kept and asked while the pack
//  is open (it must outlive the pack, or be NULL). Caller owns return
//  value. NULL with err: BUS_STATUS_INVALID for anything the pack breaks
//  (the detail says what) or a limit it passes, BUS_STATUS_INTERNAL for no
//  memory.
sp_git_pack_t *sp_git_pack_open(int fd,
                                uint64_t size,
                                const sp_git_pack_limits_t *limits,
                                sp_git_stop_fn *stop,
                                void *stop_arg,
                                bus_error_t *err);

//  Unmaps the pack and frees its index; idempotent, NULLs the pointer.
void sp_git_pack_destroy(sp_git_pack_t **self_p);

//  Bytes inflated, copied out of the cache and made by deltas so far
//  (what max_inflate limits).
uint64_t sp_git_pack_inflated(const sp_git_pack_t *self);

//  Objects in the pack.
size_t sp_git_pack_count(const sp_git_pack_t *self);

//  The name of object index (in the pack's order; borrowed).
const uint8_t *sp_git_pack_sha(const sp_git_pack_t *self, size_t index);

//  ---------------------------------------------------------------------------
//  The type and size of object sha. 0, or -1 with BUS_STATUS_NOT_FOUND.
int sp_git_pack_stat(sp_git_pack_t *self,
                     const uint8_t sha[SP_GIT_SHA_LEN],
                     sp_git_type_t *type_p,
                     uint64_t *size_p,
                     bus_error_t *err);

//  Reads object sha, of at most max bytes (<= SP_GIT_OBJECT_MAX), into
//  *data_p (NUL-terminated past its size; caller frees it). 0, or -1 with
//  err: NOT_FOUND, INVALID (damaged, or larger than max).
int sp_git_pack_read(sp_git_pack_t *self,
                     const uint8_t sha[SP_GIT_SHA_LEN],
                     size_t max,
                     sp_git_type_t *type_p,
                     uint8_t **data_p,
                     size_t *size_p,
                     bus_error_t *err);

//  Writes the bytes of object sha to out (a descriptor): a whole object is
//  inflated straight into it, a delta resolved in memory first. 0, or -1
//  with err (UNAVAILABLE when out is full).
int sp_git_pack_write(sp_git_pack_t *self,
                      const uint8_t sha[SP_GIT_SHA_LEN],
                      int out,
                      bus_error_t *err);

//  The tree of commit sha (a tag peeled to its commit first, up to 8
//  tags) into tree. 0, or -1 with err (NOT_FOUND: not in the pack;
//  INVALID: not a commit, or malformed).
int sp_git_pack_tree_of(sp_git_pack_t *self,
                        const uint8_t sha[SP_GIT_SHA_LEN],
                        uint8_t tree[SP_GIT_SHA_LEN],
                        bus_error_t *err);

#endif
