//  GENERATED FROM proto/storage.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_storage - volumes, virtual folders and their files, served by the
    storage-proxy

    Structs and codecs of the storage domain. Included by proto.h: include
    bus.h, not this file. proto.h documents the functions every struct type T
    has (init, clear, check, write, writer for requests, encode, read, decode,
    print).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef PROTO_STORAGE_H_INCLUDED
#define PROTO_STORAGE_H_INCLUDED

//  Topics (events) and method names (RPC).
#define PROTO_STORAGE_VOLUMES            "storage.volumes"
#define PROTO_STORAGE_FOLDER_CREATE      "storage.folder.create"
#define PROTO_STORAGE_FOLDER_DELETE      "storage.folder.delete"
#define PROTO_STORAGE_FOLDER_CLONE       "storage.folder.clone"
#define PROTO_STORAGE_FOLDER_USAGE       "storage.folder.usage"
#define PROTO_STORAGE_FOLDER_QUOTA       "storage.folder.quota"
#define PROTO_STORAGE_FOLDER_MOUNT_PATH  "storage.folder.mount_path"
#define PROTO_STORAGE_FILES_LIST         "storage.files.list"
#define PROTO_STORAGE_FILES_READ         "storage.files.read"
#define PROTO_STORAGE_FILES_MKDIR        "storage.files.mkdir"
#define PROTO_STORAGE_FILES_RENAME       "storage.files.rename"
#define PROTO_STORAGE_FILES_MOVE         "storage.files.move"
#define PROTO_STORAGE_FILES_DELETE       "storage.files.delete"
#define PROTO_STORAGE_FILES_FETCH        "storage.files.fetch"
#define PROTO_STORAGE_FILES_FETCH_STATUS "storage.files.fetch_status"

//  ---------------------------------------------------------------------------
//  storage.volume, a nested value: one volume of this storage-proxy

