/*  =========================================================================
    gw_model_def - a model folder's model-definition.yaml, read and checked

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  Ports a model may not take: the runner's own (Backend.AI's 2000, 2001).
static bool
s_port_reserved(json_int_t port)
{
    return port == 2000 || port == 2001;
}

//  An integer member of object within [min, max], else fallback when
//  absent; false (with detail) when present and not one.
static bool
s_integer(json_t *object,
          const char *key,
          const char *where,
          json_int_t min,
          json_int_t max,
          json_int_t fallback,
          json_int_t *out,
          char *detail,
          size_t dsize)
{
    json_t *value = json_object_get(object, key);
    if (!value || json_is_null(value)) {
        *out = fallback;
        return true;
    }
    if (!json_is_integer(value) || json_integer_value(value) < min ||
        json_integer_value(value) > max) {
        snprintf(detail, dsize, "%s.%s: an integer from %lld to %lld", where, key,
                 (long long) min, (long long) max);
        return false;
    }
    *out = json_integer_value(value);
    return true;
}

//  health_check, checked, into service (the model_service object).
static bool
s_health_check(
    const char *file, json_t *check, json_t *service, char *detail, size_t dsize)
{
    const char *where = "models[0].service.health_check";
    const char *path = json_string_value(json_object_get(check, "path"));
    if (!json_is_object(check)) {
        snprintf(detail, dsize, "%s: %s: a mapping with a path", file, where);
        return false;
    }
    if (!path || path[0] != '/' || strlen(path) > 1000 || strpbrk(path, " \r\n\t")) {
        snprintf(detail, dsize, "%s: %s.path: required, an absolute URL path", file,
                 where);
        return false;
    }
    json_int_t retries, code;
    char member[256];
    if (!s_integer(check, "max_retries", where, 0, 1000, 10, &retries, member,
                   sizeof member) ||
        !s_integer(check, "expected_status_code", where, 100, 599, 200, &code, member,
                   sizeof member)) {
        snprintf(detail, dsize, "%s: %s", file, member);
        return false;
    }
    json_t *wait = json_object_get(check, "max_wait_time");
    double wait_s = wait && !json_is_null(wait) ? json_number_value(wait) : 5.0;
    if (wait && !json_is_null(wait) &&
        (!json_is_number(wait) || wait_s < 0.1 || wait_s > 3600)) {
        snprintf(detail, dsize, "%s: %s.max_wait_time: seconds, from 0.1 to 3600", file,
                 where);
        return false;
    }
    json_object_set_new(service, "health_check",
                        json_pack("{s:s, s:I, s:f, s:I}", "path", path, "max_retries",
                                  retries, "max_wait_time", wait_s,
                                  "expected_status_code", code));
    return true;
}

const gw_model_variant_t gw_model_variants[] = {
    {"vllm", "vLLM", "vllm-model", "/health", false},
    {"nim", "NVIDIA NIM", "nim-model", "/v1/health/ready", false},
    {"cmd", "Predefined Image Command", "image-model", NULL, true},
    {"custom", "Custom (Default)", NULL, NULL, true},
};
const size_t gw_model_variant_count =
    sizeof gw_model_variants / sizeof gw_model_variants[0];

const gw_model_variant_t *
gw_model_def_variant_find(const char *name)
{
    for (size_t i = 0; name && i < gw_model_variant_count; i++)
        if (strcmp(gw_model_variants[i].name, name) == 0)
            return &gw_model_variants[i];
    return NULL;
}

json_t *
gw_model_def_variant(const gw_model_variant_t *variant, const char *model_path)
{
    if (!variant || !variant->model_name)
        return NULL;
    json_t *service =
        json_pack("{s:s, s:s, s:b, s:i}", "name", variant->model_name, "model_path",
                  model_path, "image_command", 1, "port", GW_MODEL_VARIANT_PORT);
    if (service && variant->health_path)
        json_object_set_new(service, "health_check",
                            json_pack("{s:s, s:i, s:f, s:i}", "path",
                                      variant->health_path, "max_retries", 10,
                                      "max_wait_time", 5.0, "expected_status_code", 200));
    return service;
}

json_t *
gw_model_def_parse(
    const char *file, const char *text, size_t size, char *detail, size_t dsize)
{
    char problem[512];
    json_t *doc = gw_template_parse(text, size, problem, sizeof problem);
    if (!doc) {
        snprintf(detail, dsize, "%s: %s", file, problem);
        return NULL;
    }
    json_t *models = json_object_get(doc, "models");
    json_t *model = json_array_get(models, 0);
    json_t *service = json_object_get(model, "service");
    json_t *argv = json_object_get(service, "start_command");
    const char *name = json_string_value(json_object_get(model, "name"));
    const char *path = json_string_value(json_object_get(model, "model_path"));
    json_t *out = NULL;
    json_int_t port = 0;
    char member[256];
    *detail = 0;
    if (!json_is_object(doc) || !json_is_array(models) || !json_is_object(model))
        snprintf(detail, dsize, "%s: models: a list of at least one model", file);
    else if (!name || !*name || strlen(name) > 200)
        snprintf(detail, dsize, "%s: models[0].name: required, 1 to 200 characters",
                 file);
    else if (!path || path[0] != '/' || strlen(path) > 1000)
        snprintf(detail, dsize, "%s: models[0].model_path: required, an absolute path",
                 file);
    else if (!json_is_object(service))
        snprintf(detail, dsize,
                 "%s: models[0].service: required to serve the model (start_command, "
                 "port)",
                 file);
    else if (json_object_get(service, "pre_start_actions") &&
             json_array_size(json_object_get(service, "pre_start_actions")) > 0)
        snprintf(detail, dsize,
                 "%s: models[0].service.pre_start_actions: not supported by Backplane; "
                 "run them from start_command",
                 file);
    else if (!json_is_array(argv) || json_array_size(argv) == 0 ||
             json_array_size(argv) > 256)
        snprintf(detail, dsize,
                 "%s: models[0].service.start_command: required, a list of strings",
                 file);
    else if (!s_integer(service, "port", "models[0].service", 1, 65535, 0, &port, member,
                        sizeof member) ||
             port == 0 || s_port_reserved(port))
        snprintf(detail, dsize,
                 "%s: models[0].service.port: required, 1 to 65535, not 2000 or 2001",
                 file);
    size_t index;
    json_t *word;
    json_array_foreach(argv, index, word)
    {
        if (!*detail && (!json_is_string(word) || strlen(json_string_value(word)) > 4096))
            snprintf(detail, dsize, "%s: models[0].service.start_command[%zu]: a string",
                     file, index);
    }
    if (!*detail) {
        out = json_pack("{s:s, s:s, s:O, s:I}", "name", name, "model_path", path,
                        "start_command", argv, "port", port);
        json_t *check = json_object_get(service, "health_check");
        if (check && !json_is_null(check) &&
            !s_health_check(file, check, out, detail, dsize)) {
            json_decref(out);
            out = NULL;
        }
    }
    json_decref(doc);
    return out;
}

//  A metadata member that is text in the card: strings as they are, and a
//  number or a boolean (YAML's 1.0, or a date the parser typed) as its
//  text, since authors write `version: 1.0` and mean the text.
static json_t *
s_card_text(json_t *value)
{
    if (json_is_string(value))
        return json_incref(value);
    if (json_is_integer(value))
        return json_sprintf("%lld", (long long) json_integer_value(value));
    if (json_is_real(value))
        return json_sprintf("%g", json_real_value(value));
    if (json_is_boolean(value))
        return json_string(json_is_true(value) ? "true" : "false");
    return NULL;
}

json_t *
gw_model_def_card(
    const char *file, const char *text, size_t size, char *detail, size_t dsize)
{
    static const char *const texts[] = {
        "author",      "title",       "version",  "created",      "last_modified",
        "description", "task",        "category", "architecture", "license",
        "created_at",  "modified_at", NULL};
    static const char *const lists[] = {"framework", "label", NULL};
    char problem[512];
    *detail = 0;
    json_t *doc = gw_template_parse(text, size, problem, sizeof problem);
    if (!doc) {
        snprintf(detail, dsize, "%s: %s", file, problem);
        return NULL;
    }
    json_t *model = json_array_get(json_object_get(doc, "models"), 0);
    const char *name = json_string_value(json_object_get(model, "name"));
    const char *path = json_string_value(json_object_get(model, "model_path"));
    json_t *metadata = json_object_get(model, "metadata");
    json_t *card = NULL, *out_meta = json_object();
    if (!json_is_object(doc) || !json_is_object(model))
        snprintf(detail, dsize, "%s: models: a list of at least one model", file);
    else if (!name || !*name || strlen(name) > 200)
        snprintf(detail, dsize, "%s: models[0].name: required, 1 to 200 characters",
                 file);
    else if (!path || !*path)
        snprintf(detail, dsize, "%s: models[0].model_path: required", file);
    else if (metadata && !json_is_null(metadata) && !json_is_object(metadata))
        snprintf(detail, dsize, "%s: models[0].metadata: a mapping", file);
    for (const char *const *key = texts; !*detail && *key; key++) {
        json_t *value = json_object_get(metadata, *key);
        if (!value || json_is_null(value))
            continue;
        json_t *as_text = s_card_text(value);
        if (!as_text)
            snprintf(detail, dsize, "%s: models[0].metadata.%s: a text", file, *key);
        else
            json_object_set_new(out_meta, *key, as_text);
    }
    for (const char *const *key = lists; !*detail && *key; key++) {
        json_t *value = json_object_get(metadata, *key);
        if (!value || json_is_null(value))
            continue;
        json_t *list = json_array();
        json_t *one = s_card_text(value);
        if (one) //  a single word for a list of one, as authors write it
            json_array_append_new(list, one);
        size_t index;
        json_t *item;
        json_array_foreach(value, index, item)
        {
            json_t *word = s_card_text(item);
            if (!word) {
                snprintf(detail, dsize, "%s: models[0].metadata.%s[%zu]: a text", file,
                         *key, index);
                break;
            }
            json_array_append_new(list, word);
        }
        if (!one && !json_is_array(value))
            snprintf(detail, dsize, "%s: models[0].metadata.%s: a list of texts", file,
                     *key);
        json_object_set_new(out_meta, *key, list);
    }
    json_t *min_resource = json_object_get(metadata, "min_resource");
    if (!*detail && min_resource && !json_is_null(min_resource)) {
        if (!json_is_object(min_resource))
            snprintf(detail, dsize,
                     "%s: models[0].metadata.min_resource: a mapping of slots", file);
        else
            json_object_set(out_meta, "min_resource", min_resource);
    }
    if (!*detail)
        card = json_pack("{s:s, s:O}", "name", name, "metadata", out_meta);
    json_decref(out_meta);
    json_decref(doc);
    return card;
}

json_t *
gw_model_def_message(const char *detail)
{
    if (!detail)
        detail = "";
    size_t size = strlen(detail);
    if (gw_ws_utf8_valid((const uint8_t *) detail, size))
        return json_string(detail);
    //  At most 3 bytes (U+FFFD) for each byte in.
    char *clean = malloc(size * 3 + 1);
    if (!clean)
        return NULL;
    size_t out = 0;
    for (size_t i = 0; i < size;) {
        uint8_t c = (uint8_t) detail[i];
        size_t length = c < 0x80             ? 1
                        : (c & 0xE0) == 0xC0 ? 2
                        : (c & 0xF0) == 0xE0 ? 3
                        : (c & 0xF8) == 0xF0 ? 4
                                             : 0;
        if (length && i + length <= size &&
            gw_ws_utf8_valid((const uint8_t *) detail + i, length)) {
            memcpy(clean + out, detail + i, length);
            out += length;
            i += length;
        } else {
            memcpy(clean + out, "\xEF\xBF\xBD", 3);
            out += 3;
            i++;
        }
    }
    json_t *text = json_stringn(clean, out);
    free(clean);
    return text;
}
