/*  =========================================================================
    sp_zip - a small, strict reader of .zip archives

    The layout (APPNOTE 6.3): local headers with each entry's data, then
    the central directory (one record per entry), then the end record
    (22 bytes and a comment). Only the central directory is trusted for
    sizes and offsets; each local header is checked against it when its
    entry is read.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"

#define S_EOCD_SIG    0x06054b50u
#define S_CENTRAL_SIG 0x02014b50u
#define S_LOCAL_SIG   0x04034b50u
#define S_EOCD_LEN    22
#define S_CENTRAL_LEN 46
#define S_LOCAL_LEN   30
#define S_COMMENT_MAX 65535
#define S_FLAG_CRYPT  0x0001u //  encrypted (bit 0) ...
#define S_FLAG_STRONG 0x0040u //  ... or strongly encrypted (bit 6)
#define S_HOST_UNIX   3
#define S_ZIP64_16    0xffffu
#define S_ZIP64_32    0xffffffffu

struct _sp_zip_t {
    int fd;
    uint64_t size;
    uint64_t dir_offset; //  data must end before it
    sp_zip_entry_t *entries;
    size_t count;
};

//  Sets err and answers -1.
static uint16_t
s_u16(const uint8_t *p)
{
    return (uint16_t) (p[0] | p[1] << 8);
}

static uint32_t
s_u32(const uint8_t *p)
{
    return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 |
           (uint32_t) p[3] << 24;
}

//  Reads exactly len bytes at offset. 0, or -1 (short or failed).
static int
s_pread(int fd, void *buf, size_t len, uint64_t offset)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = pread(fd, (uint8_t *) buf + got, len - got, (off_t) (offset + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        got += (size_t) n;
    }
    return 0;
}

//  Finds the end record: the last 22 bytes plus at most a 64 KiB comment,
//  searched from the end; its comment must run exactly to the file's end.
static int
s_find_end(sp_zip_t *self, uint8_t record[S_EOCD_LEN], bus_error_t *err)
{
    if (self->size < S_EOCD_LEN)
        return bus_error_fail(err, BUS_STATUS_INVALID, "not a zip archive (%llu bytes)",
                              (unsigned long long) self->size);
    uint64_t tail =
        self->size < S_EOCD_LEN + S_COMMENT_MAX ? self->size : S_EOCD_LEN + S_COMMENT_MAX;
    uint8_t *buf = malloc(tail);
    if (!buf)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "out of memory");
    if (s_pread(self->fd, buf, tail, self->size - tail) != 0) {
        free(buf);
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "cannot read the archive");
    }
    for (uint64_t at = tail - S_EOCD_LEN + 1; at-- > 0;) {
        if (s_u32(buf + at) == S_EOCD_SIG &&
            at + S_EOCD_LEN + s_u16(buf + at + 20) == tail) {
            memcpy(record, buf + at, S_EOCD_LEN);
            free(buf);
            return 0;
        }
    }
    free(buf);
    return bus_error_fail(err, BUS_STATUS_INVALID,
                          "not a zip archive (no end of central directory)");
}

static int
s_by_name(const void *a, const void *b)
{
    const sp_zip_entry_t *const *x = a, *const *y = b;
    return strcmp((*x)->name, (*y)->name);
}

//  Refuses two entries of the same name (after normalising "a/./b" and the
//  trailing '/' of directories).
static int
s_check_unique(sp_zip_t *self, bus_error_t *err)
{
    if (self->count < 2)
        return 0;
    const sp_zip_entry_t **order = malloc(self->count * sizeof *order);
    if (!order)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "out of memory");
    for (size_t i = 0; i < self->count; i++)
        order[i] = &self->entries[i];
    qsort(order, self->count, sizeof *order, s_by_name);
    int rc = 0;
    for (size_t i = 1; i < self->count && rc == 0; i++)
        if (strcmp(order[i - 1]->name, order[i]->name) == 0)
            rc = bus_error_fail(err, BUS_STATUS_INVALID, "entry %.200s appears twice",
                                order[i]->name);
    free(order);
    return rc;
}

//  One central record at p (left bytes to the directory's end) into
//  entry; *used_p the record's length. 0, or -1 with err.
static int
s_parse_central(const uint8_t *p,
                size_t left,
                size_t index,
                sp_zip_entry_t *entry,
                size_t *used_p,
                bus_error_t *err)
{
    if (left < S_CENTRAL_LEN || s_u32(p) != S_CENTRAL_SIG)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "entry %zu: damaged central directory", index);
    uint16_t made_by = s_u16(p + 4), flags = s_u16(p + 8), method = s_u16(p + 10);
    uint32_t crc = s_u32(p + 16), csize = s_u32(p + 20), usize = s_u32(p + 24);
    size_t name_len = s_u16(p + 28), extra_len = s_u16(p + 30),
           comment_len = s_u16(p + 32);
    uint16_t disk = s_u16(p + 34);
    uint32_t external = s_u32(p + 38), offset = s_u32(p + 42);
    size_t used = S_CENTRAL_LEN + name_len + extra_len + comment_len;
    if (used > left)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "entry %zu: damaged central directory", index);
    const char *raw = (const char *) p + S_CENTRAL_LEN;
    //  The raw name, shown in details, cut at anything unprintable.
    char shown[128];
    size_t n = 0;
    for (; n < name_len && n < sizeof shown - 1 && raw[n] >= 0x20 && raw[n] != 0x7f; n++)
        shown[n] = raw[n];
    shown[n] = 0;
    if (flags & (S_FLAG_CRYPT | S_FLAG_STRONG))
        return bus_error_fail(err, BUS_STATUS_INVALID, "entry %s is encrypted", shown);
    if (method != 0 && method != 8)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "entry %s: compression method %u (only stored and deflate)",
                              shown, method);
    if (csize == S_ZIP64_32 || usize == S_ZIP64_32 || offset == S_ZIP64_32 ||
        disk == S_ZIP64_16)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "entry %s: ZIP64 archives are not supported", shown);
    if (method == 0 && csize != usize)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "entry %s: stored with two different sizes", shown);
    if (name_len == 0 || memchr(raw, '\\', name_len) || raw[0] == '/')
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "entry %s: an absolute, empty or backslashed name", shown);
    bool dir = raw[name_len - 1] == '/';
    size_t len = dir ? name_len - 1 : name_len;
    char normal[SP_FS_PATH_MAX + 1];
    bus_error_t path_err = {0};
    if (len == 0 || sp_fs_check_path(raw, len, normal, &path_err) != 0 || !*normal)
        return bus_error_fail(err, BUS_STATUS_INVALID, "entry %s: %s", shown,
                              len ? path_err.detail : "the archive's root");
    uint32_t unix_mode = (made_by >> 8) == S_HOST_UNIX ? external >> 16 : 0;
    entry->symlink = (unix_mode & S_IFMT) == S_IFLNK;
    if (dir && entry->symlink)
        return bus_error_fail(err, BUS_STATUS_INVALID, "entry %s: a directory and a link",
                              shown);
    entry->dir = dir;
    entry->mode = dir ? 0755 : (unix_mode & 0111) ? 0755 : 0644;
    entry->method = method;
    entry->crc = crc;
    entry->csize = csize;
    entry->usize = usize;
    entry->offset = offset;
    entry->name = strdup(normal);
    if (!entry->name)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "out of memory");
    *used_p = used;
    return 0;
}

//  ---------------------------------------------------------------------------

sp_zip_t *
sp_zip_open(int fd, uint64_t size, const sp_zip_limits_t *limits, bus_error_t *err)
{
    assert(fd >= 0 && limits);
    sp_zip_t *self = calloc(1, sizeof *self);
    uint8_t end[S_EOCD_LEN] = {0};
    uint8_t *dir = NULL;
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->fd = fd;
    self->size = size;
    if (s_find_end(self, end, err) != 0)
        goto fail;
    uint16_t disk = s_u16(end + 4), dir_disk = s_u16(end + 6);
    uint16_t here = s_u16(end + 8), total = s_u16(end + 10);
    uint32_t dir_size = s_u32(end + 12), dir_offset = s_u32(end + 16);
    uint64_t end_at = size - S_EOCD_LEN - s_u16(end + 20);
    if (total == S_ZIP64_16 || dir_size == S_ZIP64_32 || dir_offset == S_ZIP64_32) {
        bus_error_set(err, BUS_STATUS_INVALID, "ZIP64 archives are not supported");
        goto fail;
    }
    if (disk != 0 || dir_disk != 0 || here != total) {
        bus_error_set(err, BUS_STATUS_INVALID, "archives split over disks are refused");
        goto fail;
    }
    if ((uint64_t) dir_offset + dir_size > end_at || dir_size > SP_ZIP_DIR_MAX) {
        bus_error_set(err, BUS_STATUS_INVALID, "damaged archive (central directory)");
        goto fail;
    }
    if (total > limits->max_entries) {
        bus_error_set(err, BUS_STATUS_INVALID, "%u entries, more than %llu", total,
                      (unsigned long long) limits->max_entries);
        goto fail;
    }
    self->dir_offset = dir_offset;
    dir = malloc(dir_size ? dir_size : 1);
    self->entries = calloc(total ? total : 1, sizeof *self->entries);
    if (!dir || !self->entries) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        goto fail;
    }
    if (s_pread(fd, dir, dir_size, dir_offset) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the archive");
        goto fail;
    }
    size_t at = 0;
    uint64_t bytes = 0;
    for (size_t i = 0; i < total; i++) {
        size_t used = 0;
        if (s_parse_central(dir + at, dir_size - at, i, &self->entries[i], &used, err) !=
            0)
            goto fail;
        self->count++;
        at += used;
        const sp_zip_entry_t *entry = &self->entries[i];
        if (entry->offset + S_LOCAL_LEN + entry->csize > dir_offset) {
            bus_error_set(err, BUS_STATUS_INVALID,
                          "entry %.200s: its data runs into the central directory",
                          entry->name);
            goto fail;
        }
        bytes += entry->usize;
        if (bytes > limits->max_bytes) {
            bus_error_set(err, BUS_STATUS_INVALID,
                          "the entries hold more than %llu bytes once unpacked",
                          (unsigned long long) limits->max_bytes);
            goto fail;
        }
    }
    if (at != dir_size) {
        bus_error_set(err, BUS_STATUS_INVALID,
                      "damaged archive (central directory size)");
        goto fail;
    }
    if (s_check_unique(self, err) != 0)
        goto fail;
    free(dir);
    return self;
fail:
    free(dir);
    sp_zip_destroy(&self);
    return NULL;
}

void
sp_zip_destroy(sp_zip_t **self_p)
{
    assert(self_p);
    sp_zip_t *self = *self_p;
    if (self) {
        for (size_t i = 0; i < self->count; i++)
            free(self->entries[i].name);
        free(self->entries);
        free(self);
        *self_p = NULL;
    }
}

size_t
sp_zip_count(const sp_zip_t *self)
{
    assert(self);
    return self->count;
}

const sp_zip_entry_t *
sp_zip_at(const sp_zip_t *self, size_t index)
{
    assert(self && index < self->count);
    return &self->entries[index];
}

//  ---------------------------------------------------------------------------

int
sp_zip_extract(sp_zip_t *self, size_t index, int out, bus_error_t *err)
{
    assert(self && index < self->count);
    const sp_zip_entry_t *entry = &self->entries[index];
    uint8_t local[S_LOCAL_LEN];
    if (s_pread(self->fd, local, sizeof local, entry->offset) != 0 ||
        s_u32(local) != S_LOCAL_SIG || s_u16(local + 8) != entry->method ||
        (s_u16(local + 6) & (S_FLAG_CRYPT | S_FLAG_STRONG)))
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "entry %.200s: damaged local header", entry->name);
    uint64_t data = entry->offset + S_LOCAL_LEN + s_u16(local + 26) + s_u16(local + 28);
    if (data + entry->csize > self->dir_offset)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "entry %.200s: its data runs into the central directory",
                              entry->name);
    uint8_t *in = malloc(SP_ZIP_BUFFER), *buf = malloc(SP_ZIP_BUFFER);
    z_stream z;
    memset(&z, 0, sizeof z);
    bool inflating = false;
    int rc = 0;
    uint64_t read_at = 0, written = 0;
    uLong crc = crc32(0L, Z_NULL, 0);
    if (!in || !buf) {
        rc = bus_error_fail(err, BUS_STATUS_INTERNAL, "out of memory");
        goto done;
    }
    if (entry->method == 8) {
        if (inflateInit2(&z, -MAX_WBITS) != Z_OK) {
            rc = bus_error_fail(err, BUS_STATUS_INTERNAL, "cannot start inflating");
            goto done;
        }
        inflating = true;
    }
    bool ended = entry->method == 0 && entry->csize == 0;
    if (entry->method == 8 && entry->csize == 0) {
        rc = bus_error_fail(err, BUS_STATUS_INVALID, "entry %.200s: no deflate data",
                            entry->name);
        goto done;
    }
    while (rc == 0 && !ended) {
        size_t chunk = entry->csize - read_at < SP_ZIP_BUFFER
                           ? (size_t) (entry->csize - read_at)
                           : SP_ZIP_BUFFER;
        if (chunk == 0) {
            rc = bus_error_fail(err, BUS_STATUS_INVALID, "entry %.200s: truncated data",
                                entry->name);
            break;
        }
        if (s_pread(self->fd, in, chunk, data + read_at) != 0) {
            rc = bus_error_fail(err, BUS_STATUS_INTERNAL, "cannot read the archive");
            break;
        }
        read_at += chunk;
        if (entry->method == 0) {
            crc = crc32(crc, in, (uInt) chunk);
            written += chunk;
            rc = sp_fs_write_all(out, in, chunk, err);
            ended = read_at == entry->csize;
            continue;
        }
        z.next_in = in;
        z.avail_in = (uInt) chunk;
        while (rc == 0 && !ended && (z.avail_in > 0 || read_at == entry->csize)) {
            z.next_out = buf;
            z.avail_out = SP_ZIP_BUFFER;
            int zrc = inflate(&z, Z_NO_FLUSH);
            size_t produced = SP_ZIP_BUFFER - z.avail_out;
            if (zrc != Z_OK && zrc != Z_STREAM_END && !(zrc == Z_BUF_ERROR && produced)) {
                rc = bus_error_fail(err, BUS_STATUS_INVALID,
                                    "entry %.200s: damaged deflate data", entry->name);
                break;
            }
            if (written + produced > entry->usize) {
                rc = bus_error_fail(err, BUS_STATUS_INVALID,
                                    "entry %.200s: inflates past its declared %llu bytes",
                                    entry->name, (unsigned long long) entry->usize);
                break;
            }
            crc = crc32(crc, buf, (uInt) produced);
            written += produced;
            rc = sp_fs_write_all(out, buf, produced, err);
            if (zrc == Z_STREAM_END)
                ended = true;
            else if (produced == 0 && z.avail_in == 0)
                break; //  more input needed (or none left: truncated, above)
        }
    }
    if (rc == 0 && written != entry->usize)
        rc = bus_error_fail(
            err, BUS_STATUS_INVALID, "entry %.200s: %llu bytes, not the %llu declared",
            entry->name, (unsigned long long) written, (unsigned long long) entry->usize);
    if (rc == 0 && (uint32_t) crc != entry->crc)
        rc = bus_error_fail(err, BUS_STATUS_INVALID, "entry %.200s: CRC-32 mismatch",
                            entry->name);
done:
    if (inflating)
        inflateEnd(&z);
    free(in);
    free(buf);
    return rc;
}
