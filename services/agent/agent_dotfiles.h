/*  =========================================================================
    agent_dotfiles - the dotfiles a kernel finds in its home, from kernel.create

    kernel.create's dotfiles field is a list the gateway resolved from
    the owner's keypair, project and domain (Backend.AI's user, group and
    domain dotfiles): one proto_kernel_dotfile_t per file {path, permission,
    data}.
    The path is relative to /home/work (or absolute beneath it) and is
    normalized as agent_files does: no ".." and nothing outside home; the
    permission is three octal digits ("644"). They are written on the
    worker, into the kernel's home through its overlay root, after the
    overlay is mounted and before runc starts the runner, so the kernel's
    first process already sees them. Every lookup is confined beneath home
    (agent_files over bus_beneath): a symlink the image planted in its
    /home/work cannot send a write elsewhere on the host. Files and the
    directories made for them belong to the kernel's user (uid/gid 1000).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_DOTFILES_H_INCLUDED
#define AGENT_DOTFILES_H_INCLUDED

#include <stddef.h>
#include <sys/types.h>
#include "bus.h"

//  Most entries one kernel.create may carry: Backend.AI's 100 per owner,
//  for the keypair, its project and its domain.
#define AGENT_DOTFILES_MAX 300

//  One file to write.
typedef struct {
    char *path;  //  normalized, relative to /home/work, never ""
    mode_t mode; //  permission bits, 0..0777
    char *data;
    size_t size;
} agent_dotfile_t;

//  The checked list, owned: items[0..count).
typedef struct {
    agent_dotfile_t *items;
    size_t count;
} agent_dotfiles_t;

//  ---------------------------------------------------------------------------
//  Copies and checks kernel.create's dotfiles (items[0..count)). *dotfiles_p
//  gets a fresh list (count 0 when none); caller owns it
//  (agent_dotfiles_destroy). Returns BUS_OK, or BUS_STATUS_INVALID with err
//  naming the entry that breaks a rule (*dotfiles_p then NULL).
int agent_dotfiles_from_list(const proto_kernel_dotfile_t *items,
                             size_t count,
                             agent_dotfiles_t **dotfiles_p,
                             bus_error_t *err);

//  Frees the list and its strings. Idempotent, NULLs the pointer.
void agent_dotfiles_destroy(agent_dotfiles_t **self_p);

//  ---------------------------------------------------------------------------
//  Writes every file beneath home (the host path of the kernel's
//  /home/work), in order, owned uid:gid with its permission bits; a later
//  entry for the same path replaces an earlier one. Returns BUS_OK, or
//  stops at the first file that cannot be written (a directory or a
//  symlink in its place, a full disk) with err naming it.
int agent_dotfiles_write(const agent_dotfiles_t *self,
                         const char *home,
                         uid_t uid,
                         gid_t gid,
                         bus_error_t *err);

#endif
