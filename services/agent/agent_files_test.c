/*  =========================================================================
    agent_files_test - confined file access against a real temp home

    Builds <tmp>/home with files, a fifo, a device node (as root), symlinks
    inside and symlinks out (to /etc and to <tmp>/secret), then checks
    upload, read, archive and listing: round trips, ownership, atomic
    overwrite, every refused path (traversal, escapes, control characters,
    special files, size limits), archives read back by tar(1), and the same
    checks through the fallback lookup used without openat2.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <dirent.h>        //  opendir: checking for leftover temp files
#include <ftw.h>           //  nftw: removing the temp dir
#include <sys/stat.h>      //  mkfifo, mknod, stat
#include <sys/sysmacros.h> //  makedev
#include "t.h"

#define LIMIT (1024 * 1024)

//  1000:1000 as root; without root, ownership is left alone and not checked
static bool s_root;
static uid_t s_uid = (uid_t) -1;
static gid_t s_gid = (gid_t) -1;
#define OWNER_UID s_uid
#define OWNER_GID s_gid

static char s_tmp[] = "/tmp/agent_files_test.XXXXXX";
static char s_home[256];

static const char *
s_path(const char *rel)
{
    static char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", s_home, rel);
    return path;
}

static int
s_remove(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void) st;
    (void) type;
    (void) ftw;
    return remove(path);
}

//  Reads rel back and compares it with text.
static bool
s_reads(const char *rel, const char *text)
{
    uint8_t *data = NULL;
    size_t size = 0;
    bus_error_t err = {0};
    int rc = agent_files_read(s_home, rel, LIMIT, &data, &size, &err);
    bool same = rc == 0 && size == strlen(text) && memcmp(data, text, size) == 0;
    if (!same)
        fprintf(stderr, "# read %s: rc %d: %s\n", rel, rc, err.detail);
    free(data);
    return same;
}

//  The status each of read, write, list and tar gives for path (0 when it
//  succeeds), in that order, into statuses.
static void
s_all(const char *path, int statuses[4])
{
    bus_error_t err;
    uint8_t *data = NULL;
    size_t size;
    char *json = NULL;
    memset(&err, 0, sizeof err);
    statuses[0] =
        agent_files_read(s_home, path, LIMIT, &data, &size, &err) ? err.status : 0;
    free(data);
    memset(&err, 0, sizeof err);
    statuses[1] = agent_files_write(s_home, path, "x", 1, OWNER_UID, OWNER_GID, &err)
                      ? err.status
                      : 0;
    memset(&err, 0, sizeof err);
    statuses[2] = agent_files_list(s_home, path, &json, &err) ? err.status : 0;
    free(json);
    memset(&err, 0, sizeof err);
    data = NULL;
    statuses[3] =
        agent_files_tar(s_home, path, LIMIT, &data, &size, &err) ? err.status : 0;
    free(data);
}

//  True when every operation refuses path with BUS_STATUS_INVALID.
static bool
s_all_refused(const char *path)
{
    int statuses[4];
    s_all(path, statuses);
    for (int i = 0; i < 4; i++)
        if (statuses[i] != BUS_STATUS_INVALID) {
            fprintf(stderr, "# %s: operation %d gave status %d\n", path, i, statuses[i]);
            return false;
        }
    return true;
}

//  Runs cmd through the shell and returns its output (caller frees), or NULL.
static char *
s_run(const char *cmd)
{
    FILE *pipe = popen(cmd, "r");
    if (!pipe)
        return NULL;
    char *out = calloc(1, 65536);
    size_t used = out ? fread(out, 1, 65535, pipe) : 0;
    if (out)
        out[used] = '\0';
    if (pclose(pipe) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

//  Archives rel and writes the archive to <tmp>/<file>; true on success.
static bool
s_tar_to(const char *rel, const char *file)
{
    uint8_t *data = NULL;
    size_t size = 0;
    bus_error_t err = {0};
    if (agent_files_tar(s_home, rel, LIMIT, &data, &size, &err) != 0) {
        fprintf(stderr, "# tar %s: %s\n", rel, err.detail);
        return false;
    }
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", s_tmp, file);
    FILE *out = fopen(path, "w");
    bool ok = out && fwrite(data, 1, size, out) == size && size % 512 == 0;
    if (out)
        ok = fclose(out) == 0 && ok;
    free(data);
    return ok;
}

static void
test_write_read(void)
{
    bus_error_t err = {0};
    T_EQ_INT(
        agent_files_write(s_home, "a/b/c.txt", "hello", 5, OWNER_UID, OWNER_GID, &err),
        0);
    T_ASSERT(s_reads("a/b/c.txt", "hello"));
    T_ASSERT(s_reads("/home/work/a/b/c.txt", "hello"));
    T_ASSERT(s_reads("./a//b/./c.txt", "hello"));
    struct stat st;
    T_EQ_INT(stat(s_path("a/b/c.txt"), &st), 0);
    T_EQ_INT(st.st_mode & 07777, 0644);
    T_ASSERT(!s_root || (st.st_uid == 1000 && st.st_gid == 1000));
    T_EQ_INT(stat(s_path("a/b"), &st), 0);
    T_ASSERT(S_ISDIR(st.st_mode));
    T_EQ_INT(st.st_mode & 07777, 0755);
    T_ASSERT(!s_root || st.st_uid == 1000);
    T_EQ_INT(stat(s_path("a"), &st), 0);
    T_ASSERT(!s_root || st.st_gid == 1000);
    //  an empty file, and an absolute path under /home/work
    T_EQ_INT(
        agent_files_write(s_home, "/home/work/empty", "", 0, OWNER_UID, OWNER_GID, &err),
        0);
    T_ASSERT(s_reads("empty", ""));
}

static void
test_overwrite(void)
{
    bus_error_t err = {0};
    T_EQ_INT(agent_files_write(s_home, "over.txt", "first version", 13, (uid_t) -1,
                               (gid_t) -1, &err),
             0);
    T_EQ_INT(
        agent_files_write(s_home, "over.txt", "second", 6, OWNER_UID, OWNER_GID, &err),
        0);
    T_ASSERT(s_reads("over.txt", "second"));
    //  no temp file left behind
    DIR *dir = opendir(s_home);
    T_ASSERT(dir);
    struct dirent *entry;
    bool leftover = false;
    while ((entry = readdir(dir)))
        if (strncmp(entry->d_name, ".bp-upload-", 11) == 0)
            leftover = true;
    closedir(dir);
    T_ASSERT(!leftover);
    //  a directory or a file in the way is refused, and changes nothing
    T_EQ_INT(agent_files_write(s_home, "a/b", "x", 1, OWNER_UID, OWNER_GID, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_EQ_INT(agent_files_write(s_home, "a/b/c.txt/d", "x", 1, OWNER_UID, OWNER_GID, &err),
             -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_ASSERT(s_reads("a/b/c.txt", "hello"));
    //  home itself is no file
    T_EQ_INT(agent_files_write(s_home, "/home/work", "x", 1, OWNER_UID, OWNER_GID, &err),
             -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
}

static void
test_traversal(void)
{
    T_ASSERT(s_all_refused("../x"));
    T_ASSERT(s_all_refused("a/../../x"));
    T_ASSERT(s_all_refused("a/.."));
    T_ASSERT(s_all_refused(".."));
    T_ASSERT(s_all_refused("/etc/passwd"));
    T_ASSERT(s_all_refused("/home/workx/a"));
    T_ASSERT(s_all_refused("/home/work/../work/a"));
    T_ASSERT(s_all_refused("/"));
    struct stat st;
    T_ASSERT(stat("/x", &st) != 0);
    char outside[PATH_MAX];
    snprintf(outside, sizeof outside, "%s/x", s_tmp);
    T_ASSERT(stat(outside, &st) != 0);
}

static void
test_symlinks(void)
{
    //  out of home: to /etc, to a file beside home, and an absolute one
    //  that names a file inside home by its host path
    T_EQ_INT(symlink("/etc", s_path("etc")), 0);
    T_EQ_INT(symlink("../secret", s_path("up")), 0);
    T_EQ_INT(symlink("..", s_path("parent")), 0);
    char target[PATH_MAX];
    snprintf(target, sizeof target, "%s/a/b/c.txt", s_home);
    T_EQ_INT(symlink(target, s_path("absolute")), 0);
    T_ASSERT(s_all_refused("etc"));
    T_ASSERT(s_all_refused("etc/passwd"));
    T_ASSERT(s_all_refused("etc/evil"));
    T_ASSERT(s_all_refused("up"));
    T_ASSERT(s_all_refused("parent/secret"));
    T_ASSERT(s_all_refused("parent/home/a/b/c.txt"));
    T_ASSERT(s_all_refused("absolute"));
    struct stat st;
    T_ASSERT(stat("/etc/evil", &st) != 0);
    char secret[PATH_MAX];
    snprintf(secret, sizeof secret, "%s/secret", s_tmp);
    T_EQ_INT(stat(secret, &st), 0);
    T_EQ_INT(st.st_size, 6); //  not overwritten
    //  inside home: followed for reading and listing
    T_EQ_INT(symlink("a/b/c.txt", s_path("link")), 0);
    T_EQ_INT(symlink("a", s_path("dirlink")), 0);
    T_ASSERT(s_reads("link", "hello"));
    T_ASSERT(s_reads("dirlink/b/c.txt", "hello"));
    char *json = NULL;
    bus_error_t err = {0};
    T_EQ_INT(agent_files_list(s_home, "dirlink/b", &json, &err), 0);
    T_CONTAINS(json, "\"c.txt\"");
    free(json);
    //  writing over a symlink is refused, through one to a dir is fine
    T_EQ_INT(agent_files_write(s_home, "link", "x", 1, OWNER_UID, OWNER_GID, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_EQ_INT(
        agent_files_write(s_home, "dirlink/new", "new", 3, OWNER_UID, OWNER_GID, &err),
        0);
    T_ASSERT(s_reads("a/new", "new"));
    //  a loop is refused, not followed forever
    T_EQ_INT(symlink("loop", s_path("loop")), 0);
    T_ASSERT(s_all_refused("loop"));
}

static void
test_bad_names(void)
{
    bus_error_t err = {0};
    T_ASSERT(s_all_refused("a\nb"));
    T_ASSERT(s_all_refused("a/\x01"));
    T_ASSERT(s_all_refused("\x7f"));
    T_ASSERT(s_all_refused("tab\there"));
    T_EQ_INT(agent_files_check_name("a\0b", 3, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "NUL");
    T_EQ_INT(agent_files_check_name("a/b c", 5, &err), 0);
    T_EQ_INT(agent_files_check_name("\xc3\xa9t\xc3\xa9", 5, &err), 0);
    //  too long
    char *longer = malloc(PATH_MAX + 10);
    T_ASSERT(longer);
    memset(longer, 'a', PATH_MAX + 9);
    longer[PATH_MAX + 9] = '\0';
    bool refused = s_all_refused(longer);
    for (int i = 1; i < PATH_MAX + 9; i += 200)
        longer[i] = '/';
    refused = refused && s_all_refused(longer);
    free(longer);
    T_ASSERT(refused);
    char name[300];
    memset(name, 'n', 299);
    name[299] = '\0';
    T_ASSERT(s_all_refused(name)); //  over NAME_MAX
}

static void
test_special_files(void)
{
    T_EQ_INT(mkfifo(s_path("fifo"), 0644), 0);
    //  none of these may block on the fifo
    int statuses[4];
    s_all("fifo", statuses);
    T_EQ_INT(statuses[0], BUS_STATUS_INVALID);
    T_EQ_INT(statuses[1], BUS_STATUS_INVALID);
    T_EQ_INT(statuses[2], BUS_STATUS_INVALID);
    T_EQ_INT(statuses[3], BUS_STATUS_INVALID);
    if (s_root) {
        T_EQ_INT(mknod(s_path("null"), S_IFCHR | 0666, makedev(1, 3)), 0);
        T_ASSERT(s_all_refused("null"));
    }
    //  reading a directory is refused
    uint8_t *data = NULL;
    size_t size;
    bus_error_t err = {0};
    T_EQ_INT(agent_files_read(s_home, "a", LIMIT, &data, &size, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_EQ_INT(agent_files_read(s_home, "", LIMIT, &data, &size, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    //  listing a file is refused
    char *json = NULL;
    T_EQ_INT(agent_files_list(s_home, "a/b/c.txt", &json, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_ASSERT(!json);
}

static void
test_not_found(void)
{
    uint8_t *data = NULL;
    size_t size;
    char *json = NULL;
    bus_error_t err = {0};
    T_EQ_INT(agent_files_read(s_home, "nope", LIMIT, &data, &size, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    T_EQ_INT(agent_files_tar(s_home, "a/nope", LIMIT, &data, &size, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    T_EQ_INT(agent_files_list(s_home, "nope/deeper", &json, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    char missing[PATH_MAX];
    snprintf(missing, sizeof missing, "%s/no-home", s_tmp);
    T_EQ_INT(agent_files_read(missing, "x", LIMIT, &data, &size, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    T_EQ_INT(agent_files_write(missing, "x", "x", 1, OWNER_UID, OWNER_GID, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    T_ASSERT(!data && !json);
}

static void
test_size_limits(void)
{
    uint8_t *data = NULL;
    size_t size = 0;
    bus_error_t err = {0};
    T_EQ_INT(agent_files_read(s_home, "a/b/c.txt", 4, &data, &size, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "too large");
    T_EQ_INT(agent_files_read(s_home, "a/b/c.txt", 5, &data, &size, &err), 0);
    T_EQ_INT(size, 5);
    free(data);
    data = NULL;
    //  a one-file archive: header 512 + data 512 + trailer 1024
    T_EQ_INT(agent_files_tar(s_home, "a/b/c.txt", 2047, &data, &size, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "too large");
    T_ASSERT(!data);
    T_EQ_INT(agent_files_tar(s_home, "a/b/c.txt", 2048, &data, &size, &err), 0);
    T_EQ_INT(size, 2048);
    free(data);
    data = NULL;
    T_EQ_INT(agent_files_tar(s_home, "a", 1000, &data, &size, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    //  a bigger file, read whole
    size_t big_size = 300000;
    char *big = malloc(big_size);
    T_ASSERT(big);
    for (size_t i = 0; i < big_size; i++)
        big[i] = (char) ('a' + i % 26);
    int rc =
        agent_files_write(s_home, "big/file", big, big_size, OWNER_UID, OWNER_GID, &err);
    rc = rc || agent_files_read(s_home, "big/file", big_size, &data, &size, &err);
    bool same = rc == 0 && size == big_size && memcmp(data, big, size) == 0;
    free(big);
    free(data);
    T_ASSERT(same);
}

static void
test_tar(void)
{
    bus_error_t err = {0};
    //  a 120-byte directory name and a 200-byte file name: the file's path
    //  needs the 'L' record, the directory's the ustar prefix or 'L'
    char dir_name[121], file_name[201], rel[PATH_MAX];
    memset(dir_name, 'd', 120);
    dir_name[120] = '\0';
    memset(file_name, 'f', 200);
    file_name[200] = '\0';
    snprintf(rel, sizeof rel, "t/sub/%s/%s", dir_name, file_name);
    T_EQ_INT(agent_files_write(s_home, rel, "long", 4, OWNER_UID, OWNER_GID, &err), 0);
    snprintf(rel, sizeof rel, "t/sub/%s/short", dir_name);
    T_EQ_INT(agent_files_write(s_home, rel, "short", 5, OWNER_UID, OWNER_GID, &err), 0);
    T_EQ_INT(agent_files_write(s_home, "t/top.txt", "top", 3, OWNER_UID, OWNER_GID, &err),
             0);
    T_EQ_INT(symlink("top.txt", s_path("t/rel-link")), 0);
    char long_target[160];
    memset(long_target, 'k', 150);
    long_target[150] = '\0';
    T_EQ_INT(symlink(long_target, s_path("t/long-link")), 0);
    T_EQ_INT(mkfifo(s_path("t/fifo"), 0644), 0); //  left out
    T_ASSERT(s_tar_to("t", "t.tar"));
    char cmd[PATH_MAX * 2];
    snprintf(cmd, sizeof cmd, "tar -tf %s/t.tar", s_tmp);
    char *listing = s_run(cmd);
    T_ASSERT(listing);
    char expected[PATH_MAX * 2];
    snprintf(
        expected, sizeof expected,
        "t/\nt/long-link\nt/rel-link\nt/sub/\nt/sub/%s/\nt/sub/%s/%s\nt/sub/%s/short\n"
        "t/top.txt\n",
        dir_name, dir_name, file_name, dir_name);
    bool same = strcmp(listing, expected) == 0;
    if (!same)
        fprintf(stderr, "# got:\n%s# expected:\n%s", listing, expected);
    free(listing);
    T_ASSERT(same);
    //  extracted, the bytes, the symlinks and the modes come back
    snprintf(
        cmd, sizeof cmd,
        "mkdir %s/x && tar -C %s/x -xf %s/t.tar && cat %s/x/t/sub/%s/%s %s/x/t/rel-link"
        " && readlink %s/x/t/long-link && stat -c %%a %s/x/t/sub",
        s_tmp, s_tmp, s_tmp, s_tmp, dir_name, file_name, s_tmp, s_tmp, s_tmp);
    char *out = s_run(cmd);
    snprintf(expected, sizeof expected, "longtop%s\n755\n", long_target);
    T_EQ_STR(out, expected);
    free(out);
    //  the verbose listing shows owners and the symlink
    snprintf(cmd, sizeof cmd, "tar -tvf %s/t.tar --numeric-owner", s_tmp);
    out = s_run(cmd);
    if (s_root)
        T_CONTAINS(out, "1000/1000");
    T_CONTAINS(out, "t/rel-link -> top.txt");
    free(out);
    //  one file is named by its base name; home itself is "work"
    T_ASSERT(s_tar_to("a/b/c.txt", "c.tar"));
    snprintf(cmd, sizeof cmd, "tar -tf %s/c.tar && tar -xOf %s/c.tar", s_tmp, s_tmp);
    out = s_run(cmd);
    T_EQ_STR(out, "c.txt\nhello");
    free(out);
    T_ASSERT(s_tar_to("link", "link.tar")); //  a top symlink is followed
    snprintf(cmd, sizeof cmd, "tar -tvf %s/link.tar", s_tmp);
    out = s_run(cmd);
    T_CONTAINS(out, "-rw-r--r--");
    T_CONTAINS(out, " link\n");
    free(out);
    T_ASSERT(s_tar_to("/home/work/a", "a.tar"));
    T_ASSERT(s_tar_to("", "home.tar"));
    snprintf(cmd, sizeof cmd, "tar -tf %s/home.tar", s_tmp);
    out = s_run(cmd);
    T_ASSERT(out && strncmp(out, "work/\n", 6) == 0);
    T_CONTAINS(out, "\nwork/a/b/c.txt\n");
    T_CONTAINS(out, "\nwork/etc\n"); //  the escaping symlink, stored, not followed
    free(out);
}

static void
test_list(void)
{
    char *json = NULL;
    bus_error_t err = {0};
    T_EQ_INT(agent_files_list(s_home, "a", &json, &err), 0);
    json_error_t parse_error;
    json_t *array = json_loads(json, 0, &parse_error);
    free(json);
    T_ASSERT(json_is_array(array));
    T_EQ_INT(json_array_size(array), 2);
    json_t *first = json_array_get(array, 0);
    T_EQ_STR(json_string_value(json_object_get(first, "filename")), "b");
    T_EQ_STR(json_string_value(json_object_get(first, "mode")), "drwxr-xr-x");
    T_ASSERT(json_is_integer(json_object_get(first, "size")));
    json_t *second = json_array_get(array, 1);
    T_EQ_STR(json_string_value(json_object_get(second, "filename")), "new");
    T_EQ_STR(json_string_value(json_object_get(second, "mode")), "-rw-r--r--");
    T_EQ_INT(json_integer_value(json_object_get(second, "size")), 3);
    double mtime = json_real_value(json_object_get(second, "mtime"));
    T_ASSERT(json_is_real(json_object_get(second, "ctime")));
    T_ASSERT(json_is_real(json_object_get(second, "atime")));
    T_ASSERT(mtime > time(NULL) - 3600 && mtime < time(NULL) + 60);
    json_decref(array);
    //  home, by every spelling; symlinks and fifos shown as themselves
    T_EQ_INT(agent_files_list(s_home, "/home/work", &json, &err), 0);
    T_CONTAINS(json, "\"filename\": \"etc\"");
    T_CONTAINS(json, "\"mode\": \"lrwxrwxrwx\"");
    T_CONTAINS(json, "\"mode\": \"prw-r--r--\"");
    free(json);
    T_EQ_INT(agent_files_list(s_home, "/home/work/", &json, &err), 0);
    free(json);
    T_EQ_INT(agent_files_list(s_home, ".", &json, &err), 0);
    free(json);
    //  special modes and a name that is not UTF-8
    T_EQ_INT(mkdir(s_path("modes"), 0755), 0);
    T_EQ_INT(mkdir(s_path("modes/sticky"), 01777), 0);
    T_EQ_INT(chmod(s_path("modes/sticky"), 01777), 0);
    FILE *file = fopen(s_path("modes/suid"), "w");
    T_ASSERT(file);
    fclose(file);
    T_EQ_INT(chmod(s_path("modes/suid"), 04644), 0);
    file = fopen(s_path("modes/bad\xff"), "w");
    T_ASSERT(file);
    fclose(file);
    T_EQ_INT(agent_files_list(s_home, "modes", &json, &err), 0);
    T_CONTAINS(json, "\"drwxrwxrwt\"");
    T_CONTAINS(json, "\"-rwSr--r--\"");
    T_CONTAINS(json, "\"bad\xef\xbf\xbd\"");
    free(json);
    T_EQ_INT(agent_files_list(s_home, "modes/sticky", &json, &err), 0);
    T_EQ_STR(json, "[]");
    free(json);
}

//  The same confinement through the fallback lookup, which refuses every
//  symlink, even those that stay inside.
static void
test_walk_fallback(void)
{
    bus_beneath_force_walk(true);
    bus_error_t err = {0};
    bool ok = agent_files_write(s_home, "w/x/y.txt", "walk", 4, OWNER_UID, OWNER_GID,
                                &err) == 0;
    ok = ok && s_reads("w/x/y.txt", "walk") && s_reads("/home/work/a/b/c.txt", "hello");
    ok = ok && s_all_refused("../x") && s_all_refused("etc/passwd") &&
         s_all_refused("up") && s_all_refused("link") &&
         s_all_refused("dirlink/b/c.txt") && s_all_refused("fifo");
    char *json = NULL;
    ok = ok && agent_files_list(s_home, "w", &json, &err) == 0;
    bool listed = json && strstr(json, "\"x\"");
    free(json);
    uint8_t *data = NULL;
    size_t size;
    ok = ok && agent_files_tar(s_home, "w", LIMIT, &data, &size, &err) == 0;
    free(data);
    bus_beneath_force_walk(false);
    if (!ok)
        fprintf(stderr, "# last error: %s\n", err.detail);
    T_ASSERT(ok);
    T_ASSERT(listed);
}

int
main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    s_root = geteuid() == 0;
    if (s_root) {
        s_uid = 1000;
        s_gid = 1000;
    }
    if (!mkdtemp(s_tmp)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(s_home, sizeof s_home, "%s/home", s_tmp);
    char secret[PATH_MAX];
    snprintf(secret, sizeof secret, "%s/secret", s_tmp);
    FILE *file = fopen(secret, "w");
    if (mkdir(s_home, 0755) != 0 || !file || fputs("secret", file) < 0 ||
        fclose(file) != 0) {
        perror("setup");
        return 1;
    }
    T_RUN(test_write_read);
    T_RUN(test_overwrite);
    T_RUN(test_traversal);
    T_RUN(test_symlinks);
    T_RUN(test_bad_names);
    T_RUN(test_special_files);
    T_RUN(test_not_found);
    T_RUN(test_size_limits);
    T_RUN(test_tar);
    T_RUN(test_list);
    T_RUN(test_walk_fallback);
    nftw(s_tmp, s_remove, 16, FTW_DEPTH | FTW_PHYS);
    return T_DONE();
}
