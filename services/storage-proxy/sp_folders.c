/*  =========================================================================
    sp_folders - the virtual folders of a storage-proxy: their table, quotas,
    usage scans, clones and purges

    The table is read and written on the loop only. Jobs (sp_jobs) get
    plain copies of what they need (paths, ids) and hand back plain results,
    which their done functions write to the table.

    A purge renames the folder's directory into the volume's trash, which
    is instant and takes it out of every later lookup, then removes the
    tree with sp_fs_delete from a descriptor of the trash directory, which
    never follows a symlink a container may have planted. Every usage scan
    first removes the folder's abandoned upload staging files
    (sp_fs_stage_expire, storage.staging_ttl_s), so the usage it writes
    leaves them out; the done function logs each removal. A clone copies
    the tree with sp_clone, from descriptors as well. The table's rows and
    statements are sp_db's.

    What is made in a folder belongs to the owner (sp_folders_set_owner):
    a new folder's root, and every directory, file and link of a clone
    (the copy keeps each entry's mode and times, not its owner, so a clone
    of a folder that holds files of root is wholly the containers' user's);
    the sp_fs objects sp_folders_open hands out carry it too.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <dirent.h>   //  opendir, readdir: the trash walk
#include <fcntl.h>    //  AT_* flags
#include <sys/stat.h> //  mkdir

#define TRASH_NAME_MAX  96
#define EXPIRED_LOG_MAX 100 //  expired staging files logged one by one per folder scan

struct _sp_folders_t {
    bus_node_t *node;
    bus_db_t *db;
    sp_volumes_t *volumes;
    sp_jobs_t *jobs;
    struct event *timer;
    bool scanning;     //  a full scan is running
    int staging_ttl_s; //  a staging file unwritten this long is removed
    uint64_t trash_seq;
    //  id -> net bytes charged (uploads) less refunded since start, as
    //  intptr_t: a scan adds what was charged while it ran to what it found.
    zhashx_t *charged;
    uid_t uid; //  owner of what is made in folders; (uid_t) -1: as created
    gid_t gid;
};

//  The folder's net charged bytes since start (see charged).
static intptr_t
s_charged(sp_folders_t *self, const char *id)
{
    return (intptr_t) zhashx_lookup(self->charged, id);
}

static void
s_add_charged(sp_folders_t *self, const char *id, intptr_t bytes)
{
    zhashx_update(self->charged, id, (void *) (s_charged(self, id) + bytes));
}

//  Writes a scanned usage; logs a folder crossing its quota either way.
static void
s_set_usage(sp_folders_t *self, const char *id, uint64_t bytes, uint64_t entries)
{
    sp_folder_t before;
    if (sp_db_folder_load(self->db, id, &before, NULL) != BUS_OK)
        return; //  purged meanwhile
    bool over = before.quota_bytes && bytes > before.quota_bytes;
    if (sp_db_folder_set_usage(self->db, id, bytes, entries, over, bus_clock_wall_us()) !=
        0)
        return;
    if (over && !before.over_quota)
        bus_log_notice("folder over quota, uploads refused id=%s usage=%" PRIu64
                       " quota=%" PRIu64,
                       id, bytes, before.quota_bytes);
    else if (!over && before.over_quota)
        bus_log_notice("folder back under quota id=%s usage=%" PRIu64 " quota=%" PRIu64,
                       id, bytes, before.quota_bytes);
}

//  ---------------------------------------------------------------------------
//  Jobs: removing a tree in the trash

typedef struct {
    char trash[PATH_MAX + 16]; //  the volume's trash directory
    char name[TRASH_NAME_MAX]; //  one entry; "" = every entry
    bus_error_t err;
} trash_job_t;

static void
s_trash_work(void *arg, sp_jobs_t *jobs)
{
    trash_job_t *job = arg;
    sp_fs_t *fs = sp_fs_new(job->trash, &job->err);
    if (!fs)
        return;
    if (job->name[0])
        sp_fs_delete(fs, job->name, strlen(job->name), true, &job->err);
    else {
        //  Every entry left by an earlier run.
        DIR *dir = opendir(job->trash);
        struct dirent *entry;
        while (dir && !sp_jobs_stopping(jobs) && (entry = readdir(dir)))
            if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0)
                sp_fs_delete(fs, entry->d_name, strlen(entry->d_name), true, &job->err);
        if (dir)
            closedir(dir);
    }
    sp_fs_destroy(&fs);
}

static void
s_trash_done(void *arg, bool cancelled)
{
    trash_job_t *job = arg;
    if (!cancelled && job->err.status != BUS_OK)
        bus_log_warning("trash removal incomplete dir=%s reason=\"%s\"", job->trash,
                        job->err.detail);
    free(job);
}

static void
s_trash_start(sp_folders_t *self, const sp_volume_t *volume, const char *name)
{
    trash_job_t *job = calloc(1, sizeof *job);
    if (!job)
        return;
    snprintf(job->trash, sizeof job->trash, "%s/%s", volume->path, SP_VOLUMES_TRASH);
    snprintf(job->name, sizeof job->name, "%s", name ? name : "");
    if (sp_jobs_start(self->jobs, s_trash_work, s_trash_done, job) != 0) {
        bus_log_warning("cannot start trash removal dir=%s (retried at next start)",
                        job->trash);
        free(job);
    }
}

//  ---------------------------------------------------------------------------
//  Jobs: usage scans

//  One staging file the scan removed, for the log.
typedef struct {
    uint64_t bytes;
    int64_t mtime_s;
} expired_t;

typedef struct {
    char id[SP_FOLDER_ID_LEN + 1];
    char path[PATH_MAX];
    uint64_t bytes;
    uint64_t entries;
    intptr_t charged_at_start; //  the folder's charged counter when the scan began
    bus_error_t err;
    expired_t *expired; //  the first EXPIRED_LOG_MAX staging files removed
    size_t expired_count;
    uint64_t expired_files; //  all of them
    uint64_t expired_bytes;
    bus_error_t expire_err;
} scan_item_t;

typedef struct {
    sp_folders_t *self;
    scan_item_t *items;
    size_t count;
    size_t capacity;
    bool full;           //  the periodic scan of every folder
    time_t stage_before; //  staging files last written before are removed
    sp_folders_reply_fn *fn;
    void *arg;
} scan_job_t;

static void
s_scan_free(scan_job_t *job)
{
    for (size_t i = 0; i < job->count; i++)
        free(job->items[i].expired);
    free(job->items);
    free(job);
}

//  sp_fs_expired_fn: notes a removed staging file in its scan item.
static void
s_on_expired(void *arg, const char *name, uint64_t bytes, struct timespec mtime)
{
    (void) name; //  the token's nonce: not logged
    scan_item_t *item = arg;
    item->expired_files++;
    item->expired_bytes += bytes;
    if (item->expired_count == EXPIRED_LOG_MAX)
        return;
    if (!item->expired &&
        !(item->expired = calloc(EXPIRED_LOG_MAX, sizeof *item->expired)))
        return; //  counted in the totals, logged with them
    item->expired[item->expired_count].bytes = bytes;
    item->expired[item->expired_count].mtime_s = (int64_t) mtime.tv_sec;
    item->expired_count++;
}

static void
s_scan_work(void *arg, sp_jobs_t *jobs)
{
    scan_job_t *job = arg;
    for (size_t i = 0; i < job->count && !sp_jobs_stopping(jobs); i++) {
        scan_item_t *item = &job->items[i];
        sp_fs_t *fs = sp_fs_new(item->path, &item->err);
        //  Abandoned uploads first, so the usage leaves them out.
        if (fs)
            sp_fs_stage_expire(fs, job->stage_before, s_on_expired, item,
                               &item->expire_err);
        if (fs)
            sp_fs_usage(fs, &item->bytes, &item->entries, &item->err);
        sp_fs_destroy(&fs);
    }
}

//  Logs the staging files the scan removed from item's folder.
static void
s_log_expired(const scan_item_t *item)
{
    int64_t now = bus_clock_wall_us() / 1000000;
    uint64_t logged = 0;
    for (size_t k = 0; k < item->expired_count; k++) {
        const expired_t *file = &item->expired[k];
        bus_log_info("abandoned upload removed folder=%s bytes=%" PRIu64
                     " idle_s=%" PRId64,
                     item->id, file->bytes, now - file->mtime_s);
        logged += file->bytes;
    }
    if (item->expired_files > item->expired_count)
        bus_log_info("abandoned uploads removed folder=%s files=%" PRIu64
                     " bytes=%" PRIu64 " (not logged one by one)",
                     item->id, item->expired_files - item->expired_count,
                     item->expired_bytes - logged);
    if (item->expire_err.status != BUS_OK &&
        item->expire_err.status != BUS_STATUS_NOT_FOUND)
        bus_log_warning("abandoned upload removal incomplete folder=%s reason=\"%s\"",
                        item->id, item->expire_err.detail);
}

static void
s_scan_done(void *arg, bool cancelled)
{
    scan_job_t *job = arg;
    sp_folders_t *self = job->self;
    if (job->full)
        self->scanning = false;
    //  What was removed is gone even when the scan was cut short.
    for (size_t i = 0; i < job->count; i++)
        s_log_expired(&job->items[i]);
    if (!cancelled) {
        bus_db_begin(self->db);
        for (size_t i = 0; i < job->count; i++) {
            scan_item_t *item = &job->items[i];
            //  Uploads charged while the scan ran may or may not be in what
            //  it found: count them again rather than miss them (the next
            //  scan settles it), so no upload slips past a quota.
            intptr_t since = s_charged(self, item->id) - item->charged_at_start;
            uint64_t bytes = since >= 0 ? item->bytes + (uint64_t) since
                             : item->bytes > (uint64_t) -since
                                 ? item->bytes - (uint64_t) -since
                                 : 0;
            if (item->err.status == BUS_OK)
                s_set_usage(self, item->id, bytes, item->entries);
            else if (item->err.status != BUS_STATUS_NOT_FOUND) //  purged meanwhile
                bus_log_warning("usage scan failed id=%s reason=\"%s\"", item->id,
                                item->err.detail);
        }
        bus_db_commit(self->db);
    }
    if (job->fn) {
        sp_folder_t folder;
        bus_error_t err = {0};
        if (cancelled)
            job->fn(job->arg, BUS_STATUS_UNAVAILABLE, "the storage-proxy is stopping",
                    NULL);
        else if (job->items[0].err.status != BUS_OK)
            job->fn(job->arg, job->items[0].err.status, job->items[0].err.detail, NULL);
        else if (sp_db_folder_load(self->db, job->items[0].id, &folder, &err) != BUS_OK)
            job->fn(job->arg, err.status, err.detail, NULL);
        else
            job->fn(job->arg, BUS_OK, "", &folder);
    }
    s_scan_free(job);
}

//  sp_db_folder_fn: adds a ready folder to the scan job; nonzero stops
//  (out of memory: the scan covers the folders listed so far).
static int
s_scan_add(void *arg, const char *id, const char *volume_name)
{
    scan_job_t *job = arg;
    if (job->count == job->capacity) {
        size_t grown = job->capacity ? job->capacity * 2 : 16;
        scan_item_t *items = realloc(job->items, grown * sizeof *items);
        if (!items)
            return -1;
        job->items = items;
        job->capacity = grown;
    }
    scan_item_t *item = &job->items[job->count];
    memset(item, 0, sizeof *item);
    snprintf(item->id, sizeof item->id, "%s", id);
    item->charged_at_start = s_charged(job->self, item->id);
    const sp_volume_t *volume = sp_volumes_find(job->self->volumes, volume_name);
    if (volume &&
        sp_volumes_folder_path(volume, item->id, item->path, sizeof item->path) == 0)
        job->count++;
    return 0;
}

//  Starts a scan of the given ready folders (ids NULL: every ready folder).
static int
s_scan_start(sp_folders_t *self,
             const char *id,
             sp_folders_reply_fn *fn,
             void *arg,
             bus_error_t *err)
{
    scan_job_t *job = calloc(1, sizeof *job);
    if (!job)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    job->self = self;
    job->full = id == NULL;
    job->stage_before = (time_t) (bus_clock_wall_us() / 1000000 - self->staging_ttl_s);
    job->fn = fn;
    job->arg = arg;
    int rc = sp_db_folders_ready(self->db, id, s_scan_add, job);
    if (rc != 0) {
        s_scan_free(job);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database unavailable");
    }
    if (id && job->count == 0) {
        s_scan_free(job);
        return bus_error_set(err, BUS_STATUS_CONFLICT, "folder %s is not ready", id);
    }
    if (sp_jobs_start(self->jobs, s_scan_work, s_scan_done, job) != 0) {
        s_scan_free(job);
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot start a usage scan");
    }
    if (job->full)
        self->scanning = true;
    return BUS_OK;
}

//  The periodic duties, every storage.scan_ms:
//    - scan every ready folder's usage (unless the last scan still runs),
//      removing first its upload staging files idle for storage.staging_ttl_s;
//    - forget finished uploads past their grace.
static void
s_on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    sp_folders_t *self = arg;
    if (!self->scanning) {
        bus_error_t err = {0};
        if (s_scan_start(self, NULL, NULL, NULL, &err) != BUS_OK)
            bus_log_warning("usage scan not started reason=\"%s\"", err.detail);
    }
    sp_db_uploads_forget(self->db, bus_clock_wall_us() / 1000000);
}

//  ---------------------------------------------------------------------------
//  Jobs: clones

typedef struct {
    sp_folders_t *self;
    char id[SP_FOLDER_ID_LEN + 1]; //  the target
    char src[PATH_MAX];
    char dst[PATH_MAX];
    uint64_t bytes;
    uint64_t entries;
    bus_error_t err;
    sp_folders_reply_fn *fn;
    void *arg;
    uid_t uid; //  the owner of the copy; -1: as created
    gid_t gid;
} clone_job_t;

static void
s_clone_work(void *arg, sp_jobs_t *jobs)
{
    clone_job_t *job = arg;
    sp_clone_tree(job->src, job->dst, job->uid, job->gid, jobs, &job->bytes,
                  &job->entries, &job->err);
}

static void
s_clone_done(void *arg, bool cancelled)
{
    clone_job_t *job = arg;
    sp_folders_t *self = job->self;
    sp_folder_t folder;
    bus_error_t err = {0};
    if (cancelled && job->err.status == BUS_OK)
        bus_error_set(&job->err, BUS_STATUS_UNAVAILABLE, "the storage-proxy is stopping");
    if (job->err.status == BUS_OK) {
        bus_db_begin(self->db);
        sp_db_folder_set_state(self->db, job->id, SP_FOLDER_READY);
        s_set_usage(self, job->id, job->bytes, job->entries);
        bus_db_commit(self->db);
        bus_log_info("folder cloned id=%s bytes=%" PRIu64 " entries=%" PRIu64, job->id,
                     job->bytes, job->entries);
    } else {
        sp_db_folder_set_state(self->db, job->id, SP_FOLDER_FAILED);
        bus_log_warning("folder clone failed id=%s reason=\"%s\"", job->id,
                        job->err.detail);
    }
    if (job->err.status != BUS_OK)
        job->fn(job->arg, job->err.status, job->err.detail, NULL);
    else if (sp_db_folder_load(self->db, job->id, &folder, &err) != BUS_OK)
        job->fn(job->arg, err.status, err.detail, NULL);
    else
        job->fn(job->arg, BUS_OK, "", &folder);
    free(job);
}

//  ---------------------------------------------------------------------------

sp_folders_t *
sp_folders_new(bus_node_t *node,
               sp_volumes_t *volumes,
               int scan_ms,
               int staging_ttl_s,
               bus_error_t *err)
{
    assert(node && volumes);
    assert(staging_ttl_s > 0);
    sp_folders_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    self->db = bus_node_db(node);
    self->volumes = volumes;
    self->staging_ttl_s = staging_ttl_s;
    self->uid = (uid_t) -1;
    self->gid = (gid_t) -1;
    self->jobs = sp_jobs_new(bus_node_base(node));
    self->charged = zhashx_new();
    self->timer = event_new(bus_node_base(node), -1, EV_PERSIST, s_on_timer, self);
    struct timeval period = {scan_ms / 1000, (scan_ms % 1000) * 1000};
    if (!self->jobs || !self->charged || !self->timer ||
        event_add(self->timer, &period) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot start the folder jobs");
        sp_folders_destroy(&self);
        return NULL;
    }
    //  A clone a crash cut short never finishes by itself.
    if (sp_db_folders_fail_clones(self->db) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the folder table");
        sp_folders_destroy(&self);
        return NULL;
    }
    for (size_t i = 0; i < sp_volumes_count(volumes); i++) {
        const sp_volume_t *volume = sp_volumes_at(volumes, i);
        s_trash_start(self, volume, NULL);
        if (volume->xfs)
            bus_log_notice(
                "volume is XFS; project quotas are not set up yet, quotas hold "
                "on uploads and by usage scans volume=%s path=%s",
                volume->name, volume->path);
    }
    s_on_timer(-1, 0, self);
    return self;
}

void
sp_folders_destroy(sp_folders_t **self_p)
{
    assert(self_p);
    sp_folders_t *self = *self_p;
    if (self) {
        if (self->timer)
            event_free(self->timer);
        sp_jobs_destroy(&self->jobs);
        zhashx_destroy(&self->charged);
        free(self);
        *self_p = NULL;
    }
}

void
sp_folders_set_owner(sp_folders_t *self, uid_t uid, gid_t gid)
{
    assert(self);
    self->uid = uid;
    self->gid = gid;
}

sp_volumes_t *
sp_folders_volumes(sp_folders_t *self)
{
    assert(self);
    return self->volumes;
}

uint64_t
sp_folders_count(sp_folders_t *self, const char *volume)
{
    assert(self && volume);
    return sp_db_folder_count(self->db, volume);
}

//  ---------------------------------------------------------------------------

int
sp_folders_get(sp_folders_t *self,
               const char *id,
               const char *volume,
               sp_folder_t *folder,
               bus_error_t *err)
{
    assert(self && folder);
    char key[SP_FOLDER_ID_LEN + 1];
    if (sp_volumes_check_id(id, key, err) != 0)
        return BUS_STATUS_INVALID;
    int rc = sp_db_folder_load(self->db, key, folder, err);
    if (rc == BUS_OK && volume && *volume && strcmp(volume, folder->volume) != 0)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no folder %s on volume %s", key,
                           volume);
    return rc;
}

const sp_volume_t *
sp_folders_volume_of(sp_folders_t *self, const sp_folder_t *folder)
{
    assert(self && folder);
    return sp_volumes_find(self->volumes, folder->volume);
}

int
sp_folders_path(sp_folders_t *self,
                const sp_folder_t *folder,
                char *out,
                size_t size,
                bus_error_t *err)
{
    const sp_volume_t *volume = sp_folders_volume_of(self, folder);
    if (!volume)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                             "volume %s of folder %s is not configured", folder->volume,
                             folder->id);
    if (sp_volumes_folder_path(volume, folder->id, out, size) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "folder path too long");
    return BUS_OK;
}

sp_fs_t *
sp_folders_open(sp_folders_t *self, const sp_folder_t *folder, bus_error_t *err)
{
    assert(self && folder);
    if (strcmp(folder->state, SP_FOLDER_READY) != 0) {
        bus_error_set(err, BUS_STATUS_CONFLICT, "folder %s is %s", folder->id,
                      strcmp(folder->state, SP_FOLDER_CLONING) == 0
                          ? "being cloned"
                          : "not ready (its clone failed)");
        return NULL;
    }
    char path[PATH_MAX];
    if (sp_folders_path(self, folder, path, sizeof path, err) != BUS_OK)
        return NULL;
    bus_error_t open_err = {0};
    sp_fs_t *fs = sp_fs_new(path, &open_err);
    if (fs)
        sp_fs_set_owner(fs, self->uid, self->gid);
    if (!fs && open_err.status == BUS_STATUS_NOT_FOUND)
        bus_error_set(err, BUS_STATUS_INTERNAL, "directory of folder %s is missing",
                      folder->id);
    else if (!fs && err)
        *err = open_err;
    return fs;
}

//  ---------------------------------------------------------------------------

//  Inserts the row of a new folder and makes its directory, in one
//  transaction: no row without a directory.
static int
s_insert(sp_folders_t *self,
         const sp_volume_t *volume,
         const char *id,
         const char *state,
         uint64_t quota_bytes,
         bus_error_t *err)
{
    sp_folder_t existing;
    if (sp_db_folder_load(self->db, id, &existing, NULL) == BUS_OK)
        return bus_error_set(err, BUS_STATUS_CONFLICT, "folder %s exists", id);
    char path[PATH_MAX];
    if (sp_volumes_folder_path(volume, id, path, sizeof path) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "folder path too long");
    if (bus_db_begin(self->db) != 0)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "database busy");
    if (sp_db_folder_insert(self->db, id, volume->name, state, quota_bytes,
                            bus_clock_wall_us()) != 0) {
        bus_db_rollback(self->db);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot record folder %s", id);
    }
    //  <volume>/<xx> is shared by 1/256 of the folders; the folder's own
    //  directory must be new (a leftover one belongs to no row: refused).
    char parent[PATH_MAX + 8];
    snprintf(parent, sizeof parent, "%s/%.2s", volume->path, id);
    if ((mkdir(parent, SP_VOLUMES_DIR_MODE) != 0 && errno != EEXIST) ||
        mkdir(path, SP_FS_DIR_MODE) != 0) {
        int saved = errno;
        bus_db_rollback(self->db);
        if (saved == EEXIST)
            return bus_error_set(err, BUS_STATUS_CONFLICT,
                                 "directory of folder %s exists without a record", id);
        return bus_error_set(
            err, saved == ENOSPC ? BUS_STATUS_UNAVAILABLE : BUS_STATUS_INTERNAL,
            "cannot create folder %s: %s", id, strerror(saved));
    }
    //  The root is the owner's (the shard directory above stays ours).
    if ((self->uid != (uid_t) -1 || self->gid != (gid_t) -1) &&
        fchownat(AT_FDCWD, path, self->uid, self->gid, AT_SYMLINK_NOFOLLOW) != 0) {
        int saved = errno;
        rmdir(path);
        bus_db_rollback(self->db);
        return bus_error_set(err, BUS_STATUS_INTERNAL,
                             "cannot give folder %s to %d:%d: %s", id, (int) self->uid,
                             (int) self->gid, strerror(saved));
    }
    if (bus_db_commit(self->db) != 0) {
        rmdir(path);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot record folder %s", id);
    }
    return BUS_OK;
}

int
sp_folders_create(sp_folders_t *self,
                  const char *volume_name,
                  const char *id,
                  uint64_t quota_bytes,
                  sp_folder_t *folder,
                  bus_error_t *err)
{
    assert(self && folder);
    char key[SP_FOLDER_ID_LEN + 1];
    if (sp_volumes_check_id(id, key, err) != 0)
        return BUS_STATUS_INVALID;
    const sp_volume_t *volume = sp_volumes_find(self->volumes, volume_name);
    if (!volume)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such volume: %s",
                             volume_name ? volume_name : "");
    int rc = s_insert(self, volume, key, SP_FOLDER_READY, quota_bytes, err);
    if (rc == BUS_OK)
        rc = sp_db_folder_load(self->db, key, folder, err);
    if (rc == BUS_OK)
        bus_log_info("folder created id=%s volume=%s quota=%" PRIu64, key, volume->name,
                     quota_bytes);
    return rc;
}

int
sp_folders_delete(sp_folders_t *self,
                  const char *id,
                  const char *volume_name,
                  bus_error_t *err)
{
    assert(self);
    sp_folder_t folder;
    int rc = sp_folders_get(self, id, volume_name, &folder, err);
    if (rc != BUS_OK)
        return rc;
    if (strcmp(folder.state, SP_FOLDER_CLONING) == 0)
        return bus_error_set(err, BUS_STATUS_CONFLICT,
                             "folder %s is being cloned; delete it once the clone ends",
                             folder.id);
    const sp_volume_t *volume = sp_folders_volume_of(self, &folder);
    char path[PATH_MAX];
    char trash_name[TRASH_NAME_MAX];
    char trash[PATH_MAX + TRASH_NAME_MAX + 16];
    bool moved = false;
    if (volume) {
        rc = sp_folders_path(self, &folder, path, sizeof path, err);
        if (rc != BUS_OK)
            return rc;
        snprintf(trash_name, sizeof trash_name, "%s.%" PRId64 ".%" PRIu64, folder.id,
                 bus_clock_wall_us(), ++self->trash_seq);
        snprintf(trash, sizeof trash, "%s/%s/%s", volume->path, SP_VOLUMES_TRASH,
                 trash_name);
        if (rename(path, trash) == 0)
            moved = true;
        else if (errno != ENOENT)
            return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot remove folder %s: %s",
                                 folder.id, strerror(errno));
    }
    if (sp_db_folder_delete(self->db, folder.id) != 0) {
        if (moved && rename(trash, path) != 0)
            bus_log_error("folder directory left in the trash id=%s trash=%s", folder.id,
                          trash);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot delete folder %s",
                             folder.id);
    }
    if (moved)
        s_trash_start(self, volume, trash_name);
    //  and the partial uploads staged beside it (sp_fs.h), if any
    char stage[PATH_MAX], stage_trash[PATH_MAX + TRASH_NAME_MAX + 32];
    if (moved && sp_fs_stage_path(path, stage, sizeof stage) == 0) {
        char stage_name[TRASH_NAME_MAX + 16];
        snprintf(stage_name, sizeof stage_name, "%s.uploads", trash_name);
        snprintf(stage_trash, sizeof stage_trash, "%s/%s/%s", volume->path,
                 SP_VOLUMES_TRASH, stage_name);
        if (rename(stage, stage_trash) == 0)
            s_trash_start(self, volume, stage_name);
        else if (errno != ENOENT)
            bus_log_warning(
                "staged uploads left beside a purged folder path=%s error=\"%s\"", stage,
                strerror(errno));
    }
    bus_log_info("folder purged id=%s volume=%s", folder.id, folder.volume);
    return BUS_OK;
}

int
sp_folders_set_quota(sp_folders_t *self,
                     const char *id,
                     const char *volume,
                     uint64_t quota_bytes,
                     sp_folder_t *folder,
                     bus_error_t *err)
{
    assert(self && folder);
    int rc = sp_folders_get(self, id, volume, folder, err);
    if (rc != BUS_OK)
        return rc;
    bool over = quota_bytes && folder->usage_bytes > quota_bytes;
    if (sp_db_folder_set_quota(self->db, folder->id, quota_bytes, over) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot set the quota of %s",
                             folder->id);
    bus_log_info("folder quota set id=%s quota=%" PRIu64 " usage=%" PRIu64, folder->id,
                 quota_bytes, folder->usage_bytes);
    return sp_db_folder_load(self->db, folder->id, folder, err);
}

//  ---------------------------------------------------------------------------

int
sp_folders_clone(sp_folders_t *self,
                 const char *id,
                 const char *volume,
                 const char *target_id,
                 const char *target_volume,
                 uint64_t quota_bytes,
                 sp_folders_reply_fn *fn,
                 void *arg,
                 bus_error_t *err)
{
    assert(self && fn);
    sp_folder_t source;
    int rc = sp_folders_get(self, id, volume, &source, err);
    if (rc != BUS_OK)
        return rc;
    if (strcmp(source.state, SP_FOLDER_READY) != 0)
        return bus_error_set(err, BUS_STATUS_CONFLICT, "folder %s is not ready (%s)",
                             source.id, source.state);
    char key[SP_FOLDER_ID_LEN + 1];
    if (sp_volumes_check_id(target_id, key, err) != 0)
        return BUS_STATUS_INVALID;
    const char *target_name =
        target_volume && *target_volume ? target_volume : source.volume;
    const sp_volume_t *target = sp_volumes_find(self->volumes, target_name);
    if (!target)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such volume: %s",
                             target_name);
    if (!quota_bytes)
        quota_bytes = source.quota_bytes;
    clone_job_t *job = calloc(1, sizeof *job);
    if (!job)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    job->self = self;
    job->fn = fn;
    job->arg = arg;
    job->uid = self->uid;
    job->gid = self->gid;
    snprintf(job->id, sizeof job->id, "%s", key);
    rc = sp_folders_path(self, &source, job->src, sizeof job->src, err);
    if (rc == BUS_OK &&
        sp_volumes_folder_path(target, key, job->dst, sizeof job->dst) != 0)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "folder path too long");
    if (rc == BUS_OK)
        rc = s_insert(self, target, key, SP_FOLDER_CLONING, quota_bytes, err);
    if (rc != BUS_OK) {
        free(job);
        return rc;
    }
    if (sp_jobs_start(self->jobs, s_clone_work, s_clone_done, job) != 0) {
        sp_db_folder_set_state(self->db, key, SP_FOLDER_FAILED);
        free(job);
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot start the clone");
    }
    bus_log_info("folder clone started id=%s source=%s volume=%s", key, source.id,
                 target->name);
    return BUS_OK;
}

int
sp_folders_rescan(sp_folders_t *self,
                  const char *id,
                  const char *volume,
                  sp_folders_reply_fn *fn,
                  void *arg,
                  bus_error_t *err)
{
    assert(self);
    sp_folder_t folder;
    int rc = sp_folders_get(self, id, volume, &folder, err);
    if (rc != BUS_OK)
        return rc;
    return s_scan_start(self, folder.id, fn, arg, err);
}

void
sp_folders_changed(sp_folders_t *self, const char *id)
{
    assert(self);
    sp_folder_t folder;
    if (sp_folders_get(self, id, NULL, &folder, NULL) == BUS_OK)
        s_scan_start(self, folder.id, NULL, NULL, NULL);
}

//  ---------------------------------------------------------------------------

int
sp_folders_charge(sp_folders_t *self, const char *id, uint64_t bytes, bus_error_t *err)
{
    assert(self);
    sp_folder_t folder;
    if (sp_db_folder_load(self->db, id, &folder, err) != BUS_OK)
        return -1;
    if (folder.over_quota)
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "folder quota exceeded: folder %s holds %" PRIu64
                             " bytes, over its quota of %" PRIu64
                             "; uploads are refused until files are deleted",
                             folder.id, folder.usage_bytes, folder.quota_bytes),
               -1;
    if (folder.quota_bytes &&
        (bytes > folder.quota_bytes || folder.usage_bytes > folder.quota_bytes - bytes))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "folder quota exceeded: %" PRIu64 " more bytes would take "
                             "folder %s past its quota of %" PRIu64 " (%" PRIu64 " used)",
                             bytes, folder.id, folder.quota_bytes, folder.usage_bytes),
               -1;
    if (sp_db_folder_charge(self->db, folder.id, bytes) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot account the upload"), -1;
    s_add_charged(self, folder.id, (intptr_t) bytes);
    return 0;
}

void
sp_folders_refund(sp_folders_t *self, const char *id, uint64_t bytes)
{
    assert(self && id);
    if (sp_db_folder_refund(self->db, id, bytes) == 0)
        s_add_charged(self, id, -(intptr_t) bytes);
}

void
sp_folders_upload_finished(
    sp_folders_t *self, const char *nonce, const char *id, uint64_t size, int64_t expires)
{
    assert(self && nonce && id);
    sp_db_upload_finished(self->db, nonce, id, size, expires + SP_FOLDERS_UPLOAD_GRACE_S);
}

bool
sp_folders_upload_was_finished(sp_folders_t *self,
                               const char *nonce,
                               const char *id,
                               uint64_t size)
{
    assert(self && nonce && id);
    return sp_db_upload_was_finished(self->db, nonce, id, size);
}
