/*  =========================================================================
    agent_images - the images this agent can run, and the catalogue it
    announces

    Every file the store reads comes from disk that an operator, or an image
    someone else built, filled: sizes are capped before reading, digests are
    checked to be sha256 hex before they become paths, and a layout that does
    not parse is skipped with the file named, never fatal.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <dirent.h>
#include <sys/stat.h>

//  Index, manifest and config JSON are a few KiB; refuse anything absurd.
#define JSON_FILE_MAX   (4 * 1024 * 1024)
#define IMAGES_MAX      1024 //  per agent
#define TAGS_PER_LAYOUT 64

struct _agent_images_t {
    bus_node_t *node;
    char *dir;
    struct event *timer;
    agent_image_t *images;
    size_t count;
    bus_writer_t *announced; //  the catalogue body last emitted, to spot changes
};

void
agent_image_clear(agent_image_t *self)
{
    free(self->layout);
    free(self->tag);
    proto_image_info_clear(&self->info);
    memset(self, 0, sizeof *self);
}

//  Reads a JSON object from path, at most JSON_FILE_MAX bytes.
static json_t *
s_load_json(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        bus_log_warning("image file missing path=%s", path);
        return NULL;
    }
    if (st.st_size > JSON_FILE_MAX) {
        bus_log_warning("image file too large path=%s bytes=%lld", path,
                        (long long) st.st_size);
        return NULL;
    }
    json_error_t error;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &error);
    if (!root)
        bus_log_warning("image file malformed path=%s line=%d error=\"%s\"", path,
                        error.line, error.text);
    else if (!json_is_object(root)) {
        bus_log_warning("image file is not a JSON object path=%s", path);
        json_decref(root);
        root = NULL;
    }
    return root;
}

//  True for "sha256:" and 64 lowercase hex digits: the only digests that
//  may become a path under blobs/.
static bool
s_valid_digest(const char *digest)
{
    if (!digest || strncmp(digest, "sha256:", 7) != 0 || strlen(digest) != 7 + 64)
        return false;
    for (const char *c = digest + 7; *c; c++)
        if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f')))
            return false;
    return true;
}

static json_t *
s_load_blob(const char *layout, const char *digest)
{
    if (!s_valid_digest(digest)) {
        bus_log_warning("image digest invalid layout=%s digest=\"%.80s\"", layout,
                        digest ? digest : "");
        return NULL;
    }
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/blobs/sha256/%s", layout, digest + 7) >=
        (int) sizeof path)
        return NULL;
    return s_load_json(path);
}

//  Docker's name and tag rules, narrowed: lowercase names, tags of
//  [A-Za-z0-9_.-], so a reference is always safe to print and to parse.
static bool
s_valid_name(const char *name)
{
    size_t length = strlen(name);
    if (length == 0 || length > 128 || name[0] == '.' || name[0] == '-')
        return false;
    for (const char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '.' ||
              *c == '_' || *c == '-'))
            return false;
    return true;
}

static bool
s_valid_tag(const char *tag)
{
    size_t length = strlen(tag);
    if (length == 0 || length > 128)
        return false;
    for (const char *c = tag; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              (*c >= '0' && *c <= '9') || *c == '.' || *c == '_' || *c == '-'))
            return false;
    return true;
}

//  OCI speaks Go's architecture names; Backend.AI speaks the kernel's.
static const char *
s_architecture(const char *oci)
{
    if (!oci || strcmp(oci, "amd64") == 0)
        return "x86_64";
    if (strcmp(oci, "arm64") == 0)
        return "aarch64";
    return oci;
}

//  The labels of an image config (config.Labels), string values only.
static int
s_read_labels(json_t *config, proto_image_info_t *info)
{
    json_t *labels = json_object_get(json_object_get(config, "config"), "Labels");
    if (!json_is_object(labels))
        return 0;
    size_t count = json_object_size(labels);
    if (count > 1024)
        return -1;
    proto_kv_t *pairs =
        proto_arena_alloc(&info->owned_, (count ? count : 1) * sizeof *pairs);
    if (!pairs)
        return -1;
    info->labels = pairs;
    const char *key;
    json_t *value;
    json_object_foreach(labels, key, value)
    {
        if (!json_is_string(value))
            continue;
        proto_kv_t *pair = &pairs[info->labels_count];
        pair->key = proto_arena_strdup(&info->owned_, key);
        pair->value = proto_arena_strdup(&info->owned_, json_string_value(value));
        if (!pair->key || !pair->value)
            return -1;
        info->labels_count++;
    }
    return 0;
}

//  The environment of an image config (config.Env, "KEY=value" strings):
//  what its programs need (a CUDA image's LD_LIBRARY_PATH, a conda image's
//  PATH). Entries that are not "KEY=value" with a non-empty key are left out.
static int
s_read_env(json_t *config, agent_image_t *image)
{
    json_t *env = json_object_get(json_object_get(config, "config"), "Env");
    if (!json_is_array(env))
        return 0;
    size_t count = json_array_size(env);
    if (count > 1024)
        return -1;
    void **owned = &image->info.owned_;
    image->env = proto_arena_alloc(owned, (count ? count : 1) * sizeof *image->env);
    if (!image->env)
        return -1;
    size_t index;
    json_t *item;
    json_array_foreach(env, index, item)
    {
        const char *text = json_string_value(item);
        const char *equals = text ? strchr(text, '=') : NULL;
        if (!equals || equals == text)
            continue;
        proto_kv_t *pair = &image->env[image->env_count];
        char *key = proto_arena_strdup(owned, text);
        if (!key)
            return -1;
        key[equals - text] = '\0';
        pair->key = key;
        pair->value = key + (equals - text) + 1;
        image->env_count++;
    }
    return 0;
}

//  The command of an image config: config.Entrypoint then config.Cmd, as a
//  container engine joins them (an empty Entrypoint runs the Cmd alone).
//  A model service of the vllm, nim or cmd runtime variant runs it. An
//  entry that is not a string makes the image's command unknown (none).
static int
s_read_command(json_t *config, agent_image_t *image)
{
    json_t *parts[] = {json_object_get(json_object_get(config, "config"), "Entrypoint"),
                       json_object_get(json_object_get(config, "config"), "Cmd")};
    size_t count = 0;
    for (size_t p = 0; p < 2; p++) {
        for (size_t i = 0; i < json_array_size(parts[p]); i++)
            if (!json_is_string(json_array_get(parts[p], i)))
                return 0;
        count += json_array_size(parts[p]);
    }
    if (count == 0 || count > 256)
        return 0;
    void **owned = &image->info.owned_;
    const char **command = proto_arena_alloc(owned, count * sizeof *command);
    if (!command)
        return -1;
    size_t at = 0;
    for (size_t p = 0; p < 2; p++)
        for (size_t i = 0; i < json_array_size(parts[p]); i++)
            if (!(command[at++] = proto_arena_strdup(
                      owned, json_string_value(json_array_get(parts[p], i)))))
                return -1;
    image->info.command = command;
    image->info.command_count = count;
    return 0;
}

//  One manifest of the index into image; false when it is skipped.
static bool
s_read_manifest(const char *layout,
                const char *name,
                json_t *descriptor,
                agent_image_t *image)
{
    const char *tag = json_string_value(json_object_get(
        json_object_get(descriptor, "annotations"), "org.opencontainers.image.ref.name"));
    const char *digest = json_string_value(json_object_get(descriptor, "digest"));
    if (!tag || !s_valid_tag(tag)) {
        bus_log_warning("image manifest without a valid tag layout=%s", layout);
        return false;
    }
    json_t *manifest = s_load_blob(layout, digest);
    if (!manifest)
        return false;
    json_t *config_descriptor = json_object_get(manifest, "config");
    json_t *config = s_load_blob(
        layout, json_string_value(json_object_get(config_descriptor, "digest")));
    bool ok = false;
    if (!config)
        goto done;
    uint64_t size =
        (uint64_t) json_integer_value(json_object_get(config_descriptor, "size"));
    size_t index;
    json_t *layer;
    json_array_foreach(json_object_get(manifest, "layers"), index, layer)
    {
        json_int_t bytes = json_integer_value(json_object_get(layer, "size"));
        if (bytes > 0)
            size += (uint64_t) bytes;
    }
    char reference[512];
    snprintf(reference, sizeof reference, "%s/%s/%s:%s", AGENT_IMAGES_REGISTRY,
             AGENT_IMAGES_PROJECT, name, tag);
    proto_image_info_init(&image->info);
    image->layout = strdup(layout);
    image->tag = strdup(tag);
    //  info owns its strings in its arena: agent_image_clear clears it.
    void **owned = &image->info.owned_;
    image->info.reference = proto_arena_strdup(owned, reference);
    image->info.architecture = proto_arena_strdup(
        owned,
        s_architecture(json_string_value(json_object_get(config, "architecture"))));
    image->info.digest = proto_arena_strdup(owned, digest);
    image->info.size_bytes = size;
    image->info.installed = true;
    if (!image->layout || !image->tag || !image->info.reference ||
        !image->info.architecture || !image->info.digest ||
        s_read_labels(config, &image->info) != 0 || s_read_env(config, image) != 0 ||
        s_read_command(config, image) != 0) {
        agent_image_clear(image);
        goto done;
    }
    ok = true;
done:
    json_decref(config);
    json_decref(manifest);
    return ok;
}

size_t
agent_images_read_layout(const char *layout,
                         const char *name,
                         agent_image_t *images,
                         size_t max)
{
    if (!s_valid_name(name)) {
        bus_log_warning("image name invalid; skipped layout=%s", layout);
        return 0;
    }
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/index.json", layout) >= (int) sizeof path)
        return 0;
    json_t *index = s_load_json(path);
    if (!index)
        return 0;
    size_t added = 0, position;
    json_t *descriptor;
    json_array_foreach(json_object_get(index, "manifests"), position, descriptor)
    {
        if (added == max || position == TAGS_PER_LAYOUT)
            break;
        if (s_read_manifest(layout, name, descriptor, &images[added]))
            added++;
    }
    json_decref(index);
    return added;
}

static int
s_compare_reference(const void *a, const void *b)
{
    return strcmp(((const agent_image_t *) a)->info.reference,
                  ((const agent_image_t *) b)->info.reference);
}

//  Reads every layout under dir into a new array (sorted by reference, so
//  the catalogue body is the same for the same images).
static agent_image_t *
s_read_dir(const char *dir, size_t *count_p)
{
    *count_p = 0;
    agent_image_t *images = calloc(IMAGES_MAX, sizeof *images);
    DIR *handle = images ? opendir(dir) : NULL;
    if (!handle)
        return images;
    size_t count = 0;
    struct dirent *entry;
    while ((entry = readdir(handle)) && count < IMAGES_MAX) {
        if (entry->d_name[0] == '.')
            continue;
        char layout[PATH_MAX];
        if (snprintf(layout, sizeof layout, "%s/%s", dir, entry->d_name) >=
            (int) sizeof layout)
            continue;
        struct stat st;
        if (stat(layout, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        count += agent_images_read_layout(layout, entry->d_name, images + count,
                                          IMAGES_MAX - count);
    }
    closedir(handle);
    qsort(images, count, sizeof *images, s_compare_reference);
    *count_p = count;
    return images;
}

static void
s_free_images(agent_image_t *images, size_t count)
{
    for (size_t index = 0; index < count; index++)
        agent_image_clear(&images[index]);
    free(images);
}

//  Emits image.catalog when its body differs from the last one emitted.
static void
s_announce(agent_images_t *self)
{
    proto_image_catalog_t catalog;
    proto_image_catalog_init(&catalog);
    catalog.agent_id = bus_node_name(self->node);
    proto_image_info_t *infos = calloc(self->count ? self->count : 1, sizeof *infos);
    bus_writer_t *writer = bus_writer_new();
    if (!infos || !writer)
        goto done;
    for (size_t index = 0; index < self->count; index++)
        infos[index] = self->images[index].info; //  borrowed, not owned
    catalog.images = infos;
    catalog.images_count = self->count;
    if (proto_image_catalog_write(&catalog, writer) != 0)
        goto done;
    if (self->announced && bus_writer_size(self->announced) == bus_writer_size(writer) &&
        memcmp(bus_writer_data(self->announced), bus_writer_data(writer),
               bus_writer_size(writer)) == 0)
        goto done;
    if (bus_node_emit(self->node, PROTO_IMAGE_CATALOG, bus_writer_data(writer),
                      bus_writer_size(writer))) {
        bus_log_notice("image catalog announced images=%zu dir=%s", self->count,
                       self->dir);
        bus_writer_destroy(&self->announced);
        self->announced = writer;
        writer = NULL;
    }
done:
    bus_writer_destroy(&writer);
    free(infos);
}

size_t
agent_images_scan(agent_images_t *self)
{
    size_t count;
    agent_image_t *images = s_read_dir(self->dir, &count);
    if (!images)
        return self->count; //  out of memory: keep what we had
    s_free_images(self->images, self->count);
    self->images = images;
    self->count = count;
    s_announce(self);
    return count;
}

int
agent_images_on_rescan(void *arg,
                       const proto_image_rescan_req_t *in,
                       proto_image_rescan_rep_t *out,
                       bus_rpc_request_t *req,
                       bus_error_t *err)
{
    (void) req;
    agent_images_t *self = arg;
    const char *me = bus_node_name(self->node);
    if (in->agent_id && *in->agent_id && strcmp(in->agent_id, me) != 0)
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                             "this is agent %s, not %s: its address changed hands", me,
                             in->agent_id);
    agent_images_scan(self);
    out->agent_id = me;
    //  The array is the reply's; the images' strings stay the scan's, which
    //  lives until the next scan.
    proto_image_info_t *infos =
        proto_arena_alloc(&out->owned_, (self->count ? self->count : 1) * sizeof *infos);
    if (!infos)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    for (size_t index = 0; index < self->count; index++)
        infos[index] = self->images[index].info; //  borrowed, not owned
    out->images = infos;
    out->images_count = self->count;
    bus_log_info("images rescanned on request images=%zu dir=%s", self->count, self->dir);
    return BUS_OK;
}

const agent_image_t *
agent_images_find(agent_images_t *self, const char *reference)
{
    for (size_t index = 0; index < self->count; index++)
        if (strcmp(self->images[index].info.reference, reference) == 0)
            return &self->images[index];
    return NULL;
}

static void
s_on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    agent_images_scan(arg);
}

agent_images_t *
agent_images_new(bus_node_t *node, const char *dir, int rescan_ms, bus_error_t *err)
{
    //  A fresh agent has no images yet: an empty catalogue, not an error.
    if (bus_mkdirs(dir) != 0) {
        bus_error_set(err, BUS_STATUS_INVALID, "agent.images_dir %s: %s", dir,
                      strerror(errno));
        return NULL;
    }
    agent_images_t *self = calloc(1, sizeof *self);
    if (!self || !(self->dir = strdup(dir))) {
        free(self);
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    agent_images_scan(self);
    if (rescan_ms > 0) {
        struct timeval tv = {rescan_ms / 1000, (rescan_ms % 1000) * 1000};
        self->timer = event_new(bus_node_base(node), -1, EV_PERSIST, s_on_timer, self);
        if (!self->timer || event_add(self->timer, &tv) != 0) {
            agent_images_destroy(&self);
            bus_error_set(err, BUS_STATUS_INTERNAL,
                          "cannot start the image rescan timer");
            return NULL;
        }
    }
    return self;
}

void
agent_images_destroy(agent_images_t **self_p)
{
    assert(self_p);
    agent_images_t *self = *self_p;
    if (self) {
        if (self->timer)
            event_free(self->timer);
        s_free_images(self->images, self->count);
        bus_writer_destroy(&self->announced);
        free(self->dir);
        free(self);
        *self_p = NULL;
    }
}
