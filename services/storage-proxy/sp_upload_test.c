/*  =========================================================================
    sp_upload_test - resumable uploads: interrupted and resumed, wrong
    offsets, overflow, the quota at the exact byte, refused targets, the
    owner of a completed upload, the expiry of an abandoned one

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <ftw.h>      //  nftw: removing fixtures
#include <fcntl.h>    //  AT_FDCWD, AT_SYMLINK_NOFOLLOW: ageing a staging file
#include <sys/stat.h> //  stat, mkdir, utimensat
#include "t.h"

static char s_tmp[64];
//  The folder's staging directory, relative to its root: beside it (sp_fs.h).
#define TEST_STAGE "../" SP_FS_STAGE_PREFIX "folder"

static char s_root[128];
static char s_outside[128];

static int
s_remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void) st;
    (void) flag;
    (void) ftw;
    return remove(path);
}

static sp_fs_t *
s_setup(void)
{
    snprintf(s_tmp, sizeof s_tmp, "/tmp/sp_upload_test.XXXXXX");
    if (!mkdtemp(s_tmp))
        return NULL;
    snprintf(s_root, sizeof s_root, "%s/folder", s_tmp);
    snprintf(s_outside, sizeof s_outside, "%s/outside", s_tmp);
    mkdir(s_root, 0755);
    mkdir(s_outside, 0755);
    return sp_fs_new(s_root, NULL);
}

static void
s_teardown(sp_fs_t **fs_p)
{
    sp_fs_destroy(fs_p);
    nftw(s_tmp, s_remove_one, 64, FTW_DEPTH | FTW_PHYS);
}

//  Size of rel under base, -1 if missing.
static long long
s_size(const char *base, const char *rel)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", base, rel);
    struct stat st;
    return lstat(path, &st) == 0 ? (long long) st.st_size : -1;
}

//  Count of entries in the staging directory, -1 if it is missing.
static int
s_staged(void)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", s_root, TEST_STAGE);
    DIR *dir = opendir(path);
    if (!dir)
        return -1;
    int count = 0;
    struct dirent *de;
    while ((de = readdir(dir)))
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
            count++;
    closedir(dir);
    return count;
}

static uint8_t *
s_random_bytes(size_t len, unsigned seed)
{
    uint8_t *data = malloc(len);
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < len; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        data[i] = (uint8_t) x;
    }
    return data;
}

//  True when rel in fs holds exactly data.
static bool
s_same(sp_fs_t *fs, const char *rel, const uint8_t *data, size_t len)
{
    uint64_t size = 0;
    int fd = sp_fs_open_read(fs, rel, strlen(rel), &size, NULL);
    if (fd < 0)
        return false;
    uint8_t *got = malloc(len + 1);
    size_t have = 0;
    ssize_t n;
    while (have <= len && (n = read(fd, got + have, len + 1 - have)) > 0)
        have += (size_t) n;
    close(fd);
    bool same = size == len && have == len && memcmp(got, data, len) == 0;
    free(got);
    return same;
}

#define S(str) str, strlen(str)

//  ---------------------------------------------------------------------------

static void
test_resume(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    const size_t total = (1 << 20) + 13, chunk = 65536 + 7;
    uint8_t *data = s_random_bytes(total, 1);
    const char *target = "data/set/blob.bin";

    sp_upload_t *up = sp_upload_open(fs, "nonceA", S(target), total, &err);
    T_ASSERT(up);
    T_EQ_INT(sp_upload_offset(up), 0);
    T_EQ_INT(sp_upload_size(up), total);
    size_t half = total / 2;
    while (sp_upload_offset(up) < half) {
        uint64_t at = sp_upload_offset(up);
        size_t n = half - at < chunk ? half - at : chunk;
        T_EQ_INT(sp_upload_append(up, at, data + at, n, &err), 0);
    }
    T_ASSERT(!sp_upload_done(up));
    sp_upload_destroy(&up); //  the connection drops
    sp_upload_destroy(&up);
    T_ASSERT(!up);
    //  nothing at the target, the bytes kept aside
    T_EQ_INT(s_size(s_root, "data/set/blob.bin"), -1);
    T_EQ_INT(s_size(s_root, "data"), -1);
    T_EQ_INT(s_staged(), 1);

    //  HEAD, then PATCH from there
    up = sp_upload_open(fs, "nonceA", S(target), total, &err);
    T_ASSERT(up);
    T_EQ_INT(sp_upload_offset(up), half);
    while (!sp_upload_done(up)) {
        uint64_t at = sp_upload_offset(up);
        size_t n = total - at < chunk ? total - at : chunk;
        T_EQ_INT(sp_upload_append(up, at, data + at, n, &err), 0);
    }
    T_EQ_INT(sp_upload_offset(up), total);
    sp_upload_destroy(&up);
    T_ASSERT(s_same(fs, target, data, total));
    T_EQ_INT(s_staged(), 0);
    sp_fs_info_t info;
    T_EQ_INT(sp_fs_stat(fs, S(target), &info, &err), 0);
    T_EQ_INT(info.type, SP_FS_FILE);

    //  a second upload replaces the file in one step
    uint8_t *other = s_random_bytes(1000, 2);
    up = sp_upload_open(fs, "nonceB", S(target), 1000, &err);
    T_ASSERT(up);
    T_EQ_INT(sp_upload_append(up, 0, other, 999, &err), 0);
    T_ASSERT(s_same(fs, target, data, total)); //  the old one, whole, until the end
    T_EQ_INT(sp_upload_append(up, 999, other + 999, 1, &err), 0);
    T_ASSERT(sp_upload_done(up));
    sp_upload_destroy(&up);
    T_ASSERT(s_same(fs, target, other, 1000));
    free(other);
    free(data);
    s_teardown(&fs);
}

static void
test_wrong_offset(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    sp_upload_t *up = sp_upload_open(fs, "n", S("f"), 100, &err);
    T_ASSERT(up);
    T_EQ_INT(sp_upload_append(up, 5, "abc", 3, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_CONFLICT);
    T_CONTAINS(err.detail, "offset mismatch: the upload is at 0, not 5");
    T_EQ_INT(sp_upload_append(up, 0, "0123456789", 10, &err), 0);
    T_EQ_INT(sp_upload_append(up, 0, "0123456789", 10, &err), -1); //  a replay
    T_CONTAINS(err.detail, "is at 10");
    T_EQ_INT(sp_upload_append(up, 11, "x", 1, &err), -1);
    T_EQ_INT(sp_upload_offset(up), 10);
    T_EQ_INT(s_size(s_root, TEST_STAGE "/n.100"), 10);
    T_EQ_INT(sp_upload_append(up, 10, "x", 1, &err), 0);
    sp_upload_destroy(&up);
    s_teardown(&fs);
}

static void
test_overflow(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    uint8_t *data = s_random_bytes(200, 3);
    sp_upload_t *up = sp_upload_open(fs, "n", S("f"), 100, &err);
    T_ASSERT(up);
    T_EQ_INT(sp_upload_append(up, 0, data, 101, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "past the announced size of 100");
    T_EQ_INT(sp_upload_offset(up), 0);
    T_EQ_INT(s_size(s_root, TEST_STAGE "/n.100"), 0);
    T_EQ_INT(sp_upload_append(up, 0, data, 60, &err), 0);
    T_EQ_INT(sp_upload_append(up, 60, data + 60, 41, &err), -1);
    T_EQ_INT(s_size(s_root, TEST_STAGE "/n.100"), 60);
    T_EQ_INT(sp_upload_append(up, 60, data + 60, 0, &err), 0);
    T_EQ_INT(sp_upload_append(up, 60, data + 60, 40, &err), 0);
    T_ASSERT(sp_upload_done(up));
    T_EQ_INT(sp_upload_append(up, 100, data, 1, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_EQ_INT(sp_upload_append(up, 100, data, 0, &err), 0);
    T_EQ_INT(sp_upload_abort(up, &err), -1); //  too late: it is in place
    sp_upload_destroy(&up);
    T_ASSERT(s_same(fs, "f", data, 100));

    //  a staging file longer than announced (tampered with) is refused
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s/m.10", s_root, TEST_STAGE);
    FILE *f = fopen(path, "w");
    fputs("more than ten bytes", f);
    fclose(f);
    T_ASSERT(!sp_upload_open(fs, "m", S("g"), 10, &err));
    T_EQ_INT(err.status, BUS_STATUS_CONFLICT);
    free(data);
    s_teardown(&fs);
}

typedef struct {
    sp_fs_t *fs;
    uint64_t limit;
    int calls;
    bool set_err;
} quota_t;

static int
s_quota(void *arg, uint64_t bytes, bus_error_t *err)
{
    quota_t *quota = arg;
    quota->calls++;
    uint64_t used = 0, entries = 0;
    if (sp_fs_usage(quota->fs, &used, &entries, err) != 0)
        return -1;
    if (used + bytes <= quota->limit)
        return 0;
    if (quota->set_err)
        bus_error_set(err, BUS_STATUS_FORBIDDEN,
                      "quota of %" PRIu64 " bytes: %" PRIu64 " used, %" PRIu64 " more",
                      quota->limit, used, bytes);
    return -1;
}

static void
test_quota(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/existing", s_root);
    FILE *f = fopen(path, "w");
    for (int i = 0; i < 1000; i++)
        fputc('e', f);
    fclose(f);
    quota_t quota = {.fs = fs, .limit = 1500, .set_err = true};
    uint8_t *data = s_random_bytes(600, 4);
    sp_upload_t *up = sp_upload_open(fs, "q", S("up"), 600, &err);
    T_ASSERT(up);
    sp_upload_set_quota(up, s_quota, &quota);
    T_EQ_INT(sp_upload_append(up, 0, data, 300, &err), 0); //  1300 used
    //  one byte over: the whole chunk is refused, nothing of it written
    T_EQ_INT(sp_upload_append(up, 300, data + 300, 201, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_FORBIDDEN);
    T_CONTAINS(err.detail, "quota of 1500 bytes: 1300 used, 201 more");
    T_EQ_INT(sp_upload_offset(up), 300);
    T_EQ_INT(s_size(s_root, TEST_STAGE "/q.600"), 300);
    //  exactly up to the quota is taken
    T_EQ_INT(sp_upload_append(up, 300, data + 300, 200, &err), 0);
    uint64_t used = 0, entries = 0;
    T_EQ_INT(sp_fs_usage(fs, &used, &entries, &err), 0);
    T_EQ_INT(used, 1500);
    quota.set_err = false; //  the default detail
    T_EQ_INT(sp_upload_append(up, 500, data + 500, 1, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_FORBIDDEN);
    T_EQ_STR(err.detail, "folder quota exceeded");
    T_EQ_INT(sp_upload_offset(up), 500);
    //  checks that fail before the quota do not ask it
    int calls = quota.calls;
    T_EQ_INT(sp_upload_append(up, 7, data, 1, &err), -1);
    T_EQ_INT(sp_upload_append(up, 500, data, 101, &err), -1);
    T_EQ_INT(quota.calls, calls);
    //  abandoned: the staging bytes go, the folder is as before
    T_EQ_INT(sp_upload_abort(up, &err), 0);
    T_EQ_INT(sp_upload_offset(up), 0);
    T_EQ_INT(sp_upload_append(up, 0, data, 1, &err), -1);
    T_CONTAINS(err.detail, "abandoned");
    sp_upload_destroy(&up);
    T_EQ_INT(sp_fs_usage(fs, &used, &entries, &err), 0);
    T_EQ_INT(used, 1000);
    T_EQ_INT(s_size(s_root, "up"), -1);
    T_EQ_INT(s_staged(), 0);
    free(data);
    s_teardown(&fs);
}

static void
test_target_refused(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/out", s_root);
    T_EQ_INT(symlink(s_outside, path), 0);
    snprintf(path, sizeof path, "%s/up", s_root);
    T_EQ_INT(symlink("..", path), 0);
    T_EQ_INT(sp_fs_mkdir(fs, S("dir"), 0, &err), 0);
    struct {
        const char *path;
        size_t len;
        int status;
    } cases[] = {
        {"../x", 4, BUS_STATUS_INVALID},
        {"/etc/passwd", 11, BUS_STATUS_INVALID},
        {"a/../../b", 9, BUS_STATUS_INVALID},
        {"a\nb", 3, BUS_STATUS_INVALID},
        {"a\0b", 3, BUS_STATUS_INVALID},
        {"", 0, BUS_STATUS_INVALID},
        {".", 1, BUS_STATUS_INVALID},
        {TEST_STAGE "/q.5", strlen(TEST_STAGE "/q.5"), BUS_STATUS_INVALID},
        {"out/planted", 11, BUS_STATUS_FORBIDDEN},
        {"up/outside/planted", 18, BUS_STATUS_FORBIDDEN},
        {"dir", 3, BUS_STATUS_INVALID},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        T_ASSERT(!sp_upload_open(fs, "t", cases[i].path, cases[i].len, 5, &err));
        if (err.status != cases[i].status)
            printf("# case %zu: %s\n", i, err.detail);
        T_EQ_INT(err.status, cases[i].status);
    }
    //  a symlink at the target itself is replaced, not followed
    sp_upload_t *up = sp_upload_open(fs, "t", S("out"), 5, &err);
    T_ASSERT(up);
    T_EQ_INT(sp_upload_append(up, 0, "12345", 5, &err), 0);
    T_ASSERT(sp_upload_done(up));
    sp_upload_destroy(&up);
    sp_fs_info_t info;
    T_EQ_INT(sp_fs_stat(fs, S("out"), &info, &err), 0);
    T_EQ_INT(info.type, SP_FS_FILE);
    T_EQ_INT(s_size(s_outside, "planted"), -1);
    T_ASSERT(s_staged() <= 0);
    //  bad ids
    const char *ids[] = {
        "",
        "a/b",
        "..",
        "a.b",
        "x\n",
        "0123456789012345678901234567890123456789012345678901234567890123"
        "4"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        T_ASSERT(!sp_upload_open(fs, ids[i], S("f"), 5, &err));
        T_EQ_INT(err.status, BUS_STATUS_INVALID);
    }
    s_teardown(&fs);
}

static void
test_zero_lock_crash(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    //  zero bytes: no PATCH ever comes, the open completes it
    sp_upload_t *up = sp_upload_open(fs, "z", S("empty/file"), 0, &err);
    T_ASSERT(up);
    T_ASSERT(sp_upload_done(up));
    sp_upload_destroy(&up);
    T_EQ_INT(s_size(s_root, "empty/file"), 0);

    //  one open upload per id
    up = sp_upload_open(fs, "l", S("locked"), 10, &err);
    T_ASSERT(up);
    T_ASSERT(!sp_upload_open(fs, "l", S("locked"), 10, &err));
    T_EQ_INT(err.status, BUS_STATUS_CONFLICT);
    T_CONTAINS(err.detail, "in progress");
    T_EQ_INT(sp_upload_append(up, 0, "01234", 5, &err), 0);
    sp_upload_destroy(&up);
    //  the same nonce announced with another size does not reuse the bytes
    up = sp_upload_open(fs, "l", S("locked"), 20, &err);
    T_ASSERT(up);
    T_EQ_INT(sp_upload_offset(up), 0);
    T_EQ_INT(sp_upload_abort(up, &err), 0);
    sp_upload_destroy(&up);

    //  all bytes there but the rename never happened (a crash): open finishes
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s/c.4", s_root, TEST_STAGE);
    FILE *f = fopen(path, "w");
    fputs("done", f);
    fclose(f);
    up = sp_upload_open(fs, "c", S("crashed"), 4, &err);
    T_ASSERT(up);
    T_ASSERT(sp_upload_done(up));
    T_EQ_INT(sp_upload_offset(up), 4);
    sp_upload_destroy(&up);
    T_ASSERT(s_same(fs, "crashed", (const uint8_t *) "done", 4));

    //  a directory appearing at the target meanwhile: the bytes stay staged
    up = sp_upload_open(fs, "d", S("later"), 3, &err);
    T_ASSERT(up);
    T_EQ_INT(sp_fs_mkdir(fs, S("later/x"), SP_FS_MKDIR_PARENTS, &err), 0);
    T_EQ_INT(sp_upload_append(up, 0, "abc", 3, &err), -1);
    T_ASSERT(!sp_upload_done(up));
    sp_upload_destroy(&up);
    T_EQ_INT(s_size(s_root, TEST_STAGE "/d.3"), 3);
    s_teardown(&fs);
}

//  An abandoned upload's staging file is removed once old, never while an
//  upload object holds it; the client then starts again at byte 0.
static void
test_expire(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    const time_t day = 86400;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s/e.10", s_root, TEST_STAGE);
    struct timespec old[2] = {{time(NULL) - 2 * day, 0}, {time(NULL) - 2 * day, 0}};

    //  open (a PATCH streaming in, stalled): kept however old
    sp_upload_t *up = sp_upload_open(fs, "e", S("target"), 10, &err);
    T_ASSERT(up);
    T_EQ_INT(sp_upload_append(up, 0, "01234", 5, &err), 0);
    T_EQ_INT(utimensat(AT_FDCWD, path, old, AT_SYMLINK_NOFOLLOW), 0);
    T_EQ_INT(sp_fs_stage_expire(fs, time(NULL) - day, NULL, NULL, &err), 0);
    T_EQ_INT(s_size(s_root, TEST_STAGE "/e.10"), 5);
    //  let go and resumed soon: kept, the offset is what was written
    sp_upload_destroy(&up);
    T_EQ_INT(sp_fs_stage_expire(fs, time(NULL) - 2 * day - 60, NULL, NULL, &err), 0);
    up = sp_upload_open(fs, "e", S("target"), 10, &err);
    T_ASSERT(up);
    T_EQ_INT(sp_upload_offset(up), 5);
    sp_upload_destroy(&up);
    //  abandoned: removed, and a late client starts again at 0
    T_EQ_INT(utimensat(AT_FDCWD, path, old, AT_SYMLINK_NOFOLLOW), 0);
    T_EQ_INT(sp_fs_stage_expire(fs, time(NULL) - day, NULL, NULL, &err), 0);
    T_EQ_INT(s_staged(), 0);
    up = sp_upload_open(fs, "e", S("target"), 10, &err);
    T_ASSERT(up);
    T_EQ_INT(sp_upload_offset(up), 0);
    T_EQ_INT(sp_upload_append(up, 0, "abcdefghij", 10, &err), 0);
    T_ASSERT(sp_upload_done(up));
    sp_upload_destroy(&up);
    T_ASSERT(s_same(fs, "target", (const uint8_t *) "abcdefghij", 10));
    s_teardown(&fs);
}

//  A completed upload, and the directories it made, belong to the owner of
//  the folder object (as root; else only the default is checked).
static void
test_owner(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    bool root = geteuid() == 0;
    if (root)
        sp_fs_set_owner(fs, 1000, 1000);
    sp_upload_t *up = sp_upload_open(fs, "owned", S("sub/dir/owned.txt"), 6, &err);
    T_ASSERT(up);
    T_EQ_INT(sp_upload_append(up, 0, "abc", 3, &err), 0);
    T_EQ_INT(sp_upload_append(up, 3, "def", 3, &err), 0);
    T_ASSERT(sp_upload_done(up));
    sp_upload_destroy(&up);
    const char *made[] = {"sub", "sub/dir", "sub/dir/owned.txt"};
    for (size_t i = 0; i < 3; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", s_root, made[i]);
        struct stat st;
        T_EQ_INT(lstat(path, &st), 0);
        T_EQ_INT(st.st_uid, root ? 1000 : geteuid());
        T_EQ_INT(st.st_gid, root ? 1000 : getegid());
    }
    //  an empty upload completes at open: its file is the owner's too
    up = sp_upload_open(fs, "empty", S("empty.txt"), 0, &err);
    T_ASSERT(up);
    T_ASSERT(sp_upload_done(up));
    sp_upload_destroy(&up);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/empty.txt", s_root);
    struct stat st;
    T_EQ_INT(lstat(path, &st), 0);
    T_EQ_INT(st.st_uid, root ? 1000 : geteuid());
    s_teardown(&fs);
}

int
main(void)
{
    T_RUN(test_resume);
    T_RUN(test_wrong_offset);
    T_RUN(test_overflow);
    T_RUN(test_quota);
    T_RUN(test_target_refused);
    T_RUN(test_zero_lock_crash);
    T_RUN(test_owner);
    T_RUN(test_expire);
    return T_DONE();
}
