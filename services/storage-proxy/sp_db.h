/*  =========================================================================
    sp_db - the storage-proxy's database: its schema and every statement

    Two tables. folders: one row per virtual folder this storage-proxy
    holds (id, volume, state, quota, usage, when usage was scanned), the
    source of truth for quotas; ownership and permissions are the
    gateway's. uploads_finished: the nonces of completed uploads, kept a
    while after their token expires so a client that lost the last answer
    learns from HEAD that its upload is complete.

    Functions over the node's bus_db (statements cached there, by text);
    transactions are the caller's (sp_folders wraps a row and its
    directory in one). Bytes are unsigned here and kept below 2^63 in
    SQLite's signed integers. A failed write is logged with what it was.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_DB_H_INCLUDED
#define SP_DB_H_INCLUDED

#include "bus.h"
#include "sp_volumes.h"

#define SP_FOLDER_READY     "ready"
#define SP_FOLDER_CLONING   "cloning"
#define SP_FOLDER_FAILED    "failed"
#define SP_FOLDER_STATE_MAX 15

//  One row of the folders table.
typedef struct {
    char id[SP_FOLDER_ID_LEN + 1];
    char volume[SP_VOLUME_NAME_MAX + 1];
    char state[SP_FOLDER_STATE_MAX + 1];
    uint64_t quota_bytes; //  0: none
    uint64_t usage_bytes;
    uint64_t file_count;
    bool over_quota;
    int64_t scanned_at; //  wall µs, 0: never
    int64_t created_at; //  wall µs
} sp_folder_t;

//  The schema, for the service's bus_service_t.
extern const bus_db_migration_t sp_db_migrations[];
#define SP_DB_MIGRATION_COUNT 1

//  A folder's id and volume, as sp_db_folders_ready lists them. Nonzero
//  stops the listing.
typedef int(sp_db_folder_fn)(void *arg, const char *id, const char *volume);

//  ---------------------------------------------------------------------------
//  Reads the row of normalized id into folder: BUS_OK, or with err
//  BUS_STATUS_NOT_FOUND or BUS_STATUS_INTERNAL.
int
sp_db_folder_load(bus_db_t *db, const char *id, sp_folder_t *folder, bus_error_t *err);

//  Inserts a folder's row, created and scanned at now (wall µs). 0 or -1.
int sp_db_folder_insert(bus_db_t *db,
                        const char *id,
                        const char *volume,
                        const char *state,
                        uint64_t quota_bytes,
                        int64_t now);

//  Deletes folder id's row. 0 or -1.
int sp_db_folder_delete(bus_db_t *db, const char *id);

//  Sets folder id's state. 0 or -1.
int sp_db_folder_set_state(bus_db_t *db, const char *id, const char *state);

//  Writes a scanned usage of folder id, and whether it is over its quota,
//  scanned at now (wall µs). 0 or -1.
int sp_db_folder_set_usage(bus_db_t *db,
                           const char *id,
                           uint64_t bytes,
                           uint64_t entries,
                           bool over_quota,
                           int64_t now);

//  Sets folder id's quota (0: none) and whether its usage is over it. 0 or -1.
int sp_db_folder_set_quota(bus_db_t *db,
                           const char *id,
                           uint64_t quota_bytes,
                           bool over_quota);

//  Adds bytes to folder id's usage (an upload chunk charged). 0 or -1.
int sp_db_folder_charge(bus_db_t *db, const char *id, uint64_t bytes);

//  Takes bytes from folder id's usage, not below 0 (a charge refunded).
//  0 or -1.
int sp_db_folder_refund(bus_db_t *db, const char *id, uint64_t bytes);

//  How many folders volume holds (any state); 0 on error.
uint64_t sp_db_folder_count(bus_db_t *db, const char *volume);

//  The bytes the folders of volume used at their last scans, summed; 0 on
//  error.
uint64_t sp_db_folder_usage(bus_db_t *db, const char *volume);

//  Calls fn for every ready folder, or for folder id when it is ready (id
//  not NULL). 0, or -1 when the table cannot be read.
int sp_db_folders_ready(bus_db_t *db, const char *id, sp_db_folder_fn *fn, void *arg);

//  Marks every folder still cloning failed (a crash cut their clone
//  short). 0 or -1.
int sp_db_folders_fail_clones(bus_db_t *db);

//  ---------------------------------------------------------------------------
//  Remembers that upload nonce (size bytes into folder id) completed, until
//  forget_at (unix seconds).
void sp_db_upload_finished(
    bus_db_t *db, const char *nonce, const char *id, uint64_t size, int64_t forget_at);

//  True when upload nonce of size bytes into folder id completed.
bool
sp_db_upload_was_finished(bus_db_t *db, const char *nonce, const char *id, uint64_t size);

//  Forgets the finished uploads whose forget_at is before now_s (unix s).
void sp_db_uploads_forget(bus_db_t *db, int64_t now_s);

#endif
