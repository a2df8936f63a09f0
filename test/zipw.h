/*  =========================================================================
    zipw.h - a tiny .zip writer for tests (sp_zip's unit test, the fetch
    integration test): stored or deflated entries with Unix modes, so a
    test can make archives with nested directories, symbolic links and
    the hostile names a real archive may carry ("../evil", "/abs").

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef ZIPW_H_INCLUDED
#define ZIPW_H_INCLUDED

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct {
    const char *name; //  as written in the archive ("dir/" for a directory)
    const char *data; //  NULL: empty
    size_t size;
    int method;    //  0 stored, 8 deflate
    uint32_t mode; //  Unix st_mode (0100644, 040755, 0120777); 0: 0100644
} zipw_entry_t;

typedef struct {
    uint8_t *data;
    size_t size, cap;
} zipw_buf_t;

static void
zipw_put(zipw_buf_t *b, const void *p, size_t n)
{
    if (b->size + n > b->cap) {
        b->cap = (b->size + n) * 2 + 1024;
        b->data = realloc(b->data, b->cap);
    }
    memcpy(b->data + b->size, p, n);
    b->size += n;
}

static void
zipw_u16(zipw_buf_t *b, unsigned v)
{
    uint8_t x[2] = {(uint8_t) v, (uint8_t) (v >> 8)};
    zipw_put(b, x, 2);
}

static void
zipw_u32(zipw_buf_t *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t) v, (uint8_t) (v >> 8), (uint8_t) (v >> 16),
                    (uint8_t) (v >> 24)};
    zipw_put(b, x, 4);
}

//  The archive of entries (count of them); its size in *size_p. Caller
//  frees it.
static uint8_t *
zipw_build(const zipw_entry_t *entries, size_t count, size_t *size_p)
{
    zipw_buf_t out = {0}, dir = {0};
    for (size_t i = 0; i < count; i++) {
        const zipw_entry_t *e = &entries[i];
        const uint8_t *data = (const uint8_t *) (e->data ? e->data : "");
        uint32_t crc = (uint32_t) crc32(0L, data, (uInt) e->size);
        uint8_t *packed = NULL;
        size_t packed_size = e->size;
        if (e->method == 8) {
            uLongf bound = compressBound((uLong) e->size) + 64;
            packed = malloc(bound);
            z_stream z;
            memset(&z, 0, sizeof z);
            deflateInit2(&z, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
            z.next_in = (Bytef *) data;
            z.avail_in = (uInt) e->size;
            z.next_out = packed;
            z.avail_out = (uInt) bound;
            deflate(&z, Z_FINISH);
            packed_size = bound - z.avail_out;
            deflateEnd(&z);
        }
        uint32_t offset = (uint32_t) out.size;
        size_t name_len = strlen(e->name);
        zipw_u32(&out, 0x04034b50);
        zipw_u16(&out, 20);
        zipw_u16(&out, 0);
        zipw_u16(&out, (unsigned) e->method);
        zipw_u16(&out, 0);
        zipw_u16(&out, 0x21);
        zipw_u32(&out, crc);
        zipw_u32(&out, (uint32_t) packed_size);
        zipw_u32(&out, (uint32_t) e->size);
        zipw_u16(&out, (unsigned) name_len);
        zipw_u16(&out, 0);
        zipw_put(&out, e->name, name_len);
        zipw_put(&out, packed ? packed : data, packed_size);
        free(packed);
        uint32_t mode = e->mode ? e->mode : 0100644;
        zipw_u32(&dir, 0x02014b50);
        zipw_u16(&dir, 3 << 8 | 20); //  made by Unix
        zipw_u16(&dir, 20);
        zipw_u16(&dir, 0);
        zipw_u16(&dir, (unsigned) e->method);
        zipw_u16(&dir, 0);
        zipw_u16(&dir, 0x21);
        zipw_u32(&dir, crc);
        zipw_u32(&dir, (uint32_t) packed_size);
        zipw_u32(&dir, (uint32_t) e->size);
        zipw_u16(&dir, (unsigned) name_len);
        zipw_u16(&dir, 0);
        zipw_u16(&dir, 0);
        zipw_u16(&dir, 0);
        zipw_u16(&dir, 0);
        zipw_u32(&dir, mode << 16);
        zipw_u32(&dir, offset);
        zipw_put(&dir, e->name, name_len);
    }
    uint32_t dir_offset = (uint32_t) out.size;
    zipw_put(&out, dir.data, dir.size);
    zipw_u32(&out, 0x06054b50);
    zipw_u16(&out, 0);
    zipw_u16(&out, 0);
    zipw_u16(&out, (unsigned) count);
    zipw_u16(&out, (unsigned) count);
    zipw_u32(&out, (uint32_t) dir.size);
    zipw_u32(&out, dir_offset);
    zipw_u16(&out, 0);
    free(dir.data);
    *size_p = out.size;
    return out.data;
}

#endif
