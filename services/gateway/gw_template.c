/*  =========================================================================
    gw_template - a session template's document: YAML or JSON in, checked,
    YAML out, merged into POST /session parameters

    Templates arrive as text (the `payload` member), JSON or YAML, as
    Backend.AI's manager reads them: JSON first, else one YAML document.
    YAML is read with libyaml's event parser into jansson values under
    fixed limits (size, depth, node count) and with aliases refused, so a
    "billion laughs" document cannot expand. The checked template is kept
    normalized (Backend.AI's key names, defaults filled) as JSON text; GET
    gives it back as JSON or YAML. create-from-template turns it into
    POST /session parameters and lets the request's own parameters win.
    Pure: no I/O (gw_template_test, fuzz_template); the routes and the
    table are gw_template_api's.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#include <math.h>
#include <yaml.h>

//  ---------------------------------------------------------------------------
//  YAML in

typedef struct {
    json_t *stack[GW_TEMPLATE_MAX_DEPTH];
    char *key[GW_TEMPLATE_MAX_DEPTH]; //  a mapping's key waiting for its value
    int depth;
    size_t nodes;
    int documents;
    json_t *root;
    char *detail;
    size_t dsize;
} s_reader_t;

static bool
s_in(const char *text, const char *const *set)
{
    for (; *set; set++)
        if (strcmp(text, *set) == 0)
            return true;
    return false;
}

//  What a plain scalar means (YAML 1.1 as PyYAML's safe loader reads it,
//  less the rarely used forms: those stay strings).
static json_t *
s_plain(const char *text, size_t size)
{
    static const char *const nulls[] = {"", "~", "null", "Null", "NULL", NULL};
    static const char *const trues[] = {"true", "True", "TRUE", "yes", "Yes",
                                        "YES",  "on",   "On",   "ON",  NULL};
    static const char *const falses[] = {"false", "False", "FALSE", "no",  "No",
                                         "NO",    "off",   "Off",   "OFF", NULL};
    if (strlen(text) != size)
        return json_stringn(text, size);
    if (s_in(text, nulls))
        return json_null();
    if (s_in(text, trues))
        return json_true();
    if (s_in(text, falses))
        return json_false();
    const char *digits = text + (*text == '-' || *text == '+');
    if (*digits && strspn(digits, "0123456789") == strlen(digits)) {
        errno = 0;
        char *end;
        long long n = strtoll(text, &end, 10);
        if (errno == 0 && *end == 0)
            return json_integer((json_int_t) n);
    }
    bool numeric = strspn(text, "0123456789.eE+-") == size && strpbrk(text, "0123456789");
    if (numeric && strpbrk(text, ".eE")) {
        char *end;
        double d = strtod(text, &end);
        if (*end == 0 && isfinite(d))
            return json_real(d);
    }
    return json_stringn(text, size);
}

static int
s_fail_at(s_reader_t *self, const char *what, size_t line)
{
    snprintf(self->detail, self->dsize, "Malformed payload: %s (line %zu)", what,
             line + 1);
    return -1;
}

//  Places value (stolen) where the document is: the root, the next item of
//  a sequence, or the value of a mapping's pending key.
static int
s_place(s_reader_t *self, json_t *value)
{
    if (self->depth == 0) {
        self->root = value;
        return 0;
    }
    int top = self->depth - 1;
    json_t *parent = self->stack[top];
    if (json_is_array(parent))
        return json_array_append_new(parent, value);
    int rc = json_object_set_new(parent, self->key[top], value);
    free(self->key[top]);
    self->key[top] = NULL;
    return rc;
}

static int
s_on_event(s_reader_t *self, const yaml_event_t *event)
{
    size_t line = event->start_mark.line;
    switch (event->type) {
        case YAML_DOCUMENT_START_EVENT:
            if (++self->documents > 1)
                return s_fail_at(self, "more than one YAML document", line);
            return 0;
        case YAML_ALIAS_EVENT:
            return s_fail_at(self, "YAML aliases are not allowed", line);
        case YAML_SCALAR_EVENT:
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            if (self->depth > 0) {
                self->depth--;
                json_decref(self->stack[self->depth]);
                free(self->key[self->depth]);
                self->key[self->depth] = NULL;
            }
            return 0;
        default:
            return 0;
    }
    if (++self->nodes > GW_TEMPLATE_MAX_NODES)
        return s_fail_at(self, "too many nodes", line);
    int top = self->depth - 1;
    bool wants_key = top >= 0 && json_is_object(self->stack[top]) && !self->key[top];
    if (event->type == YAML_SCALAR_EVENT) {
        const char *text = (const char *) event->data.scalar.value;
        size_t size = event->data.scalar.length;
        if (wants_key) {
            self->key[top] = strndup(text, size);
            return self->key[top] ? 0 : -1;
        }
        const char *tag = (const char *) event->data.scalar.tag;
        bool plain = event->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
                     (!tag || strcmp(tag, "!") != 0) &&
                     (!tag || strcmp(tag, YAML_STR_TAG) != 0);
        json_t *value = plain ? s_plain(text, size) : json_stringn(text, size);
        return value ? s_place(self, value) : -1;
    }
    if (wants_key)
        return s_fail_at(self, "a mapping key must be a scalar", line);
    if (self->depth >= GW_TEMPLATE_MAX_DEPTH)
        return s_fail_at(self, "nested too deeply", line);
    json_t *container =
        event->type == YAML_MAPPING_START_EVENT ? json_object() : json_array();
    if (!container || s_place(self, json_incref(container)) != 0) {
        json_decref(container);
        return -1;
    }
    self->stack[self->depth] = container;
    self->key[self->depth++] = NULL;
    return 0;
}

static json_t *
s_parse_yaml(const char *text, size_t size, char *detail, size_t dsize)
{
    s_reader_t self = {.detail = detail, .dsize = dsize};
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        snprintf(detail, dsize, "out of memory");
        return NULL;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *) text, size);
    int rc = 0;
    bool done = false;
    while (rc == 0 && !done) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event)) {
            snprintf(detail, dsize, "Malformed payload: %s (line %zu)",
                     parser.problem ? parser.problem : "not YAML",
                     parser.problem_mark.line + 1);
            rc = -1;
            break;
        }
        done = event.type == YAML_STREAM_END_EVENT;
        rc = s_on_event(&self, &event);
        yaml_event_delete(&event);
    }
    yaml_parser_delete(&parser);
    for (int i = 0; i < GW_TEMPLATE_MAX_DEPTH; i++) {
        free(self.key[i]);
        if (i < self.depth)
            json_decref(self.stack[i]);
    }
    if (rc != 0) {
        if (!*detail)
            snprintf(detail, dsize, "Malformed payload");
        json_decref(self.root);
        return NULL;
    }
    return self.root ? self.root : json_null();
}

//  The nesting of value, counting its nodes into *nodes on the way.
static int
s_depth(json_t *value, size_t *nodes)
{
    int deepest = 0;
    size_t index;
    const char *key;
    json_t *item;
    ++*nodes;
    if (json_is_object(value)) {
        json_object_foreach(value, key, item)
        {
            int d = s_depth(item, nodes);
            deepest = d > deepest ? d : deepest;
        }
        return deepest + 1;
    }
    if (json_is_array(value)) {
        json_array_foreach(value, index, item)
        {
            int d = s_depth(item, nodes);
            deepest = d > deepest ? d : deepest;
        }
        return deepest + 1;
    }
    return 0;
}

json_t *
gw_template_parse(const char *text, size_t size, char *detail, size_t dsize)
{
    assert(text);
    *detail = 0;
    if (size > GW_TEMPLATE_MAX_BYTES) {
        snprintf(detail, dsize, "The template is too large (at most %d bytes)",
                 GW_TEMPLATE_MAX_BYTES);
        return NULL;
    }
    json_t *value = json_loadb(text, size, JSON_REJECT_DUPLICATES, NULL);
    size_t nodes = 0;
    if (value && s_depth(value, &nodes) > GW_TEMPLATE_MAX_DEPTH) {
        json_decref(value);
        snprintf(detail, dsize, "Malformed payload: nested too deeply");
        return NULL;
    }
    if (value && nodes > GW_TEMPLATE_MAX_NODES) {
        json_decref(value);
        snprintf(detail, dsize, "Malformed payload: too many nodes");
        return NULL;
    }
    return value ? value : s_parse_yaml(text, size, detail, dsize);
}

//  ---------------------------------------------------------------------------
//  The template's schema (Backend.AI's task_template_v1)

typedef struct {
    char *detail;
    size_t dsize;
} s_check_t;

static int
s_bad(s_check_t *c, const char *fmt, const char *field)
{
    snprintf(c->detail, c->dsize, fmt, field);
    return -1;
}

//  Moves the first present alias of keys to keys[0]; drops the others.
//  Returns the value (borrowed) or NULL when absent.
static json_t *
s_alias(json_t *object, const char *const *keys)
{
    json_t *found = NULL;
    for (const char *const *k = keys; *k; k++) {
        json_t *value = json_object_get(object, *k);
        if (value && !found)
            found = json_incref(value);
        if (k != keys)
            json_object_del(object, *k);
    }
    if (!found)
        return NULL;
    json_object_set_new(object, keys[0], found);
    return found;
}

//  A key that may be a string or null; absent gets default_value (NULL:
//  null). Returns -1 with detail on another type.
static int
s_opt_string(s_check_t *c, json_t *object, const char *key, const char *default_value)
{
    json_t *value = json_object_get(object, key);
    if (!value) {
        json_object_set_new(object, key,
                            default_value ? json_string(default_value) : json_null());
        return 0;
    }
    if (!json_is_null(value) && !json_is_string(value))
        return s_bad(c, "%s: a string or null", key);
    return 0;
}

static int
s_string_map(s_check_t *c, json_t *object, const char *key)
{
    json_t *map = json_object_get(object, key);
    if (!map) {
        json_object_set_new(object, key, json_object());
        return 0;
    }
    if (json_is_null(map))
        return 0;
    if (!json_is_object(map))
        return s_bad(c, "%s: a mapping of strings", key);
    const char *k;
    json_t *v;
    json_object_foreach(map, k, v)
    {
        if (!json_is_string(v))
            return s_bad(c, "%s: a mapping of strings", key);
    }
    return 0;
}

//  A mount path: relative to /home/work or beneath it, with no empty, "."
//  or ".." component, so no folder lands outside the user's home.
static bool
s_mount_path_ok(json_t *value)
{
    const char *path = json_string_value(value);
    if (!path || strlen(path) != json_string_length(value) ||
        strlen(path) > GW_TEMPLATE_PATH_MAX)
        return false;
    if (*path == '/') {
        if (strncmp(path, "/home/work/", 11) != 0)
            return false;
        path += 11;
    }
    if (!*path)
        return false;
    while (*path) {
        size_t n = strcspn(path, "/");
        if (n == 0 || (n == 1 && path[0] == '.') ||
            (n == 2 && path[0] == '.' && path[1] == '.'))
            return false;
        path += n;
        if (*path == '/' && !*++path)
            return false;
    }
    return true;
}

static int
s_check_kernel(s_check_t *c, json_t *kernel)
{
    static const char *const k_startup[] = {"startup_command", "startup",
                                            "startupCommand", NULL};
    static const char *const k_dest[] = {"dest_dir", "destination_dir", "destinationDir",
                                         NULL};
    if (!json_is_object(kernel))
        return s_bad(c, "%s: a mapping", "spec.kernel");
    json_t *image = json_object_get(kernel, "image");
    if (!json_is_string(image) || !*json_string_value(image))
        return s_bad(c, "%s is required", "spec.kernel.image");
    if (s_opt_string(c, kernel, "architecture", "x86_64") ||
        s_string_map(c, kernel, "environ"))
        return -1;
    json_t *run = json_object_get(kernel, "run");
    if (!run)
        json_object_set_new(kernel, "run", json_null());
    else if (!json_is_null(run)) {
        if (!json_is_object(run))
            return s_bad(c, "%s: a mapping or null", "spec.kernel.run");
        s_alias(run, k_startup);
        if (s_opt_string(c, run, "bootstrap", NULL) ||
            s_opt_string(c, run, "startup_command", NULL))
            return -1;
    }
    json_t *git = json_object_get(kernel, "git");
    if (!git)
        json_object_set_new(kernel, "git", json_null());
    else if (!json_is_null(git)) {
        if (!json_is_object(git) || !json_is_string(json_object_get(git, "repository")))
            return s_bad(c, "%s: a mapping with a repository", "spec.kernel.git");
        s_alias(git, k_dest);
        if (s_opt_string(c, git, "commit", NULL) ||
            s_opt_string(c, git, "branch", NULL) ||
            s_opt_string(c, git, "dest_dir", NULL))
            return -1;
        json_t *credential = json_object_get(git, "credential");
        if (credential && !json_is_null(credential) &&
            (!json_is_string(json_object_get(credential, "username")) ||
             !json_is_string(json_object_get(credential, "password"))))
            return s_bad(c, "%s: username and password", "spec.kernel.git.credential");
    }
    return 0;
}

static int
s_check_spec(s_check_t *c, json_t *spec)
{
    static const char *const k_type[] = {"session_type", "type", "sessionType", NULL};
    static const char *const k_agents[] = {"agent_list", "agentList", NULL};
    if (!json_is_object(spec))
        return s_bad(c, "%s: a mapping", "spec");
    json_t *type = s_alias(spec, k_type);
    if (!type)
        json_object_set_new(spec, "session_type", json_string("interactive"));
    else if (!json_is_string(type) ||
             (strcmp(json_string_value(type), "interactive") != 0 &&
              strcmp(json_string_value(type), "batch") != 0))
        return s_bad(c, "%s: interactive or batch", "spec.session_type");
    if (s_check_kernel(c, json_object_get(spec, "kernel")) ||
        s_opt_string(c, spec, "scaling_group", NULL))
        return -1;
    json_t *mounts = json_object_get(spec, "mounts");
    if (!mounts)
        json_object_set_new(spec, "mounts", json_object());
    else if (!json_is_null(mounts)) {
        if (!json_is_object(mounts))
            return s_bad(c, "%s: a mapping of folder names to paths", "spec.mounts");
        const char *name;
        json_t *path;
        json_object_foreach(mounts, name, path)
        {
            if (!*name)
                return s_bad(c, "%s: an empty folder name", "spec.mounts");
            if (!json_is_null(path) && !s_mount_path_ok(path))
                return s_bad(c, "%s: a path must be relative to /home/work or beneath it",
                             "spec.mounts");
        }
    }
    json_t *resources = json_object_get(spec, "resources");
    if (!resources)
        json_object_set_new(spec, "resources", json_null());
    else if (!json_is_null(resources) && !json_is_object(resources))
        return s_bad(c, "%s: a mapping", "spec.resources");
    json_t *agents = s_alias(spec, k_agents);
    if (!agents)
        json_object_set_new(spec, "agent_list", json_null());
    else if (!json_is_null(agents)) {
        size_t index;
        json_t *item;
        if (!json_is_array(agents))
            return s_bad(c, "%s: a list of agent ids", "spec.agent_list");
        json_array_foreach(agents, index, item)
        {
            if (!json_is_string(item))
                return s_bad(c, "%s: a list of agent ids", "spec.agent_list");
        }
    }
    return 0;
}

json_t *
gw_template_check(json_t *document, char *detail, size_t dsize)
{
    static const char *const k_version[] = {"api_version", "apiVersion", NULL};
    s_check_t c = {detail, dsize};
    if (!json_is_object(document)) {
        snprintf(detail, dsize, "The template must be a mapping");
        return NULL;
    }
    json_t *out = json_deep_copy(document);
    if (!out) {
        snprintf(detail, dsize, "out of memory");
        return NULL;
    }
    json_t *kind = json_object_get(out, "kind");
    json_t *metadata = json_object_get(out, "metadata");
    json_t *name = json_object_get(metadata, "name");
    int rc = 0;
    if (!json_is_string(s_alias(out, k_version)))
        rc = s_bad(&c, "%s: a string is required", "api_version");
    else if (!json_is_string(kind) ||
             (strcmp(json_string_value(kind), "taskTemplate") != 0 &&
              strcmp(json_string_value(kind), "task_template") != 0))
        rc = s_bad(&c, "%s: taskTemplate", "kind");
    else if (!json_is_object(metadata))
        rc = s_bad(&c, "%s: a mapping", "metadata");
    else if (!json_is_string(name) || !*json_string_value(name) ||
             json_string_length(name) > GW_TEMPLATE_NAME_MAX)
        rc = s_bad(&c, "%s: a string of 1-128 characters is required", "metadata.name");
    else if (s_opt_string(&c, metadata, "tag", NULL) ||
             s_check_spec(&c, json_object_get(out, "spec")))
        rc = -1;
    if (rc != 0)
        json_decref(out);
    return rc == 0 ? out : NULL;
}

//  ---------------------------------------------------------------------------
//  YAML out

static int
s_emit(yaml_emitter_t *emitter, yaml_event_t *event)
{
    return yaml_emitter_emit(emitter, event) ? 0 : -1;
}

static int
s_emit_scalar(yaml_emitter_t *emitter, const char *text, size_t size, bool quote)
{
    yaml_event_t event;
    if (!yaml_scalar_event_initialize(
            &event, NULL, NULL, (yaml_char_t *) text, (int) size, 1, 1,
            quote ? YAML_SINGLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE))
        return -1;
    return s_emit(emitter, &event);
}

static int
s_emit_value(yaml_emitter_t *emitter, json_t *value)
{
    yaml_event_t event;
    char text[64];
    switch (json_typeof(value)) {
        case JSON_OBJECT: {
            const char *key;
            json_t *item;
            if (!yaml_mapping_start_event_initialize(&event, NULL, NULL, 1,
                                                     YAML_ANY_MAPPING_STYLE) ||
                s_emit(emitter, &event))
                return -1;
            json_object_foreach(value, key, item)
            {
                json_t *parsed = s_plain(key, strlen(key));
                bool quote = !json_is_string(parsed);
                json_decref(parsed);
                if (s_emit_scalar(emitter, key, strlen(key), quote) ||
                    s_emit_value(emitter, item))
                    return -1;
            }
            return yaml_mapping_end_event_initialize(&event) ? s_emit(emitter, &event)
                                                             : -1;
        }
        case JSON_ARRAY: {
            size_t index;
            json_t *item;
            if (!yaml_sequence_start_event_initialize(&event, NULL, NULL, 1,
                                                      YAML_ANY_SEQUENCE_STYLE) ||
                s_emit(emitter, &event))
                return -1;
            json_array_foreach(value, index, item)
            {
                if (s_emit_value(emitter, item))
                    return -1;
            }
            return yaml_sequence_end_event_initialize(&event) ? s_emit(emitter, &event)
                                                              : -1;
        }
        case JSON_STRING: {
            const char *s = json_string_value(value);
            size_t size = json_string_length(value);
            json_t *parsed = s_plain(s, size);
            bool quote = !json_is_string(parsed);
            json_decref(parsed);
            return s_emit_scalar(emitter, s, size, quote);
        }
        case JSON_INTEGER:
            snprintf(text, sizeof text, "%" JSON_INTEGER_FORMAT,
                     json_integer_value(value));
            break;
        case JSON_REAL:
            snprintf(text, sizeof text, "%.17g", json_real_value(value));
            if (!strpbrk(text, ".eE"))
                strcat(text, ".0");
            break;
        case JSON_TRUE:
            snprintf(text, sizeof text, "true");
            break;
        case JSON_FALSE:
            snprintf(text, sizeof text, "false");
            break;
        default:
            snprintf(text, sizeof text, "null");
            break;
    }
    return s_emit_scalar(emitter, text, strlen(text), false);
}

char *
gw_template_yaml(json_t *value)
{
    char *text = NULL;
    size_t size = 0;
    FILE *stream = open_memstream(&text, &size);
    if (!stream)
        return NULL;
    yaml_emitter_t emitter;
    yaml_event_t event;
    int rc = yaml_emitter_initialize(&emitter) ? 0 : -1;
    if (rc == 0) {
        yaml_emitter_set_output_file(&emitter, stream);
        yaml_emitter_set_unicode(&emitter, 1);
        rc = yaml_stream_start_event_initialize(&event, YAML_UTF8_ENCODING)
                 ? s_emit(&emitter, &event)
                 : -1;
        if (rc == 0)
            rc = yaml_document_start_event_initialize(&event, NULL, NULL, NULL, 1)
                     ? s_emit(&emitter, &event)
                     : -1;
        if (rc == 0)
            rc = s_emit_value(&emitter, value);
        if (rc == 0)
            rc = yaml_document_end_event_initialize(&event, 1) ? s_emit(&emitter, &event)
                                                               : -1;
        if (rc == 0)
            rc = yaml_stream_end_event_initialize(&event) ? s_emit(&emitter, &event) : -1;
        yaml_emitter_delete(&emitter);
    }
    fclose(stream);
    if (rc != 0) {
        free(text);
        return NULL;
    }
    return text;
}

//  ---------------------------------------------------------------------------
//  Template → POST /session parameters

//  Names of one parameter (gw_session.c reads the first present).
static const char *const *const s_param_aliases[] = {
    (const char *const[]){"name", "session_name", "clientSessionToken", NULL},
    (const char *const[]){"image", "lang", NULL},
    (const char *const[]){"arch", "architecture", NULL},
    (const char *const[]){"type", "sessionType", NULL},
    (const char *const[]){"group", "groupName", "group_name", NULL},
    (const char *const[]){"domain", "domainName", "domain_name", NULL},
    (const char *const[]){"startupCommand", "startup_command", NULL},
    (const char *const[]){"bootstrap_script", "bootstrapScript", NULL},
    (const char *const[]){"cluster_size", "clusterSize", NULL},
    (const char *const[]){"cluster_mode", "clusterMode", NULL},
    (const char *const[]){"batch_timeout", "batchTimeout", NULL},
    (const char *const[]){"starts_at", "startsAt", NULL},
    (const char *const[]){"callback_url", "callbackUrl", "callbackURL", NULL},
    NULL};
static const char *const *const s_config_aliases[] = {
    (const char *const[]){"mount_map", "mountMap", NULL},
    (const char *const[]){"mount_options", "mountOptions", NULL},
    (const char *const[]){"scaling_group", "scalingGroup", NULL},
    (const char *const[]){"resource_opts", "resourceOpts", NULL},
    (const char *const[]){"preopen_ports", "preopenPorts", NULL},
    (const char *const[]){"agent_list", "agentList", NULL},
    NULL};

//  Sets key to value (borrowed) in object after removing the key's other
//  names.
static void
s_override(json_t *object,
           const char *const *const *aliases,
           const char *key,
           json_t *value)
{
    for (const char *const *const *group = aliases; *group; group++) {
        if (!s_in(key, *group))
            continue;
        for (const char *const *k = *group; *k; k++)
            json_object_del(object, *k);
    }
    json_object_set(object, key, value);
}

json_t *
gw_template_merge(json_t *template_doc, const char *group_name, json_t *overrides)
{
    json_t *spec = json_object_get(template_doc, "spec");
    json_t *kernel = json_object_get(spec, "kernel");
    json_t *run = json_object_get(kernel, "run");
    json_t *params = json_object(), *config = json_object();
    json_object_set(params, "image", json_object_get(kernel, "image"));
    if (json_is_string(json_object_get(kernel, "architecture")))
        json_object_set(params, "architecture", json_object_get(kernel, "architecture"));
    json_object_set(params, "type", json_object_get(spec, "session_type"));
    json_t *tag = json_object_get(json_object_get(template_doc, "metadata"), "tag");
    if (json_is_string(tag))
        json_object_set(params, "tag", tag);
    json_t *bootstrap = json_object_get(run, "bootstrap");
    if (json_string_length(bootstrap) > 0)
        json_object_set(params, "bootstrap_script", bootstrap);
    json_t *startup = json_object_get(run, "startup_command");
    if (json_string_length(startup) > 0)
        json_object_set(params, "startupCommand", startup);
    if (group_name)
        json_object_set_new(params, "group", json_string(group_name));
    if (json_is_string(json_object_get(spec, "scaling_group")))
        json_object_set(config, "scaling_group", json_object_get(spec, "scaling_group"));
    json_t *mounts = json_object_get(spec, "mounts");
    if (json_object_size(mounts) > 0) {
        json_t *names = json_array(), *map = json_object();
        const char *name;
        json_t *path;
        json_object_foreach(mounts, name, path)
        {
            json_array_append_new(names, json_string(name));
            if (json_string_length(path) > 0)
                json_object_set(map, name, path);
        }
        json_object_set_new(config, "mounts", names);
        json_object_set_new(config, "mount_map", map);
    }
    json_t *env = json_object_get(kernel, "environ");
    if (json_object_size(env) > 0)
        json_object_set(config, "environ", env);
    json_t *resources = json_object_get(spec, "resources");
    if (json_object_size(resources) > 0)
        json_object_set(config, "resources", resources);
    if (json_is_array(json_object_get(spec, "agent_list")))
        json_object_set(config, "agent_list", json_object_get(spec, "agent_list"));
    const char *key;
    json_t *value;
    json_object_foreach(overrides, key, value)
    {
        if (json_is_null(value) || strcmp(key, "template_id") == 0 ||
            strcmp(key, "config") == 0)
            continue;
        s_override(params, s_param_aliases, key, value);
    }
    //  A list of folders replaces the template's, their paths included.
    json_t *list = json_object_get(json_object_get(overrides, "config"), "mounts");
    if (list && !json_is_null(list)) {
        json_object_del(config, "mounts");
        json_object_del(config, "mount_map");
    }
    json_object_foreach(json_object_get(overrides, "config"), key, value)
    {
        if (!json_is_null(value))
            s_override(config, s_config_aliases, key, value);
    }
    json_object_set_new(params, "config", config);
    return params;
}
