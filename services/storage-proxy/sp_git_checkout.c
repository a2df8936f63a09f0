/*  =========================================================================
    sp_git_checkout - a commit's tree, out of a pack, into a folder

    One recursive walk (s_walk) serves the plan and the run: a tree's
    entries are "<octal mode> <name>\0<20-byte SHA-1>", read in order. The
    walk holds one tree object per level (each at most SP_GIT_OBJECT_MAX),
    and its depth is capped, so a hostile tree costs bounded memory; a
    subtree named many times counts each time against the entry and byte
    caps. Each tree read is kept by its name (up to SP_GIT_TREES_KEPT
    bytes), so a subtree named many times is resolved out of the pack once
    (it may be a delta on a large base), and the walk asks stop before
    each entry, the plan's as well as the run's.

    A symbolic link's target is checked lexically: ".." only as its first
    components, and never more of them than the link's depth in the folder.
    A ".." after a name could follow another link and climb further than
    its text says; at the start it climbs real directories only, and each
    link a name then leads to was itself checked from where it lies.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <sys/stat.h> //  fchmod

typedef struct {
    uint8_t sha[SP_GIT_SHA_LEN];
    uint8_t *data; //  NULL: an empty slot
    size_t len;
} tree_t;

typedef struct {
    sp_git_pack_t *pack;
    const sp_git_checkout_limits_t *limits;
    sp_git_checkout_counts_t *counts;
    sp_fs_t *fs; //  NULL: plan only
    const char *path;
    const char *stage;
    sp_git_stop_fn *stop;
    sp_git_progress_fn *progress;
    void *arg;
    size_t held;   //  bytes of the trees the walk holds, one per level
    tree_t *trees; //  kept by name: an open addressing table
    size_t trees_size, trees_count, trees_bytes;
} walk_t;

enum { S_TREE, S_FILE, S_EXEC, S_LINK, S_SUBMODULE };

//  The kind of a tree entry's mode (len bytes), or -1.
static int
s_mode(const uint8_t *mode, size_t len)
{
    static const struct {
        const char *text;
        int kind;
    } modes[] = {{"40000", S_TREE},  {"100644", S_FILE}, {"100664", S_FILE},
                 {"100755", S_EXEC}, {"120000", S_LINK}, {"160000", S_SUBMODULE}};
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
        if (strlen(modes[i].text) == len && memcmp(modes[i].text, mode, len) == 0)
            return modes[i].kind;
    return -1;
}

//  Whether a tree entry's name (len bytes) may be made.
static const char *
s_name_refused(const uint8_t *name, size_t len)
{
    if (len == 0)
        return "an empty name";
    if (len > SP_FS_NAME_MAX)
        return "a name over 255 bytes";
    if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
        return "a name that is . or ..";
    if (len == 4 && name[0] == '.' && strncasecmp((const char *) name + 1, "git", 3) == 0)
        return "a .git entry";
    for (size_t i = 0; i < len; i++) {
        if (name[i] == '/')
            return "a name with a '/'";
        if (name[i] < 0x20 || name[i] == 0x7f)
            return "a name with a control character";
    }
    return NULL;
}

//  The path shown in details: printable, cut.
static void
s_shown(const char *rel, const uint8_t *name, size_t len, char *out, size_t size)
{
    int n = snprintf(out, size, "%s%s", rel, *rel ? "/" : "");
    size_t at = n < 0 ? 0 : (size_t) n >= size ? size - 1 : (size_t) n;
    for (size_t i = 0; i < len && at + 1 < size; i++)
        out[at++] = name[i] >= 0x20 && name[i] < 0x7f ? (char) name[i] : '?';
    out[at] = 0;
}

//  Checks a link's target (len bytes) made at depth (its directory's
//  components in the folder). NULL, or why it is refused.
static const char *
s_target_refused(const uint8_t *target, size_t len, size_t depth)
{
    if (len == 0)
        return "an empty link target";
    if (memchr(target, 0, len))
        return "a link target with a NUL";
    if (target[0] == '/')
        return "a link to an absolute path";
    bool named = false;
    size_t up = 0;
    for (size_t at = 0; at < len;) {
        size_t end = at;
        while (end < len && target[end] != '/')
            end++;
        size_t n = end - at;
        if (n == 2 && target[at] == '.' && target[at + 1] == '.') {
            if (named)
                return "a link target with .. after a name";
            if (++up > depth)
                return "a link out of the folder";
        } else if (n > 1 || (n == 1 && target[at] != '.'))
            named = true;
        at = end + 1;
    }
    return NULL;
}

//  Writes blob sha as file rel (mode 0755 or 0644) through the staging file.
static int
s_write_file(walk_t *w, const char *full, const uint8_t *sha, bool exec, bus_error_t *err)
{
    sp_fs_info_t info;
    if (sp_fs_stat(w->fs, full, strlen(full), &info, NULL) == 0)
        return bus_error_fail(err, BUS_STATUS_CONFLICT, "entry %.300s appears twice",
                              full);
    int out = sp_fs_stage_open(w->fs, w->stage, err);
    if (out < 0)
        return -1;
    int rc = 0;
    if (ftruncate(out, 0) != 0)
        rc = bus_error_fail(err, BUS_STATUS_INTERNAL, "ftruncate: %s", strerror(errno));
    if (rc == 0)
        rc = sp_git_pack_write(w->pack, sha, out, err);
    if (rc == 0 && fchmod(out, exec ? 0755 : 0644) != 0)
        rc = bus_error_fail(err, BUS_STATUS_INTERNAL, "fchmod: %s", strerror(errno));
    close(out);
    if (rc == 0)
        rc = sp_fs_stage_commit(w->fs, w->stage, full, strlen(full), err);
    return rc;
}

//  The tree kept as sha, or NULL.
static tree_t *
s_tree_find(walk_t *w, const uint8_t *sha)
{
    if (!w->trees_size)
        return NULL;
    uint64_t h;
    memcpy(&h, sha, sizeof h);
    for (size_t i = h & (w->trees_size - 1);; i = (i + 1) & (w->trees_size - 1)) {
        tree_t *t = &w->trees[i];
        if (!t->data || memcmp(t->sha, sha, SP_GIT_SHA_LEN) == 0)
            return t->data ? t : NULL;
    }
}

//  Keeps tree data (len bytes) as sha; true when taken (the walk owns it).
static bool
s_tree_keep(walk_t *w, const uint8_t *sha, uint8_t *data, size_t len)
{
    if (len > SP_GIT_TREES_KEPT - w->trees_bytes)
        return false;
    if (2 * (w->trees_count + 1) > w->trees_size) {
        size_t size = w->trees_size ? 2 * w->trees_size : 64;
        tree_t *grown = calloc(size, sizeof *grown);
        if (!grown)
            return false;
        for (size_t i = 0; i < w->trees_size; i++) {
            if (!w->trees[i].data)
                continue;
            uint64_t h;
            memcpy(&h, w->trees[i].sha, sizeof h);
            size_t at = h & (size - 1);
            while (grown[at].data)
                at = (at + 1) & (size - 1);
            grown[at] = w->trees[i];
        }
        free(w->trees);
        w->trees = grown;
        w->trees_size = size;
    }
    uint64_t h;
    memcpy(&h, sha, sizeof h);
    size_t at = h & (w->trees_size - 1);
    while (w->trees[at].data)
        at = (at + 1) & (w->trees_size - 1);
    memcpy(w->trees[at].sha, sha, SP_GIT_SHA_LEN);
    w->trees[at].data = data;
    w->trees[at].len = len;
    w->trees_count++;
    w->trees_bytes += len;
    return true;
}

static void
s_trees_free(walk_t *w)
{
    for (size_t i = 0; i < w->trees_size; i++)
        free(w->trees[i].data);
    free(w->trees);
    w->trees = NULL;
    w->trees_size = w->trees_count = w->trees_bytes = 0;
}

//  One entry: checked, counted, and made when running.
static int s_entry(walk_t *w,
                   const char *rel,
                   size_t depth,
                   int kind,
                   const uint8_t *name,
                   size_t name_len,
                   const uint8_t *sha,
                   bus_error_t *err);

//  Walks tree sha, the directory rel (relative to the checkout) at depth.
static int
s_walk(walk_t *w, const uint8_t *sha, const char *rel, size_t depth, bus_error_t *err)
{
    if (depth > SP_GIT_TREE_DEPTH)
        return bus_error_fail(err, BUS_STATUS_INVALID, "%.300s: trees deeper than %d",
                              rel, SP_GIT_TREE_DEPTH);
    sp_git_type_t type = SP_GIT_TREE;
    uint8_t *data = NULL;
    size_t len = 0;
    const tree_t *kept = s_tree_find(w, sha);
    if (kept) {
        data = kept->data;
        len = kept->len;
    } else {
        if (sp_git_pack_read(w->pack, sha, SP_GIT_WALK_MAX - w->held, &type, &data, &len,
                             err) != 0)
            return -1;
        if (type == SP_GIT_TREE && s_tree_keep(w, sha, data, len))
            kept = s_tree_find(w, sha);
        else
            w->held += len;
    }
    int rc = 0;
    if (type != SP_GIT_TREE)
        rc = bus_error_fail(err, BUS_STATUS_INVALID, "%.300s: not a tree",
                            *rel ? rel : ".");
    //  The names of this tree so far: one named twice (a tree git's own
    //  checks would refuse) is refused by the plan, before anything is made.
    zhashx_t *names = rc == 0 ? zhashx_new() : NULL;
    if (rc == 0 && !names)
        rc = bus_error_fail(err, BUS_STATUS_INTERNAL, "out of memory");
    for (size_t at = 0; rc == 0 && at < len;) {
        const uint8_t *p = data + at, *end = data + len;
        const uint8_t *space = memchr(p, ' ', (size_t) (end - p));
        const uint8_t *nul = space ? memchr(space, 0, (size_t) (end - space)) : NULL;
        if (!space || !nul || (size_t) (end - nul) < 1 + SP_GIT_SHA_LEN) {
            rc = bus_error_fail(err, BUS_STATUS_INVALID, "%.300s: a malformed tree",
                                *rel ? rel : ".");
            break;
        }
        const uint8_t *name = space + 1;
        size_t name_len = (size_t) (nul - name);
        char shown[SP_FS_PATH_MAX + 1];
        int kind = s_mode(p, (size_t) (space - p));
        const char *why = s_name_refused(name, name_len);
        if (why || kind < 0) {
            s_shown(rel, name, name_len, shown, sizeof shown);
            rc = bus_error_fail(err, BUS_STATUS_INVALID, "entry %.300s: %s", shown,
                                why ? why : "an unknown mode");
            break;
        }
        char key[SP_FS_NAME_MAX + 1];
        snprintf(key, sizeof key, "%.*s", (int) name_len, (const char *) name);
        if (zhashx_insert(names, key, (void *) 1) != 0) {
            s_shown(rel, name, name_len, shown, sizeof shown);
            rc = bus_error_fail(err, BUS_STATUS_INVALID, "entry %.300s: named twice",
                                shown);
            break;
        }
        rc = s_entry(w, rel, depth, kind, name, name_len, nul + 1, err);
        at = (size_t) (nul + 1 + SP_GIT_SHA_LEN - data);
    }
    zhashx_destroy(&names);
    if (!kept) {
        w->held -= len;
        free(data);
    }
    return rc;
}

static int
s_entry(walk_t *w,
        const char *rel,
        size_t depth,
        int kind,
        const uint8_t *name,
        size_t name_len,
        const uint8_t *sha,
        bus_error_t *err)
{
    sp_git_checkout_counts_t *c = w->counts;
    const sp_git_checkout_limits_t *limits = w->limits;
    char child[SP_FS_PATH_MAX + 1];
    int n = snprintf(child, sizeof child, "%s%s%.*s", rel, *rel ? "/" : "",
                     (int) name_len, (const char *) name);
    size_t prefix = w->path ? strlen(w->path) + 1 : 0;
    if (n < 0 || (size_t) n + prefix > SP_FS_PATH_MAX)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "entry %.300s: the path is too long", child);
    if (kind == S_SUBMODULE) {
        c->submodules++;
        return 0;
    }
    if (++c->entries > limits->max_entries)
        return bus_error_fail(err, BUS_STATUS_INVALID, "more than %llu entries",
                              (unsigned long long) limits->max_entries);
    if (w->stop && w->stop(w->arg, err))
        return -1;
    char full[SP_FS_PATH_MAX + 2];
    snprintf(full, sizeof full, "%s/%s", w->path ? w->path : "", child);
    int rc = 0;
    if (kind == S_TREE) {
        c->dirs++;
        if (w->fs && sp_fs_mkdir(w->fs, full, strlen(full), 0, err) != 0)
            return -1;
        if (w->progress)
            w->progress(w->arg, c->entries);
        return s_walk(w, sha, child, depth + 1, err);
    }
    sp_git_type_t type;
    uint64_t size = 0;
    if (sp_git_pack_stat(w->pack, sha, &type, &size, err) != 0)
        return bus_error_fail(err, BUS_STATUS_INVALID,
                              "entry %.300s: its blob is not in the pack", child);
    if (type != SP_GIT_BLOB)
        return bus_error_fail(err, BUS_STATUS_INVALID, "entry %.300s: not a blob", child);
    if (kind == S_LINK) {
        c->links++;
        uint8_t *target = NULL;
        size_t len = 0;
        if (sp_git_pack_read(w->pack, sha, SP_FS_PATH_MAX, NULL, &target, &len, err) != 0)
            return -1;
        const char *why = s_target_refused(target, len, limits->base_depth + depth);
        if (why)
            rc = bus_error_fail(err, BUS_STATUS_INVALID, "entry %.300s: %s", child, why);
        else if (w->fs)
            rc = sp_fs_symlink(w->fs, (const char *) target, full, strlen(full), err);
        free(target);
    } else {
        c->files++;
        if (size > limits->max_bytes - c->bytes)
            return bus_error_fail(err, BUS_STATUS_INVALID,
                                  "the files hold more than %llu bytes",
                                  (unsigned long long) limits->max_bytes);
        c->bytes += size;
        if (w->fs)
            rc = s_write_file(w, full, sha, kind == S_EXEC, err);
    }
    if (rc == 0 && w->progress)
        w->progress(w->arg, c->entries);
    return rc;
}

//  ---------------------------------------------------------------------------

int
sp_git_checkout_plan(sp_git_pack_t *pack,
                     const uint8_t tree[SP_GIT_SHA_LEN],
                     const sp_git_checkout_limits_t *limits,
                     const char *path,
                     sp_git_stop_fn *stop,
                     void *arg,
                     sp_git_checkout_counts_t *counts,
                     bus_error_t *err)
{
    assert(pack && tree && limits && counts);
    memset(counts, 0, sizeof *counts);
    walk_t w = {.pack = pack,
                .limits = limits,
                .counts = counts,
                .path = path,
                .stop = stop,
                .arg = arg};
    int rc = s_walk(&w, tree, "", 0, err);
    s_trees_free(&w);
    return rc;
}

int
sp_git_checkout_run(sp_git_pack_t *pack,
                    const uint8_t tree[SP_GIT_SHA_LEN],
                    const sp_git_checkout_limits_t *limits,
                    sp_fs_t *fs,
                    const char *path,
                    const char *stage,
                    sp_git_stop_fn *stop,
                    sp_git_progress_fn *progress,
                    void *arg,
                    sp_git_checkout_counts_t *counts,
                    bus_error_t *err)
{
    assert(pack && tree && limits && fs && path && *path && stage && counts);
    memset(counts, 0, sizeof *counts);
    walk_t w = {.pack = pack,
                .limits = limits,
                .counts = counts,
                .fs = fs,
                .path = path,
                .stage = stage,
                .stop = stop,
                .progress = progress,
                .arg = arg};
    int rc = s_walk(&w, tree, "", 0, err);
    s_trees_free(&w);
    return rc;
}
