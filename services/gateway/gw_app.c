/*  =========================================================================
    gw_app - one app of a session: which one a request means, and starting it

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  An integer parameter that may come as a JSON number or, from a query
//  string, as text. 0 when absent; -1 when malformed.
static int64_t
s_int_param(json_t *params, const char *key)
{
    json_t *value = json_object_get(params, key);
    if (!value || json_is_null(value))
        return 0;
    if (json_is_integer(value))
        return json_integer_value(value);
    const char *text = json_string_value(value);
    char *end = NULL;
    errno = 0;
    long long number = text && *text ? strtoll(text, &end, 10) : -1;
    return text && *text && !*end && !errno ? number : -1;
}

bool
gw_app_resolve(gw_request_t *r, const proto_session_info_t *info, gw_app_t *app)
{
    memset(app, 0, sizeof *app);
    const char *name = json_string_value(json_object_get(r->params, "app"));
    if (!name)
        name = json_string_value(json_object_get(r->params, "service"));
    if (!name || !*name) {
        gw_reply_problem(r, "invalid-api-params", "app (or service) is required");
        return false;
    }
    int64_t wanted = s_int_param(r->params, "port");
    if (wanted != 0 && (wanted < 1024 || wanted > 65535)) {
        gw_reply_problem(r, "invalid-api-params", "port is a number of 1024..65535");
        return false;
    }
    if (!gw_session_kernel(r, info, &app->at))
        return false;
    json_t *apps = gw_apps_of_session(gw_request_ctx(r)->db, info->session_id,
                                      info->image, info->preopen_ports);
    json_t *found = NULL;
    size_t index;
    json_t *entry;
    json_array_foreach(apps, index, entry)
    {
        const char *entry_name = json_string_value(json_object_get(entry, "name"));
        if (!found && entry_name && strcmp(entry_name, name) == 0)
            found = entry;
    }
    if (!found) {
        //  Which ones there are, so that a typo is easy to see.
        char list[512] = "";
        size_t used = 0;
        json_array_foreach(apps, index, entry)
        {
            int n = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "",
                             json_string_value(json_object_get(entry, "name")));
            if (n < 0 || (size_t) n >= sizeof list - used)
                break;
            used += (size_t) n;
        }
        char detail[700];
        snprintf(detail, sizeof detail, "the session has no app %.64s; its apps: %s",
                 name, used ? list : "none");
        json_decref(apps);
        gw_reply_problem(r, "object-not-found", detail);
        return false;
    }
    const char *protocol = json_string_value(json_object_get(found, "protocol"));
    if (protocol && strcmp(protocol, "pty") == 0) {
        json_decref(apps);
        gw_reply_problem(r, "internal-server-error", "pty apps cannot be opened");
        return false;
    }
    if (!protocol || (strcmp(protocol, "http") != 0 && strcmp(protocol, "tcp") != 0 &&
                      strcmp(protocol, "preopen") != 0)) {
        json_decref(apps);
        gw_reply_problem(r, "invalid-api-params", "the app's protocol cannot be opened");
        return false;
    }
    //  The ports, the asked one first: the agent waits for the first.
    json_t *ports = json_object_get(found, "ports");
    size_t used = 0;
    bool declared = wanted == 0;
    app->port =
        wanted ? (int) wanted : (int) json_integer_value(json_array_get(ports, 0));
    used = (size_t) snprintf(app->ports, sizeof app->ports, "%d", app->port);
    json_array_foreach(ports, index, entry)
    {
        int port = (int) json_integer_value(entry);
        if (port == app->port) {
            declared = true;
            continue;
        }
        int n = snprintf(app->ports + used, sizeof app->ports - used, ",%d", port);
        if (n > 0 && (size_t) n < sizeof app->ports - used)
            used += (size_t) n;
    }
    if (!declared || app->port < 1) {
        char detail[160];
        snprintf(detail, sizeof detail, "Service %.64s does not open the port number %d.",
                 name, (int) wanted);
        json_decref(apps);
        gw_reply_problem(r, "invalid-api-params", detail);
        return false;
    }
    snprintf(app->name, sizeof app->name, "%s", name);
    snprintf(app->protocol, sizeof app->protocol, "%s", protocol);
    snprintf(app->user_uuid, sizeof app->user_uuid, "%s",
             info->user_uuid ? info->user_uuid : "");
    snprintf(app->access_key, sizeof app->access_key, "%s",
             info->access_key ? info->access_key : "");
    char *runtime_path = gw_apps_image_label(gw_request_ctx(r)->db, info->image,
                                             "ai.backend.runtime-path");
    snprintf(app->runtime_path, sizeof app->runtime_path, "%s",
             runtime_path ? runtime_path : "");
    free(runtime_path);
    json_decref(apps);
    return true;
}

//  ---------------------------------------------------------------------------

typedef struct {
    gw_request_t *r;
    gw_app_t *app;
    gw_app_started_fn *fn;
    void *arg;
} s_start_t;

static void
s_on_started(void *arg, const bus_reply_t *reply)
{
    s_start_t *start = arg;
    gw_request_t *r = start->r;
    gw_app_t *app = start->app;
    proto_kernel_start_service_rep_t rep;
    bus_error_t err = {0};
    int rc = reply->status == BUS_OK ? proto_kernel_start_service_rep_decode(
                                           &rep, reply->body, reply->body_size, &err)
                                     : reply->status;
    if (rc == BUS_OK) {
        snprintf(app->status, sizeof app->status, "%s", rep.status);
        snprintf(app->host, sizeof app->host, "%s", rep.host);
        app->host_port = (int) rep.port;
        proto_kernel_start_service_rep_clear(&rep);
    }
    gw_app_started_fn *fn = start->fn;
    void *fn_arg = start->arg;
    free(start);
    if (rc != BUS_OK) {
        const char *detail = reply->status != BUS_OK ? reply->detail : err.detail;
        bus_log_info("app failed to start session=%s app=%s detail=\"%s\"",
                     app->at.session_id, app->name, detail ? detail : "");
        gw_reply_problem_data(r, "internal-server-error",
                              "Failed to launch the app service",
                              json_pack("{s:s}", "error", detail ? detail : ""));
    }
    fn(r, app, rc == BUS_OK, fn_arg);
}

void
gw_app_start(gw_request_t *r, gw_app_t *app, gw_app_started_fn *fn, void *arg)
{
    const char *arguments = json_string_value(json_object_get(r->params, "arguments"));
    const char *envs = json_string_value(json_object_get(r->params, "envs"));
    proto_kernel_start_service_req_t in;
    proto_kernel_start_service_req_init(&in);
    in.kernel_id = app->at.kernel_id;
    in.name = app->name;
    in.protocol = app->protocol;
    in.ports = app->ports;
    in.runtime_path = app->runtime_path;
    in.arguments = arguments;
    in.envs = envs;
    //  What the client typed (arguments, envs) may be over the schema's
    //  limits: a 400 naming it, before anything is sent.
    bus_error_t err = {0};
    bus_writer_t *writer = proto_kernel_start_service_req_writer(&in, &err);
    if (!writer) {
        gw_reply_problem(r,
                         err.status == BUS_STATUS_INVALID ? "invalid-api-params"
                                                          : "internal-server-error",
                         err.detail);
        fn(r, app, false, arg);
        return;
    }
    s_start_t *start = calloc(1, sizeof *start);
    bool sent = false;
    if (start) {
        *start = (s_start_t){.r = r, .app = app, .fn = fn, .arg = arg};
        sent = gw_session_call(r, app->at.agent_addr, PROTO_KERNEL_START_SERVICE, writer,
                               GW_APP_START_TIMEOUT_MS, s_on_started, start);
        writer = NULL; //  the call took it
    }
    bus_writer_destroy(&writer);
    if (!sent) {
        free(start);
        gw_reply_problem(r, "service-unavailable",
                         "the session's agent is not reachable");
        fn(r, app, false, arg);
    }
}
