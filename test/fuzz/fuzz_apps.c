/*  =========================================================================
    fuzz_apps - libFuzzer target for the image label ai.backend.service-ports

    The label comes from an image's metadata, which agents report, so it is
    outside input. The fuzz input, cut at its first NUL byte as a label
    string would be, is parsed with gw_apps_parse. A failure must set an
    invalid status and a short message; a success must be an array of at
    most 64 apps, each with a non-empty name of at most 64 bytes and no
    colon, a protocol among http, tcp and preopen (pty entries are left
    out) and one or more ports, each an integer in 1..65535. Parsing twice
    gives the same answer, and when no name holds a bracket or a comma, the
    apps written back as a label parse to the same apps. Any broken promise
    aborts, so the fuzzer reports it like a crash.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "../../services/gateway/gw_apps.h"

#define FUZZ_APPS_MAX_INPUT 65536
#define FUZZ_APPS_MAX_APPS  64
#define FUZZ_APPS_MAX_NAME  64

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

//  Checks one app and appends it to label as name:protocol:[port,...].
//  Returns false when its name would not survive being written back.
static bool
s_check_app(json_t *app, char *label, size_t size)
{
    s_check(json_is_object(app));
    const char *name = json_string_value(json_object_get(app, "name"));
    const char *protocol = json_string_value(json_object_get(app, "protocol"));
    json_t *ports = json_object_get(app, "ports");
    s_check(name != NULL && protocol != NULL && json_is_array(ports));
    s_check(*name != '\0' && strlen(name) <= FUZZ_APPS_MAX_NAME);
    s_check(strchr(name, ':') == NULL);
    s_check(strcmp(protocol, "http") == 0 || strcmp(protocol, "tcp") == 0 ||
            strcmp(protocol, "preopen") == 0);
    s_check(json_array_size(ports) >= 1);
    size_t used = strlen(label);
    int wrote =
        snprintf(label + used, size - used, "%s%s:%s:[", used ? "," : "", name, protocol);
    s_check(wrote > 0 && (size_t) wrote < size - used);
    size_t index;
    json_t *port;
    json_array_foreach(ports, index, port)
    {
        s_check(json_is_integer(port));
        json_int_t number = json_integer_value(port);
        s_check(number >= 1 && number <= 65535);
        used = strlen(label);
        wrote = snprintf(label + used, size - used, "%s%" JSON_INTEGER_FORMAT,
                         index ? "," : "", number);
        s_check(wrote > 0 && (size_t) wrote < size - used);
    }
    used = strlen(label);
    s_check(used + 1 < size);
    strcat(label, "]");
    return strpbrk(name, "[],") == NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_APPS_MAX_INPUT)
        return 0;
    char *text = malloc(size + 1);
    s_check(text != NULL);
    memcpy(text, data, size);
    text[size] = '\0';

    bus_error_t err = {0};
    json_t *apps = gw_apps_parse(text, &err);
    bus_error_t again_err = {0};
    json_t *again = gw_apps_parse(text, &again_err);
    if (!apps) {
        s_check(again == NULL);
        s_check(err.status == BUS_STATUS_INVALID);
        s_check(err.detail[0] != '\0' && strlen(err.detail) < BUS_ERROR_DETAIL_MAX);
        s_check(strcmp(err.detail, again_err.detail) == 0);
        free(text);
        return 0;
    }
    s_check(json_is_array(apps) && json_equal(apps, again));
    s_check(json_array_size(apps) <= FUZZ_APPS_MAX_APPS);

    //  Each app written back is at most 64 + 1 + 7 + 3 + 6 * ports bytes.
    size_t label_size = 1;
    size_t index;
    json_t *app;
    json_array_foreach(apps, index, app)
    {
        label_size += 96 + 6 * json_array_size(json_object_get(app, "ports"));
    }
    char *label = calloc(1, label_size);
    s_check(label != NULL);
    bool plain = true;
    json_array_foreach(apps, index, app)
    {
        plain = s_check_app(app, label, label_size) && plain;
    }
    if (plain) {
        json_t *written = gw_apps_parse(label, NULL);
        s_check(written != NULL && json_equal(written, apps));
        json_decref(written);
    }
    free(label);
    json_decref(again);
    json_decref(apps);
    free(text);
    return 0;
}
