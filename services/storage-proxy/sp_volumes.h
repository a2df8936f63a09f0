/*  =========================================================================
    sp_volumes - the volumes of a storage-proxy and where folders live on them

    A volume is a directory on this host (backend "local") named in the
    configuration (sp_config: storage.volumes). A folder on it is the
    directory <volume>/<first two hex digits of its id>/<id>, so no
    directory holds more than 1/256 of the folders; folders removed wait in
    <volume>/SP_VOLUMES_TRASH until their tree is gone. Folder ids are
    Backend.AI's: a UUID, written as 32 hex digits or 8-4-4-4-12, always
    kept as 32 lowercase hex digits.

    Quotas: where a volume is XFS they could be XFS project quotas, which
    also hold container writes; those are not set up yet, so every volume
    relies on the storage-proxy's checks on uploads and its periodic usage
    scans (sp_folders), and the start-up log says so.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_VOLUMES_H_INCLUDED
#define SP_VOLUMES_H_INCLUDED

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bus_status.h"

#define SP_VOLUMES_MAX      64  //  volumes one storage-proxy serves
#define SP_VOLUME_NAME_MAX  63  //  bytes of a volume's name
#define SP_VOLUME_HOST_MAX  191 //  bytes of "<proxy>:<volume>"
#define SP_VOLUMES_TRASH    ".trash"
#define SP_VOLUMES_DIR_MODE 0755
#define SP_FOLDER_ID_LEN    32 //  hex digits of a folder id

typedef struct {
    char name[SP_VOLUME_NAME_MAX + 1];
    char host[SP_VOLUME_HOST_MAX + 1]; //  "<proxy>:<name>"
    char backend[16];                  //  "local"
    char path[PATH_MAX];               //  absolute, as configured or under state_dir
    char fs_type[32];                  //  "xfs", "ext4", "tmpfs", ... ("unknown")
    bool xfs;
} sp_volume_t;

//  What statvfs says of a volume's file system.
typedef struct {
    uint64_t capacity; //  bytes
    uint64_t used;
    uint64_t available; //  to an unprivileged writer
} sp_volume_usage_t;

typedef struct _sp_volumes_t sp_volumes_t;

//  ---------------------------------------------------------------------------
//  Parses spec (storage.volumes: NAME=BACKEND:PATH[,...]), resolves each
//  relative PATH under state_dir and creates it, checks each absolute one
//  is a directory, makes the trash directories and learns each file
//  system's type. proxy names the hosts. Caller owns return value. NULL
//  with err: BUS_STATUS_INVALID for a bad spec (the detail names the
//  entry), BUS_STATUS_NOT_FOUND for a missing directory.
sp_volumes_t *sp_volumes_new(const char *spec,
                             const char *state_dir,
                             const char *proxy,
                             bus_error_t *err);

//  Idempotent, NULLs the pointer.
void sp_volumes_destroy(sp_volumes_t **self_p);

//  ---------------------------------------------------------------------------
//  The proxy name given to new. Borrowed.
const char *sp_volumes_proxy(sp_volumes_t *self);

//  How many volumes there are (at least one).
size_t sp_volumes_count(sp_volumes_t *self);

//  The index-th volume, in configuration order. Borrowed.
const sp_volume_t *sp_volumes_at(sp_volumes_t *self, size_t index);

//  The volume named name, or NULL. Borrowed.
const sp_volume_t *sp_volumes_find(sp_volumes_t *self, const char *name);

//  ---------------------------------------------------------------------------
//  Fills usage from statvfs of volume. 0, or -1 with err.
int
sp_volumes_usage(const sp_volume_t *volume, sp_volume_usage_t *usage, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Checks a folder id (32 hex digits, or a UUID with its dashes, any case)
//  and writes its 32 lowercase hex digits into out. 0, or -1 with err
//  (BUS_STATUS_INVALID).
int sp_volumes_check_id(const char *id, char out[SP_FOLDER_ID_LEN + 1], bus_error_t *err);

//  Writes the folder directory of id (as sp_volumes_check_id leaves it)
//  on volume into out. 0, or -1 when it does not fit.
int
sp_volumes_folder_path(const sp_volume_t *volume, const char *id, char *out, size_t size);

#endif
