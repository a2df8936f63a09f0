/*  =========================================================================
    gw_image_ref - image references, labels and resolution, pure

    What a client's image name means, without the database: references
    parsed as Backend.AI's ImageRef (reference §11), architecture names,
    the registries a domain allows, the resource limits and type an image's
    labels give, and the core of resolution (a reference first, then an
    alias, then the registry check) over lookup functions the caller
    passes. gw_image puts the catalogue behind those functions.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define LABEL_MIN   "ai.backend.resource.min."
#define LABEL_MAX   "ai.backend.resource.max."
#define LABEL_ROLE  "ai.backend.role"
#define DEFAULT_CPU "1"
#define DEFAULT_MEM "1073741824" //  1g, reference §8
#define BYTES_MAX   (UINT64_C(1) << 62)

//  ---------------------------------------------------------------------------
//  References and architectures (pure)

//  A path component as Docker accepts it: lower-case letters and digits,
//  separated by single '.', '_' or '-' (and "__").
static bool
s_valid_component(const char *s, size_t n)
{
    if (n == 0 || !(islower((unsigned char) s[0]) || isdigit((unsigned char) s[0])) ||
        !(islower((unsigned char) s[n - 1]) || isdigit((unsigned char) s[n - 1])))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!islower((unsigned char) s[i]) && !isdigit((unsigned char) s[i]) &&
            !strchr("._-", s[i]))
            return false;
    return true;
}

static bool
s_valid_path(const char *path)
{
    const char *p = path;
    for (;;) {
        size_t n = strcspn(p, "/");
        if (!s_valid_component(p, n))
            return false;
        if (!p[n])
            return true;
        p += n + 1;
    }
}

static bool
s_valid_tag(const char *tag)
{
    size_t n = strlen(tag);
    if (n == 0 || n >= GW_IMAGE_TAG_MAX || tag[0] == '.' || tag[0] == '-')
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char) tag[i]) && !strchr("_.-", tag[i]))
            return false;
    return true;
}

static bool
s_valid_registry(const char *s, size_t n)
{
    if (n == 0 || n >= GW_IMAGE_REGISTRY_MAX || s[0] == '.' || s[0] == '-' || s[0] == ':')
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char) s[i]) && !strchr(".-:", s[i]))
            return false;
    return true;
}

int
gw_image_ref_parse(const char *text, gw_image_ref_t *out)
{
    assert(out);
    memset(out, 0, sizeof *out);
    if (!text || !*text || strlen(text) >= GW_IMAGE_REF_MAX || strstr(text, "://") ||
        text[0] == '/' || strchr(text, '@'))
        return -1;
    //  Split off the registry: a first component with a dot or a colon, or
    //  "localhost". Anything else is a path on the default registry.
    const char *rest = text;
    size_t first = strcspn(text, "/");
    bool docker_hub = true;
    if (text[first] == '/' && (memchr(text, '.', first) || memchr(text, ':', first) ||
                               (first == 9 && strncmp(text, "localhost", 9) == 0))) {
        if (!s_valid_registry(text, first))
            return -1;
        snprintf(out->registry, sizeof out->registry, "%.*s", (int) first, text);
        rest = text + first + 1;
        if (strcmp(out->registry, "docker.io") == 0)
            snprintf(out->registry, sizeof out->registry, GW_IMAGE_DEFAULT_REGISTRY);
        size_t len = strlen(out->registry);
        docker_hub = strcmp(out->registry, "docker.io") == 0 ||
                     (len > 10 && strcmp(out->registry + len - 10, ".docker.io") == 0);
    } else
        snprintf(out->registry, sizeof out->registry, GW_IMAGE_DEFAULT_REGISTRY);
    //  The tag follows the last colon, which must come after the last slash.
    const char *colon = strrchr(rest, ':');
    const char *slash = strrchr(rest, '/');
    char path[GW_IMAGE_REF_MAX];
    if (colon && (!slash || colon > slash)) {
        snprintf(path, sizeof path, "%.*s", (int) (colon - rest), rest);
        if (!s_valid_tag(colon + 1))
            return -1;
        snprintf(out->tag, sizeof out->tag, "%s", colon + 1);
    } else if (colon)
        return -1;
    else {
        snprintf(path, sizeof path, "%s", rest);
        snprintf(out->tag, sizeof out->tag, GW_IMAGE_DEFAULT_TAG);
    }
    if (!s_valid_path(path))
        return -1;
    int n = snprintf(out->path, sizeof out->path, "%s%s",
                     docker_hub && !strchr(path, '/') ? "library/" : "", path);
    if (n < 0 || (size_t) n >= sizeof out->path)
        return -1;
    if (strchr(out->path, '/'))
        snprintf(out->project, sizeof out->project, "%.*s", (int) strcspn(out->path, "/"),
                 out->path);
    n = snprintf(out->canonical, sizeof out->canonical, "%s/%s:%s", out->registry,
                 out->path, out->tag);
    return n > 0 && (size_t) n < sizeof out->canonical ? 0 : -1;
}

int
gw_image_arch(const char *name, char out[GW_IMAGE_ARCH_MAX])
{
    static const char *const aliases[][2] = {{"amd64", "x86_64"},
                                             {"x64", "x86_64"},
                                             {"x86-64", "x86_64"},
                                             {"arm64", "aarch64"}};
    if (!name)
        name = GW_IMAGE_DEFAULT_ARCH;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(name, aliases[i][0]) == 0) {
            snprintf(out, GW_IMAGE_ARCH_MAX, "%s", aliases[i][1]);
            return 0;
        }
    size_t n = strlen(name);
    if (n == 0 || n >= GW_IMAGE_ARCH_MAX)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!islower((unsigned char) name[i]) && !isdigit((unsigned char) name[i]) &&
            name[i] != '_')
            return -1;
    snprintf(out, GW_IMAGE_ARCH_MAX, "%s", name);
    return 0;
}

bool
gw_image_registry_allowed(const json_t *allowed, const char *registry)
{
    size_t index;
    json_t *item;
    json_array_foreach(allowed, index, item)
    {
        const char *name = json_string_value(item);
        if (name && registry && strcmp(name, registry) == 0)
            return true;
    }
    return false;
}

//  ---------------------------------------------------------------------------
//  Labels (pure)

//  "256m", "1g", "1.5GiB", "1073741824" as a decimal string of bytes.
static bool
s_bytes(const char *text, char out[32])
{
    char *end;
    errno = 0;
    if (!text || !(isdigit((unsigned char) *text) || *text == '.'))
        return false;
    double value = strtod(text, &end);
    if (errno || end == text || value < 0)
        return false;
    static const char units[] = "kmgtpe";
    const char *unit = *end ? strchr(units, tolower((unsigned char) *end)) : NULL;
    if (*end && !unit)
        return false;
    if (unit) {
        for (const char *u = units; u <= unit; u++)
            value *= 1024;
        end++;
        char ending[8] = "";
        size_t n = strlen(end);
        if (n >= sizeof ending)
            return false;
        for (size_t i = 0; i <= n; i++)
            ending[i] = (char) tolower((unsigned char) end[i]);
        if (*ending && strcmp(ending, "b") != 0 && strcmp(ending, "ib") != 0 &&
            strcmp(ending, "bytes") != 0 && strcmp(ending, "ibytes") != 0)
            return false;
    }
    if (value >= (double) BYTES_MAX)
        return false;
    snprintf(out, 32, "%" PRIu64, (uint64_t) value);
    return true;
}

//  A non-negative decimal ("1", "0.5") as it is.
static bool
s_decimal(const char *text, char out[32])
{
    size_t n = text ? strlen(text) : 0;
    if (n == 0 || n >= 32 || text[0] == '.' || text[n - 1] == '.')
        return false;
    int dots = 0;
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '.')
            dots++;
        else if (!isdigit((unsigned char) text[i]))
            return false;
    }
    if (dots > 1)
        return false;
    snprintf(out, 32, "%s", text);
    return true;
}

//  Sets {min|max} of slot in resources from one label value.
static void
s_limit(json_t *resources, const char *slot, const char *bound, const char *value)
{
    char number[32];
    bool bytes = strcmp(slot, "mem") == 0 || strcmp(slot, "shmem") == 0;
    if (!*slot || !(bytes ? s_bytes(value, number) : s_decimal(value, number))) {
        bus_log_warning("image label ignored slot=%s value=\"%s\"", slot,
                        value ? value : "");
        return;
    }
    json_t *entry = json_object_get(resources, slot);
    if (!entry) {
        entry = json_pack("{s:n, s:n}", "min", "max");
        json_object_set_new(resources, slot, entry);
    }
    json_object_set_new(entry, bound, json_string(number));
}

json_t *
gw_image_resources(const json_t *labels)
{
    json_t *resources = json_object();
    const char *key;
    json_t *value;
    json_object_foreach((json_t *) labels, key, value)
    {
        if (strncmp(key, LABEL_MIN, strlen(LABEL_MIN)) == 0)
            s_limit(resources, key + strlen(LABEL_MIN), "min", json_string_value(value));
        else if (strncmp(key, LABEL_MAX, strlen(LABEL_MAX)) == 0)
            s_limit(resources, key + strlen(LABEL_MAX), "max", json_string_value(value));
    }
    const char *defaults[][2] = {{"cpu", DEFAULT_CPU}, {"mem", DEFAULT_MEM}};
    for (size_t i = 0; i < 2; i++) {
        json_t *entry = json_object_get(resources, defaults[i][0]);
        if (!entry)
            json_object_set_new(resources, defaults[i][0],
                                json_pack("{s:s, s:n}", "min", defaults[i][1], "max"));
        else if (json_is_null(json_object_get(entry, "min")))
            json_object_set_new(entry, "min", json_string(defaults[i][1]));
    }
    return resources;
}

const char *
gw_image_type(const json_t *labels)
{
    const char *role = json_string_value(json_object_get(labels, LABEL_ROLE));
    if (role && (strcmp(role, "INFERENCE") == 0 || strcmp(role, "SYSTEM") == 0))
        return role;
    return "COMPUTE";
}

//  ---------------------------------------------------------------------------
//  Resolution (pure core)

int
gw_image_resolve_with(gw_image_lookup_fn *lookup,
                      gw_image_alias_fn *alias,
                      void *arg,
                      const json_t *allowed,
                      const char *name,
                      const char *arch,
                      json_t **image,
                      bus_error_t *err)
{
    assert(lookup && alias && image);
    *image = NULL;
    char architecture[GW_IMAGE_ARCH_MAX];
    if (gw_image_arch(arch, architecture) != 0)
        return bus_error_set(err, BUS_STATUS_INVALID, "malformed architecture");
    if (!name || !*name)
        return bus_error_set(err, BUS_STATUS_INVALID, "an image name is required");
    json_t *found = NULL;
    gw_image_ref_t ref;
    if (gw_image_ref_parse(name, &ref) == 0)
        found = lookup(arg, ref.canonical, architecture);
    if (!found) {
        char *target = alias(arg, name);
        if (target)
            found = lookup(arg, target, architecture);
        free(target);
    }
    if (found && allowed &&
        !gw_image_registry_allowed(
            allowed, json_string_value(json_object_get(found, "registry")))) {
        json_decref(found);
        found = NULL;
    }
    if (!found)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, GW_IMAGE_NOT_FOUND);
    *image = found;
    return BUS_OK;
}
