/*  =========================================================================
    agent_unpack - the cache of unpacked image root filesystems

    Each image is unpacked once, by umoci, into
    <cache_dir>/<hex of the manifest digest>/rootfs, the read-only lower dir
    of every overlay of that image. An unpack runs in a temporary dir under
    cache_dir and is renamed into place only once it is whole, so a rootfs
    that can be seen is complete.

    Locking rule: <cache_dir>/<hex>.lock guards <hex>. An unpack holds an
    exclusive flock while it works; a kernel holds a shared flock (from
    agent_unpack_hold) for as long as its overlay is mounted; prune takes an
    exclusive non-blocking flock and skips what it cannot lock. Prune also
    skips a rootfs that any overlay in /proc/self/mountinfo names as a lower
    dir, which covers kernels an agent restart left mounted without a lock.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_UNPACK_H_INCLUDED
#define AGENT_UNPACK_H_INCLUDED

#include "bus.h"

//  The program that unpacks images, found on PATH.
#define AGENT_UNPACK_UMOCI "umoci"

//  ---------------------------------------------------------------------------
//  Unpacks layout:tag, whose manifest digest is digest ("sha256:" + 64
//  lowercase hex), into cache_dir unless it is there already, and writes the
//  rootfs path into out. Safe against concurrent callers, threads or
//  processes: one unpacks, the others wait and reuse. Returns BUS_OK, or
//  BUS_STATUS_INVALID for a bad digest or an over-long path, or
//  BUS_STATUS_INTERNAL with umoci's message; a failure leaves nothing behind.
//  Needs root. Logs the time each unpack takes.
int agent_unpack_rootfs(const char *cache_dir,
                        const char *layout,
                        const char *tag,
                        const char *digest,
                        char out[PATH_MAX],
                        bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Takes the shared lock that keeps digest's rootfs from being pruned. Call it
//  after agent_unpack_rootfs and before mounting; the caller owns the returned
//  descriptor and closes it once the overlay is unmounted. Returns the
//  descriptor, or -1 with err: BUS_STATUS_NOT_FOUND when the rootfs was
//  pruned in between (unpack again and retry), BUS_STATUS_INVALID for a bad
//  digest, BUS_STATUS_INTERNAL for a failed syscall.
int agent_unpack_hold(const char *cache_dir, const char *digest, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Removes every unpacked image whose digest is not among the n keep_digests
//  (images gone from the store), and leftovers of crashed unpacks, skipping
//  whatever is locked or mounted. Returns how many images were removed, or -1
//  when cache_dir cannot be read (a missing cache_dir is 0).
int agent_unpack_prune(const char *cache_dir, const char *const *keep_digests, size_t n);

#endif
