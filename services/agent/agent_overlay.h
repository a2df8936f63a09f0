/*  =========================================================================
    agent_overlay - the per-kernel overlayfs root

    Each kernel's root is an overlay: the unpacked image rootfs is the lower
    layer (read-only and shared by every kernel of that image), and the
    kernel's own upper/ and work/ dirs take every write, so the image never
    changes and removing the kernel dir removes everything the kernel wrote.
    Before mounting, the upper dir gets /home/work (owned 1000:1000) and the
    /opt/backplane/bin and /opt/backplane/run mount points, so the runtime
    never has to create them (it would create them in the root it is given).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_OVERLAY_H_INCLUDED
#define AGENT_OVERLAY_H_INCLUDED

#include "bus.h"

//  ---------------------------------------------------------------------------
//  Create kernel_dir/upper and kernel_dir/work (and the dirs above) and mount
//  the overlay of lower on target, which must exist. Needs root. Returns 0, or
//  a bus_status_t with err filled (BUS_STATUS_INVALID for a lower path that
//  overlayfs options cannot carry, BUS_STATUS_INTERNAL for a failed syscall).
int agent_overlay_mount(const char *lower,
                        const char *kernel_dir,
                        const char *target,
                        bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Unmount target; a target that is not mounted is not an error. A busy
//  mount is detached lazily. Returns 0 or -1.
int agent_overlay_unmount(const char *target);

//  ---------------------------------------------------------------------------
//  True when path is a mount point in this process's mount namespace.
bool agent_overlay_is_mounted(const char *path);

#endif