typedef struct {
    //  The volume's name, e.g. volume1 (required, at most 64 bytes)
    const char *name;
    //  <proxy>:<volume>, as Backend.AI spells folder hosts (required, at most 192 bytes)
    const char *host;
    //  Local: a directory on this host (required, at most 32 bytes)
    const char *backend;
    //  Its directory on this host (at most 4096 bytes)
    const char *path;
    //  The file system under it: xfs, ext4, tmpfs, ... (at most 32 bytes)
    const char *fs_type;
    //  Backend.AI's: vfolder, quota (at most 16 items)
    const char *const *capabilities;
    size_t capabilities_count;
    //  Size of the file system (statvfs)
    uint64_t capacity_bytes;
    //  Bytes in use on the file system
    uint64_t used_bytes;
    //  Bytes an unprivileged writer may still use
    uint64_t available_bytes;
    //  Folders on this volume
    uint64_t folders;
    //  Quotas are XFS project quotas (false: usage scans)
    bool project_quota;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_volume_t;

#define PROTO_STORAGE_VOLUME_NAME_MAX         64
#define PROTO_STORAGE_VOLUME_HOST_MAX         192
#define PROTO_STORAGE_VOLUME_BACKEND_MAX      32
#define PROTO_STORAGE_VOLUME_PATH_MAX         4096
#define PROTO_STORAGE_VOLUME_FS_TYPE_MAX      32
#define PROTO_STORAGE_VOLUME_CAPABILITIES_MAX 16

void proto_storage_volume_init(proto_storage_volume_t *self);
void proto_storage_volume_clear(proto_storage_volume_t *self);
PROTO_MUST_USE int proto_storage_volume_check(const proto_storage_volume_t *self,
                                              bus_error_t *err);
PROTO_MUST_USE int proto_storage_volume_write(const proto_storage_volume_t *self,
                                              bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_storage_volume_encode(const proto_storage_volume_t *self);
int proto_storage_volume_read(proto_storage_volume_t *self,
                              const bus_value_t *map,
                              bus_error_t *err);
int proto_storage_volume_decode(proto_storage_volume_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err);
char *proto_storage_volume_print(const proto_storage_volume_t *self);

//  ---------------------------------------------------------------------------
//  storage.folder, a nested value: one virtual folder as the storage-proxy keeps it

typedef struct {
    //  32 lowercase hex digits (required, at most 64 bytes)
    const char *id;
    //  The volume it lives on (required, at most 64 bytes)
    const char *volume;
    //  <proxy>:<volume> (at most 192 bytes)
    const char *host;
    //  Ready, cloning, or failed (a clone that did not finish) (required, at most 16
    //  bytes)
    const char *state;
    //  Largest usage allowed; 0: none
    uint64_t quota_bytes;
    //  Bytes of its regular files (partial uploads included), from the last scan plus
    //  uploads since
    uint64_t usage_bytes;
    //  Entries below its root at the last scan
    uint64_t file_count;
    //  The last scan found it over its quota: uploads are refused until it shrinks
    bool over_quota;
    //  When its usage was last scanned (0: never) (microseconds since the epoch)
    int64_t scanned_at;
    //  When it was created (microseconds since the epoch)
    int64_t created_at;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_folder_t;

#define PROTO_STORAGE_FOLDER_ID_MAX     64
#define PROTO_STORAGE_FOLDER_VOLUME_MAX 64
#define PROTO_STORAGE_FOLDER_HOST_MAX   192
#define PROTO_STORAGE_FOLDER_STATE_MAX  16

void proto_storage_folder_init(proto_storage_folder_t *self);
void proto_storage_folder_clear(proto_storage_folder_t *self);
PROTO_MUST_USE int proto_storage_folder_check(const proto_storage_folder_t *self,
                                              bus_error_t *err);
PROTO_MUST_USE int proto_storage_folder_write(const proto_storage_folder_t *self,
                                              bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_storage_folder_encode(const proto_storage_folder_t *self);
int proto_storage_folder_read(proto_storage_folder_t *self,
                              const bus_value_t *map,
                              bus_error_t *err);
int proto_storage_folder_decode(proto_storage_folder_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err);
char *proto_storage_folder_print(const proto_storage_folder_t *self);

//  ---------------------------------------------------------------------------
//  storage.entry, a nested value: one directory entry; a symlink is described, not
//  followed

typedef struct {
    //  The entry's name (required, at most 255 bytes)
    const char *name;
    //  FILE, DIRECTORY, SYMLINK or OTHER (fifo, socket, device) (required, at most 16
    //  bytes)
    const char *type;
    //  Bytes
    uint64_t size;
    //  Permission bits (07777)
    uint64_t mode;
    //  Last modification (microseconds since the epoch)
    int64_t mtime;
    //  Last status change (microseconds since the epoch)
    int64_t ctime;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_entry_t;

#define PROTO_STORAGE_ENTRY_NAME_MAX 255
#define PROTO_STORAGE_ENTRY_TYPE_MAX 16

void proto_storage_entry_init(proto_storage_entry_t *self);
void proto_storage_entry_clear(proto_storage_entry_t *self);
PROTO_MUST_USE int proto_storage_entry_check(const proto_storage_entry_t *self,
                                             bus_error_t *err);
PROTO_MUST_USE int proto_storage_entry_write(const proto_storage_entry_t *self,
                                             bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_storage_entry_encode(const proto_storage_entry_t *self);
int proto_storage_entry_read(proto_storage_entry_t *self,
                             const bus_value_t *map,
                             bus_error_t *err);
int proto_storage_entry_decode(proto_storage_entry_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err);
char *proto_storage_entry_print(const proto_storage_entry_t *self);

//  ---------------------------------------------------------------------------
//  storage.result, a nested value: the outcome for one path of a request that names
//  several

typedef struct {
    //  The path as asked (required, at most 4096 bytes)
    const char *path;
    //  0 done, else a bus status (1 invalid, 2 not-found, 3 conflict, ...)
    uint64_t status;
    //  Why not (at most 512 bytes)
    const char *detail;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_result_t;

#define PROTO_STORAGE_RESULT_PATH_MAX   4096
#define PROTO_STORAGE_RESULT_DETAIL_MAX 512

void proto_storage_result_init(proto_storage_result_t *self);
void proto_storage_result_clear(proto_storage_result_t *self);
PROTO_MUST_USE int proto_storage_result_check(const proto_storage_result_t *self,
                                              bus_error_t *err);
PROTO_MUST_USE int proto_storage_result_write(const proto_storage_result_t *self,
                                              bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_storage_result_encode(const proto_storage_result_t *self);
int proto_storage_result_read(proto_storage_result_t *self,
                              const bus_value_t *map,
                              bus_error_t *err);
int proto_storage_result_decode(proto_storage_result_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err);
char *proto_storage_result_print(const proto_storage_result_t *self);

//  ---------------------------------------------------------------------------
//  storage.volumes request (idempotent): this storage-proxy's volumes with their host
//  names and usage, and the URL clients upload to and download from

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_volumes_req_t;

void proto_storage_volumes_req_init(proto_storage_volumes_req_t *self);
void proto_storage_volumes_req_clear(proto_storage_volumes_req_t *self);
PROTO_MUST_USE int proto_storage_volumes_req_check(const proto_storage_volumes_req_t *self,
                                                   bus_error_t *err);
PROTO_MUST_USE int proto_storage_volumes_req_write(const proto_storage_volumes_req_t *self,
                                                   bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_storage_volumes_req_writer(const proto_storage_volumes_req_t *self,
                                                              bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_storage_volumes_req_encode(const proto_storage_volumes_req_t *self);
int proto_storage_volumes_req_read(proto_storage_volumes_req_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err);
int proto_storage_volumes_req_decode(proto_storage_volumes_req_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err);
char *proto_storage_volumes_req_print(const proto_storage_volumes_req_t *self);

//  ---------------------------------------------------------------------------
//  storage.volumes reply (idempotent): this storage-proxy's volumes with their host names
//  and usage, and the URL clients upload to and download from

typedef struct {
    //  The proxy's name, the first half of host names (required, at most 128 bytes)
    const char *proxy;
    //  The client-facing HTTP endpoint: <url>/upload and <url>/download take tokens
    //  (empty: off) (at most 512 bytes)
    const char *url;
    //  Its volumes, the first being the default (at most 256 items)
    const proto_storage_volume_t *volumes;
    size_t volumes_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_volumes_rep_t;

#define PROTO_STORAGE_VOLUMES_REP_PROXY_MAX   128
#define PROTO_STORAGE_VOLUMES_REP_URL_MAX     512
#define PROTO_STORAGE_VOLUMES_REP_VOLUMES_MAX 256

void proto_storage_volumes_rep_init(proto_storage_volumes_rep_t *self);
void proto_storage_volumes_rep_clear(proto_storage_volumes_rep_t *self);
PROTO_MUST_USE int proto_storage_volumes_rep_check(const proto_storage_volumes_rep_t *self,
                                                   bus_error_t *err);
PROTO_MUST_USE int proto_storage_volumes_rep_write(const proto_storage_volumes_rep_t *self,
                                                   bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_storage_volumes_rep_encode(const proto_storage_volumes_rep_t *self);
int proto_storage_volumes_rep_read(proto_storage_volumes_rep_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err);
int proto_storage_volumes_rep_decode(proto_storage_volumes_rep_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err);
char *proto_storage_volumes_rep_print(const proto_storage_volumes_rep_t *self);

//  ---------------------------------------------------------------------------
//  storage.folder.create request (not idempotent): makes an empty folder on a volume; an
//  id that exists is a conflict

typedef struct {
    //  The volume (required, at most 64 bytes)
    const char *volume;
    //  The new folder's id (required, at most 64 bytes)
    const char *id;
    //  Its quota; 0: none
    uint64_t quota_bytes;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_folder_create_req_t;

#define PROTO_STORAGE_FOLDER_CREATE_REQ_VOLUME_MAX 64
#define PROTO_STORAGE_FOLDER_CREATE_REQ_ID_MAX     64

void proto_storage_folder_create_req_init(proto_storage_folder_create_req_t *self);
void proto_storage_folder_create_req_clear(proto_storage_folder_create_req_t *self);
PROTO_MUST_USE int proto_storage_folder_create_req_check(const proto_storage_folder_create_req_t *self,
                                                         bus_error_t *err);
PROTO_MUST_USE int proto_storage_folder_create_req_write(const proto_storage_folder_create_req_t *self,
                                                         bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_storage_folder_create_req_writer(const proto_storage_folder_create_req_t *self,
                                                                    bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_storage_folder_create_req_encode(const proto_storage_folder_create_req_t *self);
int proto_storage_folder_create_req_read(proto_storage_folder_create_req_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err);
int proto_storage_folder_create_req_decode(proto_storage_folder_create_req_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err);
char *
proto_storage_folder_create_req_print(const proto_storage_folder_create_req_t *self);

//  ---------------------------------------------------------------------------
//  storage.folder.create reply (not idempotent): makes an empty folder on a volume; an id
//  that exists is a conflict

typedef struct {
    //  The folder made (required)
    proto_storage_folder_t folder;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_folder_create_rep_t;

void proto_storage_folder_create_rep_init(proto_storage_folder_create_rep_t *self);
void proto_storage_folder_create_rep_clear(proto_storage_folder_create_rep_t *self);
PROTO_MUST_USE int proto_storage_folder_create_rep_check(const proto_storage_folder_create_rep_t *self,
                                                         bus_error_t *err);
PROTO_MUST_USE int proto_storage_folder_create_rep_write(const proto_storage_folder_create_rep_t *self,
                                                         bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_storage_folder_create_rep_encode(const proto_storage_folder_create_rep_t *self);
int proto_storage_folder_create_rep_read(proto_storage_folder_create_rep_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err);
int proto_storage_folder_create_rep_decode(proto_storage_folder_create_rep_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err);
char *
proto_storage_folder_create_rep_print(const proto_storage_folder_create_rep_t *self);

//  ---------------------------------------------------------------------------
//  storage.folder.delete request (not idempotent): purges a folder: it is gone at once,
//  its files are removed in the background

typedef struct {
    //  The folder (required, at most 64 bytes)
    const char *id;
    //  Its volume (checked when given) (at most 64 bytes)
    const char *volume;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_folder_delete_req_t;

#define PROTO_STORAGE_FOLDER_DELETE_REQ_ID_MAX     64
#define PROTO_STORAGE_FOLDER_DELETE_REQ_VOLUME_MAX 64

void proto_storage_folder_delete_req_init(proto_storage_folder_delete_req_t *self);
void proto_storage_folder_delete_req_clear(proto_storage_folder_delete_req_t *self);
PROTO_MUST_USE int proto_storage_folder_delete_req_check(const proto_storage_folder_delete_req_t *self,
                                                         bus_error_t *err);
PROTO_MUST_USE int proto_storage_folder_delete_req_write(const proto_storage_folder_delete_req_t *self,
                                                         bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_storage_folder_delete_req_writer(const proto_storage_folder_delete_req_t *self,
                                                                    bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_storage_folder_delete_req_encode(const proto_storage_folder_delete_req_t *self);
int proto_storage_folder_delete_req_read(proto_storage_folder_delete_req_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err);
int proto_storage_folder_delete_req_decode(proto_storage_folder_delete_req_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err);
char *
proto_storage_folder_delete_req_print(const proto_storage_folder_delete_req_t *self);

//  ---------------------------------------------------------------------------
//  storage.folder.delete reply (not idempotent): purges a folder: it is gone at once, its
//  files are removed in the background

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_folder_delete_rep_t;

void proto_storage_folder_delete_rep_init(proto_storage_folder_delete_rep_t *self);
void proto_storage_folder_delete_rep_clear(proto_storage_folder_delete_rep_t *self);
PROTO_MUST_USE int proto_storage_folder_delete_rep_check(const proto_storage_folder_delete_rep_t *self,
                                                         bus_error_t *err);
PROTO_MUST_USE int proto_storage_folder_delete_rep_write(const proto_storage_folder_delete_rep_t *self,
                                                         bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_storage_folder_delete_rep_encode(const proto_storage_folder_delete_rep_t *self);
int proto_storage_folder_delete_rep_read(proto_storage_folder_delete_rep_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err);
int proto_storage_folder_delete_rep_decode(proto_storage_folder_delete_rep_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err);
char *
proto_storage_folder_delete_rep_print(const proto_storage_folder_delete_rep_t *self);

//  ---------------------------------------------------------------------------
//  storage.folder.clone request (not idempotent): copies a folder's tree (files,
//  directories, symlinks as links; not partial uploads) to a new folder; answers once the
//  copy is done, the new folder reading cloning meanwhile

typedef struct {
    //  The source folder (required, at most 64 bytes)
    const char *id;
    //  Its volume (checked when given) (at most 64 bytes)
    const char *volume;
    //  The new folder's id (required, at most 64 bytes)
    const char *target_id;
    //  Where the copy goes (absent: the source's volume) (at most 64 bytes)
    const char *target_volume;
    //  The copy's quota (0: the source's)
    uint64_t quota_bytes;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_folder_clone_req_t;

#define PROTO_STORAGE_FOLDER_CLONE_REQ_ID_MAX            64
#define PROTO_STORAGE_FOLDER_CLONE_REQ_VOLUME_MAX        64
#define PROTO_STORAGE_FOLDER_CLONE_REQ_TARGET_ID_MAX     64
#define PROTO_STORAGE_FOLDER_CLONE_REQ_TARGET_VOLUME_MAX 64

void proto_storage_folder_clone_req_init(proto_storage_folder_clone_req_t *self);
void proto_storage_folder_clone_req_clear(proto_storage_folder_clone_req_t *self);
PROTO_MUST_USE int proto_storage_folder_clone_req_check(const proto_storage_folder_clone_req_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE int proto_storage_folder_clone_req_write(const proto_storage_folder_clone_req_t *self,
                                                        bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_storage_folder_clone_req_writer(const proto_storage_folder_clone_req_t *self,
                                                                   bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_storage_folder_clone_req_encode(const proto_storage_folder_clone_req_t *self);
int proto_storage_folder_clone_req_read(proto_storage_folder_clone_req_t *self,
                                        const bus_value_t *map,
                                        bus_error_t *err);
int proto_storage_folder_clone_req_decode(proto_storage_folder_clone_req_t *self,
                                          const void *data,
                                          size_t size,
                                          bus_error_t *err);
char *proto_storage_folder_clone_req_print(const proto_storage_folder_clone_req_t *self);

//  ---------------------------------------------------------------------------
//  storage.folder.clone reply (not idempotent): copies a folder's tree (files,
//  directories, symlinks as links; not partial uploads) to a new folder; answers once the
//  copy is done, the new folder reading cloning meanwhile

typedef struct {
    //  The new folder (required)
    proto_storage_folder_t folder;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_folder_clone_rep_t;

void proto_storage_folder_clone_rep_init(proto_storage_folder_clone_rep_t *self);
void proto_storage_folder_clone_rep_clear(proto_storage_folder_clone_rep_t *self);
PROTO_MUST_USE int proto_storage_folder_clone_rep_check(const proto_storage_folder_clone_rep_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE int proto_storage_folder_clone_rep_write(const proto_storage_folder_clone_rep_t *self,
                                                        bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_storage_folder_clone_rep_encode(const proto_storage_folder_clone_rep_t *self);
int proto_storage_folder_clone_rep_read(proto_storage_folder_clone_rep_t *self,
                                        const bus_value_t *map,
                                        bus_error_t *err);
int proto_storage_folder_clone_rep_decode(proto_storage_folder_clone_rep_t *self,
                                          const void *data,
                                          size_t size,
                                          bus_error_t *err);
char *proto_storage_folder_clone_rep_print(const proto_storage_folder_clone_rep_t *self);

//  ---------------------------------------------------------------------------
//  storage.folder.usage request (idempotent): a folder's usage and state; rescan scans it
//  now and answers when done

typedef struct {
    //  The folder (required, at most 64 bytes)
    const char *id;
    //  Its volume (checked when given) (at most 64 bytes)
    const char *volume;
    //  Scan it before answering
    bool rescan;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_folder_usage_req_t;

#define PROTO_STORAGE_FOLDER_USAGE_REQ_ID_MAX     64
#define PROTO_STORAGE_FOLDER_USAGE_REQ_VOLUME_MAX 64

void proto_storage_folder_usage_req_init(proto_storage_folder_usage_req_t *self);
void proto_storage_folder_usage_req_clear(proto_storage_folder_usage_req_t *self);
PROTO_MUST_USE int proto_storage_folder_usage_req_check(const proto_storage_folder_usage_req_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE int proto_storage_folder_usage_req_write(const proto_storage_folder_usage_req_t *self,
                                                        bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_storage_folder_usage_req_writer(const proto_storage_folder_usage_req_t *self,
                                                                   bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_storage_folder_usage_req_encode(const proto_storage_folder_usage_req_t *self);
int proto_storage_folder_usage_req_read(proto_storage_folder_usage_req_t *self,
                                        const bus_value_t *map,
                                        bus_error_t *err);
int proto_storage_folder_usage_req_decode(proto_storage_folder_usage_req_t *self,
                                          const void *data,
                                          size_t size,
                                          bus_error_t *err);
char *proto_storage_folder_usage_req_print(const proto_storage_folder_usage_req_t *self);

//  ---------------------------------------------------------------------------
//  storage.folder.usage reply (idempotent): a folder's usage and state; rescan scans it
//  now and answers when done

typedef struct {
    //  The folder (required)
    proto_storage_folder_t folder;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_folder_usage_rep_t;

void proto_storage_folder_usage_rep_init(proto_storage_folder_usage_rep_t *self);
void proto_storage_folder_usage_rep_clear(proto_storage_folder_usage_rep_t *self);
PROTO_MUST_USE int proto_storage_folder_usage_rep_check(const proto_storage_folder_usage_rep_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE int proto_storage_folder_usage_rep_write(const proto_storage_folder_usage_rep_t *self,
                                                        bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_storage_folder_usage_rep_encode(const proto_storage_folder_usage_rep_t *self);
int proto_storage_folder_usage_rep_read(proto_storage_folder_usage_rep_t *self,
                                        const bus_value_t *map,
                                        bus_error_t *err);
int proto_storage_folder_usage_rep_decode(proto_storage_folder_usage_rep_t *self,
                                          const void *data,
                                          size_t size,
                                          bus_error_t *err);
char *proto_storage_folder_usage_rep_print(const proto_storage_folder_usage_rep_t *self);

//  ---------------------------------------------------------------------------
//  storage.folder.quota request (idempotent): sets a folder's quota (0: none); whether it
//  is now over quota follows from its last known usage

typedef struct {
    //  The folder (required, at most 64 bytes)
    const char *id;
    //  Its volume (checked when given) (at most 64 bytes)
    const char *volume;
    //  The new quota; 0: none
    uint64_t quota_bytes;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_folder_quota_req_t;

#define PROTO_STORAGE_FOLDER_QUOTA_REQ_ID_MAX     64
#define PROTO_STORAGE_FOLDER_QUOTA_REQ_VOLUME_MAX 64

void proto_storage_folder_quota_req_init(proto_storage_folder_quota_req_t *self);
void proto_storage_folder_quota_req_clear(proto_storage_folder_quota_req_t *self);
PROTO_MUST_USE int proto_storage_folder_quota_req_check(const proto_storage_folder_quota_req_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE int proto_storage_folder_quota_req_write(const proto_storage_folder_quota_req_t *self,
                                                        bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_storage_folder_quota_req_writer(const proto_storage_folder_quota_req_t *self,
                                                                   bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_storage_folder_quota_req_encode(const proto_storage_folder_quota_req_t *self);
int proto_storage_folder_quota_req_read(proto_storage_folder_quota_req_t *self,
                                        const bus_value_t *map,
                                        bus_error_t *err);
int proto_storage_folder_quota_req_decode(proto_storage_folder_quota_req_t *self,
                                          const void *data,
                                          size_t size,
                                          bus_error_t *err);
char *proto_storage_folder_quota_req_print(const proto_storage_folder_quota_req_t *self);

//  ---------------------------------------------------------------------------
//  storage.folder.quota reply (idempotent): sets a folder's quota (0: none); whether it
//  is now over quota follows from its last known usage

typedef struct {
    //  The folder (required)
    proto_storage_folder_t folder;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_folder_quota_rep_t;

void proto_storage_folder_quota_rep_init(proto_storage_folder_quota_rep_t *self);
void proto_storage_folder_quota_rep_clear(proto_storage_folder_quota_rep_t *self);
PROTO_MUST_USE int proto_storage_folder_quota_rep_check(const proto_storage_folder_quota_rep_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE int proto_storage_folder_quota_rep_write(const proto_storage_folder_quota_rep_t *self,
                                                        bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_storage_folder_quota_rep_encode(const proto_storage_folder_quota_rep_t *self);
int proto_storage_folder_quota_rep_read(proto_storage_folder_quota_rep_t *self,
                                        const bus_value_t *map,
                                        bus_error_t *err);
int proto_storage_folder_quota_rep_decode(proto_storage_folder_quota_rep_t *self,
                                          const void *data,
                                          size_t size,
                                          bus_error_t *err);
char *proto_storage_folder_quota_rep_print(const proto_storage_folder_quota_rep_t *self);

//  ---------------------------------------------------------------------------
//  storage.folder.mount_path request (idempotent): the directory on the storage host that
//  an agent bind-mounts for a session

typedef struct {
    //  The folder (required, at most 64 bytes)
    const char *id;
    //  Its volume (checked when given) (at most 64 bytes)
    const char *volume;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_folder_mount_path_req_t;

#define PROTO_STORAGE_FOLDER_MOUNT_PATH_REQ_ID_MAX     64
#define PROTO_STORAGE_FOLDER_MOUNT_PATH_REQ_VOLUME_MAX 64

void
proto_storage_folder_mount_path_req_init(proto_storage_folder_mount_path_req_t *self);
void
proto_storage_folder_mount_path_req_clear(proto_storage_folder_mount_path_req_t *self);
PROTO_MUST_USE int proto_storage_folder_mount_path_req_check(const proto_storage_folder_mount_path_req_t *self,
                                                             bus_error_t *err);
PROTO_MUST_USE int proto_storage_folder_mount_path_req_write(const proto_storage_folder_mount_path_req_t *self,
                                                             bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_storage_folder_mount_path_req_writer(const proto_storage_folder_mount_path_req_t *self,
                                                                        bus_error_t *err);
PROTO_MUST_USE zframe_t *proto_storage_folder_mount_path_req_encode(const proto_storage_folder_mount_path_req_t *self);
int proto_storage_folder_mount_path_req_read(proto_storage_folder_mount_path_req_t *self,
                                             const bus_value_t *map,
                                             bus_error_t *err);
int proto_storage_folder_mount_path_req_decode(proto_storage_folder_mount_path_req_t *self,
                                               const void *data,
                                               size_t size,
                                               bus_error_t *err);
char *proto_storage_folder_mount_path_req_print(const proto_storage_folder_mount_path_req_t *self);

//  ---------------------------------------------------------------------------
//  storage.folder.mount_path reply (idempotent): the directory on the storage host that
//  an agent bind-mounts for a session

typedef struct {
    //  Absolute host path of the folder root (required, at most 4096 bytes)
    const char *path;
    //  <proxy>:<volume> (at most 192 bytes)
    const char *host;
    //  The volume's backend (at most 32 bytes)
    const char *backend;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_folder_mount_path_rep_t;

#define PROTO_STORAGE_FOLDER_MOUNT_PATH_REP_PATH_MAX    4096
#define PROTO_STORAGE_FOLDER_MOUNT_PATH_REP_HOST_MAX    192
#define PROTO_STORAGE_FOLDER_MOUNT_PATH_REP_BACKEND_MAX 32

void
proto_storage_folder_mount_path_rep_init(proto_storage_folder_mount_path_rep_t *self);
void
proto_storage_folder_mount_path_rep_clear(proto_storage_folder_mount_path_rep_t *self);
PROTO_MUST_USE int proto_storage_folder_mount_path_rep_check(const proto_storage_folder_mount_path_rep_t *self,
                                                             bus_error_t *err);
PROTO_MUST_USE int proto_storage_folder_mount_path_rep_write(const proto_storage_folder_mount_path_rep_t *self,
                                                             bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_storage_folder_mount_path_rep_encode(const proto_storage_folder_mount_path_rep_t *self);
int proto_storage_folder_mount_path_rep_read(proto_storage_folder_mount_path_rep_t *self,
                                             const bus_value_t *map,
                                             bus_error_t *err);
int proto_storage_folder_mount_path_rep_decode(proto_storage_folder_mount_path_rep_t *self,
                                               const void *data,
                                               size_t size,
                                               bus_error_t *err);
char *proto_storage_folder_mount_path_rep_print(const proto_storage_folder_mount_path_rep_t *self);

//  ---------------------------------------------------------------------------
//  storage.files.list request (idempotent): one page of a directory, sorted by name; ask
//  again with cursor set to the reply's cursor while more is true

typedef struct {
    //  The folder (required, at most 64 bytes)
    const char *id;
    //  Its volume (checked when given) (at most 64 bytes)
    const char *volume;
    //  The directory (empty: the root) (at most 4096 bytes)
    const char *path;
    //  The last name of the previous page (empty: from the start) (at most 255 bytes)
    const char *cursor;
    //  Entries per page (0: 1000) (at most 100000)
    uint64_t limit;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_files_list_req_t;

#define PROTO_STORAGE_FILES_LIST_REQ_ID_MAX     64
#define PROTO_STORAGE_FILES_LIST_REQ_VOLUME_MAX 64
#define PROTO_STORAGE_FILES_LIST_REQ_PATH_MAX   4096
#define PROTO_STORAGE_FILES_LIST_REQ_CURSOR_MAX 255

void proto_storage_files_list_req_init(proto_storage_files_list_req_t *self);
void proto_storage_files_list_req_clear(proto_storage_files_list_req_t *self);
PROTO_MUST_USE int proto_storage_files_list_req_check(const proto_storage_files_list_req_t *self,
                                                      bus_error_t *err);
PROTO_MUST_USE int proto_storage_files_list_req_write(const proto_storage_files_list_req_t *self,
                                                      bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_storage_files_list_req_writer(const proto_storage_files_list_req_t *self,
                                                                 bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_storage_files_list_req_encode(const proto_storage_files_list_req_t *self);
int proto_storage_files_list_req_read(proto_storage_files_list_req_t *self,
                                      const bus_value_t *map,
                                      bus_error_t *err);
int proto_storage_files_list_req_decode(proto_storage_files_list_req_t *self,
                                        const void *data,
                                        size_t size,
                                        bus_error_t *err);
char *proto_storage_files_list_req_print(const proto_storage_files_list_req_t *self);

//  ---------------------------------------------------------------------------
//  storage.files.list reply (idempotent): one page of a directory, sorted by name; ask
//  again with cursor set to the reply's cursor while more is true

typedef struct {
    //  The page (at most 100000 items)
    const proto_storage_entry_t *entries;
    size_t entries_count;
    //  Entries in the whole directory
    uint64_t total;
    //  Entries follow this page
    bool more;
    //  Where the next page starts (when more) (at most 255 bytes)
    const char *cursor;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_files_list_rep_t;

#define PROTO_STORAGE_FILES_LIST_REP_ENTRIES_MAX 100000
#define PROTO_STORAGE_FILES_LIST_REP_CURSOR_MAX  255

void proto_storage_files_list_rep_init(proto_storage_files_list_rep_t *self);
void proto_storage_files_list_rep_clear(proto_storage_files_list_rep_t *self);
PROTO_MUST_USE int proto_storage_files_list_rep_check(const proto_storage_files_list_rep_t *self,
                                                      bus_error_t *err);
PROTO_MUST_USE int proto_storage_files_list_rep_write(const proto_storage_files_list_rep_t *self,
                                                      bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_storage_files_list_rep_encode(const proto_storage_files_list_rep_t *self);
int proto_storage_files_list_rep_read(proto_storage_files_list_rep_t *self,
                                      const bus_value_t *map,
                                      bus_error_t *err);
int proto_storage_files_list_rep_decode(proto_storage_files_list_rep_t *self,
                                        const void *data,
                                        size_t size,
                                        bus_error_t *err);
char *proto_storage_files_list_rep_print(const proto_storage_files_list_rep_t *self);

//  ---------------------------------------------------------------------------
//  storage.files.read request (idempotent): the bytes of one small regular file of a
//  folder (a model's definition); INVALID when it is larger than max

typedef struct {
    //  The folder (required, at most 64 bytes)
    const char *id;
    //  Its volume (checked when given) (at most 64 bytes)
    const char *volume;
    //  The file, relative to the folder's root (required, at most 4096 bytes)
    const char *path;
    //  The most bytes the caller takes (0: 65536) (at most 1048576)
    uint64_t max;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_files_read_req_t;

#define PROTO_STORAGE_FILES_READ_REQ_ID_MAX     64
#define PROTO_STORAGE_FILES_READ_REQ_VOLUME_MAX 64
#define PROTO_STORAGE_FILES_READ_REQ_PATH_MAX   4096

void proto_storage_files_read_req_init(proto_storage_files_read_req_t *self);
void proto_storage_files_read_req_clear(proto_storage_files_read_req_t *self);
PROTO_MUST_USE int proto_storage_files_read_req_check(const proto_storage_files_read_req_t *self,
                                                      bus_error_t *err);
PROTO_MUST_USE int proto_storage_files_read_req_write(const proto_storage_files_read_req_t *self,
                                                      bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_storage_files_read_req_writer(const proto_storage_files_read_req_t *self,
                                                                 bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_storage_files_read_req_encode(const proto_storage_files_read_req_t *self);
int proto_storage_files_read_req_read(proto_storage_files_read_req_t *self,
                                      const bus_value_t *map,
                                      bus_error_t *err);
int proto_storage_files_read_req_decode(proto_storage_files_read_req_t *self,
                                        const void *data,
                                        size_t size,
                                        bus_error_t *err);
char *proto_storage_files_read_req_print(const proto_storage_files_read_req_t *self);

//  ---------------------------------------------------------------------------
//  storage.files.read reply (idempotent): the bytes of one small regular file of a folder
//  (a model's definition); INVALID when it is larger than max

typedef struct {
    //  The whole file (at most 1048576 bytes)
    const uint8_t *data;
    size_t data_size;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_files_read_rep_t;

#define PROTO_STORAGE_FILES_READ_REP_DATA_MAX 1048576

void proto_storage_files_read_rep_init(proto_storage_files_read_rep_t *self);
void proto_storage_files_read_rep_clear(proto_storage_files_read_rep_t *self);
PROTO_MUST_USE int proto_storage_files_read_rep_check(const proto_storage_files_read_rep_t *self,
                                                      bus_error_t *err);
PROTO_MUST_USE int proto_storage_files_read_rep_write(const proto_storage_files_read_rep_t *self,
                                                      bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_storage_files_read_rep_encode(const proto_storage_files_read_rep_t *self);
int proto_storage_files_read_rep_read(proto_storage_files_read_rep_t *self,
                                      const bus_value_t *map,
                                      bus_error_t *err);
int proto_storage_files_read_rep_decode(proto_storage_files_read_rep_t *self,
                                        const void *data,
                                        size_t size,
                                        bus_error_t *err);
char *proto_storage_files_read_rep_print(const proto_storage_files_read_rep_t *self);

//  ---------------------------------------------------------------------------
//  storage.files.mkdir request (not idempotent): makes directories; answers each path's
//  outcome (the request fails only when the folder does)

typedef struct {
    //  The folder (required, at most 64 bytes)
    const char *id;
    //  Its volume (checked when given) (at most 64 bytes)
    const char *volume;
    //  The directories to make (Backend.AI: at most 50) (at most 50 items)
    const char *const *paths;
    size_t paths_count;
    //  Make missing parents too, as mkdir -p
    bool parents;
    //  An existing directory is success
    bool exist_ok;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_files_mkdir_req_t;

#define PROTO_STORAGE_FILES_MKDIR_REQ_ID_MAX     64
#define PROTO_STORAGE_FILES_MKDIR_REQ_VOLUME_MAX 64
#define PROTO_STORAGE_FILES_MKDIR_REQ_PATHS_MAX  50

void proto_storage_files_mkdir_req_init(proto_storage_files_mkdir_req_t *self);
void proto_storage_files_mkdir_req_clear(proto_storage_files_mkdir_req_t *self);
PROTO_MUST_USE int proto_storage_files_mkdir_req_check(const proto_storage_files_mkdir_req_t *self,
                                                       bus_error_t *err);
PROTO_MUST_USE int proto_storage_files_mkdir_req_write(const proto_storage_files_mkdir_req_t *self,
                                                       bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_storage_files_mkdir_req_writer(const proto_storage_files_mkdir_req_t *self,
                                                                  bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_storage_files_mkdir_req_encode(const proto_storage_files_mkdir_req_t *self);
int proto_storage_files_mkdir_req_read(proto_storage_files_mkdir_req_t *self,
                                       const bus_value_t *map,
                                       bus_error_t *err);
int proto_storage_files_mkdir_req_decode(proto_storage_files_mkdir_req_t *self,
                                         const void *data,
                                         size_t size,
                                         bus_error_t *err);
char *proto_storage_files_mkdir_req_print(const proto_storage_files_mkdir_req_t *self);

//  ---------------------------------------------------------------------------
//  storage.files.mkdir reply (not idempotent): makes directories; answers each path's
//  outcome (the request fails only when the folder does)

typedef struct {
    //  One per path, in order (at most 50 items)
    const proto_storage_result_t *results;
    size_t results_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_files_mkdir_rep_t;

#define PROTO_STORAGE_FILES_MKDIR_REP_RESULTS_MAX 50

void proto_storage_files_mkdir_rep_init(proto_storage_files_mkdir_rep_t *self);
void proto_storage_files_mkdir_rep_clear(proto_storage_files_mkdir_rep_t *self);
PROTO_MUST_USE int proto_storage_files_mkdir_rep_check(const proto_storage_files_mkdir_rep_t *self,
                                                       bus_error_t *err);
PROTO_MUST_USE int proto_storage_files_mkdir_rep_write(const proto_storage_files_mkdir_rep_t *self,
                                                       bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_storage_files_mkdir_rep_encode(const proto_storage_files_mkdir_rep_t *self);
int proto_storage_files_mkdir_rep_read(proto_storage_files_mkdir_rep_t *self,
                                       const bus_value_t *map,
                                       bus_error_t *err);
int proto_storage_files_mkdir_rep_decode(proto_storage_files_mkdir_rep_t *self,
                                         const void *data,
                                         size_t size,
                                         bus_error_t *err);
char *proto_storage_files_mkdir_rep_print(const proto_storage_files_mkdir_rep_t *self);

//  ---------------------------------------------------------------------------
//  storage.files.rename request (not idempotent): renames an entry within its directory;
//  an existing new name is a conflict

typedef struct {
    //  The folder (required, at most 64 bytes)
    const char *id;
    //  Its volume (checked when given) (at most 64 bytes)
    const char *volume;
    //  The entry (required, at most 4096 bytes)
    const char *path;
    //  Its new name: one component, no '/' (required, at most 255 bytes)
    const char *new_name;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_files_rename_req_t;

#define PROTO_STORAGE_FILES_RENAME_REQ_ID_MAX       64
#define PROTO_STORAGE_FILES_RENAME_REQ_VOLUME_MAX   64
#define PROTO_STORAGE_FILES_RENAME_REQ_PATH_MAX     4096
#define PROTO_STORAGE_FILES_RENAME_REQ_NEW_NAME_MAX 255

void proto_storage_files_rename_req_init(proto_storage_files_rename_req_t *self);
void proto_storage_files_rename_req_clear(proto_storage_files_rename_req_t *self);
PROTO_MUST_USE int proto_storage_files_rename_req_check(const proto_storage_files_rename_req_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE int proto_storage_files_rename_req_write(const proto_storage_files_rename_req_t *self,
                                                        bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_storage_files_rename_req_writer(const proto_storage_files_rename_req_t *self,
                                                                   bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_storage_files_rename_req_encode(const proto_storage_files_rename_req_t *self);
int proto_storage_files_rename_req_read(proto_storage_files_rename_req_t *self,
                                        const bus_value_t *map,
                                        bus_error_t *err);
int proto_storage_files_rename_req_decode(proto_storage_files_rename_req_t *self,
                                          const void *data,
                                          size_t size,
                                          bus_error_t *err);
char *proto_storage_files_rename_req_print(const proto_storage_files_rename_req_t *self);

//  ---------------------------------------------------------------------------
//  storage.files.rename reply (not idempotent): renames an entry within its directory; an
//  existing new name is a conflict

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_files_rename_rep_t;

void proto_storage_files_rename_rep_init(proto_storage_files_rename_rep_t *self);
void proto_storage_files_rename_rep_clear(proto_storage_files_rename_rep_t *self);
PROTO_MUST_USE int proto_storage_files_rename_rep_check(const proto_storage_files_rename_rep_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE int proto_storage_files_rename_rep_write(const proto_storage_files_rename_rep_t *self,
                                                        bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_storage_files_rename_rep_encode(const proto_storage_files_rename_rep_t *self);
int proto_storage_files_rename_rep_read(proto_storage_files_rename_rep_t *self,
                                        const bus_value_t *map,
                                        bus_error_t *err);
int proto_storage_files_rename_rep_decode(proto_storage_files_rename_rep_t *self,
                                          const void *data,
                                          size_t size,
                                          bus_error_t *err);
char *proto_storage_files_rename_rep_print(const proto_storage_files_rename_rep_t *self);

//  ---------------------------------------------------------------------------
//  storage.files.move request (not idempotent): moves an entry anywhere in the folder; a
//  dst that is a directory (it may end with /) receives the entry under its name; an
//  existing destination is a conflict

typedef struct {
    //  The folder (required, at most 64 bytes)
    const char *id;
    //  Its volume (checked when given) (at most 64 bytes)
    const char *volume;
    //  The entry (required, at most 4096 bytes)
    const char *src;
    //  Its new path (required, at most 4096 bytes)
    const char *dst;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_files_move_req_t;

#define PROTO_STORAGE_FILES_MOVE_REQ_ID_MAX     64
#define PROTO_STORAGE_FILES_MOVE_REQ_VOLUME_MAX 64
#define PROTO_STORAGE_FILES_MOVE_REQ_SRC_MAX    4096
#define PROTO_STORAGE_FILES_MOVE_REQ_DST_MAX    4096

void proto_storage_files_move_req_init(proto_storage_files_move_req_t *self);
void proto_storage_files_move_req_clear(proto_storage_files_move_req_t *self);
PROTO_MUST_USE int proto_storage_files_move_req_check(const proto_storage_files_move_req_t *self,
                                                      bus_error_t *err);
PROTO_MUST_USE int proto_storage_files_move_req_write(const proto_storage_files_move_req_t *self,
                                                      bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_storage_files_move_req_writer(const proto_storage_files_move_req_t *self,
                                                                 bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_storage_files_move_req_encode(const proto_storage_files_move_req_t *self);
int proto_storage_files_move_req_read(proto_storage_files_move_req_t *self,
                                      const bus_value_t *map,
                                      bus_error_t *err);
int proto_storage_files_move_req_decode(proto_storage_files_move_req_t *self,
                                        const void *data,
                                        size_t size,
                                        bus_error_t *err);
char *proto_storage_files_move_req_print(const proto_storage_files_move_req_t *self);

//  ---------------------------------------------------------------------------
//  storage.files.move reply (not idempotent): moves an entry anywhere in the folder; a
//  dst that is a directory (it may end with /) receives the entry under its name; an
//  existing destination is a conflict

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_files_move_rep_t;

void proto_storage_files_move_rep_init(proto_storage_files_move_rep_t *self);
void proto_storage_files_move_rep_clear(proto_storage_files_move_rep_t *self);
PROTO_MUST_USE int proto_storage_files_move_rep_check(const proto_storage_files_move_rep_t *self,
                                                      bus_error_t *err);
PROTO_MUST_USE int proto_storage_files_move_rep_write(const proto_storage_files_move_rep_t *self,
                                                      bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_storage_files_move_rep_encode(const proto_storage_files_move_rep_t *self);
int proto_storage_files_move_rep_read(proto_storage_files_move_rep_t *self,
                                      const bus_value_t *map,
                                      bus_error_t *err);
int proto_storage_files_move_rep_decode(proto_storage_files_move_rep_t *self,
                                        const void *data,
                                        size_t size,
                                        bus_error_t *err);
char *proto_storage_files_move_rep_print(const proto_storage_files_move_rep_t *self);

//  ---------------------------------------------------------------------------
//  storage.files.delete request (not idempotent): deletes entries in order, stopping at
//  the first that fails (those before it stay deleted); a directory needs recursive
//  unless empty

typedef struct {
    //  The folder (required, at most 64 bytes)
    const char *id;
    //  Its volume (checked when given) (at most 64 bytes)
    const char *volume;
    //  What to delete (at most 10000 items)
    const char *const *paths;
    size_t paths_count;
    //  Delete directories with what they hold
    bool recursive;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_files_delete_req_t;

#define PROTO_STORAGE_FILES_DELETE_REQ_ID_MAX     64
#define PROTO_STORAGE_FILES_DELETE_REQ_VOLUME_MAX 64
#define PROTO_STORAGE_FILES_DELETE_REQ_PATHS_MAX  10000

void proto_storage_files_delete_req_init(proto_storage_files_delete_req_t *self);
void proto_storage_files_delete_req_clear(proto_storage_files_delete_req_t *self);
PROTO_MUST_USE int proto_storage_files_delete_req_check(const proto_storage_files_delete_req_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE int proto_storage_files_delete_req_write(const proto_storage_files_delete_req_t *self,
                                                        bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_storage_files_delete_req_writer(const proto_storage_files_delete_req_t *self,
                                                                   bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_storage_files_delete_req_encode(const proto_storage_files_delete_req_t *self);
int proto_storage_files_delete_req_read(proto_storage_files_delete_req_t *self,
                                        const bus_value_t *map,
                                        bus_error_t *err);
int proto_storage_files_delete_req_decode(proto_storage_files_delete_req_t *self,
                                          const void *data,
                                          size_t size,
                                          bus_error_t *err);
char *proto_storage_files_delete_req_print(const proto_storage_files_delete_req_t *self);

//  ---------------------------------------------------------------------------
//  storage.files.delete reply (not idempotent): deletes entries in order, stopping at the
//  first that fails (those before it stay deleted); a directory needs recursive unless
//  empty

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_files_delete_rep_t;

void proto_storage_files_delete_rep_init(proto_storage_files_delete_rep_t *self);
void proto_storage_files_delete_rep_clear(proto_storage_files_delete_rep_t *self);
PROTO_MUST_USE int proto_storage_files_delete_rep_check(const proto_storage_files_delete_rep_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE int proto_storage_files_delete_rep_write(const proto_storage_files_delete_rep_t *self,
                                                        bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_storage_files_delete_rep_encode(const proto_storage_files_delete_rep_t *self);
int proto_storage_files_delete_rep_read(proto_storage_files_delete_rep_t *self,
                                        const bus_value_t *map,
                                        bus_error_t *err);
int proto_storage_files_delete_rep_decode(proto_storage_files_delete_rep_t *self,
                                          const void *data,
                                          size_t size,
                                          bus_error_t *err);
char *proto_storage_files_delete_rep_print(const proto_storage_files_delete_rep_t *self);

//  ---------------------------------------------------------------------------
//  storage.files.fetch request (not idempotent): downloads an http(s) URL into a folder
//  on a job of its own and answers at once with the job's id (storage.files.fetch_status
//  follows it); the bytes go to a staging file beside the folder and are renamed into
//  path only once complete, or, with unzip, path becomes a new directory holding the
//  archive's entries, or, with git, a new directory holding the tip of a repository
//  cloned over git's smart HTTP, every one confined beneath the folder as any write is.
//  Refused (invalid): another scheme than http or https, user information in the URL, a
//  hostile path; conflict: something at path already; unavailable: too many fetches
//  running

typedef struct {
    //  The folder (required, at most 64 bytes)
    const char *id;
    //  Its volume (checked when given) (at most 64 bytes)
    const char *volume;
    //  Http:// or https:// URL, without user information; redirects are followed up to
    //  fetch.max_redirects, each checked again (required, at most 2048 bytes)
    const char *url;
    //  The file made (or, with unzip, the directory), relative to the folder's root; must
    //  not exist (required, at most 4096 bytes)
    const char *path;
    //  The download is a .zip archive: path becomes a directory of its entries (stored or
    //  deflated; symbolic links are not made)
    bool unzip;
    //  With unzip: when every entry lies under one top directory (a repository archive's
    //  repo-branch/), that directory is left out
    bool strip_top;
    //  Url is a git repository, cloned over smart HTTP (git-upload-pack, protocol 0/1,
    //  only the tip): path becomes a directory of ref's tree (submodules left out,
    //  symbolic links only inside the folder)
    bool git;
    //  With git: the branch or tag (a short name or refs/...); the remote HEAD when empty
    //  (at most 255 bytes)
    const char *ref;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_files_fetch_req_t;

#define PROTO_STORAGE_FILES_FETCH_REQ_ID_MAX     64
#define PROTO_STORAGE_FILES_FETCH_REQ_VOLUME_MAX 64
#define PROTO_STORAGE_FILES_FETCH_REQ_URL_MAX    2048
#define PROTO_STORAGE_FILES_FETCH_REQ_PATH_MAX   4096
#define PROTO_STORAGE_FILES_FETCH_REQ_REF_MAX    255

void proto_storage_files_fetch_req_init(proto_storage_files_fetch_req_t *self);
void proto_storage_files_fetch_req_clear(proto_storage_files_fetch_req_t *self);
PROTO_MUST_USE int proto_storage_files_fetch_req_check(const proto_storage_files_fetch_req_t *self,
                                                       bus_error_t *err);
PROTO_MUST_USE int proto_storage_files_fetch_req_write(const proto_storage_files_fetch_req_t *self,
                                                       bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_storage_files_fetch_req_writer(const proto_storage_files_fetch_req_t *self,
                                                                  bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_storage_files_fetch_req_encode(const proto_storage_files_fetch_req_t *self);
int proto_storage_files_fetch_req_read(proto_storage_files_fetch_req_t *self,
                                       const bus_value_t *map,
                                       bus_error_t *err);
int proto_storage_files_fetch_req_decode(proto_storage_files_fetch_req_t *self,
                                         const void *data,
                                         size_t size,
                                         bus_error_t *err);
char *proto_storage_files_fetch_req_print(const proto_storage_files_fetch_req_t *self);

//  ---------------------------------------------------------------------------
//  storage.files.fetch reply (not idempotent): downloads an http(s) URL into a folder on
//  a job of its own and answers at once with the job's id (storage.files.fetch_status
//  follows it); the bytes go to a staging file beside the folder and are renamed into
//  path only once complete, or, with unzip, path becomes a new directory holding the
//  archive's entries, or, with git, a new directory holding the tip of a repository
//  cloned over git's smart HTTP, every one confined beneath the folder as any write is.
//  Refused (invalid): another scheme than http or https, user information in the URL, a
//  hostile path; conflict: something at path already; unavailable: too many fetches
//  running

typedef struct {
    //  The fetch's id on this storage-proxy (required, at most 64 bytes)
    const char *job;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_files_fetch_rep_t;

#define PROTO_STORAGE_FILES_FETCH_REP_JOB_MAX 64

void proto_storage_files_fetch_rep_init(proto_storage_files_fetch_rep_t *self);
void proto_storage_files_fetch_rep_clear(proto_storage_files_fetch_rep_t *self);
PROTO_MUST_USE int proto_storage_files_fetch_rep_check(const proto_storage_files_fetch_rep_t *self,
                                                       bus_error_t *err);
PROTO_MUST_USE int proto_storage_files_fetch_rep_write(const proto_storage_files_fetch_rep_t *self,
                                                       bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_storage_files_fetch_rep_encode(const proto_storage_files_fetch_rep_t *self);
int proto_storage_files_fetch_rep_read(proto_storage_files_fetch_rep_t *self,
                                       const bus_value_t *map,
                                       bus_error_t *err);
int proto_storage_files_fetch_rep_decode(proto_storage_files_fetch_rep_t *self,
                                         const void *data,
                                         size_t size,
                                         bus_error_t *err);
char *proto_storage_files_fetch_rep_print(const proto_storage_files_fetch_rep_t *self);

//  ---------------------------------------------------------------------------
//  storage.files.fetch_status request (idempotent): where a fetch stands; a finished one
//  is answered for fetch.keep_s seconds after it ended

typedef struct {
    //  The id storage.files.fetch answered (required, at most 64 bytes)
    const char *job;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_files_fetch_status_req_t;

#define PROTO_STORAGE_FILES_FETCH_STATUS_REQ_JOB_MAX 64

void
proto_storage_files_fetch_status_req_init(proto_storage_files_fetch_status_req_t *self);
void
proto_storage_files_fetch_status_req_clear(proto_storage_files_fetch_status_req_t *self);
PROTO_MUST_USE int proto_storage_files_fetch_status_req_check(const proto_storage_files_fetch_status_req_t *self,
                                                              bus_error_t *err);
PROTO_MUST_USE int proto_storage_files_fetch_status_req_write(const proto_storage_files_fetch_status_req_t *self,
                                                              bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_storage_files_fetch_status_req_writer(const proto_storage_files_fetch_status_req_t *self,
                                                                         bus_error_t *err);
PROTO_MUST_USE zframe_t *proto_storage_files_fetch_status_req_encode(const proto_storage_files_fetch_status_req_t *self);
int proto_storage_files_fetch_status_req_read(proto_storage_files_fetch_status_req_t *self,
                                              const bus_value_t *map,
                                              bus_error_t *err);
int proto_storage_files_fetch_status_req_decode(proto_storage_files_fetch_status_req_t *self,
                                                const void *data,
                                                size_t size,
                                                bus_error_t *err);
char *proto_storage_files_fetch_status_req_print(const proto_storage_files_fetch_status_req_t *self);

//  ---------------------------------------------------------------------------
//  storage.files.fetch_status reply (idempotent): where a fetch stands; a finished one is
//  answered for fetch.keep_s seconds after it ended

typedef struct {
    //  Connecting, downloading, unpacking, done or failed (required, at most 16 bytes)
    const char *state;
    //  Bytes downloaded so far
    uint64_t bytes;
    //  The download's size when the server said it (0: unknown)
    uint64_t total;
    //  With unzip: entries made so far
    uint64_t entries;
    //  With unzip: entries in the archive
    uint64_t entries_total;
    //  With unzip: symbolic links left out; with git: submodules left out
    uint64_t skipped;
    //  When failed: the bus status (1 invalid, 2 not-found, 3 conflict, 4 forbidden, ...)
    uint64_t status;
    //  When failed: why; when done: what was made (at most 512 bytes)
    const char *detail;
    //  The URL the bytes came from (after redirects) (at most 2048 bytes)
    const char *url;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_storage_files_fetch_status_rep_t;

#define PROTO_STORAGE_FILES_FETCH_STATUS_REP_STATE_MAX  16
#define PROTO_STORAGE_FILES_FETCH_STATUS_REP_DETAIL_MAX 512
#define PROTO_STORAGE_FILES_FETCH_STATUS_REP_URL_MAX    2048

void
proto_storage_files_fetch_status_rep_init(proto_storage_files_fetch_status_rep_t *self);
void
proto_storage_files_fetch_status_rep_clear(proto_storage_files_fetch_status_rep_t *self);
PROTO_MUST_USE int proto_storage_files_fetch_status_rep_check(const proto_storage_files_fetch_status_rep_t *self,
                                                              bus_error_t *err);
PROTO_MUST_USE int proto_storage_files_fetch_status_rep_write(const proto_storage_files_fetch_status_rep_t *self,
                                                              bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_storage_files_fetch_status_rep_encode(const proto_storage_files_fetch_status_rep_t *self);
int proto_storage_files_fetch_status_rep_read(proto_storage_files_fetch_status_rep_t *self,
                                              const bus_value_t *map,
                                              bus_error_t *err);
int proto_storage_files_fetch_status_rep_decode(proto_storage_files_fetch_status_rep_t *self,
                                                const void *data,
                                                size_t size,
                                                bus_error_t *err);
char *proto_storage_files_fetch_status_rep_print(const proto_storage_files_fetch_status_rep_t *self);

#endif
