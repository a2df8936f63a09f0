/*  =========================================================================
    gw_template - session templates: /template/session and
    /session/_/create-from-template

    Templates arrive as text (the `payload` member), JSON or YAML, as
    Backend.AI's manager reads them: JSON first, else one YAML document.
    YAML is read with libyaml's event parser into jansson values under
    fixed limits (size, depth, node count) and with aliases refused, so a
    "billion laughs" document cannot expand. The checked template is kept
    normalized (Backend.AI's key names, defaults filled) as JSON text; GET
    gives it back as JSON or YAML. create-from-template turns it into
    POST /session parameters, lets the request's own parameters win, and
    runs gw_session_handle_create with them.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#include <math.h>
#include <yaml.h>

#define TEMPLATE_COLUMNS                                                                 \
    "t.id, t.created_at, t.domain_name, t.group_id, t.user_uuid, t.type, t.name,"        \
    " t.template, u.email AS user_email, g.name AS group_name"
#define TEMPLATE_FROM                                                                    \
    " FROM session_templates t LEFT JOIN users u ON u.uuid = t.user_uuid"                \
    " LEFT JOIN groups g ON g.id = t.group_id"

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

//  ---------------------------------------------------------------------------
//  The table

//  The template id from the path: Backend.AI's 32 hex digits, or the same
//  uuid with dashes. false when it cannot be one.
static bool
s_template_id(const char *text, char out[33])
{
    size_t n = 0;
    for (; text && *text; text++) {
        if (*text == '-')
            continue;
        if (!isxdigit((unsigned char) *text) || n >= 32)
            return false;
        out[n++] = (char) tolower((unsigned char) *text);
    }
    out[n] = 0;
    return n == 32;
}

//  The active task template id, if who may read it (its owner, a member of
//  its project, an admin of its domain, a superadmin). Replies (404) and
//  returns NULL otherwise. Caller owns return value.
static json_t *
s_load(gw_request_t *r, const char *id_text, bool *may_write)
{
    char id[33];
    bool failed = false;
    json_t *row = NULL;
    if (s_template_id(id_text, id)) {
        const char *params[] = {id, r->who.user_uuid, NULL};
        row = gw_store_one(
            gw_server_db(r->gw),
            "SELECT " TEMPLATE_COLUMNS
            ", EXISTS (SELECT 1 FROM association_groups_users a"
            " WHERE a.group_id = t.group_id AND a.user_id = ?2) AS member" TEMPLATE_FROM
            " WHERE t.id = ?1 AND t.is_active AND t.type = 'task'",
            params, NULL, &failed);
    }
    if (failed) {
        gw_reply_problem(r, "internal-server-error", "database error");
        return NULL;
    }
    const char *owner = json_string_value(json_object_get(row, "user_uuid"));
    const char *domain = json_string_value(json_object_get(row, "domain_name"));
    bool owns = owner && strcmp(owner, r->who.user_uuid) == 0;
    bool admin = domain && gw_identity_admins_domain(&r->who, domain);
    bool member = json_integer_value(json_object_get(row, "member")) != 0;
    if (!row || !(owns || admin || member)) {
        json_decref(row);
        gw_reply_problem(r, "task-template-not-found", "Task template not found.");
        return NULL;
    }
    if (may_write)
        *may_write = owns || admin;
    return row;
}

//  The payload member, parsed and checked. Replies and returns NULL on bad
//  input. Caller owns return value.
static json_t *
s_payload(gw_request_t *r)
{
    char detail[256] = "";
    json_t *payload = json_object_get(r->params, "payload");
    if (!json_is_string(payload)) {
        gw_reply_problem(r, "invalid-api-params", "payload: a string is required");
        return NULL;
    }
    json_t *document = gw_template_parse(
        json_string_value(payload), json_string_length(payload), detail, sizeof detail);
    json_t *checked =
        document ? gw_template_check(document, detail, sizeof detail) : NULL;
    json_decref(document);
    if (!checked)
        gw_reply_problem(r, "invalid-api-params", detail);
    return checked;
}

static const char *
s_first_string(json_t *params, const char *const *keys)
{
    for (; *keys; keys++) {
        const char *value = json_string_value(json_object_get(params, *keys));
        if (value)
            return value;
    }
    return NULL;
}

void
gw_template_handle_create(gw_request_t *r)
{
    static const char *const k_group[] = {"group", "groupName", "group_name", NULL};
    static const char *const k_domain[] = {"domain", "domainName", "domain_name", NULL};
    const char *domain = s_first_string(r->params, k_domain);
    if (domain && strcmp(domain, r->who.domain) != 0) {
        gw_reply_problem(r, "generic-forbidden",
                         "A template belongs to its owner's domain.");
        return;
    }
    const char *group = s_first_string(r->params, k_group);
    bus_error_t err = {0};
    char project_id[GW_UUID_SIZE];
    json_t *names = NULL;
    if (gw_sgroup_usable(gw_request_ctx(r), group ? group : "default", project_id, &names,
                         &err) != BUS_OK) {
        gw_reply_problem(r,
                         err.status == BUS_STATUS_NOT_FOUND ? "invalid-api-params"
                                                            : "internal-server-error",
                         err.detail);
        return;
    }
    json_decref(names);
    json_t *tpl = s_payload(r);
    if (!tpl)
        return;
    char uuid[GW_UUID_SIZE], id[33], now[40];
    gw_uuid_new(uuid);
    s_template_id(uuid, id);
    gw_now_iso(now);
    char *text = json_dumps(tpl, JSON_COMPACT);
    sqlite3_stmt *stmt =
        text ? bus_db_stmt(gw_server_db(r->gw),
                           "INSERT INTO session_templates (id, created_at,"
                           " domain_name, group_id, user_uuid, type, name,"
                           " template) VALUES (?1, ?2, ?3, ?4, ?5, 'task',"
                           " ?6, ?7)")
             : NULL;
    int rc = BUS_STATUS_INTERNAL;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 2, now, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 3, r->who.domain, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 4, project_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 5, r->who.user_uuid, -1, SQLITE_STATIC);
        sqlite3_bind_text(
            stmt, 6,
            json_string_value(json_object_get(json_object_get(tpl, "metadata"), "name")),
            -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 7, text, -1, SQLITE_STATIC);
        rc = gw_store_step(gw_server_db(r->gw), stmt, &err);
        sqlite3_clear_bindings(stmt);
    }
    free(text);
    json_decref(tpl);
    if (rc != BUS_OK) {
        gw_reply_problem(r, "internal-server-error", "database error");
        return;
    }
    bus_log_info("session template created id=%s user=%s", id, r->who.user_uuid);
    gw_reply_json(r, 200, json_pack("{s:s, s:s}", "id", id, "user", r->who.user_uuid));
}

static json_t *
s_entry(gw_request_t *r, json_t *row, bool is_owner)
{
    json_t *tpl =
        json_loads(json_string_value(json_object_get(row, "template")), 0, NULL);
    return json_pack(
        "{s:O, s:O, s:O, s:b, s:O, s:O, s:O, s:O, s:s, s:O, s:o}", "name",
        json_object_get(row, "name"), "id", json_object_get(row, "id"), "created_at",
        json_object_get(row, "created_at"), "is_owner", is_owner, "user",
        json_object_get(row, "user_uuid"), "group", json_object_get(row, "group_id"),
        "user_email", json_object_get(row, "user_email"), "group_name",
        json_object_get(row, "group_name"), "domain_name", r->who.domain, "type",
        json_object_get(row, "type"), "template", tpl ? tpl : json_null());
}

void
gw_template_handle_list(gw_request_t *r)
{
    json_t *all = json_object_get(r->params, "all");
    bool list_all =
        json_is_true(all) ||
        (json_is_string(all) && (strcasecmp(json_string_value(all), "true") == 0 ||
                                 strcmp(json_string_value(all), "1") == 0));
    static const char *const k_group[] = {"group_id", "groupId", NULL};
    const char *group = s_first_string(r->params, k_group);
    bool super = gw_identity_is_superadmin(&r->who);
    const char *params[] = {r->who.user_uuid,
                            r->who.domain,
                            group ? group : "",
                            super && list_all ? "1" : "0",
                            r->who.role == GW_ROLE_ADMIN ? "1" : "0",
                            NULL};
    //  Everything (a superadmin's ?all=true); else the caller's own and, as
    //  Backend.AI's query_accessible_session_templates, those of its projects
    //  (of every project of its domain for a domain admin).
    json_t *rows = gw_store_rows(
        gw_server_db(r->gw),
        "SELECT " TEMPLATE_COLUMNS TEMPLATE_FROM
        " WHERE t.is_active AND t.type = 'task' AND (?3 = '' OR t.group_id = ?3) AND"
        " (?4 = '1' OR t.user_uuid = ?1 OR (?5 = '1' AND g.domain_name = ?2) OR"
        " t.group_id IN (SELECT group_id FROM association_groups_users WHERE user_id = "
        "?1))"
        " ORDER BY t.created_at, t.id",
        params, NULL);
    if (!rows) {
        gw_reply_problem(r, "internal-server-error", "database error");
        return;
    }
    json_t *list = json_array();
    size_t index;
    json_t *row;
    json_array_foreach(rows, index, row)
    {
        const char *owner = json_string_value(json_object_get(row, "user_uuid"));
        bool is_owner = (owner && strcmp(owner, r->who.user_uuid) == 0) ||
                        r->who.role == GW_ROLE_ADMIN;
        json_array_append_new(list, s_entry(r, row, is_owner));
    }
    json_decref(rows);
    gw_reply_json(r, 200, list);
}

void
gw_template_handle_get(gw_request_t *r)
{
    const char *format = json_string_value(json_object_get(r->params, "format"));
    if (format && strcmp(format, "yaml") != 0 && strcmp(format, "json") != 0) {
        gw_reply_problem(r, "invalid-api-params",
                         "format should be \"yaml\" or \"json\"");
        return;
    }
    json_t *row = s_load(r, gw_request_path_param(r, "template_id"), NULL);
    if (!row)
        return;
    json_t *tpl =
        json_loads(json_string_value(json_object_get(row, "template")), 0, NULL);
    json_decref(row);
    if (!tpl) {
        bus_log_error("session template unreadable id=%s",
                      gw_request_path_param(r, "template_id"));
        gw_reply_problem(r, "internal-server-error", "the stored template is unreadable");
        return;
    }
    if (format && strcmp(format, "yaml") == 0) {
        char *text = gw_template_yaml(tpl);
        json_decref(tpl);
        if (!text)
            gw_reply_problem(r, "internal-server-error", "out of memory");
        else
            gw_reply_bytes(r, 200, "text/yaml; charset=utf-8", text, strlen(text));
        free(text);
        return;
    }
    gw_reply_json(r, 200, tpl);
}

//  Ends a write on a template: the statement (id bound as ?1) and its reply.
static void
s_write(gw_request_t *r, const char *sql, const char *text, const char *name)
{
    bool may_write = false;
    json_t *row = s_load(r, gw_request_path_param(r, "template_id"), &may_write);
    if (!row)
        return;
    if (!may_write) {
        json_decref(row);
        gw_reply_problem(r, "generic-forbidden",
                         "Only the template's owner or an administrator may change it.");
        return;
    }
    bus_error_t err = {0};
    sqlite3_stmt *stmt = bus_db_stmt(gw_server_db(r->gw), sql);
    int rc = BUS_STATUS_INTERNAL;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, json_string_value(json_object_get(row, "id")), -1,
                          SQLITE_TRANSIENT);
        if (text) {
            sqlite3_bind_text(stmt, 2, text, -1, SQLITE_STATIC);
            sqlite3_bind_text(stmt, 3, name, -1, SQLITE_STATIC);
        }
        rc = gw_store_step(gw_server_db(r->gw), stmt, &err);
        sqlite3_clear_bindings(stmt);
    }
    bus_log_info("session template %s id=%s by=%s", text ? "updated" : "deleted",
                 json_string_value(json_object_get(row, "id")), r->who.access_key);
    json_decref(row);
    if (rc != BUS_OK)
        gw_reply_problem(r, "internal-server-error", "database error");
    else
        gw_reply_json(r, 200, json_pack("{s:b}", "success", 1));
}

void
gw_template_handle_update(gw_request_t *r)
{
    json_t *tpl = s_payload(r);
    if (!tpl)
        return;
    char *text = json_dumps(tpl, JSON_COMPACT);
    if (!text)
        gw_reply_problem(r, "internal-server-error", "out of memory");
    else
        s_write(
            r, "UPDATE session_templates SET template = ?2, name = ?3 WHERE id = ?1",
            text,
            json_string_value(json_object_get(json_object_get(tpl, "metadata"), "name")));
    free(text);
    json_decref(tpl);
}

void
gw_template_handle_delete(gw_request_t *r)
{
    s_write(r, "UPDATE session_templates SET is_active = 0 WHERE id = ?1", NULL, NULL);
}

void
gw_template_handle_create_session(gw_request_t *r)
{
    json_t *id = json_object_get(r->params, "template_id");
    if (!json_is_string(id)) {
        gw_reply_problem(r, "invalid-api-params", "template_id: a string is required");
        return;
    }
    json_t *row = s_load(r, json_string_value(id), NULL);
    if (!row)
        return;
    json_t *tpl =
        json_loads(json_string_value(json_object_get(row, "template")), 0, NULL);
    if (!tpl) {
        json_decref(row);
        gw_reply_problem(r, "internal-server-error", "the stored template is unreadable");
        return;
    }
    json_t *merged = gw_template_merge(
        tpl, json_string_value(json_object_get(row, "group_name")), r->params);
    json_decref(tpl);
    json_decref(row);
    json_decref(r->params);
    r->params = merged;
    gw_session_handle_create(r);
}
