/*  =========================================================================
    gw_image_test - image references, labels, resolution and agents' reports

    The pure parts (reference parsing, architecture names, label rules,
    resolution over a small in-memory catalogue) and the catalogue in a
    real in-memory database: agents' reports replacing their own entries,
    and resolution against a domain's allowed registries.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

static void
s_check_ref(const char *text,
            const char *registry,
            const char *project,
            const char *path,
            const char *tag,
            const char *canonical)
{
    gw_image_ref_t ref;
    T_EQ_INT(gw_image_ref_parse(text, &ref), 0);
    T_EQ_STR(ref.registry, registry);
    T_EQ_STR(ref.project, project);
    T_EQ_STR(ref.path, path);
    T_EQ_STR(ref.tag, tag);
    T_EQ_STR(ref.canonical, canonical);
}

static void
test_reference_parsing(void)
{
    s_check_ref("cr.backend.ai/stable/python:3.9-ubuntu20.04", "cr.backend.ai", "stable",
                "stable/python", "3.9-ubuntu20.04",
                "cr.backend.ai/stable/python:3.9-ubuntu20.04");
    //  Defaults: Docker Hub, library/, latest.
    s_check_ref("python", "index.docker.io", "library", "library/python", "latest",
                "index.docker.io/library/python:latest");
    s_check_ref("python:3.9", "index.docker.io", "library", "library/python", "3.9",
                "index.docker.io/library/python:3.9");
    s_check_ref("lablup/python:3.9", "index.docker.io", "lablup", "lablup/python", "3.9",
                "index.docker.io/lablup/python:3.9");
    s_check_ref("docker.io/python", "index.docker.io", "library", "library/python",
                "latest", "index.docker.io/library/python:latest");
    //  A first component with a port, or localhost, is a registry; no library/ there.
    s_check_ref("localhost/python", "localhost", "", "python", "latest",
                "localhost/python:latest");
    s_check_ref("registry.local:5000/a/b/c:1.0", "registry.local:5000", "a", "a/b/c",
                "1.0", "registry.local:5000/a/b/c:1.0");
    s_check_ref("my_project/img-name.x:v_1", "index.docker.io", "my_project",
                "my_project/img-name.x", "v_1",
                "index.docker.io/my_project/img-name.x:v_1");

    const char *malformed[] = {
        "",
        "https://cr.backend.ai/stable/python",
        "/python",
        "a//b",
        "cr.backend.ai/",
        "Python",
        "stable/Python:3.9",
        "a:b:c",
        "python:",
        "python:-x",
        "python:.x",
        "python@sha256:0123",
        ":tag",
        "-python",
        "python-",
        "py thon",
        "cr.backend.ai/stable/py\tthon",
        "reg.io:5000/a:b/c",
        "bad_registry!.io/x/y",
    };
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
        gw_image_ref_t ref;
        if (gw_image_ref_parse(malformed[i], &ref) != -1)
            fprintf(stderr, "# accepted: \"%s\"\n", malformed[i]);
        T_EQ_INT(gw_image_ref_parse(malformed[i], &ref), -1);
    }
    gw_image_ref_t ref;
    T_EQ_INT(gw_image_ref_parse(NULL, &ref), -1);
    //  Too long, and a tag over Docker's 128 characters.
    char long_text[GW_IMAGE_REF_MAX + 10];
    memset(long_text, 'a', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    T_EQ_INT(gw_image_ref_parse(long_text, &ref), -1);
    char long_tag[200] = "python:";
    memset(long_tag + 7, 't', 150);
    long_tag[157] = '\0';
    T_EQ_INT(gw_image_ref_parse(long_tag, &ref), -1);
    //  Just under the limit of the path with library/ prepended: refused, not cut.
    char edge[GW_IMAGE_REF_MAX];
    memset(edge, 'b', GW_IMAGE_REF_MAX - 5);
    edge[GW_IMAGE_REF_MAX - 5] = '\0';
    T_EQ_INT(gw_image_ref_parse(edge, &ref), -1);
}

static void
test_architecture_names(void)
{
    char out[GW_IMAGE_ARCH_MAX];
    const char *cases[][2] = {{"amd64", "x86_64"},   {"x64", "x86_64"},
                              {"x86-64", "x86_64"},  {"x86_64", "x86_64"},
                              {"arm64", "aarch64"},  {"aarch64", "aarch64"},
                              {"ppc64le", "ppc64le"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        T_EQ_INT(gw_image_arch(cases[i][0], out), 0);
        T_EQ_STR(out, cases[i][1]);
    }
    T_EQ_INT(gw_image_arch(NULL, out), 0);
    T_EQ_STR(out, GW_IMAGE_DEFAULT_ARCH);
    const char *bad[] = {"", "AMD64", "x86 64", "arm/64",
                         "a-very-long-architecture-name-that-is-too-long"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        T_EQ_INT(gw_image_arch(bad[i], out), -1);
}

static void
test_labels(void)
{
    json_t *labels = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:s}", "ai.backend.resource.min.cpu", "2",
        "ai.backend.resource.min.mem", "256m", "ai.backend.resource.min.cuda.device", "1",
        "ai.backend.resource.max.cuda.device", "2", "ai.backend.resource.min.cuda.shares",
        "0.5", "ai.backend.role", "INFERENCE");
    json_t *resources = gw_image_resources(labels);
    char *text = json_dumps(resources, JSON_COMPACT | JSON_SORT_KEYS);
    T_EQ_STR(text, "{\"cpu\":{\"max\":null,\"min\":\"2\"},"
                   "\"cuda.device\":{\"max\":\"2\",\"min\":\"1\"},"
                   "\"cuda.shares\":{\"max\":null,\"min\":\"0.5\"},"
                   "\"mem\":{\"max\":null,\"min\":\"268435456\"}}");
    free(text);
    json_decref(resources);
    T_EQ_STR(gw_image_type(labels), "INFERENCE");
    json_decref(labels);

    //  Defaults (reference §8): cpu 1, mem 1g; malformed values are ignored.
    labels = json_pack("{s:s, s:s, s:s}", "ai.backend.resource.min.cpu", "lots",
                       "ai.backend.resource.min.mem", "1.5x", "ai.backend.role", "BOSS");
    resources = gw_image_resources(labels);
    text = json_dumps(resources, JSON_COMPACT | JSON_SORT_KEYS);
    T_EQ_STR(text, "{\"cpu\":{\"max\":null,\"min\":\"1\"},"
                   "\"mem\":{\"max\":null,\"min\":\"1073741824\"}}");
    free(text);
    json_decref(resources);
    T_EQ_STR(gw_image_type(labels), "COMPUTE");
    json_decref(labels);

    //  Binary sizes: fractions, endings, plain bytes.
    const char *sizes[][2] = {
        {"1.5g", "1610612736"}, {"1GiB", "1073741824"}, {"64k", "65536"},
        {"1024", "1024"},       {"2Mbytes", "2097152"},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        labels = json_pack("{s:s}", "ai.backend.resource.min.mem", sizes[i][0]);
        resources = gw_image_resources(labels);
        T_EQ_STR(
            json_string_value(json_object_get(json_object_get(resources, "mem"), "min")),
            sizes[i][1]);
        json_decref(resources);
        json_decref(labels);
    }
    labels = json_object();
    T_EQ_STR(gw_image_type(labels), "COMPUTE");
    json_decref(labels);
}

static void
test_registry_allowed(void)
{
    json_t *allowed = json_pack("[s, s]", "cr.backend.ai", "index.docker.io");
    T_ASSERT(gw_image_registry_allowed(allowed, "cr.backend.ai"));
    T_ASSERT(!gw_image_registry_allowed(allowed, "evil.example.com"));
    T_ASSERT(!gw_image_registry_allowed(allowed, NULL));
    json_decref(allowed);
    allowed = json_array();
    T_ASSERT(!gw_image_registry_allowed(allowed, "cr.backend.ai"));
    json_decref(allowed);
    allowed = json_pack("{s:s}", "cr.backend.ai", "yes"); //  not a list: allows none
    T_ASSERT(!gw_image_registry_allowed(allowed, "cr.backend.ai"));
    json_decref(allowed);
}

//  ---------------------------------------------------------------------------
//  Resolution over an in-memory catalogue: {"<ref>|<arch>": image} and
//  {"<alias>": "<ref>"}.

typedef struct {
    json_t *images;
    json_t *aliases;
} memory_t;

static json_t *
s_memory_lookup(void *arg, const char *reference, const char *arch)
{
    memory_t *memory = arg;
    char key[GW_IMAGE_REF_MAX + GW_IMAGE_ARCH_MAX];
    snprintf(key, sizeof key, "%s|%s", reference, arch);
    json_t *image = json_object_get(memory->images, key);
    return image ? json_deep_copy(image) : NULL;
}

static char *
s_memory_alias(void *arg, const char *alias)
{
    memory_t *memory = arg;
    const char *target = json_string_value(json_object_get(memory->aliases, alias));
    return target ? strdup(target) : NULL;
}

//  Resolves name and checks the status and, on success, the reference found.
static void
s_resolve(memory_t *memory,
          const json_t *allowed,
          const char *name,
          const char *arch,
          int want,
          const char *expect)
{
    json_t *image = NULL;
    bus_error_t err = {0};
    int rc = gw_image_resolve_with(s_memory_lookup, s_memory_alias, memory, allowed, name,
                                   arch, &image, &err);
    const char *found =
        image ? json_string_value(json_object_get(image, "reference")) : "";
    char copy[GW_IMAGE_REF_MAX];
    snprintf(copy, sizeof copy, "%s", found);
    json_decref(image);
    T_EQ_INT(rc, want);
    if (rc == BUS_STATUS_NOT_FOUND)
        T_EQ_STR(err.detail, GW_IMAGE_NOT_FOUND);
    if (expect)
        T_EQ_STR(copy, expect);
}

static void
test_resolution_rules(void)
{
    memory_t memory;
    memory.images = json_pack(
        "{s:{s:s, s:s}, s:{s:s, s:s}, s:{s:s, s:s}, s:{s:s, s:s}}",
        "cr.backend.ai/stable/python:3.9-ubuntu20.04|x86_64", "reference",
        "cr.backend.ai/stable/python:3.9-ubuntu20.04", "registry", "cr.backend.ai",
        "cr.backend.ai/stable/python:3.9-ubuntu20.04|aarch64", "reference",
        "cr.backend.ai/stable/python:3.9-ubuntu20.04/arm", "registry", "cr.backend.ai",
        "index.docker.io/library/python:latest|x86_64", "reference",
        "index.docker.io/library/python:latest", "registry", "index.docker.io",
        "evil.example.com/x/miner:1|x86_64", "reference", "evil.example.com/x/miner:1",
        "registry", "evil.example.com");
    memory.aliases = json_pack(
        "{s:s, s:s, s:s, s:s}", "py", "cr.backend.ai/stable/python:3.9-ubuntu20.04",
        "miner", "evil.example.com/x/miner:1", "dangling", "cr.backend.ai/stable/gone:1",
        //  An alias spelled like a reference: the reference wins.
        "python", "cr.backend.ai/stable/python:3.9-ubuntu20.04");
    json_t *allowed = json_pack("[s, s]", "cr.backend.ai", "index.docker.io");

    //  As a reference, with and without defaults.
    s_resolve(&memory, allowed, "cr.backend.ai/stable/python:3.9-ubuntu20.04", NULL,
              BUS_OK, "cr.backend.ai/stable/python:3.9-ubuntu20.04");
    s_resolve(&memory, allowed, "python", NULL, BUS_OK,
              "index.docker.io/library/python:latest");
    s_resolve(&memory, allowed, "library/python:latest", "amd64", BUS_OK,
              "index.docker.io/library/python:latest");
    //  As an alias, per architecture.
    s_resolve(&memory, allowed, "py", "x86_64", BUS_OK,
              "cr.backend.ai/stable/python:3.9-ubuntu20.04");
    s_resolve(&memory, allowed, "py", "arm64", BUS_OK,
              "cr.backend.ai/stable/python:3.9-ubuntu20.04/arm");
    //  No such reference for aarch64: the alias of the same spelling applies.
    s_resolve(&memory, allowed, "python", "aarch64", BUS_OK,
              "cr.backend.ai/stable/python:3.9-ubuntu20.04/arm");
    //  Missing architecture, dangling alias, unknown name.
    s_resolve(&memory, allowed, "library/python", "aarch64", BUS_STATUS_NOT_FOUND, NULL);
    s_resolve(&memory, allowed, "dangling", NULL, BUS_STATUS_NOT_FOUND, NULL);
    s_resolve(&memory, allowed, "nothing-here", NULL, BUS_STATUS_NOT_FOUND, NULL);
    s_resolve(&memory, allowed, "Not A Reference", NULL, BUS_STATUS_NOT_FOUND, NULL);
    //  A registry the domain does not allow: as a reference and as an alias.
    s_resolve(&memory, allowed, "evil.example.com/x/miner:1", NULL, BUS_STATUS_NOT_FOUND,
              NULL);
    s_resolve(&memory, allowed, "miner", NULL, BUS_STATUS_NOT_FOUND, NULL);
    //  No check (NULL), and an empty list that allows none.
    s_resolve(&memory, NULL, "miner", NULL, BUS_OK, "evil.example.com/x/miner:1");
    json_t *none = json_array();
    s_resolve(&memory, none, "py", NULL, BUS_STATUS_NOT_FOUND, NULL);
    json_decref(none);
    //  Bad input.
    s_resolve(&memory, allowed, "", NULL, BUS_STATUS_INVALID, NULL);
    s_resolve(&memory, allowed, NULL, NULL, BUS_STATUS_INVALID, NULL);
    s_resolve(&memory, allowed, "py", "AMD 64", BUS_STATUS_INVALID, NULL);

    json_decref(allowed);
    json_decref(memory.images);
    json_decref(memory.aliases);
}

//  ---------------------------------------------------------------------------
//  The catalogue in a database

static void
s_info(proto_image_info_t *info, const char *reference, const char *arch, bool installed)
{
    proto_image_info_init(info);
    info->reference = reference;
    info->architecture = arch;
    info->digest = "sha256:0123456789abcdef";
    info->size_bytes = 1000;
    info->installed = installed;
}

//  installed_agents of one row, as JSON text ("" when there is no row).
static const char *
s_agents(bus_db_t *db, const char *name, const char *arch)
{
    static char text[256];
    text[0] = '\0';
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT installed_agents FROM images WHERE name = ?1 AND architecture = ?2");
    sqlite3_bind_text(stmt, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 2, arch, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(stmt) == SQLITE_ROW)
        snprintf(text, sizeof text, "%s", (const char *) sqlite3_column_text(stmt, 0));
    sqlite3_reset(stmt);
    return text;
}

static void
test_catalog_reports(void)
{
    bus_error_t err = {0};
    bus_db_t *db = bus_db_open(":memory:", gw_db_migrations, GW_DB_MIGRATION_COUNT, &err);
    T_ASSERT(db);
    const char *py = "cr.backend.ai/stable/python:3.9-ubuntu20.04";
    const char *tf = "cr.backend.ai/stable/tensorflow:2.9";

    //  Agent a: python (two labels), tensorflow, and a malformed entry.
    proto_image_catalog_t catalog;
    proto_image_catalog_init(&catalog);
    proto_image_info_t images[3];
    catalog.agent_id = "i-a";
    catalog.images_count = 3;
    catalog.images = images;
    s_info(&images[0], py, "amd64", true);
    static const proto_kv_t labels[] = {{"ai.backend.resource.min.mem", "512m"},
                                        {"ai.backend.role", "SYSTEM"}};
    images[0].labels_count = 2;
    images[0].labels = labels;
    s_info(&images[1], tf, "x86_64", true);
    s_info(&images[2], "NOT//valid", "x86_64", true);
    T_EQ_INT(gw_image_apply_catalog(db, &catalog), 0);
    //  The same report again changes nothing (no duplicate agent).
    T_EQ_INT(gw_image_apply_catalog(db, &catalog), 0);
    proto_image_catalog_clear(&catalog);
    T_EQ_STR(s_agents(db, py, "x86_64"), "[\"i-a\"]");
    T_EQ_STR(s_agents(db, tf, "x86_64"), "[\"i-a\"]");
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT count(*), max(type), max(resources) FROM images WHERE name = ?1");
    sqlite3_bind_text(stmt, 1, py, -1, SQLITE_STATIC);
    T_EQ_INT(sqlite3_step(stmt), SQLITE_ROW);
    T_EQ_INT(sqlite3_column_int(stmt, 0), 1);
    T_EQ_STR((const char *) sqlite3_column_text(stmt, 1), "SYSTEM");
    T_CONTAINS((const char *) sqlite3_column_text(stmt, 2), "\"min\":\"536870912\"");
    sqlite3_reset(stmt);

    //  Agent b: python installed, tensorflow known but not pulled.
    proto_image_catalog_init(&catalog);
    catalog.agent_id = "i-b";
    catalog.images_count = 2;
    catalog.images = images;
    s_info(&images[0], py, "x86_64", true);
    s_info(&images[1], tf, "x86_64", false);
    T_EQ_INT(gw_image_apply_catalog(db, &catalog), 0);
    proto_image_catalog_clear(&catalog);
    T_EQ_STR(s_agents(db, py, "x86_64"), "[\"i-a\",\"i-b\"]");
    T_EQ_STR(s_agents(db, tf, "x86_64"), "[\"i-a\"]");

    //  Agent a now only has tensorflow: it leaves python's list.
    proto_image_catalog_init(&catalog);
    catalog.agent_id = "i-a";
    catalog.images_count = 1;
    catalog.images = images;
    s_info(&images[0], tf, "x86_64", true);
    T_EQ_INT(gw_image_apply_catalog(db, &catalog), 0);
    proto_image_catalog_clear(&catalog);
    T_EQ_STR(s_agents(db, py, "x86_64"), "[\"i-b\"]");
    T_EQ_STR(s_agents(db, tf, "x86_64"), "[\"i-a\"]");

    //  Agent b reports nothing: its entries go; the rows stay (not installed).
    proto_image_catalog_init(&catalog);
    catalog.agent_id = "i-b";
    T_EQ_INT(gw_image_apply_catalog(db, &catalog), 0);
    proto_image_catalog_clear(&catalog);
    T_EQ_STR(s_agents(db, py, "x86_64"), "[]");

    //  Resolution through the database, against a domain's registries.
    T_EQ_INT(bus_db_exec(db,
                         "INSERT INTO domains (name, created_at, modified_at,"
                         " allowed_docker_registries) VALUES"
                         " ('ok', 'now', 'now', '[\"cr.backend.ai\"]'),"
                         " ('closed', 'now', 'now', '[]');"
                         "INSERT INTO image_aliases (alias, image) VALUES"
                         " ('python', 'cr.backend.ai/stable/python:3.9-ubuntu20.04')"),
             0);
    json_t *image = NULL;
    T_EQ_INT(gw_image_resolve(db, "ok", "python", "amd64", &image, &err), BUS_OK);
    T_EQ_STR(json_string_value(json_object_get(image, "name")), "stable/python");
    T_EQ_STR(json_string_value(json_object_get(image, "tag")), "3.9-ubuntu20.04");
    T_EQ_STR(json_string_value(json_object_get(image, "type")), "SYSTEM");
    T_ASSERT(json_is_false(json_object_get(image, "installed")));
    T_EQ_STR(json_string_value(json_array_get(json_object_get(image, "aliases"), 0)),
             "python");
    json_decref(image);
    image = NULL;
    T_EQ_INT(gw_image_resolve(db, "closed", "python", NULL, &image, &err),
             BUS_STATUS_NOT_FOUND);
    T_EQ_INT(gw_image_resolve(db, "no-such-domain", "python", NULL, &image, &err),
             BUS_STATUS_NOT_FOUND);
    T_EQ_INT(gw_image_resolve(db, NULL, tf, NULL, &image, &err), BUS_OK);
    T_EQ_INT((int) json_integer_value(json_object_get(image, "size_bytes")), 1000);
    json_decref(image);
    bus_db_destroy(&db);
}

int
main(void)
{
    T_RUN(test_reference_parsing);
    T_RUN(test_architecture_names);
    T_RUN(test_labels);
    T_RUN(test_registry_allowed);
    T_RUN(test_resolution_rules);
    T_RUN(test_catalog_reports);
    return T_DONE();
}
