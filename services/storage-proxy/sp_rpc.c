/*  =========================================================================
    sp_rpc - the storage.* methods on the storage-proxy's node

    The handlers are typed (proto_serve.h): each gets its request decoded
    and fills its reply, which is encoded after it returns, so a reply
    borrows only what outlives the handler (the kept listing, the request,
    constant strings) and copies the rest into its arena.

    Paging through a big directory would read all of it once per page
    (sp_fs_list makes each page from one pass over the directory), so 100
    pages of 100,000 entries cost 100 passes. When a listing has more than
    one page, the whole directory (up to SP_FS_LIST_MAX entries) is listed
    once and kept: the next pages come from that copy while the directory's
    mtime and ctime are unchanged (any entry made, removed or renamed in it
    changes them) and for at most SP_RPC_LIST_CACHE_MS, which bounds how
    stale a size or time shown for an existing file may be. A directory
    changed less than SP_RPC_LIST_RACY_MS ago is not kept: a change within
    the same timestamp tick would go unseen.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"

//  The one directory listing kept for paging.
typedef struct {
    char id[SP_FOLDER_ID_LEN + 1];
    char path[SP_FS_PATH_MAX + 1]; //  normalized
    struct timespec mtime;
    struct timespec ctime;
    int64_t taken_ms; //  monotonic
    sp_fs_page_t *page;
} listing_t;

struct _sp_rpc_t {
    bus_node_t *node;
    sp_folders_t *folders;
    sp_fetch_t *fetch;
    char *url;
    listing_t listing;
};

//  A clone or rescan waiting for its job.
typedef struct {
    sp_rpc_t *self;
    bus_rpc_request_t *req;
} pending_t;

//  Fills out from folder, its strings copied into arena (a reply's), so
//  that out outlives folder.
static int
s_folder_out(sp_rpc_t *self,
             const sp_folder_t *folder,
             proto_storage_folder_t *out,
             void **arena,
             bus_error_t *err)
{
    proto_storage_folder_init(out);
    const sp_volume_t *volume = sp_folders_volume_of(self->folders, folder);
    out->id = proto_arena_strdup(arena, folder->id);
    out->volume = proto_arena_strdup(arena, folder->volume);
    out->host = volume ? volume->host : NULL;
    out->state = proto_arena_strdup(arena, folder->state);
    out->quota_bytes = folder->quota_bytes;
    out->usage_bytes = folder->usage_bytes;
    out->file_count = folder->file_count;
    out->over_quota = folder->over_quota;
    out->scanned_at = folder->scanned_at;
    out->created_at = folder->created_at;
    if (!out->id || !out->volume || !out->state)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    return BUS_OK;
}

//  Writes the reply of a clone or a rescan, answered once its job is done
//  (their reply structs hold exactly one field, folder, so they encode
//  alike).
static int
s_reply_folder(sp_rpc_t *self,
               const sp_folder_t *folder,
               bus_writer_t *reply,
               bus_error_t *err)
{
    proto_storage_folder_usage_rep_t out;
    proto_storage_folder_usage_rep_init(&out);
    int rc = s_folder_out(self, folder, &out.folder, &out.owned_, err);
    if (rc == BUS_OK && proto_storage_folder_usage_rep_write(&out, reply) != 0)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot encode the reply");
    proto_storage_folder_usage_rep_clear(&out);
    return rc;
}

//  Looks up folder id and opens it: BUS_OK with *fs_p (caller destroys).
static int
s_open(sp_rpc_t *self,
       const char *id,
       const char *volume,
       sp_folder_t *folder,
       sp_fs_t **fs_p,
       bus_error_t *err)
{
    int rc = sp_folders_get(self->folders, id, volume, folder, err);
    if (rc != BUS_OK)
        return rc;
    *fs_p = sp_folders_open(self->folders, folder, err);
    return *fs_p ? BUS_OK : err->status;
}

static const char *
s_type_name(sp_fs_type_t type)
{
    switch (type) {
        case SP_FS_FILE:
            return "FILE";
        case SP_FS_DIR:
            return "DIRECTORY";
        case SP_FS_SYMLINK:
            return "SYMLINK";
        default:
            return "OTHER";
    }
}

static int64_t
s_us(struct timespec ts)
{
    return (int64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static size_t
s_len(const char *text)
{
    return text ? strlen(text) : 0;
}

//  ---------------------------------------------------------------------------
//  storage.volumes

static int
s_on_volumes(void *arg,
             const proto_storage_volumes_req_t *in,
             proto_storage_volumes_rep_t *out,
             bus_rpc_request_t *req,
             bus_error_t *err)
{
    (void) in, (void) req;
    sp_rpc_t *self = arg;
    sp_volumes_t *volumes = sp_folders_volumes(self->folders);
    size_t count = sp_volumes_count(volumes);
    out->proxy = sp_volumes_proxy(volumes);
    out->url = self->url;
    proto_storage_volume_t *list = proto_arena_alloc(&out->owned_, count * sizeof *list);
    if (!list)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    out->volumes = list;
    //  Backend.AI's capabilities: folders on it, and quotas (ours are
    //  enforced by the storage-proxy, with XFS project quotas to come).
    static const char *const capabilities[] = {"vfolder", "quota"};
    for (size_t i = 0; i < count; i++) {
        const sp_volume_t *volume = sp_volumes_at(volumes, i);
        proto_storage_volume_t *v = &list[out->volumes_count++];
        proto_storage_volume_init(v);
        v->name = volume->name;
        v->host = volume->host;
        v->backend = volume->backend;
        v->path = volume->path;
        v->fs_type = volume->fs_type;
        v->capabilities = capabilities;
        v->capabilities_count = 2;
        sp_volume_usage_t usage;
        if (sp_volumes_usage(volume, &usage, NULL) == 0) {
            v->capacity_bytes = usage.capacity;
            v->used_bytes = usage.used;
            v->available_bytes = usage.available;
        }
        v->folders = sp_folders_count(self->folders, volume->name);
        v->project_quota = false;
    }
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  storage.folder.*

static int
s_on_create(void *arg,
            const proto_storage_folder_create_req_t *in,
            proto_storage_folder_create_rep_t *out,
            bus_rpc_request_t *req,
            bus_error_t *err)
{
    (void) req;
    sp_rpc_t *self = arg;
    sp_folder_t folder;
    int rc = sp_folders_create(self->folders, in->volume, in->id, in->quota_bytes,
                               &folder, err);
    return rc == BUS_OK ? s_folder_out(self, &folder, &out->folder, &out->owned_, err)
                        : rc;
}

static int
s_on_delete(void *arg,
            const proto_storage_folder_delete_req_t *in,
            proto_storage_folder_delete_rep_t *out,
            bus_rpc_request_t *req,
            bus_error_t *err)
{
    (void) out, (void) req;
    sp_rpc_t *self = arg;
    return sp_folders_delete(self->folders, in->id, in->volume, err);
}

//  A clone's or a rescan's answer.
static void
s_on_job(void *arg, int status, const char *detail, const sp_folder_t *folder)
{
    pending_t *pending = arg;
    sp_rpc_t *self = pending->self;
    bus_writer_t *writer = NULL;
    bus_error_t err = {0};
    if (status == BUS_OK) {
        writer = bus_writer_new();
        if (!writer || s_reply_folder(self, folder, writer, &err) != BUS_OK) {
            status = BUS_STATUS_INTERNAL;
            detail = "cannot encode the reply";
        }
    }
    bus_node_reply(self->node, &pending->req, status, status == BUS_OK ? NULL : detail,
                   status == BUS_OK ? bus_writer_data(writer) : NULL,
                   status == BUS_OK ? bus_writer_size(writer) : 0);
    bus_writer_destroy(&writer);
    free(pending);
}

static pending_t *
s_pending(sp_rpc_t *self, bus_rpc_request_t *req, bus_error_t *err)
{
    pending_t *pending = calloc(1, sizeof *pending);
    if (pending) {
        pending->self = self;
        pending->req = bus_rpc_request_detach(req);
    }
    if (!pending || !pending->req) {
        free(pending);
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    return pending;
}

static int
s_on_clone(void *arg,
           const proto_storage_folder_clone_req_t *in,
           proto_storage_folder_clone_rep_t *out,
           bus_rpc_request_t *req,
           bus_error_t *err)
{
    (void) out;
    sp_rpc_t *self = arg;
    pending_t *pending = s_pending(self, req, err);
    int rc = pending ? sp_folders_clone(self->folders, in->id, in->volume, in->target_id,
                                        in->target_volume, in->quota_bytes, s_on_job,
                                        pending, err)
                     : BUS_STATUS_INTERNAL;
    if (rc != BUS_OK && pending) {
        bus_rpc_request_destroy(&pending->req);
        free(pending);
    }
    return rc == BUS_OK ? BUS_STATUS_PENDING_ : rc;
}

static int
s_on_usage(void *arg,
           const proto_storage_folder_usage_req_t *in,
           proto_storage_folder_usage_rep_t *out,
           bus_rpc_request_t *req,
           bus_error_t *err)
{
    sp_rpc_t *self = arg;
    int rc;
    if (in->rescan) {
        pending_t *pending = s_pending(self, req, err);
        rc = pending ? sp_folders_rescan(self->folders, in->id, in->volume, s_on_job,
                                         pending, err)
                     : BUS_STATUS_INTERNAL;
        if (rc != BUS_OK && pending) {
            bus_rpc_request_destroy(&pending->req);
            free(pending);
        }
        if (rc == BUS_OK)
            rc = BUS_STATUS_PENDING_;
    } else {
        sp_folder_t folder;
        rc = sp_folders_get(self->folders, in->id, in->volume, &folder, err);
        if (rc == BUS_OK)
            rc = s_folder_out(self, &folder, &out->folder, &out->owned_, err);
    }
    return rc;
}

static int
s_on_quota(void *arg,
           const proto_storage_folder_quota_req_t *in,
           proto_storage_folder_quota_rep_t *out,
           bus_rpc_request_t *req,
           bus_error_t *err)
{
    (void) req;
    sp_rpc_t *self = arg;
    sp_folder_t folder;
    int rc = sp_folders_set_quota(self->folders, in->id, in->volume, in->quota_bytes,
                                  &folder, err);
    return rc == BUS_OK ? s_folder_out(self, &folder, &out->folder, &out->owned_, err)
                        : rc;
}

static int
s_on_mount_path(void *arg,
                const proto_storage_folder_mount_path_req_t *in,
                proto_storage_folder_mount_path_rep_t *out,
                bus_rpc_request_t *req,
                bus_error_t *err)
{
    (void) req;
    sp_rpc_t *self = arg;
    sp_folder_t folder;
    char path[PATH_MAX];
    int rc = sp_folders_get(self->folders, in->id, in->volume, &folder, err);
    if (rc == BUS_OK && strcmp(folder.state, SP_FOLDER_READY) != 0)
        rc = bus_error_set(err, BUS_STATUS_CONFLICT, "folder %s is %s", folder.id,
                           folder.state);
    if (rc == BUS_OK)
        rc = sp_folders_path(self->folders, &folder, path, sizeof path, err);
    if (rc == BUS_OK) {
        const sp_volume_t *volume = sp_folders_volume_of(self->folders, &folder);
        out->path = proto_arena_strdup(&out->owned_, path);
        out->host = volume->host;
        out->backend = volume->backend;
        if (!out->path)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    return rc;
}

//  ---------------------------------------------------------------------------
//  storage.files.*

static bool
s_same_time(struct timespec a, struct timespec b)
{
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

//  The kept listing of directory rel of folder id when still good, else NULL.
static sp_fs_page_t *
s_listing_find(sp_rpc_t *self, const char *id, const char *rel, const sp_fs_info_t *dir)
{
    listing_t *listing = &self->listing;
    if (!listing->page || strcmp(listing->id, id) != 0 || strcmp(listing->path, rel) != 0)
        return NULL;
    if (!s_same_time(listing->mtime, dir->mtime) ||
        !s_same_time(listing->ctime, dir->ctime) ||
        bus_clock_mono_ms() - listing->taken_ms > SP_RPC_LIST_CACHE_MS) {
        sp_fs_page_destroy(&listing->page);
        return NULL;
    }
    return listing->page;
}

//  Lists all of directory rel (up to SP_FS_LIST_MAX entries) and keeps it.
static sp_fs_page_t *
s_listing_take(sp_rpc_t *self,
               sp_fs_t *fs,
               const char *id,
               const char *rel,
               const sp_fs_info_t *dir,
               bus_error_t *err)
{
    listing_t *listing = &self->listing;
    sp_fs_page_destroy(&listing->page);
    //  A directory changed within the last moments may change again within
    //  the same timestamp tick, unseen: it is not kept (git's racy index).
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (s_us(now) - s_us(dir->mtime) < SP_RPC_LIST_RACY_MS * 1000)
        return NULL;
    if (sp_fs_list(fs, rel, strlen(rel), "", 0, SP_FS_LIST_MAX, &listing->page, err) != 0)
        return NULL;
    snprintf(listing->id, sizeof listing->id, "%s", id);
    snprintf(listing->path, sizeof listing->path, "%s", rel);
    listing->mtime = dir->mtime;
    listing->ctime = dir->ctime;
    listing->taken_ms = bus_clock_mono_ms();
    return listing->page;
}

//  The index of the first name of page after cursor.
static size_t
s_after(const sp_fs_page_t *page, const char *cursor)
{
    size_t low = 0, high = page->count;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        if (strcmp(page->entries[mid].name, cursor) <= 0)
            low = mid + 1;
        else
            high = mid;
    }
    return low;
}

//  Fills out with entries [first, first + count) of page, their names
//  copied into out's arena when page goes with the request (own).
static int
s_list_reply(const sp_fs_page_t *page,
             bool own,
             size_t first,
             size_t count,
             bool more,
             const char *cursor,
             proto_storage_files_list_rep_t *out,
             bus_error_t *err)
{
    proto_storage_entry_t *list = NULL;
    if (count) {
        list = proto_arena_alloc(&out->owned_, count * sizeof *list);
        if (!list)
            return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        out->entries = list;
    }
    for (size_t i = 0; i < count; i++) {
        const sp_fs_entry_t *entry = &page->entries[first + i];
        proto_storage_entry_t *e = &list[out->entries_count++];
        proto_storage_entry_init(e);
        e->name = own ? proto_arena_strdup(&out->owned_, entry->name) : entry->name;
        if (!e->name)
            return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        e->type = s_type_name(entry->info.type);
        e->size = entry->info.size;
        e->mode = entry->info.mode;
        e->mtime = s_us(entry->info.mtime);
        e->ctime = s_us(entry->info.ctime);
    }
    out->total = page->total;
    out->more = more;
    if (more && count)
        out->cursor = out->entries[count - 1].name;
    else if (more)
        out->cursor = cursor; //  every entry of the page vanished: same again
    return BUS_OK;
}

static int
s_on_list(void *arg,
          const proto_storage_files_list_req_t *in,
          proto_storage_files_list_rep_t *out,
          bus_rpc_request_t *req,
          bus_error_t *err)
{
    (void) req;
    sp_rpc_t *self = arg;
    sp_folder_t folder;
    sp_fs_t *fs = NULL;
    sp_fs_page_t *page = NULL;
    const char *cursor = in->cursor ? in->cursor : "";
    size_t limit = in->limit ? (size_t) in->limit : SP_FS_LIST_DEFAULT;
    if (limit > SP_FS_LIST_MAX)
        limit = SP_FS_LIST_MAX;
    char rel[SP_FS_PATH_MAX + 1];
    sp_fs_info_t dir = {0};
    int rc = s_open(self, in->id, in->volume, &folder, &fs, err);
    if (rc == BUS_OK && sp_fs_check_path(in->path, s_len(in->path), rel, err) != 0)
        rc = err->status;
    //  A later page of a directory listed whole a moment ago.
    sp_fs_page_t *kept = NULL;
    if (rc == BUS_OK && sp_fs_stat(fs, rel, strlen(rel), &dir, NULL) == 0 &&
        dir.type == SP_FS_DIR)
        kept = s_listing_find(self, folder.id, rel, &dir);
    size_t first = kept ? s_after(kept, cursor) : 0;
    if (kept && (!kept->more || first + limit <= kept->count)) {
        size_t count = kept->count - first < limit ? kept->count - first : limit;
        rc = s_list_reply(kept, false, first, count,
                          first + count < kept->count || kept->more, cursor, out, err);
    } else if (rc == BUS_OK) {
        if (sp_fs_list(fs, rel, strlen(rel), cursor, strlen(cursor), limit, &page, err) !=
            0)
            rc = err->status;
        //  More than one page: keep the whole directory for the next ones.
        else if (page->more && limit < SP_FS_LIST_MAX && dir.type == SP_FS_DIR)
            s_listing_take(self, fs, folder.id, rel, &dir, NULL);
        //  The page goes with this call: its names are copied.
        if (rc == BUS_OK)
            rc = s_list_reply(page, true, 0, page->count, page->more, cursor, out, err);
    }
    sp_fs_page_destroy(&page);
    sp_fs_destroy(&fs);
    return rc;
}

//  storage.files.read: one small file whole, read on the loop (it is at
//  most 1 MiB: a model's definition, not a model).
static int
s_on_read(void *arg,
          const proto_storage_files_read_req_t *in,
          proto_storage_files_read_rep_t *out,
          bus_rpc_request_t *req,
          bus_error_t *err)
{
    (void) req;
    sp_rpc_t *self = arg;
    sp_folder_t folder;
    sp_fs_t *fs = NULL;
    uint64_t max = in->max ? in->max : 65536, length = 0;
    int fd = -1;
    int rc = s_open(self, in->id, in->volume, &folder, &fs, err);
    if (rc == BUS_OK &&
        (fd = sp_fs_open_read(fs, in->path, strlen(in->path), &length, err)) < 0)
        rc = err->status;
    if (rc == BUS_OK && length > max)
        rc = bus_error_set(err, BUS_STATUS_INVALID,
                           "%.256s is %llu bytes, more than %llu", in->path,
                           (unsigned long long) length, (unsigned long long) max);
    //  The reply's arena holds the bytes.
    uint8_t *data = rc == BUS_OK ? proto_arena_alloc(&out->owned_, length + 1) : NULL;
    if (rc == BUS_OK && !data)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    size_t got = 0;
    while (rc == BUS_OK && got < length) {
        ssize_t n = read(fd, data + got, length - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; //  it shrank meanwhile: what there is
        got += (size_t) n;
    }
    out->data = data;
    out->data_size = got;
    if (fd >= 0)
        close(fd);
    sp_fs_destroy(&fs);
    return rc;
}

static int
s_on_mkdir(void *arg,
           const proto_storage_files_mkdir_req_t *in,
           proto_storage_files_mkdir_rep_t *out,
           bus_rpc_request_t *req,
           bus_error_t *err)
{
    (void) req;
    sp_rpc_t *self = arg;
    sp_folder_t folder;
    sp_fs_t *fs = NULL;
    int rc = BUS_OK;
    if (in->paths_count == 0)
        rc = bus_error_set(err, BUS_STATUS_INVALID, "no path to make");
    if (rc == BUS_OK)
        rc = s_open(self, in->id, in->volume, &folder, &fs, err);
    //  Each path's error lives in the reply's arena: its detail is sent.
    bus_error_t *errors = NULL;
    proto_storage_result_t *results = NULL;
    if (rc == BUS_OK) {
        results = proto_arena_alloc(&out->owned_, in->paths_count * sizeof *results);
        errors = proto_arena_alloc(&out->owned_, in->paths_count * sizeof *errors);
        out->results = results;
        if (!results || !errors)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    unsigned flags = (in->parents ? SP_FS_MKDIR_PARENTS : 0) |
                     (in->exist_ok ? SP_FS_MKDIR_EXIST_OK : 0);
    for (size_t i = 0; rc == BUS_OK && i < in->paths_count; i++) {
        proto_storage_result_t *result = &results[out->results_count++];
        proto_storage_result_init(result);
        result->path = in->paths[i];
        errors[i] = (bus_error_t){0};
        if (sp_fs_mkdir(fs, in->paths[i], strlen(in->paths[i]), flags, &errors[i]) != 0) {
            result->status = (uint64_t) errors[i].status;
            result->detail = errors[i].detail;
        }
    }
    sp_fs_destroy(&fs);
    return rc;
}

//  The destination of renaming path to new_name: its directory plus the
//  name, which must be one component.
static int
s_rename_target(const char *path,
                const char *new_name,
                char out[SP_FS_PATH_MAX + 1],
                bus_error_t *err)
{
    char rel[SP_FS_PATH_MAX + 1];
    if (sp_fs_check_path(path, strlen(path), rel, err) != 0)
        return err->status;
    if (!*rel)
        return bus_error_set(err, BUS_STATUS_INVALID, "cannot rename the folder root");
    size_t len = strlen(new_name);
    if (len == 0 || strchr(new_name, '/') || strcmp(new_name, ".") == 0 ||
        strcmp(new_name, "..") == 0)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "new name must be one path component");
    const char *slash = strrchr(rel, '/');
    size_t dir = slash ? (size_t) (slash - rel) + 1 : 0;
    if (dir + len > SP_FS_PATH_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID, "path over %d bytes",
                             SP_FS_PATH_MAX);
    memcpy(out, rel, dir);
    memcpy(out + dir, new_name, len + 1);
    return BUS_OK;
}

static int
s_on_rename(void *arg,
            const proto_storage_files_rename_req_t *in,
            proto_storage_files_rename_rep_t *out,
            bus_rpc_request_t *req,
            bus_error_t *err)
{
    (void) out, (void) req;
    sp_rpc_t *self = arg;
    sp_folder_t folder;
    sp_fs_t *fs = NULL;
    char target[SP_FS_PATH_MAX + 1];
    int rc = s_rename_target(in->path, in->new_name, target, err);
    if (rc == BUS_OK)
        rc = s_open(self, in->id, in->volume, &folder, &fs, err);
    if (rc == BUS_OK &&
        sp_fs_rename(fs, in->path, strlen(in->path), target, strlen(target), err) != 0)
        rc = err->status;
    sp_fs_destroy(&fs);
    return rc;
}

static int
s_on_move(void *arg,
          const proto_storage_files_move_req_t *in,
          proto_storage_files_move_rep_t *out,
          bus_rpc_request_t *req,
          bus_error_t *err)
{
    (void) out, (void) req;
    sp_rpc_t *self = arg;
    sp_folder_t folder;
    sp_fs_t *fs = NULL;
    int rc = s_open(self, in->id, in->volume, &folder, &fs, err);
    if (rc == BUS_OK &&
        sp_fs_move(fs, in->src, strlen(in->src), in->dst, strlen(in->dst), err) != 0)
        rc = err->status;
    sp_fs_destroy(&fs);
    return rc;
}

static int
s_on_files_delete(void *arg,
                  const proto_storage_files_delete_req_t *in,
                  proto_storage_files_delete_rep_t *out,
                  bus_rpc_request_t *req,
                  bus_error_t *err)
{
    (void) out, (void) req;
    sp_rpc_t *self = arg;
    sp_folder_t folder;
    sp_fs_t *fs = NULL;
    int rc = BUS_OK;
    if (in->paths_count == 0)
        rc = bus_error_set(err, BUS_STATUS_INVALID, "no path to delete");
    if (rc == BUS_OK)
        rc = s_open(self, in->id, in->volume, &folder, &fs, err);
    size_t deleted = 0;
    for (size_t i = 0; rc == BUS_OK && i < in->paths_count; i++) {
        bus_error_t one = {0};
        if (sp_fs_delete(fs, in->paths[i], strlen(in->paths[i]), in->recursive, &one) !=
            0)
            rc = bus_error_set(err, one.status, "%s (%zu of %zu deleted before it)",
                               one.detail, deleted, in->paths_count);
        else
            deleted++;
    }
    if (deleted)
        sp_folders_changed(self->folders, folder.id);
    sp_fs_destroy(&fs);
    return rc;
}

//  storage.files.fetch: a job of sp_fetch's, answered at once with its id.
static int
s_on_fetch(void *arg,
           const proto_storage_files_fetch_req_t *in,
           proto_storage_files_fetch_rep_t *out,
           bus_rpc_request_t *req,
           bus_error_t *err)
{
    (void) req;
    sp_rpc_t *self = arg;
    char job[SP_FETCH_JOB_LEN + 1];
    int rc = sp_fetch_start(self->fetch, in->id, in->volume, in->url, in->path, in->unzip,
                            in->strip_top, in->git, in->ref, job, err);
    if (rc == BUS_OK) {
        out->job = proto_arena_strdup(&out->owned_, job);
        if (!out->job)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    return rc;
}

static int
s_on_fetch_status(void *arg,
                  const proto_storage_files_fetch_status_req_t *in,
                  proto_storage_files_fetch_status_rep_t *out,
                  bus_rpc_request_t *req,
                  bus_error_t *err)
{
    (void) req;
    sp_rpc_t *self = arg;
    sp_fetch_status_t status;
    int rc = sp_fetch_status(self->fetch, in->job, &status, err);
    if (rc != BUS_OK)
        return rc;
    //  The status's strings are the registry's: copied, the reply outlives it.
    out->state = status.state;
    out->bytes = status.bytes;
    out->total = status.total;
    out->entries = status.entries;
    out->entries_total = status.entries_total;
    out->skipped = status.skipped;
    out->status = (uint64_t) status.status;
    out->detail = status.detail ? proto_arena_strdup(&out->owned_, status.detail) : NULL;
    out->url = status.url ? proto_arena_strdup(&out->owned_, status.url) : NULL;
    if ((status.detail && !out->detail) || (status.url && !out->url))
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    return BUS_OK;
}

//  ---------------------------------------------------------------------------

sp_rpc_t *
sp_rpc_new(bus_node_t *node,
           sp_folders_t *folders,
           sp_fetch_t *fetch,
           const char *url,
           bus_error_t *err)
{
    assert(node && folders && fetch && url);
    sp_rpc_t *self = calloc(1, sizeof *self);
    if (self) {
        self->node = node;
        self->folders = folders;
        self->fetch = fetch;
        self->url = strdup(url);
    }
    if (!self || !self->url) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        sp_rpc_destroy(&self);
        return NULL;
    }
    const bus_node_method_t methods[] = {
        proto_storage_volumes_method(s_on_volumes),
        proto_storage_folder_create_method(s_on_create),
        proto_storage_folder_delete_method(s_on_delete),
        proto_storage_folder_clone_method(s_on_clone),
        proto_storage_folder_usage_method(s_on_usage),
        proto_storage_folder_quota_method(s_on_quota),
        proto_storage_folder_mount_path_method(s_on_mount_path),
        proto_storage_files_list_method(s_on_list),
        proto_storage_files_read_method(s_on_read),
        proto_storage_files_mkdir_method(s_on_mkdir),
        proto_storage_files_rename_method(s_on_rename),
        proto_storage_files_move_method(s_on_move),
        proto_storage_files_delete_method(s_on_files_delete),
        proto_storage_files_fetch_method(s_on_fetch),
        proto_storage_files_fetch_status_method(s_on_fetch_status),
    };
    if (bus_node_serve(node, methods, sizeof methods / sizeof methods[0], self, err) !=
        BUS_OK) {
        sp_rpc_destroy(&self);
        return NULL;
    }
    return self;
}

void
sp_rpc_destroy(sp_rpc_t **self_p)
{
    assert(self_p);
    sp_rpc_t *self = *self_p;
    if (self) {
        sp_fs_page_destroy(&self->listing.page);
        free(self->url);
        free(self);
        *self_p = NULL;
    }
}
