/*  =========================================================================
    sp_upload - tus-style resumable upload of one file into a folder

    The staging file is SP_FS_STAGE_DIR/<id>.<size>: the offset is simply
    its length, so nothing else needs saving, and the size in the name keeps
    a token reissued with another size from resuming the wrong bytes. An
    open upload holds an exclusive flock on its staging file, so two
    requests cannot interleave chunks. A chunk is checked (offset, size,
    quota) before a byte of it is written, then written with pwrite; a
    failed write is cut back with ftruncate so the file never holds part of
    a chunk. The lock also keeps the expiry of abandoned uploads
    (sp_fs_stage_expire) off a file being written; one it removed between
    our open and our lock has no links left, and is opened afresh.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <sys/file.h> //  flock: one open upload per staging file
#include <sys/stat.h> //  fstat: the offset is the staging file's size

struct _sp_upload_t {
    sp_fs_t *fs; //  borrowed
    int fd;      //  the staging file, locked; -1 once done or aborted
    char stage[SP_FS_NAME_MAX + 1];
    char path[SP_FS_PATH_MAX + 1]; //  the target, normalized
    uint64_t size;
    uint64_t offset;
    bool done;
    bool aborted;
    sp_upload_quota_fn *quota;
    void *quota_arg;
};

static bool
s_id_ok(const char *id)
{
    size_t len = id ? strlen(id) : 0;
    if (len == 0 || len > SP_UPLOAD_ID_MAX)
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = id[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return false;
    }
    return true;
}

//  Syncs the staging file and renames it onto the target.
static int
s_finish(sp_upload_t *self, bus_error_t *err)
{
    if (fsync(self->fd) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "sync upload of %s: %s", self->path,
                      strerror(errno));
        return -1;
    }
    if (sp_fs_stage_commit(self->fs, self->stage, self->path, strlen(self->path), err) !=
        0)
        return -1;
    close(self->fd);
    self->fd = -1;
    self->done = true;
    return 0;
}

//  ---------------------------------------------------------------------------

sp_upload_t *
sp_upload_open(sp_fs_t *fs,
               const char *id,
               const char *path,
               size_t path_len,
               uint64_t size,
               bus_error_t *err)
{
    assert(fs);
    if (!s_id_ok(id)) {
        bus_error_set(err, BUS_STATUS_INVALID, "bad upload id");
        return NULL;
    }
    if (size > INT64_MAX) {
        bus_error_set(err, BUS_STATUS_INVALID, "upload size too large");
        return NULL;
    }
    sp_upload_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->fs = fs;
    self->fd = -1;
    self->size = size;
    if (sp_fs_check_path(path, path_len, self->path, err) != 0)
        goto fail;
    if (!self->path[0]) {
        bus_error_set(err, BUS_STATUS_INVALID, "no file name in upload path");
        goto fail;
    }
    //  Refuse now what the final rename would refuse, before taking bytes
    sp_fs_info_t info;
    bus_error_t stat_err = {0};
    if (sp_fs_stat(fs, self->path, strlen(self->path), &info, &stat_err) == 0) {
        if (info.type == SP_FS_DIR) {
            bus_error_set(err, BUS_STATUS_INVALID, "is a directory: %s", self->path);
            goto fail;
        }
    } else if (stat_err.status != BUS_STATUS_NOT_FOUND) {
        if (err)
            *err = stat_err;
        goto fail;
    }
    snprintf(self->stage, sizeof self->stage, "%s.%" PRIu64, id, size);
    struct stat st;
    for (int attempt = 1;; attempt++) {
        self->fd = sp_fs_stage_open(fs, self->stage, err);
        if (self->fd < 0)
            goto fail;
        if (flock(self->fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno == EWOULDBLOCK)
                bus_error_set(err, BUS_STATUS_CONFLICT, "upload in progress: %s",
                              self->path);
            else
                bus_error_set(err, BUS_STATUS_INTERNAL, "lock upload of %s: %s",
                              self->path, strerror(errno));
            goto fail;
        }
        if (fstat(self->fd, &st) != 0) {
            bus_error_set(err, BUS_STATUS_INTERNAL, "stat upload of %s: %s", self->path,
                          strerror(errno));
            goto fail;
        }
        if (st.st_nlink > 0)
            break;
        //  Expired (sp_fs_stage_expire) between our open and our lock: the
        //  old bytes are gone, the upload starts again in a new file.
        close(self->fd);
        self->fd = -1;
        if (attempt == SP_UPLOAD_OPEN_ATTEMPTS) {
            bus_error_set(err, BUS_STATUS_CONFLICT,
                          "staging file of %s removed meanwhile", self->path);
            goto fail;
        }
    }
    if ((uint64_t) st.st_size > size) {
        bus_error_set(err, BUS_STATUS_CONFLICT,
                      "staging file holds more than the %" PRIu64 " bytes announced",
                      size);
        goto fail;
    }
    self->offset = (uint64_t) st.st_size;
    if (self->offset == size && s_finish(self, err) != 0)
        goto fail;
    return self;
fail:
    sp_upload_destroy(&self);
    return NULL;
}

void
sp_upload_destroy(sp_upload_t **self_p)
{
    assert(self_p);
    sp_upload_t *self = *self_p;
    if (self) {
        if (self->fd >= 0)
            close(self->fd); //  drops the lock
        free(self);
        *self_p = NULL;
    }
}

//  ---------------------------------------------------------------------------

void
sp_upload_set_quota(sp_upload_t *self, sp_upload_quota_fn *fn, void *arg)
{
    assert(self);
    self->quota = fn;
    self->quota_arg = arg;
}

//  ---------------------------------------------------------------------------

uint64_t
sp_upload_offset(sp_upload_t *self)
{
    assert(self);
    return self->offset;
}

uint64_t
sp_upload_size(sp_upload_t *self)
{
    assert(self);
    return self->size;
}

bool
sp_upload_done(sp_upload_t *self)
{
    assert(self);
    return self->done;
}

//  ---------------------------------------------------------------------------

int
sp_upload_append(
    sp_upload_t *self, uint64_t offset, const void *data, size_t len, bus_error_t *err)
{
    assert(self);
    assert(data || len == 0);
    if (self->aborted)
        return bus_error_set(err, BUS_STATUS_CONFLICT, "upload abandoned"), -1;
    if (offset != self->offset)
        return bus_error_set(err, BUS_STATUS_CONFLICT,
                             "offset mismatch: the upload is at %" PRIu64
                             ", not %" PRIu64,
                             self->offset, offset),
               -1;
    if (len > self->size - self->offset)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "chunk of %zu bytes at %" PRIu64
                             " goes past the announced size of %" PRIu64,
                             len, offset, self->size),
               -1;
    if (len == 0)
        return 0;
    if (self->quota) {
        bus_error_t quota_err = {0};
        if (self->quota(self->quota_arg, len, &quota_err) != 0) {
            if (quota_err.status == BUS_OK)
                bus_error_set(&quota_err, BUS_STATUS_FORBIDDEN, "folder quota exceeded");
            if (err)
                *err = quota_err;
            return -1;
        }
    }
    const uint8_t *bytes = data;
    size_t done = 0;
    while (done < len) {
        ssize_t n = pwrite(self->fd, bytes + done, len - done, (off_t) (offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int saved = n < 0 ? errno : EIO;
            //  leave nothing of the chunk behind
            if (ftruncate(self->fd, (off_t) offset) != 0)
                bus_log_error("upload cut back failed path=%s", self->path);
            if (saved == ENOSPC || saved == EDQUOT)
                bus_error_set(err, BUS_STATUS_UNAVAILABLE, "no space left for %s",
                              self->path);
            else
                bus_error_set(err, BUS_STATUS_INTERNAL, "write upload of %s: %s",
                              self->path, strerror(saved));
            return -1;
        }
        done += (size_t) n;
    }
    self->offset += len;
    if (self->offset == self->size)
        return s_finish(self, err);
    return 0;
}

//  ---------------------------------------------------------------------------

int
sp_upload_abort(sp_upload_t *self, bus_error_t *err)
{
    assert(self);
    if (self->done)
        return bus_error_set(err, BUS_STATUS_CONFLICT, "upload already complete"), -1;
    if (self->fd >= 0) {
        close(self->fd);
        self->fd = -1;
    }
    self->aborted = true;
    self->offset = 0;
    return sp_fs_stage_remove(self->fs, self->stage, err);
}
