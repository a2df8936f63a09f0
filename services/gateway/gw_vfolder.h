/*  =========================================================================
    gw_vfolder - virtual folders as the gateway keeps them: who owns each,
    who else may reach it and how, and how the API shows them

    A folder belongs to a user or to a project (Backend.AI's "group"). The
    caller reaches a folder
        as its owner                   permission wd
        by an accepted invitation      the invitation's permission
        as a member of its project     the folder's permission
        as an admin of its domain, or a superadmin: wd
    and nobody else sees it at all (not-found, never forbidden, so that a
    name reveals nothing). Permissions are ordered ro < rw < wd: ro reads
    and mounts read-only, rw also writes files and mounts read-write, wd
    also deletes the folder. Renaming, options, invitations and sharing
    belong to the owner (and admins). When a name is reachable more than
    one way, the first way above wins; names are unique per owner.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_VFOLDER_H_INCLUDED
#define GW_VFOLDER_H_INCLUDED

#include "gw_gql.h"
#include "gw_request.h"

#define GW_VFOLDER_NAME_MAX 64
#define GW_VFOLDER_ID_SIZE  33 //  32 hex digits and NUL

typedef enum {
    GW_VFOLDER_RO = 1,
    GW_VFOLDER_RW = 2,
    GW_VFOLDER_WD = 3,
} gw_vfolder_perm_t;

//  A folder the caller reached.
typedef struct {
    json_t *row; //  the vfolders row with group_name and user_email; owned
    char id[GW_VFOLDER_ID_SIZE];
    const char *name;         //  borrowed from row
    const char *host;         //  borrowed from row
    gw_vfolder_perm_t perm;   //  what the caller may do through the API
    gw_vfolder_perm_t innate; //  the folder's own (create -p, update-options -p)
    bool is_owner;            //  its user, or (for a project folder) an admin over it
    bool admin;               //  reached through an admin role: owner's rights
} gw_vfolder_t;

//  The permission the caller is shown and mounts the folder with by
//  default: an owner's is the folder's innate permission (as Backend.AI
//  shows vfolders.permission), which does not take the owner's rights
//  away; anyone else's is what it reached the folder with.
gw_vfolder_perm_t gw_vfolder_shown_perm(const gw_vfolder_t *folder);

//  "ro", "rw", "wd"; NULL for anything else.
const char *gw_vfolder_perm_str(gw_vfolder_perm_t perm);
//  The permission named text, or 0.
gw_vfolder_perm_t gw_vfolder_perm_parse(const char *text);

//  A name Backend.AI accepts: 1-64 characters, no '/', NUL or control
//  character, not "." or "..", not a reserved name of the kernel's home.
bool gw_vfolder_name_valid(const char *name);

//  The folder named name_or_id (a name, 32 hex digits or a UUID) among
//  those the caller reaches, in status ("ready", "delete-pending", ...).
//  BUS_OK, NOT_FOUND or INTERNAL with err. Clear out with gw_vfolder_clear.
int gw_vfolder_find(gw_ctx_t *ctx,
                    const char *name_or_id,
                    const char *status,
                    gw_vfolder_t *out,
                    bus_error_t *err);
void gw_vfolder_clear(gw_vfolder_t *folder);

//  The same, answering the problem itself: true when found and the caller
//  has at least perm (and, when owner, owns it); false after replying.
bool gw_vfolder_reach(gw_request_t *r,
                      const char *name_or_id,
                      const char *status,
                      gw_vfolder_perm_t perm,
                      bool owner,
                      gw_vfolder_t *out);

//  Every folder in status (NULL: any) the caller reaches
//  through ownership, invitation or a project (a domain admin also sees
//  the domain's project folders), as GET /folders lists them; group_id, when
//  not NULL, keeps only that project's. NULL on a database error.
json_t *gw_vfolder_list(gw_ctx_t *ctx, const char *group_id, const char *status);

//  The caller's own ready dot-prefixed folders (Backend.AI's automount
//  folders), by name: *out is an owned array of *count (clear each, then
//  free it). BUS_OK or INTERNAL.
int gw_vfolder_automounts(gw_ctx_t *ctx, gw_vfolder_t **out, size_t *count);

//  A folder as GET /folders shows it. Caller owns return value.
json_t *gw_vfolder_view(const gw_vfolder_t *folder);

//  Whether the caller may do what (Backend.AI's host permission, e.g.
//  "create-vfolder", "mount-in-session") on host: the union of the
//  allowed_vfolder_hosts of the caller's domain, its keypair's resource
//  policy and its projects (only group_id's, when not NULL).
bool gw_vfolder_host_allows(gw_ctx_t *ctx,
                            const char *host,
                            const char *group_id,
                            const char *what);

//  The hosts the caller may use at all (any permission), a JSON array of
//  strings, sorted. Caller owns return value.
json_t *gw_vfolder_allowed_hosts(gw_ctx_t *ctx, const char *group_id);

//  The id as 32 lowercase hex digits, from 32 hex digits or a UUID; false
//  when text is neither.
bool gw_vfolder_id_normal(const char *text, char out[GW_VFOLDER_ID_SIZE]);

//  Checks the owner's folder count (user_uuid's, or project group_id's)
//  and the quota asked for (bytes; 0: none asked) against the resource
//  policies, and sets *quota to what the new folder gets. BUS_OK, INVALID
//  or NOT_FOUND with err.
int gw_vfolder_check_limits(gw_ctx_t *ctx,
                            const char *user_uuid,
                            const char *group_id,
                            int64_t asked,
                            int64_t *quota,
                            bus_error_t *err);

//  The project named or numbered text in the caller's domain (any domain
//  for a superadmin): its id in id, and whether the caller administers it
//  in *admin. BUS_OK, NOT_FOUND.
int gw_vfolder_project(gw_ctx_t *ctx,
                       const char *text,
                       char id[GW_UUID_SIZE],
                       bool *admin,
                       bus_error_t *err);

//  Whether a folder called name is already reachable by the caller (ready,
//  or a clone under way).
bool gw_vfolder_name_taken(gw_ctx_t *ctx, const char *name);

//  Sets the folder's status; BUS_OK or CONFLICT (its name is taken again).
int gw_vfolder_set_status(gw_ctx_t *ctx,
                          const char *id,
                          const char *status,
                          bus_error_t *err);

//  Folder id's name, NULL when there is none (or id NULL or ""): for showing, no
//  check of who asks. Caller owns return value.
char *gw_vfolder_name(bus_db_t *db, const char *id);

//  The model store's folders in domain (model folders of its model-store
//  project; ready only: one in the trash or being cloned into is no card),
//  oldest first, at most max, each with its project's name as group_name.
//  NULL on a database error. Caller owns return value.
json_t *gw_vfolder_model_store(bus_db_t *db, const char *domain, int max);

//  The row of folder id goes: one the storage-proxy never made (a create
//  or a clone it refused), or purged. A database error is only logged:
//  what the caller answers does not depend on it.
void gw_vfolder_forget(bus_db_t *db, const char *id);

//  A clone's copy is done: its folder is ready (status_changed stays the
//  clone's start). A database error is only logged.
void gw_vfolder_clone_ready(bus_db_t *db, const char *id);

//  Folder id's quota as its storage-proxy set it, in bytes. A database
//  error is only logged (the storage-proxy's quota is the one enforced).
void gw_vfolder_set_max_size(bus_db_t *db, const char *id, uint64_t bytes);

#endif
