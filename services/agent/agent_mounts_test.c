/*  =========================================================================
    agent_mounts_test - the virtual folders of kernel.create: decode, refuse,
    look at the host, and the bind mounts config.json gets

    The lists are written as JSON for reading, and sent the way the agent
    gets them: as kernel.create's msgpack, decoded by the generated
    decoder, then given to agent_mounts_from_list. Every rule of
    agent_mounts is broken once and must be refused with
    BUS_STATUS_INVALID and a detail naming the entry (a value of the wrong
    type is the decoder's to refuse); the happy path keeps
    names, paths and permissions; host directories are checked against a
    real temp dir (a file and a symlink in place of a directory are not
    found); agent_bundle_config binds each folder rbind, nosuid, nodev and
    ro or rw, after the agent's own mounts.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <sys/stat.h> //  mkdir for the temp host dirs
#include "t.h"

static char s_tmp[] = "/tmp/agent_mounts_test.XXXXXX";

//  One entry as the gateway writes it, with kernel_path and permission.
#define ENTRY(name, host, kernel, perm)                                                  \
    "{\"name\": \"" name "\", \"id\": \"0123456789abcdef0123456789abcdef\", \"host\": "  \
    "\"proxy:volume1\", \"host_path\": \"" host "\", \"kernel_path\": \"" kernel         \
    "\", \"permission\": \"" perm "\"}"

//  Writes value as msgpack.
static void
s_write_json(bus_writer_t *writer, json_t *value)
{
    const char *key;
    json_t *member;
    size_t i;
    switch (json_typeof(value)) {
        case JSON_OBJECT:
            bus_writer_map(writer, (uint32_t) json_object_size(value));
            json_object_foreach(value, key, member)
            {
                bus_writer_str(writer, key);
                s_write_json(writer, member);
            }
            break;
        case JSON_ARRAY:
            bus_writer_array(writer, (uint32_t) json_array_size(value));
            json_array_foreach(value, i, member) s_write_json(writer, member);
            break;
        case JSON_STRING:
            bus_writer_strn(writer, json_string_value(value), json_string_length(value));
            break;
        case JSON_INTEGER:
            bus_writer_int(writer, json_integer_value(value));
            break;
        case JSON_REAL:
            bus_writer_double(writer, json_real_value(value));
            break;
        case JSON_TRUE:
        case JSON_FALSE:
            bus_writer_bool(writer, json_is_true(value));
            break;
        case JSON_NULL:
            bus_writer_nil(writer);
            break;
    }
}

//  The mounts of a kernel.create whose mounts field is text (JSON; NULL or
//  "": no field), through the decoder and agent_mounts_from_list.
static int
s_parse(const char *text, agent_mounts_t **mounts_p, bus_error_t *err)
{
    *mounts_p = NULL;
    json_error_t jerr;
    json_t *mounts =
        text && *text ? json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr) : NULL;
    if (text && *text && !mounts) {
        fprintf(stderr, "# test text is no JSON: %s\n", jerr.text);
        abort();
    }
    bus_writer_t *writer = bus_writer_new();
    bus_writer_map(writer, mounts ? 4 : 3);
    bus_writer_str(writer, "kernel_id");
    bus_writer_str(writer, "k1");
    bus_writer_str(writer, "session_id");
    bus_writer_str(writer, "s1");
    bus_writer_str(writer, "image");
    bus_writer_str(writer, "busybox");
    if (mounts) {
        bus_writer_str(writer, "mounts");
        s_write_json(writer, mounts);
    }
    json_decref(mounts);
    proto_kernel_create_req_t in;
    int rc = proto_kernel_create_req_decode(&in, bus_writer_data(writer),
                                            bus_writer_size(writer), err);
    bus_writer_destroy(&writer);
    if (rc == BUS_OK) {
        rc = agent_mounts_from_list(in.mounts, in.mounts_count, mounts_p, err);
        proto_kernel_create_req_clear(&in);
    }
    return rc;
}

//  True when text is refused by the decoder (a value of the wrong type:
//  PROTOCOL) with a detail holding needle.
static bool
s_wire_refused(const char *text, const char *needle)
{
    agent_mounts_t *mounts = NULL;
    bus_error_t err = {0};
    int rc = s_parse(text, &mounts, &err);
    bool refused = (rc == BUS_STATUS_PROTOCOL || rc == BUS_STATUS_INVALID) &&
                   mounts == NULL && strstr(err.detail, needle) != NULL;
    if (!refused)
        fprintf(stderr, "# %s: rc %d detail \"%s\", wanted \"%s\"\n", text, rc,
                err.detail, needle);
    agent_mounts_destroy(&mounts);
    return refused;
}

//  True when text is refused with INVALID and a detail holding needle.
static bool
s_refused(const char *text, const char *needle)
{
    agent_mounts_t *mounts = (agent_mounts_t *) 1;
    bus_error_t err = {0};
    int rc = s_parse(text, &mounts, &err);
    bool refused = rc == BUS_STATUS_INVALID && err.status == BUS_STATUS_INVALID &&
                   mounts == NULL && strstr(err.detail, needle) != NULL;
    if (!refused)
        fprintf(stderr, "# %s: rc %d detail \"%s\", wanted \"%s\"\n", text, rc,
                err.detail, needle);
    if (rc == BUS_OK)
        agent_mounts_destroy(&mounts);
    return refused;
}

//  True when one entry with kernel_path kernel is refused naming the entry.
static bool
s_kernel_refused(const char *kernel)
{
    char text[PATH_MAX + 512];
    snprintf(
        text, sizeof text,
        "[{\"name\": \"data\", \"host_path\": \"/srv/f/1\", \"kernel_path\": \"%s\", "
        "\"permission\": \"rw\"}]",
        kernel);
    return s_refused(text, "mount 0 (data)");
}

static bool
s_host_refused(const char *host)
{
    char text[PATH_MAX + 512];
    snprintf(text, sizeof text,
             "[{\"name\": \"data\", \"host_path\": \"%s\", \"kernel_path\": "
             "\"/home/work/data\", \"permission\": \"rw\"}]",
             host);
    return s_refused(text, "mount 0 (data): host_path");
}

static void
test_none(void)
{
    const char *texts[] = {NULL, "", "[]", " [ ] "};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        agent_mounts_t *mounts = NULL;
        bus_error_t err = {0};
        T_EQ_INT(s_parse(texts[i], &mounts, &err), BUS_OK);
        T_ASSERT(mounts);
        T_EQ_INT(mounts->count, 0);
        T_EQ_INT(agent_mounts_check_hosts(mounts, &err), BUS_OK);
        agent_mounts_destroy(&mounts);
        T_ASSERT(!mounts);
        agent_mounts_destroy(&mounts);
    }
}

static void
test_parse(void)
{
    const char *text =
        "[" ENTRY("data", "/srv/vf/ab/abcd", "/home/work/data",
                  "rw") ", " ENTRY("models", "/srv/vf/cd/cdef", "/data/models",
                                   "ro") ", " ENTRY("w d", "/srv/vf/ef/ef01",
                                                    "/home/work/sub/"
                                                    "wd",
                                                    "wd") "]";
    agent_mounts_t *mounts = NULL;
    bus_error_t err = {0};
    T_EQ_INT(s_parse(text, &mounts, &err), BUS_OK);
    T_ASSERT(mounts);
    T_EQ_INT(mounts->count, 3);
    T_EQ_STR(mounts->items[0].name, "data");
    T_EQ_STR(mounts->items[0].host_path, "/srv/vf/ab/abcd");
    T_EQ_STR(mounts->items[0].kernel_path, "/home/work/data");
    T_ASSERT(!mounts->items[0].readonly);
    T_EQ_STR(mounts->items[1].name, "models");
    T_EQ_STR(mounts->items[1].kernel_path, "/data/models");
    T_ASSERT(mounts->items[1].readonly);
    T_EQ_STR(mounts->items[2].name, "w d");
    T_EQ_STR(mounts->items[2].kernel_path, "/home/work/sub/wd");
    T_ASSERT(!mounts->items[2].readonly);
    //  id and host are optional; unknown members are ignored.
    agent_mounts_destroy(&mounts);
    T_EQ_INT(s_parse("[{\"name\": \"x\", \"host_path\": \"/a\", \"kernel_path\": "
                     "\"/home/work/x\", \"permission\": \"ro\", \"extra\": 1}]",
                     &mounts, &err),
             BUS_OK);
    T_EQ_INT(mounts->count, 1);
    agent_mounts_destroy(&mounts);
}

static void
test_refuse_shape(void)
{
    T_ASSERT(s_wire_refused("{}", "field 'mounts'"));
    T_ASSERT(s_wire_refused("\"x\"", "field 'mounts'"));
    T_ASSERT(s_wire_refused("[1]", "field 'mounts[0]': expected map"));
    T_ASSERT(s_wire_refused("[" ENTRY("a", "/a", "/home/work/a", "rw") ", null]",
                            "field 'mounts[1]': expected map"));
    //  65 entries
    size_t size = 128 * (AGENT_MOUNTS_MAX + 1) + 8;
    char *text = malloc(size);
    T_ASSERT(text);
    size_t at = (size_t) snprintf(text, size, "[");
    for (int i = 0; i <= AGENT_MOUNTS_MAX; i++)
        at += (size_t) snprintf(text + at, size - at,
                                "%s{\"name\": \"f%d\", \"host_path\": \"/a/%d\", "
                                "\"kernel_path\": \"/home/work/f%d\", \"permission\": "
                                "\"ro\"}",
                                i ? "," : "", i, i, i);
    snprintf(text + at, size - at, "]");
    bool refused = s_wire_refused(text, "field 'mounts'");
    //  and 64 are fine
    char *last = strrchr(text, '{');
    last[-1] = ']';
    last[0] = '\0';
    agent_mounts_t *mounts = NULL;
    bus_error_t err = {0};
    int rc = s_parse(text, &mounts, &err);
    free(text);
    T_ASSERT(refused);
    T_EQ_INT(rc, BUS_OK);
    T_EQ_INT(mounts->count, AGENT_MOUNTS_MAX);
    agent_mounts_destroy(&mounts);
}

static void
test_refuse_fields(void)
{
    //  What the schema requires or types, the decoder refuses.
    T_ASSERT(s_wire_refused("[{\"host_path\": \"/a\", \"kernel_path\": \"/home/work/a\", "
                            "\"permission\": \"rw\"}]",
                            "mounts[0].name"));
    T_ASSERT(s_wire_refused("[{\"name\": \"a\", \"kernel_path\": \"/home/work/a\", "
                            "\"permission\": \"rw\"}]",
                            "mounts[0].host_path"));
    T_ASSERT(s_wire_refused("[{\"name\": \"a\", \"host_path\": \"/a\", \"permission\": "
                            "\"rw\"}]",
                            "mounts[0].kernel_path"));
    T_ASSERT(s_wire_refused("[{\"name\": \"a\", \"host_path\": \"/a\", \"kernel_path\": "
                            "\"/home/work/a\"}]",
                            "mounts[0].permission"));
    T_ASSERT(s_wire_refused("[{\"name\": 7, \"host_path\": \"/a\", \"kernel_path\": "
                            "\"/home/work/a\", \"permission\": \"rw\"}]",
                            "mounts[0].name': expected string"));
    T_ASSERT(
        s_wire_refused("[{\"name\": \"a\", \"host_path\": [\"/a\"], \"kernel_path\": "
                       "\"/home/work/a\", \"permission\": \"rw\"}]",
                       "mounts[0].host_path': expected string"));
    T_ASSERT(s_wire_refused("[{\"name\": \"a\", \"id\": 5, \"host_path\": \"/a\", "
                            "\"kernel_path\": \"/home/work/a\", \"permission\": \"rw\"}]",
                            "mounts[0].id': expected string"));
    //  A list filled by hand (no decoder): a missing field is still refused.
    proto_kernel_mount_t items[2];
    proto_kernel_mount_init(&items[0]);
    proto_kernel_mount_init(&items[1]);
    items[0] = (proto_kernel_mount_t){.name = "a",
                                      .host_path = "/a",
                                      .kernel_path = "/home/work/a",
                                      .permission = "ro"};
    items[1] = (proto_kernel_mount_t){
        .name = "b", .kernel_path = "/home/work/b", .permission = "ro"};
    agent_mounts_t *mounts = (agent_mounts_t *) 1;
    bus_error_t err = {0};
    T_EQ_INT(agent_mounts_from_list(items, 2, &mounts, &err), BUS_STATUS_INVALID);
    T_ASSERT(!mounts);
    T_ASSERT(strstr(err.detail, "mount 1 (b): no host_path"));
    items[1].host_path = "/b";
    items[1].permission = NULL;
    T_EQ_INT(agent_mounts_from_list(items, 2, &mounts, &err), BUS_STATUS_INVALID);
    T_ASSERT(strstr(err.detail, "mount 1 (b): no permission"));
    items[1].name = NULL;
    T_EQ_INT(agent_mounts_from_list(items, 2, &mounts, &err), BUS_STATUS_INVALID);
    T_ASSERT(strstr(err.detail, "mount 1 (?): no name"));
    T_ASSERT(s_refused("[" ENTRY("a", "/a", "/home/work/a", "rwx") "]",
                       "mount 0 (a): unknown permission \"rwx\""));
    T_ASSERT(
        s_refused("[" ENTRY("a", "/a", "/home/work/a", "RO") "]", "unknown permission"));
    T_ASSERT(s_refused("[" ENTRY("", "/a", "/home/work/a", "ro") "]",
                       "mount 0: name must be 1 to 255 bytes"));
    T_ASSERT(s_refused("[" ENTRY("a\\nb", "/a", "/home/work/a", "ro") "]",
                       "mount 0: name has a control character"));
    //  A NUL inside a path: the decoder refuses it (a string cut at it would
    //  be another path).
    T_ASSERT(s_wire_refused("[" ENTRY("a", "/a\\u0000/etc", "/home/work/a", "ro") "]",
                            "contains a NUL byte"));
    //  the second entry is named
    T_ASSERT(s_refused("[" ENTRY("a", "/a", "/home/work/a",
                                 "ro") "," ENTRY("b", "b", "/home/work/b", "ro") "]",
                       "mount 1 (b): host_path must be absolute"));
}

static void
test_refuse_paths(void)
{
    T_ASSERT(s_host_refused("relative/dir"));
    T_ASSERT(s_host_refused(""));
    T_ASSERT(s_host_refused("/"));
    T_ASSERT(s_host_refused("/srv/../etc"));
    T_ASSERT(s_host_refused("/srv/.."));
    T_ASSERT(s_host_refused("/srv/./f"));
    T_ASSERT(s_host_refused("/srv//f"));
    T_ASSERT(s_host_refused("//srv/f"));
    T_ASSERT(s_host_refused("/srv/f/"));
    T_ASSERT(s_host_refused("/srv/\\u0001f"));
    T_ASSERT(s_host_refused("/srv/\\tf"));
    T_ASSERT(s_host_refused("/srv/\\u007ff"));
    T_ASSERT(s_kernel_refused("home/work/data"));
    T_ASSERT(s_kernel_refused("/home/work/../../etc"));
    T_ASSERT(s_kernel_refused("/home/work/a/.."));
    T_ASSERT(s_kernel_refused("/home/work//data"));
    T_ASSERT(s_kernel_refused("/home/work/data/"));
    T_ASSERT(s_kernel_refused("/home/work/./data"));
    T_ASSERT(s_kernel_refused("/home/work/da\\u001bta"));
    //  a name with dots is not a ".." component
    agent_mounts_t *mounts = NULL;
    bus_error_t err = {0};
    T_EQ_INT(s_parse("[" ENTRY("a", "/srv/a..b/.c", "/home/work/..a", "ro") "]", &mounts,
                     &err),
             BUS_OK);
    agent_mounts_destroy(&mounts);

    //  PATH_MAX bytes (no room for the NUL) is too long; one less is fine.
    char *path = malloc(PATH_MAX + 1);
    T_ASSERT(path);
    memset(path, 'a', PATH_MAX);
    path[PATH_MAX] = '\0';
    memcpy(path, "/home/work/", strlen("/home/work/"));
    for (size_t i = 100; i < PATH_MAX; i += 100)
        path[i] = '/'; //  components under NAME_MAX, though only the length counts
    bool kernel_long = s_kernel_refused(path);
    bool host_long = s_host_refused(path);
    path[PATH_MAX - 1] = '\0';
    char *text = malloc(2 * PATH_MAX + 256);
    T_ASSERT(text);
    snprintf(text, 2 * PATH_MAX + 256,
             "[{\"name\": \"long\", \"host_path\": \"%s\", \"kernel_path\": \"%s\", "
             "\"permission\": \"rw\"}]",
             path, path);
    int rc = s_parse(text, &mounts, &err);
    free(text);
    free(path);
    T_ASSERT(kernel_long);
    T_ASSERT(host_long);
    T_EQ_INT(rc, BUS_OK);
    agent_mounts_destroy(&mounts);
}

static void
test_refuse_reserved(void)
{
    const char *refused[] = {"/",
                             "/home",
                             "/home/work",
                             "/proc",
                             "/proc/self",
                             "/dev",
                             "/dev/shm",
                             "/sys",
                             "/sys/fs/cgroup",
                             "/etc",
                             "/etc/hosts",
                             "/opt",
                             "/opt/backplane",
                             "/opt/backplane/bin",
                             AGENT_KERNEL_RUNNER_PATH,
                             AGENT_KERNEL_TINI_PATH,
                             AGENT_KERNEL_RUN_DIR,
                             AGENT_KERNEL_RUN_DIR "/runner.sock",
                             NULL};
    for (size_t i = 0; refused[i]; i++)
        T_ASSERT(s_kernel_refused(refused[i]));
    //  Names that only start like a reserved path are fine.
    const char *fine[] = {
        "/home/workspace",     "/procs",  "/devices",     "/etc/hosts.d",
        "/opt/backplane-data", "/data/x", "/home/work/x", NULL};
    for (size_t i = 0; fine[i]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "[{\"name\": \"f\", \"host_path\": \"/srv/f\", \"kernel_path\": \"%s\", "
                 "\"permission\": \"ro\"}]",
                 fine[i]);
        agent_mounts_t *mounts = NULL;
        bus_error_t err = {0};
        int rc = s_parse(text, &mounts, &err);
        if (rc != BUS_OK)
            fprintf(stderr, "# %s: %s\n", fine[i], err.detail);
        T_EQ_INT(rc, BUS_OK);
        agent_mounts_destroy(&mounts);
    }
    T_ASSERT(s_refused("[" ENTRY("a", "/a", "/home/work", "ro") "]",
                       "mount 0 (a): kernel_path /home/work would hide /home/work"));
    T_ASSERT(s_refused("[" ENTRY("a", "/a", "/dev/shm", "ro") "]",
                       "meets /dev, which the agent mounts"));
}

static void
test_refuse_duplicates(void)
{
    T_ASSERT(s_refused("[" ENTRY("a", "/a", "/home/work/x",
                                 "ro") "," ENTRY("b", "/b", "/home/work/x", "rw") "]",
                       "mount 1 (b): kernel_path /home/work/x is taken by mount 0"));
    T_ASSERT(s_refused("[" ENTRY("a", "/a", "/home/work/x",
                                 "ro") "," ENTRY("b", "/b", "/home/work/x/y", "rw") "]",
                       "mount 1 (b): kernel_path /home/work/x/y nests with mount 0"));
    T_ASSERT(s_refused("[" ENTRY("a", "/a", "/home/work/x/y",
                                 "ro") "," ENTRY("b", "/b", "/home/work/x", "rw") "]",
                       "nests with mount 0"));
    //  The same host dir twice, at two places, is fine.
    agent_mounts_t *mounts = NULL;
    bus_error_t err = {0};
    T_EQ_INT(s_parse("[" ENTRY("a", "/a", "/home/work/x",
                               "ro") "," ENTRY("b", "/a", "/home/work/xy", "rw") "]",
                     &mounts, &err),
             BUS_OK);
    T_EQ_INT(mounts->count, 2);
    agent_mounts_destroy(&mounts);
}

//  The check the bundle runs on a list made elsewhere.
static void
test_check(void)
{
    agent_mount_t items[2] = {
        {.name = "a", .host_path = "/a", .kernel_path = "/home/work/a"},
        {.name = "b", .host_path = "/b", .kernel_path = "/home/work/b", .readonly = true},
    };
    bus_error_t err = {0};
    T_EQ_INT(agent_mounts_check(items, 2, &err), BUS_OK);
    T_EQ_INT(agent_mounts_check(NULL, 0, &err), BUS_OK);
    items[1].kernel_path = "/sys/kernel";
    T_EQ_INT(agent_mounts_check(items, 2, &err), BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "mount 1 (b)");
    items[1].kernel_path = "/home/work/b";
    items[0].host_path = NULL;
    T_EQ_INT(agent_mounts_check(items, 2, &err), BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "mount 0 (a): host_path must be absolute");
    items[0].host_path = "/a";
    items[0].name = NULL;
    T_EQ_INT(agent_mounts_check(items, 2, &err), BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "mount 0: name");
}

static void
test_hosts(void)
{
    char dir[PATH_MAX], file[PATH_MAX], link[PATH_MAX], missing[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/folder", s_tmp);
    snprintf(file, sizeof file, "%s/file", s_tmp);
    snprintf(link, sizeof link, "%s/link", s_tmp);
    snprintf(missing, sizeof missing, "%s/missing", s_tmp);
    T_EQ_INT(mkdir(dir, 0755), 0);
    FILE *f = fopen(file, "w");
    T_ASSERT(f);
    fclose(f);
    T_EQ_INT(symlink(dir, link), 0);

    agent_mount_t items[2] = {
        {.name = "ok", .host_path = dir, .kernel_path = "/home/work/ok"},
        {.name = "bad", .host_path = dir, .kernel_path = "/home/work/bad"},
    };
    agent_mounts_t mounts = {.items = items, .count = 2};
    bus_error_t err = {0};
    T_EQ_INT(agent_mounts_check_hosts(&mounts, &err), BUS_OK);
    const char *bad[] = {missing, file, link};
    for (size_t i = 0; i < 3; i++) {
        items[1].host_path = (char *) bad[i];
        memset(&err, 0, sizeof err);
        T_EQ_INT(agent_mounts_check_hosts(&mounts, &err), BUS_STATUS_NOT_FOUND);
        T_CONTAINS(err.detail, "mount 1 (bad)");
    }
    char below_file[PATH_MAX];
    snprintf(below_file, sizeof below_file, "%s/file/x", s_tmp);
    items[1].host_path = below_file;
    T_EQ_INT(agent_mounts_check_hosts(&mounts, &err), BUS_STATUS_NOT_FOUND);
    unlink(link);
    unlink(file);
    rmdir(dir);
}

//  The mount of destination in config.json's mounts, or NULL.
static json_t *
s_find_mount(json_t *config, const char *destination)
{
    size_t index;
    json_t *mount;
    json_array_foreach(json_object_get(config, "mounts"), index, mount)
    {
        if (streq(json_string_value(json_object_get(mount, "destination")), destination))
            return mount;
    }
    return NULL;
}

static char *
s_options(json_t *mount)
{
    json_t *options = json_object_get(mount, "options");
    return options ? json_dumps(options, JSON_COMPACT) : NULL;
}

static void
test_bundle(void)
{
    agent_mounts_t *mounts = NULL;
    bus_error_t err = {0};
    T_EQ_INT(
        s_parse("[" ENTRY("data", "/srv/vf/ab/abcd", "/home/work/data",
                          "rw") "," ENTRY("models", "/srv/vf/cd/cdef", "/data/models",
                                          "ro") "," ENTRY("w",
                                                          "/srv/vf/ef/"
                                                          "ef01",
                                                          "/home/work/w", "wd") "]",
                &mounts, &err),
        BUS_OK);
    const char *args[] = {"/bin/sh", NULL};
    agent_kernel_spec_t spec = {
        .kernel_id = "k1",
        .image_rootfs = "/img",
        .args = args,
        .hosts_path = "/state/hosts/k1",
        .mounts = mounts->items,
        .mount_count = mounts->count,
    };
    json_t *config =
        agent_bundle_config(&spec, "/state/k1/rootfs", "/state/k1/run", &err);
    T_ASSERT(config);
    json_t *list = json_object_get(config, "mounts");
    size_t size = json_array_size(list);
    T_ASSERT(size >= 3);
    //  The folders come last, in order, after the agent's own mounts.
    T_EQ_STR(
        json_string_value(json_object_get(json_array_get(list, size - 3), "destination")),
        "/home/work/data");
    T_EQ_STR(
        json_string_value(json_object_get(json_array_get(list, size - 1), "destination")),
        "/home/work/w");
    T_EQ_STR(
        json_string_value(json_object_get(json_array_get(list, size - 4), "destination")),
        "/etc/hosts");
    json_t *data = s_find_mount(config, "/home/work/data");
    json_t *models = s_find_mount(config, "/data/models");
    json_t *w = s_find_mount(config, "/home/work/w");
    T_ASSERT(data && models && w);
    T_EQ_STR(json_string_value(json_object_get(data, "type")), "bind");
    T_EQ_STR(json_string_value(json_object_get(data, "source")), "/srv/vf/ab/abcd");
    T_EQ_STR(json_string_value(json_object_get(models, "source")), "/srv/vf/cd/cdef");
    char *data_options = s_options(data);
    char *models_options = s_options(models);
    char *w_options = s_options(w);
    bool data_ok =
        data_options && streq(data_options, "[\"rbind\",\"rw\",\"nosuid\",\"nodev\"]");
    bool models_ok = models_options &&
                     streq(models_options, "[\"rbind\",\"ro\",\"nosuid\",\"nodev\"]");
    bool w_ok = w_options && streq(w_options, "[\"rbind\",\"rw\",\"nosuid\",\"nodev\"]");
    if (!data_ok || !models_ok || !w_ok)
        fprintf(stderr, "# options: %s %s %s\n", data_options, models_options, w_options);
    free(data_options);
    free(models_options);
    free(w_options);
    json_decref(config);
    T_ASSERT(data_ok);
    T_ASSERT(models_ok);
    T_ASSERT(w_ok);

    //  No folders: no extra mounts.
    spec.mounts = NULL;
    spec.mount_count = 0;
    config = agent_bundle_config(&spec, "/state/k1/rootfs", "/state/k1/run", &err);
    T_ASSERT(config);
    T_EQ_INT(json_array_size(json_object_get(config, "mounts")), size - 3);
    json_decref(config);

    //  A list made elsewhere is checked again.
    spec.mounts = mounts->items;
    spec.mount_count = mounts->count;
    strcpy(mounts->items[1].kernel_path, "/proc"); //  was "/data/models"
    config = agent_bundle_config(&spec, "/state/k1/rootfs", "/state/k1/run", &err);
    T_ASSERT(!config);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "mount 1 (models)");
    spec.mounts = NULL;
    spec.mount_count = 1;
    config = agent_bundle_config(&spec, "/state/k1/rootfs", "/state/k1/run", &err);
    T_ASSERT(!config);
    agent_mounts_destroy(&mounts);
}

int
main(void)
{
    if (!mkdtemp(s_tmp)) {
        perror("mkdtemp");
        return 1;
    }
    T_RUN(test_none);
    T_RUN(test_parse);
    T_RUN(test_refuse_shape);
    T_RUN(test_refuse_fields);
    T_RUN(test_refuse_paths);
    T_RUN(test_refuse_reserved);
    T_RUN(test_refuse_duplicates);
    T_RUN(test_check);
    T_RUN(test_hosts);
    T_RUN(test_bundle);
    if (rmdir(s_tmp) != 0) {
        fprintf(stderr, "# %s left behind\n", s_tmp);
        return 1;
    }
    return T_DONE();
}
