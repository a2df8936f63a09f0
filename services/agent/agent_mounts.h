/*  =========================================================================
    agent_mounts - the virtual folders a kernel bind-mounts, from kernel.create

    kernel.create's mounts field is a list the gateway resolved: one
    proto_kernel_mount_t per folder, {name, id, host, host_path,
    kernel_path, permission}. The gateway decides where each folder goes; the agent
    only checks the form, since the paths become bind mounts made as root:
    both paths absolute, clean (no "." or ".." component, no empty one, no
    trailing '/'), free of control characters and shorter than PATH_MAX; a
    kernel_path that is neither "/" nor AGENT_KERNEL_HOME, nor an ancestor
    of it, nor on, beneath or above a path the agent mounts itself (/proc,
    /dev, /sys, /etc/hosts, the runner, tini and AGENT_KERNEL_RUN_DIR), nor
    the same as, beneath or above another entry's (a nested mount point
    would be made inside the outer folder on the host); permission "ro"
    (read-only), "rw" or "wd" (both read-write). At create time every
    host_path must be a directory, not a symlink.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_MOUNTS_H_INCLUDED
#define AGENT_MOUNTS_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include "bus.h"

//  Most entries one kernel.create may ask for.
#define AGENT_MOUNTS_MAX 64
//  Longest folder name, in bytes.
#define AGENT_MOUNTS_NAME_MAX 255

//  One folder to bind: host_path appears at kernel_path in the container.
typedef struct {
    char *name;        //  the folder's name, for messages
    char *host_path;   //  absolute directory on the agent's host
    char *kernel_path; //  absolute path in the container
    bool readonly;     //  permission "ro"
} agent_mount_t;

//  The checked list, owned: items[0..count).
typedef struct {
    agent_mount_t *items;
    size_t count;
} agent_mounts_t;

//  ---------------------------------------------------------------------------
//  Copies and checks kernel.create's mounts (items[0..count), none when
//  count is 0). *mounts_p gets a fresh list (count 0 when none); caller owns
//  it (agent_mounts_destroy). Returns BUS_OK, or BUS_STATUS_INVALID with err
//  naming the entry that breaks a rule (*mounts_p then NULL).
int agent_mounts_from_list(const proto_kernel_mount_t *items,
                           size_t count,
                           agent_mounts_t **mounts_p,
                           bus_error_t *err);

//  Frees the list and its strings. Idempotent, NULLs the pointer.
void agent_mounts_destroy(agent_mounts_t **self_p);

//  ---------------------------------------------------------------------------
//  Checks the form of count entries (the rules above, which from_list applies),
//  so whoever builds a container from a list made elsewhere can check it
//  too. BUS_OK, or BUS_STATUS_INVALID with err naming the entry.
int agent_mounts_check(const agent_mount_t *items, size_t count, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Checks, just before the container is made, that every host_path is a
//  directory and not a symlink (lstat). BUS_OK, or with err naming the
//  entry: BUS_STATUS_NOT_FOUND when one is missing or not a directory,
//  BUS_STATUS_INTERNAL when it cannot be looked at.
int agent_mounts_check_hosts(const agent_mounts_t *self, bus_error_t *err);

#endif
