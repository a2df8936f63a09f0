/*  =========================================================================
    fuzz_git - libFuzzer target for what a git clone reads from a server:
    pkt-lines, the advertisement of refs and the upload-pack answer
    (sp_git_pkt), and the pack with the trees in it (sp_git_pack,
    sp_git_checkout's plan)

    The input is first a pack, whole: sp_git_pack_open reads it from a
    memfd with a small object limit, as it is and again with its trailing
    checksum made right (else nearly every mutation stops at the checksum); every object
   is read back and its SHA-1, computed here again over "<type> <size>\0" and its bytes,
   must be its name; every commit's tree is planned (checked, never written) with small
   caps, and a plan that succeeds stays within them. The same bytes are then an
   advertisement (for the HEAD and for "main"), from which a request is made when a ref is
   found, and an answer demultiplexed with and without side-band, fed seven bytes at a
   time: the pack's bytes handed out always lie inside the input given. Any broken promise
   aborts.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <sys/mman.h> //  memfd_create
#include <openssl/evp.h>
#include "../../services/storage-proxy/sp_fs.h"
#include "../../services/storage-proxy/sp_git_pkt.h"
#include "../../services/storage-proxy/sp_git_pack.h"
#include "../../services/storage-proxy/sp_git_checkout.h"

#define FUZZ_GIT_OBJECTS 256
#define FUZZ_GIT_ENTRIES 64
#define FUZZ_GIT_BYTES   (1 << 20)
#define FUZZ_GIT_INFLATE (64u << 20) //  a pack's budget of work
#define FUZZ_GIT_STEP    7

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

static const char *const k_types[] = {"", "commit", "tree", "blob", "tag"};

static void
s_pack_one(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz_git", MFD_CLOEXEC);
    if (fd < 0)
        return;
    if (sp_fs_write_all(fd, data, size, NULL) != 0) {
        close(fd);
        return;
    }
    bus_error_t err = {0};
    sp_git_pack_limits_t pack_limits = {FUZZ_GIT_OBJECTS, FUZZ_GIT_BYTES,
                                        FUZZ_GIT_INFLATE};
    sp_git_pack_t *pack = sp_git_pack_open(fd, size, &pack_limits, NULL, NULL, &err);
    close(fd);
    if (!pack) {
        s_check(err.status != BUS_OK);
        return;
    }
    s_check(sp_git_pack_count(pack) <= FUZZ_GIT_OBJECTS);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    for (size_t i = 0; md && i < sp_git_pack_count(pack); i++) {
        uint8_t sha[SP_GIT_SHA_LEN];
        memcpy(sha, sp_git_pack_sha(pack, i), sizeof sha);
        sp_git_type_t type;
        uint8_t *bytes = NULL;
        size_t len = 0;
        if (sp_git_pack_read(pack, sha, FUZZ_GIT_BYTES, &type, &bytes, &len, &err) != 0)
            continue;
        s_check(type >= SP_GIT_COMMIT && type <= SP_GIT_TAG);
        char header[32];
        int n = snprintf(header, sizeof header, "%s %zu", k_types[type], len);
        uint8_t again[SP_GIT_SHA_LEN];
        unsigned int md_len = 0;
        s_check(EVP_DigestInit_ex(md, EVP_sha1(), NULL) == 1 &&
                EVP_DigestUpdate(md, header, (size_t) n + 1) == 1 &&
                EVP_DigestUpdate(md, bytes, len) == 1 &&
                EVP_DigestFinal_ex(md, again, &md_len) == 1);
        s_check(memcmp(again, sha, sizeof sha) == 0);
        free(bytes);
        uint8_t tree[SP_GIT_SHA_LEN];
        if (type == SP_GIT_COMMIT && sp_git_pack_tree_of(pack, sha, tree, &err) == 0) {
            sp_git_checkout_limits_t limits = {FUZZ_GIT_ENTRIES, FUZZ_GIT_BYTES, 1};
            sp_git_checkout_counts_t counts;
            if (sp_git_checkout_plan(pack, tree, &limits, NULL, NULL, NULL, &counts,
                                     &err) == 0)
                s_check(counts.entries <= FUZZ_GIT_ENTRIES &&
                        counts.bytes <= FUZZ_GIT_BYTES &&
                        counts.entries == counts.files + counts.dirs + counts.links);
        }
    }
    EVP_MD_CTX_free(md);
    sp_git_pack_destroy(&pack);
}

//  The pack as given, then with its checksum made right.
static void
s_pack(const uint8_t *data, size_t size)
{
    s_pack_one(data, size);
    if (size < 32 || memcmp(data, "PACK", 4) != 0)
        return;
    uint8_t *fixed = malloc(size);
    unsigned int md_len = 0;
    if (fixed) {
        memcpy(fixed, data, size);
        if (EVP_Digest(fixed, size - SP_GIT_SHA_LEN, fixed + size - SP_GIT_SHA_LEN,
                       &md_len, EVP_sha1(), NULL) == 1 &&
            memcmp(fixed + size - SP_GIT_SHA_LEN, data + size - SP_GIT_SHA_LEN,
                   SP_GIT_SHA_LEN) != 0)
            s_pack_one(fixed, size);
        free(fixed);
    }
}

static void
s_demux(const uint8_t *data, size_t size, bool sideband)
{
    sp_git_demux_t demux;
    sp_git_demux_init(&demux, sideband);
    bus_error_t err = {0};
    size_t out = 0;
    for (size_t at = 0; at < size;) {
        size_t step = size - at < FUZZ_GIT_STEP ? size - at : FUZZ_GIT_STEP, off = 0;
        int rc = 0;
        while (off < step) {
            size_t used = 0, dlen = 0;
            const uint8_t *d = NULL;
            rc = sp_git_demux_step(&demux, data + at + off, step - off, &used, &d, &dlen,
                                   &err);
            if (rc < 0)
                break;
            s_check(used <= step - off);
            s_check(!dlen ||
                    (d >= data + at + off && d + dlen <= data + at + off + used));
            out += dlen;
            off += used;
            if (used == 0)
                break;
        }
        if (rc < 0)
            return;
        at += step;
    }
    s_check(out <= size);
    (void) sp_git_demux_complete(&demux);
}

static void
s_pkt(const uint8_t *data, size_t size)
{
    sp_git_refs_t refs;
    bus_error_t err = {0};
    const char *wanted[] = {NULL, "main", "v1"};
    for (size_t i = 0; i < sizeof wanted / sizeof *wanted; i++) {
        if (sp_git_refs_parse(data, size, wanted[i], &refs, &err) != 0)
            continue;
        s_check(strlen(refs.caps) <= SP_GIT_CAPS_MAX &&
                strlen(refs.ref) <= SP_GIT_REF_MAX);
        if (refs.found) {
            char body[512];
            bool sideband;
            long n = sp_git_request_format(&refs, body, sizeof body, &sideband);
            s_check(n > 0 && (size_t) n < sizeof body);
        }
    }
    sp_git_pkt_t pkt;
    long n = sp_git_pkt_parse(data, size, &pkt, &err);
    s_check(n <= (long) size);
    if (n > 0)
        s_check(pkt.data + pkt.len <= data + n);
    s_demux(data, size, true);
    s_demux(data, size, false);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    s_pack(data, size);
    s_pkt(data, size);
    return 0;
}
