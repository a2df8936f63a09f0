/*  =========================================================================
    sp_folders - the virtual folders of a storage-proxy: their table, quotas,
    usage scans, clones and purges

    The storage-proxy keeps its own table of folders (id, volume, state,
    quota, usage, when usage was scanned), the source of truth for quotas;
    ownership and permissions are the gateway's. Usage is known two ways:
    every accepted upload chunk adds its bytes at once (sp_folders_charge,
    which refuses the chunk that would cross the quota), and a scan of
    every folder every storage.scan_ms replaces the sum with what is on
    disk, which also sees container writes through mounts, deletions and
    moves. A folder the scan finds over its quota is flagged and refuses
    every upload until a later scan (or a higher quota) finds it under.
    Each scan first removes the staging files of uploads abandoned for
    storage.staging_ttl_s (never one being written), logging each at info
    level, so their bytes stop counting.

    Clones (the copy is sp_clone's), scans and the removal of purged trees
    run on threads (sp_jobs); the table (sp_db) is only touched on the
    loop. What is made in a folder, clones included, is given to the
    configured owner (the containers' user), not kept as the source had it.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_FOLDERS_H_INCLUDED
#define SP_FOLDERS_H_INCLUDED

#include "bus.h"
#include "sp_db.h"
#include "sp_fs.h"
#include "sp_volumes.h"

//  Seconds a finished upload is remembered after its token's expiry, so a
//  client that lost the last 204 and asks HEAD learns it is complete.
#define SP_FOLDERS_UPLOAD_GRACE_S 3600

typedef struct _sp_folders_t sp_folders_t;

//  The answer of a clone or a rescan, on the loop: status BUS_OK with the
//  folder, or an error with its detail (folder NULL). BUS_STATUS_UNAVAILABLE
//  when the service stops first.
typedef void(sp_folders_reply_fn)(void *arg,
                                  int status,
                                  const char *detail,
                                  const sp_folder_t *folder);

//  ---------------------------------------------------------------------------
//  Takes the folders of node's database on volumes (borrowed; both outlive
//  it): marks clones a crash interrupted as failed, empties the volumes'
//  trash and scans usage now and every scan_ms; each scan first removes
//  upload staging files nobody wrote for staging_ttl_s seconds (> 0).
//  Caller owns return value. NULL with err.
sp_folders_t *sp_folders_new(bus_node_t *node,
                             sp_volumes_t *volumes,
                             int scan_ms,
                             int staging_ttl_s,
                             bus_error_t *err);

//  Stops the jobs (a clone in flight is answered UNAVAILABLE and its copy
//  marked failed). Idempotent, NULLs the pointer.
void sp_folders_destroy(sp_folders_t **self_p);

//  Gives what is made in folders from now on to uid:gid (storage.owner_uid,
//  storage.owner_gid): new folder roots, clones, and what the sp_fs objects
//  of sp_folders_open make. (uid_t) -1 or (gid_t) -1 leave that id as
//  created, which is the default.
void sp_folders_set_owner(sp_folders_t *self, uid_t uid, gid_t gid);

//  The volumes. Borrowed.
sp_volumes_t *sp_folders_volumes(sp_folders_t *self);

//  How many folders volume holds (any state).
uint64_t sp_folders_count(sp_folders_t *self, const char *volume);

//  ---------------------------------------------------------------------------
//  Looks up folder id (checked and normalized; volume, when not NULL or
//  empty, must be its volume). BUS_OK, or BUS_STATUS_INVALID /
//  BUS_STATUS_NOT_FOUND with err.
int sp_folders_get(sp_folders_t *self,
                   const char *id,
                   const char *volume,
                   sp_folder_t *folder,
                   bus_error_t *err);

//  The folder's volume. Borrowed; NULL if the configuration lost it.
const sp_volume_t *sp_folders_volume_of(sp_folders_t *self, const sp_folder_t *folder);

//  Writes the folder's directory on this host into out. BUS_OK, or an error
//  status with err.
int sp_folders_path(sp_folders_t *self,
                    const sp_folder_t *folder,
                    char *out,
                    size_t size,
                    bus_error_t *err);

//  Opens a ready folder for confined file operations (a cloning or failed
//  one is BUS_STATUS_CONFLICT). Caller owns return value. NULL with err.
sp_fs_t *sp_folders_open(sp_folders_t *self, const sp_folder_t *folder, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Makes an empty folder id on volume with quota_bytes (0: none) and fills
//  folder. BUS_OK, or with err: BUS_STATUS_INVALID (bad id),
//  BUS_STATUS_NOT_FOUND (no such volume), BUS_STATUS_CONFLICT (id exists).
int sp_folders_create(sp_folders_t *self,
                      const char *volume,
                      const char *id,
                      uint64_t quota_bytes,
                      sp_folder_t *folder,
                      bus_error_t *err);

//  Purges folder id: its row goes and its directory moves to the volume's
//  trash at once; the tree is removed by a job. A folder being cloned into
//  is BUS_STATUS_CONFLICT. BUS_OK or an error status with err.
int sp_folders_delete(sp_folders_t *self,
                      const char *id,
                      const char *volume,
                      bus_error_t *err);

//  Sets the quota of folder id (0: none) and whether its last known usage
//  is over it; fills folder. BUS_OK or an error status with err.
int sp_folders_set_quota(sp_folders_t *self,
                         const char *id,
                         const char *volume,
                         uint64_t quota_bytes,
                         sp_folder_t *folder,
                         bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Copies folder id into a new folder target_id on target_volume (NULL or
//  empty: the same volume) with quota_bytes (0: the source's). The target
//  exists at once in state cloning; fn runs when the copy ends (it reads
//  ready, or failed). BUS_OK when started (fn will run), else an error
//  status with err (fn will not run).
int sp_folders_clone(sp_folders_t *self,
                     const char *id,
                     const char *volume,
                     const char *target_id,
                     const char *target_volume,
                     uint64_t quota_bytes,
                     sp_folders_reply_fn *fn,
                     void *arg,
                     bus_error_t *err);

//  Scans folder id now; fn runs with its new usage. BUS_OK when started (fn
//  will run), else an error status with err.
int sp_folders_rescan(sp_folders_t *self,
                      const char *id,
                      const char *volume,
                      sp_folders_reply_fn *fn,
                      void *arg,
                      bus_error_t *err);

//  Folder id shrank (files deleted): rescan it soon, so a flag set for
//  being over quota lifts without waiting for the periodic scan.
void sp_folders_changed(sp_folders_t *self, const char *id);

//  ---------------------------------------------------------------------------
//  The quota check of an upload chunk, before any byte of it is taken (it
//  fits sp_upload_quota_fn too): refuses, with BUS_STATUS_FORBIDDEN and a
//  detail starting "folder quota exceeded", a folder flagged over quota or
//  bytes that would take its usage past the quota; else adds them to its
//  usage. 0 or -1.
int
sp_folders_charge(sp_folders_t *self, const char *id, uint64_t bytes, bus_error_t *err);

//  Gives back bytes charged to folder id that were never written (an upload
//  cut short).
void sp_folders_refund(sp_folders_t *self, const char *id, uint64_t bytes);

//  Remembers that upload nonce (size bytes into folder id) completed, until
//  expires (unix seconds) plus SP_FOLDERS_UPLOAD_GRACE_S.
void sp_folders_upload_finished(sp_folders_t *self,
                                const char *nonce,
                                const char *id,
                                uint64_t size,
                                int64_t expires);

//  True when upload nonce of size bytes into folder id completed.
bool sp_folders_upload_was_finished(sp_folders_t *self,
                                    const char *nonce,
                                    const char *id,
                                    uint64_t size);

#endif
