/*  =========================================================================
    sp_git_pack - the objects of a pack file, by SHA-1

    The layout (git's Documentation/gitformat-pack): "PACK", a version, an
    object count, then each object as a header (a type and a size in a
    little-endian base-128 number; for an ofs-delta the distance back to
    its base, for a ref-delta its base's SHA-1) and a zlib stream; then the
    SHA-1 of all that. A delta is its base's size, its result's size, then
    instructions: copy a range of the base, or insert the bytes that
    follow.

    Opening walks the objects in order (s_scan), then resolves the deltas
    in rounds (s_resolve_all): a ref-delta's base may come later in the
    pack, so a round leaves what it cannot resolve yet to the next (its
    base looked up before anything is inflated), and a round that resolves
    nothing ends it. A delta is resolved without recursion (s_resolve):
    down its chain to the nearest object stored whole or cached, then up,
    applying one delta at a time, each result kept in the cache for the
    next. The index of names is an open addressing table over the objects.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <sys/mman.h> //  the pack is mapped

#define S_HEADER_LEN 12
#define S_KIND_OFS   6
#define S_KIND_REF   7
#define S_MIN_OBJECT 9 //  a header byte and the shortest zlib stream
#define S_TAG_DEPTH  8
#define S_META_MAX   (16u << 20) //  a commit or tag read to find its tree
#define S_MISSING    (-2)        //  a ref-delta's base not resolved yet

typedef struct {
    uint64_t offset;    //  of the object's header
    uint64_t data;      //  of its zlib stream
    uint64_t size;      //  what the stream inflates to (a delta's own size)
    uint64_t real_size; //  the object's size, once resolved
    int64_t base;       //  ofs-delta: its base's index; else -1
    uint8_t sha[SP_GIT_SHA_LEN];
    uint8_t kind; //  1-4, or S_KIND_OFS, S_KIND_REF
    uint8_t type; //  sp_git_type_t once resolved, 0 before
} obj_t;

typedef struct {
    int64_t index; //  -1: empty
    uint8_t type;
    uint8_t *data;
    size_t len;
} slot_t;

struct _sp_git_pack_t {
    const uint8_t *map;
    uint64_t size;
    uint64_t end; //  where the objects end: the checksum's offset
    obj_t *objs;
    size_t count;
    uint32_t *table; //  index + 1, 0 empty
    size_t table_size;
    z_stream z;
    bool z_ready;
    EVP_MD_CTX *md;
    uint8_t *buf;         //  SP_GIT_BUFFER bytes of inflated output
    uint64_t inflated;    //  bytes inflated, copied and made (the budget)
    uint64_t max_inflate; //  and its limit
    uint64_t max_blob;
    sp_git_stop_fn *stop;
    void *stop_arg;
    slot_t cache[SP_GIT_CACHE_SLOTS];
    size_t cache_bytes;
    size_t cache_hand; //  the next slot evicted when over budget
};

static const char *const k_types[] = {"", "commit", "tree", "blob", "tag"};

//  ---------------------------------------------------------------------------
//  The index of names

static size_t
s_hash(const uint8_t *sha, size_t table_size)
{
    uint64_t h;
    memcpy(&h, sha, sizeof h);
    return (size_t) (h & (table_size - 1));
}

static int64_t
s_find(const sp_git_pack_t *self, const uint8_t *sha)
{
    for (size_t i = s_hash(sha, self->table_size);;
         i = (i + 1) & (self->table_size - 1)) {
        uint32_t at = self->table[i];
        if (at == 0)
            return -1;
        if (memcmp(self->objs[at - 1].sha, sha, SP_GIT_SHA_LEN) == 0)
            return at - 1;
    }
}

//  Adds a resolved object; a second copy of a name is left out.
static void
s_insert(sp_git_pack_t *self, size_t index)
{
    const uint8_t *sha = self->objs[index].sha;
    for (size_t i = s_hash(sha, self->table_size);;
         i = (i + 1) & (self->table_size - 1)) {
        uint32_t at = self->table[i];
        if (at == 0) {
            self->table[i] = (uint32_t) index + 1;
            return;
        }
        if (memcmp(self->objs[at - 1].sha, sha, SP_GIT_SHA_LEN) == 0)
            return;
    }
}

//  Counts len bytes of work against the pack's budget.
static int
s_spend(sp_git_pack_t *self, uint64_t len, bus_error_t *err)
{
    if (len > self->max_inflate - self->inflated)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "the pack takes more than %llu bytes of inflating and "
                              "resolving (its deltas resolved over and over?)",
                              (unsigned long long) self->max_inflate);
    self->inflated += len;
    return 0;
}

//  ---------------------------------------------------------------------------
//  Inflating

typedef int(s_sink_fn)(void *arg, const uint8_t *data, size_t len, bus_error_t *err);

//  Inflates obj's stream to exactly its size through sink (NULL: dropped);
//  *end_p the offset after the stream. 0, or -1 with err.
static int
s_inflate(sp_git_pack_t *self,
          const obj_t *obj,
          s_sink_fn *sink,
          void *arg,
          uint64_t *end_p,
          bus_error_t *err)
{
    if (inflateReset(&self->z) != Z_OK)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "cannot start inflating");
    uint64_t avail = self->end - obj->data;
    self->z.next_in = (Bytef *) (uintptr_t) (self->map + obj->data);
    self->z.avail_in = avail > UINT_MAX ? UINT_MAX : (uInt) avail;
    uint64_t total = 0, asked = 0;
    for (;;) {
        if (self->stop && total - asked >= SP_GIT_STOP_EVERY) {
            asked = total;
            if (self->stop(self->stop_arg, err))
                return -1;
        }
        self->z.next_out = self->buf;
        self->z.avail_out = SP_GIT_BUFFER;
        int zrc = inflate(&self->z, Z_NO_FLUSH);
        size_t got = SP_GIT_BUFFER - self->z.avail_out;
        if (zrc != Z_OK && zrc != Z_STREAM_END)
            return bus_error_fail(err, BUS_STATUS_INVALID,
                                  "object at %llu: damaged or truncated zlib data",
                                  (unsigned long long) obj->offset);
        if (got > obj->size - total)
            return bus_error_fail(err, BUS_STATUS_INVALID,
                                  "object at %llu: inflates past its declared %llu bytes",
                                  (unsigned long long) obj->offset,
                                  (unsigned long long) obj->size);
        total += got;
        if (s_spend(self, got, err) != 0)
            return -1;
        if (got && sink && sink(arg, self->buf, got, err) != 0)
            return -1;
        if (zrc == Z_STREAM_END)
            break;
        if (got == 0 && self->z.avail_in == 0)
            return bus_error_fail(err, BUS_STATUS_INVALID, "object at %llu: truncated",
                                  (unsigned long long) obj->offset);
    }
    if (total != obj->size)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "object at %llu: %llu bytes, not the %llu declared",
                              (unsigned long long) obj->offset,
                              (unsigned long long) total, (unsigned long long) obj->size);
    if (end_p)
        *end_p = obj->data + self->z.total_in;
    return 0;
}

static int
s_sink_hash(void *arg, const uint8_t *data, size_t len, bus_error_t *err)
{
    if (EVP_DigestUpdate(arg, data, len) != 1)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "SHA-1 failed");
    return 0;
}

typedef struct {
    uint8_t *data;
    size_t len;
} s_into_t;

static int
s_sink_memory(void *arg, const uint8_t *data, size_t len, bus_error_t *err)
{
    (void) err;
    s_into_t *into = arg;
    memcpy(into->data + into->len, data, len); //  s_inflate keeps to the size
    into->len += len;
    return 0;
}

static int
s_sink_fd(void *arg, const uint8_t *data, size_t len, bus_error_t *err)
{
    return sp_fs_write_all(*(int *) arg, data, len, err);
}

//  Starts the SHA-1 of an object: "<type> <size>\0", then its bytes.
static int
s_name_begin(sp_git_pack_t *self, int type, uint64_t size, bus_error_t *err)
{
    char header[32];
    int n = snprintf(header, sizeof header, "%s %llu", k_types[type],
                     (unsigned long long) size);
    if (EVP_DigestInit_ex(self->md, EVP_sha1(), NULL) != 1 ||
        EVP_DigestUpdate(self->md, header, (size_t) n + 1) != 1)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "SHA-1 failed");
    return 0;
}

static int
s_name_end(sp_git_pack_t *self, uint8_t sha[SP_GIT_SHA_LEN], bus_error_t *err)
{
    unsigned int md_len = 0;
    if (EVP_DigestFinal_ex(self->md, sha, &md_len) != 1 || md_len != SP_GIT_SHA_LEN)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "SHA-1 failed");
    return 0;
}

//  The SHA-1 of a resolved object's bytes.
static int
s_name(sp_git_pack_t *self,
       obj_t *obj,
       int type,
       const uint8_t *data,
       size_t len,
       bus_error_t *err)
{
    if (s_name_begin(self, type, len, err) != 0 ||
        s_sink_hash(self->md, data, len, err) != 0)
        return -1;
    return s_name_end(self, obj->sha, err);
}

//  ---------------------------------------------------------------------------
//  The walk over the objects

//  Parses the header of the object at self->objs[index].offset.
static int
s_parse_header(sp_git_pack_t *self, size_t index, bus_error_t *err)
{
    obj_t *obj = &self->objs[index];
    uint64_t at = obj->offset;
    if (at >= self->end)
        return bus_error_fail(err, BUS_STATUS_INVALID, "object %zu: past the pack's end",
                              index);
    uint8_t c = self->map[at++];
    obj->kind = (c >> 4) & 7;
    uint64_t size = c & 15;
    int shift = 4;
    while (c & 0x80) {
        if (at >= self->end || shift > 57)
            return bus_error_fail(err, BUS_STATUS_INVALID, "object %zu: malformed header",
                                  index);
        c = self->map[at++];
        size |= (uint64_t) (c & 0x7f) << shift;
        shift += 7;
    }
    obj->size = size;
    obj->base = -1;
    if (obj->kind == 0 || obj->kind == 5)
        return bus_error_fail(err, BUS_STATUS_INVALID, "object %zu: unknown type %u",
                              index, obj->kind);
    //  Refused before a byte is inflated: a blob goes to its file, so up to
    //  the checkout's bytes; anything else is held in memory.
    uint64_t max = obj->kind == SP_GIT_BLOB ? self->max_blob : SP_GIT_OBJECT_MAX;
    if (size > max)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "object %zu: declares %llu bytes, over %llu", index,
                              (unsigned long long) size, (unsigned long long) max);
    if (obj->kind == S_KIND_OFS) {
        if (at >= self->end)
            return bus_error_fail(err, BUS_STATUS_INVALID, "object %zu: malformed header",
                                  index);
        c = self->map[at++];
        uint64_t back = c & 0x7f;
        while (c & 0x80) {
            if (at >= self->end || back >= (UINT64_MAX >> 8))
                return bus_error_fail(err, BUS_STATUS_INVALID,
                                      "object %zu: malformed delta", index);
            c = self->map[at++];
            back = ((back + 1) << 7) | (c & 0x7f);
        }
        if (back == 0 || back > obj->offset - S_HEADER_LEN)
            return bus_error_fail(err, BUS_STATUS_INVALID,
                                  "object %zu: its delta's base is outside the pack",
                                  index);
        uint64_t base_offset = obj->offset - back;
        size_t lo = 0, hi = index;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (self->objs[mid].offset < base_offset)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo >= index || self->objs[lo].offset != base_offset)
            return bus_error_fail(err, BUS_STATUS_INVALID,
                                  "object %zu: its delta's base is not an object", index);
        obj->base = (int64_t) lo;
    } else if (obj->kind == S_KIND_REF) {
        if (self->end - at < SP_GIT_SHA_LEN)
            return bus_error_fail(err, BUS_STATUS_INVALID, "object %zu: malformed header",
                                  index);
        at += SP_GIT_SHA_LEN;
    }
    obj->data = at;
    return 0;
}

static int
s_scan(sp_git_pack_t *self, bus_error_t *err)
{
    sp_git_stop_fn *stop = self->stop;
    void *stop_arg = self->stop_arg;
    uint64_t at = S_HEADER_LEN;
    for (size_t i = 0; i < self->count; i++) {
        if (stop && stop(stop_arg, err))
            return -1;
        obj_t *obj = &self->objs[i];
        obj->offset = at;
        if (s_parse_header(self, i, err) != 0)
            return -1;
        bool whole = obj->kind <= SP_GIT_TAG;
        if (whole && s_name_begin(self, obj->kind, obj->size, err) != 0)
            return -1;
        if (s_inflate(self, obj, whole ? s_sink_hash : NULL, self->md, &at, err) != 0)
            return -1;
        if (whole) {
            if (s_name_end(self, obj->sha, err) != 0)
                return -1;
            obj->type = obj->kind;
            obj->real_size = obj->size;
            s_insert(self, i);
        }
    }
    if (at != self->end)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "%llu bytes between the last object and the checksum",
                              (unsigned long long) (self->end - at));
    return 0;
}

//  ---------------------------------------------------------------------------
//  Deltas

static void
s_cache_drop(sp_git_pack_t *self, slot_t *slot)
{
    if (slot->data) {
        self->cache_bytes -= slot->len;
        free(slot->data);
    }
    slot->data = NULL;
    slot->index = -1;
}

//  Gives data (len bytes, NUL-terminated past them) to the cache for the
//  deltas built on it, within SP_GIT_CACHE_BYTES (the oldest slots go
//  first). True when the cache took it; else the caller still owns it.
static bool
s_cache_keep(sp_git_pack_t *self, size_t index, int type, uint8_t *data, size_t len)
{
    if (len > SP_GIT_CACHE_BYTES)
        return false;
    slot_t *slot = &self->cache[index % SP_GIT_CACHE_SLOTS];
    s_cache_drop(self, slot);
    for (size_t n = 0;
         self->cache_bytes + len > SP_GIT_CACHE_BYTES && n < SP_GIT_CACHE_SLOTS; n++) {
        s_cache_drop(self, &self->cache[self->cache_hand]);
        self->cache_hand = (self->cache_hand + 1) % SP_GIT_CACHE_SLOTS;
    }
    slot->data = data;
    slot->len = len;
    slot->type = (uint8_t) type;
    slot->index = (int64_t) index;
    self->cache_bytes += len;
    return true;
}

//  A delta's header number at *p (before end).
static int
s_delta_size(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    uint64_t value = 0;
    int shift = 0;
    uint8_t c;
    do {
        if (*p >= end || shift > 63)
            return -1;
        c = *(*p)++;
        value |= (uint64_t) (c & 0x7f) << shift;
        shift += 7;
    } while (c & 0x80);
    *out = value;
    return 0;
}

//  Applies delta (len bytes) to base; *out_p the result (caller frees).
static int
s_apply(const uint8_t *base,
        size_t base_len,
        const uint8_t *delta,
        size_t len,
        uint8_t **out_p,
        size_t *out_len_p,
        bus_error_t *err)
{
    const uint8_t *p = delta, *end = delta + len;
    uint64_t src, dst;
    if (s_delta_size(&p, end, &src) != 0 || s_delta_size(&p, end, &dst) != 0)
        return bus_error_fail(err, BUS_STATUS_INVALID, "a malformed delta");
    if (src != base_len)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "a delta for a base of another size");
    if (dst > SP_GIT_OBJECT_MAX)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "a delta's result is over %u bytes", SP_GIT_OBJECT_MAX);
    uint8_t *out = malloc(dst + 1);
    if (!out)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "out of memory");
    size_t at = 0;
    while (p < end) {
        uint8_t op = *p++;
        if (op & 0x80) {
            uint64_t offset = 0, size = 0;
            for (int i = 0; i < 4; i++)
                if (op & (1u << i)) {
                    if (p >= end)
                        goto bad;
                    offset |= (uint64_t) *p++ << (8 * i);
                }
            for (int i = 0; i < 3; i++)
                if (op & (0x10u << i)) {
                    if (p >= end)
                        goto bad;
                    size |= (uint64_t) *p++ << (8 * i);
                }
            if (size == 0)
                size = 0x10000;
            if (offset + size > base_len || size > dst - at)
                goto bad;
            memcpy(out + at, base + offset, size);
            at += size;
        } else if (op) {
            if (op > (size_t) (end - p) || op > dst - at)
                goto bad;
            memcpy(out + at, p, op);
            p += op;
            at += op;
        } else
            goto bad;
    }
    if (at != dst)
        goto bad;
    out[dst] = 0;
    *out_p = out;
    *out_len_p = dst;
    return 0;
bad:
    free(out);
    return bus_error_fail(err, BUS_STATUS_INVALID, "a malformed delta");
}

//  Inflates obj (at most SP_GIT_OBJECT_MAX bytes) into *data_p (caller
//  frees; NUL-terminated past its size).
static int
s_inflate_memory(sp_git_pack_t *self,
                 const obj_t *obj,
                 uint8_t **data_p,
                 bus_error_t *err)
{
    if (obj->size > SP_GIT_OBJECT_MAX)
        return bus_error_fail(err, BUS_STATUS_INVALID, "object at %llu: over %u bytes",
                              (unsigned long long) obj->offset, SP_GIT_OBJECT_MAX);
    s_into_t into = {malloc(obj->size + 1), 0};
    if (!into.data)
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "out of memory");
    if (s_inflate(self, obj, s_sink_memory, &into, NULL, err) != 0) {
        free(into.data);
        return -1;
    }
    into.data[into.len] = 0;
    *data_p = into.data;
    return 0;
}

//  The bytes of object index (caller frees *data_p), resolving deltas: down
//  the chain to the nearest object stored whole or cached (a ref-delta's
//  base looked up before anything is inflated), then up, applying one
//  delta at a time; each result but the last goes to the cache, so the
//  next object on the chain starts from it. 0, S_MISSING (a ref-delta's
//  base not resolved yet), or -1 with err.
static int
s_resolve(sp_git_pack_t *self,
          size_t index,
          int *type_p,
          uint8_t **data_p,
          size_t *len_p,
          bus_error_t *err)
{
    size_t *chain = NULL; //  the deltas from index down, not counting the base
    size_t links = 0, room = 0;
    size_t at = index;
    const slot_t *slot = NULL;
    for (;;) {
        if (self->cache[at % SP_GIT_CACHE_SLOTS].index == (int64_t) at) {
            slot = &self->cache[at % SP_GIT_CACHE_SLOTS];
            break;
        }
        const obj_t *obj = &self->objs[at];
        if (obj->kind <= SP_GIT_TAG)
            break;
        if (links == SP_GIT_DELTA_DEPTH) {
            free(chain);
            return bus_error_fail(err, BUS_STATUS_INVALID,
                                  "a chain of more than %d deltas", SP_GIT_DELTA_DEPTH);
        }
        if (links == room) {
            room = room ? 2 * room : 16;
            size_t *grown = realloc(chain, room * sizeof *chain);
            if (!grown) {
                free(chain);
                return bus_error_fail(err, BUS_STATUS_INTERNAL, "out of memory");
            }
            chain = grown;
        }
        chain[links++] = at;
        int64_t base = obj->base;
        if (obj->kind == S_KIND_REF)
            base = s_find(self, self->map + obj->data - SP_GIT_SHA_LEN);
        if (base < 0) {
            free(chain);
            return S_MISSING;
        }
        at = (size_t) base;
    }
    //  The base: borrowed from the cache, or inflated (and then cached
    //  when deltas are built on it).
    const uint8_t *base = NULL;
    uint8_t *owned = NULL;
    size_t len = 0;
    int type = 0;
    if (slot) {
        base = slot->data;
        len = slot->len;
        type = slot->type;
    } else {
        if (s_inflate_memory(self, &self->objs[at], &owned, err) != 0) {
            free(chain);
            return -1;
        }
        base = owned;
        len = (size_t) self->objs[at].size;
        type = self->objs[at].kind;
        if (links && s_cache_keep(self, at, type, owned, len))
            owned = NULL; //  base stays borrowed until the next keep
    }
    int rc = 0;
    while (rc == 0 && links) {
        size_t i = chain[--links];
        uint8_t *delta = NULL, *out = NULL;
        size_t out_len = 0;
        rc = s_inflate_memory(self, &self->objs[i], &delta, err);
        if (rc == 0)
            rc = s_apply(base, len, delta, (size_t) self->objs[i].size, &out, &out_len,
                         err);
        free(delta);
        if (rc == 0)
            rc = s_spend(self, out_len, err);
        free(owned); //  the base is done with: free it, or let the cache evict it
        owned = out;
        base = out;
        len = out_len;
        if (rc == 0 && links && s_cache_keep(self, i, type, out, out_len))
            owned = NULL;
    }
    free(chain);
    if (rc != 0) {
        free(owned);
        return -1;
    }
    if (!owned) { //  index itself was cached: a copy
        if (s_spend(self, len, err) != 0)
            return -1;
        owned = malloc(len + 1);
        if (!owned)
            return bus_error_fail(err, BUS_STATUS_INTERNAL, "out of memory");
        memcpy(owned, base, len + 1);
    }
    *type_p = type;
    *data_p = owned;
    *len_p = len;
    return 0;
}

static int
s_resolve_all(sp_git_pack_t *self, sp_git_stop_fn *stop, void *stop_arg, bus_error_t *err)
{
    size_t left = 0;
    for (size_t i = 0; i < self->count; i++)
        left += self->objs[i].type == 0;
    while (left) {
        size_t resolved = 0;
        for (size_t i = 0; i < self->count; i++) {
            obj_t *obj = &self->objs[i];
            if (obj->type)
                continue;
            if (stop && stop(stop_arg, err))
                return -1;
            int type = 0;
            uint8_t *data = NULL;
            size_t len = 0;
            int rc = s_resolve(self, i, &type, &data, &len, err);
            if (rc == S_MISSING)
                continue;
            if (rc == 0)
                rc = s_name(self, obj, type, data, len, err);
            //  Kept for the chain's next link: later in the pack, or (a
            //  ref-delta's) in the next round.
            if (rc == 0 && s_cache_keep(self, i, type, data, len))
                data = NULL;
            free(data);
            if (rc != 0)
                return -1;
            obj->type = (uint8_t) type;
            obj->real_size = len;
            s_insert(self, i);
            resolved++;
            left--;
        }
        if (resolved == 0)
            return bus_error_fail(err, BUS_STATUS_INVALID,
                                  "%zu deltas have no base in the pack (a thin pack?)",
                                  left);
    }
    return 0;
}

//  ---------------------------------------------------------------------------

sp_git_pack_t *
sp_git_pack_open(int fd,
                 uint64_t size,
                 const sp_git_pack_limits_t *limits,
                 sp_git_stop_fn *stop,
                 void *stop_arg,
                 bus_error_t *err)
{
    assert(fd >= 0 && limits && limits->max_objects > 0);
    uint64_t max_objects = limits->max_objects;
    sp_git_pack_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < SP_GIT_CACHE_SLOTS; i++)
        self->cache[i].index = -1;
    self->size = size;
    self->max_inflate = limits->max_inflate;
    self->max_blob = limits->max_blob;
    self->stop = stop;
    self->stop_arg = stop_arg;
    if (size < S_HEADER_LEN + SP_GIT_SHA_LEN || size > SIZE_MAX) {
        bus_error_set(err, BUS_STATUS_INVALID, "not a pack (%llu bytes)",
                      (unsigned long long) size);
        goto fail;
    }
    void *map = mmap(NULL, (size_t) size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot map the pack: %s",
                      strerror(errno));
        goto fail;
    }
    self->map = map;
    self->end = size - SP_GIT_SHA_LEN;
    self->md = EVP_MD_CTX_new();
    self->buf = malloc(SP_GIT_BUFFER);
    if (!self->md || !self->buf || inflateInit(&self->z) != Z_OK) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        goto fail;
    }
    self->z_ready = true;
    const uint8_t *m = self->map;
    uint32_t version = (uint32_t) m[4] << 24 | m[5] << 16 | m[6] << 8 | m[7];
    uint64_t count = (uint32_t) m[8] << 24 | m[9] << 16 | m[10] << 8 | m[11];
    if (memcmp(m, "PACK", 4) != 0 || (version != 2 && version != 3)) {
        bus_error_set(err, BUS_STATUS_INVALID, "not a pack of version 2 or 3");
        goto fail;
    }
    uint8_t sum[SP_GIT_SHA_LEN];
    unsigned int md_len = 0;
    if (EVP_DigestInit_ex(self->md, EVP_sha1(), NULL) != 1 ||
        EVP_DigestUpdate(self->md, m, (size_t) self->end) != 1 ||
        EVP_DigestFinal_ex(self->md, sum, &md_len) != 1) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "SHA-1 failed");
        goto fail;
    }
    if (memcmp(sum, m + self->end, SP_GIT_SHA_LEN) != 0) {
        bus_error_set(err, BUS_STATUS_INVALID, "the pack's checksum does not match");
        goto fail;
    }
    if (count > max_objects || count > (self->end - S_HEADER_LEN) / S_MIN_OBJECT) {
        bus_error_set(
            err, BUS_STATUS_INVALID, "%llu objects, more than %llu",
            (unsigned long long) count,
            (unsigned long long) (count > max_objects
                                      ? max_objects
                                      : (self->end - S_HEADER_LEN) / S_MIN_OBJECT));
        goto fail;
    }
    self->count = (size_t) count;
    self->table_size = 16;
    while (self->table_size < 2 * self->count)
        self->table_size <<= 1;
    self->objs = calloc(self->count ? self->count : 1, sizeof *self->objs);
    self->table = calloc(self->table_size, sizeof *self->table);
    if (!self->objs || !self->table) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        goto fail;
    }
    if (s_scan(self, err) != 0 || s_resolve_all(self, stop, stop_arg, err) != 0)
        goto fail;
    return self;
fail:
    sp_git_pack_destroy(&self);
    return NULL;
}

void
sp_git_pack_destroy(sp_git_pack_t **self_p)
{
    assert(self_p);
    sp_git_pack_t *self = *self_p;
    if (!self)
        return;
    for (size_t i = 0; i < SP_GIT_CACHE_SLOTS; i++)
        free(self->cache[i].data);
    if (self->map)
        munmap((void *) (uintptr_t) self->map, (size_t) self->size);
    if (self->z_ready)
        inflateEnd(&self->z);
    EVP_MD_CTX_free(self->md);
    free(self->buf);
    free(self->objs);
    free(self->table);
    free(self);
    *self_p = NULL;
}

uint64_t
sp_git_pack_inflated(const sp_git_pack_t *self)
{
    assert(self);
    return self->inflated;
}

size_t
sp_git_pack_count(const sp_git_pack_t *self)
{
    assert(self);
    return self->count;
}

const uint8_t *
sp_git_pack_sha(const sp_git_pack_t *self, size_t index)
{
    assert(self && index < self->count);
    return self->objs[index].sha;
}

//  ---------------------------------------------------------------------------

static int64_t
s_lookup(sp_git_pack_t *self, const uint8_t *sha, bus_error_t *err)
{
    int64_t index = s_find(self, sha);
    if (index < 0) {
        char hex[SP_GIT_HEX_LEN + 1];
        sp_git_sha_format(sha, hex);
        bus_error_fail(err, BUS_STATUS_NOT_FOUND, "object %s is not in the pack", hex);
    }
    return index;
}

int
sp_git_pack_stat(sp_git_pack_t *self,
                 const uint8_t sha[SP_GIT_SHA_LEN],
                 sp_git_type_t *type_p,
                 uint64_t *size_p,
                 bus_error_t *err)
{
    assert(self && sha);
    int64_t index = s_lookup(self, sha, err);
    if (index < 0)
        return -1;
    if (type_p)
        *type_p = (sp_git_type_t) self->objs[index].type;
    if (size_p)
        *size_p = self->objs[index].real_size;
    return 0;
}

int
sp_git_pack_read(sp_git_pack_t *self,
                 const uint8_t sha[SP_GIT_SHA_LEN],
                 size_t max,
                 sp_git_type_t *type_p,
                 uint8_t **data_p,
                 size_t *size_p,
                 bus_error_t *err)
{
    assert(self && sha && data_p && size_p);
    int64_t index = s_lookup(self, sha, err);
    if (index < 0)
        return -1;
    if (self->objs[index].real_size > max) {
        char hex[SP_GIT_HEX_LEN + 1];
        sp_git_sha_format(sha, hex);
        return bus_error_fail(err, BUS_STATUS_INVALID, "object %s: over %zu bytes", hex,
                              max);
    }
    int type = 0;
    int rc = s_resolve(self, (size_t) index, &type, data_p, size_p, err);
    if (rc == S_MISSING) //  cannot be: every object was resolved at open
        return bus_error_fail(err, BUS_STATUS_INTERNAL, "a delta's base went missing");
    if (rc != 0)
        return -1;
    if (type_p)
        *type_p = (sp_git_type_t) type;
    return 0;
}

int
sp_git_pack_write(sp_git_pack_t *self,
                  const uint8_t sha[SP_GIT_SHA_LEN],
                  int out,
                  bus_error_t *err)
{
    assert(self && sha);
    int64_t index = s_lookup(self, sha, err);
    if (index < 0)
        return -1;
    obj_t *obj = &self->objs[index];
    if (obj->kind <= SP_GIT_TAG)
        return s_inflate(self, obj, s_sink_fd, &out, NULL, err);
    uint8_t *data = NULL;
    size_t len = 0;
    if (sp_git_pack_read(self, sha, SP_GIT_OBJECT_MAX, NULL, &data, &len, err) != 0)
        return -1;
    int rc = sp_fs_write_all(out, data, len, err);
    free(data);
    return rc;
}

int
sp_git_pack_tree_of(sp_git_pack_t *self,
                    const uint8_t sha[SP_GIT_SHA_LEN],
                    uint8_t tree[SP_GIT_SHA_LEN],
                    bus_error_t *err)
{
    assert(self && sha && tree);
    uint8_t at[SP_GIT_SHA_LEN];
    memcpy(at, sha, sizeof at);
    for (int hop = 0; hop <= S_TAG_DEPTH; hop++) {
        sp_git_type_t type;
        uint8_t *data = NULL;
        size_t len = 0;
        if (sp_git_pack_read(self, at, S_META_MAX, &type, &data, &len, err) != 0)
            return -1;
        //  A commit starts "tree <hex>\n", a tag "object <hex>\n".
        const char *key = type == SP_GIT_COMMIT ? "tree " : "object ";
        size_t key_len = strlen(key);
        bool ok = (type == SP_GIT_COMMIT || type == SP_GIT_TAG) &&
                  len >= key_len + SP_GIT_HEX_LEN + 1 &&
                  memcmp(data, key, key_len) == 0 &&
                  data[key_len + SP_GIT_HEX_LEN] == '\n' &&
                  sp_git_sha_parse(data + key_len, at) == 0;
        free(data);
        if (!ok)
            return bus_error_fail(err, BUS_STATUS_INVALID,
                                  "not a commit or tag, or malformed");
        if (type == SP_GIT_COMMIT) {
            memcpy(tree, at, SP_GIT_SHA_LEN);
            return 0;
        }
    }
    return bus_error_fail(err, BUS_STATUS_INVALID, "more than %d tags in a row",
                          S_TAG_DEPTH);
}
