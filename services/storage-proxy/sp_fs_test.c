/*  =========================================================================
    sp_fs_test - confined folder operations: path checks, traversal and
    symlink attacks, special files, mkdir, rename, delete, paginated
    listings (3,000 and 100,000 entries), usage, the staging primitive, the
    expiry of abandoned staging files and the owner of what is made (as
    root)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <fcntl.h>         //  open flags for fixtures
#include <ftw.h>           //  nftw: removing fixtures
#include <sys/file.h>      //  flock: an upload holding its staging file
#include <sys/socket.h>    //  a unix socket planted in the folder
#include <sys/stat.h>      //  mkfifo, mknod, stat
#include <sys/sysmacros.h> //  makedev
#include <sys/un.h>        //  sockaddr_un
#include "t.h"

#define BIG_COUNT 100000

static char s_tmp[64]; //  the mkdtemp fixture
//  The folder's staging directory, relative to its root: beside it (sp_fs.h).
#define TEST_STAGE "../" SP_FS_STAGE_PREFIX "folder"

static char s_root[128];    //  the folder
static char s_outside[128]; //  a directory next to it, with a secret

//  ---------------------------------------------------------------------------
//  Fixtures

static int
s_remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void) st;
    (void) flag;
    (void) ftw;
    return remove(path);
}

static void
s_rm_rf(const char *path)
{
    nftw(path, s_remove_one, 64, FTW_DEPTH | FTW_PHYS);
}

static void
s_write_file(const char *rel, const char *content)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", s_root, rel);
    FILE *f = fopen(path, "w");
    assert(f);
    fputs(content, f);
    fclose(f);
}

static void
s_link(const char *target, const char *rel)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", s_root, rel);
    int rc = symlink(target, path);
    assert(rc == 0);
    (void) rc;
}

static bool
s_exists(const char *base, const char *rel)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", base, rel);
    struct stat st;
    return lstat(path, &st) == 0;
}

static char *
s_read_fd(int fd)
{
    char *buf = calloc(1, 65536);
    ssize_t n = read(fd, buf, 65535);
    if (n < 0)
        n = 0;
    buf[n] = '\0';
    return buf;
}

//  A fresh folder and outside directory for each test.
static sp_fs_t *
s_setup(void)
{
    snprintf(s_tmp, sizeof s_tmp, "/tmp/sp_fs_test.XXXXXX");
    if (!mkdtemp(s_tmp))
        return NULL;
    snprintf(s_root, sizeof s_root, "%s/folder", s_tmp);
    snprintf(s_outside, sizeof s_outside, "%s/outside", s_tmp);
    mkdir(s_root, 0755);
    mkdir(s_outside, 0755);
    char secret[PATH_MAX * 2];
    snprintf(secret, sizeof secret, "%s/secret", s_outside);
    FILE *f = fopen(secret, "w");
    fputs("top secret", f);
    fclose(f);
    bus_error_t err = {0};
    return sp_fs_new(s_root, &err);
}

static void
s_teardown(sp_fs_t **fs_p)
{
    sp_fs_destroy(fs_p);
    s_rm_rf(s_tmp);
}

#define S(str) str, strlen(str)

//  ---------------------------------------------------------------------------

static void
test_check_path(void)
{
    char out[SP_FS_PATH_MAX + 1];
    bus_error_t err = {0};
    struct {
        const char *in, *out;
    } good[] = {
        {"", ""},
        {".", ""},
        {"a", "a"},
        {"a/b", "a/b"},
        {"./a/./b", "a/b"},
        {"ünï/cöde", "ünï/cöde"},
        {"...", "..."},
        {"x/.backplane-uploads", "x/.backplane-uploads"},
        {"a b/c d", "a b/c d"},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        T_EQ_INT(sp_fs_check_path(S(good[i].in), out, &err), 0);
        T_EQ_STR(out, good[i].out);
    }
    struct {
        const char *in;
        size_t len;
        const char *detail;
    } bad[] = {
        {"../x", 4, "'..'"},
        {"..", 2, "'..'"},
        {"/etc/passwd", 11, "absolute"},
        {"a/../../b", 9, "'..'"},
        {"a//b", 4, "empty component"},
        {"a/", 2, "empty component"},
        {"./", 2, "empty component"},
        {"a\nb", 3, "control"},
        {"a\x01", 2, "control"},
        {"a\x7f", 2, "control"},
        {"\x1b[31m", 5, "control"},
        {"ok\0/etc/passwd", 14, "NUL"},
        {".backplane-uploads/x", 20, "reserved"},
        {"./.backplane-uploads", 20, "reserved"},
        {".backplane-uploads", 18, "reserved"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        T_EQ_INT(sp_fs_check_path(bad[i].in, bad[i].len, out, &err), -1);
        T_EQ_INT(err.status, BUS_STATUS_INVALID);
        T_CONTAINS(err.detail, bad[i].detail);
    }
    //  lengths: a 255-byte name and a 4095-byte path pass, one more fails
    char long_path[SP_FS_PATH_MAX + 2];
    memset(long_path, 'n', sizeof long_path);
    T_EQ_INT(sp_fs_check_path(long_path, SP_FS_NAME_MAX, out, &err), 0);
    T_EQ_INT(sp_fs_check_path(long_path, SP_FS_NAME_MAX + 1, out, &err), -1);
    T_CONTAINS(err.detail, "name over");
    for (size_t i = 0; i < sizeof long_path; i++)
        long_path[i] = i % 2 ? '/' : 'd';
    T_EQ_INT(sp_fs_check_path(long_path, SP_FS_PATH_MAX, out, &err), 0);
    T_EQ_INT(sp_fs_check_path(long_path, SP_FS_PATH_MAX + 1, out, &err), -1);
    T_CONTAINS(err.detail, "path over");
}

static void
test_traversal(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    uint64_t size = 0;
    sp_fs_info_t info;
    sp_fs_page_t *page = NULL;
    s_write_file("data.txt", "hello");
    T_EQ_INT(sp_fs_mkdir(fs, S("sub"), 0, &err), 0);
    s_link("/etc", "etc");               //  absolute, out
    s_link("..", "up");                  //  relative, out
    s_link("../../outside", "sub/deep"); //  relative from below, out
    s_link(s_outside, "abs");            //  absolute to our own outside dir
    s_link("data.txt", "inner");         //  stays inside
    s_link("sub/../data.txt", "inner2"); //  stays inside through ..

    //  lexical attacks never reach the file system
    const char *lexical[] = {"../x", "/etc/passwd", "a/../../b", "../outside/secret"};
    for (size_t i = 0; i < sizeof lexical / sizeof lexical[0]; i++) {
        T_EQ_INT(sp_fs_open_read(fs, S(lexical[i]), &size, &err), -1);
        T_EQ_INT(err.status, BUS_STATUS_INVALID);
        T_EQ_INT(sp_fs_stat(fs, S(lexical[i]), &info, &err), -1);
        T_EQ_INT(sp_fs_list(fs, S(lexical[i]), NULL, 0, 0, &page, &err), -1);
        T_EQ_INT(sp_fs_mkdir(fs, S(lexical[i]), SP_FS_MKDIR_PARENTS, &err), -1);
        T_EQ_INT(sp_fs_delete(fs, S(lexical[i]), true, &err), -1);
        T_EQ_INT(sp_fs_rename(fs, S("data.txt"), S(lexical[i]), &err), -1);
        T_EQ_INT(err.status, BUS_STATUS_INVALID);
    }

    //  planted symlinks that lead out are refused by the kernel
    const char *escapes[] = {"etc/passwd",
                             "up/outside/secret",
                             "sub/deep/secret",
                             "abs/secret",
                             "etc",
                             "up",
                             "sub/deep",
                             "abs"};
    for (size_t i = 0; i < sizeof escapes / sizeof escapes[0]; i++) {
        int fd = sp_fs_open_read(fs, S(escapes[i]), &size, &err);
        if (err.status != BUS_STATUS_FORBIDDEN)
            printf("# %s: %s\n", escapes[i], err.detail);
        T_EQ_INT(fd, -1);
        T_EQ_INT(err.status, BUS_STATUS_FORBIDDEN);
        T_CONTAINS(err.detail, "outside the folder");
    }
    T_EQ_INT(sp_fs_list(fs, S("etc"), NULL, 0, 0, &page, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_FORBIDDEN);
    T_EQ_INT(sp_fs_list(fs, S("up"), NULL, 0, 0, &page, &err), -1);
    T_EQ_INT(sp_fs_list(fs, S("sub/deep"), NULL, 0, 0, &page, &err), -1);
    T_ASSERT(!page);
    T_EQ_INT(sp_fs_stat(fs, S("etc/passwd"), &info, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_FORBIDDEN);
    T_EQ_INT(sp_fs_mkdir(fs, S("etc/newdir"), 0, &err), -1);
    T_EQ_INT(sp_fs_mkdir(fs, S("abs/x/y"), SP_FS_MKDIR_PARENTS, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_FORBIDDEN);
    T_EQ_INT(sp_fs_delete(fs, S("abs/secret"), false, &err), -1);
    T_EQ_INT(sp_fs_delete(fs, S("up/outside"), true, &err), -1);
    T_EQ_INT(sp_fs_rename(fs, S("abs/secret"), S("stolen"), &err), -1);
    T_EQ_INT(sp_fs_rename(fs, S("data.txt"), S("abs/planted"), &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_FORBIDDEN);
    T_ASSERT(s_exists(s_outside, "secret"));
    T_ASSERT(!s_exists(s_outside, "planted") && !s_exists(s_outside, "x"));
    T_ASSERT(!s_exists(s_root, "stolen"));

    //  symlinks that stay inside are followed for reading
    const char *inside[] = {"inner", "inner2"};
    for (size_t i = 0; i < 2; i++) {
        int fd = sp_fs_open_read(fs, S(inside[i]), &size, &err);
        T_ASSERT(fd >= 0);
        char *text = s_read_fd(fd);
        close(fd);
        T_EQ_INT(size, 5);
        bool same = strcmp(text, "hello") == 0;
        free(text);
        T_ASSERT(same);
    }
    //  a symlink itself is described, moved and deleted, never its target
    T_EQ_INT(sp_fs_stat(fs, S("etc"), &info, &err), 0);
    T_EQ_INT(info.type, SP_FS_SYMLINK);
    T_EQ_INT(sp_fs_rename(fs, S("abs"), S("abs2"), &err), 0);
    T_EQ_INT(sp_fs_delete(fs, S("abs2"), true, &err), 0);
    T_EQ_INT(sp_fs_delete(fs, S("up"), false, &err), 0);
    T_ASSERT(s_exists(s_outside, "secret"));
    T_ASSERT(!s_exists(s_root, "abs2") && !s_exists(s_root, "up"));

    //  a recursive delete of a directory holding a link out keeps the outside
    T_EQ_INT(sp_fs_delete(fs, S("sub"), true, &err), 0);
    T_ASSERT(!s_exists(s_root, "sub"));
    T_ASSERT(s_exists(s_outside, "secret"));

    s_teardown(&fs);
}

static void
test_special_files(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    uint64_t size = 0;
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/fifo", s_root);
    T_EQ_INT(mkfifo(path, 0644), 0);
    //  would block for ever if it were opened for reading
    T_EQ_INT(sp_fs_open_read(fs, S("fifo"), &size, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "not a regular file");

    bool made_device = false;
    if (geteuid() == 0) {
        snprintf(path, sizeof path, "%s/null", s_root);
        made_device = mknod(path, S_IFCHR | 0666, makedev(1, 3)) == 0;
    }
    if (made_device) {
        T_EQ_INT(sp_fs_open_read(fs, S("null"), &size, &err), -1);
        T_CONTAINS(err.detail, "not a regular file");
        s_link("null", "null-link");
        T_EQ_INT(sp_fs_open_read(fs, S("null-link"), &size, &err), -1);
        T_CONTAINS(err.detail, "not a regular file");
    } else
        printf("# no device node test: not root\n");

    int sock = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%.90s/sock", s_root);
    bool made_socket = strlen(s_root) + 5 < sizeof addr.sun_path &&
                       bind(sock, (struct sockaddr *) &addr, sizeof addr) == 0;
    close(sock);
    if (made_socket) {
        T_EQ_INT(sp_fs_open_read(fs, S("sock"), &size, &err), -1);
        T_CONTAINS(err.detail, "not a regular file");
    }
    T_EQ_INT(sp_fs_open_read(fs, S(""), &size, &err), -1);
    T_CONTAINS(err.detail, "not a regular file");

    //  they are listed, as "other"
    sp_fs_page_t *page = NULL;
    T_EQ_INT(sp_fs_list(fs, S(""), NULL, 0, 0, &page, &err), 0);
    size_t others = 0;
    for (size_t i = 0; i < page->count; i++)
        if (page->entries[i].info.type == SP_FS_OTHER)
            others++;
    sp_fs_page_destroy(&page);
    sp_fs_page_destroy(&page);
    T_EQ_INT(others, 1 + made_device + made_socket);
    s_teardown(&fs);
}

static void
test_mkdir(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    T_EQ_INT(sp_fs_mkdir(fs, S("a"), 0, &err), 0);
    T_ASSERT(s_exists(s_root, "a"));
    T_EQ_INT(sp_fs_mkdir(fs, S("a"), 0, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_CONFLICT);
    T_EQ_INT(sp_fs_mkdir(fs, S("a"), SP_FS_MKDIR_EXIST_OK, &err), 0);
    T_EQ_INT(sp_fs_mkdir(fs, S("x/y/z"), 0, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    T_EQ_INT(sp_fs_mkdir(fs, S("x/y/z"), SP_FS_MKDIR_PARENTS, &err), 0);
    T_ASSERT(s_exists(s_root, "x/y/z"));
    T_EQ_INT(sp_fs_mkdir(fs, S("x/y/z"), SP_FS_MKDIR_PARENTS, &err), -1);
    T_EQ_INT(
        sp_fs_mkdir(fs, S("x/y/z"), SP_FS_MKDIR_PARENTS | SP_FS_MKDIR_EXIST_OK, &err), 0);
    s_write_file("file", "x");
    T_EQ_INT(sp_fs_mkdir(fs, S("file"), SP_FS_MKDIR_EXIST_OK, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_CONFLICT);
    T_EQ_INT(sp_fs_mkdir(fs, S("file/sub"), SP_FS_MKDIR_PARENTS, &err), -1);
    //  through a symlink that stays inside, -p goes on
    s_link("x/y", "ylink");
    T_EQ_INT(
        sp_fs_mkdir(fs, S("ylink/z"), SP_FS_MKDIR_PARENTS | SP_FS_MKDIR_EXIST_OK, &err),
        0);
    T_EQ_INT(sp_fs_mkdir(fs, S("ylink/w/v"), SP_FS_MKDIR_PARENTS, &err), 0);
    T_ASSERT(s_exists(s_root, "x/y/w/v"));
    T_EQ_INT(sp_fs_mkdir(fs, S(""), 0, &err), -1);
    T_EQ_INT(sp_fs_mkdir(fs, S("."), SP_FS_MKDIR_EXIST_OK, &err), 0);
    T_EQ_INT(sp_fs_mkdir(fs, S(".backplane-uploads"), 0, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    sp_fs_info_t info;
    T_EQ_INT(sp_fs_stat(fs, S("x/y"), &info, &err), 0);
    T_EQ_INT(info.type, SP_FS_DIR);
    T_EQ_INT(sp_fs_stat(fs, S("nope"), &info, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    s_teardown(&fs);
}

static void
test_rename(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    s_write_file("one", "1");
    s_write_file("two", "2");
    T_EQ_INT(sp_fs_mkdir(fs, S("dir/sub"), SP_FS_MKDIR_PARENTS, &err), 0);
    T_EQ_INT(sp_fs_rename(fs, S("one"), S("uno"), &err), 0);
    T_ASSERT(!s_exists(s_root, "one") && s_exists(s_root, "uno"));
    T_EQ_INT(sp_fs_rename(fs, S("uno"), S("two"), &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_CONFLICT);
    T_CONTAINS(err.detail, "two");
    T_EQ_INT(sp_fs_rename(fs, S("missing"), S("other"), &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    T_CONTAINS(err.detail, "missing");
    T_EQ_INT(sp_fs_rename(fs, S("uno"), S("nodir/uno"), &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    T_EQ_INT(sp_fs_rename(fs, S("uno"), S("dir/sub/uno"), &err), 0);
    T_ASSERT(s_exists(s_root, "dir/sub/uno"));
    T_EQ_INT(sp_fs_rename(fs, S("dir"), S("dir/sub/inside"), &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_EQ_INT(sp_fs_rename(fs, S("dir"), S("moved"), &err), 0);
    T_ASSERT(s_exists(s_root, "moved/sub/uno"));
    T_EQ_INT(sp_fs_rename(fs, S(""), S("x"), &err), -1);
    T_EQ_INT(sp_fs_rename(fs, S("two"), S("."), &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    s_teardown(&fs);
}

//  move-file as `mv` does it: into an existing directory, with or without
//  a trailing '/', and into the root; a plain new name is a rename.
static void
test_move(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    s_write_file("a.txt", "a");
    s_write_file("b.txt", "b");
    T_EQ_INT(sp_fs_mkdir(fs, S("dir1/sub"), SP_FS_MKDIR_PARENTS, &err), 0);
    T_EQ_INT(sp_fs_move(fs, S("a.txt"), S("dir1/"), &err), 0);
    T_ASSERT(!s_exists(s_root, "a.txt") && s_exists(s_root, "dir1/a.txt"));
    T_EQ_INT(sp_fs_move(fs, S("b.txt"), S("dir1/sub"), &err), 0);
    T_ASSERT(s_exists(s_root, "dir1/sub/b.txt"));
    T_EQ_INT(sp_fs_move(fs, S("dir1/sub/b.txt"), S("."), &err), 0);
    T_ASSERT(s_exists(s_root, "b.txt"));
    T_EQ_INT(sp_fs_move(fs, S("b.txt"), S("c.txt"), &err), 0);
    T_ASSERT(s_exists(s_root, "c.txt") && !s_exists(s_root, "b.txt"));
    //  an existing file is not replaced; a directory does not go into itself
    T_EQ_INT(sp_fs_move(fs, S("c.txt"), S("dir1/a.txt"), &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_CONFLICT);
    T_EQ_INT(sp_fs_move(fs, S("dir1"), S("dir1/sub/"), &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_EQ_INT(sp_fs_move(fs, S("c.txt"), S("/"), &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_EQ_INT(sp_fs_move(fs, S("c.txt"), S("../x/"), &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_EQ_INT(sp_fs_move(fs, S(""), S("dir1"), &err), -1);
    s_teardown(&fs);
}

static void
test_delete(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    s_write_file("file", "x");
    T_EQ_INT(sp_fs_delete(fs, S("file"), false, &err), 0);
    T_ASSERT(!s_exists(s_root, "file"));
    T_EQ_INT(sp_fs_delete(fs, S("file"), false, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    T_EQ_INT(sp_fs_mkdir(fs, S("empty"), 0, &err), 0);
    T_EQ_INT(sp_fs_delete(fs, S("empty"), false, &err), 0);
    T_EQ_INT(sp_fs_mkdir(fs, S("tree/a/b/c"), SP_FS_MKDIR_PARENTS, &err), 0);
    s_write_file("tree/a/f1", "1");
    s_write_file("tree/a/b/c/f2", "2");
    s_link("/etc", "tree/a/b/etc");
    s_link("../../..", "tree/a/b/top");
    T_EQ_INT(sp_fs_delete(fs, S("tree"), false, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_CONFLICT);
    T_CONTAINS(err.detail, "not empty");
    T_EQ_INT(sp_fs_delete(fs, S("tree"), true, &err), 0);
    T_ASSERT(!s_exists(s_root, "tree"));
    T_ASSERT(s_exists("/etc", "passwd"));
    T_EQ_INT(sp_fs_delete(fs, S(""), true, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_EQ_INT(sp_fs_delete(fs, S("."), true, &err), -1);

    //  deeper than SP_FS_MAX_DEPTH: refused, not a crash or an fd leak
    char deep[SP_FS_PATH_MAX + 1] = "";
    for (int i = 0; i < SP_FS_MAX_DEPTH + 2; i++)
        strcat(deep, i ? "/d" : "d");
    T_EQ_INT(sp_fs_mkdir(fs, S(deep), SP_FS_MKDIR_PARENTS, &err), 0);
    T_EQ_INT(sp_fs_delete(fs, S("d"), true, &err), -1);
    T_CONTAINS(err.detail, "too deep");
    uint64_t bytes, entries;
    T_EQ_INT(sp_fs_usage(fs, &bytes, &entries, &err), -1);
    T_CONTAINS(err.detail, "too deep");
    s_teardown(&fs);
}

static int
s_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

static void
test_list_pages(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    enum { N = 3000 };
    //  names created in a scrambled order
    char **names = calloc(N + 2, sizeof *names);
    for (int i = 0; i < N; i++) {
        int k = (i * 1237) % N; //  1237 is prime to 3000: a permutation
        T_ASSERT(asprintf(&names[i], "f%05d", k) > 0);
        s_write_file(names[i], k % 2 ? "odd" : "");
    }
    T_EQ_INT(sp_fs_mkdir(fs, S("dir"), 0, &err), 0);
    s_link("dir", "link");
    names[N] = strdup("dir");
    names[N + 1] = strdup("link");
    qsort(names, N + 2, sizeof *names, s_cmp);
    //  a staging directory at the root is not listed
    T_EQ_INT(sp_fs_stage_remove(fs, "x", &err), 0);
    int stage_fd = sp_fs_stage_open(fs, "x", &err);
    T_ASSERT(stage_fd >= 0);
    close(stage_fd);

    char cursor[SP_FS_NAME_MAX + 1] = "";
    size_t seen = 0, pages = 0;
    bool ok = true;
    for (;;) {
        sp_fs_page_t *page = NULL;
        T_EQ_INT(sp_fs_list(fs, S(""), cursor, strlen(cursor), 1000, &page, &err), 0);
        pages++;
        T_EQ_INT(page->total, N + 2);
        for (size_t i = 0; i < page->count; i++) {
            sp_fs_entry_t *e = &page->entries[i];
            if (seen >= N + 2 || strcmp(e->name, names[seen]) != 0)
                ok = false;
            else if (strcmp(e->name, "dir") == 0)
                ok = ok && e->info.type == SP_FS_DIR;
            else if (strcmp(e->name, "link") == 0)
                ok = ok && e->info.type == SP_FS_SYMLINK;
            else
                ok = ok && e->info.type == SP_FS_FILE && e->info.mode == 0644 &&
                     e->info.size == (atoi(e->name + 1) % 2 ? 3 : 0) &&
                     e->info.mtime.tv_sec > 0;
            seen++;
        }
        bool more = page->more;
        if (page->count)
            snprintf(cursor, sizeof cursor, "%s", page->entries[page->count - 1].name);
        sp_fs_page_destroy(&page);
        if (!more)
            break;
    }
    T_ASSERT(ok);
    T_EQ_INT(seen, N + 2);
    T_EQ_INT(pages, 4); //  1000, 1000, 1000, 2

    //  a cursor that names no entry; the default limit; a cursor past the end
    sp_fs_page_t *page = NULL;
    T_EQ_INT(sp_fs_list(fs, S(""), S("f01234x"), 0, &page, &err), 0);
    T_EQ_STR(page->entries[0].name, "f01235");
    T_EQ_INT(page->count, SP_FS_LIST_DEFAULT);
    T_ASSERT(page->more);
    sp_fs_page_destroy(&page);
    T_EQ_INT(sp_fs_list(fs, S(""), S("zzz"), 5, &page, &err), 0);
    T_EQ_INT(page->count, 0);
    T_ASSERT(!page->more);
    sp_fs_page_destroy(&page);
    //  the staging directory shows when listed through a subdirectory path?
    //  no: it cannot be named at all
    T_EQ_INT(sp_fs_list(fs, S(".backplane-uploads"), NULL, 0, 0, &page, &err), -1);
    T_EQ_INT(sp_fs_list(fs, S("f00001"), NULL, 0, 0, &page, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_EQ_INT(sp_fs_list(fs, S(""), "a\0b", 3, 0, &page, &err), -1);
    T_CONTAINS(err.detail, "cursor");
    for (int i = 0; i < N + 2; i++)
        free(names[i]);
    free(names);
    s_teardown(&fs);
}

static double
s_ms_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double) (now.tv_sec - start->tv_sec) * 1e3 +
           (double) (now.tv_nsec - start->tv_nsec) / 1e6;
}

static void
test_list_100k(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    T_EQ_INT(sp_fs_mkdir(fs, S("big"), 0, &err), 0);
    char dir[PATH_MAX * 2];
    snprintf(dir, sizeof dir, "%s/big", s_root);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    T_ASSERT(dfd >= 0);
    for (int i = 0; i < BIG_COUNT; i++) {
        char name[32];
        snprintf(name, sizeof name, "file-%06d.dat", (i * 7919) % BIG_COUNT);
        int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0)
            break;
        close(fd);
    }
    close(dfd);

    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    sp_fs_page_t *page = NULL;
    T_EQ_INT(sp_fs_list(fs, S("big"), NULL, 0, SP_FS_LIST_MAX, &page, &err), 0);
    double whole_ms = s_ms_since(&start);
    T_EQ_INT(page->count, BIG_COUNT);
    T_ASSERT(!page->more);
    bool sorted = true;
    for (size_t i = 1; i < page->count; i++)
        sorted = sorted && strcmp(page->entries[i - 1].name, page->entries[i].name) < 0;
    T_ASSERT(sorted);
    sp_fs_page_destroy(&page);

    clock_gettime(CLOCK_MONOTONIC, &start);
    T_EQ_INT(sp_fs_list(fs, S("big"), NULL, 0, 1000, &page, &err), 0);
    double first_ms = s_ms_since(&start);
    T_EQ_STR(page->entries[0].name, "file-000000.dat");
    sp_fs_page_destroy(&page);

    clock_gettime(CLOCK_MONOTONIC, &start);
    T_EQ_INT(sp_fs_list(fs, S("big"), S("file-099499.dat"), 1000, &page, &err), 0);
    double last_ms = s_ms_since(&start);
    T_EQ_INT(page->count, 500);
    T_ASSERT(!page->more);
    sp_fs_page_destroy(&page);

    printf("# list %d files: %.0f ms\n", BIG_COUNT, whole_ms);
    printf("# one page of 1000 from %d: first %.1f ms, last %.1f ms\n", BIG_COUNT,
           first_ms, last_ms);
    s_teardown(&fs);
}

static void
test_usage_and_read(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    uint64_t bytes = 1, entries = 1;
    T_EQ_INT(sp_fs_usage(fs, &bytes, &entries, &err), 0);
    T_EQ_INT(bytes, 0);
    T_EQ_INT(entries, 0);
    T_EQ_INT(sp_fs_mkdir(fs, S("d/e"), SP_FS_MKDIR_PARENTS, &err), 0);
    s_write_file("a", "12345");
    s_write_file("d/b", "1234567890");
    s_write_file("d/e/c", "x");
    s_link(s_outside, "d/out"); //  not followed: the secret does not count
    T_EQ_INT(sp_fs_usage(fs, &bytes, &entries, &err), 0);
    T_EQ_INT(bytes, 16);
    T_EQ_INT(entries, 6);

    uint64_t size = 0;
    int fd = sp_fs_open_read(fs, S("d/b"), &size, &err);
    T_ASSERT(fd >= 0);
    char *text = s_read_fd(fd);
    close(fd);
    T_EQ_INT(size, 10);
    bool same = strcmp(text, "1234567890") == 0;
    free(text);
    T_ASSERT(same);
    T_EQ_INT(sp_fs_open_read(fs, S("d"), &size, &err), -1);
    T_EQ_INT(sp_fs_open_read(fs, S("nope"), &size, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    T_EQ_INT(sp_fs_open_read(fs, S("a/x"), &size, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    s_teardown(&fs);

    T_ASSERT(!sp_fs_new("/nonexistent/folder", &err));
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
}

static void
test_stage(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    const char *bad[] = {"", ".", "..", "a/b", "a\nb", "../x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        T_EQ_INT(sp_fs_stage_open(fs, bad[i], &err), -1);
        T_EQ_INT(err.status, BUS_STATUS_INVALID);
    }
    int fd = sp_fs_stage_open(fs, "n1.5", &err);
    T_ASSERT(fd >= 0);
    T_EQ_INT(write(fd, "abc", 3), 3);
    close(fd);
    //  beside the folder, not in it: nothing of it shows in the folder (or
    //  in a container that mounts it)
    T_ASSERT(s_exists(s_root, TEST_STAGE "/n1.5"));
    T_ASSERT(!s_exists(s_root, ".backplane-uploads"));
    uint64_t bytes = 0, entries = 0;
    T_EQ_INT(sp_fs_usage(fs, &bytes, &entries, &err), 0);
    T_EQ_INT(bytes, 3);   //  the folder's space, as its quota charged it
    T_EQ_INT(entries, 0); //  but no entry of the folder
    fd = sp_fs_stage_open(fs, "n1.5", &err); //  resumed, not truncated
    T_ASSERT(fd >= 0);
    T_EQ_INT(lseek(fd, 0, SEEK_END), 3);
    close(fd);
    T_EQ_INT(sp_fs_stage_commit(fs, "n1.5", S("out/dir/file"), &err), 0);
    T_ASSERT(s_exists(s_root, "out/dir/file"));
    T_ASSERT(!s_exists(s_root, TEST_STAGE "/n1.5"));
    T_EQ_INT(sp_fs_stage_commit(fs, "n1.5", S("again"), &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);

    //  planted in the staging directory: a symlink, a hard link, a fifo
    char path[PATH_MAX * 2];
    s_link("/etc/passwd", TEST_STAGE "/evil");
    T_EQ_INT(sp_fs_stage_open(fs, "evil", &err), -1);
    T_CONTAINS(err.detail, "not a regular file");
    char target[PATH_MAX * 2];
    snprintf(target, sizeof target, "%s/out/dir/file", s_root);
    snprintf(path, sizeof path, "%s/" TEST_STAGE "/linked", s_root);
    T_EQ_INT(link(target, path), 0);
    T_EQ_INT(sp_fs_stage_open(fs, "linked", &err), -1);
    T_CONTAINS(err.detail, "hard links");
    snprintf(path, sizeof path, "%s/" TEST_STAGE "/fifo", s_root);
    T_EQ_INT(mkfifo(path, 0600), 0);
    T_EQ_INT(sp_fs_stage_open(fs, "fifo", &err), -1);
    T_CONTAINS(err.detail, "not a regular file");

    //  a staging directory replaced by a symlink out is not used
    T_EQ_INT(sp_fs_stage_remove(fs, "evil", &err), 0);
    T_EQ_INT(sp_fs_stage_remove(fs, "evil", &err), 0);
    snprintf(path, sizeof path, "%s/" TEST_STAGE, s_root);
    s_rm_rf(path);
    s_link(s_outside, TEST_STAGE);
    T_EQ_INT(sp_fs_stage_open(fs, "n2", &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_FORBIDDEN);
    T_ASSERT(!s_exists(s_outside, "n2"));

    //  the target of a commit cannot be the reserved name or lead out
    T_EQ_INT(sp_fs_stage_commit(fs, "n2", S(".backplane-uploads/x"), &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    s_teardown(&fs);
}

//  Sets the mtime (and atime) of rel under base to age_s seconds ago,
//  without following a symlink.
static bool
s_age(const char *base, const char *rel, time_t age_s)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", base, rel);
    struct timespec times[2] = {{time(NULL) - age_s, 0}, {time(NULL) - age_s, 0}};
    return utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW) == 0;
}

//  What sp_fs_stage_expire told.
typedef struct {
    int count;
    uint64_t bytes;
    char last[64];
} expired_t;

static void
s_on_expired(void *arg, const char *name, uint64_t bytes, struct timespec mtime)
{
    (void) mtime;
    expired_t *seen = arg;
    seen->count++;
    seen->bytes += bytes;
    snprintf(seen->last, sizeof seen->last, "%s", name);
}

#define DAY_S 86400

//  Staging files unwritten for long go; fresh ones, one an upload holds
//  locked, and whatever is not a regular file stay; nothing is followed.
static void
test_stage_expire(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    expired_t seen = {0};
    //  no staging directory yet: nothing to do
    T_EQ_INT(sp_fs_stage_expire(fs, time(NULL), s_on_expired, &seen, &err), 0);
    T_EQ_INT(seen.count, 0);

    int fd = sp_fs_stage_open(fs, "old.10", &err);
    T_ASSERT(fd >= 0);
    T_EQ_INT(write(fd, "0123456789", 10), 10);
    close(fd);
    fd = sp_fs_stage_open(fs, "fresh.5", &err);
    T_ASSERT(fd >= 0);
    T_EQ_INT(write(fd, "01234", 5), 5);
    close(fd);
    int busy = sp_fs_stage_open(fs, "busy.3", &err); //  as sp_upload holds it
    T_ASSERT(busy >= 0);
    T_EQ_INT(write(busy, "012", 3), 3);
    T_EQ_INT(flock(busy, LOCK_EX | LOCK_NB), 0);
    T_ASSERT(s_age(s_root, TEST_STAGE "/old.10", 2 * DAY_S));
    T_ASSERT(s_age(s_root, TEST_STAGE "/busy.3", 2 * DAY_S));
    //  planted, all old: symlinks out to a file and to a directory, a fifo,
    //  a directory holding an old file
    T_ASSERT(s_age(s_outside, "secret", 2 * DAY_S));
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/secret", s_outside);
    s_link(path, TEST_STAGE "/evil");
    s_link(s_outside, TEST_STAGE "/evil_dir");
    T_ASSERT(s_age(s_root, TEST_STAGE "/evil", 2 * DAY_S));
    T_ASSERT(s_age(s_root, TEST_STAGE "/evil_dir", 2 * DAY_S));
    snprintf(path, sizeof path, "%s/%s/fifo", s_root, TEST_STAGE);
    T_EQ_INT(mkfifo(path, 0600), 0);
    T_ASSERT(s_age(s_root, TEST_STAGE "/fifo", 2 * DAY_S));
    snprintf(path, sizeof path, "%s/%s/sub", s_root, TEST_STAGE);
    T_EQ_INT(mkdir(path, 0700), 0);
    s_write_file(TEST_STAGE "/sub/inner", "abc");
    T_ASSERT(s_age(s_root, TEST_STAGE "/sub/inner", 2 * DAY_S));
    T_ASSERT(s_age(s_root, TEST_STAGE "/sub", 2 * DAY_S));
    uint64_t bytes = 0, entries = 0;
    T_EQ_INT(sp_fs_usage(fs, &bytes, &entries, &err), 0);
    T_EQ_INT(bytes, 10 + 5 + 3 + 3);

    T_EQ_INT(sp_fs_stage_expire(fs, time(NULL) - DAY_S, s_on_expired, &seen, &err), 0);
    T_EQ_INT(seen.count, 1);
    T_EQ_INT(seen.bytes, 10);
    T_EQ_STR(seen.last, "old.10");
    T_ASSERT(!s_exists(s_root, TEST_STAGE "/old.10"));
    T_ASSERT(s_exists(s_root, TEST_STAGE "/fresh.5"));
    T_ASSERT(s_exists(s_root, TEST_STAGE "/busy.3"));
    T_ASSERT(s_exists(s_root, TEST_STAGE "/evil"));
    T_ASSERT(s_exists(s_root, TEST_STAGE "/evil_dir"));
    T_ASSERT(s_exists(s_root, TEST_STAGE "/fifo"));
    T_ASSERT(s_exists(s_root, TEST_STAGE "/sub/inner"));
    T_ASSERT(s_exists(s_outside, "secret"));
    snprintf(path, sizeof path, "%s/secret", s_outside);
    struct stat st;
    T_EQ_INT(stat(path, &st), 0);
    T_EQ_INT(st.st_size, strlen("top secret"));
    //  the usage no longer counts it
    T_EQ_INT(sp_fs_usage(fs, &bytes, &entries, &err), 0);
    T_EQ_INT(bytes, 5 + 3 + 3);

    //  once the upload lets go, its old file goes too
    close(busy);
    memset(&seen, 0, sizeof seen);
    T_EQ_INT(sp_fs_stage_expire(fs, time(NULL) - DAY_S, s_on_expired, &seen, &err), 0);
    T_EQ_INT(seen.count, 1);
    T_EQ_INT(seen.bytes, 3);
    T_ASSERT(!s_exists(s_root, TEST_STAGE "/busy.3"));
    T_ASSERT(s_exists(s_root, TEST_STAGE "/fresh.5"));
    //  NULL callback; a cutoff in the future takes the fresh one too
    T_EQ_INT(sp_fs_stage_expire(fs, time(NULL) + 60, NULL, NULL, &err), 0);
    T_ASSERT(!s_exists(s_root, TEST_STAGE "/fresh.5"));
    T_ASSERT(s_exists(s_root, TEST_STAGE "/evil"));
    T_ASSERT(s_exists(s_outside, "secret"));

    //  a staging directory replaced by a symlink out is not entered
    snprintf(path, sizeof path, "%s/%s", s_root, TEST_STAGE);
    s_rm_rf(path);
    s_link(s_outside, TEST_STAGE);
    memset(&seen, 0, sizeof seen);
    T_EQ_INT(sp_fs_stage_expire(fs, time(NULL) + 60, s_on_expired, &seen, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_FORBIDDEN);
    T_EQ_INT(seen.count, 0);
    T_ASSERT(s_exists(s_outside, "secret"));
    s_teardown(&fs);
}

//  lstat's owner of rel under s_root: uid in *uid_p, gid in *gid_p.
static bool
s_owner(const char *rel, uid_t *uid_p, gid_t *gid_p)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", s_root, rel);
    struct stat st;
    if (lstat(path, &st) != 0)
        return false;
    *uid_p = st.st_uid;
    *gid_p = st.st_gid;
    return true;
}

#define OWNER_UID 4242
#define OWNER_GID 4343
#define T_OWNED(rel, u, g)                                                               \
    do {                                                                                 \
        uid_t t_uid_;                                                                    \
        gid_t t_gid_;                                                                    \
        T_ASSERT(s_owner(rel, &t_uid_, &t_gid_));                                        \
        T_EQ_INT(t_uid_, u);                                                             \
        T_EQ_INT(t_gid_, g);                                                             \
    } while (0)

//  What the folder object makes goes to its owner; what was there or is
//  moved keeps its own. Only root can give files away: without it, only
//  the default (as created) is checked.
static void
test_owner(void)
{
    sp_fs_t *fs = s_setup();
    T_ASSERT(fs);
    bus_error_t err = {0};
    uid_t me = geteuid();
    gid_t my_group = getegid();
    //  the default: as created
    T_EQ_INT(sp_fs_mkdir(fs, S("plain"), 0, &err), 0);
    T_OWNED("plain", me, my_group);
    if (me != 0) {
        printf("# not root: giving files away is not tested\n");
        s_teardown(&fs);
        return;
    }
    s_write_file("before", "x");
    T_EQ_INT(sp_fs_mkdir(fs, S("pre"), 0, &err), 0);
    sp_fs_set_owner(fs, OWNER_UID, OWNER_GID);

    //  mkdir -p: every directory made, not the ones already there
    T_EQ_INT(sp_fs_mkdir(fs, S("pre/a/b/c"), SP_FS_MKDIR_PARENTS, &err), 0);
    T_OWNED("pre", 0, 0);
    T_OWNED("pre/a", OWNER_UID, OWNER_GID);
    T_OWNED("pre/a/b", OWNER_UID, OWNER_GID);
    T_OWNED("pre/a/b/c", OWNER_UID, OWNER_GID);
    T_EQ_INT(sp_fs_mkdir(fs, S("plain"), SP_FS_MKDIR_EXIST_OK, &err), 0);
    T_OWNED("plain", 0, 0);
    //  made through a symlink that stays inside: the directory, not the link
    s_link("pre/a", "alink");
    T_EQ_INT(sp_fs_mkdir(fs, S("alink/d"), 0, &err), 0);
    T_OWNED("pre/a/d", OWNER_UID, OWNER_GID);
    T_OWNED("alink", 0, 0);

    //  an upload: the staging file, a resumed one, the committed file and
    //  the parents the commit made
    int fd = sp_fs_stage_open(fs, "up1", &err);
    T_ASSERT(fd >= 0);
    T_EQ_INT(write(fd, "abc", 3), 3);
    close(fd);
    T_OWNED(TEST_STAGE "/up1", OWNER_UID, OWNER_GID);
    T_OWNED(TEST_STAGE, 0, 0); //  ours: containers never reach in
    T_EQ_INT(sp_fs_stage_commit(fs, "up1", S("new/dir/file"), &err), 0);
    T_OWNED("new", OWNER_UID, OWNER_GID);
    T_OWNED("new/dir", OWNER_UID, OWNER_GID);
    T_OWNED("new/dir/file", OWNER_UID, OWNER_GID);
    //  a staging file of root's (made before an owner was set) is given
    //  away when resumed
    sp_fs_set_owner(fs, (uid_t) -1, (gid_t) -1);
    fd = sp_fs_stage_open(fs, "up2", &err);
    T_ASSERT(fd >= 0);
    close(fd);
    T_OWNED(TEST_STAGE "/up2", 0, 0);
    sp_fs_set_owner(fs, OWNER_UID, OWNER_GID);
    fd = sp_fs_stage_open(fs, "up2", &err);
    T_ASSERT(fd >= 0);
    close(fd);
    T_EQ_INT(sp_fs_stage_commit(fs, "up2", S("pre/resumed"), &err), 0);
    T_OWNED("pre/resumed", OWNER_UID, OWNER_GID);

    //  moved entries keep what they had
    T_EQ_INT(sp_fs_rename(fs, S("before"), S("pre/a/moved"), &err), 0);
    T_OWNED("pre/a/moved", 0, 0);
    T_EQ_INT(sp_fs_rename(fs, S("new/dir/file"), S("moved2"), &err), 0);
    T_OWNED("moved2", OWNER_UID, OWNER_GID);

    //  one id only: the other stays as created
    sp_fs_set_owner(fs, OWNER_UID, (gid_t) -1);
    T_EQ_INT(sp_fs_mkdir(fs, S("uid_only"), 0, &err), 0);
    T_OWNED("uid_only", OWNER_UID, 0);
    sp_fs_set_owner(fs, (uid_t) -1, OWNER_GID);
    T_EQ_INT(sp_fs_mkdir(fs, S("gid_only"), 0, &err), 0);
    T_OWNED("gid_only", 0, OWNER_GID);
    s_teardown(&fs);
}

int
main(void)
{
    T_RUN(test_check_path);
    T_RUN(test_traversal);
    T_RUN(test_special_files);
    T_RUN(test_mkdir);
    T_RUN(test_rename);
    T_RUN(test_move);
    T_RUN(test_delete);
    T_RUN(test_list_pages);
    T_RUN(test_list_100k);
    T_RUN(test_usage_and_read);
    T_RUN(test_stage);
    T_RUN(test_stage_expire);
    T_RUN(test_owner);
    return T_DONE();
}
