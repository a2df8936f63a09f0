/*  =========================================================================
    sp_upload - tus-style resumable upload of one file into a folder

    The official client PATCHes chunks at Upload-Offset and, after a
    failure, asks HEAD where to resume. The bytes received so far live in a
    staging file of the folder (sp_fs_stage_open), named after the token's
    nonce and the announced size, so the upload's whole state is on disk:
    a request opens it, appends, and lets go; a restarted storage-proxy
    resumes where the file ends. When the last byte arrives the file is
    fsynced and renamed onto the target in one step, so a partial upload
    never appears as a complete file. A staging file nobody writes for
    storage.staging_ttl_s is removed by the usage scan (sp_fs_stage_expire);
    one an upload holds open is never removed.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_UPLOAD_H_INCLUDED
#define SP_UPLOAD_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bus_status.h"
#include "sp_fs.h"

//  Longest upload id (the token nonce): [A-Za-z0-9_-] only.
#define SP_UPLOAD_ID_MAX 64

//  Opens of the staging file tried when the expiry of abandoned uploads
//  removes it between the open and the lock.
#define SP_UPLOAD_OPEN_ATTEMPTS 2

typedef struct _sp_upload_t sp_upload_t;

//  Asked before a chunk is written, with the bytes it would add to the
//  folder. Returns 0 when they fit, or -1 when the folder would go over its
//  quota; err may then be set, else it reads BUS_STATUS_FORBIDDEN "folder
//  quota exceeded". arg is the one given to sp_upload_set_quota.
typedef int(sp_upload_quota_fn)(void *arg, uint64_t bytes, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Opens the upload named id (the token's nonce) of size bytes onto path in
//  fs, creating its staging file or resuming it. fs is borrowed and must
//  outlive the upload. The target path is checked now: a bad path, one
//  that leads outside the folder, or an existing directory there is
//  refused before any byte is taken. One open upload per id at a time (a
//  second open gets BUS_STATUS_CONFLICT). An upload whose bytes are all
//  there (size 0, or a crash before the rename) completes here. Caller owns
//  return value. NULL with err.
sp_upload_t *sp_upload_open(sp_fs_t *fs,
                            const char *id,
                            const char *path,
                            size_t path_len,
                            uint64_t size,
                            bus_error_t *err);

//  Lets go of the upload; its staging file stays for a later resume.
//  Idempotent, NULLs the pointer.
void sp_upload_destroy(sp_upload_t **self_p);

//  ---------------------------------------------------------------------------
//  Sets the quota check every later append asks first; NULL for none.
void sp_upload_set_quota(sp_upload_t *self, sp_upload_quota_fn *fn, void *arg);

//  ---------------------------------------------------------------------------
//  Bytes received so far: what HEAD answers as Upload-Offset.
uint64_t sp_upload_offset(sp_upload_t *self);

//  The total size announced.
uint64_t sp_upload_size(sp_upload_t *self);

//  True once the file is in place at its target path.
bool sp_upload_done(sp_upload_t *self);

//  ---------------------------------------------------------------------------
//  Writes len bytes of data at offset, which must be the current offset
//  (else BUS_STATUS_CONFLICT, with the current offset in the detail and from
//  sp_upload_offset). A chunk is taken whole or not at all: one that goes
//  past the announced size (BUS_STATUS_INVALID), one the quota check refuses
//  or one that fails to write leaves the upload as it was. The chunk that
//  reaches the size completes the upload (fsync, then rename onto the
//  target); if that step fails the bytes stay and a later open retries it.
//  0, or -1 with err.
int sp_upload_append(
    sp_upload_t *self, uint64_t offset, const void *data, size_t len, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Abandons the upload: removes its staging file. The object then only
//  answers offset 0; destroy it. 0, or -1 with err.
int sp_upload_abort(sp_upload_t *self, bus_error_t *err);

#endif
