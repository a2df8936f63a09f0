/*  =========================================================================
    gw_dotfile - dotfiles of a keypair, a project and a domain

    Backend.AI 22.03's /user-config/dotfiles, /group-config/dotfiles and
    /domain-config/dotfiles (POST create, GET list or one by ?path=, PATCH
    update, DELETE): files of {path, permission, data} that every kernel of
    the owner finds in /home/work when it starts, the keypair's over the
    project's over the domain's for the same path. They live in the
    gateway's dotfiles table (migration 10); gw_session_create sends the
    merged list with session.create, and the agent writes it through the
    kernel's overlay root before the runner starts (agent_dotfiles).

    Who may: a keypair's own (or, through owner_access_key, a superadmin
    for any keypair and a domain admin for the keypairs of its domain); a
    domain's are read by its users and changed by its admins; a project's
    are read by its members and its domain's admins and changed by its
    domain's admins; a superadmin reads and changes all.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_DOTFILE_H_INCLUDED
#define GW_DOTFILE_H_INCLUDED

#include "bus.h"
#include "gw_request.h"

//  Backend.AI's limits: 100 dotfiles per owner, and an owner's whole list
//  (its compact JSON, [{"path","permission","data"}...], here where
//  Backend.AI measures its msgpack) at most 64 KiB, so one file's data is
//  under 64 KiB too. A session's merged list is then under three times that
//  (session.create's and kernel.create's dotfiles, 256 KiB).
#define GW_DOTFILE_COUNT_MAX 100
#define GW_DOTFILE_OWNER_MAX (64 * 1024)
//  Longest path, in bytes, and longest component of it.
#define GW_DOTFILE_PATH_MAX 1024
#define GW_DOTFILE_NAME_MAX 255

//  ---------------------------------------------------------------------------
//  The routes (gw_routes.c): one handler per kind of owner, dispatching on
//  the method.
void gw_dotfile_handle_user(gw_request_t *r);
void gw_dotfile_handle_group(gw_request_t *r);
void gw_dotfile_handle_domain(gw_request_t *r);

//  ---------------------------------------------------------------------------
//  Checks a dotfile path and writes its stored form to out: relative to
//  /home/work (a leading "/home/work/" is dropped), non-empty components
//  joined by '/', none "." or "..", no control character, not one of
//  Backend.AI's reserved names (.ssh, .ssh/authorized_keys, .jupyter,
//  .terminfo, .local, .config). BUS_OK or BUS_STATUS_INVALID with err.
int
gw_dotfile_path(const char *path, char out[GW_DOTFILE_PATH_MAX + 1], bus_error_t *err);

//  True for a permission Backend.AI accepts: three octal digits ("755").
bool gw_dotfile_permission_ok(const char *permission);

//  ---------------------------------------------------------------------------
//  The dotfiles a session of access_key in project group_id of domain
//  finds, as JSON rows {path, permission, data}: the keypair's, then the
//  project's and the domain's whose paths are not taken yet. *out is NULL
//  when there are none; caller decrefs it. mounts (kernel.create's folder list, or NULL)
//  must not mount a folder at a dotfile's path: BUS_STATUS_INVALID, as Backend.AI refuses
//  it. BUS_OK, or INTERNAL on a database error.
int gw_dotfile_resolve(bus_db_t *db,
                       const char *access_key,
                       const char *group_id,
                       const char *domain,
                       const char *mounts,
                       json_t **out,
                       bus_error_t *err);

#endif
