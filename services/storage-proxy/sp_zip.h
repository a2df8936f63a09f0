/*  =========================================================================
    sp_zip - a small, strict reader of .zip archives (a repository's
    archive fetched into a folder)

    The archive comes from anywhere on the internet, so it is read as
    hostile: the end record must end the file, the central directory must
    lie wholly before it and every entry's data before the directory; every
    name is checked as a client path is (sp_fs_check_path: no "..", no
    absolute path, no NUL or control character, no empty component) and a
    backslash is refused; duplicate names, encrypted entries, methods other
    than stored (0) and deflate (8) and ZIP64 are refused; the entry count
    and the sum of the sizes the directory declares are capped before any
    byte is inflated, and an entry that inflates past its declared size or
    fails its CRC-32 is refused as it is read. A symbolic link (Unix mode
    S_IFLNK in the external attributes) is described, never made by this
    module: the caller decides (the storage-proxy leaves them out).

    Deflate is zlib's inflate (raw, windowBits -15), the one library the
    storage-proxy links for this alone (ARCHITECTURE.md §18).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_ZIP_H_INCLUDED
#define SP_ZIP_H_INCLUDED

#include <stdbool.h>
#include <stdint.h>
#include "bus_status.h"

//  Largest central directory read into memory, and the reader's buffer.
#define SP_ZIP_DIR_MAX (64u << 20)
#define SP_ZIP_BUFFER  (64u << 10)
//  The most entries a plain (not ZIP64) archive can hold.
#define SP_ZIP_ENTRIES_MAX 65535

typedef struct {
    char *name;      //  normalised path (no trailing '/'), owned by the archive
    bool dir;        //  the name ended with '/'
    bool symlink;    //  Unix S_IFLNK: its data is the link's target
    uint32_t mode;   //  permission bits from Unix attributes, else 0644 / 0755
    uint16_t method; //  0 stored, 8 deflate
    uint32_t crc;
    uint64_t csize;  //  compressed bytes
    uint64_t usize;  //  bytes once inflated (declared, enforced)
    uint64_t offset; //  of its local header
} sp_zip_entry_t;

typedef struct {
    uint64_t max_entries; //  1 .. SP_ZIP_ENTRIES_MAX
    uint64_t max_bytes;   //  sum of the declared sizes
} sp_zip_limits_t;

typedef struct _sp_zip_t sp_zip_t;

//  ---------------------------------------------------------------------------
//  Reads and checks the central directory of the archive in fd (size bytes;
//  fd is borrowed and read with pread, so it must outlive the archive).
//  Caller owns return value. NULL with err: BUS_STATUS_INVALID for anything
//  the archive breaks (the detail says what and which entry),
//  BUS_STATUS_INTERNAL for a read error or no memory.
sp_zip_t *
sp_zip_open(int fd, uint64_t size, const sp_zip_limits_t *limits, bus_error_t *err);

//  Frees the archive's directory; idempotent, NULLs the pointer.
void sp_zip_destroy(sp_zip_t **self_p);

//  Entries, in the directory's order; the entry is borrowed.
size_t sp_zip_count(const sp_zip_t *self);
const sp_zip_entry_t *sp_zip_at(const sp_zip_t *self, size_t index);

//  Writes the data of entry index (inflated, checked against its declared
//  size and CRC-32) to out (a descriptor; -1 checks without writing). 0,
//  or -1 with err: BUS_STATUS_INVALID for a damaged entry, BUS_STATUS_
//  UNAVAILABLE when out is full (ENOSPC, EDQUOT), BUS_STATUS_INTERNAL else.
int sp_zip_extract(sp_zip_t *self, size_t index, int out, bus_error_t *err);

#endif
