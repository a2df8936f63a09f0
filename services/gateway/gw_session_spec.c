/*  =========================================================================
    gw_session_spec - what a POST /session body asks for, checked

    Each check is a small function that reads one member (with its aliases)
    and answers BUS_OK or INVALID with a detail naming the member, in the
    words the client shows; gw_session_spec_parse runs them in order.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  Ports the kernel runner itself listens on, which a user may not preopen.
#define S_PORT_MIN 1025
#define S_PORT_MAX 65534

static const char *const k_name[] = {"name", "session_name", "clientSessionToken", NULL};
static const char *const k_image[] = {"image", "lang", NULL};
static const char *const k_arch[] = {"arch", "architecture", NULL};
static const char *const k_type[] = {"type", "sessionType", NULL};
static const char *const k_group[] = {"group", "groupName", "group_name", NULL};
static const char *const k_sgroup[] = {"scaling_group", "scalingGroup", NULL};
static const char *const k_opts[] = {"resource_opts", "resourceOpts", NULL};
static const char *const k_startup[] = {"startupCommand", "startup_command", NULL};
static const char *const k_preopen[] = {"preopen_ports", "preopenPorts", NULL};
static const char *const k_bootstrap[] = {"bootstrap_script", "bootstrapScript", NULL};
static const char *const k_cluster_size[] = {"cluster_size", "clusterSize", NULL};
static const char *const k_cluster_mode[] = {"cluster_mode", "clusterMode", NULL};
static const char *const k_batch_timeout[] = {"batch_timeout", "batchTimeout", NULL};
static const char *const k_starts_at[] = {"starts_at", "startsAt", NULL};

json_t *
gw_session_param(json_t *object, const char *const *keys)
{
    for (; *keys; keys++) {
        json_t *value = json_object_get(object, *keys);
        if (value && !json_is_null(value))
            return value;
    }
    return NULL;
}

bool
gw_session_name_valid(const char *name)
{
    size_t n = strlen(name);
    if (n < GW_SESSION_NAME_MIN || n > GW_SESSION_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char) name[i];
        bool word = isalnum(c) || c == '_';
        if (!word && ((i == 0 || i == n - 1) || (c != '.' && c != '-')))
            return false;
    }
    return true;
}

//  The name, the image and the type: what every create must say.
static int
s_identity(json_t *params, gw_session_spec_t *spec, bus_error_t *err)
{
    spec->name = json_string_value(gw_session_param(params, k_name));
    spec->image = json_string_value(gw_session_param(params, k_image));
    spec->arch = json_string_value(gw_session_param(params, k_arch));
    spec->group = json_string_value(gw_session_param(params, k_group));
    spec->startup = json_string_value(gw_session_param(params, k_startup));
    spec->tag = json_string_value(json_object_get(params, "tag"));
    const char *type = json_string_value(gw_session_param(params, k_type));
    if (!spec->name || !gw_session_name_valid(spec->name))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "name: 4-64 letters, digits, '_', '.', '-', starting and "
                             "ending with a letter, digit or '_'");
    if (!spec->image)
        return bus_error_set(err, BUS_STATUS_INVALID, "image is required");
    spec->batch = type && strcasecmp(type, "batch") == 0;
    if (type && !spec->batch && strcasecmp(type, "interactive") != 0)
        return bus_error_set(err, BUS_STATUS_INVALID, "type: interactive or batch");
    if (spec->batch && (!spec->startup || !*spec->startup))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "a batch session needs a startupCommand");
    return BUS_OK;
}

//  A port as a client sends it: a number, or a decimal string (the 22.03
//  client's --preopen sends "8080"). -1 for anything else.
static json_int_t
s_port_value(json_t *item)
{
    if (json_is_integer(item))
        return json_integer_value(item);
    const char *text = json_string_value(item);
    if (!text || !*text || strlen(text) > 5 || text[strspn(text, "0123456789")])
        return -1;
    return (json_int_t) strtol(text, NULL, 10);
}

//  config.preopen_ports as a JSON array text into spec->preopen: ints
//  1025..65534, not the runner's own ports (2000-2003, 2200, 7681), at most
//  GW_SESSION_PREOPEN_MAX, no duplicates; null or absent is none.
static int
s_preopen_ports(json_t *ports, gw_session_spec_t *spec, bus_error_t *err)
{
    char *text = spec->preopen;
    size_t size = sizeof spec->preopen;
    snprintf(text, size, "[]");
    if (!ports || json_is_null(ports))
        return BUS_OK;
    if (!json_is_array(ports) || json_array_size(ports) > GW_SESSION_PREOPEN_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "preopen_ports: a list of at most %d ports",
                             GW_SESSION_PREOPEN_MAX);
    size_t used = 0;
    for (size_t i = 0; i < json_array_size(ports); i++) {
        json_int_t port = s_port_value(json_array_get(ports, i));
        bool reserved = (port >= 2000 && port <= 2003) || port == 2200 || port == 7681;
        if (port < S_PORT_MIN || port > S_PORT_MAX || reserved)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "preopen_ports: ports are 1025..65534, not 2000-2003, "
                                 "2200 or 7681");
        for (size_t j = 0; j < i; j++)
            if (s_port_value(json_array_get(ports, j)) == port)
                return bus_error_set(
                    err, BUS_STATUS_INVALID,
                    "preopen_ports: port %" JSON_INTEGER_FORMAT " is listed twice", port);
        used += (size_t) snprintf(text + used, size - used, "%s%" JSON_INTEGER_FORMAT,
                                  i ? "," : "[", port);
    }
    if (json_array_size(ports) > 0)
        snprintf(text + used, size - used, "]");
    return BUS_OK;
}

//  bootstrap_script: a string of at most 64 KiB without NUL bytes; an
//  empty one is none.
static int
s_bootstrap(json_t *bootstrap, gw_session_spec_t *spec, bus_error_t *err)
{
    if (bootstrap && !json_is_null(bootstrap) &&
        (!json_is_string(bootstrap) ||
         json_string_length(bootstrap) > GW_SESSION_BOOTSTRAP_MAX ||
         strlen(json_string_value(bootstrap)) != json_string_length(bootstrap)))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "bootstrap_script: a string of at most 64 KiB");
    const char *script = json_string_value(bootstrap);
    spec->bootstrap = script && *script ? script : NULL;
    return BUS_OK;
}

//  Reads clusterSize (1..64), clusterMode, priority (0..100, default 10)
//  and batch_timeout (whole seconds); null or absent members take the
//  defaults.
static int
s_scheduling(json_t *params, gw_session_spec_t *spec, bus_error_t *err)
{
    json_t *size = gw_session_param(params, k_cluster_size);
    json_t *mode = gw_session_param(params, k_cluster_mode);
    json_t *priority = json_object_get(params, "priority");
    json_t *batch_timeout = gw_session_param(params, k_batch_timeout);
    spec->cluster_size = 1;
    spec->multi_node = false;
    spec->priority = GW_SESSION_PRIORITY;
    spec->batch_timeout_s = 0;
    if (size && !json_is_null(size)) {
        if (!json_is_integer(size) || json_integer_value(size) < 1 ||
            json_integer_value(size) > GW_SESSION_CLUSTER_MAX)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "cluster_size: an integer from 1 to 64");
        spec->cluster_size = (uint64_t) json_integer_value(size);
    }
    const char *mode_name = json_string_value(mode);
    if (mode && !json_is_null(mode) &&
        (!mode_name ||
         (strcmp(mode_name, "single-node") != 0 && strcmp(mode_name, "multi-node") != 0)))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "cluster_mode: single-node or multi-node");
    spec->multi_node = mode_name && strcmp(mode_name, "multi-node") == 0;
    if (priority && !json_is_null(priority)) {
        if (!json_is_integer(priority) || json_integer_value(priority) < 0 ||
            json_integer_value(priority) > GW_SESSION_PRIORITY_MAX)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "priority: an integer from 0 to 100");
        spec->priority = (uint64_t) json_integer_value(priority);
    }
    if (batch_timeout && !json_is_null(batch_timeout)) {
        if (!json_is_integer(batch_timeout) || json_integer_value(batch_timeout) < 0)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "batch_timeout: a whole number of seconds");
        spec->batch_timeout_s = (uint64_t) json_integer_value(batch_timeout);
    }
    return BUS_OK;
}

//  starts_at: an ISO 8601 time or a relative delay (gw_when), for later.
static int
s_starts_at(json_t *when, gw_session_spec_t *spec, bus_error_t *err)
{
    spec->starts_at = 0;
    if (!when || json_is_null(when))
        return BUS_OK;
    return gw_when_parse(json_string_value(when), bus_clock_wall_us(), &spec->starts_at,
                         err);
}

//  dependencies: null, or an array of at most 64 session ids or names of
//  the caller's sessions, which the scheduler resolves.
static int
s_dependencies(json_t *value, gw_session_spec_t *spec, bus_error_t *err)
{
    spec->dependencies = NULL;
    if (!value || json_is_null(value) ||
        (json_is_array(value) && json_array_size(value) == 0))
        return BUS_OK;
    bool valid =
        json_is_array(value) && json_array_size(value) <= GW_SESSION_DEPENDENCIES_MAX;
    size_t index;
    json_t *item;
    json_array_foreach(value, index, item) valid =
        valid && json_is_string(item) && json_string_length(item) >= 1 &&
        json_string_length(item) <= GW_SESSION_NAME_MAX &&
        strlen(json_string_value(item)) == json_string_length(item);
    if (!valid)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "dependencies: a list of at most 64 session ids or names");
    spec->dependencies = json_dumps(value, JSON_COMPACT);
    return spec->dependencies ? BUS_OK
                              : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
}

//  config.environ: the variables whose values are strings are set (others
//  are ignored, as before); more than the schema carries is refused rather
//  than cut short, so a session never starts without some of them.
static int
s_environ(json_t *env, gw_session_spec_t *spec, bus_error_t *err)
{
    spec->environ = json_is_object(env) ? env : NULL;
    size_t count = 0;
    const char *key;
    json_t *value;
    json_object_foreach(spec->environ, key, value) count += json_is_string(value);
    if (count > GW_SESSION_ENVIRON_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "config.environ: at most %d variables, not %zu",
                             GW_SESSION_ENVIRON_MAX, count);
    return BUS_OK;
}

int
gw_session_spec_parse(json_t *params, gw_session_spec_t *spec, bus_error_t *err)
{
    memset(spec, 0, sizeof *spec);
    json_t *config = json_object_get(params, "config");
    spec->scaling_group = json_string_value(gw_session_param(config, k_sgroup));
    spec->resources = json_object_get(config, "resources");
    spec->opts = gw_session_param(config, k_opts);
    spec->reuse = !json_is_false(json_object_get(params, "reuseIfExists"));
    spec->enqueue_only = json_is_true(json_object_get(params, "enqueueOnly"));
    spec->max_wait_s = json_integer_value(json_object_get(params, "maxWaitSeconds"));
    int rc = s_identity(params, spec, err);
    if (rc == BUS_OK)
        rc = s_preopen_ports(gw_session_param(config, k_preopen), spec, err);
    if (rc == BUS_OK)
        rc = s_bootstrap(gw_session_param(params, k_bootstrap), spec, err);
    if (rc == BUS_OK)
        rc = s_scheduling(params, spec, err);
    if (rc == BUS_OK)
        rc = s_starts_at(gw_session_param(params, k_starts_at), spec, err);
    if (rc == BUS_OK)
        rc = s_dependencies(json_object_get(params, "dependencies"), spec, err);
    if (rc == BUS_OK)
        rc = s_environ(json_object_get(config, "environ"), spec, err);
    return rc;
}

void
gw_session_spec_clear(gw_session_spec_t *spec)
{
    free(spec->dependencies);
    spec->dependencies = NULL;
}
