/*  =========================================================================
    agent_images_test - reading OCI image layouts into catalogue entries

    Real layouts written to a temporary directory: tags, labels,
    architectures and sizes as the catalogue reports them, and the hostile
    cases (digests that try to leave blobs/, files that are not JSON, too
    large, or not objects, names and tags outside Docker's rules), each
    skipped rather than fatal.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include "t.h"
#include <sys/stat.h>

#define HEX_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define HEX_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
#define HEX_C "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
#define HEX_D "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"

static char s_root[64];

static void
s_write(const char *layout, const char *leaf, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/blobs/sha256", s_root, layout);
    bus_mkdirs(path);
    snprintf(path, sizeof path, "%s/%s/%s", s_root, layout, leaf);
    FILE *file = fopen(path, "w");
    if (file) {
        fputs(text, file);
        fclose(file);
    }
}

//  An index entry for manifest hex tagged tag.
#define ENTRY(hex, tag)                                                                  \
    "{\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"digest\":"          \
    "\"sha256:" hex "\",\"size\":1,\"annotations\":"                                     \
    "{\"org.opencontainers.image.ref.name\":\"" tag "\"}}"

//  A manifest of config blob hex with one layer of layer_size bytes.
#define MANIFEST(hex, layer_size)                                                        \
    "{\"schemaVersion\":2,\"config\":{\"digest\":\"sha256:" hex "\",\"size\":100},"      \
    "\"layers\":[{\"digest\":\"sha256:" HEX_D "\",\"size\":" #layer_size "}]}"

static size_t
s_read(const char *name, agent_image_t *images, size_t max)
{
    char layout[512];
    snprintf(layout, sizeof layout, "%s/%s", s_root, name);
    return agent_images_read_layout(layout, name, images, max);
}

static const char *
s_label(const agent_image_t *image, const char *key)
{
    for (size_t index = 0; index < image->info.labels_count; index++)
        if (strcmp(image->info.labels[index].key, key) == 0)
            return image->info.labels[index].value;
    return NULL;
}

static void
test_tags_labels_and_sizes(void)
{
    s_write("python", "index.json",
            "{\"schemaVersion\":2,\"manifests\":[" ENTRY(HEX_A, "latest") "," ENTRY(
                HEX_B, "3.11") "]}");
    s_write("python", "blobs/sha256/" HEX_A, MANIFEST(HEX_C, 5000));
    s_write("python", "blobs/sha256/" HEX_B, MANIFEST(HEX_D, 7000));
    s_write("python", "blobs/sha256/" HEX_C,
            "{\"architecture\":\"amd64\",\"os\":\"linux\",\"config\":{\"Labels\":"
            "{\"ai.backend.runtime-type\":\"python\",\"ai.backend.features\":\"query\","
            "\"not.a.string\":3},\"Env\":[\"PATH=/opt/conda/bin:/usr/bin\","
            "\"LD_LIBRARY_PATH=/usr/local/cuda/lib64\",\"=nokey\",\"NOVALUE\",3,"
            "\"EMPTY=\"],\"Entrypoint\":[\"python3\",\"-m\"],\"Cmd\":[\"server\"]}}");
    s_write("python", "blobs/sha256/" HEX_D,
            "{\"architecture\":\"arm64\",\"config\":{\"Cmd\":[\"sh\",3]}}");
    agent_image_t images[4] = {0};
    T_EQ_INT(s_read("python", images, 4), 2);
    T_EQ_STR(images[0].info.reference, "local.backplane/library/python:latest");
    T_EQ_STR(images[0].tag, "latest");
    T_EQ_STR(images[0].info.architecture, "x86_64");
    T_EQ_STR(images[0].info.digest, "sha256:" HEX_A);
    T_EQ_INT(images[0].info.size_bytes, 5100);
    T_EQ_INT(images[0].info.labels_count, 2); //  the number label is not a label
    T_EQ_STR(s_label(&images[0], "ai.backend.runtime-type"), "python");
    T_ASSERT(images[0].info.installed);
    //  Env: KEY=value entries only, values may be empty.
    T_EQ_INT(images[0].env_count, 3);
    T_EQ_STR(images[0].env[0].key, "PATH");
    T_EQ_STR(images[0].env[0].value, "/opt/conda/bin:/usr/bin");
    T_EQ_STR(images[0].env[1].key, "LD_LIBRARY_PATH");
    T_EQ_STR(images[0].env[2].key, "EMPTY");
    T_EQ_STR(images[0].env[2].value, "");
    T_EQ_INT(images[1].env_count, 0);
    //  The command: Entrypoint then Cmd; none when an entry is not a string.
    T_EQ_INT(images[0].info.command_count, 3);
    T_EQ_STR(images[0].info.command[0], "python3");
    T_EQ_STR(images[0].info.command[2], "server");
    T_EQ_INT(images[1].info.command_count, 0);
    T_EQ_STR(images[1].info.reference, "local.backplane/library/python:3.11");
    T_EQ_STR(images[1].info.architecture, "aarch64");
    T_EQ_INT(images[1].info.labels_count, 0);
    //  max bounds what is read.
    agent_image_t one[1] = {0};
    T_EQ_INT(s_read("python", one, 1), 1);
    for (size_t index = 0; index < 2; index++)
        agent_image_clear(&images[index]);
    agent_image_clear(&one[0]);
}

static void
test_hostile_digests_are_not_paths(void)
{
    //  A secret outside blobs/ that a traversing digest would reach.
    s_write("escape", "secret.json", "{\"config\":{\"Labels\":{\"stolen\":\"yes\"}}}");
    s_write("escape", "index.json",
            "{\"manifests\":["
            "{\"digest\":\"sha256:../../secret.json\",\"annotations\":"
            "{\"org.opencontainers.image.ref.name\":\"a\"}},"
            "{\"digest\":\"sha256:" HEX_A "/../../../secret.json\",\"annotations\":"
            "{\"org.opencontainers.image.ref.name\":\"b\"}},"
            "{\"digest\":\"SHA256:" HEX_A "\",\"annotations\":"
            "{\"org.opencontainers.image.ref.name\":\"c\"}},"
            "{\"digest\":7,\"annotations\":{\"org.opencontainers.image.ref.name\":\"d\"}}"
            "]}");
    s_write("escape", "blobs/sha256/" HEX_A,
            "{\"config\":{\"digest\":\"sha256:../../secret.json\"}}");
    agent_image_t images[4] = {0};
    T_EQ_INT(s_read("escape", images, 4), 0);
    //  The valid manifest whose config digest escapes is skipped too.
    s_write("escape", "index.json", "{\"manifests\":[" ENTRY(HEX_A, "latest") "]}");
    T_EQ_INT(s_read("escape", images, 4), 0);
}

static void
test_malformed_files_are_skipped(void)
{
    agent_image_t images[2] = {0};
    T_EQ_INT(s_read("missing", images, 2), 0);
    s_write("broken", "index.json", "{\"manifests\": [");
    T_EQ_INT(s_read("broken", images, 2), 0);
    s_write("broken", "index.json", "[1, 2, 3]");
    T_EQ_INT(s_read("broken", images, 2), 0);
    s_write("broken", "index.json", "{\"manifests\": {\"not\": \"a list\"}}");
    T_EQ_INT(s_read("broken", images, 2), 0);
    //  Duplicate keys are refused, so no one reads a different manifest list.
    s_write("broken", "index.json", "{\"manifests\": [], \"manifests\": []}");
    T_EQ_INT(s_read("broken", images, 2), 0);
    //  A manifest that is not JSON, and one bigger than any real one.
    s_write("broken", "index.json",
            "{\"manifests\":[" ENTRY(HEX_A, "x") "," ENTRY(HEX_B, "y") "]}");
    s_write("broken", "blobs/sha256/" HEX_A, "\x01\x02 not json");
    char huge[512];
    snprintf(huge, sizeof huge, "%s/broken/blobs/sha256/" HEX_B, s_root);
    FILE *file = fopen(huge, "w");
    T_ASSERT(file);
    fclose(file);
    T_ASSERT(truncate(huge, 64L * 1024 * 1024) == 0);
    T_EQ_INT(s_read("broken", images, 2), 0);
}

static void
test_names_and_tags_follow_docker_rules(void)
{
    s_write("Upper", "index.json", "{\"manifests\":[" ENTRY(HEX_A, "latest") "]}");
    s_write("Upper", "blobs/sha256/" HEX_A, MANIFEST(HEX_C, 1));
    s_write("Upper", "blobs/sha256/" HEX_C, "{}");
    agent_image_t images[2] = {0};
    T_EQ_INT(s_read("Upper", images, 2), 0);
    char layout[512];
    snprintf(layout, sizeof layout, "%s/Upper", s_root);
    T_EQ_INT(agent_images_read_layout(layout, "..", images, 2), 0);
    T_EQ_INT(agent_images_read_layout(layout, "a/b", images, 2), 0);
    //  The same layout under a valid name reads; a tag with a space does not.
    T_EQ_INT(agent_images_read_layout(layout, "upper", images, 2), 1);
    T_EQ_STR(images[0].info.reference, "local.backplane/library/upper:latest");
    T_EQ_STR(images[0].info.architecture, "x86_64"); //  none given: the default
    agent_image_clear(&images[0]);
    s_write("Upper", "index.json",
            "{\"manifests\":[" ENTRY(HEX_A, "la test") "," ENTRY(HEX_A, "") "]}");
    T_EQ_INT(agent_images_read_layout(layout, "upper", images, 2), 0);
}

int
main(void)
{
    bus_log_set_level(BUS_LOG_ERROR); //  the skipped layouts warn by design
    snprintf(s_root, sizeof s_root, "/tmp/agent-images-XXXXXX");
    if (!mkdtemp(s_root))
        return 1;
    T_RUN(test_tags_labels_and_sizes);
    T_RUN(test_hostile_digests_are_not_paths);
    T_RUN(test_malformed_files_are_skipped);
    T_RUN(test_names_and_tags_follow_docker_rules);
    char command[128];
    snprintf(command, sizeof command, "rm -rf %s", s_root);
    if (system(command) != 0)
        fprintf(stderr, "# cannot remove %s\n", s_root);
    return T_DONE();
}
