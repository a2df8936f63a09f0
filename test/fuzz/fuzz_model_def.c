/*  =========================================================================
    fuzz_model_def - libFuzzer target for model definitions (gw_model_def)

    A model folder's model-definition.yaml is user text the gateway reads
    when a model service is created. A refusal must name the file; an
    accepted definition must be a model service the agent will take: a
    name, an absolute model_path, a non-empty list of strings to run, a
    port from 1 to 65535 but the runner's own, a health check with an
    absolute path when there is one. Any broken promise aborts, so the
    fuzzer reports it like a crash.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "../../services/gateway/gw_model_def.h"

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char detail[512] = "";
    json_t *service = gw_model_def_parse("model-definition.yaml", (const char *) data,
                                         size, detail, sizeof detail);
    if (!service) {
        s_check(strncmp(detail, "model-definition.yaml: ", 23) == 0);
        return 0;
    }
    const char *name = json_string_value(json_object_get(service, "name"));
    const char *path = json_string_value(json_object_get(service, "model_path"));
    json_t *argv = json_object_get(service, "start_command");
    json_int_t port = json_integer_value(json_object_get(service, "port"));
    s_check(name && *name && path && path[0] == '/');
    s_check(json_is_array(argv) && json_array_size(argv) > 0);
    size_t index;
    json_t *word;
    json_array_foreach(argv, index, word) s_check(json_is_string(word));
    s_check(port >= 1 && port <= 65535 && port != 2000 && port != 2001);
    json_t *check = json_object_get(service, "health_check");
    if (check) {
        const char *health = json_string_value(json_object_get(check, "path"));
        s_check(health && health[0] == '/');
        s_check(json_is_integer(json_object_get(check, "max_retries")));
        s_check(json_is_number(json_object_get(check, "max_wait_time")));
    }
    //  What kernel.create carries: its text reads back the same.
    char *text = json_dumps(service, JSON_COMPACT);
    json_t *back = text ? json_loads(text, 0, NULL) : NULL;
    s_check(back && json_equal(back, service));
    json_decref(back);
    free(text);
    json_decref(service);
    return 0;
}
