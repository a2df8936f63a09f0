/*  =========================================================================
    gw_apps - the apps a session's image offers: service ports

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define APPS_MAX 64

//  One port number, digits only, 1..65535; -1 otherwise.
static long
s_port(const char *text, size_t size)
{
    if (size == 0 || size > 5)
        return -1;
    long port = 0;
    for (size_t i = 0; i < size; i++) {
        if (text[i] < '0' || text[i] > '9')
            return -1;
        port = port * 10 + (text[i] - '0');
    }
    return port >= 1 && port <= 65535 ? port : -1;
}

json_t *
gw_apps_parse(const char *label, bus_error_t *err)
{
    json_t *apps = json_array();
    const char *at = label ? label : "";
    while (apps && *at) {
        //  One entry: up to the next comma outside brackets.
        const char *end = at;
        int depth = 0;
        while (*end && (*end != ',' || depth > 0)) {
            depth += *end == '[' ? 1 : *end == ']' ? -1 : 0;
            end++;
        }
        const char *first = memchr(at, ':', (size_t) (end - at));
        const char *second =
            first ? memchr(first + 1, ':', (size_t) (end - first - 1)) : NULL;
        if (!first || !second || first == at || json_array_size(apps) >= APPS_MAX) {
            bus_error_set(err, BUS_STATUS_INVALID,
                          "service-ports entry '%.*s' is not name:protocol:port",
                          (int) (end - at), at);
            json_decref(apps);
            return NULL;
        }
        //  A name is at most 64 bytes of UTF-8 (JSON strings are UTF-8).
        json_t *name = first - at <= 64 ? json_stringn(at, (size_t) (first - at)) : NULL;
        if (!name) {
            bus_error_set(err, BUS_STATUS_INVALID,
                          "service-ports entry: a name is at most 64 bytes of UTF-8");
            json_decref(apps);
            return NULL;
        }
        char protocol[16];
        snprintf(protocol, sizeof protocol, "%.*s", (int) (second - first - 1),
                 first + 1);
        json_t *ports = json_array();
        const char *p = second + 1;
        bool listed = p < end && *p == '[';
        if (listed)
            p++;
        const char *stop = listed ? memchr(p, ']', (size_t) (end - p)) : end;
        bool ok = stop != NULL && (!listed || stop + 1 == end);
        while (ok && p < stop) {
            const char *comma = memchr(p, ',', (size_t) (stop - p));
            const char *item_end = comma ? comma : stop;
            long port = s_port(p, (size_t) (item_end - p));
            ok = port > 0;
            if (ok)
                json_array_append_new(ports, json_integer(port));
            p = comma ? comma + 1 : stop;
        }
        bool known = strcmp(protocol, "http") == 0 || strcmp(protocol, "tcp") == 0 ||
                     strcmp(protocol, "preopen") == 0 || strcmp(protocol, "pty") == 0;
        if (!ok || !known || json_array_size(ports) == 0) {
            bus_error_set(err, BUS_STATUS_INVALID,
                          "service-ports entry '%.*s': bad protocol or port",
                          (int) (end - at), at);
            json_decref(name);
            json_decref(ports);
            json_decref(apps);
            return NULL;
        }
        if (strcmp(protocol, "pty") == 0) {
            json_decref(name);
            json_decref(ports);
        } else
            json_array_append_new(apps, json_pack("{s:o, s:s, s:o}", "name", name,
                                                  "protocol", protocol, "ports", ports));
        at = *end ? end + 1 : end;
    }
    return apps;
}

char *
gw_apps_image_label(bus_db_t *db, const char *reference, const char *key)
{
    json_t *image = NULL;
    bus_error_t err = {0};
    char *value = NULL;
    if (reference &&
        gw_image_resolve(db, NULL, reference, NULL, &image, &err) == BUS_OK) {
        size_t index;
        json_t *pair;
        json_array_foreach(json_object_get(image, "labels"), index, pair)
        {
            const char *name = json_string_value(json_object_get(pair, "key"));
            const char *text = json_string_value(json_object_get(pair, "value"));
            if (!value && name && text && strcmp(name, key) == 0)
                value = strdup(text);
        }
    }
    json_decref(image);
    return value;
}

json_t *
gw_apps_of_image(bus_db_t *db, const char *reference)
{
    bus_error_t err = {0};
    char *label = gw_apps_image_label(db, reference, "ai.backend.service-ports");
    json_t *apps = gw_apps_parse(label, &err);
    if (!apps) {
        bus_log_warning("image %s: %s", reference, err.detail);
        apps = json_array();
    }
    free(label);
    return apps;
}

json_t *
gw_apps_of_session(bus_db_t *db,
                   const char *session_id,
                   const char *reference,
                   const char *preopen_ports)
{
    json_t *image = gw_apps_of_image(db, reference);
    //  The web terminal first, as Backend.AI's agent lists it on every kernel;
    //  an image entry of the same name or port would only shadow it.
    json_t *apps = json_pack("[{s:s, s:s, s:[i]}]", "name", GW_APPS_TTYD_NAME, "protocol",
                             "http", "ports", GW_APPS_TTYD_PORT);
    size_t at;
    json_t *app;
    json_array_foreach(image, at, app)
    {
        const char *name = json_string_value(json_object_get(app, "name"));
        bool clash = name && strcmp(name, GW_APPS_TTYD_NAME) == 0;
        size_t i;
        json_t *port;
        json_array_foreach(json_object_get(app, "ports"), i, port) clash =
            clash || json_integer_value(port) == GW_APPS_TTYD_PORT;
        if (!clash && json_array_size(apps) < APPS_MAX)
            json_array_append(apps, app);
    }
    json_decref(image);
    json_t *ports = preopen_ports ? json_loads(preopen_ports, 0, NULL) : NULL;
    size_t index;
    json_t *port;
    json_array_foreach(ports, index, port)
    {
        json_int_t number = json_integer_value(port);
        if (!json_is_integer(port) || number < 1 || number > 65535 ||
            number == GW_APPS_TTYD_PORT || json_array_size(apps) >= APPS_MAX)
            continue;
        char name[16];
        snprintf(name, sizeof name, "%" JSON_INTEGER_FORMAT, number);
        json_array_append_new(apps, json_pack("{s:s, s:s, s:[I]}", "name", name,
                                              "protocol", "preopen", "ports", number));
    }
    json_decref(ports);
    //  A model service's replica: its model's port, which clients must not
    //  offer as an app (is_inference), last.
    json_t *model = session_id ? gw_endpoint_service_port(db, session_id) : NULL;
    if (model && json_array_size(apps) < APPS_MAX)
        json_array_append(apps, model);
    json_decref(model);
    return apps;
}

static void
s_on_session(gw_request_t *r, proto_session_info_t *info, void *arg)
{
    (void) arg;
    gw_reply_json(r, 200,
                  gw_apps_of_session(gw_request_ctx(r)->db, info->session_id, info->image,
                                     info->preopen_ports));
}

void
gw_apps_handle(gw_request_t *r)
{
    gw_session_find(r, s_on_session, NULL);
}
