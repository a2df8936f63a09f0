/*  =========================================================================
    agent_service_def - an app's service definition, made a shell line

    The script is built in an evbuffer. A formatted string becomes one shell
    word: its literal pieces single-quoted, a ref "${bp_ref_<name>}", side by
    side ('--config='"${bp_ref_conf}"), so the shell expands the refs and
    nothing else.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <event2/buffer.h>

#define S_REFS_MAX 32

//  What one rendering knows: the variables and the refs defined so far.
typedef struct {
    const agent_service_vars_t *vars;
    const char *refs[S_REFS_MAX];
    size_t nrefs;
    bus_error_t *err;
} s_render_t;

bool
agent_service_name_valid(const char *name)
{
    size_t len = name ? strlen(name) : 0;
    if (len == 0 || len > AGENT_SERVICE_NAME_MAX)
        return false;
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char) *p) && *p != '_' && *p != '-')
            return false;
    return true;
}

static const struct {
    const char *name;
    const char *def;
} s_builtins[] = {
    {"jupyter",
     "{\"command\": [\"{runtime_path}\", \"-m\", \"notebook\", \"--no-browser\","
     " \"--allow-root\", \"--ip=0.0.0.0\", \"--port={ports[0]}\","
     " \"--NotebookApp.token=\", \"--NotebookApp.password=\","
     " \"--NotebookApp.allow_origin=*\"]}"},
    {"jupyterlab",
     "{\"command\": [\"{runtime_path}\", \"-m\", \"jupyterlab\", \"--no-browser\","
     " \"--allow-root\", \"--ip=0.0.0.0\", \"--port={ports[0]}\","
     " \"--ServerApp.token=\", \"--ServerApp.password=\","
     " \"--ServerApp.allow_origin=*\"]}"},
    //  Backend.AI's agent offers ttyd on every kernel; ours is backplane-ttyd.
    {"ttyd",
     "{\"command\": [\"" AGENT_KERNEL_TTYD_PATH "\", \"--port\", \"{ports[0]}\"]}"},
};

const char *
agent_service_def_builtin(const char *name)
{
    for (size_t i = 0; name && i < sizeof s_builtins / sizeof s_builtins[0]; i++)
        if (strcmp(s_builtins[i].name, name) == 0)
            return s_builtins[i].def;
    return NULL;
}

int
agent_service_ports_parse(const char *text, int *ports, size_t max)
{
    size_t n = 0;
    const char *p = text;
    while (p && *p) {
        char *end;
        errno = 0;
        long port = strtol(p, &end, 10);
        if (end == p || errno || port < 1 || port > 65535 || n == max ||
            (*end && *end != ','))
            return -1;
        ports[n++] = (int) port;
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return -1; //  a trailing comma
    }
    return n ? (int) n : -1;
}

//  A shell identifier (refs and variable names).
static bool
s_identifier(const char *name, size_t len)
{
    if (len == 0 || (!isalpha((unsigned char) name[0]) && name[0] != '_'))
        return false;
    for (size_t i = 1; i < len; i++)
        if (!isalnum((unsigned char) name[i]) && name[i] != '_')
            return false;
    return true;
}

//  Literal bytes, single-quoted ('\'' for a quote).
static void
s_quote(struct evbuffer *out, const char *text, size_t len)
{
    evbuffer_add(out, "'", 1);
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\'')
            evbuffer_add(out, "'\\''", 4);
        else
            evbuffer_add(out, &text[i], 1);
    evbuffer_add(out, "'", 1);
}

//  Appends one placeholder's value: {runtime_path}, {ports[i]}, or a ref.
static int
s_field(s_render_t *self, struct evbuffer *out, const char *field, size_t len)
{
    const agent_service_vars_t *vars = self->vars;
    if (len == 12 && strncmp(field, "runtime_path", 12) == 0) {
        const char *path = vars->runtime_path ? vars->runtime_path : "";
        if (!*path)
            return bus_error_set(self->err, BUS_STATUS_INVALID,
                                 "the image has no runtime path for {runtime_path}");
        s_quote(out, path, strlen(path));
        return BUS_OK;
    }
    if (len > 7 && strncmp(field, "ports[", 6) == 0 && field[len - 1] == ']') {
        size_t index = 0;
        for (size_t i = 6; i < len - 1; i++) {
            if (!isdigit((unsigned char) field[i]) || index > AGENT_SERVICE_PORTS_MAX)
                return bus_error_set(self->err, BUS_STATUS_INVALID,
                                     "bad placeholder {%.*s}", (int) len, field);
            index = index * 10 + (size_t) (field[i] - '0');
        }
        if (index >= vars->nports)
            return bus_error_set(self->err, BUS_STATUS_INVALID,
                                 "{%.*s}: the app has %zu ports", (int) len, field,
                                 vars->nports);
        evbuffer_add_printf(out, "%d", vars->ports[index]);
        return BUS_OK;
    }
    for (size_t i = 0; i < self->nrefs; i++)
        if (strlen(self->refs[i]) == len && strncmp(self->refs[i], field, len) == 0) {
            evbuffer_add_printf(out, "\"${bp_ref_%.*s}\"", (int) len, field);
            return BUS_OK;
        }
    return bus_error_set(self->err, BUS_STATUS_INVALID,
                         "placeholder {%.*s} names nothing", (int) len, field);
}

//  A format string as one shell word.
static int
s_word(s_render_t *self, struct evbuffer *out, const char *text)
{
    if (!text)
        return bus_error_set(self->err, BUS_STATUS_INVALID, "a string is expected");
    bool any = false;
    char literal[4096];
    size_t n = 0;
    for (const char *p = text;; p++) {
        bool brace = *p == '{' && p[1] != '{';
        if (!*p || brace || n + 1 >= sizeof literal) {
            if (n) {
                s_quote(out, literal, n);
                any = true;
                n = 0;
            }
            if (!*p)
                break;
        }
        if (brace) {
            const char *end = strchr(p + 1, '}');
            const char *inner = strchr(p + 1, '{');
            if (!end || (inner && inner < end))
                return bus_error_set(self->err, BUS_STATUS_INVALID,
                                     "unclosed placeholder in \"%.64s\"", text);
            int rc = s_field(self, out, p + 1, (size_t) (end - p - 1));
            if (rc != BUS_OK)
                return rc;
            any = true;
            p = end;
            continue;
        }
        if ((*p == '{' || *p == '}') && p[1] == *p)
            p++; //  {{ and }} are the braces themselves
        else if (*p == '}')
            return bus_error_set(self->err, BUS_STATUS_INVALID, "single '}' in \"%.64s\"",
                                 text);
        literal[n++] = *p;
    }
    if (!any)
        evbuffer_add(out, "''", 2);
    return BUS_OK;
}

//  Each string of a list as a word, space-separated.
static int
s_words(s_render_t *self, struct evbuffer *out, json_t *list)
{
    if (!json_is_array(list))
        return bus_error_set(self->err, BUS_STATUS_INVALID,
                             "a list of strings is expected");
    size_t i;
    json_t *item;
    json_array_foreach(list, i, item)
    {
        if (i)
            evbuffer_add(out, " ", 1);
        int rc = s_word(self, out, json_string_value(item));
        if (rc != BUS_OK)
            return rc;
    }
    return BUS_OK;
}

//  A file mode of three or four octal digits; "644" when absent.
static int
s_mode(s_render_t *self, json_t *value, char *mode)
{
    const char *text = value ? json_string_value(value) : "644";
    size_t len = text ? strlen(text) : 0;
    if (len < 3 || len > 4 || strspn(text, "01234567") != len)
        return bus_error_set(self->err, BUS_STATUS_INVALID, "bad file mode");
    strcpy(mode, text);
    return BUS_OK;
}

//  printf of body's lines (formatted) into the word of target, and its mode.
static int
s_write_lines(
    s_render_t *self, struct evbuffer *out, json_t *args, const char *target, bool append)
{
    char mode[5];
    int rc = s_mode(self, json_object_get(args, "mode"), mode);
    if (rc != BUS_OK)
        return rc;
    evbuffer_add_printf(out, "printf '%%s\\n' ");
    rc = s_words(self, out, json_object_get(args, "body"));
    if (rc != BUS_OK)
        return rc;
    evbuffer_add_printf(out, " %s %s\nchmod %s %s\n", append ? ">>" : ">", target, mode,
                        target);
    return BUS_OK;
}

//  One prestart action.
static int
s_action(s_render_t *self, struct evbuffer *out, json_t *action)
{
    const char *kind = json_string_value(json_object_get(action, "action"));
    json_t *args = json_object_get(action, "args");
    const char *ref = json_string_value(json_object_get(action, "ref"));
    if (!kind || (args && !json_is_object(args)))
        return bus_error_set(self->err, BUS_STATUS_INVALID,
                             "a prestart action needs an action name and args");
    if (ref && (!s_identifier(ref, strlen(ref)) || self->nrefs == S_REFS_MAX))
        return bus_error_set(self->err, BUS_STATUS_INVALID, "bad ref \"%.64s\"", ref);
    int rc = BUS_OK;
    if (strcmp(kind, "write_file") == 0) {
        struct evbuffer *target = evbuffer_new();
        rc = target ? s_word(self, target,
                             json_string_value(json_object_get(args, "filename")))
                    : bus_error_set(self->err, BUS_STATUS_INTERNAL, "out of memory");
        if (rc == BUS_OK) {
            evbuffer_add(target, "", 1);
            char *path = (char *) evbuffer_pullup(target, -1);
            rc = s_write_lines(self, out, args, path,
                               json_is_true(json_object_get(args, "append")));
        }
        if (target)
            evbuffer_free(target);
        ref = NULL; //  nothing to refer to
    } else if (strcmp(kind, "write_tempfile") == 0) {
        char target[96];
        if (!ref)
            ref = "tempfile"; //  written, though nothing names it
        snprintf(target, sizeof target, "\"${bp_ref_%s}\"", ref);
        evbuffer_add_printf(out, "bp_ref_%s=$(mktemp)\n", ref);
        rc = s_write_lines(self, out, args, target, false);
    } else if (strcmp(kind, "mkdir") == 0) {
        evbuffer_add_printf(out, "mkdir -p ");
        rc = s_word(self, out, json_string_value(json_object_get(args, "path")));
        evbuffer_add(out, "\n", 1);
        ref = NULL;
    } else if (strcmp(kind, "run_command") == 0) {
        //  A ref gets the command's output (Backend.AI's "out").
        if (ref)
            evbuffer_add_printf(out, "bp_ref_%s=$(", ref);
        rc = s_words(self, out, json_object_get(args, "command"));
        evbuffer_add_printf(out, "%s\n", ref ? ")" : "");
    } else if (strcmp(kind, "log") == 0) {
        evbuffer_add_printf(out, "printf '%%s\\n' ");
        rc = s_word(self, out, json_string_value(json_object_get(args, "message")));
        evbuffer_add(out, " >&2\n", 5);
        ref = NULL;
    } else
        return bus_error_set(self->err, BUS_STATUS_INVALID,
                             "unknown prestart action %.64s", kind);
    if (rc == BUS_OK && ref)
        self->refs[self->nrefs++] = ref;
    return rc;
}

//  Whether list (a JSON array of strings, or NULL) holds name.
static bool
s_allowed(json_t *list, const char *name)
{
    size_t i;
    json_t *item;
    json_array_foreach(list, i, item)
    {
        const char *allowed = json_string_value(item);
        if (allowed && strcmp(allowed, name) == 0)
            return true;
    }
    return false;
}

//  One argument: its option, then its value or values.
static int
s_argument(s_render_t *self, struct evbuffer *out, const char *option, json_t *value)
{
    evbuffer_add(out, " ", 1);
    s_quote(out, option, strlen(option));
    if (json_is_null(value))
        return BUS_OK;
    if (json_is_string(value)) {
        evbuffer_add(out, " ", 1);
        s_quote(out, json_string_value(value), json_string_length(value));
        return BUS_OK;
    }
    size_t i;
    json_t *item;
    if (!json_is_array(value))
        return bus_error_set(self->err, BUS_STATUS_INVALID,
                             "argument %.64s: null, a string or a list of strings",
                             option);
    json_array_foreach(value, i, item)
    {
        if (!json_is_string(item))
            return bus_error_set(self->err, BUS_STATUS_INVALID,
                                 "argument %.64s: null, a string or a list of strings",
                                 option);
        evbuffer_add(out, " ", 1);
        s_quote(out, json_string_value(item), json_string_length(item));
    }
    return BUS_OK;
}

static const char *s_keys[] = {
    "command",      "prestart",          "prestart_actions",  "url_template", "env",
    "allowed_envs", "allowed_arguments", "default_arguments", "noop"};

static int
s_check_keys(s_render_t *self, json_t *def)
{
    const char *key;
    json_t *value;
    json_object_foreach(def, key, value)
    {
        bool known = false;
        for (size_t i = 0; i < sizeof s_keys / sizeof s_keys[0]; i++)
            known = known || strcmp(s_keys[i], key) == 0;
        if (!known)
            return bus_error_set(self->err, BUS_STATUS_INVALID,
                                 "unknown key %.64s in the service definition", key);
    }
    json_t *allowed_args = json_object_get(def, "allowed_arguments");
    json_t *allowed_envs = json_object_get(def, "allowed_envs");
    json_t *env = json_object_get(def, "env");
    json_t *defaults = json_object_get(def, "default_arguments");
    if ((allowed_args && !json_is_array(allowed_args)) ||
        (allowed_envs && !json_is_array(allowed_envs)) || (env && !json_is_object(env)) ||
        (defaults && !json_is_object(defaults)))
        return bus_error_set(self->err, BUS_STATUS_INVALID,
                             "malformed service definition: allowed_* are lists, env and "
                             "default_arguments objects");
    return BUS_OK;
}

//  The script's body after the checks.
static int
s_render(s_render_t *self, json_t *def, struct evbuffer *out)
{
    const agent_service_vars_t *vars = self->vars;
    evbuffer_add_printf(out, "set -e\n");
    json_t *actions = json_object_get(def, "prestart");
    if (!actions)
        actions = json_object_get(def, "prestart_actions");
    if (actions && !json_is_array(actions))
        return bus_error_set(self->err, BUS_STATUS_INVALID, "prestart is a list");
    size_t i;
    json_t *item;
    json_array_foreach(actions, i, item)
    {
        int rc = s_action(self, out, item);
        if (rc != BUS_OK)
            return rc;
    }
    const char *name;
    json_t *value;
    json_object_foreach(json_object_get(def, "env"), name, value)
    {
        if (!s_identifier(name, strlen(name)))
            return bus_error_set(self->err, BUS_STATUS_INVALID,
                                 "bad environment variable name %.64s", name);
        evbuffer_add_printf(out, "export %s=", name);
        int rc = s_word(self, out, json_string_value(value));
        if (rc != BUS_OK)
            return rc;
        evbuffer_add(out, "\n", 1);
    }
    json_t *allowed_envs = json_object_get(def, "allowed_envs");
    json_object_foreach(vars->envs, name, value)
    {
        if (!s_allowed(allowed_envs, name) || !s_identifier(name, strlen(name)))
            return bus_error_set(self->err, BUS_STATUS_INVALID,
                                 "the service does not allow the variable %.64s", name);
        if (!json_is_string(value))
            return bus_error_set(self->err, BUS_STATUS_INVALID,
                                 "variable %.64s: a string is expected", name);
        evbuffer_add_printf(out, "export %s=", name);
        s_quote(out, json_string_value(value), json_string_length(value));
        evbuffer_add(out, "\n", 1);
    }
    evbuffer_add_printf(out, "exec ");
    json_t *command = json_object_get(def, "command");
    if (!json_is_array(command) || json_array_size(command) == 0)
        return bus_error_set(self->err, BUS_STATUS_INVALID,
                             "the service definition has no command");
    int rc = s_words(self, out, command);
    //  The defaults the user did not give, then the user's own.
    json_t *allowed_args = json_object_get(def, "allowed_arguments");
    json_object_foreach(json_object_get(def, "default_arguments"), name, value)
    {
        if (rc == BUS_OK && !json_object_get(vars->arguments, name))
            rc = s_argument(self, out, name, value);
    }
    json_object_foreach(vars->arguments, name, value)
    {
        if (rc == BUS_OK && !s_allowed(allowed_args, name))
            rc = bus_error_set(self->err, BUS_STATUS_INVALID,
                               "the service does not allow the argument %.64s", name);
        if (rc == BUS_OK)
            rc = s_argument(self, out, name, value);
    }
    evbuffer_add(out, "\n", 1);
    return rc;
}

int
agent_service_def_render(const char *text,
                         size_t size,
                         const agent_service_vars_t *vars,
                         char **script_p,
                         bool *noop_p,
                         bus_error_t *err)
{
    assert(text && vars && script_p && noop_p);
    *script_p = NULL;
    *noop_p = false;
    if (size > AGENT_SERVICE_DEF_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "the service definition is too big");
    if ((vars->arguments && !json_is_object(vars->arguments)) ||
        (vars->envs && !json_is_object(vars->envs)))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "arguments and envs are JSON objects");
    json_error_t parse;
    json_t *def = json_loadb(text, size, JSON_REJECT_DUPLICATES, &parse);
    if (!json_is_object(def)) {
        json_decref(def);
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "the service definition is not a JSON object: %s at line %d",
                             parse.text, parse.line);
    }
    s_render_t self = {.vars = vars, .err = err};
    int rc = s_check_keys(&self, def);
    if (rc == BUS_OK && json_is_true(json_object_get(def, "noop"))) {
        *noop_p = true;
        json_decref(def);
        return BUS_OK;
    }
    struct evbuffer *out = rc == BUS_OK ? evbuffer_new() : NULL;
    if (rc == BUS_OK && !out)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    if (rc == BUS_OK)
        rc = s_render(&self, def, out);
    if (rc == BUS_OK) {
        size_t length = evbuffer_get_length(out);
        char *script = malloc(length + 1);
        if (!script)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        else {
            evbuffer_remove(out, script, length);
            script[length] = '\0';
            *script_p = script;
        }
    }
    if (out)
        evbuffer_free(out);
    json_decref(def);
    return rc;
}
