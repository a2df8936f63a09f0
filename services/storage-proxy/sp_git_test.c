/*  =========================================================================
    sp_git_test - the git clone's pure parts and its checkout: pkt-lines,
    advertisements, the upload-pack request, the answer's demultiplexing
    (cut at every byte), and real packs made by the git command in a
    temporary directory (ofs-delta and ref-delta, both holding a delta)
    read by sp_git_pack and checked out into a folder by sp_git_checkout,
    with hostile trees (made with hash-object --literally) refused

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <fcntl.h>    //  open
#include <ftw.h>      //  nftw: removing fixtures
#include <sys/stat.h> //  stat
#include "t.h"

static char s_tmp[64];

//  ---------------------------------------------------------------------------
//  Fixtures

static int
s_remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void) st, (void) flag, (void) ftw;
    return remove(path);
}

//  Runs a shell command in the fixture directory; its stdout (first line,
//  trimmed) into out when not NULL. The exit status.
static int s_sh(char *out, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int
s_sh(char *out, size_t size, const char *fmt, ...)
{
    char script[4096];
    int n = snprintf(script, sizeof script, "cd %s && ", s_tmp);
    va_list args;
    va_start(args, fmt);
    vsnprintf(script + n, sizeof script - (size_t) n, fmt, args);
    va_end(args);
    FILE *p = popen(script, "r");
    if (!p)
        return -1;
    char line[512] = "";
    if (!fgets(line, sizeof line, p))
        line[0] = 0;
    char rest[512];
    while (fgets(rest, sizeof rest, p))
        ;
    line[strcspn(line, "\r\n")] = 0;
    if (out)
        snprintf(out, size, "%s", line);
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool
s_setup(void)
{
    snprintf(s_tmp, sizeof s_tmp, "/tmp/sp_git_test.XXXXXX");
    if (!mkdtemp(s_tmp))
        return false;
    setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
    setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
    setenv("GIT_AUTHOR_NAME", "t", 1);
    setenv("GIT_AUTHOR_EMAIL", "t@example.com", 1);
    setenv("GIT_COMMITTER_NAME", "t", 1);
    setenv("GIT_COMMITTER_EMAIL", "t@example.com", 1);
    return s_sh(NULL, 0, "git --version >/dev/null 2>&1") == 0;
}

static void
s_teardown(void)
{
    nftw(s_tmp, s_remove_one, 64, FTW_DEPTH | FTW_PHYS);
}

static int
s_sha(const char *hex, uint8_t sha[SP_GIT_SHA_LEN])
{
    if (strlen(hex) != SP_GIT_HEX_LEN)
        return -1;
    return sp_git_sha_parse((const uint8_t *) hex, sha);
}

//  Opens the pack file name in the fixture.
static sp_git_pack_t *
s_open(const char *name, bus_error_t *err)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", s_tmp, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    fstat(fd, &st);
    sp_git_pack_limits_t limits = {SP_GIT_OBJECTS_MAX, 1ull << 30, 1ull << 30};
    sp_git_pack_t *pack =
        sp_git_pack_open(fd, (uint64_t) st.st_size, &limits, NULL, NULL, err);
    close(fd); //  the mapping stays
    return pack;
}

//  ---------------------------------------------------------------------------
//  pkt-lines, advertisements, requests

static void
test_pkt(void)
{
    sp_git_pkt_t pkt;
    bus_error_t err = {0};
    T_EQ_INT(sp_git_pkt_parse((const uint8_t *) "000ahello\n", 10, &pkt, &err), 10);
    T_EQ_INT(pkt.kind, SP_GIT_PKT_DATA);
    T_EQ_INT(pkt.len, 6);
    T_EQ_INT(sp_git_pkt_parse((const uint8_t *) "0000", 4, &pkt, &err), 4);
    T_EQ_INT(pkt.kind, SP_GIT_PKT_FLUSH);
    T_EQ_INT(sp_git_pkt_parse((const uint8_t *) "000ahel", 7, &pkt, &err), 0);
    T_EQ_INT(sp_git_pkt_parse((const uint8_t *) "00", 2, &pkt, &err), 0);
    T_EQ_INT(sp_git_pkt_parse((const uint8_t *) "0001", 4, &pkt, &err), -1);
    T_CONTAINS(err.detail, "version 2");
    T_EQ_INT(sp_git_pkt_parse((const uint8_t *) "zz10", 4, &pkt, &err), -1);
    T_EQ_INT(sp_git_pkt_parse((const uint8_t *) "fff1", 4, &pkt, &err), -1);
    char out[32];
    size_t at = 0;
    T_EQ_INT(sp_git_pkt_append(out, sizeof out, &at, "done\n", 5), 0);
    T_EQ_INT(sp_git_pkt_append(out, sizeof out, &at, NULL, 0), 0);
    T_EQ_INT(at, 13);
    T_ASSERT(memcmp(out, "0009done\n0000", 13) == 0);
    T_ASSERT(sp_git_caps_has("multi_ack side-band-64k ofs-delta agent=git/2", "agent"));
    T_ASSERT(sp_git_caps_has("multi_ack side-band-64k ofs-delta", "side-band-64k"));
    T_ASSERT(!sp_git_caps_has("multi_ack side-band-64k", "side-band"));
    T_ASSERT(sp_git_ref_ok("main") && sp_git_ref_ok("refs/tags/v1.0"));
    T_ASSERT(!sp_git_ref_ok("") && !sp_git_ref_ok("a b") && !sp_git_ref_ok("-x") &&
             !sp_git_ref_ok("a..b") && !sp_git_ref_ok("a\nb"));
}

#define SHA_A "1111111111111111111111111111111111111111"
#define SHA_B "2222222222222222222222222222222222222222"
#define SHA_C "3333333333333333333333333333333333333333"
#define SHA_D "4444444444444444444444444444444444444444"

//  An advertisement as git http-backend writes it.
static size_t
s_advertisement(char *out, size_t size, bool symref)
{
    size_t at = 0;
    char line[512];
    sp_git_pkt_append(out, size, &at, "# service=git-upload-pack\n", 26);
    sp_git_pkt_append(out, size, &at, NULL, 0);
    int n = snprintf(line, sizeof line,
                     SHA_A " HEAD%cmulti_ack thin-pack side-band side-band-64k ofs-delta "
                           "shallow no-progress%s agent=git/2.39\n",
                     0, symref ? " symref=HEAD:refs/heads/dev" : "");
    sp_git_pkt_append(out, size, &at, line, (size_t) n);
    const char *refs[] = {SHA_B " refs/heads/main\n", SHA_A " refs/heads/dev\n",
                          SHA_C " refs/tags/v1\n", SHA_D " refs/tags/v1^{}\n"};
    for (size_t i = 0; i < 4; i++)
        sp_git_pkt_append(out, size, &at, refs[i], strlen(refs[i]));
    sp_git_pkt_append(out, size, &at, NULL, 0);
    return at;
}

static void
test_refs(void)
{
    char adv[2048];
    size_t len = s_advertisement(adv, sizeof adv, true);
    sp_git_refs_t refs;
    bus_error_t err = {0};
    uint8_t sha[SP_GIT_SHA_LEN];
    T_EQ_INT(sp_git_refs_parse((uint8_t *) adv, len, NULL, &refs, &err), 0);
    T_ASSERT(refs.found);
    T_EQ_INT(refs.refs, 5);
    T_EQ_STR(refs.ref, "refs/heads/dev");
    s_sha(SHA_A, sha);
    T_ASSERT(memcmp(refs.want, sha, sizeof sha) == 0);
    T_ASSERT(sp_git_caps_has(refs.caps, "side-band-64k"));
    //  Without symref: the first branch at HEAD's commit.
    len = s_advertisement(adv, sizeof adv, false);
    T_EQ_INT(sp_git_refs_parse((uint8_t *) adv, len, "", &refs, &err), 0);
    T_EQ_STR(refs.ref, "refs/heads/dev");
    T_EQ_INT(sp_git_refs_parse((uint8_t *) adv, len, "main", &refs, &err), 0);
    T_ASSERT(refs.found);
    T_EQ_STR(refs.ref, "refs/heads/main");
    s_sha(SHA_B, sha);
    T_ASSERT(memcmp(refs.want, sha, sizeof sha) == 0);
    //  A tag: its peeled commit.
    T_EQ_INT(sp_git_refs_parse((uint8_t *) adv, len, "v1", &refs, &err), 0);
    T_EQ_STR(refs.ref, "refs/tags/v1");
    s_sha(SHA_D, sha);
    T_ASSERT(memcmp(refs.want, sha, sizeof sha) == 0);
    T_EQ_INT(sp_git_refs_parse((uint8_t *) adv, len, "refs/heads/main", &refs, &err), 0);
    T_ASSERT(refs.found);
    T_EQ_INT(sp_git_refs_parse((uint8_t *) adv, len, "nope", &refs, &err), 0);
    T_ASSERT(!refs.found);
    //  The request: side-band-64k, ofs-delta, shallow with deepen 1.
    char body[512];
    bool sideband = false;
    T_EQ_INT(sp_git_refs_parse((uint8_t *) adv, len, "main", &refs, &err), 0);
    long n = sp_git_request_format(&refs, body, sizeof body, &sideband);
    T_ASSERT(n > 0);
    body[n] = 0;
    T_ASSERT(sideband);
    T_CONTAINS(body, "want " SHA_B " side-band-64k ofs-delta shallow agent=");
    T_CONTAINS(body, "000ddeepen 1\n00000009done\n");
    //  Not a smart server: a dumb server's info/refs, an HTML page.
    const char *dumb = SHA_B "\trefs/heads/main\n";
    T_EQ_INT(sp_git_refs_parse((const uint8_t *) dumb, strlen(dumb), NULL, &refs, &err),
             -1);
    T_CONTAINS(err.detail, "not a git smart-HTTP server");
    T_EQ_INT(sp_git_refs_parse((const uint8_t *) "<html>", 6, NULL, &refs, &err), -1);
    //  Cut short, and an ERR line.
    T_EQ_INT(sp_git_refs_parse((uint8_t *) adv, len - 10, NULL, &refs, &err), -1);
    char errs[256];
    size_t at = 0;
    sp_git_pkt_append(errs, sizeof errs, &at, "# service=git-upload-pack\n", 26);
    sp_git_pkt_append(errs, sizeof errs, &at, NULL, 0);
    sp_git_pkt_append(errs, sizeof errs, &at, "ERR access denied\n", 18);
    T_EQ_INT(sp_git_refs_parse((uint8_t *) errs, at, NULL, &refs, &err), -1);
    T_CONTAINS(err.detail, "access denied");
    //  An empty repository: nothing to want.
    at = 0;
    char empty[512];
    sp_git_pkt_append(empty, sizeof empty, &at, "# service=git-upload-pack\n", 26);
    sp_git_pkt_append(empty, sizeof empty, &at, NULL, 0);
    char line[128];
    int m = snprintf(
        line, sizeof line,
        "0000000000000000000000000000000000000000 capabilities^{}%cofs-delta\n", 0);
    sp_git_pkt_append(empty, sizeof empty, &at, line, (size_t) m);
    sp_git_pkt_append(empty, sizeof empty, &at, NULL, 0);
    T_EQ_INT(sp_git_refs_parse((uint8_t *) empty, at, NULL, &refs, &err), 0);
    T_ASSERT(!refs.found);
    T_EQ_INT(refs.refs, 0);
}

//  An upload-pack answer: shallow lines, NAK, then band 2, band 1 (the
//  pack, in two lines) and the closing flush.
static size_t
s_answer(char *out, size_t size, bool band3)
{
    size_t at = 0;
    sp_git_pkt_append(out, size, &at, "shallow " SHA_A "\n", 49);
    sp_git_pkt_append(out, size, &at, NULL, 0);
    sp_git_pkt_append(out, size, &at, "NAK\n", 4);
    sp_git_pkt_append(out, size, &at, "\2Counting objects: 3\r", 21);
    sp_git_pkt_append(out, size, &at, "\1PACK", 5);
    sp_git_pkt_append(out, size, &at, "\1-data-", 7);
    if (band3)
        sp_git_pkt_append(out, size, &at, "\3repository corrupt\n", 20);
    sp_git_pkt_append(out, size, &at, NULL, 0);
    return at;
}

//  Demultiplexes in (len bytes) fed step bytes at a time; the pack's bytes
//  into pack. The last step's return.
static int
s_demux(const char *in,
        size_t len,
        size_t step,
        char *pack,
        size_t *pack_len,
        bus_error_t *err)
{
    sp_git_demux_t demux;
    sp_git_demux_init(&demux, true);
    *pack_len = 0;
    int rc = 0;
    for (size_t at = 0; at < len;) {
        size_t n = len - at < step ? len - at : step, off = 0;
        while (off < n) {
            size_t used = 0, dlen = 0;
            const uint8_t *data = NULL;
            rc = sp_git_demux_step(&demux, (const uint8_t *) in + at + off, n - off,
                                   &used, &data, &dlen, err);
            if (rc < 0)
                return rc;
            if (dlen)
                memcpy(pack + *pack_len, data, dlen);
            *pack_len += dlen;
            off += used;
            if (used == 0)
                break;
        }
        at += n;
    }
    return sp_git_demux_complete(&demux) ? rc : -2;
}

static void
test_demux(void)
{
    char answer[512], pack[512];
    size_t len = s_answer(answer, sizeof answer, false), pack_len = 0;
    bus_error_t err = {0};
    for (size_t step = 1; step <= len; step++) {
        T_EQ_INT(s_demux(answer, len, step, pack, &pack_len, &err), 1);
        T_EQ_INT(pack_len, 10);
        T_ASSERT(memcmp(pack, "PACK-data-", 10) == 0);
    }
    len = s_answer(answer, sizeof answer, true);
    T_EQ_INT(s_demux(answer, len, 7, pack, &pack_len, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_UNAVAILABLE);
    T_CONTAINS(err.detail, "repository corrupt");
    //  Cut before the NAK: not complete.
    T_EQ_INT(s_demux(answer, 60, 60, pack, &pack_len, &err), -2);
    //  No side-band: raw after NAK.
    sp_git_demux_t demux;
    sp_git_demux_init(&demux, false);
    const char *raw = "0008NAK\nPACKrest";
    size_t used = 0, dlen = 0;
    const uint8_t *data = NULL;
    T_EQ_INT(sp_git_demux_step(&demux, (const uint8_t *) raw, strlen(raw), &used, &data,
                               &dlen, &err),
             0);
    T_EQ_INT(used, 16);
    T_EQ_INT(dlen, 8);
    T_ASSERT(memcmp(data, "PACKrest", 8) == 0);
    T_ASSERT(sp_git_demux_complete(&demux));
    //  ERR instead of NAK, and a band that does not exist.
    sp_git_demux_init(&demux, true);
    T_EQ_INT(sp_git_demux_step(&demux, (const uint8_t *) "000eERR no way", 14, &used,
                               &data, &dlen, &err),
             -1);
    T_CONTAINS(err.detail, "no way");
    sp_git_demux_init(&demux, true);
    T_EQ_INT(sp_git_demux_step(&demux, (const uint8_t *) "0008NAK\n0006\5x", 14, &used,
                               &data, &dlen, &err),
             -1);
    //  ERR after NAK in side-band mode: the server's text, not "side-band 69".
    const char *refused = "0008NAK\n0013ERR not our ref";
    for (size_t step = 1; step <= strlen(refused); step++) {
        T_EQ_INT(s_demux(refused, strlen(refused), step, pack, &pack_len, &err), -1);
        T_EQ_INT(err.status, BUS_STATUS_UNAVAILABLE);
        T_CONTAINS(err.detail, "refused: not our ref");
    }
}

//  ---------------------------------------------------------------------------
//  Packs

//  A repository with an executable, a subdirectory, links inside, a file
//  changed between two commits (the second a delta of the first) and a
//  second branch; the packs of main with ofs-deltas and with ref-deltas.
static int
s_make_repo(void)
{
    return s_sh(
        NULL, 0,
        "git init -q -b main repo && cd repo && "
        "printf 'print(\"hi\")\\n' > run.py && chmod 755 run.py && "
        "mkdir -p src/deep && seq 1 3000 > src/data.txt && "
        "printf x > src/deep/leaf && ln -s src/data.txt link && "
        "ln -s ../data.txt src/deep/up && git add -A && git commit -qm one && "
        "seq 1 3001 > src/data.txt && git commit -qam two && "
        "git checkout -qb other && echo other > other.txt && git add other.txt "
        "&& git commit -qm three && git checkout -q main && "
        "git rev-list --objects main | git pack-objects -q --stdout "
        "--delta-base-offset > ../ofs.pack && "
        "git rev-list --objects main | git pack-objects -q --stdout > ../ref.pack");
}

//  Deltas in a pack, as git verify-pack counts them (7 columns).
static int
s_deltas(const char *name)
{
    char out[64];
    if (s_sh(out, sizeof out,
             "cp %s x.pack && git index-pack x.pack >/dev/null 2>&1 && "
             "git verify-pack -v x.pack | awk 'NF==7' | wc -l; rm -f x.pack x.idx",
             name) != 0)
        return -1;
    return atoi(out);
}

static void
s_checkout(const char *pack_name)
{
    bus_error_t err = {0};
    sp_git_pack_t *pack = s_open(pack_name, &err);
    T_ASSERT(pack);
    char hex[64];
    uint8_t commit[SP_GIT_SHA_LEN], tree[SP_GIT_SHA_LEN];
    T_EQ_INT(s_sh(hex, sizeof hex, "cd repo && git rev-parse main"), 0);
    T_EQ_INT(s_sha(hex, commit), 0);
    //  Every object git packed was named the same here.
    T_EQ_INT(sp_git_pack_tree_of(pack, commit, tree, &err), 0);
    T_EQ_INT(s_sh(hex, sizeof hex, "cd repo && git rev-parse main^{tree}"), 0);
    uint8_t expected[SP_GIT_SHA_LEN];
    s_sha(hex, expected);
    T_ASSERT(memcmp(tree, expected, sizeof tree) == 0);
    T_EQ_INT(s_sh(hex, sizeof hex, "cd repo && git rev-parse main~1:src/data.txt"), 0);
    s_sha(hex, expected);
    sp_git_type_t type;
    uint64_t size = 0;
    T_EQ_INT(sp_git_pack_stat(pack, expected, &type, &size, &err), 0);
    T_EQ_INT(type, SP_GIT_BLOB);
    sp_git_checkout_limits_t limits = {1000, 1 << 20, 2};
    sp_git_checkout_counts_t counts;
    T_EQ_INT(sp_git_checkout_plan(pack, tree, &limits, NULL, NULL, NULL, &counts, &err),
             0);
    T_EQ_INT(counts.files, 3);
    T_EQ_INT(counts.links, 2);
    T_EQ_INT(counts.dirs, 2);
    T_EQ_INT(counts.entries, 7);
    //  Too small limits.
    sp_git_checkout_limits_t few = {6, 1 << 20, 2};
    T_EQ_INT(sp_git_checkout_plan(pack, tree, &few, NULL, NULL, NULL, &counts, &err), -1);
    T_CONTAINS(err.detail, "more than 6 entries");
    sp_git_checkout_limits_t small = {1000, 1000, 2};
    T_EQ_INT(sp_git_checkout_plan(pack, tree, &small, NULL, NULL, NULL, &counts, &err),
             -1);
    T_CONTAINS(err.detail, "more than 1000 bytes");
    //  Into a folder, at imports/repo.
    char root[128];
    snprintf(root, sizeof root, "%s/folder", s_tmp);
    mkdir(root, 0755);
    sp_fs_t *fs = sp_fs_new(root, &err);
    T_ASSERT(fs);
    T_EQ_INT(sp_fs_mkdir(fs, "imports/repo", 12, SP_FS_MKDIR_PARENTS, &err), 0);
    T_EQ_INT(sp_git_checkout_run(pack, tree, &limits, fs, "imports/repo", "git-entry",
                                 NULL, NULL, NULL, &counts, &err),
             0);
    sp_fs_stage_remove(fs, "git-entry", NULL);
    sp_fs_destroy(&fs);
    sp_git_pack_destroy(&pack);
    T_EQ_INT(counts.entries, 7);
    char path[256], target[64];
    struct stat st;
    snprintf(path, sizeof path, "%s/imports/repo/run.py", root);
    T_EQ_INT(stat(path, &st), 0);
    T_EQ_INT(st.st_mode & 0777, 0755);
    snprintf(path, sizeof path, "%s/imports/repo/src/deep/leaf", root);
    T_EQ_INT(stat(path, &st), 0);
    T_EQ_INT(st.st_mode & 0777, 0644);
    T_EQ_INT(s_sh(NULL, 0, "seq 1 3001 | cmp - folder/imports/repo/src/data.txt"), 0);
    snprintf(path, sizeof path, "%s/imports/repo/link", root);
    ssize_t n = readlink(path, target, sizeof target - 1);
    T_ASSERT(n > 0);
    target[n] = 0;
    T_EQ_STR(target, "src/data.txt");
    snprintf(path, sizeof path, "%s/imports/repo/other.txt", root);
    T_ASSERT(stat(path, &st) != 0); //  the other branch's
    T_EQ_INT(s_sh(NULL, 0, "rm -rf folder .uploads-folder"), 0);
}

static void
test_pack_ofs_delta(void)
{
    if (!s_setup())
        T_SKIP("no git command");
    T_EQ_INT(s_make_repo(), 0);
    T_ASSERT(s_deltas("ofs.pack") >= 1);
    s_checkout("ofs.pack");
    s_teardown();
}

static void
test_pack_ref_delta(void)
{
    if (!s_setup())
        T_SKIP("no git command");
    T_EQ_INT(s_make_repo(), 0);
    T_ASSERT(s_deltas("ref.pack") >= 1);
    s_checkout("ref.pack");
    s_teardown();
}

static void
test_pack_damaged(void)
{
    if (!s_setup())
        T_SKIP("no git command");
    T_EQ_INT(s_make_repo(), 0);
    bus_error_t err = {0};
    //  A byte changed: the checksum says so.
    T_EQ_INT(s_sh(NULL, 0,
                  "cp ofs.pack bad.pack && printf Z | dd of=bad.pack bs=1 seek=40 "
                  "conv=notrunc 2>/dev/null"),
             0);
    T_ASSERT(!s_open("bad.pack", &err));
    T_CONTAINS(err.detail, "checksum");
    //  Cut short.
    T_EQ_INT(s_sh(NULL, 0, "head -c 100 ofs.pack > short.pack"), 0);
    T_ASSERT(!s_open("short.pack", &err));
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    //  Not a pack.
    T_EQ_INT(s_sh(NULL, 0, "seq 1 100 > text.pack"), 0);
    T_ASSERT(!s_open("text.pack", &err));
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    //  A pack of a delta whose base is missing (a thin pack).
    T_EQ_INT(s_sh(NULL, 0,
                  "cd repo && printf 'main\\n^main~1\\n' | "
                  "git pack-objects -q --revs --thin --stdout > ../thin.pack"),
             0);
    //  main's data.txt as a delta on main~1's, left out.
    T_ASSERT(!s_open("thin.pack", &err));
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "no base in the pack");
    s_teardown();
}

//  ---------------------------------------------------------------------------
//  Packs made by hand: objects appended to a buffer, then the count and
//  the checksum; deltas made of copy and insert instructions.

typedef struct {
    uint8_t *data;
    size_t len, cap;
    uint32_t count;
    size_t at[64]; //  each object's offset
} hand_t;

static void
s_put(hand_t *h, const void *data, size_t len)
{
    if (h->len + len > h->cap) {
        h->cap = (h->len + len) * 2;
        h->data = realloc(h->data, h->cap);
        assert(h->data);
    }
    memcpy(h->data + h->len, data, len);
    h->len += len;
}

static void
s_put_byte(hand_t *h, uint8_t c)
{
    s_put(h, &c, 1);
}

//  A delta's size number (little-endian base 128).
static void
s_put_size(hand_t *h, uint64_t n)
{
    do {
        s_put_byte(h, (uint8_t) ((n & 0x7f) | (n > 0x7f ? 0x80 : 0)));
        n >>= 7;
    } while (n);
}

//  Appends an object: kind 1-4, 6 (ofs-delta on object base) or 7
//  (ref-delta on ref); its index.
static size_t
s_hand_object(
    hand_t *h, int kind, size_t base, const uint8_t *ref, const uint8_t *data, size_t len)
{
    if (h->len == 0)
        s_put(h, "PACK\0\0\0\2\0\0\0\0", 12);
    h->at[h->count] = h->len;
    uint64_t size = len;
    uint8_t c = (uint8_t) (kind << 4 | (size & 15));
    for (size >>= 4; size; size >>= 7) {
        s_put_byte(h, c | 0x80);
        c = size & 0x7f;
    }
    s_put_byte(h, c);
    if (kind == 6) {
        uint64_t back = h->at[h->count] - h->at[base];
        uint8_t out[16];
        int n = 15;
        out[n] = back & 0x7f;
        while (back >>= 7)
            out[--n] = 0x80 | (--back & 0x7f);
        s_put(h, out + n, (size_t) (16 - n));
    } else if (kind == 7)
        s_put(h, ref, SP_GIT_SHA_LEN);
    uLongf zlen = compressBound((uLong) len);
    uint8_t *z = malloc(zlen);
    int zrc = z ? compress2(z, &zlen, data, (uLong) len, 1) : Z_MEM_ERROR;
    assert(zrc == Z_OK);
    (void) zrc;
    s_put(h, z, zlen);
    free(z);
    return h->count++;
}

//  Sets the count and appends the checksum; writes the pack as name.
static void
s_hand_finish(hand_t *h, const char *name)
{
    h->data[8] = (uint8_t) (h->count >> 24);
    h->data[9] = (uint8_t) (h->count >> 16);
    h->data[10] = (uint8_t) (h->count >> 8);
    h->data[11] = (uint8_t) h->count;
    uint8_t sum[SP_GIT_SHA_LEN];
    int ok = EVP_Digest(h->data, h->len, sum, NULL, EVP_sha1(), NULL);
    assert(ok == 1);
    (void) ok;
    s_put(h, sum, sizeof sum);
    char path[128];
    snprintf(path, sizeof path, "%s/%s", s_tmp, name);
    FILE *f = fopen(path, "wb");
    assert(f);
    fwrite(h->data, 1, h->len, f);
    fclose(f);
    free(h->data);
    memset(h, 0, sizeof *h);
}

//  A copy instruction into delta d.
static void
s_delta_copy(hand_t *d, uint32_t offset, uint32_t size)
{
    uint8_t op = 0x80, args[7];
    int n = 0;
    for (int i = 0; i < 4; i++)
        if ((offset >> (8 * i)) & 0xff) {
            op |= (uint8_t) (1u << i);
            args[n++] = (uint8_t) (offset >> (8 * i));
        }
    for (int i = 0; i < 3; i++)
        if ((size >> (8 * i)) & 0xff) {
            op |= (uint8_t) (0x10u << i);
            args[n++] = (uint8_t) (size >> (8 * i));
        }
    s_put_byte(d, op);
    s_put(d, args, (size_t) n);
}

//  Insert instructions for data into delta d.
static void
s_delta_insert(hand_t *d, const uint8_t *data, size_t len)
{
    for (size_t at = 0; at < len; at += 127) {
        size_t n = len - at < 127 ? len - at : 127;
        s_put_byte(d, (uint8_t) n);
        s_put(d, data + at, n);
    }
}

//  The name git gives an object.
static void
s_object_sha(const char *type,
             const uint8_t *data,
             size_t len,
             uint8_t sha[SP_GIT_SHA_LEN])
{
    char header[32];
    int n = snprintf(header, sizeof header, "%s %zu", type, len);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    bool ok = md && EVP_DigestInit_ex(md, EVP_sha1(), NULL) == 1 &&
              EVP_DigestUpdate(md, header, (size_t) n + 1) == 1 &&
              EVP_DigestUpdate(md, data, len) == 1 &&
              EVP_DigestFinal_ex(md, sha, NULL) == 1;
    assert(ok);
    (void) ok;
    EVP_MD_CTX_free(md);
}

//  Opens the pack name with a budget of work.
static sp_git_pack_t *
s_open_budget(const char *name, uint64_t budget, bus_error_t *err)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", s_tmp, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    fstat(fd, &st);
    sp_git_pack_limits_t limits = {SP_GIT_OBJECTS_MAX, 1ull << 30, budget};
    sp_git_pack_t *pack =
        sp_git_pack_open(fd, (uint64_t) st.st_size, &limits, NULL, NULL, err);
    close(fd);
    return pack;
}

#define S_BIG   (9u << 20) //  over the 8 MiB the cache once refused
#define S_LINKS 12

//  A chain of ofs-deltas on a 9 MiB blob: each link is resolved once, from
//  the one before it (kept in the cache), not from the chain's start.
static void
test_pack_chain(void)
{
    T_ASSERT(mkdtemp(strcpy(s_tmp, "/tmp/sp_git_test.XXXXXX")));
    uint8_t *blob = malloc(S_BIG);
    T_ASSERT(blob);
    for (size_t i = 0; i < S_BIG; i++)
        blob[i] = (uint8_t) ('a' + i % 23);
    hand_t h = {0};
    s_hand_object(&h, SP_GIT_BLOB, 0, NULL, blob, S_BIG);
    uint8_t last[SP_GIT_SHA_LEN];
    for (int k = 0; k < S_LINKS; k++) {
        hand_t d = {0};
        s_put_size(&d, S_BIG);
        s_put_size(&d, S_BIG);
        s_delta_copy(&d, 0, S_BIG - 8);
        char tail[16];
        snprintf(tail, sizeof tail, "%08d", k);
        s_delta_insert(&d, (const uint8_t *) tail, 8);
        memcpy(blob + S_BIG - 8, tail, 8);
        s_hand_object(&h, 6, h.count - 1, NULL, d.data, d.len);
        free(d.data);
    }
    s_object_sha("blob", blob, S_BIG, last);
    s_hand_finish(&h, "chain.pack");
    bus_error_t err = {0};
    sp_git_pack_t *pack = s_open_budget("chain.pack", 1ull << 30, &err);
    T_ASSERT(pack);
    //  Scan: 9 MiB; resolving: the blob again, then 9 MiB a link.
    //  Re-resolving each chain (the old cost) would be 9 MiB times 78.
    T_ASSERT(sp_git_pack_inflated(pack) <= (uint64_t) (S_LINKS + 3) * S_BIG);
    uint64_t before = sp_git_pack_inflated(pack);
    uint8_t *data = NULL;
    size_t len = 0;
    sp_git_type_t type;
    T_EQ_INT(sp_git_pack_read(pack, last, S_BIG, &type, &data, &len, &err), 0);
    T_EQ_INT(len, S_BIG);
    T_ASSERT(memcmp(data, blob, S_BIG) == 0);
    free(data);
    T_ASSERT(sp_git_pack_inflated(pack) - before <= 2 * S_BIG);
    sp_git_pack_destroy(&pack);
    //  A budget too small: a clear error.
    T_ASSERT(!s_open_budget("chain.pack", 4 * S_BIG, &err));
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "bytes of inflating and resolving");
    //  Ref-deltas in reverse order (each on the one after it, the blob
    //  last): each round resolves one, the others wait without being
    //  inflated.
    hand_t r = {0};
    uint8_t shas[S_LINKS + 1][SP_GIT_SHA_LEN];
    uint8_t *parts[S_LINKS + 1];
    for (int k = 0; k <= S_LINKS; k++) {
        parts[k] = malloc(1 << 20);
        T_ASSERT(parts[k]);
        for (size_t i = 0; i < 1 << 20; i++)
            parts[k][i] = (uint8_t) (i * 7 + (size_t) k * 131 + i / 1000);
        s_object_sha("blob", parts[k], 1 << 20, shas[k]);
    }
    for (int k = S_LINKS; k >= 1; k--) {
        hand_t d = {0};
        s_put_size(&d, 1 << 20);
        s_put_size(&d, 1 << 20);
        s_delta_insert(&d, parts[k], 1 << 20);
        s_hand_object(&r, 7, 0, shas[k - 1], d.data, d.len);
        free(d.data);
    }
    s_hand_object(&r, SP_GIT_BLOB, 0, NULL, parts[0], 1 << 20);
    s_hand_finish(&r, "reverse.pack");
    pack = s_open_budget("reverse.pack", 1ull << 30, &err);
    T_ASSERT(pack);
    //  Scan 13 MiB, resolve 24 MiB; inflating each waiting delta each
    //  round would be some 90 MiB more.
    T_ASSERT(sp_git_pack_inflated(pack) <= (uint64_t) 3 * (S_LINKS + 1) << 20);
    T_EQ_INT(sp_git_pack_read(pack, shas[S_LINKS], 1 << 20, &type, &data, &len, &err), 0);
    T_ASSERT(len == 1 << 20 && memcmp(data, parts[S_LINKS], len) == 0);
    free(data);
    sp_git_pack_destroy(&pack);
    for (int k = 0; k <= S_LINKS; k++)
        free(parts[k]);
    free(blob);
    s_teardown();
}

static bool
s_stop_second(void *arg, bus_error_t *err)
{
    int *calls = arg;
    if (++*calls < 2)
        return false;
    bus_error_set(err, BUS_STATUS_UNAVAILABLE, "stopped");
    return true;
}

//  One huge object: its declared size refused before it is inflated, and
//  stop asked while it inflates, not only between objects.
static void
test_pack_huge(void)
{
    T_ASSERT(mkdtemp(strcpy(s_tmp, "/tmp/sp_git_test.XXXXXX")));
    size_t big = 32u << 20;
    uint8_t *zeros = calloc(1, big);
    T_ASSERT(zeros);
    hand_t h = {0};
    s_hand_object(&h, SP_GIT_BLOB, 0, NULL, zeros, big);
    s_hand_finish(&h, "huge.pack");
    free(zeros);
    bus_error_t err = {0};
    char path[128];
    snprintf(path, sizeof path, "%s/huge.pack", s_tmp);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    T_ASSERT(fd >= 0);
    struct stat st;
    fstat(fd, &st);
    sp_git_pack_limits_t limits = {SP_GIT_OBJECTS_MAX, 16u << 20, 1ull << 30};
    T_ASSERT(!sp_git_pack_open(fd, (uint64_t) st.st_size, &limits, NULL, NULL, &err));
    T_CONTAINS(err.detail, "declares 33554432 bytes, over 16777216");
    //  Nothing was inflated to find it: a budget of none still says so.
    limits.max_inflate = 0;
    T_ASSERT(!sp_git_pack_open(fd, (uint64_t) st.st_size, &limits, NULL, NULL, &err));
    T_CONTAINS(err.detail, "declares");
    limits = (sp_git_pack_limits_t){SP_GIT_OBJECTS_MAX, 1ull << 30, 1ull << 30};
    int calls = 0;
    T_ASSERT(!sp_git_pack_open(fd, (uint64_t) st.st_size, &limits, s_stop_second, &calls,
                               &err));
    T_EQ_INT(err.status, BUS_STATUS_UNAVAILABLE);
    T_EQ_INT(calls, 2);
    close(fd);
    s_teardown();
}

static bool
s_stop_after(void *arg, bus_error_t *err)
{
    int *left = arg;
    if (--*left > 0)
        return false;
    bus_error_set(err, BUS_STATUS_UNAVAILABLE, "stopped");
    return true;
}

#define S_NAMED 100

//  A root tree naming one subtree 100 times, the subtree a ref-delta on a
//  16 MiB tree: the plan resolves it once, and asks stop.
static void
test_plan_repeated(void)
{
    T_ASSERT(mkdtemp(strcpy(s_tmp, "/tmp/sp_git_test.XXXXXX")));
    hand_t h = {0};
    uint8_t blob_sha[SP_GIT_SHA_LEN], base_sha[SP_GIT_SHA_LEN], sub_sha[SP_GIT_SHA_LEN];
    uint8_t root_sha[SP_GIT_SHA_LEN];
    s_hand_object(&h, SP_GIT_BLOB, 0, NULL, (const uint8_t *) "x", 1);
    s_object_sha("blob", (const uint8_t *) "x", 1, blob_sha);
    size_t big = 16u << 20;
    uint8_t *junk = malloc(big);
    T_ASSERT(junk);
    for (size_t i = 0; i < big; i++)
        junk[i] = (uint8_t) (i * 2654435761u >> 13);
    s_hand_object(&h, SP_GIT_TREE, 0, NULL, junk, big);
    s_object_sha("tree", junk, big, base_sha);
    free(junk);
    uint8_t sub[64];
    memcpy(sub, "100644 f", 9); //  with its NUL
    memcpy(sub + 9, blob_sha, SP_GIT_SHA_LEN);
    size_t sub_len = 9 + SP_GIT_SHA_LEN;
    s_object_sha("tree", sub, sub_len, sub_sha);
    hand_t d = {0};
    s_put_size(&d, big);
    s_put_size(&d, sub_len);
    s_delta_insert(&d, sub, sub_len);
    s_hand_object(&h, 7, 0, base_sha, d.data, d.len);
    free(d.data);
    hand_t root = {0};
    for (int i = 0; i < S_NAMED; i++) {
        char name[32];
        int n = snprintf(name, sizeof name, "40000 d%03d", i);
        s_put(&root, name, (size_t) n + 1);
        s_put(&root, sub_sha, SP_GIT_SHA_LEN);
    }
    s_hand_object(&h, SP_GIT_TREE, 0, NULL, root.data, root.len);
    s_object_sha("tree", root.data, root.len, root_sha);
    free(root.data);
    s_hand_finish(&h, "repeated.pack");
    bus_error_t err = {0};
    sp_git_pack_t *pack = s_open_budget("repeated.pack", 1ull << 30, &err);
    T_ASSERT(pack);
    uint64_t before = sp_git_pack_inflated(pack);
    sp_git_checkout_limits_t limits = {1000, 1 << 20, 1};
    sp_git_checkout_counts_t counts;
    T_EQ_INT(
        sp_git_checkout_plan(pack, root_sha, &limits, NULL, NULL, NULL, &counts, &err),
        0);
    T_EQ_INT(counts.dirs, S_NAMED);
    T_EQ_INT(counts.files, S_NAMED);
    //  The subtree once (its base copied out of the cache, 16 MiB), not
    //  a hundred times.
    T_ASSERT(sp_git_pack_inflated(pack) - before <= 2 * big);
    int left = 10;
    T_EQ_INT(sp_git_checkout_plan(pack, root_sha, &limits, NULL, s_stop_after, &left,
                                  &counts, &err),
             -1);
    T_EQ_INT(err.status, BUS_STATUS_UNAVAILABLE);
    T_EQ_INT(left, 0);
    sp_git_pack_destroy(&pack);
    s_teardown();
}

//  A tree of one entry (mode, name, the blob's content: a file or a link's
//  target) packed with a commit of it into hostile.pack; its commit into
//  commit.
static int
s_hostile(const char *mode,
          const char *name,
          size_t name_len,
          const char *content,
          uint8_t commit[SP_GIT_SHA_LEN])
{
    char blob[64], tree[64], hex[64];
    if (s_sh(blob, sizeof blob, "printf '%%s' '%s' | git hash-object -w --stdin",
             content))
        return -1;
    uint8_t sha[SP_GIT_SHA_LEN];
    if (s_sha(blob, sha) != 0)
        return -1;
    char path[128];
    snprintf(path, sizeof path, "%s/tree.bin", s_tmp);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    fprintf(f, "%s ", mode);
    fwrite(name, 1, name_len, f);
    fputc(0, f);
    fwrite(sha, 1, sizeof sha, f);
    fclose(f);
    if (s_sh(tree, sizeof tree, "git hash-object -t tree --literally -w tree.bin") ||
        s_sh(hex, sizeof hex, "git commit-tree %s -m hostile", tree) ||
        s_sh(NULL, 0,
             "printf '%%s\\n' %s %s %s | git pack-objects -q --stdout > hostile.pack",
             hex, tree, blob))
        return -1;
    return s_sha(hex, commit);
}

static void
test_hostile_trees(void)
{
    if (!s_setup())
        T_SKIP("no git command");
    T_EQ_INT(s_sh(NULL, 0, "git init -q --bare objects.git"), 0);
    setenv("GIT_DIR", "objects.git", 1);
    struct {
        const char *mode, *name;
        size_t name_len;
        const char *content, *why;
    } cases[] = {
        {"100644", "..", 2, "x", "entry ..: a name that is . or .."},
        {"100644", ".", 1, "x", "a name that is . or .."},
        {"100644", ".GIT", 4, "x", "a .git entry"},
        {"40000", ".git", 4, "x", "a .git entry"},
        {"100644", "a/b", 3, "x", "a name with a '/'"},
        {"100644", "a\nb", 3, "x", "a control character"},
        {"100600", "odd", 3, "x", "an unknown mode"},
        {"040000", "zero", 4, "x", "an unknown mode"},
        {"120000", "out", 3, "../../etc/passwd", "entry out: a link out of the folder"},
        {"120000", "abs", 3, "/etc/passwd", "a link to an absolute path"},
        {"120000", "back", 4, "sub/../../x", ".. after a name"},
        {"100644", "blob-as-tree", 12, "x", NULL}, //  fine: a control
        {"40000", "tree", 4, "x", "not a tree"},   //  a blob named as a tree
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint8_t commit[SP_GIT_SHA_LEN], tree[SP_GIT_SHA_LEN];
        T_EQ_INT(s_hostile(cases[i].mode, cases[i].name, cases[i].name_len,
                           cases[i].content, commit),
                 0);
        bus_error_t err = {0};
        sp_git_pack_t *pack = s_open("hostile.pack", &err);
        T_ASSERT(pack);
        T_EQ_INT(sp_git_pack_tree_of(pack, commit, tree, &err), 0);
        sp_git_checkout_limits_t limits = {100, 1 << 20, 1};
        sp_git_checkout_counts_t counts;
        int rc =
            sp_git_checkout_plan(pack, tree, &limits, NULL, NULL, NULL, &counts, &err);
        sp_git_pack_destroy(&pack);
        if (cases[i].why) {
            T_EQ_INT(rc, -1);
            T_EQ_INT(err.status, BUS_STATUS_INVALID);
            T_CONTAINS(err.detail, cases[i].why);
        } else
            T_EQ_INT(rc, 0);
    }
    unsetenv("GIT_DIR");
    s_teardown();
}

//  Two entries of one name: the plan refuses the tree, and so does a run
//  asked without a plan, before the second replaces the first. A
//  path that fits the folder alone but not beneath the checkout's
//  directory is the plan's to refuse too.
static void
test_duplicate_names(void)
{
    if (!s_setup())
        T_SKIP("no git command");
    T_EQ_INT(s_sh(NULL, 0, "git init -q --bare objects.git"), 0);
    setenv("GIT_DIR", "objects.git", 1);
    char blob[64], tree[64], hex[64];
    T_EQ_INT(s_sh(blob, sizeof blob, "printf one | git hash-object -w --stdin"), 0);
    uint8_t sha[SP_GIT_SHA_LEN];
    T_EQ_INT(s_sha(blob, sha), 0);
    char path[128];
    snprintf(path, sizeof path, "%s/tree.bin", s_tmp);
    FILE *f = fopen(path, "wb");
    T_ASSERT(f);
    for (int i = 0; i < 2; i++) {
        fprintf(f, "100644 same");
        fputc(0, f);
        fwrite(sha, 1, sizeof sha, f);
    }
    fclose(f);
    T_EQ_INT(s_sh(tree, sizeof tree, "git hash-object -t tree --literally -w tree.bin"),
             0);
    T_EQ_INT(s_sh(hex, sizeof hex, "git commit-tree %s -m dup", tree), 0);
    T_EQ_INT(s_sh(NULL, 0,
                  "printf '%%s\\n' %s %s %s | git pack-objects -q --stdout > dup.pack",
                  hex, tree, blob),
             0);
    unsetenv("GIT_DIR");
    bus_error_t err = {0};
    sp_git_pack_t *pack = s_open("dup.pack", &err);
    T_ASSERT(pack);
    uint8_t commit[SP_GIT_SHA_LEN], root_tree[SP_GIT_SHA_LEN];
    s_sha(hex, commit);
    T_EQ_INT(sp_git_pack_tree_of(pack, commit, root_tree, &err), 0);
    char root[128];
    snprintf(root, sizeof root, "%s/folder", s_tmp);
    mkdir(root, 0755);
    sp_fs_t *fs = sp_fs_new(root, &err);
    T_ASSERT(fs);
    T_EQ_INT(sp_fs_mkdir(fs, "dup", 3, 0, &err), 0);
    sp_git_checkout_limits_t limits = {100, 1 << 20, 1};
    sp_git_checkout_counts_t counts;
    T_EQ_INT(
        sp_git_checkout_plan(pack, root_tree, &limits, "dup", NULL, NULL, &counts, &err),
        -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "entry same: named twice");
    T_EQ_INT(counts.files, 1); //  refused at the second, before its blob was looked at
    char deep[SP_FS_PATH_MAX];
    memset(deep, 'd', sizeof deep - 3);
    deep[sizeof deep - 3] = '\0'; //  "same" beneath it is over SP_FS_PATH_MAX
    T_EQ_INT(
        sp_git_checkout_plan(pack, root_tree, &limits, deep, NULL, NULL, &counts, &err),
        -1);
    T_CONTAINS(err.detail, "the path is too long");
    T_EQ_INT(sp_git_checkout_run(pack, root_tree, &limits, fs, "dup", "git-entry", NULL,
                                 NULL, NULL, &counts, &err),
             -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "named twice");
    sp_fs_stage_remove(fs, "git-entry", NULL);
    sp_fs_destroy(&fs);
    sp_git_pack_destroy(&pack);
    s_teardown();
}

int
main(void)
{
    T_RUN(test_pkt);
    T_RUN(test_refs);
    T_RUN(test_demux);
    T_RUN(test_pack_ofs_delta);
    T_RUN(test_pack_ref_delta);
    T_RUN(test_pack_damaged);
    T_RUN(test_pack_chain);
    T_RUN(test_pack_huge);
    T_RUN(test_plan_repeated);
    T_RUN(test_hostile_trees);
    T_RUN(test_duplicate_names);
    return T_DONE();
}
