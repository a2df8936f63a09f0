/*  =========================================================================
    agent_overlay - the per-kernel overlayfs root

    Each kernel's root is an overlay: the unpacked image rootfs is the lower
    layer (read-only and shared by every kernel of that image), and the
    kernel's own upper/ and work/ dirs take every write, so the image never
    changes and removing the kernel dir removes everything the kernel wrote.
    Before mounting, the upper dir gets /home/work (owned 1000:1000) and the
    /opt/backplane/bin and /opt/backplane/run mount points, so the runtime
    never has to create them (it would create them in the root it is given).

    Where upper/ and work/ live is the agent's scratch type (Backend.AI's
    scratch-type). "hostdir": plain dirs in the kernel dir, on the host's
    disk, with no limit but the disk. "memory" (the default): a tmpfs of
    scratch-size bytes mounted at <kernel_dir>/scratch holds them, and
    <kernel_dir>/upper is a symlink to scratch/upper, so host paths into the
    upper layer stay the same. A kernel writing past the size gets ENOSPC;
    the host disk, the agent and the other kernels are not touched.

    Two more small tmpfs mounts, in both scratch types, keep the rest of what
    a kernel can write off the host's disk: <kernel_dir>/run (bound
    read-write at /opt/backplane/run, owned by the kernel's user; the
    runner's socket) and <kernel_dir>/log (the container's stdout and
    stderr, log/container.log, with <kernel_dir>/container.log a symlink to
    it). A kernel filling either gets ENOSPC there and nowhere else.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_OVERLAY_H_INCLUDED
#define AGENT_OVERLAY_H_INCLUDED

#include "bus.h"

//  The scratch types, as agent.scratch_type spells them (a config ENUM).
#define AGENT_OVERLAY_SCRATCH_MEMORY  "memory"
#define AGENT_OVERLAY_SCRATCH_HOSTDIR "hostdir"
#define AGENT_OVERLAY_SCRATCH_TYPES                                                      \
    AGENT_OVERLAY_SCRATCH_MEMORY "|" AGENT_OVERLAY_SCRATCH_HOSTDIR
//  Defaults, as config text and as the value used before agent_overlay_set_scratch.
#define AGENT_OVERLAY_SCRATCH_TYPE_DEFAULT       AGENT_OVERLAY_SCRATCH_MEMORY
#define AGENT_OVERLAY_SCRATCH_SIZE_DEFAULT       "1g"
#define AGENT_OVERLAY_SCRATCH_SIZE_DEFAULT_BYTES (INT64_C(1) << 30)
//  Bounds of a scratch size (bytes).
#define AGENT_OVERLAY_SCRATCH_SIZE_MIN (INT64_C(1) << 20)
#define AGENT_OVERLAY_SCRATCH_SIZE_MAX (INT64_C(1) << 46)
//  The tmpfs gets one inode per this many bytes of size, and at least the
//  minimum, so a kernel cannot pin kernel memory with millions of empty files.
#define AGENT_OVERLAY_SCRATCH_BYTES_PER_INODE 4096
#define AGENT_OVERLAY_SCRATCH_INODES_MIN      1024
//  The scratch mount point's name in the kernel dir.
#define AGENT_OVERLAY_SCRATCH_DIR "scratch"

//  The side mounts' names in the kernel dir, and their sizes and inodes.
#define AGENT_OVERLAY_RUN_DIR    "run"
#define AGENT_OVERLAY_RUN_SIZE   (INT64_C(1) << 20)
#define AGENT_OVERLAY_RUN_INODES 64
#define AGENT_OVERLAY_LOG_DIR    "log"
#define AGENT_OVERLAY_LOG_SIZE   (INT64_C(16) << 20)
#define AGENT_OVERLAY_LOG_INODES 16
//  The log's name, in the log dir and (as a symlink) in the kernel dir.
#define AGENT_OVERLAY_LOG_FILE "container.log"

//  ---------------------------------------------------------------------------
//  Set the scratch type and size that agent_overlay_mount uses from now on,
//  for the whole process (the agent calls it once at start with its config).
//  Until then: AGENT_OVERLAY_SCRATCH_TYPE_DEFAULT of
//  AGENT_OVERLAY_SCRATCH_SIZE_DEFAULT_BYTES. Returns 0, or -1 (and changes
//  nothing) for an unknown type or a size out of bounds.
int agent_overlay_set_scratch(const char *type, int64_t size);

//  ---------------------------------------------------------------------------
//  Make the kernel's scratch (see above) with upper/ and work/ in it, and
//  mount the overlay of lower on target, which must exist. Needs root. A
//  target that is already mounted is left as it is (a kernel taken back after
//  a restart keeps its root). Returns 0, or a bus_status_t with err filled
//  (BUS_STATUS_INVALID for a lower path that overlayfs options cannot carry,
//  BUS_STATUS_INTERNAL for a failed syscall); a failure leaves no mount.
int agent_overlay_mount(const char *lower,
                        const char *kernel_dir,
                        const char *target,
                        bus_error_t *err);

//  ---------------------------------------------------------------------------
//  agent_overlay_mount with this scratch type and size rather than the
//  process-wide ones. BUS_STATUS_INVALID for an unknown type or a bad size.
int agent_overlay_mount_scratch(const char *lower,
                                const char *kernel_dir,
                                const char *target,
                                const char *scratch_type,
                                int64_t scratch_size,
                                bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Make <kernel_dir>/run and <kernel_dir>/log, mount their tmpfs (nosuid,
//  nodev, noexec; run owned by AGENT_KERNEL_UID:GID, mode 0755; log root's,
//  0700) where none is mounted yet, so a kernel taken back after a restart
//  keeps its own, and make the container.log symlink. Needs root. Returns 0,
//  or BUS_STATUS_INTERNAL with err filled; a failure leaves no mount it made.
int agent_overlay_mount_side(const char *kernel_dir, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  What of <kernel_dir> does not depend on its image, made ahead of a create
//  (a spare kernel dir): the side mounts (agent_overlay_mount_side) and,
//  with the process-wide scratch settings, the scratch with upper/ and
//  work/. agent_overlay_mount_side and agent_overlay_mount find them made
//  and go on. Returns 0, or a bus_status_t with err filled; a failure leaves
//  no mount it made.
int agent_overlay_prepare(const char *kernel_dir, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Unmount target, then the scratch tmpfs its overlay wrote to (if any); a
//  target that is not mounted is not an error. A busy mount is detached
//  lazily. Returns 0 or -1.
int agent_overlay_unmount(const char *target);

//  ---------------------------------------------------------------------------
//  agent_overlay_unmount, and then also <kernel_dir>/scratch when it is still
//  mounted (an overlay that was never mounted or is gone already) and the
//  side mounts (run, log), so that the kernel dir holds no mount and can be
//  removed. Returns 0 or -1.
int agent_overlay_unmount_kernel(const char *kernel_dir, const char *target);

//  ---------------------------------------------------------------------------
//  True when path is a mount point in this process's mount namespace.
bool agent_overlay_is_mounted(const char *path);

#endif
